/* xrt-tensor.c — Tensor: a value's type over MemChunk bytes: construction, type and memory,
 * readiness, and the words of its error messages. Its bytes: xrt-tensor-bytes.c; element
 * codecs: xrt-tensor-codec.c; derived tensors and conversions: xrt-tensor-convert.c.
 */
#include "xrt/xrt-tensor-private.h"

#include "xrt/xrt-device.h"
#include "base/zw-checked.h"
#include "base/zw-half.h"

#include <math.h>
#include <string.h>

G_DEFINE_BOXED_TYPE (XrtTensor, xrt_tensor, xrt_tensor_ref, xrt_tensor_unref)

/* ---- words for error messages ------------------------------------------------- */

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

TName
xrt_tensor_name (const XrtTensor *t)
{
  return vname (t->value);
}

TText
xrt_tensor_shape_text (const gint64 *shape, guint rank)
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
TText
xrt_tensor_dtype_text (const XirValue *v)
{
  TText r;
  g_autofree char *scalar = xir_scalar_type_to_string (&v->element.storage);
  const char *kind = xir_element_kind_to_string (v->element.kind);

  g_snprintf (r.s, sizeof r.s, "%s%s%s %s %s", scalar, *kind ? " " : "", kind, xrt_tensor_shape_text (v->shape, v->rank).s,
              v->layout.text);
  return r;
}

gboolean
xrt_tensor_no_data_error (const XrtTensor *t, const char *what, GError **error)
{
  g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
               "%s: cannot %s: it has no memory (made without data; malloc_on or set_data first)", xrt_tensor_name (t).s, what);
  return FALSE;
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
XrtTensor *
xrt_tensor_alloc (XirNetwork *net, const XirValue *value, XirValue *own, XrtMemChunk *chunk, guint64 offset,
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
XrtTensor *
xrt_tensor_alloc_like (const XrtTensor *t, XrtMemChunk *chunk, guint64 offset, gboolean ready)
{
  return xrt_tensor_alloc (t->net, t->value, t->own ? xir_value_copy (t->own) : NULL, chunk, offset, ready);
}

XrtMemChunk *
xrt_tensor_alloc_chunk (XrtMemRegion *region, guint64 bytes, GError **error)
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
  return xrt_tensor_alloc (net, value, NULL, chunk, offset, TRUE);
}

XrtTensor *
xrt_tensor_new_host_owning (XirNetwork *net, const XirValue *value, XirValue *own, const void *data, gsize size, GError **error)
{
  const XirValue *type = own ? own : value;
  g_autoptr (XrtMemChunk) chunk = NULL;

  if (data != NULL && size != type->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: got %" G_GSIZE_FORMAT " bytes, the type %s needs %" G_GUINT64_FORMAT " (data size)",
                   vname (type).s, size, xrt_tensor_dtype_text (type).s, type->storage_bytes);
      if (own)
        xir_value_free (own);
      return NULL;
    }
  chunk = xrt_tensor_alloc_chunk (xrt_host_mem_region_get_default (), type->storage_bytes, error);
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
  return xrt_tensor_alloc (net, value, own, chunk, 0, TRUE);
}

XrtTensor *
xrt_tensor_new_host (XirNetwork *net, const XirValue *value, const void *data, gsize size, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (value != NULL, "value", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  return xrt_tensor_new_host_owning (net, value, NULL, data, size, error);
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
  return xrt_tensor_alloc (NULL, NULL, xir_value_copy (dtype), chunk, offset, TRUE);
}

XrtTensor *
xrt_tensor_new_host_for_dtype (const XirValue *dtype, const guint8 *data, gsize size, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (dtype != NULL, "dtype", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  return xrt_tensor_new_host_owning (NULL, NULL, xir_value_copy (dtype), data, size, error);
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
  return xrt_tensor_new_host_owning (NULL, NULL, xir_value_copy (dtype), data ? data : (const guint8 *) "", size, error);
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
               xrt_tensor_name (t).s, what, xrt_mem_region_get_name (xrt_mem_chunk_get_region (chunk_of (t))));
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
  chunk = xrt_tensor_alloc_chunk (region, t->value->storage_bytes, error);
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
                 xrt_tensor_name (t).s, wait_ms, chunk_of (t) ? "it has memory but was not written" : "it has no memory yet");
  return ready;
}

guintptr
xrt_tensor_get_host_address (const XrtTensor *t)
{
  g_return_val_if_fail (t != NULL, 0);
  return (guintptr) xrt_tensor_get_host_data (t, NULL);
}
