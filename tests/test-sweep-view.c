/* test-sweep-view.c — the Sweep view: a hand-made sweep (known figures, a known front, one
 * row that did not run) drawn offscreen to PNG through the export path and read back for its
 * pixels, and the pure hit test (suite render, no display); the widget in a window (suite
 * display, under Xvfb): the table follows the plot's selection and back, the keys' actions
 * walk the rows in the table's order, Enter/click emit "row-activated", the table sorts, and
 * the view exports PNG/CSV and saves the sweep as JSON/CSV.
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the PNGs there for a look. */
#include "zw-export.h"
#include "zw-sweep-view.h"
#include "zw-sweep-view-private.h"
#include "zw-test-pixels.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

static gboolean have_display;

/* ---- the sweep ---- */

typedef struct {
  gboolean merge, etm;
  ZwOcmOpt ocm;
  double etm_mib, ms;
  const char *error;
} RowSpec;

/* The front is #0 (2 MiB, 12 ms), #1 (3 MiB, 9 ms), #2 (5 MiB, 6 ms: the fastest, so the
 * recommendation); #3, #4 and #6 are dominated; #5 did not run (its figures would put it at
 * 3.5 MiB, 7 ms: nothing may be drawn there). */
static const RowSpec specs[] = {
  { TRUE, TRUE, ZW_OCM_NONE, 2.0, 12.0, NULL },
  { TRUE, TRUE, ZW_OCM_OPTION1, 3.0, 9.0, NULL },
  { TRUE, TRUE, ZW_OCM_BEST_SCORE, 5.0, 6.0, NULL },
  { FALSE, TRUE, ZW_OCM_OPTION2, 4.0, 11.0, NULL },
  { TRUE, FALSE, ZW_OCM_OPTION3, 6.0, 10.0, NULL },
  { FALSE, FALSE, ZW_OCM_NONE, 3.5, 7.0, "the plan does not fit the OCM of ocm=256K" },
  { FALSE, FALSE, ZW_OCM_BEST_SCORE, 2.5, 13.0, NULL },
};

static ZwSweep *
make_sweep (gboolean with_error)
{
  ZwSweep *s = zw_sweep_new ();

  s->network_name = g_strdup ("handmade");
  s->network_path = g_strdup ("/nowhere/handmade_ZG.json");
  g_ptr_array_add (s->what_if, g_strdup (""));
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      ZwSweepRow r;
      zw_sweep_row_init (&r);
      r.index = i;
      r.merge_hardop = specs[i].merge;
      r.etm_optimize = specs[i].etm;
      r.ocm_requested = r.ocm_chosen = specs[i].ocm;
      if (specs[i].ocm == ZW_OCM_BEST_SCORE)
        r.ocm_chosen = ZW_OCM_OPTION2;
      r.ocm_capacity = 2 * 1024 * 1024;
      r.icore_clock_hz = 1e9;
      r.simulated_ms = specs[i].ms;
      r.etm_bytes = (guint64) (specs[i].etm_mib * MIB);
      r.ftmp_bytes = r.etm_bytes / 4;
      r.ocm_bytes = specs[i].ocm == ZW_OCM_NONE ? 0 : 512 * 1024;
      r.launches = 10 + i;
      r.checked = TRUE;
      if (with_error && specs[i].error != NULL)
        r.error = g_strdup (specs[i].error);
      g_array_append_val (s->rows, r);
    }
  zw_sweep_compute_front (s);
  return s;
}

/* ---- pixels ---- */

/* Within a few levels: edges of curves (rings) are antialiased a little even where covered. */
static void
assert_color (cairo_surface_t *s, double x, double y, const GdkRGBA *color, const char *what)
{
  guint32 got = zw_test_pixel (s, x, y);
  if (!zw_test_near (got, zw_test_argb (color), 12))
    g_error ("%s at (%.1f, %.1f): #%06x, expected #%06x", what, x, y, got & 0xffffff, zw_test_argb (color) & 0xffffff);
}

typedef struct {
  const ZwSweep *sweep;
  gint selected;
} DrawArgs;

static void
draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  DrawArgs *a = data;
  zw_sweep_view_draw (cr, width, height, a->sweep, a->selected, colors);
}

#define W 960
#define H 620

/* Draws through the export path to a PNG file and reads it back. */
static cairo_surface_t *
render_png (const ZwSweep *sweep, const ZwViewStyle *style, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sweep-view-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  DrawArgs args = { sweep, -1 };
  const char *keep = g_getenv ("ZW_RUN_VIEWS_KEEP");
  cairo_surface_t *s;

  g_assert_true (zw_export_draw_to_file (draw, &args, style, ZW_VIEW_FORMAT_PNG, W, H, path, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, W);
  if (keep != NULL)
    {
      g_autofree char *kept = g_build_filename (keep, name, NULL);
      cairo_surface_write_to_png (s, kept);
    }
  g_unlink (path);
  g_rmdir (dir);
  return s;
}

static void
point_of (const ZwSweep *s, guint index, double *x, double *y)
{
  g_assert_true (zw_sweep_view_row_point (s, W, H, index, x, y));
}

static void
check_render (const ZwViewStyle *style, const char *name)
{
  g_autoptr (ZwSweep) sweep = make_sweep (TRUE);
  g_autoptr (ZwSweep) all_ran = make_sweep (FALSE);
  cairo_surface_t *s = render_png (sweep, style, name), *ran;
  const double fr = ZW_SWEEP_VIEW_FRONT_R, rr = ZW_SWEEP_VIEW_RECOMMENDED_R;
  double x, y, x2, y2, ex, ey, px0, py0, px1, py1;

  /* the model: the front and the recommendation the test was written for */
  g_assert_cmpint (sweep->recommended, ==, 2);
  for (guint i = 0; i < sweep->rows->len; i++)
    g_assert_cmpint (g_array_index (sweep->rows, ZwSweepRow, i).on_front, ==, i <= 2);

  /* axes: ETM bytes grow to the right, time upwards */
  g_assert_true (zw_sweep_view_plot_area (sweep, W, H, &px0, &py0, &px1, &py1));
  point_of (sweep, 0, &x, &y);
  point_of (sweep, 2, &x2, &y2);
  g_assert_cmpfloat (x, <, x2);
  g_assert_cmpfloat (y, <, y2);
  for (guint i = 0; i < sweep->rows->len; i++)
    if (zw_sweep_view_row_point (sweep, W, H, i, &x, &y))
      {
        g_assert_cmpfloat (x, >, px0 + fr);
        g_assert_cmpfloat (x, <, px1 - fr);
        g_assert_cmpfloat (y, >, py0 + fr);
        g_assert_cmpfloat (y, <, py1 - fr);
      }

  /* the front's rows ringed in the accent colour, the others not */
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      if (!zw_sweep_view_row_point (sweep, W, H, i, &x, &y))
        continue;
      if (i <= 2)
        assert_color (s, x - fr, y, &style->accent, "front ring");
      else
        g_assert_false (zw_test_near (zw_test_pixel (s, x - fr, y), zw_test_argb (&style->accent), 40));
    }
  /* the step line: right at #0's time to #1's ETM bytes, then down to #1's time */
  point_of (sweep, 0, &x, &y);
  point_of (sweep, 1, &x2, &y2);
  assert_color (s, (x + x2) / 2, y, &style->accent, "front step (horizontal)");
  assert_color (s, x2, (y + y2) / 2, &style->accent, "front step (vertical)");
  /* and nothing of it below the staircase (a straight line would cross there) */
  g_assert_false (zw_test_near (zw_test_pixel (s, (x + x2) / 2, (y + y2) / 2), zw_test_argb (&style->accent), 40));

  /* the recommendation: ringed in the warning colour; a front row that is not, is not */
  point_of (sweep, 2, &x, &y);
  assert_color (s, x - rr, y, &style->warning, "recommended ring");
  assert_color (s, x + rr, y, &style->warning, "recommended ring");
  point_of (sweep, 1, &x, &y);
  g_assert_false (zw_test_near (zw_test_pixel (s, x - rr, y), zw_test_argb (&style->warning), 40));

  /* markers: filled in the OCM option's colour (merge on), hollow for merge off */
  point_of (sweep, 0, &x, &y);
  assert_color (s, x, y, &style->segment[ZW_SEGMENT_WEIGHT], "#0 None, filled");
  point_of (sweep, 1, &x, &y);
  assert_color (s, x, y, &style->segment[ZW_SEGMENT_INSTR], "#1 Option 1, filled");
  point_of (sweep, 4, &x, &y);
  /* beside the stroke through it: ETM optimize is off */
  assert_color (s, x - 3, y - 2, &style->segment[ZW_SEGMENT_INPUT], "#4 Option 3, filled");
  g_assert_false (zw_test_near (zw_test_pixel (s, x + ZW_SWEEP_VIEW_MARKER_R + 1, y - ZW_SWEEP_VIEW_MARKER_R - 1),
                        zw_test_argb (&style->background), 30));
  point_of (sweep, 3, &x, &y);
  g_assert_true (zw_test_near (zw_test_pixel (s, x + ZW_SWEEP_VIEW_MARKER_R + 1, y - ZW_SWEEP_VIEW_MARKER_R - 1),
                       zw_test_argb (&style->background), 30));   /* #3 is not struck */
  point_of (sweep, 3, &x, &y);
  assert_color (s, x, y, &style->background, "#3 merge off: hollow");
  /* a hollow triangle's left edge at mid height is drawn */
  g_assert_false (zw_test_near (zw_test_pixel (s, x - ZW_SWEEP_VIEW_MARKER_R * 0.85, y + ZW_SWEEP_VIEW_MARKER_R * 0.5),
                        zw_test_argb (&style->background), 30));

  /* the row that did not run: not plotted, no hit, nothing drawn where its figures are */
  g_assert_false (zw_sweep_view_row_point (sweep, W, H, 5, NULL, NULL));
  g_assert_true (zw_sweep_view_map (sweep, W, H, 3.5 * MIB, 7.0, &ex, &ey));
  for (int dy = -3; dy <= 3; dy++)
    for (int dx = -3; dx <= 3; dx++)
      assert_color (s, ex + dx, ey + dy, &style->background, "where the failed row's figures are");
  g_assert_cmpint (zw_sweep_view_row_at (sweep, W, H, ex, ey, 8), ==, -1);
  /* the same sweep with that row run draws it there (the check above can fail) */
  ran = render_png (all_ran, style, "ran.png");
  g_assert_true (zw_sweep_view_map (all_ran, W, H, 3.5 * MIB, 7.0, &x, &y));
  g_assert_false (zw_test_near (zw_test_pixel (ran, x, y), zw_test_argb (&style->background), 30));
  cairo_surface_destroy (ran);

  /* the hit test: every plotted row at its point, within the tolerance, and none far away */
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      if (!zw_sweep_view_row_point (sweep, W, H, i, &x, &y))
        continue;
      g_assert_cmpint (zw_sweep_view_row_at (sweep, W, H, x, y, 8), ==, (gint) i);
      g_assert_cmpint (zw_sweep_view_row_at (sweep, W, H, x + 5, y - 5, 8), ==, (gint) i);
      g_assert_cmpint (zw_sweep_view_row_at (sweep, W, H, x + 9, y, 8), ==, -1);
    }
  g_assert_cmpint (zw_sweep_view_row_at (sweep, W, H, px0 + 2, py1 - 2, 8), ==, -1);
  g_assert_cmpint (zw_sweep_view_row_at (sweep, W, H, W - 2, 2, 8), ==, -1);
  g_assert_cmpint (zw_sweep_view_row_at (NULL, W, H, x, y, 8), ==, -1);
  cairo_surface_destroy (s);
}

static void
test_render_light_and_dark (void)
{
  ZwViewStyle light, dark;

  zw_view_style_init_default (&light);
  zw_view_style_init_dark (&dark);
  check_render (&light, "sweep-light.png");
  check_render (&dark, "sweep-dark.png");
}

/* Two rows at one point: the lower index is hit; the tooltip names the other. */
static void
test_same_point_and_tooltip (void)
{
  g_autoptr (ZwSweep) s = make_sweep (TRUE);
  g_autofree char *text = NULL, *failed = NULL;
  ZwSweepRow *r6 = &g_array_index (s->rows, ZwSweepRow, 6);
  double x, y;

  r6->etm_bytes = g_array_index (s->rows, ZwSweepRow, 4).etm_bytes;
  r6->simulated_ms = g_array_index (s->rows, ZwSweepRow, 4).simulated_ms;
  zw_sweep_compute_front (s);
  point_of (s, 4, &x, &y);
  g_assert_cmpint (zw_sweep_view_row_at (s, W, H, x, y, 8), ==, 4);
  text = zw_sweep_view_describe_row (s, 4);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "#4"));
  g_assert_nonnull (strstr (text, "10.0000 ms"));
  g_assert_nonnull (strstr (text, "6291456 bytes"));    /* ETM */
  g_assert_nonnull (strstr (text, "1572864 bytes"));    /* FTMP */
  g_assert_nonnull (strstr (text, "14"));               /* launches */
  g_assert_nonnull (strstr (text, "#6"));               /* same figures */
  failed = zw_sweep_view_describe_row (s, 5);
  g_assert_nonnull (strstr (failed, "ocm=256K"));
  g_assert_null (zw_sweep_view_describe_row (s, 99));
}

static void
test_render_empty_and_all_failed (void)
{
  ZwViewStyle style;
  g_autoptr (ZwSweep) failed = make_sweep (TRUE);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 300);
  cairo_t *cr = cairo_create (s);
  guint n_fg = 0;

  zw_view_style_init_default (&style);
  zw_sweep_view_draw (cr, 600, 300, NULL, -1, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (s);
  for (int y = 0; y < 300; y++)
    for (int x = 0; x < 600; x++)
      n_fg += !zw_test_near (zw_test_pixel (s, x, y), zw_test_argb (&style.background), 8);
  g_assert_cmpuint (n_fg, >, 50);   /* the empty state says what to do */
  g_assert_false (zw_sweep_view_plot_area (NULL, 600, 300, NULL, NULL, NULL, NULL));

  /* every row failed: nothing plotted, nothing to hit, still drawn */
  for (guint i = 0; i < failed->rows->len; i++)
    {
      ZwSweepRow *r = &g_array_index (failed->rows, ZwSweepRow, i);
      g_free (r->error);
      r->error = g_strdup ("no");
    }
  zw_sweep_compute_front (failed);
  g_assert_cmpint (failed->recommended, ==, -1);
  g_assert_false (zw_sweep_view_row_point (failed, 600, 300, 0, NULL, NULL));
  g_assert_cmpint (zw_sweep_view_row_at (failed, 600, 300, 300, 150, 1000), ==, -1);
  zw_sweep_view_draw (cr, 600, 300, failed, 0, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* ---- the widget (display) ---- */

static gboolean
drawn (gpointer data)
{
  GtkWidget *w = data;
  return gtk_widget_get_mapped (w) && gtk_widget_get_width (w) > 0;
}

static gboolean
wait_until (gboolean (*pred) (gpointer), gpointer data)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!pred (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  return pred (data);
}

static GtkColumnView *
find_column_view (GtkWidget *w)
{
  if (GTK_IS_COLUMN_VIEW (w))
    return GTK_COLUMN_VIEW (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkColumnView *found = find_column_view (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
on_activated (ZwSweepView *view, guint index, gint *out)
{
  (void) view;
  *out = (gint) index;
}

static void
test_display_widget (void)
{
  g_autoptr (ZwSweep) sweep = make_sweep (TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) table = NULL;
  g_autofree char *dir = NULL, *png = NULL, *csv = NULL, *json = NULL, *table_csv = NULL;
  g_autofree guint *order = NULL;
  GtkSingleSelection *model;
  GtkColumnView *cv;
  ZwSweepView *view;
  GtkWidget *window;
  gint activated = -1;
  guint n;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  window = gtk_window_new ();
  view = ZW_SWEEP_VIEW (zw_sweep_view_new (NULL));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 800);
  g_signal_connect (view, "row-activated", G_CALLBACK (on_activated), &activated);
  g_assert_null (zw_sweep_view_get_sweep (view));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.open", NULL) && activated >= 0);
  zw_sweep_view_set_sweep (view, sweep);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (drawn, view));
  g_assert_true (zw_sweep_view_get_sweep (view) == sweep);

  /* the recommendation is selected at first, in the table too */
  cv = find_column_view (GTK_WIDGET (view));
  g_assert_nonnull (cv);
  model = GTK_SINGLE_SELECTION (gtk_column_view_get_model (cv));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, sweep->rows->len);
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 2);
  g_assert_cmpuint (gtk_single_selection_get_selected (model), ==, 2);

  /* the plot's selection moves the table's, and back */
  zw_sweep_view_select_row (view, 4);
  g_assert_cmpuint (gtk_single_selection_get_selected (model), ==, 4);
  gtk_single_selection_set_selected (model, 6);
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 6);

  /* sorted by time: the keys walk the table's order */
  g_assert_true (zw_sweep_view_sort_by (view, ZW_SWEEP_COLUMN_TIME, FALSE));
  order = zw_sweep_view_get_table_order (view, &n);
  g_assert_cmpuint (n, ==, 7);
  {
    static const guint by_time[] = { 2, 1, 4, 3, 0, 6, 5 };   /* the failed row last */
    for (guint i = 0; i < n; i++)
      g_assert_cmpuint (order[i], ==, by_time[i]);
  }
  /* the selection stays across a sort: the same row, at its new position */
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 6);
  g_assert_cmpuint (gtk_single_selection_get_selected (model), ==, 5);
  zw_sweep_view_select_row (view, 1);
  g_assert_cmpuint (gtk_single_selection_get_selected (model), ==, 1);   /* its position now */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.next", NULL));
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 4);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.previous", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.previous", NULL));
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.previous", NULL));
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 2);   /* stays on the first */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.last", NULL));
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 5);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.first", NULL));
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 2);

  /* Enter (sweep.open) and a click emit row-activated with the row's index */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.next", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "sweep.open", NULL));
  g_assert_cmpint (activated, ==, 1);
  g_assert_true (zw_sweep_view_activate_row (view, 3));
  g_assert_cmpint (activated, ==, 3);
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, 3);
  g_assert_false (zw_sweep_view_activate_row (view, 42));

  /* exports: the plot, the table as shown, the sweep as xrt-run writes it */
  table = zw_export_view_table (GTK_WIDGET (view));
  g_assert_nonnull (table);
  g_assert_cmpuint (table->len, ==, sweep->rows->len + 1);
  g_assert_cmpstr (((char **) g_ptr_array_index (table, 1))[0], ==, "2");   /* the table's order */
  dir = g_dir_make_tmp ("sweep-view-XXXXXX", NULL);
  png = g_build_filename (dir, "sweep.png", NULL);
  csv = g_build_filename (dir, "sweep.csv", NULL);
  json = g_build_filename (dir, "sweep.json", NULL);
  table_csv = g_build_filename (dir, "table.csv", NULL);
  g_assert_true (zw_export_view (GTK_WIDGET (view), 900, 600, png, &error));
  g_assert_no_error (error);
  g_assert_true (zw_export_view_csv (GTK_WIDGET (view), table_csv, &error));
  g_assert_no_error (error);
  g_assert_true (zw_sweep_view_save (view, json, &error));
  g_assert_no_error (error);
  g_assert_true (zw_sweep_view_save (view, csv, &error));
  g_assert_no_error (error);
  g_assert_false (zw_sweep_view_save (view, png, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    g_autoptr (ZwSweep) back = zw_sweep_load (json, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (back->rows->len, ==, sweep->rows->len);
    g_assert_cmpint (back->recommended, ==, 2);
    g_assert_cmpstr (g_array_index (back->rows, ZwSweepRow, 5).error, ==, specs[5].error);
  }
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (csv, G_FILE_TEST_IS_REGULAR));
  g_unlink (png);
  g_unlink (csv);
  g_unlink (json);
  g_unlink (table_csv);
  g_rmdir (dir);

  zw_sweep_view_set_sweep (view, NULL);
  g_assert_cmpint (zw_sweep_view_get_selected_row (view), ==, -1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- geometry and cells, in numbers (no drawing) ---- */

/* The axes span the plotted rows' figures padded by 8 % on each side; the rows that did not
 * run take lines below the plot; a point is placed linearly on both axes. */
static void
test_geometry_in_numbers (void)
{
  g_autoptr (ZwSweep) sweep = make_sweep (TRUE);
  g_autoptr (ZwSweep) clean = make_sweep (FALSE);
  ZwSweepGeo g;
  double x, y;

  g_assert_true (zw_sweep_geo_compute (&g, sweep, 1000, 700));
  g_assert_cmpuint (g.n_plotted, ==, 6);
  g_assert_cmpuint (g.n_errors, ==, 1);
  g_assert_cmpfloat_with_epsilon (g.etm_lo, (2.0 - 4.0 * 0.08) * MIB, 1e-3);
  g_assert_cmpfloat_with_epsilon (g.etm_hi, (6.0 + 4.0 * 0.08) * MIB, 1e-3);
  g_assert_cmpfloat_with_epsilon (g.ms_lo, 6.0 - 7.0 * 0.08, 1e-9);
  g_assert_cmpfloat_with_epsilon (g.ms_hi, 13.0 + 7.0 * 0.08, 1e-9);
  /* left of the plot the tick labels, right of it the legend; above it the title */
  g_assert_cmpfloat (g.x0, ==, SWEEP_MARGIN + SWEEP_TICKS_W);
  g_assert_cmpfloat (g.x1, ==, 1000 - SWEEP_MARGIN - SWEEP_LEGEND_W - 16);
  g_assert_cmpfloat (g.y0, ==, SWEEP_MARGIN + SWEEP_TITLE_H + SWEEP_LINE_H);
  /* one failed row: a heading and its line under the x axis */
  g_assert_cmpfloat (g.errors_y, ==, 700 - SWEEP_MARGIN - 2 * SWEEP_LINE_H);
  g_assert_cmpfloat (g.y1, ==, g.errors_y - SWEEP_AXIS_H - 6);
  g_assert_true (zw_sweep_view_row_point (sweep, 1000, 700, 0, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, g.x0 + (2.0 - 1.68) / 4.64 * (g.x1 - g.x0), 1e-6);
  g_assert_cmpfloat_with_epsilon (y, g.y1 - (12.0 - 5.44) / 8.12 * (g.y1 - g.y0), 1e-6);
  g_assert_cmpfloat_with_epsilon (zw_sweep_geo_x (&g, g.etm_hi), g.x1, 1e-9);
  g_assert_cmpfloat_with_epsilon (zw_sweep_geo_y (&g, g.ms_lo), g.y1, 1e-9);
  g_assert_false (zw_sweep_row_plotted (&g_array_index (sweep->rows, ZwSweepRow, 5)));
  g_assert_false (zw_sweep_view_row_point (sweep, 1000, 700, 5, &x, &y));

  /* without failed rows the plot reaches down to the x axis' labels */
  g_assert_true (zw_sweep_geo_compute (&g, clean, 1000, 700));
  g_assert_cmpuint (g.n_errors, ==, 0);
  g_assert_cmpfloat (g.y1, ==, 700 - SWEEP_MARGIN - SWEEP_AXIS_H);
  /* a tiny view keeps a 40 px plot */
  g_assert_true (zw_sweep_geo_compute (&g, clean, 100, 50));
  g_assert_cmpfloat (g.x1 - g.x0, ==, 40);
  g_assert_cmpfloat (g.y1 - g.y0, ==, 40);
  g_assert_false (zw_sweep_geo_compute (&g, NULL, 1000, 700));
}

/* The table's cells: figures as the table shows them, a dash where a row did not run. */
static void
test_cells (void)
{
  g_autoptr (ZwSweep) sweep = make_sweep (TRUE);
  static const struct {
    guint row;
    ZwSweepColumn column;
    const char *text;
  } cells[] = {
    { 2, ZW_SWEEP_COLUMN_INDEX, "2" },  { 2, ZW_SWEEP_COLUMN_TIME, "6.0000" },
    { 4, ZW_SWEEP_COLUMN_LAUNCHES, "14" }, { 0, ZW_SWEEP_COLUMN_ETM, "2.0\xc2\xa0MiB" },
    { 5, ZW_SWEEP_COLUMN_TIME, "–" },   { 5, ZW_SWEEP_COLUMN_ETM, "–" },
    { 5, ZW_SWEEP_COLUMN_ERROR, "the plan does not fit the OCM of ocm=256K" },
    { 0, ZW_SWEEP_COLUMN_WHAT_IF, "–" }, { 0, ZW_SWEEP_COLUMN_ERROR, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autofree char *text = zw_sweep_cell_text (sweep, cells[i].row, cells[i].column);
      g_assert_cmpstr (text, ==, cells[i].text);
    }
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
      g_test_add_func ("/sweep-view/render/front-recommended-markers-failed-row-hit-test", test_render_light_and_dark);
      g_test_add_func ("/sweep-view/render/same-point-lower-index-tooltip-figures", test_same_point_and_tooltip);
      g_test_add_func ("/sweep-view/render/empty-state-and-every-row-failed", test_render_empty_and_all_failed);
      g_test_add_func ("/sweep-view/geometry/axes-padded-failed-rows-below", test_geometry_in_numbers);
      g_test_add_func ("/sweep-view/text/cells-as-the-table-shows-them", test_cells);
    }
  if (display)
    g_test_add_func ("/sweep-view/display/table-sync-keys-activate-sort-exports", test_display_widget);
  return g_test_run ();
}
