/* zw-shortcuts.h — every action of the workbench with its key: one table that installs
 * the window's key bindings and fills the shortcuts window (Ctrl+?), so the two cannot
 * disagree.
 *
 * The table lists the window's actions (win.*), the application's (app.*) and those the
 * views install on themselves (memory.*, timing.*, graph.*, log.*; their keys act on the
 * view shown wherever the focus is (zw-window-keys.c), the navigation keys — arrows, Home,
 * End, Return — while the view has the focus). An action that takes a parameter appears
 * once per key that sets it (win.view: Ctrl+1…9). The shortcuts window shows the entries
 * with a key, each with its key; an action without one (a click, a drag and drop, the
 * command line, a sidebar control with its mnemonic) stays in the table, which says what
 * triggers it.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  const char *group;    /* untranslated group title (N_()) */
  const char *action;   /* "win.open", "timing.zoom-in" … */
  const char *target;   /* GVariant text of the parameter for this key ("'timing'"), or NULL */
  const char *accel;    /* gtk_accelerator_parse() syntax, or NULL: no key */
  const char *title;    /* untranslated (N_()) */
} ZwShortcut;

/* The table (static; @n_out receives its length). */
const ZwShortcut *zw_shortcuts_get (guint *n_out);

/* Installs a binding on @widget_class for every entry of the table whose action starts
 * with @prefix ("win.") and has a key. Call from class_init. */
void zw_shortcuts_install_bindings (GtkWidgetClass *widget_class, const char *prefix);

/* A new GtkShortcutsWindow listing the whole table, transient for @parent (may be NULL);
 * like every toplevel it lives until gtk_window_destroy (closing it does that). */
GtkWindow *zw_shortcuts_window_new (GtkWindow *parent);

G_END_DECLS
