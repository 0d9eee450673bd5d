/* zw-view.h — the base class of every view of the workbench.
 *
 * A view describes itself in its class (zw_view_class_set_info: its name, title, the line of
 * the shortcuts window and the data it takes) and draws its current content to any cairo
 * context at any size (the render virtual method): the window, --view, the shortcuts window
 * and export read these, never a list of view types (zw-views.h holds the one table).
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

/* What a view shows: where its data comes from (the window feeds it; .ci/screenshots gives
 * it the matching files). */
typedef enum {
  ZW_VIEW_DATA_REPORT,        /* a deploy report: a run, a network or report file */
  ZW_VIEW_DATA_PROFILE,       /* a time profile: a forward's, or a time file */
  ZW_VIEW_DATA_PROFILE_PAIR,  /* two time profiles (two runs, two time files) */
  ZW_VIEW_DATA_DUMP,          /* a dump folder */
  ZW_VIEW_DATA_DUMP_PAIR,     /* two dump folders */
  ZW_VIEW_DATA_COMPILE_PAIR,  /* two compiles of one network (--compare-compile) */
  ZW_VIEW_DATA_SWEEP,         /* an option sweep (a sweep JSON) */
  ZW_VIEW_DATA_LOG,           /* a text log */
  ZW_VIEW_DATA_PIPELINE,      /* several networks on one board (a pipeline file or its report) */
  ZW_VIEW_N_DATA
} ZwViewData;

/* The name of @data in --list-views ("report", "dump-pair", …); NULL out of range. */
const char *zw_view_data_to_string (ZwViewData data);

/* A drawing of a pipeline's whole pass (Memory, Segments): @pipeline never NULL. */
typedef void (*ZwViewPipelineDrawFunc) (cairo_t *cr, int width, int height, const ZwPipelineReport *pipeline,
                                        ZwSelection *selection, const ZwViewStyle *colors);

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
  /* Draws the current content at @width x @height into @cr with @colors (offscreen renders
   * and exports; no display needed). Default: @draw with the selection's report. */
  void (*render) (ZwView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors);
  /* The view's table as rows of GStrv, the header first (CSV export); NULL: no table. */
  GPtrArray *(*table) (ZwView *self);

  /* The whole pass of a pipeline (zw_selection_shows_pass): drawn instead of @draw by the
   * base snapshot and render when set. NULL: the view shows pipelines its own way. */
  ZwViewPipelineDrawFunc draw_pipeline;

  /* Set with zw_view_class_set_info(). */
  const char *name;
  const char *title;
  const char *key_title;
  ZwViewData data;

  gpointer padding[3];
};

/* In class_init: @name ("segments": win.view's target, --view NAME, the stack page), @title
 * (untranslated, N_(): the switcher's label), @key_title (untranslated: its line in the
 * shortcuts window) and the data the view takes. The strings must be static. */
void zw_view_class_set_info (ZwViewClass *klass, const char *name, const char *title, const char *key_title,
                             ZwViewData data);

/* Draws @self's current content into @cr at @width x @height; @colors NULL: the widget's
 * theme when realized, else the light default. FALSE (nothing drawn) when the view has no
 * render method. */
gboolean zw_view_render (ZwView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors);
/* Whether zw_view_render draws anything for @self. */
gboolean zw_view_can_render (ZwView *self);
/* The view's table (see the class), NULL when it has none. */
GPtrArray *zw_view_get_table (ZwView *self);

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
