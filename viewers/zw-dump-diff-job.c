/* zw-dump-diff-job.c — a dump diff run by a worker thread, its progress and cancellation. */
#include "zw-dump-diff-job.h"

struct _ZwDumpDiffJob
{
  char *dir[2];
  XirNetwork *network;
  char *format;
  ZwDumpDiffOptions options;
  gboolean has_options;
  GMutex lock;
  guint64 done, total;     /* under lock */
  gboolean comparing;      /* under lock: the folders are loaded */
  ZwDumpDiff *diff;        /* the result (the running thread's until it returns) */
  GPtrArray *side[2];
};

ZwDumpDiffJob *
zw_dump_diff_job_new (const char *dir_a, const char *dir_b, XirNetwork *network, const char *format,
                      const ZwDumpDiffOptions *options)
{
  ZwDumpDiffJob *job;

  g_return_val_if_fail (dir_a != NULL && dir_b != NULL, NULL);
  job = g_atomic_rc_box_new0 (ZwDumpDiffJob);
  job->dir[0] = g_strdup (dir_a);
  job->dir[1] = g_strdup (dir_b);
  job->network = network != NULL ? xir_network_ref (network) : NULL;
  job->format = g_strdup (format);
  job->has_options = options != NULL;
  if (options != NULL)
    job->options = *options;
  g_mutex_init (&job->lock);
  return job;
}

ZwDumpDiffJob *
zw_dump_diff_job_ref (ZwDumpDiffJob *job)
{
  return g_atomic_rc_box_acquire (job);
}

static void
job_clear (gpointer data)
{
  ZwDumpDiffJob *job = data;

  for (guint i = 0; i < 2; i++)
    {
      g_free (job->dir[i]);
      g_clear_pointer (&job->side[i], g_ptr_array_unref);
    }
  g_clear_pointer (&job->network, xir_network_unref);
  g_free (job->format);
  g_clear_pointer (&job->diff, zw_dump_diff_free);
  g_mutex_clear (&job->lock);
}

void
zw_dump_diff_job_unref (ZwDumpDiffJob *job)
{
  g_atomic_rc_box_release_full (job, job_clear);
}

static void
on_progress (guint64 done, guint64 total, gpointer user_data)
{
  ZwDumpDiffJob *job = user_data;

  g_mutex_lock (&job->lock);
  job->done = done;
  job->total = total;
  job->comparing = TRUE;
  g_mutex_unlock (&job->lock);
}

gboolean
zw_dump_diff_job_run (ZwDumpDiffJob *job, GCancellable *cancellable, GError **error)
{
  g_autoptr (ZwDumpFolder) fa = NULL, fb = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) ta = NULL, tb = NULL;
  ZwDumpDiff *diff;

  g_return_val_if_fail (job != NULL, FALSE);
  /* zw_dump_diff_folders(), keeping both sides (the view's heatmaps read them) */
  fa = zw_dump_folder_load (job->dir[0], job->network, job->format, error);
  if (fa == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  fb = zw_dump_folder_load (job->dir[1], job->network, job->format, error);
  if (fb == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  ta = zw_dump_diff_load_side (fa, job->network, warnings);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  tb = zw_dump_diff_load_side (fb, job->network, warnings);
  diff = zw_dump_diff_tensors_full (ta, tb, job->network, job->has_options ? &job->options : NULL, warnings, on_progress,
                                    job, cancellable, error);
  if (diff == NULL)
    return FALSE;
  zw_dump_diff_set_names (diff, job->dir[0], job->dir[1]);
  g_clear_pointer (&job->diff, zw_dump_diff_free);
  job->diff = diff;
  g_clear_pointer (&job->side[0], g_ptr_array_unref);
  g_clear_pointer (&job->side[1], g_ptr_array_unref);
  job->side[0] = g_steal_pointer (&ta);
  job->side[1] = g_steal_pointer (&tb);
  return TRUE;
}

static void
job_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;

  (void) source_object;
  if (zw_dump_diff_job_run (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
zw_dump_diff_job_run_async (ZwDumpDiffJob *job, gpointer source_object, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (job != NULL);
  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, zw_dump_diff_job_run_async);
  g_task_set_task_data (task, zw_dump_diff_job_ref (job), (GDestroyNotify) zw_dump_diff_job_unref);
  /* a cancelled job ends with G_IO_ERROR_CANCELLED, whatever the worker got to */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, job_thread);
}

gboolean
zw_dump_diff_job_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (G_IS_TASK (result) && g_task_get_source_tag (G_TASK (result)) == zw_dump_diff_job_run_async,
                        FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

double
zw_dump_diff_job_get_fraction (ZwDumpDiffJob *job)
{
  double fraction;

  g_return_val_if_fail (job != NULL, -1);
  g_mutex_lock (&job->lock);
  if (!job->comparing)
    fraction = -1;
  else
    fraction = job->total > 0 ? (double) job->done / (double) job->total : 1.0;
  g_mutex_unlock (&job->lock);
  return fraction;
}

ZwDumpDiff *
zw_dump_diff_job_steal_diff (ZwDumpDiffJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return g_steal_pointer (&job->diff);
}

GPtrArray *
zw_dump_diff_job_steal_side (ZwDumpDiffJob *job, guint side)
{
  g_return_val_if_fail (job != NULL && side < 2, NULL);
  return g_steal_pointer (&job->side[side]);
}

const char *
zw_dump_diff_job_get_dir (ZwDumpDiffJob *job, guint side)
{
  g_return_val_if_fail (job != NULL && side < 2, NULL);
  return job->dir[side];
}
