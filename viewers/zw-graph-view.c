/* zw-graph-view.c — the network graph: drawing (plain cairo) and the widget. */
#include "zw-graph-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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

gboolean
zw_graph_op_matches (const ZwOpInfo *op, const char *search)
{
  g_autofree char *needle = NULL;
  char id[32];

  if (op == NULL || search == NULL || *search == '\0')
    return FALSE;
  g_snprintf (id, sizeof id, "%" G_GINT64_FORMAT, op->op_id);
  if (g_str_equal (search, id) || (search[0] == '#' && g_str_equal (search + 1, id)))
    return TRUE;
  needle = g_utf8_casefold (search, -1);
  {
    const char *fields[] = { op->name, op->op_class, op->kind };
    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      {
        g_autofree char *hay = fields[i] != NULL ? g_utf8_casefold (fields[i], -1) : NULL;
        if (hay != NULL && strstr (hay, needle) != NULL)
          return TRUE;
      }
  }
  return FALSE;
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

/* ---- viewport --------------------------------------------------------------------- */

void
zw_graph_viewport_init (ZwGraphViewport *vp)
{
  g_return_if_fail (vp != NULL);
  memset (vp, 0, sizeof *vp);
  vp->scale = 1;
  vp->minimap = TRUE;
  vp->legend = TRUE;
  vp->hover_node = vp->hover_edge = -1;
}

void
zw_graph_viewport_fit (ZwGraphViewport *vp, const ZwGraphLayout *layout, int width, int height)
{
  g_return_if_fail (vp != NULL && layout != NULL);

  vp->scale = MIN (1.0, MIN (width / MAX (layout->width, 1.0), height / MAX (layout->height, 1.0)));
  vp->scale = MAX (vp->scale, 1e-5);
  /* centred */
  vp->x = layout->width / 2 - width / 2.0 / vp->scale;
  vp->y = layout->height / 2 - height / 2.0 / vp->scale;
}

void
zw_graph_viewport_center (ZwGraphViewport *vp, double x, double y, int width, int height)
{
  g_return_if_fail (vp != NULL);
  vp->x = x - width / 2.0 / vp->scale;
  vp->y = y - height / 2.0 / vp->scale;
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

/* "1×32×88×160 · int8 · 880 KiB · OCM (OPTION2)"; caller frees. */
static char *
value_label (const ZwDeployReport *report, const ZwValueInfo *v, gint64 v_id)
{
  GString *s = g_string_new (NULL);
  g_autofree char *bytes = NULL;

  g_string_append_printf (s, "v%" G_GINT64_FORMAT, v_id);
  if (v == NULL)
    return g_string_free (s, FALSE);
  g_string_append (s, "  ");
  for (guint i = 0; i < v->shape->len; i++)
    g_string_append_printf (s, i ? "×%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (v->shape, gint64, i));
  if (v->dtype != NULL && *v->dtype != '\0')
    g_string_append_printf (s, " · %s", v->dtype);
  bytes = zw_format_bytes (v->byte_size);
  g_string_append_printf (s, " · %s · ", bytes);
  switch (placement_of (v))
    {
    case PLACE_OCM:
      /* the OCM option that put it there; NONE: the compiler did (Buyi) */
      if (report->ocm_chosen != ZW_OCM_NONE)
        g_string_append_printf (s, _("OCM (%s)"), zw_ocm_opt_get_label (report->ocm_chosen));
      else
        g_string_append (s, _("OCM"));
      break;
    case PLACE_ETM:
      g_string_append (s, _("ETM"));
      break;
    case PLACE_HOST:
    default:
      g_string_append (s, _("host"));
      break;
    }
  return g_string_free (s, FALSE);
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
  const double max_w = 160, max_h = 200, margin = 10;
  double s = MIN (max_w / MAX (l->width, 1), max_h / MAX (l->height, 1));
  int mw = MAX (8, (int) ceil (l->width * s)), mh = MAX (8, (int) ceil (l->height * s));
  double mx = width - mw - margin, my = height - mh - margin;

  if (mx < width / 2.0 || my < height / 2.0)
    return;   /* the view is too small for it */
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

/* Where the minimap is for a layout in a view of @width x @height; FALSE when not drawn. */
static gboolean
minimap_rect (const ZwGraphLayout *l, int width, int height, double *mx, double *my, double *s)
{
  const double max_w = 160, max_h = 200, margin = 10;
  int mw, mh;

  *s = MIN (max_w / MAX (l->width, 1), max_h / MAX (l->height, 1));
  mw = MAX (8, (int) ceil (l->width * *s));
  mh = MAX (8, (int) ceil (l->height * *s));
  *mx = width - mw - margin;
  *my = height - mh - margin;
  return !(*mx < width / 2.0 || *my < height / 2.0);
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

  /* value labels, when they fit */
  if (!coarse && s >= 0.6)
    for (guint i = 0; i < l->edges->len; i++)
      {
        const ZwGraphEdge *e = &g_array_index (l->edges, ZwGraphEdge, i);
        const ZwValueInfo *v;
        g_autofree char *label = NULL;
        double tw, fs = colors->font_size;
        if (e->mid_x < lx0 || e->mid_x > lx1 || e->mid_y < ly0 || e->mid_y > ly1)
          continue;
        /* one label per value and reader: long edges only (short ones sit between ranks) */
        v = g_hash_table_lookup (dc->values, &e->v_id);
        label = value_label (l->report, v, e->v_id);
        tw = zw_painter_text_width (&p, label);
        zw_cairo_set_color_alpha (cr, &colors->background, 0.85);
        cairo_rectangle (cr, SX (e->mid_x) + 4, SY (e->mid_y) - fs * 0.7, tw + 4, fs * 1.4);
        cairo_fill (cr);
        {
          GdkRGBA tc = e->v_id == sel_value ? colors->accent : colors->foreground;
          if (e->v_id != sel_value)
            tc.alpha *= 0.8f;
          zw_painter_text (&p, SX (e->mid_x) + 6, SY (e->mid_y), 0, 0.5, 0, &tc, label);
        }
      }

  if (vp->minimap && (l->width * s > width || l->height * s > height))
    draw_minimap (cr, width, height, l, vp, colors);

  /* the legend: what the colours mean */
  if (vp->legend)
  {
    const char *names[] = { N_("hardop"), N_("host op"), N_("custom op") };
    const Placement places[] = { PLACE_ETM, PLACE_OCM, PLACE_HOST };
    const char *place_names[] = { N_("ETM"), N_("OCM"), N_("host") };
    double x = 8, y = height - 8 - colors->font_size;
    zw_cairo_set_color_alpha (cr, &colors->background, 0.85);
    cairo_rectangle (cr, 0, y - 6, MIN (width, 520), colors->font_size + 14);
    cairo_fill (cr);
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

/* ---- the widget ------------------------------------------------------------------- */

struct _ZwGraphView
{
  ZwView parent_instance;
  GtkWidget *overlay;
  GtkWidget *canvas;       /* ZwDrawArea */
  GtkWidget *search_bar;   /* revealer */
  GtkWidget *search_entry;
  GtkWidget *search_label;
  ZwGraphLayout *layout;
  ZwDeployReport *laying_out; /* the report of the running task */
  GCancellable *cancellable;
  ZwGraphViewport vp;
  char *search;
  guint match_pos;
  gboolean fitted;          /* the viewport was set for this layout */
  double drag_x, drag_y;    /* viewport at drag start */
  double pointer_x, pointer_y;
};

G_DEFINE_FINAL_TYPE (ZwGraphView, zw_graph_view, ZW_TYPE_VIEW)

enum { PROP_0, PROP_BUSY, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void start_layout (ZwGraphView *self);

static void
canvas_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer data)
{
  ZwGraphView *self = data;
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  ZwPainter p;

  if (self->layout != NULL && !self->fitted && width > 0 && height > 0)
    {
      /* the first frame of a layout: fit, or show the selection */
      gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));
      gint node = op >= 0 ? zw_graph_layout_node_of_op (self->layout, op) : -1;
      zw_graph_viewport_fit (&self->vp, self->layout, width, height);
      if (self->vp.scale < 0.6)
        {
          /* a tall network fitted is unreadable: its top at a readable scale, the
           * minimap for the rest */
          self->vp.scale = MAX (self->vp.scale, MIN (1.0, width / MAX (self->layout->width, 1.0)));
          self->vp.scale = MAX (self->vp.scale, 0.6);
          self->vp.x = self->layout->width / 2 - width / 2.0 / self->vp.scale;
          self->vp.y = 0;
        }
      if (node >= 0)
        {
          const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
          self->vp.scale = MAX (self->vp.scale, 0.8);
          zw_graph_viewport_center (&self->vp, n->x, n->y, width, height);
        }
      self->fitted = TRUE;
    }
  if (self->layout != NULL)
    {
      self->vp.search = self->search;
      zw_graph_view_draw_layout (cr, width, height, self->layout, &self->vp, zw_view_get_selection (ZW_VIEW (self)),
                                 colors);
      return;
    }
  zw_painter_begin (&p, cr, colors);
  if (report == NULL)
    zw_draw_empty (&p, width, height, _("No deploy report"));
  else
    {
      g_autofree char *msg = g_strdup_printf (ngettext ("Laying out %u op…", "Laying out %u ops…", report->ops->len),
                                              report->ops->len);
      zw_draw_empty (&p, width, height, msg);
    }
  zw_painter_clear (&p);
  cairo_restore (cr);
}

static void
redraw (ZwGraphView *self)
{
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->canvas));
}

static int
canvas_width (ZwGraphView *self)
{
  return MAX (gtk_widget_get_width (self->canvas), 1);
}

static int
canvas_height (ZwGraphView *self)
{
  return MAX (gtk_widget_get_height (self->canvas), 1);
}

/* Brings a node (or an edge's middle) into sight: centred when outside the view. */
static void
reveal_point (ZwGraphView *self, double x, double y, double margin)
{
  int w = canvas_width (self), h = canvas_height (self);
  double s = self->vp.scale;

  if (!self->fitted)
    return;   /* the first frame centres on the selection */
  if (x - margin < self->vp.x || y - margin < self->vp.y || x + margin > self->vp.x + w / s
      || y + margin > self->vp.y + h / s)
    {
      /* too far out to read: come close enough */
      if (s < 0.5)
        self->vp.scale = s = 0.8;
      zw_graph_viewport_center (&self->vp, x, y, w, h);
    }
}

static void
reveal_selection (ZwGraphView *self)
{
  ZwSelection *sel = zw_view_get_selection (ZW_VIEW (self));
  gint64 op = zw_selection_get_selected_op (sel), value = zw_selection_get_selected_value (sel);
  gint node, edge;

  if (self->layout == NULL || self->layout->report != zw_selection_get_report (sel))
    return;
  node = op >= 0 ? zw_graph_layout_node_of_op (self->layout, op) : -1;
  if (node >= 0)
    {
      const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
      reveal_point (self, n->x, n->y, n->w / 2);
      return;
    }
  if (op >= 0)
    for (guint i = 0; i < self->layout->groups->len; i++)
      {
        const ZwGraphGroup *g = &g_array_index (self->layout->groups, ZwGraphGroup, i);
        if (g->op_id == op)
          {
            reveal_point (self, (g->x0 + g->x1) / 2, g->y0 + 40, 40);
            return;
          }
      }
  edge = value >= 0 ? zw_graph_layout_edge_of_value (self->layout, value) : -1;
  if (edge >= 0)
    {
      const ZwGraphEdge *e = &g_array_index (self->layout->edges, ZwGraphEdge, edge);
      reveal_point (self, e->mid_x, e->mid_y, 20);
    }
}

static void
set_layout (ZwGraphView *self, ZwGraphLayout *layout)
{
  g_clear_pointer (&self->layout, zw_graph_layout_unref);
  self->layout = layout != NULL ? zw_graph_layout_ref (layout) : NULL;
  self->fitted = FALSE;
  self->vp.hover_node = self->vp.hover_edge = -1;
  redraw (self);
}

static void
set_busy (ZwGraphView *self, ZwDeployReport *report)
{
  gboolean was = self->laying_out != NULL;

  if (report != NULL)
    zw_deploy_report_ref (report);
  g_clear_pointer (&self->laying_out, zw_deploy_report_unref);
  self->laying_out = report;
  if (was != (report != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
layout_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  ZwGraphLayout *layout;

  (void) source;
  layout = zw_graph_layout_new (task_data, cancellable, &error);
  if (layout == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) zw_graph_layout_unref);
}

static void
layout_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwGraphLayout) layout = g_task_propagate_pointer (G_TASK (result), &error);
  ZwGraphView *self;

  (void) data;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* the view moved on (or went away): it holds no reference of ours */
  self = ZW_GRAPH_VIEW (source);
  if (layout == NULL)
    g_warning ("%s", error->message);
  if (layout != NULL && layout->report == zw_view_get_report (ZW_VIEW (self)))
    {
      zw_graph_layout_set_cached (layout);
      set_layout (self, layout);
    }
  g_clear_object (&self->cancellable);
  set_busy (self, NULL);
}

static void
start_layout (ZwGraphView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  g_autoptr (GTask) task = NULL;

  if (report == NULL || (self->layout != NULL && self->layout->report == report) || self->laying_out == report)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, NULL);
  self->cancellable = g_cancellable_new ();
  set_busy (self, report);
  task = g_task_new (self, self->cancellable, layout_done, NULL);
  g_task_set_source_tag (task, start_layout);
  g_task_set_task_data (task, zw_deploy_report_ref (report), (GDestroyNotify) zw_deploy_report_unref);
  g_task_run_in_thread (task, layout_thread);
}

static void
report_changed (ZwGraphView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));

  if (self->layout != NULL && self->layout->report == report)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, NULL);
  set_layout (self, NULL);
  if (report == NULL)
    return;
  /* laid out already (an export, an earlier visit)? */
  if (zw_graph_layout_peek_cached (report) != NULL)
    {
      set_layout (self, zw_graph_layout_peek_cached (report));
      return;
    }
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_layout (self);
}

static void
zw_graph_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (view);

  if (g_str_equal (pspec->name, "report"))
    report_changed (self);
  else if (g_str_equal (pspec->name, "selected-op") || g_str_equal (pspec->name, "selected-value"))
    {
      reveal_selection (self);
      redraw (self);
    }
}

static void
zw_graph_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (zw_graph_view_parent_class)->map (widget);
  start_layout (ZW_GRAPH_VIEW (widget));
}

/* ---- pointer ---- */

static void
to_layout (ZwGraphView *self, double x, double y, double *lx, double *ly)
{
  *lx = self->vp.x + x / self->vp.scale;
  *ly = self->vp.y + y / self->vp.scale;
}

static gboolean
in_minimap (ZwGraphView *self, double x, double y, double *lx, double *ly)
{
  double mx, my, s;

  if (self->layout == NULL || !self->vp.minimap
      || !(self->layout->width * self->vp.scale > canvas_width (self)
           || self->layout->height * self->vp.scale > canvas_height (self))
      || !minimap_rect (self->layout, canvas_width (self), canvas_height (self), &mx, &my, &s))
    return FALSE;
  if (x < mx || y < my || x > mx + self->layout->width * s || y > my + self->layout->height * s)
    return FALSE;
  *lx = (x - mx) / s;
  *ly = (y - my) / s;
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, ZwGraphView *self)
{
  ZwSelection *sel = zw_view_get_selection (ZW_VIEW (self));
  double lx, ly;
  gint node, edge;

  (void) gesture;
  gtk_widget_grab_focus (self->canvas);
  if (self->layout == NULL)
    return;
  if (in_minimap (self, x, y, &lx, &ly))
    {
      zw_graph_viewport_center (&self->vp, lx, ly, canvas_width (self), canvas_height (self));
      redraw (self);
      return;
    }
  to_layout (self, x, y, &lx, &ly);
  node = zw_graph_layout_node_at (self->layout, lx, ly);
  if (node >= 0)
    {
      zw_selection_set_selected_op (sel, g_array_index (self->layout->nodes, ZwGraphNode, node).op_id);
      if (n_press == 2)
        {
          /* a double click reads the op at 100 % */
          const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
          self->vp.scale = 1;
          zw_graph_viewport_center (&self->vp, n->x, n->y, canvas_width (self), canvas_height (self));
          redraw (self);
        }
      return;
    }
  edge = zw_graph_layout_edge_at (self->layout, lx, ly, 5 / self->vp.scale);
  if (edge >= 0)
    zw_selection_set_selected_value (sel, g_array_index (self->layout->edges, ZwGraphEdge, edge).v_id);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, ZwGraphView *self)
{
  double lx, ly;
  gint node = -1, edge = -1;

  (void) motion;
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->layout == NULL)
    return;
  to_layout (self, x, y, &lx, &ly);
  node = zw_graph_layout_node_at (self->layout, lx, ly);
  if (node < 0)
    edge = zw_graph_layout_edge_at (self->layout, lx, ly, 5 / self->vp.scale);
  if (node != self->vp.hover_node || edge != self->vp.hover_edge)
    {
      self->vp.hover_node = node;
      self->vp.hover_edge = edge;
      if (node >= 0)
        {
          const ZwOpInfo *op = &g_array_index (self->layout->report->ops, ZwOpInfo,
                                               g_array_index (self->layout->nodes, ZwGraphNode, node).op_index);
          g_autofree char *tip = g_strdup_printf (_("op %li · %s · %s"), (long) op->op_id, op->op_class,
                                                  op->name != NULL ? op->name : op->kind);
          gtk_widget_set_tooltip_text (self->canvas, tip);
        }
      else if (edge >= 0)
        {
          const ZwGraphEdge *e = &g_array_index (self->layout->edges, ZwGraphEdge, edge);
          g_autofree char *tip = value_label (self->layout->report,
                                              zw_deploy_report_find_value (self->layout->report, e->v_id), e->v_id);
          gtk_widget_set_tooltip_text (self->canvas, tip);
        }
      else
        gtk_widget_set_tooltip_text (self->canvas, NULL);
      redraw (self);
    }
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, ZwGraphView *self)
{
  (void) drag;
  (void) x;
  (void) y;
  self->drag_x = self->vp.x;
  self->drag_y = self->vp.y;
}

static void
on_drag_update (GtkGestureDrag *drag, double dx, double dy, ZwGraphView *self)
{
  (void) drag;
  if (self->layout == NULL)
    return;
  self->vp.x = self->drag_x - dx / self->vp.scale;
  self->vp.y = self->drag_y - dy / self->vp.scale;
  redraw (self);
}

static void
zoom_at (ZwGraphView *self, double factor, double x, double y)
{
  double lx, ly;

  if (self->layout == NULL)
    return;
  to_layout (self, x, y, &lx, &ly);
  self->vp.scale = CLAMP (self->vp.scale * factor, 1e-4, 4);
  self->vp.x = lx - x / self->vp.scale;
  self->vp.y = ly - y / self->vp.scale;
  redraw (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, ZwGraphView *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (self->layout == NULL)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    zoom_at (self, dy < 0 ? 1.2 : 1 / 1.2, self->pointer_x, self->pointer_y);
  else
    {
      self->vp.x += dx * 40 / self->vp.scale;
      self->vp.y += dy * 40 / self->vp.scale;
      redraw (self);
    }
  return TRUE;
}

/* ---- keyboard: along the edges ---- */

static gint
selected_node (ZwGraphView *self)
{
  gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));

  return self->layout != NULL && op >= 0 ? zw_graph_layout_node_of_op (self->layout, op) : -1;
}

static void
select_node (ZwGraphView *self, gint node)
{
  if (node >= 0)
    zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)),
                                  g_array_index (self->layout->nodes, ZwGraphNode, node).op_id);
}

/* The neighbour of @node along the edges: @down to readers, else writers; the leftmost. */
static gint
neighbour (ZwGraphView *self, gint node, gboolean down)
{
  gint best = -1;
  double best_x = G_MAXDOUBLE;

  for (guint i = 0; i < self->layout->edges->len; i++)
    {
      const ZwGraphEdge *e = &g_array_index (self->layout->edges, ZwGraphEdge, i);
      gint other = down ? ((gint) e->from == node ? (gint) e->to : -1) : ((gint) e->to == node ? (gint) e->from : -1);
      if (other >= 0 && g_array_index (self->layout->nodes, ZwGraphNode, other).x < best_x)
        {
          best_x = g_array_index (self->layout->nodes, ZwGraphNode, other).x;
          best = other;
        }
    }
  return best;
}

/* The nearest node on the same rank to the left (@dir < 0) or right. */
static gint
beside (ZwGraphView *self, gint node, int dir)
{
  const ZwGraphNode *n = &g_array_index (self->layout->nodes, ZwGraphNode, node);
  gint best = -1;
  double best_d = G_MAXDOUBLE;

  for (guint i = 0; i < self->layout->nodes->len; i++)
    {
      const ZwGraphNode *m = &g_array_index (self->layout->nodes, ZwGraphNode, i);
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

static void
action_move (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);
  gint node = selected_node (self), next = -1;

  (void) param;
  if (self->layout == NULL || self->layout->nodes->len == 0)
    return;
  if (node < 0)
    {
      /* nothing selected: start at the first op */
      select_node (self, 0);
      return;
    }
  if (g_str_equal (action, "graph.down"))
    next = neighbour (self, node, TRUE);
  else if (g_str_equal (action, "graph.up"))
    next = neighbour (self, node, FALSE);
  else if (g_str_equal (action, "graph.left"))
    next = beside (self, node, -1);
  else
    next = beside (self, node, 1);
  select_node (self, next);
}

static void
action_zoom (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);
  int w = canvas_width (self), h = canvas_height (self);

  (void) param;
  if (self->layout == NULL)
    return;
  if (g_str_equal (action, "graph.zoom-in"))
    zoom_at (self, 1.25, w / 2.0, h / 2.0);
  else if (g_str_equal (action, "graph.zoom-out"))
    zoom_at (self, 0.8, w / 2.0, h / 2.0);
  else if (g_str_equal (action, "graph.zoom-fit"))
    {
      zw_graph_viewport_fit (&self->vp, self->layout, w, h);
      redraw (self);
    }
  else
    zoom_at (self, 1 / self->vp.scale, w / 2.0, h / 2.0);
}

static void
action_minimap (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);

  (void) action;
  (void) param;
  self->vp.minimap = !self->vp.minimap;
  redraw (self);
}

static void
action_find (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (widget);

  (void) action;
  (void) param;
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->search_bar), TRUE);
  gtk_widget_grab_focus (self->search_entry);
}

static void
action_find_next (GtkWidget *widget, const char *action, GVariant *param)
{
  (void) action;
  (void) param;
  zw_graph_view_next_match (ZW_GRAPH_VIEW (widget));
}

static void
on_search_changed (GtkSearchEntry *entry, ZwGraphView *self)
{
  guint n = zw_graph_view_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_autofree char *text = NULL;

  if (self->search != NULL && *self->search != '\0')
    text = g_strdup_printf (ngettext ("%u match", "%u matches", n), n);
  gtk_label_set_text (GTK_LABEL (self->search_label), text != NULL ? text : "");
}

static void
on_search_activate (GtkSearchEntry *entry, ZwGraphView *self)
{
  (void) entry;
  zw_graph_view_next_match (self);
}

static void
on_search_stop (GtkSearchEntry *entry, ZwGraphView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->search_bar), FALSE);
  gtk_widget_grab_focus (self->canvas);
}

guint
zw_graph_view_search (ZwGraphView *self, const char *text)
{
  guint n = 0;

  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), 0);

  g_free (self->search);
  self->search = g_strdup (text != NULL ? text : "");
  self->match_pos = 0;
  for (guint i = 0; self->layout != NULL && i < self->layout->report->ops->len; i++)
    n += zw_graph_op_matches (&g_array_index (self->layout->report->ops, ZwOpInfo, i), self->search);
  redraw (self);
  return n;
}

gboolean
zw_graph_view_next_match (ZwGraphView *self)
{
  const ZwDeployReport *report;

  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), FALSE);

  if (self->layout == NULL || self->search == NULL || *self->search == '\0')
    return FALSE;
  report = self->layout->report;
  for (guint k = 0; k < report->ops->len; k++)
    {
      guint i = (self->match_pos + k) % report->ops->len;
      const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      if (zw_graph_op_matches (op, self->search))
        {
          self->match_pos = i + 1;
          zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)), op->op_id);
          return TRUE;
        }
    }
  return FALSE;
}

/* ---- GObject ---- */

static void
zw_graph_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, zw_graph_view_get_busy (ZW_GRAPH_VIEW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_graph_view_dispose (GObject *object)
{
  ZwGraphView *self = ZW_GRAPH_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->laying_out, zw_deploy_report_unref);
  g_clear_pointer (&self->overlay, gtk_widget_unparent);
  g_clear_pointer (&self->layout, zw_graph_layout_unref);
  G_OBJECT_CLASS (zw_graph_view_parent_class)->dispose (object);
}

static void
zw_graph_view_finalize (GObject *object)
{
  g_free (ZW_GRAPH_VIEW (object)->search);
  G_OBJECT_CLASS (zw_graph_view_parent_class)->finalize (object);
}

static void
zw_graph_view_constructed (GObject *object)
{
  G_OBJECT_CLASS (zw_graph_view_parent_class)->constructed (object);
  report_changed (ZW_GRAPH_VIEW (object));
}

static void
zw_graph_view_class_init (ZwGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);
  static const struct {
    const char *name;
    guint key;
    GdkModifierType mods;
    GtkWidgetActionActivateFunc func;
  } actions[] = {
    { "graph.zoom-in", GDK_KEY_plus, 0, action_zoom },
    { "graph.zoom-out", GDK_KEY_minus, 0, action_zoom },
    { "graph.zoom-fit", GDK_KEY_0, 0, action_zoom },
    { "graph.zoom-100", GDK_KEY_1, 0, action_zoom },
    { "graph.minimap", GDK_KEY_m, 0, action_minimap },
    { "graph.find", GDK_KEY_f, GDK_CONTROL_MASK, action_find },
    { "graph.find-next", GDK_KEY_g, GDK_CONTROL_MASK, action_find_next },
    { "graph.up", GDK_KEY_Up, 0, action_move },
    { "graph.down", GDK_KEY_Down, 0, action_move },
    { "graph.left", GDK_KEY_Left, 0, action_move },
    { "graph.right", GDK_KEY_Right, 0, action_move },
  };

  object_class->dispose = zw_graph_view_dispose;
  object_class->finalize = zw_graph_view_finalize;
  object_class->constructed = zw_graph_view_constructed;
  object_class->get_property = zw_graph_view_get_property;
  widget_class->map = zw_graph_view_map;
  view_class->draw = zw_graph_view_draw;   /* exports; on screen: the canvas */
  view_class->selection_notify = zw_graph_view_selection_notify;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      gtk_widget_class_install_action (widget_class, actions[i].name, NULL, actions[i].func);
      gtk_widget_class_add_binding_action (widget_class, actions[i].key, actions[i].mods, actions[i].name, NULL);
    }
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "graph.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "graph.zoom-out", NULL);
  gtk_widget_class_set_css_name (widget_class, "zwgraphview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "graph", N_("Graph"), N_("Graph view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_graph_view_init (ZwGraphView *self)
{
  GtkEventController *motion, *scroll;
  GtkGesture *click, *drag;
  GtkWidget *box;

  zw_graph_viewport_init (&self->vp);
  self->canvas = zw_draw_area_new (canvas_draw, NULL, self);
  gtk_widget_set_focusable (self->canvas, TRUE);
  gtk_widget_set_hexpand (self->canvas, TRUE);
  gtk_widget_set_vexpand (self->canvas, TRUE);

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (click));
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (self->canvas, GTK_EVENT_CONTROLLER (drag));
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (self->canvas, motion);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (self->canvas, scroll);

  self->search_entry = gtk_search_entry_new ();
  gtk_widget_set_size_request (self->search_entry, 260, -1);
  g_object_set (self->search_entry, "placeholder-text", _("Op id, name or class"), NULL);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_activate), self);
  g_signal_connect (self->search_entry, "stop-search", G_CALLBACK (on_search_stop), self);
  self->search_label = gtk_label_new (NULL);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (box, "osd");
  gtk_widget_add_css_class (box, "toolbar");
  gtk_box_append (GTK_BOX (box), self->search_entry);
  gtk_box_append (GTK_BOX (box), self->search_label);
  self->search_bar = gtk_revealer_new ();
  gtk_revealer_set_child (GTK_REVEALER (self->search_bar), box);
  gtk_widget_set_halign (self->search_bar, GTK_ALIGN_END);
  gtk_widget_set_valign (self->search_bar, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->search_bar, 6);
  gtk_widget_set_margin_end (self->search_bar, 6);

  self->overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (self->overlay), self->canvas);
  gtk_overlay_add_overlay (GTK_OVERLAY (self->overlay), self->search_bar);
  gtk_widget_set_parent (self->overlay, GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 240);
}

GtkWidget *
zw_graph_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_GRAPH_VIEW, "selection", selection, NULL);
}

ZwGraphLayout *
zw_graph_view_get_layout (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return self->layout;
}

gboolean
zw_graph_view_get_busy (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), FALSE);
  return self->laying_out != NULL;
}

const ZwGraphViewport *
zw_graph_view_get_viewport (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return &self->vp;
}

GtkWidget *
zw_graph_view_get_canvas (ZwGraphView *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_VIEW (self), NULL);
  return self->canvas;
}
