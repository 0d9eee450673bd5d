/* zw-shortcuts.c — the table of actions and keys (see the header). */
#include "zw-shortcuts.h"

#include <glib/gi18n.h>

#include "zw-views.h"

static const ZwShortcut table[] = {
  /* files */
  { N_("Files"), "win.open", NULL, "<Control>o", N_("Open a network, deploy log, time profile, dump folder or log") },
  { N_("Files"), "win.open-dump", NULL, "<Control><Shift>o", N_("Open a dump folder in the tensor inspector") },
  { N_("Files"), "win.compare-files", NULL, "<Control><Shift>c", N_("Compare two time profiles") },
  { N_("Files"), "win.diff-dumps", NULL, "<Control>d", N_("Diff the dumps of two marked runs, or two dump folders (or one with the dump Tensors shows)") },
  { N_("Files"), "win.save-dump", NULL, "<Control>s", N_("Save the selected run's dump into a folder") },
  { N_("Files"), "win.export", NULL, "<Control>e", N_("Export the current view (PNG, SVG, PDF, CSV, trace JSON)") },
  { N_("Files"), "win.open-demo", NULL, "<Control><Shift>n", N_("Open the bundled demo network") },
  { N_("Files"), "win.open-demo-pipeline", NULL, "<Control><Shift>p",
    N_("Open the bundled demo pipeline (several networks on one board, shown in Board)") },
  { N_("Files"), "win.open-as-pipeline", NULL, "<Control><Shift>l",
    N_("Open several networks as one pipeline on one board (also: Open with several networks, or drop them)") },
  { N_("Files"), "win.open-as-pipeline-files", NULL, NULL, N_("Open given networks as one pipeline (drag and drop)") },
  { N_("Files"), "win.save-pipeline", NULL, "<Control><Shift>k", N_("Save the pipeline made from networks opened together") },
  { N_("Files"), "win.save-pipeline-file", NULL, NULL, N_("Save the pipeline made from networks to a given file") },
  { N_("Files"), "win.compare-pipeline-files", NULL, NULL,
    N_("Compare two pipeline reports' passes, ops named NET:OP_ID (drag and drop)") },
  { N_("Files"), "win.open-file", NULL, NULL, N_("Open a given file (command line, recent files, drag and drop)") },
  { N_("Files"), "win.export-file", NULL, NULL, N_("Export the current view to a given file") },
  { N_("Files"), "win.compare-file-pair", NULL, NULL, N_("Compare two given time profiles (drag and drop)") },
  { N_("Files"), "win.diff-folders", NULL, NULL, N_("Diff given dump folders (drag and drop)") },
  { N_("Files"), "win.compare-compile", NULL, "<Control><Shift>m",
    N_("Compare the open network with another compile of it (main menu)") },
  { N_("Files"), "win.compare-compile-file", NULL, NULL,
    N_("Compare with a given compile (command line: --compare-compile)") },
  { N_("Files"), "win.refresh-compiles", NULL, "<Control><Shift>r",
    N_("Compare the compiles again with the current options (Compiles view's Refresh)") },
  /* runs */
  { N_("Runs"), "win.run", NULL, "<Control>r", N_("Apply and forward") },
  { N_("Runs"), "win.apply", NULL, "<Control><Shift>a", N_("Apply (deploy) with the current options") },
  { N_("Runs"), "win.forward", NULL, "F5", N_("Forward the current deployment") },
  { N_("Runs"), "win.dump-tensors", "'SFB'", "<Control>t", N_("Forward once and dump every tensor (SFB)") },
  { N_("Runs"), "win.dump-tensors", "'SQB'", "<Control><Shift>t", N_("Forward once and dump every tensor (SQB)") },
  { N_("Runs"), "win.sweep", NULL, "<Control><Shift>s",
    N_("Sweep Options…: every option combination (and a what-if grid), shown in Sweep") },
  { N_("Runs"), "win.sweep-what-if", NULL, NULL, N_("Sweep with a given what-if grid") },
  { N_("Runs"), "win.cancel", NULL, "Escape", N_("Cancel the run in progress") },
  { N_("Runs"), "win.use-synthetic-params", NULL, NULL, N_("Use synthetic params (the banner's button)") },
  { N_("Runs"), "win.select-run", NULL, NULL, N_("Show a run of the history (click it)") },
  { N_("Runs"), "win.toggle-compare", NULL, NULL, N_("Mark a run for comparison (its Compare box)") },
  { N_("Runs"), "win.compare-pipeline-apart", NULL, "<Control><Shift>j",
    N_("Compare the selected pipeline pass with its networks run apart (same options, simulated board; main menu)") },
  { N_("Runs"), "win.compare-pipeline-apart-row", NULL, NULL,
    N_("Compare a given pipeline row of the history with its networks run apart") },
  { N_("Runs"), "win.merge-hardop", NULL, NULL, N_("Merge hardops (sidebar)") },
  { N_("Runs"), "win.etm-optimize", NULL, NULL, N_("ETM optimize (sidebar)") },
  { N_("Runs"), "win.ocm-option", NULL, NULL, N_("OCM option (sidebar)") },
  /* views */
  /* the views' keys come from the table of views (zw-views.h), here */
  { N_("Views"), "win.select-back", NULL, "<Alt>Left", N_("Previous selection") },
  { N_("Views"), "win.select-forward", NULL, "<Alt>Right", N_("Next selection") },
  /* window */
  { N_("Window"), "win.toggle-sidebar", NULL, "F9", N_("Show or hide the sidebar") },
  { N_("Window"), "win.show-shortcuts", NULL, "<Control>question", N_("Keyboard shortcuts") },
  { N_("Window"), "win.dismiss-banner", NULL, NULL, N_("Close the message banner (its × button)") },
  { N_("Window"), "app.about", NULL, NULL, N_("About Zhuge Workbench (main menu)") },
  { N_("Window"), "app.color-scheme", NULL, NULL, N_("Colour scheme: system, light or dark (main menu)") },
  { N_("Window"), "app.quit", NULL, "<Control>q", N_("Quit") },
  /* views' own keys */
  { N_("Memory view"), "memory.zoom-in", NULL, "plus", N_("Zoom in") },
  { N_("Memory view"), "memory.zoom-out", NULL, "minus", N_("Zoom out") },
  { N_("Memory view"), "memory.zoom-fit", NULL, "f", N_("Zoom to fit") },
  { N_("Timing view"), "timing.zoom-in", NULL, "w", N_("Zoom in (also Ctrl+wheel)") },
  { N_("Timing view"), "timing.zoom-out", NULL, "s", N_("Zoom out") },
  { N_("Timing view"), "timing.pan-left", NULL, "a", N_("Pan left (also drag)") },
  { N_("Timing view"), "timing.pan-right", NULL, "d", N_("Pan right") },
  { N_("Timing view"), "timing.zoom-fit", NULL, "f", N_("Zoom to fit") },
  { N_("Logs view"), "log.find", NULL, "<Control>f", N_("Search the log") },
  { N_("Logs view"), "log.next-match", NULL, "<Control>g", N_("Next match (also Enter)") },
  { N_("Logs view"), "log.previous-match", NULL, "<Control><Shift>g", N_("Previous match (also Shift+Enter)") },
  { N_("Sweep view"), "sweep.previous", NULL, "Up", N_("Previous row (also Left)") },
  { N_("Sweep view"), "sweep.next", NULL, "Down", N_("Next row (also Right)") },
  { N_("Sweep view"), "sweep.first", NULL, "Home", N_("First row") },
  { N_("Sweep view"), "sweep.last", NULL, "End", N_("Last row") },
  { N_("Sweep view"), "sweep.open", NULL, "Return", N_("Deploy and run the row in every view (also a click)") },
  { N_("Board view"), "board.previous", NULL, "Up", N_("Previous network of the pipeline (also Left)") },
  { N_("Board view"), "board.next", NULL, "Down", N_("Next network of the pipeline (also Right)") },
  { N_("Board view"), "board.open", NULL, "Return", N_("Show the network's deploy report in the other views (also a click)") },
  { N_("Board view"), "board.pass", NULL, "Escape", N_("Show the whole pass of the pipeline in Segments, Memory, Timing and Graph") },
  { N_("Compare view"), "compare.expand", NULL, "plus",
    N_("Expand the selected merged launch; on an expanded one, go to its first member (also Right)") },
  { N_("Compare view"), "compare.collapse", NULL, "minus",
    N_("Collapse the selected merged launch; on a member, go to its launch (also Left)") },
  { N_("Compare view"), "compare.previous", NULL, "Up", N_("Previous row") },
  { N_("Compare view"), "compare.next", NULL, "Down", N_("Next row") },
  { N_("Compare view"), "compare.swap", NULL, NULL, N_("Swap A and B (click the header line)") },
  { N_("Graph view"), "graph.find", NULL, "<Control>f", N_("Find an op (id, name, class)") },
  { N_("Graph view"), "graph.find-next", NULL, "<Control>g", N_("Next match") },
  { N_("Graph view"), "graph.zoom-in", NULL, "plus", N_("Zoom in (also Ctrl+wheel)") },
  { N_("Graph view"), "graph.zoom-out", NULL, "minus", N_("Zoom out") },
  { N_("Graph view"), "graph.zoom-fit", NULL, "0", N_("Zoom to fit") },
  { N_("Graph view"), "graph.zoom-100", NULL, "1", N_("Zoom to actual size") },
  { N_("Graph view"), "graph.minimap", NULL, "m", N_("Minimap") },
  { N_("Graph view"), "graph.properties", NULL, "p", N_("Show or hide the properties of the selected op or value") },
  { N_("Graph view"), "graph.down", NULL, "Down", N_("Next op along an output") },
  { N_("Graph view"), "graph.up", NULL, "Up", N_("Previous op along an input") },
  { N_("Graph view"), "graph.left", NULL, "Left", N_("Op to the left") },
  { N_("Graph view"), "graph.right", NULL, "Right", N_("Op to the right") },
};

static GArray *shortcuts;   /* the table with the views' rows in their place; built once */

static void
ensure_shortcuts (void)
{
  static gsize built = 0;

  if (g_once_init_enter (&built))
    {
      guint n_views;
      const ZwViewKind *views = zw_views_get (&n_views);
      GArray *all = g_array_new (FALSE, FALSE, sizeof (ZwShortcut));

      for (guint i = 0; i < G_N_ELEMENTS (table); i++)
        {
          if (g_str_equal (table[i].action, "win.select-back"))
            for (guint v = 0; v < n_views; v++)
              {
                g_autofree char *target = g_strdup_printf ("'%s'", views[v].name);
                ZwShortcut s = { N_("Views"), "win.view", g_intern_string (target), views[v].accel, views[v].key_title };
                g_array_append_val (all, s);
              }
          g_array_append_val (all, table[i]);
        }
      shortcuts = all;
      g_once_init_leave (&built, 1);
    }
}

const ZwShortcut *
zw_shortcuts_get (guint *n_out)
{
  g_return_val_if_fail (n_out != NULL, NULL);
  ensure_shortcuts ();
  *n_out = shortcuts->len;
  return (const ZwShortcut *) shortcuts->data;
}

void
zw_shortcuts_install_bindings (GtkWidgetClass *widget_class, const char *prefix)
{
  guint n;
  const ZwShortcut *shortcuts = zw_shortcuts_get (&n);

  for (guint i = 0; i < n; i++)
    {
      const ZwShortcut *s = &shortcuts[i];
      guint key = 0;
      GdkModifierType mods = 0;
      g_autoptr (GtkShortcut) shortcut = NULL;

      if (s->accel == NULL || !g_str_has_prefix (s->action, prefix))
        continue;
      if (!gtk_accelerator_parse (s->accel, &key, &mods))
        g_error ("bad accelerator “%s” for %s", s->accel, s->action);
      /* what gtk_widget_class_add_binding_action does, with the parameter as GVariant text */
      shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (key, mods), gtk_named_action_new (s->action));
      if (s->target != NULL)
        {
          GVariant *target = g_variant_parse (NULL, s->target, NULL, NULL, NULL);
          g_assert (target != NULL);
          gtk_shortcut_set_arguments (shortcut, target);
        }
      gtk_widget_class_add_shortcut (widget_class, shortcut);
    }
}

/* The window shows one section at a time (a switcher picks it): all groups in one would
 * be wider than a screen. */
static const char *
section_of (const char *group)
{
  if (g_str_equal (group, "Files") || g_str_equal (group, "Runs"))
    return N_("Files and Runs");
  if (g_str_equal (group, "Views") || g_str_equal (group, "Window"))
    return N_("Views and Window");
  /* a section of its own: with the other views' keys it would be wider than a screen */
  if (g_str_equal (group, "Graph view"))
    return N_("Graph view");
  if (g_str_equal (group, "Board view"))
    return N_("Board view");
  return N_("Inside the Views");
}

/* GtkShortcutsWindow has no API to add sections in GTK 4.8: it is built from a GtkBuilder
 * description whose titles are translated here. */
GtkWindow *
zw_shortcuts_window_new (GtkWindow *parent)
{
  g_autoptr (GString) xml = g_string_new (NULL);
  g_autoptr (GtkBuilder) builder = NULL;
  const char *group = NULL;
  const char *section = NULL;
  GtkWindow *window;
  guint n;
  const ZwShortcut *shortcuts = zw_shortcuts_get (&n);

  g_string_append (xml, "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\">"
                        "<property name=\"modal\">1</property>");
  for (guint i = 0; i < n; i++)
    {
      const ZwShortcut *s = &shortcuts[i];
      g_autofree char *title = NULL;
      g_autofree char *accel = NULL;

      /* keys only: an action without one is reached by a click, a drag or the command line */
      if (s->accel == NULL)
        continue;
      title = g_markup_escape_text (_(s->title), -1);
      accel = g_markup_escape_text (s->accel, -1);

      if (g_strcmp0 (group, s->group) != 0)
        {
          g_autofree char *group_title = g_markup_escape_text (_(s->group), -1);
          if (group != NULL)
            g_string_append (xml, "</object></child>");
          if (g_strcmp0 (section, section_of (s->group)) != 0)
            {
              g_autofree char *section_title = NULL;
              if (section != NULL)
                g_string_append (xml, "</object></child>");
              section = section_of (s->group);
              section_title = g_markup_escape_text (_(section), -1);
              g_string_append_printf (xml, "<child><object class=\"GtkShortcutsSection\">"
                                           "<property name=\"section-name\">%u</property>"
                                           "<property name=\"title\">%s</property>"
                                           "<property name=\"max-height\">12</property>", i, section_title);
            }
          group = s->group;
          g_string_append_printf (xml, "<child><object class=\"GtkShortcutsGroup\">"
                                       "<property name=\"title\">%s</property>", group_title);
        }
      g_string_append_printf (xml, "<child><object class=\"GtkShortcutsShortcut\">"
                                   "<property name=\"title\">%s</property>"
                                   "<property name=\"accelerator\">%s</property></object></child>", title, accel);
    }
  g_string_append (xml, "</object></child></object></child></object></interface>");
  builder = gtk_builder_new_from_string (xml->str, (gssize) xml->len);
  window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts"));
  if (parent != NULL)
    gtk_window_set_transient_for (window, parent);
  return window;
}
