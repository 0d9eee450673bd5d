/* test-faults.c — writes that fail (a full disk, no permission, a short write, a process
 * killed mid-write) end in a clear error, leave no partial file, and leave the session
 * usable: the next forward is bit-identical to one on a clean session. */
#include "zw-test-util.h"

#include "base/zw-file.h"
#include "backends/zg330/zg330-backend.h"
#include "report/zw-profile.h"
#include "xrt/xrt-session.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

static char *
scratch (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("zw-faults-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

/* Runs xrt-run in @cwd with ZW_FAULT_WRITE=@faults (NULL = none). */
static int
run_in (const char *cwd, const char *faults, char **err, const char *const *args)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                                                 | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;

  g_subprocess_launcher_set_cwd (l, cwd);
  if (faults)
    g_subprocess_launcher_setenv (l, "ZW_FAULT_WRITE", faults, TRUE);
  else
    g_subprocess_launcher_unsetenv (l, "ZW_FAULT_WRITE");
  g_ptr_array_add (argv, (gpointer) g_getenv ("XRT_RUN"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, err, &error));
  g_assert_no_error (error);
  if (g_subprocess_get_if_signaled (p))
    return 128 + g_subprocess_get_term_sig (p);
  return g_subprocess_get_exit_status (p);
}

/* Every regular file under @dir, relative paths -> contents. */
static void
collect (GHashTable *files, const char *root, const char *rel)
{
  g_autofree char *path = rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child_rel = rel ? g_build_filename (rel, name, NULL) : g_strdup (name);
      g_autofree char *child = g_build_filename (root, child_rel, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        collect (files, root, child_rel);
      else
        {
          char *contents = NULL;
          gsize len = 0;
          g_assert_true (g_file_get_contents (child, &contents, &len, NULL));
          g_hash_table_insert (files, g_strdup (child_rel), g_bytes_new_take (contents, len));
        }
    }
  if (dir)
    g_dir_close (dir);
}

/* A file left by a failed run is whole: it is one a clean run writes too; a dumped tensor
 * has the clean run's bytes, a JSON file parses, a time profile reads, a text log ends its
 * last line. (Deploy reports and profiles also carry the dev host's measured times, so
 * their bytes may differ from run to run.) */
static void
assert_whole (GHashTable *clean, const char *rel, GBytes *got)
{
  GBytes *want = g_hash_table_lookup (clean, rel);
  gsize n;
  const char *data = g_bytes_get_data (got, &n);

  if (want == NULL)
    g_error ("%s is not a file a clean run writes", rel);
  g_assert_cmpuint (n, >, 0);
  if (g_str_has_suffix (rel, ".ftmp"))
    g_assert_true (g_bytes_equal (got, want));
  else if (g_str_has_suffix (rel, ".json") || g_str_has_suffix (rel, ".snapshot"))
    {
      cJSON *j = cJSON_ParseWithLength (data, n);
      if (j == NULL)
        g_error ("%s is cut short: it does not parse", rel);
      cJSON_Delete (j);
    }
  else if (g_str_has_suffix (rel, "_time.txt") || g_str_has_suffix (rel, "_time.csv"))
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ZwProfile) p = zw_profile_parse (data, (gssize) n, rel, NULL, NULL, &error);
      g_assert_no_error (error);
      g_autoptr (ZwProfile) q = zw_profile_parse (g_bytes_get_data (want, NULL), (gssize) g_bytes_get_size (want), rel,
                                                  NULL, NULL, NULL);
      g_assert_cmpuint (p->rows->len, ==, q->rows->len);
    }
  else
    g_assert_cmpint (data[n - 1], ==, '\n');
}

/* xrt-run run with profile, log, dump and snapshot, the Nth write failing, for every N:
 * each run fails with the reason and the file named, every file it leaves is whole, and
 * once N passes the last write the run succeeds. */
static void
sweep (const char *kind, const char *reason)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  const char *args[] = { "run", net, "--profile", "--log", "--dump", "d", "--save-snapshot", "s.snapshot", NULL };
  g_autofree char *clean_dir = scratch ();
  g_autoptr (GHashTable) clean = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  g_autofree char *err = NULL;
  guint n, failures = 0;

  g_assert_cmpint (run_in (clean_dir, NULL, &err, args), ==, 0);
  collect (clean, clean_dir, NULL);
  g_assert_cmpuint (g_hash_table_size (clean), >=, 8);
  for (n = 1; n < 200; n++)
    {
      g_autofree char *dir = scratch ();
      g_autofree char *spec = g_strdup_printf ("%s@%u", kind, n);
      g_autofree char *e = NULL;
      g_autoptr (GHashTable) left = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
      int status = run_in (dir, spec, &e, args);
      GHashTableIter it;
      gpointer k, v;

      collect (left, dir, NULL);
      g_hash_table_iter_init (&it, left);
      while (g_hash_table_iter_next (&it, &k, &v))
        assert_whole (clean, k, v);
      remove_tree (dir);
      if (status == 0)
        break;
      failures++;
      g_test_message ("%s: exit %d: %s", spec, status, e);
      g_assert_cmpint (status, !=, 0);
      if (reason)
        {
          g_assert_nonnull (strstr (e, reason));
          g_assert_nonnull (strstr (e, "“"));  /* the file, named */
        }
    }
  /* every write of the run was made to fail once */
  g_assert_cmpuint (failures, ==, n - 1);
  g_assert_cmpuint (failures, >=, g_hash_table_size (clean));
  remove_tree (clean_dir);
}

static void
test_cli_no_space (void)
{
  sweep ("nospace", "No space left on device");
}

static void
test_cli_no_permission (void)
{
  sweep ("noperm", "Permission denied");
}

static void
test_cli_short_write (void)
{
  sweep ("short", "short write");
}

static void
test_cli_killed (void)
{
  sweep ("kill", NULL);
}

/* A process killed at any moment while it writes an 8.8 MB .raw leaves the file whole or
 * absent, never cut short, and no temporary file beside it. */
static void
test_killed_mid_write_leaves_whole_or_nothing (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_ZG.json", NULL);
  g_autofree char *dir = scratch ();
  g_autofree char *out = g_build_filename (dir, "y.raw", NULL);
  g_autofree char *err = NULL;
  const char *args[] = { "fake-params", net, "-o", out, NULL };
  G_GNUC_UNUSED gsize unused;
  GStatBuf st;
  gsize whole;
  guint absent = 0, complete = 0;

  g_assert_cmpint (run_in (dir, NULL, &err, args), ==, 0);
  g_assert_cmpint (g_stat (out, &st), ==, 0);
  whole = (gsize) st.st_size;
  for (guint i = 0; i < 24; i++)
    {
      g_autoptr (GError) error = NULL;
      const char *argv[] = { g_getenv ("XRT_RUN"), "fake-params", net, "-o", out, NULL };
      g_unlink (out);
      g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                                     | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
      g_assert_no_error (error);
      g_usleep (i * 4000);
      g_subprocess_force_exit (p);
      g_subprocess_wait (p, NULL, NULL);
      if (g_stat (out, &st) != 0)
        absent++;
      else
        {
          g_assert_cmpuint ((gsize) st.st_size, ==, whole);
          complete++;
        }
    }
  g_autoptr (GHashTable) left = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  collect (left, dir, NULL);
  g_test_message ("killed 24 times: %u left no file, %u a whole one; %u files in the folder", absent, complete,
                  g_hash_table_size (left));
  g_assert_cmpuint (absent + complete, ==, 24);
  /* and nothing else: no temporary file left by a kill */
  g_assert_cmpuint (g_hash_table_size (left), <=, 1);
  g_assert_true (g_hash_table_size (left) == 0 || g_hash_table_contains (left, "y.raw"));
  remove_tree (dir);
}

/* In one process: a dump that fails on a full disk fails the forward with the file named;
 * the same session then forwards again, bit-identical to a clean session's forward. */
static void
test_session_usable_after_failed_dump (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  g_autofree char *dir = scratch ();
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devices[] = { dev, NULL };

  g_assert_no_error (error);
  g_autoptr (XrtSession) clean = xrt_session_new (view, types, devices, 2, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (clean, &error));
  g_autoptr (XrtSession) sess = xrt_session_new (view, types, devices, 2, &error);
  g_assert_true (xrt_session_apply (sess, &error));

  /* one input of the right size, deterministic bytes */
  XirValue *in = g_ptr_array_index (xir_network_get_inputs (net), 0);
  g_autofree guint8 *bytes = g_malloc (in->storage_bytes);
  for (guint64 i = 0; i < in->storage_bytes; i++)
    bytes[i] = (guint8) (i * 31 + 7);
  g_autoptr (XrtTensor) t = xrt_tensor_new_host (net, in, bytes, in->storage_bytes, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) inputs = g_ptr_array_new ();
  g_ptr_array_add (inputs, t);

  g_autoptr (GPtrArray) want = xrt_session_forward (clean, inputs, &error);
  g_assert_no_error (error);

  g_assert_true (xrt_session_set_dump_outputs (sess, TRUE, dir, "SFB", &error));
  g_assert_true (zw_file_set_faults ("nospace@2", &error));
  g_autoptr (GPtrArray) none = xrt_session_forward (sess, inputs, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, dir));
  g_assert_nonnull (strstr (error->message, "No space left on device"));
  g_clear_error (&error);
  g_assert_true (zw_file_set_faults (NULL, &error));

  g_autoptr (GPtrArray) got = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      gsize na = xrt_tensor_get_size (want->pdata[i]), nb = xrt_tensor_get_size (got->pdata[i]);
      g_autofree guint8 *a = g_malloc (na), *b = g_malloc (nb);
      g_assert_cmpuint (na, ==, nb);
      g_assert_true (xrt_tensor_read (want->pdata[i], a, na, &error));
      g_assert_true (xrt_tensor_read (got->pdata[i], b, nb, &error));
      g_assert_cmpmem (a, na, b, nb);
    }
  remove_tree (dir);
}

/* A session on mock://zg330 with @url's faults, applied; NULL (and @error set) when apply fails. */
static XrtSession *
session_on (XirNetwork *net, const char *url, XrtDevice **dev_out, GError **error)
{
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, error);
  const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *dev = xrt_device_open (url, error);
  XrtDevice *devices[] = { dev, NULL };
  XrtSession *s;

  g_assert_nonnull (dev);
  *dev_out = dev;
  s = xrt_session_new (view, types, devices, 2, error);
  g_assert_nonnull (s);
  if (!xrt_session_apply (s, error))
    {
      xrt_session_unref (s);
      return NULL;
    }
  return s;
}

static GPtrArray *
seeded_inputs (XirNetwork *net)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *ins = xir_network_get_inputs (net);

  for (guint k = 0; k < ins->len; k++)
    {
      XirValue *in = ins->pdata[k];
      g_autofree guint8 *bytes = g_malloc (in->storage_bytes);
      for (guint64 i = 0; i < in->storage_bytes; i++)
        bytes[i] = (guint8) (i * 31 + 7 + k);
      g_ptr_array_add (inputs, xrt_tensor_new_host (net, in, bytes, in->storage_bytes, NULL));
    }
  return inputs;
}

static void
assert_same_outputs (GPtrArray *want, GPtrArray *got)
{
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      gsize na = xrt_tensor_get_size (want->pdata[i]), nb = xrt_tensor_get_size (got->pdata[i]);
      g_autofree guint8 *a = g_malloc (na), *b = g_malloc (nb);
      g_assert_true (xrt_tensor_read (want->pdata[i], a, na, NULL));
      g_assert_true (xrt_tensor_read (got->pdata[i], b, nb, NULL));
      g_assert_cmpmem (a, na, b, nb);
    }
}

/* The board fails a launch (or times out) in the middle of a forward: the forward fails
 * naming the URL and the operation; the same session's next forward is bit-identical to a
 * clean session's. */
static void
test_device_launch_faults (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  const char *faults[] = { "icore@1", "icore@2", "timeout@3", "reg_read@1" };
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) clean_dev = NULL;
  g_autoptr (XrtSession) clean = session_on (net, "mock://zg330", &clean_dev, &error);
  g_autoptr (GPtrArray) inputs = seeded_inputs (net);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) want = xrt_session_forward (clean, inputs, &error);
  g_assert_no_error (error);

  for (guint f = 0; f < G_N_ELEMENTS (faults); f++)
    {
      g_autofree char *url = g_strdup_printf ("mock://zg330?fault=%s", faults[f]);
      g_autoptr (XrtDevice) dev = NULL;
      g_autoptr (XrtSession) s = session_on (net, url, &dev, &error);
      g_autofree char *kind = g_strndup (faults[f], strcspn (faults[f], "@"));
      g_assert_no_error (error);
      /* forwards until the armed operation comes: exactly one fails, every other one
       * (before and after it) gives the clean outputs */
      guint failed = 0;
      for (guint n = 0; n < 4; n++)
        {
          g_autoptr (GPtrArray) got = xrt_session_forward (s, inputs, &error);
          if (got != NULL)
            {
              assert_same_outputs (want, got);
              continue;
            }
          failed++;
          g_test_message ("%s: forward %u: %s", url, n + 1, error->message);
          g_assert_true (g_error_matches (error, XRT_ERROR, strcmp (kind, "timeout") == 0 ? XRT_ERROR_TIMEOUT
                                                                                           : XRT_ERROR_DEVICE));
          g_assert_nonnull (strstr (error->message, url));
          g_assert_nonnull (strstr (error->message, strcmp (kind, "reg_read") == 0 ? "register read" : "icoreCalc"));
          g_clear_error (&error);
        }
      if (strcmp (kind, "reg_read") == 0 && failed == 0)
        g_test_message ("%s: forwards read no register", url);
      else
        g_assert_cmpuint (failed, ==, 1);
    }
}

/* A corrupted read-back is caught by precheck, which names the op; the next precheck passes. */
static void
test_device_corrupt_read_caught_by_precheck (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) s = session_on (net, "mock://zg330?fault=corrupt_read@1", &dev, &error);
  Zg330Backend *zg;

  g_assert_no_error (error);
  zg = ZG330_BACKEND (xrt_session_get_board_backend (s));
  g_assert_false (zg330_backend_precheck (zg, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "opid:"));
  g_clear_error (&error);
  g_assert_true (zg330_backend_precheck (zg, &error));
  g_assert_no_error (error);
}

/* Operands in OCM are read in place (no copy) unless the board injects corrupted reads,
 * which must count every read: a board armed for a read that never comes copies every
 * operand, and its outputs must be the same bytes. */
static void
test_device_in_place_reads_same_as_copies (void)
{
  static const char *nets[] = { "yolov5s", "mobilenetv2" };

  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autoptr (XirNetwork) net = zw_test_load_net (nets[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtDevice) dev_a = NULL, dev_b = NULL;
      g_autoptr (XrtSession) a = session_on (net, "mock://zg330", &dev_a, &error);
      g_autoptr (XrtSession) b = session_on (net, "mock://zg330?fault=corrupt_read@2000000000", &dev_b, &error);
      g_autoptr (GPtrArray) inputs = seeded_inputs (net);
      g_autoptr (GPtrArray) want = NULL, got = NULL;

      g_assert_no_error (error);
      want = xrt_session_forward (b, inputs, &error);
      g_assert_no_error (error);
      got = xrt_session_forward (a, inputs, &error);
      g_assert_no_error (error);
      assert_same_outputs (want, got);
    }
}

/* Malformed fault plans are refused naming the URL. */
static void
test_device_fault_url_errors (void)
{
  const char *bad[] = { "mock://zg330?fault=icore", "mock://zg330?fault=melt@1", "mock://zg330?fault=icore@0" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtDevice) dev = xrt_device_open (bad[i], &error);
      g_assert_null (dev);
      g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
      g_assert_nonnull (strstr (error->message, bad[i]));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/faults/write/cli-every-write-no-space", test_cli_no_space);
  g_test_add_func ("/faults/write/cli-every-write-no-permission", test_cli_no_permission);
  g_test_add_func ("/faults/write/cli-every-write-short", test_cli_short_write);
  g_test_add_func ("/faults/write/cli-every-write-killed", test_cli_killed);
  g_test_add_func ("/faults/write/killed-mid-write-whole-or-nothing", test_killed_mid_write_leaves_whole_or_nothing);
  g_test_add_func ("/faults/write/session-usable-after-failed-dump", test_session_usable_after_failed_dump);
  g_test_add_func ("/faults/device/launch-fails-then-next-forward-identical", test_device_launch_faults);
  g_test_add_func ("/faults/device/corrupt-read-caught-by-precheck", test_device_corrupt_read_caught_by_precheck);
  g_test_add_func ("/faults/device/bad-fault-url", test_device_fault_url_errors);
  g_test_add_func ("/faults/device/in-place-reads-same-as-copies", test_device_in_place_reads_same_as_copies);
  return g_test_run ();
}
