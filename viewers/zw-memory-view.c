/* zw-memory-view.c — the Memory view widget: hover, tooltips, zoom and pan on the shared
 * selection's range, a click selects a chunk's value. The drawing is zw-memory-draw.c. */
#include "zw-memory-view-private.h"
#include "zw-view-private.h"
#include "zw-memory-pipeline.h"

#include <glib/gi18n.h>
#include <math.h>

struct _ZwMemoryView
{
  ZwView parent_instance;
  gint64 hover_chunk;
  double pointer_x;
  double drag_start;
  double drag_end;
};

G_DEFINE_FINAL_TYPE (ZwMemoryView, zw_memory_view, ZW_TYPE_VIEW)

static gboolean
widget_layout (ZwMemoryView *self, ZwMemLayout *l)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));

  if (report == NULL)
    return FALSE;
  zw_memory_layout_compute (report, zw_view_get_selection (ZW_VIEW (self)), gtk_widget_get_width (GTK_WIDGET (self)),
              gtk_widget_get_height (GTK_WIDGET (self)), zw_view_get_style (ZW_VIEW (self)), l);
  return TRUE;
}

/* Only the hover highlight is drawn per frame, over the cached content. */
static void
zw_memory_view_snapshot_overlay (ZwView *view, GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *style)
{
  ZwMemoryView *self = ZW_MEMORY_VIEW (view);
  ZwDeployReport *report = zw_view_get_report (view);
  const ZwChunkInfo *c;
  ZwMemLayout l;

  (void) width;
  (void) height;
  if (self->hover_chunk >= 0 && widget_layout (self, &l)
      && (c = zw_deploy_report_find_chunk (report, self->hover_chunk)) != NULL)
    {
      const ZwMemPane *mp = c->in_ocm ? &l.ocm : &l.etm;
      graphene_rect_t r, pane, clipped;

      graphene_rect_init (&pane, mp->x, mp->y, mp->w, mp->h);
      if (zw_memory_layout_chunk_rect (&l, c, &r))
        {
          r.size.width = MAX (1.0f, r.size.width);
          r.size.height = MAX (1.0f, r.size.height);
          if (graphene_rect_intersection (&r, &pane, &clipped))
            gtk_snapshot_append_color (snapshot, &style->hover, &clipped);
        }
    }
}

static void
set_hover (ZwMemoryView *self, gint64 id)
{
  if (id != self->hover_chunk)
    {
      self->hover_chunk = id;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwMemoryView *self)
{
  const ZwChunkInfo *c = NULL;
  ZwMemLayout l;

  (void) controller;
  self->pointer_x = x;
  if (widget_layout (self, &l))
    c = zw_memory_layout_chunk_at (zw_view_get_report (ZW_VIEW (self)), &l, x, y);
  set_hover (self, c != NULL ? c->id : -1);
}

static void
on_leave (GtkEventControllerMotion *controller, ZwMemoryView *self)
{
  (void) controller;
  set_hover (self, -1);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, ZwMemoryView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  ZwMemLayout l;

  (void) dx;
  if ((state & GDK_CONTROL_MASK) == 0 || !widget_layout (self, &l) || dy == 0)
    return FALSE;
  zw_selection_zoom_by (zw_view_get_selection (ZW_VIEW (self)), dy < 0 ? 1.25 : 0.8, zw_memory_layout_index (&l, self->pointer_x));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, ZwMemoryView *self)
{
  (void) gesture;
  (void) x;
  (void) y;
  self->drag_start = zw_selection_get_zoom_start (zw_view_get_selection (ZW_VIEW (self)));
  self->drag_end = zw_selection_get_zoom_end (zw_view_get_selection (ZW_VIEW (self)));
}

static void
on_drag_update (GtkGestureDrag *gesture, double offset_x, double offset_y, ZwMemoryView *self)
{
  ZwMemLayout l;
  double delta;

  (void) offset_y;
  if (!widget_layout (self, &l) || fabs (offset_x) < 3)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  delta = -offset_x / l.etm.w * (self->drag_end - self->drag_start);
  zw_selection_set_zoom (zw_view_get_selection (ZW_VIEW (self)), self->drag_start + delta, self->drag_end + delta);
}

/* The whole pass of a pipeline: a click on a chunk selects its value, "NET:V_ID". */
static void
select_in_pass (ZwMemoryView *self, double x, double y)
{
  ZwSelection *selection = zw_view_get_selection (ZW_VIEW (self));
  ZwPipelineReport *p = zw_selection_get_pipeline (selection);
  g_autoptr (GArray) chunks = zw_pipeline_pass_chunks (p);
  g_autofree char *name = NULL;
  ZwMemPassLayout l;
  gint i;

  if (zw_memory_pass_layout (p, chunks, gtk_widget_get_width (GTK_WIDGET (self)),
                             gtk_widget_get_height (GTK_WIDGET (self)), &l)
      && (i = zw_memory_pass_chunk_at (chunks, &l, x, y)) >= 0 && g_array_index (chunks, ZwPassChunk, i).v_id >= 0)
    {
      const ZwPassChunk *c = &g_array_index (chunks, ZwPassChunk, i);
      name = zw_pipeline_value_name (g_array_index (p->networks, ZwPipelineNetwork, c->network).name, c->v_id);
    }
  zw_selection_set_pipeline_value (selection, name);
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwMemoryView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  const ZwChunkInfo *c = NULL;
  ZwMemLayout l;

  (void) gesture;
  (void) n_press;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (zw_selection_shows_pass (zw_view_get_selection (ZW_VIEW (self))))
    {
      select_in_pass (self, x, y);
      return;
    }
  if (!widget_layout (self, &l))
    return;
  c = zw_memory_layout_chunk_at (report, &l, x, y);
  /* A chunk stands for its values: select the first (the one that owns the bytes). */
  zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)),
                                   c != NULL && c->v_ids->len > 0 ? g_array_index (c->v_ids, gint64, 0) : -1);
}

/* The whole pass: what the chunk under the pointer is, whose, where and when. */
static gboolean
pass_tooltip (ZwMemoryView *self, double x, double y, GtkTooltip *tooltip)
{
  ZwPipelineReport *p = zw_selection_get_pipeline (zw_view_get_selection (ZW_VIEW (self)));
  g_autoptr (GArray) chunks = zw_pipeline_pass_chunks (p);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *size = NULL;
  const ZwPassChunk *c;
  const char *net;
  ZwMemPassLayout l;
  gint i;

  if (!zw_memory_pass_layout (p, chunks, gtk_widget_get_width (GTK_WIDGET (self)),
                              gtk_widget_get_height (GTK_WIDGET (self)), &l)
      || (i = zw_memory_pass_chunk_at (chunks, &l, x, y)) < 0)
    return FALSE;
  c = &g_array_index (chunks, ZwPassChunk, i);
  net = g_array_index (p->networks, ZwPipelineNetwork, c->network).name;
  size = zw_format_bytes (c->size);
  if (c->kind == ZW_PASS_CHUNK_CONNECT)
    /* TRANSLATORS: a connection's chunk in the Memory view of a pipeline: its name, writer, reader */
    g_string_append_printf (text, _("Connection %s: %s → %s"),
                            g_array_index (p->connections, ZwPipelineConnection, c->connection).name, net,
                            g_array_index (p->networks, ZwPipelineNetwork, c->to_network).name);
  else if (c->kind == ZW_PASS_CHUNK_RESIDENT)
    g_string_append_printf (text, _("%s: %s segment, for the whole pass"), net,
                            zw_segment_type_to_string ((ZwSegmentType) c->segment));
  else
    {
      g_autofree char *value = zw_pipeline_value_name (net, c->v_id);
      g_string_append_printf (text, _("%s (%s): click to select it"), value,
                              zw_segment_type_to_string ((ZwSegmentType) c->segment));
    }
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("%s at 0x%08lx"), size, (unsigned long) c->addr);
  g_string_append_c (text, '\n');
  if (zw_pipeline_pass_has_times (p))
    g_string_append_printf (text, _("live from %.3f to %.3f ms of the pass"), c->t0, c->t1);
  else
    g_string_append_printf (text, _("live from op slot %.0f to %.0f of the pass"), c->t0, c->t1);
  if (c->share >= 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("in the shared segment %s"),
                              g_array_index (p->shares, ZwPipelineShare, c->share).name);
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  ZwMemoryView *self = ZW_MEMORY_VIEW (widget);
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  g_autoptr (GString) text = NULL;
  g_autofree char *size = NULL;
  const ZwChunkInfo *c;
  ZwMemLayout l;

  (void) keyboard;
  if (zw_selection_shows_pass (zw_view_get_selection (ZW_VIEW (self))))
    return pass_tooltip (self, x, y, tooltip);
  if (!widget_layout (self, &l))
    return FALSE;
  if (l.traffic.h > 0 && y >= l.traffic.y && y < l.traffic.y + l.traffic.h && x >= l.traffic.x)
    {
      g_autoptr (ZwEtmTraffic) t = zw_etm_traffic_compute (report);
      gint64 i = (gint64) floor (zw_memory_layout_index (&l, x));
      g_autofree char *er = NULL, *ew = NULL, *orr = NULL, *ow = NULL;
      g_autofree char *line = NULL;

      if (i < 0 || i >= t->n)
        return FALSE;
      er = zw_format_bytes (t->etm_read[i]);
      ew = zw_format_bytes (t->etm_write[i]);
      orr = zw_format_bytes (t->ocm_read[i]);
      ow = zw_format_bytes (t->ocm_write[i]);
      line = g_strdup_printf (_("op index %lli (op %lli): ETM read %s, written %s; OCM read %s, written %s"),
                              (long long) i, (long long) g_array_index (report->ops, ZwOpInfo, i).op_id, er, ew, orr, ow);
      gtk_tooltip_set_text (tooltip, line);
      return TRUE;
    }
  if ((c = zw_memory_layout_chunk_at (report, &l, x, y)) == NULL)
    return FALSE;
  size = zw_format_bytes (c->size);
  text = g_string_new (NULL);
  if (c->id >= 0)
    g_string_append_printf (text, _("Chunk %lld: %s (%llu bytes)"), (long long) c->id, size, (unsigned long long) c->size);
  else
    /* TRANSLATORS: a value with an address of its own (no compiler chunk): its id, size */
    g_string_append_printf (text, _("Value %lld alone: %s (%llu bytes)"), (long long) -(c->id + 1), size,
                            (unsigned long long) c->size);
  g_string_append_c (text, '\n');
  if (c->in_ocm)
    g_string_append_printf (text, _("OCM at 0x%08llx"), (unsigned long long) c->ocm_addr);
  else
    g_string_append_printf (text, _("FTMP offset 0x%08llx"), (unsigned long long) c->ftmp_offset);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("live from op index %d to %d"), c->first, c->last);
  g_string_append_c (text, '\n');
  g_string_append (text, _("values:"));
  for (guint i = 0; i < MIN (c->v_ids->len, 12u); i++)
    g_string_append_printf (text, " %" G_GINT64_FORMAT, g_array_index (c->v_ids, gint64, i));
  if (c->v_ids->len > 12)
    g_string_append (text, " …");
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
action_zoom (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ZwMemoryView *self = ZW_MEMORY_VIEW (widget);
  ZwSelection *selection = zw_view_get_selection (ZW_VIEW (self));
  double center = (zw_selection_get_zoom_start (selection) + zw_selection_get_zoom_end (selection)) / 2;

  (void) parameter;
  if (g_str_equal (action_name, "memory.zoom-in"))
    zw_selection_zoom_by (selection, 1.25, center);
  else if (g_str_equal (action_name, "memory.zoom-out"))
    zw_selection_zoom_by (selection, 0.8, center);
  else
    zw_selection_zoom_fit (selection);
}

static void
zw_memory_view_class_init (ZwMemoryViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  view_class->draw = zw_memory_view_draw;
  view_class->draw_pipeline = zw_memory_pass_draw;
  view_class->draws_itself = TRUE;
  view_class->snapshot_overlay = zw_memory_view_snapshot_overlay;
  widget_class->query_tooltip = on_query_tooltip;

  gtk_widget_class_install_action (widget_class, "memory.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "memory.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "memory.zoom-fit", NULL, action_zoom);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "memory.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "memory.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "memory.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "memory.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "memory.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "memory.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, 0, "memory.zoom-fit", NULL);
  gtk_widget_class_set_css_name (widget_class, "zwmemoryview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "memory", N_("Memory"), N_("Memory view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_memory_view_init (ZwMemoryView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .scroll = G_CALLBACK (on_scroll),
    .drag_begin = G_CALLBACK (on_drag_begin), .drag_update = G_CALLBACK (on_drag_update),
    .released = G_CALLBACK (on_released),
  };

  self->hover_chunk = -1;
  zw_widget_add_pointer_handlers (GTK_WIDGET (self), &handlers, self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 400, 240);
}

GtkWidget *
zw_memory_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_MEMORY_VIEW, "selection", selection, NULL);
}

guint
zw_memory_view_get_n_rebuilds (GtkWidget *view)
{
  g_return_val_if_fail (ZW_IS_MEMORY_VIEW (view), 0);
  return zw_view_get_n_rebuilds (ZW_VIEW (view));
}
