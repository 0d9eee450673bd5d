/* zw-segment-pipeline.c — the Segments view's drawing of a pipeline: the board's map and
 * every network's logic segments on one physical axis (see the header). */
#include "zw-segment-pipeline.h"
#include "zw-board-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#define MARGIN 12.0
#define LABEL_W 120.0
#define ROW_H 34.0
#define ROW_GAP 8.0
#define TOP 52.0

typedef struct {
  double x0, x1, y0;
  guint64 lo, hi;
} Geo;

static gboolean
geo (const ZwPipelineReport *p, int width, Geo *g)
{
  guint64 lo = G_MAXUINT64, hi = 0;

  for (guint i = 0; i < p->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, i);
      if (c->kind == ZW_BOARD_CHUNK_OTHER)
        continue;
      lo = MIN (lo, c->addr);
      hi = MAX (hi, c->addr + c->size);
    }
  if (hi <= lo)
    return FALSE;
  g->lo = lo;
  g->hi = hi;
  g->x0 = MARGIN + LABEL_W;
  g->x1 = MAX (g->x0 + 40, width - MARGIN);
  g->y0 = TOP;
  return TRUE;
}

static double
gx (const Geo *g, guint64 addr)
{
  addr = CLAMP (addr, g->lo, g->hi);
  return g->x0 + (g->x1 - g->x0) * (double) (addr - g->lo) / (double) (g->hi - g->lo);
}

/* The row of network @index (-1: the board), counting only networks on the board. */
static double
row_y (const ZwPipelineReport *p, const Geo *g, gint index)
{
  guint row = 0;

  for (gint i = 0; i < index; i++)
    if (g_array_index (p->networks, ZwPipelineNetwork, i).report != NULL)
      row++;
  return g->y0 + (index < 0 ? 0 : (row + 1) * (ROW_H + ROW_GAP));
}

static guint
n_rows (const ZwPipelineReport *p)
{
  guint n = 1;

  for (guint i = 0; i < p->networks->len; i++)
    if (g_array_index (p->networks, ZwPipelineNetwork, i).report != NULL)
      n++;
  return n;
}

gboolean
zw_segment_pass_rect (const ZwPipelineReport *p, int width, int height, gint index, gint segment, double r[4])
{
  Geo g;
  guint64 addr, size;

  g_return_val_if_fail (p != NULL && r != NULL, FALSE);
  (void) height;
  if (!geo (p, width, &g))
    return FALSE;
  if (index < 0)
    {
      const ZwBoardChunk *c;
      if (segment < 0 || (guint) segment >= p->chunks->len)
        return FALSE;
      c = &g_array_index (p->chunks, ZwBoardChunk, segment);
      if (c->kind == ZW_BOARD_CHUNK_OTHER)
        return FALSE;
      addr = c->addr;
      size = c->size;
    }
  else
    {
      const ZwDeployReport *rep;
      if ((guint) index >= p->networks->len || segment < 0 || segment >= ZW_N_SEGMENTS
          || (rep = g_array_index (p->networks, ZwPipelineNetwork, index).report) == NULL
          || rep->segments[segment].phy_size == 0)
        return FALSE;
      addr = rep->segments[segment].phy_addr;
      size = rep->segments[segment].phy_size;
    }
  if (addr + size <= g.lo || addr >= g.hi)
    return FALSE;
  r[0] = gx (&g, addr);
  r[2] = MAX (gx (&g, addr + size) - r[0], 1.0);
  r[1] = row_y (p, &g, index);
  r[3] = ROW_H;
  return TRUE;
}

static void
draw_marks (ZwPainter *pt, const ZwPipelineReport *p, const Geo *g, double y1)
{
  /* shared segments down every row, striped in their networks' colours */
  for (guint i = 0; i < p->shares->len; i++)
    {
      const ZwPipelineShare *s = &g_array_index (p->shares, ZwPipelineShare, i);
      GdkRGBA c[8];
      guint n = 0;
      for (guint k = 0; k < s->networks->len && n < G_N_ELEMENTS (c); k++)
        {
          gint idx = zw_pipeline_report_find_network (p, g_ptr_array_index (s->networks, k));
          if (idx >= 0)
            {
              zw_board_view_network_color (pt->style, (guint) idx, &c[n]);
              c[n] = zw_rgba_mix (&c[n], &pt->style->background, 0.7);
              n++;
            }
        }
      if (n > 0 && s->size > 0)
        zw_pipeline_draw_stripes (pt->cr, gx (g, s->addr), g->y0 - 4, MAX (gx (g, s->addr + s->size), gx (g, s->addr) + 1),
                                  y1 + 4, c, n, 9);
    }
  /* connections: from the writer's row to the reader's, cross-hatched */
  for (guint i = 0; i < p->connections->len; i++)
    {
      const ZwPipelineConnection *k = &g_array_index (p->connections, ZwPipelineConnection, i);
      GdkRGBA to;
      double ya, yb, xa, xb;
      if (k->size == 0)
        continue;
      ya = MIN (row_y (p, g, k->from), row_y (p, g, k->to));
      yb = MAX (row_y (p, g, k->from), row_y (p, g, k->to)) + ROW_H;
      xa = gx (g, k->addr);
      xb = MAX (gx (g, k->addr + k->size), xa + 2);
      zw_board_view_network_color (pt->style, (guint) k->to, &to);
      zw_pipeline_draw_cross_hatch (pt->cr, xa, ya, xb, yb, &to, 8);
    }
}

/* The board row's shared chunk: striped in its networks' colours (as in Board). */
static gboolean
board_share (const ZwPipelineReport *p, const ZwBoardChunk *c, const ZwViewStyle *colors, cairo_t *cr,
             const double r[4])
{
  for (guint i = 0; i < p->shares->len; i++)
    {
      const ZwPipelineShare *s = &g_array_index (p->shares, ZwPipelineShare, i);
      GdkRGBA col[8];
      guint n = 0;
      if (g_strcmp0 (s->name, c->name) != 0)
        continue;
      for (guint k = 0; k < s->networks->len && n < G_N_ELEMENTS (col); k++)
        {
          gint idx = zw_pipeline_report_find_network (p, g_ptr_array_index (s->networks, k));
          if (idx >= 0)
            zw_board_view_network_color (colors, (guint) idx, &col[n++]);
        }
      if (n == 0)
        return FALSE;
      zw_pipeline_draw_stripes (cr, r[0], r[1], r[0] + r[2], r[1] + r[3], col, n, 7);
      return TRUE;
    }
  return FALSE;
}

/* The board row's connection chunk: the writer's colour, cross-hatched in the reader's. */
static gboolean
board_connection (const ZwPipelineReport *p, const ZwBoardChunk *c, const ZwViewStyle *colors, cairo_t *cr,
                  const double r[4])
{
  for (guint i = 0; i < p->connections->len; i++)
    {
      const ZwPipelineConnection *k = &g_array_index (p->connections, ZwPipelineConnection, i);
      GdkRGBA from, to;
      if (g_strcmp0 (k->name, c->name) != 0)
        continue;
      zw_board_view_network_color (colors, (guint) k->from, &from);
      zw_board_view_network_color (colors, (guint) k->to, &to);
      zw_cairo_set_color (cr, &from);
      cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
      cairo_fill (cr);
      zw_pipeline_draw_cross_hatch (cr, r[0], r[1], r[0] + r[2], r[1] + r[3], &to, 8);
      return TRUE;
    }
  return FALSE;
}

void
zw_segment_pass_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *p, ZwSelection *selection,
                      const ZwViewStyle *colors)
{
  g_autofree char *title = NULL;
  g_autofree char *board = NULL;
  g_autofree char *saved = NULL;
  ZwPainter pt;
  Geo g;
  double y1, r[4];

  g_return_if_fail (cr != NULL && colors != NULL);
  (void) selection;
  zw_painter_begin (&pt, cr, colors);
  if (p == NULL || !geo (p, width, &g))
    {
      zw_draw_empty (&pt, width, height, _("No chunk of the pipeline is in ETM"));
      zw_painter_clear (&pt);
      cairo_restore (cr);
      return;
    }
  board = zw_format_bytes (p->board_bytes);
  saved = zw_format_bytes ((guint64) ABS (p->saved_bytes));
  /* TRANSLATORS: the Segments view of a pipeline: name, networks, ETM on the board, saved against apart */
  title = g_strdup_printf (p->saved_bytes >= 0 ? _("Pipeline %s on %s: %u networks, %s of ETM, %s saved by sharing "
                                                   "and connecting")
                                               : _("Pipeline %s on %s: %u networks, %s of ETM, %s more than apart"),
                           p->name, p->device, p->networks->len, board, saved);
  zw_painter_set_bold (&pt, TRUE);
  zw_painter_text (&pt, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, &colors->foreground, title);
  zw_painter_set_bold (&pt, FALSE);
  zw_painter_text (&pt, MARGIN, MARGIN + 16, 0, 0, width - 2 * MARGIN, &pt.dim,
                   _("The board's ETM, then each network's logic segments at their physical addresses; shared "
                     "segments striped, connections cross-hatched from writer to reader"));
  y1 = row_y (p, &g, (gint) p->networks->len) - ROW_GAP;
  if (n_rows (p) > 0)
    y1 = g.y0 + n_rows (p) * (ROW_H + ROW_GAP) - ROW_GAP;
  draw_marks (&pt, p, &g, y1);

  /* the board's row */
  zw_painter_text (&pt, MARGIN, g.y0 + ROW_H / 2, 0, 0.5, LABEL_W - 8, &colors->foreground, _("Board"));
  for (guint i = 0; i < p->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, i);
      GdkRGBA fill;
      if (!zw_segment_pass_rect (p, width, height, -1, (gint) i, r))
        continue;
      if (c->kind == ZW_BOARD_CHUNK_SHARE && board_share (p, c, colors, cr, r))
        continue;
      if (c->kind == ZW_BOARD_CHUNK_CONNECT && board_connection (p, c, colors, cr, r))
        continue;
      if (c->kind == ZW_BOARD_CHUNK_NETWORK)
        zw_board_view_network_color (colors, (guint) c->network, &fill);
      else
        fill = colors->segment[c->segment >= 0 ? c->segment : ZW_SEGMENT_FTMP];
      zw_cairo_set_color_alpha (cr, &fill, c->kind == ZW_BOARD_CHUNK_NETWORK ? 1.0 : 0.55);
      cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
      cairo_fill (cr);
    }
  /* each network's logic segments */
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      GdkRGBA c;
      double y;
      if (n->report == NULL)
        continue;
      y = row_y (p, &g, (gint) i);
      zw_board_view_network_color (colors, i, &c);
      zw_cairo_set_color (cr, &c);
      cairo_rectangle (cr, MARGIN, y, 6, ROW_H);
      cairo_fill (cr);
      zw_painter_text (&pt, MARGIN + 10, y + ROW_H / 2, 0, 0.5, LABEL_W - 18, &colors->foreground, n->name);
      for (gint t = 0; t < ZW_N_SEGMENTS; t++)
        {
          if (!zw_segment_pass_rect (p, width, height, (gint) i, t, r))
            continue;
          zw_cairo_set_color (cr, &colors->segment[t]);
          cairo_rectangle (cr, r[0], r[1] + 4, r[2], r[3] - 8);
          cairo_fill (cr);
          /* the row's network along the segment's top */
          zw_cairo_set_color (cr, &c);
          cairo_rectangle (cr, r[0], r[1], r[2], 4);
          cairo_fill (cr);
          if (r[2] > 40)
            zw_painter_text (&pt, r[0] + r[2] / 2, r[1] + ROW_H / 2 + 2, 0.5, 0.5, r[2] - 4, &colors->background,
                             zw_segment_type_to_string ((ZwSegmentType) t));
        }
    }
  /* the address axis */
  {
    double span = (double) (g.hi - g.lo), step = zw_nice_bytes_step (span, 6);
    for (double b = 0; step > 0 && b <= span + 0.5; b += step)
      {
        g_autofree char *label = zw_format_axis_bytes (b, span);
        double x = gx (&g, g.lo + (guint64) b);
        zw_cairo_set_color (cr, &colors->grid);
        cairo_move_to (cr, floor (x) + 0.5, y1 + 4);
        cairo_line_to (cr, floor (x) + 0.5, y1 + 8);
        cairo_stroke (cr);
        zw_painter_text (&pt, x, y1 + 10, 0.5, 0, 0, &pt.dim, label);
      }
  }
  zw_painter_clear (&pt);
  cairo_restore (cr);
}
