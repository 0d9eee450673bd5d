/* test-graph-widget.c — the graph view's widget in a window (suite display, under Xvfb): a
 * click selects the op under the pointer, keys walk and zoom, search, the linked Merges view
 * follows; the properties panel of an op and of a value, and the edges' tooltips. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-deploy-graph.h"
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"
#include "zw-graph-properties.h"
#include "zw-merge-view.h"
#include "zw-selection.h"

#include <math.h>
#include <string.h>

static gboolean have_display;

static gboolean
laid_out (gpointer view)
{
  return zw_graph_view_get_layout (view) != NULL && !zw_graph_view_get_busy (view)
         && gtk_widget_get_width (zw_graph_view_get_canvas (view)) > 0;
}

/* A widget shown and laid out (a pane made visible gets its size at the next frame, which
 * a loaded machine paints late). */
static gboolean
shown_with_width (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

static GtkGesture *
find_click (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_CLICK (c))
        return GTK_GESTURE (c);
    }
  return NULL;
}

static void
iterate (void)
{
  for (int i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_display_graph (void)
{
  g_autoptr (ZwDeployReport) report = zw_test_deploy ("yolov5s", TRUE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  GtkWidget *window, *box, *graph, *merges, *canvas;
  ZwGraphLayout *layout;
  const ZwGraphViewport *vp;
  gint node;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  graph = zw_graph_view_new (sel);
  merges = zw_merge_view_new (sel);
  gtk_widget_set_hexpand (graph, TRUE);
  gtk_box_append (GTK_BOX (box), graph);
  gtk_box_append (GTK_BOX (box), merges);
  gtk_window_set_child (GTK_WINDOW (window), box);
  zw_selection_set_report (sel, report);
  gtk_window_present (GTK_WINDOW (window));

  /* laid out in the background, then shown */
  g_assert_true (zw_test_wait_until (laid_out, graph));
  layout = zw_graph_view_get_layout (ZW_GRAPH_VIEW (graph));
  g_assert_cmpuint (layout->nodes->len, ==, report->ops->len);
  canvas = zw_graph_view_get_canvas (ZW_GRAPH_VIEW (graph));
  vp = zw_graph_view_get_viewport (ZW_GRAPH_VIEW (graph));

  /* a click on a node selects its op; the merges view selects its launch */
  node = -1;
  for (guint i = 0; i < layout->nodes->len && node < 0; i++)
    {
      const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, i);
      double sx = (n->x - vp->x) * vp->scale, sy = (n->y - vp->y) * vp->scale;
      if (n->kind == ZW_GRAPH_NODE_HARDOP && sx > 20 && sy > 20 && sx < gtk_widget_get_width (canvas) - 200
          && sy < gtk_widget_get_height (canvas) - 200)
        {
          node = (gint) i;
          g_signal_emit_by_name (find_click (canvas), "pressed", 1, sx, sy);
        }
    }
  g_assert_cmpint (node, >=, 0);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, g_array_index (layout->nodes, ZwGraphNode, node).op_id);
  iterate ();
  /* the merges tree opened the launch and selected the member's row */
  g_assert_cmpint (zw_merge_view_get_selected_row_op (ZW_MERGE_VIEW (merges)), ==,
                   g_array_index (layout->nodes, ZwGraphNode, node).op_id);

  /* Down follows an output edge to a reader, Up goes back along an input */
  {
    gint64 from = zw_selection_get_selected_op (sel);
    gint64 to;
    gboolean is_reader = FALSE;
    g_assert_true (gtk_widget_activate_action (graph, "graph.down", NULL));
    to = zw_selection_get_selected_op (sel);
    g_assert_cmpint (to, !=, from);
    for (guint i = 0; i < layout->edges->len; i++)
      {
        const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
        is_reader |= g_array_index (layout->nodes, ZwGraphNode, e->from).op_id == from
                     && g_array_index (layout->nodes, ZwGraphNode, e->to).op_id == to;
      }
    g_assert_true (is_reader);
    g_assert_true (gtk_widget_activate_action (graph, "graph.up", NULL));
    g_assert_cmpint (zw_selection_get_selected_op (sel), !=, to);
    /* Back (what Alt+Left does) returns to the reader */
    g_assert_true (zw_selection_go_back (sel));
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, to);
  }

  /* zoom and fit */
  {
    double s0 = vp->scale;
    g_assert_true (gtk_widget_activate_action (graph, "graph.zoom-in", NULL));
    g_assert_cmpfloat (vp->scale, >, s0);
    g_assert_true (gtk_widget_activate_action (graph, "graph.zoom-fit", NULL));
    g_assert_cmpfloat (vp->scale * layout->height, <=, gtk_widget_get_height (canvas) + 1);
    g_assert_true (gtk_widget_activate_action (graph, "graph.zoom-100", NULL));
    g_assert_cmpfloat (vp->scale, ==, 1.0);
  }

  /* another view selects an op far away: the graph brings it into sight */
  {
    gint64 last = g_array_index (report->ops, ZwOpInfo, report->ops->len - 2).op_id;
    const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, zw_graph_layout_node_of_op (layout, last));
    double sy;
    zw_selection_set_selected_op (sel, last);
    sy = (n->y - vp->y) * vp->scale;
    g_assert_cmpfloat (sy, >=, 0);
    g_assert_cmpfloat (sy, <=, gtk_widget_get_height (canvas));
  }

  /* search by class, name or op id; Enter (next match) selects the matches in turn */
  {
    const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, 3);
    g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, op->op_id);
    guint n_conv = zw_graph_view_search (ZW_GRAPH_VIEW (graph), "conv2d");
    g_assert_cmpuint (n_conv, >, 10);
    g_assert_true (zw_graph_view_next_match (ZW_GRAPH_VIEW (graph)));
    g_assert_cmpstr (zw_deploy_report_find_op (report, zw_selection_get_selected_op (sel))->op_class, ==, "Conv2d");
    g_assert_cmpuint (zw_graph_view_search (ZW_GRAPH_VIEW (graph), id), >=, 1);
    g_assert_true (zw_graph_view_next_match (ZW_GRAPH_VIEW (graph)));
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, op->op_id);
    g_assert_cmpuint (zw_graph_view_search (ZW_GRAPH_VIEW (graph), "no-such-op"), ==, 0);
    g_assert_false (zw_graph_view_next_match (ZW_GRAPH_VIEW (graph)));
    /* Ctrl+F opens the search entry */
    g_assert_true (gtk_widget_activate_action (graph, "graph.find", NULL));
  }

  /* a click on an edge selects its value */
  {
    const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, layout->edges->len / 2);
    const double *p = &g_array_index (layout->points, double, 2 * (e->first_point + e->n_points / 2));
    zw_graph_view_search (ZW_GRAPH_VIEW (graph), "");
    zw_selection_set_selected_op (sel, -1);
    gtk_widget_activate_action (graph, "graph.zoom-100", NULL);
    /* centre the edge's middle point */
    zw_selection_set_selected_value (sel, e->v_id);
    zw_selection_set_selected_value (sel, -1);
    if (zw_graph_layout_node_at (layout, p[0], p[1]) < 0
        && zw_graph_layout_edge_at (layout, p[0], p[1], 5) >= 0)
      {
        gint64 v = g_array_index (layout->edges, ZwGraphEdge, zw_graph_layout_edge_at (layout, p[0], p[1], 5)).v_id;
        g_signal_emit_by_name (find_click (canvas), "pressed", 1, (p[0] - vp->x) * vp->scale,
                               (p[1] - vp->y) * vp->scale);
        g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v);
      }
  }

  /* the merges view selects a launch: the graph draws its group outlined (pixels change) */
  {
    cairo_surface_t *a = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 400);
    cairo_surface_t *b = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 400);
    cairo_t *cr;
    ZwViewStyle style;
    zw_view_style_init_default (&style);
    zw_selection_set_selected_op (sel, -1);
    cr = cairo_create (a);
    zw_graph_view_draw_layout (cr, 600, 400, layout, vp, sel, &style);
    cairo_destroy (cr);
    zw_selection_set_selected_op (sel, g_array_index (report->launches, ZwLaunch, 0).op_id);
    g_assert_cmpint (zw_merge_view_get_selected_row_op (ZW_MERGE_VIEW (merges)), ==,
                     g_array_index (report->launches, ZwLaunch, 0).op_id);
    cr = cairo_create (b);
    zw_graph_view_draw_layout (cr, 600, 400, layout, vp, sel, &style);
    cairo_destroy (cr);
    cairo_surface_flush (a);
    cairo_surface_flush (b);
    g_assert_true (zw_test_surfaces_differ (a, b));
    cairo_surface_destroy (a);
    cairo_surface_destroy (b);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
}

static GtkEventController *
find_motion (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        return c;
    }
  return NULL;
}

static void
assert_contains (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” is not in the properties:\n%s", part, text);
}

static char *
shape_text (const ZwValueInfo *v)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < v->shape->len; i++)
    g_string_append_printf (s, i ? "×%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (v->shape, gint64, i));
  return g_string_free (s, FALSE);
}

/* The properties pane (Netron's sidebar): a click on an op shows its class, inputs, addresses
 * and estimate; a click on an edge its value's shape, place, chunk and address; hovering an
 * edge shows the value as a tooltip; a link in the pane selects; p hides the pane. */
static void
test_display_properties (void)
{
  g_autoptr (ZwDeployReport) report = zw_test_deploy ("yolov5s", FALSE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  GtkWidget *window, *graph, *canvas, *props;
  ZwGraphLayout *layout;
  const ZwGraphViewport *vp;
  const ZwHardOpInfo *hard = NULL;
  const ZwGraphNode *n = NULL;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  graph = zw_graph_view_new (sel);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  zw_selection_set_report (sel, report);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (zw_test_wait_until (laid_out, graph));
  iterate ();
  layout = zw_graph_view_get_layout (ZW_GRAPH_VIEW (graph));
  canvas = zw_graph_view_get_canvas (ZW_GRAPH_VIEW (graph));
  props = zw_graph_view_get_properties (ZW_GRAPH_VIEW (graph));
  vp = zw_graph_view_get_viewport (ZW_GRAPH_VIEW (graph));
  /* nothing selected: no pane */
  g_assert_false (gtk_widget_get_visible (props));

  /* a click on a hardop on screen */
  for (guint i = 0; i < layout->nodes->len && hard == NULL; i++)
    {
      const ZwGraphNode *m = &g_array_index (layout->nodes, ZwGraphNode, i);
      double sx = (m->x - vp->x) * vp->scale, sy = (m->y - vp->y) * vp->scale;
      if (m->kind != ZW_GRAPH_NODE_HARDOP || sx < 20 || sy < 20 || sx > gtk_widget_get_width (canvas) - 200
          || sy > gtk_widget_get_height (canvas) - 200)
        continue;
      for (guint k = 0; k < report->hardops->len; k++)
        if (g_array_index (report->hardops, ZwHardOpInfo, k).op_id == m->op_id
            && g_array_index (report->hardops, ZwHardOpInfo, k).weights_size > 0)
          hard = &g_array_index (report->hardops, ZwHardOpInfo, k);
      if (hard != NULL)
        {
          n = m;
          g_signal_emit_by_name (find_click (canvas), "pressed", 1, sx, sy);
        }
    }
  g_assert_nonnull (hard);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, n->op_id);
  g_assert_true (zw_test_wait_until (shown_with_width, props));
  g_assert_cmpint (gtk_widget_get_width (props), >=, 250);
  {
    const ZwOpInfo *op = zw_deploy_report_find_op (report, n->op_id);
    g_autofree char *text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
    g_autofree char *id = g_strdup_printf ("Op id: %" G_GINT64_FORMAT, op->op_id);
    g_autofree char *cls = g_strdup_printf ("Class: %s", op->op_class);
    g_autofree char *weights = g_strdup_printf ("Weights (logic): 0x%08" G_GINT64_MODIFIER "x", hard->weights_logic_addr);
    g_autofree char *instr = g_strdup_printf ("Instructions (logic): 0x%08" G_GINT64_MODIFIER "x", hard->instr_logic_addr);
    g_autofree char *est = g_strdup_printf ("Estimate (cost model): %.4f ms", hard->est_ms);
    g_autofree char *input = g_strdup_printf ("v%" G_GINT64_FORMAT "  ", g_array_index (op->inputs, gint64, 0));
    g_test_message ("%s", text);
    assert_contains (text, id);
    assert_contains (text, cls);
    assert_contains (text, "Addresses");
    assert_contains (text, weights);
    assert_contains (text, instr);
    assert_contains (text, est);
    assert_contains (text, "Inputs");
    assert_contains (text, input);
    /* the network's own keys of the op */
    if (op->attrs != NULL && op->attrs->len > 0)
      {
        const ZwOpAttr *at = g_ptr_array_index (op->attrs, 0);
        g_autofree char *line = g_strdup_printf ("%s: %s", at->name, at->value);
        assert_contains (text, "Attributes");
        assert_contains (text, line);
      }
  }

  /* a click on an edge (the middle of its spline, off the nodes) shows its value */
  {
    const ZwGraphEdge *e = NULL;
    const double *p = NULL;
    const ZwValueInfo *v;
    double sx, sy;
    for (guint i = 0; i < layout->edges->len && e == NULL; i++)
      {
        const ZwGraphEdge *f = &g_array_index (layout->edges, ZwGraphEdge, i);
        const double *q = &g_array_index (layout->points, double, 2 * (f->first_point + f->n_points / 2));
        if (f->n_points >= 4 && zw_graph_layout_node_at (layout, q[0], q[1]) < 0
            && zw_graph_layout_edge_at (layout, q[0], q[1], 2) == (gint) i)
          {
            e = f;
            p = q;
          }
      }
    g_assert_nonnull (e);
    v = zw_deploy_report_find_value (report, e->v_id);
    /* bring it into sight the way another view would, then select nothing */
    zw_selection_set_selected_value (sel, e->v_id);
    zw_selection_select (sel, -1, -1);
    iterate ();
    g_assert_false (gtk_widget_get_visible (props));
    sx = (p[0] - vp->x) * vp->scale;
    sy = (p[1] - vp->y) * vp->scale;
    g_assert_cmpfloat (sx, >, 0);
    g_assert_cmpfloat (sy, >, 0);
    g_assert_cmpfloat (sx, <, gtk_widget_get_width (canvas));
    g_assert_cmpfloat (sy, <, gtk_widget_get_height (canvas));

    /* hovering it: the value as a tooltip (id, shape, dtype, bytes, where) */
    g_signal_emit_by_name (find_motion (canvas), "motion", sx, sy);
    {
      const char *tip = gtk_widget_get_tooltip_text (canvas);
      g_autofree char *shape = shape_text (v);
      g_autofree char *bytes = g_format_size_full (v->byte_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *id = g_strdup_printf ("v%" G_GINT64_FORMAT " ", v->v_id);
      g_autofree char *addr = g_strdup_printf ("address 0x%08" G_GINT64_MODIFIER "x", v->logic_addr);
      g_assert_nonnull (tip);
      g_test_message ("tooltip: %s", tip);
      assert_contains (tip, id);
      assert_contains (tip, shape);
      assert_contains (tip, v->dtype);
      assert_contains (tip, bytes);
      assert_contains (tip, v->is_ocm ? "OCM" : v->is_host ? "host" : "ETM");
      assert_contains (tip, addr);
    }

    /* its label stands for it too: a click on the label selects the value */
    if (e->label_w > 0)
      {
        zw_selection_select (sel, -1, -1);
        g_signal_emit_by_name (find_click (canvas), "pressed", 1, (e->label_x + e->label_w / 2 - 3 - vp->x) * vp->scale,
                               (e->label_y - vp->y) * vp->scale);
        g_assert_cmpint (zw_selection_get_selected_value (sel), ==, e->v_id);
        zw_selection_select (sel, -1, -1);
      }
    g_signal_emit_by_name (find_click (canvas), "pressed", 1, sx, sy);
    g_assert_cmpint (zw_selection_get_selected_value (sel), ==, e->v_id);
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, -1);
    g_assert_true (zw_test_wait_until (shown_with_width, props));
    {
      g_autofree char *text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
      g_autofree char *id = g_strdup_printf ("Value id: v%" G_GINT64_FORMAT, v->v_id);
      g_autofree char *shape = shape_text (v);
      g_autofree char *shape_line = g_strdup_printf ("Shape: %s", shape);
      g_autofree char *addr = g_strdup_printf ("Logic address: 0x%08" G_GINT64_MODIFIER "x", v->logic_addr);
      g_autofree char *writer = g_strdup_printf ("Written by: ");
      g_test_message ("%s", text);
      assert_contains (text, id);
      assert_contains (text, shape_line);
      assert_contains (text, addr);
      assert_contains (text, v->is_ocm ? "Memory: OCM" : v->is_host ? "Memory: host" : "Memory: ETM");
      if (v->chunk != -1)
        {
          g_autofree char *chunk = zw_chunk_id_dup_label (v->chunk);
          g_autofree char *line = g_strdup_printf ("Chunk: %s", chunk);
          g_autofree char *off = g_strdup_printf ("Offset in the chunk: %" G_GUINT64_FORMAT, v->chunk_offset);
          assert_contains (text, line);
          assert_contains (text, off);
        }
      assert_contains (text, writer);
    }
    /* a quantised value: its bits, scale and zero point */
    {
      const ZwValueInfo *q = NULL;
      g_autofree char *text = NULL, *bits = NULL, *scale = NULL;
      for (guint i = 0; i < report->values->len && q == NULL; i++)
        if (g_array_index (report->values, ZwValueInfo, i).scales != NULL
            && g_array_index (report->values, ZwValueInfo, i).scales->len > 0)
          q = &g_array_index (report->values, ZwValueInfo, i);
      g_assert_nonnull (q);
      zw_selection_select (sel, -1, q->v_id);
      text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
      bits = g_strdup_printf ("Bits: %u", q->quant_bits);
      if (q->scales->len == 1)
        scale = g_strdup_printf ("Scale: %.6g", g_array_index (q->scales, double, 0));
      else
        scale = g_strdup_printf ("Scales: %u along axis %d: ", q->scales->len, q->quant_axis);
      g_test_message ("%s", text);
      assert_contains (text, "Quantisation");
      assert_contains (text, bits);
      assert_contains (text, scale);
      zw_selection_select (sel, -1, e->v_id);
    }

    /* the pane's link to the writer selects it */
    {
      GtkWidget *link = NULL;
      GtkWidget *w = props;
      /* depth-first: the first flat button with an op link ("Written by") */
      GPtrArray *stack = g_ptr_array_new ();
      g_ptr_array_add (stack, w);
      while (stack->len > 0 && link == NULL)
        {
          GtkWidget *c = g_ptr_array_steal_index (stack, stack->len - 1);
          if (GTK_IS_BUTTON (c) && g_object_get_data (G_OBJECT (c), "op-id") != NULL
              && *(gint64 *) g_object_get_data (G_OBJECT (c), "op-id") == g_array_index (layout->nodes, ZwGraphNode,
                                                                                         e->from).op_id)
            link = c;
          for (GtkWidget *k = gtk_widget_get_last_child (c); k != NULL; k = gtk_widget_get_prev_sibling (k))
            g_ptr_array_add (stack, k);
        }
      g_ptr_array_unref (stack);
      g_assert_nonnull (link);
      g_signal_emit_by_name (link, "clicked");
      g_assert_cmpint (zw_selection_get_selected_op (sel), ==, g_array_index (layout->nodes, ZwGraphNode, e->from).op_id);
    }
  }

  /* p hides the pane, and shows it again */
  g_assert_true (gtk_widget_activate_action (graph, "graph.properties", NULL));
  g_assert_false (gtk_widget_get_visible (props));
  g_assert_true (gtk_widget_activate_action (graph, "graph.properties", NULL));
  g_assert_true (gtk_widget_get_visible (props));

  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  have_display = gtk_init_check ();

  g_test_add_func ("/graph/display/click-keys-zoom-search-and-linked-views", test_display_graph);
  g_test_add_func ("/graph/display/properties-of-an-op-and-a-value-and-edge-tooltips", test_display_properties);
  return g_test_run ();
}
