/* test-cli — xrt-run as a user runs it: output, exit codes, files written. */
#include <cjson/cJSON.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  int status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs xrt-run with the NULL-terminated arguments. */
static void
xrt_run (Run *r, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  const char *exe = g_getenv ("XRT_RUN");
  const char *arg;
  va_list ap;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  va_start (ap, r);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  r->status = g_subprocess_get_exit_status (proc);
}

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
  g_auto (Run) r = { 0 };

  if (net == NULL)
    return;
  xrt_run (&r, "info", net, NULL);
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
  g_auto (Run) r = { 0 };
  cJSON *root, *ops;

  if (net == NULL)
    return;
  xrt_run (&r, "info", net, "--json", NULL);
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
  g_autofree char *dir = NULL, *raw = NULL;
  g_auto (Run) a = { 0 };
  g_auto (Run) b = { 0 };
  g_auto (Run) c = { 0 };
  GStatBuf st;

  if (net == NULL)
    return;
  dir = g_dir_make_tmp ("zw-cli-XXXXXX", NULL);
  raw = g_build_filename (dir, "yolov5s_plin_352x640_ZG.raw", NULL);
  xrt_run (&a, "fake-params", net, "-o", raw, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpint (g_stat (raw, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 8929847);
  xrt_run (&b, "info", net, "--raw", raw, "--no-md5", NULL);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_nonnull (strstr (b.out, "loaded"));
  /* strict load: the compiler's md5 cannot match synthetic weights */
  xrt_run (&c, "info", net, "--raw", raw, NULL);
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
      g_auto (Run) r = { 0 };

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], "\t", -1);
      path = g_test_build_filename (G_TEST_DIST, "malformed", fields[0], NULL);
      xrt_run (&r, "info", path, NULL);
      if (r.status != 1 || strstr (r.err, fields[0]) == NULL || strstr (r.err, fields[1]) == NULL)
        g_error ("%s: exit %d, stderr: %s", fields[0], r.status, r.err);
      g_assert_cmpstr (r.out, ==, "");
      n++;
    }
  g_assert_cmpuint (n, >=, 30);
}

static void
test_usage_errors (void)
{
  g_auto (Run) a = { 0 };
  g_auto (Run) b = { 0 };
  g_auto (Run) c = { 0 };
  g_auto (Run) d = { 0 };
  g_auto (Run) e = { 0 };

  xrt_run (&a, NULL);
  g_assert_cmpint (a.status, ==, 2);
  g_assert_nonnull (strstr (a.err, "info"));
  xrt_run (&b, "frobnicate", NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "frobnicate"));
  xrt_run (&c, "info", NULL);
  g_assert_cmpint (c.status, ==, 2);
  xrt_run (&d, "info", "a.json", "--no-such-option", NULL);
  g_assert_cmpint (d.status, ==, 2);
  xrt_run (&e, "info", "/nonexistent/net_ZG.json", NULL);
  g_assert_cmpint (e.status, ==, 1);
  g_assert_nonnull (strstr (e.err, "/nonexistent/net_ZG.json"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/info/real-sample-counts", test_info_real);
  g_test_add_func ("/cli/info/json-summary", test_info_json);
  g_test_add_func ("/cli/fake-params/real-sample-exact-size", test_fake_params_real);
  g_test_add_func ("/cli/info/malformed-inputs-exit-1-naming-the-file", test_malformed_exit_status);
  g_test_add_func ("/cli/usage-errors-exit-2", test_usage_errors);
  return g_test_run ();
}
