/* zw-column-table.c — a sortable table of ZwRowItem rows (see the header). */
#include "zw-column-table.h"
#include "zw-row-item.h"

#include <glib/gi18n.h>

GtkWidget *
zw_column_table_new (guint n_columns, const char *const *titles, GCallback setup, GCallback bind,
                     GCompareDataFunc compare, GListStore **store, GtkSortListModel **sorted,
                     GtkSingleSelection **selection, GtkColumnViewColumn **columns)
{
  GtkWidget *view = gtk_column_view_new (NULL);
  GtkSorter *by_column = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (view));

  *store = g_list_store_new (ZW_TYPE_ROW_ITEM);
  *sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (*store)), g_object_ref (by_column));
  *selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (*sorted)));
  gtk_single_selection_set_autoselect (*selection, FALSE);
  gtk_single_selection_set_can_unselect (*selection, TRUE);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (view), GTK_SELECTION_MODEL (*selection));
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (view), TRUE);
  for (guint c = 0; c < n_columns; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare, GINT_TO_POINTER (c), NULL));

      g_signal_connect (factory, "setup", setup, GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", bind, GINT_TO_POINTER (c));
      columns[c] = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_sorter (columns[c], sorter);
      g_object_unref (sorter);
      gtk_column_view_column_set_resizable (columns[c], TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), columns[c]);
      g_object_unref (columns[c]);   /* the column view holds it */
    }
  return view;
}
