/* fuzz-file-kind.c — the workbench's file-kind sniffing (what a dropped file opens as). */
#include "zw-fuzz.h"

#include "zw-file-kind.h"

int
zw_fuzz_file_kind (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  const char *names[] = { "fuzz.json", "fuzz_time.txt", "manifest.json", "fuzz.csv", "fuzz" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *path = zw_fuzz_write_file (names[i], data, size);
      ZwFileKind kind;
      g_autofree char *dir = NULL;
      if (!zw_file_kind_guess (path, &kind, &dir, &error))
        {
          zw_fuzz_check_error (error, names[i], "zw_file_kind_guess");
          g_clear_error (&error);
        }
    }
  return 0;
}
