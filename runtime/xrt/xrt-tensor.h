/* xrt-tensor.h — a Tensor: a value's type and the memory that holds its bytes.
 *
 * As in the vendor's Tensor(tensorType, chunk, offset): the bytes live in a MemChunk of any
 * region — host memory, or the device's ETM/OCM — at an offset. Refcounted; the tensor keeps
 * a reference to its chunk and its network (the value's type lives in the network).
 */
#pragma once

#include "xir/xir-network.h"
#include "xrt/xrt-mem.h"

G_BEGIN_DECLS

typedef struct _XrtTensor XrtTensor;

/* A tensor of @value's type in @chunk at @offset; fails when the chunk is too small. */
XrtTensor *xrt_tensor_new (XirNetwork *net, const XirValue *value, XrtMemChunk *chunk, guint64 offset,
                           GError **error);
/* A tensor in fresh host memory (zeroed), or holding a copy of @data (@size must equal
 * the value's storage bytes; the error names the v_id and both sizes). */
XrtTensor *xrt_tensor_new_host (XirNetwork *net, const XirValue *value, const void *data, gsize size,
                                GError **error);
XrtTensor *xrt_tensor_ref (XrtTensor *tensor);
void xrt_tensor_unref (XrtTensor *tensor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtTensor, xrt_tensor_unref)

const XirValue *xrt_tensor_get_value (const XrtTensor *tensor);
XrtMemChunk *xrt_tensor_get_chunk (const XrtTensor *tensor);
guint64 xrt_tensor_get_offset (const XrtTensor *tensor);
guint64 xrt_tensor_get_size (const XrtTensor *tensor);

/* Copies the bytes out (@size must be the tensor's size) or in. */
gboolean xrt_tensor_read (const XrtTensor *tensor, void *dest, gsize size, GError **error);
gboolean xrt_tensor_write (XrtTensor *tensor, const void *src, gsize size, GError **error);
/* A new host buffer with the bytes (g_free). */
guint8 *xrt_tensor_dup_bytes (const XrtTensor *tensor, GError **error);

G_END_DECLS
