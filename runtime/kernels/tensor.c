/* tensor.c: the kernels' tensor descriptors: checks of their fields (each error names
 * the kernel, the operand and the field), element addressing and the padding bytes.
 */
#include "kernels/kernels-private.h"

G_DEFINE_QUARK (zg330-kernel-error-quark, zg330_kernel_error)
/* ---------------------------------------------------------------------------------- */
/* descriptors                                                                        */

const char *
dtype_name (Zg330KernelDType d)
{
  switch (d)
    {
    case ZG330_KERNEL_DTYPE_SINT8: return "sint8";
    case ZG330_KERNEL_DTYPE_UINT8: return "uint8";
    case ZG330_KERNEL_DTYPE_FP32: return "fp32";
    default: return "?";
    }
}

/* Element count including NCHWcK padding; 0 on overflow or malformed dims. */
static guint64
tensor_elements (const Zg330KernelTensor *t)
{
  guint64 c, e;

  if (t->n == 0 || t->c == 0 || t->h == 0 || t->w == 0)
    return 0;
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    {
      if (t->k == 0)
        return 0;
      c = (guint64) n_blocks (t) * t->k;
    }
  else if (t->layout == ZG330_KERNEL_LAYOUT_NHWC)
    c = t->c;
  else
    return 0;
  e = (guint64) t->n * c;
  if (e > (G_GUINT64_CONSTANT (1) << 40) / t->h)
    return 0;
  e *= t->h;
  if (e > (G_GUINT64_CONSTANT (1) << 40) / t->w)
    return 0;
  return e * t->w;
}

gsize
zg330_kernel_tensor_get_size (const Zg330KernelTensor *t)
{
  g_return_val_if_fail (t != NULL, 0);
  if ((guint) t->dtype > ZG330_KERNEL_DTYPE_FP32)
    return 0;
  return (gsize) (tensor_elements (t) * elem_size (t));
}

char *
tensor_describe (const Zg330KernelTensor *t)
{
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    return g_strdup_printf ("%s NCHWc%u n=%u c=%u h=%u w=%u", dtype_name (t->dtype),
                            t->k, t->n, t->c, t->h, t->w);
  return g_strdup_printf ("%s NHWC n=%u c=%u h=%u w=%u", dtype_name (t->dtype),
                          t->n, t->c, t->h, t->w);
}

/* A scale's bits as a signed int32: a positive finite float (subnormals too: the checks
 * run with the default MXCSR) is 1 .. 0x7f7fffff; zero and the negatives lie at or below
 * 0, the infinity and NaN at or above 0x7f800000. */
#define SCALE_OK(i) ((i) > 0 && (i) < 0x7f800000)

/* The first of @n scales that is not a positive finite number, or -1: one pass on the
 * scales' bits, four at a time in a 16-byte GCC vector with signed compares (SSE2 has
 * them; wider vectors GCC splits into scalars; the checks run at every call, and a small
 * conv takes microseconds), then the search only when one is bad. */
gssize
first_bad_scale (const float *s, guint n)
{
  typedef gint32 Bits4 __attribute__ ((vector_size (16)));
  const Bits4 inf = { 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000 };
  Bits4 bad4 = { 0 };
  gint32 bad = 0;
  guint i = 0;

  for (; i + 4 <= n; i += 4)
    {
      Bits4 v;
      memcpy (&v, s + i, sizeof v);
      bad4 |= (v <= 0) | (v >= inf);
    }
  for (guint l = 0; l < 4; l++)
    bad |= bad4[l];
  for (; i < n; i++)
    {
      gint32 u;
      memcpy (&u, s + i, sizeof u);
      bad |= !SCALE_OK (u);
    }
  if (bad == 0)
    return -1;
  for (i = 0; i < n; i++)
    {
      gint32 u;
      memcpy (&u, s + i, sizeof u);
      if (!SCALE_OK (u))
        return i;
    }
  return -1;
}

gboolean
tensor_check (const Zg330KernelTensor *t, const char *op, const char *name,
              gboolean int_only, GError **error)
{
  g_autofree char *desc = NULL;
  gsize need;

  if ((guint) t->layout > ZG330_KERNEL_LAYOUT_NCHWC)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s layout %d is unknown", op, name, (int) t->layout);
      return FALSE;
    }
  if ((guint) t->dtype > ZG330_KERNEL_DTYPE_FP32)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s dtype %d is unknown", op, name, (int) t->dtype);
      return FALSE;
    }
  /* (the description only for an error: formatting it costs more than a small conv's checks) */
  if (int_only && t->dtype == ZG330_KERNEL_DTYPE_FP32)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s (%s) must be sint8 or uint8", op, name, desc);
      return FALSE;
    }
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC && t->k == 0)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s (%s) has channel block K=0", op, name, desc);
      return FALSE;
    }
  need = zg330_kernel_tensor_get_size (t);
  if (need == 0)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s (%s) has a zero or oversized dimension", op, name, desc);
      return FALSE;
    }
  if (t->data == NULL || t->size < need)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s buffer holds %" G_GSIZE_FORMAT " bytes, %s needs %" G_GSIZE_FORMAT,
                   op, name, t->data ? t->size : 0, desc, need);
      return FALSE;
    }
  if (t->scales != NULL)
    {
      gssize c = first_bad_scale (t->scales, t->c);
      if (c >= 0)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                       "%s: %s scale[%u] = %g is not a positive finite number",
                       op, name, (guint) c, (double) t->scales[c]);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
check_same_nhw (const char *op, const char *an, const Zg330KernelTensor *a,
                const char *bn, const Zg330KernelTensor *b, gboolean with_c, GError **error)
{
  if (a->n != b->n || a->h != b->h || a->w != b->w || (with_c && a->c != b->c))
    {
      g_autofree char *da = tensor_describe (a);
      g_autofree char *db = tensor_describe (b);
      const char *field = a->n != b->n ? "n" : a->h != b->h ? "h" : a->w != b->w ? "w" : "c";
      guint va = a->n != b->n ? a->n : a->h != b->h ? a->h : a->w != b->w ? a->w : a->c;
      guint vb = a->n != b->n ? b->n : a->h != b->h ? b->h : a->w != b->w ? b->w : b->c;
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "%s: %s %s=%u != %s %s=%u (%s vs %s)", op, an, field, va, bn, field, vb,
                   da, db);
      return FALSE;
    }
  return TRUE;
}

void
addr_init (Addr *a, const Zg330KernelTensor *t)
{
  a->chan = t->c <= ADDR_LOCAL ? a->local : g_new (gsize, t->c);
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    {
      gsize plane = (gsize) t->h * t->w * t->k;
      a->batch = plane * n_blocks (t);
      a->pix = t->k;
      /* block by block: no division per channel */
      for (guint c = 0, cb = 0; c < t->c; cb++)
        {
          const guint nj = MIN (t->k, t->c - c);
          const gsize base = (gsize) cb * plane;
          for (guint j = 0; j < nj; j++)
            a->chan[c + j] = base + j;
          c += nj;
        }
    }
  else
    {
      a->batch = (gsize) t->h * t->w * t->c;
      a->pix = t->c;
      for (guint c = 0; c < t->c; c++)
        a->chan[c] = c;
    }
  a->row = a->pix * t->w;
}

void
addr_clear (Addr *a)
{
  if (a->chan != a->local)
    g_free (a->chan);
  a->chan = NULL;
}

/* Outputs carry zeros in the padding channels of a partial last NCHWcK block, so
 * dumps and checksums do not depend on stale memory. */
void
zero_padding (const Zg330KernelTensor *t)
{
  gsize es = elem_size (t);
  guint used, cb;
  gsize plane, pixels;
  guint8 *base = t->data;

  if (t->layout != ZG330_KERNEL_LAYOUT_NCHWC || t->c % t->k == 0)
    return;
  used = t->c % t->k;
  cb = n_blocks (t);
  pixels = (gsize) t->h * t->w;
  plane = pixels * t->k;
  for (guint n = 0; n < t->n; n++)
    {
      guint8 *blk = base + ((gsize) n * cb + cb - 1) * plane * es;
      for (gsize p = 0; p < pixels; p++)
        memset (blk + (p * t->k + used) * es, 0, (t->k - used) * es);
    }
}
/* Output rows a window geometry needs beyond the input, and whether that fits the
 * rule "bottom/right padding <= top/left padding". */
gboolean
check_window (const char *op, const char *dim, guint in, guint out, guint k, guint s,
              guint pad, GError **error)
{
  gint64 need;

  if (s == 0 || k == 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s %s is 0", op, dim, s == 0 ? "stride" : "kernel");
      return FALSE;
    }
  /* out = floor((in + pad + far - k) / s) + 1 for some far padding in [0, pad]. */
  need = (gint64) (out - 1) * s + k - (gint64) in - pad;
  if (need > (gint64) pad || need + (gint64) s - 1 < 0)
    {
      gint64 span_hi = (gint64) in + 2 * pad - k;
      gint64 span_lo = (gint64) in + pad - k;
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "%s: output %s=%u does not fit input %s=%u with kernel %u, stride %u, "
                   "padding %u (expected %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT ")",
                   op, dim, out, dim, in, k, s, pad,
                   span_lo >= 0 ? span_lo / s + 1 : 1,
                   span_hi >= 0 ? span_hi / s + 1 : 0);
      return FALSE;
    }
  return TRUE;
}
/* ---------------------------------------------------------------------------------- */
/* element-wise and data movement                                                     */

gboolean
same_memory_layout (const Zg330KernelTensor *a, const Zg330KernelTensor *b)
{
  return a->layout == b->layout && a->n == b->n && a->c == b->c && a->h == b->h
         && a->w == b->w && (a->layout == ZG330_KERNEL_LAYOUT_NHWC || a->k == b->k);
}

gboolean
scales_uniform (const Zg330KernelTensor *t)
{
  if (t->scales == NULL)
    return TRUE;
  for (guint c = 1; c < t->c; c++)
    if (t->scales[c] != t->scales[0])
      return FALSE;
  return TRUE;
}
