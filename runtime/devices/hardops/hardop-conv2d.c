/* hardop-conv2d.c — Conv2d: the kernel from the weight shape [OB, IB, KH, KW, Ko, Ki];
 * groups = C_in / (IB*Ki); stride and padding inferred from the input/output sizes (PyTorch
 * convention, zg330_conv_infer_geometry).  Params: the weights and an optional fp16 bias.
 *
 * A conv's int32 accumulator needs one input scale.  A Buyi input whose channels carry
 * different scales (a concat of values with their own norm ratios) is first brought to the
 * largest of them, channel by channel: q' = round-half-even (q x s[c] / s_max), which
 * cannot overflow (s[c] / s_max <= 1).  The board's own way is not public (its instruction
 * words are opaque): this is the behavioural model's assumption. */
#include "devices/hardops/zg330-hardop-private.h"
#include "xrt/xrt-device.h"

#include <math.h>
#include <string.h>

static gboolean
conv2d_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  const XirValue *in, *out, *wt;
  guint n, c, h, w, k, on, oc, oh, ow, ok;
  guint ib_ki, o;

  if (!zg330_hardop_expect_arity (op, 1, 1, G_MAXUINT, error))
    return FALSE;
  if (op->params->len < 1 || op->params->len > 2)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (Conv2d): params: expected weights and an optional bias, got %u",
                   op->op_id, op->params->len);
      return FALSE;
    }
  in = g_ptr_array_index (op->inputs, 0);
  out = g_ptr_array_index (op->outputs, 0);
  wt = g_ptr_array_index (op->params, 0);
  if (!zg330_hardop_value_dims (op, in, &n, &c, &h, &w, &k, error)
      || !zg330_hardop_value_dims (op, out, &on, &oc, &oh, &ow, &ok, error))
    return FALSE;
  if (wt->rank != 6)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (Conv2d): params[0] (v_id %" G_GINT64_FORMAT "): weight shape must be "
                   "[OB, IB, KH, KW, Ko, Ki] (layout OIHWoKoiKi), got rank %u", op->op_id, wt->v_id, wt->rank);
      return FALSE;
    }
  o = (guint) (wt->shape[0] * wt->shape[4]);
  ib_ki = (guint) (wt->shape[1] * wt->shape[5]);
  d->kernel_h = (guint) wt->shape[2];
  d->kernel_w = (guint) wt->shape[3];
  if (o != oc || ib_ki == 0 || c % ib_ki != 0 || on != n)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (Conv2d): weights v_id %" G_GINT64_FORMAT " give %u out x %u in channels "
                   "but the input has %u and the output %u channels", op->op_id, wt->v_id, o, ib_ki, c, oc);
      return FALSE;
    }
  d->groups = c / ib_ki;
  if (!zg330_conv_infer_geometry (h, w, oh, ow, d->kernel_h, d->kernel_w, &d->stride_h, &d->stride_w,
                                  &d->pad_top, &d->pad_left, error))
    {
      g_prefix_error (error, "op %" G_GINT64_FORMAT " (Conv2d): ", op->op_id);
      return FALSE;
    }
  d->macs = (guint64) n * oh * ow * o * d->kernel_h * d->kernel_w * ib_ki;
  return TRUE;
}

typedef guint8 OperandBytes;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OperandBytes, zg330_hardop_bytes_free)

/* @in with one scale for every channel: @in itself when its channels share one, else a copy
 * in @bytes and @scales brought to the largest (see the head comment). */
static gboolean
uniform_input_scale (const Zg330KernelTensor *in, Zg330KernelTensor *t, guint8 **bytes, float **scales,
                     GError **error)
{
  const float *s = in->scales;
  float smax;
  gboolean same = TRUE;
  gsize n = in->size;
  guint cb_k = in->layout == ZG330_KERNEL_LAYOUT_NCHWC ? MAX (in->k, 1) : in->c;
  guint8 *data;

  *t = *in;
  if (s == NULL || in->c < 2)
    return TRUE;
  smax = s[0];
  for (guint c = 1; c < in->c; c++)
    {
      same &= s[c] == s[0];
      smax = MAX (smax, s[c]);
    }
  if (same)
    return TRUE;
  /* rescaled in a copy: the input's bytes stay the input's */
  if ((*bytes = data = zg330_hardop_bytes_alloc (n, FALSE)) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%" G_GSIZE_FORMAT " bytes: too large for the host", n);
      return FALSE;
    }
  memcpy (data, in->data, n);
  for (gsize i = 0; i < n; i++)
    {
      guint ch;
      double q;
      if (in->layout == ZG330_KERNEL_LAYOUT_NCHWC)
        {
          gsize plane = (gsize) in->h * in->w * cb_k;
          guint cb = plane == 0 ? 0 : (guint) ((i / plane) % ((in->c + cb_k - 1) / cb_k));
          ch = cb * cb_k + (guint) (i % cb_k);
        }
      else
        ch = (guint) (i % cb_k);
      if (ch >= in->c)
        continue;
      q = in->dtype == ZG330_KERNEL_DTYPE_SINT8 ? (double) (gint8) data[i] : (double) data[i];
      q = nearbyint (q * (double) s[ch] / (double) smax);
      data[i] = in->dtype == ZG330_KERNEL_DTYPE_SINT8 ? (guint8) (gint8) CLAMP (q, -128, 127)
                                                     : (guint8) CLAMP (q, 0, 255);
    }
  *scales = g_new (float, in->c);
  for (guint c = 0; c < in->c; c++)
    (*scales)[c] = smax;
  t->data = data;
  t->scales = *scales;
  return TRUE;
}

static gboolean
conv2d_run (const Zg330HardopOperands *x, GError **error)
{
  const Zg330HardopCall *call = x->call;
  Zg330ConvParams cp = { call->stride_h, call->stride_w, call->pad_top, call->pad_left };
  g_autoptr (OperandBytes) bytes = NULL;
  g_autofree float *scales = NULL;
  Zg330KernelTensor in;

  if (!uniform_input_scale (&x->inputs[0], &in, &bytes, &scales, error))
    {
      g_prefix_error (error, "op %" G_GINT64_FORMAT " (Conv2d): rescaling input v_id %" G_GINT64_FORMAT ": ",
                      call->op_id, call->inputs[0].v_id);
      return FALSE;
    }
  return zg330_kernel_conv2d (&in, x->weights, &cp, x->output, error);
}

const Zg330HardopClass zg330_hardop_class_conv2d = {
  .name = "Conv2d",
  .has_weights = TRUE,
  .min_inputs = 1,
  .max_inputs = 1,
  .describe = conv2d_describe,
  .run = conv2d_run,
};
