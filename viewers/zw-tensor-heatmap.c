/* zw-tensor-heatmap.c — tensors as heatmaps: the colour map, a plain grid of values, and
 * every channel of a tensor in its cell of the inspector's grid. */
#include "zw-tensor-view-private.h"

#include <math.h>

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

void
zw_tensor_draw_heatmap (cairo_t *cr, const ZwTensor *t, const ZwTensorStats *stats, const ZwTensorViewState *state, const ZwTensorGrid *g)
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
  for (gint64 c = g->c0; c < g->c0 + g->n_c; c++)
    {
      gint64 i = c - g->c0;   /* the cell's place in the grid */
      int ox = (int) floor ((i % g->cols) * g->cell_w), oy = (int) floor ((i / g->cols) * g->cell_h);
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
