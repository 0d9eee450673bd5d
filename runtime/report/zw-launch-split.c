/* zw-launch-split.c — a merged launch's time split over its member ops (see the header). */
#include "report/zw-launch-split.h"

#include <math.h>

GHashTable *
zw_report_index_ops (const ZwDeployReport *report)
{
  GHashTable *index = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < report->ops->len; i++)
    {
      ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      g_hash_table_insert (index, &op->op_id, op);
    }
  return index;
}

GHashTable *
zw_report_index_estimates (const ZwDeployReport *report)
{
  GHashTable *index = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint h = 0; report != NULL && report->hardops != NULL && h < report->hardops->len; h++)
    {
      ZwHardOpInfo *hi = &g_array_index (report->hardops, ZwHardOpInfo, h);
      g_hash_table_insert (index, &hi->op_id, &hi->est_ms);
    }
  return index;
}

void
zw_launch_split_weights (GHashTable *estimates, GHashTable *ops, const gint64 *members, guint n, double *weights)
{
  gboolean all = TRUE;
  double sum = 0;

  for (guint k = 0; k < n; k++)
    {
      const double *e = estimates != NULL ? g_hash_table_lookup (estimates, &members[k]) : NULL;
      all = all && e != NULL && *e >= 0 && isfinite (*e);
      weights[k] = all ? *e : 0;
      sum += weights[k];
    }
  if (all && sum > 0)
    return;
  all = TRUE;
  for (guint k = 0; k < n; k++)
    {
      const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &members[k]) : NULL;
      weights[k] = op != NULL && op->layer_count > 0 ? op->layer_count : 0;
      all = all && weights[k] > 0;
    }
  if (all)
    return;
  for (guint k = 0; k < n; k++)
    weights[k] = 1;
}
