/* zw-tensor-grid.c — where the tensor inspector puts each channel and which element lies
 * under a point: pure arithmetic over the tensor's shape (no cairo, no widget). */
#include "zw-tensor-view-private.h"

#include <math.h>

gboolean
zw_tensor_grid_compute (const ZwTensor *t, int width, int height, ZwTensorGrid *g)
{
  double best = -1;

  if (t == NULL || t->c <= 0 || t->h <= 0 || t->w <= 0)
    return FALSE;
  g->x0 = TENSOR_MARGIN;
  g->y0 = TENSOR_MARGIN + TENSOR_TITLE_H;
  g->w = MAX (10.0, width - 2 * TENSOR_MARGIN);
  g->h = MAX (10.0, height - g->y0 - TENSOR_BOTTOM_H - TENSOR_MARGIN);
  /* the column count that makes the cells largest */
  for (gint64 cols = 1; cols <= t->c; cols++)
    {
      gint64 rows = (t->c + cols - 1) / cols;
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
zw_tensor_view_cell_rect (const ZwTensor *tensor, int width, int height, gint64 c, double rect[4])
{
  ZwTensorGrid g;

  if (!zw_tensor_grid_compute (tensor, width, height, &g) || c < 0 || c >= tensor->c)
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
  ZwTensorGrid g;
  gint64 col, row, c, h, w;
  double lx, ly;

  if (!zw_tensor_grid_compute (tensor, width, height, &g) || x < g.x0 || y < g.y0)
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
