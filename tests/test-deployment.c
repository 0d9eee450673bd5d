/* test-deployment.c — the one deployment (runtime/deploy/xrt-deployment.h): it gives the bytes
 * the four copies of the recipe gave (the workbench's run controller, `xrt-run run`,
 * `xrt-run compare-compiles`, the sweep), and its report carries the graph. */
#include "zw-test-util.h"
#include "deploy/xrt-deployment.h"
#include "report/zw-deploy-graph.h"
#include "xrt/xrt-session.h"

#include <glib/gstdio.h>
#include <string.h>

/* The inputs as the copies made them before the deployment: tensor k of forward @iteration
 * seeded with 1000 + iteration * 31 + k (@sweep_seed != 0: the sweep's, @sweep_seed + k over
 * the network's inputs), one g_rand_int_range (0, 256) per byte. Written out again here on
 * purpose: the test holds the deployment to the old recipe, not to itself. */
static GBytes *
old_input (XirNetwork *net, XirNetworkView *view, guint iteration, guint32 sweep_seed, guint k)
{
  GPtrArray *values = sweep_seed != 0 ? xir_network_get_inputs (net) : xir_network_view_get_inputs (view);
  const XirValue *v = g_ptr_array_index (values, k);
  gsize size = v->storage_bytes;
  guint8 *bytes = g_malloc (MAX (size, 1));
  GRand *rand = g_rand_new_with_seed (sweep_seed != 0 ? sweep_seed + k : 1000 + iteration * 31 + k);

  for (gsize i = 0; i < size; i++)
    bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  return g_bytes_new_take (bytes, size);
}

static void
assert_inputs_equal (GPtrArray *inputs, XirNetwork *net, XirNetworkView *view, guint iteration, guint32 sweep_seed)
{
  g_assert_nonnull (inputs);
  g_assert_cmpuint (inputs->len, ==, xir_network_view_get_inputs (view)->len);
  g_assert_cmpuint (inputs->len, >, 0);
  for (guint k = 0; k < inputs->len; k++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) got = xrt_tensor_get_bytes (g_ptr_array_index (inputs, k), &error);
      g_autoptr (GBytes) want = old_input (net, view, iteration, sweep_seed, k);

      g_assert_no_error (error);
      g_assert_cmpuint (g_bytes_get_size (got), ==, g_bytes_get_size (want));
      g_assert_true (g_bytes_equal (got, want));
    }
}

/* xrt_deployment_make_inputs == the run controller's and `xrt-run run`'s loop, forward by
 * forward; xrt_deployment_seeded_inputs (view, 330) == the sweep's rows'. */
static void
test_seeded_inputs_are_the_old_bytes (void)
{
  const char *names[] = { "tiny", "yolov5s" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr (XirNetwork) net = zw_test_load_net (names[n]);
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtDeployment) dep = xrt_deployment_new (net, &error);
      XirNetworkView *view;

      g_assert_no_error (error);
      view = xrt_deployment_get_view (dep);
      g_assert_cmpuint (xrt_deployment_input_seed (0), ==, 1000);
      g_assert_cmpuint (xrt_deployment_input_seed (3), ==, 1093);
      for (guint it = 0; it < 3; it++)
        {
          g_autoptr (GPtrArray) inputs = xrt_deployment_make_inputs (dep, it, &error);
          g_assert_no_error (error);
          assert_inputs_equal (inputs, net, view, it, 0);
        }
      {
        g_autoptr (GPtrArray) inputs = xrt_deployment_seeded_inputs (view, 330, &error);
        g_assert_no_error (error);
        assert_inputs_equal (inputs, net, view, 0, 330);
      }
    }
}

/* Synthetic params: the one seed, the same bytes as xir_network_fake_params (net, 330) (the
 * copies' call), and said so. */
static void
test_synthetic_params_are_the_old_bytes (void)
{
  g_autofree char *json = g_strdup_printf ("%s/networks/tiny_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) old = xir_network_new_from_json_file (json, &error);
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, &error);
  g_autoptr (XrtDeployment) dep = NULL;
  g_autofree char *said = NULL;
  GPtrArray *params;
  guint64 seed = 0;

  g_assert_no_error (error);
  xir_network_fake_params (old, 330);
  dep = xrt_deployment_new (net, &error);
  g_assert_no_error (error);
  xrt_deployment_use_synthetic_params (dep);
  g_assert_true (xir_network_get_params_seed (net, &seed));
  g_assert_cmpuint (seed, ==, 330);
  g_assert_cmpuint (XRT_DEPLOYMENT_SYNTHETIC_SEED, ==, 330);
  said = xrt_deployment_describe_params (dep);
  g_assert_cmpstr (said, ==, "synthetic params (seed 330)");
  /* and the deployment's report says so, in its JSON and its text log */
  {
    g_autoptr (ZwDeployReport) plan = NULL;
    g_autoptr (ZwDeployReport) loaded = NULL;
    g_autofree char *dir = g_dir_make_tmp ("test-deployment-XXXXXX", &error);
    g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
    g_autofree char *text = NULL;

    g_assert_true (xrt_deployment_open_board (dep, NULL, &error));
    plan = xrt_deployment_plan (dep, &error);
    g_assert_no_error (error);
    g_assert_cmpint (plan->params_seed, ==, 330);
    g_assert_true (zw_deploy_report_save (plan, path, &error));
    loaded = zw_deploy_report_load (path, &error);
    g_assert_no_error (error);
    g_assert_cmpint (loaded->params_seed, ==, 330);
    text = zw_deploy_report_to_text (loaded);
    g_assert_nonnull (strstr (text, "\nparams: synthetic (seed 330)\n"));
    g_unlink (path);
    g_rmdir (dir);
  }
  g_assert_cmpuint (xir_network_get_params_bytes (net), ==, xir_network_get_params_bytes (old));
  g_assert_cmpstr (xir_network_get_params_md5 (net), ==, xir_network_get_params_md5 (old));
  params = xir_network_get_params (net);
  g_assert_cmpuint (params->len, >, 0);
  for (guint i = 0; i < params->len; i++)
    {
      const XirValue *p = g_ptr_array_index (params, i);
      const XirValue *q = g_ptr_array_index (xir_network_get_params (old), i);
      g_assert_cmpint (p->v_id, ==, q->v_id);
      g_assert_cmpmem (xir_network_get_params_data (net, p), p->storage_bytes, xir_network_get_params_data (old, q),
                       q->storage_bytes);
    }
}

/* Plan, apply and forward through the deployment: the report has the graph, the forward
 * gives the outputs a session fed the old inputs gives. */
static void
test_deploy_and_forward (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDeployment) planned = xrt_deployment_new (net, &error);
  g_autoptr (XrtDeployment) dep = xrt_deployment_new (net, &error);
  g_autoptr (ZwDeployReport) plan = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autoptr (GPtrArray) outputs = NULL;
  g_autoptr (GPtrArray) before = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (xrt_deployment_get_target_url (dep), ==, "mock://zg330");
  g_assert_true (xrt_deployment_targets_simulated_board (dep));
  g_assert_false (xrt_deployment_is_compiler_placed (dep));

  /* plan: the board backend alone */
  g_assert_null (xrt_deployment_plan (planned, &error));
  g_assert_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_true (xrt_deployment_open_board (planned, NULL, &error));
  xrt_deployment_disable_merge_hardop (planned);
  plan = xrt_deployment_plan (planned, &error);
  g_assert_no_error (error);
  g_assert_true (zw_deploy_report_has_graph (plan));
  g_assert_null (xrt_deployment_get_session (planned));

  /* apply and forward on a what-if board (a smaller OCM) */
  {
    XrtBoardFigures figures;
    g_assert_true (xrt_board_figures_get_default (&figures, &error));
    figures.ocm_bytes /= 2;
    g_assert_true (xrt_deployment_open_simulated_board (dep, &figures, &error));
  }
  xrt_deployment_set_options (dep, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  inputs = xrt_deployment_make_inputs (dep, 0, &error);
  g_assert_no_error (error);
  g_assert_null (xrt_deployment_forward (dep, inputs, &error));
  g_assert_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_true (xrt_deployment_apply (dep, &error));
  g_assert_no_error (error);
  report = xrt_deployment_get_report (dep);
  g_assert_true (zw_deploy_report_has_graph (report));
  g_assert_cmpint (report->params_seed, ==, -1);   /* the .raw's */
  g_assert_cmpuint (report->ocm_bytes, ==, plan->ocm_bytes / 2);
  outputs = xrt_deployment_forward (dep, inputs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (outputs->len, >, 0);

  /* the same forward through a session of its own, fed the old recipe's bytes */
  {
    g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
    g_autoptr (XrtSession) sess = xrt_session_new_for_device (xrt_deployment_get_view (dep), dev, &error);
    g_autoptr (GPtrArray) old = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
    XirNetworkView *view = xrt_deployment_get_view (dep);
    g_assert_no_error (error);
    g_assert_true (xrt_session_apply (sess, &error));
    for (guint k = 0; k < xir_network_view_get_inputs (view)->len; k++)
      {
        g_autoptr (GBytes) b = old_input (net, view, 0, 0, k);
        XrtTensor *t = xrt_tensor_new_host (net, g_ptr_array_index (xir_network_view_get_inputs (view), k),
                                            g_bytes_get_data (b, NULL), g_bytes_get_size (b), &error);
        g_assert_no_error (error);
        g_ptr_array_add (old, t);
      }
    before = xrt_session_forward (sess, old, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpuint (before->len, ==, outputs->len);
  for (guint i = 0; i < outputs->len; i++)
    {
      g_autoptr (GBytes) a = xrt_tensor_get_bytes (g_ptr_array_index (outputs, i), &error);
      g_autoptr (GBytes) b = xrt_tensor_get_bytes (g_ptr_array_index (before, i), &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (a, b));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/deployment/seeded-inputs-are-the-old-bytes", test_seeded_inputs_are_the_old_bytes);
  g_test_add_func ("/deployment/synthetic-params-are-the-old-bytes", test_synthetic_params_are_the_old_bytes);
  g_test_add_func ("/deployment/plan-apply-forward-report-with-graph", test_deploy_and_forward);
  return g_test_run ();
}
