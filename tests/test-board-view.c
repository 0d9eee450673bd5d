/* test-board-view.c — pipelines in the workbench (issue 38 item 3). Suite render (no
 * display): the demo pipeline applied and run once through the runtime, its pipeline report
 * read into the model (the same from the JSON in memory and from a file), a damaged owner
 * refused naming the chunk; the Board view drawn offscreen to PNG through the one export
 * path and read back for its pixels (network colours on the map, the shared FTMP striped in
 * its networks' colours, a connection's chunk in its writer's and reader's colours, the
 * board's own chunks left out, the ETM bars on one scale, the timeline's bars one after
 * another in proportion to the networks' times, dark scheme) and hit-tested. Suite display
 * (Xvfb): the app opens the demo pipeline from the main menu's action and shows Board; a
 * network clicked there becomes the window's run (its deploy report in Segments), once; a
 * host-only network says why it has none; the report saved by the CLI opens the same.
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the PNGs there for a look. */
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-check.h"
#include "zw-application.h"
#include "zw-board-view.h"
#include "zw-export.h"
#include "zw-file-kind.h"
#include "zw-window.h"
#include "zw-test-pixels.h"
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun

#include <glib/gstdio.h>
#include <string.h>

#ifdef __SANITIZE_ADDRESS__
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\nleak:libEGL_mesa.so\n";
}
#endif

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

#define W 1100
#define H 760

static char *
demo_pipeline_path (void)
{
  return g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
}

/* The demo pipeline's report, from one profiled pass (made once: every test reads it). */
static cJSON *root;

static cJSON *
demo_report_json (void)
{

  if (root == NULL)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = demo_pipeline_path ();
      g_autoptr (XrtPipeline) pipe = xrt_pipeline_new_from_file (path, &error);

      g_assert_no_error (error);
      root = zw_test_pipeline_pass (pipe, path, NULL);
    }
  return root;
}

static ZwPipelineReport *
demo_report (void)
{
  g_autoptr (GError) error = NULL;
  ZwPipelineReport *p = zw_pipeline_report_from_json (demo_report_json (), "demo", &error);

  g_assert_no_error (error);
  return p;
}

static gint
chunk_index (const ZwPipelineReport *p, const char *owner)
{
  for (guint i = 0; i < p->chunks->len; i++)
    if (g_str_equal (g_array_index (p->chunks, ZwBoardChunk, i).owner, owner))
      return (gint) i;
  g_error ("no board chunk owned by %s", owner);
  return -1;
}

/* ---- the model ---- */

static void
test_model_live_and_file (void)
{
  g_autoptr (ZwPipelineReport) live = demo_report ();
  g_autoptr (ZwPipelineReport) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("board-view-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pipe.json", NULL);
  g_autofree char *text = cJSON_Print (demo_report_json ());
  ZwPipelineCheck check;
  guint64 sum = 0;
  gint head, backbone;

  /* the demo: backbone and head cut from the detector, the host op, then tiny */
  g_assert_cmpuint (live->networks->len, ==, 4);
  head = zw_pipeline_report_find_network (live, "head");
  backbone = zw_pipeline_report_find_network (live, "backbone");
  g_assert_cmpint (backbone, ==, 0);
  g_assert_cmpint (head, ==, 1);
  g_assert_false (g_array_index (live->networks, ZwPipelineNetwork, 2).on_board);
  g_assert_null (g_array_index (live->networks, ZwPipelineNetwork, 2).report);
  g_assert_nonnull (g_array_index (live->networks, ZwPipelineNetwork, head).report);
  /* the figures are the checker's */
  g_assert_true (zw_pipeline_report_check_json (demo_report_json (), "demo", &check, &error));
  g_assert_cmpuint (live->board_bytes, ==, check.etm_bytes);
  g_assert_cmpuint (live->apart_bytes, ==, check.apart_bytes);
  g_assert_cmpint (live->saved_bytes, ==, (gint64) check.apart_bytes - (gint64) check.etm_bytes);
  for (guint i = 0; i < live->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (live->chunks, ZwBoardChunk, i);
      if (i > 0)
        g_assert_cmpuint (c->addr, >, g_array_index (live->chunks, ZwBoardChunk, i - 1).addr);
      if (c->kind != ZW_BOARD_CHUNK_OTHER)
        sum += c->size;
    }
  g_assert_cmpuint (sum, ==, live->board_bytes);
  /* owners parsed: a network's own, the share, a connection */
  {
    const ZwBoardChunk *w = &g_array_index (live->chunks, ZwBoardChunk, chunk_index (live, "head:WEIGHT"));
    const ZwBoardChunk *s = &g_array_index (live->chunks, ZwBoardChunk, chunk_index (live, "share:ftmp:FTMP"));
    const ZwBoardChunk *k = &g_array_index (live->chunks, ZwBoardChunk, chunk_index (live, "connect:features.v81"));
    g_assert_cmpint (w->kind, ==, ZW_BOARD_CHUNK_NETWORK);
    g_assert_cmpint (w->network, ==, head);
    g_assert_cmpint (w->segment, ==, ZW_SEGMENT_WEIGHT);
    g_assert_cmpint (s->kind, ==, ZW_BOARD_CHUNK_SHARE);
    g_assert_cmpstr (s->name, ==, "ftmp");
    g_assert_cmpint (s->segment, ==, ZW_SEGMENT_FTMP);
    g_assert_cmpint (k->kind, ==, ZW_BOARD_CHUNK_CONNECT);
    g_assert_cmpstr (k->name, ==, "features.v81");
  }
  g_assert_cmpuint (live->shares->len, ==, 1);
  g_assert_cmpuint (g_array_index (live->shares, ZwPipelineShare, 0).networks->len, ==, 3);
  g_assert_cmpuint (live->connections->len, ==, check.n_connections);
  g_assert_cmpfloat (live->pass_ms, >, 0);

  /* a file opened from disk reads the same */
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  file = zw_pipeline_report_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (file->networks->len, ==, live->networks->len);
  g_assert_cmpuint (file->chunks->len, ==, live->chunks->len);
  g_assert_cmpuint (file->board_bytes, ==, live->board_bytes);
  g_assert_cmpfloat_with_epsilon (file->pass_ms, live->pass_ms, 1e-9);
  for (guint i = 0; i < live->networks->len; i++)
    {
      g_assert_cmpstr (g_array_index (file->networks, ZwPipelineNetwork, i).name, ==,
                       g_array_index (live->networks, ZwPipelineNetwork, i).name);
      g_assert_cmpfloat_with_epsilon (g_array_index (file->networks, ZwPipelineNetwork, i).time_ms,
                                      g_array_index (live->networks, ZwPipelineNetwork, i).time_ms, 1e-9);
    }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_model_rejects_damage (void)
{
  g_autoptr (cJSON) copy = cJSON_Duplicate (demo_report_json (), TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwPipelineReport) p = NULL;
  cJSON *chunk = cJSON_GetArrayItem (cJSON_GetObjectItem (copy, "board_chunks"), 3);

  cJSON_ReplaceItemInObject (chunk, "owner", cJSON_CreateString ("nobody:WEIGHT"));
  p = zw_pipeline_report_from_json (copy, "damaged.json", &error);
  g_assert_null (p);
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "damaged.json"));
  g_assert_nonnull (strstr (error->message, "board_chunks[3]"));
  g_assert_nonnull (strstr (error->message, "nobody:WEIGHT"));
  g_clear_error (&error);

  cJSON_ReplaceItemInObject (chunk, "owner", cJSON_CreateString ("other"));
  cJSON_ReplaceItemInObject (cJSON_GetObjectItem (copy, "etm"), "board_bytes", cJSON_CreateNumber (-5));
  g_assert_null (zw_pipeline_report_from_json (copy, "damaged.json", &error));
  g_assert_nonnull (strstr (error->message, "board_bytes"));
  g_clear_error (&error);

  /* the host-op network: no deploy report, no ETM (the reader holds the one, the checker the other) */
  {
    g_autoptr (cJSON) host = cJSON_Duplicate (demo_report_json (), TRUE);
    cJSON *net = cJSON_GetArrayItem (cJSON_GetObjectItem (host, "networks"), 2);
    g_assert_true (cJSON_IsFalse (cJSON_GetObjectItem (net, "on_board")));
    g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (net, "name")), ==, "post");
    cJSON_ReplaceItemInObject (net, "apart_etm_bytes", cJSON_CreateNumber (4096));
    g_assert_false (zw_pipeline_report_check_json (host, "damaged.json", NULL, &error));
    g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
    g_assert_nonnull (strstr (error->message, "damaged.json: network \"post\" is not on the board but takes 4096 ETM bytes"));
    g_clear_error (&error);
    cJSON_AddItemToObject (net, "report", cJSON_Duplicate (cJSON_GetObjectItem (cJSON_GetArrayItem (
                                                              cJSON_GetObjectItem (host, "networks"), 0), "report"), TRUE));
    g_assert_null (zw_pipeline_report_from_json (host, "damaged.json", &error));
    g_assert_nonnull (strstr (error->message, "damaged.json: network \"post\": not on the board but has a deploy report"));
    g_clear_error (&error);
  }

  cJSON_ReplaceItemInObject (copy, "format", cJSON_CreateString ("zhuge-sweep"));
  g_assert_null (zw_pipeline_report_from_json (copy, "damaged.json", &error));
  g_assert_nonnull (strstr (error->message, "not a pipeline report"));
}

/* ---- the file kinds ---- */

static void
test_file_kinds (void)
{
  g_autofree char *dir = g_dir_make_tmp ("board-kind-XXXXXX", NULL);
  g_autofree char *report = cJSON_PrintUnformatted (demo_report_json ());
  static const struct {
    const char *name, *text;
    ZwFileKind kind;
  } files[] = {
    { "pipe.toml", "# a pipeline\n[pipeline]\nname = \"p\"\n", ZW_FILE_KIND_PIPELINE },
    { "nets.toml", "[network.a]\njson = \"a_ZG.json\"\n", ZW_FILE_KIND_PIPELINE },
    /* an icraft-run config is not a pipeline, whatever tables follow its [run] */
    { "run.toml", "[run]\nnetwork = \"a_ZG.json\"\n[network.x]\n", (ZwFileKind) -1 },
    { "sweep.json", "{\"format\": \"zhuge-sweep\"}", ZW_FILE_KIND_SWEEP },
    { "report.json", NULL, ZW_FILE_KIND_PIPELINE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);
      g_autoptr (GError) error = NULL;
      ZwFileKind kind;

      g_assert_true (g_file_set_contents (path, files[i].text != NULL ? files[i].text : report, -1, &error));
      g_assert_true (zw_file_kind_guess (path, &kind, NULL, &error));
      g_assert_no_error (error);
      if (files[i].kind == (ZwFileKind) -1 ? kind == ZW_FILE_KIND_PIPELINE : kind != files[i].kind)
        g_error ("%s: kind %d, expected %d", files[i].name, kind, files[i].kind);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* ---- pixels ---- */

typedef struct {
  const ZwPipelineReport *p;
  gint selected;
} DrawArgs;

static void
draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  DrawArgs *a = data;
  zw_board_view_draw (cr, width, height, a->p, a->selected, colors);
}

static cairo_surface_t *
render_png (const ZwPipelineReport *p, const ZwViewStyle *style, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("board-view-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  DrawArgs args = { p, -1 };
  const char *keep = g_getenv ("ZW_RUN_VIEWS_KEEP");
  cairo_surface_t *s;

  g_assert_true (zw_export_draw_to_file (draw, &args, style, ZW_VIEW_FORMAT_PNG, W, H, path, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, W);
  if (keep != NULL)
    {
      g_autofree char *kept = g_build_filename (keep, name, NULL);
      g_assert_cmpint (cairo_surface_write_to_png (s, kept), ==, CAIRO_STATUS_SUCCESS);
    }
  g_unlink (path);
  g_rmdir (dir);
  return s;
}

static void
assert_color (cairo_surface_t *s, double x, double y, const GdkRGBA *color, const char *what)
{
  guint32 got = zw_test_pixel (s, x, y);
  if (!zw_test_near (got, zw_test_argb (color), 10))
    g_error ("%s at (%.1f, %.1f): #%06x, expected #%06x", what, x, y, got & 0xffffff, zw_test_argb (color) & 0xffffff);
}

/* Whether a row of pixels over [x0, x1) holds @color somewhere. */
static gboolean
row_has (cairo_surface_t *s, double x0, double x1, double y, const GdkRGBA *color)
{
  for (double x = x0; x < x1; x += 1)
    if (zw_test_near (zw_test_pixel (s, x, y), zw_test_argb (color), 10))
      return TRUE;
  return FALSE;
}

static void
check_render (const ZwPipelineReport *p, const ZwViewStyle *style, const char *name)
{
  cairo_surface_t *s = render_png (p, style, name);
  double mx0, my0, mx1, my1, xa, xb, bx0, bx1, ax1, by, ay, prev_x1 = -1;
  GdkRGBA color[4];
  gint share = chunk_index (p, "share:ftmp:FTMP"), weight = chunk_index (p, "head:WEIGHT");
  gint conn = chunk_index (p, "connect:features.v61");
  double top;

  for (guint i = 0; i < 4; i++)
    zw_board_view_network_color (style, i, &color[i]);
  g_assert_true (zw_board_view_map_area (p, W, H, &mx0, &my0, &mx1, &my1));
  top = my0 + 4;   /* above the chunks' own labels */

  /* the map starts at the pipeline's first chunk, not the board's own (other) chunks */
  g_assert_false (zw_board_view_chunk_span (p, W, H, 0, &xa, &xb));
  g_assert_true (zw_board_view_chunk_span (p, W, H, (guint) share, &xa, &xb));
  g_assert_cmpfloat (xa, ==, mx0);
  /* the shared FTMP striped in backbone's, head's and tiny's colours */
  g_assert_cmpfloat (xb - xa, >, 30);
  g_assert_true (row_has (s, xa + 1, xb - 2, top, &color[0]));
  g_assert_true (row_has (s, xa + 1, xb - 2, top, &color[1]));
  g_assert_true (row_has (s, xa + 1, xb - 2, top, &color[3]));
  g_assert_false (row_has (s, xa + 1, xb - 2, top, &color[2]));   /* post shares nothing */
  /* head's WEIGHT: head's colour, and a click there is head */
  g_assert_true (zw_board_view_chunk_span (p, W, H, (guint) weight, &xa, &xb));
  assert_color (s, (xa + xb) / 2, top, &color[1], "head:WEIGHT");
  assert_color (s, xa + 3, my1 - 3, &color[1], "head:WEIGHT");
  g_assert_cmpint (zw_board_view_network_at (p, W, H, (xa + xb) / 2, (my0 + my1) / 2), ==, 1);
  /* a connection's chunk: the writer's colour (backbone), cross-hatched in the reader's (head) */
  g_assert_true (zw_board_view_chunk_span (p, W, H, (guint) conn, &xa, &xb));
  g_assert_true (row_has (s, xa + 1, xb - 2, top + 6, &color[0]));
  g_assert_true (row_has (s, xa + 1, xb - 2, top + 6, &color[1]));
  g_assert_cmpint (zw_board_view_network_at (p, W, H, (xa + xb) / 2, (my0 + my1) / 2), ==, -1);

  /* the ETM bars on one scale: the apart one is the longer, the board's in proportion */
  g_assert_true (zw_board_view_etm_bars (p, W, H, &bx0, &bx1, &ax1, &by, &ay));
  g_assert_cmpfloat (ax1, >, bx1);
  g_assert_cmpfloat_with_epsilon ((bx1 - bx0) / (ax1 - bx0), (double) p->board_bytes / (double) p->apart_bytes, 1e-9);
  assert_color (s, bx1 - 3, by + 6, &style->accent, "the board's ETM bar");
  assert_color (s, (bx1 + ax1) / 2, by + 6, &style->background, "what the board saved (not filled)");
  {
    /* the grid colour is translucent over the background */
    guint32 want = zw_test_blend (&style->grid, 1.0, zw_test_argb (&style->background));
    guint32 got = zw_test_pixel (s, (bx0 + ax1) / 2, ay + 6);
    if (!zw_test_near (got, want, 10))
      g_error ("the apart bar: #%06x, expected #%06x", got & 0xffffff, want & 0xffffff);
  }

  /* the timeline: one bar per network, one after another, each as long as its time */
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      double x0, y0, x1, y1;
      g_assert_true (zw_board_view_time_bar (p, W, H, i, &x0, &y0, &x1, &y1));
      if (prev_x1 >= 0)
        g_assert_cmpfloat_with_epsilon (x0, prev_x1, 1e-6);
      prev_x1 = x1;
      if (n->on_board && x1 - x0 > 3)
        assert_color (s, (x0 + x1) / 2, (y0 + y1) / 2, &color[i], n->name);
      else if (!n->on_board)
        {
          /* host only: hatched over its colour */
          g_assert_true (row_has (s, x0 + 1, x1 - 1, (y0 + y1) / 2, &color[i]));
          g_assert_true (row_has (s, x0 + 1, x1 - 1, (y0 + y1) / 2, &style->background));
        }
      g_assert_cmpint (zw_board_view_network_at (p, W, H, (x0 + x1) / 2, (y0 + y1) / 2), ==, (gint) i);
    }
  /* the bars' lengths are the networks' times on one axis */
  {
    double a0, a1, b0, b1, y0, y1;
    zw_board_view_time_bar (p, W, H, 0, &a0, &y0, &a1, &y1);
    zw_board_view_time_bar (p, W, H, 1, &b0, &y0, &b1, &y1);
    g_assert_cmpfloat_with_epsilon ((a1 - a0) / (b1 - b0),
                                    g_array_index (p->networks, ZwPipelineNetwork, 0).time_ms
                                      / g_array_index (p->networks, ZwPipelineNetwork, 1).time_ms, 1e-9);
  }
  cairo_surface_destroy (s);
}

static void
test_render_light_and_dark (void)
{
  g_autoptr (ZwPipelineReport) p = demo_report ();
  ZwViewStyle light, dark;
  GdkRGBA l, d;

  zw_view_style_init_default (&light);
  zw_view_style_init_dark (&dark);
  check_render (p, &light, "board-light.png");
  check_render (p, &dark, "board-dark.png");
  /* a network's colour is lighter on the dark background */
  zw_board_view_network_color (&light, 0, &l);
  zw_board_view_network_color (&dark, 0, &d);
  g_assert_cmpfloat (d.red + d.green + d.blue, >, l.red + l.green + l.blue);
}

static void
test_render_empty_and_table (void)
{
  g_autoptr (ZwPipelineReport) p = demo_report ();
  g_autoptr (GPtrArray) table = zw_board_view_chunk_table (p);
  ZwViewStyle style;
  cairo_surface_t *s;
  guint64 non_background = 0;

  /* the table: a header and every chunk, the owner as the file says it */
  g_assert_cmpuint (table->len, ==, p->chunks->len + 1);
  g_assert_cmpstr (((char **) g_ptr_array_index (table, 0))[2], ==, "owner");
  g_assert_cmpstr (((char **) g_ptr_array_index (table, (guint) chunk_index (p, "head:WEIGHT") + 1))[4], ==, "head");
  /* no pipeline: the empty state, and nothing to click */
  zw_view_style_init_default (&style);
  s = render_png (NULL, &style, "board-empty.png");
  for (int y = 0; y < H; y += 4)
    for (int x = 0; x < W; x += 4)
      non_background += !zw_test_near (zw_test_pixel (s, x, y), zw_test_argb (&style.background), 4);
  g_assert_cmpuint (non_background, >, 20);
  g_assert_cmpint (zw_board_view_network_at (NULL, W, H, 100, 100), ==, -1);
  cairo_surface_destroy (s);
}

/* ---- the app ---- */

static ZwApplication *app;
static ZwWindow *win;

static gboolean
wake_up (gpointer data)
{
  (void) data;
  return G_SOURCE_CONTINUE;
}

static gboolean
wait_for (gboolean (*pred) (gpointer), gpointer data, guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC;
  guint tick = g_timeout_add (50, wake_up, NULL);
  gboolean ok;

  while (!(ok = pred (data)) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  return ok;
}

static gboolean
is_idle (gpointer data)
{
  (void) data;
  return !zw_window_get_busy (win) && zw_window_get_n_runs_made (win) > 0;
}

/* The window's screenshot holds the networks' colours (the map, the legend, the timeline). */
static void
assert_texture_shows_networks (GdkTexture *texture, const ZwPipelineReport *p)
{
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) w * h);
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  gdk_texture_download (texture, (guchar *) pixels, (gsize) w * 4);
  for (guint i = 0; i < p->networks->len; i++)
    {
      GdkRGBA c;
      guint64 n = 0;
      zw_board_view_network_color (&style, i, &c);
      for (gsize k = 0; k < (gsize) w * h; k++)
        n += zw_test_near (pixels[k] | 0xff000000u, zw_test_argb (&c), 6);
      if (n < 40)
        g_error ("the screenshot has %" G_GUINT64_FORMAT " pixels of network %u's colour", n, i);
    }
}

static gboolean
shows_pipeline (gpointer data)
{
  ZwBoardView *view = ZW_BOARD_VIEW (zw_window_get_view (win, "board"));
  return !zw_window_get_busy (win) && zw_board_view_get_pipeline (view) != data
         && zw_board_view_get_pipeline (view) != NULL;
}

static char *
current_view (void)
{
  char *view = NULL;
  g_object_get (win, "view", &view, NULL);
  return view;
}

/* The row above the board (the hint and "Show the Whole Pass"): the view's box's first child */
static GtkWidget *
board_bar (ZwBoardView *view)
{
  GtkWidget *bar = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (view)));
  g_assert_true (GTK_IS_BUTTON (gtk_widget_get_last_child (bar)));
  return bar;
}

static void
test_app_opens_demo_pipeline (void)
{
  ZwBoardView *view;
  g_autoptr (ZwPipelineReport) shown = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json = NULL;
  g_autofree char *dir = g_dir_make_tmp ("board-app-XXXXXX", NULL);
  guint n_runs;
  ZwRun *run;
  g_autoptr (GError) error = NULL;

  g_assert_true (wait_for (is_idle, NULL, 120));
  view = ZW_BOARD_VIEW (zw_window_get_view (win, "board"));
  g_assert_null (zw_board_view_get_pipeline (view));
  /* no pipeline: no hint nor "Show the Whole Pass" to act on, only the empty board's text */
  g_assert_false (gtk_widget_get_visible (board_bar (view)));

  /* the main menu's demo pipeline: run in the worker, then Board shows it */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.open-demo-pipeline", NULL));
  if (!wait_for (shows_pipeline, NULL, 120))
    g_error ("no pipeline shown after 120 s (banner: %s)", zw_window_get_banner_message (win));
  name = current_view ();
  g_assert_cmpstr (name, ==, "board");
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_true (gtk_widget_get_visible (board_bar (view)));
  /* kept: the view lets it go when the next pipeline comes */
  shown = zw_pipeline_report_ref (zw_board_view_get_pipeline (view));
  g_assert_cmpuint (shown->networks->len, ==, 4);
  g_assert_cmpfloat (shown->pass_ms, >, 0);
  g_assert_nonnull (strstr (zw_window_get_shown_file (win), "yolov5s_pipeline.toml"));
  /* what is on screen is drawn */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));

  /* head clicked: its deploy report is the window's run, shown in Segments */
  n_runs = zw_window_get_n_runs_made (win);
  g_assert_true (zw_board_view_activate_network (view, 1));
  g_assert_cmpuint (zw_window_get_n_runs_made (win), ==, n_runs + 1);
  run = zw_window_get_selected_run (win);
  g_assert_true (zw_run_get_report (run) == g_array_index (shown->networks, ZwPipelineNetwork, 1).report);
  g_assert_true (zw_view_get_report (ZW_VIEW (zw_window_get_view (win, "segments")))
                 == g_array_index (shown->networks, ZwPipelineNetwork, 1).report);
  /* backbone, then head again: head's run is selected again, not made twice */
  g_assert_true (zw_board_view_activate_network (view, 0));
  g_assert_cmpuint (zw_window_get_n_runs_made (win), ==, n_runs + 2);
  g_assert_true (zw_board_view_activate_network (view, 1));
  g_assert_cmpuint (zw_window_get_n_runs_made (win), ==, n_runs + 2);
  g_assert_true (zw_run_get_report (zw_window_get_selected_run (win))
                 == g_array_index (shown->networks, ZwPipelineNetwork, 1).report);
  /* the keys: Down from head is post, Up twice is backbone, Enter shows it (its run again) */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (view), "board.next", NULL));
  g_assert_cmpint (zw_board_view_get_selected_network (view), ==, 2);
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (view), "board.previous", NULL));
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (view), "board.previous", NULL));
  g_assert_cmpint (zw_board_view_get_selected_network (view), ==, 0);
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (view), "board.open", NULL));
  g_assert_true (zw_run_get_report (zw_window_get_selected_run (win))
                 == g_array_index (shown->networks, ZwPipelineNetwork, 0).report);
  g_assert_cmpuint (zw_window_get_n_runs_made (win), ==, n_runs + 2);
  /* post runs host ops only: no report, the banner says so naming it */
  g_assert_true (zw_board_view_activate_network (view, 2));
  g_assert_nonnull (zw_window_get_banner_message (win));
  g_assert_nonnull (strstr (zw_window_get_banner_message (win), "post"));
  g_assert_cmpuint (zw_window_get_n_runs_made (win), ==, n_runs + 2);

  /* the report the CLI saved opens the same */
  json = g_build_filename (dir, "pipe.json", NULL);
  {
    g_autofree char *text = cJSON_Print (demo_report_json ());
    g_assert_true (g_file_set_contents (json, text, -1, &error));
  }
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "win.open-file", g_variant_new_string (json)));
  if (!wait_for (shows_pipeline, shown, 120))
    g_error ("the saved report did not show after 120 s (banner: %s)", zw_window_get_banner_message (win));
  g_assert_cmpuint (zw_board_view_get_pipeline (view)->board_bytes, ==, shown->board_bytes);
  g_assert_cmpstr (zw_window_get_shown_file (win), ==, json);

  /* zhuge-workbench PIPE.toml: the command line opens it in Board (a screenshot of it) */
  if (g_getenv ("ZW_APP") != NULL)
    {
      g_autofree char *png = g_build_filename (dir, "board.png", NULL);
      g_autofree char *pipe = demo_pipeline_path ();
      g_autoptr (GSubprocess) proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, g_getenv ("ZW_APP"),
                                                       "--screenshot", png, "--view", "board", pipe, NULL);
      g_autoptr (GdkTexture) texture = NULL;
      g_assert_no_error (error);
      g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
      g_assert_no_error (error);
      texture = gdk_texture_new_from_filename (png, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), >, 600);
      assert_texture_shows_networks (texture, zw_board_view_get_pipeline (view));
      g_unlink (png);
    }
  g_unlink (json);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  gboolean render_suite, display;
  int status;

  zw_test_suites_from_args (&argc, &argv, &render_suite, &display);
  g_test_init (&argc, &argv, NULL);
  if (render_suite)
    {
      g_test_add_func ("/board-view/model/live-and-file-read-the-same-checker-figures", test_model_live_and_file);
      g_test_add_func ("/board-view/model/damaged-owner-figure-format-named", test_model_rejects_damage);
      g_test_add_func ("/board-view/file-kind/pipeline-files-and-reports-not-run-configs", test_file_kinds);
      g_test_add_func ("/board-view/render/map-shares-connections-etm-timeline-light-dark", test_render_light_and_dark);
      g_test_add_func ("/board-view/render/empty-state-and-chunk-table", test_render_empty_and_table);
    }
  if (display)
    {
      g_autoptr (GError) error = NULL;
      GList *windows;

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
      g_test_add_func ("/board-view/display/app-opens-demo-pipeline-board-network-run-saved-report",
                       test_app_opens_demo_pipeline);
    }
  status = g_test_run ();
  g_clear_pointer (&root, cJSON_Delete);
  if (win != NULL)
    {
      wait_for (is_idle, NULL, 30);
      gtk_window_destroy (GTK_WINDOW (win));
      g_clear_object (&app);
    }
  return status;
}
