/* zw-view-render.c — offscreen rendering of the deploy views to PNG, SVG and PDF. */
#include "zw-view-render.h"
#include "zw-view-private.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>

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

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
zw_view_render_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path,
                        GError **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface = NULL;
  cairo_status_t status;
  cairo_t *cr;
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
  if (width <= 0 || height <= 0 || width > 32767 || height > 32767)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: bad image size %dx%d", path, width, height);
      return FALSE;
    }

  switch (format)
    {
    case ZW_VIEW_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      break;
    case ZW_VIEW_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, width, height);
      break;
    case ZW_VIEW_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, width, height);
      break;
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: unknown format %d", path, format);
      return FALSE;
    }

  cr = cairo_create (surface);
  zw_view_render_cairo (view, cr, width, height, NULL);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == ZW_VIEW_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  /* SVG and PDF are complete only once the surface is finished. */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot render the view: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return g_file_set_contents (path, (const char *) bytes->data, bytes->len, error);
}

gboolean
zw_view_render_png (GtkWidget *view, int width, int height, const char *path, GError **error)
{
  return zw_view_render_to_file (view, ZW_VIEW_FORMAT_PNG, width, height, path, error);
}

gboolean
zw_view_render_svg (GtkWidget *view, int width, int height, const char *path, GError **error)
{
  return zw_view_render_to_file (view, ZW_VIEW_FORMAT_SVG, width, height, path, error);
}

gboolean
zw_view_render_pdf (GtkWidget *view, int width, int height, const char *path, GError **error)
{
  return zw_view_render_to_file (view, ZW_VIEW_FORMAT_PDF, width, height, path, error);
}
