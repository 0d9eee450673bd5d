/* zw-tensor-values.c — the inspector's list of dumped values: one entry per file with the op
 * that wrote it, its memory, shape and format, and the rows of the list's column view. */
#include "zw-tensor-view-private.h"

#include <glib/gi18n.h>

#include "report/zw-pipeline-pass.h"

G_DEFINE_FINAL_TYPE (ZwTensorRow, zw_tensor_row, G_TYPE_OBJECT)

static void
zw_tensor_row_finalize (GObject *object)
{
  ZwTensorRow *self = ZW_TENSOR_ROW (object);
  for (int i = 0; i < 5; i++)
    g_free (self->cells[i]);
  G_OBJECT_CLASS (zw_tensor_row_parent_class)->finalize (object);
}

static void
zw_tensor_row_class_init (ZwTensorRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = zw_tensor_row_finalize;
}

static void
zw_tensor_row_init (ZwTensorRow *self)
{
  (void) self;
}

static const char *const titles[5] = { N_("v_id"), N_("Op"), N_("Memory"), N_("Shape"), N_("Format") };

void
zw_tensor_value_clear (gpointer data)
{
  ZwTensorValue *e = data;
  g_free (e->memory);
  g_free (e->shape);
  g_free (e->format);
}

static char *
shape_string (const ZwDumpShape *s)
{
  GString *str = g_string_new ("[");
  for (guint i = 0; i < s->rank; i++)
    g_string_append_printf (str, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, s->shape[i]);
  g_string_append_printf (str, "] %s", s->layout);
  return g_string_free (str, FALSE);
}

void
zw_tensor_values_collect (ZwDumpFolder *folder, XirNetwork *network, ZwDeployReport *report, GArray *values,
                          GPtrArray *rows)
{
  for (guint i = 0; folder != NULL && i < folder->values->len; i++)
    {
      const ZwDumpData *d = g_ptr_array_index (folder->values, i);
      const ZwDumpManifestEntry *me = NULL;
      ZwTensorValue e = { d->v_id, -1, NULL, shape_string (&d->shape),
                          g_strdup (zw_dump_format_to_string (d->format)), d };
      ZwTensorRow *row;

      for (guint k = 0; folder->manifest != NULL && k < folder->manifest->entries->len && me == NULL; k++)
        {
          const ZwDumpManifestEntry *c = g_ptr_array_index (folder->manifest->entries, k);
          /* a pipeline's dump: a v_id is a value of one network */
          if (c->type.v_id == d->v_id && g_strcmp0 (c->network, d->network) == 0)
            me = c;
        }
      if (me != NULL)
        {
          e.op_id = me->op_id;
          e.memory = g_strdup (zw_dump_memory_to_string (me->memory));
        }
      else
        {
          /* a board's dump: the network names the producer, the report the memory */
          const XirValue *v = network != NULL ? xir_network_get_value (network, d->v_id) : NULL;
          const ZwValueInfo *vi = report != NULL ? zw_deploy_report_find_value (report, d->v_id) : NULL;
          if (v != NULL && v->producer >= 0)
            e.op_id = xir_network_get_op (network, (guint) v->producer)->op_id;
          else if (vi != NULL)
            e.op_id = vi->producer;
          e.memory = g_strdup (vi == NULL ? "?" : vi->is_host ? "HOST" : vi->is_ocm ? "OCM" : "ETM");
        }
      g_array_append_val (values, e);

      row = g_object_new (ZW_TYPE_TENSOR_ROW, NULL);
      row->index = values->len - 1;
      row->cells[0] = d->network != NULL ? zw_pipeline_value_name (d->network, e.v_id)
                                         : g_strdup_printf ("%" G_GINT64_FORMAT, e.v_id);
      row->cells[1] = e.op_id >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, e.op_id) : g_strdup ("");
      row->cells[2] = g_strdup (e.memory);
      row->cells[3] = g_strdup (e.shape);
      row->cells[4] = g_strdup (e.format);
      g_ptr_array_add (rows, row);
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == 0 || GPOINTER_TO_INT (data) == 1 ? 1 : 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  ZwTensorRow *row = gtk_list_item_get_item (item);

  (void) factory;
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), row->cells[GPOINTER_TO_INT (data)]);
}

GtkWidget *
zw_tensor_values_new_column_view (GtkSingleSelection *model)
{
  GtkWidget *column_view;

  column_view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (model)));
  for (int c = 0; c < 5; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (column_view), column);
      g_object_unref (column);
    }
  return column_view;
}

GPtrArray *
zw_tensor_values_table (GListModel *store)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  char **header = g_new0 (char *, 6);

  for (int c = 0; c < 5; c++)
    header[c] = g_strdup (_(titles[c]));
  g_ptr_array_add (table, header);
  for (guint i = 0; i < g_list_model_get_n_items (store); i++)
    {
      g_autoptr (ZwTensorRow) row = g_list_model_get_item (store, i);
      char **cells = g_new0 (char *, 6);
      for (int c = 0; c < 5; c++)
        cells[c] = g_strdup (row->cells[c]);
      g_ptr_array_add (table, cells);
    }
  return table;
}

