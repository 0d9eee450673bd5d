/* test-compile-compare-view.c — the Compiles view (two compiles of one model side by side)
 * rendered offscreen to PNG and read back for its pixels (suite render, no display), the run
 * controller comparing two compiles in the background (suite render: no display needed), and
 * the widget realised in a window (suite display, under Xvfb).
 *
 * Two compiles: the YOLOv5s-like demo deployed for the ZG330 twice (A: merge on, ETM
 * optimize, OCM BEST_SCORE; B: merge off, no ETM optimize, no OCM), B's first hardop turned
 * into a host op as a Buyi compile does its input ops in ImageMake; and the real ZG330/Buyi
 * pair when ../shared is there. ZW_RUN_VIEWS_KEEP=<dir> keeps the PNGs there for a look. */
/* the test utility names xrt-run's result ZwRun, as the app names its runs: renamed here */
#define ZwRun ZwCliRun
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#undef ZwRun
#include "report/zw-compare.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "zw-compile-compare-view.h"
#include "zw-export.h"
#include "zw-run-controller.h"
#include "zw-selection.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static gboolean have_display;

typedef struct {
  ZwDeployReport *report;
  ZwProfile *profile;
} Compile;

static void
compile_clear (Compile *c)
{
  g_clear_pointer (&c->report, zw_deploy_report_unref);
  g_clear_pointer (&c->profile, zw_profile_free);
}

/* @net deployed on its own board (@merge, @etm, @ocm where the runtime plans) and forwarded
 * once with a time profile. */
static Compile
deploy (XirNetwork *net, gboolean merge, gboolean etm, ZwOcmOpt ocm)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  XrtBackend *board;
  Compile c = { NULL, NULL };

  g_assert_no_error (error);
  dev = xrt_device_open (xrt_backend_default_device_for_view (view), &error);
  g_assert_no_error (error);
  s = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  board = xrt_session_get_board_backend (s);
  if (ZG330_IS_BACKEND (board) && !ZG330_BACKEND_GET_CLASS (board)->compiler_placed)
    g_assert_true (zg330_backend_set_options (ZG330_BACKEND (board), merge, etm, ocm, &error));
  g_assert_true (xrt_session_apply (s, &error));
  c.report = xrt_backend_get_report (board);
  inputs = zw_test_seeded_inputs (net, 7);
  xrt_session_enable_time_profile (s, TRUE);
  outs = xrt_session_forward (s, inputs, &error);
  if (outs != NULL)
    c.profile = zw_profile_copy (xrt_session_get_time_profile (s));
  return c;
}

/* The demo pair (see the top); the caller owns the comparison. */
static ZwCompileCompare *
demo_pair (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  Compile a = deploy (net, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  Compile b = deploy (net, FALSE, FALSE, ZW_OCM_NONE);
  ZwCompileCompare *cmp;

  g_assert_nonnull (a.profile);
  g_assert_nonnull (b.profile);
  for (guint i = 0; i < b.report->ops->len; i++)
    {
      ZwOpInfo *o = &g_array_index (b.report->ops, ZwOpInfo, i);
      if (g_strcmp0 (o->kind, "HardOp") == 0)
        {
          g_free (o->kind);
          o->kind = g_strdup ("customop::ImageMake");
          break;
        }
    }
  cmp = zw_compare_compiles (a.report, a.profile, b.report, b.profile);
  compile_clear (&a);
  compile_clear (&b);
  return cmp;
}

/* ---- pixels ---- */

typedef struct {
  const ZwCompileCompare *cmp;
  gint selected;
} DrawArgs;

static void
draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  DrawArgs *a = data;
  zw_compile_compare_view_draw (cr, width, height, a->cmp, a->selected, colors);
}

/* Renders to a PNG file through the export path and reads it back. */
static cairo_surface_t *
render_png (const ZwCompileCompare *cmp, gint selected, int width, const ZwViewStyle *style, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("compile-view-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  DrawArgs args = { cmp, selected };
  int height = zw_compile_compare_view_content_height (cmp);
  cairo_surface_t *s;
  const char *keep = g_getenv ("ZW_RUN_VIEWS_KEEP");

  g_assert_true (zw_export_draw_to_file (draw, &args, style, ZW_VIEW_FORMAT_PNG, width, height, path, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  if (keep != NULL)
    {
      g_autofree char *kept = g_build_filename (keep, name, NULL);
      cairo_surface_write_to_png (s, kept);
    }
  g_unlink (path);
  g_rmdir (dir);
  return s;
}

/* Headline bars: lengths in the ratio of the figures, in A's and B's colours; the labels'
 * swatches; the side an op is missing from shaded; the selected row outlined. */
static void
check_render (const ZwCompileCompare *cmp, const ZwViewStyle *style, const char *name)
{
  const int W = 1200;
  guint32 bg = zw_test_argb (&style->background);
  const GdkRGBA *ca = &style->segment[ZW_SEGMENT_WEIGHT], *cb = &style->segment[ZW_SEGMENT_FTMP];
  gint one_sided = -1, both = -1;
  cairo_surface_t *s;
  double ax0, ax1, bx0, bx1, y0, y1;

  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, i);
      if (r->side == ZW_COMPARE_ONLY_A && one_sided < 0 && i % 2 == 0)
        one_sided = (gint) i;
      if (r->side == ZW_COMPARE_BOTH && both < 0 && i % 2 == 0)
        both = (gint) i;
    }
  g_assert_cmpint (one_sided, >=, 0);
  g_assert_cmpint (both, >=, 0);
  s = render_png (cmp, both, W, style, name);

  /* which compile is which: the swatches before "A" and "B" */
  g_assert_true (zw_test_near (zw_test_pixel (s, 8 + 5, 8 + 9), zw_test_argb (ca), 2));
  g_assert_true (zw_test_near (zw_test_pixel (s, 8 + 5, 8 + 18 + 9), zw_test_argb (cb), 2));

  /* headline bars */
  {
    static const ZwCompileTotalKind kinds[] = { ZW_COMPILE_TOTAL_ETM_ALL, ZW_COMPILE_TOTAL_OCM_PEAK,
                                                ZW_COMPILE_TOTAL_LAUNCHES, ZW_COMPILE_TOTAL_TIME };
    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        const ZwCompileTotal *t = &cmp->totals[kinds[k]];
        double ay0, ay1, by0, by1;
        g_assert_true (zw_compile_compare_view_bar_extent (cmp, W, kinds[k], FALSE, &ax0, &ay0, &ax1, &ay1));
        g_assert_true (zw_compile_compare_view_bar_extent (cmp, W, kinds[k], TRUE, &bx0, &by0, &bx1, &by1));
        /* the longer bar is the larger figure's, the lengths in the figures' ratio */
        if (t->a > 0 && t->b > 0)
          g_assert_cmpfloat_with_epsilon ((bx1 - bx0) / (ax1 - ax0), t->b / t->a, 1e-9);
        if (ax1 - ax0 >= 2)
          g_assert_true (zw_test_near (zw_test_pixel (s, (ax0 + ax1) / 2, (ay0 + ay1) / 2), zw_test_argb (ca), 2));
        if (bx1 - bx0 >= 2)
          g_assert_true (zw_test_near (zw_test_pixel (s, (bx0 + bx1) / 2, (by0 + by1) / 2), zw_test_argb (cb), 2));
        /* past the shorter bar's end, its row is empty */
        if (bx1 > ax1 + 4)
          g_assert_true (zw_test_near (zw_test_pixel (s, ax1 + 2, (ay0 + ay1) / 2), bg, 2));
        if (ax1 > bx1 + 4)
          g_assert_true (zw_test_near (zw_test_pixel (s, bx1 + 2, (by0 + by1) / 2), bg, 2));
      }
    /* a forward with every hardop merged into few launches: A's launches bar is shorter */
    g_assert_cmpfloat (cmp->totals[ZW_COMPILE_TOTAL_LAUNCHES].a, <, cmp->totals[ZW_COMPILE_TOTAL_LAUNCHES].b);
    g_assert_true (zw_compile_compare_view_bar_extent (cmp, W, ZW_COMPILE_TOTAL_LAUNCHES, FALSE, &ax0, NULL, &ax1, NULL));
    g_assert_true (zw_compile_compare_view_bar_extent (cmp, W, ZW_COMPILE_TOTAL_LAUNCHES, TRUE, &bx0, NULL, &bx1, NULL));
    g_assert_cmpfloat (ax1, <, bx1);
    g_assert_false (zw_compile_compare_view_bar_extent (cmp, W, ZW_COMPILE_TOTAL_ETM_FTMP, FALSE, NULL, NULL, NULL, NULL));
  }

  /* a row whose op is only in A: B's cells shaded; an aligned row's are not */
  zw_compile_compare_view_side_columns (TRUE, &bx0, &bx1);
  g_assert_true (zw_compile_compare_view_row_extent (cmp, (guint) one_sided, &y0, &y1));
  g_assert_cmpint (zw_compile_compare_view_row_at (cmp, (y0 + y1) / 2), ==, one_sided);
  g_assert_true (zw_test_near (zw_test_pixel (s, bx0 + 2, (y0 + y1) / 2), zw_test_blend (&style->grid, 0.75, bg), 3));
  g_assert_true (zw_compile_compare_view_row_extent (cmp, (guint) both, &y0, &y1));
  g_assert_false (zw_test_near (zw_test_pixel (s, bx0 + 2, (y0 + y1) / 2), zw_test_blend (&style->grid, 0.75, bg), 3));
  g_assert_true (zw_test_near (zw_test_pixel (s, bx0 + 2, (y0 + y1) / 2), bg, 2));
  /* the selected row (the aligned one) is outlined in the accent colour */
  g_assert_true (zw_test_near (zw_test_pixel (s, 9, (y0 + y1) / 2), zw_test_argb (&style->accent), 3));
  cairo_surface_destroy (s);
}

static void
test_render_demo_pair (void)
{
  g_autoptr (ZwCompileCompare) cmp = demo_pair ();
  ZwViewStyle light, dark;

  /* the model first: B's first hardop is a host op now, the rest aligns */
  g_assert_cmpuint (cmp->n_only_a, ==, 1);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_aligned, ==, cmp->n_hardops_a - 1);
  g_assert_cmpint (((ZwCompileOpRow *) g_ptr_array_index (cmp->rows, 0))->side, ==, ZW_COMPARE_ONLY_A);
  g_assert_cmpfloat (cmp->totals[ZW_COMPILE_TOTAL_ETM_FTMP].ratio, >, 1.0);   /* no ETM optimize in B */
  zw_view_style_init_default (&light);
  zw_view_style_init_dark (&dark);
  check_render (cmp, &light, "compiles-demo.png");
  check_render (cmp, &dark, "compiles-demo-dark.png");
}

static void
test_render_real_pair (void)
{
  g_autofree char *zg_path = zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
  g_autofree char *by_path = zg_path != NULL ? zw_test_shared_file ("real/yolov5s_plin_BY.json") : NULL;
  g_autoptr (XirNetwork) zg = NULL, by = NULL;
  g_autoptr (ZwCompileCompare) cmp = NULL;
  g_autoptr (GError) error = NULL;
  Compile a, b;
  ZwViewStyle style;

  if (by_path == NULL)
    return;
  zg = xir_network_new_from_json_file (zg_path, &error);
  g_assert_no_error (error);
  by = xir_network_new_from_json_file (by_path, &error);
  g_assert_no_error (error);
  xir_network_fake_params (zg, 330);
  xir_network_fake_params (by, 330);
  a = deploy (zg, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  b = deploy (by, FALSE, FALSE, ZW_OCM_NONE);
  cmp = zw_compare_compiles (a.report, a.profile, b.report, b.profile);
  g_assert_cmpstr (cmp->b.chip, ==, "Buyi");
  g_assert_cmpuint (cmp->n_aligned, >=, 80);
  zw_view_style_init_default (&style);
  if (a.profile == NULL || b.profile == NULL)
    g_test_message ("a forward failed: the time bars are not drawn");
  check_render (cmp, &style, "compiles-real.png");
  compile_clear (&a);
  compile_clear (&b);
}


/* Merge on (A) against merge off (B): each merged launch of A is compared with the sum of B's
 * times over its ops (grouped here by launch id, independently of the view's scan); the
 * pair is said not to be like for like (a warning-coloured line under the sides), a compile
 * against itself is (nothing drawn there). */
static gboolean
band_has_color (cairo_surface_t *s, int y0, int y1, const GdkRGBA *c)
{
  int stride = cairo_image_surface_get_stride (s), w = cairo_image_surface_get_width (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  guint8 r = (guint8) (c->red * 255 + 0.5), g = (guint8) (c->green * 255 + 0.5), b = (guint8) (c->blue * 255 + 0.5);

  cairo_surface_flush (s);
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
        if (abs ((int) ((px >> 16) & 0xff) - r) <= 24 && abs ((int) ((px >> 8) & 0xff) - g) <= 24
            && abs ((int) (px & 0xff) - b) <= 24)
          return TRUE;
      }
  return FALSE;
}

static void
test_render_merge_per_launch_and_like_for_like (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  Compile a = deploy (net, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  Compile b = deploy (net, FALSE, TRUE, ZW_OCM_BEST_SCORE);
  g_autoptr (ZwCompileCompare) cmp = zw_compare_compiles (a.report, a.profile, b.report, b.profile);
  g_autoptr (ZwCompileCompare) same = zw_compare_compiles (a.report, a.profile, a.report, a.profile);
  g_autoptr (GHashTable) sums = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autofree char *note = zw_compile_compare_view_mismatch_text (cmp);
  g_autofree char *no_note = zw_compile_compare_view_mismatch_text (same);
  cairo_surface_t *s_cmp, *s_same;
  ZwViewStyle style;
  guint n_launches = 0, n_merged_rows = 0;
  double x0, y0, x1, y1;

  g_assert_nonnull (a.profile);
  g_assert_nonnull (b.profile);
  /* B's own times summed per A launch */
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, i);
      double *sum;
      if (!r->a.present || !r->a.merged || !r->b.present || r->b.merged || isnan (r->b.ms))
        continue;
      n_merged_rows++;
      sum = g_hash_table_lookup (sums, &r->a.launch_op_id);
      if (sum == NULL)
        {
          sum = g_new0 (double, 1);
          g_hash_table_insert (sums, g_memdup2 (&r->a.launch_op_id, sizeof (gint64)), sum);
        }
      *sum += r->b.ms;
    }
  g_assert_cmpuint (n_merged_rows, >, 1);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, i);
      double ms = 0;
      guint n = 0;
      gboolean first = r->a.present && r->a.merged && r->a.launch_first;
      const double *want = first ? g_hash_table_lookup (sums, &r->a.launch_op_id) : NULL;

      g_assert_cmpint (zw_compile_compare_view_launch_other_ms (cmp, i, FALSE, &ms, &n), ==, want != NULL);
      if (want != NULL)
        {
          g_assert_cmpfloat_with_epsilon (ms, *want, 1e-9);
          g_assert_cmpuint (n, >=, 1);
          n_launches++;
        }
      /* B is not merged: it has no launch to sum A over */
      g_assert_false (zw_compile_compare_view_launch_other_ms (cmp, i, TRUE, NULL, NULL));
    }
  g_assert_cmpuint (n_launches, >=, 1);

  /* merge on vs off is not like for like; a compile against itself is */
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "merge"));
  g_assert_null (no_note);
  zw_view_style_init_default (&style);
  s_cmp = render_png (cmp, -1, 1100, &style, "compiles-merge-vs-off.png");
  s_same = render_png (same, -1, 1100, &style, "compiles-same.png");
  /* the note's line: under the two sides, above the stale marker's line */
  g_assert_true (zw_compile_compare_view_refresh_extent (1100, &x0, &y0, &x1, &y1));
  g_assert_true (band_has_color (s_cmp, (int) (y0 - 18 + 2), (int) y0 - 2, &style.warning));
  g_assert_false (band_has_color (s_same, (int) (y0 - 18 + 2), (int) y0 - 2, &style.warning));
  cairo_surface_destroy (s_cmp);
  cairo_surface_destroy (s_same);
  compile_clear (&a);
  compile_clear (&b);
}

static void
test_render_empty (void)
{
  ZwViewStyle style;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 200);
  cairo_t *cr = cairo_create (s);
  guint n_fg = 0;

  zw_view_style_init_default (&style);
  zw_compile_compare_view_draw (cr, 600, 200, NULL, -1, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  /* the empty-state text is drawn (not just a background) */
  for (int y = 0; y < 200; y++)
    for (int x = 0; x < 600; x++)
      n_fg += !zw_test_near (zw_test_pixel (s, x, y), zw_test_argb (&style.background), 8);
  g_assert_cmpuint (n_fg, >, 50);
  g_assert_cmpint (zw_compile_compare_view_row_at (NULL, 500), ==, -1);
  cairo_surface_destroy (s);
}

/* ---- the run controller: a comparison in the background ---- */

typedef struct {
  gboolean compared, failed;
  ZwRunController *controller;
} Wait;

static void
on_compared (ZwRunController *controller, Wait *w)
{
  (void) controller;
  w->compared = TRUE;
}

static void
on_failed (ZwRunController *controller, GError *error, const char *path, gboolean params_missing, Wait *w)
{
  (void) controller;
  (void) params_missing;
  g_test_message ("failed: %s: %s", path, error->message);
  w->failed = TRUE;
}

static gboolean
compared_or_failed (gpointer data)
{
  Wait *w = data;
  return (w->compared || w->failed) && !zw_run_controller_get_busy (w->controller);
}

static gboolean
idle (gpointer data)
{
  return !zw_run_controller_get_busy (data);
}

static void
test_controller_compares_in_background (void)
{
  g_autofree char *demo = g_strdup_printf ("%s/networks/yolov5s_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autoptr (ZwRunController) controller = zw_run_controller_new ();
  g_autoptr (ZwCompileCompare) cmp = NULL;
  g_autofree char *warning = NULL;
  Wait w = { FALSE, FALSE, controller };

  g_signal_connect (controller, "compiles-compared", G_CALLBACK (on_compared), &w);
  g_signal_connect (controller, "failed", G_CALLBACK (on_failed), &w);
  /* without a network open there is no compile A */
  zw_run_controller_compare_compile (controller, demo, TRUE);
  g_assert_true (zw_run_controller_get_busy (controller));
  g_assert_true (zw_test_wait_until (compared_or_failed, &w));
  g_assert_true (w.failed);
  g_assert_false (w.compared);

  /* the comparison is queued behind the open (the network it compares) */
  w.failed = FALSE;
  zw_run_controller_open (controller, demo, FALSE, 1);
  zw_run_controller_compare_compile (controller, demo, TRUE);
  g_assert_true (zw_test_wait_until (compared_or_failed, &w));
  g_assert_false (w.failed);
  g_assert_true (w.compared);
  cmp = zw_run_controller_take_compile_compare (controller, &warning);
  g_assert_nonnull (cmp);
  g_assert_null (warning);
  g_assert_null (zw_run_controller_take_compile_compare (controller, NULL));
  /* the same compile twice: every hardop aligns, the same figures on both sides */
  g_assert_cmpuint (cmp->n_only_a + cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_aligned, ==, cmp->n_hardops_a);
  g_assert_true (cmp->a.has_profile && cmp->b.has_profile);
  for (guint k = 0; k < ZW_COMPILE_N_TOTALS; k++)
    g_assert_cmpfloat (cmp->totals[k].ratio, ==, 1.0);

  /* cancel drops a queued comparison */
  w.compared = FALSE;
  zw_run_controller_compare_compile (controller, demo, TRUE);
  zw_run_controller_cancel (controller);
  g_assert_true (zw_test_wait_until (idle, controller));
  g_assert_false (w.compared);
  g_clear_pointer (&cmp, zw_compile_compare_free);
  cmp = zw_run_controller_take_compile_compare (controller, NULL);
  g_assert_null (cmp);
}

/* ---- the widget (display) ---- */

static gboolean
drawn (gpointer data)
{
  GtkWidget *w = data;
  return gtk_widget_get_mapped (w) && gtk_widget_get_width (w) > 0;
}

static void
count_activation (guint *count)
{
  (*count)++;
}

static void
test_display_widget (void)
{
  g_autoptr (ZwSelection) sel = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (GPtrArray) table = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *png = NULL, *csv = NULL;
  ZwCompileCompareView *view;
  const ZwCompileOpRow *row;
  GtkWidget *window;
  Compile a, b;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  net = zw_test_load_net ("yolov5s");
  a = deploy (net, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  b = deploy (net, FALSE, TRUE, ZW_OCM_NONE);
  sel = zw_selection_new ();
  zw_selection_set_report (sel, a.report);
  window = gtk_window_new ();
  view = ZW_COMPILE_COMPARE_VIEW (zw_compile_compare_view_new (sel));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  g_assert_null (zw_compile_compare_view_get_compare (view));
  zw_compile_compare_view_set_compiles (view, a.report, a.profile, b.report, b.profile);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (zw_test_wait_until (drawn, view));
  g_assert_nonnull (zw_compile_compare_view_get_compare (view));

  /* a row selected in the view selects its op everywhere, and back */
  zw_compile_compare_view_select_row (view, 3);
  row = g_ptr_array_index (zw_compile_compare_view_get_compare (view)->rows, 3);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, row->a.op_id);
  row = g_ptr_array_index (zw_compile_compare_view_get_compare (view)->rows, 5);
  zw_selection_set_selected_op (sel, row->a.op_id);
  g_assert_cmpint (zw_compile_compare_view_get_selected_row (view), ==, 5);

  /* exports: the table as CSV (a row per op), the view as PNG */
  table = zw_export_view_table (GTK_WIDGET (view));
  g_assert_nonnull (table);
  g_assert_cmpuint (table->len, ==, zw_compile_compare_view_get_compare (view)->rows->len + 1);
  dir = g_dir_make_tmp ("compile-view-XXXXXX", NULL);
  png = g_build_filename (dir, "compiles.png", NULL);
  csv = g_build_filename (dir, "compiles.csv", NULL);
  g_assert_true (zw_export_view (GTK_WIDGET (view), 1100, 900, png, &error));
  g_assert_no_error (error);
  g_assert_true (zw_export_view_csv (GTK_WIDGET (view), csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  g_unlink (png);
  g_unlink (csv);
  g_rmdir (dir);

  /* stale: the marker and its Refresh, which activates win.refresh-compiles; a click beside
   * it does not; a new comparison is current */
  {
    g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
    g_autoptr (GSimpleAction) refresh = g_simple_action_new ("refresh-compiles", NULL);
    guint refreshed = 0;
    ZwRowTableClass *klass = ZW_ROW_TABLE_GET_CLASS (view);
    GtkWidget *area = zw_row_table_get_area (ZW_ROW_TABLE (view));
    double x0, y0, x1, y1;

    g_signal_connect_swapped (refresh, "activate", G_CALLBACK (count_activation), &refreshed);
    g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (refresh));
    gtk_widget_insert_action_group (window, "win", G_ACTION_GROUP (group));
    g_assert_null (zw_compile_compare_view_get_stale (view));
    g_assert_true (zw_compile_compare_view_refresh_extent (gtk_widget_get_width (area), &x0, &y0, &x1, &y1));
    g_assert_false (klass->clicked (ZW_ROW_TABLE (view), (x0 + x1) / 2, (y0 + y1) / 2));   /* not stale */
    zw_compile_compare_view_set_stale (view, "Stale: A was compiled with merge on");
    g_assert_cmpstr (zw_compile_compare_view_get_stale (view), ==, "Stale: A was compiled with merge on");
    g_assert_true (klass->clicked (ZW_ROW_TABLE (view), (x0 + x1) / 2, (y0 + y1) / 2));
    g_assert_cmpuint (refreshed, ==, 1);
    g_assert_false (klass->clicked (ZW_ROW_TABLE (view), x0 - 20, (y0 + y1) / 2));
    g_assert_cmpuint (refreshed, ==, 1);
    zw_compile_compare_view_set_compiles (view, a.report, a.profile, b.report, b.profile);
    g_assert_null (zw_compile_compare_view_get_stale (view));
  }

  zw_compile_compare_view_take_compare (view, NULL);
  g_assert_null (zw_compile_compare_view_get_compare (view));
  gtk_window_destroy (GTK_WINDOW (window));
  compile_clear (&a);
  compile_clear (&b);
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
      g_test_add_func ("/compile-compare/render/demo-pair-bars-shading-selection", test_render_demo_pair);
      g_test_add_func ("/compile-compare/render/real-zg330-and-buyi", test_render_real_pair);
      g_test_add_func ("/compile-compare/render/empty-state", test_render_empty);
      g_test_add_func ("/compile-compare/render/merge-on-per-launch-and-not-like-for-like",
                       test_render_merge_per_launch_and_like_for_like);
      g_test_add_func ("/compile-compare/controller/compares-in-background-queued-cancellable",
                       test_controller_compares_in_background);
    }
  if (display)
    g_test_add_func ("/compile-compare/display/widget-selection-and-exports", test_display_widget);
  return g_test_run ();
}
