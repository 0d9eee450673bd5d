/* test-sweep — `xrt-run sweep` and its runner: on the demo networks and the real
 * sample (synthetic params; skipped with a message when ../shared is absent), every row of
 * the option combinations x a what-if grid runs, and its plan passes the independent
 * checker (zw-deploy-check.h, run here on each row's own report); the front is exactly the
 * non-dominated rows (none on it is dominated, each off it is) and the recommendation is its
 * fastest row; the sweep is the same with 1 and 2 threads; the CLI writes the table, CSV and
 * JSON (which loads back) and refuses a bad --what-if. */
#include "deploy/zg330-sweep.h"
#include "devices/zg330-timing.h"
#include "report/zw-deploy-check.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* Every row ran and passed the checker; the front is the non-dominated set. */
static void
assert_sweep_sound (const char *name, const ZwSweep *s, guint n_points)
{
  g_assert_cmpuint (s->rows->len, ==, zw_sweep_get_n_combinations () * n_points);
  g_assert_cmpuint (s->what_if->len, ==, n_points);
  guint on_front = 0;
  for (guint i = 0; i < s->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (s->rows, ZwSweepRow, i);
      g_autoptr (GError) error = NULL;
      ZwDeployCheck check;

      g_assert_cmpuint (r->index, ==, i);
      if (r->error != NULL)
        g_error ("%s row %u (%s): %s", name, i, r->what_if, r->error);
      g_assert_true (r->checked);
      g_assert_nonnull (r->report);
      if (!zw_deploy_report_check (r->report, &check, &error))
        g_error ("%s row %u: the plan fails the checker: %s", name, i, error->message);
      g_assert_cmpuint (check.ocm_peak, <=, r->ocm_capacity);
      g_assert_cmpfloat (r->simulated_ms, >, 0.0);
      g_assert_cmpuint (r->etm_bytes, >=, r->ftmp_bytes);
      g_assert_cmpuint (r->launches, ==, r->report->launches->len);
      if (r->ocm_requested == ZW_OCM_NONE)
        g_assert_cmpuint (r->ocm_bytes, ==, 0);

      gboolean dominated = FALSE;
      for (guint j = 0; j < s->rows->len && !dominated; j++)
        dominated = j != i && zw_sweep_row_dominates (&g_array_index (s->rows, ZwSweepRow, j), r);
      if (r->on_front == dominated)
        g_error ("%s row %u: %s the front but %s dominated", name, i, r->on_front ? "on" : "off",
                 dominated ? "is" : "is not");
      on_front += r->on_front;
    }
  g_assert_cmpuint (on_front, >, 0);
  g_assert_cmpint (s->recommended, >=, 0);
  const ZwSweepRow *best = &g_array_index (s->rows, ZwSweepRow, s->recommended);
  g_assert_true (best->on_front);
  for (guint i = 0; i < s->rows->len; i++)
    g_assert_cmpfloat (g_array_index (s->rows, ZwSweepRow, i).simulated_ms, >=, best->simulated_ms);
  g_test_message ("%s: %u rows, %u on the front, recommended #%d (%.4f ms, %" G_GUINT64_FORMAT " ETM bytes)", name,
                  s->rows->len, on_front, s->recommended, best->simulated_ms, best->etm_bytes);
}

static ZwSweep *
sweep (XirNetwork *net, const char *const *what_if, guint threads, gboolean keep)
{
  g_autoptr (GArray) axes = zg330_sweep_axes_new ();
  g_autoptr (GError) error = NULL;

  for (guint i = 0; what_if && what_if[i]; i++)
    g_assert_true (zg330_sweep_parse_what_if (axes, what_if[i], &error));
  Zg330SweepOptions opts = { axes, threads, keep, 0, NULL };
  ZwSweep *s = zg330_sweep_run (net, NULL, &opts, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static void
test_demo (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  /* the grid on the small nets; the OCM axis alone on the larger ones */
  static const char *const full[] = { "ocm=512K,1M,2M", "icore=800M,1G", NULL };
  static const char *const ocm[] = { "ocm=512K,2M", NULL };
  gboolean small = strcmp (name, "tiny") == 0 || strcmp (name, "resnet18") == 0;

  if (net == NULL)
    return;   /* skipped: ../shared is absent */
  g_autoptr (ZwSweep) s = sweep (net, small ? full : ocm, 0, TRUE);
  assert_sweep_sound (name, s, small ? 6 : 2);
}

static void
test_real (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");

  if (net == NULL)
    return;
  g_autoptr (ZwSweep) s = sweep (net, NULL, 0, TRUE);
  assert_sweep_sound ("real", s, 1);
}

static char *
sweep_json (XirNetwork *net, guint threads)
{
  static const char *const grid[] = { "ocm=512K,2M", "icore=800M,1G", NULL };
  g_autoptr (ZwSweep) s = sweep (net, grid, threads, FALSE);
  cJSON *json = zw_sweep_to_json (s);
  char *text = cJSON_PrintUnformatted (json);
  cJSON_Delete (json);
  return text;
}

static void
test_threads (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("resnet18");
  g_autofree char *one = sweep_json (net, 1);
  g_autofree char *two = sweep_json (net, 2);
  g_autofree char *again = sweep_json (net, 2);

  g_assert_cmpstr (one, ==, two);
  g_assert_cmpstr (two, ==, again);
}

static void
test_what_if_parse (void)
{
  g_autoptr (GArray) axes = zg330_sweep_axes_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (zg330_sweep_parse_what_if (axes, "ocm=512K,1M,2097152", &error));
  g_assert_true (zg330_sweep_parse_what_if (axes, "icore=800M,1G", &error));
  const Zg330SweepAxis *o = &g_array_index (axes, Zg330SweepAxis, 0), *c = &g_array_index (axes, Zg330SweepAxis, 1);
  g_assert_cmpfloat (g_array_index (o->values, double, 0), ==, 524288.0);
  g_assert_cmpfloat (g_array_index (o->values, double, 1), ==, 1048576.0);
  g_assert_cmpfloat (g_array_index (o->values, double, 2), ==, 2097152.0);
  g_assert_cmpfloat (g_array_index (c->values, double, 0), ==, 8e8);
  g_assert_cmpfloat (g_array_index (c->values, double, 1), ==, 1e9);
  g_assert_false (zg330_sweep_parse_what_if (axes, "ocm=1M", &error));   /* twice */
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_clear_error (&error);
  g_assert_false (zg330_sweep_parse_what_if (axes, "dram=1G", &error));
  g_clear_error (&error);
  g_autoptr (GArray) more = zg330_sweep_axes_new ();
  g_assert_false (zg330_sweep_parse_what_if (more, "ocm=big", &error));
  g_assert_nonnull (strstr (error->message, "big"));
}

/* The board of a row again from its what-if point: the figures the row ran with. */
static void
test_profile_for_point (void)
{
  static const char *const grid[] = { "ocm=512K,2M", "icore=800M,1G", NULL };
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (ZwSweep) s = sweep (net, grid, 0, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (Zg330Profile) base = zg330_profile_load_default (&error);
  g_autoptr (Zg330Profile) same = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < s->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (s->rows, ZwSweepRow, i);
      g_autoptr (Zg330Profile) p = zg330_sweep_profile_for_point (base, r->what_if, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (p->ocm_bytes, ==, r->ocm_capacity);
      g_assert_cmpfloat (p->icore_clock_hz, ==, r->icore_clock_hz);
      g_assert_cmpfloat (p->etm_bandwidth, ==, base->etm_bandwidth);
    }
  g_assert_cmpstr (g_array_index (s->rows, ZwSweepRow, 0).what_if, ==, "ocm=512K,icore=800M");
  g_assert_cmpuint (g_array_index (s->rows, ZwSweepRow, 0).ocm_capacity, ==, 512 * 1024);
  /* "" is the profile as it is */
  same = zg330_sweep_profile_for_point (base, "", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (same->ocm_bytes, ==, base->ocm_bytes);
  g_assert_cmpfloat (same->icore_clock_hz, ==, base->icore_clock_hz);
  /* a damaged point (a hand-edited JSON) names itself */
  g_assert_null (zg330_sweep_profile_for_point (base, "ocm=512K,dram=1G", &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "dram=1G"));
  g_clear_error (&error);
  g_assert_null (zg330_sweep_profile_for_point (base, "icore=fast", &error));
  g_assert_nonnull (strstr (error->message, "fast"));
}

static void
on_progress (guint done, guint total, gpointer data)
{
  guint *counts = data;

  /* from the pool's threads: the count of calls and the largest "done" seen */
  g_atomic_int_inc ((gint *) &counts[0]);
  for (guint seen = (guint) g_atomic_int_get ((gint *) &counts[1]); done > seen;
       seen = (guint) g_atomic_int_get ((gint *) &counts[1]))
    if (g_atomic_int_compare_and_exchange ((gint *) &counts[1], (gint) seen, (gint) done))
      break;
  g_atomic_int_set ((gint *) &counts[2], (gint) total);
}

/* Progress once per row; a cancelled sweep runs no row and says so. */
static void
test_progress_and_cancel (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwSweep) s = NULL;
  Zg330SweepOptions opts = { NULL, 2, FALSE, 0, NULL };
  guint counts[3] = { 0, 0, 0 };
  guint n = zw_sweep_get_n_combinations ();

  s = zg330_sweep_run_full (net, NULL, &opts, cancellable, on_progress, counts, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->rows->len, ==, n);
  g_assert_cmpuint (counts[0], ==, n);
  g_assert_cmpuint (counts[1], ==, n);
  g_assert_cmpuint (counts[2], ==, n);
  g_clear_pointer (&s, zw_sweep_unref);

  counts[0] = counts[1] = 0;
  g_cancellable_cancel (cancellable);
  s = zg330_sweep_run_full (net, NULL, &opts, cancellable, on_progress, counts, &error);
  g_assert_null (s);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (counts[0], ==, n);   /* every row reported, none ran */
}

static void
test_cli (void)
{
  g_auto (ZwRun) run = { 0 };
  g_auto (ZwRun) bad = { 0 };
  g_autofree char *dir = g_dir_make_tmp ("zw-sweep-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "s.csv", NULL);
  g_autofree char *json = g_build_filename (dir, "s.json", NULL);
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  guint n = zw_sweep_get_n_combinations ();

  zw_test_xrt_run (&run, "sweep", net, "--what-if", "ocm=512K,1M,2M", "--what-if", "icore=800M,1G", "--csv", csv,
                   "--json", json, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Pareto"));
  g_assert_nonnull (strstr (run.out, "ocm=512K,icore=800M"));
  g_assert_true (g_file_get_contents (csv, &text, NULL, &error));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 6 * n + 1);   /* header, rows (6 points), the last newline */
  g_assert_true (g_str_has_prefix (lines[0], "index,merge_hardop,etm_optimize,ocm_requested"));
  g_autoptr (ZwSweep) back = zw_sweep_load (json, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->rows->len, ==, 6 * n);
  g_assert_cmpuint (back->what_if->len, ==, 6);
  g_assert_cmpint (back->recommended, >=, 0);
  /* the CSV gives each row's OCM peak beside the bytes placed over time (never above the
   * row's OCM size) */
  g_assert_nonnull (strstr (lines[0], ",ocm_bytes,ocm_peak_bytes,etm_bytes,"));
  for (guint i = 0; i < back->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (back->rows, ZwSweepRow, i);
      g_autofree char *cells = NULL;
      if (r->error != NULL)
        continue;
      g_assert_cmpuint (r->ocm_peak, <=, r->ocm_capacity);
      cells = g_strdup_printf (",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",", r->ocm_bytes,
                               r->ocm_peak, r->etm_bytes);
      g_assert_nonnull (strstr (text, cells));
    }

  zw_test_xrt_run (&bad, "sweep", net, "--what-if", "ocm=lots", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "lots"));
  g_unlink (csv);
  g_unlink (json);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sweep/what-if/parses-sizes-and-clocks", test_what_if_parse);
  g_test_add_data_func ("/sweep/tiny/rows-pass-checker-front-non-dominated", "tiny", test_demo);
  g_test_add_data_func ("/sweep/resnet18/rows-pass-checker-front-non-dominated", "resnet18", test_demo);
  g_test_add_data_func ("/sweep/mobilenetv2/rows-pass-checker-front-non-dominated", "mobilenetv2", test_demo);
  g_test_add_data_func ("/sweep/yolov5s/rows-pass-checker-front-non-dominated", "yolov5s", test_demo);
  g_test_add_func ("/sweep/real/rows-pass-checker-front-non-dominated", test_real);
  g_test_add_func ("/sweep/same-at-any-thread-count", test_threads);
  g_test_add_func ("/sweep/point/profile-again-from-what-if", test_profile_for_point);
  g_test_add_func ("/sweep/run/progress-per-row-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/sweep/cli/table-csv-json", test_cli);
  return g_test_run ();
}
