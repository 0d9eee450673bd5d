/* bench-graph — the graph view on the 10,000-op network (zw-netgen chain): how long graphviz
 * takes to lay it out (once, in the background), then the drawing of one frame at 1280x800
 * as a fraction of a 16.7 ms frame (60 Hz; target <= 0.5): fitted (every op a dot), at 25 %,
 * and at 100 % at the top and in the middle of the network. Prints figures measured in this
 * run; asserts nothing about time. */
#include "backends/zg330/zg330-backend.h"
#include "netgen.h"
#include "report/zw-deploy-graph.h"
#include "zw-graph-view.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

#define FRAME_MS (1000.0 / 60.0)

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median_draw (const ZwGraphLayout *layout, const ZwGraphViewport *vp, ZwSelection *sel, const ZwViewStyle *style)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1280, 800);
  double t[15];

  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    {
      cairo_t *cr = cairo_create (s);
      gint64 t0 = g_get_monotonic_time ();
      zw_graph_view_draw_layout (cr, 1280, 800, layout, vp, sel, style);
      cairo_surface_flush (s);
      t[i] = (g_get_monotonic_time () - t0) / 1000.0;
      cairo_destroy (cr);
    }
  cairo_surface_destroy (s);
  qsort (t, G_N_ELEMENTS (t), sizeof (double), cmp_double);
  return t[G_N_ELEMENTS (t) / 2];
}

int
main (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bench-graph-XXXXXX", &error);
  g_autofree char *json = NULL, *raw = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (Zg330Backend) b = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (ZwGraphLayout) layout = NULL;
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  ZwNetgenOptions opts;
  ZwViewStyle style;
  ZwGraphViewport vp;
  gint64 t0;
  double layout_s, ms;
  const ZwGraphNode *mid;

  zw_netgen_options_init (&opts);
  opts.n_ops = 10000;
  if (dir == NULL || !zw_netgen_write_network ("chain", &opts, dir, &json, &raw, &error)
      || !(net = xir_network_new_from_json_file (json, &error)) || !xir_network_load_params_from_file (net, raw, &error)
      || !(view = xir_network_view (net, 0, G_MAXINT, &error)) || !(dev = xrt_device_open ("mock://zg330", &error))
      || !(b = zg330_backend_new (view, dev, &error)) || !zg330_backend_apply (b, &error))
    {
      g_printerr ("bench-graph: the 10,000-op network: %s\n", error->message);
      return 1;
    }
  g_unlink (json);
  g_unlink (raw);
  g_rmdir (dir);
  report = zg330_backend_get_report (b);
  zw_deploy_report_attach_network (report, net);
  zw_selection_set_report (sel, report);

  t0 = g_get_monotonic_time ();
  layout = zw_graph_layout_new (report, NULL, &error);
  layout_s = (g_get_monotonic_time () - t0) / 1e6;
  if (layout == NULL)
    {
      g_printerr ("bench-graph: %s\n", error->message);
      return 1;
    }
  g_print ("graph of the 10,000-op network: %u nodes, %u edges, %u groups, %.0f x %.0f pt\n", layout->nodes->len,
           layout->edges->len, layout->groups->len, layout->width, layout->height);
  g_print ("  layout by graphviz dot (once, in a worker thread): %8.1f ms\n", layout_s * 1000);

  zw_view_style_init_default (&style);
  zw_graph_viewport_init (&vp);
  zw_graph_viewport_fit (&vp, layout, 1280, 800);
  ms = median_draw (layout, &vp, sel, &style);
  g_print ("  draw 1280x800, fitted (scale %.5f):       %7.3f ms = %.3f of a 16.7 ms frame\n", vp.scale, ms,
           ms / FRAME_MS);
  mid = &g_array_index (layout->nodes, ZwGraphNode, layout->nodes->len / 2);
  vp.scale = 0.25;
  zw_graph_viewport_center (&vp, mid->x, mid->y, 1280, 800);
  ms = median_draw (layout, &vp, sel, &style);
  g_print ("  draw 1280x800, 25 %% in the middle:         %7.3f ms = %.3f of a 16.7 ms frame\n", ms, ms / FRAME_MS);
  vp.scale = 1;
  vp.x = layout->width / 2 - 640;
  vp.y = 0;
  ms = median_draw (layout, &vp, sel, &style);
  g_print ("  draw 1280x800, 100 %% at the top:           %7.3f ms = %.3f of a 16.7 ms frame\n", ms, ms / FRAME_MS);
  zw_selection_set_selected_op (sel, mid->op_id);
  zw_graph_viewport_center (&vp, mid->x, mid->y, 1280, 800);
  ms = median_draw (layout, &vp, sel, &style);
  g_print ("  draw 1280x800, 100 %% in the middle, an op selected: %7.3f ms = %.3f of a 16.7 ms frame\n", ms,
           ms / FRAME_MS);
  g_print ("  (the widget caches the drawn frame while nothing changes; these are the redraws of pan and zoom)\n");
  return 0;
}
