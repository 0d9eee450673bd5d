/* host-cost.c — the host-op cost model (see host-cost.h for the formulas and their sources). */
#include "backends/host/host-cost.h"

#include <math.h>
#include <string.h>

#define OP_FMT "op %" G_GINT64_FORMAT " (%s)"

static const char *
op_short (const XirOp *op)
{
  const char *t = op->type_key ? op->type_key : "?";
  const char *colon = strrchr (t, ':');

  return colon ? colon + 1 : t;
}

/* ceil() that forgives floating-point noise, as the icore model does, so a figure exact on
 * paper (4096 bytes at 2 bytes per cycle) comes out exact. */
static guint64
ceil_cycles (double v)
{
  if (v <= 0.0)
    return 0;
  return (guint64) ceil (v - 1e-9 * MAX (1.0, v));
}

static guint64
value_elements (const XirValue *v)
{
  guint64 n = 1;

  for (guint d = 0; d < v->rank; d++)
    n *= v->shape[d] > 0 ? (guint64) v->shape[d] : 0;
  return n;
}

static guint64
sum_bytes (GPtrArray *values)
{
  guint64 n = 0;

  for (guint k = 0; k < values->len; k++)
    n += ((const XirValue *) g_ptr_array_index (values, k))->storage_bytes;
  return n;
}

gboolean
host_op_cost (const XirOp *op, const Zg330Profile *profile, const guint *n_boxes, HostOpCost *out,
              GError **error)
{
  const char *t;
  guint64 fixed;
  double cores;

  g_return_val_if_fail (op != NULL && profile != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  t = op->type_key ? op->type_key : "";
  fixed = (guint64) llround (profile->host_op_fixed_us * 1e-6 * profile->host_cpu_clock_hz);
  cores = MAX (profile->host_cpu_cores, 1u);

  if (!host_op_supported (op))
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_UNSUPPORTED, OP_FMT ": %s has no host cost model", op->op_id,
                   op_short (op), op->type_key ? op->type_key : "(no _type_key)");
      return FALSE;
    }
  if (op->kind == XIR_OP_INPUT || op->kind == XIR_OP_OUTPUT)
    return host_io_op_cost (op, profile, sum_bytes (op->kind == XIR_OP_INPUT ? op->outputs : op->inputs), out, error);
  else if (g_str_equal (t, "icraft::xir::Cast"))
    {
      out->bytes = sum_bytes (op->inputs) + sum_bytes (op->outputs);
      out->cpu_cycles = fixed + ceil_cycles ((double) out->bytes / profile->host_cast_bytes_per_cycle / cores);
    }
  else if (g_str_equal (t, "icraft::xir::Resize"))
    {
      HostResizeMode mode;
      gboolean align;
      double cpe;

      if (op->outputs->len != 1)
        {
          g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_TYPE, OP_FMT ": outputs: %u, a Resize has one", op->op_id,
                       op_short (op), op->outputs->len);
          return FALSE;
        }
      if (!host_resize_mode_from_op (op, &mode, &align, error))
        return FALSE;
      cpe = mode == HOST_RESIZE_NEAREST ? profile->host_resize_nearest_cycles_per_element
                                        : profile->host_resize_bilinear_cycles_per_element;
      out->elements = value_elements (g_ptr_array_index (op->outputs, 0));
      out->cpu_cycles = fixed + ceil_cycles ((double) out->elements * cpe / cores);
    }
  else if (g_str_equal (t, "customop::ImageMake"))
    {
      HostImageMakeConfig cfg;
      const XirValue *in;

      if (!host_image_make_config_init (&cfg, op, NULL, error))
        return FALSE;
      in = g_ptr_array_index (op->inputs, 0);
      /* the IP streams the image's pixels; the host copies the image into its buffer */
      out->elements = value_elements (in) / MAX (cfg.in_channels, 1u);
      out->bytes = in->storage_bytes;
      out->ip_cycles = profile->detpost_fixed_cycles
                       + ceil_cycles ((double) out->elements * HOST_IMAGEMAKE_CYCLES_PER_PIXEL);
      out->cpu_cycles = fixed + ceil_cycles ((double) out->bytes / profile->host_copy_bytes_per_cycle);
      out->hard_ms = (double) out->ip_cycles * 1e3 / profile->detpost_clock_hz;
    }
  else /* customop::DetPostZG, customop::DetPost */
    {
      guint64 candidates = 0;
      guint record_bytes = 0;

      if (!host_detpost_zg_candidates (op, &candidates, &record_bytes, error))
        return FALSE;
      if (n_boxes != NULL)
        for (guint g = 0; g < op->outputs->len; g++)
          out->boxes += n_boxes[g];
      else
        out->boxes = candidates;
      out->elements = candidates;
      out->bytes = out->boxes * record_bytes;
      out->ip_cycles = profile->detpost_fixed_cycles
                       + ceil_cycles ((double) candidates * profile->detpost_cycles_per_anchor
                                      + (double) out->boxes * profile->detpost_cycles_per_box);
      out->cpu_cycles = fixed + ceil_cycles ((double) out->bytes / profile->host_copy_bytes_per_cycle);
      out->hard_ms = (double) out->ip_cycles * 1e3 / profile->detpost_clock_hz;
    }
  out->other_ms = (double) out->cpu_cycles * 1e3 / profile->host_cpu_clock_hz;
  return TRUE;
}

gboolean
host_io_op_cost (const XirOp *op, const Zg330Profile *profile, guint64 host_bytes, HostOpCost *out, GError **error)
{
  guint64 fixed;

  g_return_val_if_fail (op != NULL && profile != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (op->kind != XIR_OP_INPUT && op->kind != XIR_OP_OUTPUT)
    {
      g_set_error (error, HOST_OP_ERROR, HOST_OP_ERROR_UNSUPPORTED, OP_FMT ": %s is not an Input or Output op", op->op_id,
                   op_short (op), op->type_key ? op->type_key : "(no _type_key)");
      return FALSE;
    }
  fixed = (guint64) llround (profile->host_op_fixed_us * 1e-6 * profile->host_cpu_clock_hz);
  out->bytes = host_bytes;
  out->cpu_cycles = fixed + ceil_cycles ((double) host_bytes / profile->host_copy_bytes_per_cycle);
  out->other_ms = (double) out->cpu_cycles * 1e3 / profile->host_cpu_clock_hz;
  return TRUE;
}

gboolean
host_op_run_costed (const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                    const Zg330Profile *profile, HostOpCost *cost, GError **error)
{
  HostOpCost local;

  g_return_val_if_fail (op != NULL && profile != NULL, FALSE);
  if (host_detpost_is (op))
    {
      g_autofree guint *counts = g_new0 (guint, MAX (op->outputs->len, 1));
      if (!host_detpost_zg_run (op, inputs, outputs, counts, error))
        return FALSE;
      return host_op_cost (op, profile, counts, cost ? cost : &local, error);
    }
  if (!host_op_run (op, inputs, outputs, error))
    return FALSE;
  return host_op_cost (op, profile, NULL, cost ? cost : &local, error);
}

void
host_hardop_cost (const Zg330HardopDesc *desc, const Zg330Profile *profile, HostOpCost *out)
{
  const XirOp *op = desc->op;
  guint64 fixed = (guint64) llround (profile->host_op_fixed_us * 1e-6 * profile->host_cpu_clock_hz);
  double cores = MAX (profile->host_cpu_cores, 1u);

  memset (out, 0, sizeof *out);
  if (desc->zero_copy)
    {
      out->bytes = sum_bytes (op->outputs);
      out->cpu_cycles = fixed + ceil_cycles ((double) out->bytes / profile->host_copy_bytes_per_cycle);
    }
  else
    {
      out->bytes = sum_bytes (op->inputs) + sum_bytes (op->outputs) + desc->weight_bytes;
      out->elements = desc->macs;
      out->cpu_cycles = fixed + ceil_cycles ((double) desc->macs / (HOST_HARDOP_MACS_PER_CYCLE * cores))
                        + ceil_cycles ((double) out->bytes / profile->host_cast_bytes_per_cycle / cores);
    }
  out->other_ms = (double) out->cpu_cycles * 1e3 / profile->host_cpu_clock_hz;
}
