/* test-kernels-tensor.c: the kernels' tensor descriptors: invalid fields are rejected. */
#include "zw-test-kernel-ref.h"
#include <string.h>

static void
test_tensor_rejects_invalid (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 2, 2, 32, 0.1f);
  g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 2, 2, 32, 0.1f);
  Zg330KernelTensor t;

  t = a->t; t.k = 0;
  g_assert_cmpuint (zg330_kernel_tensor_get_size (&t), ==, 0);
  g_assert_false (zg330_kernel_cast (&t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "K=0"));
  g_clear_error (&error);
  t = a->t; t.w = 0;
  g_assert_false (zg330_kernel_cast (&t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "zero or oversized"));
  g_clear_error (&error);
  t = a->t; t.h = 1u << 30; t.w = 1u << 30;
  g_assert_false (zg330_kernel_cast (&t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_clear_error (&error);
  t = a->t; t.size = 100;
  g_assert_false (zg330_kernel_cast (&t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "holds 100 bytes"));
  g_assert_nonnull (strstr (error->message, "needs 128"));
  g_clear_error (&error);
  t = a->t; t.layout = 7;
  g_assert_false (zg330_kernel_cast (&t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_clear_error (&error);
  t = a->t; t.dtype = 9;
  g_assert_false (zg330_kernel_cast (&t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_clear_error (&error);
  b->scales[31] = 0.0f;
  g_assert_false (zg330_kernel_cast (&a->t, &b->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "output scale[31]"));
}

void
test_kernels_add_tensor (void)
{
  g_test_add_func ("/kernels/tensor/rejects-invalid-descriptors", test_tensor_rejects_invalid);
}
