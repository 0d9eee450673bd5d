/* test-board.c — xrt memory and device layer, the simulated ZG330 board and its timing: one
 * TAP binary of one file per area (test-board-AREA.c) over the helpers of zw-test-board.c. */
#include "zw-test-board.h"

int
main (int argc, char **argv)
{
  /* The default profile must be the source tree's, whatever the caller's environment. */
  g_unsetenv ("ZW_ZG330_PROFILE");
  g_test_init (&argc, &argv, NULL);

  test_board_add_alloc ();
  test_board_add_memory ();
  test_board_add_device ();
  test_board_add_icore ();
  test_board_add_timing ();
  test_board_add_profile ();
  test_board_add_threads ();

  return g_test_run ();
}
