/* zw-pipeline-apart.h — a pipeline's pass compared with the same networks run apart (issue
 * 38): what sharing segments and connecting networks on one board gave, op by op.
 *
 * The networks apart are a pipeline report of their own (deploy/xrt-pipeline-apart.h: each
 * network alone on a simulated board with the same options, as the pass's report computes
 * its "apart_etm_bytes"). The rows are zw_pipeline_compare()'s (A the pass, B the networks
 * apart, rows NET:OP_ID); the headline is the pass's time against the sum of the networks'
 * times apart and the board's ETM against the sum of their ETM apart.
 */
#pragma once

#include "report/zw-pipeline-compare.h"

G_BEGIN_DECLS

/* The headline of a pass against its networks apart. */
typedef struct {
  double pass_ms;           /* the pipeline's pass (its report's time.pass_ms) */
  double apart_ms;          /* the networks' times apart, summed */
  guint64 board_bytes;      /* the pipeline's ETM on the board (etm.board_bytes) */
  guint64 apart_bytes;      /* the networks' ETM apart, summed */
  /* why the times differ: the pass's connections on the board (neither end on the host)
   * carry their values with no host transfer, which the networks apart pay (the upstream
   * reading a value back, the downstream writing it); a staged one pays an ETM-to-ETM copy
   * at each staged end instead */
  guint connected;          /* connections on the board */
  guint64 connected_bytes;  /* their values' bytes, summed */
  guint staged;             /* of them, those with a staged end */
} ZwPipelineApartHeadline;

/**
 * zw_pipeline_compare_apart: (skip)
 * @pass: a pipeline's pass (profiled)
 * @apart: the same networks run apart (xrt_pipeline_apart_to_json(), parsed)
 * @options: (nullable): the regression rule (NULL: defaults)
 * @headline: (out caller-allocates) (optional): the pass's time and ETM against the networks'
 *   apart, summed
 * @error: ZW_REPORT_ERROR_FORMAT naming the pipeline and the network when a network of the
 *   pass is not among the networks apart, or a side was not profiled
 *
 * Compares a pass with its networks run apart: zw_pipeline_compare() (@pass as A, rows
 * NET:OP_ID) and the headline.
 *
 * Returns: (transfer full) (nullable): the comparison
 */
ZwProfileCompare *zw_pipeline_compare_apart (const ZwPipelineReport *pass, const ZwPipelineReport *apart,
                                             const ZwCompareOptions *options, ZwPipelineApartHeadline *headline,
                                             GError **error);

/**
 * zw_pipeline_apart_headline_text: (skip)
 * @headline: a headline
 *
 * The headline in one translated line: the pass against the sum apart, time and ETM, with
 * what the pipeline saved (or cost), and why the times differ (the connections on the board:
 * no host transfer, staged ones copied ETM to ETM).
 *
 * Returns: (transfer full)
 */
char *zw_pipeline_apart_headline_text (const ZwPipelineApartHeadline *headline);

G_END_DECLS
