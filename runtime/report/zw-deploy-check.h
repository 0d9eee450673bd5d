/* zw-deploy-check.h — the independent invariant checker of a deploy report (`xrt-run check`). */
#pragma once

#include "report/zw-deploy-report.h"

#include <string.h>

G_BEGIN_DECLS

typedef struct {
  guint n_etm_values;        /* values checked in ETM */
  guint n_ocm_values;        /* values checked in OCM */
  guint64 ftmp_lower_bound;  /* max over op indices of the live ETM FTMP chunk bytes */
  guint64 ocm_peak;          /* max live OCM bytes */
} ZwDeployCheck;

/**
 * zw_deploy_report_check:
 *
 * Verifies, from the report alone (never the planners' bookkeeping):
 *  - no two values whose lifetimes overlap share ETM bytes, nor OCM bytes (values of one
 *    compiler chunk share by design: a concat's inputs live in its output);
 *  - every value lies inside its segment (logic and, after apply, physical), OCM values
 *    inside the OCM;
 *  - FTMP >= the liveness lower bound, and live OCM bytes <= the OCM capacity;
 *  - every userConnectNetwork connection: zero-copy ones live in the user's chunk at their
 *    compiler-chunk offset, staged ones have a home apart from the user's chunk;
 *  - the chunk table agrees with the values: every chunk inside its memory (FTMP segment
 *    or OCM), every FTMP or OCM value of a listed chunk at that chunk's address plus its
 *    chunk offset (logic and physical) and inside it, every chunk's v_ids of that chunk
 *    (apply places chunks, the checks above verify values: both must say the same).
 * The first violation fails with ZW_REPORT_ERROR_FORMAT naming the v_ids, addresses and
 * op indices. @out (nullable) receives the figures.
 */
gboolean zw_deploy_report_check (const ZwDeployReport *report, ZwDeployCheck *out, GError **error);

/* What apply uses against what the checker verified: @applied is the backend's own report
 * of the placement it is about to deploy (its chunks where a recorded plan's chunk table
 * put them), @verified the recorded plan that passed zw_deploy_report_check().  Fails with
 * ZW_REPORT_ERROR_FORMAT naming the first FTMP or OCM value whose chunk, chunk offset,
 * size, memory or address differs, and the field. */
gboolean zw_deploy_report_check_agree (const ZwDeployReport *verified, const ZwDeployReport *applied,
                                       GError **error);

G_END_DECLS
