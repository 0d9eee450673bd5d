/* test-usability.c — what a new user tripped over (issue 16), through the CLI. */
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* An empty folder opened as a dump folder says it is empty (not a riddle about formats). */
static void
test_empty_dump_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-empty-XXXXXX", NULL);
  g_auto (ZwRun) diff = { 0 };
  g_auto (ZwRun) stats = { 0 };

  zw_test_xrt_run (&diff, "report", "diff", dir, dir, NULL);
  g_test_message ("%s", diff.err);
  g_assert_cmpint (diff.status, ==, 1);
  g_assert_nonnull (strstr (diff.err, "is empty"));
  g_assert_nonnull (strstr (diff.err, dir));
  g_assert_null (strstr (diff.err, "ftmpSFB"));
  zw_test_xrt_run (&stats, "report", "stats", dir, "--v-id", "3", NULL);
  g_test_message ("%s", stats.err);
  g_assert_cmpint (stats.status, ==, 1);
  g_assert_nonnull (strstr (stats.err, "no 3.ftmp here"));
  g_rmdir (dir);
}

/* A .raw whose md5 is not the compiler's names the option that skips the check. */
static void
test_md5_names_the_option (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-md5-XXXXXX", NULL);
  g_autofree char *raw = g_build_filename (dir, "t.raw", NULL);
  g_auto (ZwRun) fake = { 0 };
  g_auto (ZwRun) strict = { 0 };
  g_auto (ZwRun) relaxed = { 0 };

  zw_test_xrt_run (&fake, "fake-params", net, "-o", raw, "--seed", "5", NULL);
  g_assert_cmpint (fake.status, ==, 0);
  zw_test_xrt_run (&strict, "info", net, "--raw", raw, NULL);
  g_assert_cmpint (strict.status, ==, 1);
  g_assert_nonnull (strstr (strict.err, "--no-md5"));
  zw_test_xrt_run (&relaxed, "info", net, "--raw", raw, "--no-md5", NULL);
  g_assert_cmpint (relaxed.status, ==, 0);
  g_unlink (raw);
  g_rmdir (dir);
}

/* The headless main job says what the workbench would show first (issue 16 item 11). */
static void
test_run_summary (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_ZG.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-summary-XXXXXX", NULL);
  g_auto (ZwRun) run = { 0 };

  zw_test_xrt_run (&run, "run", net, "--summary", "--profile", "--log-dir", dir, NULL);
  g_test_message ("%s", run.out);
  g_assert_cmpint (run.status, ==, 0);
  const char *facts[] = { "WEIGHT", "FTMP", "liveness lower bound", "OCM option OPTION1 (asked: BEST_SCORE)",
                          "Launches: 1", "Simulated time of the last forward", "The five slowest steps", "op 686",
                          "yolov5s_time.txt" };
  for (guint i = 0; i < G_N_ELEMENTS (facts); i++)
    if (strstr (run.out, facts[i]) == NULL)
      g_error ("the summary does not say \"%s\"", facts[i]);
  /* the slowest steps come before where the files went */
  g_assert_true (strstr (run.out, "slowest") < strstr (run.out, "Wrote"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/usability/cli/empty-dump-folder-says-empty", test_empty_dump_folder);
  g_test_add_func ("/usability/cli/md5-mismatch-names-no-md5", test_md5_names_the_option);
  g_test_add_func ("/usability/cli/run-summary-says-what-the-workbench-shows", test_run_summary);
  return g_test_run ();
}
