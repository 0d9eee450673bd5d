/* zw-window-open.c — what the window opens: files by their kind (networks and deploy logs
 * through the controller, time profiles, sweeps, dump folders, text logs), several at once
 * (a drop), the choosers, the recent files menu, and export of the current view. */
#include "zw-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "zw-compare-view.h"
#include "report/zw-profile-plan.h"
#include "zw-dump-diff-view.h"
#include "zw-export.h"
#include "zw-file-kind.h"
#include "zw-log-view.h"
#include "zw-recent-files.h"
#include "zw-sweep-view.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

void
zw_window_set_shown_file (ZwWindow *self, const char *path)
{
  if (path != NULL && self->recent != NULL)
    zw_recent_files_add (self->recent, path);
  if (g_strcmp0 (self->shown_file, path) == 0)
    return;
  g_free (self->shown_file);
  self->shown_file = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), zw_window_pspec (PROP_SHOWN_FILE));
}

static void
open_profile (ZwWindow *self, const char *path)
{
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) profile = zw_profile_load (path, warnings, NULL, &error);

  zw_window_show_banner (self, NULL, NULL);
  if (profile == NULL)
    {
      zw_window_banner_for_error (self, path, error);
      return;
    }
  /* the file becomes a run of the history (selecting it shows it in Timing and names it in
   * the title); a file's op ids need not be a deployment's: no report behind it */
  {
    g_autoptr (ZwRun) run = zw_run_new_from_profile (g_steal_pointer (&profile), path);
    zw_window_on_run_finished (NULL, run, self);
  }
  zw_window_banner_for_warnings (self, path, warnings);
  zw_window_set_view (self, "timing");
  zw_window_set_shown_file (self, path);
}

static void
open_text_log (ZwWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  zw_window_show_banner (self, NULL, NULL);
  if (!zw_log_view_load_file (ZW_LOG_VIEW (zw_window_get_view (self, "logs")), path, &error))
    {
      zw_window_banner_for_error (self, path, error);
      return;
    }
  zw_window_set_view (self, "logs");
  zw_window_set_shown_file (self, path);
}

gboolean
zw_window_open_dump (ZwWindow *self, const char *dir)
{
  ZwTensorView *view;
  g_autoptr (GError) error = NULL;
  GPtrArray *messages;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  view = ZW_TENSOR_VIEW (zw_window_get_view (self, "tensors"));
  zw_window_show_banner (self, NULL, NULL);
  /* a board's folder has no manifest: the open network types its files */
  if (!zw_tensor_view_load_folder (view, dir, zw_run_controller_get_network (self->controller), NULL, &error))
    {
      zw_window_banner_for_error (self, dir, error);
      return FALSE;
    }
  g_free (self->tensors_dir);
  self->tensors_dir = g_strdup (dir);
  zw_window_update_actions (self);
  messages = zw_tensor_view_get_messages (view);
  zw_window_banner_for_warnings (self, dir, messages);
  zw_window_update_empty_states (self);
  zw_window_set_view (self, "tensors");
  zw_window_set_shown_file (self, dir);
  return TRUE;
}

typedef struct {
  ZwWindow *window;   /* a reference */
  char *dir_a, *name_a, *name_b;
} DiffRequest;

static void
diff_request_free (DiffRequest *r)
{
  g_object_unref (r->window);
  g_free (r->dir_a);
  g_free (r->name_a);
  g_free (r->name_b);
  g_free (r);
}

/* The diff made in the view's worker: named, its warnings in the banner; an error (a folder
 * that cannot be read) in the banner; cancelled: nothing to say. */
static void
on_diff_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DiffRequest *r = user_data;
  ZwDumpDiffView *view = ZW_DUMP_DIFF_VIEW (source);
  g_autoptr (GError) error = NULL;
  const ZwDumpDiff *diff;

  if (!zw_dump_diff_view_load_finish (view, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && gtk_widget_get_root (GTK_WIDGET (view)) != NULL)
        zw_window_show_banner (r->window, error->message, NULL);
      diff_request_free (r);
      return;
    }
  zw_dump_diff_view_set_names (view, r->name_a, r->name_b);
  /* the sides of the diff shown before are gone */
  zw_window_release_memory ();
  diff = zw_dump_diff_view_get_diff (view);
  if (diff != NULL)
    zw_window_banner_for_warnings (r->window, r->dir_a, diff->warnings);
  zw_window_set_shown_file (r->window, r->dir_a);
  diff_request_free (r);
}

gboolean
zw_window_diff_dumps (ZwWindow *self, const char *dir_a, const char *dir_b)
{
  ZwRun *run;
  ZwDumpDiffView *view;
  DiffRequest *r;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (dir_a != NULL, FALSE);

  zw_window_show_banner (self, NULL, NULL);
  if (dir_b == NULL)
    {
      /* the other side: the folder Tensors shows (a run's or one opened), else the run's */
      run = zw_window_get_selected_run (self);
      if (self->tensors_dir != NULL && g_strcmp0 (self->tensors_dir, dir_a) != 0)
        dir_b = self->tensors_dir;
      else if (run != NULL && g_strcmp0 (zw_run_get_dump_dir (run), dir_a) != 0)
        dir_b = zw_run_get_dump_dir (run);
      if (dir_b == NULL)
        {
          g_autofree char *message = g_strdup_printf (
              _("%s: the selected run dumped no tensors to compare with (use Dump Tensors first)"), dir_a);
          zw_window_show_banner (self, message, NULL);
          return FALSE;
        }
    }
  view = ZW_DUMP_DIFF_VIEW (zw_window_get_view (self, "diff"));
  r = g_new0 (DiffRequest, 1);
  r->window = g_object_ref (self);
  r->dir_a = g_strdup (dir_a);
  r->name_a = zw_window_dup_dump_label (self, dir_a);
  r->name_b = zw_window_dup_dump_label (self, dir_b);
  /* in a worker: the window stays live, the view shows how far it is and can cancel */
  zw_dump_diff_view_load_async (view, dir_a, dir_b, zw_run_controller_get_network (self->controller), NULL, NULL,
                                on_diff_done, r);
  zw_window_set_view (self, "diff");
  return TRUE;
}

/* "folder/name" of @path */
static char *
folder_and_name (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *folder = g_path_get_basename (dir);
  g_autofree char *name = g_path_get_basename (path);

  return g_build_filename (folder, name, NULL);
}

void
zw_window_compare_labels (const char *path_a, const char *path_b, char **label_a, char **label_b)
{
  *label_a = g_path_get_basename (path_a);
  *label_b = g_path_get_basename (path_b);
  if (g_strcmp0 (*label_a, *label_b) != 0)
    return;
  g_free (*label_a);
  g_free (*label_b);
  *label_a = folder_and_name (path_a);
  *label_b = folder_and_name (path_b);
  if (g_strcmp0 (*label_a, *label_b) != 0)
    return;
  g_free (*label_a);
  g_free (*label_b);
  *label_a = g_strdup (path_a);
  *label_b = g_strdup (path_b);
}

/* The deploy report of the network open: the run selected, else the latest run deployed
 * here (a time file read is not); NULL */
static ZwDeployReport *
open_network_report (ZwWindow *self)
{
  ZwDeployReport *report = zw_selection_get_report (self->selection);

  for (guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs)); report == NULL && n > 0; n--)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (G_LIST_MODEL (self->runs), n - 1);
      if (zw_run_get_kind (run) != ZW_RUN_PROFILE)
        report = zw_run_get_report (run);
    }
  return report;
}

void
zw_window_compare_forget_unmapped (ZwWindow *self)
{
  zw_window_compare_plan_cancel (self);
  g_clear_pointer (&self->unmapped_a, zw_profile_free);
  g_clear_pointer (&self->unmapped_b, zw_profile_free);
  g_clear_pointer (&self->unmapped_label_a, g_free);
  g_clear_pointer (&self->unmapped_label_b, g_free);
}

/* Compare @a with @b, mapped through @network when not NULL and both belong (TRUE); else as
 * they are, the banner saying why when @say (FALSE). @network with merge off and a file with
 * merged launches: through its merge-on plan, made in a worker (TRUE: mapped when ready). */
static gboolean
compare_through (ZwWindow *self, const ZwProfile *a, const ZwProfile *b, const char *label_a, const char *label_b,
                 ZwDeployReport *network, gboolean say)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  g_autoptr (ZwProfile) mapped_a = NULL;
  g_autoptr (ZwProfile) mapped_b = NULL;
  g_autoptr (GError) error = NULL;

  /* the open run has merge off and a file has merged launches: its merge-on plan maps them */
  if (network != NULL && zw_profile_wants_merge_on_plan (a, b, network))
    return zw_window_compare_through_merge_on (self, a, b, label_a, label_b, network, say);
  if (network != NULL)
    {
      /* bare time files of the open network: its merge plan tells what a launch merged */
      if ((mapped_a = zw_profile_map_to_plan (a, network, &error)) != NULL)
        mapped_b = zw_profile_map_to_plan (b, network, &error);
      if (mapped_b != NULL)
        {
          zw_compare_view_set_profiles (view, mapped_a, mapped_b, NULL, label_a, label_b);
          zw_compare_view_set_plan (view, network);
          return TRUE;
        }
      if (!say)
        return FALSE;
      {
        /* TRANSLATORS: FILE, NETWORK, the reason; then what Compare does instead */
        g_autofree char *banner = g_strdup_printf (_("%s does not belong to the open network %s (%s): its ops are "
                                                     "compared by op id only"), mapped_a == NULL ? label_a : label_b,
                                                   network->network_name != NULL ? network->network_name : "?",
                                                   error->message);
        zw_window_show_banner (self, banner, NULL);
      }
    }
  zw_compare_view_set_profiles (view, a, b, NULL, label_a, label_b);
  zw_compare_view_set_reports (view, NULL, NULL);
  return FALSE;
}

void
zw_window_compare_profiles (ZwWindow *self, const ZwProfile *a, const ZwProfile *b, const char *label_a,
                            const char *label_b)
{
  ZwDeployReport *network = open_network_report (self);

  zw_window_compare_forget_unmapped (self);
  if (!compare_through (self, a, b, label_a, label_b, network, TRUE) && network == NULL)
    {
      /* no network open yet (e.g. opened with the files): the first run of theirs maps them */
      self->unmapped_a = zw_profile_copy (a);
      self->unmapped_b = zw_profile_copy (b);
      self->unmapped_label_a = g_strdup (label_a);
      self->unmapped_label_b = g_strdup (label_b);
    }
}

void
zw_window_compare_map_later (ZwWindow *self, ZwDeployReport *report)
{
  g_autoptr (ZwProfile) a = NULL;
  g_autoptr (ZwProfile) b = NULL;
  g_autofree char *label_a = NULL, *label_b = NULL;

  if (self->unmapped_a == NULL || report == NULL || self->compare_from_runs)
    return;
  a = g_steal_pointer (&self->unmapped_a);
  b = g_steal_pointer (&self->unmapped_b);
  label_a = g_steal_pointer (&self->unmapped_label_a);
  label_b = g_steal_pointer (&self->unmapped_label_b);
  if (!compare_through (self, a, b, label_a, label_b, report, FALSE))
    {
      /* not of this network: they wait for another */
      self->unmapped_a = g_steal_pointer (&a);
      self->unmapped_b = g_steal_pointer (&b);
      self->unmapped_label_a = g_steal_pointer (&label_a);
      self->unmapped_label_b = g_steal_pointer (&label_b);
    }
}

gboolean
zw_window_compare_files (ZwWindow *self, const char *path_a, const char *path_b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) a = NULL;
  g_autoptr (ZwProfile) b = NULL;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path_a != NULL && path_b != NULL, FALSE);

  zw_window_show_banner (self, NULL, NULL);
  if ((a = zw_profile_load (path_a, NULL, NULL, &error)) == NULL)
    {
      zw_window_banner_for_error (self, path_a, error);
      return FALSE;
    }
  if ((b = zw_profile_load (path_b, NULL, NULL, &error)) == NULL)
    {
      zw_window_banner_for_error (self, path_b, error);
      return FALSE;
    }
  zw_window_compare_labels (path_a, path_b, &label_a, &label_b);
  zw_window_compare_profiles (self, a, b, label_a, label_b);
  self->compare_from_runs = FALSE;
  zw_window_set_view (self, "compare");
  zw_window_set_shown_file (self, path_b);
  return TRUE;
}

gboolean
zw_window_export (ZwWindow *self, const char *path, GError **error)
{
  GtkWidget *view;
  g_autofree char *lower = NULL;
  int width, height;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  view = zw_window_current_view (self);
  lower = g_ascii_strdown (path, -1);
  /* the Sweep view's data is the sweep: saved as xrt-run sweep writes it */
  if (ZW_IS_SWEEP_VIEW (view) && (g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".json")))
    return zw_sweep_view_save (ZW_SWEEP_VIEW (view), path, error);
  if (g_str_has_suffix (lower, ".csv"))
    return zw_export_view_csv (view, path, error);
  if (g_str_has_suffix (lower, ".json"))
    {
      const ZwProfile *profile = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (self, "timing")));
      if (profile == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: no time profile to export (forward, or open a time file)"), path);
          return FALSE;
        }
      return zw_profile_write (profile, path, ZW_PROFILE_FORMAT_TRACE, error);
    }
  /* the size the view has on screen; a view never shown gets a page-like size */
  width = gtk_widget_get_width (view);
  height = gtk_widget_get_height (view);
  if (width < 64 || height < 64)
    {
      width = 1200;
      height = 800;
    }
  return zw_export_view (view, width, height, path, error);
}

void
zw_window_export_to (ZwWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  if (!zw_window_export (self, path, &error))
    zw_window_banner_for_error (self, path, error);
}

static GPtrArray *
chooser_paths (GtkFileChooser *chooser)
{
  g_autoptr (GListModel) files = gtk_file_chooser_get_files (chooser);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (GFile) file = g_list_model_get_item (files, i);
      char *path = g_file_get_path (file);
      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  return paths;
}

static void
on_aux_chooser_response (GtkNativeDialog *dialog, int response, ZwWindow *self)
{
  g_autoptr (GPtrArray) paths = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    paths = chooser_paths (GTK_FILE_CHOOSER (dialog));
  if (paths != NULL && paths->len > 0)
    {
      const char *first = g_ptr_array_index (paths, 0);
      switch (self->aux_purpose)
        {
        case CHOOSE_EXPORT:
          {
            g_autofree char *lower = g_ascii_strdown (first, -1);
            static const char *known[] = { ".png", ".svg", ".pdf", ".csv", ".json" };
            gboolean has_ext = FALSE;
            for (guint i = 0; i < G_N_ELEMENTS (known); i++)
              has_ext = has_ext || g_str_has_suffix (lower, known[i]);
            if (has_ext)
              zw_window_export_to (self, first);
            else
              {
                g_autofree char *png = g_strconcat (first, ".png", NULL);
                zw_window_export_to (self, png);
              }
            break;
          }
        case CHOOSE_DUMP: zw_window_open_dump (self, first); break;
        case CHOOSE_COMPARE_FILES:
          if (paths->len == 2 && zw_window_is_pipeline_report (first)
              && zw_window_is_pipeline_report (g_ptr_array_index (paths, 1)))
            zw_window_compare_pipelines (self, first, g_ptr_array_index (paths, 1));
          else if (paths->len == 2)
            zw_window_compare_files (self, first, g_ptr_array_index (paths, 1));
          else
            zw_window_show_banner (self, _("Choose two time profiles to compare"), NULL);
          break;
        case CHOOSE_DIFF_FOLDERS:
          zw_window_diff_dumps (self, first, paths->len >= 2 ? g_ptr_array_index (paths, 1) : NULL);
          break;
        case CHOOSE_COMPILE: zw_window_compare_compile (self, first); break;
        case CHOOSE_SAVE_DUMP: zw_window_save_dump (self, first); break;
        case CHOOSE_OPEN_AS_PIPELINE:
          g_ptr_array_add (paths, NULL);
          zw_window_open_as_pipeline (self, (const char *const *) paths->pdata);
          break;
        case CHOOSE_SAVE_PIPELINE: zw_window_save_pipeline (self, first); break;
        }
    }
  g_clear_object (&self->aux_chooser);
}

void
zw_window_run_aux_chooser (ZwWindow *self, ChooserPurpose purpose, const char *title, GtkFileChooserAction mode,
                 gboolean multiple, const char *accept)
{
  GtkFileChooserNative *chooser;

  if (self->aux_chooser != NULL)
    gtk_native_dialog_destroy (self->aux_chooser);
  g_clear_object (&self->aux_chooser);
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), mode, accept, _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), multiple);
  if (purpose == CHOOSE_EXPORT)
    {
      g_autofree char *name = g_strdup_printf ("%s.png", self->view);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  self->aux_purpose = purpose;
  self->aux_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_set_modal (self->aux_chooser, TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_aux_chooser_response), self);
  gtk_native_dialog_show (self->aux_chooser);
}

void
zw_window_open_paths (ZwWindow *self, const char *const *paths)
{
  guint n;

  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (paths != NULL);

  n = g_strv_length ((char **) paths);
  /* two profiles dropped together are compared, two dump folders diffed */
  if (n == 2)
    {
      ZwFileKind a, b;
      g_autofree char *dir_a = NULL;
      g_autofree char *dir_b = NULL;
      if (zw_file_kind_guess (paths[0], &a, &dir_a, NULL) && zw_file_kind_guess (paths[1], &b, &dir_b, NULL))
        {
          if (a == ZW_FILE_KIND_PROFILE && b == ZW_FILE_KIND_PROFILE)
            {
              zw_window_compare_files (self, paths[0], paths[1]);
              return;
            }
          if (a == ZW_FILE_KIND_DUMP && b == ZW_FILE_KIND_DUMP)
            {
              zw_window_diff_dumps (self, dir_a, dir_b);
              return;
            }
          /* two pipeline reports: their passes, rows NET:OP_ID */
          if (zw_window_is_pipeline_report (paths[0]) && zw_window_is_pipeline_report (paths[1]))
            {
              zw_window_compare_pipelines (self, paths[0], paths[1]);
              return;
            }
        }
    }
  /* a network and two time files: the network opens, the files are compared through it */
  if (n == 3)
    {
      ZwFileKind k[3];
      gboolean all = TRUE;
      for (guint i = 0; i < 3 && all; i++)
        {
          g_autofree char *dir = NULL;
          all = zw_file_kind_guess (paths[i], &k[i], &dir, NULL);
        }
      if (all && k[0] == ZW_FILE_KIND_NETWORK && k[1] == ZW_FILE_KIND_PROFILE && k[2] == ZW_FILE_KIND_PROFILE)
        {
          zw_window_open (self, paths[0], FALSE);
          zw_window_compare_files (self, paths[1], paths[2]);
          return;
        }
    }
  for (guint i = 0; i < n; i++)
    zw_window_open (self, paths[i], FALSE);
  /* several networks together: the banner offers them as one pipeline */
  if (n >= 2 && zw_window_paths_are_networks (paths))
    zw_window_offer_pipeline (self, paths);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, ZwWindow *self)
{
  GSList *files = g_value_get_boxed (value);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  (void) target;
  (void) x;
  (void) y;
  for (GSList *l = files; l != NULL; l = l->next)
    {
      char *path = g_file_get_path (l->data);
      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  if (paths->len == 0)
    return FALSE;
  g_ptr_array_add (paths, NULL);
  zw_window_open_paths (self, (const char *const *) paths->pdata);
  return TRUE;
}

void
zw_window_open (ZwWindow *self, const char *path, gboolean synthetic_params)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  ZwFileKind kind;

  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (!zw_file_kind_guess (path, &kind, &dir, &error))
    {
      zw_window_show_banner (self, error->message, NULL);
      return;
    }
  switch (kind)
    {
    case ZW_FILE_KIND_PROFILE: open_profile (self, path); return;
    case ZW_FILE_KIND_SWEEP: zw_window_open_sweep (self, path); return;
    case ZW_FILE_KIND_PIPELINE: zw_window_open_pipeline (self, path); return;
    case ZW_FILE_KIND_DUMP: zw_window_open_dump (self, dir); return;
    case ZW_FILE_KIND_LOG: open_text_log (self, path); return;
    case ZW_FILE_KIND_UNKNOWN:
      {
        /* the views keep what they show: only the banner says why nothing opened */
        g_autofree char *message =
          g_strdup_printf (_("%s is empty or binary data: not a network, deploy report, time profile, dump or log"),
                           path);
        zw_window_show_banner (self, message, NULL);
        return;
      }
    case ZW_FILE_KIND_NETWORK: break;
    }

  g_clear_handle_id (&self->reapply_source, g_source_remove);
  zw_window_show_banner (self, NULL, NULL);
  zw_window_restore_user_options (self);
  {
    ZwRunOptions options;
    zw_window_read_options (self, &options);
    zw_run_controller_set_options (self->controller, &options);
  }
  /* a network opens deployed and run once, so the history shows its time at once */
  zw_run_controller_open (self->controller, path, synthetic_params, 1);
}

static void
on_chooser_response (GtkNativeDialog *dialog, int response, ZwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GPtrArray) paths = chooser_paths (GTK_FILE_CHOOSER (dialog));
      const char *as_pipeline = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "pipeline");
      g_ptr_array_add (paths, NULL);
      /* several networks with "Open as one pipeline" ticked: one pipeline of them */
      if (paths->len > 2 && g_strcmp0 (as_pipeline, "true") == 0)
        zw_window_open_as_pipeline (self, (const char *const *) paths->pdata);
      else if (paths->len > 1)
        zw_window_open_paths (self, (const char *const *) paths->pdata);
    }
  g_clear_object (&self->chooser);
}

void
zw_window_on_recent_changed (GListModel *recent, guint position, guint removed, guint added, ZwWindow *self)
{
  guint n = g_list_model_get_n_items (recent);

  (void) position;
  (void) removed;
  (void) added;
  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; i < n; i++)
    {
      const char *path = gtk_string_list_get_string (GTK_STRING_LIST (recent), i);
      g_autofree char *base = g_path_get_basename (path);
      g_autoptr (GMenuItem) item = g_menu_item_new (base, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-file", g_variant_new_string (path));
      g_menu_append_item (self->recent_menu, item);
    }
}

/* The name patterns of every kind of file zw_window_open takes (zw-file-kind.h): networks,
 * deploy reports, sweeps and our profiles (JSON), the vendor's time files, our profile CSV,
 * pipelines (TOML) and text logs. */
static const char *const open_patterns[] = { "*.json", "*_time.txt", "*.csv", "*.toml", "*.log", "*.txt", NULL };

GtkFileFilter *
zw_window_new_open_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Networks, reports, time profiles, sweeps, pipelines and logs"));
  for (guint i = 0; open_patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, open_patterns[i]);
  return filter;
}

/* Open: a network, a deploy log or any file the window opens (zw_window_open). */
void
zw_window_choose_file (ZwWindow *self)
{
  GtkFileFilter *json = zw_window_new_open_filter ();
  GtkFileFilter *all = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }
  chooser = gtk_file_chooser_native_new (_("Open a Network, Report, Time Profile, Sweep, Pipeline or Log"),
                                         GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), json);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  g_object_unref (json);
  g_object_unref (all);
  /* several networks chosen together can be one pipeline on one board (issue 38) */
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "pipeline",
                               _("Open several networks as one pipeline (on one board, in the order chosen)"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "pipeline", "false");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}


/* Files dropped on the window open as from the command line. */
void
zw_window_open_init (ZwWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
