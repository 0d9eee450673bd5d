/* zw-tensor.c — tensor views: element types, geometry, runs of channels, construction from
 * dumps, element access and heatmaps (the statistics: zw-tensor-stats.c). */
#include "report/zw-tensor-private.h"

#include <math.h>
#include <string.h>

#define VID_FMT "v_id %" G_GINT64_FORMAT

const char *
zw_tensor_elem_to_string (ZwTensorElem elem)
{
  static const char *names[] = { "int8", "uint8", "int16", "uint16", "int32", "uint32", "float16", "float32" };
  return (guint) elem < G_N_ELEMENTS (names) ? names[elem] : "?";
}

static gboolean
elem_from_scalar (const XirScalarType *s, ZwTensorElem *out)
{
  if (s->kind == XIR_SCALAR_SINT || s->kind == XIR_SCALAR_UINT)
    {
      gboolean sgn = s->kind == XIR_SCALAR_SINT;
      switch (s->bits)
        {
        case 8: *out = sgn ? ZW_TENSOR_S8 : ZW_TENSOR_U8; return TRUE;
        case 16: *out = sgn ? ZW_TENSOR_S16 : ZW_TENSOR_U16; return TRUE;
        case 32: *out = sgn ? ZW_TENSOR_S32 : ZW_TENSOR_U32; return TRUE;
        default: return FALSE;
        }
    }
  if (s->kind == XIR_SCALAR_FP && (s->bits == 16 || s->bits == 32))
    {
      *out = s->bits == 16 ? ZW_TENSOR_F16 : ZW_TENSOR_F32;
      return TRUE;
    }
  return FALSE;
}


static void
elem_range (ZwTensorElem e, gint64 *lo, gint64 *hi)
{
  switch (e)
    {
    case ZW_TENSOR_S8: *lo = G_MININT8; *hi = G_MAXINT8; break;
    case ZW_TENSOR_U8: *lo = 0; *hi = G_MAXUINT8; break;
    case ZW_TENSOR_S16: *lo = G_MININT16; *hi = G_MAXINT16; break;
    case ZW_TENSOR_U16: *lo = 0; *hi = G_MAXUINT16; break;
    case ZW_TENSOR_S32: *lo = G_MININT32; *hi = G_MAXINT32; break;
    default: *lo = 0; *hi = G_MAXUINT32; break;
    }
}

/* ---- geometry ------------------------------------------------------------------- */

/* "NCHWc32" -> axes "NCHWc"; FALSE when the letters do not give one per dimension. */
static gboolean
parse_axes (const char *text, guint rank, char *axes)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    {
      if (g_ascii_isdigit (*p))
        continue;
      if ((!g_ascii_isalpha (*p) && *p != '*') || n >= rank)
        return FALSE;
      axes[n++] = *p;
    }
  return n == rank;
}

static gint
find_axis (const char *axes, guint rank, char letter)
{
  for (guint i = 0; i < rank; i++)
    if (axes[i] == letter)
      return (gint) i;
  return -1;
}

/* Fills the geometry of @t from its layout, shape and scales. */
static void
tensor_set_geometry (ZwTensor *t)
{
  char axes[XIR_LAYOUT_MAX_AXES];
  gint r = (gint) t->rank;

  t->axis_n = t->axis_c = t->axis_k = t->axis_h = t->axis_w = -1;
  if (parse_axes (t->layout, t->rank, axes))
    {
      t->axis_n = find_axis (axes, t->rank, 'N');
      t->axis_c = find_axis (axes, t->rank, 'C');
      t->axis_k = find_axis (axes, t->rank, 'c');
      t->axis_h = find_axis (axes, t->rank, 'H');
      t->axis_w = find_axis (axes, t->rank, 'W');
      /* '*' stands for an axis by position: "*C**c3" is N C H W c, "***C" N H W C */
      if (r == 5 && t->axis_c == 1 && t->axis_k == 4)
        {
          if (axes[0] == '*' && t->axis_n < 0)
            t->axis_n = 0;
          if (axes[2] == '*' && t->axis_h < 0)
            t->axis_h = 2;
          if (axes[3] == '*' && t->axis_w < 0)
            t->axis_w = 3;
        }
      else if (r == 4 && (t->axis_c == 3 || (t->axis_c < 0 && axes[3] == '*')))
        {
          t->axis_c = 3;
          if (axes[0] == '*' && t->axis_n < 0)
            t->axis_n = 0;
          if (axes[1] == '*' && t->axis_h < 0)
            t->axis_h = 1;
          if (axes[2] == '*' && t->axis_w < 0)
            t->axis_w = 2;
        }
      if (t->axis_c < 0 && r > 0 && t->axis_n != r - 1 && t->axis_h != r - 1 && t->axis_w != r - 1)
        t->axis_c = r - 1;
    }
  else if (r >= 4)
    {
      /* "*" or unknown letters: the vendor's default order [N, …, H, W, C] (scale axis -1) */
      t->axis_n = 0;
      t->axis_h = r - 3;
      t->axis_w = r - 2;
      t->axis_c = r - 1;
    }
  else if (r == 3)
    {
      t->axis_h = 0;
      t->axis_w = 1;
      t->axis_c = 2;
    }
  else if (r == 2)
    {
      t->axis_n = 0;
      t->axis_c = 1;
    }
  else if (r == 1)
    t->axis_c = 0;
  if (t->axis_k >= 0 && t->axis_c < 0)
    t->axis_k = -1;

  t->n_elements = 1;
  for (gint i = r - 1; i >= 0; i--)
    {
      t->stride[i] = (gint64) t->n_elements;
      t->n_elements *= (guint64) MAX (t->shape[i], 0);
    }
  t->n = t->axis_n >= 0 ? t->shape[t->axis_n] : 1;
  t->h = t->axis_h >= 0 ? t->shape[t->axis_h] : 1;
  t->w = t->axis_w >= 0 ? t->shape[t->axis_w] : 1;
  t->block = t->axis_k >= 0 ? (guint) t->shape[t->axis_k] : 0;
  t->c_stored = t->axis_c >= 0 ? t->shape[t->axis_c] * (t->block ? t->block : 1) : 1;
  t->c = t->c_stored;
  /* NCHWcK: the scales say where the real channels end in the last block */
  if (t->block > 0 && t->n_scales > 1 && t->n_scales <= (guint64) t->c_stored
      && t->n_scales > (guint64) t->c_stored - t->block)
    t->c = t->n_scales;
}

static inline guint
channel_of (const ZwTensor *t, guint64 i)
{
  guint64 c;

  if (t->axis_c < 0)
    return 0;
  c = (i / (guint64) t->stride[t->axis_c]) % (guint64) t->shape[t->axis_c];
  if (t->block > 0)
    c = c * t->block + (i / (guint64) t->stride[t->axis_k]) % t->block;
  return (guint) c;
}


void
zw_tensor_seg_plan (const ZwTensor *t, SegPlan *p)
{
  memset (p, 0, sizeof *p);
  if (t->n_elements == 0)
    {
      p->mode = MODE_GENERIC;
      return;
    }
  if (t->axis_c < 0)
    {
      /* one channel: a single constant run */
      p->mode = MODE_PLAIN;
      p->lc = 1;
      p->sc = t->n_elements;
      p->n_units = 1;
      return;
    }
  p->lc = (guint64) t->shape[t->axis_c];
  p->sc = (guint64) t->stride[t->axis_c];
  if (t->block > 0)
    {
      if (t->axis_k == (gint) t->rank - 1 && t->axis_k > t->axis_c)
        {
          p->mode = MODE_BLOCKED;
          p->n_units = t->n_elements / p->sc;
          return;
        }
      p->mode = MODE_GENERIC;
      p->n_units = t->n_elements;
      return;
    }
  if (p->sc == 1)
    {
      p->mode = MODE_LAST;
      p->n_units = t->n_elements / p->lc;
      return;
    }
  p->mode = MODE_PLAIN;
  p->n_units = t->n_elements / p->sc;
}

/* Calls @fn for every run of units [from, to), padding channels (>= t->c) cut off. */
void
zw_tensor_seg_foreach (const ZwTensor *t, const SegPlan *p, guint64 from, guint64 to, SegFunc fn, gpointer user)
{
  guint64 c = (guint64) t->c;

  for (guint64 u = from; u < to; u++)
    switch (p->mode)
      {
      case MODE_LAST:
        fn (user, u * p->lc, MIN (p->lc, c), 0, TRUE);
        break;
      case MODE_BLOCKED:
        {
          guint64 ci = u % p->lc, k = t->block, base = ci * k;
          if (base >= c)
            break;
          for (guint64 b = 0; b < p->sc; b += k)
            fn (user, u * p->sc + b, MIN (k, c - base), (guint) base, TRUE);
          break;
        }
      case MODE_PLAIN:
        if (u % p->lc < c)
          fn (user, u * p->sc, p->sc, (guint) (u % p->lc), FALSE);
        break;
      case MODE_GENERIC:
        {
          guint ch = channel_of (t, u);
          if (ch < c)
            fn (user, u, 1, ch, FALSE);
          break;
        }
      }
}

void
zw_tensor_foreach_run (const ZwTensor *tensor, ZwTensorRunFunc func, gpointer user_data)
{
  SegPlan p;

  g_return_if_fail (tensor != NULL && func != NULL);
  zw_tensor_seg_plan (tensor, &p);
  zw_tensor_seg_foreach (tensor, &p, 0, p.n_units, func, user_data);
}

/* ---- construction ------------------------------------------------------------------ */

static ZwTensor *
tensor_alloc (gint64 v_id, const char *origin, const char *layout, guint rank, const gint64 *shape)
{
  ZwTensor *t = g_new0 (ZwTensor, 1);

  t->v_id = v_id;
  t->op_id = -1;
  t->origin = origin ? g_strdup (origin) : g_strdup_printf (VID_FMT, v_id);
  g_strlcpy (t->layout, layout, sizeof t->layout);
  t->rank = MIN (rank, XIR_LAYOUT_MAX_AXES);
  for (guint i = 0; i < t->rank; i++)
    t->shape[i] = shape[i];
  return t;
}

static void
tensor_set_scales (ZwTensor *t, const ZwDumpType *type)
{
  t->quantized = type->quantized && type->n_scales > 0;
  if (t->quantized)
    {
      t->n_scales = type->n_scales;
      t->scales = g_memdup2 (type->scales, sizeof (float) * type->n_scales);
    }
}

void
zw_tensor_free (ZwTensor *tensor)
{
  if (!tensor)
    return;
  g_free (tensor->origin);
  g_free (tensor->network);
  g_clear_pointer (&tensor->q_bytes, g_bytes_unref);
  g_clear_pointer (&tensor->f_bytes, g_bytes_unref);
  g_free (tensor->scales);
  g_free (tensor);
}

ZwTensor *
zw_tensor_new (const ZwDumpType *type, GBytes *stored, GError **error)
{
  g_autoptr (ZwTensor) t = NULL;
  ZwTensorElem e;
  guint64 need;

  g_return_val_if_fail (type != NULL && stored != NULL, NULL);
  if (!elem_from_scalar (&type->storage, &e) || type->rank > XIR_LAYOUT_MAX_AXES)
    {
      g_autofree char *name = xir_scalar_type_to_string (&type->storage);
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_TYPE, VID_FMT ": %s (rank %u) cannot be viewed", type->v_id,
                   name, type->rank);
      return NULL;
    }
  t = tensor_alloc (type->v_id, NULL, type->layout.text, type->rank, type->shape);
  tensor_set_scales (t, type);
  tensor_set_geometry (t);
  need = t->n_elements * elem_bytes (e);
  if (g_bytes_get_size (stored) != need)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE, VID_FMT ": %" G_GSIZE_FORMAT " bytes, but its %s [%s] "
                   "needs %" G_GUINT64_FORMAT, type->v_id, g_bytes_get_size (stored), zw_tensor_elem_to_string (e),
                   t->layout, need);
      return NULL;
    }
  if (e == ZW_TENSOR_F16 || e == ZW_TENSOR_F32)
    {
      t->f_elem = e;
      t->f_bytes = g_bytes_ref (stored);
      t->quantized = FALSE;
    }
  else
    {
      t->has_quantized = TRUE;
      t->q_elem = e;
      t->q_bytes = g_bytes_ref (stored);
    }
  return g_steal_pointer (&t);
}

typedef struct {
  const ZwTensor *t;
  const guint8 *f;
  guint8 *q;
  gint64 lo, hi;
  guint qb;
} RequantCtx;

static void
requant_seg (gpointer user, guint64 start, guint64 len, guint ch, gboolean step)
{
  RequantCtx *r = user;

  for (guint64 j = 0; j < len; j++)
    {
      guint c = step ? ch + (guint) j : ch;
      float s = scale_of (r->t, c);
      float f = read_float (ZW_TENSOR_F32, r->f, start + j);
      double q = s != 0.0f ? rint ((double) f / s) : 0.0;
      gint64 v;

      if (isnan (q))
        q = 0;
      v = (gint64) CLAMP (q, (double) r->lo, (double) r->hi);
      for (guint b = 0; b < r->qb; b++)
        r->q[(start + j) * r->qb + b] = (guint8) ((guint64) v >> (8 * b));
    }
}

ZwTensor *
zw_tensor_new_from_dump (const ZwDumpData *data, const ZwDumpType *type, GError **error)
{
  g_autoptr (ZwTensor) t = NULL;
  ZwTensorElem e = ZW_TENSOR_F32;

  g_return_val_if_fail (data != NULL, NULL);
  if (type && !elem_from_scalar (&type->storage, &e))
    {
      g_autofree char *name = xir_scalar_type_to_string (&type->storage);
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_TYPE, "%s: " VID_FMT ": %s cannot be viewed", data->path,
                   data->v_id, name);
      return NULL;
    }
  if (data->format.quantized && !type)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_TYPE, "%s: " VID_FMT ": a Q dump needs the value's type "
                   "(a manifest or the network)", data->path, data->v_id);
      return NULL;
    }
  t = tensor_alloc (data->v_id, data->path, data->shape.layout, data->shape.rank, data->shape.shape);
  if (type)
    tensor_set_scales (t, type);
  tensor_set_geometry (t);
  if (t->n_elements != data->shape.n_elements
      || g_bytes_get_size (data->bytes) != data->shape.n_elements * data->shape.elem_bytes)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE, "%s: " VID_FMT ": the decoded data does not match its shape",
                   data->path, data->v_id);
      return NULL;
    }
  if (data->format.quantized)
    {
      t->has_quantized = TRUE;
      t->q_elem = e;
      t->q_bytes = g_bytes_ref (data->bytes);
      return g_steal_pointer (&t);
    }
  t->f_elem = ZW_TENSOR_F32;
  t->f_bytes = g_bytes_ref (data->bytes);
  if (type && e != ZW_TENSOR_F16 && e != ZW_TENSOR_F32)
    {
      /* a float dump of an integer value: its integers are round(f / scale) */
      SegPlan p;
      RequantCtx r = { .t = t, .f = g_bytes_get_data (data->bytes, NULL), .qb = elem_bytes (e) };
      gsize qlen = (gsize) t->n_elements * r.qb;

      r.q = g_malloc0 (MAX (qlen, 1));
      elem_range (e, &r.lo, &r.hi);
      zw_tensor_seg_plan (t, &p);
      zw_tensor_seg_foreach (t, &p, 0, p.n_units, requant_seg, &r);
      t->has_quantized = TRUE;
      t->q_elem = e;
      t->q_bytes = g_bytes_new_take (r.q, qlen);
    }
  else
    t->quantized = FALSE;
  return g_steal_pointer (&t);
}

ZwTensor *
zw_tensor_new_from_folder (const ZwDumpFolder *folder, const ZwDumpData *data, XirNetwork *network, GError **error)
{
  g_return_val_if_fail (folder != NULL && data != NULL, NULL);
  if (folder->manifest)
    for (guint i = 0; i < folder->manifest->entries->len; i++)
      {
        const ZwDumpManifestEntry *e = g_ptr_array_index (folder->manifest->entries, i);
        /* a pipeline's dump: a v_id is a value of one network */
        if (e->type.v_id == data->v_id && g_strcmp0 (e->network, data->network) == 0)
          {
            ZwTensor *t = zw_tensor_new_from_dump (data, &e->type, error);
            if (t)
              {
                t->op_id = e->op_id;
                t->network = g_strdup (data->network);
              }
            return t;
          }
      }
  if (network)
    {
      const XirValue *v = xir_network_get_value (network, data->v_id);
      if (v)
        {
          ZwDumpType type;
          ZwTensor *t;

          zw_dump_type_init_from_value (&type, v);
          t = zw_tensor_new_from_dump (data, &type, error);
          zw_dump_type_clear (&type);
          if (t && v->producer >= 0)
            t->op_id = xir_network_get_op (network, (guint) v->producer)->op_id;
          return t;
        }
    }
  return zw_tensor_new_from_dump (data, NULL, error);
}

/* ---- element access ------------------------------------------------------------- */

gint64
zw_tensor_index_of (const ZwTensor *t, gint64 n, gint64 c, gint64 h, gint64 w)
{
  gint64 idx = 0;

  g_return_val_if_fail (t != NULL, -1);
  if (n < 0 || n >= t->n || c < 0 || c >= t->c || h < 0 || h >= t->h || w < 0 || w >= t->w)
    return -1;
  if (t->axis_n >= 0)
    idx += n * t->stride[t->axis_n];
  if (t->axis_h >= 0)
    idx += h * t->stride[t->axis_h];
  if (t->axis_w >= 0)
    idx += w * t->stride[t->axis_w];
  if (t->axis_c >= 0)
    {
      if (t->block > 0)
        idx += (c / t->block) * t->stride[t->axis_c] + (c % t->block) * t->stride[t->axis_k];
      else
        idx += c * t->stride[t->axis_c];
    }
  return idx;
}

gboolean
zw_tensor_coords_of (const ZwTensor *t, guint64 index, gint64 coords[4])
{
  g_return_val_if_fail (t != NULL && coords != NULL, FALSE);
  if (index >= t->n_elements)
    return FALSE;
#define AXIS_AT(a) ((a) >= 0 ? (gint64) ((index / (guint64) t->stride[a]) % (guint64) t->shape[a]) : 0)
  coords[0] = AXIS_AT (t->axis_n);
  coords[1] = channel_of (t, index);
  coords[2] = AXIS_AT (t->axis_h);
  coords[3] = AXIS_AT (t->axis_w);
#undef AXIS_AT
  return coords[1] < t->c;
}

float
zw_tensor_get_float (const ZwTensor *t, guint64 index)
{
  g_return_val_if_fail (t != NULL && index < t->n_elements, NAN);
  if (t->f_bytes)
    return read_float (t->f_elem, g_bytes_get_data (t->f_bytes, NULL), index);
  return (float) read_int (t->q_elem, g_bytes_get_data (t->q_bytes, NULL), index) * scale_of (t, channel_of (t, index));
}

gboolean
zw_tensor_get_quantized (const ZwTensor *t, guint64 index, gint64 *out)
{
  g_return_val_if_fail (t != NULL && index < t->n_elements, FALSE);
  if (!t->has_quantized)
    return FALSE;
  *out = read_int (t->q_elem, g_bytes_get_data (t->q_bytes, NULL), index);
  return TRUE;
}

gboolean
zw_tensor_get_at (const ZwTensor *t, gint64 n, gint64 c, gint64 h, gint64 w, ZwTensorSample *out, GError **error)
{
  gint64 idx;

  g_return_val_if_fail (t != NULL && out != NULL, FALSE);
  idx = zw_tensor_index_of (t, n, c, h, w);
  if (idx < 0)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, "%s: (n=%" G_GINT64_FORMAT ", c=%" G_GINT64_FORMAT
                   ", h=%" G_GINT64_FORMAT ", w=%" G_GINT64_FORMAT ") is outside [%" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", t->origin, n, c, h, w, t->n, t->c,
                   t->h, t->w);
      return FALSE;
    }
  out->index = idx;
  out->value = zw_tensor_get_float (t, (guint64) idx);
  out->has_q = zw_tensor_get_quantized (t, (guint64) idx, &out->q);
  if (!out->has_q)
    out->q = 0;
  out->scale = scale_of (t, (guint) c);
  return TRUE;
}

float *
zw_tensor_heatmap (const ZwTensor *t, gint64 n, gint64 c, gboolean quantized, GError **error)
{
  gint64 base, sh, sw;
  float *grid;

  g_return_val_if_fail (t != NULL, NULL);
  base = zw_tensor_index_of (t, n, c, 0, 0);
  if (base < 0 || (quantized && !t->has_quantized))
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, base < 0 ? "%s: no channel %" G_GINT64_FORMAT
                   " of batch %" G_GINT64_FORMAT " (the tensor has %" G_GINT64_FORMAT " x %" G_GINT64_FORMAT ")"
                   : "%s: no quantised view", t->origin, c, n, t->n, t->c);
      return NULL;
    }
  sh = t->axis_h >= 0 ? t->stride[t->axis_h] : 0;
  sw = t->axis_w >= 0 ? t->stride[t->axis_w] : 0;
  grid = g_new (float, (gsize) MAX (t->h * t->w, 1));
  if (quantized || !t->f_bytes)
    {
      const guint8 *q = g_bytes_get_data (t->q_bytes, NULL);
      float s = quantized ? 1.0f : scale_of (t, (guint) c);

      if (t->q_elem == ZW_TENSOR_S8)
        {
          /* the common case, kept tight: a 176x320 channel of NCHWc32 is a strided gather */
          for (gint64 y = 0; y < t->h; y++)
            {
              const gint8 *row = (const gint8 *) q + base + y * sh;
              float *dst = grid + y * t->w;
              for (gint64 x = 0; x < t->w; x++)
                dst[x] = (float) row[x * sw] * s;
            }
        }
      else
        for (gint64 y = 0; y < t->h; y++)
          for (gint64 x = 0; x < t->w; x++)
            grid[y * t->w + x] = (float) read_int (t->q_elem, q, (guint64) (base + y * sh + x * sw)) * s;
    }
  else
    {
      const guint8 *f = g_bytes_get_data (t->f_bytes, NULL);
      for (gint64 y = 0; y < t->h; y++)
        for (gint64 x = 0; x < t->w; x++)
          grid[y * t->w + x] = read_float (t->f_elem, f, (guint64) (base + y * sh + x * sw));
    }
  return grid;
}
