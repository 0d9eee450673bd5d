/* test-kernels-maxpool.c: max pooling against the naive max: padding never wins, random shapes. */
#include "zw-test-kernel-ref.h"
#include <string.h>

static void
ref_maxpool_check (const TT *in, const TT *out, guint k, guint s, guint p)
{
  for (guint c = 0; c < in->t.c; c++)
    for (guint oh = 0; oh < out->t.h; oh++)
      for (guint ow = 0; ow < out->t.w; ow++)
        {
          gint best = G_MININT;
          for (guint r = 0; r < k; r++)
            for (guint q = 0; q < k; q++)
              {
                gint h = (gint) (oh * s + r) - (gint) p, w = (gint) (ow * s + q) - (gint) p;
                if (h >= 0 && w >= 0 && h < (gint) in->t.h && w < (gint) in->t.w)
                  best = MAX (best, tt_get (in, 0, c, h, w));
              }
          g_assert_cmpint (tt_get (out, 0, c, oh, ow), ==, best);
        }
}

static void
test_maxpool_padding_never_wins (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (23);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 40, 11, 20, 32, 0.045f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 40, 11, 20, 32, 0.045f);
  Zg330PoolParams p = { 5, 5, 1, 1, 2, 2 };

  /* All negative: a padding value of 0 would win everywhere near the border. */
  for (guint c = 0; c < 40; c++)
    for (guint h = 0; h < 11; h++)
      for (guint w = 0; w < 20; w++)
        tt_set (in, 0, c, h, w, g_rand_int_range (rand, -128, 0));
  g_assert_true (zg330_kernel_maxpool2d (&in->t, &p, &out->t, &error));
  g_assert_no_error (error);
  ref_maxpool_check (in, out, 5, 1, 2);
  assert_padding_zero (out);
}

/* Random pools: layouts (the NCHWc32 block path and the others), both dtypes, windows
 * 1-5, strides 1-3, padding, a requantising output, batch 2; against the naive max. */
void
test_maxpool_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (26);
  static const guint blocks[] = { 0, 4, 32, 32 };

  for (guint i = 0; i < 40; i++)
    {
      g_autoptr (GError) error = NULL;
      guint kin = blocks[g_rand_int_range (rand, 0, 4)], kout = g_rand_boolean (rand) ? kin : blocks[g_rand_int_range (rand, 0, 4)];
      Zg330KernelDType dt = g_rand_boolean (rand) ? ZG330_KERNEL_DTYPE_SINT8 : ZG330_KERNEL_DTYPE_UINT8;
      guint C = (guint) g_rand_int_range (rand, 1, 90), k = (guint) g_rand_int_range (rand, 1, 6);
      guint st = (guint) g_rand_int_range (rand, 1, 4), pad = (guint) g_rand_int_range (rand, 0, (gint) k);
      guint H = k + (guint) g_rand_int_range (rand, 0, 12), W = k + (guint) g_rand_int_range (rand, 0, 15);
      guint far = (guint) g_rand_int_range (rand, 0, (gint) pad + 1);
      guint OH = (H + pad + far - k) / st + 1, OW = (W + pad + far - k) / st + 1;
      gboolean rescale = g_rand_boolean (rand);
      g_autoptr (TT) in = tt_new (kin ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC, dt, 2, C, H, W, kin, 0.05f);
      g_autoptr (TT) out = tt_new (kout ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC, dt, 2, C, OH, OW, kout,
                                   rescale ? 0.07f : 0.05f);
      Zg330PoolParams p = { k, k, st, st, pad, pad };
      gsize bad = 0;

      tt_fill (in, rand);
      g_assert_true (zg330_kernel_maxpool2d (&in->t, &p, &out->t, &error));
      g_assert_no_error (error);
      for (guint n = 0; n < 2; n++)
        for (guint c = 0; c < C; c++)
          for (guint oh = 0; oh < OH; oh++)
            for (guint ow = 0; ow < OW; ow++)
              {
                gint best = G_MININT, want;
                for (guint r = 0; r < k; r++)
                  for (guint q = 0; q < k; q++)
                    {
                      gint h = (gint) (oh * st + r) - (gint) pad, w = (gint) (ow * st + q) - (gint) pad;
                      if (h >= 0 && w >= 0 && h < (gint) H && w < (gint) W)
                        best = MAX (best, tt_get (in, n, c, h, w));
                    }
                want = rescale ? ref_round ((double) best * ((double) 0.05f / (double) 0.07f), dt) : best;
                bad += tt_get (out, n, c, oh, ow) != want;
              }
      g_assert_cmpuint (bad, ==, 0);
      assert_padding_zero (out);
    }
}

static void
test_maxpool_stride2 (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (24);
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 5, 9, 8, 0, 0.1f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 5, 5, 4, 0, 0.1f);
  Zg330PoolParams p = { 3, 3, 2, 2, 1, 1 };
  Zg330PoolParams bad = { 3, 3, 2, 2, 3, 1 };

  tt_fill (in, rand);
  g_assert_true (zg330_kernel_maxpool2d (&in->t, &p, &out->t, &error));
  g_assert_no_error (error);
  ref_maxpool_check (in, out, 3, 2, 1);

  g_assert_false (zg330_kernel_maxpool2d (&in->t, &bad, &out->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "padding 3x1"));
  g_clear_error (&error);
  p.stride_h = 1;
  g_assert_false (zg330_kernel_maxpool2d (&in->t, &p, &out->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "output h=5"));
  g_clear_error (&error);
  out->t.c = 4;
  p.stride_h = 2;
  g_assert_false (zg330_kernel_maxpool2d (&in->t, &p, &out->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "input c=5 != output c=4"));
}

void
test_kernels_add_maxpool (void)
{
  g_test_add_func ("/kernels/maxpool/padding-never-wins", test_maxpool_padding_never_wins);
  g_test_add_func ("/kernels/maxpool/stride2-and-rejects", test_maxpool_stride2);
  g_test_add_func ("/kernels/maxpool/random-shapes", test_maxpool_random);
}
