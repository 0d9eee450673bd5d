/* zg330-etm-greedy.c — the ETM planner's greedy layer: a priority order of the buffers,
 * each placed at the lowest (first fit) or tightest (best fit) gap its placed neighbours
 * leave; and the seeded hill climb over such orders (after Vela) for instances too big
 * for the exact search. */
#include "backends/zg330/zg330-etm-plan-private.h"

#include <string.h>

static int
cmp_span (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;
  return (x->off > y->off) - (x->off < y->off);
}

/* Places buffers in @order; @best_fit picks the tightest gap that fits
 * instead of the lowest.  Returns the arena (units). */
gint64
zg330_etm_greedy_place (Greedy *g, const guint *order, gboolean best_fit, gint64 *off)
{
  const Problem *p = g->p;
  gint64 top = 0;
  memset (g->placed, 0, sizeof (gboolean) * p->m);
  for (guint k = 0; k < p->m; k++)
    {
      guint i = order[k];
      guint ns = 0;
      for (guint a = p->adj_start[i]; a < p->adj_start[i + 1]; a++)
        {
          guint j = p->adj[a];
          if (g->placed[j])
            {
              g->spans[ns].off = off[j];
              g->spans[ns].end = off[j] + p->size[j];
              ns++;
            }
        }
      qsort (g->spans, ns, sizeof (Span), cmp_span);
      gint64 cur = 0, pick = -1, pick_gap = G_MAXINT64;
      for (guint s = 0; s < ns; s++)
        {
          gint64 gap = g->spans[s].off - cur;
          if (gap >= p->size[i] && (!best_fit || gap < pick_gap))
            {
              pick = cur;
              pick_gap = gap;
              if (!best_fit)
                break;
            }
          cur = MAX (cur, g->spans[s].end);
        }
      if (pick < 0)
        pick = cur;
      off[i] = pick;
      g->placed[i] = TRUE;
      top = MAX (top, pick + p->size[i]);
    }
  return top;
}

/* Priority keys, as letters (after MiniMalloc's notation): Z size,
 * A size x lifetime, W lifetime, T max live units in the buffer's sections,
 * O conflicts, C sections spanned, S earlier start first.  Larger first. */
typedef struct {
  const Problem *p;
  const char    *keys;
} OrderCtx;

static int
cmp_order (gconstpointer a, gconstpointer b, gpointer data)
{
  const OrderCtx *c = data;
  const Problem *p = c->p;
  guint x = *(const guint *) a, y = *(const guint *) b;
  for (const char *k = c->keys; *k; k++)
    {
      gint64 vx = 0, vy = 0;
      switch (*k)
        {
        case 'Z': vx = p->size[x]; vy = p->size[y]; break;
        case 'A': vx = p->size[x] * (p->hi[x] - p->lo[x]);
                  vy = p->size[y] * (p->hi[y] - p->lo[y]); break;
        case 'W': vx = p->hi[x] - p->lo[x]; vy = p->hi[y] - p->lo[y]; break;
        case 'T': vx = p->maxtot[x]; vy = p->maxtot[y]; break;
        case 'O': vx = problem_degree (p, x); vy = problem_degree (p, y); break;
        case 'C': vx = p->shi[x] - p->slo[x]; vy = p->shi[y] - p->slo[y]; break;
        case 'S': vx = -p->lo[x]; vy = -p->lo[y]; break;
        default: g_assert_not_reached ();
        }
      if (vx != vy)
        return vx > vy ? -1 : 1;
    }
  return (x > y) - (x < y);
}

void
zg330_etm_order_by (const Problem *p, const char *keys, guint *order)
{
  OrderCtx c = { p, keys };
  for (guint i = 0; i < p->m; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) p->m, sizeof (guint), cmp_order, &c);
}

/* At most @max_iters steps (the work budget); @deadline is the optional
 * time limit (G_MAXINT64 = none), *@timed_out set when it cuts in. */
gint64
zg330_etm_hill_climb (Greedy *g, guint *order, gboolean best_fit, gint64 *best_off,
            gint64 best, gint64 lb, guint64 max_iters, gint64 deadline,
            guint64 *iters, gboolean *timed_out)
{
  const Problem *p = g->p;
  guint m = p->m;
  if (m < 2)
    return best;
  g_autoptr (GRand) rng = g_rand_new_with_seed (0x2330);
  g_autofree guint *cur = g_memdup2 (order, sizeof (guint) * m);
  g_autofree gint64 *off = g_new (gint64, m);
  g_autofree guint *pos = g_new (guint, m);
  gint64 cur_arena = best;
  guint64 it = 0;

  while (best > lb && it < max_iters)
    {
      /* one step costs far more than reading the clock */
      if (deadline != G_MAXINT64 && g_get_monotonic_time () > deadline)
        {
          *timed_out = TRUE;
          break;
        }
      it++;
      /* Move a buffer that touches the top earlier (it then gets a lower
       * place), or swap two at random to leave plateaus. */
      guint i, j;
      if (g_rand_int_range (rng, 0, 4) != 0)
        {
          zg330_etm_greedy_place (g, cur, best_fit, off);
          for (guint k = 0; k < m; k++)
            pos[cur[k]] = k;
          guint tops = 0, pick = 0;
          for (guint x = 0; x < m; x++)
            if (off[x] + p->size[x] == cur_arena &&
                g_rand_int_range (rng, 0, (gint32) ++tops) == 0)
              pick = x;
          j = pos[pick];
          if (j == 0)
            continue;
          i = (guint) g_rand_int_range (rng, 0, (gint32) j);
          guint v = cur[j];
          memmove (cur + i + 1, cur + i, sizeof (guint) * (j - i));
          cur[i] = v;
          gint64 a = zg330_etm_greedy_place (g, cur, best_fit, off);
          if (a <= cur_arena)
            cur_arena = a;
          else
            {
              memmove (cur + i, cur + i + 1, sizeof (guint) * (j - i));
              cur[j] = v;
            }
        }
      else
        {
          i = (guint) g_rand_int_range (rng, 0, (gint32) m);
          j = (guint) g_rand_int_range (rng, 0, (gint32) m);
          if (i == j)
            continue;
          guint t = cur[i]; cur[i] = cur[j]; cur[j] = t;
          gint64 a = zg330_etm_greedy_place (g, cur, best_fit, off);
          if (a <= cur_arena)
            cur_arena = a;
          else
            {
              t = cur[i]; cur[i] = cur[j]; cur[j] = t;
            }
        }
      if (cur_arena < best)
        {
          best = cur_arena;
          zg330_etm_greedy_place (g, cur, best_fit, best_off);
        }
    }
  *iters = it;
  return best;
}
