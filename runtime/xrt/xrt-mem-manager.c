/* xrt-mem-manager.c — MemManager: a region's best-fit allocator (a sorted free list of
 * disjoint blocks, the chunks in a tree by address), its listing and its self-check.
 */
#include "xrt/xrt-mem-private.h"

#include "base/zw-checked.h"
#include "xrt/xrt-device.h"

#include <string.h>

/* ---- free list ---------------------------------------------------------- */

/* Index of the first free block starting after addr. */
guint
xrt_mem_free_list_upper (GArray *blocks, guint64 addr)
{
  guint lo = 0, hi = blocks->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (blocks, FreeBlock, mid).start <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Returns [start, start + size) to the free list, merging it with the neighbours it
 * touches so the list stays fully coalesced. */
void
xrt_mem_free_list_insert (GArray *blocks, guint64 start, guint64 size)
{
  guint idx = xrt_mem_free_list_upper (blocks, start);
  FreeBlock *prev = idx > 0 ? &g_array_index (blocks, FreeBlock, idx - 1) : NULL;
  FreeBlock *next = idx < blocks->len ? &g_array_index (blocks, FreeBlock, idx) : NULL;
  gboolean merge_prev = prev && prev->start + prev->size == start;
  gboolean merge_next = next && start + size == next->start;

  g_assert (!prev || prev->start + prev->size <= start);
  g_assert (!next || start + size <= next->start);

  if (merge_prev && merge_next)
    {
      prev->size += size + next->size;
      g_array_remove_index (blocks, idx);
    }
  else if (merge_prev)
    prev->size += size;
  else if (merge_next)
    {
      next->start = start;
      next->size += size;
    }
  else
    {
      FreeBlock b = { start, size };
      g_array_insert_val (blocks, idx, b);
    }
}

/* Carves [addr, addr + size) out of free block idx, which must contain it. */
void
xrt_mem_free_list_take (GArray *blocks, guint idx, guint64 addr, guint64 size)
{
  FreeBlock b = g_array_index (blocks, FreeBlock, idx);
  guint64 front = addr - b.start;
  guint64 back = b.start + b.size - (addr + size);

  g_assert (addr >= b.start && addr + size <= b.start + b.size);
  if (front > 0 && back > 0)
    {
      FreeBlock tail = { addr + size, back };
      g_array_index (blocks, FreeBlock, idx).size = front;
      g_array_insert_val (blocks, idx + 1, tail);
    }
  else if (front > 0)
    g_array_index (blocks, FreeBlock, idx).size = front;
  else if (back > 0)
    {
      g_array_index (blocks, FreeBlock, idx).start = addr + size;
      g_array_index (blocks, FreeBlock, idx).size = back;
    }
  else
    g_array_remove_index (blocks, idx);
}

guint64
xrt_mem_free_list_largest (GArray *blocks)
{
  guint64 largest = 0;

  for (guint i = 0; i < blocks->len; i++)
    largest = MAX (largest, g_array_index (blocks, FreeBlock, i).size);
  return largest;
}

/* ---- MemManager ---------------------------------------------------------- */

XrtMemRegion *
xrt_mem_manager_get_region (XrtMemManager *manager)
{
  g_return_val_if_fail (manager != NULL, NULL);
  return manager->region;
}

GPtrArray *
xrt_mem_manager_list_chunks (XrtMemManager *manager)
{
  XrtMemRegion *region;
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_mem_chunk_unref);

  g_return_val_if_fail (manager != NULL, out);
  region = manager->region;
  g_mutex_lock (&region->lock);
  g_tree_foreach (manager->chunks, xrt_mem_collect_chunk, all);
  for (guint i = 0; i < all->len; i++)
    {
      XrtMemChunk *chunk = xrt_mem_chunk_claim_locked (all->pdata[i]);
      if (chunk)
        g_ptr_array_add (out, chunk);
    }
  g_mutex_unlock (&region->lock);
  return out;
}

XrtMemChunk *
xrt_mem_manager_find_chunk (XrtMemManager *manager, XrtMemPtr ptr, guint64 bytes)
{
  XrtMemRegion *region;
  XrtMemChunk *chunk, *found = NULL;
  guint64 addr;

  g_return_val_if_fail (manager != NULL, NULL);
  region = manager->region;
  if (!xrt_mem_region_addr_of (region, ptr, &addr, NULL))
    return NULL;
  g_mutex_lock (&region->lock);
  chunk = xrt_mem_tree_find_containing (manager, addr);
  if (chunk && xrt_mem_range_inside (chunk->addr, chunk->size, addr, bytes))
    found = xrt_mem_chunk_claim_locked (chunk);
  g_mutex_unlock (&region->lock);
  return found;
}

void
xrt_mem_manager_get_info (XrtMemManager *manager, XrtMemRegionInfo *info)
{
  XrtMemRegion *region;

  g_return_if_fail (manager != NULL && info != NULL);
  region = manager->region;
  g_mutex_lock (&region->lock);
  info->base = region->base;
  info->size = region->size;
  info->used = manager->used;
  info->free = region->size - manager->used;
  info->largest_free = region->host ? info->free : xrt_mem_free_list_largest (manager->free_blocks);
  info->n_chunks = g_tree_nnodes (manager->chunks);
  info->n_free_blocks = manager->free_blocks->len;
  g_mutex_unlock (&region->lock);
}

gboolean
xrt_mem_manager_check (XrtMemManager *manager, GError **error)
{
  XrtMemRegion *region;
  g_autoptr (GPtrArray) chunks = g_ptr_array_new ();
  GArray *blocks;
  guint64 free_sum = 0, used_sum = 0;
  const char *problem = NULL;
  guint64 at = 0;
  guint bi = 0;

  ZW_RETURN_VAL_IF_BAD_ARG (manager != NULL, "manager", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  region = manager->region;
  blocks = manager->free_blocks;
  g_mutex_lock (&region->lock);
  g_tree_foreach (manager->chunks, xrt_mem_collect_chunk, chunks);

  for (guint i = 0; i < blocks->len && !problem; i++)
    {
      FreeBlock b = g_array_index (blocks, FreeBlock, i);
      at = b.start;
      if (b.size == 0)
        problem = "empty free block";
      else if (!xrt_mem_range_inside (region->base, region->size, b.start, b.size))
        problem = "free block outside the region";
      else if (i > 0)
        {
          FreeBlock p = g_array_index (blocks, FreeBlock, i - 1);
          if (p.start + p.size > b.start)
            problem = "free blocks overlap or are out of order";
          else if (p.start + p.size == b.start)
            problem = "adjacent free blocks were not coalesced";
        }
      free_sum += b.size;
    }
  for (guint i = 0; i < chunks->len && !problem; i++)
    {
      XrtMemChunk *c = chunks->pdata[i];
      at = c->addr;
      used_sum += c->size;
      if (!region->host && !xrt_mem_range_inside (region->base, region->size, c->addr, c->size))
        problem = "chunk outside the region";
      else if (i + 1 < chunks->len
               && c->addr + c->size > ((XrtMemChunk *) chunks->pdata[i + 1])->addr)
        problem = "chunks overlap";
      /* Both lists are address ordered: walk the free list alongside. */
      while (!problem && bi < blocks->len
             && g_array_index (blocks, FreeBlock, bi).start
                + g_array_index (blocks, FreeBlock, bi).size <= c->addr)
        bi++;
      if (!problem && bi < blocks->len
          && g_array_index (blocks, FreeBlock, bi).start < c->addr + c->size)
        problem = "a free block overlaps a chunk";
    }
  if (!problem && used_sum != manager->used)
    problem = "sum of chunk sizes differs from the used count", at = used_sum;
  if (!problem && !region->host && used_sum + free_sum != region->size)
    problem = "used + free differs from the region size", at = used_sum + free_sum;
  g_mutex_unlock (&region->lock);

  if (problem)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CHECK, "region %s: %s (at 0x%"
                   G_GINT64_MODIFIER "x)", region->name, problem, at);
      return FALSE;
    }
  return TRUE;
}

/* ---- the manager's calls by region (for the language bindings) ----------------------- */

GPtrArray *
xrt_mem_region_list_chunks (XrtMemRegion *region)
{
  g_return_val_if_fail (region != NULL, NULL);
  return xrt_mem_manager_list_chunks (xrt_mem_region_get_manager (region));
}

XrtMemChunk *
xrt_mem_region_find_chunk (XrtMemRegion *region, guint64 addr, guint64 bytes)
{
  g_return_val_if_fail (region != NULL, NULL);
  return xrt_mem_manager_find_chunk (xrt_mem_region_get_manager (region),
                                     xrt_mem_region_is_host (region) ? xrt_mem_ptr_from_cptr ((gpointer) (guintptr) addr)
                                                                     : xrt_mem_ptr_from_addr (addr), bytes);
}
