/* xrt-tensor-codec.c — a tensor's elements as numbers: the quantisation channel of an
 * element, loading and storing each storage type (rounding half to even, saturating), and
 * floats encoded into and decoded from a tensor's bytes.
 */
#include "xrt/xrt-tensor-private.h"

#include "xrt/xrt-device.h"
#include "base/zw-checked.h"
#include "base/zw-half.h"

#include <math.h>
#include <string.h>

/* ---- element codecs ----------------------------------------------------------------- */

/* Maps a flat element index to its quantisation channel and that channel's scale and zero
 * point. A blocked layout's channel spans two axes (C and c of NCHWc32): channel = C * c_block
 * + c, and, as the compiler writes them, the scales may stop short of the padded channels of
 * the last block (those take the last scale). */
typedef struct {
  gboolean quantized;
  gboolean pair;
  guint64 stride_hi, dim_hi, stride_lo, dim_lo;  /* pair: the upper and lower axis */
  guint64 stride, dim;                           /* single axis */
  const XirElementType *el;
} ChannelMap;

static gboolean
channel_map_init (ChannelMap *m, const XrtTensor *t, const XirValue *v, GError **error)
{
  guint64 strides[XIR_LAYOUT_MAX_AXES];
  guint64 n_channels;
  gint a;

  memset (m, 0, sizeof *m);
  m->el = &v->element;
  m->quantized = v->element.quantized && v->element.n_scales > 0;
  if (!m->quantized)
    return TRUE;
  if (v->rank == 0)
    {
      m->dim = m->stride = 1;
      n_channels = 1;
      goto check;
    }
  for (gint i = (gint) v->rank - 1; i >= 0; i--)
    strides[i] = (guint) i == v->rank - 1 ? 1 : strides[i + 1] * (guint64) v->shape[i + 1];
  a = v->element.scale_axis < 0 ? (gint) v->rank + v->element.scale_axis : v->element.scale_axis;
  if (a < 0 || a >= (gint) v->rank)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "%s: scale_axis %d is outside the shape %s",
                   xrt_tensor_name (t).s, v->element.scale_axis, xrt_tensor_shape_text (v->shape, v->rank).s);
      return FALSE;
    }
  m->stride = strides[a];
  m->dim = (guint64) v->shape[a];
  n_channels = m->dim;
  if (!v->layout.any_rank && v->layout.n_axes == v->rank)
    {
      char letter = v->layout.axes[a];
      char other = g_ascii_isupper (letter) ? g_ascii_tolower (letter) : g_ascii_toupper (letter);
      gint b = xir_layout_index_of (&v->layout, other);

      if (b >= 0 && b != a && letter != '*')
        {
          gint hi = g_ascii_isupper (letter) ? a : b, lo = g_ascii_isupper (letter) ? b : a;
          m->pair = TRUE;
          m->stride_hi = strides[hi];
          m->dim_hi = (guint64) v->shape[hi];
          m->stride_lo = strides[lo];
          m->dim_lo = (guint64) v->shape[lo];
          n_channels = m->dim_hi * m->dim_lo;
        }
    }
check:
  if (v->element.n_scales == 1 || v->element.n_scales == n_channels
      || (m->pair && v->element.n_scales < n_channels && v->element.n_scales > n_channels - m->dim_lo))
    return TRUE;
  g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
               "%s: %u scales along axis %d of %s %s: need 1 or %" G_GUINT64_FORMAT " (scales)", xrt_tensor_name (t).s,
               v->element.n_scales, v->element.scale_axis, xrt_tensor_shape_text (v->shape, v->rank).s, v->layout.text, n_channels);
  return FALSE;
}

static void
channel_of (const ChannelMap *m, guint64 i, double *scale, double *zero)
{
  const XirElementType *el = m->el;
  guint64 c, k;

  if (!m->quantized)
    {
      *scale = 1.0;
      *zero = 0.0;
      return;
    }
  c = m->pair ? ((i / m->stride_hi) % m->dim_hi) * m->dim_lo + (i / m->stride_lo) % m->dim_lo
              : (i / m->stride) % m->dim;
  k = el->n_scales == 1 ? 0 : MIN (c, el->n_scales - 1);
  /* an exponent scale is m×2^-e: the scale the board computes with (s is what it approximates) */
  *scale = el->scale_mantissas ? ldexp ((double) el->scale_mantissas[k], -el->scale_exponents[k]) : (double) el->scales[k];
  *zero = el->n_zero_points == 0 ? 0.0 : (double) el->zero_points[el->n_zero_points == 1 ? 0 : MIN (c, el->n_zero_points - 1)];
}

gboolean
xrt_tensor_codec_of (const XrtTensor *t, const XirValue *v, Codec *codec, GError **error)
{
  const XirScalarType *s = &v->element.storage;

  if ((s->kind == XIR_SCALAR_SINT || s->kind == XIR_SCALAR_UINT) && (s->bits == 8 || s->bits == 16 || s->bits == 32))
    *codec = CODEC_INT;
  else if (s->kind == XIR_SCALAR_FP && s->bits == 16)
    *codec = CODEC_FP16;
  else if (s->kind == XIR_SCALAR_BF && s->bits == 16)
    *codec = CODEC_BF16;
  else if (s->kind == XIR_SCALAR_FP && s->bits == 32)
    *codec = CODEC_FP32;
  else if (s->kind == XIR_SCALAR_FP && s->bits == 64)
    *codec = CODEC_FP64;
  else
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: dtype %s cannot be converted (element_dtype: int 8/16/32, fp16, bf16, fp32, fp64)",
                   t ? xrt_tensor_name (t).s : "tensor", xrt_tensor_dtype_text (v).s);
      return FALSE;
    }
  return TRUE;
}

static double
load_element (const XirScalarType *s, Codec codec, const guint8 *p)
{
  switch (codec)
    {
    case CODEC_FP16:
      return zw_fp16_to_float ((guint16) (p[0] | (p[1] << 8)));
    case CODEC_BF16:
      {
        guint32 u = ((guint32) p[0] << 16) | ((guint32) p[1] << 24);
        float f;
        memcpy (&f, &u, 4);
        return f;
      }
    case CODEC_FP32:
      {
        guint32 u;
        float f;
        memcpy (&u, p, 4);
        u = GUINT32_FROM_LE (u);
        memcpy (&f, &u, 4);
        return f;
      }
    case CODEC_FP64:
      {
        guint64 u;
        double d;
        memcpy (&u, p, 8);
        u = GUINT64_FROM_LE (u);
        memcpy (&d, &u, 8);
        return d;
      }
    case CODEC_INT:
    default:
      {
        gboolean sgn = s->kind == XIR_SCALAR_SINT;
        if (s->bits == 8)
          return sgn ? (double) (gint8) p[0] : (double) p[0];
        if (s->bits == 16)
          {
            guint16 x = (guint16) (p[0] | (p[1] << 8));
            return sgn ? (double) (gint16) x : (double) x;
          }
        {
          guint32 x = (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
          return sgn ? (double) (gint32) x : (double) x;
        }
      }
    }
}

/* Stores @x (already divided by the scale for integers) rounding half to even and saturating;
 * NaN becomes the zero point. */
static void
store_element (const XirScalarType *s, Codec codec, double x, double zero, guint8 *p)
{
  switch (codec)
    {
    case CODEC_FP16:
      {
        guint16 h = zw_float_to_fp16 ((float) x);
        p[0] = (guint8) h;
        p[1] = (guint8) (h >> 8);
        return;
      }
    case CODEC_BF16:
      {
        float f = (float) x;
        guint32 u;
        memcpy (&u, &f, 4);
        if (isnan (f))
          u = (u | 0x00400000u);
        else
          u += 0x7fffu + ((u >> 16) & 1u);
        p[0] = (guint8) (u >> 16);
        p[1] = (guint8) (u >> 24);
        return;
      }
    case CODEC_FP32:
      {
        float f = (float) x;
        guint32 u;
        memcpy (&u, &f, 4);
        u = GUINT32_TO_LE (u);
        memcpy (p, &u, 4);
        return;
      }
    case CODEC_FP64:
      {
        guint64 u;
        memcpy (&u, &x, 8);
        u = GUINT64_TO_LE (u);
        memcpy (p, &u, 8);
        return;
      }
    case CODEC_INT:
    default:
      {
        double lo = s->kind == XIR_SCALAR_SINT ? -ldexp (1.0, (int) s->bits - 1) : 0.0;
        double hi = s->kind == XIR_SCALAR_SINT ? ldexp (1.0, (int) s->bits - 1) - 1.0 : ldexp (1.0, (int) s->bits) - 1.0;
        double q = isnan (x) ? zero : rint (x) + zero;   /* rint: half to even in the default mode */
        guint32 u;

        q = q < lo ? lo : q > hi ? hi : q;
        u = s->kind == XIR_SCALAR_SINT ? (guint32) (gint32) q : (guint32) q;
        p[0] = (guint8) u;
        if (s->bits >= 16)
          p[1] = (guint8) (u >> 8);
        if (s->bits == 32)
          {
            p[2] = (guint8) (u >> 16);
            p[3] = (guint8) (u >> 24);
          }
        return;
      }
    }
}

/* Encodes @n floats (@src_stride 0: one value for every element) into @v's storage at @dst. */
gboolean
xrt_tensor_encode_floats (const XrtTensor *t, const XirValue *v, const float *src, gsize src_stride, guint8 *dst, GError **error)
{
  ChannelMap map;
  Codec codec;
  guint bytes = v->element.storage.bits / 8;

  if (!xrt_tensor_codec_of (t, v, &codec, error) || !channel_map_init (&map, t, v, error))
    return FALSE;
  for (guint64 i = 0; i < v->n_elements; i++)
    {
      double scale, zero, x = src[i * src_stride];
      channel_of (&map, i, &scale, &zero);
      store_element (&v->element.storage, codec, codec == CODEC_INT ? x / scale : x, zero, dst + i * bytes);
    }
  return TRUE;
}

/* Reads @t's bytes and decodes them to floats (scale × (q - zero point) for quantised types). */
float *
xrt_tensor_decode_floats (const XrtTensor *t, GError **error)
{
  const XirValue *v = t->value;
  g_autofree guint8 *raw = NULL;
  g_autofree float *out = NULL;
  ChannelMap map;
  Codec codec;
  guint64 out_bytes;
  guint bytes = v->element.storage.bits / 8;

  if (!xrt_tensor_codec_of (t, v, &codec, error) || !channel_map_init (&map, t, v, error))
    return NULL;
  if (!zw_u64_mul (v->n_elements, sizeof (float), &out_bytes) || out_bytes > ZW_MAX_TENSOR_BYTES)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: %" G_GUINT64_FORMAT " elements are too many to convert",
                   xrt_tensor_name (t).s, v->n_elements);
      return NULL;
    }
  if ((raw = xrt_tensor_dup_bytes (t, error)) == NULL)
    return NULL;
  out = g_try_malloc (MAX (out_bytes, 1));
  if (out == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for %" G_GUINT64_FORMAT " bytes of floats",
                   xrt_tensor_name (t).s, out_bytes);
      return NULL;
    }
  for (guint64 i = 0; i < v->n_elements; i++)
    {
      double scale, zero, x = load_element (&v->element.storage, codec, raw + i * bytes);
      channel_of (&map, i, &scale, &zero);
      out[i] = (float) (codec == CODEC_INT ? (x - zero) * scale : x);
    }
  return g_steal_pointer (&out);
}

gboolean
xrt_tensor_fill_float (XrtTensor *t, double value, GError **error)
{
  g_autofree guint8 *buf = NULL;
  float f = (float) value;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  if (chunk_of (t) == NULL)
    return xrt_tensor_no_data_error (t, "fill", error);
  if (t->value->storage_bytes > ZW_MAX_TENSOR_BYTES || (buf = g_try_malloc (MAX (t->value->storage_bytes, 1))) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for %" G_GUINT64_FORMAT " bytes",
                   xrt_tensor_name (t).s, t->value->storage_bytes);
      return FALSE;
    }
  return xrt_tensor_encode_floats (t, t->value, &f, 0, buf, error) && xrt_tensor_write (t, buf, t->value->storage_bytes, error);
}
