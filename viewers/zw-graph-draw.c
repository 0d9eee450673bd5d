/* zw-graph-draw.c — the network graph drawn with plain cairo: colours, nodes, edges, groups,
 * labels, the minimap and the legend, at a level of detail that follows the scale. */
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

/* ---- colours ---------------------------------------------------------------------- */

GdkRGBA
zw_graph_view_node_color (const ZwViewStyle *colors, ZwGraphNodeKind kind)
{
  const GdkRGBA *hue = kind == ZW_GRAPH_NODE_HARDOP ? &colors->segment[ZW_SEGMENT_WEIGHT]
                       : kind == ZW_GRAPH_NODE_HOST ? &colors->segment[ZW_SEGMENT_INPUT]
                                                    : &colors->segment[ZW_SEGMENT_INSTR];
  GdkRGBA bg = colors->background, c;

  bg.alpha = 1;
  c = zw_rgba_mix (&bg, hue, 0.6);
  c.alpha = 1;
  return c;
}

/* A group: a light tint over its members, and a band of this colour along its top. */
static GdkRGBA
group_fill (const ZwViewStyle *colors)
{
  GdkRGBA bg = colors->background, c;

  bg.alpha = 1;
  c = zw_rgba_mix (&bg, &colors->accent, 0.10);
  c.alpha = 1;
  return c;
}

GdkRGBA
zw_graph_view_group_color (const ZwViewStyle *colors)
{
  GdkRGBA bg = colors->background, c;

  bg.alpha = 1;
  c = zw_rgba_mix (&bg, &colors->accent, 0.55);
  c.alpha = 1;
  return c;
}

#define GROUP_BAND 5

typedef enum { PLACE_ETM, PLACE_OCM, PLACE_HOST } Placement;

static Placement
placement_of (const ZwValueInfo *v)
{
  if (v == NULL || v->is_host)
    return PLACE_HOST;
  return v->is_ocm ? PLACE_OCM : PLACE_ETM;
}

static GdkRGBA
edge_color (const ZwViewStyle *colors, Placement p)
{
  GdkRGBA c;

  switch (p)
    {
    case PLACE_OCM:
      c = colors->ocm;
      break;
    case PLACE_ETM:
      c = zw_rgba_mix (&colors->segment[ZW_SEGMENT_FTMP], &colors->warning, 0.25);
      break;
    case PLACE_HOST:
    default:
      c = colors->foreground;
      c.alpha *= 0.45f;
      break;
    }
  return c;
}

/* ---- per-layout drawing cache (main thread) ---------------------------------------- */

typedef struct {
  GHashTable *values;          /* v_id -> const ZwValueInfo* */
  cairo_surface_t *minimap;    /* the whole graph, small */
  int minimap_w, minimap_h;
  GdkRGBA minimap_bg;
} DrawCache;

static void
draw_cache_free (gpointer p)
{
  DrawCache *c = p;

  g_clear_pointer (&c->values, g_hash_table_unref);
  g_clear_pointer (&c->minimap, cairo_surface_destroy);
  g_free (c);
}

static DrawCache *
draw_cache (const ZwGraphLayout *layout)
{
  ZwGraphLayout *l = (ZwGraphLayout *) layout;   /* the cache is ours to fill */

  if (l->draw_cache == NULL)
    {
      DrawCache *c = g_new0 (DrawCache, 1);
      c->values = g_hash_table_new (g_int64_hash, g_int64_equal);
      for (guint i = 0; i < l->report->values->len; i++)
        {
          ZwValueInfo *v = &g_array_index (l->report->values, ZwValueInfo, i);
          g_hash_table_insert (c->values, &v->v_id, v);
        }
      l->draw_cache = c;
      l->draw_cache_free = draw_cache_free;
    }
  return l->draw_cache;
}

/* ---- drawing ---------------------------------------------------------------------- */

#define NODE_PIXELS(l, s) ((l)->nodes->len > 0 ? g_array_index ((l)->nodes, ZwGraphNode, 0).h * (s) : 0)
#define SX(lx) (((lx) - vp->x) * vp->scale)
#define SY(ly) (((ly) - vp->y) * vp->scale)

static void
rounded_rect (cairo_t *cr, double x, double y, double w, double h, double r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
edge_path (cairo_t *cr, const ZwGraphLayout *l, const ZwGraphEdge *e, const ZwGraphViewport *vp, gboolean coarse)
{
  const double *p = &g_array_index (l->points, double, 2 * e->first_point);

  if (e->n_points == 0)
    return;
  cairo_move_to (cr, SX (p[0]), SY (p[1]));
  if (coarse)
    {
      /* far out: the chord is enough */
      const double *q = p + 2 * (e->n_points - 1);
      cairo_line_to (cr, SX (q[0]), SY (q[1]));
    }
  else
    for (guint k = 1; k + 2 < e->n_points; k += 3)
      cairo_curve_to (cr, SX (p[2 * k]), SY (p[2 * k + 1]), SX (p[2 * k + 2]), SY (p[2 * k + 3]), SX (p[2 * k + 4]),
                      SY (p[2 * k + 5]));
  cairo_line_to (cr, SX (e->tip_x), SY (e->tip_y));
}

static void
arrow_head (cairo_t *cr, const ZwGraphLayout *l, const ZwGraphEdge *e, const ZwGraphViewport *vp, double size)
{
  const double *q = &g_array_index (l->points, double, 2 * (e->first_point + e->n_points - 1));
  double dx = SX (e->tip_x) - SX (q[0]), dy = SY (e->tip_y) - SY (q[1]), len = hypot (dx, dy);
  double tx = SX (e->tip_x), ty = SY (e->tip_y);

  if (len < 1e-6)
    {
      dx = 0;
      dy = 1;
      len = 1;
    }
  dx /= len;
  dy /= len;
  cairo_move_to (cr, tx, ty);
  cairo_line_to (cr, tx - size * dx + size * 0.45 * dy, ty - size * dy - size * 0.45 * dx);
  cairo_line_to (cr, tx - size * dx - size * 0.45 * dy, ty - size * dy + size * 0.45 * dx);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static gboolean
edge_is_selected (const ZwGraphEdge *e, const ZwGraphLayout *l, gint64 sel_value, gint sel_node)
{
  (void) l;
  return (sel_value >= 0 && e->v_id == sel_value) || (sel_node >= 0 && ((gint) e->from == sel_node || (gint) e->to == sel_node));
}

static void
draw_node_text (ZwPainter *p, const ZwGraphLayout *l, const ZwGraphNode *n, double x, double y, double w, double h)
{
  const ZwOpInfo *op = &g_array_index (l->report->ops, ZwOpInfo, n->op_index);
  const ZwViewStyle *colors = p->style;
  double fs = colors->font_size, line = fs * 1.3, pad = 6;
  char cls[64];
  g_autofree char *id = g_strdup_printf ("#%" G_GINT64_FORMAT, op->op_id);
  GdkRGBA dim = colors->foreground;

  dim.alpha *= 0.7f;
  zw_op_class_short (op->op_class, cls, sizeof cls);
  if (h < line * 3 + 4)
    {
      /* one line: class and id */
      g_autofree char *both = g_strdup_printf ("%s %s", cls, id);
      zw_painter_set_bold (p, TRUE);
      zw_painter_text (p, x + w / 2, y + h / 2, 0.5, 0.5, w - 2 * pad, NULL, both);
      zw_painter_set_bold (p, FALSE);
      return;
    }
  {
    double top = y + h / 2 - line * 1.5;
    g_autofree char *third = NULL;
    const char *name = op->name != NULL && *op->name != '\0' ? op->name : op->kind;
    double idw;

    zw_painter_set_bold (p, FALSE);
    idw = zw_painter_text (p, x + w - pad, top + line / 2, 1, 0.5, w / 2, &dim, id);
    zw_painter_set_bold (p, TRUE);
    zw_painter_text (p, x + pad, top + line / 2, 0, 0.5, w - 3 * pad - idw, NULL, cls);
    zw_painter_set_bold (p, FALSE);
    zw_painter_text (p, x + pad, top + line * 1.5, 0, 0.5, w - 2 * pad, NULL, name);
    if (n->kind == ZW_GRAPH_NODE_HARDOP)
      third = g_strdup_printf (ngettext ("%d layer · %s", "%d layers · %s", (gulong) MAX (op->layer_count, 0)),
                               op->layer_count, op->backend);
    else
      third = g_strdup_printf (n->kind == ZW_GRAPH_NODE_CUSTOM ? _("custom op · %s") : _("host op · %s"),
                               op->backend);
    zw_painter_text (p, x + pad, top + line * 2.5, 0, 0.5, w - 2 * pad, &dim, third);
  }
}

static void
draw_minimap (cairo_t *cr, int width, int height, const ZwGraphLayout *l, const ZwGraphViewport *vp,
              const ZwViewStyle *colors)
{
  DrawCache *c = draw_cache (l);
  double s, mx, my;
  int mw, mh;

  if (!zw_graph_viewport_minimap (vp, l, width, height, &mx, &my, &mw, &mh, &s))
    return;
  if (c->minimap == NULL || c->minimap_w != mw || c->minimap_h != mh || !gdk_rgba_equal (&c->minimap_bg, &colors->background))
    {
      cairo_t *mcr;
      g_clear_pointer (&c->minimap, cairo_surface_destroy);
      c->minimap = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, mw, mh);
      c->minimap_w = mw;
      c->minimap_h = mh;
      c->minimap_bg = colors->background;
      mcr = cairo_create (c->minimap);
      zw_cairo_set_color_alpha (mcr, &colors->background, 0.92);
      cairo_paint (mcr);
      for (guint i = 0; i < l->groups->len; i++)
        {
          const ZwGraphGroup *g = &g_array_index (l->groups, ZwGraphGroup, i);
          GdkRGBA gc = group_fill (colors);
          zw_cairo_set_color (mcr, &gc);
          cairo_rectangle (mcr, g->x0 * s, g->y0 * s, MAX ((g->x1 - g->x0) * s, 1), MAX ((g->y1 - g->y0) * s, 1));
          cairo_fill (mcr);
        }
      for (int k = 0; k < ZW_GRAPH_N_NODE_KINDS; k++)
        {
          GdkRGBA nc = zw_graph_view_node_color (colors, (ZwGraphNodeKind) k);
          int last_x = -1, last_y = -1;
          for (guint i = 0; i < l->nodes->len; i++)
            {
              const ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, i);
              int px = (int) ((n->x - n->w / 2) * s), py = (int) ((n->y - n->h / 2) * s);
              if (n->kind != (ZwGraphNodeKind) k || (px == last_x && py == last_y))
                continue;
              last_x = px;
              last_y = py;
              cairo_rectangle (mcr, px, py, MAX (n->w * s, 1), MAX (n->h * s, 1));
            }
          nc = zw_rgba_mix (&nc, &colors->foreground, 0.3);
          zw_cairo_set_color (mcr, &nc);
          cairo_fill (mcr);
        }
      cairo_destroy (mcr);
    }
  cairo_save (cr);
  cairo_set_source_surface (cr, c->minimap, mx, my);
  cairo_paint (cr);
  zw_cairo_set_color (cr, &colors->grid);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, mx - 0.5, my - 0.5, mw + 1, mh + 1);
  cairo_stroke (cr);
  /* what the view shows */
  {
    double vx0 = MAX (vp->x * s, 0), vy0 = MAX (vp->y * s, 0);
    double vx1 = MIN ((vp->x + width / vp->scale) * s, mw), vy1 = MIN ((vp->y + height / vp->scale) * s, mh);
    if (vx1 > vx0 && vy1 > vy0)
      {
        zw_cairo_set_color_alpha (cr, &colors->accent, 0.25);
        cairo_rectangle (cr, mx + vx0, my + vy0, MAX (vx1 - vx0, 2), MAX (vy1 - vy0, 2));
        cairo_fill_preserve (cr);
        zw_cairo_set_color (cr, &colors->accent);
        cairo_stroke (cr);
      }
  }
  cairo_restore (cr);
}

void
zw_graph_view_draw_layout (cairo_t *cr, int width, int height, const ZwGraphLayout *l, const ZwGraphViewport *vp,
                           ZwSelection *selection, const ZwViewStyle *colors)
{
  double lx0, ly0, lx1, ly1, s;
  gint64 sel_op = -1, sel_value = -1;
  gint sel_node = -1, sel_group = -1;
  DrawCache *dc;
  ZwPainter p;
  GdkRGBA node_fill[ZW_GRAPH_N_NODE_KINDS];
  gboolean tiny, coarse;

  g_return_if_fail (cr != NULL && l != NULL && vp != NULL && colors != NULL);

  zw_painter_begin (&p, cr, colors);
  dc = draw_cache (l);
  s = vp->scale;
  lx0 = vp->x;
  ly0 = vp->y;
  lx1 = vp->x + width / s;
  ly1 = vp->y + height / s;
  for (int k = 0; k < ZW_GRAPH_N_NODE_KINDS; k++)
    node_fill[k] = zw_graph_view_node_color (colors, (ZwGraphNodeKind) k);

  if (selection != NULL && zw_selection_get_report (selection) == l->report)
    {
      sel_op = zw_selection_get_selected_op (selection);
      sel_value = zw_selection_get_selected_value (selection);
      sel_node = sel_op >= 0 ? zw_graph_layout_node_of_op (l, sel_op) : -1;
      if (sel_op >= 0 && sel_node < 0)
        for (guint i = 0; i < l->groups->len; i++)
          if (g_array_index (l->groups, ZwGraphGroup, i).op_id == sel_op)
            sel_group = (gint) i;
    }
  /* level of detail: a node under a few pixels is a dot, under a line of text a bare box */
  tiny = NODE_PIXELS (l, s) < 4;
  coarse = NODE_PIXELS (l, s) < 12;

  /* groups */
  {
    GdkRGBA gfill = group_fill (colors);
    for (guint i = 0; i < l->groups->len; i++)
      {
        const ZwGraphGroup *g = &g_array_index (l->groups, ZwGraphGroup, i);
        const ZwLaunch *launch = &g_array_index (l->report->launches, ZwLaunch, g->launch);
        double x, y, w, h;
        if (g->x1 < lx0 || g->x0 > lx1 || g->y1 < ly0 || g->y0 > ly1)
          continue;
        x = SX (g->x0);
        y = SY (g->y0);
        w = (g->x1 - g->x0) * s;
        h = (g->y1 - g->y0) * s;
        zw_cairo_set_color (cr, &gfill);
        if (tiny)
          cairo_rectangle (cr, floor (x), floor (y), MAX (ceil (w), 1), MAX (ceil (h), 1));
        else
          rounded_rect (cr, x, y, w, h, 6);
        cairo_fill (cr);
        if (!tiny)
          {
            rounded_rect (cr, x + 0.5, y + 0.5, w - 1, h - 1, 6);
            zw_cairo_set_color_alpha (cr, &colors->accent, (gint) i == sel_group ? 1.0 : 0.45);
            cairo_set_line_width (cr, (gint) i == sel_group ? 3 : 1);
            cairo_stroke (cr);
          }
        if (!coarse && 16 * s >= colors->font_size)
          {
            g_autofree char *title = g_strdup_printf (
                ngettext ("launch %d · op %li · %u op · %u layers", "launch %d · op %li · %u ops · %u layers",
                          launch->merge_from->len),
                g->launch, (long) g->op_id, launch->merge_from->len, launch->layer_count);
            GdkRGBA t = colors->accent;
            zw_painter_text (&p, x + 6, y + GROUP_BAND + 2, 0, 0, w - 12, &t, title);
          }
      }
  }

  /* edges: the plain ones batched per placement, the selected ones on top */
  {
    double lw = tiny ? 1 : CLAMP (1.4 * s, 1, 2.5);
    for (int pl = PLACE_ETM; pl <= PLACE_HOST; pl++)
      {
        GdkRGBA ec = edge_color (colors, (Placement) pl);
        guint n_drawn = 0;
        for (guint i = 0; i < l->edges->len; i++)
          {
            const ZwGraphEdge *e = &g_array_index (l->edges, ZwGraphEdge, i);
            if (e->x1 < lx0 || e->x0 > lx1 || e->y1 < ly0 || e->y0 > ly1)
              continue;
            if ((e->x1 - e->x0) * s < 1 && (e->y1 - e->y0) * s < 1)
              continue;   /* sub-pixel */
            if ((int) placement_of (g_hash_table_lookup (dc->values, &e->v_id)) != pl
                || edge_is_selected (e, l, sel_value, sel_node))
              continue;
            edge_path (cr, l, e, vp, coarse);
            n_drawn++;
          }
        if (n_drawn == 0)
          continue;
        zw_cairo_set_color (cr, &ec);
        cairo_set_line_width (cr, lw);
        cairo_stroke (cr);
        if (!coarse)
          for (guint i = 0; i < l->edges->len; i++)
            {
              const ZwGraphEdge *e = &g_array_index (l->edges, ZwGraphEdge, i);
              if (e->tip_x < lx0 || e->tip_x > lx1 || e->tip_y < ly0 || e->tip_y > ly1
                  || (int) placement_of (g_hash_table_lookup (dc->values, &e->v_id)) != pl
                  || edge_is_selected (e, l, sel_value, sel_node))
                continue;
              arrow_head (cr, l, e, vp, CLAMP (8 * s, 4, 10));
            }
      }
    for (guint i = 0; i < l->edges->len; i++)
      {
        const ZwGraphEdge *e = &g_array_index (l->edges, ZwGraphEdge, i);
        GdkRGBA ec;
        if (!edge_is_selected (e, l, sel_value, sel_node) && (gint) i != vp->hover_edge)
          continue;
        if (e->x1 < lx0 || e->x0 > lx1 || e->y1 < ly0 || e->y0 > ly1)
          continue;
        ec = e->v_id == sel_value ? colors->accent
                                  : edge_color (colors, placement_of (g_hash_table_lookup (dc->values, &e->v_id)));
        zw_cairo_set_color (cr, &ec);
        cairo_set_line_width (cr, e->v_id == sel_value ? lw + 2.5 : lw + 1.2);
        edge_path (cr, l, e, vp, coarse);
        cairo_stroke (cr);
        if (!tiny)
          arrow_head (cr, l, e, vp, CLAMP (10 * s, 5, 12));
      }
  }

  /* the groups' bands, over the edges that enter them */
  {
    GdkRGBA band = zw_graph_view_group_color (colors);
    zw_cairo_set_color (cr, &band);
    for (guint i = 0; i < l->groups->len; i++)
      {
        const ZwGraphGroup *g = &g_array_index (l->groups, ZwGraphGroup, i);
        if (g->x1 < lx0 || g->x0 > lx1 || g->y1 < ly0 || g->y0 > ly1)
          continue;
        cairo_rectangle (cr, floor (SX (g->x0)), floor (SY (g->y0)), MAX (ceil ((g->x1 - g->x0) * s), 1), GROUP_BAND);
      }
    cairo_fill (cr);
  }

  /* nodes */
  for (int k = 0; k < ZW_GRAPH_N_NODE_KINDS; k++)
    {
      int last_x = G_MININT, last_y = G_MININT;
      guint n_drawn = 0;
      for (guint i = 0; i < l->nodes->len; i++)
        {
          const ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, i);
          double x, y, w, h;
          if ((int) n->kind != k || n->x + n->w / 2 < lx0 || n->x - n->w / 2 > lx1 || n->y + n->h / 2 < ly0
              || n->y - n->h / 2 > ly1)
            continue;
          x = SX (n->x - n->w / 2);
          y = SY (n->y - n->h / 2);
          w = n->w * s;
          h = n->h * s;
          if (tiny)
            {
              /* consecutive nodes in one pixel: one rectangle */
              int px = (int) floor (x), py = (int) floor (y);
              if (px == last_x && py == last_y)
                continue;
              last_x = px;
              last_y = py;
              cairo_rectangle (cr, px, py, MAX (ceil (w), 1), MAX (ceil (h), 1));
            }
          else if (n->kind == ZW_GRAPH_NODE_HARDOP)
            cairo_rectangle (cr, x, y, w, h);
          else
            rounded_rect (cr, x, y, w, h, n->kind == ZW_GRAPH_NODE_HOST ? h / 2 : 8 * s);
          n_drawn++;
        }
      if (n_drawn == 0)
        continue;
      zw_cairo_set_color (cr, &node_fill[k]);
      if (tiny)
        {
          cairo_fill (cr);
          continue;
        }
      cairo_fill_preserve (cr);
      zw_cairo_set_color_alpha (cr, &colors->foreground, 0.55);
      cairo_set_line_width (cr, 1);
      if (k == ZW_GRAPH_NODE_CUSTOM)
        {
          /* custom ops: a dashed border */
          const double dash[] = { 4, 3 };
          cairo_set_dash (cr, dash, 2, 0);
          cairo_set_line_width (cr, 1.5);
        }
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }

  /* highlights and text */
  for (guint i = 0; i < l->nodes->len; i++)
    {
      const ZwGraphNode *n = &g_array_index (l->nodes, ZwGraphNode, i);
      const ZwOpInfo *op = &g_array_index (l->report->ops, ZwOpInfo, n->op_index);
      double x, y, w, h;
      gboolean matched;
      if (n->x + n->w / 2 < lx0 || n->x - n->w / 2 > lx1 || n->y + n->h / 2 < ly0 || n->y - n->h / 2 > ly1)
        continue;
      x = SX (n->x - n->w / 2);
      y = SY (n->y - n->h / 2);
      w = n->w * s;
      h = n->h * s;
      matched = vp->search != NULL && *vp->search != '\0' && zw_graph_op_matches (op, vp->search);
      if (matched)
        {
          zw_cairo_set_color (cr, &colors->warning);
          cairo_set_line_width (cr, 2.5);
          cairo_rectangle (cr, x - 3, y - 3, w + 6, h + 6);
          cairo_stroke (cr);
        }
      if ((gint) i == sel_node)
        {
          zw_cairo_set_color (cr, &colors->accent);
          cairo_set_line_width (cr, 3);
          cairo_rectangle (cr, x - 1.5, y - 1.5, w + 3, h + 3);
          cairo_stroke (cr);
          if (tiny)
            {
              /* a dot would be lost: a marker that shows at any zoom */
              cairo_arc (cr, x + w / 2, y + h / 2, 6, 0, 2 * G_PI);
              cairo_fill (cr);
            }
        }
      else if ((gint) i == vp->hover_node && !tiny)
        {
          zw_cairo_set_color (cr, &colors->hover);
          cairo_rectangle (cr, x, y, w, h);
          cairo_fill (cr);
        }
      if (!coarse && h >= colors->font_size * 1.2)
        draw_node_text (&p, l, n, x, y, w, h);
    }

  /* value labels: in the boxes dot reserved for them between the ranks, when readable */
  if (vp->labels && !coarse)
    for (guint i = 0; i < l->edges->len; i++)
      {
        const ZwGraphEdge *e = &g_array_index (l->edges, ZwGraphEdge, i);
        g_autofree char *label = NULL;
        GdkRGBA tc = e->v_id == sel_value ? colors->accent : colors->foreground;
        double bw = e->label_w * s, bh = e->label_h * s;
        if (e->label_w <= 0 || bh < colors->font_size || e->label_x + e->label_w / 2 < lx0
            || e->label_x - e->label_w / 2 > lx1 || e->label_y + e->label_h / 2 < ly0
            || e->label_y - e->label_h / 2 > ly1)
          continue;
        label = zw_graph_edge_label (g_hash_table_lookup (dc->values, &e->v_id), e->v_id);
        if (e->v_id != sel_value)
          tc.alpha *= 0.8f;
        /* clipped to its box: the text never reaches a node */
        cairo_save (cr);
        cairo_rectangle (cr, SX (e->label_x) - bw / 2, SY (e->label_y) - bh / 2, bw, bh);
        cairo_clip (cr);
        zw_painter_text (&p, SX (e->label_x) - bw / 2, SY (e->label_y), 0, 0.5, bw, &tc, label);
        cairo_restore (cr);
      }

  draw_minimap (cr, width, height, l, vp, colors);

  /* the legend: what the colours mean */
  if (vp->legend)
  {
    const char *names[] = { N_("hardop"), N_("host op"), N_("custom op") };
    const Placement places[] = { PLACE_ETM, PLACE_OCM, PLACE_HOST };
    const char *place_names[] = { N_("ETM"), N_("OCM"), N_("host") };
    double x = 8, y = height - ZW_GRAPH_LEGEND_HEIGHT / 2.0 - colors->font_size / 2;
    /* a band of its own along the bottom: fitting keeps the graph above it */
    zw_cairo_set_color_alpha (cr, &colors->background, 0.92);
    cairo_rectangle (cr, 0, height - ZW_GRAPH_LEGEND_HEIGHT, width, ZW_GRAPH_LEGEND_HEIGHT);
    cairo_fill (cr);
    zw_cairo_set_color (cr, &colors->grid);
    cairo_set_line_width (cr, 1);
    cairo_move_to (cr, 0, height - ZW_GRAPH_LEGEND_HEIGHT + 0.5);
    cairo_line_to (cr, width, height - ZW_GRAPH_LEGEND_HEIGHT + 0.5);
    cairo_stroke (cr);
    for (int k = 0; k < ZW_GRAPH_N_NODE_KINDS; k++)
      {
        zw_cairo_set_color (cr, &node_fill[k]);
        cairo_rectangle (cr, x, y, 14, colors->font_size);
        cairo_fill_preserve (cr);
        zw_cairo_set_color_alpha (cr, &colors->foreground, 0.55);
        cairo_set_line_width (cr, 1);
        cairo_stroke (cr);
        x += 18 + zw_painter_text (&p, x + 18, y + colors->font_size / 2, 0, 0.5, 0, NULL, _(names[k])) + 12;
      }
    for (int k = 0; k < 3; k++)
      {
        GdkRGBA ec = edge_color (colors, places[k]);
        zw_cairo_set_color (cr, &ec);
        cairo_set_line_width (cr, 3);
        cairo_move_to (cr, x, y + colors->font_size / 2);
        cairo_line_to (cr, x + 16, y + colors->font_size / 2);
        cairo_stroke (cr);
        x += 20 + zw_painter_text (&p, x + 20, y + colors->font_size / 2, 0, 0.5, 0, NULL, _(place_names[k])) + 12;
      }
    if (l->edges_guessed)
      zw_painter_text (&p, x, y + colors->font_size / 2, 0, 0.5, 0, &colors->warning,
                       _("edges approximated: the report has no graph"));
  }

  zw_painter_clear (&p);
  cairo_restore (cr);
}

void
zw_graph_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                    const ZwViewStyle *colors)
{
  ZwGraphLayout *layout;
  ZwGraphViewport vp;

  g_return_if_fail (cr != NULL && colors != NULL);

  if (report == NULL || (layout = zw_graph_layout_get_cached (report)) == NULL)
    {
      ZwPainter p;
      zw_painter_begin (&p, cr, colors);
      zw_draw_empty (&p, width, height, report == NULL ? _("No deploy report") : _("The graph could not be laid out"));
      zw_painter_clear (&p);
      cairo_restore (cr);
      return;
    }
  zw_graph_viewport_init (&vp);
  zw_graph_viewport_fit (&vp, layout, width, height);
  if (selection != NULL && zw_selection_get_selected_op (selection) >= 0)
    {
      gint node = zw_graph_layout_node_of_op (layout, zw_selection_get_selected_op (selection));
      if (node >= 0)
        {
          const ZwGraphNode *n = &g_array_index (layout->nodes, ZwGraphNode, node);
          vp.scale = 1;
          zw_graph_viewport_center (&vp, n->x, n->y, width, height);
        }
    }
  zw_graph_view_draw_layout (cr, width, height, layout, &vp, selection, colors);
}

#undef SX
#undef SY
