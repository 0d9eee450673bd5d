/* fuzz-network.c — the network JSON: load, summarise (xrt-run info), synthesise params when
 * their size is one a file could justify, and plan the hardops (xrt-run plan). */
#include "zw-fuzz.h"

#include "backends/zg330/zg330-backend.h"
#include "report/zw-deploy-check.h"
#include "xir/xir-summary.h"

#include <stdio.h>
#include <stdlib.h>

int
zw_fuzz_network (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = xir_network_new_from_json_data ((const char *) data, size, "fuzz_ZG.json", &error);

  if (net == NULL)
    {
      zw_fuzz_check_error (error, "fuzz_ZG.json", "xir_network_new_from_json_data");
      return 0;
    }
  cJSON *summary = xir_network_summarize (net);
  cJSON_Delete (summary);
  GPtrArray *values = xir_network_get_values (net);
  for (guint i = 0; i < values->len; i++)
    {
      g_free (xir_value_describe_dtype (values->pdata[i]));
      g_free (xir_value_describe_mtype (values->pdata[i]));
    }
  /* only small networks go on: a plan of a huge one is the benchmarks' business */
  if (xir_network_get_n_ops (net) > 64 || xir_network_get_params_bytes (net) > (1u << 24))
    return 0;
  xir_network_fake_params (net, 1);
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  if (view == NULL)
    {
      zw_fuzz_check_error (error, NULL, "xir_network_view");
      return 0;
    }
  static XrtDevice *device;
  if (device == NULL)
    device = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) backend = zg330_backend_new (view, device, &error);
  if (backend == NULL)
    {
      zw_fuzz_check_error (error, NULL, "zg330_backend_new");
      return 0;
    }
  zw_deploy_report_unref (zg330_backend_get_report (backend));  /* the plan before apply */
  if (!zg330_backend_apply (backend, &error))
    {
      zw_fuzz_check_error (error, NULL, "zg330_backend_apply");
      return 0;
    }
  g_autoptr (ZwDeployReport) report = zg330_backend_get_report (backend);
  ZwDeployCheck check;
  if (!zw_deploy_report_check (report, &check, &error))
    {
      fprintf (stderr, "zw-fuzz: the plan of an accepted network fails the checker: %s\n", error->message);
      abort ();
    }
  return 0;
}
