/* zw-profile-json.c — our JSON time profile ("zhuge-time-profile" version 1), and the JSON
 * helpers the Chrome trace shares. */
#include "report/zw-profile-private.h"

#include "base/zw-checked.h"

#include <float.h>
#include <math.h>

/* cJSON prints %.15g and accepts a 1-ulp error before falling back to %.17g; times must
 * read back bit for bit, so they are printed with our shortest round-trip format. */
void
zw_profile_json_add_time (cJSON *obj, const char *key, double v)
{
  if (isfinite (v))
    {
      g_autofree char *t = zw_profile_format_number (v, FALSE);
      cJSON_AddRawToObject (obj, key, t);
    }
  else
    cJSON_AddNullToObject (obj, key);
}

cJSON *
zw_profile_json_merge (const GArray *m)
{
  cJSON *a = cJSON_CreateArray ();

  for (guint j = 0; j < m->len; j++)
    cJSON_AddItemToArray (a, cJSON_CreateNumber ((double) g_array_index (m, gint64, j)));
  return a;
}

char *
zw_profile_write_json (const ZwProfile *p)
{
  g_autoptr (ZwProfile) computed = NULL;
  cJSON *root = cJSON_CreateObject ();
  cJSON *rows = cJSON_AddArrayToObject (root, "rows");
  cJSON *totals, *customs, *summary;
  char *text;

  cJSON_AddStringToObject (root, "format", JSON_FORMAT_NAME);
  cJSON_AddNumberToObject (root, "version", JSON_VERSION);
  if (p->network)
    cJSON_AddStringToObject (root, "network", p->network);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      cJSON *o = cJSON_CreateObject ();

      cJSON_AddNumberToObject (o, "op_id", (double) r->op_id);
      cJSON_AddStringToObject (o, "op_type", r->op_type);
      cJSON_AddStringToObject (o, "op_name", r->op_name);
      zw_profile_json_add_time (o, "total_ms", r->total_ms);
      zw_profile_json_add_time (o, "memcpy_ms", r->memcpy_ms);
      zw_profile_json_add_time (o, "hard_ms", r->hard_ms);
      zw_profile_json_add_time (o, "other_ms", r->other_ms);
      if (r->has_io_process)
        cJSON_AddBoolToObject (o, "is_io_process", r->is_io_process);
      cJSON_AddItemToObject (o, "merge_from", zw_profile_json_merge (r->merge_from));
      if (r->backend)
        cJSON_AddStringToObject (o, "backend", r->backend);
      if (r->start_ms >= 0)
        zw_profile_json_add_time (o, "start_ms", r->start_ms);
      if (r->host_measured_ms >= 0)
        zw_profile_json_add_time (o, "host_measured_ms", r->host_measured_ms);
      cJSON_AddItemToArray (rows, o);
    }
  if (!p->has_totals || !p->has_summary)
    {
      computed = zw_profile_copy_rows (p);
      zw_profile_compute_totals (computed);
      p = computed;
    }
  totals = cJSON_AddObjectToObject (root, "totals");
  zw_profile_json_add_time (totals, "total_ms", p->total_ms);
  zw_profile_json_add_time (totals, "memcpy_ms", p->total_memcpy_ms);
  zw_profile_json_add_time (totals, "hard_ms", p->total_hard_ms);
  zw_profile_json_add_time (totals, "other_ms", p->total_other_ms);
  zw_profile_json_add_time (totals, "hardop_total_ms", p->hardop_total_ms);
  zw_profile_json_add_time (totals, "hardop_hard_ms", p->hardop_hard_ms);
  customs = cJSON_AddArrayToObject (root, "customops");
  for (guint i = 0; i < p->customops->len; i++)
    {
      const ZwProfileCustomop *c = g_ptr_array_index (p->customops, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddStringToObject (o, "name", c->name);
      zw_profile_json_add_time (o, "total_ms", c->total_ms);
      zw_profile_json_add_time (o, "hard_ms", c->hard_ms);
      cJSON_AddItemToArray (customs, o);
    }
  summary = cJSON_AddObjectToObject (root, "summary");
  for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      cJSON *o = cJSON_AddObjectToObject (summary, zw_profile_summary_names[k]);
      zw_profile_json_add_time (o, "time_ms", p->summary[k].time_ms);
      cJSON_AddStringToObject (o, "device", p->summary[k].device ? p->summary[k].device : "Null");
    }
  text = cJSON_Print (root);
  cJSON_Delete (root);
  return text;
}

gboolean
zw_profile_json_number (const cJSON *o, const char *key, double *out)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (o, key);

  return zw_json_double (v, -FLT_MAX, FLT_MAX, out) == ZW_NUM_OK;
}

/* An op id or process id: an integer a double holds exactly, converted only when it is one. */
gboolean
zw_profile_json_id (const cJSON *o, const char *key, gint64 min, gint64 max, gint64 *out)
{
  return zw_json_int64 (cJSON_GetObjectItemCaseSensitive (o, key), min, max, out) == ZW_NUM_OK;
}

/* An optional time: absent leaves *out as it is; present, it must be a number (and, for
 * @non_negative, not below 0). FALSE (and the file refused) when it is not. */
gboolean
zw_profile_json_optional_time (const cJSON *o, const char *key, gboolean non_negative, double *out, ZwProfileParseCtx *c, const char *where)
{
  double v;

  if (cJSON_GetObjectItemCaseSensitive (o, key) == NULL)
    return TRUE;
  if (!zw_profile_json_number (o, key, &v) || (non_negative && v < 0))
    {
      zw_profile_parse_bad_row (c, 0, "%s: field %s is not a %s", where, key, non_negative ? "time" : "number");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

void
zw_profile_json_merge_from (ZwProfileRow *r, const cJSON *m, ZwProfileParseCtx *c, const char *where)
{
  const cJSON *x;

  if (!m)
    return;
  if (!cJSON_IsArray (m))
    {
      zw_profile_parse_bad_row (c, 0, "%s: field merge_from is not an array", where);
      return;
    }
  cJSON_ArrayForEach (x, m)
    {
      gint64 id;
      if (zw_json_int64 (x, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) != ZW_NUM_OK)
        {
          zw_profile_parse_bad_row (c, 0, "%s: field merge_from holds something other than an op id", where);
          return;
        }
      g_array_append_val (r->merge_from, id);
    }
}

gboolean
zw_profile_parse_json (ZwProfile *prof, ZwProfileParseCtx *c, const cJSON *root, gboolean *totals_seen)
{
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive (root, "rows");
  const cJSON *net = cJSON_GetObjectItemCaseSensitive (root, "network");
  const cJSON *totals = cJSON_GetObjectItemCaseSensitive (root, "totals");
  const cJSON *customs = cJSON_GetObjectItemCaseSensitive (root, "customops");
  const cJSON *summary = cJSON_GetObjectItemCaseSensitive (root, "summary");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive (root, "version");
  const cJSON *o;
  guint i = 0;

  *totals_seen = FALSE;
  if (cJSON_IsNumber (ver) && ver->valuedouble > JSON_VERSION)
    zw_profile_parse_warn (c, 0, "version %g is newer than this build reads (%d); reading what it can", ver->valuedouble,
          JSON_VERSION);
  if (!cJSON_IsArray (rows))
    return FALSE;
  if (cJSON_IsString (net))
    {
      g_free (prof->network);
      prof->network = g_strdup (net->valuestring);
    }
  cJSON_ArrayForEach (o, rows)
    {
      g_autofree char *where = g_strdup_printf ("rows[%u]", i++);
      if (c->error != NULL)
        break;
      const cJSON *type = cJSON_GetObjectItemCaseSensitive (o, "op_type");
      const cJSON *name = cJSON_GetObjectItemCaseSensitive (o, "op_name");
      const cJSON *io = cJSON_GetObjectItemCaseSensitive (o, "is_io_process");
      const cJSON *backend = cJSON_GetObjectItemCaseSensitive (o, "backend");
      static const char *const keys[4] = { "total_ms", "memcpy_ms", "hard_ms", "other_ms" };
      double t[4], start;
      gint64 id;
      gboolean ok = TRUE;
      ZwProfileRow *r;

      if (!cJSON_IsObject (o) || !zw_profile_json_id (o, "op_id", -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) || !cJSON_IsString (type))
        {
          zw_profile_parse_bad_row (c, 0, "%s: field op_id (an integer) or op_type is missing", where);
          break;
        }
      for (guint k = 0; k < 4 && ok; k++)
        if (!zw_profile_json_number (o, keys[k], &t[k]))
          {
            zw_profile_parse_bad_row (c, 0, "%s (op %" G_GINT64_FORMAT "): field %s is missing or not a number", where, id, keys[k]);
            ok = FALSE;
          }
      if (!ok)
        break;
      r = zw_profile_add_row (prof, id, type->valuestring, cJSON_IsString (name) ? name->valuestring : "",
                              t[0], t[1], t[2], t[3]);
      if (cJSON_IsBool (io))
        {
          r->has_io_process = TRUE;
          r->is_io_process = cJSON_IsTrue (io);
        }
      else if (io != NULL && !cJSON_IsNull (io))
        zw_profile_parse_bad_row (c, 0, "%s (op %" G_GINT64_FORMAT "): field is_io_process is not true/false", where, id);
      zw_profile_json_merge_from (r, cJSON_GetObjectItemCaseSensitive (o, "merge_from"), c, where);
      if (cJSON_IsString (backend))
        r->backend = g_strdup (backend->valuestring);
      start = r->start_ms;
      if (zw_profile_json_optional_time (o, "start_ms", FALSE, &start, c, where))
        r->start_ms = start;
      zw_profile_json_optional_time (o, "host_measured_ms", TRUE, &r->host_measured_ms, c, where);
    }
  if (cJSON_IsObject (totals))
    {
      if (zw_profile_json_number (totals, "total_ms", &prof->total_ms) && zw_profile_json_number (totals, "memcpy_ms", &prof->total_memcpy_ms)
          && zw_profile_json_number (totals, "hard_ms", &prof->total_hard_ms)
          && zw_profile_json_number (totals, "other_ms", &prof->total_other_ms)
          && zw_profile_json_number (totals, "hardop_total_ms", &prof->hardop_total_ms)
          && zw_profile_json_number (totals, "hardop_hard_ms", &prof->hardop_hard_ms))
        *totals_seen = TRUE;
      else
        zw_profile_parse_warn (c, 0, "totals: a field is missing or not a number; recomputing them");
    }
  if (*totals_seen && cJSON_IsArray (customs))
    {
      i = 0;
      cJSON_ArrayForEach (o, customs)
        {
          const cJSON *name = cJSON_GetObjectItemCaseSensitive (o, "name");
          double tot, hard;
          if (cJSON_IsString (name) && zw_profile_json_number (o, "total_ms", &tot) && zw_profile_json_number (o, "hard_ms", &hard))
            zw_profile_customop_add (prof, name->valuestring, tot, hard);
          else
            zw_profile_parse_warn (c, 0, "customops[%u]: name, total_ms or hard_ms is missing", i);
          i++;
        }
    }
  if (cJSON_IsObject (summary))
    {
      guint found = 0;
      for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
        {
          const cJSON *s = cJSON_GetObjectItemCaseSensitive (summary, zw_profile_summary_names[k]);
          const cJSON *dev = cJSON_GetObjectItemCaseSensitive (s, "device");
          double t;
          if (cJSON_IsObject (s) && zw_profile_json_number (s, "time_ms", &t) && cJSON_IsString (dev))
            {
              prof->summary[k].time_ms = t;
              prof->summary[k].device = g_strdup (dev->valuestring);
              found++;
            }
          else
            zw_profile_parse_warn (c, 0, "summary.%s: time_ms or device is missing", zw_profile_summary_names[k]);
        }
      prof->has_summary = found == ZW_PROFILE_N_SUMMARY;
    }
  return TRUE;
}
