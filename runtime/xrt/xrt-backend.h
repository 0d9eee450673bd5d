/* xrt-backend.h — the Backend interface: what a session asks of every backend.
 *
 * As the vendor's icraft::xrt::Backend base class (reference/vendor-headers/xrt_core_backend
 * and the XRT manual): a session is created over a network view with a list of backends in
 * priority order; each op goes to the first backend whose class takes it
 * (XrtBackendClass.supports_op: by compile target), and the session then drives init,
 * apply, the forward steps, fork and the deploy report only through this interface. The
 * runtime's xrt/ layer names no concrete backend: backends register their class
 * (xrt_backend_register) when the runtime loads, and a session asks for them by the
 * vendor's class name ("ZG330Backend", "BuyiBackend", "HostBackend").
 *
 * Two kinds of backend:
 *  - a board backend (XrtBackendClass.runs_on_board) deploys its ops on a device: after
 *    apply its deploy report (report/zw-deploy-report.h) gives the launches the session
 *    runs as forward steps, and every value it owns has a place on the board
 *    (get_value_place) that the session reads from and writes to;
 *  - a host backend computes its ops on host buffers (run_op) and reports their simulated
 *    cost from the board's profile, never from the dev host's clock.
 *
 * Backends are GObjects (for the language bindings); xrt_backend_new() creates one of a
 * registered class by name and initialises it.
 */
#pragma once

#include <glib-object.h>

#include "report/zw-deploy-report.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"

G_BEGIN_DECLS

#define XRT_BACKEND_ERROR (xrt_backend_error_quark ())
/**
 * xrt_backend_error_quark:
 *
 * The error domain of backends (XRT_BACKEND_ERROR): unknown class names, unsupported
 * calls, calls out of order.
 */
GQuark xrt_backend_error_quark (void);

typedef enum {
  XRT_BACKEND_ERROR_UNKNOWN,       /* no backend class of that name is registered */
  XRT_BACKEND_ERROR_UNSUPPORTED,   /* the backend does not do that (an option, a call) */
  XRT_BACKEND_ERROR_CALL_ORDER,    /* a call before init or apply */
  XRT_BACKEND_ERROR_INVALID_ARGUMENT, /* a bad argument (NULL, an op outside the view …) */
} XrtBackendError;

#define XRT_TYPE_BACKEND (xrt_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (XrtBackend, xrt_backend, XRT, BACKEND, GObject)

/**
 * XrtStepTime:
 * What a forward step cost on the simulated board, in ms.
 * @hard_ms: the board's own time (icore, or an IP's cycles);
 * @other_ms: host-side time (sync after a launch, a host op's CPU time);
 * @measured_ms: the dev host's measured time of a host op (labelled apart; never in a
 *   total), or -1.
 * @memcpy_ms: copies the board made for the step on its own, ETM to ETM (a staged
 *   userConnectNetwork value copied between the user's chunk and its home): the step's
 *   memcpy time with the session's host transfers.
 */
typedef struct {
  double hard_ms;
  double other_ms;
  double measured_ms;
  double memcpy_ms;
} XrtStepTime;

/**
 * XrtBackendClass:
 * @name: the vendor's class name ("ZG330Backend").
 * @short_name: the label of its rows in a time profile ("ZG330", "Buyi", "Host").
 * @runs_on_board: TRUE for a backend that deploys on a device and runs launches.
 * @reports_io_process: its time-profile rows carry the vendor's is_io_process column.
 * @default_device_url: the device it runs on when the user names none ("mock://zg330").
 * @supports_op: does a backend of this class take @op? (class-level: before any init)
 * @init: Backend.init(network_view, device): the ops of @view it takes are its own from
 *   now on. A host backend may get the session's board as @device (its cost model reads
 *   the board's profile) or NULL.
 * @owns_op: is @op_id one of its ops?
 * @is_applied, @apply: deploy (options before this).
 * @apply_with_plan: deploy a recorded plan (a snapshot) instead of planning; the plan has
 *   passed the independent checker first. Board backends only.
 * @fork: a backend for another thread sharing what never changes (weights, instructions).
 * @get_report: the deploy report (new reference); NULL for a backend without one.
 * @get_value_place: where a value of this backend lives on the board after apply: the
 *   region's name ("ETM", "OCM") and the address. FALSE for other values.
 * @can_read_back: can the host read @region back (dumps, stepTo)? Buyi cannot read OCM.
 * @copy_ms: the simulated time of copying @bytes between host and this backend's board.
 * @value_is_connected: does @v_id reach the board, or leave it, through a connection
 *   (userConnectNetwork) rather than the host? Then the session charges no host transfer
 *   for it: the upstream network left it in ETM where the downstream one reads it
 *   (zero-copy) or the board copies it there (staged; the copy is the launch's @memcpy_ms).
 * @set_connected_values: the session tells a host backend, as each forward begins, which
 *   values of its ops a connection carries on the board (@value_is_connected of the board
 *   backend that places them): their bytes never pass the host, so its cost of an Input or
 *   Output op leaves their copy out (the op's fixed cost remains). The last call holds.
 * @forward_begin, @forward_end: bracket a forward (board backends on one device take turns).
 * @run_launch: runs launch @index of the report, whole (@after_op_id and @until_op_id -1),
 *   or a part of a merged launch from the sync point after op @after_op_id (-1: its start)
 *   to the one after op @until_op_id (-1: its end).
 * @can_resume_launch: can a part-done launch resume after @after_op_id (nothing else ran)?
 * @bind_output: forward(inputs, outputs): the hardop writes output @v_id straight into
 *   @chunk at @offset until @unbind_outputs. FALSE without an error when it cannot (the
 *   session copies instead); FALSE with an error when the backend refuses outputs at user
 *   addresses altogether.
 * @run_op: a host backend computes @op from @inputs into @outputs (host buffers of each
 *   value's storage bytes); Input and Output ops only cost (their copies are the
 *   session's).
 */
struct _XrtBackendClass {
  GObjectClass parent_class;

  const char *name;
  const char *short_name;
  gboolean runs_on_board;
  gboolean reports_io_process;
  const char *default_device_url;

  gboolean (*supports_op) (const XirOp *op);
  gboolean (*init) (XrtBackend *self, XirNetworkView *view, XrtDevice *device, GError **error);
  gboolean (*owns_op) (XrtBackend *self, gint64 op_id);
  gboolean (*is_applied) (XrtBackend *self);
  gboolean (*apply) (XrtBackend *self, GError **error);
  gboolean (*apply_with_plan) (XrtBackend *self, const ZwDeployReport *plan, GError **error);
  XrtBackend *(*fork) (XrtBackend *self, GError **error);
  ZwDeployReport *(*get_report) (XrtBackend *self);
  gboolean (*get_value_place) (XrtBackend *self, gint64 v_id, const char **region, guint64 *addr);
  gboolean (*can_read_back) (XrtBackend *self, const char *region);
  double (*copy_ms) (XrtBackend *self, guint64 bytes);
  gboolean (*value_is_connected) (XrtBackend *self, gint64 v_id);
  void (*set_connected_values) (XrtBackend *self, const gint64 *v_ids, guint n);
  void (*forward_begin) (XrtBackend *self);
  void (*forward_end) (XrtBackend *self);
  gboolean (*run_launch) (XrtBackend *self, guint index, gint64 after_op_id, gint64 until_op_id, XrtStepTime *time,
                          GError **error);
  gboolean (*can_resume_launch) (XrtBackend *self, guint index, gint64 after_op_id);
  gboolean (*bind_output) (XrtBackend *self, gint64 v_id, XrtMemChunk *chunk, guint64 offset, GError **error);
  void (*unbind_outputs) (XrtBackend *self);
  gboolean (*run_op) (XrtBackend *self, const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                      XrtStepTime *time, GError **error);

  gpointer padding[6];
};

/* ---- the registry of backend classes ---- */

/**
 * xrt_backend_register: (skip)
 *
 * Makes the class of @type (a subclass of XrtBackend) known by its XrtBackendClass.name.
 * Backends register themselves when the runtime loads; registering a name again replaces it.
 */
void xrt_backend_register (GType type);
/**
 * xrt_backend_lookup: (skip)
 *
 * The registered class called @name (the vendor's class name, ASCII case-insensitive; also
 * its short name, "zg330", "buyi", "host"), or G_TYPE_INVALID.
 */
GType xrt_backend_lookup (const char *name);
/**
 * xrt_backend_list:
 *
 * Names of the registered classes, board backends first, in registration order
 * (NULL-terminated; g_strfreev).
 *
 * Returns: (transfer full) (array zero-terminated=1)
 */
char **xrt_backend_list (void);
/**
 * xrt_backend_find_for_op: (skip)
 *
 * The registered board backend class that takes @op, or G_TYPE_INVALID.
 */
GType xrt_backend_find_for_op (const XirOp *op);
/**
 * xrt_backend_find_for_view: (skip)
 *
 * The board backend class that takes the first board op of @view (G_TYPE_INVALID: none),
 * and the device URL it runs on by default (NULL when none).
 */
GType xrt_backend_find_for_view (XirNetworkView *view);
/**
 * xrt_backend_default_device_for_view:
 *
 * The device URL of the board backend whose class takes the view's hardops (its
 * default_device_url, "mock://zg330"), or NULL for a view without board ops.
 *
 * Returns: (transfer none) (nullable)
 */
const char *xrt_backend_default_device_for_view (XirNetworkView *view);

/**
 * xrt_backend_new:
 * @device: (nullable)
 *
 * A backend of the class called @name, initialised on @view and @device.
 *
 * Returns: (transfer full)
 */
XrtBackend *xrt_backend_new (const char *name, XirNetworkView *view, XrtDevice *device, GError **error);
/**
 * xrt_backend_new_of_type:
 * @device: (nullable)
 *
 * The same for a class given by its type (registered or not).
 *
 * Returns: (transfer full)
 */
XrtBackend *xrt_backend_new_of_type (GType type, XirNetworkView *view, XrtDevice *device, GError **error);

/* ---- calls (each checks its arguments and forwards to the class) ---- */

/**
 * xrt_backend_get_name:
 *
 * The vendor's class name of the backend ("ZG330Backend", "HostBackend").
 */
const char *xrt_backend_get_name (XrtBackend *self);
/**
 * xrt_backend_get_short_name:
 *
 * The label of the backend's rows in a time profile ("ZG330", "Buyi", "Host").
 */
const char *xrt_backend_get_short_name (XrtBackend *self);
/**
 * xrt_backend_runs_on_board:
 *
 * Whether the backend deploys its ops on a device and runs launches (a board backend).
 */
gboolean xrt_backend_runs_on_board (XrtBackend *self);
/**
 * xrt_backend_reports_io_process:
 *
 * Whether the backend's time-profile rows carry the vendor's is_io_process column.
 */
gboolean xrt_backend_reports_io_process (XrtBackend *self);
/**
 * xrt_backend_get_view:
 *
 * The view and device given to init (borrowed; the device may be NULL for a host backend).
 *
 * Returns: (transfer none)
 */
XirNetworkView *xrt_backend_get_view (XrtBackend *self);
/**
 * xrt_backend_get_device:
 *
 * The device given to init (borrowed; NULL for a host backend given none).
 *
 * Returns: (transfer none) (nullable)
 */
XrtDevice *xrt_backend_get_device (XrtBackend *self);

/**
 * xrt_backend_class_supports_op: (skip)
 *
 * Whether a backend of class @type takes @op (by compile target), before any init.
 */
gboolean xrt_backend_class_supports_op (GType type, const XirOp *op);
/**
 * xrt_backend_owns_op:
 *
 * Whether @op_id is one of the backend's ops (one of its view it took at init).
 */
gboolean xrt_backend_owns_op (XrtBackend *self, gint64 op_id);
/**
 * xrt_backend_set_op_ids:
 * @op_ids: (array length=n): ops of the backend's view
 *
 * Restricts the ops the backend owns to @op_ids (the vendor's Backend::Create<T>(
 * network.view({0, 1, 2, 5, 6, 7}), device): a view of any ops), after init. A board
 * backend (it deploys its view's ops together) takes only a run of consecutive ops, before
 * apply. Errors: XRT_BACKEND_ERROR_INVALID_ARGUMENT naming the op id, _CALL_ORDER before
 * init or after a board backend's apply.
 */
gboolean xrt_backend_set_op_ids (XrtBackend *self, const gint64 *op_ids, guint n, GError **error);
/**
 * xrt_backend_is_applied:
 *
 * Whether the backend has been deployed (apply).
 */
gboolean xrt_backend_is_applied (XrtBackend *self);
/**
 * xrt_backend_apply:
 *
 * Deploys the backend (the vendor's apply): a board backend plans and uploads its ops;
 * options are set before this.
 */
gboolean xrt_backend_apply (XrtBackend *self, GError **error);
/**
 * xrt_backend_apply_with_plan:
 *
 * Deploys a recorded plan (a snapshot's) instead of planning; the plan has passed the
 * independent checker first. Board backends only.
 */
gboolean xrt_backend_apply_with_plan (XrtBackend *self, const ZwDeployReport *plan, GError **error);
/**
 * xrt_backend_fork:
 *
 * A backend for another thread sharing what never changes (weights, instructions) and
 * owning its own working memory.
 *
 * Returns: (transfer full)
 */
XrtBackend *xrt_backend_fork (XrtBackend *self, GError **error);
/**
 * xrt_backend_get_report:
 *
 * The backend's deploy report after apply (a new reference), or NULL for a backend without
 * one.
 *
 * Returns: (transfer full) (nullable)
 */
ZwDeployReport *xrt_backend_get_report (XrtBackend *self);
/**
 * xrt_backend_get_value_place:
 * @region: (out) (transfer none)
 * @addr: (out)
 *
 * Where value @v_id of this backend lives on the board after apply: the region's name
 * ("ETM", "OCM") in @region and the address in @addr. FALSE for other values.
 */
gboolean xrt_backend_get_value_place (XrtBackend *self, gint64 v_id, const char **region, guint64 *addr);
/**
 * xrt_backend_can_read_back:
 *
 * Whether the host can read region @region back (dumps, stepTo); Buyi cannot read OCM.
 */
gboolean xrt_backend_can_read_back (XrtBackend *self, const char *region);
/**
 * xrt_backend_copy_ms:
 *
 * The simulated time in ms of copying @bytes between the host and this backend's board.
 */
double xrt_backend_copy_ms (XrtBackend *self, guint64 bytes);
/**
 * xrt_backend_value_is_connected:
 * @self: a backend
 * @v_id: a value of its network
 *
 * Whether @v_id passes between networks on the board through a connection
 * (userConnectNetwork), so no host transfer carries it.
 *
 * Returns: TRUE for a connected value of a board backend.
 */
gboolean xrt_backend_value_is_connected (XrtBackend *self, gint64 v_id);
/**
 * xrt_backend_set_connected_values:
 * @self: a backend
 * @v_ids: (array length=n) (nullable): values of its ops
 * @n: how many
 *
 * Tells a host backend that @v_ids (and no other value) pass between networks on the board
 * through a connection (xrt_backend_value_is_connected of their board backend), so no host
 * copy of their bytes is costed: an Input or Output op of them costs its fixed dispatch
 * alone. The session calls it as each forward begins; board backends ignore it.
 */
void xrt_backend_set_connected_values (XrtBackend *self, const gint64 *v_ids, guint n);
/**
 * xrt_backend_forward_begin: (skip)
 *
 * Opens a forward on the backend (board backends on one device take turns until
 * xrt_backend_forward_end).
 */
void xrt_backend_forward_begin (XrtBackend *self);
/**
 * xrt_backend_forward_end: (skip)
 *
 * Closes the forward opened by xrt_backend_forward_begin.
 */
void xrt_backend_forward_end (XrtBackend *self);
/**
 * xrt_backend_run_launch: (skip)
 *
 * Runs launch @index of the deploy report, whole (@after_op_id and @until_op_id -1), or a
 * part of a merged launch from the sync point after op @after_op_id (-1: its start) to the
 * one after op @until_op_id (-1: its end); its cost goes into @time.
 */
gboolean xrt_backend_run_launch (XrtBackend *self, guint index, gint64 after_op_id, gint64 until_op_id,
                                 XrtStepTime *time, GError **error);
/**
 * xrt_backend_can_resume_launch: (skip)
 *
 * Whether a part-done launch @index can resume after op @after_op_id (nothing else ran
 * since).
 */
gboolean xrt_backend_can_resume_launch (XrtBackend *self, guint index, gint64 after_op_id);
/**
 * xrt_backend_bind_output: (skip)
 *
 * For forward(inputs, outputs): the hardop writes output @v_id straight into @chunk at
 * @offset until xrt_backend_unbind_outputs. FALSE without an error when it cannot (the
 * session copies instead).
 */
gboolean xrt_backend_bind_output (XrtBackend *self, gint64 v_id, XrtMemChunk *chunk, guint64 offset, GError **error);
/**
 * xrt_backend_unbind_outputs: (skip)
 *
 * Undoes every xrt_backend_bind_output.
 */
void xrt_backend_unbind_outputs (XrtBackend *self);
/**
 * xrt_backend_run_op: (skip)
 *
 * A host backend computes @op from @inputs into @outputs (host buffers of each value's
 * storage bytes) and puts its simulated cost in @time.
 */
gboolean xrt_backend_run_op (XrtBackend *self, const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                             XrtStepTime *time, GError **error);

/**
 * xrt_backend_set_view_and_device: (skip)
 *
 * For implementations: records the view and device given to init (the base class keeps a
 * reference to each). Called by xrt_backend_new before the class's init.
 */
void xrt_backend_set_view_and_device (XrtBackend *self, XirNetworkView *view, XrtDevice *device);

G_END_DECLS
