/* test-app-desktop — the workbench on the desktop (suite "display"): the sidebar toggles and
 * the shortcuts window opens over the window; the dark scheme darkens the views and keeps
 * their contrast; settings (size, options, scheme, recent files) persist across two
 * application instances; the shortcuts window lists every action of the window, the views
 * and the application, every item of the main menu has a key, none of them one GTK keeps. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include <math.h>

#include "zw-board-view.h"
#include "zw-graph-view.h"
#include "zw-log-view.h"
#include "zw-memory-view.h"
#include "zw-shortcuts.h"
#include "zw-sweep-view.h"
#include "zw-timing-view.h"

static ZwApplication *app;
static ZwWindow *win;

static void
test_sidebar_and_shortcuts (void)
{
  gboolean visible = FALSE;
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *shortcuts = NULL;

  zw_test_app_activate ("win.toggle-sidebar", NULL);
  g_object_get (win, "sidebar-visible", &visible, NULL);
  g_assert_false (visible);
  zw_test_app_activate ("win.toggle-sidebar", NULL);
  g_object_get (win, "sidebar-visible", &visible, NULL);
  g_assert_true (visible);

  zw_test_app_activate ("win.show-shortcuts", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_SHORTCUTS_WINDOW (w))
        shortcuts = w;
    }
  g_assert_nonnull (shortcuts);
  g_assert_true (gtk_window_get_transient_for (shortcuts) == GTK_WINDOW (win));
  gtk_window_destroy (shortcuts);
}

static double
channel (double c)
{
  return c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * channel (c->red) + 0.7152 * channel (c->green) + 0.0722 * channel (c->blue);
}

static double
contrast (const GdkRGBA *a, const GdkRGBA *b)
{
  double la = luminance (a), lb = luminance (b);
  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* Mean relative luminance of the view as drawn on screen. */
static double
mean_luminance (GtkWidget *view)
{
  g_autoptr (GdkTexture) texture = zw_test_app_render_widget (view);
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_new (guint8, (gsize) w * h * 4);
  double sum = 0;

  gdk_texture_download (texture, pixels, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      /* CAIRO_FORMAT_ARGB32 in memory: B G R A on little-endian */
      GdkRGBA c = { pixels[i * 4 + 2] / 255.0, pixels[i * 4 + 1] / 255.0, pixels[i * 4] / 255.0, 1 };
      sum += luminance (&c);
    }
  return sum / ((double) w * h);
}

static double
scheme_luminance (const char *scheme, const char *view_name, double *contrast_out)
{
  GtkWidget *view = zw_window_get_view (win, view_name);
  ZwViewStyle style;

  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string (scheme));
  zw_test_app_activate ("win.view", g_variant_new_string (view_name));
  zw_test_app_wait_for_frames (NULL);
  zw_view_style_from_widget (&style, view);
  *contrast_out = contrast (&style.foreground, &style.background);
  return mean_luminance (view);
}

static void
test_color_scheme_dark_and_light (void)
{
  static const char *views[] = { "segments", "timing", "compare" };
  gboolean prefer_dark = FALSE;
  g_autoptr (GVariant) state = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      double light_contrast, dark_contrast;
      double light = scheme_luminance ("light", views[i], &light_contrast);
      double dark = scheme_luminance ("dark", views[i], &dark_contrast);
      g_test_message ("%s: mean luminance light %.3f dark %.3f; contrast light %.1f dark %.1f", views[i], light, dark,
                      light_contrast, dark_contrast);
      g_assert_cmpfloat (dark, <, light - 0.2);
      g_assert_cmpfloat (light_contrast, >=, 4.5);
      g_assert_cmpfloat (dark_contrast, >=, 4.5);
    }
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
  g_assert_true (prefer_dark);
  state = g_action_group_get_action_state (G_ACTION_GROUP (app), "color-scheme");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "dark");
  /* the system's preference without a portal is the start-up theme: light here */
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("system"));
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
  g_assert_false (prefer_dark);
}

static void
test_settings_persist (void)
{
  g_autoptr (GError) error = NULL;
  GSettings *settings = zw_application_get_settings (app);
  ZwApplication *second;
  GtkWidget *first_window, *second_window;
  const char *recent_path = "/tmp/zw-settings-test/yolov5s_ZG.json";
  int width = 0, height = 0;
  gboolean merge = TRUE;
  g_autofree char *ocm = NULL;

  if (settings == NULL)
    {
      g_test_skip ("the GSettings schema is not compiled (GSETTINGS_SCHEMA_DIR)");
      return;
    }
  zw_application_add_recent (app, recent_path);
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("dark"));
  /* a window the user resized and set options in, then closed */
  first_window = zw_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (first_window), 1000, 700);
  g_object_set (first_window, "merge-hardop", FALSE, "ocm-option", "option2", NULL);
  gtk_window_destroy (GTK_WINDOW (first_window));

  /* a second application instance in the same process sees all of it */
  second = zw_application_new ();
  g_application_set_flags (G_APPLICATION (second), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  /* one connection cannot export the same application object twice: no D-Bus id for it
   * (the settings schema does not depend on it) */
  g_application_set_application_id (G_APPLICATION (second), NULL);
  g_assert_true (g_application_register (G_APPLICATION (second), NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (zw_application_get_recent (second)), 0), ==,
                   recent_path);
  g_assert_cmpstr (zw_style_manager_get_color_scheme (zw_application_get_style_manager (second)), ==, "dark");
  second_window = zw_window_new (GTK_APPLICATION (second));
  gtk_window_get_default_size (GTK_WINDOW (second_window), &width, &height);
  g_assert_cmpint (width, ==, 1000);
  g_assert_cmpint (height, ==, 700);
  g_object_get (second_window, "merge-hardop", &merge, "ocm-option", &ocm, NULL);
  g_assert_false (merge);
  g_assert_cmpstr (ocm, ==, "option2");
  gtk_window_destroy (GTK_WINDOW (second_window));
  g_object_unref (second);

  /* back to the defaults for the tests that follow */
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme", g_variant_new_string ("system"));
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "merge-hardop");
  g_settings_reset (settings, "ocm-option");
}

static void
collect_shortcuts (GtkWidget *widget, GHashTable *found)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *title = NULL;
      g_autofree char *accel = NULL;
      g_object_get (widget, "title", &title, "accelerator", &accel, NULL);
      /* the window lists keys: no entry without one (issue 37) */
      if (accel == NULL || *accel == '\0')
        g_error ("“%s” is in the shortcuts window without a key", title);
      /* titles repeat across views ("Zoom out"): the pair is what must be listed */
      g_hash_table_add (found, g_strdup_printf ("%s\x1f%s", title, accel ? accel : ""));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_shortcuts (child, found);
}

/* Every action of @type's class has an entry whose title and key the window shows. */
static void
assert_class_actions_listed (GType type, GHashTable *found, const char *only_prefix)
{
  GtkWidgetClass *klass = g_type_class_ref (type);
  const char *name;
  guint n_table;
  const ZwShortcut *table = zw_shortcuts_get (&n_table);

  GType owner;
  const GVariantType *param_type;
  const char *property;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &param_type, &property); i++)
    {
      gboolean listed = FALSE;
      /* GtkWindow's own (window.close …) are GTK's, not installed on this class */
      if (owner != type || (only_prefix != NULL && !g_str_has_prefix (name, only_prefix)))
        continue;
      for (guint k = 0; k < n_table; k++)
        if (g_str_equal (table[k].action, name) && table[k].accel == NULL)
          listed = TRUE;   /* in the table, reached by a click, a drag or the command line */
        else if (g_str_equal (table[k].action, name))
          {
            g_autofree char *pair = g_strdup_printf ("%s\x1f%s", g_dgettext ("zhuge-workbench", table[k].title),
                                                     table[k].accel ? table[k].accel : "");
            if (!g_hash_table_contains (found, pair))
              g_error ("%s: “%s” is not in the shortcuts window", name, pair);
            listed = TRUE;
          }
      if (!listed)
        g_error ("%s is not in the shortcuts window", name);
    }
  g_type_class_unref (klass);
}

/* Every item of the main menu @menu (its sections and submenus too) has a key in the table,
 * but the colour scheme (three radio items), About and the recent files. */
static void
assert_menu_items_have_keys (GMenuModel *menu)
{
  guint n_table;
  const ZwShortcut *table = zw_shortcuts_get (&n_table);

  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *action = NULL;
      g_autoptr (GVariant) target = g_menu_model_get_item_attribute_value (menu, i, "target", NULL);
      g_autofree char *target_text = target != NULL ? g_variant_print (target, FALSE) : NULL;
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (menu, i);
      GMenuModel *linked;
      gboolean keyed = FALSE;

      while (g_menu_link_iter_get_next (links, NULL, &linked))
        {
          assert_menu_items_have_keys (linked);
          g_object_unref (linked);
        }
      if (!g_menu_model_get_item_attribute (menu, i, "action", "s", &action) || g_str_equal (action, "app.color-scheme")
          || g_str_equal (action, "app.about") || g_str_equal (action, "win.open-file"))
        continue;
      for (guint k = 0; k < n_table; k++)
        keyed = keyed
                || (g_str_equal (table[k].action, action) && g_strcmp0 (table[k].target, target_text) == 0
                    && table[k].accel != NULL);
      if (!keyed)
        g_error ("the main menu's %s%s%s has no key", action, target_text ? " " : "", target_text ? target_text : "");
    }
}

static void
test_shortcuts_list_every_action (void)
{
  g_autoptr (GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *shortcuts = NULL;
  g_auto (GStrv) app_actions = g_action_group_list_actions (G_ACTION_GROUP (app));
  guint n_table;
  const ZwShortcut *table = zw_shortcuts_get (&n_table);
  guint views = 0;

  zw_test_app_activate ("win.show-shortcuts", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_SHORTCUTS_WINDOW (w))
        shortcuts = w;
    }
  g_assert_nonnull (shortcuts);
  collect_shortcuts (GTK_WIDGET (shortcuts), found);
  g_test_message ("%u shortcuts listed", g_hash_table_size (found));
  assert_class_actions_listed (ZW_TYPE_WINDOW, found, NULL);
  assert_class_actions_listed (ZW_TYPE_MEMORY_VIEW, found, "memory.");
  assert_class_actions_listed (ZW_TYPE_TIMING_VIEW, found, "timing.");
  assert_class_actions_listed (ZW_TYPE_LOG_VIEW, found, "log.");
  assert_class_actions_listed (ZW_TYPE_GRAPH_VIEW, found, "graph.");
  assert_class_actions_listed (ZW_TYPE_SWEEP_VIEW, found, "sweep.");
  assert_class_actions_listed (ZW_TYPE_BOARD_VIEW, found, "board.");
  for (guint i = 0; app_actions[i] != NULL; i++)
    {
      g_autofree char *full = g_strconcat ("app.", app_actions[i], NULL);
      gboolean listed = FALSE;
      for (guint k = 0; k < n_table; k++)
        listed = listed || g_str_equal (table[k].action, full);
      g_assert_true (listed);
    }
  /* Ctrl+1…9, Ctrl+0, Ctrl+- (the graph), Ctrl+= (the sweep) and Ctrl+B (the board): one per view */
  for (guint k = 0; k < n_table; k++)
    if (g_str_equal (table[k].action, "win.view"))
      views++;
  g_assert_cmpuint (views, ==, 13);
  {
    GtkWidget *menu_button = zw_test_app_find_child_of_type (gtk_window_get_titlebar (GTK_WINDOW (win)),
                                                             GTK_TYPE_MENU_BUTTON);
    g_assert_nonnull (menu_button);
    assert_menu_items_have_keys (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)));
  }
  /* none of them is one GTK keeps for itself: Ctrl+Shift+D and Ctrl+Shift+I open the
   * inspector (or its "enable the inspector?" dialog) instead of our action */
  for (guint k = 0; k < n_table; k++)
    {
      guint key;
      GdkModifierType mods;
      if (table[k].accel == NULL)
        continue;
      g_assert_true (gtk_accelerator_parse (table[k].accel, &key, &mods));
      gboolean ctrl_shift = (mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) == (GDK_CONTROL_MASK | GDK_SHIFT_MASK);
      if (ctrl_shift && (gdk_keyval_to_lower (key) == GDK_KEY_d || gdk_keyval_to_lower (key) == GDK_KEY_i))
        g_error ("%s uses %s, which GTK reserves for its inspector", table[k].action, table[k].accel);
    }
  gtk_window_destroy (shortcuts);
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  app = zw_test_app_application ();
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/window/sidebar-toggle-and-shortcuts-window", test_sidebar_and_shortcuts);
  g_test_add_func ("/app/style/dark-scheme-darkens-views-and-keeps-contrast", test_color_scheme_dark_and_light);
  g_test_add_func ("/app/settings/persist-across-two-instances", test_settings_persist);
  g_test_add_func ("/app/shortcuts/window-lists-every-action", test_shortcuts_list_every_action);

  return zw_test_app_run_and_close ();
}
