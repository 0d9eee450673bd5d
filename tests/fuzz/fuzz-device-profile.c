/* fuzz-device-profile.c — a device profile JSON (data/devices/zg330.json or a what-if file):
 * load, write back, load again, open a board with it. */
#include "zw-fuzz.h"

#include "devices/zg330-timing.h"

#include <stdio.h>
#include <stdlib.h>

int
zw_fuzz_device_profile (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Zg330Profile) profile = zg330_profile_load_from_data ((const char *) data, size, "fuzz.json", &error);

  if (profile == NULL)
    {
      zw_fuzz_check_error (error, "fuzz.json", "zg330_profile_load_from_data");
      return 0;
    }
  g_autofree char *json = zg330_profile_to_json (profile);
  g_autoptr (Zg330Profile) again = zg330_profile_load_from_data (json, strlen (json), "written.json", &error);
  if (again == NULL)
    {
      fprintf (stderr, "zw-fuzz: a profile we wrote does not load back: %s\n", error->message);
      abort ();
    }
  return 0;
}
