/* test-kernels-add.c: the requantising add, its table path and every byte pair. */
#include "zw-test-kernel-ref.h"
#include <string.h>

static void
test_add_requantises (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20);
  /* Same layout (flat fast path) and mixed layouts (per element). */
  for (guint variant = 0; variant < 2; variant++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 5, 9, 32, 0.0668f);
      g_autoptr (TT) b = tt_new (variant ? ZG330_KERNEL_LAYOUT_NHWC : ZG330_KERNEL_LAYOUT_NCHWC,
                                 ZG330_KERNEL_DTYPE_SINT8, 1, 64, 5, 9, 32, 0.1174f);
      g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 5, 9, 32, 0.137f);
      tt_fill (a, rand);
      tt_fill (b, rand);
      if (variant)
        o->scales[3] = 0.2f;   /* per-channel output scale */
      g_assert_true (zg330_kernel_add (&a->t, &b->t, &o->t, &error));
      g_assert_no_error (error);
      for (guint c = 0; c < 64; c++)
        for (guint h = 0; h < 5; h++)
          for (guint w = 0; w < 9; w++)
            {
              double v = (double) tt_get (a, 0, c, h, w) * ((double) a->scales[c] / o->scales[c]);
              v = v + (double) tt_get (b, 0, c, h, w) * ((double) b->scales[c] / o->scales[c]);
              g_assert_cmpint (tt_get (o, 0, c, h, w), ==, ref_round (v, ZG330_KERNEL_DTYPE_SINT8));
            }
    }
}

/* A flat add large enough for the table path (2^18 bytes and more), every dtype pair,
 * against the rule element by element. */
void
test_add_large_flat (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (25);
  static const Zg330KernelDType dt[] = { ZG330_KERNEL_DTYPE_SINT8, ZG330_KERNEL_DTYPE_UINT8 };

  for (guint v = 0; v < 4; v++)
    {
      g_autoptr (GError) error = NULL;
      Zg330KernelDType da = dt[v & 1], db = dt[v >> 1];
      g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, da, 2, 64, 40, 52, 32, 0.0668f);
      g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, db, 2, 64, 40, 52, 32, 0.1174f);
      g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, v == 3 ? ZG330_KERNEL_DTYPE_UINT8 : ZG330_KERNEL_DTYPE_SINT8,
                                 2, 64, 40, 52, 32, 0.137f);
      gsize bad = 0;

      g_assert_cmpuint (o->t.size, >=, (gsize) 1 << 18);
      tt_fill (a, rand);
      tt_fill (b, rand);
      g_assert_true (zg330_kernel_add (&a->t, &b->t, &o->t, &error));
      g_assert_no_error (error);
      for (guint n = 0; n < 2; n++)
        for (guint c = 0; c < 64; c++)
          for (guint h = 0; h < 40; h++)
            for (guint w = 0; w < 52; w++)
              {
                double x = (double) tt_get (a, n, c, h, w) * ((double) a->scales[c] / o->scales[c]);
                x = x + (double) tt_get (b, n, c, h, w) * ((double) b->scales[c] / o->scales[c]);
                bad += tt_get (o, n, c, h, w) != ref_round (x, o->t.dtype);
              }
      g_assert_cmpuint (bad, ==, 0);
    }
}

/* Every pair of bytes (each four times: 2^18 bytes, so the generic loops take their table)
 * for every dtype pair and scale ratios with exact ties (0.5, 0.25), saturation (4) and
 * sums that a fused multiply-add would round otherwise (0.369 / 0.43 and 0.568 / 0.43: 12
 * sint8 pairs), on the generic and the AVX-512 paths, against the rule. */
static void
test_add_every_byte_pair (void)
{
  static const Zg330KernelDType dt[] = { ZG330_KERNEL_DTYPE_SINT8, ZG330_KERNEL_DTYPE_UINT8 };
  static const float sc[][3] = { { 0.0668f, 0.1174f, 0.137f }, { 0.5f, 0.25f, 1.0f }, { 1.0f, 1.0f, 0.25f },
                                 { 3.0f, 0.001f, 1.0f },
                                 { 0.369f, 0.568f, 0.430f } };

  /* every mode (plain C and its table, AVX2, AVX-512), with 4 channels (n = 262144: the
   * plain loop's table) and 1 (65536 bytes, then 255 x 255: a tail past the last 16) */
  for (guint v = 0; v < 8; v++)
    for (guint k = 0; k < G_N_ELEMENTS (sc); k++)
      for (guint mode = 0; mode < 3; mode++)
        for (guint shape = 0; shape < 3; shape++)
          {
            g_autoptr (GError) error = NULL;
            Zg330KernelDType da = dt[v & 1], db = dt[(v >> 1) & 1], dout = dt[v >> 2];
            const guint c = shape == 0 ? 4 : 1, hw = shape == 2 ? 255 : 256;
            g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NHWC, da, 1, c, hw, hw, 0, sc[k][0]);
            g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NHWC, db, 1, c, hw, hw, 0, sc[k][1]);
            g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NHWC, dout, 1, c, hw, hw, 0, sc[k][2]);
            const double ra = (double) sc[k][0] / sc[k][2], rb = (double) sc[k][1] / sc[k][2];
            gsize bad = 0;

            if (!use_mode (mode))
              break;
            for (gsize i = 0; i < a->t.size; i++)
              {
                ((guint8 *) a->t.data)[i] = (guint8) (i / c >> 8);
                ((guint8 *) b->t.data)[i] = (guint8) (i / c);
              }
            g_assert_true (zg330_kernel_add (&a->t, &b->t, &o->t, &error));
            zg330_kernel_set_generic_only (FALSE);
            g_assert_no_error (error);
            for (gsize i = 0; i < o->t.size; i++)
              {
                guint8 x = (guint8) (i / c >> 8), y = (guint8) (i / c), r = ((guint8 *) o->t.data)[i];
                double e = (double) (da == ZG330_KERNEL_DTYPE_UINT8 ? x : (gint8) x) * ra;
                e = e + (double) (db == ZG330_KERNEL_DTYPE_UINT8 ? y : (gint8) y) * rb;
                bad += (dout == ZG330_KERNEL_DTYPE_UINT8 ? (gint) r : (gint) (gint8) r) != ref_round (e, dout);
              }
            g_assert_cmpuint (bad, ==, 0);
          }
  zg330_kernel_set_generic_only (FALSE);
}

static void
test_add_rejects (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) a = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 4, 4, 32, 0.1f);
  g_autoptr (TT) b = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 4, 5, 32, 0.1f);
  g_autoptr (TT) o = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 32, 4, 4, 32, 0.1f);

  g_assert_false (zg330_kernel_add (&a->t, &b->t, &o->t, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "input b w=5 != output w=4"));
}

void
test_kernels_add_add (void)
{
  g_test_add_func ("/kernels/add/requantises-both-inputs", test_add_requantises);
  g_test_add_func ("/kernels/add/large-flat-table", test_add_large_flat);
  g_test_add_func ("/kernels/add/every-byte-pair", test_add_every_byte_pair);
  g_test_add_func ("/kernels/add/rejects-shape-mismatch", test_add_rejects);
}
