/* zg330-device-kind.c — mock://zg330: the simulated ZG330 board registers its URL with the
 * device layer when the runtime loads (runtime/xrt names no concrete device). */
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"

#include <string.h>

static XrtDevice *
open_zg330 (const char *url, const char *name, GHashTable *params, GError **error)
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
                       "device URL '%s': unknown parameter '%s' (mock://zg330 takes profile=PATH and fault=…)", url,
                       (const char *) key);
          return NULL;
        }
      profile_path = value;
    }
  if (profile_path && profile_path[0] != '\0')
    profile = zg330_profile_load (profile_path, error);
  else
    profile = zg330_profile_load_default (error);
  if (profile == NULL)
    return NULL;
  return zg330_sim_open (profile, url, error);
}

__attribute__ ((constructor)) static void
register_zg330 (void)
{
  xrt_device_register_kind ("mock", "zg330", "mock://zg330[?profile=PATH][&fault=KIND@N]", open_zg330);
}
