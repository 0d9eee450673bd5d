/* zw-test-board.c: what the board tests share: the simulated board opened, a region's
 * allocator figures, and profile files written (see zw-test-board.h). */
#include "zw-test-board.h"

#include <string.h>

XrtDevice *
open_board (void)
{
  GError *error = NULL;
  XrtDevice *device = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  g_assert_nonnull (device);
  return device;
}

void
region_info (XrtMemRegion *region, XrtMemRegionInfo *info)
{
  xrt_mem_manager_get_info (xrt_mem_region_get_manager (region), info);
}

gchar *
write_temp (const char *dir, const char *name, const char *text)
{
  gchar *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

gchar *
profile_text_with (const char *field, const char *value)
{
  /* The built-in profile with one field's JSON value replaced (NULL value: removed). */
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autofree gchar *json = zg330_profile_to_json (p);
  g_autofree gchar *key = g_strdup_printf ("\n\t\"%s\":\t", field);
  const char *at = strstr (json, key);
  const char *end;

  g_assert_nonnull (at);
  end = strchr (at + strlen (key), '\n');
  if (value == NULL)
    return g_strdup_printf ("%.*s%s", (int) (at - json), json, end);
  return g_strdup_printf ("%.*s%s%s,%s", (int) (at - json), json, key, value, end);
}
