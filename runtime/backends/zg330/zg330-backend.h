/* zg330-backend.h — the ZG330Backend: deploys the HardOps of a network view on a ZG330 device.
 *
 * Life cycle (as in the vendor manual, zg330backend-manual §2):
 *   zg330_backend_new (init)          ValueInfo, HardOpInfo and the logic segments are known;
 *   options (before apply only)       disable_merge_hardop, disable_etm_optimize, ocm_optimize,
 *                                     user_reuse_segment, user_connect_network;
 *   zg330_backend_apply               merge groups, ETM plan of FTMP, OCM option, physical
 *                                     segments allocated, instructions and weights uploaded,
 *                                     every hardop bound on the board;
 *   after apply                       precheck, log, the deploy report, running launches.
 * Calls in the wrong order fail with ZG330_BACKEND_ERROR_CALL_ORDER.
 *
 * The deploy report (report/zw-deploy-report.h) is the public view of every placement fact:
 * ValueInfo, HardOpInfo, logic and phy segments, launches, chunks, the ETM and OCM plans.
 *
 * Thread safety: a backend is used from one thread at a time; zg330_backend_fork gives
 * another thread its own backend sharing WEIGHT and INSTR with a FTMP of its own.
 */
#pragma once

#include "xir/xir-network.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-device.h"
#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

#define ZG330_BACKEND_ERROR (zg330_backend_error_quark ())
/**
 * zg330_backend_error_quark:
 *
 * The error domain of the ZG330Backend's calls (codes: #Zg330BackendError).
 *
 * Returns: the quark
 */
GQuark zg330_backend_error_quark (void);

typedef enum /*< lowercase_name=zg330_backend_error >*/ {
  ZG330_BACKEND_ERROR_CALL_ORDER,   /* e.g. an option after apply, precheck before apply */
  ZG330_BACKEND_ERROR_UNSUPPORTED,  /* an op or layout the backend cannot deploy */
  ZG330_BACKEND_ERROR_USER_CHUNK,   /* a user chunk of the wrong size, alignment or region */
  ZG330_BACKEND_ERROR_NO_MEMORY,    /* ETM or OCM exhausted */
  ZG330_BACKEND_ERROR_PRECHECK,     /* a weight or instruction in ETM differs from the params */
  ZG330_BACKEND_ERROR_NO_PARAMS,    /* apply without params loaded */
  ZG330_BACKEND_ERROR_IO,           /* log files */
  ZG330_BACKEND_ERROR_VALUE,        /* an unknown v_id or op id */
  ZG330_BACKEND_ERROR_INVALID_ARGUMENT, /* NULL or out-of-range argument: the message names it */
} Zg330BackendError;

/* The ZG330Backend class (an XrtBackend, registered as "ZG330Backend"). Its instance is
 * opaque; a chip of the same family with other rules (BuyiBackend) derives from it and
 * sets the class fields below. */
#define ZG330_TYPE_BACKEND (zg330_backend_get_type ())
GType zg330_backend_get_type (void);
typedef struct _Zg330Backend Zg330Backend;
typedef struct _Zg330BackendClass Zg330BackendClass;
#define ZG330_BACKEND(o) (G_TYPE_CHECK_INSTANCE_CAST ((o), ZG330_TYPE_BACKEND, Zg330Backend))
#define ZG330_IS_BACKEND(o) (G_TYPE_CHECK_INSTANCE_TYPE ((o), ZG330_TYPE_BACKEND))
#define ZG330_BACKEND_CLASS(k) (G_TYPE_CHECK_CLASS_CAST ((k), ZG330_TYPE_BACKEND, Zg330BackendClass))
#define ZG330_BACKEND_GET_CLASS(o) (G_TYPE_INSTANCE_GET_CLASS ((o), ZG330_TYPE_BACKEND, Zg330BackendClass))

/**
 * Zg330BackendClass:
 * @chip: the chip's name in messages ("ZG330", "Buyi").
 * @target: the compile target of its hardops in messages ("@zhuget(330)", "@buyit").
 * @device_name: the device it needs (mock://@device_name).
 * @default_merge_hardop, @default_etm_optimize: the options before the user sets any.
 * @has_ocm_options: ocmOptimize is available (else asking for one is an error).
 * @outputs_at_user_addresses: forward(inputs, outputs) may write outputs in place.
 * @ocm_read_back: the host can read OCM back (dumps, stepTo of OCM-resident values).
 * @compiler_placed: the chip's compiler placed every value itself (@etm(addr), @ocm(addr),
 *   segments in the network's tags): apply deploys that placement (after the independent
 *   checker) instead of planning; such a class sets @placement, the hooks that hold its
 *   rules (zg330-backend-private.h; the Buyi's are in backends/buyi/buyi-placement.c).
 *   FALSE: the runtime plans (ZG330).
 */
struct _Zg330BackendClass {
  XrtBackendClass parent_class;
  const char *chip;
  const char *target;
  const char *device_name;
  gboolean default_merge_hardop;
  gboolean default_etm_optimize;
  gboolean has_ocm_options;
  gboolean outputs_at_user_addresses;
  gboolean ocm_read_back;
  gboolean compiler_placed;
  /*< private >*/
  const struct _Zg330Placement *placement;
  gpointer padding[7];
};

/**
 * zg330_backend_new:
 * @view: the network view whose HardOps the backend takes
 * @device: a ZG330 device (mock://zg330)
 * @error: return location for a #GError
 *
 * Backend.init(network_view, device): takes every HardOp of @view compiled for
 * @zhuget(330) (other ops are left to other backends). After it, ValueInfo, HardOpInfo
 * and the logic segments are known. @device must be a ZG330 device (mock://zg330).
 *
 * Returns: (transfer full): the backend, or %NULL with @error set
 */
Zg330Backend *zg330_backend_new (XirNetworkView *view, XrtDevice *device, GError **error);
/**
 * zg330_backend_ref: (skip)
 * @backend: a backend
 *
 * Takes a reference to @backend (a #GObject reference).
 *
 * Returns: @backend
 */
Zg330Backend *zg330_backend_ref (Zg330Backend *backend);
/**
 * zg330_backend_unref: (skip)
 * @backend: (nullable): a backend
 *
 * Drops a reference to @backend; %NULL is ignored.
 */
void zg330_backend_unref (Zg330Backend *backend);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Zg330Backend, zg330_backend_unref)

/**
 * zg330_backend_supports_op: (skip)
 * @op: an op of a network
 *
 * Does this backend take the op? (HardOps compiled for @zhuget.)
 *
 * Returns: %TRUE for a HardOp of the ZG330
 */
gboolean zg330_backend_supports_op (const XirOp *op);

/**
 * zg330_backend_get_view:
 * @backend: a backend
 *
 * The network view the backend was made for.
 *
 * Returns: (transfer none): the view
 */
XirNetworkView *zg330_backend_get_view (Zg330Backend *backend);
/**
 * zg330_backend_get_device:
 * @backend: a backend
 *
 * The device the backend deploys on.
 *
 * Returns: (transfer none): the device
 */
XrtDevice *zg330_backend_get_device (Zg330Backend *backend);
/**
 * zg330_backend_get_id:
 * @backend: a backend
 *
 * The per-process id of the backend (zg330backend_id), as log file names carry it.
 *
 * Returns: the id
 */
gint zg330_backend_get_id (Zg330Backend *backend);
/**
 * zg330_backend_is_applied:
 * @backend: a backend
 *
 * Whether apply() (or apply with a plan) has deployed the backend.
 *
 * Returns: %TRUE after apply
 */
gboolean zg330_backend_is_applied (Zg330Backend *backend);
/**
 * zg330_backend_owns_op:
 * @backend: a backend
 * @op_id: an op id of the network
 *
 * Whether the op is one of the backend's HardOps.
 *
 * Returns: %TRUE when the backend deploys the op
 */
gboolean zg330_backend_owns_op (Zg330Backend *backend, gint64 op_id);

/* ---- options: before apply ---- */
/**
 * zg330_backend_disable_merge_hardop:
 * @backend: a backend
 * @error: return location for a #GError
 *
 * disableMergeHardOp: one launch per HardOp instead of one per run of consecutive
 * HardOps. Before apply, else %ZG330_BACKEND_ERROR_CALL_ORDER.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_disable_merge_hardop (Zg330Backend *backend, GError **error);
/**
 * zg330_backend_disable_etm_optimize:
 * @backend: a backend
 * @error: return location for a #GError
 *
 * disableEtmOptimize: the FTMP chunks are laid out one after the other instead of by the
 * ETM planner. Before apply, else %ZG330_BACKEND_ERROR_CALL_ORDER.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_disable_etm_optimize (Zg330Backend *backend, GError **error);
/**
 * zg330_backend_ocm_optimize:
 * @backend: a backend
 * @option: the OCM option
 * @error: return location for a #GError
 *
 * ocmOptimize: which planner chooses the chunks that live in OCM (BEST_SCORE, the
 * default, runs every one and keeps the cheapest). Before apply; a chip without OCM
 * options (Buyi) refuses any but NONE with %ZG330_BACKEND_ERROR_UNSUPPORTED, and a value
 * that is no OcmOpt fails with %ZG330_BACKEND_ERROR_VALUE.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_ocm_optimize (Zg330Backend *backend, ZwOcmOpt option, GError **error);
/**
 * zg330_backend_set_options:
 * @backend: a backend
 * @merge_hardop: merge consecutive HardOps into one launch
 * @etm_optimize: plan FTMP with the ETM planner
 * @ocm: the OCM option
 * @error: return location for a #GError
 *
 * Sets the three options at once (a convenience for tools; the same rules as the calls
 * one by one). Before apply.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_set_options (Zg330Backend *backend, gboolean merge_hardop, gboolean etm_optimize,
                                    ZwOcmOpt ocm, GError **error);
/**
 * zg330_backend_set_plan_limits:
 * @backend: a backend
 * @work_budget: work units of the ETM search (0 = the default)
 * @time_limit_s: an optional wall-clock cap in seconds (<= 0 = none)
 * @error: return location for a #GError
 *
 * The ETM planner's limits (not a vendor option): @work_budget work units (0 = the
 * default, 250,000,000, about a quarter of a second of one core) and an optional
 * wall-clock cap @time_limit_s (<= 0 = none, the default; at most 1e6, else
 * %ZG330_BACKEND_ERROR_VALUE). Without a time limit one network and one set of options
 * give one plan on any machine at any load; when the cap cuts the search the report says
 * so (etm_time_limit_hit). Before apply.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_set_plan_limits (Zg330Backend *backend, guint64 work_budget, double time_limit_s,
                                        GError **error);
/**
 * zg330_backend_get_merge_hardop:
 * @backend: a backend
 *
 * The merge option as it is set (or, for a backend applied with a plan, the plan's).
 *
 * Returns: %TRUE when consecutive HardOps share a launch
 */
gboolean zg330_backend_get_merge_hardop (Zg330Backend *backend);
/**
 * zg330_backend_get_etm_optimize:
 * @backend: a backend
 *
 * The ETM optimize option as it is set.
 *
 * Returns: %TRUE when the ETM planner lays FTMP out
 */
gboolean zg330_backend_get_etm_optimize (Zg330Backend *backend);
/**
 * zg330_backend_get_ocm_opt:
 * @backend: a backend
 *
 * The OCM option asked for; after apply with BEST_SCORE, the option chosen.
 *
 * Returns: the option
 */
ZwOcmOpt zg330_backend_get_ocm_opt (Zg330Backend *backend);

/**
 * zg330_backend_user_reuse_segment:
 * @backend: a backend
 * @chunk: a chunk of the device's ETM
 * @type: WEIGHT, INSTR or FTMP
 * @error: return location for a #GError
 *
 * userReuseSegment: @chunk (ETM, 4096-aligned, >= the logic segment's size) holds
 * WEIGHT, INSTR or FTMP. Backends of the same network may share all three; of different
 * networks, FTMP only. The backend keeps a reference to the chunk. Before apply; a chip
 * whose compiler placed every value (Buyi) refuses it.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_user_reuse_segment (Zg330Backend *backend, XrtMemChunk *chunk, ZwSegmentType type,
                                           GError **error);
/**
 * zg330_backend_user_connect_network:
 * @backend: a backend
 * @chunk: a chunk of the device's ETM
 * @v_id: a network input or output of the backend's view
 * @error: return location for a #GError
 *
 * userConnectNetwork: the network input or output @v_id lives in @chunk (ETM,
 * 4096-aligned, >= its storage bytes), at the chunk's start, e.g. the output of one
 * network and the input of the next (the manual's §2.3.2 sizes @chunk by storageBytes).
 * When @chunk can hold the value's whole compiler chunk and the value starts that chunk,
 * @chunk becomes the home of the compiler chunk (zero-copy); otherwise the value keeps a
 * home of the backend's and is staged: copied from @chunk before the hardops that read
 * it, to @chunk after the hardop that writes it (MemChunkInfo.staged_chunk). The deploy
 * report's "connections" say which. zg330_backend_get_value_place() gives @chunk for a
 * staged value. Before apply.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_user_connect_network (Zg330Backend *backend, XrtMemChunk *chunk, gint64 v_id,
                                             GError **error);
/**
 * zg330_backend_user_connect_network_full:
 * @backend: a backend
 * @chunk: a chunk of the device's ETM
 * @v_id: a network input or output of the backend's view
 * @staged: %TRUE to stage the value through @chunk even where it could be zero-copy
 * @error: return location for a #GError
 *
 * As zg330_backend_user_connect_network(), with the choice of a staged copy (a pipeline
 * checks that its outputs do not depend on it).
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_user_connect_network_full (Zg330Backend *backend, XrtMemChunk *chunk, gint64 v_id,
                                                  gboolean staged, GError **error);

/**
 * zg330_backend_get_logic_segment_size:
 * @backend: a backend
 * @type: the segment
 * @error: return location for a #GError
 *
 * The size of a logic segment (known after init): WEIGHT, INSTR, FTMP (with ETM
 * optimize and the OCM option as currently set: planned on demand), INPUT, OUTPUT.
 *
 * Returns: the size in bytes (0 with @error set when planning FTMP fails)
 */
guint64 zg330_backend_get_logic_segment_size (Zg330Backend *backend, ZwSegmentType type, GError **error);

/* ---- deploy ---- */
/**
 * zg330_backend_apply:
 * @backend: a backend
 * @error: return location for a #GError
 *
 * apply(): merge groups, the ETM plan of FTMP, the OCM option, the physical segments
 * allocated, instructions and weights uploaded, every HardOp bound on the board. Needs
 * the network's params; once only.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_apply (Zg330Backend *backend, GError **error);

/**
 * zg330_backend_apply_with_plan:
 * @backend: a backend
 * @plan: a deploy report of the same network and view
 * @error: return location for a #GError
 *
 * apply() with a recorded plan (a deploy report of the same network and view, e.g. from
 * a snapshot): options and placement are taken from it after the independent checker,
 * nothing is planned again.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_apply_with_plan (Zg330Backend *backend, const ZwDeployReport *plan, GError **error);

/**
 * zg330_backend_fork:
 * @backend: a backend
 * @error: return location for a #GError
 *
 * Backend.fork: another backend of the same view and device with the same options, for
 * use from another thread; it shares WEIGHT and INSTR with this one and has its own FTMP
 * (and INPUT/OUTPUT). Applied, with this one's plan, when this one is.
 *
 * Returns: (transfer full): the new backend, or %NULL with @error set
 */
Zg330Backend *zg330_backend_fork (Zg330Backend *backend, GError **error);

/**
 * zg330_backend_precheck:
 * @backend: a backend
 * @error: return location for a #GError
 *
 * Reads ETM back and checks every instruction and weight; the first bad one fails with
 * "The Weight of opid:N at PLDDR is incorrect" (or Instruction). After apply.
 *
 * Returns: %TRUE when every byte is as uploaded
 */
gboolean zg330_backend_precheck (Zg330Backend *backend, GError **error);

/**
 * zg330_backend_log:
 * @backend: a backend
 * @dir: (nullable) (type filename): the log folder, %NULL for <cwd>/.icraft/logs
 * @json_path: (out) (optional) (transfer full) (type filename): the JSON file written
 * @error: return location for a #GError
 *
 * Writes <dir>/<network>_zg330_<id>.log (text) and .json (the deploy report) atomically.
 * After apply.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_log (Zg330Backend *backend, const char *dir, char **json_path, GError **error);

/**
 * zg330_backend_get_report:
 * @backend: a backend
 *
 * The deploy report: after apply every placement fact; before apply, a report with the
 * logic facts only.
 *
 * Returns: (transfer full): a new reference to the report
 */
ZwDeployReport *zg330_backend_get_report (Zg330Backend *backend);

/**
 * zg330_backend_get_value_place:
 * @backend: a backend
 * @v_id: a value id
 * @region: (out) (transfer none): the region's name ("ETM", "OCM")
 * @addr: (out): the address
 *
 * The physical place of a value after apply: its region and address.
 *
 * Returns: %FALSE for values that live on the host or are not the backend's
 */
gboolean zg330_backend_get_value_place (Zg330Backend *backend, gint64 v_id, const char **region, guint64 *addr);

/* ---- running (used by the session) ---- */

/**
 * zg330_backend_forward_begin: (skip)
 * @backend: a backend
 *
 * OCM is a scratchpad of whichever network runs (as on the chip), and the icore runs
 * one program at a time: a forward brackets its launches with begin/end so that backends
 * on one device (other networks, forks in other threads) take turns. Re-entrant.
 */
void zg330_backend_forward_begin (Zg330Backend *backend);
/**
 * zg330_backend_forward_end: (skip)
 * @backend: a backend
 *
 * Ends what zg330_backend_forward_begin() began.
 */
void zg330_backend_forward_end (Zg330Backend *backend);

/**
 * zg330_backend_get_n_launches:
 * @backend: a backend
 *
 * The launches, in execution order (the report's "launches": merged op id, members).
 *
 * Returns: their number (0 before apply)
 */
guint zg330_backend_get_n_launches (Zg330Backend *backend);
/**
 * zg330_backend_run_launch: (skip)
 * @backend: a backend
 * @index: the launch
 * @icore_ms: (out) (optional): the simulated icore time
 * @sync_ms: (out) (optional): the host sync time
 * @error: return location for a #GError
 *
 * Runs launch @index on the board: one icoreCalc over its instructions. Fills the
 * simulated icore time and the host sync time in ms (0 for a merged launch's sync).
 * After apply.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_run_launch (Zg330Backend *backend, guint index, double *icore_ms, double *sync_ms,
                                   GError **error);

/**
 * zg330_backend_run_launch_part: (skip)
 * @backend: a backend
 * @index: the launch
 * @after_op_id: the op after whose sync point to start, -1 for the launch's start
 * @until_op_id: the op after whose sync point to stop, -1 for the launch's end
 * @layer_count: (out) (optional): the launch's layers done at the stop
 * @icore_ms: (out) (optional): the simulated icore time
 * @sync_ms: (out) (optional): the host sync time
 * @error: return location for a #GError
 *
 * stepTo inside a merged launch (HardOpInfo.sync_idx = <launch, layer_count>): runs
 * launch @index as the board runs it when the host stops it at a sync point — the
 * launch's own instruction stream, through the same icoreCalc as a whole launch, from
 * the sync point after op @after_op_id (-1: the launch's start) to the sync point after
 * op @until_op_id (-1: the launch's end), i.e. after the layers of the launch's hardops
 * up to that op. Fails unless the board then advanced exactly those layers. Resuming
 * (@after_op_id >= 0) needs zg330_backend_can_resume_launch(): the board must not have
 * run anything since the partial launch stopped there (OCM and FTMP hold what it left).
 * After apply.
 *
 * Returns: %TRUE on success
 */
gboolean zg330_backend_run_launch_part (Zg330Backend *backend, guint index, gint64 after_op_id, gint64 until_op_id,
                                        guint *layer_count, double *icore_ms, double *sync_ms, GError **error);
/**
 * zg330_backend_can_resume_launch: (skip)
 * @backend: a backend
 * @index: the launch
 * @after_op_id: the op of the sync point
 *
 * Did the last partial launch of this backend stop launch @index after op
 * @after_op_id, with no other launch on the board since?
 *
 * Returns: %TRUE when the launch can resume there
 */
gboolean zg330_backend_can_resume_launch (Zg330Backend *backend, guint index, gint64 after_op_id);

/**
 * zg330_backend_bind_output: (skip)
 * @backend: a backend
 * @v_id: a network output of the backend
 * @chunk: a chunk of this device's ETM
 * @offset: where in @chunk
 *
 * forward(inputs, outputs): until zg330_backend_unbind_outputs(), the network output
 * @v_id is written by its hardop straight into @chunk at @offset in place of its OUTPUT
 * chunk. The backend keeps a reference meanwhile.
 *
 * Returns: %FALSE, changing nothing, when it cannot be: the value shares its compiler
 *   chunk with others, lives in OCM, is not an OUTPUT value of this backend, or @chunk is
 *   on another region or too small
 */
gboolean zg330_backend_bind_output (Zg330Backend *backend, gint64 v_id, XrtMemChunk *chunk, guint64 offset);
/**
 * zg330_backend_unbind_outputs: (skip)
 * @backend: a backend
 *
 * Ends every zg330_backend_bind_output(): the outputs go to their OUTPUT chunks again.
 */
void zg330_backend_unbind_outputs (Zg330Backend *backend);

G_END_DECLS
