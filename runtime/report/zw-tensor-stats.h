/* zw-tensor-stats.h — tensor health: statistics, histograms, per-channel heatmaps and the
 * value at logical coordinates, for a dumped file or a value's stored bytes.
 *
 * A ZwTensor is a read-only view of one value's numbers with its logical geometry:
 *   n  batch       the 'N' axis (1 when absent)
 *   c  channels    'C' (x the block 'c' of NCHWcK; the padding channels of the last block,
 *                  beyond the per-channel scales, are not part of the tensor, as in the S dumps);
 *                  without a 'C' axis the last axis is the channel axis (the scale axis -1)
 *   h, w           'H' and 'W' (1 when absent)
 * Any other axis (D, '*' …) still counts in the statistics; coordinates address index 0 of it.
 *
 * It has two views:
 *   quantised  the stored integers (int8 …), present for integer values; for a float dump
 *              (SF*) of a quantised value they are recomputed as round(f / scale[c])
 *   float      q * scale[c] for quantised values (the kernels' dequantise), the float itself
 *              for F dumps and fp16/fp32 values, (float) q for plain integers.
 *
 * Statistics for an 8-bit tensor are computed from per-channel level histograms in one pass
 * (split over the machine's cores for large tensors): a 1x8x176x320x32 int8 tensor takes a
 * few milliseconds.  Other element types take a per-element pass (plus one for histograms).
 *
 * Ownership: ZwTensor holds its own references (GBytes, scales); free with zw_tensor_free().
 * ZwTensorStats and heatmaps are plain data owned by the caller.
 * Errors: ZW_DUMP_ERROR (TYPE for element types that cannot be viewed, SIZE for a byte count
 * that does not match, PARSE for coordinates out of range); messages name the v_id.
 */
#pragma once

#include <glib.h>

#include "report/zw-dump.h"

G_BEGIN_DECLS

typedef enum {
  ZW_TENSOR_S8,
  ZW_TENSOR_U8,
  ZW_TENSOR_S16,
  ZW_TENSOR_U16,
  ZW_TENSOR_S32,
  ZW_TENSOR_U32,
  ZW_TENSOR_F16,
  ZW_TENSOR_F32,
} ZwTensorElem;

typedef struct {
  gint64 v_id;
  gint64 op_id;                 /* the producing op (manifest or network), -1 when unknown */
  char *origin;                 /* the file or "v_id N" (for messages) */
  char *network;                /* a pipeline's dump: the value's network ("NET:V_ID"); else NULL */
  char layout[32];              /* of the numbers as held: "NCHWc32", "NHWC" (S dumps) … */
  guint rank;
  gint64 shape[XIR_LAYOUT_MAX_AXES];
  guint64 n_elements;           /* stored elements, padding included */
  /* logical geometry (see the top) */
  gint64 n, c, h, w;
  gint64 c_stored;              /* channels as stored: CB*K for blocked layouts */
  guint block;                  /* K of NCHWcK, 0 when not blocked */
  /* views */
  gboolean has_quantized;       /* the quantised view exists */
  ZwTensorElem q_elem;          /* its element type */
  GBytes *q_bytes;              /* its elements, little-endian, in the layout above */
  gboolean quantized;           /* float = q * scale[c] */
  guint n_scales;               /* 1 = per tensor, else per channel */
  float *scales;
  ZwTensorElem f_elem;          /* ZW_TENSOR_F16/F32 when the float view has its own numbers */
  GBytes *f_bytes;              /* NULL when the float view is derived from the quantised one */
  /* private: element strides of the axes */
  gint64 stride[XIR_LAYOUT_MAX_AXES];
  gint axis_n, axis_c, axis_k, axis_h, axis_w;
} ZwTensor;

/**
 * zw_tensor_new:
 *
 * A view of a value's stored bytes (the hardware layout of @type, as in the ETM/OCM or a
 * host tensor).  @stored is referenced, not copied; its size must be the value's storage
 * size.  Fails for element types that cannot be viewed (sub-byte, 64-bit, bf16).
 */
ZwTensor *zw_tensor_new (const ZwDumpType *type, GBytes *stored, GError **error);

/**
 * zw_tensor_new_from_dump:
 *
 * A view of a decoded dump file (any of the six formats).  @type (the value's, from the
 * manifest or the network) gives the element type and scales; it may be NULL for a float
 * (SF*) file, which then has no quantised view.  @data's bytes are referenced.
 */
ZwTensor *zw_tensor_new_from_dump (const ZwDumpData *data, const ZwDumpType *type, GError **error);

/**
 * zw_tensor_new_from_folder:
 *
 * zw_tensor_new_from_dump() with the type (and op_id) looked up in @folder's manifest or,
 * without one (or when the manifest does not list it), in @network (may be NULL).
 */
ZwTensor *zw_tensor_new_from_folder (const ZwDumpFolder *folder, const ZwDumpData *data, XirNetwork *network,
                                     GError **error);

void zw_tensor_free (ZwTensor *tensor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwTensor, zw_tensor_free)

/**
 * zw_tensor_index_of:
 *
 * The stored element index of logical (n, c, h, w), or -1 when out of range.
 */
gint64 zw_tensor_index_of (const ZwTensor *tensor, gint64 n, gint64 c, gint64 h, gint64 w);
/**
 * zw_tensor_coords_of:
 *
 * The logical coordinates [n, c, h, w] of stored element @index (other axes dropped);
 * FALSE for a padding element or an index out of range.
 */
gboolean zw_tensor_coords_of (const ZwTensor *tensor, guint64 index, gint64 coords[4]);
/**
 * zw_tensor_get_float:
 *
 * Element @index in the float view; its integer in the quantised view (FALSE when there
 * is none).
 */
float zw_tensor_get_float (const ZwTensor *tensor, guint64 index);
gboolean zw_tensor_get_quantized (const ZwTensor *tensor, guint64 index, gint64 *out);

typedef struct {
  gint64 index;       /* stored element index */
  float value;        /* float view */
  gboolean has_q;
  gint64 q;           /* quantised view */
  float scale;        /* the channel's scale (1 when not quantised) */
} ZwTensorSample;

/**
 * zw_tensor_get_at:
 *
 * The value under logical (n, c, h, w) in both views; ZW_DUMP_ERROR_PARSE naming the
 * v_id and the coordinates when out of range.
 */
gboolean zw_tensor_get_at (const ZwTensor *tensor, gint64 n, gint64 c, gint64 h, gint64 w, ZwTensorSample *out,
                           GError **error);

/**
 * zw_tensor_heatmap:
 *
 * Channel @c of batch @n as a row-major h x w grid of floats (g_free), in the float view,
 * or the quantised view's integers when @quantized (which must exist).  NULL with
 * ZW_DUMP_ERROR_PARSE when (n, c) is out of range or there is no quantised view.
 */
float *zw_tensor_heatmap (const ZwTensor *tensor, gint64 n, gint64 c, gboolean quantized, GError **error);

/* A run of stored elements [start, start + len) whose channels are ch, ch + 1, … (@step)
 * or all ch (padding channels are never part of a run). */
typedef void (*ZwTensorRunFunc) (gpointer user_data, guint64 start, guint64 len, guint ch, gboolean step);

/**
 * zw_tensor_foreach_run:
 *
 * Calls @func for every run of the tensor's elements, in storage order: the way to visit
 * every element with its channel without a division per element.
 */
void zw_tensor_foreach_run (const ZwTensor *tensor, ZwTensorRunFunc func, gpointer user_data);

/* ---- statistics --------------------------------------------------------------- */

typedef struct {
  guint64 count;                         /* elements (padding channels excluded) */
  guint64 n_zero, n_nan, n_pos_inf, n_neg_inf;
  double min, max, mean, std;            /* over the finite elements (population std);
                                          * 0 when there are none */
} ZwStatsSummary;

typedef struct {
  gboolean levels;      /* one bin per integer level: bin i is the level lo + i */
  double lo, hi;        /* range bins: bin i covers [lo + i (hi - lo) / n_bins, …), the last
                         * one includes hi; NaN and ±inf are not binned */
  guint n_bins;
  guint64 *counts;
} ZwHistogram;

typedef struct {
  gboolean has_quantized;
  ZwStatsSummary f;             /* float view */
  ZwStatsSummary q;             /* quantised view (zeroed when there is none) */
  ZwHistogram f_hist;           /* range bins over [f.min, f.max] */
  ZwHistogram q_hist;           /* 8-bit: one bin per level (256); wider: range bins */
  guint n_channels;             /* = tensor->c */
  ZwStatsSummary *channel_f;    /* per channel, float view */
  ZwStatsSummary *channel_q;    /* per channel, quantised view; NULL when there is none */
} ZwTensorStats;

/**
 * zw_tensor_stats_compute:
 *
 * Every statistic above; @n_bins (>= 1) is the float histogram's bin count and the
 * quantised one's for types wider than 8 bits.  May be called from any thread.
 */
ZwTensorStats *zw_tensor_stats_compute (const ZwTensor *tensor, guint n_bins);
void zw_tensor_stats_free (ZwTensorStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwTensorStats, zw_tensor_stats_free)

/**
 * zw_tensor_elem_to_string:
 *
 * The name as written in files: "int8", "float32" ….
 */
const char *zw_tensor_elem_to_string (ZwTensorElem elem);

G_END_DECLS
