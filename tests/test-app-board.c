/* test-app-board — the workbench on a board served by zhuge-board (suite "display", issue 37
 * item 1): one connection per board, reused by every apply, forward, dump and option change,
 * opened again when the board restarts; `zhuge-workbench --device URL NET.json` opens a
 * network on a board from the command line, with --screenshot too. A pipeline runs on the
 * panel's device URL too (issue 38): the demo pipeline's networks deployed and run on the
 * zhuge-board through the window's one connection, each network's time the simulated
 * board's, then a network applied on the same connection again. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-run-history.h"
#include "zw-window.h"
#include "zw-sweep-view.h"
#include "zw-board-view.h"
#include "deploy/xrt-pipeline.h"
#include "devices/zg330-remote.h"
#include "report/zw-pipeline-report.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

static ZwWindow *win;

/* idle with @data runs, or idle with a banner (a failure: no use waiting for the run) */
static gboolean
is_idle_with_runs (gpointer data)
{
  return !zw_window_get_busy (win) && (zw_test_app_n_runs () >= GPOINTER_TO_UINT (data) || zw_window_get_banner_message (win) != NULL);
}

/* Waits for run @n of the window and checks it succeeded on @url (no banner). */
static ZwRun *
wait_for_run_on (guint n, const char *url, const char *what)
{
  ZwRun *run;

  if (!zw_test_app_wait_for (is_idle_with_runs, GUINT_TO_POINTER (n), 120))
    g_error ("%s: no run #%u after 120 s (banner: %s)", what, n, zw_window_get_banner_message (win));
  if (zw_window_get_banner_message (win) != NULL)
    g_error ("%s: %s", what, zw_window_get_banner_message (win));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);
  run = zw_window_get_selected_run (win);
  g_assert_cmpstr (zw_run_get_report (run)->device_url, ==, url);
  return run;
}

static void
set_device (const char *url)
{
  g_object_set (zw_window_get_options_panel (win), "device-url", url, NULL);
}

static ZwRunController *
controller (void)
{
  return zw_window_get_run_controller (win);
}

/* Ten rounds of what a user does with a board: change an option (an apply), forward, dump
 * the tensors, change another option; all on the one connection the window opened. */
static void
test_ten_rounds_on_one_board (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  static const char *ocm[] = { "none", "option1", "option2", "option3", "best" };
  XrtBoardLink *link;
  guint n;

  if (board == NULL)
    return;
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 60));
  n = zw_test_app_n_runs ();
  set_device (board->url);
  wait_for_run_on (++n, board->url, "first apply");
  link = zw_run_controller_get_board (controller ());
  g_assert_nonnull (link);
  for (guint round = 0; round < 10; round++)
    {
      g_autofree char *what = g_strdup_printf ("round %u", round);
      ZwRun *run;
      gboolean merge;

      /* an option change re-applies on the board */
      g_object_get (win, "merge-hardop", &merge, NULL);
      g_object_set (win, "merge-hardop", !merge, NULL);
      run = wait_for_run_on (++n, board->url, what);
      g_assert_cmpint (zw_run_get_report (run)->merge_hardop, ==, !merge);
      zw_test_app_activate ("win.forward", NULL);
      run = wait_for_run_on (++n, board->url, what);
      g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
      zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
      run = wait_for_run_on (++n, board->url, what);
      g_assert_nonnull (zw_run_get_dump_dir (run));
      g_assert_true (g_file_test (zw_run_get_dump_dir (run), G_FILE_TEST_IS_DIR));
      {
        g_autofree char *shown_ocm = NULL;
        g_object_get (win, "ocm-option", &shown_ocm, NULL);
        if (g_strcmp0 (shown_ocm, ocm[round % G_N_ELEMENTS (ocm)]) != 0)
          {
            g_object_set (win, "ocm-option", ocm[round % G_N_ELEMENTS (ocm)], NULL);
            run = wait_for_run_on (++n, board->url, what);
            g_assert_cmpstr (zw_ocm_opt_get_nick (zw_run_get_report (run)->ocm_requested), ==,
                             ocm[round % G_N_ELEMENTS (ocm)]);
          }
      }
      /* the sidebar shows what the views show */
      run = zw_window_get_selected_run (win);
      {
        gboolean shown_merge;
        g_object_get (win, "merge-hardop", &shown_merge, NULL);
        g_assert_cmpint (shown_merge, ==, zw_run_get_report (run)->merge_hardop);
      }
    }
  /* one connection for all of it */
  g_assert_true (zw_run_controller_get_board (controller ()) == link);
  g_assert_cmpuint (xrt_board_link_get_n_opens (link), ==, 1);

  /* a sweep of the options runs on the board too, over the same connection */
  {
    guint64 sent0 = 0, sent1 = 0, received = 0;
    const ZwSweep *sweep;

    zg330_remote_get_traffic (xrt_board_link_get_device (link), &sent0, &received);
    zw_test_app_activate ("win.sweep-what-if", g_variant_new_string (""));
    g_assert_true (zw_test_app_wait_for (is_idle_with_runs, GUINT_TO_POINTER (n), 300));
    g_assert_null (zw_window_get_banner_message (win));
    sweep = zw_sweep_view_get_sweep (ZW_SWEEP_VIEW (zw_window_get_view (win, "sweep")));
    g_assert_nonnull (sweep);
    g_assert_cmpuint (sweep->rows->len, ==, zw_sweep_get_n_combinations ());
    for (guint i = 0; i < sweep->rows->len; i++)
      g_assert_null (g_array_index (sweep->rows, ZwSweepRow, i).error);
    zg330_remote_get_traffic (xrt_board_link_get_device (link), &sent1, &received);
    g_test_message ("the sweep sent %" G_GUINT64_FORMAT " bytes to the board", sent1 - sent0);
    g_assert_cmpuint (sent1, >, sent0);
    g_assert_cmpuint (xrt_board_link_get_n_opens (link), ==, 1);
    /* what-if figures cannot be swept on a board: said, not ignored */
    zw_test_app_activate ("win.sweep-what-if", g_variant_new_string ("ocm=512K"));
    g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 120));
    g_assert_nonnull (strstr (zw_window_get_banner_message (win), "what-if"));
    zw_test_app_activate ("win.dismiss-banner", NULL);
    /* the board still deploys afterwards */
    zw_test_app_activate ("win.forward", NULL);
    wait_for_run_on (++n, board->url, "forward after the sweep");
  }

  /* the board restarts on the same port: the next forward reaches the new board */
  {
    g_autofree char *listen = g_strdup_printf ("127.0.0.1:%u", board->port);
    ZwBoard *again;
    ZwRun *run;

    zw_test_board_stop (g_steal_pointer (&board));
    again = zw_test_board_start ("zg330", "--listen", listen, NULL);
    board = again;
    zw_test_app_activate ("win.forward", NULL);
    run = wait_for_run_on (++n, board->url, "forward after the board restarted");
    g_assert_cmpfloat (zw_run_get_total_ms (run), >, 0);
    g_assert_cmpuint (xrt_board_link_get_n_opens (link), ==, 2);
    g_object_set (win, "etm-optimize", FALSE, NULL);
    wait_for_run_on (++n, board->url, "apply after the board restarted");
    g_object_set (win, "etm-optimize", TRUE, NULL);
    wait_for_run_on (++n, board->url, "apply after the board restarted");
    g_assert_cmpuint (xrt_board_link_get_n_opens (link), ==, 2);
  }
  /* back to the simulated board: the board is let go */
  set_device ("");
  wait_for_run_on (++n, "mock://zg330", "back on the simulated board");
  g_assert_null (zw_run_controller_get_board (controller ()));
}


/* A failed apply leaves the sidebar on the options the views show. */
static void
test_failed_apply_sidebar_shows_run (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autofree char *gone = NULL;
  gboolean merge, shown;
  guint n;

  if (board == NULL)
    return;
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 60));
  n = zw_test_app_n_runs ();
  set_device (board->url);
  wait_for_run_on (++n, board->url, "first apply");
  gone = g_strdup (board->url);
  zw_test_board_stop (g_steal_pointer (&board));
  /* the board is gone: the change fails, and the sidebar goes back to the run shown */
  g_object_get (win, "merge-hardop", &merge, NULL);
  g_object_set (win, "merge-hardop", !merge, NULL);
  g_assert_true (zw_test_app_wait_for (zw_test_app_has_banner_and_idle, NULL, 120));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), gone));
  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);
  g_object_get (win, "merge-hardop", &shown, NULL);
  g_assert_cmpint (shown, ==, merge);
  g_assert_cmpint (shown, ==, zw_run_get_report (zw_window_get_selected_run (win))->merge_hardop);
  zw_test_app_activate ("win.dismiss-banner", NULL);
  set_device ("");
  wait_for_run_on (++n, "mock://zg330", "back on the simulated board");
}

/* zhuge-workbench --device URL NET.json --screenshot: the screenshot's run is the board's. */
static void
test_command_line_device (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  const char *exe = g_getenv ("ZW_APP");
  g_autofree char *net = NULL, *dir = NULL, *png = NULL, *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (board == NULL)
    return;
  if (exe == NULL)
    {
      g_test_skip ("$ZW_APP is not set");
      return;
    }
  net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  dir = g_dir_make_tmp ("zw-board-shot-XXXXXX", &error);
  g_assert_no_error (error);
  png = g_build_filename (dir, "board.png", NULL);
  {
    const char *argv[] = { exe, "--device", board->url, "--view", "logs", "--screenshot", png, net, NULL };
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  }
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  /* the board served it: the server logged our client (its stdout has only the port line) */
  g_assert_null (strstr (err, "busy"));
  /* a board that is not there: the screenshot says so and fails */
  {
    g_autofree char *bad = g_strdup_printf ("socket://zg330@127.0.0.1:%u", board->port == 1 ? 2 : 1);
    const char *argv[] = { exe, "--device", bad, "--screenshot", png, net, NULL };
    g_autofree char *out2 = NULL, *err2 = NULL;

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out2, &err2, &status, &error);
    g_assert_no_error (error);
    g_assert_false (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (err2, bad));
  }
  g_unlink (png);
  g_rmdir (dir);
}

static gboolean
shows_new_pipeline (gpointer data)
{
  ZwPipelineReport *p = zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board")));
  return !zw_window_get_busy (win) && ((p != NULL && p != data) || zw_window_get_banner_message (win) != NULL);
}

/* The demo pipeline on the panel's zhuge-board: the same connection, the simulator's times. */
static void
test_pipeline_on_board (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *toml = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
  g_autoptr (XrtPipeline) mock = NULL;
  g_autoptr (GPtrArray) outputs = NULL;
  ZwPipelineReport *before, *p;
  XrtBoardLink *link;
  guint n, opens, on_board = 0;

  if (board == NULL)
    return;
  g_assert_true (zw_test_app_wait_for (zw_test_app_is_idle, NULL, 60));
  n = zw_test_app_n_runs ();
  set_device (board->url);
  wait_for_run_on (++n, board->url, "first apply");
  link = zw_run_controller_get_board (controller ());
  g_assert_nonnull (link);
  opens = xrt_board_link_get_n_opens (link);
  before = zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board")));
  zw_test_app_activate ("win.open-demo-pipeline", NULL);
  if (!zw_test_app_wait_for (shows_new_pipeline, before, 180))
    g_error ("no pipeline on the board after 180 s");
  if (zw_window_get_banner_message (win) != NULL)
    g_error ("the pipeline on %s: %s", board->url, zw_window_get_banner_message (win));
  p = zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board")));
  /* on the board of the panel, through the window's one connection */
  g_assert_cmpstr (p->device, ==, board->url);
  g_assert_cmpuint (xrt_board_link_get_n_opens (link), ==, opens);
  /* the same pipeline on the simulated board in this process: the same times, network by network */
  mock = xrt_pipeline_new_from_file (toml, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_pipeline_apply (mock, "mock://zg330", &error));
  g_assert_no_error (error);
  xrt_pipeline_enable_time_profile (mock, TRUE);
  outputs = xrt_pipeline_forward (mock, 0, &error);
  g_assert_no_error (error);
  {
    g_autoptr (cJSON) root = xrt_pipeline_report_to_json (mock, &error);
    g_autoptr (ZwPipelineReport) m = NULL;
    g_assert_no_error (error);
    m = zw_pipeline_report_from_json (root, toml, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (p->networks->len, ==, m->networks->len);
    for (guint i = 0; i < p->networks->len; i++)
      {
        const ZwPipelineNetwork *a = &g_array_index (p->networks, ZwPipelineNetwork, i);
        const ZwPipelineNetwork *b = &g_array_index (m->networks, ZwPipelineNetwork, i);
        g_assert_cmpstr (a->name, ==, b->name);
        g_assert_cmpint (a->on_board, ==, b->on_board);
        if (!a->on_board)
          continue;
        on_board++;
        g_assert_cmpstr (a->report->device_url, ==, board->url);
        g_assert_cmpfloat (a->time_ms, >, 0);
        g_assert_cmpfloat_with_epsilon (a->time_ms, b->time_ms, 1e-9);
      }
    g_assert_cmpuint (p->board_bytes, ==, m->board_bytes);
    g_test_message ("pipeline on %s: pass %.6f ms (simulated board %.6f ms), ETM %" G_GUINT64_FORMAT " bytes",
                    board->url, p->pass_ms, m->pass_ms, p->board_bytes);
  }
  g_assert_cmpuint (on_board, >=, 3);
  /* the network open applies on the same connection again */
  {
    gboolean merge;
    g_object_get (win, "merge-hardop", &merge, NULL);
    g_object_set (win, "merge-hardop", !merge, NULL);
    wait_for_run_on (++n, board->url, "apply after the pipeline");
    g_assert_cmpuint (xrt_board_link_get_n_opens (link), ==, opens);
  }
  set_device ("");
  wait_for_run_on (++n, "mock://zg330", "back on the simulated board");
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);

  g_test_add_func ("/app-board/socket/ten-rounds-of-apply-forward-dump-options-one-connection-then-restart",
                   test_ten_rounds_on_one_board);
  g_test_add_func ("/app-board/socket/failed-apply-sidebar-shows-the-run-shown", test_failed_apply_sidebar_shows_run);
  g_test_add_func ("/app-board/command-line/device-url-and-screenshot", test_command_line_device);
  g_test_add_func ("/app-board/socket/pipeline-on-the-panel-device-one-connection", test_pipeline_on_board);

  return zw_test_app_run_and_close ();
}
