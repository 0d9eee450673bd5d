/* test-run-views-compare.c — the Compare view drawn offscreen (suite render, no display): two
 * profiles of the tiny demo, one hardop of B made slower, its row alone highlighted as a
 * regression; the host ops' measured time on a line of its own, never compared.
 *
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the rendered PNG there for a look. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "zw-compare-view.h"

typedef struct {
  const ZwProfileCompare *cmp;
  const ZwDeployCompare *dcmp;
} CompareArgs;

static void
draw_compare (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  CompareArgs *a = data;
  zw_compare_view_draw (cr, w, h, a->cmp, a->dcmp, "merge off", "merge off, slow op", -1, style);
}

static void
test_compare_regression (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  ZwTestForward r = zw_test_forward (net, FALSE, NULL, NULL);
  g_autofree char *json = zw_profile_to_string (r.profile, ZW_PROFILE_FORMAT_JSON);
  g_autoptr (ZwProfile) b = zw_profile_parse (json, -1, "copy", NULL, NULL, NULL);
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autoptr (ZwDeployCompare) dcmp = NULL;
  CompareArgs a;
  ZwProfileRow *slow = NULL;
  guint slow_index = 0;
  cairo_surface_t *s;
  ZwViewStyle style;
  double y0, y1;
  const int W = 1000;
  int H;

  /* the longest hardop of B made 0.5 ms slower */
  for (guint i = 0; i < b->rows->len; i++)
    {
      ZwProfileRow *row = g_ptr_array_index (b->rows, i);
      if (row->hard_ms > 0 && (slow == NULL || row->hard_ms > slow->hard_ms))
        {
          slow = row;
          slow_index = i;
        }
    }
  g_assert_nonnull (slow);
  slow->hard_ms += 0.5;
  slow->total_ms = slow->memcpy_ms + slow->hard_ms + slow->other_ms;
  zw_profile_compute_totals (b);
  cmp = zw_profile_compare (r.profile, b, NULL);
  dcmp = zw_deploy_compare (r.report, r.report);
  g_assert_cmpuint (cmp->n_regressions, ==, 1);
  /* the host ops' measured time is summed apart, on its own labelled line, never compared */
  g_assert_true (cmp->a_has_host_measured && cmp->b_has_host_measured);
  {
    g_autoptr (ZwProfile) a2 = zw_profile_copy (r.profile);
    g_autoptr (ZwProfileCompare) unmeasured = NULL;
    for (guint i = 0; i < a2->rows->len; i++)
      ((ZwProfileRow *) g_ptr_array_index (a2->rows, i))->host_measured_ms = -1;
    unmeasured = zw_profile_compare (a2, a2, NULL);
    g_assert_false (unmeasured->a_has_host_measured);
    g_assert_cmpint (zw_compare_view_content_height (cmp, NULL), >, zw_compare_view_content_height (unmeasured, NULL));
  }
  a.cmp = cmp;
  a.dcmp = dcmp;
  H = zw_compare_view_content_height (cmp, dcmp);
  s = zw_test_render (W, H, draw_compare, &a);
  zw_test_keep_png (s, "compare.png");
  zw_view_style_init_default (&style);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *row = g_ptr_array_index (cmp->rows, i);
      guint32 px;
      g_assert_true (zw_compare_view_row_extent (cmp, dcmp, i, &y0, &y1));
      g_assert_cmpint (zw_compare_view_row_at (cmp, dcmp, (y0 + y1) / 2), ==, (gint) i);
      px = zw_test_pixel (s, 10, (int) ((y0 + y1) / 2));
      if (i == slow_index)
        {
          g_assert_true (row->regression);
          g_assert_true (zw_test_near (px, zw_test_blend (&style.warning, 0.28, zw_test_argb (&style.background)), 3));
        }
      else
        g_assert_false (zw_test_near (px, zw_test_blend (&style.warning, 0.28, zw_test_argb (&style.background)), 3));
    }
  cairo_surface_destroy (s);
  zw_test_forward_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-views/render/compare/regression-highlighted", test_compare_regression);
  return g_test_run ();
}
