/* zw-sweep.h — a sweep: one network deployed and run with every option combination
 * (merge x ETM optimize x OCM option) at every point of a what-if grid of device
 * figures (OCM size, icore clock), as the runtime's backend produced it (`xrt-run sweep`,
 * zg330-sweep.h) and the workbench's Sweep view reads it.
 *
 * Each row: the options, the what-if point, the simulated time of one forward (board +
 * host, from the device profile, never the dev host's clock), the FTMP bytes, the OCM bytes
 * (the chunks placed in OCM), the ETM bytes (every logic segment: WEIGHT + INSTR + FTMP +
 * INPUT + OUTPUT), the launches, and whether its plan passed the independent checker
 * (zw-deploy-check.h).  The Pareto front is of simulated time vs ETM bytes over the rows
 * that ran: a row is on it when no other row is at least as good in both and better in one.
 * The recommendation is the fastest row of the front (ties: fewer ETM bytes, then the lower
 * row index).  Over several what-if points that is always the biggest hardware, which
 * answers no user's question: each point has its own recommendation too, the fastest row
 * run at that point (same ties) — "which options for this device?".
 *
 * JSON ("format": "zhuge-sweep", "version": 1):
 * { "network": { "name", "path" },
 *   "what_if": [ "ocm=512K,icore=800M", … ]            // the grid points ("" = as profiled)
 *   "rows": [ { "index", "merge_hardop", "etm_optimize", "ocm_requested", "ocm_chosen",
 *               "what_if", "ocm_capacity", "icore_clock_hz", "simulated_ms", "ftmp_bytes",
 *               "ocm_bytes", "ocm_peak", "etm_bytes", "launches", "checked", "on_front", "error" } ],
 *               ("ocm_peak" may be missing in files of older versions)
 *   "recommended": row index or -1 }
 * CSV: a header line and one line per row, the same fields.
 */
#pragma once

#include <glib.h>
#include <cjson/cJSON.h>

#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

typedef struct {
  guint     index;
  gboolean  merge_hardop;
  gboolean  etm_optimize;
  ZwOcmOpt  ocm_requested;
  ZwOcmOpt  ocm_chosen;
  char     *what_if;          /* the grid point, "" when the profile is used as it is */
  guint64   ocm_capacity;     /* the board's OCM bytes at that point */
  double    icore_clock_hz;
  double    simulated_ms;     /* one forward, board + host */
  guint64   ftmp_bytes;
  guint64   ocm_bytes;        /* placed over time: the OCM chunks' sizes summed (not beside the capacity) */
  guint64   ocm_peak;         /* the most OCM bytes live at once; G_MAXUINT64 when the file has none */
  guint64   etm_bytes;
  guint     launches;
  gboolean  checked;          /* the plan passed zw_deploy_report_check() */
  gboolean  on_front;
  char     *error;            /* NULL, or why the row did not run (it is then off the front) */
  ZwDeployReport *report;     /* the row's plan when the runner was asked to keep it, else NULL */
} ZwSweepRow;

typedef struct {
  gint       ref_count;
  char      *network_name;
  char      *network_path;
  GPtrArray *what_if;         /* char*, the grid points in row order */
  GArray    *rows;            /* ZwSweepRow, by index */
  gint       recommended;     /* row index, -1 when no row ran */
  GArray    *recommended_at;  /* gint per what-if point (what_if's order): the fastest row run
                               * at that point, -1 when none ran; set by compute_front */
} ZwSweep;

ZwSweep *zw_sweep_new   (void);
ZwSweep *zw_sweep_ref   (ZwSweep *sweep);
void     zw_sweep_unref (ZwSweep *sweep);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwSweep, zw_sweep_unref)

/**
 * zw_sweep_get_n_combinations:
 *
 * The option combinations a sweep runs at each what-if point: merge x ETM optimize x every
 * OCM option (zw-ocm-option.h), in that nesting order (merge on first, then ETM optimize
 * on, then the options in table order).
 */
guint zw_sweep_get_n_combinations (void);

/**
 * zw_sweep_row_init:
 *
 * Initialises a row before it is appended (index and strings empty, report NULL).
 */
void zw_sweep_row_init (ZwSweepRow *row);

/**
 * zw_sweep_compute_front:
 *
 * Marks the Pareto front (time vs ETM bytes) of the rows without an error and sets the
 * recommendation.  Call after the rows are filled; idempotent.
 */
void zw_sweep_compute_front (ZwSweep *sweep);

/* The index in sweep->what_if of @row's what-if point, -1 when it is not one of them. */
gint zw_sweep_point_of_row (const ZwSweep *sweep, const ZwSweepRow *row);
/* The recommendation at what-if point @point (the fastest row run there), -1 for none. */
gint zw_sweep_recommended_at (const ZwSweep *sweep, guint point);
/* TRUE when @row is the recommendation of its what-if point. */
gboolean zw_sweep_row_is_recommended (const ZwSweep *sweep, const ZwSweepRow *row);

/**
 * zw_sweep_row_dominates:
 *
 * TRUE if row @a is at least as good as @b in time and ETM bytes and better in one.
 */
gboolean zw_sweep_row_dominates (const ZwSweepRow *a, const ZwSweepRow *b);

/* The sweep as JSON (a new tree) / CSV text (g_free) / files written atomically. */
cJSON   *zw_sweep_to_json   (const ZwSweep *sweep);
char    *zw_sweep_to_csv    (const ZwSweep *sweep);
gboolean zw_sweep_save_json (const ZwSweep *sweep, const char *path, GError **error);
gboolean zw_sweep_save_csv  (const ZwSweep *sweep, const char *path, GError **error);

/* Reads a sweep JSON back (reports are not part of it).  NULL with ZW_REPORT_ERROR_*
 * naming the file and the field. */
ZwSweep *zw_sweep_load           (const char *path, GError **error);
ZwSweep *zw_sweep_new_from_json  (const cJSON *json, const char *origin, GError **error);

G_END_DECLS
