/* hardop-reshape.c — Reshape: a byte copy (the vendor's reshapes only reinterpret a buffer,
 * NHWC [1,H,W,3] to *C**c3 [1,1,H,W,3]); zero-copy when the input already lives in the
 * output's bytes (same chunk, or a Buyi compile's same address). */
#include "devices/hardops/zg330-hardop-private.h"

static gboolean
reshape_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  const XirValue *in, *out;

  if (!zg330_hardop_expect_arity (op, 1, 1, 0, error))
    return FALSE;
  in = g_ptr_array_index (op->inputs, 0);
  out = g_ptr_array_index (op->outputs, 0);
  d->zero_copy = zg330_hardop_same_chunk_inside (in, out) || zg330_hardop_same_address_at (in, out, 0);
  return TRUE;
}

static gboolean
reshape_run (const Zg330HardopOperands *x, GError **error)
{
  return zg330_kernel_reshape (&x->inputs[0], x->output, error);
}

const Zg330HardopClass zg330_hardop_class_reshape = {
  .name = "Reshape",
  .min_inputs = 1,
  .max_inputs = 1,
  .describe = reshape_describe,
  .run = reshape_run,
};
