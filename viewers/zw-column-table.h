/* zw-column-table.h — a sortable table of ZwRowItem rows (zw-row-item.h), as the Sweep and
 * Timing views show theirs: a GtkColumnView over a sort model under the column view's own
 * sorter, one custom sorter per column (so a header click sorts: GTK 4.8 has no
 * GtkColumnViewSorter API to read back), a single selection that does not autoselect and can
 * be unselected, row separators, resizable columns. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * zw_column_table_new:
 * @n_columns: the columns
 * @titles: their titles, untranslated (N_()): shown translated
 * @setup: (scope notified): a GtkSignalListItemFactory "setup" handler; its data is
 *   GINT_TO_POINTER (column)
 * @bind: the factory's "bind" handler, its data likewise
 * @compare: the order of column @user_data = GINT_TO_POINTER (column) over two ZwRowItems
 * @store: (out): the rows (a GListStore of ZwRowItem; the caller owns the reference)
 * @sorted: (out): @store under the column view's sorter (owned by the caller)
 * @selection: (out): the selection over @sorted (owned by the caller)
 * @columns: (out caller-allocates) (array length=n_columns): the columns (the column view
 *   holds them)
 *
 * Returns: (transfer floating): the column view
 */
GtkWidget *zw_column_table_new (guint n_columns, const char *const *titles, GCallback setup, GCallback bind,
                                GCompareDataFunc compare, GListStore **store, GtkSortListModel **sorted,
                                GtkSingleSelection **selection, GtkColumnViewColumn **columns);

G_END_DECLS
