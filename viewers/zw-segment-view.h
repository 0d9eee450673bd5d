/* zw-segment-view.h — the logic and physical segments of a deploy report.
 *
 * Two columns (logic, phy), each with WEIGHT, INSTR, FTMP, INPUT, OUTPUT on an address
 * axis, byte sizes labelled, FTMP subdivided into its chunks and their values. Hover shows
 * a tooltip (v_id, producer op, bytes, logic and phy address, real/fake); a click selects
 * the value under the pointer in the shared ZwSelection.
 *
 * A pipeline's whole pass (the selection has a pipeline and no report) is drawn by
 * zw-segment-pipeline.h: the board and every network's logic segments on one axis.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-view.h"

G_BEGIN_DECLS

#define ZW_TYPE_SEGMENT_VIEW (zw_segment_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwSegmentView, zw_segment_view, ZW, SEGMENT_VIEW, ZwView)

/* @selection: the shared selection (the view keeps a reference; construct-only). */
GtkWidget *zw_segment_view_new (ZwSelection *selection);

/* Draws the view for @report (may be NULL: an empty-state message) into @cr over
 * [0,width]x[0,height]. Needs no display; the widget's snapshot calls it. @selection may
 * be NULL. */
void zw_segment_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                           const ZwViewStyle *colors);

/* The v_id drawn at (x, y) of a view of that size, -1 for none (hit testing, tooltips). */
gint64 zw_segment_view_value_at (ZwDeployReport *report, int width, int height, double x, double y);

/* The legend drawn under the blocks: heights not to scale, what the lines inside a block are,
 * what the physical column shows. Translated; static. */
const char *zw_segment_view_get_legend (void);

G_END_DECLS
