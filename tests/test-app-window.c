/* test-app-window — the window itself (suite "display", issue 37): at 1280x800 the sidebar
 * shows the device field and Forward ×N without scrolling; at 1024 pixels wide the views'
 * switcher is a drop-down inside the window, never a row that scrolls; started from the build
 * tree the app finds its settings schema (no "not installed" message). */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include "zw-view-switcher.h"

static ZwWindow *win;

/* The last widget of @type at or below @widget (depth first), or NULL. */
static GtkWidget *
find_last_of_type (GtkWidget *widget, GType type)
{
  GtkWidget *found = NULL;

  for (GtkWidget *c = gtk_widget_get_last_child (widget); c != NULL && found == NULL; c = gtk_widget_get_prev_sibling (c))
    found = find_last_of_type (c, type);
  if (found == NULL && G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    found = widget;
  return found;
}

static void
assert_inside (GtkWidget *widget, GtkWidget *frame, const char *what, const char *frame_name)
{
  graphene_rect_t w, f;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (win), &w));
  g_assert_true (gtk_widget_compute_bounds (frame, GTK_WIDGET (win), &f));
  g_test_message ("%s at (%g, %g, %g x %g) in %s (%g, %g, %g x %g)", what, w.origin.x, w.origin.y, w.size.width,
                  w.size.height, frame_name, f.origin.x, f.origin.y, f.size.width, f.size.height);
  if (!graphene_rect_contains_rect (&f, &w))
    g_error ("%s (%g, %g, %g x %g) is not inside %s (%g, %g, %g x %g)", what, w.origin.x, w.origin.y, w.size.width,
             w.size.height, frame_name, f.origin.x, f.origin.y, f.size.width, f.size.height);
}

static gboolean
has_size (gpointer data)
{
  int *size = data;
  int w = gtk_widget_get_width (GTK_WIDGET (win)), h = gtk_widget_get_height (GTK_WIDGET (win));

  /* the default size counts the frame the window manager draws (none under Xvfb: 10 pixels
   * of client-side shadow and border less) */
  return w <= size[0] && w >= size[0] - 20 && h <= size[1] && h >= size[1] - 20;
}

static void
resize (int width, int height)
{
  int size[2] = { width, height };

  gtk_window_unmaximize (GTK_WINDOW (win));
  gtk_window_set_default_size (GTK_WINDOW (win), width, height);
  if (!zw_test_app_wait_for (has_size, size, 10))
    g_error ("the window is %d x %d, not %d x %d", gtk_widget_get_width (GTK_WIDGET (win)),
             gtk_widget_get_height (GTK_WIDGET (win)), width, height);
  zw_test_app_run_for (200);
}

/* The sidebar's device field and Forward ×N are in sight, inside the options' scroller
 * (not below its fold) and inside the window. */
static void
test_sidebar_device_and_forwards_in_sight (void)
{
  GtkWidget *panel = zw_window_get_options_panel (win);
  GtkWidget *scroller = gtk_widget_get_ancestor (panel, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *device = zw_test_app_find_child_of_type (panel, GTK_TYPE_ENTRY);
  GtkWidget *forwards = find_last_of_type (panel, GTK_TYPE_SPIN_BUTTON);
  GtkAdjustment *vadj;

  resize (1280, 800);
  g_assert_nonnull (scroller);
  g_assert_nonnull (device);
  g_assert_nonnull (forwards);
  g_assert_cmpuint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (forwards)), >=, 1);
  vadj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_test_message ("options: %g of %g pixels in sight", gtk_adjustment_get_page_size (vadj),
                  gtk_adjustment_get_upper (vadj));
  /* nothing below the fold: the options take their height, the history the rest */
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj), <=, gtk_adjustment_get_page_size (vadj) + 0.5);
  assert_inside (device, scroller, "the device field", "the options");
  assert_inside (forwards, scroller, "Forward ×N", "the options");
  assert_inside (device, GTK_WIDGET (win), "the device field", "the window");
  assert_inside (forwards, GTK_WIDGET (win), "Forward ×N", "the window");
  /* the history keeps three rows in sight */
  g_assert_cmpint (gtk_widget_get_height (zw_window_get_history (win)), >=, 200);
}

/* 1280 pixels: the row of view buttons, all inside; 1024: a drop-down inside the window
 * that switches the view; back at 1280 the row again. No scrolled window around either. */
static void
test_view_switcher_fits (void)
{
  ZwViewSwitcher *switcher = ZW_VIEW_SWITCHER (zw_test_app_find_child_of_type (GTK_WIDGET (win), ZW_TYPE_VIEW_SWITCHER));
  GtkWidget *buttons, *dropdown;
  g_autofree char *view = NULL;
  guint n_buttons = 0;

  g_assert_nonnull (switcher);
  g_assert_null (gtk_widget_get_ancestor (GTK_WIDGET (switcher), GTK_TYPE_SCROLLED_WINDOW));
  buttons = zw_view_switcher_get_buttons (switcher);
  dropdown = zw_view_switcher_get_dropdown (switcher);

  resize (1280, 800);
  g_assert_false (zw_view_switcher_get_compact (switcher));
  g_assert_false (gtk_widget_get_mapped (dropdown));
  for (GtkWidget *b = gtk_widget_get_first_child (buttons); b != NULL; b = gtk_widget_get_next_sibling (b), n_buttons++)
    assert_inside (b, GTK_WIDGET (switcher), "a view button", "the switcher");
  g_assert_cmpuint (n_buttons, ==, 13);
  assert_inside (buttons, GTK_WIDGET (win), "the view buttons", "the window");

  resize (1024, 768);
  g_assert_true (zw_view_switcher_get_compact (switcher));
  g_assert_false (gtk_widget_get_mapped (buttons));
  assert_inside (dropdown, GTK_WIDGET (switcher), "the views' drop-down", "the switcher");
  assert_inside (dropdown, GTK_WIDGET (win), "the views' drop-down", "the window");
  /* it shows the view shown, and picks another */
  zw_test_app_activate ("win.view", g_variant_new_string ("timing"));
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (dropdown))), ==,
                   g_dgettext ("zhuge-workbench", "Timing"));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 1);
  g_object_get (win, "view", &view, NULL);
  g_assert_cmpstr (view, ==, "memory");

  resize (1280, 800);
  g_assert_false (zw_view_switcher_get_compact (switcher));
  g_assert_true (gtk_widget_get_mapped (buttons));
}

/* The app started from the build tree without GSETTINGS_SCHEMA_DIR finds the schema the
 * build compiled: no "is not installed" message on its standard error. */
static void
test_build_tree_finds_schema (void)
{
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-schema-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *err = NULL;

  if (exe == NULL)
    {
      g_test_skip ("ZW_APP (the built zhuge-workbench) is not set");
      return;
    }
  g_subprocess_launcher_unsetenv (launcher, "GSETTINGS_SCHEMA_DIR");
  proc = g_subprocess_launcher_spawn (launcher, &error, exe, "--screenshot", png, "--view", "logs", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_true (g_subprocess_get_successful (proc));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_assert_null (strstr (err, "GSettings schema"));
  g_assert_null (strstr (err, "not installed"));
  g_unlink (png);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  gtk_window_present (GTK_WINDOW (win));
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app-window/1280x800/sidebar-shows-device-and-forwards", test_sidebar_device_and_forwards_in_sight);
  g_test_add_func ("/app-window/1024/view-switcher-is-a-drop-down-inside", test_view_switcher_fits);
  g_test_add_func ("/app-window/start/build-tree-finds-settings-schema", test_build_tree_finds_schema);

  return zw_test_app_run_and_close ();
}
