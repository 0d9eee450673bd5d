/* zw-draw-area.c — cached cairo drawing widget used by the views2 views. */
#include "zw-draw-area.h"

#include <string.h>

struct _ZwDrawArea
{
  GtkWidget parent_instance;
  ZwExportDrawFunc draw;
  ZwDrawAreaOverlayFunc overlay;
  gpointer user_data;
  GskRenderNode *node;
  int width, height;
  ZwViewStyle style;
  guint n_rebuilds;
};

G_DEFINE_FINAL_TYPE (ZwDrawArea, zw_draw_area, GTK_TYPE_WIDGET)

static void
zw_draw_area_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ZwDrawArea *self = ZW_DRAW_AREA (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  ZwViewStyle style;

  if (width <= 0 || height <= 0 || self->draw == NULL)
    return;
  zw_view_style_from_widget (&style, widget);
  if (self->node == NULL || self->width != width || self->height != height
      || memcmp (&style, &self->style, sizeof style) != 0)
    {
      GtkSnapshot *sub = gtk_snapshot_new ();
      cairo_t *cr = gtk_snapshot_append_cairo (sub, &GRAPHENE_RECT_INIT (0, 0, width, height));

      self->draw (cr, width, height, &style, self->user_data);
      cairo_destroy (cr);
      g_clear_pointer (&self->node, gsk_render_node_unref);
      self->node = gtk_snapshot_free_to_node (sub);
      self->width = width;
      self->height = height;
      self->style = style;
      self->n_rebuilds++;
    }
  if (self->node != NULL)
    gtk_snapshot_append_node (snapshot, self->node);
  if (self->overlay != NULL)
    self->overlay (snapshot, width, height, &style, self->user_data);
}

static void
zw_draw_area_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (zw_draw_area_parent_class)->css_changed (widget, change);
  gtk_widget_queue_draw (widget);
}

static void
zw_draw_area_dispose (GObject *object)
{
  g_clear_pointer (&ZW_DRAW_AREA (object)->node, gsk_render_node_unref);
  G_OBJECT_CLASS (zw_draw_area_parent_class)->dispose (object);
}

static void
zw_draw_area_class_init (ZwDrawAreaClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = zw_draw_area_dispose;
  GTK_WIDGET_CLASS (klass)->snapshot = zw_draw_area_snapshot;
  GTK_WIDGET_CLASS (klass)->css_changed = zw_draw_area_css_changed;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "zwdrawarea");
}

static void
zw_draw_area_init (ZwDrawArea *self)
{
  (void) self;
}

GtkWidget *
zw_draw_area_new (ZwExportDrawFunc draw, ZwDrawAreaOverlayFunc overlay, gpointer user_data)
{
  ZwDrawArea *self;

  g_return_val_if_fail (draw != NULL, NULL);
  self = g_object_new (ZW_TYPE_DRAW_AREA, NULL);
  self->draw = draw;
  self->overlay = overlay;
  self->user_data = user_data;
  return GTK_WIDGET (self);
}

void
zw_draw_area_invalidate (ZwDrawArea *self)
{
  g_return_if_fail (ZW_IS_DRAW_AREA (self));
  g_clear_pointer (&self->node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
zw_draw_area_queue_overlay (ZwDrawArea *self)
{
  g_return_if_fail (ZW_IS_DRAW_AREA (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
zw_draw_area_get_n_rebuilds (ZwDrawArea *self)
{
  g_return_val_if_fail (ZW_IS_DRAW_AREA (self), 0);
  return self->n_rebuilds;
}
