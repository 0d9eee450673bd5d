/* zw-timing-view.c — the Timing view widget: the timeline area over the values bar and the
 * op table, its pointer and keys (zoom, pan, drag-select a range, click a row), the visible
 * range, and the row selection kept in step with the shared ZwSelection. */
#include "zw-timing-view-private.h"
#include "zw-timing-geometry.h"
#include "zw-timing-pipeline.h"

#include <glib/gi18n.h>
#include <math.h>

G_DEFINE_FINAL_TYPE (ZwTimingView, zw_timing_view, ZW_TYPE_VIEW)

/* The shared selection holds another deployment's report than the profile's (a time file
 * shown while the deploy views keep theirs): the view neither reads nor selects through it. */
static gboolean
report_is_other (ZwTimingView *self)
{
  return self->run_bound && zw_view_get_report (ZW_VIEW (self)) != self->run_report;
}

ZwDeployReport *
zw_timing_view_report (ZwTimingView *self)
{
  return report_is_other (self) ? NULL : zw_view_get_report (ZW_VIEW (self));
}

void
zw_timing_view_invalidate (ZwTimingView *self)
{
  if (self->area != NULL)
    zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

/* A pipeline's whole pass: its networks' strips along the ruler. */
static void
draw_pass (ZwTimingView *self, cairo_t *cr, int width, int height, const ZwViewStyle *style)
{
  ZwSelection *selection = zw_view_get_selection (ZW_VIEW (self));

  if (self->data != NULL && zw_selection_shows_pass (selection))
    zw_timing_pass_draw_networks (cr, width, height, self->data->profile, zw_selection_get_pipeline (selection),
                                  &self->state, style);
}

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *style, gpointer user_data)
{
  ZwTimingView *self = user_data;

  /* the cached picture: hover and drag selection are area_overlay's */
  zw_timing_draw_content (cr, width, height, self->data != NULL ? self->data->profile : NULL,
                          zw_timing_view_report (self), &self->state, style, FALSE);
  draw_pass (self, cr, width, height, style);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwTimingView *self = user_data;
  const ZwProfile *profile = self->data != NULL ? self->data->profile : NULL;

  if (profile == NULL)
    return;

  /* hover and drag selection: drawn over the cached node, never into it */
  if (self->state.hover_row >= 0 && (guint) self->state.hover_row < profile->rows->len)
    {
      g_autofree double *starts = NULL;
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, self->state.hover_row);
      ZwTimingLane lane = zw_timing_row_lane (row);
      ZwTimingGeometry g;
      double a, b;

      zw_timing_geometry_init (&g, zw_timing_layout (profile, &starts), &self->state, width, height,
                               self->data->has_merged);
      a = MAX (g.x0, zw_timing_geometry_x (&g, starts[self->state.hover_row]));
      b = MIN (g.x1, zw_timing_geometry_x (&g, starts[self->state.hover_row] + MAX (row->total_ms, 0.0)));
      if (b - a < 1)
        b = a + 1;
      gtk_snapshot_append_color (snapshot, &colors->hover,
                                 &GRAPHENE_RECT_INIT (a, g.lane_y[lane][0], b - a, g.lane_y[lane][1] - g.lane_y[lane][0]));
    }
  if (self->state.sel_t1 > self->state.sel_t0)
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      ZwPainter p;
      ZwTimingGeometry g;

      zw_timing_geometry_init (&g, self->end, &self->state, width, height, self->data->has_merged);
      zw_painter_init (&p, cr, colors);
      zw_timing_draw_selection (&p, &g, profile, &self->state, colors);
      zw_painter_clear (&p);
      cairo_destroy (cr);
    }
}

/* ---- view: range and selection ---- */

/* Shows [@t0, @t1], a range zw_timing_range_clamp made. */
static void
show_range (ZwTimingView *self, double t0, double t1)
{
  if (t0 == self->state.t0 && t1 == self->state.t1)
    return;
  self->state.t0 = t0;
  self->state.t1 = t1;
  zw_timing_view_invalidate (self);
}

void
zw_timing_view_set_range (ZwTimingView *self, double t0, double t1)
{
  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  zw_timing_range_clamp (self->end, t0, t1, &t0, &t1);
  show_range (self, t0, t1);
}

static void
zoom_by (ZwTimingView *self, double factor, double center)
{
  double t0, t1;

  zw_timing_range_zoom (self->end, self->state.t0, self->state.t1, factor, center, &t0, &t1);
  show_range (self, t0, t1);
}

static void
pan_by (ZwTimingView *self, double fraction)
{
  double w = self->state.t1 - self->state.t0;
  zw_timing_view_set_range (self, self->state.t0 + fraction * w, self->state.t1 + fraction * w);
}

static double
area_time_at (ZwTimingView *self, double x)
{
  ZwTimingGeometry g;

  zw_timing_geometry_init (&g, self->end, &self->state, gtk_widget_get_width (self->area),
                           gtk_widget_get_height (self->area), self->data != NULL && self->data->has_merged);
  return zw_timing_geometry_time_at (&g, x);
}

void
zw_timing_view_select_row (ZwTimingView *self, gint row)
{
  const ZwProfile *profile;

  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  profile = self->data != NULL ? self->data->profile : NULL;
  if (profile == NULL || row < 0 || (guint) row >= profile->rows->len)
    row = -1;
  if (row != self->state.selected_row)
    {
      self->state.selected_row = row;
      zw_timing_view_invalidate (self);
      zw_timing_values_bar_update (self);
    }
  if (row >= 0 && zw_timing_view_report (self) != NULL && !self->syncing)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, row);
      self->syncing = TRUE;
      zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)), r->op_id);
      self->syncing = FALSE;
    }
  /* the table follows */
  if (!self->syncing)
    zw_timing_table_select_row (self, row);
}

/* ---- events ---- */

static void
set_hover (ZwTimingView *self, gint row)
{
  if (row != self->state.hover_row)
    {
      self->state.hover_row = row;
      gtk_widget_queue_draw (self->area);
    }
}

static gint
area_row_at (ZwTimingView *self, double x, double y)
{
  return zw_timing_row_at (self->data != NULL ? self->data->profile : NULL, zw_timing_view_report (self), &self->state,
                           gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x, y, NULL);
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwTimingView *self)
{
  (void) controller;
  self->pointer_x = x;
  set_hover (self, area_row_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller, ZwTimingView *self)
{
  (void) controller;
  set_hover (self, -1);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, ZwTimingView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  (void) dx;
  if ((state & GDK_CONTROL_MASK) == 0 || dy == 0 || self->data == NULL)
    return FALSE;
  zoom_by (self, dy < 0 ? 1.25 : 0.8, area_time_at (self, self->pointer_x));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, ZwTimingView *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  (void) y;
  self->drag_selecting = button == GDK_BUTTON_SECONDARY || (mods & GDK_SHIFT_MASK) != 0;
  self->drag_t0 = self->state.t0;
  self->drag_t1 = self->state.t1;
  self->drag_anchor = self->data != NULL ? area_time_at (self, x) : 0;
}

static void
on_drag_update (GtkGestureDrag *gesture, double offset_x, double offset_y, ZwTimingView *self)
{
  double start_x, start_y;
  ZwTimingGeometry g;

  (void) offset_y;
  if (self->data == NULL || fabs (offset_x) < 3)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_gesture_drag_get_start_point (gesture, &start_x, &start_y);
  if (self->drag_selecting)
    {
      double t = area_time_at (self, start_x + offset_x);
      self->state.sel_t0 = MIN (self->drag_anchor, t);
      self->state.sel_t1 = MAX (self->drag_anchor, t);
      gtk_widget_queue_draw (self->area);
      return;
    }
  zw_timing_geometry_init (&g, self->end, &self->state, gtk_widget_get_width (self->area),
                           gtk_widget_get_height (self->area), self->data != NULL && self->data->has_merged);
  {
    double delta = -offset_x / (g.x1 - g.x0) * (self->drag_t1 - self->drag_t0);
    zw_timing_view_set_range (self, self->drag_t0 + delta, self->drag_t1 + delta);
  }
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwTimingView *self)
{
  (void) gesture;
  (void) n_press;
  gtk_widget_grab_focus (self->area);
  zw_timing_view_select_row (self, area_row_at (self, x, y));
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, ZwTimingView *self)
{
  const ZwProfileRow *row;
  g_autoptr (GString) text = NULL;
  gint index;
  char cls[128];

  (void) widget;
  (void) keyboard;
  /* the title is cut beside the legend: the whole of it, and the rows that cannot be */
  if (y < ZW_TIMING_MARGIN + ZW_TIMING_TITLE_H && self->data != NULL && self->data->profile != NULL)
    {
      g_autofree char *title = zw_timing_view_dup_headline_tooltip (self->data->profile);
      gtk_tooltip_set_text (tooltip, title);
      return TRUE;
    }
  index = area_row_at (self, x, y);
  if (index < 0)
    return FALSE;
  row = g_ptr_array_index (self->data->profile->rows, index);
  text = g_string_new (NULL);
  {
    char kind[64];
    zw_timing_row_layer_class_into (row, self->data->ops, self->data->launches, cls, sizeof cls);
    zw_op_class_short (row->op_type, kind, sizeof kind);
    if (g_strcmp0 (cls, kind) != 0)
      g_string_append_printf (text, _("op %lld %s (%s)"), (long long) row->op_id, cls, kind);
    else
      g_string_append_printf (text, _("op %lld %s"), (long long) row->op_id, cls);
  }
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("total %.6g ms: memcpy %.6g, hard %.6g, other %.6g"), row->total_ms, row->memcpy_ms,
                          row->hard_ms, row->other_ms);
  if (self->data->has_mem != NULL && self->data->has_mem[index])
    {
      g_autofree char *bytes = zw_format_bytes (self->data->etm[index]);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("ETM written %s, OCM outputs %u"), bytes, self->data->ocm[index]);
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
action_nav (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ZwTimingView *self = ZW_TIMING_VIEW (widget);
  double center = (self->state.t0 + self->state.t1) / 2;

  (void) parameter;
  if (g_str_equal (action_name, "timing.zoom-in"))
    zoom_by (self, 1.25, center);
  else if (g_str_equal (action_name, "timing.zoom-out"))
    zoom_by (self, 0.8, center);
  else if (g_str_equal (action_name, "timing.pan-left"))
    pan_by (self, -0.1);
  else if (g_str_equal (action_name, "timing.pan-right"))
    pan_by (self, 0.1);
  else
    zw_timing_view_set_range (self, 0, 0);
}

static void
rebuild_data (ZwTimingView *self, const ZwProfile *profile)
{
  g_clear_pointer (&self->data, zw_timing_data_unref);
  if (profile != NULL)
    self->data = zw_timing_data_new (profile, zw_timing_view_report (self));
  self->end = self->data != NULL ? zw_timing_layout (self->data->profile, NULL) : 0;
  zw_timing_state_init (&self->state);
  zw_timing_range_clamp (self->end, 0, 0, &self->state.t0, &self->state.t1);
  zw_timing_table_reload (self);
  zw_timing_view_invalidate (self);
  zw_timing_values_bar_update (self);
}

void
zw_timing_view_set_profile (ZwTimingView *self, const ZwProfile *profile)
{
  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  self->run_bound = FALSE;
  g_clear_pointer (&self->run_report, zw_deploy_report_unref);
  rebuild_data (self, profile);
}

void
zw_timing_view_set_run_profile (ZwTimingView *self, const ZwProfile *profile, ZwDeployReport *report)
{
  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  if (report != NULL)
    zw_deploy_report_ref (report);
  g_clear_pointer (&self->run_report, zw_deploy_report_unref);
  self->run_report = report;
  self->run_bound = TRUE;
  rebuild_data (self, profile);
}

const ZwProfile *
zw_timing_view_get_profile (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  return self->data != NULL ? self->data->profile : NULL;
}

const ZwTimingState *
zw_timing_view_get_state (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  return &self->state;
}

static void
zw_timing_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwTimingView *self = ZW_TIMING_VIEW (view);

  if (g_str_equal (pspec->name, "pipeline") || g_str_equal (pspec->name, "report"))
    /* the whole pass of a pipeline shows its networks' strips (or no longer) */
    zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
  if (g_str_equal (pspec->name, "report"))
    {
      /* the memory columns and merge members come from the report: rebuild with it (not
       * when this profile reads no report before and after) */
      if (self->data != NULL && self->data->report != zw_timing_view_report (self))
        {
          ZwTimingData *old = zw_timing_data_ref (self->data);
          rebuild_data (self, old->profile);
          zw_timing_data_unref (old);
        }
    }
  else if (report_is_other (self))
    return;   /* another deployment's op or value: not one of this profile's */
  else if (g_str_equal (pspec->name, "selected-value"))
    zw_timing_values_bar_mark_selected (self);
  else if (g_str_equal (pspec->name, "selected-op") && !self->syncing && self->data != NULL)
    {
      gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));
      gint found = -1;
      for (guint i = 0; op >= 0 && i < self->data->profile->rows->len && found < 0; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (self->data->profile->rows, i);
          const GArray *m = zw_timing_row_members (row, self->data->launches);
          if (row->op_id == op)
            found = (gint) i;
          for (guint k = 0; m != NULL && k < m->len && found < 0; k++)
            if (g_array_index (m, gint64, k) == op)
              found = (gint) i;
        }
      self->syncing = TRUE;
      zw_timing_view_select_row (self, found);
      self->syncing = FALSE;
      {
        guint pos = zw_timing_table_select_row (self, found);
        /* an op selected elsewhere scrolls into sight here */
        if (pos != GTK_INVALID_LIST_POSITION)
          zw_timing_table_scroll_to (self, pos);
      }
    }
}

guint
zw_timing_view_get_n_rebuilds (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), 0);
  return self->area != NULL ? zw_draw_area_get_n_rebuilds (ZW_DRAW_AREA (self->area)) : 0;
}

/* ---- GObject ---- */

static void
zw_timing_view_dispose (GObject *object)
{
  ZwTimingView *self = ZW_TIMING_VIEW (object);

  /* the table's selection model notifies while the children go: not to us any more */
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  self->area = NULL;
  self->values_bar = NULL;
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  g_signal_handlers_disconnect_by_data (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), self);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->data, zw_timing_data_unref);
  g_clear_pointer (&self->run_report, zw_deploy_report_unref);
  G_OBJECT_CLASS (zw_timing_view_parent_class)->dispose (object);
}

/* the view's content for exports (zw_view_render): the drawing with its data and state */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwTimingView *self = ZW_TIMING_VIEW (view);

  zw_timing_view_draw (cr, width, height, self->data != NULL ? self->data->profile : NULL, zw_timing_view_report (self),
                       &self->state, colors);
  draw_pass (self, cr, width, height, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  return zw_timing_view_table (ZW_TIMING_VIEW (view));
}

static void
zw_timing_view_class_init (ZwTimingViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_w, "timing.zoom-in" }, { GDK_KEY_W, "timing.zoom-in" }, { GDK_KEY_plus, "timing.zoom-in" },
    { GDK_KEY_s, "timing.zoom-out" }, { GDK_KEY_S, "timing.zoom-out" }, { GDK_KEY_minus, "timing.zoom-out" },
    { GDK_KEY_a, "timing.pan-left" }, { GDK_KEY_A, "timing.pan-left" }, { GDK_KEY_Left, "timing.pan-left" },
    { GDK_KEY_d, "timing.pan-right" }, { GDK_KEY_D, "timing.pan-right" }, { GDK_KEY_Right, "timing.pan-right" },
    { GDK_KEY_f, "timing.zoom-fit" }, { GDK_KEY_F, "timing.zoom-fit" },
  };

  object_class->dispose = zw_timing_view_dispose;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_timing_view_selection_notify;

  gtk_widget_class_install_action (widget_class, "timing.zoom-in", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.zoom-out", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.zoom-fit", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.pan-left", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.pan-right", NULL, action_nav);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, 0, keys[i].action, NULL);
  gtk_widget_class_set_css_name (widget_class, "zwtimingview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "timing", N_("Timing"), N_("Timing view"), ZW_VIEW_DATA_PROFILE);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_timing_view_init (ZwTimingView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .scroll = G_CALLBACK (on_scroll),
    .drag_begin = G_CALLBACK (on_drag_begin), .drag_update = G_CALLBACK (on_drag_update), .drag_any_button = TRUE,
    .released = G_CALLBACK (on_released),
  };
  GtkWidget *box;

  zw_timing_state_init (&self->state);
  self->state.t1 = 1;

  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 400, 260);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);

  /* the selected op's values above the table */
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), zw_timing_values_bar_new (self));
  gtk_box_append (GTK_BOX (box), zw_timing_table_new (self));

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), self->area);
  gtk_paned_set_end_child (GTK_PANED (self->paned), box);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
}

GtkWidget *
zw_timing_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_TIMING_VIEW, "selection", selection, NULL);
}
