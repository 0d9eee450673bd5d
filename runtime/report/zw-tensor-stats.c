/* zw-tensor-stats.c — statistics and histograms of a tensor (one pass, in threads for large ones). */
#include "report/zw-tensor-private.h"

#include <math.h>
#include <string.h>

/* Above this many stored channels the per-channel level histograms (256 counters each)
 * would not fit in cache; such tensors take the per-element path. */
#define MAX_HIST_CHANNELS 4096
/* Tensors smaller than this are not worth a thread. */
#define PARALLEL_MIN_ELEMENTS (1u << 20)

/* ---- statistics ------------------------------------------------------------------- */

typedef struct {
  guint64 count, finite, zero, nan, pinf, ninf;
  double min, max, sum, sumsq;
} Acc;

static void
acc_init (Acc *a)
{
  memset (a, 0, sizeof *a);
  a->min = INFINITY;
  a->max = -INFINITY;
}

static inline void
acc_add_float (Acc *a, double f, guint64 k)
{
  a->count += k;
  if (isnan (f))
    a->nan += k;
  else if (isinf (f))
    {
      if (f > 0)
        a->pinf += k;
      else
        a->ninf += k;
    }
  else
    {
      a->finite += k;
      if (f == 0)
        a->zero += k;
      if (f < a->min)
        a->min = f;
      if (f > a->max)
        a->max = f;
      a->sum += f * (double) k;
      a->sumsq += f * f * (double) k;
    }
}

static void
acc_merge (Acc *into, const Acc *a)
{
  into->count += a->count;
  into->finite += a->finite;
  into->zero += a->zero;
  into->nan += a->nan;
  into->pinf += a->pinf;
  into->ninf += a->ninf;
  into->min = MIN (into->min, a->min);
  into->max = MAX (into->max, a->max);
  into->sum += a->sum;
  into->sumsq += a->sumsq;
}

static void
acc_finish (const Acc *a, ZwStatsSummary *s)
{
  s->count = a->count;
  s->n_zero = a->zero;
  s->n_nan = a->nan;
  s->n_pos_inf = a->pinf;
  s->n_neg_inf = a->ninf;
  if (a->finite == 0)
    {
      s->min = s->max = s->mean = s->std = 0;
      return;
    }
  s->min = a->min;
  s->max = a->max;
  s->mean = a->sum / (double) a->finite;
  s->std = sqrt (MAX (0.0, a->sumsq / (double) a->finite - s->mean * s->mean));
}

static void
hist_init_range (ZwHistogram *h, double lo, double hi, guint n_bins)
{
  h->levels = FALSE;
  h->lo = lo;
  h->hi = hi;
  h->n_bins = n_bins;
  h->counts = g_new0 (guint64, n_bins);
}

static inline void
hist_add (ZwHistogram *h, double v, guint64 k)
{
  guint b;

  if (!isfinite (v) || h->n_bins == 0)
    return;
  if (h->hi > h->lo)
    {
      double x = (v - h->lo) / (h->hi - h->lo) * h->n_bins;
      b = x <= 0 ? 0 : x >= h->n_bins ? h->n_bins - 1 : (guint) x;
    }
  else
    b = 0;
  h->counts[b] += k;
}

void
zw_tensor_stats_free (ZwTensorStats *stats)
{
  if (!stats)
    return;
  g_free (stats->f_hist.counts);
  g_free (stats->q_hist.counts);
  g_free (stats->channel_f);
  g_free (stats->channel_q);
  g_free (stats);
}

/* -- the 8-bit path: per-channel level histograms ---------------------------------- */

typedef struct {
  const ZwTensor *t;
  const SegPlan *plan;
  guint64 from, to;
  const guint8 *q;
  guint8 flip;       /* 0x80 for int8: level index = byte ^ 0x80 */
  guint32 *hist;     /* c x 256 */
} HistWork;

static void
hist_seg (gpointer user, guint64 start, guint64 len, guint ch, gboolean step)
{
  HistWork *w = user;
  const guint8 *p = w->q + start;
  guint8 flip = w->flip;

  if (step)
    {
      guint32 *h = w->hist + (gsize) ch * 256;
      for (guint64 j = 0; j < len; j++, h += 256)
        h[p[j] ^ flip]++;
    }
  else
    {
      guint32 *h = w->hist + (gsize) ch * 256;
      for (guint64 j = 0; j < len; j++)
        h[p[j] ^ flip]++;
    }
}

static gpointer
hist_worker (gpointer data)
{
  HistWork *w = data;
  zw_tensor_seg_foreach (w->t, w->plan, w->from, w->to, hist_seg, w);
  return NULL;
}

static void
stats_from_levels (const ZwTensor *t, ZwTensorStats *st, guint n_bins)
{
  SegPlan plan;
  guint nc = (guint) t->c;
  guint n_workers = 1;
  gsize hsize = (gsize) nc * 256;
  g_autofree guint32 *hist = NULL;
  HistWork works[8];
  GThread *threads[8] = { NULL };
  gint64 lo_level = t->q_elem == ZW_TENSOR_S8 ? -128 : 0;
  Acc qall, fall;

  zw_tensor_seg_plan (t, &plan);
  if (t->n_elements >= PARALLEL_MIN_ELEMENTS)
    n_workers = (guint) MIN (MIN ((guint64) g_get_num_processors (), G_N_ELEMENTS (works)), MAX (plan.n_units, 1));
  hist = g_new0 (guint32, hsize * n_workers);
  for (guint k = 0; k < n_workers; k++)
    {
      works[k] = (HistWork) { .t = t, .plan = &plan, .from = plan.n_units * k / n_workers,
                              .to = plan.n_units * (k + 1) / n_workers, .q = g_bytes_get_data (t->q_bytes, NULL),
                              .flip = t->q_elem == ZW_TENSOR_S8 ? 0x80 : 0, .hist = hist + hsize * k };
      if (k > 0)
        threads[k] = g_thread_new ("zw-tensor-stats", hist_worker, &works[k]);
    }
  hist_worker (&works[0]);
  for (guint k = 1; k < n_workers; k++)
    {
      g_thread_join (threads[k]);
      for (gsize i = 0; i < hsize; i++)
        hist[i] += works[k].hist[i];
    }

  st->q_hist.levels = TRUE;
  st->q_hist.lo = (double) lo_level;
  st->q_hist.hi = (double) (lo_level + 255);
  st->q_hist.n_bins = 256;
  st->q_hist.counts = g_new0 (guint64, 256);
  acc_init (&qall);
  acc_init (&fall);
  for (guint c = 0; c < nc; c++)
    {
      const guint32 *h = hist + (gsize) c * 256;
      float s = scale_of (t, c);
      Acc qa, fa;

      acc_init (&qa);
      acc_init (&fa);
      for (guint l = 0; l < 256; l++)
        if (h[l])
          {
            gint64 q = lo_level + l;
            acc_add_float (&qa, (double) q, h[l]);
            acc_add_float (&fa, (double) ((float) q * s), h[l]);
            st->q_hist.counts[l] += h[l];
          }
      acc_finish (&qa, &st->channel_q[c]);
      acc_finish (&fa, &st->channel_f[c]);
      acc_merge (&qall, &qa);
      acc_merge (&fall, &fa);
    }
  acc_finish (&qall, &st->q);
  acc_finish (&fall, &st->f);
  hist_init_range (&st->f_hist, st->f.min, st->f.max, n_bins);
  for (guint c = 0; c < nc; c++)
    {
      const guint32 *h = hist + (gsize) c * 256;
      float s = scale_of (t, c);
      for (guint l = 0; l < 256; l++)
        if (h[l])
          hist_add (&st->f_hist, (double) ((float) (lo_level + l) * s), h[l]);
    }
}

/* -- the general path: per element ---------------------------------------------- */

typedef struct {
  const ZwTensor *t;
  const guint8 *q, *f;
  Acc *qacc, *facc;          /* per channel (pass 1) */
  ZwHistogram *qh, *fh;      /* pass 2 */
  gboolean pass2;
} ElemWork;

static void
elem_seg (gpointer user, guint64 start, guint64 len, guint ch, gboolean step)
{
  ElemWork *w = user;
  const ZwTensor *t = w->t;

  for (guint64 j = 0; j < len; j++)
    {
      guint c = step ? ch + (guint) j : ch;
      guint64 i = start + j;
      gint64 q = 0;
      double f;

      if (w->q)
        q = read_int (t->q_elem, w->q, i);
      f = w->f ? (double) read_float (t->f_elem, w->f, i) : (double) ((float) q * scale_of (t, c));
      if (!w->pass2)
        {
          if (w->q)
            acc_add_float (&w->qacc[c], (double) q, 1);
          acc_add_float (&w->facc[c], f, 1);
        }
      else
        {
          if (w->q && w->qh)
            hist_add (w->qh, (double) q, 1);
          hist_add (w->fh, f, 1);
        }
    }
}

static void
stats_per_element (const ZwTensor *t, ZwTensorStats *st, guint n_bins)
{
  SegPlan plan;
  guint nc = (guint) t->c;
  g_autofree Acc *qacc = g_new (Acc, nc);
  g_autofree Acc *facc = g_new (Acc, nc);
  ElemWork w = { .t = t, .q = t->has_quantized ? g_bytes_get_data (t->q_bytes, NULL) : NULL,
                 .f = t->f_bytes ? g_bytes_get_data (t->f_bytes, NULL) : NULL, .qacc = qacc, .facc = facc };
  Acc qall, fall;
  gboolean q8 = t->has_quantized && elem_bytes (t->q_elem) == 1;

  for (guint c = 0; c < nc; c++)
    {
      acc_init (&qacc[c]);
      acc_init (&facc[c]);
    }
  zw_tensor_seg_plan (t, &plan);
  zw_tensor_seg_foreach (t, &plan, 0, plan.n_units, elem_seg, &w);
  acc_init (&qall);
  acc_init (&fall);
  for (guint c = 0; c < nc; c++)
    {
      acc_merge (&qall, &qacc[c]);
      acc_merge (&fall, &facc[c]);
      acc_finish (&facc[c], &st->channel_f[c]);
      if (st->channel_q)
        acc_finish (&qacc[c], &st->channel_q[c]);
    }
  acc_finish (&fall, &st->f);
  if (t->has_quantized)
    acc_finish (&qall, &st->q);

  hist_init_range (&st->f_hist, st->f.min, st->f.max, n_bins);
  if (q8)
    {
      gint64 lo = t->q_elem == ZW_TENSOR_S8 ? -128 : 0;
      hist_init_range (&st->q_hist, (double) lo, (double) (lo + 255), 256);
      /* 256 range bins over [lo, lo + 255] put level lo + i in bin i exactly */
      st->q_hist.levels = TRUE;
    }
  else if (t->has_quantized)
    hist_init_range (&st->q_hist, st->q.min, st->q.max, n_bins);
  w.pass2 = TRUE;
  w.qh = t->has_quantized ? &st->q_hist : NULL;
  w.fh = &st->f_hist;
  zw_tensor_seg_foreach (t, &plan, 0, plan.n_units, elem_seg, &w);
}

ZwTensorStats *
zw_tensor_stats_compute (const ZwTensor *tensor, guint n_bins)
{
  ZwTensorStats *st;

  g_return_val_if_fail (tensor != NULL, NULL);
  n_bins = MAX (n_bins, 1);
  st = g_new0 (ZwTensorStats, 1);
  st->has_quantized = tensor->has_quantized;
  st->n_channels = (guint) MAX (tensor->c, 0);
  st->channel_f = g_new0 (ZwStatsSummary, MAX (st->n_channels, 1));
  if (tensor->has_quantized)
    st->channel_q = g_new0 (ZwStatsSummary, MAX (st->n_channels, 1));
  if (tensor->has_quantized && !tensor->f_bytes && elem_bytes (tensor->q_elem) == 1
      && tensor->c <= MAX_HIST_CHANNELS && tensor->n_elements > 0)
    stats_from_levels (tensor, st, n_bins);
  else
    stats_per_element (tensor, st, n_bins);
  return st;
}
