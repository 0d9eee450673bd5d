/* zw-run-controller.c — open, apply and forward in a worker thread (see the header). */
#include "zw-run-controller.h"

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

/* One queued or running piece of work. Everything the worker touches is in here and owned
 * by it while it runs: the main thread reads the results only after the task returns. */
typedef struct {
  guint serial;
  ZwRunController *controller;   /* weak: for progress; the task keeps the source alive */
  GMainContext *context;
  /* request */
  char *load_path;               /* NULL: use @net */
  gboolean synthetic_params;
  ZwRunMode mode;
  guint iterations;
  ZwRunOptions options;
  char *device_url;              /* the board to deploy on (NULL: the simulated one of the target) */
  XrtBoardFigures base_figures;
  char *dump_dir;                /* forward with dumps into this folder (NULL: no dumps) */
  char *dump_format;
  char *compare_path;            /* compare the network with this other compile of it */
  gboolean sweep;                /* sweep the network (with @sweep_axes) */
  GArray *sweep_axes;
  /* in/out */
  XirNetwork *net;
  XrtDeployment *deployment;     /* its session is reused for Forward with the same options */
  ZwRunOptions session_options;
  char *session_device_url;
  /* out */
  ZwRun *run;
  ZwProfile *profile;            /* the last forward's time profile (a copy) */
  gboolean params_missing;
  char *params_message;          /* why the network has no params (a plan was made instead) */
  GError *forward_error;         /* a plan made, but the forward asked for needs params */
  ZwCompileCompare *compile_compare;   /* of a compare_path job */
  char *compare_warning;         /* what it could not do (a forward that failed) */
  ZwSweep *sweep_result;         /* of a sweep job */
} ZwJob;

struct _ZwRunController
{
  GObject parent_instance;

  XrtBoardFigures base_figures;
  ZwRunOptions options;

  XirNetwork *net;
  char *net_path;
  XrtDeployment *deployment;
  ZwRunOptions session_options;
  char *session_device_url;
  char *device_url;              /* NULL: the simulated board of the compile target */

  GCancellable *cancellable;     /* of the running job, NULL when idle */
  gboolean running_load;
  gboolean running_compare;
  guint serial;
  /* the queued request (coalesced) */
  gboolean pending;
  char *pending_path;
  gboolean pending_synthetic;
  ZwRunMode pending_mode;
  guint pending_iterations;
  char *pending_dump_dir;
  char *pending_dump_format;
  char *pending_compare_path;    /* a compile comparison, run after the pending request */
  gboolean pending_compare_synthetic;
  ZwCompileCompare *compile_compare;   /* the last comparison, until taken */
  char *compare_warning;
  gboolean pending_sweep;        /* a sweep, run after the pending request and comparison */
  GArray *pending_sweep_axes;
  gboolean running_sweep;
  ZwSweep *sweep;                /* the last sweep, until taken */

  double progress;
  char *status;
};

G_DEFINE_FINAL_TYPE (ZwRunController, zw_run_controller, G_TYPE_OBJECT)

enum { PROP_0, PROP_BUSY, PROP_PROGRESS, PROP_STATUS, N_PROPS };
enum { RUN_FINISHED, NETWORK_LOADED, FAILED, COMPILES_COMPARED, SWEEP_FINISHED, N_SIGNALS };

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void start_next (ZwRunController *self);

static void
zw_job_free (ZwJob *job)
{
  g_free (job->load_path);
  g_free (job->dump_dir);
  g_free (job->dump_format);
  g_free (job->compare_path);
  g_free (job->compare_warning);
  g_clear_pointer (&job->sweep_axes, g_array_unref);
  g_clear_pointer (&job->sweep_result, zw_sweep_unref);
  g_free (job->device_url);
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

static void
set_progress (ZwRunController *self, double progress, const char *status)
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

/* ---- worker side ------------------------------------------------------------ */

typedef struct {
  ZwRunController *controller;
  guint serial;
  double fraction;
  char *status;
} ZwProgress;

static void
zw_progress_free (gpointer data)
{
  ZwProgress *p = data;

  g_object_unref (p->controller);
  g_free (p->status);
  g_free (p);
}

static gboolean
progress_in_main (gpointer data)
{
  ZwProgress *p = data;

  /* a late report of a job that has been superseded is dropped */
  if (p->serial == p->controller->serial && p->controller->cancellable != NULL)
    set_progress (p->controller, p->fraction, p->status);
  return G_SOURCE_REMOVE;
}

/* Called from the worker: hands the figure to the main loop, never waits for it. */
static void
job_report (ZwJob *job, double fraction, const char *status)
{
  ZwProgress *p = g_new0 (ZwProgress, 1);

  p->controller = g_object_ref (job->controller);
  p->serial = job->serial;
  p->fraction = CLAMP (fraction, 0.0, 1.0);
  p->status = g_strdup (status);
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, progress_in_main, p, zw_progress_free);
}

static gboolean
is_deploy_report (const cJSON *root)
{
  const cJSON *format = cJSON_GetObjectItemCaseSensitive (root, "format");

  return cJSON_IsString (format) && strcmp (format->valuestring, "zhuge-deploy-report") == 0;
}

static gboolean
job_load (ZwJob *job, GError **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *raw = NULL;
  gsize length = 0;
  cJSON *root;

  if (!zw_file_read_regular (job->load_path, ZW_INPUT_ANY, ZW_FILE_MAX_DOCUMENT, &contents, &length, error))
    return FALSE;

  /* A deploy log and a network are both JSON: tell them apart by the log's "format". */
  root = cJSON_ParseWithLength (contents, length);
  if (root != NULL && is_deploy_report (root))
    {
      g_autoptr (ZwDeployReport) report = zw_deploy_report_from_json (root, job->load_path, error);
      cJSON_Delete (root);
      if (report == NULL)
        return FALSE;
      /* a report written without the graph: the network it names, if it is still there */
      if (!zw_deploy_report_has_graph (report) && report->network_path != NULL
          && g_file_test (report->network_path, G_FILE_TEST_IS_REGULAR))
        {
          g_autoptr (XirNetwork) net = xir_network_new_from_json_file (report->network_path, NULL);
          if (net != NULL)
            zw_deploy_report_attach_network (report, net);
        }
      job->run = zw_run_new_from_log (report, job->load_path);
      return TRUE;
    }
  cJSON_Delete (root);

  job->net = xir_network_new_from_json_data (contents, length, job->load_path, error);
  if (job->net == NULL)
    return FALSE;

  raw = xrt_deployment_params_path_for (job->load_path);
  if (g_file_test (raw, G_FILE_TEST_EXISTS))
    {
      g_autoptr (GError) local = NULL;
      if (xir_network_load_params_from_file (job->net, raw, &local))
        return TRUE;
      if (!job->synthetic_params)
        {
          /* segments, memory, OCM and merges need no weights: the network opens planned */
          job->params_missing = TRUE;
          job->params_message = g_strdup (local->message);
          return TRUE;
        }
    }
  else if (!job->synthetic_params)
    {
      job->params_missing = TRUE;
      job->params_message = g_strdup_printf (_("%s: no params file %s beside it"), job->load_path, raw);
      return TRUE;
    }
  /* the one seed of synthetic params, so the CLI and the workbench deploy the same bytes */
  xir_network_fake_params (job->net, XRT_DEPLOYMENT_SYNTHETIC_SEED);
  return TRUE;
}

/* The panel edits MHz and GB/s: a value that round-trips to the profile's is unchanged. */
static gboolean
differs (double a, double b)
{
  return fabs (a - b) > 1e-9 * fabs (b);
}

/* A deployment of the job's network on its board: the one the options name (any URL
 * scheme, e.g. a board served by zhuge-board at socket://zg330@HOST:PORT), else a simulated
 * board of the network's compile target (mock://zg330, mock://buyi), a new one per
 * deployment with the what-if figures when they differ from the defaults shown (the
 * profile may size its stores), and the options where the runtime plans: on a chip whose
 * compiler placed every value (Buyi) the placement is the file's and the options panel
 * says so. */
static XrtDeployment *
job_deployment (ZwJob *job, GError **error)
{
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (GError) local = NULL;
  const XrtBoardFigures *figures = NULL;
  XrtBoardFigures what_if = { job->options.ocm_bytes, job->options.icore_clock_hz, job->options.etm_bandwidth };

  if ((dep = xrt_deployment_new (job->net, error)) == NULL)
    return NULL;
  if (!xrt_deployment_targets_simulated_board (dep))
    {
      g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_NETWORK,
                   _("%s: the network has no HardOp for a board this build simulates (ZG330, Buyi)"),
                   xir_network_get_path (job->net));
      return NULL;
    }
  if (job->device_url != NULL)
    {
      if (!xrt_deployment_open_board (dep, job->device_url, &local))
        {
          if (strstr (local->message, job->device_url) != NULL)
            g_set_error_literal (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_DEVICE, local->message);
          else
            /* TRANSLATORS: %s the device URL typed in the options, then the reason */
            g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_DEVICE, _("Device %s: %s"),
                         job->device_url, local->message);
          return NULL;
        }
    }
  else
    {
      if (job->options.ocm_bytes != job->base_figures.ocm_bytes
          || differs (job->options.icore_clock_hz, job->base_figures.icore_clock_hz)
          || differs (job->options.etm_bandwidth, job->base_figures.etm_bandwidth))
        figures = &what_if;
      if (!xrt_deployment_open_simulated_board (dep, figures, error))
        return NULL;
    }
  if (!xrt_deployment_is_compiler_placed (dep))
    xrt_deployment_set_options (dep, job->options.merge_hardop, job->options.etm_optimize, job->options.ocm);
  return g_steal_pointer (&dep);
}

/* A plan without params: segments, ETM placement, OCM options and merges are computed at
 * init from the network alone (the board backend plans on demand); only apply and forward
 * need the weights. */
static gboolean
job_plan (ZwJob *job, GError **error)
{
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (ZwDeployReport) report = NULL;

  if ((dep = job_deployment (job, error)) == NULL || (report = xrt_deployment_plan (dep, error)) == NULL)
    return FALSE;
  job->run = zw_run_new (report, ZW_RUN_PLAN, 0, -1);
  return TRUE;
}

static gboolean
job_apply (ZwJob *job, GError **error)
{
  g_autoptr (XrtDeployment) dep = NULL;

  if ((dep = job_deployment (job, error)) == NULL || !xrt_deployment_apply (dep, error))
    return FALSE;
  g_clear_object (&job->deployment);
  job->deployment = g_steal_pointer (&dep);
  job->session_options = job->options;
  g_free (job->session_device_url);
  job->session_device_url = g_strdup (job->device_url);
  return TRUE;
}

typedef struct {
  ZwJob *job;
  guint iteration;
  guint n_steps;
  guint step;
} ZwStepCounter;

static void
on_step (XrtSession *session, const XrtForward *step, GPtrArray *outputs, gpointer user_data)
{
  ZwStepCounter *c = user_data;
  g_autofree char *status = NULL;

  (void) session;
  (void) step;
  (void) outputs;
  /* a report every few steps is enough for a progress bar */
  if (c->step++ % 8 != 0)
    return;
  status = g_strdup_printf (_("Forward %u of %u"), c->iteration + 1, c->job->iterations);
  job_report (c->job, 0.3 + 0.7 * (c->iteration * c->n_steps + c->step) / (double) (c->job->iterations * c->n_steps),
              status);
}

static gboolean
job_forward (ZwJob *job, GCancellable *cancellable, double *total_ms, GError **error)
{
  XrtSession *session = xrt_deployment_get_session (job->deployment);
  ZwStepCounter counter = { job, 0, MAX (xrt_session_get_forwards (session)->len, 1), 0 };
  gboolean ok = TRUE;

  /* every forward records its profile: the Timing view shows the last one */
  xrt_session_enable_time_profile (session, TRUE);
  if (job->dump_dir != NULL
      && !xrt_session_set_dump_outputs (session, TRUE, job->dump_dir, job->dump_format, error))
    return FALSE;
  xrt_session_set_pre_callback (session, on_step, &counter);
  for (guint i = 0; i < job->iterations && ok; i++)
    {
      g_autoptr (GPtrArray) inputs = NULL;
      g_autoptr (GPtrArray) outputs = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      counter.iteration = i;
      counter.step = 0;
      /* the deployment's seeded inputs: the same bytes as `xrt-run run` without --input */
      if ((inputs = xrt_deployment_make_inputs (job->deployment, i, error)) == NULL)
        ok = FALSE;
      else if ((outputs = xrt_deployment_forward (job->deployment, inputs, error)) == NULL)
        ok = FALSE;
    }
  xrt_session_set_pre_callback (session, NULL, NULL);
  /* the session is reused by later forwards, which must not dump again */
  if (job->dump_dir != NULL)
    xrt_session_set_dump_outputs (session, FALSE, NULL, NULL, NULL);
  *total_ms = xrt_session_get_total_time (session);
  if (ok && xrt_session_get_time_profile (session) != NULL)
    /* the session's profile is only valid until its next forward: the run keeps a copy */
    job->profile = zw_profile_copy (xrt_session_get_time_profile (session));
  return ok;
}

static gboolean
options_equal (const ZwRunOptions *a, const ZwRunOptions *b)
{
  return a->merge_hardop == b->merge_hardop && a->etm_optimize == b->etm_optimize && a->ocm == b->ocm
         && a->ocm_bytes == b->ocm_bytes && !differs (a->icore_clock_hz, b->icore_clock_hz)
         && !differs (a->etm_bandwidth, b->etm_bandwidth);
}

/* One side of a compile comparison: @job's network (loaded first when @job has a
 * load_path) deployed on a board of its own with the job's options (a chip whose compiler
 * placed every value keeps the file's placement) and forwarded once. The report is a new
 * reference; the profile stays in job->profile, NULL when the forward failed (then
 * @forward_error says why: the deploy figures still compare). */
static ZwDeployReport *
compare_side (ZwJob *job, const char *which, double fraction, GCancellable *cancellable, char **forward_error,
              GError **error)
{
  g_autofree char *status = NULL;
  g_autoptr (GError) local = NULL;
  double total_ms;

  if (job->load_path != NULL && !job_load (job, error))
    return NULL;
  if (job->run != NULL)   /* a deploy log, not a network */
    {
      g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_NETWORK,
                   _("%s: a deploy report, not a network: open the network JSON to compare compiles"), job->load_path);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  status = g_strdup_printf (_("Comparing compiles: deploying %s"), which);
  job_report (job, fraction, status);
  if (!job_apply (job, error))
    return NULL;
  job->iterations = 1;
  if (!job_forward (job, cancellable, &total_ms, &local))
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      *forward_error = g_strdup_printf (_("%s: the forward failed, its times are unknown: %s"), which, local->message);
      g_clear_pointer (&job->profile, zw_profile_free);
    }
  return xrt_deployment_get_report (job->deployment);
}

static gboolean
job_compare_compiles (ZwJob *job, GCancellable *cancellable, GError **error)
{
  g_autoptr (ZwDeployReport) report_a = NULL, report_b = NULL;
  g_autofree char *warn_a = NULL, *warn_b = NULL;
  ZwJob *other;
  gboolean ok = FALSE;

  if (job->net == NULL)
    {
      g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_NETWORK,
                   _("Open a network first: it is compile A of the comparison"));
      return FALSE;
    }
  /* B is a job of its own (its network, board and session), reporting progress as this one */
  other = g_new0 (ZwJob, 1);
  other->serial = job->serial;
  other->controller = job->controller;
  other->context = g_main_context_ref (job->context);
  other->load_path = g_strdup (job->compare_path);
  other->synthetic_params = job->synthetic_params;
  other->options = job->options;
  other->device_url = g_strdup (job->device_url);
  other->base_figures = job->base_figures;

  if ((report_a = compare_side (job, "A", 0.05, cancellable, &warn_a, error)) == NULL)
    goto out;
  if ((report_b = compare_side (other, "B", 0.5, cancellable, &warn_b, error)) == NULL)
    {
      job->params_missing = other->params_missing;
      goto out;
    }
  job->compile_compare = zw_compare_compiles (report_a, job->profile, report_b, other->profile);
  if (warn_a != NULL || warn_b != NULL)
    job->compare_warning = g_strjoin ("\n", warn_a != NULL ? warn_a : warn_b, warn_a != NULL ? warn_b : NULL, NULL);
  ok = TRUE;
out:
  zw_job_free (other);
  return ok;
}

static void
on_sweep_progress (guint done, guint total, gpointer user_data)
{
  g_autofree char *status = g_strdup_printf (_("Sweep: %u of %u rows"), done, total);

  /* from the sweep's threads: job_report only hands the figure to the main loop */
  job_report (user_data, 0.05 + 0.95 * done / MAX (total, 1), status);
}

/* Every option combination at every what-if point, on the simulated board of the network's
 * compile target (the sweep varies the runtime's options: a chip whose compiler placed every
 * value has none). */
static gboolean
job_sweep (ZwJob *job, GCancellable *cancellable, GError **error)
{
  g_autoptr (XirNetworkView) view = NULL;
  const char *url;
  Zg330SweepOptions options = { job->sweep_axes, 0, FALSE, 0 };

  if (!xir_network_has_params (job->net))
    {
      /* the banner offers synthetic params, as for a forward */
      job->params_missing = TRUE;
      g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_PARAMS,
                   _("%s: the network has no params (.raw): a sweep runs a forward per row"),
                   xir_network_get_path (job->net));
      return FALSE;
    }
  if ((view = xir_network_view (job->net, 0, G_MAXINT, error)) == NULL)
    return FALSE;
  url = xrt_backend_default_device_for_view (view);
  if (g_strcmp0 (url, "mock://zg330") != 0)
    {
      g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_NETWORK,
                   _("%s: a sweep varies the ZG330 runtime's options; this network is not compiled for the ZG330"),
                   xir_network_get_path (job->net));
      return FALSE;
    }
  job_report (job, 0.05, _("Sweep: starting"));
  job->sweep_result = zg330_sweep_run_full (job->net, url, &options, cancellable, on_sweep_progress, job, error);
  return job->sweep_result != NULL;
}

static void
job_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ZwJob *job = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  double total_ms = -1;
  guint iterations = 0;

  (void) source;
  if (job->load_path != NULL)
    {
      g_autofree char *base = g_path_get_basename (job->load_path);
      g_autofree char *status = g_strdup_printf (_("Loading %s"), base);
      job_report (job, 0.02, status);
      if (!job_load (job, &error))
        goto fail;
      if (job->run != NULL) /* a deploy log: nothing to run */
        goto done;
    }
  if (job->net == NULL)
    {
      g_set_error (&error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_NETWORK, _("No network is open"));
      goto fail;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    goto fail;
  if (job->compare_path != NULL)
    {
      if (!job_compare_compiles (job, cancellable, &error))
        goto fail;
      goto done;
    }
  if (job->sweep)
    {
      if (!job_sweep (job, cancellable, &error))
        goto fail;
      goto done;
    }

  if (!xir_network_has_params (job->net))
    {
      /* no weights: the plan at once, and a forward waits for params (the banner offers them) */
      if (job->params_message == NULL)
        job->params_message = g_strdup_printf (_("%s: the network has no params (.raw): it is planned, not deployed"),
                                               xir_network_get_path (job->net));
      job->params_missing = TRUE;
      if (job->mode != ZW_RUN_MODE_FORWARD || job->load_path != NULL)
        {
          job_report (job, 0.1, _("Planning"));
          if (!job_plan (job, &error))
            goto fail;
        }
      /* the banner stays while the network has no params: it offers them for a forward */
      /* TRANSLATORS: %s why there are no params (names the file) */
      g_set_error (&error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_NO_PARAMS,
                   _("%s. Segments, memory, OCM and merges are shown; a forward needs params."),
                   job->params_message);
      if (job->run == NULL)
        goto fail;
      /* the plan is the run; the failure only says why no forward ran */
      job->forward_error = g_steal_pointer (&error);
      goto done;
    }
  if (job->mode != ZW_RUN_MODE_FORWARD || job->deployment == NULL || !options_equal (&job->options, &job->session_options)
      || g_strcmp0 (job->device_url, job->session_device_url) != 0)
    {
      job_report (job, 0.1, _("Applying"));
      if (!job_apply (job, &error))
        goto fail;
    }
  report = xrt_deployment_get_report (job->deployment);
  if (job->mode != ZW_RUN_MODE_APPLY && job->iterations > 0)
    {
      if (!job_forward (job, cancellable, &total_ms, &error))
        goto fail;
      iterations = job->iterations;
    }
  job->run = zw_run_new (report, iterations > 0 ? ZW_RUN_FORWARD : ZW_RUN_APPLY, iterations, total_ms);
  {
    guint64 seed;
    zw_run_set_synthetic_params (job->run, xir_network_get_params_seed (job->net, &seed));
  }
  if (job->profile != NULL)
    zw_run_take_profile (job->run, g_steal_pointer (&job->profile));
  if (iterations > 0 && job->dump_dir != NULL)
    zw_run_set_dump (job->run, job->dump_dir, job->dump_format);

done:
  job_report (job, 1.0, _("Done"));
  g_task_return_boolean (task, TRUE);
  return;

fail:
  g_task_return_error (task, g_steal_pointer (&error));
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
  set_progress (self, 0.0, NULL);

  /* what the worker made becomes current whether or not the rest of the job succeeded:
   * a network that loaded but failed to apply is still the open network */
  if (job->load_path != NULL && job->net != NULL)
    {
      g_clear_pointer (&self->net, xir_network_unref);
      self->net = xir_network_ref (job->net);
      g_free (self->net_path);
      self->net_path = g_strdup (job->load_path);
      g_clear_object (&self->deployment);
      g_signal_emit (self, signals[NETWORK_LOADED], 0, job->load_path);
    }
  if (job->deployment != NULL && job->net == self->net)
    {
      if (self->deployment != job->deployment)
        g_set_object (&self->deployment, job->deployment);
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
  if (ok && job->run != NULL)
    g_signal_emit (self, signals[RUN_FINISHED], 0, job->run);
  if (ok && job->forward_error != NULL)
    g_signal_emit (self, signals[FAILED], 0, job->forward_error, job->load_path ? job->load_path : self->net_path,
                   job->params_missing);
  else if (!ok && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[FAILED], 0, error, job->load_path != NULL ? job->load_path : self->net_path,
                   job->params_missing);

  if (!self->pending && self->pending_compare_path == NULL && !self->pending_sweep)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  start_next (self);
}

static void
start_next (ZwRunController *self)
{
  g_autoptr (GTask) task = NULL;
  ZwJob *job;

  if (self->cancellable != NULL || (!self->pending && self->pending_compare_path == NULL && !self->pending_sweep))
    return;

  job = g_new0 (ZwJob, 1);
  if (!self->pending && self->pending_compare_path != NULL)
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
  job->base_figures = self->base_figures;
  if (job->load_path == NULL && self->net != NULL)
    {
      job->net = xir_network_ref (self->net);
      if (self->deployment != NULL && job->compare_path == NULL && !job->sweep)
        {
          job->deployment = g_object_ref (self->deployment);
          job->session_options = self->session_options;
          job->session_device_url = g_strdup (self->session_device_url);
        }
    }

  self->running_load = job->load_path != NULL;
  self->running_compare = job->compare_path != NULL;
  self->running_sweep = job->sweep;
  self->cancellable = g_cancellable_new ();
  set_progress (self, 0.0, _("Starting"));
  task = g_task_new (self, self->cancellable, job_done, NULL);
  g_task_set_source_tag (task, start_next);
  g_task_set_task_data (task, job, (GDestroyNotify) zw_job_free);
  /* the job reports its own cancellation between steps */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, job_thread);
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

void
zw_run_controller_cancel (ZwRunController *self)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));

  self->pending = FALSE;
  self->pending_sweep = FALSE;
  g_clear_pointer (&self->pending_sweep_axes, g_array_unref);
  g_clear_pointer (&self->pending_compare_path, g_free);
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
  return self->cancellable != NULL || self->pending || self->pending_compare_path != NULL || self->pending_sweep;
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
}

const char *
zw_run_controller_get_device_url (ZwRunController *self)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->device_url;
}
