/* test-run-views.c — the views of a run's results (timing, compare, tensor inspector, dump
 * diff, log) and their exports: offscreen renders of their draw functions (suite render, no
 * display) and the widgets realised in a window (suite display, under Xvfb).
 *
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the rendered PNGs there for a look. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "report/zw-deploy-graph.h"
#include "report/zw-dump-diff.h"
#include "report/zw-profile.h"
#include "report/zw-tensor-stats.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "zw-compare-view.h"
#include "zw-dump-diff-view.h"
#include "zw-export.h"
#include "zw-log-view.h"
#include "zw-selection.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static gboolean have_display;

/* ---- runs through the Session ---- */


typedef struct {
  ZwProfile *profile;        /* a copy the test owns */
  ZwDeployReport *report;
} Run;

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->profile, zw_profile_free);
  g_clear_pointer (&r->report, zw_deploy_report_unref);
}

/* One forward of @net with the ZG330 + Host backends; a time profile and, when @dump_dir is
 * given, dumps in @dump_format. */
static Run
run_net (XirNetwork *net, gboolean merge, const char *dump_dir, const char *dump_format)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  g_autoptr (GPtrArray) outs = NULL;
  g_autofree char *json = NULL;
  GPtrArray *values = xir_network_get_inputs (net);
  GRand *rand = g_rand_new_with_seed (7);
  Run r = { NULL, NULL };

  g_assert_no_error (error);
  s = xrt_session_new (view, types, devs, 2, &error);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), merge, TRUE, ZW_OCM_BEST_SCORE, &error));
  g_assert_true (xrt_session_apply (s, &error));
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 i = 0; i < v->storage_bytes; i++)
        bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
      g_ptr_array_add (inputs, xrt_tensor_new_host (net, v, bytes, v->storage_bytes, NULL));
    }
  g_rand_free (rand);
  xrt_session_enable_time_profile (s, TRUE);
  if (dump_dir != NULL)
    g_assert_true (xrt_session_set_dump_outputs (s, TRUE, dump_dir, dump_format, &error));
  outs = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  /* an owned copy through our own JSON format (lossless) */
  json = zw_profile_to_string (xrt_session_get_time_profile (s), ZW_PROFILE_FORMAT_JSON);
  r.profile = zw_profile_parse (json, -1, "session", NULL, NULL, &error);
  g_assert_no_error (error);
  r.report = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
  g_assert_nonnull (r.report);
  return r;
}

/* ---- pixels ---- */

static void
keep_png (cairo_surface_t *surface, const char *name)
{
  const char *dir = g_getenv ("ZW_RUN_VIEWS_KEEP");
  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      cairo_surface_write_to_png (surface, path);
    }
}

typedef void (*DrawFn) (cairo_t *cr, int w, int h, gpointer data);

static cairo_surface_t *
render (int w, int h, void (*draw) (cairo_t *, int, int, const ZwViewStyle *, gpointer), gpointer data)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  draw (cr, w, h, &style, data);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* ---- timing ---- */

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
  Run r = run_net (net, FALSE, NULL, NULL);
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

  s = render (W, H, draw_timing, &a);
  keep_png (s, "timing-demo.png");
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
  run_clear (&r);
}

static void
test_timing_merged_band (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  Run r = run_net (net, TRUE, NULL, NULL);
  TimingArgs a = { .profile = r.profile, .report = r.report };
  const int W = 1600, H = 420;
  cairo_surface_t *s;
  g_autofree double *starts = NULL;
  guint merged = 0;
  double y0, y1;

  zw_timing_state_init (&a.state);
  s = render (W, H, draw_timing, &a);
  keep_png (s, "timing-merged.png");
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
  run_clear (&r);
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
  s = render (W, H, draw_timing, &a);
  keep_png (s, "timing-vendor.png");
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
  s = render (W, H, draw_timing, &a);
  keep_png (s, "timing-flags.png");
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

/* ---- tensor inspector ---- */

typedef struct {
  const ZwTensor *tensor;
  const ZwTensorStats *stats;
  ZwTensorViewState state;
} TensorArgs;

static void
draw_tensor (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  TensorArgs *a = data;
  zw_tensor_view_draw (cr, w, h, a->tensor, a->stats, &a->state, style);
}

static void
test_tensor_ocm_value (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autoptr (ZwDumpFolder) folder = NULL;
  g_autoptr (ZwTensor) tensor = NULL;
  g_autoptr (ZwTensorStats) stats = NULL;
  g_autofree char *bytes = NULL;
  const ZwDumpManifestEntry *entry = NULL;
  const ZwDumpData *data = NULL;
  TensorArgs a;
  Run r;
  gsize len;
  gint64 C, Wd, Hd, qmin = 127, qmax = -128;
  guint64 zeros = 0;
  double sum = 0;
  cairo_surface_t *s;
  const int W = 1000, H = 760;

  if (net == NULL)
    {
      g_test_skip ("the real sample (../shared/real) is absent");
      return;
    }
  dir = g_dir_make_tmp ("run-views-tensor-XXXXXX", NULL);
  r = run_net (net, FALSE, dir, "SQB");
  folder = zw_dump_folder_load (dir, net, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (folder->warnings->len, ==, 0);
  /* an OCM-resident 4-D-or-more feature map with several channels */
  for (guint i = 0; i < folder->manifest->entries->len && entry == NULL; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (folder->manifest->entries, i);
      if (e->memory == ZW_DUMP_MEMORY_OCM && e->type.quantized && e->type.rank == 5 && e->type.shape[1] >= 2)
        entry = e;
    }
  g_assert_nonnull (entry);
  for (guint i = 0; i < folder->values->len; i++)
    if (((ZwDumpData *) g_ptr_array_index (folder->values, i))->v_id == entry->type.v_id)
      data = g_ptr_array_index (folder->values, i);
  g_assert_nonnull (data);
  g_assert_true (zw_deploy_report_find_value (r.report, entry->type.v_id)->is_ocm);

  tensor = zw_tensor_new_from_folder (folder, data, net, &error);
  g_assert_no_error (error);
  stats = zw_tensor_stats_compute (tensor, 64);

  /* the statistics against the file's own bytes (SQB: int8, NHWC, the real channels) */
  {
    g_autofree char *file = g_build_filename (dir, entry->file, NULL);
    g_assert_true (g_file_get_contents (file, &bytes, &len, NULL));
  }
  g_assert_cmpuint (data->shape.rank, ==, 4);
  Hd = data->shape.shape[1];
  Wd = data->shape.shape[2];
  C = data->shape.shape[3];
  g_assert_cmpuint (len, ==, (gsize) (Hd * Wd * C));
  for (gsize k = 0; k < len; k++)
    {
      gint8 q = (gint8) bytes[k];
      qmin = MIN (qmin, q);
      qmax = MAX (qmax, q);
      zeros += q == 0;
      sum += (double) q * entry->type.scales[entry->type.n_scales == 1 ? 0 : k % C];
    }
  g_assert_cmpint (tensor->c, ==, C);
  g_assert_true (tensor->has_quantized);
  g_assert_cmpfloat (stats->q.min, ==, qmin);
  g_assert_cmpfloat (stats->q.max, ==, qmax);
  g_assert_cmpuint (stats->q.n_zero, ==, zeros);
  g_assert_cmpuint (stats->f.count, ==, len);
  g_assert_cmpfloat_with_epsilon (stats->f.mean, sum / len, 1e-5 * MAX (1.0, fabs (sum / len)));
  g_assert_cmpuint (stats->f.n_nan, ==, 0);
  g_assert_cmpfloat (qmax, >, qmin);

  /* the heatmap: every channel's cell drawn, each sampled pixel the colour of its element */
  zw_tensor_view_state_init (&a.state);
  a.tensor = tensor;
  a.stats = stats;
  a.state.title = "OCM value";
  for (int view = 0; view < 2; view++)   /* quantised, then float */
    {
      g_autoptr (GHashTable) colors = g_hash_table_new (NULL, NULL);
      const ZwStatsSummary *range = view == 0 ? &stats->q : &stats->f;
      guint checked = 0;

      a.state.quantized = view == 0;
      s = render (W, H, draw_tensor, &a);
      keep_png (s, view == 0 ? "tensor-ocm.png" : "tensor-ocm-float.png");
      for (gint64 c = 0; c < C; c += MAX (1, C / 7))
        {
          double rect[4];
          g_assert_true (zw_tensor_view_cell_rect (tensor, W, H, c, rect));
          for (gint64 y = 0; y < Hd; y += MAX (1, Hd / 5))
            for (gint64 x = 0; x < Wd; x += MAX (1, Wd / 5))
              {
                double scale = rect[2] / Wd, v;
                int px = (int) (rect[0] + (x + 0.5) * scale), py = (int) (rect[1] + (y + 0.5) * scale);
                gint64 coords[4];
                gint8 q;
                guint8 rgb[3];
                /* sample only where the pixel centre maps back to this element, away from
                 * the channel number in the cell's corner */
                if ((px - rect[0] < 30 && py - rect[1] < 16)
                    || !zw_tensor_view_coords_at (tensor, 0, W, H, px + 0.5, py + 0.5, coords) || coords[1] != c
                    || coords[2] != y || coords[3] != x)
                  continue;
                q = (gint8) bytes[(y * Wd + x) * C + c];
                v = view == 0 ? q : (double) ((float) q * entry->type.scales[entry->type.n_scales == 1 ? 0 : c]);
                zw_tensor_view_colormap ((v - range->min) / (range->max - range->min), rgb);
                g_assert_true (zw_test_near (zw_test_pixel (s, px, py), 0xff000000u | (rgb[0] << 16) | (rgb[1] << 8) | rgb[2], 2));
                g_hash_table_add (colors, GUINT_TO_POINTER (zw_test_pixel (s, px, py)));
                checked++;
              }
        }
      g_test_message ("v_id %" G_GINT64_FORMAT " (OCM, %" G_GINT64_FORMAT " channels of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                      "), %s view: %u heatmap pixels checked, %u colours",
                      entry->type.v_id, C, Hd, Wd, view == 0 ? "quantised" : "float", checked,
                      g_hash_table_size (colors));
      g_assert_cmpuint (checked, >, 20);
      g_assert_cmpuint (g_hash_table_size (colors), >, 4);
      cairo_surface_destroy (s);
    }

  /* a file of the folder truncated: a message naming it, the others still load */
  {
    g_autofree char *file = g_build_filename (dir, entry->file, NULL);
    g_autoptr (ZwDumpFolder) bad = NULL;
    g_assert_true (g_file_set_contents (file, bytes, (gssize) len / 2, NULL));
    bad = zw_dump_folder_load (dir, net, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (bad->values->len, ==, folder->values->len - 1);
    g_assert_cmpuint (bad->warnings->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (bad->warnings, 0), entry->file));
  }
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *f = g_build_filename (dir, name, NULL);
        g_unlink (f);
      }
    g_rmdir (dir);
  }
  run_clear (&r);
}

/* Timing that reads like a profiler: layer classes, a range with its total, the Merged lane
 * only as tall as it needs. */
static void
test_timing_profiler (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  Run off = run_net (net, FALSE, NULL, NULL), on = run_net (net, TRUE, NULL, NULL);
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
  plain = render (W, H, draw_timing, &a);
  a.state.sel_t0 = end / 4;
  a.state.sel_t1 = end / 2;
  s = render (W, H, draw_timing, &a);
  keep_png (s, "timing-range.png");
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
  s = render (W, H, draw_timing, &a);
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
  run_clear (&off);
  run_clear (&on);
}

/* ---- dump diff ---- */

typedef struct {
  const ZwDumpDiff *diff;
  gint64 selected;
} DiffArgs;

static void
draw_diff (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  DiffArgs *a = data;
  zw_dump_diff_view_draw (cr, w, h, a->diff, a->selected, style);
}

static void
draw_heatmaps (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  zw_dump_diff_view_draw_heatmaps (cr, w, h, data, style);
}

static void
copy_dir (const char *from, const char *to)
{
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_mkdir_with_parents (to, 0700);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL), *b = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (a, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (b, contents, (gssize) len, NULL));
    }
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *f = g_build_filename (dir, name, NULL);
      if (g_file_test (f, G_FILE_TEST_IS_DIR))
        remove_dir (f);
      else
        g_unlink (f);
    }
  g_rmdir (dir);
}

/* Flips one byte of @v_id's SQB file at element @k; returns the element's (n, c, h, w). */
static void
plant (const char *dir, const ZwDumpData *data, gsize k, gint64 coords[4])
{
  g_autofree char *file = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", dir, data->v_id);
  g_autofree char *contents = NULL;
  gsize len;
  gint64 C = data->shape.shape[data->shape.rank - 1];
  gint64 Wd = data->shape.rank >= 3 ? data->shape.shape[data->shape.rank - 2] : 1;
  gint64 Hd = data->shape.rank >= 4 ? data->shape.shape[data->shape.rank - 3] : 1;

  g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
  g_assert_cmpuint (k, <, len);
  contents[k] ^= 0x10;
  g_assert_true (g_file_set_contents (file, contents, (gssize) len, NULL));
  coords[1] = (gint64) k % C;
  coords[3] = ((gint64) k / C) % Wd;
  coords[2] = ((gint64) k / (C * Wd)) % Hd;
  coords[0] = (gint64) k / (C * Wd * Hd);
}

static void
test_dump_diff_planted_byte (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("run-views-diff-XXXXXX", NULL);
  g_autofree char *da = g_build_filename (root, "a", NULL), *db = g_build_filename (root, "b", NULL);
  g_autoptr (ZwDumpFolder) folder = NULL;
  g_autoptr (ZwDumpDiff) diff = NULL;
  const ZwDumpData *early = NULL, *late = NULL;
  gint early_index = G_MAXINT, late_index = -1;
  gint64 want[4], later[4];
  Run r = run_net (net, FALSE, da, "SQB");
  DiffArgs a;
  cairo_surface_t *s;
  ZwViewStyle style;
  double y0, y1;
  int W = 1200, H;

  folder = zw_dump_folder_load (da, net, NULL, &error);
  g_assert_no_error (error);
  /* two int8 4-D values produced by hardops: one in the middle of the run, one later */
  for (guint i = 0; i < folder->values->len; i++)
    {
      const ZwDumpData *d = g_ptr_array_index (folder->values, i);
      const XirValue *v = xir_network_get_value (net, d->v_id);
      if (v == NULL || v->producer < 0 || d->shape.rank != 4 || d->shape.is_float || d->shape.shape[3] < 3
          || xir_network_get_op (net, (guint) v->producer)->kind != XIR_OP_HARDOP)
        continue;
      if (v->producer > (gint) xir_network_get_n_ops (net) / 3 && v->producer < early_index)
        {
          early = d;
          early_index = v->producer;
        }
      if (v->producer > late_index)
        {
          late = d;
          late_index = v->producer;
        }
    }
  g_assert_nonnull (early);
  g_assert_nonnull (late);
  g_assert_cmpint (early_index, <, late_index);
  copy_dir (da, db);
  /* the later value planted first: the diff must still name the earlier one */
  plant (db, late, late->shape.n_elements / 2, later);
  plant (db, early, early->shape.n_elements / 3 + 5, want);

  diff = zw_dump_diff_folders (da, db, net, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (diff->n_diverged, ==, 2);
  g_assert_nonnull (diff->first);
  g_assert_cmpint (diff->first->v_id, ==, early->v_id);
  g_assert_cmpmem (diff->first->first_coords, sizeof want, want, sizeof want);
  g_assert_cmpuint (diff->first->n_differ, ==, 1);
  g_test_message ("planted at v_id %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                  ", %" G_GINT64_FORMAT ") and v_id %" G_GINT64_FORMAT ": first divergence found at v_id %" G_GINT64_FORMAT,
                  early->v_id, want[0], want[1], want[2], want[3], late->v_id, diff->first->v_id);

  /* the view highlights exactly that row, in the warning colour */
  a.diff = diff;
  a.selected = -1;
  H = zw_dump_diff_view_content_height (diff);
  s = render (W, H, draw_diff, &a);
  keep_png (s, "dump-diff.png");
  zw_view_style_init_default (&style);
  g_assert_true (zw_dump_diff_view_row_extent (diff, early->v_id, &y0, &y1));
  g_assert_cmpint (zw_dump_diff_view_value_at (diff, (y0 + y1) / 2), ==, early->v_id);
  {
    guint32 bg = zw_test_argb (&style.background);
    guint32 first_bg = zw_test_blend (&style.warning, 0.30, bg);
    int x = W - 20;   /* past the text of the last column */
    g_assert_true (zw_test_near (zw_test_pixel (s, x, (int) ((y0 + y1) / 2)), first_bg, 3));
    /* the later divergent row is not highlighted as the first */
    g_assert_true (zw_dump_diff_view_row_extent (diff, late->v_id, &y0, &y1));
    g_assert_false (zw_test_near (zw_test_pixel (s, x, (int) ((y0 + y1) / 2)), first_bg, 3));
  }
  cairo_surface_destroy (s);

  /* the row opens A, B and |A-B| heatmaps on its first differing coordinates: the planted
   * element is the one cell where A and B differ and the brightest of |A-B| */
  {
    g_autoptr (ZwDumpFolder) fa = zw_dump_folder_load (da, net, NULL, &error);
    g_autoptr (ZwDumpFolder) fb = zw_dump_folder_load (db, net, NULL, &error);
    g_autoptr (GPtrArray) ta = zw_dump_diff_load_side (fa, net, NULL);
    g_autoptr (GPtrArray) tb = zw_dump_diff_load_side (fb, net, NULL);
    ZwDumpDiffHeatmaps hm = { diff->first, NULL, NULL, da, db };
    guint8 hi_rgb[3], lo_rgb[3];
    double cell[4], other[4];
    int HW = 1200, HH = ZW_DUMP_DIFF_HEATMAPS_HEIGHT;
    gint64 nh, nw;

    for (guint i = 0; i < ta->len; i++)
      if (((ZwTensor *) g_ptr_array_index (ta, i))->v_id == early->v_id)
        hm.a = g_ptr_array_index (ta, i);
    for (guint i = 0; i < tb->len; i++)
      if (((ZwTensor *) g_ptr_array_index (tb, i))->v_id == early->v_id)
        hm.b = g_ptr_array_index (tb, i);
    g_assert_nonnull (hm.a);
    g_assert_nonnull (hm.b);
    s = render (HW, HH, draw_heatmaps, &hm);
    keep_png (s, "dump-diff-heatmaps.png");
    zw_tensor_view_colormap (1.0, hi_rgb);
    zw_tensor_view_colormap (0.0, lo_rgb);
    /* a neighbour of the planted element in the same channel, inside the window */
    nh = want[2];
    nw = want[3] > 0 ? want[3] - 1 : want[3] + 1;
    for (int k = 0; k < 3; k++)
      {
        g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, k, want[2], want[3], cell));
        g_assert_cmpfloat (cell[2], >=, 4);
        /* the three heatmaps side by side, in order */
        g_assert_cmpfloat (cell[0], >, k * (HW / 3.0) - 1);
        g_assert_cmpfloat (cell[0], <, (k + 1) * (HW / 3.0));
      }
    {
      guint32 at[3], next[3];
      for (int k = 0; k < 3; k++)
        {
          g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, k, want[2], want[3], cell));
          g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, k, nh, nw, other));
          at[k] = zw_test_pixel (s, (int) (cell[0] + cell[2] / 2), (int) (cell[1] + cell[3] / 2));
          next[k] = zw_test_pixel (s, (int) (other[0] + other[2] / 2), (int) (other[1] + other[3] / 2));
        }
      /* A and B differ at the planted element and agree beside it */
      g_assert_false (zw_test_near (at[0], at[1], 2));
      g_assert_true (zw_test_near (next[0], next[1], 0));
      /* |A-B|: top of the colour map there, bottom beside it */
      g_assert_true (zw_test_near (at[2], 0xff000000u | (guint32) hi_rgb[0] << 16 | (guint32) hi_rgb[1] << 8 | hi_rgb[2], 2));
      g_assert_true (zw_test_near (next[2], 0xff000000u | (guint32) lo_rgb[0] << 16 | (guint32) lo_rgb[1] << 8 | lo_rgb[2], 2));
    }
    /* the planted element is outlined in the warning colour just outside its cell */
    g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, 2, want[2], want[3], cell));
    zw_view_style_init_default (&style);
    g_assert_true (zw_test_near (zw_test_pixel (s, (int) cell[0] - 1, (int) (cell[1] + cell[3] / 2)), zw_test_argb (&style.warning), 40));
    cairo_surface_destroy (s);
  }
  remove_dir (root);
  run_clear (&r);
}

/* ---- compare ---- */

typedef struct {
  const ZwProfileCompare *cmp;
  const ZwDeployCompare *dcmp;
} CompareArgs;

static void
draw_compare (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  CompareArgs *a = data;
  zw_compare_view_draw (cr, w, h, a->cmp, a->dcmp, "merge off", "merge off, slow op", -1, style);
}

static void
test_compare_regression (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  Run r = run_net (net, FALSE, NULL, NULL);
  g_autofree char *json = zw_profile_to_string (r.profile, ZW_PROFILE_FORMAT_JSON);
  g_autoptr (ZwProfile) b = zw_profile_parse (json, -1, "copy", NULL, NULL, NULL);
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autoptr (ZwDeployCompare) dcmp = NULL;
  CompareArgs a;
  ZwProfileRow *slow = NULL;
  guint slow_index = 0;
  cairo_surface_t *s;
  ZwViewStyle style;
  double y0, y1;
  const int W = 1000;
  int H;

  /* the longest hardop of B made 0.5 ms slower */
  for (guint i = 0; i < b->rows->len; i++)
    {
      ZwProfileRow *row = g_ptr_array_index (b->rows, i);
      if (row->hard_ms > 0 && (slow == NULL || row->hard_ms > slow->hard_ms))
        {
          slow = row;
          slow_index = i;
        }
    }
  g_assert_nonnull (slow);
  slow->hard_ms += 0.5;
  slow->total_ms = slow->memcpy_ms + slow->hard_ms + slow->other_ms;
  zw_profile_compute_totals (b);
  cmp = zw_profile_compare (r.profile, b, NULL);
  dcmp = zw_deploy_compare (r.report, r.report);
  g_assert_cmpuint (cmp->n_regressions, ==, 1);
  /* the host ops' measured time is summed apart, on its own labelled line, never compared */
  g_assert_true (cmp->a_has_host_measured && cmp->b_has_host_measured);
  {
    g_autoptr (ZwProfile) a2 = zw_profile_copy (r.profile);
    g_autoptr (ZwProfileCompare) unmeasured = NULL;
    for (guint i = 0; i < a2->rows->len; i++)
      ((ZwProfileRow *) g_ptr_array_index (a2->rows, i))->host_measured_ms = -1;
    unmeasured = zw_profile_compare (a2, a2, NULL);
    g_assert_false (unmeasured->a_has_host_measured);
    g_assert_cmpint (zw_compare_view_content_height (cmp, NULL), >, zw_compare_view_content_height (unmeasured, NULL));
  }
  a.cmp = cmp;
  a.dcmp = dcmp;
  H = zw_compare_view_content_height (cmp, dcmp);
  s = render (W, H, draw_compare, &a);
  keep_png (s, "compare.png");
  zw_view_style_init_default (&style);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *row = g_ptr_array_index (cmp->rows, i);
      guint32 px;
      g_assert_true (zw_compare_view_row_extent (cmp, dcmp, i, &y0, &y1));
      g_assert_cmpint (zw_compare_view_row_at (cmp, dcmp, (y0 + y1) / 2), ==, (gint) i);
      px = zw_test_pixel (s, 10, (int) ((y0 + y1) / 2));
      if (i == slow_index)
        {
          g_assert_true (row->regression);
          g_assert_true (zw_test_near (px, zw_test_blend (&style.warning, 0.28, zw_test_argb (&style.background)), 3));
        }
      else
        g_assert_false (zw_test_near (px, zw_test_blend (&style.warning, 0.28, zw_test_argb (&style.background)), 3));
    }
  cairo_surface_destroy (s);
  run_clear (&r);
}

/* ---- log ---- */

typedef struct {
  const char *text, *needle;
  gint line;
} LogArgs;

static void
draw_log (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  LogArgs *a = data;
  zw_log_view_draw (cr, w, h, a->text, "test.log", a->needle, a->line, style);
}

static void
test_log_render_highlights (void)
{
  LogArgs a = { "apply: ok\nocm option OPTION2 chosen\nvalue 16 in OCM\nforward done\n", "ocm", 2 };
  cairo_surface_t *s = render (500, 200, draw_log, &a);
  ZwViewStyle style;
  guint accent = 0, warn = 0;

  zw_view_style_init_default (&style);
  keep_png (s, "log.png");
  for (int y = 0; y < 200; y++)
    for (int x = 0; x < 500; x++)
      {
        guint32 p = zw_test_pixel (s, x, y);
        accent += zw_test_near (p, zw_test_blend (&style.accent, 0.55, zw_test_argb (&style.background)), 2);
        warn += zw_test_near (p, zw_test_blend (&style.warning, 0.30, zw_test_argb (&style.background)), 2);
      }
  /* "ocm" on line 2 (the current match) and "OCM" on line 3 */
  g_assert_cmpuint (warn, >, 20);
  g_assert_cmpuint (accent, >, 20);
  cairo_surface_destroy (s);
}

/* ---- exports ---- */

static void
check_svg_start (GMarkupParseContext *context, const char *element, const char **names, const char **values,
                 gpointer data, GError **error)
{
  char **root = data;
  (void) context;
  (void) names;
  (void) values;
  (void) error;
  if (*root == NULL)
    *root = g_strdup (element);
}

static void
check_exports (ZwExportDrawFunc draw, gpointer data, int w, int h, const char *dir, const char *name)
{
  static const char *ext[] = { "png", "svg", "pdf" };

  for (int f = 0; f < 3; f++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_strdup_printf ("%s/%s.%s", dir, name, ext[f]);
      g_autofree char *contents = NULL;
      ZwViewFormat format;
      gsize len;

      g_assert_true (zw_export_format_from_path (path, &format, &error));
      g_assert_cmpint (format, ==, f);
      g_assert_true (zw_export_draw_to_file (draw, data, NULL, format, w, h, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      if (format == ZW_VIEW_FORMAT_PNG)
        {
          cairo_surface_t *s = cairo_image_surface_create_from_png (path);
          g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
          g_assert_cmpint (cairo_image_surface_get_width (s), ==, w);
          g_assert_cmpint (cairo_image_surface_get_height (s), ==, h);
          cairo_surface_destroy (s);
        }
      else if (format == ZW_VIEW_FORMAT_SVG)
        {
          GMarkupParser parser = { check_svg_start, NULL, NULL, NULL, NULL };
          g_autofree char *root = NULL;
          GMarkupParseContext *ctx = g_markup_parse_context_new (&parser, 0, &root, NULL);
          g_assert_true (g_markup_parse_context_parse (ctx, contents, (gssize) len, &error));
          g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
          g_assert_no_error (error);
          g_markup_parse_context_free (ctx);
          g_assert_cmpstr (root, ==, "svg");
        }
      else
        {
          const char *tail = contents + len;
          g_assert_true (g_str_has_prefix (contents, "%PDF"));
          while (tail > contents && g_ascii_isspace (tail[-1]))
            tail--;
          g_assert_cmpint (tail - contents, >=, 5);
          g_assert_cmpmem (tail - 5, 5, "%%EOF", 5);
        }
      g_unlink (path);
    }
}

static void
test_exports (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "bytetrack_BY_int8_time.txt", NULL);
  g_autofree char *dir = g_dir_make_tmp ("run-views-export-XXXXXX", NULL);
  g_autoptr (ZwProfile) p = NULL;
  TimingArgs t = { .profile = NULL };
  LogArgs l = { "line one\nline, \"two\"\n", "two", 1 };
  g_autoptr (GError) error = NULL;
  ZwViewFormat format;

  p = g_file_test (path, G_FILE_TEST_EXISTS) ? zw_profile_load (path, NULL, NULL, NULL) : NULL;
  t.profile = p;
  zw_timing_state_init (&t.state);
  check_exports (draw_timing, &t, 900, 400, dir, "timing");
  check_exports (draw_log, &l, 400, 200, dir, "log");
  g_assert_false (zw_export_format_from_path ("x.bmp", &format, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (zw_export_draw_to_file (draw_log, &l, NULL, ZW_VIEW_FORMAT_PNG, 0, 10, "/nonexistent/x.png", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_rmdir (dir);
}

static void
test_csv_round_trip (void)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *csv = NULL;
  const char *r0[] = { "op_id", "name", "note", NULL };
  const char *r1[] = { "3", "conv, 3x3", "say \"hi\"", NULL };
  const char *r2[] = { "4", "", "two\nlines 中文", NULL };

  g_ptr_array_add (rows, g_strdupv ((char **) r0));
  g_ptr_array_add (rows, g_strdupv ((char **) r1));
  g_ptr_array_add (rows, g_strdupv ((char **) r2));
  csv = zw_export_csv_from_rows (rows);
  g_assert_true (g_str_has_prefix (csv, "op_id,name,note\r\n3,\"conv, 3x3\",\"say \"\"hi\"\"\"\r\n"));
  back = zw_export_csv_parse (csv, "t.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_true (g_strv_equal (g_ptr_array_index (back, i), g_ptr_array_index (rows, i)));
  g_assert_null (zw_export_csv_parse ("a,\"b\n", "bad.csv", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "bad.csv:1"));
}

/* ---- display ---- */



static gboolean
all_drawn (gpointer data)
{
  GtkWidget **views = data;
  for (guint i = 0; views[i] != NULL; i++)
    if (!gtk_widget_get_mapped (views[i]) || gtk_widget_get_width (views[i]) <= 0)
      return FALSE;
  return zw_timing_view_get_n_rebuilds (ZW_TIMING_VIEW (views[0])) > 0;
}

static gboolean
count_frame (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  (void) widget;
  (void) clock;
  ++*(guint *) data;
  return G_SOURCE_CONTINUE;
}

static gboolean
frames_seen (gpointer data)
{
  return ((guint *) data)[0] >= ((guint *) data)[1];
}

/* Waits (bounded) until @widget has seen @n frames. */
static void
wait_frames (GtkWidget *widget, guint n)
{
  guint state[2] = { 0, n };
  guint id = gtk_widget_add_tick_callback (widget, count_frame, state, NULL);
  gtk_widget_queue_resize (widget);
  zw_test_wait_until (frames_seen, state);
  gtk_widget_remove_tick_callback (widget, id);
}

static gboolean
adj_scrolled (gpointer data)
{
  return gtk_adjustment_get_value (data) > gtk_adjustment_get_lower (data);
}

static gboolean
adj_at_top (gpointer data)
{
  return gtk_adjustment_get_value (data) == gtk_adjustment_get_lower (data);
}

static GtkWidget *
find_scrolled (GtkWidget *w)
{
  if (GTK_IS_SCROLLED_WINDOW (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_scrolled (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_column_view (GtkWidget *w)
{
  if (GTK_IS_COLUMN_VIEW (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_column_view (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_display_widgets (void)
{
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwSelection) sel = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *root = NULL, *da = NULL, *db = NULL;
  GtkWidget *window, *grid, *views[6];
  Run r;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  net = zw_test_load_net ("tiny");
  root = g_dir_make_tmp ("run-views-display-XXXXXX", NULL);
  da = g_build_filename (root, "a", NULL);
  db = g_build_filename (root, "b", NULL);
  r = run_net (net, FALSE, da, "SQB");
  zw_deploy_report_attach_network (r.report, net);   /* as the workbench does: ops know their values */
  sel = zw_selection_new ();
  zw_selection_set_report (sel, r.report);

  window = gtk_window_new ();
  grid = gtk_grid_new ();
  views[0] = zw_timing_view_new (sel);
  views[1] = zw_compare_view_new (sel);
  views[2] = zw_tensor_view_new (sel);
  views[3] = zw_dump_diff_view_new (sel);
  views[4] = zw_log_view_new ();
  views[5] = NULL;
  for (guint i = 0; i < 5; i++)
    {
      gtk_widget_set_hexpand (views[i], TRUE);
      gtk_widget_set_vexpand (views[i], TRUE);
      gtk_grid_attach (GTK_GRID (grid), views[i], (int) i % 2, (int) i / 2, 1, 1);
    }
  gtk_window_set_child (GTK_WINDOW (window), grid);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);

  zw_timing_view_set_profile (ZW_TIMING_VIEW (views[0]), r.profile);
  zw_compare_view_set_profiles (ZW_COMPARE_VIEW (views[1]), r.profile, r.profile, NULL, "run 1", "run 2");
  zw_compare_view_set_reports (ZW_COMPARE_VIEW (views[1]), r.report, r.report);
  zw_log_view_set_text (ZW_LOG_VIEW (views[4]), "apply ok\nOCM picks: 3\nforward ocm done\nbye\n", "t.log");
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (zw_test_wait_until (all_drawn, views));

  /* timing: sorting by a header, zoom actions, row selection into the shared selection */
  {
    ZwTimingView *tv = ZW_TIMING_VIEW (views[0]);
    g_autofree guint *order = NULL;
    guint n, rebuilds;
    const ZwProfile *p = zw_timing_view_get_profile (tv);
    double w0;

    g_assert_true (zw_timing_view_sort_by (tv, 3 /* total */, TRUE));
    order = zw_timing_view_get_table_order (tv, &n);
    g_assert_cmpuint (n, ==, p->rows->len);
    for (guint i = 1; i < n; i++)
      g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (p->rows, order[i - 1]))->total_ms, >=,
                         ((ZwProfileRow *) g_ptr_array_index (p->rows, order[i]))->total_ms);
    g_clear_pointer (&order, g_free);
    g_assert_true (zw_timing_view_sort_by (tv, 0 /* op_id */, FALSE));
    order = zw_timing_view_get_table_order (tv, &n);
    for (guint i = 1; i < n; i++)
      g_assert_cmpint (((ZwProfileRow *) g_ptr_array_index (p->rows, order[i - 1]))->op_id, <=,
                       ((ZwProfileRow *) g_ptr_array_index (p->rows, order[i]))->op_id);

    w0 = zw_timing_view_get_state (tv)->t1 - zw_timing_view_get_state (tv)->t0;
    g_assert_true (gtk_widget_activate_action (views[0], "timing.zoom-in", NULL));
    g_assert_cmpfloat (zw_timing_view_get_state (tv)->t1 - zw_timing_view_get_state (tv)->t0, <, w0 * 0.9);
    g_assert_true (gtk_widget_activate_action (views[0], "timing.pan-right", NULL));
    g_assert_cmpfloat (zw_timing_view_get_state (tv)->t0, >, 0);
    g_assert_true (gtk_widget_activate_action (views[0], "timing.zoom-fit", NULL));
    g_assert_cmpfloat (zw_timing_view_get_state (tv)->t0, ==, 0);
    g_assert_cmpfloat_with_epsilon (zw_timing_view_get_state (tv)->t1 - zw_timing_view_get_state (tv)->t0, w0, 1e-9);

    for (guint i = 0; i < p->rows->len; i++)
      if (zw_timing_row_lane (g_ptr_array_index (p->rows, i)) == ZW_TIMING_LANE_NPU)
        {
          zw_timing_view_select_row (tv, (gint) i);
          g_assert_cmpint (zw_selection_get_selected_op (sel), ==,
                           ((ZwProfileRow *) g_ptr_array_index (p->rows, i))->op_id);
          break;
        }

    /* the selected op's values are one click away: a button each, a click selects it */
    {
      const ZwOpInfo *op = zw_deploy_report_find_op (r.report, zw_selection_get_selected_op (sel));
      GtkWidget *bar = zw_timing_view_get_values_bar (tv), *button = NULL;
      guint n_buttons = 0;
      gint64 v_id;
      g_assert_nonnull (op);
      g_assert_nonnull (op->outputs);
      for (GtkWidget *c = gtk_widget_get_first_child (bar); c != NULL; c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_BUTTON (c))
          {
            n_buttons++;
            button = c;   /* the last: an output */
          }
      g_assert_cmpuint (n_buttons, ==, op->inputs->len + op->outputs->len);
      v_id = g_array_index (op->outputs, gint64, op->outputs->len - 1);
      g_assert_nonnull (strstr (gtk_button_get_label (GTK_BUTTON (button)), "out"));
      g_signal_emit_by_name (button, "clicked");
      g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v_id);
      g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));
    }

    /* the Name column shows layer names, never the vendor's "icraft::" class path */
    {
      g_autoptr (GPtrArray) table = zw_timing_view_table (tv);
      for (guint i = 1; i < table->len; i++)
        g_assert_null (strstr (((char **) g_ptr_array_index (table, i))[2], "icraft::"));
    }

    /* after a sort the list shows its top */
    {
      GtkWidget *cv = find_column_view (views[0]);
      GtkAdjustment *adj = NULL;
      g_assert_nonnull (cv);
      adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (cv));
      /* scrolled down a little first, as a user would (once the list has laid out its rows) */
      wait_frames (cv, 3);
      g_assert_cmpfloat (gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj), >, 1);
      gtk_adjustment_set_value (adj, MIN (40.0, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj)));
      g_assert_true (zw_test_wait_until (adj_scrolled, adj));
      g_assert_true (zw_timing_view_sort_by (tv, 3 /* total */, FALSE));
      g_assert_true (zw_test_wait_until (adj_at_top, adj));
      /* the whole header cell sorts: a click at the right end of the Total cell, far from
       * its label, sorts by total — the first click largest first, as profilers do (issue
       * 37) — and again flips the order */
      g_assert_true (zw_timing_view_sort_by (tv, 0 /* op_id */, FALSE));
      {
        GtkWidget *header = gtk_widget_get_first_child (cv), *title = gtk_widget_get_first_child (header);
        graphene_rect_t b;
        g_autofree guint *o1 = NULL, *o2 = NULL;
        for (int k = 0; k < 3; k++)
          title = gtk_widget_get_next_sibling (title);   /* column 3: Total */
        g_assert_true (gtk_widget_compute_bounds (title, header, &b));
        g_assert_cmpint (zw_timing_view_click_header (tv, b.origin.x + b.size.width - 2), ==, 3);
        o1 = zw_timing_view_get_table_order (tv, &n);
        for (guint i = 1; i < n; i++)
          g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (p->rows, o1[i - 1]))->total_ms, >=,
                             ((ZwProfileRow *) g_ptr_array_index (p->rows, o1[i]))->total_ms);
        g_assert_cmpint (zw_timing_view_click_header (tv, b.origin.x + 2), ==, 3);
        o2 = zw_timing_view_get_table_order (tv, &n);
        for (guint i = 1; i < n; i++)
          g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (p->rows, o2[i - 1]))->total_ms, <=,
                             ((ZwProfileRow *) g_ptr_array_index (p->rows, o2[i]))->total_ms);
      }
      g_assert_true (zw_timing_view_sort_by (tv, 0 /* op_id, as the export check below expects */, FALSE));
    }

    /* the cached node is reused when nothing but the hover changes */
    zw_test_wait_until (all_drawn, views);
    for (int i = 0; i < 20; i++)
      g_main_context_iteration (NULL, FALSE);
    rebuilds = zw_timing_view_get_n_rebuilds (tv);
    gtk_widget_queue_draw (views[0]);
    for (int i = 0; i < 20; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (zw_timing_view_get_n_rebuilds (tv), <=, rebuilds + 1);

    /* the table to CSV and back */
    {
      g_autofree char *csv = g_build_filename (root, "timing.csv", NULL);
      g_autofree char *text = NULL;
      g_autoptr (GPtrArray) rows = NULL;
      g_assert_true (zw_export_view_csv (views[0], csv, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
      rows = zw_export_csv_parse (text, csv, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, p->rows->len + 1);
      g_assert_cmpuint (g_strv_length (g_ptr_array_index (rows, 1)), ==, 12);
      g_assert_cmpuint (g_strv_length (g_ptr_array_index (rows, 0)), ==, 12);
      {
        g_autofree char *first = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                  ((ZwProfileRow *) g_ptr_array_index (p->rows, order[0]))->op_id);
        g_assert_cmpstr (((char **) g_ptr_array_index (rows, 1))[0], ==, first);
      }
      g_unlink (csv);
    }
  }

  /* tensor inspector: a folder with one truncated file */
  {
    ZwTensorView *tv = ZW_TENSOR_VIEW (views[2]);
    g_autoptr (ZwDumpManifest) m = NULL;
    g_autofree char *mpath = g_build_filename (da, "manifest.json", NULL);
    const ZwDumpManifestEntry *bad = NULL, *good = NULL;
    g_autofree char *hover = NULL;
    gint64 coords[4] = { 0, 0, 0, 0 };

    copy_dir (da, db);
    m = zw_dump_manifest_load (mpath, NULL, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < m->entries->len; i++)
      {
        const ZwDumpManifestEntry *e = g_ptr_array_index (m->entries, i);
        if (e->type.rank >= 4 && bad == NULL)
          bad = e;
        else if (e->type.rank >= 4 && e->type.quantized && good == NULL)
          good = e;
      }
    g_assert_nonnull (bad);
    g_assert_nonnull (good);
    {
      g_autofree char *f = g_build_filename (db, bad->file, NULL);
      g_assert_true (g_file_set_contents (f, "xyz", 3, NULL));
    }
    g_assert_true (zw_tensor_view_load_folder (tv, db, net, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (zw_tensor_view_get_messages (tv)->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (zw_tensor_view_get_messages (tv), 0), bad->file));
    g_assert_cmpuint (zw_tensor_view_get_n_values (tv), ==, m->entries->len - 1);
    g_assert_true (zw_tensor_view_select_value (tv, good->type.v_id));
    g_assert_nonnull (zw_tensor_view_get_stats (tv));
    g_assert_cmpint (zw_selection_get_selected_value (sel), ==, good->type.v_id);
    zw_tensor_view_set_quantized (tv, TRUE);
    g_assert_true (zw_tensor_view_set_hover (tv, coords, &hover));
    g_assert_nonnull (strstr (hover, "(n 0, c 0, h 0, w 0)"));
    g_assert_false (zw_tensor_view_select_value (tv, bad->type.v_id));
    /* a value selected elsewhere is selected here */
    zw_selection_set_selected_value (sel, good->type.v_id);
    g_assert_cmpint (zw_tensor_view_get_selected_value (tv), ==, good->type.v_id);
  }

  /* dump diff: a against the damaged copy */
  {
    ZwDumpDiffView *dv = ZW_DUMP_DIFF_VIEW (views[3]);
    g_assert_true (zw_dump_diff_view_load (dv, da, db, net, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (zw_dump_diff_view_get_diff (dv)->warnings->len, >=, 1);
    /* the selected row opens its heatmaps, the two folders named */
    {
      const ZwDumpDiff *d = zw_dump_diff_view_get_diff (dv);
      ZwDumpDiffHeatmaps hm;
      zw_dump_diff_view_get_heatmaps (dv, &hm);
      g_assert_cmpstr (hm.name_a, ==, da);
      g_assert_cmpstr (hm.name_b, ==, db);
      for (guint i = 0; i < d->entries->len; i++)
        {
          const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
          if (e->status != ZW_DUMP_DIFF_COMPARED)
            continue;
          zw_dump_diff_view_select_value (dv, e->v_id);
          zw_dump_diff_view_get_heatmaps (dv, &hm);
          g_assert_true (hm.entry == e);
          g_assert_nonnull (hm.a);
          g_assert_nonnull (hm.b);
          g_assert_cmpint (hm.a->v_id, ==, e->v_id);
          break;
        }
    }
    /* a value selected in another view scrolls its row into sight */
    {
      const ZwDumpDiff *d = zw_dump_diff_view_get_diff (dv);
      const ZwDumpDiffEntry *last = NULL;
      GtkWidget *area_sw = NULL;
      GtkAdjustment *adj;
      double y0, y1;
      for (guint i = 0; i < d->entries->len; i++)
        {
          const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
          if (zw_deploy_report_find_value (r.report, e->v_id) != NULL)
            last = e;
        }
      g_assert_nonnull (last);
      area_sw = find_scrolled (GTK_WIDGET (dv));
      g_assert_nonnull (area_sw);
      adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (area_sw));
      wait_frames (area_sw, 3);
      gtk_adjustment_set_value (adj, gtk_adjustment_get_lower (adj));
      zw_selection_set_selected_value (sel, last->v_id);
      g_assert_cmpint (zw_dump_diff_view_get_selected_value (dv), ==, last->v_id);
      g_assert_true (zw_dump_diff_view_row_extent (d, last->v_id, &y0, &y1));
      g_test_message ("dump diff: row %g..%g, view %g..%g", y0, y1, gtk_adjustment_get_value (adj),
                      gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj));
      g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >=, y1);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), <=, y0);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj), >=, y1);
    }
  }

  /* compare, a row table: a row selected gives the shared selection its op; the selection's
   * op selects its row; an op it does not show, or a row out of range, selects none */
  {
    ZwCompareView *cv = ZW_COMPARE_VIEW (views[1]);
    const ZwProfileCompare *cmp = zw_compare_view_get_compare (cv);
    const ZwCompareRow *first, *third;

    g_assert_nonnull (cmp);
    g_assert_cmpuint (cmp->rows->len, >=, 3);
    first = g_ptr_array_index (cmp->rows, 0);
    third = g_ptr_array_index (cmp->rows, 2);
    zw_compare_view_select_row (cv, 2);
    g_assert_cmpint (zw_row_table_get_selected_row (ZW_ROW_TABLE (cv)), ==, 2);
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, third->op_id);
    zw_selection_set_selected_op (sel, first->op_id);
    g_assert_cmpint (zw_row_table_get_selected_row (ZW_ROW_TABLE (cv)), ==, 0);
    g_assert_cmpint (zw_row_table_find_row (ZW_ROW_TABLE (cv), third->op_id), ==, 2);
    g_assert_cmpint (zw_row_table_find_row (ZW_ROW_TABLE (cv), G_MAXINT64), ==, -1);
    zw_compare_view_select_row (cv, (gint) cmp->rows->len);
    g_assert_cmpint (zw_row_table_get_selected_row (ZW_ROW_TABLE (cv)), ==, -1);
    /* the selection did not move: a row cleared here is not sent */
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, first->op_id);
  }

  /* log: search, next and previous wrap */
  {
    ZwLogView *lv = ZW_LOG_VIEW (views[4]);
    g_assert_cmpuint (zw_log_view_search (lv, "ocm"), ==, 2);
    g_assert_cmpint (zw_log_view_get_current_line (lv), ==, 1);
    g_assert_cmpint (zw_log_view_next_match (lv), ==, 1);
    g_assert_cmpint (zw_log_view_get_current_line (lv), ==, 2);
    g_assert_cmpint (zw_log_view_next_match (lv), ==, 0);
    g_assert_cmpint (zw_log_view_previous_match (lv), ==, 1);
    g_assert_cmpuint (zw_log_view_search (lv, "nothing here"), ==, 0);
    g_assert_cmpint (zw_log_view_next_match (lv), ==, -1);
    zw_log_view_search (lv, "ocm");
  }

  /* every view exports through its widget */
  for (guint i = 0; i < 5; i++)
    {
      static const char *ext[] = { "png", "svg", "pdf" };
      for (guint f = 0; f < 3; f++)
        {
          g_autofree char *path = g_strdup_printf ("%s/view%u.%s", root, i, ext[f]);
          g_autofree char *contents = NULL;
          gsize len;
          g_assert_true (zw_export_view (views[i], 800, 600, path, &error));
          g_assert_no_error (error);
          g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
          g_assert_cmpuint (len, >, 400);
          if (f == 0)
            {
              cairo_surface_t *s = cairo_image_surface_create_from_png (path);
              g_assert_cmpint (cairo_image_surface_get_width (s), ==, 800);
              if (g_getenv ("ZW_RUN_VIEWS_KEEP") != NULL)
                {
                  g_autofree char *name = g_strdup_printf ("widget%u.png", i);
                  keep_png (s, name);
                }
              cairo_surface_destroy (s);
            }
          g_unlink (path);
        }
    }
  {
    g_autofree char *path = g_build_filename (root, "bad.png", NULL);
    g_assert_false (zw_export_view (grid, 10, 10, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (zw_export_view_csv (views[4], path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  remove_dir (root);
  run_clear (&r);
}

int
main (int argc, char **argv)
{
  gboolean render_suite, display;

  zw_test_suites_from_args (&argc, &argv, &render_suite, &display);
  g_test_init (&argc, &argv, NULL);
  have_display = display && gtk_init_check ();

  if (render_suite)
    {
      g_test_add_func ("/run-views/render/timing/demo-run-bars-per-launch", test_timing_demo_run);
      g_test_add_func ("/run-views/render/timing/merged-launches-as-bands", test_timing_merged_band);
      g_test_add_func ("/run-views/render/timing/vendor-time-file", test_timing_vendor_file);
      g_test_add_func ("/run-views/render/timing/impossible-rows-flagged-order-inferred", test_timing_flags_impossible_rows);
      g_test_add_func ("/run-views/render/timing/layer-class-range-total-merged-lane", test_timing_profiler);
      g_test_add_func ("/run-views/render/tensor/ocm-value-heatmap-and-stats", test_tensor_ocm_value);
      g_test_add_func ("/run-views/render/dump-diff/planted-byte-found-and-highlighted", test_dump_diff_planted_byte);
      g_test_add_func ("/run-views/render/compare/regression-highlighted", test_compare_regression);
      g_test_add_func ("/run-views/render/log/matches-highlighted", test_log_render_highlights);
      g_test_add_func ("/run-views/render/export/png-svg-pdf-parse-back", test_exports);
      g_test_add_func ("/run-views/render/export/csv-round-trip", test_csv_round_trip);
    }
  if (display)
    g_test_add_func ("/run-views/display/widgets-realise-and-interact", test_display_widgets);
  return g_test_run ();
}
