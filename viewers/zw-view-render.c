/* zw-view-render.c — offscreen rendering of the deploy views to PNG, SVG and PDF. */
#include "zw-view-render.h"
#include "zw-view-private.h"

#include "zw-export.h"

cairo_surface_t *
zw_view_render_image (ZwViewDrawFunc draw, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                      const ZwViewStyle *colors)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  ZwViewStyle fallback;

  g_return_val_if_fail (draw != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  if (colors == NULL)
    {
      zw_view_style_init_default (&fallback);
      colors = &fallback;
    }
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  draw (cr, width, height, report, selection, colors);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

gboolean
zw_view_render_cairo (GtkWidget *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwViewDrawFunc draw;
  ZwSelection *selection;
  ZwViewStyle style;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);

  if (!zw_view_get_draw_func (view, &draw, &selection))
    return FALSE;
  if (colors == NULL)
    {
      /* Theme colours need a realized widget (a display); otherwise the light default. */
      if (gtk_widget_get_realized (view))
        zw_view_style_from_widget (&style, view);
      else
        zw_view_style_init_default (&style);
      colors = &style;
    }
  draw (cr, width, height, zw_selection_get_report (selection), selection, colors);
  return TRUE;
}

/* The drawing of a deploy view, for zw_export_draw_to_file(): in the widget's own colours
 * (NULL), not the export's fallback palette. */
static void
draw_view (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer view)
{
  (void) colors;
  zw_view_render_cairo (view, cr, width, height, NULL);
}

gboolean
zw_view_render_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path,
                        GError **error)
{
  ZwViewDrawFunc draw;
  ZwSelection *selection;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!zw_view_get_draw_func (view, &draw, &selection))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: a %s is not a deploy view", path,
                   G_OBJECT_TYPE_NAME (view));
      return FALSE;
    }
  /* one surface-and-file path for every export */
  return zw_export_draw_to_file (draw_view, view, NULL, format, width, height, path, error);
}

gboolean
zw_view_render_png (GtkWidget *view, int width, int height, const char *path, GError **error)
{
  return zw_view_render_to_file (view, ZW_VIEW_FORMAT_PNG, width, height, path, error);
}
