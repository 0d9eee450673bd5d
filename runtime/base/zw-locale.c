/* zw-locale.c — the translations' folder (see the header). */
#include "base/zw-locale.h"

#include <string.h>

const char *
zw_locale_dir (const char *installed)
{
  static char *dir;
  const char *env = g_getenv ("ZW_LOCALEDIR");

  if (env != NULL && *env != '\0')
    return env;
  if (dir == NULL)
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *build_po = g_build_filename (ZW_BUILD_ROOT, "po", NULL);
      gsize n = strlen (ZW_BUILD_ROOT);

      if (exe != NULL && strncmp (exe, ZW_BUILD_ROOT, n) == 0 && exe[n] == G_DIR_SEPARATOR
          && g_file_test (build_po, G_FILE_TEST_IS_DIR))
        dir = g_steal_pointer (&build_po);
      else
        dir = g_strdup (installed);
    }
  return dir;
}
