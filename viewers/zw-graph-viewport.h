/* zw-graph-viewport.h — what the graph view shows of a layout: a scale and the layout point
 * at the top-left corner, plus what is drawn over the graph (minimap, legend, search,
 * hover). Pure geometry over a ZwGraphLayout: no widget, no display.
 */
#pragma once

#include <glib.h>
#include "zw-graph-layout.h"

G_BEGIN_DECLS

/* What is on screen: the layout point at the top-left corner and the scale. */
typedef struct {
  double x, y;          /* layout point at the view's top-left */
  double scale;         /* pixels per layout point */
  gboolean minimap;     /* draw the minimap (bottom right) */
  gboolean legend;      /* draw the colour legend (a band along the bottom; fitting keeps
                         * the graph above it) */
  gboolean labels;      /* draw the values' labels (in the boxes of the layout) */
  const char *search;   /* nodes matching it are outlined; NULL or "" for none */
  gint hover_node;      /* -1 for none */
  gint hover_edge;
} ZwGraphViewport;

/* The height in pixels of the legend's band at the bottom of the view. */
#define ZW_GRAPH_LEGEND_HEIGHT 28

void zw_graph_viewport_init (ZwGraphViewport *vp);
/* The scale and offset that show the whole layout in @width x @height (at most 100 %), above
 * the legend when it is shown. */
void zw_graph_viewport_fit (ZwGraphViewport *vp, const ZwGraphLayout *layout, int width, int height);
/* Centres the viewport on layout point (x, y). */
void zw_graph_viewport_center (ZwGraphViewport *vp, double x, double y, int width, int height);
/* The layout point under view pixel (@x, @y). */
void zw_graph_viewport_to_layout (const ZwGraphViewport *vp, double x, double y, double *lx, double *ly);
/* Multiplies the scale by @factor (kept in [1e-4, 4]) keeping the layout point under view
 * pixel (@x, @y) where it is. */
void zw_graph_viewport_zoom_at (ZwGraphViewport *vp, double factor, double x, double y);
/* Where the minimap of @layout goes in a view of @width x @height: its top-left pixel (@x,
 * @y), its size in whole pixels (@w x @h) and its scale (pixels per layout point). FALSE
 * when it is not drawn: turned off, the whole layout in sight, or the view too small for it. */
gboolean zw_graph_viewport_minimap (const ZwGraphViewport *vp, const ZwGraphLayout *layout, int width, int height,
                                    double *x, double *y, int *w, int *h, double *scale);

G_END_DECLS
