/* zw-timing-table.c — the Timing view's op table: one row per profile row in a column
 * view, sorted by clicking anywhere in a column's header cell (a GtkCustomSorter per
 * column under the column view's sorter, GTK 4.8), its top shown after a sort; the
 * selected row follows the view's. Also the table as strings for CSV export. */
#include "zw-timing-view-private.h"
#include "zw-column-table.h"
#include "zw-row-item.h"

#include <glib/gi18n.h>
#include <string.h>

static const char *column_titles[ZW_TIMING_N_COLUMNS] = {
  N_("Op id"), N_("Class"), N_("Name"), N_("Total ms"), N_("Memcpy ms"), N_("Hard ms"), N_("Estimated ms"), N_("Other ms"),
  N_("IO process"), N_("ETM bytes written"), N_("OCM outputs"), N_("Merged from"),
};

/* The name the table shows: the layer's name, never the vendor's "icraft::xir::…Node"
 * class path (a ZG hardop's name is its fused class: shown short, as "Conv2d"). */
static char *
row_layer_name (const ZwProfileRow *row, GHashTable *ops)
{
  const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &row->op_id) : NULL;
  const char *name = row->op_name != NULL && row->op_name[0] != '\0' ? row->op_name : op != NULL ? op->name : NULL;
  char buf[128];

  if (name == NULL)
    return g_strdup ("");
  if (strstr (name, "::") != NULL)
    return g_strdup (zw_op_class_short (name, buf, sizeof buf));
  return g_strdup (name);
}

/* Table rows past the profile's are the merged launches' members (ZwTimingMember). */
static const ZwTimingMember *
row_member (ZwTimingData *d, guint index)
{
  guint n = d->profile->rows->len;
  return index >= n && d->members != NULL && index - n < d->members->len
             ? &g_array_index (d->members, ZwTimingMember, index - n)
             : NULL;
}

/* The profile row a table row stands for: its own, a member's launch's. */
static guint
row_parent (ZwTimingData *d, guint index)
{
  const ZwTimingMember *m = row_member (d, index);
  return m != NULL ? m->parent : index;
}

static char *
member_cell_text (ZwTimingData *d, const ZwTimingMember *m, ZwTimingColumn column)
{
  const ZwOpInfo *op = d->ops != NULL ? g_hash_table_lookup (d->ops, &m->op_id) : NULL;
  const ZwProfileRow *launch = g_ptr_array_index (d->profile->rows, m->parent);
  char buf[64];

  switch (column)
    {
    case ZW_TIMING_COLUMN_OP_ID:
      return g_strdup_printf ("↳ %" G_GINT64_FORMAT, m->op_id);
    case ZW_TIMING_COLUMN_CLASS:
      return g_strdup (op != NULL && op->op_class != NULL ? zw_op_class_short (op->op_class, buf, sizeof buf) : "");
    case ZW_TIMING_COLUMN_NAME:
      return g_strdup (op != NULL && op->name != NULL ? op->name : "");
    /* the launch's time split over its members: an estimate, drawn "≈" */
    case ZW_TIMING_COLUMN_TOTAL:
      return g_strdup_printf ("≈%.4g", m->total_ms);
    case ZW_TIMING_COLUMN_HARD:
      return g_strdup_printf ("≈%.4g", m->hard_ms);
    case ZW_TIMING_COLUMN_EST:
      return m->est_ms >= 0 ? g_strdup_printf ("%.6g", m->est_ms) : g_strdup ("");
    case ZW_TIMING_COLUMN_MEMBERS:
      /* TRANSLATORS: a member op's row under its merged launch in the Timing table: its
       * times are the launch's split by the planner's estimates */
      return g_strdup_printf (_("estimate: a share of launch %li"), (long) launch->op_id);
    default:
      return g_strdup ("");
    }
}

static char *
cell_text (ZwTimingData *d, guint index, ZwTimingColumn column)
{
  const ZwProfileRow *row;
  char buf[64];

  if (row_member (d, index) != NULL)
    return member_cell_text (d, row_member (d, index), column);
  row = g_ptr_array_index (d->profile->rows, index);

  switch (column)
    {
    case ZW_TIMING_COLUMN_OP_ID:
      return g_strdup_printf ("%" G_GINT64_FORMAT, row->op_id);
    case ZW_TIMING_COLUMN_CLASS:
      return g_strdup (zw_op_class_short (row->op_type, buf, sizeof buf));
    case ZW_TIMING_COLUMN_NAME:
      return row_layer_name (row, d->ops);
    case ZW_TIMING_COLUMN_TOTAL:
      return g_strdup_printf ("%.6g", row->total_ms);
    case ZW_TIMING_COLUMN_MEMCPY:
      return g_strdup_printf ("%.6g", row->memcpy_ms);
    case ZW_TIMING_COLUMN_HARD:
      return g_strdup_printf ("%.6g", row->hard_ms);
    case ZW_TIMING_COLUMN_EST:
      return d->est != NULL && d->est[index] >= 0 ? g_strdup_printf ("%.6g", d->est[index]) : g_strdup ("");
    case ZW_TIMING_COLUMN_OTHER:
      return g_strdup_printf ("%.6g", row->other_ms);
    case ZW_TIMING_COLUMN_IO:
      return g_strdup (!row->has_io_process ? "" : row->is_io_process ? "true" : "false");   /* as the vendor's file */
    case ZW_TIMING_COLUMN_ETM:
      return d->has_mem != NULL && d->has_mem[index] ? g_strdup_printf ("%" G_GUINT64_FORMAT, d->etm[index])
                                                     : g_strdup ("");
    case ZW_TIMING_COLUMN_OCM:
      return d->has_mem != NULL && d->has_mem[index] ? g_strdup_printf ("%u", d->ocm[index]) : g_strdup ("");
    case ZW_TIMING_COLUMN_MEMBERS:
      {
        const GArray *m = zw_timing_row_members (row, d->launches);
        GString *s = g_string_new (NULL);
        for (guint k = 0; m != NULL && k < m->len; k++)
          g_string_append_printf (s, k ? ";%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (m, gint64, k));
        return g_string_free (s, FALSE);
      }
    default:
      g_assert_not_reached ();
    }
}

/* A table row: a ZwRowItem whose data is the ZwTimingData. */
#define ROW_DATA(row) ((ZwTimingData *) (row)->data)

/* Rows sort by their launch's figures (a member row by its launch's), members right after
 * their launch in launch order whichever the direction (the column view turns the whole
 * order round for a descending sort: the members' order is turned beforehand). */
static int
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const ZwRowItem *ra = a, *rb = b;
  ZwTimingData *d = ROW_DATA (ra);
  guint ia = row_parent (d, ra->index), ib = row_parent (d, rb->index);
  const ZwProfileRow *pa = g_ptr_array_index (d->profile->rows, ia);
  const ZwProfileRow *pb = g_ptr_array_index (d->profile->rows, ib);
  double x = 0, y = 0;
  char ca[64], cb[64];

  if (ia == ib)
    {
      const ZwTimingMember *ma = row_member (d, ra->index), *mb = row_member (d, rb->index);
      gint ka = ma != NULL ? (gint) ma->k : -1, kb = mb != NULL ? (gint) mb->k : -1;
      int order = ka < kb ? GTK_ORDERING_SMALLER : ka > kb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
      return d->descending ? -order : order;
    }

  switch ((ZwTimingColumn) GPOINTER_TO_INT (user_data))
    {
    case ZW_TIMING_COLUMN_OP_ID: x = (double) pa->op_id; y = (double) pb->op_id; break;
    case ZW_TIMING_COLUMN_CLASS:
      return g_strcmp0 (zw_op_class_short (pa->op_type, ca, sizeof ca), zw_op_class_short (pb->op_type, cb, sizeof cb));
    case ZW_TIMING_COLUMN_NAME:
      {
        g_autofree char *na = row_layer_name (pa, d->ops), *nb = row_layer_name (pb, d->ops);
        int r = g_strcmp0 (na, nb);
        if (r != 0)
          return r < 0 ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
        break;
      }
    case ZW_TIMING_COLUMN_TOTAL: x = pa->total_ms; y = pb->total_ms; break;
    case ZW_TIMING_COLUMN_MEMCPY: x = pa->memcpy_ms; y = pb->memcpy_ms; break;
    case ZW_TIMING_COLUMN_HARD: x = pa->hard_ms; y = pb->hard_ms; break;
    case ZW_TIMING_COLUMN_EST:
      if (d->est != NULL)
        {
          x = d->est[ia];
          y = d->est[ib];
        }
      break;
    case ZW_TIMING_COLUMN_OTHER: x = pa->other_ms; y = pb->other_ms; break;
    case ZW_TIMING_COLUMN_IO: x = pa->is_io_process; y = pb->is_io_process; break;
    case ZW_TIMING_COLUMN_ETM:
      if (d->has_mem != NULL)
        {
          x = (double) d->etm[ia];
          y = (double) d->etm[ib];
        }
      break;
    case ZW_TIMING_COLUMN_OCM:
      if (d->has_mem != NULL)
        {
          x = d->ocm[ia];
          y = d->ocm[ib];
        }
      break;
    case ZW_TIMING_COLUMN_MEMBERS:
      x = pa->merge_from != NULL ? pa->merge_from->len : 0;
      y = pb->merge_from != NULL ? pb->merge_from->len : 0;
      break;
    default:
      g_assert_not_reached ();
    }
  if (x != y)
    return x < y ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* ties keep the file order, so a sort is stable and repeatable */
  return ia < ib ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
}


static gboolean
scroll_top_idle (gpointer data)
{
  ZwTimingView *self = data;
  guint n = self->column_view != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->sorted)) : 0;

  self->scroll_idle = 0;
  if (self->scroll_to >= n)
    return G_SOURCE_REMOVE;
  /* the column view's list (a child) scrolls the row into sight (GTK 4.8 has no
   * gtk_column_view_scroll_to; its list base has this action); after the list has its
   * new rows, hence from an idle */
  for (GtkWidget *c = gtk_widget_get_first_child (self->column_view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_activate_action (c, "list.scroll-to-item", "u", self->scroll_to))
      break;
  return G_SOURCE_REMOVE;
}

void
zw_timing_table_scroll_to (ZwTimingView *self, guint pos)
{
  self->scroll_to = pos;
  if (self->scroll_idle == 0)
    self->scroll_idle = g_idle_add (scroll_top_idle, self);
}

/* A figure column's first click sorts the largest first (as profilers do: the op that costs
 * most on top); ids, names and classes start ascending. */
static gboolean
column_starts_descending (gint column)
{
  switch (column)
    {
    case ZW_TIMING_COLUMN_TOTAL:
    case ZW_TIMING_COLUMN_MEMCPY:
    case ZW_TIMING_COLUMN_HARD:
    case ZW_TIMING_COLUMN_EST:
    case ZW_TIMING_COLUMN_OTHER:
    case ZW_TIMING_COLUMN_ETM:
    case ZW_TIMING_COLUMN_OCM:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_sorter_changed (ZwTimingView *self)
{
  self->sort_changes++;
  /* the sort model re-sorted before us (it connected first); the list keeps its scroll
   * offset: show the top once the list has its new items */
  zw_timing_table_scroll_to (self, 0);
  if (self->header_column >= 0)
    {
      /* GTK's own header click: it sorts a new column ascending and flips the same one */
      gint column = self->header_column;
      gboolean again = self->sort_column == column;

      self->header_column = -1;
      self->sort_descending = again ? !self->sort_descending : FALSE;
      self->sort_column = column;
      if (!again && column_starts_descending (column))
        /* a new figure column: largest first */
        zw_timing_view_sort_by (self, (guint) column, TRUE);
      else if (self->data != NULL && self->data->members->len > 0 && self->data->descending != self->sort_descending)
        {
          /* the members were placed for the other direction: once more */
          self->data->descending = self->sort_descending;
          gtk_sorter_changed (gtk_column_view_column_get_sorter (self->columns[column]), GTK_SORTER_CHANGE_DIFFERENT);
        }
    }
}

/* The column whose header cell holds x (header coordinates), -1 for none. */
static gint
header_column_at (ZwTimingView *self, GtkWidget *header, double x)
{
  gint visible = 0;

  for (GtkWidget *title = gtk_widget_get_first_child (header); title != NULL; title = gtk_widget_get_next_sibling (title))
    {
      graphene_rect_t b;
      if (!gtk_widget_get_visible (title) || !gtk_widget_compute_bounds (title, header, &b))
        continue;
      if (x >= b.origin.x && x < b.origin.x + b.size.width)
        {
          /* the titles are the visible columns in order */
          for (gint c = 0; c < ZW_TIMING_N_COLUMNS; c++)
            if (gtk_column_view_column_get_visible (self->columns[c]) && visible-- == 0)
              return c;
          return -1;
        }
      visible++;
    }
  return -1;
}

static void
on_header_pressed (GtkGestureClick *gesture, int n_press, double x, double y, ZwTimingView *self)
{
  (void) n_press;
  (void) y;
  self->header_column = header_column_at (self, gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture)), x);
  self->sort_changes_at_press = self->sort_changes;
}

static void
on_header_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwTimingView *self)
{
  gint column = self->header_column;

  (void) gesture;
  (void) n_press;
  (void) x;
  (void) y;
  /* the title's own gesture (a child's) ran first: when it did not sort, the click landed
   * beside the label, in the cell: sort as it would have */
  if (column >= 0 && self->sort_changes == self->sort_changes_at_press)
    {
      self->header_column = -1;
      zw_timing_view_sort_by (self, (guint) column,
                              self->sort_column == column ? !self->sort_descending : column_starts_descending (column));
    }
  self->header_column = -1;
}

gint
zw_timing_view_click_header (ZwTimingView *self, double x)
{
  GtkWidget *header;
  gint column;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), -1);
  header = gtk_widget_get_first_child (self->column_view);
  column = header_column_at (self, header, x);
  self->header_column = column;
  self->sort_changes_at_press = self->sort_changes;
  on_header_released (NULL, 1, x, 0, self);
  return column;
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  ZwTimingColumn c = (ZwTimingColumn) GPOINTER_TO_INT (data);

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label),
                        c == ZW_TIMING_COLUMN_CLASS || c == ZW_TIMING_COLUMN_NAME || c == ZW_TIMING_COLUMN_MEMBERS ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  ZwRowItem *row = gtk_list_item_get_item (item);
  ZwTimingColumn column = (ZwTimingColumn) GPOINTER_TO_INT (data);
  g_autofree char *text = cell_text (ROW_DATA (row), row->index, column);

  (void) factory;
  /* on screen in the user's words; the export keeps the vendor's true/false */
  if (column == ZW_TIMING_COLUMN_IO && *text != '\0')
    gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), g_str_equal (text, "true") ? _("yes") : _("no"));
  else
    gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
on_row_selected (ZwTimingView *self)
{
  ZwRowItem *row;

  if (self->syncing)
    return;
  row = gtk_single_selection_get_selected_item (self->model);
  /* a member's row selects its launch in the timeline, and its own op everywhere else */
  self->state.selected_row = row != NULL ? (gint) row_parent (ROW_DATA (row), row->index) : -1;
  zw_timing_view_invalidate (self);
  zw_timing_values_bar_update (self);
  if (row != NULL && zw_timing_view_report (self) != NULL)
    {
      const ZwTimingMember *m = row_member (ROW_DATA (row), row->index);
      self->syncing = TRUE;
      zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)),
                                    m != NULL ? m->op_id
                                              : ((ZwProfileRow *) g_ptr_array_index (ROW_DATA (row)->profile->rows,
                                                                                     row->index))->op_id);
      self->syncing = FALSE;
    }
}

void
zw_timing_table_reload (ZwTimingView *self)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  guint n = self->data != NULL ? self->data->profile->rows->len : 0, next = 0;

  /* the profile's rows, each merged launch's members right after it (as they sort) */
  if (self->data != NULL)
    self->data->descending = self->sort_column >= 0 && self->sort_descending;
  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (rows, zw_row_item_new (self->data, (GBoxedCopyFunc) zw_timing_data_ref,
                                              (GDestroyNotify) zw_timing_data_unref, i));
      for (; next < self->data->members->len && g_array_index (self->data->members, ZwTimingMember, next).parent == i;
           next++)
        g_ptr_array_add (rows, zw_row_item_new (self->data, (GBoxedCopyFunc) zw_timing_data_ref,
                                                (GDestroyNotify) zw_timing_data_unref, n + next));
    }
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), rows->pdata, rows->len);
  gtk_single_selection_set_selected (self->model, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
}

guint *
zw_timing_view_get_table_order (ZwTimingView *self, guint *n_out)
{
  guint n;
  guint *order;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  order = g_new (guint, MAX (n, 1u));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      order[i] = item->index;
    }
  if (n_out)
    *n_out = n;
  return order;
}

gboolean
zw_timing_view_get_member (ZwTimingView *self, guint index, gint64 *op_id, guint *launch_row, double *total_ms)
{
  const ZwTimingMember *m;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), FALSE);
  m = self->data != NULL ? row_member (self->data, index) : NULL;
  if (m == NULL)
    return FALSE;
  if (op_id)
    *op_id = m->op_id;
  if (launch_row)
    *launch_row = m->parent;
  if (total_ms)
    *total_ms = m->total_ms;
  return TRUE;
}

gboolean
zw_timing_view_sort_by (ZwTimingView *self, guint column, gboolean descending)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), FALSE);
  if (column >= ZW_TIMING_N_COLUMNS)
    return FALSE;
  self->sort_column = (gint) column;
  self->sort_descending = descending;
  if (self->data != NULL)
    self->data->descending = descending;
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), self->columns[column],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
  return TRUE;
}

GPtrArray *
zw_timing_view_table (ZwTimingView *self)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autofree guint *order = NULL;
  guint n;
  char **header;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  header = g_new0 (char *, ZW_TIMING_N_COLUMNS + 1);
  for (int c = 0; c < ZW_TIMING_N_COLUMNS; c++)
    header[c] = g_strdup (_(column_titles[c]));
  g_ptr_array_add (table, header);
  order = zw_timing_view_get_table_order (self, &n);
  for (guint i = 0; i < n; i++)
    {
      char **cells = g_new0 (char *, ZW_TIMING_N_COLUMNS + 1);
      for (int c = 0; c < ZW_TIMING_N_COLUMNS; c++)
        cells[c] = cell_text (self->data, order[i], (ZwTimingColumn) c);
      g_ptr_array_add (table, cells);
    }
  return table;
}


guint
zw_timing_table_select_row (ZwTimingView *self, gint row)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted)), pos = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; row >= 0 && i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      if ((gint) item->index == row)
        pos = i;
    }
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->model, pos);
  self->syncing = FALSE;
  return pos;
}

GtkWidget *
zw_timing_table_new (ZwTimingView *self)
{
  GtkWidget *scrolled;

  self->column_view = zw_column_table_new (ZW_TIMING_N_COLUMNS, column_titles, G_CALLBACK (setup_cell),
                                           G_CALLBACK (bind_cell), compare_rows, &self->store, &self->sorted,
                                           &self->model, self->columns);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_row_selected), self);
  for (int c = 0; c < ZW_TIMING_N_COLUMNS; c++)
    {
      gtk_column_view_column_set_expand (self->columns[c], c == ZW_TIMING_COLUMN_MEMBERS);
      /* room for the class and the name in any language ("HardOp", not "Har…") */
      if (c == ZW_TIMING_COLUMN_CLASS || c == ZW_TIMING_COLUMN_NAME)
        gtk_column_view_column_set_fixed_width (self->columns[c], c == ZW_TIMING_COLUMN_CLASS ? 110 : 150);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->column_view);
  gtk_widget_set_size_request (scrolled, -1, 120);
  gtk_widget_set_vexpand (scrolled, TRUE);
  /* after a sort the list shows its top */
  self->sort_column = -1;
  self->header_column = -1;
  g_signal_connect_swapped (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), "changed",
                            G_CALLBACK (on_sorter_changed), self);
  /* the whole header cell sorts, not only its label */
  {
    GtkWidget *header = gtk_widget_get_first_child (self->column_view);
    GtkGesture *click = gtk_gesture_click_new ();
    g_assert (header != NULL);
    gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_BUBBLE);
    g_signal_connect (click, "pressed", G_CALLBACK (on_header_pressed), self);
    g_signal_connect (click, "released", G_CALLBACK (on_header_released), self);
    gtk_widget_add_controller (header, GTK_EVENT_CONTROLLER (click));
  }
  return scrolled;
}
