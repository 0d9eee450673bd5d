/* hardop-cast.c — Cast on the board: int8/uint8 requantised to the output's scales
 * (zg330_kernel_cast; an unquantised uint8 image has scale 1). */
#include "devices/hardops/zg330-hardop-private.h"

static gboolean
cast_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  (void) d;
  return zg330_hardop_expect_arity (op, 1, 1, 0, error);
}

static gboolean
cast_run (const Zg330HardopOperands *x, GError **error)
{
  return zg330_kernel_cast (&x->inputs[0], x->output, error);
}

const Zg330HardopClass zg330_hardop_class_cast = {
  .name = "Cast",
  .min_inputs = 1,
  .max_inputs = 1,
  .describe = cast_describe,
  .run = cast_run,
};
