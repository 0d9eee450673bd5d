/* test-kernels-conv-requant.c: the conv's requantisation at its rounding boundaries and rails,
 * every accumulator of a 3x3 depthwise channel, whatever rounding mode the caller set. */
#include "zw-test-kernel-ref.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

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

void
test_kernels_add_conv_requant (void)
{
  g_test_add_func ("/kernels/conv/depthwise-3x3-every-accumulator", test_conv_depthwise_every_accumulator);
  g_test_add_func ("/kernels/conv/requant-ties-and-rails", test_conv_requant_boundaries);
  g_test_add_func ("/kernels/conv/rounds-half-away-from-zero", test_conv_rounds_half_away);
}
