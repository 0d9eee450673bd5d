/* test-compare-rows — what Compare's rows say (issue 37 item 6): two time files whose
 * DetPost and ImageMake were renumbered match them by kind and order (never "only A" /
 * "only B") while the hardops keep matching by op id; rows of two runs name the hardop class
 * from the deploy reports ("Conv2d", a merged launch "Conv2d +2"), never a bare "HardOp";
 * the columns' titles sort the rows (the first click on a number descending), the sorted
 * title drawn with its direction. */
#include "zw-compare-view.h"
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "report/zw-profile.h"
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static void
test_time_files_renumbered_custom_ops (void)
{
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autofree char *text = NULL, *copy_path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) a = NULL, b = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_auto (GStrv) parts = NULL;
  g_autofree char *renumbered = NULL;
  guint n_kind = 0, n_hard_by_id = 0;
  int fd;

  if (path == NULL)
    {
      g_test_skip ("no shared real/bytetrack_BY_int8_time.txt");
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  /* B: the same run, its DetPost (459) and ImageMake (458) numbered 901 and 902 */
  parts = g_strsplit (text, "op_id: 459,", -1);
  renumbered = g_strjoinv ("op_id: 901,", parts);
  g_strfreev (parts);
  parts = g_strsplit (renumbered, "op_id: 458,", -1);
  g_free (renumbered);
  renumbered = g_strjoinv ("op_id: 902,", parts);
  fd = g_file_open_tmp ("zw-compare-rows-XXXXXX_time.txt", &copy_path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (copy_path, renumbered, -1, NULL));
  a = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  b = zw_profile_load (copy_path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_unlink (copy_path);

  cmp = zw_profile_compare (a, b, NULL);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_kind_matched, ==, 2);
  g_assert_cmpuint (cmp->rows->len, ==, a->rows->len);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      g_assert_cmpint (r->side, ==, ZW_COMPARE_BOTH);
      if (r->op_id == 459 || r->op_id == 458)
        {
          g_assert_cmpint (r->match, ==, ZW_COMPARE_MATCH_KIND);
          g_assert_cmpint (r->b_op_id, ==, r->op_id == 459 ? 901 : 902);
          /* the same op, the same time */
          g_assert_cmpfloat_with_epsilon (r->delta_ms, 0, 1e-12);
          n_kind++;
        }
      if (g_str_has_suffix (r->op_type, "HardOpNode"))
        {
          g_assert_cmpint (r->match, ==, ZW_COMPARE_MATCH_ID);
          n_hard_by_id++;
        }
    }
  g_assert_cmpuint (n_kind, ==, 2);
  g_assert_cmpuint (n_hard_by_id, ==, 1);
  g_assert_cmpfloat_with_epsilon (cmp->delta_ms, 0, 1e-9);
}

static void
test_rows_name_the_hardop_class (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (ZwProfile) on = NULL, off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  guint n_hardops = 0, n_merged = 0;

  zw_test_run_profiled (net, TRUE, &on, &report_on);
  zw_test_run_profiled (net, FALSE, &off, &report_off);
  /* merge on (A) against merge off (B): launches against their members */
  cmp = zw_profile_compare (on, off, NULL);
  zw_profile_compare_set_classes (cmp, report_on, report_off);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      const ZwOpInfo *op;
      if (!g_str_has_suffix (r->op_type, "HardOpNode"))
        continue;
      n_hardops++;
      g_test_message ("row %u: op %" G_GINT64_FORMAT " (%u merged): %s", i, r->op_id, r->merge_from->len,
                      r->op_class);
      g_assert_nonnull (r->op_class);
      g_assert_cmpstr (r->op_class, !=, "HardOp");
      if (r->merge_from->len > 1)
        {
          g_autofree char *suffix = g_strdup_printf (" +%u", r->merge_from->len - 1);
          g_assert_true (g_str_has_suffix (r->op_class, suffix));
          n_merged++;
        }
      else if ((op = zw_deploy_report_find_op (report_on, r->op_id)) != NULL)
        g_assert_cmpstr (r->op_class, ==, op->op_class);
    }
  g_assert_cmpuint (n_hardops, >, 0);
  g_assert_cmpuint (n_merged, >, 0);
  /* without reports: no class (the view shows the op type) */
  zw_profile_compare_set_classes (cmp, NULL, NULL);
  for (guint i = 0; i < cmp->rows->len; i++)
    g_assert_null (((const ZwCompareRow *) g_ptr_array_index (cmp->rows, i))->op_class);
}

static void
test_headers_sort (void)
{
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) a = NULL, b = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  gboolean desc = FALSE;
  cairo_surface_t *plain, *sorted;
  ZwViewStyle style;
  double h0, h1;
  guint differ = 0;
  const int W = 1000;
  int H;

  /* a click: numbers descending first, ids and classes ascending, again turns round */
  g_assert_cmpint (zw_compare_view_next_sort (-1, FALSE, 4, &desc), ==, 4);
  g_assert_true (desc);
  g_assert_cmpint (zw_compare_view_next_sort (4, TRUE, 4, &desc), ==, 4);
  g_assert_false (desc);
  g_assert_cmpint (zw_compare_view_next_sort (4, FALSE, 0, &desc), ==, 0);
  g_assert_false (desc);
  g_assert_cmpint (zw_compare_view_next_sort (-1, FALSE, 5, &desc), ==, 5);
  g_assert_true (desc);
  g_assert_cmpint (zw_compare_view_next_sort (5, TRUE, 6, &desc), ==, -1);
  /* the columns by x: op id from the margin (here 104 px wide), then the class */
  g_assert_cmpint (zw_compare_view_column_at (W, 104, 10), ==, 0);
  g_assert_cmpint (zw_compare_view_column_at (W, 104, 8 + 104 + 5), ==, 1);
  g_assert_cmpint (zw_compare_view_column_at (W, 104, 8 + 104 + 120 + 90 + 90 + 5), ==, 4);
  g_assert_cmpint (zw_compare_view_column_at (W, 60, 8 + 60 + 120 + 90 + 90 + 5), ==, 4);
  g_assert_cmpint (zw_compare_view_column_at (W, 104, 2), ==, -1);

  if (path == NULL)
    {
      g_test_skip ("no shared real/bytetrack_BY_int8_time.txt");
      return;
    }
  a = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  b = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  /* B: row i slower by (i mod 3) * 0.2 ms, so the deltas are out of order */
  for (guint i = 0; i < b->rows->len; i++)
    ((ZwProfileRow *) g_ptr_array_index (b->rows, i))->total_ms += (i % 3) * 0.2;
  cmp = zw_profile_compare (a, b, NULL);
  zw_profile_compare_sort (cmp, ZW_COMPARE_SORT_DELTA, TRUE);
  for (guint i = 1; i < cmp->rows->len; i++)
    g_assert_cmpfloat (((ZwCompareRow *) g_ptr_array_index (cmp->rows, i - 1))->delta_ms, >=,
                       ((ZwCompareRow *) g_ptr_array_index (cmp->rows, i))->delta_ms);
  g_assert_cmpfloat_with_epsilon (((ZwCompareRow *) g_ptr_array_index (cmp->rows, 0))->delta_ms, 0.4, 1e-9);
  zw_profile_compare_sort (cmp, ZW_COMPARE_SORT_ORDER, FALSE);
  for (guint i = 0; i < cmp->rows->len; i++)
    g_assert_cmpuint (((ZwCompareRow *) g_ptr_array_index (cmp->rows, i))->order, ==, i);

  /* the sorted column's title is drawn otherwise (its direction, in the text colour) */
  zw_view_style_init_default (&style);
  H = zw_compare_view_content_height (cmp, NULL);
  plain = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  sorted = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  {
    cairo_t *cr = cairo_create (plain);
    zw_compare_view_draw_sorted (cr, W, H, cmp, NULL, "A", "B", -1, -1, FALSE, &style);
    cairo_destroy (cr);
    cr = cairo_create (sorted);
    zw_compare_view_draw_sorted (cr, W, H, cmp, NULL, "A", "B", -1, 4, TRUE, &style);
    cairo_destroy (cr);
  }
  cairo_surface_flush (plain);
  cairo_surface_flush (sorted);
  g_assert_true (zw_compare_view_header_extent (cmp, NULL, &h0, &h1));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (zw_test_pixel (plain, x, y) != zw_test_pixel (sorted, x, y))
        {
          /* only in the delta column's title */
          g_assert_cmpint (zw_compare_view_column_at (W, zw_compare_view_op_id_width (cmp, &style), x), ==, 4);
          g_assert_cmpfloat (y, >=, h0);
          g_assert_cmpfloat (y, <, h1);
          differ++;
        }
  g_assert_cmpuint (differ, >, 20);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (sorted);

  /* the titles drawn elsewhere (kept in sight when scrolled past): ink only in their row */
  {
    const double at = 300;
    guint inked = 0;
    cairo_surface_t *header = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, 400);
    cairo_t *cr = cairo_create (header);
    zw_compare_view_draw_header (cr, W, at, zw_compare_view_op_id_width (cmp, &style), 4, TRUE, &style);
    cairo_destroy (cr);
    cairo_surface_flush (header);
    for (int y = 0; y < 400; y++)
      for (int x = 0; x < W; x++)
        if (zw_test_pixel (header, x, y) != 0)
          {
            g_assert_cmpfloat (y, >=, at);
            g_assert_cmpfloat (y, <, at + (h1 - h0));
            inked++;
          }
    g_assert_cmpuint (inked, >, 200);
    cairo_surface_destroy (header);
  }
}

/* Issue 37 item 6: a merged launch expands to its members — the merged side's figures an
 * estimated share of the launch in proportion to the planner's estimates, the side that ran
 * the members alone their own times — and drawn as more rows; "regressions only" keeps the
 * rows B is slower in by more than the threshold and counts the others. */
static void
test_members_and_regressions (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (ZwProfile) on = NULL, off = NULL, slow = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL, cmp_slow = NULL;
  g_autoptr (ZwCompareShown) plain = NULL, expanded = NULL;
  g_autoptr (GHashTable) all = g_hash_table_new (g_int64_hash, g_int64_equal);
  ZwCompareShowOptions o = { 0 };
  guint n_launches = 0, n_members = 0;
  ZwViewStyle style;

  zw_test_run_profiled (net, TRUE, &on, &report_on);
  zw_test_run_profiled (net, FALSE, &off, &report_off);
  cmp = zw_profile_compare (on, off, NULL);
  zw_profile_compare_set_classes (cmp, report_on, report_off);
  plain = zw_compare_shown_new (cmp, NULL);
  g_assert_cmpuint (plain->rows->len, ==, cmp->rows->len);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      if (r->merge_from->len > 1)
        g_hash_table_add (all, &r->op_id);
    }
  g_assert_cmpuint (g_hash_table_size (all), >, 0);
  o = (ZwCompareShowOptions) { FALSE, 0, all, on, off, report_on, report_off };
  expanded = zw_compare_shown_new (cmp, &o);
  for (guint i = 0; i < expanded->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (expanded, i);
      const GArray *m;
      double sum = 0, est_sum = 0;
      if (s->member >= 0 || !s->expandable)
        continue;   /* a member (checked with its launch below), a row of one op */
      g_assert_true (s->expanded);
      n_launches++;
      m = s->row->merge_from;
      for (guint k = 0; k < m->len; k++)
        for (guint h = 0; h < report_on->hardops->len; h++)
          if (g_array_index (report_on->hardops, ZwHardOpInfo, h).op_id == g_array_index (m, gint64, k))
            est_sum += g_array_index (report_on->hardops, ZwHardOpInfo, h).est_ms;
      g_assert_cmpfloat (est_sum, >, 0);
      for (guint k = 0; k < m->len; k++)
        {
          const ZwCompareShownRow *c = zw_compare_shown_get (expanded, i + 1 + k);
          gint64 id = g_array_index (m, gint64, k);
          double est = 0, own = -1;
          for (guint h = 0; h < report_on->hardops->len; h++)
            if (g_array_index (report_on->hardops, ZwHardOpInfo, h).op_id == id)
              est = g_array_index (report_on->hardops, ZwHardOpInfo, h).est_ms;
          for (guint j = 0; j < off->rows->len; j++)
            if (((ZwProfileRow *) g_ptr_array_index (off->rows, j))->op_id == id)
              own = ((ZwProfileRow *) g_ptr_array_index (off->rows, j))->total_ms;
          g_assert_nonnull (c);
          g_assert_true (c->row == s->row);
          g_assert_cmpint (c->member, ==, (gint) k);
          g_assert_cmpint (c->op_id, ==, id);
          g_assert_nonnull (c->op_class);
          /* A ran them merged: its share by the planner's estimates, labelled an estimate */
          g_assert_true (c->has_a && c->a_estimated);
          g_assert_cmpfloat_with_epsilon (c->a_ms, s->row->a_ms * est / est_sum, 1e-12);
          /* B ran each alone: its own time, measured */
          g_assert_true (c->has_b && !c->b_estimated);
          g_assert_cmpfloat (own, >=, 0);
          g_assert_cmpfloat_with_epsilon (c->b_ms, own, 1e-12);
          sum += c->a_ms;
          n_members++;
        }
      g_assert_cmpfloat_with_epsilon (sum, s->row->a_ms, 1e-9);
    }
  g_test_message ("%u launches, %u members", n_launches, n_members);
  g_assert_cmpuint (n_launches, ==, g_hash_table_size (all));
  g_assert_cmpuint (expanded->rows->len, ==, cmp->rows->len + n_members);

  /* drawn: the members are rows below the last of the comparison's, where nothing was */
  zw_view_style_init_default (&style);
  {
    const int W = 1000, H = zw_compare_view_content_height (cmp, NULL) + (int) n_members * 20;
    cairo_surface_t *a = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
    cairo_surface_t *b = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr;
    double h0, h1;
    guint ink_a = 0, ink_b = 0;
    cr = cairo_create (a);
    zw_compare_view_draw_shown (cr, W, H, cmp, NULL, plain, 0, "A", "B", -1, -1, FALSE, &style);
    cairo_destroy (cr);
    cr = cairo_create (b);
    zw_compare_view_draw_shown (cr, W, H, cmp, NULL, expanded, 0, "A", "B", -1, -1, FALSE, &style);
    cairo_destroy (cr);
    cairo_surface_flush (a);
    cairo_surface_flush (b);
    if (g_getenv ("ZW_COMPARE_ROWS_KEEP") != NULL)
      {
        /* to look at: ZW_COMPARE_ROWS_KEEP=DIR */
        g_autofree char *png = g_build_filename (g_getenv ("ZW_COMPARE_ROWS_KEEP"), "compare-members.png", NULL);
        cairo_surface_write_to_png (b, png);
      }
    g_assert_true (zw_compare_view_header_extent (cmp, NULL, &h0, &h1));
    for (int y = (int) (h1 + cmp->rows->len * 20 + 2); y < H - 10; y++)
      for (int x = 0; x < W; x++)
        {
          ink_a += zw_test_pixel (a, x, y) != zw_test_pixel (a, 0, 0);
          ink_b += zw_test_pixel (b, x, y) != zw_test_pixel (b, 0, 0);
        }
    g_test_message ("ink below the rows: %u plain, %u expanded", ink_a, ink_b);
    g_assert_cmpuint (ink_a, ==, 0);
    g_assert_cmpuint (ink_b, >, 200);
    cairo_surface_destroy (a);
    cairo_surface_destroy (b);
  }

  /* regressions only: B = A with every other row 50 % slower */
  slow = zw_profile_copy (on);
  for (guint i = 0; i < slow->rows->len; i++)
    if (i % 2 == 1)
      ((ZwProfileRow *) g_ptr_array_index (slow->rows, i))->total_ms *= 1.5;
  cmp_slow = zw_profile_compare (on, slow, NULL);
  {
    const double thresholds[] = { 0.1, 0.49, 0.51 };
    guint expect_slower = 0;
    for (guint i = 0; i < on->rows->len; i++)
      expect_slower += i % 2 == 1 && ((ZwProfileRow *) g_ptr_array_index (on->rows, i))->total_ms > 0;
    g_assert_cmpuint (expect_slower, >, 0);
    for (guint t = 0; t < G_N_ELEMENTS (thresholds); t++)
      {
        ZwCompareShowOptions f = { TRUE, thresholds[t], NULL, NULL, NULL, NULL, NULL };
        g_autoptr (ZwCompareShown) kept = zw_compare_shown_new (cmp_slow, &f);
        guint want = thresholds[t] < 0.5 ? expect_slower : 0;
        g_assert_cmpuint (kept->rows->len, ==, want);
        g_assert_cmpuint (kept->n_matching, ==, want);
        g_assert_cmpuint (kept->n_hidden, ==, cmp_slow->rows->len - want);
        for (guint i = 0; i < kept->rows->len; i++)
          g_assert_cmpfloat (zw_compare_shown_get (kept, i)->row->ratio, >, 1 + thresholds[t]);
      }
  }
}

/* The width of @text drawn as the Compare view draws it (pango, "Sans" at the style's size). */
static double
pango_width (const ZwViewStyle *style, const char *text)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  int w, h;

  pango_font_description_set_absolute_size (font, style->font_size * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return w;
}

/* A (merge on): ops 0..@n-1 with the launches 74 (of the 9 ops 75..83) and 1234 (of the 12
 * ops 1235..1246) in place of their members; B (merge off): every op alone, no launch. */
static ZwProfileCompare *
merged_launches_compare (guint n)
{
  g_autoptr (ZwProfile) a = zw_profile_new ("net");
  g_autoptr (ZwProfile) b = zw_profile_new ("net");
  static const struct { gint64 id; guint members; } launches[] = { { 74, 9 }, { 1234, 12 } };

  for (guint i = 0; i < n; i++)
    {
      gboolean launch = FALSE, member = FALSE;
      for (guint l = 0; l < G_N_ELEMENTS (launches); l++)
        {
          launch = launch || i == launches[l].id;
          member = member || (i > launches[l].id && i <= launches[l].id + launches[l].members);
          if (i == launches[l].id)
            {
              ZwProfileRow *r = zw_profile_add_row (a, i, "icraft::xir::HardOpNode", "", 0.05, 0, 0.05, 0);
              for (guint k = 1; k <= launches[l].members; k++)
                {
                  gint64 id = i + k;
                  g_array_append_val (r->merge_from, id);
                }
            }
        }
      if (!launch)
        zw_profile_add_row (b, i, "icraft::xir::HardOpNode", "", 0.01 * (i % 7 + 1), 0, 0.01, 0);
      if (!launch && !member)
        zw_profile_add_row (a, i, "icraft::xir::HardOpNode", "", 0.01 * (i % 7 + 1), 0, 0.01, 0);
    }
  zw_profile_compute_totals (a);
  zw_profile_compute_totals (b);
  return zw_profile_compare (a, b, NULL);
}

/* The op id column is as wide as its widest cell measured with pango: "74 (9 ops)" and
 * "1234 (12 ops)" after their ▸ are drawn whole (the ink reaches the text's full width), also
 * as a pipeline's "backbone:1234 (12 ops)" (which the fixed 104 px cut), the class column
 * starts right after, and a comparison of short ids only has a narrower column. */
static void
test_op_id_column_fits (void)
{
  static const char *const nets[] = { NULL, "backbone" };
  g_autoptr (ZwProfileCompare) small = merged_launches_compare (9);
  const int W = 1000;
  const double expander = 16 - 4;   /* EXPANDER_W less the cell's padding: the text's indent */
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  for (guint t = 0; t < G_N_ELEMENTS (nets); t++)
    {
      g_autoptr (ZwProfileCompare) cmp = merged_launches_compare (1300);
      g_autoptr (ZwCompareShown) shown = NULL;
      g_autofree char *widest = g_strdup_printf ("%s%s1234 (12 ops)", nets[t] ? nets[t] : "", nets[t] ? ":" : "");
      g_autofree char *shape = g_strdup_printf ("%s%s0000 (00 ops)", nets[t] ? nets[t] : "", nets[t] ? ":" : "");
      double w;
      guint found = 0;

      /* a pipeline's comparison names each row's network */
      for (guint i = 0; nets[t] != NULL && i < cmp->rows->len; i++)
        ((ZwCompareRow *) g_ptr_array_index (cmp->rows, i))->network = g_strdup (nets[t]);
      w = zw_compare_view_op_id_width (cmp, &style);
      g_test_message ("op id column: %.0f px (\"%s\" %.0f px), short ids %.0f px", w, widest,
                      pango_width (&style, widest), zw_compare_view_op_id_width (small, &style));
      g_assert_cmpfloat (w, >=, pango_width (&style, widest) + expander + 8);
      g_assert_cmpfloat (w, <=, pango_width (&style, shape) + expander + 8 + 1);
      g_assert_cmpfloat (zw_compare_view_op_id_width (small, &style), <, w - 20);
      g_assert_cmpint (zw_compare_view_column_at (W, w, 8 + w - 1), ==, 0);
      g_assert_cmpint (zw_compare_view_column_at (W, w, 8 + w + 1), ==, 1);

      shown = zw_compare_shown_new (cmp, NULL);
      {
        const int H = zw_compare_view_content_height (cmp, NULL);
        cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
        cairo_t *cr = cairo_create (surface);

        zw_compare_view_draw_shown (cr, W, H, cmp, NULL, shown, 0, "A", "B", -1, -1, FALSE, &style);
        cairo_destroy (cr);
        cairo_surface_flush (surface);
        for (guint i = 0; i < shown->rows->len; i++)
          {
            const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
            g_autofree char *text = NULL;
            double y0, y1, start = 8 + 4 + expander, right = 0;
            if (!s->expandable)
              continue;
            text = g_strdup_printf ("%s%s%" G_GINT64_FORMAT " (%u ops)", nets[t] ? nets[t] : "", nets[t] ? ":" : "",
                                    s->op_id, s->row->merge_from->len);
            g_assert_true (zw_compare_view_row_extent (cmp, NULL, i, &y0, &y1));
            /* the rightmost ink of the cell's text (the row's background read at its top edge) */
            for (int y = (int) y0 + 2; y < (int) y1 - 2; y++)
              for (int x = (int) start; x < (int) (8 + w); x++)
                if (zw_test_pixel (surface, x, y) != zw_test_pixel (surface, 8 + w - 1, y0 + 1))
                  right = MAX (right, x + 1);
            g_test_message ("%s: ink to x = %.0f, text %.0f px from %.0f, column ends at %.0f", text, right,
                            pango_width (&style, text), start, 8 + w);
            /* whole: an ellipsized text ends (with its "…") short of its full width */
            g_assert_cmpfloat (right, >=, start + pango_width (&style, text) - 3);
            g_assert_cmpfloat (right, <=, 8 + w);
            found++;
          }
        cairo_surface_destroy (surface);
      }
      g_assert_cmpuint (found, ==, 2);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-rows/time-files/renumbered-custom-ops-match-by-kind", test_time_files_renumbered_custom_ops);
  g_test_add_func ("/compare-rows/runs/rows-name-the-hardop-class", test_rows_name_the_hardop_class);
  g_test_add_func ("/compare-rows/headers/sort-numbers-descending-first-title-marked", test_headers_sort);
  g_test_add_func ("/compare-rows/runs/merged-launch-members-estimated-regressions-only", test_members_and_regressions);
  g_test_add_func ("/compare-rows/op-id/column-fits-merged-launches", test_op_id_column_fits);
  return g_test_run ();
}
