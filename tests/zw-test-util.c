/* zw-test-util.c — shared by the test binaries. */
#include "zw-test-util.h"

#include "report/zw-pipeline-check.h"

#include "xrt/xrt-tensor.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "report/zw-deploy-graph.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

char *
zw_test_shared_file (const char *rel)
{
  const char *dir = g_getenv ("ZW_SHARED_DIR");
  char *path = g_build_filename (dir ? dir : ZW_SHARED_DIR, rel, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("%s is absent (../shared is not beside the checkout)", path);
      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}

/* ---- temporary folders ------------------------------------------------------------------- */

void
zw_test_remove_tree (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr (GDir) dir = NULL;
      const char *name;

      /* a folder the test made read-only: its entries cannot go otherwise */
      if ((st.st_mode & S_IRWXU) != S_IRWXU)
        g_chmod (path, st.st_mode | S_IRWXU);
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          zw_test_remove_tree (child);
        }
      if (g_rmdir (path) != 0)
        g_test_message ("cannot remove the folder %s: %s", path, g_strerror (errno));
    }
  else if (g_unlink (path) != 0)
    g_test_message ("cannot remove %s: %s", path, g_strerror (errno));
}

ZwTestTmpDir *
zw_test_tmp_dir_new (const char *tmpl)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  return dir;
}

void
zw_test_tmp_dir_free (ZwTestTmpDir *dir)
{
  if (dir == NULL)
    return;
  zw_test_remove_tree (dir);
  g_free (dir);
}

gboolean
zw_test_texts_contain (GPtrArray *texts, const char *needle)
{
  for (guint i = 0; i < texts->len; i++)
    if (strstr (g_ptr_array_index (texts, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

void
zw_test_copy_folder (const char *from, const char *to)
{
  g_autoptr (GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *src = g_build_filename (from, name, NULL);
      g_autofree char *dst = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (src, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (dst, contents, (gssize) length, NULL));
    }
}

XirNetwork *
zw_test_load_net (const char *name)
{
  g_autoptr (GError) error = NULL;
  XirNetwork *net;

  if (g_strcmp0 (name, "real") == 0)
    {
      g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
      if (path == NULL)
        return NULL;
      net = xir_network_new_from_json_file (path, &error);
      g_assert_no_error (error);
      xir_network_fake_params (net, 330);
      return net;
    }
  {
    g_autofree char *json = g_strdup_printf ("%s/networks/%s_ZG.json", g_getenv ("ZW_DATA_DIR"), name);
    g_autofree char *raw = g_strdup_printf ("%s/networks/%s_ZG.raw", g_getenv ("ZW_DATA_DIR"), name);
    net = xir_network_new_from_json_file (json, &error);
    g_assert_no_error (error);
    g_assert_true (xir_network_load_params_from_file (net, raw, &error));
    g_assert_no_error (error);
    return net;
  }
}

void
zw_run_clear (ZwRun *r)
{
  g_free (r->out);
  g_free (r->err);
}

void
zw_test_xrt_run (ZwRun *r, ...)
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
  /* the suites' second run (ZW_TEST_SOCKET): `run` of a ZG330 network on a zhuge-board */
  if (g_getenv ("ZW_TEST_SOCKET") != NULL && argv->len > 2 && strcmp (argv->pdata[1], "run") == 0
      && g_str_has_suffix (argv->pdata[2], "_ZG.json"))
    {
      gboolean has_device = FALSE;
      for (guint i = 0; i < argv->len; i++)
        has_device |= strcmp (argv->pdata[i], "--device") == 0;
      if (!has_device)
        {
          g_ptr_array_add (argv, (gpointer) "--device");
          g_ptr_array_add (argv, (gpointer) zw_test_device_url ("mock://zg330"));
        }
    }
  g_ptr_array_add (argv, NULL);
  for (guint attempt = 0;; attempt++)
    {
      g_clear_object (&proc);
      g_clear_pointer (&r->out, g_free);
      g_clear_pointer (&r->err, g_free);
      proc = g_subprocess_newv ((const char *const *) argv->pdata,
                                G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (proc, NULL, NULL, &r->out, &r->err, &error);
      g_assert_no_error (error);
      r->status = g_subprocess_get_exit_status (proc);
      /* the previous run's board session may take a moment to end */
      if (attempt >= 100 || r->err == NULL || strstr (r->err, "is busy with another client") == NULL)
        break;
      g_usleep (20000);
    }
}

cJSON *
zw_test_value_json (gint64 v_id, const char *storage, const char *scales, const char *layout, const int *shape, int rank,
      const char *mtype)
{
  cJSON *v = cJSON_CreateObject ();
  cJSON *dt = cJSON_CreateObject ();

  cJSON_AddStringToObject (v, "_type_key", "icraft::xir::Value");
  cJSON_AddStringToObject (dt, "_type_key", "icraft::xir::TensorType");
  if (scales)
    {
      cJSON *q = cJSON_CreateObject ();
      g_autofree char *s = g_strdup_printf ("@scales([axis=-1]%s)", scales);
      cJSON_AddStringToObject (q, "_type_key", "icraft::xir::QuantizedType");
      cJSON_AddStringToObject (q, "expressed_dtype", "@fp(32)");
      cJSON_AddStringToObject (q, "scale", s);
      cJSON_AddStringToObject (q, "storage_dtype", storage);
      cJSON_AddItemToObject (q, "zero_points", cJSON_CreateArray ());
      cJSON_AddItemToObject (dt, "element_dtype", q);
    }
  else
    cJSON_AddStringToObject (dt, "element_dtype", storage);
  {
    g_autofree char *l = g_strdup_printf ("@layout(%s)", layout);
    cJSON_AddStringToObject (dt, "layout", l);
  }
  cJSON_AddItemToObject (dt, "merged_distrs", cJSON_CreateArray ());
  cJSON_AddItemToObject (dt, "shape", cJSON_CreateIntArray (shape, rank));
  cJSON_AddItemToObject (v, "dtype", dt);
  cJSON_AddStringToObject (v, "mtype", mtype);
  cJSON_AddStringToObject (v, "name", "");
  cJSON_AddItemToObject (v, "tags", cJSON_CreateObject ());
  cJSON_AddNumberToObject (v, "v_id", (double) v_id);
  return v;
}

static gboolean
tick (gpointer data)
{
  (void) data;
  return G_SOURCE_CONTINUE;
}

gboolean
zw_test_wait_until (gboolean (*done) (gpointer), gpointer data)
{
  /* only a guard against a hang: an event the test waits for may take many seconds
   * under AddressSanitizer on a loaded machine, and every caller's condition comes
   * true in a normal run, so a generous deadline costs nothing */
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint wakeup = g_timeout_add (20, tick, NULL);

  while (!done (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wakeup);
  return done (data);
}

cJSON *
zw_test_op_json (cJSON *ops, const char *type, const char *target, gint64 op_id)
{
  cJSON *o = cJSON_CreateObject ();

  cJSON_AddStringToObject (o, "_type_key", type);
  cJSON_AddStringToObject (o, "compile_target", target);
  cJSON_AddItemToObject (o, "inputs", cJSON_CreateArray ());
  cJSON_AddItemToObject (o, "outputs", cJSON_CreateArray ());
  cJSON_AddStringToObject (o, "name", "");
  cJSON_AddNumberToObject (o, "op_id", (double) op_id);
  cJSON_AddItemToObject (o, "tags", cJSON_CreateObject ());
  cJSON_AddItemToArray (ops, o);
  return o;
}

GPtrArray *
zw_test_seeded_inputs (XirNetwork *net, guint32 seed)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values = xir_network_get_inputs (net);
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 i = 0; i < v->storage_bytes; i++)
        bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
      g_ptr_array_add (inputs, xrt_tensor_new_host (net, v, bytes, v->storage_bytes, NULL));
    }
  g_rand_free (rand);
  return inputs;
}

/* ---- the C API's reference run ------------------------------------------------------------ */

XirNetworkView *
zw_test_whole_view (XirNetwork *net)
{
  g_autoptr (GError) error = NULL;
  XirNetworkView *view = xir_network_view (net, 0, G_MAXINT, &error);

  g_assert_no_error (error);
  return view;
}

GPtrArray *
zw_test_reference_outputs (XirNetwork *net, GPtrArray *inputs, const char *dump_dir)
{
  g_autoptr (XirNetworkView) view = zw_test_whole_view (net);
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *outs;

  g_assert_nonnull (dev);
  sess = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (sess, &error));
  if (dump_dir != NULL)
    g_assert_true (xrt_session_set_dump_outputs (sess, TRUE, dump_dir, "HQB", &error));
  outs = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  return outs;
}

void
zw_test_assert_same_outputs (GPtrArray *outs, GPtrArray *ref)
{
  guint nonzero = 0;

  g_assert_cmpuint (outs->len, ==, ref->len);
  g_assert_cmpuint (outs->len, >, 0);
  for (guint k = 0; k < outs->len; k++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) a = xrt_tensor_get_bytes (g_ptr_array_index (outs, k), &error);
      g_autoptr (GBytes) b = xrt_tensor_get_bytes (g_ptr_array_index (ref, k), &error);
      gsize size = 0;
      const guint8 *p;

      g_assert_no_error (error);
      if (!g_bytes_equal (a, b))
        g_error ("output %u differs from the C API's reference", k);
      p = g_bytes_get_data (a, &size);
      for (gsize i = 0; i < size && nonzero == k; i++)
        nonzero += p[i] != 0;
    }
  /* outputs of zeros prove nothing */
  g_assert_cmpuint (nonzero, >, 0);
}

/* ---- boards over a socket -------------------------------------------------------------- */

#include <signal.h>
#include <sys/prctl.h>

static void
board_child_setup (gpointer data)
{
  (void) data;
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static ZwBoard *
board_startv (const char *kind, va_list ap)
{
  const char *exe = g_getenv ("ZW_TEST_BOARD");
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GDataInputStream) in = NULL;
  g_autofree char *line = NULL;
  const char *arg, *colon;
  ZwBoard *b;

  if (exe == NULL)
    {
      g_test_skip ("$ZW_TEST_BOARD (the zhuge-board program) is not set");
      return NULL;
    }
  g_ptr_array_add (argv, (gpointer) exe);
  g_ptr_array_add (argv, (gpointer) "--listen");
  g_ptr_array_add (argv, (gpointer) "127.0.0.1:0");
  g_ptr_array_add (argv, (gpointer) "--board");
  g_ptr_array_add (argv, (gpointer) kind);
  g_ptr_array_add (argv, (gpointer) "--exit-after");
  g_ptr_array_add (argv, (gpointer) "900");
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, board_child_setup, NULL, NULL);
  b = g_new0 (ZwBoard, 1);
  b->kind = g_strdup (kind);
  b->proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  /* "zhuge-board: serving KIND on 127.0.0.1:PORT" (or EOF if it failed to start) */
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (b->proc));
  line = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  colon = strrchr (line, ':');
  g_assert_nonnull (colon);
  b->port = (guint) g_ascii_strtoull (colon + 1, NULL, 10);
  g_assert_cmpuint (b->port, >, 0);
  b->url = g_strdup_printf ("socket://%s@127.0.0.1:%u", kind, b->port);
  return b;
}

ZwBoard *
zw_test_board_start (const char *kind, ...)
{
  va_list ap;
  ZwBoard *b;

  va_start (ap, kind);
  b = board_startv (kind, ap);
  va_end (ap);
  return b;
}

void
zw_test_board_stop (ZwBoard *b)
{
  if (b == NULL)
    return;
  if (b->proc)
    {
      g_subprocess_send_signal (b->proc, SIGTERM);
      g_subprocess_wait (b->proc, NULL, NULL);
      g_object_unref (b->proc);
    }
  g_free (b->kind);
  g_free (b->url);
  g_free (b);
}

static GPtrArray *board_pool;   /* ZwBoard */

static void
board_pool_stop (void)
{
  g_clear_pointer (&board_pool, g_ptr_array_unref);
}

static const char *
kind_of_mock (const char *mock_url)
{
  return g_str_has_prefix (mock_url, "mock://buyi") ? "buyi" : "zg330";
}

static ZwBoard *
pool_add (const char *kind)
{
  ZwBoard *b = zw_test_board_start (kind, NULL);

  g_assert_nonnull (b);
  if (board_pool == NULL)
    {
      board_pool = g_ptr_array_new_with_free_func ((GDestroyNotify) zw_test_board_stop);
      atexit (board_pool_stop);
    }
  g_ptr_array_add (board_pool, b);
  return b;
}

const char *
zw_test_device_url (const char *mock_url)
{
  const char *kind = kind_of_mock (mock_url);

  if (g_getenv ("ZW_TEST_SOCKET") == NULL)
    return mock_url;
  for (guint i = 0; board_pool && i < board_pool->len; i++)
    if (strcmp (((ZwBoard *) board_pool->pdata[i])->kind, kind) == 0)
      return ((ZwBoard *) board_pool->pdata[i])->url;
  return pool_add (kind)->url;
}

XrtDevice *
zw_test_open_device (const char *mock_url)
{
  const char *kind = kind_of_mock (mock_url);
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  if (g_getenv ("ZW_TEST_SOCKET") == NULL)
    {
      g_autoptr (GError) error = NULL;
      XrtDevice *d = xrt_device_open (mock_url, &error);
      g_assert_no_error (error);
      return d;
    }
  zw_test_device_url (mock_url);
  for (;;)
    {
      guint n_kind = 0;
      for (guint i = 0; i < board_pool->len; i++)
        {
          ZwBoard *b = board_pool->pdata[i];
          g_autoptr (GError) error = NULL;
          XrtDevice *d;
          if (strcmp (b->kind, kind) != 0)
            continue;
          n_kind++;
          if ((d = xrt_device_open (b->url, &error)) != NULL)
            return d;
          g_assert_true (strstr (error->message, "busy") != NULL);
        }
      /* every board of this kind serves another device of the test: one more (at most 4) */
      if (n_kind < 4)
        pool_add (kind);
      else
        {
          g_assert_cmpint (g_get_monotonic_time (), <, until);
          g_usleep (10000);
        }
    }
}

void
zw_test_socket_mode_from_args (int *argc, char ***argv)
{
  int j = 1;

  for (int i = 1; i < *argc; i++)
    if (strcmp ((*argv)[i], "--socket") == 0)
      g_setenv ("ZW_TEST_SOCKET", "1", TRUE);
    else
      (*argv)[j++] = (*argv)[i];
  *argc = j;
  (*argv)[j] = NULL;
}

void
zw_test_suites_from_args (int *argc, char ***argv, gboolean *render, gboolean *display)
{
  *render = *display = TRUE;
  for (int i = 1; i + 1 < *argc; i++)
    if (g_str_equal ((*argv)[i], "--suite"))
      {
        *render = g_str_equal ((*argv)[i + 1], "render");
        *display = g_str_equal ((*argv)[i + 1], "display");
        memmove (&(*argv)[i], &(*argv)[i + 2], sizeof (char *) * (gsize) (*argc - i - 1));
        *argc -= 2;
        break;
      }
}

/* ---- bounded runs (inputs that could block or eat memory) ---------------------------------- */

#include <sys/resource.h>

typedef struct {
  GBytes *out, *err;
  GError *error;
  gboolean done, timed_out;
  GSubprocess *proc;
} BoundedRun;

static void
bounded_done (GObject *source, GAsyncResult *result, gpointer data)
{
  BoundedRun *b = data;

  g_subprocess_communicate_finish (G_SUBPROCESS (source), result, &b->out, &b->err, &b->error);
  b->done = TRUE;
}

static gboolean
bounded_kill (gpointer data)
{
  BoundedRun *b = data;

  b->timed_out = TRUE;
  g_subprocess_force_exit (b->proc);
  return G_SOURCE_REMOVE;
}

static void
bounded_limits (gpointer data)
{
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  struct rlimit r = { (rlim_t) 4 << 30, (rlim_t) 4 << 30 };
  setrlimit (RLIMIT_AS, &r);
#endif
  (void) data;
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

void
zw_test_xrt_run_bounded (ZwRun *r, const char *cwd, guint seconds, const char *const *args, gsize *out_len)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                                 | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GMainContext) ctx = g_main_context_new ();
  g_autoptr (GSource) timer = g_timeout_source_new_seconds (seconds);
  g_autoptr (GError) error = NULL;
  BoundedRun b = { 0 };
  gsize n = 0;

  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
  g_ptr_array_add (argv, (gpointer) g_getenv ("XRT_RUN"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  if (cwd)
    g_subprocess_launcher_set_cwd (l, cwd);
  g_subprocess_launcher_set_child_setup (l, bounded_limits, NULL, NULL);
  g_main_context_push_thread_default (ctx);
  b.proc = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_async (b.proc, NULL, NULL, bounded_done, &b);
  g_source_set_callback (timer, bounded_kill, &b, NULL);
  g_source_attach (timer, ctx);
  while (!b.done)
    g_main_context_iteration (ctx, TRUE);
  g_source_destroy (timer);
  g_subprocess_wait (b.proc, NULL, NULL);
  g_main_context_pop_thread_default (ctx);
  g_assert_no_error (b.error);
  r->out = b.out ? g_bytes_unref_to_data (b.out, &n) : NULL;
  r->out = g_realloc (r->out, n + 1);
  r->out[n] = '\0';
  if (out_len)
    *out_len = n;
  r->err = b.err && g_bytes_get_size (b.err) > 0 ? g_strndup (g_bytes_get_data (b.err, NULL), g_bytes_get_size (b.err))
                                                : g_strdup ("");
  g_clear_pointer (&b.err, g_bytes_unref);
  if (b.timed_out)
    {
      char *e = g_strconcat (r->err, "\n(timed out: killed)", NULL);
      g_free (r->err);
      r->err = e;
      r->status = -1;
    }
  else if (g_subprocess_get_if_signaled (b.proc))
    r->status = 128 + g_subprocess_get_term_sig (b.proc);
  else
    r->status = g_subprocess_get_exit_status (b.proc);
  g_object_unref (b.proc);
}

void
zw_test_run_profiled (XirNetwork *net, gboolean merge, ZwProfile **profile, ZwDeployReport **report)
{
  ZwTestForward f = zw_test_forward (net, merge, NULL, NULL);

  *profile = f.profile;
  *report = f.report;
}

void
zw_test_write_merge_on_off (XirNetwork *net, const char *path_on, const char *path_off, ZwProfile **on,
                            ZwDeployReport **report_on, ZwProfile **off, ZwDeployReport **report_off)
{
  g_autofree char *text_on = NULL, *text_off = NULL;

  zw_test_run_profiled (net, TRUE, on, report_on);
  zw_test_run_profiled (net, FALSE, off, report_off);
  text_on = zw_profile_to_string (*on, ZW_PROFILE_FORMAT_VENDOR);
  text_off = zw_profile_to_string (*off, ZW_PROFILE_FORMAT_VENDOR);
  g_assert_true (g_file_set_contents (path_on, text_on, -1, NULL));
  g_assert_true (g_file_set_contents (path_off, text_off, -1, NULL));
}

void
zw_test_forward_clear (ZwTestForward *f)
{
  g_clear_pointer (&f->profile, zw_profile_free);
  g_clear_pointer (&f->report, zw_deploy_report_unref);
}

ZwTestForward
zw_test_forward (XirNetwork *net, gboolean merge, const char *dump_dir, const char *dump_format)
{
  ZwTestForward f = { NULL, NULL };
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 7);
  g_autoptr (GPtrArray) outs = NULL;
  g_autofree char *json = NULL;

  g_assert_no_error (error);
  s = xrt_session_new (view, types, devs, 2, &error);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), merge, TRUE,
                                            ZW_OCM_BEST_SCORE, &error));
  g_assert_true (xrt_session_apply (s, &error));
  xrt_session_enable_time_profile (s, TRUE);
  if (dump_dir != NULL)
    g_assert_true (xrt_session_set_dump_outputs (s, TRUE, dump_dir, dump_format, &error));
  outs = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  json = zw_profile_to_string (xrt_session_get_time_profile (s), ZW_PROFILE_FORMAT_JSON);
  f.profile = zw_profile_parse (json, -1, "session", NULL, NULL, &error);
  g_assert_no_error (error);
  f.report = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
  g_assert_nonnull (f.report);
  return f;
}

ZwDeployReport *
zw_test_deploy (const char *name, gboolean merge)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) sess = NULL;
  ZwDeployReport *report;

  if (net == NULL)
    return NULL;
  view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  dev = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  sess = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  if (!merge)
    g_assert_true (zg330_backend_disable_merge_hardop (ZG330_BACKEND (xrt_session_get_board_backend (sess)), &error));
  g_assert_true (xrt_session_apply (sess, &error));
  g_assert_no_error (error);
  report = xrt_backend_get_report (xrt_session_get_board_backend (sess));
  zw_deploy_report_attach_network (report, net);
  return report;
}

cJSON *
zw_test_pipeline_pass (XrtPipeline *pipe, const char *origin, GPtrArray **outputs)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  cJSON *root;

  g_assert_true (xrt_pipeline_apply (pipe, NULL, &error));
  g_assert_no_error (error);
  xrt_pipeline_enable_time_profile (pipe, TRUE);
  outs = xrt_pipeline_forward (pipe, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (outs);
  root = xrt_pipeline_report_to_json (pipe, &error);
  g_assert_no_error (error);
  g_assert_true (zw_pipeline_report_check_json (root, origin, NULL, &error));
  g_assert_no_error (error);
  if (outputs != NULL)
    *outputs = g_steal_pointer (&outs);
  return root;
}

static void
svg_root (GMarkupParseContext *context, const char *element, const char **names, const char **values,
          gpointer data, GError **error)
{
  char **root = data;

  (void) context;
  (void) names;
  (void) values;
  (void) error;
  if (*root == NULL)
    *root = g_strdup (element);
}

void
zw_test_assert_svg (const char *contents, gsize len)
{
  GMarkupParser parser = { .start_element = svg_root };
  g_autoptr (GError) error = NULL;
  g_autofree char *root = NULL;
  GMarkupParseContext *context = g_markup_parse_context_new (&parser, 0, &root, NULL);

  g_assert_true (g_markup_parse_context_parse (context, contents, (gssize) len, &error)
                 && g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (context);
  g_assert_cmpstr (root, ==, "svg");
}
