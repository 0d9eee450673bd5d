/* zw-timing-view-private.h — what the Timing view's parts share (not installed): the
 * view's data (zw-timing-data.c), the instance, and each part's entry points. The parts:
 * zw-timing-geometry.c (placing, hit testing), zw-timing-draw.c (the cairo picture),
 * zw-timing-table.c (the op table), zw-timing-values-bar.c (the selected op's values) and
 * zw-timing-view.c (the widget: timeline area, events, range, selection, GObject). */
#pragma once

#include "zw-timing-view.h"
#include "zw-view-private.h"

G_BEGIN_DECLS

/* ---- the data (zw-timing-data.c) ---- */

/* A member op of a merged launch: a table row under its launch's (issue 37: with merge on
 * the table has per-layer figures too). The report has no per-op time inside a launch, so
 * its times are the launch's split by zw_launch_split_weights: estimates, labelled so. */
typedef struct {
  guint parent;        /* the launch's profile row */
  guint k;             /* its place in the launch */
  gint64 op_id;
  double total_ms, hard_ms;   /* estimated shares of the launch's */
  double est_ms;       /* the planner's own estimate of the op, < 0: none */
} ZwTimingMember;

/* What the view shows, shared by the table's row items (reference counted). */
typedef struct {
  ZwProfile *profile;
  ZwDeployReport *report;
  GHashTable *launches; /* zw_timing_index_launches (report) */
  GHashTable *ops;      /* zw_report_index_ops (report) */
  gboolean has_merged;  /* some row is a merged launch */
  guint64 *etm;        /* per row, with the report */
  guint *ocm;
  gboolean *has_mem;
  double *est;         /* per row: the planner's estimate of its hardops (< 0: none) */
  GArray *members;     /* ZwTimingMember of every merged launch (with the report), in row order */
  gboolean descending; /* the table's sort runs descending (members stay under their launch) */
} ZwTimingData;

/* A copy of @profile (the run's op order replacing an inferred one, the file's own totals
 * kept) with what @report (may be NULL) says of its rows. */
ZwTimingData *zw_timing_data_new (const ZwProfile *profile, ZwDeployReport *report);
ZwTimingData *zw_timing_data_ref (ZwTimingData *data);
void zw_timing_data_unref (ZwTimingData *data);

/* ---- the table's columns (zw-timing-table.c) ---- */

typedef enum {
  ZW_TIMING_COLUMN_OP_ID,
  ZW_TIMING_COLUMN_CLASS,
  ZW_TIMING_COLUMN_NAME,
  ZW_TIMING_COLUMN_TOTAL,
  ZW_TIMING_COLUMN_MEMCPY,
  ZW_TIMING_COLUMN_HARD,
  ZW_TIMING_COLUMN_EST,
  ZW_TIMING_COLUMN_OTHER,
  ZW_TIMING_COLUMN_IO,
  ZW_TIMING_COLUMN_ETM,
  ZW_TIMING_COLUMN_OCM,
  ZW_TIMING_COLUMN_MEMBERS,
  ZW_TIMING_N_COLUMNS
} ZwTimingColumn;

/* ---- the instance ---- */

struct _ZwTimingView
{
  ZwView parent_instance;
  ZwTimingData *data;
  ZwTimingState state;
  double end;
  /* pointer and drag */
  double pointer_x;
  double drag_t0, drag_t1, drag_anchor;
  gboolean drag_selecting;
  /* children */
  GtkWidget *paned;
  GtkWidget *area;    /* ZwDrawArea: caches the content without hover and drag selection */
  GListStore *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *model;
  GtkWidget *column_view;
  GtkColumnViewColumn *columns[ZW_TIMING_N_COLUMNS];
  GtkWidget *values_bar;     /* the selected op's values: one button each */
  gint header_column;        /* the header cell pressed, -1 */
  guint sort_changes;        /* the column view's sorter changed this often */
  guint scroll_idle;
  guint scroll_to;           /* the table row the idle scrolls into sight */
  guint sort_changes_at_press;
  gint sort_column;          /* what we know of the current sort (-1 unsorted) */
  gboolean sort_descending;
  gboolean syncing;
  /* zw_timing_view_set_run_profile: the profile is @run_report's deployment's, so the
   * selection's report is read (and selected through) only while it is that one */
  gboolean run_bound;
  ZwDeployReport *run_report;
};

/* ---- the view (zw-timing-view.c) ---- */

/* The report the view reads: the shared selection's, NULL while that is another
 * deployment's than the profile's. */
ZwDeployReport *zw_timing_view_report (ZwTimingView *self);
/* The content changed: the timeline draws its cached picture again. */
void zw_timing_view_invalidate (ZwTimingView *self);

/* ---- the picture (zw-timing-draw.c) ---- */

/* zw_timing_view_draw; @overlays FALSE leaves out the drag-selected range (the widget
 * draws it over its cached picture). */
void zw_timing_draw_content (cairo_t *cr, int width, int height, const ZwProfile *profile, ZwDeployReport *report,
                             const ZwTimingState *state, const ZwViewStyle *colors, gboolean overlays);
/* The drag-selected range of @state with its duration and what ran in it. */
void zw_timing_draw_selection (ZwPainter *p, const ZwTimingGeometry *g, const ZwProfile *profile,
                               const ZwTimingState *state, const ZwViewStyle *colors);
/* zw_timing_row_layer_class into @buf (@size bytes), returned; @ops and @launches: the
 * report's indexes (may be NULL). */
const char *zw_timing_row_layer_class_into (const ZwProfileRow *row, GHashTable *ops, GHashTable *launches, char *buf,
                                            gsize size);

/* ---- the table (zw-timing-table.c) ---- */

/* Builds the column view and its models into @self; returns its scrolled window. */
GtkWidget *zw_timing_table_new (ZwTimingView *self);
/* One table row per row of self->data, none selected. */
void zw_timing_table_reload (ZwTimingView *self);
/* Selects the table row of profile row @row (-1: none) without echoing it back to the
 * view; returns its sorted position (GTK_INVALID_LIST_POSITION for none). */
guint zw_timing_table_select_row (ZwTimingView *self, gint row);
/* Shows table row @pos (sorted position) once the list is laid out. */
void zw_timing_table_scroll_to (ZwTimingView *self, guint pos);

/* ---- the values bar (zw-timing-values-bar.c) ---- */

/* Builds self->values_bar; returns the scrolled window holding it. */
GtkWidget *zw_timing_values_bar_new (ZwTimingView *self);
/* Lists the selected row's values again. */
void zw_timing_values_bar_update (ZwTimingView *self);
/* Marks the button of the shared selection's selected value. */
void zw_timing_values_bar_mark_selected (ZwTimingView *self);

G_END_DECLS
