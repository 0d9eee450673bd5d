/* zg330-etm-plan.c — static ETM placement of FTMP buffers.
 *
 * Layers, cheapest first; each stops the call once the arena equals the
 * lower bound:
 *  1. greedy placements: a priority order (size, area, section pressure,
 *     lifetime, conflicts, start), each buffer at the lowest (first fit) or
 *     tightest (best fit) gap left by time-overlapping buffers placed so far;
 *  2. skyline dives: the canonical search below without a capacity and
 *     without backtracking (always the buffer that can go lowest);
 *  3. an exact canonical search after MiniMalloc (Moffitt, ASPLOS 2023),
 *     asked "does everything fit in C?" for C = the capacity, then the
 *     bound, then stepping down from the best arena.  Buffers are placed in
 *     non-decreasing offset order, each at the lowest offset its placed
 *     neighbours allow; a partial placement is cut when a maximal time
 *     section cannot hold its unplaced buffers above its floor, when a
 *     buffer would go above the top some unplaced buffer can reach, or when
 *     a state already failed (hash of the unplaced buffers' lowest offsets);
 *     buffers that no longer share a section boundary are solved as
 *     independent subproblems.  Several preorders, plain depth-first,
 *     limited-discrepancy and seeded randomised restarts that branch on the
 *     cover of the most constrained tight section (exact cover, for
 *     packings with no byte to spare), run as a portfolio on up to two
 *     threads in rounds of tripling node limits (deterministic: the first
 *     task in portfolio order that succeeds in a round wins);
 *  4. a seeded hill climb over greedy orders (after Vela) for instances too
 *     big for the search's tables.
 * Layers 2-4 are bounded by work, never by the clock: work units count the
 * search's steps (a node entered, a placement tried, a candidate or a
 * neighbour examined, a time section updated; a hill-climb step counts its
 * buffers and their neighbours).  The capacity's target of layer 3 gets
 * all the budget, the later targets fractions of what is left; within a
 * target the budget only cuts a fixed schedule of rounds (portfolio_fit),
 * so a larger budget never loses a fit; every figure that
 * decides anything is counted the same way on any machine, at any load,
 * with any thread count.  An optional wall-clock cap
 * (Zg330PlanOptions.time_limit_s, off by default) is the one exception,
 * and its hitting is reported.
 * Everything works in units of the alignment, so offsets stay aligned.
 *
 * This file holds the entry points, which run the layers in turn; the layers are
 * zg330-etm-problem.c, zg330-etm-greedy.c (1 and 4), zg330-etm-search.c and
 * zg330-etm-portfolio.c (2 and 3); the checker and the CSV files are zg330-etm-check.c
 * and zg330-etm-csv.c.
 */
#include "backends/zg330/zg330-etm-plan-private.h"

#include <string.h>

G_DEFINE_QUARK (zg330-plan-error-quark, zg330_plan_error)

guint64
zg330_etm_lower_bound (const Zg330Buffer *b, guint n, guint64 alignment)
{
  g_return_val_if_fail (b != NULL || n == 0, 0);
  guint64 align = MAX (alignment, 1);
  Problem p;
  zg330_etm_problem_init (&p, b, n, align);
  guint64 lb = (guint64) p.lb * align;
  zg330_etm_problem_clear (&p);
  return lb;
}

static gboolean
validate (const Zg330Buffer *b, guint n, guint64 align, GError **error)
{
  guint64 units = 0;
  for (guint i = 0; i < n; i++)
    {
      /* offsets are computed in signed 64-bit units with headroom */
      units += b[i].size / align + 1;
      if (b[i].size > G_MAXUINT64 / 8 || units > (guint64) G_MAXINT64 / 8)
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_INVALID,
                       "buffer id %" G_GINT64_FORMAT ": size %" G_GUINT64_FORMAT
                       " makes the sizes add up past 2^60 alignment units",
                       b[i].id, b[i].size);
          return FALSE;
        }
      if (b[i].lower < 0 || b[i].upper < 0)
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_INVALID,
                       "buffer id %" G_GINT64_FORMAT ": negative lifetime [%"
                       G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                       b[i].id, b[i].lower, b[i].upper);
          return FALSE;
        }
      if (b[i].lower >= b[i].upper)
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_INVALID,
                       "buffer id %" G_GINT64_FORMAT ": lower %" G_GINT64_FORMAT
                       " >= upper %" G_GINT64_FORMAT " (lifetimes are half-open)",
                       b[i].id, b[i].lower, b[i].upper);
          return FALSE;
        }
    }
  return TRUE;
}

static void
write_offsets (Zg330Buffer *b, guint n, const Problem *p, const gint64 *off,
               guint64 align)
{
  for (guint i = 0; i < n; i++)
    b[i].offset = 0;
  for (guint i = 0; i < p->m; i++)
    b[p->orig[i]].offset = (guint64) off[i] * align;
}

/* Worker threads for the portfolio: @asked, else $ZW_PLAN_THREADS (a
 * number 1..64; anything else is ignored), else min(cores, 2); at most one
 * per task.  The plan does not depend on it, only the speed. */
static guint
plan_threads (guint asked)
{
  if (asked == 0)
    {
      const char *env = g_getenv ("ZW_PLAN_THREADS");
      guint64 v = 0;
      if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 64, &v, NULL))
        asked = (guint) v;
    }
  if (asked == 0)
    asked = (guint) MIN (g_get_num_processors (), 2);
  return CLAMP (asked, 1, N_TASKS);
}

/* @fit_only: stop as soon as the arena fits the capacity. */
static gboolean
plan_run (Zg330Buffer            *b,
          guint                   n,
          const Zg330PlanOptions *opt,
          gboolean                fit_only,
          Zg330PlanStats         *stats,
          GError                **error)
{
  gint64 t0 = g_get_monotonic_time ();
  Zg330PlanOptions o = { .capacity = 0, .alignment = 1 };
  if (opt)
    o = *opt;
  guint64 align = MAX (o.alignment, 1);
  guint64 budget = o.work_budget ? o.work_budget : ZG330_PLAN_DEFAULT_WORK;
  Zg330PlanStats st = { 0, 0, 0.0, "empty", TRUE, 0, 0.0, budget, FALSE, 1, 0 };

  if (!validate (b, n, align, error))
    return FALSE;

  Problem p;
  zg330_etm_problem_init (&p, b, n, align);
  guint m = p.m;
  gint64 cap = o.capacity ? (gint64) MIN (o.capacity / align, (guint64) G_MAXINT64 / 4)
                          : G_MAXINT64 / 4;
  /* The optional wall-clock cap; none by default. */
  gint64 deadline = o.time_limit_s > 0.0
                    ? t0 + (gint64) MIN (o.time_limit_s * G_USEC_PER_SEC, 1e15)
                    : G_MAXINT64;

  g_autofree gint64 *best_off = g_new0 (gint64, MAX (m, 1));
  g_autofree gint64 *off = g_new (gint64, MAX (m, 1));
  g_autofree guint *order = g_new (guint, MAX (m, 1));
  g_autofree guint *best_order = g_new (guint, MAX (m, 1));
  gint64 best = G_MAXINT64;
  gboolean best_order_fit = FALSE;
  gint64 proven_lo = p.lb;

  if (m > 0)
    {
      /* 1. Greedy placements, first fit and best fit: on chain-like
       *    networks they already reach the bound. */
      static const struct { const char *keys; const char *name[2]; } greedy[] = {
        { "ZW", { "greedy-size", "bestfit-size" } },
        { "AZ", { "greedy-area", "bestfit-area" } },
        { "TZW", { "greedy-pressure", "bestfit-pressure" } },
        { "WZ", { "greedy-lifetime", "bestfit-lifetime" } },
        { "OZ", { "greedy-conflicts", "bestfit-conflicts" } },
        { "SZ", { "greedy-time", "bestfit-time" } },
      };
      Greedy g = { &p, g_new (Span, MAX (p.adj_start[m], 1) + 1), g_new (gboolean, m) };
      for (guint h = 0; h < G_N_ELEMENTS (greedy) && best > p.lb; h++)
        for (int fit = 0; fit < 2 && best > p.lb; fit++)
          {
            zg330_etm_order_by (&p, greedy[h].keys, order);
            gint64 a = zg330_etm_greedy_place (&g, order, fit, off);
            if (a < best)
              {
                best = a;
                memcpy (best_off, off, sizeof (gint64) * m);
                memcpy (best_order, order, sizeof (guint) * m);
                best_order_fit = fit;
                st.method = greedy[h].name[fit];
              }
          }
      if (best <= cap)
        st.fit_seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;

      /* 2. Exact search, asked first for the capacity (the must), then for
       *    ever tighter arenas (the want) until the bound or the end of the
       *    work budget: the bound itself first, then halving the gap.  Each
       *    target gets a fraction of the work left. */
      gboolean done = best <= p.lb || (fit_only && best <= cap);
      if (!done && p.searchable)
        {
          Portfolio pf;
          st.threads = plan_threads (o.threads);
          zg330_etm_portfolio_init (&pf, &p, st.threads, deadline);
          gint64 dive = zg330_etm_portfolio_dive (&pf, off);
          g_debug ("ETM plan: greedy %" G_GINT64_FORMAT ", skyline %" G_GINT64_FORMAT
                   " units (bound %" G_GINT64_FORMAT ")", best, dive, p.lb);
          if (dive < best)
            {
              best = dive;
              memcpy (best_off, off, sizeof (gint64) * m);
              st.method = "skyline";
              if (best <= cap)
                st.fit_seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
            }
          gint64 lo = p.lb;     /* no arena below this is possible */
          gint64 step = 0;
          gboolean tried_bound = FALSE, cap_impossible = FALSE;
          while (best > lo && !(fit_only && best <= cap))
            {
              if (pf.work >= budget || pf.time_limit_hit)
                break;
              guint64 left = budget - pf.work;
              gboolean must = best > cap && !cap_impossible, bound_attempt = FALSE;
              gint64 target;
              guint64 slice;
              if (must)
                {
                  /* all of it goes to the fit the caller needs: a share of
                   * the budget would make a larger budget reach the fit
                   * later in its own work (a fit found with W units is
                   * found with any budget >= W) */
                  target = cap;
                  slice = left;
                }
              else if (!tried_bound)
                {
                  /* the bound itself, briefly: often reachable, and then
                   * proven optimal at once */
                  tried_bound = bound_attempt = TRUE;
                  target = lo;
                  slice = left / 8;
                }
              else
                {
                  /* then step down from the best arena, halving the step
                   * whenever a target is out of reach in its slice */
                  if (step == 0)
                    step = MAX (1, (best - lo) / 4);
                  target = MAX (lo, best - step);
                  slice = target >= best - 1 ? left : left / 3;
                }
              const gint64 *sol = NULL;
              int r = zg330_etm_portfolio_fit (&pf, target, slice, &sol);
              g_debug ("ETM plan: target %" G_GINT64_FORMAT " units (bound %" G_GINT64_FORMAT
                       ") -> %s after %" G_GUINT64_FORMAT " work units", target, p.lb,
                       r == FOUND ? "fit" : r == NOT_FOUND ? "proven impossible" : "out of work",
                       pf.work);
              if (r == FOUND)
                {
                  best = arena_of (&p, sol);
                  memcpy (best_off, sol, sizeof (gint64) * m);
                  st.method = "search";
                  if (must)
                    st.fit_seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
                  continue;
                }
              if (must)
                {
                  /* The capacity cannot be met (or not in time): still leave
                   * the caller the smallest arena we can find. */
                  if (r == NOT_FOUND)
                    proven_lo = lo = MAX (proven_lo, target + 1);
                  cap_impossible = TRUE;
                  continue;
                }
              if (r == NOT_FOUND)
                {
                  proven_lo = MAX (proven_lo, target + 1);
                  lo = MAX (lo, target + 1);
                }
              if (!bound_attempt)
                {
                  if (step <= 1)
                    break;
                  step /= 2;
                }
            }
          st.nodes += pf.nodes;
          st.work += pf.work;
          st.time_limit_hit |= pf.time_limit_hit;
          zg330_etm_portfolio_clear (&pf);
        }

      /* 3. Hill climb over greedy orders when the search cannot run; a
       *    step places every buffer up to twice, against its neighbours. */
      guint64 step_work = 2 * ((guint64) m + p.adj_start[m]);
      if (best > p.lb && !p.searchable && !(fit_only && best <= cap) && budget / step_work > 0)
        {
          guint64 iters = 0;
          gboolean timed_out = FALSE;
          gint64 a = zg330_etm_hill_climb (&g, best_order, best_order_fit, off, best,
                                 p.lb, budget / step_work, deadline, &iters, &timed_out);
          st.nodes += iters;
          st.work += iters * step_work;
          st.time_limit_hit |= timed_out;
          if (a < best)
            {
              best = a;
              memcpy (best_off, off, sizeof (gint64) * m);
              st.method = "hill-climb";
            }
          if (best <= cap && st.fit_seconds == 0.0)
            st.fit_seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
        }
      g_free (g.spans);
      g_free (g.placed);

      st.arena = (guint64) best * align;
      st.optimal = best <= proven_lo;
    }
  st.lower_bound = (guint64) p.lb * align;
  write_offsets (b, n, &p, best_off, align);
  zg330_etm_problem_clear (&p);

  st.seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
  if (stats)
    *stats = st;
  if (o.capacity && st.arena > o.capacity)
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY,
                   "ETM plan: best arena %" G_GUINT64_FORMAT " bytes exceeds the capacity %"
                   G_GUINT64_FORMAT " bytes (lower bound %" G_GUINT64_FORMAT " bytes, %u buffers%s)",
                   st.arena, o.capacity, st.lower_bound, n,
                   st.lower_bound > o.capacity ? ": the bound alone does not fit" : "");
      return FALSE;
    }
  return TRUE;
}

gboolean
zg330_etm_plan (Zg330Buffer            *b,
                guint                   n,
                const Zg330PlanOptions *opt,
                Zg330PlanStats         *stats,
                GError                **error)
{
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  return plan_run (b, n, opt, FALSE, stats, error);
}

gboolean
zg330_etm_plan_fit (Zg330Buffer            *b,
                    guint                   n,
                    const Zg330PlanOptions *opt,
                    Zg330PlanStats         *stats,
                    GError                **error)
{
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  return plan_run (b, n, opt, TRUE, stats, error);
}

gboolean
zg330_etm_plan_greedy_by_size (Zg330Buffer    *b,
                               guint           n,
                               guint64         alignment,
                               Zg330PlanStats *stats)
{
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  gint64 t0 = g_get_monotonic_time ();
  guint64 align = MAX (alignment, 1);
  Problem p;
  zg330_etm_problem_init (&p, b, n, align);
  g_autofree gint64 *off = g_new0 (gint64, MAX (p.m, 1));
  g_autofree guint *order = g_new (guint, MAX (p.m, 1));
  Greedy g = { &p, g_new (Span, MAX (p.adj_start[p.m], 1) + 1), g_new (gboolean, MAX (p.m, 1)) };
  zg330_etm_order_by (&p, "ZW", order);
  gint64 arena = p.m ? zg330_etm_greedy_place (&g, order, FALSE, off) : 0;
  write_offsets (b, n, &p, off, align);
  if (stats)
    {
      stats->arena = (guint64) arena * align;
      stats->lower_bound = (guint64) p.lb * align;
      stats->method = "greedy-size";
      stats->optimal = arena == p.lb;
      stats->nodes = 0;
      stats->work = 0;
      stats->work_budget = 0;
      stats->time_limit_hit = FALSE;
      stats->threads = 1;
      stats->seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
      stats->fit_seconds = stats->seconds;
    }
  g_free (g.spans);
  g_free (g.placed);
  zg330_etm_problem_clear (&p);
  return TRUE;
}

static int
cmp_seq (gconstpointer a, gconstpointer bb, gpointer data)
{
  const Zg330Buffer *b = data;
  const Zg330Buffer *x = &b[*(const guint *) a], *y = &b[*(const guint *) bb];
  if (x->lower != y->lower)
    return x->lower < y->lower ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

gboolean
zg330_etm_plan_sequential (Zg330Buffer    *b,
                           guint           n,
                           guint64         alignment,
                           Zg330PlanStats *stats)
{
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  gint64 t0 = g_get_monotonic_time ();
  guint64 align = MAX (alignment, 1);
  g_autofree guint *idx = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    idx[i] = i;
  g_qsort_with_data (idx, (gint) n, sizeof (guint), cmp_seq, b);
  guint64 at = 0;
  for (guint k = 0; k < n; k++)
    {
      Zg330Buffer *x = &b[idx[k]];
      x->offset = at;
      at += (guint64) units_of (x->size, align) * align;
    }
  if (stats)
    {
      stats->arena = at;
      stats->lower_bound = zg330_etm_lower_bound (b, n, align);
      stats->method = "sequential";
      stats->optimal = at == stats->lower_bound;
      stats->nodes = 0;
      stats->work = 0;
      stats->work_budget = 0;
      stats->time_limit_hit = FALSE;
      stats->threads = 1;
      stats->seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
      stats->fit_seconds = stats->seconds;
    }
  return TRUE;
}
