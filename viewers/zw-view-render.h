/* zw-view-render.h — render a deploy view offscreen to PNG, SVG or PDF.
 *
 * Draws the view's content with its zw_*_view_draw function into a cairo surface, without
 * a display (the widget need not be realized). Colours: the widget's theme when it is
 * realized, else zw_view_style_init_default. Files are written atomically.
 * Errors: G_IO_ERROR_INVALID_ARGUMENT for a widget that is not a deploy view or a bad
 * size; G_IO_ERROR_FAILED with the path and cairo's status otherwise.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view-style.h"
#include "zw-selection.h"

G_BEGIN_DECLS

typedef enum {
  ZW_VIEW_FORMAT_PNG,
  ZW_VIEW_FORMAT_SVG,
  ZW_VIEW_FORMAT_PDF,
} ZwViewFormat;

gboolean zw_view_render_png (GtkWidget *view, int width, int height, const char *path, GError **error);
gboolean zw_view_render_to_file (GtkWidget *view, ZwViewFormat format, int width, int height, const char *path,
                                 GError **error);

/* Draws @view's content at @width x @height with @colors (NULL: the view's theme or the
 * default) into @cr. FALSE if @view is not a deploy view. */
gboolean zw_view_render_cairo (GtkWidget *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors);

/* An image surface (ARGB32) of the view's content drawn by @draw (e.g.
 * zw_memory_view_draw); caller owns it. No widget and no display needed. */
cairo_surface_t *zw_view_render_image (ZwViewDrawFunc draw, int width, int height, ZwDeployReport *report,
                                       ZwSelection *selection, const ZwViewStyle *colors);

G_END_DECLS
