/* layout.c: the data-movement kernels: concat, nearest upsample, reshape, cast, relayout
 * and dequantize.
 */
#include "kernels/kernels-private.h"

/* Copies (through the requantisation tables unless they are the identity) channels
 * [0, count) of @in to channels [out_c0, out_c0 + count) of @out; same n, h, w.  Works
 * per run of channels contiguous in both. */
static void
move_channels (const Zg330KernelTensor *in, const Zg330KernelTensor *out, guint out_c0,
               const Requant *rq)
{
  Addr ai, ao;
  const guint8 *src = in->data;
  guint8 *dst = out->data;

  addr_init (&ai, in);
  addr_init (&ao, out);
  for (guint n = 0; n < in->n; n++)
    for (guint c = 0; c < in->c;)
      {
        guint run = MIN (channel_run (in, c), channel_run (out, out_c0 + c));
        const guint8 *s = src + n * ai.batch + ai.chan[c];
        guint8 *d = dst + n * ao.batch + ao.chan[out_c0 + c];
        gboolean one_table = TRUE;

        for (guint j = 1; j < run; j++)
          if (rq->index[c + j] != rq->index[c])
            one_table = FALSE;
        for (guint h = 0; h < in->h; h++)
          for (guint w = 0; w < in->w; w++)
            {
              const guint8 *sp = s + h * ai.row + w * ai.pix;
              guint8 *dp = d + h * ao.row + w * ao.pix;
              if (rq->identity)
                memmove (dp, sp, run);
              else if (one_table)
                {
                  const guint8 *tab = requant_table (rq, c);
                  for (guint j = 0; j < run; j++)
                    dp[j] = tab[sp[j]];
                }
              else
                for (guint j = 0; j < run; j++)
                  dp[j] = requant_table (rq, c + j)[sp[j]];
            }
        c += run;
      }
  addr_clear (&ai);
  addr_clear (&ao);
}

gboolean
zg330_kernel_concat (const Zg330KernelTensor *const *inputs,
                     guint                     n_inputs,
                     const Zg330KernelTensor  *out,
                     GError                  **error)
{
  FP_ENV_GUARD;
  guint64 total = 0;
  guint c0 = 0;

  g_return_val_if_fail (out != NULL && (inputs != NULL || n_inputs == 0), FALSE);
  if (!tensor_check (out, "concat", "output", TRUE, error))
    return FALSE;
  if (n_inputs == 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "concat: no inputs for output c=%u", out->c);
      return FALSE;
    }
  for (guint i = 0; i < n_inputs; i++)
    {
      g_autofree char *name = g_strdup_printf ("input %u", i);
      if (!tensor_check (inputs[i], "concat", name, TRUE, error)
          || !check_same_nhw ("concat", name, inputs[i], "output", out, FALSE, error))
        return FALSE;
      total += inputs[i]->c;
    }
  if (total != out->c)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "concat: input channels sum to c=%" G_GUINT64_FORMAT " != output c=%u",
                   total, out->c);
      return FALSE;
    }

  for (guint i = 0; i < n_inputs; i++)
    {
      const Zg330KernelTensor *in = inputs[i];
      Requant rq;

      requant_init (&rq, in, 0, out, c0, in->c);
      if (rq.identity && in->layout == ZG330_KERNEL_LAYOUT_NCHWC
          && out->layout == ZG330_KERNEL_LAYOUT_NCHWC && in->k == out->k
          && c0 % out->k == 0 && in->c % in->k == 0)
        {
          /* Whole channel blocks: one copy per (n, block). */
          gsize plane = (gsize) in->h * in->w * in->k;
          guint icb = n_blocks (in), ocb = n_blocks (out);
          for (guint n = 0; n < in->n; n++)
            memmove ((guint8 *) out->data + ((gsize) n * ocb + c0 / out->k) * plane,
                     (const guint8 *) in->data + (gsize) n * icb * plane, icb * plane);
        }
      else
        move_channels (in, out, c0, &rq);
      requant_clear (&rq);
      c0 += in->c;
    }
  zero_padding (out);
  return TRUE;
}

gboolean
check_same_channels (const char *op, const Zg330KernelTensor *in,
                     const Zg330KernelTensor *out, GError **error)
{
  if (in->n != out->n || in->c != out->c)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "%s: input %s=%u != output %s=%u", op,
                   in->n != out->n ? "n" : "c", in->n != out->n ? in->n : in->c,
                   in->n != out->n ? "n" : "c", in->n != out->n ? out->n : out->c);
      return FALSE;
    }
  return TRUE;
}
gboolean
zg330_kernel_upsample_nearest (const Zg330KernelTensor *in,
                               guint                    factor_h,
                               guint                    factor_w,
                               const Zg330KernelTensor *out,
                               GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  Requant rq;
  const guint8 *src;
  guint8 *dst;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "upsample", "input", TRUE, error)
      || !tensor_check (out, "upsample", "output", TRUE, error)
      || !check_same_channels ("upsample", in, out, error))
    return FALSE;
  if (factor_h == 0 || factor_w == 0
      || (guint64) in->h * factor_h != out->h || (guint64) in->w * factor_w != out->w)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "upsample: input %ux%u x factor %ux%u != output %ux%u",
                   in->h, in->w, factor_h, factor_w, out->h, out->w);
      return FALSE;
    }
  addr_init (&ai, in);
  addr_init (&ao, out);
  requant_init (&rq, in, 0, out, 0, in->c);
  src = in->data;
  dst = out->data;
  for (guint n = 0; n < out->n; n++)
    for (guint c = 0; c < in->c;)
      {
        guint run = MIN (channel_run (in, c), channel_run (out, c));
        const guint8 *tab = requant_table (&rq, c);
        gboolean one_table = TRUE;
        for (guint j = 1; j < run; j++)
          if (rq.index[c + j] != rq.index[c])
            one_table = FALSE;
        for (guint oh = 0; oh < out->h; oh++)
          for (guint ow = 0; ow < out->w; ow++)
            {
              const guint8 *s = src + n * ai.batch + ai.chan[c] + (oh / factor_h) * ai.row
                                + (ow / factor_w) * ai.pix;
              guint8 *d = dst + n * ao.batch + ao.chan[c] + oh * ao.row + ow * ao.pix;
              if (rq.identity)
                memcpy (d, s, run);
              else
                for (guint j = 0; j < run; j++)
                  d[j] = (one_table ? tab : requant_table (&rq, c + j))[s[j]];
            }
        c += run;
      }
  requant_clear (&rq);
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_reshape (const Zg330KernelTensor *in,
                      const Zg330KernelTensor *out,
                      GError                 **error)
{
  FP_ENV_GUARD;
  gsize si, so;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "reshape", "input", FALSE, error)
      || !tensor_check (out, "reshape", "output", FALSE, error))
    return FALSE;
  si = zg330_kernel_tensor_get_size (in);
  so = zg330_kernel_tensor_get_size (out);
  if (si != so || in->dtype != out->dtype)
    {
      g_autofree char *di = tensor_describe (in);
      g_autofree char *dout = tensor_describe (out);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "reshape: input (%s, %" G_GSIZE_FORMAT " bytes) and output (%s, %"
                   G_GSIZE_FORMAT " bytes) differ in %s", di, si, dout, so,
                   si != so ? "size" : "element type");
      return FALSE;
    }
  memmove (out->data, in->data, si);
  return TRUE;
}

gboolean
zg330_kernel_cast (const Zg330KernelTensor *in,
                   const Zg330KernelTensor *out,
                   GError                 **error)
{
  FP_ENV_GUARD;
  Requant rq;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "cast", "input", TRUE, error)
      || !tensor_check (out, "cast", "output", TRUE, error)
      || !check_same_nhw ("cast", "input", in, "output", out, TRUE, error))
    return FALSE;
  requant_init (&rq, in, 0, out, 0, in->c);
  if (rq.n_tables == 1 && same_memory_layout (in, out)
      && (out->layout == ZG330_KERNEL_LAYOUT_NHWC || out->c % out->k == 0))
    {
      const guint8 *s = in->data, *tab = rq.tables;
      guint8 *d = out->data;
      gsize n = zg330_kernel_tensor_get_size (out);
      for (gsize i = 0; i < n; i++)
        d[i] = tab[s[i]];
    }
  else
    move_channels (in, out, 0, &rq);
  requant_clear (&rq);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_relayout (const Zg330KernelTensor *in,
                       const Zg330KernelTensor *out,
                       GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  gsize es;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "relayout", "input", FALSE, error)
      || !tensor_check (out, "relayout", "output", FALSE, error)
      || !check_same_nhw ("relayout", "input", in, "output", out, TRUE, error))
    return FALSE;
  if (in->dtype != out->dtype)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "relayout: input dtype %s != output dtype %s",
                   dtype_name (in->dtype), dtype_name (out->dtype));
      return FALSE;
    }
  es = elem_size (in);
  addr_init (&ai, in);
  addr_init (&ao, out);
  for (guint n = 0; n < in->n; n++)
    for (guint c = 0; c < in->c;)
      {
        guint run = MIN (channel_run (in, c), channel_run (out, c));
        for (guint h = 0; h < in->h; h++)
          for (guint w = 0; w < in->w; w++)
            memcpy ((guint8 *) out->data + (n * ao.batch + ao.chan[c] + h * ao.row + w * ao.pix) * es,
                    (const guint8 *) in->data + (n * ai.batch + ai.chan[c] + h * ai.row + w * ai.pix) * es,
                    run * es);
        c += run;
      }
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_dequantize (const Zg330KernelTensor *in,
                         const Zg330KernelTensor *out,
                         GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  const guint8 *src;
  float *dst;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "dequantize", "input", TRUE, error)
      || !tensor_check (out, "dequantize", "output", FALSE, error)
      || !check_same_nhw ("dequantize", "input", in, "output", out, TRUE, error))
    return FALSE;
  if (out->dtype != ZG330_KERNEL_DTYPE_FP32)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "dequantize: output dtype %s must be fp32", dtype_name (out->dtype));
      return FALSE;
    }
  addr_init (&ai, in);
  addr_init (&ao, out);
  src = in->data;
  dst = out->data;
  for (guint n = 0; n < in->n; n++)
    for (guint c = 0; c < in->c; c++)
      {
        float s = scale_of (in, c);
        for (guint h = 0; h < in->h; h++)
          for (guint w = 0; w < in->w; w++)
            dst[n * ao.batch + ao.chan[c] + h * ao.row + w * ao.pix]
                = (float) raw_value (src[n * ai.batch + ai.chan[c] + h * ai.row + w * ai.pix],
                                     in->dtype) * s;
      }
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}
