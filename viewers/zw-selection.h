/* zw-selection.h — the selection and zoom shared by every deploy view.
 *
 * Like SysprofSession: one ZwSelection per open report; every view takes it at
 * construction, draws its "report", highlights "selected-value" / "selected-op" and shows
 * the op-index range ["zoom-start", "zoom-end"] on its time axis. Selecting or zooming in
 * one view sets the property here, and every other view follows through notify.
 *
 * Properties (all G_PARAM_EXPLICIT_NOTIFY: a notify means the value really changed):
 *   "report"          ZwDeployReport* (boxed, ZW_TYPE_DEPLOY_REPORT), NULL for none
 *   "selected-value"  gint64 v_id, -1 for none
 *   "selected-op"     gint64 op_id, -1 for none
 *   "zoom-start"      double op index, >= 0
 *   "zoom-end"        double op index, > zoom-start, <= n_ops
 *   "can-go-back", "can-go-forward"  gboolean, read-only: the selection history
 *   "pipeline"        ZwPipelineReport* (pointer), the pipeline open in the window, or NULL
 *   "pipeline-value"  string "NET:V_ID": a value of the pipeline's (NULL for none)
 * Setting the report resets the selection to -1/-1, the zoom to [0, n_ops] and the history.
 *
 * One selection everywhere: every view that shows ops or values selects through here and
 * brings the selected one into sight when it changes. Each change of the selected op or
 * value (by any view) is an entry of the history; Back and Forward walk it (the window
 * binds Alt+Left/Alt+Right) without adding entries.
 */
#pragma once

#include <glib-object.h>
#include "report/zw-deploy-report.h"
#include "report/zw-pipeline-report.h"

G_BEGIN_DECLS

/* ZwDeployReport is a boxed type of the runtime (ZW_TYPE_DEPLOY_REPORT), a GObject property here. */

#define ZW_TYPE_SELECTION (zw_selection_get_type ())
G_DECLARE_FINAL_TYPE (ZwSelection, zw_selection, ZW, SELECTION, GObject)

/* A selection with no report. */
ZwSelection *zw_selection_new (void);

/* The report shown (borrowed; valid until the report changes). */
ZwDeployReport *zw_selection_get_report (ZwSelection *self);
/* Takes a new reference on @report (may be NULL); resets selection and zoom. */
void zw_selection_set_report (ZwSelection *self, ZwDeployReport *report);

gint64 zw_selection_get_selected_value (ZwSelection *self);
/* Any negative v_id, or one not in the report, means none (-1). */
void zw_selection_set_selected_value (ZwSelection *self, gint64 v_id);

gint64 zw_selection_get_selected_op (ZwSelection *self);
/* Any negative op_id, or one not in the report, means none (-1). */
void zw_selection_set_selected_op (ZwSelection *self, gint64 op_id);

/* Selects an op and a value at once (either -1): one history entry. */
void zw_selection_select (ZwSelection *self, gint64 op_id, gint64 v_id);

gboolean zw_selection_can_go_back (ZwSelection *self);
gboolean zw_selection_can_go_forward (ZwSelection *self);
/* Back to the previous selection of the history (FALSE at its start); Forward again. */
gboolean zw_selection_go_back (ZwSelection *self);
gboolean zw_selection_go_forward (ZwSelection *self);

double zw_selection_get_zoom_start (ZwSelection *self);
double zw_selection_get_zoom_end (ZwSelection *self);
/* Sets both ends at once, clamped to [0, n_ops] and at least 1 op wide (swapped if
 * reversed); notifies only the ends that changed. */
void zw_selection_set_zoom (ZwSelection *self, double start, double end);
void zw_selection_set_zoom_start (ZwSelection *self, double start);
void zw_selection_set_zoom_end (ZwSelection *self, double end);
/* Zoom to the whole report: [0, n_ops]. */
void zw_selection_zoom_fit (ZwSelection *self);
/* Zooms by @factor (> 1 zooms in) around the op index @center. */
void zw_selection_zoom_by (ZwSelection *self, double factor, double center);
/* Shifts the range by @delta ops, keeping its width, clamped to the report. */
void zw_selection_pan (ZwSelection *self, double delta);

/* Pipelines (issue 38): the pipeline open (a reference is taken; NULL none). While it is set
 * and no report is, the views show the whole pass (zw_selection_shows_pass); a network's
 * report set as "report" shows that network. Setting it clears "pipeline-value". */
ZwPipelineReport *zw_selection_get_pipeline (ZwSelection *self);
void zw_selection_set_pipeline (ZwSelection *self, ZwPipelineReport *pipeline);
gboolean zw_selection_shows_pass (ZwSelection *self);
/* The selected value of the pipeline, "NET:V_ID" (borrowed), or NULL. */
const char *zw_selection_get_pipeline_value (ZwSelection *self);
/* Selects "NET:V_ID" (written back as zw_pipeline_value_name gives it); a name whose
 * network or value the pipeline does not have, or NULL, selects none. TRUE when one is. */
gboolean zw_selection_set_pipeline_value (ZwSelection *self, const char *name);

G_END_DECLS
