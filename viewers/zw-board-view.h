/* zw-board-view.h — the Board view: several networks on one board (a pipeline, issue 38).
 *
 * Model: a ZwPipelineReport (report/zw-pipeline-report.h), made from the runtime's pipeline
 * report of a live run or of a file opened from disk; the view reads nothing else. The
 * drawing (a plain cairo function: snapshot, offscreen render and export) shows, top to
 * bottom:
 *   - the pipeline, its board and its networks;
 *   - the ETM the pipeline takes on the board against the same networks deployed apart, as
 *     two bars on one scale, and what sharing and connecting saved;
 *   - the board's physical ETM map from the pipeline's first chunk to its last: every
 *     network's own chunks filled in its colour; a shared segment striped in the colours of
 *     the networks that share it; a connection's chunk in the colour of the network that
 *     writes it, cross-hatched, both labelled above the map; the board's own chunks ("other":
 *     timer, profiler) are not the pipeline's and are only counted in the caption;
 *   - a legend: per network its colour, its own bytes on the board, its ETM deployed apart and
 *     its time; the shares and connections with their swatches;
 *   - the pass as one timeline: the networks' forwards one after another (the board runs one
 *     launch at a time), each bar in its network's colour, host-only networks hatched.
 * Clicking a network (a chunk of its own, its legend row or its bar) selects it and emits
 * "network-activated": the window then shows that network's deploy report in the
 * single-network views. Keys: Up/Left and Down/Right the previous and next network in pass
 * order, Enter or Space shows the selected one (actions board.previous, board.next,
 * board.open).
 *
 * "Show the Whole Pass" (or Escape, action board.pass) emits "pass-activated": the window
 * then shows every network over one pass in Segments, Memory, Timing and Graph.
 *
 * Signals: "network-activated" (guint index) — a network index of the pipeline;
 * "pass-activated" — the whole pass.
 * Property: "selected-network" (gint, -1 for none).
 */
#pragma once

#include <gtk/gtk.h>
#include "report/zw-pipeline-report.h"
#include "zw-view.h"

G_BEGIN_DECLS

/* The colour network @index is drawn in (a fixed palette, lighter on a dark background). */
void zw_board_view_network_color (const ZwViewStyle *colors, guint index, GdkRGBA *out);

/* What the pipeline drawings share (Board, and Memory, Segments, Graph over a pass): bands
 * at 45° in @n colours one after another (a shared segment), and a cross-hatch in @line (a
 * connection's chunk), both clipped to [x0,x1]x[y0,y1]. */
void zw_pipeline_draw_stripes (cairo_t *cr, double x0, double y0, double x1, double y1, const GdkRGBA *colors, guint n,
                               double step);
void zw_pipeline_draw_cross_hatch (cairo_t *cr, double x0, double y0, double x1, double y1, const GdkRGBA *line,
                                   double step);

/* Draws @pipeline (NULL: an empty-state text) over [0,width]x[0,height], network @selected
 * (-1 none) outlined. Needs no display. */
void zw_board_view_draw (cairo_t *cr, int width, int height, const ZwPipelineReport *pipeline, gint selected,
                         const ZwViewStyle *colors);

/* Where things are drawn at @width x @height (pure: tests read pixels and click with them).
 * The map's rectangle (FALSE when no chunk is the pipeline's); the x range of board chunk
 * @index (FALSE for an "other" chunk or out of range); the rectangle of network @index's bar
 * on the timeline (FALSE when the pass was not profiled); the two ETM bars' right ends (the
 * board's and the apart one's; both start at *x0). */
gboolean zw_board_view_map_area (const ZwPipelineReport *pipeline, int width, int height, double *x0, double *y0,
                                 double *x1, double *y1);
gboolean zw_board_view_chunk_span (const ZwPipelineReport *pipeline, int width, int height, guint index, double *xa,
                                   double *xb);
gboolean zw_board_view_time_bar (const ZwPipelineReport *pipeline, int width, int height, guint index, double *x0,
                                 double *y0, double *x1, double *y1);
gboolean zw_board_view_etm_bars (const ZwPipelineReport *pipeline, int width, int height, double *x0, double *board_x1,
                                 double *apart_x1, double *board_y, double *apart_y);
/* The network drawn at (@x, @y): a chunk of its own on the map, its legend row or its bar on
 * the timeline; -1 for none. */
gint zw_board_view_network_at (const ZwPipelineReport *pipeline, int width, int height, double x, double y);

/* The board chunks as a table (header first): address, size, owner, kind, network, the
 * share or connection: CSV export. */
GPtrArray *zw_board_view_chunk_table (const ZwPipelineReport *pipeline);

#define ZW_TYPE_BOARD_VIEW (zw_board_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwBoardView, zw_board_view, ZW, BOARD_VIEW, ZwView)

GtkWidget *zw_board_view_new (ZwSelection *selection);

/* Shows @pipeline (a reference is taken; NULL clears); no network is selected. */
void zw_board_view_set_pipeline (ZwBoardView *self, ZwPipelineReport *pipeline);
/* The pipeline shown (borrowed) or NULL. */
ZwPipelineReport *zw_board_view_get_pipeline (ZwBoardView *self);
/* Selects network @index (-1 none), without activating it. */
void zw_board_view_select_network (ZwBoardView *self, gint index);
gint zw_board_view_get_selected_network (ZwBoardView *self);
/* Selects network @index and emits "network-activated" (as a click on it does); FALSE out of
 * range. */
gboolean zw_board_view_activate_network (ZwBoardView *self, gint index);

/* Emits "pass-activated" (as the button does); FALSE without a pipeline. */
gboolean zw_board_view_activate_pass (ZwBoardView *self);

G_END_DECLS
