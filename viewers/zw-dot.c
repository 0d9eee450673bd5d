/* zw-dot.c — one graphviz dot layout (see the header). */
#include "zw-dot.h"

/* graphviz keeps global state (its layout engines are not reentrant): one layout at a time. */
static GMutex graphviz_lock;

void
zw_graphviz_lock (void)
{
  g_mutex_lock (&graphviz_lock);
}

void
zw_graphviz_unlock (void)
{
  g_mutex_unlock (&graphviz_lock);
}

static void
set_number (Agraph_t *g, int kind, const char *name, double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (text, sizeof text, "%g", value);
  agattr (g, kind, (char *) name, text);
}

void
zw_dot_begin (ZwDot *dot, const char *name, double node_w_in, double node_h_in, double nodesep, double ranksep)
{
  Agraph_t *g;

  *dot = (ZwDot) { 0 };
  zw_graphviz_lock ();
  dot->gvc = gvContext ();
  dot->graph = g = agopen ((char *) name, Agdirected, NULL);
  agattr (g, AGRAPH, (char *) "rankdir", (char *) "TB");
  set_number (g, AGRAPH, "nodesep", nodesep);
  set_number (g, AGRAPH, "ranksep", ranksep);
  agattr (g, AGRAPH, (char *) "margin", (char *) "8");
  agattr (g, AGNODE, (char *) "shape", (char *) "box");
  agattr (g, AGNODE, (char *) "fixedsize", (char *) "true");
  set_number (g, AGNODE, "width", node_w_in);
  set_number (g, AGNODE, "height", node_h_in);
  agattr (g, AGNODE, (char *) "label", (char *) "");
}

gboolean
zw_dot_layout (ZwDot *dot, double y_offset)
{
  if (gvLayout (dot->gvc, dot->graph, "dot") != 0)
    return FALSE;
  dot->laid_out = TRUE;
  dot->left = GD_bb (dot->graph).LL.x;
  dot->top = GD_bb (dot->graph).UR.y;
  dot->y_offset = y_offset;
  return TRUE;
}

void
zw_dot_end (ZwDot *dot)
{
  if (dot->laid_out)
    gvFreeLayout (dot->gvc, dot->graph);
  agclose (dot->graph);
  gvFreeContext (dot->gvc);
  *dot = (ZwDot) { 0 };
  zw_graphviz_unlock ();
}

#define X(px) ((px) - dot->left)
#define Y(py) (dot->y_offset + dot->top - (py))

void
zw_dot_size (const ZwDot *dot, double *width, double *height)
{
  *width = GD_bb (dot->graph).UR.x - GD_bb (dot->graph).LL.x;
  *height = GD_bb (dot->graph).UR.y - GD_bb (dot->graph).LL.y;
}

void
zw_dot_point (const ZwDot *dot, double px, double py, double *x, double *y)
{
  *x = X (px);
  *y = Y (py);
}

void
zw_dot_node_box (const ZwDot *dot, Agnode_t *node, double *x, double *y, double *w, double *h)
{
  *x = X (ND_coord (node).x);
  *y = Y (ND_coord (node).y);
  *w = ND_width (node) * 72;
  *h = ND_height (node) * 72;
}

void
zw_dot_cluster_box (const ZwDot *dot, Agraph_t *cluster, double *x0, double *y0, double *x1, double *y1)
{
  boxf bb = GD_bb (cluster);
  *x0 = X (bb.LL.x);
  *x1 = X (bb.UR.x);
  *y0 = Y (bb.UR.y);
  *y1 = Y (bb.LL.y);
}

guint
zw_dot_edge_spline (const ZwDot *dot, Agedge_t *edge, GArray *points, double *tip_x, double *tip_y)
{
  const splines *spl = ED_spl (edge);
  const bezier *bz;

  if (spl == NULL || spl->size == 0 || spl->list[0].size == 0)
    return 0;
  bz = &spl->list[0];
  for (int k = 0; k < bz->size; k++)
    {
      double p[2] = { X (bz->list[k].x), Y (bz->list[k].y) };
      g_array_append_vals (points, p, 2);
    }
  if (tip_x != NULL)
    *tip_x = X (bz->eflag ? bz->ep.x : bz->list[bz->size - 1].x);
  if (tip_y != NULL)
    *tip_y = Y (bz->eflag ? bz->ep.y : bz->list[bz->size - 1].y);
  return (guint) bz->size;
}
