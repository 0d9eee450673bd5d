/* zw-run-controller.h — the background side of the workbench: open, apply and forward.
 *
 * Every piece of work (loading a network or a deploy log, apply, forwards) runs in a GTask
 * worker thread with a GCancellable; the main thread only queues requests and receives
 * results, so the UI never waits on the runtime. One job runs at a time: a new request
 * while one runs cancels it (at its next step: apply itself cannot be interrupted) and runs
 * after it; requests queued meanwhile coalesce into the latest.
 *
 * Each apply opens its own simulated board (mock://zg330) with the device profile of the
 * request, so what-ifs that size the stores (OCM size) need no special path, and builds a
 * new backend and session (the backend's options are before-apply only). A board named by
 * a device URL is opened once and kept (one connection per board, zhuge-board serves one
 * client): every apply after it drops the last deployment and deploys on the same device. The session of
 * the last apply is kept for Forward with unchanged options. Every forward records its
 * time profile (the run keeps the last forward's).
 *
 * Signals (main thread):
 *   "run-finished"   (ZwRun *run)                        a new run (live or a log)
 *   "network-loaded" (const char *path)                   a network became current
 *   "failed"         (GError *error, const char *path, gboolean params_missing)
 *                    a request failed; @params_missing: the network loaded but its .raw is
 *                    missing or bad: it was planned without params (a "plan" run came
 *                    before this signal) and a forward needs synthetic params (open again)
 *   "compiles-compared" ()                                a compile comparison is ready
 *                    (zw_run_controller_take_compile_compare)
 *   "sweep-finished" ()                                   a sweep is ready (zw_run_controller_take_sweep)
 *   "pipeline-finished" ()                                a pipeline is ready (zw_run_controller_take_pipeline)
 * Properties: "busy" (gboolean), "progress" (double 0..1), "status" (string), all read-only.
 */
#pragma once

#include <gio/gio.h>
#include "deploy/xrt-board-link.h"
#include "deploy/xrt-deployment.h"
#include "report/zw-compare.h"
#include "report/zw-deploy-report.h"
#include "report/zw-pipeline-report.h"
#include "report/zw-sweep.h"
#include "xir/xir-network.h"
#include "zw-run.h"

G_BEGIN_DECLS

#define ZW_RUN_CONTROLLER_ERROR (zw_run_controller_error_quark ())
GQuark zw_run_controller_error_quark (void);

typedef enum {
  ZW_RUN_CONTROLLER_ERROR_NO_PARAMS,   /* the network's .raw is missing or does not load */
  ZW_RUN_CONTROLLER_ERROR_NO_NETWORK,  /* apply or forward with no network open */
  ZW_RUN_CONTROLLER_ERROR_DEVICE,      /* the device URL of the options does not open */
} ZwRunControllerError;

/* What to do after (or instead of) loading. */
typedef enum {
  ZW_RUN_MODE_APPLY,    /* a new deployment, no forward */
  ZW_RUN_MODE_FORWARD,  /* forwards on the last deployment (a new one if options changed) */
  ZW_RUN_MODE_RUN,      /* a new deployment, then forwards */
} ZwRunMode;

/* The backend options and device what-ifs of a request. */
typedef struct {
  gboolean merge_hardop;
  gboolean etm_optimize;
  ZwOcmOpt ocm;
  guint64 ocm_bytes;       /* device profile: OCM size */
  double icore_clock_hz;   /* device profile: icore clock */
  double etm_bandwidth;    /* device profile: ETM bytes per second */
} ZwRunOptions;

#define ZW_TYPE_RUN_CONTROLLER (zw_run_controller_get_type ())
G_DECLARE_FINAL_TYPE (ZwRunController, zw_run_controller, ZW, RUN_CONTROLLER, GObject)

/* A controller with no network; options from the default device profile. */
ZwRunController *zw_run_controller_new (void);

/* The figures of the device profile the what-ifs start from (borrowed). */
const XrtBoardFigures *zw_run_controller_get_base_figures (ZwRunController *self);
/* Options of the next request (copied). Does not start anything. */
void zw_run_controller_set_options (ZwRunController *self, const ZwRunOptions *options);
void zw_run_controller_get_options (ZwRunController *self, ZwRunOptions *options);

/* Opens @path: a network JSON (then deploys and forwards @iterations times, 0 = apply
 * only) or a deploy log JSON (a ZW_RUN_LOG run). @synthetic_params: fill the params with
 * synthetic data when the .raw beside the JSON is missing or bad (else "failed" with
 * params_missing). Supersedes any work in progress. */
void zw_run_controller_open (ZwRunController *self, const char *path, gboolean synthetic_params, guint iterations);
/* Queues an apply / forward / run of the current network with the current options. */
void zw_run_controller_request (ZwRunController *self, ZwRunMode mode, guint iterations);
/* Queues one forward of the current network (deploying first if the options changed) that
 * dumps every output value into @dir in @format ("SFB", "SQB" … see report/zw-dump.h)
 * with a manifest.json. With merge off every hardop's outputs are dumped, OCM-resident
 * values included; with merge on only what a board gives (the launches' ETM outputs). The
 * run keeps @dir (zw_run_get_dump_dir). */
void zw_run_controller_request_dump (ZwRunController *self, const char *dir, const char *format);
/* Queues a comparison of the current network (compile A) with another compile of the same
 * model at @path (compile B, e.g. the Buyi compile of a ZG330 network): each is deployed on
 * a board of its own (the one it was compiled for; the current options where the runtime
 * plans, the file's placement where the compiler did) and forwarded once, in a worker
 * thread like every job, after the request queued before it. @synthetic_params: B's params
 * are synthesised when its .raw is missing or bad. A forward that fails leaves that side's
 * times unknown (the comparison's warning says so). "compiles-compared" or "failed"
 * follows; a newer comparison supersedes this one, and cancel drops it. */
void zw_run_controller_compare_compile (ZwRunController *self, const char *path, gboolean synthetic_params);
/* The last comparison (transfer full; NULL when none is waiting) and its warning (may be
 * NULL; a new string, or NULL when nothing failed). */
ZwCompileCompare *zw_run_controller_take_compile_compare (ZwRunController *self, char **warning);
/* Queues a sweep of the current network (deploy/zg330-sweep.h: every combination
 * of merge, ETM optimize and OCM option at every point of @axes, an array of Zg330SweepAxis
 * made by zg330_sweep_parse_what_if — may be NULL or empty: the profile as it is; taken),
 * after the request queued before it, in a worker thread like every job: each row on a
 * simulated board of its own, the progress row by row. Apply and forward requests wait for
 * it; cancel stops the rows not yet started; a newer sweep supersedes it. "sweep-finished"
 * or "failed" follows (a network without params fails with params_missing). */
/* With a device URL the sweep runs on that board, over its one connection, row after row
 * (the board's own figures: what-if axes fail the sweep). */
void zw_run_controller_sweep (ZwRunController *self, GArray *axes);
/* The last sweep (transfer full; NULL when none is waiting). */
ZwSweep *zw_run_controller_take_sweep (ZwRunController *self);
/* The options that deploy sweep row @row again: its merge, ETM optimize and OCM option, and
 * the device figures of its what-if point — the base profile with the point's figures, built
 * by zg330_sweep_figures_for_point as the sweep built that row's board (the ETM bandwidth is
 * the base profile's: a sweep does not vary it). FALSE with G_OPTION_ERROR_BAD_VALUE when the
 * point does not parse (a damaged sweep file). Sets nothing: pass them to set_options. */
gboolean zw_run_controller_options_for_sweep_row (ZwRunController *self, const ZwSweepRow *row,
                                                  ZwRunOptions *options, GError **error);
/* Opens a pipeline (deploy/xrt-pipeline.h) in a worker like every job: a pipeline file is
 * applied on its board and run for one profiled pass; a pipeline report JSON is read. Either
 * report passes the independent checker (zw_pipeline_report_check) before it is handed
 * over. Supersedes any work in progress, as opening a network does; the open network and
 * its deployment stay. "pipeline-finished" or "failed" (naming @path) follows. */
void zw_run_controller_open_pipeline (ZwRunController *self, const char *path);
/* As zw_run_controller_open_pipeline(), the pass dumping every network's values into @dir
 * (one folder: NET.V_ID.ftmp and one manifest, xrt_pipeline_set_dump) in @format (NULL:
 * SQB). A pipeline report is run from the pipeline file it names. */
void zw_run_controller_dump_pipeline (ZwRunController *self, const char *path, const char *dir, const char *format);
/* The dump folder of the last pipeline finished (borrowed), NULL when it did not dump. */
const char *zw_run_controller_get_pipeline_dump (ZwRunController *self);
/* Its dump's format ("SQB" …), NULL when it did not dump. */
const char *zw_run_controller_get_pipeline_dump_format (ZwRunController *self);
/* As zw_run_controller_open_pipeline(), then every network of the pass run again alone on a
 * simulated board of its own with the same options (xrt_pipeline_apart_to_json): the
 * "pipeline-finished" that follows has zw_run_controller_take_pipeline_apart(). A pipeline
 * report is run from the pipeline file it names. */
void zw_run_controller_run_pipeline_apart (ZwRunController *self, const char *path);
/* The networks of the last pipeline finished run apart, as a pipeline report of their own
 * (transfer full; NULL when it was not asked for or was taken). */
ZwPipelineReport *zw_run_controller_take_pipeline_apart (ZwRunController *self);
/* The board backend's options of network @network of the pipelines run from now on, instead
 * of the file's (xrt_pipeline_set_network_options: merge, ETM optimize and OCM option of
 * @options; NULL: the file's again). They stay for every pass until cleared. */
void zw_run_controller_set_pipeline_network_options (ZwRunController *self, const char *network,
                                                     const ZwRunOptions *options);
/* Every network's options the file's again (another pipeline opens). */
void zw_run_controller_clear_pipeline_options (ZwRunController *self);
/* The options set for @network (borrowed), NULL when it runs with the file's. */
const ZwRunOptions *zw_run_controller_get_pipeline_network_options (ZwRunController *self, const char *network);
/* The last pipeline (transfer full; NULL when none is waiting). */
ZwPipelineReport *zw_run_controller_take_pipeline (ZwRunController *self);
/* Cancels the job in progress and drops queued requests. */
void zw_run_controller_cancel (ZwRunController *self);

gboolean zw_run_controller_get_busy (ZwRunController *self);
double zw_run_controller_get_progress (ZwRunController *self);
const char *zw_run_controller_get_status (ZwRunController *self);
/* The current network's file, or NULL. */
const char *zw_run_controller_get_network_path (ZwRunController *self);
gboolean zw_run_controller_has_network (ZwRunController *self);
/* Whether the current network's compiler placed every value (a Buyi compile): its runs
 * have merge off, ETM optimize off and no OCM option, and the backend refuses the others
 * (a request with them fails with the backend's error, as the CLI does). A network is
 * opened with those options whatever the panel says. */
gboolean zw_run_controller_is_compiler_placed (ZwRunController *self);
/* The current network (borrowed; valid until another network is opened), or NULL. */
XirNetwork *zw_run_controller_get_network (ZwRunController *self);

/* The board of the next apply: a device URL (socket://zg330@HOST:PORT for a board served by
 * zhuge-board, mock://zg330, ...) or NULL/"" for the simulated board of the network's
 * compile target with the what-if profile. A URL that does not open fails the apply with
 * ZW_RUN_CONTROLLER_ERROR_DEVICE (the message names the URL). */
void zw_run_controller_set_device_url (ZwRunController *self, const char *url);
const char *zw_run_controller_get_device_url (ZwRunController *self);
/* The one open board of the device URL (deploy/xrt-board-link.h): every apply, forward,
 * dump and compiles compared goes over its one connection, opened again when the board
 * restarted; the same URL set again keeps it. NULL without a device URL (borrowed). */
XrtBoardLink *zw_run_controller_get_board (ZwRunController *self);

G_END_DECLS
