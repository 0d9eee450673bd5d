/* zw-segment-pipeline.h — the Segments view of a pipeline (issue 38 item 3): the board's
 * physical ETM map with every network's logic segments.
 *
 * Model: a ZwPipelineReport. One address axis across, from the pipeline's lowest chunk on
 * the board to its highest. The top row is the board: its chunks by owner, each network's
 * in its colour (the Board view's palette). Then one row per network on the board, in pass
 * order, with its logic segments (WEIGHT, INSTR, FTMP, INPUT, OUTPUT) at their physical
 * addresses in the segment colours, the row labelled in the network's colour. A shared
 * segment's range is striped down every row in the colours of its networks; a connection's
 * chunk is cross-hatched down the rows from its writer's to its reader's.
 */
#pragma once

#include "report/zw-pipeline-pass.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* The rectangle {x, y, w, h} of segment @segment (a ZwSegmentType) of network @index in the
 * drawing at @width x @height; FALSE when the network is not on the board or the segment
 * is empty. @index -1: the board row's chunk @segment (an index of pipeline->chunks; FALSE
 * for "other" chunks). */
gboolean zw_segment_pass_rect (const ZwPipelineReport *pipeline, int width, int height, gint index, gint segment,
                               double r[4]);

/* Draws the map (see the top). Needs no display. */
void zw_segment_pass_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *pipeline,
                           ZwSelection *selection, const ZwViewStyle *colors);

G_END_DECLS
