/* zw-graph-view-private.h — shared by the graph view's files (not installed): the layout's
 * drawing (zw-graph-draw.c), the search (zw-graph-search.c), the widget (zw-graph-view.c)
 * and its pointer and keys (zw-graph-view-actions.c). */
#pragma once

#include "zw-graph-view.h"
#include "zw-draw-area.h"
#include "zw-graph-properties.h"

G_BEGIN_DECLS

/* How many of @report's ops match @search (zw_graph_op_matches). */
guint zw_graph_search_count (const ZwDeployReport *report, const char *search);
/* The index into report->ops of the first op from @from on (wrapping) that matches
 * @search, -1 when none does. */
gint zw_graph_search_next (const ZwDeployReport *report, const char *search, guint from);

/* ---- the widget ---- */

struct _ZwGraphView
{
  ZwView parent_instance;
  GtkWidget *box;          /* the canvas (with the search bar over it) | the properties */
  GtkWidget *overlay;
  GtkWidget *canvas;       /* ZwDrawArea */
  GtkWidget *properties;   /* ZwGraphProperties: the side pane */
  gboolean properties_hidden;   /* closed by the user (p shows it again) */
  GtkWidget *search_bar;   /* revealer */
  GtkWidget *search_entry;
  GtkWidget *search_label;
  ZwGraphLayout *layout;
  ZwDeployReport *laying_out; /* the report of the running task */
  GCancellable *cancellable;
  ZwGraphViewport vp;
  char *search;
  guint match_pos;
  gboolean fitted;          /* the viewport was set for this layout */
  double drag_x, drag_y;    /* viewport at drag start */
  double pointer_x, pointer_y;
};

static inline void
zw_graph_view_redraw (ZwGraphView *self)
{
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->canvas));
}

static inline int
zw_graph_view_canvas_width (ZwGraphView *self)
{
  return MAX (gtk_widget_get_width (self->canvas), 1);
}

static inline int
zw_graph_view_canvas_height (ZwGraphView *self)
{
  return MAX (gtk_widget_get_height (self->canvas), 1);
}

/* Shows the properties pane when something is selected and the user has not closed it. */
void zw_graph_view_update_properties (ZwGraphView *self);

/* Installs the view's actions (graph.zoom-in, graph.up, graph.find, …) and their keys. */
void zw_graph_view_class_add_actions (GtkWidgetClass *widget_class);
/* Adds the canvas' pointer controllers: click, drag, motion, scroll. */
void zw_graph_view_add_controllers (ZwGraphView *self);

G_END_DECLS
