/* test-cli — xrt-run as a user runs it: output, exit codes, files written. */
#include "zw-test-util.h"
#include "report/zw-profile.h"

#include <cjson/cJSON.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>


static char *
real_json (void)
{
  char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_352x640_ZG.json", NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real sample (../shared/real) is absent");
      g_free (path);
      return NULL;
    }
  return path;
}

static void
test_info_real (void)
{
  g_autofree char *net = real_json ();
  g_auto (ZwRun) r = { 0 };

  if (net == NULL)
    return;
  zw_test_xrt_run (&r, "info", net, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "91: 88 HardOp, 1 Input, 1 Output, 1 customop::DetPostZG"));
  g_assert_nonnull (strstr (r.out, "88: 61 Conv2d, 13 Concat, 7 Add, 3 MaxPool2d, 2 Upsample, 1 Cast, 1 Reshape"));
  g_assert_nonnull (strstr (r.out, "210 (8,927,311"));
  g_assert_nonnull (strstr (r.out, "196,848"));
  g_assert_nonnull (strstr (r.out, "8,929,847"));
  g_assert_nonnull (strstr (r.out, "[1,352,640,3]"));
}

static void
test_info_json (void)
{
  g_autofree char *net = real_json ();
  g_auto (ZwRun) r = { 0 };
  cJSON *root, *ops;

  if (net == NULL)
    return;
  zw_test_xrt_run (&r, "info", net, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = cJSON_Parse (r.out);
  g_assert_nonnull (root);
  ops = cJSON_GetObjectItem (root, "ops");
  g_assert_cmpint (cJSON_GetObjectItem (ops, "total")->valueint, ==, 91);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (ops, "hardop_classes"), "Concat")->valueint, ==, 13);
  g_assert_cmpint (cJSON_GetObjectItem (root, "params_bytes")->valueint, ==, 8929847);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "params"), "instr_words")->valueint, ==, 196848);
  cJSON_Delete (root);
}

static void
test_fake_params_real (void)
{
  g_autofree char *net = real_json ();
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autofree char *raw = NULL;
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };
  GStatBuf st;

  if (net == NULL)
    return;
  dir = zw_test_tmp_dir_new ("zw-cli-XXXXXX");
  raw = g_build_filename (dir, "yolov5s_plin_352x640_ZG.raw", NULL);
  zw_test_xrt_run (&a, "fake-params", net, "-o", raw, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpint (g_stat (raw, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 8929847);
  zw_test_xrt_run (&b, "info", net, "--raw", raw, "--no-md5", NULL);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_nonnull (strstr (b.out, "loaded"));
  /* strict load: the compiler's md5 cannot match synthetic weights */
  zw_test_xrt_run (&c, "info", net, "--raw", raw, NULL);
  g_assert_cmpint (c.status, ==, 1);
  g_assert_nonnull (strstr (c.err, "md5"));
  g_assert_nonnull (strstr (c.err, raw));
  g_unlink (raw);
  g_rmdir (dir);
}

static void
test_malformed_exit_status (void)
{
  g_autofree char *list = g_test_build_filename (G_TEST_DIST, "malformed", "expected.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (list, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *path = NULL;
      g_auto (ZwRun) r = { 0 };

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], "\t", -1);
      path = g_test_build_filename (G_TEST_DIST, "malformed", fields[0], NULL);
      zw_test_xrt_run (&r, "info", path, NULL);
      if (r.status != 1 || strstr (r.err, fields[0]) == NULL || strstr (r.err, fields[1]) == NULL)
        g_error ("%s: exit %d, stderr: %s", fields[0], r.status, r.err);
      g_assert_cmpstr (r.out, ==, "");
      n++;
    }
  g_assert_cmpuint (n, >=, 30);
}

static void
test_info_in_chinese (void)
{
  g_autofree char *net = real_json ();
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;

  if (net == NULL)
    return;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "LANG", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "zh_CN", TRUE);
  /* as the README writes it: the build tree's program finds the build tree's catalogue */
  g_subprocess_launcher_unsetenv (launcher, "ZW_LOCALEDIR");
  proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("XRT_RUN"), "info", net, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "网络"));
  g_assert_nonnull (strstr (out, "硬算子"));
}

static void
test_usage_errors (void)
{
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };
  g_auto (ZwRun) d = { 0 };
  g_auto (ZwRun) e = { 0 };

  zw_test_xrt_run (&a, NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "info"));
  zw_test_xrt_run (&b, "frobnicate", NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "frobnicate"));
  zw_test_xrt_run (&c, "info", NULL);
  g_assert_cmpint (c.status, ==, 2);
  zw_test_xrt_run (&d, "info", "a.json", "--no-such-option", NULL);
  g_assert_cmpint (d.status, ==, 2);
  zw_test_xrt_run (&e, "info", "/nonexistent/net_ZG.json", NULL);
  g_assert_cmpint (e.status, ==, 1);
  g_assert_nonnull (strstr (e.err, "/nonexistent/net_ZG.json"));
}

static void
test_run_real_time_file (void)
{
  g_autofree char *net = real_json ();
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autofree char *ours = NULL, *vendor = NULL, *snap = NULL, *trace = NULL, *text = NULL;
  g_auto (ZwRun) r = { 0 };
  g_auto (ZwRun) r2 = { 0 };
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (ZwProfile) a = NULL, b = NULL;
  g_autoptr (GError) error = NULL;
  double sum = 0;
  cJSON *root;

  if (net == NULL)
    return;
  dir = zw_test_tmp_dir_new ("zw-run-XXXXXX");
  snap = g_build_filename (dir, "y.snapshot", NULL);
  zw_test_xrt_run (&r, "run", net, "--profile", "--log-dir", dir, "--save-snapshot", snap, NULL);
  g_assert_cmpint (r.status, ==, 0);
  ours = g_build_filename (dir, "yolov5s_plin_352x640_time.txt", NULL);
  vendor = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "bytetrack_BY_int8_time.txt", NULL);
  /* one parser for both */
  a = zw_profile_load (ours, warnings, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  b = zw_profile_load (vendor, warnings, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpuint (b->rows->len, ==, 6);
  g_assert_cmpuint (a->rows->len, ==, 4);   /* Input, the merged launch, DetPostZG, Output */
  g_assert_true (a->has_totals && b->has_totals && a->has_summary && b->has_summary);
  for (guint i = 0; i < a->rows->len; i++)
    sum += ((ZwProfileRow *) g_ptr_array_index (a->rows, i))->total_ms;
  g_assert_cmpfloat_with_epsilon (sum, a->total_ms, 1e-3);
  g_assert_true (((ZwProfileRow *) g_ptr_array_index (a->rows, 1))->has_io_process);
  /* the Chrome trace is JSON with one complete event per step */
  trace = g_build_filename (dir, "yolov5s_plin_352x640_trace.json", NULL);
  g_assert_true (g_file_get_contents (trace, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  {
    guint complete = 0;
    const cJSON *ev;
    cJSON_ArrayForEach (ev, cJSON_GetObjectItem (root, "traceEvents"))
      if (g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItem (ev, "ph")), "X") == 0)
        complete++;
    g_assert_cmpuint (complete, ==, 4);
  }
  cJSON_Delete (root);
  /* the snapshot restores without planning and runs */
  zw_test_xrt_run (&r2, "run", net, "--load-snapshot", snap, NULL);
  g_assert_cmpint (r2.status, ==, 0);
}

static void
test_run_toml_and_errors (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-toml-XXXXXX");
  g_autofree char *toml = g_build_filename (dir, "run.toml", NULL);
  g_autofree char *bad_input = g_build_filename (dir, "in.bin", NULL);
  g_autofree char *net = g_strdup_printf ("%s/networks/tiny_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\nmerge_hardop = false\nocmopt = 0\nlog_time = true\n"
                                          "backends = \"ZG330,mock://zg330;Host\"\nlog_path = \"%s\"\n", net, dir);
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };
  g_auto (ZwRun) d = { 0 };

  g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
  zw_test_xrt_run (&a, "run", toml, NULL);
  if (a.status != 0)
    g_error ("toml run failed: %s", a.err);
  g_assert_nonnull (strstr (a.out, "opId: "));
  g_assert_nonnull (strstr (a.out, "HardOp(Conv2d)"));   /* merge off: one step per hardop */
  g_assert_true (g_file_set_contents (bad_input, "abc", 3, NULL));
  zw_test_xrt_run (&b, "run", net, "--input", bad_input, NULL);
  g_assert_cmpint (b.status, ==, 1);
  g_assert_nonnull (strstr (b.err, bad_input));
  zw_test_xrt_run (&c, "run", net, "--ocm", "7", NULL);
  g_assert_cmpint (c.status, ==, 2);
  zw_test_xrt_run (&d, "run", net, "--dump", dir, "--dump-format", "HFB", NULL);
  g_assert_cmpint (d.status, ==, 1);
  g_assert_nonnull (strstr (d.err, "HFB"));
}

int
main (int argc, char **argv)
{
  zw_test_socket_mode_from_args (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/info/real-sample-counts", test_info_real);
  g_test_add_func ("/cli/info/json-summary", test_info_json);
  g_test_add_func ("/cli/fake-params/real-sample-exact-size", test_fake_params_real);
  g_test_add_func ("/cli/info/malformed-inputs-exit-1-naming-the-file", test_malformed_exit_status);
  g_test_add_func ("/cli/usage-errors-exit-2", test_usage_errors);
  g_test_add_func ("/cli/info/speaks-chinese-with-language-zh-cn", test_info_in_chinese);
  g_test_add_func ("/cli/run/real-sample-time-file-parses-like-the-vendor-file", test_run_real_time_file);
  g_test_add_func ("/cli/run/toml-config-and-bad-input", test_run_toml_and_errors);
  return g_test_run ();
}
