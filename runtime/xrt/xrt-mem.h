/* xrt-mem.h — memory of an XRT device: MemPtr, MemRegion, MemManager, MemChunk.
 *
 * The vendor's model (xrt manual §2.2–2.4), in C:
 *
 *   XrtMemPtr     a pointer value: a host C pointer (CPTR), a device address (ADDR)
 *                 or both (BOTH, device memory the host can also address directly).
 *   XrtMemRegion  one managed memory space of a device ("ETM", "OCM", "HOST").  A
 *                 device region covers [base, base + size) of a device address space
 *                 whose bytes live in a store (XrtMemStoreOps); a host region hands out
 *                 host memory, one buffer per chunk.
 *   XrtMemManager the allocator of a region: best fit over an address-ordered free list,
 *                 freed blocks coalesce with their neighbours, alignment honoured.  It
 *                 also lists the live chunks and reports usage.
 *   XrtMemChunk   one allocated block: begin, size, region; read, write, copy_from,
 *                 free.  Reference counted.  An auto_free chunk gives its bytes back when
 *                 its last reference goes; a chunk allocated with auto_free == FALSE
 *                 stays allocated until freed explicitly (xrt_mem_chunk_free(),
 *                 xrt_mem_region_free()), and xrt_mem_manager_list_chunks() can hand it
 *                 out again even after every reference was dropped.
 *
 * Addresses are absolute (a chunk's address is the device address the NPU uses); offsets
 * passed to chunk functions are relative to the chunk's begin.  Every access is bounds
 * checked: nothing ever reads or writes outside a chunk (chunk API) or outside the region
 * (region API), and a failure is a GError, never a crash.
 *
 * Threads: regions, managers and chunks may be used from several threads.  The allocator
 * and the chunk bookkeeping are serialised by a per-region lock; data reads and writes
 * are not (two threads writing the same bytes at once get one of the two results, as on
 * hardware).  Reference counts are atomic.
 */
#pragma once

#include <glib.h>
#include <glib-object.h>

G_BEGIN_DECLS

#define XRT_ERROR (xrt_error_quark ())
/**
 * xrt_error_quark:
 *
 * The error domain of xrt/ (XRT_ERROR): devices, memory, tensors.
 */
GQuark xrt_error_quark (void);

/**
 * XrtError:
 * @XRT_ERROR_INVALID_ARGUMENT: a zero size where one is needed, an alignment that is not
 *   a power of two, an unaligned register offset, a core id out of the array…
 * @XRT_ERROR_NO_MEMORY: the region has no free block large enough (exhaustion).
 * @XRT_ERROR_OUT_OF_RANGE: an access (or an allocation at a fixed address) outside the
 *   chunk or the region; a layer index beyond the timer chunk.
 * @XRT_ERROR_BAD_FREE: double free, free of an address where no chunk begins, free of a
 *   sub-chunk.
 * @XRT_ERROR_OVERLAP: an allocation at a fixed address, or a hardop binding, over bytes
 *   that are already taken.
 * @XRT_ERROR_FREED: a read, write or copy through a chunk that was freed.
 * @XRT_ERROR_WRONG_REGION: a chunk of another region or device, or a pointer of the wrong
 *   kind (a CPTR where a device address is needed, or the reverse).
 * @XRT_ERROR_URL: a device URL this build does not understand.
 * @XRT_ERROR_NOT_AVAILABLE: a device URL that is known but not available in this build
 *   (socket://, axi://).
 * @XRT_ERROR_REGISTER: an unknown register offset, or a write to a read-only register.
 * @XRT_ERROR_UNBOUND: icoreCalc over an address range where no hardop is bound.
 * @XRT_ERROR_EXEC: a hardop's execution failed (the message says which and why).
 * @XRT_ERROR_PROFILE: a device profile is unreadable or has a bad field.
 * @XRT_ERROR_CLOSED: the device was closed.
 * @XRT_ERROR_CHECK: xrt_device_check() found an inconsistency.
 * @XRT_ERROR_DEVICE: the device failed an operation (a register access, a launch, a
 *   read-back that does not match what was written): the message names the URL and the
 *   operation. Injected faults (URL parameter fault=…) fail this way.
 * @XRT_ERROR_TIMEOUT: the device did not answer within its wait time (setWaitTime).
 */
typedef enum {
  XRT_ERROR_INVALID_ARGUMENT,
  XRT_ERROR_NO_MEMORY,
  XRT_ERROR_OUT_OF_RANGE,
  XRT_ERROR_BAD_FREE,
  XRT_ERROR_OVERLAP,
  XRT_ERROR_FREED,
  XRT_ERROR_WRONG_REGION,
  XRT_ERROR_URL,
  XRT_ERROR_NOT_AVAILABLE,
  XRT_ERROR_REGISTER,
  XRT_ERROR_UNBOUND,
  XRT_ERROR_EXEC,
  XRT_ERROR_PROFILE,
  XRT_ERROR_CLOSED,
  XRT_ERROR_CHECK,
  XRT_ERROR_DEVICE,
  XRT_ERROR_TIMEOUT,
} XrtError;

typedef struct _XrtDevice     XrtDevice;
typedef struct _XrtMemRegion  XrtMemRegion;
typedef struct _XrtMemManager XrtMemManager;
typedef struct _XrtMemChunk   XrtMemChunk;

/* Default alignment of xrt_mem_region_malloc() when 0 is passed: one page, as the
 * vendor's samples ask for every user chunk. */
#define XRT_MEM_DEFAULT_ALIGNMENT 4096

/* ---- MemPtr ------------------------------------------------------------ */

/**
 * XrtPtrType:
 * @XRT_PTR_CPTR: a host C pointer only (host memory).
 * @XRT_PTR_ADDR: a device address only (memory the host cannot address, e.g. ETM).
 * @XRT_PTR_BOTH: both: device memory that is also mapped into the host.
 */
typedef enum {
  XRT_PTR_CPTR,
  XRT_PTR_ADDR,
  XRT_PTR_BOTH,
} XrtPtrType;

/**
 * XrtMemPtr:
 * A plain value (copy it freely).  @cptr is meaningful for CPTR and BOTH, @addr for ADDR
 * and BOTH.  The null pointer is a CPTR whose @cptr is NULL (xrt_mem_ptr_null()); device
 * address 0 is a valid, non-null pointer.
 */
typedef struct {
  XrtPtrType ptype;
  guint8    *cptr;
  guint64    addr;
} XrtMemPtr;

/**
 * xrt_mem_ptr_null: (skip)
 *
 * The null MemPtr: a CPTR whose cptr is NULL.
 */
XrtMemPtr xrt_mem_ptr_null       (void);
/**
 * xrt_mem_ptr_from_cptr: (skip)
 *
 * A MemPtr of a host pointer.
 */
XrtMemPtr xrt_mem_ptr_from_cptr  (gpointer cptr);
/**
 * xrt_mem_ptr_from_addr: (skip)
 *
 * A MemPtr of a device address (address 0 is valid, not null).
 */
XrtMemPtr xrt_mem_ptr_from_addr  (guint64 addr);
/**
 * xrt_mem_ptr_from_both: (skip)
 *
 * A MemPtr with both a host pointer and a device address (memory the host and the device
 * both address).
 */
XrtMemPtr xrt_mem_ptr_from_both  (gpointer cptr, guint64 addr);
/**
 * xrt_mem_ptr_is_null: (skip)
 *
 * Whether @ptr is the null MemPtr (a CPTR whose cptr is NULL).
 */
gboolean  xrt_mem_ptr_is_null    (XrtMemPtr ptr);
/**
 * xrt_mem_ptr_offset: (skip)
 *
 * The pointer @delta bytes further (both parts advance).
 */
XrtMemPtr xrt_mem_ptr_offset     (XrtMemPtr ptr, guint64 delta);
/**
 * xrt_mem_ptr_get_cptr: (skip)
 *
 * The host pointer; NULL with XRT_ERROR_WRONG_REGION for an ADDR pointer (as the vendor's
 * cptr() throws).
 */
guint8   *xrt_mem_ptr_get_cptr   (XrtMemPtr ptr, GError **error);
/**
 * xrt_mem_ptr_get_addr: (skip)
 *
 * The device address; FALSE with XRT_ERROR_WRONG_REGION for a CPTR pointer.
 */
gboolean  xrt_mem_ptr_get_addr   (XrtMemPtr ptr, guint64 *addr, GError **error);
/**
 * xrt_mem_ptr_to_string: (skip)
 *
 * "0x1000 (ADDR)", "0x7f… (CPTR)", "0x7f…/0x1000 (BOTH)", "null".  Free with g_free().
 */
gchar    *xrt_mem_ptr_to_string  (XrtMemPtr ptr);

/* ---- MemRegion --------------------------------------------------------- */

/**
 * XrtMemStoreOps:
 * How a device region reaches its bytes.  @offset is relative to the region's base and
 * the region has already checked that [offset, offset + bytes) lies inside it, so a store
 * only has to move bytes.  @read and @write must be safe to call from several threads on
 * disjoint bytes.  @host_pointer is optional: when the store keeps [offset, offset+bytes)
 * contiguous in host memory it returns a pointer to it (chunks then are BOTH), else NULL.
 */
typedef struct {
  gboolean (*read)         (gpointer store, guint64 offset, gpointer dest, gsize bytes,
                            GError **error);
  gboolean (*write)        (gpointer store, guint64 offset, gconstpointer src, gsize bytes,
                            GError **error);
  guint8  *(*host_pointer) (gpointer store, guint64 offset, gsize bytes);
} XrtMemStoreOps;

/**
 * xrt_mem_region_new_device: (skip)
 *
 * A region over device addresses [base, base + size) whose bytes live in @store.  @ops
 * must stay valid for the region's lifetime (a static table); @store_free (nullable) is
 * called on @store when the region is finalized.  @size > 0 and base + size must not
 * exceed 2^64.  Returns a new reference.  Device implementations call this; users get
 * regions from xrt_device_get_mem_region().
 */
XrtMemRegion *xrt_mem_region_new_device (const char           *name,
                                         guint64               base,
                                         guint64               size,
                                         const XrtMemStoreOps *ops,
                                         gpointer              store,
                                         GDestroyNotify        store_free);

/**
 * xrt_mem_region_new_host:
 *
 * A host-memory region: every chunk is its own zero-filled host buffer (chunks are
 * CPTR; their "address" is the host pointer value).  @capacity bounds the sum of live
 * chunk sizes (exhaustion beyond it).  Returns a new reference.
 *
 * Returns: (transfer full)
 */
XrtMemRegion *xrt_mem_region_new_host   (const char *name,
                                         guint64     capacity);

/**
 * xrt_host_mem_region_get_default:
 *
 * The process-wide host region (the vendor's HostDevice::MemRegion()), created on first
 * use, never finalized.  Returns a borrowed pointer; take a reference to keep one.
 *
 * Returns: (transfer none)
 */
XrtMemRegion *xrt_host_mem_region_get_default (void);

/**
 * xrt_mem_region_ref:
 *
 * Takes a reference to @region.
 *
 * Returns: (transfer full)
 */
XrtMemRegion *xrt_mem_region_ref        (XrtMemRegion *region);
/**
 * xrt_mem_region_unref:
 *
 * Drops a reference to @region; the last one frees it (chunks hold references of their
 * own).
 */
void          xrt_mem_region_unref      (XrtMemRegion *region);

/**
 * xrt_mem_region_get_name:
 *
 * The region's name ("ETM", "OCM", "HOST").
 */
const char   *xrt_mem_region_get_name   (XrtMemRegion *region);
/**
 * xrt_mem_region_is_host:
 *
 * Whether the region is host memory (chunks have host pointers) rather than a device's.
 */
gboolean      xrt_mem_region_is_host    (XrtMemRegion *region);
/**
 * xrt_mem_region_get_base:
 *
 * The first address of the region.
 */
guint64       xrt_mem_region_get_base   (XrtMemRegion *region);
/**
 * xrt_mem_region_get_size:
 *
 * The size of the region in bytes (a host region: its capacity).
 */
guint64       xrt_mem_region_get_size   (XrtMemRegion *region);
/**
 * xrt_mem_region_get_ptype:
 *
 * The kind of pointer this region's chunks carry (CPTR host, BOTH mapped device, ADDR).
 */
XrtPtrType    xrt_mem_region_get_ptype  (XrtMemRegion *region);
/**
 * xrt_mem_region_get_device:
 *
 * The device the region belongs to, borrowed; NULL for a standalone region or once the
 * device is gone.
 *
 * Returns: (transfer none) (nullable)
 */
XrtDevice    *xrt_mem_region_get_device (XrtMemRegion *region);
/**
 * xrt_mem_region_get_manager: (skip)
 *
 * The region's memory manager, owned by the region (valid while it is).
 */
XrtMemManager *xrt_mem_region_get_manager (XrtMemRegion *region);

/**
 * xrt_mem_region_malloc:
 *
 * Allocates @bytes (> 0) at an address that is a multiple of @alignment (a power of two;
 * 0 means XRT_MEM_DEFAULT_ALIGNMENT), choosing the smallest free block that fits (best
 * fit; ties go to the lowest address).  Device regions' chunks read back as zero only if
 * the bytes were never written: the allocator does not clear memory (as on hardware);
 * host chunks are zero-filled.  Returns a new chunk reference, or NULL with
 * XRT_ERROR_NO_MEMORY (message: region, bytes, alignment, largest free block),
 * XRT_ERROR_CLOSED when the region's device was closed, or XRT_ERROR_INVALID_ARGUMENT.
 *
 * Returns: (transfer full)
 */
XrtMemChunk  *xrt_mem_region_malloc     (XrtMemRegion *region,
                                         guint64       bytes,
                                         gboolean      auto_free,
                                         guint64       alignment,
                                         GError      **error);

/**
 * xrt_mem_region_malloc_at:
 *
 * Allocates exactly [addr, addr + bytes) of a device region (the vendor's
 * malloc(MemPtr begin, …)): the backend uses it to put a segment back where it was.
 * Errors: XRT_ERROR_OUT_OF_RANGE outside the region, XRT_ERROR_OVERLAP when any of the
 * bytes is taken, XRT_ERROR_CLOSED when the region's device was closed,
 * XRT_ERROR_INVALID_ARGUMENT for bytes == 0 or a host region.
 *
 * Returns: (transfer full)
 */
XrtMemChunk  *xrt_mem_region_malloc_at  (XrtMemRegion *region,
                                         guint64       addr,
                                         guint64       bytes,
                                         gboolean      auto_free,
                                         GError      **error);

/**
 * xrt_mem_region_wrap_host: (skip)
 *
 * Makes a chunk of a host region over memory the caller already has (the vendor's
 * malloc(MemPtr cptr, size, deleter, …) on the host region).  @notify (nullable) is called
 * with @data when the chunk is freed, with the region's lock held (it must not call back
 * into the region); without it the caller keeps ownership and must keep the memory valid
 * until the chunk is freed.  Errors: XRT_ERROR_INVALID_ARGUMENT for a
 * device region or bytes == 0, XRT_ERROR_OVERLAP if it overlaps a chunk of the region.
 */
XrtMemChunk  *xrt_mem_region_wrap_host  (XrtMemRegion  *region,
                                         gpointer       data,
                                         guint64        bytes,
                                         GDestroyNotify notify,
                                         gboolean       auto_free,
                                         GError       **error);

/**
 * xrt_mem_region_free:
 *
 * Frees the chunk that begins at @ptr (its address; the host pointer for host regions).
 * Any chunk handle still held then reports XRT_ERROR_FREED.  XRT_ERROR_BAD_FREE when no
 * live chunk begins there (unknown address or double free).
 */
gboolean      xrt_mem_region_free       (XrtMemRegion *region,
                                         XrtMemPtr     ptr,
                                         GError      **error);

/**
 * xrt_mem_region_free_all:
 *
 * Frees every chunk of the region (device close).  Returns how many were freed.
 */
guint         xrt_mem_region_free_all   (XrtMemRegion *region);

/**
 * xrt_mem_region_read: (skip)
 *
 * Moves bytes at absolute address @addr, allocated or not, which must lie inside the
 * region ([base, base+size); for a host region: inside one live chunk).  This is how the
 * simulated board's hardops reach their operands.  XRT_ERROR_OUT_OF_RANGE otherwise.
 */
gboolean      xrt_mem_region_read       (XrtMemRegion *region,
                                         guint64       addr,
                                         gpointer      dest,
                                         gsize         bytes,
                                         GError      **error);
/**
 * xrt_mem_region_write:
 * @src: (array length=bytes) (element-type guint8)
 *
 * Writes @bytes from @src at region address @addr (inside one live chunk of a host region;
 * within the region on a device); errors name the region and the range.
 */
gboolean      xrt_mem_region_write      (XrtMemRegion *region,
                                         guint64       addr,
                                         gconstpointer src,
                                         gsize         bytes,
                                         GError      **error);

/**
 * xrt_mem_region_copy:
 *
 * Copies @bytes from @src_region at @src_addr to @dest_region at @dest_addr (both bounds
 * checked as above).  Overlapping ranges of one region copy as memmove does.
 */
gboolean      xrt_mem_region_copy       (XrtMemRegion *dest_region,
                                         guint64       dest_addr,
                                         XrtMemRegion *src_region,
                                         guint64       src_addr,
                                         gsize         bytes,
                                         GError      **error);

/**
 * xrt_mem_region_get_host_pointer: (skip)
 *
 * A host pointer to [addr, addr + bytes) when the region keeps those bytes contiguous in
 * host memory (OCM and host regions), else NULL (ETM, out of range).  Valid while the
 * region lives (for a host region: while the chunk holding them lives).
 */
guint8       *xrt_mem_region_get_host_pointer (XrtMemRegion *region,
                                               guint64       addr,
                                               gsize         bytes);

/* ---- MemManager -------------------------------------------------------- */

/**
 * XrtMemRegionInfo:
 * @base, @size: the region's address range (size = capacity for a host region).
 * @used: bytes in live chunks.  @free: size - used.
 * @largest_free: the largest single free block (what one malloc can still get with
 *   alignment 1; for a host region: free).
 * @n_chunks: live chunks.  @n_free_blocks: blocks of the free list (1 when the region is
 *   empty: full coalescing; 0 for host regions).
 */
typedef struct {
  guint64 base;
  guint64 size;
  guint64 used;
  guint64 free;
  guint64 largest_free;
  guint   n_chunks;
  guint   n_free_blocks;
} XrtMemRegionInfo;

/**
 * xrt_mem_manager_get_region: (skip)
 *
 * The region this manager belongs to (borrowed).
 */
XrtMemRegion *xrt_mem_manager_get_region  (XrtMemManager *manager);

/**
 * xrt_mem_manager_list_chunks: (skip)
 *
 * Every live chunk, in address order, as new references (getAllMemChunk).  Free the
 * array with g_ptr_array_unref() (it unrefs the chunks).
 */
GPtrArray    *xrt_mem_manager_list_chunks (XrtMemManager *manager);

/**
 * xrt_mem_region_list_chunks:
 *
 * xrt_mem_manager_list_chunks() of @region's manager (MemManager.getAllMemChunk).
 *
 * Returns: (transfer container) (element-type XrtMemChunk): the live chunks, by address
 */
GPtrArray    *xrt_mem_region_list_chunks (XrtMemRegion *region);

/**
 * xrt_mem_region_find_chunk:
 *
 * xrt_mem_manager_find_chunk() of @region's manager at @addr (a device address, or a host
 * region's pointer as an integer).
 *
 * Returns: (transfer full) (nullable): the live chunk containing [addr, addr + bytes), or %NULL
 */
XrtMemChunk  *xrt_mem_region_find_chunk  (XrtMemRegion *region, guint64 addr, guint64 bytes);

/**
 * xrt_mem_manager_find_chunk: (skip)
 *
 * The live chunk that contains [ptr, ptr + bytes) (bytes may be 0: the chunk containing
 * ptr), as a new reference, or NULL (getMemChunk).
 */
XrtMemChunk  *xrt_mem_manager_find_chunk  (XrtMemManager *manager,
                                           XrtMemPtr      ptr,
                                           guint64        bytes);

/**
 * xrt_mem_manager_get_info: (skip)
 *
 * xrt_mem_manager_get_info: fills @info (getMemRegionInfo).
 */
void          xrt_mem_manager_get_info    (XrtMemManager    *manager,
                                           XrtMemRegionInfo *info);

/**
 * xrt_mem_manager_check: (skip)
 *
 * Verifies the allocator's invariants (free list sorted, coalesced, disjoint from every
 * chunk, used + free == size).  XRT_ERROR_CHECK naming the first broken one.
 */
gboolean      xrt_mem_manager_check       (XrtMemManager *manager,
                                           GError       **error);

/* ---- MemChunk ---------------------------------------------------------- */

/**
 * xrt_mem_chunk_ref:
 *
 * Takes a reference to @chunk.
 *
 * Returns: (transfer full)
 */
XrtMemChunk  *xrt_mem_chunk_ref          (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_unref:
 *
 * Drops a reference; the last one frees the bytes of an auto_free chunk.
 */
void          xrt_mem_chunk_unref        (XrtMemChunk *chunk);

/**
 * xrt_mem_chunk_new_sub:
 *
 * A view of [offset, offset + bytes) of @parent: no allocation, keeps @parent alive,
 * cannot be freed itself (XRT_ERROR_BAD_FREE) and reports XRT_ERROR_FREED once its parent
 * is freed.  Returns a new reference or NULL with XRT_ERROR_OUT_OF_RANGE.
 *
 * Returns: (transfer full)
 */
XrtMemChunk  *xrt_mem_chunk_new_sub      (XrtMemChunk *parent,
                                          guint64      offset,
                                          guint64      bytes,
                                          GError     **error);

/**
 * xrt_mem_chunk_get_begin: (skip)
 *
 * The chunk's begin as a MemPtr of its region's kind (see xrt_mem_region_get_ptype).
 */
XrtMemPtr     xrt_mem_chunk_get_begin    (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_get_addr:
 *
 * The chunk's address in its region (device address; host pointer value for host).
 */
guint64       xrt_mem_chunk_get_addr     (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_get_size:
 *
 * The chunk's size in bytes.
 */
guint64       xrt_mem_chunk_get_size     (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_get_region:
 *
 * Borrowed; valid while the chunk is.
 *
 * Returns: (transfer none)
 */
XrtMemRegion *xrt_mem_chunk_get_region   (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_is_on:
 *
 * Whether the chunk is in @region.
 */
gboolean      xrt_mem_chunk_is_on        (XrtMemChunk *chunk, XrtMemRegion *region);
/**
 * xrt_mem_chunk_get_auto_free:
 *
 * Whether the chunk gives its bytes back when its last reference goes (autoFree); without
 * it the bytes stay allocated until xrt_mem_chunk_free or the region's free_all.
 */
gboolean      xrt_mem_chunk_get_auto_free (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_set_auto_free:
 *
 * Sets whether the chunk gives its bytes back when its last reference goes (see
 * xrt_mem_chunk_get_auto_free).
 */
void          xrt_mem_chunk_set_auto_free (XrtMemChunk *chunk, gboolean auto_free);
/**
 * xrt_mem_chunk_is_freed:
 *
 * Whether the chunk's bytes have been given back (xrt_mem_chunk_free or the region's
 * free_all): reads and writes then fail.
 */
gboolean      xrt_mem_chunk_is_freed     (XrtMemChunk *chunk);
/**
 * xrt_mem_chunk_get_host_pointer: (skip)
 *
 * Host pointer to the chunk's bytes (CPTR/BOTH chunks), else NULL.
 */
guint8       *xrt_mem_chunk_get_host_pointer (XrtMemChunk *chunk);

/**
 * xrt_mem_chunk_read: (skip)
 *
 * Moves @bytes at @offset of the chunk.  XRT_ERROR_OUT_OF_RANGE when
 * offset + bytes > size, XRT_ERROR_FREED after a free.
 */
gboolean      xrt_mem_chunk_read         (XrtMemChunk  *chunk,
                                          guint64       offset,
                                          gpointer      dest,
                                          gsize         bytes,
                                          GError      **error);
/**
 * xrt_mem_chunk_write:
 * @src: (array length=bytes) (element-type guint8)
 *
 * Writes @bytes from @src at @offset of the chunk; an error names the chunk and the range
 * when it does not fit or the chunk is freed.
 */
gboolean      xrt_mem_chunk_write        (XrtMemChunk  *chunk,
                                          guint64       offset,
                                          gconstpointer src,
                                          gsize         bytes,
                                          GError      **error);
/**
 * xrt_mem_chunk_read_bytes:
 *
 * xrt_mem_chunk_read() into a new GBytes (for bindings and callers that keep the bytes).
 *
 * Returns: (transfer full)
 */
GBytes       *xrt_mem_chunk_read_bytes   (XrtMemChunk  *chunk,
                                          guint64       offset,
                                          gsize         bytes,
                                          GError      **error);

/**
 * xrt_mem_chunk_copy_from:
 *
 * Copies @bytes from @src at @src_offset into @dest at @dest_offset (copyFrom), across
 * regions and devices; overlapping ranges of one chunk copy as memmove does.
 */
gboolean      xrt_mem_chunk_copy_from    (XrtMemChunk  *dest,
                                          guint64       dest_offset,
                                          XrtMemChunk  *src,
                                          guint64       src_offset,
                                          gsize         bytes,
                                          GError      **error);

/**
 * xrt_mem_chunk_free:
 *
 * Gives the bytes back now.  The handle stays valid (unref it as usual) but every access
 * then reports XRT_ERROR_FREED.  XRT_ERROR_BAD_FREE on a second free or a sub-chunk.
 */
gboolean      xrt_mem_chunk_free         (XrtMemChunk *chunk,
                                          GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtMemRegion, xrt_mem_region_unref)
/* The GBoxed type of XrtMemRegion (for the language bindings). */
#define XRT_TYPE_MEM_REGION (xrt_mem_region_get_type ())
GType xrt_mem_region_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtMemChunk, xrt_mem_chunk_unref)
/* The GBoxed type of XrtMemChunk (for the language bindings). */
#define XRT_TYPE_MEM_CHUNK (xrt_mem_chunk_get_type ())
GType xrt_mem_chunk_get_type (void);

/**
 * xrt_mem_region_set_device: (skip)
 *
 * For device implementations: records (or clears, with NULL) the device that owns the
 * region.  The region does not reference the device.
 */
void          xrt_mem_region_set_device  (XrtMemRegion *region,
                                          XrtDevice    *device);

G_END_DECLS
