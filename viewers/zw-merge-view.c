/* zw-merge-view.c — the launches (merge groups) of a deploy report. */
#include "zw-merge-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

typedef enum {
  COLUMN_LAUNCH,
  COLUMN_OP_ID,
  COLUMN_LAYERS,
  COLUMN_OPS,
  COLUMN_RANGE,
  COLUMN_MEMBERS,
  N_COLUMNS
} MergeColumn;

static const char *column_titles[N_COLUMNS] = {
  N_("Launch"), N_("Op id"), N_("Layers"), N_("Ops"), N_("Op indices"), N_("Members (class, layers)"),
};

/* What the columns count: a user saw "Layers 74 / Ops 88" and a "(0)" after a member. */
static const char *columns_note =
  N_("Layers: the NPU layers a launch runs; a hardop the hardware folds away (e.g. a Reshape) runs 0, so Layers "
     "can be fewer than Ops. Ops: the hardops run as this one launch (merge on: consecutive icore hardops; the "
     "launch gets a new op id). Members: op id, class and its layers.");

/* The text of one cell: shared by the list and the drawn table. Caller frees. */
#define MAX_MEMBERS_SHOWN 64

static char *
cell_text (const ZwDeployReport *report, GHashTable *ops, guint index, MergeColumn column)
{
  const ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, index);
  GString *s;

  switch (column)
    {
    case COLUMN_LAUNCH:
      return g_strdup_printf ("%u", index);
    case COLUMN_OP_ID:
      return g_strdup_printf ("%" G_GINT64_FORMAT, l->op_id);
    case COLUMN_LAYERS:
      return g_strdup_printf ("%u", l->layer_count);
    case COLUMN_OPS:
      return g_strdup_printf ("%u", l->merge_from->len > 0 ? l->merge_from->len : 1);
    case COLUMN_RANGE:
      return g_strdup_printf ("%d–%d", l->first, l->last);
    case COLUMN_MEMBERS:
      s = g_string_new (NULL);
      if (l->merge_from->len == 0)
        {
          const ZwOpInfo *op = g_hash_table_lookup (ops, &l->op_id);
          if (op != NULL)
            /* TRANSLATORS: a hardop's class and how many NPU layers it runs */
            g_string_append_printf (s, ngettext ("%s (%d layer)", "%s (%d layers)", op->layer_count), op->op_class,
                                    op->layer_count);
        }
      /* A merged launch of a 10,000-op chain has 10,000 members: show the first ones. */
      for (guint i = 0; i < MIN (l->merge_from->len, MAX_MEMBERS_SHOWN); i++)
        {
          gint64 id = g_array_index (l->merge_from, gint64, i);
          const ZwOpInfo *op = g_hash_table_lookup (ops, &id);
          if (i > 0)
            g_string_append (s, ", ");
          if (op != NULL)
            {
              g_string_append_printf (s, "%" G_GINT64_FORMAT " ", id);
              g_string_append_printf (s, ngettext ("%s (%d layer)", "%s (%d layers)", op->layer_count), op->op_class,
                                      op->layer_count);
            }
          else
            g_string_append_printf (s, "%" G_GINT64_FORMAT, id);
        }
      if (l->merge_from->len > MAX_MEMBERS_SHOWN)
        g_string_append_printf (s, _(", … (%u more)"), l->merge_from->len - MAX_MEMBERS_SHOWN);
      return g_string_free (s, FALSE);
    default:
      g_assert_not_reached ();
    }
}

static const double column_widths[N_COLUMNS] = { 56, 64, 56, 44, 80, 0 /* the rest */ };

void
zw_merge_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                    const ZwViewStyle *colors)
{
  const double margin = 8;
  double row_h, y, x;
  gint selected_launch = -1;
  g_autoptr (GHashTable) ops = NULL;
  ZwPainter p;
  GdkRGBA dim;

  g_return_if_fail (cr != NULL && colors != NULL);

  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  row_h = colors->font_size * 1.8;

  if (report == NULL)
    {
      zw_draw_empty (&p, width, height, _("No deploy report"));
      goto out;
    }
  ops = zw_report_index_ops (report);
  if (selection != NULL && zw_selection_get_selected_op (selection) >= 0)
    selected_launch = zw_report_launch_of_op (report, zw_selection_get_selected_op (selection));

  {
    g_autofree char *title = g_strdup_printf (ngettext ("%u launch, merge hardop %s", "%u launches, merge hardop %s",
                                                        report->launches->len),
                                              report->launches->len, report->merge_hardop ? _("on") : _("off"));
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, margin, margin, 0, 0, width - 2 * margin, NULL, title);
  }
  y = margin + row_h;
  x = margin;
  for (int c = 0; c < N_COLUMNS; c++)
    {
      double w = column_widths[c] > 0 ? column_widths[c] : width - x - margin;
      zw_painter_text (&p, x + 4, y + row_h / 2, 0, 0.5, w - 8, &dim, _(column_titles[c]));
      x += w;
    }
  zw_painter_set_bold (&p, FALSE);
  y += row_h;
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, margin, y - 1, width - 2 * margin, 1);
  cairo_fill (cr);

  for (guint i = 0; i < report->launches->len && y < height; i++, y += row_h)
    {
      if ((gint) i == selected_launch)
        {
          zw_cairo_set_color_alpha (cr, &colors->accent, 0.35);
          cairo_rectangle (cr, margin, y, width - 2 * margin, row_h);
          cairo_fill (cr);
        }
      else if (i % 2 == 1)
        {
          zw_cairo_set_color_alpha (cr, &colors->grid, 0.35);
          cairo_rectangle (cr, margin, y, width - 2 * margin, row_h);
          cairo_fill (cr);
        }
      x = margin;
      for (int c = 0; c < N_COLUMNS; c++)
        {
          g_autofree char *text = cell_text (report, ops, i, (MergeColumn) c);
          double w = column_widths[c] > 0 ? column_widths[c] : width - x - margin;
          zw_painter_text (&p, x + 4, y + row_h / 2, 0, 0.5, w - 8, NULL, text);
          x += w;
        }
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- list items ---- */

#define ZW_TYPE_LAUNCH_ROW (zw_launch_row_get_type ())
G_DECLARE_FINAL_TYPE (ZwLaunchRow, zw_launch_row, ZW, LAUNCH_ROW, GObject)

struct _ZwLaunchRow
{
  GObject parent_instance;
  ZwDeployReport *report;
  GHashTable *ops;   /* shared by the rows of one report */
  guint index;
  gint64 member;     /* a member row (the op id) under its launch; -1 for a launch row */
};

G_DEFINE_FINAL_TYPE (ZwLaunchRow, zw_launch_row, G_TYPE_OBJECT)

static void
zw_launch_row_finalize (GObject *object)
{
  g_clear_pointer (&ZW_LAUNCH_ROW (object)->report, zw_deploy_report_unref);
  g_clear_pointer (&ZW_LAUNCH_ROW (object)->ops, g_hash_table_unref);
  G_OBJECT_CLASS (zw_launch_row_parent_class)->finalize (object);
}

static void
zw_launch_row_class_init (ZwLaunchRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = zw_launch_row_finalize;
}

static void
zw_launch_row_init (ZwLaunchRow *self)
{
  (void) self;
}

static ZwLaunchRow *
zw_launch_row_new (ZwDeployReport *report, GHashTable *ops, guint index)
{
  ZwLaunchRow *row = g_object_new (ZW_TYPE_LAUNCH_ROW, NULL);

  row->report = zw_deploy_report_ref (report);
  row->ops = g_hash_table_ref (ops);
  row->index = index;
  row->member = -1;
  return row;
}

/* The text of a member row's cell (an op of a merged launch). Caller frees. */
static char *
member_cell_text (const ZwLaunchRow *row, MergeColumn column)
{
  const ZwOpInfo *op = g_hash_table_lookup (row->ops, &row->member);

  switch (column)
    {
    case COLUMN_LAUNCH:
      return g_strdup ("");
    case COLUMN_OP_ID:
      return g_strdup_printf ("%" G_GINT64_FORMAT, row->member);
    case COLUMN_LAYERS:
      return op != NULL ? g_strdup_printf ("%d", op->layer_count) : g_strdup ("");
    case COLUMN_OPS:
      return g_strdup ("");
    case COLUMN_RANGE:
      return op != NULL ? g_strdup_printf ("%u", op->index) : g_strdup ("");
    case COLUMN_MEMBERS:
      if (op == NULL)
        return g_strdup ("");
      return op->name != NULL && *op->name != '\0' && g_strcmp0 (op->name, op->op_class) != 0
                 ? g_strdup_printf ("%s · %s", op->op_class, op->name) : g_strdup (op->op_class);
    default:
      g_assert_not_reached ();
    }
}

/* The members of a merged launch, as rows under it (GtkTreeListModel's child model). */
static GListModel *
create_members (gpointer item, gpointer data)
{
  ZwLaunchRow *row = item;
  const ZwLaunch *l;
  GListStore *members;

  (void) data;
  if (row->member >= 0)
    return NULL;
  l = &g_array_index (row->report->launches, ZwLaunch, row->index);
  if (l->merge_from->len < 2)
    return NULL;
  members = g_list_store_new (ZW_TYPE_LAUNCH_ROW);
  for (guint i = 0; i < l->merge_from->len; i++)
    {
      g_autoptr (ZwLaunchRow) m = zw_launch_row_new (row->report, row->ops, row->index);
      m->member = g_array_index (l->merge_from, gint64, i);
      g_list_store_append (members, m);
    }
  return G_LIST_MODEL (members);
}

/* ---- the widget ---- */

struct _ZwMergeView
{
  ZwView parent_instance;
  GListStore *store;
  GtkTreeListModel *tree;
  GtkSingleSelection *model;
  GtkWidget *scrolled;
  GtkWidget *box;      /* the note on what the columns count, above the list */
  GtkWidget *note;
  GtkWidget *column_view;
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (ZwMergeView, zw_merge_view, ZW_TYPE_VIEW)

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  (void) factory;
  if (GPOINTER_TO_INT (data) == COLUMN_LAUNCH)
    {
      /* the tree: launch -> members */
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
      return;
    }
  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == COLUMN_MEMBERS ? 0 : 1);
  if (GPOINTER_TO_INT (data) == COLUMN_MEMBERS)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 80);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  ZwLaunchRow *row = gtk_tree_list_row_get_item (tree_row);
  g_autofree char *text = row->member >= 0 ? member_cell_text (row, (MergeColumn) GPOINTER_TO_INT (data))
                                           : cell_text (row->report, row->ops, row->index,
                                                        (MergeColumn) GPOINTER_TO_INT (data));
  GtkWidget *child = gtk_list_item_get_child (item);

  (void) factory;
  if (GTK_IS_TREE_EXPANDER (child))
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  gtk_label_set_text (GTK_LABEL (child), text);
  g_object_unref (row);
}

/* The position of the row of @launch (its member @op when >= 0, expanding the launch). */
static guint
row_position (ZwMergeView *self, gint launch, gint64 op)
{
  GListModel *rows = G_LIST_MODEL (self->tree);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GtkTreeListRow) tree_row = g_list_model_get_item (rows, i);
      g_autoptr (ZwLaunchRow) row = gtk_tree_list_row_get_item (tree_row);
      if (row->member >= 0 || (gint) row->index != launch)
        continue;
      if (op < 0 || !gtk_tree_list_row_is_expandable (tree_row))
        return i;
      gtk_tree_list_row_set_expanded (tree_row, TRUE);
      for (guint k = i + 1; k < g_list_model_get_n_items (rows); k++)
        {
          g_autoptr (GtkTreeListRow) child_row = g_list_model_get_item (rows, k);
          g_autoptr (ZwLaunchRow) child = gtk_tree_list_row_get_item (child_row);
          if (child->member < 0)
            break;
          if (child->member == op)
            return k;
        }
      return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* GTK 4.8's list views scroll to an item through their action (4.12 has scroll_to). */
static void
scroll_to_row (ZwMergeView *self, guint position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (self->column_view); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

static void
sync_from_selection (ZwMergeView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));
  guint position = GTK_INVALID_LIST_POSITION;
  gint launch = -1;

  if (report != NULL && op >= 0)
    launch = zw_report_launch_of_op (report, op);
  self->syncing = TRUE;
  if (launch >= 0)
    {
      const ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, launch);
      position = row_position (self, launch, l->op_id == op ? -1 : op);
    }
  gtk_single_selection_set_selected (self->model, position);
  self->syncing = FALSE;
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to_row (self, position);
}

static void
reload (ZwMergeView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GHashTable) ops = report != NULL ? zw_report_index_ops (report) : NULL;

  for (guint i = 0; report != NULL && i < report->launches->len; i++)
    g_ptr_array_add (rows, zw_launch_row_new (report, ops, i));
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), rows->pdata, rows->len);
  self->syncing = FALSE;
  sync_from_selection (self);
}

static void
zw_merge_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwMergeView *self = ZW_MERGE_VIEW (view);

  if (g_str_equal (pspec->name, "report"))
    reload (self);
  else if (g_str_equal (pspec->name, "selected-op"))
    sync_from_selection (self);
}

static void
on_row_selected (ZwMergeView *self)
{
  ZwLaunchRow *row;
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));

  if (self->syncing || report == NULL)
    return;
  if (gtk_single_selection_get_selected_item (self->model) == NULL)
    return;
  row = gtk_tree_list_row_get_item (gtk_single_selection_get_selected_item (self->model));
  zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)),
                                row->member >= 0 ? row->member
                                                 : g_array_index (report->launches, ZwLaunch, row->index).op_id);
  g_object_unref (row);
}

static void
zw_merge_view_dispose (GObject *object)
{
  ZwMergeView *self = ZW_MERGE_VIEW (object);

  self->scrolled = NULL;
  self->note = NULL;
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->tree);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (zw_merge_view_parent_class)->dispose (object);
}

static void
zw_merge_view_constructed (GObject *object)
{
  G_OBJECT_CLASS (zw_merge_view_parent_class)->constructed (object);
  /* The selection may come with a report already. */
  reload (ZW_MERGE_VIEW (object));
}

static void
zw_merge_view_class_init (ZwMergeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  object_class->dispose = zw_merge_view_dispose;
  object_class->constructed = zw_merge_view_constructed;
  view_class->draw = zw_merge_view_draw;    /* for exports; on screen: the column view */
  view_class->selection_notify = zw_merge_view_selection_notify;
  gtk_widget_class_set_css_name (widget_class, "zwmergeview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "merges", N_("Merges"), N_("Merges view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_merge_view_init (ZwMergeView *self)
{
  self->store = g_list_store_new (ZW_TYPE_LAUNCH_ROW);
  self->tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->store)), FALSE, FALSE, create_members,
                                        NULL, NULL);
  self->model = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (self->model, FALSE);
  gtk_single_selection_set_can_unselect (self->model, TRUE);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_row_selected), self);

  self->column_view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->model)));
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  for (int c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(column_titles[c]), factory);
      gtk_column_view_column_set_expand (column, c == COLUMN_MEMBERS);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
      g_object_unref (column);
    }

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), self->column_view);
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  self->note = gtk_label_new (_(columns_note));
  gtk_label_set_wrap (GTK_LABEL (self->note), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->note), 0);
  gtk_widget_add_css_class (self->note, "dim-label");
  gtk_widget_add_css_class (self->note, "caption");
  gtk_widget_set_margin_start (self->note, 8);
  gtk_widget_set_margin_end (self->note, 8);
  gtk_widget_set_margin_top (self->note, 4);
  gtk_widget_set_margin_bottom (self->note, 4);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (self->box), self->note);
  gtk_box_append (GTK_BOX (self->box), self->scrolled);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 160);
}

GtkWidget *
zw_merge_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_MERGE_VIEW, "selection", selection, NULL);
}

guint
zw_merge_view_get_n_rows (ZwMergeView *self)
{
  g_return_val_if_fail (ZW_IS_MERGE_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

gint64
zw_merge_view_get_selected_row_op (ZwMergeView *self)
{
  g_autoptr (ZwLaunchRow) row = NULL;
  GtkTreeListRow *tree_row;

  g_return_val_if_fail (ZW_IS_MERGE_VIEW (self), -1);
  tree_row = gtk_single_selection_get_selected_item (self->model);
  if (tree_row == NULL)
    return -1;
  row = gtk_tree_list_row_get_item (tree_row);
  return row->member >= 0 ? row->member : g_array_index (row->report->launches, ZwLaunch, row->index).op_id;
}

const char *
zw_merge_view_get_note (ZwMergeView *self)
{
  g_return_val_if_fail (ZW_IS_MERGE_VIEW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->note));
}
