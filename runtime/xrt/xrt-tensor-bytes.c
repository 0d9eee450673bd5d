/* xrt-tensor-bytes.c — a tensor's bytes: read, write, copies, fills, the host data. */
#include "xrt/xrt-tensor-private.h"

#include "xrt/xrt-device.h"
#include "base/zw-checked.h"
#include "base/zw-half.h"

#include <math.h>
#include <string.h>

/* ---- bytes ---------------------------------------------------------------------------- */

gboolean
xrt_tensor_read (const XrtTensor *t, void *dest, gsize size, GError **error)
{
  XrtMemChunk *c = chunk_of (t);

  if (size != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: reading %" G_GSIZE_FORMAT " bytes of %" G_GUINT64_FORMAT " (size)", xrt_tensor_name (t).s, size,
                   t->value->storage_bytes);
      return FALSE;
    }
  if (c == NULL)
    return xrt_tensor_no_data_error (t, "read", error);
  return size == 0 || xrt_mem_chunk_read (c, t->offset, dest, size, error);
}

gboolean
xrt_tensor_write (XrtTensor *t, const void *src, gsize size, GError **error)
{
  XrtMemChunk *c = chunk_of (t);

  if (size != t->value->storage_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: writing %" G_GSIZE_FORMAT " bytes, the value has %" G_GUINT64_FORMAT " (size)", xrt_tensor_name (t).s,
                   size, t->value->storage_bytes);
      return FALSE;
    }
  if (c == NULL)
    return xrt_tensor_no_data_error (t, "write", error);
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
                   xrt_tensor_name (t).s, t->value->storage_bytes);
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
    return xrt_tensor_no_data_error (t, "copy_from into it", error);
  if ((sc = chunk_of (src)) == NULL)
    return xrt_tensor_no_data_error (src, "copy_from it", error);
  if (!zw_range_inside (dest_offset, byte_size, 0, t->value->storage_bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "copy_from: %" G_GUINT64_FORMAT " bytes at dest_offset %" G_GUINT64_FORMAT " do not fit the %s of %"
                   G_GUINT64_FORMAT " bytes (from %s, src_offset %" G_GUINT64_FORMAT ")", byte_size, dest_offset,
                   xrt_tensor_name (t).s, t->value->storage_bytes, xrt_tensor_name (src).s, src_offset);
      return FALSE;
    }
  if (!zw_range_inside (src_offset, byte_size, 0, src->value->storage_bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "copy_from: %" G_GUINT64_FORMAT " bytes at src_offset %" G_GUINT64_FORMAT " do not fit the source %s of %"
                   G_GUINT64_FORMAT " bytes (into %s, dest_offset %" G_GUINT64_FORMAT ")", byte_size, src_offset,
                   xrt_tensor_name (src).s, src->value->storage_bytes, xrt_tensor_name (t).s, dest_offset);
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
                   xrt_tensor_name (t).s, pattern_size, total);
      return FALSE;
    }
  if ((c = chunk_of (t)) == NULL)
    return xrt_tensor_no_data_error (t, "fill", error);
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
