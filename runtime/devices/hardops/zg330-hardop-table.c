/* zg330-hardop-table.c — the table of hardop kinds (rows in zg330-hardop-kinds.h), the
 * lookup by class name, and what every kind shares: describing an op and running a call
 * over host buffers. */
#include "devices/hardops/zg330-hardop-private.h"
#include "xrt/xrt-device.h"

#include <string.h>

#define ZG330_HARDOP_DECLARE_ROW(UPPER, lower) extern const Zg330HardopClass zg330_hardop_class_##lower;
ZG330_HARDOP_KINDS (ZG330_HARDOP_DECLARE_ROW)
#undef ZG330_HARDOP_DECLARE_ROW

#define ZG330_HARDOP_TABLE_ROW(UPPER, lower) [ZG330_HARDOP_##UPPER] = &zg330_hardop_class_##lower,
static const Zg330HardopClass *const table[ZG330_N_HARDOP_KINDS] = {
  ZG330_HARDOP_KINDS (ZG330_HARDOP_TABLE_ROW)
};
#undef ZG330_HARDOP_TABLE_ROW

const Zg330HardopClass *
zg330_hardop_class_get (Zg330HardopKind kind)
{
  return (guint) kind < ZG330_N_HARDOP_KINDS ? table[kind] : NULL;
}

const Zg330HardopClass *
zg330_hardop_class_lookup (const char *name, Zg330HardopKind *kind)
{
  for (guint i = 0; name != NULL && i < ZG330_N_HARDOP_KINDS; i++)
    if (strcmp (name, table[i]->name) == 0)
      {
        if (kind != NULL)
          *kind = (Zg330HardopKind) i;
        return table[i];
      }
  return NULL;
}

const char *
zg330_hardop_class_list (void)
{
  static char *list;

  if (g_once_init_enter (&list))
    {
      GString *s = g_string_new (NULL);
      for (guint i = 0; i < ZG330_N_HARDOP_KINDS; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : "", table[i]->name);
      g_once_init_leave (&list, g_string_free (s, FALSE));
    }
  return list;
}

const char *
zg330_hardop_kind_to_string (Zg330HardopKind kind)
{
  const Zg330HardopClass *klass = zg330_hardop_class_get (kind);

  return klass != NULL ? klass->name : "?";
}

gboolean
zg330_hardop_class_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  const Zg330HardopClass *klass;

  memset (d, 0, sizeof *d);
  d->op = op;
  g_return_val_if_fail (op->kind == XIR_OP_HARDOP, FALSE);
  klass = zg330_hardop_class_lookup (op->hard_class, &d->kind);
  if (klass == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT ": name: hardop class \"%s\" has no behavioural model on the simulated board "
                   "(known: %s)", op->op_id, op->name, zg330_hardop_class_list ());
      return FALSE;
    }
  for (guint i = 0; i < op->params->len; i++)
    d->weight_bytes += ((XirValue *) g_ptr_array_index (op->params, i))->storage_bytes;
  for (guint i = 0; i < op->instr->len; i++)
    d->instr_bytes += ((XirValue *) g_ptr_array_index (op->instr, i))->storage_bytes;
  if (op->outputs->len == 0 || op->inputs->len == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): a hardop needs inputs and outputs",
                   op->op_id, op->hard_class);
      return FALSE;
    }
  return klass->describe (op, d, error);
}

gboolean
zg330_hardop_call_compute (const Zg330HardopCall *call, const guint8 *const *inputs, const guint8 *weights,
                           const guint8 *bias, guint8 *output, GError **error)
{
  const Zg330HardopClass *klass = zg330_hardop_class_get (call->kind);
  const char *cls = zg330_hardop_kind_to_string (call->kind);
  Zg330KernelTensor ins[ZG330_CALL_MAX_INPUTS];
  Zg330KernelTensor out;
  Zg330KernelWeights kw = { 0 };
  Zg330HardopOperands x = { call, ins, &out, NULL };
  guint n_in = call->n_inputs;
  gboolean ok;

  if (klass == NULL || call->zero_copy || n_in < klass->min_inputs || n_in > klass->max_inputs
      || n_in > ZG330_CALL_MAX_INPUTS)
    {
      if (klass != NULL && call->zero_copy)
        g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): a zero-copy op has no kernel "
                     "to run (its inputs are its output's bytes)", call->op_id, cls);
      else if (klass != NULL && klass->min_inputs == klass->max_inputs)
        g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): %u inputs, expected %u",
                     call->op_id, cls, n_in, klass->min_inputs);
      else
        g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): %u inputs; the board model takes "
                     "1 to %u", call->op_id, cls, n_in, (guint) ZG330_CALL_MAX_INPUTS);
      return FALSE;
    }
  for (guint i = 0; i < n_in; i++)
    {
      const Zg330CallTensor *ct = &call->inputs[i];
      ins[i] = (Zg330KernelTensor) { ct->layout, ct->dtype, ct->n, ct->c, ct->h, ct->w, ct->k,
                                     ct->n_scales > 0 ? ct->scales : NULL, (gpointer) inputs[i], (gsize) ct->size };
    }
  {
    const Zg330CallTensor *ct = &call->output;
    out = (Zg330KernelTensor) { ct->layout, ct->dtype, ct->n, ct->c, ct->h, ct->w, ct->k,
                                ct->n_scales > 0 ? ct->scales : NULL, output, (gsize) ct->size };
    memset (output, 0, (gsize) ct->size);
  }
  if (klass->has_weights)
    {
      const Zg330CallWeights *cw = &call->weights;
      kw.ob = cw->dims[0];
      kw.ib = cw->dims[1];
      kw.kh = cw->dims[2];
      kw.kw = cw->dims[3];
      kw.ko = cw->dims[4];
      kw.ki = cw->dims[5];
      kw.data = (const gint8 *) weights;
      kw.size = (gsize) cw->size;
      kw.scales = cw->n_scales > 0 ? cw->scales : NULL;
      kw.bias = cw->has_bias ? bias : NULL;
      kw.bias_size = cw->has_bias ? (gsize) cw->bias_size : 0;
      if (kw.scales == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): weights v_id %"
                       G_GINT64_FORMAT " have no scales", call->op_id, cls, cw->v_id);
          return FALSE;
        }
      x.weights = &kw;
    }
  ok = klass->run (&x, error);
  if (!ok && error && *error && !g_str_has_prefix ((*error)->message, "op "))
    g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): ", call->op_id, cls);
  return ok;
}

gboolean
zg330_hardop_run_host (const Zg330HardopDesc *d, const guint8 *const *inputs, const guint8 *const *params,
                       guint8 *const *outputs, GError **error)
{
  const XirOp *op = d->op;
  const Zg330HardopClass *klass = zg330_hardop_class_get (d->kind);
  const XirValue *out = g_ptr_array_index (op->outputs, 0);
  Zg330HardopCall call;
  gboolean ok;

  if (d->zero_copy)
    {
      memset (outputs[0], 0, (gsize) out->storage_bytes);
      for (guint i = 0; i < op->inputs->len; i++)
        {
          const XirValue *in = g_ptr_array_index (op->inputs, i);
          guint64 at = zg330_hardop_zero_copy_offset (d, i);
          /* the describer proved every input inside the output's bytes */
          if (at > out->storage_bytes || in->storage_bytes > out->storage_bytes - at)
            {
              g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): input v_id %" G_GINT64_FORMAT
                           " at offset %" G_GUINT64_FORMAT " runs past the output's %" G_GUINT64_FORMAT " bytes",
                           op->op_id, op->hard_class, in->v_id, at, out->storage_bytes);
              return FALSE;
            }
          memcpy (outputs[0] + at, inputs[i], (gsize) in->storage_bytes);
        }
      return TRUE;
    }
  if (!zg330_hardop_call_init (d, &call, error))
    return FALSE;
  if (klass->has_weights && (params == NULL || params[0] == NULL || (call.weights.has_bias && params[1] == NULL)))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): params v_id %" G_GINT64_FORMAT
                   ": no bytes (load the network's .raw or synthetic params first)", op->op_id, op->hard_class,
                   call.weights.v_id);
      zg330_hardop_call_clear (&call);
      return FALSE;
    }
  ok = zg330_hardop_call_compute (&call, inputs, klass->has_weights ? params[0] : NULL,
                                  klass->has_weights && call.weights.has_bias ? params[1] : NULL, outputs[0], error);
  zg330_hardop_call_clear (&call);
  return ok;
}
