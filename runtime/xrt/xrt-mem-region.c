/* xrt-mem-region.c — MemRegion: a named store (host memory, or a device's region) that
 * hands out chunks through its MemManager, and reads, writes and copies bytes in it.
 */
#include "xrt/xrt-mem-private.h"

#include "base/zw-checked.h"
#include "xrt/xrt-device.h"

#include <string.h>

G_DEFINE_QUARK (xrt-error-quark, xrt_error)

/* ---- helpers ------------------------------------------------------------ */

static gint
compare_u64 (gconstpointer a, gconstpointer b, gpointer user_data)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  (void) user_data;
  return x < y ? -1 : x > y ? 1 : 0;
}

static gboolean
is_power_of_two (guint64 v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

/* Region address of a pointer: host regions key chunks by host pointer value. */
gboolean
xrt_mem_region_addr_of (XrtMemRegion *region, XrtMemPtr ptr, guint64 *addr, GError **error)
{
  if (region->host)
    {
      if (ptr.ptype == XRT_PTR_ADDR)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                       "region %s holds host memory; device address 0x%"
                       G_GINT64_MODIFIER "x does not point into it",
                       region->name, ptr.addr);
          return FALSE;
        }
      *addr = (guint64) (guintptr) ptr.cptr;
      return TRUE;
    }
  if (ptr.ptype == XRT_PTR_CPTR)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                   "region %s is device memory; host pointer %p has no device address",
                   region->name, (void *) ptr.cptr);
      return FALSE;
    }
  *addr = ptr.addr;
  return TRUE;
}

/* TRUE when [addr, addr + bytes) lies inside [base, base + size), overflow-safe. */
gboolean
xrt_mem_range_inside (guint64 base, guint64 size, guint64 addr, guint64 bytes)
{
  return addr >= base && bytes <= size && addr - base <= size - bytes;
}

/* Takes a reference unless the count already dropped to zero (the chunk is dying or an
 * orphan); used wherever a chunk is found through the region's weak tree. */
static gboolean
chunk_try_ref (XrtMemChunk *chunk)
{
  gint old;

  do
    {
      old = g_atomic_int_get (&chunk->ref_count);
      if (old == 0)
        return FALSE;
    }
  while (!g_atomic_int_compare_and_exchange (&chunk->ref_count, old, old + 1));
  return TRUE;
}

/* Hands out a chunk found in the tree (region lock held): a live one gets one more
 * reference, an orphan comes back to life with a single reference. */
XrtMemChunk *
xrt_mem_chunk_claim_locked (XrtMemChunk *chunk)
{
  if (chunk->orphan)
    {
      chunk->orphan = FALSE;
      g_atomic_int_set (&chunk->ref_count, 1);
      xrt_mem_region_ref (chunk->region);
      return chunk;
    }
  return chunk_try_ref (chunk) ? chunk : NULL;
}

/* The live chunk of the tree containing addr (region lock held), or NULL. */
XrtMemChunk *
xrt_mem_tree_find_containing (XrtMemManager *m, guint64 addr)
{
  GTreeNode *node = g_tree_upper_bound (m->chunks, &addr);
  XrtMemChunk *chunk;

  node = node ? g_tree_node_previous (node) : g_tree_node_last (m->chunks);
  if (node == NULL)
    return NULL;
  chunk = g_tree_node_value (node);
  if (addr - chunk->addr < chunk->size)
    return chunk;
  return NULL;
}

/* ---- MemRegion ----------------------------------------------------------- */

static XrtMemRegion *
region_new (const char *name, gboolean host, guint64 base, guint64 size)
{
  XrtMemRegion *region = g_new0 (XrtMemRegion, 1);

  region->ref_count = 1;
  region->name = g_strdup (name);
  region->host = host;
  region->base = base;
  region->size = size;
  g_mutex_init (&region->lock);
  region->manager.region = region;
  region->manager.free_blocks = g_array_new (FALSE, FALSE, sizeof (FreeBlock));
  region->manager.chunks = g_tree_new_full (compare_u64, NULL, NULL, NULL);
  return region;
}

XrtMemRegion *
xrt_mem_region_new_device (const char           *name,
                           guint64               base,
                           guint64               size,
                           const XrtMemStoreOps *ops,
                           gpointer              store,
                           GDestroyNotify        store_free)
{
  XrtMemRegion *region;
  FreeBlock all = { base, size };

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (size > 0 && base <= G_MAXUINT64 - (size - 1), NULL);
  g_return_val_if_fail (ops != NULL && ops->read != NULL && ops->write != NULL, NULL);

  region = region_new (name, FALSE, base, size);
  region->ops = ops;
  region->store = store;
  region->store_free = store_free;
  g_array_append_val (region->manager.free_blocks, all);
  return region;
}

XrtMemRegion *
xrt_mem_region_new_host (const char *name, guint64 capacity)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (capacity > 0, NULL);

  return region_new (name, TRUE, 0, capacity);
}

XrtMemRegion *
xrt_host_mem_region_get_default (void)
{
  static XrtMemRegion *host_region;

  if (g_once_init_enter (&host_region))
    g_once_init_leave (&host_region, xrt_mem_region_new_host ("HOST", G_MAXUINT64));
  return host_region;
}

XrtMemRegion *
xrt_mem_region_ref (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, NULL);
  g_atomic_int_inc (&region->ref_count);
  return region;
}

static gboolean
destroy_orphan (gpointer key, gpointer value, gpointer user_data)
{
  XrtMemChunk *chunk = value;

  (void) key;
  (void) user_data;
  /* Every live chunk holds a region reference, so only orphans can remain here. */
  g_assert (chunk->orphan);
  if (chunk->host_owned)
    g_free (chunk->host);
  else if (chunk->host_notify)
    chunk->host_notify (chunk->host_notify_data);
  g_free (chunk);
  return FALSE;
}

void
xrt_mem_region_unref (XrtMemRegion *region)
{
  g_return_if_fail (region != NULL);

  if (!g_atomic_int_dec_and_test (&region->ref_count))
    return;
  g_tree_foreach (region->manager.chunks, destroy_orphan, NULL);
  g_tree_destroy (region->manager.chunks);
  g_array_unref (region->manager.free_blocks);
  if (region->store_free)
    region->store_free (region->store);
  g_mutex_clear (&region->lock);
  g_free (region->name);
  g_free (region);
}

const char *
xrt_mem_region_get_name (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, NULL);
  return region->name;
}

gboolean
xrt_mem_region_is_host (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, FALSE);
  return region->host;
}

guint64
xrt_mem_region_get_base (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, 0);
  return region->base;
}

guint64
xrt_mem_region_get_size (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, 0);
  return region->size;
}

XrtPtrType
xrt_mem_region_get_ptype (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, XRT_PTR_ADDR);
  if (region->host)
    return XRT_PTR_CPTR;
  return region->ops->host_pointer ? XRT_PTR_BOTH : XRT_PTR_ADDR;
}

XrtDevice *
xrt_mem_region_get_device (XrtMemRegion *region)
{
  XrtDevice *device;

  g_return_val_if_fail (region != NULL, NULL);
  g_mutex_lock (&region->lock);
  device = region->device;
  g_mutex_unlock (&region->lock);
  return device;
}

void
xrt_mem_region_set_device (XrtMemRegion *region, XrtDevice *device)
{
  g_return_if_fail (region != NULL);
  g_mutex_lock (&region->lock);
  region->device = device;
  g_mutex_unlock (&region->lock);
}

XrtMemManager *
xrt_mem_region_get_manager (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, NULL);
  return &region->manager;
}

static XrtMemChunk *
host_malloc (XrtMemRegion *region, guint64 bytes, gboolean auto_free, GError **error)
{
  XrtMemChunk *chunk;
  guint8 *buffer;

  if (bytes > G_MAXSIZE || (buffer = g_try_malloc0 (bytes)) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY,
                   "region %s: the host has no %" G_GUINT64_FORMAT " bytes to give",
                   region->name, bytes);
      return NULL;
    }
  g_mutex_lock (&region->lock);
  if (bytes > region->size - region->manager.used)
    {
      guint64 left = region->size - region->manager.used;
      g_mutex_unlock (&region->lock);
      g_free (buffer);
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY,
                   "region %s: %" G_GUINT64_FORMAT " bytes requested, %" G_GUINT64_FORMAT
                   " of its %" G_GUINT64_FORMAT " bytes capacity left",
                   region->name, bytes, left, region->size);
      return NULL;
    }
  chunk = g_new0 (XrtMemChunk, 1);
  chunk->ref_count = 1;
  chunk->region = xrt_mem_region_ref (region);
  chunk->addr = (guint64) (guintptr) buffer;
  chunk->size = bytes;
  chunk->host = buffer;
  chunk->host_owned = TRUE;
  chunk->auto_free = auto_free;
  g_tree_insert (region->manager.chunks, &chunk->addr, chunk);
  region->manager.used += bytes;
  g_mutex_unlock (&region->lock);
  return chunk;
}

/* A region of a closed device allocates nothing (its chunks were freed by the close). */
static gboolean
check_device_open (XrtMemRegion *region, GError **error)
{
  XrtDevice *device = xrt_mem_region_get_device (region);

  if (device != NULL && xrt_device_is_closed (device))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CLOSED, "region %s: device %s was closed", region->name,
                   xrt_device_get_url (device));
      return FALSE;
    }
  return TRUE;
}

XrtMemChunk *
xrt_mem_region_malloc (XrtMemRegion *region,
                       guint64       bytes,
                       gboolean      auto_free,
                       guint64       alignment,
                       GError      **error)
{
  XrtMemManager *m;
  XrtMemChunk *chunk;
  gint best = -1;
  guint64 best_size = 0, best_addr = 0;

  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_device_open (region, error))
    return NULL;
  if (alignment == 0)
    alignment = XRT_MEM_DEFAULT_ALIGNMENT;
  if (bytes == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "region %s: cannot allocate 0 bytes", region->name);
      return NULL;
    }
  if (!is_power_of_two (alignment))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "region %s: alignment %" G_GUINT64_FORMAT " is not a power of two",
                   region->name, alignment);
      return NULL;
    }
  if (region->host)
    return host_malloc (region, bytes, auto_free, error);

  m = &region->manager;
  g_mutex_lock (&region->lock);
  for (guint i = 0; i < m->free_blocks->len; i++)
    {
      FreeBlock b = g_array_index (m->free_blocks, FreeBlock, i);
      guint64 aligned, pad;

      if (b.start > G_MAXUINT64 - (alignment - 1))
        continue;
      aligned = (b.start + alignment - 1) & ~(alignment - 1);
      pad = aligned - b.start;
      if (pad >= b.size || bytes > b.size - pad)
        continue;
      if (best < 0 || b.size < best_size)
        {
          best = (gint) i;
          best_size = b.size;
          best_addr = aligned;
        }
    }
  if (best < 0)
    {
      guint64 largest = xrt_mem_free_list_largest (m->free_blocks);
      guint64 free_bytes = region->size - m->used;
      g_mutex_unlock (&region->lock);
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY,
                   "region %s: no free block for %" G_GUINT64_FORMAT " bytes aligned to %"
                   G_GUINT64_FORMAT " (largest free block %" G_GUINT64_FORMAT " bytes, %"
                   G_GUINT64_FORMAT " bytes free in all)",
                   region->name, bytes, alignment, largest, free_bytes);
      return NULL;
    }
  xrt_mem_free_list_take (m->free_blocks, (guint) best, best_addr, bytes);
  chunk = xrt_mem_chunk_new_locked (region, best_addr, bytes, auto_free);
  g_mutex_unlock (&region->lock);
  return chunk;
}

XrtMemChunk *
xrt_mem_region_malloc_at (XrtMemRegion *region,
                          guint64       addr,
                          guint64       bytes,
                          gboolean      auto_free,
                          GError      **error)
{
  XrtMemManager *m;
  XrtMemChunk *chunk;
  guint idx;
  FreeBlock b;

  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_device_open (region, error))
    return NULL;
  if (region->host)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "region %s holds host memory: use xrt_mem_region_wrap_host() to put a "
                   "chunk at a fixed place", region->name);
      return NULL;
    }
  if (bytes == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "region %s: cannot allocate 0 bytes at 0x%" G_GINT64_MODIFIER "x",
                   region->name, addr);
      return NULL;
    }
  if (!xrt_mem_range_inside (region->base, region->size, addr, bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "region %s: [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                   ") is outside [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x)",
                   region->name, addr, bytes, region->base, region->base + region->size);
      return NULL;
    }

  m = &region->manager;
  g_mutex_lock (&region->lock);
  idx = xrt_mem_free_list_upper (m->free_blocks, addr);
  if (idx == 0
      || (b = g_array_index (m->free_blocks, FreeBlock, idx - 1),
          !xrt_mem_range_inside (b.start, b.size, addr, bytes)))
    {
      XrtMemChunk *taken = xrt_mem_tree_find_containing (m, addr);
      if (taken == NULL)
        {
          /* The start is free but the end runs into a chunk: name that chunk. */
          GTreeNode *node = g_tree_upper_bound (m->chunks, &addr);
          taken = node ? g_tree_node_value (node) : NULL;
        }
      g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                   "region %s: [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                   ") overlaps the chunk at 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT
                   " bytes)", region->name, addr, bytes,
                   taken ? taken->addr : 0, taken ? taken->size : 0);
      g_mutex_unlock (&region->lock);
      return NULL;
    }
  xrt_mem_free_list_take (m->free_blocks, idx - 1, addr, bytes);
  chunk = xrt_mem_chunk_new_locked (region, addr, bytes, auto_free);
  g_mutex_unlock (&region->lock);
  return chunk;
}

XrtMemChunk *
xrt_mem_region_wrap_host (XrtMemRegion  *region,
                          gpointer       data,
                          guint64        bytes,
                          GDestroyNotify notify,
                          gboolean       auto_free,
                          GError       **error)
{
  XrtMemManager *m;
  XrtMemChunk *chunk, *other;
  guint64 addr = (guint64) (guintptr) data;
  GTreeNode *node;

  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (data != NULL, "data", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);

  if (!region->host || bytes == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "region %s: %s", region->name,
                   !region->host ? "only host regions can wrap host memory"
                                 : "cannot wrap 0 bytes");
      return NULL;
    }
  m = &region->manager;
  g_mutex_lock (&region->lock);
  other = xrt_mem_tree_find_containing (m, addr);
  if (other == NULL && (node = g_tree_upper_bound (m->chunks, &addr)) != NULL)
    {
      other = g_tree_node_value (node);
      if (other->addr - addr >= bytes)
        other = NULL;
    }
  if (other != NULL)
    {
      g_mutex_unlock (&region->lock);
      g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                   "region %s: host memory %p (+%" G_GUINT64_FORMAT
                   ") overlaps a chunk of the region", region->name, data, bytes);
      return NULL;
    }
  if (bytes > region->size - m->used)
    {
      g_mutex_unlock (&region->lock);
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY,
                   "region %s: wrapping %" G_GUINT64_FORMAT " bytes exceeds its capacity",
                   region->name, bytes);
      return NULL;
    }
  chunk = xrt_mem_chunk_new_locked (region, addr, bytes, auto_free);
  chunk->host = data;
  chunk->host_notify = notify;
  chunk->host_notify_data = data;
  g_mutex_unlock (&region->lock);
  return chunk;
}

gboolean
xrt_mem_region_free (XrtMemRegion *region, XrtMemPtr ptr, GError **error)
{
  XrtMemChunk *chunk;
  guint64 addr;
  gboolean orphan;

  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!xrt_mem_region_addr_of (region, ptr, &addr, error))
    return FALSE;
  g_mutex_lock (&region->lock);
  chunk = g_tree_lookup (region->manager.chunks, &addr);
  if (chunk == NULL)
    {
      g_mutex_unlock (&region->lock);
      g_set_error (error, XRT_ERROR, XRT_ERROR_BAD_FREE,
                   "region %s: no allocated chunk begins at 0x%" G_GINT64_MODIFIER
                   "x (never allocated, or already freed)", region->name, addr);
      return FALSE;
    }
  orphan = chunk->orphan;
  xrt_mem_chunk_release_locked (region, chunk);
  g_mutex_unlock (&region->lock);
  if (orphan)
    g_free (chunk);
  return TRUE;
}

gboolean
xrt_mem_collect_chunk (gpointer key, gpointer value, gpointer user_data)
{
  (void) key;
  g_ptr_array_add (user_data, value);
  return FALSE;
}

guint
xrt_mem_region_free_all (XrtMemRegion *region)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  g_autoptr (GPtrArray) orphans = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (region != NULL, 0);

  g_mutex_lock (&region->lock);
  g_tree_foreach (region->manager.chunks, xrt_mem_collect_chunk, all);
  for (guint i = 0; i < all->len; i++)
    {
      XrtMemChunk *chunk = all->pdata[i];
      if (chunk->orphan)
        g_ptr_array_add (orphans, chunk);
      xrt_mem_chunk_release_locked (region, chunk);
    }
  g_mutex_unlock (&region->lock);
  return all->len;
}

static gboolean
region_check_access (XrtMemRegion *region, guint64 addr, guint64 bytes, const char *what,
                     GError **error)
{
  if (!xrt_mem_range_inside (region->base, region->size, addr, bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "region %s: %s of %" G_GUINT64_FORMAT " bytes at 0x%" G_GINT64_MODIFIER
                   "x is outside [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x)",
                   region->name, what, bytes, addr, region->base,
                   region->base + region->size);
      return FALSE;
    }
  return TRUE;
}

/* Host pointer to [addr, addr + bytes) of a host region: inside one live chunk. */
static guint8 *
host_region_span (XrtMemRegion *region, guint64 addr, guint64 bytes, const char *what,
                  GError **error)
{
  XrtMemChunk *chunk;
  guint8 *p = NULL;

  g_mutex_lock (&region->lock);
  chunk = xrt_mem_tree_find_containing (&region->manager, addr);
  if (chunk && xrt_mem_range_inside (chunk->addr, chunk->size, addr, bytes))
    p = chunk->host + (addr - chunk->addr);
  g_mutex_unlock (&region->lock);
  if (p == NULL)
    g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                 "region %s: %s of %" G_GUINT64_FORMAT " bytes at %p is not inside one "
                 "allocated chunk", region->name, what, bytes, (void *) (guintptr) addr);
  return p;
}

gboolean
xrt_mem_region_read (XrtMemRegion *region,
                     guint64       addr,
                     gpointer      dest,
                     gsize         bytes,
                     GError      **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (dest != NULL || bytes == 0, "dest", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (region->host)
    {
      guint8 *p;
      if (bytes == 0)
        return TRUE;
      if ((p = host_region_span (region, addr, bytes, "read", error)) == NULL)
        return FALSE;
      memcpy (dest, p, bytes);
      return TRUE;
    }
  if (!region_check_access (region, addr, bytes, "read", error))
    return FALSE;
  if (bytes == 0)
    return TRUE;
  if (!region->ops->read (region->store, addr - region->base, dest, bytes, error))
    return FALSE;
  /* an injected corrupted read-back (URL fault=corrupt_read@N): one bit flipped */
  if (region->device != NULL && xrt_device_take_fault (region->device, XRT_FAULT_CORRUPT_READ, "read", NULL))
    ((guint8 *) dest)[bytes / 2] ^= 0x10;
  return TRUE;
}

gboolean
xrt_mem_region_write (XrtMemRegion *region,
                      guint64       addr,
                      gconstpointer src,
                      gsize         bytes,
                      GError      **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (region != NULL, "region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (src != NULL || bytes == 0, "src", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (region->host)
    {
      guint8 *p;
      if (bytes == 0)
        return TRUE;
      if ((p = host_region_span (region, addr, bytes, "write", error)) == NULL)
        return FALSE;
      memcpy (p, src, bytes);
      return TRUE;
    }
  if (!region_check_access (region, addr, bytes, "write", error))
    return FALSE;
  if (bytes == 0)
    return TRUE;
  return region->ops->write (region->store, addr - region->base, src, bytes, error);
}

guint8 *
xrt_mem_region_get_host_pointer (XrtMemRegion *region, guint64 addr, gsize bytes)
{
  g_return_val_if_fail (region != NULL, NULL);

  if (region->host)
    return host_region_span (region, addr, bytes, "map", NULL);
  if (region->ops->host_pointer == NULL
      || !xrt_mem_range_inside (region->base, region->size, addr, bytes))
    return NULL;
  return region->ops->host_pointer (region->store, addr - region->base, bytes);
}

gboolean
xrt_mem_region_copy (XrtMemRegion *dest_region,
                     guint64       dest_addr,
                     XrtMemRegion *src_region,
                     guint64       src_addr,
                     gsize         bytes,
                     GError      **error)
{
  guint8 *src_p, *dest_p, *bounce;
  gboolean ok = TRUE;

  ZW_RETURN_VAL_IF_BAD_ARG (dest_region != NULL, "dest_region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (src_region != NULL, "src_region", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (bytes == 0)
    return TRUE;
  if (!src_region->host && !region_check_access (src_region, src_addr, bytes, "copy source", error))
    return FALSE;
  if (!dest_region->host && !region_check_access (dest_region, dest_addr, bytes, "copy destination", error))
    return FALSE;

  src_p = src_region->host ? host_region_span (src_region, src_addr, bytes, "copy source", error)
                           : xrt_mem_region_get_host_pointer (src_region, src_addr, bytes);
  if (src_region->host && src_p == NULL)
    return FALSE;
  dest_p = dest_region->host ? host_region_span (dest_region, dest_addr, bytes, "copy destination", error)
                             : xrt_mem_region_get_host_pointer (dest_region, dest_addr, bytes);
  if (dest_region->host && dest_p == NULL)
    return FALSE;

  if (src_p && dest_p)
    {
      memmove (dest_p, src_p, bytes);
      return TRUE;
    }
  if (src_p)
    return xrt_mem_region_write (dest_region, dest_addr, src_p, bytes, error);
  if (dest_p)
    return xrt_mem_region_read (src_region, src_addr, dest_p, bytes, error);

  /* Neither side is host addressable.  Within one region an overlapping copy must read
   * everything before writing anything; otherwise a bounded bounce buffer does. */
  if (src_region == dest_region
      && src_addr < dest_addr + bytes && dest_addr < src_addr + bytes)
    {
      bounce = g_try_malloc (bytes);
      if (bounce == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY,
                       "region %s: no host memory to copy %" G_GSIZE_FORMAT
                       " overlapping bytes", src_region->name, bytes);
          return FALSE;
        }
      ok = xrt_mem_region_read (src_region, src_addr, bounce, bytes, error)
           && xrt_mem_region_write (dest_region, dest_addr, bounce, bytes, error);
      g_free (bounce);
      return ok;
    }
  bounce = g_malloc (MIN (bytes, (gsize) BOUNCE_BYTES));
  for (gsize done = 0; ok && done < bytes;)
    {
      gsize n = MIN (bytes - done, (gsize) BOUNCE_BYTES);
      ok = xrt_mem_region_read (src_region, src_addr + done, bounce, n, error)
           && xrt_mem_region_write (dest_region, dest_addr + done, bounce, n, error);
      done += n;
    }
  g_free (bounce);
  return ok;
}

G_DEFINE_BOXED_TYPE (XrtMemRegion, xrt_mem_region, (GBoxedCopyFunc) xrt_mem_region_ref, (GBoxedFreeFunc) xrt_mem_region_unref)
