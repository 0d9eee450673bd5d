/* test-app-layout — nothing moves under the pointer (suite "display", issue 37 item 8): the
 * views and the sidebar's controls keep their place (their bounds in the window) while an
 * apply runs and ends, while an error banner shows and closes, and while the Tensors view's
 * hover readout changes; a short apply shows no progress strip at all. And nothing goes
 * stale unsaid (item 9): the Compiles view marks a comparison whose options changed since,
 * and its Refresh compares again with the options of now. */
#include <gtk/gtk.h>
#include <string.h>

#include "zw-application.h"
#include "zw-compile-compare-view.h"
#include "zw-draw-area.h"
#include "zw-tensor-view.h"
#include "zw-view.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"

static ZwWindow *win;

/* The view shown has been laid out (a loaded machine may take more than a few frames). */
static gboolean
view_laid_out (gpointer data)
{
  g_autofree char *name = NULL;

  (void) data;
  g_object_get (win, "view", &name, NULL);
  return gtk_widget_get_width (zw_window_get_view (win, name)) > 0;
}

/* Lets the window lay out what changed (a few frames, and the view shown has its size). */
static void
settle (void)
{
  zw_test_app_run_for (150);
  g_assert_true (zw_test_app_wait_for (view_laid_out, NULL, 10));
}

/* The window's run progress (a view's own progress bars, e.g. Dump Diff's, are not it). */
static GtkWidget *
find_run_progress (GtkWidget *widget)
{
  if (GTK_IS_PROGRESS_BAR (widget))
    return widget;
  if (ZW_IS_VIEW (widget))
    return NULL;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_run_progress (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The places that must not move: the view shown, the options panel, the history. */
typedef struct {
  graphene_rect_t view, options, history;
} Places;

static void
read_places (Places *p)
{
  g_autofree char *name = NULL;
  GtkWidget *view;

  g_object_get (win, "view", &name, NULL);
  view = zw_window_get_view (win, name);

  g_assert_true (gtk_widget_compute_bounds (view, GTK_WIDGET (win), &p->view));
  g_assert_true (gtk_widget_compute_bounds (zw_window_get_options_panel (win), GTK_WIDGET (win), &p->options));
  g_assert_true (gtk_widget_compute_bounds (zw_window_get_history (win), GTK_WIDGET (win), &p->history));
}

static void
assert_rect_equal (const graphene_rect_t *a, const graphene_rect_t *b, const char *what)
{
  if (!graphene_rect_equal (a, b))
    g_error ("%s moved: (%g, %g, %g x %g) became (%g, %g, %g x %g)", what, a->origin.x, a->origin.y, a->size.width,
             a->size.height, b->origin.x, b->origin.y, b->size.width, b->size.height);
}

static void
assert_places_equal (const Places *a, const Places *b, const char *when)
{
  g_autofree char *view = g_strdup_printf ("the view (%s)", when);
  g_autofree char *options = g_strdup_printf ("the options (%s)", when);
  g_autofree char *history = g_strdup_printf ("the history (%s)", when);

  assert_rect_equal (&a->view, &b->view, view);
  assert_rect_equal (&a->options, &b->options, options);
  assert_rect_equal (&a->history, &b->history, history);
}

static void
test_apply_moves_nothing_and_short_apply_shows_no_progress (void)
{
  Places before, during, after;
  GtkWidget *progress = find_run_progress (GTK_WIDGET (win));
  guint n = zw_test_app_n_runs ();
  guint samples = 0;
  gint64 start;

  g_assert_nonnull (progress);
  zw_test_app_activate ("win.view", g_variant_new_string ("graph"));
  settle ();
  read_places (&before);
  start = g_get_monotonic_time ();
  zw_test_app_activate ("win.merge-hardop", NULL);   /* an option changed: the window applies */
  while (!zw_test_app_is_idle_with_runs (GUINT_TO_POINTER (n + 1)) && g_get_monotonic_time () - start < 120 * G_USEC_PER_SEC)
    {
      g_main_context_iteration (NULL, FALSE);
      read_places (&during);
      assert_places_equal (&before, &during, "during an apply");
      /* no strip flashes in the first part of a run (a short apply shows none) */
      if (g_get_monotonic_time () - start < (ZW_WINDOW_PROGRESS_DELAY_MS - 50) * 1000)
        g_assert_false (gtk_widget_get_mapped (progress));
      samples++;
    }
  zw_test_app_wait_for_run (n + 1);
  g_assert_cmpuint (samples, >, 0);
  settle ();
  g_assert_false (gtk_widget_get_mapped (progress));
  read_places (&after);
  assert_places_equal (&before, &after, "after an apply");
}

static void
test_long_run_progress_overlays (void)
{
  Places before, during;
  GtkWidget *progress = find_run_progress (GTK_WIDGET (win));
  guint n = zw_test_app_n_runs ();
  gboolean shown = FALSE;
  gint64 start;

  settle ();
  read_places (&before);
  /* many forwards: a run that lasts; its progress shows once it has lasted, over the content */
  g_object_set (win, "iterations", 400u, NULL);
  start = g_get_monotonic_time ();
  zw_test_app_activate ("win.run", NULL);
  while (!zw_test_app_is_idle_with_runs (GUINT_TO_POINTER (n + 1)) && g_get_monotonic_time () - start < 120 * G_USEC_PER_SEC)
    {
      g_main_context_iteration (NULL, FALSE);
      if (gtk_widget_get_mapped (progress))
        {
          shown = TRUE;
          g_assert_cmpint (g_get_monotonic_time () - start, >=, ZW_WINDOW_PROGRESS_DELAY_MS * 1000);
        }
      read_places (&during);
      assert_places_equal (&before, &during, "during a long run");
    }
  zw_test_app_wait_for_run (n + 1);
  g_object_set (win, "iterations", 1u, NULL);
  if (g_get_monotonic_time () - start > 2 * ZW_WINDOW_PROGRESS_DELAY_MS * 1000)
    g_assert_true (shown);
  else
    g_test_message ("the forwards took under %d ms: the strip had no need to show", 2 * ZW_WINDOW_PROGRESS_DELAY_MS);
}

static void
test_error_banner_moves_nothing (void)
{
  Places before, with_banner, after;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "zw-layout-missing-network.json", NULL);

  settle ();
  read_places (&before);
  zw_window_open (win, path, FALSE);
  zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (0), 30);
  g_assert_nonnull (zw_window_get_banner_message (win));
  settle ();
  read_places (&with_banner);
  assert_places_equal (&before, &with_banner, "with an error banner");
  zw_test_app_activate ("win.dismiss-banner", NULL);
  g_assert_null (zw_window_get_banner_message (win));
  settle ();
  read_places (&after);
  assert_places_equal (&before, &after, "after the banner closed");
}

static gboolean
tensor_loaded (gpointer data)
{
  return zw_tensor_view_get_n_values (data) > 0 && !zw_window_get_busy (win);
}

static void
test_tensor_hover_keeps_heatmap (void)
{
  ZwTensorView *tensors = ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
  GtkWidget *area = zw_test_app_find_child_of_type (GTK_WIDGET (tensors), ZW_TYPE_DRAW_AREA);
  graphene_rect_t before, hovered, left;
  Places places_before, places_after;
  const gint64 coords[4] = { 0, 0, 0, 0 };
  g_autofree char *text = NULL;
  guint n = zw_test_app_n_runs ();

  g_assert_nonnull (area);
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  zw_test_app_wait_for_run (n + 1);
  g_assert_true (zw_test_app_wait_for (tensor_loaded, tensors, 60));
  zw_test_app_activate ("win.view", g_variant_new_string ("tensors"));
  /* a value shown: the one selected, else the first value id the dump holds */
  for (gint64 v = 0; v < 1000 && zw_tensor_view_get_tensor (tensors) == NULL; v++)
    zw_tensor_view_select_value (tensors, v);
  settle ();
  g_assert_nonnull (zw_tensor_view_get_tensor (tensors));
  read_places (&places_before);
  g_assert_true (gtk_widget_compute_bounds (area, GTK_WIDGET (win), &before));
  g_assert_true (zw_tensor_view_set_hover (tensors, coords, &text));
  g_assert_nonnull (text);
  g_assert_cmpuint (strlen (text), >, 0);
  settle ();
  g_assert_true (gtk_widget_compute_bounds (area, GTK_WIDGET (win), &hovered));
  assert_rect_equal (&before, &hovered, "the heatmap (hovered)");
  g_assert_false (zw_tensor_view_set_hover (tensors, NULL, NULL));
  settle ();
  g_assert_true (gtk_widget_compute_bounds (area, GTK_WIDGET (win), &left));
  assert_rect_equal (&before, &left, "the heatmap (hover left)");
  read_places (&places_after);
  assert_rect_equal (&places_before.options, &places_after.options, "the options (hover)");
}


static gboolean
compiles_shown (gpointer data)
{
  return zw_compile_compare_view_get_compare (data) != NULL && !zw_window_get_busy (win);
}

/* The Compiles view shows a comparison whose A has merge @data. */
static gboolean
compiles_with_merge (gpointer data)
{
  ZwCompileCompareView *view = ZW_COMPILE_COMPARE_VIEW (zw_window_get_view (win, "compiles"));
  const ZwCompileCompare *now = zw_compile_compare_view_get_compare (view);

  return now != NULL && now->a.merge_hardop == GPOINTER_TO_INT (data) && !zw_window_get_busy (win);
}

static void
test_compiles_stale_marker_and_refresh (void)
{
  ZwCompileCompareView *view = ZW_COMPILE_COMPARE_VIEW (zw_window_get_view (win, "compiles"));
  g_autofree char *demo = zw_window_find_demo ();
  gboolean merge;

  g_assert_nonnull (demo);
  zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (0), 60);
  zw_compile_compare_view_take_compare (view, NULL);
  zw_window_compare_compile (win, demo);
  g_assert_true (zw_test_app_wait_for (compiles_shown, view, 120));
  g_assert_null (zw_compile_compare_view_get_stale (view));
  g_object_get (win, "merge-hardop", &merge, NULL);
  g_assert_cmpint (zw_compile_compare_view_get_compare (view)->a.merge_hardop, ==, merge);

  /* an option changed: the comparison says it is stale, and what changed */
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (0), 60);
  g_assert_nonnull (zw_compile_compare_view_get_stale (view));
  g_assert_nonnull (strstr (zw_compile_compare_view_get_stale (view), merge ? "merge off" : "merge on"));

  /* Refresh: compared again with the options of now, current again */
  zw_test_app_activate ("win.refresh-compiles", NULL);
  g_assert_true (zw_test_app_wait_for (compiles_with_merge, GINT_TO_POINTER (!merge), 120));
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (0), 60));
  g_assert_null (zw_compile_compare_view_get_stale (view));
  g_assert_cmpint (zw_compile_compare_view_get_compare (view)->a.merge_hardop, ==, !merge);

  /* back to the options it was compared with: current, no marker */
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (0), 60);
  g_assert_nonnull (zw_compile_compare_view_get_stale (view));
  zw_test_app_activate ("win.merge-hardop", NULL);
  zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (0), 60);
  g_assert_null (zw_compile_compare_view_get_stale (view));
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  gtk_window_present (GTK_WINDOW (win));
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app-layout/apply/moves-nothing-short-apply-shows-no-progress",
                   test_apply_moves_nothing_and_short_apply_shows_no_progress);
  g_test_add_func ("/app-layout/run/long-run-progress-lies-over-the-content", test_long_run_progress_overlays);
  g_test_add_func ("/app-layout/banner/error-banner-moves-nothing", test_error_banner_moves_nothing);
  g_test_add_func ("/app-layout/tensors/hover-readout-keeps-heatmap", test_tensor_hover_keeps_heatmap);
  g_test_add_func ("/app-layout/compiles/stale-marker-and-refresh", test_compiles_stale_marker_and_refresh);

  return zw_test_app_run_and_close ();
}
