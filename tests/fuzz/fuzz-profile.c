/* fuzz-profile.c — time profiles in every format we read (vendor *_time.txt, our JSON, CSV,
 * Chrome trace): parse, then write each format back and read it again. */
#include "zw-fuzz.h"

#include "report/zw-profile.h"

#include <stdio.h>
#include <stdlib.h>

int
zw_fuzz_profile (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  ZwProfileFormat format;
  g_autoptr (ZwProfile) profile = zw_profile_parse ((const char *) data, (gssize) size, "fuzz_time.txt", warnings,
                                                    &format, &error);

  if (profile == NULL)
    {
      zw_fuzz_check_error (error, "fuzz_time.txt", "zw_profile_parse");
      return 0;
    }
  /* what we write reads back, in every format: a profile read has rows (an empty one is
   * refused alike in every format) */
  if (profile->rows->len == 0)
    {
      fprintf (stderr, "zw-fuzz: a profile without rows was accepted\n");
      abort ();
    }
  for (int f = ZW_PROFILE_FORMAT_VENDOR; f <= ZW_PROFILE_FORMAT_TRACE; f++)
    {
      g_autofree char *text = zw_profile_to_string (profile, (ZwProfileFormat) f);
      g_autoptr (GError) again_error = NULL;
      g_autoptr (ZwProfile) again = zw_profile_parse (text, -1, "written", NULL, NULL, &again_error);
      if (again == NULL)
        {
          fprintf (stderr, "zw-fuzz: a profile we wrote as %s does not read back: %s\n",
                   zw_profile_format_to_string ((ZwProfileFormat) f), again_error->message);
          abort ();
        }
    }
  return 0;
}
