/* test-kernels-layout.c: the data-movement kernels (runtime/kernels/layout.c): concat, nearest
 * upsample, reshape, cast, relayout and dequantize. */
#include "zw-test-kernel-ref.h"
#include <string.h>

static void
test_concat_byte_copy (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (21);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 2, 64, 3, 5, 32, 0.137f);
  g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 2, 32, 3, 5, 32, 0.137f);
  g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 2, 96, 3, 5, 32, 0.137f);
  const Zg330KernelTensor *ins[] = { &a->t, &b->t };

  tt_fill (a, rand);
  tt_fill (b, rand);
  g_assert_true (zg330_kernel_concat (ins, 2, &o->t, &error));
  g_assert_no_error (error);
  /* Blocks land whole: the output is the two inputs' blocks back to back per batch. */
  for (guint n = 0; n < 2; n++)
    {
      gsize plane = 3 * 5 * 32;
      g_assert_cmpmem ((guint8 *) o->t.data + n * 3 * plane, 2 * plane,
                       (guint8 *) a->t.data + n * 2 * plane, 2 * plane);
      g_assert_cmpmem ((guint8 *) o->t.data + (n * 3 + 2) * plane, plane,
                       (guint8 *) b->t.data + n * plane, plane);
    }
}

static void
test_concat_requantises_unaligned (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (22);
  g_autoptr (GError) error = NULL;
  /* 3 + 5 + 6 channels into NCHWc4 (14 = 3 blocks and 2 padding channels); the second
   * input has another scale and is uint8, the third is NHWC with the output's scale. */
  g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 3, 4, 6, 4, 0.1f);
  g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_UINT8, 1, 5, 4, 6, 32, 0.03f);
  g_autoptr (TT) c = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 6, 4, 6, 0, 0.1f);
  g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 14, 4, 6, 4, 0.1f);
  const Zg330KernelTensor *ins[] = { &a->t, &b->t, &c->t };

  tt_fill (a, rand);
  tt_fill (b, rand);
  tt_fill (c, rand);
  g_assert_true (zg330_kernel_concat (ins, 3, &o->t, &error));
  g_assert_no_error (error);
  for (guint h = 0; h < 4; h++)
    for (guint w = 0; w < 6; w++)
      {
        for (guint ch = 0; ch < 3; ch++)
          g_assert_cmpint (tt_get (o, 0, ch, h, w), ==, tt_get (a, 0, ch, h, w));
        for (guint ch = 0; ch < 5; ch++)
          g_assert_cmpint (tt_get (o, 0, 3 + ch, h, w), ==,
                           ref_round ((double) tt_get (b, 0, ch, h, w) * ((double) 0.03f / (double) 0.1f),
                                      ZG330_KERNEL_DTYPE_SINT8));
        for (guint ch = 0; ch < 6; ch++)
          g_assert_cmpint (tt_get (o, 0, 8 + ch, h, w), ==, tt_get (c, 0, ch, h, w));
      }
  assert_padding_zero (o);
}

static void
test_concat_rejects (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 4, 4, 32, 0.1f);
  g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 3, 4, 32, 0.1f);
  g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 96, 4, 4, 32, 0.1f);
  const Zg330KernelTensor *ins[] = { &a->t, &a->t, &b->t };

  g_assert_false (zg330_kernel_concat (ins, 2, &o->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "c=64 != output c=96"));
  g_clear_error (&error);
  g_assert_false (zg330_kernel_concat (ins, 3, &o->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "input 2 h=3"));
  g_clear_error (&error);
  g_assert_false (zg330_kernel_concat (ins, 0, &o->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
}

static void
test_upsample_nearest (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (25);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 5, 7, 32, 0.052f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 10, 14, 32, 0.052f);
  g_autoptr (TT) out3 = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 15, 7, 0, 0.104f);

  tt_fill (in, rand);
  g_assert_true (zg330_kernel_upsample_nearest (&in->t, 2, 2, &out->t, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < 64; c++)
    for (guint h = 0; h < 10; h++)
      for (guint w = 0; w < 14; w++)
        g_assert_cmpint (tt_get (out, 0, c, h, w), ==, tt_get (in, 0, c, h / 2, w / 2));
  /* Factor 3x1 with a requantising output scale. */
  g_assert_true (zg330_kernel_upsample_nearest (&in->t, 3, 1, &out3->t, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < 64; c++)
    for (guint h = 0; h < 15; h++)
      for (guint w = 0; w < 7; w++)
        g_assert_cmpint (tt_get (out3, 0, c, h, w), ==,
                         ref_round ((double) tt_get (in, 0, c, h / 3, w) * ((double) 0.052f / (double) 0.104f),
                                    ZG330_KERNEL_DTYPE_SINT8));

  g_assert_false (zg330_kernel_upsample_nearest (&in->t, 2, 3, &out->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "factor 2x3"));
}

static void
test_reshape_byte_copy (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (26);
  g_autoptr (GError) error = NULL;
  /* The network's first op: NHWC [1,H,W,3] -> *C**c3 [1,1,H,W,3]. */
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_UINT8, 1, 3, 7, 9, 0, 0);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_UINT8, 1, 3, 7, 9, 3, 0);
  g_autoptr (TT) bad = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_UINT8, 1, 3, 7, 9, 4, 0);
  Zg330KernelTensor same;

  tt_fill (in, rand);
  g_assert_true (zg330_kernel_reshape (&in->t, &out->t, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (in->t.data, in->t.size, out->t.data, out->t.size);
  for (guint c = 0; c < 3; c++)
    g_assert_cmpint (tt_get (out, 0, c, 6, 8), ==, tt_get (in, 0, c, 6, 8));
  /* In place (both values share chunk 0 in the real network). */
  same = out->t;
  same.data = in->t.data;
  g_assert_true (zg330_kernel_reshape (&in->t, &same, &error));

  g_assert_false (zg330_kernel_reshape (&in->t, &bad->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "189 bytes"));
  g_assert_nonnull (strstr (error->message, "252 bytes"));
  g_clear_error (&error);
  same.dtype = ZG330_KERNEL_DTYPE_SINT8;
  g_assert_false (zg330_kernel_reshape (&in->t, &same, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "element type"));
}

static void
test_cast_uint8_to_int8 (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_UINT8, 1, 3, 16, 16, 3, 0);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 3, 16, 16, 3, 2.007629f);

  /* Every uint8 value once per channel. */
  for (guint c = 0; c < 3; c++)
    for (guint i = 0; i < 256; i++)
      tt_set (in, 0, c, i / 16, i % 16, (gint) i);
  g_assert_true (zg330_kernel_cast (&in->t, &out->t, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < 3; c++)
    for (guint i = 0; i < 256; i++)
      g_assert_cmpint (tt_get (out, 0, c, i / 16, i % 16), ==,
                       ref_round ((double) i / (double) 2.007629f, ZG330_KERNEL_DTYPE_SINT8));
  g_assert_cmpint (tt_get (out, 0, 0, 15, 15), ==, 127);
  g_assert_cmpint (tt_get (out, 0, 0, 0, 3), ==, 1);    /* 3 / 2.0076 = 1.49 */
  g_assert_cmpint (tt_get (out, 0, 0, 0, 4), ==, 2);    /* 1.99 */
}

static void
test_cast_rescale_and_rejects (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (27);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 40, 3, 4, 32, 0.3f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 40, 3, 4, 0, 0.2f);

  tt_fill (in, rand);
  out->scales[39] = 0.5f;
  g_assert_true (zg330_kernel_cast (&in->t, &out->t, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < 40; c++)
    for (guint h = 0; h < 3; h++)
      for (guint w = 0; w < 4; w++)
        g_assert_cmpint (tt_get (out, 0, c, h, w), ==,
                         ref_round ((double) tt_get (in, 0, c, h, w) * ((double) 0.3f / (double) out->scales[c]),
                                    ZG330_KERNEL_DTYPE_SINT8));
  out->t.h = 2;
  g_assert_false (zg330_kernel_cast (&in->t, &out->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "input h=3 != output h=2"));
}

static void
test_layout_pack_unpack (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (30);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) nhwc = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 2, 45, 3, 5, 0, 0);
  g_autoptr (TT) blk = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 2, 45, 3, 5, 32, 0);
  g_autoptr (TT) back = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 2, 45, 3, 5, 0, 0);
  g_autoptr (TT) wrong = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_UINT8, 2, 45, 3, 5, 0, 0);
  Zg330KernelTensor fin = { ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_FP32, 1, 5, 2, 3, 0, NULL, NULL, 0 };
  Zg330KernelTensor fblk = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_FP32, 1, 5, 2, 3, 4, NULL, NULL, 0 };
  Zg330KernelTensor fback = fin;
  float src[30], mid[2 * 4 * 6], dst[30];

  tt_fill (nhwc, rand);
  g_assert_true (zg330_kernel_relayout (&nhwc->t, &blk->t, &error));
  g_assert_no_error (error);
  for (guint n = 0; n < 2; n++)
    for (guint c = 0; c < 45; c++)
      for (guint h = 0; h < 3; h++)
        for (guint w = 0; w < 5; w++)
          g_assert_cmpint (tt_get (blk, n, c, h, w), ==, tt_get (nhwc, n, c, h, w));
  assert_padding_zero (blk);
  g_assert_true (zg330_kernel_relayout (&blk->t, &back->t, &error));
  g_assert_cmpmem (nhwc->t.data, nhwc->t.size, back->t.data, back->t.size);
  g_assert_false (zg330_kernel_relayout (&blk->t, &wrong->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_clear_error (&error);

  for (guint i = 0; i < 30; i++)
    src[i] = (float) i * 0.5f - 3.0f;
  memset (mid, 0xff, sizeof mid);
  fin.data = src; fin.size = sizeof src;
  fblk.data = mid; fblk.size = sizeof mid;
  fback.data = dst; fback.size = sizeof dst;
  g_assert_cmpuint (zg330_kernel_tensor_get_size (&fblk), ==, sizeof mid);
  g_assert_true (zg330_kernel_relayout (&fin, &fblk, &error));
  g_assert_no_error (error);
  /* (c=4, h=1, w=2) lives in block 1, lane 0. */
  g_assert_cmpfloat (mid[((1 * 2 + 1) * 3 + 2) * 4 + 0], ==, src[(1 * 3 + 2) * 5 + 4]);
  g_assert_cmpfloat (mid[((1 * 2 + 1) * 3 + 2) * 4 + 1], ==, 0.0f);
  g_assert_true (zg330_kernel_relayout (&fblk, &fback, &error));
  g_assert_cmpmem (src, sizeof src, dst, sizeof dst);
}

static void
test_dequantize_to_float (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (31);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 35, 2, 3, 32, 0.25f);
  float f[35 * 2 * 3];
  Zg330KernelTensor out = { ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_FP32, 1, 35, 2, 3, 0, NULL, f, sizeof f };

  tt_fill (in, rand);
  in->scales[34] = 0.125f;
  g_assert_true (zg330_kernel_dequantize (&in->t, &out, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < 35; c++)
    for (guint h = 0; h < 2; h++)
      for (guint w = 0; w < 3; w++)
        g_assert_cmpfloat (f[(h * 3 + w) * 35 + c], ==, (float) tt_get (in, 0, c, h, w) * in->scales[c]);
  out.dtype = ZG330_KERNEL_DTYPE_SINT8;
  g_assert_false (zg330_kernel_dequantize (&in->t, &out, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "must be fp32"));
}

void
test_kernels_add_layout (void)
{
  g_test_add_func ("/kernels/concat/copies-aligned-blocks", test_concat_byte_copy);
  g_test_add_func ("/kernels/concat/requantises-unaligned-channels", test_concat_requantises_unaligned);
  g_test_add_func ("/kernels/concat/rejects-mismatches", test_concat_rejects);
  g_test_add_func ("/kernels/upsample/nearest-integer-factor", test_upsample_nearest);
  g_test_add_func ("/kernels/reshape/byte-copy-and-rejects", test_reshape_byte_copy);
  g_test_add_func ("/kernels/cast/uint8-image-to-sint8", test_cast_uint8_to_int8);
  g_test_add_func ("/kernels/cast/rescales-and-rejects", test_cast_rescale_and_rejects);
  g_test_add_func ("/kernels/layout/pack-unpack-int8-and-float", test_layout_pack_unpack);
  g_test_add_func ("/kernels/layout/dequantize-to-float-nhwc", test_dequantize_to_float);
}
