/* zw-memory-pipeline.h — the Memory view over a whole pass of a pipeline (issue 38 item 3).
 *
 * Model: a ZwPipelineReport and its pass (report/zw-pipeline-pass.h). One chart: x the
 * pass's time (the networks' forwards end to end; op slots when the pass was not profiled),
 * y the board's ETM address from the pipeline's lowest chunk (bottom) to its highest (top).
 * Every network's chunks over the pass in its colour (the Board view's palette): WEIGHT and
 * INSTR faint over the whole pass, FTMP chunks and input/output values over their ops' time;
 * a shared segment's address range striped faintly in the colours of its networks behind
 * them and labelled on the left; a connection's chunk in the writer's colour, cross-hatched
 * in the reader's, from the writer's forward to the reader's. Above the chart, a lane with
 * each network's forward; under it the time axis; then a legend. The selection's pipeline
 * value ("NET:V_ID") is outlined; a click on a chunk selects its value.
 */
#pragma once

#include "report/zw-pipeline-pass.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

typedef struct {
  double x0, y0, x1, y1;    /* the chart */
  double lane_y0, lane_y1;  /* the networks' forwards, above the chart */
  double axis_y;            /* the time labels */
  double legend_y;
  double length;            /* pass units across the chart */
  guint64 lo, hi;           /* addresses at the bottom and the top */
} ZwMemPassLayout;

/* Where things go at @width x @height; FALSE when the pass has no chunk. */
gboolean zw_memory_pass_layout (const ZwPipelineReport *pipeline, const GArray *chunks, int width, int height,
                                ZwMemPassLayout *l);
/* A pass chunk's rectangle {x, y, w, h}, not clipped. */
void zw_memory_pass_chunk_rect (const ZwMemPassLayout *l, const ZwPassChunk *c, double r[4]);
/* The x of pass time @t. */
double zw_memory_pass_x (const ZwMemPassLayout *l, double t);
/* The chunk drawn at (@x, @y) (the last drawn, smallest on top), -1 for none. */
gint zw_memory_pass_chunk_at (const GArray *chunks, const ZwMemPassLayout *l, double x, double y);

/* Draws the pass of @pipeline (see the top). Needs no display. */
void zw_memory_pass_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *pipeline, ZwSelection *selection,
                          const ZwViewStyle *colors);

G_END_DECLS
