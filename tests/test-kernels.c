/* test-kernels.c: the behavioural hardop kernels against naive reference loops, one TAP
 * binary of one file per area (test-kernels-AREA.c); the shared test tensors and the
 * reference conv are in zw-test-kernel-ref.{c,h}. */
#include "zw-test-kernel-ref.h"

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  test_kernels_add_fp16 ();
  test_kernels_add_geometry ();
  test_kernels_add_conv ();
  test_kernels_add_conv_requant ();
  test_kernels_add_add ();
  test_kernels_add_layout ();
  test_kernels_add_maxpool ();
  test_kernels_add_tensor ();

  return g_test_run ();
}
