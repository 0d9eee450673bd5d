/* zw-sweep-view.c — the Sweep view widget: the plot's area with its hover and selection,
 * the buttons, keys and the shared row selection; the table is zw-sweep-table.c. */
#include "zw-sweep-view-private.h"
#include "zw-row-item.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

enum { PROP_0, PROP_SELECTED_ROW, N_PROPS };
enum { ROW_ACTIVATED, N_SIGNALS };
static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (ZwSweepView, zw_sweep_view, ZW_TYPE_VIEW)

#define HIT_TOLERANCE 8.0

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwSweepView *self = user_data;

  /* the selection and the hover are the overlay's: the content stays cached */
  zw_sweep_view_draw (cr, width, height, self->sweep, -1, colors);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwSweepView *self = user_data;
  cairo_t *cr;
  ZwSweepGeo g;
  double x, y;

  if (!zw_sweep_geo_compute (&g, self->sweep, width, height) || (self->selected < 0 && self->hover < 0))
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->hover >= 0 && zw_sweep_view_row_point (self->sweep, width, height, (guint) self->hover, &x, &y))
    {
      zw_cairo_set_color (cr, &colors->hover);
      cairo_arc (cr, x, y, ZW_SWEEP_VIEW_FRONT_R + 2, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  zw_sweep_draw_selected (cr, &g, self->sweep, self->selected, colors);
  cairo_destroy (cr);
}

static void
update_open_button (ZwSweepView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sweep.open", self->selected >= 0);
}

void
zw_sweep_view_select_row (ZwSweepView *self, gint index)
{
  guint pos;

  g_return_if_fail (ZW_IS_SWEEP_VIEW (self));
  if (self->sweep == NULL || index < 0 || (guint) index >= self->sweep->rows->len)
    index = -1;
  if (index == self->selected)
    return;
  self->selected = index;
  zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
  update_open_button (self);
  if (!self->syncing)
    {
      pos = zw_sweep_view_table_position (self, index);
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->model, pos);
      self->syncing = FALSE;
      if (pos != GTK_INVALID_LIST_POSITION)
        zw_sweep_view_scroll_table_to (self, pos);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

gint
zw_sweep_view_get_selected_row (ZwSweepView *self)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), -1);
  return self->selected;
}

gboolean
zw_sweep_view_activate_row (ZwSweepView *self, gint index)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), FALSE);
  if (self->sweep == NULL || index < 0 || (guint) index >= self->sweep->rows->len)
    return FALSE;
  zw_sweep_view_select_row (self, index);
  g_signal_emit (self, signals[ROW_ACTIVATED], 0, (guint) index);
  return TRUE;
}

void
zw_sweep_view_set_sweep (ZwSweepView *self, ZwSweep *sweep)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gint old_selected = self->selected;

  g_return_if_fail (ZW_IS_SWEEP_VIEW (self));
  if (sweep == self->sweep)
    return;
  if (sweep != NULL)
    zw_sweep_ref (sweep);
  g_clear_pointer (&self->sweep, zw_sweep_unref);
  self->sweep = sweep;
  self->hover = -1;
  self->selected = -1;
  for (guint i = 0; sweep != NULL && i < sweep->rows->len; i++)
    {
      g_ptr_array_add (items, zw_row_item_new (sweep, (GBoxedCopyFunc) zw_sweep_ref,
                                               (GDestroyNotify) zw_sweep_unref, i));
    }
  /* one device profile: no what-if column (it would say so on every row and push the ETM
   * figures out of a 1280-pixel window) */
  gtk_column_view_column_set_visible (self->columns[ZW_SWEEP_COLUMN_WHAT_IF], sweep != NULL && sweep->what_if->len > 1);
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), items->pdata, items->len);
  gtk_single_selection_set_selected (self->model, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
  update_open_button (self);
  /* the recommendation is where to look first */
  /* the recommendation for the device as profiled (the first what-if point) */
  zw_sweep_view_select_row (self, sweep != NULL ? zw_sweep_recommended_at (sweep, 0) : -1);
  if (self->selected < 0 && old_selected >= 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

ZwSweep *
zw_sweep_view_get_sweep (ZwSweepView *self)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), NULL);
  return self->sweep;
}

void
zw_sweep_view_render (ZwSweepView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  g_return_if_fail (ZW_IS_SWEEP_VIEW (self));
  zw_sweep_view_draw (cr, width, height, self->sweep, self->selected, colors);
}

gboolean
zw_sweep_view_save (ZwSweepView *self, const char *path, GError **error)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (self->sweep == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: no sweep is shown"), path);
      return FALSE;
    }
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".json"))
    return zw_sweep_save_json (self->sweep, path, error);
  if (g_str_has_suffix (lower, ".csv"))
    return zw_sweep_save_csv (self->sweep, path, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: a sweep is saved as .json or .csv"), path);
  return FALSE;
}

/* ---- events ---- */

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, ZwSweepView *self)
{
  gint hover;

  (void) motion;
  hover = zw_sweep_view_row_at (self->sweep, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x,
                                y, HIT_TOLERANCE);
  if (hover != self->hover)
    {
      self->hover = hover;
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
    }
}

static void
on_leave (GtkEventControllerMotion *motion, ZwSweepView *self)
{
  (void) motion;
  if (self->hover >= 0)
    {
      self->hover = -1;
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
    }
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwSweepView *self)
{
  gint index;

  (void) gesture;
  gtk_widget_grab_focus (self->area);
  /* the second click of a double click does not run the row again */
  if (n_press > 1)
    return;
  index = zw_sweep_view_row_at (self->sweep, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x,
                                y, HIT_TOLERANCE);
  /* a click on a point opens that row: the window deploys and runs it */
  if (index >= 0)
    zw_sweep_view_activate_row (self, index);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, ZwSweepView *self)
{
  g_autofree char *text = NULL;
  gint index;

  (void) widget;
  if (keyboard)
    index = self->selected;
  else
    index = zw_sweep_view_row_at (self->sweep, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x,
                                  y, HIT_TOLERANCE);
  if (index < 0 || (text = zw_sweep_view_describe_row (self->sweep, (guint) index)) == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
action_move (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (widget);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  guint pos = zw_sweep_view_table_position (self, self->selected), target;
  g_autoptr (ZwRowItem) item = NULL;

  (void) param;
  if (n == 0)
    return;
  /* in the table's order, so the keys walk the rows as the table lists them */
  if (g_str_equal (action_name, "sweep.first") || (pos == GTK_INVALID_LIST_POSITION && g_str_equal (action_name, "sweep.next")))
    target = 0;
  else if (g_str_equal (action_name, "sweep.last") || pos == GTK_INVALID_LIST_POSITION)
    target = n - 1;
  else if (g_str_equal (action_name, "sweep.next"))
    target = MIN (pos + 1, n - 1);
  else
    target = pos > 0 ? pos - 1 : 0;
  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), target);
  zw_sweep_view_select_row (self, (gint) item->index);
}

static void
action_open (GtkWidget *widget, const char *action_name, GVariant *param)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (widget);

  (void) action_name;
  (void) param;
  zw_sweep_view_activate_row (self, self->selected);
}

static void
zw_sweep_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ROW: g_value_set_int (value, self->selected); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_sweep_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ROW: zw_sweep_view_select_row (self, g_value_get_int (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_sweep_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  /* a sweep's rows are runs, not ops or values: the shared selection does not move them */
  (void) view;
  (void) pspec;
}

static void
zw_sweep_view_dispose (GObject *object)
{
  ZwSweepView *self = ZW_SWEEP_VIEW (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  self->area = NULL;
  self->open_button = NULL;
  self->column_view = NULL;
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->sweep, zw_sweep_unref);
  G_OBJECT_CLASS (zw_sweep_view_parent_class)->dispose (object);
}

/* the view's content for exports (zw_view_render) */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  zw_sweep_view_render (ZW_SWEEP_VIEW (view), cr, width, height, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  return zw_sweep_view_table (ZW_SWEEP_VIEW (view));
}

static void
zw_sweep_view_class_init (ZwSweepViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_Up, "sweep.previous" },   { GDK_KEY_Left, "sweep.previous" }, { GDK_KEY_KP_Up, "sweep.previous" },
    { GDK_KEY_Down, "sweep.next" },     { GDK_KEY_Right, "sweep.next" },    { GDK_KEY_KP_Down, "sweep.next" },
    { GDK_KEY_Home, "sweep.first" },    { GDK_KEY_End, "sweep.last" },      { GDK_KEY_Return, "sweep.open" },
    { GDK_KEY_KP_Enter, "sweep.open" }, { GDK_KEY_space, "sweep.open" },
  };

  object_class->dispose = zw_sweep_view_dispose;
  object_class->get_property = zw_sweep_view_get_property;
  object_class->set_property = zw_sweep_view_set_property;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_sweep_view_selection_notify;

  properties[PROP_SELECTED_ROW] = g_param_spec_int ("selected-row", NULL, NULL, -1, G_MAXINT, -1,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[ROW_ACTIVATED] = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "sweep.previous", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.next", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.first", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.last", NULL, action_move);
  gtk_widget_class_install_action (widget_class, "sweep.open", NULL, action_open);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, 0, keys[i].action, NULL);
  gtk_widget_class_set_css_name (widget_class, "zwsweepview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "sweep", N_("Sweep"), N_("Sweep view"), ZW_VIEW_DATA_SWEEP);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_sweep_view_init (ZwSweepView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .released = G_CALLBACK (on_released),
  };
  GtkWidget *top, *bar, *hint, *save, *scrolled;

  self->selected = -1;
  self->hover = -1;

  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 560, 260);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);

  /* what a click does, and the buttons that do it without the mouse */
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 8);
  gtk_widget_set_margin_end (bar, 8);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  hint = gtk_label_new (_("Click a point, or Enter on a row, to deploy and run it: every view then shows that run."));
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_ellipsize (GTK_LABEL (hint), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (hint, TRUE);
  gtk_widget_add_css_class (hint, "dim-label");
  self->open_button = gtk_button_new_with_mnemonic (_("_Run Selected Row"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "sweep.open");
  save = gtk_button_new_with_mnemonic (_("_Save or Export…"));
  gtk_widget_set_tooltip_text (save, _("The sweep as JSON or CSV (as xrt-run sweep writes it), the plot as PNG, SVG "
                                       "or PDF"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (save), "win.export");
  gtk_box_append (GTK_BOX (bar), hint);
  gtk_box_append (GTK_BOX (bar), self->open_button);
  gtk_box_append (GTK_BOX (bar), save);
  top = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (top), bar);
  gtk_box_append (GTK_BOX (top), self->area);

  scrolled = zw_sweep_view_build_table (self);

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), top);
  gtk_paned_set_end_child (GTK_PANED (self->paned), scrolled);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), TRUE);
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  update_open_button (self);
}

GtkWidget *
zw_sweep_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_SWEEP_VIEW, "selection", selection, NULL);
}
