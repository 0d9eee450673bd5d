/* depthwise-avx2.c: depthwise convs with AVX2 and FMA: pair rows (README.md).
 * Built with -mavx2 -mfma; called through the dispatch table only.
 */
#include "kernels/kernels-private.h"
#include "kernels/kernels-avx2.h"

/* Depthwise convs with AVX2 (and FMA): pair rows.  Each padded input row of a 32-channel
 * block is widened once into a "pair row": at every input column x where a kernel pair
 * can start (every column, or every even one when the horizontal stride is even), the
 * biased bytes of columns x and x+1 as int16 pairs, 8 channels per 32 bytes
 * ([chunk 4][entry][8][2]; dw_pair_row).  An output pixel of 8 channels is then
 * KH * ceil (KW / 2) vpmaddwd of pair-row entries against the weights widened the same way
 * (taps 2j and 2j+1 of a kernel row, an odd last tap paired with a zero; dw_pairs_pack),
 * exact in int32.  The widening is in-lane byte interleaves only (a cross-lane widening
 * costs four times as much here), so chunk k holds channels 4k .. 4k+3 and 16+4k ..
 * 16+4k+3 of the block ("slot" 8k + i; dw_slot_channel), the weights and the bracket's
 * figures are laid out by slot, and the saturating packs of the four chunks give the 32
 * bytes back in channel order.  An item runs a band of output rows with its pair rows in
 * a ring of KH rows, so at vertical stride 1 an input row is widened once for the KH
 * output rows that read it.  Per output row and chunk, two passes over the pixels: the
 * sums (dw_pairs_sums, the weights held in registers) into a small buffer, then their
 * requantisation (dw_pairs_requant, the figures held).  Apart, each loop's chains overlap
 * in the core's scheduler; together, the long requantisation chain held back the next
 * pixel's sums (A/B on 96 ch s2: 22 -> 24 % of the core peak).  Chunks 0-2 leave the
 * row's requantised int32 in a buffer and chunk 3 packs each pixel's four chunks into its
 * 32 bytes as it goes (through the buffer too where the output block is not contiguous).
 * The bracket is requant_slot_bounds' (an fma, both ends rounded to nearest; see
 * dw_pairs_requant); a lane whose ends differ takes the double rule, from the same sums.
 * Every output byte is the same expression whatever the band or the thread. */

/* The biased bytes of padded column @x of input row @row (NULL: a padding row), channels
 * @cb .. (at @src when the block is contiguous in memory, else NULL), the biased zero past
 * the input and its channels. */
static inline __attribute__ ((always_inline)) __m256i
dw_pair_column (const ConvJob *job, const guint8 *row, const guint8 *src, guint x, guint cb, __m256i fl)
{
  guint8 b[DW_BLK];
  const guint nvalid = MIN (DW_BLK, job->C - cb);
  const guint8 flip = job->in_signed ? 0x80 : 0x00;

  if (row == NULL || x < job->pl || x - job->pl >= job->W)
    return _mm256_set1_epi8 ((char) job->pad_value);
  if (src != NULL)
    return _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (src + (gsize) (x - job->pl) * job->in_addr.pix)),
                             fl);
  memset (b, job->pad_value, DW_BLK);
  for (guint j = 0; j < nvalid; j++)
    b[j] = (guint8) (row[job->in_addr.chan[cb + j] + (gsize) (x - job->pl) * job->in_addr.pix] ^ flip);
  return _mm256_loadu_si256 ((const __m256i *) b);
}

/* Pair-row entry @d (chunks @cs int16 apart) of columns @a and @b. */
static inline __attribute__ ((always_inline)) void
dw_pair_entry (gint16 *d, gsize cs, __m256i a, __m256i b)
{
  const __m256i zero = _mm256_setzero_si256 ();
  const __m256i lo = _mm256_unpacklo_epi8 (a, b);   /* lanes: channels 0-7 | 16-23 */
  const __m256i hi = _mm256_unpackhi_epi8 (a, b);   /*        8-15 | 24-31 */

  _mm256_storeu_si256 ((__m256i *) d, _mm256_unpacklo_epi8 (lo, zero));                /* 0-3 | 16-19 */
  _mm256_storeu_si256 ((__m256i *) (d + cs), _mm256_unpackhi_epi8 (lo, zero));         /* 4-7 | 20-23 */
  _mm256_storeu_si256 ((__m256i *) (d + 2 * cs), _mm256_unpacklo_epi8 (hi, zero));     /* 8-11 | 24-27 */
  _mm256_storeu_si256 ((__m256i *) (d + 3 * cs), _mm256_unpackhi_epi8 (hi, zero));     /* 12-15 | 28-31 */
}

/* Pair row of padded input row @hp (image @n, channels @cb ..) into @h; @run: the block's
 * channels are contiguous in memory (channel_run), so a row's columns load directly.  The
 * bounds come from dw_pairs_geometry, once per item: a narrow row (14 pixels) spent about
 * 40 % of its widening on its set-up and its edges when each row worked them out.  Out
 * of line, as dw_pairs_sums_any: inlined, the passes ran about 1 point of the peak slower
 * (A/B, 8 rounds each way). */
static __attribute__ ((noinline)) void
dw_pair_row (const ConvJob *job, const DwPairs *g, guint n, guint hp, guint cb, gboolean run, gint16 *h)
{
  const gint ih = (gint) hp - (gint) job->pt;
  const gsize cs = (gsize) g->nent * 16;   /* int16 per chunk */
  const __m256i fl = _mm256_set1_epi8 ((char) (job->in_signed ? 0x80 : 0x00));

  if (ih < 0 || ih >= (gint) job->H)
    {
      /* a padding row: every int16 is the pad byte */
      const __m256i pv = _mm256_set1_epi16 ((short) job->pad_value);
      for (gsize i = 0; i < 4 * cs; i += 16)
        _mm256_storeu_si256 ((__m256i *) (h + i), pv);
      return;
    }

  const guint8 *row = job->in->data + (gsize) n * job->in_addr.batch + (gsize) ih * job->in_addr.row;
  if (!run)
    {
      for (guint i = 0; i < g->nent; i++)
        dw_pair_entry (h + (gsize) i * 16, cs, dw_pair_column (job, row, NULL, i * g->hstep, cb, fl),
                       dw_pair_column (job, row, NULL, i * g->hstep + 1, cb, fl));
      return;
    }

  /* the entries whose columns both lie inside the input (i0 .. i1) load directly */
  const guint8 *src = row + job->in_addr.chan[cb];
  const gsize pix = job->in_addr.pix, step = (gsize) g->hstep * pix;
  const guint i0 = g->i0, i1 = g->i1;

  for (guint i = 0; i < i0; i++)
    dw_pair_entry (h + (gsize) i * 16, cs, dw_pair_column (job, row, src, i * g->hstep, cb, fl),
                   dw_pair_column (job, row, src, i * g->hstep + 1, cb, fl));
  if (i0 < i1)
    {
      const guint8 *s = src + (gsize) (i0 * g->hstep - job->pl) * pix;
      gint16 *d = h + (gsize) i0 * 16;
      if (job->in_signed)
        for (guint i = i0; i < i1; i++, s += step, d += 16)
          dw_pair_entry (d, cs, _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) s), fl),
                         _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (s + pix)), fl));
      else
        for (guint i = i0; i < i1; i++, s += step, d += 16)
          dw_pair_entry (d, cs, _mm256_loadu_si256 ((const __m256i *) s),
                         _mm256_loadu_si256 ((const __m256i *) (s + pix)));
    }
  for (guint i = MAX (i0, i1); i < g->nent; i++)
    dw_pair_entry (h + (gsize) i * 16, cs, dw_pair_column (job, row, src, i * g->hstep, cb, fl),
                   dw_pair_column (job, row, src, i * g->hstep + 1, cb, fl));
}

/* The 32 bytes of a pixel (at @o) from its chunks 0-2's requantised int32 at @r and chunk
 * 3's in @r3: the saturating packs clamp to the rails (@sgn: int8, else uint8) and leave
 * the bytes in channel order. */
static inline __attribute__ ((always_inline)) void
dw_pack_pixel (const gint32 *r, __m256i r3, guint8 *o, gboolean sgn)
{
  const __m256i p01 = _mm256_packs_epi32 (_mm256_loadu_si256 ((const __m256i *) r),
                                          _mm256_loadu_si256 ((const __m256i *) (r + 8)));
  const __m256i p23 = _mm256_packs_epi32 (_mm256_loadu_si256 ((const __m256i *) (r + 16)), r3);

  _mm256_storeu_si256 ((__m256i *) o, sgn ? _mm256_packs_epi16 (p01, p23) : _mm256_packus_epi16 (p01, p23));
}

/* One output row of chunk @k of block @cb: the pair rows @rows (kernel row r at rows[r] +
 * @off), requantised into @r32 (pixel p at + 32 p) by the bracket (avx2_bracket_v's).
 * Fast (@EXACT FALSE; every slot of the chunk with a bound): the ends converted by
 * vcvtps2dq (round to nearest even, FP_ENV_GUARD's; a bounded lane's |lo|, |hi| < 2^22,
 * so the conversion is exact) and compared as integers, with no test per pixel;
 * FALSE when some lane's ends differ, and the caller runs the row again with @EXACT,
 * which tests each pixel and gives the lanes whose ends differ (every lane of a slot
 * without a bound: d = +inf) the double rule.  KH, KP, ES and EJ are constants where the
 * caller names them, so the loops unroll and the weights stay in registers.  With @PACK
 * (chunk 3, @r32 at the pixel's + 24), each pixel's bytes go to @ob + its offset, packed
 * with chunks 0-2's int32 already in @r32 (the fast form then leaves nothing in @r32). */
/* The int32 sums of one output row of chunk @k of block @cb into @acc (pixel p at + 8 p):
 * per pixel KH * KP vpmaddwd of the pair rows' entries (kernel row r at rows[r] + @off)
 * against the pair weights, held in registers across the row where they fit.  KH, KP, ES
 * and EJ are constants where the caller names them, so the loops unroll. */
static inline __attribute__ ((always_inline)) void
dw_pairs_sums (const ConvJob *job, const gint16 *const *rows, guint nr, gsize off, guint cb, guint k, gint32 *acc,
               const guint KH, const guint KP, const guint ES, const guint EJ)
{
  const guint ntp = KH * KP, OW = job->OW;
  const gboolean held = ntp <= DW_HELD_PAIRS;
  const gint16 *wt = job->dw_w16 + (gsize) (cb + 8 * k) * 2;
  const gsize wstep = (gsize) job->Cp * 2;
  __m256i w[DW_HELD_PAIRS];
  const gint16 *rpa[DW_HELD_PAIRS];   /* the rows' pointers, local: the stores cannot alias them */

  if (held)
    {
#pragma GCC unroll 9
      for (guint t = 0; t < ntp; t++)
        w[t] = _mm256_loadu_si256 ((const __m256i *) (wt + t * wstep));
    }
  for (guint i = 0; i < nr; i++, acc += (gsize) OW * 8)
    {
      if (held)
        {
#pragma GCC unroll 9
          for (guint kr = 0; kr < KH; kr++)
            rpa[kr] = rows[i * KH + kr] + off;
        }
#pragma GCC unroll 2
      for (guint ow = 0; ow < OW; ow++)
        {
          __m256i a = _mm256_setzero_si256 ();
#pragma GCC unroll 9
          for (guint kr = 0; kr < KH; kr++)
            {
              const gint16 *e = (held ? rpa[kr] : rows[i * KH + kr] + off) + (gsize) ow * ES * 16;
#pragma GCC unroll 9
              for (guint j = 0; j < KP; j++)
                {
                  const guint t = kr * KP + j;
                  const __m256i wv = held ? w[t] : _mm256_loadu_si256 ((const __m256i *) (wt + t * wstep));
                  a = _mm256_add_epi32 (a, _mm256_madd_epi16 (_mm256_loadu_si256 ((const __m256i *) (e + j * EJ * 16)),
                                                              wv));
                }
            }
          _mm256_store_si256 ((__m256i *) (acc + (gsize) ow * 8), a);
        }
    }
}

/* dw_pairs_sums with the kernel named where it is 3x3 at horizontal stride 1 or 2. */
static __attribute__ ((noinline)) void
dw_pairs_sums_any (const ConvJob *job, const DwPairs *g, const gint16 *const *rows, guint nr, gsize off, guint cb,
                   guint k, gint32 *acc)
{
  if (job->KH == 3 && job->KW == 3 && job->sw == 1)
    dw_pairs_sums (job, rows, nr, off, cb, k, acc, 3, 2, 1, 2);
  else if (job->KH == 3 && job->KW == 3 && job->sw == 2)
    dw_pairs_sums (job, rows, nr, off, cb, k, acc, 3, 2, 1, 1);
  else
    dw_pairs_sums (job, rows, nr, off, cb, k, acc, job->KH, g->kp, g->es, g->ej);
}

/* One output row of chunk @k of block @cb: its sums @acc requantised into @r32 (pixel p
 * at + 32 p) by the bracket (avx2_bracket_v's).  Fast (@EXACT FALSE; every slot of the
 * chunk with a bound): the ends converted by vcvtps2dq (round to nearest even,
 * FP_ENV_GUARD's; a bounded lane's |lo|, |hi| < 2^22, so the conversion is exact) and
 * compared as integers, with no test per pixel; FALSE when some lane's ends differ, and
 * the caller runs the row's requantisation again with @EXACT (from the same sums), which
 * tests each pixel and gives the lanes whose ends differ (every lane of a slot without a
 * bound: d = +inf) the double rule.  With @ob (chunk 3, @r32 at the pixel's + 24), each
 * pixel's bytes go to @ob + its offset, packed with chunks 0-2's int32 already in @r32
 * (the fast form then leaves nothing in @r32). */
static inline __attribute__ ((always_inline)) gboolean
dw_pairs_requant (const ConvJob *job, const gint32 *acc, guint np, guint cb, guint k, gint32 *r32, guint8 *ob,
                  const gboolean EXACT, const gboolean PACK)
{
  const guint OW = np, s0 = cb + 8 * k;
  const gboolean sgn = job->lo < 0;
  const __m256 m = _mm256_loadu_ps (job->dw_fig + s0), alo = _mm256_loadu_ps (job->dw_fig + job->Cp + s0);
  const __m256 d = _mm256_loadu_ps (job->dw_fig + 2 * (gsize) job->Cp + s0);
  __m256i differ = _mm256_setzero_si256 ();

#pragma GCC unroll 2
  for (guint ow = 0; ow < OW; ow++)
    {
      const __m256i a = _mm256_load_si256 ((const __m256i *) (acc + (gsize) ow * 8));
      __m256i rl;
      if (!EXACT)
        {
          const __m256 lo = _mm256_fmadd_ps (_mm256_cvtepi32_ps (a), m, alo);
          const __m256i rh = _mm256_cvtps_epi32 (_mm256_add_ps (lo, d));
          rl = _mm256_cvtps_epi32 (lo);
          differ = _mm256_or_si256 (differ, _mm256_xor_si256 (rl, rh));
        }
      else
        {
          guint bad;
          rl = avx2_bracket_v (a, m, alo, d, &bad);
          if (bad != 0)
            {
              gint32 r[8], av[8];
              _mm256_storeu_si256 ((__m256i *) r, rl);
              _mm256_storeu_si256 ((__m256i *) av, a);
              for (; bad != 0; bad &= bad - 1)
                {
                  const guint l = (guint) __builtin_ctz (bad), c = cb + dw_slot_channel (8 * k + l);
                  r[l] = requant_value (av[l], job->dw_corr[c], job->rq->mul[c], job->rq->add[c], job->lo, job->hi);
                }
              rl = _mm256_loadu_si256 ((const __m256i *) r);
            }
        }
      if (PACK)
        dw_pack_pixel (r32 + (gsize) ow * DW_BLK - 24, rl, ob + ow * job->out_addr.pix, sgn);
      else
        _mm256_storeu_si256 ((__m256i *) (r32 + (gsize) ow * DW_BLK), rl);
    }
  return _mm256_testz_si256 (differ, differ);
}

/* dw_pairs_requant fast (TRUE when every lane's ends agreed), packing where @ob. */
static gboolean
dw_pairs_requant_fast (const ConvJob *job, const gint32 *acc, guint np, guint cb, guint k, gint32 *r32, guint8 *ob)
{
  return ob != NULL ? dw_pairs_requant (job, acc, np, cb, k, r32, ob, FALSE, TRUE)
                    : dw_pairs_requant (job, acc, np, cb, k, r32, NULL, FALSE, FALSE);
}

/* dw_pairs_requant exact, for the rows the fast form could not take (out of line: the
 * fast loop keeps its registers). */
static __attribute__ ((noinline)) void
dw_pairs_requant_exact (const ConvJob *job, const gint32 *acc, guint np, guint cb, guint k, gint32 *r32, guint8 *ob)
{
  if (ob != NULL)
    dw_pairs_requant (job, acc, np, cb, k, r32, ob, TRUE, TRUE);
  else
    dw_pairs_requant (job, acc, np, cb, k, r32, NULL, TRUE, FALSE);
}

void
conv_dw_pairs (gpointer data, guint item)
{
  const ConvJob *job = data;
  DwPairs g;
  dw_pairs_geometry (job, &g);
  const guint n = item / g.nbands, oh0 = item % g.nbands * g.band, oh1 = MIN (job->OH, oh0 + g.band);
  const gsize hsize = (gsize) 4 * g.nent * 16, cs = (gsize) g.nent * 16, pix = job->out_addr.pix;
  const gboolean sgn = job->lo < 0;
  /* narrow rows run several to a pass, so a pass's loops see about DW_PASS_PIXELS pixels */
  const guint R = MAX (1u, MIN (g.band, DW_PASS_PIXELS / job->OW));
  const guint NR = (R - 1) * job->sh + job->KH;   /* pair rows a pass reads */
  guint8 *const out = job->out->data;
  /* the ring of pair rows, the requantised int32 (every chunk writes its lanes of a pixel
   * before the pack reads them) and a chunk's sums, each 64-byte aligned: every 32-byte entry and pixel then lies inside
   * one cache line */
  const gsize ring_b = (hsize * NR * sizeof (gint16) + 63) & ~(gsize) 63;
  const gsize r32_b = ((gsize) R * job->OW * DW_BLK * sizeof (gint32) + 63) & ~(gsize) 63;
  const gsize acc_b = (gsize) R * job->OW * 8 * sizeof (gint32);
  gboolean own;
  guint8 *scratch = dw_scratch_get (ring_b + r32_b + acc_b, &own);
  gint16 *ring = (gint16 *) scratch;
  gint32 *r32 = (gint32 *) (scratch + ring_b);
  gint32 *acc = (gint32 *) (scratch + ring_b + r32_b);
  gint64 tag_local[16];
  const gint16 *rows_local[64];
  g_autofree gint64 *tag_heap = NR > G_N_ELEMENTS (tag_local) ? g_new (gint64, NR) : NULL;
  g_autofree const gint16 **rows_heap = (gsize) R * job->KH > G_N_ELEMENTS (rows_local)
                                        ? g_new (const gint16 *, (gsize) R * job->KH) : NULL;
  gint64 *tag = tag_heap != NULL ? tag_heap : tag_local;
  const gint16 **rows = rows_heap != NULL ? rows_heap : rows_local;
  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      const guint nvalid = MIN (DW_BLK, job->C - cb);
      const gboolean fast = job->out_block_fast && nvalid == DW_BLK;
      const gboolean run = nvalid == DW_BLK && channel_run (job->in, cb) >= DW_BLK;
      guint base = (oh0 * job->sh) % NR;   /* the ring slot of a pass's first pair row */

      for (guint s = 0; s < NR; s++)
        tag[s] = -1;
      for (guint oh = oh0; oh < oh1; oh += R)
        {
          const guint nr = MIN (R, oh1 - oh), np = nr * job->OW;
          const gsize row_base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;

          /* pair row hp = oh * sh + d sits in slot hp % NR: base + d, less NR past the end */
          for (guint i = 0; i < nr; i++)
            for (guint kr = 0; kr < job->KH; kr++)
              {
                const guint d = i * job->sh + kr, hp = oh * job->sh + d;
                const guint slot = base + d >= NR ? base + d - NR : base + d;
                if (tag[slot] != (gint64) hp)
                  {
                    dw_pair_row (job, &g, n, hp, cb, run, ring + slot * hsize);
                    tag[slot] = hp;
                  }
                rows[i * job->KH + kr] = ring + slot * hsize;
              }
          base += R * job->sh;
          while (base >= NR)
            base -= NR;
          /* with a whole block contiguous in the output (its rows too), chunk 3 packs each
           * pixel's four chunks into its bytes as it goes (dw_pack_pixel); else they go
           * through res */
          for (guint k = 0; k < 4; k++)
            {
              guint8 *const ob = fast && k == 3 ? out + row_base + job->out_addr.chan[cb] : NULL;
              dw_pairs_sums_any (job, &g, rows, nr, k * cs, cb, k, acc);
              if (G_UNLIKELY (!job->dw_bounded8[cb / 8 + k]
                              || !dw_pairs_requant_fast (job, acc, np, cb, k, r32 + 8 * k, ob)))
                dw_pairs_requant_exact (job, acc, np, cb, k, r32 + 8 * k, ob);
            }
          for (guint p = 0; !fast && p < np; p++)
            {
              const gint32 *rp = r32 + (gsize) p * DW_BLK;
              const gsize ob = row_base + (gsize) (p / job->OW) * job->out_addr.row + (gsize) (p % job->OW) * pix;
              guint8 res[DW_BLK];
              dw_pack_pixel (rp, _mm256_loadu_si256 ((const __m256i *) (rp + 24)), res, sgn);
              for (guint l = 0; l < nvalid; l++)
                out[ob + job->out_addr.chan[cb + l]] = res[l];
            }
        }
    }
  if (own)
    g_aligned_free (scratch);
}
