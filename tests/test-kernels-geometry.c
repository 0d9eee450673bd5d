/* test-kernels-geometry.c: the conv geometry (strides and padding) inferred from the shapes. */
#include "zw-test-kernel-ref.h"
#include <string.h>

static void
assert_geometry (guint ih, guint iw, guint oh, guint ow, guint kh, guint kw,
                 guint esh, guint esw, guint ept, guint epl)
{
  g_autoptr (GError) error = NULL;
  guint sh = 0, sw = 0, pt = 99, pl = 99;

  g_assert_true (zg330_conv_infer_geometry (ih, iw, oh, ow, kh, kw, &sh, &sw, &pt, &pl, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sh, ==, esh);
  g_assert_cmpuint (sw, ==, esw);
  g_assert_cmpuint (pt, ==, ept);
  g_assert_cmpuint (pl, ==, epl);
}

static void
test_geometry_yolov5s (void)
{
  assert_geometry (352, 640, 176, 320, 6, 6, 2, 2, 2, 2);   /* the stem conv */
  assert_geometry (176, 320, 88, 160, 3, 3, 2, 2, 1, 1);    /* 3x3 s2 */
  assert_geometry (88, 160, 88, 160, 1, 1, 1, 1, 0, 0);     /* 1x1 s1 */
  assert_geometry (44, 80, 44, 80, 3, 3, 1, 1, 1, 1);       /* 3x3 s1 same */
  assert_geometry (11, 20, 11, 20, 5, 5, 1, 1, 2, 2);       /* SPPF maxpool 5x5 s1 same */
  assert_geometry (22, 40, 11, 20, 3, 3, 2, 2, 1, 1);
  assert_geometry (88, 160, 44, 80, 1, 1, 2, 2, 0, 0);      /* 1x1 s2 */
  assert_geometry (1, 1, 1, 1, 1, 1, 1, 1, 0, 0);
}

static void
test_geometry_impossible (void)
{
  g_autoptr (GError) error = NULL;
  guint sh, sw, pt, pl;

  g_assert_false (zg330_conv_infer_geometry (10, 10, 20, 20, 3, 3, &sh, &sw, &pt, &pl, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_GEOMETRY);
  g_assert_nonnull (strstr (error->message, "10x10"));
  g_assert_nonnull (strstr (error->message, "20x20"));
  g_assert_nonnull (strstr (error->message, "height"));
  g_clear_error (&error);
  /* 1x1 kernels cannot pad: 8 -> 9 fits no stride. */
  g_assert_false (zg330_conv_infer_geometry (8, 8, 8, 9, 1, 1, &sh, &sw, &pt, &pl, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_GEOMETRY);
  g_assert_nonnull (strstr (error->message, "width"));
}

void
test_kernels_add_geometry (void)
{
  g_test_add_func ("/kernels/geometry/yolov5s-shapes", test_geometry_yolov5s);
  g_test_add_func ("/kernels/geometry/rejects-impossible", test_geometry_impossible);
}
