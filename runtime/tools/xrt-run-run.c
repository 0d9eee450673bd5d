/* xrt-run run — deploy and run a network on the (simulated) board, as `icraft run` does.
 *
 *   xrt-run run NET.json [--raw R] [--input FILE[;FILE…]] [--no-merge] [--no-etm-opt]
 *               [--ocm OPT] [--iterations N] [--profile] [--dump DIR
 *               --dump-format SQB] [--log] [--save-snapshot F | --load-snapshot F]
 *               [--device URL] [--log-dir DIR]
 *   xrt-run run CONFIG.toml          (a [run] section with the vendor's keys)
 *   xrt-run run --load-snapshot F    (or a [run] with load_snapshot only: the snapshot
 *                                    finds the network JSON and params it records)
 *
 * Exit codes (the vendor's in brackets): 0 success; 1 a file or value is bad or missing
 * [26001, 26002, 26003, 26010]; 2 usage [26000]; 3 the run failed on the device.
 */
#include "xrt-run-private.h"

#include "base/zw-file-read.h"
#include "base/zw-file.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "deploy/xrt-deployment.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define XRT_RUN_EXIT_RUN 3

/* One tensor per network input: from a file (its bytes: raw or an SQB .ftmp), or
 * deterministic random bytes when no input is given. */
static GPtrArray *
make_inputs (XirNetwork *net, XirNetworkView *view, const char *spec, guint iteration, GError **error)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values = xir_network_view_get_inputs (view);
  g_auto (GStrv) files = spec ? g_strsplit (spec, ";", -1) : NULL;

  if (files != NULL && g_strv_length (files) == 1 && g_str_has_suffix (files[0], ".txt"))
    {
      /* a list file: one input line per iteration, files separated by ";" */
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;
      guint n = 0;
      if (!zw_file_read_regular (files[0], ZW_INPUT_INPUT_LIST, 0, &text, NULL, error))
        {
          g_ptr_array_unref (inputs);
          return NULL;
        }
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i]; i++)
        if (*g_strstrip (lines[i]) != '\0')
          n++;
      if (n == 0)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: the input list is empty", files[0]);
          g_ptr_array_unref (inputs);
          return NULL;
        }
      for (guint i = 0, k = 0; lines[i]; i++)
        if (*lines[i] != '\0' && k++ == iteration % n)
          {
            g_strfreev (files);
            files = g_strsplit (lines[i], ";", -1);
            break;
          }
    }
  if (files != NULL && g_strv_length (files) != values->len)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "--input: %u file(s) given, the network has %u input(s)",
                   g_strv_length (files), values->len);
      g_ptr_array_unref (inputs);
      return NULL;
    }
  if (files == NULL)
    {
      /* no files: the deployment's seeded inputs */
      g_ptr_array_unref (inputs);
      return xrt_deployment_seeded_inputs (view, xrt_deployment_input_seed (iteration), error);
    }
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = NULL;
      gsize size = v->storage_bytes;
      XrtTensor *t;

      g_autofree char *contents = NULL;
      guint64 on_disk = 0;
      int fd = zw_file_open_regular (files[k], ZW_INPUT_TENSOR, 0, &on_disk, error);
      /* the size is checked before a byte is read */
      if (fd >= 0)
        close (fd);
      if (fd >= 0 && on_disk == v->storage_bytes
          && !zw_file_read_regular (files[k], ZW_INPUT_TENSOR, MAX (v->storage_bytes, 1), &contents, &size, error))
        fd = -1;
      if (fd < 0)
        {
          g_ptr_array_unref (inputs);
          return NULL;
        }
      if (contents == NULL)
        size = (gsize) on_disk;
      if (size != v->storage_bytes)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: %" G_GSIZE_FORMAT " bytes, input v_id %" G_GINT64_FORMAT " needs %" G_GUINT64_FORMAT
                       " (raw bytes or an SQB .ftmp; images need converting first)", files[k], size, v->v_id,
                       v->storage_bytes);
          g_ptr_array_unref (inputs);
          return NULL;
        }
      bytes = (guint8 *) g_steal_pointer (&contents);
      t = xrt_tensor_new_host (net, v, bytes, size, error);
      if (t == NULL)
        {
          g_ptr_array_unref (inputs);
          return NULL;
        }
      g_ptr_array_add (inputs, t);
    }
  return inputs;
}

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

int
xrt_run_cmd_run (int argc, char **argv)
{
  g_auto (RunOptions) o = { 0 };
  g_autofree char *ocm_help = xrt_run_ocm_help (), *ocm_options = xrt_run_ocm_options_text (), *description = NULL;
  GOptionEntry entries[] = {
    { "raw", 'r', 0, G_OPTION_ARG_FILENAME, &o.raw, N_("Params file (default: NET.raw beside the JSON; synthetic params when absent)"), N_("R") },
    { "input", 'i', 0, G_OPTION_ARG_STRING, &o.input, N_("Input files (raw bytes or SQB .ftmp), “;”-separated, or a .txt list; default: seeded random"), N_("FILE") },
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
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o.device, N_("Device URL (default mock://zg330)"), N_("URL") },
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
  GError *error = NULL;
  ZwOcmOpt opt = ZW_OCM_BEST_SCORE;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  description = g_strdup_printf ("%s\n\n%s", _("Exit codes: 0 success; 1 a file or value is bad; 2 usage; 3 the run failed."),
                                 ocm_options);
  g_option_context_set_description (ctx, description);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2 && !(argc == 1 && o.load_snapshot != NULL))
    {
      g_printerr ("xrt-run run: %s\n", _("expected NET.json or CONFIG.toml"));
      return XRT_RUN_EXIT_USAGE;
    }
  if (argc == 1)
    ;   /* --load-snapshot F alone */
  else if (g_str_has_suffix (argv[1], ".toml"))
    {
      if (!xrt_run_load_config (argv[1], &o, &error))
        return xrt_run_fail (error);
      if (o.json == NULL && o.load_snapshot == NULL)
        {
          g_printerr (_("xrt-run run: %s: [run] needs json (or jr_path + network)\n"), argv[1]);
          return XRT_RUN_EXIT_USAGE;
        }
    }
  else
    o.json = g_strdup (argv[1]);
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
  if (o.json != NULL && (net = xir_network_new_from_json_file (o.json, &error)) == NULL)
    return xrt_run_fail (error);
  if (o.json != NULL && (dep = xrt_deployment_new (net, &error)) == NULL)
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
  if (o.load_snapshot == NULL)
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

  if (o.load_snapshot != NULL)
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
  if (o.save_snapshot != NULL)
    {
      g_autofree char *name = zw_file_safe_name (xir_network_get_name (net));
      g_autofree char *path = *o.save_snapshot ? g_strdup (o.save_snapshot) : g_strdup_printf ("%s.snapshot", name);
      if (!xrt_session_dump_snapshot (sess, path, &error))
        return xrt_run_fail (error);
      printf (_("Wrote the snapshot %s\n"), path);
    }
  xrt_session_set_log_io (sess, o.log_io);
  xrt_session_set_log_time (sess, o.log_time);
  xrt_session_set_log_stream (sess, stdout);
  xrt_session_enable_time_profile (sess, o.profile);
  if (o.dump_dir != NULL && !xrt_session_set_dump_outputs (sess, TRUE, o.dump_dir, o.dump_format, &error))
    return xrt_run_fail (error);

  for (gint it = 0; it < o.iterations; it++)
    {
      g_autoptr (GPtrArray) inputs = make_inputs (net, view, o.input, (guint) it, &error);
      g_autoptr (GPtrArray) outputs = NULL;

      if (inputs == NULL)
        return xrt_run_fail (error);
      outputs = xrt_session_forward (sess, inputs, &error);
      if (outputs == NULL)
        {
          g_printerr ("xrt-run: %s\n", error->message);
          g_error_free (error);
          return XRT_RUN_EXIT_RUN;
        }
      if (o.iterations > 1)
        g_printerr ("\r%s %d/%d", _("forward"), it + 1, o.iterations);
    }
  if (o.iterations > 1)
    g_printerr ("\n");
  printf (_("%s: %d forward(s) on %s, last one %.3f ms (simulated board + host)\n"), xir_network_get_name (net),
          o.iterations, xrt_device_get_url (dev), xrt_session_get_total_time (sess));
  if (o.summary)
    {
      XrtBackend *board = xrt_session_get_board_backend (sess);
      g_autoptr (ZwDeployReport) report = board ? xrt_backend_get_report (board) : NULL;
      xrt_run_print_summary (report, xrt_session_get_time_profile (sess));
    }
  if (o.dump_dir != NULL)
    printf (_("Dumped the outputs as %s into %s\n"), o.dump_format, o.dump_dir);
  if (o.profile && xrt_session_get_time_profile (sess) != NULL)
    {
      g_autofree char *dir = g_strdup (o.log_dir ? o.log_dir : ".");
      if (g_mkdir_with_parents (dir, 0755) != 0)
        {
          g_printerr (_("xrt-run: %s: cannot create the folder\n"), dir);
          return XRT_RUN_EXIT_INPUT;
        }
      if (!write_profiles (xrt_session_get_time_profile (sess), dir, xir_network_get_name (net), &error))
        return xrt_run_fail (error);
    }
  return XRT_RUN_EXIT_OK;
}
