/* zg330-hardop-call.c — the board's side of a hardop: run a placed call on the regions. */
#include "devices/zg330-hardop-call.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[ZG330_N_HARDOP_KINDS] = {
  "Conv2d", "Add", "Concat", "MaxPool2d", "Upsample", "Reshape", "Cast",
};

const char *
zg330_hardop_kind_to_string (Zg330HardopKind kind)
{
  return (guint) kind < ZG330_N_HARDOP_KINDS ? kind_names[kind] : "?";
}

static void
tensor_clear (Zg330CallTensor *t)
{
  g_clear_pointer (&t->scales, g_free);
}

void
zg330_hardop_call_clear (Zg330HardopCall *call)
{
  if (call == NULL)
    return;
  for (guint i = 0; i < ZG330_CALL_MAX_INPUTS; i++)
    tensor_clear (&call->inputs[i]);
  tensor_clear (&call->output);
  g_clear_pointer (&call->weights.scales, g_free);
  memset (call, 0, sizeof *call);
}

static float *
dup_scales (const float *s, guint32 n)
{
  return s != NULL && n > 0 ? g_memdup2 (s, (gsize) n * sizeof (float)) : NULL;
}

void
zg330_hardop_call_copy (const Zg330HardopCall *src, Zg330HardopCall *dest)
{
  *dest = *src;
  for (guint i = 0; i < ZG330_CALL_MAX_INPUTS; i++)
    dest->inputs[i].scales = dup_scales (src->inputs[i].scales, src->inputs[i].n_scales);
  dest->output.scales = dup_scales (src->output.scales, src->output.n_scales);
  dest->weights.scales = dup_scales (src->weights.scales, src->weights.n_scales);
}

/* ---- running ------------------------------------------------------------------------ */

static XrtMemRegion *
call_region (XrtDevice *device, Zg330CallRegion region)
{
  return xrt_device_get_mem_region (device, region == ZG330_CALL_OCM ? "OCM" : "ETM", NULL);
}

/* An operand.  Its bytes are a copy read from the region, or (borrowed) the region's own
 * bytes where it keeps them contiguous in host memory (OCM): no copy between layers whose
 * values stay in OCM. */
typedef struct {
  Zg330KernelTensor t;
  guint8 *data;
  gboolean borrowed; /* data points into the region */
  float *scales;     /* owned (uniform input scale), or NULL */
} Buf;

/* Operand bytes the call owns start on a cache line (64 bytes), as the region's own do
 * (OCM): the kernels' 32- and 64-byte vector accesses at block offsets then never split
 * a line (malloc gives 16, which splits every other one).  NULL when the host has no
 * room; freed with operand_free. */
static guint8 *
operand_alloc (gsize size, gboolean zero)
{
  void *p = NULL;

  if (posix_memalign (&p, 64, MAX (size, 1)) != 0)
    return NULL;
  if (zero)
    memset (p, 0, MAX (size, 1));
  return p;
}

static void
operand_free (gpointer p)
{
  free (p);
}

typedef guint8 OperandBytes;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OperandBytes, operand_free)

static void
buf_clear (Buf *b)
{
  if (b->borrowed)
    b->data = NULL;
  g_clear_pointer (&b->data, operand_free);
  g_clear_pointer (&b->scales, g_free);
}

/* The region's own bytes of [addr, addr + size), or NULL when they must be copied: the
 * region keeps them elsewhere than in one host span (ETM pages), or the device injects
 * corrupted reads (each read must then be counted, as a copy is). */
static guint8 *
borrow_operand (XrtDevice *device, Zg330CallRegion region, guint64 addr, guint64 size)
{
  XrtMemRegion *r = call_region (device, region);

  if (r == NULL || size == 0 || size > ZG330_CALL_MAX_TENSOR_BYTES
      || xrt_device_injects_fault (device, XRT_FAULT_CORRUPT_READ))
    return NULL;
  return xrt_mem_region_get_host_pointer (r, addr, (gsize) size);
}

/* [a, a + an) and [b, b + bn) of one region share a byte (sizes are checked not to wrap). */
static gboolean
spans_overlap (Zg330CallRegion ra, guint64 a, guint64 an, Zg330CallRegion rb, guint64 b, guint64 bn)
{
  return ra == rb && an > 0 && bn > 0 && a < b + bn && b < a + an;
}

static gboolean
read_operand (XrtDevice *device, Zg330CallRegion region, guint64 addr, guint8 **data, guint64 size, GError **error)
{
  XrtMemRegion *r = call_region (device, region);

  /* not zeroed: a region's read fills every byte (unwritten ETM reads as zeros) */
  if (size > ZG330_CALL_MAX_TENSOR_BYTES || (*data = operand_alloc ((gsize) size, FALSE)) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%" G_GUINT64_FORMAT " bytes: too large for the board",
                   size);
      return FALSE;
    }
  if (r == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION, "the device has no %s region",
                   region == ZG330_CALL_OCM ? "OCM" : "ETM");
      return FALSE;
    }
  return xrt_mem_region_read (r, addr, *data, (gsize) size, error);
}

static gboolean
buf_init (Buf *b, XrtDevice *device, const Zg330HardopCall *call, const Zg330CallTensor *ct, gboolean read,
          GError **error)
{
  memset (b, 0, sizeof *b);
  b->t.layout = ct->layout;
  b->t.dtype = ct->dtype;
  b->t.n = ct->n;
  b->t.c = ct->c;
  b->t.h = ct->h;
  b->t.w = ct->w;
  b->t.k = ct->k;
  b->t.scales = ct->n_scales > 0 ? ct->scales : NULL;
  b->t.size = (gsize) ct->size;
  if (!read)
    {
      if (ct->size > ZG330_CALL_MAX_TENSOR_BYTES || (b->data = operand_alloc ((gsize) ct->size, TRUE)) == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "op %" G_GINT64_FORMAT " (%s): output v_id %"
                       G_GINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes: too large for the board", call->op_id,
                       zg330_hardop_kind_to_string (call->kind), ct->v_id, ct->size);
          return FALSE;
        }
    }
  else if ((b->data = borrow_operand (device, ct->region, ct->addr, ct->size)) != NULL)
    b->borrowed = TRUE;
  else if (!read_operand (device, ct->region, ct->addr, &b->data, ct->size, error))
    {
      g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): reading input v_id %" G_GINT64_FORMAT ": ", call->op_id,
                      zg330_hardop_kind_to_string (call->kind), ct->v_id);
      buf_clear (b);
      return FALSE;
    }
  b->t.data = b->data;
  return TRUE;
}

/* A conv's int32 accumulator needs one input scale. A Buyi input whose channels carry
 * different scales (a concat of values with their own norm ratios) is first brought to the
 * largest of them, channel by channel: q' = round-half-even (q x s[c] / s_max), which
 * cannot overflow (s[c] / s_max <= 1). The board's own way is not public (its instruction
 * words are opaque): this is the behavioural model's assumption, stated in zg330-hardop.h. */
static gboolean
uniform_input_scale (Buf *b, GError **error)
{
  const float *s = b->t.scales;
  float smax;
  gboolean same = TRUE;
  gsize n = b->t.size;
  guint cb_k = b->t.layout == ZG330_KERNEL_LAYOUT_NCHWC ? MAX (b->t.k, 1) : b->t.c;

  if (s == NULL || b->t.c < 2)
    return TRUE;
  smax = s[0];
  for (guint c = 1; c < b->t.c; c++)
    {
      same &= s[c] == s[0];
      smax = MAX (smax, s[c]);
    }
  if (same)
    return TRUE;
  if (b->borrowed)      /* rescaled in a copy: the region's bytes stay the input's */
    {
      guint8 *copy = operand_alloc (n, FALSE);
      if (copy == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY, "%" G_GSIZE_FORMAT " bytes: too large for the host",
                       n);
          return FALSE;
        }
      memcpy (copy, b->data, n);
      b->data = copy;
      b->borrowed = FALSE;
      b->t.data = b->data;
    }
  for (gsize i = 0; i < n; i++)
    {
      guint ch;
      double q;
      if (b->t.layout == ZG330_KERNEL_LAYOUT_NCHWC)
        {
          gsize plane = (gsize) b->t.h * b->t.w * cb_k;
          guint cb = plane == 0 ? 0 : (guint) ((i / plane) % ((b->t.c + cb_k - 1) / cb_k));
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
  return TRUE;
}

gboolean
zg330_hardop_call_run (XrtDevice *device, const Zg330HardopCall *call, Zg330OpWork *work, GError **error)
{
  const char *cls = zg330_hardop_kind_to_string (call->kind);
  Buf ins[ZG330_CALL_MAX_INPUTS] = { 0 };
  Buf out = { 0 };
  guint n_in = call->n_inputs;
  gboolean ok = FALSE;

  *work = call->work;
  if (call->zero_copy)
    return TRUE;
  if (n_in == 0 || n_in > ZG330_CALL_MAX_INPUTS || (guint) call->kind >= ZG330_N_HARDOP_KINDS)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (%s): %u inputs; the board model takes "
                   "1 to %u", call->op_id, cls, n_in, (guint) ZG330_CALL_MAX_INPUTS);
      return FALSE;
    }
  for (guint i = 0; i < n_in; i++)
    if (!buf_init (&ins[i], device, call, &call->inputs[i], TRUE, error))
      goto out;
  /* The output straight into the region when it keeps it in host memory and no operand
   * shares its bytes (the kernels read inputs, weights and bias, which are read after this,
   * while writing the output); zeroed first, as the copy would be, so bytes a kernel leaves
   * alone read the same. */
  {
    const Zg330CallTensor *o = &call->output;
    const Zg330CallWeights *cw = &call->weights;
    gboolean direct = TRUE;
    for (guint i = 0; i < n_in; i++)
      direct &= !spans_overlap (call->inputs[i].region, call->inputs[i].addr, call->inputs[i].size, o->region, o->addr,
                                o->size);
    if (call->kind == ZG330_HARDOP_CONV2D)
      direct &= !spans_overlap (cw->region, cw->addr, cw->size, o->region, o->addr, o->size)
                && !(cw->has_bias && spans_overlap (cw->bias_region, cw->bias_addr, cw->bias_size, o->region, o->addr,
                                                    o->size));
    if (direct && (out.data = borrow_operand (device, call->output.region, call->output.addr,
                                              call->output.size)) != NULL)
      {
        const Zg330CallTensor *ct = &call->output;
        out.borrowed = TRUE;
        memset (out.data, 0, (gsize) ct->size);
        out.t.layout = ct->layout;
        out.t.dtype = ct->dtype;
        out.t.n = ct->n;
        out.t.c = ct->c;
        out.t.h = ct->h;
        out.t.w = ct->w;
        out.t.k = ct->k;
        out.t.scales = ct->n_scales > 0 ? ct->scales : NULL;
        out.t.data = out.data;
        out.t.size = (gsize) ct->size;
      }
    else if (!buf_init (&out, device, call, &call->output, FALSE, error))
      goto out;
  }

  switch (call->kind)
    {
    case ZG330_HARDOP_CONV2D:
      {
        const Zg330CallWeights *cw = &call->weights;
        g_autoptr (OperandBytes) wdata = NULL;
        g_autoptr (OperandBytes) bdata = NULL;
        Zg330KernelWeights kw = { 0 };
        Zg330ConvParams cp = { call->stride_h, call->stride_w, call->pad_top, call->pad_left };

        if (!read_operand (device, cw->region, cw->addr, &wdata, cw->size, error)
            || (cw->has_bias && !read_operand (device, cw->bias_region, cw->bias_addr, &bdata, cw->bias_size, error)))
          {
            g_prefix_error (error, "op %" G_GINT64_FORMAT " (Conv2d): reading weights: ", call->op_id);
            goto out;
          }
        kw.ob = cw->dims[0];
        kw.ib = cw->dims[1];
        kw.kh = cw->dims[2];
        kw.kw = cw->dims[3];
        kw.ko = cw->dims[4];
        kw.ki = cw->dims[5];
        kw.data = (const gint8 *) wdata;
        kw.size = (gsize) cw->size;
        kw.scales = cw->n_scales > 0 ? cw->scales : NULL;
        kw.bias = bdata;
        kw.bias_size = cw->has_bias ? (gsize) cw->bias_size : 0;
        if (kw.scales == NULL)
          {
            g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (Conv2d): weights v_id %"
                         G_GINT64_FORMAT " have no scales", call->op_id, cw->v_id);
            goto out;
          }
        if (!uniform_input_scale (&ins[0], error))
          {
            g_prefix_error (error, "op %" G_GINT64_FORMAT " (Conv2d): rescaling input v_id %" G_GINT64_FORMAT ": ",
                            call->op_id, call->inputs[0].v_id);
            goto out;
          }
        ok = zg330_kernel_conv2d (&ins[0].t, &kw, &cp, &out.t, error);
        break;
      }
    case ZG330_HARDOP_ADD:
      if (n_in != 2)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "op %" G_GINT64_FORMAT " (Add): %u inputs, expected 2",
                       call->op_id, n_in);
          goto out;
        }
      ok = zg330_kernel_add (&ins[0].t, &ins[1].t, &out.t, error);
      break;
    case ZG330_HARDOP_CONCAT:
      {
        const Zg330KernelTensor *ts[ZG330_CALL_MAX_INPUTS];
        for (guint i = 0; i < n_in; i++)
          ts[i] = &ins[i].t;
        ok = zg330_kernel_concat (ts, n_in, &out.t, error);
        break;
      }
    case ZG330_HARDOP_MAXPOOL2D:
      {
        Zg330PoolParams pp = { call->kernel_h, call->kernel_w, call->stride_h, call->stride_w, call->pad_top,
                               call->pad_left };
        ok = zg330_kernel_maxpool2d (&ins[0].t, &pp, &out.t, error);
        break;
      }
    case ZG330_HARDOP_UPSAMPLE:
      ok = zg330_kernel_upsample_nearest (&ins[0].t, call->stride_h, call->stride_w, &out.t, error);
      break;
    case ZG330_HARDOP_RESHAPE:
      ok = zg330_kernel_reshape (&ins[0].t, &out.t, error);
      break;
    case ZG330_HARDOP_CAST:
      ok = zg330_kernel_cast (&ins[0].t, &out.t, error);
      break;
    case ZG330_N_HARDOP_KINDS:
      break;
    }
  if (!ok)
    {
      if (error && *error && !g_str_has_prefix ((*error)->message, "op "))
        g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): ", call->op_id, cls);
      goto out;
    }
  if (!out.borrowed)
  {
    XrtMemRegion *r = call_region (device, call->output.region);
    if (r == NULL || !xrt_mem_region_write (r, call->output.addr, out.data, (gsize) call->output.size, error))
      {
        if (r == NULL)
          g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION, "the device has no such region");
        g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): writing the output: ", call->op_id, cls);
        ok = FALSE;
      }
  }
out:
  for (guint i = 0; i < n_in && i < ZG330_CALL_MAX_INPUTS; i++)
    buf_clear (&ins[i]);
  buf_clear (&out);
  return ok;
}
