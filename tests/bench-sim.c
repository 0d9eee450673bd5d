/* bench-sim — the demo networks (and the real sample with synthetic params) on the simulated
 * board: the ETM plan (arena / liveness lower bound, time), the simulated time of a forward
 * with OCM NONE vs BEST_SCORE, merge on vs off, and how long the simulator takes per forward:
 * its conv multiply-accumulates per CPU-second of the forward against this machine's int8
 * peak per core-second (the vpdpbusd microkernel of bench-kernels, or vpmaddwd on AVX2), both measured in the
 * same run, so a busy machine moves neither much (goal: >= 30 %). */
#include "backends/zg330/zg330-backend.h"
#include "kernels/zg330-kernels.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"

#include "bench-peak.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double core_peak_gmacs;  /* 0: no microkernel for this CPU */

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}


/* The int8 MACs one core does per CPU-second in the tightest loop of the instruction the
 * conv uses here (vpdpbusd, or vpmaddwd on AVX2; best of 9); 0 for plain C. */
static double
measure_core_peak (void)
{
  double best = 0;
#if ZW_BENCH_HAVE_X86
  const gboolean vnni = strcmp (zg330_kernel_get_isa (), "avx512-vnni") == 0;
  const double per_iter = vnni ? ZW_BENCH_PEAK_MACS_PER_ITER : ZW_BENCH_PEAK_AVX2_MACS_PER_ITER;

  if (!vnni && strcmp (zg330_kernel_get_isa (), "avx2") != 0)
    return 0;
  for (int run = 0; run < 9; run++)
    {
      struct timespec a, b;
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &a);
      if (vnni)
        zw_bench_peak_vnni (3000000);
      else
        zw_bench_peak_avx2 (3000000);
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &b);
      double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
      if (s > 0)
        best = MAX (best, 3000000.0 * per_iter / (s * 1e9));
    }
#endif
  return best;
}

/* The multiply-accumulates of the network's conv hardops (shapes NCHWcK, weights
 * OIHWoKoiKi): out pixels x out channels x taps x input channels per group. */
static double
conv_macs (XirNetwork *net)
{
  double macs = 0;

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      XirValue *in, *out, *w;

      if (op->hard_class == NULL || strcmp (op->hard_class, "Conv2d") != 0 || op->inputs->len == 0
          || op->outputs->len == 0 || op->params->len == 0)
        continue;
      in = g_ptr_array_index (op->inputs, 0);
      out = g_ptr_array_index (op->outputs, 0);
      w = g_ptr_array_index (op->params, 0);
      if (in->rank != 5 || out->rank != 5 || w->rank != 6)
        continue;
      double cin = (double) (in->shape[1] * in->shape[4]), iw = (double) (w->shape[1] * w->shape[5]);
      macs += (double) out->shape[2] * out->shape[3] * out->shape[1] * out->shape[4] * w->shape[2] * w->shape[3]
              * MIN (cin, iw);
    }
  return macs;
}

static gboolean
forward (Zg330Backend *b, double *sim_ms, double *wall_ms, double *cpu_s)
{
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_seconds ();

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
  *cpu_s = cpu_seconds () - c0;
  return TRUE;
}

static gboolean
bench_net (const char *label, XirNetwork *net, XrtDevice *dev)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  double sim[4] = { 0 }, wall[4] = { 0 }, cpu[4] = { 0 }, best_cpu = G_MAXDOUBLE, macs = conv_macs (net);
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
      if (!forward (b, &sim[k], &wall[k], &cpu[k]))
        return FALSE;
      /* the forward again, with its weights packed by the first: the steady state */
      for (int rep = 0; k == 1 && rep < 3; rep++)
        {
          double s, w, c;
          if (!forward (b, &s, &w, &c))
            return FALSE;
          best_cpu = MIN (best_cpu, c);
        }
    }
  printf ("%-12s ETM plan: FTMP %10" G_GUINT64_FORMAT " / lower bound %10" G_GUINT64_FORMAT " = %.4f (sum of chunks %.2fx) in %.3f s\n",
          label, arena, bound, bound ? (double) arena / (double) bound : 1.0, arena ? (double) sum / (double) arena : 0,
          plan_s);
  printf ("%-12s simulated: merged %.3f ms (OCM NONE) -> %.3f ms (BEST_SCORE=%s, %.2fx faster); unmerged %.3f -> %.3f ms\n",
          label, sim[0], sim[1], zw_ocm_opt_to_string (chosen), sim[1] > 0 ? sim[0] / sim[1] : 0, sim[2], sim[3]);
  printf ("%-12s simulator wall time per forward: %.1f ms (%.1fx the simulated time)\n", label, wall[1],
          sim[1] > 0 ? wall[1] / sim[1] : 0);
  if (core_peak_gmacs > 0 && best_cpu > 0)
    printf ("%-12s simulator conv work: %.2f GMAC in %.1f CPU-ms per forward (best of 3 repeats) = %.1f GMAC per "
            "core-second = %.1f %% of the int8 core peak %.1f (goal >= 30 %%)\n",
            label, macs / 1e9, best_cpu * 1e3, macs / best_cpu / 1e9, 100.0 * macs / best_cpu / 1e9 / core_peak_gmacs,
            core_peak_gmacs);
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

  core_peak_gmacs = measure_core_peak ();
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
