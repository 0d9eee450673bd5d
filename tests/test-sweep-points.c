/* test-sweep-points — the Sweep answers "which options for my device?" (issue 37 item 5,
 * suite render): over two what-if points, where the bigger hardware is faster in every
 * row, each point has its own recommendation (the fastest row run there), not only the
 * biggest hardware's; the table says "recommended" for both; the plot colours each marker
 * by its what-if point (the shape stays the OCM option) and rings both recommendations. */
#include "zw-sweep-view.h"
#include "zw-sweep-view-private.h"
#include "zw-test-pixels.h"

#include <string.h>

#define MIB (1024.0 * 1024.0)
#define W 960
#define H 620

/* three option combinations at the profiled device (""), then the same at 4 MiB of OCM:
 * every row of the second point is faster than every row of the first */
static const struct {
  ZwOcmOpt ocm;
  double etm_mib, ms;
} specs[] = {
  { ZW_OCM_NONE, 2.0, 12.0 }, { ZW_OCM_OPTION1, 3.0, 9.0 }, { ZW_OCM_OPTION2, 5.0, 8.0 },
  { ZW_OCM_NONE, 2.2, 6.0 },  { ZW_OCM_OPTION1, 3.2, 5.0 }, { ZW_OCM_OPTION2, 5.2, 4.0 },
};

static ZwSweep *
make_sweep (void)
{
  ZwSweep *s = zw_sweep_new ();

  s->network_name = g_strdup ("two points");
  g_ptr_array_add (s->what_if, g_strdup (""));
  g_ptr_array_add (s->what_if, g_strdup ("ocm=4M"));
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      ZwSweepRow r;
      zw_sweep_row_init (&r);
      r.index = i;
      r.merge_hardop = TRUE;
      r.etm_optimize = TRUE;
      r.ocm_requested = r.ocm_chosen = specs[i].ocm;
      g_free (r.what_if);
      r.what_if = g_strdup (i < 3 ? "" : "ocm=4M");
      r.ocm_capacity = (i < 3 ? 2 : 4) * 1024 * 1024;
      r.icore_clock_hz = 1e9;
      r.simulated_ms = specs[i].ms;
      r.etm_bytes = (guint64) (specs[i].etm_mib * MIB);
      r.ftmp_bytes = r.etm_bytes / 4;
      r.ocm_peak = 1024 * 1024;
      r.launches = 10;
      r.checked = TRUE;
      g_array_append_val (s->rows, r);
    }
  zw_sweep_compute_front (s);
  return s;
}

static void
assert_color (cairo_surface_t *s, double x, double y, const GdkRGBA *color, const char *what)
{
  guint32 got = zw_test_pixel (s, x, y);
  if (!zw_test_near (got, zw_test_argb (color), 12))
    g_error ("%s at (%.1f, %.1f): #%06x, expected #%06x", what, x, y, got & 0xffffff, zw_test_argb (color) & 0xffffff);
}

static void
test_recommends_per_point (void)
{
  g_autoptr (ZwSweep) s = make_sweep ();
  g_autofree char *front2 = NULL, *front5 = NULL, *front1 = NULL;

  /* over all points: the biggest hardware's fastest */
  g_assert_cmpint (s->recommended, ==, 5);
  /* per point: the profiled device gets its own */
  g_assert_cmpint (zw_sweep_recommended_at (s, 0), ==, 2);
  g_assert_cmpint (zw_sweep_recommended_at (s, 1), ==, 5);
  g_assert_cmpint (zw_sweep_point_of_row (s, &g_array_index (s->rows, ZwSweepRow, 4)), ==, 1);
  /* #2 is dominated over all points (#3 is smaller and faster) yet recommended for its device */
  g_assert_false (g_array_index (s->rows, ZwSweepRow, 2).on_front);
  front2 = zw_sweep_cell_text (s, 2, ZW_SWEEP_COLUMN_FRONT);
  front5 = zw_sweep_cell_text (s, 5, ZW_SWEEP_COLUMN_FRONT);
  front1 = zw_sweep_cell_text (s, 1, ZW_SWEEP_COLUMN_FRONT);
  g_assert_cmpstr (front2, ==, "recommended");
  g_assert_cmpstr (front5, ==, "recommended");
  g_assert_cmpstr (front1, !=, "recommended");
}

static void
test_plot_colours_by_point (void)
{
  g_autoptr (ZwSweep) s = make_sweep ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  ZwViewStyle style;
  double x, y;

  zw_view_style_init_default (&style);
  zw_sweep_view_draw (cr, W, H, s, -1, &style);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (g_getenv ("ZW_RUN_VIEWS_KEEP") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("ZW_RUN_VIEWS_KEEP"), "sweep-points.png", NULL);
      cairo_surface_write_to_png (surface, path);
    }
  g_assert_true (zw_sweep_colors_by_point (s));
  /* #0 and #3: the same options (None), one colour per what-if point */
  g_assert_true (zw_sweep_view_row_point (s, W, H, 0, &x, &y));
  assert_color (surface, x, y, &style.segment[0], "#0 (profiled device)");
  g_assert_true (zw_sweep_view_row_point (s, W, H, 3, &x, &y));
  assert_color (surface, x, y, &style.segment[1], "#3 (ocm=4M)");
  g_assert_true (zw_sweep_view_row_point (s, W, H, 1, &x, &y));
  assert_color (surface, x, y, &style.segment[0], "#1 (profiled device)");
  /* both recommendations ringed in the warning colour; #1 not */
  g_assert_true (zw_sweep_view_row_point (s, W, H, 2, &x, &y));
  assert_color (surface, x - ZW_SWEEP_VIEW_RECOMMENDED_R, y, &style.warning, "#2 recommended ring");
  g_assert_true (zw_sweep_view_row_point (s, W, H, 5, &x, &y));
  assert_color (surface, x - ZW_SWEEP_VIEW_RECOMMENDED_R, y, &style.warning, "#5 recommended ring");
  g_assert_true (zw_sweep_view_row_point (s, W, H, 1, &x, &y));
  g_assert_false (zw_test_near (zw_test_pixel (surface, x - ZW_SWEEP_VIEW_RECOMMENDED_R, y),
                                zw_test_argb (&style.warning), 40));
  cairo_surface_destroy (surface);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sweep-points/recommends-per-what-if-point", test_recommends_per_point);
  g_test_add_func ("/sweep-points/plot-colours-by-point-rings-each-recommendation", test_plot_colours_by_point);
  return g_test_run ();
}
