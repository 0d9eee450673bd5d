/* zw-dump-diff-view.c — per-value comparison of two dumps, first divergence highlighted. */
#include "zw-dump-diff-view.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#define MARGIN 8.0
#define LINE_H 18.0
#define ROW_H 20.0

typedef enum {
  COL_V_ID,
  COL_OP,
  COL_STATUS,
  COL_DIFFER,
  COL_MAX_ABS,
  COL_COSINE,
  COL_FIRST,
  N_COLS
} DiffColumn;

static const char *col_titles[N_COLS] = {
  N_("v_id"), N_("Op"), N_("Status"), N_("Elements differing"), N_("Max abs error"), N_("Cosine"),
  N_("First difference (n, c, h, w): A / B"),
};
static const double col_widths[N_COLS] = { 60, 60, 84, 120, 170, 90, 0 };

static double
rows_top (const ZwDumpDiff *diff)
{
  return MARGIN + 2 * LINE_H + 6 + (diff != NULL ? diff->warnings->len : 0) * LINE_H + ROW_H;
}

int
zw_dump_diff_view_content_height (const ZwDumpDiff *diff)
{
  return (int) ceil (rows_top (diff) + (diff != NULL ? diff->entries->len : 0) * ROW_H + MARGIN);
}

gboolean
zw_dump_diff_view_row_extent (const ZwDumpDiff *diff, gint64 v_id, double *y0, double *y1)
{
  g_return_val_if_fail (diff != NULL, FALSE);
  for (guint i = 0; i < diff->entries->len; i++)
    if (((const ZwDumpDiffEntry *) g_ptr_array_index (diff->entries, i))->v_id == v_id)
      {
        if (y0)
          *y0 = rows_top (diff) + i * ROW_H;
        if (y1)
          *y1 = rows_top (diff) + (i + 1) * ROW_H;
        return TRUE;
      }
  return FALSE;
}

gint64
zw_dump_diff_view_value_at (const ZwDumpDiff *diff, double y)
{
  double top;
  gint64 i;

  if (diff == NULL)
    return -1;
  top = rows_top (diff);
  if (y < top)
    return -1;
  i = (gint64) ((y - top) / ROW_H);
  if (i >= diff->entries->len)
    return -1;
  return ((const ZwDumpDiffEntry *) g_ptr_array_index (diff->entries, i))->v_id;
}

static char *
cell_text (const ZwDumpDiffEntry *e, DiffColumn column)
{
  switch (column)
    {
    case COL_V_ID:
      return g_strdup_printf ("%" G_GINT64_FORMAT, e->v_id);
    case COL_OP:
      return e->op_id >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, e->op_id) : g_strdup ("");
    case COL_STATUS:
      return g_strdup (e->status == ZW_DUMP_DIFF_COMPARED && e->diverges ? "diverges"
                                                                          : zw_dump_diff_status_to_string (e->status));
    case COL_DIFFER:
      return e->status == ZW_DUMP_DIFF_COMPARED
                 ? g_strdup_printf ("%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT, e->n_differ, e->n_compared)
                 : g_strdup ("");
    case COL_MAX_ABS:
      return e->status == ZW_DUMP_DIFF_COMPARED ? g_strdup_printf ("%.6g", e->max_abs_err) : g_strdup ("");
    case COL_COSINE:
      return e->status == ZW_DUMP_DIFF_COMPARED ? g_strdup_printf ("%.8f", e->cosine) : g_strdup ("");
    case COL_FIRST:
      if (e->status != ZW_DUMP_DIFF_COMPARED || e->n_differ == 0)
        return g_strdup ("");
      if (e->first_has_q)
        return g_strdup_printf ("(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                "): %.9g / %.9g (q %" G_GINT64_FORMAT " / %" G_GINT64_FORMAT ")",
                                e->first_coords[0], e->first_coords[1], e->first_coords[2], e->first_coords[3],
                                e->first_a, e->first_b, e->first_qa, e->first_qb);
      return g_strdup_printf ("(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                              "): %.9g / %.9g",
                              e->first_coords[0], e->first_coords[1], e->first_coords[2], e->first_coords[3],
                              e->first_a, e->first_b);
    default:
      g_assert_not_reached ();
    }
}

void
zw_dump_diff_view_draw (cairo_t *cr, int width, int height, const ZwDumpDiff *diff, gint64 selected_v_id,
                        const ZwViewStyle *colors)
{
  double y, x, clip_y0, clip_y1, clip_x0, clip_x1, max_err = 0;
  ZwPainter p;
  GdkRGBA dim;
  char line[512];

  g_return_if_fail (cr != NULL && colors != NULL);
  cairo_save (cr);
  zw_cairo_set_color (cr, &colors->background);
  cairo_paint (cr);
  zw_painter_init (&p, cr, colors);
  dim = colors->foreground;
  dim.alpha *= 0.7f;
  if (diff == NULL)
    {
      zw_draw_empty (&p, width, MIN (height, 200), _("No dump comparison"));
      goto out;
    }

  g_snprintf (line, sizeof line,
              _("%u compared, %u diverged, %u only in A, %u only in B, %u not comparable (thresholds: abs %g, cosine %g)"),
              diff->n_compared, diff->n_diverged, diff->n_only_a, diff->n_only_b, diff->n_mismatch,
              diff->options.max_abs, diff->options.cosine);
  zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, NULL, line);
  zw_painter_set_bold (&p, TRUE);
  if (diff->first != NULL)
    {
      const ZwDumpDiffEntry *f = diff->first;
      g_snprintf (line, sizeof line,
                  _("First divergence: v_id %lld (op %lld) at (n %lld, c %lld, h %lld, w %lld): A %.9g, B %.9g"),
                  (long long) f->v_id, (long long) f->op_id, (long long) f->first_coords[0],
                  (long long) f->first_coords[1], (long long) f->first_coords[2], (long long) f->first_coords[3],
                  f->first_a, f->first_b);
      zw_painter_text (&p, MARGIN, MARGIN + LINE_H, 0, 0, width - 2 * MARGIN, &colors->warning, line);
    }
  else
    zw_painter_text (&p, MARGIN, MARGIN + LINE_H, 0, 0, width - 2 * MARGIN, &colors->lower_bound,
                     _("No value diverges"));
  zw_painter_set_bold (&p, FALSE);
  y = MARGIN + 2 * LINE_H + 6;
  for (guint i = 0; i < diff->warnings->len; i++, y += LINE_H)
    zw_painter_text (&p, MARGIN, y, 0, 0, width - 2 * MARGIN, &colors->warning, g_ptr_array_index (diff->warnings, i));

  x = MARGIN;
  for (int c = 0; c < N_COLS; c++)
    {
      double w = col_widths[c] > 0 ? col_widths[c] : width - x - MARGIN;
      zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, w - 8, &dim, _(col_titles[c]));
      x += w;
    }
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, MARGIN, y + ROW_H - 1, width - 2 * MARGIN, 1);
  cairo_fill (cr);
  y += ROW_H;

  for (guint i = 0; i < diff->entries->len; i++)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (diff->entries, i);
      if (e->status == ZW_DUMP_DIFF_COMPARED && isfinite (e->max_abs_err))
        max_err = MAX (max_err, e->max_abs_err);
    }
  /* a scrolled window shows a strip of a tall drawing: draw only the rows in the clip */
  cairo_clip_extents (cr, &clip_x0, &clip_y0, &clip_x1, &clip_y1);
  for (guint i = 0; i < diff->entries->len && y < height; i++, y += ROW_H)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (diff->entries, i);
      const GdkRGBA *fg = e->diverges ? &colors->warning : NULL;

      if (y + ROW_H < clip_y0 || y > clip_y1)
        continue;
      if (e == diff->first)
        {
          zw_cairo_set_color_alpha (cr, &colors->warning, 0.30);
          cairo_rectangle (cr, MARGIN, y, width - 2 * MARGIN, ROW_H);
          cairo_fill (cr);
          fg = NULL;
        }
      else if (e->v_id == selected_v_id)
        {
          zw_cairo_set_color_alpha (cr, &colors->accent, 0.30);
          cairo_rectangle (cr, MARGIN, y, width - 2 * MARGIN, ROW_H);
          cairo_fill (cr);
        }
      else if (i % 2 == 1)
        {
          zw_cairo_set_color_alpha (cr, &colors->grid, 0.30);
          cairo_rectangle (cr, MARGIN, y, width - 2 * MARGIN, ROW_H);
          cairo_fill (cr);
        }
      if (e->v_id == selected_v_id)
        {
          zw_cairo_set_color (cr, &colors->accent);
          cairo_set_line_width (cr, 1);
          cairo_rectangle (cr, MARGIN + 0.5, y + 0.5, width - 2 * MARGIN - 1, ROW_H - 1);
          cairo_stroke (cr);
        }
      x = MARGIN;
      zw_painter_set_bold (&p, e == diff->first);
      for (int c = 0; c < N_COLS; c++)
        {
          double w = col_widths[c] > 0 ? col_widths[c] : width - x - MARGIN;
          g_autofree char *text = cell_text (e, (DiffColumn) c);

          if (c == COL_MAX_ABS && e->status == ZW_DUMP_DIFF_COMPARED && e->max_abs_err > 0)
            {
              /* log scale over 9 decades below the largest error */
              double frac = !isfinite (e->max_abs_err) || max_err <= 0
                                ? 1
                                : CLAMP (1 + log10 (e->max_abs_err / max_err) / 9, 0.05, 1);
              zw_cairo_set_color_alpha (cr, &colors->warning, 0.45);
              cairo_rectangle (cr, x + 70, y + 4, (w - 76) * frac, ROW_H - 8);
              cairo_fill (cr);
            }
          zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, c == COL_MAX_ABS ? 66 : w - 8, fg, text);
          x += w;
        }
      zw_painter_set_bold (&p, FALSE);
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- widget ---- */

struct _ZwDumpDiffView
{
  ZwView parent_instance;
  ZwDumpDiff *diff;
  gint64 selected;
  gboolean syncing;
  GtkWidget *area;
};

G_DEFINE_FINAL_TYPE (ZwDumpDiffView, zw_dump_diff_view, ZW_TYPE_VIEW)

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwDumpDiffView *self = user_data;
  zw_dump_diff_view_draw (cr, width, height, self->diff, self->selected, colors);
}

void
zw_dump_diff_view_set_diff (ZwDumpDiffView *self, ZwDumpDiff *diff)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  if (diff != self->diff)
    g_clear_pointer (&self->diff, zw_dump_diff_free);
  self->diff = diff;
  self->selected = diff != NULL && diff->first != NULL ? diff->first->v_id : -1;
  gtk_widget_set_size_request (self->area, 720, zw_dump_diff_view_content_height (diff));
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

gboolean
zw_dump_diff_view_load (ZwDumpDiffView *self, const char *dir_a, const char *dir_b, XirNetwork *network,
                        const char *format, const ZwDumpDiffOptions *options, GError **error)
{
  ZwDumpDiff *diff;

  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), FALSE);
  g_return_val_if_fail (dir_a != NULL && dir_b != NULL, FALSE);
  diff = zw_dump_diff_folders (dir_a, dir_b, network, format, options, error);
  if (diff == NULL)
    return FALSE;
  zw_dump_diff_view_set_diff (self, diff);
  return TRUE;
}

const ZwDumpDiff *
zw_dump_diff_view_get_diff (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), NULL);
  return self->diff;
}

void
zw_dump_diff_view_select_value (ZwDumpDiffView *self, gint64 v_id)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  if (self->diff == NULL || !zw_dump_diff_view_row_extent (self->diff, v_id, NULL, NULL))
    v_id = -1;
  if (v_id == self->selected)
    return;
  self->selected = v_id;
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
  if (v_id >= 0 && !self->syncing && zw_view_get_report (ZW_VIEW (self)) != NULL)
    {
      self->syncing = TRUE;
      zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)), v_id);
      self->syncing = FALSE;
    }
}

gint64
zw_dump_diff_view_get_selected_value (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), -1);
  return self->selected;
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwDumpDiffView *self)
{
  (void) gesture;
  (void) n_press;
  (void) x;
  zw_dump_diff_view_select_value (self, zw_dump_diff_view_value_at (self->diff, y));
}

static void
zw_dump_diff_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (view);
  if (self->syncing || !g_str_equal (pspec->name, "selected-value"))
    return;
  self->syncing = TRUE;
  zw_dump_diff_view_select_value (self, zw_selection_get_selected_value (zw_view_get_selection (ZW_VIEW (self))));
  self->syncing = FALSE;
}

GPtrArray *
zw_dump_diff_view_table (ZwDumpDiffView *self)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  char **header = g_new0 (char *, N_COLS + 1);

  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), NULL);
  for (int c = 0; c < N_COLS; c++)
    header[c] = g_strdup (_(col_titles[c]));
  g_ptr_array_add (table, header);
  for (guint i = 0; self->diff != NULL && i < self->diff->entries->len; i++)
    {
      char **cells = g_new0 (char *, N_COLS + 1);
      for (int c = 0; c < N_COLS; c++)
        cells[c] = cell_text (g_ptr_array_index (self->diff->entries, i), (DiffColumn) c);
      g_ptr_array_add (table, cells);
    }
  return table;
}

void
zw_dump_diff_view_render (ZwDumpDiffView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  zw_dump_diff_view_draw (cr, width, height, self->diff, self->selected, colors);
}

ZwSelection *
zw_dump_diff_view_get_selection (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), NULL);
  return zw_view_get_selection (ZW_VIEW (self));
}

static void
zw_dump_diff_view_dispose (GObject *object)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (object);

  self->area = NULL;   /* the base class unparents the scrolled window */
  g_clear_pointer (&self->diff, zw_dump_diff_free);
  G_OBJECT_CLASS (zw_dump_diff_view_parent_class)->dispose (object);
}

static void
zw_dump_diff_view_class_init (ZwDumpDiffViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = zw_dump_diff_view_dispose;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_dump_diff_view_selection_notify;
  gtk_widget_class_set_css_name (widget_class, "zwdumpdiffview");
}

static void
zw_dump_diff_view_init (ZwDumpDiffView *self)
{
  static const ZwPointerHandlers handlers = { .released = G_CALLBACK (on_released) };

  self->selected = -1;
  self->area = zw_view_add_scrolled_area (ZW_VIEW (self), area_draw, NULL, 720, zw_dump_diff_view_content_height (NULL));
  zw_widget_add_pointer_handlers (self->area, &handlers, self);
  gtk_widget_set_size_request (GTK_WIDGET (self), 400, 200);
}

GtkWidget *
zw_dump_diff_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_DUMP_DIFF_VIEW, "selection", selection, NULL);
}
