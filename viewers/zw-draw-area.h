/* zw-draw-area.h — a widget that draws with a plain cairo function and caches the result.
 *
 * The drawn views of a run's results (compare, tensor, dump diff, log export) put one of these where
 * their chart goes: the content is drawn by a ZwExportDrawFunc (the same function an export
 * calls) into a render node that is reused while the size, the theme colours and the data
 * (zw_draw_area_invalidate) are unchanged; an optional overlay function adds what changes
 * often (hover, the value under the cursor) on top without redrawing the content.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view-style.h"

G_BEGIN_DECLS

#define ZW_TYPE_DRAW_AREA (zw_draw_area_get_type ())
G_DECLARE_FINAL_TYPE (ZwDrawArea, zw_draw_area, ZW, DRAW_AREA, GtkWidget)

/* Draws over the cached content each frame; @colors are the widget's theme colours. */
typedef void (*ZwDrawAreaOverlayFunc) (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors,
                                       gpointer user_data);

/* @draw is required; @overlay may be NULL; @user_data is not owned (its owner must outlive
 * the area, e.g. the view that contains it). */
GtkWidget *zw_draw_area_new (ZwExportDrawFunc draw, ZwDrawAreaOverlayFunc overlay, gpointer user_data);
/* The data changed: draw the content again at the next frame. */
void zw_draw_area_invalidate (ZwDrawArea *self);
/* Only the overlay changed. */
void zw_draw_area_queue_overlay (ZwDrawArea *self);
/* How often the content was drawn (tests: hover must not redraw it). */
guint zw_draw_area_get_n_rebuilds (ZwDrawArea *self);

G_END_DECLS
