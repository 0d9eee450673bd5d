/* test-run-views-timing.c — the Timing view drawn offscreen (suite render, no display): a bar
 * per launch of the demo's forward in the NPU lane and the host ops in theirs, merged launches
 * as bands, the vendor's time file, impossible rows flagged and their order inferred, the
 * layer class colours, a time range and its total, the Merged lane.
 *
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the rendered PNGs there for a look. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-profile.h"
#include "zw-timing-view.h"

#include <math.h>
#include <string.h>

typedef struct {
  const ZwProfile *profile;
  ZwDeployReport *report;
  ZwTimingState state;
} TimingArgs;

/* The lanes' heights depend on the profile drawn (the Merged lane is thin without merges):
 * the lane queries below use the last profile and report drawn. */
static const ZwProfile *lane_profile;
static ZwDeployReport *lane_report;
#define LANE_PROFILE lane_profile
#define LANE_REPORT lane_report

static void
draw_timing (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  TimingArgs *a = data;
  lane_profile = a->profile;
  lane_report = a->report;
  zw_timing_view_draw (cr, w, h, a->profile, a->report, &a->state, style);
}

typedef struct {
  double s, e;
} Span;

static int
span_cmp (gconstpointer a, gconstpointer b)
{
  double x = ((const Span *) a)->s, y = ((const Span *) b)->s;
  return x < y ? -1 : x > y;
}

/* The bars of @lane as the drawing places them (whole pixels, a one-pixel gap after bars
 * of 3 px or more, sub-pixel rows one pixel wide), merged where they touch. */
static guint
expected_runs (const ZwProfile *p, const ZwTimingState *state, int width, ZwTimingLane lane)
{
  g_autofree double *starts = NULL;
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  guint runs = 0;
  double end = -1;

  zw_timing_layout (p, &starts);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (p->rows, i);
      double a = round (zw_timing_x_of_time (p, state, width, starts[i]));
      double b = round (zw_timing_x_of_time (p, state, width, starts[i] + row->total_ms));
      Span s;
      if (zw_timing_row_lane (row) != lane || row->total_ms <= 0)
        continue;
      s.s = a;
      s.e = b - a < 1 ? a + 1 : b - a >= 3 ? b - 1 : b;
      g_array_append_val (spans, s);
    }
  g_array_sort (spans, span_cmp);
  for (guint i = 0; i < spans->len; i++)
    {
      Span *s = &g_array_index (spans, Span, i);
      if (s->s > end)   /* a span starting where the last one ends touches it: one run */
        runs++;
      end = MAX (end, s->e);
    }
  return runs;
}

/* Runs of bar pixels along the lane's middle: a pixel is a bar's when it differs from the
 * same column just inside the lane's top (above every bar, grid lines included). */
static guint
count_runs_from (cairo_surface_t *s, int width, int height, ZwTimingLane lane, int x_from, guint *n_bar_pixels)
{
  double y0, y1;
  guint runs = 0, pixels = 0;
  gboolean in = FALSE;

  zw_timing_lane_extent (LANE_PROFILE, LANE_REPORT, width, height, lane, &y0, &y1);
  for (int x = x_from; x < width; x++)
    {
      gboolean bar = zw_test_pixel (s, x, (int) ((y0 + y1) / 2)) != zw_test_pixel (s, x, (int) y0 + 1);
      if (bar && !in)
        runs++;
      pixels += bar;
      in = bar;
    }
  if (n_bar_pixels)
    *n_bar_pixels = pixels;
  return runs;
}

/* The plot starts after the lane names (x of t = 0 in a fitted view). */
static guint
count_runs (cairo_surface_t *s, int width, int height, ZwTimingLane lane, guint *n_bar_pixels)
{
  return count_runs_from (s, width, height, lane, 64, n_bar_pixels);
}

static guint
count_color (cairo_surface_t *s, int width, int height, ZwTimingLane lane, guint32 color)
{
  double y0, y1;
  guint n = 0;

  zw_timing_lane_extent (LANE_PROFILE, LANE_REPORT, width, height, lane, &y0, &y1);
  for (int x = 0; x < width; x++)
    n += zw_test_near (zw_test_pixel (s, x, (int) ((y0 + y1) / 2)), color, 2);
  return n;
}

static void
test_timing_demo_run (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  ZwTestForward r = zw_test_forward (net, FALSE, NULL, NULL);
  TimingArgs a = { .profile = r.profile, .report = r.report };
  const int W = 2400, H = 420;
  cairo_surface_t *s;
  ZwViewStyle style;
  guint npu_rows = 0, host_rows = 0, npu_pixels, runs;

  zw_view_style_init_default (&style);
  zw_timing_state_init (&a.state);
  for (guint i = 0; i < r.profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (r.profile->rows, i);
      if (zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU)
        npu_rows++;
      else
        host_rows++;
    }
  {
    guint hardops = 0;
    for (guint i = 0; i < r.report->ops->len; i++)
      hardops += g_strcmp0 (g_array_index (r.report->ops, ZwOpInfo, i).kind, "HardOp") == 0;
    g_assert_cmpuint (npu_rows, ==, hardops);   /* merge off: one row per hardop */
  }
  g_assert_cmpuint (host_rows, >, 0);

  s = zw_test_render (W, H, draw_timing, &a);
  zw_test_keep_png (s, "timing-demo.png");
  runs = count_runs (s, W, H, ZW_TIMING_LANE_NPU, &npu_pixels);
  g_test_message ("yolov5s merge off: %u NPU rows drawn as %u runs over %u px", npu_rows, runs, npu_pixels);
  g_assert_cmpuint (runs, ==, expected_runs (r.profile, &a.state, W, ZW_TIMING_LANE_NPU));
  /* host ops are timed by the cost model, not the clock: the drawing is the same on every
   * machine, so the layout's count above is exact; a bar at least */
  g_assert_cmpuint (runs, >, 0);
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_HOST, NULL), ==,
                    expected_runs (r.profile, &a.state, W, ZW_TIMING_LANE_HOST));
  /* the NPU bars show their hard time; no merge band */
  g_assert_cmpuint (count_color (s, W, H, ZW_TIMING_LANE_NPU, zw_test_argb (&style.segment[ZW_SEGMENT_WEIGHT])), >, 0);
  g_assert_cmpuint (count_color (s, W, H, ZW_TIMING_LANE_NPU, zw_test_argb (&style.segment[ZW_SEGMENT_WEIGHT])), <=, npu_pixels);
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_MERGED, NULL), ==, 0);

  /* zoomed on one launch: it fills the plot and the hit test finds it */
  {
    g_autofree double *starts = NULL;
    guint pick = 0;
    double best = 0;
    zw_timing_layout (r.profile, &starts);
    for (guint i = 0; i < r.profile->rows->len; i++)
      {
        const ZwProfileRow *row = g_ptr_array_index (r.profile->rows, i);
        if (zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU && row->total_ms > best)
          {
            best = row->total_ms;
            pick = i;
          }
      }
    a.state.t0 = starts[pick];
    a.state.t1 = starts[pick] + best;
    {
      double y0, y1;
      zw_timing_lane_extent (LANE_PROFILE, LANE_REPORT, W, H, ZW_TIMING_LANE_NPU, &y0, &y1);
      g_assert_cmpint (zw_timing_row_at (r.profile, r.report, &a.state, W, H, W / 2.0, (y0 + y1) / 2, NULL), ==,
                       (gint) pick);
    }
  }
  cairo_surface_destroy (s);
  zw_test_forward_clear (&r);
}

static void
test_timing_merged_band (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  ZwTestForward r = zw_test_forward (net, TRUE, NULL, NULL);
  TimingArgs a = { .profile = r.profile, .report = r.report };
  const int W = 1600, H = 420;
  cairo_surface_t *s;
  g_autofree double *starts = NULL;
  guint merged = 0;
  double y0, y1;

  zw_timing_state_init (&a.state);
  s = zw_test_render (W, H, draw_timing, &a);
  zw_test_keep_png (s, "timing-merged.png");
  zw_timing_layout (r.profile, &starts);
  zw_timing_lane_extent (LANE_PROFILE, LANE_REPORT, W, H, ZW_TIMING_LANE_MERGED, &y0, &y1);
  for (guint i = 0; i < r.profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (r.profile->rows, i);
      double x;
      if (row->merge_from->len == 0)
        continue;
      merged++;
      x = (zw_timing_x_of_time (r.profile, &a.state, W, starts[i])
           + zw_timing_x_of_time (r.profile, &a.state, W, starts[i] + row->total_ms)) / 2;
      /* the band is there, under its launch, and names it */
      g_assert_cmpuint (zw_test_pixel (s, (int) x, (int) ((y0 + y1) / 2)), !=, zw_test_pixel (s, (int) x, (int) y0 + 1));
      g_assert_cmpint (zw_timing_row_at (r.profile, r.report, &a.state, W, H, x, (y0 + y1) / 2, NULL), ==, (gint) i);
    }
  g_assert_cmpuint (merged, >, 0);
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_MERGED, NULL), ==, merged);
  cairo_surface_destroy (s);
  zw_test_forward_clear (&r);
}

static void
test_timing_vendor_file (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "bytetrack_BY_int8_time.txt", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) p = NULL;
  TimingArgs a = { .profile = NULL };
  const int W = 1200, H = 380;
  cairo_surface_t *s;
  ZwViewStyle style;
  g_autofree double *starts = NULL;
  double y0, y1;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the vendor time file (../shared/real) is absent");
      return;
    }
  p = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->rows->len, ==, 6);
  a.profile = p;
  zw_timing_state_init (&a.state);
  zw_view_style_init_default (&style);
  s = zw_test_render (W, H, draw_timing, &a);
  zw_test_keep_png (s, "timing-vendor.png");
  /* execution order, inferred (the file lists Output first, Input last): Input, Resize,
   * ImageMake, HardOp 754, DetPost, Output (0 ms): runs Input | Resize + ImageMake (the
   * narrow Resize has no gap) | DetPost after the hardop */
  g_assert_cmpint (p->order_source, ==, ZW_PROFILE_ORDER_INFERRED);
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_HOST, NULL), ==, expected_runs (p, &a.state, W, ZW_TIMING_LANE_HOST));
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_HOST, NULL), ==, 3);
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_NPU, NULL), ==, 1);
  g_assert_cmpuint (count_runs (s, W, H, ZW_TIMING_LANE_MERGED, NULL), ==, 0);   /* the text lost merge_from */
  zw_timing_layout (p, &starts);
  zw_timing_lane_extent (LANE_PROFILE, LANE_REPORT, W, H, ZW_TIMING_LANE_HOST, &y0, &y1);
  {
    /* ImageMake: hard 5.62 ms > total 0.129 ms, other negative: all hard, clipped to its total */
    double x = (zw_timing_x_of_time (p, &a.state, W, starts[2])
                + zw_timing_x_of_time (p, &a.state, W, starts[2] + 0.12852)) / 2;
    double xd = (zw_timing_x_of_time (p, &a.state, W, starts[1])
                 + zw_timing_x_of_time (p, &a.state, W, starts[1] + 0.92957)) / 2;
    g_assert_true (zw_test_near (zw_test_pixel (s, (int) x, (int) ((y0 + y1) / 2)), zw_test_argb (&style.segment[ZW_SEGMENT_WEIGHT]), 2));
    /* DetPost: other time */
    g_assert_true (zw_test_near (zw_test_pixel (s, (int) xd, (int) ((y0 + y1) / 2)), zw_test_argb (&style.segment[ZW_SEGMENT_INPUT]), 2));
    g_assert_cmpint (zw_timing_row_at (p, NULL, &a.state, W, H, x, (y0 + y1) / 2, NULL), ==, 2);
  }
  /* the end is the sum of the totals (laid end to end) */
  g_assert_cmpfloat_with_epsilon (zw_timing_layout (p, NULL), 24.57456, 1e-6);
  cairo_surface_destroy (s);
}

/* Rows that cannot be (hard > total, negative other) carry a warning band over their bars;
 * the title says the order was inferred and how many rows cannot be, never a measured time. */
static void
test_timing_flags_impossible_rows (void)
{
  static const char text[] =
    "op_id: 262, op_type: icraft::xir::OutputNode, op_name: , total_time: 0.5, memcpy_time: 0, hard_time: 0, other_time: 0.5\n"
    "op_id: 458, op_type: customop::ImageMakeNode, op_name: , total_time: 1, memcpy_time: 0, hard_time: 5.5, other_time: -4.5\n"
    "op_id: 754, op_type: icraft::xir::HardOpNode, op_name: , total_time: 4, memcpy_time: 0, hard_time: 4, other_time: 0\n"
    "op_id: 0, op_type: icraft::xir::InputNode, op_name: , total_time: 2, memcpy_time: 0, hard_time: 0, other_time: 2\n";
  g_autoptr (ZwProfile) p = zw_profile_parse (text, -1, "flags_time.txt", NULL, NULL, NULL);
  TimingArgs a = { .profile = p };
  const int W = 1000, H = 360;
  g_autofree double *starts = NULL;
  g_autofree char *headline = NULL;
  cairo_surface_t *s;
  ZwViewStyle style;
  double y0, y1;

  g_assert_nonnull (p);
  zw_view_style_init_default (&style);
  zw_timing_state_init (&a.state);
  g_assert_cmpuint (p->n_flagged, ==, 1);
  headline = zw_timing_view_headline (p);
  g_assert_nonnull (strstr (headline, "order inferred"));
  g_assert_nonnull (strstr (headline, "1 row cannot be"));
  g_assert_nonnull (strstr (headline, "7.5 ms"));   /* the simulated end: 2 + 1 + 4 + 0.5 */
  s = zw_test_render (W, H, draw_timing, &a);
  zw_test_keep_png (s, "timing-flags.png");
  zw_timing_layout (p, &starts);
  /* execution order: Input 0, ImageMake 2, HardOp 3, Output 7 */
  g_assert_cmpfloat (starts[3], ==, 0);
  g_assert_cmpfloat (starts[1], ==, 2);
  g_assert_cmpfloat (starts[2], ==, 3);
  g_assert_cmpfloat (starts[0], ==, 7);
  zw_timing_lane_extent (LANE_PROFILE, LANE_REPORT, W, H, ZW_TIMING_LANE_HOST, &y0, &y1);
  {
    guint warn_image_make = 0, warn_input = 0, warn_output = 0;
    int ia = (int) zw_timing_x_of_time (p, &a.state, W, 2), ib = (int) zw_timing_x_of_time (p, &a.state, W, 3);
    int na = (int) zw_timing_x_of_time (p, &a.state, W, 0), nb = (int) zw_timing_x_of_time (p, &a.state, W, 2);
    for (int x = ia + 1; x < ib - 1; x++)
      warn_image_make += zw_test_near (zw_test_pixel (s, x, (int) y0 + 1), zw_test_argb (&style.warning), 2);
    for (int x = na + 1; x < nb - 1; x++)
      warn_input += zw_test_near (zw_test_pixel (s, x, (int) y0 + 1), zw_test_argb (&style.warning), 2);
    for (int x = (int) zw_timing_x_of_time (p, &a.state, W, 7) + 1; x < W - 10; x++)
      warn_output += zw_test_near (zw_test_pixel (s, x, (int) y0 + 1), zw_test_argb (&style.warning), 2);
    g_assert_cmpuint (warn_image_make, ==, (guint) (ib - ia - 2));
    g_assert_cmpuint (warn_input, ==, 0);
    g_assert_cmpuint (warn_output, ==, 0);
  }
  cairo_surface_destroy (s);

  /* the same rows with the network known: no "order inferred" any more */
  {
    static const gint64 ops[] = { 0, 458, 754, 262 };
    g_autofree char *known = NULL;
    zw_profile_order_by_network (p, ops, G_N_ELEMENTS (ops));
    known = zw_timing_view_headline (p);
    g_assert_null (strstr (known, "order inferred"));
    g_assert_nonnull (strstr (known, "1 row cannot be"));
  }
}

/* Timing that reads like a profiler: layer classes, a range with its total, the Merged lane
 * only as tall as it needs. */
static void
test_timing_profiler (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  ZwTestForward off = zw_test_forward (net, FALSE, NULL, NULL), on = zw_test_forward (net, TRUE, NULL, NULL);
  TimingArgs a = { .profile = off.profile, .report = off.report };
  const int W = 1200, H = 420;
  g_autofree double *starts = NULL;
  double end, npu = 0, host = 0, got_npu, got_host, y0, y1, m0, m1, n0, n1;
  guint n_rows;
  ZwViewStyle style;
  cairo_surface_t *s, *plain;

  zw_view_style_init_default (&style);
  zw_timing_state_init (&a.state);

  /* the layer class from the report, not "HardOp" */
  for (guint i = 0; i < off.profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (off.profile->rows, i);
      const ZwOpInfo *op = zw_deploy_report_find_op (off.report, row->op_id);
      g_autofree char *cls = zw_timing_row_layer_class (row, off.report);
      if (op != NULL && g_strcmp0 (op->kind, "HardOp") == 0)
        {
          g_assert_cmpstr (cls, !=, "HardOp");
          g_assert_nonnull (strstr (op->op_class, cls));
        }
    }
  /* merged launches name their first member's class and how many more */
  for (guint i = 0; i < on.profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (on.profile->rows, i);
      g_autofree char *cls = zw_timing_row_layer_class (row, on.report);
      if (zw_deploy_report_find_op (on.report, row->op_id) == NULL && zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU
          && row->merge_from != NULL && row->merge_from->len > 1)
        g_assert_nonnull (strstr (cls, "more"));
    }

  /* the range total: the whole run is the sum of the rows, per lane */
  end = zw_timing_layout (off.profile, &starts);
  for (guint i = 0; i < off.profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (off.profile->rows, i);
      if (zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU)
        npu += MAX (row->total_ms, 0.0);
      else
        host += MAX (row->total_ms, 0.0);
    }
  zw_timing_range_total (off.profile, 0, end, &got_npu, &got_host, &n_rows);
  g_assert_cmpfloat_with_epsilon (got_npu, npu, 1e-9 * MAX (1.0, npu));
  g_assert_cmpfloat_with_epsilon (got_host, host, 1e-9 * MAX (1.0, host));
  zw_timing_range_total (off.profile, end / 4, end / 2, &got_npu, &got_host, &n_rows);
  g_assert_cmpfloat (got_npu + got_host, <=, end / 4 + 1e-9);
  g_assert_cmpfloat (got_npu + got_host, >, 0);
  g_assert_cmpuint (n_rows, >, 0);

  /* the selection is drawn with its label box over the ruler, in the accent colour */
  plain = zw_test_render (W, H, draw_timing, &a);
  a.state.sel_t0 = end / 4;
  a.state.sel_t1 = end / 2;
  s = zw_test_render (W, H, draw_timing, &a);
  zw_test_keep_png (s, "timing-range.png");
  {
    double xa = zw_timing_x_of_time (off.profile, &a.state, W, end / 4);
    double xb = zw_timing_x_of_time (off.profile, &a.state, W, end / 2);
    int x = (int) ((xa + xb) / 2), y = 8 + 22 + 1;   /* MARGIN + TITLE_H: the ruler's top row */
    g_assert_true (zw_test_near (zw_test_pixel (s, x, y), zw_test_argb (&style.accent), 2));
    g_assert_false (zw_test_near (zw_test_pixel (plain, x, y), zw_test_argb (&style.accent), 2));
  }
  cairo_surface_destroy (s);
  cairo_surface_destroy (plain);

  /* merge off: the Merged lane is a thin line and the NPU lane has the height */
  zw_timing_lane_extent (off.profile, off.report, W, H, ZW_TIMING_LANE_MERGED, &m0, &m1);
  zw_timing_lane_extent (off.profile, off.report, W, H, ZW_TIMING_LANE_NPU, &n0, &n1);
  g_assert_cmpfloat (m1 - m0, <=, 14);
  zw_timing_lane_extent (off.profile, off.report, W, H, ZW_TIMING_LANE_HOST, &y0, &y1);
  g_assert_cmpfloat (m1 - m0, <, (y1 - n0) / 10);
  /* …and the NPU bars are drawn down to where the old Merged third began */
  s = zw_test_render (W, H, draw_timing, &a);
  {
    guint bar_px = 0;
    for (int x = 70; x < W - 10; x++)
      bar_px += zw_test_pixel (s, x, (int) n1 - 5) != zw_test_pixel (s, x, (int) n0 + 1);
    g_assert_cmpuint (bar_px, >, 0);
    g_assert_cmpfloat (n1 - n0, >, (y1 - n0) * 0.45);
  }
  cairo_surface_destroy (s);
  /* merge on: the lane has room for its bands */
  zw_timing_lane_extent (on.profile, on.report, W, H, ZW_TIMING_LANE_MERGED, &m0, &m1);
  g_assert_cmpfloat (m1 - m0, >, 20);
  zw_test_forward_clear (&off);
  zw_test_forward_clear (&on);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-views/render/timing/demo-run-bars-per-launch", test_timing_demo_run);
  g_test_add_func ("/run-views/render/timing/merged-launches-as-bands", test_timing_merged_band);
  g_test_add_func ("/run-views/render/timing/vendor-time-file", test_timing_vendor_file);
  g_test_add_func ("/run-views/render/timing/impossible-rows-flagged-order-inferred", test_timing_flags_impossible_rows);
  g_test_add_func ("/run-views/render/timing/layer-class-range-total-merged-lane", test_timing_profiler);
  return g_test_run ();
}
