/* zw-deploy-to-json.c — a deploy report as JSON (the schema is in zw-deploy-report.h), and saved. */
#include "report/zw-deploy-report-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

/* ---- to JSON ------------------------------------------------------------------------ */

static cJSON *
json_int64s (const GArray *a)
{
  cJSON *arr = cJSON_CreateArray ();

  for (guint i = 0; a != NULL && i < a->len; i++)
    cJSON_AddItemToArray (arr, cJSON_CreateNumber ((double) g_array_index (a, gint64, i)));
  return arr;
}

#define NUM(obj, key, v) cJSON_AddNumberToObject ((obj), (key), (double) (v))
#define BOOL(obj, key, v) cJSON_AddBoolToObject ((obj), (key), (v) ? 1 : 0)
#define STR(obj, key, v) cJSON_AddStringToObject ((obj), (key), (v) ? (v) : "")

cJSON *
zw_deploy_report_to_json (const ZwDeployReport *r)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *o, *arr;

  STR (root, "format", "zhuge-deploy-report");
  NUM (root, "version", ZW_DEPLOY_REPORT_VERSION);
  o = cJSON_AddObjectToObject (root, "network");
  STR (o, "name", r->network_name);
  STR (o, "path", r->network_path);
  NUM (o, "n_ops", r->n_ops);
  NUM (o, "max_op_id", r->max_op_id);
  if (r->params_seed >= 0)
    NUM (o, "params_seed", r->params_seed);
  o = cJSON_AddObjectToObject (root, "device");
  STR (o, "url", r->device_url);
  NUM (o, "ocm_bytes", r->ocm_bytes);
  NUM (o, "etm_bandwidth", r->etm_bandwidth);
  NUM (o, "ocm_bandwidth", r->ocm_bandwidth);
  NUM (o, "icore_clock_hz", r->icore_clock_hz);
  o = cJSON_AddObjectToObject (root, "options");
  BOOL (o, "merge_hardop", r->merge_hardop);
  BOOL (o, "etm_optimize", r->etm_optimize);
  STR (o, "ocm_requested", zw_ocm_opt_to_string (r->ocm_requested));
  STR (o, "ocm_chosen", zw_ocm_opt_to_string (r->ocm_chosen));

  arr = cJSON_AddArrayToObject (root, "segments");
  for (guint i = 0; i < ZW_N_SEGMENTS; i++)
    {
      const ZwSegmentInfo *s = &r->segments[i];
      o = cJSON_CreateObject ();
      STR (o, "type", zw_segment_type_to_string (s->type));
      NUM (o, "logic_addr", s->logic_addr);
      NUM (o, "byte_size", s->byte_size);
      NUM (o, "phy_addr", s->phy_addr);
      NUM (o, "phy_size", s->phy_size);
      BOOL (o, "user_used", s->user_used);
      cJSON_AddItemToArray (arr, o);
    }
  arr = cJSON_AddArrayToObject (root, "ops");
  for (guint i = 0; i < r->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (r->ops, ZwOpInfo, i);
      o = cJSON_CreateObject ();
      NUM (o, "index", op->index);
      NUM (o, "op_id", op->op_id);
      STR (o, "kind", op->kind);
      STR (o, "class", op->op_class);
      STR (o, "backend", op->backend);
      NUM (o, "layer_count", op->layer_count);
      NUM (o, "launch", op->launch);
      if (op->name != NULL)
        STR (o, "name", op->name);
      if (op->inputs != NULL && op->outputs != NULL)
        {
          cJSON_AddItemToObject (o, "inputs", json_int64s (op->inputs));
          cJSON_AddItemToObject (o, "outputs", json_int64s (op->outputs));
        }
      if (op->attrs != NULL)
        {
          cJSON *attrs = cJSON_AddObjectToObject (o, "attrs");
          for (guint k = 0; k < op->attrs->len; k++)
            {
              const ZwOpAttr *a = g_ptr_array_index (op->attrs, k);
              /* the JSON value itself; one cut short ("…") is kept as its text */
              cJSON *value = cJSON_Parse (a->value);
              cJSON_AddItemToObject (attrs, a->name, value != NULL ? value : cJSON_CreateString (a->value));
            }
        }
      cJSON_AddItemToArray (arr, o);
    }
  arr = cJSON_AddArrayToObject (root, "values");
  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      o = cJSON_CreateObject ();
      NUM (o, "v_id", v->v_id);
      NUM (o, "producer", v->producer);
      STR (o, "segment", zw_segment_type_to_string (v->segment));
      BOOL (o, "real", v->real);
      NUM (o, "fake_from", v->fake_from);
      cJSON_AddItemToObject (o, "real_to", json_int64s (v->real_to));
      BOOL (o, "is_ocm", v->is_ocm);
      BOOL (o, "is_host", v->is_host);
      NUM (o, "logic_addr", v->logic_addr);
      NUM (o, "phy_addr", v->phy_addr);
      NUM (o, "byte_size", v->byte_size);
      NUM (o, "chunk", v->chunk);
      NUM (o, "chunk_offset", v->chunk_offset);
      NUM (o, "first", v->first);
      NUM (o, "last", v->last);
      cJSON_AddItemToObject (o, "shape", json_int64s (v->shape));
      STR (o, "dtype", v->dtype);
      STR (o, "layout", v->layout);
      if (v->scales != NULL)
        {
          cJSON *q = cJSON_AddObjectToObject (o, "quant"), *scales;
          NUM (q, "bits", v->quant_bits);
          NUM (q, "axis", v->quant_axis);
          scales = cJSON_AddArrayToObject (q, "scales");
          for (guint k = 0; k < v->scales->len; k++)
            cJSON_AddItemToArray (scales, cJSON_CreateNumber (g_array_index (v->scales, double, k)));
          cJSON_AddItemToObject (q, "zero_points", json_int64s (v->zero_points));
        }
      cJSON_AddItemToArray (arr, o);
    }
  arr = cJSON_AddArrayToObject (root, "hardops");
  for (guint i = 0; i < r->hardops->len; i++)
    {
      const ZwHardOpInfo *h = &g_array_index (r->hardops, ZwHardOpInfo, i);
      cJSON *sync;
      o = cJSON_CreateObject ();
      NUM (o, "op_id", h->op_id);
      NUM (o, "weights_logic_addr", h->weights_logic_addr);
      NUM (o, "weights_size", h->weights_size);
      NUM (o, "instr_logic_addr", h->instr_logic_addr);
      NUM (o, "instr_size", h->instr_size);
      NUM (o, "weights_phy_addr", h->weights_phy_addr);
      NUM (o, "instr_phy_addr", h->instr_phy_addr);
      sync = cJSON_AddArrayToObject (o, "sync_idx");
      cJSON_AddItemToArray (sync, cJSON_CreateNumber (h->sync_idx[0]));
      cJSON_AddItemToArray (sync, cJSON_CreateNumber (h->sync_idx[1]));
      NUM (o, "merged_into", h->merged_into);
      NUM (o, "est_ms", h->est_ms);
      if (h->has_traffic)
        {
          NUM (o, "etm_read_bytes", h->etm_read_bytes);
          NUM (o, "etm_write_bytes", h->etm_write_bytes);
          NUM (o, "ocm_read_bytes", h->ocm_read_bytes);
          NUM (o, "ocm_write_bytes", h->ocm_write_bytes);
        }
      cJSON_AddItemToArray (arr, o);
    }
  arr = cJSON_AddArrayToObject (root, "launches");
  for (guint i = 0; i < r->launches->len; i++)
    {
      const ZwLaunch *l = &g_array_index (r->launches, ZwLaunch, i);
      o = cJSON_CreateObject ();
      NUM (o, "op_id", l->op_id);
      cJSON_AddItemToObject (o, "merge_from", json_int64s (l->merge_from));
      NUM (o, "layer_count", l->layer_count);
      NUM (o, "first", l->first);
      NUM (o, "last", l->last);
      cJSON_AddItemToArray (arr, o);
    }
  arr = cJSON_AddArrayToObject (root, "chunks");
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      o = cJSON_CreateObject ();
      NUM (o, "id", c->id);
      NUM (o, "size", c->size);
      NUM (o, "first", c->first);
      NUM (o, "last", c->last);
      NUM (o, "ftmp_offset", c->ftmp_offset);
      BOOL (o, "in_ocm", c->in_ocm);
      NUM (o, "ocm_addr", c->in_ocm ? (double) c->ocm_addr : -1.0);
      BOOL (o, "eligible", c->eligible);
      cJSON_AddItemToObject (o, "v_ids", json_int64s (c->v_ids));
      cJSON_AddItemToArray (arr, o);
    }
  arr = cJSON_AddArrayToObject (root, "connections");
  for (guint i = 0; i < r->connections->len; i++)
    {
      const ZwConnectionInfo *c = &g_array_index (r->connections, ZwConnectionInfo, i);
      o = cJSON_CreateObject ();
      NUM (o, "v_id", c->v_id);
      cJSON_AddStringToObject (o, "segment", zw_segment_type_to_string (c->segment));
      cJSON_AddStringToObject (o, "mode", c->staged ? "staged" : "zero-copy");
      NUM (o, "user_addr", c->user_addr);
      NUM (o, "user_size", c->user_size);
      NUM (o, "home_addr", c->home_addr);
      NUM (o, "byte_size", c->byte_size);
      NUM (o, "chunk", c->chunk);
      NUM (o, "chunk_offset", c->chunk_offset);
      cJSON_AddItemToArray (arr, o);
    }
  o = cJSON_AddObjectToObject (root, "etm");
  NUM (o, "ftmp_bytes", r->ftmp_bytes);
  NUM (o, "lower_bound", r->lower_bound);
  NUM (o, "sum_of_chunks", r->sum_of_chunks);
  STR (o, "method", r->etm_method);
  NUM (o, "seconds", r->etm_seconds);
  NUM (o, "work", r->etm_work);
  NUM (o, "work_budget", r->etm_work_budget);
  BOOL (o, "time_limit_hit", r->etm_time_limit_hit);
  o = cJSON_AddObjectToObject (root, "ocm");
  NUM (o, "capacity", r->ocm_capacity);
  NUM (o, "none_cost_ms", r->none_cost_ms);
  STR (o, "chosen", zw_ocm_opt_to_string (r->ocm_chosen));
  arr = cJSON_AddArrayToObject (o, "options");
  for (guint i = 0; i < r->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *opt = &g_array_index (r->ocm_options, ZwOcmOptionResult, i);
      cJSON *e = cJSON_CreateObject ();
      STR (e, "option", zw_ocm_opt_to_string (opt->option));
      NUM (e, "cost_ms", opt->cost_ms);
      NUM (e, "bytes", opt->bytes);
      NUM (e, "peak_bytes", opt->peak_bytes);
      NUM (e, "seconds", opt->seconds);
      cJSON_AddItemToObject (e, "picks", json_int64s (opt->picks));
      cJSON_AddItemToArray (arr, e);
    }
  return root;
}

gboolean
zw_deploy_report_save (const ZwDeployReport *report, const char *path, GError **error)
{
  cJSON *root = zw_deploy_report_to_json (report);
  char *text = cJSON_Print (root);
  GError *local = NULL;
  gboolean ok;

  cJSON_Delete (root);
  ok = zw_file_set_contents (path, text, -1, &local);
  cJSON_free (text);
  if (!ok)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_IO, "%s: cannot write the deploy report: %s", path,
                   local->message);
      g_error_free (local);
    }
  return ok;
}
