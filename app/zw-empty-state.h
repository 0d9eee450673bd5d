/* zw-empty-state.h — what a view with nothing to show says: a line of text that says how to
 * get something, and the button that does it (an action of the window), over the view.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ZW_TYPE_EMPTY_STATE (zw_empty_state_get_type ())
G_DECLARE_FINAL_TYPE (ZwEmptyState, zw_empty_state, ZW, EMPTY_STATE, GtkBox)

/* @text (translated), @button_label (a mnemonic), the button's @action ("win.forward") and
 * its @target (may be NULL; floating references are sunk). */
GtkWidget *zw_empty_state_new (const char *text, const char *button_label, const char *action, GVariant *target);
/* The text shown. */
const char *zw_empty_state_get_text (ZwEmptyState *self);

G_END_DECLS
