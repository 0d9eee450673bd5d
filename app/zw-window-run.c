/* zw-window-run.c — the window's runs: the controller's signals (progress, runs finished,
 * failures), the run history and what a selected run shows in the views, the comparison of
 * two marked runs, tensor dumps and compiles compared. */
#include "zw-window-private.h"

#include "zw-graph-view.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-recent-files.h"
#include "zw-compare-view.h"
#include "zw-compile-compare-view.h"
#include "zw-log-view.h"
#include "zw-run-history.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

/* The progress of a run shows once it has lasted ZW_WINDOW_PROGRESS_DELAY_MS (as GNOME apps
 * do): a short apply flashes nothing; a long one shows its progress and Cancel, over the top
 * of the content (the window's layout does not move either way). */
static gboolean
show_progress_timeout (gpointer data)
{
  ZwWindow *self = data;

  self->progress_delay_source = 0;
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->progress_revealer), TRUE);
  gtk_widget_set_visible (self->progress_revealer, TRUE);
  return G_SOURCE_REMOVE;
}

static void
on_busy_changed (ZwRunController *controller, GParamSpec *pspec, ZwWindow *self)
{
  gboolean busy = zw_run_controller_get_busy (controller);

  (void) pspec;
  if (busy && self->progress_delay_source == 0 && !gtk_widget_get_visible (self->progress_revealer))
    self->progress_delay_source = g_timeout_add (ZW_WINDOW_PROGRESS_DELAY_MS, show_progress_timeout, self);
  else if (!busy)
    {
      g_clear_handle_id (&self->progress_delay_source, g_source_remove);
      gtk_revealer_set_reveal_child (GTK_REVEALER (self->progress_revealer), FALSE);
      gtk_widget_set_visible (self->progress_revealer, FALSE);
    }
  zw_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), zw_window_pspec (PROP_BUSY));
}

static void
on_progress_changed (ZwRunController *controller, GParamSpec *pspec, ZwWindow *self)
{
  const char *status = zw_run_controller_get_status (controller);

  (void) pspec;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), zw_run_controller_get_progress (controller));
  if (status != NULL)
    gtk_label_set_text (GTK_LABEL (self->progress_label), status);
}

/* The two runs marked in the history, compared: their profiles (forwards) and reports. */
static gboolean
update_compare_idle (gpointer data)
{
  ZwWindow *self = data;
  g_autoptr (GPtrArray) marked = zw_window_get_compare_runs (self);
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  ZwRun *a, *b;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;

  self->compare_source = 0;
  if (marked->len < 2)
    {
      /* a run unmarked: its comparison goes (the view says how to make one) — but two time
       * files compared stay until another comparison replaces them */
      if (self->compare_from_runs)
        zw_compare_view_clear (view);
      self->compare_from_runs = FALSE;
      return G_SOURCE_REMOVE;
    }
  self->compare_from_runs = TRUE;
  zw_window_compare_forget_unmapped (self);
  a = g_ptr_array_index (marked, 0);
  b = g_ptr_array_index (marked, 1);
  /* two pipeline passes: network by network, rows NET:OP_ID */
  if (zw_window_compare_pipeline_runs (self, a, b))
    return G_SOURCE_REMOVE;
  label_a = zw_run_dup_title (a);
  label_b = zw_run_dup_title (b);
  if (zw_run_get_kind (a) == ZW_RUN_PROFILE && zw_run_get_kind (b) == ZW_RUN_PROFILE && zw_run_get_profile (a) != NULL
      && zw_run_get_profile (b) != NULL)
    {
      /* two time files read: the open network may tell what their launches merged */
      zw_window_compare_profiles (self, zw_run_get_profile (a), zw_run_get_profile (b), label_a, label_b);
      return G_SOURCE_REMOVE;
    }
  if (zw_run_get_profile (a) != NULL && zw_run_get_profile (b) != NULL)
    zw_compare_view_set_profiles (view, zw_run_get_profile (a), zw_run_get_profile (b), NULL, label_a, label_b);
  else
    zw_compare_view_clear (view);
  /* a time profile read from a file was not deployed here: no deploy block (all zeros) */
  if (zw_run_get_kind (a) != ZW_RUN_PROFILE && zw_run_get_kind (b) != ZW_RUN_PROFILE)
    zw_compare_view_set_reports (view, zw_run_get_report (a), zw_run_get_report (b));
  else
    zw_compare_view_set_reports (view, NULL, NULL);
  return G_SOURCE_REMOVE;
}

static void
on_run_compare (ZwRun *run, GParamSpec *pspec, ZwWindow *self)
{
  (void) run;
  (void) pspec;
  /* after the history has unmarked the oldest of three */
  if (self->compare_source == 0)
    self->compare_source = g_idle_add (update_compare_idle, self);
}

/* A run selected in the history: its profile in Timing, its deploy log in Logs, its dumps
 * (if it made any) in Tensors. */
static void
show_run_in_views (ZwWindow *self, ZwRun *run)
{
  const ZwProfile *profile = run != NULL ? zw_run_get_profile (run) : NULL;
  g_autofree char *text = NULL;
  g_autofree char *origin = NULL;

  /* a time file's op ids need not be the deployment's: Timing reads no report for it */
  zw_timing_view_set_run_profile (ZW_TIMING_VIEW (zw_window_get_view (self, "timing")), profile,
                                  profile != NULL && zw_run_get_kind (run) != ZW_RUN_PROFILE ? zw_run_get_report (run)
                                                                                            : NULL);
  /* the graph's properties give an op its time from the run's own forward only */
  zw_graph_view_set_profile (ZW_GRAPH_VIEW (zw_window_get_view (self, "graph")),
                             profile != NULL && zw_run_get_kind (run) != ZW_RUN_PROFILE ? profile : NULL);
  if (run == NULL)
    return;
  if (zw_run_get_kind (run) == ZW_RUN_PROFILE && profile != NULL)
    {
      /* a time profile has no deployment: Logs says what it is, never a made-up deploy log */
      g_autofree char *headline = zw_timing_view_headline (profile);
      /* TRANSLATORS: the Logs view for a time profile read from a file: its path, its rows */
      text = g_strdup_printf (_("Time profile %s\n%s\n\nNo deploy log: a time profile read from a file was not "
                                "deployed here. Open the network's deploy log or the network to see one.\n"),
                              zw_run_get_path (run), headline);
    }
  else
    text = zw_deploy_report_to_text (zw_run_get_report (run));
  origin = zw_run_dup_title (run);
  zw_log_view_set_text (ZW_LOG_VIEW (zw_window_get_view (self, "logs")), text, origin);
  if (zw_run_get_dump_dir (run) != NULL && g_strcmp0 (self->tensors_dir, zw_run_get_dump_dir (run)) != 0)
    {
      g_autoptr (GError) error = NULL;
      ZwTensorView *view = ZW_TENSOR_VIEW (zw_window_get_view (self, "tensors"));
      if (zw_tensor_view_load_folder (view, zw_run_get_dump_dir (run), zw_run_controller_get_network (self->controller),
                                      NULL, &error))
        {
          g_free (self->tensors_dir);
          self->tensors_dir = g_strdup (zw_run_get_dump_dir (run));
        }
      else
        zw_window_banner_for_error (self, zw_run_get_dump_dir (run), error);
    }
}

static void
on_selected_run (ZwRunHistory *history, GParamSpec *pspec, ZwWindow *self)
{
  ZwRun *run = zw_run_history_get_selected_run (history);
  gboolean offline;
  const char *chosen = NULL;

  (void) pspec;
  /* a pipeline's pass: its pipeline in Board, its whole pass in the other views */
  if (run != NULL && zw_run_get_kind (run) == ZW_RUN_PIPELINE)
    {
      if (!self->showing_pass)
        zw_window_show_pipeline_run (self, run);
      return;
    }
  /* a time profile file has no deployment: the deploy views keep the one they show */
  if (run == NULL || zw_run_get_kind (run) != ZW_RUN_PROFILE)
    zw_selection_set_report (self->selection, run ? zw_run_get_report (run) : NULL);
  /* a time profile file leaves the live network (and its options) as they are */
  offline = run != NULL && zw_run_get_kind (run) == ZW_RUN_LOG;
  if (offline != self->offline)
    {
      self->offline = offline;
      g_object_notify_by_pspec (G_OBJECT (self), zw_window_pspec (PROP_OFFLINE));
    }
  if (run != NULL && (!self->selecting_new || offline) && zw_run_get_kind (run) != ZW_RUN_PROFILE)
    zw_window_sync_options_from_run (self, run);
  if (run != NULL && zw_run_get_kind (run) != ZW_RUN_PROFILE && zw_run_get_ocm_requested (run) == ZW_OCM_BEST_SCORE
      && zw_run_get_ocm_chosen (run) != ZW_OCM_BEST_SCORE)
    chosen = zw_ocm_opt_get_label (zw_run_get_ocm_chosen (run));
  g_object_set (self->options, "ocm-chosen", chosen, NULL);
  zw_window_options_for_run (self, run);
  show_run_in_views (self, run);
  zw_window_update_empty_states (self);
  if (run != NULL)
    {
      g_autofree char *title = NULL;
      if (zw_run_get_kind (run) == ZW_RUN_PROFILE)
        {
          g_autofree char *base = g_path_get_basename (zw_run_get_path (run));
          /* TRANSLATORS: window title for a time profile opened from disk */
          title = g_strdup_printf (_("%s (time profile) — Zhuge Workbench"), base);
        }
      else if (offline)
        {
          g_autofree char *base = g_path_get_basename (zw_run_get_path (run));
          /* TRANSLATORS: window title for a deploy log opened from disk */
          title = g_strdup_printf (_("%s (log) — Zhuge Workbench"), base);
        }
      else
        /* TRANSLATORS: window title: the network, the board it was deployed on */
        title = g_strdup_printf (_("%s on %s — Zhuge Workbench"), zw_run_get_report (run)->network_name,
                                 zw_run_get_report (run)->device_url);
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  zw_window_update_actions (self);
}

void
zw_window_on_run_finished (ZwRunController *controller, ZwRun *run, ZwWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  g_autoptr (ZwRun) last = n > 0 ? g_list_model_get_item (G_LIST_MODEL (self->runs), n - 1) : NULL;

  gboolean replaces = last != NULL && zw_run_replaces (run, last);

  (void) controller;
  self->n_runs_made++;
  /* two time files compared before their network was open: its first run maps them */
  if (zw_run_get_kind (run) != ZW_RUN_PROFILE)
    zw_window_compare_map_later (self, zw_run_get_report (run));
  g_signal_connect_object (run, "notify::compare", G_CALLBACK (on_run_compare), self, 0);
  /* options tried one after another without a forward: one row, the latest (issue 37) —
   * its number, and the old row removed once the new one is selected (the views never see
   * no run between the two) */
  zw_run_set_index (run, replaces ? zw_run_get_index (last) : n + 1);
  g_list_store_append (self->runs, run);
  /* an offer of networks opened together stays until taken or dismissed */
  if (self->run_banner != NULL || self->banner_networks == NULL)
    zw_window_show_banner (self, self->run_banner, NULL);
  g_clear_pointer (&self->run_banner, g_free);
  self->selecting_new = TRUE;
  zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), run);
  self->selecting_new = FALSE;
  if (replaces)
    g_list_store_remove (self->runs, n - 1);
  if (zw_run_get_kind (run) == ZW_RUN_LOG && self->recent != NULL)
    zw_recent_files_add (self->recent, zw_run_get_path (run));
  /* the tensors were asked for: show them (the folder shown before is released) */
  if (zw_run_get_dump_dir (run) != NULL)
    {
      zw_window_set_view (self, "tensors");
      zw_window_release_memory ();
    }
}

static void
on_network_loaded (ZwRunController *controller, const char *path, ZwWindow *self)
{
  (void) controller;
  if (self->recent != NULL)
    zw_recent_files_add (self->recent, path);
  zw_window_update_actions (self);
}

static void
on_failed (ZwRunController *controller, GError *error, const char *path, gboolean params_missing, ZwWindow *self)
{
  g_autofree char *message = NULL;
  g_autofree char *base = path ? g_path_get_basename (path) : NULL;

  /* the runtime's message names the file almost always; make sure the banner does */
  if (base != NULL && strstr (error->message, base) == NULL)
    message = g_strdup_printf ("%s: %s", path, error->message);
  else
    message = g_strdup (error->message);
  zw_window_show_banner (self, message, params_missing ? path : NULL);
  /* the options that failed are not what the views show: the sidebar shows the run the
   * views show again (unless a newer request is on its way) */
  if (!zw_run_controller_get_busy (controller) && zw_window_get_selected_run (self) != NULL
      && zw_run_get_kind (zw_window_get_selected_run (self)) != ZW_RUN_PROFILE
      && zw_run_get_kind (zw_window_get_selected_run (self)) != ZW_RUN_PIPELINE)
    zw_window_sync_options_from_run (self, zw_window_get_selected_run (self));
}

/* The options compile A gets now, as the Compiles view's stale marker names them. */
static char *
compile_options_text (ZwWindow *self)
{
  return g_strdup_printf (_("merge %s, ETM optimize %s, OCM %s"), self->merge_hardop ? _("on") : _("off"),
                          self->etm_optimize ? _("on") : _("off"), self->ocm_option);
}

/* The Compiles view is stale when the options differ from those its A was compiled with:
 * it says so, with a one-click Refresh (win.refresh-compiles). */
static void
update_compiles_stale (ZwWindow *self)
{
  ZwCompileCompareView *view = ZW_COMPILE_COMPARE_VIEW (zw_window_get_view (self, "compiles"));
  g_autofree char *now = NULL;
  g_autofree char *reason = NULL;

  if (self->compiles_options != NULL && zw_compile_compare_view_get_compare (view) != NULL)
    {
      now = compile_options_text (self);
      if (g_strcmp0 (now, self->compiles_options) != 0)
        reason = g_strdup_printf (_("Stale: A was compiled with %s; the options are now %s"), self->compiles_options,
                                  now);
    }
  zw_compile_compare_view_set_stale (view, reason);
}

static void
on_compile_options_changed (ZwWindow *self, GParamSpec *pspec, gpointer data)
{
  (void) pspec;
  (void) data;
  update_compiles_stale (self);
}

void
zw_window_compare_compile (ZwWindow *self, const char *path)
{
  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (path != NULL);
  if (self->compiles_path != path)
    {
      g_free (self->compiles_path);
      self->compiles_path = g_strdup (path);
    }
  g_free (self->compiles_options);
  self->compiles_options = compile_options_text (self);
  /* compile A is made with the options shown now: a re-apply still waiting runs first (the
   * comparison waits for it; started after, it would cancel the comparison) */
  if (self->reapply_source != 0 && !self->offline && zw_run_controller_has_network (self->controller))
    zw_window_request (self, ZW_RUN_MODE_APPLY);
  else
    {
      ZwRunOptions options;
      zw_window_read_options (self, &options);
      zw_run_controller_set_options (self->controller, &options);
    }
  /* the other compile's params are rarely at hand (a Buyi .raw for a ZG330 user): missing
   * ones are synthesised, as for the network of a screenshot */
  zw_run_controller_compare_compile (self->controller, path, TRUE);
}

static void
on_compiles_compared (ZwRunController *controller, ZwWindow *self)
{
  g_autofree char *warning = NULL;
  ZwCompileCompare *cmp = zw_run_controller_take_compile_compare (controller, &warning);

  if (cmp == NULL)
    return;
  zw_compile_compare_view_take_compare (ZW_COMPILE_COMPARE_VIEW (zw_window_get_view (self, "compiles")), cmp);
  update_compiles_stale (self);
  zw_window_update_actions (self);
  zw_window_show_banner (self, warning, NULL);
  zw_window_set_view (self, "compiles");
}

/* The run history (below the options) and the controller's signals. */
void
zw_window_run_init (ZwWindow *self)
{
  self->history = zw_run_history_new (G_LIST_MODEL (self->runs));
  gtk_widget_set_vexpand (self->history, TRUE);
  g_signal_connect (self->history, "notify::selected-run", G_CALLBACK (on_selected_run), self);
  gtk_box_append (GTK_BOX (self->history_box), self->history);

  g_signal_connect (self->controller, "run-finished", G_CALLBACK (zw_window_on_run_finished), self);
  g_signal_connect (self->controller, "network-loaded", G_CALLBACK (on_network_loaded), self);
  g_signal_connect (self->controller, "failed", G_CALLBACK (on_failed), self);
  g_signal_connect (self->controller, "compiles-compared", G_CALLBACK (on_compiles_compared), self);
  g_signal_connect (self, "notify::merge-hardop", G_CALLBACK (on_compile_options_changed), NULL);
  g_signal_connect (self, "notify::etm-optimize", G_CALLBACK (on_compile_options_changed), NULL);
  g_signal_connect (self, "notify::ocm-option", G_CALLBACK (on_compile_options_changed), NULL);
  g_signal_connect (self->controller, "notify::busy", G_CALLBACK (on_busy_changed), self);
  g_signal_connect (self->controller, "notify::progress", G_CALLBACK (on_progress_changed), self);
  g_signal_connect (self->controller, "notify::status", G_CALLBACK (on_progress_changed), self);
}
