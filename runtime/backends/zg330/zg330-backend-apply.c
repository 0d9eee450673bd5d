/* zg330-backend-apply.c — apply and what follows it: where each value lives, the deploy
 * (physical segments, INPUT/OUTPUT chunks or the user's, upload, binding), apply with a
 * recorded plan, fork and precheck. */
#include "backends/zg330/zg330-backend-private.h"
#include "report/zw-deploy-check.h"
#include "devices/zg330-sim.h"

#include <string.h>

/* Where value @v lives now (after apply). */
gboolean
zg330_backend_value_place (Zg330Backend *self, const XirValue *v, Zg330Place *place)
{
  BChunk *c = chunk_for_value (self, v);
  guint64 off = value_offset (self, v);

  if (c == NULL)
    return FALSE;
  if (c->in_ocm)
    {
      place->region = region (self, "OCM");
      place->addr = xrt_mem_region_get_base (place->region) + c->ocm_addr + off;
    }
  else if (c->segment == ZW_SEGMENT_FTMP)
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_FTMP]) + c->seg_offset + off;
    }
  else if (c->fixed)
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (self->phy[c->segment]) + c->seg_offset + off;
    }
  else if (c->io_caller != NULL)
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (c->io_caller) + c->io_caller_off + off;
    }
  else
    {
      place->region = region (self, "ETM");
      place->addr = xrt_mem_chunk_get_addr (c->io_chunk) + off;
    }
  return TRUE;
}

gboolean
zg330_backend_get_value_place (Zg330Backend *self, gint64 v_id, const char **region_name, guint64 *addr)
{
  XirValue *v = xir_network_get_value (self->net, v_id);
  Zg330Place p;

  Connection *cn;

  if (!self->applied || v == NULL || !zg330_backend_value_place (self, v, &p))
    return FALSE;
  /* a staged connection: the value is exchanged with the caller through the user's chunk */
  if ((cn = g_hash_table_lookup (self->user_connect, &v_id)) != NULL && cn->staged)
    {
      p.region = xrt_mem_chunk_get_region (cn->chunk);
      p.addr = xrt_mem_chunk_get_addr (cn->chunk);
    }
  if (region_name)
    *region_name = xrt_mem_region_get_name (p.region);
  if (addr)
    *addr = p.addr;
  return TRUE;
}

/* The user chunk that becomes the home of compiler chunk @c: one connected to a value at the
 * chunk's start that can hold the whole chunk (zero-copy). Marks every connection of @c's
 * values zero-copy or staged. */
static XrtMemChunk *
connection_home (Zg330Backend *self, BChunk *c)
{
  XrtMemChunk *home = NULL;

  for (guint k = 0; k < c->values->len; k++)
    {
      XirValue *v = g_ptr_array_index (c->values, k);
      Connection *cn = g_hash_table_lookup (self->user_connect, &v->v_id);
      guint64 off = value_offset (self, v);
      if (cn != NULL && !cn->force_staged && home == NULL && off == 0 && xrt_mem_chunk_get_size (cn->chunk) >= c->size)
        home = cn->chunk;
    }
  for (guint k = 0; k < c->values->len; k++)
    {
      XirValue *v = g_ptr_array_index (c->values, k);
      Connection *cn = g_hash_table_lookup (self->user_connect, &v->v_id);
      guint64 off = value_offset (self, v);
      if (cn != NULL)
        cn->staged = !(cn->chunk == home && off == 0);
    }
  return home;
}

/* Allocates the physical segments, uploads weights and instructions, binds the hardops:
 * everything after the plan. */
static gboolean
deploy (Zg330Backend *self, GError **error)
{
  g_autofree guint8 *weights = NULL, *instr = NULL;
  guint64 ocm_arena = 0;

  self->phy[ZW_SEGMENT_WEIGHT] = zg330_backend_segment_chunk (self, ZW_SEGMENT_WEIGHT, self->seg_size[ZW_SEGMENT_WEIGHT], error);
  if (self->phy[ZW_SEGMENT_WEIGHT] == NULL)
    return FALSE;
  self->phy[ZW_SEGMENT_INSTR] = zg330_backend_segment_chunk (self, ZW_SEGMENT_INSTR, self->seg_size[ZW_SEGMENT_INSTR], error);
  if (self->phy[ZW_SEGMENT_INSTR] == NULL)
    return FALSE;
  self->phy[ZW_SEGMENT_FTMP] = zg330_backend_segment_chunk (self, ZW_SEGMENT_FTMP, self->seg_size[ZW_SEGMENT_FTMP], error);
  if (self->phy[ZW_SEGMENT_FTMP] == NULL)
    return FALSE;
  for (guint t = ZW_SEGMENT_INPUT; ZG330_BACKEND_GET_CLASS (self)->compiler_placed && t <= ZW_SEGMENT_OUTPUT; t++)
    if (self->seg_size[t] > 0 && (self->phy[t] = zg330_backend_segment_chunk (self, t, self->seg_size[t], error)) == NULL)
      return FALSE;
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      XrtMemChunk *user;

      if (c->in_ocm)
        ocm_arena = MAX (ocm_arena, c->ocm_addr + c->size);
      if (c->segment == ZW_SEGMENT_FTMP || c->fixed || c->in_ocm)
        continue;
      user = connection_home (self, c);
      if (user != NULL)
        {
          c->io_chunk = xrt_mem_chunk_ref (user);
          c->io_user = TRUE;
          continue;
        }
      c->io_chunk = xrt_mem_region_malloc (region (self, "ETM"), MAX (c->size, 1), TRUE, SEGMENT_ALIGN, error);
      if (c->io_chunk == NULL)
        {
          g_prefix_error (error, "%s segment, chunk %" G_GINT64_FORMAT ": ", zw_segment_type_to_string (c->segment), c->id);
          return FALSE;
        }
    }
  if (ocm_arena > xrt_mem_region_get_size (region (self, "OCM")))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_NO_MEMORY,
                   "OCM plan of %s needs %" G_GUINT64_FORMAT " bytes but the device's OCM has %" G_GUINT64_FORMAT,
                   xir_network_get_name (self->net), ocm_arena, xrt_mem_region_get_size (region (self, "OCM")));
      return FALSE;
    }
  weights = zg330_backend_segment_image (self, ZW_SEGMENT_WEIGHT);
  instr = zg330_backend_segment_image (self, ZW_SEGMENT_INSTR);
  if (!zg330_backend_claim_segment (self, ZW_SEGMENT_WEIGHT, weights, error) || !zg330_backend_claim_segment (self, ZW_SEGMENT_INSTR, instr, error))
    return FALSE;
  if (!xrt_mem_chunk_write (self->phy[ZW_SEGMENT_WEIGHT], 0, weights, self->seg_size[ZW_SEGMENT_WEIGHT], error)
      || !xrt_mem_chunk_write (self->phy[ZW_SEGMENT_INSTR], 0, instr, self->seg_size[ZW_SEGMENT_INSTR], error))
    {
      g_prefix_error (error, "uploading weights and instructions: ");
      return FALSE;
    }
  if (!zg330_backend_bind_program (self, error))
    return FALSE;
  self->applied = TRUE;
  return TRUE;
}

static gboolean
check_can_apply (Zg330Backend *self, GError **error)
{
  if (self->applied)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
                   "ZG330Backend %d (%s): apply() was already called", self->id, xir_network_get_name (self->net));
      return FALSE;
    }
  if (!xir_network_has_params (self->net))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_NO_PARAMS,
                   "%s: apply() needs the network's params: load the .raw (or synthetic params) first",
                   xir_network_get_path (self->net));
      return FALSE;
    }
  return TRUE;
}

gboolean
zg330_backend_apply (Zg330Backend *self, GError **error)
{
  CHECK_ARG (self != NULL, "backend", FALSE);
  if (!check_can_apply (self, error))
    return FALSE;
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    {
      /* the compiler placed every value (at init): checked like any recorded plan before deploying */
      if (!ZG330_BACKEND_GET_CLASS (self)->placement->check (self, error))
        return FALSE;
      return deploy (self, error);
    }
  zg330_backend_plan_launches (self);
  if (!zg330_backend_plan_ocm (self, error))
    return FALSE;
  if (self->ocm_requested == ZW_OCM_NONE)
    self->ocm_chosen = ZW_OCM_NONE;
  if (!zg330_backend_plan_ftmp (self, error))
    return FALSE;
  return deploy (self, error);
}

gboolean
zg330_backend_apply_with_plan (Zg330Backend *self, const ZwDeployReport *plan, GError **error)
{
  CHECK_ARG (self != NULL, "backend", FALSE);
  CHECK_ARG (plan != NULL, "plan", FALSE);
  if (!check_can_apply (self, error))
    return FALSE;
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    /* nothing to restore but the compiler's own placement: the plan must state it */
    return ZG330_BACKEND_GET_CLASS (self)->placement->check_plan (self, plan, error) && zg330_backend_apply (self, error);
  /* a recorded plan (a snapshot, a deploy report from disk) passes the independent checker
   * before a byte of it reaches the board */
  {
    GError *local = NULL;
    if (!zw_deploy_report_check (plan, NULL, &local))
      {
        g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "the recorded plan fails the checker: %s",
                     local->message);
        g_error_free (local);
        return FALSE;
      }
  }
  if (g_strcmp0 (plan->network_name, xir_network_get_name (self->net)) != 0
      || plan->segments[ZW_SEGMENT_WEIGHT].byte_size != self->seg_size[ZW_SEGMENT_WEIGHT]
      || plan->segments[ZW_SEGMENT_INSTR].byte_size != self->seg_size[ZW_SEGMENT_INSTR])
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "the plan is of network \"%s\" (WEIGHT %" G_GUINT64_FORMAT ", INSTR %" G_GUINT64_FORMAT " bytes), "
                   "not of %s (WEIGHT %" G_GUINT64_FORMAT ", INSTR %" G_GUINT64_FORMAT ")", plan->network_name,
                   plan->segments[ZW_SEGMENT_WEIGHT].byte_size, plan->segments[ZW_SEGMENT_INSTR].byte_size,
                   xir_network_get_name (self->net), self->seg_size[ZW_SEGMENT_WEIGHT], self->seg_size[ZW_SEGMENT_INSTR]);
      return FALSE;
    }
  self->merge_hardop = plan->merge_hardop;
  self->etm_optimize = plan->etm_optimize;
  self->ocm_requested = plan->ocm_requested;
  self->ocm_chosen = plan->ocm_chosen;
  zg330_backend_plan_launches (self);
  if (self->launches->len != plan->launches->len)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "the plan has %u launches but this view gives %u", plan->launches->len, self->launches->len);
      return FALSE;
    }
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      const ZwChunkInfo *pc;

      if (c->segment != ZW_SEGMENT_FTMP)
        continue;
      pc = zw_deploy_report_find_chunk (plan, c->id);
      if (pc == NULL || pc->size != c->size
          || !(pc->in_ocm ? zw_range_inside (pc->ocm_addr, pc->size, 0, xrt_mem_region_get_size (region (self, "OCM")))
                          : zw_range_inside (pc->ftmp_offset, pc->size, 0, plan->segments[ZW_SEGMENT_FTMP].byte_size)))
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                       "the plan's chunk %" G_GINT64_FORMAT " is %s", c->id,
                       pc == NULL ? "missing" : pc->size != c->size ? "of another size" : "outside its memory");
          return FALSE;
        }
      c->seg_offset = pc->ftmp_offset;
      c->in_ocm = pc->in_ocm;
      c->ocm_addr = pc->in_ocm ? pc->ocm_addr : G_MAXUINT64;
    }
  self->seg_size[ZW_SEGMENT_FTMP] = plan->segments[ZW_SEGMENT_FTMP].byte_size;
  self->ftmp_lower_bound = plan->lower_bound;
  self->ftmp_sum = plan->sum_of_chunks;
  g_free (self->etm_method);
  self->etm_method = g_strdup_printf ("restored (%s)", plan->etm_method ? plan->etm_method : "");
  self->none_cost_ms = plan->none_cost_ms;
  self->options_pending = FALSE;   /* the plan's options are the report's */
  for (guint i = 0; i < plan->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (plan->ocm_options, ZwOcmOptionResult, i);
      if (o->option <= ZW_OCM_NONE || o->option >= ZW_OCM_N_SLOTS)
        continue;
      self->option_cost_ms[o->option] = o->cost_ms;
      self->option_peak[o->option] = o->peak_bytes;
      g_clear_pointer (&self->option_picks[o->option], g_array_unref);
      self->option_picks[o->option] = g_array_copy (o->picks);
    }
  {
    /* apply places the chunks; the checker verified the values: the placement about to be
     * deployed, as this backend reports it, must be the verified one */
    g_autoptr (ZwDeployReport) own = zg330_backend_get_report (self);
    GError *local = NULL;
    if (!zw_deploy_report_check_agree (plan, own, &local))
      {
        g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "the recorded plan's chunk table "
                     "disagrees with its checked values: %s", local->message);
        g_error_free (local);
        return FALSE;
      }
  }
  return deploy (self, error);
}

Zg330Backend *
zg330_backend_fork (Zg330Backend *self, GError **error)
{
  /* the same class (a BuyiBackend forks a BuyiBackend) */
  g_autoptr (Zg330Backend) child = (Zg330Backend *) xrt_backend_new_of_type (G_OBJECT_TYPE (self), self->view,
                                                                            self->device, error);

  if (child == NULL)
    return NULL;
  child->merge_hardop = self->merge_hardop;
  child->etm_optimize = self->etm_optimize;
  child->ocm_requested = child->ocm_chosen = self->ocm_requested;
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    if (self->user_segment[t] != NULL)
      child->user_segment[t] = xrt_mem_chunk_ref (self->user_segment[t]);
  if (self->applied)
    {
      g_autoptr (ZwDeployReport) plan = zg330_backend_get_report (self);

      /* same network: share what never changes, keep an FTMP of its own */
      for (guint t = ZW_SEGMENT_WEIGHT; t <= ZW_SEGMENT_INSTR; t++)
        {
          g_clear_pointer (&child->user_segment[t], xrt_mem_chunk_unref);
          child->user_segment[t] = xrt_mem_chunk_ref (self->phy[t]);
        }
      g_clear_pointer (&child->user_segment[ZW_SEGMENT_FTMP], xrt_mem_chunk_unref);
      if (!zg330_backend_apply_with_plan (child, plan, error))
        return NULL;
    }
  return g_steal_pointer (&child);
}

gboolean
zg330_backend_precheck (Zg330Backend *self, GError **error)
{
  CHECK_ARG (self != NULL, "backend", FALSE);
  if (!zg330_backend_after_apply (self, "precheck", error))
    return FALSE;
  for (int pass = 0; pass < 2; pass++)
    {
      ZwSegmentType type = pass == 0 ? ZW_SEGMENT_INSTR : ZW_SEGMENT_WEIGHT;
      g_autofree guint8 *expect = zg330_backend_segment_image (self, type);
      g_autofree guint8 *got = g_malloc0 (MAX (self->seg_size[type], 1));

      if (!xrt_mem_chunk_read (self->phy[type], 0, got, self->seg_size[type], error))
        return FALSE;
      for (guint i = 0; i < self->hardops->len; i++)
        {
          XirOp *op = g_ptr_array_index (self->hardops, i);
          guint64 off = type == ZW_SEGMENT_WEIGHT ? self->weight_offset[i] : self->instr_offset[i];
          guint64 size = type == ZW_SEGMENT_WEIGHT ? self->descs[i].weight_bytes : self->instr_size[i];

          if (size > 0 && memcmp (expect + off, got + off, size) != 0)
            {
              guint64 at = 0;
              while (expect[off + at] == got[off + at])
                at++;
              g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_PRECHECK,
                           "The %s of opid:%" G_GINT64_FORMAT " at PLDDR is incorrect (first wrong byte at "
                           "0x%" G_GINT64_MODIFIER "x: expected 0x%02x, read 0x%02x)",
                           type == ZW_SEGMENT_WEIGHT ? "Weight" : "Instruction", op->op_id,
                           xrt_mem_chunk_get_addr (self->phy[type]) + off + at, expect[off + at], got[off + at]);
              return FALSE;
            }
        }
    }
  return TRUE;
}
