/* hardop-concat.c — Concat along channels.  With its inputs already in the output's bytes
 * (the same compiler chunk, or — a Buyi compile — every input at @etm/@ocm(output address +
 * the bytes of the inputs before it), filling the output exactly) it is zero-copy: the
 * compiler made it so and it carries no instructions; its inputs are the vendor's fake
 * values inside the output.  Otherwise the kernel copies (or requantises) each input. */
#include "devices/hardops/zg330-hardop-private.h"

static gboolean
concat_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  const XirValue *out;
  gboolean by_chunk = TRUE, by_addr;
  guint64 offset = 0;

  if (!zg330_hardop_expect_arity (op, G_MAXUINT, 1, 0, error))
    return FALSE;
  out = g_ptr_array_index (op->outputs, 0);
  by_addr = out->rank > 0 && out->shape[0] == 1;
  for (guint i = 0; i < op->inputs->len; i++)
    {
      const XirValue *in = g_ptr_array_index (op->inputs, i);
      by_chunk &= zg330_hardop_same_chunk_inside (in, out);
      by_addr &= zg330_hardop_same_address_at (in, out, offset);
      offset += in->storage_bytes;
    }
  d->zero_copy = by_chunk || (by_addr && offset == out->storage_bytes);
  return TRUE;
}

static gboolean
concat_run (const Zg330HardopOperands *x, GError **error)
{
  const Zg330KernelTensor *ts[ZG330_CALL_MAX_INPUTS];

  for (guint i = 0; i < x->call->n_inputs; i++)
    ts[i] = &x->inputs[i];
  return zg330_kernel_concat (ts, x->call->n_inputs, x->output, error);
}

const Zg330HardopClass zg330_hardop_class_concat = {
  .name = "Concat",
  .min_inputs = 1,
  .max_inputs = ZG330_CALL_MAX_INPUTS,
  .fake_inputs = TRUE,
  .describe = concat_describe,
  .run = concat_run,
};
