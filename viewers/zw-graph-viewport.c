/* zw-graph-viewport.c — the graph view's viewport: fit, centre, zoom, screen to layout, the
 * minimap's place. */
#include "zw-graph-viewport.h"

#include <math.h>
#include <string.h>

void
zw_graph_viewport_init (ZwGraphViewport *vp)
{
  g_return_if_fail (vp != NULL);
  memset (vp, 0, sizeof *vp);
  vp->scale = 1;
  vp->minimap = TRUE;
  vp->legend = TRUE;
  vp->labels = TRUE;
  vp->hover_node = vp->hover_edge = -1;
}

void
zw_graph_viewport_fit (ZwGraphViewport *vp, const ZwGraphLayout *layout, int width, int height)
{
  double h;

  g_return_if_fail (vp != NULL && layout != NULL);

  /* the legend's band is not for the graph (when the view is tall enough to spare it) */
  h = vp->legend && height > 3 * ZW_GRAPH_LEGEND_HEIGHT ? height - ZW_GRAPH_LEGEND_HEIGHT : height;
  vp->scale = MIN (1.0, MIN (width / MAX (layout->width, 1.0), h / MAX (layout->height, 1.0)));
  vp->scale = MAX (vp->scale, 1e-5);
  /* centred above the legend */
  vp->x = layout->width / 2 - width / 2.0 / vp->scale;
  vp->y = layout->height / 2 - h / 2.0 / vp->scale;
}

void
zw_graph_viewport_center (ZwGraphViewport *vp, double x, double y, int width, int height)
{
  g_return_if_fail (vp != NULL);
  vp->x = x - width / 2.0 / vp->scale;
  vp->y = y - height / 2.0 / vp->scale;
}
void
zw_graph_viewport_to_layout (const ZwGraphViewport *vp, double x, double y, double *lx, double *ly)
{
  g_return_if_fail (vp != NULL && lx != NULL && ly != NULL);
  *lx = vp->x + x / vp->scale;
  *ly = vp->y + y / vp->scale;
}

void
zw_graph_viewport_zoom_at (ZwGraphViewport *vp, double factor, double x, double y)
{
  double lx, ly;

  g_return_if_fail (vp != NULL);
  zw_graph_viewport_to_layout (vp, x, y, &lx, &ly);
  vp->scale = CLAMP (vp->scale * factor, 1e-4, 4);
  vp->x = lx - x / vp->scale;
  vp->y = ly - y / vp->scale;
}

gboolean
zw_graph_viewport_minimap (const ZwGraphViewport *vp, const ZwGraphLayout *layout, int width, int height, double *x,
                           double *y, int *w, int *h, double *scale)
{
  const double max_w = 160, max_h = 200, margin = 10;
  double s;
  int mw, mh;

  g_return_val_if_fail (vp != NULL && layout != NULL, FALSE);

  if (!vp->minimap || !(layout->width * vp->scale > width || layout->height * vp->scale > height))
    return FALSE;
  s = MIN (max_w / MAX (layout->width, 1), max_h / MAX (layout->height, 1));
  mw = MAX (8, (int) ceil (layout->width * s));
  mh = MAX (8, (int) ceil (layout->height * s));
  *x = width - mw - margin;
  *y = height - mh - margin - (vp->legend ? ZW_GRAPH_LEGEND_HEIGHT : 0);
  *w = mw;
  *h = mh;
  *scale = s;
  return !(*x < width / 2.0 || *y < height / 2.0);
}
