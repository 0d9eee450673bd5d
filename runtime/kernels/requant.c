/* requant.c: requantisation — the tables of the data-movement kernels, and conv's
 * per-slot figures: the double rule's mul and add, their float forms, the bounded path's
 * thresholds and the bracket (README.md, "requant.c"), kept with the packed weights.
 */
#include "kernels/kernels-private.h"

void
requant_init (Requant *rq, const Zg330KernelTensor *in, guint in_c0,
              const Zg330KernelTensor *out, guint out_c0, guint count)
{
  double *ratios = g_new (double, count);
  gint lo, hi;

  dtype_range (out->dtype, &lo, &hi);
  rq->tables = g_new (guint8, (gsize) count * 256);
  rq->index = g_new (guint, count);
  rq->n_tables = 0;
  rq->identity = in->dtype == out->dtype;
  for (guint c = 0; c < count; c++)
    {
      double r = (double) scale_of (in, in_c0 + c) / (double) scale_of (out, out_c0 + c);
      guint t;

      if (r != 1.0)
        rq->identity = FALSE;
      for (t = 0; t < rq->n_tables; t++)
        if (ratios[t] == r)
          break;
      if (t == rq->n_tables)
        {
          guint8 *tab = rq->tables + (gsize) t * 256;
          ratios[t] = r;
          for (guint b = 0; b < 256; b++)
            tab[b] = (guint8) round_clamp ((double) raw_value ((guint8) b, in->dtype) * r, lo, hi);
          rq->n_tables++;
        }
      rq->index[c] = t;
    }
  g_free (ratios);
}

void
requant_clear (Requant *rq)
{
  g_clear_pointer (&rq->tables, g_free);
  g_clear_pointer (&rq->index, g_free);
}

/* The float requantisation's per-slot figures (vnni_requant16_fast): the scale, the
 * offset with the bias correction @corr folded in, and the offset's error term; +inf
 * (always the double rule) where the float figures overflow or lose their precision. */
static void
requant_float_init (ConvJob *job, const gint32 *corr, guint n_slots)
{
  RequantFigures *rq = job->rq;

  rq->mulf = g_new0 (float, n_slots);
  rq->addf = g_new0 (float, n_slots);
  rq->errf = g_new0 (float, n_slots);
  for (guint slot = 0; slot < n_slots; slot++)
    {
      double m = rq->mul[slot], a = rq->add[slot] - (double) corr[slot] * m;
      rq->mulf[slot] = (float) m;
      rq->addf[slot] = (float) a;
      if (!isfinite (rq->mulf[slot]) || !isfinite (rq->addf[slot])
          || (m != 0 && fabs (m) < 1e-30) || (a != 0 && fabs (a) < 1e-30))
        rq->errf[slot] = INFINITY;
      else
        rq->errf[slot] = (float) (fabs (a) / 2097152.0 + 1.0 / 1048576.0);
    }
}

/* ---- the bounded float requantisation ----------------------------------------------
 *
 * vnni_requant16_bounded() computes v = fma ((float) acc, mulf, addf) and takes rne (v)
 * unless some lane's v lies within 1/2 - thr of a half-integer (one vreduceps and a
 * compare), in which case the 16 lanes take the double rule.  thr is per slot, from a
 * bound E on |v - the double rule's value| over every accumulator the slot can reach
 * ([amin, amax]: its weights against inputs of 0..255, the biased bytes): thr = 1/2 - E.
 * A lane that passes is more than E from every half-integer, so the double value is on
 * the same side of each and is no tie: both round to the same integer, and the rails
 * clamp both alike.  E covers the float scale's and offset's roundings, the fma's, and
 * the double rule's own (at 2^-53).  A slot whose reach passes 2^24 (the float
 * accumulator would round) or whose values could pass 2^22 gets thr = -1 and the guarded
 * path (vnni_requant16_fast).  Below 2^22, v + 1.5 * 2^23 lands in [2^23, 2^24), where a
 * float's last bit is 1: the addition rounds v to the nearest integer (ties to even) and
 * leaves it in the low bits (vnni_round_bounded), cheaper than a conversion. */

/* The bound e of one slot (see above), the bracket's tighter eb (below) and G >= 1 + the
 * largest |v| it can reach, both taken over the accumulators whose value lies within
 * @rails of zero where that is safe (below); FALSE where the slot has no bound (the
 * guarded path). */
static gboolean
requant_bound (gint64 amin, gint64 amax, gint32 corr, double mul, double add, double rails, double *e_out,
               double *eb_out, double *g_out)
{
  const double a_d = add - (double) corr * mul;
  const float mf = (float) mul, af = (float) a_d;     /* as requant_float_init */
  double reach, gmax, dbl;

  if (!isfinite (mul) || !isfinite (add) || !isfinite (mf) || !isfinite (af) || amin > amax)
    return FALSE;
  reach = MAX (fabs ((double) amin), fabs ((double) amax));
  if (reach >= 16777216.0 || fabs ((double) corr) >= 16777216.0)
    return FALSE;
  gmax = reach * fabs ((double) mf) + fabs ((double) af);
  if (gmax >= 4194304.0 * 0.999)     /* |v| < 2^22, with room for v's own rounding */
    return FALSE;
  /* float: the fma's rounding (2^-24 |v|), the scale's (2^-24 |acc mul|) and the offset's
   * (2^-24 |a_d|), doubled; double: a few roundings at 2^-53, taken at 2^-46 */
  dbl = (fabs ((double) corr * mul) + (reach + fabs ((double) corr)) * fabs (mul) + fabs (add) + 1.0) * 0x1p-46;
  *e_out = (reach * fabs (mul) + fabs (a_d) + gmax) * 0x1p-22 + dbl;
  /* the bracket bounds the exact z = acc mulf + af, which has no fma rounding: its
   * distance to the double rule's value is below 2^-24 (|acc mul| + |a_d|) plus the double
   * rule's own, so eb is twice that */
  *eb_out = (reach * fabs (mul) + fabs (a_d)) * 0x1p-23 + dbl;
  *g_out = gmax + 1.0;
  if (rails > 0)
    {
      /* the bracket over the values y with |y| <= rails only (|acc mul| <= rails + |a_d|
       * + 1 there), with G covering |af| for alo's own rounding; a value beyond them lies
       * within E of its lo (the scale's, offset's and fma's roundings over the full reach,
       * and alo's offset), so with E < 1/2 both round beyond the rails too */
      const double eb_t = (MIN (reach * fabs (mul), rails + fabs (a_d) + 1.0) + fabs (a_d)) * 0x1p-23 + dbl;
      const double g_t = MIN (gmax, rails + 1.0 + fabs ((double) af)) + 1.0;
      const double far = 0x1p-24 * (gmax + 1.0) + eb_t + 3.0 * 0x1p-23 * g_t + *eb_out;

      if (far < 0.5)
        {
          *eb_out = MIN (*eb_out, eb_t);
          *g_out = MIN (*g_out, g_t);
        }
    }
  return *e_out < 0.25;
}

/* @x as a float no greater (@up FALSE) or no less (@up TRUE) than it */
static inline float
float_directed (double x, gboolean up)
{
  float f = (float) x;

  if (up ? (double) f < x : (double) f > x)
    f = nextafterf (f, up ? INFINITY : -INFINITY);
  return f;
}

/* ---- the bracket: the bounded requantisation with two roundings and no compare ----
 *
 * The depthwise paths spend more of their time requantising than multiplying, so they
 * use a form of the bounded path that needs no vreduceps and no compare (which share the
 * vpdpbusd's ports on the cores we measured): lo = fma (acc, mulf, alo) and hi = lo + D,
 * both rounded to the nearest integer (vcvtps2dq); a lane whose rne (lo) == rne (hi) takes
 * rne (lo), any other lane the double rule.  With z = acc mulf + af (exact), |z - y| <= eb/2
 * for the double rule's value y (requant_bound) and |v| < G:
 *   alo <= af - eb - 2^-23 G (rounded down from a double, within 2^-50 G), so
 *   lo <= z - eb - 2^-23 G + 2^-50 G + 2^-24 G < z - eb < y;
 *   alo >= af - eb - 2^-23 G - Ea, Ea the rounding down of alo (known when it is made:
 *   the double before it, less alo, plus 2^-50 G for that double's own roundings), so
 *   lo >= z - eb - 2^-23 G - Ea - 2^-24 G and, with D >= 1.5 eb + (2^-22 + 2^-24) G + Ea
 *   (rounded up, after a sum in doubles padded by 2^-40 G), hi >= lo + D - 2^-23 G (its
 *   rounding, |hi| < 2G) >= z + eb/2 + 2^-40 G > y.
 * So lo < y < hi: when both round to the same integer, no half-integer lies between them,
 * y is no tie and rounds (half away from zero, as the double rule does) to that integer,
 * and the rails clamp both alike.  The bracket is about 1.5 eb + 2^-22 G wide: a lane
 * falls in it, and takes the double rule, with a chance of about that width (D was
 * 2 eb + 2^-20 G, three times as wide, until the sizes of Ea and of the roundings were
 * counted one by one).
 * Only values near the rails need it: where every value the slot can reach is not, eb and
 * G are taken over the accumulators with |y| <= Y (the rails' reach + 2), where
 * |acc mul| <= Y + |a_d| + 1 and |v| < Y + 1 (G also covers |af|, for alo's rounding).  A
 * value beyond Y is within E = 2^-24 (Gmax + 1) + eb' + 3 * 2^-23 G' + eb (the full
 * reach's) of lo; with E < 1/2, y > Y gives lo > Y - 1/2 and rne (lo) past the upper rail
 * (y < -Y past the lower), so it clamps as y does, and hi >= lo either rounds alike or
 * sends the lane to the double rule.  That makes the bracket a few times 2^-20 (Y + |af|)
 * wide however far the weights could reach, and the double rule rare. */
/* One slot's threshold (-1: none) and bracket (@d +inf: every lane takes the double
 * rule), from one requant_bound. */
static void
requant_slot_bounds (gint64 amin, gint64 amax, gint32 corr, double mul, double add, double rails, float *thr,
                     float *alo, float *d)
{
  double e, eb, g, target, ea;

  if (!requant_bound (amin, amax, corr, mul, add, rails, &e, &eb, &g))
    {
      *thr = -1.0f;
      *alo = 0.0f;
      *d = INFINITY;
      return;
    }
  /* rounded down to a float, so the float compare is no looser than the bound */
  *thr = float_directed (0.5 - e, FALSE);
  target = (double) (float) (add - (double) corr * mul) - eb - 0x1p-23 * g;
  *alo = float_directed (target, FALSE);
  ea = target - (double) *alo + 0x1p-50 * g;
  *d = float_directed (1.5 * eb + (0x1p-22 + 0x1p-24) * g + ea + 0x1p-40 * g, TRUE);
}

/* The figures' thrf and the bracket's bralo / brd per slot, and bounded16 (per 16 slots, all
 * with a threshold), from the slots' figures: mul, add, the corrections @corr and the
 * weight sums job->wpos / job->wneg; n_slots a multiple of 16. */
static void
requant_bounds_init (ConvJob *job, const gint32 *corr, guint n_slots)
{
  RequantFigures *rq = job->rq;
  gint lo, hi;

  dtype_range (job->out->dtype, &lo, &hi);
  rq->thrf = g_new (float, n_slots);
  rq->bralo = g_new (float, n_slots);
  rq->brd = g_new (float, n_slots);
  rq->bounded16 = g_new0 (guint8, n_slots / 16);
  for (guint i = 0; i < n_slots; i++)
    requant_slot_bounds (255 * job->wneg[i], 255 * job->wpos[i], corr[i], rq->mul[i], rq->add[i],
                         MAX (abs (lo), abs (hi)) + 2.0, &rq->thrf[i], &rq->bralo[i], &rq->brd[i]);
  for (guint b = 0; b < n_slots / 16; b++)
    {
      gboolean all = TRUE;
      for (guint i = 0; i < 16; i++)
        all = all && rq->thrf[b * 16 + i] > 0;
      rq->bounded16[b] = (guint8) all;
    }
}
/* The requantisation of every slot: with @blocked, slot (block B, lane j) holds output
 * channel slot_channel (B, j) (the dense path's blocks), else slot o holds channel o.
 * Slots without a channel keep 0 (their lanes are never stored). */
void
conv_job_requant (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *wt,
                  const Zg330KernelTensor *out, guint n_slots, gboolean blocked)
{
  double s_in = scale_of (in, 0);

  job->rq->mul = g_new0 (double, n_slots);
  job->rq->add = g_new0 (double, n_slots);
  for (guint slot = 0; slot < n_slots; slot++)
    {
      guint o = slot;
      double s_out, m, a;

      if (blocked)
        {
          gint64 ch = slot_channel (job, slot / OBLK, slot % OBLK);
          if (ch < 0)
            continue;
          o = (guint) ch;
        }
      if (o >= out->c)
        continue;
      s_out = scale_of (out, o);
      m = (s_in * (double) wt->scales[o]) / s_out;
      a = 0;
      if (wt->bias)
        a = (double) zw_fp16_to_float ((guint16) (wt->bias[2 * o] | (wt->bias[2 * o + 1] << 8)))
            / s_out;
      job->rq->mul[slot] = m;
      job->rq->add[slot] = a;
    }
  dtype_range (out->dtype, &job->lo, &job->hi);
}

/* ---- requantisation figures, kept with the packed weights ---------------------------
 *
 * A conv's per-slot requantisation figures: mul and add (conv_job_requant), their float
 * forms (requant_float_init) and the bounded path's and the bracket's bounds
 * (requant_bounds_init).  They depend on the packed weights (the bias corrections and the
 * weight sums) and on the scales, the bias, the output type and which channel each slot
 * holds; a small depthwise layer spent a tenth of its time making them at every forward.
 * So they are kept in the packed weights' entry with the bytes they were made from (the
 * key), and made anew when a call brings other bytes.  A network uses a weight tensor with
 * one set of scales, so an entry keeps one set. */

static void
requant_figures_free (gpointer p)
{
  RequantFigures *rq = p;

  if (rq->key != NULL)
    g_bytes_unref (rq->key);
  g_free (rq->mul);
  g_free (rq->add);
  g_free (rq->mulf);
  g_free (rq->addf);
  g_free (rq->errf);
  g_free (rq->thrf);
  g_free (rq->bralo);
  g_free (rq->brd);
  g_free (rq->bounded16);
  g_free (rq->dwfig);
  g_free (rq->dwbounded8);
  g_aligned_free (rq->dwfig4);
}

void
requant_figures_unref (RequantFigures *rq)
{
  g_atomic_rc_box_release_full (rq, requant_figures_free);
}

/* The bytes the figures of @job's @n_slots slots depend on, besides the packed weights:
 * the slots' channels (the job's block layout), the output type, the scales and the bias. */
static GBytes *
requant_key (const ConvJob *job, const Zg330KernelWeights *wt, guint n_slots, gboolean blocked, gboolean bounds)
{
  const Zg330KernelTensor *in = job->in, *out = job->out;
  const guint32 head[] = { n_slots, (guint32) blocked, (guint32) bounds, job->NG, job->Ogp, job->obe, job->bcast,
                           job->groups, job->Og, out->c, (guint32) out->dtype, in->scales != NULL,
                           out->scales != NULL, wt->bias != NULL };
  const float s_in = scale_of (in, 0);
  GByteArray *k = g_byte_array_sized_new (sizeof head + sizeof s_in + (gsize) out->c * (2 * sizeof (float) + 2));

  g_byte_array_append (k, (const guint8 *) head, sizeof head);
  g_byte_array_append (k, (const guint8 *) &s_in, sizeof s_in);
  if (out->scales != NULL)
    g_byte_array_append (k, (const guint8 *) out->scales, out->c * sizeof (float));
  /* conv_check: out->c <= O, and scales and bias hold O channels */
  g_byte_array_append (k, (const guint8 *) wt->scales, out->c * sizeof (float));
  if (wt->bias != NULL)
    g_byte_array_append (k, wt->bias, 2 * out->c);
  return g_byte_array_free_to_bytes (k);
}

/* Sets @job's requantisation figures (mul .. bounded16, lo and hi) for @n_slots slots with
 * the corrections @corr of @pw: the entry's own when it holds them for these bytes, else
 * made (the bounds when @bounds) and kept there.  The job holds a reference (job->rq). */
void
requant_figures_get (ConvJob *job, PackedWeights *pw, const gint32 *corr, const Zg330KernelWeights *wt,
                     guint n_slots, gboolean blocked, gboolean bounds)
{
  GBytes *key = requant_key (job, wt, n_slots, blocked, bounds);
  RequantFigures *rq = NULL;

  g_mutex_lock (&pack_lock);
  if (pw->rq != NULL && g_bytes_equal (pw->rq->key, key))
    rq = g_atomic_rc_box_acquire (pw->rq);
  g_mutex_unlock (&pack_lock);
  if (rq == NULL)
    {
      rq = g_atomic_rc_box_new0 (RequantFigures);
      rq->key = g_bytes_ref (key);
      job->rq = rq;
      conv_job_requant (job, job->in, wt, job->out, n_slots, blocked);
      requant_float_init (job, corr, n_slots);
      if (bounds)
        requant_bounds_init (job, corr, n_slots);
      g_mutex_lock (&pack_lock);
      if (pw->rq != NULL)
        requant_figures_unref (pw->rq);
      pw->rq = g_atomic_rc_box_acquire (rq);
      g_mutex_unlock (&pack_lock);
    }
  g_bytes_unref (key);
  dtype_range (job->out->dtype, &job->lo, &job->hi);
  job->rq = rq;
}
