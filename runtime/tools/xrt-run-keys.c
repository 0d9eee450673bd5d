/* xrt-run-keys.c — the keys of icraft-run (its manual's table, chapter 1), one table read by
 * both spellings: a `[run]` section of a config file (`key = value`, xrt-run-config.c) and the
 * vendor's command line (`--key value`, `--flag`). Every key either does what the manual says
 * or is refused with the reason; none is accepted and ignored. Errors name where the key came
 * from (the config file, or the command line), the key and the value.
 */
#include "xrt-run-private.h"

#include "base/zw-checked.h"
#include "report/zw-dump.h"

#include <glib/gi18n.h>
#include <string.h>

typedef enum {
  KEY_TEXT,   /* a path or text: needs a value */
  KEY_BOOL,   /* true / false; on the command line `--key` alone is true */
  KEY_NUMBER, /* an integer */
  KEY_SWITCH_OR_PATH, /* true / false, or (ours) a path: save_snapshot */
} KeyKind;

typedef gboolean (*KeySetter) (RunOptions *o, const char *value, gboolean truth, char **why);

typedef struct {
  const char *name;
  KeyKind kind;
  KeySetter set;
} RunKey;

static void
replace (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

#define TEXT_SETTER(fn, field)                                            \
  static gboolean fn (RunOptions *o, const char *v, gboolean t, char **why) \
  {                                                                       \
    (void) t, (void) why;                                                 \
    replace (&o->field, v);                                               \
    return TRUE;                                                          \
  }
TEXT_SETTER (set_json, json)
TEXT_SETTER (set_raw, raw)
TEXT_SETTER (set_jr_path, jr_path)
TEXT_SETTER (set_network, network)
TEXT_SETTER (set_input, input)
TEXT_SETTER (set_load_snapshot, load_snapshot)
TEXT_SETTER (set_log_path, log_dir)
TEXT_SETTER (set_decode_dll, decode_dll)
#undef TEXT_SETTER

static gboolean
set_ocmopt (RunOptions *o, const char *v, gboolean t, char **why)
{
  ZwOcmOpt opt;
  g_autofree char *list = NULL;

  (void) t;
  if (zw_ocm_opt_from_string (v, &opt))
    {
      replace (&o->ocm, v);
      return TRUE;
    }
  list = zw_ocm_opt_dup_short_list ();
  *why = g_strdup_printf (_("must be one of %s (-1 the best score, 0 none, 1 to 3 a scheme)"), list);
  return FALSE;
}

static gboolean
set_dump_format (RunOptions *o, const char *v, gboolean t, char **why)
{
  ZwDumpFormat fmt;
  g_autoptr (GError) error = NULL;

  (void) t;
  if (!zw_dump_format_parse (v, &fmt, &error))
    {
      *why = g_strdup (error->message);
      return FALSE;
    }
  replace (&o->dump_format, v);
  return TRUE;
}

/* "5,12,75": value ids, each an integer >= 0 */
static gboolean
set_dump_ftmp (RunOptions *o, const char *v, gboolean t, char **why)
{
  g_auto (GStrv) ids = g_strsplit (v, ",", -1);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint64));

  (void) t;
  for (guint i = 0; ids[i] != NULL; i++)
    {
      gint64 id;
      ZwNumStatus st = zw_text_int64 (ids[i], 0, ZW_JSON_INT_MAX, &id);
      if (st != ZW_NUM_OK)
        {
          *why = g_strdup_printf (_("must be value ids separated by commas (“5,12,75”); “%s” is not a value id"),
                                  g_strstrip (ids[i]));
          return FALSE;
        }
      g_array_append_val (out, id);
    }
  if (o->dump_ftmp != NULL)
    g_array_unref (o->dump_ftmp);
  o->dump_ftmp = g_steal_pointer (&out);
  return TRUE;
}

static gboolean
set_dump_output (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) v, (void) why;
  o->dump_output = t;
  return TRUE;
}

/* Our dumps always hold every hardop's outputs, those inside merged launches too (a dumping
 * forward stops at each sync point): the manual's dump_hidden is what they do. */
static gboolean
set_dump_hidden (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) o, (void) v;
  if (t)
    return TRUE;
  *why = g_strdup (_("cannot be false here: a dump always holds the layers inside merged hardops (the forward stops "
                     "at every hardop's sync point), so there is nothing to leave out"));
  return FALSE;
}

static gboolean
set_fake_qf (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) o, (void) v;
  if (!t)
    return TRUE;
  *why = g_strdup (_("is refused: fake_qf is a HostBackend option for float networks, and this runtime's host runs "
                     "quantised HardOps with the board's own int8 kernels (bit-identical to the board), so there is no "
                     "fake-quantised float mode to switch on"));
  return FALSE;
}

static gboolean
set_compress (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) o, (void) v;
  if (!t)
    return TRUE;
  *why = g_strdup (_("is refused: memory compression is not modelled by this runtime's ZG330Backend or BYBackend "
                     "(the simulated board has no compressed feature-map format)"));
  return FALSE;
}

static gboolean
set_close_mmu (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) o, (void) v;
  if (!t)
    return TRUE;
  *why = g_strdup (_("is refused: this runtime's backends always run with the MMU on (ZG330Backend has no switch, "
                     "ZG330Backend manual §1.6; BYBackend's non-MMU mode is not modelled)"));
  return FALSE;
}

#define BOOL_SETTER(fn, field)                                            \
  static gboolean fn (RunOptions *o, const char *v, gboolean t, char **why) \
  {                                                                       \
    (void) v, (void) why;                                                 \
    o->field = t;                                                         \
    return TRUE;                                                          \
  }
BOOL_SETTER (set_log_io, log_io)
BOOL_SETTER (set_lazy_load, lazy)
BOOL_SETTER (set_precheck, precheck)
#undef BOOL_SETTER

static gboolean
set_log_time (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) v, (void) why;
  o->log_time = t;
  o->profile |= t;
  return TRUE;
}

static gboolean
set_merge_hardop (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) v, (void) why;
  o->merge_set = TRUE;
  o->no_merge = !t;
  return TRUE;
}

/* true (the vendor's form: into the log folder), false, or (ours) the snapshot's path */
static gboolean
set_save_snapshot (RunOptions *o, const char *v, gboolean t, char **why)
{
  (void) why;
  g_clear_pointer (&o->save_snapshot, g_free);
  if (t)
    o->save_snapshot = g_strdup ("");
  else if (g_ascii_strcasecmp (v, "false") != 0)
    o->save_snapshot = g_strdup (v);
  return TRUE;
}

static gboolean
set_number (const char *v, gint64 min, gint64 max, const char *unit, gint64 *out, char **why)
{
  ZwNumStatus st = zw_text_int64 (v, min, max, out);

  if (st == ZW_NUM_OK)
    return TRUE;
  /* TRANSLATORS: "must be an integer in [1, 10000] (MHz)" */
  *why = g_strdup_printf (_("must be an integer in [%li, %li] (%s)"), (long) min, (long) max, unit);
  return FALSE;
}

static gboolean
set_frequency (RunOptions *o, const char *v, gboolean t, char **why)
{
  gint64 mhz;

  (void) t;
  if (!set_number (v, 1, 10000, "MHz", &mhz, why))
    return FALSE;
  o->frequency_mhz = (guint64) mhz;
  return TRUE;
}

static gboolean
set_wait_time (RunOptions *o, const char *v, gboolean t, char **why)
{
  gint64 ms;

  (void) t;
  if (!set_number (v, 1, G_MAXUINT32, "ms", &ms, why))
    return FALSE;
  o->wait_time_ms = (guint64) ms;
  return TRUE;
}

/* "ZG330,URL;Host", "BY,URL;Host", "Host": the board backend first with its device's URL,
 * the host last (the manual's order); "Host" alone is the host reference run. */
static gboolean
set_backends (RunOptions *o, const char *v, gboolean t, char **why)
{
  g_auto (GStrv) parts = g_strsplit (v, ";", -1);
  g_autofree char *board = NULL, *url = NULL;
  gboolean host = FALSE;

  (void) t;
  for (guint k = 0; parts[k] != NULL; k++)
    {
      const char *p = g_strstrip (parts[k]);
      const char *comma = strchr (p, ',');
      g_autofree char *name = comma ? g_strndup (p, (gsize) (comma - p)) : g_strdup (p);
      g_autofree char *rest = comma ? g_strstrip (g_strdup (comma + 1)) : NULL;

      g_strstrip (name);
      if (*p == '\0' && parts[k + 1] == NULL && k > 0)
        break;   /* "ZG330,URL;Host;": a trailing separator */
      if (strcmp (name, "Host") == 0 && comma == NULL && (parts[k + 1] == NULL || *g_strstrip (parts[k + 1]) == '\0'))
        host = TRUE;
      else if (strcmp (name, "Host") == 0)
        {
          *why = g_strdup (_("lists Host before another backend or with a URL: the board backend comes first "
                             "(“ZG330,URL;Host”), the host last"));
          return FALSE;
        }
      else if ((strcmp (name, "ZG330") == 0 || strcmp (name, "BY") == 0) && board == NULL)
        {
          if (rest == NULL || *rest == '\0')
            {
              *why = g_strdup_printf (_("gives backend %s no device URL (“%s,mock://zg330;Host”)"), name, name);
              return FALSE;
            }
          board = g_strdup (name);
          url = g_steal_pointer (&rest);
        }
      else if (strcmp (name, "ZG330") == 0 || strcmp (name, "BY") == 0)
        {
          *why = g_strdup (_("names two board backends: one network runs on one board"));
          return FALSE;
        }
      else
        {
          *why = g_strdup_printf (_("names backend “%s”, which is not one of ZG330, BY and Host"), name);
          return FALSE;
        }
    }
  if (board == NULL && !host)
    {
      *why = g_strdup (_("names no backend (“Host”, or “ZG330,URL;Host”)"));
      return FALSE;
    }
  replace (&o->backends, v);
  replace (&o->board_backend, board);
  replace (&o->device, url);
  o->host_run = board == NULL;
  return TRUE;
}

/* The manual's table, in its order. */
static const RunKey keys[] = {
  { "json", KEY_TEXT, set_json },
  { "raw", KEY_TEXT, set_raw },
  { "jr_path", KEY_TEXT, set_jr_path },
  { "network", KEY_TEXT, set_network },
  { "input", KEY_TEXT, set_input },
  { "load_snapshot", KEY_TEXT, set_load_snapshot },
  { "log_path", KEY_TEXT, set_log_path },
  { "backends", KEY_TEXT, set_backends },
  { "dump_format", KEY_TEXT, set_dump_format },
  { "dump_ftmp", KEY_TEXT, set_dump_ftmp },
  { "dump_output", KEY_BOOL, set_dump_output },
  { "dump_hidden", KEY_BOOL, set_dump_hidden },
  { "fake_qf", KEY_BOOL, set_fake_qf },
  { "compress", KEY_BOOL, set_compress },
  { "log_time", KEY_BOOL, set_log_time },
  { "log_io", KEY_BOOL, set_log_io },
  { "merge_hardop", KEY_BOOL, set_merge_hardop },
  { "lazy_load", KEY_BOOL, set_lazy_load },
  { "precheck", KEY_BOOL, set_precheck },
  { "frequency", KEY_NUMBER, set_frequency },
  { "decode_dll", KEY_TEXT, set_decode_dll },
  { "close_mmu", KEY_BOOL, set_close_mmu },
  { "save_snapshot", KEY_SWITCH_OR_PATH, set_save_snapshot },
  { "wait_time", KEY_NUMBER, set_wait_time },
  { "ocmopt", KEY_NUMBER, set_ocmopt },
};

static const RunKey *
lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (keys[i].name, name) == 0)
      return &keys[i];
  return NULL;
}

gboolean
xrt_run_key_exists (const char *name)
{
  return lookup (name) != NULL;
}

gboolean
xrt_run_key_is_flag (const char *name)
{
  const RunKey *k = lookup (name);
  return k != NULL && (k->kind == KEY_BOOL || k->kind == KEY_SWITCH_OR_PATH);
}

char *
xrt_run_keys_dup_list (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", keys[i].name);
  return g_string_free (s, FALSE);
}

/* Where a key came from, for messages: "run.toml: [run] dump_format = “HFB”" or
 * "--dump_format “HFB”". */
char *
xrt_run_key_describe (const char *origin, const char *key, const char *value)
{
  if (origin != NULL)
    return g_strdup_printf ("%s: [run] %s = “%s”", origin, key, value);
  return g_strdup_printf ("--%s “%s”", key, value);
}

gboolean
xrt_run_options_set_key (RunOptions *o, const char *origin, const char *key, const char *value, GError **error)
{
  const RunKey *k = lookup (key);
  g_autofree char *why = NULL;
  g_autofree char *where = NULL;
  gboolean truth = FALSE;

  if (k == NULL)
    {
      g_autofree char *list = xrt_run_keys_dup_list ();
      where = xrt_run_key_describe (origin, key, value);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                   _("%s: “%s” is not a key of icraft-run (its keys: %s)"), where, key, list);
      return FALSE;
    }
  truth = g_ascii_strcasecmp (value, "true") == 0;
  if (k->kind == KEY_BOOL && !truth && g_ascii_strcasecmp (value, "false") != 0)
    why = g_strdup (_("must be true or false"));
  else if (k->kind != KEY_BOOL && *value == '\0')
    why = g_strdup (_("needs a value"));
  else
    k->set (o, value, truth, &why);
  if (why == NULL)
    return TRUE;
  where = xrt_run_key_describe (origin, key, value);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", where, why);
  return FALSE;
}

gboolean
xrt_run_take_vendor_flags (int *argc, char **argv, RunOptions *o, GError **error)
{
  int out = 1;

  for (int i = 1; i < *argc; i++)
    {
      const char *a = argv[i];
      g_autofree char *name = NULL;
      const char *eq;
      const char *value;

      if (strcmp (a, "--") == 0)
        {
          /* the rest is positional */
          while (i < *argc)
            argv[out++] = argv[i++];
          break;
        }
      if (!g_str_has_prefix (a, "--") || !xrt_run_key_exists ((name = (eq = strchr (a, '=')) ? g_strndup (a + 2, (gsize) (eq - a - 2))
                                                                                                : g_strdup (a + 2))))
        {
          argv[out++] = argv[i];
          continue;
        }
      if (eq != NULL)
        value = eq + 1;
      else if (xrt_run_key_is_flag (name) && i + 1 < *argc
               && (g_ascii_strcasecmp (argv[i + 1], "true") == 0 || g_ascii_strcasecmp (argv[i + 1], "false") == 0))
        value = argv[++i];   /* --close_mmu false */
      else if (xrt_run_key_is_flag (name))
        value = "true";
      else if (i + 1 < *argc)
        value = argv[++i];
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--%s needs a value"), name);
          return FALSE;
        }
      if (!xrt_run_options_set_key (o, NULL, name, value, error))
        return FALSE;
      /* the network named by the vendor's flags: icraft-run's form and its defaults */
      if (strcmp (name, "json") == 0 || strcmp (name, "jr_path") == 0 || strcmp (name, "network") == 0
          || strcmp (name, "load_snapshot") == 0)
        o->vendor = TRUE;
    }
  argv[out] = NULL;
  *argc = out;
  return TRUE;
}

gboolean
xrt_run_options_finish (RunOptions *o, const char *origin, GError **error)
{
  g_autofree char *where = origin ? g_strdup_printf ("%s: [run]", origin) : g_strdup (_("the command line"));

  if ((o->jr_path == NULL) != (o->network == NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: %s needs %s beside it"), where,
                   o->jr_path ? "jr_path" : "network", o->jr_path ? "network" : "jr_path");
      return FALSE;
    }
  if (o->jr_path != NULL)
    {
      g_autofree char *j = g_strconcat (o->network, ".json", NULL);
      g_autofree char *r = g_strconcat (o->network, ".raw", NULL);
      if (o->json != NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s: json and jr_path + network both name the network; give one"), where);
          return FALSE;
        }
      o->json = g_build_filename (o->jr_path, j, NULL);
      if (o->raw == NULL)
        o->raw = g_build_filename (o->jr_path, r, NULL);
    }
  if ((o->dump_ftmp != NULL || o->dump_output) && o->dump_format == NULL && o->dump_dir == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: %s chooses what to dump, but without dump_format nothing is dumped"), where,
                   o->dump_ftmp ? "dump_ftmp" : "dump_output");
      return FALSE;
    }
  if (o->dump_ftmp != NULL && o->dump_output)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: dump_ftmp and dump_output both choose what to dump; give one"), where);
      return FALSE;
    }
  /* icraft-run's default backend is Host (its manual's table: "backends … 默认为Host"; §2.2:
   * without backends, the host CPU): in its form, no backends key is the host reference run.
   * A snapshot names its board, and our --device names one. Our own form (`xrt-run run
   * NET.json`) keeps the board the network was compiled for. */
  if (o->vendor && o->backends == NULL && o->load_snapshot == NULL && o->device == NULL)
    o->host_run = TRUE;
  if (o->host_run && (o->frequency_mhz != 0 || o->wait_time_ms != 0 || o->precheck || o->save_snapshot != NULL))
    {
      const char *key = o->frequency_mhz ? "frequency"
                      : o->wait_time_ms  ? "wait_time"
                      : o->precheck      ? "precheck"
                                         : "save_snapshot";
      if (o->backends != NULL)
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("%s: %s sets the board, but backends = “Host” runs on the host alone"), where, key);
      else
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("%s: %s sets the board, but without backends icraft-run runs on the host (its default, "
                       "backends = “Host”); name the board: backends = “ZG330,mock://zg330;Host”"), where, key);
      return FALSE;
    }
  /* icraft-run's defaults: merge_hardop off, logs under .logs */
  if (o->vendor && !o->merge_set)
    o->no_merge = TRUE;
  if (o->vendor && o->log_dir == NULL)
    o->log_dir = g_strdup (".logs");
  return TRUE;
}
