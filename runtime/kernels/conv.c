/* conv.c: the conv driver: checks, the job's geometry and ISA, the bands of output rows
 * (each with its padded input copy), the tiles' stores, and zg330_conv_infer_geometry().
 */
#include "kernels/kernels-private.h"

static void
conv_store (const ConvJob *job, guint n, guint ob, guint oh, guint ow0, guint T,
            const guint8 *res)
{
  guint8 *out = job->out->data;
  gsize base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;
  gint64 o0 = res_channel (job, ob, 0);
  gboolean contiguous = o0 >= 0 && o0 % OBLK == 0 && res_channel (job, ob, OBLK - 1) == o0 + OBLK - 1
                        && (job->NG == 0 || job->Og == job->Ogp);

  if (job->out_block_fast && contiguous)
    {
      memcpy (out + base + job->out_addr.chan[o0] + (gsize) ow0 * OBLK, res,
              (gsize) T * OBLK);
      return;
    }
  for (guint j = 0; j < OBLK; j++)
    {
      gint64 o = res_channel (job, ob, j);
      if (o < 0)
        continue;
      for (guint t = 0; t < T; t++)
        out[base + (gsize) (ow0 + t) * job->out_addr.pix + job->out_addr.chan[o]] = res[t * OBLK + j];
    }
}

/* Output row @oh of block @ob of image @n, its padded input rows from @xrow. */
static void
conv_row (const ConvJob *job, guint n, guint ob, guint oh, const guint8 *xrow)
{
  const gsize ipad = job->ipad;
  const gint8 *w = job->wpack + ob * job->wblock;
  const guint tmax = job->NG > 2 ? TILE_EXPANDED : TILE_MAX;
  guint8 res[TILE_MAX * OBLK];

  for (guint ow0 = 0; ow0 < job->OW; ow0 += tmax)
    {
      guint T = MIN (tmax, job->OW - ow0);
      job->tile (job, xrow + (gsize) ow0 * job->sw * ipad, w, ob, T, res);
      conv_store (job, n, ob, oh, ow0, T, res);
    }
}

/* One band of job->band_rows output rows of one image: the padded copy of just the
 * input rows it reads (in a buffer of its own, so a core reads the rows it wrote, in its
 * own caches), then every output block's rows. */
static void
conv_band (gpointer data, guint item)
{
  ConvJob *job = data;
  const guint n = item / job->bands, oh0 = (item % job->bands) * job->band_rows;
  const guint oh1 = MIN (job->OH, oh0 + job->band_rows);
  const guint hp0 = oh0 * job->sh, hp1 = MIN (job->Hp, (oh1 - 1) * job->sh + job->KH);
  const gsize row_bytes = (gsize) job->Wp * job->ipad, plane = (gsize) (hp1 - hp0) * row_bytes;
  const gsize bytes = (gsize) job->nplanes * plane;
  /* PIN_SLACK bytes past the end: the last block of packed groups reads its missing
   * groups' bytes (a pair's second group, a broadcast half's last groups: at most 128
   * bytes) from past the last pixel, against zero weights */
  guint8 *buf = g_aligned_alloc (bytes + PIN_SLACK, 1, 64);   /* rows and blocks on whole lines */

  memset (buf + bytes, job->pad_value, PIN_SLACK);
  for (guint hp = hp0; hp < hp1; hp++)
    job->isa->conv_pack_row (job, n, hp, buf + (gsize) (hp - hp0) * row_bytes, plane);
  for (guint ob = 0; ob < job->nb; ob++)
    for (guint oh = oh0; oh < oh1; oh++)
      conv_row (job, n, ob, oh,
                buf + (job->expanded ? (gsize) ob * plane : (gsize) block_first_group (job, ob) * job->Ip)
                  + (gsize) (oh * job->sh - hp0) * row_bytes);
  g_aligned_free (buf);
}
static gboolean
conv_check (const Zg330KernelTensor *in, const Zg330KernelWeights *wt,
            const Zg330ConvParams *p, const Zg330KernelTensor *out, guint *groups,
            GError **error)
{
  guint O, I;
  gsize need;

  if (!tensor_check (in, "conv2d", "input", TRUE, error)
      || !tensor_check (out, "conv2d", "output", TRUE, error))
    return FALSE;
  if (wt->ob == 0 || wt->ib == 0 || wt->kh == 0 || wt->kw == 0 || wt->ko == 0 || wt->ki == 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight shape [%u, %u, %u, %u, %u, %u] has a zero dimension",
                   wt->ob, wt->ib, wt->kh, wt->kw, wt->ko, wt->ki);
      return FALSE;
    }
  if ((guint64) wt->ob * wt->ko > G_MAXUINT / 2 || (guint64) wt->ib * wt->ki > G_MAXUINT / 2
      || (guint64) wt->kh * wt->kw > 1u << 20)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight shape [%u, %u, %u, %u, %u, %u] is too large",
                   wt->ob, wt->ib, wt->kh, wt->kw, wt->ko, wt->ki);
      return FALSE;
    }
  O = wt->ob * wt->ko;
  I = wt->ib * wt->ki;
  need = (gsize) O * I * wt->kh * wt->kw;
  if (wt->data == NULL || wt->size < need)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight buffer holds %" G_GSIZE_FORMAT " bytes, shape "
                   "[%u, %u, %u, %u, %u, %u] needs %" G_GSIZE_FORMAT,
                   wt->data ? wt->size : 0, wt->ob, wt->ib, wt->kh, wt->kw, wt->ko, wt->ki, need);
      return FALSE;
    }
  if (wt->scales == NULL)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight scales are missing (need O=%u)", O);
      return FALSE;
    }
  gssize bad_scale = first_bad_scale (wt->scales, O);
  if (bad_scale >= 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight scale[%u] = %g is not a positive finite number",
                   (guint) bad_scale, (double) wt->scales[bad_scale]);
      return FALSE;
    }
  if (wt->bias != NULL)
    {
      if (wt->bias_size < (gsize) O * 2)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                       "conv2d: bias holds %" G_GSIZE_FORMAT " bytes, O=%u fp16 need %u",
                       wt->bias_size, O, O * 2);
          return FALSE;
        }
      for (guint o = 0; o < O; o++)
        if ((wt->bias[2 * o + 1] & 0x7C) == 0x7C)   /* fp16 exponent all ones: inf or NaN */
          {
            g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                         "conv2d: bias[%u] is not finite", o);
            return FALSE;
          }
    }
  if (in->scales != NULL)
    for (guint c = 1; c < in->c; c++)
      if (in->scales[c] != in->scales[0])
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                       "conv2d: input scale[%u] = %g differs from scale[0] = %g "
                       "(an int32 accumulator needs one input scale)",
                       c, (double) in->scales[c], (double) in->scales[0]);
          return FALSE;
        }

  if (in->c <= I)
    {
      *groups = 1;
      if ((in->c + wt->ki - 1) / wt->ki != wt->ib)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: weight I=%u (%u blocks of %u) does not match input C=%u",
                       I, wt->ib, wt->ki, in->c);
          return FALSE;
        }
      if (out->c > O || (out->c + wt->ko - 1) / wt->ko != wt->ob)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: weight O=%u (%u blocks of %u) does not match output C=%u",
                       O, wt->ob, wt->ko, out->c);
          return FALSE;
        }
    }
  else
    {
      if (in->c % I != 0)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: input C=%u is not a multiple of weight I=%u (groups)",
                       in->c, I);
          return FALSE;
        }
      *groups = in->c / I;
      if (out->c != O || O % *groups != 0)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: output C=%u must equal weight O=%u and be a multiple of "
                       "groups=%u", out->c, O, *groups);
          return FALSE;
        }
    }
  if ((guint64) wt->kh * wt->kw * MIN (in->c, I) > MAX_REDUCTION)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: reduction KH*KW*C_in=%u*%u*%u exceeds %u (int32 accumulator)",
                   wt->kh, wt->kw, MIN (in->c, I), MAX_REDUCTION);
      return FALSE;
    }
  if (in->n != out->n)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "conv2d: input n=%u != output n=%u", in->n, out->n);
      return FALSE;
    }
  if (!check_window ("conv2d", "h", in->h, out->h, wt->kh, p->stride_h, p->pad_top, error)
      || !check_window ("conv2d", "w", in->w, out->w, wt->kw, p->stride_w, p->pad_left, error))
    return FALSE;
  return TRUE;
}
gboolean
zg330_kernel_conv2d (const Zg330KernelTensor  *in,
                     const Zg330KernelWeights *weights,
                     const Zg330ConvParams    *params,
                     const Zg330KernelTensor  *out,
                     GError                  **error)
{
  FP_ENV_GUARD;
  ConvJob job = { 0 };
  guint groups;

  g_return_val_if_fail (in != NULL && weights != NULL && params != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!conv_check (in, weights, params, out, &groups, error))
    return FALSE;

  job.N = in->n; job.H = in->h; job.W = in->w; job.C = in->c;
  job.OH = out->h; job.OW = out->w; job.O = out->c;
  job.KH = weights->kh; job.KW = weights->kw;
  job.sh = params->stride_h; job.sw = params->stride_w;
  job.pt = params->pad_top; job.pl = params->pad_left;
  job.in = in;
  job.out = out;
  job.in_signed = in->dtype == ZG330_KERNEL_DTYPE_SINT8;
  job.isa = kernel_platform ();
  addr_init (&job.out_addr, out);

  if (groups > 1 && weights->ib * weights->ki == 1 && out->c == groups)
    {
      job.groups = groups;
      job.I = 1;
      job.Og = 1;
      conv_depthwise (&job, in, weights);
    }
  else
    {
      /* Dense and grouped convs: each group is a dense conv over its own channels of one
       * padded copy of the input, its outputs in blocks of 32. */
      guint ntaps = job.KH * job.KW;
      gint64 pb = (gint64) (job.OH - 1) * job.sh + job.KH - job.H - job.pt;
      gint64 pr = (gint64) (job.OW - 1) * job.sw + job.KW - job.W - job.pl;

      job.groups = groups;
      job.I = groups > 1 ? job.C / groups : job.C;
      job.Og = job.O / groups;
      job.Ip = (job.I + 3) & ~3u;
      job.ipad = job.Ip * groups;
      job.nq = job.Ip / 4;
      job.obe = (job.Og + OBLK - 1) / OBLK;
      job.nb = job.groups * job.obe;
      job.Hp = job.pt + job.H + (guint) MAX (pb, 0);
      job.Wp = job.pl + job.W + (guint) MAX (pr, 0);
      job.pad_value = job.in_signed ? 0x80 : 0x00;

      const gboolean vnni = job.isa->level == KERNEL_ISA_VNNI, avx2 = job.isa->level == KERNEL_ISA_AVX2;
      job.tile = job.isa->tile;
      job.plain_pack = !vnni;   /* the plain loops' packing, which the AVX2 tile widens */
      if ((vnni || avx2) && groups > 1 && job.Og <= 16)
        {
          /* packed groups: with VNNI when a block's quads fit two 16-dword tables; with
           * AVX2 a pair of groups, or one-quad groups broadcast */
          guint ogp = 1;
          while (ogp < job.Og)
            ogp *= 2;
          if (vnni ? (OBLK / ogp) * job.nq <= 32 : OBLK / ogp == 2 || job.nq == 1)
            {
              job.Ogp = ogp;
              job.NG = OBLK / ogp;
              job.obe = 1;
              job.nb = (job.groups + job.NG - 1) / job.NG;
              /* more than two groups per block: the half's groups broadcast from the
               * padded copy when each group is one quad, else the input is expanded (a
               * pair of groups takes one broadcast per half) */
              if (job.NG > 2 && job.nq == 1)
                {
                  guint gph = 16 / ogp;
                  job.bcast = 4 * gph;
                  for (guint p = 0; p < 16; p++)      /* byte k*Ogp + j <- lane j*gph + k */
                    job.res_perm[p] = (guint8) ((p % ogp) * gph + p / ogp);
                }
              else if (job.NG > 2)
                {
                  job.expanded = TRUE;
                  job.ipad = job.nq * 128;
                }
              job.tile = job.isa->tile_packed;
              job.plain_pack = FALSE;
              job.perm = g_new (gint32, 2 * (gsize) job.nq * 16);
              for (guint h = 0; h < 2; h++)
                for (guint q = 0; q < job.nq; q++)
                  for (guint l = 0; l < 16; l++)
                    job.perm[((gsize) h * job.nq + q) * 16 + l] = (gint32) (((16 * h + l) / ogp) * job.nq + q);
            }
        }
      /* Weights: [block][kh][kw][q][o 32][i 4] for VNNI and packed groups, [block][kh][kw][i]
       * [o 32] for the plain loops; zero outside the group's Og x I. */
      job.weights = weights;
      job.wblock = (gsize) ntaps * job.nq * 4 * OBLK;
      job.want_w16 = avx2;
      PackedWeights *packed = packed_weights_get (&job, weights, PACK_BLOCKS);
      requant_figures_get (&job, packed, job.corr, weights, job.nb * OBLK, TRUE, vnni || avx2);
      job.out_block_fast = out->layout == ZG330_KERNEL_LAYOUT_NCHWC && out->k == OBLK;

      addr_init (&job.in_addr, in);
      job.nplanes = job.expanded ? job.nb : 1;
      /* about 150 multiply-adds per ns on the VNNI path (50 with AVX2, 15 in plain C), plus the
       * requantisation per output, plus about 0.03 ns per byte of the padded copy */
      const double macs_per_ns = job.w16 != NULL ? 50.0 : !job.plain_pack ? 150.0 : 15.0;
      double est_ns = (double) job.N * job.nb * OBLK * job.OH * job.OW
                        * ((double) job.KH * job.KW * job.Ip / macs_per_ns + 0.3)
                      + (double) job.N * job.nplanes * job.Hp * job.Wp * job.ipad * 0.03;
      /* bands of output rows, each with the padded copy of its own input rows: on one
       * thread one band per image, else about four per thread (a band's extra rows, KH - sh
       * of them, are copied twice) */
      guint threads = parallel_threads (job.N * job.OH, est_ns);
      job.band_rows = threads > 1 ? MAX (1u, job.OH / (4 * threads)) : job.OH;
      job.bands = (job.OH + job.band_rows - 1) / job.band_rows;
      parallel_for (job.N * job.bands, conv_band, &job, est_ns);
      addr_clear (&job.in_addr);

      g_free (job.perm);
      packed_weights_unref (packed);
    }

  zero_padding (out);
  if (job.rq != NULL)
    requant_figures_unref (job.rq);
  addr_clear (&job.out_addr);
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* geometry                                                                           */

static gboolean
infer_dim (guint in, guint out, guint k, guint *stride, guint *pad)
{
  if (in == 0 || out == 0 || k == 0)
    return FALSE;
  for (guint s = 1; s <= in + k; s++)
    {
      gint64 p0 = (gint64) s * (out - 1) + k - in;
      gint64 p1 = p0 + s - 1;     /* every P in [p0, p1] gives the same floor */
      gint64 P;

      if (p1 < 0)
        continue;
      if (p0 < 0)
        p0 = 0;
      P = (p0 % 2 == 0) ? p0 : (p0 + 1 <= p1 ? p0 + 1 : p0);
      if ((P + 1) / 2 > k / 2)
        {
          if (out == 1)
            return FALSE;
          continue;   /* larger strides only need more padding ... */
        }
      *stride = s;
      *pad = (guint) ((P + 1) / 2);
      return TRUE;
    }
  return FALSE;
}

gboolean
zg330_conv_infer_geometry (guint in_h, guint in_w, guint out_h, guint out_w,
                           guint kh, guint kw,
                           guint *stride_h, guint *stride_w,
                           guint *pad_top, guint *pad_left,
                           GError **error)
{
  guint sh, sw, ph, pw;
  gboolean ok_h = infer_dim (in_h, out_h, kh, &sh, &ph);
  gboolean ok_w = ok_h && infer_dim (in_w, out_w, kw, &sw, &pw);

  if (!ok_h || !ok_w)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_GEOMETRY,
                   "cannot infer conv geometry: input %ux%u -> output %ux%u with kernel "
                   "%ux%u: no stride/padding fits the %s",
                   in_h, in_w, out_h, out_w, kh, kw, ok_h ? "width" : "height");
      return FALSE;
    }
  if (stride_h) *stride_h = sh;
  if (stride_w) *stride_w = sw;
  if (pad_top) *pad_top = ph;
  if (pad_left) *pad_left = pw;
  return TRUE;
}
