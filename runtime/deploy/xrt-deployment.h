/* xrt-deployment.h — one deployment of a network on a board: the recipe the workbench, the
 * CLI and the sweep share.
 *
 * A deployment opens a network's params (its .raw, or synthetic params from one named seed,
 * XRT_DEPLOYMENT_SYNTHETIC_SEED), opens the board (a device URL, or the simulated board of
 * the network's compile target with what-if figures), records the board backend's options
 * (disableMergeHardOp, disableEtmOptimize, ocmOptimize), then either plans (the board
 * backend alone: segments, ETM, OCM, merges need no params) or applies (a session), makes
 * the seeded inputs of a forward (XRT_DEPLOYMENT_INPUT_SEED) and forwards. Its deploy report
 * is complete: the network's graph (ops' inputs, outputs, names) is attached, so a report
 * saved from it opens in the Graph view without its network.
 *
 * It lives in runtime/deploy/, above backends/ and devices/ (it names the ZG330 backend's
 * options and the simulated board's profile) and below tools/ and app/: xrt/ names no
 * concrete backend or device, so the one place that knows both is a layer of its own.
 * The same-looking calls of the vendor's API stay where they were (XrtSession,
 * Zg330Backend); this object only strings them together the one way every caller did.
 */
#pragma once

#include <gio/gio.h>

#include "report/zw-deploy-report.h"
#include "xir/xir-network.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-device.h"
#include "xrt/xrt-session.h"

G_BEGIN_DECLS

/**
 * XRT_DEPLOYMENT_SYNTHETIC_SEED:
 *
 * The seed of synthetic params (xir_network_fake_params()) when a network has no .raw:
 * the CLI, the workbench and the sweep all use it, so they deploy the same bytes.
 */
#define XRT_DEPLOYMENT_SYNTHETIC_SEED 330

/**
 * XRT_DEPLOYMENT_INPUT_SEED:
 *
 * The seed of the first input tensor of the first forward; see
 * xrt_deployment_input_seed().
 */
#define XRT_DEPLOYMENT_INPUT_SEED 1000

/**
 * XRT_DEPLOYMENT_ERROR:
 *
 * The error domain of a deployment: see #XrtDeploymentError.
 */
#define XRT_DEPLOYMENT_ERROR (xrt_deployment_error_quark ())
/**
 * xrt_deployment_error_quark:
 *
 * The quark of %XRT_DEPLOYMENT_ERROR.
 *
 * Returns: the quark
 */
GQuark xrt_deployment_error_quark (void);

/**
 * XrtDeploymentError:
 * @XRT_DEPLOYMENT_ERROR_NO_BOARD: no op of the network runs on a board backend of this
 *   build, or the backend is not one whose options a deployment sets.
 * @XRT_DEPLOYMENT_ERROR_CALL_ORDER: a call before the step it needs (open a board before
 *   planning, apply before forwarding), or an option after planning or applying.
 *
 * Errors of the deployment itself; the calls it makes (loading params, opening a device,
 * the backend's options, apply, forward) report their own domains.
 */
typedef enum {
  XRT_DEPLOYMENT_ERROR_NO_BOARD,
  XRT_DEPLOYMENT_ERROR_CALL_ORDER,
} XrtDeploymentError;

/**
 * XrtBoardFigures:
 * @ocm_bytes: the OCM size in bytes.
 * @icore_clock_hz: the icore clock in Hz.
 * @etm_bandwidth: the ETM bandwidth in bytes per second.
 *
 * The figures of a board profile a what-if changes (the workbench's options panel, a
 * sweep's grid point).
 */
typedef struct {
  guint64 ocm_bytes;
  double icore_clock_hz;
  double etm_bandwidth;
} XrtBoardFigures;

#define XRT_TYPE_BOARD_FIGURES (xrt_board_figures_get_type ())
GType xrt_board_figures_get_type (void);

/**
 * xrt_board_figures_copy:
 * @figures: the figures
 *
 * A copy of @figures, freed with xrt_board_figures_free().
 *
 * Returns: (transfer full): the copy
 */
XrtBoardFigures *xrt_board_figures_copy (const XrtBoardFigures *figures);

/**
 * xrt_board_figures_free:
 * @figures: (nullable): the figures
 *
 * Frees a copy made by xrt_board_figures_copy().
 */
void xrt_board_figures_free (XrtBoardFigures *figures);

/**
 * xrt_board_figures_get_default:
 * @figures: (out caller-allocates): the figures of the default board
 * @error: where a bad profile file is reported
 *
 * The figures of the board `mock://zg330` opens with (its profile file, see
 * `$ZW_ZG330_PROFILE` and data/devices/zg330.json). When that file exists but is invalid,
 * @figures gets the built-in profile's figures and the call returns %FALSE with the
 * file's error, so a caller can warn and go on.
 *
 * Returns: %TRUE when the profile file (or the built-in one, when there is no file) loaded
 */
gboolean xrt_board_figures_get_default (XrtBoardFigures *figures, GError **error);

#define XRT_TYPE_DEPLOYMENT (xrt_deployment_get_type ())
G_DECLARE_FINAL_TYPE (XrtDeployment, xrt_deployment, XRT, DEPLOYMENT, GObject)

/**
 * xrt_deployment_new:
 * @net: the network (a reference is taken)
 * @error: where a network without ops is reported
 *
 * A deployment of the whole of @net. Nothing is opened yet: give it params (if @net has
 * none), a board, options, then plan or apply.
 *
 * Returns: (transfer full) (nullable): the deployment, or %NULL when @net has no view
 */
XrtDeployment *xrt_deployment_new (XirNetwork *net, GError **error);

/**
 * xrt_deployment_new_for_view:
 * @view: the part of a network to deploy (a reference is taken)
 *
 * A deployment of @view (threads that deploy one network many times share one view).
 *
 * Returns: (transfer full): the deployment
 */
XrtDeployment *xrt_deployment_new_for_view (XirNetworkView *view);

/**
 * xrt_deployment_get_network:
 * @self: the deployment
 *
 * The network deployed.
 *
 * Returns: (transfer none): the network
 */
XirNetwork *xrt_deployment_get_network (XrtDeployment *self);

/**
 * xrt_deployment_get_view:
 * @self: the deployment
 *
 * The view of the network deployed (the whole network unless made by
 * xrt_deployment_new_for_view()).
 *
 * Returns: (transfer none): the view
 */
XirNetworkView *xrt_deployment_get_view (XrtDeployment *self);

/* ---- params ---- */

/**
 * xrt_deployment_params_path_for:
 * @json_path: (type filename): a network JSON
 *
 * Where a network's params lie by convention: `NET.raw` beside `NET.json` (a path without
 * the `.json` suffix gets `.raw` appended). The file need not exist.
 *
 * Returns: (transfer full) (type filename): the path
 */
char *xrt_deployment_params_path_for (const char *json_path);

/**
 * xrt_deployment_load_params:
 * @self: the deployment
 * @raw_path: (type filename): the params file
 * @flags: how to check it (%XIR_LOAD_NO_MD5 for a .raw of synthetic params)
 * @lazy: map the file and read blobs on access instead of reading it whole (the
 *   md5 is not checked then, and @flags is ignored)
 * @error: the loader's error, naming the file and the field
 *
 * Loads the network's params from @raw_path (before planning or applying).
 *
 * Returns: %TRUE when the params loaded
 */
gboolean xrt_deployment_load_params (XrtDeployment *self, const char *raw_path, XirLoadFlags flags, gboolean lazy,
                                     GError **error);

/**
 * xrt_deployment_use_synthetic_params:
 * @self: the deployment
 *
 * Fills the network's params with synthetic data from %XRT_DEPLOYMENT_SYNTHETIC_SEED, the
 * one seed every tool uses (xir_network_get_params_seed() then says so). For a network
 * whose .raw is missing: a plan needs no weights, a forward does.
 */
void xrt_deployment_use_synthetic_params (XrtDeployment *self);

/**
 * xrt_deployment_describe_params:
 * @self: the deployment
 *
 * Where the params came from, for a log: the .raw's path, "synthetic params (seed 330)",
 * or "no params".
 *
 * Returns: (transfer full): the description
 */
char *xrt_deployment_describe_params (XrtDeployment *self);

/* ---- the board ---- */

/**
 * xrt_deployment_get_target_url:
 * @self: the deployment
 *
 * The device URL of the board the network was compiled for (`mock://zg330` for
 * `@zhuget(330)` hardops, `mock://buyi` for `@buyit`), or %NULL when no op runs on a board
 * backend of this build.
 *
 * Returns: (nullable): the URL
 */
const char *xrt_deployment_get_target_url (XrtDeployment *self);

/**
 * xrt_deployment_targets_simulated_board:
 * @self: the deployment
 *
 * Whether the network's compile target is a board this build simulates (one of the
 * ZG330 family, opened by xrt_deployment_open_simulated_board()).
 *
 * Returns: %TRUE when it is
 */
gboolean xrt_deployment_targets_simulated_board (XrtDeployment *self);

/**
 * xrt_deployment_is_compiler_placed:
 * @self: the deployment
 *
 * Whether the compiler of the network's target placed every value itself (Buyi): then
 * the merge and ETM options cannot be turned on and there are no OCM options; the
 * placement is the file's.
 *
 * Returns: %TRUE for a compiler-placed target
 */
gboolean xrt_deployment_is_compiler_placed (XrtDeployment *self);

/**
 * xrt_deployment_open_board:
 * @self: the deployment
 * @url: (nullable): a device URL (`mock://zg330`, `socket://NAME@HOST:PORT`, …), or %NULL
 *   for the board of the compile target (xrt_deployment_get_target_url(); `mock://zg330`
 *   when there is none)
 * @error: the device's error
 *
 * Opens the board to deploy on (once, before planning or applying).
 *
 * Returns: %TRUE when the board opened
 */
gboolean xrt_deployment_open_board (XrtDeployment *self, const char *url, GError **error);

/**
 * xrt_deployment_use_board:
 * @self: the deployment
 * @device: an open board (a reference is taken)
 *
 * Deploys on @device, a board the caller keeps open across deployments (an
 * #XrtBoardLink's): a board served by zhuge-board takes one client, so every deployment
 * made after another on it goes over the same connection. Once, before planning or
 * applying, instead of xrt_deployment_open_board(); the deployments on one device should
 * follow one another (drop the old one before applying the next): their sessions share
 * the board's memory.
 *
 * Returns: %TRUE, or %FALSE with %XRT_DEPLOYMENT_ERROR_CALL_ORDER when a board is open
 */
gboolean xrt_deployment_use_board (XrtDeployment *self, XrtDevice *device, GError **error);

/**
 * xrt_deployment_open_simulated_board:
 * @self: the deployment
 * @figures: (nullable): what-if figures, or %NULL for the board's profile as it is
 * @error: a bad profile file or figure (naming it), or %XRT_DEPLOYMENT_ERROR_NO_BOARD
 *
 * Opens a new simulated board of the compile target (`mock://zg330`, `mock://buyi`) with
 * its profile, each of @figures that differs from the profile's set in it (the profile
 * may size the board's stores, so a what-if OCM size is a board of that size).
 *
 * Returns: %TRUE when the board opened
 */
gboolean xrt_deployment_open_simulated_board (XrtDeployment *self, const XrtBoardFigures *figures, GError **error);

/**
 * xrt_deployment_get_device:
 * @self: the deployment
 *
 * The board, once opened.
 *
 * Returns: (transfer none) (nullable): the device
 */
XrtDevice *xrt_deployment_get_device (XrtDeployment *self);

/* ---- options: before plan or apply ---- */

/**
 * xrt_deployment_disable_merge_hardop:
 * @self: the deployment
 *
 * The vendor's disableMergeHardOp: one launch per hardop. Passed to the board backend when
 * the deployment plans or applies (an error of the backend's is reported then).
 */
void xrt_deployment_disable_merge_hardop (XrtDeployment *self);

/**
 * xrt_deployment_disable_etm_optimize:
 * @self: the deployment
 *
 * The vendor's disableEtmOptimize: every value its own ETM bytes. Passed on as
 * xrt_deployment_disable_merge_hardop() is.
 */
void xrt_deployment_disable_etm_optimize (XrtDeployment *self);

/**
 * xrt_deployment_ocm_optimize:
 * @self: the deployment
 * @option: a row of the OCM option table (report/zw-ocm-option.h)
 *
 * The vendor's ocmOptimize. Passed on as xrt_deployment_disable_merge_hardop() is.
 */
void xrt_deployment_ocm_optimize (XrtDeployment *self, ZwOcmOpt option);

/**
 * xrt_deployment_set_options:
 * @self: the deployment
 * @merge_hardop: merge hardops into launches
 * @etm_optimize: let values share ETM bytes
 * @ocm: a row of the OCM option table
 *
 * The three options at once (the workbench's panel, a sweep's row). A compiler-placed
 * target refuses merge or ETM optimize on (at plan or apply).
 */
void xrt_deployment_set_options (XrtDeployment *self, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm);

/**
 * xrt_deployment_set_plan_limits:
 * @self: the deployment
 * @work_budget: the ETM search's work units (0: the backend's default)
 * @time_limit_s: an optional wall-clock cap in seconds (<= 0: none)
 *
 * The ETM planner's limits (not a vendor option), passed on as the options are.
 */
void xrt_deployment_set_plan_limits (XrtDeployment *self, guint64 work_budget, double time_limit_s);

/* ---- plan, apply, forward ---- */

/**
 * xrt_deployment_plan:
 * @self: the deployment (with a board)
 * @error: the backend's error, or %XRT_DEPLOYMENT_ERROR_NO_BOARD
 *
 * Plans without deploying: the board backend alone is made on the board, takes the
 * options and plans segments, ETM placement, OCM and merges from the network (no params
 * needed). The report is complete (graph included).
 *
 * Returns: (transfer full) (nullable): the plan as a deploy report
 */
ZwDeployReport *xrt_deployment_plan (XrtDeployment *self, GError **error);

/**
 * xrt_deployment_prepare:
 * @self: the deployment (with a board)
 * @error: the session's error, or the backend's refusal of an option
 *
 * The step before apply: a session of the board backend of the compile target and the
 * host backend (xrt_session_new_for_device()), the options given to the board backend.
 * xrt_deployment_apply() does it when it has not been done; a caller that tells a bad
 * option from a failed deployment (the CLI's exit codes) calls it first.
 *
 * Returns: %TRUE when the session is made and took the options
 */
gboolean xrt_deployment_prepare (XrtDeployment *self, GError **error);

/**
 * xrt_deployment_apply:
 * @self: the deployment (with params and a board)
 * @error: the session's or the backend's error
 *
 * Deploys: xrt_deployment_prepare() (unless done), then the session's apply (segments,
 * placement, weights and instructions into the board's ETM).
 *
 * Returns: %TRUE when deployed
 */
gboolean xrt_deployment_apply (XrtDeployment *self, GError **error);

/**
 * xrt_deployment_get_session:
 * @self: the deployment
 *
 * The session, once applied.
 *
 * Returns: (transfer none) (nullable): the session
 */
XrtSession *xrt_deployment_get_session (XrtDeployment *self);

/**
 * xrt_deployment_get_board_backend:
 * @self: the deployment
 *
 * The board backend, once planned or applied.
 *
 * Returns: (transfer none) (nullable): the backend
 */
XrtBackend *xrt_deployment_get_board_backend (XrtDeployment *self);

/**
 * xrt_deployment_get_report:
 * @self: the deployment
 *
 * The board backend's deploy report with the network's graph attached (ops' names,
 * inputs and outputs), so it opens in the Graph view on its own.
 *
 * Returns: (transfer full) (nullable): the report, %NULL before plan or apply
 */
ZwDeployReport *xrt_deployment_get_report (XrtDeployment *self);

/**
 * xrt_deployment_input_seed:
 * @iteration: the forward's number, from 0
 *
 * The seed of the first input tensor of forward @iteration: %XRT_DEPLOYMENT_INPUT_SEED +
 * 31 × @iteration (input k is seeded with this plus k). `xrt-run run` without `--input`,
 * the workbench and `compare-compiles` forward these inputs.
 *
 * Returns: the seed
 */
guint32 xrt_deployment_input_seed (guint iteration);

/**
 * xrt_deployment_seeded_inputs:
 * @view: the view whose inputs to make
 * @first_seed: the seed of input 0 (input k: @first_seed + k)
 * @error: a tensor that cannot be made
 *
 * One host tensor per input of @view, its bytes drawn from a GRand seeded per input
 * (g_rand_int_range (0, 256) per byte): the same bytes on every machine.
 *
 * Returns: (transfer container) (element-type XrtTensor) (nullable): the tensors
 */
GPtrArray *xrt_deployment_seeded_inputs (XirNetworkView *view, guint32 first_seed, GError **error);

/**
 * xrt_deployment_make_inputs:
 * @self: the deployment
 * @iteration: the forward's number, from 0
 * @error: a tensor that cannot be made
 *
 * The seeded inputs of forward @iteration (xrt_deployment_input_seed()).
 *
 * Returns: (transfer container) (element-type XrtTensor) (nullable): the tensors
 */
GPtrArray *xrt_deployment_make_inputs (XrtDeployment *self, guint iteration, GError **error);

/**
 * xrt_deployment_forward:
 * @self: the deployment (applied)
 * @inputs: (element-type XrtTensor): one tensor per input of the view
 * @error: the session's error
 *
 * One forward of the session (xrt_session_forward()).
 *
 * Returns: (transfer container) (element-type XrtTensor) (nullable): the outputs
 */
GPtrArray *xrt_deployment_forward (XrtDeployment *self, GPtrArray *inputs, GError **error);

G_END_DECLS
