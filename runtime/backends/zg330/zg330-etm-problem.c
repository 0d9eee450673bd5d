/* zg330-etm-problem.c — the ETM planner's problem: the buffers that need bytes, in
 * alignment units, their lifetimes as ranges of time sections, the pairs whose lifetimes
 * overlap and the bytes live in each section (whose maximum is the lower bound). */
#include "backends/zg330/zg330-etm-plan-private.h"

#include <string.h>

/* The exact search keeps per-section buffer lists and a stack of the
 * unplaced buffers at every depth (up to buffers^2 / 2 entries); past these
 * sizes it is skipped in favour of the hill climb. */
#define SEARCH_MAX_MEMBERSHIP (8u * 1024u * 1024u)
#define SEARCH_MAX_BUFFERS    4096u

void
zg330_etm_problem_clear (Problem *p)
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

void
zg330_etm_problem_init (Problem *p, const Zg330Buffer *b, guint n, guint64 align)
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
