/* zw-export.c — views to PNG/SVG/PDF through their draw functions, tables to CSV. */
#include "zw-export.h"
#include "base/zw-file.h"
#include "zw-view-private.h"
#include "zw-timing-view.h"
#include "zw-compare-view.h"
#include "zw-compile-compare-view.h"
#include "zw-sweep-view.h"
#include "zw-tensor-view.h"
#include "zw-dump-diff-view.h"
#include "zw-log-view.h"

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

gboolean
zw_export_can_draw (GtkWidget *view)
{
  ZwViewDrawFunc draw;
  ZwSelection *selection;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  return ZW_IS_TIMING_VIEW (view) || ZW_IS_COMPARE_VIEW (view) || ZW_IS_COMPILE_COMPARE_VIEW (view) || ZW_IS_TENSOR_VIEW (view)
         || ZW_IS_DUMP_DIFF_VIEW (view) || ZW_IS_LOG_VIEW (view) || ZW_IS_SWEEP_VIEW (view)
         || zw_view_get_draw_func (view, &draw, &selection);
}

gboolean
zw_export_view_cairo (GtkWidget *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwViewStyle style;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  if (!zw_export_can_draw (view))
    return FALSE;
  if (colors == NULL)
    {
      /* theme colours need a realized widget (a display); otherwise the light default */
      if (gtk_widget_get_realized (view))
        zw_view_style_from_widget (&style, view);
      else
        zw_view_style_init_default (&style);
      colors = &style;
    }
  if (ZW_IS_TIMING_VIEW (view))
    zw_timing_view_render (ZW_TIMING_VIEW (view), cr, width, height, colors);
  else if (ZW_IS_COMPARE_VIEW (view))
    zw_compare_view_render (ZW_COMPARE_VIEW (view), cr, width, height, colors);
  else if (ZW_IS_COMPILE_COMPARE_VIEW (view))
    zw_compile_compare_view_render (ZW_COMPILE_COMPARE_VIEW (view), cr, width, height, colors);
  else if (ZW_IS_SWEEP_VIEW (view))
    zw_sweep_view_render (ZW_SWEEP_VIEW (view), cr, width, height, colors);
  else if (ZW_IS_TENSOR_VIEW (view))
    zw_tensor_view_render (ZW_TENSOR_VIEW (view), cr, width, height, colors);
  else if (ZW_IS_DUMP_DIFF_VIEW (view))
    zw_dump_diff_view_render (ZW_DUMP_DIFF_VIEW (view), cr, width, height, colors);
  else if (ZW_IS_LOG_VIEW (view))
    zw_log_view_render (ZW_LOG_VIEW (view), cr, width, height, colors);
  else
    return zw_view_render_cairo (view, cr, width, height, colors);
  return TRUE;
}

static void
draw_widget (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  zw_export_view_cairo (user_data, cr, width, height, colors);
}

gboolean
zw_export_view_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path, GError **error)
{
  ZwViewStyle style;

  g_return_val_if_fail (GTK_IS_WIDGET (view), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (!zw_export_can_draw (view))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: a %s is not a view", path,
                   G_OBJECT_TYPE_NAME (view));
      return FALSE;
    }
  if (gtk_widget_get_realized (view))
    zw_view_style_from_widget (&style, view);
  else
    zw_view_style_init_default (&style);
  return zw_export_draw_to_file (draw_widget, view, &style, format, width, height, path, error);
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
  if (ZW_IS_TIMING_VIEW (view))
    return zw_timing_view_table (ZW_TIMING_VIEW (view));
  if (ZW_IS_COMPARE_VIEW (view))
    return zw_compare_view_table (ZW_COMPARE_VIEW (view));
  if (ZW_IS_COMPILE_COMPARE_VIEW (view))
    return zw_compile_compare_view_table (ZW_COMPILE_COMPARE_VIEW (view));
  if (ZW_IS_SWEEP_VIEW (view))
    return zw_sweep_view_table (ZW_SWEEP_VIEW (view));
  if (ZW_IS_TENSOR_VIEW (view))
    return zw_tensor_view_table (ZW_TENSOR_VIEW (view));
  if (ZW_IS_DUMP_DIFF_VIEW (view))
    return zw_dump_diff_view_table (ZW_DUMP_DIFF_VIEW (view));
  return NULL;
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
