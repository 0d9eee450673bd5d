/* zw-profile-plan.h — a bare time profile read against the network it came from.
 *
 * A vendor time file (`*_time.txt`) lists op ids and op types only: a merged launch is one
 * row "686 HardOpNode" that does not say which ops it ran.  The network's deploy report does
 * (its merge plan: report->launches, each launch's merge_from).  zw_profile_map_to_plan()
 * first checks that the profile belongs to that network — every row's op id is an op of the
 * report with the same kind (the op type without its namespace and "Node": "HardOp",
 * "Input", "DetPostZG"), or is a merged launch of the report's plan and the row a hardop —
 * and then gives each launch row its members (merge_from), so that zw_profile_compare()
 * lines a merge-on file up with a merge-off file op by op, as it does two runs.
 *
 * A plan made with merge off has no merged launches: a merge-on file does not belong to it
 * (the error says the plan's merge option); zw_profile_wants_merge_on_plan() tells when the
 * same network planned again with merge on would take it (deploy/xrt-merge-on-plan.h).  Nothing here needs a device or a backend.
 */
#pragma once

#include <glib.h>

#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

/**
 * zw_profile_row_belongs: (skip)
 * @row: a profile row
 * @report: the deploy report of a network
 *
 * TRUE when @row is an op of @report with the same kind, or a merged launch of its plan.
 */
gboolean zw_profile_row_belongs (const ZwProfileRow *row, const ZwDeployReport *report);

/**
 * zw_profile_map_to_plan:
 * @profile: a time profile (e.g. a vendor `*_time.txt`)
 * @report: the deploy report of the network it is checked against
 * @error: where the first row that does not belong is named
 *
 * Checks that every row of @profile belongs to @report's network (see the top) and returns
 * a copy whose merged launches list their member ops (merge_from) from @report's merge plan;
 * NULL (@error: ZW_REPORT_ERROR_FORMAT naming the row's op id, type and the network) when a
 * row does not belong.
 *
 * Returns: (transfer full) (nullable): the mapped copy
 */
ZwProfile *zw_profile_map_to_plan (const ZwProfile *profile, const ZwDeployReport *report, GError **error);

/**
 * zw_profile_wants_merge_on_plan: (skip)
 * @a: (nullable): a time profile
 * @b: (nullable): another time profile
 * @report: the deploy report they are to be mapped through
 *
 * Whether @a and @b would map through @report's network planned again with merge on
 * (deploy/xrt-merge-on-plan.h): @report has merge off, a row of either does not belong, and
 * every row that does not belong is a hardop numbered past the network's largest op id (as
 * merged launches are); a file of another network, or a row of the wrong kind, wants no merge-on plan.
 *
 * Returns: %TRUE when a merge-on plan is wanted
 */
gboolean zw_profile_wants_merge_on_plan (const ZwProfile *a, const ZwProfile *b, const ZwDeployReport *report);

G_END_DECLS
