/* zw-graph-view.h — the network as a graph: ops as nodes, values as edges, launches as groups.
 *
 * Nodes show the op's class, name, op id, layer count and backend; host ops and custom ops
 * (customop::…) have colours and shapes of their own. Edges are the values, from the op that
 * writes one to each op that reads it, labelled with shape, dtype and bytes and coloured by
 * where the plan put them (ETM, OCM — with the OCM option that chose it — or host memory).
 * A merged launch is a box around its members. Positions and splines are graphviz's (see
 * zw-graph-layout.h), computed in a worker thread; the drawing is ours, in the theme.
 *
 * A pipeline's whole pass (the selection has a pipeline and no report) is drawn by
 * zw-graph-pipeline.h: the networks side by side, the connections as edges, fitted.
 *
 * Pan (drag, wheel), zoom (Ctrl+wheel, +/-, 0 fits, 1 is 100 %), a minimap (m), search by op
 * id, name or class (Ctrl+F; Enter goes to the next match), and the arrow keys walk the
 * edges: Down to the first op that reads the selected op's output, Up to the op that wrote
 * its first input, Left/Right to the other readers/writers on the same rank. A click
 * selects an op or a value in the shared ZwSelection; every other view follows and this
 * one brings the selection into sight when another view changes it. A pane on the right
 * shows the properties of the selected op or value (zw-graph-properties.h; p hides it,
 * hovering an edge shows its value as a tooltip).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-view.h"
#include "zw-graph-layout.h"
#include "zw-graph-viewport.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

/* Draws @layout as seen through @vp. Needs no display. */
void zw_graph_view_draw_layout (cairo_t *cr, int width, int height, const ZwGraphLayout *layout,
                                const ZwGraphViewport *vp, ZwSelection *selection, const ZwViewStyle *colors);
/* The ZwViewDrawFunc of the view (offscreen renders, exports): lays @report out (cached)
 * and draws it fitted, or around the selected op at 100 % when one is selected. */
void zw_graph_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                         const ZwViewStyle *colors);

/* The opaque fill of a node of @kind and of a group's box in @colors (tests find them). */
GdkRGBA zw_graph_view_node_color (const ZwViewStyle *colors, ZwGraphNodeKind kind);
GdkRGBA zw_graph_view_group_color (const ZwViewStyle *colors);
/* Does the op match the search text (op id, name or class, case-insensitive)? */
gboolean zw_graph_op_matches (const ZwOpInfo *op, const char *search);

#define ZW_TYPE_GRAPH_VIEW (zw_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwGraphView, zw_graph_view, ZW, GRAPH_VIEW, ZwView)

GtkWidget *zw_graph_view_new (ZwSelection *selection);
/* The layout shown, NULL while it is being computed or without a report (borrowed). */
ZwGraphLayout *zw_graph_view_get_layout (ZwGraphView *self);
/* TRUE while a layout runs in the background ("busy" property). */
gboolean zw_graph_view_get_busy (ZwGraphView *self);
/* The current viewport (borrowed). */
const ZwGraphViewport *zw_graph_view_get_viewport (ZwGraphView *self);
/* Sets the search text (what the Ctrl+F entry does); returns the number of matches. */
guint zw_graph_view_search (ZwGraphView *self, const char *text);
/* Selects the next match (wraps); FALSE when none. */
gboolean zw_graph_view_next_match (ZwGraphView *self);
/* The time profile of the forward that ran the report shown (NULL: none): the properties
 * pane's times. Copied. */
void zw_graph_view_set_profile (ZwGraphView *self, const ZwProfile *profile);
/* The properties pane (ZwGraphProperties; hidden while nothing is selected or after p). */
GtkWidget *zw_graph_view_get_properties (ZwGraphView *self);
/* The widget that draws (tests send it pointer events). */
GtkWidget *zw_graph_view_get_canvas (ZwGraphView *self);

G_END_DECLS
