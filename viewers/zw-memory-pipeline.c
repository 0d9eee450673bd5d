/* zw-memory-pipeline.c — the Memory view's drawing of a pipeline's whole pass: layout, hit
 * test and drawing, pure functions of the pipeline report (see the header). */
#include "zw-memory-pipeline.h"
#include "zw-board-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#define MARGIN 12.0
#define AXIS_W 84.0
#define LANE_H 18.0

static double
line_height (void)
{
  return 16.0;
}

gboolean
zw_memory_pass_layout (const ZwPipelineReport *p, const GArray *chunks, int width, int height, ZwMemPassLayout *l)
{
  double lh = line_height ();
  guint64 lo = G_MAXUINT64, hi = 0;

  g_return_val_if_fail (p != NULL && chunks != NULL && l != NULL, FALSE);
  for (guint i = 0; i < chunks->len; i++)
    {
      const ZwPassChunk *c = &g_array_index (chunks, ZwPassChunk, i);
      lo = MIN (lo, c->addr);
      hi = MAX (hi, c->addr + c->size);
    }
  if (chunks->len == 0 || hi <= lo)
    return FALSE;
  l->lo = lo;
  l->hi = hi;
  l->length = zw_pipeline_pass_length (p);
  l->x0 = MARGIN + AXIS_W;
  l->x1 = MAX (l->x0 + 40, width - MARGIN);
  l->lane_y0 = MARGIN + 2 * lh + 4;
  l->lane_y1 = l->lane_y0 + LANE_H;
  l->y0 = l->lane_y1 + 6;
  /* under the chart: the time axis, then one legend row per four networks */
  l->legend_y = height - MARGIN - lh * ((p->networks->len + 3) / 4 + 1);
  l->axis_y = l->legend_y - lh - 6;
  l->y1 = MAX (l->y0 + 40, l->axis_y - 4);
  return TRUE;
}

double
zw_memory_pass_x (const ZwMemPassLayout *l, double t)
{
  return l->x0 + (l->x1 - l->x0) * t / l->length;
}

static double
addr_y (const ZwMemPassLayout *l, guint64 addr)
{
  return l->y1 - (l->y1 - l->y0) * (double) (addr - l->lo) / (double) (l->hi - l->lo);
}

void
zw_memory_pass_chunk_rect (const ZwMemPassLayout *l, const ZwPassChunk *c, double r[4])
{
  double xa = zw_memory_pass_x (l, c->t0), xb = zw_memory_pass_x (l, c->t1);
  double ya = addr_y (l, c->addr + c->size), yb = addr_y (l, c->addr);

  r[0] = xa;
  r[1] = ya;
  r[2] = MAX (xb - xa, 1.0);
  r[3] = MAX (yb - ya, 1.0);
}

gint
zw_memory_pass_chunk_at (const GArray *chunks, const ZwMemPassLayout *l, double x, double y)
{
  g_return_val_if_fail (chunks != NULL && l != NULL, -1);
  for (guint i = chunks->len; i-- > 0;)
    {
      double r[4];
      zw_memory_pass_chunk_rect (l, &g_array_index (chunks, ZwPassChunk, i), r);
      if (x >= r[0] && x <= r[0] + r[2] && y >= r[1] && y <= r[1] + r[3])
        return (gint) i;
    }
  return -1;
}

static void
draw_axes (ZwPainter *pt, const ZwPipelineReport *p, const ZwMemPassLayout *l, gboolean times)
{
  cairo_t *cr = pt->cr;
  double span = (double) (l->hi - l->lo);
  double step = zw_nice_bytes_step (span, 5);
  double tstep = zw_nice_step (l->length, 8);

  zw_cairo_set_color (cr, &pt->style->grid);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, l->x0 + 0.5, l->y0 + 0.5, l->x1 - l->x0 - 1, l->y1 - l->y0 - 1);
  cairo_stroke (cr);
  for (double b = 0; step > 0 && b <= span + 0.5; b += step)
    {
      g_autofree char *label = zw_format_axis_bytes (b, span);
      double y = addr_y (l, l->lo + (guint64) b);
      zw_painter_text (pt, l->x0 - 4, y, 1, 0.5, AXIS_W - 4, &pt->dim, label);
    }
  for (double t = 0; tstep > 0 && t <= l->length * 1.0001; t += tstep)
    {
      g_autofree char *label = times ? g_strdup_printf ("%g ms", t) : g_strdup_printf ("%g", t);
      double x = zw_memory_pass_x (l, t);
      zw_cairo_set_color_alpha (cr, &pt->style->grid, 0.5);
      cairo_move_to (cr, floor (x) + 0.5, l->y1);
      cairo_line_to (cr, floor (x) + 0.5, l->y1 + 4);
      cairo_stroke (cr);
      zw_painter_text (pt, x, l->axis_y, 0.5, 0, 0, &pt->dim, label);
    }
  /* TRANSLATORS: the Memory view of a pipeline's pass: the y axis is the board's ETM */
  zw_painter_text (pt, MARGIN, l->y0 - 2, 0, 1, AXIS_W, &pt->dim, _("ETM address"));
  (void) p;
}

/* The networks' forwards, end to end, above the chart. */
static void
draw_lane (ZwPainter *pt, const ZwPipelineReport *p, const ZwMemPassLayout *l)
{
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      double t0, t1, xa, xb;
      GdkRGBA c;
      zw_pipeline_pass_network_span (p, i, &t0, &t1);
      xa = zw_memory_pass_x (l, t0);
      xb = zw_memory_pass_x (l, t1);
      zw_board_view_network_color (pt->style, i, &c);
      zw_cairo_set_color (pt->cr, &c);
      cairo_rectangle (pt->cr, xa, l->lane_y0, MAX (xb - xa - 1, 1), l->lane_y1 - l->lane_y0);
      cairo_fill (pt->cr);
      if (!n->on_board)
        zw_pipeline_draw_cross_hatch (pt->cr, xa, l->lane_y0, MAX (xb - 1, xa + 1), l->lane_y1, &pt->style->background, 6);
      /* the band behind the chart: where this network runs */
      zw_cairo_set_color_alpha (pt->cr, &c, 0.06);
      cairo_rectangle (pt->cr, xa, l->y0, MAX (xb - xa, 1), l->y1 - l->y0);
      cairo_fill (pt->cr);
      if (xb - xa > 24)
        zw_painter_text (pt, (xa + xb) / 2, (l->lane_y0 + l->lane_y1) / 2, 0.5, 0.5, xb - xa - 4, &pt->style->background,
                         n->name);
    }
}

/* A shared segment's range: faint stripes in its networks' colours over the whole pass. */
static void
draw_shares (ZwPainter *pt, const ZwPipelineReport *p, const ZwMemPassLayout *l)
{
  for (guint i = 0; i < p->shares->len; i++)
    {
      const ZwPipelineShare *s = &g_array_index (p->shares, ZwPipelineShare, i);
      GdkRGBA c[8];
      guint n = 0;
      double ya, yb;
      g_autofree char *label = NULL;
      if (s->size == 0 || s->addr + s->size <= l->lo || s->addr >= l->hi)
        continue;
      for (guint k = 0; k < s->networks->len && n < G_N_ELEMENTS (c); k++)
        {
          gint idx = zw_pipeline_report_find_network (p, g_ptr_array_index (s->networks, k));
          if (idx >= 0)
            {
              zw_board_view_network_color (pt->style, (guint) idx, &c[n]);
              c[n] = zw_rgba_mix (&c[n], &pt->style->background, 0.75);
              n++;
            }
        }
      if (n == 0)
        c[n++] = pt->style->grid;
      ya = addr_y (l, MIN (s->addr + s->size, l->hi));
      yb = addr_y (l, MAX (s->addr, l->lo));
      zw_pipeline_draw_stripes (pt->cr, l->x0, ya, l->x1, MAX (yb, ya + 1), c, n, 9);
      /* TRANSLATORS: a shared segment's label in the Memory view of a pipeline: its name and type */
      label = g_strdup_printf (_("shared %s (%s)"), s->name, zw_segment_type_to_string ((ZwSegmentType) s->segment));
      if (yb - ya >= 12)
        zw_painter_text (pt, l->x0 + 4, ya + 2, 0, 0, l->x1 - l->x0 - 8, &pt->style->foreground, label);
    }
}

static void
draw_chunk (ZwPainter *pt, const ZwMemPassLayout *l, const ZwPassChunk *c, gboolean selected)
{
  cairo_t *cr = pt->cr;
  double r[4];
  GdkRGBA fill, to;

  zw_memory_pass_chunk_rect (l, c, r);
  zw_board_view_network_color (pt->style, (guint) MAX (c->network, 0), &fill);
  switch (c->kind)
    {
    case ZW_PASS_CHUNK_RESIDENT:
      zw_cairo_set_color_alpha (cr, &fill, 0.35);
      cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
      cairo_fill (cr);
      break;
    case ZW_PASS_CHUNK_CONNECT:
      zw_board_view_network_color (pt->style, (guint) MAX (c->to_network, 0), &to);
      zw_cairo_set_color (cr, &fill);
      cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
      cairo_fill (cr);
      zw_pipeline_draw_cross_hatch (cr, r[0], r[1], r[0] + r[2], r[1] + r[3], &to, 8);
      break;
    case ZW_PASS_CHUNK_FTMP:
    case ZW_PASS_CHUNK_IO:
      zw_cairo_set_color (cr, &fill);
      cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
      cairo_fill (cr);
      if (r[2] >= 4 && r[3] >= 4)
        {
          /* the chunks of one network stay apart */
          zw_cairo_set_color_alpha (cr, &pt->style->background, 0.6);
          cairo_set_line_width (cr, 1);
          cairo_rectangle (cr, r[0] + 0.5, r[1] + 0.5, r[2] - 1, r[3] - 1);
          cairo_stroke (cr);
        }
      break;
    }
  if (selected)
    {
      zw_cairo_set_color (cr, &pt->style->accent);
      cairo_set_line_width (cr, 2.5);
      cairo_rectangle (cr, r[0] - 1, r[1] - 1, r[2] + 2, r[3] + 2);
      cairo_stroke (cr);
    }
}

static void
draw_legend (ZwPainter *pt, const ZwPipelineReport *p, const ZwMemPassLayout *l, double width)
{
  double lh = line_height (), col = MAX ((width - 2 * MARGIN) / 4, 80);

  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      double x = MARGIN + col * (i % 4), y = l->legend_y + lh * (i / 4);
      GdkRGBA c;
      g_autofree char *text = NULL;
      zw_board_view_network_color (pt->style, i, &c);
      zw_cairo_set_color (pt->cr, &c);
      cairo_rectangle (pt->cr, x, y + 3, 12, 10);
      cairo_fill (pt->cr);
      if (n->time_ms >= 0)
        text = g_strdup_printf (_("%s, %.3f ms"), n->name, n->time_ms);
      else
        text = g_strdup (n->name);
      zw_painter_text (pt, x + 16, y, 0, 0, col - 20, &pt->style->foreground, text);
    }
}

void
zw_memory_pass_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *p, ZwSelection *selection,
                     const ZwViewStyle *colors)
{
  g_autoptr (GArray) chunks = NULL;
  g_autofree char *title = NULL;
  g_autofree char *board = NULL;
  g_autofree char *sel_net = NULL;
  const char *sel = selection != NULL ? zw_selection_get_pipeline_value (selection) : NULL;
  gint64 sel_v = -1;
  gint sel_index = -1;
  gboolean times;
  ZwMemPassLayout l;
  ZwPainter pt;

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&pt, cr, colors);
  if (p == NULL || !zw_memory_pass_layout (p, (chunks = zw_pipeline_pass_chunks (p)), width, height, &l))
    {
      zw_draw_empty (&pt, width, height, _("No chunk of the pipeline is in ETM"));
      zw_painter_clear (&pt);
      cairo_restore (cr);
      return;
    }
  if (sel != NULL && zw_pipeline_value_parse (sel, &sel_net, &sel_v))
    sel_index = zw_pipeline_report_find_network (p, sel_net);
  times = zw_pipeline_pass_has_times (p);
  board = zw_format_bytes (p->board_bytes);
  if (times)
    /* TRANSLATORS: the Memory view's title over a pipeline's pass: pipeline, networks, ETM, time */
    title = g_strdup_printf (_("Pipeline %s: ETM over one pass — %u networks, %s on the board, %.3f ms"), p->name,
                             p->networks->len, board, p->pass_ms);
  else
    title = g_strdup_printf (_("Pipeline %s: ETM over one pass — %u networks, %s on the board (not run: x is op "
                               "slots)"),
                             p->name, p->networks->len, board);
  zw_painter_set_bold (&pt, TRUE);
  zw_painter_text (&pt, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, &colors->foreground, title);
  zw_painter_set_bold (&pt, FALSE);
  zw_painter_text (&pt, MARGIN, MARGIN + line_height (), 0, 0, width - 2 * MARGIN, &pt.dim,
                   _("Each network's chunks in its colour over its forward; WEIGHT and INSTR faint over the whole "
                     "pass; shared segments striped; connections cross-hatched in the reader's colour"));
  draw_lane (&pt, p, &l);
  cairo_save (cr);
  cairo_rectangle (cr, l.x0, l.y0, l.x1 - l.x0, l.y1 - l.y0);
  cairo_clip (cr);
  draw_shares (&pt, p, &l);
  for (guint i = 0; i < chunks->len; i++)
    {
      const ZwPassChunk *c = &g_array_index (chunks, ZwPassChunk, i);
      gboolean selected = FALSE;
      if (sel_index >= 0 && c->v_id >= 0)
        {
          const ZwDeployReport *r = g_array_index (p->networks, ZwPipelineNetwork, sel_index).report;
          const ZwChunkInfo *ci = NULL;
          selected = c->network == sel_index && c->v_id == sel_v;
          /* a chunk holds several values: any of them selects it */
          if (!selected && c->network == sel_index && c->kind == ZW_PASS_CHUNK_FTMP && r != NULL)
            ci = zw_deploy_report_find_chunk (r, c->chunk_id);
          for (guint k = 0; ci != NULL && k < ci->v_ids->len && !selected; k++)
            selected = g_array_index (ci->v_ids, gint64, k) == sel_v;
        }
      draw_chunk (&pt, &l, c, selected);
    }
  cairo_restore (cr);
  draw_axes (&pt, p, &l, times);
  draw_legend (&pt, p, &l, width);
  zw_painter_clear (&pt);
  cairo_restore (cr);
}
