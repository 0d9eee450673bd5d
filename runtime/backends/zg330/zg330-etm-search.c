/* zg330-etm-search.c — the ETM planner's exact canonical search (after MiniMalloc, Moffitt,
 * ASPLOS 2023), as a decision: does every buffer fit below a capacity?  Buffers are placed
 * in non-decreasing offset order, each at the lowest offset its placed neighbours allow;
 * a partial placement is cut by section floors, by the holes a raise leaves, by an exact
 * tiling of the lowest floor of tight sections, by the top an unplaced buffer can reach
 * and by a memo of failed states; twins and stacked peers (same sections) are placed in
 * rank order only; buffers that no longer share a section boundary are
 * solved as independent subproblems.  Bounded by nodes and work units (and the optional
 * time limit), never by the clock alone. */
#include "backends/zg330/zg330-etm-plan-private.h"

#include <string.h>

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

/* A buffer at value @old leaves the minimum of its sections (its minoff
 * rose); sections left without a holder are recomputed later. */
static inline void
search_leave (Search *s, guint j, gint64 old, guint lo, guint hi, guint *ndirty)
{
  const Problem *p = s->p;
  /* (not in [lo, hi): the placed buffer's sections, recomputed anyway) */
  guint a = MIN (p->shi[j], lo), b = MAX (p->slo[j], hi);
  s->work += (a > p->slo[j] ? a - p->slo[j] : 0) + (p->shi[j] > b ? p->shi[j] - b : 0);
  for (guint sec = p->slo[j]; sec < a; sec++)
    if (s->umin[sec] == old)
      {
        search_save_section (s, sec);
        if (--s->ucnt[sec] == 0)
          s->dirty[(*ndirty)++] = sec;
      }
  for (guint sec = b; sec < p->shi[j]; sec++)
    if (s->umin[sec] == old)
      {
        search_save_section (s, sec);
        if (--s->ucnt[sec] == 0)
          s->dirty[(*ndirty)++] = sec;
      }
}

/* Placed @c leaves the unplaced members of @sec: swapped with the last. */
static inline void
search_unlist (Search *s, guint c, guint sec)
{
  const Problem *p = s->p;
  guint slot = s->mstart[c] + (sec - p->slo[c]);
  guint at = s->mpos[slot], last = p->sec_start[sec] + --s->ulen[sec];
  guint other = s->mbuf[last];
  s->mbuf[at] = other;
  s->mpos[s->mstart[other] + (sec - p->slo[other])] = at;
  s->mbuf[last] = c;
  s->mpos[slot] = last;
}

static void
search_recompute (Search *s, guint sec)
{
  const Problem *p = s->p;
  gint64 lowest = G_MAXINT64, count = 0;
  s->work += s->ulen[sec];
  for (guint q = p->sec_start[sec]; q < p->sec_start[sec] + s->ulen[sec]; q++)
    {
      guint j = s->mbuf[q];
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

/* A tight section (its unplaced buffers fill it from its floor to the
 * capacity exactly) has no byte to spare: some unplaced buffer goes at its
 * floor u, and that buffer's lowest offset is u now (u is the least in the
 * section, and lowest offsets only rise).  Buffers placed at one offset
 * cannot share a section, so for every floor u the tight sections at u must
 * be tiled by disjoint section ranges of buffers that sit at u and may still
 * be placed there in canonical order (a 1-D exact cover, decided left to
 * right).  On packings with little slack this cuts a doomed choice at once
 * instead of after every way of filling the rest.  @live are the unplaced
 * buffers of the partition; at most FLOORS_CHECKED floors, lowest first:
 * checking the four lowest cost more work than it saved on the planted and
 * public instances, so only the lowest is.
 * Returns FALSE when some floor cannot be tiled. */
#define FLOORS_CHECKED 1

static inline gboolean
search_tight_at (const Search *s, guint sec, gint64 floor)
{
  return s->total[sec] > 0 && s->umin[sec] == floor && floor + s->total[sec] == s->cap;
}

/* A section boundary's tiler list and reach, cleared at their first use in
 * a floor check. */
static inline void
search_floor_touch (Search *s, guint x)
{
  if (s->fstamp[x] != s->fstamp_now)
    {
      s->fstamp[x] = s->fstamp_now;
      s->head[x] = G_MAXUINT;
      s->reach[x] = FALSE;
    }
}

static inline void
search_floor_reach (Search *s, guint x)
{
  search_floor_touch (s, x);
  s->reach[x] = TRUE;
}

/* Lists @j as a tiler of floor @u's span [a, z) if it is one: at u, within
 * the capacity, next in canonical order and reaching into the span (listed
 * at its first section there). */
static inline void
search_floor_list (Search *s, guint j, gint64 u, guint a, guint z, gint64 last_off, gint last_rank)
{
  const Problem *p = s->p;
  if (s->minoff[j] != u || u + p->size[j] > s->cap ||
      u < last_off || (u == last_off && s->rank[j] <= last_rank) ||
      p->shi[j] <= a || p->slo[j] >= z)
    return;
  guint b = MAX (p->slo[j], a);
  search_floor_touch (s, b);
  s->link[j] = s->head[b];
  s->head[b] = j;
}

static gboolean
search_floor_tileable (Search *s, const guint *live, guint nlive, guint s0, guint s1,
                       gint64 last_off, gint last_rank, gint64 *max_total)
{
  const Problem *p = s->p;
  gint64 floors[FLOORS_CHECKED] = { 0 }, most = 0, low = G_MAXINT64;
  guint first[FLOORS_CHECKED] = { 0 }, last[FLOORS_CHECKED] = { 0 };
  guint nf = 0;
  /* one pass: the fullest section (for the caller) and the lowest floors
   * with the first and last tight section at each */
  s->work += s1 - s0;
  for (guint sec = s0; sec < s1; sec++)
    {
      gint64 u = s->umin[sec];
      most = MAX (most, s->total[sec]);
      if (s->total[sec] > 0)
        low = MIN (low, u);
      if (!(s->total[sec] > 0 && u + s->total[sec] == s->cap))
        continue;
      guint k = 0;
      while (k < nf && floors[k] < u)
        k++;
      if (k < nf && floors[k] == u)
        {
          last[k] = sec;
          continue;
        }
      if (nf == FLOORS_CHECKED)
        {
          if (k == nf)
            continue;
          nf--;     /* keep the lowest */
        }
      memmove (floors + k + 1, floors + k, sizeof (gint64) * (nf - k));
      memmove (first + k + 1, first + k, sizeof (guint) * (nf - k));
      memmove (last + k + 1, last + k, sizeof (guint) * (nf - k));
      floors[k] = u;
      first[k] = last[k] = sec;
      nf++;
    }
  *max_total = most;
  /* for search_cover_kids: the lowest floor, the lowest tight one's span */
  s->low_u = low;
  s->tight_u = nf > 0 ? floors[0] : G_MAXINT64;
  s->tight_a = nf > 0 ? first[0] : s0;
  s->tight_z = nf > 0 ? last[0] + 1 : s0;
  /* Sections before the first tight one at u and after the last are
   * passable: the sweep runs over [a, z] only, a reached from the left, a
   * candidate starting before a taken as starting at a, one ending past z
   * as ending at z, and the floor is tiled when z is reached. */
  for (guint f = 0; f < nf; f++)
    {
      gint64 u = floors[f];
      guint a = first[f], z = last[f] + 1;
      /* head and reach of a section are this check's once stamped with it
       * (no clearing pass) */
      if (G_UNLIKELY (++s->fstamp_now == 0))
        {
          memset (s->fstamp, 0, sizeof (guint) * (MAX (p->nsec, 1) + 1));
          s->fstamp_now = 1;
        }
      search_floor_reach (s, a);
      /* The tilers: the unplaced buffers at u that reach into the span.
       * Those that cover no tight section add nothing (the sections tight
       * at other floors are passed anyway), so they are sought by the
       * shortest of three scans: the tight sections' unplaced members
       * (each buffer taken in the first of them it covers), the span's
       * (each taken in its first section there), or the live list (a
       * section's unplaced members are the partition's live buffers there). */
      guint prev = G_MAXUINT, in_span = 0, in_tight = 0;
      for (guint sec = a; sec < z; sec++)
        {
          s->prev_tight[sec] = prev;
          in_span += s->ulen[sec];
          if (search_tight_at (s, sec, u))
            {
              prev = sec;
              in_tight += s->ulen[sec];
            }
        }
      guint scan = MIN (in_tight, MIN (in_span, nlive));
      s->work += 2 * (z - a) + scan;
      if (scan == in_tight)
        {
          for (guint sec = a; sec < z; sec++)
            if (search_tight_at (s, sec, u))
              for (guint q = p->sec_start[sec]; q < p->sec_start[sec] + s->ulen[sec]; q++)
                {
                  guint j = s->mbuf[q];
                  if (s->prev_tight[sec] == G_MAXUINT || s->prev_tight[sec] < MAX (p->slo[j], a))
                    search_floor_list (s, j, u, a, z, last_off, last_rank);
                }
        }
      else if (scan == in_span)
        {
          for (guint sec = a; sec < z; sec++)
            for (guint q = p->sec_start[sec]; q < p->sec_start[sec] + s->ulen[sec]; q++)
              if (MAX (p->slo[s->mbuf[q]], a) == sec)
                search_floor_list (s, s->mbuf[q], u, a, z, last_off, last_rank);
        }
      else
        for (guint k = 0; k < nlive; k++)
          search_floor_list (s, live[k], u, a, z, last_off, last_rank);
      for (guint sec = a; sec < z; sec++)
        {
          if (s->fstamp[sec] != s->fstamp_now || !s->reach[sec])
            continue;
          if (!search_tight_at (s, sec, u))
            search_floor_reach (s, sec + 1);
          for (guint j = s->head[sec]; j != G_MAXUINT; j = s->link[j])
            search_floor_reach (s, MIN (p->shi[j], z));
        }
      if (s->fstamp[z] != s->fstamp_now || !s->reach[z])
        return FALSE;
    }
  return TRUE;
}

/* A placement of @c that raised the neighbours @raised to @h: in each other
 * section of theirs the buffers now at @h or above lie wholly above @h, so
 * they must fit between @h and the capacity (the floor check sees only the
 * section's lowest buffer; this one sees the hole a raise leaves under it
 * that the lower buffers cannot fill).  Returns FALSE when one does not. */
static inline gboolean
search_hole_fits (Search *s, guint sec, gint64 h)
{
  const Problem *p = s->p;
  if (s->hstamp[sec] == s->hstamp_now || s->umin[sec] >= h || h + s->total[sec] <= s->cap)
    return TRUE;   /* (all its unplaced buffers would fit above h) */
  s->hstamp[sec] = s->hstamp_now;
  gint64 above = 0;
  s->work += s->ulen[sec];
  for (guint q = p->sec_start[sec]; q < p->sec_start[sec] + s->ulen[sec]; q++)
    {
      guint i = s->mbuf[q];
      if (s->minoff[i] != PLACED && s->minoff[i] >= h)
        above += p->size[i];
    }
  return h + above <= s->cap;
}

static gboolean
search_raise_fits (Search *s, guint c, const guint *raised, guint nraised, gint64 h)
{
  const Problem *p = s->p;
  if (G_UNLIKELY (++s->hstamp_now == 0))
    {
      memset (s->hstamp, 0, sizeof (guint) * MAX (p->nsec, 1));
      s->hstamp_now = 1;
    }
  for (guint r = 0; r < nraised; r++)
    {
      /* its sections before c's and after them (c's are checked apart) */
      guint j = raised[r];
      guint ends[2][2] = { { p->slo[j], MIN (p->shi[j], p->slo[c]) },
                           { MAX (p->slo[j], p->shi[c]), p->shi[j] } };
      for (guint e = 0; e < 2; e++)
        {
          s->work += ends[e][1] > ends[e][0] ? ends[e][1] - ends[e][0] : 0;
          for (guint sec = ends[e][0]; sec < ends[e][1]; sec++)
            if (!search_hole_fits (s, sec, h))
              return FALSE;
        }
    }
  return TRUE;
}

/* Buffers with the same sections (peers) stacked one right on the other can
 * swap places: the stack covers the same bytes at the same times.  So any
 * packing can be rearranged until in every such stack the ranks rise
 * upwards, and the search never puts @j at @o right on top of a placed
 * peer of higher rank. */
static gboolean
search_on_later_peer (Search *s, guint j, gint64 o)
{
  const Problem *p = s->p;
  guint g = s->peer_lo[j];
  s->work += s->peer_placed[g];
  for (guint q = g; q < g + s->peer_placed[g]; q++)
    {
      guint i = s->peers[q];
      if (s->rank[i] > s->rank[j] && s->sol[i] + p->size[i] == o)
        return TRUE;
    }
  return FALSE;
}

/* Exact-cover branching (after Knuth's dancing links: branch on the most
 * constrained item).  A tight section at the lowest floor u has no byte to
 * spare, so some unplaced buffer covers it at u in every completion: the
 * node may branch on which one, each child placing one of them (they
 * exclude each other: they would share the byte u), instead of on "the next
 * buffer in (offset, rank) order, or none of those before it".  Of the tight
 * sections at u the one with the fewest covering candidates is taken (ties:
 * leftmost).  The candidates are the node's @ncand on the parts stack after
 * its @nlive live buffers; the covering ones are appended after them, in
 * rank order.  Returns how many (0: the node fails), or G_MAXUINT when the
 * lowest floor has no tight section (branch as usual). */
static guint
search_cover_kids (Search *s, guint base, guint nlive, guint ncand)
{
  const Problem *p = s->p;
  /* the lowest floor and the span of the lowest tight one, from the
   * node's scan of the sections (search_floor_tileable): every tight
   * section at u lies in that span, if u is its floor */
  gint64 u = s->low_u;
  if (s->tight_u != u)
    return G_MAXUINT;
  guint a = s->tight_a, z = s->tight_z;
  s->work += 2 * (z - a);
  for (guint sec = a; sec < z; sec++)
    s->cover[sec] = 0;
  const guint *cand = (const guint *) s->parts->data + base + nlive;
  for (guint k = 0; k < ncand; k++)
    {
      guint j = cand[k];
      if (s->minoff[j] != u || p->shi[j] <= a || p->slo[j] >= z)
        continue;
      guint from = MAX (p->slo[j], a), to = MIN (p->shi[j], z);
      s->work += to - from;
      for (guint sec = from; sec < to; sec++)
        s->cover[sec]++;
    }
  guint best = G_MAXUINT, best_n = G_MAXUINT;
  for (guint sec = a; sec < z; sec++)
    if (search_tight_at (s, sec, u) && s->cover[sec] < best_n)
      {
        best = sec;
        best_n = s->cover[sec];
      }
  if (best_n == 0)
    return 0;
  g_array_set_size (s->parts, base + nlive + ncand + best_n);
  guint *c = (guint *) s->parts->data + base + nlive, *kids = c + ncand;
  guint n = 0;
  for (guint k = 0; k < ncand; k++)
    {
      guint j = c[k];
      if (s->minoff[j] == u && p->slo[j] <= best && best < p->shi[j])
        {
          /* insertion by rank: a handful of kids */
          guint q = n++;
          while (q > 0 && s->rank[kids[q - 1]] > s->rank[j])
            {
              kids[q] = kids[q - 1];
              q--;
            }
          kids[q] = j;
        }
    }
  s->work += ncand + n * n;
  return n;
}

static int search_partition (Search *s, guint pstart, guint plen,
                             guint s0, guint s1, gint64 last_off, gint last_rank);

/* After @c was placed some section boundaries may have no unplaced buffer
 * across them: the unplaced buffers of the partition then form independent
 * subproblems, solved one after the other (a failure in one cannot be
 * mended by re-solving another). */
static int
search_decompose (Search *s, guint pstart, guint plen, guint s0, guint s1,
                  guint c, gint64 o, gint rank)
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
        r = search_partition (s, base, len, a, z, o, rank);
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
  guint nlive = 0, nnext = 0;
  gint64 min_height = G_MAXINT64;
  /* In the same pass, in s->next, the buffers that may be candidates (see
   * below) as far as the tops seen so far tell: the last node's lowest top
   * (if that buffer is still unplaced in this partition, the partition's
   * buffers being the unplaced ones of its sections) bounds the lowest top
   * from the start, so few get that far. */
  guint low = s->low_top;
  if (low < p->m && s->minoff[low] != PLACED && p->slo[low] >= s0 && p->slo[low] < s1)
    min_height = s->minoff[low] + p->size[low];
  for (guint k = 0; k < plen; k++)
    {
      guint j = part[k];
      gint64 o = s->minoff[j];
      if (o == PLACED)
        continue;
      live[nlive++] = j;
      if (o + p->size[j] < min_height)
        {
          min_height = o + p->size[j];
          low = j;
        }
      if (o < min_height && o + p->size[j] <= s->cap &&
          (o > last_off || (o == last_off && s->rank[j] > last_rank)) &&
          (s->twin[j] == G_MAXUINT || s->minoff[s->twin[j]] == PLACED))
        s->next[nnext++] = j;
    }
  s->low_top = low;
  g_array_set_size (s->parts, base + nlive);
  /* this node's scans (the live list, the candidates among the next) and
   * its memo lookup, which costs about as much as a dozen steps (the
   * sections' scan is search_floor_tileable's) */
  s->work += plen + nnext + 16;
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
  g_array_set_size (s->parts, base + nlive + nnext);
  live = (guint *) s->parts->data + base;
  guint *cand = live + nlive;
  guint ncand = 0;
  for (guint k = 0; k < nnext; k++)
    {
      /* (twins go in rank order: any packing can be relabelled so) */
      guint j = s->next[k];
      gint64 o = s->minoff[j];
      if (o >= min_height)
        continue;
      if (search_on_later_peer (s, j, o))
        continue;
      cand[ncand++] = j;
    }
  g_array_set_size (s->parts, base + nlive + ncand);

  gint64 max_total = 0;
  if (!search_floor_tileable (s, live, nlive, s0, s1, last_off, last_rank, &max_total))
    {
      g_array_set_size (s->parts, base);
      return NOT_FOUND;
    }

  /* With cover branching on, a node whose lowest floor has a tight section
   * branches on which buffer covers that section there (children in rank
   * order) instead of on the next buffer in (offset, rank) order. */
  guint nkids = s->cover_branch ? search_cover_kids (s, base, nlive, ncand) : G_MAXUINT;
  gboolean by_cover = nkids != G_MAXUINT;

  int result = NOT_FOUND;
  guint64 cutoffs_before = s->cutoffs;
  guint feasible = 0;
  gint64 prev_off = last_off;
  gint prev_rank = last_rank;
  for (guint kid = 0;; kid++)
    {
      guint c = G_MAXUINT;
      gint64 c_off = G_MAXINT64;
      gint c_rank = G_MAXINT;
      /* failed placements cost work without a node: count them too */
      s->work += 1 + (by_cover ? 1 : ncand);
      if (s->work > s->work_limit)
        {
          result = ABORTED;
          break;
        }
      cand = (guint *) s->parts->data + base + nlive;  /* children may move it */
      if (by_cover)
        {
          if (kid < nkids)
            {
              c = cand[ncand + kid];
              c_off = s->minoff[c];
              c_rank = s->rank[c];
            }
        }
      else
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
      guint ndirty = 0, nraised = 0;
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
      /* every unplaced buffer of c's sections goes above c: all of them,
       * the minimum's holders too, are raised or were already at h or
       * above, so those sections are recomputed without counting holders */
      s->work += p->shi[c] - p->slo[c];
      for (guint sec = p->slo[c]; sec < p->shi[c]; sec++)
        {
          search_save_section (s, sec);
          s->ucnt[sec] = 0;
          s->dirty[ndirty++] = sec;
        }
      for (guint sec = p->slo[c]; sec < p->shi[c]; sec++)
        {
          s->total[sec] -= p->size[c];
          search_unlist (s, c, sec);
        }
      {
        /* c joins its peer group's placed ones, at the front of the group */
        guint g = s->peer_lo[c], at = s->peer_pos[c], to = g + s->peer_placed[g]++;
        guint other = s->peers[to];
        s->peers[at] = other;
        s->peer_pos[other] = at;
        s->peers[to] = c;
        s->peer_pos[c] = to;
      }

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
          search_leave (s, j, old, p->slo[c], p->shi[c], &ndirty);
          s->raised[nraised++] = j;
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
      if (ok && !search_raise_fits (s, c, s->raised, nraised, h))
        ok = FALSE;

      guint spent = ok ? feasible++ : 0;
      s->disc -= spent;
      if (ok)
        {
          gboolean split = FALSE;
          for (guint k = p->slo[c]; k + 1 < p->shi[c]; k++)
            if (--s->cuts[k] == 0)
              split = TRUE;
          /* after a cover placement any rank may follow at the same offset:
           * the covered sections, left to right, keep each set of buffers at
           * one floor from being placed in more than one order */
          gint next_rank = by_cover ? -1 : s->rank[c];
          if (split)
            result = search_decompose (s, base, nlive, s0, s1, c, o, next_rank);
          else
            result = search_partition (s, base, nlive, s0, s1, o, next_rank);
          for (guint k = p->slo[c]; k + 1 < p->shi[c]; k++)
            s->cuts[k]++;
        }

      s->disc += spent;
      s->minoff[c] = o;
      s->hash = saved_hash;
      search_undo (s, mark);
      for (guint sec = p->slo[c]; sec < p->shi[c]; sec++)
        {
          s->total[sec] += p->size[c];
          s->ulen[sec]++;   /* c is right behind the unplaced ones again */
        }
      s->peer_placed[s->peer_lo[c]]--;   /* (c is the last placed peer) */
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

void
zg330_etm_search_init (Search *s, const Problem *p)
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
  s->head = g_new (guint, ns + 1);
  s->fstamp = g_new0 (guint, ns + 1);
  s->link = g_new (guint, m);
  s->reach = g_new (guint8, ns + 1);
  s->raised = g_new (guint, m);
  s->next = g_new (guint, m);
  guint nm = p->sec_start[p->nsec];
  s->mbuf = g_memdup2 (p->sec_buf, sizeof (guint) * MAX (nm, 1));
  s->mpos = g_new (guint, MAX (nm, 1));
  s->mstart = g_new (guint, m + 1);
  s->ulen = g_new (guint, ns);
  s->mstart[0] = 0;
  for (guint i = 0; i < p->m; i++)
    s->mstart[i + 1] = s->mstart[i] + (p->shi[i] - p->slo[i]);
  for (guint sec = 0; sec < p->nsec; sec++)
    for (guint q = p->sec_start[sec]; q < p->sec_start[sec + 1]; q++)
      {
        guint i = p->sec_buf[q];
        s->mpos[s->mstart[i] + (sec - p->slo[i])] = q;
      }
  s->twin = g_new (guint, m);
  s->peers = g_new (guint, m);
  s->peer_lo = g_new (guint, m);
  s->peer_hi = g_new (guint, m);
  s->peer_pos = g_new (guint, m);
  s->peer_placed = g_new0 (guint, m);
  s->hstamp = g_new0 (guint, ns);
  s->cover = g_new (guint, ns);
  s->prev_tight = g_new (guint, ns);

  s->parts = g_array_new (FALSE, FALSE, sizeof (guint));
  s->zobrist = g_new (guint64, m);
  for (guint i = 0; i < m; i++)
    s->zobrist[i] = mix64 (G_GUINT64_CONSTANT (0x2330) + i);
  s->memo = g_hash_table_new (g_direct_hash, NULL);
}

void
zg330_etm_search_clear (Search *s)
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
  g_free (s->head);
  g_free (s->fstamp);
  g_free (s->link);
  g_free (s->reach);
  g_free (s->raised);
  g_free (s->next);
  g_free (s->mbuf);
  g_free (s->mpos);
  g_free (s->mstart);
  g_free (s->ulen);
  g_free (s->twin);
  g_free (s->peers);
  g_free (s->peer_lo);
  g_free (s->peer_hi);
  g_free (s->peer_pos);
  g_free (s->peer_placed);
  g_free (s->hstamp);
  g_free (s->cover);
  g_free (s->prev_tight);

  g_array_unref (s->parts);
  g_free (s->zobrist);
  g_hash_table_unref (s->memo);
}

static int
cmp_twins (gconstpointer a, gconstpointer b, gpointer data)
{
  const Search *s = data;
  const Problem *p = s->p;
  guint i = *(const guint *) a, j = *(const guint *) b;
  if (p->slo[i] != p->slo[j])
    return p->slo[i] < p->slo[j] ? -1 : 1;
  if (p->shi[i] != p->shi[j])
    return p->shi[i] < p->shi[j] ? -1 : 1;
  if (p->size[i] != p->size[j])
    return p->size[i] < p->size[j] ? -1 : 1;
  return (s->rank[i] > s->rank[j]) - (s->rank[i] < s->rank[j]);
}

/* Twins (buffers with the same sections, hence the same neighbours, and the
 * same size) are interchangeable: any packing stays one when their offsets
 * are swapped, so the search only places a twin after the previous one in
 * rank order, and never explores the same packing under its relabellings. */
static void
search_find_twins (Search *s, const guint *order)
{
  const Problem *p = s->p;
  if (s->twin_order == order)
    return;
  s->twin_order = order;
  g_autofree guint *idx = g_new (guint, MAX (p->m, 1));
  for (guint i = 0; i < p->m; i++)
    idx[i] = i;
  g_qsort_with_data (idx, (gint) p->m, sizeof (guint), cmp_twins, s);
  for (guint k = 0; k < p->m;)
    {
      guint e = k + 1;
      while (e < p->m && p->slo[idx[e]] == p->slo[idx[k]] && p->shi[idx[e]] == p->shi[idx[k]])
        e++;
      for (guint q = k; q < e; q++)
        {
          s->peers[q] = idx[q];
          s->peer_pos[idx[q]] = q;
          s->peer_lo[idx[q]] = k;
          s->peer_hi[idx[q]] = e;
        }
      k = e;
    }
  for (guint k = 0; k < p->m; k++)
    {
      guint j = idx[k], i = k > 0 ? idx[k - 1] : G_MAXUINT;
      s->twin[j] = i != G_MAXUINT && p->slo[i] == p->slo[j] && p->shi[i] == p->shi[j] &&
                   p->size[i] == p->size[j] ? i : G_MAXUINT;
    }
}

/* One complete attempt with the preorder @order; independent time ranges
 * are solved in turn. */
int
zg330_etm_search_run (Search *s, const guint *order)
{
  const Problem *p = s->p;
  /* (offset, rank) are packed into 64 bits for the memo */
  s->memo_on = sizeof (gpointer) >= 8 && s->cap < ((gint64) 1 << 42) && p->m < (1u << 20);
  s->hash = 0;
  for (guint i = 0; i < p->m; i++)
    s->hash ^= search_zkey (s, i, 0);
  for (guint k = 0; k < p->m; k++)
    s->rank[order[k]] = (gint) k;
  search_find_twins (s, order);
  memset (s->peer_placed, 0, sizeof (guint) * MAX (p->m, 1));
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
      /* (the lists hold the same members in some order: all unplaced) */
      s->ulen[sec] = p->sec_start[sec + 1] - p->sec_start[sec];
    }
  for (guint i = 0; i < p->m; i++)
    for (guint k = p->slo[i]; k + 1 < p->shi[i]; k++)
      s->cuts[k]++;
  s->trail_len = 0;
  g_array_set_size (s->parts, 0);
  s->low_top = G_MAXUINT;

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
