/* test-app-compare — Compare from the history (suite "display", issue 37 item 6): two time
 * files marked show no deploy block (they were not deployed here: it would be all zeros)
 * and their renumbered DetPost and ImageMake match; two runs marked (merge on against merge
 * off) name each hardop row by its class from the reports, never "HardOp"; a merged launch
 * opens and closes with the keys of a GTK tree list (Right/+, Left/-), pressed through XTest;
 * two bare time files of the open network map their launch to its ops through its plan, and
 * so do two opened with their network (mapped once its run finishes). */
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

/* Every merged launch expanded: each member on A's side an estimated share (B's its own
 * row) with its class, the shares summing to the launch's A time (> 0). Counts the launches
 * and members. */
static void
expand_and_check_shares (ZwCompareView *view, guint *n_launches, guint *n_members)
{
  const ZwCompareShown *shown;

  zw_compare_view_expand_all (view, TRUE);
  shown = zw_compare_view_get_shown (view);
  for (guint i = 0; i < shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
      double sum = 0;
      if (s->member >= 0 || !s->expandable)
        continue;
      (*n_launches)++;
      for (guint k = 0; k < s->row->merge_from->len; k++)
        {
          const ZwCompareShownRow *m = zw_compare_shown_get (shown, i + 1 + k);
          g_assert_true (m->a_estimated && !m->b_estimated);
          g_assert_nonnull (m->op_class);
          sum += m->a_ms;
          (*n_members)++;
        }
      g_assert_cmpfloat (s->row->a_ms, >, 0);
      g_assert_cmpfloat_with_epsilon (sum, s->row->a_ms, 1e-9);
    }
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

/* Two forwards, merge on and merge off (the window's setting first, then the other), marked
 * for comparison; the window's merge setting at the start is returned (restore it with
 * restore_merge). */
static gboolean
compare_merge_on_against_off (void)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  gboolean merge;
  guint n = zw_test_app_n_runs ();

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
  return merge;
}

static void
restore_merge (gboolean merge)
{
  guint n = zw_test_app_n_runs ();

  g_object_set (win, "merge-hardop", merge, NULL);
  zw_test_app_wait_for_run (n + 1);
}

static void
test_runs_rows_name_classes (void)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  const ZwProfileCompare *cmp;
  gboolean merge = compare_merge_on_against_off ();
  guint n_hardops = 0;

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
  restore_merge (merge);
}

/* ---- the tree keys, pressed for real (XTest) ---- */

typedef struct {
  ZwCompareView *view;
  guint launch, n_rows;
  gint selected;           /* the row selected wanted, or -1: any */
  gboolean expanded;
} TreeState;

static gboolean
tree_state_is (gpointer data)
{
  const TreeState *t = data;
  const ZwCompareShown *shown = zw_compare_view_get_shown (t->view);
  const ZwCompareShownRow *s = zw_compare_shown_get (shown, t->launch);

  return s != NULL && s->expanded == t->expanded && shown->rows->len == t->n_rows
         && (t->selected < 0 || zw_row_table_get_selected_row (ZW_ROW_TABLE (t->view)) == t->selected);
}

static void
expect_tree (ZwCompareView *view, guint launch, guint n_rows, gint selected, gboolean expanded, const char *after)
{
  TreeState t = { view, launch, n_rows, selected, expanded };

  if (!zw_test_app_wait_for (tree_state_is, &t, 10))
    g_error ("after %s: launch row %u %s with %u rows shown and row %d selected was wanted; %u rows, row %d selected "
             "(focus: %s)",
             after, launch, expanded ? "expanded" : "collapsed", n_rows, selected,
             zw_compare_view_get_shown (view)->rows->len, zw_row_table_get_selected_row (ZW_ROW_TABLE (view)),
             G_OBJECT_TYPE_NAME (gtk_window_get_focus (GTK_WINDOW (win))));
}

/* As in a GTK tree list: with a merged launch selected in the rows, Right opens it and Right
 * again goes to its first member, Left goes back to the launch and Left again closes it, Down
 * and Up walk the rows; + and - open and close it from anywhere in the window (the focus in
 * the sidebar). Real key presses on the X server. */
static void
test_keys_expand_merged_launch (void)
{
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  GtkWidget *area = zw_row_table_get_area (ZW_ROW_TABLE (view));
  const ZwCompareShown *shown;
  gboolean merge;
  guint launch = G_MAXUINT, base, members;

  if (!zw_test_app_xtest_open ())
    {
      g_test_skip ("not an X11 display with XTest: no real key presses");
      return;
    }
  gtk_window_present (GTK_WINDOW (win));
  merge = compare_merge_on_against_off ();
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.view", g_variant_new_string ("compare")));
  zw_test_app_run_for (150);
  g_assert_true (gtk_widget_get_mapped (area));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (zw_compare_view_get_expand_button (view)), FALSE);
  shown = zw_compare_view_get_shown (view);
  base = shown->rows->len;
  for (guint i = 1; i < shown->rows->len && launch == G_MAXUINT; i++)   /* one with a row above */
    if (zw_compare_shown_get (shown, i)->expandable)
      launch = i;
  g_assert_cmpuint (launch, !=, G_MAXUINT);
  members = zw_compare_shown_get (shown, launch)->row->merge_from->len;
  g_assert_cmpuint (members, >, 1);
  g_test_message ("launch row %u of %u, %u members", launch, base, members);

  /* the rows have the focus (as after a click on them), the launch selected */
  zw_compare_view_select_row (view, (gint) launch);
  g_assert_true (gtk_widget_grab_focus (area));
  zw_test_app_press (0, GDK_KEY_Right);
  expect_tree (view, launch, base + members, (gint) launch, TRUE, "Right");
  if (g_getenv ("ZW_TEST_SHOTS") != NULL)
    {
      /* to look at: ZW_TEST_SHOTS=DIR */
      g_autofree char *png = g_build_filename (g_getenv ("ZW_TEST_SHOTS"), "compare-expanded.png", NULL);
      g_autoptr (GError) error = NULL;
      if (!zw_window_save_png (win, png, &error))
        g_test_message ("%s: %s", png, error->message);
    }
  zw_test_app_press (0, GDK_KEY_Right);
  expect_tree (view, launch, base + members, (gint) launch + 1, TRUE, "Right on the open launch");
  g_assert_cmpint (zw_compare_shown_get (zw_compare_view_get_shown (view), launch + 1)->member, ==, 0);
  zw_test_app_press (0, GDK_KEY_Down);
  expect_tree (view, launch, base + members, (gint) launch + 2, TRUE, "Down");
  zw_test_app_press (0, GDK_KEY_Left);
  expect_tree (view, launch, base + members, (gint) launch, TRUE, "Left on a member");
  zw_test_app_press (0, GDK_KEY_Left);
  expect_tree (view, launch, base, (gint) launch, FALSE, "Left on the open launch");
  zw_test_app_press (0, GDK_KEY_Up);
  expect_tree (view, launch, base, (gint) launch - 1, FALSE, "Up");
  zw_test_app_press (0, GDK_KEY_Down);
  expect_tree (view, launch, base, (gint) launch, FALSE, "Down");

  /* + and -, the focus in the sidebar (a check box of the options) */
  {
    GtkWidget *check = zw_test_app_find_child_of_type (zw_window_get_options_panel (win), GTK_TYPE_CHECK_BUTTON);
    g_assert_nonnull (check);
    g_assert_true (gtk_widget_grab_focus (check));
    zw_test_app_press (GDK_KEY_Shift_L, GDK_KEY_plus);
    expect_tree (view, launch, base + members, (gint) launch, TRUE, "+ (focus in the sidebar)");
    g_assert_true (gtk_window_get_focus (GTK_WINDOW (win)) == check);
    zw_test_app_press (0, GDK_KEY_minus);
    expect_tree (view, launch, base, (gint) launch, FALSE, "- (focus in the sidebar)");
  }
  restore_merge (merge);
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

/* Two bare time files of the open network (the demo, merge on against merge off, written
 * as the vendor's *_time.txt) compared from files: the open network's merge plan maps the
 * launch to its ops — no hardop only in A or B, the classes the network's, the members'
 * estimated A shares summing to the launch's time — and the header names the network; a
 * time file of another network: the banner says it does not belong, today's rows. */
static void
test_time_files_of_open_network (void)
{
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-app-time-files-XXXXXX");
  g_autofree char *other = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autofree char *a = g_build_filename (tmp, "on", "yolov5s_time.txt", NULL);
  g_autofree char *b = g_build_filename (tmp, "off", "yolov5s_time.txt", NULL);
  g_autofree char *dir_a = g_path_get_dirname (a), *dir_b = g_path_get_dirname (b);
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwProfile) on = NULL, off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  ZwDeployReport *open;
  const ZwProfileCompare *cmp;
  guint n_launches = 0, n_members = 0;

  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (1), 120));
  /* the network open: the latest run deployed here (time files read have no report) */
  open = zw_selection_get_report (zw_window_get_selection (win));
  for (guint n = g_list_model_get_n_items (zw_window_get_runs (win)); open == NULL && n > 0; n--)
    {
      g_autoptr (ZwRun) run = g_list_model_get_item (zw_window_get_runs (win), n - 1);
      open = zw_run_get_kind (run) != ZW_RUN_PROFILE ? zw_run_get_report (run) : NULL;
    }
  g_assert_nonnull (open);
  g_assert_true (open->merge_hardop);
  net = zw_test_load_net (open->network_name);
  g_assert_cmpint (g_mkdir_with_parents (dir_a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (dir_b, 0700), ==, 0);
  zw_test_write_merge_on_off (net, a, b, &on, &report_on, &off, &report_off);

  g_assert_true (zw_window_compare_files (win, a, b));
  g_assert_null (zw_window_get_banner_message (win));
  cmp = zw_compare_view_get_compare (view);
  g_assert_nonnull (cmp);
  g_assert_cmpstr (cmp->plan_network, ==, open->network_name);
  g_assert_null (zw_compare_view_get_deploy_compare (view));
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_merge_mapped, ==, 1);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      if (g_str_has_suffix (r->op_type, "HardOpNode"))
        {
          g_assert_nonnull (r->op_class);
          g_assert_false (g_str_has_prefix (r->op_class, "HardOp"));
        }
    }
  expand_and_check_shares (view, &n_launches, &n_members);
  g_assert_cmpuint (n_launches, ==, 1);
  g_assert_cmpuint (n_members, >, 1);
  zw_compare_view_expand_all (view, FALSE);

  if (other != NULL)
    {
      /* another network's file: said, compared as before (the launch only in A) */
      g_assert_true (zw_window_compare_files (win, other, b));
      g_assert_nonnull (zw_window_get_banner_message (win));
      g_assert_nonnull (strstr (zw_window_get_banner_message (win), "does not belong to the open network"));
      cmp = zw_compare_view_get_compare (view);
      g_assert_null (cmp->plan_network);
      g_assert_cmpuint (cmp->n_only_a + cmp->n_only_b, >, 0);
    }
  /* the files of the open network again: the banner goes */
  g_assert_true (zw_window_compare_files (win, a, b));
  g_assert_null (zw_window_get_banner_message (win));
}

static gboolean
compare_mapped (gpointer data)
{
  const ZwProfileCompare *cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (data, "compare")));
  return cmp != NULL && cmp->plan_network != NULL;
}

/* The network and two of its time files opened together (as .ci/screenshots does): the files
 * are compared at once, unmapped (no network open in the new window yet), and mapped through
 * its plan when the network's run finishes. */
static void
test_network_and_time_files_together (void)
{
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-app-together-XXXXXX");
  g_autofree char *net_path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_ZG.json", NULL);
  g_autofree char *a = g_build_filename (tmp, "on_time.txt", NULL);
  g_autofree char *b = g_build_filename (tmp, "off_time.txt", NULL);
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwProfile) on = NULL, off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  GFile *files[3];
  GtkApplication *app = GTK_APPLICATION (zw_test_app_application ());
  guint n_windows = g_list_length (gtk_application_get_windows (app));
  ZwWindow *other = NULL;
  const ZwProfileCompare *cmp;

  zw_test_write_merge_on_off (net, a, b, &on, &report_on, &off, &report_off);
  files[0] = g_file_new_for_path (net_path);
  files[1] = g_file_new_for_path (a);
  files[2] = g_file_new_for_path (b);
  g_application_open (G_APPLICATION (app), files, 3, "");
  for (guint i = 0; i < 3; i++)
    g_object_unref (files[i]);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (app)), ==, n_windows + 1);
  for (GList *l = gtk_application_get_windows (app); l != NULL && other == NULL; l = l->next)
    if (l->data != (gpointer) win)
      other = l->data;
  g_assert_nonnull (other);
  /* at once: the files, the network not deployed yet */
  cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (other, "compare")));
  g_assert_nonnull (cmp);
  g_assert_null (cmp->plan_network);
  g_assert_cmpuint (cmp->n_only_a, >, 0);
  /* its run finished: mapped, nothing only on one side */
  g_assert_true (zw_test_app_wait_for (compare_mapped, other, 120));
  cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (other, "compare")));
  g_assert_cmpstr (cmp->plan_network, ==, "yolov5s");
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_null (zw_window_get_banner_message (other));
  gtk_window_destroy (GTK_WINDOW (other));
}

static gboolean
compare_merge_on_mapped (gpointer data)
{
  const ZwProfileCompare *cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (data, "compare")));
  return cmp != NULL && cmp->plan_merge_on_again && !zw_window_get_busy (data);
}

/* The network open with merge off (the sidebar's option applied): a merge-on time file has
 * launches that run did not make.  Shown as they are at once, the files are mapped through
 * the network planned again with merge on in a worker: nothing only in A or B, the members'
 * estimated shares summing to the launch's time, and the header names the merge-on plan.
 * Compared again, the kept plan maps them at once. */
static void
test_time_files_of_merge_off_network (void)
{
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-app-merge-off-XXXXXX");
  g_autofree char *a = g_build_filename (tmp, "on_time.txt", NULL);
  g_autofree char *b = g_build_filename (tmp, "off_time.txt", NULL);
  g_autofree char *header = NULL, *plain = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwProfile) on = NULL, off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  ZwCompareView *view = ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"));
  const ZwProfileCompare *cmp;
  ZwRun *run;
  guint n, n_launches = 0, n_members = 0;
  gboolean merge;

  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (1), 120));
  n = zw_test_app_n_runs ();
  g_object_get (win, "merge-hardop", &merge, NULL);
  g_assert_true (merge);
  g_object_set (win, "merge-hardop", FALSE, NULL);
  run = zw_test_app_wait_for_run (n + 1);
  g_assert_false (zw_run_get_report (run)->merge_hardop);
  g_assert_true (zw_selection_get_report (zw_window_get_selection (win)) == zw_run_get_report (run));
  net = zw_test_load_net (zw_run_get_report (run)->network_name);
  zw_test_write_merge_on_off (net, a, b, &on, &report_on, &off, &report_off);

  g_assert_true (zw_window_compare_files (win, a, b));
  /* at once: as they are (the plan is being made in a worker) */
  cmp = zw_compare_view_get_compare (view);
  g_assert_nonnull (cmp);
  g_assert_null (cmp->plan_network);
  g_assert_cmpuint (cmp->n_only_a, >, 0);
  g_assert_true (zw_test_app_wait_for (compare_merge_on_mapped, win, 120));
  g_assert_null (zw_window_get_banner_message (win));
  cmp = zw_compare_view_get_compare (view);
  g_assert_cmpstr (cmp->plan_network, ==, report_on->network_name);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_merge_mapped, ==, 1);
  header = zw_compare_view_dup_header (view);
  plain = g_strdup_printf ("ops mapped through network %s's merge-on plan; the open run has merge off",
                           report_on->network_name);
  g_assert_nonnull (strstr (header, plain));
  g_assert_nonnull (strstr (header, "on_time.txt"));
  expand_and_check_shares (view, &n_launches, &n_members);
  g_assert_cmpuint (n_launches, ==, 1);
  g_assert_cmpuint (n_members, >, 1);
  zw_compare_view_expand_all (view, FALSE);

  /* again: the plan kept maps them at once */
  g_assert_true (zw_window_compare_files (win, a, b));
  cmp = zw_compare_view_get_compare (view);
  g_assert_true (cmp->plan_merge_on_again);
  g_assert_cmpuint (cmp->n_only_a + cmp->n_only_b, ==, 0);

  /* the files of a merge-on run: its own plan, the header as before */
  g_object_set (win, "merge-hardop", TRUE, NULL);
  run = zw_test_app_wait_for_run (n + 2);
  g_assert_true (zw_run_get_report (run)->merge_hardop);
  g_assert_true (zw_window_compare_files (win, a, b));
  cmp = zw_compare_view_get_compare (view);
  g_assert_false (cmp->plan_merge_on_again);
  g_assert_cmpuint (cmp->n_only_a + cmp->n_only_b, ==, 0);
  g_clear_pointer (&header, g_free);
  header = zw_compare_view_dup_header (view);
  g_assert_null (strstr (header, "merge-on plan"));
  g_assert_nonnull (strstr (header, "ops mapped through the open network"));
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);

  g_test_add_func ("/app-compare/time-files/labels-tell-same-names-apart", test_labels_tell_same_names_apart);
  g_test_add_func ("/app-compare/time-files/no-deploy-block-renumbered-ops-match", test_time_files_no_deploy_block);
  g_test_add_func ("/app-compare/time-files/of-open-network-op-by-op", test_time_files_of_open_network);
  g_test_add_func ("/app-compare/time-files/opened-with-their-network", test_network_and_time_files_together);
  g_test_add_func ("/app-compare/time-files/merge-off-network-planned-again", test_time_files_of_merge_off_network);
  g_test_add_func ("/app-compare/runs/hardop-rows-named-by-class", test_runs_rows_name_classes);
  g_test_add_func ("/app-compare/runs/keys-expand-merged-launch", test_keys_expand_merged_launch);

  return zw_test_app_run_and_close ();
}
