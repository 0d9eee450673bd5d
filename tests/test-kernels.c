/* test-kernels.c: the behavioural hardop kernels against naive reference loops.
 *
 * Every reference here works on logical NHWC integers read through the layout formula
 * of the header, written independently of the kernels' own addressing, and uses the C
 * library's round() (half away from zero) for requantisation.  Tensors are filled with
 * 0xAA in their padding bytes, so a kernel that reads padding channels gets caught. */
#include "kernels/zg330-kernels.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

typedef struct {
  Zg330KernelTensor t;
  float *scales;
} TT;

static gsize
ref_offset (const Zg330KernelTensor *t, guint n, guint c, guint h, guint w)
{
  if (t->layout == ZG330_KERNEL_LAYOUT_NHWC)
    return (((gsize) n * t->h + h) * t->w + w) * t->c + c;
  {
    gsize cb = (t->c + t->k - 1) / t->k;
    return ((((gsize) n * cb + c / t->k) * t->h + h) * t->w + w) * t->k + c % t->k;
  }
}

static TT *
tt_new (Zg330KernelLayout layout, Zg330KernelDType dtype, guint n, guint c, guint h,
        guint w, guint k, float scale)
{
  TT *tt = g_new0 (TT, 1);

  tt->t.layout = layout;
  tt->t.dtype = dtype;
  tt->t.n = n; tt->t.c = c; tt->t.h = h; tt->t.w = w; tt->t.k = k;
  tt->t.size = zg330_kernel_tensor_get_size (&tt->t);
  g_assert_cmpuint (tt->t.size, >, 0);
  tt->t.data = g_malloc (tt->t.size);
  memset (tt->t.data, 0xAA, tt->t.size);
  if (scale > 0)
    {
      tt->scales = g_new (float, c);
      for (guint i = 0; i < c; i++)
        tt->scales[i] = scale;
      tt->t.scales = tt->scales;
    }
  return tt;
}

static void
tt_free (TT *tt)
{
  g_free (tt->t.data);
  g_free (tt->scales);
  g_free (tt);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TT, tt_free)

static gint
tt_get (const TT *tt, guint n, guint c, guint h, guint w)
{
  guint8 b = ((const guint8 *) tt->t.data)[ref_offset (&tt->t, n, c, h, w)];
  return tt->t.dtype == ZG330_KERNEL_DTYPE_UINT8 ? b : (gint8) b;
}

static void
tt_set (TT *tt, guint n, guint c, guint h, guint w, gint v)
{
  ((guint8 *) tt->t.data)[ref_offset (&tt->t, n, c, h, w)] = (guint8) v;
}

static void
tt_fill (TT *tt, GRand *rand)
{
  gboolean u = tt->t.dtype == ZG330_KERNEL_DTYPE_UINT8;
  for (guint n = 0; n < tt->t.n; n++)
    for (guint c = 0; c < tt->t.c; c++)
      for (guint h = 0; h < tt->t.h; h++)
        for (guint w = 0; w < tt->t.w; w++)
          tt_set (tt, n, c, h, w, u ? g_rand_int_range (rand, 0, 256)
                                    : g_rand_int_range (rand, -128, 128));
}

/* Padding channels of a partial last block must read 0 in every output. */
static void
assert_padding_zero (const TT *tt)
{
  const Zg330KernelTensor *t = &tt->t;
  guint cb;

  if (t->layout != ZG330_KERNEL_LAYOUT_NCHWC || t->c % t->k == 0)
    return;
  cb = (t->c + t->k - 1) / t->k;
  for (guint n = 0; n < t->n; n++)
    for (guint c = t->c; c < cb * t->k; c++)
      for (guint h = 0; h < t->h; h++)
        for (guint w = 0; w < t->w; w++)
          g_assert_cmpint (((guint8 *) t->data)[ref_offset (t, n, c, h, w)], ==, 0);
}

static gint
ref_round (double v, Zg330KernelDType d)
{
  double r = round (v);
  double lo = d == ZG330_KERNEL_DTYPE_UINT8 ? 0 : -128, hi = d == ZG330_KERNEL_DTYPE_UINT8 ? 255 : 127;
  return (gint) (r < lo ? lo : r > hi ? hi : r);
}

static gboolean
have_vnni (void)
{
  zg330_kernel_set_generic_only (FALSE);
  return strcmp (zg330_kernel_get_isa (), "avx512-vnni") == 0;
}

/* Selects the conv loops of @mode: 0 plain C, 1 the plain loops at their best (the AVX2
 * tile where the CPU has AVX2), 2 AVX-512 VNNI; FALSE where this CPU has no such mode. */
static gboolean
use_mode (guint mode)
{
  if (mode == 2 && !have_vnni ())
    return FALSE;
  zg330_kernel_set_plain_only (mode == 0);
  if (mode == 1)
    zg330_kernel_set_generic_only (TRUE);
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* fp16                                                                               */

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

/* ---------------------------------------------------------------------------------- */
/* geometry                                                                           */

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

/* ---------------------------------------------------------------------------------- */
/* conv                                                                               */

typedef struct {
  guint ob, ib, kh, kw, ko, ki;
  gint8 *data;
  gsize size;
  float *scales;
  guint8 *bias;
  Zg330KernelWeights w;
} TW;

static TW *
tw_new (guint ob, guint ib, guint kh, guint kw, guint ko, guint ki, GRand *rand)
{
  TW *tw = g_new0 (TW, 1);
  guint O = ob * ko;

  tw->ob = ob; tw->ib = ib; tw->kh = kh; tw->kw = kw; tw->ko = ko; tw->ki = ki;
  tw->size = (gsize) O * ib * ki * kh * kw;
  tw->data = g_new (gint8, tw->size);
  for (gsize i = 0; i < tw->size; i++)      /* padding entries too: they must be ignored */
    tw->data[i] = (gint8) g_rand_int_range (rand, -128, 128);
  tw->scales = g_new (float, O);
  tw->bias = g_new (guint8, 2 * O);
  for (guint o = 0; o < O; o++)
    {
      guint16 h = zw_float_to_fp16 ((float) g_rand_double_range (rand, -40.0, 40.0));
      tw->scales[o] = (float) g_rand_double_range (rand, 0.001, 0.01);
      tw->bias[2 * o] = h & 0xff;
      tw->bias[2 * o + 1] = h >> 8;
    }
  tw->w = (Zg330KernelWeights) { ob, ib, kh, kw, ko, ki, tw->data, tw->size, tw->scales,
                                 tw->bias, 2 * (gsize) O };
  return tw;
}

static void
tw_free (TW *tw)
{
  g_free (tw->data);
  g_free (tw->scales);
  g_free (tw->bias);
  g_free (tw);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TW, tw_free)

static gint
tw_get (const TW *tw, guint o, guint i, guint kh, guint kw)
{
  gsize idx = ((((gsize) (o / tw->ko) * tw->ib + i / tw->ki) * tw->kh + kh) * tw->kw + kw)
                  * tw->ko * tw->ki
              + (gsize) (o % tw->ko) * tw->ki + i % tw->ki;
  return tw->data[idx];
}

/* Output scales that spread results over the output's range without saturating most (a
 * uint8 output's bias centres them on 128). */
static void
pick_output_scales (TT *out, const TT *in, TW *tw, guint reduction, GRand *rand)
{
  double centre = out->t.dtype == ZG330_KERNEL_DTYPE_UINT8 ? 128.0 : 0.0;
  /* RMS of uniform int8 is ~74, of uniform uint8 ~148. */
  double x_rms = in->t.dtype == ZG330_KERNEL_DTYPE_UINT8 ? 148.0 : 74.0;
  for (guint o = 0; o < out->t.c; o++)
    out->scales[o] = (float) (in->scales[0] * tw->scales[o] * sqrt ((double) reduction)
                              * x_rms * 74.0 / 45.0);
  /* Bias worth up to +-30 output steps, so it shows without saturating. */
  for (guint o = 0; o < out->t.c; o++)
    {
      guint16 h = zw_float_to_fp16 ((float) ((centre + g_rand_double_range (rand, -30.0, 30.0))
                                                * out->scales[o]));
      tw->bias[2 * o] = h & 0xff;
      tw->bias[2 * o + 1] = h >> 8;
    }
}

static void
ref_conv (const TT *in, const TW *tw, guint sh, guint sw, guint pt, guint pl, guint groups,
          const TT *out, gint *expect)
{
  guint I = tw->ib * tw->ki, Og = out->t.c / groups;
  guint Ic = groups == 1 ? in->t.c : I;

  for (guint n = 0; n < out->t.n; n++)
    for (guint oh = 0; oh < out->t.h; oh++)
      for (guint ow = 0; ow < out->t.w; ow++)
        for (guint o = 0; o < out->t.c; o++)
          {
            gint64 acc = 0;
            guint g = o / Og;
            double m, b, v;
            for (guint r = 0; r < tw->kh; r++)
              for (guint s = 0; s < tw->kw; s++)
                {
                  gint ih = (gint) (oh * sh + r) - (gint) pt, iw = (gint) (ow * sw + s) - (gint) pl;
                  if (ih < 0 || iw < 0 || ih >= (gint) in->t.h || iw >= (gint) in->t.w)
                    continue;
                  for (guint i = 0; i < Ic; i++)
                    acc += (gint64) tt_get (in, n, g * Ic + i, ih, iw) * tw_get (tw, o, i, r, s);
                }
            m = ((double) (in->t.scales ? in->t.scales[0] : 1.0f) * (double) tw->scales[o])
                / (double) out->scales[o];
            b = (double) zw_fp16_to_float ((guint16) (tw->bias[2 * o] | (tw->bias[2 * o + 1] << 8)))
                / (double) out->scales[o];
            v = (double) acc * m;
            v = v + b;
            expect[(((gsize) n * out->t.h + oh) * out->t.w + ow) * out->t.c + o] = ref_round (v, out->t.dtype);
          }
}

static void
assert_matches (const TT *out, const gint *expect)
{
  gsize mismatches = 0, nonzero = 0, saturated = 0, total = 0;
  for (guint n = 0; n < out->t.n; n++)
    for (guint h = 0; h < out->t.h; h++)
      for (guint w = 0; w < out->t.w; w++)
        for (guint c = 0; c < out->t.c; c++)
          {
            gint e = expect[(((gsize) n * out->t.h + h) * out->t.w + w) * out->t.c + c];
            gint got = tt_get (out, n, c, h, w);
            if (got != e && mismatches++ < 5)
              g_test_message ("mismatch at n=%u c=%u h=%u w=%u: got %d expected %d", n, c, h, w, got, e);
            nonzero += e != 0;
            saturated += out->t.dtype == ZG330_KERNEL_DTYPE_UINT8 ? e == 0 || e == 255 : e == 127 || e == -128;
            total++;
          }
  g_assert_cmpuint (mismatches, ==, 0);
  /* The data must exercise the arithmetic, not sit at 0 or at the rails. */
  g_assert_cmpuint (nonzero, >, total / 2);
  g_assert_cmpuint (saturated, <, total / 4 + 1);
  assert_padding_zero (out);
}

typedef struct {
  Zg330KernelLayout in_layout, out_layout;
  Zg330KernelDType in_dtype;
  guint n, c, h, w, k_in;
  guint oc, oh, ow, k_out;
  guint kh, kw, ko, ki;
  guint sh, sw, pt, pl;
  guint groups;
} ConvCase;

/* Runs @cc on every path (the plain loops, then VNNI where the CPU has it) against the
 * reference, and holds the paths to the same bytes.  Odd seeds write uint8, even ones int8.  With @steps > 1, then the same
 * weight bytes under other figures: the kernels keep each weight tensor's requantisation
 * figures between calls, and a call with other scales must requantise with its own.
 * Step 1: other output scales; 2: another bias; 3: other weight scales and input scale;
 * 4: the first figures again. */
static void
run_conv_steps (const ConvCase *cc, guint32 seed, guint steps)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  guint I = cc->groups == 1 ? cc->c : cc->c / cc->groups;
  guint ib = (I + cc->ki - 1) / cc->ki, ob = (cc->oc + cc->ko - 1) / cc->ko;
  g_autoptr (TT) in = tt_new (cc->in_layout, cc->in_dtype, cc->n, cc->c, cc->h, cc->w, cc->k_in, 0.05f);
  g_autoptr (TT) out = tt_new (cc->out_layout, seed % 2 ? ZG330_KERNEL_DTYPE_UINT8 : ZG330_KERNEL_DTYPE_SINT8, cc->n,
                               cc->oc, cc->oh, cc->ow, cc->k_out, 1.0f);
  g_autoptr (TW) tw = tw_new (ob, ib, cc->kh, cc->kw, cc->ko, cc->ki, rand);
  g_autofree gint *expect = g_new (gint, (gsize) cc->n * cc->oc * cc->oh * cc->ow);
  g_autofree float *scales0 = NULL, *wscales0 = NULL;
  g_autofree guint8 *bias0 = NULL;
  Zg330ConvParams p = { cc->sh, cc->sw, cc->pt, cc->pl };
  float in_scale0;

  tt_fill (in, rand);
  pick_output_scales (out, in, tw, cc->kh * cc->kw * I, rand);
  scales0 = g_memdup2 (out->scales, cc->oc * sizeof (float));
  wscales0 = g_memdup2 (tw->scales, cc->oc * sizeof (float));
  bias0 = g_memdup2 (tw->bias, 2 * (gsize) cc->oc);
  in_scale0 = in->scales[0];
  for (guint step = 0; step < steps; step++)
    {
      g_autofree guint8 *first = NULL;

      memcpy (out->scales, scales0, cc->oc * sizeof (float));
      memcpy (tw->scales, wscales0, cc->oc * sizeof (float));
      memcpy (tw->bias, bias0, 2 * (gsize) cc->oc);
      for (guint c = 0; c < cc->c; c++)
        in->scales[c] = in_scale0;
      if (step == 1)
        for (guint o = 0; o < cc->oc; o++)
          out->scales[o] *= o % 2 ? 0.75f : 1.25f;
      else if (step == 2)
        for (guint o = 0; o < cc->oc; o++)
          {
            guint16 h = zw_float_to_fp16 ((float) ((out->t.dtype == ZG330_KERNEL_DTYPE_UINT8 ? 128.0 : 0.0)
                                                   + g_rand_double_range (rand, -30.0, 30.0)) * out->scales[o]);
            tw->bias[2 * o] = h & 0xff;
            tw->bias[2 * o + 1] = h >> 8;
          }
      else if (step == 3)
        {
          for (guint o = 0; o < cc->oc; o++)
            tw->scales[o] *= o % 3 ? 1.5f : 0.6f;
          for (guint c = 0; c < cc->c; c++)   /* one input scale for every channel */
            in->scales[c] = in_scale0 * 0.8f;
        }
      else if (step == 5)
        /* the weights changed in place: 24 bytes in the middle, between the words that a
         * hash sampling the weights reads (the cache must compare every byte) */
        for (gsize i = tw->size / 2 + 12; i < tw->size / 2 + 36 && i < tw->size; i++)
          tw->data[i] = (gint8) ~tw->data[i];
      ref_conv (in, tw, cc->sh, cc->sw, cc->pt, cc->pl, cc->groups, out, expect);
      for (guint mode = 0; mode < 3; mode++)
        {
          g_autoptr (GError) error = NULL;
          if (!use_mode (mode))
            break;
          memset (out->t.data, 0xAA, out->t.size);
          g_assert_true (zg330_kernel_conv2d (&in->t, &tw->w, &p, &out->t, &error));
          g_assert_no_error (error);
          assert_matches (out, expect);
          if (first == NULL)
            first = g_memdup2 (out->t.data, out->t.size);
          else
            g_assert_cmpmem (first, out->t.size, out->t.data, out->t.size);
        }
      zg330_kernel_set_generic_only (FALSE);
    }
}

static void
run_conv_case (const ConvCase *cc, guint32 seed)
{
  run_conv_steps (cc, seed, 1);
}

static void
test_conv_rescaled (void)
{
  /* depthwise 3x3 at strides 1 and 2, a dense 3x3, and small groups (their slots are
   * permuted channels); steps: other output scales, another bias, other weight and input
   * scales, the first figures again, weights changed in place */
  const ConvCase cases[] = {
    { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
      1, 64, 12, 14, 32, 64, 12, 14, 32, 3, 3, 32, 1, 1, 1, 1, 1, 64 },
    { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
      1, 64, 12, 14, 32, 64, 6, 7, 32, 3, 3, 32, 1, 2, 2, 1, 1, 64 },
    { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
      1, 32, 9, 11, 32, 64, 9, 11, 32, 3, 3, 32, 32, 1, 1, 1, 1, 1 },
    { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
      1, 64, 8, 10, 32, 64, 8, 10, 32, 3, 3, 4, 4, 1, 1, 1, 1, 16 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    run_conv_steps (&cases[k], 40 + k, 6);
}

static void
test_conv_3x3_s2 (void)
{
  /* YOLOv5s's down-sampling conv shape, small: NCHWc32 64 -> 64 channels. */
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  1, 64, 14, 29, 32, 64, 7, 15, 32, 3, 3, 32, 32, 2, 2, 1, 1, 1 };
  run_conv_case (&cc, 1);
}

static void
test_conv_3x3_s1_same (void)
{
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  2, 32, 9, 26, 32, 96, 9, 26, 32, 3, 3, 32, 32, 1, 1, 1, 1, 1 };
  run_conv_case (&cc, 2);
}

static void
test_conv_1x1 (void)
{
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  1, 128, 5, 13, 32, 64, 5, 13, 32, 1, 1, 32, 32, 1, 1, 0, 0, 1 };
  run_conv_case (&cc, 3);
}

static void
test_conv_stem_6x6 (void)
{
  /* The stem: NCHWc3 input, OIHWo32i3 weights, 6x6 stride 2 padding 2. */
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  1, 3, 22, 30, 3, 32, 11, 15, 32, 6, 6, 32, 3, 2, 2, 2, 2, 1 };
  run_conv_case (&cc, 4);
}

static void
test_conv_uint8_input (void)
{
  /* The normalising 1x1 conv on the image: uint8 NHWC in, NCHWc3 out, OIHWo3i3. */
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_UINT8,
                  1, 3, 12, 21, 0, 3, 12, 21, 3, 1, 1, 3, 3, 1, 1, 0, 0, 1 };
  run_conv_case (&cc, 5);
  /* And a 3x3 on uint8 with 32-channel blocks. */
  ConvCase c2 = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_UINT8,
                  1, 32, 8, 14, 32, 32, 8, 14, 32, 3, 3, 32, 32, 1, 1, 1, 1, 1 };
  run_conv_case (&c2, 6);
}

static void
test_conv_partial_channels (void)
{
  /* C_in 40 and C_out 50 in K=32 blocks: padding channels in the input (0xAA), in the
   * weights (random) and in the output (must come out 0). */
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  1, 40, 7, 11, 32, 50, 4, 6, 32, 3, 3, 32, 32, 2, 2, 1, 1, 1 };
  run_conv_case (&cc, 7);
  /* Odd channel count into NHWC with asymmetric strides. */
  ConvCase c2 = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8,
                  1, 7, 9, 10, 4, 5, 5, 10, 0, 3, 1, 8, 8, 2, 1, 1, 0, 1 };
  run_conv_case (&c2, 8);
}

static void
test_conv_depthwise (void)
{
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  1, 8, 9, 11, 4, 8, 9, 11, 4, 3, 3, 4, 1, 1, 1, 1, 1, 8 };
  run_conv_case (&cc, 9);
}

/* 3x3 depthwise at vertical stride 1, where consecutive output rows share input rows (the
 * VNNI path's row pairs, the AVX2 path's ring of pair rows): horizontal strides 1-3, an
 * odd and an even row count, a partial channel block, NHWC and NCHWc32, one and two
 * images. */
static void
test_conv_depthwise_3x3_rows (void)
{
  for (guint sw = 1; sw <= 3; sw++)
    for (guint v = 0; v < 4; v++)
      {
        const guint h = v % 2 ? 9 : 10, w = 13, c = v < 2 ? 40 : 64;
        ConvCase cc = { v < 2 ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_LAYOUT_NCHWC,
                        v % 2 ? ZG330_KERNEL_DTYPE_UINT8 : ZG330_KERNEL_DTYPE_SINT8,
                        1 + v / 2, c, h, w, v < 2 ? 32 : 0, c, h, (w + 2 - 3) / sw + 1, 32, 3, 3, 8, 1, 1, sw, 1, 1, c };
        g_test_message ("sw %u, %u rows, %u channels", sw, h, c);
        run_conv_case (&cc, 600 + sw * 4 + v);
      }
}

/* 3x3 depthwise at stride 1 both ways with NCHWc32 in and out and whole blocks: the
 * VNNI path's type planes (two pixels a register, odd and even left pads, masked loads at
 * the row ends, an odd last pixel, an odd last row), against the reference on every path:
 * widths 1-30, pads of 0-2 (the far one at most the near one), one or two images, int8
 * and uint8 in and out. */
static void
test_conv_depthwise_3x3_type_planes (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3301);

  for (guint i = 0; i < 36; i++)
    {
      /* (the far pad is at most the near one) */
      const guint pt = g_rand_int_range (rand, 0, 3), pb = g_rand_int_range (rand, 0, (gint) pt + 1);
      const guint pl = i % 3, pr = g_rand_int_range (rand, 0, (gint) pl + 1);
      const guint rw = (guint) g_rand_int_range (rand, 1, 31), rh = (guint) g_rand_int_range (rand, 1, 9);
      const guint w = MAX (3 - MIN (3u, pl + pr), rw), h = MAX (3 - MIN (3u, pt + pb), rh);
      const guint c = i % 4 == 3 ? 96 : 64;
      ConvCase cc = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_LAYOUT_NCHWC,
                      i % 2 ? ZG330_KERNEL_DTYPE_UINT8 : ZG330_KERNEL_DTYPE_SINT8,
                      1 + i % 5 / 4, c, h, w, 32, c, h + pt + pb - 2, w + pl + pr - 2, 32, 3, 3, 32, 1, 1, 1, pt, pl, c };
      g_test_message ("case %u: %ux%u, pads t%u b%u l%u r%u, %u channels, %u images", i, h, w, pt, pb, pl, pr, c, cc.n);
      /* the seed's parity picks the output type: apart from the input's, all four pairs */
      run_conv_case (&cc, 3400 + 2 * i + i / 2 % 2);
    }
}

static void
test_conv_grouped (void)
{
  ConvCase cc = { ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8,
                  2, 8, 6, 7, 0, 6, 3, 4, 4, 3, 3, 2, 4, 2, 2, 1, 1, 2 };
  run_conv_case (&cc, 10);
}

enum { GROUPS_DEPTHWISE, GROUPS_FEW, GROUPS_SMALL };

/* A random depthwise conv, grouped conv with a few groups, or grouped conv with many small
 * groups (1-8 inputs and outputs each: several groups share a block of 32 output lanes, in
 * every packing the VNNI path has): layouts, block sizes, dtypes, kernels 1-5, strides
 * 1-3, any padding the geometry allows, partial channel blocks. */
static void
random_group_case (GRand *rand, guint kind, ConvCase *cc)
{
  static const guint blocks[] = { 0, 4, 8, 32 };
  guint k_in = blocks[g_rand_int_range (rand, 0, 4)], k_out = blocks[g_rand_int_range (rand, 0, 4)];
  guint groups, I, Og, far_h, far_w;

  if (kind == GROUPS_DEPTHWISE)
    {
      groups = (guint) g_rand_int_range (rand, 1, 80);
      I = Og = 1;
    }
  else if (kind == GROUPS_SMALL)
    {
      groups = (guint) g_rand_int_range (rand, 2, 80);
      I = (guint) g_rand_int_range (rand, 1, 9);
      /* half of them 1, 2 or 4 outputs: 32, 16 or 8 groups to a block */
      Og = g_rand_boolean (rand) ? 1u << g_rand_int_range (rand, 0, 3) : (guint) g_rand_int_range (rand, 1, 9);
    }
  else
    {
      groups = (guint) g_rand_int_range (rand, 2, 7);
      I = (guint) g_rand_int_range (rand, 1, 25);
      Og = (guint) g_rand_int_range (rand, 1, 41);
    }
  memset (cc, 0, sizeof *cc);
  cc->in_layout = k_in ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC;
  cc->out_layout = k_out ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC;
  cc->in_dtype = g_rand_boolean (rand) ? ZG330_KERNEL_DTYPE_SINT8 : ZG330_KERNEL_DTYPE_UINT8;
  cc->n = (guint) g_rand_int_range (rand, 1, 3);
  cc->groups = groups;
  cc->c = groups * I;
  cc->oc = groups * Og;
  cc->k_in = k_in;
  cc->k_out = k_out;
  cc->kh = (guint) g_rand_int_range (rand, 1, 6);
  cc->kw = (guint) g_rand_int_range (rand, 1, 6);
  cc->sh = (guint) g_rand_int_range (rand, 1, 4);
  cc->sw = (guint) g_rand_int_range (rand, 1, 4);
  cc->pt = (guint) g_rand_int_range (rand, 0, (gint) cc->kh);
  cc->pl = (guint) g_rand_int_range (rand, 0, (gint) cc->kw);
  far_h = (guint) g_rand_int_range (rand, 0, (gint) cc->pt + 1);
  far_w = (guint) g_rand_int_range (rand, 0, (gint) cc->pl + 1);
  cc->h = MAX (cc->kh, 1u) + (guint) g_rand_int_range (rand, 0, 14);
  cc->w = MAX (cc->kw, 1u) + (guint) g_rand_int_range (rand, 0, 20);
  cc->oh = (cc->h + cc->pt + far_h - cc->kh) / cc->sh + 1;
  cc->ow = (cc->w + cc->pl + far_w - cc->kw) / cc->sw + 1;
  /* the weights' blocks must tile I and O exactly when the conv is grouped */
  cc->ki = I % 4 == 0 && g_rand_boolean (rand) ? 4 : 1;
  cc->ko = cc->oc % 32 == 0 ? 32 : cc->oc % 4 == 0 ? 4 : 1;
}

/* 60 random convs of one kind (@data: GROUPS_*) against the reference. */
static void
test_conv_groups_random (gconstpointer data)
{
  guint kind = GPOINTER_TO_UINT (data);
  g_autoptr (GRand) rand = g_rand_new_with_seed (330 + kind);

  for (guint i = 0; i < 60; i++)
    {
      ConvCase cc;
      random_group_case (rand, kind, &cc);
      g_test_message ("case %u: groups %u C=%u O=%u %ux%u s%ux%u p%u,%u in %ux%u k_in %u k_out %u %s", i,
                      cc.groups, cc.c, cc.oc, cc.kh, cc.kw, cc.sh, cc.sw, cc.pt, cc.pl, cc.h, cc.w, cc.k_in,
                      cc.k_out, cc.in_dtype == ZG330_KERNEL_DTYPE_SINT8 ? "sint8" : "uint8");
      run_conv_case (&cc, 1000 * (kind + 1) + i);
    }
}

/* Small groups (1-4 inputs, 1-8 outputs: the broadcast packing) with three kernel
 * columns at horizontal stride 1, the shape whose tile broadcasts each input column once
 * per kernel row; widths from 1 to 20 give every tile length, pads 0-2 every edge. */
static void
test_conv_small_groups_3x3_stride1 (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (335);

  for (guint i = 0; i < 40; i++)
    {
      ConvCase cc;
      random_group_case (rand, GROUPS_SMALL, &cc);
      guint I = (guint) g_rand_int_range (rand, 1, 5), Og = cc.oc / cc.groups;
      cc.c = cc.groups * I;
      cc.ki = I == 4 && g_rand_boolean (rand) ? 4 : 1;
      cc.kw = 3;
      cc.sw = 1;
      cc.pl = (guint) g_rand_int_range (rand, 0, 3);
      cc.w = (guint) g_rand_int_range (rand, 1, 21);
      if (cc.w + 2 * cc.pl < 3)
        cc.pl = 1, cc.w = MAX (cc.w, 1u);
      cc.ow = cc.w + 2 * cc.pl - 3 + 1;
      g_test_message ("case %u: groups %u I=%u Og=%u %ux3 s%ux1 p%u,%u in %ux%u k_in %u k_out %u", i, cc.groups, I,
                      Og, cc.kh, cc.sh, cc.pt, cc.pl, cc.h, cc.w, cc.k_in, cc.k_out);
      run_conv_case (&cc, 5000 + i);
    }
}

/* The rounding modes a caller may have set (the kernels compute in their own). */
static const int caller_rounding[] = {
  FE_TONEAREST,
#ifdef FE_UPWARD
  FE_UPWARD,
#endif
#ifdef FE_DOWNWARD
  FE_DOWNWARD,
#endif
#ifdef FE_TOWARDZERO
  FE_TOWARDZERO,
#endif
};

/* The requantisation near its rounding boundaries and at the rails: a 1x1 conv of one
 * input channel whose output scales put x*w*mul + bias on half-integers, a hair off them,
 * and far beyond the int8 range, for dense and depthwise convs (the float requantisation
 * must give the double rule's byte or fall back to it), whatever rounding mode the caller
 * set. */
static void
test_conv_requant_boundaries (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (332);

  for (guint dw = 0; dw < 2; dw++)
    for (guint round = 0; round < 8; round++)
      {
        guint C = dw ? 48 : 1, O = 48;
        g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, C, 4, 9, 32, 1.0f);
        g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, O, 4, 9, 32, 1.0f);
        g_autoptr (TW) tw = tw_new (O / 16, 1, 1, 1, 16, 1, rand);
        g_autofree gint *expect = g_new (gint, (gsize) O * 4 * 9);
        Zg330ConvParams p = { 1, 1, 0, 0 };

        tt_fill (in, rand);
        for (gsize i = 0; i < tw->size; i++)     /* small weights: results near the range */
          tw->data[i] = (gint8) g_rand_int_range (rand, -3, 4);
        for (guint o = 0; o < O; o++)
          {
            /* mul = w_scale / out_scale: 1/2, 1/4, 3/8 (exact ties), those times 1 +- 2^-k,
             * 10^-6..10^3, or 10^7..10^10 (values past 2^31: slots without a float bound) */
            static const double ties[] = { 0.5, 0.25, 0.375, 1.5, 2.0 };
            double mul = ties[g_rand_int_range (rand, 0, G_N_ELEMENTS (ties))];
            float bias = 0;
            switch (g_rand_int_range (rand, 0, 5))
              {
              case 0: break;
              case 1: mul *= 1.0 + ldexp (1.0, -g_rand_int_range (rand, 10, 30)); break;
              case 2: mul *= 1.0 - ldexp (1.0, -g_rand_int_range (rand, 10, 30)); break;
              case 3: mul = pow (10.0, g_rand_double_range (rand, 7.0, 10.0)); break;
              default: mul = pow (10.0, g_rand_double_range (rand, -6.0, 3.0)); break;
              }
            if (g_rand_boolean (rand))
              bias = (float) g_rand_int_range (rand, -300, 300) * 0.5f;   /* halves: more ties */
            tw->scales[o] = (float) mul;    /* input and output scale 1: mul exactly */
            out->scales[o] = 1.0f;
            {
              guint16 h = zw_float_to_fp16 (bias * out->scales[o]);
              tw->bias[2 * o] = h & 0xff;
              tw->bias[2 * o + 1] = h >> 8;
            }
          }
        ref_conv (in, tw, 1, 1, 0, 0, dw ? C : 1, out, expect);
        for (guint mode = 0; mode < 3; mode++)
          for (guint rm = 0; rm < G_N_ELEMENTS (caller_rounding); rm++)
            {
              g_autoptr (GError) error = NULL;
              gsize mismatches = 0;
              gboolean ok;
              if (!use_mode (mode))
                break;
              /* the caller's rounding mode changes nothing, and is the caller's again after */
              g_assert_cmpint (fesetround (caller_rounding[rm]), ==, 0);
              ok = zg330_kernel_conv2d (&in->t, &tw->w, &p, &out->t, &error);
              g_assert_cmpint (fegetround (), ==, caller_rounding[rm]);
              fesetround (FE_TONEAREST);
              g_assert_true (ok);
              g_assert_no_error (error);
              for (guint h = 0; h < 4; h++)
                for (guint w = 0; w < 9; w++)
                  for (guint c = 0; c < O; c++)
                    {
                      gint e = expect[((gsize) h * 9 + w) * O + c], got = tt_get (out, 0, c, h, w);
                      if (e != got && mismatches++ < 5)
                        g_test_message ("%s mode %u, caller rounding %u: c=%u h=%u w=%u got %d expected %d",
                                        dw ? "depthwise" : "dense", mode, rm, c, h, w, got, e);
                    }
              g_assert_cmpuint (mismatches, ==, 0);
            }
        zg330_kernel_set_generic_only (FALSE);
      }
}

/* A channel of test_conv_depthwise_every_accumulator: its centre weight, weight scale,
 * output scale and fp16 bias. */
typedef struct {
  gint8 w;
  float w_scale, out_scale;
  guint16 bias;
} DwChannel;

/* Whether @ch has a "silent near-tie" for @din: an input whose result the double rule
 * rounds one way and a float evaluation (the kernels': fma of the float accumulator with
 * the float scale and offset, ties to even) rounds the other way, though the float value
 * is no tie itself.  Only the bound's margin keeps such a lane off the float path. */
static gboolean
dw_channel_has_silent_tie (const DwChannel *ch, Zg330KernelDType din, Zg330KernelDType dout)
{
  gboolean sgn = din == ZG330_KERNEL_DTYPE_SINT8;
  double m = (1.0 * (double) ch->w_scale) / (double) ch->out_scale;
  double a = (double) zw_fp16_to_float (ch->bias) / (double) ch->out_scale;
  gint32 corr = sgn ? 128 * ch->w : 0;
  float mf = (float) m, af = (float) (a - (double) corr * m);

  for (gint x = 0; x < 256; x++)
    {
      gint32 acc = x * ch->w;   /* the biased input byte times the weight */
      double vd = (double) (acc - corr) * m + a;
      float vf = fmaf ((float) acc, mf, af);
      gint rd = ref_round (vd, dout), rf = ref_round (rintf (vf), dout);
      if (rd != rf && fabsf (vf - rintf (vf)) < 0.5f)
        return TRUE;
    }
  return FALSE;
}

/* Every accumulator a 3x3 depthwise channel can reach, through the fast 3x3 paths (two
 * rows at stride 1, column quads at stride 2; NCHWc32 in and out): each channel's weights
 * are its centre tap only, and its input holds all 256 byte values at the positions the
 * centre tap reads, so every reachable accumulator w * x comes out once.  The scales put
 * the results on exact ties, a hair off them and elsewhere (as requant-ties-and-rails),
 * for int8 and uint8 in and out, on every path this CPU has (plain C, the AVX2 bracket,
 * VNNI): the bounded float requantisation must give the double rule's byte or fall back to
 * it, everywhere. */
static void
test_conv_depthwise_every_accumulator (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (333);

  for (guint stride = 1; stride <= 2; stride++)
    for (guint dtypes = 0; dtypes < 4; dtypes++)
      {
        const guint C = 64, S = 16 * stride;
        Zg330KernelDType din = dtypes & 1 ? ZG330_KERNEL_DTYPE_UINT8 : ZG330_KERNEL_DTYPE_SINT8;
        Zg330KernelDType dout = dtypes & 2 ? ZG330_KERNEL_DTYPE_UINT8 : ZG330_KERNEL_DTYPE_SINT8;
        g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, din, 1, C, S, S, 32, 1.0f);
        g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, dout, 1, C, 16, 16, 32, 1.0f);
        g_autoptr (TW) tw = tw_new (C / 32, 1, 3, 3, 32, 1, rand);
        g_autofree gint *expect = g_new (gint, (gsize) C * 16 * 16);
        Zg330ConvParams p = { stride, stride, 1, 1 };
        g_autoptr (GError) error = NULL;

        tt_fill (in, rand);
        for (guint c = 0; c < C; c++)
          for (guint i = 0; i < 16; i++)
            for (guint j = 0; j < 16; j++)
              ((guint8 *) in->t.data)[ref_offset (&in->t, 0, c, i * stride, j * stride)] = (guint8) (i * 16 + j);
        memset (tw->data, 0, tw->size);
        /* the first channels: ones with a silent near-tie, found by a search (an error
         * bound too small for the float path lets their wrong byte through) */
        guint n_silent = 0;
        for (guint tries = 0; tries < 200000 && n_silent < 16; tries++)
          {
            /* x * w * q + bias on a half-integer; the scales' roundings to float put the
             * float and double values a hair off it, now and then on either side */
            static const double q[] = { 0.375, 0.625, 0.125 * 3 / 5, 0.5 / 3 };
            DwChannel ch;
            ch.w = (gint8) (g_rand_boolean (rand) ? 1 : 2) * (g_rand_boolean (rand) ? 1 : -1);
            ch.out_scale = (float) g_rand_double_range (rand, 0.5, 2.0);
            ch.w_scale = (float) (q[g_rand_int_range (rand, 0, G_N_ELEMENTS (q))] * ch.out_scale);
            ch.bias = zw_float_to_fp16 ((float) (g_rand_int_range (rand, -8, 8) * 0.5 * ch.out_scale));
            if (!dw_channel_has_silent_tie (&ch, din, dout))
              continue;
            tw->data[(((gsize) (n_silent / 32) * 3 + 1) * 3 + 1) * 32 + n_silent % 32] = ch.w;
            tw->scales[n_silent] = ch.w_scale;
            out->scales[n_silent] = ch.out_scale;
            tw->bias[2 * n_silent] = ch.bias & 0xff;
            tw->bias[2 * n_silent + 1] = ch.bias >> 8;
            n_silent++;
          }
        g_test_message ("%u channels with a silent near-tie", n_silent);
        g_assert_cmpuint (n_silent, >=, 4);
        for (guint o = n_silent; o < C; o++)
          {
            static const double ties[] = { 0.5, 0.25, 0.375, 0.125 };
            double mul = ties[g_rand_int_range (rand, 0, G_N_ELEMENTS (ties))];
            float bias = 0;
            static const gint8 weights[] = { -2, -1, 1, 2 };
            /* [ob][kh][kw][ko]: the centre tap, small so that most results are in range */
            tw->data[(((gsize) (o / 32) * 3 + 1) * 3 + 1) * 32 + o % 32] = weights[g_rand_int_range (rand, 0, 4)];
            switch (g_rand_int_range (rand, 0, 4))
              {
              case 0: break;
              case 1: mul *= 1.0 + ldexp (1.0, -g_rand_int_range (rand, 10, 30)); break;
              case 2: mul *= 1.0 - ldexp (1.0, -g_rand_int_range (rand, 10, 30)); break;
              default: mul = pow (10.0, g_rand_double_range (rand, -2.5, -0.3)); break;
              }
            if (g_rand_boolean (rand))
              bias = (float) g_rand_int_range (rand, -60, 60) * 0.5f;
            tw->scales[o] = (float) mul;
            out->scales[o] = 1.0f;
            {
              guint16 h = zw_float_to_fp16 (bias);
              tw->bias[2 * o] = h & 0xff;
              tw->bias[2 * o + 1] = h >> 8;
            }
          }
        ref_conv (in, tw, stride, stride, 1, 1, C, out, expect);
        for (guint mode = 0; mode < 3; mode++)
          {
            if (!use_mode (mode))
              break;
            memset (out->t.data, 0xAA, out->t.size);
            g_assert_true (zg330_kernel_conv2d (&in->t, &tw->w, &p, &out->t, &error));
            g_assert_no_error (error);
            gsize mismatches = 0, inside = 0;
            gint lo = dout == ZG330_KERNEL_DTYPE_UINT8 ? 0 : -128, hi = dout == ZG330_KERNEL_DTYPE_UINT8 ? 255 : 127;
            for (guint h = 0; h < 16; h++)
              for (guint w = 0; w < 16; w++)
                for (guint c = 0; c < C; c++)
                  {
                    gint e = expect[((gsize) h * 16 + w) * C + c], got = tt_get (out, 0, c, h, w);
                    inside += e > lo && e < hi;
                    if (e != got && mismatches++ < 5)
                      g_test_message ("mode %u, stride %u, %s in, %s out: c=%u h=%u w=%u got %d expected %d", mode,
                                      stride, dtypes & 1 ? "uint8" : "int8", dtypes & 2 ? "uint8" : "int8", c, h, w,
                                      got, e);
                  }
            g_assert_cmpuint (mismatches, ==, 0);
            g_assert_cmpuint (inside, >, (gsize) C * 16 * 16 / 4);   /* mostly off the rails */
          }
        zg330_kernel_set_generic_only (FALSE);
      }
}

static void
test_conv_rounds_half_away (void)
{
  /* 1x1, one channel, weight 1: y = round(x * 1 * 1 / 2). */
  g_autoptr (GError) error = NULL;
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 1, 1, 8, 0, 1.0f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 1, 1, 8, 0, 2.0f);
  static const gint8 x[8] = { 3, -3, 1, -1, 5, -5, 127, -128 };
  static const gint8 y[8] = { 2, -2, 1, -1, 3, -3, 64, -64 };
  gint8 w = 1;
  float ws = 1.0f;
  Zg330KernelWeights wt = { 1, 1, 1, 1, 1, 1, &w, 1, &ws, NULL, 0 };
  Zg330ConvParams p = { 1, 1, 0, 0 };

  for (guint mode = 0; mode < 3; mode++)
    {
      if (!use_mode (mode))
        break;
      memcpy (in->t.data, x, 8);
      g_assert_true (zg330_kernel_conv2d (&in->t, &wt, &p, &out->t, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (out->t.data, 8, y, 8);
    }
  zg330_kernel_set_generic_only (FALSE);
}

static void test_add_large_flat (void);
static void test_maxpool_random (void);

static void
test_conv_thread_invariant (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 12, 40, 32, 0.05f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 12, 40, 32, 1.0f);
  g_autoptr (TW) tw = tw_new (2, 2, 3, 3, 32, 32, rand);
  Zg330ConvParams p = { 1, 1, 1, 1 };
  g_autofree guint8 *first = NULL;
  static const guint threads[] = { 1, 2, 3, 7, 0 };

  tt_fill (in, rand);
  pick_output_scales (out, in, tw, 9 * 64, rand);
  zg330_kernel_set_parallel_min_ns (0);   /* small as it is, spread over the threads */
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr (GError) error = NULL;
      zg330_kernel_set_threads (threads[i]);
      g_assert_cmpuint (zg330_kernel_get_threads (), ==,
                        threads[i] ? threads[i] : MAX (1u, g_get_num_processors ()));
      memset (out->t.data, 0x55, out->t.size);
      g_assert_true (zg330_kernel_conv2d (&in->t, &tw->w, &p, &out->t, &error));
      g_assert_no_error (error);
      if (first == NULL)
        first = g_memdup2 (out->t.data, out->t.size);
      else
        g_assert_cmpmem (first, out->t.size, out->t.data, out->t.size);
    }
  zg330_kernel_set_threads (0);

  /* depthwise, grouped (packed groups too), the add table and pools, spread over 1, 2, 3
   * and 7 threads: the random cases of each against the reference */
  for (guint i = 0; i < 4; i++)
    {
      ConvCase cc;
      g_autoptr (GRand) r2 = g_rand_new_with_seed (40);
      zg330_kernel_set_threads (threads[i]);
      for (guint k = 0; k < 6; k++)
        {
          random_group_case (r2, k % 3, &cc);   /* GROUPS_DEPTHWISE, _FEW, _SMALL */
          run_conv_case (&cc, 3000 + k);
        }
    }
  zg330_kernel_set_threads (0);
  test_add_large_flat ();
  zg330_kernel_set_threads (3);
  test_add_large_flat ();
  test_maxpool_random ();
  zg330_kernel_set_threads (0);
  zg330_kernel_set_parallel_min_ns (-1);
}

static void
assert_conv_fails (const Zg330KernelTensor *in, const Zg330KernelWeights *w,
                   const Zg330ConvParams *p, const Zg330KernelTensor *out, gint code,
                   const char *needle)
{
  g_autoptr (GError) error = NULL;
  g_assert_false (zg330_kernel_conv2d (in, w, p, out, &error));
  g_assert_error (error, ZG330_KERNEL_ERROR, code);
  if (strstr (error->message, needle) == NULL)
    g_error ("error '%s' does not mention '%s'", error->message, needle);
}

static void
test_conv_rejects (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (12);
  g_autoptr (TT) in = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 8, 8, 32, 0.05f);
  g_autoptr (TT) out = tt_new (ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 64, 4, 4, 32, 0.5f);
  g_autoptr (TW) tw = tw_new (2, 2, 3, 3, 32, 32, rand);
  Zg330ConvParams p = { 2, 2, 1, 1 };
  Zg330KernelTensor t;
  Zg330KernelWeights w;
  float bad_scales[64];

  tt_fill (in, rand);
  {
    g_autoptr (GError) error = NULL;
    g_assert_true (zg330_kernel_conv2d (&in->t, &tw->w, &p, &out->t, &error));
    g_assert_no_error (error);
  }

  /* Input channels vs weight I. */
  t = in->t; t.c = 96;
  t.size = zg330_kernel_tensor_get_size (&t);
  {
    g_autofree guint8 *big = g_malloc0 (t.size);
    float s[96];
    for (guint i = 0; i < 96; i++) s[i] = 0.05f;
    t.data = big; t.scales = s;
    assert_conv_fails (&t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_SHAPE, "C=96");
  }
  t = in->t; t.c = 20;
  assert_conv_fails (&t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_SHAPE, "I=64");
  /* Output channels vs weight O. */
  t = out->t; t.c = 16;
  assert_conv_fails (&in->t, &tw->w, &p, &t, ZG330_KERNEL_ERROR_SHAPE, "O=64");
  /* Output size vs geometry. */
  p.pad_top = 0;
  assert_conv_fails (&in->t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_SHAPE, "output h=4");
  p.pad_top = 1; p.stride_w = 1;
  assert_conv_fails (&in->t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_SHAPE, "output w=4");
  p.stride_w = 0;
  assert_conv_fails (&in->t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "stride");
  p.stride_w = 2;
  /* Batch. */
  t = out->t; t.n = 2; t.size = 1 << 20;
  {
    g_autofree guint8 *big = g_malloc0 (t.size);
    t.data = big;
    assert_conv_fails (&in->t, &tw->w, &p, &t, ZG330_KERNEL_ERROR_SHAPE, "n=1");
  }
  /* Buffers. */
  t = in->t; t.size--;
  assert_conv_fails (&t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "input buffer");
  t = out->t; t.data = NULL;
  assert_conv_fails (&in->t, &tw->w, &p, &t, ZG330_KERNEL_ERROR_INVALID, "output buffer");
  w = tw->w; w.size--;
  assert_conv_fails (&in->t, &w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "weight buffer");
  w = tw->w; w.kh = 0;
  assert_conv_fails (&in->t, &w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "zero dimension");
  /* Scales and bias. */
  w = tw->w; w.scales = NULL;
  assert_conv_fails (&in->t, &w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "weight scales");
  memcpy (bad_scales, tw->scales, sizeof bad_scales);
  bad_scales[5] = -1.0f;
  w = tw->w; w.scales = bad_scales;
  assert_conv_fails (&in->t, &w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "weight scale[5]");
  w = tw->w; w.bias_size = 10;
  assert_conv_fails (&in->t, &w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "bias");
  {
    guint8 bias[128];
    memcpy (bias, tw->bias, sizeof bias);
    bias[2 * 3] = 0x00; bias[2 * 3 + 1] = 0x7c;   /* +inf */
    w = tw->w; w.bias = bias;
    assert_conv_fails (&in->t, &w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "bias[3]");
  }
  in->scales[7] = 0.06f;
  assert_conv_fails (&in->t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "input scale[7]");
  in->scales[7] = 0.05f;
  out->scales[2] = NAN;
  assert_conv_fails (&in->t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "output scale[2]");
  out->scales[2] = 0.5f;
  /* FP32 is not a conv operand. */
  t = in->t; t.dtype = ZG330_KERNEL_DTYPE_FP32;
  assert_conv_fails (&t, &tw->w, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "sint8 or uint8");
  /* Groups: 64 input channels with I = 32 weights is groups = 2, output must equal O. */
  {
    g_autoptr (TW) g2 = tw_new (1, 1, 3, 3, 32, 32, rand);
    t = out->t;
    assert_conv_fails (&in->t, &g2->w, &p, &t, ZG330_KERNEL_ERROR_SHAPE, "groups=2");
  }
  /* Reduction longer than the int32 accumulator allows. */
  {
    Zg330KernelWeights huge = tw->w;
    huge.kh = 200; huge.kw = 200; huge.size = G_MAXSIZE;
    assert_conv_fails (&in->t, &huge, &p, &out->t, ZG330_KERNEL_ERROR_INVALID, "int32 accumulator");
  }
}

/* ---------------------------------------------------------------------------------- */
/* add, concat, maxpool, upsample, reshape, cast                                      */

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
static void
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
static void
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

/* ---------------------------------------------------------------------------------- */
/* layout helpers                                                                     */

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kernels/fp16/known-values", test_fp16_known_values);
  g_test_add_func ("/kernels/fp16/roundtrip-every-half", test_fp16_roundtrip_all);
  g_test_add_func ("/kernels/geometry/yolov5s-shapes", test_geometry_yolov5s);
  g_test_add_func ("/kernels/geometry/rejects-impossible", test_geometry_impossible);
  g_test_add_func ("/kernels/conv/3x3-stride2-matches-reference", test_conv_3x3_s2);
  g_test_add_func ("/kernels/conv/3x3-same-batch2-matches-reference", test_conv_3x3_s1_same);
  g_test_add_func ("/kernels/conv/1x1-matches-reference", test_conv_1x1);
  g_test_add_func ("/kernels/conv/stem-6x6-c3-matches-reference", test_conv_stem_6x6);
  g_test_add_func ("/kernels/conv/uint8-input-matches-reference", test_conv_uint8_input);
  g_test_add_func ("/kernels/conv/partial-channel-blocks", test_conv_partial_channels);
  g_test_add_func ("/kernels/conv/depthwise-matches-reference", test_conv_depthwise);
  g_test_add_func ("/kernels/conv/depthwise-3x3-row-pairs", test_conv_depthwise_3x3_rows);
  g_test_add_func ("/kernels/conv/depthwise-3x3-type-planes", test_conv_depthwise_3x3_type_planes);
  g_test_add_func ("/kernels/conv/grouped-matches-reference", test_conv_grouped);
  g_test_add_data_func ("/kernels/conv/depthwise-random-shapes", GUINT_TO_POINTER (GROUPS_DEPTHWISE),
                        test_conv_groups_random);
  g_test_add_data_func ("/kernels/conv/grouped-random-shapes", GUINT_TO_POINTER (GROUPS_FEW),
                        test_conv_groups_random);
  g_test_add_data_func ("/kernels/conv/small-groups-random-shapes", GUINT_TO_POINTER (GROUPS_SMALL),
                        test_conv_groups_random);
  g_test_add_func ("/kernels/conv/small-groups-3x3-stride-1", test_conv_small_groups_3x3_stride1);
  g_test_add_func ("/kernels/conv/depthwise-3x3-every-accumulator", test_conv_depthwise_every_accumulator);
  g_test_add_func ("/kernels/conv/requant-ties-and-rails", test_conv_requant_boundaries);
  g_test_add_func ("/kernels/conv/rounds-half-away-from-zero", test_conv_rounds_half_away);
  g_test_add_func ("/kernels/conv/same-bytes-for-any-thread-count", test_conv_thread_invariant);
  g_test_add_func ("/kernels/conv/same-weights-other-scales", test_conv_rescaled);
  g_test_add_func ("/kernels/conv/rejects-mismatches", test_conv_rejects);
  g_test_add_func ("/kernels/add/requantises-both-inputs", test_add_requantises);
  g_test_add_func ("/kernels/add/large-flat-table", test_add_large_flat);
  g_test_add_func ("/kernels/add/every-byte-pair", test_add_every_byte_pair);
  g_test_add_func ("/kernels/add/rejects-shape-mismatch", test_add_rejects);
  g_test_add_func ("/kernels/concat/copies-aligned-blocks", test_concat_byte_copy);
  g_test_add_func ("/kernels/concat/requantises-unaligned-channels", test_concat_requantises_unaligned);
  g_test_add_func ("/kernels/concat/rejects-mismatches", test_concat_rejects);
  g_test_add_func ("/kernels/maxpool/padding-never-wins", test_maxpool_padding_never_wins);
  g_test_add_func ("/kernels/maxpool/stride2-and-rejects", test_maxpool_stride2);
  g_test_add_func ("/kernels/maxpool/random-shapes", test_maxpool_random);
  g_test_add_func ("/kernels/upsample/nearest-integer-factor", test_upsample_nearest);
  g_test_add_func ("/kernels/reshape/byte-copy-and-rejects", test_reshape_byte_copy);
  g_test_add_func ("/kernels/cast/uint8-image-to-sint8", test_cast_uint8_to_int8);
  g_test_add_func ("/kernels/cast/rescales-and-rejects", test_cast_rescale_and_rejects);
  g_test_add_func ("/kernels/layout/pack-unpack-int8-and-float", test_layout_pack_unpack);
  g_test_add_func ("/kernels/layout/dequantize-to-float-nhwc", test_dequantize_to_float);
  g_test_add_func ("/kernels/tensor/rejects-invalid-descriptors", test_tensor_rejects_invalid);

  return g_test_run ();
}
