/* conv-avx2.c: the dense and packed-group conv tiles with AVX2 and FMA (vpmaddwd on int16).
 * Built with -mavx2 -mfma; called through the dispatch table only.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-avx2.h"

/* Without VNNI: vpmaddwd on int16, exact in int32.  A pixel's input quad is broadcast as
 * one dword; masking each 16-bit half's low byte gives inputs 0 and 2 as int16, shifting
 * gives inputs 1 and 3, which meet job->w16's two pairs.  @P pixels of half @h of the block
 * (16 outputs) in registers, their sums to @acc[p * OBLK + 16 h ..].  @src says where a
 * half's lanes take their quads (a constant at each call site): AVX2_DENSE, every lane the
 * pixel's quad q; AVX2_PAIR (a pair of packed groups), half h its own group's quad at
 * + h * Ip; or the byte count of a broadcast half (ConvJob.bcast: 8, 16, 32 or 64, one quad
 * per group), whose bytes repeat over its 16 lanes. */
enum { AVX2_DENSE = 0, AVX2_PAIR = 1 };

/* The AVX2 paths (zg330_kernel_get_isa "avx2") also take FMA: the bracket's one rounding. */

static inline __attribute__ ((always_inline)) __m256i
avx2_quads (const ConvJob *job, const guint8 *xp, guint h, const guint src, guint k)
{
  gint32 d;
  gint64 e;

  switch (src)
    {
    case AVX2_DENSE:
      memcpy (&d, xp, 4);
      return _mm256_set1_epi32 (d);
    case AVX2_PAIR:
      memcpy (&d, xp + h * job->Ip, 4);
      return _mm256_set1_epi32 (d);
    case 8:
      memcpy (&e, xp + h * 8, 8);
      return _mm256_set1_epi64x (e);
    case 16:
      return _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) (xp + h * 16)));
    case 32:
      return _mm256_loadu_si256 ((const __m256i *) (xp + h * 32));
    default:   /* 64: lanes 8k .. 8k + 7 read bytes 32k .. 32k + 31 */
      return _mm256_loadu_si256 ((const __m256i *) (xp + h * 64 + k * 32));
    }
}

static inline __attribute__ ((always_inline)) void
tile_avx2_pixels (const ConvJob *job, const TileSteps *st, const guint8 *x, const gint16 *wb, guint h,
                  guint P, const guint src, gint32 *acc)
{
  const __m256i mask = _mm256_set1_epi32 (0x00ff00ff);
  __m256i a[4][2];

  for (guint p = 0; p < P; p++)
    a[p][0] = a[p][1] = _mm256_setzero_si256 ();
  for (guint r = 0; r < job->KH; r++)
    for (guint s = 0; s < job->KW; s++)
      {
        const guint8 *xt = x + r * st->row + s * st->ipad;
        const gint16 *wt = wb + ((gsize) r * job->KW + s) * job->nq * 4 * OBLK + h * 32;   /* int16: [pair][o 32][2] */

        for (guint q = 0; q < job->nq; q++, xt += 4, wt += 4 * OBLK)
          {
            const __m256i w00 = _mm256_loadu_si256 ((const __m256i *) wt);
            const __m256i w01 = _mm256_loadu_si256 ((const __m256i *) (wt + 16));
            const __m256i w10 = _mm256_loadu_si256 ((const __m256i *) (wt + 2 * OBLK));
            const __m256i w11 = _mm256_loadu_si256 ((const __m256i *) (wt + 2 * OBLK + 16));

            for (guint p = 0; p < P; p++)
              {
                const __m256i v0 = avx2_quads (job, xt + p * st->pix, h, src, 0);
                const __m256i v1 = src == 64 ? avx2_quads (job, xt + p * st->pix, h, src, 1) : v0;
                const __m256i ve0 = _mm256_and_si256 (v0, mask), vo0 = _mm256_srli_epi16 (v0, 8);
                const __m256i ve1 = _mm256_and_si256 (v1, mask), vo1 = _mm256_srli_epi16 (v1, 8);
                a[p][0] = _mm256_add_epi32 (a[p][0], _mm256_madd_epi16 (ve0, w00));
                a[p][1] = _mm256_add_epi32 (a[p][1], _mm256_madd_epi16 (ve1, w01));
                a[p][0] = _mm256_add_epi32 (a[p][0], _mm256_madd_epi16 (vo0, w10));
                a[p][1] = _mm256_add_epi32 (a[p][1], _mm256_madd_epi16 (vo1, w11));
              }
          }
      }
  for (guint p = 0; p < P; p++)
    {
      _mm256_storeu_si256 ((__m256i *) (acc + p * OBLK + h * 16), a[p][0]);
      _mm256_storeu_si256 ((__m256i *) (acc + p * OBLK + h * 16 + 8), a[p][1]);
    }
}

/* Both halves of a tile of @T pixels, four at a time, with inputs from @src. */
static inline __attribute__ ((always_inline)) void
tile_avx2_acc (const ConvJob *job, const guint8 *x, guint ob, guint T, const guint src, gint32 *acc)
{
  const TileSteps st = tile_steps (job);
  const gint16 *wb = job->w16 + (gsize) ob * job->KH * job->KW * job->nq * 4 * OBLK;

  for (guint h = 0; h < 2; h++)
    for (guint t = 0; t < T; t += 4)
      {
        const guint8 *xp = x + t * st.pix;
        gint32 *ap = acc + t * OBLK;
        switch (MIN (4u, T - t))
          {
          case 4: tile_avx2_pixels (job, &st, xp, wb, h, 4, src, ap); break;
          case 3: tile_avx2_pixels (job, &st, xp, wb, h, 3, src, ap); break;
          case 2: tile_avx2_pixels (job, &st, xp, wb, h, 2, src, ap); break;
          default: tile_avx2_pixels (job, &st, xp, wb, h, 1, src, ap); break;
          }
      }
}

/* round_clamp ((acc - corr) * mul + add) for four lanes: the same double operations in the
 * same order (no fused multiply-add: the kernels build with -ffp-contract=off), so the same
 * ints. */
static inline __attribute__ ((always_inline)) __m128i
requant_avx2_4 (__m128i acc, __m128i corr, const double *mul, const double *add, __m256d lo1, __m256d hi1,
                __m256d lo, __m256d hi)
{
  __m256d v = _mm256_cvtepi32_pd (_mm_sub_epi32 (acc, corr));

  v = _mm256_mul_pd (v, _mm256_loadu_pd (mul));
  v = _mm256_add_pd (v, _mm256_loadu_pd (add));
  return avx2_round_clamp4 (v, lo1, hi1, lo, hi);
}

/* requant_tile_c for one pixel of 32 lanes with AVX2: the same bytes. */
static inline void
requant_avx2_32 (const gint32 *acc, const gint32 *corr, const double *mul, const double *add, gint lo,
                 gint hi, guint8 *res)
{
  const __m256d lo1 = _mm256_set1_pd (lo - 1), hi1 = _mm256_set1_pd (hi + 1);
  const __m256d lod = _mm256_set1_pd (lo), hid = _mm256_set1_pd (hi);
  __m128i q[8];

  for (guint k = 0; k < 8; k++)
    q[k] = requant_avx2_4 (_mm_loadu_si128 ((const __m128i *) (acc + 4 * k)),
                           _mm_loadu_si128 ((const __m128i *) (corr + 4 * k)), mul + 4 * k, add + 4 * k,
                           lo1, hi1, lod, hid);
  for (guint k = 0; k < 8; k += 4)
    {
      /* every value is in [lo, hi]: the saturating packs are exact */
      __m128i a = _mm_packs_epi32 (q[k], q[k + 1]), b = _mm_packs_epi32 (q[k + 2], q[k + 3]);
      __m128i r = lo < 0 ? _mm_packs_epi16 (a, b) : _mm_packus_epi16 (a, b);
      _mm_storeu_si128 ((__m128i *) (res + 4 * k), r);
    }
}

static inline __attribute__ ((always_inline)) __m256i
avx2_bracket (const RequantFigures *rq, __m256i acc, gsize c, guint *bad)
{
  return avx2_bracket_v (acc, _mm256_loadu_ps (rq->mulf + c), _mm256_loadu_ps (rq->bralo + c),
                         _mm256_loadu_ps (rq->brd + c), bad);
}

/* Four registers of 8 int32 lanes to 32 bytes in lane order; the saturating packs clamp
 * to the rails (@sgn: int8, else uint8). */
static inline __attribute__ ((always_inline)) __m256i
avx2_narrow32 (const __m256i *r, gboolean sgn)
{
  const __m256i p01 = _mm256_packs_epi32 (r[0], r[1]), p23 = _mm256_packs_epi32 (r[2], r[3]);

  return _mm256_permutevar8x32_epi32 (sgn ? _mm256_packs_epi16 (p01, p23) : _mm256_packus_epi16 (p01, p23),
                                      _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7));
}

/* One pixel's 32 lanes (slots @s ..) of a tile: the bracket, or the double rule for the
 * whole pixel where some lane's bracket fails (rare: the bracket is a few 2^-20 wide). */
static inline __attribute__ ((always_inline)) void
requant_avx2_pixel (const ConvJob *job, const gint32 *acc, gsize s, guint8 *res)
{
  __m256i r[4];
  guint bad = 0;

  for (guint k = 0; k < 4; k++)
    {
      guint b;
      r[k] = avx2_bracket (job->rq, _mm256_loadu_si256 ((const __m256i *) (acc + 8 * k)), s + 8 * k, &b);
      bad |= b;
    }
  if (bad != 0)
    requant_avx2_32 (acc, job->corr + s, job->rq->mul + s, job->rq->add + s, job->lo, job->hi, res);
  else
    _mm256_storeu_si256 ((__m256i *) res, avx2_narrow32 (r, job->lo < 0));
}

/* The plain loops' tile with AVX2 (see tile_avx2_pixels). */
void
tile_avx2 (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T, guint8 *res)
{
  gint32 acc[TILE_MAX * OBLK];

  (void) w;
  tile_avx2_acc (job, x, ob, T, AVX2_DENSE, acc);
  for (guint t = 0; t < T; t++)
    requant_avx2_pixel (job, acc + t * OBLK, (gsize) ob * OBLK, res + t * OBLK);
}

/* Packed groups with AVX2 (ConvJob.NG): a pair of groups (NG 2) or broadcast halves of
 * one-quad groups (ConvJob.bcast), on the VNNI packing ([tap][q][lane][i 4]) widened by
 * w16_pack.  Broadcast halves' bytes go back to channel order through res_perm. */
void
tile_avx2_packed (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T, guint8 *res)
{
  gint32 acc[TILE_MAX * OBLK];

  (void) w;
  switch (job->bcast)
    {
    case 0: tile_avx2_acc (job, x, ob, T, AVX2_PAIR, acc); break;
    case 8: tile_avx2_acc (job, x, ob, T, 8, acc); break;
    case 16: tile_avx2_acc (job, x, ob, T, 16, acc); break;
    case 32: tile_avx2_acc (job, x, ob, T, 32, acc); break;
    default: tile_avx2_acc (job, x, ob, T, 64, acc); break;
    }
  for (guint t = 0; t < T; t++)
    {
      guint8 *r = res + t * OBLK;
      requant_avx2_pixel (job, acc + t * OBLK, (gsize) ob * OBLK, r);
      if (job->bcast > 0)
        {
          const __m128i perm = _mm_loadu_si128 ((const __m128i *) job->res_perm);
          _mm_storeu_si128 ((__m128i *) r, _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) r), perm));
          _mm_storeu_si128 ((__m128i *) (r + 16), _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (r + 16)), perm));
        }
    }
}
