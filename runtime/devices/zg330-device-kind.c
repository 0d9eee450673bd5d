/* zg330-device-kind.c — mock://zg330 and mock://buyi: the simulated boards register their URLs
 * with the device layer when the runtime loads (runtime/xrt names no concrete device). Both are
 * the one board simulator (zg330-sim.h) with a profile of their own: data/devices/zg330.json,
 * and for Buyi data/devices/buyi.json (2 MiB OCM, 4x4 MPE grid, chip "Buyi"). */
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"

#include <string.h>

/* Opens mock://@name ("zg330" or "buyi"): profile=PATH is a what-if profile file, else the
 * board's own; the chip stays the URL's whatever the file says. */
static XrtDevice *
open_mock_board (const char *url, const char *url_name, GHashTable *params, GError **error)
{
  g_autofree char *name = g_ascii_strdown (url_name, -1);   /* mock://ZG330 is mock://zg330 */
  g_autoptr (Zg330Profile) profile = NULL;
  const char *profile_path = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (strcmp (key, "profile") != 0)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                       "device URL '%s': unknown parameter '%s' (mock://%s takes profile=PATH and fault=…)", url,
                       (const char *) key, name);
          return NULL;
        }
      profile_path = value;
    }
  if (profile_path && profile_path[0] != '\0')
    profile = zg330_profile_load (profile_path, error);
  else
    profile = zg330_profile_load_named (name, error);
  if (profile == NULL)
    return NULL;
  if (strcmp (name, "buyi") == 0)
    {
      /* a what-if profile may come from zg330.json: the board is a Buyi all the same */
      g_free (profile->chip);
      profile->chip = g_strdup ("Buyi");
    }
  return zg330_sim_open (profile, url, error);
}

__attribute__ ((constructor)) static void
register_mock_boards (void)
{
  xrt_device_register_kind ("mock", "zg330", "mock://zg330[?profile=PATH][&fault=KIND@N]", open_mock_board);
  xrt_device_register_kind ("mock", "buyi", "mock://buyi[?profile=PATH][&fault=KIND@N]", open_mock_board);
}
