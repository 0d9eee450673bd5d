/* zw-deploy-report.c — the deploy report model: lifetime, lookups by id, live bytes, index
 * access for bindings. Its JSON: zw-deploy-to-json.c and zw-deploy-from-json.c. */
#include "report/zw-deploy-report-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

G_DEFINE_QUARK (zw-report-error-quark, zw_report_error)

cJSON *
zw_report_json_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;
  gsize len = 0;
  cJSON *root;

  g_return_val_if_fail (path != NULL, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_DEPLOY_REPORT, 0, &text, &len, &local))
    {
      g_set_error_literal (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_IO, local->message);
      return NULL;
    }
  if ((root = cJSON_ParseWithLength (text, len)) == NULL)
    g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_PARSE, "%s: not valid JSON (byte %ld)", path,
                 (long) (cJSON_GetErrorPtr () ? cJSON_GetErrorPtr () - text : 0));
  return root;
}

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

GArray *
zw_deploy_report_int64_array (void)
{
  return g_array_new (FALSE, FALSE, sizeof (gint64));
}

void zw_value_info_init (ZwValueInfo *v) { memset (v, 0, sizeof *v); v->real_to = zw_deploy_report_int64_array (); v->shape = zw_deploy_report_int64_array (); v->producer = v->fake_from = v->chunk = -1; v->real = TRUE; }
void zw_hardop_info_init (ZwHardOpInfo *h) { memset (h, 0, sizeof *h); h->merged_into = -1; }
void zw_launch_init (ZwLaunch *l) { memset (l, 0, sizeof *l); l->merge_from = zw_deploy_report_int64_array (); }
void zw_chunk_info_init (ZwChunkInfo *c) { memset (c, 0, sizeof *c); c->v_ids = zw_deploy_report_int64_array (); c->ocm_addr = G_MAXUINT64; }
void zw_ocm_option_result_init (ZwOcmOptionResult *o) { memset (o, 0, sizeof *o); o->picks = zw_deploy_report_int64_array (); }

static void
op_attr_free (gpointer p)
{
  ZwOpAttr *a = p;

  g_free (a->name);
  g_free (a->value);
  g_free (a);
}

GPtrArray *
zw_op_attrs_new (void)
{
  return g_ptr_array_new_with_free_func (op_attr_free);
}

void
zw_op_attrs_add (GPtrArray *attrs, const char *name, const char *value)
{
  ZwOpAttr *a = g_new0 (ZwOpAttr, 1);

  a->name = g_strdup (name);
  if (strlen (value) <= ZW_OP_ATTR_MAX_TEXT)
    a->value = g_strdup (value);
  else
    {
      const char *end = g_utf8_find_prev_char (value, value + ZW_OP_ATTR_MAX_TEXT);
      a->value = g_strdup_printf ("%.*s…", (int) (end != NULL ? end - value : 0), value);
    }
  g_ptr_array_add (attrs, a);
}

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
  g_clear_pointer (&o->attrs, g_ptr_array_unref);
}
static void value_clear (gpointer p)
{
  ZwValueInfo *v = p;
  g_clear_pointer (&v->real_to, g_array_unref);
  g_clear_pointer (&v->shape, g_array_unref);
  g_free (v->dtype);
  g_free (v->layout);
  g_clear_pointer (&v->scales, g_array_unref);
  g_clear_pointer (&v->zero_points, g_array_unref);
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
  r->params_seed = -1;
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

/* A sweep over chunk lifetimes, O(ops + chunks): cheap enough for a view to run on every
 * draw even for 10,000 ops. */
guint64 *
zw_deploy_report_live_bytes (const ZwDeployReport *report, gboolean in_ocm, guint *n_ops)
{
  guint n;
  gint64 *delta;
  guint64 *live;
  gint64 acc = 0;

  g_return_val_if_fail (report != NULL && n_ops != NULL, NULL);
  n = report->ops->len;
  delta = g_new0 (gint64, n + 1);
  live = g_new0 (guint64, MAX (n, 1));
  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      if (!c->in_ocm != !in_ocm || c->first < 0 || c->first > c->last || (guint) c->first >= n)
        continue;
      delta[c->first] += (gint64) c->size;
      delta[MIN ((guint) c->last + 1, n)] -= (gint64) c->size;
    }
  for (guint i = 0; i < n; i++)
    {
      acc += delta[i];
      live[i] = (guint64) acc;
    }
  g_free (delta);
  *n_ops = n;
  return live;
}

char *
zw_chunk_id_dup_label (gint64 id)
{
  if (id >= 0)
    return g_strdup_printf ("#%" G_GINT64_FORMAT, id);
  /* -(v_id + 1): never G_MININT64 for a value id that fits */
  return g_strdup_printf ("v%" G_GINT64_FORMAT, -(id + 1));
}

guint64
zw_deploy_report_ocm_peak (const ZwDeployReport *report)
{
  g_autofree guint64 *live = NULL;
  guint64 peak = 0;
  guint n;

  g_return_val_if_fail (report != NULL, 0);
  live = zw_deploy_report_live_bytes (report, TRUE, &n);
  for (guint i = 0; i < n; i++)
    peak = MAX (peak, live[i]);
  return peak;
}

guint64
zw_deploy_report_ocm_placed (const ZwDeployReport *report)
{
  guint64 sum = 0;

  g_return_val_if_fail (report != NULL, 0);
  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      if (c->in_ocm)
        sum += c->size;
    }
  return sum;
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
