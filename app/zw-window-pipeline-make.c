/* zw-window-pipeline-make.c — a pipeline from networks the user opens together (issue 38):
 * several network files chosen in Open (its "Open as one pipeline" choice) or in "Open
 * Networks as a Pipeline…", or dropped together (the banner offers it); the pipeline file
 * (xrt_pipeline_compose(): the networks in the given order, connected by position where
 * one's outputs are the next one's inputs) is written into the user's cache and opened as
 * any pipeline file; "Save Pipeline As…" keeps a copy where the user says. Also two
 * pipeline reports compared in Compare, rows named NET:OP_ID. */
#include "zw-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "base/zw-file.h"
#include "deploy/xrt-pipeline.h"
#include "zw-compare-view.h"
#include "zw-file-kind.h"

/* Where made pipelines are written: the user's cache, beside the dumps. */
static char *
made_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "zhuge-workbench", "pipelines", NULL);
}

static gboolean
is_made (const char *path)
{
  g_autofree char *dir = made_dir ();
  g_autofree char *parent = path != NULL ? g_path_get_dirname (path) : NULL;
  return parent != NULL && g_str_equal (parent, dir);
}

/* The first 64 KiB of @path (NUL-terminated), NULL when it cannot be read. */
static char *
file_head (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = g_file_read (file, NULL, NULL);
  g_autofree char *head = NULL;
  gsize n = 0;

  if (in == NULL)
    return NULL;
  head = g_malloc0 (65537);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), head, 65536, &n, NULL, NULL))
    return NULL;
  return g_steal_pointer (&head);
}

/* A network JSON (not a deploy report: the first 64 KiB do not say "zhuge-deploy-report"). */
static gboolean
is_network_file (const char *path)
{
  ZwFileKind kind;
  g_autofree char *head = NULL;

  if (!zw_file_kind_guess (path, &kind, NULL, NULL) || kind != ZW_FILE_KIND_NETWORK)
    return FALSE;
  return (head = file_head (path)) != NULL && strstr (head, "\"zhuge-deploy-report\"") == NULL;
}

gboolean
zw_window_is_pipeline_report (const char *path)
{
  ZwFileKind kind;
  g_autofree char *head = NULL;

  if (!zw_file_kind_guess (path, &kind, NULL, NULL) || kind != ZW_FILE_KIND_PIPELINE)
    return FALSE;
  return (head = file_head (path)) != NULL && strstr (head, "\"zhuge-pipeline-report\"") != NULL;
}

gboolean
zw_window_paths_are_networks (const char *const *paths)
{
  guint n = 0;

  for (; paths[n] != NULL; n++)
    if (!is_network_file (paths[n]))
      return FALSE;
  return n >= 2;
}

void
zw_window_offer_pipeline (ZwWindow *self, const char *const *paths)
{
  g_autofree char *message = NULL;
  guint n = g_strv_length ((char **) paths);

  /* TRANSLATORS: %u: how many network files were opened together (2 or more) */
  message = g_strdup_printf (
      ngettext ("%u network opened together: open them as one pipeline on one board (in this order, connected "
                "where one's outputs are the next one's inputs)?",
                "%u networks opened together: open them as one pipeline on one board (in this order, connected where "
                "one's outputs are the next one's inputs)?",
                n),
      n);
  zw_window_show_banner (self, message, NULL);
  g_strfreev (self->banner_networks);
  self->banner_networks = g_strdupv ((char **) paths);
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->banner), GTK_MESSAGE_QUESTION);
  gtk_widget_set_visible (self->pipeline_button, TRUE);
}

gboolean
zw_window_open_as_pipeline (ZwWindow *self, const char *const *paths)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *dir = made_dir ();
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GString) name = g_string_new (NULL);

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (paths != NULL, FALSE);

  zw_window_show_banner (self, NULL, NULL);
  if ((text = xrt_pipeline_compose (paths, NULL, &error)) == NULL)
    {
      zw_window_banner_for_error (self, paths[0], error);
      return FALSE;
    }
  /* named after its networks: the same networks again write the same file */
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (paths[i]);
      char *dot = strrchr (base, '.');
      if (dot != NULL)
        *dot = '\0';
      g_string_append_printf (name, "%s%s", i ? "+" : "", base);
    }
  g_string_append (name, "_pipeline.toml");
  file = zw_file_safe_name (name->str);
  path = g_build_filename (dir, file, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_autofree char *message = g_strdup_printf (_("%s: cannot make the folder for the pipeline file: %s"), dir,
                                                  g_strerror (errno));
      zw_window_show_banner (self, message, NULL);
      return FALSE;
    }
  if (!zw_file_set_contents (path, text, -1, &error))
    {
      zw_window_banner_for_error (self, path, error);
      return FALSE;
    }
  zw_window_open (self, path, FALSE);
  return TRUE;
}

gboolean
zw_window_save_pipeline (ZwWindow *self, const char *dest)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (dest != NULL, FALSE);
  if (!is_made (self->pipeline_path))
    {
      zw_window_show_banner (self, _("No pipeline made from networks opened together is shown: nothing to save"), NULL);
      return FALSE;
    }
  /* its networks' paths are absolute: the copy reads the same from any folder */
  if (!g_file_get_contents (self->pipeline_path, &text, &len, &error) || !zw_file_set_contents (dest, text, (gssize) len, &error))
    {
      zw_window_banner_for_error (self, dest, error);
      return FALSE;
    }
  return TRUE;
}

gboolean
zw_window_compare_pipelines (ZwWindow *self, const char *path_a, const char *path_b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwPipelineReport) a = NULL;
  g_autoptr (ZwPipelineReport) b = NULL;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;
  ZwCompareView *view;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path_a != NULL && path_b != NULL, FALSE);
  zw_window_show_banner (self, NULL, NULL);
  if ((a = zw_pipeline_report_load (path_a, &error)) == NULL)
    {
      zw_window_banner_for_error (self, path_a, error);
      return FALSE;
    }
  if ((b = zw_pipeline_report_load (path_b, &error)) == NULL)
    {
      zw_window_banner_for_error (self, path_b, error);
      return FALSE;
    }
  view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  zw_window_compare_labels (path_a, path_b, &label_a, &label_b);
  if (!zw_compare_view_set_pipelines (view, a, b, NULL, label_a, label_b, &error))
    {
      zw_window_banner_for_error (self, path_a, error);
      return FALSE;
    }
  self->compare_from_runs = FALSE;
  zw_window_compare_forget_unmapped (self);
  zw_window_set_view (self, "compare");
  zw_window_set_shown_file (self, path_b);
  return TRUE;
}

static void
action_open_as_pipeline (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_OPEN_AS_PIPELINE,
                             _("Open Networks as a Pipeline (choose them; they run in the order chosen)"),
                             GTK_FILE_CHOOSER_ACTION_OPEN, TRUE, _("_Open"));
}

static void
action_open_as_pipeline_files (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);

  (void) name;
  zw_window_open_as_pipeline (ZW_WINDOW (widget), paths);
}

static void
action_save_pipeline (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_SAVE_PIPELINE, _("Save the Pipeline As"),
                             GTK_FILE_CHOOSER_ACTION_SAVE, FALSE, _("_Save"));
}

static void
action_save_pipeline_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_save_pipeline (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
action_compare_pipeline_files (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);

  (void) name;
  if (g_strv_length ((char **) paths) == 2)
    zw_window_compare_pipelines (ZW_WINDOW (widget), paths[0], paths[1]);
}

void
zw_window_pipeline_make_update_actions (ZwWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-pipeline", is_made (self->pipeline_path));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-pipeline-file", is_made (self->pipeline_path));
}

void
zw_window_pipeline_make_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-as-pipeline", NULL, action_open_as_pipeline);
  gtk_widget_class_install_action (widget_class, "win.open-as-pipeline-files", "as", action_open_as_pipeline_files);
  gtk_widget_class_install_action (widget_class, "win.save-pipeline", NULL, action_save_pipeline);
  gtk_widget_class_install_action (widget_class, "win.save-pipeline-file", "s", action_save_pipeline_file);
  gtk_widget_class_install_action (widget_class, "win.compare-pipeline-files", "as", action_compare_pipeline_files);
}
