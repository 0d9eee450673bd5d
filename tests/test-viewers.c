/* test-viewers.c — the deploy views: offscreen renders (suite render) and widgets (display). */
#include "zw-test-util.h"
#include "backends/zg330/zg330-backend.h"
#include "zw-selection.h"
#include "zw-segment-view.h"
#include "zw-memory-view.h"
#include "report/zw-etm-traffic.h"
#include "zw-ocm-view.h"
#include "zw-merge-view.h"
#include "zw-export.h"
#include "zw-view-private.h" /* the views' redraw counters */
#include "zw-tensor-view-private.h"
#include "zw-memory-view-private.h"

#include <fontconfig/fontconfig.h>
#include <glib/gstdio.h>
#include <string.h>

#define W 900
#define H 600

static gboolean have_display;

typedef struct {
  ZwDeployReport *report;
  char *json_path;   /* the report as written by zg330_backend_log */
} Deployed;

static void
deployed_clear (Deployed *d)
{
  g_clear_pointer (&d->report, zw_deploy_report_unref);
  if (d->json_path != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (d->json_path);
      g_autofree char *log = g_strdup (d->json_path);
      strcpy (log + strlen (log) - 4, "log");
      g_unlink (d->json_path);
      g_unlink (log);
      g_rmdir (dir);
    }
  g_clear_pointer (&d->json_path, g_free);
}

/* Applies the ZG330 backend to a demo net with the given options; logs it when asked. */
static Deployed
deploy (const char *name, gboolean merge, gboolean etm, ZwOcmOpt ocm, gboolean log)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json = g_strdup_printf ("%s/networks/%s_ZG.json", g_getenv ("ZW_DATA_DIR"), name);
  g_autofree char *raw = g_strdup (json);
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (Zg330Backend) b = NULL;
  Deployed d = { NULL, NULL };

  strcpy (raw + strlen (raw) - 4, "raw");
  net = xir_network_new_from_json_file (json, &error);
  g_assert_no_error (error);
  g_assert_true (xir_network_load_params_from_file (net, raw, &error));
  view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  dev = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  b = zg330_backend_new (view, dev, &error);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (b, merge, etm, ocm, &error));
  g_assert_true (zg330_backend_apply (b, &error));
  g_assert_no_error (error);
  d.report = zg330_backend_get_report (b);
  if (log)
    {
      g_autofree char *dir = g_dir_make_tmp ("test-viewers-XXXXXX", &error);
      g_assert_no_error (error);
      g_assert_true (zg330_backend_log (b, dir, &d.json_path, &error));
      g_assert_no_error (error);
    }
  return d;
}

static cairo_surface_t *
render (ZwViewDrawFunc draw, ZwDeployReport *report, ZwSelection *selection)
{
  ZwViewStyle style;
  cairo_surface_t *s;

  zw_view_style_init_default (&style);
  s = zw_export_draw_image (draw, W, H, report, selection, &style);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  /* Keep the picture for a human to look at (meson's build dir). */
  if (g_getenv ("ZW_VIEWERS_PNG_DIR") != NULL)
    {
      static guint n;
      g_autofree char *path = g_strdup_printf ("%s/view-%02u.png", g_getenv ("ZW_VIEWERS_PNG_DIR"), n++);
      cairo_surface_write_to_png (s, path);
    }
  return s;
}

static guint32
pixel_of (const GdkRGBA *c)
{
  /* Opaque colours only: premultiplied ARGB32 equals straight ARGB then. */
  guint r = (guint) (c->red * 255 + 0.5), g = (guint) (c->green * 255 + 0.5), b = (guint) (c->blue * 255 + 0.5);
  return 0xff000000u | (r << 16) | (g << 8) | b;
}

static guint32
pixel_at (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  return *(const guint32 *) (data + y * cairo_image_surface_get_stride (s) + x * 4);
}

/* Pixels that equal @argb (exactly), or that differ from it when @invert. */
static guint
count_pixels (cairo_surface_t *s, guint32 argb, gboolean invert)
{
  guint n = 0;

  for (int y = 0; y < cairo_image_surface_get_height (s); y++)
    for (int x = 0; x < cairo_image_surface_get_width (s); x++)
      if ((pixel_at (s, x, y) == argb) != invert)
        n++;
  return n;
}

static guint
count_non_background (cairo_surface_t *s)
{
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  return count_pixels (s, pixel_of (&style.background), TRUE);
}

/* ---- render ---- */

static void
test_segment_render (void)
{
  Deployed d = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_BEST_SCORE, FALSE);
  cairo_surface_t *s = render (zw_segment_view_draw, d.report, NULL);
  guint counts[ZW_N_SEGMENTS];
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  g_assert_cmpuint (count_non_background (s), >, W * H / 4);
  for (int t = 0; t < ZW_N_SEGMENTS; t++)
    {
      counts[t] = count_pixels (s, pixel_of (&style.segment[t]), FALSE);
      g_test_message ("%s: %u pixels", zw_segment_type_to_string (t), counts[t]);
      /* Every segment is drawn in its own colour, and visibly (at least a label's height). */
      g_assert_cmpuint (counts[t], >, 2000);
      for (int u = 0; u < t; u++)
        g_assert_cmpuint (pixel_of (&style.segment[t]), !=, pixel_of (&style.segment[u]));
    }
  /* WEIGHT is the biggest segment, so it gets the most pixels. */
  for (int t = 1; t < ZW_N_SEGMENTS; t++)
    g_assert_cmpuint (counts[ZW_SEGMENT_WEIGHT], >, counts[t]);
  cairo_surface_destroy (s);
  deployed_clear (&d);
}

static void
test_segment_hit_and_selection (void)
{
  Deployed d = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_BEST_SCORE, FALSE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  cairo_surface_t *plain, *selected;
  gint64 found = -1;
  ZwViewStyle style;

  /* Somewhere in the logic column lies an INPUT value: scan down its middle. */
  for (int y = 0; y < H && found < 0; y++)
    {
      gint64 v = zw_segment_view_value_at (d.report, W, H, W * 0.3, y);
      const ZwValueInfo *vi = v >= 0 ? zw_deploy_report_find_value (d.report, v) : NULL;
      if (vi != NULL && vi->segment == ZW_SEGMENT_INPUT)
        found = v;
    }
  g_assert_cmpint (found, >=, 0);

  zw_selection_set_report (sel, d.report);
  plain = render (zw_segment_view_draw, d.report, sel);
  zw_selection_set_selected_value (sel, found);
  selected = render (zw_segment_view_draw, d.report, sel);
  zw_view_style_init_default (&style);
  /* The selection shows as the accent outline, absent before. */
  g_assert_cmpuint (count_pixels (plain, pixel_of (&style.accent), FALSE), ==, 0);
  g_assert_cmpuint (count_pixels (selected, pixel_of (&style.accent), FALSE), >, 50);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (selected);
  deployed_clear (&d);
}

static guint
count_ftmp_pixels (cairo_surface_t *s)
{
  ZwViewStyle style;
  guint32 base;

  zw_view_style_init_default (&style);
  base = pixel_of (&style.segment[ZW_SEGMENT_FTMP]);
  return count_pixels (s, base, FALSE);
}

static void
test_memory_etm_optimize (void)
{
  Deployed on = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_NONE, FALSE);
  Deployed off = deploy ("yolov5s", TRUE, FALSE, ZW_OCM_NONE, FALSE);
  cairo_surface_t *son, *soff;
  guint64 sum = 0, peak_bytes = 0;
  guint pon, poff;

  for (guint i = 0; i < off.report->chunks->len; i++)
    sum += g_array_index (off.report->chunks, ZwChunkInfo, i).size;
  /* Without ETM optimize every chunk has bytes of its own: FTMP is the sum of chunks. */
  g_assert_cmpuint (off.report->ftmp_bytes, ==, sum);
  g_assert_cmpuint (on.report->ftmp_bytes, <, off.report->ftmp_bytes);
  g_assert_cmpint (zw_memory_view_peak_index (on.report, &peak_bytes), >=, 0);
  g_assert_cmpuint (peak_bytes, ==, on.report->lower_bound);

  son = render (zw_memory_view_draw, on.report, NULL);
  soff = render (zw_memory_view_draw, off.report, NULL);
  g_assert_cmpuint (count_non_background (son), >, W * H / 10);
  pon = count_ftmp_pixels (son);
  poff = count_ftmp_pixels (soff);
  g_test_message ("FTMP-coloured pixels: ETM optimize on %u, off %u", pon, poff);
  /* The same lifetimes on a taller address axis: packed memory fills more of the pane. */
  g_assert_cmpuint (pon, >, poff + poff / 5);
  g_assert_cmpuint (poff, >, 0);
  cairo_surface_destroy (son);
  cairo_surface_destroy (soff);
  deployed_clear (&on);
  deployed_clear (&off);
}

/* Memory traffic beside the occupancy: per op, ETM bytes read (up) and written (down), the
 * busiest op's bars full height, an op that moves nothing none, and OCM placement visibly
 * taking reads off ETM. */
static guint
count_in_rect (cairo_surface_t *s, double r[4], guint32 color)
{
  guint n = 0;
  for (int y = (int) r[1]; y < (int) (r[1] + r[3]); y++)
    for (int x = (int) r[0]; x < (int) (r[0] + r[2]); x++)
      n += pixel_at (s, x, y) == color;
  return n;
}

static void
test_memory_traffic (void)
{
  Deployed none = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_NONE, FALSE);
  Deployed best = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_BEST_SCORE, FALSE);
  g_autoptr (ZwEtmTraffic) tn = zw_etm_traffic_compute (none.report);
  g_autoptr (ZwEtmTraffic) tb = zw_etm_traffic_compute (best.report);
  ZwViewStyle style;
  guint32 rd, wr;
  cairo_surface_t *sn, *sb;
  guint max_r = 0, max_w = 0, quiet = G_MAXUINT;
  double r[4], pane[4];
  guint read_px_none = 0, read_px_best = 0;

  zw_view_style_init_default (&style);
  rd = pixel_of (&style.segment[ZW_SEGMENT_INPUT]);
  wr = pixel_of (&style.segment[ZW_SEGMENT_OUTPUT]);
  g_assert_true (tn->exact);
  for (guint i = 0; i < tn->n; i++)
    {
      if (tn->etm_read[i] > tn->etm_read[max_r])
        max_r = i;
      if (tn->etm_write[i] > tn->etm_write[max_w])
        max_w = i;
      if (quiet == G_MAXUINT && tn->etm_read[i] == 0 && tn->etm_write[i] == 0)
        quiet = i;
    }
  g_assert_cmpuint (quiet, !=, G_MAXUINT);   /* Input: a host op */
  g_assert_cmpuint (tb->total_etm_read, <, tn->total_etm_read);

  sn = render (zw_memory_view_draw, none.report, NULL);
  sb = render (zw_memory_view_draw, best.report, NULL);
  /* the busiest reader's bar is read-coloured, and the busiest writer's write-coloured */
  g_assert_true (zw_memory_view_traffic_bar (none.report, NULL, W, H, &style, max_r, FALSE, r));
  g_assert_cmpfloat (r[3], >, 20);
  g_assert_cmpuint (pixel_at (sn, (int) (r[0] + r[2] / 2), (int) (r[1] + r[3] / 2)), ==, rd);
  g_assert_true (zw_memory_view_traffic_bar (none.report, NULL, W, H, &style, max_w, TRUE, r));
  g_assert_cmpuint (pixel_at (sn, (int) (r[0] + r[2] / 2), (int) (r[1] + r[3] / 2)), ==, wr);
  /* the op that moves nothing has no bar: nothing read- or write-coloured in its column */
  g_assert_false (zw_memory_view_traffic_bar (none.report, NULL, W, H, &style, quiet, FALSE, r));
  g_assert_true (zw_memory_view_traffic_bar (none.report, NULL, W, H, &style, max_r, FALSE, pane));
  {
    double col[4], down[4];
    g_assert_true (zw_memory_view_traffic_bar (none.report, NULL, W, H, &style, max_w, TRUE, down));
    /* its column (the x axis: op index over the plot, which starts after the 8 px margin
     * and the 72 px axis), from the top of the tallest read bar to the bottom of the
     * tallest write bar */
    col[0] = floor (8.0 + 72.0 + (W - 16.0 - 72.0) * (quiet + 0.5) / none.report->ops->len);
    col[2] = 1;
    col[1] = pane[1];
    col[3] = down[1] + down[3] - pane[1];
    g_assert_cmpuint (count_in_rect (sn, col, rd) + count_in_rect (sn, col, wr), ==, 0);
  }
  /* OCM takes reads off ETM: fewer read-coloured pixels in the same pane */
  for (guint i = 0; i < tn->n; i++)
    {
      if (zw_memory_view_traffic_bar (none.report, NULL, W, H, &style, i, FALSE, r))
        read_px_none += count_in_rect (sn, r, rd);
      if (zw_memory_view_traffic_bar (best.report, NULL, W, H, &style, i, FALSE, r))
        read_px_best += count_in_rect (sb, r, rd);
    }
  g_test_message ("ETM read: %" G_GUINT64_FORMAT " bytes with OCM NONE (%u px), %" G_GUINT64_FORMAT
                  " with BEST_SCORE (%u px)", tn->total_etm_read, read_px_none, tb->total_etm_read, read_px_best);
  g_assert_cmpuint (read_px_best, <, read_px_none);
  g_assert_cmpuint (read_px_best, >, 0);
  cairo_surface_destroy (sn);
  cairo_surface_destroy (sb);
  deployed_clear (&none);
  deployed_clear (&best);
}

static void
test_memory_zoom_and_selection (void)
{
  Deployed d = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_BEST_SCORE, FALSE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  cairo_surface_t *fit, *zoomed, *selected;
  const ZwChunkInfo *c = NULL;
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  zw_selection_set_report (sel, d.report);
  fit = render (zw_memory_view_draw, d.report, sel);
  zw_selection_set_zoom (sel, 10, 20);
  zoomed = render (zw_memory_view_draw, d.report, sel);
  g_assert_false (memcmp (cairo_image_surface_get_data (fit), cairo_image_surface_get_data (zoomed),
                          (gsize) cairo_image_surface_get_stride (fit) * H) == 0);

  zw_selection_zoom_fit (sel);
  for (guint i = 0; i < d.report->chunks->len && c == NULL; i++)
    if (!g_array_index (d.report->chunks, ZwChunkInfo, i).in_ocm)
      c = &g_array_index (d.report->chunks, ZwChunkInfo, i);
  g_assert_nonnull (c);
  zw_selection_set_selected_value (sel, g_array_index (c->v_ids, gint64, 0));
  selected = render (zw_memory_view_draw, d.report, sel);
  g_assert_cmpuint (count_pixels (fit, pixel_of (&style.accent), FALSE), ==, 0);
  g_assert_cmpuint (count_pixels (selected, pixel_of (&style.accent), FALSE), >, 20);
  cairo_surface_destroy (fit);
  cairo_surface_destroy (zoomed);
  cairo_surface_destroy (selected);
  deployed_clear (&d);
}

static void
test_ocm_chosen_highlighted (void)
{
  Deployed d = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_BEST_SCORE, FALSE);
  cairo_surface_t *s = render (zw_ocm_view_draw, d.report, NULL);
  ZwViewStyle style;
  guint n_options = 0;

  zw_view_style_init_default (&style);
  g_assert_cmpint (d.report->ocm_chosen, >=, ZW_OCM_OPTION1);
  g_assert_cmpuint (count_non_background (s), >, W * H / 20);
  for (int o = ZW_OCM_NONE; o < ZW_OCM_N_SLOTS; o++)
    {
      graphene_rect_t r;
      guint32 centre;

      if (!zw_ocm_view_get_bar_rect (d.report, W, H, o, &r))
        continue;
      n_options++;
      centre = pixel_at (s, (int) (r.origin.x + r.size.width / 2), (int) (r.origin.y + r.size.height / 2));
      if (o == (int) d.report->ocm_chosen)
        g_assert_cmphex (centre, ==, pixel_of (&style.accent));
      else
        g_assert_cmphex (centre, !=, pixel_of (&style.accent));
    }
  g_assert_cmpuint (n_options, ==, 1 + d.report->ocm_options->len);
  /* The occupancy area is drawn in the OCM colour. */
  g_assert_cmpuint (count_pixels (s, pixel_of (&style.ocm), FALSE), >, 1000);
  cairo_surface_destroy (s);
  deployed_clear (&d);
}

static void
test_merge_render (void)
{
  Deployed merged = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_NONE, FALSE);
  Deployed single = deploy ("yolov5s", FALSE, TRUE, ZW_OCM_NONE, FALSE);
  cairo_surface_t *a = render (zw_merge_view_draw, merged.report, NULL);
  cairo_surface_t *b = render (zw_merge_view_draw, single.report, NULL);

  g_assert_cmpuint (merged.report->launches->len, <, single.report->launches->len);
  /* More rows, more ink. */
  g_assert_cmpuint (count_non_background (b), >, count_non_background (a));
  g_assert_cmpuint (count_non_background (a), >, 500);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  deployed_clear (&merged);
  deployed_clear (&single);
}

static void
test_offline_same_as_live (void)
{
  Deployed d = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_BEST_SCORE, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) disk = zw_deploy_report_load (d.json_path, &error);
  ZwViewDrawFunc draws[] = { zw_segment_view_draw, zw_memory_view_draw, zw_ocm_view_draw, zw_merge_view_draw };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (draws); i++)
    {
      g_autoptr (ZwSelection) live_sel = zw_selection_new ();
      g_autoptr (ZwSelection) disk_sel = zw_selection_new ();
      cairo_surface_t *a, *b;
      gint64 v = g_array_index (d.report->values, ZwValueInfo, d.report->values->len / 2).v_id;

      zw_selection_set_report (live_sel, d.report);
      zw_selection_set_report (disk_sel, disk);
      zw_selection_set_selected_value (live_sel, v);
      zw_selection_set_selected_value (disk_sel, v);
      a = render (draws[i], d.report, live_sel);
      b = render (draws[i], disk, disk_sel);
      g_assert_cmpuint (count_non_background (a), >, 500);
      /* Byte-identical pixels: the views read the model only. */
      g_assert_true (memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                             (gsize) cairo_image_surface_get_stride (a) * H) == 0);
      cairo_surface_destroy (a);
      cairo_surface_destroy (b);
    }
  deployed_clear (&d);
}

static void
test_empty_report (void)
{
  ZwViewDrawFunc draws[] = { zw_segment_view_draw, zw_memory_view_draw, zw_ocm_view_draw, zw_merge_view_draw };
  g_autoptr (ZwDeployReport) empty = zw_deploy_report_new ();

  /* No report and an empty one both draw (a message), never crash. */
  for (guint i = 0; i < G_N_ELEMENTS (draws); i++)
    {
      cairo_surface_t *a = render (draws[i], NULL, NULL);
      cairo_surface_t *b = render (draws[i], empty, NULL);
      g_assert_cmpuint (count_non_background (a), >, 0);
      cairo_surface_destroy (a);
      cairo_surface_destroy (b);
    }
}

/* ---- selection (no display) ---- */

static void
count_notify (GObject *object, GParamSpec *pspec, guint *n)
{
  (void) object;
  (void) pspec;
  (*n)++;
}

static void
test_selection_normalises (void)
{
  Deployed d = deploy ("yolov5s", TRUE, TRUE, ZW_OCM_NONE, FALSE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  const ZwValueInfo *v = &g_array_index (d.report->values, ZwValueInfo, 3);
  const ZwLaunch *l = &g_array_index (d.report->launches, ZwLaunch, 0);
  guint n_value = 0, n_zoom = 0;
  double n_ops = d.report->ops->len;

  g_signal_connect (sel, "notify::selected-value", G_CALLBACK (count_notify), &n_value);
  g_signal_connect (sel, "notify::zoom-start", G_CALLBACK (count_notify), &n_zoom);
  g_signal_connect (sel, "notify::zoom-end", G_CALLBACK (count_notify), &n_zoom);

  /* Nothing can be selected without a report. */
  zw_selection_set_selected_value (sel, v->v_id);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, -1);
  g_assert_cmpuint (n_value, ==, 0);

  zw_selection_set_report (sel, d.report);
  g_assert_cmpfloat (zw_selection_get_zoom_start (sel), ==, 0);
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel), ==, n_ops);
  n_zoom = 0;
  zw_selection_set_selected_value (sel, v->v_id);
  zw_selection_set_selected_value (sel, v->v_id);
  g_assert_cmpuint (n_value, ==, 1);
  zw_selection_set_selected_value (sel, 999999999);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, -1);
  g_assert_cmpuint (n_value, ==, 2);

  /* A merged launch id is a valid op. */
  zw_selection_set_selected_op (sel, l->op_id);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, l->op_id);

  zw_selection_set_zoom (sel, 30, 10);
  g_assert_cmpfloat (zw_selection_get_zoom_start (sel), ==, 10);
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel), ==, 30);
  g_assert_cmpuint (n_zoom, ==, 2);
  zw_selection_pan (sel, -100);
  g_assert_cmpfloat (zw_selection_get_zoom_start (sel), ==, 0);
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel), ==, 20);
  zw_selection_set_zoom (sel, 5, 5);
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel) - zw_selection_get_zoom_start (sel), ==, 1);
  zw_selection_zoom_by (sel, 0.001, 5);
  g_assert_cmpfloat (zw_selection_get_zoom_start (sel), ==, 0);
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel), ==, n_ops);

  /* A new report clears the selection. */
  zw_selection_set_report (sel, NULL);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, -1);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, -1);
  deployed_clear (&d);
}

/* ---- display ---- */

static gboolean
drawn (gpointer data)
{
  GtkWidget **views = data;
  for (guint i = 0; views[i] != NULL; i++)
    if (!gtk_widget_get_mapped (views[i]) || gtk_widget_get_width (views[i]) <= 0)
      return FALSE;
  return zw_segment_view_get_n_rebuilds (views[0]) > 0 && zw_memory_view_get_n_rebuilds (views[1]) > 0;
}

static void
test_display_widgets (void)
{
  Deployed d;
  g_autoptr (ZwSelection) sel = NULL;
  GtkWidget *window, *box, *views[5];
  g_autofree char *dir = NULL;
  const char *ext[] = { "png", "svg", "pdf" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };
  gint64 picked = -1;
  guint rebuilds;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  d = deploy ("yolov5s", FALSE, TRUE, ZW_OCM_BEST_SCORE, FALSE);
  sel = zw_selection_new ();
  zw_selection_set_report (sel, d.report);

  window = gtk_window_new ();
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  views[0] = zw_segment_view_new (sel);
  views[1] = zw_memory_view_new (sel);
  views[2] = zw_ocm_view_new (sel);
  views[3] = zw_merge_view_new (sel);
  views[4] = NULL;
  for (guint i = 0; i < 4; i++)
    {
      gtk_widget_set_vexpand (views[i], TRUE);
      gtk_box_append (GTK_BOX (box), views[i]);
    }
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 1100);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (zw_test_wait_until (drawn, views));

  /* Merge off: one row per hardop launch. */
  g_assert_cmpuint (zw_merge_view_get_n_rows (ZW_MERGE_VIEW (views[3])), ==, d.report->launches->len);
  g_assert_cmpuint (d.report->launches->len, >, 1);

  /* A click in the segment view selects a value, and the memory view follows. */
  {
    int w = gtk_widget_get_width (views[0]), h = gtk_widget_get_height (views[0]);
    GtkEventController *click = NULL;
    g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (views[0]);

    for (int y = 0; y < h && picked < 0; y++)
      picked = zw_segment_view_value_at (d.report, w, h, w * 0.3, y);
    g_assert_cmpint (picked, >=, 0);
    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
        if (GTK_IS_GESTURE_CLICK (c))
          click = c;
      }
    g_assert_nonnull (click);
    for (int y = 0; y < h; y++)
      if (zw_segment_view_value_at (d.report, w, h, w * 0.3, y) == picked)
        {
          g_signal_emit_by_name (click, "pressed", 1, w * 0.3, (double) y);
          break;
        }
  }
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, picked);
  {
    gint64 seen = -2;
    g_object_get (zw_view_get_selection (ZW_VIEW (views[1])), "selected-value", &seen, NULL);
    g_assert_cmpint (seen, ==, picked);
  }

  /* Selecting a row in the merge view selects its launch op. */
  zw_selection_set_selected_op (sel, g_array_index (d.report->launches, ZwLaunch, 2).op_id);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, g_array_index (d.report->launches, ZwLaunch, 2).op_id);

  /* Keyboard zoom on the memory view goes to the shared selection. */
  g_assert_true (gtk_widget_activate_action (views[1], "memory.zoom-in", NULL));
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel) - zw_selection_get_zoom_start (sel), <, d.report->ops->len);
  g_assert_true (gtk_widget_activate_action (views[1], "memory.zoom-fit", NULL));
  g_assert_cmpfloat (zw_selection_get_zoom_end (sel), ==, d.report->ops->len);

  /* The cached node is reused while nothing changes. */
  rebuilds = zw_memory_view_get_n_rebuilds (views[1]);
  zw_test_wait_until (drawn, views);
  gtk_widget_queue_draw (views[1]);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (zw_memory_view_get_n_rebuilds (views[1]), <=, rebuilds + 1);

  /* Export through the widgets. */
  dir = g_dir_make_tmp ("test-viewers-XXXXXX", NULL);
  for (guint i = 0; i < 4; i++)
    for (guint f = 0; f < 3; f++)
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *path = g_strdup_printf ("%s/view%u.%s", dir, i, ext[f]);
        g_autofree char *contents = NULL;
        gsize len;

        g_assert_true (zw_export_view_to_file (views[i], (ZwViewFormat) f, 640, 480, path, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
        g_assert_cmpuint (len, >, 500);
        g_assert_true (g_str_has_prefix (contents, magic[f]));
        g_unlink (path);
      }
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *path = g_strdup_printf ("%s/bad.png", dir);
    g_assert_false (zw_export_view_to_file (box, ZW_VIEW_FORMAT_PNG, 10, 10, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
  g_rmdir (dir);

  gtk_window_destroy (GTK_WINDOW (window));
  deployed_clear (&d);
}

/* The tensor inspector's grid in numbers: the column count that makes the cells largest,
 * cells on whole pixels, the element under a point, nothing in the gaps. */
static void
test_tensor_grid (void)
{
  const int GW = 216 + (int) TENSOR_COLORBAR_W;
  ZwTensor t = { 0 };
  ZwTensorGrid g;
  double rect[4];
  gint64 coords[4];

  t.n = 2;
  t.c = 8;
  t.h = 4;
  t.w = 6;
  /* 200 x 212 px for the grid (the colour bar beside it): 2 columns of 4 rows give 12.5 px
   * per element (1 x 8: 5.9, 3 x 3: 10.6, 4 x 2: 7.8) */
  g_assert_true (zw_tensor_grid_compute (&t, -1, GW, 400, &g));
  g_assert_cmpfloat (g.x0, ==, TENSOR_MARGIN);
  g_assert_cmpfloat (g.y0, ==, TENSOR_MARGIN + TENSOR_TITLE_H);
  g_assert_cmpfloat (g.h, ==, 400 - TENSOR_MARGIN - TENSOR_TITLE_H - TENSOR_BOTTOM_H - TENSOR_MARGIN);
  g_assert_cmpint (g.cols, ==, 2);
  g_assert_cmpint (g.rows, ==, 4);
  g_assert_cmpfloat_with_epsilon (g.scale, 12.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (g.cell_w, 6 * 12.5 + TENSOR_GAP, 1e-12);
  g_assert_cmpfloat_with_epsilon (g.cell_h, 4 * 12.5 + TENSOR_GAP, 1e-12);

  /* channel 5: second column, third row */
  g_assert_true (zw_tensor_view_cell_rect (&t, GW, 400, 5, rect));
  g_assert_cmpfloat (rect[0], ==, 8 + 78);
  g_assert_cmpfloat (rect[1], ==, 30 + 2 * 53);
  g_assert_cmpfloat (rect[2], ==, 75);
  g_assert_cmpfloat (rect[3], ==, 50);
  g_assert_false (zw_tensor_view_cell_rect (&t, GW, 400, 8, rect));

  /* 13 px right and 26 px down into it: w 1, h 2 */
  g_assert_true (zw_tensor_view_coords_at (&t, 1, GW, 400, 86 + 13, 136 + 26, coords));
  g_assert_cmpint (coords[0], ==, 1);
  g_assert_cmpint (coords[1], ==, 5);
  g_assert_cmpint (coords[2], ==, 2);
  g_assert_cmpint (coords[3], ==, 1);
  /* the gap between channels 4 and 5, above the grid, a batch the tensor lacks */
  g_assert_false (zw_tensor_view_coords_at (&t, 0, GW, 400, 84, 140, coords));
  g_assert_false (zw_tensor_view_coords_at (&t, 0, GW, 400, 50, 20, coords));
  g_assert_false (zw_tensor_view_coords_at (&t, 2, GW, 400, 86 + 13, 136 + 26, coords));
  /* channel 5 zoomed into: one cell of the whole grid area, the element under a point in
   * channel 5's coordinates (197 / 6 = 32.8 px per element) */
  g_assert_true (zw_tensor_grid_compute (&t, 5, GW, 400, &g));
  g_assert_cmpint (g.cols, ==, 1);
  g_assert_cmpint (g.rows, ==, 1);
  g_assert_cmpint (g.c0, ==, 5);
  g_assert_cmpint (g.n_c, ==, 1);
  g_assert_cmpfloat_with_epsilon (g.scale, 197.0 / 6, 1e-9);
  g_assert_true (zw_tensor_grid_coords_at (&t, &g, 0, g.x0 + 2.5 * g.scale, g.y0 + 3.5 * g.scale, coords));
  g_assert_cmpint (coords[1], ==, 5);
  g_assert_cmpint (coords[2], ==, 3);
  g_assert_cmpint (coords[3], ==, 2);
  g_assert_true (zw_tensor_grid_cell_rect (&t, &g, 5, rect));
  g_assert_false (zw_tensor_grid_cell_rect (&t, &g, 4, rect));
  g_assert_false (zw_tensor_grid_compute (&t, 8, GW, 400, &g));
  /* an empty tensor has no grid */
  t.c = 0;
  g_assert_false (zw_tensor_grid_compute (&t, -1, GW, 400, &g));
}

/* The Memory view's layout in numbers: ETM above a 30 % OCM pane, op indices across, a chunk
 * where its offset and lifetime put it, the smallest chunk under a point. */
static void
test_memory_layout (void)
{
  g_autoptr (ZwDeployReport) report = zw_deploy_report_new ();
  ZwChunkInfo etm = { .id = 1, .size = 1000, .first = 2, .last = 4, .ftmp_offset = 0, .ocm_addr = G_MAXUINT64 };
  ZwChunkInfo ocm = { .id = 2, .size = 100, .first = 0, .last = 9, .in_ocm = TRUE, .ocm_addr = 0 };
  ZwViewStyle style;
  ZwMemLayout l;
  graphene_rect_t r;
  const ZwChunkInfo *hit;

  zw_view_style_init_default (&style);
  style.font_size = 10;   /* a line is 15 px */
  g_array_set_size (report->ops, 10);
  report->ftmp_bytes = 2000;
  report->lower_bound = 1500;
  report->ocm_capacity = 1000;
  g_array_append_val (report->chunks, etm);
  g_array_append_val (report->chunks, ocm);

  zw_memory_layout_compute (report, NULL, 800, 600, &style, &l);
  g_assert_cmpfloat (l.zs, ==, 0);
  g_assert_cmpfloat (l.ze, ==, 10);
  /* 524 px between the title lines and the axis' labels; no hardops: no traffic pane */
  g_assert_cmpfloat (l.traffic.h, ==, 0);
  g_assert_cmpfloat (l.etm.x, ==, MEMORY_MARGIN + MEMORY_AXIS_W);
  g_assert_cmpfloat (l.etm.w, ==, 800 - 2 * MEMORY_MARGIN - MEMORY_AXIS_W);
  g_assert_cmpfloat (l.etm.y, ==, 38);
  g_assert_cmpfloat (l.ocm.h, ==, floor ((524 - 15) * 0.3));
  g_assert_cmpfloat (l.etm.h, ==, 524 - 15 - 152);
  g_assert_cmpfloat (l.ocm.y, ==, 38 + 357 + 15);
  g_assert_cmpfloat (l.etm.y_max, ==, 2000);
  /* 100 bytes used of a 1000-byte OCM: the axis fits the chunks, not the capacity */
  g_assert_cmpfloat (l.ocm.y_max, ==, 125);
  g_assert_cmpfloat_with_epsilon (zw_memory_layout_x (&l, 2), 80 + 0.2 * 712, 1e-9);
  g_assert_cmpfloat_with_epsilon (zw_memory_layout_index (&l, 80 + 0.2 * 712), 2, 1e-9);
  g_assert_cmpfloat_with_epsilon (zw_memory_pane_y (&l.etm, 1000), 38 + 357 / 2.0, 1e-9);

  g_assert_true (zw_memory_layout_chunk_rect (&l, &etm, &r));
  g_assert_cmpfloat_with_epsilon (r.origin.x, 222.4, 1e-3);
  g_assert_cmpfloat_with_epsilon (r.size.width, 0.3 * 712, 1e-3);
  g_assert_cmpfloat_with_epsilon (r.origin.y, 38 + 357 / 2.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (r.size.height, 357 / 2.0, 1e-3);
  g_assert_true (zw_memory_layout_chunk_rect (&l, &ocm, &r));
  g_assert_cmpfloat_with_epsilon (r.origin.y, 410 + 152 - 152 * 0.8, 1e-3);

  hit = zw_memory_layout_chunk_at (report, &l, 300, 300);
  g_assert_nonnull (hit);
  g_assert_cmpint (hit->id, ==, 1);
  hit = zw_memory_layout_chunk_at (report, &l, 300, 450);
  g_assert_nonnull (hit);
  g_assert_cmpint (hit->id, ==, 2);
  g_assert_null (zw_memory_layout_chunk_at (report, &l, 100, 300));
  g_assert_null (zw_memory_layout_chunk_at (report, &l, 300, 100));
}

/* The accent colours text (the OCM view's chosen option, a launch's label): readable on
 * both schemes' backgrounds, and a theme's low-contrast selection colour is not taken for it. */
static void
test_accent_contrast (void)
{
  ZwViewStyle light, dark;
  GdkRGBA black, white, adwaita_dark_sel, adwaita_dark_bg;

  zw_view_style_init_default (&light);
  zw_view_style_init_dark (&dark);
  gdk_rgba_parse (&black, "#000000");
  gdk_rgba_parse (&white, "#ffffff");
  gdk_rgba_parse (&adwaita_dark_sel, "#15539e");
  gdk_rgba_parse (&adwaita_dark_bg, "#242424");
  g_assert_cmpfloat_with_epsilon (zw_view_style_contrast (&black, &white), 21.0, 1e-9);
  g_assert_cmpfloat (zw_view_style_contrast (&adwaita_dark_sel, &adwaita_dark_bg), <, 2.5);
  g_assert_cmpfloat (zw_view_style_contrast (&light.accent, &white), >=, 4.5);
  g_assert_cmpfloat (zw_view_style_contrast (&dark.accent, &adwaita_dark_bg), >=, 4.5);
}

int
main (int argc, char **argv)
{
  gboolean render, display;
  int ret;

  /* "--suite render|display" (meson runs the binary once per suite): our own option,
   * removed before g_test_init sees it. */
  zw_test_suites_from_args (&argc, &argv, &render, &display);
  g_test_init (&argc, &argv, NULL);
  have_display = display && gtk_init_check ();

  if (render)
    {
      g_test_add_func ("/viewers/render/segment/plot-filled-segment-colours-distinct", test_segment_render);
      g_test_add_func ("/viewers/render/style/accent-readable-on-both-schemes", test_accent_contrast);
      g_test_add_func ("/viewers/render/segment/hit-test-and-selected-value", test_segment_hit_and_selection);
      g_test_add_func ("/viewers/render/memory/etm-optimize-changes-drawn-extent", test_memory_etm_optimize);
      g_test_add_func ("/viewers/render/memory/etm-traffic-per-op-beside-occupancy", test_memory_traffic);
      g_test_add_func ("/viewers/render/memory/zoom-and-selected-value", test_memory_zoom_and_selection);
      g_test_add_func ("/viewers/render/memory/layout-in-numbers", test_memory_layout);
      g_test_add_func ("/viewers/render/ocm/chosen-option-highlighted", test_ocm_chosen_highlighted);
      g_test_add_func ("/viewers/render/merge/rows-follow-merge-option", test_merge_render);
      g_test_add_func ("/viewers/render/tensor/grid-cells-and-elements-in-numbers", test_tensor_grid);
      g_test_add_func ("/viewers/render/offline-json-renders-same-as-live", test_offline_same_as_live);
      g_test_add_func ("/viewers/render/empty-report-draws-message", test_empty_report);
      g_test_add_func ("/viewers/selection/normalises-and-notifies-once", test_selection_normalises);
    }
  if (display)
    g_test_add_func ("/viewers/display/widgets-share-selection", test_display_widgets);
  ret = g_test_run ();
  /* Drop pango's font map so fontconfig's caches are not reported as leaks. */
  if (!have_display)
    {
      pango_cairo_font_map_set_default (NULL);
      cairo_debug_reset_static_data ();
      FcFini ();
    }
  return ret;
}
