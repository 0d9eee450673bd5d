/* zw-profile-csv.c — the time profile as CSV: one row per op, RFC 4180 quoting. */
#include "report/zw-profile-private.h"

#include <string.h>

static void
csv_field (GString *s, const char *text)
{
  if (!text)
    return;
  if (strpbrk (text, ",\"\r\n"))
    {
      g_string_append_c (s, '"');
      for (const char *c = text; *c; c++)
        {
          if (*c == '"')
            g_string_append_c (s, '"');
          g_string_append_c (s, *c);
        }
      g_string_append_c (s, '"');
    }
  else
    g_string_append (s, text);
}

#define CSV_HEADER "op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms,is_io_process,merge_from,backend,start_ms,host_measured_ms"

void
zw_profile_write_csv (const ZwProfile *p, GString *s)
{
  g_string_append (s, CSV_HEADER "\n");
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);

      g_string_append_printf (s, "%" G_GINT64_FORMAT ",", r->op_id);
      csv_field (s, r->op_type);
      g_string_append_c (s, ',');
      csv_field (s, r->op_name);
      g_string_append_c (s, ',');
      zw_profile_append_number (s, r->total_ms, FALSE);
      g_string_append_c (s, ',');
      zw_profile_append_number (s, r->memcpy_ms, FALSE);
      g_string_append_c (s, ',');
      zw_profile_append_number (s, r->hard_ms, FALSE);
      g_string_append_c (s, ',');
      zw_profile_append_number (s, r->other_ms, FALSE);
      g_string_append_c (s, ',');
      if (r->has_io_process)
        g_string_append (s, r->is_io_process ? "true" : "false");
      g_string_append_c (s, ',');
      for (guint j = 0; j < r->merge_from->len; j++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j ? ";" : "", g_array_index (r->merge_from, gint64, j));
      g_string_append_c (s, ',');
      csv_field (s, r->backend);
      g_string_append_c (s, ',');
      if (r->start_ms >= 0)
        zw_profile_append_number (s, r->start_ms, FALSE);
      g_string_append_c (s, ',');
      if (r->host_measured_ms >= 0)
        zw_profile_append_number (s, r->host_measured_ms, FALSE);
      g_string_append_c (s, '\n');
    }
}

/* ---- CSV ---- */

typedef struct {
  GPtrArray *fields;  /* char* */
  guint line;
} CsvRecord;

static void
csv_record_free (gpointer p)
{
  CsvRecord *r = p;
  g_ptr_array_unref (r->fields);
  g_free (r);
}

/* RFC 4180 records (quoted fields may hold commas, quotes and newlines). */
static GPtrArray *
csv_split (const char *data, gsize len)
{
  GPtrArray *records = g_ptr_array_new_with_free_func (csv_record_free);
  GString *field = g_string_new (NULL);
  CsvRecord *rec = NULL;
  gboolean quoted = FALSE, was_quoted = FALSE;
  guint line = 1;

  for (gsize i = 0; i <= len; i++)
    {
      char ch = i < len ? data[i] : '\n';

      if (!rec)
        {
          rec = g_new0 (CsvRecord, 1);
          rec->fields = g_ptr_array_new_with_free_func (g_free);
          rec->line = line;
        }
      if (quoted)
        {
          if (ch == '"' && i + 1 < len && data[i + 1] == '"')
            {
              g_string_append_c (field, '"');
              i++;
            }
          else if (ch == '"')
            quoted = FALSE;
          else
            {
              if (ch == '\n')
                line++;
              g_string_append_c (field, ch);
            }
          continue;
        }
      if (ch == '"' && field->len == 0 && !was_quoted)
        quoted = was_quoted = TRUE;
      else if (ch == ',')
        {
          g_ptr_array_add (rec->fields, g_strdup (field->str));
          g_string_truncate (field, 0);
          was_quoted = FALSE;
        }
      else if (ch == '\n')
        {
          gboolean empty = rec->fields->len == 0 && field->len == 0;
          if (field->len && field->str[field->len - 1] == '\r')
            g_string_truncate (field, field->len - 1);
          g_ptr_array_add (rec->fields, g_strdup (field->str));
          g_string_truncate (field, 0);
          was_quoted = FALSE;
          if (empty)
            csv_record_free (rec);
          else
            g_ptr_array_add (records, rec);
          rec = NULL;
          line++;
        }
      else
        g_string_append_c (field, ch);
    }
  if (rec)
    csv_record_free (rec);
  g_string_free (field, TRUE);
  return records;
}

gboolean
zw_profile_parse_csv (ZwProfile *prof, ZwProfileParseCtx *c, const char *data, gsize len)
{
  static const char *const cols[] = { "op_id", "op_type", "op_name", "total_ms", "memcpy_ms", "hard_ms",
                                      "other_ms", "is_io_process", "merge_from", "backend", "start_ms",
                                      "host_measured_ms" };
  enum { C_ID, C_TYPE, C_NAME, C_TOTAL, C_MEMCPY, C_HARD, C_OTHER, C_IO, C_MERGE, C_BACKEND, C_START, C_MEASURED,
         N_COLS };
  g_autoptr (GPtrArray) records = csv_split (data, len);
  gint idx[N_COLS];
  CsvRecord *head;

  if (records->len == 0)
    return FALSE;
  head = g_ptr_array_index (records, 0);
  for (guint k = 0; k < N_COLS; k++)
    {
      idx[k] = -1;
      for (guint f = 0; f < head->fields->len; f++)
        if (g_str_equal (g_strstrip ((char *) g_ptr_array_index (head->fields, f)), cols[k]))
          idx[k] = (gint) f;
    }
  if (idx[C_ID] < 0 || idx[C_TYPE] < 0 || idx[C_TOTAL] < 0)
    return FALSE;

  for (guint i = 1; i < records->len && c->error == NULL; i++)
    {
      CsvRecord *rec = g_ptr_array_index (records, i);
      const char *v[N_COLS];
      double t[4] = { 0, 0, 0, 0 };
      gint64 id;
      ZwProfileRow *r;
      gboolean ok = TRUE;

      for (guint k = 0; k < N_COLS; k++)
        v[k] = idx[k] >= 0 && (guint) idx[k] < rec->fields->len ? g_ptr_array_index (rec->fields, idx[k]) : "";
      if (!zw_profile_parse_int64 (v[C_ID], &id))
        {
          zw_profile_parse_bad_row (c, rec->line, "field op_id is missing or not an integer");
          break;
        }
      for (guint k = 0; k < 4 && ok; k++)
        if (!zw_profile_parse_number (v[C_TOTAL + k], &t[k]))
          {
            if (k > 0 && !v[C_TOTAL + k][0])
              continue;  /* an absent column or an empty field */
            zw_profile_parse_bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field %s is not a number", id, cols[C_TOTAL + k]);
            ok = FALSE;
          }
      if (!ok)
        break;
      r = zw_profile_add_row (prof, id, v[C_TYPE], v[C_NAME], t[0], t[1], t[2], t[3]);
      if (v[C_IO][0])
        {
          if (zw_profile_parse_bool (v[C_IO], &r->is_io_process))
            r->has_io_process = TRUE;
          else
            zw_profile_parse_bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field is_io_process is not true/false", id);
        }
      if (v[C_MERGE][0])
        {
          g_auto (GStrv) ids = g_strsplit (v[C_MERGE], ";", -1);
          for (guint j = 0; ids[j]; j++)
            {
              gint64 m;
              if (zw_profile_parse_int64 (ids[j], &m))
                g_array_append_val (r->merge_from, m);
              else
                zw_profile_parse_bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field merge_from: \"%s\" is not an op id", id,
                         ids[j]);
            }
        }
      if (v[C_BACKEND][0])
        r->backend = g_strdup (v[C_BACKEND]);
      if (v[C_START][0] && !zw_profile_parse_number (v[C_START], &r->start_ms))
        zw_profile_parse_bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field start_ms is not a number", id);
      if (v[C_MEASURED][0] && (!zw_profile_parse_number (v[C_MEASURED], &r->host_measured_ms) || r->host_measured_ms < 0))
        zw_profile_parse_bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field host_measured_ms is not a time", id);
    }
  return TRUE;
}
