/* zw-window-compare-plan.c — two bare time files compared while the network open ran with
 * merge off: a merge-on file's launches are no ops of that run (its report has no merged
 * launches), so the network is planned again with merge on (deploy/xrt-merge-on-plan.h:
 * plan only, no forward) in a worker thread (GTask), and the files are mapped through that
 * plan when it is ready; the Compare header then names the merge-on plan.  Meanwhile the
 * files are shown as they are.  The plan is kept for the run it was made for, so comparing
 * again needs no worker.  Compare showing something else first (another comparison, the
 * window closing) drops the result. */
#include "zw-window-private.h"

#include <glib/gi18n.h>

#include "deploy/xrt-merge-on-plan.h"
#include "report/zw-profile-plan.h"
#include "zw-compare-view.h"

typedef struct {
  ZwDeployReport *report;     /* the open network's run (merge off) */
  char *report_path;          /* the deploy log it was read from, NULL for a live run */
  ZwProfile *a, *b;
  char *label_a, *label_b;
  gboolean say;               /* FALSE: the files wait for a network (nothing said) */
  guint serial;               /* self->compare_serial when asked */
} ReplanData;

static void
replan_data_free (gpointer data)
{
  ReplanData *d = data;

  zw_deploy_report_unref (d->report);
  g_free (d->report_path);
  zw_profile_free (d->a);
  zw_profile_free (d->b);
  g_free (d->label_a);
  g_free (d->label_b);
  g_free (d);
}

/* the worker: find the network's JSON, plan it with merge on */
static void
replan_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ReplanData *d = task_data;
  g_autofree char *json = NULL;
  ZwDeployReport *plan = NULL;
  GError *error = NULL;

  (void) source;
  (void) cancellable;
  if ((json = xrt_merge_on_plan_find_network (d->report, d->report_path, &error)) != NULL)
    plan = xrt_merge_on_plan (json, d->report, &error);
  if (plan != NULL)
    g_task_return_pointer (task, plan, (GDestroyNotify) zw_deploy_report_unref);
  else
    g_task_return_error (task, error);
}

/* The deploy log @report was read from, NULL for a live run's */
static const char *
report_path_of (ZwWindow *self, const ZwDeployReport *report)
{
  for (guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs)); n > 0; n--)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (G_LIST_MODEL (self->runs), n - 1);
      if (zw_run_get_report (run) == report)
        return zw_run_get_kind (run) == ZW_RUN_LOG ? zw_run_get_path (run) : NULL;
    }
  return NULL;
}

/* @a and @b mapped through @plan (the merge-on plan of the run @network): TRUE when both
 * belong; else the banner says why when @say */
static gboolean
map_through (ZwWindow *self, const ZwProfile *a, const ZwProfile *b, const char *label_a, const char *label_b,
             const ZwDeployReport *network, const ZwDeployReport *plan, gboolean say)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  g_autoptr (ZwProfile) mapped_a = NULL;
  g_autoptr (ZwProfile) mapped_b = NULL;
  g_autoptr (GError) error = NULL;

  if ((mapped_a = zw_profile_map_to_plan (a, plan, &error)) != NULL)
    mapped_b = zw_profile_map_to_plan (b, plan, &error);
  if (mapped_b != NULL)
    {
      zw_compare_view_set_profiles (view, mapped_a, mapped_b, NULL, label_a, label_b);
      zw_compare_view_set_merge_on_plan (view, plan);
      return TRUE;
    }
  if (say)
    {
      /* TRANSLATORS: FILE, NETWORK, the reason; then what Compare does instead */
      g_autofree char *banner = g_strdup_printf (_("%s does not belong to network %s planned again with merge on "
                                                   "(the open run has merge off) (%s): its ops are compared by op "
                                                   "id only"), mapped_a == NULL ? label_a : label_b,
                                                 network->network_name != NULL ? network->network_name : "?",
                                                 error->message);
      zw_window_show_banner (self, banner, NULL);
    }
  return FALSE;
}

static void
replan_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ZwWindow *self = ZW_WINDOW (source);
  ReplanData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) plan = g_task_propagate_pointer (G_TASK (result), &error);

  (void) user_data;
  /* the window closed, or Compare shows something else now */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || d->serial != self->compare_serial)
    return;
  g_clear_object (&self->merge_on_cancel);
  if (plan == NULL)
    {
      if (d->say)
        {
          /* TRANSLATORS: FILE, NETWORK, the reason; then what Compare does instead */
          g_autofree char *banner = g_strdup_printf (_("%s has merged launches, but the open network %s ran with "
                                                       "merge off and could not be planned again with merge on "
                                                       "(%s): its ops are compared by op id only"),
                                                     zw_profile_wants_merge_on_plan (d->a, NULL, d->report)
                                                         ? d->label_a
                                                         : d->label_b,
                                                     d->report->network_name != NULL ? d->report->network_name : "?",
                                                     error->message);
          zw_window_show_banner (self, banner, NULL);
        }
      return;
    }
  zw_window_compare_plan_clear (self);
  self->merge_on_of = zw_deploy_report_ref (d->report);
  self->merge_on_plan = zw_deploy_report_ref (plan);
  if (!map_through (self, d->a, d->b, d->label_a, d->label_b, d->report, plan, d->say) && !d->say)
    {
      /* not of this network after all: they wait for another, as files do */
      self->unmapped_a = g_steal_pointer (&d->a);
      self->unmapped_b = g_steal_pointer (&d->b);
      self->unmapped_label_a = g_steal_pointer (&d->label_a);
      self->unmapped_label_b = g_steal_pointer (&d->label_b);
    }
}

gboolean
zw_window_compare_through_merge_on (ZwWindow *self, const ZwProfile *a, const ZwProfile *b, const char *label_a,
                                    const char *label_b, ZwDeployReport *network, gboolean say)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (self, "compare"));
  g_autoptr (GTask) task = NULL;
  ReplanData *d;

  g_return_val_if_fail (network != NULL, FALSE);
  if (self->merge_on_of == network && self->merge_on_plan != NULL
      && map_through (self, a, b, label_a, label_b, network, self->merge_on_plan, say))
    return TRUE;
  /* as they are: for good when the kept plan did not take them, else until the plan is ready */
  zw_compare_view_set_profiles (view, a, b, NULL, label_a, label_b);
  zw_compare_view_set_reports (view, NULL, NULL);
  if (self->merge_on_of == network && self->merge_on_plan != NULL)
    return FALSE;
  d = g_new0 (ReplanData, 1);
  d->report = zw_deploy_report_ref (network);
  d->report_path = g_strdup (report_path_of (self, network));
  d->a = zw_profile_copy (a);
  d->b = zw_profile_copy (b);
  d->label_a = g_strdup (label_a);
  d->label_b = g_strdup (label_b);
  d->say = say;
  d->serial = self->compare_serial;
  if (self->merge_on_cancel != NULL)
    g_cancellable_cancel (self->merge_on_cancel);
  g_clear_object (&self->merge_on_cancel);
  self->merge_on_cancel = g_cancellable_new ();
  task = g_task_new (self, self->merge_on_cancel, replan_done, NULL);
  g_task_set_source_tag (task, zw_window_compare_through_merge_on);
  g_task_set_task_data (task, d, replan_data_free);
  g_task_run_in_thread (task, replan_thread);
  return TRUE;
}

void
zw_window_compare_plan_cancel (ZwWindow *self)
{
  self->compare_serial++;
  if (self->merge_on_cancel != NULL)
    g_cancellable_cancel (self->merge_on_cancel);
  g_clear_object (&self->merge_on_cancel);
}

void
zw_window_compare_plan_clear (ZwWindow *self)
{
  g_clear_pointer (&self->merge_on_of, zw_deploy_report_unref);
  g_clear_pointer (&self->merge_on_plan, zw_deploy_report_unref);
}
