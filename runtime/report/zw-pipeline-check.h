/* zw-pipeline-check.h — the independent checker of a pipeline report (`xrt-run check`), over
 * the model every view reads (report/zw-pipeline-report.h): the figures a view draws are the
 * ones the checker read off the board's chunks and the networks' own deploy reports. */
#pragma once

#include "report/zw-pipeline-report.h"

G_BEGIN_DECLS

/**
 * ZwPipelineCheck:
 * @n_networks: networks in the report
 * @etm_bytes: the board's ETM the checker reads off the board's chunks (those not "other")
 * @apart_bytes: the ETM the same networks take deployed apart (the sum of their
 *   apart_etm_bytes)
 * @n_shared: shared segments
 * @n_connections: connections
 * @n_zero_copy: connections that are zero-copy at both ends
 *
 * What zw_pipeline_report_check() read.
 */
typedef struct {
  guint n_networks;
  guint64 etm_bytes;
  guint64 apart_bytes;
  guint n_shared;
  guint n_connections;
  guint n_zero_copy;
} ZwPipelineCheck;

/**
 * zw_pipeline_report_check: (skip)
 * @report: a pipeline report read by zw_pipeline_report_from_json()
 * @origin: the name errors give (a file)
 * @out: (out caller-allocates) (optional): what the checker read
 * @error: ZW_REPORT_ERROR_FORMAT naming @origin and the first disagreement: the network,
 *   the value, the address
 *
 * Checks a pipeline report independently of the runtime that made it: each network's
 * deploy report passes zw_deploy_report_check(); the board's chunks are disjoint; every
 * network's WEIGHT, INSTR and FTMP lie in a board chunk of its own or in a share that lists
 * it; each connection's ends sit at the start of a board chunk of its own; the report's
 * ETM figures equal the ones read off the chunks and the networks.
 *
 * Returns: %TRUE when the report holds
 */
gboolean zw_pipeline_report_check (const ZwPipelineReport *report, const char *origin, ZwPipelineCheck *out,
                                   GError **error);

/**
 * zw_pipeline_report_check_json: (skip)
 * @root: a pipeline report JSON (xrt_pipeline_report_to_json())
 * @origin: the name errors give (a file)
 * @out: (out caller-allocates) (optional): what the checker read
 * @error: as zw_pipeline_report_from_json(), then as zw_pipeline_report_check()
 *
 * Reads @root with the one reader of the format and checks the model it makes.
 *
 * Returns: %TRUE when the report reads and holds
 */
gboolean zw_pipeline_report_check_json (const cJSON *root, const char *origin, ZwPipelineCheck *out, GError **error);

G_END_DECLS
