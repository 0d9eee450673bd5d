/* test-app-compare — Compare from the history (suite "display", issue 37 item 6): two time
 * files marked show no deploy block (they were not deployed here: it would be all zeros)
 * and their renumbered DetPost and ImageMake match; two runs marked (merge on against merge
 * off) name each hardop row by its class from the reports, never "HardOp". */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "zw-application.h"
#include "zw-compare-view.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"

static ZwWindow *win;

static gboolean
compare_shown (gpointer data)
{
  (void) data;
  return zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"))) != NULL;
}

static void
mark_last_two (void)
{
  GListModel *runs = zw_window_get_runs (win);
  guint n = g_list_model_get_n_items (runs);
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));

  zw_compare_view_clear (view);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (runs, i);
      zw_run_set_compare (run, i + 2 >= n);
    }
  g_assert_true (zw_test_app_wait_for (compare_shown, NULL, 30));
}

static void
test_time_files_no_deploy_block (void)
{
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autofree char *text = NULL, *copy = NULL, *renumbered = NULL;
  g_auto (GStrv) parts = NULL;
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  const ZwProfileCompare *cmp;
  guint n;
  int fd;

  if (path == NULL)
    {
      g_test_skip ("no shared real/bytetrack_BY_int8_time.txt");
      return;
    }
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (1), 120));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  parts = g_strsplit (text, "op_id: 459,", -1);
  renumbered = g_strjoinv ("op_id: 901,", parts);
  fd = g_file_open_tmp ("zw-app-compare-XXXXXX_time.txt", &copy, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (copy, renumbered, -1, NULL));
  n = zw_test_app_n_runs ();
  zw_test_app_activate ("win.open-file", g_variant_new_string (path));
  zw_test_app_wait_for_run (n + 1);
  zw_test_app_activate ("win.open-file", g_variant_new_string (copy));
  zw_test_app_wait_for_run (n + 2);
  mark_last_two ();
  cmp = zw_compare_view_get_compare (view);
  /* not deployed here: no deploy block of zeros */
  g_assert_null (zw_compare_view_get_deploy_compare (view));
  /* the DetPost renumbered is the same op */
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_unlink (copy);
}

static void
test_runs_rows_name_classes (void)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  const ZwProfileCompare *cmp;
  gboolean merge;
  guint n = zw_test_app_n_runs (), n_hardops = 0;

  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (0));
  zw_test_app_activate ("win.forward", NULL);
  zw_test_app_wait_for_run (n + 1);
  g_object_get (win, "merge-hardop", &merge, NULL);
  g_object_set (win, "merge-hardop", !merge, NULL);
  zw_test_app_wait_for_run (n + 2);
  zw_test_app_activate ("win.forward", NULL);
  zw_test_app_wait_for_run (n + 3);
  /* the first forward and the last: merge on against merge off */
  {
    GListModel *runs = zw_window_get_runs (win);
    ZwCompareView *v = view;
    guint rows = g_list_model_get_n_items (runs);   /* forward, apply, forward: three rows */
    zw_compare_view_clear (v);
    for (guint i = 0; i < rows; i++)
      {
        g_autoptr (ZwRun) run = g_list_model_get_item (runs, i);
        zw_run_set_compare (run, i + 3 == rows || i + 1 == rows);
      }
    g_assert_true (zw_test_app_wait_for (compare_shown, NULL, 30));
  }
  cmp = zw_compare_view_get_compare (view);
  g_assert_nonnull (zw_compare_view_get_deploy_compare (view));
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      if (!g_str_has_suffix (r->op_type, "HardOpNode"))
        continue;
      n_hardops++;
      g_assert_nonnull (r->op_class);
      g_assert_cmpstr (r->op_class, !=, "HardOp");
    }
  g_test_message ("%u hardop rows named by class", n_hardops);
  g_assert_cmpuint (n_hardops, >, 0);

  /* the merged launches expand to their member ops (issue 37 item 6): the side that ran
   * them merged gives each member an estimated share of the launch, the other its own time */
  {
    const ZwCompareShown *shown;
    guint n_launches = 0, n_members = 0;

    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (zw_compare_view_get_expand_button (view)), TRUE);
    shown = zw_compare_view_get_shown (view);
    for (guint i = 0; i < shown->rows->len; i++)
      {
        const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
        double sum = 0;
        if (!s->expandable)
          continue;
        g_assert_true (s->expanded);
        n_launches++;
        for (guint k = 0; k < s->row->merge_from->len; k++)
          {
            const ZwCompareShownRow *m = zw_compare_shown_get (shown, i + 1 + k);
            g_assert_nonnull (m);
            g_assert_cmpint (m->member, ==, (gint) k);
            g_assert_cmpint (m->op_id, ==, g_array_index (s->row->merge_from, gint64, k));
            /* A merged (merge on) against B merge off, or the other way round */
            g_assert_true (merge ? m->a_estimated && !m->b_estimated : m->b_estimated && !m->a_estimated);
            sum += merge ? m->a_ms : m->b_ms;
            n_members++;
          }
        g_assert_cmpfloat_with_epsilon (sum, merge ? s->row->a_ms : s->row->b_ms, 1e-9);
      }
    g_test_message ("%u merged launches expanded to %u members", n_launches, n_members);
    g_assert_cmpuint (n_launches, >, 0);
    g_assert_cmpuint (shown->rows->len, ==, cmp->rows->len + n_members);
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (zw_compare_view_get_expand_button (view)), FALSE);
    g_assert_cmpuint (zw_compare_view_get_shown (view)->rows->len, ==, cmp->rows->len);

    /* a click on a launch's ▸ (the start of its op id cell) opens it alone, again closes it */
    {
      ZwRowTableClass *table = ZW_ROW_TABLE_GET_CLASS (view);
      guint launch = G_MAXUINT;
      double y0, y1;
      shown = zw_compare_view_get_shown (view);
      for (guint i = 0; i < shown->rows->len && launch == G_MAXUINT; i++)
        if (zw_compare_shown_get (shown, i)->expandable)
          launch = i;
      g_assert_cmpuint (launch, !=, G_MAXUINT);
      g_assert_true (table->row_extent (ZW_ROW_TABLE (view), launch, &y0, &y1));
      g_assert_true (table->clicked (ZW_ROW_TABLE (view), 8 + 6, (y0 + y1) / 2));
      shown = zw_compare_view_get_shown (view);
      g_assert_true (zw_compare_shown_get (shown, launch)->expanded);
      g_assert_cmpuint (shown->rows->len, ==,
                        cmp->rows->len + zw_compare_shown_get (shown, launch)->row->merge_from->len);
      g_assert_cmpint (zw_compare_shown_get (shown, launch + 1)->member, ==, 0);
      /* beside the ▸ a click is a row's (not handled here) */
      g_assert_false (table->clicked (ZW_ROW_TABLE (view), 8 + 40, (y0 + y1) / 2));
      g_assert_true (table->clicked (ZW_ROW_TABLE (view), 8 + 6, (y0 + y1) / 2));
      g_assert_cmpuint (zw_compare_view_get_shown (view)->rows->len, ==, cmp->rows->len);
    }
  }

  /* regressions only, over the threshold of the spin button; the count beside it */
  {
    const double thresholds[] = { 0, 0.5, 1000 };
    for (guint t = 0; t < G_N_ELEMENTS (thresholds); t++)
      {
        guint slower = 0;
        g_autofree char *count = NULL;
        for (guint i = 0; i < cmp->rows->len; i++)
          {
            const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
            if (r->side == ZW_COMPARE_BOTH && r->b_ms > r->a_ms && (r->a_ms <= 0 || r->b_ms > r->a_ms * (1 + thresholds[t])))
              slower++;
          }
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (zw_compare_view_get_threshold_spin (view)), thresholds[t] * 100);
        gtk_check_button_set_active (GTK_CHECK_BUTTON (zw_compare_view_get_filter_check (view)), TRUE);
        g_test_message ("slower by more than %g %%: %u of %u rows (%s)", thresholds[t] * 100, slower, cmp->rows->len,
                        gtk_label_get_text (GTK_LABEL (zw_compare_view_get_count_label (view))));
        g_assert_cmpuint (zw_compare_view_get_shown (view)->rows->len, ==, slower);
        g_assert_cmpuint (zw_compare_view_get_shown (view)->n_hidden, ==, cmp->rows->len - slower);
        count = g_strdup_printf ("%u", slower);
        g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (zw_compare_view_get_count_label (view))), count));
        for (guint i = 0; i < zw_compare_view_get_shown (view)->rows->len; i++)
          g_assert_true (zw_compare_row_slower_by (zw_compare_shown_get (zw_compare_view_get_shown (view), i)->row,
                                                   thresholds[t]));
      }
    gtk_check_button_set_active (GTK_CHECK_BUTTON (zw_compare_view_get_filter_check (view)), FALSE);
    g_assert_cmpuint (zw_compare_view_get_shown (view)->rows->len, ==, cmp->rows->len);
  }
  g_object_set (win, "merge-hardop", merge, NULL);
  zw_test_app_wait_for_run (n + 4);
}

/* Two runs' profiles have the same name: A and B say their folders (issue 37 item 6). */
static void
test_labels_tell_same_names_apart (void)
{
  g_autofree char *a = NULL, *b = NULL;

  zw_window_compare_labels ("/x/on/yolov5s_time.txt", "/x/off/yolov5s_time.txt", &a, &b);
  g_assert_cmpstr (a, ==, "on/yolov5s_time.txt");
  g_assert_cmpstr (b, ==, "off/yolov5s_time.txt");
  g_clear_pointer (&a, g_free);
  g_clear_pointer (&b, g_free);
  zw_window_compare_labels ("/x/on/a_time.txt", "/y/b_time.txt", &a, &b);
  g_assert_cmpstr (a, ==, "a_time.txt");
  g_assert_cmpstr (b, ==, "b_time.txt");
  g_clear_pointer (&a, g_free);
  g_clear_pointer (&b, g_free);
  zw_window_compare_labels ("/x/on/t.txt", "/y/on/t.txt", &a, &b);
  g_assert_cmpstr (a, ==, "/x/on/t.txt");
  g_assert_cmpstr (b, ==, "/y/on/t.txt");
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);

  g_test_add_func ("/app-compare/time-files/labels-tell-same-names-apart", test_labels_tell_same_names_apart);
  g_test_add_func ("/app-compare/time-files/no-deploy-block-renumbered-ops-match", test_time_files_no_deploy_block);
  g_test_add_func ("/app-compare/runs/hardop-rows-named-by-class", test_runs_rows_name_classes);

  return zw_test_app_run_and_close ();
}
