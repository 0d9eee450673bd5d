/* test-app-pipeline.c — a pipeline's whole pass in the window (issue 38 item 3), suite
 * display (Xvfb): the demo pipeline opened from the main menu's action; Segments, Memory,
 * Graph and Timing show the pass (the selection has the pipeline and no report; each view
 * rendered as it is in the window holds every network's colour); a network clicked in
 * Board shows its report, "Show the Whole Pass" the pass again; a connected value selected
 * by name ("backbone:81") and dumped with the window's Dump Tensors: one folder for the
 * pipeline, the value's file NET.V_ID.ftmp exactly its bytes on the board (HQB: the stored
 * bytes), the other networks' values beside it, and Tensors showing the folder with that
 * value selected; the window removes the folder with it. Two demo networks opened together:
 * the banner offers them as a pipeline; opened so, Board shows both networks (no share, no
 * connection: tiny's output is not mobilenetv2's input), the pipeline file is in the cache
 * and Save Pipeline As copies it byte for byte. Two pipeline reports dropped together are
 * compared in Compare, rows named NET:OP_ID. */
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-pass.h"
#include "zw-compare-view.h"
#include "zw-application.h"
#include "zw-board-view.h"
#include "zw-run-controller.h"
#include "zw-tensor-view.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include "zw-timing-view.h"
#include "zw-window.h"

#include <glib/gstdio.h>
#include <string.h>

static ZwApplication *app;
static ZwWindow *win;
static char *dump_seen;   /* the folder the window dumped the pipeline into */

static gboolean
is_idle (gpointer data)
{
  (void) data;
  return !zw_window_get_busy (win) && g_list_model_get_n_items (zw_window_get_runs (win)) > 0;
}

static gboolean
shows_pipeline (gpointer data)
{
  ZwBoardView *view = ZW_BOARD_VIEW (zw_window_get_view (win, "board"));
  return !zw_window_get_busy (win) && zw_board_view_get_pipeline (view) != NULL
         && zw_board_view_get_pipeline (view) != data;
}

/* How many pixels of @view rendered at its size (as in the window) are network @i's colour. */
static guint
colour_pixels (const char *view, guint i)
{
  GtkWidget *w = zw_window_get_view (win, view);
  int width = MAX (gtk_widget_get_width (w), 900), height = MAX (gtk_widget_get_height (w), 600);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (s);
  ZwViewStyle style;
  GdkRGBA c;
  guint n = 0;
  guint8 want[3];

  zw_view_style_init_default (&style);
  g_assert_true (zw_view_render (ZW_VIEW (w), cr, width, height, &style));
  cairo_destroy (cr);
  cairo_surface_flush (s);
  zw_board_view_network_color (&style, i, &c);
  want[0] = (guint8) (c.red * 255 + 0.5);
  want[1] = (guint8) (c.green * 255 + 0.5);
  want[2] = (guint8) (c.blue * 255 + 0.5);
  for (int y = 0; y < height; y++)
    {
      const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s));
      for (int x = 0; x < width; x++)
        n += ABS ((int) ((row[x] >> 16) & 0xff) - want[0]) <= 6 && ABS ((int) ((row[x] >> 8) & 0xff) - want[1]) <= 6
             && ABS ((int) (row[x] & 0xff) - want[2]) <= 6;
    }
  cairo_surface_destroy (s);
  return n;
}

static gboolean
dumped (gpointer data)
{
  ZwTensorView *view = ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
  (void) data;
  return !zw_window_get_busy (win) && zw_tensor_view_get_n_values (view) > 0
         && zw_run_controller_get_pipeline_dump (zw_window_get_run_controller (win)) != NULL;
}

static void
test_pass_views_and_dump (void)
{
  ZwSelection *selection = zw_window_get_selection (win);
  ZwBoardView *board;
  ZwPipelineReport *p;
  const ZwPipelineConnection *conn = NULL;
  const ZwValueInfo *vi;
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *selected = NULL;
  g_autofree char *dir = NULL;
  GStatBuf st;
  guint own = 0, other = 0;
  gint from;
  gint64 v_id;
  guint64 bytes, byte_size;

  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 120));
  board = ZW_BOARD_VIEW (zw_window_get_view (win, "board"));
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.open-demo-pipeline", NULL));
  if (!zw_test_app_wait_for (shows_pipeline, NULL, 120))
    g_error ("no pipeline shown after 120 s (banner: %s)", zw_window_get_banner_message (win));
  p = zw_board_view_get_pipeline (board);

  /* the whole pass: the selection has the pipeline and no report */
  g_assert_true (zw_selection_shows_pass (selection));
  g_assert_true (zw_selection_get_pipeline (selection) == p);
  /* the pass is the selected row of the history */
  g_assert_nonnull (zw_window_get_selected_run (win));
  g_assert_true (zw_run_get_pipeline (zw_window_get_selected_run (win)) == p);
  /* Memory, Segments and Graph draw every network on the board in its colour */
  for (guint i = 0; i < p->networks->len; i++)
    {
      gboolean on_board = g_array_index (p->networks, ZwPipelineNetwork, i).on_board;
      if (!on_board)
        continue;
      if (colour_pixels ("memory", i) < 4 || colour_pixels ("segments", i) < 4 || colour_pixels ("graph", i) < 4)
        g_error ("network %u: memory %u, segments %u, graph %u pixels of its colour", i, colour_pixels ("memory", i),
                 colour_pixels ("segments", i), colour_pixels ("graph", i));
    }
  /* Timing: the pass's profile, as long as the pass */
  {
    const ZwProfile *shown = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (win, "timing")));
    g_assert_nonnull (shown);
    g_assert_cmpstr (shown->network, ==, p->name);
    g_assert_cmpfloat_with_epsilon (shown->total_ms, p->pass_ms, 1e-6);
  }

  /* a connected value */
  for (guint i = 0; i < p->connections->len && conn == NULL; i++)
    if (g_array_index (p->connections, ZwPipelineConnection, i).size > 0)
      conn = &g_array_index (p->connections, ZwPipelineConnection, i);
  g_assert_nonnull (conn);

  /* its writer clicked: that network's report; its value selected there is the pipeline's
   * "NET:V_ID" too; then the whole pass again */
  g_assert_true (zw_board_view_activate_network (board, conn->from));
  g_assert_false (zw_selection_shows_pass (selection));
  g_assert_true (zw_selection_get_report (selection) == g_array_index (p->networks, ZwPipelineNetwork, conn->from).report);
  zw_selection_set_selected_value (selection, conn->output_v_id);
  {
    g_autofree char *want = zw_pipeline_value_name (g_array_index (p->networks, ZwPipelineNetwork, conn->from).name,
                                                    conn->output_v_id);
    g_assert_cmpstr (zw_selection_get_pipeline_value (selection), ==, want);
  }
  g_assert_true (zw_board_view_activate_pass (board));
  g_assert_true (zw_selection_shows_pass (selection));
  g_assert_true (zw_run_get_pipeline (zw_window_get_selected_run (win)) == p);
  /* the pipeline shown is replaced by the dumping pass's: what the test needs of it, kept */
  from = conn->from;
  v_id = conn->output_v_id;
  bytes = conn->bytes;
  name = zw_pipeline_value_name (g_array_index (p->networks, ZwPipelineNetwork, conn->from).name, conn->output_v_id);
  g_assert_true (zw_selection_set_pipeline_value (selection, name));
  g_assert_cmpstr (zw_selection_get_pipeline_value (selection), ==, name);
  g_assert_false (zw_selection_set_pipeline_value (selection, "nosuch:1"));
  g_assert_true (zw_selection_set_pipeline_value (selection, name));
  vi = zw_deploy_report_find_value (g_array_index (p->networks, ZwPipelineNetwork, conn->from).report,
                                    conn->output_v_id);
  g_assert_nonnull (vi);
  byte_size = vi->byte_size;

  /* dumped: one pass into one folder, Tensors shows it with the value selected */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.dump-tensors", g_variant_new_string ("HQB")));
  if (!zw_test_app_wait_for (dumped, NULL, 180))
    g_error ("no pipeline dump after 180 s (banner: %s)", zw_window_get_banner_message (win));
  dir = g_strdup (zw_run_controller_get_pipeline_dump (zw_window_get_run_controller (win)));
  dump_seen = g_strdup (dir);
  /* the window's pipeline is the pass just run (the same figures, a new report) */
  p = zw_board_view_get_pipeline (board);
  file = zw_pipeline_value_file_name (g_array_index (p->networks, ZwPipelineNetwork, from).name, v_id);
  path = g_build_filename (dir, file, NULL);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  /* HQB: the stored bytes, as many as the value has on the board, as the connection moves */
  g_assert_cmpuint ((guint64) st.st_size, ==, byte_size);
  g_assert_cmpuint ((guint64) st.st_size, ==, bytes);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *f;
    g_autofree char *prefix = g_strdup_printf ("%s.", g_array_index (p->networks, ZwPipelineNetwork, from).name);
    while ((f = g_dir_read_name (d)) != NULL)
      {
        g_assert_true (g_str_has_suffix (f, ".ftmp") || g_str_equal (f, "manifest.json"));
        if (g_str_has_suffix (f, ".ftmp"))
          {
            if (g_str_has_prefix (f, prefix))
              own++;
            else
              other++;
          }
      }
  }
  g_assert_cmpuint (own, >, 0);
  g_assert_cmpuint (other, >, 0);
  selected = zw_tensor_view_dup_selected_name (ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors")));
  g_assert_cmpstr (selected, ==, name);
  {
    g_autofree char *view = NULL;
    g_object_get (win, "view", &view, NULL);
    g_assert_cmpstr (view, ==, "tensors");
  }
}

/* Two demo networks opened together: offered, then opened as one pipeline (issue 38). */
static void
test_networks_opened_together (void)
{
  g_autofree char *tiny = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *mobile = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "mobilenetv2_ZG.json", NULL);
  const char *paths[] = { tiny, mobile, NULL };
  ZwBoardView *board = ZW_BOARD_VIEW (zw_window_get_view (win, "board"));
  ZwPipelineReport *before, *p;
  g_autofree char *made = g_build_filename (g_get_user_cache_dir (), "zhuge-workbench", "pipelines",
                                            "tiny_ZG+mobilenetv2_ZG_pipeline.toml", NULL);
  g_autofree char *text = NULL;
  g_autofree char *copy_text = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-pipeline-save-XXXXXX");
  g_autofree char *copy = g_build_filename (dir, "saved.toml", NULL);
  g_autoptr (GError) error = NULL;
  gsize len = 0, copy_len = 0;

  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 120));
  before = zw_board_view_get_pipeline (board);
  /* opened together: each opens, and the banner offers the pipeline */
  zw_window_open_paths (win, paths);
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "2"));
  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 120));
  /* the offer stays while the networks' runs finish */
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "opened together"));
  /* taken (the banner's "Open as a Pipeline"): the pipeline file in the cache, opened in Board */
  gtk_info_bar_response (GTK_INFO_BAR (gtk_widget_get_template_child (GTK_WIDGET (win), ZW_TYPE_WINDOW, "banner")),
                         GTK_RESPONSE_APPLY);
  if (!zw_test_app_wait_for (shows_pipeline, before, 180))
    g_error ("no pipeline of the two networks after 180 s (banner: %s)", zw_window_get_banner_message (win));
  p = zw_board_view_get_pipeline (board);
  g_assert_cmpuint (p->networks->len, ==, 2);
  g_assert_cmpstr (g_array_index (p->networks, ZwPipelineNetwork, 0).name, ==, "tiny");
  g_assert_cmpstr (g_array_index (p->networks, ZwPipelineNetwork, 1).name, ==, "mobilenetv2");
  for (guint i = 0; i < 2; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      g_assert_true (n->on_board);
      g_assert_nonnull (n->report);
      g_assert_cmpuint (zw_pipeline_report_network_bytes (p, i), >, 0);
      g_assert_cmpfloat (n->time_ms, >, 0);
    }
  /* nothing shared or connected; the pass is the two forwards */
  g_assert_cmpuint (p->shares->len, ==, 0);
  g_assert_cmpuint (p->connections->len, ==, 0);
  g_assert_cmpfloat_with_epsilon (p->pass_ms,
                                  g_array_index (p->networks, ZwPipelineNetwork, 0).time_ms
                                      + g_array_index (p->networks, ZwPipelineNetwork, 1).time_ms,
                                  1e-9);
  g_assert_true (g_file_get_contents (made, &text, &len, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "[network.tiny]"));
  g_assert_nonnull (strstr (text, "[network.mobilenetv2]"));
  g_assert_null (strstr (text, "[connect."));
  /* Save Pipeline As: the same bytes where the user says */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.save-pipeline-file",
                                                     g_variant_new_string (copy)));
  g_assert_true (g_file_get_contents (copy, &copy_text, &copy_len, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (copy_text, copy_len, text, len);
  g_unlink (copy);
  g_rmdir (dir);
}

/* A profiled pass of the demo pipeline with @extra in [network.tiny], written to @path. */
static void
write_report (const char *extra, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *toml = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GString) edited = NULL;
  g_autoptr (XrtPipeline) pipe = NULL;
  cJSON *root;
  char *json;
  const char *at;

  g_assert_true (g_file_get_contents (toml, &text, NULL, &error));
  edited = g_string_new (text);
  at = strstr (edited->str, "json = \"tiny_ZG.json\"\n");
  g_assert_nonnull (at);
  g_string_insert (edited, (at - edited->str) + strlen ("json = \"tiny_ZG.json\"\n"), extra);
  pipe = xrt_pipeline_new_from_data (edited->str, edited->len, toml, TRUE, &error);
  g_assert_no_error (error);
  root = zw_test_pipeline_pass (pipe, toml, NULL);
  json = cJSON_Print (root);
  g_assert_true (g_file_set_contents (path, json, -1, &error));
  g_assert_no_error (error);
  cJSON_free (json);
  cJSON_Delete (root);
}

/* Two pipeline reports dropped together: Compare, rows NET:OP_ID, the changed network's. */
static void
test_reports_compared (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-pipeline-cmp-XXXXXX");
  g_autofree char *a = g_build_filename (dir, "a.json", NULL);
  g_autofree char *b = g_build_filename (dir, "b.json", NULL);
  const char *paths[] = { a, b, NULL };
  const ZwProfileCompare *cmp;

  g_assert_true (zw_test_app_wait_for (is_idle, NULL, 120));
  write_report ("", a);
  write_report ("ocmopt = \"NONE\"\nmerge_hardop = false\n", b);
  zw_window_open_paths (win, paths);
  g_assert_null (zw_window_get_banner_message (win));
  {
    g_autofree char *view = NULL;
    g_object_get (win, "view", &view, NULL);
    g_assert_cmpstr (view, ==, "compare");
  }
  cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
  zw_test_app_assert_only_network_differs (cmp, "tiny");
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) cache = NULL;   /* removed with all the app wrote there */
  GList *windows;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* the dumps go into the user's cache: a fresh one */
  cache = zw_test_tmp_dir_new ("zw-app-pipeline-cache-XXXXXX");
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  if (!gtk_init_check ())
    {
      g_test_message ("no display: the display suite needs one (run under xvfb-run)");
      return 77;
    }
  app = zw_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("cannot register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_nonnull (windows);
  win = ZW_WINDOW (windows->data);

  g_test_add_func ("/app-pipeline/pass-in-four-views-connected-value-dumped-by-name", test_pass_views_and_dump);
  g_test_add_func ("/app-pipeline/networks-opened-together-as-a-pipeline-saved", test_networks_opened_together);
  g_test_add_func ("/app-pipeline/two-pipeline-reports-compared-by-network", test_reports_compared);

  status = g_test_run ();
  zw_test_app_wait_for (is_idle, NULL, 30);
  gtk_window_destroy (GTK_WINDOW (win));
  g_clear_object (&app);
  /* the window removed its dump with it */
  if (dump_seen != NULL && g_file_test (dump_seen, G_FILE_TEST_EXISTS) && status == 0)
    {
      g_printerr ("the window left its pipeline dump %s\n", dump_seen);
      status = 1;
    }
  g_free (dump_seen);
  return status;
}
