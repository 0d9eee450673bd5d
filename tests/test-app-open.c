/* test-app-open — files opened in the window (suite "display"): malformed networks, garbage
 * time files, random bytes, an empty file and a FIFO show a banner naming the file and leave
 * the views as they were; a deploy log opens offline; the vendor's time file opens in Timing
 * (GApplication::open); the real sample opens planned without params and runs with synthetic
 * ones; last, the real Buyi compile on mock://buyi: every deploy view, a dump in Tensors and
 * the forward in Timing draw it. */
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
#include <sys/stat.h>

#include "zw-log-view.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

static ZwApplication *app;
static ZwWindow *win;

static void
test_malformed_shows_banner (void)
{
  static const char *files[] = { "not-json.json", "missing-ops.json", "hardop-missing-instr.json" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "malformed", files[i], NULL);
      guint n = zw_test_app_n_runs ();

      zw_test_app_activate ("win.open-file", g_variant_new_string (path));
      g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 30));
      g_test_message ("%s: %s", files[i], zw_window_get_banner_message (win));
      g_assert_nonnull (strstr (zw_window_get_banner_message (win), files[i]));
      g_assert_cmpuint (zw_test_app_n_runs (), ==, n);
      zw_test_app_activate ("win.dismiss-banner", NULL);
      g_assert_null (zw_window_get_banner_message (win));
    }
}

static void
test_log_opens_offline (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-XXXXXX");
  g_autofree char *path = NULL;
  ZwRun *live = zw_window_get_selected_run (win);
  ZwRun *log;
  gboolean offline = FALSE;
  GListModel *recent;
  guint n = zw_test_app_n_runs (), rows = zw_test_app_history_rows ();

  g_assert_no_error (error);
  path = g_build_filename (dir, "yolov5s_zg330_0.json", NULL);
  g_assert_true (zw_deploy_report_save (zw_run_get_report (live), path, &error));
  zw_test_app_activate ("win.open-file", g_variant_new_string (path));
  log = zw_test_app_expect_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (log), ==, ZW_RUN_LOG);
  g_assert_cmpuint (zw_run_get_ftmp_bytes (log), ==, zw_run_get_ftmp_bytes (live));
  g_assert_cmpuint (zw_run_get_ocm_bytes (log), ==, zw_run_get_ocm_bytes (live));
  g_assert_cmpuint (zw_run_get_n_launches (log), ==, zw_run_get_n_launches (live));
  g_object_get (win, "offline", &offline, NULL);
  g_assert_true (offline);
  zw_test_app_assert_views_render ();
  /* the log is a recent file now */
  recent = zw_application_get_recent (app);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (recent), 0), ==, path);

  /* back to the live run: the options are live again */
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (rows - 1));
  g_object_get (win, "offline", &offline, NULL);
  g_assert_false (offline);
}

static GtkWidget *
other_window (void)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (l->data != (gpointer) win)
      return l->data;
  return NULL;
}

static void
test_vendor_time_file_opens_timing (void)
{
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
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
  zw_test_app_wait_for_frames (other);
  {
    g_autoptr (GdkTexture) texture = zw_test_app_render_widget (zw_window_get_view (other, "timing"));
    ZwTestPixelFacts facts = zw_test_app_pixel_facts (texture);
    g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 100);
  }
  gtk_window_destroy (GTK_WINDOW (other));
}

static void
test_garbage_time_file_banner (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "broken_time.txt", NULL);

  g_assert_true (g_file_set_contents (path, "\x01\x02 this is no profile\n\xff\xfe\n", -1, NULL));
  zw_test_app_activate ("win.open-file", g_variant_new_string (path));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "broken_time.txt"));
  zw_test_app_activate ("win.dismiss-banner", NULL);
}

/* Random bytes (and an empty file) open as nothing: a banner names the file and every view
 * keeps what it showed — the deploy log in Logs is not replaced. */
static void
test_binary_file_leaves_views (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-XXXXXX");
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
      zw_test_app_activate ("win.open-file", g_variant_new_string (files[i]));
      g_assert_nonnull (zw_window_get_banner_message (win));
      g_test_message ("%s", zw_window_get_banner_message (win));
      g_assert_nonnull (strstr (zw_window_get_banner_message (win), files[i]));
      if (files[i] == fifo)
        g_assert_nonnull (strstr (zw_window_get_banner_message (win), "not a regular file"));
      g_assert_cmpstr (zw_log_view_get_text (ZW_LOG_VIEW (logs)), ==, before);
      g_assert_cmpstr (zw_window_get_shown_file (win), ==, shown);
      zw_test_app_activate ("win.dismiss-banner", NULL);
    }
}

static void
test_real_sample_synthetic (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_352x640_ZG.json", NULL);
  ZwRun *run;
  guint n = zw_test_app_n_runs ();

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real sample (ZW_SHARED_DIR/real) is absent");
      return;
    }
  /* no .raw beside it (issue 16 item 3): planned at once — segments, memory, OCM and merges
   * need no weights — and the banner offers synthetic params for a forward */
  zw_test_app_activate ("win.open-file", g_variant_new_string (path));
  run = zw_test_app_expect_run (n + 1);
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 60));
  g_test_message ("%s", zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "yolov5s_plin_352x640_ZG"));
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PLAN);
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 91);
  g_assert_cmpuint (zw_run_get_report (run)->segments[ZW_SEGMENT_FTMP].byte_size, >, 0);
  g_assert_cmpuint (zw_run_get_report (run)->launches->len, >, 0);
  g_assert_cmpuint (zw_run_get_report (run)->values->len, >, 0);
  zw_test_app_assert_views_render ();
  /* an option flipped re-plans (still no params): a second plan, the banner not lost to it;
   * it takes the first plan's row (issue 37: option changes do not flood the history) */
  {
    guint rows = zw_test_app_history_rows ();
    zw_test_app_activate ("win.apply", NULL);
    run = zw_test_app_expect_run (n + 2);
    g_assert_cmpuint (zw_test_app_history_rows (), ==, rows);
    g_assert_true (zw_test_app_history_last () == run);
  }
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PLAN);
  /* a forward asks for params again */
  zw_test_app_activate ("win.forward", NULL);
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 60));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n + 2);
  zw_test_app_activate ("win.use-synthetic-params", NULL);
  run = zw_test_app_expect_run (n + 3);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->network_name, ==, "yolov5s_plin_352x640");
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 91);
  g_assert_true (zw_run_get_synthetic_params (run));
  {
    g_autofree char *title = zw_run_dup_title (run);
    g_assert_nonnull (strstr (title, "synthetic params"));
  }
  zw_test_app_assert_views_render ();
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
  guint n = zw_test_app_n_runs ();

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real Buyi compile (ZW_SHARED_DIR/real) is absent");
      return;
    }
  zw_test_app_activate ("win.open-file", g_variant_new_string (path));
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 60));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "yolov5s_plin_BY"));
  /* planned without params at once (issue 16 item 3): the compiler's placement */
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n + 1);
  g_assert_cmpint (zw_run_get_kind (zw_window_get_selected_run (win)), ==, ZW_RUN_PLAN);
  g_assert_cmpuint (zw_run_get_report (zw_window_get_selected_run (win))->segments[ZW_SEGMENT_FTMP].byte_size, ==,
                    10137600);
  n++;
  zw_test_app_activate ("win.use-synthetic-params", NULL);
  run = zw_test_app_expect_run (n + 1);
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, "mock://buyi");
  g_assert_cmpuint (zw_run_get_report (run)->n_ops, ==, 89);
  g_assert_cmpuint (zw_run_get_report (run)->segments[ZW_SEGMENT_FTMP].byte_size, ==, 10137600);
  g_assert_false (zw_run_get_report (run)->merge_hardop);
  zw_test_app_assert_views_render ();

  /* a dump on Buyi: the ETM values, the OCM ones named in the manifest */
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SQB"));
  run = zw_test_app_expect_run (n + 2);
  g_assert_nonnull (zw_run_get_dump_dir (run));
  tensors = ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
  g_assert_cmpuint (zw_tensor_view_get_n_values (tensors), >, 10);
  {
    static const char *views[] = { "tensors", "timing" };
    for (guint i = 0; i < G_N_ELEMENTS (views); i++)
      {
        GtkWidget *view = zw_window_get_view (win, views[i]);
        g_autoptr (GdkTexture) texture = NULL;
        ZwTestPixelFacts facts;
        zw_test_app_activate ("win.view", g_variant_new_string (views[i]));
        zw_test_app_wait_for_frames (NULL);
        texture = zw_test_app_render_widget (view);
        facts = zw_test_app_pixel_facts (texture);
        g_test_message ("Buyi %s: %" G_GUINT64_FORMAT " non-background pixels, %u colours", views[i],
                        facts.non_background, facts.n_colours);
        g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 50);
        g_assert_cmpuint (facts.n_colours, >=, 4);
      }
  }
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  app = zw_test_app_application ();
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/open/malformed-json-shows-banner-with-file", test_malformed_shows_banner);
  g_test_add_func ("/app/open/deploy-log-shows-offline", test_log_opens_offline);
  g_test_add_func ("/app/open/vendor-time-file-opens-timing", test_vendor_time_file_opens_timing);
  g_test_add_func ("/app/open/garbage-time-file-shows-banner-with-file", test_garbage_time_file_banner);
  g_test_add_func ("/app/open/binary-file-banner-leaves-views", test_binary_file_leaves_views);
  g_test_add_func ("/app/open/real-sample-with-synthetic-params", test_real_sample_synthetic);
  g_test_add_func ("/app/buyi/real-compile-with-synthetic-params", test_real_buyi_synthetic);

  return zw_test_app_run_and_close ();
}
