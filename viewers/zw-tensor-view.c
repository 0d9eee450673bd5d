/* zw-tensor-view.c — the tensor inspector widget: the list of values beside the picture, the
 * quantised toggle, the hover, and the shared value selection. */
#include "zw-tensor-view-private.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "report/zw-pipeline-pass.h"

struct _ZwTensorView
{
  ZwView parent_instance;
  ZwDumpFolder *folder;
  XirNetwork *network;
  GArray *entries;            /* ZwTensorValue */
  GPtrArray *messages;        /* char*: files that did not load */
  gint selected;              /* index into entries, -1 */
  ZwTensor *tensor;
  ZwTensorStats *stats;
  char *message;              /* the selected value's failure */
  char *title;
  ZwTensorViewState state;
  gboolean syncing;
  /* children */
  GtkWidget *paned;
  GtkWidget *messages_label;
  GListStore *store;
  GtkSingleSelection *model;
  GtkWidget *column_view;
  guint scroll_idle;        /* scrolls the list to scroll_to once laid out */
  guint scroll_to;
  GtkWidget *quantized_toggle;
  GtkWidget *hover_label;
  GtkWidget *area;
};

G_DEFINE_FINAL_TYPE (ZwTensorView, zw_tensor_view, ZW_TYPE_VIEW)

static void
current_state (ZwTensorView *self, ZwTensorViewState *state)
{
  *state = self->state;
  state->title = self->title;
  state->message = self->message;
}

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwTensorView *self = user_data;
  ZwTensorViewState state;

  current_state (self, &state);
  state.has_hover = FALSE;   /* the overlay draws it */
  zw_tensor_view_draw (cr, width, height, self->tensor, self->stats, &state, colors);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwTensorView *self = user_data;
  double rect[4];
  ZwTensorGrid g;

  if (!self->state.has_hover || self->tensor == NULL || !zw_tensor_grid_compute (self->tensor, width, height, &g)
      || !zw_tensor_view_cell_rect (self->tensor, width, height, self->state.hover[1], rect))
    return;
  /* the element under the cursor, and its channel's cell */
  {
    GdkRGBA outline = colors->accent;
    float bw[4] = { 1, 1, 1, 1 };
    GdkRGBA bc[4] = { outline, outline, outline, outline };
    GskRoundedRect rr;
    double ex = rect[0] + self->state.hover[3] * g.scale, ey = rect[1] + self->state.hover[2] * g.scale;
    double es = MAX (g.scale, 3.0);

    gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (rect[0] - 1, rect[1] - 1, rect[2] + 2, rect[3] + 2), 0);
    gtk_snapshot_append_border (snapshot, &rr, bw, bc);
    gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (ex - (es - g.scale) / 2, ey - (es - g.scale) / 2, es, es), 0);
    for (int i = 0; i < 4; i++)
      bc[i] = colors->warning;
    gtk_snapshot_append_border (snapshot, &rr, bw, bc);
  }
}

static void
update_hover_label (ZwTensorView *self)
{
  g_autofree char *text = NULL;

  if (self->state.has_hover && self->tensor != NULL)
    text = zw_tensor_sample_text (self->tensor, self->state.hover);
  gtk_label_set_text (GTK_LABEL (self->hover_label), text != NULL ? text : "");
  gtk_widget_set_tooltip_text (self->hover_label, text);
}

gboolean
zw_tensor_view_set_hover (ZwTensorView *self, const gint64 coords[4], char **text_out)
{
  ZwTensorSample s;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  if (text_out)
    *text_out = NULL;
  if (self->tensor == NULL || coords == NULL
      || !zw_tensor_get_at (self->tensor, coords[0], coords[1], coords[2], coords[3], &s, NULL))
    {
      self->state.has_hover = FALSE;
      update_hover_label (self);
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
      return FALSE;
    }
  self->state.has_hover = TRUE;
  memcpy (self->state.hover, coords, sizeof self->state.hover);
  update_hover_label (self);
  zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
  if (text_out)
    *text_out = zw_tensor_sample_text (self->tensor, coords);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwTensorView *self)
{
  gint64 coords[4];

  (void) controller;
  if (self->tensor != NULL
      && zw_tensor_view_coords_at (self->tensor, self->state.batch, gtk_widget_get_width (self->area),
                                   gtk_widget_get_height (self->area), x, y, coords))
    zw_tensor_view_set_hover (self, coords, NULL);
  else if (self->state.has_hover)
    zw_tensor_view_set_hover (self, NULL, NULL);
}

static void
clear_selected (ZwTensorView *self)
{
  g_clear_pointer (&self->tensor, zw_tensor_free);
  g_clear_pointer (&self->stats, zw_tensor_stats_free);
  g_clear_pointer (&self->message, g_free);
  g_clear_pointer (&self->title, g_free);
  self->state.has_hover = FALSE;
  self->selected = -1;
}

static void
show_entry (ZwTensorView *self, gint index)
{
  g_autoptr (GError) error = NULL;
  const ZwTensorValue *e;

  clear_selected (self);
  if (index >= 0 && (guint) index < self->entries->len)
    {
      e = &g_array_index (self->entries, ZwTensorValue, index);
      self->selected = index;
      if (e->data->network != NULL)
        {
          /* a pipeline's value: its network and v_id */
          g_autofree char *name = zw_pipeline_value_name (e->data->network, e->v_id);
          self->title = e->op_id >= 0 ? g_strdup_printf (_("%s · op %lld · %s · %s"), name, (long long) e->op_id,
                                                         e->memory, e->shape)
                                      : g_strdup_printf (_("%s · %s · %s"), name, e->memory, e->shape);
        }
      else
        self->title = e->op_id >= 0 ? g_strdup_printf (_("v_id %lld · op %lld · %s · %s"), (long long) e->v_id,
                                                       (long long) e->op_id, e->memory, e->shape)
                                    : g_strdup_printf (_("v_id %lld · %s · %s"), (long long) e->v_id, e->memory,
                                                       e->shape);
      self->tensor = zw_tensor_new_from_folder (self->folder, e->data, self->network, &error);
      if (self->tensor == NULL)
        self->message = g_strdup_printf ("%s: %s", e->data->path, error->message);
      else
        self->stats = zw_tensor_stats_compute (self->tensor, 64);
    }
  gtk_widget_set_sensitive (self->quantized_toggle, self->tensor != NULL && self->tensor->has_quantized);
  update_hover_label (self);
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

static void
on_row_selected (ZwTensorView *self)
{
  ZwTensorRow *row;

  if (self->syncing)
    return;
  row = gtk_single_selection_get_selected_item (self->model);
  show_entry (self, row != NULL ? (gint) row->index : -1);
  if (row != NULL && g_array_index (self->entries, ZwTensorValue, row->index).data->network != NULL)
    {
      /* a pipeline's value: the other views follow it by network and v_id */
      const ZwTensorValue *e = &g_array_index (self->entries, ZwTensorValue, row->index);
      g_autofree char *name = zw_pipeline_value_name (e->data->network, e->v_id);
      self->syncing = TRUE;
      zw_selection_set_pipeline_value (zw_view_get_selection (ZW_VIEW (self)), name);
      self->syncing = FALSE;
    }
  else if (row != NULL && zw_view_get_report (ZW_VIEW (self)) != NULL)
    {
      self->syncing = TRUE;
      zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)),
                                       g_array_index (self->entries, ZwTensorValue, row->index).v_id);
      self->syncing = FALSE;
    }
}

static gboolean
scroll_idle_cb (gpointer data)
{
  ZwTensorView *self = data;

  self->scroll_idle = 0;
  /* the column view's list (a child) has the action (GTK 4.8: no gtk_column_view_scroll_to) */
  for (GtkWidget *c = gtk_widget_get_first_child (self->column_view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_activate_action (c, "list.scroll-to-item", "u", self->scroll_to))
      break;
  return G_SOURCE_REMOVE;
}

static gboolean select_entry (ZwTensorView *self, gint found, gint64 v_id);

gboolean
zw_tensor_view_select_value (ZwTensorView *self, gint64 v_id)
{
  gint found = -1;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  for (guint i = 0; v_id >= 0 && i < self->entries->len && found < 0; i++)
    if (g_array_index (self->entries, ZwTensorValue, i).v_id == v_id)
      found = (gint) i;
  if (v_id >= 0 && found < 0)
    return FALSE;
  return select_entry (self, found, v_id);
}

gboolean
zw_tensor_view_select_pipeline_value (ZwTensorView *self, const char *name)
{
  g_autofree char *net = NULL;
  gint64 v_id = -1;
  gint found = -1;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  if (name != NULL && !zw_pipeline_value_parse (name, &net, &v_id))
    return FALSE;
  for (guint i = 0; net != NULL && i < self->entries->len && found < 0; i++)
    {
      const ZwTensorValue *e = &g_array_index (self->entries, ZwTensorValue, i);
      if (e->v_id == v_id && g_strcmp0 (e->data->network, net) == 0)
        found = (gint) i;
    }
  if (name != NULL && found < 0)
    return FALSE;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->model, found >= 0 ? (guint) found : GTK_INVALID_LIST_POSITION);
  show_entry (self, found);
  if (found >= 0 && self->column_view != NULL)
    {
      self->scroll_to = (guint) found;
      if (self->scroll_idle == 0)
        self->scroll_idle = g_idle_add (scroll_idle_cb, self);
    }
  if (found >= 0)
    zw_selection_set_pipeline_value (zw_view_get_selection (ZW_VIEW (self)), name);
  self->syncing = FALSE;
  return TRUE;
}

char *
zw_tensor_view_dup_selected_name (ZwTensorView *self)
{
  const ZwTensorValue *e;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  if (self->selected < 0)
    return NULL;
  e = &g_array_index (self->entries, ZwTensorValue, self->selected);
  return e->data->network != NULL ? zw_pipeline_value_name (e->data->network, e->v_id)
                                  : g_strdup_printf ("%" G_GINT64_FORMAT, e->v_id);
}

static gboolean
select_entry (ZwTensorView *self, gint found, gint64 v_id)
{
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->model, found >= 0 ? (guint) found : GTK_INVALID_LIST_POSITION);
  show_entry (self, found);
  /* selected here or anywhere else: the row scrolls into sight */
  if (found >= 0 && self->column_view != NULL)
    {
      self->scroll_to = (guint) found;
      if (self->scroll_idle == 0)
        self->scroll_idle = g_idle_add (scroll_idle_cb, self);
    }
  /* as a click does: the other views follow (when the report knows the value) */
  if (found >= 0 && zw_view_get_report (ZW_VIEW (self)) != NULL)
    zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)), v_id);
  self->syncing = FALSE;
  return TRUE;
}

static void
zw_tensor_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwTensorView *self = ZW_TENSOR_VIEW (view);
  gint64 v;

  if (!self->syncing && g_str_equal (pspec->name, "pipeline-value"))
    {
      const char *name = zw_selection_get_pipeline_value (zw_view_get_selection (ZW_VIEW (self)));
      if (name != NULL)
        zw_tensor_view_select_pipeline_value (self, name);
      return;
    }
  if (self->syncing || !g_str_equal (pspec->name, "selected-value"))
    return;
  v = zw_selection_get_selected_value (zw_view_get_selection (ZW_VIEW (self)));
  if (v >= 0)
    zw_tensor_view_select_value (self, v);
}

static void
update_messages (ZwTensorView *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->messages->len; i++)
    {
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, g_ptr_array_index (self->messages, i));
    }
  gtk_label_set_text (GTK_LABEL (self->messages_label), text->str);
  gtk_widget_set_visible (self->messages_label, self->messages->len > 0);
}

void
zw_tensor_view_set_folder (ZwTensorView *self, ZwDumpFolder *folder, XirNetwork *network)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  ZwDeployReport *report;

  g_return_if_fail (ZW_IS_TENSOR_VIEW (self));
  clear_selected (self);
  g_clear_pointer (&self->folder, zw_dump_folder_free);
  g_clear_pointer (&self->network, xir_network_unref);
  g_array_set_size (self->entries, 0);
  g_ptr_array_set_size (self->messages, 0);
  self->folder = folder;
  self->network = network != NULL ? xir_network_ref (network) : NULL;
  report = zw_view_get_report (ZW_VIEW (self));

  for (guint i = 0; folder != NULL && i < folder->warnings->len; i++)
    g_ptr_array_add (self->messages, g_strdup (g_ptr_array_index (folder->warnings, i)));
  zw_tensor_values_collect (folder, network, report, self->entries, rows);
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), rows->pdata, rows->len);
  gtk_single_selection_set_selected (self->model, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
  update_messages (self);
  show_entry (self, -1);
  /* open on something to look at: the first OCM-resident value (what only a dump with
   * merge off can show), else the first value */
  if (self->entries->len > 0)
    {
      guint pick = 0;
      for (guint i = 0; i < self->entries->len; i++)
        if (g_strcmp0 (g_array_index (self->entries, ZwTensorValue, i).memory, "OCM") == 0)
          {
            pick = i;
            break;
          }
      zw_tensor_view_select_value (self, g_array_index (self->entries, ZwTensorValue, pick).v_id);
    }
}

gboolean
zw_tensor_view_load_folder (ZwTensorView *self, const char *dir, XirNetwork *network, const char *format,
                            GError **error)
{
  ZwDumpFolder *folder;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);
  folder = zw_dump_folder_load (dir, network, format, error);
  if (folder == NULL)
    return FALSE;
  zw_tensor_view_set_folder (self, folder, network);
  return TRUE;
}

GPtrArray *
zw_tensor_view_get_messages (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return self->messages;
}

guint
zw_tensor_view_get_n_values (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), 0);
  return self->entries->len;
}

gint64
zw_tensor_view_get_selected_value (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), -1);
  return self->selected >= 0 ? g_array_index (self->entries, ZwTensorValue, self->selected).v_id : -1;
}

const ZwTensor *
zw_tensor_view_get_tensor (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return self->tensor;
}

const ZwTensorStats *
zw_tensor_view_get_stats (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return self->stats;
}

void
zw_tensor_view_set_quantized (ZwTensorView *self, gboolean quantized)
{
  g_return_if_fail (ZW_IS_TENSOR_VIEW (self));
  quantized = !!quantized;
  if (self->state.quantized == quantized)
    return;
  self->state.quantized = quantized;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->quantized_toggle)) != quantized)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->quantized_toggle), quantized);
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

static void
on_toggle (GtkToggleButton *button, ZwTensorView *self)
{
  zw_tensor_view_set_quantized (self, gtk_toggle_button_get_active (button));
}

GPtrArray *
zw_tensor_view_table (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return zw_tensor_values_table (G_LIST_MODEL (self->store));
}

void
zw_tensor_view_render (ZwTensorView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwTensorViewState state;

  g_return_if_fail (ZW_IS_TENSOR_VIEW (self));
  current_state (self, &state);
  zw_tensor_view_draw (cr, width, height, self->tensor, self->stats, &state, colors);
}

static void
zw_tensor_view_dispose (GObject *object)
{
  ZwTensorView *self = ZW_TENSOR_VIEW (object);

  /* the list's selection model notifies while the children go: not to us any more */
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  self->column_view = NULL;
  clear_selected (self);
  g_clear_object (&self->model);
  g_clear_object (&self->store);
  g_clear_pointer (&self->folder, zw_dump_folder_free);
  g_clear_pointer (&self->network, xir_network_unref);
  G_OBJECT_CLASS (zw_tensor_view_parent_class)->dispose (object);
}

static void
zw_tensor_view_finalize (GObject *object)
{
  ZwTensorView *self = ZW_TENSOR_VIEW (object);

  g_array_unref (self->entries);
  g_ptr_array_unref (self->messages);
  G_OBJECT_CLASS (zw_tensor_view_parent_class)->finalize (object);
}

/* the view's content for exports (zw_view_render) */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  zw_tensor_view_render (ZW_TENSOR_VIEW (view), cr, width, height, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  return zw_tensor_view_table (ZW_TENSOR_VIEW (view));
}

static void
zw_tensor_view_class_init (ZwTensorViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = zw_tensor_view_dispose;
  object_class->finalize = zw_tensor_view_finalize;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_tensor_view_selection_notify;
  gtk_widget_class_set_css_name (widget_class, "zwtensorview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "tensors", N_("Tensors"), N_("Tensors view"), ZW_VIEW_DATA_DUMP);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_tensor_view_init (ZwTensorView *self)
{
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  static const ZwPointerHandlers handlers = { .motion = G_CALLBACK (on_motion) };

  self->entries = g_array_new (FALSE, TRUE, sizeof (ZwTensorValue));
  g_array_set_clear_func (self->entries, zw_tensor_value_clear);
  self->messages = g_ptr_array_new_with_free_func (g_free);
  self->selected = -1;
  zw_tensor_view_state_init (&self->state);

  self->messages_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->messages_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->messages_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->messages_label), TRUE);
  gtk_widget_add_css_class (self->messages_label, "error");
  gtk_widget_set_visible (self->messages_label, FALSE);
  gtk_box_append (GTK_BOX (left), self->messages_label);

  self->store = g_list_store_new (ZW_TYPE_TENSOR_ROW);
  self->model = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->store)));
  gtk_single_selection_set_autoselect (self->model, FALSE);
  gtk_single_selection_set_can_unselect (self->model, TRUE);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_row_selected), self);
  self->column_view = zw_tensor_values_new_column_view (self->model);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->column_view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_size_request (scrolled, 260, 120);
  gtk_box_append (GTK_BOX (left), scrolled);

  self->quantized_toggle = gtk_toggle_button_new_with_label (_("Quantised"));
  gtk_widget_set_tooltip_text (self->quantized_toggle, _("Show the stored integers instead of the dequantised floats"));
  g_signal_connect (self->quantized_toggle, "toggled", G_CALLBACK (on_toggle), self);
  /* the hover readout has a place of its own, one line whatever it says: it never changes
   * the heatmap's size (a long readout is cut, its whole text in the tooltip) (issue 37) */
  self->hover_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->hover_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->hover_label), TRUE);
  gtk_label_set_single_line_mode (GTK_LABEL (self->hover_label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (self->hover_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (self->hover_label), 24);
  gtk_widget_set_hexpand (self->hover_label, TRUE);
  gtk_box_append (GTK_BOX (bar), self->quantized_toggle);
  gtk_box_append (GTK_BOX (bar), self->hover_label);
  gtk_box_append (GTK_BOX (right), bar);

  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 360, 300);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);
  gtk_box_append (GTK_BOX (right), self->area);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), left);
  gtk_paned_set_end_child (GTK_PANED (self->paned), right);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
}

GtkWidget *
zw_tensor_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_TENSOR_VIEW, "selection", selection, NULL);
}
