/* zw-dump-folder.c — a dump folder: its {v_id}.ftmp files, typed by its manifest or, without one, by the network. */
#include "report/zw-dump-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <cjson/cJSON.h>

/* ---- folders ----------------------------------------------------------------------- */

void
zw_dump_folder_free (ZwDumpFolder *folder)
{
  if (!folder)
    return;
  g_free (folder->dir);
  zw_dump_manifest_free (folder->manifest);
  g_ptr_array_unref (folder->values);
  g_ptr_array_unref (folder->warnings);
  g_free (folder);
}

/* By v_id; a pipeline's values by network (in the manifest's order), then v_id. */
static gint
compare_by_vid (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const ZwDumpData *x = *(ZwDumpData *const *) a;
  const ZwDumpData *y = *(ZwDumpData *const *) b;
  GHashTable *net_order = user_data;

  if (g_strcmp0 (x->network, y->network) != 0)
    {
      guint nx = x->network ? GPOINTER_TO_UINT (g_hash_table_lookup (net_order, x->network)) : 0;
      guint ny = y->network ? GPOINTER_TO_UINT (g_hash_table_lookup (net_order, y->network)) : 0;
      return nx < ny ? -1 : nx > ny;
    }
  return x->v_id < y->v_id ? -1 : x->v_id > y->v_id;
}

/* "123.ftmp" -> 123; FALSE for anything else. */
static gboolean
vid_from_name (const char *name, gint64 *out)
{
  char *end;
  guint64 v;

  if (!g_ascii_isdigit (name[0]))
    return FALSE;
  v = g_ascii_strtoull (name, &end, 10);
  if (!g_str_equal (end, ".ftmp") || v > G_MAXINT64)
    return FALSE;
  *out = (gint64) v;
  return TRUE;
}

ZwDumpFolder *
zw_dump_folder_load (const char *dir, XirNetwork *network, const char *format, GError **error)
{
  g_autoptr (ZwDumpFolder) f = NULL;
  g_autoptr (GDir) d = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *manifest_path = NULL;
  g_autoptr (GHashTable) by_file = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) net_order = g_hash_table_new (g_str_hash, g_str_equal);
  const char *name;
  gboolean have_format = FALSE;

  g_return_val_if_fail (dir != NULL, NULL);
  d = g_dir_open (dir, 0, &local);
  if (!d)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, "%s: %s", dir, local->message);
      return NULL;
    }
  f = g_new0 (ZwDumpFolder, 1);
  f->dir = g_strdup (dir);
  f->values = g_ptr_array_new_with_free_func ((GDestroyNotify) zw_dump_data_free);
  f->warnings = g_ptr_array_new_with_free_func (g_free);

  manifest_path = g_build_filename (dir, MANIFEST_NAME, NULL);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".ftmp"))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_rewind (d);
  if (names->len == 0 && !g_file_test (manifest_path, G_FILE_TEST_EXISTS))
    {
      /* say so in the user's words, before any question of formats */
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO,
                   "%s is empty: no .ftmp files and no " MANIFEST_NAME " (dump tensors into it first, e.g. "
                   "xrt-run run NET.json --dump %s, or Run ▸ Dump tensors in the workbench)", dir, dir);
      return NULL;
    }
  g_ptr_array_set_size (names, 0);
  if (g_file_test (manifest_path, G_FILE_TEST_EXISTS))
    {
      f->manifest = zw_dump_manifest_load (manifest_path, f->warnings, error);
      if (!f->manifest)
        return NULL;
      f->format = f->manifest->format;
      have_format = TRUE;
      by_file = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < f->manifest->entries->len; i++)
        {
          ZwDumpManifestEntry *e = g_ptr_array_index (f->manifest->entries, i);
          g_hash_table_insert (by_file, e->file, e);
          if (e->network != NULL && !g_hash_table_contains (net_order, e->network))
            g_hash_table_insert (net_order, e->network, GUINT_TO_POINTER (g_hash_table_size (net_order) + 1));
        }
    }
  else if (!network)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE,
                   "%s: no " MANIFEST_NAME " and no network to type the files by v_id", dir);
      return NULL;
    }
  if (format)
    {
      if (!zw_dump_format_parse (format, &f->format, error))
        return NULL;
      have_format = TRUE;
    }
  if (!have_format)
    {
      g_autofree char *base = g_path_get_basename (dir);
      gsize blen = strlen (base);
      if (blen < 3 || !zw_dump_format_parse (base + blen - 3, &f->format, NULL))
        {
          g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT,
                       "%s: no manifest, no format given and the folder name does not end in one (e.g. ftmpSFB)", dir);
          return NULL;
        }
    }

  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".ftmp"))
      g_ptr_array_add (names, g_strdup (name));
  for (guint i = 0; i < names->len; i++)
    {
      const char *fname = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, fname, NULL);
      g_autoptr (GError) ferr = NULL;
      ZwDumpData *data = NULL;

      if (f->manifest)
        {
          ZwDumpManifestEntry *e = g_hash_table_lookup (by_file, fname);
          if (!e)
            {
              g_ptr_array_add (f->warnings, g_strdup_printf ("%s: not listed in %s", path, MANIFEST_NAME));
              continue;
            }
          data = zw_dump_read_file (path, &e->type, e->format, &ferr);
          if (data != NULL && e->network != NULL)
            data->network = g_strdup (e->network);
        }
      else
        {
          ZwDumpType type;
          const XirValue *v;
          gint64 v_id;

          if (!vid_from_name (fname, &v_id) || !(v = xir_network_get_value (network, v_id)))
            {
              g_ptr_array_add (f->warnings, g_strdup_printf ("%s: the name is not the v_id of a value of network %s",
                                                             path, xir_network_get_name (network)));
              continue;
            }
          zw_dump_type_init_from_value (&type, v);
          data = zw_dump_read_file (path, &type, f->format, &ferr);
          zw_dump_type_clear (&type);
        }
      if (data)
        g_ptr_array_add (f->values, data);
      else
        g_ptr_array_add (f->warnings, g_strdup (ferr->message));
    }
  g_ptr_array_sort_with_data (f->values, compare_by_vid, net_order);
  return g_steal_pointer (&f);
}
