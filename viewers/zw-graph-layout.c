/* zw-graph-layout.c — the network graph laid out by graphviz (dot), read back as plain data. */
#include "zw-graph-layout.h"
#include "zw-dot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Node size in points: three lines of text (class, name, id · layers · backend). */
#define NODE_W_IN 2.3
#define NODE_H_IN 0.75
/* Above this many ops, clusters cost dot minutes: groups become the boxes around their
 * members instead (merged launches run consecutive ops, which dot keeps together anyway). */
#define MAX_CLUSTERED_OPS 1500
/* Bigger networks are laid out in parts of this many consecutive ops. */
#define PART_OPS 600
#define PART_GAP 48
/* Label boxes (values, launch titles): sized here from the text's length, a little over the
 * views' 11 px sans, and given to dot as an empty fixed-size HTML cell. Graphviz never
 * measures text then: no font plugin (pango) runs in the layout's worker thread, and the
 * layout is the same on every machine. The view draws the text into the box (clipped). */
#define LABEL_CHAR_PT 7.0
#define LABEL_PAD_PT 8.0
#define LABEL_HEIGHT_PT 16.0

/* Sets @obj's label to an empty box for @text. */
static void
set_label_box (Agraph_t *g, void *obj, const char *text)
{
  char html[160];
  char *s;

  g_snprintf (html, sizeof html,
              "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLPADDING=\"0\" CELLSPACING=\"0\"><TR>"
              "<TD FIXEDSIZE=\"TRUE\" WIDTH=\"%d\" HEIGHT=\"%d\"></TD></TR></TABLE>",
              (int) ceil (LABEL_PAD_PT + LABEL_CHAR_PT * (double) g_utf8_strlen (text, -1)), (int) LABEL_HEIGHT_PT);
  s = agstrdup_html (g, html);
  agsafeset (obj, (char *) "label", s, (char *) "");
  agstrfree (g, s);
}

static ZwGraphNodeKind
node_kind (const ZwOpInfo *op)
{
  if (op->kind != NULL && g_str_has_prefix (op->kind, "customop::"))
    return ZW_GRAPH_NODE_CUSTOM;
  if (g_strcmp0 (op->backend, "Host") == 0 || op->launch < 0)
    return ZW_GRAPH_NODE_HOST;
  return ZW_GRAPH_NODE_HARDOP;
}

static void
layout_free (ZwGraphLayout *l)
{
  if (l->draw_cache != NULL && l->draw_cache_free != NULL)
    l->draw_cache_free (l->draw_cache);
  g_clear_pointer (&l->report, zw_deploy_report_unref);
  g_clear_pointer (&l->nodes, g_array_unref);
  g_clear_pointer (&l->edges, g_array_unref);
  g_clear_pointer (&l->groups, g_array_unref);
  g_clear_pointer (&l->points, g_array_unref);
  g_clear_pointer (&l->node_of_op, g_hash_table_unref);
  g_free (l);
}

ZwGraphLayout *
zw_graph_layout_ref (ZwGraphLayout *layout)
{
  g_return_val_if_fail (layout != NULL, NULL);
  g_atomic_int_inc (&layout->ref_count);
  return layout;
}

void
zw_graph_layout_unref (ZwGraphLayout *layout)
{
  if (layout != NULL && g_atomic_int_dec_and_test (&layout->ref_count))
    layout_free (layout);
}

/* One edge to lay out: a value from the node that writes it to a node that reads it. */
typedef struct {
  gint64 v_id;
  guint from, to;
  gboolean labelled;     /* the value's first edge: it carries the label */
} PlannedEdge;

char *
zw_graph_edge_label (const ZwValueInfo *v, gint64 v_id)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "v%" G_GINT64_FORMAT, v_id);
  if (v == NULL)
    return g_string_free (s, FALSE);
  if (v->shape->len > 0)
    g_string_append (s, "  ");
  for (guint i = 0; i < v->shape->len; i++)
    g_string_append_printf (s, i ? "×%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (v->shape, gint64, i));
  if (v->dtype != NULL && *v->dtype != '\0')
    g_string_append_printf (s, " %s", v->dtype);
  return g_string_free (s, FALSE);
}

/* Marks the first edge of each value as the one that carries its label. */
static void
mark_labelled (GArray *edges)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < edges->len; i++)
    {
      PlannedEdge *e = &g_array_index (edges, PlannedEdge, i);
      e->labelled = !g_hash_table_contains (seen, &e->v_id);
      if (e->labelled)
        g_hash_table_add (seen, &e->v_id);
    }
}

static GArray *
plan_edges (const ZwDeployReport *report, GHashTable *node_of_op, gboolean *guessed)
{
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (PlannedEdge));
  g_autoptr (GHashTable) writer = g_hash_table_new (g_int64_hash, g_int64_equal);
  gboolean have_graph = report->ops->len > 0;

  for (guint i = 0; i < report->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      if (op->inputs == NULL || op->outputs == NULL)
        have_graph = FALSE;
    }
  *guessed = !have_graph;
  if (have_graph)
    {
      for (guint i = 0; i < report->ops->len; i++)
        {
          const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
          for (guint k = 0; k < op->outputs->len; k++)
            g_hash_table_insert (writer, &g_array_index (op->outputs, gint64, k), GUINT_TO_POINTER (i + 1));
        }
      for (guint i = 0; i < report->ops->len; i++)
        {
          const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
          for (guint k = 0; k < op->inputs->len; k++)
            {
              guint from = GPOINTER_TO_UINT (g_hash_table_lookup (writer, &g_array_index (op->inputs, gint64, k)));
              PlannedEdge e = { g_array_index (op->inputs, gint64, k), 0, i, FALSE };
              if (from == 0 || from - 1 == i)
                continue;
              e.from = from - 1;
              g_array_append_val (edges, e);
            }
        }
      return edges;
    }
  /* No graph in the report: producer -> the op at the value's last use. */
  for (guint i = 0; i < report->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (report->values, ZwValueInfo, i);
      guint from = GPOINTER_TO_UINT (g_hash_table_lookup (node_of_op, &v->producer));
      PlannedEdge e = { v->v_id, 0, 0, FALSE };

      if (from == 0 || v->last < 0 || (guint) v->last >= report->ops->len || (guint) v->last == from - 1)
        continue;
      e.from = from - 1;
      e.to = (guint) v->last;
      g_array_append_val (edges, e);
    }
  return edges;
}

static void
point_min_max (ZwGraphEdge *e, double x, double y)
{
  e->x0 = MIN (e->x0, x);
  e->y0 = MIN (e->y0, y);
  e->x1 = MAX (e->x1, x);
  e->y1 = MAX (e->y1, y);
}

/* The point at t in [0,1] along the bezier spline's control polygon pieces. */
static void
spline_middle (const double *p, guint n, double *x, double *y)
{
  guint pieces = n >= 4 ? (n - 1) / 3 : 0;

  if (pieces == 0)
    {
      *x = n > 0 ? p[0] : 0;
      *y = n > 0 ? p[1] : 0;
      return;
    }
  {
    double t = pieces / 2.0;
    guint k = MIN ((guint) floor (t), pieces - 1);
    double u = t - k, a = (1 - u) * (1 - u) * (1 - u), b = 3 * u * (1 - u) * (1 - u), c = 3 * u * u * (1 - u),
           d = u * u * u;
    const double *q = p + 2 * (3 * k);
    *x = a * q[0] + b * q[2] + c * q[4] + d * q[6];
    *y = a * q[1] + b * q[3] + c * q[5] + d * q[7];
  }
}

/* Lays the nodes [first, end) and the edges between them out with dot, below @y_offset;
 * appends the edges (marking them in @placed) and returns the part's size. */
static gboolean
layout_part (ZwGraphLayout *l, const GArray *planned, guint first, guint end, gboolean clustered, double y_offset,
             double *width, double *height, gboolean *placed, GError **error)
{
  g_autofree Agnode_t **agnodes = g_new0 (Agnode_t *, MAX (end - first, 1));
  g_autofree Agedge_t **agedges = g_new0 (Agedge_t *, MAX (planned->len, 1));
  g_autofree Agraph_t **clusters = g_new0 (Agraph_t *, MAX (l->groups->len, 1));
  ZwDot dot;
  Agraph_t *g;
  char name[64];

  zw_dot_begin (&dot, "network", NODE_W_IN, NODE_H_IN, 0.3, 0.5);
  g = dot.graph;
  agattr (g, AGEDGE, (char *) "label", (char *) "");

  for (guint i = first; i < end; i++)
    {
      ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, i);
      Agraph_t *parent = g;
      if (clustered && n->group >= 0)
        {
          if (clusters[n->group] == NULL)
            {
              g_snprintf (name, sizeof name, "cluster_%d", n->group);
              const ZwGraphGroup *grp = &g_array_index (l->groups, ZwGraphGroup, n->group);
              const ZwLaunch *launch = &g_array_index (l->report->launches, ZwLaunch, grp->launch);
              g_autofree char *title = NULL;
              clusters[n->group] = agsubg (g, name, 1);
              agsafeset (clusters[n->group], (char *) "margin", (char *) "10", (char *) "");
              /* room for the title the view draws at the top (its English text: the width) */
              title = g_strdup_printf ("launch %d · op %" G_GINT64_FORMAT " · %u ops · %u layers", grp->launch,
                                       grp->op_id, launch->merge_from->len, launch->layer_count);
              set_label_box (g, clusters[n->group], title);
              agsafeset (clusters[n->group], (char *) "labelloc", (char *) "t", (char *) "");
              agsafeset (clusters[n->group], (char *) "labeljust", (char *) "l", (char *) "");
            }
          parent = clusters[n->group];
        }
      g_snprintf (name, sizeof name, "n%u", i);
      agnodes[i - first] = agnode (parent, name, 1);
    }
  for (guint i = 0; i < planned->len; i++)
    {
      const PlannedEdge *pe = &g_array_index (planned, PlannedEdge, i);
      if (pe->from < first || pe->from >= end || pe->to < first || pe->to >= end)
        continue;
      g_snprintf (name, sizeof name, "e%u", i);
      agedges[i] = agedge (g, agnodes[pe->from - first], agnodes[pe->to - first], name, 1);
      if (pe->labelled)
        {
          g_autofree char *text = zw_graph_edge_label (zw_deploy_report_find_value (l->report, pe->v_id), pe->v_id);
          set_label_box (g, agedges[i], text);
        }
    }

  if (!zw_dot_layout (&dot, y_offset))
    {
      zw_dot_end (&dot);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: graphviz could not lay the graph out",
                   l->report->network_name != NULL ? l->report->network_name : "network");
      return FALSE;
    }

  zw_dot_size (&dot, width, height);
  for (guint i = first; i < end; i++)
    {
      ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, i);
      zw_dot_node_box (&dot, agnodes[i - first], &n->x, &n->y, &n->w, &n->h);
    }
  /* the clusters' boxes, their title inside: no edge label crosses them */
  for (guint k = 0; k < l->groups->len; k++)
    if (clusters[k] != NULL)
      {
        ZwGraphGroup *grp = &g_array_index (l->groups, ZwGraphGroup, k);
        zw_dot_cluster_box (&dot, clusters[k], &grp->x0, &grp->y0, &grp->x1, &grp->y1);
        grp->laid_out = TRUE;
      }
  for (guint i = 0; i < planned->len; i++)
    {
      const PlannedEdge *pe = &g_array_index (planned, PlannedEdge, i);
      ZwGraphEdge e = { 0 };
      const ZwGraphNode *a, *b;

      if (agedges[i] == NULL)
        continue;
      a = &g_array_index (l->nodes, ZwGraphNode, pe->from);
      b = &g_array_index (l->nodes, ZwGraphNode, pe->to);
      placed[i] = TRUE;
      e.v_id = pe->v_id;
      e.from = pe->from;
      e.to = pe->to;
      e.first_point = l->points->len / 2;
      e.x0 = e.x1 = a->x;
      e.y0 = e.y1 = a->y;
      if ((e.n_points = zw_dot_edge_spline (&dot, agedges[i], l->points, &e.tip_x, &e.tip_y)) > 0)
        for (guint k = 0; k < e.n_points; k++)
          point_min_max (&e, g_array_index (l->points, double, 2 * (e.first_point + k)),
                         g_array_index (l->points, double, 2 * (e.first_point + k) + 1));
      else
        {
          /* no spline (should not happen with dot): a straight line between the boxes */
          double p[8] = { a->x, a->y + a->h / 2, a->x, a->y + a->h / 2, b->x, b->y - b->h / 2, b->x, b->y - b->h / 2 };
          g_array_append_vals (l->points, p, 8);
          e.n_points = 4;
          e.tip_x = b->x;
          e.tip_y = b->y - b->h / 2;
        }
      point_min_max (&e, e.tip_x, e.tip_y);
      spline_middle (&g_array_index (l->points, double, 2 * e.first_point), e.n_points, &e.mid_x, &e.mid_y);
      if (pe->labelled && ED_label (agedges[i]) != NULL && ED_label (agedges[i])->set)
        {
          const textlabel_t *lab = ED_label (agedges[i]);
          zw_dot_point (&dot, lab->pos.x, lab->pos.y, &e.label_x, &e.label_y);
          e.label_w = lab->dimen.x;
          e.label_h = lab->dimen.y;
        }
      g_array_append_val (l->edges, e);
    }
  zw_dot_end (&dot);
  return TRUE;
}

ZwGraphLayout *
zw_graph_layout_new (ZwDeployReport *report, GCancellable *cancellable, GError **error)
{
  g_autoptr (ZwGraphLayout) l = NULL;
  g_autoptr (GArray) planned = NULL;
  g_autofree gint *group_of_launch = NULL;
  gint64 t0 = g_get_monotonic_time ();
  gboolean clustered;

  g_return_val_if_fail (report != NULL, NULL);

  l = g_new0 (ZwGraphLayout, 1);
  l->ref_count = 1;
  l->report = zw_deploy_report_ref (report);
  l->nodes = g_array_sized_new (FALSE, TRUE, sizeof (ZwGraphNode), report->ops->len);
  l->edges = g_array_new (FALSE, TRUE, sizeof (ZwGraphEdge));
  l->groups = g_array_new (FALSE, TRUE, sizeof (ZwGraphGroup));
  l->points = g_array_new (FALSE, FALSE, sizeof (double));
  l->node_of_op = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < report->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      ZwGraphNode n = { 0 };
      n.op_id = op->op_id;
      n.op_index = i;
      n.kind = node_kind (op);
      n.group = -1;
      g_array_append_val (l->nodes, n);
    }
  for (guint i = 0; i < l->nodes->len; i++)
    {
      ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, i);
      g_hash_table_insert (l->node_of_op, &n->op_id, GUINT_TO_POINTER (i + 1));
    }
  group_of_launch = g_new (gint, MAX (report->launches->len, 1));
  for (guint i = 0; i < report->launches->len; i++)
    {
      const ZwLaunch *launch = &g_array_index (report->launches, ZwLaunch, i);
      group_of_launch[i] = -1;
      if (launch->merge_from->len > 1)
        {
          ZwGraphGroup grp = { (gint) i, launch->op_id, 0, 0, 0, 0, FALSE };
          group_of_launch[i] = (gint) l->groups->len;
          g_array_append_val (l->groups, grp);
          for (guint k = 0; k < launch->merge_from->len; k++)
            {
              gint node = zw_graph_layout_node_of_op (l, g_array_index (launch->merge_from, gint64, k));
              if (node >= 0)
                g_array_index (l->nodes, ZwGraphNode, node).group = group_of_launch[i];
            }
        }
    }
  planned = plan_edges (report, l->node_of_op, &l->edges_guessed);
  /* labels are virtual nodes to dot: affordable for one part (1,500 ops: 4 s), not for a
   * network laid out in parts (10,000 ops: 12 s instead of 1.5) */
  if (report->ops->len <= MAX_CLUSTERED_OPS)
    mark_labelled (planned);
  clustered = report->ops->len <= MAX_CLUSTERED_OPS;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* Big networks are laid out in parts of consecutive ops stacked top to bottom: dot's
   * coordinate pass grows faster than linearly (minutes for 10,000 ops in one graph, seconds
   * in parts). An edge between two parts is a straight spline of our own. */
  {
    guint part_size = l->nodes->len > MAX_CLUSTERED_OPS ? PART_OPS : MAX (l->nodes->len, 1);
    g_autofree guint *part_of_node = g_new0 (guint, MAX (l->nodes->len, 1));
    g_autoptr (GArray) part_of_edge = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr (GArray) part_w = g_array_new (FALSE, FALSE, sizeof (double));
    g_autofree gboolean *placed = g_new0 (gboolean, MAX (planned->len, 1));
    double y = 0;

    for (guint first = 0, part = 0; first < l->nodes->len; first += part_size, part++)
      {
        guint end = MIN (first + part_size, l->nodes->len);
        double w = 0, h = 0;
        if (g_cancellable_set_error_if_cancelled (cancellable, error))
          return NULL;
        for (guint i = first; i < end; i++)
          part_of_node[i] = part;
        if (!layout_part (l, planned, first, end, clustered, y, &w, &h, placed, error))
          return NULL;
        while (part_of_edge->len < l->edges->len)
          g_array_append_val (part_of_edge, part);
        g_array_append_val (part_w, w);
        y += h + (end < l->nodes->len ? PART_GAP : 0);
        l->width = MAX (l->width, w);
      }
    l->height = y;
    /* centre the parts */
    for (guint i = 0; i < l->nodes->len; i++)
      g_array_index (l->nodes, ZwGraphNode, i).x += (l->width - g_array_index (part_w, double, part_of_node[i])) / 2;
    for (guint i = 0; i < l->edges->len; i++)
      {
        ZwGraphEdge *e = &g_array_index (l->edges, ZwGraphEdge, i);
        double dx = (l->width - g_array_index (part_w, double, g_array_index (part_of_edge, guint, i))) / 2;
        for (guint k = 0; k < e->n_points; k++)
          g_array_index (l->points, double, 2 * (e->first_point + k)) += dx;
        e->tip_x += dx;
        e->mid_x += dx;
        e->label_x += dx;
        e->x0 += dx;
        e->x1 += dx;
      }
    /* the edges between parts */
    for (guint i = 0; i < planned->len; i++)
      {
        PlannedEdge *pe = &g_array_index (planned, PlannedEdge, i);
        const ZwGraphNode *a = &g_array_index (l->nodes, ZwGraphNode, pe->from);
        const ZwGraphNode *b = &g_array_index (l->nodes, ZwGraphNode, pe->to);
        ZwGraphEdge e = { 0 };
        double ax = a->x, ay = a->y + a->h / 2, bx = b->x, by = b->y - b->h / 2;
        double p[8] = { ax, ay, ax, ay + (by - ay) / 3, bx, by - (by - ay) / 3, bx, by };

        if (placed[i])
          continue;
        e.v_id = pe->v_id;
        e.from = pe->from;
        e.to = pe->to;
        e.first_point = l->points->len / 2;
        e.n_points = 4;
        g_array_append_vals (l->points, p, 8);
        e.tip_x = bx;
        e.tip_y = by;
        e.x0 = MIN (ax, bx);
        e.x1 = MAX (ax, bx);
        e.y0 = MIN (ay, by);
        e.y1 = MAX (ay, by);
        spline_middle (p, 4, &e.mid_x, &e.mid_y);
        g_array_append_val (l->edges, e);
      }
  }

  /* Groups not laid out as clusters (big networks): the box around their members. */
  for (guint i = 0; i < l->groups->len; i++)
    {
      ZwGraphGroup *grp = &g_array_index (l->groups, ZwGraphGroup, i);
      gboolean any = FALSE;
      if (grp->laid_out)
        continue;   /* dot's cluster box */
      grp->x0 = grp->y0 = G_MAXDOUBLE;
      grp->x1 = grp->y1 = -G_MAXDOUBLE;
      for (guint k = 0; k < l->nodes->len; k++)
        {
          const ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, k);
          if (n->group != (gint) i)
            continue;
          any = TRUE;
          grp->x0 = MIN (grp->x0, n->x - n->w / 2 - 8);
          grp->y0 = MIN (grp->y0, n->y - n->h / 2 - 26);
          grp->x1 = MAX (grp->x1, n->x + n->w / 2 + 8);
          grp->y1 = MAX (grp->y1, n->y + n->h / 2 + 6);
        }
      if (!any)
        grp->x0 = grp->y0 = grp->x1 = grp->y1 = 0;
    }
  l->seconds = (g_get_monotonic_time () - t0) / 1e6;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return g_steal_pointer (&l);
}

gint
zw_graph_layout_node_of_op (const ZwGraphLayout *layout, gint64 op_id)
{
  g_return_val_if_fail (layout != NULL, -1);
  return (gint) GPOINTER_TO_UINT (g_hash_table_lookup (layout->node_of_op, &op_id)) - 1;
}

gint
zw_graph_layout_node_at (const ZwGraphLayout *layout, double x, double y)
{
  g_return_val_if_fail (layout != NULL, -1);

  for (guint i = 0; i < layout->nodes->len; i++)
    {
      const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, i);
      if (fabs (x - n->x) <= n->w / 2 && fabs (y - n->y) <= n->h / 2)
        return (gint) i;
    }
  return -1;
}

static double
segment_distance (double px, double py, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, t;

  t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = CLAMP (t, 0, 1);
  return hypot (px - (ax + t * dx), py - (ay + t * dy));
}

gint
zw_graph_layout_edge_at (const ZwGraphLayout *layout, double x, double y, double tolerance)
{
  gint best = -1;
  double best_d = tolerance;

  g_return_val_if_fail (layout != NULL, -1);

  for (guint i = 0; i < layout->edges->len; i++)
    {
      const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
      const double *p = &g_array_index (layout->points, double, 2 * e->first_point);

      if (x < e->x0 - tolerance || x > e->x1 + tolerance || y < e->y0 - tolerance || y > e->y1 + tolerance)
        continue;
      /* the spline sampled along each bezier piece */
      for (guint k = 0; k + 3 < e->n_points; k += 3)
        {
          const double *q = p + 2 * k;
          double lx = q[0], ly = q[1];
          for (int s = 1; s <= 8; s++)
            {
              double u = s / 8.0, a = (1 - u) * (1 - u) * (1 - u), b = 3 * u * (1 - u) * (1 - u),
                     c = 3 * u * u * (1 - u), d = u * u * u;
              double nx = a * q[0] + b * q[2] + c * q[4] + d * q[6], ny = a * q[1] + b * q[3] + c * q[5] + d * q[7];
              double dist = segment_distance (x, y, lx, ly, nx, ny);
              if (dist < best_d)
                {
                  best_d = dist;
                  best = (gint) i;
                }
              lx = nx;
              ly = ny;
            }
        }
      if (e->n_points >= 1)
        {
          const double *q = p + 2 * (e->n_points - 1);
          double dist = segment_distance (x, y, q[0], q[1], e->tip_x, e->tip_y);
          if (dist < best_d)
            {
              best_d = dist;
              best = (gint) i;
            }
        }
    }
  return best;
}

gint
zw_graph_layout_label_at (const ZwGraphLayout *layout, double x, double y)
{
  g_return_val_if_fail (layout != NULL, -1);

  for (guint i = 0; i < layout->edges->len; i++)
    {
      const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
      if (e->label_w > 0 && fabs (x - e->label_x) <= e->label_w / 2 && fabs (y - e->label_y) <= e->label_h / 2)
        return (gint) i;
    }
  return -1;
}

gint
zw_graph_layout_edge_of_value (const ZwGraphLayout *layout, gint64 v_id)
{
  g_return_val_if_fail (layout != NULL, -1);

  for (guint i = 0; i < layout->edges->len; i++)
    if (g_array_index (layout->edges, ZwGraphEdge, i).v_id == v_id)
      return (gint) i;
  return -1;
}

/* The leftmost node one edge from @node: its readers when @down, else its writers. */
static gint
walk_along_edges (const ZwGraphLayout *layout, gint node, gboolean down)
{
  gint best = -1;
  double best_x = G_MAXDOUBLE;

  for (guint i = 0; i < layout->edges->len; i++)
    {
      const ZwGraphEdge *e = &g_array_index (layout->edges, ZwGraphEdge, i);
      gint other = down ? ((gint) e->from == node ? (gint) e->to : -1) : ((gint) e->to == node ? (gint) e->from : -1);
      if (other >= 0 && g_array_index (layout->nodes, ZwGraphNode, other).x < best_x)
        {
          best_x = g_array_index (layout->nodes, ZwGraphNode, other).x;
          best = other;
        }
    }
  return best;
}

/* The nearest node on the same rank (centres within half a node's height) to the left
 * (@dir < 0) or right. */
static gint
walk_along_rank (const ZwGraphLayout *layout, gint node, int dir)
{
  const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, node);
  gint best = -1;
  double best_d = G_MAXDOUBLE;

  for (guint i = 0; i < layout->nodes->len; i++)
    {
      const ZwGraphNode *m = &g_array_index (layout->nodes, ZwGraphNode, i);
      double d = (m->x - n->x) * dir;
      if ((gint) i == node || fabs (m->y - n->y) > n->h / 2 || d <= 0)
        continue;
      if (d < best_d)
        {
          best_d = d;
          best = (gint) i;
        }
    }
  return best;
}

gint
zw_graph_layout_walk (const ZwGraphLayout *layout, gint node, ZwGraphWalk direction)
{
  g_return_val_if_fail (layout != NULL, -1);

  if (node < 0 || (guint) node >= layout->nodes->len)
    return -1;
  switch (direction)
    {
    case ZW_GRAPH_WALK_DOWN:
      return walk_along_edges (layout, node, TRUE);
    case ZW_GRAPH_WALK_UP:
      return walk_along_edges (layout, node, FALSE);
    case ZW_GRAPH_WALK_LEFT:
      return walk_along_rank (layout, node, -1);
    case ZW_GRAPH_WALK_RIGHT:
    default:
      return walk_along_rank (layout, node, 1);
    }
}

static ZwGraphLayout *cached_layout;

ZwGraphLayout *
zw_graph_layout_get_cached (ZwDeployReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  if (cached_layout == NULL || cached_layout->report != report)
    {
      g_autoptr (GError) error = NULL;
      ZwGraphLayout *l = zw_graph_layout_new (report, NULL, &error);
      if (l == NULL)
        {
          g_warning ("%s", error->message);
          return NULL;
        }
      g_clear_pointer (&cached_layout, zw_graph_layout_unref);
      cached_layout = l;
    }
  return cached_layout;
}

ZwGraphLayout *
zw_graph_layout_peek_cached (ZwDeployReport *report)
{
  return cached_layout != NULL && cached_layout->report == report ? cached_layout : NULL;
}

void
zw_graph_layout_set_cached (ZwGraphLayout *layout)
{
  g_return_if_fail (layout != NULL);
  zw_graph_layout_ref (layout);
  g_clear_pointer (&cached_layout, zw_graph_layout_unref);
  cached_layout = layout;
}
