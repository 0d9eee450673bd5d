/* The README's example: load a network, deploy it on the simulated ZG330 and run a forward.
 * Build against the installed library:  cc example-forward.c $(pkg-config --cflags --libs zhuge-runtime) */
#include <xir/xir-network.h>
#include <xrt/xrt-session.h>
#include <backends/zg330/zg330-backend.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  GError *error = NULL;
  const char *json = argc > 1 ? argv[1] : "yolov5s_ZG.json";
  const char *raw = argc > 2 ? argv[2] : "yolov5s_ZG.raw";

  /* 1. the network and its params */
  XirNetwork *net = xir_network_new_from_json_file (json, &error);
  if (net == NULL || !xir_network_load_params_from_file (net, raw, &error))
    goto fail;

  /* 2. the device and a session: ZG330Backend first, HostBackend for the rest */
  XrtDevice *dev = xrt_device_open ("mock://zg330", &error);
  if (dev == NULL)
    goto fail;
  XirNetworkView *view = xir_network_view (net, 0, G_MAXINT, &error);
  const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devices[] = { dev, NULL };
  XrtSession *sess = xrt_session_new (view, types, devices, 2, &error);
  if (sess == NULL)
    goto fail;

  /* 3. options before apply, then deploy */
  Zg330Backend *zg = ZG330_BACKEND (xrt_session_get_board_backend (sess));
  if (!zg330_backend_ocm_optimize (zg, ZW_OCM_BEST_SCORE, &error) || !xrt_session_apply (sess, &error))
    goto fail;

  /* 4. one input tensor per network input (zeros here), forward, read the outputs */
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *net_inputs = xir_network_get_inputs (net);
  for (guint i = 0; i < net_inputs->len; i++)
    g_ptr_array_add (inputs, xrt_tensor_new_host (net, g_ptr_array_index (net_inputs, i), NULL, 0, &error));
  xrt_session_enable_time_profile (sess, TRUE);
  GPtrArray *outputs = xrt_session_forward (sess, inputs, &error);
  if (outputs == NULL)
    goto fail;
  printf ("%u outputs, %.3f ms (OCM option chosen: %s)\n", outputs->len, xrt_session_get_total_time (sess),
          zw_ocm_opt_to_string (zg330_backend_get_ocm_opt (zg)));

  g_ptr_array_unref (outputs);
  g_ptr_array_unref (inputs);
  xrt_session_unref (sess);
  xir_network_view_unref (view);
  xrt_device_unref (dev);
  xir_network_unref (net);
  return 0;

fail:
  fprintf (stderr, "example: %s\n", error->message);
  g_error_free (error);
  return 1;
}
