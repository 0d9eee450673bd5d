/* zw-dump-manifest.c — manifest.json of a dump folder: what each {v_id}.ftmp holds. */
#include "report/zw-dump-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <cjson/cJSON.h>

static gboolean
memory_from_string (const char *s, ZwDumpMemory *out)
{
  for (ZwDumpMemory m = ZW_DUMP_MEMORY_ETM; m <= ZW_DUMP_MEMORY_HOST; m++)
    if (g_ascii_strcasecmp (s, zw_dump_memory_to_string (m)) == 0)
      {
        *out = m;
        return TRUE;
      }
  return FALSE;
}

/* ---- manifest --------------------------------------------------------------------- */

static void
entry_free (gpointer p)
{
  ZwDumpManifestEntry *e = p;

  zw_dump_type_clear (&e->type);
  g_free (e->file);
  g_free (e->network);
  g_free (e);
}

ZwDumpManifest *
zw_dump_manifest_new (const char *network, ZwDumpFormat format, gboolean complete, const char *note)
{
  ZwDumpManifest *m = g_new0 (ZwDumpManifest, 1);

  m->network = g_strdup (network);
  m->format = format;
  m->complete = complete;
  m->note = g_strdup (note);
  m->entries = g_ptr_array_new_with_free_func (entry_free);
  return m;
}

void
zw_dump_manifest_free (ZwDumpManifest *manifest)
{
  if (!manifest)
    return;
  g_free (manifest->network);
  g_free (manifest->note);
  g_ptr_array_unref (manifest->entries);
  g_free (manifest);
}

ZwDumpManifestEntry *
zw_dump_manifest_add (ZwDumpManifest *manifest, const XirValue *value, gint64 op_id, ZwDumpMemory memory,
                      gint64 address)
{
  ZwDumpManifestEntry *e;

  g_return_val_if_fail (manifest != NULL && value != NULL, NULL);
  e = g_new0 (ZwDumpManifestEntry, 1);
  zw_dump_type_init_from_value (&e->type, value);
  e->op_id = op_id;
  e->memory = memory;
  e->address = address;
  e->format = manifest->format;
  e->file = g_strdup_printf ("%" G_GINT64_FORMAT ".ftmp", value->v_id);
  g_ptr_array_add (manifest->entries, e);
  return e;
}

gboolean
zw_dump_manifest_write (const ZwDumpManifest *manifest, const char *dir, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;
  cJSON *root, *entries;

  g_return_val_if_fail (manifest != NULL && dir != NULL, FALSE);
  path = g_build_filename (dir, MANIFEST_NAME, NULL);
  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "format", MANIFEST_FORMAT);
  cJSON_AddNumberToObject (root, "version", MANIFEST_VERSION);
  if (manifest->network)
    cJSON_AddStringToObject (root, "network", manifest->network);
  cJSON_AddStringToObject (root, "dump_format", zw_dump_format_to_string (manifest->format));
  cJSON_AddBoolToObject (root, "complete", manifest->complete);
  if (manifest->note)
    cJSON_AddStringToObject (root, "note", manifest->note);
  entries = cJSON_AddArrayToObject (root, "entries");
  for (guint i = 0; i < manifest->entries->len; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (manifest->entries, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON *shape = cJSON_AddArrayToObject (o, "shape");
      cJSON *scales;
      g_autofree char *dtype = xir_scalar_type_to_string (&e->type.storage);

      cJSON_AddNumberToObject (o, "v_id", (double) e->type.v_id);
      cJSON_AddNumberToObject (o, "op", (double) e->op_id);
      for (guint d = 0; d < e->type.rank; d++)
        cJSON_AddItemToArray (shape, cJSON_CreateNumber ((double) e->type.shape[d]));
      cJSON_AddStringToObject (o, "dtype", dtype);
      cJSON_AddStringToObject (o, "layout", e->type.layout.text);
      scales = cJSON_AddArrayToObject (o, "scales");
      for (guint s = 0; s < e->type.n_scales; s++)
        {
          /* %.9g reads back as the same float32 (cJSON's %.15g would not always). */
          char num[G_ASCII_DTOSTR_BUF_SIZE];
          g_ascii_formatd (num, sizeof num, "%.9g", e->type.scales[s]);
          cJSON_AddItemToArray (scales, cJSON_CreateRaw (num));
        }
      cJSON_AddStringToObject (o, "memory", zw_dump_memory_to_string (e->memory));
      cJSON_AddNumberToObject (o, "address", (double) e->address);
      cJSON_AddStringToObject (o, "format", zw_dump_format_to_string (e->format));
      cJSON_AddStringToObject (o, "file", e->file);
      if (e->network != NULL)
        cJSON_AddStringToObject (o, "network", e->network);
      cJSON_AddItemToArray (entries, o);
    }
  text = cJSON_Print (root);
  cJSON_Delete (root);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, "%s: cannot create the folder: %s", dir,
                   g_strerror (errno));
      return FALSE;
    }
  if (!zw_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, "%s: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

/* One entry; FALSE with @field naming what is wrong. */
static gboolean
entry_from_json (const cJSON *o, ZwDumpManifestEntry *e, const char **field, char **detail)
{
  const cJSON *v_id = cJSON_GetObjectItemCaseSensitive (o, "v_id");
  const cJSON *op = cJSON_GetObjectItemCaseSensitive (o, "op");
  const cJSON *shape = cJSON_GetObjectItemCaseSensitive (o, "shape");
  const cJSON *dtype = cJSON_GetObjectItemCaseSensitive (o, "dtype");
  const cJSON *layout = cJSON_GetObjectItemCaseSensitive (o, "layout");
  const cJSON *scales = cJSON_GetObjectItemCaseSensitive (o, "scales");
  const cJSON *memory = cJSON_GetObjectItemCaseSensitive (o, "memory");
  const cJSON *address = cJSON_GetObjectItemCaseSensitive (o, "address");
  const cJSON *format = cJSON_GetObjectItemCaseSensitive (o, "format");
  const cJSON *file = cJSON_GetObjectItemCaseSensitive (o, "file");
  const cJSON *network = cJSON_GetObjectItemCaseSensitive (o, "network");
  g_autoptr (GError) err = NULL;
  g_autofree char *layout_text = NULL;
  guint i = 0;
  const cJSON *x;

  e->op_id = -1;
  e->address = -1;
  e->memory = ZW_DUMP_MEMORY_ETM;
#define FAIL(name) do { *field = name; return FALSE; } while (0)
  if (zw_json_int64 (v_id, 0, ZW_JSON_INT_MAX, &e->type.v_id) != ZW_NUM_OK)
    FAIL ("v_id");
  if (op && zw_json_int64 (op, -1, ZW_JSON_INT_MAX, &e->op_id) != ZW_NUM_OK)
    FAIL ("op");
  if (!cJSON_IsArray (shape) || cJSON_GetArraySize (shape) > XIR_LAYOUT_MAX_AXES)
    FAIL ("shape");
  e->type.rank = (guint) cJSON_GetArraySize (shape);
  e->type.shape = g_new0 (gint64, MAX (e->type.rank, 1));
  cJSON_ArrayForEach (x, shape)
    {
      if (zw_json_int64 (x, 0, G_MAXUINT32, &e->type.shape[i++]) != ZW_NUM_OK)
        FAIL ("shape");
    }
  guint64 n_elements;
  if (!zw_shape_elements (e->type.shape, e->type.rank, ZW_MAX_TENSOR_BYTES, &n_elements))
    {
      *detail = g_strdup ("the shape's element count overflows or exceeds 2^36");
      FAIL ("shape");
    }
  if (!cJSON_IsString (dtype) || !xir_parse_scalar_type (dtype->valuestring, &e->type.storage, &err))
    {
      *detail = err ? g_strdup (err->message) : NULL;
      FAIL ("dtype");
    }
  if (!cJSON_IsString (layout))
    FAIL ("layout");
  layout_text = g_str_has_prefix (layout->valuestring, "@layout(") ? g_strdup (layout->valuestring)
                                                                    : g_strdup_printf ("@layout(%s)", layout->valuestring);
  if (!xir_parse_layout (layout_text, &e->type.layout, &err))
    {
      *detail = g_strdup (err->message);
      FAIL ("layout");
    }
  if (scales && !cJSON_IsArray (scales))
    FAIL ("scales");
  e->type.n_scales = scales ? (guint) cJSON_GetArraySize (scales) : 0;
  e->type.quantized = e->type.n_scales > 0;
  e->type.scales = e->type.n_scales ? g_new0 (float, e->type.n_scales) : NULL;
  i = 0;
  cJSON_ArrayForEach (x, scales)
    {
      double s;
      if (zw_json_double (x, 0, FLT_MAX, &s) != ZW_NUM_OK || !(s > 0))
        FAIL ("scales");
      e->type.scales[i++] = (float) s;
    }
  if (memory && (!cJSON_IsString (memory) || !memory_from_string (memory->valuestring, &e->memory)))
    FAIL ("memory");
  if (address && cJSON_IsNumber (address))
    {
      if (zw_json_int64 (address, -1, ZW_JSON_INT_MAX, &e->address) != ZW_NUM_OK)
        FAIL ("address");
    }
  else if (address && cJSON_IsString (address))
    {
      char *end;
      errno = 0;
      guint64 a = g_ascii_strtoull (address->valuestring, &end, 0);
      if (*end || end == address->valuestring || errno == ERANGE || a > (guint64) G_MAXINT64)
        FAIL ("address");
      e->address = (gint64) a;
    }
  else if (address)
    FAIL ("address");
  if (!cJSON_IsString (format) || !zw_dump_format_parse (format->valuestring, &e->format, &err))
    {
      *detail = err ? g_strdup (err->message) : NULL;
      FAIL ("format");
    }
  if (!cJSON_IsString (file) || !file->valuestring[0] || strchr (file->valuestring, '/')
      || strchr (file->valuestring, '\\'))
    FAIL ("file");
  e->file = g_strdup (file->valuestring);
  if (network != NULL)
    {
      /* a pipeline's dump: the value's network, a name that is no path */
      if (!cJSON_IsString (network) || !network->valuestring[0] || strchr (network->valuestring, '/')
          || strchr (network->valuestring, '\\') || strchr (network->valuestring, ':'))
        FAIL ("network");
      e->network = g_strdup (network->valuestring);
    }
#undef FAIL
  return TRUE;
}

ZwDumpManifest *
zw_dump_manifest_load (const char *path, GPtrArray *warnings, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (ZwDumpManifest) m = NULL;
  const cJSON *entries, *fmt, *net, *complete, *note, *o;
  cJSON *root;
  gsize len;
  guint i = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_DUMP_MANIFEST, 0, &text, &len, &local))
    {
      g_set_error_literal (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, local->message);
      return NULL;
    }
  root = cJSON_ParseWithLength (text, len);
  if (!root)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, "%s: not valid JSON", path);
      return NULL;
    }
  entries = cJSON_GetObjectItemCaseSensitive (root, "entries");
  if (!cJSON_IsArray (entries))
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, "%s: field entries is missing or not an array", path);
      cJSON_Delete (root);
      return NULL;
    }
  fmt = cJSON_GetObjectItemCaseSensitive (root, "dump_format");
  net = cJSON_GetObjectItemCaseSensitive (root, "network");
  complete = cJSON_GetObjectItemCaseSensitive (root, "complete");
  note = cJSON_GetObjectItemCaseSensitive (root, "note");
  m = zw_dump_manifest_new (cJSON_IsString (net) ? net->valuestring : NULL, (ZwDumpFormat) { FALSE, FALSE, TRUE },
                            !cJSON_IsBool (complete) || cJSON_IsTrue (complete),
                            cJSON_IsString (note) ? note->valuestring : NULL);
  if (cJSON_IsString (fmt) && !zw_dump_format_parse (fmt->valuestring, &m->format, NULL) && warnings)
    g_ptr_array_add (warnings, g_strdup_printf ("%s: field dump_format \"%s\" is not a dump format", path,
                                                fmt->valuestring));
  cJSON_ArrayForEach (o, entries)
    {
      ZwDumpManifestEntry *e = g_new0 (ZwDumpManifestEntry, 1);
      const char *field = NULL;
      char *detail = NULL;

      if (cJSON_IsObject (o) && entry_from_json (o, e, &field, &detail))
        g_ptr_array_add (m->entries, e);
      else
        {
          /* The v_id helps find the entry when it is the v_id that is fine. */
          g_autofree char *who = field && !g_str_equal (field, "v_id")
                                   ? g_strdup_printf (" (v_id %" G_GINT64_FORMAT ")", e->type.v_id)
                                   : g_strdup ("");
          if (warnings)
            g_ptr_array_add (warnings, g_strdup_printf ("%s: entries[%u]%s: field %s is missing or malformed%s%s", path,
                                                        i, who, field ? field : "(entry is not an object)",
                                                        detail ? ": " : "", detail ? detail : ""));
          g_free (detail);
          entry_free (e);
        }
      i++;
    }
  cJSON_Delete (root);
  return g_steal_pointer (&m);
}
