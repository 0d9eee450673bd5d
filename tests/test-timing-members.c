/* test-timing-members — Timing with merge on has per-layer figures (issue 37, Also): each
 * merged launch's member ops are table rows right under it, their total and hard times the
 * launch's split by the planner's estimates (shares summing to the launch's, in proportion
 * to hardops[].est_ms), shown "≈" and labelled an estimate; a sort by a figure keeps them
 * under their launch, in launch order, both ways.
 * Suite display (a GtkColumnView). */
#include "zw-timing-view.h"
#include "report/zw-deploy-graph.h"
#include "zw-test-util.h"

#include <stdlib.h>
#include <string.h>

static double
estimate_of (const ZwDeployReport *report, gint64 op_id)
{
  for (guint h = 0; h < report->hardops->len; h++)
    if (g_array_index (report->hardops, ZwHardOpInfo, h).op_id == op_id)
      return g_array_index (report->hardops, ZwHardOpInfo, h).est_ms;
  return -1;
}

/* In @order (@n rows), every member follows its launch (or a member of it) in launch order. */
static void
assert_members_under_launches (ZwTimingView *tv, const ZwProfile *p, const guint *order, guint n, guint *n_members)
{
  *n_members = 0;
  for (guint i = 0; i < n; i++)
    {
      guint launch, prev_launch;
      gint64 id, prev_id;
      if (order[i] < p->rows->len)
        continue;
      (*n_members)++;
      g_assert_true (zw_timing_view_get_member (tv, order[i], &id, &launch, NULL));
      g_assert_cmpuint (i, >, 0);
      if (order[i - 1] < p->rows->len)
        {
          /* the first member right under its launch, and it is the launch's first */
          g_assert_cmpuint (order[i - 1], ==, launch);
          g_assert_cmpint (id, ==, g_array_index (((ZwProfileRow *) g_ptr_array_index (p->rows, launch))->merge_from,
                                                  gint64, 0));
        }
      else
        {
          g_assert_true (zw_timing_view_get_member (tv, order[i - 1], &prev_id, &prev_launch, NULL));
          g_assert_cmpuint (prev_launch, ==, launch);
          g_assert_cmpuint (order[i - 1] + 1, ==, order[i]);   /* launch order */
        }
    }
}

static void
test_members_estimated (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (ZwProfile) profile = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  g_autoptr (GPtrArray) table = NULL;
  g_autofree guint *order = NULL;
  const ZwProfile *p;
  GtkWidget *window, *view;
  ZwTimingView *tv;
  guint n, n_members = 0, n_launches = 0, expected_members = 0;

  zw_test_run_profiled (net, TRUE, &profile, &report);
  zw_deploy_report_attach_network (report, net);
  zw_selection_set_report (sel, report);
  window = gtk_window_new ();
  view = zw_timing_view_new (sel);
  tv = ZW_TIMING_VIEW (view);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  zw_timing_view_set_run_profile (tv, profile, report);
  gtk_window_present (GTK_WINDOW (window));
  p = zw_timing_view_get_profile (tv);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      if (r->merge_from->len > 1)
        {
          n_launches++;
          expected_members += r->merge_from->len;
        }
    }
  g_assert_cmpuint (n_launches, >, 0);

  /* as run: each launch, then its members, their shares summing to the launch's time */
  order = zw_timing_view_get_table_order (tv, &n);
  g_assert_cmpuint (n, ==, p->rows->len + expected_members);
  assert_members_under_launches (tv, p, order, n, &n_members);
  g_assert_cmpuint (n_members, ==, expected_members);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      double sum = 0, est_sum = 0;
      if (r->merge_from->len < 2)
        continue;
      for (guint k = 0; k < r->merge_from->len; k++)
        est_sum += estimate_of (report, g_array_index (r->merge_from, gint64, k));
      g_assert_cmpfloat (est_sum, >, 0);
      for (guint j = p->rows->len; j < n; j++)
        {
          gint64 id;
          guint launch;
          double ms;
          g_assert_true (zw_timing_view_get_member (tv, j, &id, &launch, &ms));
          if (launch != i)
            continue;
          g_assert_cmpfloat_with_epsilon (ms, r->total_ms * estimate_of (report, id) / est_sum, 1e-12);
          sum += ms;
        }
      g_assert_cmpfloat_with_epsilon (sum, r->total_ms, 1e-9);
    }

  /* in the table (and its CSV): "≈" times, the Merged from column saying it is an estimate */
  table = zw_timing_view_table (tv);
  g_assert_cmpuint (table->len, ==, n + 1);
  {
    guint labelled = 0;
    for (guint i = 1; i < table->len; i++)
      {
        char **cells = g_ptr_array_index (table, i);
        if (!g_str_has_prefix (cells[0], "↳ "))
          continue;
        g_assert_true (g_str_has_prefix (cells[3], "≈"));
        g_assert_cmpfloat (g_ascii_strtod (cells[3] + strlen ("≈"), NULL), >=, 0);
        g_assert_nonnull (strstr (cells[11], "estimate"));
        g_assert_cmpstr (cells[1], !=, "");
        labelled++;
      }
    g_assert_cmpuint (labelled, ==, expected_members);
  }

  /* sorted by total, both ways (the first click largest first): members stay under */
  for (int pass = 0; pass < 2; pass++)
    {
      g_autofree guint *sorted = NULL;
      guint m = 0;
      double last = pass == 0 ? G_MAXDOUBLE : -G_MAXDOUBLE;
      g_assert_true (zw_timing_view_sort_by (tv, 3 /* total */, pass == 0));
      sorted = zw_timing_view_get_table_order (tv, &n);
      assert_members_under_launches (tv, p, sorted, n, &m);
      g_assert_cmpuint (m, ==, expected_members);
      for (guint i = 0; i < n; i++)
        if (sorted[i] < p->rows->len)
          {
            double t = ((ZwProfileRow *) g_ptr_array_index (p->rows, sorted[i]))->total_ms;
            g_assert_true (pass == 0 ? t <= last : t >= last);
            last = t;
          }
    }

  /* a member's row selects its own op (the launch stays the timeline's selected row) */
  {
    GtkWidget *cv = NULL;
    g_autofree guint *now = NULL;
    GtkSelectionModel *model;
    gint64 id;
    guint launch;
    gboolean found = FALSE;
    for (GtkWidget *w = view; w != NULL && cv == NULL;)
      {
        /* depth-first to the column view */
        GtkWidget *next = gtk_widget_get_first_child (w);
        if (GTK_IS_COLUMN_VIEW (w))
          cv = w;
        else if (next != NULL)
          w = next;
        else
          {
            while (w != NULL && w != view && gtk_widget_get_next_sibling (w) == NULL)
              w = gtk_widget_get_parent (w);
            w = w == NULL || w == view ? NULL : gtk_widget_get_next_sibling (w);
          }
      }
    g_assert_nonnull (cv);
    model = gtk_column_view_get_model (GTK_COLUMN_VIEW (cv));
    now = zw_timing_view_get_table_order (tv, &n);
    for (guint i = 0; i < n; i++)
      if (now[i] == p->rows->len + 1)   /* the second member of the first launch */
        {
          g_assert_true (zw_timing_view_get_member (tv, now[i], &id, &launch, NULL));
          g_assert_true (gtk_selection_model_select_item (model, i, TRUE));
          g_assert_cmpint (zw_selection_get_selected_op (sel), ==, id);
          g_assert_cmpint (zw_timing_view_get_state (tv)->selected_row, ==, (gint) launch);
          found = TRUE;
        }
    g_assert_true (found);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_message ("no display: the display suite needs one (run under xvfb-run)");
      return 77;
    }
  g_test_add_func ("/timing-members/display/merged-launch-members-estimated-sorted-under", test_members_estimated);
  return g_test_run ();
}
