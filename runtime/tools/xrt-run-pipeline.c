/* xrt-run-pipeline.c — pipelines from the command line (xrt-pipeline.h):
 *
 *   xrt-run plan PIPE.toml [--device URL] [--staged] [--json F]
 *   xrt-run run PIPE.toml [--device URL] [--staged] [--iterations N] [--profile] [--summary]
 *                         [--dump DIR] [--json F] [--apart]
 *   xrt-run sweep PIPE.toml [--device URL] [--json F] [--csv F]
 *   xrt-run check PIPE-REPORT.json      (xrt-run-plan.c hands a pipeline report here)
 *
 * `plan` applies the networks on the board (a pipeline's ETM map needs the board's
 * addresses) without forwarding; `run` forwards passes too. Both print the board's ETM,
 * what sharing and connecting saved against the networks deployed apart, and each
 * connection's mode; `run --profile` the pass's simulated time per network; `run --apart` runs
 * every network again alone on a simulated board with the same options and compares the last
 * pass with them (xrt-pipeline-apart.h, zw-pipeline-apart.h): time and ETM, network by network. */
#include "xrt-run-private.h"

#include "base/zw-file.h"
#include "base/zw-file-read.h"
#include "deploy/xrt-pipeline-apart.h"
#include "report/zw-pipeline-apart.h"
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-check.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

gboolean
xrt_run_is_pipeline_file (const char *path)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (path == NULL || !g_str_has_suffix (path, ".toml")
      || !zw_file_read_regular (path, ZW_INPUT_RUN_CONFIG, 0, &text, &len, NULL))
    return FALSE;
  /* a [run] config is icraft-run's; a pipeline file has [pipeline] or [network.NAME] */
  for (char *line = text; line != NULL && *line != '\0';)
    {
      char *next = strchr (line, '\n');
      while (*line == ' ' || *line == '\t')
        line++;
      if (g_str_has_prefix (line, "[pipeline]") || g_str_has_prefix (line, "[network.") || g_str_has_prefix (line, "[[network")
          || g_str_has_prefix (line, "[share.") || g_str_has_prefix (line, "[connect."))
        return TRUE;
      if (g_str_has_prefix (line, "[run]"))
        return FALSE;
      line = next ? next + 1 : NULL;
    }
  return FALSE;
}

static char *
human (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static void
print_report (const cJSON *root)
{
  const cJSON *etm = cJSON_GetObjectItemCaseSensitive (root, "etm");
  const cJSON *it;
  double board = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (etm, "board_bytes"));
  double apart = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (etm, "apart_bytes"));
  const cJSON *time = cJSON_GetObjectItemCaseSensitive (root, "time");

  printf (_("Pipeline %s on %s\n"),
          cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (root, "pipeline"), "name")),
          cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "device")));
  printf ("  %-12s %5s %8s %14s %10s\n", _("network"), _("stage"), _("ops"), _("ETM apart"), _("time ms"));
  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "networks"))
    {
      g_autofree char *apart_n = human ((guint64) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "apart_etm_bytes")));
      const cJSON *t = cJSON_GetObjectItemCaseSensitive (it, "time_ms");
      const cJSON *view = cJSON_GetObjectItemCaseSensitive (it, "view");
      g_autofree char *ms = cJSON_IsNumber (t) ? g_strdup_printf ("%.3f", t->valuedouble) : g_strdup ("-");
      printf ("  %-12s %5d %8d %14s %10s\n", cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "name")),
              (int) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "stage")),
              (int) cJSON_GetNumberValue (cJSON_GetArrayItem (view, 1)), apart_n, ms);
    }
  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "shares"))
    {
      g_autofree char *size = human ((guint64) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "size")));
      g_autofree char *names = NULL;
      GString *s = g_string_new (NULL);
      const cJSON *n;
      cJSON_ArrayForEach (n, cJSON_GetObjectItemCaseSensitive (it, "networks"))
        g_string_append_printf (s, "%s%s", s->len ? ", " : "", cJSON_GetStringValue (n));
      names = g_string_free (s, FALSE);
      printf (_("  share %s: %s of %s (%s) at 0x%llx\n"), cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "name")),
              cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "segment")), names, size,
              (unsigned long long) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "addr")));
    }
  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "connections"))
    {
      g_autofree char *bytes = human ((guint64) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "bytes")));
      const char *fm = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "from_mode"));
      const char *tm = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "to_mode"));
      if (g_strcmp0 (fm, "host") == 0)
        {
          printf (_("  connect %s: %s v_id %lld → %s v_id %lld, %s through the host\n"),
                  cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "name")),
                  cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "from")),
                  (long long) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "output_v_id")),
                  cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "to")),
                  (long long) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "input_v_id")), bytes);
          continue;
        }
      printf (_("  connect %s: %s v_id %lld → %s v_id %lld, %s at 0x%llx, %s / %s\n"),
              cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "name")),
              cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "from")),
              (long long) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "output_v_id")),
              cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (it, "to")),
              (long long) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "input_v_id")), bytes,
              (unsigned long long) cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (it, "addr")), fm, tm);
    }
  {
    g_autofree char *b = human ((guint64) board), *a = human ((guint64) apart);
    g_autofree char *diff = human (apart > board ? (guint64) (apart - board) : (guint64) (board - apart));
    if (apart >= board)
      printf (_("ETM on the board %s; the same networks deployed apart %s; sharing and connecting saved %s\n"), b, a,
              diff);
    else
      printf (_("ETM on the board %s; the same networks deployed apart %s; the connections' chunks cost %s more "
                "than sharing saved (a staged connection keeps its own copy)\n"), b, a, diff);
  }
  if (cJSON_IsObject (time))
    printf (_("One pass: %.3f ms simulated (the board runs one network at a time)\n"),
            cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (time, "pass_ms")));
}

static int
save_json (cJSON *root, const char *path)
{
  g_autofree char *text = cJSON_Print (root);
  GError *error = NULL;

  if (!zw_file_set_contents (path, text, -1, &error))
    return xrt_run_fail (error);
  return XRT_RUN_EXIT_OK;
}

/* The options of a pipeline command, then exactly one PIPE.toml. */
static int
parse_one_file (GOptionContext *ctx, GOptionEntry *entries, int *argc, char ***argv, const char *cmd)
{
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, argc, argv)) != 0)
    return rc;
  if (*argc != 2)
    {
      g_printerr ("xrt-run %s: %s\n", cmd, _("expected exactly one PIPE.toml"));
      return XRT_RUN_EXIT_USAGE;
    }
  return 0;
}

/* The last pass (@report) against the same networks run alone (`run --apart`). */
static int
print_apart (XrtPipeline *p, const cJSON *report, guint iteration, const char *path)
{
  g_autoptr (cJSON) root = NULL;
  g_autoptr (ZwPipelineReport) pass = NULL;
  g_autoptr (ZwPipelineReport) apart = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autofree char *headline = NULL;
  ZwPipelineApartHeadline h;
  GError *error = NULL;

  if ((root = xrt_pipeline_apart_to_json (p, iteration, &error)) == NULL
      || (pass = zw_pipeline_report_from_json (report, path, &error)) == NULL
      || (apart = zw_pipeline_report_from_json (root, path, &error)) == NULL
      || (cmp = zw_pipeline_compare_apart (pass, apart, NULL, &h, &error)) == NULL)
    return xrt_run_fail (error);
  headline = zw_pipeline_apart_headline_text (&h);
  printf ("%s\n", headline);
  for (guint i = 0; i < pass->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (pass->networks, ZwPipelineNetwork, i);
      const ZwPipelineNetwork *a = &g_array_index (apart->networks, ZwPipelineNetwork,
                                                   zw_pipeline_report_find_network (apart, n->name));
      g_autofree char *etm = human (a->apart_etm_bytes);
      /* TRANSLATORS: a network: its time in the pass, alone, the difference (pass - apart, as
       * the headline's), its ETM alone */
      printf (_("  %-12s pass %10.4f ms  apart %10.4f ms  (%+.4f ms)  ETM apart %s\n"), n->name, n->time_ms, a->time_ms,
              n->time_ms - a->time_ms, etm);
    }
  /* TRANSLATORS: ops compared NET:OP_ID: B (apart) slower is a regression of B; then the
   * thresholds an op's difference must pass to count (a percentage, milliseconds) */
  printf (_("  ops: %u faster on one board than apart, %u slower (%u compared; a difference counts past %g %% "
            "and %g ms)\n"),
          cmp->n_regressions, cmp->n_improvements, cmp->n_matched, cmp->options.tolerance * 100,
          cmp->options.min_delta_ms);
  return XRT_RUN_EXIT_OK;
}

static int
pipeline_cmd (int argc, char **argv, gboolean run)
{
  g_autofree char *device = NULL, *json_out = NULL, *dump = NULL, *dump_format = NULL;
  gboolean staged = FALSE, profile = FALSE, summary = FALSE, apart = FALSE;
  gint iterations = 1;
  GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, N_("The board (default: the file's device, else the first network's compile target)"), N_("URL") },
    { "staged", 0, 0, G_OPTION_ARG_NONE, &staged, N_("Stage every connection through its chunk instead of zero-copy"), NULL },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_out, N_("Write the pipeline report (every network's deploy report) as JSON"), N_("FILE") },
    { "iterations", 'n', 0, G_OPTION_ARG_INT, &iterations, N_("Passes to run (run only)"), N_("N") },
    { "profile", 'p', 0, G_OPTION_ARG_NONE, &profile, N_("Time profile each network: the pass's simulated time (run only)"), NULL },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, N_("Print the pipeline's summary (run prints it with --profile too)"), NULL },
    { "dump", 0, 0, G_OPTION_ARG_FILENAME, &dump, N_("Dump every network's values into DIR as NETWORK.V_ID.ftmp with one manifest (run only)"), N_("DIR") },
    { "dump-format", 0, 0, G_OPTION_ARG_STRING, &dump_format, N_("Dump format: SFB, SFT, SQB, SQT, HQB or HQT (default SQB)"), N_("FMT") },
    { "apart", 0, 0, G_OPTION_ARG_NONE, &apart, N_("Run every network again alone on a simulated board with the same options and compare the last pass with them, time and ETM (run only; profiles the pass)"), NULL },
    { NULL },
  };
  g_autofree char *title = g_strdup_printf (_("PIPE.toml — %s several networks on one board"),
                                            run ? _("deploy and run") : _("deploy"));
  g_autoptr (GOptionContext) ctx = g_option_context_new (title);
  g_autoptr (XrtPipeline) p = NULL;
  g_autoptr (cJSON) report = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  const char *cmd = run ? "run" : "plan";
  GError *error = NULL;
  int rc;

  if ((rc = parse_one_file (ctx, entries, &argc, &argv, cmd)) != 0)
    return rc;
  if (!run && (iterations != 1 || profile || dump != NULL || apart))
    {
      g_printerr ("xrt-run plan: %s\n", _("--iterations, --profile, --dump and --apart are options of run"));
      return XRT_RUN_EXIT_USAGE;
    }
  /* the pass against the networks apart needs its times */
  profile = profile || apart;
  if (iterations < 1 || iterations > 100000)
    {
      g_printerr ("xrt-run run: %s\n", _("--iterations must be in [1, 100000]"));
      return XRT_RUN_EXIT_USAGE;
    }
  if ((p = xrt_pipeline_new_from_file (argv[1], &error)) == NULL)
    return xrt_run_fail (error);
  if (staged)
    xrt_pipeline_force_staged (p);
  if (!xrt_pipeline_apply (p, device, &error))
    return xrt_run_fail (error);
  if (run)
    {
      xrt_pipeline_enable_time_profile (p, profile);
      if (dump != NULL && !xrt_pipeline_set_dump (p, dump, dump_format ? dump_format : "SQB", &error))
        return xrt_run_fail (error);
      for (gint i = 0; i < iterations; i++)
        {
          g_clear_pointer (&outs, g_ptr_array_unref);
          if ((outs = xrt_pipeline_forward (p, (guint) i, &error)) == NULL)
            return xrt_run_fail (error);
        }
    }
  if ((report = xrt_pipeline_report_to_json (p, &error)) == NULL)
    return xrt_run_fail (error);
  if (!run || summary || profile)
    print_report (report);
  if (run && !summary && !profile)
    printf (_("%s: %u network(s), %d pass(es) run\n"), argv[1], xrt_pipeline_get_n_networks (p), iterations);
  if (run && apart && (rc = print_apart (p, report, (guint) (iterations - 1), argv[1])) != XRT_RUN_EXIT_OK)
    return rc;
  if (json_out != NULL)
    return save_json (report, json_out);
  return XRT_RUN_EXIT_OK;
}

int
xrt_run_pipeline_cmd_plan (int argc, char **argv)
{
  return pipeline_cmd (argc, argv, FALSE);
}

int
xrt_run_pipeline_cmd_run (int argc, char **argv)
{
  return pipeline_cmd (argc, argv, TRUE);
}

int
xrt_run_pipeline_cmd_sweep (int argc, char **argv)
{
  g_autofree char *device = NULL, *json_out = NULL, *csv_out = NULL;
  GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, N_("The board (default: the file's device, else the first network's compile target)"), N_("URL") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_out, N_("Write the points as JSON"), N_("FILE") },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_out, N_("Write the points as CSV"), N_("FILE") },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("PIPE.toml — the networks' options swept jointly: one pass's time against the board's ETM"));
  g_autoptr (GArray) points = NULL;
  g_autoptr (GString) csv = g_string_new ("merge_hardop,etm_optimize,ocm,pass_ms,board_etm_bytes,apart_etm_bytes,front,error\n");
  g_autoptr (cJSON) json = cJSON_CreateObject ();
  cJSON *arr;
  GError *error = NULL;
  int rc;

  if ((rc = parse_one_file (ctx, entries, &argc, &argv, "sweep")) != 0)
    return rc;
  if ((points = xrt_pipeline_sweep (argv[1], device, &error)) == NULL)
    return xrt_run_fail (error);
  cJSON_AddStringToObject (json, "format", "zhuge-pipeline-sweep");
  cJSON_AddStringToObject (json, "pipeline", argv[1]);
  arr = cJSON_AddArrayToObject (json, "points");
  printf (_("Sweep of %s: %u points (the same options on every network)\n"), argv[1], points->len);
  printf ("%-5s %-3s %-10s %12s %14s %14s %-5s\n", _("merge"), _("ETM"), _("OCM"), _("pass ms"), _("board ETM"),
          _("apart"), _("front"));
  for (guint i = 0; i < points->len; i++)
    {
      const XrtPipelinePoint *p = &g_array_index (points, XrtPipelinePoint, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddBoolToObject (o, "merge_hardop", p->merge_hardop);
      cJSON_AddBoolToObject (o, "etm_optimize", p->etm_optimize);
      cJSON_AddStringToObject (o, "ocm", zw_ocm_opt_to_string (p->ocm));
      if (p->ok)
        {
          g_autofree char *b = human (p->board_bytes), *a = human (p->apart_bytes);
          cJSON_AddNumberToObject (o, "pass_ms", p->pass_ms);
          cJSON_AddNumberToObject (o, "board_etm_bytes", (double) p->board_bytes);
          cJSON_AddNumberToObject (o, "apart_etm_bytes", (double) p->apart_bytes);
          cJSON_AddBoolToObject (o, "front", p->front);
          printf ("%-5s %-3s %-10s %12.4f %14s %14s %-5s\n", p->merge_hardop ? _("on") : _("off"),
                  p->etm_optimize ? _("on") : _("off"), zw_ocm_opt_to_string (p->ocm), p->pass_ms, b, a,
                  p->front ? "*" : "");
        }
      else
        {
          cJSON_AddStringToObject (o, "error", p->error);
          printf ("%-5s %-3s %-10s %s\n", p->merge_hardop ? _("on") : _("off"), p->etm_optimize ? _("on") : _("off"),
                  zw_ocm_opt_to_string (p->ocm), p->error);
        }
      cJSON_AddItemToArray (arr, o);
      g_string_append_printf (csv, "%d,%d,%s,", p->merge_hardop, p->etm_optimize, zw_ocm_opt_to_string (p->ocm));
      if (p->ok)
        {
          char ms[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append_printf (csv, "%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%d,\n",
                                  g_ascii_formatd (ms, sizeof ms, "%.6f", p->pass_ms), p->board_bytes, p->apart_bytes,
                                  p->front);
        }
      else
        {
          g_autofree char *quoted = g_strdup (p->error);
          g_strdelimit (quoted, "\"\n", '\'');
          g_string_append_printf (csv, ",,,0,\"%s\"\n", quoted);
        }
    }
  printf ("%s\n", _("* on the front: no other point is both faster and smaller on the board"));
  if (json_out != NULL && (rc = save_json (json, json_out)) != XRT_RUN_EXIT_OK)
    return rc;
  if (csv_out != NULL && !zw_file_set_contents (csv_out, csv->str, (gssize) csv->len, &error))
    return xrt_run_fail (error);
  return XRT_RUN_EXIT_OK;
}

int
xrt_run_pipeline_check_if_pipeline (const char *path)
{
  ZwPipelineCheck c;
  GError *error = NULL;
  g_autofree char *etm = NULL, *apart = NULL;
  g_autoptr (cJSON) root = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || (root = zw_report_json_load (path, NULL)) == NULL
      || !zw_pipeline_report_is_pipeline (root))
    return -1;
  if (!zw_pipeline_report_check_json (root, path, &c, &error))
    {
      g_printerr ("xrt-run check: %s\n", error->message);
      g_error_free (error);
      return XRT_RUN_EXIT_INPUT;
    }
  etm = human (c.etm_bytes);
  apart = human (c.apart_bytes);
  printf (ngettext ("%s: OK — %u network, its report verified; no ETM of two networks overlaps outside %u shared "
                    "segment(s) and %u connection(s) (%u zero-copy); the board's ETM %s (apart %s)\n",
                    "%s: OK — %u networks, each report verified; no ETM of two networks overlaps outside %u shared "
                    "segment(s) and %u connection(s) (%u zero-copy); the board's ETM %s (apart %s)\n", c.n_networks),
          path, c.n_networks, c.n_shared, c.n_connections, c.n_zero_copy, etm, apart);
  return XRT_RUN_EXIT_OK;
}

/* The pipeline file among a command's arguments, or NULL: `xrt-run run|plan` hand such
 * a command here. */
const char *
xrt_run_find_pipeline_file (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (argv[i][0] != '-' && xrt_run_is_pipeline_file (argv[i]))
      return argv[i];
  return NULL;
}
