/* test-run-views-widgets.c — the run views' widgets realised in a window (suite display, under
 * Xvfb): Timing, Compare, Tensors, Dump Diff and Logs on one forward of the tiny demo and its
 * dumps; sorting, zoom, selection into the shared selection, scrolling, searching, a diff of
 * two dump folders, and their exports (PNG, CSV) from the widgets. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "report/zw-deploy-graph.h"
#include "report/zw-dump-diff.h"
#include "zw-compare-view.h"
#include "zw-dump-diff-view.h"
#include "zw-export.h"
#include "zw-log-view.h"
#include "zw-selection.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean have_display;

static gboolean
all_drawn (gpointer data)
{
  GtkWidget **views = data;
  for (guint i = 0; views[i] != NULL; i++)
    if (!gtk_widget_get_mapped (views[i]) || gtk_widget_get_width (views[i]) <= 0)
      return FALSE;
  return zw_timing_view_get_n_rebuilds (ZW_TIMING_VIEW (views[0])) > 0;
}

static gboolean
count_frame (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  (void) widget;
  (void) clock;
  ++*(guint *) data;
  return G_SOURCE_CONTINUE;
}

static gboolean
frames_seen (gpointer data)
{
  return ((guint *) data)[0] >= ((guint *) data)[1];
}

/* Waits (bounded) until @widget has seen @n frames. */
static void
wait_frames (GtkWidget *widget, guint n)
{
  guint state[2] = { 0, n };
  guint id = gtk_widget_add_tick_callback (widget, count_frame, state, NULL);
  gtk_widget_queue_resize (widget);
  zw_test_wait_until (frames_seen, state);
  gtk_widget_remove_tick_callback (widget, id);
}

static gboolean
adj_scrolled (gpointer data)
{
  return gtk_adjustment_get_value (data) > gtk_adjustment_get_lower (data);
}

static gboolean
adj_at_top (gpointer data)
{
  return gtk_adjustment_get_value (data) == gtk_adjustment_get_lower (data);
}

static GtkWidget *
find_scrolled (GtkWidget *w)
{
  if (GTK_IS_SCROLLED_WINDOW (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_scrolled (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_column_view (GtkWidget *w)
{
  if (GTK_IS_COLUMN_VIEW (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_column_view (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_display_widgets (void)
{
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwSelection) sel = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) root = NULL;
  g_autofree char *da = NULL, *db = NULL;
  GtkWidget *window, *grid, *views[6];
  ZwTestForward r;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  net = zw_test_load_net ("tiny");
  root = zw_test_tmp_dir_new ("run-views-display-XXXXXX");
  da = g_build_filename (root, "a", NULL);
  db = g_build_filename (root, "b", NULL);
  r = zw_test_forward (net, FALSE, da, "SQB");
  zw_deploy_report_attach_network (r.report, net);   /* as the workbench does: ops know their values */
  sel = zw_selection_new ();
  zw_selection_set_report (sel, r.report);

  window = gtk_window_new ();
  grid = gtk_grid_new ();
  views[0] = zw_timing_view_new (sel);
  views[1] = zw_compare_view_new (sel);
  views[2] = zw_tensor_view_new (sel);
  views[3] = zw_dump_diff_view_new (sel);
  views[4] = zw_log_view_new ();
  views[5] = NULL;
  for (guint i = 0; i < 5; i++)
    {
      gtk_widget_set_hexpand (views[i], TRUE);
      gtk_widget_set_vexpand (views[i], TRUE);
      gtk_grid_attach (GTK_GRID (grid), views[i], (int) i % 2, (int) i / 2, 1, 1);
    }
  gtk_window_set_child (GTK_WINDOW (window), grid);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);

  zw_timing_view_set_profile (ZW_TIMING_VIEW (views[0]), r.profile);
  zw_compare_view_set_profiles (ZW_COMPARE_VIEW (views[1]), r.profile, r.profile, NULL, "run 1", "run 2");
  zw_compare_view_set_reports (ZW_COMPARE_VIEW (views[1]), r.report, r.report);
  zw_log_view_set_text (ZW_LOG_VIEW (views[4]), "apply ok\nOCM picks: 3\nforward ocm done\nbye\n", "t.log");
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (zw_test_wait_until (all_drawn, views));

  /* timing: sorting by a header, zoom actions, row selection into the shared selection */
  {
    ZwTimingView *tv = ZW_TIMING_VIEW (views[0]);
    g_autofree guint *order = NULL;
    guint n, rebuilds;
    const ZwProfile *p = zw_timing_view_get_profile (tv);
    double w0;

    g_assert_true (zw_timing_view_sort_by (tv, 3 /* total */, TRUE));
    order = zw_timing_view_get_table_order (tv, &n);
    g_assert_cmpuint (n, ==, p->rows->len);
    for (guint i = 1; i < n; i++)
      g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (p->rows, order[i - 1]))->total_ms, >=,
                         ((ZwProfileRow *) g_ptr_array_index (p->rows, order[i]))->total_ms);
    g_clear_pointer (&order, g_free);
    g_assert_true (zw_timing_view_sort_by (tv, 0 /* op_id */, FALSE));
    order = zw_timing_view_get_table_order (tv, &n);
    for (guint i = 1; i < n; i++)
      g_assert_cmpint (((ZwProfileRow *) g_ptr_array_index (p->rows, order[i - 1]))->op_id, <=,
                       ((ZwProfileRow *) g_ptr_array_index (p->rows, order[i]))->op_id);

    w0 = zw_timing_view_get_state (tv)->t1 - zw_timing_view_get_state (tv)->t0;
    g_assert_true (gtk_widget_activate_action (views[0], "timing.zoom-in", NULL));
    g_assert_cmpfloat (zw_timing_view_get_state (tv)->t1 - zw_timing_view_get_state (tv)->t0, <, w0 * 0.9);
    g_assert_true (gtk_widget_activate_action (views[0], "timing.pan-right", NULL));
    g_assert_cmpfloat (zw_timing_view_get_state (tv)->t0, >, 0);
    g_assert_true (gtk_widget_activate_action (views[0], "timing.zoom-fit", NULL));
    g_assert_cmpfloat (zw_timing_view_get_state (tv)->t0, ==, 0);
    g_assert_cmpfloat_with_epsilon (zw_timing_view_get_state (tv)->t1 - zw_timing_view_get_state (tv)->t0, w0, 1e-9);

    for (guint i = 0; i < p->rows->len; i++)
      if (zw_timing_row_lane (g_ptr_array_index (p->rows, i)) == ZW_TIMING_LANE_NPU)
        {
          zw_timing_view_select_row (tv, (gint) i);
          g_assert_cmpint (zw_selection_get_selected_op (sel), ==,
                           ((ZwProfileRow *) g_ptr_array_index (p->rows, i))->op_id);
          break;
        }

    /* the selected op's values are one click away: a button each, a click selects it */
    {
      const ZwOpInfo *op = zw_deploy_report_find_op (r.report, zw_selection_get_selected_op (sel));
      GtkWidget *bar = zw_timing_view_get_values_bar (tv), *button = NULL;
      guint n_buttons = 0;
      gint64 v_id;
      g_assert_nonnull (op);
      g_assert_nonnull (op->outputs);
      for (GtkWidget *c = gtk_widget_get_first_child (bar); c != NULL; c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_BUTTON (c))
          {
            n_buttons++;
            button = c;   /* the last: an output */
          }
      g_assert_cmpuint (n_buttons, ==, op->inputs->len + op->outputs->len);
      v_id = g_array_index (op->outputs, gint64, op->outputs->len - 1);
      g_assert_nonnull (strstr (gtk_button_get_label (GTK_BUTTON (button)), "out"));
      g_signal_emit_by_name (button, "clicked");
      g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v_id);
      g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));
    }

    /* the Name column shows layer names, never the vendor's "icraft::" class path */
    {
      g_autoptr (GPtrArray) table = zw_timing_view_table (tv);
      for (guint i = 1; i < table->len; i++)
        g_assert_null (strstr (((char **) g_ptr_array_index (table, i))[2], "icraft::"));
    }

    /* after a sort the list shows its top */
    {
      GtkWidget *cv = find_column_view (views[0]);
      GtkAdjustment *adj = NULL;
      g_assert_nonnull (cv);
      adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (cv));
      /* scrolled down a little first, as a user would (once the list has laid out its rows) */
      wait_frames (cv, 3);
      g_assert_cmpfloat (gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj), >, 1);
      gtk_adjustment_set_value (adj, MIN (40.0, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj)));
      g_assert_true (zw_test_wait_until (adj_scrolled, adj));
      g_assert_true (zw_timing_view_sort_by (tv, 3 /* total */, FALSE));
      g_assert_true (zw_test_wait_until (adj_at_top, adj));
      /* the whole header cell sorts: a click at the right end of the Total cell, far from
       * its label, sorts by total — the first click largest first, as profilers do (issue
       * 37) — and again flips the order */
      g_assert_true (zw_timing_view_sort_by (tv, 0 /* op_id */, FALSE));
      {
        GtkWidget *header = gtk_widget_get_first_child (cv), *title = gtk_widget_get_first_child (header);
        graphene_rect_t b;
        g_autofree guint *o1 = NULL, *o2 = NULL;
        for (int k = 0; k < 3; k++)
          title = gtk_widget_get_next_sibling (title);   /* column 3: Total */
        g_assert_true (gtk_widget_compute_bounds (title, header, &b));
        g_assert_cmpint (zw_timing_view_click_header (tv, b.origin.x + b.size.width - 2), ==, 3);
        o1 = zw_timing_view_get_table_order (tv, &n);
        for (guint i = 1; i < n; i++)
          g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (p->rows, o1[i - 1]))->total_ms, >=,
                             ((ZwProfileRow *) g_ptr_array_index (p->rows, o1[i]))->total_ms);
        g_assert_cmpint (zw_timing_view_click_header (tv, b.origin.x + 2), ==, 3);
        o2 = zw_timing_view_get_table_order (tv, &n);
        for (guint i = 1; i < n; i++)
          g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (p->rows, o2[i - 1]))->total_ms, <=,
                             ((ZwProfileRow *) g_ptr_array_index (p->rows, o2[i]))->total_ms);
      }
      g_assert_true (zw_timing_view_sort_by (tv, 0 /* op_id, as the export check below expects */, FALSE));
    }

    /* the cached node is reused when nothing but the hover changes */
    zw_test_wait_until (all_drawn, views);
    for (int i = 0; i < 20; i++)
      g_main_context_iteration (NULL, FALSE);
    rebuilds = zw_timing_view_get_n_rebuilds (tv);
    gtk_widget_queue_draw (views[0]);
    for (int i = 0; i < 20; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (zw_timing_view_get_n_rebuilds (tv), <=, rebuilds + 1);

    /* the table to CSV and back */
    {
      g_autofree char *csv = g_build_filename (root, "timing.csv", NULL);
      g_autofree char *text = NULL;
      g_autoptr (GPtrArray) rows = NULL;
      g_assert_true (zw_export_view_csv (views[0], csv, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
      rows = zw_export_csv_parse (text, csv, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, p->rows->len + 1);
      g_assert_cmpuint (g_strv_length (g_ptr_array_index (rows, 1)), ==, 12);
      g_assert_cmpuint (g_strv_length (g_ptr_array_index (rows, 0)), ==, 12);
      {
        g_autofree char *first = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                  ((ZwProfileRow *) g_ptr_array_index (p->rows, order[0]))->op_id);
        g_assert_cmpstr (((char **) g_ptr_array_index (rows, 1))[0], ==, first);
      }
      g_unlink (csv);
    }
  }

  /* tensor inspector: a folder with one truncated file */
  {
    ZwTensorView *tv = ZW_TENSOR_VIEW (views[2]);
    g_autoptr (ZwDumpManifest) m = NULL;
    g_autofree char *mpath = g_build_filename (da, "manifest.json", NULL);
    const ZwDumpManifestEntry *bad = NULL, *good = NULL;
    g_autofree char *hover = NULL;
    gint64 coords[4] = { 0, 0, 0, 0 };

    zw_test_copy_folder (da, db);
    m = zw_dump_manifest_load (mpath, NULL, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < m->entries->len; i++)
      {
        const ZwDumpManifestEntry *e = g_ptr_array_index (m->entries, i);
        if (e->type.rank >= 4 && bad == NULL)
          bad = e;
        else if (e->type.rank >= 4 && e->type.quantized && good == NULL)
          good = e;
      }
    g_assert_nonnull (bad);
    g_assert_nonnull (good);
    {
      g_autofree char *f = g_build_filename (db, bad->file, NULL);
      g_assert_true (g_file_set_contents (f, "xyz", 3, NULL));
    }
    g_assert_true (zw_tensor_view_load_folder (tv, db, net, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (zw_tensor_view_get_messages (tv)->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (zw_tensor_view_get_messages (tv), 0), bad->file));
    g_assert_cmpuint (zw_tensor_view_get_n_values (tv), ==, m->entries->len - 1);
    g_assert_true (zw_tensor_view_select_value (tv, good->type.v_id));
    g_assert_nonnull (zw_tensor_view_get_stats (tv));
    g_assert_cmpint (zw_selection_get_selected_value (sel), ==, good->type.v_id);
    zw_tensor_view_set_quantized (tv, TRUE);
    g_assert_true (zw_tensor_view_set_hover (tv, coords, &hover));
    g_assert_nonnull (strstr (hover, "(n 0, c 0, h 0, w 0)"));
    g_assert_false (zw_tensor_view_select_value (tv, bad->type.v_id));
    /* a value selected elsewhere is selected here */
    zw_selection_set_selected_value (sel, good->type.v_id);
    g_assert_cmpint (zw_tensor_view_get_selected_value (tv), ==, good->type.v_id);
  }

  /* dump diff: a against the damaged copy */
  {
    ZwDumpDiffView *dv = ZW_DUMP_DIFF_VIEW (views[3]);
    g_assert_true (zw_dump_diff_view_load (dv, da, db, net, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (zw_dump_diff_view_get_diff (dv)->warnings->len, >=, 1);
    /* the selected row opens its heatmaps, the two folders named */
    {
      const ZwDumpDiff *d = zw_dump_diff_view_get_diff (dv);
      ZwDumpDiffHeatmaps hm;
      zw_dump_diff_view_get_heatmaps (dv, &hm);
      g_assert_cmpstr (hm.name_a, ==, da);
      g_assert_cmpstr (hm.name_b, ==, db);
      for (guint i = 0; i < d->entries->len; i++)
        {
          const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
          if (e->status != ZW_DUMP_DIFF_COMPARED)
            continue;
          zw_dump_diff_view_select_value (dv, e->v_id);
          zw_dump_diff_view_get_heatmaps (dv, &hm);
          g_assert_true (hm.entry == e);
          g_assert_nonnull (hm.a);
          g_assert_nonnull (hm.b);
          g_assert_cmpint (hm.a->v_id, ==, e->v_id);
          break;
        }
    }
    /* a value selected in another view scrolls its row into sight */
    {
      const ZwDumpDiff *d = zw_dump_diff_view_get_diff (dv);
      const ZwDumpDiffEntry *last = NULL;
      GtkWidget *area_sw = NULL;
      GtkAdjustment *adj;
      double y0, y1;
      for (guint i = 0; i < d->entries->len; i++)
        {
          const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
          if (zw_deploy_report_find_value (r.report, e->v_id) != NULL)
            last = e;
        }
      g_assert_nonnull (last);
      area_sw = find_scrolled (GTK_WIDGET (dv));
      g_assert_nonnull (area_sw);
      adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (area_sw));
      wait_frames (area_sw, 3);
      gtk_adjustment_set_value (adj, gtk_adjustment_get_lower (adj));
      zw_selection_set_selected_value (sel, last->v_id);
      g_assert_cmpint (zw_dump_diff_view_get_selected_value (dv), ==, last->v_id);
      g_assert_true (zw_dump_diff_view_row_extent (d, last->v_id, &y0, &y1));
      g_test_message ("dump diff: row %g..%g, view %g..%g", y0, y1, gtk_adjustment_get_value (adj),
                      gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj));
      g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >=, y1);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), <=, y0);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj), >=, y1);
    }
  }

  /* compare, a row table: a row selected gives the shared selection its op; the selection's
   * op selects its row; an op it does not show, or a row out of range, selects none */
  {
    ZwCompareView *cv = ZW_COMPARE_VIEW (views[1]);
    const ZwProfileCompare *cmp = zw_compare_view_get_compare (cv);
    const ZwCompareRow *first, *third;

    g_assert_nonnull (cmp);
    g_assert_cmpuint (cmp->rows->len, >=, 3);
    first = g_ptr_array_index (cmp->rows, 0);
    third = g_ptr_array_index (cmp->rows, 2);
    zw_compare_view_select_row (cv, 2);
    g_assert_cmpint (zw_row_table_get_selected_row (ZW_ROW_TABLE (cv)), ==, 2);
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, third->op_id);
    zw_selection_set_selected_op (sel, first->op_id);
    g_assert_cmpint (zw_row_table_get_selected_row (ZW_ROW_TABLE (cv)), ==, 0);
    g_assert_cmpint (zw_row_table_find_row (ZW_ROW_TABLE (cv), third->op_id), ==, 2);
    g_assert_cmpint (zw_row_table_find_row (ZW_ROW_TABLE (cv), G_MAXINT64), ==, -1);
    zw_compare_view_select_row (cv, (gint) cmp->rows->len);
    g_assert_cmpint (zw_row_table_get_selected_row (ZW_ROW_TABLE (cv)), ==, -1);
    /* the selection did not move: a row cleared here is not sent */
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, first->op_id);
  }

  /* log: search, next and previous wrap */
  {
    ZwLogView *lv = ZW_LOG_VIEW (views[4]);
    g_assert_cmpuint (zw_log_view_search (lv, "ocm"), ==, 2);
    g_assert_cmpint (zw_log_view_get_current_line (lv), ==, 1);
    g_assert_cmpint (zw_log_view_next_match (lv), ==, 1);
    g_assert_cmpint (zw_log_view_get_current_line (lv), ==, 2);
    g_assert_cmpint (zw_log_view_next_match (lv), ==, 0);
    g_assert_cmpint (zw_log_view_previous_match (lv), ==, 1);
    g_assert_cmpuint (zw_log_view_search (lv, "nothing here"), ==, 0);
    g_assert_cmpint (zw_log_view_next_match (lv), ==, -1);
    zw_log_view_search (lv, "ocm");
  }

  /* every view exports through its widget */
  for (guint i = 0; i < 5; i++)
    {
      static const char *ext[] = { "png", "svg", "pdf" };
      for (guint f = 0; f < 3; f++)
        {
          g_autofree char *path = g_strdup_printf ("%s/view%u.%s", root, i, ext[f]);
          g_autofree char *contents = NULL;
          gsize len;
          g_assert_true (zw_export_view (views[i], 800, 600, path, &error));
          g_assert_no_error (error);
          g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
          g_assert_cmpuint (len, >, 400);
          if (f == 0)
            {
              cairo_surface_t *s = cairo_image_surface_create_from_png (path);
              g_assert_cmpint (cairo_image_surface_get_width (s), ==, 800);
              if (g_getenv ("ZW_RUN_VIEWS_KEEP") != NULL)
                {
                  g_autofree char *name = g_strdup_printf ("widget%u.png", i);
                  zw_test_keep_png (s, name);
                }
              cairo_surface_destroy (s);
            }
          g_unlink (path);
        }
    }
  {
    g_autofree char *path = g_build_filename (root, "bad.png", NULL);
    g_assert_false (zw_export_view (grid, 10, 10, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (zw_export_view_csv (views[4], path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  zw_test_forward_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  have_display = gtk_init_check ();

  g_test_add_func ("/run-views/display/widgets-realise-and-interact", test_display_widgets);
  return g_test_run ();
}
