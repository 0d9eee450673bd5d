/* zw-tensor-draw.c — the inspector's picture: the title, the heatmap with channel numbers,
 * the histogram and the statistics of the selected value. */
#include "zw-tensor-view-private.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <string.h>

void
zw_tensor_view_state_init (ZwTensorViewState *state)
{
  g_return_if_fail (state != NULL);
  memset (state, 0, sizeof *state);
}

static void
draw_histogram (ZwPainter *p, const ZwTensor *t, const ZwTensorStats *stats, gboolean q, double x, double y, double w,
                double h)
{
  const ZwHistogram *hist = q ? &stats->q_hist : &stats->f_hist;
  const ZwStatsSummary *s = q ? &stats->q : &stats->f;
  guint64 peak = 0;
  guint first = 0, last = 0;
  GdkRGBA dim = p->style->foreground;
  char text[64];

  (void) t;
  dim.alpha *= 0.7f;
  zw_cairo_set_color_alpha (p->cr, &p->style->grid, 0.35);
  cairo_rectangle (p->cr, x, y, w, h - 16);
  cairo_fill (p->cr);
  if (hist->n_bins == 0 || hist->counts == NULL)
    return;
  /* for level histograms show only the occupied levels' span */
  first = hist->n_bins;
  for (guint i = 0; i < hist->n_bins; i++)
    if (hist->counts[i] > 0)
      {
        first = MIN (first, i);
        last = i;
        peak = MAX (peak, hist->counts[i]);
      }
  if (peak == 0)
    return;
  zw_cairo_set_color (p->cr, &p->style->accent);
  for (guint i = first; i <= last; i++)
    {
      double bx = x + (i - first) * w / (last - first + 1);
      double bw = MAX (1.0, w / (last - first + 1) - (w / (last - first + 1) > 3 ? 1 : 0));
      double bh = (h - 18) * (double) hist->counts[i] / (double) peak;
      if (hist->counts[i] > 0)
        cairo_rectangle (p->cr, bx, y + h - 16 - bh, bw, MAX (bh, 1.0));
    }
  cairo_fill (p->cr);
  if (hist->levels)
    {
      g_snprintf (text, sizeof text, "%.0f", hist->lo + first);
      zw_painter_text (p, x, y + h - 14, 0, 0, 0, &dim, text);
      g_snprintf (text, sizeof text, "%.0f", hist->lo + last);
    }
  else
    {
      g_snprintf (text, sizeof text, "%.4g", s->min);
      zw_painter_text (p, x, y + h - 14, 0, 0, 0, &dim, text);
      g_snprintf (text, sizeof text, "%.4g", s->max);
    }
  zw_painter_text (p, x + w, y + h - 14, 1, 0, 0, &dim, text);
}

/* The colour bar right of the grid: the colour map from the view's min (bottom) to its max
 * (top), both labelled, as tall as the grid drawn. */
static void
draw_colorbar (ZwPainter *p, const ZwTensorGrid *g, const ZwStatsSummary *s, gboolean levels, double right)
{
  double x = right - TENSOR_COLORBAR_W + 10, y = g->y0;
  double h = MIN (g->h, g->rows * g->cell_h - TENSOR_GAP);
  int n = MAX (1, (int) floor (h));
  char text[64];

  if (h < 24)
    return;
  for (int i = 0; i < n; i++)
    {
      guint8 rgb[3];
      zw_tensor_view_colormap (1.0 - (i + 0.5) / n, rgb);
      cairo_set_source_rgb (p->cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
      cairo_rectangle (p->cr, x, y + i * h / n, TENSOR_COLORBAR_BAR, h / n + 0.5);
      cairo_fill (p->cr);
    }
  zw_cairo_set_color_alpha (p->cr, &p->style->foreground, 0.5);
  cairo_set_line_width (p->cr, 1);
  cairo_rectangle (p->cr, x - 0.5, y - 0.5, TENSOR_COLORBAR_BAR + 1, h + 1);
  cairo_stroke (p->cr);
  g_snprintf (text, sizeof text, levels ? "%.0f" : "%.4g", s->max);
  zw_painter_text (p, x + TENSOR_COLORBAR_BAR + 4, y, 0, 0, TENSOR_COLORBAR_W - TENSOR_COLORBAR_BAR - 12, NULL, text);
  g_snprintf (text, sizeof text, levels ? "%.0f" : "%.4g", s->min);
  zw_painter_text (p, x + TENSOR_COLORBAR_BAR + 4, y + h, 0, 1, TENSOR_COLORBAR_W - TENSOR_COLORBAR_BAR - 12, NULL,
                   text);
}

char *
zw_tensor_sample_text (const ZwTensor *t, const gint64 c[4])
{
  ZwTensorSample s;

  if (!zw_tensor_get_at (t, c[0], c[1], c[2], c[3], &s, NULL))
    return NULL;
  if (s.has_q)
    return g_strdup_printf ("(n %" G_GINT64_FORMAT ", c %" G_GINT64_FORMAT ", h %" G_GINT64_FORMAT ", w %" G_GINT64_FORMAT
                            ") = %.9g  (q %" G_GINT64_FORMAT " × scale %.7g)",
                            c[0], c[1], c[2], c[3], s.value, s.q, s.scale);
  return g_strdup_printf ("(n %" G_GINT64_FORMAT ", c %" G_GINT64_FORMAT ", h %" G_GINT64_FORMAT ", w %" G_GINT64_FORMAT
                          ") = %.9g",
                          c[0], c[1], c[2], c[3], s.value);
}

void
zw_tensor_view_draw (cairo_t *cr, int width, int height, const ZwTensor *tensor, const ZwTensorStats *stats,
                     const ZwTensorViewState *state, const ZwViewStyle *colors)
{
  ZwTensorViewState fallback;
  ZwPainter p;
  ZwTensorGrid g;
  GdkRGBA dim;
  gboolean q;

  g_return_if_fail (cr != NULL && colors != NULL);
  if (state == NULL)
    {
      zw_tensor_view_state_init (&fallback);
      state = &fallback;
    }
  zw_painter_begin (&p, cr, colors);
  dim = p.dim;

  if (tensor == NULL || stats == NULL)
    {
      if (state->message != NULL)
        zw_painter_text (&p, width / 2.0, height / 2.0, 0.5, 0.5, width - 20, &colors->warning, state->message);
      else
        zw_draw_empty (&p, width, height, _("No value selected"));
      goto out;
    }
  q = state->quantized && tensor->has_quantized;
  {
    g_autofree char *title = g_strdup_printf ("%s  ·  %s %s", state->title != NULL ? state->title : tensor->origin,
                                              q ? zw_tensor_elem_to_string (tensor->q_elem) : "float",
                                              q ? _("(quantised)") : _("(float)"));
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, TENSOR_MARGIN, TENSOR_MARGIN, 0, 0, width - 2 * TENSOR_MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
  }
  if (zw_tensor_grid_compute (tensor, state->zoomed ? state->zoom_channel : -1, width, height, &g))
    {
      zw_tensor_draw_heatmap (cr, tensor, stats, state, &g);
      /* channel numbers when the cells are large enough to carry them */
      if (g.cell_h > 28 && g.cell_w > 30)
        for (gint64 c = g.c0; c < g.c0 + g.n_c; c++)
          {
            char text[48];
            double rect[4];
            if (state->zoomed)
              /* TRANSLATORS: the one channel drawn large (Escape shows them all again) */
              g_snprintf (text, sizeof text, _("channel %li"), (long) c);
            else
              g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, c);
            zw_tensor_grid_cell_rect (tensor, &g, c, rect);
            zw_painter_text (&p, rect[0] + 2, rect[1] + 1, 0, 0, 0, &colors->background, text);
          }
      draw_colorbar (&p, &g, q ? &stats->q : &stats->f, q, width - TENSOR_MARGIN);
    }

  {
    double by = height - TENSOR_BOTTOM_H - TENSOR_MARGIN + 6, hw = (width - 2 * TENSOR_MARGIN) * 0.5;
    const ZwStatsSummary *s = q ? &stats->q : &stats->f;
    char line[256];
    double ty = by;

    draw_histogram (&p, tensor, stats, q, TENSOR_MARGIN, by, hw - 12, TENSOR_BOTTOM_H - 30);
    g_snprintf (line, sizeof line, _("%llu elements, shape n %lld × c %lld × h %lld × w %lld (%s)"),
                (unsigned long long) s->count, (long long) tensor->n, (long long) tensor->c, (long long) tensor->h,
                (long long) tensor->w, tensor->layout);
    zw_painter_text (&p, TENSOR_MARGIN + hw, ty, 0, 0, hw, NULL, line);
    ty += 17;
    g_snprintf (line, sizeof line, _("min %.7g   max %.7g"), s->min, s->max);
    zw_painter_text (&p, TENSOR_MARGIN + hw, ty, 0, 0, hw, NULL, line);
    ty += 17;
    g_snprintf (line, sizeof line, _("mean %.7g   std %.7g"), s->mean, s->std);
    zw_painter_text (&p, TENSOR_MARGIN + hw, ty, 0, 0, hw, NULL, line);
    ty += 17;
    g_snprintf (line, sizeof line,
                _("zero %llu   NaN %llu   +inf %llu   -inf %llu"), (unsigned long long) s->n_zero,
                (unsigned long long) s->n_nan, (unsigned long long) s->n_pos_inf, (unsigned long long) s->n_neg_inf);
    zw_painter_text (&p, TENSOR_MARGIN + hw, ty, 0, 0, hw,
                     s->n_nan + s->n_pos_inf + s->n_neg_inf > 0 ? &colors->warning : NULL, line);
    ty += 17;
    if (tensor->quantized && tensor->n_scales > 0)
      {
        if (tensor->n_scales == 1)
          g_snprintf (line, sizeof line, _("scale %.7g (per tensor)"), tensor->scales[0]);
        else
          g_snprintf (line, sizeof line, _("%u per-channel scales (c 0: %.7g)"), tensor->n_scales, tensor->scales[0]);
        zw_painter_text (&p, TENSOR_MARGIN + hw, ty, 0, 0, hw, &dim, line);
      }
    ty += 17;
    if (state->has_hover)
      {
        g_autofree char *text = zw_tensor_sample_text (tensor, state->hover);
        if (text != NULL)
          zw_painter_text (&p, TENSOR_MARGIN + hw, ty, 0, 0, hw, &colors->accent, text);
      }
  }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}
