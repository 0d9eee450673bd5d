/* xrt-run-config.c — the [run] section of an icraft-run config file (`xrt-run run CONFIG.toml`). */
#include "xrt-run-private.h"

#include "base/zw-file-read.h"
#include <glib/gi18n.h>
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
}

/* A [run] section as the vendor writes it: json, raw, jr_path + network, input, backends,
 * ocmopt, merge_hardop, dump_format, log_time, log_io, lazy_load, precheck, save_snapshot,
 * load_snapshot, log_path. TOML's key = "value" lines read as a key file. */
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
      g_autofree char *raw = g_key_file_get_value (kf, "run", keys[i], NULL);
      g_autofree char *v = g_strdup (raw);
      gboolean truth;

      unquote (v);
      truth = g_ascii_strcasecmp (v, "true") == 0;
#define STR(key, field) else if (strcmp (keys[i], key) == 0) { g_free (o->field); o->field = g_strdup (v); }
      if (0) {}
      STR ("json", json) STR ("raw", raw) STR ("input", input) STR ("dump_format", dump_format)
      STR ("load_snapshot", load_snapshot) STR ("log_path", log_dir) STR ("ocmopt", ocm)
      else if (strcmp (keys[i], "jr_path") == 0 || strcmp (keys[i], "network") == 0)
        {
          g_autofree char *dir = g_key_file_get_value (kf, "run", "jr_path", NULL);
          g_autofree char *net = g_key_file_get_value (kf, "run", "network", NULL);
          if (dir && net)
            {
              unquote (dir);
              unquote (net);
              g_free (o->json);
              g_free (o->raw);
              o->json = g_strdup_printf ("%s/%s.json", dir, net);
              o->raw = g_strdup_printf ("%s/%s.raw", dir, net);
            }
        }
      else if (strcmp (keys[i], "merge_hardop") == 0) o->no_merge = !truth;
      else if (strcmp (keys[i], "log_time") == 0) { o->log_time = truth; o->profile |= truth; }
      else if (strcmp (keys[i], "log_io") == 0) o->log_io = truth;
      else if (strcmp (keys[i], "lazy_load") == 0) o->lazy = truth;
      else if (strcmp (keys[i], "precheck") == 0) o->precheck = truth;
      else if (strcmp (keys[i], "save_snapshot") == 0)
        {
          g_free (o->save_snapshot);
          o->save_snapshot = truth ? g_strdup ("") : (v[0] && !g_ascii_strcasecmp (v, "false") ? NULL : g_strdup (v));
        }
      else if (strcmp (keys[i], "backends") == 0)
        {
          /* "ZG330,mock://zg330;Host": the device URL of the ZG330 backend */
          g_auto (GStrv) parts = g_strsplit (v, ";", -1);
          for (guint k = 0; parts[k]; k++)
            if (g_str_has_prefix (parts[k], "ZG330,"))
              {
                g_free (o->device);
                o->device = g_strdup (parts[k] + strlen ("ZG330,"));
              }
        }
      else
        g_printerr (_("xrt-run run: %s: key “%s” is not used by this build\n"), path, keys[i]);
#undef STR
    }
  if (o->dump_format && !o->dump_dir)
    o->dump_dir = g_strdup ("dumps");
  return TRUE;
}

