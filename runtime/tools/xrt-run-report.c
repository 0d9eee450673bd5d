/* xrt-run report — offline analysis without a display, for people and CI:
 *
 *   xrt-run report profile IN [--to vendor|json|csv|trace] [-o OUT]
 *   xrt-run report compare A B [--csv OUT] [--tolerance R] [--min-delta MS] [--fail-on-regression]
 *                          [--network NET.json]  (two bare time files of NET: launches mapped to ops)
 *   xrt-run report diff DIR_A DIR_B [--net NET.json] [--format SFB] [--threshold T] [--cosine T]
 *                       [--json OUT] [--all]
 *   xrt-run report stats DIR|FILE.ftmp [--net NET.json] [--v-id N] [--format SFB] [--bins N]
 *                       [--at n,c,h,w] [--channel C --heatmap-csv OUT] [--channels]
 *   xrt-run report compare-compiles A.json B.json [--json OUT] [--no-forward]
 *
 * compare-compiles deploys two compiles of one model (e.g. the ZG330 and the Buyi compile),
 * each on the board it was compiled for with its chip's default options, runs one forward
 * of each (seeded inputs; synthetic params when no .raw sits beside the JSON) and prints the
 * totals side by side and the hardops aligned op by op (report/zw-compare.h).  A forward
 * that fails is reported and its times are left unknown; the deploy figures still print.
 *
 * diff and stats (dumped tensors) are in xrt-run-report-tensors.c. compare exits 1 on a
 * regression only with --fail-on-regression.
 */
#include "xrt-run-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "report/zw-compare.h"
#include "report/zw-compare-rows.h"
#include "report/zw-profile-plan.h"
#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"
#include "deploy/xrt-deployment.h"
#include "deploy/xrt-merge-on-plan.h"
#include "xrt/xrt-session.h"

#include <cjson/cJSON.h>
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void
xrt_run_print_warnings (GPtrArray *warnings)
{
  for (guint i = 0; warnings && i < warnings->len; i++)
    g_printerr (_("xrt-run: warning: %s\n"), (const char *) g_ptr_array_index (warnings, i));
}

int
xrt_run_report_usage (const char *cmd, const char *message)
{
  g_printerr ("xrt-run report %s: %s\n", cmd, message);
  return XRT_RUN_EXIT_USAGE;
}

/* ---- profile: convert ------------------------------------------------------------------- */

static int
cmd_profile (int argc, char **argv)
{
  g_autofree char *to = NULL, *output = NULL;
  GOptionEntry entries[] = {
    { "to", 't', 0, G_OPTION_ARG_STRING, &to, N_("Output format: vendor, json, csv or trace (default json)"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to this file (default: standard output)"), N_("OUT") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("IN — convert a time profile (the vendor's *_time.txt, "
                                                           "our JSON, CSV or Chrome trace)"));
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (ZwProfile) profile = NULL;
  ZwProfileFormat in_fmt, out_fmt = ZW_PROFILE_FORMAT_JSON;
  GError *error = NULL;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2)
    return xrt_run_report_usage ("profile", _("expected exactly one input file"));
  if (to && !zw_profile_format_from_string (to, &out_fmt, &error))
    {
      g_printerr ("xrt-run report profile: %s\n", error->message);
      g_error_free (error);
      return XRT_RUN_EXIT_USAGE;
    }
  profile = zw_profile_load (argv[1], warnings, &in_fmt, &error);
  xrt_run_print_warnings (warnings);
  if (!profile)
    return xrt_run_fail (error);
  if (output)
    {
      if (!zw_profile_write (profile, output, out_fmt, &error))
        return xrt_run_fail (error);
      g_printerr (ngettext ("%s (%s, %u row) -> %s (%s)\n", "%s (%s, %u rows) -> %s (%s)\n", profile->rows->len),
                  argv[1], zw_profile_format_to_string (in_fmt),
                  profile->rows->len, output, zw_profile_format_to_string (out_fmt));
    }
  else
    {
      g_autofree char *text = zw_profile_to_string (profile, out_fmt);
      fputs (text, stdout);
    }
  return XRT_RUN_EXIT_OK;
}

/* ---- compare ------------------------------------------------------------------------ */

static gboolean
is_deploy_report (const char *path)
{
  g_autofree char *text = NULL;
  cJSON *root;
  const cJSON *fmt;
  gboolean yes;

  /* standard input can be read once: "-" is a time profile here */
  if (strcmp (path, "-") == 0 || !zw_file_read_regular (path, ZW_INPUT_DEPLOY_REPORT, 0, &text, NULL, NULL))
    return FALSE;
  root = cJSON_Parse (text);
  fmt = root ? cJSON_GetObjectItemCaseSensitive (root, "format") : NULL;
  yes = cJSON_IsString (fmt) && g_str_equal (fmt->valuestring, "zhuge-deploy-report");
  cJSON_Delete (root);
  return yes;
}

static char *
fmt_ratio (double r)
{
  if (isnan (r))
    return g_strdup ("-");
  if (isinf (r))
    return g_strdup ("inf");
  return g_strdup_printf ("%.3fx", r);
}

static int
compare_reports (const char *pa, const char *pb)
{
  g_autoptr (ZwDeployReport) a = NULL, b = NULL;
  g_autoptr (ZwDeployCompare) c = NULL;
  GError *error = NULL;

  a = zw_deploy_report_load (pa, &error);
  if (!a)
    return xrt_run_fail (error);
  b = zw_deploy_report_load (pb, &error);
  if (!b)
    return xrt_run_fail (error);
  c = zw_deploy_compare (a, b);
  printf ("%-22s %20s %20s %16s\n", "", "A", "B", _("B - A"));
  printf ("%-22s %20s %20s\n", _("network"), c->a.network ? c->a.network : "", c->b.network ? c->b.network : "");
  printf ("%-22s %20s %20s\n", _("merge hardop"), c->a.merge_hardop ? _("on") : _("off"),
          c->b.merge_hardop ? _("on") : _("off"));
  printf ("%-22s %20s %20s\n", _("ETM optimize"), c->a.etm_optimize ? _("on") : _("off"),
          c->b.etm_optimize ? _("on") : _("off"));
  printf ("%-22s %20s %20s\n", _("OCM option asked"), zw_ocm_opt_to_string (c->a.ocm_requested),
          zw_ocm_opt_to_string (c->b.ocm_requested));
  printf ("%-22s %20s %20s\n", _("OCM option chosen"), zw_ocm_opt_to_string (c->a.ocm_chosen),
          zw_ocm_opt_to_string (c->b.ocm_chosen));
  printf ("%-22s %20" G_GUINT64_FORMAT " %20" G_GUINT64_FORMAT " %+16" G_GINT64_FORMAT "\n", _("FTMP bytes"),
          c->a.ftmp_bytes, c->b.ftmp_bytes, c->ftmp_delta);
  printf ("%-22s %20" G_GUINT64_FORMAT " %20" G_GUINT64_FORMAT " %+16" G_GINT64_FORMAT "\n", _("OCM bytes"),
          c->a.ocm_bytes, c->b.ocm_bytes, c->ocm_delta);
  printf ("%-22s %20u %20u %+16d\n", _("launches"), c->a.n_launches, c->b.n_launches, c->n_launches_delta);
  printf ("%-22s %20u %20u\n", _("hardops"), c->a.n_hardops, c->b.n_hardops);
  printf ("%-22s %20.4f %20.4f %+16.4f\n", _("estimated ms"), c->a.estimated_ms, c->b.estimated_ms,
          c->estimated_delta_ms);
  return XRT_RUN_EXIT_OK;
}

static gboolean deploy_and_run (const char *path, gboolean forward, ZwDeployReport **report, ZwProfile **profile,
                                GError **forward_error, GError **error);

/* --network @net has merge off (a deploy report of such a run) and the files want merged
 * launches: the same network planned again with merge on (NULL: said why not) */
static ZwDeployReport *
merge_on_plan (const char *net, gboolean from_report, const ZwDeployReport *report)
{
  g_autofree char *json = NULL;
  ZwDeployReport *again = NULL;
  GError *error = NULL;

  json = from_report ? xrt_merge_on_plan_find_network (report, net, &error) : g_strdup (net);
  if (json != NULL)
    again = xrt_merge_on_plan (json, report, &error);
  if (again == NULL)
    {
      /* TRANSLATORS: the network file or deploy report given, the reason */
      g_printerr (_("xrt-run: %s has merge off and the time files have merged launches, but its network could not "
                    "be planned again with merge on: %s\n"), net, error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_printerr ("%s\n", _("xrt-run: give --network the network's JSON instead: it is deployed with merge on"));
      g_clear_error (&error);
    }
  return again;
}

/* --network: both time files mapped through @net's merge plan (a deploy report read, or the
 * network deployed with the chip's defaults); when that plan has merge off and the files
 * have merged launches, through the network planned again with merge on (*merge_on_again).
 * A file that does not belong: said, and the files are compared as they are (rc 0, *plan
 * NULL); a network that does not load: its error. */
static int
map_to_network (const char *net, const char *pa, const char *pb, ZwProfile **a, ZwProfile **b,
                ZwDeployReport **plan, gboolean *merge_on_again)
{
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (ZwProfile) ma = NULL, mb = NULL;
  g_autoptr (ZwProfile) unused = NULL;
  gboolean from_report = is_deploy_report (net);
  GError *error = NULL;

  *merge_on_again = FALSE;
  if (from_report)
    report = zw_deploy_report_load (net, &error);
  else if (!deploy_and_run (net, FALSE, &report, &unused, NULL, &error))
    g_clear_pointer (&report, zw_deploy_report_unref);
  if (report == NULL)
    return xrt_run_fail (error);
  if (zw_profile_wants_merge_on_plan (*a, *b, report))
    {
      ZwDeployReport *again = merge_on_plan (net, from_report, report);
      if (again != NULL)
        {
          zw_deploy_report_unref (report);
          report = again;
          *merge_on_again = TRUE;
        }
    }
  if ((ma = zw_profile_map_to_plan (*a, report, &error)) == NULL
      || (mb = zw_profile_map_to_plan (*b, report, &error)) == NULL)
    {
      g_printerr (_("xrt-run: %s does not belong to network %s (%s): its ops are compared by op id only\n"),
                  ma == NULL ? pa : pb, report->network_name != NULL ? report->network_name : "?", error->message);
      g_clear_error (&error);
      *merge_on_again = FALSE;
      return 0;
    }
  zw_profile_free (*a);
  zw_profile_free (*b);
  *a = g_steal_pointer (&ma);
  *b = g_steal_pointer (&mb);
  *plan = g_steal_pointer (&report);
  return 0;
}

/* A merged launch's member ops under its row (report/zw-compare-rows.h): a side that ran a
 * member alone gives its own time, a merged side its estimated share, marked ≈. */
static void
print_members (const ZwProfileCompare *c, const ZwCompareRow *r, const ZwProfile *a, const ZwProfile *b,
               const ZwDeployReport *plan)
{
  g_autoptr (GHashTable) expanded = g_hash_table_new (g_int64_hash, g_int64_equal);
  ZwCompareShowOptions show = { .expanded = expanded, .a = a, .b = b, .report_a = plan, .report_b = plan };
  g_autoptr (ZwCompareShown) shown = NULL;

  g_hash_table_add (expanded, (gpointer) &r->op_id);
  shown = zw_compare_shown_new (c, &show);
  for (guint i = 0; i < shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
      g_autofree char *id = NULL, *a_ms = NULL, *b_ms = NULL;

      if (s->row != r || s->member < 0)
        continue;
      id = g_strdup_printf ("↳ %" G_GINT64_FORMAT, s->op_id);
      a_ms = !s->has_a ? g_strdup ("-") : g_strdup_printf ("%s%.4f", s->a_estimated ? "≈" : "", s->a_ms);
      b_ms = !s->has_b ? g_strdup ("-") : g_strdup_printf ("%s%.4f", s->b_estimated ? "≈" : "", s->b_ms);
      /* printf pads by bytes: ↳ and ≈ are 3 bytes wide 1 column, so widen by 2 for each */
      printf ("%12s  %-28.28s %*s %*s\n", id, s->op_class != NULL ? s->op_class : "",
              12 + (s->a_estimated ? 2 : 0), a_ms, 12 + (s->b_estimated ? 2 : 0), b_ms);
    }
}

static int
cmd_compare (int argc, char **argv)
{
  g_autofree char *csv = NULL, *network = NULL;
  double tolerance = 0.05, min_delta = 0.01;
  gboolean fail_on_regression = FALSE, expand = FALSE;
  GOptionEntry entries[] = {
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, N_("Also write the per-op table as CSV"), N_("OUT") },
    { "expand", 0, 0, G_OPTION_ARG_NONE, &expand,
      N_("List each merged launch's member ops under it (a merged side's times are estimated shares, marked ≈)"),
      NULL },
    { "network", 0, 0, G_OPTION_ARG_FILENAME, &network,
      N_("The network the time files came from (its JSON, deployed with merge on, or its deploy report): its merge "
         "plan maps a merged launch to its ops, its classes name the ops; a report with merge off is planned again "
         "with merge on from the network JSON it names"), N_("NET.json") },
    { "tolerance", 0, 0, G_OPTION_ARG_DOUBLE, &tolerance, N_("A regression is B/A > 1 + R (default 0.05)"), N_("R") },
    { "min-delta", 0, 0, G_OPTION_ARG_DOUBLE, &min_delta, N_("… and B - A > MS milliseconds (default 0.01)"), N_("MS") },
    { "fail-on-regression", 0, 0, G_OPTION_ARG_NONE, &fail_on_regression, N_("Exit with 1 when an op regressed"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("A B — compare two time profiles (per op) or two deploy "
                                                           "reports"));
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (ZwProfile) a = NULL, b = NULL;
  g_autoptr (ZwProfileCompare) c = NULL;
  g_autoptr (ZwDeployReport) plan = NULL;
  ZwCompareOptions opt;
  GError *error = NULL;
  gboolean merge_on_again = FALSE;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 3)
    return xrt_run_report_usage ("compare", _("expected two files A and B"));
  if ((rc = xrt_run_check_number ("report compare", "tolerance", tolerance, 0, G_MAXDOUBLE)) != 0
      || (rc = xrt_run_check_number ("report compare", "min-delta", min_delta, 0, G_MAXDOUBLE)) != 0)
    return rc;
  if (is_deploy_report (argv[1]) && is_deploy_report (argv[2]))
    return compare_reports (argv[1], argv[2]);

  a = zw_profile_load (argv[1], warnings, NULL, &error);
  if (!a)
    {
      xrt_run_print_warnings (warnings);
      return xrt_run_fail (error);
    }
  b = zw_profile_load (argv[2], warnings, NULL, &error);
  xrt_run_print_warnings (warnings);
  if (!b)
    return xrt_run_fail (error);
  opt.tolerance = tolerance;
  opt.min_delta_ms = min_delta;
  if (network != NULL && (rc = map_to_network (network, argv[1], argv[2], &a, &b, &plan, &merge_on_again)) != 0)
    return rc;
  c = zw_profile_compare (a, b, &opt);
  if (plan != NULL)
    {
      zw_profile_compare_set_plan (c, plan);
      c->plan_merge_on_again = merge_on_again;
    }

  printf ("%10s  %-28s %12s %12s %12s %9s\n", _("op_id"), _("op_type"), "A ms", "B ms", _("delta ms"), _("ratio"));
  for (guint i = 0; i < c->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (c->rows, i);
      g_autofree char *ratio = fmt_ratio (r->ratio);
      g_autofree char *a_ms = r->side == ZW_COMPARE_ONLY_B ? g_strdup ("-") : g_strdup_printf ("%.4f", r->a_ms);
      g_autofree char *b_ms = r->side == ZW_COMPARE_ONLY_A ? g_strdup ("-") : g_strdup_printf ("%.4f", r->b_ms);
      const char *type = r->op_class != NULL ? r->op_class : r->op_type;

      if (g_str_has_prefix (type, "icraft::xir::"))
        type += strlen ("icraft::xir::");
      printf ("%10" G_GINT64_FORMAT "  %-28.28s %12s %12s %+12.4f %9s  %s\n", r->op_id, type, a_ms, b_ms, r->delta_ms,
              ratio, r->regression ? _("REGRESSION") : r->improvement ? _("faster")
              : r->side == ZW_COMPARE_ONLY_A ? _("only in A") : r->side == ZW_COMPARE_ONLY_B ? _("only in B") : "");
      if (expand && r->merge_from != NULL && r->merge_from->len > 1)
        print_members (c, r, a, b, plan);
    }
  {
    g_autofree char *ratio = fmt_ratio (c->ratio);
    printf ("%10s  %-28s %12.4f %12.4f %+12.4f %9s\n", _("total"), "", c->a_total_ms, c->b_total_ms, c->delta_ms,
            ratio);
  }
  /* TRANSLATORS: counts after colons (no plurals to agree with any of them) */
  printf (_("ops matched: %u, only in A: %u, only in B: %u; regressions (ratio > %.3f and delta > %g ms): %u, "
            "faster: %u\n"), c->n_matched, c->n_only_a, c->n_only_b, 1.0 + tolerance, min_delta, c->n_regressions,
          c->n_improvements);
  if (c->n_merge_mapped > 0)
    printf (ngettext ("%u merged launch compared with its member ops on the other side (merge on vs off)\n",
                      "%u merged launches compared with their member ops on the other side (merge on vs off)\n",
                      c->n_merge_mapped), c->n_merge_mapped);
  if (c->plan_network != NULL && c->plan_merge_on_again)
    /* TRANSLATORS: the network, then the --network file given */
    printf (_("ops mapped through network %s's merge-on plan, planned again (no forward): %s has merge off, so it "
              "has no merged launches\n"), c->plan_network, network);
  else if (c->plan_network != NULL)
    printf (_("ops mapped through network %s: its merge plan gives each merged launch its ops, its report the "
              "classes\n"), c->plan_network);
  if (c->n_kind_matched > 0)
    printf (ngettext ("%u op matched by op type and order: the op ids differ between the two compiles\n",
                      "%u ops matched by op type and order: the op ids differ between the two compiles\n",
                      c->n_kind_matched), c->n_kind_matched);
  if (csv)
    {
      g_autofree char *text = zw_profile_compare_to_csv (c);
      if (!zw_file_set_contents (csv, text, -1, &error))
        return xrt_run_fail (error);
    }
  return fail_on_regression && c->n_regressions > 0 ? XRT_RUN_EXIT_INPUT : XRT_RUN_EXIT_OK;
}

/* ---- compare-compiles ------------------------------------------------------------------ */

/* One compile deployed on its own board (mock://zg330, mock://buyi) with the chip's
 * defaults; @profile gets a copy of one forward's time profile, NULL when the forward fails
 * (@forward_error says why). FALSE only when the network cannot be loaded or deployed. */
static gboolean
deploy_and_run (const char *path, gboolean forward, ZwDeployReport **report, ZwProfile **profile,
                GError **forward_error, GError **error)
{
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autoptr (GPtrArray) outputs = NULL;
  g_autofree char *raw = NULL;
  XrtSession *sess;

  *report = NULL;
  *profile = NULL;
  if ((net = xir_network_new_from_json_file (path, error)) == NULL)
    return FALSE;
  if ((dep = xrt_deployment_new (net, error)) == NULL)
    return FALSE;
  if (g_str_has_suffix (path, ".json"))
    raw = xrt_deployment_params_path_for (path);
  if (raw != NULL && g_file_test (raw, G_FILE_TEST_EXISTS))
    {
      if (!xrt_deployment_load_params (dep, raw, XIR_LOAD_DEFAULT, FALSE, error))
        return FALSE;
    }
  else
    {
      g_printerr (_("xrt-run: no .raw beside %s: using synthetic params (seed 330)\n"), path);
      xrt_deployment_use_synthetic_params (dep);
    }
  if (!xrt_deployment_open_board (dep, NULL, error) || !xrt_deployment_apply (dep, error))
    return FALSE;
  if ((*report = xrt_deployment_get_report (dep)) == NULL)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, _("%s: the deployment gave no deploy report"), path);
      return FALSE;
    }
  if (!forward)
    return TRUE;
  /* seeded inputs, as `xrt-run run` gives its first forward */
  if ((inputs = xrt_deployment_make_inputs (dep, 0, forward_error)) == NULL)
    return TRUE;
  sess = xrt_deployment_get_session (dep);
  xrt_session_enable_time_profile (sess, TRUE);
  outputs = xrt_deployment_forward (dep, inputs, forward_error);
  if (outputs != NULL && xrt_session_get_time_profile (sess) != NULL)
    *profile = zw_profile_copy (xrt_session_get_time_profile (sess));
  return TRUE;
}

static char *
fmt_total (double v, ZwCompileUnit unit)
{
  if (isnan (v))
    return g_strdup ("-");
  switch (unit)
    {
    case ZW_COMPILE_UNIT_BYTES: return g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) v);
    case ZW_COMPILE_UNIT_COUNT: return g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) v);
    case ZW_COMPILE_UNIT_MS:
    default: return g_strdup_printf ("%.4f", v);
    }
}

static char *
fmt_op_time (const ZwCompileOpSide *s)
{
  if (!s->present)
    return g_strdup ("");
  if (s->merged && !s->launch_first)
    return g_strdup (_("merged"));
  if (isnan (s->ms))
    return g_strdup ("-");
  return g_strdup_printf (s->merged ? "%.4f*" : "%.4f", s->ms);
}

static char *
fmt_nchw (const gint64 nchw[4])
{
  if (nchw[0] < 0)
    return g_strdup ("?");
  return g_strdup_printf ("%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, nchw[0],
                          nchw[1], nchw[2], nchw[3]);
}

static void
print_compile_compare (const ZwCompileCompare *c)
{
  const ZwCompileInfo *infos[2] = { &c->a, &c->b };
  gboolean any_merged = FALSE;

  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *label = zw_compile_info_label (infos[k]);
      printf (_("%s: %s on %s (%s; merge %s, ETM optimize %s, OCM %s)%s\n"), k == 0 ? "A" : "B", label,
              infos[k]->device_url, infos[k]->path != NULL ? infos[k]->path : "-",
              infos[k]->merge_hardop ? _("on") : _("off"), infos[k]->etm_optimize ? _("on") : _("off"),
              zw_ocm_opt_to_string (infos[k]->ocm_chosen), infos[k]->has_profile ? "" : _(" — no forward: times unknown"));
    }
  printf ("\n%-26s %16s %16s %10s\n", "", "A", "B", "B/A");
  for (guint k = 0; k < ZW_COMPILE_N_TOTALS; k++)
    {
      const ZwCompileTotal *t = &c->totals[k];
      g_autofree char *a = fmt_total (t->a, t->unit), *b = fmt_total (t->b, t->unit), *ratio = fmt_ratio (t->ratio);
      g_autofree char *label = g_strdup_printf ("%s%s", _(t->label), t->unit == ZW_COMPILE_UNIT_BYTES ? _(" (bytes)")
                                                : t->unit == ZW_COMPILE_UNIT_MS ? " (ms)" : "");
      printf ("%-26s %16s %16s %10s\n", label, a, b, ratio);
    }
  printf (_("\nHardops aligned by execution order on (class, logical n,c,h,w of the first output): %u aligned, "
            "%u only in A, %u only in B\n"), c->n_aligned, c->n_only_a, c->n_only_b);
  printf ("%-10s %8s %8s  %-18s %-5s %-5s %12s %12s\n", _("class"), _("A op"), _("B op"), _("n,c,h,w"), _("A at"),
          _("B at"), _("A ms"), _("B ms"));
  for (guint i = 0; i < c->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (c->rows, i);
      g_autofree char *a_id = r->a.present ? g_strdup_printf ("%" G_GINT64_FORMAT, r->a.op_id) : g_strdup ("-");
      g_autofree char *b_id = r->b.present ? g_strdup_printf ("%" G_GINT64_FORMAT, r->b.op_id) : g_strdup ("-");
      g_autofree char *shape = fmt_nchw (r->a.present ? r->a.nchw : r->b.nchw);
      g_autofree char *a_ms = fmt_op_time (&r->a), *b_ms = fmt_op_time (&r->b);

      any_merged = any_merged || r->a.merged || r->b.merged;
      printf ("%-10.10s %8s %8s  %-18s %-5s %-5s %12s %12s  %s\n", r->op_class, a_id, b_id, shape,
              zw_compile_place_to_string (r->a.place), zw_compile_place_to_string (r->b.place), a_ms, b_ms,
              r->side == ZW_COMPARE_ONLY_A ? _("only in A") : r->side == ZW_COMPARE_ONLY_B ? _("only in B") : "");
    }
  if (any_merged)
    printf ("%s\n", _("* the time of a whole merged launch, given on its first op (a launch's time cannot be split "
                      "per op); its other ops say “merged”"));
}

static int
cmd_compare_compiles (int argc, char **argv)
{
  g_autofree char *json_out = NULL;
  gboolean no_forward = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_out, N_("Also write the comparison as JSON"), N_("OUT") },
    { "no-forward", 0, 0, G_OPTION_ARG_NONE, &no_forward, N_("Deploy only: no forward, no times"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("A.json B.json — two compiles of one model (e.g. for ZG330 "
                                                           "and for Buyi) side by side: ETM and OCM bytes, launches, "
                                                           "simulated time, per op"));
  g_autoptr (ZwDeployReport) ra = NULL, rb = NULL;
  g_autoptr (ZwProfile) pa = NULL, pb = NULL;
  g_autoptr (ZwCompileCompare) c = NULL;
  GError *error = NULL, *fa = NULL, *fb = NULL;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 3)
    return xrt_run_report_usage ("compare-compiles", _("expected two network JSON files A and B"));
  if (!deploy_and_run (argv[1], !no_forward, &ra, &pa, &fa, &error)
      || !deploy_and_run (argv[2], !no_forward, &rb, &pb, &fb, &error))
    {
      g_clear_error (&fa);
      g_clear_error (&fb);
      return xrt_run_fail (error);
    }
  if (fa != NULL)
    g_printerr (_("xrt-run: warning: the forward of A failed, its times are unknown: %s\n"), fa->message);
  if (fb != NULL)
    g_printerr (_("xrt-run: warning: the forward of B failed, its times are unknown: %s\n"), fb->message);
  g_clear_error (&fa);
  g_clear_error (&fb);
  c = zw_compare_compiles (ra, pa, rb, pb);
  print_compile_compare (c);
  if (json_out)
    {
      cJSON *root = zw_compile_compare_to_json (c);
      g_autofree char *text = cJSON_Print (root);
      cJSON_Delete (root);
      if (!zw_file_set_contents (json_out, text, -1, &error))
        return xrt_run_fail (error);
    }
  return XRT_RUN_EXIT_OK;
}

/* ---- dispatch ------------------------------------------------------------------------------ */

typedef struct {
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
} Sub;

static const Sub subs[] = {
  { "profile", N_("Convert a time profile: vendor *_time.txt, JSON, CSV, Chrome trace"), cmd_profile },
  { "compare", N_("Per-op delta and ratio of two time profiles, or two deploy reports side by side"), cmd_compare },
  { "diff", N_("Compare two dump folders: per-value error and the first divergent value"), xrt_run_report_diff },
  { "stats", N_("Statistics, histogram and values of one dumped tensor"), xrt_run_report_stats },
  { "compare-compiles", N_("Two compiles of one model (ZG330, Buyi) deployed and run side by side, op by op"),
    cmd_compare_compiles },
};

int
xrt_run_cmd_report (int argc, char **argv)
{
  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      FILE *out = argc < 2 ? stderr : stdout;
      fprintf (out, "%s\n\n", _("Usage: xrt-run report SUBCOMMAND [OPTIONS…]"));
      for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
        fprintf (out, "  %-17s %s\n", subs[i].name, _(subs[i].summary));
      return argc < 2 ? XRT_RUN_EXIT_USAGE : XRT_RUN_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
    if (strcmp (argv[1], subs[i].name) == 0)
      return subs[i].run (argc - 1, argv + 1);
  g_printerr (_("xrt-run report: unknown subcommand “%s” (profile, compare, diff, stats, compare-compiles)\n"), argv[1]);
  return XRT_RUN_EXIT_USAGE;
}
