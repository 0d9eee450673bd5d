/* buyi-device-kind.c — mock://buyi: the simulated Buyi board registers its URL with the
 * device layer when the runtime loads.  It is the ZG330 board simulator (zg330-sim.h)
 * carrying the Buyi profile (data/devices/buyi.json: 2 MiB OCM, 4x4 MPE grid, chip "Buyi"). */
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"

#include <string.h>

static XrtDevice *
open_buyi (const char *url, const char *name, GHashTable *params, GError **error)
{
  g_autoptr (Zg330Profile) profile = NULL;
  const char *profile_path = NULL;
  GHashTableIter iter;
  gpointer key, value;

  (void) name;
  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (strcmp (key, "profile") != 0)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                       "device URL '%s': unknown parameter '%s' (mock://buyi takes profile=PATH and fault=…)", url,
                       (const char *) key);
          return NULL;
        }
      profile_path = value;
    }
  if (profile_path && profile_path[0] != '\0')
    profile = zg330_profile_load (profile_path, error);
  else
    profile = zg330_profile_load_named ("buyi", error);
  if (profile == NULL)
    return NULL;
  /* A what-if profile may come from zg330.json: the board is a Buyi all the same. */
  g_free (profile->chip);
  profile->chip = g_strdup ("Buyi");
  return zg330_sim_open (profile, url, error);
}

__attribute__ ((constructor)) static void
register_buyi (void)
{
  xrt_device_register_kind ("mock", "buyi", "mock://buyi[?profile=PATH][&fault=KIND@N]", open_buyi);
}
