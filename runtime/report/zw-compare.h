/* zw-compare.h — compare two runs: time profiles per op, deploy reports side by side.
 *
 * Profiles: rows are matched by op_id; a merged launch matches only a launch with the same
 * op id and the same merge_from (a profile that lost merge_from, e.g. a vendor text file,
 * matches by op id alone).  A repeated op id matches its n-th occurrence to the n-th.
 * For each pair: delta = B - A and ratio = B / A (total, hard, memcpy, other); a regression
 * is ratio > 1 + tolerance and delta > min_delta_ms (an improvement the mirror image).
 * Rows appear in A's order; rows only in B follow, in B's order.  Only simulated times are
 * compared (the board's timer and the host-op cost model); the dev host's measured time of
 * host ops is summed apart (a_host_measured_ms …) so a view can show it, labelled, beside.
 *
 * Deploy reports: FTMP bytes, OCM bytes (chunks placed in OCM), launches, hardops, the
 * OCM option asked and chosen, and the planner's estimated time of the chosen option.
 *
 * Everything here is plain data that a view and the CLI print; owned by the caller.
 */
#pragma once

#include <glib.h>

#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

typedef struct {
  double tolerance;      /* regression when B / A > 1 + tolerance … (default 0.05) */
  double min_delta_ms;   /* … and B - A > this (default 0.01 ms) */
} ZwCompareOptions;

#define ZW_COMPARE_OPTIONS_INIT { 0.05, 0.01 }

typedef enum {
  ZW_COMPARE_BOTH,
  ZW_COMPARE_ONLY_A,
  ZW_COMPARE_ONLY_B,
} ZwCompareSide;

typedef struct {
  gint64 op_id;
  char *op_type;
  char *op_name;
  GArray *merge_from;        /* gint64 (A's, else B's) */
  ZwCompareSide side;
  double a_ms, b_ms;         /* total times (0 when absent) */
  double a_hard_ms, b_hard_ms;
  double a_memcpy_ms, b_memcpy_ms;
  double a_other_ms, b_other_ms;
  double delta_ms;           /* b_ms - a_ms */
  double ratio;              /* b_ms / a_ms; +inf when a is 0 and b is not, 1 when both are 0,
                              * NaN for a row on one side only */
  gboolean regression;
  gboolean improvement;
} ZwCompareRow;

typedef struct {
  ZwCompareOptions options;
  GPtrArray *rows;           /* ZwCompareRow* */
  double a_total_ms, b_total_ms, delta_ms, ratio;     /* sums of the rows' totals */
  double a_hard_ms, b_hard_ms;
  guint n_matched, n_only_a, n_only_b, n_regressions, n_improvements;
  /* the dev host's measured time of host ops (ZwProfileRow.host_measured_ms), summed per
   * side for a labelled line; never in the rows, deltas, ratios or verdicts above */
  gboolean a_has_host_measured, b_has_host_measured;
  double a_host_measured_ms, b_host_measured_ms;
} ZwProfileCompare;

/* zw_profile_compare: @options may be NULL (defaults). */
ZwProfileCompare *zw_profile_compare (const ZwProfile *a, const ZwProfile *b, const ZwCompareOptions *options);
void zw_profile_compare_free (ZwProfileCompare *cmp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwProfileCompare, zw_profile_compare_free)

/* zw_profile_compare_to_csv:
 * op_id,op_type,op_name,merge_from,side,a_ms,b_ms,delta_ms,ratio,a_hard_ms,b_hard_ms,regression
 * (RFC 4180 quoting; a new string). */
char *zw_profile_compare_to_csv (const ZwProfileCompare *cmp);

/* One side of a deploy comparison. */
typedef struct {
  char *network;
  gboolean merge_hardop, etm_optimize;
  ZwOcmOpt ocm_requested, ocm_chosen;
  guint64 ftmp_bytes;
  guint64 ftmp_lower_bound;
  guint64 ocm_bytes;          /* sum of the sizes of the chunks placed in OCM */
  guint n_ocm_chunks;
  guint64 ocm_capacity;
  guint n_launches;
  guint n_hardops;
  double estimated_ms;        /* the planner's cost of the chosen OCM option (NONE: without OCM) */
} ZwDeploySummary;

typedef struct {
  ZwDeploySummary a, b;
  gint64 ftmp_delta, ocm_delta;
  gint n_launches_delta;
  double estimated_delta_ms;
} ZwDeployCompare;

void zw_deploy_summary_init (ZwDeploySummary *summary, const ZwDeployReport *report);
void zw_deploy_summary_clear (ZwDeploySummary *summary);
ZwDeployCompare *zw_deploy_compare (const ZwDeployReport *a, const ZwDeployReport *b);
void zw_deploy_compare_free (ZwDeployCompare *cmp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDeployCompare, zw_deploy_compare_free)

G_END_DECLS
