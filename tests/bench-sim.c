/* bench-sim — the demo networks (and the real sample with synthetic params) on the simulated
 * board: the ETM plan (arena / liveness lower bound, time), the simulated time of a forward
 * with OCM NONE vs BEST_SCORE, merge on vs off, and how long the simulator takes per forward. */
#include "backends/zg330/zg330-backend.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"

#include <stdio.h>
#include <string.h>

static gboolean
forward (Zg330Backend *b, double *sim_ms, double *wall_ms)
{
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();

  *sim_ms = 0;
  for (guint i = 0; i < zg330_backend_get_n_launches (b); i++)
    {
      double icore = 0, sync = 0;
      if (!zg330_backend_run_launch (b, i, &icore, &sync, &error))
        {
          fprintf (stderr, "bench-sim: %s\n", error->message);
          return FALSE;
        }
      *sim_ms += icore + sync;
    }
  *wall_ms = (g_get_monotonic_time () - t0) / 1e3;
  return TRUE;
}

static gboolean
bench_net (const char *label, XirNetwork *net, XrtDevice *dev)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  double sim[4] = { 0 }, wall[4] = { 0 };
  struct { gboolean merge; ZwOcmOpt ocm; } cfg[4] = {
    { TRUE, ZW_OCM_NONE }, { TRUE, ZW_OCM_BEST_SCORE }, { FALSE, ZW_OCM_NONE }, { FALSE, ZW_OCM_BEST_SCORE },
  };
  guint64 arena = 0, bound = 0, sum = 0;
  double plan_s = 0;
  ZwOcmOpt chosen = ZW_OCM_NONE;

  for (int k = 0; k < 4; k++)
    {
      g_autoptr (Zg330Backend) b = zg330_backend_new (view, dev, &error);
      g_autoptr (ZwDeployReport) r = NULL;
      if (b == NULL || !zg330_backend_set_options (b, cfg[k].merge, TRUE, cfg[k].ocm, &error)
          || !zg330_backend_apply (b, &error))
        {
          fprintf (stderr, "bench-sim: %s: %s\n", label, error->message);
          return FALSE;
        }
      r = zg330_backend_get_report (b);
      if (k == 0)
        {
          arena = r->ftmp_bytes;
          bound = r->lower_bound;
          sum = r->sum_of_chunks;
          plan_s = r->etm_seconds;
        }
      if (k == 1)
        chosen = r->ocm_chosen;
      if (!forward (b, &sim[k], &wall[k]))
        return FALSE;
    }
  printf ("%-12s ETM plan: FTMP %10" G_GUINT64_FORMAT " / lower bound %10" G_GUINT64_FORMAT " = %.4f (sum of chunks %.2fx) in %.3f s\n",
          label, arena, bound, bound ? (double) arena / (double) bound : 1.0, arena ? (double) sum / (double) arena : 0,
          plan_s);
  printf ("%-12s simulated: merged %.3f ms (OCM NONE) -> %.3f ms (BEST_SCORE=%s, %.2fx faster); unmerged %.3f -> %.3f ms\n",
          label, sim[0], sim[1], zw_ocm_opt_to_string (chosen), sim[1] > 0 ? sim[0] / sim[1] : 0, sim[2], sim[3]);
  printf ("%-12s simulator wall time per forward: %.1f ms (%.1fx the simulated time)\n", label, wall[1],
          sim[1] > 0 ? wall[1] / sim[1] : 0);
  return TRUE;
}

int
main (void)
{
  static const char *names[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s" };
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  const char *data = g_getenv ("ZW_DATA_DIR");
  g_autofree char *real = g_build_filename (g_getenv ("ZW_SHARED_DIR") ? g_getenv ("ZW_SHARED_DIR") : ".", "real",
                                            "yolov5s_plin_352x640_ZG.json", NULL);

  if (dev == NULL || data == NULL)
    {
      fprintf (stderr, "bench-sim: %s\n", dev ? "ZW_DATA_DIR is not set" : error->message);
      return 1;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *json = g_strdup_printf ("%s/networks/%s_ZG.json", data, names[i]);
      g_autofree char *raw = g_strdup_printf ("%s/networks/%s_ZG.raw", data, names[i]);
      g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, &error);
      if (net == NULL || !xir_network_load_params_from_file (net, raw, &error) || !bench_net (names[i], net, dev))
        {
          fprintf (stderr, "bench-sim: %s\n", error ? error->message : names[i]);
          return 1;
        }
    }
  if (g_file_test (real, G_FILE_TEST_EXISTS))
    {
      g_autoptr (XirNetwork) net = xir_network_new_from_json_file (real, &error);
      if (net == NULL)
        return 1;
      xir_network_fake_params (net, 330);
      if (!bench_net ("real-yolov5s", net, dev))
        return 1;
    }
  else
    printf ("real sample absent (../shared/real): skipped\n");
  return 0;
}
