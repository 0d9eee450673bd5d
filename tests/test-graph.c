/* test-graph.c — the graph view and the one selection of every view: offscreen renders with
 * pixel assertions (suite render) and the widget's interactions (suite display). */
#include "zw-test-util.h"
#include "backends/zg330/zg330-backend.h"
#include "report/zw-deploy-graph.h"
#include "xrt/xrt-session.h"
#include <glib/gstdio.h>
#include <math.h>
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"
#include "zw-graph-properties.h"
#include "zw-memory-view.h"
#include "zw-merge-view.h"
#include "zw-segment-view.h"
#include "zw-selection.h"
#include "zw-export.h"

#include <string.h>

static gboolean have_display;

/* The ZG330 deployment of a demo network (or "real"), with its graph attached as the
 * workbench does. */
static ZwDeployReport *
deploy (const char *name, gboolean merge)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) sess = NULL;
  ZwDeployReport *report;

  if (net == NULL)
    return NULL;
  view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  dev = xrt_device_open (g_str_equal (name, "real-buyi") ? "mock://buyi" : "mock://zg330", &error);
  g_assert_no_error (error);
  sess = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  if (!merge)
    g_assert_true (zg330_backend_disable_merge_hardop (ZG330_BACKEND (xrt_session_get_board_backend (sess)), &error));
  g_assert_true (xrt_session_apply (sess, &error));
  g_assert_no_error (error);
  report = xrt_backend_get_report (xrt_session_get_board_backend (sess));
  zw_deploy_report_attach_network (report, net);
  return report;
}

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
  g_autoptr (ZwDeployReport) merged = deploy ("yolov5s", TRUE);
  g_autoptr (ZwDeployReport) unmerged = deploy ("yolov5s", FALSE);

  g_assert_cmpuint (n_merged_launches (merged), >, 0);
  check_boxes_and_groups (merged);
  g_assert_cmpuint (n_merged_launches (unmerged), ==, 0);
  check_boxes_and_groups (unmerged);
}

/* The real networks: the ZG330 compile (DetPostZG a custom op) and the Buyi compile. */
static void
test_real_networks (void)
{
  g_autoptr (ZwDeployReport) zg = deploy ("real", TRUE);
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
      g_autoptr (ZwDeployReport) report = deploy (names[i], TRUE);
      check_labels_avoid_nodes (report);
    }
  {
    g_autoptr (ZwDeployReport) real = deploy ("real", TRUE);
    if (real == NULL)
      {
        g_test_message ("../shared/real/yolov5s_plin_352x640_ZG.json is absent: the real network is not checked");
        return;
      }
    check_labels_avoid_nodes (real);
  }
}

/* The legend has a band of its own: the fitted graph ends above it. */
static void
test_legend_keeps_the_bottom (void)
{
  g_autoptr (ZwDeployReport) report = deploy ("yolov5s", TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwGraphLayout) layout = zw_graph_layout_new (report, NULL, &error);
  ZwGraphViewport vp;
  const int w = 300, h = 600;

  zw_graph_viewport_init (&vp);
  zw_graph_viewport_fit (&vp, layout, w, h);
  /* the layout's bottom edge, in pixels: above the legend's band */
  g_assert_cmpfloat ((layout->height - vp.y) * vp.scale, <=, h - ZW_GRAPH_LEGEND_HEIGHT + 0.5);
  g_assert_cmpfloat ((0 - vp.y) * vp.scale, >=, -0.5);
  /* without the legend the whole height is the graph's */
  vp.legend = FALSE;
  zw_graph_viewport_fit (&vp, layout, w, h);
  g_assert_cmpfloat ((layout->height - vp.y) * vp.scale, >, h - ZW_GRAPH_LEGEND_HEIGHT + 0.5);
}

/* A report from disk without the graph (an older writer): edges approximated, same nodes. */
static void
test_report_from_disk (void)
{
  g_autoptr (ZwDeployReport) live = deploy ("tiny", TRUE);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-graph-XXXXXX", &error);
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
  g_unlink (path);
  g_rmdir (dir);
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
  g_autoptr (ZwDeployReport) live = deploy ("tiny", TRUE);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-graph-XXXXXX", &error);
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
  {
    /* the text log beside the JSON one */
    g_autofree char *text = g_strdup_printf ("%.*s.log", (int) (strlen (log) - 5), log);
    g_unlink (text);
  }
  g_unlink (log);
  g_unlink (plan);
  g_rmdir (dir);
}

static gboolean
surfaces_differ (cairo_surface_t *a, cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += pixel (a, x, y) != pixel (b, x, y);
  return n > 20;
}

/* Selecting an op (as the graph does) changes the pixels of the memory timeline, the
 * merges and the graph; selecting a launch in the merges changes the graph's. */
static void
test_selection_changes_every_view (void)
{
  g_autoptr (ZwDeployReport) report = deploy ("yolov5s", FALSE);
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
      g_assert_true (surfaces_differ (before[v], after));
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

/* A layout made by hand (no graphviz): nodes at the given centres, 200 x 40 points each,
 * and edges between them; only what the pure functions read. */
static ZwGraphLayout *
hand_layout (double width, double height, const double (*centres)[2], guint n_nodes, const guint (*edges)[2],
             guint n_edges)
{
  ZwGraphLayout *l = g_new0 (ZwGraphLayout, 1);

  l->ref_count = 1;
  l->report = zw_deploy_report_new ();
  l->nodes = g_array_new (FALSE, TRUE, sizeof (ZwGraphNode));
  l->edges = g_array_new (FALSE, TRUE, sizeof (ZwGraphEdge));
  l->groups = g_array_new (FALSE, TRUE, sizeof (ZwGraphGroup));
  l->points = g_array_new (FALSE, FALSE, sizeof (double));
  l->node_of_op = g_hash_table_new (g_int64_hash, g_int64_equal);
  l->width = width;
  l->height = height;
  for (guint i = 0; i < n_nodes; i++)
    {
      ZwGraphNode n = { .op_id = i, .op_index = i, .x = centres[i][0], .y = centres[i][1], .w = 200, .h = 40, .group = -1 };
      g_array_append_val (l->nodes, n);
    }
  for (guint i = 0; i < n_edges; i++)
    {
      ZwGraphEdge e = { .v_id = i, .from = edges[i][0], .to = edges[i][1] };
      g_array_append_val (l->edges, e);
    }
  return l;
}

/* The viewport is plain geometry: fitting, centring, zooming about the pointer and the
 * minimap's place, in numbers. */
static void
test_viewport_geometry (void)
{
  g_autoptr (ZwGraphLayout) l = hand_layout (800, 3200, NULL, 0, NULL, 0);
  ZwGraphViewport vp;
  double lx, ly, mx, my, s;
  int mw, mh;

  zw_graph_viewport_init (&vp);
  g_assert_cmpfloat (vp.scale, ==, 1);
  g_assert_true (vp.minimap && vp.legend);
  g_assert_cmpint (vp.hover_node, ==, -1);

  /* 3200 points into 400 px: 1/8, centred (the legend's band is the test below's) */
  vp.legend = FALSE;
  zw_graph_viewport_fit (&vp, l, 500, 400);
  g_assert_cmpfloat_with_epsilon (vp.scale, 0.125, 1e-12);
  g_assert_cmpfloat_with_epsilon (vp.x, 400 - 250 / 0.125, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.y, 0, 1e-9);
  zw_graph_viewport_to_layout (&vp, 250, 200, &lx, &ly);
  g_assert_cmpfloat_with_epsilon (lx, 400, 1e-9);
  g_assert_cmpfloat_with_epsilon (ly, 1600, 1e-9);
  /* the whole layout is in sight: no minimap */
  g_assert_false (zw_graph_viewport_minimap (&vp, l, 500, 400, &mx, &my, &mw, &mh, &s));

  /* zooming keeps the point under the pointer where it is */
  zw_graph_viewport_zoom_at (&vp, 2, 100, 50);
  g_assert_cmpfloat_with_epsilon (vp.scale, 0.25, 1e-12);
  zw_graph_viewport_to_layout (&vp, 100, 50, &lx, &ly);
  g_assert_cmpfloat_with_epsilon (lx, 400 - 250 / 0.125 + 100 / 0.125, 1e-9);
  g_assert_cmpfloat_with_epsilon (ly, 50 / 0.125, 1e-9);
  /* and stays within [1e-4, 4] */
  zw_graph_viewport_zoom_at (&vp, 1e9, 0, 0);
  g_assert_cmpfloat (vp.scale, ==, 4);
  zw_graph_viewport_zoom_at (&vp, 1e-12, 0, 0);
  g_assert_cmpfloat (vp.scale, ==, 1e-4);

  /* centring at 100 %: the point in the middle of the view */
  vp.scale = 1;
  zw_graph_viewport_center (&vp, 10, 20, 500, 800);
  g_assert_cmpfloat_with_epsilon (vp.x, 10 - 250, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp.y, 20 - 400, 1e-9);

  /* the minimap: 200 px high at most (1/16 here), bottom right, 10 px from the border */
  g_assert_true (zw_graph_viewport_minimap (&vp, l, 500, 800, &mx, &my, &mw, &mh, &s));
  g_assert_cmpfloat_with_epsilon (s, 0.0625, 1e-12);
  g_assert_cmpint (mw, ==, 50);
  g_assert_cmpint (mh, ==, 200);
  g_assert_cmpfloat_with_epsilon (mx, 500 - 50 - 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (my, 800 - 200 - 10, 1e-9);
  /* above the legend's band when it is shown */
  vp.legend = TRUE;
  g_assert_true (zw_graph_viewport_minimap (&vp, l, 500, 800, &mx, &my, &mw, &mh, &s));
  g_assert_cmpfloat_with_epsilon (my, 800 - 200 - 10 - ZW_GRAPH_LEGEND_HEIGHT, 1e-9);
  vp.legend = FALSE;
  /* a view too short for it (the minimap would cover its upper half), or turned off */
  g_assert_false (zw_graph_viewport_minimap (&vp, l, 500, 400, &mx, &my, &mw, &mh, &s));
  vp.minimap = FALSE;
  g_assert_false (zw_graph_viewport_minimap (&vp, l, 500, 800, &mx, &my, &mw, &mh, &s));
}

/* The arrow keys: Down to the leftmost reader, Up to the leftmost writer, Left/Right to the
 * nearest node on the same rank. */
static void
test_walk (void)
{
  /*        0
   *      /   \
   *     1     2     3
   *      \    |    /
   *         4            */
  static const double centres[][2] = { { 300, 20 }, { 100, 120 }, { 320, 125 }, { 560, 118 }, { 320, 220 } };
  static const guint edges[][2] = { { 0, 2 }, { 0, 1 }, { 1, 4 }, { 2, 4 }, { 3, 4 } };
  g_autoptr (ZwGraphLayout) l = hand_layout (700, 260, centres, G_N_ELEMENTS (centres), edges, G_N_ELEMENTS (edges));

  g_assert_cmpint (zw_graph_layout_walk (l, 0, ZW_GRAPH_WALK_DOWN), ==, 1);
  g_assert_cmpint (zw_graph_layout_walk (l, 2, ZW_GRAPH_WALK_DOWN), ==, 4);
  g_assert_cmpint (zw_graph_layout_walk (l, 4, ZW_GRAPH_WALK_DOWN), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 4, ZW_GRAPH_WALK_UP), ==, 1);
  g_assert_cmpint (zw_graph_layout_walk (l, 3, ZW_GRAPH_WALK_UP), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 2, ZW_GRAPH_WALK_UP), ==, 0);
  g_assert_cmpint (zw_graph_layout_walk (l, 1, ZW_GRAPH_WALK_RIGHT), ==, 2);
  g_assert_cmpint (zw_graph_layout_walk (l, 2, ZW_GRAPH_WALK_RIGHT), ==, 3);
  g_assert_cmpint (zw_graph_layout_walk (l, 3, ZW_GRAPH_WALK_RIGHT), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 3, ZW_GRAPH_WALK_LEFT), ==, 2);
  g_assert_cmpint (zw_graph_layout_walk (l, 1, ZW_GRAPH_WALK_LEFT), ==, -1);
  /* alone on its rank */
  g_assert_cmpint (zw_graph_layout_walk (l, 0, ZW_GRAPH_WALK_LEFT), ==, -1);
  g_assert_cmpint (zw_graph_layout_walk (l, 9, ZW_GRAPH_WALK_DOWN), ==, -1);
}

/* The search matches an op's id (with or without #) exactly, its name, class or kind in
 * any case; the next match wraps around. */
static void
test_search (void)
{
  static const struct {
    gint64 id;
    const char *name, *op_class;
  } ops[] = { { 5, "backbone.conv1", "Conv2d" }, { 7, "head", "Concat" }, { 12, "neck", "Conv2d" }, { 57, "x", "Add" } };
  g_autoptr (ZwDeployReport) report = zw_deploy_report_new ();

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      ZwOpInfo op = { .op_id = ops[i].id, .index = i, .launch = -1 };
      op.name = g_strdup (ops[i].name);
      op.op_class = g_strdup (ops[i].op_class);
      op.kind = g_strdup ("HardOp");
      g_array_append_val (report->ops, op);
    }
  g_assert_cmpuint (zw_graph_search_count (report, "CONV"), ==, 2);
  g_assert_cmpuint (zw_graph_search_count (report, "7"), ==, 1);
  g_assert_cmpuint (zw_graph_search_count (report, "#57"), ==, 1);
  g_assert_cmpuint (zw_graph_search_count (report, "hardop"), ==, 4);
  g_assert_cmpuint (zw_graph_search_count (report, ""), ==, 0);
  g_assert_cmpuint (zw_graph_search_count (report, NULL), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 0), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 1), ==, 2);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 3), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "conv", 4), ==, 0);
  g_assert_cmpint (zw_graph_search_next (report, "nothing", 0), ==, -1);
  g_assert_cmpint (zw_graph_search_next (report, "", 0), ==, -1);
}

/* Back and Forward walk the selections without adding to them. */
static void
test_selection_history (void)
{
  g_autoptr (ZwDeployReport) report = deploy ("tiny", TRUE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  gint64 a = g_array_index (report->ops, ZwOpInfo, 1).op_id, b = g_array_index (report->ops, ZwOpInfo, 2).op_id;
  gint64 v = g_array_index (report->values, ZwValueInfo, 0).v_id;

  zw_selection_set_report (sel, report);
  g_assert_false (zw_selection_can_go_back (sel));
  zw_selection_set_selected_op (sel, a);
  zw_selection_set_selected_op (sel, b);
  zw_selection_select (sel, a, v);
  g_assert_true (zw_selection_can_go_back (sel));
  g_assert_false (zw_selection_can_go_forward (sel));
  g_assert_true (zw_selection_go_back (sel));
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, b);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, -1);
  g_assert_true (zw_selection_go_back (sel));
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, a);
  g_assert_false (zw_selection_go_back (sel));
  g_assert_true (zw_selection_go_forward (sel));
  g_assert_true (zw_selection_go_forward (sel));
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, a);
  g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v);
  g_assert_false (zw_selection_can_go_forward (sel));
  /* a new selection after going back drops what was ahead */
  zw_selection_go_back (sel);
  zw_selection_set_selected_op (sel, g_array_index (report->ops, ZwOpInfo, 0).op_id);
  g_assert_false (zw_selection_can_go_forward (sel));
  /* another report: no history */
  zw_selection_set_report (sel, NULL);
  g_assert_false (zw_selection_can_go_back (sel));
}

/* ---- display ---- */

static gboolean
laid_out (gpointer view)
{
  return zw_graph_view_get_layout (view) != NULL && !zw_graph_view_get_busy (view)
         && gtk_widget_get_width (zw_graph_view_get_canvas (view)) > 0;
}

/* A widget shown and laid out (a pane made visible gets its size at the next frame, which
 * a loaded machine paints late). */
static gboolean
shown_with_width (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

static GtkGesture *
find_click (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_CLICK (c))
        return GTK_GESTURE (c);
    }
  return NULL;
}

static void
iterate (void)
{
  for (int i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_display_graph (void)
{
  g_autoptr (ZwDeployReport) report = deploy ("yolov5s", TRUE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  GtkWidget *window, *box, *graph, *merges, *canvas;
  ZwGraphLayout *layout;
  const ZwGraphViewport *vp;
  gint node;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  graph = zw_graph_view_new (sel);
  merges = zw_merge_view_new (sel);
  gtk_widget_set_hexpand (graph, TRUE);
  gtk_box_append (GTK_BOX (box), graph);
  gtk_box_append (GTK_BOX (box), merges);
  gtk_window_set_child (GTK_WINDOW (window), box);
  zw_selection_set_report (sel, report);
  gtk_window_present (GTK_WINDOW (window));

  /* laid out in the background, then shown */
  g_assert_true (zw_test_wait_until (laid_out, graph));
  layout = zw_graph_view_get_layout (ZW_GRAPH_VIEW (graph));
  g_assert_cmpuint (layout->nodes->len, ==, report->ops->len);
  canvas = zw_graph_view_get_canvas (ZW_GRAPH_VIEW (graph));
  vp = zw_graph_view_get_viewport (ZW_GRAPH_VIEW (graph));

  /* a click on a node selects its op; the merges view selects its launch */
  node = -1;
  for (guint i = 0; i < layout->nodes->len && node < 0; i++)
    {
      const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, i);
      double sx = (n->x - vp->x) * vp->scale, sy = (n->y - vp->y) * vp->scale;
      if (n->kind == ZW_GRAPH_NODE_HARDOP && sx > 20 && sy > 20 && sx < gtk_widget_get_width (canvas) - 200
          && sy < gtk_widget_get_height (canvas) - 200)
        {
          node = (gint) i;
          g_signal_emit_by_name (find_click (canvas), "pressed", 1, sx, sy);
        }
    }
  g_assert_cmpint (node, >=, 0);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, g_array_index (layout->nodes, ZwGraphNode, node).op_id);
  iterate ();
  /* the merges tree opened the launch and selected the member's row */
  g_assert_cmpint (zw_merge_view_get_selected_row_op (ZW_MERGE_VIEW (merges)), ==,
                   g_array_index (layout->nodes, ZwGraphNode, node).op_id);

  /* Down follows an output edge to a reader, Up goes back along an input */
  {
    gint64 from = zw_selection_get_selected_op (sel);
    gint64 to;
    gboolean is_reader = FALSE;
    g_assert_true (gtk_widget_activate_action (graph, "graph.down", NULL));
    to = zw_selection_get_selected_op (sel);
    g_assert_cmpint (to, !=, from);
    for (guint i = 0; i < layout->edges->len; i++)
      {
        const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
        is_reader |= g_array_index (layout->nodes, ZwGraphNode, e->from).op_id == from
                     && g_array_index (layout->nodes, ZwGraphNode, e->to).op_id == to;
      }
    g_assert_true (is_reader);
    g_assert_true (gtk_widget_activate_action (graph, "graph.up", NULL));
    g_assert_cmpint (zw_selection_get_selected_op (sel), !=, to);
    /* Back (what Alt+Left does) returns to the reader */
    g_assert_true (zw_selection_go_back (sel));
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, to);
  }

  /* zoom and fit */
  {
    double s0 = vp->scale;
    g_assert_true (gtk_widget_activate_action (graph, "graph.zoom-in", NULL));
    g_assert_cmpfloat (vp->scale, >, s0);
    g_assert_true (gtk_widget_activate_action (graph, "graph.zoom-fit", NULL));
    g_assert_cmpfloat (vp->scale * layout->height, <=, gtk_widget_get_height (canvas) + 1);
    g_assert_true (gtk_widget_activate_action (graph, "graph.zoom-100", NULL));
    g_assert_cmpfloat (vp->scale, ==, 1.0);
  }

  /* another view selects an op far away: the graph brings it into sight */
  {
    gint64 last = g_array_index (report->ops, ZwOpInfo, report->ops->len - 2).op_id;
    const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, zw_graph_layout_node_of_op (layout, last));
    double sy;
    zw_selection_set_selected_op (sel, last);
    sy = (n->y - vp->y) * vp->scale;
    g_assert_cmpfloat (sy, >=, 0);
    g_assert_cmpfloat (sy, <=, gtk_widget_get_height (canvas));
  }

  /* search by class, name or op id; Enter (next match) selects the matches in turn */
  {
    const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, 3);
    g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, op->op_id);
    guint n_conv = zw_graph_view_search (ZW_GRAPH_VIEW (graph), "conv2d");
    g_assert_cmpuint (n_conv, >, 10);
    g_assert_true (zw_graph_view_next_match (ZW_GRAPH_VIEW (graph)));
    g_assert_cmpstr (zw_deploy_report_find_op (report, zw_selection_get_selected_op (sel))->op_class, ==, "Conv2d");
    g_assert_cmpuint (zw_graph_view_search (ZW_GRAPH_VIEW (graph), id), >=, 1);
    g_assert_true (zw_graph_view_next_match (ZW_GRAPH_VIEW (graph)));
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, op->op_id);
    g_assert_cmpuint (zw_graph_view_search (ZW_GRAPH_VIEW (graph), "no-such-op"), ==, 0);
    g_assert_false (zw_graph_view_next_match (ZW_GRAPH_VIEW (graph)));
    /* Ctrl+F opens the search entry */
    g_assert_true (gtk_widget_activate_action (graph, "graph.find", NULL));
  }

  /* a click on an edge selects its value */
  {
    const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, layout->edges->len / 2);
    const double *p = &g_array_index (layout->points, double, 2 * (e->first_point + e->n_points / 2));
    zw_graph_view_search (ZW_GRAPH_VIEW (graph), "");
    zw_selection_set_selected_op (sel, -1);
    gtk_widget_activate_action (graph, "graph.zoom-100", NULL);
    /* centre the edge's middle point */
    zw_selection_set_selected_value (sel, e->v_id);
    zw_selection_set_selected_value (sel, -1);
    if (zw_graph_layout_node_at (layout, p[0], p[1]) < 0
        && zw_graph_layout_edge_at (layout, p[0], p[1], 5) >= 0)
      {
        gint64 v = g_array_index (layout->edges, ZwGraphEdge, zw_graph_layout_edge_at (layout, p[0], p[1], 5)).v_id;
        g_signal_emit_by_name (find_click (canvas), "pressed", 1, (p[0] - vp->x) * vp->scale,
                               (p[1] - vp->y) * vp->scale);
        g_assert_cmpint (zw_selection_get_selected_value (sel), ==, v);
      }
  }

  /* the merges view selects a launch: the graph draws its group outlined (pixels change) */
  {
    cairo_surface_t *a = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 400);
    cairo_surface_t *b = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 400);
    cairo_t *cr;
    ZwViewStyle style;
    zw_view_style_init_default (&style);
    zw_selection_set_selected_op (sel, -1);
    cr = cairo_create (a);
    zw_graph_view_draw_layout (cr, 600, 400, layout, vp, sel, &style);
    cairo_destroy (cr);
    zw_selection_set_selected_op (sel, g_array_index (report->launches, ZwLaunch, 0).op_id);
    g_assert_cmpint (zw_merge_view_get_selected_row_op (ZW_MERGE_VIEW (merges)), ==,
                     g_array_index (report->launches, ZwLaunch, 0).op_id);
    cr = cairo_create (b);
    zw_graph_view_draw_layout (cr, 600, 400, layout, vp, sel, &style);
    cairo_destroy (cr);
    cairo_surface_flush (a);
    cairo_surface_flush (b);
    g_assert_true (surfaces_differ (a, b));
    cairo_surface_destroy (a);
    cairo_surface_destroy (b);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
}

static GtkEventController *
find_motion (GtkWidget *widget)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        return c;
    }
  return NULL;
}

static void
assert_contains (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” is not in the properties:\n%s", part, text);
}

static char *
shape_text (const ZwValueInfo *v)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < v->shape->len; i++)
    g_string_append_printf (s, i ? "×%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (v->shape, gint64, i));
  return g_string_free (s, FALSE);
}

/* The properties pane (Netron's sidebar): a click on an op shows its class, inputs, addresses
 * and estimate; a click on an edge its value's shape, place, chunk and address; hovering an
 * edge shows the value as a tooltip; a link in the pane selects; p hides the pane. */
static void
test_display_properties (void)
{
  g_autoptr (ZwDeployReport) report = deploy ("yolov5s", FALSE);
  g_autoptr (ZwSelection) sel = zw_selection_new ();
  GtkWidget *window, *graph, *canvas, *props;
  ZwGraphLayout *layout;
  const ZwGraphViewport *vp;
  const ZwHardOpInfo *hard = NULL;
  const ZwGraphNode *n = NULL;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  graph = zw_graph_view_new (sel);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  zw_selection_set_report (sel, report);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (zw_test_wait_until (laid_out, graph));
  iterate ();
  layout = zw_graph_view_get_layout (ZW_GRAPH_VIEW (graph));
  canvas = zw_graph_view_get_canvas (ZW_GRAPH_VIEW (graph));
  props = zw_graph_view_get_properties (ZW_GRAPH_VIEW (graph));
  vp = zw_graph_view_get_viewport (ZW_GRAPH_VIEW (graph));
  /* nothing selected: no pane */
  g_assert_false (gtk_widget_get_visible (props));

  /* a click on a hardop on screen */
  for (guint i = 0; i < layout->nodes->len && hard == NULL; i++)
    {
      const ZwGraphNode *m = &g_array_index (layout->nodes, ZwGraphNode, i);
      double sx = (m->x - vp->x) * vp->scale, sy = (m->y - vp->y) * vp->scale;
      if (m->kind != ZW_GRAPH_NODE_HARDOP || sx < 20 || sy < 20 || sx > gtk_widget_get_width (canvas) - 200
          || sy > gtk_widget_get_height (canvas) - 200)
        continue;
      for (guint k = 0; k < report->hardops->len; k++)
        if (g_array_index (report->hardops, ZwHardOpInfo, k).op_id == m->op_id
            && g_array_index (report->hardops, ZwHardOpInfo, k).weights_size > 0)
          hard = &g_array_index (report->hardops, ZwHardOpInfo, k);
      if (hard != NULL)
        {
          n = m;
          g_signal_emit_by_name (find_click (canvas), "pressed", 1, sx, sy);
        }
    }
  g_assert_nonnull (hard);
  g_assert_cmpint (zw_selection_get_selected_op (sel), ==, n->op_id);
  g_assert_true (zw_test_wait_until (shown_with_width, props));
  g_assert_cmpint (gtk_widget_get_width (props), >=, 250);
  {
    const ZwOpInfo *op = zw_deploy_report_find_op (report, n->op_id);
    g_autofree char *text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
    g_autofree char *id = g_strdup_printf ("Op id: %" G_GINT64_FORMAT, op->op_id);
    g_autofree char *cls = g_strdup_printf ("Class: %s", op->op_class);
    g_autofree char *weights = g_strdup_printf ("Weights (logic): 0x%08" G_GINT64_MODIFIER "x", hard->weights_logic_addr);
    g_autofree char *instr = g_strdup_printf ("Instructions (logic): 0x%08" G_GINT64_MODIFIER "x", hard->instr_logic_addr);
    g_autofree char *est = g_strdup_printf ("Estimate (cost model): %.4f ms", hard->est_ms);
    g_autofree char *input = g_strdup_printf ("v%" G_GINT64_FORMAT "  ", g_array_index (op->inputs, gint64, 0));
    g_test_message ("%s", text);
    assert_contains (text, id);
    assert_contains (text, cls);
    assert_contains (text, "Addresses");
    assert_contains (text, weights);
    assert_contains (text, instr);
    assert_contains (text, est);
    assert_contains (text, "Inputs");
    assert_contains (text, input);
    /* the network's own keys of the op */
    if (op->attrs != NULL && op->attrs->len > 0)
      {
        const ZwOpAttr *at = g_ptr_array_index (op->attrs, 0);
        g_autofree char *line = g_strdup_printf ("%s: %s", at->name, at->value);
        assert_contains (text, "Attributes");
        assert_contains (text, line);
      }
  }

  /* a click on an edge (the middle of its spline, off the nodes) shows its value */
  {
    const ZwGraphEdge *e = NULL;
    const double *p = NULL;
    const ZwValueInfo *v;
    double sx, sy;
    for (guint i = 0; i < layout->edges->len && e == NULL; i++)
      {
        const ZwGraphEdge *f = &g_array_index (layout->edges, ZwGraphEdge, i);
        const double *q = &g_array_index (layout->points, double, 2 * (f->first_point + f->n_points / 2));
        if (f->n_points >= 4 && zw_graph_layout_node_at (layout, q[0], q[1]) < 0
            && zw_graph_layout_edge_at (layout, q[0], q[1], 2) == (gint) i)
          {
            e = f;
            p = q;
          }
      }
    g_assert_nonnull (e);
    v = zw_deploy_report_find_value (report, e->v_id);
    /* bring it into sight the way another view would, then select nothing */
    zw_selection_set_selected_value (sel, e->v_id);
    zw_selection_select (sel, -1, -1);
    iterate ();
    g_assert_false (gtk_widget_get_visible (props));
    sx = (p[0] - vp->x) * vp->scale;
    sy = (p[1] - vp->y) * vp->scale;
    g_assert_cmpfloat (sx, >, 0);
    g_assert_cmpfloat (sy, >, 0);
    g_assert_cmpfloat (sx, <, gtk_widget_get_width (canvas));
    g_assert_cmpfloat (sy, <, gtk_widget_get_height (canvas));

    /* hovering it: the value as a tooltip (id, shape, dtype, bytes, where) */
    g_signal_emit_by_name (find_motion (canvas), "motion", sx, sy);
    {
      const char *tip = gtk_widget_get_tooltip_text (canvas);
      g_autofree char *shape = shape_text (v);
      g_autofree char *bytes = g_format_size_full (v->byte_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *id = g_strdup_printf ("v%" G_GINT64_FORMAT " ", v->v_id);
      g_autofree char *addr = g_strdup_printf ("address 0x%08" G_GINT64_MODIFIER "x", v->logic_addr);
      g_assert_nonnull (tip);
      g_test_message ("tooltip: %s", tip);
      assert_contains (tip, id);
      assert_contains (tip, shape);
      assert_contains (tip, v->dtype);
      assert_contains (tip, bytes);
      assert_contains (tip, v->is_ocm ? "OCM" : v->is_host ? "host" : "ETM");
      assert_contains (tip, addr);
    }

    /* its label stands for it too: a click on the label selects the value */
    if (e->label_w > 0)
      {
        zw_selection_select (sel, -1, -1);
        g_signal_emit_by_name (find_click (canvas), "pressed", 1, (e->label_x + e->label_w / 2 - 3 - vp->x) * vp->scale,
                               (e->label_y - vp->y) * vp->scale);
        g_assert_cmpint (zw_selection_get_selected_value (sel), ==, e->v_id);
        zw_selection_select (sel, -1, -1);
      }
    g_signal_emit_by_name (find_click (canvas), "pressed", 1, sx, sy);
    g_assert_cmpint (zw_selection_get_selected_value (sel), ==, e->v_id);
    g_assert_cmpint (zw_selection_get_selected_op (sel), ==, -1);
    g_assert_true (zw_test_wait_until (shown_with_width, props));
    {
      g_autofree char *text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
      g_autofree char *id = g_strdup_printf ("Value id: v%" G_GINT64_FORMAT, v->v_id);
      g_autofree char *shape = shape_text (v);
      g_autofree char *shape_line = g_strdup_printf ("Shape: %s", shape);
      g_autofree char *addr = g_strdup_printf ("Logic address: 0x%08" G_GINT64_MODIFIER "x", v->logic_addr);
      g_autofree char *writer = g_strdup_printf ("Written by: ");
      g_test_message ("%s", text);
      assert_contains (text, id);
      assert_contains (text, shape_line);
      assert_contains (text, addr);
      assert_contains (text, v->is_ocm ? "Memory: OCM" : v->is_host ? "Memory: host" : "Memory: ETM");
      if (v->chunk != -1)
        {
          g_autofree char *chunk = zw_chunk_id_dup_label (v->chunk);
          g_autofree char *line = g_strdup_printf ("Chunk: %s", chunk);
          g_autofree char *off = g_strdup_printf ("Offset in the chunk: %" G_GUINT64_FORMAT, v->chunk_offset);
          assert_contains (text, line);
          assert_contains (text, off);
        }
      assert_contains (text, writer);
    }
    /* a quantised value: its bits, scale and zero point */
    {
      const ZwValueInfo *q = NULL;
      g_autofree char *text = NULL, *bits = NULL, *scale = NULL;
      for (guint i = 0; i < report->values->len && q == NULL; i++)
        if (g_array_index (report->values, ZwValueInfo, i).scales != NULL
            && g_array_index (report->values, ZwValueInfo, i).scales->len > 0)
          q = &g_array_index (report->values, ZwValueInfo, i);
      g_assert_nonnull (q);
      zw_selection_select (sel, -1, q->v_id);
      text = zw_graph_properties_dup_text (ZW_GRAPH_PROPERTIES (props));
      bits = g_strdup_printf ("Bits: %u", q->quant_bits);
      if (q->scales->len == 1)
        scale = g_strdup_printf ("Scale: %.6g", g_array_index (q->scales, double, 0));
      else
        scale = g_strdup_printf ("Scales: %u along axis %d: ", q->scales->len, q->quant_axis);
      g_test_message ("%s", text);
      assert_contains (text, "Quantisation");
      assert_contains (text, bits);
      assert_contains (text, scale);
      zw_selection_select (sel, -1, e->v_id);
    }

    /* the pane's link to the writer selects it */
    {
      GtkWidget *link = NULL;
      GtkWidget *w = props;
      /* depth-first: the first flat button with an op link ("Written by") */
      GPtrArray *stack = g_ptr_array_new ();
      g_ptr_array_add (stack, w);
      while (stack->len > 0 && link == NULL)
        {
          GtkWidget *c = g_ptr_array_steal_index (stack, stack->len - 1);
          if (GTK_IS_BUTTON (c) && g_object_get_data (G_OBJECT (c), "op-id") != NULL
              && *(gint64 *) g_object_get_data (G_OBJECT (c), "op-id") == g_array_index (layout->nodes, ZwGraphNode,
                                                                                         e->from).op_id)
            link = c;
          for (GtkWidget *k = gtk_widget_get_last_child (c); k != NULL; k = gtk_widget_get_prev_sibling (k))
            g_ptr_array_add (stack, k);
        }
      g_ptr_array_unref (stack);
      g_assert_nonnull (link);
      g_signal_emit_by_name (link, "clicked");
      g_assert_cmpint (zw_selection_get_selected_op (sel), ==, g_array_index (layout->nodes, ZwGraphNode, e->from).op_id);
    }
  }

  /* p hides the pane, and shows it again */
  g_assert_true (gtk_widget_activate_action (graph, "graph.properties", NULL));
  g_assert_false (gtk_widget_get_visible (props));
  g_assert_true (gtk_widget_activate_action (graph, "graph.properties", NULL));
  g_assert_true (gtk_widget_get_visible (props));

  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
}

int
main (int argc, char **argv)
{
  gboolean render, display;

  zw_test_suites_from_args (&argc, &argv, &render, &display);
  g_test_init (&argc, &argv, NULL);
  have_display = display && gtk_init_check ();
  if (render)
    {
      g_test_add_func ("/graph/render/demo-has-a-box-per-op-and-a-group-per-merged-launch", test_demo_boxes_and_groups);
      g_test_add_func ("/graph/render/real-zg330-and-buyi-networks", test_real_networks);
      g_test_add_func ("/graph/render/report-from-disk-draws-the-same-graph", test_report_from_disk);
      g_test_add_func ("/graph/render/edge-labels-avoid-nodes", test_labels_avoid_nodes);
      g_test_add_func ("/graph/viewport/legend-keeps-the-bottom-of-the-fitted-graph", test_legend_keeps_the_bottom);
      g_test_add_func ("/graph/render/cli-plan-and-log-reports-open-without-their-network",
                       test_cli_and_log_reports_alone);
      g_test_add_func ("/graph/render/selecting-an-op-changes-every-view", test_selection_changes_every_view);
      g_test_add_func ("/selection/history-back-and-forward", test_selection_history);
      g_test_add_func ("/graph/viewport/fit-centre-zoom-and-minimap-in-numbers", test_viewport_geometry);
      g_test_add_func ("/graph/walk/arrows-follow-edges-and-ranks", test_walk);
      g_test_add_func ("/graph/search/matches-id-name-class-and-wraps", test_search);
    }
  if (display)
    {
      g_test_add_func ("/graph/display/click-keys-zoom-search-and-linked-views", test_display_graph);
      g_test_add_func ("/graph/display/properties-of-an-op-and-a-value-and-edge-tooltips", test_display_properties);
    }
  return g_test_run ();
}
