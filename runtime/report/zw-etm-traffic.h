/* zw-etm-traffic.h — ETM (and OCM) bytes each op moves, over the op index: the memory
 * traffic beside the occupancy in the memory timeline.
 *
 * The figures are those of the board's cost model (devices/zg330-timing.h, Zg330OpWork):
 * a hardop reads its weights and instructions and every input placed in ETM, and writes
 * every output placed in ETM; values in OCM move through OCM instead; a zero-copy op (its
 * inputs already live inside its output) moves nothing. Host ops move no ETM bytes here.
 *
 * Where they come from:
 *   the backend   a report written by ZG330Backend carries them per hardop
 *                 (hardops[].etm_read_bytes …, ZwHardOpInfo.has_traffic): exactly what the
 *                 board's timing charged;
 *   the placement for a report without them (written before they existed), they are
 *                 recomputed from the report alone: weights_size + instr_size + the inputs
 *                 that are neither in OCM nor on the host, the outputs likewise (needs the
 *                 graph: ops[].inputs/outputs); an op whose estimate is 0 ms is taken as
 *                 zero-copy. ZwEtmTraffic.exact says which.
 */
#pragma once

#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

typedef struct {
  guint n;                  /* report->ops->len: one slot per op index */
  guint64 *etm_read;        /* per op index */
  guint64 *etm_write;
  guint64 *ocm_read;
  guint64 *ocm_write;
  guint64 total_etm_read, total_etm_write;
  guint64 peak_etm;         /* the largest etm_read or etm_write of one op */
  gboolean exact;           /* every hardop carried the backend's figures */
  gboolean known;           /* some hardop's figures are known (else everything is 0) */
} ZwEtmTraffic;

/**
 * zw_etm_traffic_compute:
 *
 * The traffic of every op of @report, by op index. Never NULL.
 */
ZwEtmTraffic *zw_etm_traffic_compute (const ZwDeployReport *report);
void zw_etm_traffic_free (ZwEtmTraffic *traffic);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwEtmTraffic, zw_etm_traffic_free)

/**
 * zw_etm_traffic_from_placement:
 *
 * The figures of hardop @h recomputed from the report alone (see "the placement" above),
 * ignoring h->has_traffic. FALSE when the report lacks the op's inputs/outputs.
 */
gboolean zw_etm_traffic_from_placement (const ZwDeployReport *report, const ZwHardOpInfo *h, guint64 *etm_read,
                                        guint64 *etm_write, guint64 *ocm_read, guint64 *ocm_write);

G_END_DECLS
