/* zw-deploy-graph.h — the network's graph in the deploy report: which values each op reads
 * and writes, and its name.
 *
 * The backends build the deploy report from their plan, which knows placements but not the
 * graph; the graph view needs edges. The workbench (or any writer that holds the network)
 * attaches them here before it hands the report out or saves it; the report's JSON then
 * carries them ("ops[].name", "inputs", "outputs"), so a report opened from disk draws the
 * same graph as the live run.
 */
#pragma once

#include "report/zw-deploy-report.h"
#include "xir/xir-network.h"

G_BEGIN_DECLS

/**
 * zw_deploy_report_attach_network:
 *
 * Fills name, inputs, outputs and attrs of every op of @report that @net has (matched by op
 * id; op ids the network lacks are left as they are), the quantisation (bits, scales, zero
 * points) of every value @net quantises, and, when @net has params, params_seed
 * (the seed of synthetic params, -1 for a .raw's). Call before the report is shared: it
 * writes the report in place. Params (weights, instructions) are not inputs here.
 */
void zw_deploy_report_attach_network (ZwDeployReport *report, const XirNetwork *net);

/**
 * zw_deploy_report_has_graph:
 *
 * TRUE when every op of @report knows its inputs and outputs.
 */
gboolean zw_deploy_report_has_graph (const ZwDeployReport *report);

G_END_DECLS
