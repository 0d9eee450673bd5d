/* bench-xir — load of the 10,000-op generated network, as a ratio to a bare cJSON parse
 * of the same bytes measured in the same run (lower is better; 1.0 would mean the model
 * costs nothing beyond JSON parsing), and the eager params load.  Timed as bench-scale
 * times its "load / cJSON" at 10,000 ops (bench-timing.h: the same file bytes, the
 * allocator settled after every section, medians of 5 with their spread), so the two
 * benchmarks give the same figure for the same network. */
#include "bench-timing.h"
#include "netgen.h"
#include "xir/xir-network.h"

#include <glib/gstdio.h>

int
main (void)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-bench-xir-XXXXXX", NULL);
  g_autofree char *json = NULL, *raw = NULL, *text = NULL;
  g_autoptr (GError) error = NULL;
  ZwNetgenOptions opts;
  gsize len = 0;
  ZwBenchSample cjson = { 0 }, load = { 0 }, params = { 0 };
  guint n_ops = 0;

  zw_netgen_options_init (&opts);
  opts.n_ops = 10000;
  if (!zw_netgen_write_network ("chain", &opts, dir, &json, &raw, &error))
    {
      fprintf (stderr, "bench-xir: %s\n", error->message);
      return 1;
    }
  g_file_get_contents (json, &text, &len, NULL);
  zw_bench_settle_allocator ();
  for (int i = 0; i < 5; i++)
    {
      double t0 = zw_bench_now_ms ();
      cJSON *root = cJSON_ParseWithLength (text, len);
      cJSON_Delete (root);  /* parse + free: what a model that keeps nothing pays */
      zw_bench_settle_allocator ();
      zw_bench_add (&cjson, zw_bench_now_ms () - t0);
      t0 = zw_bench_now_ms ();
      XirNetwork *net = xir_network_new_from_json_data (text, len, json, &error);
      zw_bench_settle_allocator ();
      zw_bench_add (&load, zw_bench_now_ms () - t0);
      if (net == NULL)
        {
          fprintf (stderr, "bench-xir: %s\n", error->message);
          return 1;
        }
      n_ops = xir_network_get_n_ops (net);
      t0 = zw_bench_now_ms ();
      if (!xir_network_load_params_from_file (net, raw, &error))
        {
          fprintf (stderr, "bench-xir: %s\n", error->message);
          return 1;
        }
      zw_bench_settle_allocator ();
      zw_bench_add (&params, zw_bench_now_ms () - t0);
      xir_network_unref (net);
      zw_bench_settle_allocator ();
    }
  printf ("network: %u ops, JSON %" G_GSIZE_FORMAT " bytes (medians of 5, [min-max])\n", n_ops, len);
  zw_bench_print_ms ("bare cJSON parse+free", &cjson);
  zw_bench_print_ms ("xir load (parse+validate+model)", &load);
  zw_bench_print_ratio ("load / bare cJSON", &load, &cjson, 0);
  zw_bench_print_ms ("params eager load + md5 of .raw", &params);
  g_unlink (json);
  g_unlink (raw);
  g_rmdir (dir);
  return 0;
}
