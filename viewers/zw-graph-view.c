/* zw-graph-view.c — the graph view widget: the layout worker, the canvas, the search bar and
 * the shared selection. Pointer and keys are zw-graph-view-actions.c, the drawing
 * zw-graph-draw.c. */
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"
#include "zw-view-private.h"
#include "zw-graph-pipeline.h"

#include <glib/gi18n.h>

G_DEFINE_FINAL_TYPE (ZwGraphView, zw_graph_view, ZW_TYPE_VIEW)

enum { PROP_0, PROP_BUSY, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void start_layout (ZwGraphView *self);

static void
canvas_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  ZwGraphView *self = data;
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  ZwPainter p;

  if (zw_selection_shows_pass (zw_view_get_selection (ZW_VIEW (self))))
    {
      /* a pipeline's whole pass: its networks side by side, fitted */
      zw_pipe_graph_draw (cr, width, height, zw_selection_get_pipeline (zw_view_get_selection (ZW_VIEW (self))),
                          zw_view_get_selection (ZW_VIEW (self)), colors);
      return;
    }
  if (self->layout != NULL && !self->fitted && width > 0 && height > 0)
    {
      /* the first frame of a layout: fit, or show the selection */
      gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));
      gint node = op >= 0 ? zw_graph_layout_node_of_op (self->layout, op) : -1;
      zw_graph_viewport_fit (&self->vp, self->layout, width, height);
      if (self->vp.scale < 0.6)
        {
          /* a tall network fitted is unreadable: its top at a readable scale, the
           * minimap for the rest */
          self->vp.scale = MAX (self->vp.scale, MIN (1.0, width / MAX (self->layout->width, 1.0)));
          self->vp.scale = MAX (self->vp.scale, 0.6);
          self->vp.x = self->layout->width / 2 - width / 2.0 / self->vp.scale;
          self->vp.y = 0;
        }
      if (node >= 0)
        {
          const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
          self->vp.scale = MAX (self->vp.scale, 0.8);
          zw_graph_viewport_center (&self->vp, n->x, n->y, width, height);
        }
      self->fitted = TRUE;
    }
  if (self->layout != NULL)
    {
      self->vp.search = self->search;
      zw_graph_view_draw_layout (cr, width, height, self->layout, &self->vp, zw_view_get_selection (ZW_VIEW (self)),
                                 colors);
      return;
    }
  zw_painter_begin (&p, cr, colors);
  if (report == NULL)
    zw_draw_empty (&p, width, height, _("No deploy report"));
  else
    {
      g_autofree char *msg = g_strdup_printf (ngettext ("Laying out %u op…", "Laying out %u ops…", report->ops->len),
                                              report->ops->len);
      zw_draw_empty (&p, width, height, msg);
    }
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* Brings a node (or an edge's middle) into sight: centred when outside the view. */
static void
reveal_point (ZwGraphView *self, double x, double y, double margin)
{
  int w = zw_graph_view_canvas_width (self), h = zw_graph_view_canvas_height (self);
  double s = self->vp.scale;

  if (!self->fitted)
    return;   /* the first frame centres on the selection */
  if (x - margin < self->vp.x || y - margin < self->vp.y || x + margin > self->vp.x + w / s
      || y + margin > self->vp.y + h / s)
    {
      /* too far out to read: come close enough */
      if (s < 0.5)
        self->vp.scale = s = 0.8;
      zw_graph_viewport_center (&self->vp, x, y, w, h);
    }
}

static void
reveal_selection (ZwGraphView *self)
{
  ZwSelection *sel = zw_view_get_selection (ZW_VIEW (self));
  gint64 op = zw_selection_get_selected_op (sel), value = zw_selection_get_selected_value (sel);
  gint node, edge;

  if (self->layout == NULL || self->layout->report != zw_selection_get_report (sel))
    return;
  node = op >= 0 ? zw_graph_layout_node_of_op (self->layout, op) : -1;
  if (node >= 0)
    {
      const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
      reveal_point (self, n->x, n->y, n->w / 2);
      return;
    }
  if (op >= 0)
    for (guint i = 0; i < self->layout->groups->len; i++)
      {
        const ZwGraphGroup *g = &g_array_index (self->layout->groups, ZwGraphGroup, i);
        if (g->op_id == op)
          {
            reveal_point (self, (g->x0 + g->x1) / 2, g->y0 + 40, 40);
            return;
          }
      }
  edge = value >= 0 ? zw_graph_layout_edge_of_value (self->layout, value) : -1;
  if (edge >= 0)
    {
      const ZwGraphEdge *e = &g_array_index (self->layout->edges, ZwGraphEdge, edge);
      reveal_point (self, e->mid_x, e->mid_y, 20);
    }
}

static void
set_layout (ZwGraphView *self, ZwGraphLayout *layout)
{
  g_clear_pointer (&self->layout, zw_graph_layout_unref);
  self->layout = layout != NULL ? zw_graph_layout_ref (layout) : NULL;
  self->fitted = FALSE;
  self->vp.hover_node = self->vp.hover_edge = -1;
  zw_graph_view_redraw (self);
}

static void
set_busy (ZwGraphView *self, ZwDeployReport *report)
{
  gboolean was = self->laying_out != NULL;

  if (report != NULL)
    zw_deploy_report_ref (report);
  g_clear_pointer (&self->laying_out, zw_deploy_report_unref);
  self->laying_out = report;
  if (was != (report != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
layout_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  ZwGraphLayout *layout;

  (void) source;
  layout = zw_graph_layout_new (task_data, cancellable, &error);
  if (layout == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) zw_graph_layout_unref);
}

static void
layout_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwGraphLayout) layout = g_task_propagate_pointer (G_TASK (result), &error);
  ZwGraphView *self;

  (void) data;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* the view moved on (or went away): it holds no reference of ours */
  self = ZW_GRAPH_VIEW (source);
  if (layout == NULL)
    g_warning ("%s", error->message);
  if (layout != NULL && layout->report == zw_view_get_report (ZW_VIEW (self)))
    {
      zw_graph_layout_set_cached (layout);
      set_layout (self, layout);
    }
  g_clear_object (&self->cancellable);
  set_busy (self, NULL);
}

static void
start_layout (ZwGraphView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  g_autoptr (GTask) task = NULL;

  if (report == NULL || (self->layout != NULL && self->layout->report == report) || self->laying_out == report)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, NULL);
  self->cancellable = g_cancellable_new ();
  set_busy (self, report);
  task = g_task_new (self, self->cancellable, layout_done, NULL);
  g_task_set_source_tag (task, start_layout);
  g_task_set_task_data (task, zw_deploy_report_ref (report), (GDestroyNotify) zw_deploy_report_unref);
  g_task_run_in_thread (task, layout_thread);
}

static void
report_changed (ZwGraphView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));

  if (self->layout != NULL && self->layout->report == report)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, NULL);
  set_layout (self, NULL);
  if (report == NULL)
    return;
  /* laid out already (an export, an earlier visit)? */
  if (zw_graph_layout_peek_cached (report) != NULL)
    {
      set_layout (self, zw_graph_layout_peek_cached (report));
      return;
    }
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_layout (self);
}

static void
zw_graph_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (view);

  if (g_str_equal (pspec->name, "report"))
    report_changed (self);
  else if (g_str_equal (pspec->name, "pipeline") || g_str_equal (pspec->name, "pipeline-value"))
    zw_graph_view_redraw (self);
  else if (g_str_equal (pspec->name, "selected-op") || g_str_equal (pspec->name, "selected-value"))
    {
      reveal_selection (self);
      zw_graph_view_redraw (self);
    }
  zw_graph_view_update_properties (self);
}

void
zw_graph_view_update_properties (ZwGraphView *self)
{
  ZwSelection *sel = zw_view_get_selection (ZW_VIEW (self));
  gboolean selected = zw_selection_get_report (sel) != NULL
                      && (zw_selection_get_selected_op (sel) >= 0 || zw_selection_get_selected_value (sel) >= 0);

  gtk_widget_set_visible (self->properties, selected && !self->properties_hidden);
}

static void
zw_graph_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (zw_graph_view_parent_class)->map (widget);
  start_layout (ZW_GRAPH_VIEW (widget));
}

static void
on_search_changed (GtkSearchEntry *entry, ZwGraphView *self)
{
  guint n = zw_graph_view_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_autofree char *text = NULL;

  if (self->search != NULL && *self->search != '\0')
    text = g_strdup_printf (ngettext ("%u match", "%u matches", n), n);
  gtk_label_set_text (GTK_LABEL (self->search_label), text != NULL ? text : "");
}

static void
on_search_activate (GtkSearchEntry *entry, ZwGraphView *self)
{
  (void) entry;
  zw_graph_view_next_match (self);
}

static void
on_search_stop (GtkSearchEntry *entry, ZwGraphView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->search_bar), FALSE);
  gtk_widget_grab_focus (self->canvas);
}

guint
zw_graph_view_search (ZwGraphView *self, const char *text)
{
  guint n;

  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), 0);

  g_free (self->search);
  self->search = g_strdup (text != NULL ? text : "");
  self->match_pos = 0;
  n = self->layout != NULL ? zw_graph_search_count (self->layout->report, self->search) : 0;
  zw_graph_view_redraw (self);
  return n;
}

gboolean
zw_graph_view_next_match (ZwGraphView *self)
{
  gint i;

  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), FALSE);

  if (self->layout == NULL || (i = zw_graph_search_next (self->layout->report, self->search, self->match_pos)) < 0)
    return FALSE;
  self->match_pos = (guint) i + 1;
  zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)),
                                g_array_index (self->layout->report->ops, ZwOpInfo, i).op_id);
  return TRUE;
}

/* ---- GObject ---- */

static void
zw_graph_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, zw_graph_view_get_busy (ZW_GRAPH_VIEW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_graph_view_dispose (GObject *object)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->laying_out, zw_deploy_report_unref);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->layout, zw_graph_layout_unref);
  G_OBJECT_CLASS (zw_graph_view_parent_class)->dispose (object);
}

static void
zw_graph_view_finalize (GObject *object)
{
  g_free (ZW_GRAPH_VIEW (object)->search);
  G_OBJECT_CLASS (zw_graph_view_parent_class)->finalize (object);
}

static void
zw_graph_view_constructed (GObject *object)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (object);

  G_OBJECT_CLASS (zw_graph_view_parent_class)->constructed (object);
  /* the selection exists now: the properties pane follows it */
  self->properties = zw_graph_properties_new (zw_view_get_selection (ZW_VIEW (self)));
  gtk_box_append (GTK_BOX (self->box), self->properties);
  zw_graph_view_update_properties (self);
  report_changed (self);
}

static void
zw_graph_view_class_init (ZwGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  object_class->dispose = zw_graph_view_dispose;
  object_class->finalize = zw_graph_view_finalize;
  object_class->constructed = zw_graph_view_constructed;
  object_class->get_property = zw_graph_view_get_property;
  widget_class->map = zw_graph_view_map;
  view_class->draw = zw_graph_view_draw;   /* exports; on screen: the canvas */
  view_class->draw_pipeline = zw_pipe_graph_draw;
  view_class->selection_notify = zw_graph_view_selection_notify;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  zw_graph_view_class_add_actions (widget_class);
  gtk_widget_class_set_css_name (widget_class, "zwgraphview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "graph", N_("Graph"), N_("Graph view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_graph_view_init (ZwGraphView *self)
{
  GtkWidget *box;

  zw_graph_viewport_init (&self->vp);
  self->canvas = zw_draw_area_new (canvas_draw, NULL, self);
  gtk_widget_set_focusable (self->canvas, TRUE);
  gtk_widget_set_hexpand (self->canvas, TRUE);
  gtk_widget_set_vexpand (self->canvas, TRUE);

  zw_graph_view_add_controllers (self);

  self->search_entry = gtk_search_entry_new ();
  gtk_widget_set_size_request (self->search_entry, 260, -1);
  g_object_set (self->search_entry, "placeholder-text", _("Op id, name or class"), NULL);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_activate), self);
  g_signal_connect (self->search_entry, "stop-search", G_CALLBACK (on_search_stop), self);
  self->search_label = gtk_label_new (NULL);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (box, "osd");
  gtk_widget_add_css_class (box, "toolbar");
  gtk_box_append (GTK_BOX (box), self->search_entry);
  gtk_box_append (GTK_BOX (box), self->search_label);
  self->search_bar = gtk_revealer_new ();
  gtk_revealer_set_child (GTK_REVEALER (self->search_bar), box);
  gtk_widget_set_halign (self->search_bar, GTK_ALIGN_END);
  gtk_widget_set_valign (self->search_bar, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->search_bar, 6);
  gtk_widget_set_margin_end (self->search_bar, 6);

  self->overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (self->overlay), self->canvas);
  gtk_overlay_add_overlay (GTK_OVERLAY (self->overlay), self->search_bar);
  gtk_widget_set_hexpand (self->overlay, TRUE);
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (self->box), self->overlay);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 240);
}

GtkWidget *
zw_graph_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_GRAPH_VIEW, "selection", selection, NULL);
}

ZwGraphLayout *
zw_graph_view_get_layout (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return self->layout;
}

gboolean
zw_graph_view_get_busy (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), FALSE);
  return self->laying_out != NULL;
}

const ZwGraphViewport *
zw_graph_view_get_viewport (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return &self->vp;
}

void
zw_graph_view_set_profile (ZwGraphView *self, const ZwProfile *profile)
{
  g_return_if_fail (ZW_IS_GRAPH_VIEW (self));
  zw_graph_properties_set_profile (ZW_GRAPH_PROPERTIES (self->properties), profile);
}

GtkWidget *
zw_graph_view_get_properties (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return self->properties;
}

GtkWidget *
zw_graph_view_get_canvas (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return self->canvas;
}
