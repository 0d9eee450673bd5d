/* test-buyi-session.c — Buyi networks through the Backend interface: a session on
 * the real Buyi compile of yolov5s binds its @buyit hardops to the BuyiBackend on mock://buyi
 * exactly as ZG330 ops go to the ZG330Backend; the deployment is the compiler's placement
 * (every value at the file's address, checked by walking the JSON independently); forwards
 * with synthetic params are reproducible; dumps hold every value the host can read and say
 * which OCM values they cannot; Buyi's rules give clear errors. Skipped without ../shared. */
#include "zw-test-util.h"

#include "backends/buyi/buyi-backend.h"
#include "backends/buyi/buyi-plan.h"
#include "report/zw-deploy-check.h"
#include "report/zw-dump.h"
#include "xrt/xrt-session.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  XirNetwork *net;
  XirNetworkView *view;
  XrtDevice *dev;
  XrtSession *sess;
} Fixture;

static gboolean
fixture_init (Fixture *f, gboolean apply)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");

  memset (f, 0, sizeof *f);
  if (path == NULL)
    return FALSE;
  f->net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  xir_network_fake_params (f->net, 330);
  f->view = xir_network_view (f->net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xrt_backend_default_device_for_view (f->view), ==, "mock://buyi");
  f->dev = xrt_device_open ("mock://buyi", &error);
  g_assert_no_error (error);
  f->sess = xrt_session_new_for_device (f->view, f->dev, &error);
  g_assert_no_error (error);
  if (apply)
    {
      g_assert_true (xrt_session_apply (f->sess, &error));
      g_assert_no_error (error);
    }
  return TRUE;
}

static void
fixture_clear (Fixture *f)
{
  g_clear_pointer (&f->sess, xrt_session_unref);
  g_clear_pointer (&f->dev, xrt_device_unref);
  g_clear_pointer (&f->view, xir_network_view_unref);
  g_clear_pointer (&f->net, xir_network_unref);
}

/* The session's bindings: every @buyit hardop on the BuyiBackend, the rest on the host. */
static void
test_binding (void)
{
  Fixture f;
  guint n_buyi = 0, n_host = 0;
  XrtBackend *board;

  if (!fixture_init (&f, FALSE))
    return;
  board = xrt_session_get_board_backend (f.sess);
  g_assert_true (BUYI_IS_BACKEND (board));
  g_assert_cmpstr (xrt_backend_get_name (board), ==, "BuyiBackend");
  g_assert_cmpstr (xrt_device_get_name (xrt_backend_get_device (board)), ==, "buyi");
  for (guint i = 0; i < xir_network_get_n_ops (f.net); i++)
    {
      const XirOp *op = xir_network_get_op (f.net, i);
      XrtBackend *b = xrt_session_get_op_backend (f.sess, op->op_id);
      if (op->target.kind == XIR_TARGET_BUYI)
        {
          g_assert_true (b == board);
          n_buyi++;
        }
      else
        {
          g_assert_cmpstr (xrt_backend_get_name (b), ==, "HostBackend");
          n_host++;
        }
    }
  g_assert_cmpuint (n_buyi, ==, 85);
  g_assert_cmpuint (n_host, ==, 4);   /* Input, ImageMake, DetPost, Output */
  /* Buyi's defaults and rules */
  g_assert_false (zg330_backend_get_merge_hardop (ZG330_BACKEND (board)));
  g_assert_false (zg330_backend_get_etm_optimize (ZG330_BACKEND (board)));
  g_assert_cmpint (zg330_backend_get_ocm_opt (ZG330_BACKEND (board)), ==, ZW_OCM_NONE);
  {
    g_autoptr (GError) error = NULL;
    g_assert_false (zg330_backend_ocm_optimize (ZG330_BACKEND (board), ZW_OCM_OPTION1, &error));
    g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "BuyiBackend"));
    g_clear_error (&error);
    g_assert_false (zg330_backend_set_options (ZG330_BACKEND (board), TRUE, FALSE, ZW_OCM_NONE, &error));
    g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "merge"));
    g_clear_error (&error);
    /* the compiler placed everything: no user chunks, said rather than ignored */
    {
      g_autoptr (XrtMemChunk) c = xrt_device_malloc (f.dev, "ETM", 1 << 20, &error);
      g_assert_no_error (error);
      g_assert_false (zg330_backend_user_connect_network (ZG330_BACKEND (board), c, 0, &error));
      g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "userConnectNetwork"));
      g_clear_error (&error);
      g_assert_false (zg330_backend_user_reuse_segment (ZG330_BACKEND (board), c, ZW_SEGMENT_FTMP, &error));
      g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED);
      g_clear_error (&error);
    }
    /* turning off what is off is fine */
    g_assert_true (zg330_backend_disable_merge_hardop (ZG330_BACKEND (board), &error));
    g_assert_no_error (error);
  }
  /* a ZG330 board is refused, naming what is needed */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (XrtDevice) zg = xrt_device_open ("mock://zg330", NULL);
    g_autoptr (Zg330Backend) b = buyi_backend_new (f.view, zg, &error);
    g_assert_null (b);
    g_assert_nonnull (strstr (error->message, "mock://buyi"));
  }
  fixture_clear (&f);
}

/* After apply, the deploy report's physical address of every value is the file's
 * @etm/@ocm address, read here from the JSON with cJSON (not through xir), the segments are
 * the tags' and the report passes the independent checker; it equals buyi_plan's reading. */
static void
test_placement_is_the_files (void)
{
  Fixture f;
  g_autoptr (ZwDeployReport) r = NULL;
  g_autoptr (ZwDeployReport) plan = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  cJSON *root, *ops, *op, *tags;
  guint n_checked = 0, n_ocm = 0;
  static const char *const seg_tag[ZW_N_SEGMENTS] = { "params_segment", "instr_segment", "ftmp_segment",
                                                      "input_segment", "output_segment" };

  if (!fixture_init (&f, TRUE))
    return;
  r = xrt_backend_get_report (xrt_session_get_board_backend (f.sess));
  g_assert_true (zw_deploy_report_check (r, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = cJSON_Parse (text);
  ops = cJSON_GetObjectItem (root, "ops");
  tags = cJSON_GetObjectItem (root, "tags");
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      g_autofree char *a = g_strdup_printf ("%s_addr", seg_tag[t]);
      g_autofree char *b = g_strdup_printf ("%s_bytesize", seg_tag[t]);
      g_assert_cmpuint (r->segments[t].phy_addr, ==, (guint64) cJSON_GetObjectItem (tags, a)->valuedouble);
      g_assert_cmpuint (r->segments[t].logic_addr, ==, (guint64) cJSON_GetObjectItem (tags, a)->valuedouble);
      g_assert_cmpuint (r->segments[t].byte_size, ==, (guint64) cJSON_GetObjectItem (tags, b)->valuedouble);
    }
  cJSON_ArrayForEach (op, ops)
    {
      const char *target = cJSON_GetObjectItem (op, "compile_target")->valuestring;
      cJSON *list, *v;
      if (strcmp (target, "@buyit") != 0)
        continue;
      for (int side = 0; side < 2; side++)
        {
          list = cJSON_GetObjectItem (op, side == 0 ? "inputs" : "outputs");
          cJSON_ArrayForEach (v, list)
            {
              gint64 v_id = (gint64) cJSON_GetObjectItem (v, "v_id")->valuedouble;
              const char *mtype = cJSON_GetObjectItem (v, "mtype")->valuestring;
              const ZwValueInfo *vi = zw_deploy_report_find_value (r, v_id);
              guint64 addr = 0;
              gboolean ocm = g_str_has_prefix (mtype, "@ocm(");
              g_assert_nonnull (vi);
              g_assert_true (ocm || g_str_has_prefix (mtype, "@etm("));
              addr = g_ascii_strtoull (mtype + 5, NULL, 10);
              g_assert_cmpint (vi->is_ocm, ==, ocm);
              if (ocm)
                {
                  g_assert_cmpuint (vi->logic_addr, ==, addr);
                  n_ocm++;
                }
              else
                {
                  g_assert_cmpuint (vi->phy_addr, ==, addr);
                  g_assert_cmpuint (vi->logic_addr, ==, addr);
                }
              n_checked++;
            }
        }
      /* weights and instructions where the file put them */
      {
        const ZwHardOpInfo *h = NULL;
        gint64 op_id = (gint64) cJSON_GetObjectItem (op, "op_id")->valuedouble;
        cJSON *p = cJSON_GetArrayItem (cJSON_GetObjectItem (op, "params"), 0);
        cJSON *ins = cJSON_GetArrayItem (cJSON_GetObjectItem (op, "instr"), 0);
        for (guint i = 0; i < r->hardops->len && h == NULL; i++)
          if (g_array_index (r->hardops, ZwHardOpInfo, i).op_id == op_id)
            h = &g_array_index (r->hardops, ZwHardOpInfo, i);
        g_assert_nonnull (h);
        if (p != NULL)
          g_assert_cmpuint (h->weights_phy_addr, ==,
                            g_ascii_strtoull (cJSON_GetObjectItem (p, "mtype")->valuestring + 5, NULL, 10));
        if (ins != NULL)
          g_assert_cmpuint (h->instr_phy_addr, ==,
                            g_ascii_strtoull (cJSON_GetObjectItem (ins, "mtype")->valuestring + 5, NULL, 10));
      }
    }
  cJSON_Delete (root);
  g_assert_cmpuint (n_checked, >, 170);   /* inputs and outputs of 85 hardops */
  g_assert_cmpuint (n_ocm, >, 0);
  /* one launch per hardop that runs (merge off; zero-copy concats run no instructions) */
  g_assert_cmpuint (r->launches->len, >, 0);
  for (guint i = 0; i < r->launches->len; i++)
    g_assert_cmpuint (g_array_index (r->launches, ZwLaunch, i).merge_from->len, ==, 1);
  /* the engine's report and the independent reading of the file agree */
  plan = buyi_plan_from_network (f.view, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < plan->values->len; i++)
    {
      const ZwValueInfo *a = &g_array_index (plan->values, ZwValueInfo, i);
      const ZwValueInfo *b = zw_deploy_report_find_value (r, a->v_id);
      g_assert_nonnull (b);
      g_assert_cmpuint (a->logic_addr, ==, b->logic_addr);
      g_assert_cmpint (a->is_ocm, ==, b->is_ocm);
    }
  fixture_clear (&f);
}

static GPtrArray *
forward (Fixture *f, guint32 seed, double *ms)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (f->net, seed);
  GPtrArray *outs;

  xrt_session_enable_time_profile (f->sess, TRUE);
  outs = xrt_session_forward (f->sess, inputs, &error);
  g_assert_no_error (error);
  if (ms)
    *ms = xrt_session_get_total_time (f->sess);
  return outs;
}

/* A forward with synthetic params: the outputs and the simulated profile are the same on a
 * second run and on a second board; the profile rows carry the Buyi backend and no
 * is_io_process column; forking is refused with the reason. */
static void
test_forward_reproducible (void)
{
  Fixture f, g;
  g_autoptr (GPtrArray) a = NULL, b = NULL, c = NULL;
  double ma = 0, mb = 0, mc = 0;
  const ZwProfile *p;
  guint n_buyi_rows = 0;

  if (!fixture_init (&f, TRUE))
    return;
  a = forward (&f, 7, &ma);
  b = forward (&f, 7, &mb);
  g_assert_cmpuint (a->len, ==, 3);   /* DetPost's records, one per head */
  for (guint k = 0; k < a->len; k++)
    {
      g_autofree guint8 *x = xrt_tensor_dup_bytes (g_ptr_array_index (a, k), NULL);
      g_autofree guint8 *y = xrt_tensor_dup_bytes (g_ptr_array_index (b, k), NULL);
      g_assert_cmpmem (x, xrt_tensor_get_size (g_ptr_array_index (a, k)), y, xrt_tensor_get_size (g_ptr_array_index (b, k)));
    }
  g_assert_cmpfloat (ma, ==, mb);
  g_assert_cmpfloat (ma, >, 0);
  p = xrt_session_get_time_profile (f.sess);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (p->rows, i);
      g_assert_false (row->has_io_process);
      if (g_strcmp0 (row->backend, "Buyi") == 0)
        n_buyi_rows++;
    }
  g_assert_cmpuint (n_buyi_rows, >, 60);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (XrtSession) child = xrt_session_fork (f.sess, &error);
    g_assert_null (child);
    g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "once per board"));
  }
  /* another board, another session: the same bytes and the same simulated time */
  if (fixture_init (&g, TRUE))
    {
      c = forward (&g, 7, &mc);
      for (guint k = 0; k < a->len; k++)
        {
          g_autofree guint8 *x = xrt_tensor_dup_bytes (g_ptr_array_index (a, k), NULL);
          g_autofree guint8 *z = xrt_tensor_dup_bytes (g_ptr_array_index (c, k), NULL);
          g_assert_cmpmem (x, xrt_tensor_get_size (g_ptr_array_index (a, k)), z, xrt_tensor_get_size (g_ptr_array_index (c, k)));
        }
      g_assert_cmpfloat (ma, ==, mc);
      fixture_clear (&g);
    }
  fixture_clear (&f);
}

/* Dumps: every value the host can read (ETM, host) is dumped and equals what stepTo gives;
 * the values in Buyi's OCM are listed in the manifest's note, which is marked incomplete;
 * stepTo to an op whose output lives in OCM fails naming the value. */
static void
test_dumps_and_ocm (void)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("test-buyi-dump-XXXXXX");
  g_autofree char *mpath = g_build_filename (dir, "manifest.json", NULL);
  g_autoptr (ZwDumpManifest) m = NULL;
  g_autoptr (ZwDeployReport) r = NULL;
  guint n_etm = 0, n_ocm = 0, n_dumped_etm = 0;
  gint64 ocm_op = -1, etm_op = -1, etm_v = -1;

  if (!fixture_init (&f, TRUE))
    return;
  r = xrt_backend_get_report (xrt_session_get_board_backend (f.sess));
  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      const XirValue *xv = xir_network_get_value (f.net, v->v_id);
      if (v->producer < 0 || xv->producer < 0 || xir_network_get_op (f.net, (guint) xv->producer)->kind != XIR_OP_HARDOP)
        continue;
      if (v->is_ocm)
        {
          n_ocm++;
          ocm_op = v->producer;
        }
      else
        {
          n_etm++;
          if (etm_op < 0 && v->real)
            {
              etm_op = v->producer;
              etm_v = v->v_id;
            }
        }
    }
  g_assert_cmpuint (n_ocm, >, 0);
  g_assert_true (xrt_session_set_dump_outputs (f.sess, TRUE, dir, "HQB", &error));
  inputs = zw_test_seeded_inputs (f.net, 3);
  outs = xrt_session_forward (f.sess, inputs, &error);
  g_assert_no_error (error);
  m = zw_dump_manifest_load (mpath, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (m->complete);
  g_assert_nonnull (strstr (m->note, "cannot read back"));
  g_assert_nonnull (strstr (m->note, "BuyiBackend"));
  for (guint i = 0; i < m->entries->len; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (m->entries, i);
      g_assert_cmpint (e->memory, !=, ZW_DUMP_MEMORY_OCM);
      if (e->memory == ZW_DUMP_MEMORY_ETM)
        n_dumped_etm++;
    }
  g_assert_cmpuint (n_dumped_etm, >=, n_etm);
  /* stepTo an ETM op: its bytes equal the dumped file's */
  {
    g_autoptr (GPtrArray) step = xrt_session_step_to (f.sess, etm_op, inputs, &error);
    g_autofree char *file = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", dir, etm_v);
    g_autofree char *bytes = NULL;
    gsize len = 0;
    g_autofree guint8 *got = NULL;
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (file, &bytes, &len, NULL));
    got = xrt_tensor_dup_bytes (g_ptr_array_index (step, 0), NULL);
    g_assert_cmpmem (got, xrt_tensor_get_size (g_ptr_array_index (step, 0)), bytes, len);
  }
  /* stepTo an op whose output lives in OCM: a clear error naming the value */
  {
    g_autoptr (GPtrArray) step = NULL;
    xrt_session_set_dump_outputs (f.sess, FALSE, NULL, NULL, NULL);
    step = xrt_session_step_to (f.sess, ocm_op, inputs, &error);
    g_assert_null (step);
    g_assert_nonnull (strstr (error->message, "OCM"));
    g_assert_nonnull (strstr (error->message, "v_id"));
    g_assert_nonnull (strstr (error->message, "cannot read back"));
    g_clear_error (&error);
  }
  fixture_clear (&f);
}

/* forward(inputs, outputs) with a tensor in the board's ETM is refused (no outputs at user
 * addresses on Buyi); with host tensors it works. */
static void
test_outputs_at_user_addresses (void)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) inputs = NULL, outputs = NULL;
  GPtrArray *values;

  if (!fixture_init (&f, TRUE))
    return;
  inputs = zw_test_seeded_inputs (f.net, 5);
  values = xir_network_view_get_outputs (f.view);
  outputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autoptr (XrtMemChunk) c = xrt_device_malloc (f.dev, "ETM", v->storage_bytes, &error);
      g_assert_no_error (error);
      g_ptr_array_add (outputs, xrt_tensor_new (f.net, v, c, 0, &error));
    }
  /* DetPost's output is a host value: nothing to write in place, so this copies */
  g_assert_true (xrt_session_forward_into (f.sess, inputs, outputs, &error));
  g_assert_no_error (error);
  /* the ops before DetPost: their outputs are the hardops' (the OUTPUT segment), which a
   * Buyi board cannot write at a user's address */
  {
    g_autoptr (XrtSession) sub = xrt_session_sub (f.sess, 0, -2, &error);
    g_autoptr (GPtrArray) outs2 = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
    GPtrArray *vals;
    g_assert_no_error (error);
    vals = xir_network_view_get_outputs (xrt_session_get_view (sub));
    g_assert_cmpuint (vals->len, ==, 3);
    for (guint k = 0; k < vals->len; k++)
      {
        const XirValue *v = g_ptr_array_index (vals, k);
        g_autoptr (XrtMemChunk) c = xrt_device_malloc (f.dev, "ETM", v->storage_bytes, &error);
        g_assert_no_error (error);
        g_ptr_array_add (outs2, xrt_tensor_new (f.net, v, c, 0, &error));
      }
    g_assert_false (xrt_session_forward_into (sub, inputs, outs2, &error));
    g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "user addresses"));
    g_clear_error (&error);
  }
  fixture_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/buyi-session/binding-and-rules", test_binding);
  g_test_add_func ("/buyi-session/placement-is-the-files", test_placement_is_the_files);
  g_test_add_func ("/buyi-session/forward-reproducible", test_forward_reproducible);
  g_test_add_func ("/buyi-session/dumps-and-ocm", test_dumps_and_ocm);
  g_test_add_func ("/buyi-session/outputs-at-user-addresses", test_outputs_at_user_addresses);
  return g_test_run ();
}
