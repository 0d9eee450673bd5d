/* zw-compare-view.h — two runs side by side: per-op times, totals and deploy facts.
 *
 * Model: a ZwProfileCompare of two time profiles and, optionally, a ZwDeployCompare of the
 * two runs' deploy reports (runtime/report/zw-compare.h: matching, deltas, ratios and the
 * regression rule live there). The view draws the totals (A, B, delta, ratio, counts of
 * regressions and improvements), the deploy facts (FTMP bytes, OCM bytes, launches, hardops,
 * OCM option chosen, the planner's estimate) and one row per op: op id, class, A and B
 * times, delta, ratio and a butterfly bar (A to the left, B to the right). Regressions are
 * highlighted in the warning colour, improvements in the green of the style's lower bound.
 *
 * Above the table: "Regressions only" with its threshold (%, B slower than A by more) and
 * the count of rows kept, and "Expand merged launches"; a merged launch's ▸ in its op id
 * cell expands it alone. Members' estimated figures are drawn "≈" and labelled
 * (report/zw-compare-rows.h says how they are estimated).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-row-table.h"
#include "report/zw-compare-rows.h"
#include "report/zw-compare.h"
#include "report/zw-pipeline-report.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Draws the comparison (either may be NULL; both NULL: an empty-state text) over
 * [0,width]x[0,height]; @label_a/@label_b name the runs (may be NULL: "A", "B"); @selected
 * (-1 none) is a row index of @cmp. Needs no display. */
void zw_compare_view_draw (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp,
                           const char *label_a, const char *label_b, gint selected, const ZwViewStyle *colors);
int zw_compare_view_content_height (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp);
/* As zw_compare_view_draw(), the column @sort_column (-1 none) marked sorted (▼ descending). */
void zw_compare_view_draw_sorted (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp,
                                  const ZwDeployCompare *dcmp, const char *label_a, const char *label_b, gint selected,
                                  gint sort_column, gboolean descending, const ZwViewStyle *colors);
/* As zw_compare_view_draw_sorted(), the rows as @shown (zw_compare_shown_new of @cmp) shows
 * them: @selected is an index into @shown.  @op_id_width is the op id column's width
 * (zw_compare_view_op_id_width; <= 0: measured here). */
void zw_compare_view_draw_shown (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp,
                                 const ZwDeployCompare *dcmp, const ZwCompareShown *shown, double op_id_width,
                                 const char *label_a, const char *label_b, gint selected, gint sort_column,
                                 gboolean descending, const ZwViewStyle *colors);
/* The op id column's width for @cmp drawn in @colors' font: its widest cell measured with
 * pango (a merged launch's "74 (9 ops)" after its ▸, a pipeline's "NET:OP_ID", the members'
 * "↳ ID" of every launch, so expanding one moves no column) and its title with a sort
 * arrow, at most ZW_COMPARE_OP_ID_MAX_WIDTH (a longer network name is ellipsized). */
double zw_compare_view_op_id_width (const ZwProfileCompare *cmp, const ZwViewStyle *colors);
#define ZW_COMPARE_OP_ID_MAX_WIDTH 320.0
/* The columns' titles' row drawn at @y (the table's own place, or the top of the visible part
 * when scrolled past it: the titles stay in sight), the op id column @op_id_width wide. */
void zw_compare_view_draw_header (cairo_t *cr, int width, double y, double op_id_width, gint sort_column,
                                  gboolean descending, const ZwViewStyle *colors);
/* The column (0 op id, 1 class, 2 A ms, 3 B ms, 4 delta, 5 ratio, 6 bars) at @x of a drawing
 * @width wide whose op id column is @op_id_width wide, -1 for none; the columns' titles' row
 * (a click there sorts). */
gint zw_compare_view_column_at (int width, double op_id_width, double x);
gboolean zw_compare_view_header_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, double *y0,
                                       double *y1);
/* The sort after a click on column @clicked's title when @current (-1 none) is sorted so:
 * the same column turns round; another starts descending for the numbers (A ms, B ms,
 * delta, ratio), ascending for the op id and class; the bars' column goes back to the order
 * as compared (-1). */
gint zw_compare_view_next_sort (gint current, gboolean current_descending, gint clicked, gboolean *descending);
/* The y range of row @index of @cmp; FALSE when out of range. */
gboolean zw_compare_view_row_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint index, double *y0,
                                     double *y1);
/* The row index at @y, -1 for none. */
gint zw_compare_view_row_at (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, double y);

#define ZW_TYPE_COMPARE_VIEW (zw_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwCompareView, zw_compare_view, ZW, COMPARE_VIEW, ZwRowTable)

GtkWidget *zw_compare_view_new (ZwSelection *selection);

/* Compares @a with @b (both required; not kept) with @options (NULL: defaults); @label_a
 * and @label_b (may be NULL) name them ("run 3", a file name). */
void zw_compare_view_set_profiles (ZwCompareView *self, const ZwProfile *a, const ZwProfile *b,
                                   const ZwCompareOptions *options, const char *label_a, const char *label_b);
/* Compares two pipelines' passes (zw_pipeline_compare(): rows NET:OP_ID; both kept, for
 * Swap; no deploy block: each network has its own report). FALSE (@error) when a side was
 * not profiled. */
gboolean zw_compare_view_set_pipelines (ZwCompareView *self, ZwPipelineReport *a, ZwPipelineReport *b,
                                        const ZwCompareOptions *options, const char *label_a, const char *label_b,
                                        GError **error);
/* The two runs' deploy reports (both, or NULL to drop the deploy block). */
void zw_compare_view_set_reports (ZwCompareView *self, const ZwDeployReport *a, const ZwDeployReport *b);
/* Two bare time files mapped to the open network (zw_profile_map_to_plan of both, then
 * zw_compare_view_set_profiles): @network's report gives both sides their classes and the
 * members' estimated shares; the header names it; no deploy block (one report). Another
 * zw_compare_view_set_reports() ends it. */
void zw_compare_view_set_plan (ZwCompareView *self, const ZwDeployReport *network);
/* As zw_compare_view_set_plan(), @plan being the open network planned again with merge on
 * (deploy/xrt-merge-on-plan.h) because its run has merge off: the header says so. */
void zw_compare_view_set_merge_on_plan (ZwCompareView *self, const ZwDeployReport *plan);
/* The header line as drawn: "A: … B: …" and which plan mapped two time files (new string). */
char *zw_compare_view_dup_header (ZwCompareView *self);
/* Makes B the reference (A) and A the other: the comparison and the deploy facts are made
 * again the other way round. Also the view's action "compare.swap" and a click on its header
 * line ("⇄ Swap A and B"). */
void zw_compare_view_swap (ZwCompareView *self);
/* Sorts the rows by @column (-1: the order as compared), kept over later comparisons. */
void zw_compare_view_sort (ZwCompareView *self, gint column, gboolean descending);
gint zw_compare_view_get_sort (ZwCompareView *self, gboolean *descending);
/* Clears everything. */
void zw_compare_view_clear (ZwCompareView *self);

const ZwProfileCompare *zw_compare_view_get_compare (ZwCompareView *self);
const ZwDeployCompare *zw_compare_view_get_deploy_compare (ZwCompareView *self);

/* Only the rows where B is slower than A by more than @threshold (a fraction, 0.05 = 5 %);
 * also the check button and spin button above the table. */
void zw_compare_view_set_regressions_only (ZwCompareView *self, gboolean only, double threshold);
gboolean zw_compare_view_get_regressions_only (ZwCompareView *self, double *threshold);
/* Shows merged launch @op_id with (or without) its members; all of them at once. */
void zw_compare_view_set_expanded (ZwCompareView *self, gint64 op_id, gboolean expanded);
void zw_compare_view_expand_all (ZwCompareView *self, gboolean expanded);
/* The rows drawn now (borrowed; row indices of the view are indices into it). */
const ZwCompareShown *zw_compare_view_get_shown (ZwCompareView *self);
/* The controls above the table (tests). */
GtkWidget *zw_compare_view_get_count_label (ZwCompareView *self);
GtkWidget *zw_compare_view_get_filter_check (ZwCompareView *self);
GtkWidget *zw_compare_view_get_threshold_spin (ZwCompareView *self);
GtkWidget *zw_compare_view_get_expand_button (ZwCompareView *self);

/* Selects row @index (-1 none) of the rows shown; its op becomes the shared selection's when
 * the report has it. */
void zw_compare_view_select_row (ZwCompareView *self, gint index);

G_END_DECLS
