/* xrt-session.h — Session: a network view bound to backends, applied and run forward.
 *
 * As the vendor's icraft::xrt::Session (reference/vendor-headers/xrt_core_session.h.md):
 *   xrt_session_new          Session::Create<ZG330Backend, HostBackend>(view, {zg, host}):
 *                            backends by the vendor's class name (xrt/xrt-backend.h); every
 *                            op goes to the first backend in the list that supports it;
 *   xrt_session_new_for_device  the board backend whose chip the view was compiled for
 *                            (ZG330Backend, BuyiBackend, …) plus the HostBackend;
 *   xrt_session_new_with_backend  CreateWithBackends (a ready board backend);
 *   xrt_session_apply        deploys the backends (options of the board backend before this);
 *   xrt_session_forward      forward(inputs) -> outputs, or into caller-given output tensors;
 *   xrt_session_compare_with_host  forward on the session and on the host reference (the
 *                            HostBackend alone: HardOps by the board's kernels), compared;
 *   xrt_session_step_to      stepTo(op_id): forward up to an op and return its outputs;
 *   xrt_session_forward_step one step of getForwards alone on given inputs (its FForwardOp);
 *   xrt_session_sub          sub(start, end): another view sharing the backends;
 *   callbacks, setLogIO, setLogTime, setDumpOutputs, enableTimeProfile, totalTime,
 *   dumpSnapshot / xrt_session_new_from_snapshot, fork.
 *
 * The session drives its backends only through the Backend interface (xrt/xrt-backend.h)
 * and names none of them.
 *
 * A merged launch of a board backend is one forward step (its merged op id, HardOp(Merged)
 * in the logs); with merge off every hardop is a step of its own. What a caller sees of
 * an op does not depend on merging: stepTo, the callbacks and the dumps give the values a
 * merge-off run gives, bit for bit (a merged launch is stopped at the op's sync point,
 * HardOpInfo.sync_idx, when an op inside it is asked for).
 *
 * Threads: a session is used by one thread at a time; xrt_session_fork gives another thread
 * its own session (own FTMP, shared WEIGHT/INSTR). Forwards on one device take turns on
 * the icore.
 */
#pragma once

#include "report/zw-dump.h"
#include "report/zw-profile.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-device.h"
#include "xrt/xrt-tensor.h"

G_BEGIN_DECLS

#define XRT_SESSION_ERROR (xrt_session_error_quark ())
/**
 * xrt_session_error_quark:
 *
 * The error domain of sessions (XRT_SESSION_ERROR).
 */
GQuark xrt_session_error_quark (void);

typedef enum {
  XRT_SESSION_ERROR_UNSUPPORTED_OP,  /* no backend in the list takes an op */
  XRT_SESSION_ERROR_CALL_ORDER,      /* forward before apply, apply twice … */
  XRT_SESSION_ERROR_INPUTS,          /* missing, surplus or mis-sized input/output tensors */
  XRT_SESSION_ERROR_OP,              /* an unknown op id (stepTo), a range that splits a merged launch (sub) */
  XRT_SESSION_ERROR_SNAPSHOT,        /* corrupted, foreign or mismatching snapshot */
  XRT_SESSION_ERROR_IO,
  XRT_SESSION_ERROR_INVALID_ARGUMENT, /* NULL or out-of-range argument: the message names it */
  XRT_SESSION_ERROR_BUSY,            /* the session is running a call in another thread */
} XrtSessionError;

typedef struct _XrtSession XrtSession;

/* One forward step (getForwards): a host op, a hardop, or a merged launch of hardops. */
typedef struct {
  gint64 op_id;           /* the op's id, or the merged op id */
  XrtBackend *backend;    /* the backend that runs it (borrowed) */
  const XirOp *op;        /* NULL for a merged launch */
  gint launch;            /* the board backend's launch index, -1 for host ops and hardops folded away */
  guint first_index;      /* op index range of the step (absolute) */
  guint last_index;
  GArray *merge_from;     /* gint64 op ids (merged launches) */
  GArray *input_ids;      /* gint64 v_ids the step reads from outside itself */
  GArray *output_ids;     /* gint64 v_ids it produces */
} XrtForward;

/**
 * xrt_session_new:
 * @backends: (array length=n_backends)
 * @devices: (array length=n_backends) (nullable)
 *
 * Session::Create: @backends (registered class names, "ZG330Backend", "HostBackend" …) in
 * priority order with one device each (a host backend's may be NULL: it then gets the
 * session's board for its cost model). A board backend whose class takes no op of the view
 * is left out; each op goes to the first backend that takes it.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_new (XirNetworkView *view, const char *const *backends, XrtDevice *const *devices,
                             guint n_backends, GError **error);
/**
 * xrt_session_new_for_device:
 * @device: (nullable)
 *
 * The board backend whose class takes the view's hardops (by compile target: @zhuget(330)
 * -> ZG330Backend, @buyit -> BuyiBackend), on @device, plus the HostBackend. A view without
 * board ops gets the host alone; @device may then be NULL.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_new_for_device (XirNetworkView *view, XrtDevice *device, GError **error);
/**
 * xrt_session_new_with_backend:
 *
 * CreateWithBackends: a ready (initialised, maybe configured) board backend plus the host.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_new_with_backend (XirNetworkView *view, XrtBackend *backend, GError **error);
/**
 * xrt_session_new_with_backends:
 * @backends: (array length=n_backends): initialised backends of @view's network, in
 *   priority order
 *
 * Session::CreateWithBackends(view, backends) with any list of backends the caller made and
 * configured (xrt_backend_new, then userReuseSegment … ): the session takes a reference to
 * each and binds every op of @view to the first that owns it; none is made for it (an op no
 * backend owns is XRT_SESSION_ERROR_UNSUPPORTED_OP naming it). A backend never initialised,
 * initialised on another network or given twice is XRT_SESSION_ERROR_INVALID_ARGUMENT
 * naming its index.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_new_with_backends (XirNetworkView *view, XrtBackend *const *backends, guint n_backends,
                                           GError **error);
/**
 * xrt_session_ref:
 *
 * Takes a reference to @session.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_ref (XrtSession *session);
/**
 * xrt_session_unref:
 *
 * Drops a reference to @session; the last one frees it and its references to the backends
 * and the view.
 */
void xrt_session_unref (XrtSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtSession, xrt_session_unref)
/* The GBoxed type of XrtSession (for the language bindings). */
#define XRT_TYPE_SESSION (xrt_session_get_type ())
GType xrt_session_get_type (void);

/**
 * xrt_session_get_view:
 *
 * The network view the session runs.
 *
 * Returns: (transfer none)
 */
XirNetworkView *xrt_session_get_view (XrtSession *session);
/**
 * xrt_session_get_network:
 *
 * The network of the session's view.
 *
 * Returns: (transfer none)
 */
XirNetwork *xrt_session_get_network (XrtSession *session);
/**
 * xrt_session_get_board_backend:
 *
 * The board backend (the first backend of the session that runs on a board), or NULL when
 * the view has no board op. Borrowed.
 *
 * Returns: (transfer none) (nullable)
 */
XrtBackend *xrt_session_get_board_backend (XrtSession *session);
/**
 * xrt_session_get_backends:
 *
 * The session's backends in priority order (XrtBackend*, borrowed).
 *
 * Returns: (transfer none) (element-type XrtBackend)
 */
GPtrArray *xrt_session_get_backends (XrtSession *session);
/**
 * xrt_session_get_op_backend:
 *
 * backendBindings: the backend an op runs on (borrowed), or NULL for an op not in the view.
 *
 * Returns: (transfer none) (nullable)
 */
XrtBackend *xrt_session_get_op_backend (XrtSession *session, gint64 op_id);

/**
 * xrt_session_apply:
 *
 * Deploys the session's backends (the vendor's apply) and makes its forward steps; the
 * board backend's options are set before this. Called once.
 */
gboolean xrt_session_apply (XrtSession *session, GError **error);
/**
 * xrt_session_is_applied:
 *
 * Whether xrt_session_apply has run.
 */
gboolean xrt_session_is_applied (XrtSession *session);

/**
 * xrt_session_get_forwards: (skip)
 *
 * getForwards (after apply): XrtForward entries in execution order; borrowed.
 */
GArray *xrt_session_get_forwards (XrtSession *session);
/**
 * xrt_session_get_n_forwards:
 *
 * getForwards one by one, for bindings: the number of forward steps (after apply); step
 * @index is xrt_session_get_forward.
 */
guint xrt_session_get_n_forwards (XrtSession *session);
/**
 * xrt_session_get_forward:
 *
 * Forward step @index (after apply), or NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
const XrtForward *xrt_session_get_forward (XrtSession *session, guint index);
/**
 * xrt_forward_get_merge_from:
 * @n: (out)
 *
 * The op ids of a merged launch's members (none for a host op or a single hardop).
 *
 * Returns: (transfer none) (array length=n)
 */
const gint64 *xrt_forward_get_merge_from (const XrtForward *step, guint *n);
/**
 * xrt_forward_get_input_ids:
 * @n: (out)
 *
 * The v_ids the step reads from outside itself.
 *
 * Returns: (transfer none) (array length=n)
 */
const gint64 *xrt_forward_get_input_ids (const XrtForward *step, guint *n);
/**
 * xrt_forward_get_output_ids:
 * @n: (out)
 *
 * The v_ids the step produces.
 *
 * Returns: (transfer none) (array length=n)
 */
const gint64 *xrt_forward_get_output_ids (const XrtForward *step, guint *n);

/**
 * xrt_session_forward:
 * @inputs: (element-type XrtTensor) (nullable)
 *
 * forward(inputs): @inputs are XrtTensor* for the values that come from outside the view,
 * in order (for a whole network: one per network input). Returns the network outputs as
 * new host tensors (a GPtrArray owning XrtTensor refs).
 *
 * Returns: (transfer container) (element-type XrtTensor)
 */
GPtrArray *xrt_session_forward (XrtSession *session, GPtrArray *inputs, GError **error);
/**
 * xrt_session_compare_with_host:
 * @inputs: (element-type XrtTensor) (nullable)
 * @identical: (out) (optional): whether every output has the same bytes
 * @report: (out) (optional) (transfer full): one line per output: its v_id, its bytes and
 *   "identical", or how many bytes differ and the first one (offset, board and host byte)
 *
 * The host reference run in one call: forward(@inputs) on @session (applied), then the same
 * view with the same params on a session of the HostBackend alone — every HardOp on the host
 * by the board's own behavioural kernels (devices/hardops/), the host ops as in @session —
 * and each output compared byte for byte. FALSE with @error only when a run fails; a
 * difference is a result (@identical FALSE), not an error.
 */
gboolean xrt_session_compare_with_host (XrtSession *session, GPtrArray *inputs, gboolean *identical, char **report,
                                        GError **error);
/**
 * xrt_session_forward_into:
 * @inputs: (element-type XrtTensor) (nullable)
 * @outputs: (element-type XrtTensor)
 *
 * forward(inputs, outputs): writes every output of the view into the caller's tensors
 * (host or device memory; all outputs, each of the right size). Each tensor goes to the
 * output whose v_id it is typed with; the others, in order, to the outputs left (so
 * @outputs may hold an input tensor: a ring, input == output). A tensor in this board's
 * ETM whose value a hardop produces in a compiler chunk of its own is written in place by
 * that hardop (for this forward its place is the caller's bytes: no copy, no memcpy time
 * on the Output op); the others (host tensors, values of host ops such as DetPostZG, values
 * sharing a chunk) are copied after the run.
 */
gboolean xrt_session_forward_into (XrtSession *session, GPtrArray *inputs, GPtrArray *outputs, GError **error);
/**
 * xrt_session_step_to:
 * @inputs: (element-type XrtTensor) (nullable)
 *
 * stepTo(op_id): runs from where the last step stopped up to and including @op_id and
 * returns the op's outputs as host tensors: the values a merge-off run gives, whatever the
 * options. For an op inside a merged launch, the launch runs as a partial launch: its own
 * instructions through the same icoreCalc as a whole launch, stopped at the sync point
 * after the op's layers (HardOpInfo.sync_idx), and the op's outputs are read where the
 * plan put them (ETM or OCM) before later layers can overwrite them. The launch stays part
 * done: the next stepTo or the end of the launch resumes it from that sync point (the
 * board holds exactly what the partial launch left), unless the board ran anything else
 * since (another session, a fork, a reset) — then, as for a step back to an earlier op,
 * the forward starts over from its first step (callbacks run again), with @inputs or,
 * when NULL, the inputs given so far. Inputs from outside are taken from @inputs in
 * order. After the last op the position goes back to the start. forward() always starts
 * a new forward.
 *
 * Returns: (transfer container) (element-type XrtTensor)
 */
GPtrArray *xrt_session_step_to (XrtSession *session, gint64 op_id, GPtrArray *inputs, GError **error);

/**
 * xrt_session_forward_step:
 * @inputs: (element-type XrtTensor) (nullable)
 *
 * The forward function of step @index of getForwards (the FForwardOp of the vendor's
 * ForwardOps tuple): runs that step alone on @inputs and returns its outputs as host
 * tensors (as stepTo gives them; a merged launch: the values that leave it). @inputs are
 * one tensor per the step's input_ids, in that order; for the Input op, the view's input
 * tensors. It runs as the backend's own forward does, without the session's callbacks,
 * logs, dumps or time profile, and starts a new forward state (stepTo starts over after
 * it). After apply.
 *
 * Returns: (transfer container) (element-type XrtTensor)
 */
GPtrArray *xrt_session_forward_step (XrtSession *session, guint index, GPtrArray *inputs, GError **error);

/**
 * xrt_session_sub:
 *
 * sub(start[, end]): a session over ops [start, end) of this session's network sharing its
 * backends (end G_MAXINT = to the end; negative indices count from the end). Fails when the
 * range splits a merged launch. After apply.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_sub (XrtSession *session, gint start, gint end, GError **error);

/* Pre/post callbacks around every forward step. @outputs are the step's output tensors
 * (host copies; empty before the step): an op's outputs, and for a merged launch the
 * values that leave it (read after it or network outputs; its inner values are gone by
 * its end — stepTo gives those), in the step's output_ids order. A launch that stepTo
 * stops inside gets its pre-callback when it starts and its post-callback when it ends. */
/**
 * XrtSessionCallback:
 * @session: the session
 * @step: the forward step
 * @outputs: (element-type XrtTensor): the step's output tensors (host copies)
 * @user_data: (closure): the data given with the callback
 */
typedef void (*XrtSessionCallback) (XrtSession *session, const XrtForward *step, GPtrArray *outputs,
                                    gpointer user_data);
/**
 * xrt_session_set_pre_callback: (skip)
 *
 * Calls @func before each forward step (the vendor's pre-callback); NULL removes it.
 */
void xrt_session_set_pre_callback (XrtSession *session, XrtSessionCallback func, gpointer user_data);
/**
 * xrt_session_set_post_callback: (skip)
 *
 * Calls @func after each forward step (the vendor's post-callback) with its outputs; NULL
 * removes it.
 */
void xrt_session_set_post_callback (XrtSession *session, XrtSessionCallback func, gpointer user_data);
/**
 * xrt_session_set_pre_callback_full:
 * @session: a session
 * @func: (scope notified) (nullable): the callback, or %NULL for none
 * @user_data: (closure func): its data
 * @destroy: (destroy user_data) (nullable): frees @user_data when the callback is replaced or
 *   the session goes
 *
 * The same, with a destroy notify (for bindings and callers whose data the session keeps).
 */
void xrt_session_set_pre_callback_full (XrtSession *session, XrtSessionCallback func, gpointer user_data,
                                        GDestroyNotify destroy);
/**
 * xrt_session_set_post_callback_full:
 * @session: a session
 * @func: (scope notified) (nullable): the callback, or %NULL for none
 * @user_data: (closure func): its data
 * @destroy: (destroy user_data) (nullable): frees @user_data when the callback is replaced or
 *   the session goes
 *
 * xrt_session_set_post_callback with @destroy for @user_data (for bindings).
 */
void xrt_session_set_post_callback_full (XrtSession *session, XrtSessionCallback func, gpointer user_data,
                                         GDestroyNotify destroy);

/**
 * xrt_session_set_log_io:
 *
 * setLogIO / setLogTime: a line per step, in the vendor's style
 * ("opId: 655 opType: HardOp(Cast) Inputs: (…) Outputs: (…)"), written to @stream
 * (default stderr; set with xrt_session_set_log_stream).
 */
void xrt_session_set_log_io (XrtSession *session, gboolean flag);
/**
 * xrt_session_set_log_time:
 *
 * setLogTime: logs each step's time after it runs.
 */
void xrt_session_set_log_time (XrtSession *session, gboolean flag);
/**
 * xrt_session_set_log_stream: (skip)
 *
 * Where the logs of setLogIO and setLogTime go (NULL: stderr).
 */
void xrt_session_set_log_stream (XrtSession *session, FILE *stream);

/**
 * xrt_session_set_dump_outputs:
 * @dir: (nullable) (type filename)
 * @format: (nullable)
 *
 * setDumpOutputs(flag, dir, format): after each step, every output value is written as
 * dir/{v_id}.ftmp in @format (SFB, SFT, SQB, SQT, HQB, HQT) plus dir/manifest.json. A dump
 * holds every value of every op with merge on too: a dumping forward stops each merged
 * launch at the sync point after every hardop (HardOpInfo.sync_idx) and dumps that op's
 * outputs there, from ETM or OCM (the manifest's "memory" and "address"), so the files
 * equal a merge-off dump's; the manifest is "complete" and its note says so. Its timings
 * then include one launch overhead per stop.
 */
gboolean xrt_session_set_dump_outputs (XrtSession *session, gboolean flag, const char *dir, const char *format,
                                       GError **error);
/**
 * xrt_session_set_dump_values:
 * @v_ids: (array length=n_v_ids) (nullable): the value ids to dump
 * @n_v_ids: their number (0: every value, the default)
 *
 * Restricts the dumps of xrt_session_set_dump_outputs() to the values @v_ids (icraft-run's
 * dump_ftmp and dump_output): the others are neither written nor listed in the manifest. An
 * id the network does not produce is never dumped (as icraft-run: no error). Any time.
 */
gboolean xrt_session_set_dump_values (XrtSession *session, const gint64 *v_ids, guint n_v_ids, GError **error);

/**
 * xrt_session_enable_time_profile:
 *
 * enableTimeProfile / timeProfileResults (per step: total, memcpy, hard, other in ms).
 */
void xrt_session_enable_time_profile (XrtSession *session, gboolean enable);
/**
 * xrt_session_get_time_profile:
 *
 * The last profiled forward's results, borrowed: valid until the next forward. NULL before.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwProfile *xrt_session_get_time_profile (XrtSession *session);
/**
 * xrt_session_get_total_time:
 *
 * totalTime of the last forward, ms (simulated board time + host time).
 */
double xrt_session_get_total_time (XrtSession *session);

/**
 * xrt_session_dump_snapshot:
 * @path: (type filename)
 *
 * dumpSnapshot: the deployed session (options and the whole placement) in a versioned,
 * checksummed file, with the network it deploys recorded by path and digest (the JSON's
 * SHA-256; the params' .raw path, or synthetic seed, and SHA-256). The network must have
 * been loaded from a file. xrt_session_new_from_snapshot restores it.
 */
gboolean xrt_session_dump_snapshot (XrtSession *session, const char *path, GError **error);
/**
 * xrt_session_new_from_snapshot:
 * @path: (type filename)
 * @network: (nullable)
 * @device: (nullable)
 *
 * CreateWithSnapshot: a session applied with the options and placement recorded by
 * xrt_session_dump_snapshot at @path, on @device without re-planning (@device NULL: the
 * default board of the backend the snapshot records, e.g. mock://zg330). With @network NULL
 * the snapshot's own network is loaded: each file is looked for beside the snapshot (by
 * name), then (the .raw) beside the JSON found, then at the path recorded; the error names
 * every place looked at, or the digest that differs. A version-1 snapshot (no
 * network_files) needs @network. A corrupted, foreign or mismatching snapshot is refused
 * naming the field.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_new_from_snapshot (const char *path, XirNetwork *network, XrtDevice *device,
                                           GError **error);

/* Misuse: one session used from two threads at once (forward, forward_into, stepTo, apply,
 * sub, fork, dumpSnapshot overlapping) fails the later call with XRT_SESSION_ERROR_BUSY
 * instead of mixing their state; a NULL or invalid argument to a call that takes a GError
 * fails with XRT_SESSION_ERROR_INVALID_ARGUMENT naming the argument. */

/**
 * xrt_session_fork:
 *
 * fork: a session for another thread, sharing WEIGHT and INSTR, with its own FTMP;
 * applied if this one is.
 *
 * Returns: (transfer full)
 */
XrtSession *xrt_session_fork (XrtSession *session, GError **error);

G_END_DECLS

