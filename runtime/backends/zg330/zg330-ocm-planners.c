/* zg330-ocm-planners.c — the OCM planners and their table, indexed by the OcmOpt they
 * implement (report/zw-ocm-option.h holds the options' names, labels and descriptions).
 * A new option is a member of ZwOcmOpt, a row of the options' table, and here its planner
 * function and its entry in planners[].  Each fills the working set of the context (see
 * zg330-ocm-plan-private.h); zg330-ocm-plan.c packs it and BEST_SCORE compares them.
 *
 *   NONE: nothing in OCM.
 *   OPTION1 "global scoring": every chunk is scored by the cycles it saves (given what is
 *     already in OCM) per aligned byte x lifetime; the best one that fits is added,
 *     scores are refreshed, until nothing that fits saves anything.
 *   OPTION2 "local-optimal dynamic programming": a dynamic programme along the op
 *     sequence whose state at op t is the set of OCM chunks live at t (the cost of op t
 *     and the capacity at t depend on nothing else).  It is exact while no op boundary
 *     has more than a few thousand feasible states; beyond that each boundary keeps the
 *     most promising states (locally optimal) and the result says it is not exact.
 *   OPTION3 "sequential evict-by-score": a sweep over the ops puts every new eligible
 *     chunk that saves cycles into OCM and, where the live OCM set overflows, evicts the
 *     live chunk with the lowest score (saving per byte x remaining lifetime); a last
 *     pass re-adds evicted chunks that fit again.
 */
#include "backends/zg330/zg330-ocm-plan-private.h"

#include <string.h>

/* ---- NONE ------------------------------------------------------------------------ */

/* Nothing in OCM: trivially optimal only if no candidate exists. */
static gboolean
plan_none (Zg330OcmCtx *x)
{
  for (guint c = 0; c < x->nc; c++)
    if (x->cand[c])
      return FALSE;
  return TRUE;
}

/* ---- OPTION1: global scoring --------------------------------------------------- */

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
rescore (Zg330OcmCtx *x, guint c, Scored *entry, GSequenceIter **where, GSequence *queue)
{
  gint64 g = zg330_ocm_ctx_gain (x, c);

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
static gboolean
plan_global_score (Zg330OcmCtx *x)
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
      if (!zg330_ocm_ctx_fits (x, best))
        {
          alive[best] = FALSE;
          continue;
        }
      zg330_ocm_ctx_set (x, best, TRUE);
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
  return FALSE;
}

/* ---- OPTION3: sequential evict-by-score ----------------------------------------- */

static gboolean
plan_evict_by_score (Zg330OcmCtx *x)
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
          if (zg330_ocm_ctx_gain (x, c) > 0)
            {
              zg330_ocm_ctx_set (x, c, TRUE);
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
              double score = (double) zg330_ocm_ctx_gain (x, c)
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
          zg330_ocm_ctx_set (x, worst, FALSE);
          g_array_remove_index (live, worst_i);
          g_array_append_val (evicted, worst);
        }
    }

  /* Room freed by later evictions may fit an earlier victim again. */
  for (guint i = 0; i < evicted->len; i++)
    {
      guint c = g_array_index (evicted, guint, i);
      if (!x->in[c] && zg330_ocm_ctx_fits (x, c) && zg330_ocm_ctx_gain (x, c) > 0)
        zg330_ocm_ctx_set (x, c, TRUE);
    }

  g_free (starts);
  g_free (by_first);
  g_free (order);
  g_array_unref (evicted);
  g_array_unref (live);
  return FALSE;
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
ctx_potential (const Zg330OcmCtx *x, guint c, guint t)
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
states_prune (States *s, const Zg330OcmCtx *x, const GArray *live, guint t, guint beam)
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
plan_dynamic_programme (Zg330OcmCtx *x)
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
          g_array_index (base.cost, guint64, i) += zg330_ocm_op_cycles (x->p, t, scratch);
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
          zg330_ocm_ctx_set (x, starts[by_first[t] + k], TRUE);
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

/* ---- the table ------------------------------------------------------------------- */

static const Zg330OcmPlanner planners[ZW_OCM_N_SLOTS] = {
  [ZW_OCM_NONE] = plan_none,
  [ZW_OCM_OPTION1] = plan_global_score,
  [ZW_OCM_OPTION2] = plan_dynamic_programme,
  [ZW_OCM_OPTION3] = plan_evict_by_score,
};

Zg330OcmPlanner
zg330_ocm_planner_lookup (ZwOcmOpt option)
{
  return option >= ZW_OCM_NONE && option < ZW_OCM_N_SLOTS ? planners[option] : NULL;
}
