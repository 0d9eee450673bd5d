/* test-app-sweep — sweeps in the workbench (suite "display", issue 17 item 3): a grid that
 * does not parse is named in the banner, Cancel stops a sweep; "Sweep Options…" runs one in
 * the background (progress row by row, no run of the history); a row opened in the Sweep view
 * is deployed and run with its options and what-if figures (the controller, the options
 * panel and the deploy report every view shows agree with the row); a sweep JSON of
 * `xrt-run sweep --json` opens with the same rows, also with --view sweep. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include "zw-options-panel.h"
#include "zw-sweep-view.h"

static ZwWindow *win;

static gboolean
sweep_of_rows (gpointer data)
{
  ZwSweep *sweep = zw_sweep_view_get_sweep (ZW_SWEEP_VIEW (zw_window_get_view (win, "sweep")));

  return !zw_window_get_busy (win) && sweep != NULL && sweep->rows->len == GPOINTER_TO_UINT (data);
}

static GtkWidget *
find_named (GtkWidget *w, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (w), name) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWindow *
find_toplevel_titled (const char *title)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (g_strcmp0 (gtk_window_get_title (w), title) == 0 && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static void
on_sweep_status (ZwRunController *controller, GParamSpec *pspec, guint *n_progress)
{
  const char *status = zw_run_controller_get_status (controller);
  g_autofree char *total = g_strdup_printf (" of %u rows", zw_sweep_get_n_combinations ());

  (void) pspec;
  /* "Sweep: 7 of 20 rows" */
  if (status != NULL && g_str_has_prefix (status, "Sweep: ") && strstr (status, total) != NULL)
    (*n_progress)++;
}

static guint64
report_etm_bytes (const ZwDeployReport *report)
{
  guint64 sum = 0;

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    sum += report->segments[t].byte_size;
  return sum;
}

/* Opens row @index of the sweep shown as a user does (selects it, Enter) and checks that the
 * next run, now shown by every view, is that row: the controller's options and the panel are
 * the row's, and the deploy report has its ETM bytes, launches and FTMP bytes. */
static void
open_sweep_row (guint index)
{
  ZwSweepView *view = ZW_SWEEP_VIEW (zw_window_get_view (win, "sweep"));
  const ZwSweepRow *row = &g_array_index (zw_sweep_view_get_sweep (view)->rows, ZwSweepRow, index);
  GtkWidget *panel = zw_window_get_options_panel (win);
  g_autofree char *ocm_id = NULL;
  gboolean merge, etm;
  guint kib, n = zw_test_app_n_runs ();
  double mhz;
  ZwRunOptions o;
  ZwDeployReport *report;
  ZwRun *run;

  g_test_message ("opening row #%u: merge %d, ETM optimize %d, OCM %s, %s: %" G_GUINT64_FORMAT " ETM bytes, %u launches",
                  index, row->merge_hardop, row->etm_optimize, zw_ocm_opt_to_string (row->ocm_requested), row->what_if,
                  row->etm_bytes, row->launches);
  g_assert_null (row->error);
  zw_sweep_view_select_row (view, (gint) index);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.open", NULL));
  run = zw_test_app_expect_run (n + 1);
  if (*row->what_if != '\0')
    {
      /* issue 37 item 5: a what-if row says it replaced the sidebar's device figures */
      const char *banner = zw_window_get_banner_message (win);
      g_assert_nonnull (banner);
      g_assert_nonnull (strstr (banner, "Applied what-if"));
      g_assert_nonnull (strstr (banner, row->what_if));
      zw_test_app_activate ("win.dismiss-banner", NULL);
    }
  g_assert_null (zw_window_get_banner_message (win));

  zw_run_controller_get_options (zw_window_get_run_controller (win), &o);
  g_assert_cmpint (o.merge_hardop, ==, row->merge_hardop);
  g_assert_cmpint (o.etm_optimize, ==, row->etm_optimize);
  g_assert_cmpint (o.ocm, ==, row->ocm_requested);
  g_assert_cmpuint (o.ocm_bytes, ==, row->ocm_capacity);
  g_assert_cmpfloat (o.icore_clock_hz, ==, row->icore_clock_hz);
  /* the options panel shows them */
  g_object_get (panel, "merge-hardop", &merge, "etm-optimize", &etm, "ocm-option", &ocm_id, "ocm-kib", &kib, "icore-mhz",
                &mhz, NULL);
  g_assert_cmpint (merge, ==, row->merge_hardop);
  g_assert_cmpint (etm, ==, row->etm_optimize);
  g_assert_cmpstr (ocm_id, ==, zw_ocm_opt_get_nick (row->ocm_requested));
  g_assert_cmpuint (kib, ==, row->ocm_capacity / 1024);
  g_assert_cmpfloat_with_epsilon (mhz, row->icore_clock_hz / 1e6, 1e-6);

  /* every view shows the row's run */
  report = zw_selection_get_report (zw_window_get_selection (win));
  g_assert_true (report == zw_run_get_report (run));
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_FORWARD);
  g_assert_cmpint (report->merge_hardop, ==, row->merge_hardop);
  g_assert_cmpint (report->etm_optimize, ==, row->etm_optimize);
  g_assert_cmpint (report->ocm_requested, ==, row->ocm_requested);
  g_assert_cmpint (report->ocm_chosen, ==, row->ocm_chosen);
  g_assert_cmpuint (report->ocm_bytes, ==, row->ocm_capacity);
  g_assert_cmpuint (report_etm_bytes (report), ==, row->etm_bytes);
  g_assert_cmpuint (report->launches->len, ==, row->launches);
  g_assert_cmpuint (report->ftmp_bytes, ==, row->ftmp_bytes);
  g_assert_cmpuint (zw_run_get_n_launches (run), ==, row->launches);
}

static void
test_sweep_run_open_row_and_file (void)
{
  g_autofree char *tiny = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  ZwSweepView *view = ZW_SWEEP_VIEW (zw_window_get_view (win, "sweep"));
  const XrtBoardFigures *base = NULL;
  g_autoptr (ZwSweep) first = NULL;
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autofree char *json = NULL, *png = NULL, *shown_view = NULL;
  g_autoptr (GError) error = NULL;
  GtkWindow *dialog;
  GtkWidget *entry, *button;
  ZwSweep *sweep;
  gint pick = -1;
  guint n, n_progress = 0;

  /* nothing swept yet: the view says how, with the button */
  g_assert_null (zw_sweep_view_get_sweep (view));
  g_assert_nonnull (zw_window_get_empty_state (win, "sweep"));

  n = zw_test_app_n_runs ();
  zw_test_app_activate ("win.open-file", g_variant_new_string (tiny));
  zw_test_app_expect_run (++n);
  g_assert_cmpstr (zw_run_controller_get_network_path (zw_window_get_run_controller (win)), ==, tiny);

  /* a grid that does not parse: the banner names it, nothing runs */
  zw_test_app_activate ("win.sweep-what-if", g_variant_new_string ("ocm=lots"));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "lots"));
  g_assert_false (zw_window_get_busy (win));
  zw_test_app_activate ("win.dismiss-banner", NULL);

  /* Cancel stops a sweep: nothing shows, nothing fails */
  zw_test_app_activate ("win.sweep-what-if", g_variant_new_string (""));
  g_assert_true (zw_window_get_busy (win));
  zw_test_app_activate ("win.cancel", NULL);
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 60));
  g_assert_null (zw_sweep_view_get_sweep (view));
  g_assert_null (zw_window_get_banner_message (win));

  /* Sweep Options…: the dialog runs the sweep in the background, its progress row by row
   * reaching the main loop while it runs */
  g_signal_connect (zw_window_get_run_controller (win), "notify::status", G_CALLBACK (on_sweep_status), &n_progress);
  zw_test_app_activate ("win.sweep", NULL);
  dialog = find_toplevel_titled (g_dgettext ("zhuge-workbench", "Sweep Options"));
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (win));
  entry = find_named (GTK_WIDGET (dialog), "sweep-what-if");
  button = find_named (GTK_WIDGET (dialog), "sweep-run");
  g_assert_nonnull (entry);
  g_assert_nonnull (button);
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_signal_emit_by_name (button, "clicked");
  g_assert_null (find_toplevel_titled (g_dgettext ("zhuge-workbench", "Sweep Options")));
  g_assert_true (zw_window_get_busy (win));
  if (!zw_test_app_wait_for (sweep_of_rows, GUINT_TO_POINTER (zw_sweep_get_n_combinations ()), 120))
    g_error ("no sweep of %u rows after 120 s (banner: %s)", zw_sweep_get_n_combinations (),
             zw_window_get_banner_message (win));
  g_signal_handlers_disconnect_by_func (zw_window_get_run_controller (win), on_sweep_status, &n_progress);
  g_assert_cmpuint (n_progress, >, 0);
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);   /* a sweep is no run of the history */
  g_object_get (win, "view", &shown_view, NULL);
  g_assert_cmpstr (shown_view, ==, "sweep");
  g_assert_null (zw_window_get_empty_state (win, "sweep"));
  sweep = zw_sweep_view_get_sweep (view);
  g_assert_cmpstr (sweep->network_name, ==, "tiny");
  g_assert_cmpint (sweep->recommended, >=, 0);
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, sweep->recommended);
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      g_assert_null (r->error);
      g_assert_true (r->checked);
    }
  first = zw_sweep_ref (sweep);
  zw_test_app_wait_for_frames (NULL);

  /* a row that is not the current options (merge, ETM optimize and Best score are) */
  for (guint i = 0; i < sweep->rows->len && pick < 0; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      if (!r->merge_hardop && !r->etm_optimize && r->ocm_requested == ZW_OCM_OPTION2 && (gint) i != sweep->recommended)
        pick = (gint) i;
    }
  g_assert_cmpint (pick, >=, 0);
  open_sweep_row ((guint) pick);

  /* a what-if grid: a row of a point sizes the board (OCM 512 KiB, icore 800 MHz) */
  zw_test_app_activate ("win.sweep-what-if", g_variant_new_string ("ocm=512K, 1M; icore=800M"));
  if (!zw_test_app_wait_for (sweep_of_rows, GUINT_TO_POINTER (2 * zw_sweep_get_n_combinations ()), 120))
    g_error ("no sweep of %u rows after 120 s (banner: %s)", 2 * zw_sweep_get_n_combinations (),
             zw_window_get_banner_message (win));
  sweep = zw_sweep_view_get_sweep (view);
  g_assert_cmpstr (g_ptr_array_index (sweep->what_if, 0), ==, "ocm=512K,icore=800M");
  pick = -1;
  for (guint i = 0; i < sweep->rows->len && pick < 0; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      if (g_str_equal (r->what_if, "ocm=512K,icore=800M") && r->merge_hardop && !r->etm_optimize
          && r->ocm_requested == ZW_OCM_OPTION1)
        pick = (gint) i;
    }
  g_assert_cmpint (pick, >=, 0);
  g_assert_cmpuint (g_array_index (sweep->rows, ZwSweepRow, pick).ocm_capacity, ==, 512 * 1024);
  g_assert_cmpfloat (g_array_index (sweep->rows, ZwSweepRow, pick).icore_clock_hz, ==, 8e8);
  open_sweep_row ((guint) pick);

  /* a sweep JSON written by xrt-run sweep --json opens in the view: the same rows */
  {
    g_auto (ZwTestRun) cli = { 0 };
    dir = zw_test_tmp_dir_new ("zw-sweep-XXXXXX");
    json = g_build_filename (dir, "tiny-sweep.json", NULL);
    zw_test_xrt_run (&cli, "sweep", tiny, "--json", json, NULL);
    g_assert_cmpint (cli.status, ==, 0);
  }
  zw_test_app_activate ("win.view", g_variant_new_string ("segments"));
  zw_test_app_activate ("win.open-file", g_variant_new_string (json));
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 30));
  g_assert_null (zw_window_get_banner_message (win));
  g_clear_pointer (&shown_view, g_free);
  g_object_get (win, "view", &shown_view, NULL);
  g_assert_cmpstr (shown_view, ==, "sweep");
  g_assert_cmpstr (zw_window_get_shown_file (win), ==, json);
  sweep = zw_sweep_view_get_sweep (view);
  g_assert_cmpuint (sweep->rows->len, ==, zw_sweep_get_n_combinations ());
  g_assert_cmpint (sweep->recommended, ==, first->recommended);
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *a = &g_array_index (first->rows, ZwSweepRow, i), *b = &g_array_index (sweep->rows, ZwSweepRow, i);
      /* the workbench's sweep and the CLI's are one sweep */
      g_assert_cmpuint (a->etm_bytes, ==, b->etm_bytes);
      g_assert_cmpuint (a->launches, ==, b->launches);
      g_assert_cmpfloat_with_epsilon (a->simulated_ms, b->simulated_ms, 1e-6);
      g_assert_cmpint (a->on_front, ==, b->on_front);
    }
  /* its rows open too (the network it names is the open one) */
  open_sweep_row ((guint) (sweep->recommended == 0 ? 1 : 0));

  /* zhuge-workbench --view sweep FILE.json */
  {
    const char *exe = g_getenv ("ZW_APP");
    ZwTestPixelFacts facts;

    png = g_build_filename (dir, "sweep.png", NULL);
    facts = zw_test_app_screenshot (exe, png, "sweep", json);
    g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 20);
    g_assert_cmpuint (facts.n_colours, >=, 16);
  }

  /* the options as the other tests expect them */
  base = zw_run_controller_get_base_figures (zw_window_get_run_controller (win));
  n = zw_test_app_n_runs ();
  g_object_set (zw_window_get_options_panel (win), "ocm-kib", (guint) (base->ocm_bytes / 1024), "icore-mhz",
                base->icore_clock_hz / 1e6, NULL);
  g_object_set (win, "merge-hardop", TRUE, "etm-optimize", TRUE, "ocm-option", "best", NULL);
  zw_test_app_expect_run (n + 1);
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/sweep/run-from-dialog-open-rows-in-every-view-and-cli-json", test_sweep_run_open_row_and_file);

  return zw_test_app_run_and_close ();
}
