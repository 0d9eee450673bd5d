/* zw-test-util.c — shared by the test binaries. */
#include "zw-test-util.h"

#include "xrt/xrt-tensor.h"

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
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
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
