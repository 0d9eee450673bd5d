/* test-app — the zhuge-workbench application under a display (suite "display").
 *
 * Drives the window through its actions (win.*), as a user or a menu would, and checks
 * what the run history and the views then hold: the demo opens at start, every view draws,
 * options change the deployment (OCM bytes, launches, FTMP bytes), runs can be compared,
 * work can be cancelled, errors show in the banner, logs open offline, the real sample
 * opens with synthetic params, and --screenshot writes a PNG of the window. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-merge-view.h"
#include "zw-window.h"

#ifdef __SANITIZE_ADDRESS__
/* Under AddressSanitizer: fontconfig's caches and Mesa's EGL driver (which GDK probes at
 * display open) keep allocations until exit by design; those are not ours to report. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\nleak:libEGL_mesa.so\n";
}
#endif

static ZwApplication *app;
static ZwWindow *win;

/* ---- waiting: a bounded main-context loop, never a sleep ---------------------------------- */

static gboolean
wake_up (gpointer data)
{
  (void) data;
  return G_SOURCE_CONTINUE;
}

typedef gboolean (*Predicate) (gpointer data);

static gboolean
wait_for (Predicate pred, gpointer data, guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC;
  /* a periodic source so that an idle loop still comes back to check the clock */
  guint tick = g_timeout_add (50, wake_up, NULL);
  gboolean ok;

  while (!(ok = pred (data)) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  return ok;
}

static gboolean
is_idle_with_runs (gpointer data)
{
  guint n_runs = GPOINTER_TO_UINT (data);

  return !zw_window_get_busy (win) && g_list_model_get_n_items (zw_window_get_runs (win)) >= n_runs;
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
  return g_list_model_get_n_items (zw_window_get_runs (win));
}

/* Waits until the window has run @n runs in all and is idle; returns the last run. */
static ZwRun *
wait_for_run (guint n)
{
  if (!wait_for (is_idle_with_runs, GUINT_TO_POINTER (n), 120))
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

static void
on_after_paint (GdkFrameClock *clock, FrameCount *count)
{
  (void) clock;
  count->frames++;
  gtk_widget_queue_draw (GTK_WIDGET (win));
}

static gboolean
two_frames (gpointer data)
{
  return ((FrameCount *) data)->frames >= 2;
}

/* Lets the window lay out and paint what changed (rows bound in one frame size in the next). */
static void
wait_for_frames (void)
{
  FrameCount count = { 0 };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (win));
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &count);

  gtk_widget_queue_draw (GTK_WIDGET (win));
  g_assert_true (wait_for (two_frames, &count, 20));
  g_signal_handler_disconnect (clock, id);
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

static void
test_history_select_and_compare (void)
{
  g_autoptr (ZwRun) first = g_list_model_get_item (zw_window_get_runs (win), 0);
  g_autoptr (ZwRun) second = g_list_model_get_item (zw_window_get_runs (win), 1);
  g_autoptr (ZwRun) third = g_list_model_get_item (zw_window_get_runs (win), 2);
  g_autoptr (GPtrArray) marked = NULL;
  guint n = n_runs ();

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

  activate ("win.select-run", g_variant_new_uint32 (n - 1));
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

static void
test_cancel (void)
{
  guint n = n_runs ();

  /* far more forwards than the test waits for: only Cancel ends it */
  g_object_set (win, "iterations", 100000, NULL);
  activate ("win.forward", NULL);
  g_assert_true (wait_for (is_busy, NULL, 10));
  activate ("win.cancel", NULL);
  g_assert_true (wait_for (is_idle, NULL, 60));
  g_assert_cmpuint (n_runs (), ==, n);
  g_assert_null (zw_window_get_banner_message (win));
  g_object_set (win, "iterations", 1, NULL);
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
      g_assert_true (wait_for (has_banner, NULL, 30));
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
  guint n = n_runs ();

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
  activate ("win.select-run", g_variant_new_uint32 (n - 1));
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
  /* no .raw beside it: the banner offers synthetic params */
  activate ("win.open-file", g_variant_new_string (path));
  g_assert_true (wait_for (has_banner, NULL, 60));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "yolov5s_plin_352x640_ZG"));
  g_assert_cmpuint (n_runs (), ==, n);
  activate ("win.use-synthetic-params", NULL);
  run = wait_for_run (n + 1);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->network_name, ==, "yolov5s_plin_352x640");
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 91);
  assert_views_render ();
}

static void
test_screenshot_end_to_end (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-shot-XXXXXX", &error);
  g_autofree char *png = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  PixelFacts facts;

  if (exe == NULL)
    {
      g_test_skip ("ZW_APP (the built zhuge-workbench) is not set");
      return;
    }
  g_assert_no_error (error);
  png = g_build_filename (dir, "ocm.png", NULL);
  /* same display and environment as this process (GDK_DEBUG included) */
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, exe, "--screenshot", png, "--view", "ocm", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  facts = pixel_facts (texture);
  g_test_message ("screenshot %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", facts.width,
                  facts.height, facts.non_background, facts.n_colours);
  g_assert_cmpuint (facts.width, >=, 800);
  g_assert_cmpuint (facts.height, >=, 500);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 10);
  g_assert_cmpuint (facts.n_colours, >=, 16);
  g_unlink (png);
  g_rmdir (dir);
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
  g_test_add_func ("/app/views/each-renders-the-deployment", test_views_render);
  g_test_add_func ("/app/options/ocm-none-to-best-changes-ocm-bytes", test_ocm_none_to_best);
  g_test_add_func ("/app/options/merge-off-adds-launches", test_merge_off_more_launches);
  g_test_add_func ("/app/options/etm-optimize-off-ftmp-is-sum-of-chunks", test_etm_off_sum_of_chunks);
  g_test_add_func ("/app/run/apply-and-forward-iterations", test_run_forwards);
  g_test_add_func ("/app/history/select-and-compare-two", test_history_select_and_compare);
  g_test_add_func ("/app/run/cancel-stops-forwards", test_cancel);
  g_test_add_func ("/app/window/sidebar-toggle-and-shortcuts-window", test_sidebar_and_shortcuts);
  g_test_add_func ("/app/open/malformed-json-shows-banner-with-file", test_malformed_shows_banner);
  g_test_add_func ("/app/open/deploy-log-shows-offline", test_log_opens_offline);
  g_test_add_func ("/app/open/real-sample-with-synthetic-params", test_real_sample_synthetic);
  g_test_add_func ("/app/screenshot/writes-png-of-window", test_screenshot_end_to_end);
  g_test_add_func ("/app/screenshot/rejects-unknown-view", test_screenshot_rejects_unknown_view);

  status = g_test_run ();
  /* let the worker of a cancelled job hand back its result before the window goes */
  wait_for (is_idle, NULL, 30);
  gtk_window_destroy (GTK_WINDOW (win));
  g_clear_object (&app);
  return status;
}
