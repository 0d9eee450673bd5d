/* zg330-hardop.c — behavioural execution and work accounting of ZG330 HardOps. */
#include "backends/zg330/zg330-hardop.h"
#include "kernels/zg330-kernels.h"

#include <math.h>
#include <string.h>

static const struct {
  const char *name;
  Zg330HardopKind kind;
} hardop_classes[] = {
  { "Conv2d", ZG330_HARDOP_CONV2D },
  { "Add", ZG330_HARDOP_ADD },
  { "Concat", ZG330_HARDOP_CONCAT },
  { "MaxPool2d", ZG330_HARDOP_MAXPOOL2D },
  { "Upsample", ZG330_HARDOP_UPSAMPLE },
  { "Reshape", ZG330_HARDOP_RESHAPE },
  { "Cast", ZG330_HARDOP_CAST },
};

/* Logical N, C, H, W of a feature value in NCHWcK (also *C**cK) or NHWC. */
static gboolean
value_dims (const XirOp *op, const XirValue *v, guint *n, guint *c, guint *h, guint *w, guint *k, GError **error)
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

static gboolean
same_chunk_inside (const XirValue *inner, const XirValue *outer)
{
  return inner->mtype.kind == XIR_MEM_CHUNK && outer->mtype.kind == XIR_MEM_CHUNK
         && inner->mtype.chunk_id == outer->mtype.chunk_id && inner->mtype.offset >= outer->mtype.offset
         && inner->mtype.offset + inner->storage_bytes <= outer->mtype.offset + outer->storage_bytes;
}

/* A Buyi compile places values at addresses (@etm(a) / @ocm(a)) instead of chunks: an
 * input lives in its output's bytes when it sits, in the same memory, exactly at @offset
 * bytes into the output (a concat's channel blocks follow each other when N = 1). */
static gboolean
same_address_at (const XirValue *inner, const XirValue *outer, guint64 offset)
{
  return (inner->mtype.kind == XIR_MEM_ETM || inner->mtype.kind == XIR_MEM_OCM)
         && inner->mtype.kind == outer->mtype.kind && inner->mtype.addr == outer->mtype.addr + offset
         && offset + inner->storage_bytes <= outer->storage_bytes;
}

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

static gboolean
expect_arity (const XirOp *op, guint n_in, guint n_out, guint n_params, GError **error)
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
zg330_hardop_describe (const XirOp *op, Zg330HardopDesc *d, GError **error)
{
  guint n, c, h, w, k, on, oc, oh, ow, ok;
  gboolean found = FALSE;

  memset (d, 0, sizeof *d);
  d->op = op;
  g_return_val_if_fail (op->kind == XIR_OP_HARDOP, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (hardop_classes); i++)
    if (g_strcmp0 (op->hard_class, hardop_classes[i].name) == 0)
      {
        d->kind = hardop_classes[i].kind;
        found = TRUE;
      }
  if (!found)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT ": name: hardop class \"%s\" has no behavioural model on the simulated board "
                   "(known: Conv2d, Add, Concat, MaxPool2d, Upsample, Reshape, Cast)", op->op_id, op->name);
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

  switch (d->kind)
    {
    case ZG330_HARDOP_CONV2D:
      {
        const XirValue *in, *out, *wt;
        guint ib_ki, o;

        if (!expect_arity (op, 1, 1, G_MAXUINT, error))
          return FALSE;
        if (op->params->len < 1 || op->params->len > 2)
          {
            g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                         "op %" G_GINT64_FORMAT " (Conv2d): params: expected weights and an optional bias, got %u",
                         op->op_id, op->params->len);
            return FALSE;
          }
        in = g_ptr_array_index (op->inputs, 0);
        out = g_ptr_array_index (op->outputs, 0);
        wt = g_ptr_array_index (op->params, 0);
        if (!value_dims (op, in, &n, &c, &h, &w, &k, error) || !value_dims (op, out, &on, &oc, &oh, &ow, &ok, error))
          return FALSE;
        if (wt->rank != 6)
          {
            g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                         "op %" G_GINT64_FORMAT " (Conv2d): params[0] (v_id %" G_GINT64_FORMAT "): weight shape must be "
                         "[OB, IB, KH, KW, Ko, Ki] (layout OIHWoKoiKi), got rank %u", op->op_id, wt->v_id, wt->rank);
            return FALSE;
          }
        o = (guint) (wt->shape[0] * wt->shape[4]);
        ib_ki = (guint) (wt->shape[1] * wt->shape[5]);
        d->kernel_h = (guint) wt->shape[2];
        d->kernel_w = (guint) wt->shape[3];
        if (o != oc || ib_ki == 0 || c % ib_ki != 0 || on != n)
          {
            g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                         "op %" G_GINT64_FORMAT " (Conv2d): weights v_id %" G_GINT64_FORMAT " give %u out x %u in channels "
                         "but the input has %u and the output %u channels", op->op_id, wt->v_id, o, ib_ki, c, oc);
            return FALSE;
          }
        d->groups = c / ib_ki;
        if (!zg330_conv_infer_geometry (h, w, oh, ow, d->kernel_h, d->kernel_w, &d->stride_h, &d->stride_w,
                                        &d->pad_top, &d->pad_left, error))
          {
            g_prefix_error (error, "op %" G_GINT64_FORMAT " (Conv2d): ", op->op_id);
            return FALSE;
          }
        d->macs = (guint64) n * oh * ow * o * d->kernel_h * d->kernel_w * ib_ki;
        return TRUE;
      }
    case ZG330_HARDOP_ADD:
      return expect_arity (op, 2, 1, 0, error);
    case ZG330_HARDOP_CONCAT:
      if (!expect_arity (op, G_MAXUINT, 1, 0, error))
        return FALSE;
      {
        const XirValue *out = g_ptr_array_index (op->outputs, 0);
        gboolean by_chunk = TRUE, by_addr = out->rank > 0 && out->shape[0] == 1;
        guint64 offset = 0;

        for (guint i = 0; i < op->inputs->len; i++)
          {
            const XirValue *in = g_ptr_array_index (op->inputs, i);
            by_chunk &= same_chunk_inside (in, out);
            by_addr &= same_address_at (in, out, offset);
            offset += in->storage_bytes;
          }
        d->zero_copy = by_chunk || (by_addr && offset == out->storage_bytes);
      }
      return TRUE;
    case ZG330_HARDOP_RESHAPE:
      if (!expect_arity (op, 1, 1, 0, error))
        return FALSE;
      d->zero_copy = same_chunk_inside (g_ptr_array_index (op->inputs, 0), g_ptr_array_index (op->outputs, 0))
                     || same_address_at (g_ptr_array_index (op->inputs, 0), g_ptr_array_index (op->outputs, 0), 0);
      return TRUE;
    case ZG330_HARDOP_CAST:
      return expect_arity (op, 1, 1, 0, error);
    case ZG330_N_HARDOP_KINDS:
      break;
    case ZG330_HARDOP_MAXPOOL2D:
    case ZG330_HARDOP_UPSAMPLE:
      if (!expect_arity (op, 1, 1, 0, error))
        return FALSE;
      if (!value_dims (op, g_ptr_array_index (op->inputs, 0), &n, &c, &h, &w, &k, error)
          || !value_dims (op, g_ptr_array_index (op->outputs, 0), &on, &oc, &oh, &ow, &ok, error))
        return FALSE;
      if (c != oc || n != on || h == 0 || w == 0 || oh == 0 || ow == 0)
        goto bad_shape;
      if (d->kind == ZG330_HARDOP_UPSAMPLE)
        {
          if (oh % h != 0 || ow % w != 0)
            goto bad_shape;
          d->stride_h = oh / h;
          d->stride_w = ow / w;
          return TRUE;
        }
      if (oh == h && ow == w)
        {
          d->kernel_h = d->kernel_w = 5;
          d->stride_h = d->stride_w = 1;
          d->pad_top = d->pad_left = 2;
        }
      else if (oh == (h + 1) / 2 && ow == (w + 1) / 2)
        {
          d->kernel_h = d->kernel_w = 3;
          d->stride_h = d->stride_w = 2;
          d->pad_top = d->pad_left = 1;
        }
      else if (h % oh == 0 && w % ow == 0 && h / oh == w / ow)
        {
          d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = h / oh;
        }
      else
        goto bad_shape;
      return TRUE;
    }
  return TRUE;

bad_shape:
  g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
               "op %" G_GINT64_FORMAT " (%s): output %ux%ux%u does not follow from input %ux%ux%u", op->op_id,
               op->hard_class, oc, oh, ow, c, h, w);
  return FALSE;
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

/* The kernel descriptor of @v at @place, as buf_init read it before the board ran calls. */
static gboolean
call_tensor (const XirOp *op, const XirValue *v, const Zg330Place *place, Zg330CallTensor *t, GError **error)
{
  guint n, c, h, w, k;
  g_autofree float *owned = NULL;
  const float *scales;

  memset (t, 0, sizeof *t);
  if (!value_dims (op, v, &n, &c, &h, &w, &k, error))
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
  t->region = place_region (place);
  t->addr = place->addr;
  /* the kernels read one scale per channel; a shorter list repeats its last entry */
  scales = value_kernel_scales (v, &owned);
  if (scales != NULL && c > 0)
    {
      guint have = owned != NULL ? MAX (v->element.n_scales, v->element.n_norm_ratios) : v->element.n_scales;
      t->n_scales = c;
      t->scales = g_new (float, c);
      for (guint i = 0; i < c; i++)
        t->scales[i] = scales[MIN (i, have - 1)];
    }
  return TRUE;
}

gboolean
zg330_hardop_prepare (const Zg330HardopBinding *bind, Zg330HardopCall *call, GError **error)
{
  const Zg330HardopDesc *d = &bind->desc;
  const XirOp *op = d->op;
  g_autofree gboolean *in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1));
  g_autofree gboolean *out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1));
  guint n_in = op->inputs->len;

  memset (call, 0, sizeof *call);
  for (guint i = 0; i < n_in; i++)
    in_ocm[i] = place_region (&bind->inputs[i]) == ZG330_CALL_OCM;
  for (guint i = 0; i < op->outputs->len; i++)
    out_ocm[i] = place_region (&bind->outputs[i]) == ZG330_CALL_OCM;
  call->op_id = op->op_id;
  call->kind = d->kind;
  call->zero_copy = d->zero_copy;
  zg330_hardop_work (d, in_ocm, out_ocm, &call->work);
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
    if (!call_tensor (op, g_ptr_array_index (op->inputs, i), &bind->inputs[i], &call->inputs[i], error))
      goto fail;
  if (!call_tensor (op, g_ptr_array_index (op->outputs, 0), &bind->outputs[0], &call->output, error))
    goto fail;
  if (d->kind == ZG330_HARDOP_CONV2D)
    {
      const XirValue *wv = g_ptr_array_index (op->params, 0);
      const XirValue *bv = op->params->len > 1 ? g_ptr_array_index (op->params, 1) : NULL;
      Zg330CallWeights *cw = &call->weights;
      g_autofree float *owned = NULL;
      const float *scales = value_kernel_scales (wv, &owned);
      guint o = (guint) (wv->shape[0] * wv->shape[4]);

      cw->v_id = wv->v_id;
      for (guint i = 0; i < 6; i++)
        cw->dims[i] = (guint32) wv->shape[i];
      cw->size = wv->storage_bytes;
      cw->region = place_region (&bind->params[0]);
      cw->addr = bind->params[0].addr;
      if (scales != NULL && o > 0 && o <= ZG330_CALL_MAX_SCALES)
        {
          guint have = owned != NULL ? MAX (wv->element.n_scales, wv->element.n_norm_ratios) : wv->element.n_scales;
          cw->n_scales = o;
          cw->scales = g_new (float, o);
          for (guint i = 0; i < o; i++)
            cw->scales[i] = scales[MIN (i, have - 1)];
        }
      if (bv != NULL)
        {
          cw->has_bias = TRUE;
          cw->bias_v_id = bv->v_id;
          cw->bias_size = bv->storage_bytes;
          cw->bias_region = place_region (&bind->params[1]);
          cw->bias_addr = bind->params[1].addr;
        }
    }
  return TRUE;

fail:
  zg330_hardop_call_clear (call);
  return FALSE;
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
