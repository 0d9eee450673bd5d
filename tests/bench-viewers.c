/* bench-viewers.c — draw time of the memory timeline and segment views on the 10,000-op
 * chain, as a fraction of a 60 Hz frame (16.7 ms; target <= 0.5, issue 37): the median of 9
 * draws and, in brackets, their spread (bench-timing.h). Prints, never asserts. */
#include "backends/zg330/zg330-backend.h"
#include "netgen.h"
#include "zw-memory-view.h"
#include "zw-segment-view.h"
#include "zw-ocm-view.h"
#include "zw-merge-view.h"
#include "bench-timing.h"

#include <glib/gstdio.h>
#include <stdio.h>

#define FRAME_MS (1000.0 / 60.0)

static ZwDeployReport *
deploy_chain (guint n_ops, gboolean etm, ZwOcmOpt ocm, char **dir_out)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL, *raw = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (Zg330Backend) b = NULL;
  ZwNetgenOptions opts;

  if (*dir_out == NULL)
    *dir_out = g_dir_make_tmp ("bench-viewers-XXXXXX", &error);
  g_assert_no_error (error);
  zw_netgen_options_init (&opts);
  opts.n_ops = n_ops;
  if (!zw_netgen_write_network ("chain", &opts, *dir_out, &json, &raw, &error)
      || !(net = xir_network_new_from_json_file (json, &error))
      || !xir_network_load_params_from_file (net, raw, &error)
      || !(view = xir_network_view (net, 0, G_MAXINT, &error))
      || !(dev = xrt_device_open ("mock://zg330", &error))
      || !(b = zg330_backend_new (view, dev, &error))
      || !zg330_backend_set_options (b, TRUE, etm, ocm, &error)
      || !zg330_backend_apply (b, &error))
    g_error ("deploying the chain: %s", error->message);
  g_unlink (json);
  g_unlink (raw);
  return zg330_backend_get_report (b);
}

static void
draw_once (ZwViewDrawFunc draw, cairo_surface_t *surface, int w, int h, ZwDeployReport *report, ZwSelection *sel,
           const ZwViewStyle *style)
{
  cairo_t *cr = cairo_create (surface);
  draw (cr, w, h, report, sel, style);
  cairo_surface_flush (surface);
  cairo_destroy (cr);
}

/* ms per draw into @surface: the median of 9 runs and their spread (bench-timing.h). */
static void
time_draw (ZwViewDrawFunc draw, cairo_surface_t *surface, int w, int h, ZwDeployReport *report, ZwSelection *sel,
           const ZwViewStyle *style, ZwBenchSample *s)
{
  draw_once (draw, surface, w, h, report, sel, style);   /* warm: fonts, glyph caches */
  for (guint i = 0; i < ZW_BENCH_MAX_RUNS; i++)
    {
      double t0;
      zw_bench_settle_allocator ();
      t0 = zw_bench_now_ms ();
      draw_once (draw, surface, w, h, report, sel, style);
      zw_bench_add (s, zw_bench_now_ms () - t0);
    }
}

static void
bench (const char *what, ZwViewDrawFunc draw, ZwDeployReport *report, ZwSelection *sel, const ZwViewStyle *style)
{
  const int w = 1280, h = 720;
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  /* What the widget's snapshot does: record the cairo drawing into a render node. */
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &(cairo_rectangle_t) { 0, 0, w, h });
  ZwBenchSample img = { 0 }, rc = { 0 };

  time_draw (draw, image, w, h, report, sel, style, &img);
  time_draw (draw, rec, w, h, report, sel, style, &rc);

  if (g_getenv ("ZW_VIEWERS_PNG_DIR") != NULL)
    {
      g_autofree char *name = g_strdelimit (g_strdup (what), " ,", '-');
      g_autofree char *path = g_strdup_printf ("%s/bench-%s.png", g_getenv ("ZW_VIEWERS_PNG_DIR"), name);
      cairo_surface_write_to_png (image, path);
    }
  printf ("%-34s raster %7.3f ms = %.3f frame [%.3f-%.3f]   record %7.3f ms = %.3f frame [%.3f-%.3f]\n", what,
          img.median, img.median / FRAME_MS, img.min / FRAME_MS, img.max / FRAME_MS, rc.median, rc.median / FRAME_MS,
          rc.min / FRAME_MS, rc.max / FRAME_MS);
  cairo_surface_destroy (image);
  cairo_surface_destroy (rec);
}

int
main (void)
{
  g_autofree char *dir = NULL;
  g_autoptr (ZwDeployReport) on = NULL;
  g_autoptr (ZwDeployReport) off = NULL;
  g_autoptr (ZwDeployReport) ocm = NULL;
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  ZwViewStyle style;
  gint64 t0 = g_get_monotonic_time ();

  /* OCM off, so that every chunk is drawn in the ETM pane (the heavier case). */
  on = deploy_chain (ZW_NETGEN_CHAIN_DEFAULT_OPS, TRUE, ZW_OCM_NONE, &dir);
  off = deploy_chain (ZW_NETGEN_CHAIN_DEFAULT_OPS, FALSE, ZW_OCM_NONE, &dir);
  /* and with OCM (Best score), so that the OCM panes and the occupancy hold chunks */
  ocm = deploy_chain (ZW_NETGEN_CHAIN_DEFAULT_OPS, TRUE, ZW_OCM_BEST_SCORE, &dir);
  g_rmdir (dir);
  printf ("chain: %u ops, %u values, %u chunks, %u launches (deployed three times in %.2f s)\n", on->ops->len,
          on->values->len, on->chunks->len, on->launches->len, (g_get_monotonic_time () - t0) / 1e6);
  printf ("1280x720, fraction of a %.1f ms frame (target <= 0.5):\n", FRAME_MS);

  zw_view_style_init_default (&style);
  zw_selection_set_report (sel, on);
  bench ("memory view, whole run", zw_memory_view_draw, on, sel, &style);
  zw_selection_set_zoom (sel, 4000, 4200);
  bench ("memory view, 200 ops zoomed", zw_memory_view_draw, on, sel, &style);
  zw_selection_zoom_fit (sel);
  zw_selection_set_selected_value (sel, g_array_index (on->values, ZwValueInfo, on->values->len / 2).v_id);
  bench ("memory view, value selected", zw_memory_view_draw, on, sel, &style);
  bench ("segment view", zw_segment_view_draw, on, sel, &style);
  bench ("ocm view", zw_ocm_view_draw, on, sel, &style);
  bench ("merge view (table)", zw_merge_view_draw, on, sel, &style);
  zw_selection_set_report (sel, off);
  bench ("memory view, ETM optimize off", zw_memory_view_draw, off, sel, &style);
  bench ("segment view, ETM optimize off", zw_segment_view_draw, off, sel, &style);
  zw_selection_set_report (sel, ocm);
  bench ("memory view, OCM Best score", zw_memory_view_draw, ocm, sel, &style);
  bench ("ocm view, OCM Best score", zw_ocm_view_draw, ocm, sel, &style);
  zw_selection_set_zoom (sel, 4000, 4200);
  bench ("ocm view, OCM Best score, 200 ops zoomed", zw_ocm_view_draw, ocm, sel, &style);
  return 0;
}
