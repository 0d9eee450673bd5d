/* bench-scale — deploying at any scale, on generated chain networks
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
 * resident size with the JSON text already read to the high-water mark (VmHWM).
 *
 * Timed by bench-timing.h, as bench-xir times its load / cJSON (the same zw-netgen file
 * bytes, the allocator settled after every section): every figure a median (5 runs at
 * 10,000 ops, 3 at 100,000: medians on both sides of the scaling ratio) with its spread,
 * and a verdict "not settled" when the ratio's spread straddles the goal. */
#include "backends/zg330/zg330-backend.h"
#include "bench-timing.h"
#include "netgen.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define GOAL_LOAD 2.0
#define GOAL_LOAD_PLAN 3.0
#define GOAL_SCALING 12.0
#define GOAL_MEMORY 1.5

/* The network's JSON as zw-netgen writes it (the bytes bench-xir loads), read back. */
static char *
chain_text (guint n_ops, const char *dir, gsize *len)
{
  ZwNetgenOptions opts;
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL, *raw = NULL;
  char *text = NULL;

  zw_netgen_options_init (&opts);
  opts.n_ops = n_ops;
  if (!zw_netgen_write_network ("chain", &opts, dir, &json, &raw, &error)
      || !g_file_get_contents (json, &text, len, &error))
    g_error ("bench-scale: %s", error->message);
  g_unlink (raw);
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
  ZwBenchSample cjson, load, plan, load_plan;
} Times;

/* @reps runs of: a bare cJSON parse (+ free), the load, the plan; each section ends with
 * the allocator settled (bench-timing.h). */
static Times
measure (const char *text, gsize len, XrtDevice *dev, guint reps)
{
  Times t = { 0 };

  zw_bench_settle_allocator ();
  for (guint i = 0; i < reps; i++)
    {
      g_autoptr (GError) error = NULL;
      double t0 = zw_bench_now_ms ();
      cJSON *root = cJSON_ParseWithLength (text, len);
      cJSON_Delete (root);
      zw_bench_settle_allocator ();
      zw_bench_add (&t.cjson, zw_bench_now_ms () - t0);
      t0 = zw_bench_now_ms ();
      XirNetwork *net = xir_network_new_from_json_data (text, len, "chain_ZG.json", &error);
      zw_bench_settle_allocator ();
      double l = zw_bench_now_ms () - t0;
      if (net == NULL)
        g_error ("bench-scale: %s", error->message);
      t0 = zw_bench_now_ms ();
      plan (net, dev);
      zw_bench_settle_allocator ();
      double p = zw_bench_now_ms () - t0;
      zw_bench_add (&t.load, l);
      zw_bench_add (&t.plan, p);
      zw_bench_add (&t.load_plan, l + p);
      xir_network_unref (net);
      zw_bench_settle_allocator ();
    }
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

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--peak") == 0)
    return peak_main (argv[2], argv[3]);

  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-bench-scale-XXXXXX", NULL);
  g_autofree char *path10 = g_build_filename (dir, "chain_ZG.json", NULL);
  gsize len10, len100;
  g_autofree char *text10 = chain_text (10000, dir, &len10);

  if (dev == NULL)
    g_error ("bench-scale: %s", error->message);
  Times t10 = measure (text10, len10, dev, 5);
  printf ("chain 10,000 ops, JSON %" G_GSIZE_FORMAT " bytes (medians of 5, [min-max])\n", len10);
  zw_bench_print_ms ("bare cJSON parse+free", &t10.cjson);
  zw_bench_print_ms ("load", &t10.load);
  zw_bench_print_ms ("plan (BEST_SCORE)", &t10.plan);
  zw_bench_print_ratio ("load / cJSON", &t10.load, &t10.cjson, GOAL_LOAD);
  zw_bench_print_ratio ("(load + plan) / cJSON", &t10.load_plan, &t10.cjson, GOAL_LOAD_PLAN);
  g_clear_pointer (&text10, g_free);

  /* the same number of runs on both sides of the scaling verdict: medians of 3 */
  g_autofree char *dir100 = g_dir_make_tmp ("zw-bench-scale-XXXXXX", NULL);
  g_autofree char *text100 = chain_text (100000, dir100, &len100);
  Times t100 = measure (text100, len100, dev, 3);
  printf ("chain 100,000 ops, JSON %" G_GSIZE_FORMAT " bytes (medians of 3, [min-max])\n", len100);
  zw_bench_print_ms ("bare cJSON parse+free", &t100.cjson);
  zw_bench_print_ms ("load", &t100.load);
  zw_bench_print_ms ("plan (BEST_SCORE)", &t100.plan);
  zw_bench_print_ratio ("load / cJSON", &t100.load, &t100.cjson, 0);
  zw_bench_print_ratio ("cJSON parse 100k / 10k", &t100.cjson, &t10.cjson, 0);
  zw_bench_print_ratio ("plan 100k / 10k", &t100.plan, &t10.plan, GOAL_SCALING);
  g_clear_pointer (&text100, g_free);
  {
    g_autofree char *j100 = g_build_filename (dir100, "chain_ZG.json", NULL);
    g_unlink (j100);
    g_rmdir (dir100);
  }

  guint64 tree = peak_of (self, "cjson", path10), ours = peak_of (self, "load-plan", path10);
  g_unlink (path10);
  g_rmdir (dir);
  printf ("peak memory at 10,000 ops: cJSON tree %.1f MiB, load + plan %.1f MiB, ratio %.2f  (goal <= %.1f: %s)\n",
          tree / 1048576.0, ours / 1048576.0, tree ? (double) ours / (double) tree : 0.0, GOAL_MEMORY,
          tree && (double) ours / (double) tree <= GOAL_MEMORY ? "ok" : "MISSED");
  return 0;
}
