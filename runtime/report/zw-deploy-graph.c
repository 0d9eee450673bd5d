/* zw-deploy-graph.c — attach the network's graph (op inputs, outputs, names) to a report. */
#include "report/zw-deploy-graph.h"
#include "report/zw-deploy-report-private.h"

static GArray *
value_ids (const GPtrArray *values)
{
  GArray *ids = g_array_sized_new (FALSE, FALSE, sizeof (gint64), values != NULL ? values->len : 0);

  for (guint i = 0; values != NULL && i < values->len; i++)
    {
      const XirValue *v = g_ptr_array_index (values, i);
      g_array_append_val (ids, v->v_id);
    }
  return ids;
}

/* The op's own keys of the network JSON (xir's attrs): a string as its text, the rest as
 * compact JSON. */
static GPtrArray *
op_attrs (const XirOp *op)
{
  GPtrArray *attrs = zw_op_attrs_new ();
  const cJSON *a;

  cJSON_ArrayForEach (a, op->attrs)
    {
      g_autofree char *text = NULL;
      if (a->string == NULL)
        continue;
      if (!cJSON_IsString (a))
        text = cJSON_PrintUnformatted (a);
      zw_op_attrs_add (attrs, a->string, cJSON_IsString (a) ? a->valuestring : text != NULL ? text : "");
    }
  return attrs;
}

/* A quantised value's storage bits, scales (per channel or one) and zero points. */
static void
attach_quant (ZwValueInfo *info, const XirElementType *el)
{
  g_clear_pointer (&info->scales, g_array_unref);
  g_clear_pointer (&info->zero_points, g_array_unref);
  info->quant_bits = 0;
  info->quant_axis = -1;
  if (!el->quantized)
    return;
  info->quant_bits = el->storage.bits;
  info->quant_axis = el->scale_axis;
  info->scales = g_array_sized_new (FALSE, FALSE, sizeof (double), el->n_scales);
  for (guint k = 0; k < el->n_scales; k++)
    {
      double d = el->scales[k];
      g_array_append_val (info->scales, d);
    }
  info->zero_points = zw_deploy_report_int64_array ();
  for (guint k = 0; k < el->n_zero_points; k++)
    g_array_append_val (info->zero_points, el->zero_points[k]);
}

void
zw_deploy_report_attach_network (ZwDeployReport *report, const XirNetwork *net)
{
  g_autoptr (GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);

  g_return_if_fail (report != NULL);
  g_return_if_fail (net != NULL);

  /* where the params came from belongs with the network: synthetic ones say their seed (a
   * network without params, e.g. one loaded for an old report's graph, says nothing) */
  if (xir_network_has_params (net))
    {
      guint64 seed;
      report->params_seed = xir_network_get_params_seed (net, &seed) && seed <= (guint64) G_MAXINT64 ? (gint64) seed
                                                                                                    : -1;
    }

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      g_hash_table_insert (by_id, &op->op_id, op);
    }
  for (guint i = 0; i < report->ops->len; i++)
    {
      ZwOpInfo *info = &g_array_index (report->ops, ZwOpInfo, i);
      const XirOp *op = g_hash_table_lookup (by_id, &info->op_id);

      if (op == NULL)
        continue;
      g_free (info->name);
      info->name = g_strdup (op->name != NULL ? op->name : "");
      g_clear_pointer (&info->inputs, g_array_unref);
      g_clear_pointer (&info->outputs, g_array_unref);
      info->inputs = value_ids (op->inputs);
      info->outputs = value_ids (op->outputs);
      g_clear_pointer (&info->attrs, g_ptr_array_unref);
      info->attrs = op_attrs (op);
    }
  for (guint i = 0; i < report->values->len; i++)
    {
      ZwValueInfo *info = &g_array_index (report->values, ZwValueInfo, i);
      const XirValue *v = xir_network_get_value (net, info->v_id);

      if (v != NULL)
        attach_quant (info, &v->element);
    }
}

gboolean
zw_deploy_report_has_graph (const ZwDeployReport *report)
{
  g_return_val_if_fail (report != NULL, FALSE);

  for (guint i = 0; i < report->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      if (op->inputs == NULL || op->outputs == NULL)
        return FALSE;
    }
  return report->ops->len > 0;
}

void
zw_value_info_init_from_value (ZwValueInfo *vi, const XirNetwork *net, const XirValue *v)
{
  g_autofree char *storage = xir_scalar_type_to_string (&v->element.storage);

  zw_value_info_init (vi);
  vi->v_id = v->v_id;
  vi->producer = v->producer >= 0 ? xir_network_get_op (net, (guint) v->producer)->op_id : -1;
  vi->first = v->first_use;
  vi->last = v->last_use;
  vi->byte_size = v->storage_bytes;
  for (guint d = 0; d < v->rank; d++)
    g_array_append_val (vi->shape, v->shape[d]);
  vi->dtype = v->element.quantized ? g_strdup_printf ("%s q", storage) : g_steal_pointer (&storage);
  vi->layout = g_strdup (v->layout.text);
}
