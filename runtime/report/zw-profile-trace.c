/* zw-profile-trace.c — the time profile as a Chrome trace (traceEvents, one process per backend). */
#include "report/zw-profile-private.h"

#include "base/zw-checked.h"

#include <float.h>
#include <string.h>

/* pid per backend: the ZG330 (NPU) first, the host second, others after. */
static gint
trace_pid (GPtrArray *names, const char *backend)
{
  const char *b = backend ? backend : "unknown";

  for (guint i = 0; i < names->len; i++)
    if (g_str_equal (g_ptr_array_index (names, i), b))
      return (gint) i + 1;
  g_ptr_array_add (names, g_strdup (b));
  return (gint) names->len;
}

char *
zw_profile_write_trace (const ZwProfile *p)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  cJSON *root = cJSON_CreateObject ();
  cJSON *events = cJSON_AddArrayToObject (root, "traceEvents");
  double cursor = 0;
  char *text;

  g_ptr_array_add (names, g_strdup ("ZG330"));
  g_ptr_array_add (names, g_strdup ("Host"));
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      cJSON *e = cJSON_CreateObject ();
      cJSON *args;
      double start = r->start_ms >= 0 ? r->start_ms : cursor;
      g_autofree char *name = NULL;
      const char *cls = strrchr (r->op_type, ':');

      cls = cls ? cls + 1 : r->op_type;
      name = r->op_name[0] ? g_strdup_printf ("%s %s", cls, r->op_name)
                           : g_strdup_printf ("%s #%" G_GINT64_FORMAT, cls, r->op_id);
      cJSON_AddStringToObject (e, "name", name);
      cJSON_AddStringToObject (e, "cat", r->op_type);
      cJSON_AddStringToObject (e, "ph", "X");
      zw_profile_json_add_time (e, "ts", start * 1000.0);
      zw_profile_json_add_time (e, "dur", MAX (r->total_ms, 0) * 1000.0);
      cJSON_AddNumberToObject (e, "pid", trace_pid (names, r->backend));
      cJSON_AddNumberToObject (e, "tid", 1);
      args = cJSON_AddObjectToObject (e, "args");
      cJSON_AddNumberToObject (args, "op_id", (double) r->op_id);
      cJSON_AddStringToObject (args, "op_type", r->op_type);
      cJSON_AddStringToObject (args, "op_name", r->op_name);
      zw_profile_json_add_time (args, "total_ms", r->total_ms);
      zw_profile_json_add_time (args, "memcpy_ms", r->memcpy_ms);
      zw_profile_json_add_time (args, "hard_ms", r->hard_ms);
      zw_profile_json_add_time (args, "other_ms", r->other_ms);
      if (r->has_io_process)
        cJSON_AddBoolToObject (args, "is_io_process", r->is_io_process);
      cJSON_AddItemToObject (args, "merge_from", zw_profile_json_merge (r->merge_from));
      if (r->backend)
        cJSON_AddStringToObject (args, "backend", r->backend);
      if (r->host_measured_ms >= 0)
        zw_profile_json_add_time (args, "host_measured_ms", r->host_measured_ms);
      cJSON_AddItemToArray (events, e);
      cursor = start + MAX (r->total_ms, 0);
    }
  for (guint i = 0; i < names->len; i++)
    {
      cJSON *m = cJSON_CreateObject ();
      cJSON *args;

      cJSON_AddStringToObject (m, "name", "process_name");
      cJSON_AddStringToObject (m, "ph", "M");
      cJSON_AddNumberToObject (m, "pid", i + 1);
      cJSON_AddNumberToObject (m, "tid", 1);
      args = cJSON_AddObjectToObject (m, "args");
      cJSON_AddStringToObject (args, "name", g_ptr_array_index (names, i));
      cJSON_AddItemToArray (events, m);
    }
  cJSON_AddStringToObject (root, "displayTimeUnit", "ms");
  if (p->network)
    {
      cJSON *other = cJSON_AddObjectToObject (root, "otherData");
      cJSON_AddStringToObject (other, "network", p->network);
    }
  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  return text;
}

/* A trace's ts or dur: microseconds, so up to 1000 times the largest time in ms. */
static gboolean
json_micros (const cJSON *o, const char *key, double *out)
{
  return zw_json_double (cJSON_GetObjectItemCaseSensitive (o, key), -1e3 * FLT_MAX, 1e3 * FLT_MAX, out) == ZW_NUM_OK;
}

gboolean
zw_profile_parse_trace (ZwProfile *prof, ZwProfileParseCtx *c, const cJSON *events)
{
  g_autoptr (GHashTable) pid_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const cJSON *e;
  guint i = 0;
  gboolean any = FALSE;

  cJSON_ArrayForEach (e, events)
    {
      const cJSON *ph = cJSON_GetObjectItemCaseSensitive (e, "ph");
      const cJSON *name = cJSON_GetObjectItemCaseSensitive (e, "name");
      const cJSON *args = cJSON_GetObjectItemCaseSensitive (e, "args");
      const cJSON *an = cJSON_GetObjectItemCaseSensitive (args, "name");
      gint64 pid;

      if (cJSON_IsString (ph) && g_str_equal (ph->valuestring, "M") && cJSON_IsString (name)
          && g_str_equal (name->valuestring, "process_name") && cJSON_IsString (an)
          && zw_profile_json_id (e, "pid", G_MININT, G_MAXINT, &pid))
        g_hash_table_insert (pid_names, GINT_TO_POINTER ((gint) pid), g_strdup (an->valuestring));
    }
  cJSON_ArrayForEach (e, events)
    {
      if (c->error != NULL)
        break;
      const cJSON *ph = cJSON_GetObjectItemCaseSensitive (e, "ph");
      const cJSON *args = cJSON_GetObjectItemCaseSensitive (e, "args");
      const cJSON *type = cJSON_GetObjectItemCaseSensitive (args, "op_type");
      const cJSON *cat = cJSON_GetObjectItemCaseSensitive (e, "cat");
      const cJSON *ename = cJSON_GetObjectItemCaseSensitive (e, "name");
      const cJSON *oname = cJSON_GetObjectItemCaseSensitive (args, "op_name");
      const cJSON *io = cJSON_GetObjectItemCaseSensitive (args, "is_io_process");
      const cJSON *backend = cJSON_GetObjectItemCaseSensitive (args, "backend");
      g_autofree char *where = g_strdup_printf ("traceEvents[%u]", i++);
      double ts, dur, total, memcpy_ms = 0, hard = 0, other;
      gint64 id, pid;
      ZwProfileRow *r;

      if (!cJSON_IsString (ph) || !g_str_equal (ph->valuestring, "X"))
        continue;
      if (!json_micros (e, "ts", &ts) || !json_micros (e, "dur", &dur))
        {
          zw_profile_parse_bad_row (c, 0, "%s: field %s is missing or not a number", where, json_micros (e, "ts", &ts) ? "dur" : "ts");
          break;
        }
      if (cJSON_GetObjectItemCaseSensitive (args, "op_id") == NULL)
        id = (gint64) prof->rows->len;
      else if (!zw_profile_json_id (args, "op_id", -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id))
        {
          zw_profile_parse_bad_row (c, 0, "%s: field args.op_id is not an integer", where);
          break;
        }
      total = dur / 1000.0;
      other = G_MAXDOUBLE;
      if (!zw_profile_json_optional_time (args, "total_ms", FALSE, &total, c, where)
          || !zw_profile_json_optional_time (args, "memcpy_ms", FALSE, &memcpy_ms, c, where)
          || !zw_profile_json_optional_time (args, "hard_ms", FALSE, &hard, c, where)
          || !zw_profile_json_optional_time (args, "other_ms", FALSE, &other, c, where))
        break;
      if (other == G_MAXDOUBLE)
        other = total - hard - memcpy_ms;
      r = zw_profile_add_row (prof, id,
                              cJSON_IsString (type) ? type->valuestring
                              : cJSON_IsString (cat) ? cat->valuestring
                              : cJSON_IsString (ename) ? ename->valuestring : "",
                              cJSON_IsString (oname) ? oname->valuestring : "", total, memcpy_ms, hard, other);
      r->start_ms = ts / 1000.0;
      if (cJSON_IsBool (io))
        {
          r->has_io_process = TRUE;
          r->is_io_process = cJSON_IsTrue (io);
        }
      zw_profile_json_merge_from (r, cJSON_GetObjectItemCaseSensitive (args, "merge_from"), c, where);
      zw_profile_json_optional_time (args, "host_measured_ms", TRUE, &r->host_measured_ms, c, where);
      if (cJSON_IsString (backend))
        r->backend = g_strdup (backend->valuestring);
      else if (zw_profile_json_id (e, "pid", G_MININT, G_MAXINT, &pid) && g_hash_table_lookup (pid_names, GINT_TO_POINTER ((gint) pid)))
        r->backend = g_strdup (g_hash_table_lookup (pid_names, GINT_TO_POINTER ((gint) pid)));
      any = TRUE;
    }
  return any;
}
