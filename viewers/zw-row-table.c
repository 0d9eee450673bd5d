/* zw-row-table.c — the drawn row tables' base: area, selected row, selection both ways. */
#include "zw-row-table.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

typedef struct
{
  GtkWidget *area;
  gint selected;
  gboolean syncing;   /* a row selected from the shared selection: do not send it back */
} ZwRowTablePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ZwRowTable, zw_row_table, ZW_TYPE_VIEW)

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwRowTable *self = user_data;
  ZwRowTablePrivate *priv = zw_row_table_get_instance_private (self);

  ZW_ROW_TABLE_GET_CLASS (self)->draw (self, cr, width, height, priv->selected, colors);
}

double
zw_row_table_get_sticky_top (ZwRowTable *self)
{
  ZwRowTableClass *klass;
  ZwRowTablePrivate *priv;
  GtkWidget *scrolled;
  double y0, y1, top;

  g_return_val_if_fail (ZW_IS_ROW_TABLE (self), -1);
  klass = ZW_ROW_TABLE_GET_CLASS (self);
  priv = zw_row_table_get_instance_private (self);
  if (klass->header_extent == NULL || klass->draw_header == NULL || priv->area == NULL
      || !klass->header_extent (self, &y0, &y1))
    return -1;
  scrolled = gtk_widget_get_ancestor (priv->area, GTK_TYPE_SCROLLED_WINDOW);
  top = scrolled != NULL ? gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)))
                         : 0;
  return top > y0 ? top : -1;
}

/* the columns' titles over the rows when scrolled past them */
static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwRowTable *self = user_data;
  ZwRowTableClass *klass = ZW_ROW_TABLE_GET_CLASS (self);
  double top = zw_row_table_get_sticky_top (self), y0, y1;
  cairo_t *cr;

  (void) height;
  if (top < 0 || !klass->header_extent (self, &y0, &y1))
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, top, width, y1 - y0));
  cairo_set_source_rgba (cr, colors->background.red, colors->background.green, colors->background.blue, 1);
  cairo_rectangle (cr, 0, top, width, y1 - y0);
  cairo_fill (cr);
  klass->draw_header (self, cr, width, top, colors);
  cairo_destroy (cr);
}

static void
on_scrolled (GtkAdjustment *adjustment, ZwRowTable *self)
{
  ZwRowTablePrivate *priv = zw_row_table_get_instance_private (self);

  (void) adjustment;
  if (priv->area != NULL)
    zw_draw_area_queue_overlay (ZW_DRAW_AREA (priv->area));
}

/* the view's content for exports: the same drawing */
static void
zw_row_table_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  area_draw (cr, width, height, colors, view);
}

void
zw_row_table_changed (ZwRowTable *self, gint selected)
{
  ZwRowTablePrivate *priv;
  ZwRowTableClass *klass;

  g_return_if_fail (ZW_IS_ROW_TABLE (self));
  priv = zw_row_table_get_instance_private (self);
  klass = ZW_ROW_TABLE_GET_CLASS (self);
  priv->selected = selected >= 0 && (guint) selected < klass->n_rows (self) ? selected : -1;
  gtk_widget_set_size_request (priv->area, klass->content_width, klass->content_height (self));
  zw_draw_area_invalidate (ZW_DRAW_AREA (priv->area));
  if (klass->selected_changed != NULL)
    klass->selected_changed (self);
}

void
zw_row_table_select_row (ZwRowTable *self, gint row)
{
  ZwRowTablePrivate *priv;
  ZwRowTableClass *klass;
  ZwDeployReport *report;
  double y0, y1;

  g_return_if_fail (ZW_IS_ROW_TABLE (self));
  priv = zw_row_table_get_instance_private (self);
  klass = ZW_ROW_TABLE_GET_CLASS (self);
  if (row < 0 || (guint) row >= klass->n_rows (self))
    row = -1;
  if (row == priv->selected)
    return;
  priv->selected = row;
  zw_draw_area_invalidate (ZW_DRAW_AREA (priv->area));
  if (klass->selected_changed != NULL)
    klass->selected_changed (self);
  /* the row scrolls into sight (selected here or in another view) */
  if (row >= 0 && klass->row_extent != NULL && klass->row_extent (self, (guint) row, &y0, &y1))
    {
      GtkWidget *scrolled = gtk_widget_get_ancestor (priv->area, GTK_TYPE_SCROLLED_WINDOW);
      if (scrolled != NULL)
        gtk_adjustment_clamp_page (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), y0, y1);
    }
  report = zw_view_get_report (ZW_VIEW (self));
  if (row >= 0 && !priv->syncing && report != NULL)
    {
      gint64 id = klass->row_id (self, (guint) row, report);
      ZwSelection *selection = zw_view_get_selection (ZW_VIEW (self));

      if (id < 0)
        return;
      priv->syncing = TRUE;
      if (g_str_equal (klass->follows, "selected-value"))
        zw_selection_set_selected_value (selection, id);
      else
        zw_selection_set_selected_op (selection, id);
      priv->syncing = FALSE;
    }
}

gint
zw_row_table_get_selected_row (ZwRowTable *self)
{
  ZwRowTablePrivate *priv;

  g_return_val_if_fail (ZW_IS_ROW_TABLE (self), -1);
  priv = zw_row_table_get_instance_private (self);
  return priv->selected;
}

static gint
zw_row_table_real_find_row (ZwRowTable *self, gint64 id)
{
  ZwRowTableClass *klass = ZW_ROW_TABLE_GET_CLASS (self);
  guint n = klass->n_rows (self);

  for (guint i = 0; i < n; i++)
    if (klass->row_id (self, i, NULL) == id)
      return (gint) i;
  return -1;
}

gint
zw_row_table_find_row (ZwRowTable *self, gint64 id)
{
  g_return_val_if_fail (ZW_IS_ROW_TABLE (self), -1);
  return id >= 0 ? ZW_ROW_TABLE_GET_CLASS (self)->find_row (self, id) : -1;
}

GtkWidget *
zw_row_table_get_area (ZwRowTable *self)
{
  ZwRowTablePrivate *priv;

  g_return_val_if_fail (ZW_IS_ROW_TABLE (self), NULL);
  priv = zw_row_table_get_instance_private (self);
  return priv->area;
}

GPtrArray *
zw_row_table_rows_new (const char *const *titles, guint n_titles)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  char **header = g_new0 (char *, n_titles + 1);

  for (guint c = 0; c < n_titles; c++)
    header[c] = g_strdup (_(titles[c]));
  g_ptr_array_add (rows, header);
  return rows;
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwRowTable *self)
{
  ZwRowTableClass *klass = ZW_ROW_TABLE_GET_CLASS (self);

  double top = zw_row_table_get_sticky_top (self), y0, y1;

  (void) gesture;
  (void) n_press;
  /* on the titles kept at the top: a click on the titles where they are drawn */
  if (top >= 0 && klass->header_extent (self, &y0, &y1) && y >= top && y < top + (y1 - y0))
    y = y0 + (y - top);
  if (klass->clicked != NULL && klass->clicked (self, x, y))
    return;
  zw_row_table_select_row (self, klass->row_at (self, x, y));
}

static void
zw_row_table_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwRowTable *self = ZW_ROW_TABLE (view);
  ZwRowTablePrivate *priv = zw_row_table_get_instance_private (self);
  ZwRowTableClass *klass = ZW_ROW_TABLE_GET_CLASS (self);
  ZwSelection *selection = zw_view_get_selection (view);
  gint64 id;

  if (priv->syncing || !g_str_equal (pspec->name, klass->follows))
    return;
  id = g_str_equal (klass->follows, "selected-value") ? zw_selection_get_selected_value (selection)
                                                       : zw_selection_get_selected_op (selection);
  priv->syncing = TRUE;
  zw_row_table_select_row (self, zw_row_table_find_row (self, id));
  priv->syncing = FALSE;
}

static void
zw_row_table_dispose (GObject *object)
{
  ZwRowTablePrivate *priv = zw_row_table_get_instance_private (ZW_ROW_TABLE (object));

  priv->area = NULL;   /* ZwView unparents the scrolled window */
  G_OBJECT_CLASS (zw_row_table_parent_class)->dispose (object);
}

static void
zw_row_table_class_init (ZwRowTableClass *klass)
{
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = zw_row_table_dispose;
  view_class->selection_notify = zw_row_table_selection_notify;
  view_class->render = zw_row_table_render;
  klass->find_row = zw_row_table_real_find_row;
  klass->follows = "selected-op";
  klass->content_width = 720;
}

static void
zw_row_table_init (ZwRowTable *self)
{
  static const ZwPointerHandlers handlers = { .released = G_CALLBACK (on_released) };
  ZwRowTablePrivate *priv = zw_row_table_get_instance_private (self);

  priv->selected = -1;
  /* sized by zw_row_table_changed (the subclass's init calls it: its methods are not ours) */
  priv->area = zw_view_add_scrolled_area (ZW_VIEW (self), area_draw, area_overlay, 1, 1);
  zw_widget_add_pointer_handlers (priv->area, &handlers, self);
  {
    GtkWidget *scrolled = gtk_widget_get_ancestor (priv->area, GTK_TYPE_SCROLLED_WINDOW);
    if (scrolled != NULL)
      g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), "value-changed",
                               G_CALLBACK (on_scrolled), self, 0);
  }
  gtk_widget_set_size_request (GTK_WIDGET (self), 400, 200);
}

void
zw_row_table_fill_row (cairo_t *cr, int width, double y, const GdkRGBA *color, double alpha)
{
  zw_cairo_set_color_alpha (cr, color, alpha);
  cairo_rectangle (cr, ZW_ROW_TABLE_MARGIN, y, width - 2 * ZW_ROW_TABLE_MARGIN, ZW_ROW_TABLE_ROW_H);
  cairo_fill (cr);
}

void
zw_row_table_outline_row (cairo_t *cr, int width, double y, double line_width, const ZwViewStyle *colors)
{
  zw_cairo_set_color (cr, &colors->accent);
  cairo_set_line_width (cr, line_width);
  cairo_rectangle (cr, ZW_ROW_TABLE_MARGIN + line_width / 2, y + line_width / 2,
                   width - 2 * ZW_ROW_TABLE_MARGIN - line_width, ZW_ROW_TABLE_ROW_H - line_width);
  cairo_stroke (cr);
}

void
zw_row_table_rule_row (cairo_t *cr, int width, double y, const ZwViewStyle *colors)
{
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, ZW_ROW_TABLE_MARGIN, y + ZW_ROW_TABLE_ROW_H - 1, width - 2 * ZW_ROW_TABLE_MARGIN, 1);
  cairo_fill (cr);
}
