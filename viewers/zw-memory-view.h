/* zw-memory-view.h — FTMP memory over time (ETM and OCM panes).
 *
 * x = op index (the shared zoom range), y = address. One rectangle per FTMP chunk lifetime
 * (ftmp_offset, size, [first, last]) in the ETM pane, and per OCM chunk at its ocm_addr in
 * the OCM pane. The liveness lower bound is a line; the peak op index is marked with the
 * largest chunks live there. Ctrl+wheel and +/- zoom, drag pans, F fits, a click selects
 * the value (the chunk's first value) in the shared ZwSelection.
 *
 * A pipeline's whole pass (the selection has a pipeline and no report) is drawn by
 * zw-memory-pipeline.h: every network's ETM chunks over the pass's time; a click there
 * selects the chunk's value as "NET:V_ID".
 *
 * Under the panes, on the same op-index axis, the memory traffic: per op the ETM bytes read
 * (bars up, INPUT colour) and written (bars down, OUTPUT colour) from the cost model the
 * board's timing uses (runtime/report/zw-etm-traffic.h), with the totals in its title and
 * each op's ETM and OCM bytes in the tooltip.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-view.h"

G_BEGIN_DECLS

#define ZW_TYPE_MEMORY_VIEW (zw_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwMemoryView, zw_memory_view, ZW, MEMORY_VIEW, ZwView)

GtkWidget *zw_memory_view_new (ZwSelection *selection);

/* Draws the timeline of @report in the zoom range of @selection (whole report when
 * @selection is NULL). Needs no display. */
void zw_memory_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                          const ZwViewStyle *colors);

/* The drawn rectangle (x, y, w, h) of op index @op_index's ETM read (or, @write, write)
 * bar in a drawing of that size; FALSE when the op moves no such bytes. */
gboolean zw_memory_view_traffic_bar (ZwDeployReport *report, ZwSelection *selection, int width, int height,
                                     const ZwViewStyle *colors, guint op_index, gboolean write, double rect[4]);

/* The op index where live FTMP bytes peak (first such index), -1 for an empty report. */
gint zw_memory_view_peak_index (ZwDeployReport *report, guint64 *peak_bytes);
/* The line the view draws at the FTMP peak ("peak at op index 12: 3.4 MiB live in 5 chunks:
 * #3 1.1 MiB, v20 880 KiB, …", chunks named by zw_chunk_id_dup_label), NULL without one. */
char *zw_memory_view_dup_peak_text (ZwDeployReport *report);

G_END_DECLS
