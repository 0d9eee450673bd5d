/* zw-view.h — the base class of the views that follow a shared ZwSelection.
 *
 * ZwView owns what every such view had written out again: the construct-only "selection"
 * property (NULL gives the view a selection of its own), the "notify" connection to it
 * (forwarded to the selection_notify virtual method, disconnected at dispose), a bin layout
 * for views made of children, and — for the deploy views that draw themselves with a plain
 * ZwViewDrawFunc — a snapshot that keeps the drawn content in a render node while the size,
 * the theme colours and the data are unchanged, with an overlay (hover) drawn each frame on
 * top without drawing the content again.
 *
 * Subclasses keep their own public constructor and getters (zw_segment_view_new, …); the
 * functions here are for the views' own code.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-draw-area.h"

G_BEGIN_DECLS

#define ZW_TYPE_VIEW (zw_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (ZwView, zw_view, ZW, VIEW, GtkWidget)

struct _ZwViewClass
{
  GtkWidgetClass parent_class;

  /* The deploy views' content as a plain drawing (zw_memory_view_draw, …): what offscreen
   * renders and exports draw. NULL for views with other data. */
  ZwViewDrawFunc draw;
  /* TRUE for a view that draws itself: the base snapshot draws @draw into a cached render
   * node, then snapshot_overlay. FALSE: the children are drawn (a table view). */
  gboolean draws_itself;
  /* Drawn each frame over the cached content (hover); @style: the colours it was drawn in. */
  void (*snapshot_overlay) (ZwView *self, GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *style);
  /* A property of the selection changed (@pspec: its spec). Default: zw_view_invalidate. */
  void (*selection_notify) (ZwView *self, GParamSpec *pspec);

  gpointer padding[8];
};

/* The view's selection (never NULL after construction; owned by the view). */
ZwSelection *zw_view_get_selection (ZwView *self);
/* The selection's report, NULL before one is loaded (borrowed). */
ZwDeployReport *zw_view_get_report (ZwView *self);
/* The data changed: draw the cached content again at the next frame. */
void zw_view_invalidate (ZwView *self);
/* The colours of the last drawn content (zeroed before the first frame): layouts used for
 * hit-testing must match what is on screen. */
const ZwViewStyle *zw_view_get_style (ZwView *self);
/* How often the content was drawn again (tests check that hover does not). */
guint zw_view_get_n_rebuilds (ZwView *self);

/* Puts a ZwDrawArea (drawn by @draw, @overlay may be NULL; both get the view as data) of
 * @width x @height in a scrolled window that fills the view. Returns the area, owned by
 * the view (unparented at dispose). For views whose content may be larger than the view. */
GtkWidget *zw_view_add_scrolled_area (ZwView *self, ZwExportDrawFunc draw, ZwDrawAreaOverlayFunc overlay, int width,
                                      int height);

/* The pointer handlers of a drawn widget; NULL members are not connected. Each is connected
 * with @user_data as its last argument, with the signal's own signature. */
typedef struct {
  GCallback motion;       /* GtkEventControllerMotion::motion */
  GCallback leave;        /* GtkEventControllerMotion::leave */
  GCallback scroll;       /* GtkEventControllerScroll::scroll (vertical) */
  GCallback drag_begin;   /* GtkGestureDrag::drag-begin */
  GCallback drag_update;  /* GtkGestureDrag::drag-update */
  gboolean drag_any_button;
  GCallback pressed;      /* GtkGestureClick::pressed */
  GCallback released;     /* GtkGestureClick::released */
} ZwPointerHandlers;

/* Adds the controllers for @handlers to @widget (a view or its drawn child). */
void zw_widget_add_pointer_handlers (GtkWidget *widget, const ZwPointerHandlers *handlers, gpointer user_data);

/* Byte labels of one axis in one unit, the unit chosen by the axis's largest value @max
 * ("512 KiB", "1.0 MiB", "1.5 MiB": never "1000.0 KiB" beside "2.0 MiB"); a new string. */
char *zw_format_axis_bytes (double bytes, double max);

G_END_DECLS
