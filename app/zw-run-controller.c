/* zw-run-controller.c — open, apply and forward in a worker thread (see the header). */
#include "zw-run-controller.h"
#include "zw-run-controller-private.h"

#include <glib/gi18n.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "base/zw-file-read.h"
#include "deploy/xrt-deployment.h"
#include "deploy/zg330-sweep.h"
#include "report/zw-compare.h"
#include "report/zw-deploy-graph.h"
#include "xrt/xrt-session.h"
#include "xrt/xrt-tensor.h"

G_DEFINE_QUARK (zw-run-controller-error-quark, zw_run_controller_error)

G_DEFINE_FINAL_TYPE (ZwRunController, zw_run_controller, G_TYPE_OBJECT)

enum { PROP_0, PROP_BUSY, PROP_PROGRESS, PROP_STATUS, N_PROPS };
enum { RUN_FINISHED, NETWORK_LOADED, FAILED, COMPILES_COMPARED, SWEEP_FINISHED, PIPELINE_FINISHED, N_SIGNALS };

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void start_next (ZwRunController *self);

void
zw_job_free (ZwJob *job)
{
  g_free (job->load_path);
  g_free (job->dump_dir);
  g_free (job->dump_format);
  g_free (job->compare_path);
  g_free (job->compare_warning);
  g_clear_pointer (&job->sweep_axes, g_array_unref);
  g_clear_pointer (&job->sweep_result, zw_sweep_unref);
  g_free (job->pipeline_path);
  g_clear_pointer (&job->pipeline, zw_pipeline_report_unref);
  g_clear_pointer (&job->pipeline_apart, zw_pipeline_report_unref);
  g_clear_pointer (&job->pipeline_options, g_hash_table_unref);
  g_free (job->device_url);
  g_clear_object (&job->board);
  g_free (job->session_device_url);
  g_free (job->params_message);
  g_clear_error (&job->forward_error);
  g_clear_pointer (&job->compile_compare, zw_compile_compare_free);
  g_clear_pointer (&job->profile, zw_profile_free);
  g_clear_pointer (&job->net, xir_network_unref);
  g_clear_object (&job->deployment);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_object (&job->run);
  g_free (job);
}

void
zw_run_controller_set_progress (ZwRunController *self, double progress, const char *status)
{
  if (self->progress != progress)
    {
      self->progress = progress;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  if (g_strcmp0 (self->status, status) != 0)
    {
      g_free (self->status);
      self->status = g_strdup (status);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
}

/* ---- main thread ------------------------------------------------------------- */

static void
job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ZwRunController *self = ZW_RUN_CONTROLLER (source);
  GTask *task = G_TASK (result);
  ZwJob *job = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (task, &error);

  (void) user_data;
  g_clear_object (&self->cancellable);
  zw_run_controller_set_progress (self, 0.0, NULL);

  /* what the worker made becomes current whether or not the rest of the job succeeded:
   * a network that loaded but failed to apply is still the open network */
  if (job->load_path != NULL && job->net != NULL)
    {
      g_clear_pointer (&self->net, xir_network_unref);
      self->net = xir_network_ref (job->net);
      g_free (self->net_path);
      self->net_path = g_strdup (job->load_path);
      self->compiler_placed = job->compiler_placed;
      g_clear_object (&self->deployment);
      g_signal_emit (self, signals[NETWORK_LOADED], 0, job->load_path);
    }
  /* the deployment comes back (moved, never shared: the next job may drop it in its thread
   * while this job's data is freed here) */
  if (job->deployment != NULL && job->net == self->net)
    {
      g_clear_object (&self->deployment);
      self->deployment = g_steal_pointer (&job->deployment);
      self->session_options = job->session_options;
      g_free (self->session_device_url);
      self->session_device_url = g_strdup (job->session_device_url);
    }

  if (ok && job->compile_compare != NULL)
    {
      g_clear_pointer (&self->compile_compare, zw_compile_compare_free);
      g_free (self->compare_warning);
      self->compile_compare = g_steal_pointer (&job->compile_compare);
      self->compare_warning = g_steal_pointer (&job->compare_warning);
      g_signal_emit (self, signals[COMPILES_COMPARED], 0);
    }
  if (ok && job->sweep_result != NULL)
    {
      g_clear_pointer (&self->sweep, zw_sweep_unref);
      self->sweep = g_steal_pointer (&job->sweep_result);
      g_signal_emit (self, signals[SWEEP_FINISHED], 0);
    }
  if (ok && job->pipeline != NULL)
    {
      g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
      self->pipeline = g_steal_pointer (&job->pipeline);
      g_free (self->pipeline_dump_dir);
      self->pipeline_dump_dir = g_strdup (job->dump_dir);
      g_free (self->pipeline_dump_format);
      self->pipeline_dump_format = g_strdup (job->dump_format);
      g_clear_pointer (&self->pipeline_apart, zw_pipeline_report_unref);
      self->pipeline_apart = g_steal_pointer (&job->pipeline_apart);
      g_signal_emit (self, signals[PIPELINE_FINISHED], 0);
    }
  if (ok && job->run != NULL)
    g_signal_emit (self, signals[RUN_FINISHED], 0, job->run);
  if (ok && job->forward_error != NULL)
    g_signal_emit (self, signals[FAILED], 0, job->forward_error, job->load_path ? job->load_path : self->net_path,
                   job->params_missing);
  else if (!ok && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[FAILED], 0, error,
                   job->pipeline_path != NULL ? job->pipeline_path
                                              : job->load_path != NULL ? job->load_path : self->net_path,
                   job->params_missing);

  if (!self->pending && self->pending_compare_path == NULL && !self->pending_sweep && self->pending_pipeline_path == NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  start_next (self);
}

static void
start_next (ZwRunController *self)
{
  g_autoptr (GTask) task = NULL;
  ZwJob *job;

  if (self->cancellable != NULL
      || (!self->pending && self->pending_compare_path == NULL && !self->pending_sweep && self->pending_pipeline_path == NULL))
    return;

  job = g_new0 (ZwJob, 1);
  if (self->pending_pipeline_path != NULL)
    {
      /* a pipeline was asked for last: it superseded the rest (zw_run_controller_open_pipeline) */
      job->pipeline_path = g_steal_pointer (&self->pending_pipeline_path);
      job->dump_dir = g_steal_pointer (&self->pending_pipeline_dump_dir);
      job->dump_format = g_steal_pointer (&self->pending_pipeline_dump_format);
      job->apart = self->pending_pipeline_apart;
      self->pending_pipeline_apart = FALSE;
      job->pipeline_options = zw_run_controller_copy_pipeline_options (self);
    }
  else if (!self->pending && self->pending_compare_path != NULL)
    {
      /* a compile comparison waits for the request before it (the network it compares) */
      job->compare_path = g_steal_pointer (&self->pending_compare_path);
      job->synthetic_params = self->pending_compare_synthetic;
    }
  else if (!self->pending)
    {
      /* so does a sweep */
      job->sweep = TRUE;
      job->sweep_axes = g_steal_pointer (&self->pending_sweep_axes);
      self->pending_sweep = FALSE;
    }
  else
    {
      self->pending = FALSE;
      job->load_path = g_steal_pointer (&self->pending_path);
      job->synthetic_params = self->pending_synthetic;
      job->mode = self->pending_mode;
      job->iterations = self->pending_iterations;
      job->dump_dir = g_steal_pointer (&self->pending_dump_dir);
      job->dump_format = g_steal_pointer (&self->pending_dump_format);
    }
  job->serial = ++self->serial;
  job->controller = self;
  job->context = g_main_context_ref_thread_default ();
  job->options = self->options;
  job->device_url = g_strdup (self->device_url);
  job->board = self->board != NULL ? g_object_ref (self->board) : NULL;
  job->base_figures = self->base_figures;
  if (job->load_path == NULL && self->net != NULL)
    job->net = xir_network_ref (self->net);
  /* the job holds the last deployment alone (it comes back in job_done): a new one on the
   * same board drops it first, so two sessions never fill one board's memory */
  if (self->deployment != NULL)
    {
      job->deployment = g_steal_pointer (&self->deployment);
      job->session_options = self->session_options;
      job->session_device_url = g_strdup (self->session_device_url);
    }

  self->running_load = job->load_path != NULL;
  self->running_compare = job->compare_path != NULL;
  self->running_sweep = job->sweep;
  self->running_pipeline = job->pipeline_path != NULL;
  self->cancellable = g_cancellable_new ();
  zw_run_controller_set_progress (self, 0.0, _("Starting"));
  task = g_task_new (self, self->cancellable, job_done, NULL);
  g_task_set_source_tag (task, start_next);
  g_task_set_task_data (task, job, (GDestroyNotify) zw_job_free);
  /* the job reports its own cancellation between steps */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, zw_job_thread);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

void
zw_run_controller_open (ZwRunController *self, const char *path, gboolean synthetic_params, guint iterations)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (path != NULL);

  /* a new file supersedes everything, including a load in progress */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_free (self->pending_path);
  self->pending_path = g_strdup (path);
  self->pending_synthetic = synthetic_params;
  self->pending_mode = iterations > 0 ? ZW_RUN_MODE_RUN : ZW_RUN_MODE_APPLY;
  self->pending_iterations = iterations;
  self->pending = TRUE;
  start_next (self);
}

static void
request_full (ZwRunController *self, ZwRunMode mode, guint iterations, const char *dump_dir, const char *dump_format)
{
  /* a run in progress is stale now; a load in progress is not (its network is what the
   * request is about), so it finishes and the request follows it; nor is a sweep (it
   * changes nothing the request deploys, and only Cancel should throw its rows away) */
  if (self->cancellable != NULL && !self->running_load && !self->running_sweep)
    g_cancellable_cancel (self->cancellable);
  if (self->pending && self->pending_path != NULL)
    {
      /* keep the queued load; it runs with the latest options anyway */
      self->pending_mode = mode == ZW_RUN_MODE_FORWARD ? ZW_RUN_MODE_RUN : mode;
      self->pending_iterations = iterations;
    }
  else
    {
      self->pending_mode = mode;
      self->pending_iterations = iterations;
    }
  /* the latest request says whether to dump: a later one supersedes a queued dump */
  g_free (self->pending_dump_dir);
  g_free (self->pending_dump_format);
  self->pending_dump_dir = g_strdup (dump_dir);
  self->pending_dump_format = g_strdup (dump_format);
  self->pending = TRUE;
  start_next (self);
}

void
zw_run_controller_request (ZwRunController *self, ZwRunMode mode, guint iterations)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  request_full (self, mode, iterations, NULL, NULL);
}

void
zw_run_controller_request_dump (ZwRunController *self, const char *dir, const char *format)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (dir != NULL && format != NULL);
  request_full (self, ZW_RUN_MODE_FORWARD, 1, dir, format);
}

void
zw_run_controller_compare_compile (ZwRunController *self, const char *path, gboolean synthetic_params)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (path != NULL);

  /* a comparison in progress is superseded (a load or run is not: it makes compile A) */
  if (self->cancellable != NULL && self->running_compare)
    g_cancellable_cancel (self->cancellable);
  g_free (self->pending_compare_path);
  self->pending_compare_path = g_strdup (path);
  self->pending_compare_synthetic = synthetic_params;
  start_next (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

ZwCompileCompare *
zw_run_controller_take_compile_compare (ZwRunController *self, char **warning)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  if (warning != NULL)
    *warning = g_steal_pointer (&self->compare_warning);
  else
    g_clear_pointer (&self->compare_warning, g_free);
  return g_steal_pointer (&self->compile_compare);
}

void
zw_run_controller_sweep (ZwRunController *self, GArray *axes)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));

  /* a sweep in progress is superseded (a load or run is not: it makes the network swept) */
  if (self->cancellable != NULL && self->running_sweep)
    g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->pending_sweep_axes, g_array_unref);
  self->pending_sweep_axes = axes;
  self->pending_sweep = TRUE;
  start_next (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

ZwSweep *
zw_run_controller_take_sweep (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return g_steal_pointer (&self->sweep);
}

gboolean
zw_run_controller_options_for_sweep_row (ZwRunController *self, const ZwSweepRow *row, ZwRunOptions *options,
                                         GError **error)
{
  XrtBoardFigures point;

  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (row != NULL && options != NULL, FALSE);

  if (!zg330_sweep_figures_for_point (&self->base_figures, row->what_if, &point, error))
    return FALSE;
  options->merge_hardop = row->merge_hardop;
  options->etm_optimize = row->etm_optimize;
  options->ocm = row->ocm_requested;
  options->ocm_bytes = point.ocm_bytes;
  options->icore_clock_hz = point.icore_clock_hz;
  options->etm_bandwidth = point.etm_bandwidth;
  return TRUE;
}

static void
request_pipeline (ZwRunController *self, const char *path, const char *dump_dir, const char *dump_format,
                  gboolean apart)
{
  /* a new file supersedes everything, as a network opened does */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  self->pending = FALSE;
  self->pending_sweep = FALSE;
  g_clear_pointer (&self->pending_sweep_axes, g_array_unref);
  g_clear_pointer (&self->pending_compare_path, g_free);
  g_free (self->pending_pipeline_path);
  self->pending_pipeline_path = g_strdup (path);
  g_free (self->pending_pipeline_dump_dir);
  g_free (self->pending_pipeline_dump_format);
  self->pending_pipeline_dump_dir = g_strdup (dump_dir);
  self->pending_pipeline_dump_format = dump_dir != NULL ? g_strdup (dump_format != NULL ? dump_format : "SQB") : NULL;
  self->pending_pipeline_apart = apart;
  start_next (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

void
zw_run_controller_open_pipeline (ZwRunController *self, const char *path)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (path != NULL);
  request_pipeline (self, path, NULL, NULL, FALSE);
}

void
zw_run_controller_run_pipeline_apart (ZwRunController *self, const char *path)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (path != NULL);
  request_pipeline (self, path, NULL, NULL, TRUE);
}

void
zw_run_controller_dump_pipeline (ZwRunController *self, const char *path, const char *dir, const char *format)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (path != NULL && dir != NULL);
  request_pipeline (self, path, dir, format, FALSE);
}

const char *
zw_run_controller_get_pipeline_dump (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->pipeline_dump_dir;
}

const char *
zw_run_controller_get_pipeline_dump_format (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->pipeline_dump_dir != NULL ? self->pipeline_dump_format : NULL;
}

ZwPipelineReport *
zw_run_controller_take_pipeline_apart (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return g_steal_pointer (&self->pipeline_apart);
}

ZwPipelineReport *
zw_run_controller_take_pipeline (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return g_steal_pointer (&self->pipeline);
}

void
zw_run_controller_cancel (ZwRunController *self)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));

  self->pending = FALSE;
  self->pending_sweep = FALSE;
  g_clear_pointer (&self->pending_sweep_axes, g_array_unref);
  g_clear_pointer (&self->pending_compare_path, g_free);
  g_clear_pointer (&self->pending_pipeline_path, g_free);
  g_clear_pointer (&self->pending_pipeline_dump_dir, g_free);
  g_clear_pointer (&self->pending_pipeline_dump_format, g_free);
  g_clear_pointer (&self->pending_path, g_free);
  g_clear_pointer (&self->pending_dump_dir, g_free);
  g_clear_pointer (&self->pending_dump_format, g_free);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/* ---- object ------------------------------------------------------------------- */

static void
zw_run_controller_dispose (GObject *object)
{
  ZwRunController *self = ZW_RUN_CONTROLLER (object);

  /* a running task holds a reference, so dispose only runs when idle */
  self->pending = FALSE;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->deployment);
  g_clear_object (&self->board);
  g_clear_pointer (&self->net, xir_network_unref);
  G_OBJECT_CLASS (zw_run_controller_parent_class)->dispose (object);
}

static void
zw_run_controller_finalize (GObject *object)
{
  ZwRunController *self = ZW_RUN_CONTROLLER (object);

  g_free (self->net_path);
  g_free (self->device_url);
  g_free (self->session_device_url);
  g_free (self->pending_path);
  g_free (self->pending_dump_dir);
  g_free (self->pending_dump_format);
  g_free (self->pending_compare_path);
  g_clear_pointer (&self->compile_compare, zw_compile_compare_free);
  g_free (self->compare_warning);
  g_clear_pointer (&self->pending_sweep_axes, g_array_unref);
  g_clear_pointer (&self->sweep, zw_sweep_unref);
  g_free (self->pending_pipeline_path);
  g_free (self->pending_pipeline_dump_dir);
  g_free (self->pending_pipeline_dump_format);
  g_free (self->pipeline_dump_dir);
  g_free (self->pipeline_dump_format);
  g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
  g_clear_pointer (&self->pipeline_apart, zw_pipeline_report_unref);
  g_clear_pointer (&self->pipeline_options, g_hash_table_unref);
  g_free (self->status);
  G_OBJECT_CLASS (zw_run_controller_parent_class)->finalize (object);
}

static void
zw_run_controller_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwRunController *self = ZW_RUN_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_BUSY: g_value_set_boolean (value, zw_run_controller_get_busy (self)); break;
    case PROP_PROGRESS: g_value_set_double (value, self->progress); break;
    case PROP_STATUS: g_value_set_string (value, self->status); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_run_controller_class_init (ZwRunControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = zw_run_controller_dispose;
  object_class->finalize = zw_run_controller_finalize;
  object_class->get_property = zw_run_controller_get_property;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 0, ro);
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[RUN_FINISHED] = g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 1, ZW_TYPE_RUN);
  signals[NETWORK_LOADED] = g_signal_new ("network-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                          NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 3, G_TYPE_ERROR, G_TYPE_STRING, G_TYPE_BOOLEAN);
  signals[COMPILES_COMPARED] = g_signal_new ("compiles-compared", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SWEEP_FINISHED] = g_signal_new ("sweep-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                          NULL, NULL, G_TYPE_NONE, 0);
  signals[PIPELINE_FINISHED] = g_signal_new ("pipeline-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
zw_run_controller_init (ZwRunController *self)
{
  g_autoptr (GError) error = NULL;

  if (!xrt_board_figures_get_default (&self->base_figures, &error))
    g_warning ("%s; using the built-in ZG330 profile", error->message);
  self->options.merge_hardop = TRUE;
  self->options.etm_optimize = TRUE;
  self->options.ocm = ZW_OCM_BEST_SCORE;
  self->options.ocm_bytes = self->base_figures.ocm_bytes;
  self->options.icore_clock_hz = self->base_figures.icore_clock_hz;
  self->options.etm_bandwidth = self->base_figures.etm_bandwidth;
}

ZwRunController *
zw_run_controller_new (void)
{
  return g_object_new (ZW_TYPE_RUN_CONTROLLER, NULL);
}

const XrtBoardFigures *
zw_run_controller_get_base_figures (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return &self->base_figures;
}

void
zw_run_controller_set_options (ZwRunController *self, const ZwRunOptions *options)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (options != NULL);
  self->options = *options;
}

void
zw_run_controller_get_options (ZwRunController *self, ZwRunOptions *options)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (options != NULL);
  *options = self->options;
}

gboolean
zw_run_controller_get_busy (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), FALSE);
  return self->cancellable != NULL || self->pending || self->pending_compare_path != NULL || self->pending_sweep
         || self->pending_pipeline_path != NULL;
}

double
zw_run_controller_get_progress (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), 0);
  return self->progress;
}

const char *
zw_run_controller_get_status (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->status;
}

const char *
zw_run_controller_get_network_path (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->net_path;
}

gboolean
zw_run_controller_is_compiler_placed (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), FALSE);
  return self->net != NULL && self->compiler_placed;
}

gboolean
zw_run_controller_has_network (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), FALSE);
  return self->net != NULL;
}

XirNetwork *
zw_run_controller_get_network (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->net;
}

void
zw_run_controller_set_device_url (ZwRunController *self, const char *url)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_free (self->device_url);
  self->device_url = url != NULL && *url != '\0' ? g_strstrip (g_strdup (url)) : NULL;
  if (self->device_url != NULL && *self->device_url == '\0')
    g_clear_pointer (&self->device_url, g_free);
  /* one connection per board: the same URL keeps its link (and its connection); another
   * lets the old board go once its last deployment does */
  if (self->board != NULL && g_strcmp0 (xrt_board_link_get_url (self->board), self->device_url) == 0)
    return;
  g_clear_object (&self->board);
  if (self->device_url != NULL)
    self->board = xrt_board_link_new (self->device_url);
}

XrtBoardLink *
zw_run_controller_get_board (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->board;
}

const char *
zw_run_controller_get_device_url (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->device_url;
}
