/* zw-row-item.c — see zw-row-item.h. */
#include "zw-row-item.h"

G_DEFINE_FINAL_TYPE (ZwRowItem, zw_row_item, G_TYPE_OBJECT)

static void
zw_row_item_finalize (GObject *object)
{
  ZwRowItem *self = ZW_ROW_ITEM (object);

  if (self->unref != NULL && self->data != NULL)
    self->unref (self->data);
  G_OBJECT_CLASS (zw_row_item_parent_class)->finalize (object);
}

static void
zw_row_item_class_init (ZwRowItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = zw_row_item_finalize;
}

static void
zw_row_item_init (ZwRowItem *self)
{
  (void) self;
}

ZwRowItem *
zw_row_item_new (gpointer data, GBoxedCopyFunc ref, GDestroyNotify unref, guint index)
{
  ZwRowItem *self = g_object_new (ZW_TYPE_ROW_ITEM, NULL);

  self->data = ref != NULL && data != NULL ? ref (data) : data;
  self->unref = ref != NULL ? unref : NULL;
  self->index = index;
  return self;
}
