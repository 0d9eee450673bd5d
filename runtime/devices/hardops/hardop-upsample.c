/* hardop-upsample.c — Upsample: nearest, factor = output size / input size per axis. */
#include "devices/hardops/zg330-hardop-private.h"
#include "xrt/xrt-device.h"

static gboolean
upsample_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  guint n, c, h, w, k, on, oc, oh, ow, ok;

  if (!zg330_hardop_expect_arity (op, 1, 1, 0, error))
    return FALSE;
  if (!zg330_hardop_value_dims (op, g_ptr_array_index (op->inputs, 0), &n, &c, &h, &w, &k, error)
      || !zg330_hardop_value_dims (op, g_ptr_array_index (op->outputs, 0), &on, &oc, &oh, &ow, &ok, error))
    return FALSE;
  if (c != oc || n != on || h == 0 || w == 0 || oh == 0 || ow == 0 || oh % h != 0 || ow % w != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (%s): output %ux%ux%u does not follow from input %ux%ux%u", op->op_id,
                   op->hard_class, oc, oh, ow, c, h, w);
      return FALSE;
    }
  d->stride_h = oh / h;
  d->stride_w = ow / w;
  return TRUE;
}

static gboolean
upsample_run (const Zg330HardopOperands *x, GError **error)
{
  return zg330_kernel_upsample_nearest (&x->inputs[0], x->call->stride_h, x->call->stride_w, x->output, error);
}

const Zg330HardopClass zg330_hardop_class_upsample = {
  .name = "Upsample",
  .min_inputs = 1,
  .max_inputs = 1,
  .describe = upsample_describe,
  .run = upsample_run,
};
