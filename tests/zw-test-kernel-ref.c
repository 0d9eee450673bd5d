/* zw-test-kernel-ref.c: the kernels tests' test tensors and weights and the naive reference
 * conv (see zw-test-kernel-ref.h). */
#include "zw-test-kernel-ref.h"

#include <math.h>
#include <string.h>

gsize
ref_offset (const Zg330KernelTensor *t, guint n, guint c, guint h, guint w)
{
  if (t->layout == ZG330_KERNEL_LAYOUT_NHWC)
    return (((gsize) n * t->h + h) * t->w + w) * t->c + c;
  {
    gsize cb = (t->c + t->k - 1) / t->k;
    return ((((gsize) n * cb + c / t->k) * t->h + h) * t->w + w) * t->k + c % t->k;
  }
}

TT *
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

void
tt_free (TT *tt)
{
  g_free (tt->t.data);
  g_free (tt->scales);
  g_free (tt);
}

gint
tt_get (const TT *tt, guint n, guint c, guint h, guint w)
{
  guint8 b = ((const guint8 *) tt->t.data)[ref_offset (&tt->t, n, c, h, w)];
  return tt->t.dtype == ZG330_KERNEL_DTYPE_UINT8 ? b : (gint8) b;
}

void
tt_set (TT *tt, guint n, guint c, guint h, guint w, gint v)
{
  ((guint8 *) tt->t.data)[ref_offset (&tt->t, n, c, h, w)] = (guint8) v;
}

void
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
void
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

gint
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
gboolean
use_mode (guint mode)
{
  if (mode == 2 && !have_vnni ())
    return FALSE;
  zg330_kernel_set_plain_only (mode == 0);
  if (mode == 1)
    zg330_kernel_set_generic_only (TRUE);
  return TRUE;
}

TW *
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

void
tw_free (TW *tw)
{
  g_free (tw->data);
  g_free (tw->scales);
  g_free (tw->bias);
  g_free (tw);
}

static gint
tw_get (const TW *tw, guint o, guint i, guint kh, guint kw)
{
  gsize idx = ((((gsize) (o / tw->ko) * tw->ib + i / tw->ki) * tw->kh + kh) * tw->kw + kw)
                  * tw->ko * tw->ki
              + (gsize) (o % tw->ko) * tw->ki + i % tw->ki;
  return tw->data[idx];
}
void
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
