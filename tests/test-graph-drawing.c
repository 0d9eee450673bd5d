/* test-graph-drawing.c — the graph view drawn offscreen, with pixel assertions (suite render,
 * no display): a box per op and a group per merged launch (the demo merged and not, the real
 * ZG330 and Buyi compiles), edge labels clear of the boxes, a report from disk (with and
 * without its graph) and the reports of `xrt-run plan --json` and ZG330Backend.log() drawn
 * without their network; selecting an op changes the pixels of every view. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "backends/zg330/zg330-backend.h"
#include "report/zw-deploy-graph.h"
#include "xrt/xrt-session.h"
#include <glib/gstdio.h>
#include <math.h>
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"
#include "zw-memory-view.h"
#include "zw-merge-view.h"
#include "zw-selection.h"
#include "zw-export.h"

#include <string.h>

static guint
n_merged_launches (const ZwDeployReport *report)
{
  guint n = 0;

  for (guint i = 0; i < report->launches->len; i++)
    n += g_array_index (report->launches, ZwLaunch, i).merge_from->len > 1;
  return n;
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  return ((guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s)))[x] & 0xffffff;
}

static guint32
rgb_of (const GdkRGBA *c)
{
  return ((guint32) lround (c->red * 255) << 16) | ((guint32) lround (c->green * 255) << 8)
         | (guint32) lround (c->blue * 255);
}

/* Colours as cairo rounds them: within one step per channel. */
static gboolean
near (guint32 a, guint32 b)
{
  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 1)
      return FALSE;
  return TRUE;
}

/* Connected regions (4-neighbourhood) of pixels of one of @colors, of at least @min_area
 * pixels: the node boxes (their text leaves small islands inside letters). */
static guint
count_regions (cairo_surface_t *s, const guint32 *colors, guint n_colors, guint min_area)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  g_autofree guint8 *seen = g_new0 (guint8, (gsize) w * h);
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (gint));
  guint regions = 0;

  for (int start = 0; start < w * h; start++)
    {
      guint32 c0 = pixel (s, start % w, start / w);
      gboolean match = FALSE;
      guint area = 0;
      for (guint k = 0; k < n_colors; k++)
        match |= near (c0, colors[k]);
      if (seen[start] || !match)
        continue;
      seen[start] = 1;
      g_array_append_val (stack, start);
      while (stack->len > 0)
        {
          gint p = g_array_index (stack, gint, stack->len - 1);
          int x = p % w, y = p / w;
          const int nb[4][2] = { { x - 1, y }, { x + 1, y }, { x, y - 1 }, { x, y + 1 } };
          g_array_set_size (stack, stack->len - 1);
          area++;
          for (int k = 0; k < 4; k++)
            {
              int nx = nb[k][0], ny = nb[k][1];
              if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ny * w + nx] || !near (pixel (s, nx, ny), c0))
                continue;
              seen[ny * w + nx] = 1;
              {
                gint q = ny * w + nx;
                g_array_append_val (stack, q);
              }
            }
        }
      if (area >= min_area)
        regions++;
    }
  return regions;
}

/* The whole layout at @scale into one image. */
static cairo_surface_t *
render_layout (const ZwGraphLayout *layout, double scale, ZwSelection *selection, const ZwViewStyle *style)
{
  int w = (int) ceil (layout->width * scale) + 4, h = (int) ceil (layout->height * scale) + 4;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (s);
  ZwGraphViewport vp;

  zw_graph_viewport_init (&vp);
  vp.scale = scale;
  vp.minimap = FALSE;
  vp.legend = FALSE;
  vp.x = vp.y = -2 / scale;
  zw_graph_view_draw_layout (cr, w, h, layout, &vp, selection, style);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

static void
check_boxes_and_groups (ZwDeployReport *report)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwGraphLayout) layout = zw_graph_layout_new (report, NULL, &error);
  ZwViewStyle style;
  guint32 node_colors[ZW_GRAPH_N_NODE_KINDS], group;
  cairo_surface_t *s;
  GdkRGBA c;
  guint boxes, groups, edges_expected = 0;

  g_assert_no_error (error);
  g_assert_nonnull (layout);
  g_assert_false (layout->edges_guessed);
  g_assert_cmpuint (layout->nodes->len, ==, report->ops->len);
  /* one edge per value and reader */
  for (guint i = 0; i < report->ops->len; i++)
    edges_expected += g_array_index (report->ops, ZwOpInfo, i).inputs->len;
  g_assert_cmpuint (layout->edges->len, <=, edges_expected);
  g_assert_cmpuint (layout->edges->len, >=, report->ops->len - 1);

  zw_view_style_init_default (&style);
  for (int k = 0; k < ZW_GRAPH_N_NODE_KINDS; k++)
    {
      c = zw_graph_view_node_color (&style, (ZwGraphNodeKind) k);
      node_colors[k] = rgb_of (&c);
    }
  c = zw_graph_view_group_color (&style);
  group = rgb_of (&c);
  /* half size: one line of text per box, no value labels over them */
  s = render_layout (layout, 0.5, NULL, &style);
  boxes = count_regions (s, node_colors, ZW_GRAPH_N_NODE_KINDS, 200);
  for (int k = 0; k < ZW_GRAPH_N_NODE_KINDS; k++)
    {
      guint n_kind = 0;
      for (guint i = 0; i < layout->nodes->len; i++)
        n_kind += g_array_index (layout->nodes, ZwGraphNode, i).kind == (ZwGraphNodeKind) k;
      g_test_message ("kind %d: %u nodes, %u boxes", k, n_kind, count_regions (s, &node_colors[k], 1, 200));
    }
  groups = count_regions (s, &group, 1, 20);
  g_test_message ("%s: %u ops, %u boxes, %u merged launches, %u groups drawn", report->network_name,
                  report->ops->len, boxes, n_merged_launches (report), groups);
  if (g_getenv ("ZW_TEST_GRAPH_PNG") != NULL)
    cairo_surface_write_to_png (s, g_getenv ("ZW_TEST_GRAPH_PNG"));
  g_assert_cmpuint (boxes, ==, report->ops->len);
  g_assert_cmpuint (groups, ==, n_merged_launches (report));
  cairo_surface_destroy (s);
}

static void
test_demo_boxes_and_groups (void)
{
  g_autoptr (ZwDeployReport) merged = zw_test_deploy ("yolov5s", TRUE);
  g_autoptr (ZwDeployReport) unmerged = zw_test_deploy ("yolov5s", FALSE);

  g_assert_cmpuint (n_merged_launches (merged), >, 0);
  check_boxes_and_groups (merged);
  g_assert_cmpuint (n_merged_launches (unmerged), ==, 0);
  check_boxes_and_groups (unmerged);
}

/* The real networks: the ZG330 compile (DetPostZG a custom op) and the Buyi compile. */
static void
test_real_networks (void)
{
  g_autoptr (ZwDeployReport) zg = zw_test_deploy ("real", TRUE);
  g_autoptr (ZwDeployReport) by = NULL;
  g_autoptr (XirNetwork) net = NULL;

  if (zg == NULL)
    return;
  check_boxes_and_groups (zg);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (ZwGraphLayout) layout = zw_graph_layout_new (zg, NULL, &error);
    guint custom = 0;
    for (guint i = 0; i < layout->nodes->len; i++)
      custom += g_array_index (layout->nodes, ZwGraphNode, i).kind == ZW_GRAPH_NODE_CUSTOM;
    g_assert_cmpuint (custom, ==, 1);   /* DetPostZG */
  }
  /* the Buyi compile, through BuyiBackend on mock://buyi */
  {
    g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
    g_autoptr (GError) error = NULL;
    g_autoptr (XirNetworkView) view = NULL;
    g_autoptr (XrtDevice) dev = NULL;
    g_autoptr (XrtSession) sess = NULL;
    if (path == NULL)
      return;
    net = xir_network_new_from_json_file (path, &error);
    g_assert_no_error (error);
    xir_network_fake_params (net, 330);
    view = xir_network_view (net, 0, G_MAXINT, &error);
    dev = xrt_device_open ("mock://buyi", &error);
    g_assert_no_error (error);
    sess = xrt_session_new_for_device (view, dev, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (G_OBJECT_TYPE_NAME (xrt_session_get_board_backend (sess)), ==, "BuyiBackend");
    g_assert_true (xrt_session_apply (sess, &error));
    by = xrt_backend_get_report (xrt_session_get_board_backend (sess));
    zw_deploy_report_attach_network (by, net);
    check_boxes_and_groups (by);
  }
}

/* Do two rectangles (centre, size) share an interior point? */
static gboolean
rects_overlap (double ax, double ay, double aw, double ah, double bx, double by, double bw, double bh)
{
  return fabs (ax - bx) * 2 < aw + bw && fabs (ay - by) * 2 < ah + bh;
}

/* Labels that avoid nodes: every value with an edge laid out by dot has its label box
 * (from graphviz's own label placement), no box overlaps a node box or another label, and
 * the pixels the labels draw (labels on minus labels off) all lie inside those boxes. */
static void
check_labels_avoid_nodes (ZwDeployReport *report)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwGraphLayout) layout = zw_graph_layout_new (report, NULL, &error);
  g_autoptr (GHashTable) labelled = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint n_labels = 0, n_outside = 0, n_changed = 0;
  const double scale = 1.0;
  ZwViewStyle style;
  ZwGraphViewport vp;
  cairo_surface_t *with, *without;
  cairo_t *cr;
  int w, h;

  g_assert_no_error (error);
  for (guint i = 0; i < layout->edges->len; i++)
    {
      const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
      if (e->label_w <= 0)
        continue;
      n_labels++;
      g_assert_false (g_hash_table_contains (labelled, &e->v_id));   /* one label per value */
      g_hash_table_add (labelled, (gpointer) &e->v_id);
      g_assert_cmpfloat (e->label_h, >=, 11);
      for (guint k = 0; k < layout->nodes->len; k++)
        {
          const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, k);
          if (rects_overlap (e->label_x, e->label_y, e->label_w, e->label_h, n->x, n->y, n->w, n->h))
            g_error ("%s: the label of v%li (%.0f,%.0f %.0fx%.0f) overlaps op %li's box", report->network_name,
                     (long) e->v_id, e->label_x, e->label_y, e->label_w, e->label_h, (long) n->op_id);
        }
      /* nor a merged launch's title (the top of its box) */
      for (guint k = 0; k < layout->groups->len; k++)
        {
          const ZwGraphGroup *g = &g_array_index (layout->groups, ZwGraphGroup, k);
          g_assert_true (g->laid_out);
          if (rects_overlap (e->label_x, e->label_y, e->label_w, e->label_h, (g->x0 + g->x1) / 2, g->y0 + 11,
                             g->x1 - g->x0, 22))
            g_error ("%s: the label of v%li overlaps the title of launch %d", report->network_name, (long) e->v_id,
                     g->launch);
        }
      for (guint k = 0; k < i; k++)
        {
          const ZwGraphEdge *f = &g_array_index (layout->edges, ZwGraphEdge, k);
          g_assert_false (f->label_w > 0
                          && rects_overlap (e->label_x, e->label_y, e->label_w, e->label_h, f->label_x, f->label_y,
                                            f->label_w, f->label_h));
        }
    }
  /* every value drawn as an edge is labelled */
  for (guint i = 0; i < layout->edges->len; i++)
    g_assert_true (g_hash_table_contains (labelled, &g_array_index (layout->edges, ZwGraphEdge, i).v_id));
  g_test_message ("%s: %u edges, %u labels, none over a node", report->network_name, layout->edges->len, n_labels);
  g_assert_cmpuint (n_labels, >, report->ops->len / 2);

  /* pixels: what the labels draw stays inside their boxes */
  zw_view_style_init_default (&style);
  w = (int) ceil (layout->width * scale) + 4;
  h = (int) ceil (layout->height * scale) + 4;
  with = render_layout (layout, scale, NULL, &style);
  without = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cr = cairo_create (without);
  zw_graph_viewport_init (&vp);
  vp.scale = scale;
  vp.minimap = vp.legend = vp.labels = FALSE;
  vp.x = vp.y = -2 / scale;
  zw_graph_view_draw_layout (cr, w, h, layout, &vp, NULL, &style);
  cairo_destroy (cr);
  cairo_surface_flush (without);
  if (g_getenv ("ZW_TEST_GRAPH_PNG") != NULL)
    cairo_surface_write_to_png (with, g_getenv ("ZW_TEST_GRAPH_PNG"));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        gboolean inside = FALSE;
        double lx = vp.x + (x + 0.5) / scale, ly = vp.y + (y + 0.5) / scale;
        if (pixel (with, x, y) == pixel (without, x, y))
          continue;
        n_changed++;
        for (guint i = 0; i < layout->edges->len && !inside; i++)
          {
            const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
            inside = e->label_w > 0 && fabs (lx - e->label_x) <= e->label_w / 2 + 1
                     && fabs (ly - e->label_y) <= e->label_h / 2 + 1;
          }
        n_outside += !inside;
      }
  g_test_message ("%s: %u pixels drawn by labels, %u outside their boxes", report->network_name, n_changed, n_outside);
  g_assert_cmpuint (n_changed, >, 20 * n_labels);   /* the labels are drawn */
  g_assert_cmpuint (n_outside, ==, 0);
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

static void
test_labels_avoid_nodes (void)
{
  const char *names[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (ZwDeployReport) report = zw_test_deploy (names[i], TRUE);
      check_labels_avoid_nodes (report);
    }
  {
    g_autoptr (ZwDeployReport) real = zw_test_deploy ("real", TRUE);
    if (real == NULL)
      {
        g_test_message ("../shared/real/yolov5s_plin_352x640_ZG.json is absent: the real network is not checked");
        return;
      }
    check_labels_avoid_nodes (real);
  }
}

/* A report from disk without the graph (an older writer): edges approximated, same nodes. */
static void
test_report_from_disk (void)
{
  g_autoptr (ZwDeployReport) live = zw_test_deploy ("tiny", TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("test-graph-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "report.json", NULL);
  g_autoptr (ZwDeployReport) loaded = NULL;
  g_autoptr (ZwGraphLayout) a = NULL, b = NULL;

  g_assert_true (zw_deploy_report_save (live, path, &error));
  loaded = zw_deploy_report_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (zw_deploy_report_has_graph (loaded));
  a = zw_graph_layout_new (live, NULL, &error);
  b = zw_graph_layout_new (loaded, NULL, &error);
  g_assert_cmpuint (a->nodes->len, ==, b->nodes->len);
  g_assert_cmpuint (a->edges->len, ==, b->edges->len);
  g_assert_cmpfloat (a->width, ==, b->width);
  g_assert_cmpfloat (a->height, ==, b->height);
  /* the ops' attributes and the values' quantisation come back as they were written */
  {
    guint n_attrs = 0, n_quant = 0;
    for (guint i = 0; i < live->ops->len; i++)
      {
        const ZwOpInfo *x = &g_array_index (live->ops, ZwOpInfo, i), *y = &g_array_index (loaded->ops, ZwOpInfo, i);
        g_assert_nonnull (x->attrs);
        g_assert_nonnull (y->attrs);
        g_assert_cmpuint (x->attrs->len, ==, y->attrs->len);
        for (guint k = 0; k < x->attrs->len; k++)
          {
            const ZwOpAttr *p = g_ptr_array_index (x->attrs, k), *q = g_ptr_array_index (y->attrs, k);
            g_assert_cmpstr (p->name, ==, q->name);
            g_assert_cmpstr (p->value, ==, q->value);
            n_attrs++;
          }
      }
    for (guint i = 0; i < live->values->len; i++)
      {
        const ZwValueInfo *x = &g_array_index (live->values, ZwValueInfo, i);
        const ZwValueInfo *y = &g_array_index (loaded->values, ZwValueInfo, i);
        g_assert_true ((x->scales == NULL) == (y->scales == NULL));
        if (x->scales == NULL)
          continue;
        n_quant++;
        g_assert_cmpuint (x->quant_bits, ==, y->quant_bits);
        g_assert_cmpint (x->quant_axis, ==, y->quant_axis);
        g_assert_cmpuint (x->scales->len, ==, y->scales->len);
        g_assert_cmpmem (x->scales->data, x->scales->len * sizeof (double), y->scales->data,
                         y->scales->len * sizeof (double));
        g_assert_cmpuint (x->zero_points->len, ==, y->zero_points->len);
      }
    g_test_message ("%u op attributes, %u quantised values", n_attrs, n_quant);
    g_assert_cmpuint (n_quant, >, 0);
  }
  /* without the graph */
  for (guint i = 0; i < loaded->ops->len; i++)
    {
      ZwOpInfo *op = &g_array_index (loaded->ops, ZwOpInfo, i);
      g_clear_pointer (&op->inputs, g_array_unref);
      g_clear_pointer (&op->outputs, g_array_unref);
    }
  g_clear_pointer (&b, zw_graph_layout_unref);
  b = zw_graph_layout_new (loaded, NULL, &error);
  g_assert_true (b->edges_guessed);
  g_assert_cmpuint (b->nodes->len, ==, live->ops->len);
  g_assert_cmpuint (b->edges->len, >, 0);
}

/* A report file opened with no network beside it: it carries the graph (no edge guessed),
 * the same edges as the live deployment's, and the Graph view draws it. */
static void
check_report_alone (const char *path, const ZwDeployReport *live)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) loaded = zw_deploy_report_load (path, &error);
  g_autoptr (ZwGraphLayout) a = NULL, b = NULL;
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  cairo_surface_t *s;
  ZwViewStyle style;
  guint32 bg;
  guint n = 0;

  g_assert_no_error (error);
  g_assert_false (g_file_test (loaded->network_path, G_FILE_TEST_EXISTS));
  g_assert_true (zw_deploy_report_has_graph (loaded));
  a = zw_graph_layout_new ((ZwDeployReport *) live, NULL, &error);
  g_assert_no_error (error);
  b = zw_graph_layout_new (loaded, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (b->edges_guessed);
  g_assert_cmpuint (b->nodes->len, ==, a->nodes->len);
  g_assert_cmpuint (b->edges->len, ==, a->edges->len);
  g_assert_cmpuint (b->edges->len, >, 0);
  /* the Graph view draws it as it draws a live run: boxes and edges on the background */
  zw_view_style_init_default (&style);
  zw_selection_set_report (sel, loaded);
  s = zw_export_draw_image (zw_graph_view_draw, 900, 600, loaded, sel, &style);
  bg = pixel (s, 0, 0);
  for (int y = 0; y < 600; y++)
    for (int x = 0; x < 900; x++)
      n += pixel (s, x, y) != bg;
  g_test_message ("%s: %u nodes, %u edges, %u pixels drawn", path, b->nodes->len, b->edges->len, n);
  g_assert_cmpuint (n, >, 2000);
  cairo_surface_destroy (s);
}

/* `xrt-run plan --json` and ZG330Backend.log() write reports that open in the Graph view
 * without their network: the deployment (and log) attach the graph. */
static void
test_cli_and_log_reports_alone (void)
{
  g_autoptr (ZwDeployReport) live = zw_test_deploy ("tiny", TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("test-graph-XXXXXX");
  g_autofree char *src = g_strdup_printf ("%s/networks/tiny_ZG", g_getenv ("ZW_DATA_DIR"));
  g_autofree char *json = g_build_filename (dir, "tiny_ZG.json", NULL);
  g_autofree char *raw = g_build_filename (dir, "tiny_ZG.raw", NULL);
  g_autofree char *plan = g_build_filename (dir, "plan.json", NULL);
  g_autofree char *log = NULL;
  g_auto (ZwRun) run = { 0 };

  /* the network in a folder of its own, removed once the reports are written */
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *from = g_strconcat (src, i == 0 ? ".json" : ".raw", NULL);
      g_autofree char *text = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (from, &text, &len, &error));
      g_assert_true (g_file_set_contents (i == 0 ? json : raw, text, (gssize) len, &error));
    }
  zw_test_xrt_run (&run, "plan", json, "--json", plan, NULL);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, &error);
    g_autoptr (XirNetworkView) view = NULL;
    g_autoptr (XrtDevice) dev = NULL;
    g_autoptr (XrtSession) sess = NULL;
    g_assert_no_error (error);
    g_assert_true (xir_network_load_params_from_file (net, raw, &error));
    view = xir_network_view (net, 0, G_MAXINT, &error);
    dev = xrt_device_open ("mock://zg330", &error);
    sess = xrt_session_new_for_device (view, dev, &error);
    g_assert_no_error (error);
    g_assert_true (xrt_session_apply (sess, &error));
    g_assert_true (zg330_backend_log (ZG330_BACKEND (xrt_session_get_board_backend (sess)), dir, &log, &error));
    g_assert_no_error (error);
  }
  g_unlink (json);
  g_unlink (raw);
  check_report_alone (plan, live);
  check_report_alone (log, live);
}

/* Selecting an op (as the graph does) changes the pixels of the memory timeline, the
 * merges and the graph; selecting a launch in the merges changes the graph's. */
static void
test_selection_changes_every_view (void)
{
  g_autoptr (ZwDeployReport) report = zw_test_deploy ("yolov5s", FALSE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  ZwViewDrawFunc draws[] = { zw_memory_view_draw, zw_merge_view_draw, zw_graph_view_draw };
  const char *names[] = { "memory", "merges", "graph" };
  cairo_surface_t *before[G_N_ELEMENTS (draws)];
  const ZwOpInfo *hardop = NULL;
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  zw_selection_set_report (sel, report);
  for (guint i = 0; i < report->ops->len && hardop == NULL; i++)
    if (g_array_index (report->ops, ZwOpInfo, i).launch >= 2)
      hardop = &g_array_index (report->ops, ZwOpInfo, i);
  g_assert_nonnull (hardop);
  for (guint v = 0; v < G_N_ELEMENTS (draws); v++)
    before[v] = zw_export_draw_image (draws[v], 900, 600, report, sel, &style);
  zw_selection_set_selected_op (sel, hardop->op_id);
  for (guint v = 0; v < G_N_ELEMENTS (draws); v++)
    {
      cairo_surface_t *after = zw_export_draw_image (draws[v], 900, 600, report, sel, &style);
      g_test_message ("%s view", names[v]);
      g_assert_true (zw_test_surfaces_differ (before[v], after));
      cairo_surface_destroy (after);
      cairo_surface_destroy (before[v]);
    }
  /* the graph centres a selected op at 100 %: its box has the accent outline */
  {
    cairo_surface_t *s = zw_export_draw_image (zw_graph_view_draw, 900, 600, report, sel, &style);
    guint32 accent = rgb_of (&style.accent);
    guint n = 0;
    for (int y = 250; y < 350; y++)
      for (int x = 300; x < 600; x++)
        n += near (pixel (s, x, y), accent);
    g_assert_cmpuint (n, >, 100);
    cairo_surface_destroy (s);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph/render/demo-has-a-box-per-op-and-a-group-per-merged-launch", test_demo_boxes_and_groups);
  g_test_add_func ("/graph/render/real-zg330-and-buyi-networks", test_real_networks);
  g_test_add_func ("/graph/render/report-from-disk-draws-the-same-graph", test_report_from_disk);
  g_test_add_func ("/graph/render/edge-labels-avoid-nodes", test_labels_avoid_nodes);
  g_test_add_func ("/graph/render/cli-plan-and-log-reports-open-without-their-network",
                       test_cli_and_log_reports_alone);
  g_test_add_func ("/graph/render/selecting-an-op-changes-every-view", test_selection_changes_every_view);
  return g_test_run ();
}
