/* zw-tensor-view.c — the tensor inspector: value list, heatmap grid, histogram, stats. */
#include "zw-tensor-view.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN 8.0
#define TITLE_H 22.0
#define BOTTOM_H 150.0
#define GAP 3.0

void
zw_tensor_view_state_init (ZwTensorViewState *state)
{
  g_return_if_fail (state != NULL);
  memset (state, 0, sizeof *state);
}

void
zw_tensor_view_colormap (double t, guint8 rgb[3])
{
  /* viridis at five stops, linearly interpolated: perceptually ordered and readable for
   * colour-blind users, on light and dark backgrounds alike */
  static const guint8 stops[5][3] = {
    { 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c }, { 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
  };
  double x;
  int i;

  if (!(t >= 0))
    t = 0;
  if (t > 1)
    t = 1;
  x = t * 4;
  i = MIN ((int) x, 3);
  x -= i;
  for (int k = 0; k < 3; k++)
    rgb[k] = (guint8) lround (stops[i][k] + (stops[i + 1][k] - stops[i][k]) * x);
}

/* ---- grid geometry ---- */

typedef struct {
  double x0, y0, w, h;   /* grid area */
  gint64 cols, rows;
  double cell_w, cell_h; /* cell pitch */
  double scale;          /* pixels per element */
} Grid;

static gboolean
grid_compute (const ZwTensor *t, int width, int height, Grid *g)
{
  double best = -1;

  if (t == NULL || t->c <= 0 || t->h <= 0 || t->w <= 0)
    return FALSE;
  g->x0 = MARGIN;
  g->y0 = MARGIN + TITLE_H;
  g->w = MAX (10.0, width - 2 * MARGIN);
  g->h = MAX (10.0, height - g->y0 - BOTTOM_H - MARGIN);
  /* the column count that makes the cells largest */
  for (gint64 cols = 1; cols <= t->c; cols++)
    {
      gint64 rows = (t->c + cols - 1) / cols;
      double cw = g->w / cols - GAP, ch = g->h / rows - GAP;
      double s = MIN (cw / t->w, ch / t->h);
      if (s > best)
        {
          best = s;
          g->cols = cols;
          g->rows = rows;
        }
      if (rows == 1)
        break;
    }
  g->scale = best;
  g->cell_w = t->w * best + GAP;
  g->cell_h = t->h * best + GAP;
  return best > 0;
}

gboolean
zw_tensor_view_cell_rect (const ZwTensor *tensor, int width, int height, gint64 c, double rect[4])
{
  Grid g;

  if (!grid_compute (tensor, width, height, &g) || c < 0 || c >= tensor->c)
    return FALSE;
  rect[0] = g.x0 + floor ((c % g.cols) * g.cell_w);
  rect[1] = g.y0 + floor ((c / g.cols) * g.cell_h);
  rect[2] = tensor->w * g.scale;
  rect[3] = tensor->h * g.scale;
  return TRUE;
}

gboolean
zw_tensor_view_coords_at (const ZwTensor *tensor, gint64 batch, int width, int height, double x, double y,
                          gint64 coords[4])
{
  Grid g;
  gint64 col, row, c, h, w;
  double lx, ly;

  if (!grid_compute (tensor, width, height, &g) || x < g.x0 || y < g.y0)
    return FALSE;
  col = (gint64) ((x - g.x0) / g.cell_w);
  row = (gint64) ((y - g.y0) / g.cell_h);
  if (col >= g.cols)
    return FALSE;
  c = row * g.cols + col;
  /* cells start on whole pixels, as drawn */
  lx = x - g.x0 - floor (col * g.cell_w);
  ly = y - g.y0 - floor (row * g.cell_h);
  if (c >= tensor->c || lx >= tensor->w * g.scale || ly >= tensor->h * g.scale)
    return FALSE;
  w = MIN ((gint64) (lx / g.scale), tensor->w - 1);
  h = MIN ((gint64) (ly / g.scale), tensor->h - 1);
  if (batch < 0 || batch >= tensor->n)
    return FALSE;
  coords[0] = batch;
  coords[1] = c;
  coords[2] = h;
  coords[3] = w;
  return TRUE;
}

/* ---- drawing ---- */

/* The heatmap's colours: one table of 256 steps of the colour map, NaN in magenta. */
static void
heat_lut_init (guint32 lut[256])
{
  for (int i = 0; i < 256; i++)
    {
      guint8 rgb[3];
      zw_tensor_view_colormap (i / 255.0, rgb);
      lut[i] = 0xff000000u | ((guint32) rgb[0] << 16) | ((guint32) rgb[1] << 8) | rgb[2];
    }
}

static inline guint32
heat_pixel (const guint32 lut[256], double v, double lo, double span)
{
  double f;

  if (isnan (v))
    return 0xffff00ffu;
  f = span > 0 ? (v - lo) / span : 0.5;
  return lut[(int) CLAMP (f * 255.0 + 0.5, 0.0, 255.0)];
}

void
zw_tensor_view_paint_grid (cairo_t *cr, double x, double y, double scale, const float *values, gint64 rows,
                           gint64 cols, double lo, double hi)
{
  int img_w, img_h, stride;
  cairo_surface_t *img;
  guint32 lut[256];
  guint8 *pixels;

  g_return_if_fail (cr != NULL && (values != NULL || rows * cols == 0));
  img_w = (int) floor (cols * scale);
  img_h = (int) floor (rows * scale);
  if (img_w <= 0 || img_h <= 0 || scale <= 0)
    return;
  heat_lut_init (lut);
  img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, img_w, img_h);
  cairo_surface_flush (img);
  pixels = cairo_image_surface_get_data (img);
  stride = cairo_image_surface_get_stride (img);
  /* each pixel the element under its centre, as in the grid of channels */
  for (int py = 0; py < img_h; py++)
    {
      guint32 *line = (guint32 *) (pixels + (gsize) py * stride);
      gint64 r = MIN ((gint64) ((py + 0.5) / scale), rows - 1);
      for (int px = 0; px < img_w; px++)
        {
          gint64 c = MIN ((gint64) ((px + 0.5) / scale), cols - 1);
          line[px] = heat_pixel (lut, values[r * cols + c], lo, hi - lo);
        }
    }
  cairo_surface_mark_dirty (img);
  cairo_save (cr);
  cairo_set_source_surface (cr, img, floor (x), floor (y));
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (img);
}

static void
draw_heatmap (cairo_t *cr, const ZwTensor *t, const ZwTensorStats *stats, const ZwTensorViewState *state, const Grid *g)
{
  gboolean q = state->quantized && t->has_quantized;
  const ZwStatsSummary *s = q ? &stats->q : &stats->f;
  double lo = s->min, span = s->max - s->min;
  int img_w = (int) ceil (g->cols * g->cell_w), img_h = (int) ceil (g->rows * g->cell_h);
  int cw = MAX (1, (int) floor (t->w * g->scale)), ch = MAX (1, (int) floor (t->h * g->scale));
  gint64 batch = CLAMP (state->batch, 0, t->n - 1);
  cairo_surface_t *img;
  guint32 lut[256];
  const guint8 *bytes8;
  gboolean fast;
  guint8 *pixels;
  int stride;
  g_autofree gint64 *col_of = g_new (gint64, cw);
  g_autofree gint64 *row_of = g_new (gint64, ch);

  if (img_w <= 0 || img_h <= 0)
    return;
  heat_lut_init (lut);
  /* one image for the whole grid, each pixel the nearest element: the cost follows the
   * pixels drawn, not the tensor's size */
  img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, img_w, img_h);
  cairo_surface_flush (img);
  pixels = cairo_image_surface_get_data (img);
  stride = cairo_image_surface_get_stride (img);
  for (int x = 0; x < cw; x++)
    col_of[x] = MIN ((gint64) ((x + 0.5) / g->scale), t->w - 1);   /* the element under the pixel's centre */
  for (int y = 0; y < ch; y++)
    row_of[y] = MIN ((gint64) ((y + 0.5) / g->scale), t->h - 1);
  /* 8-bit values have 256 levels: one colour table per channel (its scale for the float
   * view) turns each pixel into a byte load and a table lookup */
  fast = t->has_quantized && (t->q_elem == ZW_TENSOR_S8 || t->q_elem == ZW_TENSOR_U8) && (q || t->f_bytes == NULL);
  bytes8 = fast ? g_bytes_get_data (t->q_bytes, NULL) : NULL;
  for (gint64 c = 0; c < t->c; c++)
    {
      int ox = (int) floor ((c % g->cols) * g->cell_w), oy = (int) floor ((c / g->cols) * g->cell_h);
      guint32 clut[256];

      if (fast)
        {
          ZwTensorSample s0;
          float scale = 1;
          if (!q && zw_tensor_get_at (t, batch, c, 0, 0, &s0, NULL))
            scale = s0.scale;
          for (int b = 0; b < 256; b++)
            {
              int level = t->q_elem == ZW_TENSOR_S8 ? (int) (gint8) b : b;
              double v = q ? (double) level : (double) ((float) level * scale);
              clut[b] = heat_pixel (lut, v, lo, span);
            }
        }
      for (int y = 0; y < ch && oy + y < img_h; y++)
        {
          guint32 *line = (guint32 *) (pixels + (gsize) (oy + y) * stride);
          gint64 base = zw_tensor_index_of (t, batch, c, row_of[y], 0);
          gint64 step = t->w > 1 ? zw_tensor_index_of (t, batch, c, row_of[y], 1) - base : 0;

          if (fast)
            {
              for (int x = 0; x < cw && ox + x < img_w; x++)
                line[ox + x] = clut[bytes8[base + step * col_of[x]]];
              continue;
            }
          for (int x = 0; x < cw && ox + x < img_w; x++)
            {
              guint64 idx = (guint64) (base + step * col_of[x]);
              double v;
              if (q)
                {
                  gint64 qv = 0;
                  zw_tensor_get_quantized (t, idx, &qv);
                  v = (double) qv;
                }
              else
                v = zw_tensor_get_float (t, idx);
              line[ox + x] = heat_pixel (lut, v, lo, span);
            }
        }
    }
  cairo_surface_mark_dirty (img);
  cairo_set_source_surface (cr, img, g->x0, g->y0);
  cairo_paint (cr);
  cairo_surface_destroy (img);
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

static char *
sample_text (const ZwTensor *t, const gint64 c[4])
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
  Grid g;
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
    zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
  }
  if (grid_compute (tensor, width, height, &g))
    {
      draw_heatmap (cr, tensor, stats, state, &g);
      /* channel numbers when the cells are large enough to carry them */
      if (g.cell_h > 28 && g.cell_w > 30)
        for (gint64 c = 0; c < tensor->c; c++)
          {
            char text[32];
            g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, c);
            zw_painter_text (&p, g.x0 + (c % g.cols) * g.cell_w + 2, g.y0 + (c / g.cols) * g.cell_h + 1, 0, 0, 0,
                             &colors->background, text);
          }
    }

  {
    double by = height - BOTTOM_H - MARGIN + 6, hw = (width - 2 * MARGIN) * 0.5;
    const ZwStatsSummary *s = q ? &stats->q : &stats->f;
    char line[256];
    double ty = by;

    draw_histogram (&p, tensor, stats, q, MARGIN, by, hw - 12, BOTTOM_H - 30);
    g_snprintf (line, sizeof line, _("%llu elements, shape n %lld × c %lld × h %lld × w %lld (%s)"),
                (unsigned long long) s->count, (long long) tensor->n, (long long) tensor->c, (long long) tensor->h,
                (long long) tensor->w, tensor->layout);
    zw_painter_text (&p, MARGIN + hw, ty, 0, 0, hw, NULL, line);
    ty += 17;
    g_snprintf (line, sizeof line, _("min %.7g   max %.7g"), s->min, s->max);
    zw_painter_text (&p, MARGIN + hw, ty, 0, 0, hw, NULL, line);
    ty += 17;
    g_snprintf (line, sizeof line, _("mean %.7g   std %.7g"), s->mean, s->std);
    zw_painter_text (&p, MARGIN + hw, ty, 0, 0, hw, NULL, line);
    ty += 17;
    g_snprintf (line, sizeof line,
                _("zero %llu   NaN %llu   +inf %llu   -inf %llu"), (unsigned long long) s->n_zero,
                (unsigned long long) s->n_nan, (unsigned long long) s->n_pos_inf, (unsigned long long) s->n_neg_inf);
    zw_painter_text (&p, MARGIN + hw, ty, 0, 0, hw,
                     s->n_nan + s->n_pos_inf + s->n_neg_inf > 0 ? &colors->warning : NULL, line);
    ty += 17;
    if (tensor->quantized && tensor->n_scales > 0)
      {
        if (tensor->n_scales == 1)
          g_snprintf (line, sizeof line, _("scale %.7g (per tensor)"), tensor->scales[0]);
        else
          g_snprintf (line, sizeof line, _("%u per-channel scales (c 0: %.7g)"), tensor->n_scales, tensor->scales[0]);
        zw_painter_text (&p, MARGIN + hw, ty, 0, 0, hw, &dim, line);
      }
    ty += 17;
    if (state->has_hover)
      {
        g_autofree char *text = sample_text (tensor, state->hover);
        if (text != NULL)
          zw_painter_text (&p, MARGIN + hw, ty, 0, 0, hw, &colors->accent, text);
      }
  }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- list rows ---- */

typedef struct {
  gint64 v_id;
  gint64 op_id;
  char *memory;
  char *shape;
  char *format;
  const ZwDumpData *data;   /* borrowed from the folder */
} ValueEntry;

#define ZW_TYPE_TENSOR_ROW (zw_tensor_row_get_type ())
G_DECLARE_FINAL_TYPE (ZwTensorRow, zw_tensor_row, ZW, TENSOR_ROW, GObject)

struct _ZwTensorRow
{
  GObject parent_instance;
  guint index;
  char *cells[5];
};

G_DEFINE_FINAL_TYPE (ZwTensorRow, zw_tensor_row, G_TYPE_OBJECT)

static void
zw_tensor_row_finalize (GObject *object)
{
  ZwTensorRow *self = ZW_TENSOR_ROW (object);
  for (int i = 0; i < 5; i++)
    g_free (self->cells[i]);
  G_OBJECT_CLASS (zw_tensor_row_parent_class)->finalize (object);
}

static void
zw_tensor_row_class_init (ZwTensorRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = zw_tensor_row_finalize;
}

static void
zw_tensor_row_init (ZwTensorRow *self)
{
  (void) self;
}

static const char *list_titles[5] = { N_("v_id"), N_("Op"), N_("Memory"), N_("Shape"), N_("Format") };

/* ---- the widget ---- */

struct _ZwTensorView
{
  ZwView parent_instance;
  ZwDumpFolder *folder;
  XirNetwork *network;
  GArray *entries;            /* ValueEntry */
  GPtrArray *messages;        /* char*: files that did not load */
  gint selected;              /* index into entries, -1 */
  ZwTensor *tensor;
  ZwTensorStats *stats;
  char *message;              /* the selected value's failure */
  char *title;
  ZwTensorViewState state;
  gboolean syncing;
  /* children */
  GtkWidget *paned;
  GtkWidget *messages_label;
  GListStore *store;
  GtkSingleSelection *model;
  GtkWidget *column_view;
  guint scroll_idle;        /* scrolls the list to scroll_to once laid out */
  guint scroll_to;
  GtkWidget *quantized_toggle;
  GtkWidget *hover_label;
  GtkWidget *area;
};

G_DEFINE_FINAL_TYPE (ZwTensorView, zw_tensor_view, ZW_TYPE_VIEW)

static void
value_entry_clear (gpointer data)
{
  ValueEntry *e = data;
  g_free (e->memory);
  g_free (e->shape);
  g_free (e->format);
}

static void
current_state (ZwTensorView *self, ZwTensorViewState *state)
{
  *state = self->state;
  state->title = self->title;
  state->message = self->message;
}

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwTensorView *self = user_data;
  ZwTensorViewState state;

  current_state (self, &state);
  state.has_hover = FALSE;   /* the overlay draws it */
  zw_tensor_view_draw (cr, width, height, self->tensor, self->stats, &state, colors);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwTensorView *self = user_data;
  double rect[4];
  Grid g;

  if (!self->state.has_hover || self->tensor == NULL || !grid_compute (self->tensor, width, height, &g)
      || !zw_tensor_view_cell_rect (self->tensor, width, height, self->state.hover[1], rect))
    return;
  /* the element under the cursor, and its channel's cell */
  {
    GdkRGBA outline = colors->accent;
    float bw[4] = { 1, 1, 1, 1 };
    GdkRGBA bc[4] = { outline, outline, outline, outline };
    GskRoundedRect rr;
    double ex = rect[0] + self->state.hover[3] * g.scale, ey = rect[1] + self->state.hover[2] * g.scale;
    double es = MAX (g.scale, 3.0);

    gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (rect[0] - 1, rect[1] - 1, rect[2] + 2, rect[3] + 2), 0);
    gtk_snapshot_append_border (snapshot, &rr, bw, bc);
    gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (ex - (es - g.scale) / 2, ey - (es - g.scale) / 2, es, es), 0);
    for (int i = 0; i < 4; i++)
      bc[i] = colors->warning;
    gtk_snapshot_append_border (snapshot, &rr, bw, bc);
  }
}

static void
update_hover_label (ZwTensorView *self)
{
  g_autofree char *text = NULL;

  if (self->state.has_hover && self->tensor != NULL)
    text = sample_text (self->tensor, self->state.hover);
  gtk_label_set_text (GTK_LABEL (self->hover_label), text != NULL ? text : "");
}

gboolean
zw_tensor_view_set_hover (ZwTensorView *self, const gint64 coords[4], char **text_out)
{
  ZwTensorSample s;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  if (text_out)
    *text_out = NULL;
  if (self->tensor == NULL || coords == NULL
      || !zw_tensor_get_at (self->tensor, coords[0], coords[1], coords[2], coords[3], &s, NULL))
    {
      self->state.has_hover = FALSE;
      update_hover_label (self);
      zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
      return FALSE;
    }
  self->state.has_hover = TRUE;
  memcpy (self->state.hover, coords, sizeof self->state.hover);
  update_hover_label (self);
  zw_draw_area_queue_overlay (ZW_DRAW_AREA (self->area));
  if (text_out)
    *text_out = sample_text (self->tensor, coords);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwTensorView *self)
{
  gint64 coords[4];

  (void) controller;
  if (self->tensor != NULL
      && zw_tensor_view_coords_at (self->tensor, self->state.batch, gtk_widget_get_width (self->area),
                                   gtk_widget_get_height (self->area), x, y, coords))
    zw_tensor_view_set_hover (self, coords, NULL);
  else if (self->state.has_hover)
    zw_tensor_view_set_hover (self, NULL, NULL);
}

static void
clear_selected (ZwTensorView *self)
{
  g_clear_pointer (&self->tensor, zw_tensor_free);
  g_clear_pointer (&self->stats, zw_tensor_stats_free);
  g_clear_pointer (&self->message, g_free);
  g_clear_pointer (&self->title, g_free);
  self->state.has_hover = FALSE;
  self->selected = -1;
}

static void
show_entry (ZwTensorView *self, gint index)
{
  g_autoptr (GError) error = NULL;
  const ValueEntry *e;

  clear_selected (self);
  if (index >= 0 && (guint) index < self->entries->len)
    {
      e = &g_array_index (self->entries, ValueEntry, index);
      self->selected = index;
      self->title = e->op_id >= 0 ? g_strdup_printf (_("v_id %lld · op %lld · %s · %s"), (long long) e->v_id,
                                                     (long long) e->op_id, e->memory, e->shape)
                                  : g_strdup_printf (_("v_id %lld · %s · %s"), (long long) e->v_id, e->memory, e->shape);
      self->tensor = zw_tensor_new_from_folder (self->folder, e->data, self->network, &error);
      if (self->tensor == NULL)
        self->message = g_strdup_printf ("%s: %s", e->data->path, error->message);
      else
        self->stats = zw_tensor_stats_compute (self->tensor, 64);
    }
  gtk_widget_set_sensitive (self->quantized_toggle, self->tensor != NULL && self->tensor->has_quantized);
  update_hover_label (self);
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

static void
on_row_selected (ZwTensorView *self)
{
  ZwTensorRow *row;

  if (self->syncing)
    return;
  row = gtk_single_selection_get_selected_item (self->model);
  show_entry (self, row != NULL ? (gint) row->index : -1);
  if (row != NULL && zw_view_get_report (ZW_VIEW (self)) != NULL)
    {
      self->syncing = TRUE;
      zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)),
                                       g_array_index (self->entries, ValueEntry, row->index).v_id);
      self->syncing = FALSE;
    }
}

static gboolean
scroll_idle_cb (gpointer data)
{
  ZwTensorView *self = data;

  self->scroll_idle = 0;
  /* the column view's list (a child) has the action (GTK 4.8: no gtk_column_view_scroll_to) */
  for (GtkWidget *c = gtk_widget_get_first_child (self->column_view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_activate_action (c, "list.scroll-to-item", "u", self->scroll_to))
      break;
  return G_SOURCE_REMOVE;
}

gboolean
zw_tensor_view_select_value (ZwTensorView *self, gint64 v_id)
{
  gint found = -1;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  for (guint i = 0; v_id >= 0 && i < self->entries->len && found < 0; i++)
    if (g_array_index (self->entries, ValueEntry, i).v_id == v_id)
      found = (gint) i;
  if (v_id >= 0 && found < 0)
    return FALSE;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->model, found >= 0 ? (guint) found : GTK_INVALID_LIST_POSITION);
  show_entry (self, found);
  /* selected here or anywhere else: the row scrolls into sight */
  if (found >= 0 && self->column_view != NULL)
    {
      self->scroll_to = (guint) found;
      if (self->scroll_idle == 0)
        self->scroll_idle = g_idle_add (scroll_idle_cb, self);
    }
  /* as a click does: the other views follow (when the report knows the value) */
  if (found >= 0 && zw_view_get_report (ZW_VIEW (self)) != NULL)
    zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)), v_id);
  self->syncing = FALSE;
  return TRUE;
}

static void
zw_tensor_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwTensorView *self = ZW_TENSOR_VIEW (view);
  gint64 v;

  if (self->syncing || !g_str_equal (pspec->name, "selected-value"))
    return;
  v = zw_selection_get_selected_value (zw_view_get_selection (ZW_VIEW (self)));
  if (v >= 0)
    zw_tensor_view_select_value (self, v);
}

static void
update_messages (ZwTensorView *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->messages->len; i++)
    {
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, g_ptr_array_index (self->messages, i));
    }
  gtk_label_set_text (GTK_LABEL (self->messages_label), text->str);
  gtk_widget_set_visible (self->messages_label, self->messages->len > 0);
}

static char *
shape_string (const ZwDumpShape *s)
{
  GString *str = g_string_new ("[");
  for (guint i = 0; i < s->rank; i++)
    g_string_append_printf (str, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, s->shape[i]);
  g_string_append_printf (str, "] %s", s->layout);
  return g_string_free (str, FALSE);
}

void
zw_tensor_view_set_folder (ZwTensorView *self, ZwDumpFolder *folder, XirNetwork *network)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  ZwDeployReport *report;

  g_return_if_fail (ZW_IS_TENSOR_VIEW (self));
  clear_selected (self);
  g_clear_pointer (&self->folder, zw_dump_folder_free);
  g_clear_pointer (&self->network, xir_network_unref);
  g_array_set_size (self->entries, 0);
  g_ptr_array_set_size (self->messages, 0);
  self->folder = folder;
  self->network = network != NULL ? xir_network_ref (network) : NULL;
  report = zw_view_get_report (ZW_VIEW (self));

  for (guint i = 0; folder != NULL && i < folder->warnings->len; i++)
    g_ptr_array_add (self->messages, g_strdup (g_ptr_array_index (folder->warnings, i)));
  for (guint i = 0; folder != NULL && i < folder->values->len; i++)
    {
      const ZwDumpData *d = g_ptr_array_index (folder->values, i);
      const ZwDumpManifestEntry *me = NULL;
      ValueEntry e = { d->v_id, -1, NULL, shape_string (&d->shape), g_strdup (zw_dump_format_to_string (d->format)), d };
      ZwTensorRow *row;

      for (guint k = 0; folder->manifest != NULL && k < folder->manifest->entries->len && me == NULL; k++)
        if (((ZwDumpManifestEntry *) g_ptr_array_index (folder->manifest->entries, k))->type.v_id == d->v_id)
          me = g_ptr_array_index (folder->manifest->entries, k);
      if (me != NULL)
        {
          e.op_id = me->op_id;
          e.memory = g_strdup (zw_dump_memory_to_string (me->memory));
        }
      else
        {
          /* a board's dump: the network names the producer, the report the memory */
          const XirValue *v = network != NULL ? xir_network_get_value (network, d->v_id) : NULL;
          const ZwValueInfo *vi = report != NULL ? zw_deploy_report_find_value (report, d->v_id) : NULL;
          if (v != NULL && v->producer >= 0)
            e.op_id = xir_network_get_op (network, (guint) v->producer)->op_id;
          else if (vi != NULL)
            e.op_id = vi->producer;
          e.memory = g_strdup (vi == NULL ? "?" : vi->is_host ? "HOST" : vi->is_ocm ? "OCM" : "ETM");
        }
      g_array_append_val (self->entries, e);

      row = g_object_new (ZW_TYPE_TENSOR_ROW, NULL);
      row->index = self->entries->len - 1;
      row->cells[0] = g_strdup_printf ("%" G_GINT64_FORMAT, e.v_id);
      row->cells[1] = e.op_id >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, e.op_id) : g_strdup ("");
      row->cells[2] = g_strdup (e.memory);
      row->cells[3] = g_strdup (e.shape);
      row->cells[4] = g_strdup (e.format);
      g_ptr_array_add (rows, row);
    }
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), rows->pdata, rows->len);
  gtk_single_selection_set_selected (self->model, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
  update_messages (self);
  show_entry (self, -1);
  /* open on something to look at: the first OCM-resident value (what only a dump with
   * merge off can show), else the first value */
  if (self->entries->len > 0)
    {
      guint pick = 0;
      for (guint i = 0; i < self->entries->len; i++)
        if (g_strcmp0 (g_array_index (self->entries, ValueEntry, i).memory, "OCM") == 0)
          {
            pick = i;
            break;
          }
      zw_tensor_view_select_value (self, g_array_index (self->entries, ValueEntry, pick).v_id);
    }
}

gboolean
zw_tensor_view_load_folder (ZwTensorView *self, const char *dir, XirNetwork *network, const char *format,
                            GError **error)
{
  ZwDumpFolder *folder;

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);
  folder = zw_dump_folder_load (dir, network, format, error);
  if (folder == NULL)
    return FALSE;
  zw_tensor_view_set_folder (self, folder, network);
  return TRUE;
}

GPtrArray *
zw_tensor_view_get_messages (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return self->messages;
}

guint
zw_tensor_view_get_n_values (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), 0);
  return self->entries->len;
}

gint64
zw_tensor_view_get_selected_value (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), -1);
  return self->selected >= 0 ? g_array_index (self->entries, ValueEntry, self->selected).v_id : -1;
}

const ZwTensor *
zw_tensor_view_get_tensor (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return self->tensor;
}

const ZwTensorStats *
zw_tensor_view_get_stats (ZwTensorView *self)
{
  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  return self->stats;
}

void
zw_tensor_view_set_quantized (ZwTensorView *self, gboolean quantized)
{
  g_return_if_fail (ZW_IS_TENSOR_VIEW (self));
  quantized = !!quantized;
  if (self->state.quantized == quantized)
    return;
  self->state.quantized = quantized;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->quantized_toggle)) != quantized)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->quantized_toggle), quantized);
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

static void
on_toggle (GtkToggleButton *button, ZwTensorView *self)
{
  zw_tensor_view_set_quantized (self, gtk_toggle_button_get_active (button));
}

GPtrArray *
zw_tensor_view_table (ZwTensorView *self)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  char **header = g_new0 (char *, 6);

  g_return_val_if_fail (ZW_IS_TENSOR_VIEW (self), NULL);
  for (int c = 0; c < 5; c++)
    header[c] = g_strdup (_(list_titles[c]));
  g_ptr_array_add (table, header);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->store)); i++)
    {
      g_autoptr (ZwTensorRow) row = g_list_model_get_item (G_LIST_MODEL (self->store), i);
      char **cells = g_new0 (char *, 6);
      for (int c = 0; c < 5; c++)
        cells[c] = g_strdup (row->cells[c]);
      g_ptr_array_add (table, cells);
    }
  return table;
}

void
zw_tensor_view_render (ZwTensorView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwTensorViewState state;

  g_return_if_fail (ZW_IS_TENSOR_VIEW (self));
  current_state (self, &state);
  zw_tensor_view_draw (cr, width, height, self->tensor, self->stats, &state, colors);
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == 0 || GPOINTER_TO_INT (data) == 1 ? 1 : 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  ZwTensorRow *row = gtk_list_item_get_item (item);

  (void) factory;
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), row->cells[GPOINTER_TO_INT (data)]);
}

static void
zw_tensor_view_dispose (GObject *object)
{
  ZwTensorView *self = ZW_TENSOR_VIEW (object);

  /* the list's selection model notifies while the children go: not to us any more */
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  self->column_view = NULL;
  clear_selected (self);
  g_clear_object (&self->model);
  g_clear_object (&self->store);
  g_clear_pointer (&self->folder, zw_dump_folder_free);
  g_clear_pointer (&self->network, xir_network_unref);
  G_OBJECT_CLASS (zw_tensor_view_parent_class)->dispose (object);
}

static void
zw_tensor_view_finalize (GObject *object)
{
  ZwTensorView *self = ZW_TENSOR_VIEW (object);

  g_array_unref (self->entries);
  g_ptr_array_unref (self->messages);
  G_OBJECT_CLASS (zw_tensor_view_parent_class)->finalize (object);
}

/* the view's content for exports (zw_view_render) */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  zw_tensor_view_render (ZW_TENSOR_VIEW (view), cr, width, height, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  return zw_tensor_view_table (ZW_TENSOR_VIEW (view));
}

static void
zw_tensor_view_class_init (ZwTensorViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = zw_tensor_view_dispose;
  object_class->finalize = zw_tensor_view_finalize;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_tensor_view_selection_notify;
  gtk_widget_class_set_css_name (widget_class, "zwtensorview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "tensors", N_("Tensors"), N_("Tensors view"), ZW_VIEW_DATA_DUMP);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_tensor_view_init (ZwTensorView *self)
{
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  static const ZwPointerHandlers handlers = { .motion = G_CALLBACK (on_motion) };

  self->entries = g_array_new (FALSE, TRUE, sizeof (ValueEntry));
  g_array_set_clear_func (self->entries, value_entry_clear);
  self->messages = g_ptr_array_new_with_free_func (g_free);
  self->selected = -1;
  zw_tensor_view_state_init (&self->state);

  self->messages_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->messages_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->messages_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->messages_label), TRUE);
  gtk_widget_add_css_class (self->messages_label, "error");
  gtk_widget_set_visible (self->messages_label, FALSE);
  gtk_box_append (GTK_BOX (left), self->messages_label);

  self->store = g_list_store_new (ZW_TYPE_TENSOR_ROW);
  self->model = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->store)));
  gtk_single_selection_set_autoselect (self->model, FALSE);
  gtk_single_selection_set_can_unselect (self->model, TRUE);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_row_selected), self);
  self->column_view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->model)));
  for (int c = 0; c < 5; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(list_titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
      g_object_unref (column);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->column_view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_size_request (scrolled, 260, 120);
  gtk_box_append (GTK_BOX (left), scrolled);

  self->quantized_toggle = gtk_toggle_button_new_with_label (_("Quantised"));
  gtk_widget_set_tooltip_text (self->quantized_toggle, _("Show the stored integers instead of the dequantised floats"));
  g_signal_connect (self->quantized_toggle, "toggled", G_CALLBACK (on_toggle), self);
  self->hover_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->hover_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->hover_label), TRUE);
  gtk_box_append (GTK_BOX (bar), self->quantized_toggle);
  gtk_box_append (GTK_BOX (bar), self->hover_label);
  gtk_box_append (GTK_BOX (right), bar);

  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 360, 300);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);
  gtk_box_append (GTK_BOX (right), self->area);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), left);
  gtk_paned_set_end_child (GTK_PANED (self->paned), right);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
}

GtkWidget *
zw_tensor_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_TENSOR_VIEW, "selection", selection, NULL);
}
