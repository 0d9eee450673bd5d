/* xrt-tensor-convert.c — tensors derived from a tensor: reshape, another dtype over the same
 * bytes, a copy in another region, a clone, and the conversions quantised <-> float and to
 * half precision.
 */
#include "xrt/xrt-tensor-private.h"

#include "xrt/xrt-device.h"
#include "base/zw-checked.h"
#include "base/zw-half.h"

#include <math.h>
#include <string.h>

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
                   "a negative dimension or too many elements", xrt_tensor_name (t).s, xrt_tensor_shape_text (v->shape, v->rank).s,
                   v->storage_bytes, xrt_tensor_shape_text (shape, MIN (rank, XIR_LAYOUT_MAX_AXES)).s, XIR_LAYOUT_MAX_AXES);
      return NULL;
    }
  if ((bytes = (bits + 7) / 8) != v->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: cannot reshape %s (%" G_GUINT64_FORMAT " bytes) to %s (%" G_GUINT64_FORMAT
                   " bytes): shape: the byte size must stay the same", xrt_tensor_name (t).s, xrt_tensor_shape_text (v->shape, v->rank).s,
                   v->storage_bytes, xrt_tensor_shape_text (shape, rank).s, bytes);
      return NULL;
    }
  keep_layout = !v->layout.any_rank && v->layout.n_axes == rank;
  for (guint i = 0; keep_layout && i < rank; i++)
    keep_layout = v->layout.block[i] == 0 || (guint64) shape[i] == v->layout.block[i];
  nv = xir_value_new (&v->element, keep_layout ? v->layout.text : "*", shape, rank, &local);
  if (nv == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "%s: cannot reshape %s to %s: %s", xrt_tensor_name (t).s,
                   xrt_tensor_shape_text (v->shape, v->rank).s, xrt_tensor_shape_text (shape, rank).s, local->message);
      return NULL;
    }
  nv->v_id = v->v_id;
  nv->name = g_strdup (v->name);
  c = chunk_of (t);
  return xrt_tensor_alloc (NULL, NULL, nv, c, t->offset, xrt_tensor_is_ready (t));
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
                   " bytes): dtype: the storage must stay the same size", xrt_tensor_name (t).s, xrt_tensor_dtype_text (dtype).s,
                   dtype->storage_bytes, xrt_tensor_dtype_text (t->value).s, t->value->storage_bytes);
      return NULL;
    }
  nv = xir_value_copy (dtype);
  if (nv->v_id < 0)
    {
      nv->v_id = t->value->v_id;
      g_free (nv->name);
      nv->name = g_strdup (t->value->name);
    }
  return xrt_tensor_alloc (NULL, NULL, nv, chunk_of (t), t->offset, xrt_tensor_is_ready (t));
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
      xrt_tensor_no_data_error (t, "copy it to another region", error);
      return NULL;
    }
  if (xrt_mem_chunk_is_on (c, region))
    return xrt_tensor_ref (t);
  size = t->value->storage_bytes;
  chunk = xrt_tensor_alloc_chunk (region, size, error);
  if (chunk == NULL)
    {
      g_prefix_error (error, "%s: to %s: ", xrt_tensor_name (t).s, xrt_mem_region_get_name (region));
      return NULL;
    }
  if (size > 0 && !xrt_mem_chunk_copy_from (chunk, 0, c, t->offset, size, error))
    return NULL;
  return xrt_tensor_alloc_like (t, chunk, 0, TRUE);
}

XrtTensor *
xrt_tensor_clone (const XrtTensor *t, GError **error)
{
  g_autoptr (XrtMemChunk) chunk = NULL;
  XrtMemChunk *c;
  guint64 size;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if ((c = chunk_of (t)) == NULL)
    return xrt_tensor_alloc_like (t, NULL, 0, FALSE);
  size = t->value->storage_bytes;
  chunk = xrt_tensor_alloc_chunk (xrt_mem_chunk_get_region (c), size, error);
  if (chunk == NULL || (size > 0 && !xrt_mem_chunk_copy_from (chunk, 0, c, t->offset, size, error)))
    return NULL;
  return xrt_tensor_alloc_like (t, chunk, 0, xrt_tensor_is_ready (t));
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
      xrt_tensor_no_data_error (t, "dequantize", error);
      return NULL;
    }
  if ((f = xrt_tensor_decode_floats (t, error)) == NULL)
    return NULL;
  if ((nv = plain_like (t->value, XIR_SCALAR_FP, 32, error)) == NULL)
    return NULL;
  return xrt_tensor_new_host_owning (NULL, NULL, nv, f, (gsize) nv->storage_bytes, error);
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
  if (!xrt_tensor_codec_of (t, t->value, &codec, error))
    return NULL;
  if (codec == CODEC_INT)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s is %s: quantize takes a float tensor (dtype); dequantize it first", xrt_tensor_name (t).s,
                   xrt_tensor_dtype_text (t->value).s);
      return NULL;
    }
  if (dtype->n_elements != t->value->n_elements)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: cannot quantize %s (%" G_GUINT64_FORMAT " elements) to %s (%" G_GUINT64_FORMAT
                   " elements): shape: the element count must stay the same", xrt_tensor_name (t).s, xrt_tensor_dtype_text (t->value).s,
                   t->value->n_elements, xrt_tensor_dtype_text (dtype).s, dtype->n_elements);
      return NULL;
    }
  if (chunk_of (t) == NULL)
    {
      xrt_tensor_no_data_error (t, "quantize", error);
      return NULL;
    }
  if ((f = xrt_tensor_decode_floats (t, error)) == NULL)
    return NULL;
  out = g_try_malloc (MAX (dtype->storage_bytes, 1));
  if (out == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%s: no host memory for %" G_GUINT64_FORMAT " bytes",
                   xrt_tensor_name (t).s, dtype->storage_bytes);
      return NULL;
    }
  nv = xir_value_copy (dtype);
  if (nv->v_id < 0)
    {
      nv->v_id = t->value->v_id;
      g_free (nv->name);
      nv->name = g_strdup (t->value->name);
    }
  if (!xrt_tensor_encode_floats (t, nv, f, 1, out, error))
    {
      xir_value_free (nv);
      return NULL;
    }
  return xrt_tensor_new_host_owning (NULL, NULL, nv, out, (gsize) nv->storage_bytes, error);
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
