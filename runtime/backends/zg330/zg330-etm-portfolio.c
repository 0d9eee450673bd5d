/* zg330-etm-portfolio.c — the ETM planner's portfolio: several preorders of the exact
 * search, plain depth-first, limited-discrepancy and randomised restarts with exact-cover
 * branching, run in rounds of tripling node limits on up to two threads; the winner of a
 * round is the lowest task index that succeeds, so the answer does not depend on the
 * thread count, the machine or its load. */
#include "backends/zg330/zg330-etm-plan-private.h"

#include <string.h>

/* Which task succeeds first differs from instance to instance by orders of
 * magnitude, so none is run alone.  Plain depth-first with restarts is
 * MiniMalloc's scheme; limited discrepancy search (Harvey & Ginsberg) first
 * tries the paths that leave the (offset, rank) order only a few times,
 * which recovers from an early wrong choice far sooner.  The last two
 * branch on which buffer covers the most constrained tight section (exact
 * cover: packings with no byte to spare, such as the planted ones) and
 * restart often, each restart with a seeded perturbation of their
 * preorder: on planted perfect packings the run length of one preorder is
 * heavy-tailed (10^3 nodes for one, no fit in 10^6 for the next), and
 * short randomised restarts cut such tails.  The first two keep the
 * public MiniMalloc instances' fits (A, D, F by task 1, E by task 0). */
typedef struct {
  const char *keys;
  gboolean    lds;
  gboolean    restarts;
  gboolean    cover;
} SearchTaskKind;

static const SearchTaskKind portfolio_kinds[] = {
  { "TWA", TRUE, FALSE, FALSE },
  { "TWA", FALSE, FALSE, FALSE },
  { "AZ", FALSE, TRUE, TRUE },
  { "Z", FALSE, TRUE, TRUE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (portfolio_kinds) == N_TASKS);

/* The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (i >= 1): the restart limits
 * that are within a log factor of the best fixed limit, whatever the
 * distribution of the run lengths (Luby, Sinclair & Zuckerman 1993). */
static guint64
luby (guint64 i)
{
  for (;;)
    {
      guint k = 1;
      while (((G_GUINT64_CONSTANT (1) << k) - 1) < i)
        k++;
      if (i == (G_GUINT64_CONSTANT (1) << k) - 1)
        return G_GUINT64_CONSTANT (1) << (k - 1);
      i -= (G_GUINT64_CONSTANT (1) << (k - 1)) - 1;
    }
}

static int
cmp_noisy (gconstpointer a, gconstpointer b, gpointer data)
{
  const double *key = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  if (key[x] != key[y])
    return key[x] > key[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* Restart @i of a restart task: its preorder is the base one with every
 * position scaled by a seeded factor in [0.7, 1.3] (restart 0: the base
 * itself), so the restarts try other tie-breaks and near-equal choices
 * first; the seed is the task index and @i, so the sequence is the same on
 * every run.  Heavy-tailed run lengths are what the planner's search has
 * (a fit in 10^3 nodes for one preorder, none in 10^6 for the next), and
 * short randomised restarts cut such tails (Gomes, Selman & Kautz 1998).
 * A memo entry is tied to the ranks of the preorder it was found under, so
 * the memo starts empty. */
static void
task_restart_order (SearchTask *t, guint i)
{
  const Problem *p = t->s.p;
  guint m = p->m;
  g_hash_table_remove_all (t->s.memo);
  t->s.twin_order = NULL;
  if ((((guint64) i + 2) & ((guint64) i + 1)) == 0)
    {
      memcpy (t->order, t->base, sizeof (guint) * m);
      return;
    }
  g_autofree double *key = g_new (double, MAX (m, 1));
  g_autoptr (GRand) rng = g_rand_new_with_seed ((guint32) (0x33051u + 7919u * (guint) t->s.index) ^ (guint32) i * 2654435761u);
  for (guint k = 0; k < m; k++)
    {
      key[t->base[k]] = (double) (m - k) * (0.7 + 0.6 * g_rand_double (rng));
      t->order[k] = t->base[k];
    }
  g_qsort_with_data (t->order, (gint) m, sizeof (guint), cmp_noisy, key);
  t->s.work += 4 * (guint64) m;   /* the draw and the sort */
}

/* A round of a restart task: every round adds its node limit to the task's
 * credit, and the task runs restarts from its cursor, restart i with the
 * node limit unit x luby(i + 1) (unit: 4 nodes per buffer), while the next
 * one fits in the credit; a restart that runs to its own limit is done (the
 * cursor moves past it, the credit pays its limit).  So no restart is cut
 * by a round and run again from its start in the next one (with rounds
 * tripling, a long Luby restart was cut and rerun up to twice): the
 * task's nodes go to new restarts only.  A restart cut by the round's work
 * cap (never seen: the cap is a generous multiple of the nodes) is run
 * again in the next round. */
static void
task_round_restarts (SearchTask *t)
{
  Search *s = &t->s;
  /* a restart that fits a planted packing takes 3-7 nodes per buffer (it
   * backtracks a few times per buffer), so the shortest allows 4 */
  const guint64 unit = 4 * (guint64) MAX (s->p->m, 64);
  guint64 nodes = 0, work_left = t->work_cap, used = 0;
  t->result = ABORTED;
  while (work_left > 0)
    {
      guint64 want = unit * luby ((guint64) t->cursor + 1);
      if (want > t->credit)
        break;              /* the next restart waits for a later round */
      s->work = 0;
      task_restart_order (t, t->cursor);
      s->nodes = 0;
      s->node_limit = want;
      s->work_limit = work_left;
      s->disc = G_MAXUINT;
      s->cutoffs = 0;
      t->result = zg330_etm_search_run (s, t->order);
      nodes += MIN (s->nodes, want);
      /* a fit counts all its work (see portfolio_fit) */
      used += t->result == FOUND ? s->work : MIN (s->work, work_left);
      work_left -= MIN (s->work, work_left);
      if (t->result == NOT_FOUND)
        t->proven = TRUE;   /* any preorder searched to the end is a proof */
      if (t->result != ABORTED || s->nodes <= s->node_limit)
        break;              /* found, proven, or cut by the work cap: not done */
      t->credit -= want;
      t->cursor++;
      t->result = ABORTED;
    }
  s->nodes = nodes;
  s->work = used;
}

static void
task_round (SearchTask *t)
{
  Search *s = &t->s;
  t->proven = FALSE;
  if (t->restarts)
    {
      task_round_restarts (t);
      return;
    }
  if (!t->lds)
    {
      s->nodes = 0;
      s->node_limit = t->limit;
      s->work = 0;
      s->work_limit = t->work_cap;
      s->disc = G_MAXUINT;
      s->cutoffs = 0;
      t->result = zg330_etm_search_run (s, t->order);
      t->proven = t->result == NOT_FOUND;
      return;
    }
  guint64 left = t->limit, nodes = 0, work_left = t->work_cap, used = 0;
  t->result = ABORTED;
  while (left > 0 && work_left > 0)
    {
      s->nodes = 0;
      s->node_limit = left;
      s->work = 0;
      s->work_limit = work_left;
      s->disc = t->disc;
      s->cutoffs = 0;
      t->result = zg330_etm_search_run (s, t->order);
      nodes += MIN (s->nodes, left);
      left -= MIN (s->nodes, left);
      /* a fit counts all its work (see portfolio_fit) */
      used += t->result == FOUND ? s->work : MIN (s->work, work_left);
      work_left -= MIN (s->work, work_left);
      if (t->result == NOT_FOUND && s->cutoffs == 0)
        t->proven = TRUE;
      if (t->result != NOT_FOUND || t->proven)
        break;
      t->disc++;          /* exhausted at this many discrepancies */
      t->result = ABORTED;
    }
  s->nodes = nodes;
  s->work = used;
}

static void
portfolio_worker (gpointer data, gpointer user_data)
{
  Portfolio *pf = user_data;
  SearchTask *t = data;
  if (g_atomic_int_get (&pf->winner) < t->s.index)
    t->result = ABORTED;
  else
    {
      task_round (t);
      if (t->result == FOUND)
        {
          gint w;
          do
            w = g_atomic_int_get (&pf->winner);
          while (t->s.index < w &&
                 !g_atomic_int_compare_and_exchange (&pf->winner, w, t->s.index));
        }
    }
  g_mutex_lock (&pf->lock);
  if (--pf->pending == 0)
    g_cond_signal (&pf->cond);
  g_mutex_unlock (&pf->lock);
}

/* @threads: 1 runs the tasks inline, in portfolio order. */
void
zg330_etm_portfolio_init (Portfolio *pf, const Problem *p, guint threads, gint64 deadline)
{
  memset (pf, 0, sizeof *pf);
  pf->winner = G_MAXINT;
  pf->deadline = deadline;
  g_mutex_init (&pf->lock);
  g_cond_init (&pf->cond);
  for (guint k = 0; k < N_TASKS; k++)
    {
      SearchTask *t = &pf->tasks[k];
      zg330_etm_search_init (&t->s, p);
      t->s.index = (gint) k;
      t->s.winner = &pf->winner;
      t->order = g_new (guint, MAX (p->m, 1));
      zg330_etm_order_by (p, portfolio_kinds[k].keys, t->order);
      t->lds = portfolio_kinds[k].lds;
      t->restarts = portfolio_kinds[k].restarts;
      t->s.cover_branch = portfolio_kinds[k].cover;
      if (t->restarts)
        t->base = g_memdup2 (t->order, sizeof (guint) * MAX (p->m, 1));
    }
  /* One thread: the round runs inline (the same tasks, in order). */
  if (threads > 1)
    pf->pool = g_thread_pool_new (portfolio_worker, pf, (gint) threads, FALSE, NULL);
}

void
zg330_etm_portfolio_clear (Portfolio *pf)
{
  if (pf->pool)
    g_thread_pool_free (pf->pool, FALSE, TRUE);
  for (guint k = 0; k < N_TASKS; k++)
    {
      zg330_etm_search_clear (&pf->tasks[k].s);
      g_free (pf->tasks[k].order);
      g_free (pf->tasks[k].base);
    }
  g_mutex_clear (&pf->lock);
  g_cond_clear (&pf->cond);
}

/* One dive per preorder without a capacity: every buffer in turn at the
 * lowest offset any unplaced buffer can take (a skyline greedy).  Writes
 * the best arena's offsets to @off; returns that arena (G_MAXINT64 if none). */
gint64
zg330_etm_portfolio_dive (Portfolio *pf, gint64 *off)
{
  const Problem *p = pf->tasks[0].s.p;
  gint64 best = G_MAXINT64;
  pf->winner = G_MAXINT;
  for (guint k = 0; k < N_TASKS; k++)
    {
      Search *s = &pf->tasks[k].s;
      s->cap = G_MAXINT64 / 4;
      s->deadline = G_MAXINT64;
      s->nodes = 0;
      s->node_limit = 4 * (guint64) p->m + 64;
      s->work = 0;
      s->work_limit = G_MAXUINT64;  /* no backtracking: about m placements */
      s->disc = 0;
      if (zg330_etm_search_run (s, pf->tasks[k].order) == FOUND)
        {
          gint64 a = arena_of (p, s->sol);
          if (a < best)
            {
              best = a;
              memcpy (off, s->sol, sizeof (gint64) * p->m);
            }
        }
      pf->nodes += s->nodes;
      pf->work += s->work;
    }
  return best;
}

/* A round's work cap per task: a fixed multiple of its node limit (a node
 * costs up to a few hundred work units per buffer), so that the node limit,
 * not the cap, ends a round on the instances seen (on the public MiniMalloc
 * ones the plans and the work are those of the budget-shared caps before),
 * and the schedule never depends on the budget. */
#define ROUND_WORK(p, limit) ((limit) * (256 * (guint64) (p)->m + 1024))

/* Decides whether everything fits in @cap units, spending at most @slice
 * work units (added to pf->work).  Returns FOUND (the offsets in *@sol,
 * owned by the portfolio), NOT_FOUND (proven) or ABORTED (the slice is
 * spent, or the optional time limit cut in: pf->time_limit_hit).
 *
 * The search is one fixed sequence of steps, (round 0, task 0), (round 0,
 * task 1), ..., (round 1, task 0), ...: round r gives every task the node
 * limit max(m, 64) * 3^r and the work cap ROUND_WORK, neither of which
 * depends on @slice (a restart task spends its round, and the
 * nodes earlier rounds left it, on whole restarts of its own fixed
 * sequence of seeded restarts).  The slice only decides where the sequence is cut:
 * a step gets what the steps before it left (the tasks of a round run side
 * by side on the threads, each with the round's cap or less, and are then
 * charged in portfolio order; a search's work counter is a prefix of the
 * same search with a larger cap, so this is the sequential run's answer).
 * The winner of a round is the lowest task index that found a fit within
 * what was left to it; a step cut by the slice ends the call.  So a fit
 * found with W work units is found, the same, with any slice >= W: a
 * larger budget never loses a fit (no cliff), and the answer, the offsets
 * and the work charged depend on the input, @cap and @slice only: not on
 * the thread count, the machine or its load. */
int
zg330_etm_portfolio_fit (Portfolio *pf, gint64 cap, guint64 slice, const gint64 **sol)
{
  const Problem *p = pf->tasks[0].s.p;
  for (guint k = 0; k < N_TASKS; k++)
    {
      SearchTask *t = &pf->tasks[k];
      t->s.cap = cap;
      t->s.deadline = pf->deadline;
      t->s.timed_out = FALSE;
      t->disc = 0;
      t->cursor = 0;
      t->credit = 0;
      /* failures under another capacity say nothing here */
      g_hash_table_remove_all (t->s.memo);
    }
  guint64 spent = 0;
  /* Every round repeats the work of the rounds before it, in all tasks: a
   * factor of 3 between rounds wastes less of that than 2 (the perturbed
   * public E fits with 0.85e9 work units instead of 1.43e9) and overshoots
   * less than 4 (planted packings, public D and E). */
  for (guint64 limit = MAX (p->m, 64);; limit = MIN (limit * 3, G_MAXUINT64 / 4))
    {
      guint64 left = slice > spent ? slice - spent : 0;
      if (left == 0)
        return ABORTED;   /* the slice is spent */
      pf->winner = G_MAXINT;
      pf->pending = N_TASKS;
      for (guint k = 0; k < N_TASKS; k++)
        {
          SearchTask *t = &pf->tasks[k];
          t->limit = limit;
          t->credit += t->restarts ? t->limit : 0;
          t->round_cap = ROUND_WORK (p, t->restarts ? t->credit : t->limit);
          t->work_cap = MIN (t->round_cap, left);
          if (pf->pool)
            g_thread_pool_push (pf->pool, &pf->tasks[k], NULL);
          else
            portfolio_worker (&pf->tasks[k], pf);
        }
      g_mutex_lock (&pf->lock);
      while (pf->pending > 0)
        g_cond_wait (&pf->cond, &pf->lock);
      g_mutex_unlock (&pf->lock);

      /* charge the steps in portfolio order, each with what the ones before
       * it left; the first that found a fit within that wins, the first
       * that needed more than that ends the call (a task after a fit may
       * have been skipped: it is never charged) */
      gboolean timed_out = FALSE, cut = FALSE;
      gint winner = -1, proof = -1;
      guint64 charged = 0;
      for (guint k = 0; k < N_TASKS && winner < 0 && proof < 0 && !cut; k++)
        {
          SearchTask *t = &pf->tasks[k];
          /* a fit counts all its work (the last node may pass the cap by a
           * few units); a search cut short, its cap */
          guint64 w = t->result == FOUND ? t->s.work : MIN (t->s.work, t->work_cap);
          timed_out |= t->s.timed_out;
          if (t->result == FOUND ? w > left - charged : w >= left - charged && left - charged < t->round_cap)
            cut = TRUE;   /* the slice ran out inside this step */
          charged += MIN (w, left - charged);
          pf->nodes += t->s.nodes;
          if (cut)
            break;
          if (t->result == FOUND)
            winner = (gint) k;
          else if (t->proven)
            proof = (gint) k;
        }
      g_debug ("ETM plan: cap %" G_GINT64_FORMAT " units, node limit %" G_GUINT64_FORMAT ": charged %"
               G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " work units, winner %d, proof %d, cut %d", cap, limit,
               charged, left, winner, proof, cut);
      spent += charged;
      pf->work += charged;
      /* (a fit or a proof is valid however the round ended; with the
       * time limit on, which one comes out may depend on timing) */
      if (timed_out)
        pf->time_limit_hit = TRUE;
      if (winner >= 0)
        {
          *sol = pf->tasks[winner].s.sol;
          return FOUND;
        }
      if (proof >= 0)
        return NOT_FOUND;
      if (cut)
        return ABORTED;
      if (timed_out || (pf->deadline != G_MAXINT64 && g_get_monotonic_time () > pf->deadline))
        {
          pf->time_limit_hit = TRUE;
          return ABORTED;
        }
    }
}
