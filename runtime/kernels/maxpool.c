/* maxpool.c: max pooling (zg330_kernel_maxpool2d).
 */
#include "kernels/kernels-private.h"

gboolean
zg330_kernel_maxpool2d (const Zg330KernelTensor *in,
                        const Zg330PoolParams   *params,
                        const Zg330KernelTensor *out,
                        GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  Requant rq;
  const guint8 *src;
  guint8 *dst;

  g_return_val_if_fail (in != NULL && params != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "maxpool2d", "input", TRUE, error)
      || !tensor_check (out, "maxpool2d", "output", TRUE, error)
      || !check_same_channels ("maxpool2d", in, out, error)
      || !check_window ("maxpool2d", "h", in->h, out->h, params->kernel_h, params->stride_h,
                        params->pad_top, error)
      || !check_window ("maxpool2d", "w", in->w, out->w, params->kernel_w, params->stride_w,
                        params->pad_left, error))
    return FALSE;
  if (params->pad_top >= params->kernel_h || params->pad_left >= params->kernel_w)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "maxpool2d: padding %ux%u must be smaller than the window %ux%u",
                   params->pad_top, params->pad_left, params->kernel_h, params->kernel_w);
      return FALSE;
    }

  addr_init (&ai, in);
  addr_init (&ao, out);
  requant_init (&rq, in, 0, out, 0, in->c);
  src = in->data;
  dst = out->data;
  if (in->layout == ZG330_KERNEL_LAYOUT_NCHWC && out->layout == ZG330_KERNEL_LAYOUT_NCHWC
      && in->k == POOL_BLK && out->k == POOL_BLK)
    {
      /* NCHWc32 both sides: the max of whole 32-channel blocks, rows in parallel */
      PoolJob job = { in, out, params, &rq, &ai, &ao };
      parallel_for (out->n * n_blocks (out) * out->h, kernel_platform ()->pool_row_blocks, &job,
                    (double) out->n * n_blocks (out) * out->h * out->w * params->kernel_h * params->kernel_w * 2.0);
    }
  else
  for (guint n = 0; n < out->n; n++)
    for (guint oh = 0; oh < out->h; oh++)
      {
        gint h0 = (gint) (oh * params->stride_h) - (gint) params->pad_top;
        gint h1 = MIN (h0 + (gint) params->kernel_h, (gint) in->h);
        h0 = MAX (h0, 0);
        for (guint ow = 0; ow < out->w; ow++)
          {
            gint w0 = (gint) (ow * params->stride_w) - (gint) params->pad_left;
            gint w1 = MIN (w0 + (gint) params->kernel_w, (gint) in->w);
            w0 = MAX (w0, 0);
            for (guint c = 0; c < in->c; c++)
              {
                const guint8 *s = src + n * ai.batch + ai.chan[c];
                guint8 best = s[h0 * ai.row + w0 * ai.pix];
                for (gint h = h0; h < h1; h++)
                  for (gint w = w0; w < w1; w++)
                    {
                      guint8 v = s[h * ai.row + w * ai.pix];
                      if (raw_value (v, in->dtype) > raw_value (best, in->dtype))
                        best = v;
                    }
                dst[n * ao.batch + ao.chan[c] + oh * ao.row + ow * ao.pix]
                    = rq.identity ? best : requant_table (&rq, c)[best];
              }
          }
      }
  requant_clear (&rq);
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}
