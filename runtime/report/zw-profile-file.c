/* zw-profile-file.c — a time profile to and from text and files: the format chosen by name
 * for writing and recognised by its first bytes for reading, the parse context (warnings, the
 * first bad row), and totals filled in from the rows when a file leaves them out. */
#include "report/zw-profile-private.h"

#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <string.h>

char *
zw_profile_to_string (const ZwProfile *profile, ZwProfileFormat format)
{
  GString *s;

  g_return_val_if_fail (profile != NULL, NULL);
  switch (format)
    {
    case ZW_PROFILE_FORMAT_VENDOR:
      s = g_string_new (NULL);
      zw_profile_write_vendor (profile, s);
      return g_string_free (s, FALSE);
    case ZW_PROFILE_FORMAT_CSV:
      s = g_string_new (NULL);
      zw_profile_write_csv (profile, s);
      return g_string_free (s, FALSE);
    case ZW_PROFILE_FORMAT_JSON:
      return zw_profile_write_json (profile);
    case ZW_PROFILE_FORMAT_TRACE:
      return zw_profile_write_trace (profile);
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
zw_profile_write (const ZwProfile *profile, const char *path, ZwProfileFormat format, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (profile != NULL && path != NULL, FALSE);
  text = zw_profile_to_string (profile, format);
  if (!text)
    {
      g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_FORMAT, "%s: unknown time-profile format %d", path,
                   (int) format);
      return FALSE;
    }
  if (!zw_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_IO, "%s: cannot write the time profile: %s", path,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

/* A row that is there but cannot be read whole refuses the file, in every format: a profile
 * read without one of its rows would compare as if that op had not run. */
void
zw_profile_parse_bad_row (ZwProfileParseCtx *c, guint line, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  if (c->error != NULL)
    return;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (line)
    c->error = g_error_new (ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE, "%s:%u: %s", c->origin, line, msg);
  else
    c->error = g_error_new (ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE, "%s: %s", c->origin, msg);
}

void
zw_profile_parse_warn (ZwProfileParseCtx *c, guint line, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  if (!c->warnings)
    return;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (line)
    g_ptr_array_add (c->warnings, g_strdup_printf ("%s:%u: %s", c->origin, line, msg));
  else
    g_ptr_array_add (c->warnings, g_strdup_printf ("%s: %s", c->origin, msg));
}

/* Totals computed from the rows, keeping what the file stated. */
static void
fill_missing (ZwProfile *prof, gboolean totals_seen)
{
  g_autoptr (ZwProfile) computed = NULL;

  prof->has_totals = TRUE;
  if (totals_seen && prof->has_summary)
    return;
  computed = zw_profile_copy_rows (prof);
  zw_profile_compute_totals (computed);
  if (!totals_seen)
    {
      prof->total_ms = computed->total_ms;
      prof->total_memcpy_ms = computed->total_memcpy_ms;
      prof->total_hard_ms = computed->total_hard_ms;
      prof->total_other_ms = computed->total_other_ms;
      prof->hardop_total_ms = computed->hardop_total_ms;
      prof->hardop_hard_ms = computed->hardop_hard_ms;
      g_ptr_array_set_size (prof->customops, 0);
      for (guint i = 0; i < computed->customops->len; i++)
        {
          ZwProfileCustomop *x = g_ptr_array_index (computed->customops, i);
          zw_profile_customop_add (prof, x->name, x->total_ms, x->hard_ms);
        }
    }
  prof->has_totals = TRUE;
  if (!prof->has_summary)
    {
      zw_profile_summary_clear (prof);
      for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
        {
          prof->summary[k].time_ms = computed->summary[k].time_ms;
          prof->summary[k].device = g_strdup (computed->summary[k].device);
        }
      prof->has_summary = TRUE;
    }
}

ZwProfile *
zw_profile_parse (const char *data, gssize length, const char *origin, GPtrArray *warnings,
                  ZwProfileFormat *format_out, GError **error)
{
  g_autoptr (ZwProfile) prof = NULL;
  g_autofree char *copy = NULL;
  ZwProfileParseCtx c = { origin ? origin : "(profile)", warnings, NULL };
  const char *p;
  gboolean ok = FALSE, totals_seen = FALSE;
  ZwProfileFormat fmt;
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  len = length < 0 ? strlen (data) : (gsize) length;
  copy = g_strndup (data, len);  /* NUL-terminated, and the parsers may edit it */
  len = strlen (copy);
  p = copy;
  if (g_str_has_prefix (p, "\xEF\xBB\xBF"))
    p += 3;
  while (g_ascii_isspace (*p))
    p++;
  prof = zw_profile_new (NULL);

  if (*p == '{' || *p == '[')
    {
      cJSON *root = cJSON_ParseWithLength (p, len - (gsize) (p - copy));
      const cJSON *fmt_name = cJSON_GetObjectItemCaseSensitive (root, "format");
      const cJSON *events = cJSON_IsArray (root) ? root : cJSON_GetObjectItemCaseSensitive (root, "traceEvents");

      if (!root)
        {
          g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE, "%s: not valid JSON (near byte %ld)", c.origin,
                       (long) (cJSON_GetErrorPtr () ? cJSON_GetErrorPtr () - p : 0));
          return NULL;
        }
      if (cJSON_IsArray (events))
        {
          const cJSON *other = cJSON_GetObjectItemCaseSensitive (root, "otherData");
          const cJSON *net = cJSON_GetObjectItemCaseSensitive (other, "network");
          fmt = ZW_PROFILE_FORMAT_TRACE;
          ok = zw_profile_parse_trace (prof, &c, events);
          if (cJSON_IsString (net))
            prof->network = g_strdup (net->valuestring);
        }
      else
        {
          fmt = ZW_PROFILE_FORMAT_JSON;
          if (cJSON_IsString (fmt_name) && !g_str_equal (fmt_name->valuestring, JSON_FORMAT_NAME))
            zw_profile_parse_warn (&c, 0, "format is \"%s\", not \"" JSON_FORMAT_NAME "\"; reading it anyway", fmt_name->valuestring);
          ok = zw_profile_parse_json (prof, &c, root, &totals_seen);
        }
      cJSON_Delete (root);
    }
  else if (g_str_has_prefix (p, "op_id,"))
    {
      fmt = ZW_PROFILE_FORMAT_CSV;
      ok = zw_profile_parse_csv (prof, &c, p, len - (gsize) (p - copy));
    }
  else
    {
      fmt = ZW_PROFILE_FORMAT_VENDOR;
      ok = zw_profile_parse_vendor (prof, &c, p, &totals_seen);
    }
  if (c.error != NULL)
    {
      g_propagate_error (error, c.error);
      return NULL;
    }
  /* empty is refused alike in every format (a header alone, "rows": [], a trace without a
   * complete event, a vendor file of totals or summaries only): compared, an empty profile
   * would show every op of the other as gone rather than fail */
  if (!ok || prof->rows->len == 0)
    {
      g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE,
                   "%s: no time profile in it (no op lines, rows or trace events)", c.origin);
      return NULL;
    }
  if (!totals_seen)
    prof->has_summary = FALSE;
  fill_missing (prof, totals_seen);
  {
    gboolean all_start = TRUE;
    for (guint i = 0; i < prof->rows->len && all_start; i++)
      all_start = ((const ZwProfileRow *) g_ptr_array_index (prof->rows, i))->start_ms >= 0;
    if (all_start)
      zw_profile_order_recorded (prof);
    else
      zw_profile_order_infer (prof);
  }
  zw_profile_check_rows (prof);
  prof->has_host_measured = FALSE;
  prof->host_measured_ms = 0;
  for (guint i = 0; i < prof->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (prof->rows, i);
      if (r->host_measured_ms >= 0)
        {
          prof->has_host_measured = TRUE;
          prof->host_measured_ms += r->host_measured_ms;
        }
    }
  if (format_out)
    *format_out = fmt;
  return g_steal_pointer (&prof);
}

ZwProfile *
zw_profile_load (const char *path, GPtrArray *warnings, ZwProfileFormat *format_out, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *base = NULL;
  g_autoptr (GError) local = NULL;
  ZwProfile *prof;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_TIME_PROFILE, 0, &data, &len, &local))
    {
      g_set_error_literal (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_IO, local->message);
      return NULL;
    }
  prof = zw_profile_parse (data, (gssize) len, path, warnings, format_out, error);
  if (prof && !prof->network)
    {
      /* "<net>_time.txt" names its network. */
      base = g_path_get_basename (path);
      if (g_str_has_suffix (base, "_time.txt"))
        prof->network = g_strndup (base, strlen (base) - strlen ("_time.txt"));
    }
  return prof;
}
