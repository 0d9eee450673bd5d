/* zw-sweep-geometry.c — where a sweep's plot goes and where each row's point is: pure
 * arithmetic over the sweep's figures (no cairo, no widget). */
#include "zw-sweep-view-private.h"

#include <math.h>
#include <string.h>

gboolean
zw_sweep_row_plotted (const ZwSweepRow *r)
{
  return r->error == NULL && isfinite (r->simulated_ms);
}

/* A range around [lo, hi] with room for the markers, never below 0. */
static void
pad_range (double lo, double hi, double min_pad, double *out_lo, double *out_hi)
{
  double pad = hi > lo ? (hi - lo) * 0.08 : MAX (fabs (hi) * 0.1, min_pad);

  *out_lo = MAX (0.0, lo - pad);
  *out_hi = hi + pad;
  if (*out_hi <= *out_lo)
    *out_hi = *out_lo + min_pad;
}

gboolean
zw_sweep_geo_compute (ZwSweepGeo *g, const ZwSweep *sweep, int width, int height)
{
  double etm_min = G_MAXDOUBLE, etm_max = -G_MAXDOUBLE, ms_min = G_MAXDOUBLE, ms_max = -G_MAXDOUBLE;
  guint error_lines;

  memset (g, 0, sizeof *g);
  if (sweep == NULL)
    return FALSE;
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      if (!zw_sweep_row_plotted (r))
        {
          g->n_errors++;
          continue;
        }
      g->n_plotted++;
      etm_min = MIN (etm_min, (double) r->etm_bytes);
      etm_max = MAX (etm_max, (double) r->etm_bytes);
      ms_min = MIN (ms_min, r->simulated_ms);
      ms_max = MAX (ms_max, r->simulated_ms);
    }
  error_lines = g->n_errors == 0 ? 0 : 1 + MIN (g->n_errors, SWEEP_MAX_ERROR_LINES) + (g->n_errors > SWEEP_MAX_ERROR_LINES);
  g->x0 = SWEEP_MARGIN + SWEEP_TICKS_W;
  g->x1 = MAX (g->x0 + 40, width - SWEEP_MARGIN - SWEEP_LEGEND_W - 16);
  g->y0 = SWEEP_MARGIN + SWEEP_TITLE_H + SWEEP_LINE_H;      /* the y axis' title above the plot */
  g->errors_y = height - SWEEP_MARGIN - error_lines * SWEEP_LINE_H;
  g->y1 = MAX (g->y0 + 40, g->errors_y - SWEEP_AXIS_H - (error_lines > 0 ? 6 : 0));
  if (g->n_plotted == 0)
    return FALSE;
  pad_range (etm_min, etm_max, 1024, &g->etm_lo, &g->etm_hi);
  pad_range (ms_min, ms_max, 1e-3, &g->ms_lo, &g->ms_hi);
  return TRUE;
}

double
zw_sweep_geo_x (const ZwSweepGeo *g, double etm)
{
  return g->x0 + (etm - g->etm_lo) / (g->etm_hi - g->etm_lo) * (g->x1 - g->x0);
}

double
zw_sweep_geo_y (const ZwSweepGeo *g, double ms)
{
  return g->y1 - (ms - g->ms_lo) / (g->ms_hi - g->ms_lo) * (g->y1 - g->y0);
}

gboolean
zw_sweep_view_plot_area (const ZwSweep *sweep, int width, int height, double *x0, double *y0, double *x1, double *y1)
{
  ZwSweepGeo g;
  gboolean ok = zw_sweep_geo_compute (&g, sweep, width, height);

  if (x0)
    *x0 = g.x0;
  if (y0)
    *y0 = g.y0;
  if (x1)
    *x1 = g.x1;
  if (y1)
    *y1 = g.y1;
  return ok;
}

gboolean
zw_sweep_view_map (const ZwSweep *sweep, int width, int height, double etm_bytes, double ms, double *x, double *y)
{
  ZwSweepGeo g;

  if (!zw_sweep_geo_compute (&g, sweep, width, height))
    return FALSE;
  if (x)
    *x = zw_sweep_geo_x (&g, etm_bytes);
  if (y)
    *y = zw_sweep_geo_y (&g, ms);
  return TRUE;
}

gboolean
zw_sweep_view_row_point (const ZwSweep *sweep, int width, int height, guint index, double *x, double *y)
{
  const ZwSweepRow *r;

  if (sweep == NULL || index >= sweep->rows->len)
    return FALSE;
  r = &g_array_index (sweep->rows, ZwSweepRow, index);
  if (!zw_sweep_row_plotted (r))
    return FALSE;
  return zw_sweep_view_map (sweep, width, height, (double) r->etm_bytes, r->simulated_ms, x, y);
}

static gint
row_at (const ZwSweep *sweep, const ZwSweepGeo *g, double x, double y, double tolerance)
{
  gint best = -1;
  double best_d = tolerance * tolerance;

  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, i);
      double dx, dy, d;
      if (!zw_sweep_row_plotted (r))
        continue;
      dx = zw_sweep_geo_x (g, (double) r->etm_bytes) - x;
      dy = zw_sweep_geo_y (g, r->simulated_ms) - y;
      d = dx * dx + dy * dy;
      /* strictly nearer: of rows at one point, the lowest index */
      if (d <= best_d && (best < 0 || d < best_d))
        {
          best = (gint) i;
          best_d = d;
        }
    }
  return best;
}

gint
zw_sweep_view_row_at (const ZwSweep *sweep, int width, int height, double x, double y, double tolerance)
{
  ZwSweepGeo g;

  if (!zw_sweep_geo_compute (&g, sweep, width, height))
    return -1;
  return row_at (sweep, &g, x, y, tolerance);
}
