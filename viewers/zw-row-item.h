/* zw-row-item.h — a row of a view's list model: an index into data the row holds a
 * reference to (a sweep, a time profile…), for GtkColumnView tables whose cells and sort
 * orders read the shared data by index. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ZW_TYPE_ROW_ITEM (zw_row_item_get_type ())
G_DECLARE_FINAL_TYPE (ZwRowItem, zw_row_item, ZW, ROW_ITEM, GObject)

struct _ZwRowItem
{
  GObject parent_instance;
  gpointer data;          /* a reference, released with unref */
  GDestroyNotify unref;
  guint index;
};

/* A row for @index of @data, which it references with @ref (nullable: @data is borrowed
 * and must outlive the row) and releases with @unref. */
ZwRowItem *zw_row_item_new (gpointer data, GBoxedCopyFunc ref, GDestroyNotify unref, guint index);

G_END_DECLS
