/* zg330-hardop-operand.c — a HardOp's operands as the kernels see them: feature-map
 * geometry of a value, the describers' shared checks, and the call's kernel descriptors
 * (zg330_hardop_call_init) built from the op's values. */
#include "devices/hardops/zg330-hardop-private.h"
#include "xrt/xrt-device.h"

#include <stdlib.h>
#include <string.h>

gboolean
zg330_hardop_value_dims (const XirOp *op, const XirValue *v, guint *n, guint *c, guint *h, guint *w, guint *k,
                         GError **error)
{
  const XirLayout *l = &v->layout;

  if (v->rank == 5 && l->n_axes == 5 && l->axes[1] == 'C' && l->axes[4] == 'c' && l->block[4] > 0)
    {
      *n = (guint) v->shape[0];
      *c = (guint) (v->shape[1] * v->shape[4]);
      *h = (guint) v->shape[2];
      *w = (guint) v->shape[3];
      *k = l->block[4];
      return TRUE;
    }
  if (v->rank == 4 && strcmp (l->text, "NHWC") == 0)
    {
      *n = (guint) v->shape[0];
      *h = (guint) v->shape[1];
      *w = (guint) v->shape[2];
      *c = (guint) v->shape[3];
      *k = 0;
      return TRUE;
    }
  g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
               "op %" G_GINT64_FORMAT " (%s): v_id %" G_GINT64_FORMAT ": layout \"%s\" with shape rank %u is not a "
               "feature-map layout the board runs (NCHWcK, *C**cK or NHWC)", op->op_id, op->hard_class,
               v->v_id, l->text, v->rank);
  return FALSE;
}

gboolean
zg330_hardop_expect_arity (const XirOp *op, guint n_in, guint n_out, guint n_params, GError **error)
{
  if ((n_in != G_MAXUINT && op->inputs->len != n_in) || op->outputs->len != n_out
      || (n_params != G_MAXUINT && op->params->len != n_params))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (%s): has %u inputs, %u outputs and %u params; the class expects "
                   "%s%u inputs, %u outputs and %u params", op->op_id, op->hard_class, op->inputs->len,
                   op->outputs->len, op->params->len, n_in == G_MAXUINT ? "any number of " : "",
                   n_in == G_MAXUINT ? 1 : n_in, n_out, n_params == G_MAXUINT ? 0 : n_params);
      return FALSE;
    }
  return TRUE;
}

gboolean
zg330_hardop_same_chunk_inside (const XirValue *inner, const XirValue *outer)
{
  return inner->mtype.kind == XIR_MEM_CHUNK && outer->mtype.kind == XIR_MEM_CHUNK
         && inner->mtype.chunk_id == outer->mtype.chunk_id && inner->mtype.offset >= outer->mtype.offset
         && inner->mtype.offset + inner->storage_bytes <= outer->mtype.offset + outer->storage_bytes;
}

gboolean
zg330_hardop_same_address_at (const XirValue *inner, const XirValue *outer, guint64 offset)
{
  return (inner->mtype.kind == XIR_MEM_ETM || inner->mtype.kind == XIR_MEM_OCM)
         && inner->mtype.kind == outer->mtype.kind && inner->mtype.addr == outer->mtype.addr + offset
         && offset + inner->storage_bytes <= outer->storage_bytes;
}

guint64
zg330_hardop_zero_copy_offset (const Zg330HardopDesc *desc, guint index)
{
  const XirValue *in = g_ptr_array_index (desc->op->inputs, index);
  const XirValue *out = g_ptr_array_index (desc->op->outputs, 0);

  g_return_val_if_fail (desc->zero_copy, 0);
  if (in->mtype.kind == XIR_MEM_CHUNK)
    return in->mtype.offset - out->mtype.offset;
  return in->mtype.addr - out->mtype.addr;
}

guint8 *
zg330_hardop_bytes_alloc (gsize size, gboolean zero)
{
  void *p = NULL;

  if (posix_memalign (&p, 64, MAX (size, 1)) != 0)
    return NULL;
  if (zero)
    memset (p, 0, MAX (size, 1));
  return p;
}

void
zg330_hardop_bytes_free (gpointer p)
{
  free (p);
}

/* ---- the call's kernel descriptors -------------------------------------------------- */

/* The channel scales a kernel uses: value = q x scale.  A NormalizedQuantizedType (Buyi)
 * carries norm ratios beside its exponent scales; the value is q x normratio x scale, so
 * the kernels get the products, formed in double and rounded once to float (deterministic).
 * Returns the value's own array when there are no norm ratios, else a new one in @owned. */
static const float *
value_kernel_scales (const XirValue *v, float **owned)
{
  const XirElementType *e = &v->element;
  guint n;

  *owned = NULL;
  if (e->n_scales == 0)
    return NULL;
  if (e->n_norm_ratios == 0)
    return e->scales;
  n = MAX (e->n_scales, e->n_norm_ratios);
  *owned = g_new (float, n);
  for (guint i = 0; i < n; i++)
    {
      double s = e->scales[e->n_scales == 1 ? 0 : MIN (i, e->n_scales - 1)];
      double r = e->norm_ratios[e->n_norm_ratios == 1 ? 0 : MIN (i, e->n_norm_ratios - 1)];
      (*owned)[i] = (float) (s * r);
    }
  return *owned;
}

/* @n scales of @v for the kernels (a shorter list repeats its last entry), or NULL. */
static float *
kernel_scales (const XirValue *v, guint n)
{
  g_autofree float *owned = NULL;
  const float *scales = value_kernel_scales (v, &owned);
  guint have;
  float *out;

  if (scales == NULL || n == 0)
    return NULL;
  have = owned != NULL ? MAX (v->element.n_scales, v->element.n_norm_ratios) : v->element.n_scales;
  out = g_new (float, n);
  for (guint i = 0; i < n; i++)
    out[i] = scales[MIN (i, have - 1)];
  return out;
}

/* The kernel descriptor of feature value @v (no place yet). */
static gboolean
call_tensor (const XirOp *op, const XirValue *v, Zg330CallTensor *t, GError **error)
{
  guint n, c, h, w, k;

  memset (t, 0, sizeof *t);
  if (!zg330_hardop_value_dims (op, v, &n, &c, &h, &w, &k, error))
    return FALSE;
  if (v->element.storage.bits != 8 || (v->element.storage.kind != XIR_SCALAR_SINT && v->element.storage.kind != XIR_SCALAR_UINT))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (%s): v_id %" G_GINT64_FORMAT ": element type must be sint8 or uint8 on the board",
                   op->op_id, op->hard_class, v->v_id);
      return FALSE;
    }
  if (c > ZG330_CALL_MAX_SCALES)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): v_id %" G_GINT64_FORMAT ": %u channels; "
                   "the board takes at most %u", op->op_id, op->hard_class, v->v_id, c, (guint) ZG330_CALL_MAX_SCALES);
      return FALSE;
    }
  t->v_id = v->v_id;
  t->layout = k ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC;
  t->dtype = v->element.storage.kind == XIR_SCALAR_SINT ? ZG330_KERNEL_DTYPE_SINT8 : ZG330_KERNEL_DTYPE_UINT8;
  t->n = n;
  t->c = c;
  t->h = h;
  t->w = w;
  t->k = k;
  t->size = v->storage_bytes;
  /* the kernels read one scale per channel */
  t->scales = kernel_scales (v, c);
  t->n_scales = t->scales != NULL ? c : 0;
  return TRUE;
}

gboolean
zg330_hardop_call_init (const Zg330HardopDesc *d, Zg330HardopCall *call, GError **error)
{
  const XirOp *op = d->op;
  const Zg330HardopClass *klass = zg330_hardop_class_get (d->kind);
  guint n_in = op->inputs->len;

  memset (call, 0, sizeof *call);
  call->op_id = op->op_id;
  call->kind = d->kind;
  call->zero_copy = d->zero_copy;
  call->kernel_h = d->kernel_h;
  call->kernel_w = d->kernel_w;
  call->stride_h = d->stride_h;
  call->stride_w = d->stride_w;
  call->pad_top = d->pad_top;
  call->pad_left = d->pad_left;
  if (d->zero_copy)
    return TRUE;
  if (n_in > ZG330_CALL_MAX_INPUTS)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): %u inputs; the board model takes at most %u",
                   op->op_id, op->hard_class, n_in, (guint) ZG330_CALL_MAX_INPUTS);
      return FALSE;
    }
  call->n_inputs = n_in;
  for (guint i = 0; i < n_in; i++)
    if (!call_tensor (op, g_ptr_array_index (op->inputs, i), &call->inputs[i], error))
      goto fail;
  if (!call_tensor (op, g_ptr_array_index (op->outputs, 0), &call->output, error))
    goto fail;
  if (klass != NULL && klass->has_weights)
    {
      const XirValue *wv = g_ptr_array_index (op->params, 0);
      const XirValue *bv = op->params->len > 1 ? g_ptr_array_index (op->params, 1) : NULL;
      Zg330CallWeights *cw = &call->weights;
      guint o = (guint) (wv->shape[0] * wv->shape[4]);

      cw->v_id = wv->v_id;
      for (guint i = 0; i < 6; i++)
        cw->dims[i] = (guint32) wv->shape[i];
      cw->size = wv->storage_bytes;
      if (o <= ZG330_CALL_MAX_SCALES)
        {
          cw->scales = kernel_scales (wv, o);
          cw->n_scales = cw->scales != NULL ? o : 0;
        }
      if (bv != NULL)
        {
          cw->has_bias = TRUE;
          cw->bias_v_id = bv->v_id;
          cw->bias_size = bv->storage_bytes;
        }
    }
  return TRUE;

fail:
  zg330_hardop_call_clear (call);
  return FALSE;
}
