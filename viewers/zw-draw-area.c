/* zw-draw-area.c — cached cairo drawing widget used by the views of a run's results. */
#include "zw-draw-area.h"
#include "zw-view-private.h"

struct _ZwDrawArea
{
  GtkWidget parent_instance;
  ZwExportDrawFunc draw;
  ZwDrawAreaOverlayFunc overlay;
  gpointer user_data;
  ZwViewCache cache;
};

G_DEFINE_FINAL_TYPE (ZwDrawArea, zw_draw_area, GTK_TYPE_WIDGET)

static void
zw_draw_area_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ZwDrawArea *self = ZW_DRAW_AREA (widget);

  if (self->draw == NULL)
    return;
  if (zw_view_cache_snapshot (&self->cache, widget, snapshot, self->draw, self->user_data) && self->overlay != NULL)
    self->overlay (snapshot, self->cache.width, self->cache.height, &self->cache.style, self->user_data);
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
  zw_view_cache_invalidate (&ZW_DRAW_AREA (object)->cache);
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
  zw_view_cache_invalidate (&self->cache);
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
  return self->cache.n_rebuilds;
}
