/* zg330-ocm-plan.c — OCM planning around the planners (see the header for the model):
 * the problem, the cost model, the planners' shared context, packing, and BEST_SCORE.
 *
 * Every planner (zg330-ocm-planners.c) works on the same context: aligned sizes, the ops
 * that touch each chunk, the per-op load of OCM bytes, and a "candidate" flag for chunks
 * that could ever help (eligible, non-empty, fitting the capacity alone, saving cycles
 * alone).  Costs are integer icore cycles from zg330_timing_op_cycles(), so comparisons
 * are exact and the planners can never disagree with the simulator about what a placement
 * costs.
 */
#include "backends/zg330/zg330-ocm-plan-private.h"

#include <string.h>

#include "backends/zg330/zg330-etm-plan.h"

G_DEFINE_QUARK (zg330-ocm-error-quark, zg330_ocm_error)

/* ---- problem ------------------------------------------------------------------ */

static void
op_clear (gpointer data)
{
  Zg330OcmOp *op = data;
  g_clear_pointer (&op->accesses, g_array_unref);
}

Zg330OcmProblem *
zg330_ocm_problem_new (const Zg330Profile *profile)
{
  Zg330OcmProblem *p = g_new0 (Zg330OcmProblem, 1);

  p->chunks = g_array_new (FALSE, TRUE, sizeof (Zg330OcmChunk));
  p->ops = g_array_new (FALSE, TRUE, sizeof (Zg330OcmOp));
  g_array_set_clear_func (p->ops, op_clear);
  p->profile = profile;
  p->capacity = profile ? profile->ocm_bytes : 0;
  p->alignment = 64;
  p->merged = TRUE;
  return p;
}

void
zg330_ocm_problem_free (Zg330OcmProblem *p)
{
  if (p == NULL)
    return;
  g_clear_pointer (&p->chunks, g_array_unref);
  g_clear_pointer (&p->ops, g_array_unref);
  g_free (p);
}

guint
zg330_ocm_problem_add_chunk (Zg330OcmProblem *p, gint64 id, guint first, guint last,
                             guint64 size, gboolean eligible)
{
  Zg330OcmChunk c = { id, first, last, size, eligible };

  g_return_val_if_fail (p != NULL, 0);
  g_array_append_val (p->chunks, c);
  return p->chunks->len - 1;
}

guint
zg330_ocm_problem_add_op (Zg330OcmProblem *p, gint64 id, guint64 macs, guint layer_count,
                          guint64 fixed_etm_read_bytes, guint64 fixed_etm_write_bytes)
{
  Zg330OcmOp op = { id, macs, layer_count, fixed_etm_read_bytes, fixed_etm_write_bytes,
                    g_array_new (FALSE, TRUE, sizeof (Zg330OcmAccess)) };

  g_return_val_if_fail (p != NULL, 0);
  g_array_append_val (p->ops, op);
  return p->ops->len - 1;
}

void
zg330_ocm_problem_add_access (Zg330OcmProblem *p, guint op, guint chunk, guint64 bytes,
                              gboolean write)
{
  Zg330OcmAccess a = { chunk, bytes, write };
  Zg330OcmOp *o;

  g_return_if_fail (p != NULL && op < p->ops->len);
  o = &g_array_index (p->ops, Zg330OcmOp, op);
  if (o->accesses == NULL)
    o->accesses = g_array_new (FALSE, TRUE, sizeof (Zg330OcmAccess));
  g_array_append_val (o->accesses, a);
}

gboolean
zg330_ocm_problem_validate (const Zg330OcmProblem *p, GError **error)
{
  g_return_val_if_fail (p != NULL, FALSE);

  if (p->profile == NULL)
    {
      g_set_error_literal (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                           "OCM plan: the problem has no device profile (field profile)");
      return FALSE;
    }
  if (p->chunks == NULL || p->ops == NULL)
    {
      g_set_error_literal (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                           "OCM plan: the problem has no chunks or ops array");
      return FALSE;
    }
  guint64 align = MAX (p->alignment, 1);
  if (align > G_MAXUINT32)
    {
      g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                   "OCM plan: alignment %" G_GUINT64_FORMAT " is too large (field alignment)",
                   p->alignment);
      return FALSE;
    }
  guint nc = p->chunks->len, no = p->ops->len;
  for (guint c = 0; c < nc; c++)
    {
      const Zg330OcmChunk *ch = &g_array_index (p->chunks, Zg330OcmChunk, c);
      if (ch->last < ch->first)
        {
          g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                       "OCM plan: chunk %u (id %" G_GINT64_FORMAT "): field last (%u) is "
                       "before field first (%u)", c, ch->id, ch->last, ch->first);
          return FALSE;
        }
      if (ch->last >= no)
        {
          g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                       "OCM plan: chunk %u (id %" G_GINT64_FORMAT "): field last (%u) is "
                       "past the last op index (%u ops)", c, ch->id, ch->last, no);
          return FALSE;
        }
      if (ch->size > G_MAXUINT64 / 4)
        {
          g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                       "OCM plan: chunk %u (id %" G_GINT64_FORMAT "): field size (%"
                       G_GUINT64_FORMAT ") is too large", c, ch->id, ch->size);
          return FALSE;
        }
    }
  for (guint o = 0; o < no; o++)
    {
      const Zg330OcmOp *op = &g_array_index (p->ops, Zg330OcmOp, o);
      guint na = op->accesses ? op->accesses->len : 0;
      for (guint i = 0; i < na; i++)
        {
          const Zg330OcmAccess *a = &g_array_index (op->accesses, Zg330OcmAccess, i);
          if (a->chunk >= nc)
            {
              g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                           "OCM plan: op %u (id %" G_GINT64_FORMAT "): access %u names "
                           "chunk %u (field chunk) but there are %u chunks",
                           o, op->id, i, a->chunk, nc);
              return FALSE;
            }
          const Zg330OcmChunk *ch = &g_array_index (p->chunks, Zg330OcmChunk, a->chunk);
          if (o < ch->first || o > ch->last)
            {
              g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID,
                           "OCM plan: op %u (id %" G_GINT64_FORMAT "): access %u to chunk %u "
                           "(id %" G_GINT64_FORMAT ") is outside the chunk's lifetime "
                           "[%u, %u] (fields first/last)",
                           o, op->id, i, a->chunk, ch->id, ch->first, ch->last);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ---- cost model --------------------------------------------------------------- */

void
zg330_ocm_op_work (const Zg330OcmProblem *p, guint op, const gboolean *in_ocm,
                   Zg330OpWork *work)
{
  g_return_if_fail (p != NULL && op < p->ops->len && work != NULL);

  const Zg330OcmOp *o = &g_array_index (p->ops, Zg330OcmOp, op);
  memset (work, 0, sizeof *work);
  work->macs = o->macs;
  work->layer_count = o->layer_count;
  work->etm_read_bytes = o->fixed_etm_read_bytes;
  work->etm_write_bytes = o->fixed_etm_write_bytes;
  guint na = o->accesses ? o->accesses->len : 0;
  for (guint i = 0; i < na; i++)
    {
      const Zg330OcmAccess *a = &g_array_index (o->accesses, Zg330OcmAccess, i);
      gboolean ocm = in_ocm != NULL && in_ocm[a->chunk];
      if (a->write)
        *(ocm ? &work->ocm_write_bytes : &work->etm_write_bytes) += a->bytes;
      else
        *(ocm ? &work->ocm_read_bytes : &work->etm_read_bytes) += a->bytes;
    }
}

guint64
zg330_ocm_op_cycles (const Zg330OcmProblem *p, guint op, const gboolean *in_ocm)
{
  Zg330OpWork w;

  zg330_ocm_op_work (p, op, in_ocm, &w);
  return zg330_timing_op_cycles (p->profile, &w);
}

static guint64
launch_overheads (const Zg330OcmProblem *p)
{
  guint no = p->ops->len;

  if (no == 0)
    return 0;
  return p->merged ? zg330_timing_launch_overhead (p->profile, TRUE)
                   : (guint64) no * zg330_timing_launch_overhead (p->profile, FALSE);
}

guint64
zg330_ocm_estimate_cycles (const Zg330OcmProblem *p, const gboolean *in_ocm)
{
  g_return_val_if_fail (p != NULL && p->profile != NULL, 0);

  guint64 total = launch_overheads (p);
  for (guint o = 0; o < p->ops->len; o++)
    total += zg330_ocm_op_cycles (p, o, in_ocm);
  return total;
}

double
zg330_ocm_estimate (const Zg330OcmProblem *p, const gboolean *in_ocm)
{
  g_return_val_if_fail (p != NULL && p->profile != NULL, 0.0);
  return zg330_timing_cycles_to_ms (p->profile, zg330_ocm_estimate_cycles (p, in_ocm));
}

/* ---- planning context --------------------------------------------------------- */


static void
ctx_init (Zg330OcmCtx *x, const Zg330OcmProblem *p)
{
  memset (x, 0, sizeof *x);
  x->p = p;
  x->ch = (const Zg330OcmChunk *) p->chunks->data;
  x->nc = p->chunks->len;
  x->no = p->ops->len;
  x->align = MAX (p->alignment, 1);
  x->cap = p->capacity / x->align * x->align;
  x->asz = g_new0 (guint64, MAX (x->nc, 1));
  x->cand = g_new0 (gboolean, MAX (x->nc, 1));
  x->in = g_new0 (gboolean, MAX (x->nc, 1));
  x->load = g_new0 (guint64, MAX (x->no, 1));
  x->over = g_new0 (guint64, MAX (x->nc, 1));
  x->cops_start = g_new0 (guint, x->nc + 1);

  for (guint c = 0; c < x->nc; c++)
    x->asz[c] = (x->ch[c].size + x->align - 1) / x->align * x->align;

  /* Distinct (chunk, op) pairs: an op may list a chunk twice (e.g. in-place). */
  guint *last_op = g_new (guint, MAX (x->nc, 1));
  for (guint c = 0; c < x->nc; c++)
    last_op[c] = G_MAXUINT;
  for (guint o = 0; o < x->no; o++)
    {
      const GArray *acc = g_array_index (p->ops, Zg330OcmOp, o).accesses;
      for (guint i = 0; acc && i < acc->len; i++)
        {
          guint c = g_array_index (acc, Zg330OcmAccess, i).chunk;
          if (last_op[c] != o)
            {
              last_op[c] = o;
              x->cops_start[c + 1]++;
            }
        }
    }
  for (guint c = 0; c < x->nc; c++)
    {
      x->cops_start[c + 1] += x->cops_start[c];
      last_op[c] = G_MAXUINT;
    }
  guint total = x->cops_start[x->nc];
  x->cops = g_new (guint, MAX (total, 1));
  x->save1 = g_new0 (guint64, MAX (total, 1));
  guint *fill = g_memdup2 (x->cops_start, sizeof (guint) * (x->nc + 1));
  for (guint o = 0; o < x->no; o++)
    {
      const GArray *acc = g_array_index (p->ops, Zg330OcmOp, o).accesses;
      for (guint i = 0; acc && i < acc->len; i++)
        {
          guint c = g_array_index (acc, Zg330OcmAccess, i).chunk;
          if (last_op[c] != o)
            {
              last_op[c] = o;
              x->cops[fill[c]++] = o;
            }
        }
    }
  g_free (fill);
  g_free (last_op);

  /* Stand-alone savings decide the candidates. */
  for (guint c = 0; c < x->nc; c++)
    {
      if (!x->ch[c].eligible || x->ch[c].size == 0 || x->asz[c] > x->cap)
        continue;
      gint64 sum = 0;
      for (guint k = x->cops_start[c]; k < x->cops_start[c + 1]; k++)
        {
          guint o = x->cops[k];
          guint64 base = zg330_ocm_op_cycles (p, o, x->in);
          x->in[c] = TRUE;
          guint64 with = zg330_ocm_op_cycles (p, o, x->in);
          x->in[c] = FALSE;
          x->save1[k] = base > with ? base - with : 0;
          sum += (gint64) base - (gint64) with;
        }
      x->cand[c] = sum > 0;
    }
}

static void
ctx_clear (Zg330OcmCtx *x)
{
  g_free (x->asz);
  g_free (x->cand);
  g_free (x->in);
  g_free (x->load);
  g_free (x->over);
  g_free (x->cops_start);
  g_free (x->cops);
  g_free (x->save1);
}

static void
ctx_reset (Zg330OcmCtx *x)
{
  memset (x->in, 0, sizeof (gboolean) * MAX (x->nc, 1));
  memset (x->load, 0, sizeof (guint64) * MAX (x->no, 1));
}

gint64
zg330_ocm_ctx_gain (Zg330OcmCtx *x, guint c)
{
  gboolean was = x->in[c];
  gint64 d = 0;

  for (guint k = x->cops_start[c]; k < x->cops_start[c + 1]; k++)
    {
      guint o = x->cops[k];
      x->in[c] = FALSE;
      guint64 without = zg330_ocm_op_cycles (x->p, o, x->in);
      x->in[c] = TRUE;
      guint64 with = zg330_ocm_op_cycles (x->p, o, x->in);
      d += (gint64) without - (gint64) with;
    }
  x->in[c] = was;
  return d;
}

/* ---- packing and results ------------------------------------------------------- */

/* Work budgets (the ETM planner's work units) of the exact search for one set (see
 * ctx_try_pack): the options' picks and the repair's trials (up to about 0.1-0.3 s of
 * one core), and the refill's cheaper trials.  Counted, not timed: the same on every machine and at
 * any load. */
#define PACK_SEARCH_WORK   G_GUINT64_CONSTANT (50000000)
#define REFILL_SEARCH_WORK G_GUINT64_CONSTANT (5000000)

/* Packs the working set with the ETM planner (the OCM as its arena), asking only for
 * a fit (zg330_etm_plan_fit stops at the first placement within the capacity).  Its
 * greedy placements and its search are deterministic and bounded by @work nodes, so
 * the outcome depends on the input only (a set whose search runs out of work counts
 * as unpackable).  On success writes @addr (when given) and @arena (the picks'
 * extent); on failure records in x->over where the planner's best placement put each
 * pick. */
static gboolean
ctx_try_pack (Zg330OcmCtx *x, guint64 *addr, guint64 *arena, guint64 work)
{
  g_autoptr (GArray) buf = g_array_new (FALSE, FALSE, sizeof (Zg330Buffer));
  g_autoptr (GArray) which = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean ok = TRUE;

  for (guint c = 0; c < x->nc; c++)
    if (x->in[c])
      {
        Zg330Buffer b = { x->ch[c].id, x->ch[c].first, (gint64) x->ch[c].last + 1,
                          x->ch[c].size, 0 };
        g_array_append_val (buf, b);
        g_array_append_val (which, c);
      }
  if (buf->len > 0)
    {
      Zg330PlanOptions opt = { .capacity = x->cap, .alignment = x->align, .work_budget = work };
      Zg330PlanStats st;
      g_autoptr (GError) err = NULL;
      ok = zg330_etm_plan_fit ((Zg330Buffer *) buf->data, buf->len, &opt, &st, &err);
      if (!ok)
        {
          g_debug ("OCM plan: %s", err->message);
          if (!g_error_matches (err, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY))
            g_error ("OCM plan: the ETM planner rejected the OCM picks: %s", err->message);
        }
    }
  guint64 extent = 0;
  for (guint i = 0; i < which->len; i++)
    {
      guint c = g_array_index (which, guint, i);
      extent = MAX (extent, g_array_index (buf, Zg330Buffer, i).offset + x->asz[c]);
    }
  if (addr && ok)
    {
      for (guint c = 0; c < x->nc; c++)
        addr[c] = NOT_IN_OCM;
      for (guint i = 0; i < which->len; i++)
        addr[g_array_index (which, guint, i)] = g_array_index (buf, Zg330Buffer, i).offset;
    }
  if (arena && ok)
    *arena = extent;
  if (!ok)
    {
      /* What did not fit: the planner's best placement, picks ending past the OCM. */
      for (guint i = 0; i < which->len; i++)
        {
          guint c = g_array_index (which, guint, i);
          guint64 off = g_array_index (buf, Zg330Buffer, i).offset;
          x->over[c] = off + x->asz[c] > x->cap ? NOT_IN_OCM : off;
        }
    }
  return ok;
}

typedef struct {
  guint  c;
  double v;
} Ranked;

static gint
cmp_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *ra = a, *rb = b;

  if (ra->v != rb->v)
    return ra->v < rb->v ? -1 : 1;
  return ra->c < rb->c ? -1 : ra->c > rb->c;
}

/* Planner calls the refill may spend, and how many single drops the repair tries (counts,
 * not times, so the outcome stays deterministic). */
#define PACK_TRIAL_CALLS 24
#define PACK_TRIALS_PER_SPOT 4

/* Picks live at the first op index of highest OCM load, by gain, lowest first (ties:
 * larger first, then index). */
static GArray *
ctx_tight_picks (Zg330OcmCtx *x)
{
  GArray *picks = g_array_new (FALSE, FALSE, sizeof (Ranked));
  guint tmax = 0;

  for (guint t = 1; t < x->no; t++)
    if (x->load[t] > x->load[tmax])
      tmax = t;
  for (guint c = 0; c < x->nc; c++)
    if (x->in[c] && x->ch[c].first <= tmax && tmax <= x->ch[c].last)
      {
        Ranked r = { c, (double) zg330_ocm_ctx_gain (x, c) - (double) x->asz[c] * 1e-12 };
        g_array_append_val (picks, r);
      }
  g_array_sort (picks, cmp_ranked);
  return picks;
}

/* Gives the working set OCM offsets.  A set that fits the capacity at every op may
 * still not pack (interval packing is harder than the load).  Then, at the op of
 * highest load, the few picks worth least are tried: the first whose removal lets the
 * set pack is dropped.  If none does, the picks that the planner's best placement put
 * past the OCM are dropped (the rest is then packed by that placement).  A refill pass
 * re-adds what still fits and packs.  @addr and the returned arena are those of the
 * last placement that packed. */
static guint64
ctx_pack (Zg330OcmCtx *x, guint64 *addr, guint *dropped)
{
  guint64 arena = 0;

  if (ctx_try_pack (x, addr, &arena, PACK_SEARCH_WORK))
    return arena;

  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint64 *first_fail = g_memdup2 (x->over, sizeof (guint64) * MAX (x->nc, 1));
  g_autoptr (GArray) picks = ctx_tight_picks (x);
  gboolean packed = FALSE;
  for (guint i = 0; i < picks->len && i < PACK_TRIALS_PER_SPOT && !packed; i++)
    {
      guint c = g_array_index (picks, Ranked, i).c;
      zg330_ocm_ctx_set (x, c, FALSE);
      if (ctx_try_pack (x, addr, &arena, PACK_SEARCH_WORK))
        {
          packed = TRUE;
          g_array_append_val (out, c);
        }
      else
        zg330_ocm_ctx_set (x, c, TRUE);
    }
  if (!packed)
    {
      arena = 0;
      for (guint c = 0; c < x->nc; c++)
        {
          if (!x->in[c])
            addr[c] = NOT_IN_OCM;
          else if (first_fail[c] == NOT_IN_OCM)
            {
              zg330_ocm_ctx_set (x, c, FALSE);
              addr[c] = NOT_IN_OCM;
              g_array_append_val (out, c);
            }
          else
            {
              addr[c] = first_fail[c];
              arena = MAX (arena, addr[c] + x->asz[c]);
            }
        }
    }
  *dropped += out->len;

  /* Refill: candidates that save cycles and fit, densest first, kept if they pack. */
  g_autoptr (GArray) extra = g_array_new (FALSE, FALSE, sizeof (Ranked));
  for (guint c = 0; c < x->nc; c++)
    if (x->cand[c] && !x->in[c] && zg330_ocm_ctx_fits (x, c))
      {
        gint64 g = zg330_ocm_ctx_gain (x, c);
        if (g > 0)
          {
            Ranked r = { c, -(double) g / ((double) x->asz[c]
                                           * (double) (x->ch[c].last - x->ch[c].first + 1)) };
            g_array_append_val (extra, r);
          }
      }
  g_array_sort (extra, cmp_ranked);
  for (guint i = 0, tries = 0; i < extra->len && tries < PACK_TRIAL_CALLS; i++)
    {
      guint c = g_array_index (extra, Ranked, i).c;
      if (!zg330_ocm_ctx_fits (x, c) || zg330_ocm_ctx_gain (x, c) <= 0)
        continue;
      zg330_ocm_ctx_set (x, c, TRUE);
      tries++;
      if (ctx_try_pack (x, addr, &arena, REFILL_SEARCH_WORK))
        {
          for (guint k = 0; k < out->len; k++)
            if (g_array_index (out, guint, k) == c)
              (*dropped)--;
        }
      else
        zg330_ocm_ctx_set (x, c, FALSE);
    }

  /* @addr and @arena hold the last set that packed: the current one. */
  return arena;
}

static void
result_fill (Zg330OcmCtx *x, ZwOcmOpt option, gboolean exact, Zg330OcmResult *r)
{
  guint dropped = 0;

  r->option = option;
  r->n_chunks = x->nc;
  r->ocm_addr = g_new (guint64, MAX (x->nc, 1));
  r->arena = ctx_pack (x, r->ocm_addr, &dropped);
  r->cycles = zg330_ocm_estimate_cycles (x->p, x->in);
  if (r->cycles > r->etm_only_cycles)
    {
      /* Never slower than NONE. */
      for (guint c = 0; c < x->nc; c++)
        {
          zg330_ocm_ctx_set (x, c, FALSE);
          r->ocm_addr[c] = NOT_IN_OCM;
        }
      r->arena = 0;
      r->cycles = r->etm_only_cycles;
    }
  r->dropped = dropped;
  r->exact = exact && dropped == 0;
  r->cost_ms = zg330_timing_cycles_to_ms (x->p->profile, r->cycles);
  r->picked = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint c = 0; c < x->nc; c++)
    if (x->in[c])
      g_array_append_val (r->picked, c);
  r->peak_bytes = 0;
  for (guint t = 0; t < x->no; t++)
    r->peak_bytes = MAX (r->peak_bytes, x->load[t]);
}

void
zg330_ocm_result_clear (Zg330OcmResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->picked, g_array_unref);
  g_clear_pointer (&r->ocm_addr, g_free);
  memset (r, 0, sizeof *r);
}

/* Runs the planner of @option into @r (whose etm_only fields are set). */
static void
run_option (Zg330OcmCtx *x, ZwOcmOpt option, Zg330OcmPlanner plan, Zg330OcmResult *r)
{
  ctx_reset (x);
  result_fill (x, option, plan (x), r);
}

gboolean
zg330_ocm_plan (const Zg330OcmProblem *p, ZwOcmOpt option, Zg330OcmResult *out, GError **error)
{
  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  gint64 t0 = g_get_monotonic_time ();
  Zg330OcmPlanner plan = zg330_ocm_planner_lookup (option);
  if (plan == NULL && option != ZW_OCM_BEST_SCORE)
    {
      g_autofree char *known = zw_ocm_opt_dup_short_list ();
      g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_OPTION,
                   "OCM plan: option %d is no OcmOpt with a planner (expected one of %s)", (int) option, known);
      return FALSE;
    }
  if (!zg330_ocm_problem_validate (p, error))
    return FALSE;

  Zg330OcmCtx x;
  ctx_init (&x, p);
  Zg330OcmResult best = { 0 };
  best.etm_only_cycles = zg330_ocm_estimate_cycles (p, NULL);
  double costs[ZW_OCM_N_SLOTS];
  costs[ZW_OCM_NONE] = zg330_timing_cycles_to_ms (p->profile, best.etm_only_cycles);
  for (int o = ZW_OCM_NONE + 1; o < ZW_OCM_N_SLOTS; o++)
    costs[o] = -1.0;

  if (option != ZW_OCM_BEST_SCORE)
    {
      run_option (&x, option, plan, &best);
      if (option > ZW_OCM_NONE)
        costs[option] = best.cost_ms;
    }
  else
    {
      for (int o = ZW_OCM_NONE + 1; o < ZW_OCM_N_SLOTS; o++)
        {
          Zg330OcmPlanner each = zg330_ocm_planner_lookup ((ZwOcmOpt) o);
          Zg330OcmResult r = { 0 };

          if (each == NULL)
            continue;
          r.etm_only_cycles = best.etm_only_cycles;
          run_option (&x, (ZwOcmOpt) o, each, &r);
          costs[o] = r.cost_ms;
          /* Strictly cheaper only: ties keep the lower option number. */
          if (best.picked == NULL || r.cycles < best.cycles)
            {
              zg330_ocm_result_clear (&best);
              best = r;
            }
          else
            {
              /* An exact programme proves the others' equal cost optimal too. */
              if (r.exact && r.cycles == best.cycles)
                best.exact = TRUE;
              zg330_ocm_result_clear (&r);
            }
        }
    }
  ctx_clear (&x);

  best.asked = option;
  best.etm_only_cost_ms = costs[ZW_OCM_NONE];
  memcpy (best.option_cost_ms, costs, sizeof costs);
  best.seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
  *out = best;
  return TRUE;
}
