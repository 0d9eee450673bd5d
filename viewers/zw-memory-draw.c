/* zw-memory-draw.c — the Memory view drawn with plain cairo: the ETM and OCM panes with their
 * chunks, the lower bound, the capacity and the peak, the traffic per op, the selection. */
#include "zw-memory-view-private.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

static void
draw_traffic (ZwPainter *p, const ZwDeployReport *report, const ZwMemLayout *l, const ZwViewStyle *style)
{
  cairo_t *cr = p->cr;
  g_autoptr (ZwEtmTraffic) t = zw_etm_traffic_compute (report);
  const ZwMemPane *pane = &l->traffic;
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
      /* The bars have whole-pixel edges and share their base line (the middle), so where
       * several ops land on the same columns their union is the tallest of them: one
       * rectangle per run of bars with the same columns and height, the same pixels as one
       * rectangle per op with far fewer for cairo to fill (10,000 ops on ~1,200 px). */
      double run[4] = { 0, 0, 0, 0 };
      gboolean have = FALSE;

      zw_cairo_set_color (cr, write ? &style->segment[ZW_SEGMENT_OUTPUT] : &style->segment[ZW_SEGMENT_INPUT]);
      for (guint i = first; i < last; i++)
        {
          double r[4];
          if (!zw_memory_layout_traffic_bar (l, t, i, write, r))
            continue;
          if (have && r[0] == run[0] && r[2] == run[2])
            {
              /* same columns: keep the taller (reads grow up from the middle, writes down) */
              if (r[3] > run[3])
                {
                  run[1] = r[1];
                  run[3] = r[3];
                }
              continue;
            }
          if (have)
            cairo_rectangle (cr, run[0], run[1], run[2], run[3]);
          memcpy (run, r, sizeof run);
          have = TRUE;
        }
      if (have)
        cairo_rectangle (cr, run[0], run[1], run[2], run[3]);
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
  zw_painter_text (p, pane->x - 4, pane->y + 2, 1, 0, MEMORY_AXIS_W - 4, &dim, peak);
  zw_painter_text (p, pane->x - 4, mid, 1, 0.5, MEMORY_AXIS_W - 4, &dim, "0");
  zw_painter_text (p, pane->x - 4, pane->y + pane->h - 2, 1, 1, MEMORY_AXIS_W - 4, &dim, peak);
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

/* The set of snapped rectangles already drawn: open addressing over a flat array (a
 * GHashTable of 8,000 boxed keys per pane per draw cost more than the filling). Keys are
 * packed pixel edges, never 0 (a drawn rectangle is at least a pixel wide: x1 > 0). A
 * splitmix64 finaliser spreads the packed keys, whose halves alone collide in long chains. */
typedef struct {
  guint64 *slots;
  guint mask;
} RectSet;

static void
rect_set_init (RectSet *set, guint n)
{
  guint size = 16;

  while (size < 2 * n)
    size <<= 1;
  set->slots = g_new0 (guint64, size);
  set->mask = size - 1;
}

/* Adds @key; FALSE when it was there already. */
static gboolean
rect_set_add (RectSet *set, guint64 key)
{
  guint64 z = key;
  guint i;

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  for (i = (guint) (z ^ (z >> 31)) & set->mask; set->slots[i] != 0; i = (i + 1) & set->mask)
    if (set->slots[i] == key)
      return FALSE;
  set->slots[i] = key;
  return TRUE;
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
draw_y_axis (ZwPainter *p, const ZwMemPane *pane, const char *title)
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
      double y = round (zw_memory_pane_y (pane, b)) + 0.5;

      zw_cairo_set_color (cr, &p->style->grid);
      cairo_move_to (cr, pane->x, y);
      cairo_line_to (cr, pane->x + pane->w, y);
      cairo_stroke (cr);
      zw_painter_text (p, pane->x - 4, y, 1, 0.5, MEMORY_AXIS_W - 4, &dim, label);
    }
  zw_painter_set_bold (p, TRUE);
  zw_painter_text (p, pane->x + 4, pane->y + 2, 0, 0, pane->w / 3, &dim, title);
  zw_painter_set_bold (p, FALSE);
}

static void
draw_chunks (cairo_t *cr, const ZwDeployReport *report, const ZwMemLayout *l, gboolean ocm, const ZwViewStyle *style,
             ZwPainter *p)
{
  const ZwMemPane *pane = ocm ? &l->ocm : &l->etm;
  g_autoptr (GArray) rects = g_array_sized_new (FALSE, FALSE, sizeof (SnapRect), report->chunks->len);
  RectSet seen;
  const GdkRGBA *base = ocm ? &style->ocm : &style->segment[ZW_SEGMENT_FTMP];
  GdkRGBA shades[3], outline;
  guint n_labels = 0;

  shades[0] = *base;
  shades[1] = zw_rgba_mix (base, &style->foreground, 0.15);
  shades[2] = zw_rgba_mix (base, &style->background, 0.30);
  outline = zw_rgba_mix (base, &style->foreground, 0.5);

  /* Snap to device pixels and skip rectangles that land on pixels already drawn: a
   * 10,000-op net has thousands of sub-pixel chunks that would only repaint the same spot. */
  rect_set_init (&seen, report->chunks->len);
  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      graphene_rect_t r;
      SnapRect s;

      if ((gboolean) c->in_ocm != ocm || !zw_memory_layout_chunk_rect (l, c, &r))
        continue;
      s.x0 = MAX (floor (r.origin.x), pane->x);
      s.x1 = MIN (MAX (s.x0 + 1, round (r.origin.x + r.size.width)), pane->x + pane->w);
      s.y0 = MAX (floor (r.origin.y), pane->y);
      s.y1 = MIN (MAX (s.y0 + 1, round (r.origin.y + r.size.height)), pane->y + pane->h);
      if (s.x1 <= s.x0 || s.y1 <= s.y0)
        continue;
      if (!rect_set_add (&seen, ((guint64) (gint64) s.x0 << 48) | ((guint64) (gint64) s.x1 << 32)
                                  | ((guint64) (gint64) s.y0 << 16) | (guint64) (gint64) s.y1))
        continue;
      s.shade = i % 3;
      s.id = c->id;
      g_array_append_val (rects, s);
    }
  g_free (seen.slots);

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
      label = zw_chunk_id_dup_label (s->id);
      zw_painter_text (p, s->x0 + 3, s->y0 + 2, 0, 0, s->x1 - s->x0 - 6, NULL, label);
      n_labels++;
    }
}

static void
draw_hline (ZwPainter *p, const ZwMemPane *pane, double bytes, const GdkRGBA *color, gboolean dashed, double label_valign,
            const char *label)
{
  cairo_t *cr = p->cr;
  double y = round (zw_memory_pane_y (pane, bytes)) + 0.5;
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

/* The peak's text for @peak and @peak_bytes of zw_memory_view_peak_index(). */
static char *
peak_text (ZwDeployReport *report, gint peak, guint64 peak_bytes)
{
  g_autoptr (GPtrArray) live = g_ptr_array_new ();
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *size = NULL;

  if (peak < 0 || peak_bytes == 0)
    return NULL;
  size = zw_format_bytes (peak_bytes);
  for (guint i = 0; i < report->chunks->len; i++)
    {
      ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      if (!c->in_ocm && c->first <= peak && peak <= c->last)
        g_ptr_array_add (live, c);
    }
  g_ptr_array_sort (live, compare_size_desc);
  g_string_append_printf (text,
                          ngettext ("peak at op index %d: %s live in %u chunk",
                                    "peak at op index %d: %s live in %u chunks", live->len),
                          peak, size, live->len);
  for (guint i = 0; i < MIN (3u, live->len); i++)
    {
      const ZwChunkInfo *c = live->pdata[i];
      g_autofree char *cs = zw_format_bytes (c->size);
      g_autofree char *name = zw_chunk_id_dup_label (c->id);
      g_string_append_printf (text, i == 0 ? ": %s %s" : ", %s %s", name, cs);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

char *
zw_memory_view_dup_peak_text (ZwDeployReport *report)
{
  guint64 peak_bytes;
  gint peak;

  g_return_val_if_fail (report != NULL, NULL);
  peak = zw_memory_view_peak_index (report, &peak_bytes);
  return peak_text (report, peak, peak_bytes);
}

void
zw_memory_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                     const ZwViewStyle *colors)
{
  ZwPainter p;
  ZwMemLayout l;
  GdkRGBA dim;

  g_return_if_fail (cr != NULL && colors != NULL);

  zw_painter_begin (&p, cr, colors);
  dim = p.dim;

  if (report == NULL)
    {
      zw_draw_empty (&p, width, height, _("No deploy report"));
      goto out;
    }
  zw_memory_layout_compute (report, selection, width, height, colors, &l);

  {
    g_autofree char *ftmp = zw_format_bytes (report->ftmp_bytes);
    g_autofree char *sum = zw_format_bytes (report->sum_of_chunks);
    g_autofree char *title = g_strdup_printf (_("FTMP memory over time: %s (sum of chunks %s), ETM optimize %s"),
                                              ftmp, sum, report->etm_optimize ? _("on") : _("off"));
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MEMORY_MARGIN, l.title_y, 0, 0, width - 2 * MEMORY_MARGIN, NULL, title);
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
        double x = round (zw_memory_layout_x (&l, i)) + 0.5;

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
      const ZwMemPane *mp = pane == 0 ? &l.etm : &l.ocm;
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
          double x0 = MAX (zw_memory_layout_x (&l, first), l.etm.x), x1 = MIN (zw_memory_layout_x (&l, last + 1.0), l.etm.x + l.etm.w);
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
        g_autofree char *text = peak_text (report, peak, peak_bytes);
        double x = round (zw_memory_layout_x (&l, peak + 0.5)) + 0.5;

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
        zw_painter_text (&p, MEMORY_MARGIN, l.title_y + colors->font_size * 1.5, 0, 0, width - 2 * MEMORY_MARGIN, &colors->warning,
                         text);
      }
  }

  /* The selected value: its chunk outlined, its own bytes filled. */
  if (selection != NULL && zw_selection_get_selected_value (selection) >= 0)
    {
      const ZwValueInfo *v = zw_deploy_report_find_value (report, zw_selection_get_selected_value (selection));
      const ZwChunkInfo *c = v != NULL && v->chunk >= 0 ? zw_deploy_report_find_chunk (report, v->chunk) : NULL;
      graphene_rect_t r;

      if (c != NULL && zw_memory_layout_chunk_rect (&l, c, &r))
        {
          const ZwMemPane *mp = c->in_ocm ? &l.ocm : &l.etm;
          double vy0 = zw_memory_pane_y (mp, (double) ((c->in_ocm ? c->ocm_addr : c->ftmp_offset) + v->chunk_offset + v->byte_size));
          double vy1 = zw_memory_pane_y (mp, (double) ((c->in_ocm ? c->ocm_addr : c->ftmp_offset) + v->chunk_offset));
          double vx0 = zw_memory_layout_x (&l, v->first), vx1 = zw_memory_layout_x (&l, v->last + 1.0);

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

