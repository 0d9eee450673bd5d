/* test-app-screenshot — `zhuge-workbench --screenshot PNG --view VIEW [FILE]` (suite
 * "display"): a PNG of the window at its size with the view drawn (OCM; the graph, laid out
 * in the background first; a vendor time file in Timing), a network without its .raw says it
 * used synthetic params, an unknown view is refused with status 2. */
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

static ZwWindow *win;

static void
test_screenshot_view (const char *view_name, guint64 min_fraction)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-shot-XXXXXX");
  g_autofree char *png = NULL;
  ZwTestPixelFacts facts;

  if (exe == NULL)
    {
      g_test_skip ("ZW_APP (the built zhuge-workbench) is not set");
      return;
    }
  png = g_strdup_printf ("%s/%s.png", dir, view_name);
  facts = zw_test_app_screenshot (exe, png, view_name, NULL);
  g_test_message ("screenshot %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", facts.width,
                  facts.height, facts.non_background, facts.n_colours);
  g_assert_cmpuint (facts.width, >=, 800);
  g_assert_cmpuint (facts.height, >=, 500);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / min_fraction);
  g_assert_cmpuint (facts.n_colours, >=, 16);
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

static void
test_screenshot_of_time_file (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autofree char *png = NULL;
  ZwTestPixelFacts facts;

  if (exe == NULL || path == NULL)
    {
      g_test_skip ("ZW_APP or the vendor time file is absent");
      return;
    }
  dir = zw_test_tmp_dir_new ("zw-shot-XXXXXX");
  png = g_build_filename (dir, "timing.png", NULL);
  facts = zw_test_app_screenshot (exe, png, "timing", path);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 10);
}

/* --screenshot of a network without its .raw says that it used synthetic params */
static void
test_screenshot_says_synthetic (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autofree char *net = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_352x640_ZG.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-shot-XXXXXX");
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
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/screenshot/time-file-in-timing-view", test_screenshot_of_time_file);
  g_test_add_func ("/app/screenshot/says-it-used-synthetic-params", test_screenshot_says_synthetic);
  g_test_add_func ("/app/screenshot/writes-png-of-window", test_screenshot_end_to_end);
  g_test_add_func ("/app/screenshot/graph-view", test_screenshot_graph);
  g_test_add_func ("/app/screenshot/rejects-unknown-view", test_screenshot_rejects_unknown_view);

  return zw_test_app_run_and_close ();
}
