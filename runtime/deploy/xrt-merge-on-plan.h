/* xrt-merge-on-plan.h — a network planned again with merge on, for time files to map through.
 *
 * A bare vendor time file of a run with merge on lists merged launches ("686 HardOpNode")
 * that only the network's merge plan can give their ops (report/zw-profile-plan.h).  A run
 * (or a deploy report) made with merge off (disableMergeHardOp) has no merged launches, so
 * the merge-on file does not belong to it (zw_profile_wants_merge_on_plan()).  The ZG330 backend's merge plan depends on the
 * network and the options only — consecutive icore hardops become one launch, numbered from
 * the network's largest op id up — so the same network planned again with merge on (plan
 * only: no params, no apply, no forward, a simulated board of its compile target) gives the
 * launches the file ran.  The workbench (in a worker) and `xrt-run report compare --network`
 * do that when the network open or given has merge off and a file does not belong.
 *
 * A deploy report names its network by the path it was loaded from ("network": {"path"}),
 * as it was given then (maybe relative to another folder): xrt_merge_on_plan_find_network()
 * looks for it where it can be and says where it looked when it is not there.
 */
#pragma once

#include <glib.h>

#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

/**
 * xrt_merge_on_plan_find_network:
 * @report: a deploy report
 * @report_path: (nullable): the file @report was read from, %NULL for a live run's
 * @error: %G_IO_ERROR_NOT_FOUND naming the path the report gives and the places looked in
 *
 * The network JSON of @report: its "network" path as it is (absolute, or relative to the
 * working folder), else relative to @report_path's folder, else its base name in that
 * folder.
 *
 * Returns: (transfer full) (nullable): the path of an existing file
 */
char *xrt_merge_on_plan_find_network (const ZwDeployReport *report, const char *report_path, GError **error);

/**
 * xrt_merge_on_plan:
 * @network_path: the network JSON of @report
 * @report: a deploy report of that network made with merge off, whose ETM and OCM options
 *   the plan keeps
 * @error: the network's or the backend's error (a compiler-placed network cannot merge),
 *   or %ZW_REPORT_ERROR_FORMAT when the file is not @report's network (its name, op count
 *   or largest op id differ)
 *
 * Plans the network at @network_path with merge on, on a simulated board of its compile
 * target, without params (see the top). Safe to call from a worker thread.
 *
 * Returns: (transfer full) (nullable): the merge-on plan as a deploy report
 */
ZwDeployReport *xrt_merge_on_plan (const char *network_path, const ZwDeployReport *report, GError **error);

G_END_DECLS
