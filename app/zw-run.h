/* zw-run.h — one run of the workbench: an apply, a forward, or a deploy log opened offline.
 *
 * A ZwRun is immutable once made (except its "compare" mark): it holds the deploy report
 * the views read, the options and device profile figures it was made with, and the
 * figures the run history shows — FTMP and OCM bytes, launches, simulated total time.
 * Made by the run controller (live runs) or by zw_run_new_from_log (offline logs).
 *
 * Properties (read-only unless said):
 *   "report"       ZwDeployReport* (boxed)
 *   "kind"         ZwRunKind
 *   "index"        guint, 1-based position in the history (set once by the history)
 *   "merge-hardop", "etm-optimize"  gboolean
 *   "ocm-requested", "ocm-chosen"   gint (ZwOcmOpt)
 *   "ftmp-bytes", "ocm-bytes"       guint64: FTMP segment size; bytes of chunks in OCM, summed
 *                                   over the run ("placed over time": not a figure for the
 *                                   capacity, see zw_run_get_ocm_peak)
 *   "n-launches"   guint: icoreCalc launches (merged groups count once)
 *   "iterations"   guint: forwards run (0 for an apply or a log)
 *   "total-ms"     double: simulated time of the last forward, < 0 when none ran
 *   "compare"      gboolean, read-write: marked for comparison
 *
 * A forward also keeps the time profile of its last forward (what the Timing view shows)
 * and, when it was asked to dump, the folder of its dumped tensors; both are set by the
 * run controller before the run is handed to the main thread and never change after.
 */
#pragma once

#include <glib-object.h>
#include "report/zw-deploy-report.h"
#include "report/zw-pipeline-report.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

typedef enum {
  ZW_RUN_APPLY,    /* deployed, not run */
  ZW_RUN_FORWARD,  /* deployed and run forward */
  ZW_RUN_LOG,      /* a deploy log opened from disk */
  ZW_RUN_PLAN,     /* planned without params (no .raw): logic facts only, not deployed */
  ZW_RUN_PROFILE,  /* a time profile opened from disk (an empty report: no deployment) */
  ZW_RUN_PIPELINE, /* a pipeline's pass (or a pipeline report opened): an empty report named
                    * after the pipeline, the pipeline report itself (zw_run_get_pipeline) */
} ZwRunKind;

#define ZW_TYPE_RUN (zw_run_get_type ())
G_DECLARE_FINAL_TYPE (ZwRun, zw_run, ZW, RUN, GObject)

/* A live run: takes a new reference on @report. @total_ms < 0 when no forward ran. */
ZwRun *zw_run_new (ZwDeployReport *report, ZwRunKind kind, guint iterations, double total_ms);
/* An offline run of a deploy log (options and figures read from the report). */
ZwRun *zw_run_new_from_log (ZwDeployReport *report, const char *path);
/* A time profile file in the history (takes @profile): its report is empty, named after the
 * profile's network (or the file). */
ZwRun *zw_run_new_from_profile (ZwProfile *profile, const char *path);
/* A pipeline's pass as a row of the history (issue 38): takes a reference on @pipeline; @path
 * is the pipeline file (or report) it was made from; @from_report: a report read from disk,
 * not a pass run here. Its total time is the pass's, its figures the board's whole ETM. */
ZwRun *zw_run_new_for_pipeline (ZwPipelineReport *pipeline, const char *path, gboolean from_report);
/* The networks of pass @pass (a pipeline row) each run alone with the same options, as a row
 * of its own: @apart is their pipeline report (xrt_pipeline_apart_to_json; a reference is
 * taken), its total time the networks' times summed, its ETM theirs summed. */
ZwRun *zw_run_new_for_pipeline_apart (ZwPipelineReport *apart, ZwRun *pass);
/* The pass an apart row ran apart (borrowed), NULL for any other run. */
ZwPipelineReport *zw_run_get_apart_of (ZwRun *self);
/* The pipeline report of a ZW_RUN_PIPELINE run (borrowed), else NULL. */
ZwPipelineReport *zw_run_get_pipeline (ZwRun *self);
/* The network the run is of: the report's name, the profile's, else the file's base name. */
const char *zw_run_get_network_name (ZwRun *self);
/* The run deployed deterministic synthetic params (no .raw, or "Use synthetic params"):
 * its title says so. Set by the run controller before the run is handed over. */
gboolean zw_run_get_synthetic_params (ZwRun *self);
void zw_run_set_synthetic_params (ZwRun *self, gboolean synthetic);

/* Borrowed; the run keeps it as long as it lives. */
ZwDeployReport *zw_run_get_report (ZwRun *self);
ZwRunKind zw_run_get_kind (ZwRun *self);
/* The log file for ZW_RUN_LOG runs, else NULL. */
const char *zw_run_get_path (ZwRun *self);
void zw_run_set_index (ZwRun *self, guint index);
guint zw_run_get_index (ZwRun *self);
/* @next takes @previous's place in the history instead of a row of its own (issue 37: an
 * option tried after another must not flood the history): both are applies (no forward ran,
 * nothing was dumped) of the same network on the same board, and @previous is not marked
 * for comparison; so does a plan (a network without params) after a plan. A forward, a log
 * or a time profile always keeps its own row. */
gboolean zw_run_replaces (ZwRun *next, ZwRun *previous);
gboolean zw_run_get_merge_hardop (ZwRun *self);
gboolean zw_run_get_etm_optimize (ZwRun *self);
ZwOcmOpt zw_run_get_ocm_requested (ZwRun *self);
ZwOcmOpt zw_run_get_ocm_chosen (ZwRun *self);
guint64 zw_run_get_ftmp_bytes (ZwRun *self);
guint64 zw_run_get_ocm_bytes (ZwRun *self);
/* The most OCM bytes live at one op index (zw_deploy_report_ocm_peak): the OCM figure
 * shown beside the capacity. */
guint64 zw_run_get_ocm_peak (ZwRun *self);
/* "OCM peak 1.8 MiB / 2.0 MiB": the peak and the capacity, as the history shows them. */
char *zw_run_dup_ocm_peak_text (ZwRun *self);
guint zw_run_get_n_launches (ZwRun *self);
guint zw_run_get_iterations (ZwRun *self);
double zw_run_get_total_ms (ZwRun *self);
gboolean zw_run_get_compare (ZwRun *self);
void zw_run_set_compare (ZwRun *self, gboolean compare);

/* The time profile of the last forward (borrowed), NULL for an apply or a log. */
const ZwProfile *zw_run_get_profile (ZwRun *self);
/* Gives the run @profile (transfer full). Only before the run is shown. */
void zw_run_take_profile (ZwRun *self, ZwProfile *profile);
/* The folder the forward dumped its values into (NULL when it did not dump) and the
 * format it used ("SFB" …). */
const char *zw_run_get_dump_dir (ZwRun *self);
const char *zw_run_get_dump_format (ZwRun *self);
/* Records the dump folder. Only before the run is shown. */
void zw_run_set_dump (ZwRun *self, const char *dir, const char *format);

/* One line for the history: "#3 Forward ×10" (a new string). */
char *zw_run_dup_title (ZwRun *self);
/* The options and figures in one line (a new string). */
/* The history row's tooltip: the title, the summary and, for a forward that dumped, the
 * folder its tensors are in. */
char *zw_run_dup_details (ZwRun *self);
char *zw_run_dup_summary (ZwRun *self);

G_END_DECLS
