/* xrt-pipeline.h — several networks deployed on one board: a pipeline file.
 *
 * A pipeline file (TOML, in the style of icraft-run's [run] section) names the networks
 * (a network JSON with its .raw, or synthetic params; or a view of one by op range), the
 * board, each network's options, the segments networks share (userReuseSegment) and the
 * connections (userConnectNetwork: an output of one network is an input of another, in
 * place):
 *
 *   [pipeline]
 *   name = "detect-then-classify"     # optional: the file's name
 *   device = "mock://zg330"           # optional: the first network's compile target
 *
 *   [network.head]                    # one table per network; the name is the key
 *   json = "yolov5s_ZG.json"          # relative to the pipeline file's folder
 *   raw = "yolov5s_ZG.raw"            # optional: NET.raw beside json, else synthetic params
 *   ops = [0, 40]                     # optional: a view, ops [first, end) as Session.sub;
 *                                     #   [40] is op 40 to the end
 *   stage = 0                         # optional: networks of one stage are in flight together
 *   merge_hardop = true               # optional, as [run]: merge_hardop, etm_optimize,
 *   etm_optimize = true               #   ocmopt (NONE, OPTION1..3, BEST_SCORE, or 0..4)
 *   ocmopt = "BEST_SCORE"
 *
 *   [share.ftmp]                      # userReuseSegment
 *   networks = ["head", "tail"]
 *   segments = ["FTMP"]               # WEIGHT and INSTR only between copies of one network
 *
 *   [connect.features]                # userConnectNetwork
 *   from = "head"
 *   output = 0                        # the view's output by position, or output_id = V_ID
 *   to = "tail"
 *   input = 0                         # the view's input by position, or input_id = V_ID
 *   mode = "auto"                     # optional: "auto" (zero-copy where it can), "staged"
 *                                     # no ends at all (views of one network): every value
 *                                     #   `to` reads from `from`, one connection each
 *
 * Rules, each refused with an error naming the file, the table and the key: names are
 * unique; every name a share or a connection gives is a network of the file; connections
 * run from an earlier stage to a later one and form no cycle; both ends of a connection have
 * the same storage bytes; networks that share FTMP are never in flight together (different
 * stages); WEIGHT and INSTR are shared only between copies of one network (the same json,
 * raw and ops); no key is
 * accepted and ignored. Stages default to the order the connections give (a network runs
 * after the ones that feed it, then in file order).
 *
 * One pass of the pipeline forwards every network once, stage by stage: a connected input
 * is the tensor its upstream network produced in the same pass; every other input gets the
 * seeded inputs of xrt_deployment_make_inputs(). The board runs one launch at a time, so a
 * pass takes the sum of the networks' simulated times. A connection on the board carries
 * its value with no host transfer (the networks run apart pay one: the upstream's read
 * back, the downstream's write to the board, at the ETM bandwidth): zero-copy costs
 * nothing; a staged end pays an ETM-to-ETM copy (the device profile's ETM term for the
 * value's bytes read and written) in its launch's memcpy time.
 *
 * The pipeline report ("format": "zhuge-pipeline-report", xrt_pipeline_report_to_json())
 * holds each network's deploy report, the shares and connections with their addresses, the
 * board's ETM (the union of every network's physical segments and the user's chunks), the
 * ETM the same networks take deployed apart, and the pass's simulated time. Its one reader
 * is the model the views read (report/zw-pipeline-report.h), its independent checker
 * report/zw-pipeline-check.h.
 */
#pragma once

#include <gio/gio.h>
#include <cjson/cJSON.h>

#include "deploy/xrt-deployment.h"

G_BEGIN_DECLS

/**
 * XRT_PIPELINE_ERROR:
 *
 * The error domain of pipeline files and pipelines: see #XrtPipelineError.
 */
#define XRT_PIPELINE_ERROR (xrt_pipeline_error_quark ())
/**
 * xrt_pipeline_error_quark:
 *
 * The quark of %XRT_PIPELINE_ERROR.
 *
 * Returns: the quark
 */
GQuark xrt_pipeline_error_quark (void);

/**
 * XrtPipelineError:
 * @XRT_PIPELINE_ERROR_SYNTAX: the file is not a pipeline file (TOML syntax, a key of the
 *   wrong type, an unknown table or key).
 * @XRT_PIPELINE_ERROR_REFERENCE: a name no network has, a repeated name, a value a view
 *   has not.
 * @XRT_PIPELINE_ERROR_RULE: a rule of the pipeline broken: a cycle, a connection between
 *   values of different sizes, FTMP shared between networks in flight together…
 * @XRT_PIPELINE_ERROR_CALL_ORDER: forward before apply, apply twice.
 * @XRT_PIPELINE_ERROR_DUMP: a pass's dump could not be gathered into its folder.
 *
 * Errors of pipelines; the deployments they make report their own domains.
 */
typedef enum {
  XRT_PIPELINE_ERROR_SYNTAX,
  XRT_PIPELINE_ERROR_REFERENCE,
  XRT_PIPELINE_ERROR_RULE,
  XRT_PIPELINE_ERROR_CALL_ORDER,
  XRT_PIPELINE_ERROR_DUMP,
} XrtPipelineError;

#define XRT_TYPE_PIPELINE (xrt_pipeline_get_type ())
G_DECLARE_FINAL_TYPE (XrtPipeline, xrt_pipeline, XRT, PIPELINE, GObject)

/**
 * xrt_pipeline_new_from_file:
 * @path: (type filename): a pipeline file
 * @error: the first broken rule, naming @path, the table and the key
 *
 * Reads and checks a pipeline file and opens its networks (their JSON and params): the
 * board is not opened yet (see xrt_pipeline_apply()).
 *
 * Returns: (transfer full) (nullable): the pipeline
 */
XrtPipeline *xrt_pipeline_new_from_file (const char *path, GError **error);

/**
 * xrt_pipeline_new_from_data:
 * @data: (array length=length) (element-type guint8): a pipeline file's text
 * @length: its length in bytes
 * @origin: (type filename): the name errors give, and the folder relative paths are read
 *   from (its dirname)
 * @open_networks: %FALSE to check the text only (no network file is read: sizes, views
 *   and values are not checked)
 * @error: the first broken rule
 *
 * As xrt_pipeline_new_from_file() on text in memory (the fuzz harness checks the text
 * only).
 *
 * Returns: (transfer full) (nullable): the pipeline
 */
XrtPipeline *xrt_pipeline_new_from_data (const char *data, gsize length, const char *origin, gboolean open_networks,
                                         GError **error);

/**
 * xrt_pipeline_compose:
 * @json_paths: (array zero-terminated=1): network files, in the order a pass runs them
 * @name: (nullable): the pipeline's name; %NULL: the networks' names joined by "+"
 * @error: a network file that cannot be read, naming it
 *
 * The text of a pipeline file for networks opened together (the workbench's "Open as a
 * Pipeline"): one `[network.NAME]` per file in the given order (NAME its file name without
 * `_ZG.json`, `_BY.json` or `.json`, made unique; `json` its absolute path, so the file
 * reads the same from any folder), no shared segments, and each network connected to the
 * next by position (`[connect.A_to_B_K]`, `output = K`, `input = K` for every K) when the
 * first's outputs and the next one's inputs are as many and have, place by place, the same
 * shape and storage bytes. The text is not checked: xrt_pipeline_new_from_data() does.
 *
 * Returns: (transfer full) (nullable): the text
 */
char *xrt_pipeline_compose (const char *const *json_paths, const char *name, GError **error);

/**
 * xrt_pipeline_get_name:
 * @self: the pipeline
 *
 * The pipeline's name ([pipeline] name, or the file's name without `.toml`).
 *
 * Returns: (transfer none): the name
 */
const char *xrt_pipeline_get_name (XrtPipeline *self);

/**
 * xrt_pipeline_get_n_networks:
 * @self: the pipeline
 *
 * The number of networks, in the order a pass runs them.
 *
 * Returns: the number
 */
guint xrt_pipeline_get_n_networks (XrtPipeline *self);

/**
 * xrt_pipeline_get_network_name:
 * @self: the pipeline
 * @index: a network, in pass order
 *
 * The network's name in the file (its table `[network.NAME]`).
 *
 * Returns: (transfer none): the name
 */
const char *xrt_pipeline_get_network_name (XrtPipeline *self, guint index);

/**
 * xrt_pipeline_get_deployment:
 * @self: the pipeline
 * @index: a network, in pass order
 *
 * The deployment of network @index (opened: params given; after xrt_pipeline_apply(),
 * applied on the pipeline's board).
 *
 * Returns: (transfer none) (nullable): the deployment, %NULL when the networks were not
 *   opened
 */
XrtDeployment *xrt_pipeline_get_deployment (XrtPipeline *self, guint index);

/**
 * xrt_pipeline_force_staged:
 * @self: the pipeline
 *
 * Every connection staged (copied through the user's chunk) instead of zero-copy where it
 * could be: the outputs of a pass do not change. Before apply.
 */
void xrt_pipeline_force_staged (XrtPipeline *self);

/**
 * xrt_pipeline_apply:
 * @self: the pipeline
 * @device_url: (nullable): the board (default: the file's `device`, else the first
 *   network's compile target)
 * @error: the deployment's error, naming the network
 *
 * Opens the board, makes each network's session with its options, allocates the shared
 * segments and the connections' chunks in the board's ETM, gives them to the networks
 * (userReuseSegment, userConnectNetwork) and applies every network.
 *
 * Returns: %TRUE when every network applied
 */
gboolean xrt_pipeline_apply (XrtPipeline *self, const char *device_url, GError **error);

/**
 * xrt_pipeline_apply_on_board:
 * @self: the pipeline
 * @device: an open board (the workbench's kept link to its device URL, xrt-board-link.h)
 * @error: the deployment's error, naming the network
 *
 * As xrt_pipeline_apply() on @device instead of a board the pipeline opens: a board served
 * by zhuge-board takes one client, so a caller that keeps a connection to it runs the
 * pipeline on that connection. The pipeline keeps a reference to @device until it is freed.
 *
 * Returns: %TRUE when every network applied
 */
gboolean xrt_pipeline_apply_on_board (XrtPipeline *self, XrtDevice *device, GError **error);

/**
 * xrt_pipeline_get_device:
 * @self: the pipeline
 *
 * The board, once applied.
 *
 * Returns: (transfer none) (nullable): the board
 */
XrtDevice *xrt_pipeline_get_device (XrtPipeline *self);

/**
 * xrt_pipeline_enable_time_profile:
 * @self: the pipeline
 * @enable: profile every network's forwards
 *
 * Profiles the networks' forwards (their sessions' time profiles): the pass's time in the
 * report needs it. After apply.
 */
void xrt_pipeline_enable_time_profile (XrtPipeline *self, gboolean enable);

/**
 * xrt_pipeline_forward: (skip)
 * @self: the pipeline
 * @iteration: the pass (0 for the first): the seed of the unconnected inputs
 * @error: the forward's error, naming the network
 *
 * One pass: every network forwarded once, in pass order, a connected input given the
 * tensor its upstream network produced.
 *
 * Returns: (transfer full) (nullable) (element-type GPtrArray): per network in pass order,
 *   its output tensors (a #GPtrArray of #XrtTensor)
 */
GPtrArray *xrt_pipeline_forward (XrtPipeline *self, guint iteration, GError **error);

/**
 * xrt_pipeline_set_dump:
 * @self: the pipeline, applied
 * @dir: (nullable) (type filename): the one dump folder of the pipeline; %NULL stops dumping
 * @format: (nullable): the dump format (SFB, SFT, SQB, SQT, HQB, HQT; %NULL: SQB)
 * @error: a bad format, or a network's session refusing (naming it)
 *
 * Every pass after this dumps every network's values into @dir, one folder for the whole
 * pipeline: "NET.V_ID.ftmp" per value and one manifest.json whose entries name their
 * network (report/zw-dump.h), so a value is named by network and v_id ("NET:V_ID"). Each
 * network's session dumps as setDumpOutputs does (into a part folder the pass then empties).
 *
 * Returns: %TRUE when set
 */
gboolean xrt_pipeline_set_dump (XrtPipeline *self, const char *dir, const char *format, GError **error);

/**
 * xrt_pipeline_get_free_inputs:
 * @self: the pipeline
 *
 * The inputs no connection feeds, network by network in pass order: what a pass takes
 * from its caller (xrt_pipeline_run()).
 *
 * Returns: (transfer container) (element-type XirValue): the values
 */
GPtrArray *xrt_pipeline_get_free_inputs (XrtPipeline *self);

/**
 * xrt_pipeline_get_free_input_network:
 * @self: the pipeline
 * @index: a free input (xrt_pipeline_get_free_inputs())
 *
 * The network (in pass order) whose input free input @index is.
 *
 * Returns: the network's index, or %G_MAXUINT past the end
 */
guint xrt_pipeline_get_free_input_network (XrtPipeline *self, guint index);

/**
 * xrt_pipeline_run:
 * @self: the pipeline
 * @inputs: (nullable) (element-type XrtTensor): a tensor per free input
 *   (xrt_pipeline_get_free_inputs()), or %NULL for the seeded inputs of @iteration
 * @iteration: the pass (the seed when @inputs is %NULL)
 * @error: the forward's error, naming the network
 *
 * One pass, as xrt_pipeline_forward(), the outputs kept for xrt_pipeline_get_outputs().
 *
 * Returns: %TRUE when every network ran
 */
gboolean xrt_pipeline_run (XrtPipeline *self, GPtrArray *inputs, guint iteration, GError **error);

/**
 * xrt_pipeline_get_outputs:
 * @self: the pipeline
 * @index: a network, in pass order
 *
 * The network's outputs of the last pass.
 *
 * Returns: (transfer container) (nullable) (element-type XrtTensor): the tensors, %NULL
 *   before a pass
 */
GPtrArray *xrt_pipeline_get_outputs (XrtPipeline *self, guint index);

/**
 * xrt_pipeline_report_to_text:
 * @self: an applied pipeline
 * @error: the pipeline before apply
 *
 * xrt_pipeline_report_to_json() as JSON text (for the language bindings).
 *
 * Returns: (transfer full) (nullable): the report
 */
char *xrt_pipeline_report_to_text (XrtPipeline *self, GError **error);

/**
 * xrt_pipeline_apart_to_text:
 * @self: a pipeline (its networks opened)
 * @iteration: the forward's number (the free inputs are the pass's seeded ones)
 * @error: the network that failed, named with the pipeline file
 *
 * The same networks run apart, each alone on a simulated board with the same options, as a
 * pipeline report in JSON text (xrt_pipeline_apart_to_json() in deploy/xrt-pipeline-apart.h,
 * for the language bindings): compare its "time" and "etm" with the pass's report.
 *
 * Returns: (transfer full) (nullable): the report
 */
char *xrt_pipeline_apart_to_text (XrtPipeline *self, guint iteration, GError **error);

/**
 * xrt_pipeline_report_to_json: (skip)
 * @self: an applied pipeline
 * @error: the pipeline before apply
 *
 * The pipeline report (see the top of xrt-pipeline.h): each network's deploy report with
 * its graph, the shares and connections, the board's ETM against the networks deployed
 * apart, and the last pass's simulated time when profiled.
 *
 * Returns: (transfer full) (nullable): the report
 */
cJSON *xrt_pipeline_report_to_json (XrtPipeline *self, GError **error);

/**
 * xrt_pipeline_set_options:
 * @self: the pipeline, before apply
 * @merge_hardop: %FALSE: disableMergeHardOp on every network
 * @etm_optimize: %FALSE: disableEtmOptimize on every network
 * @ocm: ocmOptimize of every network
 *
 * The board backend's options of every network at once, instead of the file's (a sweep).
 */
void xrt_pipeline_set_options (XrtPipeline *self, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm);

/**
 * xrt_pipeline_set_network_options:
 * @self: the pipeline, before apply
 * @network: a network's name ([network.NAME])
 * @merge_hardop: %FALSE: disableMergeHardOp on that network
 * @etm_optimize: %FALSE: disableEtmOptimize on that network
 * @ocm: its ocmOptimize
 * @error: no network of that name, an OCM option this build does not know, or the
 *   pipeline applied already
 *
 * The board backend's options of one network, instead of the file's (the other networks
 * keep theirs).
 *
 * Returns: whether they were set
 */
gboolean xrt_pipeline_set_network_options (XrtPipeline *self, const char *network, gboolean merge_hardop,
                                           gboolean etm_optimize, ZwOcmOpt ocm, GError **error);

/**
 * XrtPipelinePoint:
 * @merge_hardop: the options of every network at this point
 * @etm_optimize: see @merge_hardop
 * @ocm: see @merge_hardop
 * @ok: the point applied, ran and its report passed the checker
 * @error: why not, else %NULL
 * @pass_ms: one pass's simulated time
 * @board_bytes: the board's ETM (the checker's reading)
 * @apart_bytes: the same networks' ETM deployed apart
 * @front: no other point is both as fast and as small
 *
 * A point of xrt_pipeline_sweep().
 */
typedef struct {
  gboolean merge_hardop;
  gboolean etm_optimize;
  ZwOcmOpt ocm;
  gboolean ok;
  char *error;
  double pass_ms;
  guint64 board_bytes;
  guint64 apart_bytes;
  gboolean front;
} XrtPipelinePoint;

/**
 * xrt_pipeline_sweep: (skip)
 * @path: (type filename): a pipeline file
 * @device_url: (nullable): the board, as xrt_pipeline_apply()
 * @error: the file's error (a point's own errors are in the point)
 *
 * Every combination of the board backend's options set on every network jointly, each on a
 * fresh board with one profiled pass: the pass's simulated time and the board's ETM, and
 * the front of the two. Deterministic: the points depend on the file only.
 *
 * Returns: (transfer full) (nullable) (element-type XrtPipelinePoint): the points
 */
GArray *xrt_pipeline_sweep (const char *path, const char *device_url, GError **error);

G_END_DECLS
