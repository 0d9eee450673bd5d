/* zw-sweep-plot.c — a sweep drawn with plain cairo: the title, the scatter of time vs ETM
 * bytes with its markers, the Pareto front and the recommendation, the legend, the rows that
 * did not run. */
#include "zw-sweep-view-private.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

/* The theme's five segment colours, in turn; with the shapes below no two of the first 30
 * slots look alike. */
static const GdkRGBA *
slot_color (const ZwViewStyle *colors, guint slot)
{
  return &colors->segment[slot % ZW_N_SEGMENTS];
}

gboolean
zw_sweep_colors_by_point (const ZwSweep *sweep)
{
  return sweep != NULL && sweep->what_if->len > 1;
}

guint
zw_sweep_row_color_slot (const ZwSweep *sweep, const ZwSweepRow *r)
{
  gint point;

  if (!zw_sweep_colors_by_point (sweep))
    return zw_sweep_ocm_slot (r->ocm_requested);
  point = zw_sweep_point_of_row (sweep, r);
  return point >= 0 ? (guint) point : 0;
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

/* One row's marker: shape by OCM option, colour by @color_slot (the OCM option's slot, or
 * the row's what-if point over several), filled for merge on, struck through for ETM
 * optimize off. */
static void
draw_marker (cairo_t *cr, const ZwViewStyle *colors, guint slot, guint color_slot, gboolean filled, gboolean struck,
             double x, double y)
{
  const GdkRGBA *c = slot_color (colors, color_slot);
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
draw_axes (ZwPainter *p, const ZwSweepGeo *g)
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
      double x = round (zw_sweep_geo_x (g, v)) + 0.5;
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
      double y = round (zw_sweep_geo_y (g, v)) + 0.5;
      g_autofree char *label = g_strdup_printf (_("%.*f ms"), dec, v);
      zw_cairo_set_color (cr, &p->style->grid);
      cairo_rectangle (cr, g->x0, y - 0.5, g->x1 - g->x0, 1);
      cairo_fill (cr);
      zw_painter_text (p, g->x0 - 6, y, 1, 0.5, SWEEP_TICKS_W - 8, &dim, label);
    }
  /* the frame */
  zw_cairo_set_color (cr, &p->style->foreground);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, g->x0 + 0.5, g->y0 + 0.5, g->x1 - g->x0 - 1, g->y1 - g->y0 - 1);
  cairo_stroke (cr);
  cairo_restore (cr);
  zw_painter_text (p, g->x0, g->y0 - 4, 0, 1, g->x1 - g->x0, &dim, _("Simulated time per forward (ms)"));
  zw_painter_text (p, (g->x0 + g->x1) / 2, g->y1 + 4 + SWEEP_LINE_H, 0.5, 0, g->x1 - g->x0, &dim,
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
draw_front (cairo_t *cr, const ZwSweepGeo *g, const ZwSweep *sweep, const ZwViewStyle *colors)
{
  g_autoptr (GPtrArray) front = g_ptr_array_new ();

  for (guint i = 0; i < sweep->rows->len; i++)
    {
      ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      if (r->on_front && zw_sweep_row_plotted (r))
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
      double x = zw_sweep_geo_x (g, (double) r->etm_bytes), y = zw_sweep_geo_y (g, r->simulated_ms);
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
  const double text_x = x + 26, w = SWEEP_LEGEND_W - 26;
  gboolean by_point = zw_sweep_colors_by_point (sweep);

  zw_painter_set_bold (p, TRUE);
  zw_painter_text (p, x, y, 0, 0, SWEEP_LEGEND_W, NULL, by_point ? _("Shape: OCM option requested")
                                                                : _("OCM option requested"));
  zw_painter_set_bold (p, FALSE);
  y += SWEEP_LINE_H;
  for (guint k = 0; k < zw_ocm_opt_get_count (); k++, y += SWEEP_LINE_H)
    {
      g_autofree char *name = zw_ocm_opt_dup_long_label (zw_ocm_opt_get_nth (k));
      draw_marker (cr, s, k, by_point ? ZW_N_SEGMENTS - 1 : k, TRUE, FALSE, x + 10, y + SWEEP_LINE_H / 2);
      zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL, name);
    }
  if (by_point)
    {
      /* colour: the what-if point, each with its own recommendation */
      y += 6;
      zw_painter_set_bold (p, TRUE);
      zw_painter_text (p, x, y, 0, 0, SWEEP_LEGEND_W, NULL, _("Colour: what-if point"));
      zw_painter_set_bold (p, FALSE);
      y += SWEEP_LINE_H;
      for (guint k = 0; k < sweep->what_if->len; k++, y += SWEEP_LINE_H)
        {
          const char *point = g_ptr_array_index (sweep->what_if, k);
          draw_marker (cr, s, 0, k, TRUE, FALSE, x + 10, y + SWEEP_LINE_H / 2);
          zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL,
                           *point != '\0' ? point : _("device profile as it is"));
        }
    }
  y += 6;
  draw_marker (cr, s, 0, 0, TRUE, FALSE, x + 10, y + SWEEP_LINE_H / 2);
  zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL, _("filled: merge on"));
  y += SWEEP_LINE_H;
  draw_marker (cr, s, 0, 0, FALSE, FALSE, x + 10, y + SWEEP_LINE_H / 2);
  zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL, _("hollow: merge off"));
  y += SWEEP_LINE_H;
  draw_marker (cr, s, 0, 0, TRUE, TRUE, x + 10, y + SWEEP_LINE_H / 2);
  zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL, _("struck through: ETM optimize off"));
  y += SWEEP_LINE_H + 10;
  /* the front: a ring and a piece of the step line */
  zw_cairo_set_color (cr, &s->accent);
  cairo_rectangle (cr, x, y + SWEEP_LINE_H / 2 - 1, 20, 2);
  cairo_fill (cr);
  ring (cr, &s->accent, x + 10, y + SWEEP_LINE_H / 2, 6, 2);
  zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL, _("Pareto front (time vs ETM bytes)"));
  y += SWEEP_LINE_H + 4;
  ring (cr, &s->warning, x + 10, y + SWEEP_LINE_H / 2, 7, 2.5);
  zw_painter_text (p, text_x, y + SWEEP_LINE_H / 2, 0, 0.5, w, NULL,
                   by_point ? _("Recommended: the fastest at each what-if point") : _("Recommended: the front's fastest"));
  y += SWEEP_LINE_H + 6;
  /* over several points: the recommendation for the device as profiled (the first point) */
  if (zw_sweep_recommended_at (sweep, 0) >= 0 && (guint) zw_sweep_recommended_at (sweep, 0) < sweep->rows->len)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, zw_sweep_recommended_at (sweep, 0));
      g_autofree char *options = zw_sweep_row_options (r), *etm = zw_format_bytes (r->etm_bytes);
      g_autofree char *line1 = g_strdup_printf (_("#%u: %.4f ms, %s in ETM"), r->index, r->simulated_ms, etm);
      GdkRGBA dim = s->foreground;

      dim.alpha *= 0.7f;
      zw_painter_text (p, x, y, 0, 0, SWEEP_LEGEND_W, &s->warning, line1);
      zw_painter_text (p, x, y + SWEEP_LINE_H, 0, 0, SWEEP_LEGEND_W, &dim, options);
      zw_painter_text (p, x, y + 2 * SWEEP_LINE_H, 0, 0, SWEEP_LEGEND_W, &dim, zw_sweep_row_point (r));
    }
}

/* Row @index marked as selected: dashed lines to both axes and a ring. */
void
zw_sweep_draw_selected (cairo_t *cr, const ZwSweepGeo *g, const ZwSweep *sweep, gint index, const ZwViewStyle *colors)
{
  static const double dash[] = { 3, 3 };
  const ZwSweepRow *r;
  double x, y;

  if (index < 0 || (guint) index >= sweep->rows->len)
    return;
  r = &g_array_index (sweep->rows, ZwSweepRow, index);
  if (!zw_sweep_row_plotted (r))
    return;
  x = zw_sweep_geo_x (g, (double) r->etm_bytes);
  y = zw_sweep_geo_y (g, r->simulated_ms);
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
  ZwSweepGeo g;
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
  plotted = zw_sweep_geo_compute (&g, sweep, width, height);

  /* what was swept */
  {
    guint n_points = MAX (sweep->what_if->len, 1), n_front = 0;
    g_autofree char *title = NULL;
    g_autoptr (GString) points = g_string_new (NULL);

    for (guint i = 0; i < sweep->rows->len; i++)
      n_front += g_array_index (sweep->rows, ZwSweepRow, i).on_front;
    if (n_points == 1)
      title = g_strdup_printf (ngettext ("Sweep of %s: %u row (%u option combination, one device profile), %u on "
                                         "the front, %u did not run",
                                         "Sweep of %s: %u rows (%u option combinations, one device profile), %u on "
                                         "the front, %u did not run", sweep->rows->len),
                               sweep->network_name != NULL && *sweep->network_name ? sweep->network_name : "?",
                               sweep->rows->len, sweep->rows->len, n_front, g.n_errors);
    else
      title = g_strdup_printf (ngettext ("Sweep of %s: %u row (%u option combinations × %u what-if points), %u on "
                                         "the front, %u did not run",
                                         "Sweep of %s: %u rows (%u option combinations × %u what-if points), %u on "
                                         "the front, %u did not run", sweep->rows->len),
                               sweep->network_name != NULL && *sweep->network_name ? sweep->network_name : "?",
                               sweep->rows->len, sweep->rows->len / n_points, n_points, n_front, g.n_errors);
    for (guint i = 0; i < sweep->what_if->len; i++)
      {
        const char *w = g_ptr_array_index (sweep->what_if, i);
        g_string_append_printf (points, "%s%s", i > 0 ? "; " : "", *w != '\0' ? w : _("device profile as it is"));
      }
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, SWEEP_MARGIN, SWEEP_MARGIN, 0, 0, width - 2 * SWEEP_MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
    {
      g_autofree char *line = g_strdup_printf (_("What-if points: %s"), points->len > 0 ? points->str
                                                                                        : _("device profile as it is"));
      zw_painter_text (&p, SWEEP_MARGIN, SWEEP_MARGIN + SWEEP_LINE_H, 0, 0, width - 2 * SWEEP_MARGIN, &dim, line);
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
          if (zw_sweep_row_plotted (r))
            draw_marker (cr, colors, zw_sweep_ocm_slot (r->ocm_requested), zw_sweep_row_color_slot (sweep, r),
                         r->merge_hardop, !r->etm_optimize, zw_sweep_geo_x (&g, (double) r->etm_bytes),
                         zw_sweep_geo_y (&g, r->simulated_ms));
        }
      for (guint i = 0; i < sweep->rows->len; i++)
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
          if (r->on_front && zw_sweep_row_plotted (r))
            ring (cr, &colors->accent, zw_sweep_geo_x (&g, (double) r->etm_bytes), zw_sweep_geo_y (&g, r->simulated_ms),
                  ZW_SWEEP_VIEW_FRONT_R, 2);
        }
      /* a recommendation per what-if point (one over a single point) */
      for (guint i = 0; i < sweep->rows->len; i++)
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
          double x, y, w;
          g_autofree char *label = NULL;

          if (!zw_sweep_row_is_recommended (sweep, r) || !zw_sweep_row_plotted (r))
            continue;
          x = zw_sweep_geo_x (&g, (double) r->etm_bytes);
          y = zw_sweep_geo_y (&g, r->simulated_ms);
          label = g_strdup_printf (_("Recommended #%u"), r->index);
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
      zw_sweep_draw_selected (cr, &g, sweep, selected, colors);
      cairo_restore (cr);
    }
  else
    zw_draw_empty (&p, width, (int) MIN (height, g.errors_y), _("No row ran: every row of the sweep failed (below)"));
  draw_legend (&p, width - SWEEP_MARGIN - SWEEP_LEGEND_W, g.y0, sweep);

  /* the rows that did not run: apart, with their error */
  if (g.n_errors > 0)
    {
      double y = g.errors_y;
      guint shown = 0;

      zw_painter_set_bold (&p, TRUE);
      zw_painter_text (&p, SWEEP_MARGIN, y, 0, 0, width - 2 * SWEEP_MARGIN, &colors->warning,
                       _("Did not run (not plotted):"));
      zw_painter_set_bold (&p, FALSE);
      y += SWEEP_LINE_H;
      for (guint i = 0; i < sweep->rows->len && shown < SWEEP_MAX_ERROR_LINES; i++)
        {
          const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
          g_autofree char *options = NULL, *line = NULL;
          if (zw_sweep_row_plotted (r))
            continue;
          options = zw_sweep_row_options (r);
          line = g_strdup_printf (_("#%u %s (%s): %s"), r->index, options, zw_sweep_row_point (r),
                                  r->error != NULL ? r->error : _("no time"));
          zw_painter_text (&p, SWEEP_MARGIN + 12, y, 0, 0, width - 2 * SWEEP_MARGIN - 12, NULL, line);
          y += SWEEP_LINE_H;
          shown++;
        }
      if (g.n_errors > shown)
        {
          g_autofree char *more = g_strdup_printf (ngettext ("… and %u more row (see the table)",
                                                             "… and %u more rows (see the table)", g.n_errors - shown),
                                                   g.n_errors - shown);
          zw_painter_text (&p, SWEEP_MARGIN + 12, y, 0, 0, width - 2 * SWEEP_MARGIN - 12, &dim, more);
        }
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}
