/* hardop-maxpool2d.c — MaxPool2d, its window inferred from the sizes: same size, 5x5 stride
 * 1 pad 2 (YOLOv5's SPPF); halved, 3x3 stride 2 pad 1 (ResNet's stem); another ratio r,
 * r x r stride r. */
#include "devices/hardops/zg330-hardop-private.h"
#include "xrt/xrt-device.h"

static gboolean
maxpool2d_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  guint n, c, h, w, k, on, oc, oh, ow, ok;

  if (!zg330_hardop_expect_arity (op, 1, 1, 0, error))
    return FALSE;
  if (!zg330_hardop_value_dims (op, g_ptr_array_index (op->inputs, 0), &n, &c, &h, &w, &k, error)
      || !zg330_hardop_value_dims (op, g_ptr_array_index (op->outputs, 0), &on, &oc, &oh, &ow, &ok, error))
    return FALSE;
  if (c != oc || n != on || h == 0 || w == 0 || oh == 0 || ow == 0)
    goto bad_shape;
  if (oh == h && ow == w)
    {
      d->kernel_h = d->kernel_w = 5;
      d->stride_h = d->stride_w = 1;
      d->pad_top = d->pad_left = 2;
    }
  else if (oh == (h + 1) / 2 && ow == (w + 1) / 2)
    {
      d->kernel_h = d->kernel_w = 3;
      d->stride_h = d->stride_w = 2;
      d->pad_top = d->pad_left = 1;
    }
  else if (h % oh == 0 && w % ow == 0 && h / oh == w / ow)
    d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = h / oh;
  else
    goto bad_shape;
  return TRUE;

bad_shape:
  g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
               "op %" G_GINT64_FORMAT " (%s): output %ux%ux%u does not follow from input %ux%ux%u", op->op_id,
               op->hard_class, oc, oh, ow, c, h, w);
  return FALSE;
}

static gboolean
maxpool2d_run (const Zg330HardopOperands *x, GError **error)
{
  const Zg330HardopCall *call = x->call;
  Zg330PoolParams pp = { call->kernel_h, call->kernel_w, call->stride_h, call->stride_w, call->pad_top,
                         call->pad_left };

  return zg330_kernel_maxpool2d (&x->inputs[0], &pp, x->output, error);
}

const Zg330HardopClass zg330_hardop_class_maxpool2d = {
  .name = "MaxPool2d",
  .min_inputs = 1,
  .max_inputs = 1,
  .describe = maxpool2d_describe,
  .run = maxpool2d_run,
};
