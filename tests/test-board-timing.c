/* test-board-timing.c: the board's timing model, hand-computed, and its clock setters. */
#include "zw-test-board.h"

#include <string.h>

static void
test_timing_hand_computed (void)
{
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  GError *error = NULL;
  Zg330OpWork w = { 0 };
  Zg330OpCycles c;
  double v;

  g_assert_cmpfloat (p->macs_per_cycle, ==, 4000.0);   /* 8 TOPS = 4 TMAC/s at 1 GHz */
  w.macs = 4000 * 1000;          /* 1000 cycles */
  w.etm_read_bytes = 6400;       /* + 6400 written: 12800 B at 12.8 GB/s = 1 us */
  w.etm_write_bytes = 6400;
  w.ocm_read_bytes = 256000;     /* 256000 B at 128 GB/s = 2 us */
  zg330_timing_op_breakdown (p, &w, &c);
  g_assert_cmpuint (c.compute_cycles, ==, 1000);
  g_assert_cmpuint (c.etm_cycles, ==, 1000);
  g_assert_cmpuint (c.ocm_cycles, ==, 2000);
  g_assert_cmpuint (c.total_cycles, ==, 2500);
  g_assert_cmpint (c.bound, ==, ZG330_BOUND_OCM);
  g_assert_cmpuint (zg330_timing_op_cycles (p, &w), ==, 2500);

  w.macs = 4000 * 1000 + 1;      /* one MAC more: a cycle more, still OCM bound */
  zg330_timing_op_breakdown (p, &w, &c);
  g_assert_cmpuint (c.compute_cycles, ==, 1001);

  g_assert_cmpuint (zg330_timing_launch_overhead (p, TRUE), ==, 2000);
  g_assert_cmpuint (zg330_timing_launch_overhead (p, FALSE), ==, 2000 + 25000);
  g_assert_cmpfloat_with_epsilon (zg330_timing_cycles_to_ms (p, 1000000), 1.0, 1e-12);

  /* What-ifs: a slower icore keeps the array width; a slower DDR halves ETM bandwidth. */
  g_assert_true (zg330_profile_set_icore_clock_hz (p, 500e6, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (p->macs_per_cycle, ==, 4000.0);
  g_assert_cmpfloat_with_epsilon (p->int8_tops, 4.0, 1e-12);
  w = (Zg330OpWork) { .etm_read_bytes = 12800 };
  g_assert_cmpuint (zg330_timing_op_cycles (p, &w), ==, 500 + 500);
  g_assert_true (zg330_profile_set_ddr_clock_hz (p, 400e6, &error));
  g_assert_cmpfloat_with_epsilon (p->etm_bandwidth, 6.4e9, 1);
  g_assert_cmpuint (zg330_timing_op_cycles (p, &w), ==, 1000 + 500);
  g_assert_cmpuint (zg330_timing_launch_overhead (p, FALSE), ==, 2000 + 12500);

  g_assert_true (zg330_profile_set_ocm_bytes (p, 4 << 20, &error));
  g_assert_true (zg330_profile_get_field (p, "ocm_bytes", &v));
  g_assert_cmpfloat (v, ==, 4 << 20);
  g_assert_false (zg330_profile_set_ocm_bytes (p, 100, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_assert_nonnull (strstr (error->message, "'ocm_bytes'"));
  g_clear_error (&error);
  g_assert_cmpuint (p->ocm_bytes, ==, 4 << 20);   /* unchanged by the failed set */
  g_assert_false (zg330_profile_set_field (p, "mpe_rows", 2.5, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
  g_assert_false (zg330_profile_set_field (p, "warp_drive", 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
}

static void
test_timing_device_clock_setters (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;

  g_assert_true (zg330_device_set_icore_clk_freq (device, 2000000000, &error));
  g_assert_true (zg330_device_set_ddr_clk_freq (device, 1600000000, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (zg330_sim_get_profile (device)->etm_bandwidth, 25.6e9, 1);
  g_assert_cmpfloat_with_epsilon (zg330_sim_get_profile (device)->int8_tops, 16.0, 1e-9);
  g_assert_false (zg330_sim_set_timing_field (device, "ocm_bytes", 1 << 22, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
  g_assert_false (zg330_device_set_icore_clk_freq (device, 0, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
}

void
test_board_add_timing (void)
{
  g_test_add_func ("/board/timing/hand-computed", test_timing_hand_computed);
  g_test_add_func ("/board/timing/device-clock-setters", test_timing_device_clock_setters);
}
