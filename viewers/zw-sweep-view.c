/* zw-sweep-view.c — a sweep as a scatter of time vs ETM bytes and a table (see the header). */
#include "zw-sweep-view.h"
#include "zw-row-item.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN 8.0
#define LINE_H 18.0
#define TITLE_H (2 * LINE_H + 10)
#define LEGEND_W 270.0
#define TICKS_W 64.0
#define AXIS_H (2 * LINE_H + 4)
#define MAX_ERROR_LINES 6

/* ---- geometry ---- */

typedef struct {
  double x0, y0, x1, y1;         /* the plot */
  double etm_lo, etm_hi;         /* the axes' ranges */
  double ms_lo, ms_hi;
  guint n_plotted, n_errors;
  double errors_y;               /* where the list of rows that did not run starts */
} Geo;

static gboolean
row_plotted (const ZwSweepRow *r)
{
  return r->error == NULL && isfinite (r->simulated_ms);
}

/* A range around [lo, hi] with room for the markers, never below 0. */
static void
pad_range (double lo, double hi, double min_pad, double *out_lo, double *out_hi)
{
  double pad = hi > lo ? (hi - lo) * 0.08 : MAX (fabs (hi) * 0.1, min_pad);

  *out_lo = MAX (0.0, lo - pad);
  *out_hi = hi + pad;
  if (*out_hi <= *out_lo)
    *out_hi = *out_lo + min_pad;
}

static gboolean
geo_compute (Geo *g, const ZwSweep *sweep, int width, int height)
{
  double etm_min = G_MAXDOUBLE, etm_max = -G_MAXDOUBLE, ms_min = G_MAXDOUBLE, ms_max = -G_MAXDOUBLE;
  guint error_lines;

  memset (g, 0, sizeof *g);
  if (sweep == NULL)
    return FALSE;
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      if (!row_plotted (r))
        {
          g->n_errors++;
          continue;
        }
      g->n_plotted++;
      etm_min = MIN (etm_min, (double) r->etm_bytes);
      etm_max = MAX (etm_max, (double) r->etm_bytes);
      ms_min = MIN (ms_min, r->simulated_ms);
      ms_max = MAX (ms_max, r->simulated_ms);
    }
  error_lines = g->n_errors == 0 ? 0 : 1 + MIN (g->n_errors, MAX_ERROR_LINES) + (g->n_errors > MAX_ERROR_LINES);
  g->x0 = MARGIN + TICKS_W;
  g->x1 = MAX (g->x0 + 40, width - MARGIN - LEGEND_W - 16);
  g->y0 = MARGIN + TITLE_H + LINE_H;      /* the y axis' title above the plot */
  g->errors_y = height - MARGIN - error_lines * LINE_H;
  g->y1 = MAX (g->y0 + 40, g->errors_y - AXIS_H - (error_lines > 0 ? 6 : 0));
  if (g->n_plotted == 0)
    return FALSE;
  pad_range (etm_min, etm_max, 1024, &g->etm_lo, &g->etm_hi);
  pad_range (ms_min, ms_max, 1e-3, &g->ms_lo, &g->ms_hi);
  return TRUE;
}

static double
geo_x (const Geo *g, double etm)
{
  return g->x0 + (etm - g->etm_lo) / (g->etm_hi - g->etm_lo) * (g->x1 - g->x0);
}

static double
geo_y (const Geo *g, double ms)
{
  return g->y1 - (ms - g->ms_lo) / (g->ms_hi - g->ms_lo) * (g->y1 - g->y0);
}

gboolean
zw_sweep_view_plot_area (const ZwSweep *sweep, int width, int height, double *x0, double *y0, double *x1, double *y1)
{
  Geo g;
  gboolean ok = geo_compute (&g, sweep, width, height);

  if (x0)
    *x0 = g.x0;
  if (y0)
    *y0 = g.y0;
  if (x1)
    *x1 = g.x1;
  if (y1)
    *y1 = g.y1;
  return ok;
}

gboolean
zw_sweep_view_map (const ZwSweep *sweep, int width, int height, double etm_bytes, double ms, double *x, double *y)
{
  Geo g;

  if (!geo_compute (&g, sweep, width, height))
    return FALSE;
  if (x)
    *x = geo_x (&g, etm_bytes);
  if (y)
    *y = geo_y (&g, ms);
  return TRUE;
}

gboolean
zw_sweep_view_row_point (const ZwSweep *sweep, int width, int height, guint index, double *x, double *y)
{
  const ZwSweepRow *r;

  if (sweep == NULL || index >= sweep->rows->len)
    return FALSE;
  r = &g_array_index (sweep->rows, ZwSweepRow, index);
  if (!row_plotted (r))
    return FALSE;
  return zw_sweep_view_map (sweep, width, height, (double) r->etm_bytes, r->simulated_ms, x, y);
}

static gint
row_at (const ZwSweep *sweep, const Geo *g, double x, double y, double tolerance)
{
  gint best = -1;
  double best_d = tolerance * tolerance;

  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      double dx, dy, d;
      if (!row_plotted (r))
        continue;
      dx = geo_x (g, (double) r->etm_bytes) - x;
      dy = geo_y (g, r->simulated_ms) - y;
      d = dx * dx + dy * dy;
      /* strictly nearer: of rows at one point, the lowest index */
      if (d <= best_d && (best < 0 || d < best_d))
        {
          best = (gint) i;
          best_d = d;
        }
    }
  return best;
}

gint
zw_sweep_view_row_at (const ZwSweep *sweep, int width, int height, double x, double y, double tolerance)
{
  Geo g;

  if (!geo_compute (&g, sweep, width, height))
    return -1;
  return row_at (sweep, &g, x, y, tolerance);
}

/* ---- text ---- */

/* A row's marker slot: its OCM option's row in the options' table (an unknown one, from a
 * file of another version, takes the last). */
static guint
ocm_slot (ZwOcmOpt opt)
{
  gint i = zw_ocm_opt_get_index (opt);
  return i >= 0 ? (guint) i : zw_ocm_opt_get_count () - 1;
}

static const char *
on_off (gboolean b)
{
  return b ? _("on") : _("off");
}

/* "merge on, ETM optimize off, OCM Option 2" */
static char *
row_options (const ZwSweepRow *r)
{
  /* TRANSLATORS: a sweep row's options: merge on/off, ETM optimize on/off, the OCM option */
  return g_strdup_printf (_("merge %s, ETM optimize %s, OCM %s"), on_off (r->merge_hardop), on_off (r->etm_optimize),
                          zw_ocm_opt_get_label (r->ocm_requested));
}

static const char *
row_point (const ZwSweepRow *r)
{
  return r->what_if != NULL && *r->what_if != '\0' ? r->what_if : _("device profile as it is");
}

static char *
bytes_text (guint64 bytes)
{
  g_autofree char *human = zw_format_bytes (bytes);
  g_autofree char *exact = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  /* TRANSLATORS: a size in a unit, then exactly: "1.5 MiB (1572864 bytes)" */
  return g_strdup_printf (_("%s (%s bytes)"), human, exact);
}

char *
zw_sweep_view_describe_row (const ZwSweep *sweep, guint index)
{
  const ZwSweepRow *r;
  g_autoptr (GString) text = NULL;
  g_autofree char *options = NULL;

  if (sweep == NULL || index >= sweep->rows->len)
    return NULL;
  r = &g_array_index (sweep->rows, ZwSweepRow, index);
  options = row_options (r);
  text = g_string_new (NULL);
  g_string_append_printf (text, _("Row #%u: %s"), r->index, options);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("What-if: %s"), row_point (r));
  if (r->error != NULL)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Did not run: %s"), r->error);
      return g_string_free (g_steal_pointer (&text), FALSE);
    }
  {
    g_autofree char *ftmp = bytes_text (r->ftmp_bytes), *ocm = bytes_text (r->ocm_bytes), *etm = bytes_text (r->etm_bytes);
    g_autofree char *capacity = zw_format_bytes (r->ocm_capacity);
    g_autofree char *peak = r->ocm_peak != G_MAXUINT64 ? bytes_text (r->ocm_peak) : g_strdup ("?");

    if (r->ocm_requested == ZW_OCM_BEST_SCORE)
      {
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Best score chose: %s"), zw_ocm_opt_get_label (r->ocm_chosen));
      }
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("Simulated time: %.4f ms per forward"), r->simulated_ms);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("FTMP: %s"), ftmp);
    g_string_append_c (text, '\n');
    /* TRANSLATORS: the most OCM bytes live at once and the board's OCM size at the row's
     * what-if point */
    g_string_append_printf (text, _("OCM peak: %s of %s"), peak, capacity);
    g_string_append_c (text, '\n');
    /* TRANSLATORS: the OCM chunks' sizes summed over the whole run */
    g_string_append_printf (text, _("OCM placed over time: %s"), ocm);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("ETM: %s"), etm);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("Launches: %u"), r->launches);
    g_string_append_c (text, '\n');
    g_string_append (text, r->checked ? _("Plan checked: passes the independent checker")
                                      : _("Plan checked: FAILS the independent checker"));
  }
  if ((gint) r->index == sweep->recommended)
    g_string_append_printf (text, "\n%s", _("Recommended: the fastest row on the Pareto front"));
  else if (r->on_front)
    g_string_append_printf (text, "\n%s", _("On the Pareto front of time vs ETM bytes"));
  {
    /* rows drawn at this very point (Best score often chooses what an option asks) */
    g_autoptr (GString) same = g_string_new (NULL);
    for (guint i = 0; i < sweep->rows->len; i++)
      {
        const ZwSweepRow *o = &g_array_index (sweep->rows, ZwSweepRow, i);
        if (i != index && row_plotted (o) && o->etm_bytes == r->etm_bytes && o->simulated_ms == r->simulated_ms)
          g_string_append_printf (same, "%s#%u", same->len > 0 ? ", " : "", o->index);
      }
    if (same->len > 0)
      {
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Same figures: %s"), same->str);
      }
  }
  g_string_append_printf (text, "\n%s", _("Click or Enter: deploy and run this row"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* ---- drawing ---- */

/* The theme's five segment colours, in turn; with the shapes below no two of the first 30
 * slots look alike. */
static const GdkRGBA *
slot_color (const ZwViewStyle *colors, guint slot)
{
  return &colors->segment[slot % ZW_N_SEGMENTS];
}

/* The marker's outline: circle, square, triangle up, diamond, triangle down; from slot 5 on,
 * regular polygons of slot + 1 sides. */
static void
marker_path (cairo_t *cr, guint slot, double x, double y, double r)
{
  switch (slot)
    {
    case 0: cairo_new_sub_path (cr); cairo_arc (cr, x, y, r, 0, 2 * G_PI); break;
    case 1: cairo_rectangle (cr, x - r * 0.88, y - r * 0.88, r * 1.76, r * 1.76); break;
    case 2:
      cairo_move_to (cr, x, y - r * 1.15);
      cairo_line_to (cr, x + r * 1.05, y + r * 0.75);
      cairo_line_to (cr, x - r * 1.05, y + r * 0.75);
      cairo_close_path (cr);
      break;
    case 3:
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x + r * 1.2, y);
      cairo_line_to (cr, x, y + r * 1.2);
      cairo_line_to (cr, x - r * 1.2, y);
      cairo_close_path (cr);
      break;
    case 4:
      cairo_move_to (cr, x, y + r * 1.15);
      cairo_line_to (cr, x + r * 1.05, y - r * 0.75);
      cairo_line_to (cr, x - r * 1.05, y - r * 0.75);
      cairo_close_path (cr);
      break;
    default:
      for (guint k = 0; k <= slot; k++)
        {
          double a = -G_PI / 2 + 2 * G_PI * k / (slot + 1);
          if (k == 0)
            cairo_move_to (cr, x + r * 1.1 * cos (a), y + r * 1.1 * sin (a));
          else
            cairo_line_to (cr, x + r * 1.1 * cos (a), y + r * 1.1 * sin (a));
        }
      cairo_close_path (cr);
      break;
    }
}

/* One row's marker: colour and shape by OCM option, filled for merge on, struck through for
 * ETM optimize off. */
static void
draw_marker (cairo_t *cr, const ZwViewStyle *colors, guint slot, gboolean filled, gboolean struck, double x, double y)
{
  const GdkRGBA *c = slot_color (colors, slot);
  /* the outline a little towards the text colour: light hues stay visible on white */
  GdkRGBA edge = zw_rgba_mix (c, &colors->foreground, 0.3);
  double r = ZW_SWEEP_VIEW_MARKER_R;

  cairo_save (cr);
  cairo_new_path (cr);
  marker_path (cr, slot, x, y, r);
  zw_cairo_set_color (cr, filled ? c : &colors->background);
  cairo_fill_preserve (cr);
  zw_cairo_set_color (cr, &edge);
  cairo_set_line_width (cr, filled ? 1.0 : 2.0);
  cairo_stroke (cr);
  if (struck)
    {
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, x - r - 2, y + r + 2);
      cairo_line_to (cr, x + r + 2, y - r - 2);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static void
ring (cairo_t *cr, const GdkRGBA *color, double x, double y, double r, double line_width)
{
  cairo_new_path (cr);
  cairo_arc (cr, x, y, r, 0, 2 * G_PI);
  zw_cairo_set_color (cr, color);
  cairo_set_line_width (cr, line_width);
  cairo_stroke (cr);
}

static int
decimals_for (double step)
{
  return step >= 1 ? 0 : (int) MIN (6, ceil (-log10 (step) - 1e-9));
}

static void
draw_axes (ZwPainter *p, const Geo *g)
{
  cairo_t *cr = p->cr;
  GdkRGBA dim = p->style->foreground;
  double step;
  int dec;

  dim.alpha *= 0.7f;
  cairo_save (cr);
  /* x: ETM bytes, one unit for the whole axis */
  step = zw_nice_bytes_step (g->etm_hi - g->etm_lo, 5);
  for (double v = ceil (g->etm_lo / step) * step; v <= g->etm_hi + step * 1e-9; v += step)
    {
      double x = round (geo_x (g, v)) + 0.5;
      g_autofree char *label = zw_format_axis_bytes (v, g->etm_hi);
      zw_cairo_set_color (cr, &p->style->grid);
      cairo_rectangle (cr, x - 0.5, g->y0, 1, g->y1 - g->y0);
      cairo_fill (cr);
      zw_painter_text (p, x, g->y1 + 4, 0.5, 0, 0, &dim, label);
    }
  /* y: milliseconds */
  step = zw_nice_step (g->ms_hi - g->ms_lo, 5);
  dec = decimals_for (step);
  for (double v = ceil (g->ms_lo / step) * step; v <= g->ms_hi + step * 1e-9; v += step)
    {
      double y = round (geo_y (g, v)) + 0.5;
      g_autofree char *label = g_strdup_printf (_("%.*f ms"), dec, v);
      zw_cairo_set_color (cr, &p->style->grid);
      cairo_rectangle (cr, g->x0, y - 0.5, g->x1 - g->x0, 1);
      cairo_fill (cr);
      zw_painter_text (p, g->x0 - 6, y, 1, 0.5, TICKS_W - 8, &dim, label);
    }
  /* the frame */
  zw_cairo_set_color (cr, &p->style->foreground);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, g->x0 + 0.5, g->y0 + 0.5, g->x1 - g->x0 - 1, g->y1 - g->y0 - 1);
  cairo_stroke (cr);
  cairo_restore (cr);
  zw_painter_text (p, g->x0, g->y0 - 4, 0, 1, g->x1 - g->x0, &dim, _("Simulated time per forward (ms)"));
  zw_painter_text (p, (g->x0 + g->x1) / 2, g->y1 + 4 + LINE_H, 0.5, 0, g->x1 - g->x0, &dim,
                   _("ETM bytes (every logic segment: WEIGHT + INSTR + FTMP + INPUT + OUTPUT)"));
}

/* The front's rows by ETM bytes (then time): the staircase from the smallest to the fastest. */
static gint
cmp_front (gconstpointer pa, gconstpointer pb)
{
  const ZwSweepRow *a = *(ZwSweepRow *const *) pa, *b = *(ZwSweepRow *const *) pb;

  if (a->etm_bytes != b->etm_bytes)
    return a->etm_bytes < b->etm_bytes ? -1 : 1;
  if (a->simulated_ms != b->simulated_ms)
    return a->simulated_ms < b->simulated_ms ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

static void
draw_front (cairo_t *cr, const Geo *g, const ZwSweep *sweep, const ZwViewStyle *colors)
{
  g_autoptr (GPtrArray) front = g_ptr_array_new ();

  for (guint i = 0; i < sweep->rows->len; i++)
    {
      ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      if (r->on_front && row_plotted (r))
        g_ptr_array_add (front, r);
    }
  if (front->len == 0)
    return;
  g_ptr_array_sort (front, cmp_front);
  cairo_save (cr);
  cairo_new_path (cr);
  for (guint i = 0; i < front->len; i++)
    {
      const ZwSweepRow *r = g_ptr_array_index (front, i);
      double x = geo_x (g, (double) r->etm_bytes), y = geo_y (g, r->simulated_ms);
      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        {
          double prev_y;
          cairo_get_current_point (cr, NULL, &prev_y);
          /* a step: no point of the front's line is better than a row of the front */
          cairo_line_to (cr, x, prev_y);
          cairo_line_to (cr, x, y);
        }
    }
  zw_cairo_set_color (cr, &colors->accent);
  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_legend (ZwPainter *p, double x, double y, const ZwSweep *sweep)
{
  cairo_t *cr = p->cr;
  const ZwViewStyle *s = p->style;
  const double text_x = x + 26, w = LEGEND_W - 26;

  zw_painter_set_bold (p, TRUE);
  zw_painter_text (p, x, y, 0, 0, LEGEND_W, NULL, _("OCM option requested"));
  zw_painter_set_bold (p, FALSE);
  y += LINE_H;
  for (guint k = 0; k < zw_ocm_opt_get_count (); k++, y += LINE_H)
    {
      g_autofree char *name = zw_ocm_opt_dup_long_label (zw_ocm_opt_get_nth (k));
      draw_marker (cr, s, k, TRUE, FALSE, x + 10, y + LINE_H / 2);
      zw_painter_text (p, text_x, y + LINE_H / 2, 0, 0.5, w, NULL, name);
    }
  y += 6;
  draw_marker (cr, s, 0, TRUE, FALSE, x + 10, y + LINE_H / 2);
  zw_painter_text (p, text_x, y + LINE_H / 2, 0, 0.5, w, NULL, _("filled: merge on"));
  y += LINE_H;
  draw_marker (cr, s, 0, FALSE, FALSE, x + 10, y + LINE_H / 2);
  zw_painter_text (p, text_x, y + LINE_H / 2, 0, 0.5, w, NULL, _("hollow: merge off"));
  y += LINE_H;
  draw_marker (cr, s, 0, TRUE, TRUE, x + 10, y + LINE_H / 2);
  zw_painter_text (p, text_x, y + LINE_H / 2, 0, 0.5, w, NULL, _("struck through: ETM optimize off"));
  y += LINE_H + 10;
  /* the front: a ring and a piece of the step line */
  zw_cairo_set_color (cr, &s->accent);
  cairo_rectangle (cr, x, y + LINE_H / 2 - 1, 20, 2);
  cairo_fill (cr);
  ring (cr, &s->accent, x + 10, y + LINE_H / 2, 6, 2);
  zw_painter_text (p, text_x, y + LINE_H / 2, 0, 0.5, w, NULL, _("Pareto front (time vs ETM bytes)"));
  y += LINE_H + 4;
  ring (cr, &s->warning, x + 10, y + LINE_H / 2, 7, 2.5);
  zw_painter_text (p, text_x, y + LINE_H / 2, 0, 0.5, w, NULL, _("Recommended: the front's fastest"));
  y += LINE_H + 6;
  if (sweep->recommended >= 0 && (guint) sweep->recommended < sweep->rows->len)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, sweep->recommended);
      g_autofree char *options = row_options (r), *etm = zw_format_bytes (r->etm_bytes);
      g_autofree char *line1 = g_strdup_printf (_("#%u: %.4f ms, %s in ETM"), r->index, r->simulated_ms, etm);
      GdkRGBA dim = s->foreground;

      dim.alpha *= 0.7f;
      zw_painter_text (p, x, y, 0, 0, LEGEND_W, &s->warning, line1);
      zw_painter_text (p, x, y + LINE_H, 0, 0, LEGEND_W, &dim, options);
      zw_painter_text (p, x, y + 2 * LINE_H, 0, 0, LEGEND_W, &dim, row_point (r));
    }
}

/* Row @index marked as selected: dashed lines to both axes and a ring. */
static void
draw_selected (cairo_t *cr, const Geo *g, const ZwSweep *sweep, gint index, const ZwViewStyle *colors)
{
  static const double dash[] = { 3, 3 };
  const ZwSweepRow *r;
  double x, y;

  if (index < 0 || (guint) index >= sweep->rows->len)
    return;
  r = &g_array_index (sweep->rows, ZwSweepRow, index);
  if (!row_plotted (r))
    return;
  x = geo_x (g, (double) r->etm_bytes);
  y = geo_y (g, r->simulated_ms);
  cairo_save (cr);
  zw_cairo_set_color_alpha (cr, &colors->foreground, 0.6);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_move_to (cr, g->x0, round (y) + 0.5);
  cairo_line_to (cr, x - ZW_SWEEP_VIEW_RECOMMENDED_R - 4, round (y) + 0.5);
  cairo_move_to (cr, round (x) + 0.5, g->y1);
  cairo_line_to (cr, round (x) + 0.5, y + ZW_SWEEP_VIEW_RECOMMENDED_R + 4);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  ring (cr, &colors->foreground, x, y, ZW_SWEEP_VIEW_RECOMMENDED_R + 4, 1.5);
  cairo_restore (cr);
}

void
zw_sweep_view_draw (cairo_t *cr, int width, int height, const ZwSweep *sweep, gint selected, const ZwViewStyle *colors)
{
  ZwPainter p;
  GdkRGBA dim;
  Geo g;
  gboolean plotted;

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  if (sweep == NULL)
    {
      zw_draw_empty (&p, width, MIN (height, 200),
                     _("No sweep: use “Sweep Options…” in the main menu, or open a sweep JSON written by "
                       "xrt-run sweep --json"));
      goto out;
    }
  plotted = geo_compute (&g, sweep, width, height);

  /* what was swept */
  {
    guint n_points = MAX (sweep->what_if->len, 1), n_front = 0;
    g_autofree char *title = NULL;
    g_autoptr (GString) points = g_string_new (NULL);

    for (guint i = 0; i < sweep->rows->len; i++)
      n_front += g_array_index (sweep->rows, ZwSweepRow, i).on_front;
    if (n_points == 1)
      title = g_strdup_printf (_("Sweep of %s: %u rows (%u option combinations, one device profile), %u on the "
                                 "front, %u did not run"),
                               sweep->network_name != NULL && *sweep->network_name ? sweep->network_name : "?",
                               sweep->rows->len, sweep->rows->len, n_front, g.n_errors);
    else
      title = g_strdup_printf (_("Sweep of %s: %u rows (%u option combinations × %u what-if points), %u on the "
                                 "front, %u did not run"),
                               sweep->network_name != NULL && *sweep->network_name ? sweep->network_name : "?",
                               sweep->rows->len, sweep->rows->len / n_points, n_points, n_front, g.n_errors);
    for (guint i = 0; i < sweep->what_if->len; i++)
      {
        const char *w = g_ptr_array_index (sweep->what_if, i);
        g_string_append_printf (points, "%s%s", i > 0 ? "; " : "", *w != '\0' ? w : _("device profile as it is"));
      }
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
    {
      g_autofree char *line = g_strdup_printf (_("What-if points: %s"), points->len > 0 ? points->str
                                                                                        : _("device profile as it is"));
      zw_painter_text (&p, MARGIN, MARGIN + LINE_H, 0, 0, width - 2 * MARGIN, &dim, line);
    }
  }

  if (plotted)
    {
      draw_axes (&p, &g);
      cairo_save (cr);
      cairo_rectangle (cr, g.x0 - ZW_SWEEP_VIEW_RECOMMENDED_R - 4, g.y0 - ZW_SWEEP_VIEW_RECOMMENDED_R - 4,
                       g.x1 - g.x0 + 2 * ZW_SWEEP_VIEW_RECOMMENDED_R + 8, g.y1 - g.y0 + 2 * ZW_SWEEP_VIEW_RECOMMENDED_R + 8);
      cairo_clip (cr);
      draw_front (cr, &g, sweep, colors);
      for (guint i = 0; i < sweep->rows->len; i++)
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
          if (row_plotted (r))
            draw_marker (cr, colors, ocm_slot (r->ocm_requested), r->merge_hardop, !r->etm_optimize,
                         geo_x (&g, (double) r->etm_bytes), geo_y (&g, r->simulated_ms));
        }
      for (guint i = 0; i < sweep->rows->len; i++)
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
          if (r->on_front && row_plotted (r))
            ring (cr, &colors->accent, geo_x (&g, (double) r->etm_bytes), geo_y (&g, r->simulated_ms),
                  ZW_SWEEP_VIEW_FRONT_R, 2);
        }
      if (sweep->recommended >= 0 && (guint) sweep->recommended < sweep->rows->len
          && row_plotted (&g_array_index (sweep->rows, ZwSweepRow, sweep->recommended)))
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, sweep->recommended);
          double x = geo_x (&g, (double) r->etm_bytes), y = geo_y (&g, r->simulated_ms);
          g_autofree char *label = g_strdup_printf (_("Recommended #%u"), r->index);
          double w;

          ring (cr, &colors->warning, x, y, ZW_SWEEP_VIEW_RECOMMENDED_R, 2.5);
          zw_painter_set_bold (&p, TRUE);
          w = zw_painter_text_width (&p, label);
          /* beside the ring, inside the plot: to the left when there is no room on the right */
          if (x + ZW_SWEEP_VIEW_RECOMMENDED_R + 4 + w < g.x1)
            zw_painter_text (&p, x + ZW_SWEEP_VIEW_RECOMMENDED_R + 4, MAX (g.y0 + 2, y - ZW_SWEEP_VIEW_RECOMMENDED_R),
                             0, 1, 0, &colors->warning, label);
          else
            zw_painter_text (&p, x - ZW_SWEEP_VIEW_RECOMMENDED_R - 4, MAX (g.y0 + 2, y - ZW_SWEEP_VIEW_RECOMMENDED_R),
                             1, 1, 0, &colors->warning, label);
          zw_painter_set_bold (&p, FALSE);
        }
      draw_selected (cr, &g, sweep, selected, colors);
      cairo_restore (cr);
    }
  else
    zw_draw_empty (&p, width, (int) MIN (height, g.errors_y), _("No row ran: every row of the sweep failed (below)"));
  draw_legend (&p, width - MARGIN - LEGEND_W, g.y0, sweep);

  /* the rows that did not run: apart, with their error */
  if (g.n_errors > 0)
    {
      double y = g.errors_y;
      guint shown = 0;

      zw_painter_set_bold (&p, TRUE);
      zw_painter_text (&p, MARGIN, y, 0, 0, width - 2 * MARGIN, &colors->warning,
                       _("Did not run (not plotted):"));
      zw_painter_set_bold (&p, FALSE);
      y += LINE_H;
      for (guint i = 0; i < sweep->rows->len && shown < MAX_ERROR_LINES; i++)
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
          g_autofree char *options = NULL, *line = NULL;
          if (row_plotted (r))
            continue;
          options = row_options (r);
          line = g_strdup_printf (_("#%u %s (%s): %s"), r->index, options, row_point (r),
                                  r->error != NULL ? r->error : _("no time"));
          zw_painter_text (&p, MARGIN + 12, y, 0, 0, width - 2 * MARGIN - 12, NULL, line);
          y += LINE_H;
          shown++;
        }
      if (g.n_errors > shown)
        {
          g_autofree char *more = g_strdup_printf (ngettext ("… and %u more row (see the table)",
                                                             "… and %u more rows (see the table)", g.n_errors - shown),
                                                   g.n_errors - shown);
          zw_painter_text (&p, MARGIN + 12, y, 0, 0, width - 2 * MARGIN - 12, &dim, more);
        }
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- table rows ---- */

/* A table row: a ZwRowItem whose data is the sweep. */
#define ITEM_SWEEP(item) ((ZwSweep *) (item)->data)

static const ZwSweepRow *
item_row (const ZwRowItem *item)
{
  return &g_array_index (ITEM_SWEEP (item)->rows, ZwSweepRow, item->index);
}

static const char *col_titles[ZW_SWEEP_N_COLUMNS] = {
  N_("#"), N_("Merge"), N_("ETM opt."), N_("OCM option"), N_("Chosen"), N_("What-if"), N_("Sim. ms"), N_("FTMP"),
  N_("OCM peak"), N_("ETM bytes"), N_("Launches"), N_("Checked"), N_("Front"), N_("Error"),
};

static char *
cell_text (const ZwSweep *sweep, guint index, ZwSweepColumn column)
{
  const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, index);
  gboolean ran = r->error == NULL;

  switch (column)
    {
    case ZW_SWEEP_COLUMN_INDEX: return g_strdup_printf ("%u", r->index);
    case ZW_SWEEP_COLUMN_MERGE: return g_strdup (on_off (r->merge_hardop));
    case ZW_SWEEP_COLUMN_ETM_OPTIMIZE: return g_strdup (on_off (r->etm_optimize));
    case ZW_SWEEP_COLUMN_OCM_REQUESTED: return g_strdup (zw_ocm_opt_get_label (r->ocm_requested));
    case ZW_SWEEP_COLUMN_OCM_CHOSEN: return g_strdup (ran ? zw_ocm_opt_get_label (r->ocm_chosen) : "–");
    case ZW_SWEEP_COLUMN_WHAT_IF: return g_strdup (r->what_if != NULL && *r->what_if ? r->what_if : "–");
    case ZW_SWEEP_COLUMN_TIME: return ran ? g_strdup_printf ("%.4f", r->simulated_ms) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_FTMP: return ran ? zw_format_bytes (r->ftmp_bytes) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_OCM_BYTES:
      return !ran ? g_strdup ("–") : r->ocm_peak == G_MAXUINT64 ? g_strdup ("?") : zw_format_bytes (r->ocm_peak);
    case ZW_SWEEP_COLUMN_ETM: return ran ? zw_format_bytes (r->etm_bytes) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_LAUNCHES: return ran ? g_strdup_printf ("%u", r->launches) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_CHECKED: return g_strdup (!ran ? "–" : r->checked ? _("yes") : _("FAILS"));
    case ZW_SWEEP_COLUMN_FRONT:
      return g_strdup ((gint) r->index == sweep->recommended ? _("recommended") : r->on_front ? _("front") : "");
    case ZW_SWEEP_COLUMN_ERROR: return g_strdup (r->error != NULL ? r->error : "");
    case ZW_SWEEP_N_COLUMNS:
    default: g_assert_not_reached ();
    }
}

static int
compare_items (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const ZwRowItem *ia = a, *ib = b;
  const ZwSweepRow *ra = item_row (ia), *rb = item_row (ib);
  ZwSweepColumn column = (ZwSweepColumn) GPOINTER_TO_INT (user_data);
  double x = 0, y = 0;
  int s = 0;

  switch (column)
    {
    case ZW_SWEEP_COLUMN_INDEX: break;
    case ZW_SWEEP_COLUMN_MERGE: x = ra->merge_hardop; y = rb->merge_hardop; break;
    case ZW_SWEEP_COLUMN_ETM_OPTIMIZE: x = ra->etm_optimize; y = rb->etm_optimize; break;
    case ZW_SWEEP_COLUMN_OCM_REQUESTED: x = ra->ocm_requested; y = rb->ocm_requested; break;
    case ZW_SWEEP_COLUMN_OCM_CHOSEN: x = ra->ocm_chosen; y = rb->ocm_chosen; break;
    case ZW_SWEEP_COLUMN_WHAT_IF: s = g_strcmp0 (ra->what_if, rb->what_if); break;
    /* a row that did not run sorts after those that did */
    case ZW_SWEEP_COLUMN_TIME:
      x = ra->error ? G_MAXDOUBLE : ra->simulated_ms;
      y = rb->error ? G_MAXDOUBLE : rb->simulated_ms;
      break;
    case ZW_SWEEP_COLUMN_FTMP:
      x = ra->error ? G_MAXDOUBLE : (double) ra->ftmp_bytes;
      y = rb->error ? G_MAXDOUBLE : (double) rb->ftmp_bytes;
      break;
    case ZW_SWEEP_COLUMN_OCM_BYTES:
      x = ra->error ? G_MAXDOUBLE : (double) ra->ocm_peak;
      y = rb->error ? G_MAXDOUBLE : (double) rb->ocm_peak;
      break;
    case ZW_SWEEP_COLUMN_ETM:
      x = ra->error ? G_MAXDOUBLE : (double) ra->etm_bytes;
      y = rb->error ? G_MAXDOUBLE : (double) rb->etm_bytes;
      break;
    case ZW_SWEEP_COLUMN_LAUNCHES:
      x = ra->error ? G_MAXDOUBLE : ra->launches;
      y = rb->error ? G_MAXDOUBLE : rb->launches;
      break;
    case ZW_SWEEP_COLUMN_CHECKED: x = ra->checked; y = rb->checked; break;
    case ZW_SWEEP_COLUMN_FRONT:
      /* recommended, then the front, then the rest */
      x = (gint) ra->index == ITEM_SWEEP (ia)->recommended ? 0 : ra->on_front ? 1 : 2;
      y = (gint) rb->index == ITEM_SWEEP (ib)->recommended ? 0 : rb->on_front ? 1 : 2;
      break;
    case ZW_SWEEP_COLUMN_ERROR: s = g_strcmp0 (ra->error, rb->error); break;
    case ZW_SWEEP_N_COLUMNS:
    default: g_assert_not_reached ();
    }
  if (s != 0)
    return s < 0 ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  if (x != y)
    return x < y ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* ties keep the sweep's order: a sort is stable and repeatable */
  return ra->index < rb->index ? GTK_ORDERING_SMALLER : ra->index > rb->index ? GTK_ORDERING_LARGER
                                                                              : GTK_ORDERING_EQUAL;
}

/* ---- widget ---- */

struct _ZwSweepView
{
  ZwView parent_instance;
  ZwSweep *sweep;
  gint selected;
  gint hover;
  gboolean syncing;
  GtkWidget *paned;
  GtkWidget *area;
  GtkWidget *open_button;
  GListStore *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *model;
  GtkWidget *column_view;
  GtkColumnViewColumn *columns[ZW_SWEEP_N_COLUMNS];
  guint scroll_idle;
  guint scroll_to;
};

enum { PROP_0, PROP_SELECTED_ROW, N_PROPS };
enum { ROW_ACTIVATED, N_SIGNALS };
static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (ZwSweepView, zw_sweep_view, ZW_TYPE_VIEW)

#define HIT_TOLERANCE 8.0

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwSweepView *self = user_data;

  /* the selection and the hover are the overlay's: the content stays cached */
  zw_sweep_view_draw (cr, width, height, self->sweep, -1, colors);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwSweepView *self = user_data;
  cairo_t *cr;
  Geo g;
  double x, y;

  if (!geo_compute (&g, self->sweep, width, height) || (self->selected < 0 && self->hover < 0))
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->hover >= 0 && zw_sweep_view_row_point (self->sweep, width, height, (guint) self->hover, &x, &y))
    {
      zw_cairo_set_color (cr, &colors->hover);
      cairo_arc (cr, x, y, ZW_SWEEP_VIEW_FRONT_R + 2, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  draw_selected (cr, &g, self->sweep, self->selected, colors);
  cairo_destroy (cr);
}

static gboolean
scroll_idle (gpointer data)
{
  ZwSweepView *self = data;

  self->scroll_idle = 0;
  if (self->scroll_to >= g_list_model_get_n_items (G_LIST_MODEL (self->sorted)))
    return G_SOURCE_REMOVE;
  /* GTK 4.8 has no gtk_column_view_scroll_to: the column view's list has this action */
  for (GtkWidget *c = gtk_widget_get_first_child (self->column_view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_activate_action (c, "list.scroll-to-item", "u", self->scroll_to))
      break;
  return G_SOURCE_REMOVE;
}

static guint
table_position (ZwSweepView *self, gint index)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));

  for (guint i = 0; index >= 0 && i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      if ((gint) item->index == index)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
update_open_button (ZwSweepView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.open", self->selected >= 0);
}

void
zw_sweep_view_select_row (ZwSweepView *self, gint index)
{
  guint pos;

  g_return_if_fail (ZW_IS_SWEEP_VIEW (self));
  if (self->sweep == NULL || index < 0 || (guint) index >= self->sweep->rows->len)
    index = -1;
  if (index == self->selected)
    return;
  self->selected = index;
  zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
  update_open_button (self);
  if (!self->syncing)
    {
      pos = table_position (self, index);
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->model, pos);
      self->syncing = FALSE;
      if (pos != GTK_INVALID_LIST_POSITION)
        {
          self->scroll_to = pos;
          if (self->scroll_idle == 0)
            self->scroll_idle = g_idle_add (scroll_idle, self);
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

gint
zw_sweep_view_get_selected_row (ZwSweepView *self)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), -1);
  return self->selected;
}

gboolean
zw_sweep_view_activate_row (ZwSweepView *self, gint index)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), FALSE);
  if (self->sweep == NULL || index < 0 || (guint) index >= self->sweep->rows->len)
    return FALSE;
  zw_sweep_view_select_row (self, index);
  g_signal_emit (self, signals[ROW_ACTIVATED], 0, (guint) index);
  return TRUE;
}

void
zw_sweep_view_set_sweep (ZwSweepView *self, ZwSweep *sweep)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gint old_selected = self->selected;

  g_return_if_fail (ZW_IS_SWEEP_VIEW (self));
  if (sweep == self->sweep)
    return;
  if (sweep != NULL)
    zw_sweep_ref (sweep);
  g_clear_pointer (&self->sweep, zw_sweep_unref);
  self->sweep = sweep;
  self->hover = -1;
  self->selected = -1;
  for (guint i = 0; sweep != NULL && i < sweep->rows->len; i++)
    {
      g_ptr_array_add (items, zw_row_item_new (sweep, (GBoxedCopyFunc) zw_sweep_ref,
                                               (GDestroyNotify) zw_sweep_unref, i));
    }
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), items->pdata, items->len);
  gtk_single_selection_set_selected (self->model, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
  update_open_button (self);
  /* the recommendation is where to look first */
  zw_sweep_view_select_row (self, sweep != NULL ? sweep->recommended : -1);
  if (self->selected < 0 && old_selected >= 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

ZwSweep *
zw_sweep_view_get_sweep (ZwSweepView *self)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), NULL);
  return self->sweep;
}

gboolean
zw_sweep_view_sort_by (ZwSweepView *self, ZwSweepColumn column, gboolean descending)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), FALSE);
  if ((guint) column >= ZW_SWEEP_N_COLUMNS)
    return FALSE;
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), self->columns[column],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
  return TRUE;
}

guint *
zw_sweep_view_get_table_order (ZwSweepView *self, guint *n_out)
{
  guint n, *order;

  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  order = g_new0 (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      order[i] = item->index;
    }
  if (n_out)
    *n_out = n;
  return order;
}

GPtrArray *
zw_sweep_view_table (ZwSweepView *self)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autofree guint *order = NULL;
  char **header;
  guint n;

  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), table);
  header = g_new0 (char *, ZW_SWEEP_N_COLUMNS + 1);
  for (int c = 0; c < ZW_SWEEP_N_COLUMNS; c++)
    header[c] = g_strdup (_(col_titles[c]));
  g_ptr_array_add (table, header);
  order = zw_sweep_view_get_table_order (self, &n);
  for (guint i = 0; self->sweep != NULL && i < n; i++)
    {
      char **cells = g_new0 (char *, ZW_SWEEP_N_COLUMNS + 1);
      for (int c = 0; c < ZW_SWEEP_N_COLUMNS; c++)
        cells[c] = cell_text (self->sweep, order[i], (ZwSweepColumn) c);
      g_ptr_array_add (table, cells);
    }
  return table;
}

void
zw_sweep_view_render (ZwSweepView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  g_return_if_fail (ZW_IS_SWEEP_VIEW (self));
  zw_sweep_view_draw (cr, width, height, self->sweep, self->selected, colors);
}

gboolean
zw_sweep_view_save (ZwSweepView *self, const char *path, GError **error)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (self->sweep == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: no sweep is shown"), path);
      return FALSE;
    }
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".json"))
    return zw_sweep_save_json (self->sweep, path, error);
  if (g_str_has_suffix (lower, ".csv"))
    return zw_sweep_save_csv (self->sweep, path, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: a sweep is saved as .json or .csv"), path);
  return FALSE;
}

/* ---- events ---- */

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, ZwSweepView *self)
{
  gint hover;

  (void) motion;
  hover = zw_sweep_view_row_at (self->sweep, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x,
                                y, HIT_TOLERANCE);
  if (hover != self->hover)
    {
      self->hover = hover;
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
    }
}

static void
on_leave (GtkEventControllerMotion *motion, ZwSweepView *self)
{
  (void) motion;
  if (self->hover >= 0)
    {
      self->hover = -1;
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
    }
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwSweepView *self)
{
  gint index;

  (void) gesture;
  gtk_widget_grab_focus (self->area);
  /* the second click of a double click does not run the row again */
  if (n_press > 1)
    return;
  index = zw_sweep_view_row_at (self->sweep, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x,
                                y, HIT_TOLERANCE);
  /* a click on a point opens that row: the window deploys and runs it */
  if (index >= 0)
    zw_sweep_view_activate_row (self, index);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, ZwSweepView *self)
{
  g_autofree char *text = NULL;
  gint index;

  (void) widget;
  if (keyboard)
    index = self->selected;
  else
    index = zw_sweep_view_row_at (self->sweep, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x,
                                  y, HIT_TOLERANCE);
  if (index < 0 || (text = zw_sweep_view_describe_row (self->sweep, (guint) index)) == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_table_selected (ZwSweepView *self)
{
  ZwRowItem *item;

  if (self->syncing)
    return;
  item = gtk_single_selection_get_selected_item (self->model);
  self->syncing = TRUE;
  zw_sweep_view_select_row (self, item != NULL ? (gint) item->index : -1);
  self->syncing = FALSE;
}

static void
on_table_activate (GtkColumnView *view, guint position, ZwSweepView *self)
{
  g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  (void) view;
  if (item != NULL)
    zw_sweep_view_activate_row (self, (gint) item->index);
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  ZwSweepColumn c = (ZwSweepColumn) GPOINTER_TO_INT (data);
  gboolean text = c == ZW_SWEEP_COLUMN_WHAT_IF || c == ZW_SWEEP_COLUMN_ERROR || c == ZW_SWEEP_COLUMN_OCM_REQUESTED
                  || c == ZW_SWEEP_COLUMN_OCM_CHOSEN || c == ZW_SWEEP_COLUMN_FRONT;

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label), text ? 0 : 1);
  /* figures are never cut (the table scrolls sideways); the long texts are, whole on hover */
  if (c == ZW_SWEEP_COLUMN_WHAT_IF || c == ZW_SWEEP_COLUMN_ERROR)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  ZwRowItem *row = gtk_list_item_get_item (item);
  g_autofree char *text = cell_text (ITEM_SWEEP (row), row->index, (ZwSweepColumn) GPOINTER_TO_INT (data));
  GtkWidget *label = gtk_list_item_get_child (item);

  (void) factory;
  gtk_label_set_text (GTK_LABEL (label), text);
  /* the full text on hover: the column is narrow */
  gtk_widget_set_tooltip_text (label, (GPOINTER_TO_INT (data) == ZW_SWEEP_COLUMN_ERROR
                                       || GPOINTER_TO_INT (data) == ZW_SWEEP_COLUMN_WHAT_IF) && *text ? text : NULL);
}

static void
action_move (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (widget);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  guint pos = table_position (self, self->selected), target;
  g_autoptr (ZwRowItem) item = NULL;

  (void) param;
  if (n == 0)
    return;
  /* in the table's order, so the keys walk the rows as the table lists them */
  if (g_str_equal (action_name, "sweep.first") || (pos == GTK_INVALID_LIST_POSITION && g_str_equal (action_name, "sweep.next")))
    target = 0;
  else if (g_str_equal (action_name, "sweep.last") || pos == GTK_INVALID_LIST_POSITION)
    target = n - 1;
  else if (g_str_equal (action_name, "sweep.next"))
    target = MIN (pos + 1, n - 1);
  else
    target = pos > 0 ? pos - 1 : 0;
  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), target);
  zw_sweep_view_select_row (self, (gint) item->index);
}

static void
action_open (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (widget);

  (void) action_name;
  (void) param;
  zw_sweep_view_activate_row (self, self->selected);
}

static void
zw_sweep_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ROW: g_value_set_int (value, self->selected); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_sweep_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ROW: zw_sweep_view_select_row (self, g_value_get_int (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_sweep_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  /* a sweep's rows are runs, not ops or values: the shared selection does not move them */
  (void) view;
  (void) pspec;
}

static void
zw_sweep_view_dispose (GObject *object)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  self->area = NULL;
  self->open_button = NULL;
  self->column_view = NULL;
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->sweep, zw_sweep_unref);
  G_OBJECT_CLASS (zw_sweep_view_parent_class)->dispose (object);
}

/* the view's content for exports (zw_view_render) */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  zw_sweep_view_render (ZW_SWEEP_VIEW (view), cr, width, height, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  return zw_sweep_view_table (ZW_SWEEP_VIEW (view));
}

static void
zw_sweep_view_class_init (ZwSweepViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_Up, "sweep.previous" },   { GDK_KEY_Left, "sweep.previous" }, { GDK_KEY_KP_Up, "sweep.previous" },
    { GDK_KEY_Down, "sweep.next" },     { GDK_KEY_Right, "sweep.next" },    { GDK_KEY_KP_Down, "sweep.next" },
    { GDK_KEY_Home, "sweep.first" },    { GDK_KEY_End, "sweep.last" },      { GDK_KEY_Return, "sweep.open" },
    { GDK_KEY_KP_Enter, "sweep.open" }, { GDK_KEY_space, "sweep.open" },
  };

  object_class->dispose = zw_sweep_view_dispose;
  object_class->get_property = zw_sweep_view_get_property;
  object_class->set_property = zw_sweep_view_set_property;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_sweep_view_selection_notify;

  properties[PROP_SELECTED_ROW] = g_param_spec_int ("selected-row", NULL, NULL, -1, G_MAXINT, -1,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[ROW_ACTIVATED] = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "sweep.previous", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.next", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.first", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.last", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.open", NULL, action_open);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, 0, keys[i].action, NULL);
  gtk_widget_class_set_css_name (widget_class, "zwsweepview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "sweep", N_("Sweep"), N_("Sweep view"), ZW_VIEW_DATA_SWEEP);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_sweep_view_init (ZwSweepView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .released = G_CALLBACK (on_released),
  };
  GtkWidget *top, *bar, *hint, *save, *scrolled;

  self->selected = -1;
  self->hover = -1;

  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 560, 300);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);

  /* what a click does, and the buttons that do it without the mouse */
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 8);
  gtk_widget_set_margin_end (bar, 8);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  hint = gtk_label_new (_("Click a point, or Enter on a row, to deploy and run it: every view then shows that run."));
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_ellipsize (GTK_LABEL (hint), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (hint, TRUE);
  gtk_widget_add_css_class (hint, "dim-label");
  self->open_button = gtk_button_new_with_mnemonic (_("_Run Selected Row"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "sweep.open");
  save = gtk_button_new_with_mnemonic (_("_Save or Export…"));
  gtk_widget_set_tooltip_text (save, _("The sweep as JSON or CSV (as xrt-run sweep writes it), the plot as PNG, SVG "
                                       "or PDF"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (save), "win.export");
  gtk_box_append (GTK_BOX (bar), hint);
  gtk_box_append (GTK_BOX (bar), self->open_button);
  gtk_box_append (GTK_BOX (bar), save);
  top = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (top), bar);
  gtk_box_append (GTK_BOX (top), self->area);

  /* the table: a sort model under the column view's own sorter, one sorter per column */
  self->store = g_list_store_new (ZW_TYPE_ROW_ITEM);
  self->column_view = gtk_column_view_new (NULL);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  self->model = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->model, FALSE);
  gtk_single_selection_set_can_unselect (self->model, TRUE);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_table_selected), self);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->model));
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_table_activate), self);
  for (int c = 0; c < ZW_SWEEP_N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare_items, GINT_TO_POINTER (c), NULL));

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (c));
      self->columns[c] = gtk_column_view_column_new (_(col_titles[c]), factory);
      gtk_column_view_column_set_sorter (self->columns[c], sorter);
      g_object_unref (sorter);
      gtk_column_view_column_set_resizable (self->columns[c], TRUE);
      gtk_column_view_column_set_expand (self->columns[c], c == ZW_SWEEP_COLUMN_ERROR);
      if (c == ZW_SWEEP_COLUMN_WHAT_IF)
        gtk_column_view_column_set_fixed_width (self->columns[c], 150);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), self->columns[c]);
      g_object_unref (self->columns[c]);   /* the column view holds it */
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->column_view);
  gtk_widget_set_size_request (scrolled, -1, 120);

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), top);
  gtk_paned_set_end_child (GTK_PANED (self->paned), scrolled);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  update_open_button (self);
}

GtkWidget *
zw_sweep_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_SWEEP_VIEW, "selection", selection, NULL);
}
