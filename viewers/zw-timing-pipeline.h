/* zw-timing-pipeline.h — the Timing view over a pipeline's whole pass (issue 38 item 3).
 *
 * The view shows the pass's time profile (zw_pipeline_pass_profile: every network's rows at
 * their place in the pass); over it, along the bottom of the ruler, each network's forward
 * as a strip in its colour (the Board view's palette), so the rows read by network.
 */
#pragma once

#include "report/zw-pipeline-pass.h"
#include "zw-timing-geometry.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Where network @index's strip is at @width x @height for @profile (the pass's) shown with
 * @state (NULL: the whole pass): {x, y, w, h}; FALSE when it is outside the visible range. */
gboolean zw_timing_pass_strip (const ZwProfile *profile, const ZwPipelineReport *pipeline, const ZwTimingState *state,
                               int width, int height, guint index, double r[4]);
/* Draws the networks' strips over a Timing drawing of @profile. */
void zw_timing_pass_draw_networks (cairo_t *cr, int width, int height, const ZwProfile *profile,
                                   const ZwPipelineReport *pipeline, const ZwTimingState *state,
                                   const ZwViewStyle *colors);

G_END_DECLS
