/* zw-profile-vendor.c — the vendor's *_time.txt: op lines, totals, customops and the summary. */
#include "report/zw-profile-private.h"

#include <string.h>

#define STARS_ROWS "************************************"
#define STARS_TOTALS "******************************************************"

/* The vendor's summary headers, and the English part we recognise them by. */
static const char *const summary_headers[ZW_PROFILE_N_SUMMARY] = {
  "数据传入耗时(Data input time consumption):",
  "icore[npu]耗时(Icore [npu] time-consuming):",
  "数据传出耗时(Data output time consumption):",
  "cpu算子耗时(CPU operator time consumption):",
};
static const char *const summary_keys[ZW_PROFILE_N_SUMMARY] = {
  "(Data input time consumption)", "(Icore [npu] time-consuming)", "(Data output time consumption)",
  "(CPU operator time consumption)",
};
#define SUMMARY_TITLE "统计分析结果如下(The analysis results are as follows):"

void
zw_profile_write_vendor (const ZwProfile *p, GString *s)
{
  g_autoptr (ZwProfile) computed = NULL;

  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);

      g_string_append_printf (s, "op_id: %" G_GINT64_FORMAT ", op_type: %s, op_name: %s, total_time: ", r->op_id,
                              r->op_type, r->op_name);
      zw_profile_append_number (s, r->total_ms, FALSE);
      g_string_append (s, ", memcpy_time: ");
      zw_profile_append_number (s, r->memcpy_ms, FALSE);
      g_string_append (s, ", hard_time: ");
      zw_profile_append_number (s, r->hard_ms, FALSE);
      g_string_append (s, ", other_time: ");
      zw_profile_append_number (s, r->other_ms, FALSE);
      if (r->has_io_process)
        g_string_append_printf (s, ", is_io_process: %s", r->is_io_process ? "true" : "false");
      g_string_append_c (s, '\n');
    }
  if (!p->has_totals || !p->has_summary)
    {
      computed = zw_profile_copy_rows (p);
      zw_profile_compute_totals (computed);
      p = computed;
    }
  g_string_append (s, STARS_ROWS "\nTotal_TotalTime: ");
  zw_profile_append_number (s, p->total_ms, TRUE);
  g_string_append (s, ", Total_MemcpyTime: ");
  zw_profile_append_number (s, p->total_memcpy_ms, TRUE);
  g_string_append (s, ", Total_HardTime: ");
  zw_profile_append_number (s, p->total_hard_ms, TRUE);
  g_string_append (s, ", Total_OtherTime: ");
  zw_profile_append_number (s, p->total_other_ms, TRUE);
  g_string_append (s, "\nHardop_Total_Time: ");
  zw_profile_append_number (s, p->hardop_total_ms, TRUE);
  g_string_append (s, " ms, Hardop_Hard_Time : ");
  zw_profile_append_number (s, p->hardop_hard_ms, TRUE);
  g_string_append (s, " ms.\n");
  for (guint i = 0; i < p->customops->len; i++)
    {
      const ZwProfileCustomop *c = g_ptr_array_index (p->customops, i);
      g_string_append_printf (s, "Customop: %s,TotalTime: ", c->name);
      zw_profile_append_number (s, c->total_ms, TRUE);
      g_string_append (s, " ms, HardTime : ");
      zw_profile_append_number (s, c->hard_ms, TRUE);
      g_string_append (s, " ms.\n");
    }
  g_string_append (s, STARS_TOTALS "\n" SUMMARY_TITLE "\n");
  for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE + 32];

      zw_profile_format_ascii (num, sizeof num, 6, 'g', p->summary[k].time_ms);
      g_string_append_printf (s, "%s\nTime(ms):%-12sDevice:%s\n", summary_headers[k], num,
                              p->summary[k].device ? p->summary[k].device : "Null");
    }
}

static gsize
ident_len (const char *p)
{
  gsize n = 0;

  while (g_ascii_isalnum (p[n]) || p[n] == '_')
    n++;
  return n;
}

/* "k1: v1, k2: v2 …" -> table; a value runs to the next ", <ident> :" (the vendor writes
 * "Hardop_Hard_Time :" with a space).  FALSE when the line does not have that shape. */
static gboolean
parse_pairs (const char *line, GHashTable *kv)
{
  const char *p = line;
  const char *end = line + strlen (line);

  while (p < end)
    {
      gsize klen = ident_len (p);
      const char *v, *q, *next = NULL;

      if (klen == 0)
        return FALSE;
      q = p + klen;
      while (*q == ' ')
        q++;
      if (*q != ':')
        return FALSE;
      v = q + 1;
      if (*v == ' ')
        v++;
      for (const char *s = strstr (v, ", "); s; s = strstr (s + 1, ", "))
        {
          const char *r = s + 2;
          gsize il = ident_len (r);
          if (il == 0)
            continue;
          r += il;
          while (*r == ' ')
            r++;
          if (*r == ':')
            {
              next = s;
              break;
            }
        }
      g_hash_table_insert (kv, g_strndup (p, klen), g_strndup (v, (gsize) ((next ? next : end) - v)));
      p = next ? next + 2 : end;
    }
  return TRUE;
}

static void
parse_row_line (ZwProfile *prof, ZwProfileParseCtx *c, guint lineno, const char *line)
{
  static const char *const times[4] = { "total_time", "memcpy_time", "hard_time", "other_time" };
  g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *type, *name, *io;
  double t[4];
  gint64 id;
  ZwProfileRow *r;

  if (!parse_pairs (line, kv))
    {
      zw_profile_parse_bad_row (c, lineno, "not an op line (\"key: value, …\" expected)");
      return;
    }
  if (!g_hash_table_contains (kv, "op_id") || !zw_profile_parse_int64 (g_hash_table_lookup (kv, "op_id"), &id))
    {
      zw_profile_parse_bad_row (c, lineno, "field op_id is missing or not an integer");
      return;
    }
  type = g_hash_table_lookup (kv, "op_type");
  if (!type)
    {
      zw_profile_parse_bad_row (c, lineno, "op %" G_GINT64_FORMAT ": field op_type is missing", id);
      return;
    }
  for (guint i = 0; i < 4; i++)
    {
      const char *v = g_hash_table_lookup (kv, times[i]);
      if (!v || !zw_profile_parse_number (v, &t[i]))
        {
          zw_profile_parse_bad_row (c, lineno, "op %" G_GINT64_FORMAT ": field %s is %s", id, times[i], v ? "not a number" : "missing");
          return;
        }
    }
  name = g_hash_table_lookup (kv, "op_name");
  r = zw_profile_add_row (prof, id, type, name ? name : "", t[0], t[1], t[2], t[3]);
  io = g_hash_table_lookup (kv, "is_io_process");
  if (io)
    {
      if (zw_profile_parse_bool (io, &r->is_io_process))
        r->has_io_process = TRUE;
      else
        zw_profile_parse_bad_row (c, lineno, "op %" G_GINT64_FORMAT ": field is_io_process is not true/false", id);
    }
}

static gboolean
lookup_number (GHashTable *kv, const char *key, double *out)
{
  const char *v = g_hash_table_lookup (kv, key);
  return v && zw_profile_parse_number (v, out);
}

/* Parses the vendor's text.  Returns FALSE when nothing in it was a profile line. */
gboolean
zw_profile_parse_vendor (ZwProfile *prof, ZwProfileParseCtx *c, const char *data, gboolean *totals_seen)
{
  g_auto (GStrv) lines = g_strsplit (data, "\n", -1);
  gint kind = -1;
  gboolean any = FALSE;
  gboolean hardop_seen = FALSE;

  *totals_seen = FALSE;
  for (guint i = 0; lines[i] && c->error == NULL; i++)
    {
      guint lineno = i + 1;
      char *line = lines[i];
      gsize len = strlen (line);

      if (len && line[len - 1] == '\r')
        line[--len] = '\0';
      if (strspn (line, " \t") == len)
        continue;
      if (g_str_has_prefix (line, "op_id:"))
        {
          guint before = prof->rows->len;
          parse_row_line (prof, c, lineno, line);
          any |= prof->rows->len > before;
        }
      else if (strspn (line, "*") == len)
        any = TRUE;
      else if (g_str_has_prefix (line, "Total_TotalTime:"))
        {
          g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          if (parse_pairs (line, kv) && lookup_number (kv, "Total_TotalTime", &prof->total_ms)
              && lookup_number (kv, "Total_MemcpyTime", &prof->total_memcpy_ms)
              && lookup_number (kv, "Total_HardTime", &prof->total_hard_ms)
              && lookup_number (kv, "Total_OtherTime", &prof->total_other_ms))
            *totals_seen = any = TRUE;
          else
            zw_profile_parse_warn (c, lineno, "totals line: a Total_* field is missing or not a number");
        }
      else if (g_str_has_prefix (line, "Hardop_Total_Time:"))
        {
          g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          if (parse_pairs (line, kv) && lookup_number (kv, "Hardop_Total_Time", &prof->hardop_total_ms)
              && lookup_number (kv, "Hardop_Hard_Time", &prof->hardop_hard_ms))
            hardop_seen = any = TRUE;
          else
            zw_profile_parse_warn (c, lineno, "Hardop line: Hardop_Total_Time or Hardop_Hard_Time is missing or not a number");
        }
      else if (g_str_has_prefix (line, "Customop:"))
        {
          g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          /* "Customop: DetPost,TotalTime: …": the vendor omits the space after the name. */
          g_autofree char *fixed = NULL;
          const char *comma = strchr (line, ',');
          double tot, hard;

          if (comma)
            fixed = g_strdup_printf ("%.*s, %s", (int) (comma - line), line, comma + 1);
          if (fixed && parse_pairs (fixed, kv) && lookup_number (kv, "TotalTime", &tot)
              && lookup_number (kv, "HardTime", &hard))
            {
              zw_profile_customop_add (prof, g_strstrip ((char *) g_hash_table_lookup (kv, "Customop")), tot, hard);
              any = TRUE;
            }
          else
            zw_profile_parse_warn (c, lineno, "Customop line: name, TotalTime or HardTime is missing or not a number");
        }
      else if (strstr (line, "(The analysis results are as follows)"))
        {
          prof->has_summary = TRUE;
          any = TRUE;
        }
      else if (g_str_has_prefix (line, "Time(ms):"))
        {
          char *end;
          const char *p = line + strlen ("Time(ms):");
          double v = g_ascii_strtod (p, &end);
          const char *dev;

          while (g_ascii_isspace (*end))
            end++;
          dev = g_str_has_prefix (end, "Device:") ? end + strlen ("Device:") : NULL;
          if (kind < 0)
            zw_profile_parse_warn (c, lineno, "Time(ms) line outside a summary section");
          else if (end == p || !dev)
            zw_profile_parse_warn (c, lineno, "summary %s: expected \"Time(ms):<number> Device:<name>\"", zw_profile_summary_names[kind]);
          else
            {
              g_free (prof->summary[kind].device);
              prof->summary[kind].device = g_strstrip (g_strdup (dev));
              prof->summary[kind].time_ms = v;
              prof->has_summary = any = TRUE;
            }
        }
      else
        {
          gint k = -1;
          for (guint j = 0; j < ZW_PROFILE_N_SUMMARY; j++)
            if (strstr (line, summary_keys[j]))
              k = (gint) j;
          if (k >= 0)
            kind = k;
          else
            {
              g_autofree char *shown = g_utf8_make_valid (line, MIN (len, 60));
              zw_profile_parse_warn (c, lineno, "unrecognised line \"%s%s\"", shown, len > 60 ? "…" : "");
            }
        }
    }
  if (*totals_seen && !hardop_seen)
    zw_profile_parse_warn (c, 0, "no Hardop_Total_Time line after the totals");
  return any;
}
