/* zw-window-pipeline-history.c — a pipeline's passes in the run history (issue 38): every pass
 * the window runs (opening a pipeline file, Forward on an open pipeline, a pass that dumps)
 * and every pipeline report opened is a row (zw_run_new_for_pipeline), selected like any run;
 * two pipeline rows marked compare their passes network by network (zw_pipeline_compare(),
 * rows NET:OP_ID); "Compare with the Networks Run Apart" runs each network of a row's
 * pipeline alone on a simulated board with the same options (xrt_pipeline_apart_to_json()):
 * a row of its own (zw_run_new_for_pipeline_apart), which, selected, compares the pass with
 * them (zw_pipeline_compare_apart()) and marked compares like any pipeline row. */
#include "zw-window-private.h"

#include <glib/gi18n.h>

#include "report/zw-pipeline-apart.h"
#include "zw-compare-view.h"
#include "zw-run-history.h"

ZwRun *
zw_window_find_pipeline_run (ZwWindow *self, ZwPipelineReport *pipeline)
{
  GListModel *runs = G_LIST_MODEL (self->runs);

  for (guint i = g_list_model_get_n_items (runs); pipeline != NULL && i-- > 0;)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (runs, i);
      if (zw_run_get_pipeline (run) == pipeline)
        return run;   /* the store holds it */
    }
  return NULL;
}

gboolean
zw_window_pipeline_can_forward (ZwWindow *self)
{
  return self->pipeline_path != NULL && !self->pipeline_is_report && zw_selection_get_pipeline (self->selection) != NULL;
}

/* Forward with a pipeline shown: one more pass of its file (read again: options edited in the
 * file since are this pass's), a new row of the history. */
gboolean
zw_window_pipeline_forward (ZwWindow *self)
{
  if (!zw_window_pipeline_can_forward (self))
    return FALSE;
  zw_window_show_banner (self, NULL, NULL);
  zw_run_controller_open_pipeline (self->controller, self->pipeline_path);
  return TRUE;
}

gboolean
zw_window_compare_pipeline_runs (ZwWindow *self, ZwRun *a, ZwRun *b)
{
  ZwPipelineReport *pa = zw_run_get_pipeline (a), *pb = zw_run_get_pipeline (b);
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  g_autoptr (GError) error = NULL;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;

  if (pa == NULL && pb == NULL)
    return FALSE;
  if (pa == NULL || pb == NULL)
    {
      zw_compare_view_clear (view);
      zw_window_show_banner (self,
                             _("A pipeline's pass is compared with another pipeline's pass: mark two pipeline passes, "
                               "or two runs of one network"),
                             NULL);
      return TRUE;
    }
  label_a = zw_run_dup_title (a);
  label_b = zw_run_dup_title (b);
  if (!zw_compare_view_set_pipelines (view, pa, pb, NULL, label_a, label_b, &error))
    {
      zw_compare_view_clear (view);
      zw_window_show_banner (self, error->message, NULL);
    }
  return TRUE;
}

/* ---- the networks run apart ------------------------------------------------------------ */

/* The pipeline row the action is for: the one at @param's position, else the selected one,
 * else the row of the pipeline Board shows. */
static ZwRun *
pipeline_row (ZwWindow *self, GVariant *param)
{
  g_autoptr (ZwRun) at = NULL;
  ZwRun *run;

  if (param != NULL && g_variant_is_of_type (param, G_VARIANT_TYPE_UINT32)
      && (at = g_list_model_get_item (G_LIST_MODEL (self->runs), g_variant_get_uint32 (param))) != NULL)
    run = at;   /* the store holds it */
  else
    run = zw_window_get_selected_run (self);
  /* an apart row stands for its pass */
  if (run != NULL && zw_run_get_apart_of (run) != NULL)
    return zw_window_find_pipeline_run (self, zw_run_get_apart_of (run));
  if (run != NULL && zw_run_get_pipeline (run) != NULL)
    return run;
  if (at != NULL)
    return NULL;
  return zw_window_find_pipeline_run (self, zw_selection_get_pipeline (self->selection));
}

static void
action_compare_apart (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  ZwRun *run = pipeline_row (self, param);

  (void) name;
  if (run == NULL || zw_run_get_path (run) == NULL)
    {
      zw_window_show_banner (self, _("No pipeline pass to compare with its networks run apart: select a pipeline's "
                                     "row in the history (open a pipeline and run it)"),
                             NULL);
      return;
    }
  g_set_object (&self->apart_run, run);
  zw_window_show_banner (self, NULL, NULL);
  zw_run_controller_run_pipeline_apart (self->controller, zw_run_get_path (run));
}

/* Whether network @i's options are the same in the pass and in the pass just run again. */
static gboolean
same_options (const ZwPipelineReport *row, const ZwPipelineReport *again, guint i)
{
  const ZwPipelineNetwork *n = &g_array_index (row->networks, ZwPipelineNetwork, i);
  gint j = zw_pipeline_report_find_network (again, n->name);
  const ZwPipelineNetwork *m = j >= 0 ? &g_array_index (again->networks, ZwPipelineNetwork, j) : NULL;

  if (m == NULL || (n->report == NULL) != (m->report == NULL))
    return FALSE;
  return n->report == NULL
         || (n->report->merge_hardop == m->report->merge_hardop && n->report->etm_optimize == m->report->etm_optimize
             && n->report->ocm_requested == m->report->ocm_requested);
}

/* The pass run again with its networks apart (zw_run_controller_run_pipeline_apart): a row of
 * the history of its own, selected (zw_window_show_apart_run shows it). */
gboolean
zw_window_pipeline_apart_finished (ZwWindow *self, ZwPipelineReport *again, ZwPipelineReport *apart)
{
  g_autoptr (ZwRun) run = g_steal_pointer (&self->apart_run);
  g_autoptr (ZwRun) row = NULL;
  g_autofree char *title = NULL;
  ZwPipelineReport *pass;

  if (run == NULL || (pass = zw_run_get_pipeline (run)) == NULL)
    return FALSE;
  title = zw_run_dup_title (run);
  for (guint i = 0; i < pass->networks->len; i++)
    if (!same_options (pass, again, i))
      {
        g_autofree char *message = g_strdup_printf (
            /* TRANSLATORS: %s the pipeline row ("#3 Pipeline pass — yolov5s_pipeline"), the network, the file */
            _("%s: network “%s” has other options in %s now: the networks run apart would not be the pass's (run "
              "Forward and compare its new pass)"),
            title, g_array_index (pass->networks, ZwPipelineNetwork, i).name, zw_run_get_path (run));
        zw_window_show_banner (self, message, NULL);
        return TRUE;
      }
  /* selecting the new row shows it */
  row = zw_run_new_for_pipeline_apart (apart, run);
  zw_window_on_run_finished (NULL, row, self);
  return TRUE;
}

/* An apart row selected: its pass against the networks apart in Compare (rows NET:OP_ID),
 * the headline in the banner; Board keeps the pipeline it shows. */
void
zw_window_show_apart_run (ZwWindow *self, ZwRun *row)
{
  ZwPipelineReport *pass = zw_run_get_apart_of (row), *apart = zw_run_get_pipeline (row);
  ZwRun *pass_row = zw_window_find_pipeline_run (self, pass);
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autofree char *title = NULL;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;
  g_autofree char *board = NULL;
  g_autofree char *alone = NULL;

  g_return_if_fail (pass != NULL && apart != NULL);
  title = pass_row != NULL ? zw_run_dup_title (pass_row) : g_strdup (pass->name);
  if ((cmp = zw_pipeline_compare_apart (pass, apart, NULL, &self->apart_headline, &error)) == NULL)
    {
      zw_window_banner_for_error (self, zw_run_get_path (row), error);
      return;
    }
  self->has_apart_headline = TRUE;
  board = g_format_size_full (self->apart_headline.board_bytes, G_FORMAT_SIZE_IEC_UNITS);
  alone = g_format_size_full (self->apart_headline.apart_bytes, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: Compare's A: the pipeline row's title, then the ETM its pass takes on the board */
  label_a = g_strdup_printf (_("%s (ETM %s)"), title, board);
  /* TRANSLATORS: Compare's B: the same networks each run alone, their ETM summed */
  label_b = g_strdup_printf (_("the networks run apart (ETM %s)"), alone);
  if (!zw_compare_view_set_pipelines (view, pass, apart, NULL, label_a, label_b, &error))
    {
      zw_window_banner_for_error (self, zw_run_get_path (row), error);
      return;
    }
  self->compare_from_runs = FALSE;
  {
    g_autofree char *headline = zw_pipeline_apart_headline_text (&self->apart_headline);
    zw_window_show_banner (self, headline, NULL);
  }
  zw_window_set_view (self, "compare");
  zw_window_update_actions (self);
}

gboolean
zw_window_get_apart_headline (ZwWindow *self, ZwPipelineApartHeadline *out)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  if (!self->has_apart_headline)
    return FALSE;
  if (out != NULL)
    *out = self->apart_headline;
  return TRUE;
}

void
zw_window_pipeline_history_update_actions (ZwWindow *self)
{
  ZwRun *run = zw_window_get_selected_run (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-pipeline-apart",
                                 (run != NULL && zw_run_get_pipeline (run) != NULL)
                                     || zw_window_find_pipeline_run (self, zw_selection_get_pipeline (self->selection)) != NULL);
}

void
zw_window_pipeline_history_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-pipeline-apart", NULL, action_compare_apart);
  gtk_widget_class_install_action (widget_class, "win.compare-pipeline-apart-row", "u", action_compare_apart);
}
