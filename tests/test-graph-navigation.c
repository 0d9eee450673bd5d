/* test-graph-navigation.c — moving about the graph, in numbers (suite render, no display): the
 * viewport's fit, centre, zoom about the pointer and minimap, the legend's band below the
 * fitted graph, the arrow keys' walk along edges and ranks, search by id, name and class
 * (wrapping), and the one selection's history back and forward. */
#include "zw-test-util.h"
#include "report/zw-deploy-graph.h"
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"
#include "zw-selection.h"

#include <math.h>
#include <string.h>

/* The legend has a band of its own: the fitted graph ends above it. */
static void
test_legend_keeps_the_bottom (void)
{
  g_autoptr (ZwDeployReport) report = zw_test_deploy ("yolov5s", TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwGraphLayout) layout = zw_graph_layout_new (report, NULL, &error);
  ZwGraphViewport vp;
  const int w = 300, h = 600;

  zw_graph_viewport_init (&vp);
  zw_graph_viewport_fit (&vp, layout, w, h);
  /* the layout's bottom edge, in pixels: above the legend's band */
  g_assert_cmpfloat ((layout->height - vp.y) * vp.scale, <=, h - ZW_GRAPH_LEGEND_HEIGHT + 0.5);
  g_assert_cmpfloat ((0 - vp.y) * vp.scale, >=, -0.5);
  /* without the legend the whole height is the graph's */
  vp.legend = FALSE;
  zw_graph_viewport_fit (&vp, layout, w, h);
  g_assert_cmpfloat ((layout->height - vp.y) * vp.scale, >, h - ZW_GRAPH_LEGEND_HEIGHT + 0.5);
}

/* A layout made by hand (no graphviz): nodes at the given centres, 200 x 40 points each,
 * and edges between them; only what the pure functions read. */
static ZwGraphLayout *
hand_layout (double width, double height, const double (*centres)[2], guint n_nodes, const guint (*edges)[2],
             guint n_edges)
{
  ZwGraphLayout *l = g_new0 (ZwGraphLayout, 1);

  l->ref_count = 1;
  l->report = zw_deploy_report_new ();
  l->nodes = g_array_new (FALSE, TRUE, sizeof (ZwGraphNode));
  l->edges = g_array_new (FALSE, TRUE, sizeof (ZwGraphEdge));
  l->groups = g_array_new (FALSE, TRUE, sizeof (ZwGraphGroup));
  l->points = g_array_new (FALSE, FALSE, sizeof (double));
  l->node_of_op = g_hash_table_new (g_int64_hash, g_int64_equal);
  l->width = width;
  l->height = height;
  for (guint i = 0; i < n_nodes; i++)
    {
      ZwGraphNode n = { .op_id = i, .op_index = i, .x = centres[i][0], .y = centres[i][1], .w = 200, .h = 40, .group = -1 };
      g_array_append_val (l->nodes, n);
    }
  for (guint i = 0; i < n_edges; i++)
    {
      ZwGraphEdge e = { .v_id = i, .from = edges[i][0], .to = edges[i][1] };
      g_array_append_val (l->edges, e);
    }
  return l;
}

/* The viewport is plain geometry: fitting, centring, zooming about the pointer and the
 * minimap's place, in numbers. */
static void
test_viewport_geometry (void)
{
  g_autoptr (ZwGraphLayout) l = hand_layout (800, 3200, NULL, 0, NULL, 0);
  ZwGraphViewport vp;
  double lx, ly, mx, my, s;
  int mw, mh;

  zw_graph_viewport_init (&vp);
  g_assert_cmpfloat (vp.scale, ==, 1);
  g_assert_true (vp.minimap && vp.legend);
  g_assert_cmpint (vp.hover_node, ==, -1);

  /* 3200 points into 400 px: 1/8, centred (the legend's band is the test below's) */
  vp.legend = FALSE;
  zw_graph_viewport_fit (&vp, l, 500, 400);
  g_assert_cmpfloat_with_epsilon (vp.scale, 0.125, 1e-12);
  g_assert_cmpfloat_with_epsilon (vp.x, 400 - 250 / 0.125, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.y, 0, 1e-9);
  zw_graph_viewport_to_layout (&vp, 250, 200, &lx, &ly);
  g_assert_cmpfloat_with_epsilon (lx, 400, 1e-9);
  g_assert_cmpfloat_with_epsilon (ly, 1600, 1e-9);
  /* the whole layout is in sight: no minimap */
  g_assert_false (zw_graph_viewport_minimap (&vp, l, 500, 400, &mx, &my, &mw, &mh, &s));

  /* zooming keeps the point under the pointer where it is */
  zw_graph_viewport_zoom_at (&vp, 2, 100, 50);
  g_assert_cmpfloat_with_epsilon (vp.scale, 0.25, 1e-12);
  zw_graph_viewport_to_layout (&vp, 100, 50, &lx, &ly);
  g_assert_cmpfloat_with_epsilon (lx, 400 - 250 / 0.125 + 100 / 0.125, 1e-9);
  g_assert_cmpfloat_with_epsilon (ly, 50 / 0.125, 1e-9);
  /* and stays within [1e-4, 4] */
  zw_graph_viewport_zoom_at (&vp, 1e9, 0, 0);
  g_assert_cmpfloat (vp.scale, ==, 4);
  zw_graph_viewport_zoom_at (&vp, 1e-12, 0, 0);
  g_assert_cmpfloat (vp.scale, ==, 1e-4);

  /* centring at 100 %: the point in the middle of the view */
  vp.scale = 1;
  zw_graph_viewport_center (&vp, 10, 20, 500, 800);
  g_assert_cmpfloat_with_epsilon (vp.x, 10 - 250, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.y, 20 - 400, 1e-9);

  /* the minimap: 200 px high at most (1/16 here), bottom right, 10 px from the border */
  g_assert_true (zw_graph_viewport_minimap (&vp, l, 500, 800, &mx, &my, &mw, &mh, &s));
  g_assert_cmpfloat_with_epsilon (s, 0.0625, 1e-12);
  g_assert_cmpint (mw, ==, 50);
  g_assert_cmpint (mh, ==, 200);
  g_assert_cmpfloat_with_epsilon (mx, 500 - 50 - 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (my, 800 - 200 - 10, 1e-9);
  /* above the legend's band when it is shown */
  vp.legend = TRUE;
  g_assert_true (zw_graph_viewport_minimap (&vp, l, 500, 800, &mx, &my, &mw, &mh, &s));
  g_assert_cmpfloat_with_epsilon (my, 800 - 200 - 10 - ZW_GRAPH_LEGEND_HEIGHT, 1e-9);
  vp.legend = FALSE;
  /* a view too short for it (the minimap would cover its upper half), or turned off */
  g_assert_false (zw_graph_viewport_minimap (&vp, l, 500, 400, &mx, &my, &mw, &mh, &s));
  vp.minimap = FALSE;
  g_assert_false (zw_graph_viewport_minimap (&vp, l, 500, 800, &mx, &my, &mw, &mh, &s));
}

/* The arrow keys: Down to the leftmost reader, Up to the leftmost writer, Left/Right to the
 * nearest node on the same rank. */
static void
test_walk (void)
{
  /*        0
   *      /   \
   *     1     2     3
   *      \    |    /
   *         4            */
  static const double centres[][2] = { { 300, 20 }, { 100, 120 }, { 320, 125 }, { 560, 118 }, { 320, 220 } };
  static const guint edges[][2] = { { 0, 2 }, { 0, 1 }, { 1, 4 }, { 2, 4 }, { 3, 4 } };
  g_autoptr (ZwGraphLayout) l = hand_layout (700, 260, centres, G_N_ELEMENTS (centres), edges, G_N_ELEMENTS (edges));

  g_assert_cmpint (zw_graph_layout_walk (l, 0, ZW_GRAPH_WALK_DOWN), ==, 1);
  g_assert_cmpint (zw_graph_layout_walk (l, 2, ZW_GRAPH_WALK_DOWN), ==, 4);
  g_assert_cmpint (zw_graph_layout_walk (l, 4, ZW_GRAPH_WALK_DOWN), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 4, ZW_GRAPH_WALK_UP), ==, 1);
  g_assert_cmpint (zw_graph_layout_walk (l, 3, ZW_GRAPH_WALK_UP), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 2, ZW_GRAPH_WALK_UP), ==, 0);
  g_assert_cmpint (zw_graph_layout_walk (l, 1, ZW_GRAPH_WALK_RIGHT), ==, 2);
  g_assert_cmpint (zw_graph_layout_walk (l, 2, ZW_GRAPH_WALK_RIGHT), ==, 3);
  g_assert_cmpint (zw_graph_layout_walk (l, 3, ZW_GRAPH_WALK_RIGHT), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 3, ZW_GRAPH_WALK_LEFT), ==, 2);
  g_assert_cmpint (zw_graph_layout_walk (l, 1, ZW_GRAPH_WALK_LEFT), ==, -1);
  /* alone on its rank */
  g_assert_cmpint (zw_graph_layout_walk (l, 0, ZW_GRAPH_WALK_LEFT), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 9, ZW_GRAPH_WALK_DOWN), ==, -1);
}

/* The search matches an op's id (with or without #) exactly, its name, class or kind in
 * any case; the next match wraps around. */
static void
test_search (void)
{
  static const struct {
    gint64 id;
    const char *name, *op_class;
  } ops[] = { { 5, "backbone.conv1", "Conv2d" }, { 7, "head", "Concat" }, { 12, "neck", "Conv2d" }, { 57, "x", "Add" } };
  g_autoptr (ZwDeployReport) report = zw_deploy_report_new ();

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      ZwOpInfo op = { .op_id = ops[i].id, .index = i, .launch = -1 };
      op.name = g_strdup (ops[i].name);
      op.op_class = g_strdup (ops[i].op_class);
      op.kind = g_strdup ("HardOp");
      g_array_append_val (report->ops, op);
    }
  g_assert_cmpuint (zw_graph_search_count (report, "CONV"), ==, 2);
  g_assert_cmpuint (zw_graph_search_count (report, "7"), ==, 1);
  g_assert_cmpuint (zw_graph_search_count (report, "#57"), ==, 1);
  g_assert_cmpuint (zw_graph_search_count (report, "hardop"), ==, 4);
  g_assert_cmpuint (zw_graph_search_count (report, ""), ==, 0);
  g_assert_cmpuint (zw_graph_search_count (report, NULL), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 0), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 1), ==, 2);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 3), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 4), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "nothing", 0), ==, -1);
  g_assert_cmpint (zw_graph_search_next (report, "", 0), ==, -1);
}

/* Back and Forward walk the selections without adding to them. */
static void
test_selection_history (void)
{
  g_autoptr (ZwDeployReport) report = zw_test_deploy ("tiny", TRUE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  gint64 a = g_array_index (report->ops, ZwOpInfo, 1).op_id, b = g_array_index (report->ops, ZwOpInfo, 2).op_id;
  gint64 v = g_array_index (report->values, ZwValueInfo, 0).v_id;

  zw_selection_set_report (sel, report);
  g_assert_false (zw_selection_can_go_back (sel));
  zw_selection_set_selected_op (sel, a);
  zw_selection_set_selected_op (sel, b);
  zw_selection_select (sel, a, v);
  g_assert_true (zw_selection_can_go_back (sel));
  g_assert_false (zw_selection_can_go_forward (sel));
  g_assert_true (zw_selection_go_back (sel));
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, b);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, -1);
  g_assert_true (zw_selection_go_back (sel));
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, a);
  g_assert_false (zw_selection_go_back (sel));
  g_assert_true (zw_selection_go_forward (sel));
  g_assert_true (zw_selection_go_forward (sel));
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, a);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v);
  g_assert_false (zw_selection_can_go_forward (sel));
  /* a new selection after going back drops what was ahead */
  zw_selection_go_back (sel);
  zw_selection_set_selected_op (sel, g_array_index (report->ops, ZwOpInfo, 0).op_id);
  g_assert_false (zw_selection_can_go_forward (sel));
  /* another report: no history */
  zw_selection_set_report (sel, NULL);
  g_assert_false (zw_selection_can_go_back (sel));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph/viewport/legend-keeps-the-bottom-of-the-fitted-graph", test_legend_keeps_the_bottom);
  g_test_add_func ("/selection/history-back-and-forward", test_selection_history);
  g_test_add_func ("/graph/viewport/fit-centre-zoom-and-minimap-in-numbers", test_viewport_geometry);
  g_test_add_func ("/graph/walk/arrows-follow-edges-and-ranks", test_walk);
  g_test_add_func ("/graph/search/matches-id-name-class-and-wraps", test_search);
  return g_test_run ();
}
