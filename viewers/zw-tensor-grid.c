/* zw-tensor-grid.c — where the tensor inspector puts each channel and which element lies
 * under a point: pure arithmetic over the tensor's shape (no cairo, no widget). */
#include "zw-tensor-view-private.h"

#include <math.h>

gboolean
zw_tensor_grid_compute (const ZwTensor *t, gint64 zoom, int width, int height, ZwTensorGrid *g)
{
  double best = -1;

  if (t == NULL || t->c <= 0 || t->h <= 0 || t->w <= 0 || zoom >= t->c)
    return FALSE;
  g->c0 = zoom >= 0 ? zoom : 0;
  g->n_c = zoom >= 0 ? 1 : t->c;
  g->x0 = TENSOR_MARGIN;
  g->y0 = TENSOR_MARGIN + TENSOR_TITLE_H;
  g->w = MAX (10.0, width - 2 * TENSOR_MARGIN - TENSOR_COLORBAR_W);
  g->h = MAX (10.0, height - g->y0 - TENSOR_BOTTOM_H - TENSOR_MARGIN);
  /* the column count that makes the cells largest */
  for (gint64 cols = 1; cols <= g->n_c; cols++)
    {
      gint64 rows = (g->n_c + cols - 1) / cols;
      double cw = g->w / cols - TENSOR_GAP, ch = g->h / rows - TENSOR_GAP;
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
  g->cell_w = t->w * best + TENSOR_GAP;
  g->cell_h = t->h * best + TENSOR_GAP;
  return best > 0;
}

gboolean
zw_tensor_grid_cell_rect (const ZwTensor *t, const ZwTensorGrid *g, gint64 c, double rect[4])
{
  gint64 i = c - g->c0;

  if (i < 0 || i >= g->n_c)
    return FALSE;
  rect[0] = g->x0 + floor ((i % g->cols) * g->cell_w);
  rect[1] = g->y0 + floor ((i / g->cols) * g->cell_h);
  rect[2] = t->w * g->scale;
  rect[3] = t->h * g->scale;
  return TRUE;
}

gboolean
zw_tensor_grid_coords_at (const ZwTensor *t, const ZwTensorGrid *g, gint64 batch, double x, double y, gint64 coords[4])
{
  gint64 col, row, i, h, w;
  double lx, ly;

  if (x < g->x0 || y < g->y0)
    return FALSE;
  col = (gint64) ((x - g->x0) / g->cell_w);
  row = (gint64) ((y - g->y0) / g->cell_h);
  if (col >= g->cols)
    return FALSE;
  i = row * g->cols + col;
  /* cells start on whole pixels, as drawn */
  lx = x - g->x0 - floor (col * g->cell_w);
  ly = y - g->y0 - floor (row * g->cell_h);
  if (i >= g->n_c || lx >= t->w * g->scale || ly >= t->h * g->scale)
    return FALSE;
  w = MIN ((gint64) (lx / g->scale), t->w - 1);
  h = MIN ((gint64) (ly / g->scale), t->h - 1);
  if (batch < 0 || batch >= t->n)
    return FALSE;
  coords[0] = batch;
  coords[1] = g->c0 + i;
  coords[2] = h;
  coords[3] = w;
  return TRUE;
}

gboolean
zw_tensor_view_cell_rect (const ZwTensor *tensor, int width, int height, gint64 c, double rect[4])
{
  ZwTensorGrid g;

  return zw_tensor_grid_compute (tensor, -1, width, height, &g) && zw_tensor_grid_cell_rect (tensor, &g, c, rect);
}

gboolean
zw_tensor_view_coords_at (const ZwTensor *tensor, gint64 batch, int width, int height, double x, double y,
                          gint64 coords[4])
{
  ZwTensorGrid g;

  return zw_tensor_grid_compute (tensor, -1, width, height, &g)
         && zw_tensor_grid_coords_at (tensor, &g, batch, x, y, coords);
}
