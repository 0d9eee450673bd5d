/* xrt-tensor.c — Tensor: a value's type over MemChunk bytes. */
#include "xrt/xrt-tensor.h"
#include "base/zw-checked.h"

#include <string.h>

struct _XrtTensor {
  gint ref_count;
  XirNetwork *net;
  const XirValue *value;
  XrtMemChunk *chunk;
  guint64 offset;
};

XrtTensor *
xrt_tensor_new (XirNetwork *net, const XirValue *value, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  XrtTensor *t;

  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (value != NULL, "value", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (chunk != NULL, "chunk", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (offset > xrt_mem_chunk_get_size (chunk) || xrt_mem_chunk_get_size (chunk) - offset < value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "tensor of v_id %" G_GINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes at offset %" G_GUINT64_FORMAT
                   " do not fit the chunk of %" G_GUINT64_FORMAT " bytes", value->v_id, value->storage_bytes, offset,
                   xrt_mem_chunk_get_size (chunk));
      return NULL;
    }
  t = g_new0 (XrtTensor, 1);
  t->ref_count = 1;
  t->net = xir_network_ref (net);
  t->value = value;
  t->chunk = xrt_mem_chunk_ref (chunk);
  t->offset = offset;
  return t;
}

XrtTensor *
xrt_tensor_new_host (XirNetwork *net, const XirValue *value, const void *data, gsize size, GError **error)
{
  g_autoptr (XrtMemChunk) chunk = NULL;

  if (data != NULL && size != value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "tensor of v_id %" G_GINT64_FORMAT ": got %" G_GSIZE_FORMAT " bytes, the value needs %" G_GUINT64_FORMAT
                   " (shape x dtype)", value->v_id, size, value->storage_bytes);
      return NULL;
    }
  chunk = xrt_mem_region_malloc (xrt_host_mem_region_get_default (), MAX (value->storage_bytes, 1), TRUE, 64, error);
  if (chunk == NULL)
    return NULL;
  if (data != NULL && size > 0 && !xrt_mem_chunk_write (chunk, 0, data, size, error))
    return NULL;
  if (data == NULL)
    {
      guint8 *p = xrt_mem_chunk_get_host_pointer (chunk);
      if (p != NULL)
        memset (p, 0, value->storage_bytes);
    }
  return xrt_tensor_new (net, value, chunk, 0, error);
}

XrtTensor *
xrt_tensor_ref (XrtTensor *t)
{
  g_atomic_int_inc (&t->ref_count);
  return t;
}

void
xrt_tensor_unref (XrtTensor *t)
{
  if (t == NULL || !g_atomic_int_dec_and_test (&t->ref_count))
    return;
  xrt_mem_chunk_unref (t->chunk);
  xir_network_unref (t->net);
  g_free (t);
}

const XirValue *xrt_tensor_get_value (const XrtTensor *t) { return t->value; }
XrtMemChunk *xrt_tensor_get_chunk (const XrtTensor *t) { return t->chunk; }
guint64 xrt_tensor_get_offset (const XrtTensor *t) { return t->offset; }
guint64 xrt_tensor_get_size (const XrtTensor *t) { return t->value->storage_bytes; }

gboolean
xrt_tensor_read (const XrtTensor *t, void *dest, gsize size, GError **error)
{
  if (size != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "tensor of v_id %" G_GINT64_FORMAT ": reading %" G_GSIZE_FORMAT " bytes of %" G_GUINT64_FORMAT,
                   t->value->v_id, size, t->value->storage_bytes);
      return FALSE;
    }
  return size == 0 || xrt_mem_chunk_read (t->chunk, t->offset, dest, size, error);
}

gboolean
xrt_tensor_write (XrtTensor *t, const void *src, gsize size, GError **error)
{
  if (size != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "tensor of v_id %" G_GINT64_FORMAT ": writing %" G_GSIZE_FORMAT " bytes, the value has %" G_GUINT64_FORMAT,
                   t->value->v_id, size, t->value->storage_bytes);
      return FALSE;
    }
  return size == 0 || xrt_mem_chunk_write (t->chunk, t->offset, src, size, error);
}

guint8 *
xrt_tensor_dup_bytes (const XrtTensor *t, GError **error)
{
  guint8 *buf = g_malloc (MAX (t->value->storage_bytes, 1));

  if (!xrt_tensor_read (t, buf, t->value->storage_bytes, error))
    {
      g_free (buf);
      return NULL;
    }
  return buf;
}
