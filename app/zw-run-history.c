/* zw-run-history.c — the list of runs (see the header). */
#include "zw-run-history.h"

#include <glib/gi18n.h>
#include <string.h>

#define MAX_COMPARED 2
/* three rows of three lines in sight before the history scrolls: at 1280x800 the options
 * above (down to the device and Forward ×N) keep their natural height */
#define MIN_HISTORY_HEIGHT 200

struct _ZwRunHistory
{
  GtkWidget parent_instance;

  GListModel *model;
  GtkSingleSelection *selection;
  GtkWidget *scroller;
  GtkWidget *list;
  GPtrArray *compared;   /* ZwRun refs in marking order */
  guint scroll_tick;
  guint scroll_frames;
};

G_DEFINE_FINAL_TYPE (ZwRunHistory, zw_run_history, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_MODEL, PROP_SELECTED_RUN, PROP_N_COMPARED, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* ---- rows ---------------------------------------------------------------------- */

static void
row_setup (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *group = gtk_label_new (NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *summary = gtk_label_new (NULL);
  GtkWidget *figures = gtk_label_new (NULL);
  GtkWidget *synthetic = gtk_label_new (_("Synthetic params: made-up weights, real placement and times"));
  GtkWidget *compare = gtk_check_button_new ();

  (void) factory;
  (void) user_data;
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (summary), 0);
  gtk_label_set_ellipsize (GTK_LABEL (summary), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (summary, "caption");
  gtk_label_set_xalign (GTK_LABEL (figures), 0);
  gtk_label_set_ellipsize (GTK_LABEL (figures), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (figures, "caption");
  gtk_widget_add_css_class (figures, "dim-label");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), summary);
  gtk_box_append (GTK_BOX (texts), figures);
  /* said in the row itself, whole (wrapped, never cut): not only in its tooltip */
  gtk_label_set_xalign (GTK_LABEL (synthetic), 0);
  gtk_label_set_wrap (GTK_LABEL (synthetic), TRUE);
  gtk_widget_add_css_class (synthetic, "caption");
  gtk_widget_add_css_class (synthetic, "warning");
  gtk_widget_add_css_class (synthetic, "zw-synthetic-params");
  gtk_widget_set_visible (synthetic, FALSE);
  gtk_box_append (GTK_BOX (texts), synthetic);
  gtk_widget_set_tooltip_text (compare, _("Mark for comparison (two runs at most)"));
  gtk_widget_set_valign (compare, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_box_append (GTK_BOX (box), compare);
  gtk_widget_set_margin_top (box, 2);
  gtk_widget_set_margin_bottom (box, 2);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  /* runs are grouped by network: a heading where the network changes */
  gtk_label_set_xalign (GTK_LABEL (group), 0);
  gtk_label_set_ellipsize (GTK_LABEL (group), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (group, "dim-label");
  gtk_widget_add_css_class (group, "caption-heading");
  gtk_widget_set_margin_start (group, 6);
  gtk_widget_set_margin_top (group, 4);
  gtk_box_append (GTK_BOX (outer), group);
  gtk_box_append (GTK_BOX (outer), box);
  g_object_set_data (G_OBJECT (item), "group", group);
  g_object_set_data (G_OBJECT (item), "title", title);
  g_object_set_data (G_OBJECT (item), "summary", summary);
  g_object_set_data (G_OBJECT (item), "figures", figures);
  g_object_set_data (G_OBJECT (item), "synthetic", synthetic);
  g_object_set_data (G_OBJECT (item), "compare", compare);
  gtk_list_item_set_child (item, outer);
}

/* The network heading of the row at @position: shown where the network differs from the
 * previous row's (runs only ever append, so a bound row's neighbour does not change). */
static void
bind_group (GtkListItem *item, ZwRun *run, GListModel *model)
{
  GtkWidget *group = g_object_get_data (G_OBJECT (item), "group");
  guint position = gtk_list_item_get_position (item);
  const char *name = zw_run_get_network_name (run);
  gboolean first = TRUE;

  if (position != GTK_INVALID_LIST_POSITION && position > 0 && model != NULL)
    {
      g_autoptr (ZwRun) prev = g_list_model_get_item (model, position - 1);
      first = prev == NULL || g_strcmp0 (zw_run_get_network_name (prev), name) != 0;
    }
  gtk_label_set_text (GTK_LABEL (group), name);
  gtk_widget_set_visible (group, first);
}

static void
row_bind (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  ZwRun *run = gtk_list_item_get_item (item);
  g_autofree char *title = zw_run_dup_title (run);
  g_autofree char *summary = zw_run_dup_summary (run);
  char *newline = strchr (summary, '\n');
  GBinding *binding;

  g_autofree char *tooltip = zw_run_dup_details (run);

  (void) factory;
  bind_group (item, run, ZW_RUN_HISTORY (user_data)->model);
  gtk_label_set_text (g_object_get_data (G_OBJECT (item), "title"), title);
  /* the labels are ellipsized: the full text is the row's tooltip */
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), tooltip);
  /* the summary's two lines: options, then figures */
  if (newline != NULL)
    *newline = '\0';
  gtk_label_set_text (g_object_get_data (G_OBJECT (item), "summary"), summary);
  gtk_label_set_text (g_object_get_data (G_OBJECT (item), "figures"), newline ? newline + 1 : "");
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (item), "synthetic"), zw_run_get_synthetic_params (run));
  binding = g_object_bind_property (run, "compare", g_object_get_data (G_OBJECT (item), "compare"), "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (item), "binding", binding);
}

static void
row_unbind (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GBinding *binding = g_object_get_data (G_OBJECT (item), "binding");

  (void) factory;
  (void) user_data;
  if (binding != NULL)
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (item), "binding", NULL);
}

/* ---- compare marks ------------------------------------------------------------- */

static void
on_run_compare (ZwRun *run, GParamSpec *pspec, ZwRunHistory *self)
{
  guint n_before = self->compared->len;

  (void) pspec;
  if (zw_run_get_compare (run))
    {
      if (!g_ptr_array_find (self->compared, run, NULL))
        g_ptr_array_add (self->compared, g_object_ref (run));
      /* keep the two most recently marked: unmark the oldest (re-enters this handler) */
      while (self->compared->len > MAX_COMPARED)
        {
          g_autoptr (ZwRun) oldest = g_object_ref (g_ptr_array_index (self->compared, 0));
          g_ptr_array_remove_index (self->compared, 0);
          zw_run_set_compare (oldest, FALSE);
        }
    }
  else
    g_ptr_array_remove (self->compared, run);
  if (self->compared->len != n_before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_COMPARED]);
}

/* The newest run in sight: once the list has laid the new row out, scroll to the end. */
static gboolean
scroll_to_end (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  ZwRunHistory *self = ZW_RUN_HISTORY (widget);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  double end = gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj);
  guint *frames = data;

  (void) clock;
  if (gtk_adjustment_get_value (adj) < end)
    gtk_adjustment_set_value (adj, end);
  /* the list sizes rows it binds over a frame or two: follow them, then stop */
  if (++*frames < 4)
    return G_SOURCE_CONTINUE;
  self->scroll_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, ZwRunHistory *self)
{
  (void) removed;
  if (added > 0 && position + added == g_list_model_get_n_items (model))
    {
      self->scroll_frames = 0;
      if (self->scroll_tick == 0)
        self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_end, &self->scroll_frames, NULL);
    }
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (model, i);
      g_signal_connect_object (run, "notify::compare", G_CALLBACK (on_run_compare), self, 0);
    }
}

static void
on_selected_item (GtkSingleSelection *selection, GParamSpec *pspec, ZwRunHistory *self)
{
  (void) selection;
  (void) pspec;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_RUN]);
}

/* ---- object ---------------------------------------------------------------------- */

static void
zw_run_history_constructed (GObject *object)
{
  ZwRunHistory *self = ZW_RUN_HISTORY (object);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  G_OBJECT_CLASS (zw_run_history_parent_class)->constructed (object);

  if (self->model == NULL)
    self->model = G_LIST_MODEL (g_list_store_new (ZW_TYPE_RUN));
  g_signal_connect_object (self->model, "items-changed", G_CALLBACK (on_items_changed), self, 0);
  on_items_changed (self->model, 0, 0, g_list_model_get_n_items (self->model), self);

  self->selection = gtk_single_selection_new (g_object_ref (self->model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (on_selected_item), self, 0);

  g_signal_connect (factory, "setup", G_CALLBACK (row_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (row_unbind), NULL);
  self->list = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)), factory);
  gtk_widget_add_css_class (self->list, "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Run history"), -1);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->list);
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scroller), MIN_HISTORY_HEIGHT);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

static void
zw_run_history_dispose (GObject *object)
{
  ZwRunHistory *self = ZW_RUN_HISTORY (object);

  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_tick);
  self->scroll_tick = 0;
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_pointer (&self->compared, g_ptr_array_unref);
  G_OBJECT_CLASS (zw_run_history_parent_class)->dispose (object);
}

static void
zw_run_history_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwRunHistory *self = ZW_RUN_HISTORY (object);

  switch (prop_id)
    {
    case PROP_MODEL: g_value_set_object (value, self->model); break;
    case PROP_SELECTED_RUN: g_value_set_object (value, zw_run_history_get_selected_run (self)); break;
    case PROP_N_COMPARED: g_value_set_uint (value, self->compared ? self->compared->len : 0); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_run_history_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwRunHistory *self = ZW_RUN_HISTORY (object);

  switch (prop_id)
    {
    case PROP_MODEL: self->model = g_value_dup_object (value); break;
    case PROP_SELECTED_RUN: zw_run_history_set_selected_run (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_run_history_class_init (ZwRunHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = zw_run_history_constructed;
  object_class->dispose = zw_run_history_dispose;
  object_class->get_property = zw_run_history_get_property;
  object_class->set_property = zw_run_history_set_property;

  properties[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                                                G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_RUN] = g_param_spec_object ("selected-run", NULL, NULL, ZW_TYPE_RUN,
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                           | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_COMPARED] = g_param_spec_uint ("n-compared", NULL, NULL, 0, MAX_COMPARED, 0,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "zwrunhistory");
}

static void
zw_run_history_init (ZwRunHistory *self)
{
  self->compared = g_ptr_array_new_with_free_func (g_object_unref);
}

GtkWidget *
zw_run_history_new (GListModel *runs)
{
  return g_object_new (ZW_TYPE_RUN_HISTORY, "model", runs, NULL);
}

ZwRun *
zw_run_history_get_selected_run (ZwRunHistory *self)
{
  g_return_val_if_fail (ZW_IS_RUN_HISTORY (self), NULL);
  return self->selection ? gtk_single_selection_get_selected_item (self->selection) : NULL;
}

void
zw_run_history_set_selected_run (ZwRunHistory *self, ZwRun *run)
{
  guint n;

  g_return_if_fail (ZW_IS_RUN_HISTORY (self));

  if (run == NULL)
    {
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      return;
    }
  n = g_list_model_get_n_items (self->model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (ZwRun) item = g_list_model_get_item (self->model, i);
      if (item == run)
        {
          gtk_single_selection_set_selected (self->selection, i);
          /* show the newly selected row (e.g. a run just added at the end) */
          gtk_widget_activate_action (self->list, "list.scroll-to-item", "u", i);
          return;
        }
    }
  g_return_if_reached ();
}

GPtrArray *
zw_run_history_get_compare_runs (ZwRunHistory *self)
{
  GPtrArray *out = g_ptr_array_new ();

  g_return_val_if_fail (ZW_IS_RUN_HISTORY (self), out);
  for (guint i = 0; i < self->compared->len; i++)
    g_ptr_array_add (out, g_ptr_array_index (self->compared, i));
  return out;
}

GtkWidget *
zw_run_history_get_scroller (ZwRunHistory *self)
{
  g_return_val_if_fail (ZW_IS_RUN_HISTORY (self), NULL);
  return self->scroller;
}
