/* zg330-hardop-call.c — the board's side of a hardop: read a placed call's operands from the
 * regions, run its kind's kernel (devices/hardops/, zg330_hardop_call_compute) and write the
 * output back. */
#include "devices/zg330-hardop-call.h"
#include "devices/hardops/zg330-hardop-private.h"

#include <string.h>

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
  guint8 *data;
  gboolean borrowed; /* data points into the region */
} Buf;

/* Operand bytes the call owns start on a cache line (zg330_hardop_bytes_alloc). */
#define operand_alloc zg330_hardop_bytes_alloc
#define operand_free zg330_hardop_bytes_free

typedef guint8 OperandBytes;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OperandBytes, operand_free)

static void
buf_clear (Buf *b)
{
  if (b->borrowed)
    b->data = NULL;
  g_clear_pointer (&b->data, operand_free);
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
  return TRUE;
}

gboolean
zg330_hardop_call_run (XrtDevice *device, const Zg330HardopCall *call, Zg330OpWork *work, GError **error)
{
  const Zg330HardopClass *klass = zg330_hardop_class_get (call->kind);
  const char *cls = zg330_hardop_kind_to_string (call->kind);
  Buf ins[ZG330_CALL_MAX_INPUTS] = { 0 };
  Buf out = { 0 };
  guint n_in = call->n_inputs;
  gboolean ok = FALSE;

  *work = call->work;
  if (call->zero_copy)
    return TRUE;
  if (klass == NULL || n_in == 0 || n_in > ZG330_CALL_MAX_INPUTS)
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
    if (klass->has_weights)
      direct &= !spans_overlap (cw->region, cw->addr, cw->size, o->region, o->addr, o->size)
                && !(cw->has_bias && spans_overlap (cw->bias_region, cw->bias_addr, cw->bias_size, o->region, o->addr,
                                                    o->size));
    if (direct && (out.data = borrow_operand (device, call->output.region, call->output.addr,
                                              call->output.size)) != NULL)
      out.borrowed = TRUE;   /* zeroed by zg330_hardop_call_compute */
    else if (!buf_init (&out, device, call, &call->output, FALSE, error))
      goto out;
  }

  {
    const Zg330CallWeights *cw = &call->weights;
    const guint8 *in_data[ZG330_CALL_MAX_INPUTS];
    g_autoptr (OperandBytes) wdata = NULL;
    g_autoptr (OperandBytes) bdata = NULL;

    if (klass->has_weights
        && (!read_operand (device, cw->region, cw->addr, &wdata, cw->size, error)
            || (cw->has_bias && !read_operand (device, cw->bias_region, cw->bias_addr, &bdata, cw->bias_size, error))))
      {
        g_prefix_error (error, "op %" G_GINT64_FORMAT " (%s): reading weights: ", call->op_id, cls);
        goto out;
      }
    for (guint i = 0; i < n_in; i++)
      in_data[i] = ins[i].data;
    ok = zg330_hardop_call_compute (call, in_data, wdata, bdata, out.data, error);
  }
  if (!ok)
    goto out;
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
