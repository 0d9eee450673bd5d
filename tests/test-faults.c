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
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* ---- writers and what is at the path (issue 33) ---------------------------------------------- */

/* A scratch folder the CLI writer cases run in: a time profile and a dump of the tiny demo
 * network, a buffer list. */
static char *fixture_dir;

static const char *
fixture (void)
{
  g_autofree char *net = NULL, *err = NULL;

  if (fixture_dir != NULL)
    return fixture_dir;
  net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  fixture_dir = scratch ();
  const char *args[] = { "run", net, "--profile", "--dump", "d", NULL };
  g_assert_cmpint (run_in (fixture_dir, NULL, &err, args), ==, 0);
  g_autofree char *csv = g_build_filename (fixture_dir, "b.csv", NULL);
  g_assert_true (g_file_set_contents (csv, "id,lower,upper,size\n0,0,2,10\n1,1,3,20\n", -1, NULL));
  return fixture_dir;
}

typedef struct {
  const char *name;
  const char *argv[12];   /* "@NET" the tiny network, "@OUT" the path written */
  const char *expect;     /* bytes the output holds */
} WriterCase;

static const WriterCase writers[] = {
  { "fake-params", { "fake-params", "@NET", "-o", "@OUT" }, "\xA5ICRAFT_RAW\xA5" },
  { "plan-buffers", { "plan", "--buffers", "b.csv", "-o", "@OUT" }, "\n0,0,2,10," },
  { "plan-json", { "plan", "@NET", "--json", "@OUT" }, "\"format\":\t\"zhuge-deploy-report\"" },
  { "report-profile", { "report", "profile", "tiny_time.json", "--to", "csv", "-o", "@OUT" },
    "op_id,op_type,op_name,total_ms," },
  { "report-compare-csv", { "report", "compare", "tiny_time.json", "tiny_time.json", "--csv", "@OUT" },
    "op_id,op_type,op_name,merge_from,side,a_ms,b_ms" },
  { "report-diff-json", { "report", "diff", "d", "d", "--json", "@OUT" }, "\"diverges\":\tfalse" },
  { "report-stats-heatmap", { "report", "stats", "d", "--v-id", "31", "--channel", "0", "--heatmap-csv", "@OUT" },
    "\r\n" },
  { "report-compare-compiles-json", { "report", "compare-compiles", "@NET", "@NET", "--no-forward", "--json", "@OUT" },
    "\"format\":\t\"zhuge-compile-compare\"" },
  { "run-save-snapshot", { "run", "@NET", "--save-snapshot", "@OUT" }, "\nsha256 " },
  { "sweep-csv", { "sweep", "@NET", "--csv", "@OUT" }, "index,merge_hardop,etm_optimize" },
  { "sweep-json", { "sweep", "@NET", "--json", "@OUT" }, "\"format\":\t\"zhuge-sweep\"" },
};

/* Runs @c with @out as its output path (in the fixture folder): exit 0, and its standard
 * output holds what the writer writes. */
static void
run_writer (const WriterCase *c, const char *out)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  const char *args[16] = { 0 };
  g_auto (ZwRun) run = { 0 };
  gsize n = 0;

  for (guint i = 0; c->argv[i]; i++)
    args[i] = strcmp (c->argv[i], "@NET") == 0 ? net : strcmp (c->argv[i], "@OUT") == 0 ? out : c->argv[i];
  zw_test_xrt_run_bounded (&run, fixture (), 120, args, &n);
  g_test_message ("%s -> %s: exit %d, %" G_GSIZE_FORMAT " bytes on stdout; %s", c->name, out, run.status, n, run.err);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (memmem (run.out, n, c->expect, strlen (c->expect)));
}

/* `-o /dev/stdout` (and `-`) work for every writer: the bytes reach standard output and
 * /dev/stdout is still the link it was.  (Before: each writer renamed a regular file over
 * the path — as root, over /dev/stdout itself.)  A scratch link to /dev/stdout goes first:
 * a writer that replaces links fails there, before it could touch /dev. */
static void
test_writers_to_stdout (gconstpointer data)
{
  const WriterCase *c = data;
  g_autofree char *link = g_build_filename (fixture (), "to-stdout", NULL);
  GStatBuf st;

  g_unlink (link);
  g_assert_cmpint (symlink ("/dev/stdout", link), ==, 0);
  run_writer (c, link);
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_unlink (link);

  run_writer (c, "/dev/stdout");
  g_assert_cmpint (g_lstat ("/dev/stdout", &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  run_writer (c, "-");
  g_autofree char *dash = g_build_filename (fixture (), "-", NULL);
  g_assert_false (g_file_test (dash, G_FILE_TEST_EXISTS));
}

/* A FIFO is written through (its reader gets the params), a symlink's target gets the bytes
 * and the link stays, /dev/full fails with "no space" and stays a device; a folder is
 * refused. */
static void
test_writer_special_files (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *dir = scratch ();
  g_autofree char *fifo = g_build_filename (dir, "p.raw", NULL);
  g_autofree char *link = g_build_filename (dir, "link.raw", NULL);
  g_autofree char *target = g_build_filename (dir, "target.raw", NULL);
  g_autofree char *full = g_build_filename (dir, "full.raw", NULL);
  g_autofree char *got = g_malloc (65536);
  g_auto (ZwRun) run = { 0 };
  GStatBuf st;
  ssize_t n;
  int rd;

  /* FIFO: a reader first (the writer waits for one), holding the 30 kB in the pipe */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  rd = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (rd, >=, 0);
  {
    const char *args[] = { "fake-params", net, "-o", fifo, NULL };
    zw_test_xrt_run_bounded (&run, dir, 60, args, NULL);
  }
  n = read (rd, got, 65536);
  close (rd);
  g_test_message ("FIFO: exit %d, %zd bytes read; %s", run.status, n, run.err);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (n, ==, 30180);
  g_assert_cmpmem (got, 12, "\xA5ICRAFT_RAW\xA5", 12);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  /* symlink: written through */
  g_assert_cmpint (symlink ("target.raw", link), ==, 0);
  {
    const char *args[] = { "fake-params", net, "-o", link, NULL };
    zw_test_xrt_run_bounded (&run, dir, 60, args, NULL);
  }
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpint (g_stat (target, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 30180);

  /* /dev/full: through a scratch link first (a writer that replaces would replace the
   * link, not the device), then by its name */
  if (g_lstat ("/dev/full", &st) == 0 && S_ISCHR (st.st_mode))
    {
      const char *paths[] = { full, "/dev/full" };
      g_assert_cmpint (symlink ("/dev/full", full), ==, 0);
      for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
        {
          const char *args[] = { "fake-params", net, "-o", paths[i], NULL };
          zw_test_xrt_run_bounded (&run, dir, 60, args, NULL);
          g_test_message ("%s: exit %d: %s", paths[i], run.status, run.err);
          g_assert_cmpint (run.status, ==, 1);
          g_assert_nonnull (strstr (run.err, paths[i]));
          g_assert_nonnull (strstr (run.err, g_strerror (ENOSPC)));
          g_assert_cmpint (g_lstat (paths[i], &st), ==, 0);
          g_assert_true (i == 0 ? S_ISLNK (st.st_mode) : S_ISCHR (st.st_mode));
        }
      g_assert_cmpint (g_stat ("/dev/full", &st), ==, 0);
      g_assert_true (S_ISCHR (st.st_mode));
    }

  /* a folder is refused, named */
  {
    const char *args[] = { "fake-params", net, "-o", dir, NULL };
    zw_test_xrt_run_bounded (&run, dir, 60, args, NULL);
  }
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "folder"));
  remove_tree (dir);
}

/* Every regular file under @root, relative names. */
static void
list_files (GPtrArray *out, const char *root, const char *rel)
{
  g_autofree char *path = rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child_rel = rel ? g_build_filename (rel, name, NULL) : g_strdup (name);
      g_autofree char *child = g_build_filename (root, child_rel, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        list_files (out, root, child_rel);
      else
        g_ptr_array_add (out, g_steal_pointer (&child_rel));
    }
}

/* A network named "../../zw-escaped": `run --profile --log-dir logs/a/b --log` and
 * `[run] save_snapshot = true` write every file they derive from the name inside the folder
 * they were given (logs/a/b, .icraft/logs, the current folder) — before, the profiles, the
 * trace, the deploy log and the snapshot landed two folders up. */
static void
test_derived_names_stay_in_their_folder (void)
{
  g_autofree char *src = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *src_raw = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.raw", NULL);
  g_autofree char *root = scratch ();
  g_autofree char *cwd = g_build_filename (root, "a", "b", "c", NULL);
  g_autofree char *net = g_build_filename (cwd, "evil_ZG.json", NULL);
  g_autofree char *raw = g_build_filename (cwd, "evil_ZG.raw", NULL);
  g_autofree char *toml = g_build_filename (cwd, "run.toml", NULL);
  g_autofree char *text = NULL, *bytes = NULL, *config = NULL;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_auto (ZwRun) run = { 0 };
  gsize len = 0, raw_len = 0;
  char *name;
  guint in_logs = 0, in_icraft = 0, snapshots = 0;

  g_assert_cmpint (g_mkdir_with_parents (cwd, 0755), ==, 0);
  g_assert_true (g_file_get_contents (src, &text, &len, NULL));
  name = strstr (text, "\"name\":\"tiny\"");
  g_assert_nonnull (name);
  {
    g_autofree char *evil = g_strdup_printf ("%.*s\"name\":\"../../zw-escaped\"%s", (int) (name - text), text,
                                             name + strlen ("\"name\":\"tiny\""));
    g_assert_true (g_file_set_contents (net, evil, -1, NULL));
  }
  g_assert_true (g_file_get_contents (src_raw, &bytes, &raw_len, NULL));
  g_assert_true (g_file_set_contents (raw, bytes, (gssize) raw_len, NULL));
  {
    const char *args[] = { "run", net, "--profile", "--log-dir", "logs/a/b", "--log", NULL };
    zw_test_xrt_run_bounded (&run, cwd, 120, args, NULL);
    g_test_message ("exit %d: %s%s", run.status, run.out, run.err);
    g_assert_cmpint (run.status, ==, 0);
  }
  config = g_strdup_printf ("[run]\njson = \"%s\"\nsave_snapshot = true\nbackends = \"ZG330,mock://zg330;Host\"\n", net);
  g_assert_true (g_file_set_contents (toml, config, -1, NULL));
  {
    const char *args[] = { "run", toml, NULL };
    zw_test_xrt_run_bounded (&run, cwd, 120, args, NULL);
    g_test_message ("exit %d: %s%s", run.status, run.out, run.err);
    g_assert_cmpint (run.status, ==, 0);
  }
  list_files (files, root, NULL);
  for (guint i = 0; i < files->len; i++)
    {
      const char *f = g_ptr_array_index (files, i);
      g_test_message ("wrote %s", f);
      /* nothing left the folders given: only a/b/c/… exists under the root */
      g_assert_true (g_str_has_prefix (f, "a/b/c/"));
      g_assert_null (strstr (f, "/zw-escaped"));
      if (g_str_has_prefix (f, "a/b/c/logs/"))
        {
          g_assert_true (g_str_has_prefix (f, "a/b/c/logs/a/b/"));
          in_logs++;
        }
      in_icraft += g_str_has_prefix (f, "a/b/c/.icraft/logs/");
      snapshots += g_str_has_suffix (f, ".snapshot");
    }
  g_assert_cmpuint (in_logs, ==, 4);     /* _time.txt, .json, .csv, _trace.json */
  g_assert_cmpuint (in_icraft, ==, 2);   /* the deploy log, text and JSON */
  g_assert_cmpuint (snapshots, ==, 1);
  remove_tree (root);
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
  for (guint i = 0; i < G_N_ELEMENTS (writers); i++)
    {
      g_autofree char *p = g_strdup_printf ("/faults/write/dev-stdout/%s", writers[i].name);
      g_test_add_data_func (p, &writers[i], test_writers_to_stdout);
    }
  g_test_add_func ("/faults/write/fifo-symlink-dev-full-folder", test_writer_special_files);
  g_test_add_func ("/faults/write/derived-names-stay-in-their-folder", test_derived_names_stay_in_their_folder);
  g_test_add_func ("/faults/device/launch-fails-then-next-forward-identical", test_device_launch_faults);
  g_test_add_func ("/faults/device/corrupt-read-caught-by-precheck", test_device_corrupt_read_caught_by_precheck);
  g_test_add_func ("/faults/device/bad-fault-url", test_device_fault_url_errors);
  g_test_add_func ("/faults/device/in-place-reads-same-as-copies", test_device_in_place_reads_same_as_copies);
  int rc = g_test_run ();
  if (fixture_dir)
    remove_tree (fixture_dir);
  return rc;
}
