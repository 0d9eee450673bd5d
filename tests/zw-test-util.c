/* zw-test-util.c — shared by the test binaries. */
#include "zw-test-util.h"

#include <gio/gio.h>

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
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  r->status = g_subprocess_get_exit_status (proc);
}
