/* test-kernels-fp16.c: IEEE half conversions, against known values and every half. */
#include "zw-test-kernel-ref.h"

#include <math.h>
#include <string.h>

static void
test_fp16_known_values (void)
{
  static const struct { guint16 h; float f; } cases[] = {
    { 0x3c00, 1.0f }, { 0xc000, -2.0f }, { 0x7bff, 65504.0f }, { 0x0001, 5.9604644775390625e-8f },
    { 0x0400, 6.103515625e-5f }, { 0x0000, 0.0f }, { 0x3555, 0.333251953125f },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpfloat (zw_fp16_to_float (cases[i].h), ==, cases[i].f);
      g_assert_cmphex (zw_float_to_fp16 (cases[i].f), ==, cases[i].h);
    }
  g_assert_true (isinf (zw_fp16_to_float (0x7c00)));
  g_assert_true (isnan (zw_fp16_to_float (0x7e00)));
  g_assert_cmphex (zw_float_to_fp16 (1.0f + 1.0f / 2048), ==, 0x3c00);      /* tie: even */
  g_assert_cmphex (zw_float_to_fp16 (1.0f + 3.0f / 2048), ==, 0x3c02);      /* tie: even */
  g_assert_cmphex (zw_float_to_fp16 (65520.0f), ==, 0x7c00);                /* overflow */
  g_assert_cmphex (zw_float_to_fp16 (65519.0f), ==, 0x7bff);
  g_assert_cmphex (zw_float_to_fp16 (-INFINITY), ==, 0xfc00);
  g_assert_cmphex (zw_float_to_fp16 (NAN) & 0x7c00, ==, 0x7c00);
  g_assert_cmphex (zw_float_to_fp16 (NAN) & 0x3ff, !=, 0);
  g_assert_cmphex (zw_float_to_fp16 (3.0e-8f), ==, 0x0001);                 /* > half ulp */
  g_assert_cmphex (zw_float_to_fp16 (2.9802322387695312e-8f), ==, 0x0000);  /* tie: even */
}

static void
test_fp16_roundtrip_all (void)
{
  guint8 bytes[2 * 4];
  float f[4];

  for (guint h = 0; h < 0x10000; h++)
    {
      float v = zw_fp16_to_float ((guint16) h);
      if (isnan (v))
        continue;
      g_assert_cmphex (zw_float_to_fp16 (v), ==, h);
    }
  f[0] = 1.5f; f[1] = -0.25f; f[2] = 1024.0f; f[3] = 0.0f;
  zw_float_array_to_fp16 (f, 4, bytes);
  g_assert_cmphex (bytes[0], ==, 0x00);
  g_assert_cmphex (bytes[1], ==, 0x3e);
  memset (f, 0, sizeof f);
  zw_fp16_array_to_float (bytes + 2, 3, f);   /* odd alignment on purpose */
  g_assert_cmpfloat (f[0], ==, -0.25f);
  g_assert_cmpfloat (f[1], ==, 1024.0f);
  g_assert_cmpfloat (f[2], ==, 0.0f);
}

void
test_kernels_add_fp16 (void)
{
  g_test_add_func ("/kernels/fp16/known-values", test_fp16_known_values);
  g_test_add_func ("/kernels/fp16/roundtrip-every-half", test_fp16_roundtrip_all);
}
