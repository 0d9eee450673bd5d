/* kernels-avx2.h: the AVX2 helpers that several AVX2 files share (always inlined).  Included
 * only by files built with -mavx2 -mfma (meson.build).
 */
#pragma once

#include "kernels/kernels-private.h"

#if !defined(__AVX2__) || !defined(__FMA__)
#error "kernels-avx2.h is for the files built with -mavx2 -mfma"
#endif

/* round_clamp (@v, lo, hi) of four lanes (@lo1 = lo - 1, @hi1 = hi + 1 as doubles).
 * Truncation, the half-away-from-zero step and both clamps are exact in double. */
static inline __attribute__ ((always_inline)) __m128i
avx2_round_clamp4 (__m256d v, __m256d lo1, __m256d hi1, __m256d lo, __m256d hi)
{
  const __m256d half = _mm256_set1_pd (0.5), one = _mm256_set1_pd (1.0);

  v = _mm256_min_pd (_mm256_max_pd (v, lo1), hi1);
  __m256d t = _mm256_round_pd (v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m256d d = _mm256_sub_pd (v, t);
  t = _mm256_add_pd (t, _mm256_and_pd (_mm256_cmp_pd (d, half, _CMP_GE_OQ), one));
  t = _mm256_sub_pd (t, _mm256_and_pd (_mm256_cmp_pd (d, _mm256_sub_pd (_mm256_setzero_pd (), half), _CMP_LE_OQ), one));
  t = _mm256_min_pd (_mm256_max_pd (t, lo), hi);
  return _mm256_cvttpd_epi32 (t);
}

/* The bracket (requant_slot_bounds) of 8 lanes of slots @c ..: lo = fma (acc, mulf, alo),
 * hi = lo + d, both rounded to nearest by an explicit rounding (not MXCSR's); rne (lo) as
 * int32, and in @bad the lanes whose ends differ (slots without a bound have d = +inf:
 * always). */
static inline __attribute__ ((always_inline)) __m256i
avx2_bracket_v (__m256i acc, __m256 mulf, __m256 alo, __m256 d, guint *bad)
{
  const __m256 lo = _mm256_fmadd_ps (_mm256_cvtepi32_ps (acc), mulf, alo);
  const __m256 rl = _mm256_round_ps (lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 rh = _mm256_round_ps (_mm256_add_ps (lo, d), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);

  *bad = (guint) _mm256_movemask_ps (_mm256_cmp_ps (rl, rh, _CMP_NEQ_UQ));
  return _mm256_cvttps_epi32 (rl);   /* a bounded lane's |rl| < 2^22: exact (any other is bad) */
}

