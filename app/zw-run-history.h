/* zw-run-history.h — the list of runs: every apply, forward and opened log.
 *
 * Shows a GListModel of ZwRun (one row each: title, options, FTMP and OCM bytes, launches,
 * simulated time, a "Compare" mark). The selected run is what every view shows; at most
 * two runs are marked for comparison (marking a third unmarks the one marked first).
 *
 * Properties: "model" (GListModel of ZwRun, construct-only), "selected-run" (ZwRun,
 * read-write, G_PARAM_EXPLICIT_NOTIFY), "n-compared" (guint, read-only).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-run.h"

G_BEGIN_DECLS

#define ZW_TYPE_RUN_HISTORY (zw_run_history_get_type ())
G_DECLARE_FINAL_TYPE (ZwRunHistory, zw_run_history, ZW, RUN_HISTORY, GtkWidget)

GtkWidget *zw_run_history_new (GListModel *runs);
/* The selected run (borrowed), or NULL. */
ZwRun *zw_run_history_get_selected_run (ZwRunHistory *self);
/* Selects @run (must be in the model); NULL unselects. */
void zw_run_history_set_selected_run (ZwRunHistory *self, ZwRun *run);
/* The runs marked for comparison, in the order they were marked: a new array of
 * borrowed ZwRun pointers (0, 1 or 2 of them). */
GPtrArray *zw_run_history_get_compare_runs (ZwRunHistory *self);

/* The scrolled window of the list (tests: what is in sight). */
GtkWidget *zw_run_history_get_scroller (ZwRunHistory *self);

G_END_DECLS
