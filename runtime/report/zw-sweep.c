/* zw-sweep.c — the sweep model, its Pareto front, JSON and CSV (see the header). */
#include "report/zw-sweep.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <string.h>

#define SWEEP_FORMAT "zhuge-sweep"
#define SWEEP_VERSION 1

guint
zw_sweep_get_n_combinations (void)
{
  return 2 * 2 * zw_ocm_opt_get_count ();
}

void
zw_sweep_row_init (ZwSweepRow *row)
{
  memset (row, 0, sizeof *row);
  row->what_if = g_strdup ("");
}

static void
row_clear (gpointer data)
{
  ZwSweepRow *row = data;

  g_clear_pointer (&row->what_if, g_free);
  g_clear_pointer (&row->error, g_free);
  g_clear_pointer (&row->report, zw_deploy_report_unref);
}

ZwSweep *
zw_sweep_new (void)
{
  ZwSweep *s = g_new0 (ZwSweep, 1);

  s->ref_count = 1;
  s->what_if = g_ptr_array_new_with_free_func (g_free);
  s->rows = g_array_new (FALSE, TRUE, sizeof (ZwSweepRow));
  g_array_set_clear_func (s->rows, row_clear);
  s->recommended = -1;
  s->recommended_at = g_array_new (FALSE, FALSE, sizeof (gint));
  return s;
}

ZwSweep *
zw_sweep_ref (ZwSweep *sweep)
{
  g_return_val_if_fail (sweep != NULL, NULL);
  g_atomic_int_inc (&sweep->ref_count);
  return sweep;
}

void
zw_sweep_unref (ZwSweep *sweep)
{
  if (sweep == NULL || !g_atomic_int_dec_and_test (&sweep->ref_count))
    return;
  g_free (sweep->network_name);
  g_free (sweep->network_path);
  g_ptr_array_unref (sweep->what_if);
  g_array_unref (sweep->rows);
  g_array_unref (sweep->recommended_at);
  g_free (sweep);
}

gboolean
zw_sweep_row_dominates (const ZwSweepRow *a, const ZwSweepRow *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  return a->simulated_ms <= b->simulated_ms && a->etm_bytes <= b->etm_bytes
         && (a->simulated_ms < b->simulated_ms || a->etm_bytes < b->etm_bytes);
}

static gint
cmp_time_etm (gconstpointer pa, gconstpointer pb)
{
  const ZwSweepRow *a = *(ZwSweepRow *const *) pa, *b = *(ZwSweepRow *const *) pb;

  if (a->simulated_ms != b->simulated_ms)
    return a->simulated_ms < b->simulated_ms ? -1 : 1;
  if (a->etm_bytes != b->etm_bytes)
    return a->etm_bytes < b->etm_bytes ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

void
zw_sweep_compute_front (ZwSweep *sweep)
{
  g_return_if_fail (sweep != NULL);
  g_autoptr (GPtrArray) ok = g_ptr_array_new ();

  for (guint i = 0; i < sweep->rows->len; i++)
    {
      ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      r->on_front = FALSE;
      if (r->error == NULL)
        g_ptr_array_add (ok, r);
    }
  /* By time then ETM bytes: a row is on the front when its ETM bytes are below every
   * faster row's, or equal to those of the rows of its own point. */
  g_ptr_array_sort (ok, cmp_time_etm);
  guint64 best_etm = G_MAXUINT64;
  for (guint i = 0; i < ok->len;)
    {
      ZwSweepRow *r = g_ptr_array_index (ok, i);
      guint j = i;
      while (j < ok->len && ((ZwSweepRow *) g_ptr_array_index (ok, j))->simulated_ms == r->simulated_ms
             && ((ZwSweepRow *) g_ptr_array_index (ok, j))->etm_bytes == r->etm_bytes)
        j++;
      gboolean front = r->etm_bytes < best_etm;
      for (guint k = i; k < j; k++)
        ((ZwSweepRow *) g_ptr_array_index (ok, k))->on_front = front;
      if (front)
        best_etm = r->etm_bytes;
      /* the next rows of the same time but more ETM bytes stay behind this one */
      i = j;
    }
  sweep->recommended = ok->len > 0 ? (gint) ((ZwSweepRow *) g_ptr_array_index (ok, 0))->index : -1;
  /* per what-if point: the first row of that point in time order */
  g_array_set_size (sweep->recommended_at, sweep->what_if->len);
  for (guint p = 0; p < sweep->what_if->len; p++)
    g_array_index (sweep->recommended_at, gint, p) = -1;
  for (guint i = 0; i < ok->len; i++)
    {
      const ZwSweepRow *r = g_ptr_array_index (ok, i);
      gint p = zw_sweep_point_of_row (sweep, r);
      if (p >= 0 && g_array_index (sweep->recommended_at, gint, p) < 0)
        g_array_index (sweep->recommended_at, gint, p) = (gint) r->index;
    }
}

gint
zw_sweep_point_of_row (const ZwSweep *sweep, const ZwSweepRow *row)
{
  g_return_val_if_fail (sweep != NULL && row != NULL, -1);
  for (guint p = 0; p < sweep->what_if->len; p++)
    if (g_strcmp0 (g_ptr_array_index (sweep->what_if, p), row->what_if != NULL ? row->what_if : "") == 0)
      return (gint) p;
  return -1;
}

gint
zw_sweep_recommended_at (const ZwSweep *sweep, guint point)
{
  g_return_val_if_fail (sweep != NULL, -1);
  if (sweep->what_if->len == 0 && point == 0)
    return sweep->recommended;   /* one device profile, no grid */
  return point < sweep->recommended_at->len ? g_array_index (sweep->recommended_at, gint, point) : -1;
}

gboolean
zw_sweep_row_is_recommended (const ZwSweep *sweep, const ZwSweepRow *row)
{
  gint p;

  g_return_val_if_fail (sweep != NULL && row != NULL, FALSE);
  if (sweep->what_if->len <= 1)
    return (gint) row->index == sweep->recommended;
  p = zw_sweep_point_of_row (sweep, row);
  return p >= 0 && zw_sweep_recommended_at (sweep, (guint) p) == (gint) row->index;
}

cJSON *
zw_sweep_to_json (const ZwSweep *sweep)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *net, *grid, *rows;

  g_return_val_if_fail (sweep != NULL, root);
  /* the format first: a reader that sniffs the top of a file (the workbench) finds it
   * however long the grid is */
  cJSON_AddStringToObject (root, "format", SWEEP_FORMAT);
  cJSON_AddNumberToObject (root, "version", SWEEP_VERSION);
  net = cJSON_AddObjectToObject (root, "network");
  grid = cJSON_AddArrayToObject (root, "what_if");
  cJSON_AddStringToObject (net, "name", sweep->network_name ? sweep->network_name : "");
  cJSON_AddStringToObject (net, "path", sweep->network_path ? sweep->network_path : "");
  for (guint i = 0; i < sweep->what_if->len; i++)
    cJSON_AddItemToArray (grid, cJSON_CreateString (g_ptr_array_index (sweep->what_if, i)));
  rows = cJSON_AddArrayToObject (root, "rows");
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddNumberToObject (o, "index", r->index);
      cJSON_AddBoolToObject (o, "merge_hardop", r->merge_hardop);
      cJSON_AddBoolToObject (o, "etm_optimize", r->etm_optimize);
      cJSON_AddStringToObject (o, "ocm_requested", zw_ocm_opt_to_string (r->ocm_requested));
      cJSON_AddStringToObject (o, "ocm_chosen", zw_ocm_opt_to_string (r->ocm_chosen));
      cJSON_AddStringToObject (o, "what_if", r->what_if ? r->what_if : "");
      cJSON_AddNumberToObject (o, "ocm_capacity", (double) r->ocm_capacity);
      cJSON_AddNumberToObject (o, "icore_clock_hz", r->icore_clock_hz);
      cJSON_AddNumberToObject (o, "simulated_ms", r->simulated_ms);
      cJSON_AddNumberToObject (o, "ftmp_bytes", (double) r->ftmp_bytes);
      cJSON_AddNumberToObject (o, "ocm_bytes", (double) r->ocm_bytes);
      if (r->ocm_peak != G_MAXUINT64)
        cJSON_AddNumberToObject (o, "ocm_peak", (double) r->ocm_peak);
      cJSON_AddNumberToObject (o, "etm_bytes", (double) r->etm_bytes);
      cJSON_AddNumberToObject (o, "launches", r->launches);
      cJSON_AddBoolToObject (o, "checked", r->checked);
      cJSON_AddBoolToObject (o, "on_front", r->on_front);
      if (r->error)
        cJSON_AddStringToObject (o, "error", r->error);
      else
        cJSON_AddNullToObject (o, "error");
      cJSON_AddItemToArray (rows, o);
    }
  cJSON_AddNumberToObject (root, "recommended", sweep->recommended);
  return root;
}

/* CSV text field: quoted when it holds a separator or a quote. */
static void
csv_text (GString *out, const char *s)
{
  if (strpbrk (s, ",\"\n") == NULL)
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      if (*s == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

char *
zw_sweep_to_csv (const ZwSweep *sweep)
{
  GString *out = g_string_new ("index,merge_hardop,etm_optimize,ocm_requested,ocm_chosen,what_if,ocm_capacity,"
                               "icore_clock_hz,simulated_ms,ftmp_bytes,ocm_bytes,ocm_peak_bytes,etm_bytes,launches,checked,"
                               "on_front,recommended,error\n");

  g_return_val_if_fail (sweep != NULL, g_string_free (out, FALSE));
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      char num[G_ASCII_DTOSTR_BUF_SIZE], hz[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, "%u,%d,%d,%s,%s,", r->index, r->merge_hardop ? 1 : 0, r->etm_optimize ? 1 : 0,
                              zw_ocm_opt_to_string (r->ocm_requested), zw_ocm_opt_to_string (r->ocm_chosen));
      csv_text (out, r->what_if ? r->what_if : "");
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%s,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              r->ocm_capacity, g_ascii_formatd (hz, sizeof hz, "%.0f", r->icore_clock_hz),
                              g_ascii_formatd (num, sizeof num, "%.6f", r->simulated_ms), r->ftmp_bytes, r->ocm_bytes);
      /* the most OCM bytes live at once; empty when the row did not say (an older sweep file) */
      if (r->ocm_peak != G_MAXUINT64)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, r->ocm_peak);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%u,%d,%d,%d,", r->etm_bytes, r->launches,
                              r->checked ? 1 : 0, r->on_front ? 1 : 0, (gint) r->index == sweep->recommended ? 1 : 0);
      csv_text (out, r->error ? r->error : "");
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

gboolean
zw_sweep_save_json (const ZwSweep *sweep, const char *path, GError **error)
{
  cJSON *json = zw_sweep_to_json (sweep);
  g_autofree char *text = cJSON_Print (json);

  cJSON_Delete (json);
  return zw_file_set_contents (path, text, -1, error);
}

gboolean
zw_sweep_save_csv (const ZwSweep *sweep, const char *path, GError **error)
{
  g_autofree char *text = zw_sweep_to_csv (sweep);
  return zw_file_set_contents (path, text, -1, error);
}

/* A finite number in [min, max] (zw-checked.h), else an error naming the file, the row and
 * the field. */
static gboolean
field_number (const cJSON *o, const char *key, double min, double max, double *out, const char *origin, guint i,
              GError **error)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive (o, key);
  ZwNumStatus st = zw_json_double (f, min, max, out);

  if (st != ZW_NUM_OK)
    {
      g_autofree char *why = zw_num_status_describe (st, f, min, max);
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: rows[%u]: field \"%s\" %s", origin, i, key,
                   why);
      return FALSE;
    }
  return TRUE;
}

/* An integer in [0, max], likewise. */
static gboolean
field_count (const cJSON *o, const char *key, gint64 max, guint64 *out, const char *origin, guint i, GError **error)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive (o, key);
  gint64 v = 0;
  ZwNumStatus st = zw_json_int64 (f, 0, max, &v);

  if (st != ZW_NUM_OK)
    {
      g_autofree char *why = zw_num_status_describe (st, f, 0, (double) max);
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: rows[%u]: field \"%s\" %s", origin, i, key,
                   why);
      return FALSE;
    }
  *out = (guint64) v;
  return TRUE;
}

static gboolean
field_ocm (const cJSON *o, const char *key, ZwOcmOpt *out, const char *origin, guint i, GError **error)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive (o, key);

  if (!cJSON_IsString (f) || !zw_ocm_opt_from_string (f->valuestring, out))
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: rows[%u]: field \"%s\" is not an OcmOpt",
                   origin, i, key);
      return FALSE;
    }
  return TRUE;
}

ZwSweep *
zw_sweep_new_from_json (const cJSON *json, const char *origin, GError **error)
{
  g_autoptr (ZwSweep) s = zw_sweep_new ();
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive (json, "format");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive (json, "version");
  const cJSON *net = cJSON_GetObjectItemCaseSensitive (json, "network");
  const cJSON *grid = cJSON_GetObjectItemCaseSensitive (json, "what_if");
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive (json, "rows");
  const cJSON *item;
  guint i = 0;

  if (!cJSON_IsString (fmt) || strcmp (fmt->valuestring, SWEEP_FORMAT) != 0)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: not a sweep (field \"format\" is not \""
                   SWEEP_FORMAT "\")", origin);
      return NULL;
    }
  if (zw_json_double (ver, 1, SWEEP_VERSION, NULL) != ZW_NUM_OK)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_VERSION, "%s: field \"version\" must be a number from 1 "
                   "to %d (this program's)", origin, SWEEP_VERSION);
      return NULL;
    }
  if (!cJSON_IsArray (rows))
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: field \"rows\" is missing or not an array",
                   origin);
      return NULL;
    }
  if (cJSON_IsObject (net))
    {
      const cJSON *name = cJSON_GetObjectItemCaseSensitive (net, "name");
      const cJSON *path = cJSON_GetObjectItemCaseSensitive (net, "path");
      s->network_name = g_strdup (cJSON_IsString (name) ? name->valuestring : "");
      s->network_path = g_strdup (cJSON_IsString (path) ? path->valuestring : "");
    }
  cJSON_ArrayForEach (item, grid)
    if (cJSON_IsString (item))
      g_ptr_array_add (s->what_if, g_strdup (item->valuestring));
  cJSON_ArrayForEach (item, rows)
    {
      ZwSweepRow r;
      guint64 launches = 0;
      const cJSON *f;

      zw_sweep_row_init (&r);
      r.index = i;
      g_array_append_val (s->rows, r);
      ZwSweepRow *row = &g_array_index (s->rows, ZwSweepRow, i);
      if (!field_ocm (item, "ocm_requested", &row->ocm_requested, origin, i, error)
          || !field_ocm (item, "ocm_chosen", &row->ocm_chosen, origin, i, error))
        return NULL;
      f = cJSON_GetObjectItemCaseSensitive (item, "merge_hardop");
      row->merge_hardop = cJSON_IsTrue (f);
      f = cJSON_GetObjectItemCaseSensitive (item, "etm_optimize");
      row->etm_optimize = cJSON_IsTrue (f);
      f = cJSON_GetObjectItemCaseSensitive (item, "checked");
      row->checked = cJSON_IsTrue (f);
      f = cJSON_GetObjectItemCaseSensitive (item, "what_if");
      if (cJSON_IsString (f))
        {
          g_free (row->what_if);
          row->what_if = g_strdup (f->valuestring);
        }
      f = cJSON_GetObjectItemCaseSensitive (item, "error");
      if (cJSON_IsString (f))
        row->error = g_strdup (f->valuestring);
      /* a row that did not run carries zeros; times and clocks are finite and not negative,
       * byte counts whole and below 2^53 (what a double holds exactly) */
      if (!field_number (item, "simulated_ms", 0, G_MAXDOUBLE, &row->simulated_ms, origin, i, error)
          || !field_number (item, "icore_clock_hz", 0, G_MAXDOUBLE, &row->icore_clock_hz, origin, i, error)
          || !field_count (item, "ocm_capacity", ZW_JSON_INT_MAX, &row->ocm_capacity, origin, i, error)
          || !field_count (item, "ftmp_bytes", ZW_JSON_INT_MAX, &row->ftmp_bytes, origin, i, error)
          || !field_count (item, "ocm_bytes", ZW_JSON_INT_MAX, &row->ocm_bytes, origin, i, error)
          || !field_count (item, "etm_bytes", ZW_JSON_INT_MAX, &row->etm_bytes, origin, i, error)
          || !field_count (item, "launches", G_MAXUINT, &launches, origin, i, error))
        return NULL;
      /* written since issue 37: older sweeps do not know their peaks */
      row->ocm_peak = G_MAXUINT64;
      if (cJSON_GetObjectItemCaseSensitive (item, "ocm_peak") != NULL
          && !field_count (item, "ocm_peak", ZW_JSON_INT_MAX, &row->ocm_peak, origin, i, error))
        return NULL;
      row->launches = (guint) launches;
      i++;
    }
  /* the front and the recommendation follow from the rows */
  zw_sweep_compute_front (s);
  return g_steal_pointer (&s);
}

ZwSweep *
zw_sweep_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  GError *local = NULL;

  if (!zw_file_read_regular (path, ZW_INPUT_SWEEP, 0, &text, &len, &local))
    {
      g_set_error_literal (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  cJSON *json = cJSON_ParseWithLength (text, len);
  if (json == NULL)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_PARSE, "%s: not JSON", path);
      return NULL;
    }
  if (zw_json_depth (json, ZW_MAX_JSON_DEPTH) > ZW_MAX_JSON_DEPTH)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: nested deeper than %d levels", path,
                   ZW_MAX_JSON_DEPTH);
      cJSON_Delete (json);
      return NULL;
    }
  ZwSweep *s = zw_sweep_new_from_json (json, path, error);
  cJSON_Delete (json);
  return s;
}
