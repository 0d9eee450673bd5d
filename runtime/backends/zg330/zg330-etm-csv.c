/* zg330-etm-csv.c — buffer lists and plans as MiniMalloc's CSV (id,lower,upper,size
 * [,offset]), read with checked numbers and written atomically. */
#include "backends/zg330/zg330-etm-plan.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* MiniMalloc CSV.                                                          */

static const char *const csv_columns[] = { "id", "lower", "upper", "size", "offset" };

gboolean
zg330_buffers_save_csv (const char        *path,
                        const Zg330Buffer *b,
                        guint              n,
                        gboolean           with_offset,
                        GError           **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  g_autoptr (GString) out = g_string_new (with_offset ? "id,lower,upper,size,offset\n"
                                                      : "id,lower,upper,size\n");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
                              G_GINT64_FORMAT ",%" G_GUINT64_FORMAT,
                              b[i].id, b[i].lower, b[i].upper, b[i].size);
      if (with_offset)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, b[i].offset);
      g_string_append_c (out, '\n');
    }
  g_autoptr (GError) local = NULL;
  if (!zw_file_set_contents (path, out->str, (gssize) out->len, &local))
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_IO,
                   "%s: cannot write buffer CSV: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

GArray *
zg330_buffers_load_csv (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr (GError) local = NULL;
  if (!zw_file_read_regular (path, ZW_INPUT_BUFFER_CSV, 0, &text, &len, &local))
    {
      g_set_error_literal (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_IO, local->message);
      return NULL;
    }
  if (memchr (text, '\0', len) != NULL)
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                   "%s: binary data (NUL byte at offset %zu), expected CSV",
                   path, (size_t) ((char *) memchr (text, '\0', len) - text));
      return NULL;
    }

  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (Zg330Buffer));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint ncols = 0;

  for (guint ln = 0; lines[ln] != NULL; ln++)
    {
      char *line = g_strstrip (lines[ln]);   /* also drops a CR */
      if (*line == '\0')
        continue;
      g_auto (GStrv) fields = g_strsplit (line, ",", -1);
      guint nf = g_strv_length (fields);
      for (guint f = 0; f < nf; f++)
        g_strstrip (fields[f]);

      if (ncols == 0)
        {
          gboolean ok = nf == 4 || nf == 5;
          for (guint f = 0; ok && f < nf; f++)
            ok = g_ascii_strcasecmp (fields[f], csv_columns[f]) == 0;
          if (!ok)
            {
              g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                           "%s:%u: expected the header 'id,lower,upper,size[,offset]', found '%s'",
                           path, ln + 1, line);
              return NULL;
            }
          ncols = nf;
          continue;
        }
      if (nf != ncols)
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                       "%s:%u: expected %u columns, found %u", path, ln + 1, ncols, nf);
          return NULL;
        }
      gint64 v[5] = { 0 };
      for (guint f = 0; f < nf; f++)
        {
          guint64 u = 0;
          g_autoptr (GError) perr = NULL;
          if (!g_ascii_string_to_unsigned (fields[f], 10, 0, G_MAXINT64, &u, &perr))
            {
              g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                           "%s:%u: column %u (%s): '%s' is not a non-negative integer",
                           path, ln + 1, f + 1, csv_columns[f], fields[f]);
              return NULL;
            }
          v[f] = (gint64) u;
        }
      if (v[1] >= v[2])
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                       "%s:%u: column 3 (upper): upper %" G_GINT64_FORMAT
                       " must be greater than lower %" G_GINT64_FORMAT " (half-open lifetime)",
                       path, ln + 1, v[2], v[1]);
          return NULL;
        }
      gpointer first_line = NULL;
      if (g_hash_table_lookup_extended (seen, &v[0], NULL, &first_line))
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                       "%s:%u: column 1 (id): duplicate id %" G_GINT64_FORMAT
                       " (first on line %u)", path, ln + 1, v[0], GPOINTER_TO_UINT (first_line));
          return NULL;
        }
      g_hash_table_insert (seen, g_memdup2 (&v[0], sizeof (gint64)), GUINT_TO_POINTER (ln + 1));
      Zg330Buffer buf = { v[0], v[1], v[2], (guint64) v[3], (guint64) v[4] };
      g_array_append_val (out, buf);
    }
  if (ncols == 0)
    {
      g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_PARSE,
                   "%s:1: empty file, expected the header 'id,lower,upper,size'", path);
      return NULL;
    }
  return g_steal_pointer (&out);
}
