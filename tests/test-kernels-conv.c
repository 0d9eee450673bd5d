/* test-kernels-conv.c: dense, depthwise and grouped convs against the reference conv on every
 * path this CPU has, the same bytes for any thread count, and the rejected operands. */
#include "zw-test-kernel-ref.h"

#include <math.h>
#include <string.h>

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

void
test_kernels_add_conv (void)
{
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
  g_test_add_func ("/kernels/conv/same-bytes-for-any-thread-count", test_conv_thread_invariant);
  g_test_add_func ("/kernels/conv/same-weights-other-scales", test_conv_rescaled);
  g_test_add_func ("/kernels/conv/rejects-mismatches", test_conv_rejects);
}
