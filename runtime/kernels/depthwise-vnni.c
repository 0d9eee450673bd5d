/* depthwise-vnni.c: depthwise convs of any kernel and stride with AVX-512 VNNI: quad rows.
 * Built with -mavx512vnni; called through the dispatch table only.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-vnni.h"

/* Depthwise convs with VNNI.  Four kernel rows at a time: a "quad row" holds, for every
 * padded input column and channel, the four bytes of the input rows oh*sh + 4g .. + 3
 * (biased by +128 when signed, as the dense path does), so one vpdpbusd multiplies four
 * taps of 16 channels at once against weights laid out the same way ([g][kw][c][4], zero
 * below the kernel).  An output pixel of 16 channels costs KW*ceil(KH/4) loads and
 * multiply-adds, and its requantisation (float, falling back to the double rule) is then
 * most of the work.  Each item (n, oh) builds its own quad rows, so nothing is shared
 * between threads and the bytes do not depend on the thread count. */

/* Quad row g of output row oh: [Wp][Cp][4] bytes. */
static void
dw_build_quads (const ConvJob *job, guint n, guint oh, guint g, guint8 *q)
{
  const guint8 *src = job->in->data;
  const guint8 flip = job->in_signed ? 0x80 : 0x00;
  const guint8 *rows[4] = { NULL, NULL, NULL, NULL };
  gboolean fast = job->in->layout == ZG330_KERNEL_LAYOUT_NCHWC && job->in->k == DW_BLK;
  guint cblocks = job->Cp / DW_BLK;

  for (guint k = 0; k < 4; k++)
    {
      guint r = 4 * g + k;
      gint h = (gint) (oh * job->sh + r) - (gint) job->pt;
      if (r < job->KH && h >= 0 && h < (gint) job->H)
        rows[k] = src + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row;
    }
  /* padding columns: the biased zero in every row (rows below the kernel meet zero
   * weights, so any bounded value would do) */
  for (guint wp = 0; wp < job->Wp; wp++)
    if (wp < job->pl || wp >= job->pl + job->W)
      memset (q + (gsize) wp * job->Cp * 4, job->pad_value, (gsize) job->Cp * 4);

  if (fast)
    {
      /* a row outside the input reads 32 zero bytes again and again (stride 0): zero ^ flip
       * is the biased zero */
      static const guint8 zero32[DW_BLK] = { 0 };
      const __m256i fl = _mm256_set1_epi8 ((char) flip);
      const gsize step = (gsize) job->Cp * 4;

      for (guint cb = 0; cb < cblocks; cb++)
        {
          const guint8 *b[4];
          gsize st[4];
          guint8 *qp = q + ((gsize) job->pl * job->Cp + (gsize) cb * DW_BLK) * 4;

          for (guint k = 0; k < 4; k++)
            {
              b[k] = rows[k] != NULL ? rows[k] + job->in_addr.chan[cb * DW_BLK] : zero32;
              st[k] = rows[k] != NULL ? DW_BLK : 0;
            }
          for (guint w = 0; w < job->W; w++, qp += step)
            {
              __m256i x0 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[0] + w * st[0])), fl);
              __m256i x1 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[1] + w * st[1])), fl);
              __m256i x2 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[2] + w * st[2])), fl);
              __m256i x3 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[3] + w * st[3])), fl);
              __m256i ab_lo = _mm256_unpacklo_epi8 (x0, x1);   /* lanes: c 0-7 | 16-23 */
              __m256i ab_hi = _mm256_unpackhi_epi8 (x0, x1);   /*        c 8-15 | 24-31 */
              __m256i cd_lo = _mm256_unpacklo_epi8 (x2, x3);
              __m256i cd_hi = _mm256_unpackhi_epi8 (x2, x3);
              __m256i q0 = _mm256_unpacklo_epi16 (ab_lo, cd_lo);   /* c 0-3 | 16-19 */
              __m256i q1 = _mm256_unpackhi_epi16 (ab_lo, cd_lo);   /* c 4-7 | 20-23 */
              __m256i q2 = _mm256_unpacklo_epi16 (ab_hi, cd_hi);   /* c 8-11 | 24-27 */
              __m256i q3 = _mm256_unpackhi_epi16 (ab_hi, cd_hi);   /* c 12-15 | 28-31 */
              __m256i *d = (__m256i *) qp;
              _mm256_storeu_si256 (d + 0, _mm256_permute2x128_si256 (q0, q1, 0x20));
              _mm256_storeu_si256 (d + 1, _mm256_permute2x128_si256 (q2, q3, 0x20));
              _mm256_storeu_si256 (d + 2, _mm256_permute2x128_si256 (q0, q1, 0x31));
              _mm256_storeu_si256 (d + 3, _mm256_permute2x128_si256 (q2, q3, 0x31));
            }
        }
      return;
    }
  for (guint w = 0; w < job->W; w++)
    {
      guint8 *qp = q + ((gsize) job->pl + w) * job->Cp * 4;
      for (guint c = 0; c < job->Cp; c++)
        for (guint k = 0; k < 4; k++)
          qp[(gsize) c * 4 + k] = rows[k] != NULL && c < job->C
                                  ? (guint8) (rows[k][job->in_addr.chan[c] + (gsize) w * job->in_addr.pix] ^ flip)
                                  : job->pad_value;
    }
}

void
conv_dw_row_vnni (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->OH, oh = item % job->OH;
  guint8 *out = job->out->data;
  gsize row_base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;
  gsize qrow = (gsize) job->Wp * job->Cp * 4;
  guint G = (job->KH + 3) / 4;
  guint8 *q = g_malloc (qrow * G);

  for (guint g = 0; g < G; g++)
    dw_build_quads (job, n, oh, g, q + g * qrow);

  /* channel blocks outside, pixels inside: the block's weights and requantisation figures
   * stay in registers (stores to the output may alias memory, so loads would repeat) */
  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      guint nvalid = MIN (DW_BLK, job->C - cb);
      guint ntap = G * job->KW;
      gboolean held = ntap <= DW_HELD_TAPS;
      __m512i w0[DW_HELD_TAPS], w1[DW_HELD_TAPS];
      const __m512 m0 = _mm512_loadu_ps (job->rq->mulf + cb), m1 = _mm512_loadu_ps (job->rq->mulf + cb + 16);
      const __m512 d0 = _mm512_loadu_ps (job->rq->addf + cb), d1 = _mm512_loadu_ps (job->rq->addf + cb + 16);
      const __m512 e0 = _mm512_loadu_ps (job->rq->errf + cb), e1 = _mm512_loadu_ps (job->rq->errf + cb + 16);
      gsize out_cb = row_base + job->out_addr.chan[cb];

      for (guint t = 0; held && t < ntap; t++)
        {
          const gint8 *ws = job->dw_wq + ((gsize) t * job->Cp + cb) * 4;   /* t = g * KW + s */
          w0[t] = _mm512_loadu_si512 (ws);
          w1[t] = _mm512_loadu_si512 (ws + 64);
        }
      for (guint ow = 0; ow < job->OW; ow++)
        {
          __m512i a0 = _mm512_setzero_si512 (), a1 = _mm512_setzero_si512 ();
          __m128i r0, r1;

          if (G == 1 && job->KW == 3 && held)
            {
              /* 3x3 (and 1..4x3): the three taps by name, so the weights stay in registers */
              const guint8 *xs = q + ((gsize) ow * job->sw * job->Cp + cb) * 4;
              const gsize step = (gsize) job->Cp * 4;
              a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs), w0[0]);
              a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + 64), w1[0]);
              a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs + step), w0[1]);
              a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + step + 64), w1[1]);
              a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs + 2 * step), w0[2]);
              a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + 2 * step + 64), w1[2]);
            }
          else
          for (guint g = 0; g < G; g++)
            {
              const guint8 *xq = q + g * qrow + ((gsize) ow * job->sw * job->Cp + cb) * 4;
              for (guint s = 0; s < job->KW; s++)
                {
                  const guint8 *xs = xq + (gsize) s * job->Cp * 4;
                  guint t = g * job->KW + s;
                  const gint8 *ws = job->dw_wq + ((gsize) t * job->Cp + cb) * 4;
                  a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs), held ? w0[t] : _mm512_loadu_si512 (ws));
                  a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + 64),
                                            held ? w1[t] : _mm512_loadu_si512 (ws + 64));
                }
            }
          if (!vnni_requant16_fast_v (a0, m0, d0, e0, job->lo, job->hi, &r0))
            r0 = vnni_requant16_slot (job, a0, job->dw_corr + cb, cb);
          r1 = _mm_setzero_si128 ();
          if (nvalid > 16 && !vnni_requant16_fast_v (a1, m1, d1, e1, job->lo, job->hi, &r1))
            r1 = vnni_requant16_slot (job, a1, job->dw_corr + cb + 16, cb + 16);
          if (job->out_block_fast && nvalid == DW_BLK)
            _mm256_storeu_si256 ((__m256i *) (out + out_cb + (gsize) ow * job->out_addr.pix),
                                 _mm256_inserti128_si256 (_mm256_castsi128_si256 (r0), r1, 1));
          else
            {
              guint8 res[DW_BLK];
              _mm_storeu_si128 ((__m128i *) res, r0);
              _mm_storeu_si128 ((__m128i *) (res + 16), r1);
              for (guint j = 0; j < nvalid; j++)
                out[row_base + job->out_addr.chan[cb + j] + (gsize) ow * job->out_addr.pix] = res[j];
            }
        }
    }
  g_free (q);
}
