/* xrt-run run — deploy and run a network on the (simulated) board, as `icraft run` does.
 *
 *   xrt-run run NET.json [--raw R] [--input FILE[;FILE…]] [--no-merge] [--no-etm-opt]
 *               [--ocm OPT] [--iterations N] [--profile] [--dump DIR
 *               --dump-format SQB] [--log] [--save-snapshot F | --load-snapshot F]
 *               [--device URL] [--log-dir DIR]
 *   xrt-run run CONFIG.toml          (a [run] section with the vendor's keys)
 *   xrt-run run --json NET.json --raw NET.raw --input cat.png --dump_format SQB --log_time …
 *                                    (icraft-run's own flags, as its manual writes them)
 *   xrt-run run --load-snapshot F    (or a [run] with load_snapshot only: the snapshot
 *                                    finds the network JSON and params it records)
 *
 * icraft-run's keys (a config file, or its flags) are one table (xrt-run-keys.c). In its form
 * (a config file, or the network named by --json, --jr_path + --network or --load_snapshot)
 * its defaults hold: merge_hardop off, logs in log_path/NETWORK/ (log_path .logs): run_time.log
 * and run_io.log beside what the screen shows, the time profiles, the dumps in
 * ftmp<FORMAT>/ and the snapshot.
 *
 * Backends: icraft-run's form runs on the host (the HostBackend alone: the host reference run,
 * the board's bytes) unless backends names a board ("ZG330,URL;Host"), as its manual's
 * default; our own form (NET.json as an argument) runs on --device, else on the board the
 * network was compiled for (mock://zg330, mock://buyi).
 *
 * Exit codes (the vendor's in brackets): 0 success; 1 a file or value is bad or missing
 * [26001, 26002, 26003, 26010]; 2 usage [26000]; 3 the run failed on the device [26011].
 */
#include "xrt-run-private.h"

#include "base/zw-file-read.h"
#include "base/zw-file.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "deploy/xrt-deployment.h"
#include "devices/zg330-sim.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define XRT_RUN_EXIT_RUN 3

static gboolean
write_profiles (const ZwProfile *profile, const char *dir, const char *network, GError **error)
{
  /* the network's name comes from its file: it names files in @dir, never a path */
  g_autofree char *name = zw_file_safe_name (network);
  static const struct { const char *suffix; const char *format; } outs[] = {
    { "_time.txt", "vendor" }, { "_time.json", "json" }, { "_time.csv", "csv" }, { "_trace.json", "trace" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s%s", dir, name, outs[i].suffix);
      ZwProfileFormat format;
      if (!zw_profile_format_from_string (outs[i].format, &format, error)
          || !zw_profile_write (profile, path, format, error))
        return FALSE;
      printf (_("Wrote %s\n"), path);
    }
  return TRUE;
}

/* backends = "ZG330,URL;Host" / "BY,URL;Host": the board backend named is the one the network
 * was compiled for. */
static gboolean
check_board_backend (const RunOptions *o, const char *origin, XirNetworkView *view, GError **error)
{
  GType want, have;
  g_autofree char *where = NULL;

  if (o->board_backend == NULL)
    return TRUE;
  want = xrt_backend_lookup (strcmp (o->board_backend, "BY") == 0 ? "BuyiBackend" : "ZG330Backend");
  have = xrt_backend_find_for_view (view);
  if (want == have)
    return TRUE;
  where = xrt_run_key_describe (origin, "backends", o->backends);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: network %s is compiled for %s, not for %s"),
               where, xir_network_get_name (xir_network_view_get_network (view)),
               have != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (have))->name : "no board",
               want != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (want))->name : o->board_backend);
  return FALSE;
}

/* backends = "Host", the manual's default (also icraft-run's form without backends): the
 * host reference run, every op on the HostBackend, HardOps by the board's own kernels. An op
 * it cannot run is refused naming the key that asked for the host. */
static XrtSession *
host_session_new (XirNetworkView *view, const char *origin, GError **error)
{
  static const char *const backends[] = { "HostBackend" };
  g_autoptr (XrtSession) sess = NULL;
  g_autofree char *where = xrt_run_key_describe (origin, "backends", "Host");
  GError *local = NULL;

  sess = xrt_session_new (view, backends, NULL, 1, &local);
  if (sess != NULL && xrt_session_apply (sess, &local))
    return g_steal_pointer (&sess);
  if (g_error_matches (local, XRT_SESSION_ERROR, XRT_SESSION_ERROR_UNSUPPORTED_OP))
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("%s: the host reference run cannot run this network: %s. Run it on the simulated board, whose bytes "
                   "the host run equals: backends = “ZG330,mock://zg330;Host”"), where, local->message);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "%s: %s", where, local->message);
  g_error_free (local);
  return NULL;
}

/* frequency and wait_time: the board's ICore clock and how long a host waits for it */
static gboolean
set_board (XrtDevice *dev, const RunOptions *o, const char *origin, GError **error)
{
  if (o->frequency_mhz != 0 && !zg330_device_set_icore_clk_freq (dev, o->frequency_mhz * 1000000, error))
    {
      g_autofree char *value = g_strdup_printf ("%lu", (unsigned long) o->frequency_mhz);
      g_autofree char *where = xrt_run_key_describe (origin, "frequency", value);
      g_prefix_error (error, "%s: ", where);
      return FALSE;
    }
  if (o->wait_time_ms != 0)
    xrt_device_set_wait_time (dev, o->wait_time_ms);
  return TRUE;
}

/* dump_ftmp (these values) or dump_output (the network's outputs) */
static gboolean
set_dumps (XrtSession *sess, XirNetworkView *view, const RunOptions *o, GError **error)
{
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (o->dump_dir == NULL)
    return TRUE;
  if (!xrt_session_set_dump_outputs (sess, TRUE, o->dump_dir, o->dump_format, error))
    return FALSE;
  if (o->dump_ftmp != NULL)
    {
      XirNetwork *net = xir_network_view_get_network (view);
      g_array_append_vals (ids, o->dump_ftmp->data, o->dump_ftmp->len);
      /* as icraft-run: a value id the network does not have is not dumped (said, not fatal) */
      for (guint i = 0; i < ids->len; i++)
        if (xir_network_get_value (net, g_array_index (ids, gint64, i)) == NULL)
          g_printerr (_("xrt-run run: dump_ftmp: network %s has no value %li; it is not dumped\n"),
                      xir_network_get_name (net), (long) g_array_index (ids, gint64, i));
    }
  else if (o->dump_output)
    {
      GPtrArray *outs = xir_network_view_get_outputs (view);
      for (guint i = 0; i < outs->len; i++)
        g_array_append_val (ids, ((const XirValue *) g_ptr_array_index (outs, i))->v_id);
    }
  return ids->len == 0 || xrt_session_set_dump_values (sess, (const gint64 *) (gpointer) ids->data, ids->len, error);
}

/* icraft-run's log_time and log_io: each step's line on the screen and in run_time.log /
 * run_io.log of the log folder (both files get the whole line when both are on: the line
 * holds both). Our own form prints them on the screen only. */
typedef struct {
  XrtSession *sess;
  FILE *stream;
  char *text;
  size_t len;
  char *time_log, *io_log;
} LogCapture;

static void
log_capture_clear (LogCapture *c)
{
  if (c->stream != NULL)
    {
      xrt_session_set_log_stream (c->sess, stdout);
      fclose (c->stream);
    }
  free (c->text);
  g_free (c->time_log);
  g_free (c->io_log);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (LogCapture, log_capture_clear)

static gboolean
log_capture_begin (LogCapture *c, const RunOptions *o, const char *logs, XrtSession *sess)
{
  c->sess = sess;
  xrt_session_set_log_stream (sess, stdout);
  if (!o->vendor || !(o->log_time || o->log_io))
    return TRUE;
  c->stream = open_memstream (&c->text, &c->len);
  if (c->stream == NULL)
    return FALSE;
  xrt_session_set_log_stream (sess, c->stream);
  if (o->log_time)
    c->time_log = g_build_filename (logs, "run_time.log", NULL);
  if (o->log_io)
    c->io_log = g_build_filename (logs, "run_io.log", NULL);
  return TRUE;
}

/* Shows what was logged and writes the files (@error NULL: shows it only, the run failed). */
static gboolean
log_capture_end (LogCapture *c, GError **error)
{
  if (c->stream == NULL)
    return TRUE;
  xrt_session_set_log_stream (c->sess, stdout);
  fclose (c->stream);
  c->stream = NULL;
  fwrite (c->text, 1, c->len, stdout);
  if (error == NULL)
    return TRUE;
  if (c->time_log != NULL && !zw_file_set_contents (c->time_log, c->text, (gssize) c->len, error))
    return FALSE;
  if (c->io_log != NULL && !zw_file_set_contents (c->io_log, c->text, (gssize) c->len, error))
    return FALSE;
  if (c->time_log != NULL)
    printf (_("Wrote %s\n"), c->time_log);
  if (c->io_log != NULL)
    printf (_("Wrote %s\n"), c->io_log);
  return TRUE;
}

int
xrt_run_cmd_run (int argc, char **argv)
{
  g_auto (RunOptions) o = { 0 };
  g_autofree char *ocm_help = xrt_run_ocm_help (), *ocm_options = xrt_run_ocm_options_text (), *description = NULL;
  GOptionEntry entries[] = {
    { "raw", 'r', 0, G_OPTION_ARG_FILENAME, &o.raw, N_("Params file (default: NET.raw beside the JSON; synthetic params when absent)"), N_("R") },
    { "input", 'i', 0, G_OPTION_ARG_STRING, &o.input, N_("Input files (PNG, JPEG or BMP images, raw bytes or SQB .ftmp), “;”-separated, or a .txt list; default: seeded random"), N_("FILE") },
    { "no-merge", 0, 0, G_OPTION_ARG_NONE, &o.no_merge, N_("disableMergeHardOp"), NULL },
    { "no-etm-opt", 0, 0, G_OPTION_ARG_NONE, &o.no_etm, N_("disableEtmOptimize"), NULL },
    { "ocm", 0, 0, G_OPTION_ARG_STRING, &o.ocm, ocm_help, N_("OPT") },
    { "iterations", 'n', 0, G_OPTION_ARG_INT, &o.iterations, N_("Forwards to run (default 1)"), N_("N") },
    { "profile", 'p', 0, G_OPTION_ARG_NONE, &o.profile, N_("Time profile: write <net>_time.txt (vendor), .json, .csv and _trace.json"), NULL },
    { "dump", 0, 0, G_OPTION_ARG_FILENAME, &o.dump_dir, N_("Dump every output value into DIR"), N_("DIR") },
    { "dump-format", 0, 0, G_OPTION_ARG_STRING, &o.dump_format, N_("Dump format: SFB, SFT, SQB, SQT, HQB or HQT (default SQB)"), N_("FMT") },
    { "log", 0, 0, G_OPTION_ARG_NONE, &o.log, N_("Write the backend's deploy log (.icraft/logs)"), NULL },
    { "log-io", 0, 0, G_OPTION_ARG_NONE, &o.log_io, N_("setLogIO: a line per step with its inputs and outputs"), NULL },
    { "log-time", 0, 0, G_OPTION_ARG_NONE, &o.log_time, N_("setLogTime: a line per step with its time"), NULL },
    { "precheck", 0, 0, G_OPTION_ARG_NONE, &o.precheck, N_("Check weights and instructions in ETM after apply"), NULL },
    { "lazy-load", 0, 0, G_OPTION_ARG_NONE, &o.lazy, N_("Map the params file instead of reading it"), NULL },
    { "no-md5", 0, 0, G_OPTION_ARG_NONE, &o.no_md5, N_("Do not check params_md5 (synthetic params)"), NULL },
    { "save-snapshot", 0, 0, G_OPTION_ARG_FILENAME, &o.save_snapshot, N_("Save the deployed session to F"), N_("F") },
    { "load-snapshot", 0, 0, G_OPTION_ARG_FILENAME, &o.load_snapshot, N_("Restore a deployed session from F (no planning)"), N_("F") },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o.device, N_("Device URL (default: the board the network is compiled for; in icraft-run's form the host, unless backends names a board)"), N_("URL") },
    { "log-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.log_dir, N_("Where profiles go (default: the current folder)"), N_("DIR") },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &o.summary, N_("Print what the workbench shows first: segments, FTMP, OCM, launches, the slowest steps"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("NET.json | CONFIG.toml — run a network"));
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (XrtRunDecoder) decoder = NULL;
  g_auto (LogCapture) capture = { 0 };
  g_autofree char *keys = NULL, *logs = NULL;
  GError *error = NULL;
  const char *origin = NULL;
  ZwOcmOpt opt = ZW_OCM_BEST_SCORE;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  keys = xrt_run_keys_dup_list ();
  description = g_strdup_printf ("%s\n\n%s\n  %s\n\n%s",
                                 _("Exit codes: 0 success; 1 a file or value is bad; 2 usage; 3 the run failed."),
                                 _("icraft-run's flags (--key value, --flag), as its manual writes them:"), keys,
                                 ocm_options);
  g_option_context_set_description (ctx, description);
  /* icraft-run's own spelling first (--json F --dump_format SQB --log_time …); ours stay */
  if (!xrt_run_take_vendor_flags (&argc, argv, &o, &error))
    return xrt_run_fail (error);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc > 2 || (argc == 1 && o.load_snapshot == NULL && o.json == NULL && o.jr_path == NULL && o.network == NULL))
    {
      g_printerr ("xrt-run run: %s\n", _("expected NET.json or CONFIG.toml"));
      return XRT_RUN_EXIT_USAGE;
    }
  if (argc == 2 && o.vendor)
    {
      g_printerr (_("xrt-run run: %s and --json (or --jr_path, --load_snapshot) both name what to run; give one\n"),
                  argv[1]);
      return XRT_RUN_EXIT_USAGE;
    }
  if (argc == 2 && g_str_has_suffix (argv[1], ".toml"))
    {
      if (!xrt_run_load_config (argv[1], &o, &error))
        return xrt_run_fail (error);
      if (o.json == NULL && o.load_snapshot == NULL)
        {
          g_printerr (_("xrt-run run: %s: [run] needs json (or jr_path + network)\n"), argv[1]);
          return XRT_RUN_EXIT_USAGE;
        }
      origin = argv[1];
    }
  else
    {
      if (argc == 2)
        o.json = g_strdup (argv[1]);
      if (!xrt_run_options_finish (&o, NULL, &error))
        return xrt_run_fail (error);
    }
  if (o.iterations <= 0)
    o.iterations = 1;
  if (o.ocm != NULL && !xrt_run_parse_ocm ("run", o.ocm, &opt))
    return XRT_RUN_EXIT_USAGE;
  if (o.dump_dir != NULL && o.dump_format == NULL)
    o.dump_format = g_strdup ("SQB");

  /* load_snapshot alone: the snapshot finds the network it records (its JSON and params) */
  if (o.json == NULL && o.raw != NULL)
    {
      g_printerr (_("xrt-run run: raw = “%s” needs json (or jr_path + network) beside it\n"), o.raw);
      return XRT_RUN_EXIT_USAGE;
    }
  if (o.host_run && o.load_snapshot != NULL)
    {
      g_printerr (_("xrt-run run: backends = “Host” with load_snapshot: a snapshot holds a board's deployment\n"));
      return XRT_RUN_EXIT_USAGE;
    }
  if (o.json != NULL && (net = xir_network_new_from_json_file (o.json, &error)) == NULL)
    return xrt_run_fail (error);
  if (o.json != NULL && (dep = xrt_deployment_new (net, &error)) == NULL)
    return xrt_run_fail (error);
  if (dep != NULL && !check_board_backend (&o, origin, xrt_deployment_get_view (dep), &error))
    return xrt_run_fail (error);
  if (o.json == NULL)
    ;
  else if (o.raw == NULL && g_str_has_suffix (o.json, ".json"))
    {
      o.raw = g_strdup (o.json);
      strcpy (o.raw + strlen (o.raw) - 4, "raw");
      if (!g_file_test (o.raw, G_FILE_TEST_EXISTS))
        g_clear_pointer (&o.raw, g_free);
    }
  if (o.json == NULL)
    ;
  else if (o.raw != NULL)
    {
      if (!xrt_deployment_load_params (dep, o.raw, o.no_md5 ? XIR_LOAD_NO_MD5 : XIR_LOAD_DEFAULT, o.lazy, &error))
        return xrt_run_fail (error);
    }
  else
    {
      g_printerr (_("xrt-run run: no .raw beside %s: using synthetic params (seed 330)\n"), o.json);
      xrt_deployment_use_synthetic_params (dep);
    }
  if (o.decode_dll != NULL && (decoder = xrt_run_decoder_open (o.decode_dll, &error)) == NULL)
    return xrt_run_fail (error);
  if (o.host_run)
    ;   /* no board */
  else if (o.load_snapshot == NULL)
    {
      /* the board named, else the one the network was compiled for (mock://zg330, mock://buyi) */
      if (!xrt_deployment_open_board (dep, o.device, &error))
        return xrt_run_fail (error);
      dev = xrt_device_ref (xrt_deployment_get_device (dep));
    }
  else
    {
      /* a snapshot: the board named or the network's; none: the one the snapshot records */
      const char *url = o.device ? o.device : dep ? xrt_deployment_get_target_url (dep) : NULL;
      dev = url ? xrt_device_open (url, &error) : NULL;
    }
  if (dev == NULL && error != NULL)
    return xrt_run_fail (error);

  if (o.host_run)
    {
      view = xir_network_view_ref (xrt_deployment_get_view (dep));
      if ((sess = host_session_new (view, origin, &error)) == NULL)
        return xrt_run_fail (error);
    }
  else if (o.load_snapshot != NULL)
    {
      if (o.no_merge || o.no_etm || o.ocm != NULL)
        g_printerr (_("xrt-run run: the snapshot's options are used; --no-merge, --no-etm-opt and --ocm are ignored\n"));
      sess = xrt_session_new_from_snapshot (o.load_snapshot, net, dev, &error);
      if (sess == NULL)
        return xrt_run_fail (error);
      if (net == NULL)
        net = xir_network_ref (xrt_session_get_network (sess));
      if (dev == NULL && xrt_session_get_board_backend (sess) != NULL)
        dev = xrt_device_ref (xrt_backend_get_device (xrt_session_get_board_backend (sess)));
      view = xir_network_view_ref (xrt_session_get_view (sess));
    }
  else
    {
      /* only the options asked for: each chip has its own defaults (Buyi: merge off) */
      if (o.no_merge)
        xrt_deployment_disable_merge_hardop (dep);
      if (o.no_etm)
        xrt_deployment_disable_etm_optimize (dep);
      if (o.ocm != NULL)
        xrt_deployment_ocm_optimize (dep, opt);
      if (!xrt_deployment_prepare (dep, &error))
        return xrt_run_fail (error);
      if (!xrt_deployment_apply (dep, &error))
        {
          g_printerr ("xrt-run: %s\n", error->message);
          g_error_free (error);
          return XRT_RUN_EXIT_RUN;
        }
      view = xir_network_view_ref (xrt_deployment_get_view (dep));
      sess = xrt_session_ref (xrt_deployment_get_session (dep));
    }
  if (dev != NULL && !set_board (dev, &o, origin, &error))
    return xrt_run_fail (error);
  {
    XrtBackend *board = xrt_session_get_board_backend (sess);
    Zg330Backend *zg = board != NULL && ZG330_IS_BACKEND (board) ? ZG330_BACKEND (board) : NULL;
    if (zg != NULL && o.precheck && !zg330_backend_precheck (zg, &error))
      {
        g_printerr ("xrt-run: %s\n", error->message);
        g_error_free (error);
        return XRT_RUN_EXIT_RUN;
      }
    if (zg != NULL && o.log)
      {
        g_autofree char *path = NULL;
        if (!zg330_backend_log (zg, NULL, &path, &error))
          return xrt_run_fail (error);
        printf (_("Wrote the deploy log %s\n"), path);
      }
  }

  /* where files go: icraft-run's log_path/NETWORK/, or ours (--log-dir, else here) */
  {
    g_autofree char *name = zw_file_safe_name (xir_network_get_name (net));
    logs = o.vendor ? g_build_filename (o.log_dir, name, NULL) : g_strdup (o.log_dir ? o.log_dir : ".");
    if (o.dump_format != NULL && o.dump_dir == NULL)
      {
        g_autofree char *folder = g_strconcat ("ftmp", o.dump_format, NULL);
        o.dump_dir = g_build_filename (logs, folder, NULL);
      }
    if ((o.vendor || o.profile || o.save_snapshot != NULL) && g_mkdir_with_parents (logs, 0755) != 0)
      {
        g_printerr (_("xrt-run: %s: cannot create the folder\n"), logs);
        return XRT_RUN_EXIT_INPUT;
      }
    if (o.save_snapshot != NULL)
      {
        g_autofree char *file = g_strdup_printf ("%s.snapshot", name);
        g_autofree char *path = *o.save_snapshot ? g_strdup (o.save_snapshot) : g_build_filename (logs, file, NULL);
        if (!xrt_session_dump_snapshot (sess, path, &error))
          return xrt_run_fail (error);
        printf (_("Wrote the snapshot %s\n"), path);
      }
  }
  xrt_session_set_log_io (sess, o.log_io);
  xrt_session_set_log_time (sess, o.log_time);
  if (!log_capture_begin (&capture, &o, logs, sess))
    {
      g_printerr (_("xrt-run: cannot capture the run's log\n"));
      return XRT_RUN_EXIT_INPUT;
    }
  xrt_session_enable_time_profile (sess, o.profile);
  if (!set_dumps (sess, view, &o, &error))
    return xrt_run_fail (error);

  for (gint it = 0; it < o.iterations; it++)
    {
      g_autoptr (GPtrArray) inputs = xrt_run_make_inputs (net, view, o.input, (guint) it, decoder, &error);
      g_autoptr (GPtrArray) outputs = NULL;

      if (inputs == NULL)
        {
          log_capture_end (&capture, NULL);
          return xrt_run_fail (error);
        }
      outputs = xrt_session_forward (sess, inputs, &error);
      if (outputs == NULL)
        {
          log_capture_end (&capture, NULL);
          g_printerr ("xrt-run: %s\n", error->message);
          g_error_free (error);
          return XRT_RUN_EXIT_RUN;
        }
      if (o.iterations > 1)
        g_printerr ("\r%s %d/%d", _("forward"), it + 1, o.iterations);
    }
  if (o.iterations > 1)
    g_printerr ("\n");
  if (!log_capture_end (&capture, &error))
    return xrt_run_fail (error);
  if (dev != NULL)
    printf (_("%s: %d forward(s) on %s, last one %.3f ms (simulated board + host)\n"), xir_network_get_name (net),
            o.iterations, xrt_device_get_url (dev), xrt_session_get_total_time (sess));
  else
    /* the host reference run: each op timed by the board's cost model, not the PC's clock */
    printf (_("%s: %d forward(s) on %s, last one %.3f ms (the board's time, modelled)\n"), xir_network_get_name (net),
            o.iterations, _("the host (HostBackend)"), xrt_session_get_total_time (sess));
  if (o.summary)
    {
      XrtBackend *board = xrt_session_get_board_backend (sess);
      g_autoptr (ZwDeployReport) report = board ? xrt_backend_get_report (board) : NULL;
      xrt_run_print_summary (report, xrt_session_get_time_profile (sess));
    }
  if (o.dump_dir != NULL)
    printf (_("Dumped the outputs as %s into %s\n"), o.dump_format, o.dump_dir);
  if (o.profile && xrt_session_get_time_profile (sess) != NULL
      && !write_profiles (xrt_session_get_time_profile (sess), logs, xir_network_get_name (net), &error))
    return xrt_run_fail (error);
  return XRT_RUN_EXIT_OK;
}
