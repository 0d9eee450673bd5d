/* zg330-backend.c — ZG330Backend: segments, placement, apply, precheck, launches.
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
 */
#include "backends/zg330/zg330-backend.h"
#include "base/zw-file.h"
#include "report/zw-deploy-check.h"
#include "backends/zg330/zg330-etm-plan.h"
#include "backends/zg330/zg330-hardop.h"
#include "backends/zg330/zg330-ocm-plan.h"
#include "devices/zg330-sim.h"
#include "base/zw-checked.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

G_DEFINE_QUARK (zg330-backend-error-quark, zg330_backend_error)

#define SEGMENT_ALIGN 4096u
/* Public calls check their arguments into the GError (the caller's error handling sees them). */
#define CHECK_ARG(cond, arg, val) \
  ZW_RETURN_VAL_IF_BAD_ARG (cond, arg, error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_INVALID_ARGUMENT, val)
#define FTMP_ALIGN 64u
#define WEIGHT_ALIGN 64u
/* The FTMP plan's work budget (the ETM planner's work units, about a quarter of a second
 * of one core): counted, not timed, so one network and one set of options give one plan
 * on any machine at any load. */
#define ETM_PLAN_WORK G_GUINT64_CONSTANT (250000000)

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
} Connection;

static void
connection_free (gpointer p)
{
  Connection *cn = p;
  xrt_mem_chunk_unref (cn->chunk);
  g_free (cn);
}

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
};

static gint backend_counter;
/* What the WEIGHT and INSTR chunks of a device hold: "device:addr:TYPE" -> SegmentOwner.
 * A user chunk reused for WEIGHT or INSTR must already hold this backend's bytes, or be
 * free of any other backend's (userReuseSegment: different networks share FTMP only). */
typedef struct {
  gint users;
  char *network;             /* "name" (path) of the network of the first backend */
  gint backend_id;
} SegmentOwner;
static GMutex segment_lock;
static GHashTable *segment_owners;
static GMutex program_lock;
static GHashTable *programs;  /* "device:addr" -> Program* */
/* The icore runs one program at a time and OCM is a scratchpad of whoever runs: a forward
 * holds this lock from its first launch to its last (re-entrant: each launch takes it too). */
static GRecMutex run_lock;

static void
bchunk_clear (gpointer p)
{
  BChunk *c = p;
  g_clear_pointer (&c->values, g_ptr_array_unref);
  g_clear_pointer (&c->io_chunk, xrt_mem_chunk_unref);
  g_clear_pointer (&c->io_caller, xrt_mem_chunk_unref);
}

static void
blaunch_clear (gpointer p)
{
  g_clear_pointer (&((BLaunch *) p)->merge_from, g_array_unref);
}

gboolean
zg330_backend_supports_op (const XirOp *op)
{
  return op != NULL && op->kind == XIR_OP_HARDOP && op->target.kind == XIR_TARGET_ZHUGE;
}

/* ---- init ------------------------------------------------------------------------- */

static BChunk *
chunk_for_value (Zg330Backend *self, const XirValue *v)
{
  gpointer idx = g_hash_table_lookup (self->chunk_of, &v->v_id);
  return idx ? &g_array_index (self->chunks, BChunk, GPOINTER_TO_UINT (idx) - 1) : NULL;
}

/* The value whose bytes hold @v: itself, or for a compiler-placed value inside another that
 * lives at the same time (a concat's input in its output), that one. */
static const XirValue *
placed_holder (Zg330Backend *self, const XirValue *v)
{
  const XirValue *h = self->alias ? g_hash_table_lookup (self->alias, &v->v_id) : NULL;
  return h ? h : v;
}

/* The compiler chunk of @v (its "@chunk(id@…)"), or a chunk of its own (-(v_id+1)); for a
 * compiler-placed value, its holder's. */
static gint64
value_chunk_id (Zg330Backend *self, const XirValue *v)
{
  if (v->mtype.kind == XIR_MEM_CHUNK)
    return v->mtype.chunk_id;
  return -(placed_holder (self, v)->v_id + 1);
}

/* @v's byte offset inside its chunk. */
static guint64
value_offset (Zg330Backend *self, const XirValue *v)
{
  if (v->mtype.kind == XIR_MEM_CHUNK)
    return v->mtype.offset;
  if (v->mtype.kind == XIR_MEM_ETM || v->mtype.kind == XIR_MEM_OCM)
    return v->mtype.addr - placed_holder (self, v)->mtype.addr;
  return 0;
}

static gboolean
op_is_mine (Zg330Backend *self, gint index)
{
  const XirOp *op;

  if (index < 0)
    return FALSE;
  op = xir_network_get_op (self->net, (guint) index);
  return op != NULL && g_hash_table_contains (self->hardop_index, &op->op_id);
}

static gboolean
add_value (Zg330Backend *self, GHashTable *by_chunk_id, XirValue *v, GError **error)
{
  gint64 cid;
  gpointer idx;
  BChunk *c;

  if (g_hash_table_contains (self->chunk_of, &v->v_id))
    return TRUE;
  if (v->mtype.kind == XIR_MEM_HOST)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "%s: v_id %" G_GINT64_FORMAT ": mtype: a hardop's value cannot live on the host (@hostm)",
                   xir_network_get_path (self->net), v->v_id);
      return FALSE;
    }
  cid = value_chunk_id (self, v);
  idx = g_hash_table_lookup (by_chunk_id, &cid);
  if (idx == NULL)
    {
      BChunk nc = { 0 };
      gint64 *key = g_new (gint64, 1);

      nc.id = cid;
      nc.first = G_MAXINT;
      nc.last = -1;
      nc.values = g_ptr_array_new ();
      nc.segment = ZW_SEGMENT_FTMP;
      nc.ocm_addr = G_MAXUINT64;
      g_array_append_val (self->chunks, nc);
      *key = cid;
      idx = GUINT_TO_POINTER (self->chunks->len);
      g_hash_table_insert (by_chunk_id, key, idx);
    }
  c = &g_array_index (self->chunks, BChunk, GPOINTER_TO_UINT (idx) - 1);
  g_ptr_array_add (c->values, v);
  c->size = MAX (c->size, value_offset (self, v) + v->storage_bytes);
  g_hash_table_insert (self->chunk_of, &v->v_id, idx);
  return TRUE;
}

/* INPUT: a value of the chunk comes from an op of another backend; OUTPUT: one is used by
 * another backend or is a network output. Lifetimes only count the backend's own ops. */
static void
classify_chunks (Zg330Backend *self)
{
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      gboolean from_outside = FALSE, to_outside = FALSE;

      for (guint k = 0; k < c->values->len; k++)
        {
          XirValue *v = g_ptr_array_index (c->values, k);

          if (op_is_mine (self, v->producer))
            {
              c->first = MIN (c->first, v->producer);
              c->last = MAX (c->last, v->producer);
            }
          else
            from_outside = TRUE;
          for (guint u = 0; u < v->consumers->len; u++)
            {
              gint ci = (gint) g_array_index (v->consumers, guint, u);
              if (op_is_mine (self, ci))
                {
                  c->first = MIN (c->first, ci);
                  c->last = MAX (c->last, ci);
                }
              else
                to_outside = TRUE;
            }
          if (v->is_network_output)
            to_outside = TRUE;
        }
      if (c->last < c->first)
        c->first = c->last = 0;
      c->segment = from_outside ? ZW_SEGMENT_INPUT : to_outside ? ZW_SEGMENT_OUTPUT : ZW_SEGMENT_FTMP;
      c->eligible = c->segment == ZW_SEGMENT_FTMP;
    }
}

static guint64
align_up (guint64 v, guint64 a)
{
  return (v + a - 1) / a * a;
}

static void
segment_owner_free (gpointer p)
{
  SegmentOwner *o = p;
  g_free (o->network);
  g_free (o);
}

static void
segment_owner_release (const char *key)
{
  SegmentOwner *o;

  if (key == NULL)
    return;
  g_mutex_lock (&segment_lock);
  o = segment_owners ? g_hash_table_lookup (segment_owners, key) : NULL;
  if (o != NULL && --o->users == 0)
    g_hash_table_remove (segment_owners, key);
  g_mutex_unlock (&segment_lock);
}

G_DEFINE_TYPE (Zg330Backend, zg330_backend, XRT_TYPE_BACKEND)

static void
zg330_backend_init (Zg330Backend *self)
{
  self->id = g_atomic_int_add (&backend_counter, 1);
  self->hardops = g_ptr_array_new ();
  self->hardop_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->chunks = g_array_new (FALSE, TRUE, sizeof (BChunk));
  g_array_set_clear_func (self->chunks, bchunk_clear);
  self->chunk_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->user_connect = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, connection_free);
  self->launches = g_array_new (FALSE, TRUE, sizeof (BLaunch));
  self->part_launch = -1;
  g_array_set_clear_func (self->launches, blaunch_clear);
  g_mutex_init (&self->options_lock);
}

Zg330Backend *
zg330_backend_new (XirNetworkView *view, XrtDevice *device, GError **error)
{
  CHECK_ARG (view != NULL, "view", NULL);
  CHECK_ARG (device != NULL, "device", NULL);
  return (Zg330Backend *) xrt_backend_new_of_type (ZG330_TYPE_BACKEND, view, device, error);
}

/* ---- compiler-placed chips (Buyi) ------------------------------------------------------- */

static gboolean
is_placed (const XirValue *v)
{
  return v->mtype.kind == XIR_MEM_ETM || v->mtype.kind == XIR_MEM_OCM;
}

/* A concat's inputs live inside its output: a placed value whose bytes lie inside another
 * placed value of the same memory that lives at the same time is held by the largest such. */
static void
find_aliases (Zg330Backend *self)
{
  g_autoptr (GPtrArray) placed = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);
      for (guint side = 0; side < 2; side++)
        {
          GPtrArray *list = side == 0 ? op->inputs : op->outputs;
          for (guint k = 0; k < list->len; k++)
            {
              XirValue *v = g_ptr_array_index (list, k);
              if (is_placed (v) && g_hash_table_add (seen, &v->v_id))
                g_ptr_array_add (placed, v);
            }
        }
    }
  self->alias = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint a = 0; a < placed->len; a++)
    {
      XirValue *v = g_ptr_array_index (placed, a), *best = NULL;
      for (guint b = 0; b < placed->len; b++)
        {
          XirValue *h = g_ptr_array_index (placed, b);
          if (h == v || h->mtype.kind != v->mtype.kind || h->mtype.addr > v->mtype.addr
              || h->mtype.addr + h->storage_bytes < v->mtype.addr + v->storage_bytes
              || h->first_use > v->last_use || v->first_use > h->last_use)
            continue;
          /* the largest holder; of equal ones, the lowest v_id (a twin holds the other) */
          if (h->storage_bytes == v->storage_bytes && h->v_id > v->v_id)
            continue;
          if (best == NULL || h->storage_bytes > best->storage_bytes
              || (h->storage_bytes == best->storage_bytes && h->v_id < best->v_id))
            best = h;
        }
      if (best != NULL)
        g_hash_table_insert (self->alias, &v->v_id, best);
    }
}

static const char *const fixed_segment_tag[ZW_N_SEGMENTS] = {
  [ZW_SEGMENT_WEIGHT] = "params_segment", [ZW_SEGMENT_INSTR] = "instr_segment", [ZW_SEGMENT_FTMP] = "ftmp_segment",
  [ZW_SEGMENT_INPUT] = "input_segment", [ZW_SEGMENT_OUTPUT] = "output_segment",
};

/* The compiler's placement: every segment where the network's tags put it, every value at
 * its @etm/@ocm address (checked to lie inside its segment or OCM), weights and
 * instructions at their addresses. */
static gboolean
place_from_compiler (Zg330Backend *self, GError **error)
{
  const cJSON *tags = xir_network_get_tags (self->net);
  const char *path = xir_network_get_path (self->net);
  guint64 seg_end[ZW_N_SEGMENTS];

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      g_autofree char *akey = g_strdup_printf ("%s_addr", fixed_segment_tag[t]);
      g_autofree char *skey = g_strdup_printf ("%s_bytesize", fixed_segment_tag[t]);
      gint64 addr = 0, size = 0;
      const char *bad = NULL;
      ZwNumStatus st;

      if ((st = zw_json_int64 (cJSON_GetObjectItem (tags, akey), 0, G_MAXUINT32, &addr)) != ZW_NUM_OK)
        bad = akey;
      else if ((st = zw_json_int64 (cJSON_GetObjectItem (tags, skey), 0, G_MAXUINT32, &size)) != ZW_NUM_OK)
        bad = skey;
      if (bad != NULL)
        {
          g_autofree char *why = zw_num_status_describe (st, cJSON_GetObjectItem (tags, bad), 0, G_MAXUINT32);
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: tags.%s: %s (the %s deploys the compiler's placement, which the tags state)", path, bad,
                       why, XRT_BACKEND_GET_CLASS (self)->name);
          return FALSE;
        }
      self->fixed_seg_addr[t] = (guint64) addr;
      self->seg_size[t] = (guint64) size;
      seg_end[t] = (guint64) addr + (guint64) size;
    }
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      const XirValue *h = g_ptr_array_index (c->values, 0);

      h = placed_holder (self, h);
      if (!is_placed (h))
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: v_id %" G_GINT64_FORMAT ": mtype: the %s needs the compiler's @etm(addr) or @ocm(addr) for "
                       "every value of its hardops", path, h->v_id, XRT_BACKEND_GET_CLASS (self)->name);
          return FALSE;
        }
      c->eligible = FALSE;
      if (h->mtype.kind == XIR_MEM_OCM)
        {
          c->in_ocm = TRUE;
          c->ocm_addr = h->mtype.addr;
          continue;
        }
      if (h->mtype.addr < self->fixed_seg_addr[c->segment] || h->mtype.addr + c->size > seg_end[c->segment])
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: v_id %" G_GINT64_FORMAT ": mtype @etm(%" G_GUINT64_FORMAT "), %" G_GUINT64_FORMAT
                       " bytes, lies outside the %s segment [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") of the tags",
                       path, h->v_id, h->mtype.addr, c->size, zw_segment_type_to_string (c->segment),
                       self->fixed_seg_addr[c->segment], seg_end[c->segment]);
          return FALSE;
        }
      c->fixed = TRUE;
      c->seg_offset = h->mtype.addr - self->fixed_seg_addr[c->segment];
    }
  {
    /* what the compiler's FTMP holds, for the report: the sum of its chunks and the most
     * bytes live at once (the liveness lower bound any placement needs) */
    guint last = 0;
    self->ftmp_sum = self->ftmp_lower_bound = 0;
    for (guint i = 0; i < self->chunks->len; i++)
      {
        BChunk *c = &g_array_index (self->chunks, BChunk, i);
        if (c->fixed && c->segment == ZW_SEGMENT_FTMP)
          {
            self->ftmp_sum += c->size;
            last = MAX (last, (guint) MAX (c->last, 0));
          }
      }
    for (guint t = 0; t <= last; t++)
      {
        guint64 live = 0;
        for (guint i = 0; i < self->chunks->len; i++)
          {
            BChunk *c = &g_array_index (self->chunks, BChunk, i);
            if (c->fixed && c->segment == ZW_SEGMENT_FTMP && c->first <= (gint) t && (gint) t <= c->last)
              live += c->size;
          }
        self->ftmp_lower_bound = MAX (self->ftmp_lower_bound, live);
      }
  }
  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);
      for (guint side = 0; side < 2; side++)
        {
          GPtrArray *list = side == 0 ? op->params : op->instr;
          ZwSegmentType t = side == 0 ? ZW_SEGMENT_WEIGHT : ZW_SEGMENT_INSTR;
          for (guint k = 0; k < list->len; k++)
            {
              XirValue *p = g_ptr_array_index (list, k);
              if (p->mtype.kind != XIR_MEM_ETM || p->mtype.addr < self->fixed_seg_addr[t]
                  || p->mtype.addr + p->storage_bytes > seg_end[t])
                {
                  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                               "%s: op %" G_GINT64_FORMAT ": %s v_id %" G_GINT64_FORMAT ": mtype: %s is not inside the "
                               "%s segment of the tags", path, op->op_id, side == 0 ? "params" : "instr", p->v_id,
                               p->mtype.kind == XIR_MEM_ETM ? "its @etm address" : "not an @etm address",
                               zw_segment_type_to_string (t));
                  return FALSE;
                }
            }
          if (list->len > 0)
            {
              guint64 off = ((XirValue *) g_ptr_array_index (list, 0))->mtype.addr - self->fixed_seg_addr[t];
              if (side == 0)
                self->weight_offset[i] = off;
              else
                self->instr_offset[i] = off;
            }
        }
    }
  return TRUE;
}

/* Backend.init(view, device): the hardops of @view this chip takes, their chunks and the
 * logic segments. */
static gboolean
backend_init (XrtBackend *backend, XirNetworkView *view, XrtDevice *device, GError **error)
{
  Zg330Backend *self = ZG330_BACKEND (backend);
  Zg330BackendClass *klass = ZG330_BACKEND_GET_CLASS (self);
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);
  g_autoptr (GHashTable) by_chunk_id = NULL;
  guint64 woff = 0, ioff = 0;

  CHECK_ARG (view != NULL, "view", FALSE);
  CHECK_ARG (device != NULL, "device", FALSE);
  /* the board's chip as its profile states it (a socket board may be named "haps-zg330") */
  if (!zg330_sim_is_sim (device) || g_ascii_strcasecmp (zg330_sim_get_profile (device)->chip, klass->chip) != 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "device %s: the %s needs a %s device (mock://%s)", xrt_device_get_url (device), bclass->name,
                   klass->chip, klass->device_name);
      return FALSE;
    }
  self->view = xir_network_view_ref (view);
  self->net = xir_network_ref (xir_network_view_get_network (view));
  self->device = xrt_device_ref (device);
  /* the chip's defaults (here, not in the instance init, where a subclass's class is not
   * yet the instance's) */
  self->merge_hardop = klass->default_merge_hardop;
  self->etm_optimize = klass->default_etm_optimize;
  self->ocm_requested = self->ocm_chosen = klass->has_ocm_options ? ZW_OCM_BEST_SCORE : ZW_OCM_NONE;
  by_chunk_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < xir_network_view_get_n_ops (view); i++)
    {
      XirOp *op = xir_network_view_get_op (view, i);
      if (bclass->supports_op (op))
        {
          g_ptr_array_add (self->hardops, op);
          g_hash_table_insert (self->hardop_index, &op->op_id, GUINT_TO_POINTER (self->hardops->len));
        }
    }
  if (self->hardops->len == 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "%s: the network view has no HardOp compiled for %s", xir_network_get_path (self->net),
                   klass->target);
      return FALSE;
    }
  if (klass->compiler_placed)
    find_aliases (self);
  self->descs = g_new0 (Zg330HardopDesc, self->hardops->len);
  self->weight_offset = g_new0 (guint64, self->hardops->len);
  self->instr_offset = g_new0 (guint64, self->hardops->len);
  self->instr_size = g_new0 (guint64, self->hardops->len);
  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);

      if (!zg330_hardop_describe (op, &self->descs[i], error))
        {
          g_prefix_error (error, "%s: ", xir_network_get_path (self->net));
          return FALSE;
        }
      for (guint k = 0; k < op->inputs->len; k++)
        if (!add_value (self, by_chunk_id, g_ptr_array_index (op->inputs, k), error))
          return FALSE;
      for (guint k = 0; k < op->outputs->len; k++)
        if (!add_value (self, by_chunk_id, g_ptr_array_index (op->outputs, k), error))
          return FALSE;
      /* WEIGHT: each hardop's params back to back (as the compiler's params chunk holds
       * weights then bias), hardops 64-byte aligned. INSTR: contiguous, so that a merged
       * launch is one instruction range. */
      woff = align_up (woff, WEIGHT_ALIGN);
      self->weight_offset[i] = woff;
      woff += self->descs[i].weight_bytes;
      self->instr_offset[i] = ioff;
      self->instr_size[i] = self->descs[i].instr_bytes;
      ioff += self->descs[i].instr_bytes;
      if (self->descs[i].instr_bytes == 0 && !self->descs[i].zero_copy)
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: op %" G_GINT64_FORMAT " (%s): instr: no instruction words, but the op is not zero-copy: "
                       "the board cannot run it", xir_network_get_path (self->net), op->op_id, op->hard_class);
          return FALSE;
        }
    }
  self->seg_size[ZW_SEGMENT_WEIGHT] = woff;
  self->seg_size[ZW_SEGMENT_INSTR] = ioff;
  classify_chunks (self);
  {
    guint64 in_off = 0, out_off = 0;
    for (guint i = 0; i < self->chunks->len; i++)
      {
        BChunk *c = &g_array_index (self->chunks, BChunk, i);
        if (c->segment == ZW_SEGMENT_INPUT)
          {
            c->seg_offset = in_off;
            in_off = align_up (in_off + c->size, SEGMENT_ALIGN);
          }
        else if (c->segment == ZW_SEGMENT_OUTPUT)
          {
            c->seg_offset = out_off;
            out_off = align_up (out_off + c->size, SEGMENT_ALIGN);
          }
      }
    self->seg_size[ZW_SEGMENT_INPUT] = in_off;
    self->seg_size[ZW_SEGMENT_OUTPUT] = out_off;
  }
  if (klass->compiler_placed && !place_from_compiler (self, error))
    return FALSE;
  return TRUE;
}

/* ---- lifetime ---------------------------------------------------------------------- */

static void
program_unref (Program *prog)
{
  if (prog == NULL)
    return;
  g_mutex_lock (&program_lock);
  if (--prog->ref_count == 0)
    {
      g_autofree char *key = g_strdup_printf ("%p:%" G_GINT64_MODIFIER "x", (void *) prog->device, prog->addr);
      g_hash_table_remove (programs, key);
      g_mutex_unlock (&program_lock);
      zg330_sim_unbind_range (prog->device, prog->addr, prog->size);
      g_free (prog);
      return;
    }
  if (prog->active != NULL && prog->active->program == prog)
    prog->active = NULL;
  g_mutex_unlock (&program_lock);
}

Zg330Backend *
zg330_backend_ref (Zg330Backend *self)
{
  return g_object_ref (self);
}

void
zg330_backend_unref (Zg330Backend *self)
{
  if (self != NULL)
    g_object_unref (self);
}

static void
zg330_backend_finalize (GObject *object)
{
  Zg330Backend *self = ZG330_BACKEND (object);

  if (self->program)
    {
      g_mutex_lock (&program_lock);
      if (self->program->active == self)
        self->program->active = NULL;
      g_mutex_unlock (&program_lock);
      program_unref (self->program);
    }
  for (guint i = 0; i < ZW_N_SEGMENTS; i++)
    {
      g_clear_pointer (&self->user_segment[i], xrt_mem_chunk_unref);
      g_clear_pointer (&self->phy[i], xrt_mem_chunk_unref);
      segment_owner_release (self->segment_key[i]);
      g_free (self->segment_key[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (self->option_picks); i++)
    g_clear_pointer (&self->option_picks[i], g_array_unref);
  zg330_ocm_result_clear (&self->ocm_result);
  g_mutex_clear (&self->options_lock);
  g_clear_pointer (&self->chunks, g_array_unref);
  g_clear_pointer (&self->launches, g_array_unref);
  g_hash_table_unref (self->user_connect);
  g_clear_pointer (&self->alias, g_hash_table_unref);
  g_hash_table_unref (self->chunk_of);
  g_hash_table_unref (self->hardop_index);
  g_ptr_array_unref (self->hardops);
  g_free (self->descs);
  g_free (self->weight_offset);
  g_free (self->instr_offset);
  g_free (self->instr_size);
  g_free (self->etm_method);
  g_clear_pointer (&self->device, xrt_device_unref);
  g_clear_pointer (&self->net, xir_network_unref);
  g_clear_pointer (&self->view, xir_network_view_unref);
  G_OBJECT_CLASS (zg330_backend_parent_class)->finalize (object);
}

XirNetworkView *zg330_backend_get_view (Zg330Backend *self) { return self->view; }
XrtDevice *zg330_backend_get_device (Zg330Backend *self) { return self->device; }
gint zg330_backend_get_id (Zg330Backend *self) { return self->id; }
gboolean zg330_backend_is_applied (Zg330Backend *self) { return self->applied; }
gboolean zg330_backend_get_merge_hardop (Zg330Backend *self) { return self->merge_hardop; }
gboolean zg330_backend_get_etm_optimize (Zg330Backend *self) { return self->etm_optimize; }
ZwOcmOpt zg330_backend_get_ocm_opt (Zg330Backend *self) { return self->applied ? self->ocm_chosen : self->ocm_requested; }

gboolean
zg330_backend_owns_op (Zg330Backend *self, gint64 op_id)
{
  return g_hash_table_contains (self->hardop_index, &op_id);
}

/* ---- options -------------------------------------------------------------------------- */

static gboolean
before_apply (Zg330Backend *self, const char *call, GError **error)
{
  if (!self->applied)
    return TRUE;
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
               "%s %d (%s): %s must be called before apply()", XRT_BACKEND_GET_CLASS (self)->name, self->id,
               xir_network_get_name (self->net), call);
  return FALSE;
}

static gboolean
after_apply (Zg330Backend *self, const char *call, GError **error)
{
  if (self->applied)
    return TRUE;
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
               "%s %d (%s): %s must be called after apply()", XRT_BACKEND_GET_CLASS (self)->name, self->id,
               xir_network_get_name (self->net), call);
  return FALSE;
}

gboolean
zg330_backend_disable_merge_hardop (Zg330Backend *self, GError **error)
{
  if (!before_apply (self, "disableMergeHardOp", error))
    return FALSE;
  self->merge_hardop = FALSE;
  return TRUE;
}

gboolean
zg330_backend_disable_etm_optimize (Zg330Backend *self, GError **error)
{
  if (!before_apply (self, "disableEtmOptimize", error))
    return FALSE;
  self->etm_optimize = FALSE;
  return TRUE;
}

gboolean
zg330_backend_ocm_optimize (Zg330Backend *self, ZwOcmOpt option, GError **error)
{
  if (!before_apply (self, "ocmOptimize", error))
    return FALSE;
  if (!ZG330_BACKEND_GET_CLASS (self)->has_ocm_options && option != ZW_OCM_NONE)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "ocmOptimize: the %s has no OCM options: its compiler placed every value in ETM or OCM itself "
                   "(the addresses are in the network file)", XRT_BACKEND_GET_CLASS (self)->name);
      return FALSE;
    }
  if (zw_ocm_opt_get_index (option) < 0)
    {
      g_autofree char *known = zw_ocm_opt_dup_short_list ();
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "ocmOptimize: %d is not an OcmOpt (expected one of %s)", option, known);
      return FALSE;
    }
  self->ocm_requested = self->ocm_chosen = option;
  return TRUE;
}

gboolean
zg330_backend_set_options (Zg330Backend *self, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm,
                           GError **error)
{
  if (!before_apply (self, "setting options", error) || !zg330_backend_ocm_optimize (self, ocm, error))
    return FALSE;
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed && (merge_hardop || etm_optimize))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "%s: the %s cannot %s: its compiler placed every value (one launch per hardop, the compiler's ETM "
                   "reuse)", xir_network_get_name (self->net), XRT_BACKEND_GET_CLASS (self)->name,
                   merge_hardop ? "merge hardops" : "optimize ETM");
      return FALSE;
    }
  self->merge_hardop = merge_hardop;
  self->etm_optimize = etm_optimize;
  return TRUE;
}

gboolean
zg330_backend_set_plan_limits (Zg330Backend *self, guint64 work_budget, double time_limit_s, GError **error)
{
  if (!before_apply (self, "setting the plan limits", error))
    return FALSE;
  if (!(time_limit_s <= 1e6))   /* also NaN */
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "plan limits: time_limit_s %g is not a number of seconds up to 1e6 (0 = none)", time_limit_s);
      return FALSE;
    }
  self->plan_work_budget = work_budget;
  self->plan_time_limit_s = time_limit_s;
  return TRUE;
}

static gboolean
check_user_chunk (Zg330Backend *self, XrtMemChunk *chunk, guint64 need, const char *what, GError **error)
{
  XrtMemRegion *etm = xrt_device_get_mem_region (self->device, "ETM", NULL);

  if (!xrt_mem_chunk_is_on (chunk, etm))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: the user chunk must be in the ETM region of device %s", what, xrt_device_get_url (self->device));
      return FALSE;
    }
  if (xrt_mem_chunk_get_addr (chunk) % SEGMENT_ALIGN != 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: the user chunk at 0x%" G_GINT64_MODIFIER "x is not 4096-byte aligned", what,
                   xrt_mem_chunk_get_addr (chunk));
      return FALSE;
    }
  if (xrt_mem_chunk_get_size (chunk) < need)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: the user chunk has %" G_GUINT64_FORMAT " bytes but %" G_GUINT64_FORMAT " are needed", what,
                   xrt_mem_chunk_get_size (chunk), need);
      return FALSE;
    }
  return TRUE;
}

/* userReuseSegment / userConnectNetwork place segments and values where the user says: a
 * chip whose compiler placed everything (Buyi) has no such freedom, and says so rather than
 * ignoring the call. */
static gboolean
runtime_places (Zg330Backend *self, const char *call, GError **error)
{
  if (!ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    return TRUE;
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
               "%s: the %s deploys the compiler's own placement of %s (every address is in the network file): "
               "it cannot place segments or values at a user's chunk", call, XRT_BACKEND_GET_CLASS (self)->name,
               xir_network_get_name (self->net));
  return FALSE;
}

gboolean
zg330_backend_user_reuse_segment (Zg330Backend *self, XrtMemChunk *chunk, ZwSegmentType type, GError **error)
{
  g_autofree char *what = NULL;

  CHECK_ARG (self != NULL, "backend", FALSE);
  CHECK_ARG (chunk != NULL, "chunk", FALSE);
  if (!before_apply (self, "userReuseSegment", error) || !runtime_places (self, "userReuseSegment", error))
    return FALSE;
  what = g_strdup_printf ("userReuseSegment(%s)", zw_segment_type_to_string (type));
  if (type != ZW_SEGMENT_WEIGHT && type != ZW_SEGMENT_INSTR && type != ZW_SEGMENT_FTMP)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: only WEIGHT, INSTR and FTMP segments can be reused (INPUT/OUTPUT: userConnectNetwork)", what);
      return FALSE;
    }
  /* FTMP is checked at apply, when the plan's size is known. */
  if (type != ZW_SEGMENT_FTMP && !check_user_chunk (self, chunk, self->seg_size[type], what, error))
    return FALSE;
  if (type == ZW_SEGMENT_FTMP && !check_user_chunk (self, chunk, 0, what, error))
    return FALSE;
  g_clear_pointer (&self->user_segment[type], xrt_mem_chunk_unref);
  self->user_segment[type] = xrt_mem_chunk_ref (chunk);
  return TRUE;
}

gboolean
zg330_backend_user_connect_network (Zg330Backend *self, XrtMemChunk *chunk, gint64 v_id, GError **error)
{
  g_autofree char *what = NULL;
  XirValue *v;
  BChunk *c;
  Connection *cn;
  gint64 *key;

  CHECK_ARG (self != NULL, "backend", FALSE);
  CHECK_ARG (chunk != NULL, "chunk", FALSE);
  if (!runtime_places (self, "userConnectNetwork", error))
    return FALSE;
  what = g_strdup_printf ("userConnectNetwork(v_id %" G_GINT64_FORMAT ")", v_id);
  v = xir_network_get_value (self->net, v_id);
  c = v ? chunk_for_value (self, v) : NULL;
  if (!before_apply (self, "userConnectNetwork", error))
    return FALSE;
  if (c == NULL || c->segment == ZW_SEGMENT_FTMP)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "%s: v_id %" G_GINT64_FORMAT " is not an input or output of ZG330Backend %d's network view",
                   what, v_id, self->id);
      return FALSE;
    }
  /* the value's own bytes (storageBytes, as the manual sizes it) are enough: a chunk that
   * cannot hold the whole compiler chunk is staged (see Connection) */
  if (!check_user_chunk (self, chunk, v->storage_bytes, what, error))
    return FALSE;
  key = g_new (gint64, 1);
  *key = v_id;
  cn = g_new0 (Connection, 1);
  cn->v_id = v_id;
  cn->chunk = xrt_mem_chunk_ref (chunk);
  g_hash_table_replace (self->user_connect, key, cn);
  return TRUE;
}

/* ---- planning --------------------------------------------------------------------------- */

static void
plan_launches (Zg330Backend *self)
{
  gint64 next_id = xir_network_get_max_op_id (self->net) + 1;
  guint layers = 0;

  g_array_set_size (self->launches, 0);
  for (guint i = 0; i < self->hardops->len;)
    {
      BLaunch l = { 0 };
      guint j = i;

      if (self->merge_hardop)
        {
          /* consecutive in the network: no op of another backend in between */
          while (j + 1 < self->hardops->len
                 && ((XirOp *) g_ptr_array_index (self->hardops, j + 1))->index
                        == ((XirOp *) g_ptr_array_index (self->hardops, j))->index + 1)
            j++;
        }
      else if (self->instr_size[i] == 0)
        {
          i++;   /* a zero-copy op with no instructions is not launched on its own */
          continue;
        }
      l.first = i;
      l.last = j;
      l.merge_from = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint k = i; k <= j; k++)
        {
          XirOp *op = g_ptr_array_index (self->hardops, k);
          g_array_append_val (l.merge_from, op->op_id);
          l.layer_count += (guint) MAX (op->layer_count, 0);
          l.instr_size += self->instr_size[k];
        }
      l.instr_offset = self->instr_offset[i];
      l.op_id = j > i ? next_id++ : ((XirOp *) g_ptr_array_index (self->hardops, i))->op_id;
      layers += l.layer_count;
      if (l.instr_size > 0)
        g_array_append_val (self->launches, l);
      else
        g_array_unref (l.merge_from);
      i = j + 1;
    }
  (void) layers;
}

static Zg330OcmProblem *
build_ocm_problem (Zg330Backend *self, guint **chunk_of_ocm)
{
  const Zg330Profile *profile = zg330_sim_get_profile (self->device);
  Zg330OcmProblem *p = zg330_ocm_problem_new (profile);
  g_autofree guint *map = g_new0 (guint, self->chunks->len);

  p->merged = self->merge_hardop;
  /* The problem's op indices count only the hardops that do work: map network indices. */
  {
    guint n_net = xir_network_get_n_ops (self->net);
    g_autofree guint *before = g_new0 (guint, n_net + 1);  /* problem ops with net index < i */

    for (guint i = 0; i < self->hardops->len; i++)
      if (!self->descs[i].zero_copy)
        before[((XirOp *) g_ptr_array_index (self->hardops, i))->index + 1]++;
    for (guint i = 1; i <= n_net; i++)
      before[i] += before[i - 1];
    for (guint i = 0; i < self->chunks->len; i++)
      {
        BChunk *c = &g_array_index (self->chunks, BChunk, i);
        guint first = before[c->first];
        guint last_plus = before[c->last + 1];
        gboolean eligible = c->eligible && c->size <= p->capacity && c->size > 0 && last_plus > first;

        map[i] = zg330_ocm_problem_add_chunk (p, c->id, first, last_plus > first ? last_plus - 1 : first, c->size,
                                              eligible);
      }
  }
  for (guint i = 0; i < self->hardops->len; i++)
    {
      const Zg330HardopDesc *d = &self->descs[i];
      const XirOp *op = d->op;
      guint o;

      if (d->zero_copy)
        continue;
      o = zg330_ocm_problem_add_op (p, op->op_id, d->macs, (guint) MAX (op->layer_count, 0),
                                    d->weight_bytes + d->instr_bytes, 0);
      for (guint k = 0; k < op->inputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->inputs, k);
          guint ci = GPOINTER_TO_UINT (g_hash_table_lookup (self->chunk_of, &v->v_id)) - 1;
          zg330_ocm_problem_add_access (p, o, map[ci], v->storage_bytes, FALSE);
        }
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          guint ci = GPOINTER_TO_UINT (g_hash_table_lookup (self->chunk_of, &v->v_id)) - 1;
          zg330_ocm_problem_add_access (p, o, map[ci], v->storage_bytes, TRUE);
        }
    }
  *chunk_of_ocm = g_steal_pointer (&map);
  return p;
}

/* Keeps option @opt's cost, peak and picks (chunk ids) for the report. */
static void
keep_option (Zg330Backend *self, const Zg330OcmProblem *p, ZwOcmOpt opt, const Zg330OcmResult *r)
{
  self->option_cost_ms[opt] = r->cost_ms;
  self->option_peak[opt] = r->peak_bytes;
  g_clear_pointer (&self->option_picks[opt], g_array_unref);
  self->option_picks[opt] = g_array_sized_new (FALSE, FALSE, sizeof (gint64), r->picked->len);
  for (guint k = 0; k < r->picked->len; k++)
    {
      guint pc = g_array_index (r->picked, guint, k);
      gint64 id = g_array_index (p->chunks, Zg330OcmChunk, pc).id;
      g_array_append_val (self->option_picks[opt], id);
    }
}

/* Plans the options apply did not need, once (the same problem, so the same picks as if
 * they had been planned at apply). */
static void
options_complete (Zg330Backend *self)
{
  g_mutex_lock (&self->options_lock);
  if (self->options_pending)
    {
      g_autofree guint *map = NULL;
      Zg330OcmProblem *p = build_ocm_problem (self, &map);

      for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
        {
          Zg330OcmResult r = { 0 };
          g_autoptr (GError) error = NULL;

          if (self->option_picks[opt] != NULL)
            continue;
          if (zg330_ocm_plan (p, opt, &r, &error))
            keep_option (self, p, opt, &r);
          else
            g_warning ("OCM %s of %s: %s", zw_ocm_opt_to_string (opt), xir_network_get_name (self->net),
                       error->message);
          zg330_ocm_result_clear (&r);
        }
      zg330_ocm_problem_free (p);
      self->options_pending = FALSE;
    }
  g_mutex_unlock (&self->options_lock);
}

static gboolean
plan_ocm (Zg330Backend *self, GError **error)
{
  g_autofree guint *map = NULL;
  Zg330OcmProblem *p;
  gboolean ok = TRUE;

  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      c->in_ocm = FALSE;
      c->ocm_addr = G_MAXUINT64;
    }
  zg330_ocm_result_clear (&self->ocm_result);
  p = build_ocm_problem (self, &map);
  if (p->ops->len == 0)
    {
      /* a view of zero-copy hardops only (a reshape, a concat): nothing runs on the icore,
       * so nothing to place in OCM */
      self->none_cost_ms = 0;
      self->ocm_chosen = ZW_OCM_NONE;
      zg330_ocm_problem_free (p);
      return TRUE;
    }
  if (!zg330_ocm_problem_validate (p, error))
    {
      zg330_ocm_problem_free (p);
      return FALSE;
    }
  self->none_cost_ms = zg330_ocm_estimate (p, NULL);
  /* Every option's picks and cost are kept for the report, whichever is applied; the
   * applied one is taken from these runs (BEST_SCORE: the cheapest, ties to the lower
   * option, as the planner's own BEST_SCORE does) rather than planned a second time.  Only
   * BEST_SCORE needs every planner now: for another option the rest are planned when a
   * report first shows them (options_complete). */
  {
    Zg330OcmResult results[ZW_OCM_N_SLOTS] = { { 0 } };
    ZwOcmOpt chosen = ZW_OCM_NONE;

    for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
      g_clear_pointer (&self->option_picks[opt], g_array_unref);
    for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS && ok; opt++)
      {
        Zg330OcmResult *r = &results[opt];
        if (self->ocm_requested != ZW_OCM_BEST_SCORE && self->ocm_requested != opt)
          continue;
        ok = zg330_ocm_plan (p, opt, r, error);
        if (!ok)
          break;
        keep_option (self, p, opt, r);
        if (self->ocm_requested == ZW_OCM_BEST_SCORE
            && (chosen == ZW_OCM_NONE || r->cost_ms < results[chosen].cost_ms))
          chosen = opt;
      }
    self->options_pending = ok && self->ocm_requested != ZW_OCM_BEST_SCORE;
    if (ok && self->ocm_requested > ZW_OCM_NONE)
      chosen = self->ocm_requested;
    if (ok && chosen == ZW_OCM_NONE)
      ok = zg330_ocm_plan (p, ZW_OCM_NONE, &self->ocm_result, error);
    else if (ok)
      {
        self->ocm_result = results[chosen];
        memset (&results[chosen], 0, sizeof results[chosen]);
        self->ocm_result.asked = self->ocm_requested;
      }
    for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
      zg330_ocm_result_clear (&results[opt]);
  }
  if (ok)
    {
      self->ocm_chosen = self->ocm_result.option;
      for (guint i = 0; i < self->chunks->len; i++)
        {
          BChunk *c = &g_array_index (self->chunks, BChunk, i);
          guint64 addr = self->ocm_result.ocm_addr ? self->ocm_result.ocm_addr[map[i]] : G_MAXUINT64;
          if (addr != G_MAXUINT64)
            {
              c->in_ocm = TRUE;
              c->ocm_addr = addr;
            }
        }
    }
  zg330_ocm_problem_free (p);
  return ok;
}

/* FTMP offsets for the chunks that stay in ETM. */
static gboolean
plan_ftmp (Zg330Backend *self, GError **error)
{
  g_autoptr (GArray) bufs = g_array_new (FALSE, TRUE, sizeof (Zg330Buffer));
  g_autoptr (GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint));
  Zg330PlanStats stats = { 0 };
  Zg330PlanOptions opt = { .capacity = 0, .alignment = FTMP_ALIGN,
                           .work_budget = self->plan_work_budget ? self->plan_work_budget : ETM_PLAN_WORK,
                           .time_limit_s = self->plan_time_limit_s };
  gboolean ok;

  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      Zg330Buffer b = { 0 };

      if (c->segment != ZW_SEGMENT_FTMP || c->in_ocm || c->size == 0)
        continue;
      b.id = c->id;
      b.lower = c->first;
      b.upper = c->last + 1;
      b.size = c->size;
      g_array_append_val (bufs, b);
      g_array_append_val (owners, i);
    }
  self->ftmp_sum = 0;
  for (guint i = 0; i < bufs->len; i++)
    self->ftmp_sum += align_up (g_array_index (bufs, Zg330Buffer, i).size, FTMP_ALIGN);
  self->ftmp_lower_bound = zg330_etm_lower_bound ((Zg330Buffer *) bufs->data, bufs->len, FTMP_ALIGN);
  if (self->etm_optimize)
    ok = zg330_etm_plan ((Zg330Buffer *) bufs->data, bufs->len, &opt, &stats, error);
  else
    ok = zg330_etm_plan_sequential ((Zg330Buffer *) bufs->data, bufs->len, FTMP_ALIGN, &stats);
  if (!ok)
    return FALSE;
  g_free (self->etm_method);
  self->etm_method = g_strdup (stats.method ? stats.method : "?");
  self->etm_seconds = stats.seconds;
  self->etm_work = stats.work;
  self->etm_work_budget = self->etm_optimize ? opt.work_budget : 0;
  self->etm_time_limit_hit = stats.time_limit_hit;
  self->seg_size[ZW_SEGMENT_FTMP] = stats.arena;
  for (guint i = 0; i < bufs->len; i++)
    g_array_index (self->chunks, BChunk, g_array_index (owners, guint, i)).seg_offset =
        g_array_index (bufs, Zg330Buffer, i).offset;
  return TRUE;
}

guint64
zg330_backend_get_logic_segment_size (Zg330Backend *self, ZwSegmentType type, GError **error)
{
  /* FTMP depends on the options: plan with them as they are now (launches too, so that a
   * report of the plan shows them). */
  if (type == ZW_SEGMENT_FTMP && !self->applied && ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    {
      plan_launches (self);   /* the placement is the compiler's: nothing else to plan */
      self->ocm_chosen = ZW_OCM_NONE;
      g_free (self->etm_method);
      self->etm_method = g_strdup ("compiler-placed");
    }
  else if (type == ZW_SEGMENT_FTMP && !self->applied)
    {
      plan_launches (self);
      if (!plan_ocm (self, error) || !plan_ftmp (self, error))
        return 0;
    }
  return (guint) type < ZW_N_SEGMENTS ? self->seg_size[type] : 0;
}

/* ---- apply ------------------------------------------------------------------------------- */

static XrtMemRegion *
region (Zg330Backend *self, const char *name)
{
  return xrt_device_get_mem_region (self->device, name, NULL);
}

/* Where value @v lives now (after apply). */
static gboolean
value_place (Zg330Backend *self, const XirValue *v, Zg330Place *place)
{
  BChunk *c = chunk_for_value (self, v);
  guint64 off = value_offset (self, v);

  if (c == NULL)
    return FALSE;
  if (c->in_ocm)
    {
      place->region = region (self, "OCM");
      place->addr = xrt_mem_region_get_base (place->region) + c->ocm_addr + off;
    }
  else if (c->segment == ZW_SEGMENT_FTMP)
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_FTMP]) + c->seg_offset + off;
    }
  else if (c->fixed)
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (self->phy[c->segment]) + c->seg_offset + off;
    }
  else if (c->io_caller != NULL)
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (c->io_caller) + c->io_caller_off + off;
    }
  else
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (c->io_chunk) + off;
    }
  return TRUE;
}

gboolean
zg330_backend_get_value_place (Zg330Backend *self, gint64 v_id, const char **region_name, guint64 *addr)
{
  XirValue *v = xir_network_get_value (self->net, v_id);
  Zg330Place p;

  Connection *cn;

  if (!self->applied || v == NULL || !value_place (self, v, &p))
    return FALSE;
  /* a staged connection: the value is exchanged with the caller through the user's chunk */
  if ((cn = g_hash_table_lookup (self->user_connect, &v_id)) != NULL && cn->staged)
    {
      p.region = xrt_mem_chunk_get_region (cn->chunk);
      p.addr = xrt_mem_chunk_get_addr (cn->chunk);
    }
  if (region_name)
    *region_name = xrt_mem_region_get_name (p.region);
  if (addr)
    *addr = p.addr;
  return TRUE;
}

/* The hardop as the board is to run it now: the places come from the active backend (the
 * MMU context) and its caller's tensors of this forward. */
static gboolean
bound_op_prepare (XrtDevice *device, gpointer user_data, Zg330HardopCall *call, GError **error)
{
  BoundOp *b = user_data;
  Zg330Backend *self = b->prog->active;
  Zg330HardopBinding bind = { 0 };
  const XirOp *op;
  gboolean ok;

  (void) device;
  if (self == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "instructions at 0x%" G_GINT64_MODIFIER "x ran with no backend's MMU context", b->prog->addr);
      return FALSE;
    }
  op = self->descs[b->hardop].op;
  bind.desc = self->descs[b->hardop];
  bind.inputs = g_new0 (Zg330Place, MAX (op->inputs->len, 1));
  bind.outputs = g_new0 (Zg330Place, MAX (op->outputs->len, 1));
  bind.params = g_new0 (Zg330Place, MAX (op->params->len, 1));
  for (guint k = 0; k < op->inputs->len; k++)
    value_place (self, g_ptr_array_index (op->inputs, k), &bind.inputs[k]);
  for (guint k = 0; k < op->outputs->len; k++)
    value_place (self, g_ptr_array_index (op->outputs, k), &bind.outputs[k]);
  {
    guint64 off = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_WEIGHT]) + self->weight_offset[b->hardop];
    for (guint k = 0; k < op->params->len; k++)
      {
        bind.params[k].region = region (self, "ETM");
        bind.params[k].addr = off;
        off += ((XirValue *) g_ptr_array_index (op->params, k))->storage_bytes;
      }
  }
  ok = zg330_hardop_prepare (&bind, call, error);
  g_free (bind.inputs);
  g_free (bind.outputs);
  g_free (bind.params);
  return ok;
}

static gboolean
bind_program (Zg330Backend *self, GError **error)
{
  guint64 base = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]);
  g_autofree char *key = g_strdup_printf ("%p:%" G_GINT64_MODIFIER "x", (void *) self->device, base);
  Program *prog;

  g_mutex_lock (&program_lock);
  if (programs == NULL)
    programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  prog = g_hash_table_lookup (programs, key);
  if (prog != NULL)
    {
      /* Another backend of this network already bound these instructions (shared INSTR). */
      prog->ref_count++;
      self->program = prog;
      g_mutex_unlock (&program_lock);
      return TRUE;
    }
  prog = g_new0 (Program, 1);
  prog->ref_count = 1;
  prog->device = self->device;
  prog->addr = base;
  prog->size = self->seg_size[ZW_SEGMENT_INSTR];
  g_hash_table_insert (programs, g_strdup (key), prog);
  self->program = prog;
  g_mutex_unlock (&program_lock);

  for (guint i = 0; i < self->hardops->len; i++)
    {
      BoundOp *b;
      if (self->instr_size[i] == 0)
        continue;
      b = g_new0 (BoundOp, 1);
      b->prog = prog;
      b->hardop = i;
      if (!zg330_sim_bind_hardop_call (self->device, base + self->instr_offset[i], self->instr_size[i],
                                       self->merge_hardop, bound_op_prepare, b, g_free, error))
        {
          g_prefix_error (error, "op %" G_GINT64_FORMAT ": ", ((XirOp *) g_ptr_array_index (self->hardops, i))->op_id);
          return FALSE;
        }
    }
  return TRUE;
}

/* The WEIGHT or INSTR segment's bytes, from the params. */
static guint8 *
segment_image (Zg330Backend *self, ZwSegmentType type)
{
  guint8 *img = g_malloc0 (MAX (self->seg_size[type], 1));

  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);
      GPtrArray *list = type == ZW_SEGMENT_WEIGHT ? op->params : op->instr;
      guint64 off = type == ZW_SEGMENT_WEIGHT ? self->weight_offset[i] : self->instr_offset[i];

      for (guint k = 0; k < list->len; k++)
        {
          XirValue *p = g_ptr_array_index (list, k);
          const guint8 *data = xir_network_get_params_data (self->net, p);
          if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
            off = p->mtype.addr - self->fixed_seg_addr[type];   /* checked inside the segment at init */
          if (data != NULL && p->storage_bytes > 0)
            memcpy (img + off, data, p->storage_bytes);
          off += p->storage_bytes;
        }
    }
  return img;
}

static XrtMemChunk *
segment_chunk (Zg330Backend *self, ZwSegmentType type, guint64 size, GError **error)
{
  XrtMemChunk *chunk;

  if (self->user_segment[type] != NULL)
    {
      g_autofree char *what = g_strdup_printf ("userReuseSegment(%s)", zw_segment_type_to_string (type));
      if (!check_user_chunk (self, self->user_segment[type], size, what, error))
        return NULL;
      return xrt_mem_chunk_ref (self->user_segment[type]);
    }
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    chunk = xrt_mem_region_malloc_at (region (self, "ETM"), self->fixed_seg_addr[type], MAX (size, 1), TRUE, error);
  else
    chunk = xrt_mem_region_malloc (region (self, "ETM"), MAX (size, SEGMENT_ALIGN), TRUE, SEGMENT_ALIGN, error);
  if (chunk == NULL)
    g_prefix_error (error, "%s segment of %s (%" G_GUINT64_FORMAT " bytes): ", zw_segment_type_to_string (type),
                    xir_network_get_name (self->net), size);
  return chunk;
}

/* The user chunk that becomes the home of compiler chunk @c: one connected to a value at the
 * chunk's start that can hold the whole chunk (zero-copy). Marks every connection of @c's
 * values zero-copy or staged. */
static XrtMemChunk *
connection_home (Zg330Backend *self, BChunk *c)
{
  XrtMemChunk *home = NULL;

  for (guint k = 0; k < c->values->len; k++)
    {
      XirValue *v = g_ptr_array_index (c->values, k);
      Connection *cn = g_hash_table_lookup (self->user_connect, &v->v_id);
      guint64 off = value_offset (self, v);
      if (cn != NULL && home == NULL && off == 0 && xrt_mem_chunk_get_size (cn->chunk) >= c->size)
        home = cn->chunk;
    }
  for (guint k = 0; k < c->values->len; k++)
    {
      XirValue *v = g_ptr_array_index (c->values, k);
      Connection *cn = g_hash_table_lookup (self->user_connect, &v->v_id);
      guint64 off = value_offset (self, v);
      if (cn != NULL)
        cn->staged = !(cn->chunk == home && off == 0);
    }
  return home;
}

static gint
cmp_int64_ptr (const gint64 *a, const gint64 *b)
{
  return (*a > *b) - (*a < *b);
}

/* The hardop index of the op at absolute index @op_index, or -1 when it is not ours. */
static gint
hardop_at (Zg330Backend *self, gint op_index)
{
  const XirOp *op;
  gpointer idx;

  if (op_index < 0)
    return -1;
  op = xir_network_get_op (self->net, (guint) op_index);
  idx = op ? g_hash_table_lookup (self->hardop_index, &op->op_id) : NULL;
  return idx ? (gint) GPOINTER_TO_UINT (idx) - 1 : -1;
}

/* Staged connections around hardops [@from, @to]: before (@in), the connected values they
 * read from outside are copied from the user's chunk to their home; after, the connected
 * values they produce are copied from where they were written to the user's chunk. */
static gboolean
stage_connections (Zg330Backend *self, guint from, guint to, gboolean in, GError **error)
{
  GHashTableIter it;
  gpointer val;

  g_hash_table_iter_init (&it, self->user_connect);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      Connection *cn = val;
      XirValue *v = xir_network_get_value (self->net, cn->v_id);
      gboolean produced = op_is_mine (self, v->producer), hit = FALSE;
      XrtMemRegion *user_region = xrt_mem_chunk_get_region (cn->chunk);
      guint64 user_addr = xrt_mem_chunk_get_addr (cn->chunk);
      Zg330Place home;
      gboolean ok;

      if (!cn->staged || produced == in)
        continue;
      if (produced)
        {
          gint h = hardop_at (self, v->producer);
          hit = h >= (gint) from && h <= (gint) to;
        }
      else
        for (guint u = 0; u < v->consumers->len && !hit; u++)
          {
            gint h = hardop_at (self, (gint) g_array_index (v->consumers, guint, u));
            hit = h >= (gint) from && h <= (gint) to;
          }
      if (!hit || !value_place (self, v, &home))
        continue;
      ok = in ? xrt_mem_region_copy (home.region, home.addr, user_region, user_addr, v->storage_bytes, error)
              : xrt_mem_region_copy (user_region, user_addr, home.region, home.addr, v->storage_bytes, error);
      if (!ok)
        {
          g_prefix_error (error, "userConnectNetwork(v_id %" G_GINT64_FORMAT "): staging %s the user chunk: ", v->v_id,
                          in ? "from" : "to");
          return FALSE;
        }
    }
  return TRUE;
}

/* Before uploading WEIGHT or INSTR (@image): a chunk that already holds another backend's
 * segment must hold these very bytes (backends of one network view, a fork); otherwise
 * uploading would silently break the other backend (userReuseSegment across networks). */
static gboolean
claim_segment (Zg330Backend *self, ZwSegmentType type, const guint8 *image, GError **error)
{
  XrtMemChunk *chunk = self->phy[type];
  g_autofree char *key = g_strdup_printf ("%p:%" G_GINT64_MODIFIER "x:%d", (void *) self->device,
                                          xrt_mem_chunk_get_addr (chunk), (int) type);
  g_autofree guint8 *held = NULL;
  SegmentOwner *o;
  gboolean same = TRUE;

  g_mutex_lock (&segment_lock);
  if (segment_owners == NULL)
    segment_owners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, segment_owner_free);
  o = g_hash_table_lookup (segment_owners, key);
  if (o != NULL && self->seg_size[type] > 0)
    {
      held = g_malloc (self->seg_size[type]);
      same = xrt_mem_chunk_read (chunk, 0, held, self->seg_size[type], NULL)
             && memcmp (held, image, self->seg_size[type]) == 0;
    }
  if (o != NULL && !same)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "userReuseSegment(%s): the chunk at 0x%" G_GINT64_MODIFIER "x holds the %s of network %s "
                   "(ZG330Backend %d), and ZG330Backend %d of network \"%s\" (%s, ops %u..%u) has other %s bytes: "
                   "backends of different networks may share FTMP only",
                   zw_segment_type_to_string (type), xrt_mem_chunk_get_addr (chunk), zw_segment_type_to_string (type),
                   o->network, o->backend_id, self->id, xir_network_get_name (self->net), xir_network_get_path (self->net),
                   xir_network_view_get_start (self->view),
                   xir_network_view_get_start (self->view) + xir_network_view_get_n_ops (self->view) - 1,
                   zw_segment_type_to_string (type));
      g_mutex_unlock (&segment_lock);
      return FALSE;
    }
  if (o != NULL)
    o->users++;
  else
    {
      o = g_new0 (SegmentOwner, 1);
      o->users = 1;
      o->backend_id = self->id;
      o->network = g_strdup_printf ("\"%s\" (%s, ops %u..%u)", xir_network_get_name (self->net),
                                    xir_network_get_path (self->net), xir_network_view_get_start (self->view),
                                    xir_network_view_get_start (self->view) + xir_network_view_get_n_ops (self->view) - 1);
      g_hash_table_insert (segment_owners, g_strdup (key), o);
    }
  g_mutex_unlock (&segment_lock);
  g_free (self->segment_key[type]);
  self->segment_key[type] = g_steal_pointer (&key);
  return TRUE;
}

/* Allocates the physical segments, uploads weights and instructions, binds the hardops:
 * everything after the plan. */
static gboolean
deploy (Zg330Backend *self, GError **error)
{
  g_autofree guint8 *weights = NULL, *instr = NULL;
  guint64 ocm_arena = 0;

  self->phy[ZW_SEGMENT_WEIGHT] = segment_chunk (self, ZW_SEGMENT_WEIGHT, self->seg_size[ZW_SEGMENT_WEIGHT], error);
  if (self->phy[ZW_SEGMENT_WEIGHT] == NULL)
    return FALSE;
  self->phy[ZW_SEGMENT_INSTR] = segment_chunk (self, ZW_SEGMENT_INSTR, self->seg_size[ZW_SEGMENT_INSTR], error);
  if (self->phy[ZW_SEGMENT_INSTR] == NULL)
    return FALSE;
  self->phy[ZW_SEGMENT_FTMP] = segment_chunk (self, ZW_SEGMENT_FTMP, self->seg_size[ZW_SEGMENT_FTMP], error);
  if (self->phy[ZW_SEGMENT_FTMP] == NULL)
    return FALSE;
  for (guint t = ZW_SEGMENT_INPUT; ZG330_BACKEND_GET_CLASS (self)->compiler_placed && t <= ZW_SEGMENT_OUTPUT; t++)
    if (self->seg_size[t] > 0 && (self->phy[t] = segment_chunk (self, t, self->seg_size[t], error)) == NULL)
      return FALSE;
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      XrtMemChunk *user;

      if (c->in_ocm)
        ocm_arena = MAX (ocm_arena, c->ocm_addr + c->size);
      if (c->segment == ZW_SEGMENT_FTMP || c->fixed || c->in_ocm)
        continue;
      user = connection_home (self, c);
      if (user != NULL)
        {
          c->io_chunk = xrt_mem_chunk_ref (user);
          c->io_user = TRUE;
          continue;
        }
      c->io_chunk = xrt_mem_region_malloc (region (self, "ETM"), MAX (c->size, 1), TRUE, SEGMENT_ALIGN, error);
      if (c->io_chunk == NULL)
        {
          g_prefix_error (error, "%s segment, chunk %" G_GINT64_FORMAT ": ", zw_segment_type_to_string (c->segment), c->id);
          return FALSE;
        }
    }
  if (ocm_arena > xrt_mem_region_get_size (region (self, "OCM")))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_NO_MEMORY,
                   "OCM plan of %s needs %" G_GUINT64_FORMAT " bytes but the device's OCM has %" G_GUINT64_FORMAT,
                   xir_network_get_name (self->net), ocm_arena, xrt_mem_region_get_size (region (self, "OCM")));
      return FALSE;
    }
  weights = segment_image (self, ZW_SEGMENT_WEIGHT);
  instr = segment_image (self, ZW_SEGMENT_INSTR);
  if (!claim_segment (self, ZW_SEGMENT_WEIGHT, weights, error) || !claim_segment (self, ZW_SEGMENT_INSTR, instr, error))
    return FALSE;
  if (!xrt_mem_chunk_write (self->phy[ZW_SEGMENT_WEIGHT], 0, weights, self->seg_size[ZW_SEGMENT_WEIGHT], error)
      || !xrt_mem_chunk_write (self->phy[ZW_SEGMENT_INSTR], 0, instr, self->seg_size[ZW_SEGMENT_INSTR], error))
    {
      g_prefix_error (error, "uploading weights and instructions: ");
      return FALSE;
    }
  if (!bind_program (self, error))
    return FALSE;
  self->applied = TRUE;
  return TRUE;
}

static gboolean
check_can_apply (Zg330Backend *self, GError **error)
{
  if (self->applied)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
                   "ZG330Backend %d (%s): apply() was already called", self->id, xir_network_get_name (self->net));
      return FALSE;
    }
  if (!xir_network_has_params (self->net))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_NO_PARAMS,
                   "%s: apply() needs the network's params: load the .raw (or synthetic params) first",
                   xir_network_get_path (self->net));
      return FALSE;
    }
  return TRUE;
}

gboolean
zg330_backend_apply (Zg330Backend *self, GError **error)
{
  CHECK_ARG (self != NULL, "backend", FALSE);
  if (!check_can_apply (self, error))
    return FALSE;
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    {
      /* the compiler placed every value (place_from_compiler at init): launches, then the
       * segments at the tags' addresses, checked like any recorded plan before deploying */
      g_autoptr (ZwDeployReport) placement = NULL;
      GError *local = NULL;
      plan_launches (self);
      self->ocm_chosen = ZW_OCM_NONE;
      g_free (self->etm_method);
      self->etm_method = g_strdup ("compiler-placed");
      placement = zg330_backend_get_report (self);
      if (!zw_deploy_report_check (placement, NULL, &local))
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "%s: the compiler's placement fails the "
                       "checker: %s", xir_network_get_path (self->net), local->message);
          g_error_free (local);
          return FALSE;
        }
      return deploy (self, error);
    }
  plan_launches (self);
  if (!plan_ocm (self, error))
    return FALSE;
  if (self->ocm_requested == ZW_OCM_NONE)
    self->ocm_chosen = ZW_OCM_NONE;
  if (!plan_ftmp (self, error))
    return FALSE;
  return deploy (self, error);
}

gboolean
zg330_backend_apply_with_plan (Zg330Backend *self, const ZwDeployReport *plan, GError **error)
{
  CHECK_ARG (self != NULL, "backend", FALSE);
  CHECK_ARG (plan != NULL, "plan", FALSE);
  if (!check_can_apply (self, error))
    return FALSE;
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    {
      /* nothing to restore but the compiler's own placement: the plan must state it */
      g_autoptr (ZwDeployReport) own = zg330_backend_get_report (self);
      for (guint i = 0; i < own->values->len; i++)
        {
          const ZwValueInfo *a = &g_array_index (own->values, ZwValueInfo, i);
          const ZwValueInfo *b = zw_deploy_report_find_value (plan, a->v_id);
          if (b == NULL || b->logic_addr != a->logic_addr || b->is_ocm != a->is_ocm)
            {
              g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                           "the plan puts v_id %" G_GINT64_FORMAT " elsewhere than the compiler of %s did", a->v_id,
                           xir_network_get_path (self->net));
              return FALSE;
            }
        }
      return zg330_backend_apply (self, error);
    }
  /* a recorded plan (a snapshot, a deploy report from disk) passes the independent checker
   * before a byte of it reaches the board */
  {
    GError *local = NULL;
    if (!zw_deploy_report_check (plan, NULL, &local))
      {
        g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "the recorded plan fails the checker: %s",
                     local->message);
        g_error_free (local);
        return FALSE;
      }
  }
  if (g_strcmp0 (plan->network_name, xir_network_get_name (self->net)) != 0
      || plan->segments[ZW_SEGMENT_WEIGHT].byte_size != self->seg_size[ZW_SEGMENT_WEIGHT]
      || plan->segments[ZW_SEGMENT_INSTR].byte_size != self->seg_size[ZW_SEGMENT_INSTR])
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "the plan is of network \"%s\" (WEIGHT %" G_GUINT64_FORMAT ", INSTR %" G_GUINT64_FORMAT " bytes), "
                   "not of %s (WEIGHT %" G_GUINT64_FORMAT ", INSTR %" G_GUINT64_FORMAT ")", plan->network_name,
                   plan->segments[ZW_SEGMENT_WEIGHT].byte_size, plan->segments[ZW_SEGMENT_INSTR].byte_size,
                   xir_network_get_name (self->net), self->seg_size[ZW_SEGMENT_WEIGHT], self->seg_size[ZW_SEGMENT_INSTR]);
      return FALSE;
    }
  self->merge_hardop = plan->merge_hardop;
  self->etm_optimize = plan->etm_optimize;
  self->ocm_requested = plan->ocm_requested;
  self->ocm_chosen = plan->ocm_chosen;
  plan_launches (self);
  if (self->launches->len != plan->launches->len)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "the plan has %u launches but this view gives %u", plan->launches->len, self->launches->len);
      return FALSE;
    }
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      const ZwChunkInfo *pc;

      if (c->segment != ZW_SEGMENT_FTMP)
        continue;
      pc = zw_deploy_report_find_chunk (plan, c->id);
      if (pc == NULL || pc->size != c->size
          || !(pc->in_ocm ? zw_range_inside (pc->ocm_addr, pc->size, 0, xrt_mem_region_get_size (region (self, "OCM")))
                          : zw_range_inside (pc->ftmp_offset, pc->size, 0, plan->segments[ZW_SEGMENT_FTMP].byte_size)))
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                       "the plan's chunk %" G_GINT64_FORMAT " is %s", c->id,
                       pc == NULL ? "missing" : pc->size != c->size ? "of another size" : "outside its memory");
          return FALSE;
        }
      c->seg_offset = pc->ftmp_offset;
      c->in_ocm = pc->in_ocm;
      c->ocm_addr = pc->in_ocm ? pc->ocm_addr : G_MAXUINT64;
    }
  self->seg_size[ZW_SEGMENT_FTMP] = plan->segments[ZW_SEGMENT_FTMP].byte_size;
  self->ftmp_lower_bound = plan->lower_bound;
  self->ftmp_sum = plan->sum_of_chunks;
  g_free (self->etm_method);
  self->etm_method = g_strdup_printf ("restored (%s)", plan->etm_method ? plan->etm_method : "");
  self->none_cost_ms = plan->none_cost_ms;
  self->options_pending = FALSE;   /* the plan's options are the report's */
  for (guint i = 0; i < plan->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (plan->ocm_options, ZwOcmOptionResult, i);
      if (o->option <= ZW_OCM_NONE || o->option >= ZW_OCM_N_SLOTS)
        continue;
      self->option_cost_ms[o->option] = o->cost_ms;
      self->option_peak[o->option] = o->peak_bytes;
      g_clear_pointer (&self->option_picks[o->option], g_array_unref);
      self->option_picks[o->option] = g_array_copy (o->picks);
    }
  {
    /* apply places the chunks; the checker verified the values: the placement about to be
     * deployed, as this backend reports it, must be the verified one */
    g_autoptr (ZwDeployReport) own = zg330_backend_get_report (self);
    GError *local = NULL;
    if (!zw_deploy_report_check_agree (plan, own, &local))
      {
        g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "the recorded plan's chunk table "
                     "disagrees with its checked values: %s", local->message);
        g_error_free (local);
        return FALSE;
      }
  }
  return deploy (self, error);
}

Zg330Backend *
zg330_backend_fork (Zg330Backend *self, GError **error)
{
  /* the same class (a BuyiBackend forks a BuyiBackend) */
  g_autoptr (Zg330Backend) child = (Zg330Backend *) xrt_backend_new_of_type (G_OBJECT_TYPE (self), self->view,
                                                                            self->device, error);

  if (child == NULL)
    return NULL;
  child->merge_hardop = self->merge_hardop;
  child->etm_optimize = self->etm_optimize;
  child->ocm_requested = child->ocm_chosen = self->ocm_requested;
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    if (self->user_segment[t] != NULL)
      child->user_segment[t] = xrt_mem_chunk_ref (self->user_segment[t]);
  if (self->applied)
    {
      g_autoptr (ZwDeployReport) plan = zg330_backend_get_report (self);

      /* same network: share what never changes, keep an FTMP of its own */
      for (guint t = ZW_SEGMENT_WEIGHT; t <= ZW_SEGMENT_INSTR; t++)
        {
          g_clear_pointer (&child->user_segment[t], xrt_mem_chunk_unref);
          child->user_segment[t] = xrt_mem_chunk_ref (self->phy[t]);
        }
      g_clear_pointer (&child->user_segment[ZW_SEGMENT_FTMP], xrt_mem_chunk_unref);
      if (!zg330_backend_apply_with_plan (child, plan, error))
        return NULL;
    }
  return g_steal_pointer (&child);
}

/* ---- precheck ------------------------------------------------------------------------- */

gboolean
zg330_backend_precheck (Zg330Backend *self, GError **error)
{
  CHECK_ARG (self != NULL, "backend", FALSE);
  if (!after_apply (self, "precheck", error))
    return FALSE;
  for (int pass = 0; pass < 2; pass++)
    {
      ZwSegmentType type = pass == 0 ? ZW_SEGMENT_INSTR : ZW_SEGMENT_WEIGHT;
      g_autofree guint8 *expect = segment_image (self, type);
      g_autofree guint8 *got = g_malloc0 (MAX (self->seg_size[type], 1));

      if (!xrt_mem_chunk_read (self->phy[type], 0, got, self->seg_size[type], error))
        return FALSE;
      for (guint i = 0; i < self->hardops->len; i++)
        {
          XirOp *op = g_ptr_array_index (self->hardops, i);
          guint64 off = type == ZW_SEGMENT_WEIGHT ? self->weight_offset[i] : self->instr_offset[i];
          guint64 size = type == ZW_SEGMENT_WEIGHT ? self->descs[i].weight_bytes : self->instr_size[i];

          if (size > 0 && memcmp (expect + off, got + off, size) != 0)
            {
              guint64 at = 0;
              while (expect[off + at] == got[off + at])
                at++;
              g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_PRECHECK,
                           "The %s of opid:%" G_GINT64_FORMAT " at PLDDR is incorrect (first wrong byte at "
                           "0x%" G_GINT64_MODIFIER "x: expected 0x%02x, read 0x%02x)",
                           type == ZW_SEGMENT_WEIGHT ? "Weight" : "Instruction", op->op_id,
                           xrt_mem_chunk_get_addr (self->phy[type]) + off + at, expect[off + at], got[off + at]);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ---- launches ------------------------------------------------------------------------- */

guint
zg330_backend_get_n_launches (Zg330Backend *self)
{
  return self->applied ? self->launches->len : 0;
}

gboolean
zg330_backend_run_launch (Zg330Backend *self, guint index, double *icore_ms, double *sync_ms, GError **error)
{
  BLaunch *l;
  Zg330LaunchStats stats = { 0 };
  gboolean ok;

  if (!after_apply (self, "forward", error))
    return FALSE;
  if (index >= self->launches->len)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "launch %u of %u does not exist", index,
                   self->launches->len);
      return FALSE;
    }
  l = &g_array_index (self->launches, BLaunch, index);
  if (!stage_connections (self, l->first, l->last, TRUE, error))
    return FALSE;
  g_rec_mutex_lock (&run_lock);
  self->program->active = self;   /* updateMMU: this backend's segments */
  ok = zg330_device_icore_calc (self->device, xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]) + l->instr_offset,
                                l->instr_size, error);
  if (ok)
    zg330_sim_get_last_launch (self->device, &stats);
  self->part_launch = -1;
  g_rec_mutex_unlock (&run_lock);
  if (!ok || !stage_connections (self, l->first, l->last, FALSE, error))
    return FALSE;
  if (icore_ms)
    *icore_ms = stats.icore_ms;
  if (sync_ms)
    *sync_ms = stats.host_sync_ms;
  return TRUE;
}

/* The hardop index of @op_id inside launch @l, or -1. */
static gint
launch_member (Zg330Backend *self, const BLaunch *l, gint64 op_id)
{
  for (guint k = l->first; k <= l->last; k++)
    if (((XirOp *) g_ptr_array_index (self->hardops, k))->op_id == op_id)
      return (gint) k;
  return -1;
}

gboolean
zg330_backend_can_resume_launch (Zg330Backend *self, guint index, gint64 after_op_id)
{
  Zg330LaunchStats stats;
  const BLaunch *l;
  gint k;

  if (!self->applied || index >= self->launches->len || self->part_launch != (gint) index)
    return FALSE;
  l = &g_array_index (self->launches, BLaunch, index);
  k = launch_member (self, l, after_op_id);
  /* the board must hold exactly what the partial launch left: nothing ran since */
  /* (no launch since open or since a reset that cleared OCM: seq reads 0) */
  zg330_sim_get_last_launch (self->device, &stats);
  return k >= 0 && (guint) k == self->part_last && stats.seq == self->part_seq;
}

gboolean
zg330_backend_run_launch_part (Zg330Backend *self, guint index, gint64 after_op_id, gint64 until_op_id,
                               guint *layer_count, double *icore_ms, double *sync_ms, GError **error)
{
  const BLaunch *l;
  Zg330LaunchStats stats = { 0 };
  guint from, to, layers = 0, want = 0;
  gint a = -1, b = -1;
  guint64 start = 0, end = 0;
  gboolean ok;

  if (icore_ms)
    *icore_ms = 0;
  if (sync_ms)
    *sync_ms = 0;
  if (!after_apply (self, "forward", error))
    return FALSE;
  if (index >= self->launches->len)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "launch %u of %u does not exist", index,
                   self->launches->len);
      return FALSE;
    }
  l = &g_array_index (self->launches, BLaunch, index);
  if ((after_op_id >= 0 && (a = launch_member (self, l, after_op_id)) < 0)
      || (until_op_id >= 0 && (b = launch_member (self, l, until_op_id)) < 0))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "launch %" G_GINT64_FORMAT ": op %" G_GINT64_FORMAT " is not one of its hardops", l->op_id,
                   a < 0 && after_op_id >= 0 ? after_op_id : until_op_id);
      return FALSE;
    }
  if (after_op_id >= 0 && !zg330_backend_can_resume_launch (self, index, after_op_id))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
                   "launch %" G_GINT64_FORMAT ": cannot resume after op %" G_GINT64_FORMAT
                   ": the board did not stop there, or ran something else since", l->op_id, after_op_id);
      return FALSE;
    }
  from = a >= 0 ? (guint) a + 1 : l->first;
  to = b >= 0 ? (guint) b : l->last;
  for (guint k = l->first; k <= to; k++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, k);
      layers += (guint) MAX (op->layer_count, 0);
      if (k < from)
        continue;
      want += (guint) MAX (op->layer_count, 0);
      if (self->instr_size[k] == 0)
        continue;
      if (end == 0)
        start = self->instr_offset[k];
      end = self->instr_offset[k] + self->instr_size[k];
    }
  if (layer_count)
    *layer_count = layers;
  if (end == 0)
    {
      /* only zero-copy ops (no instructions) up to the sync point: the board has nothing
       * to run, what it left stays as it is */
      if (!stage_connections (self, from, to, TRUE, error) || !stage_connections (self, from, to, FALSE, error))
        return FALSE;
      if (to < l->last)
        {
          if (a < 0)
            {
              zg330_sim_get_last_launch (self->device, &stats);
              self->part_seq = stats.seq;
            }
          self->part_launch = (gint) index;
          self->part_last = to;
        }
      else
        self->part_launch = -1;
      return TRUE;
    }
  if (!stage_connections (self, from, to, TRUE, error))
    return FALSE;
  g_rec_mutex_lock (&run_lock);
  self->program->active = self;   /* updateMMU: this backend's segments */
  ok = zg330_device_icore_calc (self->device, xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]) + start,
                                end - start, error);
  if (ok)
    zg330_sim_get_last_launch (self->device, &stats);
  g_rec_mutex_unlock (&run_lock);
  if (!ok)
    {
      self->part_launch = -1;
      g_prefix_error (error, "launch %" G_GINT64_FORMAT " stopped after op %" G_GINT64_FORMAT ": ", l->op_id,
                      ((XirOp *) g_ptr_array_index (self->hardops, to))->op_id);
      return FALSE;
    }
  if (stats.layers != want)
    {
      self->part_launch = -1;
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "launch %" G_GINT64_FORMAT ": the board ran %u layers up to the sync point after op %" G_GINT64_FORMAT
                   ", its layer_count says %u", l->op_id, stats.layers,
                   ((XirOp *) g_ptr_array_index (self->hardops, to))->op_id, want);
      return FALSE;
    }
  if (!stage_connections (self, from, to, FALSE, error))
    return FALSE;
  if (to < l->last)
    {
      self->part_launch = (gint) index;
      self->part_last = to;
      self->part_seq = stats.seq;
    }
  else
    self->part_launch = -1;
  if (icore_ms)
    *icore_ms = stats.icore_ms;
  if (sync_ms)
    *sync_ms = stats.host_sync_ms;
  return TRUE;
}

gboolean
zg330_backend_bind_output (Zg330Backend *self, gint64 v_id, XrtMemChunk *chunk, guint64 offset)
{
  XirValue *v = xir_network_get_value (self->net, v_id);
  BChunk *c = v ? chunk_for_value (self, v) : NULL;

  /* only a chunk that holds this value alone: the caller's bytes around the tensor are
   * never written, and nothing else of the plan moves */
  if (!self->applied || c == NULL || c->segment != ZW_SEGMENT_OUTPUT || c->in_ocm || c->values->len != 1
      || value_offset (self, v) != 0 || chunk == NULL
      || xrt_mem_chunk_get_region (chunk) != region (self, "ETM")
      || offset + v->storage_bytes > xrt_mem_chunk_get_size (chunk))
    return FALSE;
  g_clear_pointer (&c->io_caller, xrt_mem_chunk_unref);
  c->io_caller = xrt_mem_chunk_ref (chunk);
  c->io_caller_off = offset;
  return TRUE;
}

void
zg330_backend_unbind_outputs (Zg330Backend *self)
{
  for (guint i = 0; i < self->chunks->len; i++)
    g_clear_pointer (&g_array_index (self->chunks, BChunk, i).io_caller, xrt_mem_chunk_unref);
}

void
zg330_backend_forward_begin (Zg330Backend *self)
{
  (void) self;
  g_rec_mutex_lock (&run_lock);
}

void
zg330_backend_forward_end (Zg330Backend *self)
{
  (void) self;
  g_rec_mutex_unlock (&run_lock);
}

/* ---- report -------------------------------------------------------------------------- */

static char *
dtype_text (const XirValue *v)
{
  g_autofree char *s = xir_scalar_type_to_string (&v->element.storage);
  return v->element.quantized ? g_strdup_printf ("%s q", s) : g_steal_pointer (&s);
}

static const XirValue *
container_of (Zg330Backend *self, const BChunk *c, const XirValue *v)
{
  const XirValue *best = v;
  guint64 voff = value_offset (self, v);

  for (guint k = 0; k < c->values->len; k++)
    {
      const XirValue *o = g_ptr_array_index (c->values, k);
      guint64 ooff = value_offset (self, o);
      guint64 boff = value_offset (self, best);
      if (o != v && ooff <= voff && ooff + o->storage_bytes >= voff + v->storage_bytes
          && (o->storage_bytes > best->storage_bytes || (o->storage_bytes == best->storage_bytes && ooff < boff && best == v)))
        best = o;
    }
  /* equal-sized twins: the first listed is the real one */
  if (best != v && best->storage_bytes == v->storage_bytes)
    for (guint k = 0; k < c->values->len; k++)
      {
        const XirValue *o = g_ptr_array_index (c->values, k);
        if (o == v)
          return v;
        if (o == best)
          break;
      }
  return best;
}

ZwDeployReport *
zg330_backend_get_report (Zg330Backend *self)
{
  ZwDeployReport *r;
  const Zg330Profile *profile;

  r = zw_deploy_report_new ();
  profile = zg330_sim_get_profile (self->device);
  guint64 seg_base[ZW_N_SEGMENTS];
  guint64 base = 0;
  g_autoptr (GHashTable) launch_of = g_hash_table_new (g_int64_hash, g_int64_equal);

  r->network_name = g_strdup (xir_network_get_name (self->net));
  r->network_path = g_strdup (xir_network_get_path (self->net));
  r->n_ops = xir_network_get_n_ops (self->net);
  r->max_op_id = xir_network_get_max_op_id (self->net);
  r->device_url = g_strdup (xrt_device_get_url (self->device));
  r->ocm_bytes = profile->ocm_bytes;
  r->etm_bandwidth = profile->etm_bandwidth;
  r->ocm_bandwidth = profile->ocm_bandwidth;
  r->icore_clock_hz = profile->icore_clock_hz;
  r->merge_hardop = self->merge_hardop;
  r->etm_optimize = self->etm_optimize;
  r->ocm_requested = self->ocm_requested;
  r->ocm_chosen = self->applied ? self->ocm_chosen : self->ocm_requested;

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
        base = self->fixed_seg_addr[t];   /* the compiler's layout: logic = physical */
      seg_base[t] = base;
      r->segments[t].logic_addr = base;
      r->segments[t].byte_size = self->seg_size[t];
      base = align_up (base + self->seg_size[t], SEGMENT_ALIGN);
      if (self->applied && self->phy[t] != NULL)
        {
          r->segments[t].phy_addr = xrt_mem_chunk_get_addr (self->phy[t]);
          r->segments[t].phy_size = xrt_mem_chunk_get_size (self->phy[t]);
          r->segments[t].user_used = self->user_segment[t] != NULL;
        }
    }
  /* INPUT and OUTPUT are one ETM chunk per value chunk (multi_chunk): the phy segment is
   * summarised by the lowest address and the bytes of its chunks. */
  for (guint i = 0; self->applied && i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      ZwSegmentInfo *seg = &r->segments[c->segment];

      if (c->io_chunk == NULL)
        continue;
      if (seg->phy_size == 0 || xrt_mem_chunk_get_addr (c->io_chunk) < seg->phy_addr)
        seg->phy_addr = xrt_mem_chunk_get_addr (c->io_chunk);
      seg->phy_size += xrt_mem_chunk_get_size (c->io_chunk);
      seg->user_used |= c->io_user;
    }

  for (guint i = 0; i < self->launches->len; i++)
    {
      BLaunch *l = &g_array_index (self->launches, BLaunch, i);
      ZwLaunch zl;
      zw_launch_init (&zl);
      zl.op_id = l->op_id;
      g_array_append_vals (zl.merge_from, l->merge_from->data, l->merge_from->len);
      zl.layer_count = l->layer_count;
      zl.first = (gint) ((XirOp *) g_ptr_array_index (self->hardops, l->first))->index;
      zl.last = (gint) ((XirOp *) g_ptr_array_index (self->hardops, l->last))->index;
      g_array_append_val (r->launches, zl);
      for (guint k = l->first; k <= l->last; k++)
        g_hash_table_insert (launch_of, &((XirOp *) g_ptr_array_index (self->hardops, k))->op_id, GUINT_TO_POINTER (i + 1));
    }

  for (guint i = 0; i < xir_network_get_n_ops (self->net); i++)
    {
      XirOp *op = xir_network_get_op (self->net, i);
      ZwOpInfo info = { 0 };
      gboolean mine = zg330_backend_owns_op (self, op->op_id);

      info.op_id = op->op_id;
      info.index = i;
      info.kind = g_strdup (op->kind == XIR_OP_HARDOP || op->kind == XIR_OP_INPUT || op->kind == XIR_OP_OUTPUT
                                ? xir_op_kind_to_string (op->kind) : op->type_key);
      info.op_class = g_strdup (op->hard_class ? op->hard_class : info.kind);
      info.backend = g_strdup (mine ? XRT_BACKEND_GET_CLASS (self)->short_name : "Host");
      info.layer_count = op->layer_count;
      info.launch = mine ? (gint) GPOINTER_TO_UINT (g_hash_table_lookup (launch_of, &op->op_id)) - 1 : -1;
      g_array_append_val (r->ops, info);
    }

  {
    guint cumulative = 0;
    for (guint i = 0; i < self->hardops->len; i++)
      {
        XirOp *op = g_ptr_array_index (self->hardops, i);
        ZwHardOpInfo h;
        gint launch = (gint) GPOINTER_TO_UINT (g_hash_table_lookup (launch_of, &op->op_id)) - 1;

        zw_hardop_info_init (&h);
        h.op_id = op->op_id;
        h.weights_logic_addr = seg_base[ZW_SEGMENT_WEIGHT] + self->weight_offset[i];
        h.weights_size = self->descs[i].weight_bytes;
        h.instr_logic_addr = seg_base[ZW_SEGMENT_INSTR] + self->instr_offset[i];
        h.instr_size = self->instr_size[i];
        if (self->applied)
          {
            h.weights_phy_addr = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_WEIGHT]) + self->weight_offset[i];
            h.instr_phy_addr = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]) + self->instr_offset[i];
          }
        cumulative += (guint) MAX (op->layer_count, 0);
        {
          /* the estimator's view of the op: its values where the plan put them */
          g_autofree gboolean *in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1));
          g_autofree gboolean *out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1));
          Zg330OpWork work;

          for (guint k = 0; k < op->inputs->len; k++)
            {
              BChunk *c = chunk_for_value (self, g_ptr_array_index (op->inputs, k));
              in_ocm[k] = c != NULL && c->in_ocm;
            }
          for (guint k = 0; k < op->outputs->len; k++)
            {
              BChunk *c = chunk_for_value (self, g_ptr_array_index (op->outputs, k));
              out_ocm[k] = c != NULL && c->in_ocm;
            }
          zg330_hardop_work (&self->descs[i], in_ocm, out_ocm, &work);
          h.est_ms = self->descs[i].zero_copy ? 0.0
                     : zg330_timing_cycles_to_ms (profile, zg330_timing_op_cycles (profile, &work));
          /* the bytes behind that time, for the memory traffic views */
          h.has_traffic = TRUE;
          h.etm_read_bytes = work.etm_read_bytes;
          h.etm_write_bytes = work.etm_write_bytes;
          h.ocm_read_bytes = work.ocm_read_bytes;
          h.ocm_write_bytes = work.ocm_write_bytes;
        }
        h.sync_idx[0] = launch;
        h.sync_idx[1] = (gint) cumulative;
        if (launch >= 0)
          {
            BLaunch *l = &g_array_index (self->launches, BLaunch, launch);
            if (l->merge_from->len > 1)
              h.merged_into = l->op_id;
          }
        g_array_append_val (r->hardops, h);
      }
  }

  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      ZwChunkInfo ci;

      zw_chunk_info_init (&ci);
      ci.id = c->id;
      ci.size = c->size;
      ci.first = c->first;
      ci.last = c->last;
      ci.ftmp_offset = c->seg_offset;
      ci.in_ocm = c->in_ocm;
      ci.ocm_addr = c->ocm_addr;
      ci.eligible = c->eligible;
      for (guint k = 0; k < c->values->len; k++)
        g_array_append_val (ci.v_ids, ((XirValue *) g_ptr_array_index (c->values, k))->v_id);
      if (c->segment == ZW_SEGMENT_FTMP)
        g_array_append_val (r->chunks, ci);
      else
        g_array_unref (ci.v_ids);

      for (guint k = 0; k < c->values->len; k++)
        {
          XirValue *v = g_ptr_array_index (c->values, k);
          const XirValue *real = container_of (self, c, v);
          ZwValueInfo vi;
          guint64 off = value_offset (self, v);
          Zg330Place place;

          zw_value_info_init (&vi);
          vi.v_id = v->v_id;
          vi.producer = v->producer >= 0 ? xir_network_get_op (self->net, (guint) v->producer)->op_id : -1;
          vi.segment = c->segment;
          vi.real = real == v;
          vi.fake_from = real == v ? -1 : real->v_id;
          if (real == v)
            for (guint u = 0; u < c->values->len; u++)
              {
                XirValue *o = g_ptr_array_index (c->values, u);
                if (o != v && container_of (self, c, o) == v)
                  g_array_append_val (vi.real_to, o->v_id);
              }
          vi.is_ocm = c->in_ocm;
          vi.is_host = FALSE;
          vi.byte_size = v->storage_bytes;
          vi.chunk = c->id;
          vi.chunk_offset = off;
          vi.logic_addr = c->in_ocm ? c->ocm_addr + off
                          : seg_base[c->segment] + c->seg_offset + off;
          if (self->applied && value_place (self, v, &place))
            vi.phy_addr = place.addr;
          vi.first = v->first_use;
          vi.last = v->last_use;
          for (guint d = 0; d < v->rank; d++)
            g_array_append_val (vi.shape, v->shape[d]);
          vi.dtype = dtype_text (v);
          vi.layout = g_strdup (v->layout.text);
          g_array_append_val (r->values, vi);
        }
    }

  {
    /* userConnectNetwork, by v_id: zero-copy or staged (decided at apply) */
    g_autoptr (GList) ids = g_hash_table_get_keys (self->user_connect);
    ids = g_list_sort (ids, (GCompareFunc) cmp_int64_ptr);
    for (GList *l = ids; l != NULL; l = l->next)
      {
        Connection *cn = g_hash_table_lookup (self->user_connect, l->data);
        XirValue *v = xir_network_get_value (self->net, cn->v_id);
        BChunk *c = chunk_for_value (self, v);
        ZwConnectionInfo ci = { 0 };
        Zg330Place home;

        ci.v_id = cn->v_id;
        ci.segment = c->segment;
        ci.staged = cn->staged;
        ci.user_addr = xrt_mem_chunk_get_addr (cn->chunk);
        ci.user_size = xrt_mem_chunk_get_size (cn->chunk);
        ci.byte_size = v->storage_bytes;
        ci.chunk = v->mtype.kind == XIR_MEM_CHUNK ? v->mtype.chunk_id : -1;   /* the compiler's id */
        ci.chunk_offset = value_offset (self, v);
        if (self->applied && value_place (self, v, &home))
          ci.home_addr = home.addr;
        g_array_append_val (r->connections, ci);
      }
  }
  r->ftmp_bytes = self->seg_size[ZW_SEGMENT_FTMP];
  r->lower_bound = self->ftmp_lower_bound;
  r->sum_of_chunks = self->ftmp_sum;
  r->etm_method = g_strdup (self->etm_method ? self->etm_method : "");
  r->etm_seconds = self->etm_seconds;
  r->etm_work = self->etm_work;
  r->etm_work_budget = self->etm_work_budget;
  r->etm_time_limit_hit = self->etm_time_limit_hit;
  r->ocm_capacity = profile->ocm_bytes;
  r->none_cost_ms = self->none_cost_ms;
  options_complete (self);
  g_autoptr (GHashTable) size_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint c = self->chunks->len; c-- > 0;)   /* the first chunk of an id wins, as a scan finds it */
    g_hash_table_insert (size_of, &g_array_index (self->chunks, BChunk, c).id,
                         &g_array_index (self->chunks, BChunk, c).size);
  for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
    if (self->option_picks[opt] != NULL)
      {
        ZwOcmOptionResult o;
        zw_ocm_option_result_init (&o);
        o.option = opt;
        o.cost_ms = self->option_cost_ms[opt];
        o.peak_bytes = self->option_peak[opt];
        for (guint k = 0; k < self->option_picks[opt]->len; k++)
          {
            const guint64 *size = g_hash_table_lookup (size_of, &g_array_index (self->option_picks[opt], gint64, k));
            if (size != NULL)
              o.bytes += *size;
          }
        g_array_append_vals (o.picks, self->option_picks[opt]->data, self->option_picks[opt]->len);
        g_array_append_val (r->ocm_options, o);
      }
  return r;
}

/* ---- log ----------------------------------------------------------------------------- */

gboolean
zg330_backend_log (Zg330Backend *self, const char *dir, char **json_path, GError **error)
{
  g_autoptr (ZwDeployReport) report = NULL;
  g_autofree char *logdir = NULL, *base = NULL, *text_path = NULL, *jpath = NULL, *text = NULL;
  GError *local = NULL;

  CHECK_ARG (self != NULL, "backend", FALSE);
  if (!after_apply (self, "log", error))
    return FALSE;
  if (dir != NULL)
    logdir = g_strdup (dir);
  else
    {
      g_autofree char *cwd = g_get_current_dir ();
      logdir = g_build_filename (cwd, ".icraft", "logs", NULL);
    }
  if (g_mkdir_with_parents (logdir, 0755) != 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_IO, "%s: cannot create the log folder: %s", logdir,
                   g_strerror (errno));
      return FALSE;
    }
  {
    /* the network's name comes from its file: a file name in the log folder, never a path */
    g_autofree char *name = zw_file_safe_name (xir_network_get_name (self->net));
    base = g_strdup_printf ("%s_zg330_%d", name, self->id);
  }
  text_path = g_strdup_printf ("%s/%s.log", logdir, base);
  jpath = g_strdup_printf ("%s/%s.json", logdir, base);
  report = zg330_backend_get_report (self);
  text = zw_deploy_report_to_text (report);
  if (!zw_file_set_contents (text_path, text, -1, &local))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_IO, "%s: %s", text_path, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (!zw_deploy_report_save (report, jpath, error))
    return FALSE;
  if (json_path)
    *json_path = g_steal_pointer (&jpath);
  return TRUE;
}

/* ---- the Backend interface ------------------------------------------------------------ */

static gboolean
vf_owns_op (XrtBackend *b, gint64 op_id)
{
  return zg330_backend_owns_op (ZG330_BACKEND (b), op_id);
}

static gboolean
vf_is_applied (XrtBackend *b)
{
  return zg330_backend_is_applied (ZG330_BACKEND (b));
}

static gboolean
vf_apply (XrtBackend *b, GError **error)
{
  return zg330_backend_apply (ZG330_BACKEND (b), error);
}

static gboolean
vf_apply_with_plan (XrtBackend *b, const ZwDeployReport *plan, GError **error)
{
  return zg330_backend_apply_with_plan (ZG330_BACKEND (b), plan, error);
}

static XrtBackend *
vf_fork (XrtBackend *b, GError **error)
{
  return (XrtBackend *) zg330_backend_fork (ZG330_BACKEND (b), error);
}

static ZwDeployReport *
vf_get_report (XrtBackend *b)
{
  return zg330_backend_get_report (ZG330_BACKEND (b));
}

static gboolean
vf_get_value_place (XrtBackend *b, gint64 v_id, const char **region_name, guint64 *addr)
{
  return zg330_backend_get_value_place (ZG330_BACKEND (b), v_id, region_name, addr);
}

static gboolean
vf_can_read_back (XrtBackend *b, const char *region_name)
{
  return g_ascii_strcasecmp (region_name, "OCM") != 0 || ZG330_BACKEND_GET_CLASS (b)->ocm_read_back;
}

/* host <-> board copies at the profile's ETM bandwidth */
static double
vf_copy_ms (XrtBackend *b, guint64 bytes)
{
  const Zg330Profile *p = zg330_sim_get_profile (ZG330_BACKEND (b)->device);
  return p && p->etm_bandwidth > 0 ? (double) bytes / p->etm_bandwidth * 1e3 : 0;
}

static void
vf_forward_begin (XrtBackend *b)
{
  zg330_backend_forward_begin (ZG330_BACKEND (b));
}

static void
vf_forward_end (XrtBackend *b)
{
  zg330_backend_forward_end (ZG330_BACKEND (b));
}

static gboolean
vf_run_launch (XrtBackend *b, guint index, gint64 after_op_id, gint64 until_op_id, XrtStepTime *time, GError **error)
{
  Zg330Backend *self = ZG330_BACKEND (b);
  double icore = 0, sync = 0;
  gboolean ok;

  if (after_op_id < 0 && until_op_id < 0
      && (index >= self->launches->len || g_array_index (self->launches, BLaunch, index).merge_from->len <= 1))
    ok = zg330_backend_run_launch (self, index, &icore, &sync, error);
  else
    ok = zg330_backend_run_launch_part (self, index, after_op_id, until_op_id, NULL, &icore, &sync, error);
  time->hard_ms = icore;
  time->other_ms = sync;
  time->measured_ms = -1;
  return ok;
}

static gboolean
vf_can_resume_launch (XrtBackend *b, guint index, gint64 after_op_id)
{
  return zg330_backend_can_resume_launch (ZG330_BACKEND (b), index, after_op_id);
}

static gboolean
vf_bind_output (XrtBackend *b, gint64 v_id, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  Zg330BackendClass *klass = ZG330_BACKEND_GET_CLASS (b);
  XirValue *v = xir_network_get_value (ZG330_BACKEND (b)->net, v_id);

  /* a value of another backend (a host op's output): not this backend's to refuse */
  if (v == NULL || chunk_for_value (ZG330_BACKEND (b), v) == NULL)
    return FALSE;
  if (!klass->outputs_at_user_addresses)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "forward(inputs, outputs): the %s cannot write outputs at user addresses (v_id %" G_GINT64_FORMAT
                   "): give host tensors, or use the outputs forward() returns", XRT_BACKEND_CLASS (klass)->name, v_id);
      return FALSE;
    }
  return zg330_backend_bind_output (ZG330_BACKEND (b), v_id, chunk, offset);
}

static void
vf_unbind_outputs (XrtBackend *b)
{
  zg330_backend_unbind_outputs (ZG330_BACKEND (b));
}

static void
zg330_backend_class_init (Zg330BackendClass *klass)
{
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = zg330_backend_finalize;
  bclass->name = "ZG330Backend";
  bclass->short_name = "ZG330";
  bclass->runs_on_board = TRUE;
  bclass->reports_io_process = TRUE;
  bclass->default_device_url = "mock://zg330";
  bclass->supports_op = zg330_backend_supports_op;
  bclass->init = backend_init;
  bclass->owns_op = vf_owns_op;
  bclass->is_applied = vf_is_applied;
  bclass->apply = vf_apply;
  bclass->apply_with_plan = vf_apply_with_plan;
  bclass->fork = vf_fork;
  bclass->get_report = vf_get_report;
  bclass->get_value_place = vf_get_value_place;
  bclass->can_read_back = vf_can_read_back;
  bclass->copy_ms = vf_copy_ms;
  bclass->forward_begin = vf_forward_begin;
  bclass->forward_end = vf_forward_end;
  bclass->run_launch = vf_run_launch;
  bclass->can_resume_launch = vf_can_resume_launch;
  bclass->bind_output = vf_bind_output;
  bclass->unbind_outputs = vf_unbind_outputs;
  klass->chip = "ZG330";
  klass->target = "@zhuget(330)";
  klass->device_name = "zg330";
  klass->default_merge_hardop = TRUE;
  klass->default_etm_optimize = TRUE;
  klass->has_ocm_options = TRUE;
  klass->outputs_at_user_addresses = TRUE;
  klass->ocm_read_back = TRUE;
}

__attribute__ ((constructor)) static void
register_zg330_backend (void)
{
  xrt_backend_register (ZG330_TYPE_BACKEND);
}
