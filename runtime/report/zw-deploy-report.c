/* zw-deploy-report.c — the deploy report model and its JSON. */
#include "report/zw-deploy-report.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (zw-report-error-quark, zw_report_error)

static const char *const segment_names[ZW_N_SEGMENTS] = { "WEIGHT", "INSTR", "FTMP", "INPUT", "OUTPUT" };

const char *
zw_segment_type_to_string (ZwSegmentType type)
{
  return (guint) type < ZW_N_SEGMENTS ? segment_names[type] : "?";
}

gboolean
zw_segment_type_from_string (const char *text, ZwSegmentType *out)
{
  for (guint i = 0; i < ZW_N_SEGMENTS; i++)
    if (g_strcmp0 (text, segment_names[i]) == 0)
      {
        *out = (ZwSegmentType) i;
        return TRUE;
      }
  return FALSE;
}

/* ---- lifetime ------------------------------------------------------------------ */

static GArray *
int64_array (void)
{
  return g_array_new (FALSE, FALSE, sizeof (gint64));
}

void zw_value_info_init (ZwValueInfo *v) { memset (v, 0, sizeof *v); v->real_to = int64_array (); v->shape = int64_array (); v->producer = v->fake_from = v->chunk = -1; v->real = TRUE; }
void zw_hardop_info_init (ZwHardOpInfo *h) { memset (h, 0, sizeof *h); h->merged_into = -1; }
void zw_launch_init (ZwLaunch *l) { memset (l, 0, sizeof *l); l->merge_from = int64_array (); }
void zw_chunk_info_init (ZwChunkInfo *c) { memset (c, 0, sizeof *c); c->v_ids = int64_array (); c->ocm_addr = G_MAXUINT64; }
void zw_ocm_option_result_init (ZwOcmOptionResult *o) { memset (o, 0, sizeof *o); o->picks = int64_array (); }

static void
op_clear (gpointer p)
{
  ZwOpInfo *o = p;
  g_free (o->kind);
  g_free (o->op_class);
  g_free (o->backend);
  g_free (o->name);
  g_clear_pointer (&o->inputs, g_array_unref);
  g_clear_pointer (&o->outputs, g_array_unref);
}
static void value_clear (gpointer p)
{
  ZwValueInfo *v = p;
  g_clear_pointer (&v->real_to, g_array_unref);
  g_clear_pointer (&v->shape, g_array_unref);
  g_free (v->dtype);
  g_free (v->layout);
}
static void launch_clear (gpointer p) { g_clear_pointer (&((ZwLaunch *) p)->merge_from, g_array_unref); }
static void chunk_clear (gpointer p) { g_clear_pointer (&((ZwChunkInfo *) p)->v_ids, g_array_unref); }
static void option_clear (gpointer p) { g_clear_pointer (&((ZwOcmOptionResult *) p)->picks, g_array_unref); }

static GArray *
struct_array (gsize size, GDestroyNotify clear)
{
  GArray *a = g_array_new (FALSE, TRUE, (guint) size);
  g_array_set_clear_func (a, clear);
  return a;
}

/* The lookups' indexes: (id, position) sorted by id, then position. */
typedef struct {
  gint64 id;
  guint pos;
} IdEntry;

typedef struct {
  GArray *entries;      /* IdEntry */
  guint built_for;      /* the array length the entries describe */
} IdIndex;

typedef struct {
  GMutex lock;
  IdIndex values, ops, chunks;
} ReportIndex;

static void
report_index_free (ReportIndex *ix)
{
  if (ix == NULL)
    return;
  g_clear_pointer (&ix->values.entries, g_array_unref);
  g_clear_pointer (&ix->ops.entries, g_array_unref);
  g_clear_pointer (&ix->chunks.entries, g_array_unref);
  g_mutex_clear (&ix->lock);
  g_free (ix);
}

ZwDeployReport *
zw_deploy_report_new (void)
{
  ZwDeployReport *r = g_new0 (ZwDeployReport, 1);
  ReportIndex *ix = g_new0 (ReportIndex, 1);

  g_mutex_init (&ix->lock);
  r->index = ix;

  r->ref_count = 1;
  r->ops = struct_array (sizeof (ZwOpInfo), op_clear);
  r->values = struct_array (sizeof (ZwValueInfo), value_clear);
  r->hardops = g_array_new (FALSE, TRUE, sizeof (ZwHardOpInfo));
  r->launches = struct_array (sizeof (ZwLaunch), launch_clear);
  r->chunks = struct_array (sizeof (ZwChunkInfo), chunk_clear);
  r->ocm_options = struct_array (sizeof (ZwOcmOptionResult), option_clear);
  r->connections = g_array_new (FALSE, TRUE, sizeof (ZwConnectionInfo));
  r->merge_hardop = TRUE;
  r->etm_optimize = TRUE;
  r->ocm_requested = r->ocm_chosen = ZW_OCM_BEST_SCORE;
  for (guint i = 0; i < ZW_N_SEGMENTS; i++)
    r->segments[i].type = (ZwSegmentType) i;
  return r;
}

ZwDeployReport *
zw_deploy_report_ref (ZwDeployReport *report)
{
  g_atomic_int_inc (&report->ref_count);
  return report;
}

void
zw_deploy_report_unref (ZwDeployReport *r)
{
  if (r == NULL || !g_atomic_int_dec_and_test (&r->ref_count))
    return;
  g_free (r->network_name);
  g_free (r->network_path);
  g_free (r->device_url);
  g_free (r->etm_method);
  g_array_unref (r->ops);
  g_array_unref (r->values);
  g_array_unref (r->hardops);
  g_array_unref (r->launches);
  g_array_unref (r->chunks);
  g_array_unref (r->connections);
  g_array_unref (r->ocm_options);
  report_index_free (r->index);
  g_free (r);
}

static gint
id_entry_cmp (gconstpointer a, gconstpointer b)
{
  const IdEntry *x = a, *y = b;

  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;   /* the first of equal ids first */
}

/* The position in @array of the first element whose gint64 at @id_offset is @id, or -1;
 * (re)builds @idx when the array's length changed. */
static gint64
index_lookup (const ZwDeployReport *r, IdIndex *idx, const GArray *array, gsize id_offset, gint64 id)
{
  ReportIndex *ix = r->index;
  gint64 found = -1;
  guint lo, hi;

  g_mutex_lock (&ix->lock);
  if (idx->entries == NULL || idx->built_for != array->len)
    {
      if (idx->entries == NULL)
        idx->entries = g_array_new (FALSE, FALSE, sizeof (IdEntry));
      g_array_set_size (idx->entries, array->len);
      for (guint i = 0; i < array->len; i++)
        {
          IdEntry *e = &g_array_index (idx->entries, IdEntry, i);
          memcpy (&e->id, array->data + (gsize) i * g_array_get_element_size ((GArray *) array) + id_offset,
                  sizeof (gint64));
          e->pos = i;
        }
      g_array_sort (idx->entries, id_entry_cmp);
      idx->built_for = array->len;
    }
  lo = 0;
  hi = idx->entries->len;
  while (lo < hi)     /* the first entry with entry.id >= id */
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (idx->entries, IdEntry, mid).id < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < idx->entries->len && g_array_index (idx->entries, IdEntry, lo).id == id)
    found = g_array_index (idx->entries, IdEntry, lo).pos;
  g_mutex_unlock (&ix->lock);
  return found;
}

const ZwValueInfo *
zw_deploy_report_find_value (const ZwDeployReport *r, gint64 v_id)
{
  gint64 i = index_lookup (r, &((ReportIndex *) r->index)->values, r->values,
                           G_STRUCT_OFFSET (ZwValueInfo, v_id), v_id);
  return i < 0 ? NULL : &g_array_index (r->values, ZwValueInfo, i);
}

const ZwOpInfo *
zw_deploy_report_find_op (const ZwDeployReport *r, gint64 op_id)
{
  gint64 i = index_lookup (r, &((ReportIndex *) r->index)->ops, r->ops,
                           G_STRUCT_OFFSET (ZwOpInfo, op_id), op_id);
  return i < 0 ? NULL : &g_array_index (r->ops, ZwOpInfo, i);
}

const ZwChunkInfo *
zw_deploy_report_find_chunk (const ZwDeployReport *r, gint64 id)
{
  gint64 i = index_lookup (r, &((ReportIndex *) r->index)->chunks, r->chunks,
                           G_STRUCT_OFFSET (ZwChunkInfo, id), id);
  return i < 0 ? NULL : &g_array_index (r->chunks, ZwChunkInfo, i);
}

guint64
zw_deploy_report_ocm_live_bytes (const ZwDeployReport *r, gint index)
{
  guint64 sum = 0;

  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      if (c->in_ocm && c->first <= index && index <= c->last)
        sum += c->size;
    }
  return sum;
}

guint64
zw_deploy_report_ftmp_live_bytes (const ZwDeployReport *r, gint index)
{
  guint64 sum = 0;

  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      if (!c->in_ocm && c->first <= index && index <= c->last)
        sum += c->size;
    }
  return sum;
}

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
              op.inputs = int64_array ();
              op.outputs = int64_array ();
              rd_int64s (&rd, it, path, "inputs", op.inputs);
              rd_int64s (&rd, it, path, "outputs", op.outputs);
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
          GArray *sync = int64_array ();

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

ZwDeployReport *
zw_deploy_report_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  GError *local = NULL;
  gsize len = 0;
  cJSON *root;
  ZwDeployReport *r;

  if (!zw_file_read_regular (path, ZW_INPUT_DEPLOY_REPORT, 0, &text, &len, &local))
    {
      g_set_error_literal (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  root = cJSON_ParseWithLength (text, len);
  if (root == NULL)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_PARSE, "%s: not valid JSON (byte %ld)", path,
                   (long) (cJSON_GetErrorPtr () ? cJSON_GetErrorPtr () - text : 0));
      return NULL;
    }
  r = zw_deploy_report_from_json (root, path, error);
  cJSON_Delete (root);
  return r;
}

G_DEFINE_BOXED_TYPE (ZwDeployReport, zw_deploy_report, (GBoxedCopyFunc) zw_deploy_report_ref, (GBoxedFreeFunc) zw_deploy_report_unref)

/* ---- index access for bindings -------------------------------------------------------- */

const ZwSegmentInfo *
zw_deploy_report_get_segment (const ZwDeployReport *report, ZwSegmentType type)
{
  g_return_val_if_fail (report != NULL, NULL);
  return (guint) type < ZW_N_SEGMENTS ? &report->segments[type] : NULL;
}

#define INDEX_ACCESS(what, type, array)                                                   \
  guint zw_deploy_report_get_n_##what (const ZwDeployReport *report)                      \
  {                                                                                       \
    g_return_val_if_fail (report != NULL, 0);                                             \
    return report->array->len;                                                            \
  }                                                                                       \
  static const type *zw_deploy_report_get_##what##_at (const ZwDeployReport *report, guint index) \
  {                                                                                       \
    g_return_val_if_fail (report != NULL, NULL);                                          \
    return index < report->array->len ? &g_array_index (report->array, type, index) : NULL; \
  }

INDEX_ACCESS (values, ZwValueInfo, values)
INDEX_ACCESS (hardops, ZwHardOpInfo, hardops)
INDEX_ACCESS (launches, ZwLaunch, launches)
INDEX_ACCESS (chunks, ZwChunkInfo, chunks)

const ZwValueInfo *zw_deploy_report_get_value (const ZwDeployReport *r, guint i) { return zw_deploy_report_get_values_at (r, i); }
const ZwHardOpInfo *zw_deploy_report_get_hardop (const ZwDeployReport *r, guint i) { return zw_deploy_report_get_hardops_at (r, i); }
const ZwLaunch *zw_deploy_report_get_launch (const ZwDeployReport *r, guint i) { return zw_deploy_report_get_launches_at (r, i); }
const ZwChunkInfo *zw_deploy_report_get_chunk (const ZwDeployReport *r, guint i) { return zw_deploy_report_get_chunks_at (r, i); }

const gint64 *
zw_value_info_get_shape (const ZwValueInfo *info, guint *rank)
{
  g_return_val_if_fail (info != NULL && rank != NULL, NULL);
  *rank = info->shape ? info->shape->len : 0;
  return info->shape ? (const gint64 *) info->shape->data : NULL;
}

const gint64 *
zw_launch_get_merge_from (const ZwLaunch *launch, guint *n)
{
  g_return_val_if_fail (launch != NULL && n != NULL, NULL);
  *n = launch->merge_from ? launch->merge_from->len : 0;
  return launch->merge_from ? (const gint64 *) launch->merge_from->data : NULL;
}
