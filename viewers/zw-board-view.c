/* zw-board-view.c — the Board view widget: the drawn area with its hover and selection, and
 * "network-activated"; the drawing is zw-board-draw.c (see the header). */
#include "zw-board-view.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

struct _ZwBoardView
{
  ZwView parent_instance;

  GtkWidget *box;
  GtkWidget *bar; /* the hint and "Show the Whole Pass": only with a pipeline to act on */
  GtkWidget *area;
  ZwPipelineReport *pipeline;
  gint selected;
  gint hover;
};

enum { PROP_0, PROP_SELECTED_NETWORK, N_PROPS };
enum { NETWORK_ACTIVATED, PASS_ACTIVATED, N_SIGNALS };
static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (ZwBoardView, zw_board_view, ZW_TYPE_VIEW)

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwBoardView *self = user_data;

  zw_board_view_draw (cr, width, height, self->pipeline, self->selected, colors);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwBoardView *self = user_data;
  double x0, y0, x1, y1;

  /* the hovered network's bar: what a click would show */
  if (self->pipeline == NULL || self->hover < 0
      || !zw_board_view_time_bar (self->pipeline, width, height, (guint) self->hover, &x0, &y0, &x1, &y1))
    return;
  {
    cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
    zw_cairo_set_color_alpha (cr, &colors->hover, 0.6);
    cairo_rectangle (cr, 0, y0 - 2, width, y1 - y0 + 4);
    cairo_fill (cr);
    cairo_destroy (cr);
  }
}

void
zw_board_view_select_network (ZwBoardView *self, gint index)
{
  g_return_if_fail (ZW_IS_BOARD_VIEW (self));
  if (self->pipeline == NULL || index < 0 || (guint) index >= self->pipeline->networks->len)
    index = -1;
  if (index == self->selected)
    return;
  self->selected = index;
  /* the outline is drawn with the content: it changes only on a click */
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NETWORK]);
}

gint
zw_board_view_get_selected_network (ZwBoardView *self)
{
  g_return_val_if_fail (ZW_IS_BOARD_VIEW (self), -1);
  return self->selected;
}

gboolean
zw_board_view_activate_network (ZwBoardView *self, gint index)
{
  g_return_val_if_fail (ZW_IS_BOARD_VIEW (self), FALSE);
  if (self->pipeline == NULL || index < 0 || (guint) index >= self->pipeline->networks->len)
    return FALSE;
  zw_board_view_select_network (self, index);
  g_signal_emit (self, signals[NETWORK_ACTIVATED], 0, (guint) index);
  return TRUE;
}

/* With no pipeline there is no network to click nor pass to show: the hint row goes and the
 * keys' actions are off (the empty board says how to open one). */
static void
sync_actions (ZwBoardView *self)
{
  static const char *const actions[] = { "board.previous", "board.next", "board.open", "board.pass" };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), actions[i], self->pipeline != NULL);
  gtk_widget_set_visible (self->bar, self->pipeline != NULL);
}

void
zw_board_view_set_pipeline (ZwBoardView *self, ZwPipelineReport *pipeline)
{
  g_return_if_fail (ZW_IS_BOARD_VIEW (self));
  if (pipeline == self->pipeline)
    return;
  if (pipeline != NULL)
    zw_pipeline_report_ref (pipeline);
  g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
  self->pipeline = pipeline;
  self->hover = -1;
  sync_actions (self);
  if (self->selected >= 0)
    {
      self->selected = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NETWORK]);
    }
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

ZwPipelineReport *
zw_board_view_get_pipeline (ZwBoardView *self)
{
  g_return_val_if_fail (ZW_IS_BOARD_VIEW (self), NULL);
  return self->pipeline;
}

/* ---- events ---- */

static gint
network_at (ZwBoardView *self, double x, double y)
{
  return zw_board_view_network_at (self->pipeline, gtk_widget_get_width (self->area),
                                   gtk_widget_get_height (self->area), x, y);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, ZwBoardView *self)
{
  gint hover = network_at (self, x, y);

  (void) motion;
  if (hover != self->hover)
    {
      self->hover = hover;
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
    }
}

static void
on_leave (GtkEventControllerMotion *motion, ZwBoardView *self)
{
  (void) motion;
  if (self->hover >= 0)
    {
      self->hover = -1;
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
    }
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwBoardView *self)
{
  gint index;

  (void) gesture;
  gtk_widget_grab_focus (self->area);
  if (n_press > 1)
    return;
  /* a click on a network shows its deploy report in the single-network views */
  if ((index = network_at (self, x, y)) >= 0)
    zw_board_view_activate_network (self, index);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, ZwBoardView *self)
{
  gint index;
  g_autofree char *text = NULL;

  (void) widget;
  index = keyboard ? self->selected : network_at (self, x, y);
  if (index < 0)
    return FALSE;
  text = g_strdup_printf (_("%s: click to show its deploy report in Segments, Memory, Timing and Graph"),
                          g_array_index (self->pipeline->networks, ZwPipelineNetwork, index).name);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Up/Down walk the networks in pass order; Enter shows the selected one's report. */
static void
action_move (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwBoardView *self = ZW_BOARD_VIEW (widget);
  gint n = self->pipeline != NULL ? (gint) self->pipeline->networks->len : 0;

  (void) param;
  if (n == 0)
    return;
  if (g_str_equal (action_name, "board.next"))
    zw_board_view_select_network (self, self->selected < 0 ? 0 : MIN (self->selected + 1, n - 1));
  else
    zw_board_view_select_network (self, self->selected < 0 ? n - 1 : MAX (self->selected - 1, 0));
}

static void
action_pass (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwBoardView *self = ZW_BOARD_VIEW (widget);

  (void) action_name;
  (void) param;
  zw_board_view_activate_pass (self);
}

gboolean
zw_board_view_activate_pass (ZwBoardView *self)
{
  g_return_val_if_fail (ZW_IS_BOARD_VIEW (self), FALSE);
  if (self->pipeline == NULL)
    return FALSE;
  zw_board_view_select_network (self, -1);
  g_signal_emit (self, signals[PASS_ACTIVATED], 0);
  return TRUE;
}

static void
action_open (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwBoardView *self = ZW_BOARD_VIEW (widget);

  (void) action_name;
  (void) param;
  zw_board_view_activate_network (self, self->selected);
}

/* ---- object ---- */

static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwBoardView *self = ZW_BOARD_VIEW (view);

  zw_board_view_draw (cr, width, height, self->pipeline, self->selected, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  ZwBoardView *self = ZW_BOARD_VIEW (view);

  return self->pipeline != NULL ? zw_board_view_chunk_table (self->pipeline) : NULL;
}

static void
selection_notify (ZwView *view, GParamSpec *pspec)
{
  /* the board's networks are not the selection's ops or values */
  (void) view;
  (void) pspec;
}

static void
zw_board_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwBoardView *self = ZW_BOARD_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NETWORK: g_value_set_int (value, self->selected); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_board_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwBoardView *self = ZW_BOARD_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NETWORK: zw_board_view_select_network (self, g_value_get_int (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_board_view_dispose (GObject *object)
{
  ZwBoardView *self = ZW_BOARD_VIEW (object);

  self->area = NULL;
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
  G_OBJECT_CLASS (zw_board_view_parent_class)->dispose (object);
}

static void
zw_board_view_class_init (ZwBoardViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_Up, "board.previous" },    { GDK_KEY_Left, "board.previous" }, { GDK_KEY_KP_Up, "board.previous" },
    { GDK_KEY_Down, "board.next" },      { GDK_KEY_Right, "board.next" },    { GDK_KEY_KP_Down, "board.next" },
    { GDK_KEY_Return, "board.open" },    { GDK_KEY_KP_Enter, "board.open" }, { GDK_KEY_space, "board.open" },
    { GDK_KEY_Escape, "board.pass" },
  };

  object_class->dispose = zw_board_view_dispose;
  object_class->get_property = zw_board_view_get_property;
  object_class->set_property = zw_board_view_set_property;
  ZW_VIEW_CLASS (klass)->selection_notify = selection_notify;
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;

  properties[PROP_SELECTED_NETWORK] = g_param_spec_int ("selected-network", NULL, NULL, -1, G_MAXINT, -1,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                          | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[NETWORK_ACTIVATED] = g_signal_new ("network-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_install_action (widget_class, "board.previous", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "board.next", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "board.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "board.pass", NULL, action_pass);
  signals[PASS_ACTIVATED] = g_signal_new ("pass-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, 0, keys[i].action, NULL);
  gtk_widget_class_set_css_name (widget_class, "zwboardview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "board", N_("Board"), N_("Board view (several networks on one board)"),
                          ZW_VIEW_DATA_PIPELINE);
}

static void
zw_board_view_init (ZwBoardView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .released = G_CALLBACK (on_released),
  };
  GtkWidget *hint, *scrolled, *row, *pass;

  self->selected = -1;
  self->hover = -1;
  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 640, 560);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);

  hint = gtk_label_new (_("Click a network (its chunks, its legend row or its bar), or Up/Down and Enter, to show "
                          "its deploy report in the other views."));
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_ellipsize (GTK_LABEL (hint), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_set_margin_start (hint, 8);
  gtk_widget_set_margin_top (hint, 4);
  gtk_widget_set_margin_bottom (hint, 4);
  gtk_widget_set_hexpand (hint, TRUE);
  pass = gtk_button_new_with_mnemonic (_("Show the _Whole Pass"));
  gtk_widget_set_tooltip_text (pass, _("Segments, Memory, Timing and Graph show every network of the pipeline over "
                                       "one pass (Escape)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (pass), "board.pass");
  gtk_widget_set_margin_end (pass, 8);
  gtk_widget_set_valign (pass, GTK_ALIGN_CENTER);
  row = self->bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (row), hint);
  gtk_box_append (GTK_BOX (row), pass);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->area);
  gtk_widget_set_vexpand (scrolled, TRUE);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (self->box), row);
  gtk_box_append (GTK_BOX (self->box), scrolled);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  sync_actions (self);
}

GtkWidget *
zw_board_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_BOARD_VIEW, "selection", selection, NULL);
}
