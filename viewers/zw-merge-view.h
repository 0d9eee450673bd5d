/* zw-merge-view.h — the launches of a deploy report (merge groups).
 *
 * A tree: one row per launch — the (merged) op id, its layer count, and its merge_from
 * members with their classes and layer counts (from the report's ops) — and, under a
 * merged launch, a row per member op. With merge off, one row per hardop. Selecting a row
 * selects its op (the launch's or the member's) in the shared ZwSelection; an op selected
 * elsewhere opens its launch, selects its row and scrolls it into sight.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-view.h"

G_BEGIN_DECLS

#define ZW_TYPE_MERGE_VIEW (zw_merge_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwMergeView, zw_merge_view, ZW, MERGE_VIEW, ZwView)

GtkWidget *zw_merge_view_new (ZwSelection *selection);
/* Rows shown: report->launches->len (0 without a report). */
guint zw_merge_view_get_n_rows (ZwMergeView *self);
/* The op of the selected row (a launch's op id or a member's), -1 for none. */
gint64 zw_merge_view_get_selected_row_op (ZwMergeView *self);

/* Draws the launch list as a table (offscreen rendering, print). Needs no display. */
void zw_merge_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                         const ZwViewStyle *colors);

/* The note above the list that says what Layers, Ops and Members count. */
const char *zw_merge_view_get_note (ZwMergeView *self);

G_END_DECLS
