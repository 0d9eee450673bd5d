/* zg330-hardop-private.h — what the kinds' files share: the feature-map geometry of a value,
 * the arity check and the zero-copy tests of their describers, and 64-byte aligned operand
 * bytes for the runs (zg330-hardop-operand.c). */
#pragma once

#include "devices/hardops/zg330-hardop-class.h"

G_BEGIN_DECLS

/* Logical N, C, H, W and channel block (0 for NHWC) of a feature value in NCHWcK (also
 * *C**cK) or NHWC; an error naming the op and the value otherwise. */
gboolean zg330_hardop_value_dims (const XirOp *op, const XirValue *v, guint *n, guint *c, guint *h, guint *w,
                                  guint *k, GError **error);

/* @op has @n_in inputs (G_MAXUINT: any), @n_out outputs and @n_params params (G_MAXUINT: any). */
gboolean zg330_hardop_expect_arity (const XirOp *op, guint n_in, guint n_out, guint n_params, GError **error);

/* @inner lies inside @outer's bytes of the same compiler chunk. */
gboolean zg330_hardop_same_chunk_inside (const XirValue *inner, const XirValue *outer);

/* A Buyi compile places values at addresses (@etm(a) / @ocm(a)) instead of chunks: @inner
 * sits, in the same memory, exactly @offset bytes into @outer. */
gboolean zg330_hardop_same_address_at (const XirValue *inner, const XirValue *outer, guint64 offset);

/* Bytes on a cache line (64 bytes), as a region's own are (OCM): the kernels' 32- and
 * 64-byte vector accesses at block offsets then never split a line.  NULL when the host has
 * no room; freed with zg330_hardop_bytes_free. */
guint8 *zg330_hardop_bytes_alloc (gsize size, gboolean zero);
void    zg330_hardop_bytes_free  (gpointer p);

G_END_DECLS
