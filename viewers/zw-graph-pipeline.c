/* zw-graph-pipeline.c — a pipeline's networks side by side in one graphviz layout, a
 * cluster per network and the connections as edges, and its drawing (see the header). */
#include "zw-graph-pipeline.h"
#include "zw-board-view.h"
#include "zw-dot.h"
#include "zw-graph-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#define NODE_W_IN 1.0
#define NODE_H_IN 0.3
#define MARGIN 12.0
#define TITLE_H 40.0

static ZwGraphNodeKind
kind_of (const ZwOpInfo *op)
{
  if (op->kind != NULL && g_str_has_prefix (op->kind, "customop::"))
    return ZW_GRAPH_NODE_CUSTOM;
  if (g_strcmp0 (op->backend, "Host") == 0 || op->launch < 0)
    return ZW_GRAPH_NODE_HOST;
  return ZW_GRAPH_NODE_HARDOP;
}

static gboolean
in_view (const ZwPipelineNetwork *n, guint k)
{
  return n->first_op < 0 || n->n_ops < 0 || (k >= (guint) n->first_op && k < (guint) n->first_op + (guint) n->n_ops);
}

ZwPipeGraphLayout *
zw_pipe_graph_layout_ref (ZwPipeGraphLayout *l)
{
  g_atomic_int_inc (&l->ref_count);
  return l;
}

void
zw_pipe_graph_layout_unref (ZwPipeGraphLayout *l)
{
  if (l == NULL || !g_atomic_int_dec_and_test (&l->ref_count))
    return;
  zw_pipeline_report_unref (l->pipeline);
  g_array_unref (l->nodes);
  g_array_unref (l->edges);
  g_array_unref (l->clusters);
  g_array_unref (l->points);
  g_free (l);
}

/* The node of network @net writing (@output) or reading v_id @v: its op whose outputs (or
 * inputs) hold it; a network without a report is its one node. -1 for none. */
static gint
node_for (const ZwPipeGraphLayout *l, gint **node_of, const guint *first_node, gint net, gint64 v, gboolean output)
{
  const ZwDeployReport *r = g_array_index (l->pipeline->networks, ZwPipelineNetwork, net).report;

  if (r == NULL)
    return (gint) first_node[net];
  for (guint i = 0; i < r->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (r->ops, ZwOpInfo, i);
      const GArray *vals = output ? op->outputs : op->inputs;
      if (node_of[net][i] < 0)
        continue;
      for (guint k = 0; vals != NULL && k < vals->len; k++)
        if (g_array_index (vals, gint64, k) == v)
          return node_of[net][i];
    }
  /* a reader's input is first written by its Input op */
  if (!output)
    return node_for (l, node_of, first_node, net, v, TRUE);
  return -1;
}

static void
add_edges_of (ZwPipeGraphLayout *l, gint **node_of, guint net)
{
  const ZwDeployReport *r = g_array_index (l->pipeline->networks, ZwPipelineNetwork, net).report;
  g_autoptr (GHashTable) writer = g_hash_table_new (g_int64_hash, g_int64_equal);

  if (r == NULL)
    return;
  for (guint i = 0; i < r->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (r->ops, ZwOpInfo, i);
      for (guint k = 0; op->outputs != NULL && k < op->outputs->len; k++)
        g_hash_table_insert (writer, &g_array_index (op->outputs, gint64, k), GUINT_TO_POINTER (i + 1));
    }
  for (guint i = 0; i < r->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (r->ops, ZwOpInfo, i);
      for (guint k = 0; op->inputs != NULL && k < op->inputs->len; k++)
        {
          gint64 v = g_array_index (op->inputs, gint64, k);
          guint from = GPOINTER_TO_UINT (g_hash_table_lookup (writer, &v));
          ZwPipeGraphEdge e = { 0 };
          if (from == 0 || from - 1 == i || node_of[net][from - 1] < 0 || node_of[net][i] < 0)
            continue;
          e.from = (guint) node_of[net][from - 1];
          e.to = (guint) node_of[net][i];
          e.connection = -1;
          e.network = (gint) net;
          e.v_id = v;
          g_array_append_val (l->edges, e);
        }
    }
}

static gboolean
run_dot (ZwPipeGraphLayout *l, GError **error)
{
  g_autofree Agnode_t **agnodes = g_new0 (Agnode_t *, MAX (l->nodes->len, 1));
  g_autofree Agedge_t **agedges = g_new0 (Agedge_t *, MAX (l->edges->len, 1));
  g_autofree Agraph_t **clusters = g_new0 (Agraph_t *, MAX (l->clusters->len, 1));
  ZwDot dot;
  Agraph_t *g;
  char name[64];

  /* each network top to bottom; the connections do not rank, so the networks stand side by
   * side, in pass order */
  zw_dot_begin (&dot, "pipeline", NODE_W_IN, NODE_H_IN, 0.15, 0.2);
  g = dot.graph;
  agattr (g, AGEDGE, (char *) "constraint", (char *) "true");
  for (guint i = 0; i < l->clusters->len; i++)
    {
      g_snprintf (name, sizeof name, "cluster_%u", i);
      clusters[i] = agsubg (g, name, 1);
      agsafeset (clusters[i], (char *) "margin", (char *) "14", (char *) "");
    }
  for (guint i = 0; i < l->nodes->len; i++)
    {
      const ZwPipeGraphNode *n = &g_array_index (l->nodes, ZwPipeGraphNode, i);
      g_snprintf (name, sizeof name, "n%u", i);
      agnodes[i] = agnode (clusters[n->network], name, 1);
    }
  for (guint i = 0; i < l->edges->len; i++)
    {
      const ZwPipeGraphEdge *e = &g_array_index (l->edges, ZwPipeGraphEdge, i);
      g_snprintf (name, sizeof name, "e%u", i);
      agedges[i] = agedge (g, agnodes[e->from], agnodes[e->to], name, 1);
      if (e->connection >= 0)
        agsafeset (agedges[i], (char *) "constraint", (char *) "false", (char *) "true");
    }
  if (!zw_dot_layout (&dot, 0))
    {
      zw_dot_end (&dot);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: graphviz could not lay the pipeline out",
                   l->pipeline->name);
      return FALSE;
    }
  zw_dot_size (&dot, &l->width, &l->height);
  for (guint i = 0; i < l->nodes->len; i++)
    {
      ZwPipeGraphNode *n = &g_array_index (l->nodes, ZwPipeGraphNode, i);
      zw_dot_node_box (&dot, agnodes[i], &n->x, &n->y, &n->w, &n->h);
    }
  for (guint i = 0; i < l->clusters->len; i++)
    {
      ZwPipeGraphCluster *c = &g_array_index (l->clusters, ZwPipeGraphCluster, i);
      zw_dot_cluster_box (&dot, clusters[i], &c->x0, &c->y0, &c->x1, &c->y1);
    }
  for (guint i = 0; i < l->edges->len; i++)
    {
      ZwPipeGraphEdge *e = &g_array_index (l->edges, ZwPipeGraphEdge, i);
      e->first_point = l->points->len / 2;
      if ((e->n_points = zw_dot_edge_spline (&dot, agedges[i], l->points, NULL, NULL)) == 0)
        {
          const ZwPipeGraphNode *a = &g_array_index (l->nodes, ZwPipeGraphNode, e->from);
          const ZwPipeGraphNode *b = &g_array_index (l->nodes, ZwPipeGraphNode, e->to);
          double p[8] = { a->x, a->y, a->x, a->y, b->x, b->y, b->x, b->y };
          g_array_append_vals (l->points, p, 8);
          e->n_points = 4;
        }
    }
  zw_dot_end (&dot);
  return TRUE;
}

ZwPipeGraphLayout *
zw_pipe_graph_layout_new (ZwPipelineReport *p, GError **error)
{
  g_autoptr (ZwPipeGraphLayout) l = NULL;
  g_autofree guint *first_node = NULL;
  gint **node_of;

  g_return_val_if_fail (p != NULL, NULL);
  l = g_new0 (ZwPipeGraphLayout, 1);
  l->ref_count = 1;
  l->pipeline = zw_pipeline_report_ref (p);
  l->nodes = g_array_new (FALSE, TRUE, sizeof (ZwPipeGraphNode));
  l->edges = g_array_new (FALSE, TRUE, sizeof (ZwPipeGraphEdge));
  l->clusters = g_array_new (FALSE, TRUE, sizeof (ZwPipeGraphCluster));
  l->points = g_array_new (FALSE, FALSE, sizeof (double));
  first_node = g_new0 (guint, MAX (p->networks->len, 1));
  node_of = g_new0 (gint *, MAX (p->networks->len, 1));
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwDeployReport *r = g_array_index (p->networks, ZwPipelineNetwork, i).report;
      ZwPipeGraphCluster c = { (gint) i, 0, 0, 0, 0 };
      first_node[i] = l->nodes->len;
      g_array_append_val (l->clusters, c);
      if (r == NULL)
        {
          ZwPipeGraphNode n = { (gint) i, -1, ZW_GRAPH_NODE_HOST, 0, 0, 0, 0 };
          g_array_append_val (l->nodes, n);
          continue;
        }
      /* a view's report lists its whole network's ops: only the view's are its nodes */
      node_of[i] = g_new (gint, MAX (r->ops->len, 1));
      for (guint k = 0; k < r->ops->len; k++)
        {
          ZwPipeGraphNode n = { (gint) i, (gint) k, kind_of (&g_array_index (r->ops, ZwOpInfo, k)), 0, 0, 0, 0 };
          node_of[i][k] = -1;
          if (!in_view (&g_array_index (p->networks, ZwPipelineNetwork, i), k))
            continue;
          node_of[i][k] = (gint) l->nodes->len;
          g_array_append_val (l->nodes, n);
        }
      if (l->nodes->len == first_node[i])
        {
          ZwPipeGraphNode n = { (gint) i, -1, ZW_GRAPH_NODE_HOST, 0, 0, 0, 0 };
          g_array_append_val (l->nodes, n);
        }
    }
  for (guint i = 0; i < p->networks->len; i++)
    add_edges_of (l, node_of, i);
  for (guint i = 0; i < p->connections->len; i++)
    {
      const ZwPipelineConnection *k = &g_array_index (p->connections, ZwPipelineConnection, i);
      gint a = node_for (l, node_of, first_node, k->from, k->output_v_id, TRUE);
      gint b = node_for (l, node_of, first_node, k->to, k->input_v_id, FALSE);
      ZwPipeGraphEdge e = { 0 };
      if (a < 0 || b < 0)
        continue;
      e.from = (guint) a;
      e.to = (guint) b;
      e.connection = (gint) i;
      e.network = k->from;
      e.v_id = k->output_v_id;
      g_array_append_val (l->edges, e);
    }
  for (guint i = 0; i < p->networks->len; i++)
    g_free (node_of[i]);
  g_free (node_of);
  if (!run_dot (l, error))
    return NULL;
  return g_steal_pointer (&l);
}

static ZwPipeGraphLayout *cached;

ZwPipeGraphLayout *
zw_pipe_graph_layout_get_cached (ZwPipelineReport *p)
{
  g_autoptr (GError) error = NULL;

  g_return_val_if_fail (p != NULL, NULL);
  if (cached != NULL && cached->pipeline == p)
    return cached;
  g_clear_pointer (&cached, zw_pipe_graph_layout_unref);
  cached = zw_pipe_graph_layout_new (p, &error);
  if (cached == NULL)
    g_warning ("%s", error->message);
  return cached;
}

void
zw_pipe_graph_fit (const ZwPipeGraphLayout *l, int width, int height, double *scale, double *ox, double *oy)
{
  double aw = MAX (width - 2 * MARGIN, 10), ah = MAX (height - 2 * MARGIN - TITLE_H, 10);
  double s = MIN (aw / MAX (l->width, 1), ah / MAX (l->height, 1));

  s = MIN (s, 1.5);
  *scale = s;
  *ox = MARGIN + (aw - l->width * s) / 2;
  *oy = MARGIN + TITLE_H + (ah - l->height * s) / 2;
}

static void
spline (cairo_t *cr, const ZwPipeGraphLayout *l, const ZwPipeGraphEdge *e)
{
  const double *pt = &g_array_index (l->points, double, 2 * e->first_point);

  cairo_move_to (cr, pt[0], pt[1]);
  for (guint k = 1; k + 2 < e->n_points; k += 3)
    cairo_curve_to (cr, pt[2 * k], pt[2 * k + 1], pt[2 * k + 2], pt[2 * k + 3], pt[2 * k + 4], pt[2 * k + 5]);
}

void
zw_pipe_graph_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *p, ZwSelection *selection,
                    const ZwViewStyle *colors)
{
  ZwPipeGraphLayout *l;
  g_autofree char *title = NULL;
  g_autofree char *sel_net = NULL;
  const char *sel = selection != NULL ? zw_selection_get_pipeline_value (selection) : NULL;
  gint64 sel_v = -1;
  gint sel_index = -1;
  double s, ox, oy;
  ZwPainter pt;

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&pt, cr, colors);
  if (p == NULL || (l = zw_pipe_graph_layout_get_cached ((ZwPipelineReport *) p)) == NULL)
    {
      zw_draw_empty (&pt, width, height, _("The graph could not be laid out"));
      zw_painter_clear (&pt);
      cairo_restore (cr);
      return;
    }
  if (sel != NULL && zw_pipeline_value_parse (sel, &sel_net, &sel_v))
    sel_index = zw_pipeline_report_find_network (p, sel_net);
  /* TRANSLATORS: the Graph view's title over a pipeline: its name, networks and connections */
  title = g_strdup_printf (_("Pipeline %s: %u networks side by side, %u connections"), p->name, p->networks->len,
                           p->connections->len);
  zw_painter_set_bold (&pt, TRUE);
  zw_painter_text (&pt, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, &colors->foreground, title);
  zw_painter_set_bold (&pt, FALSE);
  zw_painter_text (&pt, MARGIN, MARGIN + 16, 0, 0, width - 2 * MARGIN, &pt.dim,
                   _("Each network a frame in its colour; thick edges are the connections, in the writer's colour"));

  zw_pipe_graph_fit (l, width, height, &s, &ox, &oy);
  cairo_save (cr);
  cairo_translate (cr, ox, oy);
  cairo_scale (cr, s, s);
  /* clusters */
  for (guint i = 0; i < l->clusters->len; i++)
    {
      const ZwPipeGraphCluster *c = &g_array_index (l->clusters, ZwPipeGraphCluster, i);
      GdkRGBA nc;
      zw_board_view_network_color (colors, (guint) c->network, &nc);
      zw_cairo_set_color_alpha (cr, &nc, 0.12);
      cairo_rectangle (cr, c->x0, c->y0, c->x1 - c->x0, c->y1 - c->y0);
      cairo_fill (cr);
      zw_cairo_set_color (cr, &nc);
      cairo_set_line_width (cr, 3 / MAX (s, 0.2));
      cairo_rectangle (cr, c->x0, c->y0, c->x1 - c->x0, c->y1 - c->y0);
      cairo_stroke (cr);
    }
  /* values inside networks, then connections on top */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < l->edges->len; i++)
      {
        const ZwPipeGraphEdge *e = &g_array_index (l->edges, ZwPipeGraphEdge, i);
        gboolean selected = sel_index >= 0 && e->network == sel_index && e->v_id == sel_v;
        GdkRGBA ec;
        if ((e->connection >= 0) != (pass == 1))
          continue;
        if (e->connection >= 0)
          {
            zw_board_view_network_color (colors, (guint) e->network, &ec);
            cairo_set_line_width (cr, 5 / MAX (s, 0.2));
          }
        else
          {
            ec = colors->grid;
            cairo_set_line_width (cr, 1 / MAX (s, 0.2));
          }
        zw_cairo_set_color (cr, selected ? &colors->accent : &ec);
        spline (cr, l, e);
        cairo_stroke (cr);
      }
  /* nodes */
  for (guint i = 0; i < l->nodes->len; i++)
    {
      const ZwPipeGraphNode *n = &g_array_index (l->nodes, ZwPipeGraphNode, i);
      GdkRGBA fill = zw_graph_view_node_color (colors, n->kind);
      zw_cairo_set_color (cr, &fill);
      cairo_rectangle (cr, n->x - n->w / 2, n->y - n->h / 2, n->w, n->h);
      cairo_fill (cr);
    }
  cairo_restore (cr);
  /* labels at screen size: the networks' names over their frames, the connections' names */
  for (guint i = 0; i < l->clusters->len; i++)
    {
      const ZwPipeGraphCluster *c = &g_array_index (l->clusters, ZwPipeGraphCluster, i);
      const char *name = g_array_index (p->networks, ZwPipelineNetwork, c->network).name;
      GdkRGBA nc;
      zw_board_view_network_color (colors, (guint) c->network, &nc);
      zw_painter_set_bold (&pt, TRUE);
      zw_painter_text (&pt, ox + c->x0 * s + 4, oy + c->y0 * s - 2, 0, 1, MAX ((c->x1 - c->x0) * s, 60), &nc, name);
      zw_painter_set_bold (&pt, FALSE);
    }
  for (guint i = 0; i < l->edges->len; i++)
    {
      const ZwPipeGraphEdge *e = &g_array_index (l->edges, ZwPipeGraphEdge, i);
      const double *q;
      if (e->connection < 0 || e->n_points == 0)
        continue;
      q = &g_array_index (l->points, double, 2 * (e->first_point + e->n_points / 2));
      zw_painter_text (&pt, ox + q[0] * s, oy + q[1] * s - 4, 0.5, 1, 160, &colors->foreground,
                       g_array_index (p->connections, ZwPipelineConnection, e->connection).name);
    }
  zw_painter_clear (&pt);
  cairo_restore (cr);
}

static double
segment_distance (double px, double py, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? CLAMP (((px - ax) * dx + (py - ay) * dy) / len2, 0, 1) : 0;
  double qx = ax + t * dx - px, qy = ay + t * dy - py;

  return sqrt (qx * qx + qy * qy);
}

char *
zw_pipe_graph_value_at (const ZwPipeGraphLayout *l, int width, int height, double x, double y)
{
  double s, ox, oy, lx, ly;
  gint best = -1;
  double best_d = 6;

  g_return_val_if_fail (l != NULL, NULL);
  zw_pipe_graph_fit (l, width, height, &s, &ox, &oy);
  lx = (x - ox) / s;
  ly = (y - oy) / s;
  /* an op: its first output */
  for (guint i = 0; i < l->nodes->len; i++)
    {
      const ZwPipeGraphNode *n = &g_array_index (l->nodes, ZwPipeGraphNode, i);
      const ZwPipelineNetwork *net = &g_array_index (l->pipeline->networks, ZwPipelineNetwork, n->network);
      const ZwOpInfo *op;
      if (fabs (lx - n->x) > n->w / 2 || fabs (ly - n->y) > n->h / 2 || n->op_index < 0 || net->report == NULL)
        continue;
      op = &g_array_index (net->report->ops, ZwOpInfo, n->op_index);
      if (op->outputs == NULL || op->outputs->len == 0)
        return NULL;
      return zw_pipeline_value_name (net->name, g_array_index (op->outputs, gint64, 0));
    }
  /* an edge within a few pixels: a connection before a value of one network */
  for (guint i = 0; i < l->edges->len; i++)
    {
      const ZwPipeGraphEdge *e = &g_array_index (l->edges, ZwPipeGraphEdge, i);
      const double *pt = &g_array_index (l->points, double, 2 * e->first_point);
      for (guint k = 0; k + 1 < e->n_points; k++)
        {
          double d = segment_distance (lx, ly, pt[2 * k], pt[2 * k + 1], pt[2 * k + 2], pt[2 * k + 3]) * s;
          if (d < best_d || (d <= best_d && e->connection >= 0))
            {
              best_d = d;
              best = (gint) i;
            }
        }
    }
  if (best < 0)
    return NULL;
  {
    const ZwPipeGraphEdge *e = &g_array_index (l->edges, ZwPipeGraphEdge, best);
    return zw_pipeline_value_name (g_array_index (l->pipeline->networks, ZwPipelineNetwork, e->network).name, e->v_id);
  }
}
