/* zw-recent-files.c — the recent files list (see the header). */
#include "zw-recent-files.h"

void
zw_recent_files_add (GtkStringList *recent, const char *path)
{
  guint n;
  g_autoptr (GStrvBuilder) builder = NULL;
  g_auto (GStrv) paths = NULL;

  g_return_if_fail (GTK_IS_STRING_LIST (recent));
  g_return_if_fail (path != NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (recent));
  if (n > 0 && g_strcmp0 (gtk_string_list_get_string (recent, 0), path) == 0)
    return;
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, path);
  for (guint i = 0, kept = 1; i < n && kept < ZW_RECENT_FILES_MAX; i++)
    if (g_strcmp0 (gtk_string_list_get_string (recent, i), path) != 0)
      {
        g_strv_builder_add (builder, gtk_string_list_get_string (recent, i));
        kept++;
      }
  paths = g_strv_builder_end (builder);
  gtk_string_list_splice (recent, 0, n, (const char *const *) paths);
}
