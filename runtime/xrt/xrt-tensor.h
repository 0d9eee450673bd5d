/* xrt-tensor.h — a Tensor: a value's type and the memory that holds its bytes.
 *
 * As in the vendor's Tensor (xrt Python API, class Tensor): a type (an XirValue: element
 * dtype, shape, layout, scales) and the bytes, in a MemChunk of any region — host memory or
 * the device's ETM/OCM — at an offset. The type is either a network's value (xrt_tensor_new:
 * the tensor keeps a reference to the network and points at its value, so the session can
 * match tensors to values by pointer) or the tensor's own standalone copy (every
 * xrt_tensor_new_*_dtype / _from_bytes constructor and every derived tensor).
 *
 * A tensor made without data (xrt_tensor_new_for_dtype with no chunk) has no memory until
 * xrt_tensor_malloc_on / xrt_tensor_set_data, and is not ready until it is written (write,
 * fill, copy_from, set_ready). A tensor made with memory is ready.
 *
 * Derived tensors (reshape, with_dtype) share the bytes; to, clone and the conversions
 * (dequantize, quantize, to_half) make new memory. A tensor's type never changes after it is
 * made, so a pointer from xrt_tensor_get_value stays valid while the tensor lives.
 *
 * Threads: reference counts and readiness are atomic / locked; a tensor's memory is set once.
 * Errors are XRT_ERROR; each message names the tensor's value id (when it has one), the
 * sizes, shapes or dtypes involved and the field.
 */
#pragma once

#include <glib-object.h>

#include "xir/xir-network.h"
#include "xrt/xrt-mem.h"

G_BEGIN_DECLS

typedef struct _XrtTensor XrtTensor;

/* The GBoxed type of XrtTensor (copy = ref, free = unref). */
#define XRT_TYPE_TENSOR (xrt_tensor_get_type ())
GType xrt_tensor_get_type (void);

/* ---- construction --------------------------------------------------------- */

/**
 * xrt_tensor_new:
 * @net: the network @value belongs to
 * @value: one of @net's values: the tensor's type
 * @chunk: the memory
 * @offset: where the bytes begin in @chunk
 * @error: return location for a #GError
 *
 * The vendor's Tensor(value's type, chunk, offset): a tensor of @value's type whose bytes are
 * @chunk's at @offset. It keeps references to @net and @chunk and points at @value itself.
 *
 * Returns: (transfer full): the tensor, or %NULL with XRT_ERROR_OUT_OF_RANGE when the bytes
 *   do not fit the chunk (naming the v_id, the sizes and the offset)
 */
XrtTensor *xrt_tensor_new (XirNetwork *net, const XirValue *value, XrtMemChunk *chunk, guint64 offset,
                           GError **error);

/**
 * xrt_tensor_new_host:
 * @net: the network @value belongs to
 * @value: one of @net's values: the tensor's type
 * @data: (nullable) (array length=size) (element-type guint8): the bytes to copy, or %NULL
 * @size: the length of @data
 * @error: return location for a #GError
 *
 * A tensor of @value's type in fresh host memory: zeroed, or holding a copy of @data.
 *
 * Returns: (transfer full): the tensor, or %NULL with XRT_ERROR_INVALID_ARGUMENT when @size
 *   is not the value's storage bytes (the error names the v_id and both sizes)
 */
XrtTensor *xrt_tensor_new_host (XirNetwork *net, const XirValue *value, const void *data, gsize size,
                                GError **error);

/**
 * xrt_tensor_make_dtype:
 * @storage: the element dtype as the vendor writes it: "@sint(8)", "@sint(16)", "@fp(16)", "@fp(32)" …
 * @layout: (nullable): the layout ("NCHW", "NCHWc32", "@layout(NHWC)"), %NULL for "*"
 * @shape: (array length=rank): the shape
 * @rank: its length
 * @scale_axis: the quantisation axis (-1 = last), ignored without scales
 * @scales: (nullable) (array length=n_scales): per-channel scales (one, or one per channel);
 *   with scales the type is a QuantizedType over @storage expressing fp32
 * @n_scales: their number (0: a plain type)
 * @zero_points: (nullable) (array length=n_zero_points): zero points (none, one, or one per scale)
 * @n_zero_points: their number
 * @error: return location for a #GError
 *
 * A standalone tensor type (a TensorType: element dtype, shape, layout) for the
 * xrt_tensor_new_*_dtype constructors. Exponent scales or norm ratios: build an
 * #XirElementType and call xir_value_new().
 *
 * Returns: (transfer full): the type (free with xir_value_free()), or %NULL with an XIR_ERROR
 *   naming the field (storage, layout, shape, scales, zero_points, scale_axis)
 */
XirValue *xrt_tensor_make_dtype (const char *storage, const char *layout, const gint64 *shape, guint rank,
                                gint scale_axis, const float *scales, guint n_scales, const gint64 *zero_points,
                                guint n_zero_points, GError **error);

/**
 * xrt_tensor_new_for_dtype:
 * @dtype: the tensor's type (copied: a network's value or a standalone one)
 * @chunk: (nullable): the memory, or %NULL for a tensor without data
 * @offset: where the bytes begin in @chunk
 * @error: return location for a #GError
 *
 * The vendor's Tensor(dtype, chunk, offset) and, with no @chunk, Tensor(dtype): a tensor
 * without data has no memory until xrt_tensor_malloc_on() or xrt_tensor_set_data(), and is
 * not ready until written.
 *
 * Returns: (transfer full): the tensor, or %NULL with XRT_ERROR_OUT_OF_RANGE when the bytes
 *   do not fit @chunk
 */
XrtTensor *xrt_tensor_new_for_dtype (const XirValue *dtype, XrtMemChunk *chunk, guint64 offset, GError **error);

/**
 * xrt_tensor_new_host_for_dtype:
 * @dtype: the tensor's type (copied)
 * @data: (nullable) (array length=size) (element-type guint8): the bytes to copy, or %NULL
 * @size: the length of @data
 * @error: return location for a #GError
 *
 * A tensor of @dtype in fresh host memory: zeroed, or holding a copy of @data.
 *
 * Returns: (transfer full): the tensor, or %NULL with XRT_ERROR_INVALID_ARGUMENT when @size
 *   is not @dtype's storage bytes (the error names both sizes and the dtype)
 */
XrtTensor *xrt_tensor_new_host_for_dtype (const XirValue *dtype, const guint8 *data, gsize size, GError **error);

/**
 * xrt_tensor_new_from_bytes:
 * @dtype: the tensor's type (copied)
 * @bytes: the data, exactly @dtype's storage bytes
 * @error: return location for a #GError
 *
 * The vendor's Tensor(buffer, dtype): a host tensor holding a copy of @bytes.
 *
 * Returns: (transfer full): the tensor, or %NULL with XRT_ERROR_INVALID_ARGUMENT when the
 *   size of @bytes is not @dtype's storage bytes
 */
XrtTensor *xrt_tensor_new_from_bytes (const XirValue *dtype, GBytes *bytes, GError **error);

/**
 * xrt_tensor_ref:
 * @tensor: a tensor
 *
 * Takes a reference to @tensor.
 *
 * Returns: (transfer full): @tensor, with one more reference
 */
XrtTensor *xrt_tensor_ref (XrtTensor *tensor);

/**
 * xrt_tensor_unref:
 * @tensor: (nullable) (transfer full): a tensor
 *
 * Drops a reference; the last one releases the memory reference, the network and the type.
 */
void xrt_tensor_unref (XrtTensor *tensor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtTensor, xrt_tensor_unref)

/* ---- type and memory ------------------------------------------------------- */

/**
 * xrt_tensor_get_value:
 * @tensor: a tensor
 *
 * The tensor's type (the vendor's dtype()): its network's value, or its own standalone one.
 *
 * Returns: (transfer none): the type, valid while @tensor lives
 */
const XirValue *xrt_tensor_get_value (const XrtTensor *tensor);

/**
 * xrt_tensor_get_network:
 * @tensor: a tensor
 *
 * The network whose value is the tensor's type.
 *
 * Returns: (transfer none) (nullable): the network whose value is the tensor's type, or
 *   %NULL for a standalone type
 */
XirNetwork *xrt_tensor_get_network (const XrtTensor *tensor);

/**
 * xrt_tensor_get_shape:
 * @tensor: a tensor
 * @rank: (out): the number of dimensions
 *
 * The tensor's shape (its type's).
 *
 * Returns: (transfer none) (array length=rank): the shape, valid while @tensor lives
 */
const gint64 *xrt_tensor_get_shape (const XrtTensor *tensor, guint *rank);

/**
 * xrt_tensor_get_chunk:
 * @tensor: a tensor
 *
 * The memory chunk holding the tensor's bytes.
 *
 * Returns: (transfer none) (nullable): the memory chunk, or %NULL for a tensor without data
 */
XrtMemChunk *xrt_tensor_get_chunk (const XrtTensor *tensor);

/**
 * xrt_tensor_get_offset:
 * @tensor: a tensor
 *
 * Where the tensor's bytes begin in its chunk.
 *
 * Returns: where the bytes begin in the chunk (0 without data)
 */
guint64 xrt_tensor_get_offset (const XrtTensor *tensor);

/**
 * xrt_tensor_get_size:
 * @tensor: a tensor
 *
 * The tensor's size in bytes: its type's storage bytes.
 *
 * Returns: the storage bytes of the tensor's type (with or without data)
 */
guint64 xrt_tensor_get_size (const XrtTensor *tensor);

/**
 * xrt_tensor_has_data:
 * @tensor: a tensor
 *
 * Whether the tensor has memory (hasData()).
 *
 * Returns: whether the tensor has memory (the vendor's hasData())
 */
gboolean xrt_tensor_has_data (const XrtTensor *tensor);

/**
 * xrt_tensor_get_region:
 * @tensor: a tensor
 *
 * The region of the tensor's memory (memRegion()).
 *
 * Returns: (transfer none) (nullable): the region of the tensor's memory (memRegion()), or
 *   %NULL without data
 */
XrtMemRegion *xrt_tensor_get_region (const XrtTensor *tensor);

/**
 * xrt_tensor_is_on:
 * @tensor: a tensor
 * @region: a memory region
 *
 * Whether the tensor's memory is in @region (isOn()).
 *
 * Returns: whether the tensor's memory is in @region (isOn())
 */
gboolean xrt_tensor_is_on (const XrtTensor *tensor, XrtMemRegion *region);

/**
 * xrt_tensor_malloc_on:
 * @tensor: a tensor without data
 * @region: where to allocate
 * @error: return location for a #GError
 *
 * The vendor's mallocOn(): gives a tensor made without data fresh memory in @region. The
 * tensor stays not ready until written. Unlike the vendor, memory is never replaced (callers
 * may hold the chunk), so a tensor that has memory is refused.
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_INVALID_ARGUMENT (already has memory) or the
 *   region's allocation error
 */
gboolean xrt_tensor_malloc_on (XrtTensor *tensor, XrtMemRegion *region, GError **error);

/**
 * xrt_tensor_set_data:
 * @tensor: a tensor without data
 * @chunk: the memory holding its bytes
 * @offset: where they begin in @chunk
 * @error: return location for a #GError
 *
 * The vendor's setData(): the tensor's bytes are @chunk's at @offset, and it is ready. Memory
 * is set once: a tensor that has memory is refused.
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_OUT_OF_RANGE (does not fit) or
 *   XRT_ERROR_INVALID_ARGUMENT (already has memory)
 */
gboolean xrt_tensor_set_data (XrtTensor *tensor, XrtMemChunk *chunk, guint64 offset, GError **error);

/* ---- readiness --------------------------------------------------------------- */

/**
 * xrt_tensor_is_ready:
 * @tensor: a tensor
 *
 * Whether the tensor's bytes are valid (isReady()).
 *
 * Returns: whether the tensor's bytes are valid (isReady()): a tensor made with memory is; one
 *   made without data is not until written or set ready
 */
gboolean xrt_tensor_is_ready (const XrtTensor *tensor);

/**
 * xrt_tensor_set_ready:
 * @tensor: a tensor
 * @ready: the new state
 *
 * The vendor's setReady(); wakes the threads in xrt_tensor_wait_ready().
 */
void xrt_tensor_set_ready (XrtTensor *tensor, gboolean ready);

/**
 * xrt_tensor_wait_ready:
 * @tensor: a tensor
 * @timeout_ms: how long to wait at most, in ms
 * @error: return location for a #GError
 *
 * The vendor's waitForReady(): waits until the tensor is ready (another thread writes it or
 * sets it ready). As the vendor does, a timeout shorter than the device's wait time
 * (xrt_device_set_wait_time()) is raised to it for a tensor in device memory.
 *
 * Returns: %TRUE when ready, %FALSE with XRT_ERROR_TIMEOUT (naming the tensor, the time and
 *   whether it has memory) otherwise
 */
gboolean xrt_tensor_wait_ready (const XrtTensor *tensor, guint timeout_ms, GError **error);

/* ---- bytes --------------------------------------------------------------------- */

/**
 * xrt_tensor_read: (skip)
 * @tensor: a tensor with data
 * @dest: (out caller-allocates) (array length=size) (element-type guint8): where to copy the bytes
 * @size: the tensor's size (xrt_tensor_get_size())
 * @error: return location for a #GError
 *
 * Copies the tensor's bytes out, from whichever region holds them. Bindings, whose callers
 * cannot hand in a buffer of @size bytes, use xrt_tensor_get_bytes().
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_INVALID_ARGUMENT (wrong size, no data) or the
 *   chunk's error
 */
gboolean xrt_tensor_read (const XrtTensor *tensor, void *dest, gsize size, GError **error);

/**
 * xrt_tensor_write:
 * @tensor: a tensor with data
 * @src: (array length=size) (element-type guint8): the bytes
 * @size: the tensor's size (xrt_tensor_get_size())
 * @error: return location for a #GError
 *
 * Copies bytes in (the vendor's copyData()); the tensor is then ready.
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_INVALID_ARGUMENT (wrong size, no data) or the
 *   chunk's error
 */
gboolean xrt_tensor_write (XrtTensor *tensor, const void *src, gsize size, GError **error);

/**
 * xrt_tensor_dup_bytes: (skip)
 * @tensor: a tensor with data
 * @error: return location for a #GError
 *
 * A copy of the tensor's bytes in a new host buffer.
 *
 * Returns: (transfer full): a new host buffer (g_free()) with the tensor's bytes, or %NULL
 *   with @error set
 */
guint8 *xrt_tensor_dup_bytes (const XrtTensor *tensor, GError **error);

/**
 * xrt_tensor_get_bytes:
 * @tensor: a tensor with data
 * @error: return location for a #GError
 *
 * A copy of the tensor's bytes, from whichever region holds them (for bindings: Python's
 * bytes, numpy.frombuffer).
 *
 * Returns: (transfer full): the bytes, or %NULL with @error set
 */
GBytes *xrt_tensor_get_bytes (const XrtTensor *tensor, GError **error);

/**
 * xrt_tensor_get_host_data: (skip)
 * @tensor: a tensor
 * @size: (out) (optional): the tensor's size, 0 when %NULL is returned
 *
 * A zero-copy view of a host tensor's bytes (numpy interop through the C API): writes through
 * it change the tensor. Valid while the tensor lives.
 *
 * Returns: the bytes, or %NULL for a tensor without data or in device memory (ETM, OCM)
 */
gpointer xrt_tensor_get_host_data (const XrtTensor *tensor, gsize *size);
/**
 * xrt_tensor_get_host_address:
 * @tensor: a tensor
 *
 * The address of a host tensor's bytes as an integer, for bindings that view memory without
 * a copy (Python's numpy through ctypes); the view is valid while the tensor lives.
 *
 * Returns: the address, or 0 for a tensor whose bytes are not in host memory
 */
guintptr xrt_tensor_get_host_address (const XrtTensor *tensor);

/**
 * xrt_tensor_copy_from:
 * @tensor: the destination, with data
 * @dest_offset: where to write in @tensor's bytes
 * @src: the source tensor, with data (any region or device)
 * @src_offset: where to read in @src's bytes
 * @byte_size: how many bytes
 * @error: return location for a #GError
 *
 * The vendor's copyFrom(): copies bytes between tensors' memory. Both ranges must lie inside
 * their tensor's bytes. @tensor is then ready.
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_OUT_OF_RANGE naming both tensors, the offsets and
 *   the sizes, or XRT_ERROR_INVALID_ARGUMENT for a tensor without data
 */
gboolean xrt_tensor_copy_from (XrtTensor *tensor, guint64 dest_offset, const XrtTensor *src, guint64 src_offset,
                               guint64 byte_size, GError **error);

/**
 * xrt_tensor_fill_bytes:
 * @tensor: a tensor with data
 * @pattern: (array length=pattern_size) (element-type guint8): the bytes to repeat
 * @pattern_size: their number (> 0, dividing the tensor's size)
 * @error: return location for a #GError
 *
 * Fills the tensor with @pattern repeated (one byte, or one element's bytes); it is then ready.
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_INVALID_ARGUMENT naming the sizes
 */
gboolean xrt_tensor_fill_bytes (XrtTensor *tensor, const guint8 *pattern, gsize pattern_size, GError **error);

/**
 * xrt_tensor_fill_float:
 * @tensor: a tensor with data
 * @value: the value, as a float32
 * @error: return location for a #GError
 *
 * Sets every element to @value in the tensor's element type: a float type stores it, a
 * quantised type stores round(@value / scale) + zero point of each element's channel (half to
 * even, saturated), a plain integer the rounded value. The tensor is then ready.
 *
 * Returns: %TRUE, or %FALSE with XRT_ERROR_INVALID_ARGUMENT for an element type it cannot
 *   encode or scales that do not fit the shape
 */
gboolean xrt_tensor_fill_float (XrtTensor *tensor, double value, GError **error);

/* ---- derived tensors ------------------------------------------------------------- */

/**
 * xrt_tensor_reshape:
 * @tensor: a tensor
 * @shape: (array length=rank): the new shape
 * @rank: its length
 * @error: return location for a #GError
 *
 * The same bytes seen with another shape (same element type and storage bytes). The layout is
 * kept when it has @rank axes (and its blocks fit), else it becomes "*". A quantised type's
 * scale axis must still lie inside the new shape.
 *
 * Returns: (transfer full): a tensor sharing @tensor's bytes, or %NULL with @error set
 *   (XRT_ERROR_INVALID_ARGUMENT naming both shapes and both byte sizes)
 */
XrtTensor *xrt_tensor_reshape (XrtTensor *tensor, const gint64 *shape, guint rank, GError **error);

/**
 * xrt_tensor_with_dtype:
 * @tensor: a tensor
 * @dtype: the new type (copied), of the same storage bytes
 * @error: return location for a #GError
 *
 * The vendor's setDType(), as a new tensor: the same bytes seen as @dtype (another element
 * type, shape or scales). A new tensor rather than a change in place, because sessions and
 * callers share tensors and hold pointers to their type. A @dtype without a v_id takes
 * @tensor's.
 *
 * Returns: (transfer full): a tensor sharing @tensor's bytes, or %NULL with
 *   XRT_ERROR_INVALID_ARGUMENT naming both dtypes and their sizes
 */
XrtTensor *xrt_tensor_with_dtype (XrtTensor *tensor, const XirValue *dtype, GError **error);

/**
 * xrt_tensor_to:
 * @tensor: a tensor with data
 * @region: where the copy goes: the host region, or a device's ETM or OCM
 *   (xrt_device_get_mem_region())
 * @error: return location for a #GError
 *
 * The vendor's to(): a new tensor of the same type in a new chunk of @region holding a copy
 * of the bytes. As the vendor does, a tensor already in @region is returned itself.
 *
 * Returns: (transfer full): the tensor in @region, or %NULL with @error set (no data, or the
 *   region's allocation or copy error)
 */
XrtTensor *xrt_tensor_to (XrtTensor *tensor, XrtMemRegion *region, GError **error);

/**
 * xrt_tensor_clone:
 * @tensor: a tensor
 * @error: return location for a #GError
 *
 * A deep copy: the same type in a new chunk of the same region holding a copy of the bytes
 * (the vendor's clone() copies the handle; bindings want the data). A tensor without data
 * clones to a tensor without data.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 */
XrtTensor *xrt_tensor_clone (const XrtTensor *tensor, GError **error);

/* ---- quantised <-> float ------------------------------------------------------------ */

/**
 * xrt_tensor_dequantize:
 * @tensor: a tensor with data, in any region
 * @error: return location for a #GError
 *
 * The manual's Q→F: a float32 host tensor of the same shape and layout (a plain "@fp(32)"
 * type, same v_id). Quantised int 8/16/32 storage (QuantizedType, NormalizedQuantizedType)
 * becomes scale × (q - zero point) with the scale and zero point of each element's channel
 * along the quantisation axis (for a blocked layout such as NCHWc32 the channel is C × 32 + c);
 * an exponent scale counts as m×2^-e. Norm ratios are not applied (the result is in the
 * normalised domain the scales express). fp16/bf16/fp64 are converted, fp32 copied, plain
 * integers converted as they are.
 *
 * Returns: (transfer full): the float32 tensor, or %NULL with @error set (an element type it
 *   cannot convert, scales that do not fit the shape, no data)
 */
XrtTensor *xrt_tensor_dequantize (const XrtTensor *tensor, GError **error);

/**
 * xrt_tensor_quantize:
 * @tensor: a float tensor (fp32, fp16, bf16 or fp64) with data
 * @dtype: the result's type (copied; a v_id of -1 takes @tensor's), with as many elements
 * @error: return location for a #GError
 *
 * The inverse of xrt_tensor_dequantize(): a host tensor of @dtype holding @tensor's values. A
 * quantised @dtype stores round(x / scale) + zero point of each element's channel, rounding
 * half to even and saturating to the storage range (NaN becomes the zero point); a plain
 * integer dtype the rounded, saturated value; a float dtype the value (fp16 rounded to nearest
 * even through zw-half).
 *
 * Returns: (transfer full): the tensor, or %NULL with XRT_ERROR_INVALID_ARGUMENT naming the
 *   dtypes or both shapes
 */
XrtTensor *xrt_tensor_quantize (const XrtTensor *tensor, const XirValue *dtype, GError **error);

/**
 * xrt_tensor_to_half:
 * @tensor: a float tensor (fp32, bf16 or fp64) with data
 * @error: return location for a #GError
 *
 * A host tensor of the same shape and layout in "@fp(16)" (round to nearest even; overflow to
 * inf). xrt_tensor_dequantize() goes back to float32 exactly.
 *
 * Returns: (transfer full): the fp16 tensor, or %NULL with @error set
 */
XrtTensor *xrt_tensor_to_half (const XrtTensor *tensor, GError **error);

/* ---- the vendor's dump formats (xrt manual 2.6, Tensor::dump) ---------------- */

/**
 * xrt_tensor_dump:
 * @tensor: a tensor with data
 * @format: three letters (report/zw-dump.h): H/S layout, Q/F numbers, B/T binary or text;
 *   SFB SFT SQB SQT HQB HQT ("反之不可": HF* is refused, and Q of a float tensor); "" (the
 *   manual's default): the bytes in memory as they are
 * @error: return location for a #GError
 *
 * What Tensor::dump(os, format) writes: the same bytes as a {v_id}.ftmp file of
 * setDumpOutputs in that format.
 *
 * Returns: (transfer full): the bytes, or %NULL with @error naming the tensor and the format
 */
GBytes *xrt_tensor_dump (const XrtTensor *tensor, const char *format, GError **error);

/**
 * xrt_tensor_convert:
 * @tensor: a tensor with data
 * @format: a binary format: SFB, SQB, HQB
 * @error: return location for a #GError
 *
 * A host tensor holding xrt_tensor_dump()'s bytes, typed as they are: S turns a blocked
 * hardware layout (NCHWc32 …) into NHWC without the padding channels (their scales dropped
 * with them), F turns quantised integers into float32 with the scales. HQB is a copy.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error (a text format, or as for
 *   xrt_tensor_dump())
 */
XrtTensor *xrt_tensor_convert (const XrtTensor *tensor, const char *format, GError **error);

G_END_DECLS
