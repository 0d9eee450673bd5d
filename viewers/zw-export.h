/* zw-export.h — the one offscreen path: any view (or drawing) to PNG, SVG or PDF, and a
 * view's table to CSV.
 *
 * Images are drawn by the view's own render method (zw_view_render: the same drawing its
 * widget shows) into a cairo image, SVG or PDF surface, so an export needs no display and
 * looks like the widget at the size asked. Colours: the widget's theme when it is realized,
 * else the light default. Files are written by zw_file_set_contents (base/zw-file.h: a
 * regular file replaced whole, a stream written through).
 *
 * CSV (RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled; lines end
 * in CRLF) holds a view's table (its table method) as the widget shows it, header first.
 *
 * Errors: G_IO_ERROR_INVALID_ARGUMENT for a widget that is not a view that draws (or has no
 * table), a bad size or an unknown file extension; G_IO_ERROR_FAILED naming the path and
 * cairo's status; the GFileError of the write otherwise.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view-style.h"

G_BEGIN_DECLS

typedef enum {
  ZW_VIEW_FORMAT_PNG,
  ZW_VIEW_FORMAT_SVG,
  ZW_VIEW_FORMAT_PDF,
} ZwViewFormat;

/* The format for a file name's extension (.png, .svg, .pdf; case-insensitive). */
gboolean zw_export_format_from_path (const char *path, ZwViewFormat *format, GError **error);

/* Draws with @draw into a new surface of @format and writes it to @path. @colors NULL:
 * the light default. */
gboolean zw_export_draw_to_file (ZwExportDrawFunc draw, gpointer user_data, const ZwViewStyle *colors,
                                 ZwViewFormat format, int width, int height, const char *path, GError **error);
/* An image surface (ARGB32) drawn by a view's plain drawing function @draw (e.g.
 * zw_memory_view_draw) with @report and @selection (may be NULL); @colors NULL: the light
 * default. Caller owns it. No widget and no display needed. */
cairo_surface_t *zw_export_draw_image (ZwViewDrawFunc draw, int width, int height, ZwDeployReport *report,
                                       ZwSelection *selection, const ZwViewStyle *colors);

/* Renders @view (a ZwView that draws, see zw_view_render) at @width x @height to @path in
 * @format. */
gboolean zw_export_view_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path,
                                 GError **error);
/* The same, the format taken from @path's extension. */
gboolean zw_export_view (GtkWidget *view, int width, int height, const char *path, GError **error);

/* ---- tables ---- */

/* The table of @view (its ZwView table method) as rows of GStrv, the header first; NULL when
 * @view has no table. */
GPtrArray *zw_export_view_table (GtkWidget *view);
/* @rows (GStrv each) as CSV text (a new string). */
char *zw_export_csv_from_rows (GPtrArray *rows);
/* Writes @view's table to @path as CSV. */
gboolean zw_export_view_csv (GtkWidget *view, const char *path, GError **error);
/* Parses CSV text (RFC 4180, LF or CRLF) into rows of GStrv (a GPtrArray that frees them);
 * NULL with G_IO_ERROR_INVALID_DATA naming @origin and the line for an unterminated quote. */
GPtrArray *zw_export_csv_parse (const char *text, const char *origin, GError **error);

G_END_DECLS
