/* zg330-kernels.h: behavioural models of the ZG330 hardops.
 *
 * The vendor's instruction words are opaque, so the simulated board executes every
 * hardop of a network by one of these models.  They are pure functions over host byte
 * buffers: the caller (the simulator) reads the operands out of its ETM/OCM stores,
 * calls a kernel, and writes the result back.  No kernel keeps state between calls
 * except the shared worker pool (see zg330_kernel_set_threads()) and conv's packed
 * weights, kept by their bytes (a call with other bytes packs again: the weights are read
 * from the board's memory at every launch, only their packing is reused).
 *
 * Layouts (vendor names, see the xir manual section "Layout"):
 *   NHWC      plain; byte of (n,c,h,w) at ((n*H + h)*W + w)*C + c.
 *   NCHWcK    shape [N, CB, H, W, K], CB = ceil(C/K); byte of (n,c,h,w) at
 *             ((((n*CB + c/K)*H + h)*W + w)*K + c%K.  "*C**c3" is the same byte order.
 *             When C is not a multiple of K the last block has padding channels;
 *             every kernel writes 0 into an output's padding bytes, and never reads an
 *             input's padding bytes.
 *   weights   OIHWoKoiKi, shape [OB, IB, KH, KW, Ko, Ki]: element (o,i,kh,kw) at
 *             [o/Ko][i/Ki][kh][kw][o%Ko][i%Ki], int8, one float scale per output channel.
 *   bias      OoK, shape [OB, Ko], IEEE half precision, little-endian.
 *
 * Quantisation: value = q * scale, per channel (no zero points: the vendor's files
 * carry none).  Every requantisation in this file uses ONE rounding rule, computed in
 * IEEE double precision without fused multiply-add:
 *
 *   round_half_away(v) = trunc(v) + (frac >= 0.5) - (frac <= -0.5), frac = v - trunc(v)
 *
 * followed by a clamp to the output element range ([-128,127] for sint8, [0,255] for
 * uint8).  Ratios are formed as (double) s_a / (double) s_b; products as stated per
 * kernel.  The results are therefore deterministic and identical for any number of
 * worker threads (each output element is computed by exactly one thread with a fixed
 * order of operations; integer accumulation is exact).
 *
 * Errors: every kernel validates its operands and returns FALSE with an error in
 * ZG330_KERNEL_ERROR whose message names the kernel, the field and the sizes
 * ("conv2d: weight I*groups=64 != input C=32").  Kernels do not know op ids; callers
 * prefix them with g_prefix_error().  On error nothing is guaranteed about the output
 * buffer's content but nothing outside it is written.
 *
 * Aliasing: an output may share bytes with an input only where every element maps to
 * the same address in both (the vendor's in-place concat of "fake" values living inside
 * the output, or a reshape onto the same chunk), except for conv, which copies its input
 * before writing and so tolerates any overlap.  Otherwise buffers must not overlap.
 *
 * Threads: conv splits its work over a shared GThreadPool (created on first use, never
 * destroyed); the other kernels run on the caller's thread.  All kernels may be called
 * from several threads at once.
 */
#pragma once

#include <glib.h>

#include "base/zw-half.h"

G_BEGIN_DECLS

#define ZG330_KERNEL_ERROR (zg330_kernel_error_quark ())
GQuark zg330_kernel_error_quark (void);

/**
 * Zg330KernelError:
 * @ZG330_KERNEL_ERROR_INVALID: a descriptor is malformed (zero dims, K == 0, missing or
 *   non-positive scale, buffer smaller than the shape needs, unsupported element type).
 * @ZG330_KERNEL_ERROR_SHAPE: operands do not fit each other (channel counts, weight vs
 *   input channels, output size vs geometry, byte sizes of a reshape).
 * @ZG330_KERNEL_ERROR_GEOMETRY: no stride/padding explains a pair of shapes.
 */
typedef enum {
  ZG330_KERNEL_ERROR_INVALID,
  ZG330_KERNEL_ERROR_SHAPE,
  ZG330_KERNEL_ERROR_GEOMETRY,
} Zg330KernelError;

typedef enum {
  ZG330_KERNEL_LAYOUT_NHWC,
  ZG330_KERNEL_LAYOUT_NCHWC,   /* NCHWcK, K = Zg330KernelTensor.k */
} Zg330KernelLayout;

typedef enum {
  ZG330_KERNEL_DTYPE_SINT8,
  ZG330_KERNEL_DTYPE_UINT8,
  ZG330_KERNEL_DTYPE_FP32,     /* only for the layout/dequantise helpers */
} Zg330KernelDType;

/**
 * Zg330KernelTensor:
 * A feature map: descriptor plus the caller's buffer.  The kernels never take
 * ownership of anything it points to and never write through an input's @data.
 * @scales: @c floats (value = q * scale[c]) or NULL, meaning scale 1 for every channel
 *   (an unquantised uint8 image).  Scales must be finite and > 0.
 * @size: bytes available at @data; must be >= zg330_kernel_tensor_get_size().
 */
typedef struct {
  Zg330KernelLayout layout;
  Zg330KernelDType  dtype;
  guint n, c, h, w;
  guint k;                 /* channel block of NCHWcK; ignored for NHWC */
  const float *scales;
  gpointer data;
  gsize size;
} Zg330KernelTensor;

/**
 * Zg330KernelWeights:
 * Conv weights in OIHWoKoiKi with their per-output-channel scales and fp16 bias.
 * @ob, @ib, @kh, @kw, @ko, @ki: the six dims of the weight shape.
 *   O = ob*ko output channels, I = ib*ki input channels per group.
 * @data: ob*ib*kh*kw*ko*ki int8 (size in @size).
 * @scales: O floats, > 0.
 * @bias: O little-endian IEEE halves (any alignment: the vendor's chunks put biases at odd
 *   offsets), @bias_size bytes; NULL for no bias.
 */
typedef struct {
  guint ob, ib, kh, kw, ko, ki;
  const gint8 *data;
  gsize size;
  const float *scales;
  const guint8 *bias;
  gsize bias_size;
} Zg330KernelWeights;

/**
 * Zg330ConvParams:
 * Stride and the top/left padding; the bottom/right padding is whatever the output size
 * needs and must not exceed the top/left one (PyTorch symmetric padding, or the
 * pad_top = ceil(total/2) split of zg330_conv_infer_geometry()).  Padding reads as 0.
 */
typedef struct {
  guint stride_h, stride_w;
  guint pad_top, pad_left;
} Zg330ConvParams;

/**
 * Zg330PoolParams:
 * Max-pool window, stride and top/left padding (same rule for bottom/right as conv).
 */
typedef struct {
  guint kernel_h, kernel_w;
  guint stride_h, stride_w;
  guint pad_top, pad_left;
} Zg330PoolParams;

/* zg330_kernel_tensor_get_size:
 * Bytes a tensor with this descriptor occupies (NCHWcK counts the padded last block;
 * FP32 counts 4 bytes per element).  0 for a malformed descriptor. */
gsize zg330_kernel_tensor_get_size (const Zg330KernelTensor *t);

/* zg330_kernel_set_threads:
 * Number of threads the kernels use (the caller's thread included); 0 = one per
 * processor (the default).  Results never depend on it.  May be called at any time;
 * it affects kernels started afterwards. */
void  zg330_kernel_set_threads (guint n_threads);
guint zg330_kernel_get_threads (void);

/* zg330_kernel_set_parallel_min_ns:
 * For tests and benchmarks: a kernel whose estimated work is below @ns nanoseconds of one
 * core runs on the calling thread alone (waking threads costs more than a small layer
 * takes); 0 spreads every kernel over the threads, a negative value restores the default
 * (150 us).  Results never depend on it. */
void  zg330_kernel_set_parallel_min_ns (gint ns);

/* zg330_kernel_get_helper_cpu_ns:
 * For benchmarks: CPU nanoseconds the kernels' helper threads have spent on work since
 * the process started, each helper timing itself (its own thread clock is exact, where
 * the process clock counts a helper's last stretch only once the helper sleeps).  With
 * the calling thread's own CPU time it gives a kernel's exact CPU cost.  0 where the
 * system has no thread CPU clock. */
guint64 zg330_kernel_get_helper_cpu_ns (void);

/* zg330_kernel_get_isa:
 * Name of the conv inner loops this process uses: "avx512-vnni", "avx2" (AVX2 with FMA:
 * vpmaddwd tiles, the float bracket's fma) or "generic" (plain C).  Static string. */
const char *zg330_kernel_get_isa (void);

/* zg330_kernel_set_generic_only:
 * For tests and benchmarks: when TRUE, the conv uses its plain loops (with AVX2 where it
 * exists) even where AVX-512 VNNI exists (the results are identical by construction;
 * tests prove it). */
void zg330_kernel_set_generic_only (gboolean generic_only);

/* zg330_kernel_set_plain_only:
 * For tests: when TRUE, the conv uses its plain C loops, without AVX-512 or AVX2. */
void zg330_kernel_set_plain_only (gboolean plain_only);

/* zg330_conv_infer_geometry:
 * Infers stride and top/left padding of a conv (or pool) from its shapes, per dimension:
 * the smallest stride s for which some total padding P >= 0 gives
 * out = floor((in + P - k) / s) + 1; among those P the smallest even one (the PyTorch
 * symmetric case) else the smallest; pad = ceil(P / 2), which must be <= k / 2.
 * Returns FALSE with ZG330_KERNEL_ERROR_GEOMETRY naming the shapes when nothing fits. */
gboolean zg330_conv_infer_geometry (guint in_h, guint in_w, guint out_h, guint out_w,
                                    guint kh, guint kw,
                                    guint *stride_h, guint *stride_w,
                                    guint *pad_top, guint *pad_left,
                                    GError **error);

/* zg330_kernel_conv2d:
 * y[o] = clamp(round_half_away((double) acc[o] * m[o] + b[o]))
 *   acc[o] = sum over taps and input channels of q_in * q_w (exact, int32)
 *   m[o]   = ((double) s_in * (double) s_w[o]) / (double) s_out[o]
 *   b[o]   = (double) bias_fp16[o] / (double) s_out[o]   (0 without bias)
 * No activation: the vendor's JSON does not say which activation (if any) the hardware
 * fused into a conv hardop, so the model applies none.
 * Kernel size from the weights; groups = in.c / I (groups == 1 when in.c <= I: the extra
 * weight input channels are padding and must stay inside the same number of Ki blocks);
 * depthwise when I == 1 and groups == in.c.  With groups > 1, out.c must equal O and be
 * a multiple of groups; with groups == 1, out.c <= O within the same number of Ko blocks.
 * Input sint8 or uint8 (an image), uniform scale over channels; output sint8 or uint8.
 * Any layout for in and out.  Work is split across the shared pool. */
gboolean zg330_kernel_conv2d (const Zg330KernelTensor  *in,
                              const Zg330KernelWeights *weights,
                              const Zg330ConvParams    *params,
                              const Zg330KernelTensor  *out,
                              GError                  **error);

/* zg330_kernel_add:
 * y = clamp(round_half_away((double) a * ra[c] + (double) b * rb[c])),
 * ra[c] = (double) s_a[c] / s_out[c], rb likewise.  Same n, c, h, w everywhere. */
gboolean zg330_kernel_add (const Zg330KernelTensor *a,
                           const Zg330KernelTensor *b,
                           const Zg330KernelTensor *out,
                           GError                 **error);

/* zg330_kernel_concat:
 * Concatenates @n_inputs tensors along channels (out.c = sum of in.c; same n, h, w).
 * An input whose scales equal the output's over its channels, with the same element
 * type, is copied byte for byte (whole K blocks when aligned); otherwise it is
 * requantised: y = clamp(round_half_away((double) x * ((double) s_in / s_out))). */
gboolean zg330_kernel_concat (const Zg330KernelTensor *const *inputs,
                              guint                     n_inputs,
                              const Zg330KernelTensor  *out,
                              GError                  **error);

/* zg330_kernel_maxpool2d:
 * Max over the window of the valid (non-padding) positions: padding never wins.
 * Requantised like concat when the output's scales differ.  Output size must equal
 * floor((in + 2*pad - k) / stride) + 1 or any size the top/left padding rule allows. */
gboolean zg330_kernel_maxpool2d (const Zg330KernelTensor *in,
                                 const Zg330PoolParams   *params,
                                 const Zg330KernelTensor *out,
                                 GError                 **error);

/* zg330_kernel_upsample_nearest:
 * out(h, w) = in(h / factor_h, w / factor_w); out.h == in.h * factor_h (same for w).
 * Requantised like concat when scales differ. */
gboolean zg330_kernel_upsample_nearest (const Zg330KernelTensor *in,
                                        guint                    factor_h,
                                        guint                    factor_w,
                                        const Zg330KernelTensor *out,
                                        GError                 **error);

/* zg330_kernel_reshape:
 * Byte copy: the vendor's reshapes only reinterpret a buffer (NHWC [1,H,W,3] to
 * *C**c3 [1,1,H,W,3]).  Both descriptors must describe the same number of bytes and the
 * same element type. */
gboolean zg330_kernel_reshape (const Zg330KernelTensor *in,
                               const Zg330KernelTensor *out,
                               GError                 **error);

/* zg330_kernel_cast:
 * y = clamp(round_half_away((double) x * ((double) s_in / (double) s_out))), s_in = 1
 * when in.scales is NULL (uint8 image -> sint8: y = round(x / s_out)).  Same n,c,h,w;
 * any layouts, sint8/uint8 both sides. */
gboolean zg330_kernel_cast (const Zg330KernelTensor *in,
                            const Zg330KernelTensor *out,
                            GError                 **error);

/* zg330_kernel_relayout:
 * Copies the elements of @in into @out, same dtype and n,c,h,w, converting between
 * layouts (NHWC <-> NCHWcK, or K -> K'): the pack/unpack helper for int8 and float.
 * Scales are ignored. */
gboolean zg330_kernel_relayout (const Zg330KernelTensor *in,
                                const Zg330KernelTensor *out,
                                GError                 **error);

/* zg330_kernel_dequantize:
 * out (FP32, any layout, usually NHWC) = q * scale[c] computed in float
 * ((float) q * scale[c]).  @in is sint8/uint8; scales NULL means 1. */
gboolean zg330_kernel_dequantize (const Zg330KernelTensor *in,
                                  const Zg330KernelTensor *out,
                                  GError                 **error);

/* IEEE half <-> float: base/zw-half.h (the dumps and views use them too). */

G_END_DECLS
