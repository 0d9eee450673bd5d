/* zw-timing-geometry.h — where the Timing view puts things: rows in time, lanes, time <-> x,
 * bar parts, ruler ticks, the visible range and hit testing.
 *
 * Pure functions of a ZwProfile (and, for merged launches, its ZwDeployReport): no widget,
 * no cairo, no display. The drawing (zw-timing-draw.c), the widget's events and the tests
 * all place and hit things through these, so what is drawn is what is clicked.
 *
 * A drawing of width x height is, top to bottom: the title (TITLE_H), the ruler (RULER_H),
 * the lanes NPU, Merged and Host, then the summary blocks (SUMMARY_H); the plot spans
 * [MARGIN + LABEL_W, width - MARGIN]. The Merged lane is a strip of its own height when the
 * profile (with its report) has merged launches and a thin labelled line when it has none:
 * NPU and Host share the rest.
 */
#pragma once

#include <glib.h>
#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

#define ZW_TIMING_LABEL_W 56.0
#define ZW_TIMING_MARGIN 8.0
#define ZW_TIMING_TITLE_H 22.0
#define ZW_TIMING_RULER_H 22.0
#define ZW_TIMING_SUMMARY_H 92.0

/* What the draw function shows besides the data: the visible range and the marks. */
typedef struct {
  double t0, t1;           /* visible time range (ms); t1 <= t0 means the whole profile */
  gint selected_row;       /* index into profile->rows, -1 for none */
  gint hover_row;          /* -1 for none */
  double sel_t0, sel_t1;   /* drag-selected range (ms); sel_t1 <= sel_t0 for none */
} ZwTimingState;

/* The state with nothing selected and the whole profile visible. */
void zw_timing_state_init (ZwTimingState *state);

typedef enum {
  ZW_TIMING_LANE_NONE = -1,
  ZW_TIMING_LANE_NPU,
  ZW_TIMING_LANE_MERGED,
  ZW_TIMING_LANE_HOST,
} ZwTimingLane;

/* Where the rows lie in time: @starts_out (may be NULL) receives a g_new array of
 * profile->rows->len start times (ms); returns the end of the last row. */
double zw_timing_layout (const ZwProfile *profile, double **starts_out);
/* The lane a row is drawn in (NPU or HOST). */
ZwTimingLane zw_timing_row_lane (const ZwProfileRow *row);

/* Launch op id -> merge_from (a GArray of gint64, borrowed) of @report's merged launches,
 * so that placing 10,000 rows does not scan the launches once per row. NULL without a
 * report. */
GHashTable *zw_timing_index_launches (ZwDeployReport *report);
/* The members of a merged row: the profile's merge_from, else the report's launch of that
 * op id (a vendor text file loses merge_from). Borrowed; NULL when the row is no merge.
 * @launches: zw_timing_index_launches() of the report, may be NULL. */
const GArray *zw_timing_row_members (const ZwProfileRow *row, GHashTable *launches);
/* Whether some row of @profile (may be NULL) is a merged launch (the Merged lane has bands). */
gboolean zw_timing_profile_has_merged (const ZwProfile *profile, GHashTable *launches);

/* The boxes of a drawing of one size. */
typedef struct {
  double x0, x1;          /* plot area */
  double ruler_y0, ruler_y1;
  double lane_y[3][2];    /* [y0, y1) of the NPU, MERGED and HOST lanes */
  double summary_y;
  double t0, t1;          /* visible range */
} ZwTimingGeometry;

/* The boxes of a drawing of @width x @height of a profile ending at @end ms, showing
 * @state's range (NULL or an empty range: [0, end], or [0, 1] when @end <= 0). */
void zw_timing_geometry_init (ZwTimingGeometry *g, double end, const ZwTimingState *state, int width, int height,
                              gboolean has_merged);
/* The x of time @t (ms), and the time at @x. */
double zw_timing_geometry_x (const ZwTimingGeometry *g, double t);
double zw_timing_geometry_time_at (const ZwTimingGeometry *g, double x);
/* The ruler's tick step (ms): a 1-2-5 step, a tick about every 90 pixels (at least two). */
double zw_timing_geometry_ruler_step (const ZwTimingGeometry *g);
/* A ruler label for time @t with ticks every @step ms ("12 ms", "0.25 ms"): as many
 * decimals as the step needs, at most 9. Writes @buf (@size bytes); returns it. */
const char *zw_timing_tick_label (double t, double step, char *buf, gsize size);

/* The widths of a bar's three parts (memcpy, hard, other) when the bar is @w pixels: hard
 * is clipped to what memcpy leaves of the total, a negative other is none, and a row
 * without a positive total has none. */
void zw_timing_bar_parts (const ZwProfileRow *row, double w, double parts[3]);

/* The visible range [@t0, @t1] of a profile ending at @end, made one that can be shown:
 * inside [0, end] (end <= 0: [0, 1]), at least 1e-7 of it wide; an empty or non-finite
 * range is the whole. */
void zw_timing_range_clamp (double end, double t0, double t1, double *out_t0, double *out_t1);
/* [@t0, @t1] zoomed by @factor (> 1 in) keeping @center where it is, then clamped. */
void zw_timing_range_zoom (double end, double t0, double t1, double factor, double center, double *out_t0,
                           double *out_t1);

/* Hit testing in a drawing of that size: the row whose bar (or merge band) is at (x, y),
 * -1 for none; @lane_out (may be NULL) receives the lane under y. A bar narrower than a
 * pixel is hit as the one pixel it is drawn. */
gint zw_timing_row_at (const ZwProfile *profile, ZwDeployReport *report, const ZwTimingState *state, int width,
                       int height, double x, double y, ZwTimingLane *lane_out);
/* The x of time @t_ms and the y range [y0, y1) of @lane in a drawing of that size. */
double zw_timing_x_of_time (const ZwProfile *profile, const ZwTimingState *state, int width, double t_ms);
void zw_timing_lane_extent (const ZwProfile *profile, ZwDeployReport *report, int width, int height, ZwTimingLane lane,
                            double *y0, double *y1);

/* What ran in [@t0, @t1] ms: the busy time of the NPU and Host lanes inside it (the parts
 * of bars inside the range) and how many rows overlap it. Each out may be NULL. */
void zw_timing_range_total (const ZwProfile *profile, double t0, double t1, double *npu_ms, double *host_ms,
                            guint *n_rows);

G_END_DECLS
