/* zw-pipeline-compare.h — two passes of pipelines compared op by op (issue 38): two runs of
 * one pipeline with different options, or two pipelines that share networks, in the
 * Compare view with rows named "NET:OP_ID".
 *
 * Networks are matched by name (the pipeline file's [network.NAME]); within a matched pair
 * the ops are matched as two runs of one network are (zw_profile_compare(): by op id, a
 * merged launch against its members, by kind when the op ids differ), with the classes of
 * each side's deploy report. Every row carries its network's name (ZwCompareRow.network), so
 * the same op id in two networks gives two rows, and a regression in one network of the
 * pipeline is a row of that network. A network only in A (or not profiled in B) gives rows
 * only in A; networks only in B follow, in B's pass order. The totals are the sums of the
 * networks' comparisons: A's total is A's pass (the networks one after another), the counts
 * (matched, only A, only B, regressions, improvements, merged, by kind) the networks' sums.
 */
#pragma once

#include "report/zw-compare.h"
#include "report/zw-pipeline-report.h"

G_BEGIN_DECLS

/**
 * zw_pipeline_compare: (skip)
 * @a: the reference pass (A)
 * @b: the other pass (B)
 * @options: (nullable): the regression rule (NULL: defaults)
 * @error: ZW_REPORT_ERROR_FORMAT naming the pipeline when a side's pass was not profiled
 *   (a plan: no time to compare)
 *
 * Compares two pipelines' passes network by network (see the top).
 *
 * Returns: (transfer full) (nullable): the comparison, rows in A's pass order
 */
ZwProfileCompare *zw_pipeline_compare (const ZwPipelineReport *a, const ZwPipelineReport *b,
                                       const ZwCompareOptions *options, GError **error);

/**
 * zw_compare_row_dup_name: (skip)
 * @row: a row of a comparison
 *
 * The row's op as the Compare view and the CSV name it: "NET:OP_ID" for a row of a
 * pipeline's network, "OP_ID" otherwise.
 *
 * Returns: (transfer full)
 */
char *zw_compare_row_dup_name (const ZwCompareRow *row);

G_END_DECLS
