/* zw-window-actions.c — the window's actions (installed on the class; the keys come from
 * the table zw-shortcuts.c lists) and which of them are enabled. */
#include "zw-window-private.h"

#include "zw-run-history.h"
#include "zw-shortcuts.h"
#include "zw-sweep-view.h"

#include <glib/gi18n.h>

static void
action_export_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_export_to (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
action_export (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);

  (void) name;
  (void) param;
  zw_window_run_aux_chooser (self, CHOOSE_EXPORT,
                   ZW_IS_SWEEP_VIEW (zw_window_current_view (self))
                       ? _("Export the Sweep (.png, .svg, .pdf; .json or .csv: the sweep as xrt-run sweep writes it)")
                       : _("Export the View (.png, .svg, .pdf; .csv for its table; .json for the Chrome trace)"),
                   GTK_FILE_CHOOSER_ACTION_SAVE, FALSE, _("_Export"));
}

static void
action_open_dump (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_DUMP, _("Open a Dump Folder"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                   FALSE, _("_Open"));
}

static void
action_compare_files (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_COMPARE_FILES, _("Choose Two Time Profiles"),
                   GTK_FILE_CHOOSER_ACTION_OPEN, TRUE, _("_Compare"));
}

static void
action_diff_dumps (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  /* two runs marked in the history that both dumped: their dumps, no dialog */
  if (zw_window_diff_marked_runs (ZW_WINDOW (widget)))
    return;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_DIFF_FOLDERS,
                   _("Choose Two Dump Folders (or One to Compare with the Current Run)"),
                   GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, TRUE, _("_Diff"));
}

static void
action_save_dump (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_SAVE_DUMP, _("Save the Dump into a Folder"),
                             GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, FALSE, _("_Save"));
}

static void
action_compare_compile (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_run_aux_chooser (ZW_WINDOW (widget), CHOOSE_COMPILE,
                   _("Choose Another Compile of This Network (e.g. its Buyi or ZG330 JSON)"),
                   GTK_FILE_CHOOSER_ACTION_OPEN, FALSE, _("_Compare"));
}

static void
action_compare_compile_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_compare_compile (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
action_refresh_compiles (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);

  (void) name;
  (void) param;
  if (self->compiles_path != NULL)
    zw_window_compare_compile (self, self->compiles_path);
}

static void
action_compare_file_pair (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);

  (void) name;
  if (g_strv_length ((char **) paths) == 2)
    zw_window_compare_files (ZW_WINDOW (widget), paths[0], paths[1]);
}

static void
action_diff_folders (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);
  guint n = g_strv_length ((char **) paths);

  (void) name;
  if (n == 1 || n == 2)
    zw_window_diff_dumps (ZW_WINDOW (widget), paths[0], n == 2 ? paths[1] : NULL);
}

static void
action_dump_tensors (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_dump_tensors (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
action_open (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_choose_file (ZW_WINDOW (widget));
}

static void
action_open_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_open (ZW_WINDOW (widget), g_variant_get_string (param, NULL), FALSE);
}

static void
action_open_demo (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autofree char *demo = zw_window_find_demo ();

  (void) name;
  (void) param;
  if (demo == NULL)
    zw_window_show_banner (self,
                 _("The demo network yolov5s_ZG.json is not installed (looked in $ZW_DATA_DIR, the build tree "
                   "and the data folder)"),
                 NULL);
  else
    zw_window_open (self, demo, FALSE);
}

static void
action_use_synthetic_params (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autofree char *path = g_strdup (self->banner_path);

  (void) name;
  (void) param;
  if (path != NULL)
    zw_window_open (self, path, TRUE);
}

static void
action_apply (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_request (ZW_WINDOW (widget), ZW_RUN_MODE_APPLY);
}

static void
action_forward (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  /* a pipeline shown: one more pass of it, a row of the history */
  if (zw_window_pipeline_forward (ZW_WINDOW (widget)))
    return;
  zw_window_request (ZW_WINDOW (widget), ZW_RUN_MODE_FORWARD);
}

static void
action_run (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_request (ZW_WINDOW (widget), ZW_RUN_MODE_RUN);
}

static void
action_cancel (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_run_controller_cancel (ZW_WINDOW (widget)->controller);
}

static ZwRun *
run_at (ZwWindow *self, GVariant *param)
{
  guint pos = g_variant_get_uint32 (param);

  if (pos >= g_list_model_get_n_items (G_LIST_MODEL (self->runs)))
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (self->runs), pos);
}

static void
action_select_run (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autoptr (ZwRun) run = run_at (self, param);

  (void) name;
  if (run != NULL)
    zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), run);
}

static void
action_toggle_compare (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (ZwRun) run = run_at (ZW_WINDOW (widget), param);

  (void) name;
  if (run != NULL)
    zw_run_set_compare (run, !zw_run_get_compare (run));
}

static void
action_dismiss_banner (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_window_show_banner (ZW_WINDOW (widget), NULL, NULL);
}

static void
action_show_shortcuts (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  gtk_window_present (zw_shortcuts_window_new (GTK_WINDOW (widget)));
}

static void
action_select_history (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);

  (void) param;
  if (g_str_equal (action, "win.select-back"))
    zw_selection_go_back (self->selection);
  else
    zw_selection_go_forward (self->selection);
}

void
zw_window_update_actions (ZwWindow *self)
{
  gboolean live = zw_run_controller_has_network (self->controller) && !self->offline;
  gboolean busy = zw_run_controller_get_busy (self->controller);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.apply", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.forward", live || zw_window_pipeline_can_forward (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.use-synthetic-params", self->banner_path != NULL);
  /* a pipeline open dumps its pass (zw_window_dump_tensors) */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.dump-tensors",
                                 live || (self->pipeline_path != NULL && zw_selection_get_pipeline (self->selection) != NULL));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-compile", live);
  /* a dump to save: the selected run's, or a folder Tensors shows */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-dump",
                                 self->tensors_dir != NULL
                                     || (zw_window_get_selected_run (self) != NULL
                                         && zw_run_get_dump_dir (zw_window_get_selected_run (self)) != NULL));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.refresh-compiles", live && self->compiles_path != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.sweep", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.sweep-what-if", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.select-back", zw_selection_can_go_back (self->selection));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.select-forward",
                                 zw_selection_can_go_forward (self->selection));
  zw_window_pipeline_make_update_actions (self);
  zw_window_pipeline_history_update_actions (self);
}

void
zw_window_class_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "win.open-file", "s", action_open_file);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, action_open_demo);
  gtk_widget_class_install_action (widget_class, "win.open-demo-pipeline", NULL, zw_window_action_open_demo_pipeline);
  gtk_widget_class_install_action (widget_class, "win.use-synthetic-params", NULL, action_use_synthetic_params);
  gtk_widget_class_install_action (widget_class, "win.apply", NULL, action_apply);
  gtk_widget_class_install_action (widget_class, "win.forward", NULL, action_forward);
  gtk_widget_class_install_action (widget_class, "win.run", NULL, action_run);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, action_cancel);
  gtk_widget_class_install_action (widget_class, "win.select-run", "u", action_select_run);
  gtk_widget_class_install_action (widget_class, "win.toggle-compare", "u", action_toggle_compare);
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, action_dismiss_banner);
  gtk_widget_class_install_action (widget_class, "win.show-shortcuts", NULL, action_show_shortcuts);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, action_export);
  gtk_widget_class_install_action (widget_class, "win.export-file", "s", action_export_file);
  gtk_widget_class_install_action (widget_class, "win.open-dump", NULL, action_open_dump);
  gtk_widget_class_install_action (widget_class, "win.dump-tensors", "s", action_dump_tensors);
  gtk_widget_class_install_action (widget_class, "win.diff-dumps", NULL, action_diff_dumps);
  gtk_widget_class_install_action (widget_class, "win.save-dump", NULL, action_save_dump);
  gtk_widget_class_install_action (widget_class, "win.diff-folders", "as", action_diff_folders);
  gtk_widget_class_install_action (widget_class, "win.compare-files", NULL, action_compare_files);
  gtk_widget_class_install_action (widget_class, "win.compare-file-pair", "as", action_compare_file_pair);
  gtk_widget_class_install_action (widget_class, "win.compare-compile", NULL, action_compare_compile);
  gtk_widget_class_install_action (widget_class, "win.compare-compile-file", "s", action_compare_compile_file);
  gtk_widget_class_install_action (widget_class, "win.refresh-compiles", NULL, action_refresh_compiles);
  gtk_widget_class_install_action (widget_class, "win.sweep", NULL, zw_window_action_sweep);
  gtk_widget_class_install_action (widget_class, "win.sweep-what-if", "s", zw_window_action_sweep_what_if);
  gtk_widget_class_install_action (widget_class, "win.select-back", NULL, action_select_history);
  gtk_widget_class_install_action (widget_class, "win.select-forward", NULL, action_select_history);
  gtk_widget_class_install_property_action (widget_class, "win.toggle-sidebar", "sidebar-visible");
  gtk_widget_class_install_property_action (widget_class, "win.view", "view");
  gtk_widget_class_install_property_action (widget_class, "win.merge-hardop", "merge-hardop");
  gtk_widget_class_install_property_action (widget_class, "win.etm-optimize", "etm-optimize");
  gtk_widget_class_install_property_action (widget_class, "win.ocm-option", "ocm-option");

  zw_window_pipeline_make_install_actions (widget_class);
  zw_window_pipeline_history_install_actions (widget_class);

  /* the keys come from the table the shortcuts window lists */
  zw_shortcuts_install_bindings (widget_class, "win.");
}
