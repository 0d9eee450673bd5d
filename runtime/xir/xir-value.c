/* xir-value.c — XirValue: a value or params object of the network (its element type,
 * layout, shape, memory type) parsed from its JSON, standalone values (new, copy), and the
 * accessors of the bindings.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* ---- values ------------------------------------------------------------- */

void
xir_value_free (XirValue *v)
{
  if (v == NULL)
    return;
  g_free (v->name);
  g_free (v->element.scales);
  g_free (v->element.scale_mantissas);
  g_free (v->element.scale_exponents);
  g_free (v->element.zero_points);
  g_free (v->element.norm_ratios);
  g_free (v->element.calib_min);
  g_free (v->element.calib_max);
  g_free (v->element.calib_sat);
  g_free (v->shape);
  g_strfreev (v->merged_distrs);
  cJSON_Delete (v->tags);
  if (v->consumers)
    g_array_unref (v->consumers);
  g_free (v);
}

/* ---- standalone values ----------------------------------------------------- */

static void
element_copy (XirElementType *dst, const XirElementType *src)
{
  *dst = *src;
  dst->scales = src->n_scales ? g_memdup2 (src->scales, sizeof (float) * src->n_scales) : NULL;
  dst->scale_mantissas = src->n_scales && src->scale_mantissas
                           ? g_memdup2 (src->scale_mantissas, sizeof (gint32) * src->n_scales) : NULL;
  dst->scale_exponents = src->n_scales && src->scale_exponents
                           ? g_memdup2 (src->scale_exponents, sizeof (gint32) * src->n_scales) : NULL;
  dst->zero_points = src->n_zero_points ? g_memdup2 (src->zero_points, sizeof (gint64) * src->n_zero_points) : NULL;
  dst->norm_ratios = src->n_norm_ratios ? g_memdup2 (src->norm_ratios, sizeof (float) * src->n_norm_ratios) : NULL;
  dst->calib_min = src->n_calibrated && src->calib_min ? g_memdup2 (src->calib_min, sizeof (double) * src->n_calibrated) : NULL;
  dst->calib_max = src->n_calibrated && src->calib_max ? g_memdup2 (src->calib_max, sizeof (double) * src->n_calibrated) : NULL;
  dst->calib_sat = src->n_calibrated && src->calib_sat ? g_memdup2 (src->calib_sat, sizeof (double) * src->n_calibrated) : NULL;
  if (dst->n_zero_points == 0)
    dst->zero_points = NULL;
}

XirValue *
xir_value_copy (const XirValue *value)
{
  XirValue *v;

  g_return_val_if_fail (value != NULL, NULL);
  v = g_new0 (XirValue, 1);
  v->v_id = value->v_id;
  v->name = g_strdup (value->name);
  v->is_params = value->is_params;
  v->param_index = -1;
  v->allow_no_data = value->allow_no_data;
  element_copy (&v->element, &value->element);
  v->layout = value->layout;
  v->rank = value->rank;
  v->shape = g_new0 (gint64, MAX (value->rank, 1));
  if (value->rank > 0)
    memcpy (v->shape, value->shape, sizeof (gint64) * value->rank);
  v->n_merged_distrs = value->merged_distrs ? value->n_merged_distrs : 0;
  v->merged_distrs = value->merged_distrs ? g_strdupv (value->merged_distrs) : g_new0 (char *, 1);
  v->mtype = value->mtype;
  v->n_elements = value->n_elements;
  v->storage_bytes = value->storage_bytes;
  v->tags = value->tags ? cJSON_Duplicate (value->tags, TRUE) : cJSON_CreateObject ();
  v->producer = -1;
  v->consumers = g_array_new (FALSE, FALSE, sizeof (guint));
  v->first_use = -1;
  v->last_use = -1;
  return v;
}

XirValue *
xir_value_new (const XirElementType *element, const char *layout, const gint64 *shape, guint rank, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *wrapped = NULL;
  XirValue *v;
  XirLayout lay;
  guint64 n_elements = 0, bits = 0;

  if (element == NULL || (shape == NULL && rank > 0))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, "standalone value: %s is NULL",
                   element == NULL ? "element" : "shape");
      return NULL;
    }
  if (element->storage.bits == 0 || element->storage.bits > 64)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: storage has %u bits (1 to 64)",
                   element->storage.bits);
      return NULL;
    }
  if (rank > XIR_LAYOUT_MAX_AXES)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE, "standalone value: shape has %u dimensions (at most %d)", rank,
                   XIR_LAYOUT_MAX_AXES);
      return NULL;
    }
  for (guint i = 0; i < rank; i++)
    if (shape[i] < 0 || shape[i] > G_GINT64_CONSTANT (4294967296))
      {
        g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE,
                     "standalone value: shape[%u] is %" G_GINT64_FORMAT ", must be in [0, 2^32]", i, shape[i]);
        return NULL;
      }
  if (!zw_shape_elements (shape, rank, (guint64) 1 << 40, &n_elements)
      || !zw_u64_mul (n_elements, element->storage.bits, &bits) || (bits + 7) / 8 > XIR_MAX_VALUE_BYTES)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE,
                   "standalone value: shape needs more than the 4 GiB a ZG330 can address");
      return NULL;
    }
  if (layout == NULL)
    layout = "*";
  if (!g_str_has_prefix (layout, "@layout("))
    layout = wrapped = g_strdup_printf ("@layout(%s)", layout);
  if (!xir_parse_layout (layout, &lay, &local))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: layout: %s", local->message);
      return NULL;
    }
  if (!lay.any_rank && lay.n_axes != rank)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: layout \"%s\" has %u axes but shape has %u",
                   lay.text, lay.n_axes, rank);
      return NULL;
    }
  for (guint i = 0; !lay.any_rank && i < rank; i++)
    if (lay.block[i] != 0 && (guint64) shape[i] != lay.block[i])
      {
        g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                     "standalone value: layout \"%s\" axis '%c' is a block of %u but shape[%u] is %" G_GINT64_FORMAT,
                     lay.text, lay.axes[i], lay.block[i], i, shape[i]);
        return NULL;
      }
  if (element->kind == XIR_ELEMENT_QUANTIZED || element->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED)
    {
      if (element->n_scales == 0 || element->scales == NULL)
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: a %s needs scales",
                       xir_element_kind_to_string (element->kind));
          return NULL;
        }
      for (guint i = 0; i < element->n_scales; i++)
        if (!isfinite (element->scales[i]) || element->scales[i] == 0.0f)
          {
            g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: scales[%u] is %g (finite, not 0)", i,
                         (double) element->scales[i]);
            return NULL;
          }
      if ((element->scale_mantissas == NULL) != (element->scale_exponents == NULL))
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                       "standalone value: exponent scales need both mantissas and exponents");
          return NULL;
        }
      if (element->n_zero_points > 0 && (element->zero_points == NULL
                                         || (element->n_zero_points != 1 && element->n_zero_points != element->n_scales)))
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                       "standalone value: %u zero_points for %u scales (0, 1 or one per scale)", element->n_zero_points,
                       element->n_scales);
          return NULL;
        }
      if (rank > 0 ? (element->scale_axis < -(gint) rank || element->scale_axis >= (gint) rank)
                   : element->scale_axis != -1 && element->scale_axis != 0)
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE, "standalone value: scale_axis %d is outside a shape of rank %u",
                       element->scale_axis, rank);
          return NULL;
        }
    }
  v = g_new0 (XirValue, 1);
  v->v_id = -1;
  v->param_index = -1;
  element_copy (&v->element, element);
  v->element.quantized = element->kind == XIR_ELEMENT_QUANTIZED || element->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED;
  if (!v->element.quantized)
    {
      g_clear_pointer (&v->element.scales, g_free);
      g_clear_pointer (&v->element.scale_mantissas, g_free);
      g_clear_pointer (&v->element.scale_exponents, g_free);
      g_clear_pointer (&v->element.zero_points, g_free);
      v->element.n_scales = 0;
      v->element.n_zero_points = 0;
    }
  if (v->element.kind == XIR_ELEMENT_PLAIN)
    v->element.expressed = v->element.storage;
  v->layout = lay;
  v->rank = rank;
  v->shape = g_new0 (gint64, MAX (rank, 1));
  if (rank > 0)
    memcpy (v->shape, shape, sizeof (gint64) * rank);
  v->merged_distrs = g_new0 (char *, 1);
  v->mtype.kind = XIR_MEM_HOST;
  v->n_elements = n_elements;
  v->storage_bytes = (bits + 7) / 8;
  v->tags = cJSON_CreateObject ();
  v->producer = -1;
  v->consumers = g_array_new (FALSE, FALSE, sizeof (guint));
  v->first_use = -1;
  v->last_use = -1;
  return v;
}

G_DEFINE_BOXED_TYPE (XirValue, xir_value, xir_value_copy, xir_value_free)

static gboolean
parse_scalar_field (const Ctx *ctx, const cJSON *item, const char *key, XirScalarType *out, GError **error)
{
  const char *s = xir_json_item_string (ctx, item, key, TRUE, error);
  GError *local = NULL;

  if (s == NULL)
    return FALSE;
  if (!xir_parse_scalar_type (s, out, &local))
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: %s: %s", xir_ctx_where (ctx), key, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* CalibratedType: "min", "max", "sat" arrays of one length (finite numbers). */
static gboolean
parse_calibrated (const Ctx *ctx, const cJSON *e, XirElementType *el, GError **error)
{
  const char *keys[] = { "min", "max", "sat" };
  double **cols[] = { &el->calib_min, &el->calib_max, &el->calib_sat };

  for (guint k = 0; k < 3; k++)
    {
      const cJSON *arr = xir_json_get_typed (ctx, e, keys[k], TRUE, cJSON_IsArray, "an array", error), *x;
      guint n, i = 0;

      if (arr == NULL)
        return FALSE;
      n = (guint) cJSON_GetArraySize (arr);
      if (k == 0)
        el->n_calibrated = n;
      else if (n != el->n_calibrated)
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: %s has %u numbers but min has %u", xir_ctx_where (ctx),
                         keys[k], n, el->n_calibrated);
          return FALSE;
        }
      *cols[k] = g_new0 (double, MAX (n, 1));
      cJSON_ArrayForEach (x, arr)
        {
          if (zw_json_double (x, -G_MAXDOUBLE, G_MAXDOUBLE, &(*cols[k])[i]) != ZW_NUM_OK)
            {
              xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: %s[%u] must be a finite number", xir_ctx_where (ctx),
                             keys[k], i);
              return FALSE;
            }
          i++;
        }
    }
  return TRUE;
}

/* The keys of an element type object. */
enum { EL_TYPE_KEY, EL_STORAGE, EL_EXPRESSED, EL_NORMRATIO, EL_SCALE, EL_ZERO_POINTS, N_EL_KEYS };
static const char *const element_keys[N_EL_KEYS] = {
  "_type_key", "storage_dtype", "expressed_dtype", "normratio", "scale", "zero_points",
};

/* @e: the dtype's "element_dtype" (NULL if missing) */
static gboolean
parse_element (const Ctx *ctx, const cJSON *e, XirElementType *el, GError **error)
{
  Ctx sub;
  const char *type_key, *scale;
  const cJSON *zps, *f[N_EL_KEYS];
  GError *local = NULL;

  memset (el, 0, sizeof *el);
  if (e == NULL)
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"element_dtype\"", xir_ctx_where (ctx));
      return FALSE;
    }
  if (cJSON_IsString (e))
    {
      if (!xir_parse_scalar_type (e->valuestring, &el->storage, &local))
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: element_dtype: %s", xir_ctx_where (ctx), local->message);
          g_error_free (local);
          return FALSE;
        }
      return TRUE;
    }
  if (!cJSON_IsObject (e))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin,
                     "%s: field \"element_dtype\" must be a string or a QuantizedType object", xir_ctx_where (ctx));
      return FALSE;
    }
  ctx_init (&sub, ctx->origin, ctx, CTX_SUFFIX, "element_dtype", 0, 0);
  xir_json_fields (e, element_keys, N_EL_KEYS, f);
  type_key = xir_json_item_string (&sub, f[EL_TYPE_KEY], "_type_key", TRUE, error);
  if (type_key == NULL)
    return FALSE;
  if (strcmp (type_key, "icraft::xir::QuantizedType") == 0)
    el->kind = XIR_ELEMENT_QUANTIZED;
  else if (strcmp (type_key, "icraft::xir::NormalizedQuantizedType") == 0)
    el->kind = XIR_ELEMENT_NORMALIZED_QUANTIZED;
  else if (strcmp (type_key, "icraft::xir::NormalizedType") == 0)
    el->kind = XIR_ELEMENT_NORMALIZED;
  else if (strcmp (type_key, "icraft::xir::CalibratedType") == 0)
    el->kind = XIR_ELEMENT_CALIBRATED;
  else
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx->origin,
                     "%s: unknown element type \"%s\" (expected QuantizedType, NormalizedQuantizedType, "
                     "NormalizedType or CalibratedType)", xir_ctx_where (&sub), type_key);
      return FALSE;
    }
  el->quantized = el->kind == XIR_ELEMENT_QUANTIZED || el->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED;
  el->scale_axis = -1;
  el->norm_axis = -1;
  if (!parse_scalar_field (&sub, f[EL_STORAGE], "storage_dtype", &el->storage, error))
    return FALSE;
  if (f[EL_EXPRESSED] != NULL)
    {
      if (!parse_scalar_field (&sub, f[EL_EXPRESSED], "expressed_dtype", &el->expressed, error))
        return FALSE;
    }
  else
    {
      el->expressed.kind = XIR_SCALAR_FP;
      el->expressed.bits = 32;
    }
  if (el->kind == XIR_ELEMENT_NORMALIZED || el->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED)
    {
      const char *ratios = xir_json_item_string (&sub, f[EL_NORMRATIO], "normratio", TRUE, error);
      if (ratios == NULL)
        return FALSE;
      if (!xir_parse_norm_ratios (ratios, &el->norm_axis, &el->norm_ratios, &el->n_norm_ratios, &local))
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: normratio: %s", xir_ctx_where (&sub), local->message);
          g_error_free (local);
          return FALSE;
        }
    }
  if (el->kind == XIR_ELEMENT_CALIBRATED)
    return parse_calibrated (&sub, e, el, error);
  if (!el->quantized)
    return TRUE;
  scale = xir_json_item_string (&sub, f[EL_SCALE], "scale", TRUE, error);
  if (scale == NULL)
    return FALSE;
  if (g_str_has_prefix (scale, "@exp_scales(")
          ? !xir_parse_exp_scales (scale, &el->scale_axis, &el->scales, &el->scale_mantissas, &el->scale_exponents,
                                   &el->n_scales, &local)
          : !xir_parse_scales (scale, &el->scale_axis, &el->scales, &el->n_scales, &local))
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: scale: %s", xir_ctx_where (&sub), local->message);
      g_error_free (local);
      return FALSE;
    }
  zps = xir_json_item_typed (&sub, f[EL_ZERO_POINTS], "zero_points", FALSE, cJSON_IsArray, "an array", error);
  if (zps == NULL && f[EL_ZERO_POINTS] != NULL)
    return FALSE;
  if (zps != NULL)
    {
      guint n = (guint) cJSON_GetArraySize (zps), i = 0;
      const cJSON *z;

      el->zero_points = n > 0 ? g_new0 (gint64, n) : NULL;
      cJSON_ArrayForEach (z, zps)
        {
          if (zw_json_int64 (z, -G_GINT64_CONSTANT (1000000000000000), G_GINT64_CONSTANT (1000000000000000),
                             &el->zero_points[i]) != ZW_NUM_OK)
            {
              xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: zero_points[%u] must be an integer", xir_ctx_where (&sub), i);
              return FALSE;
            }
          i++;
        }
      el->n_zero_points = n;
    }
  return TRUE;
}

/* The keys of a Value or Params object, and of its dtype. */
enum { V_ID, V_TYPE_KEY, V_NAME, V_ALLOW_NO_DATA, V_DTYPE, V_MTYPE, V_TAGS, N_V_KEYS };
static const char *const value_keys[N_V_KEYS] = {
  "v_id", "_type_key", "name", "_allow_no_data", "dtype", "mtype", "tags",
};
enum { D_TYPE_KEY, D_ELEMENT, D_LAYOUT, D_SHAPE, D_MERGED_DISTRS, N_D_KEYS };
static const char *const dtype_keys[N_D_KEYS] = {
  "_type_key", "element_dtype", "layout", "shape", "merged_distrs",
};

/* @s as xir_json_item_string() found it in @item: a copy, or with @take the tree's own string, taken
 * out of it (cJSON allocates with malloc, as g_free frees: no cJSON_InitHooks here). */
char *
xir_string_keep (const cJSON *item, const char *s, gboolean take)
{
  if (take && item != NULL && item->valuestring == s)
    {
      ((cJSON *) item)->valuestring = NULL;
      return (char *) s;
    }
  return g_strdup (s);
}

/* Parses a Value or Params object into a new XirValue. @consume: nothing reads @obj later
 * (no comparison with it), so its strings and "tags" may be taken out of it instead of
 * copied. */
XirValue *
xir_value_parse (const Ctx *op_ctx, const char *field, guint idx, const cJSON *obj, gboolean is_params,
             gboolean consume, GArray *no_consumers, GError **error)
{
  g_autoptr (GError) local = NULL;
  XirValue *v = g_new0 (XirValue, 1);
  Ctx ctx;
  const cJSON *dtype, *shape, *distrs, *tags, *item, *anod, *f[N_V_KEYS], *df[N_D_KEYS];
  const char *type_key, *name, *mtype, *layout;
  guint64 n_elements = 1;
  guint i;

  v->param_index = -1;
  v->producer = -1;
  v->first_use = -1;
  v->last_use = -1;
  ctx_init (&ctx, op_ctx->origin, op_ctx, CTX_VALUE_INDEX, field, idx, 0);
  if (!cJSON_IsObject (obj))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: must be an object", xir_ctx_where (&ctx));
      goto fail;
    }
  xir_json_fields (obj, value_keys, N_V_KEYS, f);
  if (!xir_json_item_int64 (&ctx, f[V_ID], "v_id", TRUE, &v->v_id, error))
    goto fail;
  ctx_init (&ctx, op_ctx->origin, op_ctx, CTX_VALUE, field, idx, v->v_id);
  type_key = xir_json_item_string (&ctx, f[V_TYPE_KEY], "_type_key", TRUE, error);
  if (type_key == NULL)
    goto fail;
  if (strcmp (type_key, is_params ? "icraft::xir::Params" : "icraft::xir::Value") != 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: _type_key is \"%s\", expected \"%s\"",
                     xir_ctx_where (&ctx), type_key, is_params ? "icraft::xir::Params" : "icraft::xir::Value");
      goto fail;
    }
  v->is_params = is_params;
  name = xir_json_item_string (&ctx, f[V_NAME], "name", FALSE, error);
  if (name == NULL)
    goto fail;
  v->name = xir_string_keep (f[V_NAME], name, consume);
  anod = f[V_ALLOW_NO_DATA];
  if (anod != NULL)
    {
      if (!cJSON_IsBool (anod))
        {
          xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: field \"_allow_no_data\" must be a boolean", xir_ctx_where (&ctx));
          goto fail;
        }
      v->allow_no_data = cJSON_IsTrue (anod);
    }

  dtype = xir_json_item_typed (&ctx, f[V_DTYPE], "dtype", TRUE, cJSON_IsObject, "an object", error);
  if (dtype == NULL)
    goto fail;
  {
    Ctx dctx;
    const char *dkey;

    ctx_init (&dctx, ctx.origin, &ctx, CTX_SUFFIX, "dtype", 0, 0);
    xir_json_fields (dtype, dtype_keys, N_D_KEYS, df);
    dkey = xir_json_item_string (&dctx, df[D_TYPE_KEY], "_type_key", TRUE, error);
    if (dkey == NULL)
      goto fail;
    if (strcmp (dkey, "icraft::xir::TensorType") != 0)
      {
        xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: unknown type \"%s\" (expected icraft::xir::TensorType)",
                       xir_ctx_where (&dctx), dkey);
        goto fail;
      }
    if (!parse_element (&dctx, df[D_ELEMENT], &v->element, error))
      goto fail;
    layout = xir_json_item_string (&dctx, df[D_LAYOUT], "layout", TRUE, error);
    if (layout == NULL)
      goto fail;
    if (!xir_parse_layout (layout, &v->layout, &local))
      {
        xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: layout: %s", xir_ctx_where (&dctx), local->message);
        goto fail;
      }
    shape = xir_json_item_typed (&dctx, df[D_SHAPE], "shape", TRUE, cJSON_IsArray, "an array", error);
    if (shape == NULL)
      goto fail;
    v->rank = (guint) cJSON_GetArraySize (shape);
    if (v->rank > XIR_LAYOUT_MAX_AXES)
      {
        xir_set_error (error, XIR_ERROR_RANGE, ctx.origin, "%s: shape has %u dimensions (at most %d)",
                       xir_ctx_where (&dctx), v->rank, XIR_LAYOUT_MAX_AXES);
        goto fail;
      }
    v->shape = g_new0 (gint64, MAX (v->rank, 1));
    i = 0;
    cJSON_ArrayForEach (item, shape)
      {
        if (zw_json_int64 (item, 0, G_GINT64_CONSTANT (4294967296), &v->shape[i]) != ZW_NUM_OK)
          {
            xir_set_error (error, XIR_ERROR_RANGE, ctx.origin,
                           "%s: shape[%u] must be an integer in [0, 2^32]", xir_ctx_where (&dctx), i);
            goto fail;
          }
        if (v->shape[i] != 0 && n_elements > G_MAXUINT64 / 64 / (guint64) v->shape[i])
          {
            xir_set_error (error, XIR_ERROR_RANGE, ctx.origin, "%s: shape is too large", xir_ctx_where (&dctx));
            goto fail;
          }
        n_elements *= (guint64) v->shape[i];
        i++;
      }
    if (n_elements > ((guint64) 1 << 40))
      {
        xir_set_error (error, XIR_ERROR_RANGE, ctx.origin,
                       "%s: shape has %" G_GUINT64_FORMAT " elements (more than 2^40)", xir_ctx_where (&dctx), n_elements);
        goto fail;
      }
    if (!v->layout.any_rank && v->layout.n_axes != v->rank)
      {
        xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: layout \"%s\" has %u axes but shape has %u",
                       xir_ctx_where (&dctx), v->layout.text, v->layout.n_axes, v->rank);
        goto fail;
      }
    for (i = 0; !v->layout.any_rank && i < v->rank; i++)
      if (v->layout.block[i] != 0 && (guint64) v->shape[i] != v->layout.block[i])
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx.origin,
                         "%s: layout \"%s\" axis '%c' is a block of %u but shape[%u] is %" G_GINT64_FORMAT,
                         xir_ctx_where (&dctx), v->layout.text, v->layout.axes[i], v->layout.block[i], i, v->shape[i]);
          goto fail;
        }
    v->n_elements = n_elements;
    v->storage_bytes = (n_elements * v->element.storage.bits + 7) / 8;
    if (v->storage_bytes > XIR_MAX_VALUE_BYTES)
      {
        xir_set_error (error, XIR_ERROR_RANGE, ctx.origin,
                       "%s: shape needs %" G_GUINT64_FORMAT " bytes, more than the 4 GiB a ZG330 can address",
                       xir_ctx_where (&dctx), v->storage_bytes);
        goto fail;
      }
    distrs = xir_json_item_typed (&dctx, df[D_MERGED_DISTRS], "merged_distrs", FALSE, cJSON_IsArray, "an array", error);
    if (distrs == NULL && df[D_MERGED_DISTRS] != NULL)
      goto fail;
    v->n_merged_distrs = distrs ? (guint) cJSON_GetArraySize (distrs) : 0;
    v->merged_distrs = g_new0 (char *, v->n_merged_distrs + 1);
    i = 0;
    if (distrs != NULL)
      cJSON_ArrayForEach (item, distrs)
        {
          if (!cJSON_IsString (item))
            {
              xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: merged_distrs[%u] must be a string", xir_ctx_where (&dctx), i);
              goto fail;
            }
          v->merged_distrs[i++] = xir_string_keep (item, item->valuestring, consume);
        }
  }

  mtype = xir_json_item_string (&ctx, f[V_MTYPE], "mtype", TRUE, error);
  if (mtype == NULL)
    goto fail;
  if (!xir_parse_mtype (mtype, &v->mtype, &local))
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: mtype: %s", xir_ctx_where (&ctx), local->message);
      goto fail;
    }
  tags = f[V_TAGS];
  if (tags != NULL && !cJSON_IsObject (tags))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: field \"tags\" must be an object", xir_ctx_where (&ctx));
      goto fail;
    }
  if (tags == NULL)
    v->tags = cJSON_CreateObject ();
  else if (consume)
    v->tags = cJSON_DetachItemViaPointer ((cJSON *) obj, (cJSON *) tags);
  else
    v->tags = cJSON_Duplicate (tags, TRUE);
  /* params are read by no op: they share one empty list */
  v->consumers = is_params ? g_array_ref (no_consumers) : g_array_new (FALSE, FALSE, sizeof (guint));
  return v;

fail:
  xir_value_free (v);
  return NULL;
}

/* Two appearances of one v_id must describe the same tensor. */
gboolean
xir_value_same (const XirValue *a, const XirValue *b)
{
  if (a->rank != b->rank || a->element.quantized != b->element.quantized
      || a->element.storage.kind != b->element.storage.kind || a->element.storage.bits != b->element.storage.bits
      || strcmp (a->layout.text, b->layout.text) != 0 || a->mtype.kind != b->mtype.kind
      || a->mtype.chunk_id != b->mtype.chunk_id || a->mtype.offset != b->mtype.offset
      || a->mtype.addr != b->mtype.addr || a->element.n_scales != b->element.n_scales
      || a->element.kind != b->element.kind || a->element.n_norm_ratios != b->element.n_norm_ratios)
    return FALSE;
  if (a->element.n_norm_ratios > 0
      && memcmp (a->element.norm_ratios, b->element.norm_ratios, a->element.n_norm_ratios * sizeof (float)) != 0)
    return FALSE;
  for (guint i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i])
      return FALSE;
  return a->element.n_scales == 0
         || memcmp (a->element.scales, b->element.scales, a->element.n_scales * sizeof (float)) == 0;
}

const gint64 *
xir_value_get_shape (const XirValue *value, guint *rank)
{
  g_return_val_if_fail (value != NULL && rank != NULL, NULL);
  *rank = value->rank;
  return value->shape;
}

char *
xir_value_get_storage_text (const XirValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);
  return xir_scalar_type_to_string (&value->element.storage);
}

const char *
xir_value_get_layout_text (const XirValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);
  return value->layout.text[0] != '\0' ? value->layout.text : "*";
}
