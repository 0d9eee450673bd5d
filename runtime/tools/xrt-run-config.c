/* xrt-run-config.c — the [run] section of an icraft-run config file (`xrt-run run CONFIG.toml`). */
#include "xrt-run-private.h"

#include "base/zw-file-read.h"
#include <string.h>

/* Strips blanks, then one pair of surrounding double quotes; a lone quote (`jr_path = "`)
 * is left as it is rather than read past. */
static void
unquote (char *v)
{
  gsize n;

  g_strstrip (v);
  n = strlen (v);
  if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
    {
      memmove (v, v + 1, n - 2);
      v[n - 2] = '\0';
    }
}


void
xrt_run_options_clear (RunOptions *o)
{
  g_free (o->json);
  g_free (o->raw);
  g_free (o->input);
  g_free (o->ocm);
  g_free (o->dump_dir);
  g_free (o->dump_format);
  g_free (o->save_snapshot);
  g_free (o->load_snapshot);
  g_free (o->device);
  g_free (o->log_dir);
  g_free (o->jr_path);
  g_free (o->network);
  g_free (o->backends);
  g_free (o->board_backend);
  g_free (o->decode_dll);
  if (o->dump_ftmp != NULL)
    g_array_unref (o->dump_ftmp);
}

/* A [run] section as the vendor writes it (the keys of the icraft-run manual, xrt-run-keys.c):
 * TOML's key = "value" lines read as a key file. */
gboolean
xrt_run_load_config (const char *path, RunOptions *o, GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) keys = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;
  GError *local = NULL;

  if (!zw_file_read_regular (path, ZW_INPUT_RUN_CONFIG, 0, &text, &len, error))
    return FALSE;
  if (!g_key_file_load_from_data (kf, text, len, G_KEY_FILE_NONE, &local))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", path, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (!g_key_file_has_group (kf, "run"))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no [run] section", path);
      return FALSE;
    }
  keys = g_key_file_get_keys (kf, "run", NULL, NULL);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *v = g_key_file_get_value (kf, "run", keys[i], NULL);

      unquote (v);
      if (!xrt_run_options_set_key (o, path, keys[i], v, error))
        return FALSE;
    }
  o->vendor = TRUE;
  return xrt_run_options_finish (o, path, error);
}
