/* zw-board-draw.c — the Board view's drawing, its geometry and hit test, and its table (see
 * zw-board-view.h). Pure functions of the pipeline report: no widget, no display. */
#include "zw-board-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN 16.0
#define LABEL_W 118.0     /* the left column: bar and timeline labels */
#define VALUE_W 150.0     /* right of the ETM bars and the timeline: their figures */
#define BAR_H 12.0
#define MAP_H 48.0
#define MAP_LABEL_ROWS 3
#define TIME_ROW_H 20.0

/* Tableau-like, distinct in light and dark. */
static const guint32 palette[] = { 0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0xb07aa1, 0x76b7b2, 0xedc948, 0x9c755f };

void
zw_board_view_network_color (const ZwViewStyle *colors, guint index, GdkRGBA *out)
{
  guint32 c = palette[index % G_N_ELEMENTS (palette)];
  GdkRGBA base = { ((c >> 16) & 0xff) / 255.0f, ((c >> 8) & 0xff) / 255.0f, (c & 0xff) / 255.0f, 1.0f };
  double lum = colors->background.red * 0.3 + colors->background.green * 0.59 + colors->background.blue * 0.11;
  GdkRGBA white = { 1, 1, 1, 1 };

  /* a little lighter on a dark background, so the fills keep their contrast */
  *out = lum < 0.5 ? zw_rgba_mix (&base, &white, 0.15) : base;
}

typedef struct {
  double lh;
  double title_y, summary_y;
  double bars_x0, bars_x1, board_y, apart_y;
  double map_caption_y, label_y0, map_x0, map_x1, map_y0, map_y1;
  guint64 lo, hi;           /* the map's address range */
  gboolean has_map;
  double legend_y, legend_mid;
  guint legend_rows;
  double time_caption_y, time_x0, time_x1, time_y0, axis_y;
  double total_ms;
  gboolean has_time;
} Geo;

static void
geo_compute (Geo *g, const ZwPipelineReport *p, int width, int height, double font_size)
{
  double w = MAX (width, 320);
  guint right_rows;

  (void) height;
  memset (g, 0, sizeof *g);
  g->lh = MAX (font_size, 8) * 1.7;
  g->title_y = MARGIN;
  g->summary_y = MARGIN + g->lh;
  g->bars_x0 = MARGIN + LABEL_W;
  g->bars_x1 = w - MARGIN - VALUE_W;
  g->board_y = MARGIN + 2 * g->lh + 8;
  g->apart_y = g->board_y + BAR_H + 6;
  g->map_caption_y = g->apart_y + BAR_H + 16;
  g->label_y0 = g->map_caption_y + g->lh;
  g->map_x0 = MARGIN;
  g->map_x1 = w - MARGIN;
  g->map_y0 = g->label_y0 + MAP_LABEL_ROWS * g->lh;
  g->map_y1 = g->map_y0 + MAP_H;
  g->lo = G_MAXUINT64;
  for (guint i = 0; i < p->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, i);
      if (c->kind == ZW_BOARD_CHUNK_OTHER)
        continue;
      g->lo = MIN (g->lo, c->addr);
      g->hi = MAX (g->hi, c->addr + c->size);
      g->has_map = TRUE;
    }
  g->legend_y = g->map_y1 + g->lh + 12;
  g->legend_mid = MARGIN + (w - 2 * MARGIN) * 0.42;
  right_rows = p->shares->len + p->connections->len;
  g->legend_rows = MAX (p->networks->len, right_rows);
  g->time_caption_y = g->legend_y + g->legend_rows * g->lh + 14;
  g->time_x0 = MARGIN + LABEL_W;
  g->time_x1 = w - MARGIN - VALUE_W;
  g->time_y0 = g->time_caption_y + g->lh + 4;
  g->axis_y = g->time_y0 + p->networks->len * TIME_ROW_H + 2;
  g->has_time = TRUE;
  for (guint i = 0; i < p->networks->len; i++)
    {
      double t = g_array_index (p->networks, ZwPipelineNetwork, i).time_ms;
      if (t < 0)
        g->has_time = FALSE;
      else
        g->total_ms += t;
    }
  g->has_time = g->has_time && g->total_ms > 0;
}

static double
map_x (const Geo *g, guint64 addr)
{
  if (g->hi <= g->lo)
    return g->map_x0;
  return g->map_x0 + (double) (addr - g->lo) / (double) (g->hi - g->lo) * (g->map_x1 - g->map_x0);
}

static double
time_x (const Geo *g, double ms)
{
  return g->time_x0 + ms / g->total_ms * (g->time_x1 - g->time_x0);
}

static double
font_size_of (const ZwViewStyle *colors)
{
  return colors != NULL && colors->font_size > 0 ? colors->font_size : 11;
}

gboolean
zw_board_view_map_area (const ZwPipelineReport *p, int width, int height, double *x0, double *y0, double *x1, double *y1)
{
  Geo g;

  g_return_val_if_fail (p != NULL, FALSE);
  geo_compute (&g, p, width, height, 11);
  *x0 = g.map_x0;
  *y0 = g.map_y0;
  *x1 = g.map_x1;
  *y1 = g.map_y1;
  return g.has_map;
}

gboolean
zw_board_view_chunk_span (const ZwPipelineReport *p, int width, int height, guint index, double *xa, double *xb)
{
  Geo g;
  const ZwBoardChunk *c;

  g_return_val_if_fail (p != NULL, FALSE);
  if (index >= p->chunks->len)
    return FALSE;
  c = &g_array_index (p->chunks, ZwBoardChunk, index);
  if (c->kind == ZW_BOARD_CHUNK_OTHER)
    return FALSE;
  geo_compute (&g, p, width, height, 11);
  *xa = map_x (&g, c->addr);
  *xb = map_x (&g, c->addr + c->size);
  return TRUE;
}

/* The pass runs the networks in pass order: network @index starts when the ones before end. */
static double
start_ms (const ZwPipelineReport *p, guint index)
{
  double t = 0;
  for (guint i = 0; i < index; i++)
    t += g_array_index (p->networks, ZwPipelineNetwork, i).time_ms;
  return t;
}

gboolean
zw_board_view_time_bar (const ZwPipelineReport *p, int width, int height, guint index, double *x0, double *y0, double *x1,
                        double *y1)
{
  Geo g;
  double t0;

  g_return_val_if_fail (p != NULL, FALSE);
  geo_compute (&g, p, width, height, 11);
  if (!g.has_time || index >= p->networks->len)
    return FALSE;
  t0 = start_ms (p, index);
  *x0 = time_x (&g, t0);
  *x1 = time_x (&g, t0 + g_array_index (p->networks, ZwPipelineNetwork, index).time_ms);
  *y0 = g.time_y0 + index * TIME_ROW_H + 3;
  *y1 = *y0 + TIME_ROW_H - 6;
  return TRUE;
}

gboolean
zw_board_view_etm_bars (const ZwPipelineReport *p, int width, int height, double *x0, double *board_x1,
                        double *apart_x1, double *board_y, double *apart_y)
{
  Geo g;
  double most;

  g_return_val_if_fail (p != NULL, FALSE);
  geo_compute (&g, p, width, height, 11);
  most = (double) MAX (p->board_bytes, p->apart_bytes);
  if (most <= 0)
    return FALSE;
  *x0 = g.bars_x0;
  *board_x1 = g.bars_x0 + (g.bars_x1 - g.bars_x0) * (double) p->board_bytes / most;
  *apart_x1 = g.bars_x0 + (g.bars_x1 - g.bars_x0) * (double) p->apart_bytes / most;
  *board_y = g.board_y;
  *apart_y = g.apart_y;
  return TRUE;
}

gint
zw_board_view_network_at (const ZwPipelineReport *p, int width, int height, double x, double y)
{
  Geo g;

  if (p == NULL)
    return -1;
  geo_compute (&g, p, width, height, 11);
  if (g.has_map && y >= g.map_y0 && y < g.map_y1)
    {
      for (guint i = 0; i < p->chunks->len; i++)
        {
          const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, i);
          if (c->kind == ZW_BOARD_CHUNK_NETWORK && x >= map_x (&g, c->addr) && x < MAX (map_x (&g, c->addr + c->size), map_x (&g, c->addr) + 1))
            return c->network;
        }
      return -1;
    }
  if (y >= g.legend_y && y < g.legend_y + p->networks->len * g.lh && x >= MARGIN && x < g.legend_mid)
    return (gint) ((y - g.legend_y) / g.lh);
  if (g.has_time && y >= g.time_y0 && y < g.time_y0 + p->networks->len * TIME_ROW_H && x >= MARGIN
      && x < g.time_x1 + VALUE_W)
    return (gint) ((y - g.time_y0) / TIME_ROW_H);
  return -1;
}

/* ---- drawing ---- */

void
zw_pipeline_draw_stripes (cairo_t *cr, double x0, double y0, double x1, double y1, const GdkRGBA *colors, guint n, double step)
{
  guint k = 0;

  cairo_save (cr);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_clip (cr);
  /* bands at 45°, one colour after another */
  for (double s = x0 - (y1 - y0); s < x1; s += step, k++)
    {
      zw_cairo_set_color (cr, &colors[k % n]);
      cairo_move_to (cr, s, y1);
      cairo_line_to (cr, s + step, y1);
      cairo_line_to (cr, s + step + (y1 - y0), y0);
      cairo_line_to (cr, s + (y1 - y0), y0);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

void
zw_pipeline_draw_cross_hatch (cairo_t *cr, double x0, double y0, double x1, double y1, const GdkRGBA *line, double step)
{
  double h = y1 - y0;

  cairo_save (cr);
  cairo_rectangle (cr, x0, y0, x1 - x0, h);
  cairo_clip (cr);
  zw_cairo_set_color (cr, line);
  cairo_set_line_width (cr, 1.5);
  for (double s = x0 - h; s < x1 + h; s += step)
    {
      cairo_move_to (cr, s, y1);
      cairo_line_to (cr, s + h, y0);
      cairo_move_to (cr, s, y0);
      cairo_line_to (cr, s + h, y1);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A shared segment's colours: those of the networks that share it. */
static guint
share_colors (const ZwPipelineReport *p, const char *name, const ZwViewStyle *colors, GdkRGBA *out, guint max)
{
  guint n = 0;

  for (guint i = 0; i < p->shares->len && n == 0; i++)
    {
      const ZwPipelineShare *s = &g_array_index (p->shares, ZwPipelineShare, i);
      if (g_strcmp0 (s->name, name) != 0)
        continue;
      for (guint k = 0; k < s->networks->len && n < max; k++)
        {
          gint idx = zw_pipeline_report_find_network (p, g_ptr_array_index (s->networks, k));
          if (idx >= 0)
            zw_board_view_network_color (colors, (guint) idx, &out[n++]);
        }
    }
  if (n == 0)
    out[n++] = colors->grid;
  return n;
}

static const ZwPipelineConnection *
connection_named (const ZwPipelineReport *p, const char *name)
{
  for (guint i = 0; i < p->connections->len; i++)
    if (g_strcmp0 (g_array_index (p->connections, ZwPipelineConnection, i).name, name) == 0)
      return &g_array_index (p->connections, ZwPipelineConnection, i);
  return NULL;
}

/* A connection's chunk: the writer's colour, cross-hatched in the reader's. */
static void
draw_connection_swatch (cairo_t *cr, const ZwPipelineReport *p, const ZwPipelineConnection *c, double x0, double y0,
                        double x1, double y1, const ZwViewStyle *colors)
{
  GdkRGBA from, to;

  zw_board_view_network_color (colors, c != NULL ? (guint) c->from : 0, &from);
  zw_board_view_network_color (colors, c != NULL ? (guint) c->to : 0, &to);
  (void) p;
  zw_cairo_set_color (cr, &from);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_fill (cr);
  zw_pipeline_draw_cross_hatch (cr, x0, y0, x1, y1, &to, 10);
}

static void
draw_share_swatch (cairo_t *cr, const ZwPipelineReport *p, const char *name, double x0, double y0, double x1, double y1,
                   const ZwViewStyle *colors)
{
  GdkRGBA c[8];
  guint n = share_colors (p, name, colors, c, G_N_ELEMENTS (c));

  zw_pipeline_draw_stripes (cr, x0, y0, x1, y1, c, n, 7);
}

/* Segments of one network told apart by shade: WEIGHT full, INSTR and FTMP lighter, the
 * INPUT/OUTPUT chunks lighter still. */
static GdkRGBA
segment_shade (const GdkRGBA *base, gint segment, const ZwViewStyle *colors)
{
  double t = segment == ZW_SEGMENT_WEIGHT ? 0.0 : segment == ZW_SEGMENT_INSTR || segment == ZW_SEGMENT_FTMP ? 0.25 : 0.45;
  return zw_rgba_mix (base, &colors->background, t);
}

static void
draw_header (ZwPainter *pt, const Geo *g, const ZwPipelineReport *p, int width)
{
  g_autofree char *title = NULL, *board = NULL, *apart = NULL, *saved = NULL, *summary = NULL;
  double bx0, bx1, ax1, by, ay;
  cairo_t *cr = pt->cr;

  zw_painter_set_bold (pt, TRUE);
  title = g_strdup_printf (ngettext ("Pipeline %s on %s: %u network", "Pipeline %s on %s: %u networks",
                                     p->networks->len),
                           *p->name ? p->name : "?", *p->device ? p->device : "?", p->networks->len);
  zw_painter_text (pt, MARGIN, g->title_y, 0, 0, width - 2 * MARGIN, &pt->style->foreground, title);
  zw_painter_set_bold (pt, FALSE);
  board = zw_format_bytes (p->board_bytes);
  apart = zw_format_bytes (p->apart_bytes);
  saved = zw_format_bytes ((guint64) ABS (p->saved_bytes));
  if (p->saved_bytes >= 0)
    summary = g_strdup_printf (_("ETM on the board %s; the same networks deployed apart %s; sharing and connecting "
                                 "saved %s"), board, apart, saved);
  else
    summary = g_strdup_printf (_("ETM on the board %s; the same networks deployed apart %s; the pipeline takes %s "
                                 "more"), board, apart, saved);
  zw_painter_text (pt, MARGIN, g->summary_y, 0, 0, width - 2 * MARGIN, &pt->dim, summary);

  if (!zw_board_view_etm_bars (p, width, 0, &bx0, &bx1, &ax1, &by, &ay))
    return;
  zw_painter_text (pt, bx0 - 8, by + BAR_H / 2, 1, 0.5, LABEL_W - 8, &pt->style->foreground, _("On the board"));
  zw_painter_text (pt, bx0 - 8, ay + BAR_H / 2, 1, 0.5, LABEL_W - 8, &pt->style->foreground, _("Deployed apart"));
  zw_cairo_set_color (cr, &pt->style->accent);
  cairo_rectangle (cr, bx0, by, bx1 - bx0, BAR_H);
  cairo_fill (cr);
  zw_cairo_set_color (cr, &pt->style->grid);
  cairo_rectangle (cr, bx0, ay, ax1 - bx0, BAR_H);
  cairo_fill (cr);
  if (ax1 > bx1 + 1)
    {
      /* what the board did not need: dashed beside the board's bar */
      double dash = 3;
      zw_cairo_set_color (cr, &pt->style->accent);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, &dash, 1, 0);
      cairo_rectangle (cr, bx1 + 0.5, by + 0.5, ax1 - bx1 - 1, BAR_H - 1);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  zw_painter_text (pt, MAX (bx1, ax1) + 8, by + BAR_H / 2, 0, 0.5, VALUE_W - 8, &pt->style->foreground, board);
  zw_painter_text (pt, MAX (bx1, ax1) + 8, ay + BAR_H / 2, 0, 0.5, VALUE_W - 8, &pt->dim, apart);
}

static void
draw_map (ZwPainter *pt, const Geo *g, const ZwPipelineReport *p, gint selected)
{
  cairo_t *cr = pt->cr;
  double row_end[MAP_LABEL_ROWS];
  guint64 other = 0;
  guint n_other = 0;
  g_autofree char *caption = NULL, *other_text = NULL, *lo = NULL, *hi = NULL;

  for (guint i = 0; i < p->chunks->len; i++)
    if (g_array_index (p->chunks, ZwBoardChunk, i).kind == ZW_BOARD_CHUNK_OTHER)
      {
        other += g_array_index (p->chunks, ZwBoardChunk, i).size;
        n_other++;
      }
  other_text = zw_format_bytes (other);
  caption = g_strdup_printf (_("The board's ETM, 0x%lx to 0x%lx (the board's own %u chunks, %s, are not the "
                               "pipeline's)"), (unsigned long) g->lo, (unsigned long) g->hi, n_other, other_text);
  zw_painter_set_bold (pt, TRUE);
  zw_painter_text (pt, MARGIN, g->map_caption_y, 0, 0, g->map_x1 - MARGIN, &pt->style->foreground, caption);
  zw_painter_set_bold (pt, FALSE);

  zw_cairo_set_color (cr, &pt->style->grid);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, g->map_x0 - 0.5, g->map_y0 - 0.5, g->map_x1 - g->map_x0 + 1, MAP_H + 1);
  cairo_stroke (cr);
  for (guint r = 0; r < MAP_LABEL_ROWS; r++)
    row_end[r] = -G_MAXDOUBLE;

  for (guint i = 0; i < p->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, i);
      double xa = map_x (g, c->addr), xb = MAX (map_x (g, c->addr + c->size), xa + 1);
      const char *label = NULL;
      g_autofree char *owned = NULL;

      if (c->kind == ZW_BOARD_CHUNK_OTHER)
        continue;
      if (c->kind == ZW_BOARD_CHUNK_NETWORK)
        {
          GdkRGBA base, fill;
          zw_board_view_network_color (pt->style, (guint) c->network, &base);
          fill = segment_shade (&base, c->segment, pt->style);
          zw_cairo_set_color (cr, &fill);
          cairo_rectangle (cr, xa, g->map_y0, xb - xa, MAP_H);
          cairo_fill (cr);
          /* a wide chunk says whose it is inside */
          owned = g_strdup_printf ("%s %s", g_array_index (p->networks, ZwPipelineNetwork, c->network).name,
                                   zw_segment_type_to_string ((ZwSegmentType) c->segment));
          if (zw_painter_text_width (pt, owned) + 8 < xb - xa)
            zw_painter_text (pt, (xa + xb) / 2, g->map_y0 + MAP_H / 2, 0.5, 0.5, xb - xa - 4, &pt->style->background,
                             owned);
        }
      else if (c->kind == ZW_BOARD_CHUNK_SHARE)
        {
          draw_share_swatch (cr, p, c->name, xa, g->map_y0, xb, g->map_y1, pt->style);
          owned = g_strdup_printf (_("%s: shared %s"), c->name, zw_segment_type_to_string ((ZwSegmentType) c->segment));
          label = owned;
        }
      else
        {
          draw_connection_swatch (cr, p, connection_named (p, c->name), xa, g->map_y0, xb, g->map_y1, pt->style);
          label = c->name;
        }
      /* the chunks' borders, so neighbours stay apart */
      zw_cairo_set_color (cr, &pt->style->background);
      cairo_rectangle (cr, floor (xb) - 0.5, g->map_y0, 1, MAP_H);
      cairo_fill (cr);
      if (c->kind == ZW_BOARD_CHUNK_NETWORK && c->network == selected)
        {
          zw_cairo_set_color (cr, &pt->style->accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, xa + 1, g->map_y0 + 1, xb - xa - 2, MAP_H - 2);
          cairo_stroke (cr);
        }
      if (label != NULL)
        {
          /* labels above the map on the first row where they do not run into another */
          double w = zw_painter_text_width (pt, label), lx = MAX (xa, MARGIN);
          for (guint r = 0; r < MAP_LABEL_ROWS; r++)
            if (row_end[r] + 6 < lx)
              {
                double ly = g->label_y0 + r * g->lh;
                row_end[r] = lx + w;
                zw_painter_text (pt, lx, ly, 0, 0, 0, &pt->style->foreground, label);
                zw_cairo_set_color (cr, &pt->style->foreground);
                cairo_set_line_width (cr, 1);
                cairo_move_to (cr, floor (lx) + 0.5, ly + g->lh * 0.8);
                cairo_line_to (cr, floor (lx) + 0.5, g->map_y0);
                cairo_stroke (cr);
                break;
              }
        }
    }
  lo = g_strdup_printf ("0x%lx", (unsigned long) g->lo);
  hi = g_strdup_printf ("0x%lx", (unsigned long) g->hi);
  zw_painter_text (pt, g->map_x0, g->map_y1 + 3, 0, 0, 0, &pt->dim, lo);
  zw_painter_text (pt, g->map_x1, g->map_y1 + 3, 1, 0, 0, &pt->dim, hi);
}

static void
draw_legend (ZwPainter *pt, const Geo *g, const ZwPipelineReport *p, gint selected)
{
  cairo_t *cr = pt->cr;
  double y = g->legend_y, sw = 12;
  double right_x = g->legend_mid + 12;

  for (guint i = 0; i < p->networks->len; i++, y += g->lh)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      g_autofree char *text = NULL, *own = NULL, *apart = NULL, *ms = NULL;
      GdkRGBA color;

      zw_board_view_network_color (pt->style, i, &color);
      zw_cairo_set_color (cr, &color);
      cairo_rectangle (cr, MARGIN, y + (g->lh - sw) / 2, sw, sw);
      cairo_fill (cr);
      if ((gint) i == selected)
        {
          zw_cairo_set_color (cr, &pt->style->accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, MARGIN - 2, y + 1, g->legend_mid - MARGIN, g->lh - 2);
          cairo_stroke (cr);
        }
      ms = n->time_ms >= 0 ? g_strdup_printf (_("%.3f ms"), n->time_ms) : g_strdup (_("not timed"));
      if (!n->on_board)
        text = g_strdup_printf (_("%s: host ops only, no ETM; %s"), n->name, ms);
      else
        {
          own = zw_format_bytes (zw_pipeline_report_network_bytes (p, i));
          apart = zw_format_bytes (n->apart_etm_bytes);
          text = g_strdup_printf (_("%s: own %s on the board, %s apart; %s"), n->name, own, apart, ms);
        }
      zw_painter_text (pt, MARGIN + sw + 6, y + g->lh / 2, 0, 0.5, g->legend_mid - MARGIN - sw - 10,
                       &pt->style->foreground, text);
    }

  y = g->legend_y;
  for (guint i = 0; i < p->shares->len; i++, y += g->lh)
    {
      const ZwPipelineShare *s = &g_array_index (p->shares, ZwPipelineShare, i);
      g_autofree char *size = zw_format_bytes (s->size), *text = NULL;
      g_autoptr (GString) names = g_string_new (NULL);
      for (guint k = 0; k < s->networks->len; k++)
        g_string_append_printf (names, "%s%s", k > 0 ? ", " : "", (const char *) g_ptr_array_index (s->networks, k));
      draw_share_swatch (cr, p, s->name, right_x, y + (g->lh - sw) / 2, right_x + sw, y + (g->lh + sw) / 2, pt->style);
      text = g_strdup_printf (_("%s: %s shared by %s (%s)"), s->name,
                              zw_segment_type_to_string ((ZwSegmentType) s->segment), names->str, size);
      zw_painter_text (pt, right_x + sw + 6, y + g->lh / 2, 0, 0.5, g->map_x1 - right_x - sw - 6, &pt->style->foreground,
                       text);
    }
  for (guint i = 0; i < p->connections->len; i++, y += g->lh)
    {
      const ZwPipelineConnection *c = &g_array_index (p->connections, ZwPipelineConnection, i);
      const char *from = g_array_index (p->networks, ZwPipelineNetwork, c->from).name;
      const char *to = g_array_index (p->networks, ZwPipelineNetwork, c->to).name;
      g_autofree char *bytes = zw_format_bytes (c->bytes), *text = NULL;
      gboolean host = g_strcmp0 (c->from_mode, "host") == 0 || g_strcmp0 (c->to_mode, "host") == 0;

      draw_connection_swatch (cr, p, c, right_x, y + (g->lh - sw) / 2, right_x + sw, y + (g->lh + sw) / 2, pt->style);
      if (host)
        text = g_strdup_printf (_("%s: %s v%li → %s v%li, %s through the host"), c->name, from, (long) c->output_v_id, to,
                                (long) c->input_v_id, bytes);
      else
        text = g_strdup_printf (_("%s: %s v%li → %s v%li, %s at 0x%lx, %s / %s"), c->name, from, (long) c->output_v_id,
                                to, (long) c->input_v_id, bytes, (unsigned long) c->addr, c->from_mode, c->to_mode);
      zw_painter_text (pt, right_x + sw + 6, y + g->lh / 2, 0, 0.5, g->map_x1 - right_x - sw - 6, &pt->style->foreground,
                       text);
    }
}

static void
draw_timeline (ZwPainter *pt, const Geo *g, const ZwPipelineReport *p, int width, gint selected)
{
  cairo_t *cr = pt->cr;
  g_autofree char *caption = NULL;
  double step;

  if (!g->has_time)
    {
      zw_painter_text (pt, MARGIN, g->time_caption_y, 0, 0, width - 2 * MARGIN, &pt->dim,
                       _("The pass was not profiled: no times (run the pipeline file to time it)"));
      return;
    }
  caption = g_strdup_printf (_("One pass: %.3f ms simulated, the networks one after another (the board runs one "
                               "launch at a time)"), p->pass_ms >= 0 ? p->pass_ms : g->total_ms);
  zw_painter_set_bold (pt, TRUE);
  zw_painter_text (pt, MARGIN, g->time_caption_y, 0, 0, width - 2 * MARGIN, &pt->style->foreground, caption);
  zw_painter_set_bold (pt, FALSE);

  /* the axis: one unit (ms), nice steps */
  step = zw_nice_step (g->total_ms, 6);
  zw_cairo_set_color (cr, &pt->style->grid);
  cairo_set_line_width (cr, 1);
  for (double t = 0; step > 0 && t <= g->total_ms * 1.0001; t += step)
    {
      double x = floor (time_x (g, t)) + 0.5;
      g_autofree char *tick = g_strdup_printf (_("%g ms"), t);
      zw_cairo_set_color (cr, &pt->style->grid);
      cairo_move_to (cr, x, g->time_y0);
      cairo_line_to (cr, x, g->axis_y + 4);
      cairo_stroke (cr);
      zw_painter_text (pt, x, g->axis_y + 6, 0.5, 0, 0, &pt->dim, tick);
    }

  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (p->networks, ZwPipelineNetwork, i);
      double x0, y0, x1, y1;
      GdkRGBA color;
      g_autofree char *ms = g_strdup_printf (_("%.3f ms"), n->time_ms);

      zw_board_view_time_bar (p, width, 0, i, &x0, &y0, &x1, &y1);
      zw_painter_text (pt, g->time_x0 - 8, (y0 + y1) / 2, 1, 0.5, LABEL_W - 8, &pt->style->foreground, n->name);
      zw_board_view_network_color (pt->style, i, &color);
      zw_cairo_set_color (cr, &color);
      cairo_rectangle (cr, x0, y0, MAX (x1 - x0, 1), y1 - y0);
      cairo_fill (cr);
      /* the host's part: not on the board */
      if (!n->on_board)
        zw_pipeline_draw_cross_hatch (cr, x0, y0, MAX (x1, x0 + 1), y1, &pt->style->background, 6);
      if ((gint) i == selected)
        {
          zw_cairo_set_color (cr, &pt->style->accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, x0 - 1, y0 - 1, MAX (x1 - x0, 1) + 2, y1 - y0 + 2);
          cairo_stroke (cr);
        }
      zw_painter_text (pt, x1 + 6, (y0 + y1) / 2, 0, 0.5, 0, &pt->dim, ms);
    }
}

void
zw_board_view_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *p, gint selected,
                    const ZwViewStyle *colors)
{
  ZwPainter pt;
  Geo g;

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&pt, cr, colors);
  if (p == NULL)
    {
      zw_draw_empty (&pt, width, MIN (height, 200),
                     _("No pipeline: open a pipeline file (xrt-run plan|run PIPE.toml) or a pipeline report it "
                       "wrote with --json, or the demo pipeline from the main menu"));
      goto out;
    }
  geo_compute (&g, p, width, height, font_size_of (colors));
  draw_header (&pt, &g, p, width);
  if (g.has_map)
    draw_map (&pt, &g, p, selected);
  draw_legend (&pt, &g, p, selected);
  draw_timeline (&pt, &g, p, width, selected);
out:
  zw_painter_clear (&pt);
  cairo_restore (cr);
}

/* ---- the table ---- */

GPtrArray *
zw_board_view_chunk_table (const ZwPipelineReport *p)
{
  static const char *kinds[] = { "network", "share", "connection", "other" };
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_ptr_array_add (rows, g_strsplit ("addr,size,owner,kind,network,segment,share_or_connection", ",", -1));
  for (guint i = 0; p != NULL && i < p->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (p->chunks, ZwBoardChunk, i);
      char **row = g_new0 (char *, 8);
      row[0] = g_strdup_printf ("0x%lx", (unsigned long) c->addr);
      row[1] = g_strdup_printf ("%lu", (unsigned long) c->size);
      row[2] = g_strdup (c->owner);
      row[3] = g_strdup (kinds[c->kind]);
      row[4] = g_strdup (c->network >= 0 ? g_array_index (p->networks, ZwPipelineNetwork, c->network).name : "");
      row[5] = g_strdup (c->segment >= 0 ? zw_segment_type_to_string ((ZwSegmentType) c->segment) : "");
      row[6] = g_strdup (c->name != NULL ? c->name : "");
      g_ptr_array_add (rows, row);
    }
  return rows;
}
