/* host-detpost.c — the board IP model of customop::DetPostZG / DetPost (host-ops.h): its
 * configuration from the op's attributes, the run that keeps the candidate boxes, and
 * their decoding. */
#include "backends/host/host-ops-private.h"

#include <math.h>
#include <string.h>

/* ---- DetPostZG ------------------------------------------------------------------ */

gboolean
host_attr_int (const XirOp *op, const char *key, gboolean required, gint lo, gint hi, gint def, gint *out,
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
                   host_op_short (op), key);
      return FALSE;
    }
  if (!xir_op_get_attr_int (op, key, &v, NULL) || v < lo || v > hi)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute %s must be an integer in [%d, %d]",
                   op->op_id, host_op_short (op), key, lo, hi);
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
  if (!host_attr_int (op, "layer_en", TRUE, 0, G_MAXINT, 0, &cfg->layer_en, error)
      || !host_attr_int (op, "anchor_num", TRUE, 1, 64, 0, &cfg->anchor_num, error)
      || !host_attr_int (op, "cmp_en", TRUE, 0, 1, 0, &cfg->cmp_en, error)
      || !host_attr_int (op, "valid_chn", TRUE, 1, 8, 0, &cfg->valid_chn, error)
      || !host_attr_int (op, "cmp_mask0", FALSE, G_MININT32, G_MAXINT32, 0, &mask0, error)
      || !host_attr_int (op, "cmp_mask1", FALSE, G_MININT32, G_MAXINT32, -1, &mask1, error))
    return FALSE;
  cfg->maps_per_group = cfg->layer_en == 1 ? 1 : cfg->layer_en == 3 ? 2 : 3;
  for (guint f = 0; f < HOST_DETPOST_MAX_MAPS; f++)
    if (!host_attr_int (op, chn_keys[f], f < cfg->maps_per_group, f < cfg->maps_per_group ? 1 : 0, 64, 0,
                   &cfg->chn[f], error))
      return FALSE;
  for (guint f = 0; f < cfg->maps_per_group; f++)
    full += (guint) cfg->chn[f];
  if (!host_attr_int (op, "cmp_chn", cfg->cmp_en, 1, (gint) full, 1, &cfg->cmp_chn, error))
    return FALSE;
  cfg->cmp_mask = ((guint64) (guint32) mask1 << 32) | (guint32) mask0;
  if (!xir_op_get_attr (op, "thr_f"))
    cfg->thr_f = 0;
  else if (!xir_op_get_attr_double (op, "thr_f", &cfg->thr_f, NULL))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute thr_f must be a number", op->op_id,
                   host_op_short (op));
      return FALSE;
    }

  if (op->inputs->len == 0 || op->inputs->len % cfg->maps_per_group != 0
      || op->outputs->len != op->inputs->len / cfg->maps_per_group)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": layer_en %d groups %u map(s) per group, but the op has %u inputs and %u outputs",
                   op->op_id, host_op_short (op), cfg->layer_en, cfg->maps_per_group, op->inputs->len,
                   op->outputs->len);
      return FALSE;
    }
  cfg->n_groups = op->inputs->len / cfg->maps_per_group;

  thr = xir_op_get_attr (op, "data_thr");
  if (!cJSON_IsArray (thr))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute data_thr must be an array",
                   op->op_id, host_op_short (op));
      return FALSE;
    }
  cfg->n_data_thr = (guint) cJSON_GetArraySize (thr);
  if (cfg->n_data_thr < cfg->n_groups)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR, OP_FMT ": attribute data_thr: %u thresholds for %u groups",
                   op->op_id, host_op_short (op), cfg->n_data_thr, cfg->n_groups);
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
                       op->op_id, host_op_short (op), i);
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
      if (!host_geom_of (op, m->v, &m->g, error) || !host_elem_of (op, m->v, &e, error))
        return FALSE;
      if (e != ELEM_S8)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                       OP_FMT ": input " VID_FMT ": the model handles sint8 heads only", op->op_id, host_op_short (op),
                       m->v->v_id);
          return FALSE;
        }
      if (!host_check_scales (op, m->v, m->g.c, error))
        return FALSE;
      m->stride = (guint) cfg->chn[f] * 64;
      need = (guint) (cfg->anchor_num - 1) * m->stride
             + (f + 1 < cfg->maps_per_group ? m->stride
                                              : ((guint) cfg->chn[f] - 1) * 64 + (guint) cfg->valid_chn * 8);
      if (m->g.n != 1 || m->g.c < need || (f > 0 && (m->g.h != maps[0].g.h || m->g.w != maps[0].g.w)))
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE,
                       OP_FMT ": input " VID_FMT ": needs N = 1, >= %u channels (%d anchors x chn_%u %d x 64) and "
                       "the group's H and W; has N %u, C %u", op->op_id, host_op_short (op), m->v->v_id, need,
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
                  if ((gint8) inputs[g * cfg.maps_per_group + f][host_geom_index (&m->g, 0, a * m->stride + ch, y, x)]
                      >= cfg.data_thr[g])
                    pass = TRUE;
                }
              if (!pass)
                continue;
              if (used + cfg.record_bytes > ov->storage_bytes)
                {
                  g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_CAPACITY,
                               OP_FMT ": output " VID_FMT ": more than %" G_GUINT64_FORMAT " boxes of %u bytes pass",
                               op->op_id, host_op_short (op), ov->v_id, ov->storage_bytes / cfg.record_bytes,
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
                  rec[r] = inputs[g * cfg.maps_per_group + f][host_geom_index (&m->g, 0, a * m->stride + ch, y, x)];
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
                   OP_FMT ": %u classes + 5 do not fit the %u channels of a record", op->op_id, host_op_short (op),
                   n_classes, cfg.record_channels);
      ok = FALSE;
    }
  else if ((params->anchors ? params->n_anchor_floats : G_N_ELEMENTS (yolov5_anchors))
           < cfg.n_groups * (guint) cfg.anchor_num * 2)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR,
                   OP_FMT ": decoding %u groups x %d anchors needs %u anchor floats", op->op_id, host_op_short (op),
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
                       op->op_id, host_op_short (op), ov->v_id, n_boxes[g], cfg.record_bytes, ov->storage_bytes);
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
                           op->op_id, host_op_short (op), ov->v_id, i, d.cell_x, d.cell_y, d.anchor);
              ok = FALSE;
              break;
            }
          for (guint r = 0; r < 5 + n_classes; r++)
            {
              guint f, ch;
              double x;

              record_channel_map (&cfg, r, &f, &ch);
              x = (gint8) rec[r] * host_scale_of (maps[f].v, d.anchor * maps[f].stride + ch);
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
