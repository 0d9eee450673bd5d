/* zw-test-kernel-ref.h — what the kernels tests (test-kernels*.c) share: test tensors and
 * weights, and the naive reference conv they are held to.
 *
 * Every reference works on logical NHWC integers read through the layout formula of
 * zg330-kernels.h, written independently of the kernels' own addressing, and uses the C
 * library's round() (half away from zero) for requantisation.  Tensors are filled with
 * 0xAA in their padding bytes, so a kernel that reads padding channels gets caught. */
#pragma once

#include "kernels/zg330-kernels.h"

/* A kernel tensor with its own bytes and per-channel scales. */
typedef struct {
  Zg330KernelTensor t;
  float *scales;
} TT;

/* The byte offset of logical element (n, c, h, w) in @t's layout. */
gsize ref_offset (const Zg330KernelTensor *t, guint n, guint c, guint h, guint w);
/* A tensor of that shape, every byte 0xAA; every channel's scale @scale (none when 0). */
TT *tt_new (Zg330KernelLayout layout, Zg330KernelDType dtype, guint n, guint c, guint h,
            guint w, guint k, float scale);
void tt_free (TT *tt);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TT, tt_free)
gint tt_get (const TT *tt, guint n, guint c, guint h, guint w);
void tt_set (TT *tt, guint n, guint c, guint h, guint w, gint v);
/* Random bytes in every element (not in the padding). */
void tt_fill (TT *tt, GRand *rand);
/* Padding channels of a partial last block must read 0 in every output. */
void assert_padding_zero (const TT *tt);
/* @v rounded half away from zero and clamped to @d's range. */
gint ref_round (double v, Zg330KernelDType d);
/* Selects the conv loops of @mode: 0 plain C, 1 the plain loops at their best (the AVX2
 * tile where the CPU has AVX2), 2 AVX-512 VNNI; FALSE where this CPU has no such mode. */
gboolean use_mode (guint mode);

/* Conv weights [ob][ib][kh][kw][ko][ki] of random bytes (padding entries too: they must be
 * ignored), random scales and fp16 biases. */
typedef struct {
  guint ob, ib, kh, kw, ko, ki;
  gint8 *data;
  gsize size;
  float *scales;
  guint8 *bias;
  Zg330KernelWeights w;
} TW;

TW *tw_new (guint ob, guint ib, guint kh, guint kw, guint ko, guint ki, GRand *rand);
void tw_free (TW *tw);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TW, tw_free)

/* The naive conv of @in by @tw (strides, top and left padding, groups) into @expect, one
 * int per element of @out in NHWC order, requantised to @out's scales and type. */
void ref_conv (const TT *in, const TW *tw, guint sh, guint sw, guint pt, guint pl, guint groups,
               const TT *out, gint *expect);

/* The areas, each in test-kernels-AREA.c, registered in this order by test-kernels.c. */
void test_kernels_add_fp16 (void);
void test_kernels_add_geometry (void);
void test_kernels_add_conv (void);
void test_kernels_add_conv_requant (void);
void test_kernels_add_add (void);
void test_kernels_add_layout (void);
void test_kernels_add_maxpool (void);
void test_kernels_add_tensor (void);

/* Run again by the conv's thread-count test over 3 threads. */
void test_add_large_flat (void);
void test_maxpool_random (void);
