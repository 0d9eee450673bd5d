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
 *
 * Below the table, the selected row (the first divergent one after loading) opens three
 * heatmaps side by side: A, B and |A−B| of the channel holding its first differing
 * coordinates, a window of at most ZW_DUMP_DIFF_HEATMAP_SPAN x ZW_DUMP_DIFF_HEATMAP_SPAN
 * elements around them with that element outlined, each titled with its folder. A and B
 * share one colour range; |A−B| runs from 0 to its largest difference in the window. The
 * cells are drawn by the tensor inspector's heatmap painter (zw_tensor_view_paint_grid).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-row-table.h"
#include "report/zw-dump-diff.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Draws @diff (NULL: an empty-state text) into @cr over [0,width]x[0,height]; rows past the
 * height are not drawn. @selected_v_id (-1 none) is highlighted. Needs no display. */
void zw_dump_diff_view_draw (cairo_t *cr, int width, int height, const ZwDumpDiff *diff, gint64 selected_v_id,
                             const ZwViewStyle *colors);
/* The header line naming A and B ("A: … B: …"), NULL when the diff does not name them. */
char *zw_dump_diff_view_dup_sides_text (const ZwDumpDiff *diff);
/* The height that shows every row. */
int zw_dump_diff_view_content_height (const ZwDumpDiff *diff);
/* The y range of @v_id's row; FALSE when the diff has no such value. */
gboolean zw_dump_diff_view_row_extent (const ZwDumpDiff *diff, gint64 v_id, double *y0, double *y1);
/* The v_id of the row at @y, -1 for none. */
gint64 zw_dump_diff_view_value_at (const ZwDumpDiff *diff, double y);

/* What the heatmaps under the table show. */
typedef struct {
  const ZwDumpDiffEntry *entry;   /* the row (NULL: a hint to pick one) */
  const ZwTensor *a, *b;          /* its two sides (NULL when a side does not have it) */
  const char *name_a, *name_b;    /* the two folders */
} ZwDumpDiffHeatmaps;

#define ZW_DUMP_DIFF_HEATMAP_SPAN 24
/* The height the heatmaps take under the table in the widget and in renders. */
#define ZW_DUMP_DIFF_HEATMAPS_HEIGHT 300

/* Draws the A, B and |A−B| heatmaps of @hm into @cr over [0,width]x[0,height]. */
void zw_dump_diff_view_draw_heatmaps (cairo_t *cr, int width, int height, const ZwDumpDiffHeatmaps *hm,
                                      const ZwViewStyle *colors);
/* The drawn rectangle (x, y, w, h) of element (@h, @w) of the shown channel in heatmap
 * @which (0 = A, 1 = B, 2 = |A−B|) of a drawing of that size; FALSE when it is not shown. */
gboolean zw_dump_diff_view_heatmap_cell (const ZwDumpDiffHeatmaps *hm, int width, int height, int which, gint64 h,
                                         gint64 w, double rect[4]);

#define ZW_TYPE_DUMP_DIFF_VIEW (zw_dump_diff_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwDumpDiffView, zw_dump_diff_view, ZW, DUMP_DIFF_VIEW, ZwRowTable)

GtkWidget *zw_dump_diff_view_new (ZwSelection *selection);

/* Shows @diff (the view takes ownership; NULL clears). */
void zw_dump_diff_view_set_diff (ZwDumpDiffView *self, ZwDumpDiff *diff);
/* zw_dump_diff_folders() of @dir_a and @dir_b, shown with the heatmaps of the selected row
 * (the view keeps both sides' tensors); FALSE (and the view unchanged) when a
 * folder cannot be read at all. @network, @format and @options may be NULL. */
gboolean zw_dump_diff_view_load (ZwDumpDiffView *self, const char *dir_a, const char *dir_b, XirNetwork *network,
                                 const char *format, const ZwDumpDiffOptions *options, GError **error);
/* zw_dump_diff_view_load() in a worker thread: the UI stays live, a progress bar with a
 * Cancel button lies over the table (the share of the values' elements compared), and the
 * result is shown when it is done; then @callback (finish with
 * zw_dump_diff_view_load_finish: FALSE and G_IO_ERROR_CANCELLED when cancelled or replaced
 * by a newer load; the view unchanged on any error). */
void zw_dump_diff_view_load_async (ZwDumpDiffView *self, const char *dir_a, const char *dir_b, XirNetwork *network,
                                   const char *format, const ZwDumpDiffOptions *options, GAsyncReadyCallback callback,
                                   gpointer user_data);
gboolean zw_dump_diff_view_load_finish (ZwDumpDiffView *self, GAsyncResult *result, GError **error);
/* A load is running. */
gboolean zw_dump_diff_view_get_running (ZwDumpDiffView *self);
/* Its progress: -1 while the folders load (and when none runs), then 0…1. */
double zw_dump_diff_view_get_progress (ZwDumpDiffView *self);
/* Stops the load running (also the Cancel button over the table); the diff shown stays. */
void zw_dump_diff_view_cancel (ZwDumpDiffView *self);
GtkWidget *zw_dump_diff_view_get_progress_bar (ZwDumpDiffView *self);
GtkWidget *zw_dump_diff_view_get_cancel_button (ZwDumpDiffView *self);
/* Names the shown diff's two sides (a run's title and folder …) in its header and heatmaps. */
void zw_dump_diff_view_set_names (ZwDumpDiffView *self, const char *name_a, const char *name_b);
/* The diff shown (borrowed), NULL for none. */
const ZwDumpDiff *zw_dump_diff_view_get_diff (ZwDumpDiffView *self);

void zw_dump_diff_view_select_value (ZwDumpDiffView *self, gint64 v_id);
/* The heatmaps of the selected row as drawn (borrowed pointers, valid until the next load or
 * selection). */
void zw_dump_diff_view_get_heatmaps (ZwDumpDiffView *self, ZwDumpDiffHeatmaps *out);
gint64 zw_dump_diff_view_get_selected_value (ZwDumpDiffView *self);

G_END_DECLS
