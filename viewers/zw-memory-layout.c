/* zw-memory-layout.c — where the Memory view puts its panes, each chunk and each op's
 * traffic bar, and what lies under a point: pure arithmetic over the report (no cairo, no
 * widget), shared by the drawing, the hover and the tests. */
#include "zw-memory-view-private.h"

#include <math.h>

double
zw_memory_layout_x (const ZwMemLayout *l, double index)
{
  return l->etm.x + (index - l->zs) / (l->ze - l->zs) * l->etm.w;
}

double
zw_memory_layout_index (const ZwMemLayout *l, double x)
{
  return l->zs + (x - l->etm.x) / l->etm.w * (l->ze - l->zs);
}

double
zw_memory_pane_y (const ZwMemPane *p, double bytes)
{
  return p->y + p->h - bytes / p->y_max * p->h;
}

void
zw_memory_layout_compute (const ZwDeployReport *report, ZwSelection *selection, int width, int height, const ZwViewStyle *style,
            ZwMemLayout *l)
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

  l->title_y = MEMORY_MARGIN;
  top = MEMORY_MARGIN + 2 * line;
  bottom = height - MEMORY_MARGIN - 2 * line;
  avail = MAX (20.0, bottom - top);
  /* the traffic pane under the occupancy, sharing its op-index axis */
  l->traffic.x = MEMORY_MARGIN + MEMORY_AXIS_W;
  l->traffic.w = MAX (20.0, width - 2 * MEMORY_MARGIN - MEMORY_AXIS_W);
  l->traffic.h = report->hardops->len > 0 ? floor (avail * 0.22) : 0;
  l->traffic.y = bottom - l->traffic.h;
  l->traffic.empty = FALSE;
  l->traffic.y_max = 1;
  if (l->traffic.h > 0)
    {
      bottom -= l->traffic.h + line;
      avail = MAX (20.0, bottom - top);
    }
  l->etm.x = l->ocm.x = MEMORY_MARGIN + MEMORY_AXIS_W;
  l->etm.w = l->ocm.w = MAX (20.0, width - 2 * MEMORY_MARGIN - MEMORY_AXIS_W);
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

gboolean
zw_memory_layout_traffic_bar (const ZwMemLayout *l, const ZwEtmTraffic *t, guint i, gboolean write, double r[4])
{
  guint64 bytes;
  double mid = l->traffic.y + floor (l->traffic.h / 2), half = floor (l->traffic.h / 2) - 2, hgt;

  if (l->traffic.h <= 0 || i >= t->n || t->peak_etm == 0)
    return FALSE;
  bytes = write ? t->etm_write[i] : t->etm_read[i];
  if (bytes == 0)
    return FALSE;
  hgt = MAX (1.0, round ((double) bytes / (double) t->peak_etm * half));
  r[0] = floor (zw_memory_layout_x (l, i));
  r[2] = MAX (1.0, floor (zw_memory_layout_x (l, i + 1.0)) - r[0]);
  r[1] = write ? mid + 1 : mid - hgt;
  r[3] = hgt;
  return TRUE;
}

gboolean
zw_memory_view_traffic_bar (ZwDeployReport *report, ZwSelection *selection, int width, int height,
                            const ZwViewStyle *colors, guint op_index, gboolean write, double rect[4])
{
  g_autoptr (ZwEtmTraffic) t = NULL;
  ZwMemLayout l;

  g_return_val_if_fail (report != NULL && colors != NULL && rect != NULL, FALSE);
  zw_memory_layout_compute (report, selection, width, height, colors, &l);
  t = zw_etm_traffic_compute (report);
  return zw_memory_layout_traffic_bar (&l, t, op_index, write, rect);
}

gboolean
zw_memory_layout_chunk_rect (const ZwMemLayout *l, const ZwChunkInfo *c, graphene_rect_t *r)
{
  const ZwMemPane *p = c->in_ocm ? &l->ocm : &l->etm;
  guint64 base = c->in_ocm ? c->ocm_addr : c->ftmp_offset;
  double x0 = zw_memory_layout_x (l, c->first), x1 = zw_memory_layout_x (l, c->last + 1.0);
  double y0 = zw_memory_pane_y (p, (double) (base + c->size)), y1 = zw_memory_pane_y (p, (double) base);

  if (p->h <= 0)
    return FALSE;
  graphene_rect_init (r, x0, y0, x1 - x0, y1 - y0);
  return TRUE;
}

const ZwChunkInfo *
zw_memory_layout_chunk_at (const ZwDeployReport *report, const ZwMemLayout *l, double x, double y)
{
  const ZwChunkInfo *best = NULL;

  for (guint i = 0; i < report->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
      graphene_rect_t r;

      if (!zw_memory_layout_chunk_rect (l, c, &r))
        continue;
      /* Sub-pixel chunks are hit within a pixel, as they are drawn. */
      if (x >= floor (r.origin.x) && x < MAX (r.origin.x + r.size.width, floor (r.origin.x) + 1)
          && y >= floor (r.origin.y) && y < MAX (r.origin.y + r.size.height, floor (r.origin.y) + 1))
        if (best == NULL || c->size < best->size)
          best = c;
    }
  return best;
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

