/* test-app-graph — the Graph view in the workbench next to Netron (suite "display", issue 37
 * item 10): the views' keys reach the view shown with the focus elsewhere (real key presses
 * through XTest on the X server, not action calls: Ctrl+F opens the graph's search, Alt+Left
 * and Alt+Right walk the selection, w zooms Timing, while an entry keeps its typing), and the
 * shortcuts window lists them with their keys; the properties pane gives an op the time of
 * the run's forward. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "zw-application.h"
#include "zw-graph-view.h"
#include "zw-graph-properties.h"
#include "zw-timing-view.h"
#include "zw-shortcuts.h"
#include "zw-window.h"
#include "zw-test-app.h"

static ZwWindow *win;

/* The conditions the keys must bring about, waited for (a loaded machine delivers the
 * events late; a key that never arrives times out). */
typedef struct {
  int what;
  gint64 op;
  double value;
  gconstpointer object;
} Expect;

enum { EXPECT_OP, EXPECT_FOCUS_IN, EXPECT_TEXT_M, EXPECT_SCALE_ABOVE, EXPECT_WIDTH_BELOW, EXPECT_WIDTH };

static gboolean
expected (gpointer data)
{
  const Expect *e = data;
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (win));

  switch (e->what)
    {
    case EXPECT_OP:
      return zw_selection_get_selected_op (zw_window_get_selection (win)) == e->op;
    case EXPECT_FOCUS_IN:
      return focus != NULL && GTK_IS_TEXT (focus) && gtk_widget_is_ancestor (focus, (GtkWidget *) e->object);
    case EXPECT_TEXT_M:
      return focus != NULL && GTK_IS_EDITABLE (focus) && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (focus)), "m") == 0;
    case EXPECT_SCALE_ABOVE:
      return zw_graph_view_get_viewport ((ZwGraphView *) e->object)->scale > e->value;
    case EXPECT_WIDTH_BELOW:
    case EXPECT_WIDTH:
      {
        const ZwTimingState *st = zw_timing_view_get_state ((ZwTimingView *) e->object);
        return e->what == EXPECT_WIDTH_BELOW ? st->t1 - st->t0 < e->value : fabs (st->t1 - st->t0 - e->value) < 1e-9;
      }
    default:
      return FALSE;
    }
}

static void
expect (int what, gint64 op, double value, gconstpointer object, const char *after)
{
  Expect e = { what, op, value, object };

  if (!zw_test_app_wait_for (expected, &e, 10))
    g_error ("%s did not reach the view shown (focus: %s, selected op %li)", after,
             G_OBJECT_TYPE_NAME (gtk_window_get_focus (GTK_WINDOW (win))),
             (long) zw_selection_get_selected_op (zw_window_get_selection (win)));
}

static GtkWidget *
find_focusable (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_focusable (widget) && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_focusable (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The focus on a check box of the sidebar: not in any view. */
static void
focus_sidebar (void)
{
  GtkWidget *check = find_focusable (zw_window_get_options_panel (win), GTK_TYPE_CHECK_BUTTON);

  g_assert_nonnull (check);
  g_assert_true (gtk_widget_grab_focus (check));
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (win)) == check);
}

static gboolean
graph_laid_out (gpointer data)
{
  return zw_graph_view_get_layout (ZW_GRAPH_VIEW (data)) != NULL;
}

static void
show_view (const char *name)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.view", g_variant_new_string (name)));
  zw_test_app_run_for (150);
}

static void
test_keys_reach_the_view_shown (void)
{
  GtkWidget *graph = zw_window_get_view (win, "graph");
  ZwTimingView *timing = ZW_TIMING_VIEW (zw_window_get_view (win, "timing"));
  ZwSelection *sel = zw_window_get_selection (win);
  ZwDeployReport *report;
  gint64 a, b;

  if (!zw_test_app_xtest_open ())
    {
      g_test_skip ("not an X11 display with XTest: no real key presses");
      return;
    }
  show_view ("graph");
  g_assert_true (zw_test_app_wait_for (graph_laid_out, graph, 60));
  report = zw_selection_get_report (sel);

  /* Ctrl+F with the focus in the sidebar: the graph's search entry takes it */
  focus_sidebar ();
  zw_test_app_press (GDK_KEY_Control_L, GDK_KEY_f);
  expect (EXPECT_FOCUS_IN, 0, 0, graph, "Ctrl+F");
  /* typing goes into the entry, not to the views' keys (m would toggle the minimap) */
  zw_test_app_press (0, GDK_KEY_m);
  expect (EXPECT_TEXT_M, 0, 0, NULL, "m in the search entry");

  /* Alt+Left / Alt+Right walk the selection's history, focus in the sidebar */
  a = g_array_index (report->ops, ZwOpInfo, 3).op_id;
  b = g_array_index (report->ops, ZwOpInfo, 7).op_id;
  zw_selection_set_selected_op (sel, a);
  zw_selection_set_selected_op (sel, b);
  focus_sidebar ();
  zw_test_app_press (GDK_KEY_Alt_L, GDK_KEY_Left);
  expect (EXPECT_OP, a, 0, NULL, "Alt+Left");
  zw_test_app_press (GDK_KEY_Alt_L, GDK_KEY_Right);
  expect (EXPECT_OP, b, 0, NULL, "Alt+Right");

  /* + zooms the graph shown, focus in the sidebar */
  {
    double s0 = zw_graph_view_get_viewport (ZW_GRAPH_VIEW (graph))->scale;
    focus_sidebar ();
    zw_test_app_press (GDK_KEY_Shift_L, GDK_KEY_plus);
    expect (EXPECT_SCALE_ABOVE, 0, s0 * 1.1, graph, "+");
  }

  /* Timing's keys: w zooms in, f fits, the focus in the sidebar */
  show_view ("timing");
  g_assert_nonnull (zw_timing_view_get_profile (timing));
  {
    const ZwTimingState *st = zw_timing_view_get_state (timing);
    double fit;
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timing), "timing.zoom-fit", NULL));
    fit = st->t1 - st->t0;
    g_assert_cmpfloat (fit, >, 0);
    /* zoomed in first: f must change something */
    zw_timing_view_set_range (timing, st->t0, st->t0 + fit / 4);
    g_assert_cmpfloat (st->t1 - st->t0, <, fit * 0.5);
    focus_sidebar ();
    zw_test_app_press (0, GDK_KEY_f);
    expect (EXPECT_WIDTH, 0, fit, timing, "f");
    zw_test_app_press (0, GDK_KEY_w);
    expect (EXPECT_WIDTH_BELOW, 0, fit * 0.9, timing, "w");
  }
  show_view ("graph");
}

static void
save_shot (const char *name)
{
  const char *dir = g_getenv ("ZW_TEST_SHOTS");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  if (!zw_window_save_png (win, path, &error))
    g_test_message ("%s: %s", path, error->message);
}

/* The properties pane shows a value (where it lives). */
static gboolean
properties_say_where (gpointer props)
{
  g_autofree char *text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
  return text != NULL && strstr (text, "Where it lives") != NULL;
}

/* In the workbench the properties pane gives an op its time from the run's forward (a member
 * of a merged launch: its launch's row), and follows a selection made in another view. */
static void
test_properties_show_the_forward_time (void)
{
  GtkWidget *graph = zw_window_get_view (win, "graph");
  GtkWidget *props = zw_graph_view_get_properties (ZW_GRAPH_VIEW (graph));
  ZwSelection *sel = zw_window_get_selection (win);
  ZwDeployReport *report;
  const ZwHardOpInfo *hard;
  g_autofree char *text = NULL;
  int width;

  show_view ("graph");
  g_assert_true (zw_test_app_wait_for (graph_laid_out, graph, 60));
  report = zw_selection_get_report (sel);
  g_assert_cmpuint (report->hardops->len, >, 10);
  hard = &g_array_index (report->hardops, ZwHardOpInfo, 5);
  /* Memory (another view) selects the op */
  zw_selection_select (sel, hard->op_id, -1);
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_mapped, props, 30));
  text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Total (simulated): "));
  g_assert_nonnull (strstr (text, "Hard: "));
  g_assert_null (strstr (text, "no forward yet"));
  if (hard->merged_into >= 0)
    g_assert_nonnull (strstr (text, "Timed with its launch: "));
  save_shot ("graph-properties-op.png");
  g_clear_pointer (&text, g_free);
  width = gtk_widget_get_width (props);

  zw_selection_select (sel, -1, g_array_index (report->values, ZwValueInfo, 20).v_id);
  g_assert_true (zw_test_app_wait_for (properties_say_where, props, 30));
  text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
  g_assert_nonnull (strstr (text, "Where it lives"));
  save_shot ("graph-properties-value.png");
  /* the pane keeps its width from an op to a value: the graph beside it does not move */
  g_assert_cmpint (gtk_widget_get_width (props), ==, width);
  g_assert_cmpint (width, <=, 380);
}

static void
collect_accels (GtkWidget *widget, GHashTable *accels)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *accel = NULL;
      g_object_get (widget, "accelerator", &accel, NULL);
      if (accel != NULL && *accel != '\0')
        {
          guint key = 0;
          GdkModifierType mods = 0;
          g_assert_true (gtk_accelerator_parse (accel, &key, &mods));
          g_hash_table_add (accels, gtk_accelerator_name (key, mods));
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_accels (c, accels);
}

/* Every key the window sends to the view shown is in the shortcuts window with its key, and
 * so are Back and Forward. */
static void
test_shortcuts_window_lists_the_keys (void)
{
  g_autoptr (GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (win));
  GtkWindow *shortcuts = zw_shortcuts_window_new (GTK_WINDOW (win));
  GtkShortcutController *keys = NULL;
  const char *expected[] = { "<Control>f", "<Control>g", "w", "s", "a", "d", "f", "p", "m", "<Alt>Left", "<Alt>Right" };
  guint n_keys;

  collect_accels (GTK_WIDGET (shortcuts), listed);
  gtk_window_destroy (shortcuts);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      guint key = 0;
      GdkModifierType mods = 0;
      g_autofree char *name = NULL;
      g_assert_true (gtk_accelerator_parse (expected[i], &key, &mods));
      name = gtk_accelerator_name (key, mods);
      if (!g_hash_table_contains (listed, name))
        g_error ("the shortcuts window does not list %s", expected[i]);
    }
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && keys == NULL; i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (g_strcmp0 (gtk_event_controller_get_name (c), "zw-view-keys") == 0)
        keys = GTK_SHORTCUT_CONTROLLER (c);
    }
  g_assert_nonnull (keys);
  n_keys = g_list_model_get_n_items (G_LIST_MODEL (keys));
  g_assert_cmpuint (n_keys, >=, 10);
  for (guint i = 0; i < n_keys; i++)
    {
      g_autoptr (GtkShortcut) sc = g_list_model_get_item (G_LIST_MODEL (keys), i);
      GtkShortcutTrigger *t = gtk_shortcut_get_trigger (sc);
      g_autofree char *name = gtk_accelerator_name (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (t)),
                                                    gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (t)));
      if (!g_hash_table_contains (listed, name))
        g_error ("the window sends %s to the views, but the shortcuts window does not list it", name);
    }
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  gtk_window_present (GTK_WINDOW (win));
  if (!zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (1), 120))
    g_error ("no first run after 120 s (banner: %s)", zw_window_get_banner_message (win));

  g_test_add_func ("/app-graph/keys/reach-the-view-shown-without-focusing-it", test_keys_reach_the_view_shown);
  g_test_add_func ("/app-graph/properties/show-the-forward-time", test_properties_show_the_forward_time);
  g_test_add_func ("/app-graph/keys/shortcuts-window-lists-them", test_shortcuts_window_lists_the_keys);

  return zw_test_app_run_and_close ();
}
