/* zw-deploy-from-json.c — a deploy report read from JSON: every field checked, a bad one named by
 * its path in the document; and loaded from a file. */
#include "report/zw-deploy-report-private.h"
#include "base/zw-file.h"

#include "base/zw-checked.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

/* ---- from JSON ------------------------------------------------------------------------ */

typedef struct {
  const char *origin;
  GError **error;
  gboolean failed;
} Reader;

static void
reader_fail (Reader *rd, const char *path, const char *what)
{
  if (rd->failed)
    return;
  rd->failed = TRUE;
  g_set_error (rd->error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: %s: %s", rd->origin, path, what);
}

static const cJSON *
rd_item (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  const cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);

  if (item == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("missing field \"%s\"", key);
      reader_fail (rd, path, msg);
    }
  return item;
}

static double
rd_num (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  const cJSON *item = rd_item (rd, obj, path, key);

  double v = 0;

  if (item != NULL && zw_json_double (item, -G_MAXDOUBLE, G_MAXDOUBLE, &v) != ZW_NUM_OK)
    {
      g_autofree char *msg = g_strdup_printf ("field \"%s\" must be a finite number", key);
      reader_fail (rd, path, msg);
      return 0;
    }
  return v;
}

/* An integer field in [min, max] (checked before any conversion). */
static gint64
rd_int_range (Reader *rd, const cJSON *obj, const char *path, const char *key, gint64 min, gint64 max)
{
  const cJSON *item = rd_item (rd, obj, path, key);
  gint64 v = 0;
  ZwNumStatus st;

  if (item == NULL)
    return 0;
  st = zw_json_int64 (item, min, max, &v);
  if (st != ZW_NUM_OK)
    {
      g_autofree char *why = zw_num_status_describe (st, item, (double) min, (double) max);
      g_autofree char *msg = g_strdup_printf ("field \"%s\" %s", key, why);
      reader_fail (rd, path, msg);
      return 0;
    }
  return v;
}

static guint64
rd_u64 (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  return (guint64) rd_int_range (rd, obj, path, key, 0, ZW_JSON_INT_MAX);
}

static gint64
rd_i64 (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  return rd_int_range (rd, obj, path, key, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX);
}

/* op indices, launch numbers, first/last: they index arrays, so a gint (-1 = none). */
static gint
rd_int (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  return (gint) rd_int_range (rd, obj, path, key, -1, G_MAXINT);
}

static guint
rd_uint (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  return (guint) rd_int_range (rd, obj, path, key, 0, G_MAXINT);
}

static gboolean
rd_bool (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  const cJSON *item = rd_item (rd, obj, path, key);

  if (item != NULL && !cJSON_IsBool (item))
    {
      g_autofree char *msg = g_strdup_printf ("field \"%s\" must be true or false", key);
      reader_fail (rd, path, msg);
    }
  return item != NULL && cJSON_IsTrue (item);
}

static char *
rd_str (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  const cJSON *item = rd_item (rd, obj, path, key);

  if (item != NULL && !cJSON_IsString (item))
    {
      g_autofree char *msg = g_strdup_printf ("field \"%s\" must be a string", key);
      reader_fail (rd, path, msg);
      return g_strdup ("");
    }
  return g_strdup (item ? item->valuestring : "");
}

static const cJSON *
rd_typed (Reader *rd, const cJSON *obj, const char *path, const char *key, gboolean array)
{
  const cJSON *item = rd_item (rd, obj, path, key);

  if (item != NULL && !(array ? cJSON_IsArray (item) : cJSON_IsObject (item)))
    {
      g_autofree char *msg = g_strdup_printf ("field \"%s\" must be %s", key, array ? "an array" : "an object");
      reader_fail (rd, path, msg);
      return NULL;
    }
  return item;
}

static void
rd_int64s (Reader *rd, const cJSON *obj, const char *path, const char *key, GArray *out)
{
  const cJSON *arr = rd_typed (rd, obj, path, key, TRUE), *it;

  if (arr == NULL)
    return;
  cJSON_ArrayForEach (it, arr)
    {
      gint64 v;
      if (zw_json_int64 (it, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &v) != ZW_NUM_OK)
        {
          g_autofree char *msg = g_strdup_printf ("field \"%s\" must hold integers below 2^53 in magnitude", key);
          reader_fail (rd, path, msg);
          return;
        }
      g_array_append_val (out, v);
    }
}

static ZwOcmOpt
rd_ocm (Reader *rd, const cJSON *obj, const char *path, const char *key)
{
  g_autofree char *s = rd_str (rd, obj, path, key);
  ZwOcmOpt opt = ZW_OCM_NONE;

  if (!rd->failed && !zw_ocm_opt_from_string (s, &opt))
    {
      g_autofree char *msg = g_strdup_printf ("field \"%s\": unknown OcmOpt \"%s\"", key, s);
      reader_fail (rd, path, msg);
    }
  return opt;
}

ZwDeployReport *
zw_deploy_report_from_json (const cJSON *root, const char *origin, GError **error)
{
  g_autoptr (ZwDeployReport) r = zw_deploy_report_new ();
  Reader rd = { origin ? origin : "<report>", error, FALSE };
  const cJSON *o, *arr, *it;
  char path[96];
  g_autofree char *format = NULL;
  double version;
  guint i;

  if (!cJSON_IsObject (root))
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: the top level must be an object", rd.origin);
      return NULL;
    }
  format = rd_str (&rd, root, "report", "format");
  if (rd.failed || strcmp (format, "zhuge-deploy-report") != 0)
    {
      g_clear_error (error);
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                   "%s: format: not a deploy report (expected \"format\": \"zhuge-deploy-report\")", rd.origin);
      return NULL;
    }
  version = rd_num (&rd, root, "report", "version");
  if (!rd.failed && version > ZW_DEPLOY_REPORT_VERSION)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_VERSION,
                   "%s: version: the report is version %.0f; this build reads up to %d", rd.origin, version,
                   ZW_DEPLOY_REPORT_VERSION);
      return NULL;
    }

  if ((o = rd_typed (&rd, root, "report", "network", FALSE)))
    {
      r->network_name = rd_str (&rd, o, "network", "name");
      r->network_path = rd_str (&rd, o, "network", "path");
      r->n_ops = rd_uint (&rd, o, "network", "n_ops");
      r->max_op_id = rd_i64 (&rd, o, "network", "max_op_id");
      if (cJSON_GetObjectItemCaseSensitive (o, "params_seed") != NULL)
        r->params_seed = rd_int_range (&rd, o, "network", "params_seed", 0, ZW_JSON_INT_MAX);
    }
  if ((o = rd_typed (&rd, root, "report", "device", FALSE)))
    {
      r->device_url = rd_str (&rd, o, "device", "url");
      r->ocm_bytes = rd_u64 (&rd, o, "device", "ocm_bytes");
      r->etm_bandwidth = rd_num (&rd, o, "device", "etm_bandwidth");
      r->ocm_bandwidth = rd_num (&rd, o, "device", "ocm_bandwidth");
      r->icore_clock_hz = rd_num (&rd, o, "device", "icore_clock_hz");
    }
  if ((o = rd_typed (&rd, root, "report", "options", FALSE)))
    {
      r->merge_hardop = rd_bool (&rd, o, "options", "merge_hardop");
      r->etm_optimize = rd_bool (&rd, o, "options", "etm_optimize");
      r->ocm_requested = rd_ocm (&rd, o, "options", "ocm_requested");
      r->ocm_chosen = rd_ocm (&rd, o, "options", "ocm_chosen");
    }
  if ((arr = rd_typed (&rd, root, "report", "segments", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          g_autofree char *type = NULL;
          ZwSegmentType t;
          ZwSegmentInfo *s;

          g_snprintf (path, sizeof path, "segments[%u]", i++);
          type = rd_str (&rd, it, path, "type");
          if (!rd.failed && !zw_segment_type_from_string (type, &t))
            {
              reader_fail (&rd, path, "unknown segment type");
              break;
            }
          if (rd.failed)
            break;
          s = &r->segments[t];
          s->logic_addr = rd_u64 (&rd, it, path, "logic_addr");
          s->byte_size = rd_u64 (&rd, it, path, "byte_size");
          s->phy_addr = rd_u64 (&rd, it, path, "phy_addr");
          s->phy_size = rd_u64 (&rd, it, path, "phy_size");
          s->user_used = rd_bool (&rd, it, path, "user_used");
        }
    }
  if ((arr = rd_typed (&rd, root, "report", "ops", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          ZwOpInfo op = { 0 };
          g_snprintf (path, sizeof path, "ops[%u]", i++);
          op.index = rd_uint (&rd, it, path, "index");
          op.op_id = rd_i64 (&rd, it, path, "op_id");
          op.kind = rd_str (&rd, it, path, "kind");
          op.op_class = rd_str (&rd, it, path, "class");
          op.backend = rd_str (&rd, it, path, "backend");
          op.layer_count = rd_int (&rd, it, path, "layer_count");
          op.launch = rd_int (&rd, it, path, "launch");
          /* optional: the graph, when the writer knew the network */
          if (cJSON_GetObjectItemCaseSensitive (it, "name") != NULL)
            op.name = rd_str (&rd, it, path, "name");
          if (cJSON_GetObjectItemCaseSensitive (it, "inputs") != NULL
              || cJSON_GetObjectItemCaseSensitive (it, "outputs") != NULL)
            {
              op.inputs = zw_deploy_report_int64_array ();
              op.outputs = zw_deploy_report_int64_array ();
              rd_int64s (&rd, it, path, "inputs", op.inputs);
              rd_int64s (&rd, it, path, "outputs", op.outputs);
            }
          if (cJSON_GetObjectItemCaseSensitive (it, "attrs") != NULL)
            {
              const cJSON *attrs = rd_typed (&rd, it, path, "attrs", FALSE), *a;
              op.attrs = zw_op_attrs_new ();
              cJSON_ArrayForEach (a, attrs)
                {
                  /* a string is shown as its text, anything else as compact JSON */
                  g_autofree char *text = cJSON_IsString (a) ? NULL : cJSON_PrintUnformatted (a);
                  zw_op_attrs_add (op.attrs, a->string, cJSON_IsString (a) ? a->valuestring : text != NULL ? text : "");
                }
            }
          g_array_append_val (r->ops, op);
          if (rd.failed)
            break;
        }
    }
  if ((arr = rd_typed (&rd, root, "report", "values", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          ZwValueInfo v;
          g_autofree char *seg = NULL;

          zw_value_info_init (&v);
          g_snprintf (path, sizeof path, "values[%u]", i++);
          v.v_id = rd_i64 (&rd, it, path, "v_id");
          g_snprintf (path, sizeof path, "values[%u] (v_id %" G_GINT64_FORMAT ")", i - 1, v.v_id);
          v.producer = rd_i64 (&rd, it, path, "producer");
          seg = rd_str (&rd, it, path, "segment");
          if (!rd.failed && !zw_segment_type_from_string (seg, &v.segment))
            reader_fail (&rd, path, "unknown segment type");
          v.real = rd_bool (&rd, it, path, "real");
          v.fake_from = rd_i64 (&rd, it, path, "fake_from");
          rd_int64s (&rd, it, path, "real_to", v.real_to);
          v.is_ocm = rd_bool (&rd, it, path, "is_ocm");
          v.is_host = rd_bool (&rd, it, path, "is_host");
          v.logic_addr = rd_u64 (&rd, it, path, "logic_addr");
          v.phy_addr = rd_u64 (&rd, it, path, "phy_addr");
          v.byte_size = rd_u64 (&rd, it, path, "byte_size");
          v.chunk = rd_i64 (&rd, it, path, "chunk");
          v.chunk_offset = rd_u64 (&rd, it, path, "chunk_offset");
          v.first = rd_int (&rd, it, path, "first");
          v.last = rd_int (&rd, it, path, "last");
          rd_int64s (&rd, it, path, "shape", v.shape);
          v.dtype = rd_str (&rd, it, path, "dtype");
          v.layout = rd_str (&rd, it, path, "layout");
          if (cJSON_GetObjectItemCaseSensitive (it, "quant") != NULL)
            {
              const cJSON *q = rd_typed (&rd, it, path, "quant", FALSE), *scales, *s;
              if (q != NULL)
                {
                  v.quant_bits = (guint) rd_int_range (&rd, q, path, "bits", 0, 64);
                  v.quant_axis = rd_int (&rd, q, path, "axis");
                  v.scales = g_array_new (FALSE, FALSE, sizeof (double));
                  v.zero_points = zw_deploy_report_int64_array ();
                  if ((scales = rd_typed (&rd, q, path, "scales", TRUE)) != NULL)
                    cJSON_ArrayForEach (s, scales)
                      {
                        double d;
                        if (zw_json_double (s, -G_MAXDOUBLE, G_MAXDOUBLE, &d) != ZW_NUM_OK)
                          {
                            reader_fail (&rd, path, "field \"quant.scales\" must hold finite numbers");
                            break;
                          }
                        g_array_append_val (v.scales, d);
                      }
                  rd_int64s (&rd, q, path, "zero_points", v.zero_points);
                }
            }
          g_array_append_val (r->values, v);
          if (rd.failed)
            break;
        }
    }
  if ((arr = rd_typed (&rd, root, "report", "hardops", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          ZwHardOpInfo h;
          GArray *sync = zw_deploy_report_int64_array ();

          zw_hardop_info_init (&h);
          g_snprintf (path, sizeof path, "hardops[%u]", i++);
          h.op_id = rd_i64 (&rd, it, path, "op_id");
          h.weights_logic_addr = rd_u64 (&rd, it, path, "weights_logic_addr");
          h.weights_size = rd_u64 (&rd, it, path, "weights_size");
          h.instr_logic_addr = rd_u64 (&rd, it, path, "instr_logic_addr");
          h.instr_size = rd_u64 (&rd, it, path, "instr_size");
          h.weights_phy_addr = rd_u64 (&rd, it, path, "weights_phy_addr");
          h.instr_phy_addr = rd_u64 (&rd, it, path, "instr_phy_addr");
          rd_int64s (&rd, it, path, "sync_idx", sync);
          if (!rd.failed && sync->len != 2)
            reader_fail (&rd, path, "sync_idx must have two numbers");
          for (guint k = 0; !rd.failed && k < sync->len; k++)
            if (g_array_index (sync, gint64, k) < -1 || g_array_index (sync, gint64, k) > G_MAXINT)
              reader_fail (&rd, path, "sync_idx must hold two integers in [-1, 2^31)");
          else if (!rd.failed)
            {
              h.sync_idx[0] = (gint) g_array_index (sync, gint64, 0);
              h.sync_idx[1] = (gint) g_array_index (sync, gint64, 1);
            }
          g_array_unref (sync);
          h.merged_into = rd_i64 (&rd, it, path, "merged_into");
          /* optional: reports written before it existed still load */
          if (cJSON_GetObjectItemCaseSensitive (it, "est_ms") != NULL)
            h.est_ms = rd_num (&rd, it, path, "est_ms");
          if (cJSON_GetObjectItemCaseSensitive (it, "etm_read_bytes") != NULL)
            {
              h.has_traffic = TRUE;
              h.etm_read_bytes = rd_u64 (&rd, it, path, "etm_read_bytes");
              h.etm_write_bytes = rd_u64 (&rd, it, path, "etm_write_bytes");
              h.ocm_read_bytes = rd_u64 (&rd, it, path, "ocm_read_bytes");
              h.ocm_write_bytes = rd_u64 (&rd, it, path, "ocm_write_bytes");
            }
          g_array_append_val (r->hardops, h);
          if (rd.failed)
            break;
        }
    }
  if ((arr = rd_typed (&rd, root, "report", "launches", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          ZwLaunch l;
          zw_launch_init (&l);
          g_snprintf (path, sizeof path, "launches[%u]", i++);
          l.op_id = rd_i64 (&rd, it, path, "op_id");
          rd_int64s (&rd, it, path, "merge_from", l.merge_from);
          l.layer_count = rd_uint (&rd, it, path, "layer_count");
          l.first = rd_int (&rd, it, path, "first");
          l.last = rd_int (&rd, it, path, "last");
          g_array_append_val (r->launches, l);
          if (rd.failed)
            break;
        }
    }
  if ((arr = rd_typed (&rd, root, "report", "chunks", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          ZwChunkInfo c;
          gint64 ocm;
          zw_chunk_info_init (&c);
          g_snprintf (path, sizeof path, "chunks[%u]", i++);
          c.id = rd_i64 (&rd, it, path, "id");
          g_snprintf (path, sizeof path, "chunks[%u] (chunk %" G_GINT64_FORMAT ")", i - 1, c.id);
          c.size = rd_u64 (&rd, it, path, "size");
          c.first = rd_int (&rd, it, path, "first");
          c.last = rd_int (&rd, it, path, "last");
          c.ftmp_offset = rd_u64 (&rd, it, path, "ftmp_offset");
          c.in_ocm = rd_bool (&rd, it, path, "in_ocm");
          ocm = rd_i64 (&rd, it, path, "ocm_addr");
          /* -1 is "not in OCM"; an address checked here, not later at the board */
          if (!rd.failed && c.in_ocm && ocm < 0)
            reader_fail (&rd, path, "field ocm_addr: a chunk in OCM needs an OCM address >= 0");
          else if (!rd.failed && !c.in_ocm && ocm != -1)
            reader_fail (&rd, path, "field ocm_addr: a chunk not in OCM has ocm_addr -1");
          c.ocm_addr = c.in_ocm && ocm >= 0 ? (guint64) ocm : G_MAXUINT64;
          c.eligible = rd_bool (&rd, it, path, "eligible");
          rd_int64s (&rd, it, path, "v_ids", c.v_ids);
          g_array_append_val (r->chunks, c);
          if (rd.failed)
            break;
        }
    }
  if (cJSON_GetObjectItem (root, "connections") != NULL
      && (arr = rd_typed (&rd, root, "report", "connections", TRUE)))
    {
      i = 0;
      cJSON_ArrayForEach (it, arr)
        {
          ZwConnectionInfo c = { 0 };
          g_autofree char *seg = NULL, *mode = NULL;
          g_snprintf (path, sizeof path, "connections[%u]", i++);
          c.v_id = rd_i64 (&rd, it, path, "v_id");
          seg = rd_str (&rd, it, path, "segment");
          mode = rd_str (&rd, it, path, "mode");
          c.user_addr = rd_u64 (&rd, it, path, "user_addr");
          c.user_size = rd_u64 (&rd, it, path, "user_size");
          c.home_addr = rd_u64 (&rd, it, path, "home_addr");
          c.byte_size = rd_u64 (&rd, it, path, "byte_size");
          c.chunk = rd_i64 (&rd, it, path, "chunk");
          c.chunk_offset = rd_u64 (&rd, it, path, "chunk_offset");
          if (rd.failed)
            break;
          if (!zw_segment_type_from_string (seg, &c.segment)
              || (c.segment != ZW_SEGMENT_INPUT && c.segment != ZW_SEGMENT_OUTPUT))
            {
              g_autofree char *msg = g_strdup_printf ("field \"segment\" must be INPUT or OUTPUT, got \"%s\"", seg);
              reader_fail (&rd, path, msg);
              break;
            }
          if (strcmp (mode, "staged") != 0 && strcmp (mode, "zero-copy") != 0)
            {
              g_autofree char *msg = g_strdup_printf ("field \"mode\" must be \"zero-copy\" or \"staged\", got \"%s\"", mode);
              reader_fail (&rd, path, msg);
              break;
            }
          c.staged = strcmp (mode, "staged") == 0;
          g_array_append_val (r->connections, c);
        }
    }
  if ((o = rd_typed (&rd, root, "report", "etm", FALSE)))
    {
      r->ftmp_bytes = rd_u64 (&rd, o, "etm", "ftmp_bytes");
      r->lower_bound = rd_u64 (&rd, o, "etm", "lower_bound");
      r->sum_of_chunks = rd_u64 (&rd, o, "etm", "sum_of_chunks");
      r->etm_method = rd_str (&rd, o, "etm", "method");
      r->etm_seconds = rd_num (&rd, o, "etm", "seconds");
      /* optional: reports written before the planner counted its work lack them */
      if (cJSON_GetObjectItemCaseSensitive (o, "work"))
        r->etm_work = rd_u64 (&rd, o, "etm", "work");
      if (cJSON_GetObjectItemCaseSensitive (o, "work_budget"))
        r->etm_work_budget = rd_u64 (&rd, o, "etm", "work_budget");
      if (cJSON_GetObjectItemCaseSensitive (o, "time_limit_hit"))
        r->etm_time_limit_hit = rd_bool (&rd, o, "etm", "time_limit_hit");
    }
  if ((o = rd_typed (&rd, root, "report", "ocm", FALSE)))
    {
      r->ocm_capacity = rd_u64 (&rd, o, "ocm", "capacity");
      r->none_cost_ms = rd_num (&rd, o, "ocm", "none_cost_ms");
      if ((arr = rd_typed (&rd, o, "ocm", "options", TRUE)))
        {
          i = 0;
          cJSON_ArrayForEach (it, arr)
            {
              ZwOcmOptionResult opt;
              zw_ocm_option_result_init (&opt);
              g_snprintf (path, sizeof path, "ocm.options[%u]", i++);
              opt.option = rd_ocm (&rd, it, path, "option");
              opt.cost_ms = rd_num (&rd, it, path, "cost_ms");
              opt.bytes = rd_u64 (&rd, it, path, "bytes");
              opt.peak_bytes = rd_u64 (&rd, it, path, "peak_bytes");
              opt.seconds = rd_num (&rd, it, path, "seconds");
              rd_int64s (&rd, it, path, "picks", opt.picks);
              g_array_append_val (r->ocm_options, opt);
              if (rd.failed)
                break;
            }
        }
    }
  /* everything sized by the op count (live bytes per op, the views' timelines) is bounded
   * by the ops the file actually lists */
  if (!rd.failed && r->n_ops > r->ops->len)
    {
      g_autofree char *msg = g_strdup_printf ("n_ops is %u but the report lists %u ops", r->n_ops, r->ops->len);
      reader_fail (&rd, "network", msg);
    }
  if (rd.failed)
    return NULL;
  return g_steal_pointer (&r);
}

ZwDeployReport *
zw_deploy_report_load (const char *path, GError **error)
{
  cJSON *root = zw_report_json_load (path, error);
  ZwDeployReport *r;

  if (root == NULL)
    return NULL;
  r = zw_deploy_report_from_json (root, path, error);
  cJSON_Delete (root);
  return r;
}
