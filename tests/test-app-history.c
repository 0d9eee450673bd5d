/* test-app-history — the window's run history (suite "display"): options tried one after
 * another make one row, a forward keeps its own; a row selected shows its run without
 * deploying again, two at most marked for Compare; the newest row in sight, its full text in
 * its tooltip, dumps said in the title, a heading where the network changes; a time profile
 * opened is a run of the history and titles the window. */
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
#include "zw-run-history.h"

static ZwWindow *win;

/* Options tried one after another without a forward make one history row, the latest; a
 * forward keeps its own row, and so does the apply after it (issue 37). */
static void
test_history_applies_coalesce (void)
{
  guint n = zw_test_app_n_runs (), rows;
  gboolean etm;
  ZwRun *first, *second;

  g_object_set (win, "iterations", 1, NULL);
  zw_test_app_activate ("win.run", NULL);
  g_assert_cmpint (zw_run_get_kind (zw_test_app_expect_run (n + 1)), ==, ZW_RUN_FORWARD);
  rows = zw_test_app_history_rows ();
  g_object_get (win, "etm-optimize", &etm, NULL);
  zw_test_app_activate ("win.etm-optimize", NULL);
  first = zw_test_app_expect_run (n + 2);
  /* an apply after a forward: a row of its own */
  g_assert_cmpuint (zw_test_app_history_rows (), ==, rows + 1);
  g_assert_true (zw_test_app_history_last () == first);
  g_assert_cmpint (zw_run_get_kind (first), ==, ZW_RUN_APPLY);
  g_assert_cmpint (zw_run_get_etm_optimize (first), ==, !etm);
  g_assert_cmpuint (zw_run_get_index (first), ==, rows + 1);
  zw_test_app_activate ("win.etm-optimize", NULL);
  second = zw_test_app_expect_run (n + 3);
  /* the next apply takes its place: same row count, same number, the latest options */
  g_assert_cmpuint (zw_test_app_history_rows (), ==, rows + 1);
  g_assert_true (zw_test_app_history_last () == second);
  g_assert_true (zw_window_get_selected_run (win) == second);
  g_assert_cmpint (zw_run_get_etm_optimize (second), ==, etm);
  g_assert_cmpuint (zw_run_get_index (second), ==, rows + 1);
  {
    g_autofree char *title = zw_run_dup_title (second);
    g_autofree char *number = g_strdup_printf ("#%u ", rows + 1);
    g_assert_true (g_str_has_prefix (title, number));
  }
  /* a forward keeps its own row after it */
  zw_test_app_activate ("win.run", NULL);
  g_assert_cmpint (zw_run_get_kind (zw_test_app_expect_run (n + 4)), ==, ZW_RUN_FORWARD);
  g_assert_cmpuint (zw_test_app_history_rows (), ==, rows + 2);
  g_assert_cmpint (zw_run_get_kind (zw_test_app_history_last ()), ==, ZW_RUN_FORWARD);
}

static void
test_history_select_and_compare (void)
{
  g_autoptr (ZwRun) first = NULL, second = NULL, third = NULL;
  g_autoptr (GPtrArray) marked = NULL;
  guint n;

  /* three rows at least: forwards keep a row each */
  while (zw_test_app_history_rows () < 3)
    {
      zw_test_app_activate ("win.run", NULL);
      zw_test_app_expect_run (zw_test_app_n_runs () + 1);
    }
  first = g_list_model_get_item (zw_window_get_runs (win), 0);
  second = g_list_model_get_item (zw_window_get_runs (win), 1);
  third = g_list_model_get_item (zw_window_get_runs (win), 2);
  n = zw_test_app_n_runs ();

  g_assert_cmpuint (n, >=, 3);
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (0));
  g_assert_true (zw_window_get_selected_run (win) == first);
  g_assert_true (zw_selection_get_report (zw_window_get_selection (win)) == zw_run_get_report (first));
  /* selecting shows a run; it does not deploy anything again */
  zw_test_app_wait_for_frames (NULL);
  g_assert_false (zw_window_get_busy (win));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);

  zw_test_app_activate ("win.toggle-compare", g_variant_new_uint32 (0));
  zw_test_app_activate ("win.toggle-compare", g_variant_new_uint32 (1));
  zw_test_app_activate ("win.toggle-compare", g_variant_new_uint32 (2));
  marked = zw_window_get_compare_runs (win);
  /* two at most: the first mark went */
  g_assert_cmpuint (marked->len, ==, 2);
  g_assert_true (g_ptr_array_index (marked, 0) == second);
  g_assert_true (g_ptr_array_index (marked, 1) == third);
  g_assert_false (zw_run_get_compare (first));
  zw_test_app_activate ("win.toggle-compare", g_variant_new_uint32 (1));
  g_clear_pointer (&marked, g_ptr_array_unref);
  marked = zw_window_get_compare_runs (win);
  g_assert_cmpuint (marked->len, ==, 1);
  g_assert_true (g_ptr_array_index (marked, 0) == third);

  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (zw_test_app_history_rows () - 1));
}

/* Labels under @widget that are drawn: their texts, and the tooltips of widgets with one. */
static void
collect_texts (GtkWidget *widget, const char *css_class, GPtrArray *labels, GPtrArray *tooltips)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) && (css_class == NULL || gtk_widget_has_css_class (widget, css_class)))
    g_ptr_array_add (labels, g_strdup (gtk_label_get_text (GTK_LABEL (widget))));
  if (tooltips != NULL && gtk_widget_get_tooltip_text (widget) != NULL)
    g_ptr_array_add (tooltips, g_strdup (gtk_widget_get_tooltip_text (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_texts (c, css_class, labels, tooltips);
}

static void
test_history_usability (void)
{
  g_autofree char *tiny = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  GtkWidget *history = zw_window_get_history (win);
  GtkWidget *scroller = zw_run_history_get_scroller (ZW_RUN_HISTORY (history));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_autoptr (GPtrArray) headings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) tooltips = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = NULL;
  guint n = zw_test_app_n_runs ();
  ZwRun *run;

  /* a second network after the first: its runs under a heading of their own */
  zw_test_app_activate ("win.open-file", g_variant_new_string (tiny));
  run = zw_test_app_expect_run (++n);
  g_assert_cmpstr (zw_run_get_network_name (run), ==, "tiny");
  /* a dump run says it is one */
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  run = zw_test_app_expect_run (++n);
  title = zw_run_dup_title (run);
  g_assert_nonnull (strstr (title, "dump"));
  for (guint i = 0; i < 6; i++)
    {
      zw_test_app_activate ("win.apply", NULL);
      zw_test_app_expect_run (++n);
    }
  zw_test_app_wait_for_frames (NULL);
  zw_test_app_wait_for_frames (NULL);
  /* the newest run is in sight, and more than five rows are */
  g_test_message ("history: value %.0f page %.0f upper %.0f, height %d", gtk_adjustment_get_value (adj),
                  gtk_adjustment_get_page_size (adj), gtk_adjustment_get_upper (adj), gtk_widget_get_height (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj), >=,
                     gtk_adjustment_get_upper (adj) - 1);
  collect_texts (scroller, "heading", titles, tooltips);
  g_assert_cmpuint (titles->len, >, 5);
  {
    g_autofree char *newest = zw_run_dup_title (zw_window_get_selected_run (win));
    g_assert_true (zw_test_texts_contain (titles, newest));
    /* the full text of a row in its tooltip: title, options, figures */
    g_assert_true (zw_test_texts_contain (tooltips, newest));
    g_assert_true (zw_test_texts_contain (tooltips, "FTMP"));
  }
  /* the network heading where the network changes */
  collect_texts (scroller, "caption-heading", headings, NULL);
  g_assert_true (zw_test_texts_contain (headings, "tiny"));
  /* the tests after this one work on the demo */
  zw_test_app_activate ("win.open-demo", NULL);
  zw_test_app_expect_run (++n);
}

static void
test_profile_in_history (void)
{
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  const char *title;
  guint n = zw_test_app_n_runs (), rows = zw_test_app_history_rows ();
  ZwRun *run;

  if (path == NULL)
    {
      g_test_skip ("the vendor time file (ZW_SHARED_DIR/real) is absent");
      return;
    }
  zw_test_app_activate ("win.open-file", g_variant_new_string (path));
  run = zw_test_app_expect_run (n + 1);
  g_assert_cmpint (zw_run_get_kind (run), ==, ZW_RUN_PROFILE);
  g_assert_nonnull (zw_run_get_profile (run));
  title = gtk_window_get_title (GTK_WINDOW (win));
  g_test_message ("title: %s", title);
  g_assert_nonnull (strstr (title, "bytetrack_BY_int8_time.txt"));
  /* the tests after this one work on the demo's last run */
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (rows - 1));
  g_assert_cmpint (zw_run_get_kind (zw_window_get_selected_run (win)), !=, ZW_RUN_PROFILE);
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/history/applies-coalesce-forwards-keep-a-row", test_history_applies_coalesce);
  g_test_add_func ("/app/history/select-and-compare-two", test_history_select_and_compare);
  g_test_add_func ("/app/history/tooltip-newest-in-sight-dump-marked-grouped", test_history_usability);
  g_test_add_func ("/app/history/time-profile-is-a-run-and-titles-the-window", test_profile_in_history);

  return zw_test_app_run_and_close ();
}
