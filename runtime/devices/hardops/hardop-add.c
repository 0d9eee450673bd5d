/* hardop-add.c — Add: two feature maps of one shape, each requantised to the output's
 * scales and summed (zg330_kernel_add). */
#include "devices/hardops/zg330-hardop-private.h"

static gboolean
add_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  (void) d;
  return zg330_hardop_expect_arity (op, 2, 1, 0, error);
}

static gboolean
add_run (const Zg330HardopOperands *x, GError **error)
{
  return zg330_kernel_add (&x->inputs[0], &x->inputs[1], x->output, error);
}

const Zg330HardopClass zg330_hardop_class_add = {
  .name = "Add",
  .min_inputs = 2,
  .max_inputs = 2,
  .describe = add_describe,
  .run = add_run,
};
