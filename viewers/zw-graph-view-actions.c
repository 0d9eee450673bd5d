/* zw-graph-view-actions.c — the graph view's pointer and keys: click to select, drag and
 * wheel to pan, Ctrl+wheel and +/-/0/1 to zoom, the minimap, the arrow keys along the edges,
 * Ctrl+F to search, p for the properties pane; an edge's tooltip. */
#include "zw-graph-view-private.h"
#include "zw-graph-pipeline.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

static gboolean
in_minimap (ZwGraphView *self, double x, double y, double *lx, double *ly)
{
  double mx, my, s;
  int mw, mh;

  if (self->layout == NULL
      || !zw_graph_viewport_minimap (&self->vp, self->layout, zw_graph_view_canvas_width (self), zw_graph_view_canvas_height (self), &mx, &my, &mw,
                                     &mh, &s))
    return FALSE;
  if (x < mx || y < my || x > mx + self->layout->width * s || y > my + self->layout->height * s)
    return FALSE;
  *lx = (x - mx) / s;
  *ly = (y - my) / s;
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, ZwGraphView *self)
{
  ZwSelection *sel = zw_view_get_selection (ZW_VIEW (self));
  double lx, ly;
  gint node, edge;

  (void) gesture;
  gtk_widget_grab_focus (self->canvas);
  if (zw_selection_shows_pass (sel))
    {
      /* a pipeline's whole pass: the op's or edge's value, "NET:V_ID" */
      ZwPipeGraphLayout *pl = zw_pipe_graph_layout_get_cached (zw_selection_get_pipeline (sel));
      g_autofree char *name = pl != NULL ? zw_pipe_graph_value_at (pl, zw_graph_view_canvas_width (self),
                                                                   zw_graph_view_canvas_height (self), x, y)
                                         : NULL;
      zw_selection_set_pipeline_value (sel, name);
      return;
    }
  if (self->layout == NULL)
    return;
  if (in_minimap (self, x, y, &lx, &ly))
    {
      zw_graph_viewport_center (&self->vp, lx, ly, zw_graph_view_canvas_width (self), zw_graph_view_canvas_height (self));
      zw_graph_view_redraw (self);
      return;
    }
  zw_graph_viewport_to_layout (&self->vp, x, y, &lx, &ly);
  node = zw_graph_layout_node_at (self->layout, lx, ly);
  if (node >= 0)
    {
      zw_selection_set_selected_op (sel, g_array_index (self->layout->nodes, ZwGraphNode, node).op_id);
      if (n_press == 2)
        {
          /* a double click reads the op at 100 % */
          const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
          self->vp.scale = 1;
          zw_graph_viewport_center (&self->vp, n->x, n->y, zw_graph_view_canvas_width (self), zw_graph_view_canvas_height (self));
          zw_graph_view_redraw (self);
        }
      return;
    }
  edge = zw_graph_layout_edge_at (self->layout, lx, ly, 5 / self->vp.scale);
  if (edge < 0 && self->vp.labels)
    edge = zw_graph_layout_label_at (self->layout, lx, ly);   /* its label stands for it */
  /* an edge is the value alone (the properties show it, not the op selected before) */
  if (edge >= 0)
    zw_selection_select (sel, -1, g_array_index (self->layout->edges, ZwGraphEdge, edge).v_id);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, ZwGraphView *self)
{
  double lx, ly;
  gint node = -1, edge = -1;

  (void) motion;
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->layout == NULL)
    return;
  zw_graph_viewport_to_layout (&self->vp, x, y, &lx, &ly);
  node = zw_graph_layout_node_at (self->layout, lx, ly);
  if (node < 0)
    edge = zw_graph_layout_edge_at (self->layout, lx, ly, 5 / self->vp.scale);
  if (node < 0 && edge < 0 && self->vp.labels)
    edge = zw_graph_layout_label_at (self->layout, lx, ly);
  if (node != self->vp.hover_node || edge != self->vp.hover_edge)
    {
      self->vp.hover_node = node;
      self->vp.hover_edge = edge;
      if (node >= 0)
        {
          const ZwOpInfo *op = &g_array_index (self->layout->report->ops, ZwOpInfo,
                                               g_array_index (self->layout->nodes, ZwGraphNode, node).op_index);
          g_autofree char *tip = g_strdup_printf (_("op %li · %s · %s"), (long) op->op_id, op->op_class,
                                                  op->name != NULL ? op->name : op->kind);
          gtk_widget_set_tooltip_text (self->canvas, tip);
        }
      else if (edge >= 0)
        {
          const ZwGraphEdge *e = &g_array_index (self->layout->edges, ZwGraphEdge, edge);
          g_autofree char *tip = zw_graph_value_tooltip (self->layout->report, e->v_id);
          gtk_widget_set_tooltip_text (self->canvas, tip);
        }
      else
        gtk_widget_set_tooltip_text (self->canvas, NULL);
      zw_graph_view_redraw (self);
    }
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, ZwGraphView *self)
{
  (void) drag;
  (void) x;
  (void) y;
  self->drag_x = self->vp.x;
  self->drag_y = self->vp.y;
}

static void
on_drag_update (GtkGestureDrag *drag, double dx, double dy, ZwGraphView *self)
{
  (void) drag;
  if (self->layout == NULL)
    return;
  self->vp.x = self->drag_x - dx / self->vp.scale;
  self->vp.y = self->drag_y - dy / self->vp.scale;
  zw_graph_view_redraw (self);
}

static void
zoom_at (ZwGraphView *self, double factor, double x, double y)
{
  if (self->layout == NULL)
    return;
  zw_graph_viewport_zoom_at (&self->vp, factor, x, y);
  zw_graph_view_redraw (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, ZwGraphView *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (self->layout == NULL)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    zoom_at (self, dy < 0 ? 1.2 : 1 / 1.2, self->pointer_x, self->pointer_y);
  else
    {
      self->vp.x += dx * 40 / self->vp.scale;
      self->vp.y += dy * 40 / self->vp.scale;
      zw_graph_view_redraw (self);
    }
  return TRUE;
}

/* ---- keyboard: along the edges ---- */

static gint
selected_node (ZwGraphView *self)
{
  gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));

  return self->layout != NULL && op >= 0 ? zw_graph_layout_node_of_op (self->layout, op) : -1;
}

static void
select_node (ZwGraphView *self, gint node)
{
  if (node >= 0)
    zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)),
                                  g_array_index (self->layout->nodes, ZwGraphNode, node).op_id);
}

static void
action_move (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);
  gint node = selected_node (self), next = -1;

  (void) param;
  if (self->layout == NULL || self->layout->nodes->len == 0)
    return;
  if (node < 0)
    {
      /* nothing selected: start at the first op */
      select_node (self, 0);
      return;
    }
  if (g_str_equal (action, "graph.down"))
    next = zw_graph_layout_walk (self->layout, node, ZW_GRAPH_WALK_DOWN);
  else if (g_str_equal (action, "graph.up"))
    next = zw_graph_layout_walk (self->layout, node, ZW_GRAPH_WALK_UP);
  else if (g_str_equal (action, "graph.left"))
    next = zw_graph_layout_walk (self->layout, node, ZW_GRAPH_WALK_LEFT);
  else
    next = zw_graph_layout_walk (self->layout, node, ZW_GRAPH_WALK_RIGHT);
  select_node (self, next);
}

static void
action_zoom (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);
  int w = zw_graph_view_canvas_width (self), h = zw_graph_view_canvas_height (self);

  (void) param;
  if (self->layout == NULL)
    return;
  if (g_str_equal (action, "graph.zoom-in"))
    zoom_at (self, 1.25, w / 2.0, h / 2.0);
  else if (g_str_equal (action, "graph.zoom-out"))
    zoom_at (self, 0.8, w / 2.0, h / 2.0);
  else if (g_str_equal (action, "graph.zoom-fit"))
    {
      zw_graph_viewport_fit (&self->vp, self->layout, w, h);
      zw_graph_view_redraw (self);
    }
  else
    {
      /* exactly 100 % (1 / scale * scale need not be 1), the centre kept */
      double lx, ly;
      zw_graph_viewport_to_layout (&self->vp, w / 2.0, h / 2.0, &lx, &ly);
      self->vp.scale = 1;
      zw_graph_viewport_center (&self->vp, lx, ly, w, h);
      zw_graph_view_redraw (self);
    }
}

static void
action_minimap (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);

  (void) action;
  (void) param;
  self->vp.minimap = !self->vp.minimap;
  zw_graph_view_redraw (self);
}

static void
action_find (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);

  (void) action;
  (void) param;
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->search_bar), TRUE);
  gtk_widget_grab_focus (self->search_entry);
}

static void
action_properties (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);

  (void) action;
  (void) param;
  self->properties_hidden = !self->properties_hidden;
  zw_graph_view_update_properties (self);
}

static void
action_find_next (GtkWidget *widget, const char *action, GVariant *param)
{
  (void) action;
  (void) param;
  zw_graph_view_next_match (ZW_GRAPH_VIEW (widget));
}

void
zw_graph_view_class_add_actions (GtkWidgetClass *widget_class)
{
  static const struct {
    const char *name;
    guint key;
    GdkModifierType mods;
    GtkWidgetActionActivateFunc func;
  } actions[] = {
    { "graph.zoom-in", GDK_KEY_plus, 0, action_zoom },
    { "graph.zoom-out", GDK_KEY_minus, 0, action_zoom },
    { "graph.zoom-fit", GDK_KEY_0, 0, action_zoom },
    { "graph.zoom-100", GDK_KEY_1, 0, action_zoom },
    { "graph.minimap", GDK_KEY_m, 0, action_minimap },
    { "graph.properties", GDK_KEY_p, 0, action_properties },
    { "graph.find", GDK_KEY_f, GDK_CONTROL_MASK, action_find },
    { "graph.find-next", GDK_KEY_g, GDK_CONTROL_MASK, action_find_next },
    { "graph.up", GDK_KEY_Up, 0, action_move },
    { "graph.down", GDK_KEY_Down, 0, action_move },
    { "graph.left", GDK_KEY_Left, 0, action_move },
    { "graph.right", GDK_KEY_Right, 0, action_move },
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      gtk_widget_class_install_action (widget_class, actions[i].name, NULL, actions[i].func);
      gtk_widget_class_add_binding_action (widget_class, actions[i].key, actions[i].mods, actions[i].name, NULL);
    }
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "graph.zoom-out", NULL);
}

void
zw_graph_view_add_controllers (ZwGraphView *self)
{
  GtkEventController *motion, *scroll;
  GtkGesture *click, *drag;

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (click));
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (drag));
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (self->canvas, motion);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (self->canvas, scroll);
}
