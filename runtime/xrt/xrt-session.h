/* xrt-session.h — Session: a network view bound to backends, applied and run forward.
 *
 * As the vendor's icraft::xrt::Session (reference/vendor-headers/xrt_core_session.h.md):
 *   xrt_session_new          Session::Create<ZG330Backend, HostBackend>(view, {zg, host}):
 *                            every op goes to the first backend in the list that supports it;
 *   xrt_session_new_with_backend  CreateWithBackends (a ready ZG330Backend);
 *   xrt_session_apply        deploys the backends (options of the ZG330Backend before this);
 *   xrt_session_forward      forward(inputs) -> outputs, or into caller-given output tensors;
 *   xrt_session_step_to      stepTo(op_id): forward up to an op and return its outputs;
 *   xrt_session_sub          sub(start, end): another view sharing the backends;
 *   callbacks, setLogIO, setLogTime, setDumpOutputs, enableTimeProfile, totalTime,
 *   dumpSnapshot / xrt_session_new_from_snapshot, fork.
 *
 * A merged launch of the ZG330Backend is one forward step (its merged op id, HardOp(Merged)
 * in the logs); with merge off every hardop is a step of its own.
 *
 * Threads: a session is used by one thread at a time; xrt_session_fork gives another thread
 * its own session (own FTMP, shared WEIGHT/INSTR). Forwards on one device take turns on
 * the icore.
 */
#pragma once

#include "backends/zg330/zg330-backend.h"
#include "report/zw-dump.h"
#include "report/zw-profile.h"
#include "xrt/xrt-device.h"
#include "xrt/xrt-tensor.h"

G_BEGIN_DECLS

#define XRT_SESSION_ERROR (xrt_session_error_quark ())
GQuark xrt_session_error_quark (void);

typedef enum {
  XRT_SESSION_ERROR_UNSUPPORTED_OP,  /* no backend in the list takes an op */
  XRT_SESSION_ERROR_CALL_ORDER,      /* forward before apply, apply twice … */
  XRT_SESSION_ERROR_INPUTS,          /* missing, surplus or mis-sized input/output tensors */
  XRT_SESSION_ERROR_OP,              /* an unknown op id (stepTo), a range that splits a merged launch (sub) */
  XRT_SESSION_ERROR_SNAPSHOT,        /* corrupted, foreign or mismatching snapshot */
  XRT_SESSION_ERROR_IO,
} XrtSessionError;

typedef enum {
  XRT_BACKEND_HOST,
  XRT_BACKEND_ZG330,
} XrtBackendType;

const char *xrt_backend_type_to_string (XrtBackendType type);  /* "HostBackend", "ZG330Backend" */

typedef struct _XrtSession XrtSession;

/* One forward step (getForwards): a host op, a hardop, or a merged launch of hardops. */
typedef struct {
  gint64 op_id;           /* the op's id, or the merged op id */
  XrtBackendType backend;
  const XirOp *op;        /* NULL for a merged launch */
  gint launch;            /* ZG330 launch index, -1 for host ops and hardops folded away */
  guint first_index;      /* op index range of the step (absolute) */
  guint last_index;
  GArray *merge_from;     /* gint64 op ids (merged launches) */
  GArray *input_ids;      /* gint64 v_ids the step reads from outside itself */
  GArray *output_ids;     /* gint64 v_ids it produces */
} XrtForward;

/* Session::Create: @types in priority order with one device each (the host backend's
 * device may be NULL). The ZG330Backend is initialised on the view. */
XrtSession *xrt_session_new (XirNetworkView *view, const XrtBackendType *types, XrtDevice *const *devices,
                             guint n_backends, GError **error);
/* CreateWithBackends: a ready (initialised, maybe configured) ZG330Backend plus the host. */
XrtSession *xrt_session_new_with_backend (XirNetworkView *view, Zg330Backend *backend, GError **error);
XrtSession *xrt_session_ref (XrtSession *session);
void xrt_session_unref (XrtSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtSession, xrt_session_unref)

XirNetworkView *xrt_session_get_view (XrtSession *session);
XirNetwork *xrt_session_get_network (XrtSession *session);
/* The ZG330Backend, or NULL when the view has no hardop. Borrowed. */
Zg330Backend *xrt_session_get_zg330_backend (XrtSession *session);
/* backendBindings: the backend an op runs on. */
XrtBackendType xrt_session_get_op_backend (XrtSession *session, gint64 op_id);

gboolean xrt_session_apply (XrtSession *session, GError **error);
gboolean xrt_session_is_applied (XrtSession *session);

/* getForwards (after apply): XrtForward entries in execution order; borrowed. */
GArray *xrt_session_get_forwards (XrtSession *session);

/* forward(inputs): @inputs are XrtTensor* for the values that come from outside the view,
 * in order (for a whole network: one per network input). Returns the network outputs as
 * new host tensors (a GPtrArray owning XrtTensor refs). */
GPtrArray *xrt_session_forward (XrtSession *session, GPtrArray *inputs, GError **error);
/* forward(inputs, outputs): writes every network output into the caller's tensors
 * (host or device memory; all outputs, each of the right size). @outputs may hold an
 * input tensor (a ring: input == output). */
gboolean xrt_session_forward_into (XrtSession *session, GPtrArray *inputs, GPtrArray *outputs, GError **error);
/* stepTo(op_id): runs from where the last step stopped up to and including @op_id (its
 * whole merged launch) and returns the op's outputs as host tensors. Inputs from outside
 * are taken from @inputs in order. After the last op the position goes back to the start. */
GPtrArray *xrt_session_step_to (XrtSession *session, gint64 op_id, GPtrArray *inputs, GError **error);

/* sub(start[, end]): a session over ops [start, end) of this session's network sharing its
 * backends (end G_MAXINT = to the end; negative indices count from the end). Fails when the
 * range splits a merged launch. After apply. */
XrtSession *xrt_session_sub (XrtSession *session, gint start, gint end, GError **error);

/* Pre/post callbacks around every forward step. @outputs are the step's output tensors
 * (host copies; empty before the step). */
typedef void (*XrtSessionCallback) (XrtSession *session, const XrtForward *step, GPtrArray *outputs,
                                    gpointer user_data);
void xrt_session_set_pre_callback (XrtSession *session, XrtSessionCallback func, gpointer user_data);
void xrt_session_set_post_callback (XrtSession *session, XrtSessionCallback func, gpointer user_data);

/* setLogIO / setLogTime: a line per step, in the vendor's style
 * ("opId: 655 opType: HardOp(Cast) Inputs: (…) Outputs: (…)"), written to @stream
 * (default stderr; set with xrt_session_set_log_stream). */
void xrt_session_set_log_io (XrtSession *session, gboolean flag);
void xrt_session_set_log_time (XrtSession *session, gboolean flag);
void xrt_session_set_log_stream (XrtSession *session, FILE *stream);

/* setDumpOutputs(flag, dir, format): after each step, every output value is written as
 * dir/{v_id}.ftmp in @format (SFB, SFT, SQB, SQT, HQB, HQT) plus dir/manifest.json. With
 * merge on only what a real board gives (the launches' results in ETM) is dumped. */
gboolean xrt_session_set_dump_outputs (XrtSession *session, gboolean flag, const char *dir, const char *format,
                                       GError **error);

/* enableTimeProfile / timeProfileResults (per step: total, memcpy, hard, other in ms). */
void xrt_session_enable_time_profile (XrtSession *session, gboolean enable);
/* The last profiled forward's results, borrowed: valid until the next forward. NULL before. */
const ZwProfile *xrt_session_get_time_profile (XrtSession *session);
/* totalTime of the last forward, ms (simulated board time + host time). */
double xrt_session_get_total_time (XrtSession *session);

/* dumpSnapshot: the deployed session (options and the whole placement) in a versioned,
 * checksummed file; CreateWithSnapshot restores it on @device without re-planning. */
gboolean xrt_session_dump_snapshot (XrtSession *session, const char *path, GError **error);
XrtSession *xrt_session_new_from_snapshot (const char *path, XirNetwork *network, XrtDevice *device,
                                           GError **error);

/* fork: a session for another thread, sharing WEIGHT and INSTR, with its own FTMP;
 * applied if this one is. */
XrtSession *xrt_session_fork (XrtSession *session, GError **error);

G_END_DECLS
