/* zw-window-dumps.c — the window's tensor dumps: made by a forward into a visible folder kept
 * as long as its run (removed with the window), named by their run in the history, saved
 * where the user says, and diffed two at a time: two marked runs, or a folder with the one
 * Tensors shows (issue 37 item 3). */
#include "zw-window-private.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-dump-diff-view.h"

/* The folder "Dump tensors" makes its folders in: the user's cache, not a hidden /tmp one. */
static char *
dumps_root (void)
{
  return g_build_filename (g_get_user_cache_dir (), "zhuge-workbench", "dumps", NULL);
}

void
zw_window_dump_tensors (ZwWindow *self, const char *format)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = dumps_root ();
  g_autofree char *template = NULL;
  ZwDumpFormat parsed;
  ZwRunOptions options;
  char *dir;

  g_return_if_fail (ZW_IS_WINDOW (self));
  if (!zw_dump_format_parse (format, &parsed, &error))
    {
      zw_window_show_banner (self, error->message, NULL);
      return;
    }
  template = g_build_filename (root, "dump-XXXXXX", NULL);
  if (g_mkdir_with_parents (root, 0700) != 0 || (dir = g_mkdtemp (g_strdup (template))) == NULL)
    {
      int saved = errno;
      g_autofree char *message = NULL;
      /* TRANSLATORS: the folder tensor dumps go into cannot be made; %s: its path, the reason */
      message = g_strdup_printf (_("%s: cannot make a folder for the dump: %s"), root, g_strerror (saved));
      zw_window_show_banner (self, message, NULL);
      return;
    }
  g_ptr_array_add (self->temp_dumps, dir);
  if (self->pipeline_path != NULL && zw_selection_get_pipeline (self->selection) != NULL)
    {
      /* a pipeline open: one pass dumping every network's values into the one folder */
      zw_run_controller_dump_pipeline (self->controller, self->pipeline_path, dir, zw_dump_format_to_string (parsed));
      return;
    }
  g_clear_handle_id (&self->reapply_source, g_source_remove);
  zw_window_read_options (self, &options);
  zw_run_controller_set_options (self->controller, &options);
  zw_run_controller_request_dump (self->controller, dir, zw_dump_format_to_string (parsed));
}

void
zw_window_release_memory (void)
{
#ifdef __GLIBC__
  /* a dump's tensors are decoded in the controller's worker thread and a diff's in the main
   * one: glibc keeps the pages of the folders replaced in its arenas (~450 MiB after a few
   * dumps of the demo, bench-dumps); giving them back keeps memory bounded across dumps */
  malloc_trim (0);
#endif
}

/* Removes a "Dump tensors" folder: its files are flat (*.ftmp and manifest.json). */
void
zw_window_remove_dump_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* The run of the history that dumped into @dir, NULL for a folder opened from disk. */
static ZwRun *
run_of_dump (ZwWindow *self, const char *dir)
{
  GListModel *runs = G_LIST_MODEL (self->runs);

  for (guint i = g_list_model_get_n_items (runs); dir != NULL && i-- > 0;)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (runs, i);
      if (g_strcmp0 (zw_run_get_dump_dir (run), dir) == 0)
        return run;
    }
  return NULL;
}

char *
zw_window_dup_dump_label (ZwWindow *self, const char *dir)
{
  ZwRun *run;

  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  g_return_val_if_fail (dir != NULL, NULL);
  run = run_of_dump (self, dir);
  if (run != NULL)
    {
      g_autofree char *title = zw_run_dup_title (run);
      /* TRANSLATORS: a dump named by its run in the history and its folder */
      return g_strdup_printf (_("%s (%s)"), title, dir);
    }
  return g_strdup (dir);
}

gboolean
zw_window_diff_marked_runs (ZwWindow *self)
{
  g_autoptr (GPtrArray) marked = NULL;
  const char *dir_a, *dir_b;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  marked = zw_window_get_compare_runs (self);
  if (marked->len != 2)
    return FALSE;
  dir_a = zw_run_get_dump_dir (g_ptr_array_index (marked, 0));
  dir_b = zw_run_get_dump_dir (g_ptr_array_index (marked, 1));
  if (dir_a == NULL || dir_b == NULL)
    return FALSE;
  return zw_window_diff_dumps (self, dir_a, dir_b);
}

/* Copies the flat files of @src into @dest (made when missing). */
static gboolean
copy_dump (const char *src, const char *dest, GError **error)
{
  g_autoptr (GDir) d = g_dir_open (src, 0, error);
  const char *name;

  if (d == NULL)
    return FALSE;
  if (g_mkdir_with_parents (dest, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot make the folder: %s"), dest,
                   g_strerror (saved));
      return FALSE;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *from = g_build_filename (src, name, NULL);
      g_autofree char *to = g_build_filename (dest, name, NULL);
      g_autoptr (GFile) f_from = g_file_new_for_path (from);
      g_autoptr (GFile) f_to = g_file_new_for_path (to);
      if (g_file_test (from, G_FILE_TEST_IS_DIR))
        continue;
      if (!g_file_copy (f_from, f_to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
zw_window_save_dump (ZwWindow *self, const char *dest)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;
  ZwRun *run;
  const char *src = NULL;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (dest != NULL, FALSE);
  run = zw_window_get_selected_run (self);
  src = run != NULL && zw_run_get_dump_dir (run) != NULL ? zw_run_get_dump_dir (run) : self->tensors_dir;
  if (src == NULL)
    {
      zw_window_show_banner (self, _("Nothing to save: the selected run dumped no tensors (use Dump Tensors first)"),
                             NULL);
      return FALSE;
    }
  if (!copy_dump (src, dest, &error))
    {
      zw_window_show_banner (self, error->message, NULL);
      return FALSE;
    }
  /* TRANSLATORS: a dump was copied; %s: the folder the user chose */
  message = g_strdup_printf (_("Dump saved to %s"), dest);
  zw_window_show_banner (self, message, NULL);
  return TRUE;
}
