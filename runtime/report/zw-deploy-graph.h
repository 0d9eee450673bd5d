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

/**
 * zw_value_info_init_from_value: (skip)
 * @vi: the value row to initialise (as zw_value_info_init() does)
 * @net: the network of @v
 * @v: one of its values
 *
 * What the network alone says of a value's row, for the backends that write the report from
 * their plan: its v_id, the id of the op that produces it (-1 for none), its first and last
 * use, its storage bytes, shape, dtype ("u8", "s8 q": the storage type, " q" when
 * quantised) and layout. Where it lies is the caller's.
 */
void zw_value_info_init_from_value (ZwValueInfo *vi, const XirNetwork *net, const XirValue *v);

G_END_DECLS
