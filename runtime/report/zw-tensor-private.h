/* zw-tensor-private.h — shared by the tensor views (zw-tensor.c) and their statistics
 * (zw-tensor-stats.c): element reads, channel scales, runs of elements; not installed. */
#pragma once

#include "report/zw-tensor-stats.h"

#include <string.h>

#include "base/zw-half.h"

static inline guint
elem_bytes (ZwTensorElem e)
{
  switch (e)
    {
    case ZW_TENSOR_S8: case ZW_TENSOR_U8: return 1;
    case ZW_TENSOR_S16: case ZW_TENSOR_U16: case ZW_TENSOR_F16: return 2;
    default: return 4;
    }
}

static inline gint64
read_int (ZwTensorElem e, const guint8 *data, guint64 i)
{
  switch (e)
    {
    case ZW_TENSOR_S8: return (gint8) data[i];
    case ZW_TENSOR_U8: return data[i];
    case ZW_TENSOR_S16: { guint16 x = (guint16) (data[2 * i] | (data[2 * i + 1] << 8)); return (gint16) x; }
    case ZW_TENSOR_U16: return (guint16) (data[2 * i] | (data[2 * i + 1] << 8));
    default:
      {
        guint32 x;
        memcpy (&x, data + 4 * i, 4);
        x = GUINT32_FROM_LE (x);
        return e == ZW_TENSOR_S32 ? (gint64) (gint32) x : (gint64) x;
      }
    }
}

static inline float
read_float (ZwTensorElem e, const guint8 *data, guint64 i)
{
  if (e == ZW_TENSOR_F16)
    return zw_fp16_to_float ((guint16) (data[2 * i] | (data[2 * i + 1] << 8)));
  {
    guint32 x;
    float f;
    memcpy (&x, data + 4 * i, 4);
    x = GUINT32_FROM_LE (x);
    memcpy (&f, &x, 4);
    return f;
  }
}

static inline float
scale_of (const ZwTensor *t, guint c)
{
  if (!t->quantized || t->n_scales == 0)
    return 1.0f;
  if (t->n_scales == 1)
    return t->scales[0];
  return c < t->n_scales ? t->scales[c] : t->scales[t->n_scales - 1];
}

/* ---- segments: runs of elements whose channels are known without a division ---------- */

typedef enum {
  MODE_LAST,     /* channel axis innermost: unit = one run over all channels */
  MODE_BLOCKED,  /* NCHWcK with c innermost: unit = (outer, C block), runs of K channels */
  MODE_PLAIN,    /* channel axis with inner axes: unit = (outer, channel), one constant run */
  MODE_GENERIC,  /* anything else: unit = one element */
} SegMode;

typedef struct {
  SegMode mode;
  guint64 n_units;
  guint64 lc;       /* length of the C axis */
  guint64 sc;       /* its stride */
} SegPlan;

/* A run: elements [start, start + len) with channels ch, ch+1, … (step) or all ch. */
typedef void (*SegFunc) (gpointer user, guint64 start, guint64 len, guint ch, gboolean step);

/* How @t's units (see SegMode) are laid out. */
void zw_tensor_seg_plan (const ZwTensor *t, SegPlan *p);
/* Calls @fn for every run of units [from, to), padding channels (>= t->c) cut off. */
void zw_tensor_seg_foreach (const ZwTensor *t, const SegPlan *p, guint64 from, guint64 to, SegFunc fn, gpointer user);
