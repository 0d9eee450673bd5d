/* xrt-mem-private.h — what the files of the memory layer share (xrt-mem-ptr.c,
 * xrt-mem-region.c, xrt-mem-manager.c, xrt-mem-chunk.c): the structs, the free list of the
 * best-fit allocator and the chunk bookkeeping done under the region lock; not installed. */
#pragma once

#include "xrt/xrt-mem.h"

G_BEGIN_DECLS

/* Copies between two stores that the host cannot address go through a bounce buffer of
 * this size, so copying a GiB-sized chunk never needs a GiB of host memory. */
#define BOUNCE_BYTES (1u << 20)

typedef struct {
  guint64 start;
  guint64 size;
} FreeBlock;

struct _XrtMemManager {
  XrtMemRegion *region;
  GArray       *free_blocks;   /* FreeBlock, sorted by start, disjoint, never adjacent */
  GTree        *chunks;        /* &chunk->addr -> chunk; weak: chunks own themselves */
  guint64       used;
};

struct _XrtMemRegion {
  gint                  ref_count;
  gchar                *name;
  gboolean              host;
  guint64               base;
  guint64               size;
  const XrtMemStoreOps *ops;
  gpointer              store;
  GDestroyNotify        store_free;
  XrtDevice            *device;    /* weak */
  GMutex                lock;      /* allocator, chunk tree, orphan flags, device */
  XrtMemManager         manager;
};

struct _XrtMemChunk {
  gint           ref_count;
  XrtMemRegion  *region;       /* a reference while ref_count > 0 */
  XrtMemChunk   *parent;       /* sub-chunks only (a reference) */
  guint64        addr;
  guint64        size;
  guint8        *host;         /* host regions: the bytes */
  gboolean       host_owned;   /* host was g_malloc'd by us */
  GDestroyNotify host_notify;  /* wrapped host memory */
  gpointer       host_notify_data;
  gboolean       auto_free;
  /* A non-auto_free chunk whose last reference went stays in the region's tree as an
   * "orphan" (owned by the region, holding no region reference) until it is freed or
   * handed out again by list/find.  Protected by the region lock. */
  gboolean       orphan;
  gint           freed;        /* atomic */
};

/* xrt-mem-region.c */
gboolean xrt_mem_range_inside (guint64 base, guint64 size, guint64 addr, guint64 bytes);
gboolean xrt_mem_region_addr_of (XrtMemRegion *region, XrtMemPtr ptr, guint64 *addr, GError **error);
XrtMemChunk *xrt_mem_chunk_claim_locked (XrtMemChunk *chunk);
XrtMemChunk *xrt_mem_tree_find_containing (XrtMemManager *m, guint64 addr);
gboolean xrt_mem_collect_chunk (gpointer key, gpointer value, gpointer user_data);

/* xrt-mem-manager.c: the free list */
guint xrt_mem_free_list_upper (GArray *blocks, guint64 addr);
void xrt_mem_free_list_insert (GArray *blocks, guint64 start, guint64 size);
void xrt_mem_free_list_take (GArray *blocks, guint idx, guint64 addr, guint64 size);
guint64 xrt_mem_free_list_largest (GArray *blocks);

/* xrt-mem-chunk.c (region lock held) */
XrtMemChunk *xrt_mem_chunk_new_locked (XrtMemRegion *region, guint64 addr, guint64 size, gboolean auto_free);
void xrt_mem_chunk_release_locked (XrtMemRegion *region, XrtMemChunk *chunk);

G_END_DECLS
