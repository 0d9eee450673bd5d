/* add-avx2.c: the flat add, 16 bytes at a time with AVX2.  Built with -mavx2 -mfma.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-avx2.h"

/* The flat add's rule with AVX2, 16 bytes of each operand 4 doubles at a time: the same two
 * products and sum as add_rule, and round_clamp's rounding (avx2_round_clamp4). */
static inline __attribute__ ((always_inline)) __m256i
add_widen_avx2 (__m128i x, Zg330KernelDType d)
{
  return d == ZG330_KERNEL_DTYPE_UINT8 ? _mm256_cvtepu8_epi32 (x) : _mm256_cvtepi8_epi32 (x);
}

void
add_part_avx2 (const AddJob *job, gsize from, gsize to)
{
  const __m256d ra = _mm256_set1_pd (job->ra), rb = _mm256_set1_pd (job->rb);
  const __m256d lo1 = _mm256_set1_pd ((double) (job->lo - 1)), hi1 = _mm256_set1_pd ((double) (job->hi + 1));
  const __m256d lo = _mm256_set1_pd ((double) job->lo), hi = _mm256_set1_pd ((double) job->hi);
  gsize i = from;

  for (; i + 16 <= to; i += 16)
    {
      const __m128i xb = _mm_loadu_si128 ((const __m128i *) (job->pa + i));
      const __m128i yb = _mm_loadu_si128 ((const __m128i *) (job->pb + i));
      __m128i q[4];

      for (guint h = 0; h < 2; h++)
        {
          const __m256i x = add_widen_avx2 (h ? _mm_srli_si128 (xb, 8) : xb, job->da);
          const __m256i y = add_widen_avx2 (h ? _mm_srli_si128 (yb, 8) : yb, job->db);
          for (guint j = 0; j < 2; j++)
            {
              const __m128i xj = j ? _mm256_extracti128_si256 (x, 1) : _mm256_castsi256_si128 (x);
              const __m128i yj = j ? _mm256_extracti128_si256 (y, 1) : _mm256_castsi256_si128 (y);
              __m256d v = _mm256_mul_pd (_mm256_cvtepi32_pd (xj), ra);
              v = _mm256_add_pd (v, _mm256_mul_pd (_mm256_cvtepi32_pd (yj), rb));
              q[2 * h + j] = avx2_round_clamp4 (v, lo1, hi1, lo, hi);
            }
        }
      /* every value is in [lo, hi]: the saturating packs are exact */
      const __m128i a = _mm_packs_epi32 (q[0], q[1]), b = _mm_packs_epi32 (q[2], q[3]);
      _mm_storeu_si128 ((__m128i *) (job->po + i), job->lo < 0 ? _mm_packs_epi16 (a, b) : _mm_packus_epi16 (a, b));
    }
  add_part (job, i, to);
}
