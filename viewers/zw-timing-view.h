/* zw-timing-view.h — per-layer timing: a timeline of a time profile, its op table and the
 * vendor's summary blocks.
 *
 * Model: a ZwProfile (runtime/report/zw-profile.h: a live run's or a file's — the vendor's
 * *_time.txt, our JSON/CSV/trace), optionally with the run's ZwDeployReport (from the shared
 * ZwSelection) for merge members, ETM bytes and OCM outputs per op and the planner's estimate.
 *
 * Timeline: x = time.  A row is placed at its start_ms; rows without one (a vendor text
 * file) are laid end to end in execution order (profile->order: the network's when the
 * report knows the ops, else inferred, and the title says "order inferred"; the vendor
 * writes rows in its own order, Output first).  A row whose times cannot be (hard > total,
 * a negative other time…) gets a warning-coloured band over its bar and is counted in the
 * title.  Host ops' measured dev-host time is a separate, labelled summary line ("measured
 * on this PC"), never in the headline or the bars.  Two lanes: "NPU" (HardOpNode rows / backend ZG330) and "Host" (the
 * rest); each bar is split into memcpy | hard | other, coloured with the style's WEIGHT
 * (hard), FTMP (memcpy) and INPUT (other) segment colours so the theme's dark variants apply.
 * A negative other time (the vendor's total - hard) draws nothing and the hard part is
 * clipped to the row's total.  Under the NPU lane, merged launches are bands listing their
 * members (merge_from from the profile, else from the report's launch of that op id).
 * A ruler shows ms; bars narrower than a pixel are folded into one pixel column each.
 * The summary blocks (input / icore / output / CPU, as the vendor's file prints them) and,
 * with a report, the planner's estimate (the chosen OCM option's cost and the all-ETM cost)
 * next to the simulated NPU hard time close the drawing.
 *
 * Interaction: Ctrl+wheel and W/S zoom around the pointer/centre, drag with the primary
 * button pans, A/D pan, Shift+drag (or secondary button drag) selects a time range and shows
 * its duration, F fits, a click selects a row (and its op in the shared selection when the
 * report has it).  Actions: "timing.zoom-in", "timing.zoom-out", "timing.zoom-fit",
 * "timing.pan-left", "timing.pan-right".
 *
 * Bars are labelled with the layer class (the report's hardop class, "Conv2d", else the
 * vendor's fused class name) and op id, and so is the tooltip; the drag-selected range
 * shows its duration and the NPU and Host busy time inside it with its op count.
 *
 * Table: one row per profile row — op_id, class, name (the layer's, never "icraft::…"),
 * total, memcpy, hard, other, is_io_process, ETM bytes written and OCM outputs (with a
 * report) — sorted by clicking anywhere in a column's header cell (a GtkCustomSorter per
 * column under the column view's sorter, GTK 4.8); after a sort the list shows its top.
 * Above it, the selected op's values, one button each (a click selects the value).
 *
 * Where things go in the drawing (rows in time, lanes, time <-> x, hit testing) is
 * zw-timing-geometry.h, pure functions testable without a display; the widget's parts
 * share zw-timing-view-private.h.
 */
#pragma once

#include <gtk/gtk.h>
#include "report/zw-profile.h"
#include "zw-selection.h"
#include "zw-timing-geometry.h"
#include "zw-view-style.h"
#include "zw-view.h"

G_BEGIN_DECLS

/* The drawing's title: network, rows, simulated end time, "order inferred" when the rows'
 * execution order was guessed (zw-profile.h), and how many rows cannot be (a new string).
 * The dev host's measured time is never in it. */
char *zw_timing_view_headline (const ZwProfile *profile);
/* The title's tooltip (the title is cut to the left of the legend): the whole headline and,
 * when rows cannot be, each of them with its times and what is wrong (at most 20). */
char *zw_timing_view_dup_headline_tooltip (const ZwProfile *profile);

/* Draws the timeline, ruler and summary blocks of @profile (NULL: an empty-state message)
 * into @cr over [0,width]x[0,height]. @report (may be NULL) adds merge members and the
 * planner estimate; @state NULL means zw_timing_state_init. Needs no display. */
void zw_timing_view_draw (cairo_t *cr, int width, int height, const ZwProfile *profile, ZwDeployReport *report,
                          const ZwTimingState *state, const ZwViewStyle *colors);

/* The layer class shown on a row's bar and in its tooltip ("Conv2d"; a merged launch:
 * "Conv2d + 4 more"), from @report (may be NULL) or the vendor's hardop name. */
char *zw_timing_row_layer_class (const ZwProfileRow *row, ZwDeployReport *report);

#define ZW_TYPE_TIMING_VIEW (zw_timing_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwTimingView, zw_timing_view, ZW, TIMING_VIEW, ZwView)

/* @selection: the shared selection (report and selected op; may be NULL for a private one). */
GtkWidget *zw_timing_view_new (ZwSelection *selection);

/* Shows a copy of @profile (NULL clears); the caller keeps its own. Resets zoom and marks.
 * The view reads whatever report the shared selection has. */
void zw_timing_view_set_profile (ZwTimingView *self, const ZwProfile *profile);
/* The same for the time profile of the deployment @report (NULL: of none known, e.g. a time
 * file): the view reads the shared selection's report, follows its op and value and selects
 * through it only while that report is @report (the window shows a file's profile while the
 * deploy views keep their report). */
void zw_timing_view_set_run_profile (ZwTimingView *self, const ZwProfile *profile, ZwDeployReport *report);
/* The profile shown (borrowed, owned by the view), NULL for none. */
const ZwProfile *zw_timing_view_get_profile (ZwTimingView *self);

/* The current state (range, selected row, drag selection); the view keeps it. */
const ZwTimingState *zw_timing_view_get_state (ZwTimingView *self);
/* Sets the visible range (ms); t1 <= t0 fits. Clamped to the profile. */
void zw_timing_view_set_range (ZwTimingView *self, double t0, double t1);
/* Selects a row (-1 none); its op becomes the shared selection's selected op when the
 * report knows it. */
void zw_timing_view_select_row (ZwTimingView *self, gint row);

/* The bar above the table listing the selected row's op values (inputs, then outputs; a
 * merged launch: its members'), one button each: a click selects that value in the shared
 * selection (and so in Memory, OCM, Tensors …). */
GtkWidget *zw_timing_view_get_values_bar (ZwTimingView *self);

/* The table's rows in their current sort order, as indices into profile->rows (g_free).
 * With the run's report, a merged launch's member ops follow its row, each with an
 * estimated share of the launch's time (the planner's estimates; "≈", labelled): their
 * indices are profile->rows->len and up, in launch order (zw_timing_view_get_member). */
guint *zw_timing_view_get_table_order (ZwTimingView *self, guint *n_out);
/* Table row @index >= profile->rows->len: the member's op id, its launch's profile row and
 * its estimated total ms; FALSE for any other index. */
gboolean zw_timing_view_get_member (ZwTimingView *self, guint index, gint64 *op_id, guint *launch_row, double *total_ms);
guint *zw_timing_view_get_table_order (ZwTimingView *self, guint *n_out);
/* Sorts the table by column @column (0 = op_id … see zw_timing_view_table) as a header
 * click does; FALSE for a column that does not exist. */
gboolean zw_timing_view_sort_by (ZwTimingView *self, guint column, gboolean descending);

/* A click at @x (header coordinates) in the table's header row that GTK's title did not
 * take (beside the label): sorts by that cell's column, ascending, or flips it when it is
 * the current one. Returns the column, -1 for none. (What the header's own gesture runs.) */
gint zw_timing_view_click_header (ZwTimingView *self, double x);

/* The table as rows of strings (GStrv), the first one the header, in the current order (a
 * GPtrArray that frees its rows): what CSV export writes. */
GPtrArray *zw_timing_view_table (ZwTimingView *self);

/* How often the timeline drew its content again (tests: hover must not). */
guint zw_timing_view_get_n_rebuilds (ZwTimingView *self);

G_END_DECLS
