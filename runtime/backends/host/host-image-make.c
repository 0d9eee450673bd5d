/* host-image-make.c — the board IP model of customop::ImageMake (host-ops.h): its
 * configuration from the op's attributes and the network's tags, and the run. */
#include "backends/host/host-ops-private.h"

#include <math.h>
#include <string.h>

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
                   host_op_short (op), key);
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
                   OP_FMT ": attribute %s must be an array of %u to %u numbers", op->op_id, host_op_short (op), key,
                   n_min, (guint) HOST_IMAGEMAKE_MAX_CHANNELS);
      return FALSE;
    }
  cJSON_ArrayForEach (item, a)
    {
      if (!cJSON_IsNumber (item) || !isfinite (item->valuedouble) || item->valuedouble < lo || item->valuedouble > hi)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                       OP_FMT ": attribute %s[%u] must be a number in [%g, %g]", op->op_id, host_op_short (op), key, i, lo,
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
  if (!host_expect_arity (op, 1, 1, error))
    return FALSE;
  in = g_ptr_array_index (op->inputs, 0);
  out = g_ptr_array_index (op->outputs, 0);
  if (!host_attr_int (op, "input_bits", FALSE, 1, 64, 8, &cfg->input_bits, error)
      || !attr_bool (op, NULL, "no_imkpad", FALSE, &cfg->no_imkpad, error)
      || !attr_bool (op, NULL, "pre_nop", FALSE, &cfg->pre_nop, error)
      || !attr_bool (op, network_tags, "bgr_order", FALSE, &cfg->bgr_order, error))
    return FALSE;
  if (cfg->input_bits != 8)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": attribute input_bits: %d-bit images have no model (8 only)", op->op_id, host_op_short (op),
                   cfg->input_bits);
      return FALSE;
    }
  if (!host_geom_of (op, in, &gi, error) || !host_geom_of (op, out, &go, error) || !host_elem_of (op, in, &ei, error)
      || !host_elem_of (op, out, &eo, error))
    return FALSE;
  if (gi.k != 0 || ei != ELEM_U8 || gi.n != 1)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": input " VID_FMT ": must be a uint8 NHWC image with N = 1", op->op_id, host_op_short (op),
                   in->v_id);
      return FALSE;
    }
  if (eo != ELEM_S8 || go.n != 1 || go.c < gi.c || !host_check_scales (op, out, go.c, error))
    {
      if (error && *error)
        return FALSE;
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": output " VID_FMT ": must be sint8 with N = 1 and at least the image's %u channels",
                   op->op_id, host_op_short (op), out->v_id, gi.c);
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
                   host_op_short (op));
      return FALSE;
    }
  for (guint i = 0; i < 4 && !cfg->no_imkpad; i++)
    {
      if (pad[i] != floor (pad[i]))
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute pad_size[%u] is not an integer",
                       op->op_id, host_op_short (op), i);
          return FALSE;
        }
      cfg->pad[i] = (guint) pad[i];
    }
  if (go.h != gi.h + cfg->pad[0] + cfg->pad[1] || go.w != gi.w + cfg->pad[2] + cfg->pad[3])
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                   OP_FMT ": output " VID_FMT " is %ux%u but the %ux%u image padded by pad_size (%u, %u, %u, %u) "
                   "gives %ux%u", op->op_id, host_op_short (op), out->v_id, go.h, go.w, gi.h, gi.w, cfg->pad[0],
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
  if (!host_geom_of (op, in, &gi, error) || !host_geom_of (op, out, &go, error))
    return FALSE;
  /* Padding pixels and padding channels are 0, the normalised zero. */
  memset (output, 0, out->storage_bytes);
  for (guint c = 0; c < cfg.in_channels; c++)
    {
      guint src = cfg.bgr_order && cfg.in_channels == 3 ? 2 - c : c;
      double s_out = host_scale_of (out, c);
      for (guint y = 0; y < gi.h; y++)
        for (guint x = 0; x < gi.w; x++)
          {
            double v = input[host_geom_index (&gi, 0, src, y, x)];
            double q = cfg.pre_nop ? v / s_out : (v + cfg.mean[c]) / cfg.scale[c] / s_out;
            host_elem_set (ELEM_S8, output, host_geom_index (&go, 0, c, y + cfg.pad[0], x + cfg.pad[2]), q);
          }
    }
  return TRUE;
}
