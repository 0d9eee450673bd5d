/* test-app-run-views — a run's results in the window (suite "display"): every forward's time
 * profile in Timing and its deploy log in Logs; Timing bound to the one selection of every
 * view (a row selects its op and values everywhere, the Graph's keys select Timing's rows,
 * Back walks them); two marked runs side by side in Compare (OCM none against best; merge
 * on against off op for op, A and B swapped, unmarking clears); tensors dumped with merge off
 * inspected in Tensors (an OCM-resident value) and a planted byte found by Dump Diff. */
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
#include <math.h>

#include "zw-compare-view.h"
#include "zw-dump-diff-view.h"
#include "zw-log-view.h"
#include "zw-merge-view.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"
#include "zw-views.h"

static ZwWindow *win;

static void
test_forward_profile_in_timing (void)
{
  guint n = zw_test_app_n_runs ();
  ZwRun *run;
  const ZwProfile *profile;
  const ZwProfile *shown;

  zw_test_app_activate ("win.run", NULL);
  run = zw_test_app_expect_run (n + 1);
  profile = zw_run_get_profile (run);
  g_assert_nonnull (profile);
  /* one row per forward step: every hardop launch and host op */
  g_assert_cmpuint (profile->rows->len, >=, zw_run_get_n_launches (run));
  shown = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (win, "timing")));
  g_assert_nonnull (shown);
  g_assert_cmpuint (shown->rows->len, ==, profile->rows->len);
  g_assert_cmpfloat (fabs (shown->total_ms - profile->total_ms), <, 1e-9);
  zw_test_app_assert_view_draws ("timing");
  /* the Logs view holds the run's deploy log */
  g_assert_nonnull (strstr (zw_log_view_get_text (ZW_LOG_VIEW (zw_window_get_view (win, "logs"))), "yolov5s"));
  zw_test_app_assert_view_draws ("logs");
}

/* The row of @profile that shows @op: its own, or the merged launch's it is a member of; -1. */
static gint
timing_row_of_op (const ZwProfile *profile, ZwDeployReport *report, gint64 op)
{
  for (guint i = 0; i < profile->rows->len; i++)
    if (((ZwProfileRow *) g_ptr_array_index (profile->rows, i))->op_id == op)
      return (gint) i;
  for (guint l = 0; l < report->launches->len; l++)
    {
      const ZwLaunch *launch = &g_array_index (report->launches, ZwLaunch, l);
      for (guint k = 0; launch->merge_from != NULL && k < launch->merge_from->len; k++)
        if (g_array_index (launch->merge_from, gint64, k) == op)
          return timing_row_of_op (profile, report, launch->op_id);
    }
  return -1;
}

/* One selection: Timing is bound to the window's ZwSelection like every other view, so a
 * row selected there (its op, then one of its values) is every view's selection, and an op
 * selected in another view (the Graph's Down key) selects its row in Timing. */
static void
test_timing_selection_everywhere (void)
{
  guint n_views, n_bound = 0;
  const ZwViewKind *views = zw_views_get (&n_views);
  ZwSelection *sel = zw_window_get_selection (win);
  ZwDeployReport *report = zw_selection_get_report (sel);
  ZwTimingView *timing = ZW_TIMING_VIEW (zw_window_get_view (win, "timing"));
  GtkWidget *graph = zw_window_get_view (win, "graph");
  const ZwProfile *profile = zw_timing_view_get_profile (timing);
  const ZwLaunch *launch = NULL;
  gint row = -1;

  g_assert_nonnull (report);
  g_assert_nonnull (profile);
  /* every view of the table (Logs too: it shows text and ignores the selection) */
  for (guint i = 0; i < n_views; i++)
    {
      GtkWidget *view = zw_window_get_view (win, views[i].name);
      g_assert_nonnull (view);
      if (!ZW_IS_VIEW (view))
        continue;
      g_assert_true (zw_view_get_selection (ZW_VIEW (view)) == sel);
      n_bound++;
    }
  g_assert_cmpuint (n_bound, ==, n_views);

  /* Timing -> everywhere: a launch's row selects its op, the Merges view shows that launch */
  for (guint l = 0; l < report->launches->len && row < 0; l++)
    {
      launch = &g_array_index (report->launches, ZwLaunch, l);
      row = timing_row_of_op (profile, report, launch->op_id);
    }
  g_assert_cmpint (row, >=, 0);
  zw_timing_view_select_row (timing, row);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, launch->op_id);
  zw_test_app_activate ("win.view", g_variant_new_string ("merges"));
  zw_test_app_wait_for_frames (NULL);
  g_assert_cmpint (zw_merge_view_get_selected_row_op (ZW_MERGE_VIEW (zw_window_get_view (win, "merges"))), ==,
                   launch->op_id);
  /* a value button of Timing's values bar selects that value for every view */
  {
    GtkWidget *button = NULL;
    gint64 v_id;
    for (GtkWidget *c = gtk_widget_get_first_child (zw_timing_view_get_values_bar (timing)); c != NULL;
         c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_BUTTON (c))
        button = c;
    g_assert_nonnull (button);
    v_id = (gint64) GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (button), "zw-v-id")) - 1;
    g_assert_cmpint (v_id, >=, 0);
    g_signal_emit_by_name (button, "clicked");
    g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v_id);
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, launch->op_id);
  }

  /* another view -> Timing: the Graph's Down key walks to a reader; Timing selects the row
   * of each op it reaches (its own row or its merged launch's) */
  zw_test_app_activate ("win.view", g_variant_new_string ("graph"));
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 120));
  zw_test_app_wait_for_frames (NULL);
  {
    guint reached = 0;
    for (guint step = 0; step < 8; step++)
      {
        gint64 op;
        gint expected;
        g_assert_true (gtk_widget_activate_action (graph, "graph.down", NULL));
        op = zw_selection_get_selected_op (sel);
        g_assert_cmpint (op, >=, 0);
        expected = timing_row_of_op (profile, report, op);
        if (expected < 0)
          continue;   /* an op without a time of its own (zero-copy) */
        g_assert_cmpint (zw_timing_view_get_state (timing)->selected_row, ==, expected);
        reached++;
      }
    g_assert_cmpuint (reached, >, 0);
  }
  /* and Back (Alt+Left) walks the one history, Timing with it */
  zw_test_app_activate ("win.select-back", NULL);
  g_assert_cmpint (zw_timing_view_get_state (timing)->selected_row, ==,
                   timing_row_of_op (profile, report, zw_selection_get_selected_op (sel)));
  zw_test_app_activate ("win.view", g_variant_new_string ("segments"));
}

static gboolean
compare_shown (gpointer data)
{
  return zw_compare_view_get_compare (data) != NULL && zw_compare_view_get_deploy_compare (data) != NULL;
}

static void
test_compare_two_marked_runs (void)
{
  guint n, rows;
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  const ZwProfileCompare *cmp;
  g_autoptr (GPtrArray) marked = NULL;

  /* a forward with OCM best score (a row of its own), then a second forward with another
   * OCM option, so the two differ */
  zw_test_app_activate ("win.run", NULL);
  zw_test_app_expect_run (zw_test_app_n_runs () + 1);
  n = zw_test_app_n_runs ();
  rows = zw_test_app_history_rows ();
  zw_test_app_activate ("win.ocm-option", g_variant_new_string ("none"));
  zw_test_app_expect_run (n + 1);
  zw_test_app_activate ("win.run", NULL);
  zw_test_app_expect_run (n + 2);
  /* unmark whatever an earlier test left marked */
  marked = zw_window_get_compare_runs (win);
  for (guint i = 0; i < marked->len; i++)
    zw_run_set_compare (g_ptr_array_index (marked, i), FALSE);
  /* the forward just made against the last before the OCM option changed */
  zw_test_app_activate ("win.toggle-compare", g_variant_new_uint32 (rows - 1));
  zw_test_app_activate ("win.toggle-compare", g_variant_new_uint32 (zw_test_app_history_rows () - 1));
  /* the view follows the marks once the history has settled them (an idle) */
  g_assert_true (zw_test_app_wait_for (compare_shown, view, 10));
  cmp = zw_compare_view_get_compare (view);
  g_assert_nonnull (cmp);
  g_assert_cmpuint (cmp->rows->len, >, 0);
  g_assert_nonnull (zw_compare_view_get_deploy_compare (view));
  /* OCM none against best: the deploy facts differ in OCM bytes */
  g_assert_cmpint (zw_compare_view_get_deploy_compare (view)->ocm_delta, !=, 0);
  zw_test_app_assert_view_draws ("compare");
  zw_test_app_activate ("win.ocm-option", g_variant_new_string ("best"));
  zw_test_app_expect_run (n + 3);
}

static gboolean
compare_empty (gpointer data)
{
  return zw_compare_view_get_compare (data) == NULL && zw_compare_view_get_deploy_compare (data) == NULL;
}

/* Compare (issue 16 items 4, 5): merge on against merge off compares launch against members
 * (no "only A" rows); A and B swap; unmarking a run clears the comparison. */
static void
test_compare_merge_swap_unmark (void)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  g_autoptr (GPtrArray) marked = zw_window_get_compare_runs (win);
  const ZwProfileCompare *cmp;
  ZwRun *on, *off;
  double a_ms, b_ms;
  gboolean merge;
  guint n;

  for (guint i = 0; i < marked->len; i++)
    zw_run_set_compare (g_ptr_array_index (marked, i), FALSE);
  g_object_get (win, "merge-hardop", &merge, NULL);
  if (!merge)
    {
      zw_test_app_activate ("win.merge-hardop", NULL);
      zw_test_app_expect_run (zw_test_app_n_runs () + 1);
    }
  n = zw_test_app_n_runs ();
  zw_test_app_activate ("win.run", NULL);
  on = zw_test_app_expect_run (n + 1);
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_expect_run (n + 2);
  zw_test_app_activate ("win.run", NULL);
  off = zw_test_app_expect_run (n + 3);
  g_assert_true (zw_run_get_merge_hardop (on));
  g_assert_false (zw_run_get_merge_hardop (off));
  zw_run_set_compare (on, TRUE);
  zw_run_set_compare (off, TRUE);
  g_assert_true (zw_test_app_wait_for (compare_shown, view, 10));
  cmp = zw_compare_view_get_compare (view);
  g_test_message ("%u matched, %u only A, %u only B, %u merged launches mapped", cmp->n_matched, cmp->n_only_a,
                  cmp->n_only_b, cmp->n_merge_mapped);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_merge_mapped, >, 0);
  a_ms = cmp->a_total_ms;
  b_ms = cmp->b_total_ms;
  /* B becomes the reference */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "compare.swap", NULL));
  cmp = zw_compare_view_get_compare (view);
  g_assert_cmpfloat_with_epsilon (cmp->a_total_ms, b_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (cmp->b_total_ms, a_ms, 1e-9);
  g_assert_cmpint (zw_compare_view_get_deploy_compare (view)->a.merge_hardop, ==, FALSE);
  /* unmarked: nothing compared (the view teaches how to compare) */
  zw_run_set_compare (on, FALSE);
  g_assert_true (zw_test_app_wait_for (compare_empty, view, 10));
  zw_run_set_compare (off, FALSE);
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_expect_run (n + 4);
}

static void
test_dump_tensors_and_diff (void)
{
  guint n = zw_test_app_n_runs ();
  ZwRun *run;
  ZwTensorView *tensors = ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
  ZwDumpDiffView *diff_view = ZW_DUMP_DIFF_VIEW (zw_window_get_view (win, "diff"));
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpManifest) manifest = NULL;
  g_autofree char *manifest_path = NULL;
  g_autoptr (ZwTestTmpDir) copy = NULL;
  g_autofree char *planted = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  const ZwDumpManifestEntry *ocm_entry = NULL;
  const ZwDumpDiff *diff;
  g_autofree char *shown = NULL;

  /* merge off: every hardop's outputs are dumped, OCM-resident values included */
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_expect_run (n + 1);
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  run = zw_test_app_expect_run (n + 2);
  g_assert_nonnull (zw_run_get_dump_dir (run));
  g_assert_cmpstr (zw_run_get_dump_format (run), ==, "SFB");
  g_object_get (win, "view", &shown, NULL);
  g_assert_cmpstr (shown, ==, "tensors");
  manifest_path = g_build_filename (zw_run_get_dump_dir (run), "manifest.json", NULL);
  manifest = zw_dump_manifest_load (manifest_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (manifest->complete);
  g_assert_cmpuint (zw_tensor_view_get_n_values (tensors), ==, manifest->entries->len);
  g_assert_cmpuint (zw_tensor_view_get_messages (tensors)->len, ==, 0);
  for (guint i = 0; i < manifest->entries->len && ocm_entry == NULL; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (manifest->entries, i);
      if (e->memory == ZW_DUMP_MEMORY_OCM)
        ocm_entry = e;
    }
  g_assert_nonnull (ocm_entry);
  /* the inspector on an OCM-resident value */
  g_assert_true (zw_tensor_view_select_value (tensors, ocm_entry->type.v_id));
  g_assert_nonnull (zw_tensor_view_get_tensor (tensors));
  g_assert_nonnull (zw_tensor_view_get_stats (tensors));
  zw_test_app_assert_view_draws ("tensors");

  /* a copy with one planted byte: the diff finds that value and coordinates (0,0,0,0) */
  copy = zw_test_tmp_dir_new ("zw-app-diff-XXXXXX");
  zw_test_copy_folder (zw_run_get_dump_dir (run), copy);
  planted = g_build_filename (copy, ocm_entry->file, NULL);
  g_assert_true (g_file_get_contents (planted, &contents, &length, NULL));
  g_assert_cmpuint (length, >=, 4);
  contents[0] ^= 0x40; /* the lowest byte of element 0's float32 */
  g_assert_true (g_file_set_contents (planted, contents, (gssize) length, NULL));
  g_assert_true (zw_window_diff_dumps (win, copy, NULL));
  zw_test_app_wait_for_diff ();
  diff = zw_dump_diff_view_get_diff (diff_view);
  g_assert_nonnull (diff);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpuint (diff->n_diverged, ==, 1);
  g_assert_nonnull (diff->first);
  g_assert_cmpint (diff->first->v_id, ==, ocm_entry->type.v_id);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpint (diff->first->first_coords[k], ==, 0);
  zw_test_app_assert_view_draws ("diff");

  /* a truncated file: the banner names it, the rest of the folder still loads */
  g_assert_true (g_file_set_contents (planted, contents, 3, NULL));
  g_assert_true (zw_window_open_dump (win, copy));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), ocm_entry->file));
  g_assert_cmpuint (zw_tensor_view_get_n_values (tensors), ==, manifest->entries->len - 1);
  zw_test_app_activate ("win.dismiss-banner", NULL);

  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_expect_run (n + 3);
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/timing/forward-records-profile-shown-in-timing", test_forward_profile_in_timing);
  g_test_add_func ("/app/timing/selection-reaches-every-view-and-back", test_timing_selection_everywhere);
  g_test_add_func ("/app/compare/two-marked-runs-side-by-side", test_compare_two_marked_runs);
  g_test_add_func ("/app/tensors/dump-merge-off-inspect-ocm-value-and-diff-planted-byte", test_dump_tensors_and_diff);
  g_test_add_func ("/app/compare/merge-on-off-op-for-op-swap-and-unmark-clears", test_compare_merge_swap_unmark);

  return zw_test_app_run_and_close ();
}
