/* zw-memory-view.c — FTMP chunk lifetimes over op index, in ETM and in OCM. */
#include "zw-memory-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>

#include "report/zw-etm-traffic.h"

#define MARGIN 8.0
#define AXIS_W 72.0

typedef struct {
  double x, y, w, h;    /* pane rectangle */
  double y_max;         /* bytes at the top of the pane */
  gboolean empty;       /* no chunk placed there */
} MemPane;

typedef struct {
  double zs, ze;        /* op-index range shown */
  double title_y;
  MemPane etm;
  MemPane ocm;          /* h == 0 when the device has no OCM */
  MemPane traffic;      /* ETM bytes read (up) and written (down) per op; h == 0 without hardops */
  double axis_y;        /* x-axis labels */
} MemLayout;

static double
mem_x (const MemLayout *l, double index)
{
  return l->etm.x + (index - l->zs) / (l->ze - l->zs) * l->etm.w;
}

static double
mem_index (const MemLayout *l, double x)
{
  return l->zs + (x - l->etm.x) / l->etm.w * (l->ze - l->zs);
}

static double
pane_y (const MemPane *p, double bytes)
{
  return p->y + p->h - bytes / p->y_max * p->h;
}

static void
mem_layout (const ZwDeployReport *report, ZwSelection *selection, int width, int height, const ZwViewStyle *style,
            MemLayout *l)
{
  double line = style->font_size * 1.5;
  double top, bottom, avail;
  guint64 etm_top = MAX (report->ftmp_bytes, report->lower_bound), ocm_used = 0;

  if (selection != NULL && zw_selection_get_report (selection) == report)
    {
      l->zs = zw_selection_get_zoom_start (selection);
      l->ze = zw_selection_get_zoom_end (selection);
    }
  else
    {
      l->zs = 0;
      l->ze = MAX (1.0, (double) report->ops->len);
    }

  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      if (c->in_ocm)
        ocm_used = MAX (ocm_used, c->ocm_addr + c->size);
      else
        etm_top = MAX (etm_top, c->ftmp_offset + c->size);
    }

  l->title_y = MARGIN;
  top = MARGIN + 2 * line;
  bottom = height - MARGIN - 2 * line;
  avail = MAX (20.0, bottom - top);
  /* the traffic pane under the occupancy, sharing its op-index axis */
  l->traffic.x = MARGIN + AXIS_W;
  l->traffic.w = MAX (20.0, width - 2 * MARGIN - AXIS_W);
  l->traffic.h = report->hardops->len > 0 ? floor (avail * 0.22) : 0;
  l->traffic.y = bottom - l->traffic.h;
  l->traffic.empty = FALSE;
  l->traffic.y_max = 1;
  if (l->traffic.h > 0)
    {
      bottom -= l->traffic.h + line;
      avail = MAX (20.0, bottom - top);
    }
  l->etm.x = l->ocm.x = MARGIN + AXIS_W;
  l->etm.w = l->ocm.w = MAX (20.0, width - 2 * MARGIN - AXIS_W);
  l->etm.y = top;
  l->etm.y_max = MAX (1.0, (double) etm_top);
  l->etm.empty = etm_top == 0;
  /* The OCM axis goes up to the capacity unless the chunks use only a sliver of it:
   * then it fits the chunks and the capacity is named off scale. */
  l->ocm.y_max = (double) MAX (report->ocm_capacity, ocm_used);
  if (ocm_used > 0 && ocm_used < report->ocm_capacity / 8)
    l->ocm.y_max = ocm_used * 1.25;
  l->ocm.y_max = MAX (1.0, l->ocm.y_max);
  l->ocm.empty = ocm_used == 0;
  if (report->ocm_capacity > 0 || ocm_used > 0)
    {
      /* OCM is small next to ETM but gets a readable share of the height. */
      l->ocm.h = floor ((avail - line) * 0.3);
      l->etm.h = avail - line - l->ocm.h;
      l->ocm.y = l->etm.y + l->etm.h + line;
    }
  else
    {
      l->etm.h = avail;
      l->ocm.h = 0;
      l->ocm.y = bottom;
    }
  l->axis_y = (l->traffic.h > 0 ? l->traffic.y + l->traffic.h : bottom) + 2;
}

/* The bar of op index @i in the traffic pane (@write: below the middle line), unclipped;
 * FALSE when it moves no bytes. */
static gboolean
traffic_bar (const MemLayout *l, const ZwEtmTraffic *t, guint i, gboolean write, double r[4])
{
  guint64 bytes;
  double mid = l->traffic.y + floor (l->traffic.h / 2), half = floor (l->traffic.h / 2) - 2, hgt;

  if (l->traffic.h <= 0 || i >= t->n || t->peak_etm == 0)
    return FALSE;
  bytes = write ? t->etm_write[i] : t->etm_read[i];
  if (bytes == 0)
    return FALSE;
  hgt = MAX (1.0, round ((double) bytes / (double) t->peak_etm * half));
  r[0] = floor (mem_x (l, i));
  r[2] = MAX (1.0, floor (mem_x (l, i + 1.0)) - r[0]);
  r[1] = write ? mid + 1 : mid - hgt;
  r[3] = hgt;
  return TRUE;
}

static void
draw_traffic (ZwPainter *p, const ZwDeployReport *report, const MemLayout *l, const ZwViewStyle *style)
{
  cairo_t *cr = p->cr;
  g_autoptr (ZwEtmTraffic) t = zw_etm_traffic_compute (report);
  const MemPane *pane = &l->traffic;
  double mid = pane->y + floor (pane->h / 2);
  GdkRGBA dim = style->foreground;
  g_autofree char *rd = zw_format_bytes (t->total_etm_read), *wr = zw_format_bytes (t->total_etm_write);
  g_autofree char *peak = zw_format_bytes (t->peak_etm);
  g_autofree char *title = NULL;
  guint first, last;

  dim.alpha *= 0.7f;
  if (pane->h <= 0)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, pane->x, pane->y, pane->w, pane->h);
  cairo_clip (cr);
  first = (guint) MAX (0.0, floor (l->zs));
  last = (guint) MIN ((double) t->n, ceil (l->ze));
  for (int write = 0; write < 2; write++)
    {
      zw_cairo_set_color (cr, write ? &style->segment[ZW_SEGMENT_OUTPUT] : &style->segment[ZW_SEGMENT_INPUT]);
      for (guint i = first; i < last; i++)
        {
          double r[4];
          if (traffic_bar (l, t, i, write, r))
            cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
        }
      cairo_fill (cr);
    }
  cairo_restore (cr);
  zw_cairo_set_color (cr, &style->grid);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, pane->x, mid + 0.5);
  cairo_line_to (cr, pane->x + pane->w, mid + 0.5);
  cairo_stroke (cr);
  cairo_rectangle (cr, pane->x + 0.5, pane->y + 0.5, pane->w - 1, pane->h - 1);
  cairo_stroke (cr);
  /* axis: the busiest op's bytes at both ends, 0 in the middle */
  zw_painter_text (p, pane->x - 4, pane->y + 2, 1, 0, AXIS_W - 4, &dim, peak);
  zw_painter_text (p, pane->x - 4, mid, 1, 0.5, AXIS_W - 4, &dim, "0");
  zw_painter_text (p, pane->x - 4, pane->y + pane->h - 2, 1, 1, AXIS_W - 4, &dim, peak);
  if (!t->known)
    title = g_strdup (_("ETM traffic: the report does not say what each op moves"));
  else if (t->exact)
    title = g_strdup_printf (_("ETM traffic per op (the board's cost model): read %s ↑, written %s ↓"), rd, wr);
  else
    title = g_strdup_printf (_("ETM traffic per op (recomputed from the placement): read %s ↑, written %s ↓"), rd, wr);
  zw_painter_set_bold (p, TRUE);
  zw_painter_text (p, pane->x + 4, pane->y + 2, 0, 0, pane->w - 8, &dim, title);
  zw_painter_set_bold (p, FALSE);
}

gboolean
zw_memory_view_traffic_bar (ZwDeployReport *report, ZwSelection *selection, int width, int height,
                            const ZwViewStyle *colors, guint op_index, gboolean write, double rect[4])
{
  g_autoptr (ZwEtmTraffic) t = NULL;
  MemLayout l;

  g_return_val_if_fail (report != NULL && colors != NULL && rect != NULL, FALSE);
  mem_layout (report, selection, width, height, colors, &l);
  t = zw_etm_traffic_compute (report);
  return traffic_bar (&l, t, op_index, write, rect);
}

/* The pane rectangle of a chunk, not clipped; FALSE when it is not drawn in a pane. */
static gboolean
chunk_rect (const MemLayout *l, const ZwChunkInfo *c, graphene_rect_t *r)
{
  const MemPane *p = c->in_ocm ? &l->ocm : &l->etm;
  guint64 base = c->in_ocm ? c->ocm_addr : c->ftmp_offset;
  double x0 = mem_x (l, c->first), x1 = mem_x (l, c->last + 1.0);
  double y0 = pane_y (p, (double) (base + c->size)), y1 = pane_y (p, (double) base);

  if (p->h <= 0)
    return FALSE;
  graphene_rect_init (r, x0, y0, x1 - x0, y1 - y0);
  return TRUE;
}

gint
zw_memory_view_peak_index (ZwDeployReport *report, guint64 *peak_bytes)
{
  guint n;
  g_autofree guint64 *live = NULL;
  gint peak = -1;
  guint64 best = 0;

  g_return_val_if_fail (report != NULL, -1);

  live = zw_deploy_report_live_bytes (report, FALSE, &n);
  for (guint i = 0; i < n; i++)
    if (peak < 0 || live[i] > best)
      {
        best = live[i];
        peak = (gint) i;
      }
  if (peak_bytes)
    *peak_bytes = best;
  return peak;
}

/* g_int64_hash folds the halves together, which makes packed rectangle keys collide in
 * long chains; a splitmix64 finaliser spreads them. */
static guint
rect_key_hash (gconstpointer key)
{
  guint64 z = *(const guint64 *) key;

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return (guint) (z ^ (z >> 31));
}

typedef struct {
  double x0, y0, x1, y1;
  guint shade;
  gint64 id;
} SnapRect;

static int
compare_size_desc (gconstpointer a, gconstpointer b)
{
  const ZwChunkInfo *ca = *(ZwChunkInfo * const *) a, *cb = *(ZwChunkInfo * const *) b;
  return ca->size < cb->size ? 1 : ca->size > cb->size ? -1 : 0;
}

static void
draw_y_axis (ZwPainter *p, const MemPane *pane, const char *title)
{
  cairo_t *cr = p->cr;
  double step = zw_nice_bytes_step (pane->y_max, MAX (2, (int) (pane->h / 40)));
  GdkRGBA dim = p->style->foreground;

  dim.alpha *= 0.7f;
  cairo_set_line_width (cr, 1);
  if (pane->empty)
    zw_painter_text (p, pane->x + pane->w / 2, pane->y + pane->h / 2, 0.5, 0.5, pane->w, &dim,
                     _("no chunk placed here"));
  for (double b = 0; !pane->empty && b <= pane->y_max * 1.0001; b += step)
    {
      g_autofree char *label = zw_format_axis_bytes (b, pane->y_max);   /* one unit per axis (issue 16) */
      double y = round (pane_y (pane, b)) + 0.5;

      zw_cairo_set_color (cr, &p->style->grid);
      cairo_move_to (cr, pane->x, y);
      cairo_line_to (cr, pane->x + pane->w, y);
      cairo_stroke (cr);
      zw_painter_text (p, pane->x - 4, y, 1, 0.5, AXIS_W - 4, &dim, label);
    }
  zw_painter_set_bold (p, TRUE);
  zw_painter_text (p, pane->x + 4, pane->y + 2, 0, 0, pane->w / 3, &dim, title);
  zw_painter_set_bold (p, FALSE);
}

static void
draw_chunks (cairo_t *cr, const ZwDeployReport *report, const MemLayout *l, gboolean ocm, const ZwViewStyle *style,
             ZwPainter *p)
{
  const MemPane *pane = ocm ? &l->ocm : &l->etm;
  g_autoptr (GArray) rects = g_array_sized_new (FALSE, FALSE, sizeof (SnapRect), report->chunks->len);
  g_autoptr (GHashTable) seen = g_hash_table_new (rect_key_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, MAX (1u, report->chunks->len));
  const GdkRGBA *base = ocm ? &style->ocm : &style->segment[ZW_SEGMENT_FTMP];
  GdkRGBA shades[3], outline;
  guint n_labels = 0;

  shades[0] = *base;
  shades[1] = zw_rgba_mix (base, &style->foreground, 0.15);
  shades[2] = zw_rgba_mix (base, &style->background, 0.30);
  outline = zw_rgba_mix (base, &style->foreground, 0.5);

  /* Snap to device pixels and skip rectangles that land on pixels already drawn: a
   * 10,000-op net has thousands of sub-pixel chunks that would only repaint the same spot. */
  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      graphene_rect_t r;
      SnapRect s;

      if ((gboolean) c->in_ocm != ocm || !chunk_rect (l, c, &r))
        continue;
      s.x0 = MAX (floor (r.origin.x), pane->x);
      s.x1 = MIN (MAX (s.x0 + 1, round (r.origin.x + r.size.width)), pane->x + pane->w);
      s.y0 = MAX (floor (r.origin.y), pane->y);
      s.y1 = MIN (MAX (s.y0 + 1, round (r.origin.y + r.size.height)), pane->y + pane->h);
      if (s.x1 <= s.x0 || s.y1 <= s.y0)
        continue;
      keys[i] = ((gint64) s.x0 << 48) | ((gint64) s.x1 << 32) | ((gint64) s.y0 << 16) | (gint64) s.y1;
      if (g_hash_table_contains (seen, &keys[i]))
        continue;
      g_hash_table_add (seen, &keys[i]);
      s.shade = i % 3;
      s.id = c->id;
      g_array_append_val (rects, s);
    }

  for (guint shade = 0; shade < 3; shade++)
    {
      for (guint i = 0; i < rects->len; i++)
        {
          const SnapRect *s = &g_array_index (rects, SnapRect, i);
          if (s->shade == shade)
            cairo_rectangle (cr, s->x0, s->y0, s->x1 - s->x0, s->y1 - s->y0);
        }
      zw_cairo_set_color (cr, &shades[shade]);
      cairo_fill (cr);
    }
  for (guint i = 0; i < rects->len; i++)
    {
      const SnapRect *s = &g_array_index (rects, SnapRect, i);
      if (s->x1 - s->x0 >= 4 && s->y1 - s->y0 >= 4)
        cairo_rectangle (cr, s->x0 + 0.5, s->y0 + 0.5, s->x1 - s->x0 - 1, s->y1 - s->y0 - 1);
    }
  cairo_set_line_width (cr, 1);
  zw_cairo_set_color (cr, &outline);
  cairo_stroke (cr);

  for (guint i = 0; i < rects->len && n_labels < 200; i++)
    {
      const SnapRect *s = &g_array_index (rects, SnapRect, i);
      g_autofree char *label = NULL;

      if (s->x1 - s->x0 < 36 || s->y1 - s->y0 < style->font_size + 4)
        continue;
      label = g_strdup_printf ("#%" G_GINT64_FORMAT, s->id);
      zw_painter_text (p, s->x0 + 3, s->y0 + 2, 0, 0, s->x1 - s->x0 - 6, NULL, label);
      n_labels++;
    }
}

static void
draw_hline (ZwPainter *p, const MemPane *pane, double bytes, const GdkRGBA *color, gboolean dashed, double label_valign,
            const char *label)
{
  cairo_t *cr = p->cr;
  double y = round (pane_y (pane, bytes)) + 0.5;
  double dashes[] = { 6, 4 };

  zw_cairo_set_color (cr, color);
  cairo_set_line_width (cr, 2);
  if (dashed)
    cairo_set_dash (cr, dashes, 2, 0);
  cairo_move_to (cr, pane->x, y);
  cairo_line_to (cr, pane->x + pane->w, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  zw_painter_text (p, pane->x + pane->w - 4, label_valign > 0.5 ? y - 3 : y + 3, 1, label_valign, pane->w / 2, color,
                   label);
}

void
zw_memory_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                     const ZwViewStyle *colors)
{
  ZwPainter p;
  MemLayout l;
  GdkRGBA dim;

  g_return_if_fail (cr != NULL && colors != NULL);

  zw_painter_begin (&p, cr, colors);
  dim = p.dim;

  if (report == NULL)
    {
      zw_draw_empty (&p, width, height, _("No deploy report"));
      goto out;
    }
  mem_layout (report, selection, width, height, colors, &l);

  {
    g_autofree char *ftmp = zw_format_bytes (report->ftmp_bytes);
    g_autofree char *sum = zw_format_bytes (report->sum_of_chunks);
    g_autofree char *title = g_strdup_printf (_("FTMP memory over time: %s (sum of chunks %s), ETM optimize %s"),
                                              ftmp, sum, report->etm_optimize ? _("on") : _("off"));
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN, l.title_y, 0, 0, width - 2 * MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
  }

  /* Axes and grids, then the chunks clipped to their panes. */
  draw_y_axis (&p, &l.etm, _("ETM"));
  if (l.ocm.h > 0)
    draw_y_axis (&p, &l.ocm, _("OCM"));
  {
    double step = MAX (1.0, zw_nice_step (l.ze - l.zs, MAX (2, (int) (l.etm.w / 90))));
    double bottom = l.traffic.h > 0 ? l.traffic.y + l.traffic.h : l.ocm.h > 0 ? l.ocm.y + l.ocm.h : l.etm.y + l.etm.h;

    cairo_set_line_width (cr, 1);
    for (double i = ceil (l.zs / step) * step; i <= l.ze; i += step)
      {
        g_autofree char *label = g_strdup_printf ("%.0f", i);
        double x = round (mem_x (&l, i)) + 0.5;

        zw_cairo_set_color (cr, &colors->grid);
        cairo_move_to (cr, x, l.etm.y);
        cairo_line_to (cr, x, bottom);
        cairo_stroke (cr);
        zw_painter_text (&p, x, l.axis_y, 0.5, 0, 0, &dim, label);
      }
    zw_painter_text (&p, l.etm.x + l.etm.w / 2, l.axis_y + colors->font_size * 1.4, 0.5, 0, 0, &dim, _("op index"));
  }

  for (int pane = 0; pane < 2; pane++)
    {
      const MemPane *mp = pane == 0 ? &l.etm : &l.ocm;
      if (mp->h <= 0)
        continue;
      cairo_save (cr);
      cairo_rectangle (cr, mp->x, mp->y, mp->w, mp->h);
      cairo_clip (cr);
      draw_chunks (cr, report, &l, pane == 1, colors, &p);
      cairo_restore (cr);
      zw_cairo_set_color (cr, &colors->grid);
      cairo_rectangle (cr, mp->x + 0.5, mp->y + 0.5, mp->w - 1, mp->h - 1);
      cairo_stroke (cr);
    }
  draw_traffic (&p, report, &l, colors);

  /* The selected op (a launch covers a range of op indices). */
  if (selection != NULL && zw_selection_get_selected_op (selection) >= 0)
    {
      gint first, last;
      if (zw_report_op_range (report, zw_selection_get_selected_op (selection), &first, &last))
        {
          double x0 = MAX (mem_x (&l, first), l.etm.x), x1 = MIN (mem_x (&l, last + 1.0), l.etm.x + l.etm.w);
          double bottom = l.ocm.h > 0 ? l.ocm.y + l.ocm.h : l.etm.y + l.etm.h;
          if (x1 > x0)
            {
              zw_cairo_set_color_alpha (cr, &colors->accent, 0.18);
              cairo_rectangle (cr, x0, l.etm.y, MAX (1.0, x1 - x0), bottom - l.etm.y);
              cairo_fill (cr);
            }
        }
    }

  /* The lower bound and the FTMP size, then the peak with what makes it up. */
  {
    g_autofree char *lb = zw_format_bytes (report->lower_bound);
    g_autofree char *ft = zw_format_bytes (report->ftmp_bytes);
    g_autofree char *lb_label = g_strdup_printf (_("liveness lower bound %s"), lb);
    g_autofree char *ft_label = g_strdup_printf (_("FTMP size %s"), ft);

    if (report->ftmp_bytes != report->lower_bound)
      draw_hline (&p, &l.etm, (double) report->ftmp_bytes, &colors->foreground, FALSE, 1, ft_label);
    draw_hline (&p, &l.etm, (double) report->lower_bound, &colors->lower_bound, TRUE,
                report->ftmp_bytes != report->lower_bound ? 0 : 1, lb_label);
  }
  if (l.ocm.h > 0 && report->ocm_capacity > 0)
    {
      g_autofree char *cap = zw_format_bytes (report->ocm_capacity);
      if ((double) report->ocm_capacity <= l.ocm.y_max)
        {
          g_autofree char *label = g_strdup_printf (_("OCM capacity %s"), cap);
          draw_hline (&p, &l.ocm, (double) report->ocm_capacity, &colors->warning, FALSE, 0, label);
        }
      else
        {
          g_autofree char *label = g_strdup_printf (_("OCM capacity %s (above the scale)"), cap);
          zw_painter_text (&p, l.ocm.x + l.ocm.w - 4, l.ocm.y + 3, 1, 0, l.ocm.w / 2, &colors->warning, label);
        }
    }
  {
    guint64 peak_bytes;
    gint peak = zw_memory_view_peak_index (report, &peak_bytes);

    if (peak >= 0 && peak_bytes > 0)
      {
        g_autoptr (GPtrArray) live = g_ptr_array_new ();
        g_autoptr (GString) text = g_string_new (NULL);
        g_autofree char *size = zw_format_bytes (peak_bytes);
        double x = round (mem_x (&l, peak + 0.5)) + 0.5;

        for (guint i = 0; i < report->chunks->len; i++)
          {
            ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
            if (!c->in_ocm && c->first <= peak && peak <= c->last)
              g_ptr_array_add (live, c);
          }
        g_ptr_array_sort (live, compare_size_desc);
        g_string_append_printf (text, _("peak at op index %d: %s live in %u chunks"), peak, size, live->len);
        for (guint i = 0; i < MIN (3u, live->len); i++)
          {
            const ZwChunkInfo *c = live->pdata[i];
            g_autofree char *cs = zw_format_bytes (c->size);
            g_string_append_printf (text, i == 0 ? ": #%" G_GINT64_FORMAT " %s" : ", #%" G_GINT64_FORMAT " %s", c->id, cs);
          }
        if (x >= l.etm.x && x <= l.etm.x + l.etm.w)
          {
            double dashes[] = { 2, 3 };
            zw_cairo_set_color (cr, &colors->warning);
            cairo_set_line_width (cr, 1.5);
            cairo_set_dash (cr, dashes, 2, 0);
            cairo_move_to (cr, x, l.etm.y);
            cairo_line_to (cr, x, l.etm.y + l.etm.h);
            cairo_stroke (cr);
            cairo_set_dash (cr, NULL, 0, 0);
          }
        zw_painter_text (&p, MARGIN, l.title_y + colors->font_size * 1.5, 0, 0, width - 2 * MARGIN, &colors->warning,
                         text->str);
      }
  }

  /* The selected value: its chunk outlined, its own bytes filled. */
  if (selection != NULL && zw_selection_get_selected_value (selection) >= 0)
    {
      const ZwValueInfo *v = zw_deploy_report_find_value (report, zw_selection_get_selected_value (selection));
      const ZwChunkInfo *c = v != NULL && v->chunk >= 0 ? zw_deploy_report_find_chunk (report, v->chunk) : NULL;
      graphene_rect_t r;

      if (c != NULL && chunk_rect (&l, c, &r))
        {
          const MemPane *mp = c->in_ocm ? &l.ocm : &l.etm;
          double vy0 = pane_y (mp, (double) ((c->in_ocm ? c->ocm_addr : c->ftmp_offset) + v->chunk_offset + v->byte_size));
          double vy1 = pane_y (mp, (double) ((c->in_ocm ? c->ocm_addr : c->ftmp_offset) + v->chunk_offset));
          double vx0 = mem_x (&l, v->first), vx1 = mem_x (&l, v->last + 1.0);

          cairo_save (cr);
          cairo_rectangle (cr, mp->x, mp->y, mp->w, mp->h);
          cairo_clip (cr);
          zw_cairo_set_color_alpha (cr, &colors->accent, 0.55);
          cairo_rectangle (cr, vx0, vy0, MAX (2.0, vx1 - vx0), MAX (2.0, vy1 - vy0));
          cairo_fill (cr);
          zw_cairo_set_color (cr, &colors->accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, r.origin.x, r.origin.y, MAX (2.0, r.size.width), MAX (2.0, r.size.height));
          cairo_stroke (cr);
          cairo_restore (cr);
        }
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

static const ZwChunkInfo *
mem_chunk_at (const ZwDeployReport *report, const MemLayout *l, double x, double y)
{
  const ZwChunkInfo *best = NULL;

  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      graphene_rect_t r;

      if (!chunk_rect (l, c, &r))
        continue;
      /* Sub-pixel chunks are hit within a pixel, as they are drawn. */
      if (x >= floor (r.origin.x) && x < MAX (r.origin.x + r.size.width, floor (r.origin.x) + 1)
          && y >= floor (r.origin.y) && y < MAX (r.origin.y + r.size.height, floor (r.origin.y) + 1))
        if (best == NULL || c->size < best->size)
          best = c;
    }
  return best;
}

/* ---- the widget ---- */

struct _ZwMemoryView
{
  ZwView parent_instance;
  gint64 hover_chunk;
  double pointer_x;
  double drag_start;
  double drag_end;
};

G_DEFINE_FINAL_TYPE (ZwMemoryView, zw_memory_view, ZW_TYPE_VIEW)

static gboolean
widget_layout (ZwMemoryView *self, MemLayout *l)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));

  if (report == NULL)
    return FALSE;
  mem_layout (report, zw_view_get_selection (ZW_VIEW (self)), gtk_widget_get_width (GTK_WIDGET (self)),
              gtk_widget_get_height (GTK_WIDGET (self)), zw_view_get_style (ZW_VIEW (self)), l);
  return TRUE;
}

/* Only the hover highlight is drawn per frame, over the cached content. */
static void
zw_memory_view_snapshot_overlay (ZwView *view, GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *style)
{
  ZwMemoryView *self = ZW_MEMORY_VIEW (view);
  ZwDeployReport *report = zw_view_get_report (view);
  const ZwChunkInfo *c;
  MemLayout l;

  (void) width;
  (void) height;
  if (self->hover_chunk >= 0 && widget_layout (self, &l)
      && (c = zw_deploy_report_find_chunk (report, self->hover_chunk)) != NULL)
    {
      const MemPane *mp = c->in_ocm ? &l.ocm : &l.etm;
      graphene_rect_t r, pane, clipped;

      graphene_rect_init (&pane, mp->x, mp->y, mp->w, mp->h);
      if (chunk_rect (&l, c, &r))
        {
          r.size.width = MAX (1.0f, r.size.width);
          r.size.height = MAX (1.0f, r.size.height);
          if (graphene_rect_intersection (&r, &pane, &clipped))
            gtk_snapshot_append_color (snapshot, &style->hover, &clipped);
        }
    }
}

static void
set_hover (ZwMemoryView *self, gint64 id)
{
  if (id != self->hover_chunk)
    {
      self->hover_chunk = id;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwMemoryView *self)
{
  const ZwChunkInfo *c = NULL;
  MemLayout l;

  (void) controller;
  self->pointer_x = x;
  if (widget_layout (self, &l))
    c = mem_chunk_at (zw_view_get_report (ZW_VIEW (self)), &l, x, y);
  set_hover (self, c != NULL ? c->id : -1);
}

static void
on_leave (GtkEventControllerMotion *controller, ZwMemoryView *self)
{
  (void) controller;
  set_hover (self, -1);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, ZwMemoryView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  MemLayout l;

  (void) dx;
  if ((state & GDK_CONTROL_MASK) == 0 || !widget_layout (self, &l) || dy == 0)
    return FALSE;
  zw_selection_zoom_by (zw_view_get_selection (ZW_VIEW (self)), dy < 0 ? 1.25 : 0.8, mem_index (&l, self->pointer_x));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, ZwMemoryView *self)
{
  (void) gesture;
  (void) x;
  (void) y;
  self->drag_start = zw_selection_get_zoom_start (zw_view_get_selection (ZW_VIEW (self)));
  self->drag_end = zw_selection_get_zoom_end (zw_view_get_selection (ZW_VIEW (self)));
}

static void
on_drag_update (GtkGestureDrag *gesture, double offset_x, double offset_y, ZwMemoryView *self)
{
  MemLayout l;
  double delta;

  (void) offset_y;
  if (!widget_layout (self, &l) || fabs (offset_x) < 3)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  delta = -offset_x / l.etm.w * (self->drag_end - self->drag_start);
  zw_selection_set_zoom (zw_view_get_selection (ZW_VIEW (self)), self->drag_start + delta, self->drag_end + delta);
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwMemoryView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  const ZwChunkInfo *c = NULL;
  MemLayout l;

  (void) gesture;
  (void) n_press;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (!widget_layout (self, &l))
    return;
  c = mem_chunk_at (report, &l, x, y);
  /* A chunk stands for its values: select the first (the one that owns the bytes). */
  zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)),
                                   c != NULL && c->v_ids->len > 0 ? g_array_index (c->v_ids, gint64, 0) : -1);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  ZwMemoryView *self = ZW_MEMORY_VIEW (widget);
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  g_autoptr (GString) text = NULL;
  g_autofree char *size = NULL;
  const ZwChunkInfo *c;
  MemLayout l;

  (void) keyboard;
  if (!widget_layout (self, &l))
    return FALSE;
  if (l.traffic.h > 0 && y >= l.traffic.y && y < l.traffic.y + l.traffic.h && x >= l.traffic.x)
    {
      g_autoptr (ZwEtmTraffic) t = zw_etm_traffic_compute (report);
      gint64 i = (gint64) floor (mem_index (&l, x));
      g_autofree char *er = NULL, *ew = NULL, *orr = NULL, *ow = NULL;
      g_autofree char *line = NULL;

      if (i < 0 || i >= t->n)
        return FALSE;
      er = zw_format_bytes (t->etm_read[i]);
      ew = zw_format_bytes (t->etm_write[i]);
      orr = zw_format_bytes (t->ocm_read[i]);
      ow = zw_format_bytes (t->ocm_write[i]);
      line = g_strdup_printf (_("op index %lli (op %lli): ETM read %s, written %s; OCM read %s, written %s"),
                              (long long) i, (long long) g_array_index (report->ops, ZwOpInfo, i).op_id, er, ew, orr, ow);
      gtk_tooltip_set_text (tooltip, line);
      return TRUE;
    }
  if ((c = mem_chunk_at (report, &l, x, y)) == NULL)
    return FALSE;
  size = zw_format_bytes (c->size);
  text = g_string_new (NULL);
  g_string_append_printf (text, _("Chunk %lld: %s (%llu bytes)"), (long long) c->id, size, (unsigned long long) c->size);
  g_string_append_c (text, '\n');
  if (c->in_ocm)
    g_string_append_printf (text, _("OCM at 0x%08llx"), (unsigned long long) c->ocm_addr);
  else
    g_string_append_printf (text, _("FTMP offset 0x%08llx"), (unsigned long long) c->ftmp_offset);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("live from op index %d to %d"), c->first, c->last);
  g_string_append_c (text, '\n');
  g_string_append (text, _("values:"));
  for (guint i = 0; i < MIN (c->v_ids->len, 12u); i++)
    g_string_append_printf (text, " %" G_GINT64_FORMAT, g_array_index (c->v_ids, gint64, i));
  if (c->v_ids->len > 12)
    g_string_append (text, " …");
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
action_zoom (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ZwMemoryView *self = ZW_MEMORY_VIEW (widget);
  ZwSelection *selection = zw_view_get_selection (ZW_VIEW (self));
  double center = (zw_selection_get_zoom_start (selection) + zw_selection_get_zoom_end (selection)) / 2;

  (void) parameter;
  if (g_str_equal (action_name, "memory.zoom-in"))
    zw_selection_zoom_by (selection, 1.25, center);
  else if (g_str_equal (action_name, "memory.zoom-out"))
    zw_selection_zoom_by (selection, 0.8, center);
  else
    zw_selection_zoom_fit (selection);
}

static void
zw_memory_view_class_init (ZwMemoryViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  view_class->draw = zw_memory_view_draw;
  view_class->draws_itself = TRUE;
  view_class->snapshot_overlay = zw_memory_view_snapshot_overlay;
  widget_class->query_tooltip = on_query_tooltip;

  gtk_widget_class_install_action (widget_class, "memory.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "memory.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "memory.zoom-fit", NULL, action_zoom);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "memory.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "memory.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "memory.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "memory.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "memory.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "memory.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, 0, "memory.zoom-fit", NULL);
  gtk_widget_class_set_css_name (widget_class, "zwmemoryview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "memory", N_("Memory"), N_("Memory view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_memory_view_init (ZwMemoryView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .scroll = G_CALLBACK (on_scroll),
    .drag_begin = G_CALLBACK (on_drag_begin), .drag_update = G_CALLBACK (on_drag_update),
    .released = G_CALLBACK (on_released),
  };

  self->hover_chunk = -1;
  zw_widget_add_pointer_handlers (GTK_WIDGET (self), &handlers, self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 400, 240);
}

GtkWidget *
zw_memory_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_MEMORY_VIEW, "selection", selection, NULL);
}

ZwSelection *
zw_memory_view_get_selection (ZwMemoryView *self)
{
  g_return_val_if_fail (ZW_IS_MEMORY_VIEW (self), NULL);
  return zw_view_get_selection (ZW_VIEW (self));
}

guint
zw_memory_view_get_n_rebuilds (GtkWidget *view)
{
  g_return_val_if_fail (ZW_IS_MEMORY_VIEW (view), 0);
  return zw_view_get_n_rebuilds (ZW_VIEW (view));
}
