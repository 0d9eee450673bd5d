/* zw-timing-values-bar.c — the bar above the Timing view's table: the selected op's values
 * (inputs, then outputs; a merged launch: its members'), one button each; a click selects
 * that value in the shared selection (and so in Memory, OCM, Tensors …). */
#include "zw-timing-view-private.h"

#include <glib/gi18n.h>

static void
on_value_clicked (GtkButton *button, ZwTimingView *self)
{
  gint64 v_id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (button), "zw-v-id")) - 1;
  zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)), v_id);
}

void
zw_timing_values_bar_mark_selected (ZwTimingView *self)
{
  gint64 sel = zw_selection_get_selected_value (zw_view_get_selection (ZW_VIEW (self)));

  for (GtkWidget *c = gtk_widget_get_first_child (self->values_bar); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      gpointer data = g_object_get_data (G_OBJECT (c), "zw-v-id");
      if (data == NULL)
        continue;
      if ((gint64) GPOINTER_TO_SIZE (data) - 1 == sel)
        gtk_widget_add_css_class (c, "suggested-action");
      else
        gtk_widget_remove_css_class (c, "suggested-action");
    }
}

static void
add_value_button (ZwTimingView *self, ZwDeployReport *report, gint64 v_id, gboolean output, GHashTable *seen)
{
  const ZwValueInfo *v;
  const char *where;
  g_autofree char *label = NULL, *tip = NULL, *bytes = NULL;
  GtkWidget *button;

  if (!g_hash_table_add (seen, g_memdup2 (&v_id, sizeof v_id)))
    return;
  v = zw_deploy_report_find_value (report, v_id);
  where = v == NULL ? "" : v->is_host ? "HOST" : v->is_ocm ? "OCM" : "ETM";
  label = g_strdup_printf (output ? _("out %lld %s") : _("in %lld %s"), (long long) v_id, where);
  bytes = zw_format_bytes (v != NULL ? v->byte_size : 0);
  tip = g_strdup_printf (_("Select value %lld (%s, %s) in every view"), (long long) v_id, where, bytes);
  button = gtk_button_new_with_label (label);
  gtk_widget_set_tooltip_text (button, tip);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "zw-v-id", GSIZE_TO_POINTER ((gsize) (v_id + 1)));
  g_signal_connect (button, "clicked", G_CALLBACK (on_value_clicked), self);
  gtk_box_append (GTK_BOX (self->values_bar), button);
}

void
zw_timing_values_bar_update (ZwTimingView *self)
{
  ZwDeployReport *report;
  const ZwProfile *profile = self->data != NULL ? self->data->profile : NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GArray) ops = g_array_new (FALSE, FALSE, sizeof (gint64));
  const ZwProfileRow *row;
  const GArray *members;
  GtkWidget *child, *title;
  g_autofree char *text = NULL;
  guint n_buttons = 0;

  if (self->values_bar == NULL)
    return;
  while ((child = gtk_widget_get_first_child (self->values_bar)) != NULL)
    gtk_box_remove (GTK_BOX (self->values_bar), child);
  if (profile == NULL || self->state.selected_row < 0 || (guint) self->state.selected_row >= profile->rows->len)
    {
      title = gtk_label_new (_("Select an op to list its values"));
      gtk_widget_add_css_class (title, "dim-label");
      gtk_box_append (GTK_BOX (self->values_bar), title);
      return;
    }
  report = zw_timing_view_report (self);
  row = g_ptr_array_index (profile->rows, self->state.selected_row);
  text = g_strdup_printf (_("Values of op %lld:"), (long long) row->op_id);
  title = gtk_label_new (text);
  gtk_box_append (GTK_BOX (self->values_bar), title);
  /* the op, or the members of its merged launch */
  members = zw_timing_row_members (row, self->data->launches);
  if (report != NULL && zw_deploy_report_find_op (report, row->op_id) != NULL)
    g_array_append_val (ops, row->op_id);
  else if (members != NULL)
    g_array_append_vals (ops, members->data, members->len);
  for (int out = 0; out < 2 && report != NULL; out++)
    for (guint k = 0; k < ops->len; k++)
      {
        const ZwOpInfo *op = zw_deploy_report_find_op (report, g_array_index (ops, gint64, k));
        const GArray *list = op == NULL ? NULL : out ? op->outputs : op->inputs;
        for (guint j = 0; list != NULL && j < list->len; j++, n_buttons++)
          add_value_button (self, report, g_array_index (list, gint64, j), out, seen);
      }
  if (n_buttons == 0)
    {
      GtkWidget *none = gtk_label_new (report == NULL ? _("(open the run's deploy report to list them)")
                                                      : _("(the report does not list them)"));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_box_append (GTK_BOX (self->values_bar), none);
    }
  zw_timing_values_bar_mark_selected (self);
}

GtkWidget *
zw_timing_view_get_values_bar (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  return self->values_bar;
}

GtkWidget *
zw_timing_values_bar_new (ZwTimingView *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->values_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_margin_start (self->values_bar, 6);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->values_bar);
  zw_timing_values_bar_update (self);
  return scrolled;
}
