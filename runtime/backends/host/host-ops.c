/* host-ops.c — CPU models of Input, Output, Cast, Resize and the board IP models of
 * customop::DetPostZG / DetPost and customop::ImageMake.
 * See host-ops.h for the contracts, in particular the IP models and their sources. */
#include "backends/host/host-ops.h"

#include <math.h>
#include <string.h>

#include "devices/zg330-kernels.h"

G_DEFINE_QUARK (host-op-error-quark, host_op_error)

#define OP_FMT "op %" G_GINT64_FORMAT " (%s)"
#define VID_FMT "v_id %" G_GINT64_FORMAT

/* ---- element access ------------------------------------------------------- */

typedef enum {
  ELEM_S8, ELEM_U8, ELEM_S16, ELEM_U16, ELEM_S32, ELEM_FP16, ELEM_FP32,
} Elem;

static const char *
op_short (const XirOp *op)
{
  const char *t = op->type_key ? op->type_key : "?";
  const char *colon = strrchr (t, ':');

  return colon ? colon + 1 : t;
}

static gboolean
elem_of (const XirOp *op, const XirValue *v, Elem *out, GError **error)
{
  const XirScalarType *s = &v->element.storage;

  if (s->kind == XIR_SCALAR_SINT && s->bits == 8)
    *out = ELEM_S8;
  else if (s->kind == XIR_SCALAR_UINT && s->bits == 8)
    *out = ELEM_U8;
  else if (s->kind == XIR_SCALAR_SINT && s->bits == 16)
    *out = ELEM_S16;
  else if (s->kind == XIR_SCALAR_UINT && s->bits == 16)
    *out = ELEM_U16;
  else if (s->kind == XIR_SCALAR_SINT && s->bits == 32)
    *out = ELEM_S32;
  else if (s->kind == XIR_SCALAR_FP && s->bits == 16)
    *out = ELEM_FP16;
  else if (s->kind == XIR_SCALAR_FP && s->bits == 32)
    *out = ELEM_FP32;
  else
    {
      g_autofree char *t = xir_scalar_type_to_string (s);
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": " VID_FMT ": element type %s has no host model", op->op_id, op_short (op),
                   v->v_id, t);
      return FALSE;
    }
  return TRUE;
}

static gsize
elem_bytes (Elem e)
{
  switch (e)
    {
    case ELEM_S8: case ELEM_U8: return 1;
    case ELEM_S16: case ELEM_U16: case ELEM_FP16: return 2;
    case ELEM_S32: case ELEM_FP32: return 4;
    }
  return 1;
}

static gboolean
elem_is_float (Elem e)
{
  return e == ELEM_FP16 || e == ELEM_FP32;
}

static double
elem_get (Elem e, const guint8 *base, gsize i)
{
  const guint8 *p = base + i * elem_bytes (e);

  switch (e)
    {
    case ELEM_S8: return (gint8) p[0];
    case ELEM_U8: return p[0];
    case ELEM_S16: { gint16 x; memcpy (&x, p, 2); return GINT16_FROM_LE (x); }
    case ELEM_U16: { guint16 x; memcpy (&x, p, 2); return GUINT16_FROM_LE (x); }
    case ELEM_S32: { gint32 x; memcpy (&x, p, 4); return GINT32_FROM_LE (x); }
    case ELEM_FP16: { guint16 x; memcpy (&x, p, 2); return zw_fp16_to_float (GUINT16_FROM_LE (x)); }
    case ELEM_FP32: { float f; memcpy (&f, p, 4); return f; }
    }
  return 0;
}

/* The kernels' rounding rule (zg330-kernels.h). */
static double
round_half_away (double v)
{
  double t = trunc (v);
  double f = v - t;

  return t + (f >= 0.5) - (f <= -0.5);
}

static void
elem_set (Elem e, guint8 *base, gsize i, double v)
{
  guint8 *p = base + i * elem_bytes (e);
  double r;

  switch (e)
    {
    case ELEM_FP32:
      {
        float f = (float) v;
        memcpy (p, &f, 4);
        return;
      }
    case ELEM_FP16:
      {
        guint16 h = GUINT16_TO_LE (zw_float_to_fp16 ((float) v));
        memcpy (p, &h, 2);
        return;
      }
    default:
      break;
    }
  r = isnan (v) ? 0 : round_half_away (v);
  switch (e)
    {
    case ELEM_S8: p[0] = (guint8) (gint8) CLAMP (r, -128, 127); break;
    case ELEM_U8: p[0] = (guint8) CLAMP (r, 0, 255); break;
    case ELEM_S16: { gint16 x = GINT16_TO_LE ((gint16) CLAMP (r, G_MININT16, G_MAXINT16)); memcpy (p, &x, 2); break; }
    case ELEM_U16: { guint16 x = GUINT16_TO_LE ((guint16) CLAMP (r, 0, G_MAXUINT16)); memcpy (p, &x, 2); break; }
    case ELEM_S32: { gint32 x = GINT32_TO_LE ((gint32) CLAMP (r, G_MININT32, G_MAXINT32)); memcpy (p, &x, 4); break; }
    default: break;
    }
}

/* ---- geometry --------------------------------------------------------------- */

/* Logical [N, C, H, W] of a feature map; k = 0 for NHWC, else the NCHWcK block. */
typedef struct {
  guint n, c, h, w, k;
} Geom;

static gboolean
geom_of (const XirOp *op, const XirValue *v, Geom *g, GError **error)
{
  const XirLayout *l = &v->layout;

  if (v->rank == 5 && l->n_axes == 5 && l->axes[1] == 'C' && l->axes[4] == 'c' && l->block[4] > 0
      && (guint64) v->shape[4] == l->block[4])
    {
      g->n = (guint) v->shape[0];
      g->c = (guint) (v->shape[1] * v->shape[4]);
      g->h = (guint) v->shape[2];
      g->w = (guint) v->shape[3];
      g->k = l->block[4];
      return TRUE;
    }
  if (v->rank == 4 && strcmp (l->text, "NHWC") == 0)
    {
      g->n = (guint) v->shape[0];
      g->h = (guint) v->shape[1];
      g->w = (guint) v->shape[2];
      g->c = (guint) v->shape[3];
      g->k = 0;
      return TRUE;
    }
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
               OP_FMT ": " VID_FMT ": layout \"%s\" with rank %u is not a feature-map layout (NHWC, NCHWcK)",
               op->op_id, op_short (op), v->v_id, l->text, v->rank);
  return FALSE;
}

static gsize
geom_index (const Geom *g, guint n, guint c, guint h, guint w)
{
  if (g->k == 0)
    return (((gsize) n * g->h + h) * g->w + w) * g->c + c;
  else
    {
      gsize cb = (g->c + g->k - 1) / g->k;
      return (((((gsize) n * cb + c / g->k) * g->h + h) * g->w + w) * g->k) + c % g->k;
    }
}

/* Scale of channel @c of a value; 1 for unquantised types. */
static gboolean
check_scales (const XirOp *op, const XirValue *v, guint channels, GError **error)
{
  if (!v->element.quantized || v->element.n_scales == 0 || v->element.n_scales == 1
      || v->element.n_scales >= channels)
    return TRUE;
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
               OP_FMT ": " VID_FMT ": %u scales for %u channels", op->op_id, op_short (op), v->v_id,
               v->element.n_scales, channels);
  return FALSE;
}

/* value = q x normratio[c] x scale[c] (norm ratios: a Buyi NormalizedQuantizedType), the
 * product rounded to float as the hardop models do (zg330-hardop.h). */
static double
scale_of (const XirValue *v, guint c)
{
  const XirElementType *e = &v->element;
  double s, r;

  if (!e->quantized || e->n_scales == 0)
    return 1.0;
  s = e->scales[e->n_scales == 1 ? 0 : MIN (c, e->n_scales - 1)];
  if (e->n_norm_ratios == 0)
    return s;
  r = e->norm_ratios[e->n_norm_ratios == 1 ? 0 : MIN (c, e->n_norm_ratios - 1)];
  return (float) (s * r);
}

static gboolean
expect_arity (const XirOp *op, guint n_in, guint n_out, GError **error)
{
  if (op->inputs->len == n_in && op->outputs->len == n_out)
    return TRUE;
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
               OP_FMT ": expects %u input(s) and %u output(s), has %u and %u", op->op_id, op_short (op), n_in,
               n_out, op->inputs->len, op->outputs->len);
  return FALSE;
}

/* ---- Input / Output ---------------------------------------------------------- */

gboolean
host_op_input_copy (const XirOp *op, guint index, const guint8 *data, gsize size, guint8 *output,
                    GError **error)
{
  const XirValue *v;

  g_return_val_if_fail (op != NULL && output != NULL, FALSE);
  if (index >= op->outputs->len)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_SIZE, OP_FMT ": input tensor %u of %u", op->op_id,
                   op_short (op), index, op->outputs->len);
      return FALSE;
    }
  v = g_ptr_array_index (op->outputs, index);
  if (size != v->storage_bytes || (size > 0 && data == NULL))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_SIZE,
                   OP_FMT ": input %u (" VID_FMT "): the tensor has %" G_GSIZE_FORMAT " bytes, the value needs %"
                   G_GUINT64_FORMAT, op->op_id, op_short (op), index, v->v_id, size, v->storage_bytes);
      return FALSE;
    }
  if (size)
    memcpy (output, data, size);
  return TRUE;
}

/* ---- Cast ---------------------------------------------------------------------- */

static void
kernel_tensor (Zg330KernelTensor *t, const XirValue *v, const Geom *g, Elem e, gpointer data)
{
  memset (t, 0, sizeof *t);
  t->layout = g->k ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC;
  t->k = g->k;
  t->dtype = e == ELEM_S8 ? ZG330_KERNEL_DTYPE_SINT8 : ZG330_KERNEL_DTYPE_UINT8;
  t->n = g->n;
  t->c = g->c;
  t->h = g->h;
  t->w = g->w;
  t->data = data;
  t->size = v->storage_bytes;
  /* The kernels want one scale per channel or none. */
  t->scales = (v->element.quantized && v->element.n_scales >= g->c) ? v->element.scales : NULL;
}

gboolean
host_op_cast (const XirOp *op, const XirValue *in, const guint8 *in_data, const XirValue *out,
              guint8 *out_data, GError **error)
{
  Geom gi, go;
  Elem ei, eo;

  g_return_val_if_fail (op != NULL && in != NULL && out != NULL, FALSE);
  if (!geom_of (op, in, &gi, error) || !geom_of (op, out, &go, error) || !elem_of (op, in, &ei, error)
      || !elem_of (op, out, &eo, error))
    return FALSE;
  if (gi.n != go.n || gi.c != go.c || gi.h != go.h || gi.w != go.w)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT " is [%u,%u,%u,%u] (NCHW) but output " VID_FMT " is [%u,%u,%u,%u]",
                   op->op_id, op_short (op), in->v_id, gi.n, gi.c, gi.h, gi.w, out->v_id, go.n, go.c, go.h, go.w);
      return FALSE;
    }
  if (!check_scales (op, in, gi.c, error) || !check_scales (op, out, go.c, error))
    return FALSE;

  if ((ei == ELEM_S8 || ei == ELEM_U8) && (eo == ELEM_S8 || eo == ELEM_U8)
      && (!in->element.quantized || in->element.n_scales >= gi.c)
      && (!out->element.quantized || out->element.n_scales >= go.c))
    {
      Zg330KernelTensor ti, to;

      /* Same rule and same bits as the board's cast hardop. */
      kernel_tensor (&ti, in, &gi, ei, (gpointer) in_data);
      kernel_tensor (&to, out, &go, eo, out_data);
      if (!zg330_kernel_cast (&ti, &to, error))
        {
          g_prefix_error (error, OP_FMT ": ", op->op_id, op_short (op));
          return FALSE;
        }
      return TRUE;
    }

  /* Padding channels of a blocked output read as 0. */
  memset (out_data, 0, out->storage_bytes);
  for (guint n = 0; n < gi.n; n++)
    for (guint h = 0; h < gi.h; h++)
      for (guint w = 0; w < gi.w; w++)
        for (guint c = 0; c < gi.c; c++)
          {
            double x = elem_get (ei, in_data, geom_index (&gi, n, c, h, w));
            double y;

            if (elem_is_float (eo))
              y = elem_is_float (ei) ? x : (double) ((float) x * (float) scale_of (in, c));
            else if (elem_is_float (ei))
              y = x / scale_of (out, c);
            else
              y = x * (scale_of (in, c) / scale_of (out, c));
            elem_set (eo, out_data, geom_index (&go, n, c, h, w), y);
          }
  return TRUE;
}

/* ---- Resize ---------------------------------------------------------------------- */

static const char *const resize_mode_keys[] = { "mode", "method", "interpolation", "interp", NULL };

gboolean
host_resize_mode_from_op (const XirOp *op, HostResizeMode *mode, gboolean *align_corners, GError **error)
{
  *mode = HOST_RESIZE_NEAREST;
  *align_corners = FALSE;
  for (guint i = 0; resize_mode_keys[i]; i++)
    {
      const cJSON *a = xir_op_get_attr (op, resize_mode_keys[i]);
      if (!a)
        continue;
      if (cJSON_IsString (a))
        {
          g_autofree char *low = g_ascii_strdown (a->valuestring, -1);
          /* "linear" first: "bilinear" contains "near". */
          if (strstr (low, "linear"))
            *mode = HOST_RESIZE_BILINEAR;
          else if (strstr (low, "near"))
            *mode = HOST_RESIZE_NEAREST;
          else
            {
              g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                           OP_FMT ": attribute %s: unknown interpolation \"%s\" (nearest or bilinear)", op->op_id,
                           op_short (op), resize_mode_keys[i], a->valuestring);
              return FALSE;
            }
        }
      else if (cJSON_IsNumber (a) && (a->valuedouble == 0 || a->valuedouble == 1))
        *mode = a->valuedouble == 0 ? HOST_RESIZE_NEAREST : HOST_RESIZE_BILINEAR;
      else
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                       OP_FMT ": attribute %s: expected a string or 0/1", op->op_id, op_short (op),
                       resize_mode_keys[i]);
          return FALSE;
        }
      break;
    }
  for (guint i = 0; i < 2; i++)
    {
      const char *key = i == 0 ? "align_corners" : "align_corner";
      const cJSON *a = xir_op_get_attr (op, key);
      if (!a)
        continue;
      if (cJSON_IsBool (a))
        *align_corners = cJSON_IsTrue (a);
      else if (cJSON_IsNumber (a))
        *align_corners = a->valuedouble != 0;
      else
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute %s: expected a bool",
                       op->op_id, op_short (op), key);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
same_scales (const XirValue *a, const XirValue *b, guint channels)
{
  for (guint c = 0; c < channels; c++)
    if (scale_of (a, c) != scale_of (b, c))
      return FALSE;
  return TRUE;
}

gboolean
host_op_resize (const XirOp *op, const XirValue *in, const guint8 *in_data, const XirValue *out,
                guint8 *out_data, HostResizeMode mode, gboolean align_corners, GError **error)
{
  Geom gi, go;
  Elem ei, eo;

  g_return_val_if_fail (op != NULL && in != NULL && out != NULL, FALSE);
  if (!geom_of (op, in, &gi, error) || !geom_of (op, out, &go, error) || !elem_of (op, in, &ei, error)
      || !elem_of (op, out, &eo, error))
    return FALSE;
  if (gi.k != 0 || go.k != 0)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE, OP_FMT ": resize needs NHWC, got %s -> %s", op->op_id,
                   op_short (op), in->layout.text, out->layout.text);
      return FALSE;
    }
  if (gi.n != go.n || gi.c != go.c || ei != eo || gi.h == 0 || gi.w == 0)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT " and output " VID_FMT " must share N, C and element type", op->op_id,
                   op_short (op), in->v_id, out->v_id);
      return FALSE;
    }
  if (!check_scales (op, in, gi.c, error) || !check_scales (op, out, go.c, error))
    return FALSE;
  if (!same_scales (in, out, gi.c))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT " and output " VID_FMT " have different scales", op->op_id, op_short (op),
                   in->v_id, out->v_id);
      return FALSE;
    }

  for (guint oy = 0; oy < go.h; oy++)
    {
      double sy;
      guint y0, y1;
      double fy;

      if (mode == HOST_RESIZE_NEAREST)
        sy = MIN ((guint) floor ((double) oy * gi.h / go.h), gi.h - 1);
      else if (align_corners)
        sy = go.h > 1 ? (double) oy * (gi.h - 1) / (go.h - 1) : 0;
      else
        sy = MAX (((double) oy + 0.5) * gi.h / go.h - 0.5, 0.0);
      y0 = MIN ((guint) floor (sy), gi.h - 1);
      y1 = MIN (y0 + 1, gi.h - 1);
      fy = sy - y0;
      for (guint ox = 0; ox < go.w; ox++)
        {
          double sx;
          guint x0, x1;
          double fx;

          if (mode == HOST_RESIZE_NEAREST)
            sx = MIN ((guint) floor ((double) ox * gi.w / go.w), gi.w - 1);
          else if (align_corners)
            sx = go.w > 1 ? (double) ox * (gi.w - 1) / (go.w - 1) : 0;
          else
            sx = MAX (((double) ox + 0.5) * gi.w / go.w - 0.5, 0.0);
          x0 = MIN ((guint) floor (sx), gi.w - 1);
          x1 = MIN (x0 + 1, gi.w - 1);
          fx = sx - x0;
          for (guint n = 0; n < gi.n; n++)
            for (guint c = 0; c < gi.c; c++)
              {
                double v;
                if (mode == HOST_RESIZE_NEAREST)
                  v = elem_get (ei, in_data, geom_index (&gi, n, c, y0, x0));
                else
                  {
                    double a = elem_get (ei, in_data, geom_index (&gi, n, c, y0, x0));
                    double b = elem_get (ei, in_data, geom_index (&gi, n, c, y0, x1));
                    double d = elem_get (ei, in_data, geom_index (&gi, n, c, y1, x0));
                    double e = elem_get (ei, in_data, geom_index (&gi, n, c, y1, x1));
                    v = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
                  }
                elem_set (eo, out_data, geom_index (&go, n, c, oy, ox), v);
              }
        }
    }
  return TRUE;
}

/* ---- DetPostZG ------------------------------------------------------------------ */

static gboolean
attr_int (const XirOp *op, const char *key, gboolean required, gint lo, gint hi, gint def, gint *out,
          GError **error)
{
  gint64 v;

  if (!xir_op_get_attr (op, key))
    {
      if (!required)
        {
          *out = def;
          return TRUE;
        }
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute %s is missing", op->op_id,
                   op_short (op), key);
      return FALSE;
    }
  if (!xir_op_get_attr_int (op, key, &v, NULL) || v < lo || v > hi)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute %s must be an integer in [%d, %d]",
                   op->op_id, op_short (op), key, lo, hi);
      return FALSE;
    }
  *out = (gint) v;
  return TRUE;
}

void
host_detpost_zg_config_clear (HostDetPostConfig *cfg)
{
  g_clear_pointer (&cfg->data_thr, g_free);
  cfg->n_data_thr = 0;
}

gboolean
host_detpost_zg_config_init (HostDetPostConfig *cfg, const XirOp *op, GError **error)
{
  static const char *const chn_keys[HOST_DETPOST_MAX_MAPS] = { "chn_1st", "chn_2nd", "chn_3rd" };
  gint mask0, mask1;
  const cJSON *thr;
  guint full = 0;

  memset (cfg, 0, sizeof *cfg);
  if (!attr_int (op, "layer_en", TRUE, 0, G_MAXINT, 0, &cfg->layer_en, error)
      || !attr_int (op, "anchor_num", TRUE, 1, 64, 0, &cfg->anchor_num, error)
      || !attr_int (op, "cmp_en", TRUE, 0, 1, 0, &cfg->cmp_en, error)
      || !attr_int (op, "valid_chn", TRUE, 1, 8, 0, &cfg->valid_chn, error)
      || !attr_int (op, "cmp_mask0", FALSE, G_MININT32, G_MAXINT32, 0, &mask0, error)
      || !attr_int (op, "cmp_mask1", FALSE, G_MININT32, G_MAXINT32, -1, &mask1, error))
    return FALSE;
  cfg->maps_per_group = cfg->layer_en == 1 ? 1 : cfg->layer_en == 3 ? 2 : 3;
  for (guint f = 0; f < HOST_DETPOST_MAX_MAPS; f++)
    if (!attr_int (op, chn_keys[f], f < cfg->maps_per_group, f < cfg->maps_per_group ? 1 : 0, 64, 0,
                   &cfg->chn[f], error))
      return FALSE;
  for (guint f = 0; f < cfg->maps_per_group; f++)
    full += (guint) cfg->chn[f];
  if (!attr_int (op, "cmp_chn", cfg->cmp_en, 1, (gint) full, 1, &cfg->cmp_chn, error))
    return FALSE;
  cfg->cmp_mask = ((guint64) (guint32) mask1 << 32) | (guint32) mask0;
  if (!xir_op_get_attr (op, "thr_f"))
    cfg->thr_f = 0;
  else if (!xir_op_get_attr_double (op, "thr_f", &cfg->thr_f, NULL))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute thr_f must be a number", op->op_id,
                   op_short (op));
      return FALSE;
    }

  if (op->inputs->len == 0 || op->inputs->len % cfg->maps_per_group != 0
      || op->outputs->len != op->inputs->len / cfg->maps_per_group)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": layer_en %d groups %u map(s) per group, but the op has %u inputs and %u outputs",
                   op->op_id, op_short (op), cfg->layer_en, cfg->maps_per_group, op->inputs->len,
                   op->outputs->len);
      return FALSE;
    }
  cfg->n_groups = op->inputs->len / cfg->maps_per_group;

  thr = xir_op_get_attr (op, "data_thr");
  if (!cJSON_IsArray (thr))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute data_thr must be an array",
                   op->op_id, op_short (op));
      return FALSE;
    }
  cfg->n_data_thr = (guint) cJSON_GetArraySize (thr);
  if (cfg->n_data_thr < cfg->n_groups)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute data_thr: %u thresholds for %u groups",
                   op->op_id, op_short (op), cfg->n_data_thr, cfg->n_groups);
      cfg->n_data_thr = 0;
      return FALSE;
    }
  cfg->data_thr = g_new0 (gint, cfg->n_data_thr);
  for (guint i = 0; i < cfg->n_data_thr; i++)
    {
      const cJSON *t = cJSON_GetArrayItem (thr, (int) i);
      if (!cJSON_IsNumber (t) || t->valuedouble != floor (t->valuedouble) || fabs (t->valuedouble) > 1e6)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute data_thr[%u] is not an integer",
                       op->op_id, op_short (op), i);
          host_detpost_zg_config_clear (cfg);
          return FALSE;
        }
      cfg->data_thr[i] = (gint) t->valuedouble;
    }

  /* Record: full units of every map but the last; of the last, all units but one
   * plus valid_chn * 8 channels of the final one (the vendor's anchor_box_ByteSize). */
  for (guint f = 0; f + 1 < cfg->maps_per_group; f++)
    cfg->record_channels += (guint) cfg->chn[f] * 64;
  cfg->record_channels += ((guint) cfg->chn[cfg->maps_per_group - 1] - 1) * 64 + (guint) cfg->valid_chn * 8;
  cfg->record_bytes = cfg->record_channels + 8 * (guint) cfg->cmp_en;
  return TRUE;
}

/* Record channel @r -> (map, channel within the anchor). */
static void
record_channel_map (const HostDetPostConfig *cfg, guint r, guint *map, guint *ch)
{
  guint f = 0;

  while (f + 1 < cfg->maps_per_group && r >= (guint) cfg->chn[f] * 64)
    r -= (guint) cfg->chn[f++] * 64;
  *map = f;
  *ch = r;
}

typedef struct {
  const XirValue *v;
  Geom g;
  guint stride;      /* channels between anchors */
} DetMap;

static gboolean
detpost_maps (const XirOp *op, const HostDetPostConfig *cfg, guint group, DetMap *maps, GError **error)
{
  for (guint f = 0; f < cfg->maps_per_group; f++)
    {
      DetMap *m = &maps[f];
      guint need;
      Elem e;

      m->v = g_ptr_array_index (op->inputs, group * cfg->maps_per_group + f);
      if (!geom_of (op, m->v, &m->g, error) || !elem_of (op, m->v, &e, error))
        return FALSE;
      if (e != ELEM_S8)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                       OP_FMT ": input " VID_FMT ": the model handles sint8 heads only", op->op_id, op_short (op),
                       m->v->v_id);
          return FALSE;
        }
      if (!check_scales (op, m->v, m->g.c, error))
        return FALSE;
      m->stride = (guint) cfg->chn[f] * 64;
      need = (guint) (cfg->anchor_num - 1) * m->stride
             + (f + 1 < cfg->maps_per_group ? m->stride
                                              : ((guint) cfg->chn[f] - 1) * 64 + (guint) cfg->valid_chn * 8);
      if (m->g.n != 1 || m->g.c < need || (f > 0 && (m->g.h != maps[0].g.h || m->g.w != maps[0].g.w)))
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                       OP_FMT ": input " VID_FMT ": needs N = 1, >= %u channels (%d anchors x chn_%u %d x 64) and "
                       "the group's H and W; has N %u, C %u", op->op_id, op_short (op), m->v->v_id, need,
                       cfg->anchor_num, f + 1, cfg->chn[f], m->g.n, m->g.c);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
host_detpost_zg_run (const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs, guint *n_boxes,
                     GError **error)
{
  HostDetPostConfig cfg;
  gboolean ok = TRUE;

  g_return_val_if_fail (op != NULL && inputs != NULL && outputs != NULL, FALSE);
  if (!host_detpost_zg_config_init (&cfg, op, error))
    return FALSE;

  for (guint g = 0; g < cfg.n_groups && ok; g++)
    {
      DetMap maps[HOST_DETPOST_MAX_MAPS];
      const XirValue *ov = g_ptr_array_index (op->outputs, g);
      guint8 *dst = outputs[g];
      guint64 used = 0;
      guint count = 0;
      guint cmp_base = (guint) (cfg.cmp_chn - 1) * 64;

      if (!detpost_maps (op, &cfg, g, maps, error))
        {
          ok = FALSE;
          break;
        }
      memset (dst, 0, ov->storage_bytes);
      for (guint y = 0; y < maps[0].g.h && ok; y++)
        for (guint x = 0; x < maps[0].g.w && ok; x++)
          for (guint a = 0; a < (guint) cfg.anchor_num; a++)
            {
              gboolean pass = !cfg.cmp_en;
              guint8 *rec;

              for (guint i = 0; i < 64 && !pass && cfg.cmp_en; i++)
                {
                  guint f, ch;
                  const DetMap *m;

                  if (cfg.cmp_mask & (G_GUINT64_CONSTANT (1) << i))
                    continue;
                  record_channel_map (&cfg, cmp_base + i, &f, &ch);
                  m = &maps[f];
                  if (a * m->stride + ch >= m->g.c)
                    continue;
                  if ((gint8) inputs[g * cfg.maps_per_group + f][geom_index (&m->g, 0, a * m->stride + ch, y, x)]
                      >= cfg.data_thr[g])
                    pass = TRUE;
                }
              if (!pass)
                continue;
              if (used + cfg.record_bytes > ov->storage_bytes)
                {
                  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_CAPACITY,
                               OP_FMT ": output " VID_FMT ": more than %" G_GUINT64_FORMAT " boxes of %u bytes pass",
                               op->op_id, op_short (op), ov->v_id, ov->storage_bytes / cfg.record_bytes,
                               cfg.record_bytes);
                  ok = FALSE;
                  break;
                }
              rec = dst + used;
              for (guint r = 0; r < cfg.record_channels; r++)
                {
                  guint f, ch;
                  const DetMap *m;

                  record_channel_map (&cfg, r, &f, &ch);
                  m = &maps[f];
                  rec[r] = inputs[g * cfg.maps_per_group + f][geom_index (&m->g, 0, a * m->stride + ch, y, x)];
                }
              if (cfg.cmp_en)
                {
                  guint8 *t = rec + cfg.record_channels;
                  t[0] = t[1] = 0;
                  t[2] = x & 0xff; t[3] = (x >> 8) & 0xff;
                  t[4] = y & 0xff; t[5] = (y >> 8) & 0xff;
                  t[6] = a & 0xff; t[7] = (a >> 8) & 0xff;
                }
              used += cfg.record_bytes;
              count++;
            }
      if (n_boxes)
        n_boxes[g] = count;
    }
  host_detpost_zg_config_clear (&cfg);
  return ok;
}

/* YOLOv5's default anchors (P3/8, P4/16, P5/32), in input pixels. */
static const float yolov5_anchors[3 * 3 * 2] = {
  10, 13, 16, 30, 33, 23,
  30, 61, 62, 45, 59, 119,
  116, 90, 156, 198, 373, 326,
};

static double
sigmoid (double x)
{
  return 1.0 / (1.0 + exp (-x));
}

gboolean
host_detpost_zg_decode (const XirOp *op, const guint8 *const *outputs, const guint *n_boxes,
                        const HostDetPostDecodeParams *params, GArray *detections, GError **error)
{
  HostDetPostDecodeParams def = { 0 };
  HostDetPostConfig cfg;
  const float *anchors;
  guint n_classes;
  double conf;
  gboolean ok = TRUE;

  g_return_val_if_fail (op != NULL && outputs != NULL && n_boxes != NULL && detections != NULL, FALSE);
  if (!params)
    params = &def;
  if (!host_detpost_zg_config_init (&cfg, op, error))
    return FALSE;

  n_classes = params->n_classes ? params->n_classes
              : cfg.record_channels >= 85 ? 80 : (cfg.record_channels > 5 ? cfg.record_channels - 5 : 0);
  anchors = params->anchors ? params->anchors : yolov5_anchors;
  conf = params->conf_threshold > 0 ? params->conf_threshold : cfg.thr_f;
  if (n_classes == 0 || 5 + n_classes > cfg.record_channels)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": %u classes + 5 do not fit the %u channels of a record", op->op_id, op_short (op),
                   n_classes, cfg.record_channels);
      ok = FALSE;
    }
  else if ((params->anchors ? params->n_anchor_floats : G_N_ELEMENTS (yolov5_anchors))
           < cfg.n_groups * (guint) cfg.anchor_num * 2)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": decoding %u groups x %d anchors needs %u anchor floats", op->op_id, op_short (op),
                   cfg.n_groups, cfg.anchor_num, cfg.n_groups * (guint) cfg.anchor_num * 2);
      ok = FALSE;
    }

  for (guint g = 0; g < cfg.n_groups && ok; g++)
    {
      DetMap maps[HOST_DETPOST_MAX_MAPS];
      const XirValue *ov = g_ptr_array_index (op->outputs, g);
      double stride;

      if (!detpost_maps (op, &cfg, g, maps, error))
        {
          ok = FALSE;
          break;
        }
      if ((guint64) n_boxes[g] * cfg.record_bytes > ov->storage_bytes)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_CAPACITY,
                       OP_FMT ": output " VID_FMT ": %u boxes of %u bytes exceed its %" G_GUINT64_FORMAT " bytes",
                       op->op_id, op_short (op), ov->v_id, n_boxes[g], cfg.record_bytes, ov->storage_bytes);
          ok = FALSE;
          break;
        }
      stride = params->input_h ? (double) params->input_h / maps[0].g.h : (double) (8u << g);
      for (guint i = 0; i < n_boxes[g]; i++)
        {
          const guint8 *rec = outputs[g] + (gsize) i * cfg.record_bytes;
          HostDetection d = { 0 };
          double v[5], best = -G_MAXDOUBLE;
          const float *anc;

          if (cfg.cmp_en)
            {
              const guint8 *t = rec + cfg.record_channels;
              d.cell_x = t[2] | (t[3] << 8);
              d.cell_y = t[4] | (t[5] << 8);
              d.anchor = t[6] | (t[7] << 8);
            }
          else
            {
              d.anchor = i % (guint) cfg.anchor_num;
              d.cell_x = (i / (guint) cfg.anchor_num) % maps[0].g.w;
              d.cell_y = (i / (guint) cfg.anchor_num) / maps[0].g.w;
            }
          if (d.anchor >= (guint) cfg.anchor_num || d.cell_x >= maps[0].g.w || d.cell_y >= maps[0].g.h)
            {
              g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                           OP_FMT ": output " VID_FMT " record %u: cell (%u, %u) anchor %u is outside the head",
                           op->op_id, op_short (op), ov->v_id, i, d.cell_x, d.cell_y, d.anchor);
              ok = FALSE;
              break;
            }
          for (guint r = 0; r < 5 + n_classes; r++)
            {
              guint f, ch;
              double x;

              record_channel_map (&cfg, r, &f, &ch);
              x = (gint8) rec[r] * scale_of (maps[f].v, d.anchor * maps[f].stride + ch);
              if (r < 5)
                v[r] = x;
              else if (x > best)
                {
                  best = x;
                  d.cls = r - 5;
                }
            }
          d.group = g;
          d.objectness = (float) sigmoid (v[4]);
          d.class_score = (float) sigmoid (best);
          d.score = d.objectness * d.class_score;
          if (d.score <= conf)
            continue;
          anc = anchors + ((gsize) g * (guint) cfg.anchor_num + d.anchor) * 2;
          d.x = (float) ((2 * sigmoid (v[0]) + d.cell_x - 0.5) * stride);
          d.y = (float) ((2 * sigmoid (v[1]) + d.cell_y - 0.5) * stride);
          d.w = (float) (4 * pow (sigmoid (v[2]), 2) * anc[0]);
          d.h = (float) (4 * pow (sigmoid (v[3]), 2) * anc[1]);
          g_array_append_val (detections, d);
        }
    }
  host_detpost_zg_config_clear (&cfg);
  return ok;
}

gboolean
host_detpost_zg_candidates (const XirOp *op, guint64 *candidates, guint *record_bytes, GError **error)
{
  HostDetPostConfig cfg;
  guint64 n = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (op != NULL, FALSE);
  if (!host_detpost_zg_config_init (&cfg, op, error))
    return FALSE;
  for (guint g = 0; g < cfg.n_groups && ok; g++)
    {
      DetMap maps[HOST_DETPOST_MAX_MAPS];
      if (!detpost_maps (op, &cfg, g, maps, error))
        ok = FALSE;
      else
        n += (guint64) maps[0].g.h * maps[0].g.w * (guint64) cfg.anchor_num;
    }
  if (ok && candidates)
    *candidates = n;
  if (ok && record_bytes)
    *record_bytes = cfg.record_bytes;
  host_detpost_zg_config_clear (&cfg);
  return ok;
}

gboolean
host_detpost_is (const XirOp *op)
{
  g_return_val_if_fail (op != NULL, FALSE);
  return op->type_key != NULL
         && (g_str_equal (op->type_key, "customop::DetPostZG") || g_str_equal (op->type_key, "customop::DetPost"));
}

/* ---- ImageMake ------------------------------------------------------------------- */

static gboolean
attr_bool (const XirOp *op, const cJSON *tags, const char *key, gboolean def, gboolean *out, GError **error)
{
  const cJSON *a = xir_op_get_attr (op, key);

  if (a == NULL && tags != NULL)
    a = cJSON_GetObjectItemCaseSensitive (tags, key);
  if (a == NULL)
    *out = def;
  else if (cJSON_IsBool (a))
    *out = cJSON_IsTrue (a);
  else if (cJSON_IsNumber (a) && (a->valuedouble == 0 || a->valuedouble == 1))
    *out = a->valuedouble != 0;
  else
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute %s must be a boolean", op->op_id,
                   op_short (op), key);
      return FALSE;
    }
  return TRUE;
}

/* A numeric array attribute of @n_min..HOST_IMAGEMAKE_MAX_CHANNELS finite numbers. */
static gboolean
attr_doubles (const XirOp *op, const char *key, guint n_min, double lo, double hi, double *out, guint *n,
              GError **error)
{
  const cJSON *a = xir_op_get_attr (op, key);
  const cJSON *item;
  guint i = 0;

  if (!cJSON_IsArray (a) || (guint) cJSON_GetArraySize (a) < n_min
      || cJSON_GetArraySize (a) > HOST_IMAGEMAKE_MAX_CHANNELS)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": attribute %s must be an array of %u to %u numbers", op->op_id, op_short (op), key,
                   n_min, (guint) HOST_IMAGEMAKE_MAX_CHANNELS);
      return FALSE;
    }
  cJSON_ArrayForEach (item, a)
    {
      if (!cJSON_IsNumber (item) || !isfinite (item->valuedouble) || item->valuedouble < lo || item->valuedouble > hi)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                       OP_FMT ": attribute %s[%u] must be a number in [%g, %g]", op->op_id, op_short (op), key, i, lo,
                       hi);
          return FALSE;
        }
      out[i++] = item->valuedouble;
    }
  *n = i;
  return TRUE;
}

gboolean
host_image_make_config_init (HostImageMakeConfig *cfg, const XirOp *op, const cJSON *network_tags, GError **error)
{
  const XirValue *in, *out;
  Geom gi, go;
  Elem ei, eo;
  guint n_mean = 0, n_scale = 0, n_pad = 0;
  double pad[HOST_IMAGEMAKE_MAX_CHANNELS] = { 0 };

  g_return_val_if_fail (cfg != NULL && op != NULL, FALSE);
  memset (cfg, 0, sizeof *cfg);
  if (!expect_arity (op, 1, 1, error))
    return FALSE;
  in = g_ptr_array_index (op->inputs, 0);
  out = g_ptr_array_index (op->outputs, 0);
  if (!attr_int (op, "input_bits", FALSE, 1, 64, 8, &cfg->input_bits, error)
      || !attr_bool (op, NULL, "no_imkpad", FALSE, &cfg->no_imkpad, error)
      || !attr_bool (op, NULL, "pre_nop", FALSE, &cfg->pre_nop, error)
      || !attr_bool (op, network_tags, "bgr_order", FALSE, &cfg->bgr_order, error))
    return FALSE;
  if (cfg->input_bits != 8)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": attribute input_bits: %d-bit images have no model (8 only)", op->op_id, op_short (op),
                   cfg->input_bits);
      return FALSE;
    }
  if (!geom_of (op, in, &gi, error) || !geom_of (op, out, &go, error) || !elem_of (op, in, &ei, error)
      || !elem_of (op, out, &eo, error))
    return FALSE;
  if (gi.k != 0 || ei != ELEM_U8 || gi.n != 1)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT ": must be a uint8 NHWC image with N = 1", op->op_id, op_short (op),
                   in->v_id);
      return FALSE;
    }
  if (eo != ELEM_S8 || go.n != 1 || go.c < gi.c || !check_scales (op, out, go.c, error))
    {
      if (error && *error)
        return FALSE;
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": output " VID_FMT ": must be sint8 with N = 1 and at least the image's %u channels",
                   op->op_id, op_short (op), out->v_id, gi.c);
      return FALSE;
    }
  cfg->in_channels = gi.c;
  cfg->out_channels = go.c;
  if (!cfg->pre_nop
      && (!attr_doubles (op, "pre_mean_data", gi.c, -65536, 65536, cfg->mean, &n_mean, error)
          || !attr_doubles (op, "pre_scale_data", gi.c, 1e-30, 1e30, cfg->scale, &n_scale, error)))
    return FALSE;
  if (xir_op_get_attr (op, "pad_size") != NULL
      && !attr_doubles (op, "pad_size", 4, 0, 65536, pad, &n_pad, error))
    return FALSE;
  if (n_pad != 0 && n_pad != 4)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": attribute pad_size must have 4 entries (top, bottom, left, right)", op->op_id,
                   op_short (op));
      return FALSE;
    }
  for (guint i = 0; i < 4 && !cfg->no_imkpad; i++)
    {
      if (pad[i] != floor (pad[i]))
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute pad_size[%u] is not an integer",
                       op->op_id, op_short (op), i);
          return FALSE;
        }
      cfg->pad[i] = (guint) pad[i];
    }
  if (go.h != gi.h + cfg->pad[0] + cfg->pad[1] || go.w != gi.w + cfg->pad[2] + cfg->pad[3])
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": output " VID_FMT " is %ux%u but the %ux%u image padded by pad_size (%u, %u, %u, %u) "
                   "gives %ux%u", op->op_id, op_short (op), out->v_id, go.h, go.w, gi.h, gi.w, cfg->pad[0],
                   cfg->pad[1], cfg->pad[2], cfg->pad[3], gi.h + cfg->pad[0] + cfg->pad[1],
                   gi.w + cfg->pad[2] + cfg->pad[3]);
      return FALSE;
    }
  return TRUE;
}

gboolean
host_image_make_run (const XirOp *op, const cJSON *network_tags, const guint8 *input, guint8 *output,
                     GError **error)
{
  HostImageMakeConfig cfg;
  const XirValue *in, *out;
  Geom gi, go;

  g_return_val_if_fail (op != NULL && input != NULL && output != NULL, FALSE);
  if (!host_image_make_config_init (&cfg, op, network_tags, error))
    return FALSE;
  in = g_ptr_array_index (op->inputs, 0);
  out = g_ptr_array_index (op->outputs, 0);
  if (!geom_of (op, in, &gi, error) || !geom_of (op, out, &go, error))
    return FALSE;
  /* Padding pixels and padding channels are 0, the normalised zero. */
  memset (output, 0, out->storage_bytes);
  for (guint c = 0; c < cfg.in_channels; c++)
    {
      guint src = cfg.bgr_order && cfg.in_channels == 3 ? 2 - c : c;
      double s_out = scale_of (out, c);
      for (guint y = 0; y < gi.h; y++)
        for (guint x = 0; x < gi.w; x++)
          {
            double v = input[geom_index (&gi, 0, src, y, x)];
            double q = cfg.pre_nop ? v / s_out : (v + cfg.mean[c]) / cfg.scale[c] / s_out;
            elem_set (ELEM_S8, output, geom_index (&go, 0, c, y + cfg.pad[0], x + cfg.pad[2]), q);
          }
    }
  return TRUE;
}

/* ---- dispatch ---------------------------------------------------------------------- */

typedef enum { HOP_NONE, HOP_INPUT, HOP_OUTPUT, HOP_CAST, HOP_RESIZE, HOP_DETPOST, HOP_IMAGEMAKE } HostOpKind;

static HostOpKind
host_op_kind (const XirOp *op)
{
  const char *t = op->type_key ? op->type_key : "";

  if (op->kind == XIR_OP_INPUT)
    return HOP_INPUT;
  if (op->kind == XIR_OP_OUTPUT)
    return HOP_OUTPUT;
  if (g_str_equal (t, "icraft::xir::Cast"))
    return HOP_CAST;
  if (g_str_equal (t, "icraft::xir::Resize"))
    return HOP_RESIZE;
  if (g_str_equal (t, "customop::DetPostZG") || g_str_equal (t, "customop::DetPost"))
    return HOP_DETPOST;
  if (g_str_equal (t, "customop::ImageMake"))
    return HOP_IMAGEMAKE;
  return HOP_NONE;
}

gboolean
host_op_supported (const XirOp *op)
{
  g_return_val_if_fail (op != NULL, FALSE);
  return host_op_kind (op) != HOP_NONE;
}

gboolean
host_op_run (const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs, GError **error)
{
  g_return_val_if_fail (op != NULL, FALSE);

  switch (host_op_kind (op))
    {
    case HOP_INPUT:
      for (guint i = 0; i < op->outputs->len; i++)
        {
          const XirValue *v = g_ptr_array_index (op->outputs, i);
          if (!host_op_input_copy (op, i, inputs[i], v->storage_bytes, outputs[i], error))
            return FALSE;
        }
      return TRUE;
    case HOP_OUTPUT:
      if (outputs)
        for (guint i = 0; i < op->inputs->len; i++)
          {
            const XirValue *v = g_ptr_array_index (op->inputs, i);
            if (outputs[i] && v->storage_bytes)
              memcpy (outputs[i], inputs[i], v->storage_bytes);
          }
      return TRUE;
    case HOP_CAST:
      if (!expect_arity (op, 1, 1, error))
        return FALSE;
      return host_op_cast (op, g_ptr_array_index (op->inputs, 0), inputs[0], g_ptr_array_index (op->outputs, 0),
                           outputs[0], error);
    case HOP_RESIZE:
      {
        HostResizeMode mode;
        gboolean align;

        if (op->inputs->len < 1 || op->outputs->len != 1)
          return expect_arity (op, 1, 1, error);
        if (!host_resize_mode_from_op (op, &mode, &align, error))
          return FALSE;
        /* Extra inputs (a sizes or scales tensor) only repeat what the output shape says. */
        return host_op_resize (op, g_ptr_array_index (op->inputs, 0), inputs[0], g_ptr_array_index (op->outputs, 0),
                               outputs[0], mode, align, error);
      }
    case HOP_DETPOST:
      return host_detpost_zg_run (op, inputs, outputs, NULL, error);
    case HOP_IMAGEMAKE:
      if (!expect_arity (op, 1, 1, error))
        return FALSE;
      return host_image_make_run (op, NULL, inputs[0], outputs[0], error);
    case HOP_NONE:
    default:
      break;
    }
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_UNSUPPORTED, OP_FMT ": %s has no host model", op->op_id,
               op_short (op), op->type_key ? op->type_key : "(no _type_key)");
  return FALSE;
}
