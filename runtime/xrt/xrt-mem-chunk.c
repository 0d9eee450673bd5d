/* xrt-mem-chunk.c — MemChunk: a piece of a region (or of another chunk), counted by
 * references, read, written, copied and freed.
 */
#include "xrt/xrt-mem-private.h"

#include "base/zw-checked.h"
#include "xrt/xrt-device.h"

#include <string.h>

/* ---- chunks (internal) -------------------------------------------------- */

XrtMemChunk *
xrt_mem_chunk_new_locked (XrtMemRegion *region, guint64 addr, guint64 size, gboolean auto_free)
{
  XrtMemChunk *chunk = g_new0 (XrtMemChunk, 1);

  chunk->ref_count = 1;
  chunk->region = xrt_mem_region_ref (region);
  chunk->addr = addr;
  chunk->size = size;
  chunk->auto_free = auto_free;
  g_tree_insert (region->manager.chunks, &chunk->addr, chunk);
  region->manager.used += size;
  return chunk;
}

/* Gives a chunk's bytes back (region lock held).  The struct itself stays. */
void
xrt_mem_chunk_release_locked (XrtMemRegion *region, XrtMemChunk *chunk)
{
  XrtMemManager *m = &region->manager;

  g_atomic_int_set (&chunk->freed, 1);
  g_tree_remove (m->chunks, &chunk->addr);
  m->used -= chunk->size;
  if (region->host)
    {
      if (chunk->host_owned)
        g_free (chunk->host);
      else if (chunk->host_notify)
        chunk->host_notify (chunk->host_notify_data);
      chunk->host = NULL;
      chunk->host_owned = FALSE;
      chunk->host_notify = NULL;
    }
  else
    xrt_mem_free_list_insert (m->free_blocks, chunk->addr, chunk->size);
}

static XrtMemChunk *
chunk_root (XrtMemChunk *chunk)
{
  while (chunk->parent)
    chunk = chunk->parent;
  return chunk;
}

static gboolean
chunk_check_live (XrtMemChunk *chunk, GError **error)
{
  XrtMemChunk *root = chunk_root (chunk);

  if (g_atomic_int_get (&root->freed))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_FREED,
                   "chunk at 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT
                   " bytes) in region %s was freed",
                   chunk->addr, chunk->size, chunk->region->name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
chunk_check_range (XrtMemChunk *chunk, guint64 offset, guint64 bytes, const char *what,
                   GError **error)
{
  if (!xrt_mem_range_inside (0, chunk->size, offset, bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "%s of %" G_GUINT64_FORMAT " bytes at offset %" G_GUINT64_FORMAT
                   " is outside chunk 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT
                   " bytes) in region %s",
                   what, bytes, offset, chunk->addr, chunk->size, chunk->region->name);
      return FALSE;
    }
  return TRUE;
}

/* ---- MemChunk ------------------------------------------------------------ */

XrtMemChunk *
xrt_mem_chunk_ref (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, NULL);
  g_atomic_int_inc (&chunk->ref_count);
  return chunk;
}

void
xrt_mem_chunk_unref (XrtMemChunk *chunk)
{
  XrtMemRegion *region;

  g_return_if_fail (chunk != NULL);

  if (!g_atomic_int_dec_and_test (&chunk->ref_count))
    return;
  region = chunk->region;
  if (chunk->parent)
    {
      XrtMemChunk *parent = chunk->parent;
      g_free (chunk);
      xrt_mem_chunk_unref (parent);
      xrt_mem_region_unref (region);
      return;
    }
  g_mutex_lock (&region->lock);
  if (!g_atomic_int_get (&chunk->freed) && !chunk->auto_free)
    {
      /* Stays allocated; the region keeps the struct until it is freed or listed. */
      chunk->orphan = TRUE;
      g_mutex_unlock (&region->lock);
      xrt_mem_region_unref (region);
      return;
    }
  if (!g_atomic_int_get (&chunk->freed))
    xrt_mem_chunk_release_locked (region, chunk);
  g_mutex_unlock (&region->lock);
  g_free (chunk);
  xrt_mem_region_unref (region);
}

XrtMemChunk *
xrt_mem_chunk_new_sub (XrtMemChunk *parent, guint64 offset, guint64 bytes, GError **error)
{
  XrtMemChunk *sub;

  ZW_RETURN_VAL_IF_BAD_ARG (parent != NULL, "parent", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);

  if (!chunk_check_live (parent, error)
      || !chunk_check_range (parent, offset, bytes, "sub-chunk", error))
    return NULL;
  sub = g_new0 (XrtMemChunk, 1);
  sub->ref_count = 1;
  sub->region = xrt_mem_region_ref (parent->region);
  sub->parent = xrt_mem_chunk_ref (parent);
  sub->addr = parent->addr + offset;
  sub->size = bytes;
  sub->host = parent->host ? parent->host + offset : NULL;
  sub->auto_free = TRUE;
  return sub;
}

XrtMemPtr
xrt_mem_chunk_get_begin (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, xrt_mem_ptr_null ());

  if (chunk->region->host)
    return xrt_mem_ptr_from_cptr (chunk->host);
  if (chunk->region->ops->host_pointer)
    {
      guint8 *p = xrt_mem_region_get_host_pointer (chunk->region, chunk->addr, chunk->size);
      if (p)
        return xrt_mem_ptr_from_both (p, chunk->addr);
    }
  return xrt_mem_ptr_from_addr (chunk->addr);
}

guint64
xrt_mem_chunk_get_addr (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, 0);
  return chunk->addr;
}

guint64
xrt_mem_chunk_get_size (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, 0);
  return chunk->size;
}

XrtMemRegion *
xrt_mem_chunk_get_region (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, NULL);
  return chunk->region;
}

gboolean
xrt_mem_chunk_is_on (XrtMemChunk *chunk, XrtMemRegion *region)
{
  g_return_val_if_fail (chunk != NULL, FALSE);
  return chunk->region == region;
}

gboolean
xrt_mem_chunk_get_auto_free (XrtMemChunk *chunk)
{
  gboolean auto_free;

  g_return_val_if_fail (chunk != NULL, FALSE);
  g_mutex_lock (&chunk->region->lock);
  auto_free = chunk->auto_free;
  g_mutex_unlock (&chunk->region->lock);
  return auto_free;
}

void
xrt_mem_chunk_set_auto_free (XrtMemChunk *chunk, gboolean auto_free)
{
  g_return_if_fail (chunk != NULL);
  g_return_if_fail (chunk->parent == NULL);
  g_mutex_lock (&chunk->region->lock);
  chunk->auto_free = auto_free;
  g_mutex_unlock (&chunk->region->lock);
}

gboolean
xrt_mem_chunk_is_freed (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, TRUE);
  return g_atomic_int_get (&chunk_root (chunk)->freed) != 0;
}

guint8 *
xrt_mem_chunk_get_host_pointer (XrtMemChunk *chunk)
{
  g_return_val_if_fail (chunk != NULL, NULL);

  if (xrt_mem_chunk_is_freed (chunk))
    return NULL;
  if (chunk->region->host)
    return chunk->host;
  return xrt_mem_region_get_host_pointer (chunk->region, chunk->addr, chunk->size);
}

gboolean
xrt_mem_chunk_read (XrtMemChunk *chunk,
                    guint64      offset,
                    gpointer     dest,
                    gsize        bytes,
                    GError     **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (chunk != NULL, "chunk", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (dest != NULL || bytes == 0, "dest", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!chunk_check_live (chunk, error)
      || !chunk_check_range (chunk, offset, bytes, "read", error))
    return FALSE;
  if (bytes == 0)
    return TRUE;
  if (chunk->region->host)
    {
      memcpy (dest, chunk->host + offset, bytes);
      return TRUE;
    }
  return xrt_mem_region_read (chunk->region, chunk->addr + offset, dest, bytes, error);
}

gboolean
xrt_mem_chunk_write (XrtMemChunk  *chunk,
                     guint64       offset,
                     gconstpointer src,
                     gsize         bytes,
                     GError      **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (chunk != NULL, "chunk", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (src != NULL || bytes == 0, "src", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!chunk_check_live (chunk, error)
      || !chunk_check_range (chunk, offset, bytes, "write", error))
    return FALSE;
  if (bytes == 0)
    return TRUE;
  if (chunk->region->host)
    {
      memcpy (chunk->host + offset, src, bytes);
      return TRUE;
    }
  return xrt_mem_region_write (chunk->region, chunk->addr + offset, src, bytes, error);
}

gboolean
xrt_mem_chunk_copy_from (XrtMemChunk *dest,
                         guint64      dest_offset,
                         XrtMemChunk *src,
                         guint64      src_offset,
                         gsize        bytes,
                         GError     **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (dest != NULL, "dest", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (src != NULL, "src", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!chunk_check_live (dest, error) || !chunk_check_live (src, error)
      || !chunk_check_range (src, src_offset, bytes, "copy source", error)
      || !chunk_check_range (dest, dest_offset, bytes, "copy destination", error))
    return FALSE;
  if (bytes == 0)
    return TRUE;
  if (dest->region->host && src->region->host)
    {
      memmove (dest->host + dest_offset, src->host + src_offset, bytes);
      return TRUE;
    }
  return xrt_mem_region_copy (dest->region, dest->addr + dest_offset,
                              src->region, src->addr + src_offset, bytes, error);
}

gboolean
xrt_mem_chunk_free (XrtMemChunk *chunk, GError **error)
{
  XrtMemRegion *region;

  ZW_RETURN_VAL_IF_BAD_ARG (chunk != NULL, "chunk", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  region = chunk->region;
  if (chunk->parent)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_BAD_FREE,
                   "chunk at 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT " bytes) in "
                   "region %s is a sub-chunk: free the chunk it views",
                   chunk->addr, chunk->size, region->name);
      return FALSE;
    }
  g_mutex_lock (&region->lock);
  if (g_atomic_int_get (&chunk->freed))
    {
      g_mutex_unlock (&region->lock);
      g_set_error (error, XRT_ERROR, XRT_ERROR_BAD_FREE,
                   "double free of chunk at 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT
                   " bytes) in region %s", chunk->addr, chunk->size, region->name);
      return FALSE;
    }
  xrt_mem_chunk_release_locked (region, chunk);
  g_mutex_unlock (&region->lock);
  return TRUE;
}

G_DEFINE_BOXED_TYPE (XrtMemChunk, xrt_mem_chunk, (GBoxedCopyFunc) xrt_mem_chunk_ref, (GBoxedFreeFunc) xrt_mem_chunk_unref)

GBytes *
xrt_mem_chunk_read_bytes (XrtMemChunk *chunk, guint64 offset, gsize bytes, GError **error)
{
  guint8 *buf;

  g_return_val_if_fail (chunk != NULL, NULL);
  buf = g_try_malloc (MAX (bytes, 1));
  if (buf == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "reading %" G_GSIZE_FORMAT " bytes: no host memory", bytes);
      return NULL;
    }
  if (!xrt_mem_chunk_read (chunk, offset, buf, bytes, error))
    {
      g_free (buf);
      return NULL;
    }
  return g_bytes_new_take (buf, bytes);
}
