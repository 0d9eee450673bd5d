/* zw-graph-layout.h — the network graph of a deploy report, laid out by graphviz.
 *
 * Ops are nodes, values are edges (one per reading op), merged launches are clusters. The
 * layered layout (node positions and edge splines) is graphviz's dot (cgraph + gvc); the
 * graph view draws the result with cairo in its own theme, never through graphviz's
 * renderers. A layout is immutable once computed, so it may be made in a worker thread
 * (graphviz itself is not thread-safe: layouts are computed one at a time) and read by the
 * main thread. Coordinates are graphviz points with y growing downwards, origin at the top
 * left of the drawing's bounding box.
 *
 * Each value's first edge carries a label (zw_graph_edge_label: id, shape, dtype) that dot
 * lays out with the graph, like Netron's: its box never overlaps a node's. Networks laid out
 * in parts (over 1,500 ops) have no labels: the tooltips and the properties panel say the
 * values.
 *
 * The edges come from the report's op inputs/outputs (zw-deploy-graph.h); a report without
 * them gets one edge per value from its producer to the op that last reads it
 * ("edges_guessed").
 */
#pragma once

#include <gio/gio.h>
#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

typedef enum {
  ZW_GRAPH_NODE_HARDOP,  /* run by the board backend */
  ZW_GRAPH_NODE_HOST,    /* a host op (Input, Output, Cast, Resize, …) */
  ZW_GRAPH_NODE_CUSTOM,  /* a custom op (customop::…: DetPostZG, ImageMake, …) */
  ZW_GRAPH_N_NODE_KINDS
} ZwGraphNodeKind;

typedef struct {
  gint64 op_id;
  guint op_index;        /* into report->ops */
  ZwGraphNodeKind kind;
  double x, y;           /* centre */
  double w, h;
  gint group;            /* index into groups, -1 */
} ZwGraphNode;

typedef struct {
  gint64 v_id;
  guint from, to;        /* node indices */
  guint first_point;     /* into points (x, y pairs): a cubic bezier spline, 1 + 3k points */
  guint n_points;
  double tip_x, tip_y;   /* the arrow's tip (on the reading op's border) */
  double mid_x, mid_y;   /* the middle of the spline: where its label goes */
  double x0, y0, x1, y1; /* bounding box */
  /* The value's label (the first edge of each value only; 0 x 0 for none and in big networks): a box dot placed
   * as part of the layout (a label node between the ranks), so no label box overlaps a node
   * box; centre and size in layout points. */
  double label_x, label_y, label_w, label_h;
} ZwGraphEdge;

typedef struct {
  gint launch;           /* index into report->launches */
  gint64 op_id;          /* the merged op id */
  double x0, y0, x1, y1; /* dot's cluster box (its title inside, at the top), or the box
                          * around the members in networks too big for clusters */
  gboolean laid_out;     /* the box is dot's */
} ZwGraphGroup;

typedef struct {
  gint ref_count;
  ZwDeployReport *report;
  GArray *nodes;         /* ZwGraphNode, in report->ops order */
  GArray *edges;         /* ZwGraphEdge */
  GArray *groups;        /* ZwGraphGroup: the launches that merge more than one op */
  GArray *points;        /* double x, y pairs */
  double width, height;
  gboolean edges_guessed;
  double seconds;        /* measured (shown only) */
  GHashTable *node_of_op;  /* gint64 op_id -> node index + 1 */
  gpointer draw_cache;     /* the view's (main thread): minimap surface */
  GDestroyNotify draw_cache_free;
} ZwGraphLayout;

/* Lays @report out (may take seconds for 10,000 ops; call from a worker for big
 * networks). NULL with G_IO_ERROR_CANCELLED when @cancellable fired, G_IO_ERROR_FAILED when
 * graphviz failed. */
ZwGraphLayout *zw_graph_layout_new (ZwDeployReport *report, GCancellable *cancellable, GError **error);
ZwGraphLayout *zw_graph_layout_ref (ZwGraphLayout *layout);
void zw_graph_layout_unref (ZwGraphLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwGraphLayout, zw_graph_layout_unref)

/* The short label an edge of @v_id carries ("v12  1×32×88×160 int8"; @v NULL: "v12"); a new
 * string. Untranslated: ids, numbers and the network's dtype names. */
char *zw_graph_edge_label (const ZwValueInfo *v, gint64 v_id);

/* The node of an op (a merged launch's op id gives -1), -1 when absent. */
gint zw_graph_layout_node_of_op (const ZwGraphLayout *layout, gint64 op_id);
/* The node at layout point (x, y), -1 for none. */
gint zw_graph_layout_node_at (const ZwGraphLayout *layout, double x, double y);
/* The edge passing within @tolerance of (x, y), -1 for none. */
gint zw_graph_layout_edge_at (const ZwGraphLayout *layout, double x, double y, double tolerance);
/* The edge whose label box holds layout point (x, y), -1 for none. */
gint zw_graph_layout_label_at (const ZwGraphLayout *layout, double x, double y);
/* The first edge of @v_id, -1 when it has none. */
gint zw_graph_layout_edge_of_value (const ZwGraphLayout *layout, gint64 v_id);

/* The arrow keys' steps from a node along the graph. */
typedef enum {
  ZW_GRAPH_WALK_DOWN,    /* the leftmost op that reads the node's outputs */
  ZW_GRAPH_WALK_UP,      /* the leftmost op that wrote the node's inputs */
  ZW_GRAPH_WALK_LEFT,    /* the nearest node to the left on the same rank */
  ZW_GRAPH_WALK_RIGHT,   /* the nearest node to the right on the same rank */
} ZwGraphWalk;

/* The node one step from @node in @direction, -1 when there is none. */
gint zw_graph_layout_walk (const ZwGraphLayout *layout, gint node, ZwGraphWalk direction);

/* The layout of @report from a one-entry cache of the main thread, computed now when the
 * cache holds another report (the offscreen drawing's path). Borrowed. */
ZwGraphLayout *zw_graph_layout_get_cached (ZwDeployReport *report);
/* The cached layout when it is @report's, else NULL (never computes). Borrowed. */
ZwGraphLayout *zw_graph_layout_peek_cached (ZwDeployReport *report);
/* Puts @layout (computed elsewhere, e.g. by the view's worker) in that cache. */
void zw_graph_layout_set_cached (ZwGraphLayout *layout);

G_END_DECLS
