/* xrt-tensor.c — Tensor: a value's type over MemChunk bytes, and its conversions. */
#include "xrt/xrt-tensor.h"
#include "xrt/xrt-device.h"
#include "base/zw-checked.h"
#include "base/zw-half.h"

#include <math.h>
#include <string.h>

struct _XrtTensor {
  gint ref_count;
  XirNetwork *net;        /* the network @value belongs to, or NULL */
  const XirValue *value;  /* the network's value, or @own */
  XirValue *own;          /* a standalone type, owned, or NULL */
  XrtMemChunk *chunk;     /* NULL: no data yet; set once (atomically), never replaced */
  guint64 offset;
  GMutex lock;            /* readiness */
  GCond cond;
  gboolean ready;
};

G_DEFINE_BOXED_TYPE (XrtTensor, xrt_tensor, xrt_tensor_ref, xrt_tensor_unref)

/* ---- words for error messages ------------------------------------------------- */

/* C11 keeps a returned struct (and its array) alive to the end of the full expression, so
 * these can be used directly as printf arguments. */
typedef struct { char s[64]; } TName;
typedef struct { char s[400]; } TText;

static TName
vname (const XirValue *v)
{
  TName n;
  if (v->v_id >= 0)
    g_snprintf (n.s, sizeof n.s, "tensor of v_id %" G_GINT64_FORMAT, v->v_id);
  else
    g_strlcpy (n.s, "standalone tensor", sizeof n.s);
  return n;
}

static TName
tname (const XrtTensor *t)
{
  return vname (t->value);
}

static TText
shape_text (const gint64 *shape, guint rank)
{
  TText r;
  gsize len = 0;

  r.s[len++] = '[';
  r.s[len] = '\0';
  for (guint i = 0; i < rank && len + 24 < sizeof r.s; i++)
    len += (gsize) g_snprintf (r.s + len, sizeof r.s - len, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_strlcat (r.s, "]", sizeof r.s);
  return r;
}

/* "@sint(8) QuantizedType [1, 3, 4, 4] NCHW" */
static TText
dtype_text (const XirValue *v)
{
  TText r;
  g_autofree char *scalar = xir_scalar_type_to_string (&v->element.storage);
  const char *kind = xir_element_kind_to_string (v->element.kind);

  g_snprintf (r.s, sizeof r.s, "%s%s%s %s %s", scalar, *kind ? " " : "", kind, shape_text (v->shape, v->rank).s,
              v->layout.text);
  return r;
}

static gboolean
no_data_error (const XrtTensor *t, const char *what, GError **error)
{
  g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
               "%s: cannot %s: it has no memory (made without data; malloc_on or set_data first)", tname (t).s, what);
  return FALSE;
}

static XrtMemChunk *
chunk_of (const XrtTensor *t)
{
  return g_atomic_pointer_get (&((XrtTensor *) t)->chunk);
}

/* ---- construction --------------------------------------------------------------- */

static gboolean
check_fit (const XirValue *value, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  guint64 size = xrt_mem_chunk_get_size (chunk);

  if (zw_range_inside (offset, value->storage_bytes, 0, size))
    return TRUE;
  g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
               "%s: %" G_GUINT64_FORMAT " bytes at offset %" G_GUINT64_FORMAT " do not fit the chunk of %"
               G_GUINT64_FORMAT " bytes (offset)", vname (value).s, value->storage_bytes, offset, size);
  return FALSE;
}

/* Takes @own; @chunk may be NULL (no data: not ready). */
static XrtTensor *
tensor_alloc (XirNetwork *net, const XirValue *value, XirValue *own, XrtMemChunk *chunk, guint64 offset,
              gboolean ready)
{
  XrtTensor *t = g_new0 (XrtTensor, 1);

  t->ref_count = 1;
  t->net = net ? xir_network_ref (net) : NULL;
  t->own = own;
  t->value = own ? own : value;
  t->chunk = chunk ? xrt_mem_chunk_ref (chunk) : NULL;
  t->offset = chunk ? offset : 0;
  g_mutex_init (&t->lock);
  g_cond_init (&t->cond);
  t->ready = chunk != NULL && ready;
  return t;
}

/* A tensor of the same type as @t (the network's value, or a copy of the standalone one). */
static XrtTensor *
tensor_alloc_like (const XrtTensor *t, XrtMemChunk *chunk, guint64 offset, gboolean ready)
{
  return tensor_alloc (t->net, t->value, t->own ? xir_value_copy (t->own) : NULL, chunk, offset, ready);
}

static XrtMemChunk *
alloc_chunk (XrtMemRegion *region, guint64 bytes, GError **error)
{
  return xrt_mem_region_malloc (region, MAX (bytes, 1), TRUE, xrt_mem_region_is_host (region) ? 64 : 0, error);
}

XrtTensor *
xrt_tensor_new (XirNetwork *net, const XirValue *value, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (value != NULL, "value", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (chunk != NULL, "chunk", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (!check_fit (value, chunk, offset, error))
    return NULL;
  return tensor_alloc (net, value, NULL, chunk, offset, TRUE);
}

static XrtTensor *
new_host (XirNetwork *net, const XirValue *value, XirValue *own, const void *data, gsize size, GError **error)
{
  const XirValue *type = own ? own : value;
  g_autoptr (XrtMemChunk) chunk = NULL;

  if (data != NULL && size != type->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: got %" G_GSIZE_FORMAT " bytes, the type %s needs %" G_GUINT64_FORMAT " (data size)",
                   vname (type).s, size, dtype_text (type).s, type->storage_bytes);
      if (own)
        xir_value_free (own);
      return NULL;
    }
  chunk = alloc_chunk (xrt_host_mem_region_get_default (), type->storage_bytes, error);
  if (chunk == NULL || (data != NULL && size > 0 && !xrt_mem_chunk_write (chunk, 0, data, size, error)))
    {
      if (own)
        xir_value_free (own);
      return NULL;
    }
  if (data == NULL)
    {
      guint8 *p = xrt_mem_chunk_get_host_pointer (chunk);
      if (p != NULL)
        memset (p, 0, type->storage_bytes);
    }
  return tensor_alloc (net, value, own, chunk, 0, TRUE);
}

XrtTensor *
xrt_tensor_new_host (XirNetwork *net, const XirValue *value, const void *data, gsize size, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (value != NULL, "value", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  return new_host (net, value, NULL, data, size, error);
}

XirValue *
xrt_tensor_make_dtype (const char *storage, const char *layout, const gint64 *shape, guint rank, gint scale_axis,
                      const float *scales, guint n_scales, const gint64 *zero_points, guint n_zero_points,
                      GError **error)
{
  g_autoptr (GError) local = NULL;
  XirElementType el;

  memset (&el, 0, sizeof el);
  if (!xir_parse_scalar_type (storage, &el.storage, &local))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: storage: %s", local->message);
      return NULL;
    }
  el.kind = n_scales > 0 ? XIR_ELEMENT_QUANTIZED : XIR_ELEMENT_PLAIN;
  el.expressed.kind = XIR_SCALAR_FP;
  el.expressed.bits = 32;
  el.scale_axis = scale_axis;
  el.norm_axis = -1;
  el.n_scales = n_scales;
  el.scales = (float *) scales;
  el.n_zero_points = n_zero_points;
  el.zero_points = (gint64 *) zero_points;
  return xir_value_new (&el, layout, shape, rank, error);
}

XrtTensor *
xrt_tensor_new_for_dtype (const XirValue *dtype, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (dtype != NULL, "dtype", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (chunk != NULL && !check_fit (dtype, chunk, offset, error))
    return NULL;
  return tensor_alloc (NULL, NULL, xir_value_copy (dtype), chunk, offset, TRUE);
}

XrtTensor *
xrt_tensor_new_host_for_dtype (const XirValue *dtype, const guint8 *data, gsize size, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (dtype != NULL, "dtype", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  return new_host (NULL, NULL, xir_value_copy (dtype), data, size, error);
}

XrtTensor *
xrt_tensor_new_from_bytes (const XirValue *dtype, GBytes *bytes, GError **error)
{
  gsize size = 0;
  const guint8 *data;

  ZW_RETURN_VAL_IF_BAD_ARG (dtype != NULL, "dtype", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (bytes != NULL, "bytes", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  data = g_bytes_get_data (bytes, &size);
  /* an empty GBytes may have a NULL data pointer: still "data" of zero bytes */
  return new_host (NULL, NULL, xir_value_copy (dtype), data ? data : (const guint8 *) "", size, error);
}

XrtTensor *
xrt_tensor_ref (XrtTensor *t)
{
  g_return_val_if_fail (t != NULL, NULL);
  g_atomic_int_inc (&t->ref_count);
  return t;
}

void
xrt_tensor_unref (XrtTensor *t)
{
  if (t == NULL || !g_atomic_int_dec_and_test (&t->ref_count))
    return;
  if (t->chunk)
    xrt_mem_chunk_unref (t->chunk);
  if (t->net)
    xir_network_unref (t->net);
  if (t->own)
    xir_value_free (t->own);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->cond);
  g_free (t);
}

/* ---- type and memory ---------------------------------------------------------------- */

const XirValue *xrt_tensor_get_value (const XrtTensor *t) { return t->value; }

XirNetwork *xrt_tensor_get_network (const XrtTensor *t) { return t->net; }

const gint64 *
xrt_tensor_get_shape (const XrtTensor *t, guint *rank)
{
  if (rank != NULL)
    *rank = t->value->rank;
  return t->value->shape;
}

XrtMemChunk *xrt_tensor_get_chunk (const XrtTensor *t) { return chunk_of (t); }

guint64 xrt_tensor_get_offset (const XrtTensor *t) { return chunk_of (t) ? t->offset : 0; }

guint64 xrt_tensor_get_size (const XrtTensor *t) { return t->value->storage_bytes; }

gboolean xrt_tensor_has_data (const XrtTensor *t) { return chunk_of (t) != NULL; }

XrtMemRegion *
xrt_tensor_get_region (const XrtTensor *t)
{
  XrtMemChunk *c = chunk_of (t);
  return c ? xrt_mem_chunk_get_region (c) : NULL;
}

gboolean
xrt_tensor_is_on (const XrtTensor *t, XrtMemRegion *region)
{
  XrtMemChunk *c = chunk_of (t);
  return c != NULL && region != NULL && xrt_mem_chunk_is_on (c, region);
}

static gboolean
install_chunk (XrtTensor *t, XrtMemChunk *chunk, guint64 offset, const char *what, GError **error)
{
  g_mutex_lock (&t->lock);
  if (chunk != NULL && t->chunk == NULL)
    {
      t->offset = offset;
      /* a full barrier: whoever sees the chunk sees the offset */
      g_atomic_pointer_set (&t->chunk, xrt_mem_chunk_ref (chunk));
      g_mutex_unlock (&t->lock);
      return TRUE;
    }
  g_mutex_unlock (&t->lock);
  /* memory is set once: callers may hold the chunk xrt_tensor_get_chunk() returned */
  g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "%s: cannot %s: it already has memory (%s)",
               tname (t).s, what, xrt_mem_region_get_name (xrt_mem_chunk_get_region (chunk_of (t))));
  return FALSE;
}

gboolean
xrt_tensor_malloc_on (XrtTensor *t, XrtMemRegion *region, GError **error)
{
  g_autoptr (XrtMemChunk) chunk = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  if (chunk_of (t) != NULL)
    return install_chunk (t, NULL, 0, "malloc_on", error);
  chunk = alloc_chunk (region, t->value->storage_bytes, error);
  return chunk != NULL && install_chunk (t, chunk, 0, "malloc_on", error);
}

gboolean
xrt_tensor_set_data (XrtTensor *t, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (chunk != NULL, "chunk", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  if (!check_fit (t->value, chunk, offset, error) || !install_chunk (t, chunk, offset, "set_data", error))
    return FALSE;
  xrt_tensor_set_ready (t, TRUE);
  return TRUE;
}

/* ---- readiness ------------------------------------------------------------------------ */

gboolean
xrt_tensor_is_ready (const XrtTensor *tensor)
{
  XrtTensor *t = (XrtTensor *) tensor;
  gboolean ready;

  g_mutex_lock (&t->lock);
  ready = t->ready;
  g_mutex_unlock (&t->lock);
  return ready;
}

void
xrt_tensor_set_ready (XrtTensor *t, gboolean ready)
{
  g_return_if_fail (t != NULL);
  g_mutex_lock (&t->lock);
  t->ready = ready;
  g_cond_broadcast (&t->cond);
  g_mutex_unlock (&t->lock);
}

gboolean
xrt_tensor_wait_ready (const XrtTensor *tensor, guint timeout_ms, GError **error)
{
  XrtTensor *t = (XrtTensor *) tensor;
  XrtMemChunk *c;
  XrtDevice *device;
  guint64 wait_ms = timeout_ms;
  gint64 end;
  gboolean ready;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  c = chunk_of (t);
  device = c ? xrt_mem_region_get_device (xrt_mem_chunk_get_region (c)) : NULL;
  if (device != NULL)
    wait_ms = MAX (wait_ms, xrt_device_get_wait_time (device));
  end = g_get_monotonic_time () + (gint64) MIN (wait_ms, G_MAXINT64 / 2000) * 1000;
  g_mutex_lock (&t->lock);
  while (!t->ready)
    if (!g_cond_wait_until (&t->cond, &t->lock, end))
      break;
  ready = t->ready;
  g_mutex_unlock (&t->lock);
  if (!ready)
    g_set_error (error, XRT_ERROR, XRT_ERROR_TIMEOUT, "%s is not ready after %" G_GUINT64_FORMAT " ms (%s)",
                 tname (t).s, wait_ms, chunk_of (t) ? "it has memory but was not written" : "it has no memory yet");
  return ready;
}

/* ---- bytes ---------------------------------------------------------------------------- */

gboolean
xrt_tensor_read (const XrtTensor *t, void *dest, gsize size, GError **error)
{
  XrtMemChunk *c = chunk_of (t);

  if (size != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: reading %" G_GSIZE_FORMAT " bytes of %" G_GUINT64_FORMAT " (size)", tname (t).s, size,
                   t->value->storage_bytes);
      return FALSE;
    }
  if (c == NULL)
    return no_data_error (t, "read", error);
  return size == 0 || xrt_mem_chunk_read (c, t->offset, dest, size, error);
}

gboolean
xrt_tensor_write (XrtTensor *t, const void *src, gsize size, GError **error)
{
  XrtMemChunk *c = chunk_of (t);

  if (size != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: writing %" G_GSIZE_FORMAT " bytes, the value has %" G_GUINT64_FORMAT " (size)", tname (t).s,
                   size, t->value->storage_bytes);
      return FALSE;
    }
  if (c == NULL)
    return no_data_error (t, "write", error);
  if (size > 0 && !xrt_mem_chunk_write (c, t->offset, src, size, error))
    return FALSE;
  xrt_tensor_set_ready (t, TRUE);
  return TRUE;
}

guint8 *
xrt_tensor_dup_bytes (const XrtTensor *t, GError **error)
{
  guint8 *buf = g_try_malloc (MAX (t->value->storage_bytes, 1));

  if (buf == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for a copy of %" G_GUINT64_FORMAT " bytes",
                   tname (t).s, t->value->storage_bytes);
      return NULL;
    }
  if (!xrt_tensor_read (t, buf, t->value->storage_bytes, error))
    {
      g_free (buf);
      return NULL;
    }
  return buf;
}

GBytes *
xrt_tensor_get_bytes (const XrtTensor *t, GError **error)
{
  guint8 *buf;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  buf = xrt_tensor_dup_bytes (t, error);
  return buf ? g_bytes_new_take (buf, t->value->storage_bytes) : NULL;
}

gpointer
xrt_tensor_get_host_data (const XrtTensor *t, gsize *size)
{
  XrtMemChunk *c = chunk_of (t);
  guint8 *p = NULL;

  if (c != NULL && xrt_mem_region_is_host (xrt_mem_chunk_get_region (c)))
    p = xrt_mem_chunk_get_host_pointer (c);
  if (size != NULL)
    *size = p ? t->value->storage_bytes : 0;
  return p ? p + t->offset : NULL;
}

gboolean
xrt_tensor_copy_from (XrtTensor *t, guint64 dest_offset, const XrtTensor *src, guint64 src_offset, guint64 byte_size,
                      GError **error)
{
  XrtMemChunk *dc, *sc;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (src != NULL, "src", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  if ((dc = chunk_of (t)) == NULL)
    return no_data_error (t, "copy_from into it", error);
  if ((sc = chunk_of (src)) == NULL)
    return no_data_error (src, "copy_from it", error);
  if (!zw_range_inside (dest_offset, byte_size, 0, t->value->storage_bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "copy_from: %" G_GUINT64_FORMAT " bytes at dest_offset %" G_GUINT64_FORMAT " do not fit the %s of %"
                   G_GUINT64_FORMAT " bytes (from %s, src_offset %" G_GUINT64_FORMAT ")", byte_size, dest_offset,
                   tname (t).s, t->value->storage_bytes, tname (src).s, src_offset);
      return FALSE;
    }
  if (!zw_range_inside (src_offset, byte_size, 0, src->value->storage_bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "copy_from: %" G_GUINT64_FORMAT " bytes at src_offset %" G_GUINT64_FORMAT " do not fit the source %s of %"
                   G_GUINT64_FORMAT " bytes (into %s, dest_offset %" G_GUINT64_FORMAT ")", byte_size, src_offset,
                   tname (src).s, src->value->storage_bytes, tname (t).s, dest_offset);
      return FALSE;
    }
  if (byte_size > 0 && !xrt_mem_chunk_copy_from (dc, t->offset + dest_offset, sc, src->offset + src_offset, byte_size, error))
    return FALSE;
  xrt_tensor_set_ready (t, TRUE);
  return TRUE;
}

gboolean
xrt_tensor_fill_bytes (XrtTensor *t, const guint8 *pattern, gsize pattern_size, GError **error)
{
  guint64 total, done = 0;
  gsize block;
  g_autofree guint8 *buf = NULL;
  XrtMemChunk *c;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (pattern != NULL, "pattern", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  total = t->value->storage_bytes;
  if (pattern_size == 0 || total % pattern_size != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: a pattern of %" G_GSIZE_FORMAT " bytes does not tile its %" G_GUINT64_FORMAT " bytes (pattern_size)",
                   tname (t).s, pattern_size, total);
      return FALSE;
    }
  if ((c = chunk_of (t)) == NULL)
    return no_data_error (t, "fill", error);
  /* a bounded block of whole patterns, written as many times as needed */
  block = (gsize) MIN (total, (guint64) MAX ((1 << 20) / pattern_size, 1) * pattern_size);
  buf = g_malloc (MAX (block, 1));
  for (gsize i = 0; i < block; i += pattern_size)
    memcpy (buf + i, pattern, pattern_size);
  while (done < total)
    {
      gsize n = (gsize) MIN (block, total - done);
      if (!xrt_mem_chunk_write (c, t->offset + done, buf, n, error))
        return FALSE;
      done += n;
    }
  xrt_tensor_set_ready (t, TRUE);
  return TRUE;
}

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
                   tname (t).s, v->element.scale_axis, shape_text (v->shape, v->rank).s);
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
               "%s: %u scales along axis %d of %s %s: need 1 or %" G_GUINT64_FORMAT " (scales)", tname (t).s,
               v->element.n_scales, v->element.scale_axis, shape_text (v->shape, v->rank).s, v->layout.text, n_channels);
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

typedef enum { CODEC_INT, CODEC_FP16, CODEC_BF16, CODEC_FP32, CODEC_FP64 } Codec;

static gboolean
codec_of (const XrtTensor *t, const XirValue *v, Codec *codec, GError **error)
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
                   t ? tname (t).s : "tensor", dtype_text (v).s);
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
static gboolean
encode_floats (const XrtTensor *t, const XirValue *v, const float *src, gsize src_stride, guint8 *dst, GError **error)
{
  ChannelMap map;
  Codec codec;
  guint bytes = v->element.storage.bits / 8;

  if (!codec_of (t, v, &codec, error) || !channel_map_init (&map, t, v, error))
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
static float *
decode_floats (const XrtTensor *t, GError **error)
{
  const XirValue *v = t->value;
  g_autofree guint8 *raw = NULL;
  g_autofree float *out = NULL;
  ChannelMap map;
  Codec codec;
  guint64 out_bytes;
  guint bytes = v->element.storage.bits / 8;

  if (!codec_of (t, v, &codec, error) || !channel_map_init (&map, t, v, error))
    return NULL;
  if (!zw_u64_mul (v->n_elements, sizeof (float), &out_bytes) || out_bytes > ZW_MAX_TENSOR_BYTES)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: %" G_GUINT64_FORMAT " elements are too many to convert",
                   tname (t).s, v->n_elements);
      return NULL;
    }
  if ((raw = xrt_tensor_dup_bytes (t, error)) == NULL)
    return NULL;
  out = g_try_malloc (MAX (out_bytes, 1));
  if (out == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for %" G_GUINT64_FORMAT " bytes of floats",
                   tname (t).s, out_bytes);
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
    return no_data_error (t, "fill", error);
  if (t->value->storage_bytes > ZW_MAX_TENSOR_BYTES || (buf = g_try_malloc (MAX (t->value->storage_bytes, 1))) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for %" G_GUINT64_FORMAT " bytes",
                   tname (t).s, t->value->storage_bytes);
      return FALSE;
    }
  return encode_floats (t, t->value, &f, 0, buf, error) && xrt_tensor_write (t, buf, t->value->storage_bytes, error);
}

/* ---- derived tensors ----------------------------------------------------------------- */

/* A standalone copy of @v with another element type (plain @kind/@bits) and the same shape. */
static XirValue *
plain_like (const XirValue *v, XirScalarKind kind, guint bits, GError **error)
{
  XirElementType el;
  XirValue *r;

  memset (&el, 0, sizeof el);
  el.kind = XIR_ELEMENT_PLAIN;
  el.storage.kind = kind;
  el.storage.bits = bits;
  el.scale_axis = -1;
  el.norm_axis = -1;
  r = xir_value_new (&el, v->layout.text, v->shape, v->rank, error);
  if (r != NULL)
    {
      r->v_id = v->v_id;
      r->name = g_strdup (v->name);
    }
  return r;
}

XrtTensor *
xrt_tensor_reshape (XrtTensor *t, const gint64 *shape, guint rank, GError **error)
{
  const XirValue *v;
  g_autoptr (GError) local = NULL;
  guint64 n = 0, bits = 0, bytes = 0;
  gboolean keep_layout;
  XirValue *nv;
  XrtMemChunk *c;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (shape != NULL || rank == 0, "shape", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  v = t->value;
  if (rank > XIR_LAYOUT_MAX_AXES || !zw_shape_elements (shape, rank, (guint64) 1 << 40, &n)
      || !zw_u64_mul (n, v->element.storage.bits, &bits))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: cannot reshape %s (%" G_GUINT64_FORMAT " bytes) to %s: shape: more than %d dimensions, "
                   "a negative dimension or too many elements", tname (t).s, shape_text (v->shape, v->rank).s,
                   v->storage_bytes, shape_text (shape, MIN (rank, XIR_LAYOUT_MAX_AXES)).s, XIR_LAYOUT_MAX_AXES);
      return NULL;
    }
  if ((bytes = (bits + 7) / 8) != v->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: cannot reshape %s (%" G_GUINT64_FORMAT " bytes) to %s (%" G_GUINT64_FORMAT
                   " bytes): shape: the byte size must stay the same", tname (t).s, shape_text (v->shape, v->rank).s,
                   v->storage_bytes, shape_text (shape, rank).s, bytes);
      return NULL;
    }
  keep_layout = !v->layout.any_rank && v->layout.n_axes == rank;
  for (guint i = 0; keep_layout && i < rank; i++)
    keep_layout = v->layout.block[i] == 0 || (guint64) shape[i] == v->layout.block[i];
  nv = xir_value_new (&v->element, keep_layout ? v->layout.text : "*", shape, rank, &local);
  if (nv == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "%s: cannot reshape %s to %s: %s", tname (t).s,
                   shape_text (v->shape, v->rank).s, shape_text (shape, rank).s, local->message);
      return NULL;
    }
  nv->v_id = v->v_id;
  nv->name = g_strdup (v->name);
  c = chunk_of (t);
  return tensor_alloc (NULL, NULL, nv, c, t->offset, xrt_tensor_is_ready (t));
}

XrtTensor *
xrt_tensor_with_dtype (XrtTensor *t, const XirValue *dtype, GError **error)
{
  XirValue *nv;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (dtype != NULL, "dtype", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (dtype->storage_bytes != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: cannot set dtype %s (%" G_GUINT64_FORMAT " bytes) over %s (%" G_GUINT64_FORMAT
                   " bytes): dtype: the storage must stay the same size", tname (t).s, dtype_text (dtype).s,
                   dtype->storage_bytes, dtype_text (t->value).s, t->value->storage_bytes);
      return NULL;
    }
  nv = xir_value_copy (dtype);
  if (nv->v_id < 0)
    {
      nv->v_id = t->value->v_id;
      g_free (nv->name);
      nv->name = g_strdup (t->value->name);
    }
  return tensor_alloc (NULL, NULL, nv, chunk_of (t), t->offset, xrt_tensor_is_ready (t));
}

XrtTensor *
xrt_tensor_to (XrtTensor *t, XrtMemRegion *region, GError **error)
{
  g_autoptr (XrtMemChunk) chunk = NULL;
  XrtMemChunk *c;
  guint64 size;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if ((c = chunk_of (t)) == NULL)
    {
      no_data_error (t, "copy it to another region", error);
      return NULL;
    }
  if (xrt_mem_chunk_is_on (c, region))
    return xrt_tensor_ref (t);
  size = t->value->storage_bytes;
  chunk = alloc_chunk (region, size, error);
  if (chunk == NULL)
    {
      g_prefix_error (error, "%s: to %s: ", tname (t).s, xrt_mem_region_get_name (region));
      return NULL;
    }
  if (size > 0 && !xrt_mem_chunk_copy_from (chunk, 0, c, t->offset, size, error))
    return NULL;
  return tensor_alloc_like (t, chunk, 0, TRUE);
}

XrtTensor *
xrt_tensor_clone (const XrtTensor *t, GError **error)
{
  g_autoptr (XrtMemChunk) chunk = NULL;
  XrtMemChunk *c;
  guint64 size;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if ((c = chunk_of (t)) == NULL)
    return tensor_alloc_like (t, NULL, 0, FALSE);
  size = t->value->storage_bytes;
  chunk = alloc_chunk (xrt_mem_chunk_get_region (c), size, error);
  if (chunk == NULL || (size > 0 && !xrt_mem_chunk_copy_from (chunk, 0, c, t->offset, size, error)))
    return NULL;
  return tensor_alloc_like (t, chunk, 0, xrt_tensor_is_ready (t));
}

/* ---- quantised <-> float ------------------------------------------------------------- */

XrtTensor *
xrt_tensor_dequantize (const XrtTensor *t, GError **error)
{
  g_autofree float *f = NULL;
  XirValue *nv;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (chunk_of (t) == NULL)
    {
      no_data_error (t, "dequantize", error);
      return NULL;
    }
  if ((f = decode_floats (t, error)) == NULL)
    return NULL;
  if ((nv = plain_like (t->value, XIR_SCALAR_FP, 32, error)) == NULL)
    return NULL;
  return new_host (NULL, NULL, nv, f, (gsize) nv->storage_bytes, error);
}

XrtTensor *
xrt_tensor_quantize (const XrtTensor *t, const XirValue *dtype, GError **error)
{
  g_autofree float *f = NULL;
  g_autofree guint8 *out = NULL;
  XirValue *nv;
  Codec codec;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (dtype != NULL, "dtype", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (!codec_of (t, t->value, &codec, error))
    return NULL;
  if (codec == CODEC_INT)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s is %s: quantize takes a float tensor (dtype); dequantize it first", tname (t).s,
                   dtype_text (t->value).s);
      return NULL;
    }
  if (dtype->n_elements != t->value->n_elements)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: cannot quantize %s (%" G_GUINT64_FORMAT " elements) to %s (%" G_GUINT64_FORMAT
                   " elements): shape: the element count must stay the same", tname (t).s, dtype_text (t->value).s,
                   t->value->n_elements, dtype_text (dtype).s, dtype->n_elements);
      return NULL;
    }
  if (chunk_of (t) == NULL)
    {
      no_data_error (t, "quantize", error);
      return NULL;
    }
  if ((f = decode_floats (t, error)) == NULL)
    return NULL;
  out = g_try_malloc (MAX (dtype->storage_bytes, 1));
  if (out == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for %" G_GUINT64_FORMAT " bytes",
                   tname (t).s, dtype->storage_bytes);
      return NULL;
    }
  nv = xir_value_copy (dtype);
  if (nv->v_id < 0)
    {
      nv->v_id = t->value->v_id;
      g_free (nv->name);
      nv->name = g_strdup (t->value->name);
    }
  if (!encode_floats (t, nv, f, 1, out, error))
    {
      xir_value_free (nv);
      return NULL;
    }
  return new_host (NULL, NULL, nv, out, (gsize) nv->storage_bytes, error);
}

XrtTensor *
xrt_tensor_to_half (const XrtTensor *t, GError **error)
{
  g_autoptr (XirValue) half = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if ((half = plain_like (t->value, XIR_SCALAR_FP, 16, error)) == NULL)
    return NULL;
  return xrt_tensor_quantize (t, half, error);
}

guintptr
xrt_tensor_get_host_address (const XrtTensor *t)
{
  g_return_val_if_fail (t != NULL, 0);
  return (guintptr) xrt_tensor_get_host_data (t, NULL);
}
