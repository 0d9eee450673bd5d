/* test-timing-geometry.c — where the Timing view puts things, as numbers (suite render: no
 * display, no drawing): rows in time and execution order, the boxes of a drawing and its
 * lanes with and without merged launches, time <-> x, bar parts, ruler ticks and labels,
 * the visible range's clamp and zoom, hit testing (sub-pixel bars as drawn), busy time in
 * a range. */
#include "zw-timing-geometry.h"

#include <math.h>

/* 0..4 NPU, 4..6 Host, 10..14 NPU (placed), then a row of no time at 14 */
static ZwProfile *
make_profile (void)
{
  ZwProfile *p = zw_profile_new ("geometry");
  ZwProfileRow *r;

  zw_profile_add_row (p, 1, "icraft::xir::HardOpNode", "conv", 4, 1, 2, 1);
  zw_profile_add_row (p, 2, "customop::Resize", "resize", 2, 0, 0, 2);
  r = zw_profile_add_row (p, 3, "icraft::xir::HardOpNode", "conv2", 4, 0, 4, 0);
  r->start_ms = 10;
  zw_profile_add_row (p, 4, "icraft::xir::HardOpNode", "broken", -1, 0, 0, -1);
  return p;
}

static void
test_layout_end_to_end (void)
{
  g_autoptr (ZwProfile) p = make_profile ();
  g_autofree double *starts = NULL;

  g_assert_cmpfloat (zw_timing_layout (p, &starts), ==, 14);
  g_assert_cmpfloat (starts[0], ==, 0);
  g_assert_cmpfloat (starts[1], ==, 4);
  g_assert_cmpfloat (starts[2], ==, 10);
  g_assert_cmpfloat (starts[3], ==, 14);   /* a negative total takes no time */
}

static void
test_layout_follows_execution_order (void)
{
  g_autoptr (ZwProfile) p = zw_profile_new ("order");
  g_autofree double *starts = NULL;
  guint order[] = { 2, 0, 1 };

  zw_profile_add_row (p, 10, "icraft::xir::HardOpNode", "a", 3, 0, 3, 0);
  zw_profile_add_row (p, 11, "icraft::xir::HardOpNode", "b", 2, 0, 2, 0);
  zw_profile_add_row (p, 12, "icraft::xir::HardOpNode", "c", 5, 0, 5, 0);
  p->order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_vals (p->order, order, G_N_ELEMENTS (order));
  g_assert_cmpfloat (zw_timing_layout (p, &starts), ==, 10);
  g_assert_cmpfloat (starts[2], ==, 0);
  g_assert_cmpfloat (starts[0], ==, 5);
  g_assert_cmpfloat (starts[1], ==, 8);
}

static void
test_row_lane (void)
{
  g_autoptr (ZwProfile) p = zw_profile_new ("lanes");
  ZwProfileRow *hard = zw_profile_add_row (p, 1, "icraft::xir::HardOpNode", "h", 1, 0, 1, 0);
  ZwProfileRow *custom = zw_profile_add_row (p, 2, "customop::Resize", "r", 1, 0, 0, 1);
  ZwProfileRow *on_host = zw_profile_add_row (p, 3, "icraft::xir::HardOpNode", "x", 1, 0, 1, 0);
  ZwProfileRow *on_npu = zw_profile_add_row (p, 4, "customop::Resize", "y", 1, 0, 0, 1);

  on_host->backend = g_strdup ("host");
  on_npu->backend = g_strdup ("ZG330");
  g_assert_cmpint (zw_timing_row_lane (hard), ==, ZW_TIMING_LANE_NPU);
  g_assert_cmpint (zw_timing_row_lane (custom), ==, ZW_TIMING_LANE_HOST);
  /* the backend, when the row has one, decides (case-insensitively) */
  g_assert_cmpint (zw_timing_row_lane (on_host), ==, ZW_TIMING_LANE_HOST);
  g_assert_cmpint (zw_timing_row_lane (on_npu), ==, ZW_TIMING_LANE_NPU);
}

static void
test_boxes_and_lanes (void)
{
  ZwTimingGeometry g;

  /* 1000 x 400, no merged launch: the Merged lane is a 12-pixel line */
  zw_timing_geometry_init (&g, 14, NULL, 1000, 400, FALSE);
  g_assert_cmpfloat (g.x0, ==, 64);
  g_assert_cmpfloat (g.x1, ==, 992);
  g_assert_cmpfloat (g.ruler_y0, ==, 30);
  g_assert_cmpfloat (g.ruler_y1, ==, 52);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_NPU][0], ==, 56);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_NPU][1], ==, 180);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_MERGED][0], ==, 182);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_MERGED][1], ==, 194);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_HOST][0], ==, 198);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_HOST][1], ==, 300);
  g_assert_cmpfloat (g.summary_y, ==, 306);
  g_assert_cmpfloat (g.t0, ==, 0);
  g_assert_cmpfloat (g.t1, ==, 14);

  /* with merged launches the Merged lane is a strip (a fifth of the room, at most 44) */
  zw_timing_geometry_init (&g, 14, NULL, 1000, 400, TRUE);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_NPU][1], ==, 162);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_MERGED][0], ==, 164);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_MERGED][1], ==, 208);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_HOST][0], ==, 212);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_HOST][1], ==, 300);

  /* too small a drawing keeps 30 pixels of lanes and a plot at least a pixel wide */
  zw_timing_geometry_init (&g, 14, NULL, 40, 100, FALSE);
  g_assert_cmpfloat (g.x1, ==, 65);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_NPU][1], ==, 62);
  g_assert_cmpfloat (g.lane_y[ZW_TIMING_LANE_HOST][1], ==, 86);

  /* an empty profile spans [0, 1] ms */
  zw_timing_geometry_init (&g, 0, NULL, 1000, 400, FALSE);
  g_assert_cmpfloat (g.t1, ==, 1);
}

static void
test_time_and_x (void)
{
  ZwTimingState state;
  ZwTimingGeometry g;
  g_autoptr (ZwProfile) p = make_profile ();

  zw_timing_state_init (&state);
  g_assert_cmpint (state.selected_row, ==, -1);
  g_assert_cmpint (state.hover_row, ==, -1);
  zw_timing_geometry_init (&g, 14, &state, 1000, 400, FALSE);
  g_assert_cmpfloat (zw_timing_geometry_x (&g, 0), ==, 64);
  g_assert_cmpfloat (zw_timing_geometry_x (&g, 7), ==, 528);
  g_assert_cmpfloat (zw_timing_geometry_x (&g, 14), ==, 992);
  g_assert_cmpfloat (zw_timing_x_of_time (p, &state, 1000, 7), ==, 528);
  for (double t = 0; t <= 14; t += 0.7)
    g_assert_cmpfloat_with_epsilon (zw_timing_geometry_time_at (&g, zw_timing_geometry_x (&g, t)), t, 1e-12);

  /* a visible range: [2, 6] fills the plot, times outside fall outside it */
  state.t0 = 2;
  state.t1 = 6;
  zw_timing_geometry_init (&g, 14, &state, 1000, 400, FALSE);
  g_assert_cmpfloat (zw_timing_geometry_x (&g, 2), ==, 64);
  g_assert_cmpfloat (zw_timing_geometry_x (&g, 4), ==, 528);
  g_assert_cmpfloat (zw_timing_geometry_x (&g, 8), ==, 1456);
  g_assert_cmpfloat (zw_timing_geometry_time_at (&g, 296), ==, 3);
}

static void
test_bar_parts (void)
{
  g_autoptr (ZwProfile) p = zw_profile_new ("parts");
  ZwProfileRow *plain = zw_profile_add_row (p, 1, "icraft::xir::HardOpNode", "a", 10, 2, 5, 3);
  ZwProfileRow *hard_over = zw_profile_add_row (p, 2, "icraft::xir::HardOpNode", "b", 4, 1, 9, -6);
  ZwProfileRow *negative = zw_profile_add_row (p, 3, "icraft::xir::HardOpNode", "c", 8, -1, 2, 6);
  ZwProfileRow *none = zw_profile_add_row (p, 4, "icraft::xir::HardOpNode", "d", 0, 1, 1, 0);
  double parts[3];

  zw_timing_bar_parts (plain, 100, parts);
  g_assert_cmpfloat (parts[0], ==, 20);
  g_assert_cmpfloat (parts[1], ==, 50);
  g_assert_cmpfloat (parts[2], ==, 30);
  /* hard > total: clipped to what memcpy leaves, no other */
  zw_timing_bar_parts (hard_over, 100, parts);
  g_assert_cmpfloat (parts[0], ==, 25);
  g_assert_cmpfloat (parts[1], ==, 75);
  g_assert_cmpfloat (parts[2], ==, 0);
  /* a negative memcpy is none */
  zw_timing_bar_parts (negative, 80, parts);
  g_assert_cmpfloat (parts[0], ==, 0);
  g_assert_cmpfloat (parts[1], ==, 20);
  g_assert_cmpfloat (parts[2], ==, 60);
  zw_timing_bar_parts (none, 100, parts);
  g_assert_cmpfloat (parts[0] + parts[1] + parts[2], ==, 0);
}

static void
test_ruler_ticks (void)
{
  ZwTimingState state;
  ZwTimingGeometry g;
  char buf[64];

  /* 928 pixels: ten ticks wanted over 14 ms, so every 2 ms */
  zw_timing_geometry_init (&g, 14, NULL, 1000, 400, FALSE);
  g_assert_cmpfloat (zw_timing_geometry_ruler_step (&g), ==, 2);
  /* 0.3 ms: every 0.05 */
  zw_timing_state_init (&state);
  state.t0 = 0;
  state.t1 = 0.3;
  zw_timing_geometry_init (&g, 14, &state, 1000, 400, FALSE);
  g_assert_cmpfloat_with_epsilon (zw_timing_geometry_ruler_step (&g), 0.05, 1e-15);
  /* a narrow plot still has two ticks */
  zw_timing_geometry_init (&g, 14, NULL, 130, 400, FALSE);
  g_assert_cmpfloat (zw_timing_geometry_ruler_step (&g), ==, 10);

  g_assert_cmpstr (zw_timing_tick_label (6, 2, buf, sizeof buf), ==, "6 ms");
  g_assert_cmpstr (zw_timing_tick_label (0.15, 0.05, buf, sizeof buf), ==, "0.15 ms");
  g_assert_cmpstr (zw_timing_tick_label (0.5, 0.2, buf, sizeof buf), ==, "0.5 ms");
  g_assert_cmpstr (zw_timing_tick_label (0.5, 1e-12, buf, sizeof buf), ==, "0.500000000 ms");
}

static void
test_range_clamp_and_zoom (void)
{
  double t0, t1;

  zw_timing_range_clamp (100, -5, 5, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 10);
  zw_timing_range_clamp (100, 95, 105, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 90);
  g_assert_cmpfloat (t1, ==, 100);
  zw_timing_range_clamp (100, 50, 500, &t0, &t1);   /* wider than the whole: the whole */
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 100);
  zw_timing_range_clamp (100, 5, 5, &t0, &t1);       /* empty: fits */
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 100);
  zw_timing_range_clamp (100, NAN, 3, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 100);
  zw_timing_range_clamp (100, 20, 20 + 1e-9, &t0, &t1);   /* at least 1e-7 of the whole */
  g_assert_cmpfloat (t0, ==, 20);
  g_assert_cmpfloat_with_epsilon (t1 - t0, 1e-5, 1e-12);
  zw_timing_range_clamp (0, 0, 0, &t0, &t1);         /* nothing to show: [0, 1] */
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 1);

  /* zoom keeps the centre where it is */
  zw_timing_range_zoom (100, 0, 100, 2, 50, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 25);
  g_assert_cmpfloat (t1, ==, 75);
  zw_timing_range_zoom (100, 0, 100, 1.25, 80, &t0, &t1);
  g_assert_cmpfloat_with_epsilon (t0, 16, 1e-12);
  g_assert_cmpfloat_with_epsilon (t1, 96, 1e-12);
  zw_timing_range_zoom (100, 25, 75, 0.5, 50, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 100);
  /* zooming out past the whole stops at it */
  zw_timing_range_zoom (100, 60, 100, 0.25, 90, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 100);
}

static void
test_hit_testing (void)
{
  g_autoptr (ZwProfile) p = make_profile ();
  ZwTimingLane lane;
  double y0, y1;

  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 2.0 / 14 * 928, 100, &lane), ==, 0);
  g_assert_cmpint (lane, ==, ZW_TIMING_LANE_NPU);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 5.0 / 14 * 928, 250, &lane), ==, 1);
  g_assert_cmpint (lane, ==, ZW_TIMING_LANE_HOST);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 12.0 / 14 * 928, 100, NULL), ==, 2);
  /* the gap between 4 and 10 ms, a Host time in the NPU lane, the labels, the title */
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 8.0 / 14 * 928, 100, NULL), ==, -1);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 5.0 / 14 * 928, 100, NULL), ==, -1);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 30, 100, NULL), ==, -1);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 300, 20, &lane), ==, -1);
  g_assert_cmpint (lane, ==, ZW_TIMING_LANE_NONE);
  /* the Merged lane has nothing to hit here */
  zw_timing_lane_extent (p, NULL, 1000, 400, ZW_TIMING_LANE_MERGED, &y0, &y1);
  g_assert_cmpfloat (y0, ==, 182);
  g_assert_cmpfloat (y1, ==, 194);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 100, 188, &lane), ==, -1);
  g_assert_cmpint (lane, ==, ZW_TIMING_LANE_MERGED);
  g_assert_cmpint (zw_timing_row_at (NULL, NULL, NULL, 1000, 400, 100, 100, NULL), ==, -1);
}

static void
test_hit_sub_pixel_bar (void)
{
  g_autoptr (ZwProfile) p = zw_profile_new ("thin");

  /* a 1 µs row between two 1-second ones: 0.0005 px wide, hit as the pixel it is drawn */
  zw_profile_add_row (p, 1, "icraft::xir::HardOpNode", "a", 1000, 0, 1000, 0);
  zw_profile_add_row (p, 2, "icraft::xir::HardOpNode", "thin", 0.001, 0, 0.001, 0);
  zw_profile_add_row (p, 3, "icraft::xir::HardOpNode", "c", 1000, 0, 1000, 0);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 528.7, 100, NULL), ==, 1);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 520, 100, NULL), ==, 0);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 540, 100, NULL), ==, 2);
}

static void
test_merged_launches (void)
{
  g_autoptr (ZwProfile) p = make_profile ();
  g_autoptr (ZwProfile) plain = make_profile ();
  g_autoptr (ZwDeployReport) report = zw_deploy_report_new ();
  g_autoptr (GHashTable) launches = NULL;
  ZwProfileRow *row = g_ptr_array_index (p->rows, 2);
  ZwLaunch launch = { .op_id = 1 };
  gint64 members[] = { 7, 8, 9 };
  double y0, y1;

  g_assert_null (zw_timing_index_launches (NULL));
  g_assert_false (zw_timing_profile_has_merged (plain, NULL));
  g_assert_false (zw_timing_profile_has_merged (NULL, NULL));

  /* a row's own merge_from */
  g_array_append_vals (row->merge_from, members, 2);
  g_assert_true (zw_timing_profile_has_merged (p, NULL));
  g_assert_cmpuint (zw_timing_row_members (row, NULL)->len, ==, 2);
  g_assert_null (zw_timing_row_members (g_ptr_array_index (p->rows, 0), NULL));
  zw_timing_lane_extent (p, NULL, 1000, 400, ZW_TIMING_LANE_MERGED, &y0, &y1);
  g_assert_cmpfloat (y0, ==, 164);
  g_assert_cmpfloat (y1, ==, 208);
  /* its band in the Merged lane is hit */
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 12.0 / 14 * 928, 190, NULL), ==, 2);
  g_assert_cmpint (zw_timing_row_at (p, NULL, NULL, 1000, 400, 64 + 2.0 / 14 * 928, 190, NULL), ==, -1);

  /* or the report's launch of that op id (a vendor file loses merge_from) */
  launch.merge_from = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_append_vals (launch.merge_from, members, 3);
  g_array_append_val (report->launches, launch);
  launches = zw_timing_index_launches (report);
  g_assert_true (zw_timing_profile_has_merged (plain, launches));
  g_assert_cmpuint (zw_timing_row_members (g_ptr_array_index (plain->rows, 0), launches)->len, ==, 3);
  zw_timing_lane_extent (plain, report, 1000, 400, ZW_TIMING_LANE_MERGED, &y0, &y1);
  g_assert_cmpfloat (y1 - y0, ==, 44);
  g_assert_cmpint (zw_timing_row_at (plain, report, NULL, 1000, 400, 64 + 2.0 / 14 * 928, 190, NULL), ==, 0);
}

static void
test_range_total (void)
{
  g_autoptr (ZwProfile) p = make_profile ();
  double npu, host;
  guint n;

  /* [3, 11]: 1 ms of row 0, 2 of row 1 (Host), 1 of row 2 */
  zw_timing_range_total (p, 3, 11, &npu, &host, &n);
  g_assert_cmpfloat (npu, ==, 2);
  g_assert_cmpfloat (host, ==, 2);
  g_assert_cmpuint (n, ==, 3);
  zw_timing_range_total (p, 0, 14, &npu, &host, &n);
  g_assert_cmpfloat (npu, ==, 8);
  g_assert_cmpfloat (host, ==, 2);
  g_assert_cmpuint (n, ==, 3);   /* the row of no time is in no range */
  zw_timing_range_total (p, 6, 10, &npu, &host, &n);
  g_assert_cmpfloat (npu + host, ==, 0);
  g_assert_cmpuint (n, ==, 0);
  zw_timing_range_total (p, 5, 5, &npu, &host, &n);
  g_assert_cmpuint (n, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timing/geometry/layout-end-to-end", test_layout_end_to_end);
  g_test_add_func ("/timing/geometry/layout-follows-execution-order", test_layout_follows_execution_order);
  g_test_add_func ("/timing/geometry/row-lane-by-backend-then-type", test_row_lane);
  g_test_add_func ("/timing/geometry/boxes-and-lanes", test_boxes_and_lanes);
  g_test_add_func ("/timing/geometry/time-to-x-and-back", test_time_and_x);
  g_test_add_func ("/timing/geometry/bar-parts-clip-hard-and-negatives", test_bar_parts);
  g_test_add_func ("/timing/geometry/ruler-ticks-and-labels", test_ruler_ticks);
  g_test_add_func ("/timing/geometry/range-clamp-and-zoom", test_range_clamp_and_zoom);
  g_test_add_func ("/timing/geometry/hit-testing", test_hit_testing);
  g_test_add_func ("/timing/geometry/hit-sub-pixel-bar-as-drawn", test_hit_sub_pixel_bar);
  g_test_add_func ("/timing/geometry/merged-launches-from-row-or-report", test_merged_launches);
  g_test_add_func ("/timing/geometry/range-total-busy-time", test_range_total);
  return g_test_run ();
}
