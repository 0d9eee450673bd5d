/* bench-xir — load of the 10,000-op generated network, as a ratio to a bare cJSON parse
 * of the same bytes measured in the same run (lower is better; 1.0 would mean the model
 * costs nothing beyond JSON parsing). */
#include "netgen.h"
#include "xir/xir-network.h"

#include <glib/gstdio.h>
#include <stdio.h>

static double
median (double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (v[j] < v[i])
        {
          double t = v[i];
          v[i] = v[j];
          v[j] = t;
        }
  return v[n / 2];
}

int
main (void)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-bench-xir-XXXXXX", NULL);
  g_autofree char *json = NULL, *raw = NULL, *text = NULL;
  g_autoptr (GError) error = NULL;
  ZwNetgenOptions opts;
  gsize len = 0;
  double t_cjson[5], t_load[5], t_params[5];
  guint n_ops = 0;

  zw_netgen_options_init (&opts);
  opts.n_ops = 10000;
  if (!zw_netgen_write_network ("chain", &opts, dir, &json, &raw, &error))
    {
      fprintf (stderr, "bench-xir: %s\n", error->message);
      return 1;
    }
  g_file_get_contents (json, &text, &len, NULL);
  for (int i = 0; i < 5; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      cJSON *root = cJSON_ParseWithLength (text, len);
      gint64 t1 = g_get_monotonic_time ();
      XirNetwork *net;
      cJSON_Delete (root);
      t1 = g_get_monotonic_time () - t0;  /* parse + free: what a model that keeps nothing pays */
      t0 = g_get_monotonic_time ();
      net = xir_network_new_from_json_data (text, len, json, &error);
      t_load[i] = (g_get_monotonic_time () - t0) / 1e3;
      t_cjson[i] = t1 / 1e3;
      if (net == NULL)
        {
          fprintf (stderr, "bench-xir: %s\n", error->message);
          return 1;
        }
      n_ops = xir_network_get_n_ops (net);
      t0 = g_get_monotonic_time ();
      if (!xir_network_load_params_from_file (net, raw, &error))
        {
          fprintf (stderr, "bench-xir: %s\n", error->message);
          return 1;
        }
      t_params[i] = (g_get_monotonic_time () - t0) / 1e3;
      xir_network_unref (net);
    }
  {
    double c = median (t_cjson, 5), l = median (t_load, 5), p = median (t_params, 5);
    printf ("network: %u ops, JSON %" G_GSIZE_FORMAT " bytes\n", n_ops, len);
    printf ("bare cJSON parse+free: %.1f ms\n", c);
    printf ("xir load (parse + validate + model): %.1f ms\n", l);
    printf ("ratio load / bare cJSON: %.2f\n", l / c);
    printf ("params eager load + md5 of the .raw: %.1f ms\n", p);
  }
  g_unlink (json);
  g_unlink (raw);
  g_rmdir (dir);
  return 0;
}
