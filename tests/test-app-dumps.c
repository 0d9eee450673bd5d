/* test-app-dumps — dumps made in the workbench can be kept and diffed (suite "display", issue
 * 37 item 3): a dump goes into a visible folder under the user's cache whose path the run's
 * tooltip gives; Ctrl+D with two runs marked in the history diffs their dumps, the header
 * naming both runs and folders; a folder opened in Tensors is the other side of a diff of
 * one folder; "Save Dump As…" copies the dump where the user says. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-dump-diff-view.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"

static ZwWindow *win;

static guint
count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
test_dumps_kept_named_and_diffed (void)
{
  ZwDumpDiffView *view = ZW_DUMP_DIFF_VIEW (zw_window_get_view (win, "diff"));
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "zhuge-workbench", "dumps", NULL);
  g_autofree char *details = NULL, *title_a = NULL, *title_b = NULL, *sides = NULL;
  g_autofree char *dir_a = NULL, *dir_b = NULL;
  g_autoptr (ZwTestTmpDir) saved = NULL;
  g_autofree char *saved_manifest = NULL;
  const ZwDumpDiff *diff;
  ZwRun *a, *b;
  guint n;
  int height_named, height_plain;

  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (1), 120));
  n = zw_test_app_n_runs ();
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  a = zw_test_app_wait_for_run (n + 1);
  dir_a = g_strdup (zw_run_get_dump_dir (a));
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  b = zw_test_app_wait_for_run (n + 2);
  dir_b = g_strdup (zw_run_get_dump_dir (b));
  g_assert_nonnull (dir_a);
  g_assert_nonnull (dir_b);
  g_assert_cmpstr (dir_a, !=, dir_b);

  /* kept in a visible folder of the user's cache, the path in the run's tooltip */
  g_test_message ("dump: %s", dir_a);
  g_assert_true (g_str_has_prefix (dir_a, cache));
  g_assert_true (g_file_test (dir_a, G_FILE_TEST_IS_DIR));
  details = zw_run_dup_details (a);
  g_assert_nonnull (strstr (details, dir_a));

  /* Ctrl+D with the two runs marked: their dumps, no dialog; the header names both */
  zw_run_set_compare (a, TRUE);
  zw_run_set_compare (b, TRUE);
  zw_dump_diff_view_set_diff (view, NULL);
  zw_test_app_activate ("win.diff-dumps", NULL);
  zw_test_app_wait_for_diff ();
  diff = zw_dump_diff_view_get_diff (view);
  g_assert_nonnull (diff);
  g_assert_cmpuint (diff->n_compared, >, 0);
  g_assert_cmpuint (diff->n_diverged, ==, 0);
  title_a = zw_run_dup_title (a);
  title_b = zw_run_dup_title (b);
  g_assert_nonnull (strstr (diff->name_a, title_a));
  g_assert_nonnull (strstr (diff->name_a, dir_a));
  g_assert_nonnull (strstr (diff->name_b, title_b));
  g_assert_nonnull (strstr (diff->name_b, dir_b));
  sides = zw_dump_diff_view_dup_sides_text (diff);
  g_test_message ("header: %s", sides);
  g_assert_nonnull (strstr (sides, title_a));
  g_assert_nonnull (strstr (sides, title_b));
  /* the naming line is drawn: one line more above the rows */
  height_named = zw_dump_diff_view_content_height (diff);
  zw_dump_diff_view_set_names (view, NULL, NULL);
  height_plain = zw_dump_diff_view_content_height (zw_dump_diff_view_get_diff (view));
  g_assert_cmpint (height_named - height_plain, ==, 18);
  g_assert_null (zw_dump_diff_view_dup_sides_text (zw_dump_diff_view_get_diff (view)));

  /* "Save Dump As…": the selected run's dump, every file, where the user says */
  saved = zw_test_tmp_dir_new ("zw-saved-dump-XXXXXX");
  g_assert_true (zw_window_save_dump (win, saved));
  g_assert_cmpuint (count_files (saved), ==, count_files (dir_b));
  saved_manifest = g_build_filename (saved, "manifest.json", NULL);
  g_assert_true (g_file_test (saved_manifest, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), saved));
  zw_test_app_activate ("win.dismiss-banner", NULL);

  /* the saved folder opened in Tensors is the other side of a one-folder diff */
  g_assert_true (zw_window_open_dump (win, saved));
  g_assert_true (zw_window_diff_dumps (win, dir_a, NULL));
  zw_test_app_wait_for_diff ();
  diff = zw_dump_diff_view_get_diff (view);
  g_assert_cmpstr (diff->name_a, !=, NULL);
  g_assert_nonnull (strstr (diff->name_a, dir_a));
  g_assert_cmpstr (diff->name_b, ==, saved);
  g_assert_cmpuint (diff->n_diverged, ==, 0);

  zw_run_set_compare (a, FALSE);
  zw_run_set_compare (b, FALSE);
}

int
main (int argc, char *argv[])
{
  g_autoptr (ZwTestTmpDir) cache = NULL;   /* removed with all the app wrote there */
  g_autofree char *dumps = NULL;
  int status;

  /* the dumps go into the user's cache: a fresh one, left empty by the window */
  cache = zw_test_tmp_dir_new ("zw-app-dumps-cache-XXXXXX");
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  win = zw_test_app_start (&argc, &argv);

  g_test_add_func ("/app-dumps/kept-visible-diffed-from-history-named-saved", test_dumps_kept_named_and_diffed);

  status = zw_test_app_run_and_close ();
  /* the window removed its dumps with it */
  dumps = g_build_filename (cache, "zhuge-workbench", "dumps", NULL);
  if (status == 0 && count_files (dumps) != 0)
    {
      g_printerr ("the window left %u dumps in %s\n", count_files (dumps), dumps);
      status = 1;
    }
  return status;
}
