/* zw-window-pipeline.c — pipelines in the window (issue 38): a pipeline file run by the
 * controller, or a pipeline report opened from disk, shown in Board; the demo pipeline from
 * the main menu; every pass is a row of the history (zw-window-pipeline-history.c); a network
 * clicked in Board becomes a run of the history, so Segments, Memory, Timing and Graph show
 * that network's deploy report. */
#include "zw-window-private.h"

#include <glib/gi18n.h>

#include "report/zw-pipeline-pass.h"
#include "zw-board-view.h"
#include "zw-run-history.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

static ZwBoardView *
board_view (ZwWindow *self)
{
  return ZW_BOARD_VIEW (zw_window_get_view (self, "board"));
}

static void on_network_activated (ZwBoardView *view, guint index, ZwWindow *self);

static void
unref0 (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

/* A pass that dumped: its folder in Tensors, the value selected before selected again. */
static gboolean
show_dump (ZwWindow *self, const char *dir, const char *value)
{
  ZwTensorView *view = ZW_TENSOR_VIEW (zw_window_get_view (self, "tensors"));
  g_autoptr (GError) error = NULL;

  if (!zw_tensor_view_load_folder (view, dir, NULL, NULL, &error))
    {
      zw_window_banner_for_error (self, dir, error);
      return FALSE;
    }
  g_free (self->tensors_dir);
  self->tensors_dir = g_strdup (dir);
  if (value != NULL)
    zw_selection_set_pipeline_value (self->selection, value);
  zw_window_update_empty_states (self);
  zw_window_release_memory ();
  return TRUE;
}

static void
on_pipeline_finished (ZwRunController *controller, ZwWindow *self)
{
  g_autoptr (ZwPipelineReport) pipeline = zw_run_controller_take_pipeline (controller);
  g_autofree char *value = g_strdup (zw_selection_get_pipeline_value (self->selection));
  const char *dump = zw_run_controller_get_pipeline_dump (controller);
  g_autoptr (ZwRun) run = NULL;
  gint reshow;

  if (pipeline == NULL)
    return;
  {
    /* the networks of a row's pass run apart: a row of their own, compared with that pass */
    g_autoptr (ZwPipelineReport) apart = zw_run_controller_take_pipeline_apart (controller);
    if (apart != NULL && zw_window_pipeline_apart_finished (self, pipeline, apart))
      return;
  }
  /* the pass is a row of the history (a report read from disk too): selecting it shows it */
  run = zw_run_new_for_pipeline (pipeline, self->pipeline_path, self->pipeline_is_report && dump == NULL);
  if (dump != NULL)
    zw_run_set_dump (run, dump, zw_run_controller_get_pipeline_dump_format (controller));
  zw_window_on_run_finished (NULL, run, self);
  zw_window_show_banner (self, NULL, NULL);
  if (dump != NULL && g_strcmp0 (self->tensors_dir, dump) == 0)
    {
      if (value != NULL)
        zw_selection_set_pipeline_value (self->selection, value);
      zw_window_set_view (self, "tensors");
    }
  else if ((reshow = zw_window_pipeline_options_take_reshow (self, pipeline)) >= 0)
    /* the network whose options the panel changed: shown again, from the new pass, in the
     * view the user is in */
    on_network_activated (board_view (self), (guint) reshow, self);
  else
    zw_window_set_view (self, "board");
  /* last: a screenshot waits for the file shown (and then shows the view it was asked for) */
  zw_window_set_shown_file (self, self->pipeline_path);
}

/* The pass of a pipeline row selected in the history: the Board view shows its pipeline (a
 * new one: its networks' runs made again on a click), the other views its whole pass, its
 * dump in Tensors. */
void
zw_window_show_pipeline_run (ZwWindow *self, ZwRun *run)
{
  ZwPipelineReport *pipeline = zw_run_get_pipeline (run);
  const char *dump = zw_run_get_dump_dir (run);

  g_return_if_fail (pipeline != NULL);
  zw_window_options_for_run (self, run);
  /* the networks of a pass run apart: Compare shows them against the pass */
  if (zw_run_get_apart_of (run) != NULL)
    {
      zw_window_show_apart_run (self, run);
      return;
    }
  /* Forward and Dump Tensors run the file of the row shown (another pipeline opened since) */
  if (zw_run_get_path (run) != NULL && g_strcmp0 (self->pipeline_path, zw_run_get_path (run)) != 0)
    {
      g_free (self->pipeline_path);
      self->pipeline_path = g_strdup (zw_run_get_path (run));
      self->pipeline_is_report = zw_window_is_pipeline_report (self->pipeline_path);
    }
  if (zw_board_view_get_pipeline (board_view (self)) != pipeline)
    {
      g_clear_pointer (&self->pipeline_runs, g_ptr_array_unref);
      self->pipeline_runs = g_ptr_array_new_with_free_func (unref0);
      for (guint i = 0; i < pipeline->networks->len; i++)
        g_ptr_array_add (self->pipeline_runs, NULL);
      zw_board_view_set_pipeline (board_view (self), pipeline);
    }
  zw_window_show_pass_views (self);
  if (dump != NULL && g_strcmp0 (self->tensors_dir, dump) != 0)
    show_dump (self, dump, NULL);
}

/* The whole pass of the Board view's pipeline in Segments, Memory, Timing and Graph: its row
 * of the history selected (none when it has none), the selection has the pipeline and no
 * report. */
void
zw_window_show_pass (ZwWindow *self)
{
  ZwPipelineReport *pipeline;

  g_return_if_fail (ZW_IS_WINDOW (self));
  if ((pipeline = zw_board_view_get_pipeline (board_view (self))) == NULL)
    return;
  self->showing_pass = TRUE;
  zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), zw_window_find_pipeline_run (self, pipeline));
  self->showing_pass = FALSE;
  zw_window_show_pass_views (self);
}

void
zw_window_show_pass_views (ZwWindow *self)
{
  ZwPipelineReport *pipeline;
  g_autoptr (ZwProfile) pass = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (ZW_IS_WINDOW (self));
  if ((pipeline = zw_board_view_get_pipeline (board_view (self))) == NULL)
    return;
  self->showing_pass = TRUE;
  zw_selection_set_report (self->selection, NULL);
  zw_selection_set_pipeline (self->selection, pipeline);
  /* the networks' forwards one after another, op by op */
  pass = zw_pipeline_pass_profile (pipeline);
  zw_timing_view_set_run_profile (ZW_TIMING_VIEW (zw_window_get_view (self, "timing")), pass, NULL);
  self->showing_pass = FALSE;
  zw_window_update_empty_states (self);
  /* TRANSLATORS: window title while a pipeline's whole pass is shown */
  title = g_strdup_printf (_("Pipeline %s on %s — Zhuge Workbench"), pipeline->name, pipeline->device);
  gtk_window_set_title (GTK_WINDOW (self), title);
  zw_window_update_actions (self);
}

static void
on_pass_activated (ZwBoardView *view, ZwWindow *self)
{
  (void) view;
  zw_window_show_pass (self);
}

/* A run that is none of the pipeline's networks: the pipeline leaves the other views. */
static void
on_selected_run (ZwRunHistory *history, GParamSpec *pspec, ZwWindow *self)
{
  ZwRun *run = zw_run_history_get_selected_run (history);

  (void) pspec;
  if (self->showing_pass || run == NULL || zw_run_get_kind (run) == ZW_RUN_PIPELINE)
    return;
  for (guint i = 0; self->pipeline_runs != NULL && i < self->pipeline_runs->len; i++)
    if (g_ptr_array_index (self->pipeline_runs, i) == run)
      return;
  zw_selection_set_pipeline (self->selection, NULL);
  zw_window_update_actions (self);
}

/* A network of the pipeline clicked in Board: its deploy report becomes the window's run
 * (a run of the history, made once per network and selected again after). */
static void
on_network_activated (ZwBoardView *view, guint index, ZwWindow *self)
{
  ZwPipelineReport *pipeline = zw_board_view_get_pipeline (view);
  const ZwPipelineNetwork *n;
  ZwRun *run;

  if (pipeline == NULL || index >= pipeline->networks->len || self->pipeline_runs == NULL
      || index >= self->pipeline_runs->len)
    return;
  n = &g_array_index (pipeline->networks, ZwPipelineNetwork, index);
  if (n->report == NULL)
    {
      g_autofree char *message = g_strdup_printf (
          _("%s: network “%s” runs host ops only: it has no deploy report (nothing of it is on the board)"),
          self->pipeline_path != NULL ? self->pipeline_path : pipeline->name, n->name);
      zw_window_show_banner (self, message, NULL);
      return;
    }
  run = g_ptr_array_index (self->pipeline_runs, index);
  if (run != NULL && g_list_store_find (self->runs, run, NULL))
    zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), run);
  else
    {
      run = zw_run_new_from_log (n->report, self->pipeline_path);
      g_ptr_array_index (self->pipeline_runs, index) = run;
      zw_window_on_run_finished (NULL, run, self);
    }
}

void
zw_window_open_pipeline (ZwWindow *self, const char *path)
{
  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  zw_window_show_banner (self, NULL, NULL);
  zw_window_pipeline_options_forget (self, path);
  g_free (self->pipeline_path);
  self->pipeline_path = g_strdup (path);
  self->pipeline_is_report = zw_window_is_pipeline_report (path);
  zw_run_controller_open_pipeline (self->controller, path);
}

void
zw_window_action_open_demo_pipeline (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autofree char *demo = zw_window_find_demo ();
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  (void) name;
  (void) param;
  /* installed beside the demo networks */
  if (demo != NULL)
    {
      dir = g_path_get_dirname (demo);
      path = g_build_filename (dir, "yolov5s_pipeline.toml", NULL);
    }
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    zw_window_show_banner (self,
                           _("The demo pipeline yolov5s_pipeline.toml is not installed (looked beside the demo "
                             "networks in $ZW_DATA_DIR, the build tree and the data folder)"),
                           NULL);
  else
    zw_window_open (self, path, FALSE);
}

/* One value, two names: a network of the pipeline shown, its selected value is the
 * pipeline's "NET:V_ID" (Tensors of a pipeline's dump follows), and back. */
static gint
shown_network (ZwWindow *self)
{
  ZwPipelineReport *p = zw_selection_get_pipeline (self->selection);
  ZwDeployReport *r = zw_selection_get_report (self->selection);

  for (guint i = 0; p != NULL && r != NULL && i < p->networks->len; i++)
    if (g_array_index (p->networks, ZwPipelineNetwork, i).report == r)
      return (gint) i;
  return -1;
}

static void
on_selected_value (ZwSelection *selection, GParamSpec *pspec, ZwWindow *self)
{
  gint i = shown_network (self);
  gint64 v = zw_selection_get_selected_value (selection);
  g_autofree char *name = NULL;

  (void) pspec;
  if (i < 0 || v < 0)
    return;
  name = zw_pipeline_value_name (g_array_index (zw_selection_get_pipeline (selection)->networks, ZwPipelineNetwork, i).name,
                                 v);
  zw_selection_set_pipeline_value (selection, name);
}

static void
on_pipeline_value (ZwSelection *selection, GParamSpec *pspec, ZwWindow *self)
{
  gint i = shown_network (self);
  g_autofree char *net = NULL;
  gint64 v;

  (void) pspec;
  if (i >= 0 && zw_pipeline_value_parse (zw_selection_get_pipeline_value (selection), &net, &v)
      && g_str_equal (net, g_array_index (zw_selection_get_pipeline (selection)->networks, ZwPipelineNetwork, i).name))
    zw_selection_set_selected_value (selection, v);
}

void
zw_window_pipeline_init (ZwWindow *self)
{
  g_signal_connect (self->selection, "notify::selected-value", G_CALLBACK (on_selected_value), self);
  g_signal_connect (self->selection, "notify::pipeline-value", G_CALLBACK (on_pipeline_value), self);
  g_signal_connect (board_view (self), "network-activated", G_CALLBACK (on_network_activated), self);
  g_signal_connect (board_view (self), "pass-activated", G_CALLBACK (on_pass_activated), self);
  g_signal_connect (self->history, "notify::selected-run", G_CALLBACK (on_selected_run), self);
  g_signal_connect (self->controller, "pipeline-finished", G_CALLBACK (on_pipeline_finished), self);
}
