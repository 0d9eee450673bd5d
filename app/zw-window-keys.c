/* zw-window-keys.c — the views' keys, window-wide: a key of a view (the table of
 * zw-shortcuts.c: timing.zoom-in "w", graph.find Ctrl+F, …) acts on the view shown even when
 * the focus is elsewhere (the sidebar, the history, the view switcher), as in Perfetto or
 * Netron, where the keys never wait for a click on the canvas.
 *
 * One shortcut controller on the window, in the bubble phase: the focused widget has the
 * key first, so typing in an entry stays typing, and a view that has the focus handles its
 * own keys through its class bindings (they never get here). Navigation keys (arrows, Home,
 * End, Return) stay the focus's: they move the focus through the sidebar and only act on a
 * view that has it. A key several views share (f: Memory and Timing fit, Ctrl+F: Graph and
 * Logs find) goes to whichever of them is shown; a view without it lets the key through. */
#include "zw-window-private.h"

#include "zw-shortcuts.h"

#include <string.h>

static gboolean
is_navigation_key (guint key, GdkModifierType mods)
{
  switch (key)
    {
    case GDK_KEY_Up: case GDK_KEY_Down: case GDK_KEY_Left: case GDK_KEY_Right:
    case GDK_KEY_Home: case GDK_KEY_End: case GDK_KEY_Return: case GDK_KEY_KP_Enter:
    case GDK_KEY_space: case GDK_KEY_Tab: case GDK_KEY_Page_Up: case GDK_KEY_Page_Down:
      return (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0;
    default:
      return FALSE;
    }
}

/* The actions of one key (a NULL-terminated array of interned names): the first the view
 * shown has, activated. */
static gboolean
dispatch (GtkWidget *widget, GVariant *args, gpointer data)
{
  const char *const *actions = data;
  GtkWidget *view = zw_window_current_view (ZW_WINDOW (widget));

  (void) args;
  /* a view's actions are its class's (graph.*, timing.*): the window has none of them, so
   * an action of another view is not found from this one */
  for (guint i = 0; actions[i] != NULL; i++)
    if (gtk_widget_activate_action (view, actions[i], NULL))
      return TRUE;
  return FALSE;
}

void
zw_window_add_view_keys (ZwWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  GHashTableIter iter;
  gpointer key, value;
  guint n;
  const ZwShortcut *table = zw_shortcuts_get (&n);

  for (guint i = 0; i < n; i++)
    {
      const ZwShortcut *s = &table[i];
      guint keyval = 0;
      GdkModifierType mods = 0;
      GPtrArray *actions;
      g_autofree char *trigger = NULL;

      if (s->accel == NULL || s->target != NULL || g_str_has_prefix (s->action, "win.")
          || g_str_has_prefix (s->action, "app."))
        continue;
      if (!gtk_accelerator_parse (s->accel, &keyval, &mods))
        g_error ("bad accelerator “%s” for %s", s->accel, s->action);
      if (is_navigation_key (keyval, mods))
        continue;
      trigger = gtk_accelerator_name (keyval, mods);
      if ((actions = g_hash_table_lookup (by_key, trigger)) == NULL)
        {
          actions = g_ptr_array_new ();
          g_hash_table_insert (by_key, g_strdup (trigger), actions);
        }
      g_ptr_array_add (actions, (gpointer) g_intern_string (s->action));
    }
  g_hash_table_iter_init (&iter, by_key);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GPtrArray *actions = value;
      const char **names = g_new0 (const char *, actions->len + 1);
      guint keyval = 0;
      GdkModifierType mods = 0;

      memcpy (names, actions->pdata, actions->len * sizeof (char *));
      gtk_accelerator_parse (key, &keyval, &mods);
      gtk_shortcut_controller_add_shortcut (
          GTK_SHORTCUT_CONTROLLER (controller),
          gtk_shortcut_new (gtk_keyval_trigger_new (keyval, mods), gtk_callback_action_new (dispatch, names, g_free)));
    }
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  gtk_event_controller_set_name (controller, "zw-view-keys");
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
