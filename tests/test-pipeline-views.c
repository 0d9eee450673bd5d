/* test-pipeline-views.c — a pipeline's whole pass in Segments, Memory, Timing and Graph
 * (issue 38 item 3). Suite render (no display): the demo pipeline applied and run once, its
 * report read into the model; the pass's model (networks end to end on one axis, every
 * network's ETM chunks over it, the pass's time profile, the "NET:V_ID" names); each of
 * the four drawings rendered offscreen through the one export path and read back for its
 * pixels (each network's colour where its chunks, segments, frames are; the shared FTMP's
 * range holding three networks' chunks at disjoint times; a connection's chunk and edge in
 * its writer's colour; the pass's rows in Timing's lanes at their networks' times, each
 * network's strip along the ruler in its colour).
 * Suite display (Xvfb): test-pipeline-dumps.c. ZW_RUN_VIEWS_KEEP=<dir> keeps the PNGs. */
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-pass.h"
#include "zw-board-view.h"
#include "zw-export.h"
#include "zw-graph-pipeline.h"
#include "zw-memory-pipeline.h"
#include "zw-segment-pipeline.h"
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "zw-timing-pipeline.h"
#include "zw-timing-view.h"

#include <glib/gstdio.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

#define W 1200
#define H 760

static cJSON *root;

static ZwPipelineReport *
demo_pipeline (void)
{
  g_autoptr (GError) error = NULL;
  ZwPipelineReport *p;

  if (root == NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
      g_autoptr (XrtPipeline) pipe = xrt_pipeline_new_from_file (path, &error);
      g_assert_no_error (error);
      root = zw_test_pipeline_pass (pipe, path, NULL);
    }
  p = zw_pipeline_report_from_json (root, "demo", &error);
  g_assert_no_error (error);
  return p;
}

static gint
net (const ZwPipelineReport *p, const char *name)
{
  gint i = zw_pipeline_report_find_network (p, name);
  g_assert_cmpint (i, >=, 0);
  return i;
}

/* ---- rendering ---- */

typedef struct {
  const ZwPipelineReport *p;
  ZwSelection *selection;
  const ZwProfile *profile;
  int which;
} DrawArgs;

enum { MEMORY, SEGMENTS, GRAPH, TIMING };

static void
draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  DrawArgs *a = data;

  switch (a->which)
    {
    case MEMORY: zw_memory_pass_draw (cr, width, height, a->p, a->selection, colors); break;
    case SEGMENTS: zw_segment_pass_draw (cr, width, height, a->p, a->selection, colors); break;
    case GRAPH: zw_pipe_graph_draw (cr, width, height, a->p, a->selection, colors); break;
    default:
      zw_timing_view_draw (cr, width, height, a->profile, NULL, NULL, colors);
      zw_timing_pass_draw_networks (cr, width, height, a->profile, a->p, NULL, colors);
      break;
    }
}

static cairo_surface_t *
render (DrawArgs *args, const ZwViewStyle *style, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pipeline-views-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const char *keep = g_getenv ("ZW_RUN_VIEWS_KEEP");
  cairo_surface_t *s;

  g_assert_true (zw_export_draw_to_file (draw, args, style, ZW_VIEW_FORMAT_PNG, W, H, path, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
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

/* Whether the rectangle [x0,x1)x[y0,y1) holds @color somewhere (every other pixel). */
static gboolean
area_has (cairo_surface_t *s, double x0, double y0, double x1, double y1, const GdkRGBA *color)
{
  for (double y = MAX (y0, 0); y < MIN (y1, H); y += 1)
    for (double x = MAX (x0, 0); x < MIN (x1, W); x += 1)
      if (zw_test_near (zw_test_pixel (s, x, y), zw_test_argb (color), 10))
        return TRUE;
  return FALSE;
}

/* ---- the model ---- */

static void
test_pass_model (void)
{
  g_autoptr (ZwPipelineReport) p = demo_pipeline ();
  g_autoptr (GArray) chunks = zw_pipeline_pass_chunks (p);
  g_autoptr (ZwProfile) pass = zw_pipeline_pass_profile (p);
  double prev = 0, sum = 0;
  guint rows = 0, in_share[4] = { 0 };
  g_autofree char *name = NULL;
  g_autofree char *parsed = NULL;
  gint64 v = -1;

  /* the networks end to end, each as long as its time, the pass as long as pass_ms */
  g_assert_true (zw_pipeline_pass_has_times (p));
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      double t0, t1;
      g_assert_true (zw_pipeline_pass_network_span (p, i, &t0, &t1));
      g_assert_cmpfloat_with_epsilon (t0, prev, 1e-9);
      g_assert_cmpfloat_with_epsilon (t1 - t0, n->time_ms, 1e-9);
      prev = t1;
      sum += n->time_ms;
      /* every network's ops' times came with the report */
      g_assert_nonnull (n->profile);
      rows += n->profile->rows->len;
    }
  g_assert_cmpfloat_with_epsilon (zw_pipeline_pass_length (p), p->pass_ms, 1e-6);
  g_assert_cmpfloat_with_epsilon (sum, p->pass_ms, 1e-6);

  /* the pass profile: every network's rows, each inside its network's span */
  g_assert_nonnull (pass);
  g_assert_cmpuint (pass->rows->len, ==, rows);
  g_assert_cmpstr (pass->network, ==, "yolov5s-pipeline");
  for (guint r = 0; r < pass->rows->len; r++)
    {
      const ZwProfileRow *row = g_ptr_array_index (pass->rows, r);
      gint i = zw_pipeline_pass_network_of_row (p, r);
      double t0, t1;
      g_assert_cmpint (i, >=, 0);
      zw_pipeline_pass_network_span (p, (guint) i, &t0, &t1);
      g_assert_cmpfloat (row->start_ms, >=, t0 - 1e-9);
      g_assert_cmpfloat (row->start_ms + row->total_ms, <=, t1 + 1e-6);
      g_assert_true (g_str_has_prefix (row->op_name, g_array_index (p->networks, ZwPipelineNetwork, i).name));
    }
  g_assert_cmpint (zw_pipeline_pass_network_of_row (p, rows), ==, -1);

  /* chunks: inside their network's time, the shared FTMP holding three networks' chunks */
  g_assert_cmpuint (chunks->len, >, 20);
  for (guint k = 0; k < chunks->len; k++)
    {
      const ZwPassChunk *c = &g_array_index (chunks, ZwPassChunk, k);
      double t0, t1;
      g_assert_cmpfloat (c->t1, >, c->t0);
      if (c->kind == ZW_PASS_CHUNK_FTMP || c->kind == ZW_PASS_CHUNK_IO)
        {
          zw_pipeline_pass_network_span (p, (guint) c->network, &t0, &t1);
          g_assert_cmpfloat (c->t0, >=, t0 - 1e-9);
          g_assert_cmpfloat (c->t1, <=, t1 + 1e-9);
        }
      if (c->kind == ZW_PASS_CHUNK_FTMP && c->share >= 0)
        in_share[c->network]++;
      if (c->kind == ZW_PASS_CHUNK_CONNECT)
        {
          /* from the writer's forward to the reader's */
          double a0, a1, b0, b1;
          zw_pipeline_pass_network_span (p, (guint) c->network, &a0, &a1);
          zw_pipeline_pass_network_span (p, (guint) c->to_network, &b0, &b1);
          g_assert_cmpfloat (c->t0, ==, a0);
          g_assert_cmpfloat (c->t1, ==, b1);
          g_assert_cmpint (c->connection, >=, 0);
        }
    }
  /* every chunk a network keeps in ETM is there (the others are in OCM: Best score put all
   * of head's and tiny's there), in the shared FTMP for the networks that share it */
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwDeployReport *r = g_array_index (p->networks, ZwPipelineNetwork, i).report;
      guint in_etm = 0, drawn = 0;
      for (guint k = 0; r != NULL && k < r->chunks->len; k++)
        in_etm += !g_array_index (r->chunks, ZwChunkInfo, k).in_ocm;
      for (guint k = 0; k < chunks->len; k++)
        drawn += g_array_index (chunks, ZwPassChunk, k).kind == ZW_PASS_CHUNK_FTMP
                 && g_array_index (chunks, ZwPassChunk, k).network == (gint) i;
      g_assert_cmpuint (drawn, ==, in_etm);
    }
  g_assert_cmpuint (in_share[net (p, "backbone")], >, 0);
  g_assert_cmpuint (in_share[net (p, "post")], ==, 0);
  /* networks taking turns: chunks of two networks at overlapping addresses never overlap in time */
  for (guint a = 0; a < chunks->len; a++)
    for (guint b = a + 1; b < chunks->len; b++)
      {
        const ZwPassChunk *x = &g_array_index (chunks, ZwPassChunk, a), *y = &g_array_index (chunks, ZwPassChunk, b);
        if (x->network == y->network || x->kind == ZW_PASS_CHUNK_CONNECT || y->kind == ZW_PASS_CHUNK_CONNECT
            || x->kind == ZW_PASS_CHUNK_RESIDENT || y->kind == ZW_PASS_CHUNK_RESIDENT)
          continue;
        if (x->addr < y->addr + y->size && y->addr < x->addr + x->size)
          g_assert_true (x->t1 <= y->t0 + 1e-9 || y->t1 <= x->t0 + 1e-9);
      }

  /* a pipeline's value by name */
  name = zw_pipeline_value_name ("head", 81);
  g_assert_cmpstr (name, ==, "head:81");
  g_assert_true (zw_pipeline_value_parse (name, &parsed, &v));
  g_assert_cmpstr (parsed, ==, "head");
  g_assert_cmpint (v, ==, 81);
  g_assert_false (zw_pipeline_value_parse ("head", &parsed, &v));
  g_assert_false (zw_pipeline_value_parse ("head:x1", &parsed, &v));
  g_assert_false (zw_pipeline_value_parse (":4", &parsed, &v));
  {
    g_autofree char *file = zw_pipeline_value_file_name ("head", 81);
    g_assert_cmpstr (file, ==, "head.81.ftmp");
  }
}

/* ---- Memory ---- */

static void
check_memory (const ZwViewStyle *style, const char *png)
{
  g_autoptr (ZwPipelineReport) p = demo_pipeline ();
  g_autoptr (GArray) chunks = zw_pipeline_pass_chunks (p);
  g_autoptr (ZwSelection) selection = zw_selection_new ();
  DrawArgs args = { p, selection, NULL, MEMORY };
  ZwMemPassLayout l;
  cairo_surface_t *s;
  gboolean checked[4] = { FALSE };
  double share_x[4][2];
  gint conn = -1;

  zw_selection_set_pipeline (selection, p);
  g_assert_true (zw_memory_pass_layout (p, chunks, W, H, &l));
  s = render (&args, style, png);
  /* each network on the board: its biggest FTMP chunk in its colour, and a click there is it */
  for (guint i = 0; i < p->networks->len; i++)
    {
      gint best = -1;
      double r[4] = { 0, 0, 0, 0 };
      GdkRGBA c;
      for (guint k = 0; k < chunks->len; k++)
        {
          const ZwPassChunk *ch = &g_array_index (chunks, ZwPassChunk, k);
          double rr[4];
          if (ch->network != (gint) i || (ch->kind != ZW_PASS_CHUNK_FTMP && ch->kind != ZW_PASS_CHUNK_IO))
            continue;
          zw_memory_pass_chunk_rect (&l, ch, rr);
          if (zw_memory_pass_chunk_at (chunks, &l, rr[0] + rr[2] / 2, rr[1] + rr[3] / 2) != (gint) k)
            continue;   /* covered by a later one */
          if (best < 0 || rr[2] * rr[3] > r[2] * r[3])
            {
              best = (gint) k;
              memcpy (r, rr, sizeof r);
            }
        }
      if (!g_array_index (p->networks, ZwPipelineNetwork, i).on_board)
        {
          g_assert_cmpint (best, ==, -1);
          continue;
        }
      g_assert_cmpint (best, >=, 0);
      if (r[2] < 4 || r[3] < 4)
        continue;   /* tiny's chunks are under a pixel high: its lane below says it is there */
      zw_board_view_network_color (style, i, &c);
      assert_color (s, r[0] + r[2] / 2, r[1] + r[3] / 2, &c, g_array_index (p->networks, ZwPipelineNetwork, i).name);
      checked[i] = TRUE;
      share_x[i][0] = r[0];
      share_x[i][1] = r[0] + r[2];
    }
  g_assert_true (checked[net (p, "backbone")] && checked[net (p, "head")]);
  /* in pass order, left to right */
  g_assert_cmpfloat (share_x[net (p, "backbone")][1], <=, share_x[net (p, "head")][0] + 1);
  /* the networks' lane: each one's colour over its forward */
  for (guint i = 0; i < p->networks->len; i++)
    {
      double t0, t1;
      GdkRGBA c;
      zw_pipeline_pass_network_span (p, i, &t0, &t1);
      zw_board_view_network_color (style, i, &c);
      g_assert_true (area_has (s, zw_memory_pass_x (&l, t0), l.lane_y0, MAX (zw_memory_pass_x (&l, t1), zw_memory_pass_x (&l, t0) + 2),
                               l.lane_y1, &c));
    }
  /* a connection's chunk: the writer's colour (backbone) and the reader's hatch (head) */
  for (guint k = 0; k < chunks->len && conn < 0; k++)
    if (g_array_index (chunks, ZwPassChunk, k).kind == ZW_PASS_CHUNK_CONNECT)
      conn = (gint) k;
  g_assert_cmpint (conn, >=, 0);
  {
    const ZwPassChunk *c = &g_array_index (chunks, ZwPassChunk, conn);
    double r[4], a0, a1;
    GdkRGBA from, to;
    zw_memory_pass_chunk_rect (&l, c, r);
    zw_board_view_network_color (style, (guint) c->network, &from);
    zw_board_view_network_color (style, (guint) c->to_network, &to);
    /* between the writer's end and the reader's start nothing covers it (post runs between?
     * no: backbone -> head are next to each other): look over its whole rectangle */
    g_assert_true (area_has (s, r[0], r[1], r[0] + r[2], r[1] + r[3], &from));
    g_assert_true (area_has (s, r[0], r[1], r[0] + r[2], r[1] + r[3], &to));
    zw_pipeline_pass_network_span (p, (guint) c->network, &a0, &a1);
    g_assert_cmpfloat (r[0], ==, zw_memory_pass_x (&l, a0));
  }
  cairo_surface_destroy (s);

  /* a selected value is outlined in the accent colour */
  {
    gint k = 0;
    const ZwPassChunk *c = NULL;
    double r[4];
    g_autofree char *name = NULL;
    for (guint i = 0; i < chunks->len && c == NULL; i++)
      if (g_array_index (chunks, ZwPassChunk, i).kind == ZW_PASS_CHUNK_IO
          && g_array_index (chunks, ZwPassChunk, i).network == net (p, "head") && g_array_index (chunks, ZwPassChunk, i).v_id >= 0)
        c = &g_array_index (chunks, ZwPassChunk, (k = (gint) i));
    g_assert_nonnull (c);
    name = zw_pipeline_value_name ("head", c->v_id);
    g_assert_true (zw_selection_set_pipeline_value (selection, name));
    zw_memory_pass_chunk_rect (&l, c, r);
    s = render (&args, style, "selected.png");
    g_assert_true (area_has (s, r[0] - 2, r[1] - 2, r[0] + r[2] + 2, r[1] + 1, &style->accent));
    cairo_surface_destroy (s);
    (void) k;
  }
}

static void
test_memory_render (void)
{
  ZwViewStyle light, dark;

  zw_view_style_init_default (&light);
  zw_view_style_init_dark (&dark);
  check_memory (&light, "memory-pass-light.png");
  check_memory (&dark, "memory-pass-dark.png");
}

/* ---- Segments ---- */

static void
test_segments_render (void)
{
  g_autoptr (ZwPipelineReport) p = demo_pipeline ();
  DrawArgs args = { p, NULL, NULL, SEGMENTS };
  ZwViewStyle style;
  cairo_surface_t *s;
  double rb[4], rh[4], rt[4];

  zw_view_style_init_default (&style);
  s = render (&args, &style, "segments-pass.png");
  /* the three networks that share FTMP have it at one address range; each row in its colour */
  g_assert_true (zw_segment_pass_rect (p, W, H, net (p, "backbone"), ZW_SEGMENT_FTMP, rb));
  g_assert_true (zw_segment_pass_rect (p, W, H, net (p, "head"), ZW_SEGMENT_FTMP, rh));
  g_assert_true (zw_segment_pass_rect (p, W, H, net (p, "tiny"), ZW_SEGMENT_FTMP, rt));
  g_assert_cmpfloat (rb[0], ==, rh[0]);
  g_assert_cmpfloat (rh[0], ==, rt[0]);
  g_assert_cmpfloat (rb[1], <, rh[1]);
  g_assert_cmpfloat (rh[1], <, rt[1]);
  /* post runs host ops only: no row */
  g_assert_false (zw_segment_pass_rect (p, W, H, net (p, "post"), ZW_SEGMENT_FTMP, rb));
  for (guint i = 0; i < p->networks->len; i++)
    {
      double r[4];
      GdkRGBA c;
      if (!zw_segment_pass_rect (p, W, H, (gint) i, ZW_SEGMENT_WEIGHT, r))
        continue;
      zw_board_view_network_color (&style, i, &c);
      /* its WEIGHT: the segment's colour, the network's along the top */
      if (r[2] > 6)
        {
          assert_color (s, r[0] + r[2] / 2, r[1] + r[3] / 2 + 6, &style.segment[ZW_SEGMENT_WEIGHT], "WEIGHT");
          assert_color (s, r[0] + r[2] / 2, r[1] + 1, &c, g_array_index (p->networks, ZwPipelineNetwork, i).name);
        }
    }
  /* the board's row: the shared FTMP striped in the colours of the three networks sharing it,
   * a connection's chunk in its writer's colour hatched in its reader's */
  for (guint k = 0; k < p->chunks->len; k++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, k);
      double r[4];
      GdkRGBA col;
      if (c->kind != ZW_BOARD_CHUNK_SHARE && c->kind != ZW_BOARD_CHUNK_CONNECT)
        continue;
      g_assert_true (zw_segment_pass_rect (p, W, H, -1, (gint) k, r));
      if (r[2] < 8)
        continue;
      if (c->kind == ZW_BOARD_CHUNK_SHARE)
        {
          zw_board_view_network_color (&style, (guint) net (p, "backbone"), &col);
          g_assert_true (area_has (s, r[0], r[1], r[0] + r[2], r[1] + r[3], &col));
          zw_board_view_network_color (&style, (guint) net (p, "tiny"), &col);
          g_assert_true (area_has (s, r[0], r[1], r[0] + r[2], r[1] + r[3], &col));
          zw_board_view_network_color (&style, (guint) net (p, "post"), &col);
          g_assert_false (area_has (s, r[0], r[1] + 2, r[0] + r[2], r[1] + r[3] - 2, &col));
        }
      else
        {
          zw_board_view_network_color (&style, (guint) net (p, "backbone"), &col);
          g_assert_true (area_has (s, r[0], r[1], r[0] + r[2], r[1] + r[3], &col));
          zw_board_view_network_color (&style, (guint) net (p, "head"), &col);
          g_assert_true (area_has (s, r[0], r[1], r[0] + r[2], r[1] + r[3], &col));
        }
    }
  /* the board's row: every chunk of head's own in head's colour */
  for (guint k = 0; k < p->chunks->len; k++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, k);
      double r[4];
      GdkRGBA col;
      if (c->kind != ZW_BOARD_CHUNK_NETWORK || c->network != net (p, "head") || c->segment != ZW_SEGMENT_WEIGHT)
        continue;
      g_assert_true (zw_segment_pass_rect (p, W, H, -1, (gint) k, r));
      zw_board_view_network_color (&style, (guint) c->network, &col);
      assert_color (s, r[0] + r[2] / 2, r[1] + r[3] / 2, &col, "head's WEIGHT on the board");
    }
  cairo_surface_destroy (s);
}

/* ---- Graph ---- */

static void
test_graph_render (void)
{
  g_autoptr (ZwPipelineReport) p = demo_pipeline ();
  DrawArgs args = { p, NULL, NULL, GRAPH };
  ZwPipeGraphLayout *l = zw_pipe_graph_layout_get_cached (p);
  ZwViewStyle style;
  cairo_surface_t *s;
  double scale, ox, oy;
  guint n_conn = 0, n_ops = 0;

  g_assert_nonnull (l);
  /* one cluster per network, a node per op (one for the host-only network) */
  g_assert_cmpuint (l->clusters->len, ==, p->networks->len);
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      n_ops += n->report != NULL ? (guint) n->n_ops : 1;
    }
  g_assert_cmpuint (l->nodes->len, ==, n_ops);
  /* side by side: the frames do not overlap */
  for (guint i = 0; i < l->clusters->len; i++)
    for (guint k = i + 1; k < l->clusters->len; k++)
      {
        const ZwPipeGraphCluster *a = &g_array_index (l->clusters, ZwPipeGraphCluster, i);
        const ZwPipeGraphCluster *b = &g_array_index (l->clusters, ZwPipeGraphCluster, k);
        g_assert_true (a->x1 <= b->x0 || b->x1 <= a->x0 || a->y1 <= b->y0 || b->y1 <= a->y0);
      }
  /* every connection an edge from its writer's cluster to its reader's */
  for (guint e = 0; e < l->edges->len; e++)
    {
      const ZwPipeGraphEdge *edge = &g_array_index (l->edges, ZwPipeGraphEdge, e);
      const ZwPipelineConnection *c;
      if (edge->connection < 0)
        {
          g_assert_cmpint (g_array_index (l->nodes, ZwPipeGraphNode, edge->from).network, ==,
                           g_array_index (l->nodes, ZwPipeGraphNode, edge->to).network);
          continue;
        }
      n_conn++;
      c = &g_array_index (p->connections, ZwPipelineConnection, edge->connection);
      g_assert_cmpint (g_array_index (l->nodes, ZwPipeGraphNode, edge->from).network, ==, c->from);
      g_assert_cmpint (g_array_index (l->nodes, ZwPipeGraphNode, edge->to).network, ==, c->to);
    }
  g_assert_cmpuint (n_conn, ==, p->connections->len);

  zw_view_style_init_default (&style);
  s = render (&args, &style, "graph-pass.png");
  zw_pipe_graph_fit (l, W, H, &scale, &ox, &oy);
  /* each network's frame in its colour (its left edge) */
  for (guint i = 0; i < l->clusters->len; i++)
    {
      const ZwPipeGraphCluster *c = &g_array_index (l->clusters, ZwPipeGraphCluster, i);
      GdkRGBA col;
      double x = ox + c->x0 * scale, y = oy + (c->y0 + c->y1) / 2 * scale;
      zw_board_view_network_color (&style, i, &col);
      g_assert_true (area_has (s, x - 3, y - 3, x + 3, y + 3, &col));
    }
  /* a connection edge: drawn thick in its writer's colour along its spline */
  for (guint e = 0; e < l->edges->len; e++)
    {
      const ZwPipeGraphEdge *edge = &g_array_index (l->edges, ZwPipeGraphEdge, e);
      const double *q;
      GdkRGBA col;
      if (edge->connection < 0)
        continue;
      q = &g_array_index (l->points, double, 2 * (edge->first_point + edge->n_points - 1));
      /* the spline's last point, just before the reader's node */
      zw_board_view_network_color (&style, (guint) edge->network, &col);
      q = &g_array_index (l->points, double, 2 * edge->first_point);
      g_assert_true (area_has (s, ox + q[0] * scale - 3, oy + q[1] * scale - 3, ox + q[0] * scale + 3,
                               oy + q[1] * scale + 3, &col));
    }
  /* a click: an op selects its first output, a connection's edge its value */
  for (guint i = 0; i < l->nodes->len; i++)
    {
      const ZwPipeGraphNode *n = &g_array_index (l->nodes, ZwPipeGraphNode, i);
      const ZwPipelineNetwork *nw = &g_array_index (p->networks, ZwPipelineNetwork, n->network);
      const ZwOpInfo *op;
      g_autofree char *got = NULL;
      g_autofree char *want = NULL;
      if (n->op_index < 0)
        continue;
      op = &g_array_index (nw->report->ops, ZwOpInfo, n->op_index);
      if (op->outputs == NULL || op->outputs->len == 0)
        continue;
      got = zw_pipe_graph_value_at (l, W, H, ox + n->x * scale, oy + n->y * scale);
      want = zw_pipeline_value_name (nw->name, g_array_index (op->outputs, gint64, 0));
      g_assert_cmpstr (got, ==, want);
    }
  for (guint e = 0; e < l->edges->len; e++)
    {
      const ZwPipeGraphEdge *edge = &g_array_index (l->edges, ZwPipeGraphEdge, e);
      const double *q;
      g_autofree char *got = NULL;
      g_autofree char *net_name = NULL;
      gint64 v = -1;
      gboolean a_connection = FALSE;
      if (edge->connection < 0)
        continue;
      q = &g_array_index (l->points, double, 2 * (edge->first_point + edge->n_points / 2));
      got = zw_pipe_graph_value_at (l, W, H, ox + q[0] * scale, oy + q[1] * scale);
      g_assert_nonnull (got);
      g_assert_true (zw_pipeline_value_parse (got, &net_name, &v));
      for (guint k = 0; k < p->connections->len; k++)
        {
          const ZwPipelineConnection *c = &g_array_index (p->connections, ZwPipelineConnection, k);
          a_connection |= c->output_v_id == v
                          && g_str_equal (g_array_index (p->networks, ZwPipelineNetwork, c->from).name, net_name);
        }
      g_assert_true (a_connection);
    }
  g_assert_null (zw_pipe_graph_value_at (l, W, H, 2, H - 2));
  cairo_surface_destroy (s);
}

/* ---- Timing ---- */

static void
test_timing_render (void)
{
  g_autoptr (ZwPipelineReport) p = demo_pipeline ();
  g_autoptr (ZwProfile) pass = zw_pipeline_pass_profile (p);
  DrawArgs args = { p, NULL, pass, TIMING };
  ZwViewStyle style;
  ZwTimingGeometry g;
  cairo_surface_t *s;
  g_autofree double *starts = NULL;
  double end;
  gboolean seen[4] = { FALSE };

  g_assert_nonnull (pass);
  zw_view_style_init_default (&style);
  s = render (&args, &style, "timing-pass.png");
  end = zw_timing_layout (pass, &starts);
  /* the pass's end is the pipeline's time */
  g_assert_cmpfloat_with_epsilon (end, p->pass_ms, 1e-6);
  zw_timing_geometry_init (&g, end, NULL, W, H, zw_timing_profile_has_merged (pass, NULL));
  /* each network's longest row drawn in its lane, at its network's time */
  for (guint r = 0; r < pass->rows->len; r++)
    {
      const ZwProfileRow *row = g_ptr_array_index (pass->rows, r);
      gint i = zw_pipeline_pass_network_of_row (p, r);
      ZwTimingLane lane = zw_timing_row_lane (row);
      double x0 = zw_timing_geometry_x (&g, starts[r]), x1 = zw_timing_geometry_x (&g, starts[r] + row->total_ms);
      double y = (g.lane_y[lane][0] + g.lane_y[lane][1]) / 2, t0, t1;
      guint32 px;
      if (x1 - x0 < 6 || seen[i])
        continue;
      zw_pipeline_pass_network_span (p, (guint) i, &t0, &t1);
      g_assert_cmpfloat (starts[r], >=, t0 - 1e-9);
      px = zw_test_pixel (s, (x0 + x1) / 2, y);
      if (zw_test_near (px, zw_test_argb (&style.background), 6))
        g_error ("row %u of %s: nothing drawn at (%.0f, %.0f)", r, g_array_index (p->networks, ZwPipelineNetwork, i).name,
                 (x0 + x1) / 2, y);
      seen[i] = TRUE;
    }
  /* each network's strip along the ruler, in its colour, where its forward is */
  for (guint i = 0; i < p->networks->len; i++)
    {
      double r[4], t0, t1;
      GdkRGBA c;
      g_assert_true (zw_timing_pass_strip (pass, p, NULL, W, H, i, r));
      zw_pipeline_pass_network_span (p, i, &t0, &t1);
      g_assert_cmpfloat_with_epsilon (r[0], zw_timing_geometry_x (&g, t0), 1e-6);
      zw_board_view_network_color (&style, i, &c);
      assert_color (s, r[0] + r[2] / 2, r[1] + r[3] / 2, &c, g_array_index (p->networks, ZwPipelineNetwork, i).name);
    }
  /* backbone and head on the NPU, post's DetPost on the host: every network has a bar */
  for (guint i = 0; i < p->networks->len; i++)
    if (g_array_index (p->networks, ZwPipelineNetwork, i).time_ms > p->pass_ms * 0.05)
      g_assert_true (seen[i]);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pipeline-views/model/pass-networks-chunks-profile-value-names", test_pass_model);
  g_test_add_func ("/pipeline-views/render/memory-pass-colours-shares-connections-light-dark", test_memory_render);
  g_test_add_func ("/pipeline-views/render/segments-board-and-logic-segments", test_segments_render);
  g_test_add_func ("/pipeline-views/render/graph-clusters-side-by-side-connection-edges", test_graph_render);
  g_test_add_func ("/pipeline-views/render/timing-pass-rows-in-their-networks-time", test_timing_render);
  status = g_test_run ();
  g_clear_pointer (&root, cJSON_Delete);
  return status;
}
