/* zw-run-controller-private.h — what the controller object (zw-run-controller.c) and its
 * worker-side jobs (zw-run-controller-jobs.c) share: the job, the object's fields, and the
 * few functions each side calls of the other. Not installed; app/ only. */
#pragma once

#include "zw-run-controller.h"

#include "deploy/xrt-board-link.h"
#include "deploy/xrt-deployment.h"

G_BEGIN_DECLS

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
  XrtBoardLink *board;           /* the controller's open board of device_url (NULL without one) */
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
  gboolean compiler_placed;      /* the network loaded is placed by its compiler (Buyi) */
  char *params_message;          /* why the network has no params (a plan was made instead) */
  GError *forward_error;         /* a plan made, but the forward asked for needs params */
  ZwCompileCompare *compile_compare;   /* of a compare_path job */
  char *compare_warning;         /* what it could not do (a forward that failed) */
  ZwSweep *sweep_result;         /* of a sweep job */
  char *pipeline_path;           /* a pipeline job: a pipeline file (run) or a pipeline report (read) */
  ZwPipelineReport *pipeline;    /* of a pipeline job */
  gboolean apart;                /* a pipeline job that also runs each network apart */
  ZwPipelineReport *pipeline_apart;   /* its networks run apart (xrt_pipeline_apart_to_json) */
  GHashTable *pipeline_options;  /* network name -> ZwRunOptions*: instead of the file's (NULL: none) */
} ZwJob;

struct _ZwRunController
{
  GObject parent_instance;

  XrtBoardFigures base_figures;
  ZwRunOptions options;

  XirNetwork *net;
  char *net_path;
  gboolean compiler_placed;      /* of @net: its compiler placed every value (no options) */
  XrtDeployment *deployment;
  ZwRunOptions session_options;
  char *session_device_url;
  char *device_url;              /* NULL: the simulated board of the compile target */
  XrtBoardLink *board;           /* the one connection to the board of device_url, kept across jobs */

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
  char *pending_pipeline_path;   /* a pipeline to run or read (zw_run_controller_open_pipeline) */
  char *pending_pipeline_dump_dir;    /* zw_run_controller_dump_pipeline: its folder and format */
  char *pending_pipeline_dump_format;
  char *pipeline_dump_dir;       /* the last pipeline's dump folder (NULL: it did not dump) */
  char *pipeline_dump_format;    /* and its format */
  gboolean pending_pipeline_apart;    /* zw_run_controller_run_pipeline_apart */
  ZwPipelineReport *pipeline_apart;   /* the last pipeline's networks run apart, until taken */
  GHashTable *pipeline_options;  /* zw_run_controller_set_pipeline_network_options (NULL: none) */
  gboolean running_pipeline;
  ZwPipelineReport *pipeline;    /* the last pipeline, until taken */

  double progress;
  char *status;
};

void zw_job_free (ZwJob *job);

/* Main thread: sets the progress and status properties (notifying on change). */
void zw_run_controller_set_progress (ZwRunController *self, double progress, const char *status);

/* The GTask thread function of a job (@task_data is the ZwJob): load, deploy, plan, apply,
 * forward, dump, compare or sweep, as the job asks. */
void zw_job_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable);

/* zw-run-controller-pipeline.c, worker side: job->pipeline from job->pipeline_path. */
gboolean zw_job_pipeline (ZwJob *job, GCancellable *cancellable, GError **error);
/* zw-run-controller-pipeline.c, main side: a copy of the networks' options for a job (NULL: none). */
GHashTable *zw_run_controller_copy_pipeline_options (ZwRunController *self);
/* The job's board (job->board, the options' device URL) from the controller's one link to
 * it; ZW_RUN_CONTROLLER_ERROR_DEVICE naming the URL when it cannot be reached. */
XrtDevice *zw_job_acquire_board (ZwJob *job, GError **error);

G_END_DECLS
