/* zw-compile-compare-view.h — two compiles of one model side by side (ZG330 and Buyi).
 *
 * Model: a ZwCompileCompare (runtime/report/zw-compare.h: the totals with their B/A ratios
 * and the hardops aligned op by op live there). The view draws, top to bottom:
 *   - which compile is which: "A: <network> (<chip>)" and "B: …" with the device, the
 *     options and a colour swatch (A in the WEIGHT colour, B in the FTMP colour); under them
 *     "Not like for like: …" when chip or options differ, and (the widget) a stale marker
 *     with a Refresh when the window's options are no longer A's;
 *   - headline bars: ETM total, OCM peak, launches and simulated time, A's and B's bar
 *     scaled to the larger of the two, with both figures and the ratio;
 *   - the totals table: every ZwCompileTotal (ETM bytes per segment and total, OCM bytes
 *     placed and peak, hardops, launches, simulated total/hard/memcpy/other time), A, B, B/A;
 *   - the per-op table under a header naming A's and B's columns: class, logical n,c,h,w,
 *     then per side op id, where the output lives (ETM/OCM) and the time, and a butterfly bar
 *     (A to the left, B to the right). An op on one side only has the other side's cells
 *     shaded (grid colour); a merged launch's time stands on its first op, marked as the whole
 *     launch's, beside the other side's sum over the launch ("Σ", and its bar), and its other
 *     ops say "merged".
 * Everything is drawn by the plain cairo function below (snapshot, offscreen render, export).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-row-table.h"
#include "report/zw-compare.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Draws @cmp (NULL: an empty-state text) over [0,width]x[0,height]; @selected (-1 none) is a
 * row index of @cmp->rows. Needs no display. */
void zw_compile_compare_view_draw (cairo_t *cr, int width, int height, const ZwCompileCompare *cmp, gint selected,
                                   const ZwViewStyle *colors);
int zw_compile_compare_view_content_height (const ZwCompileCompare *cmp);
/* The y range of per-op row @index; FALSE when out of range. */
gboolean zw_compile_compare_view_row_extent (const ZwCompileCompare *cmp, guint index, double *y0, double *y1);
/* The per-op row at @y, -1 for none. */
gint zw_compile_compare_view_row_at (const ZwCompileCompare *cmp, double y);
/* The rectangle of a headline bar (@kind one of ETM_ALL, OCM_PEAK, LAUNCHES, TIME; @b_side:
 * B's bar, else A's) when drawn at @width; FALSE for another kind or a figure that is not
 * known (no bar drawn). */
gboolean zw_compile_compare_view_bar_extent (const ZwCompileCompare *cmp, int width, ZwCompileTotalKind kind,
                                             gboolean b_side, double *x0, double *y0, double *x1, double *y1);
/* The x range of side @b_side's cells (op, place, time) in the per-op table. */
void zw_compile_compare_view_side_columns (gboolean b_side, double *x0, double *x1);
/* The drawn Refresh button of the stale marker (its line is kept when there is none); FALSE
 * when @width has no room for it. */
gboolean zw_compile_compare_view_refresh_extent (int width, double *x0, double *y0, double *x1, double *y1);
/* With merge on, a launch is compared as a whole: at row @index, the first row of @b_side's
 * merged launch (A's when FALSE), the other side's time summed over the launch's rows
 * (@n_ops of its ops with a time). FALSE for another row or when no op has a time. */
gboolean zw_compile_compare_view_launch_other_ms (const ZwCompileCompare *cmp, guint index, gboolean b_side,
                                                  double *ms, guint *n_ops);
/* "Not like for like: merge on vs off …" (drawn under the two sides) when the compiles differ
 * in chip or options, NULL when they are alike (a new string). */
char *zw_compile_compare_view_mismatch_text (const ZwCompileCompare *cmp);

#define ZW_TYPE_COMPILE_COMPARE_VIEW (zw_compile_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwCompileCompareView, zw_compile_compare_view, ZW, COMPILE_COMPARE_VIEW, ZwRowTable)

GtkWidget *zw_compile_compare_view_new (ZwSelection *selection);

/* Compares compile @a (profile @pa, may be NULL) with @b (@pb, may be NULL); nothing is kept. */
void zw_compile_compare_view_set_compiles (ZwCompileCompareView *self, const ZwDeployReport *a, const ZwProfile *pa,
                                           const ZwDeployReport *b, const ZwProfile *pb);
/* Shows @cmp (transfer full; NULL clears). */
void zw_compile_compare_view_take_compare (ZwCompileCompareView *self, ZwCompileCompare *cmp);
const ZwCompileCompare *zw_compile_compare_view_get_compare (ZwCompileCompareView *self);
/* Marks A stale (@reason: what changed since, drawn with a Refresh that activates
 * win.refresh-compiles) or current (NULL). A new comparison is current. */
void zw_compile_compare_view_set_stale (ZwCompileCompareView *self, const char *reason);
const char *zw_compile_compare_view_get_stale (ZwCompileCompareView *self);

/* Selects per-op row @index (-1 none); the shared selection gets its op when the selection's
 * report has it (A's op id first, else B's). */
void zw_compile_compare_view_select_row (ZwCompileCompareView *self, gint index);
gint zw_compile_compare_view_get_selected_row (ZwCompileCompareView *self);

G_END_DECLS
