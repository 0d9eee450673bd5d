/* depthwise-vnni-s2.c: 3x3 depthwise convs at stride 2 on NCHWc32 input with AVX-512 VNNI
 * and VBMI: column quads.  Built with -mavx512vbmi; called through the dispatch table only.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-vnni.h"

/* 3x3 depthwise convs at stride 2 (in both directions) on NCHWc32 input: "column quads".
 * Output column ow of input row y reads pixels 2ow-pl .. +2, four consecutive pixels of
 * NCHWc32 are 128 contiguous bytes, and two byte permutations of them give the four
 * pixels' bytes channel by channel: one vpdpbusd per input row does a row's three taps of
 * 16 channels (weights [ky][Cp][4], zero in byte 3).  Nothing is built in memory; pixels
 * outside the row are masked off the loads, and the biasing XOR turns their zeros into
 * the biased zero, as it does for rows outside the input. */
static inline __attribute__ ((always_inline)) __m512i
dw_load_pixels2 (const guint8 *row, gint x, gint W)
{
  /* pixels x and x + 1 (32 bytes each) of @row, zero where outside 0 .. W-1 */
  if (x >= 0 && x + 2 <= W)
    return _mm512_loadu_si512 (row + (gsize) x * DW_BLK);
  __mmask64 m = 0;
  if (x >= 0 && x < W)
    m |= G_GUINT64_CONSTANT (0xFFFFFFFF);
  if (x + 1 >= 0 && x + 1 < W)
    m |= G_GUINT64_CONSTANT (0xFFFFFFFF00000000);
  if (m == 0)
    return _mm512_setzero_si512 ();
  /* a masked-off byte is not read: the address may lie before the row */
  return _mm512_maskz_loadu_epi8 (m, row + (gssize) x * DW_BLK);
}

/* One pixel's accumulators from the column quads of the three rows @rb (NULL: outside
 * the input) loaded from pixel @x: its taps start at pixel x + @s (s 1: an odd left pad,
 * the pairs loaded from an even pixel, dw_cols_tile). */
static inline __attribute__ ((always_inline)) void
dw_cols_accumulate (const guint8 *const *rb, gint x, gint W, const guint s, __m512i fl, __m512i w[3][2],
                    __m512i *a0, __m512i *a1)
{
  const guint8 *qi = s ? dw_quad_index_odd : dw_quad_index;
  const __m512i idx0 = _mm512_loadu_si512 (qi), idx1 = _mm512_loadu_si512 (qi + 64);

  *a0 = *a1 = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint ky = 0; ky < 3; ky++)
    {
      __m512i A = fl, B = fl;
      if (rb[ky] != NULL)
        {
          A = _mm512_xor_si512 (dw_load_pixels2 (rb[ky], x, W), fl);
          B = _mm512_xor_si512 (dw_load_pixels2 (rb[ky], x + 2, W), fl);
        }
      *a0 = _mm512_dpbusd_epi32 (*a0, _mm512_permutex2var_epi8 (A, idx0, B), w[ky][0]);
      *a1 = _mm512_dpbusd_epi32 (*a1, _mm512_permutex2var_epi8 (A, idx1, B), w[ky][1]);
    }
}

/* Block @cb's column-quad weights, [kh][half]. */
static inline __attribute__ ((always_inline)) void
dw_cols_weights (const ConvJob *job, guint cb, __m512i w[3][2])
{
  for (guint ky = 0; ky < 3; ky++)
    {
      const gint8 *ws = job->dw_wr + ((gsize) ky * job->Cp + cb) * 4;
      w[ky][0] = _mm512_loadu_si512 (ws);
      w[ky][1] = _mm512_loadu_si512 (ws + 64);
    }
}

/* Four output pixels of one block from the column quads of the rows @rb (NULL: outside
 * the input) loaded from pixel @x, their taps from pixel x + @s: their 8 accumulators, then
 * their 8 requantisations side by side (one chain per pixel would leave the core waiting on
 * its latency) through the bracket, stored as 128 bytes at @o (NCHWc32, pixels @pix bytes
 * apart).  @inside: every row is there and pixels x .. x + 9 lie in the row.  FALSE where a
 * lane's bracket failed (its byte is then wrong: dw_cols_tile_fix).  With an odd left pad
 * (@s 1) the loads start a pixel early, on an even pixel: two pixels of NCHWc32 from an
 * even one are a whole cache line where the row starts on one (from an odd one, every
 * load spans two lines, and took about as long again on Zen 5). */
static inline __attribute__ ((always_inline)) gboolean
dw_cols_tile (const guint8 *const *rb, gint x, gint W, const guint s, __m512i fl, __m512i w[3][2], __m512 m0,
              __m512 m1, __m512 bl0, __m512 bl1, __m512 bd0, __m512 bd1, const gint lo, const gint hi,
              const gboolean inside, guint8 *o, gsize pix)
{
  const guint8 *qi = s ? dw_quad_index_odd : dw_quad_index;
  const __m512i idx0 = _mm512_loadu_si512 (qi), idx1 = _mm512_loadu_si512 (qi + 64);
  __m512i a[4][2], q[4][2], bad = _mm512_setzero_si512 ();

#pragma GCC unroll 4
  for (guint p = 0; p < 4; p++)
    a[p][0] = a[p][1] = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint ky = 0; ky < 3; ky++)
    {
      /* pixel p's quads come from pairs p and p + 1 of the row's pixels from x */
      __m512i X[5];
#pragma GCC unroll 5
      for (guint k = 0; k < 5; k++)
        X[k] = inside ? _mm512_xor_si512 (_mm512_loadu_si512 (rb[ky] + (gsize) (x + 2 * (gint) k) * DW_BLK), fl)
               : rb[ky] != NULL ? _mm512_xor_si512 (dw_load_pixels2 (rb[ky], x + 2 * (gint) k, W), fl) : fl;
#pragma GCC unroll 4
      for (guint p = 0; p < 4; p++)
        {
          a[p][0] = _mm512_dpbusd_epi32 (a[p][0], _mm512_permutex2var_epi8 (X[p], idx0, X[p + 1]), w[ky][0]);
          a[p][1] = _mm512_dpbusd_epi32 (a[p][1], _mm512_permutex2var_epi8 (X[p], idx1, X[p + 1]), w[ky][1]);
        }
    }
#pragma GCC unroll 4
  for (guint p = 0; p < 4; p++)
    {
      q[p][0] = dw_bracket (a[p][0], m0, bl0, bd0, &bad);
      q[p][1] = dw_bracket (a[p][1], m1, bl1, bd1, &bad);
    }
  /* pixels p and p + 1 are 64 contiguous bytes of NCHWc32 */
#pragma GCC unroll 2
  for (guint p = 0; p < 4; p += 2)
    _mm512_storeu_si512 (o + p * pix, vnni_narrow64 (q[p][0], q[p][1], q[p + 1][0], q[p + 1][1], lo, hi));
  return _mm512_test_epi32_mask (bad, bad) == 0;
}

/* The lanes of a tile of dw_cols_tile (its first @npix pixels from @ow, of block @cb, the
 * output row at @orow) whose bracket failed: their accumulators again, and the double
 * rule.  Rare (about one lane in 2 / (bracket width)), so the tile's accumulators need
 * not stay live. */
static void
dw_cols_tile_fix (const ConvJob *job, const guint8 *const *rb, guint ow, guint npix, guint cb, guint8 *orow)
{
  const __m512i fl = _mm512_set1_epi8 ((char) (job->in_signed ? 0x80 : 0x00));
  __m512i w[3][2], a[2];

  dw_cols_weights (job, cb, w);
  for (guint p = 0; p < npix; p++)
    {
      dw_cols_accumulate (rb, (gint) (2 * (ow + p)) - (gint) job->pl - (gint) (job->pl % 2), (gint) job->W,
                          job->pl % 2, fl, w, &a[0], &a[1]);
      for (guint h = 0; h < 2; h++)
        dw_bracket_fix (job, a[h], cb + 16 * h, orow + (gsize) (ow + p) * job->out_addr.pix);
    }
}

static inline __attribute__ ((always_inline)) void
dw_cols_3x3_s2_n (const ConvJob *job, guint n, guint oh, const guint s, const gint lo, const gint hi)
{
  /* the loads start at pixel 2 ow - pl - s, even (s: the left pad's parity) */
  const gint x0 = -(gint) job->pl - (gint) s;
  const guint8 *src = job->in->data;
  guint8 *out = job->out->data;
  const guint8 flip = job->in_signed ? 0x80 : 0x00;
  const gint W = (gint) job->W;
  const guint OW = job->OW;
  const gsize pix = job->out_addr.pix;
  const guint8 *rowp[3];
  const __m512i fl = _mm512_set1_epi8 ((char) flip);

  for (guint ky = 0; ky < 3; ky++)
    {
      gint h = (gint) (oh * 2 + ky) - (gint) job->pt;
      rowp[ky] = h >= 0 && h < (gint) job->H
                 ? src + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row : NULL;
    }
  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      const guint nvalid = MIN (DW_BLK, job->C - cb);
      const gboolean p0 = job->rq->bounded16[cb / 16], p1 = job->rq->bounded16[cb / 16 + 1];
      const __m512 m0 = _mm512_loadu_ps (job->rq->mulf + cb), m1 = _mm512_loadu_ps (job->rq->mulf + cb + 16);
      const __m512 d0 = _mm512_loadu_ps (job->rq->addf + cb), d1 = _mm512_loadu_ps (job->rq->addf + cb + 16);
      const __m512 e0 = _mm512_loadu_ps ((p0 ? job->rq->thrf : job->rq->errf) + cb);
      const __m512 e1 = _mm512_loadu_ps ((p1 ? job->rq->thrf : job->rq->errf) + cb + 16);
      const __m512 bl0 = _mm512_loadu_ps (job->rq->bralo + cb), bl1 = _mm512_loadu_ps (job->rq->bralo + cb + 16);
      const __m512 bd0 = _mm512_loadu_ps (job->rq->brd + cb), bd1 = _mm512_loadu_ps (job->rq->brd + cb + 16);
      const gboolean fast = p0 && p1 && nvalid == DW_BLK && job->out_block_fast;
      const guint8 *rb[3];
      __m512i w[3][2];
      gsize obase = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;

      dw_cols_weights (job, cb, w);
      for (guint ky = 0; ky < 3; ky++)
        rb[ky] = rowp[ky] != NULL ? rowp[ky] + job->in_addr.chan[cb] : NULL;
      guint ow = 0;

      /* four pixels at a time (dw_cols_tile); tiles whose rows and columns all lie inside
       * the input load without masks or checks */
      const gboolean rows_in = rb[0] != NULL && rb[1] != NULL && rb[2] != NULL;
      for (; fast && ow + 4 <= OW; ow += 4)
        {
          const gint x = (gint) (2 * ow) + x0;
          guint8 *o = out + obase + job->out_addr.chan[cb] + (gsize) ow * pix;
          gboolean ok = rows_in && x >= 0 && x + 10 <= W
                        ? dw_cols_tile (rb, x, W, s, fl, w, m0, m1, bl0, bl1, bd0, bd1, lo, hi, TRUE, o, pix)
                        : dw_cols_tile (rb, x, W, s, fl, w, m0, m1, bl0, bl1, bd0, bd1, lo, hi, FALSE, o, pix);
          if (G_UNLIKELY (!ok))
            dw_cols_tile_fix (job, rb, ow, 4, cb, out + obase);
        }
      if (fast && ow < OW)
        {
          /* the last 1-3 pixels: a whole tile into a buffer (its pixels past the row read
           * the biased zero), the row's pixels copied out */
          const guint npix = OW - ow;
          guint8 tile[4 * DW_BLK] __attribute__ ((aligned (64)));
          guint8 *o = out + obase + job->out_addr.chan[cb] + (gsize) ow * pix;
          gboolean ok = dw_cols_tile (rb, (gint) (2 * ow) + x0, W, s, fl, w, m0, m1, bl0, bl1, bd0, bd1,
                                      lo, hi, FALSE, tile, DW_BLK);
          for (guint p = 0; p < npix; p++)
            memcpy (o + p * pix, tile + p * DW_BLK, DW_BLK);
          if (G_UNLIKELY (!ok))
            dw_cols_tile_fix (job, rb, ow, npix, cb, out + obase);
          ow = OW;
        }
      for (; ow < OW; ow++)
        {
          __m512i a0, a1;
          __m128i r0, r1 = _mm_setzero_si128 ();

          dw_cols_accumulate (rb, (gint) (2 * ow) + x0, W, s, fl, w, &a0, &a1);
          r0 = dw_requant_half (job, a0, p0, m0, d0, e0, cb);
          if (nvalid > 16)
            r1 = dw_requant_half (job, a1, p1, m1, d1, e1, cb + 16);
          dw_store_pixel (job, out, obase + ow * pix, cb, nvalid, r0, r1);
        }
    }
}

void
conv_dw_cols_3x3_s2 (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->OH, oh = item % job->OH;
  const gboolean odd = job->pl % 2;

  if (job->lo == -128 && job->hi == 127)
    odd ? dw_cols_3x3_s2_n (job, n, oh, 1, -128, 127) : dw_cols_3x3_s2_n (job, n, oh, 0, -128, 127);
  else if (job->lo == 0 && job->hi == 255)
    odd ? dw_cols_3x3_s2_n (job, n, oh, 1, 0, 255) : dw_cols_3x3_s2_n (job, n, oh, 0, 0, 255);
  else
    odd ? dw_cols_3x3_s2_n (job, n, oh, 1, job->lo, job->hi) : dw_cols_3x3_s2_n (job, n, oh, 0, job->lo, job->hi);
}
