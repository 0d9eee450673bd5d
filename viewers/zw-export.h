/* zw-export.h — export any view to PNG, SVG or PDF, and its table to CSV.
 *
 * Images go through each view's plain cairo draw function (the same one its snapshot
 * calls) into a cairo image, SVG or PDF surface, so an export needs no display and looks
 * like the widget at the size asked. Views understood: the deploy views (segment, memory,
 * OCM, merge: through zw_view_render_cairo) and the timing, compare, compile compare, sweep,
 * tensor, dump diff and log views. Colours: the widget's theme when it is realized, else the light default.
 * Files are written by zw_file_set_contents (base/zw-file.h: a regular file replaced whole, a
 * stream written through).
 *
 * CSV (RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled; lines end
 * in CRLF) holds a view's table as the widget shows it, header first.
 *
 * Errors: G_IO_ERROR_INVALID_ARGUMENT for a widget that is not a view (or has no table), a
 * bad size or an unknown file extension; G_IO_ERROR_FAILED naming the path and cairo's
 * status; the GFileError of the write otherwise.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view-render.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Any drawing: fills [0,width]x[0,height] of @cr with @colors. */
typedef void (*ZwExportDrawFunc) (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data);

/* The format for a file name's extension (.png, .svg, .pdf; case-insensitive). */
gboolean zw_export_format_from_path (const char *path, ZwViewFormat *format, GError **error);

/* Draws with @draw into a new surface of @format and writes it to @path. @colors NULL:
 * the light default. */
gboolean zw_export_draw_to_file (ZwExportDrawFunc draw, gpointer user_data, const ZwViewStyle *colors,
                                 ZwViewFormat format, int width, int height, const char *path, GError **error);

/* Whether @view is a view this module can draw (see the top). */
gboolean zw_export_can_draw (GtkWidget *view);
/* Draws @view's current content into @cr; FALSE when it is not a view. @colors NULL: theme
 * or default as above. */
gboolean zw_export_view_cairo (GtkWidget *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors);
/* Renders @view at @width x @height to @path in @format. */
gboolean zw_export_view_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path,
                                 GError **error);
/* The same, the format taken from @path's extension. */
gboolean zw_export_view (GtkWidget *view, int width, int height, const char *path, GError **error);

/* ---- tables ---- */

/* The table of @view (timing, compare, compiles, sweep, tensor value list, dump diff) as rows of GStrv, the
 * header first; NULL when @view has no table. */
GPtrArray *zw_export_view_table (GtkWidget *view);
/* @rows (GStrv each) as CSV text (a new string). */
char *zw_export_csv_from_rows (GPtrArray *rows);
/* Writes @view's table to @path as CSV. */
gboolean zw_export_view_csv (GtkWidget *view, const char *path, GError **error);
/* Parses CSV text (RFC 4180, LF or CRLF) into rows of GStrv (a GPtrArray that frees them);
 * NULL with G_IO_ERROR_INVALID_DATA naming @origin and the line for an unterminated quote. */
GPtrArray *zw_export_csv_parse (const char *text, const char *origin, GError **error);

G_END_DECLS
