/* zw-timing-geometry.c — rows in time, lanes, time <-> x, hit testing of the Timing view. */
#include "zw-timing-geometry.h"
#include "zw-view-private.h"   /* zw_nice_step, the ticks every view's axes share */

#include <math.h>

void
zw_timing_state_init (ZwTimingState *state)
{
  g_return_if_fail (state != NULL);
  state->t0 = 0;
  state->t1 = 0;
  state->selected_row = -1;
  state->hover_row = -1;
  state->sel_t0 = 0;
  state->sel_t1 = 0;
}

ZwTimingLane
zw_timing_row_lane (const ZwProfileRow *row)
{
  g_return_val_if_fail (row != NULL, ZW_TIMING_LANE_NONE);
  if (row->backend != NULL)
    return g_ascii_strcasecmp (row->backend, "Host") == 0 ? ZW_TIMING_LANE_HOST : ZW_TIMING_LANE_NPU;
  return g_strcmp0 (row->op_type, "icraft::xir::HardOpNode") == 0 ? ZW_TIMING_LANE_NPU : ZW_TIMING_LANE_HOST;
}

double
zw_timing_layout (const ZwProfile *profile, double **starts_out)
{
  double *starts;
  double t = 0, end = 0;

  g_return_val_if_fail (profile != NULL, 0);

  starts = g_new (double, MAX (profile->rows->len, 1u));
  for (guint pos = 0; pos < profile->rows->len; pos++)
    {
      guint i = zw_profile_order_get (profile, pos);
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      /* Rows without a position follow the previous one in execution order (the vendor's
       * text file has no start times and lists its rows in its own order). */
      starts[i] = row->start_ms >= 0 ? row->start_ms : t;
      t = starts[i] + MAX (row->total_ms, 0.0);
      end = MAX (end, t);
    }
  if (starts_out != NULL)
    *starts_out = starts;
  else
    g_free (starts);
  return end;
}

GHashTable *
zw_timing_index_launches (ZwDeployReport *report)
{
  GHashTable *index;

  if (report == NULL)
    return NULL;
  index = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < report->launches->len; i++)
    {
      ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, i);
      if (l->merge_from->len > 1)
        g_hash_table_insert (index, &l->op_id, l->merge_from);
    }
  return index;
}

const GArray *
zw_timing_row_members (const ZwProfileRow *row, GHashTable *launches)
{
  if (row->merge_from != NULL && row->merge_from->len > 0)
    return row->merge_from;
  if (launches != NULL)
    return g_hash_table_lookup (launches, &row->op_id);
  return NULL;
}

gboolean
zw_timing_profile_has_merged (const ZwProfile *profile, GHashTable *launches)
{
  for (guint i = 0; profile != NULL && i < profile->rows->len; i++)
    if (zw_timing_row_members (g_ptr_array_index (profile->rows, i), launches) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
profile_has_merged_in (const ZwProfile *profile, ZwDeployReport *report)
{
  g_autoptr (GHashTable) launches = zw_timing_index_launches (report);
  return zw_timing_profile_has_merged (profile, launches);
}

void
zw_timing_geometry_init (ZwTimingGeometry *g, double end, const ZwTimingState *state, int width, int height,
                         gboolean has_merged)
{
  double top, avail, merged_h;

  g->x0 = ZW_TIMING_MARGIN + ZW_TIMING_LABEL_W;
  g->x1 = MAX (g->x0 + 1, width - ZW_TIMING_MARGIN);
  g->ruler_y0 = ZW_TIMING_MARGIN + ZW_TIMING_TITLE_H;
  g->ruler_y1 = g->ruler_y0 + ZW_TIMING_RULER_H;
  top = g->ruler_y1 + 4;
  avail = MAX (30.0, height - top - ZW_TIMING_SUMMARY_H - ZW_TIMING_MARGIN);
  /* the Merged lane holds one band per launch: a strip of its own height, and only a
   * labelled line when the profile merged nothing; NPU and Host share the rest */
  merged_h = has_merged ? MIN (floor (avail * 0.2), 44.0) : 12.0;
  g->lane_y[ZW_TIMING_LANE_NPU][0] = top;
  g->lane_y[ZW_TIMING_LANE_NPU][1] = top + floor ((avail - merged_h - 6) * 0.55);
  g->lane_y[ZW_TIMING_LANE_MERGED][0] = g->lane_y[ZW_TIMING_LANE_NPU][1] + 2;
  g->lane_y[ZW_TIMING_LANE_MERGED][1] = g->lane_y[ZW_TIMING_LANE_MERGED][0] + merged_h;
  g->lane_y[ZW_TIMING_LANE_HOST][0] = g->lane_y[ZW_TIMING_LANE_MERGED][1] + 4;
  g->lane_y[ZW_TIMING_LANE_HOST][1] = top + avail;
  g->summary_y = top + avail + 6;

  if (state != NULL && state->t1 > state->t0)
    {
      g->t0 = state->t0;
      g->t1 = state->t1;
    }
  else
    {
      g->t0 = 0;
      g->t1 = end > 0 ? end : 1;
    }
}

double
zw_timing_geometry_x (const ZwTimingGeometry *g, double t)
{
  return g->x0 + (t - g->t0) / (g->t1 - g->t0) * (g->x1 - g->x0);
}

double
zw_timing_geometry_time_at (const ZwTimingGeometry *g, double x)
{
  return g->t0 + (x - g->x0) / (g->x1 - g->x0) * (g->t1 - g->t0);
}

double
zw_timing_geometry_ruler_step (const ZwTimingGeometry *g)
{
  return zw_nice_step (g->t1 - g->t0, MAX (2, (int) ((g->x1 - g->x0) / 90)));
}

const char *
zw_timing_tick_label (double t, double step, char *buf, gsize size)
{
  if (step >= 1)
    g_snprintf (buf, size, "%.0f ms", t);
  else
    g_snprintf (buf, size, "%.*f ms", MIN (9, (int) ceil (-log10 (step))), t);
  return buf;
}

void
zw_timing_bar_parts (const ZwProfileRow *row, double w, double parts[3])
{
  double total = row->total_ms > 0 ? row->total_ms : 0;
  double m = MIN (MAX (row->memcpy_ms, 0.0), total);
  double h = MIN (MAX (row->hard_ms, 0.0), total - m);
  double o = MAX (total - m - h, 0.0);

  if (total <= 0)
    {
      parts[0] = parts[1] = parts[2] = 0;
      return;
    }
  parts[0] = w * m / total;
  parts[1] = w * h / total;
  parts[2] = w * o / total;
}

void
zw_timing_range_clamp (double end, double t0, double t1, double *out_t0, double *out_t1)
{
  double f0 = 0, f1 = end > 0 ? end : 1, w;

  if (!(t1 > t0) || !isfinite (t0) || !isfinite (t1))
    {
      t0 = f0;
      t1 = f1;
    }
  w = MIN (MAX (t1 - t0, (f1 - f0) * 1e-7), f1 - f0);
  t0 = CLAMP (t0, f0, f1 - w);
  *out_t0 = t0;
  *out_t1 = t0 + w;
}

void
zw_timing_range_zoom (double end, double t0, double t1, double factor, double center, double *out_t0, double *out_t1)
{
  double f = (center - t0) / (t1 - t0);
  double w = (t1 - t0) / factor;

  zw_timing_range_clamp (end, center - f * w, center - f * w + w, out_t0, out_t1);
}

double
zw_timing_x_of_time (const ZwProfile *profile, const ZwTimingState *state, int width, double t_ms)
{
  ZwTimingGeometry g;

  g_return_val_if_fail (profile != NULL, 0);
  zw_timing_geometry_init (&g, zw_timing_layout (profile, NULL), state, width, 400, FALSE);
  return zw_timing_geometry_x (&g, t_ms);
}

void
zw_timing_lane_extent (const ZwProfile *profile, ZwDeployReport *report, int width, int height, ZwTimingLane lane,
                       double *y0, double *y1)
{
  ZwTimingGeometry g;

  g_return_if_fail (lane >= ZW_TIMING_LANE_NPU && lane <= ZW_TIMING_LANE_HOST);
  zw_timing_geometry_init (&g, 1, NULL, width, height, profile_has_merged_in (profile, report));
  if (y0)
    *y0 = g.lane_y[lane][0];
  if (y1)
    *y1 = g.lane_y[lane][1];
}

gint
zw_timing_row_at (const ZwProfile *profile, ZwDeployReport *report, const ZwTimingState *state, int width, int height,
                  double x, double y, ZwTimingLane *lane_out)
{
  g_autofree double *starts = NULL;
  g_autoptr (GHashTable) launches = NULL;
  ZwTimingLane lane = ZW_TIMING_LANE_NONE;
  gint best = -1;
  double end, best_d = G_MAXDOUBLE;
  ZwTimingGeometry g;

  if (lane_out)
    *lane_out = ZW_TIMING_LANE_NONE;
  if (profile == NULL)
    return -1;
  end = zw_timing_layout (profile, &starts);
  launches = zw_timing_index_launches (report);
  zw_timing_geometry_init (&g, end, state, width, height, zw_timing_profile_has_merged (profile, launches));
  for (int l = ZW_TIMING_LANE_NPU; l <= ZW_TIMING_LANE_HOST; l++)
    if (y >= g.lane_y[l][0] && y < g.lane_y[l][1])
      lane = (ZwTimingLane) l;
  if (lane_out)
    *lane_out = lane;
  if (lane == ZW_TIMING_LANE_NONE || x < g.x0 || x > g.x1)
    return -1;
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      double a, b, d;

      if (lane == ZW_TIMING_LANE_MERGED ? zw_timing_row_members (row, launches) == NULL
                                        : zw_timing_row_lane (row) != lane)
        continue;
      a = zw_timing_geometry_x (&g, starts[i]);
      b = zw_timing_geometry_x (&g, starts[i] + MAX (row->total_ms, 0.0));
      /* A sub-pixel bar is drawn one pixel wide: hit it as drawn. */
      if (b - a < 1)
        b = a + 1;
      if (x < a - 0.5 || x > b + 0.5)
        continue;
      d = x < a ? a - x : x > b ? x - b : 0;
      if (d < best_d)
        {
          best_d = d;
          best = (gint) i;
        }
    }
  return best;
}

void
zw_timing_range_total (const ZwProfile *profile, double t0, double t1, double *npu_ms, double *host_ms, guint *n_rows)
{
  g_autofree double *starts = NULL;
  double npu = 0, host = 0;
  guint n = 0;

  if (profile != NULL && t1 > t0)
    {
      zw_timing_layout (profile, &starts);
      for (guint i = 0; i < profile->rows->len; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
          double a = MAX (starts[i], t0), b = MIN (starts[i] + MAX (row->total_ms, 0.0), t1);
          if (b <= a)
            continue;
          n++;
          if (zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU)
            npu += b - a;
          else
            host += b - a;
        }
    }
  if (npu_ms)
    *npu_ms = npu;
  if (host_ms)
    *host_ms = host;
  if (n_rows)
    *n_rows = n;
}
