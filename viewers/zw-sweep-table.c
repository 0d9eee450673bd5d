/* zw-sweep-table.c — the Sweep view's table: one row per sweep row, sortable by any column,
 * its selection kept in step with the plot's. */
#include "zw-sweep-view-private.h"
#include "zw-column-table.h"
#include "zw-row-item.h"

#include <glib/gi18n.h>

/* A table row: a ZwRowItem whose data is the sweep. */
#define ITEM_SWEEP(item) ((ZwSweep *) (item)->data)

static const ZwSweepRow *
item_row (const ZwRowItem *item)
{
  return &g_array_index (ITEM_SWEEP (item)->rows, ZwSweepRow, item->index);
}

static int
compare_items (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const ZwRowItem *ia = a, *ib = b;
  const ZwSweepRow *ra = item_row (ia), *rb = item_row (ib);
  ZwSweepColumn column = (ZwSweepColumn) GPOINTER_TO_INT (user_data);
  double x = 0, y = 0;
  int s = 0;

  switch (column)
    {
    case ZW_SWEEP_COLUMN_INDEX: break;
    case ZW_SWEEP_COLUMN_MERGE: x = ra->merge_hardop; y = rb->merge_hardop; break;
    case ZW_SWEEP_COLUMN_ETM_OPTIMIZE: x = ra->etm_optimize; y = rb->etm_optimize; break;
    case ZW_SWEEP_COLUMN_OCM_REQUESTED: x = ra->ocm_requested; y = rb->ocm_requested; break;
    case ZW_SWEEP_COLUMN_OCM_CHOSEN: x = ra->ocm_chosen; y = rb->ocm_chosen; break;
    case ZW_SWEEP_COLUMN_WHAT_IF: s = g_strcmp0 (ra->what_if, rb->what_if); break;
    /* a row that did not run sorts after those that did */
    case ZW_SWEEP_COLUMN_TIME:
      x = ra->error ? G_MAXDOUBLE : ra->simulated_ms;
      y = rb->error ? G_MAXDOUBLE : rb->simulated_ms;
      break;
    case ZW_SWEEP_COLUMN_FTMP:
      x = ra->error ? G_MAXDOUBLE : (double) ra->ftmp_bytes;
      y = rb->error ? G_MAXDOUBLE : (double) rb->ftmp_bytes;
      break;
    case ZW_SWEEP_COLUMN_OCM_BYTES:
      x = ra->error ? G_MAXDOUBLE : (double) ra->ocm_peak;
      y = rb->error ? G_MAXDOUBLE : (double) rb->ocm_peak;
      break;
    case ZW_SWEEP_COLUMN_ETM:
      x = ra->error ? G_MAXDOUBLE : (double) ra->etm_bytes;
      y = rb->error ? G_MAXDOUBLE : (double) rb->etm_bytes;
      break;
    case ZW_SWEEP_COLUMN_LAUNCHES:
      x = ra->error ? G_MAXDOUBLE : ra->launches;
      y = rb->error ? G_MAXDOUBLE : rb->launches;
      break;
    case ZW_SWEEP_COLUMN_CHECKED: x = ra->checked; y = rb->checked; break;
    case ZW_SWEEP_COLUMN_FRONT:
      /* recommended, then the front, then the rest */
      x = zw_sweep_row_is_recommended (ITEM_SWEEP (ia), ra) ? 0 : ra->on_front ? 1 : 2;
      y = zw_sweep_row_is_recommended (ITEM_SWEEP (ib), rb) ? 0 : rb->on_front ? 1 : 2;
      break;
    case ZW_SWEEP_COLUMN_ERROR: s = g_strcmp0 (ra->error, rb->error); break;
    case ZW_SWEEP_N_COLUMNS:
    default: g_assert_not_reached ();
    }
  if (s != 0)
    return s < 0 ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  if (x != y)
    return x < y ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* ties keep the sweep's order: a sort is stable and repeatable */
  return ra->index < rb->index ? GTK_ORDERING_SMALLER : ra->index > rb->index ? GTK_ORDERING_LARGER
                                                                              : GTK_ORDERING_EQUAL;
}

static gboolean
scroll_idle (gpointer data)
{
  ZwSweepView *self = data;

  self->scroll_idle = 0;
  if (self->scroll_to >= g_list_model_get_n_items (G_LIST_MODEL (self->sorted)))
    return G_SOURCE_REMOVE;
  /* GTK 4.8 has no gtk_column_view_scroll_to: the column view's list has this action */
  for (GtkWidget *c = gtk_widget_get_first_child (self->column_view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_activate_action (c, "list.scroll-to-item", "u", self->scroll_to))
      break;
  return G_SOURCE_REMOVE;
}

guint
zw_sweep_view_table_position (ZwSweepView *self, gint index)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));

  for (guint i = 0; index >= 0 && i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      if ((gint) item->index == index)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

gboolean
zw_sweep_view_sort_by (ZwSweepView *self, ZwSweepColumn column, gboolean descending)
{
  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), FALSE);
  if ((guint) column >= ZW_SWEEP_N_COLUMNS)
    return FALSE;
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), self->columns[column],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
  return TRUE;
}

guint *
zw_sweep_view_get_table_order (ZwSweepView *self, guint *n_out)
{
  guint n, *order;

  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  order = g_new0 (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      order[i] = item->index;
    }
  if (n_out)
    *n_out = n;
  return order;
}

GPtrArray *
zw_sweep_view_table (ZwSweepView *self)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autofree guint *order = NULL;
  char **header;
  guint n;

  g_return_val_if_fail (ZW_IS_SWEEP_VIEW (self), table);
  header = g_new0 (char *, ZW_SWEEP_N_COLUMNS + 1);
  for (int c = 0; c < ZW_SWEEP_N_COLUMNS; c++)
    header[c] = g_strdup (_(zw_sweep_column_titles[c]));
  g_ptr_array_add (table, header);
  order = zw_sweep_view_get_table_order (self, &n);
  for (guint i = 0; self->sweep != NULL && i < n; i++)
    {
      char **cells = g_new0 (char *, ZW_SWEEP_N_COLUMNS + 1);
      for (int c = 0; c < ZW_SWEEP_N_COLUMNS; c++)
        cells[c] = zw_sweep_cell_text (self->sweep, order[i], (ZwSweepColumn) c);
      g_ptr_array_add (table, cells);
    }
  return table;
}

static void
on_table_selected (ZwSweepView *self)
{
  ZwRowItem *item;

  if (self->syncing)
    return;
  item = gtk_single_selection_get_selected_item (self->model);
  self->syncing = TRUE;
  zw_sweep_view_select_row (self, item != NULL ? (gint) item->index : -1);
  self->syncing = FALSE;
}

static void
on_table_activate (GtkColumnView *view, guint position, ZwSweepView *self)
{
  g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  (void) view;
  if (item != NULL)
    zw_sweep_view_activate_row (self, (gint) item->index);
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  ZwSweepColumn c = (ZwSweepColumn) GPOINTER_TO_INT (data);
  gboolean text = c == ZW_SWEEP_COLUMN_WHAT_IF || c == ZW_SWEEP_COLUMN_ERROR || c == ZW_SWEEP_COLUMN_OCM_REQUESTED
                  || c == ZW_SWEEP_COLUMN_OCM_CHOSEN || c == ZW_SWEEP_COLUMN_FRONT;

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label), text ? 0 : 1);
  /* figures are never cut (the table scrolls sideways); the long texts are, whole on hover */
  if (c == ZW_SWEEP_COLUMN_WHAT_IF || c == ZW_SWEEP_COLUMN_ERROR)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  ZwRowItem *row = gtk_list_item_get_item (item);
  g_autofree char *text = zw_sweep_cell_text (ITEM_SWEEP (row), row->index, (ZwSweepColumn) GPOINTER_TO_INT (data));
  GtkWidget *label = gtk_list_item_get_child (item);

  (void) factory;
  gtk_label_set_text (GTK_LABEL (label), text);
  /* the full text on hover: the column is narrow */
  gtk_widget_set_tooltip_text (label, (GPOINTER_TO_INT (data) == ZW_SWEEP_COLUMN_ERROR
                                       || GPOINTER_TO_INT (data) == ZW_SWEEP_COLUMN_WHAT_IF) && *text ? text : NULL);
}

void
zw_sweep_view_scroll_table_to (ZwSweepView *self, guint position)
{
  self->scroll_to = position;
  if (self->scroll_idle == 0)
    self->scroll_idle = g_idle_add (scroll_idle, self);
}

GtkWidget *
zw_sweep_view_build_table (ZwSweepView *self)
{
  GtkWidget *scrolled;

  self->column_view = zw_column_table_new (ZW_SWEEP_N_COLUMNS, zw_sweep_column_titles, G_CALLBACK (setup_cell),
                                           G_CALLBACK (bind_cell), compare_items, &self->store, &self->sorted,
                                           &self->model, self->columns);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_table_selected), self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_table_activate), self);
  for (int c = 0; c < ZW_SWEEP_N_COLUMNS; c++)
    {
      gtk_column_view_column_set_expand (self->columns[c], c == ZW_SWEEP_COLUMN_ERROR);
      if (c == ZW_SWEEP_COLUMN_WHAT_IF)
        gtk_column_view_column_set_fixed_width (self->columns[c], 150);
      /* the byte figures in full ("123.4 MiB"), their titles too */
      if (c == ZW_SWEEP_COLUMN_ETM || c == ZW_SWEEP_COLUMN_FTMP || c == ZW_SWEEP_COLUMN_OCM_BYTES)
        gtk_column_view_column_set_fixed_width (self->columns[c], 96);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->column_view);
  /* ten rows and the header in sight, not five: the table is half of what a sweep answers */
  gtk_widget_set_size_request (scrolled, -1, 330);
  return scrolled;
}
