/* host-ops.c — CPU models of Input, Output, Cast and Resize, the element and geometry
 * helpers every host op uses, and the dispatch by op type; the board IP models of
 * customop::DetPostZG / DetPost and customop::ImageMake are host-detpost.c and
 * host-image-make.c.
 * See host-ops.h for the contracts, in particular the IP models and their sources. */
#include "backends/host/host-ops-private.h"

#include <math.h>
#include <string.h>

#include "kernels/zg330-kernels.h"

G_DEFINE_QUARK (host-op-error-quark, host_op_error)

/* ---- element access ------------------------------------------------------- */

const char *
host_op_short (const XirOp *op)
{
  const char *t = op->type_key ? op->type_key : "?";
  const char *colon = strrchr (t, ':');

  return colon ? colon + 1 : t;
}

gboolean
host_elem_of (const XirOp *op, const XirValue *v, Elem *out, GError **error)
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
                   OP_FMT ": " VID_FMT ": element type %s has no host model", op->op_id, host_op_short (op),
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

void
host_elem_set (Elem e, guint8 *base, gsize i, double v)
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

gboolean
host_geom_of (const XirOp *op, const XirValue *v, Geom *g, GError **error)
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
               op->op_id, host_op_short (op), v->v_id, l->text, v->rank);
  return FALSE;
}

gsize
host_geom_index (const Geom *g, guint n, guint c, guint h, guint w)
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
gboolean
host_check_scales (const XirOp *op, const XirValue *v, guint channels, GError **error)
{
  if (!v->element.quantized || v->element.n_scales == 0 || v->element.n_scales == 1
      || v->element.n_scales >= channels)
    return TRUE;
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
               OP_FMT ": " VID_FMT ": %u scales for %u channels", op->op_id, host_op_short (op), v->v_id,
               v->element.n_scales, channels);
  return FALSE;
}

/* value = q x normratio[c] x scale[c] (norm ratios: a Buyi NormalizedQuantizedType), the
 * product rounded to float as the hardop models do (zg330-hardop.h). */
double
host_scale_of (const XirValue *v, guint c)
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

gboolean
host_expect_arity (const XirOp *op, guint n_in, guint n_out, GError **error)
{
  if (op->inputs->len == n_in && op->outputs->len == n_out)
    return TRUE;
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
               OP_FMT ": expects %u input(s) and %u output(s), has %u and %u", op->op_id, host_op_short (op), n_in,
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
                   host_op_short (op), index, op->outputs->len);
      return FALSE;
    }
  v = g_ptr_array_index (op->outputs, index);
  if (size != v->storage_bytes || (size > 0 && data == NULL))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_SIZE,
                   OP_FMT ": input %u (" VID_FMT "): the tensor has %" G_GSIZE_FORMAT " bytes, the value needs %"
                   G_GUINT64_FORMAT, op->op_id, host_op_short (op), index, v->v_id, size, v->storage_bytes);
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
  if (!host_geom_of (op, in, &gi, error) || !host_geom_of (op, out, &go, error) || !host_elem_of (op, in, &ei, error)
      || !host_elem_of (op, out, &eo, error))
    return FALSE;
  if (gi.n != go.n || gi.c != go.c || gi.h != go.h || gi.w != go.w)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT " is [%u,%u,%u,%u] (NCHW) but output " VID_FMT " is [%u,%u,%u,%u]",
                   op->op_id, host_op_short (op), in->v_id, gi.n, gi.c, gi.h, gi.w, out->v_id, go.n, go.c, go.h, go.w);
      return FALSE;
    }
  if (!host_check_scales (op, in, gi.c, error) || !host_check_scales (op, out, go.c, error))
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
          g_prefix_error (error, OP_FMT ": ", op->op_id, host_op_short (op));
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
            double x = elem_get (ei, in_data, host_geom_index (&gi, n, c, h, w));
            double y;

            if (elem_is_float (eo))
              y = elem_is_float (ei) ? x : (double) ((float) x * (float) host_scale_of (in, c));
            else if (elem_is_float (ei))
              y = x / host_scale_of (out, c);
            else
              y = x * (host_scale_of (in, c) / host_scale_of (out, c));
            host_elem_set (eo, out_data, host_geom_index (&go, n, c, h, w), y);
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
                           host_op_short (op), resize_mode_keys[i], a->valuestring);
              return FALSE;
            }
        }
      else if (cJSON_IsNumber (a) && (a->valuedouble == 0 || a->valuedouble == 1))
        *mode = a->valuedouble == 0 ? HOST_RESIZE_NEAREST : HOST_RESIZE_BILINEAR;
      else
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                       OP_FMT ": attribute %s: expected a string or 0/1", op->op_id, host_op_short (op),
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
                       op->op_id, host_op_short (op), key);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
same_scales (const XirValue *a, const XirValue *b, guint channels)
{
  for (guint c = 0; c < channels; c++)
    if (host_scale_of (a, c) != host_scale_of (b, c))
      return FALSE;
  return TRUE;
}

/* Along one axis of @in_size resized to @out_size: the input indices output index @o reads
 * (@i0 and the next, @i1, clamped) and the weight of @i1 (@f; 0 for nearest). */
static void
resize_source (guint o, guint in_size, guint out_size, HostResizeMode mode, gboolean align_corners, guint *i0,
               guint *i1, double *f)
{
  double s;

  if (mode == HOST_RESIZE_NEAREST)
    s = MIN ((guint) floor ((double) o * in_size / out_size), in_size - 1);
  else if (align_corners)
    s = out_size > 1 ? (double) o * (in_size - 1) / (out_size - 1) : 0;
  else
    s = MAX (((double) o + 0.5) * in_size / out_size - 0.5, 0.0);
  *i0 = MIN ((guint) floor (s), in_size - 1);
  *i1 = MIN (*i0 + 1, in_size - 1);
  *f = s - *i0;
}

gboolean
host_op_resize (const XirOp *op, const XirValue *in, const guint8 *in_data, const XirValue *out,
                guint8 *out_data, HostResizeMode mode, gboolean align_corners, GError **error)
{
  Geom gi, go;
  Elem ei, eo;

  g_return_val_if_fail (op != NULL && in != NULL && out != NULL, FALSE);
  if (!host_geom_of (op, in, &gi, error) || !host_geom_of (op, out, &go, error) || !host_elem_of (op, in, &ei, error)
      || !host_elem_of (op, out, &eo, error))
    return FALSE;
  if (gi.k != 0 || go.k != 0)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE, OP_FMT ": resize needs NHWC, got %s -> %s", op->op_id,
                   host_op_short (op), in->layout.text, out->layout.text);
      return FALSE;
    }
  if (gi.n != go.n || gi.c != go.c || ei != eo || gi.h == 0 || gi.w == 0)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT " and output " VID_FMT " must share N, C and element type", op->op_id,
                   host_op_short (op), in->v_id, out->v_id);
      return FALSE;
    }
  if (!host_check_scales (op, in, gi.c, error) || !host_check_scales (op, out, go.c, error))
    return FALSE;
  if (!same_scales (in, out, gi.c))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT " and output " VID_FMT " have different scales", op->op_id, host_op_short (op),
                   in->v_id, out->v_id);
      return FALSE;
    }

  for (guint oy = 0; oy < go.h; oy++)
    {
      guint y0, y1;
      double fy;

      resize_source (oy, gi.h, go.h, mode, align_corners, &y0, &y1, &fy);
      for (guint ox = 0; ox < go.w; ox++)
        {
          guint x0, x1;
          double fx;

          resize_source (ox, gi.w, go.w, mode, align_corners, &x0, &x1, &fx);
          for (guint n = 0; n < gi.n; n++)
            for (guint c = 0; c < gi.c; c++)
              {
                double v;
                if (mode == HOST_RESIZE_NEAREST)
                  v = elem_get (ei, in_data, host_geom_index (&gi, n, c, y0, x0));
                else
                  {
                    double a = elem_get (ei, in_data, host_geom_index (&gi, n, c, y0, x0));
                    double b = elem_get (ei, in_data, host_geom_index (&gi, n, c, y0, x1));
                    double d = elem_get (ei, in_data, host_geom_index (&gi, n, c, y1, x0));
                    double e = elem_get (ei, in_data, host_geom_index (&gi, n, c, y1, x1));
                    v = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
                  }
                host_elem_set (eo, out_data, host_geom_index (&go, n, c, oy, ox), v);
              }
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
      if (!host_expect_arity (op, 1, 1, error))
        return FALSE;
      return host_op_cast (op, g_ptr_array_index (op->inputs, 0), inputs[0], g_ptr_array_index (op->outputs, 0),
                           outputs[0], error);
    case HOP_RESIZE:
      {
        HostResizeMode mode;
        gboolean align;

        if (op->inputs->len < 1 || op->outputs->len != 1)
          return host_expect_arity (op, 1, 1, error);
        if (!host_resize_mode_from_op (op, &mode, &align, error))
          return FALSE;
        /* Extra inputs (a sizes or scales tensor) only repeat what the output shape says. */
        return host_op_resize (op, g_ptr_array_index (op->inputs, 0), inputs[0], g_ptr_array_index (op->outputs, 0),
                               outputs[0], mode, align, error);
      }
    case HOP_DETPOST:
      return host_detpost_zg_run (op, inputs, outputs, NULL, error);
    case HOP_IMAGEMAKE:
      if (!host_expect_arity (op, 1, 1, error))
        return FALSE;
      return host_image_make_run (op, NULL, inputs[0], outputs[0], error);
    case HOP_NONE:
    default:
      break;
    }
  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_UNSUPPORTED, OP_FMT ": %s has no host model", op->op_id,
               host_op_short (op), op->type_key ? op->type_key : "(no _type_key)");
  return FALSE;
}

