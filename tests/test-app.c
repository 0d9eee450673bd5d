/* test-app — the zhuge-workbench application under a display (suite "display").
 *
 * Drives the window through its actions (win.*), as a user or a menu would, and checks
 * what the run history and the views then hold: the demo opens at start, every view draws,
 * options change the deployment (OCM bytes, launches, FTMP bytes), runs can be compared,
 * work can be cancelled, errors show in the banner, logs open offline, the real sample
 * opens with synthetic params, and --screenshot writes a PNG of the window.
 * Workbench II and desktop integration: every forward's profile in Timing, two marked
 * runs in Compare, dumped tensors in Tensors, a planted byte found by Dump Diff, the
 * vendor's time file opening in Timing, exports parsed back, dark mode measured, settings
 * persisting across two application instances, and the shortcuts window listing every
 * action. Sweeps: one run from "Sweep Options…" in the background (cancellable, progress
 * row by row), a row opened in the Sweep view deployed and run with its options and what-if
 * figures (the controller, the options panel and the deploy report every view shows agree
 * with the row), and a sweep JSON of xrt-run sweep --json opened (also with --view sweep). */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zw-application.h"
#include "zw-board-view.h"
#include "zw-compare-view.h"
#include "zw-dump-diff-view.h"
#include "zw-export.h"
#include "zw-log-view.h"
#include "zw-graph-view.h"
#include "zw-memory-view.h"
#include "zw-run-history.h"
#include "zw-segment-view.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include "zw-merge-view.h"
#include "zw-options-panel.h"
#include "zw-shortcuts.h"
#include "zw-sweep-view.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"
#include "zw-views.h"
#include "zw-window.h"

static ZwApplication *app;
static ZwWindow *win;

/* ---- waiting: a bounded main-context loop, never a sleep ---------------------------------- */

static gboolean
is_idle_with_runs (gpointer data)
{
  guint n_runs = GPOINTER_TO_UINT (data);

  return !zw_window_get_busy (win) && zw_window_get_n_runs_made (win) >= n_runs;
}

static gboolean
is_idle (gpointer data)
{
  (void) data;
  return !zw_window_get_busy (win);
}

static guint
n_runs (void)
{
  return zw_window_get_n_runs_made (win);
}

static gboolean
diff_finished (gpointer data)
{
  (void) data;
  return !zw_dump_diff_view_get_running (ZW_DUMP_DIFF_VIEW (zw_window_get_view (win, "diff")));
}

/* A dump diff runs in the view's worker: waits until it is done. */
static void
wait_for_diff (void)
{
  g_assert_true (zw_test_app_wait_for (diff_finished, NULL, 120));
}

/* Waits until the window has run @n runs in all and is idle; returns the last run. */
static ZwRun *
wait_for_run (guint n)
{
  if (!zw_test_app_wait_for (is_idle_with_runs, GUINT_TO_POINTER (n), 120))
    g_error ("no run #%u after 120 s (banner: %s)", n, zw_window_get_banner_message (win));
  g_assert_cmpuint (n_runs (), ==, n);
  return zw_window_get_selected_run (win);
}

static void
activate (const char *action, GVariant *param)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), action, param));
}

typedef struct {
  guint frames;
} FrameCount;

static GtkWidget *painted;

static void
on_after_paint (GdkFrameClock *clock, FrameCount *count)
{
  (void) clock;
  count->frames++;
  gtk_widget_queue_draw (painted);
}

static gboolean
two_frames (gpointer data)
{
  return ((FrameCount *) data)->frames >= 2;
}

/* Lets the window lay out and paint what changed (rows bound in one frame size in the next). */
static void
wait_for_frames_of (ZwWindow *window)
{
  FrameCount count = { 0 };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  gulong id;

  g_assert_nonnull (clock);
  painted = GTK_WIDGET (window);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &count);
  gtk_widget_queue_draw (GTK_WIDGET (window));
  g_assert_true (zw_test_app_wait_for (two_frames, &count, 20));
  g_signal_handler_disconnect (clock, id);
}

static void
wait_for_frames (void)
{
  wait_for_frames_of (win);
}

/* ---- pixels ------------------------------------------------------------------------------------ */

typedef struct {
  guint64 non_background;
  guint n_colours;
  guint width, height;
} PixelFacts;

/* Counts the pixels that differ from the most common colour (the background). */
static PixelFacts
pixel_facts (GdkTexture *texture)
{
  PixelFacts facts = { 0 };
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) w * h);
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint32 background = 0;
  guint best = 0;

  gdk_texture_download (texture, (guchar *) pixels, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (pixels[i]))) + 1;
      g_hash_table_insert (counts, GUINT_TO_POINTER (pixels[i]), GUINT_TO_POINTER (c));
      if (c > best)
        {
          best = c;
          background = pixels[i];
        }
    }
  for (gsize i = 0; i < (gsize) w * h; i++)
    if (pixels[i] != background)
      facts.non_background++;
  facts.n_colours = g_hash_table_size (counts);
  facts.width = w;
  facts.height = h;
  return facts;
}

/* The pixels of `zhuge-workbench --screenshot PNG --view VIEW [FILE]` (@file may be NULL),
 * run with this process's display and environment (GDK_DEBUG included). */
static PixelFacts
app_screenshot (const char *exe, const char *png, const char *view, const char *file)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, exe, "--screenshot", png, "--view", view, file, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  return pixel_facts (texture);
}

/* Renders one view widget as it is on screen. */
static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, w, h);

  g_assert_cmpint (w, >, 100);
  g_assert_cmpint (h, >, 100);
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node, &bounds);
}

/* Shows each view through win.view and checks it draws the deployment. */
static void
assert_views_render (void)
{
  static const char *views[] = { "segments", "memory", "ocm", "merges" };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkWidget *view = zw_window_get_view (win, views[i]);
      g_autoptr (GdkTexture) texture = NULL;
      g_autofree char *shown = NULL;
      PixelFacts facts;

      activate ("win.view", g_variant_new_string (views[i]));
      wait_for_frames ();
      g_object_get (win, "view", &shown, NULL);
      g_assert_cmpstr (shown, ==, views[i]);
      g_assert_true (gtk_widget_get_mapped (view));
      texture = render_widget (view);
      facts = pixel_facts (texture);
      g_test_message ("%s: %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", views[i], facts.width,
                      facts.height, facts.non_background, facts.n_colours);
      /* a drawn deployment covers a good part of the plot, in several colours */
      g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 50);
      g_assert_cmpuint (facts.n_colours, >=, 4);
    }
  g_assert_cmpuint (zw_merge_view_get_n_rows (ZW_MERGE_VIEW (zw_window_get_view (win, "merges"))), ==,
                    zw_run_get_n_launches (zw_window_get_selected_run (win)));
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void
test_start_opens_demo (void)
{
  ZwRun *run = wait_for_run (1);
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
test_views_render (void)
{
  assert_views_render ();
}

static void
test_ocm_none_to_best (void)
{
  guint n = n_runs ();
  ZwRun *none, *best;
  guint64 none_bytes;

  activate ("win.ocm-option", g_variant_new_string ("none"));
  none = wait_for_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (none), ==, ZW_RUN_APPLY);
  g_assert_cmpint (zw_run_get_ocm_requested (none), ==, ZW_OCM_NONE);
  none_bytes = zw_run_get_ocm_bytes (none);
  g_assert_cmpuint (none_bytes, ==, 0);

  activate ("win.ocm-option", g_variant_new_string ("best"));
  best = wait_for_run (n + 2);
  g_assert_cmpint (zw_run_get_ocm_requested (best), ==, ZW_OCM_BEST_SCORE);
  g_assert_cmpuint (zw_run_get_ocm_bytes (best), >, none_bytes);
}

static void
test_merge_off_more_launches (void)
{
  guint n = n_runs ();
  guint merged = zw_run_get_n_launches (zw_window_get_selected_run (win));
  ZwRun *off;
  gboolean merge;

  activate ("win.merge-hardop", NULL);
  g_object_get (win, "merge-hardop", &merge, NULL);
  g_assert_false (merge);
  off = wait_for_run (n + 1);
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
  wait_for_frames ();
  activate ("win.view", g_variant_new_string ("merges"));
  wait_for_frames ();
  g_assert_cmpuint (zw_merge_view_get_n_rows (ZW_MERGE_VIEW (zw_window_get_view (win, "merges"))), ==,
                    zw_run_get_n_launches (off));

  activate ("win.merge-hardop", NULL);
  g_assert_cmpuint (zw_run_get_n_launches (wait_for_run (n + 2)), ==, merged);
}

static void
test_etm_off_sum_of_chunks (void)
{
  guint n = n_runs ();
  guint64 optimized = zw_run_get_ftmp_bytes (zw_window_get_selected_run (win));
  ZwRun *off;

  activate ("win.etm-optimize", NULL);
  off = wait_for_run (n + 1);
  g_assert_false (zw_run_get_etm_optimize (off));
  g_assert_cmpuint (zw_run_get_ftmp_bytes (off), >, optimized);
  g_assert_cmpuint (zw_run_get_ftmp_bytes (off), ==, zw_run_get_report (off)->sum_of_chunks);
  activate ("win.etm-optimize", NULL);
  g_assert_cmpuint (zw_run_get_ftmp_bytes (wait_for_run (n + 2)), ==, optimized);
}

static void
test_run_forwards (void)
{
  guint n = n_runs ();
  ZwRun *run;

  g_object_set (win, "iterations", 3, NULL);
  activate ("win.run", NULL);
  run = wait_for_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_FORWARD);
  g_assert_cmpuint (zw_run_get_iterations (run), ==, 3);
  g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
  g_object_set (win, "iterations", 1, NULL);
}

static guint
history_rows (void)
{
  return g_list_model_get_n_items (zw_window_get_runs (win));
}

static ZwRun *
history_last (void)
{
  g_autoptr (ZwRun) run = g_list_model_get_item (zw_window_get_runs (win), history_rows () - 1);
  return run;   /* the history holds it */
}

/* Options tried one after another without a forward make one history row, the latest; a
 * forward keeps its own row, and so does the apply after it (issue 37). */
static void
test_history_applies_coalesce (void)
{
  guint n = n_runs (), rows;
  gboolean etm;
  ZwRun *first, *second;

  g_object_set (win, "iterations", 1, NULL);
  activate ("win.run", NULL);
  g_assert_cmpint (zw_run_get_kind (wait_for_run (n + 1)), ==, ZW_RUN_FORWARD);
  rows = history_rows ();
  g_object_get (win, "etm-optimize", &etm, NULL);
  activate ("win.etm-optimize", NULL);
  first = wait_for_run (n + 2);
  /* an apply after a forward: a row of its own */
  g_assert_cmpuint (history_rows (), ==, rows + 1);
  g_assert_true (history_last () == first);
  g_assert_cmpint (zw_run_get_kind (first), ==, ZW_RUN_APPLY);
  g_assert_cmpint (zw_run_get_etm_optimize (first), ==, !etm);
  g_assert_cmpuint (zw_run_get_index (first), ==, rows + 1);
  activate ("win.etm-optimize", NULL);
  second = wait_for_run (n + 3);
  /* the next apply takes its place: same row count, same number, the latest options */
  g_assert_cmpuint (history_rows (), ==, rows + 1);
  g_assert_true (history_last () == second);
  g_assert_true (zw_window_get_selected_run (win) == second);
  g_assert_cmpint (zw_run_get_etm_optimize (second), ==, etm);
  g_assert_cmpuint (zw_run_get_index (second), ==, rows + 1);
  {
    g_autofree char *title = zw_run_dup_title (second);
    g_autofree char *number = g_strdup_printf ("#%u ", rows + 1);
    g_assert_true (g_str_has_prefix (title, number));
  }
  /* a forward keeps its own row after it */
  activate ("win.run", NULL);
  g_assert_cmpint (zw_run_get_kind (wait_for_run (n + 4)), ==, ZW_RUN_FORWARD);
  g_assert_cmpuint (history_rows (), ==, rows + 2);
  g_assert_cmpint (zw_run_get_kind (history_last ()), ==, ZW_RUN_FORWARD);
}

static void
test_history_select_and_compare (void)
{
  g_autoptr (ZwRun) first = NULL, second = NULL, third = NULL;
  g_autoptr (GPtrArray) marked = NULL;
  guint n;

  /* three rows at least: forwards keep a row each */
  while (history_rows () < 3)
    {
      activate ("win.run", NULL);
      wait_for_run (n_runs () + 1);
    }
  first = g_list_model_get_item (zw_window_get_runs (win), 0);
  second = g_list_model_get_item (zw_window_get_runs (win), 1);
  third = g_list_model_get_item (zw_window_get_runs (win), 2);
  n = n_runs ();

  g_assert_cmpuint (n, >=, 3);
  activate ("win.select-run", g_variant_new_uint32 (0));
  g_assert_true (zw_window_get_selected_run (win) == first);
  g_assert_true (zw_selection_get_report (zw_window_get_selection (win)) == zw_run_get_report (first));
  /* selecting shows a run; it does not deploy anything again */
  wait_for_frames ();
  g_assert_false (zw_window_get_busy (win));
  g_assert_cmpuint (n_runs (), ==, n);

  activate ("win.toggle-compare", g_variant_new_uint32 (0));
  activate ("win.toggle-compare", g_variant_new_uint32 (1));
  activate ("win.toggle-compare", g_variant_new_uint32 (2));
  marked = zw_window_get_compare_runs (win);
  /* two at most: the first mark went */
  g_assert_cmpuint (marked->len, ==, 2);
  g_assert_true (g_ptr_array_index (marked, 0) == second);
  g_assert_true (g_ptr_array_index (marked, 1) == third);
  g_assert_false (zw_run_get_compare (first));
  activate ("win.toggle-compare", g_variant_new_uint32 (1));
  g_clear_pointer (&marked, g_ptr_array_unref);
  marked = zw_window_get_compare_runs (win);
  g_assert_cmpuint (marked->len, ==, 1);
  g_assert_true (g_ptr_array_index (marked, 0) == third);

  activate ("win.select-run", g_variant_new_uint32 (history_rows () - 1));
}

static void
test_sidebar_and_shortcuts (void)
{
  gboolean visible = FALSE;
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *shortcuts = NULL;

  activate ("win.toggle-sidebar", NULL);
  g_object_get (win, "sidebar-visible", &visible, NULL);
  g_assert_false (visible);
  activate ("win.toggle-sidebar", NULL);
  g_object_get (win, "sidebar-visible", &visible, NULL);
  g_assert_true (visible);

  activate ("win.show-shortcuts", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_SHORTCUTS_WINDOW (w))
        shortcuts = w;
    }
  g_assert_nonnull (shortcuts);
  g_assert_true (gtk_window_get_transient_for (shortcuts) == GTK_WINDOW (win));
  gtk_window_destroy (shortcuts);
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
  activate ("win.dump-tensors", g_variant_new_string ("SQB"));
  ZwRun *run = wait_for_run (n_runs () + 1);
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
  guint n = n_runs ();

  g_assert_cmpuint (g_hash_table_size (before), >, 0);
  /* far more forwards than the test waits for: only Cancel ends it */
  g_object_set (win, "iterations", 100000, NULL);
  activate ("win.forward", NULL);
  g_assert_true (zw_test_app_wait_for (is_busy, NULL, 10));
  activate ("win.cancel", NULL);
  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 60));
  g_assert_cmpuint (n_runs (), ==, n);
  g_assert_null (zw_window_get_banner_message (win));
  g_object_set (win, "iterations", 1, NULL);

  /* a cancelled re-apply (merge off and back on) leaves the deployed session as it was */
  activate ("win.merge-hardop", NULL);
  if (zw_test_app_wait_for (is_busy, NULL, 10))
    activate ("win.cancel", NULL);
  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 60));
  activate ("win.dismiss-banner", NULL);
  activate ("win.merge-hardop", NULL);
  wait_for_run (n_runs () + 1);

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

static gboolean
has_banner (gpointer data)
{
  (void) data;
  return !zw_window_get_busy (win) && zw_window_get_banner_message (win) != NULL;
}

static void
test_malformed_shows_banner (void)
{
  static const char *files[] = { "not-json.json", "missing-ops.json", "hardop-missing-instr.json" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "malformed", files[i], NULL);
      guint n = n_runs ();

      activate ("win.open-file", g_variant_new_string (path));
      g_assert_true (zw_test_app_wait_for (has_banner, NULL, 30));
      g_test_message ("%s: %s", files[i], zw_window_get_banner_message (win));
      g_assert_nonnull (strstr (zw_window_get_banner_message (win), files[i]));
      g_assert_cmpuint (n_runs (), ==, n);
      activate ("win.dismiss-banner", NULL);
      g_assert_null (zw_window_get_banner_message (win));
    }
}

static void
test_log_opens_offline (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-app-XXXXXX", &error);
  g_autofree char *path = NULL;
  ZwRun *live = zw_window_get_selected_run (win);
  ZwRun *log;
  gboolean offline = FALSE;
  GListModel *recent;
  guint n = n_runs (), rows = history_rows ();

  g_assert_no_error (error);
  path = g_build_filename (dir, "yolov5s_zg330_0.json", NULL);
  g_assert_true (zw_deploy_report_save (zw_run_get_report (live), path, &error));
  activate ("win.open-file", g_variant_new_string (path));
  log = wait_for_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (log), ==, ZW_RUN_LOG);
  g_assert_cmpuint (zw_run_get_ftmp_bytes (log), ==, zw_run_get_ftmp_bytes (live));
  g_assert_cmpuint (zw_run_get_ocm_bytes (log), ==, zw_run_get_ocm_bytes (live));
  g_assert_cmpuint (zw_run_get_n_launches (log), ==, zw_run_get_n_launches (live));
  g_object_get (win, "offline", &offline, NULL);
  g_assert_true (offline);
  assert_views_render ();
  /* the log is a recent file now */
  recent = zw_application_get_recent (app);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (recent), 0), ==, path);

  /* back to the live run: the options are live again */
  activate ("win.select-run", g_variant_new_uint32 (rows - 1));
  g_object_get (win, "offline", &offline, NULL);
  g_assert_false (offline);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_real_sample_synthetic (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_352x640_ZG.json", NULL);
  ZwRun *run;
  guint n = n_runs ();

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real sample (ZW_SHARED_DIR/real) is absent");
      return;
    }
  /* no .raw beside it (issue 16 item 3): planned at once — segments, memory, OCM and merges
   * need no weights — and the banner offers synthetic params for a forward */
  activate ("win.open-file", g_variant_new_string (path));
  run = wait_for_run (n + 1);
  g_assert_true (zw_test_app_wait_for (has_banner, NULL, 60));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "yolov5s_plin_352x640_ZG"));
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PLAN);
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 91);
  g_assert_cmpuint (zw_run_get_report (run)->segments[ZW_SEGMENT_FTMP].byte_size, >, 0);
  g_assert_cmpuint (zw_run_get_report (run)->launches->len, >, 0);
  g_assert_cmpuint (zw_run_get_report (run)->values->len, >, 0);
  assert_views_render ();
  /* an option flipped re-plans (still no params): a second plan, the banner not lost to it;
   * it takes the first plan's row (issue 37: option changes do not flood the history) */
  {
    guint rows = history_rows ();
    activate ("win.apply", NULL);
    run = wait_for_run (n + 2);
    g_assert_cmpuint (history_rows (), ==, rows);
    g_assert_true (history_last () == run);
  }
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PLAN);
  /* a forward asks for params again */
  activate ("win.forward", NULL);
  g_assert_true (zw_test_app_wait_for (has_banner, NULL, 60));
  g_assert_cmpuint (n_runs (), ==, n + 2);
  activate ("win.use-synthetic-params", NULL);
  run = wait_for_run (n + 3);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->network_name, ==, "yolov5s_plin_352x640");
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 91);
  g_assert_true (zw_run_get_synthetic_params (run));
  {
    g_autofree char *title = zw_run_dup_title (run);
    g_assert_nonnull (strstr (title, "synthetic params"));
  }
  assert_views_render ();
}

/* The real Buyi compile of the same model (issue 13): it opens on mock://buyi, deploys the
 * compiler's placement, every deploy view draws it, a dump holds the ETM values and the
 * tensor view lists them, the timing view draws the forward's profile. */
static void
test_real_buyi_synthetic (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_BY.json", NULL);
  ZwRun *run;
  ZwTensorView *tensors;
  guint n = n_runs ();

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real Buyi compile (ZW_SHARED_DIR/real) is absent");
      return;
    }
  activate ("win.open-file", g_variant_new_string (path));
  g_assert_true (zw_test_app_wait_for (has_banner, NULL, 60));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "yolov5s_plin_BY"));
  /* planned without params at once (issue 16 item 3): the compiler's placement */
  g_assert_cmpuint (n_runs (), ==, n + 1);
  g_assert_cmpint (zw_run_get_kind (zw_window_get_selected_run (win)), ==, ZW_RUN_PLAN);
  g_assert_cmpuint (zw_run_get_report (zw_window_get_selected_run (win))->segments[ZW_SEGMENT_FTMP].byte_size, ==,
                    10137600);
  n++;
  activate ("win.use-synthetic-params", NULL);
  run = wait_for_run (n + 1);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, "mock://buyi");
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 89);
  g_assert_cmpuint (zw_run_get_report (run)->segments[ZW_SEGMENT_FTMP].byte_size, ==, 10137600);
  g_assert_false (zw_run_get_report (run)->merge_hardop);
  assert_views_render ();

  /* a dump on Buyi: the ETM values, the OCM ones named in the manifest */
  activate ("win.dump-tensors", g_variant_new_string ("SQB"));
  run = wait_for_run (n + 2);
  g_assert_nonnull (zw_run_get_dump_dir (run));
  tensors = ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
  g_assert_cmpuint (zw_tensor_view_get_n_values (tensors), >, 10);
  {
    static const char *views[] = { "tensors", "timing" };
    for (guint i = 0; i < G_N_ELEMENTS (views); i++)
      {
        GtkWidget *view = zw_window_get_view (win, views[i]);
        g_autoptr (GdkTexture) texture = NULL;
        PixelFacts facts;
        activate ("win.view", g_variant_new_string (views[i]));
        wait_for_frames ();
        texture = render_widget (view);
        facts = pixel_facts (texture);
        g_test_message ("Buyi %s: %" G_GUINT64_FORMAT " non-background pixels, %u colours", views[i],
                        facts.non_background, facts.n_colours);
        g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 50);
        g_assert_cmpuint (facts.n_colours, >=, 4);
      }
  }
}

static void
test_screenshot_view (const char *view_name, guint64 min_fraction)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-shot-XXXXXX", &error);
  g_autofree char *png = NULL;
  PixelFacts facts;

  if (exe == NULL)
    {
      g_test_skip ("ZW_APP (the built zhuge-workbench) is not set");
      return;
    }
  g_assert_no_error (error);
  png = g_strdup_printf ("%s/%s.png", dir, view_name);
  facts = app_screenshot (exe, png, view_name, NULL);
  g_test_message ("screenshot %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", facts.width,
                  facts.height, facts.non_background, facts.n_colours);
  g_assert_cmpuint (facts.width, >=, 800);
  g_assert_cmpuint (facts.height, >=, 500);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / min_fraction);
  g_assert_cmpuint (facts.n_colours, >=, 16);
  g_unlink (png);
  g_rmdir (dir);
}

static void
test_screenshot_end_to_end (void)
{
  test_screenshot_view ("ocm", 10);
}

/* --screenshot --view graph: the graph is laid out in the background after the run, and
 * the screenshot waits for it */
static void
test_screenshot_graph (void)
{
  test_screenshot_view ("graph", 20);
}

static void
test_screenshot_rejects_unknown_view (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;

  if (exe == NULL)
    {
      g_test_skip ("ZW_APP (the built zhuge-workbench) is not set");
      return;
    }
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error, exe, "--screenshot", "/nonexistent/x.png",
                           "--view", "flames", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait (proc, NULL, &error));
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 2);
}

/* ---- workbench II: timing, compare, tensors, dump diff, logs ------------------------------------- */

static void
assert_view_draws (const char *name)
{
  GtkWidget *view = zw_window_get_view (win, name);
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *shown = NULL;
  PixelFacts facts;

  g_assert_nonnull (view);
  activate ("win.view", g_variant_new_string (name));
  wait_for_frames ();
  g_object_get (win, "view", &shown, NULL);
  g_assert_cmpstr (shown, ==, name);
  texture = render_widget (view);
  facts = pixel_facts (texture);
  g_test_message ("%s: %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", name, facts.width,
                  facts.height, facts.non_background, facts.n_colours);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 100);
  g_assert_cmpuint (facts.n_colours, >=, 4);
}

static void
test_forward_profile_in_timing (void)
{
  guint n = n_runs ();
  ZwRun *run;
  const ZwProfile *profile;
  const ZwProfile *shown;

  activate ("win.run", NULL);
  run = wait_for_run (n + 1);
  profile = zw_run_get_profile (run);
  g_assert_nonnull (profile);
  /* one row per forward step: every hardop launch and host op */
  g_assert_cmpuint (profile->rows->len, >=, zw_run_get_n_launches (run));
  shown = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (win, "timing")));
  g_assert_nonnull (shown);
  g_assert_cmpuint (shown->rows->len, ==, profile->rows->len);
  g_assert_cmpfloat (fabs (shown->total_ms - profile->total_ms), <, 1e-9);
  assert_view_draws ("timing");
  /* the Logs view holds the run's deploy log */
  g_assert_nonnull (strstr (zw_log_view_get_text (ZW_LOG_VIEW (zw_window_get_view (win, "logs"))), "yolov5s"));
  assert_view_draws ("logs");
}

static gboolean
compare_shown (gpointer data)
{
  return zw_compare_view_get_compare (data) != NULL && zw_compare_view_get_deploy_compare (data) != NULL;
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
  activate ("win.view", g_variant_new_string ("merges"));
  wait_for_frames ();
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
  activate ("win.view", g_variant_new_string ("graph"));
  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 120));
  wait_for_frames ();
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
  activate ("win.select-back", NULL);
  g_assert_cmpint (zw_timing_view_get_state (timing)->selected_row, ==,
                   timing_row_of_op (profile, report, zw_selection_get_selected_op (sel)));
  activate ("win.view", g_variant_new_string ("segments"));
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
  activate ("win.run", NULL);
  wait_for_run (n_runs () + 1);
  n = n_runs ();
  rows = history_rows ();
  activate ("win.ocm-option", g_variant_new_string ("none"));
  wait_for_run (n + 1);
  activate ("win.run", NULL);
  wait_for_run (n + 2);
  /* unmark whatever an earlier test left marked */
  marked = zw_window_get_compare_runs (win);
  for (guint i = 0; i < marked->len; i++)
    zw_run_set_compare (g_ptr_array_index (marked, i), FALSE);
  /* the forward just made against the last before the OCM option changed */
  activate ("win.toggle-compare", g_variant_new_uint32 (rows - 1));
  activate ("win.toggle-compare", g_variant_new_uint32 (history_rows () - 1));
  /* the view follows the marks once the history has settled them (an idle) */
  g_assert_true (zw_test_app_wait_for (compare_shown, view, 10));
  cmp = zw_compare_view_get_compare (view);
  g_assert_nonnull (cmp);
  g_assert_cmpuint (cmp->rows->len, >, 0);
  g_assert_nonnull (zw_compare_view_get_deploy_compare (view));
  /* OCM none against best: the deploy facts differ in OCM bytes */
  g_assert_cmpint (zw_compare_view_get_deploy_compare (view)->ocm_delta, !=, 0);
  assert_view_draws ("compare");
  activate ("win.ocm-option", g_variant_new_string ("best"));
  wait_for_run (n + 3);
}

static gboolean
copy_folder (const char *from, const char *to)
{
  g_autoptr (GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *src = g_build_filename (from, name, NULL);
      g_autofree char *dst = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;
      g_assert_true (g_file_get_contents (src, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (dst, contents, (gssize) length, NULL));
    }
  return TRUE;
}

static void
remove_folder (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);
      g_unlink (file);
    }
  g_rmdir (path);
}

static void
test_dump_tensors_and_diff (void)
{
  guint n = n_runs ();
  ZwRun *run;
  ZwTensorView *tensors = ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
  ZwDumpDiffView *diff_view = ZW_DUMP_DIFF_VIEW (zw_window_get_view (win, "diff"));
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpManifest) manifest = NULL;
  g_autofree char *manifest_path = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *planted = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  const ZwDumpManifestEntry *ocm_entry = NULL;
  const ZwDumpDiff *diff;
  g_autofree char *shown = NULL;

  /* merge off: every hardop's outputs are dumped, OCM-resident values included */
  activate ("win.merge-hardop", NULL);
  wait_for_run (n + 1);
  activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  run = wait_for_run (n + 2);
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
  assert_view_draws ("tensors");

  /* a copy with one planted byte: the diff finds that value and coordinates (0,0,0,0) */
  copy = g_dir_make_tmp ("zw-app-diff-XXXXXX", &error);
  g_assert_no_error (error);
  copy_folder (zw_run_get_dump_dir (run), copy);
  planted = g_build_filename (copy, ocm_entry->file, NULL);
  g_assert_true (g_file_get_contents (planted, &contents, &length, NULL));
  g_assert_cmpuint (length, >=, 4);
  contents[0] ^= 0x40; /* the lowest byte of element 0's float32 */
  g_assert_true (g_file_set_contents (planted, contents, (gssize) length, NULL));
  g_assert_true (zw_window_diff_dumps (win, copy, NULL));
  wait_for_diff ();
  diff = zw_dump_diff_view_get_diff (diff_view);
  g_assert_nonnull (diff);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpuint (diff->n_diverged, ==, 1);
  g_assert_nonnull (diff->first);
  g_assert_cmpint (diff->first->v_id, ==, ocm_entry->type.v_id);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpint (diff->first->first_coords[k], ==, 0);
  assert_view_draws ("diff");

  /* a truncated file: the banner names it, the rest of the folder still loads */
  g_assert_true (g_file_set_contents (planted, contents, 3, NULL));
  g_assert_true (zw_window_open_dump (win, copy));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), ocm_entry->file));
  g_assert_cmpuint (zw_tensor_view_get_n_values (tensors), ==, manifest->entries->len - 1);
  activate ("win.dismiss-banner", NULL);
  remove_folder (copy);

  activate ("win.merge-hardop", NULL);
  wait_for_run (n + 3);
}

static GtkWidget *
other_window (void)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (l->data != (gpointer) win)
      return l->data;
  return NULL;
}

static char *
vendor_time_file (void)
{
  char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "bytetrack_BY_int8_time.txt", NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_clear_pointer (&path, g_free);
  return path;
}

static void
test_vendor_time_file_opens_timing (void)
{
  g_autofree char *path = vendor_time_file ();
  g_autoptr (GFile) file = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *shown = NULL;
  ZwWindow *other;
  const ZwProfile *profile;
  guint n_rows = 0;

  if (path == NULL)
    {
      g_test_skip ("the vendor time file (ZW_SHARED_DIR/real) is absent");
      return;
    }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  for (const char *p = contents; (p = strstr (p, "op_id:")) != NULL; p++)
    n_rows++;
  /* the command-line path: GApplication::open */
  file = g_file_new_for_path (path);
  g_application_open (G_APPLICATION (app), &file, 1, "");
  other = ZW_WINDOW (other_window ());
  g_assert_nonnull (other);
  g_object_get (other, "view", &shown, NULL);
  g_assert_cmpstr (shown, ==, "timing");
  {
    g_autofree char *canonical = g_file_get_path (file);
    g_assert_cmpstr (zw_window_get_shown_file (other), ==, canonical);
  }
  g_assert_null (zw_window_get_banner_message (other));
  profile = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (other, "timing")));
  g_assert_nonnull (profile);
  g_assert_cmpuint (profile->rows->len, ==, n_rows);
  g_assert_true (profile->has_summary);
  wait_for_frames_of (other);
  {
    g_autoptr (GdkTexture) texture = render_widget (zw_window_get_view (other, "timing"));
    PixelFacts facts = pixel_facts (texture);
    g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 100);
  }
  gtk_window_destroy (GTK_WINDOW (other));
}

static void
test_garbage_time_file_banner (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-app-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "broken_time.txt", NULL);

  g_assert_true (g_file_set_contents (path, "\x01\x02 this is no profile\n\xff\xfe\n", -1, NULL));
  activate ("win.open-file", g_variant_new_string (path));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "broken_time.txt"));
  activate ("win.dismiss-banner", NULL);
  g_unlink (path);
  g_rmdir (dir);
}

/* Random bytes (and an empty file) open as nothing: a banner names the file and every view
 * keeps what it showed — the deploy log in Logs is not replaced. */
static void
test_binary_file_leaves_views (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-app-XXXXXX", &error);
  g_autofree char *bin = g_build_filename (dir, "random.bin", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.txt", NULL);
  g_autofree char *fifo = g_build_filename (dir, "pipe.json", NULL);
  GtkWidget *logs = zw_window_get_view (win, "logs");
  g_autofree char *before = g_strdup (zw_log_view_get_text (ZW_LOG_VIEW (logs)));
  g_autofree char *shown = g_strdup (zw_window_get_shown_file (win));
  guint8 bytes[4096];
  GRand *rand = g_rand_new_with_seed (12);

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  g_assert_true (g_file_set_contents (bin, (const char *) bytes, sizeof bytes, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  /* a FIFO: refused at once, not waited on (issue 33) */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  const char *files[] = { bin, empty, fifo };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      activate ("win.open-file", g_variant_new_string (files[i]));
      g_assert_nonnull (zw_window_get_banner_message (win));
      g_test_message ("%s", zw_window_get_banner_message (win));
      g_assert_nonnull (strstr (zw_window_get_banner_message (win), files[i]));
      if (files[i] == fifo)
        g_assert_nonnull (strstr (zw_window_get_banner_message (win), "not a regular file"));
      g_assert_cmpstr (zw_log_view_get_text (ZW_LOG_VIEW (logs)), ==, before);
      g_assert_cmpstr (zw_window_get_shown_file (win), ==, shown);
      activate ("win.dismiss-banner", NULL);
    }
  g_unlink (bin);
  g_unlink (empty);
  g_unlink (fifo);
  g_rmdir (dir);
}

static void
test_screenshot_of_time_file (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autofree char *path = vendor_time_file ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *png = NULL;
  PixelFacts facts;

  if (exe == NULL || path == NULL)
    {
      g_test_skip ("ZW_APP or the vendor time file is absent");
      return;
    }
  dir = g_dir_make_tmp ("zw-shot-XXXXXX", &error);
  png = g_build_filename (dir, "timing.png", NULL);
  facts = app_screenshot (exe, png, "timing", path);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 10);
  g_unlink (png);
  g_rmdir (dir);
}

/* ---- export --------------------------------------------------------------------------------------- */

static void
svg_start (GMarkupParseContext *context, const char *element, const char **names, const char **values,
           gpointer data, GError **error)
{
  char **root = data;

  (void) context;
  (void) names;
  (void) values;
  (void) error;
  if (*root == NULL)
    *root = g_strdup (element);
}

static void
assert_export_parses (const char *dir, const char *name, const ZwProfile *profile)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;

  activate ("win.export-file", g_variant_new_string (path));
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", name, length);
  if (g_str_has_suffix (name, ".png"))
    {
      g_autoptr (GdkTexture) texture = NULL;
      g_assert_cmpmem (contents, 8, "\x89PNG\r\n\x1a\n", 8);
      texture = gdk_texture_new_from_filename (path, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), >, 100);
    }
  else if (g_str_has_suffix (name, ".svg"))
    {
      GMarkupParser parser = { .start_element = svg_start };
      g_autofree char *root = NULL;
      GMarkupParseContext *context = g_markup_parse_context_new (&parser, 0, &root, NULL);
      g_assert_true (g_markup_parse_context_parse (context, contents, (gssize) length, &error)
                     && g_markup_parse_context_end_parse (context, &error));
      g_assert_no_error (error);
      g_markup_parse_context_free (context);
      g_assert_cmpstr (root, ==, "svg");
    }
  else if (g_str_has_suffix (name, ".pdf"))
    {
      g_autofree char *tail = NULL;
      g_assert_true (g_str_has_prefix (contents, "%PDF-"));
      tail = g_strndup (contents + length - MIN (length, 16), MIN (length, 16));
      g_assert_nonnull (strstr (tail, "%%EOF"));
    }
  else if (g_str_has_suffix (name, ".csv"))
    {
      g_autoptr (GPtrArray) rows = zw_export_csv_parse (contents, path, &error);
      guint members = 0;
      g_assert_no_error (error);
      /* the table as shown: a merged launch's members (estimated) under it */
      for (guint i = 0; i < profile->rows->len; i++)
        {
          const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
          members += r->merge_from != NULL && r->merge_from->len > 1 ? r->merge_from->len : 0;
        }
      g_assert_cmpuint (rows->len, ==, profile->rows->len + members + 1);
    }
  else
    {
      cJSON *root = cJSON_ParseWithLength (contents, length);
      const cJSON *events = cJSON_GetObjectItemCaseSensitive (root, "traceEvents");
      const cJSON *e;
      guint complete = 0;
      g_assert_true (cJSON_IsArray (events));
      cJSON_ArrayForEach (e, events)
        {
          const cJSON *ph = cJSON_GetObjectItemCaseSensitive (e, "ph");
          if (cJSON_IsString (ph) && g_str_equal (ph->valuestring, "X"))
            complete++;
        }
      g_assert_cmpuint (complete, ==, profile->rows->len);
      cJSON_Delete (root);
    }
}

static void
test_export_current_view (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-export-XXXXXX", &error);
  const ZwProfile *profile;
  guint n = n_runs ();

  /* a forward: its profile is what Timing shows and the trace holds */
  activate ("win.run", NULL);
  wait_for_run (n + 1);
  profile = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (win, "timing")));
  static const char *names[] = { "timing.png", "timing.svg", "timing.pdf", "timing.csv", "trace.json" };
  const ZwShortcut *table;
  guint n_table;
  gboolean bound = FALSE;

  g_assert_nonnull (profile);
  activate ("win.view", g_variant_new_string ("timing"));
  wait_for_frames ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    assert_export_parses (dir, names[i], profile);
  activate ("win.view", g_variant_new_string ("memory"));
  assert_export_parses (dir, "memory.svg", profile);
  /* an export to a symlink is written through to its target; the link stays (issue 33) */
  {
    g_autofree char *link = g_build_filename (dir, "link.svg", NULL);
    g_autofree char *real = g_build_filename (dir, "real.svg", NULL);
    GStatBuf st;
    g_assert_cmpint (symlink ("real.svg", link), ==, 0);
    assert_export_parses (dir, "link.svg", profile);
    g_assert_cmpint (g_lstat (link, &st), ==, 0);
    g_assert_true (S_ISLNK (st.st_mode));
    g_assert_true (g_file_test (real, G_FILE_TEST_IS_REGULAR));
    g_unlink (link);
    g_unlink (real);
  }
  /* Ctrl+E is the export key */
  table = zw_shortcuts_get (&n_table);
  for (guint i = 0; i < n_table; i++)
    bound = bound || (g_str_equal (table[i].action, "win.export") && g_strcmp0 (table[i].accel, "<Control>e") == 0);
  g_assert_true (bound);

  /* two profiles dropped together are compared: the trace and a vendor-format copy */
  {
    g_autofree char *trace = g_build_filename (dir, "trace.json", NULL);
    g_autofree char *vendor = g_build_filename (dir, "copy_time.txt", NULL);
    const char *paths[] = { trace, vendor, NULL };
    const ZwProfileCompare *cmp;
    g_assert_true (zw_profile_write (profile, vendor, ZW_PROFILE_FORMAT_VENDOR, &error));
    g_assert_no_error (error);
    zw_window_open_paths (win, paths);
    g_assert_null (zw_window_get_banner_message (win));
    cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
    g_assert_nonnull (cmp);
    g_assert_cmpuint (cmp->n_matched, ==, profile->rows->len);
    g_unlink (vendor);
  }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_unlink (path);
    }
  {
    g_autofree char *path = g_build_filename (dir, "memory.svg", NULL);
    g_unlink (path);
  }
  g_rmdir (dir);
}

/* ---- the table of views ------------------------------------------------------------------------ */

/* The lines an exported file must hold for @format at @width x @height. */
static void
assert_export_file (const char *path, ZwViewFormat format, int width, int height, guint64 min_drawn)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 400);
  if (format == ZW_VIEW_FORMAT_PNG)
    {
      g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
      PixelFacts facts;

      g_assert_true (memcmp (contents, "\x89PNG\r\n\x1a\n", 8) == 0);
      g_assert_no_error (error);
      facts = pixel_facts (texture);
      g_test_message ("%s: %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", path, facts.width,
                      facts.height, facts.non_background, facts.n_colours);
      g_assert_cmpuint (facts.width, ==, width);
      g_assert_cmpuint (facts.height, ==, height);
      /* drawn: never a blank page (a view without data draws its empty-state text) */
      g_assert_cmpuint (facts.non_background, >, min_drawn);
      g_assert_cmpuint (facts.n_colours, >=, 3);
    }
  else if (format == ZW_VIEW_FORMAT_SVG)
    {
      g_autofree char *box = g_strdup_printf ("viewBox=\"0 0 %d %d\"", width, height);
      g_assert_true (g_str_has_prefix (contents, "<?xml"));
      g_assert_nonnull (strstr (contents, "<svg"));
      g_assert_nonnull (strstr (contents, box));
      g_assert_true (g_str_has_suffix (g_strchomp (contents), "</svg>"));
    }
  else
    {
      g_autofree char *box = g_strdup_printf ("/MediaBox [ 0 0 %d %d ]", width, height);
      g_assert_true (g_str_has_prefix (contents, "%PDF-"));
      /* binary streams: memmem, not the string functions */
      g_assert_nonnull (memmem (contents, len, box, strlen (box)));
      g_assert_nonnull (memmem (contents + len - MIN (len, 32), MIN (len, 32), "%%EOF", 5));
    }
}

/* One table of views: --list-views, --view, the window's pages, the shortcuts window and
 * Export all take it, and every view in it renders offscreen to PNG, SVG and PDF through
 * the one export path (its own render method). */
static void
test_views_table_lists_and_exports (void)
{
  static const char *ext[] = { "png", "svg", "pdf" };
  guint n_views, n_shortcuts, n_view_keys = 0;
  const ZwViewKind *views = zw_views_get (&n_views);
  const ZwShortcut *shortcuts = zw_shortcuts_get (&n_shortcuts);
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-views-XXXXXX", &error);
  g_autofree char *names = zw_views_dup_names ();

  g_assert_no_error (error);
  g_assert_cmpuint (n_views, ==, 13);
  /* the table: names once each, every view a ZwView that describes itself */
  for (guint i = 0; i < n_views; i++)
    {
      g_assert_true (g_type_is_a (views[i].type, ZW_TYPE_VIEW));
      g_assert_true (zw_views_lookup (views[i].name) == &views[i]);
      g_assert_nonnull (views[i].title);
      g_assert_nonnull (views[i].key_title);
      g_assert_nonnull (zw_view_data_to_string (views[i].data));
    }
  g_assert_null (zw_views_lookup ("flames"));

  /* --list-views prints the table in its order; --help's --view lists its names */
  if (exe != NULL)
    {
      const char *args[][3] = { { exe, "--list-views", NULL }, { exe, "--help", NULL } };
      for (guint a = 0; a < G_N_ELEMENTS (args); a++)
        {
          g_autoptr (GSubprocess) proc = g_subprocess_newv (args[a], G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
          g_autofree char *out = NULL;

          g_assert_no_error (error);
          g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error));
          g_assert_no_error (error);
          g_assert_true (g_subprocess_get_successful (proc));
          if (a == 0)
            {
              g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
              g_assert_cmpuint (g_strv_length (lines), ==, n_views + 1);
              for (guint i = 0; i < n_views; i++)
                {
                  g_autofree char *line = g_strdup_printf ("%s\t%s", views[i].name,
                                                           zw_view_data_to_string (views[i].data));
                  g_assert_cmpstr (lines[i], ==, line);
                }
              g_assert_cmpstr (lines[n_views], ==, "");
            }
          else
            g_assert_nonnull (strstr (out, names));
        }
    }
  else
    g_test_message ("ZW_APP is not set: the command line is not checked");

  /* the shortcuts window: one win.view line per view, with the table's key and title */
  for (guint s = 0; s < n_shortcuts; s++)
    {
      const ZwShortcut *sc = &shortcuts[s];
      gboolean found = FALSE;
      if (!g_str_equal (sc->action, "win.view"))
        continue;
      n_view_keys++;
      for (guint i = 0; i < n_views; i++)
        {
          g_autofree char *target = g_strdup_printf ("'%s'", views[i].name);
          if (g_strcmp0 (sc->target, target) != 0)
            continue;
          g_assert_cmpstr (sc->accel, ==, views[i].accel);
          g_assert_cmpstr (sc->title, ==, views[i].key_title);
          found = TRUE;
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (n_view_keys, ==, n_views);

  /* the window: a page per view; Export of each, in each format, at its size on screen */
  for (guint i = 0; i < n_views; i++)
    {
      GtkWidget *view = zw_window_get_view (win, views[i].name);
      g_autofree char *shown = NULL;
      int width, height;

      g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (view, views[i].type));
      activate ("win.view", g_variant_new_string (views[i].name));
      wait_for_frames ();
      g_object_get (win, "view", &shown, NULL);
      g_assert_cmpstr (shown, ==, views[i].name);
      width = gtk_widget_get_width (view);
      height = gtk_widget_get_height (view);
      g_assert_cmpint (width, >=, 64);
      g_assert_cmpint (height, >=, 64);
      for (guint f = 0; f < G_N_ELEMENTS (ext); f++)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s.%s", dir, views[i].name, ext[f]);
          /* the deployment and its forward are drawn in full: at least 1 % of the pixels */
          gboolean has_data = views[i].data == ZW_VIEW_DATA_REPORT || views[i].data == ZW_VIEW_DATA_PROFILE;
          g_assert_true (zw_window_export (win, path, &error));
          g_assert_no_error (error);
          assert_export_file (path, (ZwViewFormat) f, width, height,
                              has_data ? (guint64) width * height / 100 : 100);
          g_unlink (path);
        }
    }
  /* a widget that is not a view of the table has no render path */
  {
    g_autofree char *path = g_build_filename (dir, "label.png", NULL);
    GtkWidget *label = g_object_ref_sink (gtk_label_new ("x"));
    g_assert_false (zw_export_view (label, 100, 100, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_object_unref (label);
  }
  g_rmdir (dir);
}

/* ---- desktop integration -------------------------------------------------------------------------- */

static double
channel (double c)
{
  return c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * channel (c->red) + 0.7152 * channel (c->green) + 0.0722 * channel (c->blue);
}

static double
contrast (const GdkRGBA *a, const GdkRGBA *b)
{
  double la = luminance (a), lb = luminance (b);
  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* Mean relative luminance of the view as drawn on screen. */
static double
mean_luminance (GtkWidget *view)
{
  g_autoptr (GdkTexture) texture = render_widget (view);
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_new (guint8, (gsize) w * h * 4);
  double sum = 0;

  gdk_texture_download (texture, pixels, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      /* CAIRO_FORMAT_ARGB32 in memory: B G R A on little-endian */
      GdkRGBA c = { pixels[i * 4 + 2] / 255.0, pixels[i * 4 + 1] / 255.0, pixels[i * 4] / 255.0, 1 };
      sum += luminance (&c);
    }
  return sum / ((double) w * h);
}

static double
scheme_luminance (const char *scheme, const char *view_name, double *contrast_out)
{
  GtkWidget *view = zw_window_get_view (win, view_name);
  ZwViewStyle style;

  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string (scheme));
  activate ("win.view", g_variant_new_string (view_name));
  wait_for_frames ();
  zw_view_style_from_widget (&style, view);
  *contrast_out = contrast (&style.foreground, &style.background);
  return mean_luminance (view);
}

static void
test_color_scheme_dark_and_light (void)
{
  static const char *views[] = { "segments", "timing", "compare" };
  gboolean prefer_dark = FALSE;
  g_autoptr (GVariant) state = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      double light_contrast, dark_contrast;
      double light = scheme_luminance ("light", views[i], &light_contrast);
      double dark = scheme_luminance ("dark", views[i], &dark_contrast);
      g_test_message ("%s: mean luminance light %.3f dark %.3f; contrast light %.1f dark %.1f", views[i], light, dark,
                      light_contrast, dark_contrast);
      g_assert_cmpfloat (dark, <, light - 0.2);
      g_assert_cmpfloat (light_contrast, >=, 4.5);
      g_assert_cmpfloat (dark_contrast, >=, 4.5);
    }
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
  g_assert_true (prefer_dark);
  state = g_action_group_get_action_state (G_ACTION_GROUP (app), "color-scheme");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "dark");
  /* the system's preference without a portal is the start-up theme: light here */
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("system"));
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
  g_assert_false (prefer_dark);
}

static void
test_settings_persist (void)
{
  g_autoptr (GError) error = NULL;
  GSettings *settings = zw_application_get_settings (app);
  ZwApplication *second;
  GtkWidget *first_window, *second_window;
  const char *recent_path = "/tmp/zw-settings-test/yolov5s_ZG.json";
  int width = 0, height = 0;
  gboolean merge = TRUE;
  g_autofree char *ocm = NULL;

  if (settings == NULL)
    {
      g_test_skip ("the GSettings schema is not compiled (GSETTINGS_SCHEMA_DIR)");
      return;
    }
  zw_application_add_recent (app, recent_path);
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("dark"));
  /* a window the user resized and set options in, then closed */
  first_window = zw_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (first_window), 1000, 700);
  g_object_set (first_window, "merge-hardop", FALSE, "ocm-option", "option2", NULL);
  gtk_window_destroy (GTK_WINDOW (first_window));

  /* a second application instance in the same process sees all of it */
  second = zw_application_new ();
  g_application_set_flags (G_APPLICATION (second), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  /* one connection cannot export the same application object twice: no D-Bus id for it
   * (the settings schema does not depend on it) */
  g_application_set_application_id (G_APPLICATION (second), NULL);
  g_assert_true (g_application_register (G_APPLICATION (second), NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (zw_application_get_recent (second)), 0), ==,
                   recent_path);
  g_assert_cmpstr (zw_style_manager_get_color_scheme (zw_application_get_style_manager (second)), ==, "dark");
  second_window = zw_window_new (GTK_APPLICATION (second));
  gtk_window_get_default_size (GTK_WINDOW (second_window), &width, &height);
  g_assert_cmpint (width, ==, 1000);
  g_assert_cmpint (height, ==, 700);
  g_object_get (second_window, "merge-hardop", &merge, "ocm-option", &ocm, NULL);
  g_assert_false (merge);
  g_assert_cmpstr (ocm, ==, "option2");
  gtk_window_destroy (GTK_WINDOW (second_window));
  g_object_unref (second);

  /* back to the defaults for the tests that follow */
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("system"));
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "merge-hardop");
  g_settings_reset (settings, "ocm-option");
}

static void
collect_shortcuts (GtkWidget *widget, GHashTable *found)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *title = NULL;
      g_autofree char *accel = NULL;
      g_object_get (widget, "title", &title, "accelerator", &accel, NULL);
      /* titles repeat across views ("Zoom out"): the pair is what must be listed */
      g_hash_table_add (found, g_strdup_printf ("%s\x1f%s", title, accel ? accel : ""));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_shortcuts (child, found);
}

/* Every action of @type's class has an entry whose title and key the window shows. */
static void
assert_class_actions_listed (GType type, GHashTable *found, const char *only_prefix)
{
  GtkWidgetClass *klass = g_type_class_ref (type);
  const char *name;
  guint n_table;
  const ZwShortcut *table = zw_shortcuts_get (&n_table);

  GType owner;
  const GVariantType *param_type;
  const char *property;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &param_type, &property); i++)
    {
      gboolean listed = FALSE;
      /* GtkWindow's own (window.close …) are GTK's, not installed on this class */
      if (owner != type || (only_prefix != NULL && !g_str_has_prefix (name, only_prefix)))
        continue;
      for (guint k = 0; k < n_table; k++)
        if (g_str_equal (table[k].action, name))
          {
            g_autofree char *pair = g_strdup_printf ("%s\x1f%s", g_dgettext ("zhuge-workbench", table[k].title),
                                                     table[k].accel ? table[k].accel : "");
            if (!g_hash_table_contains (found, pair))
              g_error ("%s: “%s” is not in the shortcuts window", name, pair);
            listed = TRUE;
          }
      if (!listed)
        g_error ("%s is not in the shortcuts window", name);
    }
  g_type_class_unref (klass);
}

static void
test_shortcuts_list_every_action (void)
{
  g_autoptr (GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *shortcuts = NULL;
  g_auto (GStrv) app_actions = g_action_group_list_actions (G_ACTION_GROUP (app));
  guint n_table;
  const ZwShortcut *table = zw_shortcuts_get (&n_table);
  guint views = 0;

  activate ("win.show-shortcuts", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_SHORTCUTS_WINDOW (w))
        shortcuts = w;
    }
  g_assert_nonnull (shortcuts);
  collect_shortcuts (GTK_WIDGET (shortcuts), found);
  g_test_message ("%u shortcuts listed", g_hash_table_size (found));
  assert_class_actions_listed (ZW_TYPE_WINDOW, found, NULL);
  assert_class_actions_listed (ZW_TYPE_MEMORY_VIEW, found, "memory.");
  assert_class_actions_listed (ZW_TYPE_TIMING_VIEW, found, "timing.");
  assert_class_actions_listed (ZW_TYPE_LOG_VIEW, found, "log.");
  assert_class_actions_listed (ZW_TYPE_GRAPH_VIEW, found, "graph.");
  assert_class_actions_listed (ZW_TYPE_SWEEP_VIEW, found, "sweep.");
  assert_class_actions_listed (ZW_TYPE_BOARD_VIEW, found, "board.");
  for (guint i = 0; app_actions[i] != NULL; i++)
    {
      g_autofree char *full = g_strconcat ("app.", app_actions[i], NULL);
      gboolean listed = FALSE;
      for (guint k = 0; k < n_table; k++)
        listed = listed || g_str_equal (table[k].action, full);
      g_assert_true (listed);
    }
  /* Ctrl+1…9, Ctrl+0, Ctrl+- (the graph), Ctrl+= (the sweep) and Ctrl+B (the board): one per view */
  for (guint k = 0; k < n_table; k++)
    if (g_str_equal (table[k].action, "win.view"))
      views++;
  g_assert_cmpuint (views, ==, 13);
  /* none of them is one GTK keeps for itself: Ctrl+Shift+D and Ctrl+Shift+I open the
   * inspector (or its "enable the inspector?" dialog) instead of our action */
  for (guint k = 0; k < n_table; k++)
    {
      guint key;
      GdkModifierType mods;
      if (table[k].accel == NULL)
        continue;
      g_assert_true (gtk_accelerator_parse (table[k].accel, &key, &mods));
      gboolean ctrl_shift = (mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) == (GDK_CONTROL_MASK | GDK_SHIFT_MASK);
      if (ctrl_shift && (gdk_keyval_to_lower (key) == GDK_KEY_d || gdk_keyval_to_lower (key) == GDK_KEY_i))
        g_error ("%s uses %s, which GTK reserves for its inspector", table[k].action, table[k].accel);
    }
  gtk_window_destroy (shortcuts);
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
      activate ("win.merge-hardop", NULL);
      wait_for_run (n_runs () + 1);
    }
  n = n_runs ();
  activate ("win.run", NULL);
  on = wait_for_run (n + 1);
  activate ("win.merge-hardop", NULL);
  wait_for_run (n + 2);
  activate ("win.run", NULL);
  off = wait_for_run (n + 3);
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
  activate ("win.merge-hardop", NULL);
  wait_for_run (n + 4);
}

/* ---- issue 16: empty states (item 4), segments (item 8), units and names (item 9), the
 * device URL of the options (issue 18's leftover) ---------------------------------------- */

static void
test_empty_states_teach (void)
{
  guint n = n_runs ();
  const char *text;

  /* nothing dumped yet: Tensors says how, with the button */
  text = zw_window_get_empty_state (win, "tensors");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "Dump tensors"));
  /* the demo opened with a forward: Timing has times */
  g_assert_null (zw_window_get_empty_state (win, "timing"));
  /* an Apply has none: Timing says to run a forward, and its button does */
  activate ("win.apply", NULL);
  wait_for_run (n + 1);
  text = zw_window_get_empty_state (win, "timing");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "forward"));
  activate ("win.forward", NULL);
  wait_for_run (n + 2);
  g_assert_null (zw_window_get_empty_state (win, "timing"));
}

/* Physical addresses are where the board's allocator put each segment: above the board's
 * own buffers, so they differ from the logic offsets; the legend says the heights are not to
 * scale and what the lines inside a block are. */
static void
test_segments_physical_and_legend (void)
{
  ZwDeployReport *r = zw_run_get_report (zw_window_get_selected_run (win));

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      g_test_message ("%u: logic 0x%" G_GINT64_MODIFIER "x phy 0x%" G_GINT64_MODIFIER "x +%" G_GUINT64_FORMAT, t,
                      r->segments[t].logic_addr, r->segments[t].phy_addr, r->segments[t].phy_size);
      if (r->segments[t].phy_size > 0)
        g_assert_cmpuint (r->segments[t].phy_addr, >=, 76 * 1024 * 1024);
    }
  g_assert_cmpuint (r->segments[ZW_SEGMENT_WEIGHT].phy_addr, !=, r->segments[ZW_SEGMENT_WEIGHT].logic_addr);
  g_assert_cmpuint (r->segments[ZW_SEGMENT_FTMP].phy_addr, !=, r->segments[ZW_SEGMENT_FTMP].logic_addr);
  g_assert_nonnull (strstr (zw_segment_view_get_legend (), "not to scale"));
  g_assert_nonnull (strstr (zw_segment_view_get_legend (), "FTMP chunks"));
  g_assert_nonnull (strstr (zw_segment_view_get_legend (), "allocated"));
  assert_view_draws ("segments");
}

static gboolean strv_has_substring (GPtrArray *texts, const char *needle);

static void
collect_check_labels (GtkWidget *widget, GPtrArray *out)
{
  if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)) != NULL)
    g_ptr_array_add (out, g_strdup (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget))));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_check_labels (c, out);
}

static void
test_units_and_names (void)
{
  g_autoptr (GPtrArray) radios = g_ptr_array_new_with_free_func (g_free);
  const char *note;
  g_autofree char *summary = NULL;

  /* one unit per axis: 0 … 2 MiB in steps of 256 KiB all in MiB */
  for (guint64 b = 0; b <= 2 * 1024 * 1024; b += 256 * 1024)
    {
      g_autofree char *label = zw_format_axis_bytes ((double) b, 2.0 * 1024 * 1024);
      g_test_message ("%s", label);
      g_assert_true (g_str_has_suffix (label, " MiB"));
      g_assert_null (strstr (label, "KiB"));
    }
  /* an OCM option has one name: the sidebar's radio starts with what the charts and the
   * history say */
  collect_check_labels (zw_window_get_options_panel (win), radios);
  g_assert_true (strv_has_substring (radios, "Option 1 — global score"));
  /* … and the panel has a radio for every option of the table */
  for (guint i = 0; i < zw_ocm_opt_get_count (); i++)
    {
      g_autofree char *label = zw_ocm_opt_dup_long_label (zw_ocm_opt_get_nth (i));
      g_assert_true (strv_has_substring (radios, label));
    }
  summary = zw_run_dup_summary (zw_window_get_selected_run (win));
  g_assert_null (strstr (summary, "OPTION"));
  /* the merge view says what Layers, Ops and the member's "(n layers)" are */
  note = zw_merge_view_get_note (ZW_MERGE_VIEW (zw_window_get_view (win, "merges")));
  g_assert_nonnull (strstr (note, "Layers"));
  g_assert_nonnull (strstr (note, "Ops"));
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
  guint n = n_runs ();
  ZwRun *run;

  if (board == NULL)
    return;
  /* the next apply deploys on the board served by zhuge-board */
  type_device_url (board->url);
  run = wait_for_run (n + 1);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, board->url);
  /* the socket board allocates as the simulated one does */
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    g_assert_cmpuint (zw_run_get_report (run)->segments[t].phy_addr, ==,
                      zw_run_get_report (mock)->segments[t].phy_addr);
  activate ("win.forward", NULL);
  run = wait_for_run (n + 2);
  g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, board->url);
  /* a board that is not there: the banner names the URL, no run */
  bad = g_strdup_printf ("socket://zg330@127.0.0.1:%u", board->port == 1 ? 2 : 1);
  type_device_url (bad);
  g_assert_true (zw_test_app_wait_for (has_banner, NULL, 60));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), bad));
  g_assert_cmpuint (n_runs (), ==, n + 2);
  /* empty: the simulated board again */
  type_device_url ("");
  run = wait_for_run (n + 3);
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, "mock://zg330");
}

/* ---- issue 16: the run history (item 6), time profiles in it, --screenshot's params ---------- */

/* Labels under @widget that are drawn: their texts, and the tooltips of widgets with one. */
static void
collect_texts (GtkWidget *widget, const char *css_class, GPtrArray *labels, GPtrArray *tooltips)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) && (css_class == NULL || gtk_widget_has_css_class (widget, css_class)))
    g_ptr_array_add (labels, g_strdup (gtk_label_get_text (GTK_LABEL (widget))));
  if (tooltips != NULL && gtk_widget_get_tooltip_text (widget) != NULL)
    g_ptr_array_add (tooltips, g_strdup (gtk_widget_get_tooltip_text (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_texts (c, css_class, labels, tooltips);
}

static gboolean
strv_has_substring (GPtrArray *texts, const char *needle)
{
  for (guint i = 0; i < texts->len; i++)
    if (strstr (g_ptr_array_index (texts, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_history_usability (void)
{
  g_autofree char *tiny = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  GtkWidget *history = zw_window_get_history (win);
  GtkWidget *scroller = zw_run_history_get_scroller (ZW_RUN_HISTORY (history));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_autoptr (GPtrArray) headings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) tooltips = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = NULL;
  guint n = n_runs ();
  ZwRun *run;

  /* a second network after the first: its runs under a heading of their own */
  activate ("win.open-file", g_variant_new_string (tiny));
  run = wait_for_run (++n);
  g_assert_cmpstr (zw_run_get_network_name (run), ==, "tiny");
  /* a dump run says it is one */
  activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  run = wait_for_run (++n);
  title = zw_run_dup_title (run);
  g_assert_nonnull (strstr (title, "dump"));
  for (guint i = 0; i < 6; i++)
    {
      activate ("win.apply", NULL);
      wait_for_run (++n);
    }
  wait_for_frames ();
  wait_for_frames ();
  /* the newest run is in sight, and more than five rows are */
  g_test_message ("history: value %.0f page %.0f upper %.0f, height %d", gtk_adjustment_get_value (adj),
                  gtk_adjustment_get_page_size (adj), gtk_adjustment_get_upper (adj), gtk_widget_get_height (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj), >=,
                     gtk_adjustment_get_upper (adj) - 1);
  collect_texts (scroller, "heading", titles, tooltips);
  g_assert_cmpuint (titles->len, >, 5);
  {
    g_autofree char *newest = zw_run_dup_title (zw_window_get_selected_run (win));
    g_assert_true (strv_has_substring (titles, newest));
    /* the full text of a row in its tooltip: title, options, figures */
    g_assert_true (strv_has_substring (tooltips, newest));
    g_assert_true (strv_has_substring (tooltips, "FTMP"));
  }
  /* the network heading where the network changes */
  collect_texts (scroller, "caption-heading", headings, NULL);
  g_assert_true (strv_has_substring (headings, "tiny"));
  /* the tests after this one work on the demo */
  activate ("win.open-demo", NULL);
  wait_for_run (++n);
}

static void
test_profile_in_history (void)
{
  g_autofree char *path = vendor_time_file ();
  const char *title;
  guint n = n_runs (), rows = history_rows ();
  ZwRun *run;

  if (path == NULL)
    {
      g_test_skip ("the vendor time file (ZW_SHARED_DIR/real) is absent");
      return;
    }
  activate ("win.open-file", g_variant_new_string (path));
  run = wait_for_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PROFILE);
  g_assert_nonnull (zw_run_get_profile (run));
  title = gtk_window_get_title (GTK_WINDOW (win));
  g_test_message ("title: %s", title);
  g_assert_nonnull (strstr (title, "bytetrack_BY_int8_time.txt"));
  /* the tests after this one work on the demo's last run */
  activate ("win.select-run", g_variant_new_uint32 (rows - 1));
  g_assert_cmpint (zw_run_get_kind (zw_window_get_selected_run (win)), !=, ZW_RUN_PROFILE);
}

/* --screenshot of a network without its .raw says that it used synthetic params */
static void
test_screenshot_says_synthetic (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autofree char *net = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_352x640_ZG.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-shot-XXXXXX", &error);
  g_autofree char *png = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GSubprocess) proc = NULL;

  if (exe == NULL || !g_file_test (net, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("ZW_APP or the real sample is absent");
      return;
    }
  png = g_build_filename (dir, "segments.png", NULL);
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error, exe, "--screenshot", png, "--view", "segments",
                           net, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_true (g_subprocess_get_successful (proc));
  g_assert_nonnull (strstr (err, "synthetic params"));
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  g_unlink (png);
  g_rmdir (dir);
}

/* ---- sweeps (issue 17 item 3) ---------------------------------------------------------------- */

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
  guint kib, n = n_runs ();
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
  run = wait_for_run (n + 1);
  if (*row->what_if != '\0')
    {
      /* issue 37 item 5: a what-if row says it replaced the sidebar's device figures */
      const char *banner = zw_window_get_banner_message (win);
      g_assert_nonnull (banner);
      g_assert_nonnull (strstr (banner, "Applied what-if"));
      g_assert_nonnull (strstr (banner, row->what_if));
      activate ("win.dismiss-banner", NULL);
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
  g_autofree char *dir = NULL, *json = NULL, *png = NULL, *shown_view = NULL;
  g_autoptr (GError) error = NULL;
  GtkWindow *dialog;
  GtkWidget *entry, *button;
  ZwSweep *sweep;
  gint pick = -1;
  guint n, n_progress = 0;

  /* nothing swept yet: the view says how, with the button */
  g_assert_null (zw_sweep_view_get_sweep (view));
  g_assert_nonnull (zw_window_get_empty_state (win, "sweep"));

  n = n_runs ();
  activate ("win.open-file", g_variant_new_string (tiny));
  wait_for_run (++n);
  g_assert_cmpstr (zw_run_controller_get_network_path (zw_window_get_run_controller (win)), ==, tiny);

  /* a grid that does not parse: the banner names it, nothing runs */
  activate ("win.sweep-what-if", g_variant_new_string ("ocm=lots"));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "lots"));
  g_assert_false (zw_window_get_busy (win));
  activate ("win.dismiss-banner", NULL);

  /* Cancel stops a sweep: nothing shows, nothing fails */
  activate ("win.sweep-what-if", g_variant_new_string (""));
  g_assert_true (zw_window_get_busy (win));
  activate ("win.cancel", NULL);
  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 60));
  g_assert_null (zw_sweep_view_get_sweep (view));
  g_assert_null (zw_window_get_banner_message (win));

  /* Sweep Options…: the dialog runs the sweep in the background, its progress row by row
   * reaching the main loop while it runs */
  g_signal_connect (zw_window_get_run_controller (win), "notify::status", G_CALLBACK (on_sweep_status), &n_progress);
  activate ("win.sweep", NULL);
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
  g_assert_cmpuint (n_runs (), ==, n);   /* a sweep is no run of the history */
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
  wait_for_frames ();

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
  activate ("win.sweep-what-if", g_variant_new_string ("ocm=512K, 1M; icore=800M"));
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
    dir = g_dir_make_tmp ("zw-sweep-XXXXXX", &error);
    g_assert_no_error (error);
    json = g_build_filename (dir, "tiny-sweep.json", NULL);
    zw_test_xrt_run (&cli, "sweep", tiny, "--json", json, NULL);
    g_assert_cmpint (cli.status, ==, 0);
  }
  activate ("win.view", g_variant_new_string ("segments"));
  activate ("win.open-file", g_variant_new_string (json));
  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 30));
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
    PixelFacts facts;

    png = g_build_filename (dir, "sweep.png", NULL);
    facts = app_screenshot (exe, png, "sweep", json);
    g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 20);
    g_assert_cmpuint (facts.n_colours, >=, 16);
  }

  /* the options as the other tests expect them */
  base = zw_run_controller_get_base_figures (zw_window_get_run_controller (win));
  n = n_runs ();
  g_object_set (zw_window_get_options_panel (win), "ocm-kib", (guint) (base->ocm_bytes / 1024), "icore-mhz",
                base->icore_clock_hz / 1e6, NULL);
  g_object_set (win, "merge-hardop", TRUE, "etm-optimize", TRUE, "ocm-option", "best", NULL);
  wait_for_run (n + 1);
  g_unlink (png);
  g_unlink (json);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;
  GList *windows;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* the tests draw with cairo (GSK_RENDERER=cairo): GDK need not probe GL, whose driver
   * keeps allocations until exit that a sanitizer build would report as ours */
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  if (!gtk_init_check ())
    {
      g_test_message ("no display: the display suite needs one (run under xvfb-run)");
      return 77;
    }

  app = zw_application_new ();
  /* this process is its own instance, whatever else runs on the session bus */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("cannot register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_nonnull (windows);
  win = ZW_WINDOW (windows->data);

  g_test_add_func ("/app/start/opens-demo-deployed", test_start_opens_demo);
  g_test_add_func ("/app/start/empty-states-teach", test_empty_states_teach);
  g_test_add_func ("/app/views/each-renders-the-deployment", test_views_render);
  g_test_add_func ("/app/views/segments-physical-where-the-board-allocated", test_segments_physical_and_legend);
  g_test_add_func ("/app/views/one-unit-per-axis-one-name-per-option", test_units_and_names);
  g_test_add_func ("/app/options/device-url-opens-socket-board", test_device_url_socket_board);
  g_test_add_func ("/app/options/ocm-none-to-best-changes-ocm-bytes", test_ocm_none_to_best);
  g_test_add_func ("/app/options/merge-off-adds-launches", test_merge_off_more_launches);
  g_test_add_func ("/app/options/etm-optimize-off-ftmp-is-sum-of-chunks", test_etm_off_sum_of_chunks);
  g_test_add_func ("/app/run/apply-and-forward-iterations", test_run_forwards);
  g_test_add_func ("/app/history/applies-coalesce-forwards-keep-a-row", test_history_applies_coalesce);
  g_test_add_func ("/app/history/select-and-compare-two", test_history_select_and_compare);
  g_test_add_func ("/app/run/cancel-forwards-and-apply-then-same-tensors", test_cancel);
  g_test_add_func ("/app/window/sidebar-toggle-and-shortcuts-window", test_sidebar_and_shortcuts);
  g_test_add_func ("/app/open/malformed-json-shows-banner-with-file", test_malformed_shows_banner);
  g_test_add_func ("/app/open/deploy-log-shows-offline", test_log_opens_offline);
  g_test_add_func ("/app/timing/forward-records-profile-shown-in-timing", test_forward_profile_in_timing);
  g_test_add_func ("/app/timing/selection-reaches-every-view-and-back", test_timing_selection_everywhere);
  g_test_add_func ("/app/compare/two-marked-runs-side-by-side", test_compare_two_marked_runs);
  g_test_add_func ("/app/tensors/dump-merge-off-inspect-ocm-value-and-diff-planted-byte", test_dump_tensors_and_diff);
  g_test_add_func ("/app/open/vendor-time-file-opens-timing", test_vendor_time_file_opens_timing);
  g_test_add_func ("/app/open/garbage-time-file-shows-banner-with-file", test_garbage_time_file_banner);
  g_test_add_func ("/app/open/binary-file-banner-leaves-views", test_binary_file_leaves_views);
  g_test_add_func ("/app/export/current-view-png-svg-pdf-csv-trace", test_export_current_view);
  g_test_add_func ("/app/style/dark-scheme-darkens-views-and-keeps-contrast", test_color_scheme_dark_and_light);
  g_test_add_func ("/app/settings/persist-across-two-instances", test_settings_persist);
  g_test_add_func ("/app/shortcuts/window-lists-every-action", test_shortcuts_list_every_action);
  g_test_add_func ("/app/screenshot/time-file-in-timing-view", test_screenshot_of_time_file);
  g_test_add_func ("/app/compare/merge-on-off-op-for-op-swap-and-unmark-clears", test_compare_merge_swap_unmark);
  g_test_add_func ("/app/history/tooltip-newest-in-sight-dump-marked-grouped", test_history_usability);
  g_test_add_func ("/app/history/time-profile-is-a-run-and-titles-the-window", test_profile_in_history);
  g_test_add_func ("/app/screenshot/says-it-used-synthetic-params", test_screenshot_says_synthetic);
  g_test_add_func ("/app/open/real-sample-with-synthetic-params", test_real_sample_synthetic);
  g_test_add_func ("/app/screenshot/writes-png-of-window", test_screenshot_end_to_end);
  g_test_add_func ("/app/screenshot/graph-view", test_screenshot_graph);
  g_test_add_func ("/app/screenshot/rejects-unknown-view", test_screenshot_rejects_unknown_view);
  g_test_add_func ("/app/sweep/run-from-dialog-open-rows-in-every-view-and-cli-json", test_sweep_run_open_row_and_file);
  g_test_add_func ("/app/views/table-lists-and-exports-every-view", test_views_table_lists_and_exports);
  /* last (a suite of its own, run after the others): it leaves the window on a Buyi network */
  g_test_add_func ("/app/buyi/real-compile-with-synthetic-params", test_real_buyi_synthetic);

  status = g_test_run ();
  /* let the worker of a cancelled job hand back its result before the window goes */
  zw_test_app_wait_for (is_idle, NULL, 30);
  gtk_window_destroy (GTK_WINDOW (win));
  g_clear_object (&app);
  return status;
}
