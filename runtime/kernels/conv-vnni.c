/* conv-vnni.c: the dense and packed-group conv tiles with AVX-512 VNNI (vpdpbusd), and the
 * expansion of packed groups' input.  Built with -mavx512vnni; called through the dispatch
 * table only.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-vnni.h"

/* A tile's 2 x T accumulators to T x 32 bytes. */
static inline __attribute__ ((always_inline)) void
vnni_tile_requant (const ConvJob *job, guint ob, const __m512i *a0, const __m512i *a1, const guint T,
                   guint8 *res)
{
  const gsize s = (gsize) ob * OBLK;
  const gint32 *corr = job->corr + s;
  /* lanes 16-31 hold no output (narrow convs such as the image's 3-channel normaliser,
   * the last block of packed groups): skip their requantisation */
  gboolean upper = slot_channel (job, ob, 16) >= 0;
  const gboolean permute = job->bcast > 0;
  const __m128i perm = _mm_loadu_si128 ((const __m128i *) job->res_perm);
#pragma GCC unroll 12
  for (guint t = 0; t < T; t++)
    {
      __m128i r0 = vnni_requant16_slot (job, a0[t], corr, s), r1 = _mm_setzero_si128 ();
      if (upper)
        r1 = vnni_requant16_slot (job, a1[t], corr + 16, s + 16);
      if (permute)
        {
          r0 = _mm_shuffle_epi8 (r0, perm);
          r1 = _mm_shuffle_epi8 (r1, perm);
        }
      _mm_storeu_si128 ((__m128i *) (res + t * OBLK), r0);
      if (upper)
        _mm_storeu_si128 ((__m128i *) (res + t * OBLK + 16), r1);
    }
}

/* A tile's 2 x @T accumulators to zero. */
static inline __attribute__ ((always_inline)) void
vnni_tile_clear (__m512i *a0, __m512i *a1, const guint T)
{
#pragma GCC unroll 12
  for (guint t = 0; t < T; t++)
    a0[t] = a1[t] = _mm512_setzero_si512 ();
}

/* Packed groups of more than two per block: every tap loads each half's 16 dwords as
 * they are (@bytes 128: from the expanded input, two 64-byte loads per quad) or as one
 * broadcast of the half's groups' @bytes (8, 16, 32 or 64: ConvJob.bcast), so the (kh, kw,
 * q) loops flatten into one run of taps whose weights follow each other, with T <=
 * TILE_EXPANDED pixels (2T accumulators, two weight and two input registers: more would
 * spill). */
static inline __attribute__ ((always_inline)) __m512i
vnni_broadcast (const guint8 *p, const guint bytes)
{
  if (bytes == 8)
    {
      gint64 v;
      memcpy (&v, p, 8);
      return _mm512_set1_epi64 (v);
    }
  if (bytes == 16)
    return _mm512_broadcast_i32x4 (_mm_loadu_si128 ((const __m128i *) p));
  if (bytes == 32)
    return _mm512_broadcast_i64x4 (_mm256_loadu_si256 ((const __m256i *) p));
  return _mm512_loadu_si512 (p);
}

static inline __attribute__ ((always_inline)) void
vnni_tile_expanded_n (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, const guint T,
                      const guint bytes, guint8 *res)
{
  __m512i a0[TILE_EXPANDED], a1[TILE_EXPANDED];
  const TileSteps st = tile_steps (job);
  const guint nq = job->nq, KW = job->KW, ntaps = job->KH * KW * nq;

  vnni_tile_clear (a0, a1, T);

  if (bytes != 128 && nq == 1 && KW == 3 && job->sw == 1)
    {
      /* broadcast groups, stride 1, three columns: column i of a kernel row serves the
       * tile's pixels i - kw (kw 0..2), so it is broadcast once per row, not three times
       * (the broadcasts, not the multiply-adds, bounded this tile) */
      for (guint r = 0; r < job->KH; r++)
        {
          const guint8 *xr = x + r * st.row;
          __m512i w0[3], w1[3];
#pragma GCC unroll 3
          for (guint kw = 0; kw < 3; kw++)
            {
              w0[kw] = _mm512_loadu_si512 (w + ((gsize) r * 3 + kw) * 128);
              w1[kw] = _mm512_loadu_si512 (w + ((gsize) r * 3 + kw) * 128 + 64);
            }
#pragma GCC unroll 10
          for (guint i = 0; i < T + 2; i++)
            {
              const __m512i b0 = vnni_broadcast (xr + i * st.ipad, bytes), b1 = vnni_broadcast (xr + i * st.ipad + bytes, bytes);
#pragma GCC unroll 3
              for (guint kw = 0; kw < 3; kw++)
                if (i >= kw && i - kw < T)
                  {
                    a0[i - kw] = _mm512_dpbusd_epi32 (a0[i - kw], b0, w0[kw]);
                    a1[i - kw] = _mm512_dpbusd_epi32 (a1[i - kw], b1, w1[kw]);
                  }
            }
        }
      vnni_tile_requant (job, ob, a0, a1, T, res);
      return;
    }

  for (guint tap = 0, r = 0, s = 0, q = 0; tap < ntaps; tap++)
    {
      const guint8 *xt = x + r * st.row + s * st.ipad + (gsize) q * 128;
      __m512i w0 = _mm512_loadu_si512 (w + (gsize) tap * 128);
      __m512i w1 = _mm512_loadu_si512 (w + (gsize) tap * 128 + 64);
#pragma GCC unroll 8
      for (guint t = 0; t < T; t++)
        {
          const guint8 *xp = xt + t * st.pix;
          const guint b = bytes == 128 ? 64 : bytes;
          a0[t] = _mm512_dpbusd_epi32 (a0[t], vnni_broadcast (xp, b), w0);
          a1[t] = _mm512_dpbusd_epi32 (a1[t], vnni_broadcast (xp + b, b), w1);
        }
      if (++q == nq)
        {
          q = 0;
          if (++s == KW)
            s = 0, r++;
        }
    }
  vnni_tile_requant (job, ob, a0, a1, T, res);
}

/* One tile: T output pixels x 32 output lanes in 24 accumulators.  Dense blocks broadcast
 * one input dword (four channels of the lanes' one group) to all lanes; a pair of packed
 * groups (@packed, a constant at each call site) broadcasts each half's own group's dword.
 * More groups to a block take vnni_tile_expanded_n. */
static inline __attribute__ ((always_inline)) void
vnni_tile_n (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, const guint T,
             const gboolean packed, guint8 *res)
{
  __m512i a0[TILE_MAX], a1[TILE_MAX];
  const TileSteps st = tile_steps (job);
  const guint nq = job->nq, KW = job->KW, KH = job->KH;

  vnni_tile_clear (a0, a1, T);

  for (guint r = 0; r < KH; r++)
    for (guint s = 0; s < KW; s++)
      {
        const guint8 *xt = x + r * st.row + s * st.ipad;
        const gint8 *wt = w + ((gsize) r * KW + s) * nq * 4 * OBLK;
        for (guint q = 0; q < nq; q++)
          {
            __m512i w0 = _mm512_loadu_si512 (wt + (gsize) q * 128);
            __m512i w1 = _mm512_loadu_si512 (wt + (gsize) q * 128 + 64);
#pragma GCC unroll 12
            for (guint t = 0; t < T; t++)
              {
                const guint8 *xp = xt + t * st.pix;
                __m512i b0, b1;
                if (!packed)
                  {
                    gint32 v;
                    memcpy (&v, xp + 4 * q, 4);
                    b0 = b1 = _mm512_set1_epi32 (v);
                  }
                else
                  {
                    /* two groups of 16 lanes: each half broadcasts its group's quad from the
                     * unexpanded [g][Ip] pixel */
                    gint32 v0, v1;
                    memcpy (&v0, xp + 4 * q, 4);
                    memcpy (&v1, xp + job->Ip + 4 * q, 4);
                    b0 = _mm512_set1_epi32 (v0);
                    b1 = _mm512_set1_epi32 (v1);
                  }
                a0[t] = _mm512_dpbusd_epi32 (a0[t], b0, w0);
                a1[t] = _mm512_dpbusd_epi32 (a1[t], b1, w1);
              }
          }
      }

  vnni_tile_requant (job, ob, a0, a1, T, res);
}

void
tile_vnni_packed (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
                  guint8 *res)
{
  if (job->NG > 2)
    {
      g_assert (T >= 1 && T <= TILE_EXPANDED);
      switch (job->bcast)
        {
#define CASES(b) switch (T) { \
            case 1: vnni_tile_expanded_n (job, x, w, ob, 1, b, res); return; \
            case 2: vnni_tile_expanded_n (job, x, w, ob, 2, b, res); return; \
            case 3: vnni_tile_expanded_n (job, x, w, ob, 3, b, res); return; \
            case 4: vnni_tile_expanded_n (job, x, w, ob, 4, b, res); return; \
            case 5: vnni_tile_expanded_n (job, x, w, ob, 5, b, res); return; \
            case 6: vnni_tile_expanded_n (job, x, w, ob, 6, b, res); return; \
            case 7: vnni_tile_expanded_n (job, x, w, ob, 7, b, res); return; \
            default: vnni_tile_expanded_n (job, x, w, ob, 8, b, res); return; }
        case 0: CASES (128)
        case 8: CASES (8)
        case 16: CASES (16)
        case 32: CASES (32)
        default: CASES (64)
#undef CASES
        }
    }
  switch (T)
    {
#define CASE(n) case n: vnni_tile_n (job, x, w, ob, n, TRUE, res); break;
    CASE (1) CASE (2) CASE (3) CASE (4) CASE (5) CASE (6)
    CASE (7) CASE (8) CASE (9) CASE (10) CASE (11) CASE (12)
#undef CASE
    default: g_assert_not_reached ();
    }
}

void
tile_vnni (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
           guint8 *res)
{
  switch (T)
    {
#define CASE(n) case n: vnni_tile_n (job, x, w, ob, n, FALSE, res); break;
    CASE (1) CASE (2) CASE (3) CASE (4) CASE (5) CASE (6)
    CASE (7) CASE (8) CASE (9) CASE (10) CASE (11) CASE (12)
#undef CASE
    default: g_assert_not_reached ();
    }
}
/* Packed groups' input: @row holds Wp pixels of [g][Ip] bytes (and 128 bytes of slack);
 * block B's plane (@dst + B * @plane) gets, per pixel, per quad q, the two halves' 16
 * dwords lane by lane: lane l of half h takes quad q of group B*NG + (16h + l)/Ogp
 * (job->perm).  One plane per block keeps a tile's reads within a few kilobytes. */
void
conv_expand_groups (const ConvJob *job, const guint8 *row, guint8 *dst, gsize plane)
{
  const guint nq = job->nq;
  const gboolean two = job->NG * nq > 16;

  for (guint w = 0; w < job->Wp; w++)
    for (guint b = 0; b < job->nb; b++)
      {
        const guint8 *px = row + (gsize) w * job->groups * job->Ip + (gsize) b * job->NG * job->Ip;
        guint8 *d = dst + (gsize) b * plane + (gsize) w * job->ipad;
        __m512i lo = _mm512_loadu_si512 (px), hi = two ? _mm512_loadu_si512 (px + 64) : lo;
        for (guint q = 0; q < nq; q++)
          for (guint h = 0; h < 2; h++)
            {
              __m512i p = _mm512_loadu_si512 (job->perm + ((gsize) h * nq + q) * 16);
              _mm512_storeu_si512 (d + (gsize) q * 128 + h * 64,
                                   two ? _mm512_permutex2var_epi32 (lo, p, hi) : _mm512_permutexvar_epi32 (p, lo));
            }
      }
}
