/* kernels-vnni.h: the AVX-512 VNNI requantisation helpers that the VNNI conv, depthwise and
 * add files share (always inlined).  Included only by files built with -mavx512vnni
 * (meson.build).
 */
#pragma once

#include "kernels/kernels-private.h"

#if !defined(__AVX512VNNI__) || !defined(__AVX512BW__) || !defined(__AVX512DQ__) || !defined(__AVX512VL__)
#error "kernels-vnni.h is for the files built with -mavx512vnni"
#endif

static inline __attribute__ ((always_inline)) __m256i
vnni_round8 (__m512d v, __m512d lo1, __m512d hi1)
{
  const __m512d half = _mm512_set1_pd (0.5), mhalf = _mm512_set1_pd (-0.5);
  const __m256i one = _mm256_set1_epi32 (1);
  __m256i t;
  __m512d d;
  __mmask8 ge, le;

  v = _mm512_min_pd (_mm512_max_pd (v, lo1), hi1);
  t = _mm512_cvttpd_epi32 (v);
  d = _mm512_sub_pd (v, _mm512_cvtepi32_pd (t));
  ge = _mm512_cmp_pd_mask (d, half, _CMP_GE_OQ);
  le = _mm512_cmp_pd_mask (d, mhalf, _CMP_LE_OQ);
  t = _mm256_mask_add_epi32 (t, ge, t, one);
  return _mm256_mask_sub_epi32 (t, le, t, one);
}

/* Same arithmetic as requant_tile_c(), 16 channels at a time. */
static inline __attribute__ ((always_inline)) void
vnni_requant16 (__m512i acc, const gint32 *corr, const double *mul, const double *add,
                gint lo, gint hi, guint8 *res)
{
  __m512i a = _mm512_sub_epi32 (acc, _mm512_loadu_si512 (corr));
  __m512d lo1 = _mm512_set1_pd ((double) (lo - 1)), hi1 = _mm512_set1_pd ((double) (hi + 1));
  __m512d vl = _mm512_cvtepi32_pd (_mm512_castsi512_si256 (a));
  __m512d vh = _mm512_cvtepi32_pd (_mm512_extracti64x4_epi64 (a, 1));
  __m256i rl, rh;
  __m512i r;

  vl = _mm512_mul_pd (vl, _mm512_loadu_pd (mul));
  vh = _mm512_mul_pd (vh, _mm512_loadu_pd (mul + 8));
  vl = _mm512_add_pd (vl, _mm512_loadu_pd (add));
  vh = _mm512_add_pd (vh, _mm512_loadu_pd (add + 8));
  rl = vnni_round8 (vl, lo1, hi1);
  rh = vnni_round8 (vh, lo1, hi1);
  r = _mm512_inserti64x4 (_mm512_castsi256_si512 (rl), rh, 1);
  r = _mm512_max_epi32 (_mm512_min_epi32 (r, _mm512_set1_epi32 (hi)), _mm512_set1_epi32 (lo));
  _mm_storeu_si128 ((__m128i *) res, _mm512_cvtepi32_epi8 (r));
}

/* The same bytes as vnni_requant16() from float arithmetic, where that is provably so;
 * FALSE (nothing written) when a lane is too close to a rounding boundary to tell.
 *
 * The double rule computes v = fl(fl((acc - corr)*mul) + add).  Here, with the bias
 * correction folded into the offset (addf = fl(add - corr*mul), errf from it; see
 * requant_float_init) and u = 2^-24: v' = fl(fl(fl(acc)*fl(mul)) + addf) is within
 * 4u|acc mul| + 2u|add - corr mul| of the exact (acc - corr)*mul + add (three roundings
 * of the product, two of the offset and the sum) and v within 2^-52 times as much, so
 * |v' - v| < e = 8u|p| + errf, errf = 8u|addf| + 2^-20 (twice the bound, p the float
 * product).  When v' is at least e away from every half-integer, v rounds to the same
 * integer as v' and is no tie, so round-half-away gives round-to-nearest of v', and the
 * rails clamp both alike.  Unclamped: a lane past 2^20 in size has e >= 0.5 and falls
 * back, so the conversion to int32 never overflows.  Infinities and NaNs (an overflowing
 * product, a slot whose errf is +inf because its float scale is meaningless) fail the
 * test too. */
static inline __attribute__ ((always_inline)) gboolean
vnni_requant16_fast_v (__m512i acc, __m512 mulf, __m512 addf, __m512 errf, gint lo, gint hi, __m128i *res)
{
  const __m512 k = _mm512_set1_ps (1.0f / 2097152.0f);   /* 8u = 2^-21 */
  __m512 p = _mm512_mul_ps (_mm512_cvtepi32_ps (acc), mulf);
  __m512 v = _mm512_add_ps (p, addf);
  __m512 e = _mm512_fmadd_ps (_mm512_abs_ps (p), k, errf);
  __m512 r = _mm512_roundscale_ps (v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 d = _mm512_add_ps (_mm512_abs_ps (_mm512_sub_ps (v, r)), e);
  __m512i q;

  /* not (d < 0.5): also true for a NaN */
  if (_mm512_cmp_ps_mask (d, _mm512_set1_ps (0.5f), _CMP_NLT_UQ) != 0)
    return FALSE;
  q = _mm512_cvtps_epi32 (r);
  if (lo == -128 && hi == 127)          /* sint8: the narrowing saturates to the rails */
    *res = _mm512_cvtsepi32_epi8 (q);
  else if (lo == 0 && hi == 255)        /* uint8: negatives to 0 first */
    *res = _mm512_cvtusepi32_epi8 (_mm512_max_epi32 (q, _mm512_setzero_si512 ()));
  else
    *res = _mm512_cvtepi32_epi8 (_mm512_max_epi32 (_mm512_min_epi32 (q, _mm512_set1_epi32 (hi)),
                                                   _mm512_set1_epi32 (lo)));
  return TRUE;
}

static inline __attribute__ ((always_inline)) gboolean
vnni_requant16_fast (__m512i acc, const float *mulf, const float *addf, const float *errf,
                     gint lo, gint hi, __m128i *res)
{
  return vnni_requant16_fast_v (acc, _mm512_loadu_ps (mulf), _mm512_loadu_ps (addf), _mm512_loadu_ps (errf), lo,
                                hi, res);
}

/* rne (v) of bounded lanes (|v| < 2^22; see requant_bound) as int32 */
static inline __attribute__ ((always_inline)) __m512i
vnni_round_bounded (__m512 v)
{
  return _mm512_sub_epi32 (_mm512_castps_si512 (_mm512_add_ps (v, _mm512_set1_ps (12582912.0f))),
                           _mm512_set1_epi32 (0x4B400000));
}

/* Four vectors of int32 as 64 bytes, q0's 16 lanes first, on the rails [lo, hi]: two
 * saturating packs (int8: signed twice; uint8: signed to int16, then unsigned) and one
 * dword permutation to undo the packs' interleaving of 128-bit lanes. */
static inline __attribute__ ((always_inline)) __m512i
vnni_narrow64 (__m512i q0, __m512i q1, __m512i q2, __m512i q3, const gint lo, const gint hi)
{
  const __m512i order = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  __m512i a, b, c;

  if (!((lo == -128 && hi == 127) || (lo == 0 && hi == 255)))
    {
      const __m512i l = _mm512_set1_epi32 (lo), h = _mm512_set1_epi32 (hi);
      q0 = _mm512_max_epi32 (_mm512_min_epi32 (q0, h), l);
      q1 = _mm512_max_epi32 (_mm512_min_epi32 (q1, h), l);
      q2 = _mm512_max_epi32 (_mm512_min_epi32 (q2, h), l);
      q3 = _mm512_max_epi32 (_mm512_min_epi32 (q3, h), l);
    }
  a = _mm512_packs_epi32 (q0, q1);
  b = _mm512_packs_epi32 (q2, q3);
  c = lo < 0 ? _mm512_packs_epi16 (a, b) : _mm512_packus_epi16 (a, b);
  return _mm512_permutexvar_epi32 (order, c);
}

/* The bounded path's float values @v of 16 lanes, and the lanes too near a rounding
 * boundary for them (|v - rne (v)| not below the threshold). */
static inline __attribute__ ((always_inline)) __mmask16
vnni_bounded_value (__m512i acc, __m512 mulf, __m512 addf, __m512 thr, __m512 *v)
{
  *v = _mm512_fmadd_ps (_mm512_cvtepi32_ps (acc), mulf, addf);
  return _mm512_cmp_ps_mask (_mm512_abs_ps (_mm512_reduce_ps (*v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)),
                             thr, _CMP_NLT_UQ);
}

/* The bounded float path of 16 lanes whose slots all have a threshold (see
 * requant_slot_bounds); FALSE (nothing written) when a lane is too near a rounding
 * boundary to tell. */
static inline __attribute__ ((always_inline)) gboolean
vnni_requant16_bounded (__m512i acc, __m512 mulf, __m512 addf, __m512 thr, gint lo, gint hi, __m128i *res)
{
  __m512 v;
  __m512i q;

  if (vnni_bounded_value (acc, mulf, addf, thr, &v) != 0)
    return FALSE;
  q = vnni_round_bounded (v);
  if (lo == -128 && hi == 127)
    *res = _mm512_cvtsepi32_epi8 (q);
  else if (lo == 0 && hi == 255)
    *res = _mm512_cvtusepi32_epi8 (_mm512_max_epi32 (q, _mm512_setzero_si512 ()));
  else
    *res = _mm512_cvtepi32_epi8 (_mm512_max_epi32 (_mm512_min_epi32 (q, _mm512_set1_epi32 (hi)),
                                                   _mm512_set1_epi32 (lo)));
  return TRUE;
}

/* The 16 bytes of 16 lanes of slot @s: the bounded float path, else the guarded one,
 * else the double rule.  Returned in a register: a wider load of bytes just stored in
 * halves would stall on forwarding. */
static inline __attribute__ ((always_inline)) __m128i
vnni_requant16_slot (const ConvJob *job, __m512i acc, const gint32 *corr, gsize s)
{
  __m128i r;
  guint8 b[16];

  if (job->rq->bounded16 != NULL && job->rq->bounded16[s / 16]
      && vnni_requant16_bounded (acc, _mm512_loadu_ps (job->rq->mulf + s), _mm512_loadu_ps (job->rq->addf + s),
                                 _mm512_loadu_ps (job->rq->thrf + s), job->lo, job->hi, &r))
    return r;

  if ((job->rq->bounded16 == NULL || !job->rq->bounded16[s / 16])
      && vnni_requant16_fast (acc, job->rq->mulf + s, job->rq->addf + s, job->rq->errf + s, job->lo, job->hi, &r))
    return r;
  vnni_requant16 (acc, corr, job->rq->mul + s, job->rq->add + s, job->lo, job->hi, b);
  return _mm_loadu_si128 ((const __m128i *) b);
}

/* ---- shared by the VBMI depthwise files (depthwise-vnni-s1.c, -s2.c) ---------------- */
#ifdef __AVX512VBMI__

/* byte 4i + k of a half's quads: source k's channel i (sources 0, 1 the first register's
 * halves, 2, 3 the second's: index bit 6), channels 16-31 at i + 16 */
#define DW_QI(i) (i), 32 + (i), 64 + (i), 96 + (i)
#define DW_QI4(i) DW_QI (i), DW_QI (i + 1), DW_QI (i + 2), DW_QI (i + 3)

static const guint8 dw_quad_index[128] = { DW_QI4 (0), DW_QI4 (4), DW_QI4 (8), DW_QI4 (12),
                                           DW_QI4 (16), DW_QI4 (20), DW_QI4 (24), DW_QI4 (28) };
/* the column quads from pairs loaded a pixel early (an odd left pad; dw_cols_tile): source
 * pixels 1, 2 and 3, the fourth byte (a zero weight's) again */
#define DW_QIO(i) 32 + (i), 64 + (i), 96 + (i), 96 + (i)
#define DW_QIO4(i) DW_QIO (i), DW_QIO (i + 1), DW_QIO (i + 2), DW_QIO (i + 3)
static const guint8 dw_quad_index_odd[128] = { DW_QIO4 (0), DW_QIO4 (4), DW_QIO4 (8), DW_QIO4 (12),
                                               DW_QIO4 (16), DW_QIO4 (20), DW_QIO4 (24), DW_QIO4 (28) };

/* @e: the slots' thresholds when @bounded, else their error terms */
static inline __attribute__ ((always_inline)) __m128i
dw_requant_half (const ConvJob *job, __m512i acc, gboolean bounded, __m512 m, __m512 d, __m512 e, guint c)
{
  __m128i r;

  if (bounded ? vnni_requant16_bounded (acc, m, d, e, job->lo, job->hi, &r)
              : vnni_requant16_fast_v (acc, m, d, e, job->lo, job->hi, &r))
    return r;
  return vnni_requant16_slot (job, acc, job->dw_corr + c, c);
}

/* One pixel's two requantised halves (@r0, @r1) to its @nvalid channels from @cb. */
static inline __attribute__ ((always_inline)) void
dw_store_pixel (const ConvJob *job, guint8 *out, gsize pix_base, guint cb, guint nvalid, __m128i r0, __m128i r1)
{
  if (job->out_block_fast && nvalid == DW_BLK)
    _mm256_storeu_si256 ((__m256i *) (out + pix_base + job->out_addr.chan[cb]),
                         _mm256_inserti128_si256 (_mm256_castsi128_si256 (r0), r1, 1));
  else
    {
      guint8 res[DW_BLK];
      _mm_storeu_si128 ((__m128i *) res, r0);
      _mm_storeu_si128 ((__m128i *) (res + 16), r1);
      for (guint j = 0; j < nvalid; j++)
        out[pix_base + job->out_addr.chan[cb + j]] = res[j];
    }
}

/* The bracket (requant_slot_bounds) of 16 lanes: rne (lo) as int32, and in @bad (or-ed in) the
 * lanes where rne (lo) != rne (hi). */
static inline __attribute__ ((always_inline)) __m512i
dw_bracket (__m512i acc, __m512 m, __m512 alo, __m512 d, __m512i *bad)
{
  const __m512 lo = _mm512_fmadd_ps (_mm512_cvtepi32_ps (acc), m, alo);
  const __m512i rl = _mm512_cvt_roundps_epi32 (lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512i rh = _mm512_cvt_roundps_epi32 (_mm512_add_ps (lo, d), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);

  *bad = _mm512_ternarylogic_epi32 (*bad, rl, rh, 0xF6);   /* bad | (rl ^ rh) */
  return rl;
}

/* The double rule for the lanes of @acc (slots @c ..) whose bracket failed, written over
 * their bytes of the pixel at @pix (the output at the pixel's offset). */
static inline __attribute__ ((always_inline)) void
dw_bracket_fix (const ConvJob *job, __m512i acc, guint c, guint8 *pix)
{
  __m512i bad = _mm512_setzero_si512 ();
  gint32 a[16];
  guint m;

  dw_bracket (acc, _mm512_loadu_ps (job->rq->mulf + c), _mm512_loadu_ps (job->rq->bralo + c),
              _mm512_loadu_ps (job->rq->brd + c), &bad);
  m = _mm512_test_epi32_mask (bad, bad);
  if (m == 0)           /* most of a failed pixel's four groups of lanes */
    return;
  _mm512_storeu_si512 (a, acc);
  for (; m != 0; m &= m - 1)
    {
      const guint l = (guint) __builtin_ctz (m);
      pix[job->out_addr.chan[c + l]]
        = requant_lane (a[l], job->dw_corr[c + l], job->rq->mul[c + l], job->rq->add[c + l], job->lo, job->hi);
    }
}

#endif
