/* zw-launch-split.h — a merged launch's time split over its member ops, and the indexes of a
 * deploy report it needs. A profile has no per-op time of a merged launch: the split is an
 * ESTIMATE (the planner's estimates, else layer counts, else equal parts) that Timing,
 * Compare and the CLI label as such. */
#pragma once

#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

/* A hash table (gint64 op id -> element of report->ops, borrowed). */
GHashTable *zw_report_index_ops (const ZwDeployReport *report);
/* A hash table (gint64 op id -> double* the planner's estimate of the hardop, borrowed from
 * report->hardops); @report may be NULL (an empty table). */
GHashTable *zw_report_index_estimates (const ZwDeployReport *report);
/* The weights a merged launch's time is split over its @n members by, an estimate (the
 * report has no per-op time of a merged launch): the planner's estimates when every member
 * has one (0 is a share of 0) and they sum above 0, else the layer counts when every
 * member has them (@ops: zw_report_index_ops, may be NULL), else equal parts. */
void zw_launch_split_weights (GHashTable *estimates, GHashTable *ops, const gint64 *members, guint n, double *weights);

G_END_DECLS
