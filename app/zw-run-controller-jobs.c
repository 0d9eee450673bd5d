/* zw-run-controller-jobs.c — the worker side of the run controller: load, deploy, plan,
 * apply, forward (with dumps), compile comparison and sweep, run in a GTask thread. */
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
    zw_run_controller_set_progress (p->controller, p->fraction, p->status);
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

XrtDevice *
zw_job_acquire_board (ZwJob *job, GError **error)
{
  g_autoptr (GError) local = NULL;
  XrtDevice *device = xrt_board_link_acquire (job->board, NULL, &local);

  if (device != NULL)
    return device;
  if (strstr (local->message, job->device_url) != NULL)
    g_set_error_literal (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_DEVICE, local->message);
  else
    /* TRANSLATORS: %s the device URL typed in the options, then the reason */
    g_set_error (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_DEVICE, _("Device %s: %s"), job->device_url,
                 local->message);
  return NULL;
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
  if (job->board != NULL)
    {
      g_autoptr (XrtDevice) device = zw_job_acquire_board (job, error);

      if (device == NULL || !xrt_deployment_use_board (dep, device, error))
        return NULL;
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
  /* a network opened whose compiler placed every value (Buyi) deploys the file's placement
   * (merge off, ETM optimize off, no OCM option); after that the options asked for go to the
   * backend, which refuses what it cannot do with its own error, as in the CLI */
  job->compiler_placed = xrt_deployment_is_compiler_placed (dep);
  if (job->compiler_placed && job->load_path != NULL)
    xrt_deployment_set_options (dep, FALSE, FALSE, ZW_OCM_NONE);
  else
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

  /* the last deployment goes first: on a kept board its session would share the board's
   * memory with the new one (and a Forward after a failed apply applies again) */
  g_clear_object (&job->deployment);
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

/* Whether the kept deployment's board is the one the job's board link gives now (a board
 * that restarted is opened again: the deployment on the old connection is gone, the
 * forward applies again). A simulated board of the target is always still there. */
static gboolean
board_still_holds (ZwJob *job)
{
  g_autoptr (XrtDevice) device = NULL;

  if (job->board == NULL || g_strcmp0 (job->device_url, job->session_device_url) != 0)
    return TRUE;
  device = xrt_board_link_acquire (job->board, NULL, NULL);
  return device != NULL && device == xrt_deployment_get_device (job->deployment);
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
  other->board = job->board != NULL ? g_object_ref (job->board) : NULL;
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
  Zg330SweepOptions options = { job->sweep_axes, 0, FALSE, 0, NULL };

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
  /* on a board of the options: over its one connection, the last deployment let go first */
  if (job->board != NULL)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (XrtDevice) device = xrt_board_link_acquire (job->board, NULL, &local);

      if (device == NULL)
        {
          g_set_error_literal (error, ZW_RUN_CONTROLLER_ERROR, ZW_RUN_CONTROLLER_ERROR_DEVICE, local->message);
          return FALSE;
        }
      g_clear_object (&job->deployment);
      options.board = device;
      job->sweep_result = zg330_sweep_run_full (job->net, url, &options, cancellable, on_sweep_progress, job, error);
      return job->sweep_result != NULL;
    }
  job->sweep_result = zg330_sweep_run_full (job->net, url, &options, cancellable, on_sweep_progress, job, error);
  return job->sweep_result != NULL;
}

void
zw_job_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ZwJob *job = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  double total_ms = -1;
  guint iterations = 0;

  (void) source;
  if (job->pipeline_path != NULL)
    {
      g_autofree char *base = g_path_get_basename (job->pipeline_path);
      g_autofree char *status = g_strdup_printf (_("Running the pipeline %s"), base);
      job_report (job, 0.02, status);
      if (!zw_job_pipeline (job, cancellable, &error))
        goto fail;
      goto done;
    }
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
  if (job->mode == ZW_RUN_MODE_FORWARD && job->deployment != NULL && !board_still_holds (job))
    g_clear_object (&job->deployment);
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