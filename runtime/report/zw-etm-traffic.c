/* zw-etm-traffic.c — per-op ETM/OCM bytes of the cost model, from the deploy report. */
#include "report/zw-etm-traffic.h"

void
zw_etm_traffic_free (ZwEtmTraffic *t)
{
  if (t == NULL)
    return;
  g_free (t->etm_read);
  g_free (t->etm_write);
  g_free (t->ocm_read);
  g_free (t->ocm_write);
  g_free (t);
}

/* Adds @v_ids' bytes to @etm or @ocm by where each value was placed. */
static gboolean
add_values (const ZwDeployReport *report, const GArray *v_ids, guint64 *etm, guint64 *ocm)
{
  if (v_ids == NULL)
    return FALSE;
  for (guint k = 0; k < v_ids->len; k++)
    {
      const ZwValueInfo *v = zw_deploy_report_find_value (report, g_array_index (v_ids, gint64, k));
      if (v == NULL || v->is_host)
        continue;
      if (v->is_ocm)
        *ocm += v->byte_size;
      else
        *etm += v->byte_size;
    }
  return TRUE;
}

gboolean
zw_etm_traffic_from_placement (const ZwDeployReport *report, const ZwHardOpInfo *h, guint64 *etm_read,
                               guint64 *etm_write, guint64 *ocm_read, guint64 *ocm_write)
{
  const ZwOpInfo *op;
  guint64 er = 0, ew = 0, orr = 0, ow = 0;

  g_return_val_if_fail (report != NULL && h != NULL, FALSE);
  op = zw_deploy_report_find_op (report, h->op_id);
  if (op == NULL || op->inputs == NULL || op->outputs == NULL)
    return FALSE;
  /* a zero-copy op costs nothing in the model: its estimate is exactly 0 */
  if (h->est_ms > 0)
    {
      er = h->weights_size + h->instr_size;
      add_values (report, op->inputs, &er, &orr);
      add_values (report, op->outputs, &ew, &ow);
    }
  if (etm_read)
    *etm_read = er;
  if (etm_write)
    *etm_write = ew;
  if (ocm_read)
    *ocm_read = orr;
  if (ocm_write)
    *ocm_write = ow;
  return TRUE;
}

ZwEtmTraffic *
zw_etm_traffic_compute (const ZwDeployReport *report)
{
  ZwEtmTraffic *t = g_new0 (ZwEtmTraffic, 1);
  g_autoptr (GHashTable) index_of = g_hash_table_new (g_int64_hash, g_int64_equal);

  g_return_val_if_fail (report != NULL, t);
  t->n = report->ops->len;
  t->etm_read = g_new0 (guint64, MAX (t->n, 1u));
  t->etm_write = g_new0 (guint64, MAX (t->n, 1u));
  t->ocm_read = g_new0 (guint64, MAX (t->n, 1u));
  t->ocm_write = g_new0 (guint64, MAX (t->n, 1u));
  t->exact = TRUE;
  for (guint i = 0; i < report->ops->len; i++)
    {
      ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      g_hash_table_insert (index_of, &op->op_id, GUINT_TO_POINTER (op->index + 1));
    }
  for (guint i = 0; i < report->hardops->len; i++)
    {
      const ZwHardOpInfo *h = &g_array_index (report->hardops, ZwHardOpInfo, i);
      guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (index_of, &h->op_id));
      guint64 er = h->etm_read_bytes, ew = h->etm_write_bytes, orr = h->ocm_read_bytes, ow = h->ocm_write_bytes;

      if (idx == 0 || idx > t->n)
        continue;
      idx--;
      if (!h->has_traffic)
        {
          t->exact = FALSE;
          if (!zw_etm_traffic_from_placement (report, h, &er, &ew, &orr, &ow))
            continue;
        }
      t->known = TRUE;
      t->etm_read[idx] += er;
      t->etm_write[idx] += ew;
      t->ocm_read[idx] += orr;
      t->ocm_write[idx] += ow;
    }
  for (guint i = 0; i < t->n; i++)
    {
      t->total_etm_read += t->etm_read[i];
      t->total_etm_write += t->etm_write[i];
      t->peak_etm = MAX (t->peak_etm, MAX (t->etm_read[i], t->etm_write[i]));
    }
  if (!t->known)
    t->exact = FALSE;
  return t;
}
