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

/* Verifies, from the report alone (never the planners' bookkeeping):
 *  - no two values whose lifetimes overlap share ETM bytes, nor OCM bytes (values of one
 *    compiler chunk share by design: a concat's inputs live in its output);
 *  - every value lies inside its segment (logic and, after apply, physical), OCM values
 *    inside the OCM;
 *  - FTMP >= the liveness lower bound, and live OCM bytes <= the OCM capacity;
 *  - every userConnectNetwork connection: zero-copy ones live in the user's chunk at their
 *    compiler-chunk offset, staged ones have a home apart from the user's chunk.
 * The first violation fails with ZW_REPORT_ERROR_FORMAT naming the v_ids, addresses and
 * op indices. @out (nullable) receives the figures. */
gboolean zw_deploy_report_check (const ZwDeployReport *report, ZwDeployCheck *out, GError **error);

G_END_DECLS
