/* zw-export.c — the one offscreen path: drawings and views to PNG/SVG/PDF, tables to CSV. */
#include "zw-export.h"
#include "base/zw-file.h"
#include "zw-view.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <string.h>

gboolean
zw_export_format_from_path (const char *path, ZwViewFormat *format, GError **error)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL && format != NULL, FALSE);
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    *format = ZW_VIEW_FORMAT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = ZW_VIEW_FORMAT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = ZW_VIEW_FORMAT_PDF;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: unknown image format (the name must end in .png, .svg or .pdf)", path);
      return FALSE;
    }
  return TRUE;
}

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* The one surface of every offscreen drawing: an image for PNG, a stream into @bytes for SVG
 * and PDF. NULL for an unknown format. */
static cairo_surface_t *
surface_new (ZwViewFormat format, int width, int height, GByteArray *bytes)
{
  switch (format)
    {
    case ZW_VIEW_FORMAT_PNG:
      return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
    case ZW_VIEW_FORMAT_SVG:
      return cairo_svg_surface_create_for_stream (append_bytes, bytes, width, height);
    case ZW_VIEW_FORMAT_PDF:
      return cairo_pdf_surface_create_for_stream (append_bytes, bytes, width, height);
    default:
      return NULL;
    }
}

gboolean
zw_export_draw_to_file (ZwExportDrawFunc draw, gpointer user_data, const ZwViewStyle *colors, ZwViewFormat format,
                        int width, int height, const char *path, GError **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  ZwViewStyle fallback;

  g_return_val_if_fail (draw != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (width <= 0 || height <= 0 || width > 32767 || height > 32767)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: bad image size %dx%d", path, width, height);
      return FALSE;
    }
  if (colors == NULL)
    {
      zw_view_style_init_default (&fallback);
      colors = &fallback;
    }
  if ((surface = surface_new (format, width, height, bytes)) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: unknown format %d", path, format);
      return FALSE;
    }
  cr = cairo_create (surface);
  draw (cr, width, height, colors, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == ZW_VIEW_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  /* SVG and PDF are complete only once the surface is finished */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot render: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  return zw_file_set_contents (path, (const char *) bytes->data, bytes->len, error);
}

/* A plain drawing function seen as an export's drawing. */
typedef struct {
  ZwViewDrawFunc draw;
  ZwDeployReport *report;
  ZwSelection *selection;
} PlainDraw;

static void
draw_plain (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  PlainDraw *d = user_data;

  d->draw (cr, width, height, d->report, d->selection, colors);
}

/* Draws with @draw into a new image surface (caller owns it). */
static cairo_surface_t *
draw_image (ZwExportDrawFunc draw, gpointer user_data, const ZwViewStyle *colors, int width, int height)
{
  cairo_surface_t *surface = surface_new (ZW_VIEW_FORMAT_PNG, width, height, NULL);
  cairo_t *cr = cairo_create (surface);

  draw (cr, width, height, colors, user_data);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

cairo_surface_t *
zw_export_draw_image (ZwViewDrawFunc draw, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                      const ZwViewStyle *colors)
{
  PlainDraw d = { draw, report, selection };
  ZwViewStyle fallback;

  g_return_val_if_fail (draw != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);
  if (colors == NULL)
    {
      zw_view_style_init_default (&fallback);
      colors = &fallback;
    }
  return draw_image (draw_plain, &d, colors, width, height);
}

static void
draw_view (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  zw_view_render (user_data, cr, width, height, colors);
}

gboolean
zw_export_view_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path, GError **error)
{
  ZwViewStyle style;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (!ZW_IS_VIEW (view) || !zw_view_can_render (ZW_VIEW (view)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: a %s is not a view that draws", path,
                   G_OBJECT_TYPE_NAME (view));
      return FALSE;
    }
  /* the widget's theme when it is realized, else the light default */
  if (gtk_widget_get_realized (view))
    zw_view_style_from_widget (&style, view);
  else
    zw_view_style_init_default (&style);
  return zw_export_draw_to_file (draw_view, view, &style, format, width, height, path, error);
}

gboolean
zw_export_view (GtkWidget *view, int width, int height, const char *path, GError **error)
{
  ZwViewFormat format;

  g_return_val_if_fail (path != NULL, FALSE);
  if (!zw_export_format_from_path (path, &format, error))
    return FALSE;
  return zw_export_view_to_file (view, format, width, height, path, error);
}

/* ---- CSV ---- */

GPtrArray *
zw_export_view_table (GtkWidget *view)
{
  g_return_val_if_fail (GTK_IS_WIDGET (view), NULL);
  return ZW_IS_VIEW (view) ? zw_view_get_table (ZW_VIEW (view)) : NULL;
}

static void
append_field (GString *out, const char *field)
{
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

char *
zw_export_csv_from_rows (GPtrArray *rows)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (rows != NULL, NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      char **cells = g_ptr_array_index (rows, i);
      for (guint c = 0; cells[c] != NULL; c++)
        {
          if (c > 0)
            g_string_append_c (out, ',');
          append_field (out, cells[c]);
        }
      g_string_append (out, "\r\n");
    }
  return g_string_free (out, FALSE);
}

gboolean
zw_export_view_csv (GtkWidget *view, const char *path, GError **error)
{
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  rows = zw_export_view_table (view);
  if (rows == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: a %s has no table", path,
                   G_OBJECT_TYPE_NAME (view));
      return FALSE;
    }
  text = zw_export_csv_from_rows (rows);
  return zw_file_set_contents (path, text, -1, error);
}

GPtrArray *
zw_export_csv_parse (const char *text, const char *origin, GError **error)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) field = g_string_new (NULL);
  const char *p = text;
  guint line = 1, quote_line = 0;
  gboolean quoted = FALSE, any = FALSE;

  g_return_val_if_fail (text != NULL, NULL);
  for (; *p != '\0'; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            {
              g_string_append_c (field, '"');
              p++;
            }
          else if (*p == '"')
            quoted = FALSE;
          else
            {
              if (*p == '\n')
                line++;
              g_string_append_c (field, *p);
            }
          continue;
        }
      if (*p == '"')
        {
          quoted = TRUE;
          quote_line = line;
          any = TRUE;
        }
      else if (*p == ',')
        {
          g_ptr_array_add (cells, g_strdup (field->str));
          g_string_truncate (field, 0);
          any = TRUE;
        }
      else if (*p == '\r' && p[1] == '\n')
        continue;
      else if (*p == '\n')
        {
          g_ptr_array_add (cells, g_strdup (field->str));
          g_string_truncate (field, 0);
          g_ptr_array_add (cells, NULL);
          g_ptr_array_add (rows, g_ptr_array_steal (cells, NULL));
          g_ptr_array_set_free_func (cells, g_free);
          line++;
          any = FALSE;
        }
      else
        {
          g_string_append_c (field, *p);
          any = TRUE;
        }
    }
  if (quoted)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:%u: a quoted field is not closed",
                   origin != NULL ? origin : "CSV", quote_line);
      return NULL;
    }
  if (any || field->len > 0)
    {
      g_ptr_array_add (cells, g_strdup (field->str));
      g_ptr_array_add (cells, NULL);
      g_ptr_array_add (rows, g_ptr_array_steal (cells, NULL));
    }
  return g_steal_pointer (&rows);
}
