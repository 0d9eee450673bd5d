/* zg330-hardop.c — behavioural execution and work accounting of ZG330 HardOps. */
#include "backends/zg330/zg330-hardop.h"
#include "devices/zg330-kernels.h"

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

typedef struct {
  Zg330KernelTensor t;
  guint8 *data;
  float *scales;     /* owned products normratio x scale, or NULL */
} Buf;

static void
buf_clear (Buf *b)
{
  g_free (b->data);
  b->data = NULL;
  g_clear_pointer (&b->scales, g_free);
}

static gboolean
buf_init (Buf *b, const XirOp *op, const XirValue *v, const Zg330Place *place, gboolean read, GError **error)
{
  guint k;

  memset (b, 0, sizeof *b);
  if (!value_dims (op, v, &b->t.n, &b->t.c, &b->t.h, &b->t.w, &k, error))
    return FALSE;
  b->t.layout = k ? ZG330_KERNEL_LAYOUT_NCHWC : ZG330_KERNEL_LAYOUT_NHWC;
  b->t.k = k;
  if (v->element.storage.bits != 8 || (v->element.storage.kind != XIR_SCALAR_SINT && v->element.storage.kind != XIR_SCALAR_UINT))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                   "op %" G_GINT64_FORMAT " (%s): v_id %" G_GINT64_FORMAT ": element type must be sint8 or uint8 on the board",
                   op->op_id, op->hard_class, v->v_id);
      return FALSE;
    }
  b->t.dtype = v->element.storage.kind == XIR_SCALAR_SINT ? ZG330_KERNEL_DTYPE_SINT8 : ZG330_KERNEL_DTYPE_UINT8;
  b->t.scales = value_kernel_scales (v, &b->scales);
  b->t.size = v->storage_bytes;
  b->data = g_malloc0 (MAX (v->storage_bytes, 1));
  b->t.data = b->data;
  if (read && !xrt_mem_region_read (place->region, place->addr, b->data, v->storage_bytes, error))
    {
      g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): reading input v_id %" G_GINT64_FORMAT ": ", op->op_id,
                      op->hard_class, v->v_id);
      buf_clear (b);
      return FALSE;
    }
  return TRUE;
}

/* A conv's int32 accumulator needs one input scale. A Buyi input whose channels carry
 * different scales (a concat of values with their own norm ratios) is first brought to the
 * largest of them, channel by channel: q' = round-half-even (q x s[c] / s_max), which
 * cannot overflow (s[c] / s_max <= 1). The board's own way is not public (its instruction
 * words are opaque): this is the behavioural model's assumption, stated in zg330-hardop.h. */
static void
uniform_input_scale (Buf *b)
{
  const float *s = b->t.scales;
  float smax;
  gboolean same = TRUE;
  gsize n = b->t.size;
  guint cb_k = b->t.layout == ZG330_KERNEL_LAYOUT_NCHWC ? MAX (b->t.k, 1) : b->t.c;

  if (s == NULL || b->t.c < 2)
    return;
  smax = s[0];
  for (guint c = 1; c < b->t.c; c++)
    {
      same &= s[c] == s[0];
      smax = MAX (smax, s[c]);
    }
  if (same)
    return;
  for (gsize i = 0; i < n; i++)
    {
      guint ch;
      double q;
      if (b->t.layout == ZG330_KERNEL_LAYOUT_NCHWC)
        {
          gsize plane = (gsize) b->t.h * b->t.w * cb_k;
          guint cb = (guint) ((i / plane) % ((b->t.c + cb_k - 1) / cb_k));
          ch = cb * cb_k + (guint) (i % cb_k);
        }
      else
        ch = (guint) (i % cb_k);
      if (ch >= b->t.c)
        continue;
      q = b->t.dtype == ZG330_KERNEL_DTYPE_SINT8 ? (double) (gint8) b->data[i] : (double) b->data[i];
      q = nearbyint (q * (double) s[ch] / (double) smax);
      b->data[i] = b->t.dtype == ZG330_KERNEL_DTYPE_SINT8 ? (guint8) (gint8) CLAMP (q, -128, 127)
                                                         : (guint8) CLAMP (q, 0, 255);
    }
  g_free (b->scales);
  b->scales = g_new (float, b->t.c);
  for (guint c = 0; c < b->t.c; c++)
    b->scales[c] = smax;
  b->t.scales = b->scales;
}

gboolean
zg330_hardop_run (const Zg330HardopBinding *bind, Zg330OpWork *work, GError **error)
{
  const Zg330HardopDesc *d = &bind->desc;
  const XirOp *op = d->op;
  g_autofree gboolean *in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1));
  g_autofree gboolean *out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1));
  Buf ins[8] = { 0 };
  Buf out = { 0 };
  guint n_in = op->inputs->len;
  gboolean ok = FALSE;

  for (guint i = 0; i < n_in; i++)
    in_ocm[i] = g_strcmp0 (xrt_mem_region_get_name (bind->inputs[i].region), "OCM") == 0;
  for (guint i = 0; i < op->outputs->len; i++)
    out_ocm[i] = g_strcmp0 (xrt_mem_region_get_name (bind->outputs[i].region), "OCM") == 0;
  zg330_hardop_work (d, in_ocm, out_ocm, work);
  if (d->zero_copy)
    return TRUE;
  if (n_in > G_N_ELEMENTS (ins))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): %u inputs; the board model takes at most %u",
                   op->op_id, op->hard_class, n_in, (guint) G_N_ELEMENTS (ins));
      return FALSE;
    }
  for (guint i = 0; i < n_in; i++)
    if (!buf_init (&ins[i], op, g_ptr_array_index (op->inputs, i), &bind->inputs[i], TRUE, error))
      goto out;
  if (!buf_init (&out, op, g_ptr_array_index (op->outputs, 0), &bind->outputs[0], FALSE, error))
    goto out;

  switch (d->kind)
    {
    case ZG330_HARDOP_CONV2D:
      {
        const XirValue *wv = g_ptr_array_index (op->params, 0);
        const XirValue *bv = op->params->len > 1 ? g_ptr_array_index (op->params, 1) : NULL;
        g_autofree guint8 *wdata = g_malloc (MAX (wv->storage_bytes, 1));
        g_autofree guint8 *bdata = bv ? g_malloc (MAX (bv->storage_bytes, 1)) : NULL;
        g_autofree float *wscales = NULL;
        Zg330KernelWeights kw = { 0 };
        Zg330ConvParams cp = { d->stride_h, d->stride_w, d->pad_top, d->pad_left };

        if (!xrt_mem_region_read (bind->params[0].region, bind->params[0].addr, wdata, wv->storage_bytes, error)
            || (bv && !xrt_mem_region_read (bind->params[1].region, bind->params[1].addr, bdata, bv->storage_bytes, error)))
          {
            g_prefix_error (error, "op %" G_GINT64_FORMAT " (Conv2d): reading weights: ", op->op_id);
            goto out;
          }
        kw.ob = (guint) wv->shape[0];
        kw.ib = (guint) wv->shape[1];
        kw.kh = (guint) wv->shape[2];
        kw.kw = (guint) wv->shape[3];
        kw.ko = (guint) wv->shape[4];
        kw.ki = (guint) wv->shape[5];
        kw.data = (const gint8 *) wdata;
        kw.size = wv->storage_bytes;
        kw.scales = value_kernel_scales (wv, &wscales);
        kw.bias = bdata;
        kw.bias_size = bv ? bv->storage_bytes : 0;
        uniform_input_scale (&ins[0]);
        ok = zg330_kernel_conv2d (&ins[0].t, &kw, &cp, &out.t, error);
        break;
      }
    case ZG330_HARDOP_ADD:
      ok = zg330_kernel_add (&ins[0].t, &ins[1].t, &out.t, error);
      break;
    case ZG330_HARDOP_CONCAT:
      {
        const Zg330KernelTensor *ts[G_N_ELEMENTS (ins)];
        for (guint i = 0; i < n_in; i++)
          ts[i] = &ins[i].t;
        ok = zg330_kernel_concat (ts, n_in, &out.t, error);
        break;
      }
    case ZG330_HARDOP_MAXPOOL2D:
      {
        Zg330PoolParams pp = { d->kernel_h, d->kernel_w, d->stride_h, d->stride_w, d->pad_top, d->pad_left };
        ok = zg330_kernel_maxpool2d (&ins[0].t, &pp, &out.t, error);
        break;
      }
    case ZG330_HARDOP_UPSAMPLE:
      ok = zg330_kernel_upsample_nearest (&ins[0].t, d->stride_h, d->stride_w, &out.t, error);
      break;
    case ZG330_HARDOP_RESHAPE:
      ok = zg330_kernel_reshape (&ins[0].t, &out.t, error);
      break;
    case ZG330_HARDOP_CAST:
      ok = zg330_kernel_cast (&ins[0].t, &out.t, error);
      break;
    }
  if (!ok)
    {
      if (error && *error && !g_str_has_prefix ((*error)->message, "op "))
        g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): ", op->op_id, op->hard_class);
      goto out;
    }
  if (!xrt_mem_region_write (bind->outputs[0].region, bind->outputs[0].addr, out.data,
                             ((XirValue *) g_ptr_array_index (op->outputs, 0))->storage_bytes, error))
    {
      g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): writing the output: ", op->op_id, op->hard_class);
      ok = FALSE;
    }
out:
  for (guint i = 0; i < n_in && i < G_N_ELEMENTS (ins); i++)
    buf_clear (&ins[i]);
  buf_clear (&out);
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
