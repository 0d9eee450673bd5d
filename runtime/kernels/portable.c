/* portable.c: the portable loops (conv's dense tile and padded input rows, the plain
 * depthwise row, max pooling's rows), built twice: plain, and with AVX2 code generation for
 * the machines that have it (meson.build; the names carry the build's suffix, PORTABLE ()).
 * The dispatch table takes the AVX2 build wherever the CPU has AVX2, at every level.
 */
#include "kernels/kernels-private.h"

#ifndef PORTABLE_SUFFIX
#error "portable.c is built with -DPORTABLE_SUFFIX=_plain or _avx2 (meson.build)"
#endif
#define PORTABLE_PASTE(a, b) a##b
#define PORTABLE_NAME(a, b) PORTABLE_PASTE (a, b)
#define PORTABLE(name) PORTABLE_NAME (name, PORTABLE_SUFFIX)

/* d = s ^ flip bytewise, eight bytes at a time (a variable-length byte loop is not
 * vectorised at -O2 and this runs once per input byte). */
static inline void
xor_copy (guint8 *d, const guint8 *s, gsize n, guint8 flip)
{
  guint64 f = flip * G_GUINT64_CONSTANT (0x0101010101010101);
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 v;
      memcpy (&v, s + i, 8);
      v ^= f;
      memcpy (d + i, &v, 8);
    }
  for (; i < n; i++)
    d[i] = s[i] ^ flip;
}

/* One NCHWc32 block's 32 bytes as one vector (GCC and clang vector extensions: two SSE2
 * registers on the baseline, one AVX2 register in the AVX2 build). */
typedef guint8 XorBlock __attribute__ ((vector_size (32)));

static inline void
xor_copy32 (guint8 *d, const guint8 *s, guint8 flip)
{
  XorBlock v;

  memcpy (&v, s, 32);
  v ^= flip;
  memcpy (d, &v, 32);
}

/* Padded row @hp of image @n into @out (packed groups expanded: block B's plane at @out +
 * B * @plane). */
void
PORTABLE (conv_pack_row) (const ConvJob *job, guint n, guint hp, guint8 *out, gsize plane)
{
  const gboolean expanded = job->expanded;
  gsize ipad = expanded ? (gsize) job->groups * job->Ip : job->ipad;
  /* packed groups: the [g][Ip] row first, then its expansion (the row has room for the
   * 128-byte loads of its last pixel) */
  g_autofree guint8 *row = expanded ? g_malloc ((gsize) job->Wp * ipad + 128) : NULL;
  guint8 *dst = row != NULL ? row : out;
  const guint8 *src = job->in->data;
  guint8 flip = job->in_signed ? 0x80 : 0x00;
  gint h = (gint) hp - (gint) job->pt;

  if (h < 0 || h >= (gint) job->H)
    {
      memset (dst, job->pad_value, (gsize) job->Wp * ipad + (row != NULL ? 128 : 0));
      if (row != NULL)
        job->isa->conv_expand_groups (job, row, out, plane);
      return;
    }
  /* One fill covers the left/right padding and the channel padding of every pixel;
   * without channel padding only the padding columns need it. */
  if (ipad > job->C || row != NULL)
    memset (dst, job->pad_value, (gsize) job->Wp * ipad + (row != NULL ? 128 : 0));
  else if (job->Wp > job->W)
    {
      memset (dst, job->pad_value, (gsize) job->pl * ipad);
      memset (dst + (gsize) (job->pl + job->W) * ipad, job->pad_value, (gsize) (job->Wp - job->pl - job->W) * ipad);
    }

  src += (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row;
  for (guint c = 0; c < job->C;)
    {
      /* a run stops at the end of its group when the next group starts further on (at a
       * multiple of Ip > I); with Ip = I the padded copy keeps the channels in order */
      guint run = channel_run (job->in, c);
      if (job->Ip != job->I)
        run = MIN (run, job->I - c % job->I);
      const guint8 *s = src + job->in_addr.chan[c];
      guint8 *d = dst + (gsize) job->pl * ipad + (gsize) (c / job->I) * job->Ip + c % job->I;
      if (run == OBLK)   /* an NCHWc32 block: a fixed length, copied in four words */
        for (guint w = 0; w < job->W; w++, s += job->in_addr.pix, d += ipad)
          xor_copy32 (d, s, flip);
      else
        for (guint w = 0; w < job->W; w++, s += job->in_addr.pix, d += ipad)
          xor_copy (d, s, run, flip);
      c += run;
    }
  if (row != NULL)
    job->isa->conv_expand_groups (job, row, out, plane);
}

void
PORTABLE (tile_generic) (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
              guint8 *res)
{
  gint32 acc[TILE_MAX * OBLK];
  const TileSteps st = tile_steps (job);

  memset (acc, 0, sizeof acc);
  for (guint r = 0; r < job->KH; r++)
    for (guint s = 0; s < job->KW; s++)
      {
        const guint8 *xt = x + r * st.row + s * st.ipad;
        const gint8 *wt = w + ((gsize) r * job->KW + s) * job->nq * 4 * OBLK;
        for (guint t = 0; t < T; t++)
          {
            const guint8 *xp = xt + t * st.pix;
            gint32 *a = acc + t * OBLK;
            /* Weights here are [tap][i][o 32]: the o loop has a fixed trip count and
             * contiguous operands, so compilers vectorise it even at -O2. */
            for (guint i = 0; i < job->I; i++)
              {
                const gint8 *wi = wt + (gsize) i * OBLK;
                gint32 xi = xp[i];
                for (guint o = 0; o < OBLK; o++)
                  a[o] += xi * wi[o];
              }
          }
      }
  requant_tile_c (acc, T, job->corr + ob * OBLK, job->rq->mul + ob * OBLK, job->rq->add + ob * OBLK,
                  job->lo, job->hi, res);
}

void
PORTABLE (conv_dw_row) (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->OH, oh = item % job->OH;
  guint8 *out = job->out->data;
  gsize row_base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;

  for (guint ow = 0; ow < job->OW; ow++)
    for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
      {
        gint32 acc[DW_BLK] = { 0 };
        guint nvalid = MIN (DW_BLK, job->C - cb);

        for (guint r = 0; r < job->KH; r++)
          {
            const gint16 *xr = job->xs + (((gsize) n * job->Hp + (gsize) oh * job->sh + r) * job->Wp
                                          + (gsize) ow * job->sw) * job->Cp + cb;
            const gint16 *wr = job->ws + (gsize) r * job->KW * job->Cp + cb;
            for (guint s = 0; s < job->KW; s++)
              {
                const gint16 *xp = xr + (gsize) s * job->Cp, *wp = wr + (gsize) s * job->Cp;
                for (guint j = 0; j < DW_BLK; j++)
                  acc[j] += (gint32) xp[j] * (gint32) wp[j];
              }
          }
        for (guint j = 0; j < nvalid; j++)
          {
            guint o = cb + j;
            double v = (double) acc[j] * job->rq->mul[o];
            v = v + job->rq->add[o];
            out[row_base + job->out_addr.chan[o] + (gsize) ow * job->out_addr.pix]
                = (guint8) round_clamp (v, job->lo, job->hi);
          }
      }
}
/* One output row of one channel block: the window's max over 32 bytes at a time (a fixed
 * trip count the compiler vectorises), then the requantisation table per channel. */
void
PORTABLE (pool_row_blocks) (gpointer data, guint item)
{
  const PoolJob *job = data;
  const Zg330KernelTensor *in = job->in, *out = job->out;
  const Zg330PoolParams *pp = job->params;
  guint cbs = n_blocks (out);
  guint oh = item % out->h, cb = (item / out->h) % cbs, n = item / out->h / cbs;
  gboolean sgn = in->dtype == ZG330_KERNEL_DTYPE_SINT8;
  guint nvalid = MIN (POOL_BLK, in->c - cb * POOL_BLK);
  gint h0 = (gint) (oh * pp->stride_h) - (gint) pp->pad_top;
  gint h1 = MIN (h0 + (gint) pp->kernel_h, (gint) in->h);
  const guint8 *src = (const guint8 *) in->data + n * job->ai->batch + job->ai->chan[cb * POOL_BLK];
  guint8 *dst = (guint8 *) out->data + n * job->ao->batch + job->ao->chan[cb * POOL_BLK] + oh * job->ao->row;

  h0 = MAX (h0, 0);
  for (guint ow = 0; ow < out->w; ow++)
    {
      gint w0 = (gint) (ow * pp->stride_w) - (gint) pp->pad_left;
      gint w1 = MIN (w0 + (gint) pp->kernel_w, (gint) in->w);
      guint8 best[POOL_BLK];
      guint8 *d = dst + (gsize) ow * POOL_BLK;

      w0 = MAX (w0, 0);
      memcpy (best, src + h0 * job->ai->row + w0 * POOL_BLK, POOL_BLK);
      for (gint h = h0; h < h1; h++)
        for (gint w = w0; w < w1; w++)
          {
            const guint8 *p = src + h * job->ai->row + w * POOL_BLK;
            if (sgn)
              for (guint k = 0; k < POOL_BLK; k++)
                best[k] = (guint8) MAX ((gint8) best[k], (gint8) p[k]);
            else
              for (guint k = 0; k < POOL_BLK; k++)
                best[k] = MAX (best[k], p[k]);
          }
      if (job->rq->identity)
        memcpy (d, best, nvalid);
      else
        for (guint k = 0; k < nvalid; k++)
          d[k] = requant_table (job->rq, cb * POOL_BLK + k)[best[k]];
    }
}
