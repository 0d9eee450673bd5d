/* depthwise-vnni-s1.c: 3x3 depthwise convs at stride 1 on NCHWc32 input with AVX-512 VNNI
 * and VBMI: two output rows per quad row, type planes.  Built with -mavx512vbmi; called
 * through the dispatch table only.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-vnni.h"

/* 3x3 depthwise convs on NCHWc32 input, with AVX512-VBMI: one quad row of four input
 * rows serves R output rows (two at stride 1: rows oh and oh+1 read input rows 0-2 and
 * 1-3 of it, with their weights shifted one byte; one at stride 2).  Each item builds the
 * quads of one 32-channel block for all padded columns into a small buffer (two byte
 * permutations per column: the four rows' 32 bytes interleaved channel by channel), then
 * runs the R rows across it with the 6R weight registers held: per 16 outputs, three
 * vpdpbusd and the requantisation, the fused path where proven. */

/* Block @cb's weights of the R rows, [r][kw][half]. */
static inline __attribute__ ((always_inline)) void
dw_rows_weights (const ConvJob *job, guint cb, const guint R, __m512i w[2][3][2])
{
#pragma GCC unroll 2
  for (guint r = 0; r < R; r++)
#pragma GCC unroll 3
    for (guint s = 0; s < 3; s++)
      {
        const gint8 *ws = job->dw_wr + (((gsize) r * 3 + s) * job->Cp + cb) * 4;
        w[r][s][0] = _mm512_loadu_si512 (ws);
        w[r][s][1] = _mm512_loadu_si512 (ws + 64);
      }
}

/* The R rows' accumulators of one pixel whose quads start at @xs. */
static inline __attribute__ ((always_inline)) void
dw_rows_accumulate (const guint8 *xs, __m512i w[2][3][2], const guint R, __m512i a[2][2])
{
#pragma GCC unroll 2
  for (guint r = 0; r < R; r++)
    a[r][0] = a[r][1] = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint s = 0; s < 3; s++)
    {
      __m512i x0 = _mm512_loadu_si512 (xs + s * 128), x1 = _mm512_loadu_si512 (xs + s * 128 + 64);
#pragma GCC unroll 2
      for (guint r = 0; r < R; r++)
        {
          a[r][0] = _mm512_dpbusd_epi32 (a[r][0], x0, w[r][s][0]);
          a[r][1] = _mm512_dpbusd_epi32 (a[r][1], x1, w[r][s][1]);
        }
    }
}

/* The R rows' slow loop of block @cb (dw_rows_accumulate on the quad row @q, the figures'
 * paths lane by lane): partial blocks, slots without a bound, other output layouts,
 * horizontal strides above 1. */
static void
dw_rows_block (const ConvJob *job, guint n, guint oh0, guint cb, guint8 *q)
{
  const guint8 *src = job->in->data;
  guint8 *out = job->out->data;
  const gsize qstep = 128;                      /* one column's quads: 2 x 64 bytes */
  const guint R = 2, rows = MIN (R, job->OH - oh0);
  const guint nvalid = MIN (DW_BLK, job->C - cb);
  const __m512i fl = _mm512_set1_epi8 ((char) job->pad_value);
  const gboolean p0 = job->rq->bounded16[cb / 16], p1 = job->rq->bounded16[cb / 16 + 1];
  const __m512 m0 = _mm512_loadu_ps (job->rq->mulf + cb), m1 = _mm512_loadu_ps (job->rq->mulf + cb + 16);
  const __m512 d0 = _mm512_loadu_ps (job->rq->addf + cb), d1 = _mm512_loadu_ps (job->rq->addf + cb + 16);
  const __m512 e0 = _mm512_loadu_ps ((p0 ? job->rq->thrf : job->rq->errf) + cb);
  const __m512 e1 = _mm512_loadu_ps ((p1 ? job->rq->thrf : job->rq->errf) + cb + 16);
  const __m512i idx0 = _mm512_loadu_si512 (dw_quad_index), idx1 = _mm512_loadu_si512 (dw_quad_index + 64);
  /* a row outside the input reads 32 zero bytes again and again (step 0) */
  static const guint8 zero32[DW_BLK] = { 0 };
  const guint8 *b[4];
  gsize t[4];
  __m512i w[2][3][2];
  guint8 *qp = q + (gsize) job->pl * qstep;

  for (guint k = 0; k < 4; k++)
    {
      gint h = (gint) (oh0 * job->sh + k) - (gint) job->pt;
      b[k] = h >= 0 && h < (gint) job->H
             ? src + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row + job->in_addr.chan[cb] : zero32;
      t[k] = b[k] != zero32 ? DW_BLK : 0;
    }
  /* padding columns: the biased zero */
  for (guint wp = 0; wp < job->Wp; wp++)
    if (wp < job->pl || wp >= job->pl + job->W)
      memset (q + wp * qstep, job->pad_value, qstep);
  for (guint x = 0; x < job->W; x++, qp += qstep)
    {
      __m256i y0 = _mm256_loadu_si256 ((const __m256i *) (b[0] + x * t[0]));
      __m256i y1 = _mm256_loadu_si256 ((const __m256i *) (b[1] + x * t[1]));
      __m256i y2 = _mm256_loadu_si256 ((const __m256i *) (b[2] + x * t[2]));
      __m256i y3 = _mm256_loadu_si256 ((const __m256i *) (b[3] + x * t[3]));
      __m512i z01 = _mm512_xor_si512 (_mm512_inserti64x4 (_mm512_castsi256_si512 (y0), y1, 1), fl);
      __m512i z23 = _mm512_xor_si512 (_mm512_inserti64x4 (_mm512_castsi256_si512 (y2), y3, 1), fl);
      _mm512_storeu_si512 (qp, _mm512_permutex2var_epi8 (z01, idx0, z23));
      _mm512_storeu_si512 (qp + 64, _mm512_permutex2var_epi8 (z01, idx1, z23));
    }
  dw_rows_weights (job, cb, R, w);
  for (guint ow = 0; ow < job->OW; ow++)
    {
      const guint8 *xs = q + (gsize) ow * job->sw * qstep;
      __m512i a[2][2];

      dw_rows_accumulate (xs, w, R, a);
      for (guint r = 0; r < rows; r++)
        {
          __m128i r0, r1 = _mm_setzero_si128 ();
          r0 = dw_requant_half (job, a[r][0], p0, m0, d0, e0, cb);
          if (nvalid > 16)
            r1 = dw_requant_half (job, a[r][1], p1, m1, d1, e1, cb + 16);
          dw_store_pixel (job, out, (gsize) n * job->out_addr.batch + (gsize) (oh0 + r) * job->out_addr.row
                                      + (gsize) ow * job->out_addr.pix, cb, nvalid, r0, r1);
        }
    }
}

/* ---- stride 1: type planes ------------------------------------------------------------
 *
 * The common case (3x3 at stride 1 both ways, NCHWc32 in and out, whole blocks whose slots
 * all have a bracket) runs on "type planes" instead of the quad row above.  A pair of
 * output rows reads four input rows; interleaving their bytes (rows 0-1 and 2-3 byte by
 * byte, then the two pairs word by word) turns one 64-byte load per row, two pixels of a
 * block, into four registers of quads: type j holds, for each of the two pixels, the
 * channels dw_type_channel (j, 0..7).  Those interleaves stay inside 128-bit lanes (any
 * of the core's four vector pipes runs them; a byte permutation across lanes shares the
 * multiply-add's), and each type register is stored whole into its plane: plane j, padded
 * column x at 32 x.  A 64-byte load at column ow + kw of plane j is then the quads that
 * pixels ow and ow + 1 read at kernel column kw, so a pair of output pixels is per type
 * three vpdpbusd per output row (the weights by type: dw_wt, the rows' weights of
 * dw_pack_weights, lane by lane).  The accumulators of types 0-3 go through the bracket
 * two at a time (two passes over the row, twelve weight registers each): the saturating
 * pack of types 0 and 1 to int16 waits in a row buffer for types 2 and 3, and packing
 * those two halves to bytes gives the pair's 64 output bytes in channel order, with no
 * permutation.  A lane whose bracket fails is flagged with its pair and pass; after both
 * passes the flagged pairs are summed again and those lanes take the double rule. */

/* One step of dw_type_planes: the rows' 64 bytes @r0 .. @r3 (two pixels) into the planes
 * at @d. */
static inline __attribute__ ((always_inline)) void
dw_type_planes_step (__m512i r0, __m512i r1, __m512i r2, __m512i r3, __m512i fl, guint8 *d, gsize plane)
{
  r0 = _mm512_xor_si512 (r0, fl);
  r1 = _mm512_xor_si512 (r1, fl);
  r2 = _mm512_xor_si512 (r2, fl);
  r3 = _mm512_xor_si512 (r3, fl);
  const __m512i p01l = _mm512_unpacklo_epi8 (r0, r1), p01h = _mm512_unpackhi_epi8 (r0, r1);
  const __m512i p23l = _mm512_unpacklo_epi8 (r2, r3), p23h = _mm512_unpackhi_epi8 (r2, r3);
  _mm512_store_si512 (d, _mm512_unpacklo_epi16 (p01l, p23l));
  _mm512_store_si512 (d + plane, _mm512_unpackhi_epi16 (p01l, p23l));
  _mm512_store_si512 (d + 2 * plane, _mm512_unpacklo_epi16 (p01h, p23h));
  _mm512_store_si512 (d + 3 * plane, _mm512_unpackhi_epi16 (p01h, p23h));
}

/* Pixels @e and @e + 1 of a row at @b (@t bytes a pixel: 0 for a row outside the input),
 * zero where outside 0 .. W-1 (masked-off bytes are not read). */
static inline __attribute__ ((always_inline)) __m512i
dw_load_pair (const guint8 *b, gssize t, gint e, gint W)
{
  __mmask64 m;

  if (e >= 0 && e + 2 <= W)
    return _mm512_loadu_si512 (b + e * t);
  m = (e >= 0 && e < W ? G_GUINT64_CONSTANT (0xFFFFFFFF) : 0)
      | (e + 1 >= 0 && e + 1 < W ? G_GUINT64_CONSTANT (0xFFFFFFFF00000000) : 0);
  return m == 0 ? _mm512_setzero_si512 () : _mm512_maskz_loadu_epi8 (m, b + e * t);
}

/* Block @cb's type planes for output rows oh0, oh0 + 1 of image @n: plane j at
 * @q + j * @plane (on a cache line), padded column c at 32 c, columns 0 .. Wp (the last a
 * pad: an odd last pixel's pair reads one column past the row).  Two columns a step, so
 * that the stores here and the pass's loads at even columns are whole cache lines; pixels
 * outside the row come in as zeros, the biased zero after the flip.  With an odd left pad,
 * a step's two columns are input pixels odd and even: both pixel pairs around them are
 * loaded whole (two pixels of NCHWc32 from an even one are a cache line where the row
 * starts on one) and shifted together by a pixel (valignq), each load used twice. */
static void
dw_type_planes (const ConvJob *job, guint n, guint oh0, guint cb, guint8 *q, gsize plane)
{
  static const guint8 zero64[64] __attribute__ ((aligned (64))) = { 0 };
  const __m512i fl = _mm512_set1_epi8 ((char) job->pad_value);
  const gint W = (gint) job->W, pl = (gint) job->pl, ncols = (gint) job->Wp + 1;
  const guint8 *b[4];
  gssize t[4];

  for (guint k = 0; k < 4; k++)
    {
      gint h = (gint) (oh0 + k) - (gint) job->pt;
      b[k] = h >= 0 && h < (gint) job->H
             ? (const guint8 *) job->in->data + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row
                 + job->in_addr.chan[cb]
             : zero64;
      t[k] = b[k] != zero64 ? DW_BLK : 0;   /* a row outside the input: zeros again and again */
    }
  /* the steps whose loads lie inside the row: c_in0 <= c <= c_in1 */
  const gint sh = pl % 2, c_in0 = pl - sh, c_in1 = W - 2 + pl - sh;
  __m512i p0 = _mm512_setzero_si512 (), p1 = p0, p2 = p0, p3 = p0;
  gint c = 0;

#define DW_TYPE_PLANES_STEP(LOAD)                                                                  \
  do                                                                                               \
    {                                                                                              \
      const gint e = c - pl + sh;                                                                  \
      const __m512i c0 = LOAD (b[0], t[0], e), c1 = LOAD (b[1], t[1], e);                           \
      const __m512i c2 = LOAD (b[2], t[2], e), c3 = LOAD (b[3], t[3], e);                           \
      if (sh == 0)                                                                                 \
        dw_type_planes_step (c0, c1, c2, c3, fl, q + (gsize) c * DW_BLK, plane);                    \
      else                                                                                         \
        dw_type_planes_step (_mm512_alignr_epi64 (c0, p0, 4), _mm512_alignr_epi64 (c1, p1, 4),      \
                             _mm512_alignr_epi64 (c2, p2, 4), _mm512_alignr_epi64 (c3, p3, 4), fl,  \
                             q + (gsize) c * DW_BLK, plane);                                        \
      p0 = c0, p1 = c1, p2 = c2, p3 = c3;                                                          \
    }                                                                                              \
  while (0)
#define DW_LOAD_EDGE(B, T, E) dw_load_pair (B, T, E, W)
#define DW_LOAD_INSIDE(B, T, E) _mm512_loadu_si512 ((B) + (E) * (T))
  for (; c < ncols && c < c_in0; c += 2)
    DW_TYPE_PLANES_STEP (DW_LOAD_EDGE);
  for (; c < ncols && c <= c_in1; c += 2)
    DW_TYPE_PLANES_STEP (DW_LOAD_INSIDE);
  for (; c < ncols; c += 2)
    DW_TYPE_PLANES_STEP (DW_LOAD_EDGE);
#undef DW_LOAD_INSIDE
#undef DW_LOAD_EDGE
#undef DW_TYPE_PLANES_STEP
}

/* Pass @pass (types 2 pass and 2 pass + 1) of pixel pair @ow's two output rows: the
 * accumulators @a[r][t]. */
static inline __attribute__ ((always_inline)) void
dw_type_accumulate (const guint8 *q0, const guint8 *q1, guint ow, __m512i w[2][3][2], __m512i a[2][2])
{
  a[0][0] = a[0][1] = a[1][0] = a[1][1] = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint s = 0; s < 3; s++)
    {
      const __m512i x0 = _mm512_loadu_si512 (q0 + (gsize) (ow + s) * DW_BLK);
      const __m512i x1 = _mm512_loadu_si512 (q1 + (gsize) (ow + s) * DW_BLK);
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
        {
          a[r][0] = _mm512_dpbusd_epi32 (a[r][0], x0, w[r][s][0]);
          a[r][1] = _mm512_dpbusd_epi32 (a[r][1], x1, w[r][s][1]);
        }
    }
}

/* Block @cb's weights and figures of pass @pass. */
static inline __attribute__ ((always_inline)) void
dw_type_figures (const ConvJob *job, guint cb, guint pass, __m512i w[2][3][2], __m512 m[2], __m512 alo[2],
                 __m512 d[2])
{
  const gint8 *wb = job->dw_wt + (gsize) cb / DW_BLK * 2 * 3 * 4 * 64;
  const float *fb = job->dw_fig4 + (gsize) cb / DW_BLK * 4 * 3 * 16;

#pragma GCC unroll 2
  for (guint t = 0; t < 2; t++)
    {
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
#pragma GCC unroll 3
        for (guint s = 0; s < 3; s++)
          w[r][s][t] = _mm512_load_si512 (wb + ((r * 3 + s) * 4 + 2 * pass + t) * 64);
      m[t] = _mm512_load_ps (fb + ((2 * pass + t) * 3 + 0) * 16);
      alo[t] = _mm512_load_ps (fb + ((2 * pass + t) * 3 + 1) * 16);
      d[t] = _mm512_load_ps (fb + ((2 * pass + t) * 3 + 2) * 16);
    }
}

/* Two types' requantised lanes of one output row packed to int16 (saturating: the rails
 * clamp after), clamped first where the rails are not int8's or uint8's. */
static inline __attribute__ ((always_inline)) __m512i
dw_type_pack16 (__m512i k0, __m512i k1, const gint lo, const gint hi)
{
  if (!((lo == -128 && hi == 127) || (lo == 0 && hi == 255)))
    {
      const __m512i l = _mm512_set1_epi32 (lo), h = _mm512_set1_epi32 (hi);
      k0 = _mm512_max_epi32 (_mm512_min_epi32 (k0, h), l);
      k1 = _mm512_max_epi32 (_mm512_min_epi32 (k1, h), l);
    }
  return _mm512_packs_epi32 (k0, k1);
}

/* @NP pixel pairs from pair @i0 of pass @pass (see dw_type_pass_n): their accumulators
 * first, then their brackets side by side, then their bytes. */
static inline __attribute__ ((always_inline)) void
dw_type_step (const guint8 *q0, const guint8 *q1, guint i0, const guint NP, const guint pass, guint rows, guint OW,
              __m512i w[2][3][2], const __m512 *m, const __m512 *alo, const __m512 *d, guint8 *const *orow,
              guint8 *tmp, guint8 *flags, const gint lo, const gint hi)
{
  __m512i a[2][2][2], k[2][2][2], bad[2];

#pragma GCC unroll 2
  for (guint u = 0; u < NP; u++)
    dw_type_accumulate (q0, q1, 2 * (i0 + u), w, a[u]);
#pragma GCC unroll 2
  for (guint u = 0; u < NP; u++)
    {
      bad[u] = _mm512_setzero_si512 ();
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
#pragma GCC unroll 2
        for (guint t = 0; t < 2; t++)
          k[u][r][t] = dw_bracket (a[u][r][t], m[t], alo[t], d[t], &bad[u]);
    }
#pragma GCC unroll 2
  for (guint u = 0; u < NP; u++)
    {
      const guint i = i0 + u;
      guint8 *t16 = tmp + (gsize) i * 2 * 64;
      const guint8 f = _mm512_test_epi32_mask (bad[u], bad[u]) != 0;
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
        {
          const __m512i p = dw_type_pack16 (k[u][r][0], k[u][r][1], lo, hi);
          if (pass == 0)
            _mm512_store_si512 (t16 + r * 64, p);
          else if (r < rows)
            {
              const __m512i t0 = _mm512_load_si512 (t16 + r * 64);
              const __m512i b = lo < 0 ? _mm512_packs_epi16 (t0, p) : _mm512_packus_epi16 (t0, p);
              guint8 *o = orow[r] + (gsize) (2 * i) * DW_BLK;
              /* an odd row's last pair has one pixel, its second lanes a pad's */
              if (2 * i + 1 < OW)
                _mm512_storeu_si512 (o, b);
              else
                _mm256_storeu_si256 ((__m256i *) o, _mm512_castsi512_si256 (b));
            }
        }
      if (pass == 0)
        flags[i] = f;
      else
        flags[i] |= (guint8) (f << 1);
    }
}

/* Pass @pass of block @cb over every pixel pair of output rows @orow (@rows of them), two
 * pairs a step.  Pass 0 leaves each row's int16 in @tmp ([pair][row][64]); pass 1 packs
 * them with its own to bytes and stores them.  @flags gets bit @pass of each pair whose
 * bracket failed somewhere. */
static inline __attribute__ ((always_inline)) void
dw_type_pass_n (const ConvJob *job, const guint8 *q, gsize plane, guint cb, const guint pass, guint rows,
                guint8 *const *orow, guint8 *tmp, guint8 *flags, const gint lo, const gint hi)
{
  const guint OW = job->OW, npairs = (OW + 1) / 2;
  const guint8 *q0 = q + 2 * pass * plane, *q1 = q0 + plane;
  __m512i w[2][3][2];
  __m512 m[2], alo[2], d[2];
  guint i = 0;

  dw_type_figures (job, cb, pass, w, m, alo, d);
  for (; i + 2 <= npairs; i += 2)
    dw_type_step (q0, q1, i, 2, pass, rows, OW, w, m, alo, d, orow, tmp, flags, lo, hi);
  if (i < npairs)
    dw_type_step (q0, q1, i, 1, pass, rows, OW, w, m, alo, d, orow, tmp, flags, lo, hi);
}

/* The lanes of pass @pass of pixel pair @ow (block @cb) whose bracket failed: the
 * accumulators again and the double rule, over the bytes pass 1 stored. */
static void
dw_type_fix (const ConvJob *job, const guint8 *q, gsize plane, guint n, guint oh0, guint rows, guint cb, guint ow,
             guint pass)
{
  __m512i w[2][3][2], a[2][2];
  __m512 m[2], alo[2], d[2];

  dw_type_figures (job, cb, pass, w, m, alo, d);
  dw_type_accumulate (q + 2 * pass * plane, q + (2 * pass + 1) * plane, ow, w, a);
  for (guint r = 0; r < rows; r++)
    for (guint t = 0; t < 2; t++)
      {
        const __m512 lo = _mm512_fmadd_ps (_mm512_cvtepi32_ps (a[r][t]), m[t], alo[t]);
        const __m512i rl = _mm512_cvt_roundps_epi32 (lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m512i rh = _mm512_cvt_roundps_epi32 (_mm512_add_ps (lo, d[t]),
                                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        guint bad = _mm512_cmpneq_epi32_mask (rl, rh);
        gint32 acc[16];

        _mm512_storeu_si512 (acc, a[r][t]);
        for (; bad != 0; bad &= bad - 1)
          {
            const guint l = (guint) __builtin_ctz (bad), px = ow + l / 8;
            const guint c = cb + dw_type_channel (2 * pass + t, l % 8);
            if (px >= job->OW)
              continue;
            ((guint8 *) job->out->data)[(gsize) n * job->out_addr.batch + (gsize) (oh0 + r) * job->out_addr.row
                                        + (gsize) px * job->out_addr.pix + job->out_addr.chan[c]]
              = requant_lane (acc[l], job->dw_corr[c], job->rq->mul[c], job->rq->add[c], job->lo, job->hi);
          }
      }
}

static __attribute__ ((noinline)) void
dw_type_pass_s8 (const ConvJob *job, const guint8 *q, gsize plane, guint cb, guint pass, guint rows,
                 guint8 *const *orow, guint8 *tmp, guint8 *flags)
{
  if (pass == 0)
    dw_type_pass_n (job, q, plane, cb, 0, rows, orow, tmp, flags, -128, 127);
  else
    dw_type_pass_n (job, q, plane, cb, 1, rows, orow, tmp, flags, -128, 127);
}

static __attribute__ ((noinline)) void
dw_type_pass_u8 (const ConvJob *job, const guint8 *q, gsize plane, guint cb, guint pass, guint rows,
                 guint8 *const *orow, guint8 *tmp, guint8 *flags)
{
  if (pass == 0)
    dw_type_pass_n (job, q, plane, cb, 0, rows, orow, tmp, flags, 0, 255);
  else
    dw_type_pass_n (job, q, plane, cb, 1, rows, orow, tmp, flags, 0, 255);
}

static __attribute__ ((noinline)) void
dw_type_pass_any (const ConvJob *job, const guint8 *q, gsize plane, guint cb, guint pass, guint rows,
                  guint8 *const *orow, guint8 *tmp, guint8 *flags)
{
  if (pass == 0)
    dw_type_pass_n (job, q, plane, cb, 0, rows, orow, tmp, flags, job->lo, job->hi);
  else
    dw_type_pass_n (job, q, plane, cb, 1, rows, orow, tmp, flags, job->lo, job->hi);
}

/* Whether block @cb of @job runs on type planes. */
static gboolean
dw_type_block (const ConvJob *job, guint cb)
{
  return job->dw_wt != NULL && job->sw == 1 && job->C - cb >= DW_BLK && job->rq->bounded16[cb / 16]
         && job->rq->bounded16[cb / 16 + 1] && job->out_block_fast && job->out_addr.pix == DW_BLK;
}

/* One item: output rows 2i and 2i + 1 of an image, every block. */
void
conv_dw_rows_3x3 (gpointer data, guint item)
{
  ConvJob *job = data;
  const guint groups = (job->OH + 1) / 2, n = item / groups, oh0 = (item % groups) * 2;
  const guint rows = MIN (2u, job->OH - oh0), npairs = (job->OW + 1) / 2;
  /* the quad row (slow blocks), the type planes (each on a cache line), the int16 row
   * buffer, the pairs' flags */
  const gsize qsize = ((gsize) job->Wp * 128 + 63) & ~(gsize) 63;
  const gsize plane = ((gsize) (job->Wp + 3) * DW_BLK + 63) & ~(gsize) 63;
  const gsize tsize = (gsize) npairs * 2 * 64;
  gboolean own;
  guint8 *scratch = dw_scratch_get (qsize + 4 * plane + tsize + npairs + 64, &own);
  guint8 *q = scratch, *tmp = scratch + qsize + 4 * plane, *flags = tmp + tsize;
  guint8 *planes = scratch + qsize;

  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      guint8 *orow[2];

      if (!dw_type_block (job, cb))
        {
          dw_rows_block (job, n, oh0, cb, q);
          continue;
        }
      for (guint r = 0; r < 2; r++)
        orow[r] = (guint8 *) job->out->data + (gsize) n * job->out_addr.batch
                  + (gsize) (oh0 + MIN (r, rows - 1)) * job->out_addr.row + job->out_addr.chan[cb];
      dw_type_planes (job, n, oh0, cb, planes, plane);
      for (guint pass = 0; pass < 2; pass++)
        {
          if (job->lo == -128 && job->hi == 127)
            dw_type_pass_s8 (job, planes, plane, cb, pass, rows, orow, tmp, flags);
          else if (job->lo == 0 && job->hi == 255)
            dw_type_pass_u8 (job, planes, plane, cb, pass, rows, orow, tmp, flags);
          else
            dw_type_pass_any (job, planes, plane, cb, pass, rows, orow, tmp, flags);
        }
      for (guint i = 0; i < npairs; i++)
        if (G_UNLIKELY (flags[i] != 0))
          for (guint pass = 0; pass < 2; pass++)
            if (flags[i] & (1u << pass))
              dw_type_fix (job, planes, plane, n, oh0, rows, cb, 2 * i, pass);
    }
  if (own)
    g_aligned_free (scratch);
}
