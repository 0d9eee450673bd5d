/* host-ops.h — the ops a HostBackend runs on the CPU, as pure functions on host buffers.
 *
 * Every function reads its operands from caller-owned byte buffers laid out as the op's
 * XirValues say (shape, layout, element type, per-channel scales, storage_bytes) and
 * writes its results into caller-owned buffers of the outputs' storage_bytes.  Nothing
 * is kept between calls; all functions may be called from several threads at once.
 * Buffers of inputs and outputs must not overlap.
 *
 * Ops:
 *   icraft::xir::Input    copy the user's tensor into the value (byte size checked)
 *   icraft::xir::Output   copy each result to a user buffer (or nothing)
 *   icraft::xir::Cast     int8/uint8 rescale (the kernels' rule), float -> int8 quantise,
 *                         int8 -> float dequantise, fp16 <-> fp32
 *   icraft::xir::Resize   nearest / bilinear on NHWC uint8, sint8, fp16 or fp32
 *   customop::DetPostZG   behavioural model of the board's detection post-processing IP
 *   customop::DetPost     the same IP on a Buyi board (same model, see below)
 *   customop::ImageMake   behavioural model of the Buyi board's image pre-processing IP
 *
 * Rounding: every float -> integer conversion uses the kernels' rule (zg330-kernels.h),
 * round half away from zero in double precision, then a clamp to the element range.
 *
 * ---- customop::DetPostZG: what is modelled and why --------------------------------
 *
 * The vendor's op (compile target @fpgat) drives a post-processing IP next to the NPU.
 * Its register programming is public in the vendor's bare-metal runtime (icraft_detpost.c:
 * registers chn_1st-1, valid_chn-1, cmp_chn-1, cmp_mask0/1, data_thr[group], and the
 * record size), and the vendor's model-zoo post-processing (post_detpost_hard) shows how
 * the host reads the result.  Together they fix the model implemented here:
 *
 *  - Groups: layer_en = 1 -> one input feature map per group, 3 -> two, otherwise three;
 *    group g has output g and threshold data_thr[g].  Inputs are sint8 NCHWcK heads
 *    (the real yolov5s: NCHWc32, 384 channels = 3 anchors x 128).
 *  - Channels per anchor: chn_1st (chn_2nd, chn_3rd for the 2nd/3rd map of a group) count
 *    64-channel units; anchor a of map f starts at channel a * chn_f * 64.
 *  - One record ("anchor box") per anchor and cell that passes: the first chn_f * 64
 *    channels of every map of the group but the last, then (chn_last - 1) * 64 +
 *    valid_chn * 8 channels of the last map, then, when cmp_en, an 8-byte trailer.
 *    Record bytes = ((chn_1st - 1) * 8 + valid_chn + cmp_en) * 8 for layer_en 1, which
 *    for the real yolov5s gives 64 + 24 + 8 = 96 bytes (88 channels >= 85 = 4 box +
 *    obj + 80 classes) — the vendor's own sample comment "[1,1,133,96]" matches.
 *  - Trailer (little endian): bytes 0-1 zero (not documented; the host never reads them),
 *    2-3 cell x (uint16), 4-5 cell y, 6-7 anchor index — the offsets the model zoo reads
 *    (anchor_length-6 .. anchor_length-1).
 *  - Compare: the 64-channel unit cmp_chn - 1 of the record's channels (counted over the
 *    maps of the group, as the record lays them out) is compared; channel i of that unit
 *    takes part when bit i of the 64-bit mask (cmp_mask1 << 32 | cmp_mask0) is CLEAR.
 *    The real masks (-17, -1) clear bit 4 only: channel 4, yolov5's objectness.  A box
 *    passes when ANY compared channel q satisfies q >= data_thr[g] (assumed: with one
 *    compared channel "any" and "all" agree).  ">=" because the real thresholds are
 *    ceil(logit(thr_f) / scale_g): -15, -18, -19 for thr_f = 0.1 and the heads' scales
 *    0.1454807, 0.12047681, 0.110699855, so q >= data_thr  <=>  sigmoid(q * s) >= thr_f.
 *    cmp_en = 0: no compare and no trailer, every box is written (assumed).
 *  - Order: cells in raster order (y, then x), anchors in order within a cell (assumed:
 *    the IP streams the map row by row).
 *  - Output g: the records packed from byte 0, the rest of the output buffer zeroed.  The
 *    compiler sizes the output for every box ([1,H,W,anchor_num*128] int8 on the host);
 *    the vendor's runtime then presents it as [1, 1, n_boxes, record_bytes] (the model zoo
 *    reads shape[2] as the box count and shape[3] as the record length), so the Session
 *    should do the same with the counts host_detpost_zg_run() returns.
 *  - Scales: the outputs carry scale 1 (a placeholder); the data keeps the heads' int8
 *    values, so decoding uses each group's input scales.
 *  - Not modelled: sint16 heads (the IP supports them; no sample), reg_base/sleep_time
 *    (hardware addresses and pacing), the IP's time (the timing model's business).
 *
 * ---- customop::DetPost (Buyi) ----------------------------------------------------
 *
 * The Buyi compile of yolov5s has a customop::DetPost with exactly DetPostZG's attributes
 * and values (layer_en 1, anchor_num 3, chn_1st 2, valid_chn 3, cmp_en 1, cmp_chn 1,
 * cmp_mask0 -17, cmp_mask1 -1, data_thr [-15, -18, -19], thr_f 0.1), the same three
 * NCHWc32 heads of 384 channels and the same NHWC [1, H, W, 384] host outputs, so it runs
 * on the same model (host_detpost_zg_*).  Where the formats differ — the heads are
 * NormalizedQuantizedType — a channel's scale is normratio x exponent scale (the heads'
 * norm ratios 0.14566712, 0.121153094, 0.11045759 are within 0.4 % of the ZG330 compile's
 * scales, and the same data_thr follow from them), which decoding uses.
 *
 * ---- customop::ImageMake (Buyi): what is modelled and why --------------------------
 *
 * The vendor's op (compile target @fpgat) feeds the camera/host image through an IP that
 * normalises it and writes the NPU's first feature map to ETM.  Its attributes in the
 * real Buyi compile: input_bits 8, input_port 0, no_imkpad true, one_fast false,
 * pad_size [0, 0, 0, 0], pre_mean_data [-128, -128, -128], pre_nop false,
 * pre_scale_data [1.007874, …] (= 128/127), reg_base 0, sleep_time 0; the network tag
 * bgr_order true.  Input: uint8 NHWC [1, H, W, 3] on the host; output: sint8 NCHWc4
 * [1, 1, H, W, 4] (normratio 1, scale 1/0/1).  The model:
 *
 *    q[c] = clamp(round_half_away(((double) x[src(c)] + pre_mean_data[c])
 *                                 / pre_scale_data[c] / s_out[c]))       c < 3
 *
 *  - pre_mean_data is ADDED and pre_scale_data DIVIDES (assumed; no public source states
 *    the IP's formula).  Why: with the real figures this maps [0, 255] onto [-127, 126]
 *    exactly, 128/127 being the step that fits 128 levels below zero into int8; the
 *    opposite readings saturate most pixels.  The ZG330 compile of the same model does the
 *    same with a Cast of scale 2.007629 = 255/127 (a divisor too).
 *  - s_out[c] = normratio x exponent scale of the output (1 in the real file).
 *  - pre_nop true: no mean and scale (q = x / s_out, clamped; assumed).
 *  - bgr_order (the op's attribute, else the network's tag, else false): when true and the
 *    image has 3 channels, output channel c takes input channel 2 - c (assumed: the
 *    board is fed OpenCV's BGR images and the model wants RGB, or the reverse; either
 *    way the IP swaps R and B).
 *  - Channels past the image's (the 4th of NCHWc4) are 0.
 *  - pad_size [top, bottom, left, right] (assumed order) applies only when no_imkpad is
 *    false; padding pixels are 0 (the normalised zero).  The output's H and W must equal
 *    the image's plus the padding.
 *  - input_bits other than 8, one_fast, input_port, reg_base and sleep_time (hardware
 *    addresses and pacing) are not modelled.
 *
 * Errors: HOST_OP_ERROR; messages name the op id and the field ("op 447 (DetPostZG):
 * attribute data_thr: 2 thresholds for 3 groups").
 */
#pragma once

#include <glib.h>

#include "xir/xir-network.h"

G_BEGIN_DECLS

#define HOST_OP_ERROR (host_op_error_quark ())
GQuark host_op_error_quark (void);

/**
 * HostOpError:
 * @HOST_OP_ERROR_UNSUPPORTED: the op type (or a combination of types) has no host model
 * @HOST_OP_ERROR_TYPE: an operand's shape, layout or element type does not fit the op
 * @HOST_OP_ERROR_SIZE: a user buffer's byte size does not match its value
 * @HOST_OP_ERROR_ATTR: an attribute is missing or out of range
 * @HOST_OP_ERROR_CAPACITY: DetPostZG: the passing boxes do not fit the output buffer
 */
typedef enum {
  HOST_OP_ERROR_UNSUPPORTED,
  HOST_OP_ERROR_TYPE,
  HOST_OP_ERROR_SIZE,
  HOST_OP_ERROR_ATTR,
  HOST_OP_ERROR_CAPACITY,
} HostOpError;

/**
 * host_op_supported:
 *
 * TRUE when host_op_run() has a model for @op's type (it may still reject the operand
 * types at run time).
 */
gboolean host_op_supported (const XirOp *op);

/**
 * host_op_run:
 *
 * Runs @op.  @inputs has op->inputs->len buffers of each input's storage_bytes, @outputs
 * op->outputs->len buffers of each output's storage_bytes, except:
 *   Input:  @inputs has op->outputs->len buffers, the user's tensors, assumed to be of
 *           the outputs' storage_bytes (use host_op_input_copy() to check a size).
 *   Output: @outputs is NULL (nothing to do) or op->inputs->len user buffers of the
 *           inputs' storage_bytes, which receive copies.
 *   DetPostZG: the box counts are dropped; call host_detpost_zg_run() to get them.
 */
gboolean host_op_run (const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                      GError **error);

/**
 * host_op_input_copy:
 *
 * Input op: copies the user's tensor @data (@size bytes) into @output, the buffer of
 * output @index.  Fails with HOST_OP_ERROR_SIZE when @size is not that value's
 * storage_bytes.
 */
gboolean host_op_input_copy (const XirOp *op, guint index, const guint8 *data, gsize size,
                             guint8 *output, GError **error);

/**
 * host_op_cast:
 *
 * y = x rescaled from @in's element type to @out's, element by element, over the same
 * logical [N, C, H, W] in any of NHWC / NCHWcK / *C**cK layouts:
 *   int8/uint8 -> int8/uint8: zg330_kernel_cast() (y = round(x * s_in / s_out); an
 *       unquantised integer type has scale 1)
 *   fp32/fp16 -> int8/uint8:  y = round((double) x / (double) s_out[c])
 *   int8/uint8 -> fp32/fp16:  y = (float) x * s_in[c]   (the kernels' dequantise)
 *   fp32 <-> fp16:            IEEE conversion (round to nearest even)
 * Padding channels of an NCHWcK output are written 0.
 */
gboolean host_op_cast (const XirOp *op, const XirValue *in, const guint8 *in_data,
                       const XirValue *out, guint8 *out_data, GError **error);

typedef enum {
  HOST_RESIZE_NEAREST,   /* src = floor(dst * in / out) */
  HOST_RESIZE_BILINEAR,  /* half-pixel centres, or corners aligned */
} HostResizeMode;

/**
 * host_resize_mode_from_op:
 *
 * The interpolation of a Resize op: attribute "mode", "method", "interpolation" or
 * "interp" (a string containing "near" or "linear", or an integer 0 = nearest,
 * 1 = bilinear), and "align_corners"/"align_corner" (bool or integer).  Without an
 * attribute: nearest, corners not aligned.  Unknown text is an error naming the key.
 */
gboolean host_resize_mode_from_op (const XirOp *op, HostResizeMode *mode,
                                   gboolean *align_corners, GError **error);

/**
 * host_op_resize:
 *
 * Resizes an NHWC tensor to @out's H and W (same N, C and element type: uint8, sint8
 * with equal scales, fp16 or fp32).  Nearest: src = min(floor(dst * in / out), in - 1).
 * Bilinear: src = (dst + 0.5) * in / out - 0.5 clamped at 0 (align_corners: dst *
 * (in - 1) / (out - 1)), weights in double, integers rounded with the kernels' rule.
 */
gboolean host_op_resize (const XirOp *op, const XirValue *in, const guint8 *in_data,
                         const XirValue *out, guint8 *out_data, HostResizeMode mode,
                         gboolean align_corners, GError **error);

/* ---- customop::ImageMake (see the top of this file) ----------------------------- */

#define HOST_IMAGEMAKE_MAX_CHANNELS 16

/* The attributes of one ImageMake op and what they imply.  @pad: top, bottom, left,
 * right (all 0 when no_imkpad). */
typedef struct {
  gint input_bits;
  gboolean no_imkpad, pre_nop, bgr_order;
  guint pad[4];
  double mean[HOST_IMAGEMAKE_MAX_CHANNELS];
  double scale[HOST_IMAGEMAKE_MAX_CHANNELS];
  guint in_channels, out_channels;
} HostImageMakeConfig;

/**
 * host_image_make_config_init:
 *
 * Reads and checks @op's attributes and operand types; @network_tags (nullable, the
 * network's "tags") supplies bgr_order when the op has none.  Nothing to clear.
 */
gboolean host_image_make_config_init (HostImageMakeConfig *cfg, const XirOp *op, const cJSON *network_tags,
                                      GError **error);

/**
 * host_image_make_run:
 *
 * Runs the IP model on @input (the image, the input's storage_bytes) into @output (the
 * output's storage_bytes).  host_op_run() calls it without network tags: a HostBackend
 * that has the network should call it with xir_network_get_tags() so that bgr_order is
 * the network's.
 */
gboolean host_image_make_run (const XirOp *op, const cJSON *network_tags, const guint8 *input, guint8 *output,
                              GError **error);

/* ---- customop::DetPostZG / DetPost (see the top of this file) --------------------- */

/**
 * host_detpost_is:
 *
 * TRUE for customop::DetPostZG and customop::DetPost (the Buyi board's, same model).
 */
gboolean host_detpost_is (const XirOp *op);

#define HOST_DETPOST_MAX_MAPS 3

/* The attributes of one DetPostZG op and what they imply. */
typedef struct {
  gint layer_en, anchor_num, cmp_chn, cmp_en, valid_chn;
  gint chn[HOST_DETPOST_MAX_MAPS];   /* chn_1st, chn_2nd, chn_3rd */
  guint64 cmp_mask;                  /* (cmp_mask1 << 32) | cmp_mask0, bit clear = compared */
  gint *data_thr;                    /* one per group */
  guint n_data_thr;
  double thr_f;
  guint maps_per_group;              /* 1, 2 or 3 */
  guint n_groups;                    /* inputs / maps_per_group == outputs */
  guint record_channels;             /* channels copied per box */
  guint record_bytes;                /* record_channels + 8 * cmp_en */
} HostDetPostConfig;

/**
 * host_detpost_zg_config_init:
 *
 * Reads and checks @op's attributes and operand count.  Clear with
 * host_detpost_zg_config_clear().
 */
gboolean host_detpost_zg_config_init (HostDetPostConfig *cfg, const XirOp *op, GError **error);
void host_detpost_zg_config_clear (HostDetPostConfig *cfg);

/**
 * host_detpost_zg_run:
 *
 * Runs the IP model: @inputs are the op's sint8 NCHWcK heads, @outputs the op's output
 * buffers (their storage_bytes each).  @n_boxes (may be NULL) receives one count per
 * output (cfg.n_groups).  Fails with HOST_OP_ERROR_CAPACITY when the records of a group
 * do not fit its output buffer.
 */
gboolean host_detpost_zg_run (const XirOp *op, const guint8 *const *inputs,
                              guint8 *const *outputs, guint *n_boxes, GError **error);

/**
 * host_detpost_zg_candidates:
 *
 * The anchor candidates the IP compares for @op's operand shapes (sum over the groups of
 * H x W x anchor_num of the group's first map) and the record size; what the cost model
 * (host-cost.h) counts.
 */
gboolean host_detpost_zg_candidates (const XirOp *op, guint64 *candidates, guint *record_bytes, GError **error);

/* One decoded box, in the network input's pixels. */
typedef struct {
  float x, y, w, h;        /* centre and size */
  float objectness;        /* sigmoid(obj * s) */
  float class_score;       /* sigmoid(best class * s) */
  float score;             /* objectness * class_score */
  guint cls;
  guint group, anchor, cell_x, cell_y;
} HostDetection;

/* How to decode YOLOv5-style records; zero-initialise for the defaults. */
typedef struct {
  guint n_classes;         /* 0: 80 (COCO) when the record has >= 85 channels, else channels - 5 */
  float conf_threshold;    /* boxes with score <= it are dropped (the model zoo keeps
                            * score > thr); <= 0: the op's thr_f */
  guint input_h;           /* network input height for the strides; 0: stride 8 << group */
  const float *anchors;    /* n_groups * anchor_num * 2 floats (w, h in pixels) or NULL:
                            * YOLOv5's P3/P4/P5 COCO anchors (needs 3 groups x 3 anchors) */
  guint n_anchor_floats;
} HostDetPostDecodeParams;

/**
 * host_detpost_zg_decode:
 *
 * Decodes the records of every output (@n_boxes[g] records in @outputs[g]) as YOLOv5 does:
 * x = (2 sig(tx) + cell_x - 0.5) * stride, w = 4 sig(tw)^2 * anchor_w (same for y, h),
 * score = sig(obj) * sig(best class), with each group's input scale per channel.
 * Appends HostDetection to @detections (a GArray of HostDetection), no NMS.
 */
gboolean host_detpost_zg_decode (const XirOp *op, const guint8 *const *outputs,
                                 const guint *n_boxes, const HostDetPostDecodeParams *params,
                                 GArray *detections, GError **error);

G_END_DECLS
