/* zw-empty-state.c — a view's empty state (see the header). */
#include "zw-empty-state.h"

struct _ZwEmptyState
{
  GtkBox parent_instance;

  GtkWidget *label;
};

G_DEFINE_FINAL_TYPE (ZwEmptyState, zw_empty_state, GTK_TYPE_BOX)

static void
zw_empty_state_class_init (ZwEmptyStateClass *klass)
{
  (void) klass;
}

static void
zw_empty_state_init (ZwEmptyState *self)
{
  (void) self;
}

GtkWidget *
zw_empty_state_new (const char *text, const char *button_label, const char *action, GVariant *target)
{
  ZwEmptyState *self;
  GtkWidget *button;

  g_return_val_if_fail (text != NULL && button_label != NULL && action != NULL, NULL);
  self = g_object_new (ZW_TYPE_EMPTY_STATE, "orientation", GTK_ORIENTATION_VERTICAL, "spacing", 12, NULL);
  self->label = gtk_label_new (text);
  button = gtk_button_new_with_mnemonic (button_label);
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");
  gtk_widget_set_halign (GTK_WIDGET (self), GTK_ALIGN_FILL);
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_FILL);
  gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
  gtk_label_set_justify (GTK_LABEL (self->label), GTK_JUSTIFY_CENTER);
  gtk_label_set_max_width_chars (GTK_LABEL (self->label), 60);
  gtk_widget_add_css_class (self->label, "dim-label");
  gtk_widget_set_valign (self->label, GTK_ALIGN_END);
  gtk_widget_set_vexpand (self->label, TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  if (target != NULL)
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_set_vexpand (button, TRUE);
  gtk_box_append (GTK_BOX (self), self->label);
  gtk_box_append (GTK_BOX (self), button);
  return GTK_WIDGET (self);
}

const char *
zw_empty_state_get_text (ZwEmptyState *self)
{
  g_return_val_if_fail (ZW_IS_EMPTY_STATE (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->label));
}
