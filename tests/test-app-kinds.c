/* test-app-kinds — the workbench's controls per kind of thing shown (suite "display", issue
 * 37 item 4): a Buyi network (its compiler placed every value) shows the options its run
 * used, fixed with the reason, and an option its backend refuses gives the CLI's error (not
 * a silent None plan); Memory names its chunks by value ("v20", never "#-21"); the board in
 * use is in the window's title; a time profile read from a file makes the options read-only
 * with the reason; the ZG330 network opened after them gets the user's options back. */
#include <gtk/gtk.h>
#include <string.h>

#include "zw-application.h"
#include "zw-log-view.h"
#include "zw-memory-view.h"
#include "zw-ocm-view.h"
#include "zw-timing-view.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"

static ZwWindow *win;

/* The panel's "fixed" and "reason", and the window's options. */
typedef struct {
  gboolean fixed, editable, merge, etm;
  char *reason, *ocm;
} Panel;

static void
panel_clear (Panel *p)
{
  g_free (p->reason);
  g_free (p->ocm);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Panel, panel_clear)

static void
read_panel (Panel *p)
{
  g_object_get (zw_window_get_options_panel (win), "fixed", &p->fixed, "reason", &p->reason, "editable", &p->editable,
                NULL);
  g_object_get (win, "merge-hardop", &p->merge, "etm-optimize", &p->etm, "ocm-option", &p->ocm, NULL);
}

static void
test_buyi_network_controls (void)
{
  g_autofree char *buyi = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  g_autofree char *zg = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *peak = NULL;
  const char *title;
  ZwDeployReport *report;
  ZwRun *run;
  guint n;

  if (buyi == NULL)
    return;
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (1), 120));
  /* the user's own options: merge on, ETM optimize on, Option 2 */
  g_object_set (win, "merge-hardop", TRUE, "etm-optimize", TRUE, "ocm-option", "option2", NULL);
  run = zw_test_app_wait_for_run (zw_test_app_n_runs () + 1);
  n = zw_test_app_n_runs ();

  /* the real compile has no .raw: planned at once, then opened with synthetic params */
  zw_test_app_activate ("win.open-file", g_variant_new_string (buyi));
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 120));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n + 1);
  {
    g_auto (Panel) p = { 0 };
    read_panel (&p);
    /* the plan is the file's placement too */
    g_assert_true (p.fixed);
    g_assert_false (p.merge);
  }
  zw_test_app_activate ("win.use-synthetic-params", NULL);
  run = zw_test_app_wait_for_run (n + 2);
  g_assert_null (zw_window_get_banner_message (win));
  report = zw_run_get_report (run);
  g_assert_cmpstr (report->device_url, ==, "mock://buyi");
  g_assert_false (report->merge_hardop);
  g_assert_false (report->etm_optimize);
  g_assert_cmpint (report->ocm_requested, ==, ZW_OCM_NONE);
  {
    g_auto (Panel) p = { 0 };
    read_panel (&p);
    /* the sidebar shows what the run used, fixed, and says why */
    g_assert_true (p.fixed);
    g_assert_true (p.editable);
    g_assert_nonnull (p.reason);
    g_assert_nonnull (strstr (p.reason, "Buyi"));
    g_assert_false (p.merge);
    g_assert_false (p.etm);
    g_assert_cmpstr (p.ocm, ==, "none");
  }
  /* the board in use is in the title, not only in Logs */
  title = gtk_window_get_title (GTK_WINDOW (win));
  g_test_message ("title: %s", title);
  g_assert_nonnull (strstr (title, "mock://buyi"));
  /* Memory names a chunk of its own by its value */
  peak = zw_memory_view_dup_peak_text (report);
  g_test_message ("memory: %s", peak);
  g_assert_nonnull (peak);
  g_assert_null (strstr (peak, "#-"));
  g_assert_nonnull (strstr (peak, ": v"));
  /* the OCM view says the compiler placed it, not "0.000 ms without OCM … not computed" */
  {
    g_autofree char *ocm = zw_ocm_view_dup_title (report);
    g_test_message ("OCM view: %s", ocm);
    g_assert_nonnull (strstr (ocm, "placed by the compiler"));
    g_assert_null (zw_ocm_view_dup_option_figures (report, ZW_OCM_NONE));
  }

  /* an option the Buyi backend refuses: the CLI's error, no run, the sidebar unchanged */
  n = zw_test_app_n_runs ();
  g_object_set (win, "ocm-option", "option1", NULL);
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 120));
  g_test_message ("banner: %s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "ocmOptimize: the BuyiBackend has no OCM options"));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);
  {
    g_auto (Panel) p = { 0 };
    read_panel (&p);
    g_assert_cmpstr (p.ocm, ==, "none");
  }
  zw_test_app_activate ("win.dismiss-banner", NULL);
  /* what it can do works: a forward of the file's placement */
  zw_test_app_activate ("win.forward", NULL);
  run = zw_test_app_wait_for_run (n + 1);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);

  /* a ZG330 network again: the user's options, not the Buyi's */
  n = zw_test_app_n_runs ();
  zw_test_app_activate ("win.open-file", g_variant_new_string (zg));
  run = zw_test_app_wait_for_run (n + 1);
  report = zw_run_get_report (run);
  g_assert_true (report->merge_hardop);
  g_assert_true (report->etm_optimize);
  g_assert_cmpint (report->ocm_requested, ==, ZW_OCM_OPTION2);
  {
    g_auto (Panel) p = { 0 };
    read_panel (&p);
    g_assert_false (p.fixed);
    g_assert_null (p.reason);
    g_assert_true (p.merge);
    g_assert_cmpstr (p.ocm, ==, "option2");
  }
  title = gtk_window_get_title (GTK_WINDOW (win));
  g_assert_nonnull (strstr (title, "mock://zg330"));
}

/* A plan (no params) with Best score says what Best score chose, as an apply does. */
static void
test_plan_says_what_best_score_chose (void)
{
  g_autofree char *real = zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
  g_autofree char *summary = NULL, *chosen = NULL;
  ZwRun *run;
  guint n = zw_test_app_n_runs ();

  if (real == NULL)
    return;
  {
    g_autofree char *ocm = NULL;
    g_object_get (win, "ocm-option", &ocm, NULL);
    if (g_strcmp0 (ocm, "best") != 0)
      {
        g_object_set (win, "ocm-option", "best", NULL);
        zw_test_app_wait_for_run (++n);
      }
  }
  zw_test_app_activate ("win.open-file", g_variant_new_string (real));
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 120));
  run = zw_window_get_selected_run (win);
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PLAN);
  g_assert_cmpint (zw_run_get_ocm_requested (run), ==, ZW_OCM_BEST_SCORE);
  g_assert_cmpint (zw_run_get_ocm_chosen (run), !=, ZW_OCM_BEST_SCORE);
  summary = zw_run_dup_summary (run);
  g_test_message ("%s", summary);
  g_assert_null (strstr (summary, "Best score → Best score"));
  g_object_get (zw_window_get_options_panel (win), "ocm-chosen", &chosen, NULL);
  g_assert_cmpstr (chosen, ==, zw_ocm_opt_get_label (zw_run_get_ocm_chosen (run)));
  zw_test_app_activate ("win.dismiss-banner", NULL);
}

static void
test_time_profile_read_only (void)
{
  g_autofree char *time = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  guint n = zw_test_app_n_runs (), rows = g_list_model_get_n_items (zw_window_get_runs (win));

  if (time == NULL)
    return;
  zw_test_app_activate ("win.open-file", g_variant_new_string (time));
  zw_test_app_wait_for_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (zw_window_get_selected_run (win)), ==, ZW_RUN_PROFILE);
  {
    g_auto (Panel) p = { 0 };
    read_panel (&p);
    /* nothing to deploy: read-only, and why */
    g_assert_false (p.editable);
    g_assert_nonnull (p.reason);
    g_assert_nonnull (strstr (p.reason, "time profile"));
  }
  /* item 7: Logs says what the file is, never a made-up deploy log; no "Best score chose
   * Best score" beside the options */
  {
    const char *log = zw_log_view_get_text (ZW_LOG_VIEW (zw_window_get_view (win, "logs")));
    g_autofree char *chosen = NULL;

    g_test_message ("logs: %s", log);
    g_assert_nonnull (log);
    g_assert_null (strstr (log, "(null)"));
    g_assert_nonnull (strstr (log, "Time profile"));
    g_assert_nonnull (strstr (log, time));
    g_object_get (zw_window_get_options_panel (win), "ocm-chosen", &chosen, NULL);
    g_assert_null (chosen);
  }
  /* item 7: the Timing title is cut beside the legend; its tooltip has the whole warning
   * and the row that cannot be */
  {
    const ZwProfile *profile = zw_run_get_profile (zw_window_get_selected_run (win));
    g_autofree char *tip = NULL;

    g_assert_nonnull (profile);
    g_assert_cmpuint (profile->n_flagged, >, 0);
    tip = zw_timing_view_dup_headline_tooltip (profile);
    g_test_message ("timing title tooltip: %s", tip);
    g_assert_nonnull (strstr (tip, "cannot be (hard > total or a negative time)"));
    g_assert_nonnull (strstr (tip, "ImageMake"));
    g_assert_nonnull (strstr (tip, "· hard > total"));
  }
  /* the network's run again: its options can change */
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (rows - 1));
  {
    g_auto (Panel) p = { 0 };
    read_panel (&p);
    g_assert_true (p.editable);
  }
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);

  g_test_add_func ("/app-kinds/buyi/options-fixed-as-run-refused-option-errors-title-board-memory-values",
                   test_buyi_network_controls);
  g_test_add_func ("/app-kinds/time-profile/options-read-only-with-reason-logs-say-what-it-is",
                   test_time_profile_read_only);
  g_test_add_func ("/app-kinds/plan/says-what-best-score-chose", test_plan_says_what_best_score_chose);

  return zw_test_app_run_and_close ();
}
