/* test-ocm-figures — the headline OCM figures (issue 37 item 2), on the vendor's real
 * YOLOv5s compile and the demo networks: every figure shown beside the OCM capacity is the
 * peak (the most bytes live at once), never the bytes placed over the whole run, which
 * appear only labelled "placed over time". Run history, OCM view, sweep table and tooltip,
 * Compare. No display needed (suite "render"). */
#include <glib.h>
#include <string.h>

#include "deploy/xrt-deployment.h"
#include "deploy/zg330-sweep.h"
#include "report/zw-compare.h"
#include "report/zw-sweep.h"
#include "zw-ocm-view.h"
#include "zw-run.h"
#include "zw-sweep-view.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun

static ZwDeployReport *
plan (XirNetwork *net, ZwOcmOpt ocm)
{
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (GError) error = NULL;
  ZwDeployReport *report;

  dep = xrt_deployment_new (net, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_deployment_open_simulated_board (dep, NULL, &error));
  xrt_deployment_set_options (dep, TRUE, TRUE, ocm);
  report = xrt_deployment_plan (dep, &error);
  g_assert_no_error (error);
  return report;
}

static char *
iec (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* The peak is the largest live-bytes entry, within the capacity; on the real network the
 * bytes placed over time exceed the capacity (the figure that misled). */
static void
test_real_peak_within_capacity (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");
  g_autoptr (ZwDeployReport) report = NULL;
  g_autofree guint64 *live = NULL;
  guint64 peak, placed, max = 0;
  guint n;

  if (net == NULL)
    return;
  report = plan (net, ZW_OCM_BEST_SCORE);
  peak = zw_deploy_report_ocm_peak (report);
  placed = zw_deploy_report_ocm_placed (report);
  live = zw_deploy_report_live_bytes (report, TRUE, &n);
  for (guint i = 0; i < n; i++)
    max = MAX (max, live[i]);
  g_test_message ("yolov5s: OCM peak %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", placed over time %"
                  G_GUINT64_FORMAT, peak, report->ocm_capacity, placed);
  g_assert_cmpuint (peak, ==, max);
  g_assert_cmpuint (peak, >, 0);
  g_assert_cmpuint (peak, <=, report->ocm_capacity);
  g_assert_cmpuint (placed, >, report->ocm_capacity);
  /* the chosen option's own peak is the placement's */
  for (guint i = 0; i < report->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (report->ocm_options, ZwOcmOptionResult, i);
      if (o->option == report->ocm_chosen)
        g_assert_cmpuint (o->peak_bytes, ==, peak);
    }
}

/* History row, OCM view title and option figures: "OCM peak P / C"; the sum only as
 * "placed over time". */
static void
test_real_history_and_ocm_view (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (ZwRun) run = NULL;
  g_autofree char *summary = NULL, *title = NULL, *peak = NULL, *cap = NULL, *placed = NULL, *expect = NULL;

  if (net == NULL)
    return;
  report = plan (net, ZW_OCM_BEST_SCORE);
  run = zw_run_new (report, ZW_RUN_PLAN, 0, -1);
  peak = iec (zw_deploy_report_ocm_peak (report));
  cap = iec (report->ocm_capacity);
  placed = iec (zw_deploy_report_ocm_placed (report));
  expect = g_strdup_printf ("OCM peak %s / %s", peak, cap);

  summary = zw_run_dup_summary (run);
  g_test_message ("history: %s", summary);
  g_assert_nonnull (strstr (summary, expect));
  g_assert_null (strstr (summary, placed));
  g_assert_cmpuint (zw_run_get_ocm_peak (run), ==, zw_deploy_report_ocm_peak (report));

  title = zw_ocm_view_dup_title (report);
  g_test_message ("OCM view: %s", title);
  g_assert_true (g_str_has_prefix (title, expect));
  g_assert_null (strstr (title, placed));
  for (guint i = 0; i < report->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (report->ocm_options, ZwOcmOptionResult, i);
      g_autofree char *figures = zw_ocm_view_dup_option_figures (report, o->option);
      g_autofree char *opeak = iec (o->peak_bytes), *oplaced = iec (o->bytes);
      g_autofree char *lead = g_strdup_printf ("OCM peak %s / %s", opeak, cap);
      g_autofree char *labelled = g_strdup_printf ("%s placed over time", oplaced);
      const char *at_peak, *at_placed;

      g_assert_nonnull (figures);
      g_test_message ("  %s", figures);
      at_peak = strstr (figures, lead);
      at_placed = strstr (figures, labelled);
      g_assert_nonnull (at_peak);
      g_assert_nonnull (at_placed);
      /* the peak leads */
      g_assert_true (at_peak < at_placed);
    }
}

/* The sweep: every row's peak within its what-if capacity, the table's OCM column and the
 * tooltip show it; the sum only labelled; the peak survives the JSON. */
static void
test_sweep_table_and_tooltip (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwSweep) sweep = NULL, back = NULL;
  g_autoptr (GArray) axes = zg330_sweep_axes_new ();
  g_autoptr (GError) error = NULL;
  Zg330SweepOptions options = { NULL, 0, FALSE, 0, NULL };
  cJSON *json;
  guint over = 0;

  if (net == NULL)
    return;
  g_assert_true (zg330_sweep_parse_what_if (axes, "ocm=512K,2M", &error));
  options.axes = axes;
  sweep = zg330_sweep_run (net, NULL, &options, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      g_autofree char *tip = NULL, *cap = NULL, *peak_line = NULL;

      if (r->error != NULL)
        continue;
      g_assert_cmpuint (r->ocm_peak, <=, r->ocm_capacity);
      g_assert_cmpuint (r->ocm_peak, <=, r->ocm_bytes);
      over += r->ocm_bytes > r->ocm_capacity;
      tip = zw_sweep_view_describe_row (sweep, i);
      cap = iec (r->ocm_capacity);
      peak_line = g_strdup_printf (" of %s", cap);
      g_assert_nonnull (strstr (tip, "OCM peak: "));
      g_assert_nonnull (strstr (tip, peak_line));
      g_assert_nonnull (strstr (tip, "OCM placed over time: "));
      /* no "OCM: <sum> of <capacity>" */
      g_assert_null (strstr (tip, "\nOCM: "));
    }
  /* the demo places more over time than fits at once on some rows: what misled */
  g_test_message ("%u rows place more than their capacity over time", over);
  g_assert_cmpuint (over, >, 0);
  json = zw_sweep_to_json (sweep);
  back = zw_sweep_new_from_json (json, "sweep.json", &error);
  cJSON_Delete (json);
  g_assert_no_error (error);
  for (guint i = 0; i < sweep->rows->len; i++)
    g_assert_cmpuint (g_array_index (back->rows, ZwSweepRow, i).ocm_peak, ==,
                      g_array_index (sweep->rows, ZwSweepRow, i).ocm_peak);
}

/* Compare puts the peaks side by side. */
static void
test_compare_peaks (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");
  g_autoptr (ZwDeployReport) a = NULL, b = NULL;
  g_autoptr (ZwDeployCompare) cmp = NULL;

  if (net == NULL)
    return;
  a = plan (net, ZW_OCM_OPTION1);
  b = plan (net, ZW_OCM_OPTION3);
  cmp = zw_deploy_compare (a, b);
  g_assert_cmpuint (cmp->a.ocm_peak, ==, zw_deploy_report_ocm_peak (a));
  g_assert_cmpuint (cmp->b.ocm_peak, ==, zw_deploy_report_ocm_peak (b));
  g_assert_cmpuint (cmp->a.ocm_peak, <=, cmp->a.ocm_capacity);
  g_assert_cmpuint (cmp->b.ocm_peak, <=, cmp->b.ocm_capacity);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ocm-figures/real/peak-within-capacity-placed-beyond", test_real_peak_within_capacity);
  g_test_add_func ("/ocm-figures/real/history-and-ocm-view-lead-with-peak-of-capacity", test_real_history_and_ocm_view);
  g_test_add_func ("/ocm-figures/sweep/table-and-tooltip-peak-of-capacity", test_sweep_table_and_tooltip);
  g_test_add_func ("/ocm-figures/real/compare-shows-peaks", test_compare_peaks);
  return g_test_run ();
}
