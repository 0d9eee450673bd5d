/* zw-dot.h — one graphviz dot layout as our graph layouts run it (the network's,
 * zw-graph-layout.c, and the pipeline's, zw-graph-pipeline.c): graphviz's global lock (its
 * layout engines are not reentrant), the context and the graph, the attributes both set
 * (top to bottom, fixed-size empty boxes, a margin of 8 points), the layout, and its result
 * read back in our coordinates: graphviz points, y growing downwards, origin at the top left
 * of the drawing's bounding box (moved down by the caller's y offset). Graphviz never
 * renders: the views draw with cairo. */
#pragma once

#include <glib.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

G_BEGIN_DECLS

typedef struct {
  GVC_t *gvc;
  Agraph_t *graph;
  gboolean laid_out;
  double left, top;      /* the drawing's bounding box, graphviz's coordinates (after the layout) */
  double y_offset;
} ZwDot;

/* Takes graphviz's lock and opens the directed graph @name: ranks top to bottom @ranksep
 * inches apart, nodes @nodesep inches apart, every node a fixed box of @node_w_in x
 * @node_h_in inches with an empty label. */
void zw_dot_begin (ZwDot *dot, const char *name, double node_w_in, double node_h_in, double nodesep, double ranksep);
/* Lays the graph out with dot. FALSE when graphviz could not. */
gboolean zw_dot_layout (ZwDot *dot, double y_offset);
/* Frees the layout and the graph and releases the lock. */
void zw_dot_end (ZwDot *dot);

/* After zw_dot_layout(): the size of the drawing. */
void zw_dot_size (const ZwDot *dot, double *width, double *height);
/* A point of graphviz's (a label's position). */
void zw_dot_point (const ZwDot *dot, double px, double py, double *x, double *y);
/* A node's centre and size. */
void zw_dot_node_box (const ZwDot *dot, Agnode_t *node, double *x, double *y, double *w, double *h);
/* A cluster's box: left, top, right, bottom. */
void zw_dot_cluster_box (const ZwDot *dot, Agraph_t *cluster, double *x0, double *y0, double *x1, double *y1);
/* Appends an edge's spline (x, y pairs of a cubic bezier, 1 + 3k points) to @points and
 * returns its number of points, 0 when dot gave none; @tip_x, @tip_y (nullable) get the
 * arrow's tip (on the head's border). */
guint zw_dot_edge_spline (const ZwDot *dot, Agedge_t *edge, GArray *points, double *tip_x, double *tip_y);

/* Graphviz is not reentrant: zw_dot_begin() holds this lock until zw_dot_end(). */
void zw_graphviz_lock (void);
void zw_graphviz_unlock (void);

G_END_DECLS
