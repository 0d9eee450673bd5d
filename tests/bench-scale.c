/* bench-scale — deploying at any scale (issue 17), on generated chain networks
 * (`zw-netgen chain`), every figure a ratio to a bare cJSON parse of the same bytes measured
 * in the same run, so a busy machine moves both sides:
 *
 *   load / cJSON parse             at 10,000 ops   goal <= 2.0
 *   (load + plan) / cJSON parse    at 10,000 ops   goal <= 3.0
 *   plan time 100,000 / 10,000 ops                 goal <= 12   (O(n log n) is ~11.5)
 *   peak memory of load + plan / the cJSON tree's, at 10,000 ops   goal <= 1.5
 *
 * "plan" is what `xrt-run plan` does: a ZG330Backend on the network, its plan with the
 * default options (merge, ETM optimize, OCM BEST_SCORE) and the deploy report.  Peak memory
 * is measured in child processes (this binary re-executed with --peak), each from its
 * resident size with the JSON text already read to the high-water mark (VmHWM). */
#include "backends/zg330/zg330-backend.h"
#include "netgen.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define GOAL_LOAD 2.0
#define GOAL_LOAD_PLAN 3.0
#define GOAL_SCALING 12.0
#define GOAL_MEMORY 1.5

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1e3;
}

/* Ends a timed section with the allocator's deferred work done: glibc keeps freed small
 * blocks in fast bins and consolidates them at the next large request, whoever makes it. A
 * cJSON tree of 10,000 ops is millions of blocks, so without this the section after the bare
 * parse+free paid for that free's consolidation (most of its cost), and the bare figure was
 * one a cold process never sees. mallinfo2() consolidates without returning memory. */
static void
settle_allocator (void)
{
#ifdef __GLIBC__
  (void) mallinfo2 ();
#endif
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof *v, (int (*) (const void *, const void *)) cmp_double);
  return v[n / 2];
}

static char *
chain_text (guint n_ops, gsize *len)
{
  ZwNetgenOptions opts;
  g_autoptr (GError) error = NULL;

  zw_netgen_options_init (&opts);
  opts.n_ops = n_ops;
  cJSON *json = zw_netgen_build_json ("chain", &opts, &error);
  if (json == NULL)
    g_error ("bench-scale: %s", error->message);
  char *text = cJSON_PrintUnformatted (json);
  cJSON_Delete (json);
  *len = strlen (text);
  return text;
}

/* The plan of `xrt-run plan`: FTMP (with the OCM options before it), then the report. */
static void
plan (XirNetwork *net, XrtDevice *dev)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (Zg330Backend) b = view ? zg330_backend_new (view, dev, &error) : NULL;

  if (b == NULL)
    g_error ("bench-scale: %s", error->message);
  zg330_backend_get_logic_segment_size (b, ZW_SEGMENT_FTMP, &error);
  if (error != NULL)
    g_error ("bench-scale: %s", error->message);
  g_autoptr (ZwDeployReport) r = zg330_backend_get_report (b);
  g_assert (r->values->len > 0);
}

typedef struct {
  double cjson, load, plan;
} Times;

/* Medians of @reps runs of: a bare cJSON parse (+ free), the load, the plan. */
static Times
measure (const char *text, gsize len, XrtDevice *dev, guint reps)
{
  double c[5], l[5], p[5];
  Times t;

  g_assert (reps <= 5);
  for (guint i = 0; i < reps; i++)
    {
      g_autoptr (GError) error = NULL;
      double t0 = now_ms ();
      cJSON *root = cJSON_ParseWithLength (text, len);
      cJSON_Delete (root);
      settle_allocator ();
      c[i] = now_ms () - t0;
      t0 = now_ms ();
      XirNetwork *net = xir_network_new_from_json_data (text, len, "chain_ZG.json", &error);
      settle_allocator ();
      l[i] = now_ms () - t0;
      if (net == NULL)
        g_error ("bench-scale: %s", error->message);
      t0 = now_ms ();
      plan (net, dev);
      settle_allocator ();
      p[i] = now_ms () - t0;
      xir_network_unref (net);
      settle_allocator ();
    }
  t.cjson = median (c, reps);
  t.load = median (l, reps);
  t.plan = median (p, reps);
  return t;
}

static guint64
status_kib (const char *field)
{
  g_autofree char *text = NULL;
  guint64 v = 0;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return 0;
  const char *at = strstr (text, field);
  if (at != NULL)
    v = g_ascii_strtoull (at + strlen (field) + 1, NULL, 10);
  return v;
}

/* Child: prints the peak resident bytes that @what added on top of the JSON text. */
static int
peak_main (const char *what, const char *path)
{
  gsize len;
  g_autofree char *text = NULL;

  /* read, not generated: the generator's freed tree would lend the parse its pages */
  if (!g_file_get_contents (path, &text, &len, NULL))
    return 1;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  guint64 base = status_kib ("VmRSS:");

  if (strcmp (what, "cjson") == 0)
    {
      cJSON *root = cJSON_ParseWithLength (text, len);
      g_assert (root != NULL);
      printf ("%" G_GUINT64_FORMAT "\n", (status_kib ("VmHWM:") - base) * 1024);
      cJSON_Delete (root);
      return 0;
    }
  g_autoptr (GError) error = NULL;
  XirNetwork *net = xir_network_new_from_json_data (text, len, "chain_ZG.json", &error);
  g_assert (net != NULL);
  plan (net, dev);
  printf ("%" G_GUINT64_FORMAT "\n", (status_kib ("VmHWM:") - base) * 1024);
  xir_network_unref (net);
  return 0;
}

static guint64
peak_of (const char *self, const char *what, const char *path)
{
  char *argv[] = { (char *) self, (char *) "--peak", (char *) what, (char *) path, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("bench-scale: %s", error->message);
  return g_ascii_strtoull (out, NULL, 10);
}

static const char *
verdict (double v, double goal)
{
  return v <= goal ? "ok" : "MISSED";
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--peak") == 0)
    return peak_main (argv[2], argv[3]);

  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  gsize len10, len100;
  g_autofree char *text10 = chain_text (10000, &len10);

  if (dev == NULL)
    g_error ("bench-scale: %s", error->message);
  Times t10 = measure (text10, len10, dev, 5);
  printf ("chain 10,000 ops, JSON %" G_GSIZE_FORMAT " bytes (medians of 5)\n", len10);
  printf ("  bare cJSON parse+free   %9.1f ms\n", t10.cjson);
  printf ("  load                    %9.1f ms   load / cJSON          %5.2f  (goal <= %.1f: %s)\n", t10.load,
          t10.load / t10.cjson, GOAL_LOAD, verdict (t10.load / t10.cjson, GOAL_LOAD));
  printf ("  plan (BEST_SCORE)       %9.1f ms   (load + plan) / cJSON %5.2f  (goal <= %.1f: %s)\n", t10.plan,
          (t10.load + t10.plan) / t10.cjson, GOAL_LOAD_PLAN,
          verdict ((t10.load + t10.plan) / t10.cjson, GOAL_LOAD_PLAN));
  g_autofree char *dir = g_dir_make_tmp ("zw-bench-scale-XXXXXX", NULL);
  g_autofree char *path10 = g_build_filename (dir, "chain_ZG.json", NULL);
  if (!g_file_set_contents (path10, text10, (gssize) len10, &error))
    g_error ("bench-scale: %s", error->message);
  g_clear_pointer (&text10, g_free);

  g_autofree char *text100 = chain_text (100000, &len100);
  Times t100 = measure (text100, len100, dev, 1);
  printf ("chain 100,000 ops, JSON %" G_GSIZE_FORMAT " bytes (one run)\n", len100);
  printf ("  bare cJSON parse+free   %9.1f ms   (%.2fx the 10,000-op parse)\n", t100.cjson, t100.cjson / t10.cjson);
  printf ("  load                    %9.1f ms   load / cJSON          %5.2f\n", t100.load, t100.load / t100.cjson);
  printf ("  plan (BEST_SCORE)       %9.1f ms   plan 100k / 10k       %5.2f  (goal <= %.0f: %s)\n", t100.plan,
          t100.plan / t10.plan, GOAL_SCALING, verdict (t100.plan / t10.plan, GOAL_SCALING));
  g_clear_pointer (&text100, g_free);

  guint64 tree = peak_of (self, "cjson", path10), ours = peak_of (self, "load-plan", path10);
  g_unlink (path10);
  g_rmdir (dir);
  printf ("peak memory at 10,000 ops: cJSON tree %.1f MiB, load + plan %.1f MiB, ratio %.2f  (goal <= %.1f: %s)\n",
          tree / 1048576.0, ours / 1048576.0, tree ? (double) ours / (double) tree : 0.0, GOAL_MEMORY,
          verdict (tree ? (double) ours / (double) tree : 0.0, GOAL_MEMORY));
  return 0;
}
