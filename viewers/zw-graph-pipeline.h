/* zw-graph-pipeline.h — the Graph view of a pipeline (issue 38 item 3): the networks side by
 * side, each a cluster of its ops, the connections as edges between them.
 *
 * Model: a ZwPipelineReport. One graphviz (dot) layout, left to right in pass order: a
 * cluster per network (its ops as nodes, its values as edges, from each network's deploy
 * report; a network of host ops only, which has no report, is one node), and one edge per
 * connection from the op that writes its value in one network to the op that reads it in
 * the next (the reader's Input op). Drawn with cairo: each cluster framed and titled in its
 * network's colour (the Board view's palette), nodes in the Graph view's kind colours,
 * connection edges thick in the writer's colour with their names. The picture is fitted to
 * the area; the selection's pipeline value ("NET:V_ID") is drawn in the accent colour, and a
 * click on an op or an edge selects its value.
 */
#pragma once

#include "report/zw-pipeline-pass.h"
#include "zw-graph-layout.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

typedef struct {
  gint network;            /* index in the pipeline */
  gint op_index;           /* into its report's ops; -1 for a network without a report */
  ZwGraphNodeKind kind;
  double x, y, w, h;       /* centre and size, graphviz points, y down */
} ZwPipeGraphNode;

typedef struct {
  guint from, to;          /* node indices */
  gint connection;         /* index of the pipeline's connection, -1 for a value of one network */
  gint network;            /* the value's network (a connection: the writer) */
  gint64 v_id;
  guint first_point, n_points;   /* into points: a cubic bezier, 1 + 3k points */
} ZwPipeGraphEdge;

typedef struct {
  gint network;
  double x0, y0, x1, y1;
} ZwPipeGraphCluster;

typedef struct {
  gint ref_count;
  ZwPipelineReport *pipeline;
  GArray *nodes;           /* ZwPipeGraphNode */
  GArray *edges;           /* ZwPipeGraphEdge */
  GArray *clusters;        /* ZwPipeGraphCluster, one per network, pass order */
  GArray *points;          /* double x, y pairs */
  double width, height;
} ZwPipeGraphLayout;

/* Lays @pipeline out (synchronously: a pipeline's networks are laid out together). */
ZwPipeGraphLayout *zw_pipe_graph_layout_new (ZwPipelineReport *pipeline, GError **error);
ZwPipeGraphLayout *zw_pipe_graph_layout_ref (ZwPipeGraphLayout *layout);
void zw_pipe_graph_layout_unref (ZwPipeGraphLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwPipeGraphLayout, zw_pipe_graph_layout_unref)
/* The layout of @pipeline from a one-entry cache (computed when it holds another). Borrowed. */
ZwPipeGraphLayout *zw_pipe_graph_layout_get_cached (ZwPipelineReport *pipeline);

/* The fitted transform at @width x @height: pixel = offset + scale * point. */
void zw_pipe_graph_fit (const ZwPipeGraphLayout *l, int width, int height, double *scale, double *ox, double *oy);

/* What a click at (@x, @y) of the fitted drawing selects: an op's first output or the value
 * of the edge within a few pixels, as "NET:V_ID" (a new string); NULL for nothing. */
char *zw_pipe_graph_value_at (const ZwPipeGraphLayout *l, int width, int height, double x, double y);

/* Draws the pipeline's graph fitted to @width x @height (see the top). Needs no display. */
void zw_pipe_graph_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *pipeline, ZwSelection *selection,
                         const ZwViewStyle *colors);

G_END_DECLS
