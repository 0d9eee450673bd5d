/* zw-sweep-view-private.h — shared by the Sweep view's files (not installed): the plot's
 * geometry (zw-sweep-geometry.c), a row in words (zw-sweep-text.c), the plot's drawing
 * (zw-sweep-plot.c), the table (zw-sweep-table.c) and the widget (zw-sweep-view.c). */
#pragma once

#include "zw-sweep-view.h"

G_BEGIN_DECLS

/* The picture's layout (px): title lines, the y axis' tick labels, the legend on the right,
 * the x axis' labels, at most this many rows that did not run listed below the plot. */
#define SWEEP_MARGIN 8.0
#define SWEEP_LINE_H 18.0
#define SWEEP_TITLE_H (2 * SWEEP_LINE_H + 10)
#define SWEEP_LEGEND_W 270.0
#define SWEEP_TICKS_W 64.0
#define SWEEP_AXIS_H (2 * SWEEP_LINE_H + 4)
#define SWEEP_MAX_ERROR_LINES 6

/* ---- geometry (pure) ---- */

/* Where the plot goes at a size, and the axes' ranges. */
typedef struct {
  double x0, y0, x1, y1;         /* the plot */
  double etm_lo, etm_hi;         /* the axes' ranges */
  double ms_lo, ms_hi;
  guint n_plotted, n_errors;
  double errors_y;               /* where the list of rows that did not run starts */
} ZwSweepGeo;

/* Whether a row is plotted: it ran and has a time. */
gboolean zw_sweep_row_plotted (const ZwSweepRow *r);
/* Fills @g for @sweep drawn at @width x @height (the plot's rectangle even when nothing is
 * plotted); FALSE when no row is plotted (NULL sweep included). */
gboolean zw_sweep_geo_compute (ZwSweepGeo *g, const ZwSweep *sweep, int width, int height);
/* The pixel column of @etm bytes, the pixel row of @ms. */
double zw_sweep_geo_x (const ZwSweepGeo *g, double etm);
double zw_sweep_geo_y (const ZwSweepGeo *g, double ms);

/* ---- a row in words ---- */

/* A row's marker slot: its OCM option's row in the options' table. */
guint zw_sweep_ocm_slot (ZwOcmOpt opt);
/* "on" / "off", translated. */
const char *zw_sweep_on_off (gboolean b);
/* "merge on, ETM optimize off, OCM Option 2"; a new string. */
char *zw_sweep_row_options (const ZwSweepRow *r);
/* The row's what-if point, or "device profile as it is". */
const char *zw_sweep_row_point (const ZwSweepRow *r);
/* The table's column titles (untranslated, N_()). */
extern const char *const zw_sweep_column_titles[ZW_SWEEP_N_COLUMNS];
/* Row @index's cell in @column as the table shows it; a new string. */
char *zw_sweep_cell_text (const ZwSweep *sweep, guint index, ZwSweepColumn column);

/* ---- the plot ---- */

/* Over several what-if points the markers' colour is the point (the shape stays the OCM
 * option); over one, both are the OCM option. */
gboolean zw_sweep_colors_by_point (const ZwSweep *sweep);
/* The colour slot of row @r's marker (the theme's segment colours, in turn). */
guint zw_sweep_row_color_slot (const ZwSweep *sweep, const ZwSweepRow *r);

/* Row @index (-1 none) marked as selected: dashed lines to both axes and a ring. */
void zw_sweep_draw_selected (cairo_t *cr, const ZwSweepGeo *g, const ZwSweep *sweep, gint index,
                             const ZwViewStyle *colors);

/* ---- the widget ---- */

struct _ZwSweepView
{
  ZwView parent_instance;
  ZwSweep *sweep;
  gint selected;
  gint hover;
  gboolean syncing;
  GtkWidget *paned;
  GtkWidget *area;
  GtkWidget *open_button;
  GListStore *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *model;
  GtkWidget *column_view;
  GtkColumnViewColumn *columns[ZW_SWEEP_N_COLUMNS];
  guint scroll_idle;
  guint scroll_to;
};

/* The table (zw-sweep-table.c): builds the store, the sorted model, the selection and the
 * column view of @self; returns the scrolled window holding it. */
GtkWidget *zw_sweep_view_build_table (ZwSweepView *self);
/* The position in the table's order of row @index, GTK_INVALID_LIST_POSITION when absent. */
guint zw_sweep_view_table_position (ZwSweepView *self, gint index);
/* Scrolls the table to @position once the main loop is idle. */
void zw_sweep_view_scroll_table_to (ZwSweepView *self, guint position);

G_END_DECLS
