/* zw-ocm-view.c — OCM option costs and picks, and OCM occupancy over time. */
#include "zw-ocm-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#define MARGIN 8.0
#define LABEL_W 84.0
#define N_ROWS ZW_OCM_N_SLOTS   /* NONE and the planners: row = option number */

typedef struct {
  double title_y;
  double row_y[N_ROWS];
  double row_h;
  double bar_x, bar_w_max;
  double cost_max;
  double occ_x, occ_y, occ_w, occ_h; /* occupancy plot */
  double occ_max;
  double zs, ze;
} OcmLayout;

/* One horizontal step of the occupancy: ops in a row with the same bytes. */
typedef struct {
  double x0, x1, y;
} OccStep;

#define OCC_STRIP_W 64.0   /* the occupancy area is filled in strips this wide (pixels) */

static const ZwOcmOptionResult *
find_option (const ZwDeployReport *report, ZwOcmOpt option)
{
  for (guint i = 0; i < report->ocm_options->len; i++)
    if (g_array_index (report->ocm_options, ZwOcmOptionResult, i).option == option)
      return &g_array_index (report->ocm_options, ZwOcmOptionResult, i);
  return NULL;
}

static double
row_cost (const ZwDeployReport *report, int row)
{
  const ZwOcmOptionResult *o;

  if (row == 0)
    return report->none_cost_ms;
  o = find_option (report, (ZwOcmOpt) row);
  return o != NULL ? o->cost_ms : -1;
}

static void
ocm_layout (const ZwDeployReport *report, ZwSelection *selection, int width, int height, const ZwViewStyle *style,
            OcmLayout *l)
{
  double line = style->font_size * 1.5;
  double top = MARGIN + 1.5 * line;
  double bars_h = MAX (N_ROWS * 28.0, (height - top - MARGIN) * 0.45);

  l->title_y = MARGIN;
  l->row_h = bars_h / N_ROWS;
  for (int r = 0; r < N_ROWS; r++)
    l->row_y[r] = top + r * l->row_h;
  l->bar_x = MARGIN + LABEL_W;
  /* Leave room after the longest bar for its figures. */
  l->bar_w_max = MAX (20.0, (width - l->bar_x - MARGIN) * 0.55);
  l->cost_max = 0;
  for (int r = 0; r < N_ROWS; r++)
    l->cost_max = MAX (l->cost_max, row_cost (report, r));
  if (l->cost_max <= 0)
    l->cost_max = 1;

  l->occ_x = MARGIN + LABEL_W;
  l->occ_y = top + bars_h + 2 * line;
  l->occ_w = MAX (20.0, width - l->occ_x - MARGIN);
  l->occ_h = MAX (10.0, height - l->occ_y - MARGIN - line);
  l->occ_max = MAX (1.0, (double) report->ocm_capacity);
  if (selection != NULL && zw_selection_get_report (selection) == report)
    {
      l->zs = zw_selection_get_zoom_start (selection);
      l->ze = zw_selection_get_zoom_end (selection);
    }
  else
    {
      l->zs = 0;
      l->ze = MAX (1.0, (double) report->ops->len);
    }
}

static void
bar_rect (const OcmLayout *l, int row, double cost, graphene_rect_t *r)
{
  double h = l->row_h * 0.5;
  graphene_rect_init (r, l->bar_x, l->row_y[row] + 2, MAX (1.0, cost / l->cost_max * l->bar_w_max), h);
}

gboolean
zw_ocm_view_get_bar_rect (ZwDeployReport *report, int width, int height, ZwOcmOpt option, graphene_rect_t *rect)
{
  ZwViewStyle style;
  OcmLayout l;
  double cost;

  g_return_val_if_fail (report != NULL && rect != NULL, FALSE);

  if (option < ZW_OCM_NONE || option >= N_ROWS || (cost = row_cost (report, option)) < 0)
    return FALSE;
  zw_view_style_init_default (&style);
  ocm_layout (report, NULL, width, height, &style, &l);
  bar_rect (&l, option, cost, rect);
  return TRUE;
}

static int
compare_span (gconstpointer a, gconstpointer b)
{
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static void
draw_picks (cairo_t *cr, const ZwDeployReport *report, const OcmLayout *l, int row, const ZwOcmOptionResult *o,
            const GdkRGBA *color)
{
  double y = l->row_y[row] + 4 + l->row_h * 0.5;
  double h = MAX (2.0, l->row_h * 0.22);
  double n = MAX (1.0, (double) report->ops->len);
  double w = l->bar_w_max;
  g_autoptr (GArray) spans = g_array_sized_new (FALSE, FALSE, 2 * sizeof (double), o->picks->len);
  double run0 = 0, run1 = 0;

  /* A strip over the whole run (op index) with the lifetime of every picked chunk. */
  zw_cairo_set_color_alpha (cr, color, 0.15);
  cairo_rectangle (cr, l->bar_x, y, w, h);
  cairo_fill (cr);
  for (guint i = 0; i < o->picks->len; i++)
    {
      const ZwChunkInfo *c = zw_deploy_report_find_chunk (report, g_array_index (o->picks, gint64, i));
      double span[2];
      if (c == NULL)
        continue;
      span[0] = floor (l->bar_x + c->first / n * w);
      span[1] = span[0] + MAX (1.0, round (l->bar_x + (c->last + 1) / n * w) - span[0]);
      g_array_append_val (spans, span);
    }
  /* The spans have whole-pixel ends and one height: overlapping or touching ones are filled
   * as their union, the same pixels as one rectangle each. */
  g_array_sort (spans, compare_span);
  for (guint i = 0; i < spans->len; i++)
    {
      const double *span = &g_array_index (spans, double, 2 * i);
      if (i > 0 && span[0] <= run1)
        {
          run1 = MAX (run1, span[1]);
          continue;
        }
      if (i > 0)
        cairo_rectangle (cr, run0, y, run1 - run0, h);
      run0 = span[0];
      run1 = span[1];
    }
  if (spans->len > 0)
    cairo_rectangle (cr, run0, y, run1 - run0, h);
  zw_cairo_set_color (cr, color);
  cairo_fill (cr);
}

/* A report of a network whose compiler placed every value (Buyi): there are no OCM options
 * and no estimates, only the compiler's OCM addresses. */
static gboolean
placed_by_compiler (const ZwDeployReport *report)
{
  return g_strcmp0 (report->etm_method, "compiler-placed") == 0 || g_strcmp0 (report->etm_method, "compiler") == 0;
}

char *
zw_ocm_view_dup_title (const ZwDeployReport *report)
{
  g_autofree char *cap = NULL, *peak = NULL;

  g_return_val_if_fail (report != NULL, NULL);
  cap = zw_format_bytes (report->ocm_capacity);
  peak = zw_format_bytes (zw_deploy_report_ocm_peak (report));
  if (placed_by_compiler (report))
    /* TRANSLATORS: the OCM peak of the OCM size of a network whose compiler placed it */
    return g_strdup_printf (_("OCM peak %s / %s · placed by the compiler: no OCM options, no estimates"), peak, cap);
  /* TRANSLATORS: the chosen placement's OCM peak of the OCM size, then the option asked for
   * and the one used */
  return g_strdup_printf (_("OCM peak %s / %s · asked %s, chosen %s"), peak, cap,
                          zw_ocm_opt_get_label (report->ocm_requested), zw_ocm_opt_get_label (report->ocm_chosen));
}

char *
zw_ocm_view_dup_option_figures (const ZwDeployReport *report, ZwOcmOpt option)
{
  const ZwOcmOptionResult *o;
  g_autofree char *peak = NULL, *cap = NULL, *placed = NULL;
  double cost, gain;

  g_return_val_if_fail (report != NULL, NULL);
  if (option < ZW_OCM_NONE || option >= N_ROWS || placed_by_compiler (report)
      || (cost = row_cost (report, option)) < 0)
    return NULL;
  if (option == ZW_OCM_NONE)
    return g_strdup_printf (_("%.3f ms without OCM"), cost);
  if ((o = find_option (report, option)) == NULL)
    return NULL;
  peak = zw_format_bytes (o->peak_bytes);
  cap = zw_format_bytes (report->ocm_capacity);
  placed = zw_format_bytes (o->bytes);
  gain = report->none_cost_ms > 0 ? 100.0 * (report->none_cost_ms - cost) / report->none_cost_ms : 0;
  /* TRANSLATORS: the option's method ("global score"), its estimated time and gain, its OCM
   * peak of the OCM size, then its chunks and the bytes they add up to over the whole run */
  return g_strdup_printf (ngettext ("%s: %.3f ms (%+.0f%%), OCM peak %s / %s; %u chunk, %s placed over time",
                                    "%s: %.3f ms (%+.0f%%), OCM peak %s / %s; %u chunks, %s placed over time",
                                    o->picks->len),
                          zw_ocm_opt_get_method (option), cost, -gain, peak, cap, o->picks->len, placed);
}

void
zw_ocm_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                  const ZwViewStyle *colors)
{
  ZwPainter p;
  OcmLayout l;
  GdkRGBA dim, neutral;

  g_return_if_fail (cr != NULL && colors != NULL);

  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  neutral = zw_rgba_mix (&colors->background, &colors->foreground, 0.35);

  if (report == NULL)
    {
      zw_draw_empty (&p, width, height, _("No deploy report"));
      goto out;
    }
  ocm_layout (report, selection, width, height, colors, &l);

  {
    g_autofree char *title = zw_ocm_view_dup_title (report);
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN, l.title_y, 0, 0, width - 2 * MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
  }

  for (int row = 0; row < N_ROWS; row++)
    {
      const ZwOcmOptionResult *o = row > 0 ? find_option (report, (ZwOcmOpt) row) : NULL;
      gboolean chosen = report->ocm_chosen == (ZwOcmOpt) row;
      double cost = row_cost (report, row);
      g_autofree char *figures = NULL;
      graphene_rect_t r;

      zw_painter_set_bold (&p, chosen);
      zw_painter_text (&p, MARGIN, l.row_y[row] + 2 + l.row_h * 0.25, 0, 0.5, LABEL_W - 6, chosen ? &colors->accent : NULL,
                       zw_ocm_opt_get_label ((ZwOcmOpt) row));
      if (cost < 0 || placed_by_compiler (report))
        {
          zw_painter_set_bold (&p, FALSE);
          zw_painter_text (&p, l.bar_x, l.row_y[row] + 2 + l.row_h * 0.25, 0, 0.5, 0, &dim,
                           placed_by_compiler (report) ? _("not an option: the compiler placed every value")
                                                       : _("not computed"));
          continue;
        }
      bar_rect (&l, row, cost, &r);
      zw_cairo_set_color (cr, chosen ? &colors->accent : &neutral);
      cairo_rectangle (cr, r.origin.x, r.origin.y, r.size.width, r.size.height);
      cairo_fill (cr);

      figures = zw_ocm_view_dup_option_figures (report, (ZwOcmOpt) row);
      if (o != NULL)
        draw_picks (cr, report, &l, row, o, chosen ? &colors->accent : &colors->ocm);
      if (chosen)
        {
          g_autofree char *tmp = figures;
          figures = g_strdup_printf (_("%s — chosen"), tmp);
        }
      zw_painter_text (&p, r.origin.x + r.size.width + 6, r.origin.y + r.size.height / 2, 0, 0.5,
                       width - (r.origin.x + r.size.width + 6) - MARGIN, chosen ? &colors->accent : NULL, figures);
      zw_painter_set_bold (&p, FALSE);
    }

  /* Occupancy over op index against the capacity. */
  {
    guint n;
    g_autofree guint64 *live = zw_deploy_report_live_bytes (report, TRUE, &n);
    double step;

    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN, l.occ_y - colors->font_size * 1.6, 0, 0, width - 2 * MARGIN, &dim,
                     _("OCM occupancy over time"));
    zw_painter_set_bold (&p, FALSE);

    for (guint i = 0; i < n; i++)
      l.occ_max = MAX (l.occ_max, (double) live[i]);
    step = zw_nice_bytes_step (l.occ_max, MAX (2, (int) (l.occ_h / 36)));
    cairo_set_line_width (cr, 1);
    for (double b = 0; b <= l.occ_max * 1.0001; b += step)
      {
        g_autofree char *label = zw_format_axis_bytes (b, l.occ_max);
        double y = round (l.occ_y + l.occ_h - b / l.occ_max * l.occ_h) + 0.5;
        zw_cairo_set_color (cr, &colors->grid);
        cairo_move_to (cr, l.occ_x, y);
        cairo_line_to (cr, l.occ_x + l.occ_w, y);
        cairo_stroke (cr);
        zw_painter_text (&p, l.occ_x - 4, y, 1, 0.5, LABEL_W - 8, &dim, label);
      }

    cairo_save (cr);
    cairo_rectangle (cr, l.occ_x, l.occ_y, l.occ_w, l.occ_h);
    cairo_clip (cr);
    /* A step area: one column per op index, merged when several land on one pixel. */
    /* Ops in a row with the same bytes make one horizontal step: only its ends go into the
     * path (the points between are on the line, so the pixels are the same). */
    {
      g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (OccStep));
      OccStep run = { 0, 0, 0 };
      gboolean have = FALSE;
      double right = l.occ_x + l.occ_w, bottom = l.occ_y + l.occ_h;

      for (guint i = 0; i < n; i++)
        {
          double x0 = l.occ_x + (i - l.zs) / (l.ze - l.zs) * l.occ_w;
          double x1 = l.occ_x + (i + 1 - l.zs) / (l.ze - l.zs) * l.occ_w;
          double y = l.occ_y + l.occ_h - live[i] / l.occ_max * l.occ_h;
          if (x1 < l.occ_x || x0 > right)
            continue;
          if (have && y == run.y && x0 == run.x1)
            {
              run.x1 = x1;
              continue;
            }
          if (have)
            g_array_append_val (steps, run);
          run.x0 = x0;
          run.x1 = x1;
          run.y = y;
          have = TRUE;
        }
      if (have)
        g_array_append_val (steps, run);
      zw_cairo_set_color (cr, &colors->ocm);
      if (steps->len > 0 && g_array_index (steps, OccStep, 0).x0 <= l.occ_x
          && g_array_index (steps, OccStep, steps->len - 1).x1 >= right)
        {
          /* The steps cover the plot from side to side: the area is filled in strips of
           * whole pixels, each clipped to its strip and closed down to the axis just outside
           * it. Inside a strip the area is the same, so are the pixels; cairo's scan
           * converter, whose work grows with the edges that cross a pixel row, has a strip's
           * edges to sort instead of the whole run's (a 10,000-op run has ~10,000 steps). */
          guint first = 0;
          for (double a = l.occ_x; a < right; a += OCC_STRIP_W)
            {
              double b = MIN (right, a + OCC_STRIP_W);
              guint k;

              while (first + 1 < steps->len && g_array_index (steps, OccStep, first).x1 < a)
                first++;
              cairo_save (cr);
              cairo_rectangle (cr, a, l.occ_y, b - a, l.occ_h);
              cairo_clip (cr);
              cairo_move_to (cr, g_array_index (steps, OccStep, first).x0, bottom);
              for (k = first; k < steps->len; k++)
                {
                  const OccStep *s = &g_array_index (steps, OccStep, k);
                  cairo_line_to (cr, s->x0, s->y);
                  cairo_line_to (cr, s->x1, s->y);
                  if (s->x1 >= b)
                    break;
                }
              cairo_line_to (cr, g_array_index (steps, OccStep, MIN (k, steps->len - 1)).x1, bottom);
              cairo_close_path (cr);
              cairo_fill (cr);
              cairo_restore (cr);
            }
        }
      else
        {
          cairo_move_to (cr, l.occ_x, bottom);
          for (guint k = 0; k < steps->len; k++)
            {
              const OccStep *s = &g_array_index (steps, OccStep, k);
              cairo_line_to (cr, s->x0, s->y);
              cairo_line_to (cr, s->x1, s->y);
            }
          cairo_line_to (cr, right, bottom);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
    }
    cairo_restore (cr);

    if (report->ocm_capacity > 0)
      {
        g_autofree char *cap = zw_format_bytes (report->ocm_capacity);
        g_autofree char *label = g_strdup_printf (_("capacity %s"), cap);
        double y = round (l.occ_y + l.occ_h - report->ocm_capacity / l.occ_max * l.occ_h) + 0.5;

        zw_cairo_set_color (cr, &colors->warning);
        cairo_set_line_width (cr, 2);
        cairo_move_to (cr, l.occ_x, y);
        cairo_line_to (cr, l.occ_x + l.occ_w, y);
        cairo_stroke (cr);
        zw_painter_text (&p, l.occ_x + l.occ_w - 4, y + 3, 1, 0, 0, &colors->warning, label);
      }
    zw_cairo_set_color (cr, &colors->grid);
    cairo_set_line_width (cr, 1);
    cairo_rectangle (cr, l.occ_x + 0.5, l.occ_y + 0.5, l.occ_w - 1, l.occ_h - 1);
    cairo_stroke (cr);
    {
      g_autofree char *from = g_strdup_printf ("%.0f", l.zs);
      g_autofree char *to = g_strdup_printf ("%.0f", l.ze);
      zw_painter_text (&p, l.occ_x, l.occ_y + l.occ_h + 2, 0, 0, 0, &dim, from);
      zw_painter_text (&p, l.occ_x + l.occ_w / 2, l.occ_y + l.occ_h + 2, 0.5, 0, 0, &dim, _("op index"));
      zw_painter_text (&p, l.occ_x + l.occ_w, l.occ_y + l.occ_h + 2, 1, 0, 0, &dim, to);
    }
  }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- the widget ---- */

struct _ZwOcmView
{
  ZwView parent_instance;
};

G_DEFINE_FINAL_TYPE (ZwOcmView, zw_ocm_view, ZW_TYPE_VIEW)

static void
zw_ocm_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  /* Value and op selection are not shown here; report and zoom are. */
  if (g_str_equal (pspec->name, "selected-value") || g_str_equal (pspec->name, "selected-op"))
    return;
  zw_view_invalidate (view);
}

static void
zw_ocm_view_class_init (ZwOcmViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  view_class->draw = zw_ocm_view_draw;
  view_class->draws_itself = TRUE;
  view_class->selection_notify = zw_ocm_view_selection_notify;
  gtk_widget_class_set_css_name (widget_class, "zwocmview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "ocm", N_("OCM"), N_("OCM view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_ocm_view_init (ZwOcmView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 400, 260);
}

GtkWidget *
zw_ocm_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_OCM_VIEW, "selection", selection, NULL);
}
