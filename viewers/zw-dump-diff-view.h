/* zw-dump-diff-view.h — two dump folders compared value by value: "where did it first go
 * wrong".
 *
 * Model: a ZwDumpDiff (runtime/report/zw-dump-diff.h: matching, max abs error, cosine and the
 * first divergent value are computed there). The view draws a header with the counts and the
 * first divergent value in execution order — its v_id, producing op and first differing
 * coordinates (n, c, h, w) with both values — then the files at fault (each naming its
 * file), then one row per value in execution order: v_id, op, status, elements that differ,
 * max abs error (with a log-scale bar), cosine and the first differing coordinates. The
 * first divergent row is highlighted in the warning colour, later divergent rows have their
 * text in it. A click selects a value (and in the shared ZwSelection when the report has
 * it), so the tensor inspector can follow.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view.h"
#include "report/zw-dump-diff.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Draws @diff (NULL: an empty-state text) into @cr over [0,width]x[0,height]; rows past the
 * height are not drawn. @selected_v_id (-1 none) is highlighted. Needs no display. */
void zw_dump_diff_view_draw (cairo_t *cr, int width, int height, const ZwDumpDiff *diff, gint64 selected_v_id,
                             const ZwViewStyle *colors);
/* The height that shows every row. */
int zw_dump_diff_view_content_height (const ZwDumpDiff *diff);
/* The y range of @v_id's row; FALSE when the diff has no such value. */
gboolean zw_dump_diff_view_row_extent (const ZwDumpDiff *diff, gint64 v_id, double *y0, double *y1);
/* The v_id of the row at @y, -1 for none. */
gint64 zw_dump_diff_view_value_at (const ZwDumpDiff *diff, double y);

#define ZW_TYPE_DUMP_DIFF_VIEW (zw_dump_diff_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwDumpDiffView, zw_dump_diff_view, ZW, DUMP_DIFF_VIEW, ZwView)

GtkWidget *zw_dump_diff_view_new (ZwSelection *selection);
ZwSelection *zw_dump_diff_view_get_selection (ZwDumpDiffView *self);

/* Shows @diff (the view takes ownership; NULL clears). */
void zw_dump_diff_view_set_diff (ZwDumpDiffView *self, ZwDumpDiff *diff);
/* zw_dump_diff_folders() of @dir_a and @dir_b, shown; FALSE (and the view unchanged) when a
 * folder cannot be read at all. @network, @format and @options may be NULL. */
gboolean zw_dump_diff_view_load (ZwDumpDiffView *self, const char *dir_a, const char *dir_b, XirNetwork *network,
                                 const char *format, const ZwDumpDiffOptions *options, GError **error);
/* The diff shown (borrowed), NULL for none. */
const ZwDumpDiff *zw_dump_diff_view_get_diff (ZwDumpDiffView *self);

void zw_dump_diff_view_select_value (ZwDumpDiffView *self, gint64 v_id);
gint64 zw_dump_diff_view_get_selected_value (ZwDumpDiffView *self);

/* One row per value, header first (CSV export). */
GPtrArray *zw_dump_diff_view_table (ZwDumpDiffView *self);
void zw_dump_diff_view_render (ZwDumpDiffView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors);

G_END_DECLS
