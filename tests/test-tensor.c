/* test-tensor.c — XrtTensor: standalone types, memory, readiness, copies, reshape, quantised <-> float. */
#include <math.h>
#include <string.h>
#include <glib.h>

#include "base/zw-half.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"
#include "xrt/xrt-mem.h"
#include "xrt/xrt-tensor.h"

static const gint64 nchw[] = { 1, 3, 2, 2 };
static const float nchw_scales[] = { 0.5f, 0.25f, 0.0078125f * 3.0f };

/* A standalone int8 NCHW [1,3,2,2] type with per-channel scales along C. */
static XirValue *
int8_nchw_type (const gint64 *zero_points, guint n_zero_points)
{
  g_autoptr (GError) error = NULL;
  XirValue *v = xrt_tensor_make_dtype ("@sint(8)", "NCHW", nchw, 4, 1, nchw_scales, 3, zero_points, n_zero_points,
                                      &error);
  g_assert_no_error (error);
  g_assert_nonnull (v);
  g_assert_true (v->element.quantized);
  g_assert_cmpint (v->element.kind, ==, XIR_ELEMENT_QUANTIZED);
  g_assert_cmpuint (v->storage_bytes, ==, 12);
  g_assert_cmpint (v->v_id, ==, -1);
  return v;
}

static XirValue *
plain_type (const char *storage, const char *layout, const gint64 *shape, guint rank)
{
  g_autoptr (GError) error = NULL;
  XirValue *v = xrt_tensor_make_dtype (storage, layout, shape, rank, -1, NULL, 0, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

static void
assert_bytes (const XrtTensor *t, const guint8 *expect, gsize n)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) b = xrt_tensor_get_bytes (t, &error);
  gsize size = 0;
  const guint8 *p;

  g_assert_no_error (error);
  p = g_bytes_get_data (b, &size);
  g_assert_cmpmem (p, size, expect, n);
}

/* ---- quantised <-> float ------------------------------------------------------------- */

static void
check_int8_round_trip (const gint64 *zps, guint n_zps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirValue) type = int8_nchw_type (zps, n_zps);
  g_autoptr (XrtTensor) q = NULL, f = NULL, back = NULL;
  const XirValue *fv;
  guint8 data[12];
  const float *fl;
  gsize fsize = 0;

  for (guint i = 0; i < 12; i++)
    data[i] = (guint8) (gint8) ((gint) i * 23 - 128);   /* -128 .. 125, both signs */
  q = xrt_tensor_new_host_for_dtype (type, data, sizeof data, &error);
  g_assert_no_error (error);
  f = xrt_tensor_dequantize (q, &error);
  g_assert_no_error (error);
  fv = xrt_tensor_get_value (f);
  g_assert_cmpint (fv->element.kind, ==, XIR_ELEMENT_PLAIN);
  g_assert_cmpint (fv->element.storage.kind, ==, XIR_SCALAR_FP);
  g_assert_cmpuint (fv->element.storage.bits, ==, 32);
  g_assert_cmpuint (fv->rank, ==, 4);
  g_assert_cmpmem (fv->shape, sizeof (gint64) * 4, nchw, sizeof nchw);
  g_assert_cmpstr (fv->layout.text, ==, "NCHW");
  g_assert_cmpuint (xrt_tensor_get_size (f), ==, 48);
  fl = xrt_tensor_get_host_data (f, &fsize);
  g_assert_nonnull (fl);
  g_assert_cmpuint (fsize, ==, 48);
  for (guint i = 0; i < 12; i++)
    {
      guint c = i / 4;   /* NCHW [1,3,2,2]: 4 elements per channel */
      gint64 zp = n_zps == 0 ? 0 : n_zps == 1 ? zps[0] : zps[c];
      float expect = (float) ((double) ((gint8) data[i] - zp) * (double) nchw_scales[c]);
      g_assert_cmpfloat (fl[i], ==, expect);
    }
  back = xrt_tensor_quantize (f, type, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_get_value (back)->element.quantized);
  assert_bytes (back, data, sizeof data);
}

static void
test_int8_per_channel_round_trip (void)
{
  static const gint64 zps[] = { 1, -2, 3 };
  static const gint64 zp1[] = { 5 };

  check_int8_round_trip (NULL, 0);
  check_int8_round_trip (zps, 3);
  check_int8_round_trip (zp1, 1);
}

static void
test_quantize_rounds_half_even_and_saturates (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 shape[] = { 9 };
  static const float one[] = { 1.0f };
  static const float x[] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300.0f, -300.0f, NAN, 126.5f };
  static const guint8 expect[] = { 0, 2, 2, 0, (guint8) -2, 127, (guint8) -128, 0, 126 };
  g_autoptr (XirValue) ft = plain_type ("@fp(32)", "*", shape, 1);
  g_autoptr (XirValue) qt = xrt_tensor_make_dtype ("@sint(8)", NULL, shape, 1, -1, one, 1, NULL, 0, &error);
  g_autoptr (XrtTensor) f = NULL, q = NULL, i16 = NULL;
  g_autoptr (XirValue) qt16 = NULL;
  static const float two[] = { 2.0f };
  guint8 b16[18];

  g_assert_no_error (error);
  f = xrt_tensor_new_host_for_dtype (ft, (const guint8 *) x, sizeof x, &error);
  g_assert_no_error (error);
  q = xrt_tensor_quantize (f, qt, &error);
  g_assert_no_error (error);
  assert_bytes (q, expect, sizeof expect);

  /* int16, scale 2: 300/2 = 150, -300/2 = -150, 2.5/2 = 1.25 -> 1, 126.5/2 = 63.25 -> 63 */
  qt16 = xrt_tensor_make_dtype ("@sint(16)", NULL, shape, 1, 0, two, 1, NULL, 0, &error);
  g_assert_no_error (error);
  i16 = xrt_tensor_quantize (f, qt16, &error);
  g_assert_no_error (error);
  {
    static const gint16 e16[] = { 0, 1, 1, 0, -1, 150, -150, 0, 63 };   /* 0.25->0, 0.75->1, -0.75->-1 */
    for (guint i = 0; i < 9; i++)
      {
        b16[2 * i] = (guint8) (guint16) e16[i];
        b16[2 * i + 1] = (guint8) ((guint16) e16[i] >> 8);
      }
  }
  assert_bytes (i16, b16, sizeof b16);

  /* a quantised tensor is refused as the source of quantize */
  g_assert_null (xrt_tensor_quantize (q, qt, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "dequantize it first"));
  g_clear_error (&error);
  /* element counts must match, and the error names both shapes */
  {
    static const gint64 other[] = { 2, 4 };
    g_autoptr (XirValue) wrong = xrt_tensor_make_dtype ("@sint(8)", "NC", other, 2, -1, one, 1, NULL, 0, &error);
    g_assert_no_error (error);
    g_assert_null (xrt_tensor_quantize (f, wrong, &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "[9]"));
    g_assert_nonnull (strstr (error->message, "[2, 4]"));
    g_clear_error (&error);
  }
}

/* NormalizedQuantizedType with exponent scales m×2^-e: the scale is m×2^-e, not the float s. */
static void
test_int16_exponent_scales (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 shape[] = { 2, 2 };
  float s[] = { 0.377f, 0.27f };
  gint32 m[] = { 3, 4 }, e[] = { 3, 4 };
  float ratios[] = { 1.1f, 2.2f };
  XirElementType el = { 0 };
  g_autoptr (XirValue) type = NULL;
  g_autoptr (XrtTensor) q = NULL, f = NULL, back = NULL;
  const gint16 data[] = { 100, -7, -32768, 32767 };
  const float *fl;

  el.kind = XIR_ELEMENT_NORMALIZED_QUANTIZED;
  el.storage.kind = XIR_SCALAR_SINT;
  el.storage.bits = 16;
  el.expressed.kind = XIR_SCALAR_FP;
  el.expressed.bits = 32;
  el.scale_axis = -1;
  el.n_scales = 2;
  el.scales = s;
  el.scale_mantissas = m;
  el.scale_exponents = e;
  el.norm_axis = -1;
  el.n_norm_ratios = 2;
  el.norm_ratios = ratios;
  type = xir_value_new (&el, "NC", shape, 2, &error);
  g_assert_no_error (error);
  g_assert_true (type->element.quantized);
  type->v_id = 77;
  q = xrt_tensor_new_host_for_dtype (type, (const guint8 *) data, sizeof data, &error);
  g_assert_no_error (error);
  f = xrt_tensor_dequantize (q, &error);
  g_assert_no_error (error);
  g_assert_cmpint (xrt_tensor_get_value (f)->v_id, ==, 77);
  fl = xrt_tensor_get_host_data (f, NULL);
  g_assert_cmpfloat (fl[0], ==, 100.0f * 3.0f / 8.0f);
  g_assert_cmpfloat (fl[1], ==, -7.0f * 4.0f / 16.0f);
  g_assert_cmpfloat (fl[2], ==, -32768.0f * 3.0f / 8.0f);
  g_assert_cmpfloat (fl[3], ==, 32767.0f * 4.0f / 16.0f);
  back = xrt_tensor_quantize (f, type, &error);
  g_assert_no_error (error);
  assert_bytes (back, (const guint8 *) data, sizeof data);
}

/* NCHWc4 with 6 real channels in 2 blocks of 4: channel = C*4 + c, the padding takes the last scale. */
static void
test_blocked_layout_channels (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 shape[] = { 1, 2, 1, 1, 4 };
  static const float s[] = { 1.0f, 2.0f, 4.0f, 8.0f, 16.0f, 32.0f };
  static const guint8 data[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  static const float seven[] = { 1, 2, 3, 4, 5, 6, 7 };
  g_autoptr (XirValue) type = xrt_tensor_make_dtype ("@sint(8)", "NCHWc4", shape, 5, -1, s, 6, NULL, 0, &error);
  g_autoptr (XirValue) bad = NULL;
  g_autoptr (XrtTensor) q = NULL, f = NULL;
  const float *fl;

  g_assert_no_error (error);
  q = xrt_tensor_new_host_for_dtype (type, data, sizeof data, &error);
  g_assert_no_error (error);
  f = xrt_tensor_dequantize (q, &error);
  g_assert_no_error (error);
  fl = xrt_tensor_get_host_data (f, NULL);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpfloat (fl[i], ==, s[MIN (i, 5)]);
  /* 7 scales where 1, 5..8 would do: refused at dequantize, naming the field */
  bad = xrt_tensor_make_dtype ("@sint(8)", "NCHW", nchw, 4, 1, seven, 7, NULL, 0, &error);
  g_assert_no_error (error);
  g_clear_pointer (&q, xrt_tensor_unref);
  q = xrt_tensor_new_host_for_dtype (bad, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_null (xrt_tensor_dequantize (q, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "7 scales"));
  g_assert_nonnull (strstr (error->message, "[1, 3, 2, 2]"));
  g_assert_nonnull (strstr (error->message, "(scales)"));
}

static void
test_half_float_round_trip (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 shape[] = { 2, 3 };
  static const float x[] = { 1.0f, -2.5f, 65504.0f, 0.1f, 1e-7f, 70000.0f };
  g_autoptr (XirValue) ft = plain_type ("@fp(32)", "NC", shape, 2);
  g_autoptr (XrtTensor) f = NULL, h = NULL, back = NULL, h2 = NULL;
  const XirValue *hv;
  guint8 expect[12];
  const float *fl;

  f = xrt_tensor_new_host_for_dtype (ft, (const guint8 *) x, sizeof x, &error);
  g_assert_no_error (error);
  h = xrt_tensor_to_half (f, &error);
  g_assert_no_error (error);
  hv = xrt_tensor_get_value (h);
  g_assert_cmpint (hv->element.storage.kind, ==, XIR_SCALAR_FP);
  g_assert_cmpuint (hv->element.storage.bits, ==, 16);
  g_assert_cmpuint (xrt_tensor_get_size (h), ==, 12);
  zw_float_array_to_fp16 (x, 6, expect);
  assert_bytes (h, expect, sizeof expect);
  g_assert_cmpuint (expect[4] | (expect[5] << 8), ==, 0x7bff);   /* 65504: the largest half */
  back = xrt_tensor_dequantize (h, &error);
  g_assert_no_error (error);
  fl = xrt_tensor_get_host_data (back, NULL);
  g_assert_cmpfloat (fl[0], ==, 1.0f);
  g_assert_cmpfloat (fl[1], ==, -2.5f);
  g_assert_cmpfloat (fl[2], ==, 65504.0f);
  g_assert_cmpfloat (fl[3], ==, zw_fp16_to_float (zw_float_to_fp16 (0.1f)));
  g_assert_cmpfloat (fl[4], ==, zw_fp16_to_float (zw_float_to_fp16 (1e-7f)));   /* a subnormal half */
  g_assert_true (isinf (fl[5]));
  /* half -> float -> half keeps the bytes */
  h2 = xrt_tensor_to_half (back, &error);
  g_assert_no_error (error);
  assert_bytes (h2, expect, sizeof expect);
}

/* ---- reshape and dtype --------------------------------------------------------------- */

static void
test_reshape (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 flat[] = { 12 }, wrong[] = { 5 }, neg[] = { -1, 12 };
  g_autoptr (XirValue) type = plain_type ("@sint(8)", "NCHW", nchw, 4);
  g_autoptr (XrtTensor) t = NULL, r = NULL;
  guint rank = 0;
  const gint64 *shape;
  guint8 *p;

  type->v_id = 42;
  t = xrt_tensor_new_host_for_dtype (type, NULL, 0, &error);
  g_assert_no_error (error);
  r = xrt_tensor_reshape (t, flat, 1, &error);
  g_assert_no_error (error);
  shape = xrt_tensor_get_shape (r, &rank);
  g_assert_cmpuint (rank, ==, 1);
  g_assert_cmpint (shape[0], ==, 12);
  g_assert_cmpstr (xrt_tensor_get_value (r)->layout.text, ==, "*");
  g_assert_cmpint (xrt_tensor_get_value (r)->v_id, ==, 42);
  /* the bytes are shared */
  g_assert_true (xrt_tensor_get_chunk (r) == xrt_tensor_get_chunk (t));
  p = xrt_tensor_get_host_data (t, NULL);
  p[11] = 0x5a;
  g_assert_cmpuint (((guint8 *) xrt_tensor_get_host_data (r, NULL))[11], ==, 0x5a);

  g_assert_null (xrt_tensor_reshape (t, wrong, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "v_id 42"));
  g_assert_nonnull (strstr (error->message, "[1, 3, 2, 2] (12 bytes)"));
  g_assert_nonnull (strstr (error->message, "[5] (5 bytes)"));
  g_assert_nonnull (strstr (error->message, "shape"));
  g_clear_error (&error);
  g_assert_null (xrt_tensor_reshape (t, neg, 2, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "[-1, 12]"));
  g_clear_error (&error);

  /* a quantised type keeps its scales; its scale axis must still be inside the new shape */
  {
    g_autoptr (XirValue) qt = int8_nchw_type (NULL, 0);
    g_autoptr (XrtTensor) q = xrt_tensor_new_host_for_dtype (qt, NULL, 0, &error);
    static const gint64 three[] = { 3, 4 };
    g_autoptr (XrtTensor) q2 = NULL;
    g_assert_no_error (error);
    q2 = xrt_tensor_reshape (q, three, 2, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (xrt_tensor_get_value (q2)->element.n_scales, ==, 3);
    g_assert_null (xrt_tensor_reshape (q, flat, 1, &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "scale_axis"));
  }
}

static void
test_with_dtype (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 s34[] = { 3, 4 }, s12[] = { 12 };
  g_autoptr (XirValue) i8 = plain_type ("@sint(8)", "NCHW", nchw, 4);
  g_autoptr (XirValue) u8 = plain_type ("@uint(8)", "NC", s34, 2);
  g_autoptr (XirValue) f32 = plain_type ("@fp(32)", NULL, s12, 1);
  g_autoptr (XrtTensor) t = NULL, u = NULL;
  static const guint8 data[12] = { 0xff, 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  g_autoptr (XrtTensor) f = NULL;
  const float *fl;

  i8->v_id = 9;
  t = xrt_tensor_new_host_for_dtype (i8, data, sizeof data, &error);
  g_assert_no_error (error);
  u = xrt_tensor_with_dtype (t, u8, &error);
  g_assert_no_error (error);
  g_assert_cmpint (xrt_tensor_get_value (u)->v_id, ==, 9);
  g_assert_cmpint (xrt_tensor_get_value (u)->element.storage.kind, ==, XIR_SCALAR_UINT);
  f = xrt_tensor_dequantize (u, &error);   /* plain integers convert as they are */
  g_assert_no_error (error);
  fl = xrt_tensor_get_host_data (f, NULL);
  g_assert_cmpfloat (fl[0], ==, 255.0f);
  g_assert_cmpfloat (fl[1], ==, 128.0f);
  g_clear_pointer (&f, xrt_tensor_unref);
  f = xrt_tensor_dequantize (t, &error);
  g_assert_no_error (error);
  fl = xrt_tensor_get_host_data (f, NULL);
  g_assert_cmpfloat (fl[0], ==, -1.0f);
  g_assert_cmpfloat (fl[1], ==, -128.0f);

  g_assert_null (xrt_tensor_with_dtype (t, f32, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "v_id 9"));
  g_assert_nonnull (strstr (error->message, "@fp(32)"));
  g_assert_nonnull (strstr (error->message, "@sint(8)"));
  g_assert_nonnull (strstr (error->message, "48 bytes"));
  g_assert_nonnull (strstr (error->message, "12 bytes"));
}

/* ---- regions ---------------------------------------------------------------------------- */

static void
test_to_etm_and_back (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  static const gint64 shape[] = { 4, 250 };
  g_autoptr (XirValue) type = plain_type ("@sint(16)", "NC", shape, 2);
  g_autoptr (XrtTensor) host = NULL, etm = NULL, ocm = NULL, back = NULL, same = NULL, clone = NULL;
  XrtMemRegion *etm_region, *ocm_region, *host_region = xrt_host_mem_region_get_default ();
  guint8 data[2000];
  gsize size = 1;

  g_assert_no_error (error);
  etm_region = xrt_device_get_mem_region (dev, "ETM", &error);
  g_assert_no_error (error);
  ocm_region = xrt_device_get_mem_region (dev, "OCM", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guint8) (i * 37 + 11);
  host = xrt_tensor_new_host_for_dtype (type, data, sizeof data, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_is_on (host, host_region));

  etm = xrt_tensor_to (host, etm_region, &error);
  g_assert_no_error (error);
  g_assert_true (etm != host);
  g_assert_true (xrt_tensor_is_on (etm, etm_region));
  g_assert_true (xrt_tensor_get_region (etm) == etm_region);
  g_assert_true (xrt_tensor_is_ready (etm));
  g_assert_null (xrt_tensor_get_host_data (etm, &size));   /* device memory: no zero-copy view */
  g_assert_cmpuint (size, ==, 0);
  assert_bytes (etm, data, sizeof data);
  /* already there: the vendor returns the tensor itself */
  same = xrt_tensor_to (etm, etm_region, &error);
  g_assert_no_error (error);
  g_assert_true (same == etm);

  ocm = xrt_tensor_to (etm, ocm_region, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_is_on (ocm, ocm_region));
  assert_bytes (ocm, data, sizeof data);

  back = xrt_tensor_to (ocm, host_region, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_is_on (back, host_region));
  g_assert_cmpmem (xrt_tensor_get_host_data (back, NULL), 2000, data, sizeof data);
  g_assert_cmpuint (xrt_tensor_get_value (back)->element.storage.bits, ==, 16);

  /* a clone in ETM: new memory, same bytes, independent */
  clone = xrt_tensor_clone (etm, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_is_on (clone, etm_region));
  g_assert_true (xrt_tensor_get_chunk (clone) != xrt_tensor_get_chunk (etm));
  assert_bytes (clone, data, sizeof data);
  {
    static const guint8 zero = 0;
    g_assert_true (xrt_tensor_fill_bytes (clone, &zero, 1, &error));
    g_assert_no_error (error);
    assert_bytes (etm, data, sizeof data);
  }
  /* dequantize reads device memory */
  {
    g_autoptr (XrtTensor) f = xrt_tensor_dequantize (etm, &error);
    const float *fl;
    g_assert_no_error (error);
    g_assert_true (xrt_tensor_is_on (f, host_region));
    fl = xrt_tensor_get_host_data (f, NULL);
    g_assert_cmpfloat (fl[0], ==, (float) (gint16) (data[0] | (data[1] << 8)));
  }
}

static void
test_copy_from_bounds (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 s16[] = { 16 }, s8[] = { 8 };
  g_autoptr (XirValue) t16 = plain_type ("@uint(8)", "C", s16, 1);
  g_autoptr (XirValue) t8 = plain_type ("@uint(8)", "C", s8, 1);
  static const guint8 src_data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  guint8 expect[16] = { 0 };
  g_autoptr (XrtTensor) dst = NULL, src = NULL, empty = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XrtTensor) etm_src = NULL;

  g_assert_no_error (error);
  t16->v_id = 3;
  t8->v_id = 4;
  dst = xrt_tensor_new_host_for_dtype (t16, NULL, 0, &error);
  g_assert_no_error (error);
  src = xrt_tensor_new_host_for_dtype (t8, src_data, 8, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_copy_from (dst, 4, src, 2, 6, &error));
  g_assert_no_error (error);
  memcpy (expect + 4, src_data + 2, 6);
  assert_bytes (dst, expect, 16);

  /* across regions: from ETM */
  etm_src = xrt_tensor_to (src, xrt_device_get_mem_region (dev, "ETM", NULL), &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_copy_from (dst, 8, etm_src, 0, 8, &error));
  g_assert_no_error (error);
  memcpy (expect + 8, src_data, 8);
  assert_bytes (dst, expect, 16);

  g_assert_false (xrt_tensor_copy_from (dst, 12, src, 0, 8, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_assert_nonnull (strstr (error->message, "dest_offset 12"));
  g_assert_nonnull (strstr (error->message, "v_id 3"));
  g_assert_nonnull (strstr (error->message, "16 bytes"));
  g_clear_error (&error);
  g_assert_false (xrt_tensor_copy_from (dst, 0, src, 4, 8, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_assert_nonnull (strstr (error->message, "src_offset 4"));
  g_assert_nonnull (strstr (error->message, "v_id 4"));
  g_clear_error (&error);
  /* no wrap-around */
  g_assert_false (xrt_tensor_copy_from (dst, G_MAXUINT64 - 2, src, 0, 4, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  assert_bytes (dst, expect, 16);   /* nothing written by the failures */

  empty = xrt_tensor_new_for_dtype (t8, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_false (xrt_tensor_copy_from (dst, 0, empty, 0, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no memory"));
}

/* ---- readiness --------------------------------------------------------------------------- */

typedef struct {
  XrtTensor *t;
  guint8 data[8];
} Writer;

static gpointer
write_later (gpointer p)
{
  Writer *w = p;
  g_usleep (20 * 1000);
  g_assert_true (xrt_tensor_write (w->t, w->data, 8, NULL));
  return NULL;
}

static void
test_readiness (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 s8[] = { 8 };
  g_autoptr (XirValue) type = plain_type ("@uint(8)", NULL, s8, 1);
  g_autoptr (XrtTensor) t = NULL, made = NULL;
  g_autoptr (XrtMemChunk) chunk = NULL;
  Writer w = { NULL, { 1, 2, 3, 4, 5, 6, 7, 8 } };
  guint8 out[8];
  GThread *thread;

  type->v_id = 5;
  t = xrt_tensor_new_for_dtype (type, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_false (xrt_tensor_has_data (t));
  g_assert_false (xrt_tensor_is_ready (t));
  g_assert_null (xrt_tensor_get_chunk (t));
  g_assert_null (xrt_tensor_get_region (t));
  g_assert_cmpuint (xrt_tensor_get_size (t), ==, 8);
  g_assert_false (xrt_tensor_wait_ready (t, 10, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "v_id 5"));
  g_assert_nonnull (strstr (error->message, "no memory"));
  g_clear_error (&error);
  g_assert_false (xrt_tensor_read (t, out, 8, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (xrt_tensor_get_bytes (t, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* malloc_on gives memory, not readiness */
  g_assert_true (xrt_tensor_malloc_on (t, xrt_host_mem_region_get_default (), &error));
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_has_data (t));
  g_assert_false (xrt_tensor_is_ready (t));
  g_assert_false (xrt_tensor_malloc_on (t, xrt_host_mem_region_get_default (), &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "already has memory"));
  g_clear_error (&error);

  /* another thread writes it: the waiter wakes */
  w.t = t;
  thread = g_thread_new ("writer", write_later, &w);
  g_assert_true (xrt_tensor_wait_ready (t, 5000, &error));
  g_assert_no_error (error);
  g_thread_join (thread);
  assert_bytes (t, w.data, 8);
  xrt_tensor_set_ready (t, FALSE);
  g_assert_false (xrt_tensor_is_ready (t));
  g_assert_false (xrt_tensor_wait_ready (t, 5, &error));
  g_assert_nonnull (strstr (error->message, "was not written"));
  g_clear_error (&error);
  xrt_tensor_set_ready (t, TRUE);
  g_assert_true (xrt_tensor_wait_ready (t, 0, NULL));

  /* a tensor made with memory is ready; set_data on one without data makes it ready */
  chunk = xrt_mem_region_malloc (xrt_host_mem_region_get_default (), 32, TRUE, 64, &error);
  g_assert_no_error (error);
  made = xrt_tensor_new_for_dtype (type, chunk, 24, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_is_ready (made));
  g_assert_cmpuint (xrt_tensor_get_offset (made), ==, 24);
  g_assert_null (xrt_tensor_new_for_dtype (type, chunk, 25, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_assert_nonnull (strstr (error->message, "offset 25"));
  g_clear_error (&error);
  {
    g_autoptr (XrtTensor) later = xrt_tensor_new_for_dtype (type, NULL, 0, &error);
    g_assert_true (xrt_tensor_set_data (later, chunk, 8, &error));
    g_assert_no_error (error);
    g_assert_true (xrt_tensor_is_ready (later));
    g_assert_cmpuint (xrt_tensor_get_offset (later), ==, 8);
  }
}

/* ---- fill, bytes, boxed -------------------------------------------------------------------- */

static void
test_fill (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 s4[] = { 4 };
  static const guint8 ab[] = { 0xab, 0xcd };
  static const guint8 abab[] = { 0xab, 0xcd, 0xab, 0xcd, 0xab, 0xcd, 0xab, 0xcd };
  g_autoptr (XirValue) u16 = plain_type ("@uint(16)", NULL, s4, 1);
  g_autoptr (XirValue) f32 = plain_type ("@fp(32)", NULL, s4, 1);
  g_autoptr (XirValue) f16 = plain_type ("@fp(16)", NULL, s4, 1);
  g_autoptr (XirValue) q8 = int8_nchw_type (NULL, 0);
  g_autoptr (XrtTensor) t = xrt_tensor_new_host_for_dtype (u16, NULL, 0, NULL);
  g_autoptr (XrtTensor) f = xrt_tensor_new_host_for_dtype (f32, NULL, 0, NULL);
  g_autoptr (XrtTensor) h = xrt_tensor_new_host_for_dtype (f16, NULL, 0, NULL);
  g_autoptr (XrtTensor) q = xrt_tensor_new_host_for_dtype (q8, NULL, 0, NULL);
  float fl[4];
  guint8 hb[8], qb[12];

  g_assert_true (xrt_tensor_fill_bytes (t, ab, 2, &error));
  g_assert_no_error (error);
  assert_bytes (t, abab, 8);
  g_assert_false (xrt_tensor_fill_bytes (t, abab, 3, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "3 bytes"));
  g_assert_nonnull (strstr (error->message, "8 bytes"));
  g_clear_error (&error);

  g_assert_true (xrt_tensor_fill_float (f, 1.5, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    fl[i] = 1.5f;
  assert_bytes (f, (const guint8 *) fl, 16);
  g_assert_true (xrt_tensor_fill_float (h, 1.5, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    {
      hb[2 * i] = 0x00;
      hb[2 * i + 1] = 0x3e;   /* 1.5 = 0x3e00 */
    }
  assert_bytes (h, hb, 8);
  /* quantised: each channel's own scale, round half to even, saturation */
  g_assert_true (xrt_tensor_fill_float (q, 1.0, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 12; i++)
    qb[i] = (guint8) (gint8) MIN (127.0, rint (1.0 / nchw_scales[i / 4]));   /* 2, 4, 43 */
  g_assert_cmpuint (qb[0], ==, 2);
  g_assert_cmpuint (qb[4], ==, 4);
  g_assert_cmpuint (qb[8], ==, 43);
  assert_bytes (q, qb, 12);
  g_assert_true (xrt_tensor_fill_float (q, -1000.0, &error));
  for (guint i = 0; i < 12; i++)
    qb[i] = (guint8) -128;
  assert_bytes (q, qb, 12);
}

static void
test_bytes_and_boxed (void)
{
  g_autoptr (GError) error = NULL;
  static const gint64 s6[] = { 6 };
  static const guint8 data[6] = { 9, 8, 7, 6, 5, 4 };
  g_autoptr (XirValue) type = plain_type ("@uint(8)", NULL, s6, 1);
  g_autoptr (GBytes) in = g_bytes_new (data, 6), short_in = g_bytes_new (data, 5);
  g_autoptr (XrtTensor) t = NULL;
  XrtTensor *copy;
  XirValue *vcopy;
  guint8 *p;
  gsize size = 0;

  type->v_id = 12;
  t = xrt_tensor_new_from_bytes (type, in, &error);
  g_assert_no_error (error);
  assert_bytes (t, data, 6);
  g_assert_null (xrt_tensor_new_from_bytes (type, short_in, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "v_id 12"));
  g_assert_nonnull (strstr (error->message, "got 5 bytes"));
  g_assert_nonnull (strstr (error->message, "needs 6"));
  g_clear_error (&error);

  /* the zero-copy host view writes through */
  p = xrt_tensor_get_host_data (t, &size);
  g_assert_cmpuint (size, ==, 6);
  p[0] = 0xee;
  {
    g_autoptr (GBytes) out = xrt_tensor_get_bytes (t, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (((const guint8 *) g_bytes_get_data (out, NULL))[0], ==, 0xee);
  }

  g_assert_true (G_TYPE_IS_BOXED (XRT_TYPE_TENSOR));
  copy = g_boxed_copy (XRT_TYPE_TENSOR, t);
  g_assert_true (copy == t);
  g_boxed_free (XRT_TYPE_TENSOR, copy);
  vcopy = g_boxed_copy (XIR_TYPE_VALUE, xrt_tensor_get_value (t));
  g_assert_true (vcopy != xrt_tensor_get_value (t));
  g_assert_cmpint (vcopy->v_id, ==, 12);
  g_assert_cmpuint (vcopy->storage_bytes, ==, 6);
  g_boxed_free (XIR_TYPE_VALUE, vcopy);

  /* bad standalone types name the field */
  {
    static const gint64 bad_shape[] = { 2, 3 };
    static const float s[] = { 1.0f, 2.0f, 3.0f };
    static const gint64 zps[] = { 1, 2 };
    g_assert_null (xrt_tensor_make_dtype ("@sint(8)", "NCHW", bad_shape, 2, -1, NULL, 0, NULL, 0, &error));
    g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
    g_assert_nonnull (strstr (error->message, "layout"));
    g_clear_error (&error);
    g_assert_null (xrt_tensor_make_dtype ("@int(8)", NULL, bad_shape, 2, -1, NULL, 0, NULL, 0, &error));
    g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
    g_assert_nonnull (strstr (error->message, "storage"));
    g_clear_error (&error);
    g_assert_null (xrt_tensor_make_dtype ("@sint(8)", "NC", bad_shape, 2, 1, s, 3, zps, 2, &error));
    g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
    g_assert_nonnull (strstr (error->message, "zero_points"));
    g_clear_error (&error);
    g_assert_null (xrt_tensor_make_dtype ("@sint(8)", "NC", bad_shape, 2, 2, s, 3, NULL, 0, &error));
    g_assert_error (error, XIR_ERROR, XIR_ERROR_RANGE);
    g_assert_nonnull (strstr (error->message, "scale_axis"));
    g_clear_error (&error);
  }
}

/* A network's tensor keeps pointing at the network's value, through to() and clone(). */
static void
test_network_value_kept (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_strdup_printf ("%s/networks/tiny_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtTensor) t = NULL, etm = NULL, back = NULL, c = NULL;
  const XirValue *v;
  g_autofree guint8 *data = NULL;

  if (g_getenv ("ZW_DATA_DIR") == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the demo network is not built");
      return;
    }
  net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  v = g_ptr_array_index (xir_network_get_inputs (net), 0);
  data = g_malloc (v->storage_bytes);
  for (guint64 i = 0; i < v->storage_bytes; i++)
    data[i] = (guint8) (i * 7);
  t = xrt_tensor_new_host (net, v, data, v->storage_bytes, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_get_value (t) == v);
  g_assert_true (xrt_tensor_get_network (t) == net);
  dev = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  etm = xrt_tensor_to (t, xrt_device_get_mem_region (dev, "ETM", NULL), &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_get_value (etm) == v);
  back = xrt_tensor_to (etm, xrt_host_mem_region_get_default (), &error);
  g_assert_no_error (error);
  assert_bytes (back, data, v->storage_bytes);
  c = xrt_tensor_clone (back, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_tensor_get_value (c) == v);
  if (v->element.quantized)
    {
      g_autoptr (XrtTensor) f = xrt_tensor_dequantize (back, &error);
      g_autoptr (XrtTensor) q = NULL;
      g_assert_no_error (error);
      q = xrt_tensor_quantize (f, v, &error);
      g_assert_no_error (error);
      g_assert_cmpint (xrt_tensor_get_value (q)->v_id, ==, v->v_id);
      assert_bytes (q, data, v->storage_bytes);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/quant/int8-nchw-per-channel-round-trip", test_int8_per_channel_round_trip);
  g_test_add_func ("/tensor/quant/rounds-half-even-and-saturates", test_quantize_rounds_half_even_and_saturates);
  g_test_add_func ("/tensor/quant/int16-exponent-scales", test_int16_exponent_scales);
  g_test_add_func ("/tensor/quant/blocked-layout-channels", test_blocked_layout_channels);
  g_test_add_func ("/tensor/half/float-round-trip", test_half_float_round_trip);
  g_test_add_func ("/tensor/reshape/same-bytes-or-error-naming-both-shapes", test_reshape);
  g_test_add_func ("/tensor/dtype/same-storage-or-error", test_with_dtype);
  g_test_add_func ("/tensor/to/host-etm-ocm-host-keeps-bytes", test_to_etm_and_back);
  g_test_add_func ("/tensor/copy-from/bounds", test_copy_from_bounds);
  g_test_add_func ("/tensor/ready/without-data-until-written", test_readiness);
  g_test_add_func ("/tensor/fill/bytes-and-float", test_fill);
  g_test_add_func ("/tensor/bytes/from-bytes-host-view-boxed", test_bytes_and_boxed);
  g_test_add_func ("/tensor/network/value-kept", test_network_value_kept);
  return g_test_run ();
}
