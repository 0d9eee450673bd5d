/* test-app-window — the window itself (suite "display", issue 37): at 1280x800 the sidebar
 * shows the device field and Forward ×N without scrolling; at 1024 pixels wide the views'
 * switcher is a drop-down inside the window, never a row that scrolls; started from the build
 * tree the app finds its settings schema (no "not installed" message); the open dialog's
 * filter takes every kind of file; synthetic params are said in the history row. Run with
 * LANGUAGE=zh_CN (test app-window-zh) it checks the Logs view's own texts in Chinese. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include "zw-log-view.h"
#include "zw-sweep-view-private.h"
#include "zw-view-switcher.h"
#include "zw-window-private.h"

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

static gboolean
filter_takes (GtkFileFilter *filter, const char *name)
{
  g_autoptr (GFileInfo) info = g_file_info_new ();

  g_file_info_set_display_name (info, name);
  g_file_info_set_name (info, name);
  return gtk_filter_match (GTK_FILTER (filter), info);
}

/* The open dialog's filter shows every kind of file the window opens: the vendor's time
 * files (*_time.txt) too, not only JSON. */
static void
test_open_filter_takes_every_kind (void)
{
  g_autoptr (GtkFileFilter) filter = zw_window_new_open_filter ();
  static const char *const taken[] = { "yolov5s_ZG.json", "yolov5s_time.txt", "profile.csv", "pipeline.toml",
                                       "deploy.log", "notes.txt" };

  for (guint i = 0; i < G_N_ELEMENTS (taken); i++)
    if (!filter_takes (filter, taken[i]))
      g_error ("the open dialog's filter hides %s", taken[i]);
  g_assert_false (filter_takes (filter, "screenshot.png"));
  g_assert_false (filter_takes (filter, "params.raw"));
}

static void
collect_labels (GtkWidget *widget, GPtrArray *out)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

static gboolean
sweep_shown (gpointer data)
{
  (void) data;
  return zw_sweep_view_get_sweep (ZW_SWEEP_VIEW (zw_window_get_view (win, "sweep"))) != NULL
         && !zw_window_get_busy (win);
}

/* The Sweep view at the default window size: ten rows of its table in sight at least, and
 * the ETM bytes column (title and figures) whole inside the table, not cut at its edge. */
static void
test_sweep_table_rows_and_etm_column (void)
{
  const char *xrt_run = g_getenv ("XRT_RUN");
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-sweep-table-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "tiny_sweep.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  GtkWidget *view, *column_view, *scroller;
  const char *etm_title = g_dgettext ("zhuge-workbench", zw_sweep_column_titles[ZW_SWEEP_COLUMN_ETM]);
  graphene_rect_t frame, r;
  guint rows_in_sight = 0, etm_titles = 0, etm_cells = 0;

  if (xrt_run == NULL)
    {
      g_test_skip ("XRT_RUN is not set");
      return;
    }
  resize (1280, 800);
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, xrt_run, "sweep", net, "--json", json, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  zw_window_open (win, json, FALSE);
  g_assert_true (zw_test_app_wait_for (sweep_shown, NULL, 60));
  zw_test_app_activate ("win.view", g_variant_new_string ("sweep"));
  zw_test_app_run_for (400);
  view = zw_window_get_view (win, "sweep");
  column_view = zw_test_app_find_child_of_type (view, GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (column_view);
  scroller = gtk_widget_get_ancestor (column_view, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scroller);
  g_assert_true (gtk_widget_compute_bounds (scroller, GTK_WIDGET (win), &frame));
  g_assert_cmpuint (zw_sweep_view_get_sweep (ZW_SWEEP_VIEW (view))->rows->len, >=, 10);
  collect_labels (column_view, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      const char *text = gtk_label_get_text (GTK_LABEL (label));
      gboolean inside;

      if (!gtk_widget_get_mapped (label) || !gtk_widget_compute_bounds (label, GTK_WIDGET (win), &r))
        continue;
      inside = graphene_rect_contains_rect (&frame, &r);
      /* the "#" cells of the rows whole in sight */
      if (inside && r.size.height > 0 && g_ascii_isdigit (text[0]) && strchr (text, ' ') == NULL
          && r.origin.x < frame.origin.x + 40)
        rows_in_sight++;
      if (g_strcmp0 (text, etm_title) == 0)
        {
          etm_titles++;
          if (!inside || pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
            g_error ("the ETM column's title is cut: (%g, %g, %g x %g) in the table (%g, %g, %g x %g)", r.origin.x,
                     r.origin.y, r.size.width, r.size.height, frame.origin.x, frame.origin.y, frame.size.width,
                     frame.size.height);
        }
      else if (inside && (g_str_has_suffix (text, "KiB") || g_str_has_suffix (text, "MiB")))
        {
          etm_cells++;
          g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
        }
    }
  g_test_message ("%u rows in sight, %u byte figures whole, the table %g x %g", rows_in_sight, etm_cells,
                  frame.size.width, frame.size.height);
  g_assert_cmpuint (etm_titles, ==, 1);
  g_assert_cmpuint (rows_in_sight, >=, 10);
  g_assert_cmpuint (etm_cells, >=, 10);
  g_unlink (json);
  g_rmdir (dir);
}

static void
collect_with_class (GtkWidget *widget, const char *css_class, GPtrArray *out)
{
  if (gtk_widget_has_css_class (widget, css_class))
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_with_class (c, css_class, out);
}

/* The synthetic-params labels of the history in sight, whole (wrapped, not ellipsized). */
static guint
n_synthetic_labels_shown (void)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  guint shown = 0;

  collect_with_class (zw_window_get_history (win), "zw-synthetic-params", labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      if (!gtk_widget_get_mapped (label))
        continue;
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                       g_dgettext ("zhuge-workbench", "Synthetic params: made-up weights, real placement and times"));
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
      g_assert_cmpint (gtk_widget_get_width (label), >, 0);
      shown++;
    }
  return shown;
}

/* A network opened with synthetic params says so in its history row, in sight and whole
 * (issue 37: it was said only in a tooltip); the demo's rows (its own params) do not. */
static void
test_synthetic_params_said_in_the_row (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "yolov5s_plin_352x640_ZG.json", NULL);
  guint n = zw_test_app_n_runs ();

  if (!g_file_test (net, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("the real sample is not in ZW_SHARED_DIR/real");
      return;
    }
  resize (1280, 800);
  g_assert_cmpuint (n_synthetic_labels_shown (), ==, 0);
  zw_window_open (win, net, TRUE);
  zw_test_app_wait_for_run (n + 1);
  zw_test_app_run_for (300);
  g_assert_true (zw_run_get_synthetic_params (zw_window_get_selected_run (win)));
  g_assert_cmpuint (n_synthetic_labels_shown (), >=, 1);
}

/* In Chinese (LANGUAGE=zh_CN) the Logs view's own texts are translated: the line that says
 * what the log is, the search's placeholder, the view's name. */
static void
test_logs_view_in_chinese (void)
{
  ZwLogView *logs = ZW_LOG_VIEW (zw_window_get_view (win, "logs"));
  g_autofree char *placeholder = zw_log_view_dup_placeholder (logs);

  g_assert_nonnull (zw_log_view_get_text (logs));
  g_test_message ("header: %s; placeholder: %s", zw_log_view_get_header (logs), placeholder);
  g_assert_nonnull (strstr (zw_log_view_get_header (logs), "各行与运行时写出的一致"));
  g_assert_cmpstr (placeholder, ==, "搜索日志（Ctrl+F）");
  g_assert_cmpstr (g_dgettext ("zhuge-workbench", "Logs"), ==, "日志");
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  gtk_window_present (GTK_WINDOW (win));
  zw_test_app_wait_for_run (1);

  if (g_str_has_prefix (g_getenv ("LANGUAGE") != NULL ? g_getenv ("LANGUAGE") : "", "zh"))
    {
      g_test_add_func ("/app-window/zh-CN/logs-view-texts-translated", test_logs_view_in_chinese);
      return zw_test_app_run_and_close ();
    }
  g_test_add_func ("/app-window/1280x800/sidebar-shows-device-and-forwards", test_sidebar_device_and_forwards_in_sight);
  g_test_add_func ("/app-window/1024/view-switcher-is-a-drop-down-inside", test_view_switcher_fits);
  g_test_add_func ("/app-window/start/build-tree-finds-settings-schema", test_build_tree_finds_schema);
  g_test_add_func ("/app-window/open/filter-takes-every-kind-time-files-too", test_open_filter_takes_every_kind);
  g_test_add_func ("/app-window/sweep/table-ten-rows-etm-column-whole", test_sweep_table_rows_and_etm_column);
  /* last: it leaves the window on another network */
  g_test_add_func ("/app-window/history/synthetic-params-said-in-the-row", test_synthetic_params_said_in_the_row);

  return zw_test_app_run_and_close ();
}
