/* test-app-pipeline-history.c — a pipeline's passes in the run history (issue 38 leftovers),
 * suite display (Xvfb). The demo pipeline written to a file of the test's (the networks by
 * absolute path) and opened: its pass is the selected row, titled with the pipeline's name,
 * its figures those of the same file run by the runtime here (pass time, the board's ETM) and
 * each network's options in its summary. [network.tiny]'s options changed in the file and
 * Forward pressed: a second row, tiny's options as changed. Both marked: Compare holds the
 * two passes network by network — every regression is tiny's, every row of the other
 * networks has a delta of exactly 0. The first row compared with its networks run apart: a
 * row of its own (selected again, the same comparison; Board keeps its pipeline), and the
 * headline is that pass's report's time and ETM against the networks apart,
 * the sum apart its report's apart ETM to the byte. A pass that dumps is a row of its own
 * holding its dump folder; selecting another row shows that row's pipeline in Board, and
 * Forward on it runs its own file when another pipeline was opened since. A network's run
 * marked with a pipeline's pass is not compared: the banner says what to mark. */
#include "deploy/xrt-pipeline.h"
#include "zw-board-view.h"
#include "zw-compare-view.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"

#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

static ZwWindow *win;

/* The demo pipeline with the networks' files by absolute path and @extra in [network.tiny]. */
static char *
demo_text (const char *extra)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", NULL);
  g_autofree char *path = g_build_filename (dir, "yolov5s_pipeline.toml", NULL);
  g_autofree char *text = NULL;
  g_autofree char *json = g_strdup_printf ("json = \"%s/", dir);
  g_autoptr (GString) edited = NULL;
  const char *at;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  edited = g_string_new (text);
  g_string_replace (edited, "json = \"", json, 0);
  at = strstr (edited->str, "tiny_ZG.json\"\n");
  g_assert_nonnull (at);
  g_string_insert (edited, (at - edited->str) + strlen ("tiny_ZG.json\"\n"), extra);
  return g_string_free (g_steal_pointer (&edited), FALSE);
}

/* The same file run by the runtime here: its report. */
static ZwPipelineReport *
run_here (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) pipe = xrt_pipeline_new_from_file (path, &error);
  g_autoptr (cJSON) root = NULL;
  ZwPipelineReport *p;

  g_assert_no_error (error);
  root = zw_test_pipeline_pass (pipe, path, NULL);
  p = zw_pipeline_report_from_json (root, path, &error);
  g_assert_no_error (error);
  return p;
}

static ZwRun *
row (guint i)
{
  g_autoptr (ZwRun) run = g_list_model_get_item (zw_window_get_runs (win), i);
  g_assert_nonnull (run);
  return run;   /* the history holds it */
}

static gboolean
compared (gpointer data)
{
  const ZwProfileCompare *cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
  return cmp != NULL && cmp != data;
}

static gboolean
banner_says_mark_two (gpointer data)
{
  const char *banner = zw_window_get_banner_message (win);
  (void) data;
  return banner != NULL && strstr (banner, "mark two pipeline passes") != NULL;
}

static gboolean
has_headline (gpointer data)
{
  (void) data;
  return !zw_window_get_busy (win) && zw_window_get_apart_headline (win, NULL);
}

static void
test_passes_in_history (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-pipehist-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "demo.toml", NULL);
  g_autofree char *text_a = demo_text ("");
  g_autofree char *text_b = demo_text ("ocmopt = \"NONE\"\nmerge_hardop = false\n");
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwPipelineReport) here = NULL;
  ZwPipelineReport *pa, *pb;
  ZwRun *a, *b, *d, *apart;
  const ZwProfileCompare *cmp;
  ZwPipelineApartHeadline h;

  g_assert_true (g_file_set_contents (path, text_a, -1, &error));
  here = run_here (path);

  /* opened: its pass is the selected row */
  zw_window_open_paths (win, paths);
  a = zw_test_app_wait_for_run (1);
  g_assert_nonnull (a);
  g_assert_cmpint (zw_run_get_kind (a), ==, ZW_RUN_PIPELINE);
  pa = zw_run_get_pipeline (a);
  g_assert_nonnull (pa);
  g_assert_true (zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board"))) == pa);
  g_assert_true (zw_selection_shows_pass (zw_window_get_selection (win)));
  {
    g_autofree char *title = zw_run_dup_title (a);
    g_autofree char *summary = zw_run_dup_summary (a);
    g_autofree char *etm = g_format_size_full (here->board_bytes, G_FORMAT_SIZE_IEC_UNITS);
    g_autofree char *want_etm = g_strdup_printf ("ETM %s", etm);
    g_autofree char *want_ms = g_strdup_printf ("pass %.3f ms", here->pass_ms);
    g_assert_cmpstr (title, ==, "#1 Pipeline pass — yolov5s-pipeline");
    g_assert_nonnull (strstr (summary, "tiny: merge on"));
    g_assert_nonnull (strstr (summary, "backbone: merge on"));
    g_assert_nonnull (strstr (summary, "post: host"));
    g_assert_nonnull (strstr (summary, want_etm));
    g_assert_nonnull (strstr (summary, want_ms));
    g_assert_nonnull (strstr (summary, "4 networks"));
  }
  /* the pass's figures are the runtime's for the same file */
  g_assert_cmpfloat (zw_run_get_total_ms (a), ==, here->pass_ms);
  g_assert_cmpfloat (pa->pass_ms, ==, here->pass_ms);
  g_assert_cmpuint (pa->board_bytes, ==, here->board_bytes);
  g_assert_cmpuint (pa->apart_bytes, ==, here->apart_bytes);

  /* tiny's options changed in the file, Forward: a second row */
  g_assert_true (g_file_set_contents (path, text_b, -1, &error));
  zw_test_app_activate ("win.forward", NULL);
  b = zw_test_app_wait_for_run (2);
  g_assert_cmpuint (g_list_model_get_n_items (zw_window_get_runs (win)), ==, 2);
  g_assert_true (b == row (1));
  g_assert_cmpint (zw_run_get_kind (b), ==, ZW_RUN_PIPELINE);
  pb = zw_run_get_pipeline (b);
  g_assert_true (pb != pa);
  {
    g_autofree char *title = zw_run_dup_title (b);
    g_autofree char *summary = zw_run_dup_summary (b);
    g_assert_cmpstr (title, ==, "#2 Pipeline pass — yolov5s-pipeline");
    g_assert_nonnull (strstr (summary, "tiny: merge off · ETM opt on · OCM None"));
    g_assert_nonnull (strstr (summary, "backbone: merge on"));
  }

  /* both marked: the two passes network by network; the changed network's rows regress */
  zw_run_set_compare (a, TRUE);
  zw_run_set_compare (b, TRUE);
  g_assert_true (zw_test_app_wait_for (compared, NULL, 30));
  g_assert_null (zw_window_get_banner_message (win));
  cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
  g_assert_cmpfloat_with_epsilon (cmp->a_total_ms, pa->pass_ms, 1e-6);
  g_assert_cmpfloat_with_epsilon (cmp->b_total_ms, pb->pass_ms, 1e-6);
  zw_test_app_assert_only_network_differs (cmp, "tiny");

  /* the first row against its networks run apart (the file as it was then) */
  g_assert_true (g_file_set_contents (path, text_a, -1, &error));
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (0));
  g_assert_true (zw_window_get_selected_run (win) == a);
  g_assert_true (zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board"))) == pa);
  g_assert_false (zw_window_get_apart_headline (win, NULL));
  zw_test_app_activate ("win.compare-pipeline-apart", NULL);
  if (!zw_test_app_wait_for (has_headline, NULL, 120))
    g_error ("no comparison with the networks apart after 120 s (banner: %s)", zw_window_get_banner_message (win));
  g_assert_true (zw_window_get_apart_headline (win, &h));
  /* a row of its own, selected: the networks' apart report, its ETM and time their sums */
  g_assert_cmpuint (g_list_model_get_n_items (zw_window_get_runs (win)), ==, 3);
  apart = row (2);
  g_assert_true (zw_window_get_selected_run (win) == apart);
  g_assert_true (zw_run_get_apart_of (apart) == pa);
  g_assert_cmpuint (zw_run_get_pipeline (apart)->board_bytes, ==, pa->apart_bytes);
  g_assert_cmpfloat (zw_run_get_total_ms (apart), ==, h.apart_ms);
  {
    g_autofree char *title = zw_run_dup_title (apart);
    g_assert_cmpstr (title, ==, "#3 Networks run apart — yolov5s-pipeline (of #1)");
  }
  /* Board keeps the pass's pipeline */
  g_assert_true (zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board"))) == pa);
  g_assert_cmpfloat (h.pass_ms, ==, pa->pass_ms);
  g_assert_cmpuint (h.board_bytes, ==, pa->board_bytes);
  g_assert_cmpuint (h.apart_bytes, ==, pa->apart_bytes);
  g_assert_cmpuint (h.apart_bytes, >, h.board_bytes);
  cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
  g_assert_cmpfloat_with_epsilon (cmp->a_total_ms, h.pass_ms, 1e-6);
  g_assert_cmpfloat_with_epsilon (cmp->b_total_ms, h.apart_ms, 1e-6);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  {
    g_autofree char *headline = zw_pipeline_apart_headline_text (&h);
    g_autofree char *view = NULL;
    g_assert_cmpstr (zw_window_get_banner_message (win), ==, headline);
    g_object_get (win, "view", &view, NULL);
    g_assert_cmpstr (view, ==, "compare");
  }

  /* a pass that dumps: a row of its own with its folder */
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SQB"));
  d = zw_test_app_wait_for_run (4);
  g_assert_cmpint (zw_run_get_kind (d), ==, ZW_RUN_PIPELINE);
  g_assert_nonnull (zw_run_get_dump_dir (d));
  g_assert_cmpstr (zw_run_get_dump_dir (d), ==, zw_run_controller_get_pipeline_dump (zw_window_get_run_controller (win)));
  g_assert_cmpstr (zw_run_get_dump_format (d), ==, "SQB");
  g_assert_true (g_file_test (zw_run_get_dump_dir (d), G_FILE_TEST_IS_DIR));
  {
    g_autofree char *title = zw_run_dup_title (d);
    g_assert_cmpstr (title, ==, "#4 Pipeline pass + dump — yolov5s-pipeline");
  }
  /* another row selected: its pipeline in Board; the dump's row again: its own */
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (1));
  g_assert_true (zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board"))) == pb);
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (3));
  g_assert_true (zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board"))) == zw_run_get_pipeline (d));
  /* the apart row again: the same comparison and headline, Board as it was */
  zw_test_app_activate ("win.dismiss-banner", NULL);
  zw_compare_view_clear (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
  zw_test_app_activate ("win.view", g_variant_new_string ("board"));
  zw_test_app_activate ("win.select-run", g_variant_new_uint32 (2));
  {
    g_autofree char *headline = zw_pipeline_apart_headline_text (&h);
    g_autofree char *view = NULL;
    g_assert_cmpstr (zw_window_get_banner_message (win), ==, headline);
    g_object_get (win, "view", &view, NULL);
    g_assert_cmpstr (view, ==, "compare");
    cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
    g_assert_cmpfloat_with_epsilon (cmp->b_total_ms, h.apart_ms, 1e-6);
    g_assert_true (zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (win, "board"))) == zw_run_get_pipeline (d));
  }

  /* another pipeline file opened: Forward on the first file's row runs the first file */
  {
    g_autofree char *other = g_build_filename (dir, "other.toml", NULL);
    const char *others[] = { other, NULL };
    ZwRun *o, *again;
    g_assert_true (g_file_set_contents (other, text_b, -1, &error));
    zw_window_open_paths (win, others);
    o = zw_test_app_wait_for_run (5);
    g_assert_cmpstr (zw_run_get_path (o), ==, other);
    zw_test_app_activate ("win.select-run", g_variant_new_uint32 (0));
    zw_test_app_activate ("win.forward", NULL);
    again = zw_test_app_wait_for_run (6);
    g_assert_cmpstr (zw_run_get_path (again), ==, path);
    /* the file as written last: the first pass's options */
    g_assert_cmpfloat (zw_run_get_pipeline (again)->pass_ms, ==, pa->pass_ms);
  }

  /* a network's run marked with a pipeline's pass: not compared, the banner says what to mark */
  {
    ZwRun *single;
    zw_test_app_activate ("win.open-demo", NULL);
    single = zw_test_app_wait_for_run (7);
    g_assert_null (zw_run_get_pipeline (single));
    zw_run_set_compare (single, TRUE);   /* with b, marked last before it */
    /* the window compares marked runs in an idle: wait for it (a loaded machine may take a while) */
    g_assert_true (zw_test_app_wait_for (banner_says_mark_two, NULL, 30));
    g_assert_null (zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare"))));
    g_assert_nonnull (zw_window_get_banner_message (win));
    g_assert_nonnull (strstr (zw_window_get_banner_message (win), "mark two pipeline passes"));
  }
}

/* Network @name's deploy report in @p (on the board). */
static const ZwDeployReport *
network_report (const ZwPipelineReport *p, const char *name)
{
  gint i = zw_pipeline_report_find_network (p, name);
  g_assert_cmpint (i, >=, 0);
  g_assert_nonnull (g_array_index (p->networks, ZwPipelineNetwork, i).report);
  return g_array_index (p->networks, ZwPipelineNetwork, i).report;
}

/* The history's row of pass @p. */
static ZwRun *
row_of (const ZwPipelineReport *p)
{
  for (guint i = 0; i < g_list_model_get_n_items (zw_window_get_runs (win)); i++)
    if (zw_run_get_pipeline (row (i)) == p)
      return row (i);
  g_error ("no row of the history holds the pass");
}

static gboolean
panel_editable (void)
{
  gboolean editable = FALSE;
  g_object_get (zw_window_get_options_panel (win), "editable", &editable, NULL);
  return editable;
}

/* The options panel on a network of the pipeline: tiny clicked in Board, its options shown
 * and editable; merge off and OCM None set in the panel run a new pass with them for tiny
 * alone — the pass's figures those of the same file run by the runtime here with
 * xrt_pipeline_set_network_options, the other networks' options the file's — and tiny is
 * shown again from the new pass. Forward keeps them; another pipeline file forgets them. */
static void
test_network_options (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-pipeopt-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "demo.toml", NULL);
  g_autofree char *other = g_build_filename (dir, "other.toml", NULL);
  g_autofree char *text = demo_text ("");
  const char *paths[] = { path, NULL }, *others[] = { other, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwPipelineReport) here = NULL;
  ZwBoardView *board = ZW_BOARD_VIEW (zw_window_get_view (win, "board"));
  guint n = zw_test_app_n_runs ();
  ZwPipelineReport *first, *second;
  ZwRun *pass, *tiny, *again;
  gboolean merge = TRUE;
  g_autofree char *reason = NULL;
  g_autofree char *ocm = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_true (g_file_set_contents (other, text, -1, &error));
  {
    /* the runtime here: tiny with merge off and no OCM, the rest as the file says */
    g_autoptr (XrtPipeline) pipe = xrt_pipeline_new_from_file (path, &error);
    g_autoptr (cJSON) root = NULL;
    g_assert_no_error (error);
    g_assert_true (xrt_pipeline_set_network_options (pipe, "tiny", FALSE, TRUE, ZW_OCM_NONE, &error));
    g_assert_false (xrt_pipeline_set_network_options (pipe, "nobody", FALSE, TRUE, ZW_OCM_NONE, &error));
    g_assert_nonnull (strstr (error->message, "\"nobody\""));
    g_clear_error (&error);
    root = zw_test_pipeline_pass (pipe, path, NULL);
    here = zw_pipeline_report_from_json (root, path, &error);
    g_assert_no_error (error);
  }

  zw_window_open_paths (win, paths);
  pass = zw_test_app_wait_for_run (n + 1);
  first = zw_run_get_pipeline (pass);
  g_assert_nonnull (first);
  g_assert_true (network_report (first, "tiny")->merge_hardop);
  /* the pass's row: no one network's options, the panel says how to get them */
  g_assert_false (panel_editable ());
  g_object_get (zw_window_get_options_panel (win), "reason", &reason, NULL);
  g_assert_nonnull (strstr (reason, "Board"));
  g_clear_pointer (&reason, g_free);

  /* tiny clicked: its run, the panel editable and saying whose options they are */
  g_assert_true (zw_board_view_activate_network (board, (guint) zw_pipeline_report_find_network (first, "tiny")));
  tiny = zw_test_app_wait_for_run (n + 2);
  g_assert_true (zw_run_get_report (tiny) == network_report (first, "tiny"));
  g_assert_true (panel_editable ());
  g_object_get (zw_window_get_options_panel (win), "reason", &reason, NULL);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "tiny"));

  /* merge off and OCM None in the panel: a new pass, tiny shown again from it */
  g_object_set (win, "merge-hardop", FALSE, "ocm-option", zw_ocm_opt_get_nick (ZW_OCM_NONE), NULL);
  again = zw_test_app_wait_for_run (n + 4);
  second = zw_board_view_get_pipeline (board);
  g_assert_nonnull (second);
  g_assert_true (second != first);
  g_assert_true (zw_run_get_report (again) == network_report (second, "tiny"));
  g_assert_false (network_report (second, "tiny")->merge_hardop);
  g_assert_cmpint (network_report (second, "tiny")->ocm_requested, ==, ZW_OCM_NONE);
  g_assert_true (network_report (second, "backbone")->merge_hardop);
  g_assert_cmpint (network_report (second, "backbone")->ocm_requested, ==, network_report (first, "backbone")->ocm_requested);
  /* the runtime's figures for the same options */
  g_assert_cmpfloat (second->pass_ms, ==, here->pass_ms);
  g_assert_cmpuint (second->board_bytes, ==, here->board_bytes);
  g_assert_cmpfloat (second->pass_ms, !=, first->pass_ms);
  /* the panel shows tiny's new options */
  g_object_get (win, "merge-hardop", &merge, "ocm-option", &ocm, NULL);
  g_assert_false (merge);
  g_assert_cmpstr (ocm, ==, zw_ocm_opt_get_nick (ZW_OCM_NONE));
  {
    g_autofree char *summary = zw_run_dup_summary (row_of (second));
    g_assert_nonnull (strstr (summary, "tiny: merge off"));
    g_assert_nonnull (strstr (summary, "backbone: merge on"));
  }

  /* Forward: the next pass keeps tiny's options */
  zw_test_app_activate ("win.forward", NULL);
  again = zw_test_app_wait_for_run (n + 5);
  g_assert_nonnull (zw_run_get_pipeline (again));
  g_assert_false (network_report (zw_run_get_pipeline (again), "tiny")->merge_hardop);
  g_assert_cmpfloat (zw_run_get_pipeline (again)->pass_ms, ==, here->pass_ms);

  /* another pipeline file: the file's options again */
  zw_window_open_paths (win, others);
  again = zw_test_app_wait_for_run (n + 6);
  g_assert_nonnull (zw_run_get_pipeline (again));
  g_assert_true (network_report (zw_run_get_pipeline (again), "tiny")->merge_hardop);
  g_assert_cmpfloat (zw_run_get_pipeline (again)->pass_ms, ==, first->pass_ms);
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  g_test_add_func ("/app-pipeline-history/passes-rows-compared-and-apart", test_passes_in_history);
  g_test_add_func ("/app-pipeline-history/network-options-from-the-panel", test_network_options);
  return zw_test_app_run_and_close ();
}
