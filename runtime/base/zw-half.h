/* zw-half.h — IEEE 754 half precision (fp16) <-> float, for every layer that reads the
 * vendor's fp16 values: the kernels, dumps, tensor statistics and views. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* zw_fp16_to_float is exact (subnormals, inf, NaN kept); zw_float_to_fp16 rounds to nearest
 * even, overflows to inf, keeps NaN a NaN. */
float   zw_fp16_to_float (guint16 h);
guint16 zw_float_to_fp16 (float f);

/* Arrays: @src holds @n little-endian halves at any alignment. */
void zw_fp16_array_to_float (const guint8 *src, gsize n, float *dst);
void zw_float_array_to_fp16 (const float *src, gsize n, guint8 *dst);

G_END_DECLS
