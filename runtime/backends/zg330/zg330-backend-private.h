/* zg330-backend-private.h — what the parts of the ZG330Backend share: the instance, the
 * chunks, launches and connections it keeps, the helpers every part uses, and the hooks
 * of a chip whose compiler placed every value (Zg330Placement).
 *
 * Memory model. Every value of the backend belongs to a compiler chunk ("@chunk(id@off)":
 * concat inputs live inside the concat output's chunk), and the chunk is the unit of
 * placement: INPUT and OUTPUT chunks (touched by ops of other backends) get one ETM chunk
 * each; FTMP chunks are packed into one FTMP segment by the ETM planner, or moved to OCM by
 * the OCM option. The logic address space lays the segments out in the order WEIGHT, INSTR,
 * FTMP, INPUT, OUTPUT, each 4096-aligned; a value's logic address is its segment's base +
 * its chunk's offset + its offset inside the chunk (for OCM values: its OCM address).
 *
 * Instructions address segments through the device's MMU, so backends of one network can
 * share a WEIGHT/INSTR chunk while each has its own FTMP: the hardops bound on the board at
 * an instruction address belong to a shared "program", and before every launch the backend
 * makes itself the program's active MMU context.
 *
 * The parts: zg330-backend.c (the type, its lifetime, the Backend interface),
 * -init.c (the view's hardops, chunks and logic segments), -options.c, -plan.c (launches,
 * OCM option, FTMP plan), -segments.c (physical segments, their owners, the program),
 * -apply.c (deploy, apply with a plan, fork, precheck), -run.c (launches, staging),
 * -report.c (deploy report, log).
 */
#pragma once

#include "backends/zg330/zg330-backend.h"
#include "backends/zg330/zg330-hardop.h"
#include "backends/zg330/zg330-ocm-plan.h"
#include "base/zw-checked.h"

G_BEGIN_DECLS

#define SEGMENT_ALIGN 4096u
/* Public calls check their arguments into the GError (the caller's error handling sees them). */
#define CHECK_ARG(cond, arg, val) \
  ZW_RETURN_VAL_IF_BAD_ARG (cond, arg, error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_INVALID_ARGUMENT, val)
#define FTMP_ALIGN 64u
#define WEIGHT_ALIGN 64u

typedef struct {
  gint64 id;                 /* compiler chunk id, or -(v_id+1) for a value without one */
  guint64 size;
  gint first, last;          /* op indices, inclusive */
  ZwSegmentType segment;
  gboolean eligible;         /* may go to OCM */
  GPtrArray *values;         /* XirValue* */
  guint64 seg_offset;        /* FTMP: offset in the FTMP segment; INPUT/OUTPUT: offset in its segment */
  gboolean in_ocm;
  guint64 ocm_addr;
  XrtMemChunk *io_chunk;     /* INPUT/OUTPUT after apply */
  gboolean io_user;
  XrtMemChunk *io_caller;    /* forward(inputs, outputs): the caller's chunk for this forward */
  guint64 io_caller_off;
  gboolean fixed;            /* compiler-placed (Buyi): at its segment's fixed address + seg_offset */
} BChunk;

/* userConnectNetwork: a network input or output and the user's chunk. Zero-copy when the
 * user's chunk can be the home of the value's whole compiler chunk (the value at its
 * start); staged otherwise: the value keeps a home of the backend's and is copied from the
 * user's chunk before the hardops that read it, or to it after the hardop that writes it
 * (MemChunkInfo.staged_chunk). */
typedef struct {
  gint64 v_id;
  XrtMemChunk *chunk;        /* the user's (ref) */
  gboolean staged;           /* decided at apply */
  gboolean force_staged;     /* the user asked for a staged copy */
} Connection;

typedef struct {
  gint64 op_id;              /* merged id or the hardop's own */
  guint first, last;         /* indices into self->hardops */
  GArray *merge_from;        /* gint64 */
  guint layer_count;
  guint64 instr_offset;      /* in INSTR segment */
  guint64 instr_size;
} BLaunch;

/* Hardops bound at one instruction range, shared by the backends of one network. */
typedef struct {
  gint ref_count;
  XrtDevice *device;         /* borrowed: the program lives no longer than its backends */
  guint64 addr;
  guint64 size;
  Zg330Backend *active;      /* the MMU context of the current launch */
} Program;

typedef struct {
  Program *prog;
  guint hardop;              /* index into the active backend's hardops */
} BoundOp;

struct _Zg330Backend {
  XrtBackend parent_instance;
  gint id;
  XirNetworkView *view;
  XirNetwork *net;
  XrtDevice *device;
  GPtrArray *hardops;        /* XirOp* in execution order */
  Zg330HardopDesc *descs;
  GHashTable *hardop_index;  /* op_id (gint64*) -> index + 1 */
  GArray *chunks;            /* BChunk */
  GHashTable *chunk_of;      /* v_id (gint64*) -> chunk index + 1 */
  guint64 *weight_offset;    /* per hardop: offset in WEIGHT */
  guint64 *instr_offset;     /* per hardop: offset in INSTR */
  guint64 *instr_size;
  guint64 seg_size[ZW_N_SEGMENTS];

  gboolean merge_hardop;
  gboolean etm_optimize;
  ZwOcmOpt ocm_requested;
  ZwOcmOpt ocm_chosen;

  XrtMemChunk *user_segment[ZW_N_SEGMENTS];
  GHashTable *user_connect;  /* v_id -> Connection* */
  char *segment_key[ZW_N_SEGMENTS];  /* WEIGHT, INSTR: this backend's entry in segment_owners */

  gboolean applied;
  GArray *launches;          /* BLaunch */
  XrtMemChunk *phy[ZW_N_SEGMENTS];   /* WEIGHT, INSTR, FTMP */
  guint64 ftmp_lower_bound, ftmp_sum;
  char *etm_method;
  double etm_seconds;
  guint64 plan_work_budget;  /* option: 0 = ETM_PLAN_WORK */
  double plan_time_limit_s;  /* option: <= 0 = none (the default) */
  guint64 etm_work, etm_work_budget;
  gboolean etm_time_limit_hit;
  Zg330OcmResult ocm_result;
  double none_cost_ms;
  /* per option number (the planners, NONE + 1 ..): */
  double option_cost_ms[ZW_OCM_N_SLOTS];
  GArray *option_picks[ZW_OCM_N_SLOTS];   /* chunk ids, for the report */
  guint64 option_peak[ZW_OCM_N_SLOTS];
  gboolean options_pending;  /* planners not run at apply (not needed for the option asked):
                              * run once, when a report first shows them */
  GMutex options_lock;
  Program *program;

  /* compiler-placed chips (Buyi): the segments' addresses from the network's tags, and the
   * value that holds each value's bytes (a concat's inputs live inside its output) */
  guint64 fixed_seg_addr[ZW_N_SEGMENTS];
  GHashTable *alias;         /* v_id (gint64*) -> XirValue* holding it, for compiler-placed values */

  /* stepTo inside a merged launch: where the last partial launch stopped */
  gint part_launch;          /* -1: none */
  guint part_last;           /* index into hardops of the last hardop run */
  guint64 part_seq;          /* the board's launch number of that partial launch */
  double staged_ms;          /* the last run's ETM-to-ETM copies of staged connections */
};

/* A chip whose compiler placed every value (Zg330BackendClass.compiler_placed) gives the
 * engine its placement through these hooks, in place of the runtime's planners (the
 * Buyi's: backends/buyi/buyi-placement.c). */
typedef struct _Zg330Placement Zg330Placement;
struct _Zg330Placement {
  /* init, before the chunks are made: which placed value holds each value's bytes
   * (self->alias; a concat's inputs live inside its output) */
  void (*find_holders) (Zg330Backend *self);
  /* init, after the chunks and logic segments: every segment, chunk, weight and
   * instruction where the compiler put it */
  gboolean (*place) (Zg330Backend *self, GError **error);
  /* the plan a report shows before apply: launches, no OCM option, no ETM plan */
  void (*plan) (Zg330Backend *self);
  /* apply, before deploying: the plan, and the placement through the independent checker */
  gboolean (*check) (Zg330Backend *self, GError **error);
  /* apply_with_plan, before apply: @plan must state the compiler's placement */
  gboolean (*check_plan) (Zg330Backend *self, const ZwDeployReport *plan, GError **error);
};

static inline BChunk *
chunk_for_value (Zg330Backend *self, const XirValue *v)
{
  gpointer idx = g_hash_table_lookup (self->chunk_of, &v->v_id);
  return idx ? &g_array_index (self->chunks, BChunk, GPOINTER_TO_UINT (idx) - 1) : NULL;
}

/* The value whose bytes hold @v: itself, or for a compiler-placed value inside another that
 * lives at the same time (a concat's input in its output), that one. */
static inline const XirValue *
placed_holder (Zg330Backend *self, const XirValue *v)
{
  const XirValue *h = self->alias ? g_hash_table_lookup (self->alias, &v->v_id) : NULL;
  return h ? h : v;
}

/* @v's byte offset inside its chunk. */
static inline guint64
value_offset (Zg330Backend *self, const XirValue *v)
{
  if (v->mtype.kind == XIR_MEM_CHUNK)
    return v->mtype.offset;
  if (v->mtype.kind == XIR_MEM_ETM || v->mtype.kind == XIR_MEM_OCM)
    return v->mtype.addr - placed_holder (self, v)->mtype.addr;
  return 0;
}

static inline gboolean
op_is_mine (Zg330Backend *self, gint index)
{
  const XirOp *op;

  if (index < 0)
    return FALSE;
  op = xir_network_get_op (self->net, (guint) index);
  return op != NULL && g_hash_table_contains (self->hardop_index, &op->op_id);
}

static inline guint64
align_up (guint64 v, guint64 a)
{
  return (v + a - 1) / a * a;
}

static inline XrtMemRegion *
region (Zg330Backend *self, const char *name)
{
  return xrt_device_get_mem_region (self->device, name, NULL);
}

/* zg330-backend-init.c: Backend.init (the view's hardops, chunks and logic segments). */
gboolean zg330_backend_init_view (XrtBackend *backend, XirNetworkView *view, XrtDevice *device, GError **error);

/* zg330-backend-options.c: a call that must come before (after) apply, or an error naming it. */
gboolean zg330_backend_before_apply (Zg330Backend *self, const char *call, GError **error);
gboolean zg330_backend_after_apply (Zg330Backend *self, const char *call, GError **error);
/* @chunk is in this device's ETM, 4096-aligned and holds @need bytes, or an error naming @what. */
gboolean zg330_backend_check_user_chunk (Zg330Backend *self, XrtMemChunk *chunk, guint64 need, const char *what,
                                         GError **error);

/* zg330-backend-plan.c */
void zg330_backend_plan_launches (Zg330Backend *self);
gboolean zg330_backend_plan_ocm (Zg330Backend *self, GError **error);
gboolean zg330_backend_plan_ftmp (Zg330Backend *self, GError **error);
void zg330_backend_options_complete (Zg330Backend *self);

/* zg330-backend-segments.c */
void zg330_backend_segment_owner_release (const char *key);
void zg330_backend_program_release (Zg330Backend *self);
gboolean zg330_backend_bind_program (Zg330Backend *self, GError **error);
guint8 *zg330_backend_segment_image (Zg330Backend *self, ZwSegmentType type);
XrtMemChunk *zg330_backend_segment_chunk (Zg330Backend *self, ZwSegmentType type, guint64 size, GError **error);
gboolean zg330_backend_claim_segment (Zg330Backend *self, ZwSegmentType type, const guint8 *image, GError **error);

/* zg330-backend-apply.c: where value @v lives now (after apply). */
gboolean zg330_backend_value_place (Zg330Backend *self, const XirValue *v, Zg330Place *place);

G_END_DECLS
