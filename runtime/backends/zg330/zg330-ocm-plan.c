/* zg330-ocm-plan.c — the ZG330Backend's OCM options (see the header for the model).
 *
 * All three options work on the same context: aligned sizes, the ops that touch each
 * chunk, the per-op load of OCM bytes, and a "candidate" flag for chunks that could ever
 * help (eligible, non-empty, fitting the capacity alone, saving cycles alone).  Costs are
 * integer icore cycles from zg330_timing_op_cycles(), so comparisons are exact and the
 * options can never disagree with the simulator about what a placement costs.
 */
#include "backends/zg330/zg330-ocm-plan.h"

#include <string.h>

#include "backends/zg330/zg330-etm-plan.h"

G_DEFINE_QUARK (zg330-ocm-error-quark, zg330_ocm_error)

#define NOT_IN_OCM G_MAXUINT64

const char *
zg330_ocm_opt_to_string (int option)
{
  switch (option)
    {
    case ZG330_OCM_OPT_BEST_SCORE: return "BEST_SCORE";
    case ZG330_OCM_OPT_NONE: return "NONE";
    case ZG330_OCM_OPT_OPTION1: return "OPTION1";
    case ZG330_OCM_OPT_OPTION2: return "OPTION2";
    case ZG330_OCM_OPT_OPTION3: return "OPTION3";
    default: return NULL;
    }
}

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

static guint64
op_cycles (const Zg330OcmProblem *p, guint op, const gboolean *in_ocm)
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
    total += op_cycles (p, o, in_ocm);
  return total;
}

double
zg330_ocm_estimate (const Zg330OcmProblem *p, const gboolean *in_ocm)
{
  g_return_val_if_fail (p != NULL && p->profile != NULL, 0.0);
  return zg330_timing_cycles_to_ms (p->profile, zg330_ocm_estimate_cycles (p, in_ocm));
}

/* ---- planning context --------------------------------------------------------- */

typedef struct {
  const Zg330OcmProblem *p;
  const Zg330OcmChunk   *ch;
  guint                  nc, no;
  guint64                align, cap;
  guint64               *asz;        /* aligned sizes */
  guint                 *cops_start; /* CSR: distinct ops touching each chunk, ascending */
  guint                 *cops;
  guint64               *save1;      /* per CSR entry: cycles saved at that op by the chunk alone */
  gboolean              *cand;       /* could ever help */
  gboolean              *in;         /* the working set */
  guint64               *load;       /* per op: aligned OCM bytes live */
  guint64               *over;       /* per chunk: offset in the last failed packing, or
                                      * NOT_IN_OCM where it ended past the OCM */
} Ctx;

static void
ctx_init (Ctx *x, const Zg330OcmProblem *p)
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
          guint64 base = op_cycles (p, o, x->in);
          x->in[c] = TRUE;
          guint64 with = op_cycles (p, o, x->in);
          x->in[c] = FALSE;
          x->save1[k] = base > with ? base - with : 0;
          sum += (gint64) base - (gint64) with;
        }
      x->cand[c] = sum > 0;
    }
}

static void
ctx_clear (Ctx *x)
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
ctx_reset (Ctx *x)
{
  memset (x->in, 0, sizeof (gboolean) * MAX (x->nc, 1));
  memset (x->load, 0, sizeof (guint64) * MAX (x->no, 1));
}

/* Cycles saved by chunk @c on top of the working set (negative: it would cost). */
static gint64
ctx_gain (Ctx *x, guint c)
{
  gboolean was = x->in[c];
  gint64 d = 0;

  for (guint k = x->cops_start[c]; k < x->cops_start[c + 1]; k++)
    {
      guint o = x->cops[k];
      x->in[c] = FALSE;
      guint64 without = op_cycles (x->p, o, x->in);
      x->in[c] = TRUE;
      guint64 with = op_cycles (x->p, o, x->in);
      d += (gint64) without - (gint64) with;
    }
  x->in[c] = was;
  return d;
}

static gboolean
ctx_fits (const Ctx *x, guint c)
{
  for (guint t = x->ch[c].first; t <= x->ch[c].last; t++)
    if (x->load[t] + x->asz[c] > x->cap)
      return FALSE;
  return TRUE;
}

static void
ctx_set (Ctx *x, guint c, gboolean in)
{
  if (x->in[c] == in)
    return;
  x->in[c] = in;
  for (guint t = x->ch[c].first; t <= x->ch[c].last; t++)
    x->load[t] = in ? x->load[t] + x->asz[c] : x->load[t] - x->asz[c];
}

/* ---- OPTION1: global scoring ---------------------------------------------------- */

/* A chunk's place in OPTION1's queue: the best score first, ties to the lower index (the
 * order a scan by index would pick in). */
typedef struct {
  guint  c;
  double score;
} Scored;

static gint
cmp_scored (gconstpointer a, gconstpointer b, gpointer data)
{
  const Scored *sa = a, *sb = b;

  (void) data;
  if (sa->score != sb->score)
    return sa->score > sb->score ? -1 : 1;
  return sa->c < sb->c ? -1 : sa->c > sb->c;
}

/* (Re)queues chunk @c by its score on top of the working set: queued while it gains. */
static void
rescore (Ctx *x, guint c, Scored *entry, GSequenceIter **where, GSequence *queue)
{
  gint64 g = ctx_gain (x, c);

  if (where[c] != NULL)
    {
      g_sequence_remove (where[c]);
      where[c] = NULL;
    }
  if (g > 0)
    {
      entry[c].c = c;
      entry[c].score = (double) g / ((double) x->asz[c] * (double) (x->ch[c].last - x->ch[c].first + 1));
      where[c] = g_sequence_insert_sorted (queue, &entry[c], cmp_scored, NULL);
    }
}

/* Greedy: repeatedly the chunk of best score (gain per aligned byte x lifetime) that still
 * fits.  A pick changes the gain only of chunks that share an op with it, so only those
 * are re-scored; the load only grows, so a chunk found not to fit is dropped for good.
 * The picks are those of rescanning every chunk at every step, in O(n log n). */
static void
plan_option1 (Ctx *x)
{
  gboolean *alive = g_memdup2 (x->cand, sizeof (gboolean) * MAX (x->nc, 1));
  Scored *entry = g_new0 (Scored, MAX (x->nc, 1));
  GSequenceIter **where = g_new0 (GSequenceIter *, MAX (x->nc, 1));
  guint *seen = g_new (guint, MAX (x->nc, 1));
  GSequence *queue = g_sequence_new (NULL);
  guint round = 0;

  for (guint c = 0; c < x->nc; c++)
    seen[c] = G_MAXUINT;
  for (guint c = 0; c < x->nc; c++)
    if (alive[c] && !x->in[c])
      rescore (x, c, entry, where, queue);
  while (!g_sequence_is_empty (queue))
    {
      GSequenceIter *top = g_sequence_get_begin_iter (queue);
      guint best = ((Scored *) g_sequence_get (top))->c;

      g_sequence_remove (top);
      where[best] = NULL;
      if (!ctx_fits (x, best))
        {
          alive[best] = FALSE;
          continue;
        }
      ctx_set (x, best, TRUE);
      round++;
      for (guint k = x->cops_start[best]; k < x->cops_start[best + 1]; k++)
        {
          const GArray *acc = g_array_index (x->p->ops, Zg330OcmOp, x->cops[k]).accesses;
          for (guint i = 0; acc && i < acc->len; i++)
            {
              guint c = g_array_index (acc, Zg330OcmAccess, i).chunk;
              if (c == best || !alive[c] || x->in[c] || seen[c] == round)
                continue;
              seen[c] = round;
              rescore (x, c, entry, where, queue);
            }
        }
    }
  g_sequence_free (queue);
  g_free (seen);
  g_free (where);
  g_free (entry);
  g_free (alive);
}

/* ---- OPTION3: sequential evict-by-score ----------------------------------------- */

static void
plan_option3 (Ctx *x)
{
  GArray *live = g_array_new (FALSE, FALSE, sizeof (guint));   /* chunks in OCM */
  GArray *evicted = g_array_new (FALSE, FALSE, sizeof (guint));
  guint *order = g_new (guint, MAX (x->nc, 1));
  guint n = 0;

  for (guint c = 0; c < x->nc; c++)
    if (x->cand[c])
      order[n++] = c;
  /* Candidates by first op index (stable: by index within one op). */
  guint *by_first = g_new0 (guint, x->no + 1);
  for (guint i = 0; i < n; i++)
    by_first[x->ch[order[i]].first + 1]++;
  for (guint t = 0; t < x->no; t++)
    by_first[t + 1] += by_first[t];
  guint *starts = g_new (guint, MAX (n, 1));
  guint *fill = g_memdup2 (by_first, sizeof (guint) * (x->no + 1));
  for (guint i = 0; i < n; i++)
    starts[fill[x->ch[order[i]].first]++] = order[i];
  g_free (fill);

  for (guint t = 0; t < x->no; t++)
    {
      for (guint k = by_first[t]; k < by_first[t + 1]; k++)
        {
          guint c = starts[k];
          if (ctx_gain (x, c) > 0)
            {
              ctx_set (x, c, TRUE);
              g_array_append_val (live, c);
            }
        }
      if (x->load[t] > x->cap)
        {
          /* Chunks dead before t are never evicted: drop them, keeping the order. */
          guint kept = 0;
          for (guint i = 0; i < live->len; i++)
            {
              guint c = g_array_index (live, guint, i);
              if (x->ch[c].last >= t)
                g_array_index (live, guint, kept++) = c;
            }
          g_array_set_size (live, kept);
        }
      while (x->load[t] > x->cap)
        {
          guint worst = G_MAXUINT, worst_i = 0;
          double worst_score = 0.0;
          for (guint i = 0; i < live->len; i++)
            {
              guint c = g_array_index (live, guint, i);
              if (x->ch[c].last < t || x->ch[c].first > t)
                continue;
              double score = (double) ctx_gain (x, c)
                             / ((double) x->asz[c] * (double) (x->ch[c].last - t + 1));
              if (worst == G_MAXUINT || score < worst_score
                  || (score == worst_score && x->asz[c] > x->asz[worst]))
                {
                  worst = c;
                  worst_i = i;
                  worst_score = score;
                }
            }
          g_assert (worst != G_MAXUINT);
          ctx_set (x, worst, FALSE);
          g_array_remove_index (live, worst_i);
          g_array_append_val (evicted, worst);
        }
    }

  /* Room freed by later evictions may fit an earlier victim again. */
  for (guint i = 0; i < evicted->len; i++)
    {
      guint c = g_array_index (evicted, guint, i);
      if (!x->in[c] && ctx_fits (x, c) && ctx_gain (x, c) > 0)
        ctx_set (x, c, TRUE);
    }

  g_free (starts);
  g_free (by_first);
  g_free (order);
  g_array_unref (evicted);
  g_array_unref (live);
}

/* ---- OPTION2: dynamic programme over the op sequence ------------------------------ */

/* States of one stage: the OCM subset of the candidates live at op t (a bitmask over
 * the stage's live list), the cycles of ops 0..t, the OCM load at t, the parent state
 * and the decisions taken for the chunks that start at t. */
typedef struct {
  guint   w;        /* mask words */
  guint   dw;       /* decision words */
  GArray *mask;     /* guint64 × w per state */
  GArray *dec;      /* guint64 × dw per state */
  GArray *cost;     /* guint64 */
  GArray *load;     /* guint64 */
  GArray *parent;   /* guint */
} States;

static void
states_init (States *s, guint w, guint dw)
{
  s->w = w;
  s->dw = dw;
  s->mask = g_array_new (FALSE, TRUE, sizeof (guint64));
  s->dec = g_array_new (FALSE, TRUE, sizeof (guint64));
  s->cost = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->load = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->parent = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
states_clear (States *s)
{
  g_clear_pointer (&s->mask, g_array_unref);
  g_clear_pointer (&s->dec, g_array_unref);
  g_clear_pointer (&s->cost, g_array_unref);
  g_clear_pointer (&s->load, g_array_unref);
  g_clear_pointer (&s->parent, g_array_unref);
}

static inline guint
states_len (const States *s)
{
  return s->cost->len;
}

static inline guint64 *
states_mask (const States *s, guint i)
{
  return &g_array_index (s->mask, guint64, (gsize) i * s->w);
}

static inline guint64 *
states_dec (const States *s, guint i)
{
  return &g_array_index (s->dec, guint64, (gsize) i * s->dw);
}

/* Appends state @i of @from (same widths) to @to; returns the new index. */
static guint
states_copy_one (States *to, const States *from, guint i)
{
  guint j = states_len (to);

  g_array_set_size (to->mask, (gsize) (j + 1) * to->w);
  g_array_set_size (to->dec, (gsize) (j + 1) * to->dw);
  if (to->w)
    memcpy (states_mask (to, j), states_mask (from, i), sizeof (guint64) * to->w);
  if (to->dw)
    memcpy (states_dec (to, j), states_dec (from, i), sizeof (guint64) * to->dw);
  g_array_append_val (to->cost, g_array_index (from->cost, guint64, i));
  g_array_append_val (to->load, g_array_index (from->load, guint64, i));
  g_array_append_val (to->parent, g_array_index (from->parent, guint, i));
  return j;
}

typedef struct {
  const States *s;
  const double *key;
} SortCtx;

/* Dedupe order: by mask, then cost, then index (so the first of a run is kept). */
static gint
cmp_by_mask (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortCtx *sc = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  int r = sc->s->w ? memcmp (states_mask (sc->s, i), states_mask (sc->s, j),
                             sizeof (guint64) * sc->s->w) : 0;
  if (r)
    return r;
  guint64 ci = g_array_index (sc->s->cost, guint64, i);
  guint64 cj = g_array_index (sc->s->cost, guint64, j);
  if (ci != cj)
    return ci < cj ? -1 : 1;
  return i < j ? -1 : i > j;
}

static gint
cmp_by_key (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortCtx *sc = data;
  guint i = *(const guint *) a, j = *(const guint *) b;

  if (sc->key[i] != sc->key[j])
    return sc->key[i] < sc->key[j] ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* Cycles chunk @c saves alone at ops >= @t: the optimism that ranks states whose
 * picks have not paid off yet. */
static double
ctx_potential (const Ctx *x, guint c, guint t)
{
  double s = 0.0;

  for (guint k = x->cops_start[c]; k < x->cops_start[c + 1]; k++)
    if (x->cops[k] >= t)
      s += (double) x->save1[k];
  return s;
}

/* Keeps the @beam best states of @s by cost minus the potential of their live picks
 * from op @t on; returns TRUE if some were dropped. */
static gboolean
states_prune (States *s, const Ctx *x, const GArray *live, guint t, guint beam)
{
  guint n = states_len (s);

  if (n <= beam)
    return FALSE;
  double *key = g_new (double, n);
  double *pot = g_new (double, MAX (live->len, 1));
  for (guint k = 0; k < live->len; k++)
    pot[k] = ctx_potential (x, g_array_index (live, guint, k), t);
  for (guint i = 0; i < n; i++)
    {
      const guint64 *m = s->w ? states_mask (s, i) : NULL;
      double v = (double) g_array_index (s->cost, guint64, i);
      for (guint k = 0; k < live->len; k++)
        if (m[k / 64] & (G_GUINT64_CONSTANT (1) << (k % 64)))
          v -= pot[k];
      key[i] = v;
    }
  GArray *idx = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (idx, i);
  SortCtx sc = { s, key };
  g_array_sort_with_data (idx, cmp_by_key, &sc);
  /* Keep the survivors in their old order so the result does not depend on ties. */
  gboolean *keep = g_new0 (gboolean, n);
  for (guint i = 0; i < beam; i++)
    keep[g_array_index (idx, guint, i)] = TRUE;
  States out;
  states_init (&out, s->w, s->dw);
  for (guint i = 0; i < n; i++)
    if (keep[i])
      states_copy_one (&out, s, i);
  states_clear (s);
  *s = out;
  g_free (keep);
  g_array_unref (idx);
  g_free (pot);
  g_free (key);
  return TRUE;
}

typedef struct {
  guint    n;
  guint    dw;
  guint   *parent;
  guint64 *dec;
} StageRec;

static gboolean
plan_option2 (Ctx *x)
{
  guint no = x->no;
  gboolean exact = TRUE;

  if (no == 0)
    return TRUE;
  /* A budget of states for the whole run (memory for the back pointers). */
  guint beam = x->p->max_states ? x->p->max_states : CLAMP (4194304u / no, 512u, 16384u);

  /* Candidates starting at each op, by index. */
  guint *by_first = g_new0 (guint, no + 1);
  for (guint c = 0; c < x->nc; c++)
    if (x->cand[c])
      by_first[x->ch[c].first + 1]++;
  for (guint t = 0; t < no; t++)
    by_first[t + 1] += by_first[t];
  guint *starts = g_new (guint, MAX (by_first[no], 1));
  guint *fill = g_memdup2 (by_first, sizeof (guint) * (no + 1));
  for (guint c = 0; c < x->nc; c++)
    if (x->cand[c])
      starts[fill[x->ch[c].first]++] = c;
  g_free (fill);

  StageRec *rec = g_new0 (StageRec, no);
  int *pos = g_new (int, MAX (x->nc, 1));     /* chunk -> position in the live list */
  for (guint c = 0; c < x->nc; c++)
    pos[c] = -1;
  GArray *live = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean *scratch = g_new0 (gboolean, MAX (x->nc, 1));

  States cur;
  states_init (&cur, 0, 0);
  {
    guint64 zero = 0;
    guint none = 0;
    g_array_append_val (cur.cost, zero);
    g_array_append_val (cur.load, zero);
    g_array_append_val (cur.parent, none);
  }

  for (guint t = 0; t < no; t++)
    {
      /* 1. The live list at t: survivors in order, then the new chunks. */
      GArray *nlive = g_array_new (FALSE, FALSE, sizeof (guint));
      int *map = g_new (int, MAX (live->len, 1));
      for (guint k = 0; k < live->len; k++)
        {
          guint c = g_array_index (live, guint, k);
          if (x->ch[c].last >= t)
            {
              map[k] = (int) nlive->len;
              g_array_append_val (nlive, c);
            }
          else
            map[k] = -1;
        }
      guint kept = nlive->len;
      guint nnew = by_first[t + 1] - by_first[t];
      for (guint k = 0; k < nnew; k++)
        g_array_append_val (nlive, starts[by_first[t] + k]);
      for (guint k = 0; k < live->len; k++)
        pos[g_array_index (live, guint, k)] = -1;
      for (guint k = 0; k < nlive->len; k++)
        pos[g_array_index (nlive, guint, k)] = (int) k;
      guint w = (nlive->len + 63) / 64;
      guint dw = (nnew + 63) / 64;

      /* 2. Project the previous states onto the survivors; merge equal masks. */
      States proj;
      states_init (&proj, w, dw);
      for (guint i = 0; i < states_len (&cur); i++)
        {
          guint j = states_len (&proj);
          g_array_set_size (proj.mask, (gsize) (j + 1) * w);
          g_array_set_size (proj.dec, (gsize) (j + 1) * dw);
          guint64 *m = w ? states_mask (&proj, j) : NULL;
          const guint64 *om = cur.w ? states_mask (&cur, i) : NULL;
          guint64 load = 0;
          for (guint k = 0; k < live->len; k++)
            if (map[k] >= 0 && (om[k / 64] & (G_GUINT64_CONSTANT (1) << (k % 64))))
              {
                m[map[k] / 64] |= G_GUINT64_CONSTANT (1) << (map[k] % 64);
                load += x->asz[g_array_index (live, guint, k)];
              }
          guint64 cost = g_array_index (cur.cost, guint64, i);
          g_array_append_val (proj.cost, cost);
          g_array_append_val (proj.load, load);
          g_array_append_val (proj.parent, i);
        }
      GArray *idx = g_array_sized_new (FALSE, FALSE, sizeof (guint), states_len (&proj));
      for (guint i = 0; i < states_len (&proj); i++)
        g_array_append_val (idx, i);
      SortCtx sc = { &proj, NULL };
      g_array_sort_with_data (idx, cmp_by_mask, &sc);
      States base;
      states_init (&base, w, dw);
      for (guint r = 0; r < idx->len; r++)
        {
          guint i = g_array_index (idx, guint, r);
          if (r > 0 && (w == 0 || memcmp (states_mask (&proj, i),
                                          states_mask (&proj, g_array_index (idx, guint, r - 1)),
                                          sizeof (guint64) * w) == 0))
            continue;
          states_copy_one (&base, &proj, i);
        }
      g_array_unref (idx);
      states_clear (&proj);

      /* 3. Decide the new chunks one at a time (in or out, within the capacity). */
      for (guint k = 0; k < nnew; k++)
        {
          guint c = starts[by_first[t] + k];
          guint p = kept + k;
          States next;
          states_init (&next, w, dw);
          for (guint i = 0; i < states_len (&base); i++)
            {
              states_copy_one (&next, &base, i);
              guint64 load = g_array_index (base.load, guint64, i);
              if (load + x->asz[c] <= x->cap)
                {
                  guint j = states_copy_one (&next, &base, i);
                  states_mask (&next, j)[p / 64] |= G_GUINT64_CONSTANT (1) << (p % 64);
                  states_dec (&next, j)[k / 64] |= G_GUINT64_CONSTANT (1) << (k % 64);
                  g_array_index (next.load, guint64, j) = load + x->asz[c];
                }
            }
          states_clear (&base);
          base = next;
          if (states_prune (&base, x, nlive, t, beam))
            exact = FALSE;
        }

      /* 4. Add op t's cycles: its accesses to live OCM chunks are OCM traffic. */
      const GArray *acc = g_array_index (x->p->ops, Zg330OcmOp, t).accesses;
      for (guint i = 0; i < states_len (&base); i++)
        {
          const guint64 *m = w ? states_mask (&base, i) : NULL;
          for (guint a = 0; acc && a < acc->len; a++)
            {
              guint c = g_array_index (acc, Zg330OcmAccess, a).chunk;
              scratch[c] = pos[c] >= 0
                           && (m[pos[c] / 64] & (G_GUINT64_CONSTANT (1) << (pos[c] % 64)));
            }
          g_array_index (base.cost, guint64, i) += op_cycles (x->p, t, scratch);
        }
      for (guint a = 0; acc && a < acc->len; a++)
        scratch[g_array_index (acc, Zg330OcmAccess, a).chunk] = FALSE;
      if (states_prune (&base, x, nlive, t + 1, beam))
        exact = FALSE;

      /* 5. Keep the back pointers and decisions; the masks move on. */
      guint n = states_len (&base);
      rec[t].n = n;
      rec[t].dw = dw;
      rec[t].parent = g_memdup2 (base.parent->data, sizeof (guint) * n);
      rec[t].dec = dw ? g_memdup2 (base.dec->data, sizeof (guint64) * n * dw) : NULL;
      states_clear (&cur);
      cur = base;
      g_array_unref (live);
      live = nlive;
      g_free (map);
    }

  /* The cheapest final state, then back along the parents. */
  guint best = 0;
  for (guint i = 1; i < states_len (&cur); i++)
    if (g_array_index (cur.cost, guint64, i) < g_array_index (cur.cost, guint64, best))
      best = i;
  for (guint t = no; t-- > 0;)
    {
      for (guint k = 0; k < by_first[t + 1] - by_first[t]; k++)
        if (rec[t].dec[(gsize) best * rec[t].dw + k / 64] & (G_GUINT64_CONSTANT (1) << (k % 64)))
          ctx_set (x, starts[by_first[t] + k], TRUE);
      best = rec[t].parent[best];
    }

  for (guint t = 0; t < no; t++)
    {
      g_free (rec[t].parent);
      g_free (rec[t].dec);
    }
  g_free (rec);
  states_clear (&cur);
  g_array_unref (live);
  g_free (scratch);
  g_free (pos);
  g_free (starts);
  g_free (by_first);
  return exact;
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
ctx_try_pack (Ctx *x, guint64 *addr, guint64 *arena, guint64 work)
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
ctx_tight_picks (Ctx *x)
{
  GArray *picks = g_array_new (FALSE, FALSE, sizeof (Ranked));
  guint tmax = 0;

  for (guint t = 1; t < x->no; t++)
    if (x->load[t] > x->load[tmax])
      tmax = t;
  for (guint c = 0; c < x->nc; c++)
    if (x->in[c] && x->ch[c].first <= tmax && tmax <= x->ch[c].last)
      {
        Ranked r = { c, (double) ctx_gain (x, c) - (double) x->asz[c] * 1e-12 };
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
ctx_pack (Ctx *x, guint64 *addr, guint *dropped)
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
      ctx_set (x, c, FALSE);
      if (ctx_try_pack (x, addr, &arena, PACK_SEARCH_WORK))
        {
          packed = TRUE;
          g_array_append_val (out, c);
        }
      else
        ctx_set (x, c, TRUE);
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
              ctx_set (x, c, FALSE);
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
    if (x->cand[c] && !x->in[c] && ctx_fits (x, c))
      {
        gint64 g = ctx_gain (x, c);
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
      if (!ctx_fits (x, c) || ctx_gain (x, c) <= 0)
        continue;
      ctx_set (x, c, TRUE);
      tries++;
      if (ctx_try_pack (x, addr, &arena, REFILL_SEARCH_WORK))
        {
          for (guint k = 0; k < out->len; k++)
            if (g_array_index (out, guint, k) == c)
              (*dropped)--;
        }
      else
        ctx_set (x, c, FALSE);
    }

  /* @addr and @arena hold the last set that packed: the current one. */
  return arena;
}

static void
result_fill (Ctx *x, int option, gboolean exact, Zg330OcmResult *r)
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
          ctx_set (x, c, FALSE);
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

/* Runs one option (0..3) into @r (whose etm_only fields are set). */
static void
run_option (Ctx *x, int option, Zg330OcmResult *r)
{
  gboolean exact = FALSE;

  ctx_reset (x);
  switch (option)
    {
    case ZG330_OCM_OPT_OPTION1:
      plan_option1 (x);
      break;
    case ZG330_OCM_OPT_OPTION2:
      exact = plan_option2 (x);
      break;
    case ZG330_OCM_OPT_OPTION3:
      plan_option3 (x);
      break;
    default:
      /* NONE: nothing in OCM, trivially optimal only if no candidate exists. */
      exact = TRUE;
      for (guint c = 0; c < x->nc; c++)
        if (x->cand[c])
          exact = FALSE;
      break;
    }
  result_fill (x, option, exact, r);
}

gboolean
zg330_ocm_plan (const Zg330OcmProblem *p, int option, Zg330OcmResult *out, GError **error)
{
  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  gint64 t0 = g_get_monotonic_time ();
  if (option < ZG330_OCM_OPT_BEST_SCORE || option > ZG330_OCM_OPT_OPTION3)
    {
      g_set_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_OPTION,
                   "OCM plan: unknown OcmOpt %d (expected -1 BEST_SCORE, 0 NONE, 1..3)",
                   option);
      return FALSE;
    }
  if (!zg330_ocm_problem_validate (p, error))
    return FALSE;

  Ctx x;
  ctx_init (&x, p);
  Zg330OcmResult best = { 0 };
  best.etm_only_cycles = zg330_ocm_estimate_cycles (p, NULL);
  double costs[4] = { zg330_timing_cycles_to_ms (p->profile, best.etm_only_cycles),
                      -1.0, -1.0, -1.0 };

  if (option != ZG330_OCM_OPT_BEST_SCORE)
    {
      run_option (&x, option, &best);
      if (option > 0)
        costs[option] = best.cost_ms;
    }
  else
    {
      for (int o = ZG330_OCM_OPT_OPTION1; o <= ZG330_OCM_OPT_OPTION3; o++)
        {
          Zg330OcmResult r = { 0 };
          r.etm_only_cycles = best.etm_only_cycles;
          run_option (&x, o, &r);
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
  best.etm_only_cost_ms = costs[0];
  memcpy (best.option_cost_ms, costs, sizeof costs);
  best.seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
  *out = best;
  return TRUE;
}
