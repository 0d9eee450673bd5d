/* zg330-hardop.c — a ZG330 HardOp placed on the board: its work, and the call the board
 * runs.  The kinds (describers, kernels) are the table's (devices/hardops/). */
#include "backends/zg330/zg330-hardop.h"

#include <string.h>

gboolean
zg330_hardop_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  return zg330_hardop_class_describe (op, d, error);
}

void
zg330_hardop_work (const Zg330HardopDesc *d, const gboolean *input_in_ocm, const gboolean *output_in_ocm,
                   Zg330OpWork *work)
{
  const XirOp *op = d->op;

  memset (work, 0, sizeof *work);
  work->layer_count = (guint) MAX (op->layer_count, 0);
  if (d->zero_copy)
    return;
  work->macs = d->macs;
  work->etm_read_bytes = d->weight_bytes + d->instr_bytes;
  for (guint i = 0; i < op->inputs->len; i++)
    {
      guint64 b = ((XirValue *) g_ptr_array_index (op->inputs, i))->storage_bytes;
      if (input_in_ocm && input_in_ocm[i])
        work->ocm_read_bytes += b;
      else
        work->etm_read_bytes += b;
    }
  for (guint i = 0; i < op->outputs->len; i++)
    {
      guint64 b = ((XirValue *) g_ptr_array_index (op->outputs, i))->storage_bytes;
      if (output_in_ocm && output_in_ocm[i])
        work->ocm_write_bytes += b;
      else
        work->etm_write_bytes += b;
    }
}

/* ---- execution ------------------------------------------------------------------ */

static Zg330CallRegion
place_region (const Zg330Place *place)
{
  return g_strcmp0 (xrt_mem_region_get_name (place->region), "OCM") == 0 ? ZG330_CALL_OCM : ZG330_CALL_ETM;
}

gboolean
zg330_hardop_prepare (const Zg330HardopBinding *bind, Zg330HardopCall *call, GError **error)
{
  const Zg330HardopDesc *d = &bind->desc;
  const XirOp *op = d->op;
  g_autofree gboolean *in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1));
  g_autofree gboolean *out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1));

  for (guint i = 0; i < op->inputs->len; i++)
    in_ocm[i] = place_region (&bind->inputs[i]) == ZG330_CALL_OCM;
  for (guint i = 0; i < op->outputs->len; i++)
    out_ocm[i] = place_region (&bind->outputs[i]) == ZG330_CALL_OCM;
  if (!zg330_hardop_call_init (d, call, error))
    return FALSE;
  zg330_hardop_work (d, in_ocm, out_ocm, &call->work);
  if (d->zero_copy)
    return TRUE;
  for (guint i = 0; i < call->n_inputs; i++)
    {
      call->inputs[i].region = place_region (&bind->inputs[i]);
      call->inputs[i].addr = bind->inputs[i].addr;
    }
  call->output.region = place_region (&bind->outputs[0]);
  call->output.addr = bind->outputs[0].addr;
  if (zg330_hardop_class_get (d->kind)->has_weights)
    {
      Zg330CallWeights *cw = &call->weights;
      cw->region = place_region (&bind->params[0]);
      cw->addr = bind->params[0].addr;
      if (cw->has_bias)
        {
          cw->bias_region = place_region (&bind->params[1]);
          cw->bias_addr = bind->params[1].addr;
        }
    }
  return TRUE;
}

gboolean
zg330_hardop_run (const Zg330HardopBinding *bind, Zg330OpWork *work, GError **error)
{
  Zg330HardopCall call;
  XrtDevice *device = bind->outputs[0].region ? xrt_mem_region_get_device (bind->outputs[0].region) : NULL;
  gboolean ok;

  if (!zg330_hardop_prepare (bind, &call, error))
    return FALSE;
  if (device == NULL && !call.zero_copy)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): the output's region belongs to no device",
                   call.op_id, zg330_hardop_kind_to_string (call.kind));
      zg330_hardop_call_clear (&call);
      return FALSE;
    }
  ok = zg330_hardop_call_run (device, &call, work, error);
  zg330_hardop_call_clear (&call);
  return ok;
}

void
zg330_hardop_binding_free (Zg330HardopBinding *b)
{
  if (b == NULL)
    return;
  g_free (b->inputs);
  g_free (b->outputs);
  g_free (b->params);
  g_free (b);
}
