/* add-vnni.c: the flat add, 16 bytes at a time with AVX-512.  Built with -mavx512vnni.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-vnni.h"

/* The flat add's rule on 16 bytes of each operand, 8 lanes of doubles at a time: the
 * same two products and sum (no fused multiply-add: the rule rounds the products) and
 * the same rounding as round_clamp (vnni_round8). */
static inline __attribute__ ((always_inline)) __m512i
add_widen (__m128i x, Zg330KernelDType d)
{
  return d == ZG330_KERNEL_DTYPE_UINT8 ? _mm512_cvtepu8_epi32 (x) : _mm512_cvtepi8_epi32 (x);
}

void
add_part_vnni (const AddJob *job, gsize from, gsize to)
{
  const __m512d ra = _mm512_set1_pd (job->ra), rb = _mm512_set1_pd (job->rb);
  const __m512d lo1 = _mm512_set1_pd ((double) (job->lo - 1)), hi1 = _mm512_set1_pd ((double) (job->hi + 1));
  const __m512i lo = _mm512_set1_epi32 (job->lo), hi = _mm512_set1_epi32 (job->hi);
  gsize i = from;

  for (; i + 16 <= to; i += 16)
    {
      const __m512i x = add_widen (_mm_loadu_si128 ((const __m128i *) (job->pa + i)), job->da);
      const __m512i y = add_widen (_mm_loadu_si128 ((const __m128i *) (job->pb + i)), job->db);
      __m512d v0 = _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_castsi512_si256 (x)), ra);
      __m512d v1 = _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_extracti64x4_epi64 (x, 1)), ra);
      v0 = _mm512_add_pd (v0, _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_castsi512_si256 (y)), rb));
      v1 = _mm512_add_pd (v1, _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_extracti64x4_epi64 (y, 1)), rb));
      __m512i r = _mm512_inserti64x4 (_mm512_castsi256_si512 (vnni_round8 (v0, lo1, hi1)),
                                      vnni_round8 (v1, lo1, hi1), 1);
      r = _mm512_max_epi32 (_mm512_min_epi32 (r, hi), lo);
      _mm_storeu_si128 ((__m128i *) (job->po + i), _mm512_cvtepi32_epi8 (r));
    }
  add_part (job, i, to);
}
