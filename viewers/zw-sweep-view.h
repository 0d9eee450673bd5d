/* zw-sweep-view.h — a sweep (report/zw-sweep.h: one network deployed with every option
 * combination at every point of a what-if grid) as a scatter and a table.
 *
 * Model: a ZwSweep, made by the run controller's sweep or loaded from the JSON that
 * `xrt-run sweep --json` writes; the view reads nothing else. The drawing (a plain cairo
 * function: snapshot, offscreen render and export) shows, top to bottom:
 *   - the network, the row count, the what-if points;
 *   - a scatter of every row that ran: x = ETM bytes (every logic segment), y = simulated
 *     time of one forward (ms), axes with ticks in one unit each (KiB/MiB, ms); the marker's
 *     colour and shape say the OCM option requested (by its row in the options' table:
 *     ●, ■, ▲, ◆, ▼, then polygons of more sides), filled for merge on and hollow for merge
 *     off, struck through when ETM optimize is off; a legend beside it;
 *   - the Pareto front of time vs ETM bytes: its rows ringed in the accent colour and joined
 *     by a step line; the recommended row (the front's fastest) ringed in the warning colour
 *     and labelled;
 *   - the rows that did not run, listed apart (not plotted) with their error.
 * Below the plot a table of the rows (sortable by any column) follows the plot's selection
 * and sets it. Hovering a point shows the row's full figures; clicking a point, or Enter on
 * the plot or a table row, emits "row-activated" (the window deploys and runs that row, so
 * every view shows it). Keys on the plot: Up/Left and Down/Right the previous and next row
 * in the table's order, Home/End the first and last, Enter or Space opens the selected row
 * (actions sweep.previous, sweep.next, sweep.first, sweep.last, sweep.open).
 *
 * Signal: "row-activated" (guint index) — a row index of the sweep.
 * Property: "selected-row" (gint, -1 for none).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view.h"
#include "report/zw-sweep.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* The radius of a row's marker, of the front's ring and of the recommendation's ring (px). */
#define ZW_SWEEP_VIEW_MARKER_R 6.0
#define ZW_SWEEP_VIEW_FRONT_R 10.0
#define ZW_SWEEP_VIEW_RECOMMENDED_R 14.0

/* Draws @sweep (NULL: an empty-state text) over [0,width]x[0,height], row @selected (-1
 * none) marked. Needs no display. */
void zw_sweep_view_draw (cairo_t *cr, int width, int height, const ZwSweep *sweep, gint selected,
                         const ZwViewStyle *colors);
/* The plot's rectangle when drawn at @width x @height; FALSE when no row is plotted. */
gboolean zw_sweep_view_plot_area (const ZwSweep *sweep, int width, int height, double *x0, double *y0, double *x1,
                                  double *y1);
/* Where figures (@etm_bytes, @ms) are drawn; FALSE when no row is plotted. */
gboolean zw_sweep_view_map (const ZwSweep *sweep, int width, int height, double etm_bytes, double ms, double *x,
                            double *y);
/* Where row @index's point is drawn; FALSE for a row that did not run (not plotted) or out
 * of range. */
gboolean zw_sweep_view_row_point (const ZwSweep *sweep, int width, int height, guint index, double *x, double *y);
/* The plotted row whose point is nearest (@x, @y) and within @tolerance px (equal distances:
 * the lower index), -1 for none. Pure: tests click with it without a display. */
gint zw_sweep_view_row_at (const ZwSweep *sweep, int width, int height, double x, double y, double tolerance);
/* Row @index's full figures as the tooltip shows them (options, what-if point, time, FTMP,
 * OCM and ETM bytes, launches, checked, front, error, rows with the same figures); a new
 * string, NULL out of range. */
char *zw_sweep_view_describe_row (const ZwSweep *sweep, guint index);

/* The table's columns (zw_sweep_view_sort_by). */
typedef enum {
  ZW_SWEEP_COLUMN_INDEX,
  ZW_SWEEP_COLUMN_MERGE,
  ZW_SWEEP_COLUMN_ETM_OPTIMIZE,
  ZW_SWEEP_COLUMN_OCM_REQUESTED,
  ZW_SWEEP_COLUMN_OCM_CHOSEN,
  ZW_SWEEP_COLUMN_WHAT_IF,
  ZW_SWEEP_COLUMN_TIME,
  ZW_SWEEP_COLUMN_FTMP,
  ZW_SWEEP_COLUMN_OCM_BYTES,       /* shows the OCM peak (issue 37); the name stays for callers */
  ZW_SWEEP_COLUMN_ETM,
  ZW_SWEEP_COLUMN_LAUNCHES,
  ZW_SWEEP_COLUMN_CHECKED,
  ZW_SWEEP_COLUMN_FRONT,
  ZW_SWEEP_COLUMN_ERROR,
  ZW_SWEEP_N_COLUMNS
} ZwSweepColumn;

#define ZW_TYPE_SWEEP_VIEW (zw_sweep_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwSweepView, zw_sweep_view, ZW, SWEEP_VIEW, ZwView)

GtkWidget *zw_sweep_view_new (ZwSelection *selection);

/* Shows @sweep (a reference is taken; NULL clears); its recommended row is selected. */
void zw_sweep_view_set_sweep (ZwSweepView *self, ZwSweep *sweep);
/* The sweep shown (borrowed) or NULL. */
ZwSweep *zw_sweep_view_get_sweep (ZwSweepView *self);

/* Selects row @index (-1 none) in the plot and the table. */
void zw_sweep_view_select_row (ZwSweepView *self, gint index);
gint zw_sweep_view_get_selected_row (ZwSweepView *self);
/* Emits "row-activated" for row @index (as a click on its point does); FALSE out of range. */
gboolean zw_sweep_view_activate_row (ZwSweepView *self, gint index);

/* Sorts the table; the row indices in the table's order (g_free), @n_out their count. */
gboolean zw_sweep_view_sort_by (ZwSweepView *self, ZwSweepColumn column, gboolean descending);
guint *zw_sweep_view_get_table_order (ZwSweepView *self, guint *n_out);

/* The table as shown (header first, the table's order): CSV export. */
GPtrArray *zw_sweep_view_table (ZwSweepView *self);
void zw_sweep_view_render (ZwSweepView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors);
/* Saves the sweep shown as `xrt-run sweep` writes it: JSON for a name ending in .json, CSV
 * for .csv (G_IO_ERROR_INVALID_ARGUMENT for another name or when no sweep is shown). */
gboolean zw_sweep_view_save (ZwSweepView *self, const char *path, GError **error);

G_END_DECLS
