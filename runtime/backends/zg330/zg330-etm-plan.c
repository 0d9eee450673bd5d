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
 *     independent subproblems.  Several preorders, plain depth-first and
 *     limited-discrepancy, run as a portfolio on up to two threads in
 *     rounds of doubling node limits (deterministic: the first task in
 *     portfolio order that succeeds in a round wins);
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
 */
#include "backends/zg330/zg330-etm-plan.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <string.h>

G_DEFINE_QUARK (zg330-plan-error-quark, zg330_plan_error)

/* The exact search keeps per-section buffer lists and a stack of the
 * unplaced buffers at every depth (up to buffers^2 / 2 entries); past these
 * sizes it is skipped in favour of the hill climb. */
#define SEARCH_MAX_MEMBERSHIP (8u * 1024u * 1024u)
#define SEARCH_MAX_BUFFERS    4096u

/* ------------------------------------------------------------------------ */
/* Problem: the buffers that need bytes, in alignment units.                */

typedef struct {
  guint    m;          /* buffers planned (valid lifetime, size > 0) */
  guint   *orig;       /* index into the caller's array */
  gint64  *size;       /* aligned size, units */
  gint64  *lo, *hi;    /* lifetime, caller's time */
  guint   *slo, *shi;  /* lifetime as a range of sections */
  guint    nsec;
  guint   *adj_start;  /* CSR: buffers whose lifetimes overlap */
  guint   *adj;
  guint   *sec_start;  /* CSR: buffers live in each section */
  guint   *sec_buf;
  gint64  *sec_live;   /* units live in each section */
  gint64  *maxtot;     /* per buffer: max sec_live over its sections */
  gint64   lb;         /* max sec_live */
  gboolean searchable; /* membership small enough for the exact search */
} Problem;

static void
problem_clear (Problem *p)
{
  g_free (p->orig);
  g_free (p->size);
  g_free (p->lo);
  g_free (p->hi);
  g_free (p->slo);
  g_free (p->shi);
  g_free (p->adj_start);
  g_free (p->adj);
  g_free (p->sec_start);
  g_free (p->sec_buf);
  g_free (p->sec_live);
  g_free (p->maxtot);
  memset (p, 0, sizeof *p);
}

static int
cmp_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static guint
time_index (const gint64 *times, guint nt, gint64 t)
{
  guint l = 0, r = nt;
  while (l < r)
    {
      guint mid = l + (r - l) / 2;
      if (times[mid] < t)
        l = mid + 1;
      else
        r = mid;
    }
  return l;
}

/* First section whose moment is at or after elementary interval @k. */
static guint
first_section_from (const guint *elem_of, guint nsec, guint k)
{
  guint l = 0, r = nsec;
  while (l < r)
    {
      guint mid = l + (r - l) / 2;
      if (elem_of[mid] < k)
        l = mid + 1;
      else
        r = mid;
    }
  return l;
}

static gint64
units_of (guint64 size, guint64 align)
{
  return (gint64) (size / align + (size % align != 0));
}

/* Sweep order for pairwise overlaps: by section start. */
static int
cmp_by_slo (gconstpointer a, gconstpointer b, gpointer data)
{
  const Problem *p = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  if (p->slo[x] != p->slo[y])
    return p->slo[x] < p->slo[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static void
problem_init (Problem *p, const Zg330Buffer *b, guint n, guint64 align)
{
  memset (p, 0, sizeof *p);
  p->orig = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    if (b[i].size > 0 && b[i].lower < b[i].upper)
      p->orig[p->m++] = i;

  guint m = p->m;
  p->size = g_new (gint64, MAX (m, 1));
  p->lo = g_new (gint64, MAX (m, 1));
  p->hi = g_new (gint64, MAX (m, 1));
  p->slo = g_new (guint, MAX (m, 1));
  p->shi = g_new (guint, MAX (m, 1));
  p->maxtot = g_new0 (gint64, MAX (m, 1));

  g_autofree gint64 *times = g_new (gint64, 2 * (gsize) m + 1);
  for (guint i = 0; i < m; i++)
    {
      const Zg330Buffer *x = &b[p->orig[i]];
      p->size[i] = units_of (x->size, align);
      p->lo[i] = x->lower;
      p->hi[i] = x->upper;
      times[2 * i] = x->lower;
      times[2 * i + 1] = x->upper;
    }
  qsort (times, 2 * (gsize) m, sizeof (gint64), cmp_gint64);
  guint nt = 0;
  for (guint i = 0; i < 2 * m; i++)
    if (nt == 0 || times[nt - 1] != times[i])
      times[nt++] = times[i];
  /* Sections are the maximal sets of buffers live at one moment (the
   * cliques of the interval graph): the live set just before some buffer
   * ends, if a buffer started since the previous section.  Every other
   * moment's live set is a subset of one of them, so checking only these
   * loses nothing and halves the work. */
  g_autofree gboolean *starts = g_new0 (gboolean, nt + 1);
  g_autofree gboolean *ends = g_new0 (gboolean, nt + 1);
  for (guint i = 0; i < m; i++)
    {
      starts[time_index (times, nt, p->lo[i])] = TRUE;
      ends[time_index (times, nt, p->hi[i])] = TRUE;
    }
  g_autofree guint *elem_of = g_new (guint, nt + 1);
  gboolean started = FALSE;
  for (guint k = 0; k + 1 < nt; k++)
    {
      started |= starts[k];
      if (ends[k + 1] && started)
        {
          elem_of[p->nsec++] = k;
          started = FALSE;
        }
    }

  p->sec_live = g_new0 (gint64, MAX (p->nsec, 1));
  p->sec_start = g_new0 (guint, p->nsec + 1);
  guint64 membership = 0;
  for (guint i = 0; i < m; i++)
    {
      p->slo[i] = first_section_from (elem_of, p->nsec, time_index (times, nt, p->lo[i]));
      p->shi[i] = first_section_from (elem_of, p->nsec, time_index (times, nt, p->hi[i]));
      g_assert (p->slo[i] < p->shi[i]);
      membership += p->shi[i] - p->slo[i];
    }
  p->searchable = membership <= SEARCH_MAX_MEMBERSHIP && m <= SEARCH_MAX_BUFFERS;

  /* Section totals via a difference array. */
  g_autofree gint64 *diff = g_new0 (gint64, p->nsec + 1);
  for (guint i = 0; i < m; i++)
    {
      diff[p->slo[i]] += p->size[i];
      diff[p->shi[i]] -= p->size[i];
    }
  gint64 run = 0;
  for (guint s = 0; s < p->nsec; s++)
    {
      run += diff[s];
      p->sec_live[s] = run;
      p->lb = MAX (p->lb, run);
    }
  for (guint i = 0; i < m; i++)
    for (guint s = p->slo[i]; s < p->shi[i]; s++)
      p->maxtot[i] = MAX (p->maxtot[i], p->sec_live[s]);

  if (p->searchable)
    {
      for (guint i = 0; i < m; i++)
        for (guint s = p->slo[i]; s < p->shi[i]; s++)
          p->sec_start[s + 1]++;
      for (guint s = 0; s < p->nsec; s++)
        p->sec_start[s + 1] += p->sec_start[s];
      p->sec_buf = g_new (guint, MAX (p->sec_start[p->nsec], 1));
      g_autofree guint *fill = g_memdup2 (p->sec_start, sizeof (guint) * (p->nsec + 1));
      for (guint i = 0; i < m; i++)
        for (guint s = p->slo[i]; s < p->shi[i]; s++)
          p->sec_buf[fill[s]++] = i;
    }

  /* Pairwise overlaps by a sweep over section starts. */
  g_autofree guint *by_start = g_new (guint, MAX (m, 1));
  for (guint i = 0; i < m; i++)
    by_start[i] = i;
  g_qsort_with_data (by_start, (gint) m, sizeof (guint), cmp_by_slo, p);
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  g_autoptr (GArray) active = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < m; k++)
    {
      guint i = by_start[k];
      for (guint a = 0; a < active->len;)
        {
          guint j = g_array_index (active, guint, a);
          if (p->shi[j] <= p->slo[i])
            g_array_remove_index_fast (active, a);
          else
            {
              guint pr[2] = { i, j };
              g_array_append_val (pairs, pr);
              a++;
            }
        }
      g_array_append_val (active, i);
    }
  p->adj_start = g_new0 (guint, m + 1);
  const guint *pr = (const guint *) pairs->data;
  for (guint k = 0; k < pairs->len; k++)
    {
      p->adj_start[pr[2 * k] + 1]++;
      p->adj_start[pr[2 * k + 1] + 1]++;
    }
  for (guint i = 0; i < m; i++)
    p->adj_start[i + 1] += p->adj_start[i];
  p->adj = g_new (guint, MAX (p->adj_start[m], 1));
  g_autofree guint *fill = g_memdup2 (p->adj_start, sizeof (guint) * (m + 1));
  for (guint k = 0; k < pairs->len; k++)
    {
      guint x = pr[2 * k], y = pr[2 * k + 1];
      p->adj[fill[x]++] = y;
      p->adj[fill[y]++] = x;
    }
}

static guint
problem_degree (const Problem *p, guint i)
{
  return p->adj_start[i + 1] - p->adj_start[i];
}

static gint64
arena_of (const Problem *p, const gint64 *off)
{
  gint64 top = 0;
  for (guint i = 0; i < p->m; i++)
    top = MAX (top, off[i] + p->size[i]);
  return top;
}

/* ------------------------------------------------------------------------ */
/* Greedy placement of a priority order.                                    */

typedef struct {
  gint64 off;
  gint64 end;
} Span;

static int
cmp_span (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;
  return (x->off > y->off) - (x->off < y->off);
}

typedef struct {
  const Problem *p;
  Span          *spans;   /* scratch, max degree */
  gboolean      *placed;  /* scratch, m */
} Greedy;

/* Places buffers in @order; @best_fit picks the tightest gap that fits
 * instead of the lowest.  Returns the arena (units). */
static gint64
greedy_place (Greedy *g, const guint *order, gboolean best_fit, gint64 *off)
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

static void
order_by (const Problem *p, const char *keys, guint *order)
{
  OrderCtx c = { p, keys };
  for (guint i = 0; i < p->m; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) p->m, sizeof (guint), cmp_order, &c);
}

/* ------------------------------------------------------------------------ */
/* Exact canonical search (decision: fit every buffer below a capacity).    */

enum { FOUND, NOT_FOUND, ABORTED };

#define PLACED G_MAXINT64

/* per task; about 40 bytes each, the table restarts empty when full */
#define MEMO_MAX_ENTRIES (1u << 19)

static inline guint64
mix64 (guint64 x)
{
  /* splitmix64 finaliser */
  x ^= x >> 30;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  x ^= x >> 31;
  return x;
}

enum { TRAIL_MINOFF, TRAIL_SECTION };

typedef struct {
  guint  kind;
  guint  idx;
  gint64 a;       /* old minoff, or old section minimum */
  gint64 b;       /* old count of buffers at the section minimum */
} Trail;

typedef struct {
  const Problem *p;
  gint64   cap;
  gint64  *minoff;   /* lowest offset the placed neighbours allow; PLACED
                      * once placed (so section minima skip it for free) */
  /* Per section, over its unplaced buffers: the lowest minoff (no unplaced
   * buffer there can go lower, so it is the section's floor), how many sit
   * at it, and their total size. */
  gint64  *umin;
  gint64  *ucnt;
  gint64  *total;
  guint   *cuts;     /* per boundary k|k+1: unplaced buffers across it */
  gint    *rank;     /* static preorder rank of each buffer */
  gint64  *sol;
  guint   *stamp;    /* per section: last node that saved it on the trail */
  guint    stamp_now;
  Trail   *trail;
  gsize    trail_len, trail_cap;
  guint   *dirty;    /* sections whose minimum holders all left */
  GArray  *parts;    /* guint: buffer lists of the partitions being solved */
  guint64 *zobrist;  /* per buffer: random key of the state hash */
  guint64  hash;     /* of the unplaced buffers with their minoffs */
  GHashTable *memo;  /* failed states -> least (offset, rank) that failed */
  gboolean memo_on;
  gint    *winner;   /* lowest portfolio index that found a fit this round */
  gint     index;    /* this task's portfolio index */
  guint64  nodes;
  guint64  node_limit;
  guint64  work;       /* work units: nodes, placements tried, candidates
                        * scanned, sections and section members visited */
  guint64  work_limit;
  guint    disc;      /* discrepancies left (limited discrepancy search) */
  guint64  cutoffs;   /* children skipped for want of discrepancies */
  gint64   deadline; /* monotonic µs of the optional time limit; G_MAXINT64 = none */
  gboolean timed_out;
} Search;

static inline guint64
search_zkey (const Search *s, guint j, gint64 minoff)
{
  return mix64 (s->zobrist[j] ^ ((guint64) minoff * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)));
}

static inline Trail *
search_trail_push (Search *s)
{
  if (G_UNLIKELY (s->trail_len == s->trail_cap))
    {
      s->trail_cap = MAX (1024, s->trail_cap * 2);
      s->trail = g_renew (Trail, s->trail, s->trail_cap);
    }
  return &s->trail[s->trail_len++];
}

static void
search_undo (Search *s, gsize mark)
{
  while (s->trail_len > mark)
    {
      const Trail *t = &s->trail[--s->trail_len];
      if (t->kind == TRAIL_MINOFF)
        s->minoff[t->idx] = t->a;
      else
        {
          s->umin[t->idx] = t->a;
          s->ucnt[t->idx] = t->b;
        }
    }
}

/* Saves a section's minimum once per node before it changes. */
static inline void
search_save_section (Search *s, guint sec)
{
  if (s->stamp[sec] == s->stamp_now)
    return;
  s->stamp[sec] = s->stamp_now;
  Trail *t = search_trail_push (s);
  t->kind = TRAIL_SECTION;
  t->idx = sec;
  t->a = s->umin[sec];
  t->b = s->ucnt[sec];
}

/* A buffer at value @old leaves the minimum of its sections (it was placed
 * or its minoff rose); sections left without a holder are recomputed later. */
static inline void
search_leave (Search *s, guint j, gint64 old, guint *ndirty)
{
  const Problem *p = s->p;
  s->work += p->shi[j] - p->slo[j];
  for (guint sec = p->slo[j]; sec < p->shi[j]; sec++)
    if (s->umin[sec] == old)
      {
        search_save_section (s, sec);
        if (--s->ucnt[sec] == 0)
          s->dirty[(*ndirty)++] = sec;
      }
}

static void
search_recompute (Search *s, guint sec)
{
  const Problem *p = s->p;
  gint64 lowest = G_MAXINT64, count = 0;
  s->work += p->sec_start[sec + 1] - p->sec_start[sec];
  for (guint q = p->sec_start[sec]; q < p->sec_start[sec + 1]; q++)
    {
      guint j = p->sec_buf[q];
      if (s->minoff[j] < lowest)
        {
          lowest = s->minoff[j];
          count = 1;
        }
      else if (s->minoff[j] == lowest)
        count++;
    }
  s->umin[sec] = lowest;
  s->ucnt[sec] = lowest == PLACED ? 0 : count;
}

static int search_partition (Search *s, guint pstart, guint plen,
                             guint s0, guint s1, gint64 last_off, gint last_rank);

/* After @c was placed some section boundaries may have no unplaced buffer
 * across them: the unplaced buffers of the partition then form independent
 * subproblems, solved one after the other (a failure in one cannot be
 * mended by re-solving another). */
static int
search_decompose (Search *s, guint pstart, guint plen, guint s0, guint s1,
                  guint c, gint64 o)
{
  const Problem *p = s->p;
  int r = FOUND;
  guint a = s0;
  while (a < s1 && r == FOUND)
    {
      guint z = a + 1;
      while (z < s1 && !(z - 1 >= p->slo[c] && z < p->shi[c] && s->cuts[z - 1] == 0))
        z++;
      guint base = s->parts->len;
      for (guint k = 0; k < plen; k++)
        {
          guint j = g_array_index (s->parts, guint, pstart + k);
          if (s->minoff[j] != PLACED && p->slo[j] >= a && p->slo[j] < z)
            g_array_append_val (s->parts, j);
        }
      guint len = s->parts->len - base;
      if (len > 0)
        r = search_partition (s, base, len, a, z, o, s->rank[c]);
      g_array_set_size (s->parts, base);
      a = z;
    }
  return r;
}

/* Depth-first search over one partition: the buffers parts[pstart..+plen)
 * living in sections [s0, s1).  (last_off, last_rank) is the previous
 * placement: canonical placements come in increasing (offset, rank), each
 * at the lowest offset its placed neighbours allow. */
static int
search_partition (Search *s, guint pstart, guint plen, guint s0, guint s1,
                  gint64 last_off, gint last_rank)
{
  const Problem *p = s->p;

  if (++s->nodes > s->node_limit || ++s->work > s->work_limit)
    return ABORTED;
  if ((s->nodes & 255) == 0)
    {
      if (s->deadline != G_MAXINT64 && g_get_monotonic_time () > s->deadline)
        {
          s->timed_out = TRUE;
          return ABORTED;
        }
      /* another task of the portfolio that comes first has succeeded */
      if (s->winner && g_atomic_int_get (s->winner) < s->index)
        return ABORTED;
    }

  /* No buffer may go at or above the lowest top any unplaced buffer can
   * reach: that one would fit lower (dominance).  The unplaced buffers are
   * copied to the top of the parts stack for this node and its children. */
  guint base = s->parts->len;
  g_array_set_size (s->parts, base + plen);
  guint *live = (guint *) s->parts->data + base;
  const guint *part = (const guint *) s->parts->data + pstart;
  guint nlive = 0;
  gint64 min_height = G_MAXINT64;
  for (guint k = 0; k < plen; k++)
    {
      guint j = part[k];
      if (s->minoff[j] == PLACED)
        continue;
      live[nlive++] = j;
      min_height = MIN (min_height, s->minoff[j] + p->size[j]);
    }
  g_array_set_size (s->parts, base + nlive);
  /* this node's scans (the live list, the candidates, the sections) and
   * its memo lookup, which costs about as much as a dozen steps */
  s->work += plen + nlive + (s1 - s0) + 16;
  if (nlive == 0)
    return FOUND;

  /* The same unplaced buffers with the same lowest offsets are reached by
   * different placements of buffers that no longer matter (their time has
   * passed): a state that failed once fails again under the same or a
   * stricter canonical bound.  Only complete failures are recorded.  States
   * are told apart by a 64-bit hash; a collision (odds ~1e-8 per million
   * entries) could only hide a fit, never yield an invalid placement. */
  gpointer memo_key = NULL;
  guint64 bound = 0;
  if (s->memo_on)
    {
      memo_key = GSIZE_TO_POINTER ((gsize) (s->hash ^ mix64 (((guint64) s0 << 32) ^ s1 ^ 0x5bd1e995u)));
      bound = ((guint64) last_off << 21) | (guint64) (last_rank + 1);
      gpointer v;
      if (g_hash_table_lookup_extended (s->memo, memo_key, NULL, &v) &&
          (guint64) GPOINTER_TO_SIZE (v) <= bound)
        {
          g_array_set_size (s->parts, base);
          return NOT_FOUND;
        }
    }

  /* Candidates: unplaced buffers that can go below min_height, within the
   * capacity, after the previous placement in (offset, rank) order.  They
   * sit on the parts stack above the live list and are taken lazily in
   * increasing (offset, rank): most nodes try only the first before the
   * search dives or prunes. */
  g_array_set_size (s->parts, base + 2 * nlive);
  live = (guint *) s->parts->data + base;
  guint *cand = live + nlive;
  guint ncand = 0;
  for (guint k = 0; k < nlive; k++)
    {
      guint j = live[k];
      gint64 o = s->minoff[j];
      if (o >= min_height || o + p->size[j] > s->cap)
        continue;
      if (o < last_off || (o == last_off && s->rank[j] <= last_rank))
        continue;
      cand[ncand++] = j;
    }
  g_array_set_size (s->parts, base + nlive + ncand);

  gint64 max_total = 0;
  for (guint sec = s0; sec < s1; sec++)
    max_total = MAX (max_total, s->total[sec]);

  int result = NOT_FOUND;
  guint64 cutoffs_before = s->cutoffs;
  guint feasible = 0;
  gint64 prev_off = last_off;
  gint prev_rank = last_rank;
  for (;;)
    {
      guint c = G_MAXUINT;
      gint64 c_off = G_MAXINT64;
      gint c_rank = G_MAXINT;
      /* failed placements cost work without a node: count them too */
      s->work += 1 + ncand;
      if (s->work > s->work_limit)
        {
          result = ABORTED;
          break;
        }
      cand = (guint *) s->parts->data + base + nlive;  /* children may move it */
      for (guint k = 0; k < ncand; k++)
        {
          guint j = cand[k];
          gint64 o = s->minoff[j];
          gint r = s->rank[j];
          if (o < prev_off || (o == prev_off && r <= prev_rank))
            continue;
          if (o < c_off || (o == c_off && r < c_rank))
            {
              c = j;
              c_off = o;
              c_rank = r;
            }
        }
      /* Every unplaced buffer goes at c_off or higher: the fullest section
       * must still fit above it (and so must every later candidate). */
      if (c == G_MAXUINT || c_off + max_total > s->cap)
        break;
      if (feasible > s->disc)
        {
          s->cutoffs++;
          break;
        }
      prev_off = c_off;
      prev_rank = c_rank;

      gint64 o = s->minoff[c];
      gint64 h = o + p->size[c];
      gsize mark = s->trail_len;
      guint64 saved_hash = s->hash;
      guint ndirty = 0;
      gboolean ok = TRUE;

      if (G_UNLIKELY (++s->stamp_now == 0))
        {
          /* wrapped: old stamps could look current */
          memset (s->stamp, 0, sizeof (guint) * MAX (p->nsec, 1));
          s->stamp_now = 1;
        }
      s->minoff[c] = PLACED;
      s->sol[c] = o;
      s->hash ^= search_zkey (s, c, o);
      search_leave (s, c, o, &ndirty);
      for (guint sec = p->slo[c]; sec < p->shi[c]; sec++)
        s->total[sec] -= p->size[c];

      /* Raise the neighbours' lowest offsets. */
      s->work += p->adj_start[c + 1] - p->adj_start[c];
      for (guint a = p->adj_start[c]; a < p->adj_start[c + 1]; a++)
        {
          guint j = p->adj[a];
          gint64 old = s->minoff[j];
          if (old >= h)   /* also every placed buffer */
            continue;
          if (h + p->size[j] > s->cap)
            {
              ok = FALSE;  /* it no longer fits anywhere */
              break;
            }
          Trail *t = search_trail_push (s);
          t->kind = TRAIL_MINOFF;
          t->idx = j;
          t->a = old;
          s->minoff[j] = h;
          s->hash ^= search_zkey (s, j, old) ^ search_zkey (s, j, h);
          search_leave (s, j, old, &ndirty);
        }
      for (guint d = 0; d < ndirty && ok; d++)
        search_recompute (s, s->dirty[d]);

      /* Every section must still hold its unplaced buffers above both its
       * floor and the current offset (offsets only grow from here).  The
       * offset part held for all sections before placing (max_total); the
       * floor part can only have changed where c lives or a minimum moved. */
      for (guint sec = p->slo[c]; sec < p->shi[c] && ok; sec++)
        if (s->total[sec] > 0 && MAX (s->umin[sec], o) + s->total[sec] > s->cap)
          ok = FALSE;
      for (guint d = 0; d < ndirty && ok; d++)
        {
          guint sec = s->dirty[d];
          if (s->total[sec] > 0 && MAX (s->umin[sec], o) + s->total[sec] > s->cap)
            ok = FALSE;
        }

      guint spent = ok ? feasible++ : 0;
      s->disc -= spent;
      if (ok)
        {
          gboolean split = FALSE;
          for (guint k = p->slo[c]; k + 1 < p->shi[c]; k++)
            if (--s->cuts[k] == 0)
              split = TRUE;
          if (split)
            result = search_decompose (s, base, nlive, s0, s1, c, o);
          else
            result = search_partition (s, base, nlive, s0, s1, o, s->rank[c]);
          for (guint k = p->slo[c]; k + 1 < p->shi[c]; k++)
            s->cuts[k]++;
        }

      s->disc += spent;
      s->minoff[c] = o;
      s->hash = saved_hash;
      search_undo (s, mark);
      for (guint sec = p->slo[c]; sec < p->shi[c]; sec++)
        s->total[sec] += p->size[c];
      if (result != NOT_FOUND)
        break;
    }
  if (result == NOT_FOUND && s->memo_on && s->cutoffs == cutoffs_before)
    {
      gpointer v;
      if (g_hash_table_size (s->memo) >= MEMO_MAX_ENTRIES)
        g_hash_table_remove_all (s->memo);
      if (!g_hash_table_lookup_extended (s->memo, memo_key, NULL, &v) ||
          (guint64) GPOINTER_TO_SIZE (v) > bound)
        g_hash_table_insert (s->memo, memo_key, GSIZE_TO_POINTER ((gsize) bound));
    }
  g_array_set_size (s->parts, base);
  return result;
}

static void
search_init (Search *s, const Problem *p)
{
  memset (s, 0, sizeof *s);
  s->p = p;
  guint m = MAX (p->m, 1), ns = MAX (p->nsec, 1);
  s->minoff = g_new (gint64, m);
  s->umin = g_new (gint64, ns);
  s->ucnt = g_new (gint64, ns);
  s->total = g_new (gint64, ns);
  s->cuts = g_new (guint, ns);
  s->rank = g_new (gint, m);
  s->sol = g_new (gint64, m);
  s->stamp = g_new0 (guint, ns);
  /* a placement dirties each section at most once */
  s->dirty = g_new (guint, ns);

  s->parts = g_array_new (FALSE, FALSE, sizeof (guint));
  s->zobrist = g_new (guint64, m);
  for (guint i = 0; i < m; i++)
    s->zobrist[i] = mix64 (G_GUINT64_CONSTANT (0x2330) + i);
  s->memo = g_hash_table_new (g_direct_hash, NULL);
}

static void
search_clear (Search *s)
{
  g_free (s->minoff);
  g_free (s->umin);
  g_free (s->ucnt);
  g_free (s->total);
  g_free (s->cuts);
  g_free (s->rank);
  g_free (s->sol);
  g_free (s->stamp);
  g_free (s->trail);
  g_free (s->dirty);

  g_array_unref (s->parts);
  g_free (s->zobrist);
  g_hash_table_unref (s->memo);
}

/* One complete attempt with the preorder @order; independent time ranges
 * are solved in turn. */
static int
search_run (Search *s, const guint *order)
{
  const Problem *p = s->p;
  /* (offset, rank) are packed into 64 bits for the memo */
  s->memo_on = sizeof (gpointer) >= 8 && s->cap < ((gint64) 1 << 42) && p->m < (1u << 20);
  s->hash = 0;
  for (guint i = 0; i < p->m; i++)
    s->hash ^= search_zkey (s, i, 0);
  for (guint k = 0; k < p->m; k++)
    s->rank[order[k]] = (gint) k;
  for (guint i = 0; i < p->m; i++)
    {
      s->minoff[i] = 0;
    }
  memset (s->cuts, 0, sizeof (guint) * MAX (p->nsec, 1));
  for (guint sec = 0; sec < p->nsec; sec++)
    {
      s->umin[sec] = 0;
      s->ucnt[sec] = p->sec_start[sec + 1] - p->sec_start[sec];
      s->total[sec] = p->sec_live[sec];
    }
  for (guint i = 0; i < p->m; i++)
    for (guint k = p->slo[i]; k + 1 < p->shi[i]; k++)
      s->cuts[k]++;
  s->trail_len = 0;
  g_array_set_size (s->parts, 0);

  s->work += p->m + p->nsec;   /* the set-up above */
  if (p->lb > s->cap)
    return NOT_FOUND;

  g_autofree guint *by_start = g_new (guint, MAX (p->m, 1));
  for (guint i = 0; i < p->m; i++)
    by_start[i] = i;
  g_qsort_with_data (by_start, (gint) p->m, sizeof (guint), cmp_by_slo, (gpointer) p);

  guint k = 0;
  while (k < p->m)
    {
      /* One partition: buffers chained by shared sections. */
      guint first = by_start[k];
      guint s0 = p->slo[first], s1 = p->shi[first];
      guint base = s->parts->len;
      while (k < p->m && p->slo[by_start[k]] < s1)
        {
          guint j = by_start[k++];
          s1 = MAX (s1, p->shi[j]);
          g_array_append_val (s->parts, j);
        }
      int r = search_partition (s, base, s->parts->len - base, s0, s1, 0, -1);
      g_array_set_size (s->parts, base);
      if (r != FOUND)
        return r;
    }
  return FOUND;
}

/* ------------------------------------------------------------------------ */
/* Portfolio: several preorders, plain depth-first and limited-discrepancy, */
/* run in rounds with a node limit that doubles each round.                 */

/* Which task succeeds first differs from instance to instance by orders of
 * magnitude, so none is run alone.  Plain depth-first with restarts is
 * MiniMalloc's scheme; limited discrepancy search (Harvey & Ginsberg) first
 * tries the paths that leave the (offset, rank) order only a few times,
 * which recovers from an early wrong choice far sooner. */
typedef struct {
  const char *keys;
  gboolean    lds;
} SearchTaskKind;

static const SearchTaskKind portfolio_kinds[] = {
  { "TWA", TRUE },
  { "TWA", FALSE },
  { "TAW", FALSE },
  { "AWT", FALSE },
};
#define N_TASKS G_N_ELEMENTS (portfolio_kinds)

typedef struct {
  Search   s;
  guint   *order;
  gboolean lds;
  guint    disc;     /* LDS: discrepancies of the next iteration */
  guint64  limit;    /* nodes for this round */
  guint64  work_cap; /* work units for this round */
  int      result;
  gboolean proven;   /* result NOT_FOUND covers the whole search space */
} SearchTask;

typedef struct {
  SearchTask   tasks[N_TASKS];
  GThreadPool *pool;
  GMutex       lock;
  GCond        cond;
  guint        pending;
  gint         winner;
  guint64      nodes;      /* search nodes charged so far (deterministic) */
  guint64      work;       /* work units charged so far (deterministic) */
  gint64       deadline;   /* optional time limit; G_MAXINT64 = none */
  gboolean     time_limit_hit;
} Portfolio;

static void
task_round (SearchTask *t)
{
  Search *s = &t->s;
  t->proven = FALSE;
  if (!t->lds)
    {
      s->nodes = 0;
      s->node_limit = t->limit;
      s->work = 0;
      s->work_limit = t->work_cap;
      s->disc = G_MAXUINT;
      s->cutoffs = 0;
      t->result = search_run (s, t->order);
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
      t->result = search_run (s, t->order);
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
static void
portfolio_init (Portfolio *pf, const Problem *p, guint threads, gint64 deadline)
{
  memset (pf, 0, sizeof *pf);
  pf->winner = G_MAXINT;
  pf->deadline = deadline;
  g_mutex_init (&pf->lock);
  g_cond_init (&pf->cond);
  for (guint k = 0; k < N_TASKS; k++)
    {
      SearchTask *t = &pf->tasks[k];
      search_init (&t->s, p);
      t->s.index = (gint) k;
      t->s.winner = &pf->winner;
      t->order = g_new (guint, MAX (p->m, 1));
      order_by (p, portfolio_kinds[k].keys, t->order);
      t->lds = portfolio_kinds[k].lds;
    }
  /* One thread: the round runs inline (the same tasks, in order). */
  if (threads > 1)
    pf->pool = g_thread_pool_new (portfolio_worker, pf, (gint) threads, FALSE, NULL);
}

static void
portfolio_clear (Portfolio *pf)
{
  if (pf->pool)
    g_thread_pool_free (pf->pool, FALSE, TRUE);
  for (guint k = 0; k < N_TASKS; k++)
    {
      search_clear (&pf->tasks[k].s);
      g_free (pf->tasks[k].order);
    }
  g_mutex_clear (&pf->lock);
  g_cond_clear (&pf->cond);
}

/* One dive per preorder without a capacity: every buffer in turn at the
 * lowest offset any unplaced buffer can take (a skyline greedy).  Writes
 * the best arena's offsets to @off; returns that arena (G_MAXINT64 if none). */
static gint64
portfolio_dive (Portfolio *pf, gint64 *off)
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
      if (search_run (s, pf->tasks[k].order) == FOUND)
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
 * limit max(m, 64) * 2^r and the work cap ROUND_WORK, neither of which
 * depends on @slice.  The slice only decides where the sequence is cut:
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
static int
portfolio_fit (Portfolio *pf, gint64 cap, guint64 slice, const gint64 **sol)
{
  const Problem *p = pf->tasks[0].s.p;
  for (guint k = 0; k < N_TASKS; k++)
    {
      SearchTask *t = &pf->tasks[k];
      t->s.cap = cap;
      t->s.deadline = pf->deadline;
      t->s.timed_out = FALSE;
      t->disc = 0;
      /* failures under another capacity say nothing here */
      g_hash_table_remove_all (t->s.memo);
    }
  guint64 spent = 0;
  for (guint64 limit = MAX (p->m, 64);; limit = MIN (limit * 2, G_MAXUINT64 / 4))
    {
      guint64 left = slice > spent ? slice - spent : 0;
      guint64 round_cap = ROUND_WORK (p, limit);
      if (left == 0)
        return ABORTED;   /* the slice is spent */
      pf->winner = G_MAXINT;
      pf->pending = N_TASKS;
      for (guint k = 0; k < N_TASKS; k++)
        {
          pf->tasks[k].limit = limit;
          pf->tasks[k].work_cap = MIN (round_cap, left);
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
          if (t->result == FOUND ? w > left - charged : w >= left - charged && left - charged < round_cap)
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

/* ------------------------------------------------------------------------ */
/* Hill climb over greedy orders.                                           */

/* At most @max_iters steps (the work budget); @deadline is the optional
 * time limit (G_MAXINT64 = none), *@timed_out set when it cuts in. */
static gint64
hill_climb (Greedy *g, guint *order, gboolean best_fit, gint64 *best_off,
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
          greedy_place (g, cur, best_fit, off);
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
          gint64 a = greedy_place (g, cur, best_fit, off);
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
          gint64 a = greedy_place (g, cur, best_fit, off);
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
          greedy_place (g, cur, best_fit, best_off);
        }
    }
  *iters = it;
  return best;
}

/* ------------------------------------------------------------------------ */
/* Public entry points.                                                     */

guint64
zg330_etm_lower_bound (const Zg330Buffer *b, guint n, guint64 alignment)
{
  g_return_val_if_fail (b != NULL || n == 0, 0);
  guint64 align = MAX (alignment, 1);
  Problem p;
  problem_init (&p, b, n, align);
  guint64 lb = (guint64) p.lb * align;
  problem_clear (&p);
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
  problem_init (&p, b, n, align);
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
            order_by (&p, greedy[h].keys, order);
            gint64 a = greedy_place (&g, order, fit, off);
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
          portfolio_init (&pf, &p, st.threads, deadline);
          gint64 dive = portfolio_dive (&pf, off);
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
              int r = portfolio_fit (&pf, target, slice, &sol);
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
          portfolio_clear (&pf);
        }

      /* 3. Hill climb over greedy orders when the search cannot run; a
       *    step places every buffer up to twice, against its neighbours. */
      guint64 step_work = 2 * ((guint64) m + p.adj_start[m]);
      if (best > p.lb && !p.searchable && !(fit_only && best <= cap) && budget / step_work > 0)
        {
          guint64 iters = 0;
          gboolean timed_out = FALSE;
          gint64 a = hill_climb (&g, best_order, best_order_fit, off, best,
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
  problem_clear (&p);

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
  problem_init (&p, b, n, align);
  g_autofree gint64 *off = g_new0 (gint64, MAX (p.m, 1));
  g_autofree guint *order = g_new (guint, MAX (p.m, 1));
  Greedy g = { &p, g_new (Span, MAX (p.adj_start[p.m], 1) + 1), g_new (gboolean, MAX (p.m, 1)) };
  order_by (&p, "ZW", order);
  gint64 arena = p.m ? greedy_place (&g, order, FALSE, off) : 0;
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
  problem_clear (&p);
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

/* ------------------------------------------------------------------------ */
/* Independent checker.                                                     */

static int
cmp_check (gconstpointer a, gconstpointer bb, gpointer data)
{
  const Zg330Buffer *b = data;
  const Zg330Buffer *x = &b[*(const guint *) a], *y = &b[*(const guint *) bb];
  if (x->lower != y->lower)
    return x->lower < y->lower ? -1 : 1;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

gboolean
zg330_etm_plan_check (const Zg330Buffer *b,
                      guint              n,
                      guint64            capacity,
                      GError           **error)
{
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  g_autofree guint *idx = g_new (guint, MAX (n, 1));
  guint live = 0;
  for (guint i = 0; i < n; i++)
    {
      if (b[i].size == 0 || b[i].lower >= b[i].upper)
        continue;
      if (b[i].offset > G_MAXUINT64 - b[i].size ||
          (capacity && b[i].offset + b[i].size > capacity))
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY,
                       "buffer id %" G_GINT64_FORMAT " at offset %" G_GUINT64_FORMAT
                       " size %" G_GUINT64_FORMAT " ends past the capacity %" G_GUINT64_FORMAT,
                       b[i].id, b[i].offset, b[i].size, capacity);
          return FALSE;
        }
      idx[live++] = i;
    }
  g_qsort_with_data (idx, (gint) live, sizeof (guint), cmp_check, (gpointer) b);

  /* Sweep in order of start: every buffer still live when another starts
   * overlaps it in time, so their byte ranges must be disjoint. */
  g_autoptr (GArray) active = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < live; k++)
    {
      const Zg330Buffer *x = &b[idx[k]];
      for (guint a = 0; a < active->len;)
        {
          const Zg330Buffer *y = &b[g_array_index (active, guint, a)];
          if (y->upper <= x->lower)
            {
              g_array_remove_index_fast (active, a);
              continue;
            }
          if (x->offset < y->offset + y->size && y->offset < x->offset + x->size)
            {
              g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_OVERLAP,
                           "buffers id %" G_GINT64_FORMAT " [%" G_GUINT64_FORMAT ", %"
                           G_GUINT64_FORMAT ") live [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                           ") and id %" G_GINT64_FORMAT " [%" G_GUINT64_FORMAT ", %"
                           G_GUINT64_FORMAT ") live [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                           ") share bytes",
                           y->id, y->offset, y->offset + y->size, y->lower, y->upper,
                           x->id, x->offset, x->offset + x->size, x->lower, x->upper);
              return FALSE;
            }
          a++;
        }
      guint i = idx[k];
      g_array_append_val (active, i);
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* MiniMalloc CSV.                                                          */

static const char *const csv_columns[] = { "id", "lower", "upper", "size", "offset" };

gboolean
zg330_buffers_save_csv (const char        *path,
                        const Zg330Buffer *b,
                        guint              n,
                        gboolean           with_offset,
                        GError           **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  g_autoptr (GString) out = g_string_new (with_offset ? "id,lower,upper,size,offset\n"
                                                      : "id,lower,upper,size\n");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
                              G_GINT64_FORMAT ",%" G_GUINT64_FORMAT,
                              b[i].id, b[i].lower, b[i].upper, b[i].size);
      if (with_offset)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, b[i].offset);
      g_string_append_c (out, '\n');
    }
  g_autoptr (GError) local = NULL;
  if (!zw_file_set_contents (path, out->str, (gssize) out->len, &local))
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_IO,
                   "%s: cannot write buffer CSV: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

GArray *
zg330_buffers_load_csv (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr (GError) local = NULL;
  if (!zw_file_read_regular (path, ZW_INPUT_BUFFER_CSV, 0, &text, &len, &local))
    {
      g_set_error_literal (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_IO, local->message);
      return NULL;
    }
  if (memchr (text, '\0', len) != NULL)
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                   "%s: binary data (NUL byte at offset %zu), expected CSV",
                   path, (size_t) ((char *) memchr (text, '\0', len) - text));
      return NULL;
    }

  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (Zg330Buffer));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint ncols = 0;

  for (guint ln = 0; lines[ln] != NULL; ln++)
    {
      char *line = g_strstrip (lines[ln]);   /* also drops a CR */
      if (*line == '\0')
        continue;
      g_auto (GStrv) fields = g_strsplit (line, ",", -1);
      guint nf = g_strv_length (fields);
      for (guint f = 0; f < nf; f++)
        g_strstrip (fields[f]);

      if (ncols == 0)
        {
          gboolean ok = nf == 4 || nf == 5;
          for (guint f = 0; ok && f < nf; f++)
            ok = g_ascii_strcasecmp (fields[f], csv_columns[f]) == 0;
          if (!ok)
            {
              g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                           "%s:%u: expected the header 'id,lower,upper,size[,offset]', found '%s'",
                           path, ln + 1, line);
              return NULL;
            }
          ncols = nf;
          continue;
        }
      if (nf != ncols)
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                       "%s:%u: expected %u columns, found %u", path, ln + 1, ncols, nf);
          return NULL;
        }
      gint64 v[5] = { 0 };
      for (guint f = 0; f < nf; f++)
        {
          guint64 u = 0;
          g_autoptr (GError) perr = NULL;
          if (!g_ascii_string_to_unsigned (fields[f], 10, 0, G_MAXINT64, &u, &perr))
            {
              g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                           "%s:%u: column %u (%s): '%s' is not a non-negative integer",
                           path, ln + 1, f + 1, csv_columns[f], fields[f]);
              return NULL;
            }
          v[f] = (gint64) u;
        }
      if (v[1] >= v[2])
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                       "%s:%u: column 3 (upper): upper %" G_GINT64_FORMAT
                       " must be greater than lower %" G_GINT64_FORMAT " (half-open lifetime)",
                       path, ln + 1, v[2], v[1]);
          return NULL;
        }
      gpointer first_line = NULL;
      if (g_hash_table_lookup_extended (seen, &v[0], NULL, &first_line))
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                       "%s:%u: column 1 (id): duplicate id %" G_GINT64_FORMAT
                       " (first on line %u)", path, ln + 1, v[0], GPOINTER_TO_UINT (first_line));
          return NULL;
        }
      g_hash_table_insert (seen, g_memdup2 (&v[0], sizeof (gint64)), GUINT_TO_POINTER (ln + 1));
      Zg330Buffer buf = { v[0], v[1], v[2], (guint64) v[3], (guint64) v[4] };
      g_array_append_val (out, buf);
    }
  if (ncols == 0)
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                   "%s:1: empty file, expected the header 'id,lower,upper,size'", path);
      return NULL;
    }
  return g_steal_pointer (&out);
}
