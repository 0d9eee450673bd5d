/* test-pipeline-compare.c — two passes of a pipeline compared op by op, rows named
 * "NET:OP_ID" (issue 38): the demo pipeline run as it is (A) and with one network's options
 * changed (B). Suite render (no display): the comparison's numbers (every network matched by
 * name, each row's times its network's profile's, the sums the passes', the unchanged
 * networks equal to the nanosecond, the changed one's rows the only ones that differ and
 * its regression found), the CSV's NET:OP_ID names, and the Compare view drawn offscreen
 * with the regression's row in the warning colour and no other row so. */
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-compare.h"
#include "zw-compare-view.h"
#include "zw-export.h"
#include "zw-test-pixels.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

#define W 1200

/* The demo pipeline's text with @extra appended to [network.tiny]'s table, run for one
 * profiled pass and read into the model. */
static ZwPipelineReport *
run_demo (const char *extra)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GString) edited = NULL;
  g_autoptr (XrtPipeline) pipe = NULL;
  g_autoptr (cJSON) root = NULL;
  ZwPipelineReport *p;
  const char *at;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  edited = g_string_new (text);
  at = strstr (edited->str, "json = \"tiny_ZG.json\"\n");
  g_assert_nonnull (at);
  g_string_insert (edited, (at - edited->str) + strlen ("json = \"tiny_ZG.json\"\n"), extra);
  pipe = xrt_pipeline_new_from_data (edited->str, edited->len, path, TRUE, &error);
  g_assert_no_error (error);
  root = zw_test_pipeline_pass (pipe, path, NULL);
  p = zw_pipeline_report_from_json (root, path, &error);
  g_assert_no_error (error);
  return p;
}

static double
profile_ms (const ZwProfile *p, gint64 op_id)
{
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      if (r->op_id == op_id)
        {
          sum += r->total_ms;
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 1);
  return sum;
}

typedef struct {
  const ZwProfileCompare *cmp;
} DrawArgs;

static void
draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  DrawArgs *a = data;
  zw_compare_view_draw (cr, width, height, a->cmp, NULL, "A", "B", -1, colors);
}

static void
test_compare_passes (void)
{
  g_autoptr (ZwPipelineReport) a = run_demo ("");
  /* B: the tiny network without OCM: its ops read and write ETM, slower */
  g_autoptr (ZwPipelineReport) b = run_demo ("ocmopt = \"NONE\"\nmerge_hardop = false\n");
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pipeline-compare-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "compare.png", NULL);
  g_autoptr (GHashTable) rows_of = g_hash_table_new (g_str_hash, g_str_equal);
  ZwViewStyle style;
  DrawArgs args;
  cairo_surface_t *s;
  double a_sum = 0, b_sum = 0, tiny_delta = 0;
  guint n_tiny_regressions = 0, n_rows_a = 0;
  int height;

  cmp = zw_pipeline_compare (a, b, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cmp);
  g_assert_cmpuint (a->networks->len, ==, 4);
  for (guint i = 0; i < a->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (a->networks, ZwPipelineNetwork, i);
      g_assert_nonnull (n->profile);
      n_rows_a += n->profile->rows->len;
    }
  g_assert_cmpuint (cmp->rows->len, >=, a->networks->len);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      gint ia = zw_pipeline_report_find_network (a, r->network);
      gint ib = zw_pipeline_report_find_network (b, r->network);
      const ZwPipelineNetwork *na, *nb;
      g_autofree char *name = zw_compare_row_dup_name (r);
      g_autofree char *want = g_strdup_printf ("%s:%" G_GINT64_FORMAT, r->network, r->op_id);

      g_assert_cmpint (ia, >=, 0);
      g_assert_cmpint (ib, >=, 0);
      g_assert_cmpstr (name, ==, want);
      g_hash_table_add (rows_of, r->network);
      na = &g_array_index (a->networks, ZwPipelineNetwork, ia);
      nb = &g_array_index (b->networks, ZwPipelineNetwork, ib);
      a_sum += r->a_ms;
      b_sum += r->b_ms;
      if (g_strcmp0 (r->network, "tiny") != 0)
        {
          /* the networks whose options did not change: the same op, the same time */
          g_assert_cmpint (r->side, ==, ZW_COMPARE_BOTH);
          g_assert_cmpint (r->match, ==, ZW_COMPARE_MATCH_ID);
          g_assert_cmpfloat (r->a_ms, ==, profile_ms (na->profile, r->op_id));
          g_assert_cmpfloat (r->b_ms, ==, profile_ms (nb->profile, r->op_id));
          g_assert_cmpfloat (r->delta_ms, ==, 0);
          g_assert_false (r->regression);
          g_assert_false (r->improvement);
        }
      else
        {
          tiny_delta += r->delta_ms;
          n_tiny_regressions += r->regression;
        }
    }
  /* every network of the pipeline has its rows, and the sums are the passes */
  g_assert_cmpuint (g_hash_table_size (rows_of), ==, 4);
  g_assert_cmpfloat (fabs (a_sum - cmp->a_total_ms), <, 1e-9);
  g_assert_cmpfloat (fabs (b_sum - cmp->b_total_ms), <, 1e-9);
  g_assert_cmpfloat (fabs (cmp->a_total_ms - a->pass_ms), <, 1e-6 * a->pass_ms);
  g_assert_cmpfloat (fabs (cmp->b_total_ms - b->pass_ms), <, 1e-6 * b->pass_ms);
  {
    const ZwPipelineNetwork *ta = &g_array_index (a->networks, ZwPipelineNetwork, zw_pipeline_report_find_network (a, "tiny"));
    const ZwPipelineNetwork *tb = &g_array_index (b->networks, ZwPipelineNetwork, zw_pipeline_report_find_network (b, "tiny"));
    g_test_message ("pass A %.6f ms, B %.6f ms; tiny A %.6f ms, B %.6f ms; %u rows, %u regressions", a->pass_ms,
                    b->pass_ms, ta->time_ms, tb->time_ms, cmp->rows->len, cmp->n_regressions);
    g_assert_cmpfloat (tb->time_ms, >, ta->time_ms);
    g_assert_cmpfloat (fabs (tiny_delta - (tb->time_ms - ta->time_ms)), <, 1e-6);
  }
  /* the regression is found, and only in the network that changed */
  g_assert_cmpuint (n_tiny_regressions, >, 0);
  g_assert_cmpuint (cmp->n_regressions, ==, n_tiny_regressions);

  /* the CSV names each op by its network */
  csv = zw_profile_compare_to_csv (cmp);
  g_assert_nonnull (strstr (csv, "\r\nbackbone:"));
  g_assert_nonnull (strstr (csv, "\r\nhead:"));
  g_assert_nonnull (strstr (csv, "\r\ntiny:"));
  g_assert_null (strstr (csv, "\r\n0,"));

  /* the Compare view: the regressions' rows in the warning colour, the others not */
  zw_view_style_init_default (&style);
  args.cmp = cmp;
  height = zw_compare_view_content_height (cmp, NULL);
  g_assert_true (zw_export_draw_to_file (draw, &args, &style, ZW_VIEW_FORMAT_PNG, W, height, png, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  if (g_getenv ("ZW_RUN_VIEWS_KEEP") != NULL)
    {
      g_autofree char *kept = g_build_filename (g_getenv ("ZW_RUN_VIEWS_KEEP"), "pipeline-compare.png", NULL);
      cairo_surface_write_to_png (s, kept);
    }
  {
    guint32 tint = zw_test_blend (&style.warning, 0.28, zw_test_argb (&style.background));
    guint n_tinted = 0;
    for (guint i = 0; i < cmp->rows->len; i++)
      {
        const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
        double y0, y1;
        gboolean found = FALSE;
        g_assert_true (zw_compare_view_row_extent (cmp, NULL, i, &y0, &y1));
        for (double x = 2; x < 40 && !found; x += 1)
          found = zw_test_near (zw_test_pixel (s, x, (y0 + y1) / 2), tint, 8);
        if (found != r->regression)
          g_error ("row %u (%s:%li): tinted %d, regression %d", i, r->network, (long) r->op_id, found, r->regression);
        n_tinted += found;
      }
    g_assert_cmpuint (n_tinted, ==, n_tiny_regressions);
  }
  cairo_surface_destroy (s);
  g_unlink (png);
  g_rmdir (dir);
  (void) n_rows_a;
}

/* A plan (no pass profiled) cannot be compared: the error names the pipeline. */
static void
test_plan_refused (void)
{
  g_autoptr (ZwPipelineReport) a = run_demo ("");
  g_autoptr (GError) error = NULL;
  GArray *saved = g_array_sized_new (FALSE, TRUE, sizeof (ZwProfile *), 4);
  ZwProfileCompare *cmp;

  for (guint i = 0; i < a->networks->len; i++)
    {
      ZwPipelineNetwork *n = &g_array_index (a->networks, ZwPipelineNetwork, i);
      g_array_append_val (saved, n->profile);
      n->profile = NULL;
    }
  cmp = zw_pipeline_compare (a, a, NULL, &error);
  g_assert_null (cmp);
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "yolov5s_pipeline.toml"));
  g_assert_nonnull (strstr (error->message, "(A)"));
  for (guint i = 0; i < a->networks->len; i++)
    g_array_index (a->networks, ZwPipelineNetwork, i).profile = g_array_index (saved, ZwProfile *, i);
  g_array_unref (saved);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pipeline-compare/two-passes-rows-by-network-regression-in-one", test_compare_passes);
  g_test_add_func ("/pipeline-compare/plan-refused-naming-the-file", test_plan_refused);
  return g_test_run ();
}
