/* test-usability.c — what a new user tripped over, through the CLI. */
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* An empty folder opened as a dump folder says it is empty (not a riddle about formats). */
static void
test_empty_dump_folder (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-empty-XXXXXX");
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
  /* the menu it names is the workbench's (no "Run ▸" menu exists) */
  g_assert_null (strstr (diff.err, "▸"));
  g_assert_nonnull (strstr (diff.err, "Dump Tensors in the workbench's main menu"));
  g_rmdir (dir);
}

/* A folder of other files is not "empty": it is not a dump folder, and the manifest
 * expected is named (issue 37). */
static void
test_folder_of_other_files_is_not_a_dump (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-not-dump-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "notes.txt", NULL);
  g_auto (ZwRun) diff = { 0 };

  g_assert_true (g_file_set_contents (file, "not a tensor\n", -1, NULL));
  zw_test_xrt_run (&diff, "report", "diff", dir, dir, NULL);
  g_test_message ("%s", diff.err);
  g_assert_cmpint (diff.status, ==, 1);
  g_assert_null (strstr (diff.err, "is empty"));
  g_assert_nonnull (strstr (diff.err, "is not a dump folder"));
  g_assert_nonnull (strstr (diff.err, "manifest.json"));
  g_assert_nonnull (strstr (diff.err, dir));
  g_unlink (file);
  g_rmdir (dir);
}

/* A .raw whose md5 is not the compiler's names the option that skips the check. */
static void
test_md5_names_the_option (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-md5-XXXXXX");
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
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-summary-XXXXXX");
  g_auto (ZwRun) run = { 0 };

  zw_test_xrt_run (&run, "run", net, "--summary", "--profile", "--log-dir", dir, NULL);
  g_test_message ("%s", run.out);
  g_assert_cmpint (run.status, ==, 0);
  const char *facts[] = { "WEIGHT", "FTMP", "liveness lower bound", "OCM option OPTION1 (asked: BEST_SCORE)",
                          "Launches: 1", "Simulated time of the last forward",
                          /* the demo's forward has four steps: all four, slowest first */
                          "The forward's 4 steps, slowest first", "op 686",
                          "yolov5s_time.txt" };
  for (guint i = 0; i < G_N_ELEMENTS (facts); i++)
    if (strstr (run.out, facts[i]) == NULL)
      g_error ("the summary does not say \"%s\"", facts[i]);
  /* the slowest steps come before where the files went */
  g_assert_true (strstr (run.out, "slowest") < strstr (run.out, "Wrote"));
}

/* Compare (issue 16 item 5): merge on against merge off compares launch for members, not
 * "only in A" rows; a vendor time file whose op ids were renumbered matches by op kind and
 * order. */
static char *
profile_of (const char *net, const char *dir, const char *extra)
{
  g_auto (ZwRun) run = { 0 };

  zw_test_xrt_run (&run, "run", net, "--profile", "--log-dir", dir, extra, NULL);
  g_assert_cmpint (run.status, ==, 0);
  return g_build_filename (dir, "yolov5s_time.txt", NULL);
}

static void
test_compare_merge_and_renumbered (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_ZG.json", NULL);
  g_autoptr (ZwTestTmpDir) dir_a = zw_test_tmp_dir_new ("zw-cmp-a-XXXXXX");
  g_autoptr (ZwTestTmpDir) dir_b = zw_test_tmp_dir_new ("zw-cmp-b-XXXXXX");
  g_autofree char *a = profile_of (net, dir_a, NULL);
  g_autofree char *b = profile_of (net, dir_b, "--no-merge");

  g_assert_nonnull (a);
  g_autofree char *renumbered = g_build_filename (dir_b, "renumbered_time.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (ZwRun) merge = { 0 };
  g_auto (ZwRun) renum = { 0 };

  g_autofree char *a_json = g_build_filename (dir_a, "yolov5s_time.json", NULL);
  g_autofree char *b_json = g_build_filename (dir_b, "yolov5s_time.json", NULL);

  /* the JSON profiles keep each launch's merge_from (the vendor's text does not) */
  zw_test_xrt_run (&merge, "report", "compare", a_json, b_json, NULL);
  g_test_message ("%s", merge.out);
  g_assert_cmpint (merge.status, ==, 0);
  g_assert_nonnull (strstr (merge.out, "only in A: 0, only in B: 0"));
  g_assert_nonnull (strstr (merge.out, "merge on vs off"));

  /* the same file with every op id moved by 1000: matched by kind and order */
  g_assert_true (g_file_get_contents (b, &text, NULL, NULL));
  for (const char *p = text; *p;)
    {
      const char *id = strstr (p, "op_id: ");
      if (id == NULL)
        {
          g_string_append (out, p);
          break;
        }
      g_string_append_len (out, p, id - p + 7);
      p = id + 7;
      g_string_append_printf (out, "%" G_GINT64_FORMAT, g_ascii_strtoll (p, (char **) &p, 10) + 1000);
    }
  g_assert_true (g_file_set_contents (renumbered, out->str, -1, NULL));
  zw_test_xrt_run (&renum, "report", "compare", b, renumbered, NULL);
  g_test_message ("%s", renum.out);
  g_assert_cmpint (renum.status, ==, 0);
  g_assert_nonnull (strstr (renum.out, "only in A: 0, only in B: 0"));
  g_assert_nonnull (strstr (renum.out, "op ids differ"));
  zw_test_remove_tree (dir_a);
  zw_test_remove_tree (dir_b);
}

/* `xrt-run check` gives the ETM and OCM values of a report as counts after colons (two
 * counts on one line: no plural to agree with either), the whole line exact. */
static void
test_check_counts_after_colons (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-check-XXXXXX");
  g_autofree char *report = g_build_filename (dir, "r.json", NULL);
  g_autofree char *want = NULL;
  g_auto (ZwRun) plan = { 0 };
  g_auto (ZwRun) check = { 0 };

  zw_test_xrt_run (&plan, "plan", net, "--json", report, NULL);
  g_assert_cmpint (plan.status, ==, 0);
  zw_test_xrt_run (&check, "check", report, NULL);
  g_test_message ("%s", check.out);
  g_assert_cmpint (check.status, ==, 0);
  want = g_strdup_printf ("%s: OK — values in ETM: 3, in OCM: 7; no overlap of live values; FTMP 0 >= lower bound 0; "
                          "OCM peak 22528 of 2097152\n", report);
  g_assert_cmpstr (check.out, ==, want);
  g_unlink (report);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/usability/cli/empty-dump-folder-says-empty", test_empty_dump_folder);
  g_test_add_func ("/usability/cli/folder-of-other-files-is-not-a-dump-folder", test_folder_of_other_files_is_not_a_dump);
  g_test_add_func ("/usability/cli/md5-mismatch-names-no-md5", test_md5_names_the_option);
  g_test_add_func ("/usability/cli/run-summary-says-what-the-workbench-shows", test_run_summary);
  g_test_add_func ("/usability/cli/compare-merge-on-off-and-renumbered-ids", test_compare_merge_and_renumbered);
  g_test_add_func ("/usability/cli/check-counts-values-after-colons", test_check_counts_after_colons);
  return g_test_run ();
}
