/* test-app-options — the zhuge-workbench window on the demo and its options (suite "display"):
 * the demo opens deployed at start and its empty views say what to do; the device URL opens
 * a board served by zhuge-board (and names one that is not there); OCM, merge and ETM
 * optimize change the deployment (OCM bytes, launches, FTMP bytes); forwards of N
 * iterations; Cancel in the middle of forwards and of an apply loses nothing (the tensors of
 * the next forward are the same bytes). */
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
#include "zw-run-history.h"
#include "zw-merge-view.h"

static ZwWindow *win;

static void
test_start_opens_demo (void)
{
  ZwRun *run = zw_test_app_expect_run (1);
  ZwDeployReport *report = zw_run_get_report (run);

  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_FORWARD);
  g_assert_cmpstr (report->network_name, ==, "yolov5s");
  g_assert_cmpstr (report->device_url, ==, "mock://zg330");
  g_assert_true (zw_selection_get_report (zw_window_get_selection (win)) == report);
  g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
  g_assert_cmpuint (zw_run_get_n_launches (run), >=, 1);
  /* Best score reports the option it chose */
  g_assert_cmpint (zw_run_get_ocm_requested (run), ==, ZW_OCM_BEST_SCORE);
  g_assert_cmpint (zw_run_get_ocm_chosen (run), !=, ZW_OCM_BEST_SCORE);
}

static void
test_empty_states_teach (void)
{
  guint n = zw_test_app_n_runs ();
  const char *text;

  /* nothing dumped yet: Tensors says how, with the button */
  text = zw_window_get_empty_state (win, "tensors");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "Dump tensors"));
  /* the demo opened with a forward: Timing has times */
  g_assert_null (zw_window_get_empty_state (win, "timing"));
  /* an Apply has none: Timing says to run a forward, and its button does */
  zw_test_app_activate ("win.apply", NULL);
  zw_test_app_expect_run (n + 1);
  text = zw_window_get_empty_state (win, "timing");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "forward"));
  zw_test_app_activate ("win.forward", NULL);
  zw_test_app_expect_run (n + 2);
  g_assert_null (zw_window_get_empty_state (win, "timing"));
}

static GtkWidget *
find_entry (GtkWidget *widget)
{
  if (GTK_IS_ENTRY (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_entry (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
type_device_url (const char *url)
{
  GtkWidget *entry = find_entry (zw_window_get_options_panel (win));

  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), url);
  g_signal_emit_by_name (entry, "activate");
}

static void
test_device_url_socket_board (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  ZwRun *mock = zw_window_get_selected_run (win);
  g_autofree char *bad = NULL;
  guint n = zw_test_app_n_runs ();
  ZwRun *run;

  if (board == NULL)
    return;
  /* the next apply deploys on the board served by zhuge-board */
  type_device_url (board->url);
  run = zw_test_app_expect_run (n + 1);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, board->url);
  /* the socket board allocates as the simulated one does */
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    g_assert_cmpuint (zw_run_get_report (run)->segments[t].phy_addr, ==,
                      zw_run_get_report (mock)->segments[t].phy_addr);
  zw_test_app_activate ("win.forward", NULL);
  run = zw_test_app_expect_run (n + 2);
  g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, board->url);
  /* a board that is not there: the banner names the URL, no run */
  bad = g_strdup_printf ("socket://zg330@127.0.0.1:%u", board->port == 1 ? 2 : 1);
  type_device_url (bad);
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 60));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), bad));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n + 2);
  /* empty: the simulated board again */
  type_device_url ("");
  run = zw_test_app_expect_run (n + 3);
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, "mock://zg330");
}

static void
test_ocm_none_to_best (void)
{
  guint n = zw_test_app_n_runs ();
  ZwRun *none, *best;
  guint64 none_bytes;

  zw_test_app_activate ("win.ocm-option", g_variant_new_string ("none"));
  none = zw_test_app_expect_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (none), ==, ZW_RUN_APPLY);
  g_assert_cmpint (zw_run_get_ocm_requested (none), ==, ZW_OCM_NONE);
  none_bytes = zw_run_get_ocm_bytes (none);
  g_assert_cmpuint (none_bytes, ==, 0);

  zw_test_app_activate ("win.ocm-option", g_variant_new_string ("best"));
  best = zw_test_app_expect_run (n + 2);
  g_assert_cmpint (zw_run_get_ocm_requested (best), ==, ZW_OCM_BEST_SCORE);
  g_assert_cmpuint (zw_run_get_ocm_bytes (best), >, none_bytes);
}

static void
test_merge_off_more_launches (void)
{
  guint n = zw_test_app_n_runs ();
  guint merged = zw_run_get_n_launches (zw_window_get_selected_run (win));
  ZwRun *off;
  gboolean merge;

  zw_test_app_activate ("win.merge-hardop", NULL);
  g_object_get (win, "merge-hardop", &merge, NULL);
  g_assert_false (merge);
  off = zw_test_app_expect_run (n + 1);
  g_assert_false (zw_run_get_merge_hardop (off));
  g_assert_cmpuint (zw_run_get_n_launches (off), >, merged);
  /* with merge off, one launch per hardop that runs (those with layers; the hardware folds
   * the others away), each of one member */
  {
    ZwDeployReport *report = zw_run_get_report (off);
    guint running = 0;
    for (guint i = 0; i < report->ops->len; i++)
      {
        const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
        if (g_strcmp0 (op->kind, "HardOp") == 0 && op->layer_count > 0)
          running++;
      }
    g_assert_cmpuint (zw_run_get_n_launches (off), ==, running);
    for (guint i = 0; i < report->launches->len; i++)
      g_assert_cmpuint (g_array_index (report->launches, ZwLaunch, i).merge_from->len, <=, 1);
  }
  zw_test_app_wait_for_frames (NULL);
  zw_test_app_activate ("win.view", g_variant_new_string ("merges"));
  zw_test_app_wait_for_frames (NULL);
  g_assert_cmpuint (zw_merge_view_get_n_rows (ZW_MERGE_VIEW (zw_window_get_view (win, "merges"))), ==,
                    zw_run_get_n_launches (off));

  zw_test_app_activate ("win.merge-hardop", NULL);
  g_assert_cmpuint (zw_run_get_n_launches (zw_test_app_expect_run (n + 2)), ==, merged);
}

static void
test_etm_off_sum_of_chunks (void)
{
  guint n = zw_test_app_n_runs ();
  guint64 optimized = zw_run_get_ftmp_bytes (zw_window_get_selected_run (win));
  ZwRun *off;

  zw_test_app_activate ("win.etm-optimize", NULL);
  off = zw_test_app_expect_run (n + 1);
  g_assert_false (zw_run_get_etm_optimize (off));
  g_assert_cmpuint (zw_run_get_ftmp_bytes (off), >, optimized);
  g_assert_cmpuint (zw_run_get_ftmp_bytes (off), ==, zw_run_get_report (off)->sum_of_chunks);
  zw_test_app_activate ("win.etm-optimize", NULL);
  g_assert_cmpuint (zw_run_get_ftmp_bytes (zw_test_app_expect_run (n + 2)), ==, optimized);
}

static void
test_run_forwards (void)
{
  guint n = zw_test_app_n_runs ();
  ZwRun *run;

  g_object_set (win, "iterations", 3, NULL);
  zw_test_app_activate ("win.run", NULL);
  run = zw_test_app_expect_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_FORWARD);
  g_assert_cmpuint (zw_run_get_iterations (run), ==, 3);
  g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
  g_object_set (win, "iterations", 1, NULL);
}

static gboolean
is_busy (gpointer data)
{
  (void) data;
  return zw_window_get_busy (win);
}

/* Every .ftmp of @dir, name -> bytes. */
static GHashTable *
dump_files (const char *dir)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".ftmp"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        char *contents = NULL;
        gsize len = 0;
        g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
        g_hash_table_insert (files, g_strdup (name), g_bytes_new_take (contents, len));
      }
  return files;
}

static GHashTable *
dump_now (void)
{
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SQB"));
  ZwRun *run = zw_test_app_expect_run (zw_test_app_n_runs () + 1);
  g_assert_nonnull (zw_run_get_dump_dir (run));
  return dump_files (zw_run_get_dump_dir (run));
}

/* Cancel in the middle of forwards and in the middle of an apply: nothing is lost, the
 * session and the board stay usable, and the tensors of the next forward are the same
 * bytes as before the cancel. */
static void
test_cancel (void)
{
  g_autoptr (GHashTable) before = dump_now ();
  guint n = zw_test_app_n_runs ();

  g_assert_cmpuint (g_hash_table_size (before), >, 0);
  /* far more forwards than the test waits for: only Cancel ends it */
  g_object_set (win, "iterations", 100000, NULL);
  zw_test_app_activate ("win.forward", NULL);
  g_assert_true (zw_test_app_wait_for (is_busy, NULL, 10));
  zw_test_app_activate ("win.cancel", NULL);
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 60));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);
  g_assert_null (zw_window_get_banner_message (win));
  g_object_set (win, "iterations", 1, NULL);

  /* a cancelled re-apply (merge off and back on) leaves the deployed session as it was */
  zw_test_app_activate ("win.merge-hardop", NULL);
  if (zw_test_app_wait_for (is_busy, NULL, 10))
    zw_test_app_activate ("win.cancel", NULL);
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 60));
  zw_test_app_activate ("win.dismiss-banner", NULL);
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_expect_run (zw_test_app_n_runs () + 1);

  g_autoptr (GHashTable) after = dump_now ();
  GHashTableIter it;
  gpointer k, v;
  g_assert_cmpuint (g_hash_table_size (after), ==, g_hash_table_size (before));
  g_hash_table_iter_init (&it, before);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      GBytes *b = g_hash_table_lookup (after, k);
      g_assert_nonnull (b);
      if (!g_bytes_equal (v, b))
        g_error ("%s differs after the cancels", (const char *) k);
    }
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);

  g_test_add_func ("/app/start/opens-demo-deployed", test_start_opens_demo);
  g_test_add_func ("/app/start/empty-states-teach", test_empty_states_teach);
  g_test_add_func ("/app/options/device-url-opens-socket-board", test_device_url_socket_board);
  g_test_add_func ("/app/options/ocm-none-to-best-changes-ocm-bytes", test_ocm_none_to_best);
  g_test_add_func ("/app/options/merge-off-adds-launches", test_merge_off_more_launches);
  g_test_add_func ("/app/options/etm-optimize-off-ftmp-is-sum-of-chunks", test_etm_off_sum_of_chunks);
  g_test_add_func ("/app/run/apply-and-forward-iterations", test_run_forwards);
  g_test_add_func ("/app/run/cancel-forwards-and-apply-then-same-tensors", test_cancel);

  return zw_test_app_run_and_close ();
}
