/* xrt-run plan / check — the planners and the independent checker from the command line. */
#include "xrt-run-private.h"

#include "backends/zg330/zg330-backend.h"
#include "backends/zg330/zg330-etm-plan.h"
#include "deploy/xrt-deployment.h"
#include "report/zw-deploy-check.h"
#include "xrt/xrt-device.h"

#include <glib/gi18n.h>
#include <stdio.h>

static int
plan_buffers (const char *csv, const char *output, gint64 capacity, guint64 work, double time_limit)
{
  g_autoptr (GArray) bufs = NULL;
  Zg330PlanOptions opt = { .capacity = (guint64) capacity, .alignment = 1, .work_budget = work,
                           .time_limit_s = time_limit };
  Zg330PlanStats stats = { 0 };
  GError *error = NULL;
  gboolean fits;

  bufs = zg330_buffers_load_csv (csv, &error);
  if (bufs == NULL)
    return xrt_run_fail (error);
  fits = zg330_etm_plan ((Zg330Buffer *) bufs->data, bufs->len, &opt, &stats, &error);
  if (!fits && !g_error_matches (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY))
    return xrt_run_fail (error);
  g_clear_error (&error);
  /* The plan is verified by the sweep checker, not by the planner's own bookkeeping. */
  if (!zg330_etm_plan_check ((Zg330Buffer *) bufs->data, bufs->len, 0, &error))
    return xrt_run_fail (error);
  printf ("%s: %u %s\n", csv, bufs->len, _("buffers"));
  printf ("  %-14s %" G_GUINT64_FORMAT "\n", _("arena"), stats.arena);
  printf ("  %-14s %" G_GUINT64_FORMAT "\n", _("lower bound"), stats.lower_bound);
  printf ("  %-14s %.4f\n", _("ratio"), stats.lower_bound ? (double) stats.arena / (double) stats.lower_bound : 1.0);
  printf ("  %-14s %s%s\n", _("method"), stats.method, stats.optimal ? _(", optimal") : "");
  printf ("  %-14s %" G_GUINT64_FORMAT " %s %" G_GUINT64_FORMAT " %s (%" G_GUINT64_FORMAT " %s)\n", _("work"),
          stats.work, _("of"), stats.work_budget, _("work units"), stats.nodes, _("search nodes"));
  printf ("  %-14s %.3f s (%s)\n", _("time"), stats.seconds, _("measured; the plan does not depend on it"));
  if (stats.time_limit_hit)
    printf ("  %-14s %s\n", _("time limit"), _("time limit hit: the plan may differ from run to run"));
  printf ("  %-14s %s\n", _("checker"), _("no two live buffers overlap"));
  if (capacity > 0)
    printf ("  %-14s %s %" G_GINT64_FORMAT "\n", _("capacity"), fits ? _("fits in") : _("DOES NOT FIT in"), capacity);
  if (output != NULL && !zg330_buffers_save_csv (output, (Zg330Buffer *) bufs->data, bufs->len, TRUE, &error))
    return xrt_run_fail (error);
  if (output != NULL)
    printf (_("Wrote the solution (id,lower,upper,size,offset) to %s\n"), output);
  return fits ? XRT_RUN_EXIT_OK : XRT_RUN_EXIT_INPUT;
}

static void
print_plan (const ZwDeployReport *r)
{
  printf ("%s %s  (%s: merge %s, ETM optimize %s, OCM %s)\n", _("Plan of"), r->network_name, _("options"),
          r->merge_hardop ? _("on") : _("off"), r->etm_optimize ? _("on") : _("off"),
          zw_ocm_opt_to_string (r->ocm_requested));
  printf ("%-8s %14s %14s\n", _("segment"), _("logic addr"), _("bytes"));
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    printf ("%-8s %#14" G_GINT64_MODIFIER "x %14" G_GUINT64_FORMAT "\n", zw_segment_type_to_string (t),
            r->segments[t].logic_addr, r->segments[t].byte_size);
  printf ("\nFTMP %" G_GUINT64_FORMAT " %s, %s %" G_GUINT64_FORMAT " (%.4fx), %s %" G_GUINT64_FORMAT " (%s, %.3f s)\n",
          r->ftmp_bytes, _("bytes"), _("lower bound"), r->lower_bound,
          r->lower_bound ? (double) r->ftmp_bytes / (double) r->lower_bound : 1.0, _("sum of chunks"), r->sum_of_chunks,
          r->etm_method, r->etm_seconds);
  if (r->etm_work_budget > 0)
    printf ("%s: %" G_GUINT64_FORMAT " %s %" G_GUINT64_FORMAT " %s\n", _("ETM plan work"), r->etm_work, _("of"),
            r->etm_work_budget, _("work units"));
  if (r->etm_time_limit_hit)
    printf ("%s\n", _("ETM plan: time limit hit: the plan may differ from run to run"));
  printf ("%s: %s %" G_GUINT64_FORMAT " %s, %s %.4f ms\n", _("OCM"), _("capacity"), r->ocm_capacity, _("bytes"),
          _("estimated cost without OCM"), r->none_cost_ms);
  for (guint i = 0; i < r->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (r->ocm_options, ZwOcmOptionResult, i);
      printf ("  %-8s %.4f ms  %3u %s  %10" G_GUINT64_FORMAT " %s  %s %" G_GUINT64_FORMAT "%s\n",
              zw_ocm_opt_to_string (o->option), o->cost_ms, o->picks->len, _("chunks"), o->bytes, _("bytes"), _("peak"),
              o->peak_bytes, o->option == r->ocm_chosen ? _("   <- chosen") : "");
    }
}

int
xrt_run_cmd_plan (int argc, char **argv)
{
  g_autofree char *buffers = NULL, *output = NULL, *device_url = NULL, *ocm = NULL, *json_out = NULL;
  gboolean no_merge = FALSE, no_etm = FALSE;
  gint64 capacity = 1048576, work = 0;
  double time_limit = 0.0;
  g_autofree char *ocm_help = xrt_run_ocm_help (), *ocm_options = xrt_run_ocm_options_text ();
  GOptionEntry entries[] = {
    { "buffers", 'b', 0, G_OPTION_ARG_FILENAME, &buffers, N_("Plan a MiniMalloc CSV buffer list (id,lower,upper,size)"), N_("FILE.csv") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("With --buffers: write the solution CSV"), N_("SOLUTION.csv") },
    { "capacity", 0, 0, G_OPTION_ARG_INT64, &capacity, N_("With --buffers: capacity in bytes (default 1 MiB, 0 = none)"), N_("BYTES") },
    { "work", 0, 0, G_OPTION_ARG_INT64, &work, N_("Work budget of the ETM search in work units (default: 1000000000 with --buffers, 250000000 for a network)"), N_("UNITS") },
    { "time-limit", 0, 0, G_OPTION_ARG_DOUBLE, &time_limit, N_("Also stop the ETM search after S seconds of wall time (default: none; when hit, the plan may differ from run to run)"), N_("S") },
    { "no-merge", 0, 0, G_OPTION_ARG_NONE, &no_merge, N_("disableMergeHardOp"), NULL },
    { "no-etm-opt", 0, 0, G_OPTION_ARG_NONE, &no_etm, N_("disableEtmOptimize"), NULL },
    { "ocm", 0, 0, G_OPTION_ARG_STRING, &ocm, ocm_help, N_("OPT") },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device_url, N_("Device URL (default mock://zg330)"), N_("URL") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_out, N_("Also write the plan as a deploy report JSON"), N_("FILE") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("NET.json | --buffers FILE.csv — plan memory"));
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  GError *error = NULL;
  ZwOcmOpt opt = ZW_OCM_BEST_SCORE;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (ctx, ocm_options);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (work < 0)
    {
      g_printerr ("xrt-run plan: %s\n", _("--work must be >= 0"));
      return XRT_RUN_EXIT_USAGE;
    }
  if ((rc = xrt_run_check_number ("plan", "time-limit", time_limit, 0, 1e6)) != 0)
    return rc;
  if (buffers != NULL)
    {
      if (argc != 1)
        {
          g_printerr ("xrt-run plan: %s\n", _("--buffers takes no NET.json"));
          return XRT_RUN_EXIT_USAGE;
        }
      return plan_buffers (buffers, output, capacity, (guint64) work, time_limit);
    }
  if (argc != 2)
    {
      g_printerr ("xrt-run plan: %s\n", _("expected exactly one NET.json (or --buffers FILE.csv)"));
      return XRT_RUN_EXIT_USAGE;
    }
  if (ocm != NULL && !xrt_run_parse_ocm ("plan", ocm, &opt))
    return XRT_RUN_EXIT_USAGE;
  net = xir_network_new_from_json_file (argv[1], &error);
  if (net == NULL)
    return xrt_run_fail (error);
  dep = xrt_deployment_new (net, &error);
  if (dep == NULL)
    return xrt_run_fail (error);
  if (xrt_backend_find_for_view (xrt_deployment_get_view (dep)) == G_TYPE_INVALID)
    {
      g_printerr (_("xrt-run plan: %s: no op of the network runs on a board backend of this build: nothing to "
                    "plan\n"), argv[1]);
      return XRT_RUN_EXIT_INPUT;
    }
  /* the board the network was compiled for (mock://zg330, mock://buyi), unless named */
  if (!xrt_deployment_open_board (dep, device_url, &error))
    return xrt_run_fail (error);
  if (no_merge)
    xrt_deployment_disable_merge_hardop (dep);
  if (no_etm)
    xrt_deployment_disable_etm_optimize (dep);
  if (ocm != NULL)
    xrt_deployment_ocm_optimize (dep, opt);
  xrt_deployment_set_plan_limits (dep, (guint64) work, time_limit);
  /* the report carries the graph: `--json` opens in the workbench's Graph view on its own */
  if ((report = xrt_deployment_plan (dep, &error)) == NULL)
    return xrt_run_fail (error);
  print_plan (report);
  if (json_out != NULL && !zw_deploy_report_save (report, json_out, &error))
    return xrt_run_fail (error);
  return XRT_RUN_EXIT_OK;
}

int
xrt_run_cmd_check (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("REPORT.json — verify a deploy report"));
  g_autoptr (ZwDeployReport) report = NULL;
  GError *error = NULL;
  ZwDeployCheck check;
  int rc;

  g_option_context_set_description (ctx, _("Checks, from the report alone, that no two values live at the same time "
                                           "share ETM or OCM bytes, that every address lies inside its segment, and "
                                           "that FTMP is at least the liveness lower bound."));
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2)
    {
      g_printerr ("xrt-run check: %s\n", _("expected exactly one REPORT.json"));
      return XRT_RUN_EXIT_USAGE;
    }
  report = zw_deploy_report_load (argv[1], &error);
  if (report == NULL)
    return xrt_run_fail (error);
  if (!zw_deploy_report_check (report, &check, &error))
    {
      g_printerr ("xrt-run check: %s: %s\n", argv[1], error->message);
      g_error_free (error);
      return XRT_RUN_EXIT_INPUT;
    }
  /* TRANSLATORS: counts after colons (two counts: no one plural to agree with) */
  printf (_("%s: OK — values in ETM: %u, in OCM: %u; no overlap of live values; FTMP %llu >= lower bound %llu; "
            "OCM peak %llu of %llu\n"),
          argv[1], check.n_etm_values, check.n_ocm_values, (unsigned long long) report->ftmp_bytes,
          (unsigned long long) check.ftmp_lower_bound, (unsigned long long) check.ocm_peak,
          (unsigned long long) report->ocm_capacity);
  return XRT_RUN_EXIT_OK;
}
