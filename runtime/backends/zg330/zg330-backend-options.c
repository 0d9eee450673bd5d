/* zg330-backend-options.c — the ZG330Backend's options, set before apply: merge hardops,
 * ETM optimize, the OCM option, the planner's limits, userReuseSegment and
 * userConnectNetwork; and the call-order checks the other parts use. */
#include "backends/zg330/zg330-backend-private.h"

gboolean
zg330_backend_before_apply (Zg330Backend *self, const char *call, GError **error)
{
  if (!self->applied)
    return TRUE;
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
               "%s %d (%s): %s must be called before apply()", XRT_BACKEND_GET_CLASS (self)->name, self->id,
               xir_network_get_name (self->net), call);
  return FALSE;
}

gboolean
zg330_backend_after_apply (Zg330Backend *self, const char *call, GError **error)
{
  if (self->applied)
    return TRUE;
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
               "%s %d (%s): %s must be called after apply()", XRT_BACKEND_GET_CLASS (self)->name, self->id,
               xir_network_get_name (self->net), call);
  return FALSE;
}

gboolean
zg330_backend_disable_merge_hardop (Zg330Backend *self, GError **error)
{
  if (!zg330_backend_before_apply (self, "disableMergeHardOp", error))
    return FALSE;
  self->merge_hardop = FALSE;
  return TRUE;
}

gboolean
zg330_backend_disable_etm_optimize (Zg330Backend *self, GError **error)
{
  if (!zg330_backend_before_apply (self, "disableEtmOptimize", error))
    return FALSE;
  self->etm_optimize = FALSE;
  return TRUE;
}

gboolean
zg330_backend_ocm_optimize (Zg330Backend *self, ZwOcmOpt option, GError **error)
{
  if (!zg330_backend_before_apply (self, "ocmOptimize", error))
    return FALSE;
  if (!ZG330_BACKEND_GET_CLASS (self)->has_ocm_options && option != ZW_OCM_NONE)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "ocmOptimize: the %s has no OCM options: its compiler placed every value in ETM or OCM itself "
                   "(the addresses are in the network file)", XRT_BACKEND_GET_CLASS (self)->name);
      return FALSE;
    }
  if (zw_ocm_opt_get_index (option) < 0)
    {
      g_autofree char *known = zw_ocm_opt_dup_short_list ();
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "ocmOptimize: %d is not an OcmOpt (expected one of %s)", option, known);
      return FALSE;
    }
  self->ocm_requested = self->ocm_chosen = option;
  return TRUE;
}

gboolean
zg330_backend_set_options (Zg330Backend *self, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm,
                           GError **error)
{
  if (!zg330_backend_before_apply (self, "setting options", error) || !zg330_backend_ocm_optimize (self, ocm, error))
    return FALSE;
  if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed && (merge_hardop || etm_optimize))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "%s: the %s cannot %s: its compiler placed every value (one launch per hardop, the compiler's ETM "
                   "reuse)", xir_network_get_name (self->net), XRT_BACKEND_GET_CLASS (self)->name,
                   merge_hardop ? "merge hardops" : "optimize ETM");
      return FALSE;
    }
  self->merge_hardop = merge_hardop;
  self->etm_optimize = etm_optimize;
  return TRUE;
}

gboolean
zg330_backend_set_plan_limits (Zg330Backend *self, guint64 work_budget, double time_limit_s, GError **error)
{
  if (!zg330_backend_before_apply (self, "setting the plan limits", error))
    return FALSE;
  if (!(time_limit_s <= 1e6))   /* also NaN */
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "plan limits: time_limit_s %g is not a number of seconds up to 1e6 (0 = none)", time_limit_s);
      return FALSE;
    }
  self->plan_work_budget = work_budget;
  self->plan_time_limit_s = time_limit_s;
  return TRUE;
}

gboolean
zg330_backend_check_user_chunk (Zg330Backend *self, XrtMemChunk *chunk, guint64 need, const char *what, GError **error)
{
  XrtMemRegion *etm = xrt_device_get_mem_region (self->device, "ETM", NULL);

  if (!xrt_mem_chunk_is_on (chunk, etm))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: the user chunk must be in the ETM region of device %s", what, xrt_device_get_url (self->device));
      return FALSE;
    }
  if (xrt_mem_chunk_get_addr (chunk) % SEGMENT_ALIGN != 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: the user chunk at 0x%" G_GINT64_MODIFIER "x is not 4096-byte aligned", what,
                   xrt_mem_chunk_get_addr (chunk));
      return FALSE;
    }
  if (xrt_mem_chunk_get_size (chunk) < need)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: the user chunk has %" G_GUINT64_FORMAT " bytes but %" G_GUINT64_FORMAT " are needed", what,
                   xrt_mem_chunk_get_size (chunk), need);
      return FALSE;
    }
  return TRUE;
}

/* userReuseSegment / userConnectNetwork place segments and values where the user says: a
 * chip whose compiler placed everything (Buyi) has no such freedom, and says so rather than
 * ignoring the call. */
static gboolean
runtime_places (Zg330Backend *self, const char *call, GError **error)
{
  if (!ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    return TRUE;
  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
               "%s: the %s deploys the compiler's own placement of %s (every address is in the network file): "
               "it cannot place segments or values at a user's chunk", call, XRT_BACKEND_GET_CLASS (self)->name,
               xir_network_get_name (self->net));
  return FALSE;
}

gboolean
zg330_backend_user_reuse_segment (Zg330Backend *self, XrtMemChunk *chunk, ZwSegmentType type, GError **error)
{
  g_autofree char *what = NULL;

  CHECK_ARG (self != NULL, "backend", FALSE);
  CHECK_ARG (chunk != NULL, "chunk", FALSE);
  if (!zg330_backend_before_apply (self, "userReuseSegment", error) || !runtime_places (self, "userReuseSegment", error))
    return FALSE;
  what = g_strdup_printf ("userReuseSegment(%s)", zw_segment_type_to_string (type));
  if (type != ZW_SEGMENT_WEIGHT && type != ZW_SEGMENT_INSTR && type != ZW_SEGMENT_FTMP)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                   "%s: only WEIGHT, INSTR and FTMP segments can be reused (INPUT/OUTPUT: userConnectNetwork)", what);
      return FALSE;
    }
  /* FTMP is checked at apply, when the plan's size is known. */
  if (type != ZW_SEGMENT_FTMP && !zg330_backend_check_user_chunk (self, chunk, self->seg_size[type], what, error))
    return FALSE;
  if (type == ZW_SEGMENT_FTMP && !zg330_backend_check_user_chunk (self, chunk, 0, what, error))
    return FALSE;
  g_clear_pointer (&self->user_segment[type], xrt_mem_chunk_unref);
  self->user_segment[type] = xrt_mem_chunk_ref (chunk);
  return TRUE;
}

gboolean
zg330_backend_user_connect_network (Zg330Backend *self, XrtMemChunk *chunk, gint64 v_id, GError **error)
{
  return zg330_backend_user_connect_network_full (self, chunk, v_id, FALSE, error);
}

gboolean
zg330_backend_user_connect_network_full (Zg330Backend *self, XrtMemChunk *chunk, gint64 v_id, gboolean staged,
                                         GError **error)
{
  g_autofree char *what = NULL;
  XirValue *v;
  BChunk *c;
  Connection *cn;
  gint64 *key;

  CHECK_ARG (self != NULL, "backend", FALSE);
  CHECK_ARG (chunk != NULL, "chunk", FALSE);
  if (!runtime_places (self, "userConnectNetwork", error))
    return FALSE;
  what = g_strdup_printf ("userConnectNetwork(v_id %" G_GINT64_FORMAT ")", v_id);
  v = xir_network_get_value (self->net, v_id);
  c = v ? chunk_for_value (self, v) : NULL;
  if (!zg330_backend_before_apply (self, "userConnectNetwork", error))
    return FALSE;
  if (c == NULL || c->segment == ZW_SEGMENT_FTMP)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "%s: v_id %" G_GINT64_FORMAT " is not an input or output of ZG330Backend %d's network view",
                   what, v_id, self->id);
      return FALSE;
    }
  /* the value's own bytes (storageBytes, as the manual sizes it) are enough: a chunk that
   * cannot hold the whole compiler chunk is staged (see Connection) */
  if (!zg330_backend_check_user_chunk (self, chunk, v->storage_bytes, what, error))
    return FALSE;
  key = g_new (gint64, 1);
  *key = v_id;
  cn = g_new0 (Connection, 1);
  cn->v_id = v_id;
  cn->chunk = xrt_mem_chunk_ref (chunk);
  cn->force_staged = staged;
  g_hash_table_replace (self->user_connect, key, cn);
  return TRUE;
}
