/* xrt-pipeline-apart.h — a pipeline's networks run apart (issue 38): each network of the
 * pipeline deployed alone on a simulated board of its own with the same options, as the
 * pipeline report's "apart_etm_bytes" are computed (one code path), and run for one
 * profiled forward, so a pass of the pipeline can be compared with the same networks
 * deployed apart, op by op (report/zw-pipeline-apart.h).
 */
#pragma once

#include "deploy/xrt-pipeline.h"

G_BEGIN_DECLS

/**
 * xrt_pipeline_apart_to_json: (skip)
 * @self: a pipeline (its networks opened; it need not have been applied)
 * @iteration: the forward's number: the free inputs are the pass's seeded ones of @iteration
 *   (xrt_deployment_make_inputs()), a connected input is what the upstream network gave when
 *   it ran apart
 * @error: the network that failed, named with the pipeline file
 *
 * Runs every network of @self alone, in pass order: the same view and options applied on a
 * new simulated board of its compile target, its ETM the chunks it took there, one profiled
 * forward. The result is a pipeline report ("format": "zhuge-pipeline-report", as
 * xrt_pipeline_report_to_json() writes, read by zw_pipeline_report_from_json()) of the
 * networks apart: "pipeline.name" "NAME (apart)", each network's "apart_etm_bytes", "time_ms",
 * "profile" and "report"; no shares, connections or board chunks; "etm" board_bytes =
 * apart_bytes = the networks' sum (saved 0); "time" pass_ms = the sum of the networks' times.
 *
 * Returns: (transfer full) (nullable): the report
 */
cJSON *xrt_pipeline_apart_to_json (XrtPipeline *self, guint iteration, GError **error);

G_END_DECLS
