/* test-misuse.c — a snapshot that restores alone, userConnectNetwork
 * sized by storageBytes at every cut (staged where the user's chunk cannot be the home),
 * and misuse that is never silent (two threads on one session, WEIGHT shared across
 * networks, NULL arguments). */
#include "zw-test-util.h"

#include "report/zw-deploy-check.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean
quick (void)
{
  return g_getenv ("ZW_TEST_QUICK") != NULL;
}

static XrtTensor *
random_tensor (XirNetwork *net, const XirValue *v, guint seed)
{
  g_autofree guint8 *bytes = g_malloc (MAX (v->storage_bytes, 1));
  GRand *rand = g_rand_new_with_seed (seed);
  XrtTensor *t;

  for (guint64 i = 0; i < v->storage_bytes; i++)
    bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  t = xrt_tensor_new_host (net, v, bytes, v->storage_bytes, NULL);
  g_assert_nonnull (t);
  return t;
}

static GPtrArray *
network_inputs (XirNetwork *net, guint seed)
{
  g_autoptr (XirNetworkView) all = xir_network_view (net, 0, G_MAXINT, NULL);
  GPtrArray *values = xir_network_view_get_inputs (all);
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);

  for (guint k = 0; k < values->len; k++)
    g_ptr_array_add (inputs, random_tensor (net, g_ptr_array_index (values, k), seed + k));
  return inputs;
}

static XrtTensor *
find_tensor (GPtrArray *tensors, const XirValue *v)
{
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    if (xrt_tensor_get_value (g_ptr_array_index (tensors, i)) == v)
      return g_ptr_array_index (tensors, i);
  return NULL;
}

static void
assert_same_bytes (XrtTensor *a, XrtTensor *b, const char *what)
{
  g_autofree guint8 *x = xrt_tensor_dup_bytes (a, NULL);
  g_autofree guint8 *y = xrt_tensor_dup_bytes (b, NULL);

  g_assert_cmpuint (xrt_tensor_get_size (a), ==, xrt_tensor_get_size (b));
  if (memcmp (x, y, xrt_tensor_get_size (a)) != 0)
    g_error ("%s: v_id %" G_GINT64_FORMAT " differs", what, xrt_tensor_get_value (a)->v_id);
}

static XrtSession *
new_session (XirNetworkView *view, XrtDevice *dev)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  XrtSession *s = xrt_session_new (view, types, devs, 2, &error);

  g_assert_no_error (error);
  return s;
}

/* ---- item 3: the manual's §2.3.2 at every cut of yolov5s ---------------------------- */

static void
chunk_unref0 (gpointer chunk)
{
  if (chunk != NULL)
    xrt_mem_chunk_unref (chunk);
}

static gboolean
is_hardop_at (XirNetwork *net, gint index)
{
  const XirOp *op = index >= 0 ? xir_network_get_op (net, (guint) index) : NULL;
  return op != NULL && zg330_backend_supports_op (op);
}

static void
test_connect_every_cut (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) all = NULL;
  g_autoptr (XrtSession) whole = NULL;
  g_autoptr (GPtrArray) inputs = NULL, expect = NULL;
  guint n_ops, cuts = 0, staged = 0, zero_copy = 0, step = quick () ? 9 : 1;

  if (net == NULL)
    return;
  n_ops = xir_network_get_n_ops (net);
  all = xir_network_view (net, 0, G_MAXINT, &error);
  whole = new_session (all, dev);
  g_assert_true (xrt_session_apply (whole, &error));
  inputs = network_inputs (net, 77);
  expect = xrt_session_forward (whole, inputs, &error);
  g_assert_no_error (error);

  for (guint cut = 1; cut < n_ops; cut += step)
    {
      g_autoptr (XirNetworkView) v1 = xir_network_view (net, 0, (gint) cut, &error);
      g_autoptr (XirNetworkView) v2 = xir_network_view (net, (gint) cut, G_MAXINT, &error);
      g_autoptr (XrtSession) s1 = new_session (v1, dev);
      g_autoptr (XrtSession) s2 = new_session (v2, dev);
      Zg330Backend *b1 = ZG330_BACKEND (xrt_session_get_board_backend (s1)), *b2 = ZG330_BACKEND (xrt_session_get_board_backend (s2));
      GPtrArray *need = xir_network_view_get_inputs (v2);
      g_autoptr (GPtrArray) chunks = g_ptr_array_new_with_free_func (chunk_unref0);
      g_autoptr (GPtrArray) out1 = NULL, in2 = NULL, out2 = NULL;

      /* the manual's §2.3.2: a chunk of storageBytes per connecting value, on both sides */
      for (guint k = 0; k < need->len; k++)
        {
          const XirValue *v = g_ptr_array_index (need, k);
          gboolean read_by_hardop = FALSE;
          XrtMemChunk *chunk;

          for (guint u = 0; u < v->consumers->len; u++)
            read_by_hardop |= is_hardop_at (net, (gint) g_array_index (v->consumers, guint, u))
                              && g_array_index (v->consumers, guint, u) >= cut;
          if (b1 == NULL || b2 == NULL || !is_hardop_at (net, v->producer) || !read_by_hardop)
            {
              g_ptr_array_add (chunks, NULL);
              continue;
            }
          chunk = xrt_mem_region_malloc (xrt_device_get_default_mem_region (dev), v->storage_bytes, TRUE, 4096, &error);
          g_assert_no_error (error);
          g_assert_true (zg330_backend_user_connect_network (b1, chunk, v->v_id, &error));
          g_assert_true (zg330_backend_user_connect_network (b2, chunk, v->v_id, &error));
          g_assert_no_error (error);
          g_ptr_array_add (chunks, chunk);
        }
      if (!xrt_session_apply (s1, &error) || !xrt_session_apply (s2, &error))
        g_error ("cut at op index %u: apply: %s", cut, error->message);
      for (int side = 0; side < 2; side++)
        {
          Zg330Backend *b = side ? b2 : b1;
          g_autoptr (ZwDeployReport) r = b ? zg330_backend_get_report (b) : NULL;
          if (r == NULL)
            continue;
          g_assert_true (zw_deploy_report_check (r, NULL, &error));
          g_assert_no_error (error);
          for (guint i = 0; i < r->connections->len; i++)
            {
              const ZwConnectionInfo *c = &g_array_index (r->connections, ZwConnectionInfo, i);
              if (c->staged)
                staged++;
              else
                zero_copy++;
            }
        }

      out1 = xrt_session_forward (s1, inputs, &error);
      g_assert_no_error (error);
      /* the second network reads a connected value from the user's chunk (a device tensor
       * over it), anything else from the first network's outputs or the network inputs */
      in2 = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
      for (guint k = 0; k < need->len; k++)
        {
          const XirValue *v = g_ptr_array_index (need, k);
          XrtMemChunk *chunk = g_ptr_array_index (chunks, k);
          XrtTensor *t;

          if (chunk != NULL)
            t = xrt_tensor_new (net, v, chunk, 0, &error);
          else
            {
              t = find_tensor (out1, v);
              if (t == NULL)
                t = find_tensor (inputs, v);
              g_assert_nonnull (t);
              t = xrt_tensor_ref (t);
            }
          g_assert_no_error (error);
          g_ptr_array_add (in2, t);
        }
      out2 = xrt_session_forward (s2, in2, &error);
      if (error != NULL)
        g_error ("cut at op index %u: %s", cut, error->message);
      for (guint i = 0; i < expect->len; i++)
        {
          XrtTensor *want = g_ptr_array_index (expect, i);
          XrtTensor *got = find_tensor (out2, xrt_tensor_get_value (want));
          g_autofree char *what = g_strdup_printf ("cut at op index %u", cut);
          if (got == NULL)
            got = find_tensor (out1, xrt_tensor_get_value (want));
          g_assert_nonnull (got);
          assert_same_bytes (want, got, what);
        }
      cuts++;
    }
  g_test_message ("yolov5s: %u cuts of %u ops, connections: %u zero-copy, %u staged", cuts, n_ops, zero_copy, staged);
  g_assert_cmpuint (cuts, >, 0);
  g_assert_cmpuint (staged, >, 0);
  g_assert_cmpuint (zero_copy + staged, >, cuts);
}

/* The report names each connection's mode, and its loader and checker agree. */
static void
test_connect_report_round_trip (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) v1 = NULL;
  g_autoptr (Zg330Backend) b = NULL;
  g_autoptr (ZwDeployReport) r = NULL, back = NULL;
  g_autoptr (XrtMemChunk) small = NULL, big = NULL;
  GPtrArray *outs;
  const XirValue *staged_v = NULL, *whole_v = NULL;
  cJSON *json;

  if (net == NULL)
    return;
  v1 = xir_network_view (net, 0, 42, &error);
  b = zg330_backend_new (v1, dev, &error);
  g_assert_no_error (error);
  outs = xir_network_view_get_outputs (v1);
  for (guint k = 0; k < outs->len; k++)
    {
      const XirValue *v = g_ptr_array_index (outs, k);
      if (!is_hardop_at (net, v->producer) || v->mtype.kind != XIR_MEM_CHUNK)
        continue;
      if (v->mtype.offset != 0 && staged_v == NULL)
        staged_v = v;
    }
  g_assert_nonnull (staged_v);
  small = xrt_mem_region_malloc (xrt_device_get_default_mem_region (dev), staged_v->storage_bytes, TRUE, 4096, &error);
  g_assert_true (zg330_backend_user_connect_network (b, small, staged_v->v_id, &error));
  for (guint k = 0; k < outs->len; k++)
    {
      const XirValue *v = g_ptr_array_index (outs, k);
      if (is_hardop_at (net, v->producer) && v != staged_v && v->mtype.kind == XIR_MEM_CHUNK && v->mtype.offset == 0
          && v->mtype.chunk_id != staged_v->mtype.chunk_id)
        {
          whole_v = v;
          break;
        }
    }
  g_assert_nonnull (whole_v);
  /* a chunk as big as the whole ETM segment of its compiler chunk: zero-copy */
  big = xrt_mem_region_malloc (xrt_device_get_default_mem_region (dev), 16u << 20, TRUE, 4096, &error);
  g_assert_true (zg330_backend_user_connect_network (b, big, whole_v->v_id, &error));
  g_assert_no_error (error);
  g_assert_true (zg330_backend_apply (b, &error));
  g_assert_no_error (error);
  r = zg330_backend_get_report (b);
  g_assert_cmpuint (r->connections->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const ZwConnectionInfo *c = &g_array_index (r->connections, ZwConnectionInfo, i);
      g_assert_cmpint (c->staged, ==, c->v_id == staged_v->v_id);
      g_assert_cmpuint (c->user_addr, ==, xrt_mem_chunk_get_addr (c->staged ? small : big));
      g_assert_cmpuint (c->byte_size, ==, c->staged ? staged_v->storage_bytes : whole_v->storage_bytes);
    }
  g_assert_true (zw_deploy_report_check (r, NULL, &error));
  g_assert_no_error (error);
  json = zw_deploy_report_to_json (r);
  back = zw_deploy_report_from_json (json, "round-trip", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->connections->len, ==, 2);
  g_assert_cmpmem (back->connections->data, 2 * sizeof (ZwConnectionInfo), r->connections->data,
                   2 * sizeof (ZwConnectionInfo));
  /* the checker bites: a staged connection claimed zero-copy */
  g_array_index (back->connections, ZwConnectionInfo, g_array_index (back->connections, ZwConnectionInfo, 0).staged ? 0 : 1).staged = FALSE;
  g_assert_false (zw_deploy_report_check (back, NULL, &error));
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "zero-copy"));
  cJSON_Delete (json);
}

/* ---- item 5: misuse ------------------------------------------------------------------ */

typedef struct {
  XrtSession *session;
  GPtrArray *inputs;
  GPtrArray *expect;
  guint iterations;
  guint ok, busy;
} Hammer;

static gpointer
hammer_thread (gpointer data)
{
  Hammer *h = data;

  for (guint i = 0; i < h->iterations; i++)
    {
      GError *error = NULL;
      g_autoptr (GPtrArray) outs = xrt_session_forward (h->session, h->inputs, &error);
      if (outs == NULL)
        {
          g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_BUSY);
          g_error_free (error);
          h->busy++;
          continue;
        }
      g_assert_cmpuint (outs->len, ==, h->expect->len);
      for (guint k = 0; k < outs->len; k++)
        assert_same_bytes (g_ptr_array_index (h->expect, k), g_ptr_array_index (outs, k), "concurrent forward");
      h->ok++;
    }
  return NULL;
}

typedef struct {
  Hammer *h;
  gboolean tried;
  GError *error;
} Intruder;

static gpointer
intruder_thread (gpointer data)
{
  Intruder *in = data;
  GPtrArray *outs = xrt_session_forward (in->h->session, in->h->inputs, &in->error);
  g_assert_null (outs);
  return NULL;
}

/* while a forward runs (its first step), another thread's forward is refused */
static void
pre_step (XrtSession *session, const XrtForward *step, GPtrArray *outputs, gpointer data)
{
  Intruder *in = data;
  GThread *t;

  (void) session;
  (void) step;
  (void) outputs;
  if (in->tried)
    return;
  in->tried = TRUE;
  t = g_thread_new ("intruder", intruder_thread, in);
  g_thread_join (t);
}

static void
test_two_threads_one_session (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, NULL);
  g_autoptr (XrtSession) s = new_session (view, dev);
  g_autoptr (GPtrArray) inputs = network_inputs (net, 5);
  g_autoptr (GPtrArray) expect = NULL, again = NULL;
  Hammer h[2] = { { 0 } };
  Intruder in = { 0 };
  GThread *t[2];

  g_assert_true (xrt_session_apply (s, &error));
  expect = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);

  /* deterministic: a forward entered while another runs */
  in.h = &h[0];
  h[0].session = s;
  h[0].inputs = inputs;
  xrt_session_set_pre_callback (s, pre_step, &in);
  again = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  xrt_session_set_pre_callback (s, NULL, NULL);
  g_assert_true (in.tried);
  g_assert_error (in.error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_BUSY);
  g_assert_nonnull (strstr (in.error->message, "another thread"));
  g_clear_error (&in.error);
  for (guint k = 0; k < expect->len; k++)
    assert_same_bytes (g_ptr_array_index (expect, k), g_ptr_array_index (again, k), "forward beside a refused one");

  /* hammering: every call succeeds with the right outputs or fails with BUSY */
  for (int i = 0; i < 2; i++)
    {
      h[i].session = s;
      h[i].inputs = inputs;
      h[i].expect = expect;
      h[i].iterations = quick () ? 10 : 40;
      t[i] = g_thread_new ("hammer", hammer_thread, &h[i]);
    }
  for (int i = 0; i < 2; i++)
    g_thread_join (t[i]);
  g_test_message ("two threads, one session: %u forwards ok, %u refused as busy", h[0].ok + h[1].ok,
                  h[0].busy + h[1].busy);
  g_assert_cmpuint (h[0].ok + h[1].ok + h[0].busy + h[1].busy, ==, h[0].iterations * 2);
  g_assert_cmpuint (h[0].ok + h[1].ok, >, 0);
}

/* userReuseSegment(WEIGHT) across two networks: refused at apply, naming both */
static void
test_reuse_weight_across_networks (void)
{
  g_autoptr (XirNetwork) a = zw_test_load_net ("tiny");
  g_autoptr (XirNetwork) b = zw_test_load_net ("resnet18");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) va = xir_network_view (a, 0, G_MAXINT, NULL);
  g_autoptr (XirNetworkView) vb = xir_network_view (b, 0, G_MAXINT, NULL);
  g_autoptr (Zg330Backend) ba = zg330_backend_new (va, dev, NULL);
  g_autoptr (Zg330Backend) bb = zg330_backend_new (vb, dev, NULL);
  g_autoptr (Zg330Backend) again = zg330_backend_new (va, dev, NULL);
  g_autoptr (XrtMemChunk) weight = NULL;
  guint64 size = MAX (zg330_backend_get_logic_segment_size (ba, ZW_SEGMENT_WEIGHT, NULL),
                      zg330_backend_get_logic_segment_size (bb, ZW_SEGMENT_WEIGHT, NULL));

  weight = xrt_mem_region_malloc (xrt_device_get_default_mem_region (dev), size, TRUE, 4096, &error);
  g_assert_true (zg330_backend_user_reuse_segment (ba, weight, ZW_SEGMENT_WEIGHT, &error));
  g_assert_true (zg330_backend_user_reuse_segment (bb, weight, ZW_SEGMENT_WEIGHT, &error));
  g_assert_true (zg330_backend_user_reuse_segment (again, weight, ZW_SEGMENT_WEIGHT, &error));
  g_assert_no_error (error);
  g_assert_true (zg330_backend_apply (ba, &error));
  g_assert_no_error (error);
  g_assert_false (zg330_backend_apply (bb, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK);
  g_assert_nonnull (strstr (error->message, "\"tiny\""));
  g_assert_nonnull (strstr (error->message, "\"resnet18\""));
  g_assert_nonnull (strstr (error->message, "WEIGHT"));
  g_clear_error (&error);
  /* the first network's weights were not touched, and the same network may share them */
  g_assert_true (zg330_backend_precheck (ba, &error));
  g_assert_true (zg330_backend_apply (again, &error));
  g_assert_true (zg330_backend_precheck (again, &error));
  g_assert_no_error (error);
}

/* @dc: "DOMAIN, CODE" (expanded before the inner macro sees it) */
#define EXPECT_ARG_ERROR(call, dc, arg) EXPECT_ARG_ERROR_ (call, dc, arg)
#define EXPECT_ARG_ERROR_(call, domain, code, arg)                                             \
  G_STMT_START                                                                                 \
  {                                                                                            \
    GError *e_ = NULL;                                                                         \
    g_assert_false ((call) != 0);                                                              \
    g_assert_error (e_, domain, code);                                                         \
    if (strstr (e_->message, "\u201c" arg "\u201d") == NULL)                                   \
      g_error ("%s: the message \"%s\" does not name %s", #call, e_->message, arg);            \
    g_error_free (e_);                                                                         \
  }                                                                                            \
  G_STMT_END

static void
test_null_arguments (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, NULL);
  g_autoptr (XrtSession) s = new_session (view, dev);
  g_autoptr (Zg330Backend) b = zg330_backend_new (view, dev, NULL);
  g_autoptr (GPtrArray) holey = g_ptr_array_new ();
  static const char *const types[] = { "HostBackend" };
  guint8 buf[1];

  g_ptr_array_add (holey, NULL);
#define S XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT
#define B ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_INVALID_ARGUMENT
  EXPECT_ARG_ERROR (xrt_session_new (NULL, types, NULL, 1, &e_), S, "view");
  EXPECT_ARG_ERROR (xrt_session_new (view, NULL, NULL, 1, &e_), S, "backends");
  EXPECT_ARG_ERROR (xrt_session_new (view, types, NULL, 0, &e_), S, "n_backends");
  EXPECT_ARG_ERROR (xrt_session_new_with_backend (NULL, XRT_BACKEND (b), &e_), S, "view");
  EXPECT_ARG_ERROR (xrt_session_new_with_backend (view, NULL, &e_), S, "backend");
  EXPECT_ARG_ERROR (xrt_session_new_with_backends (NULL, NULL, 0, &e_), S, "view");
  EXPECT_ARG_ERROR (xrt_session_new_with_backends (view, NULL, 0, &e_), S, "backends");
  EXPECT_ARG_ERROR (xrt_session_apply (NULL, &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_forward (NULL, NULL, &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_forward (s, holey, &e_), S, "inputs");
  EXPECT_ARG_ERROR (xrt_session_forward_into (NULL, NULL, NULL, &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_forward_into (s, NULL, NULL, &e_), S, "outputs");
  EXPECT_ARG_ERROR (xrt_session_step_to (NULL, 1, NULL, &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_step_to (s, 1, holey, &e_), S, "inputs");
  EXPECT_ARG_ERROR (xrt_session_sub (NULL, 0, 1, &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_fork (NULL, &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_set_dump_outputs (NULL, TRUE, "d", "SQB", &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_set_dump_outputs (s, TRUE, NULL, "SQB", &e_), S, "dir");
  EXPECT_ARG_ERROR (xrt_session_set_dump_outputs (s, TRUE, "d", NULL, &e_), S, "format");
  EXPECT_ARG_ERROR (xrt_session_dump_snapshot (NULL, "x", &e_), S, "session");
  EXPECT_ARG_ERROR (xrt_session_dump_snapshot (s, NULL, &e_), S, "path");
  EXPECT_ARG_ERROR (xrt_session_new_from_snapshot (NULL, net, dev, &e_), S, "path");
  EXPECT_ARG_ERROR (zg330_backend_new (NULL, dev, &e_), B, "view");
  EXPECT_ARG_ERROR (zg330_backend_new (view, NULL, &e_), B, "device");
  EXPECT_ARG_ERROR (zg330_backend_apply (NULL, &e_), B, "backend");
  EXPECT_ARG_ERROR (zg330_backend_apply_with_plan (NULL, NULL, &e_), B, "backend");
  EXPECT_ARG_ERROR (zg330_backend_apply_with_plan (b, NULL, &e_), B, "plan");
  EXPECT_ARG_ERROR (zg330_backend_user_connect_network (NULL, NULL, 1, &e_), B, "backend");
  EXPECT_ARG_ERROR (zg330_backend_user_connect_network (b, NULL, 1, &e_), B, "chunk");
  EXPECT_ARG_ERROR (zg330_backend_user_reuse_segment (NULL, NULL, ZW_SEGMENT_WEIGHT, &e_), B, "backend");
  EXPECT_ARG_ERROR (zg330_backend_user_reuse_segment (b, NULL, ZW_SEGMENT_WEIGHT, &e_), B, "chunk");
  EXPECT_ARG_ERROR (zg330_backend_precheck (NULL, &e_), B, "backend");
  EXPECT_ARG_ERROR (zg330_backend_log (NULL, NULL, NULL, &e_), B, "backend");
  EXPECT_ARG_ERROR_ (xir_network_new_from_json_file (NULL, &e_), XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, "path");
  EXPECT_ARG_ERROR_ (xir_network_load_params_from_file (NULL, "x.raw", &e_), XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, "net");
  EXPECT_ARG_ERROR_ (xir_network_load_params_from_file (net, NULL, &e_), XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, "path");
  EXPECT_ARG_ERROR_ (xrt_mem_region_malloc (NULL, 16, TRUE, 64, &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "region");
  EXPECT_ARG_ERROR_ (xrt_mem_chunk_read (NULL, 0, buf, 1, &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "chunk");
  EXPECT_ARG_ERROR_ (xrt_device_get_mem_region (NULL, "ETM", &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "device");
  EXPECT_ARG_ERROR_ (xrt_device_get_mem_region (dev, NULL, &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "name");
  EXPECT_ARG_ERROR_ (xrt_device_malloc (NULL, "ETM", 16, &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "device");
  EXPECT_ARG_ERROR_ (xrt_tensor_new (NULL, NULL, NULL, 0, &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "net");
  EXPECT_ARG_ERROR_ (xrt_tensor_dump (NULL, "SFB", &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "tensor");
  EXPECT_ARG_ERROR_ (xrt_tensor_convert (NULL, "SFB", &e_), XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "tensor");
#undef S
#undef B
}

/* ---- item 2: a snapshot restores alone --------------------------------------------- */

static void
copy_file (const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
}

static char *
write_toml (const char *dir, const char *snapshot)
{
  g_autofree char *text = g_strdup_printf ("[run]\nload_snapshot = \"%s\"\n", snapshot);
  char *path = g_build_filename (dir, "run.toml", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_snapshot_only_config (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("zw-snap-XXXXXX", NULL);
  g_autofree char *src_json = g_strdup_printf ("%s/networks/tiny_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autofree char *src_raw = g_strdup_printf ("%s/networks/tiny_ZG.raw", g_getenv ("ZW_DATA_DIR"));
  g_autofree char *netdir = g_build_filename (tmp, "net", NULL);
  g_autofree char *moved = g_build_filename (tmp, "moved", NULL);
  g_autofree char *json = g_build_filename (netdir, "tiny_ZG.json", NULL);
  g_autofree char *raw = g_build_filename (netdir, "tiny_ZG.raw", NULL);
  g_autofree char *snap = g_build_filename (tmp, "tiny.snapshot", NULL);
  g_autofree char *msnap = g_build_filename (moved, "tiny.snapshot", NULL);
  g_autofree char *mjson = g_build_filename (moved, "tiny_ZG.json", NULL);
  g_autofree char *mraw = g_build_filename (moved, "tiny_ZG.raw", NULL);
  g_autofree char *toml = NULL, *first_out = NULL;

  g_assert_cmpint (g_mkdir_with_parents (netdir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (moved, 0755), ==, 0);
  copy_file (src_json, json);
  copy_file (src_raw, raw);
  {
    g_auto (ZwRun) r = { 0 };
    zw_test_xrt_run (&r, "run", json, "--save-snapshot", snap, NULL);
    g_assert_cmpint (r.status, ==, 0);
  }
  /* the manual's §2.1.3: [run] with load_snapshot only */
  toml = write_toml (tmp, snap);
  {
    g_auto (ZwRun) r = { 0 };
    zw_test_xrt_run (&r, "run", toml, NULL);
    if (r.status != 0)
      g_error ("load_snapshot-only run: status %d: %s", r.status, r.err);
    g_assert_nonnull (strstr (r.out, "tiny: 1 forward(s)"));
    first_out = g_strdup (r.out);
  }
  /* moved as a folder: the files are found beside the snapshot */
  copy_file (snap, msnap);
  copy_file (json, mjson);
  copy_file (raw, mraw);
  g_assert_cmpint (g_remove (json), ==, 0);
  g_assert_cmpint (g_remove (raw), ==, 0);
  g_free (toml);
  toml = write_toml (moved, msnap);
  {
    g_auto (ZwRun) r = { 0 };
    zw_test_xrt_run (&r, "run", toml, NULL);
    if (r.status != 0)
      g_error ("moved snapshot: status %d: %s", r.status, r.err);
    g_assert_cmpstr (r.out, ==, first_out);
  }
  /* other params under the same name: the digest says so */
  {
    g_autofree char *data = NULL;
    gsize len = 0;
    g_auto (ZwRun) r = { 0 };
    g_assert_true (g_file_get_contents (mraw, &data, &len, NULL));
    data[len - 1] ^= 0x5a;
    g_assert_true (g_file_set_contents (mraw, data, (gssize) len, NULL));
    zw_test_xrt_run (&r, "run", toml, NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "params_sha256"));
  }
  /* nothing to find: an error naming every place looked at, never a crash */
  g_assert_cmpint (g_remove (mjson), ==, 0);
  {
    g_auto (ZwRun) r = { 0 };
    zw_test_xrt_run (&r, "run", toml, NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "network_files.json"));
    g_assert_nonnull (strstr (r.err, mjson));
    g_assert_nonnull (strstr (r.err, json));
  }
  g_remove (msnap);
  g_remove (mraw);
  g_remove (snap);
  g_remove (toml);
  g_rmdir (moved);
  g_rmdir (netdir);
  {
    g_autofree char *t2 = g_build_filename (tmp, "run.toml", NULL);
    g_remove (t2);
  }
  g_rmdir (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/misuse/snapshot/load-snapshot-only-config-runs", test_snapshot_only_config);
  g_test_add_func ("/misuse/connect/storage-bytes-at-every-cut-of-yolov5s", test_connect_every_cut);
  g_test_add_func ("/misuse/connect/report-says-zero-copy-or-staged", test_connect_report_round_trip);
  g_test_add_func ("/misuse/session/two-threads-busy-never-wrong", test_two_threads_one_session);
  g_test_add_func ("/misuse/reuse-segment/weight-across-networks-refused-at-apply", test_reuse_weight_across_networks);
  g_test_add_func ("/misuse/arguments/null-sets-the-error-naming-it", test_null_arguments);
  return g_test_run ();
}
