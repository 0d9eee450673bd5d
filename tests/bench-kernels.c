/* bench-kernels.c: the conv kernel on realistic YOLOv5s layers against this machine's
 * int8 multiply-accumulate peak, both measured in the same run.  Prints figures, never
 * asserts on them.
 *
 * Two views: wall-clock rates (what a user waits for; diluted when other programs share
 * the cores) and rates per CPU-second (MACs divided by the CPU time the process got),
 * which compare the conv's inner loops with the microkernel's even on a busy machine.
 *
 * Environment: BENCH_THREADS (kernel threads; default the processors), BENCH_LAYER (only
 * the layers whose name holds it, no summary), BENCH_NETWORK (another network's convs than
 * the real sample's), BENCH_VERBOSE (a line per conv of the network). */
#include "kernels/zg330-kernels.h"

#include "bench-peak.h"

#include <cjson/cJSON.h>

#include <string.h>
#include <time.h>

#define PEAK_ITERS 3000000u
#define PEAK_RUNS 9
#define CONV_REPS 15


static gboolean use_vnni;

static double
cpu_seconds (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* CPU seconds this thread and the kernels' helper threads have spent: exact, where the
 * process clock misses a helper's last stretch until it sleeps (one run of a fraction of a
 * millisecond on two threads read from half to more than its whole CPU time). */
static double
run_cpu_seconds (void)
{
  return cpu_seconds (CLOCK_THREAD_CPUTIME_ID) + (double) zg330_kernel_get_helper_cpu_ns () * 1e-9;
}

/* MACs per loop iteration of the peak loop, 0 when there is none for this CPU. */
static guint64
peak_macs_per_iter (void)
{
#if ZW_BENCH_HAVE_X86
  if (use_vnni)
    return ZW_BENCH_PEAK_MACS_PER_ITER;
  if (__builtin_cpu_supports ("avx2"))
    return ZW_BENCH_PEAK_AVX2_MACS_PER_ITER;
#endif
  return 0;
}

typedef struct {
  guint64 sink;
  double cpu;      /* CPU seconds the thread spent in the loop */
} PeakThread;

static gpointer
peak_thread (gpointer data)
{
  PeakThread *pt = data;
  double t0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
#if ZW_BENCH_HAVE_X86
  if (use_vnni)
    pt->sink = zw_bench_peak_vnni (PEAK_ITERS);
  else if (__builtin_cpu_supports ("avx2"))
    pt->sink = zw_bench_peak_avx2 (PEAK_ITERS);
#endif
  pt->cpu = cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
  return NULL;
}

/* Best of several short runs on @threads threads: the wall-clock rate of all of them
 * together, and the rate of one core per CPU-second it ran. */
static void
measure_peak (guint threads, double *wall_gmacs, double *core_gmacs)
{
  GThread **th = g_new (GThread *, threads);
  PeakThread *pt = g_new0 (PeakThread, threads);
  double per_thread = (double) peak_macs_per_iter () * PEAK_ITERS;

  *wall_gmacs = *core_gmacs = 0;
  for (guint run = 0; per_thread > 0 && run < PEAK_RUNS; run++)
    {
      gint64 t0 = g_get_monotonic_time (), t1;
      for (guint i = 0; i < threads; i++)
        th[i] = g_thread_new ("peak", peak_thread, &pt[i]);
      for (guint i = 0; i < threads; i++)
        g_thread_join (th[i]);
      t1 = g_get_monotonic_time ();
      *wall_gmacs = MAX (*wall_gmacs, per_thread * threads / ((double) (t1 - t0) * 1e3));
      for (guint i = 0; i < threads; i++)
        if (pt[i].cpu > 0)
          *core_gmacs = MAX (*core_gmacs, per_thread / (pt[i].cpu * 1e9));
    }
  g_free (th);
  g_free (pt);
}

typedef struct {
  const char *name;
  guint c, h, w, k_in;
  guint oc, oh, ow;
  guint kh, kw, ki;        /* ki 0: depthwise (one input channel per output channel) */
  guint s, pad;
  guint groups;            /* > 1: a grouped conv, ki = the input channels of a group */
  const char *cls;         /* the conv class the summary groups it under */
} Layer;

/* The worst per-core-second percentage of the peak seen per class, for the summary. */
static GHashTable *class_best;

/* Returns the time of one conv, best of the repeats, in CPU-seconds. */
static double
bench_layer (const Layer *l, double peak, double core_peak)
{
  GRand *rand = g_rand_new_with_seed (1);
  guint ki = l->ki ? l->ki : 1, ob = l->oc / 32;
  guint ib = l->groups > 1 ? 1 : l->ki ? (l->c + l->ki - 1) / l->ki : 1;
  Zg330KernelTensor in = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, l->c, l->h, l->w, l->k_in, NULL, NULL, 0 };
  Zg330KernelTensor out = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, l->oc, l->oh, l->ow, 32, NULL, NULL, 0 };
  Zg330KernelWeights w = { ob, ib, l->kh, l->kw, 32, ki, NULL, 0, NULL, NULL, 0 };
  Zg330ConvParams p = { l->s, l->s, l->pad, l->pad };
  float *in_scales = g_new (float, l->c), *out_scales = g_new (float, l->oc);
  float *w_scales = g_new (float, l->oc);
  guint8 *bias = g_malloc0 (2 * (gsize) l->oc);
  gint8 *wd;
  double best = G_MAXDOUBLE, best_cpu = G_MAXDOUBLE, macs, gmacs, core_gmacs;
  GError *error = NULL;

  in.size = zg330_kernel_tensor_get_size (&in);
  out.size = zg330_kernel_tensor_get_size (&out);
  /* on a cache line, as the runtime's operands are (zg330-hardop-call.c) */
  in.data = g_aligned_alloc (in.size, 1, 64);
  out.data = g_aligned_alloc (out.size, 1, 64);
  w.size = (gsize) ob * 32 * ib * ki * l->kh * l->kw;
  wd = g_malloc (w.size);
  for (gsize i = 0; i < in.size; i++)
    ((guint8 *) in.data)[i] = (guint8) g_rand_int (rand);
  for (gsize i = 0; i < w.size; i++)
    wd[i] = (gint8) g_rand_int (rand);
  /* scales as a compiled network has them (the input's is one of the real sample's), per
   * channel for the weights: round decimals (0.05 * 0.003 / 0.2) would put every 4000th
   * accumulator exactly on a rounding tie, which the float requantisation hands to the
   * double rule; real scales rarely do */
  for (guint c = 0; c < l->c; c++)
    in_scales[c] = 0.0524748f;
  for (guint o = 0; o < l->oc; o++)
    {
      w_scales[o] = 0.00287f + 0.0000913f * (float) (o % 7);
      out_scales[o] = 0.2113f;
    }
  in.scales = in_scales;
  out.scales = out_scales;
  w.data = wd;
  w.scales = w_scales;
  w.bias = bias;
  w.bias_size = 2 * (gsize) l->oc;

  macs = (double) l->oh * l->ow * l->oc * l->kh * l->kw
         * (l->ki == 0 ? 1 : l->groups > 1 ? l->ki : l->c);
  guint reps = g_getenv ("BENCH_REPS") ? (guint) g_ascii_strtoull (g_getenv ("BENCH_REPS"), NULL, 10) : CONV_REPS;
  gint64 spent = 0, t_first;
  guint batch;

  /* the first call packs the weights; the best of the next three sets the batch: calls
   * are timed in batches of about a millisecond, as reading the thread's CPU clock is a
   * system call of one to two microseconds here, which a batch of 100 us still counted in
   * a 20 us layer's time (192 ch s2 28x28, 8 rounds: 23.2 % of the core peak with batches
   * of 5 calls, 23.7 % with 50) */
  if (!zg330_kernel_conv2d (&in, &w, &p, &out, &error))
    g_error ("%s: %s", l->name, error->message);
  t_first = G_MAXINT64;
  for (guint i = 0; i < 3; i++)
    {
      gint64 t = g_get_monotonic_time ();
      if (!zg330_kernel_conv2d (&in, &w, &p, &out, &error))
        g_error ("%s: %s", l->name, error->message);
      t_first = MIN (t_first, MAX (g_get_monotonic_time () - t, 1));
    }
  batch = g_getenv ("BENCH_BATCH") ? (guint) CLAMP (g_ascii_strtoull (g_getenv ("BENCH_BATCH"), NULL, 10), 1, 1000)
                                    : (guint) CLAMP (1000 / t_first, 1, 256);
  /* at least @reps batches, and for small layers until 50 ms were spent (at most 2000): the
   * best of many short runs is steady where the best of 15 still sees a cold clock */
  for (guint rep = 0; rep < MAX (reps, 1u) || (spent < 50000 && rep < 2000); rep++)
    {
      gint64 t0 = g_get_monotonic_time (), t1;
      double c0 = run_cpu_seconds ();
      for (guint b = 0; b < batch; b++)
        if (!zg330_kernel_conv2d (&in, &w, &p, &out, &error))
          g_error ("%s: %s", l->name, error->message);
      best_cpu = MIN (best_cpu, (run_cpu_seconds () - c0) / batch);
      t1 = g_get_monotonic_time ();
      best = MIN (best, (double) (t1 - t0) / batch);
      spent += t1 - t0;
    }
  gmacs = macs / (best * 1e3);
  core_gmacs = macs / (best_cpu * 1e9);
  g_print ("  %-38s %6.1f MMAC %7.3f ms %6.1f GMAC/s", l->name, macs / 1e6, best / 1e3, gmacs);
  if (peak > 0)
    g_print (" = %5.1f %% of peak | %6.1f GMAC/s per core-second = %5.1f %% of core peak",
             100.0 * gmacs / peak, core_gmacs, 100.0 * core_gmacs / core_peak);
  g_print ("\n");
  if (l->cls != NULL && core_peak > 0)
    {
      double *best_pct = g_hash_table_lookup (class_best, l->cls);
      if (best_pct == NULL)
        {
          best_pct = g_new0 (double, 1);
          *best_pct = G_MAXDOUBLE;
          g_hash_table_insert (class_best, (gpointer) l->cls, best_pct);
        }
      *best_pct = MIN (*best_pct, 100.0 * core_gmacs / core_peak);
    }

  g_aligned_free (in.data);
  g_aligned_free (out.data);
  g_free (wd);
  g_free (bias);
  g_free (in_scales);
  g_free (out_scales);
  g_free (w_scales);
  g_rand_free (rand);
  return best_cpu;
}

static guint
json_dim (const cJSON *value, int i)
{
  const cJSON *shape = cJSON_GetObjectItem (cJSON_GetObjectItem (value, "dtype"), "shape");
  const cJSON *d = cJSON_GetArrayItem (shape, i);
  return cJSON_IsNumber (d) ? (guint) d->valuedouble : 0;
}

static int
json_rank (const cJSON *value)
{
  return cJSON_GetArraySize (cJSON_GetObjectItem (cJSON_GetObjectItem (value, "dtype"), "shape"));
}

/* Every Conv2d hardop of the real YOLOv5s network (shapes only, random data), when the
 * shared directory holds it: the conv share of one simulated forward. */
static void
bench_real_network (double peak)
{
  const char *dir = g_getenv ("ZW_SHARED_DIR") ? g_getenv ("ZW_SHARED_DIR") : ZW_SHARED_DIR;
  /* BENCH_NETWORK: another network's convs instead (a demo network, say) */
  g_autofree char *path = g_getenv ("BENCH_NETWORK") ? g_strdup (g_getenv ("BENCH_NETWORK"))
                          : g_build_filename (dir, "real", "yolov5s_plin_352x640_ZG.json", NULL);
  g_autofree char *label = g_getenv ("BENCH_NETWORK") ? g_path_get_basename (path) : g_strdup ("real YOLOv5s 352x640");
  g_autofree char *text = NULL;
  cJSON *root, *op;
  GRand *rand = g_rand_new_with_seed (2);
  double total_ms = 0, total_macs = 0;
  guint n_convs = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (root = cJSON_Parse (text)) == NULL)
    {
      g_print ("real network: %s not readable, skipped\n", path);
      g_rand_free (rand);
      return;
    }
  cJSON_ArrayForEach (op, cJSON_GetObjectItem (root, "ops"))
    {
      const cJSON *name = cJSON_GetObjectItem (op, "name");
      const cJSON *in_v, *out_v, *w_v;
      Zg330KernelTensor in = { ZG330_KERNEL_LAYOUT_NCHWC, ZG330_KERNEL_DTYPE_SINT8, 1, 0, 0, 0, 0, NULL, NULL, 0 };
      Zg330KernelTensor out = in;
      Zg330KernelWeights w = { 0 };
      Zg330ConvParams p;
      float *si, *so, *sw;
      gint64 t0;
      double best;
      GError *error = NULL;

      if (!cJSON_IsString (name) || strcmp (name->valuestring, "icraft::xir::Conv2dNode") != 0)
        continue;
      in_v = cJSON_GetArrayItem (cJSON_GetObjectItem (op, "inputs"), 0);
      out_v = cJSON_GetArrayItem (cJSON_GetObjectItem (op, "outputs"), 0);
      w_v = cJSON_GetArrayItem (cJSON_GetObjectItem (op, "params"), 0);
      if (json_rank (in_v) != 5 || json_rank (out_v) != 5 || json_rank (w_v) != 6)
        continue;
      in.k = json_dim (in_v, 4); in.c = json_dim (in_v, 1) * in.k;
      in.h = json_dim (in_v, 2); in.w = json_dim (in_v, 3);
      out.k = json_dim (out_v, 4); out.c = json_dim (out_v, 1) * out.k;
      out.h = json_dim (out_v, 2); out.w = json_dim (out_v, 3);
      w.ob = json_dim (w_v, 0); w.ib = json_dim (w_v, 1); w.kh = json_dim (w_v, 2);
      w.kw = json_dim (w_v, 3); w.ko = json_dim (w_v, 4); w.ki = json_dim (w_v, 5);
      if (!zg330_conv_infer_geometry (in.h, in.w, out.h, out.w, w.kh, w.kw, &p.stride_h,
                                      &p.stride_w, &p.pad_top, &p.pad_left, &error))
        g_error ("%s", error->message);
      in.size = zg330_kernel_tensor_get_size (&in);
      out.size = zg330_kernel_tensor_get_size (&out);
      in.data = g_aligned_alloc (in.size, 1, 64);
      out.data = g_aligned_alloc (out.size, 1, 64);
      w.size = (gsize) w.ob * w.ib * w.kh * w.kw * w.ko * w.ki;
      w.data = g_malloc (w.size);
      for (gsize i = 0; i < in.size; i++)
        ((guint8 *) in.data)[i] = (guint8) g_rand_int (rand);
      for (gsize i = 0; i < w.size; i++)
        ((gint8 *) w.data)[i] = (gint8) g_rand_int (rand);
      si = g_new (float, in.c); so = g_new (float, out.c); sw = g_new (float, w.ob * w.ko);
      for (guint c = 0; c < in.c; c++) si[c] = 0.05f;
      for (guint c = 0; c < out.c; c++) so[c] = 0.2f;
      for (guint c = 0; c < w.ob * w.ko; c++) sw[c] = 0.003f;
      in.scales = si; out.scales = so; w.scales = sw;

      best = G_MAXDOUBLE;
      for (guint rep = 0; rep < 3; rep++)
        {
          t0 = g_get_monotonic_time ();
          if (!zg330_kernel_conv2d (&in, &w, &p, &out, &error))
            g_error ("conv op %d: %s", cJSON_GetObjectItem (op, "op_id")->valueint, error->message);
          best = MIN (best, (double) (g_get_monotonic_time () - t0) / 1e3);
        }
      total_ms += best;
      if (g_getenv ("BENCH_VERBOSE"))
        g_print ("    op %d: %ux%ux%u -> %ux%ux%u k%ux%u: %.3f ms\n",
                 cJSON_GetObjectItem (op, "op_id")->valueint, in.c, in.h, in.w, out.c, out.h,
                 out.w, w.kh, w.kw, best);
      total_macs += (double) out.h * out.w * out.c * w.kh * w.kw * MIN (in.c, w.ib * w.ki);
      n_convs++;
      g_aligned_free (in.data); g_aligned_free (out.data); g_free ((gpointer) w.data);
      g_free (si); g_free (so); g_free (sw);
    }
  g_print ("%s: %u conv hardops, %.2f GMAC in %.1f ms = %.1f GMAC/s "
           "(best of 3 per layer)", label, n_convs, total_macs / 1e9, total_ms,
           total_macs / (total_ms * 1e6));
  if (peak > 0)
    g_print (" = %.1f %% of the measured peak (target >= 25 %%)", 100.0 * total_macs / (total_ms * 1e6) / peak);
  g_print ("\n");
  cJSON_Delete (root);
  g_rand_free (rand);
}

int
main (void)
{
  static const Layer layers[] = {
    { "stem 3->32 6x6 s2, 352x640 (NCHWc3)", 3, 352, 640, 3, 32, 176, 320, 6, 6, 3, 2, 2, 1, "stem (3 input channels)" },
    { "1x2x88x160x32 -> 64 ch 3x3 s1", 64, 88, 160, 32, 64, 88, 160, 3, 3, 32, 1, 1, 1, "dense 3x3 stride 1" },
    { "1x2x88x160x32 -> 128 ch 3x3 s2", 64, 88, 160, 32, 128, 44, 80, 3, 3, 32, 2, 1, 1, "dense 3x3 stride 2" },
    { "1x4x44x80x32 1x1 128->128", 128, 44, 80, 32, 128, 44, 80, 1, 1, 32, 1, 0, 1, "dense 1x1" },
    { "1x8x22x40x32 -> 512 ch 3x3 s2", 256, 22, 40, 32, 512, 11, 20, 3, 3, 32, 2, 1, 1, "dense 3x3 stride 2" },
    { "1x32x11x20x32 1x1 1024->512", 1024, 11, 20, 32, 512, 11, 20, 1, 1, 32, 1, 0, 1, "dense 1x1" },
    { "grouped 8x16 ch 3x3 s1, 128 ch 44x80", 128, 44, 80, 32, 128, 44, 80, 3, 3, 16, 1, 1, 8, "grouped 3x3, 16 ch/group" },
    { "grouped 32x4 ch 3x3 s1, 128 ch 44x80", 128, 44, 80, 32, 128, 44, 80, 3, 3, 4, 1, 1, 32, "grouped 3x3, 4 ch/group" },
    { "depthwise 96 ch 3x3 s2, 112x112", 96, 112, 112, 32, 96, 56, 56, 3, 3, 0, 2, 1, 96, "depthwise 3x3" },
    { "depthwise 192 ch 3x3 s1, 28x28", 192, 28, 28, 32, 192, 28, 28, 3, 3, 0, 1, 1, 192, "depthwise 3x3" },
    { "depthwise 128 ch 3x3 s2, 56x56", 128, 56, 56, 32, 128, 28, 28, 3, 3, 0, 2, 1, 128, "depthwise 3x3" },
    { "depthwise 192 ch 3x3 s2, 28x28", 192, 28, 28, 32, 192, 14, 14, 3, 3, 0, 2, 1, 192, "depthwise 3x3" },
  };
  guint threads;

  if (g_getenv ("BENCH_THREADS") != NULL)
    zg330_kernel_set_threads ((guint) g_ascii_strtoull (g_getenv ("BENCH_THREADS"), NULL, 10));
  threads = zg330_kernel_get_threads ();
  double peak, peak1, core_peak, core_peak1;

  use_vnni = strcmp (zg330_kernel_get_isa (), "avx512-vnni") == 0;
  measure_peak (1, &peak1, &core_peak1);
  measure_peak (threads, &peak, &core_peak);
  core_peak = MAX (core_peak, core_peak1);
  peak = MAX (peak, peak1);
  g_print ("zg330 kernels benchmark: %u threads, conv ISA %s\n", threads, zg330_kernel_get_isa ());
  if (peak > 0)
    g_print ("int8 peak (%s microkernel on registers): %.1f GMAC/s on 1 thread, %.1f GMAC/s "
             "on %u (wall clock); %.1f GMAC/s per core-second\n",
             use_vnni ? "vpdpbusd" : "vpmaddwd", peak1, peak, threads, core_peak);
  else
    g_print ("int8 peak: no SIMD microkernel for this CPU\n");

  class_best = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_print ("conv2d, %s loops:\n", zg330_kernel_get_isa ());
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    if (g_getenv ("BENCH_LAYER") == NULL || strstr (layers[i].name, g_getenv ("BENCH_LAYER")) != NULL)
      bench_layer (&layers[i], peak, core_peak);
  if (g_getenv ("BENCH_LAYER") != NULL)
    {
      if (g_getenv ("BENCH_NETWORK") != NULL)
        bench_real_network (peak);
      return 0;
    }

  if (core_peak > 0)
    {
      static const char *classes[] = { "stem (3 input channels)", "dense 3x3 stride 1", "dense 3x3 stride 2",
                                       "dense 1x1", "grouped 3x3, 16 ch/group",
                                       "grouped 3x3, 4 ch/group", "depthwise 3x3" };
      GHashTable *all = class_best;

      /* the classes again on one thread: a layer that moves many bytes per multiply-add
       * loses per core-second when two cores share the caches' bandwidth */
      class_best = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      if (threads > 1)
        {
          zg330_kernel_set_threads (1);
          g_print ("conv2d on 1 thread:\n");
          for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
            bench_layer (&layers[i], peak1, core_peak);
          zg330_kernel_set_threads (threads);
        }
      g_print ("conv classes, the slowest layer of each per core-second on %u threads%s (goal of issue 17: "
               "every class >= 25 %%):\n", threads, threads > 1 ? " and on 1" : "");
      for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
        {
          double *pct = g_hash_table_lookup (all, classes[i]), *pct1 = g_hash_table_lookup (class_best, classes[i]);
          if (pct == NULL)
            continue;
          g_print ("  %-26s %5.1f %%", classes[i], *pct);
          if (pct1 != NULL && threads > 1)
            g_print ("  %5.1f %%", *pct1);
          g_print ("%s\n", *pct >= 25.0 && (pct1 == NULL || threads == 1 || *pct1 >= 25.0) ? "" : "  (below 25 %)");
        }
      g_hash_table_unref (all);
    }

  bench_real_network (peak);

  if (use_vnni || strcmp (zg330_kernel_get_isa (), "avx2") == 0)
    {
      zg330_kernel_set_plain_only (TRUE);
      g_print ("conv2d, plain C loops (for comparison):\n");
      bench_layer (&layers[1], peak, core_peak);
      bench_layer (&layers[3], peak, core_peak);
      zg330_kernel_set_plain_only (FALSE);
    }
  return 0;
}
