/* zg330-backend-run.c — running the ZG330Backend's launches: whole or up to a sync point
 * (stepTo inside a merged launch), the staging of userConnectNetwork values around them,
 * outputs written at a caller's address, and the lock that lets the backends of one
 * device take turns on the icore. */
#include "backends/zg330/zg330-backend-private.h"
#include "devices/zg330-sim.h"

/* The icore runs one program at a time and OCM is a scratchpad of whoever runs: a forward
 * holds this lock from its first launch to its last (re-entrant: each launch takes it too). */
static GRecMutex run_lock;

/* The hardop index of the op at absolute index @op_index, or -1 when it is not ours. */
static gint
hardop_at (Zg330Backend *self, gint op_index)
{
  const XirOp *op;
  gpointer idx;

  if (op_index < 0)
    return -1;
  op = xir_network_get_op (self->net, (guint) op_index);
  idx = op ? g_hash_table_lookup (self->hardop_index, &op->op_id) : NULL;
  return idx ? (gint) GPOINTER_TO_UINT (idx) - 1 : -1;
}

/* Staged connections around hardops [@from, @to]: before (@in), the connected values they
 * read from outside are copied from the user's chunk to their home; after, the connected
 * values they produce are copied from where they were written to the user's chunk. Each
 * copy is an ETM-to-ETM copy on the board, charged to self->staged_ms by the device
 * profile's model (zg330_timing_etm_copy_cycles). */
static gboolean
stage_connections (Zg330Backend *self, guint from, guint to, gboolean in, GError **error)
{
  const Zg330Profile *profile = zg330_sim_get_profile (self->device);
  GHashTableIter it;
  gpointer val;

  g_hash_table_iter_init (&it, self->user_connect);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      Connection *cn = val;
      XirValue *v = xir_network_get_value (self->net, cn->v_id);
      gboolean produced = op_is_mine (self, v->producer), hit = FALSE;
      XrtMemRegion *user_region = xrt_mem_chunk_get_region (cn->chunk);
      guint64 user_addr = xrt_mem_chunk_get_addr (cn->chunk);
      Zg330Place home;
      gboolean ok;

      if (!cn->staged || produced == in)
        continue;
      if (produced)
        {
          gint h = hardop_at (self, v->producer);
          hit = h >= (gint) from && h <= (gint) to;
        }
      else
        for (guint u = 0; u < v->consumers->len && !hit; u++)
          {
            gint h = hardop_at (self, (gint) g_array_index (v->consumers, guint, u));
            hit = h >= (gint) from && h <= (gint) to;
          }
      if (!hit || !zg330_backend_value_place (self, v, &home))
        continue;
      ok = in ? xrt_mem_region_copy (home.region, home.addr, user_region, user_addr, v->storage_bytes, error)
              : xrt_mem_region_copy (user_region, user_addr, home.region, home.addr, v->storage_bytes, error);
      if (!ok)
        {
          g_prefix_error (error, "userConnectNetwork(v_id %" G_GINT64_FORMAT "): staging %s the user chunk: ", v->v_id,
                          in ? "from" : "to");
          return FALSE;
        }
      if (profile != NULL)
        self->staged_ms += zg330_timing_cycles_to_ms (profile, zg330_timing_etm_copy_cycles (profile, v->storage_bytes));
    }
  return TRUE;
}

/* A chunk the user gave (userReuseSegment, userConnectNetwork) and then freed holds no
 * segment any more: the launch is refused, naming the call that gave it. */
static gboolean
check_user_chunks (Zg330Backend *self, GError **error)
{
  GHashTableIter it;
  gpointer val;

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    if (self->user_segment[t] != NULL && xrt_mem_chunk_is_freed (self->user_segment[t]))
      {
        g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                     "forward: the chunk at 0x%" G_GINT64_MODIFIER "x given to userReuseSegment(%s) of ZG330Backend %d "
                     "was freed after it was given: the %s segment has no memory (keep the chunk until the backend "
                     "is done)", xrt_mem_chunk_get_addr (self->user_segment[t]), zw_segment_type_to_string (t),
                     self->id, zw_segment_type_to_string (t));
        return FALSE;
      }
  g_hash_table_iter_init (&it, self->user_connect);
  while (g_hash_table_iter_next (&it, NULL, &val))
    {
      Connection *cn = val;
      if (xrt_mem_chunk_is_freed (cn->chunk))
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK,
                       "forward: the chunk at 0x%" G_GINT64_MODIFIER "x given to userConnectNetwork(v_id %" G_GINT64_FORMAT
                       ") of ZG330Backend %d was freed after it was given (keep the chunk until the backend is done)",
                       xrt_mem_chunk_get_addr (cn->chunk), cn->v_id, self->id);
          return FALSE;
        }
    }
  return TRUE;
}

/* Launch @index, when the network is applied, the launch exists and the user's chunks hold. */
static BLaunch *
launch_to_run (Zg330Backend *self, guint index, GError **error)
{
  if (!zg330_backend_after_apply (self, "forward", error))
    return NULL;
  if (index >= self->launches->len)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "launch %u of %u does not exist", index,
                   self->launches->len);
      return NULL;
    }
  if (!check_user_chunks (self, error))
    return NULL;
  return &g_array_index (self->launches, BLaunch, index);
}

guint
zg330_backend_get_n_launches (Zg330Backend *self)
{
  return self->applied ? self->launches->len : 0;
}

gboolean
zg330_backend_run_launch (Zg330Backend *self, guint index, double *icore_ms, double *sync_ms, GError **error)
{
  BLaunch *l;
  Zg330LaunchStats stats = { 0 };
  gboolean ok;

  self->staged_ms = 0;
  if ((l = launch_to_run (self, index, error)) == NULL)
    return FALSE;
  if (!stage_connections (self, l->first, l->last, TRUE, error))
    return FALSE;
  g_rec_mutex_lock (&run_lock);
  self->program->active = self;   /* updateMMU: this backend's segments */
  ok = zg330_device_icore_calc (self->device, xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]) + l->instr_offset,
                                l->instr_size, error);
  if (ok)
    zg330_sim_get_last_launch (self->device, &stats);
  self->part_launch = -1;
  g_rec_mutex_unlock (&run_lock);
  if (!ok || !stage_connections (self, l->first, l->last, FALSE, error))
    return FALSE;
  if (icore_ms)
    *icore_ms = stats.icore_ms;
  if (sync_ms)
    *sync_ms = stats.host_sync_ms;
  return TRUE;
}

/* The hardop index of @op_id inside launch @l, or -1. */
static gint
launch_member (Zg330Backend *self, const BLaunch *l, gint64 op_id)
{
  for (guint k = l->first; k <= l->last; k++)
    if (((XirOp *) g_ptr_array_index (self->hardops, k))->op_id == op_id)
      return (gint) k;
  return -1;
}

gboolean
zg330_backend_can_resume_launch (Zg330Backend *self, guint index, gint64 after_op_id)
{
  Zg330LaunchStats stats;
  const BLaunch *l;
  gint k;

  if (!self->applied || index >= self->launches->len || self->part_launch != (gint) index)
    return FALSE;
  l = &g_array_index (self->launches, BLaunch, index);
  k = launch_member (self, l, after_op_id);
  /* the board must hold exactly what the partial launch left: nothing ran since */
  /* (no launch since open or since a reset that cleared OCM: seq reads 0) */
  zg330_sim_get_last_launch (self->device, &stats);
  return k >= 0 && (guint) k == self->part_last && stats.seq == self->part_seq;
}

gboolean
zg330_backend_run_launch_part (Zg330Backend *self, guint index, gint64 after_op_id, gint64 until_op_id,
                               guint *layer_count, double *icore_ms, double *sync_ms, GError **error)
{
  const BLaunch *l;
  Zg330LaunchStats stats = { 0 };
  guint from, to, layers = 0, want = 0;
  gint a = -1, b = -1;
  guint64 start = 0, end = 0;
  gboolean ok;

  if (icore_ms)
    *icore_ms = 0;
  if (sync_ms)
    *sync_ms = 0;
  self->staged_ms = 0;
  if ((l = launch_to_run (self, index, error)) == NULL)
    return FALSE;
  if ((after_op_id >= 0 && (a = launch_member (self, l, after_op_id)) < 0)
      || (until_op_id >= 0 && (b = launch_member (self, l, until_op_id)) < 0))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "launch %" G_GINT64_FORMAT ": op %" G_GINT64_FORMAT " is not one of its hardops", l->op_id,
                   a < 0 && after_op_id >= 0 ? after_op_id : until_op_id);
      return FALSE;
    }
  if (after_op_id >= 0 && !zg330_backend_can_resume_launch (self, index, after_op_id))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER,
                   "launch %" G_GINT64_FORMAT ": cannot resume after op %" G_GINT64_FORMAT
                   ": the board did not stop there, or ran something else since", l->op_id, after_op_id);
      return FALSE;
    }
  from = a >= 0 ? (guint) a + 1 : l->first;
  to = b >= 0 ? (guint) b : l->last;
  for (guint k = l->first; k <= to; k++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, k);
      layers += (guint) MAX (op->layer_count, 0);
      if (k < from)
        continue;
      want += (guint) MAX (op->layer_count, 0);
      if (self->instr_size[k] == 0)
        continue;
      if (end == 0)
        start = self->instr_offset[k];
      end = self->instr_offset[k] + self->instr_size[k];
    }
  if (layer_count)
    *layer_count = layers;
  if (end == 0)
    {
      /* only zero-copy ops (no instructions) up to the sync point: the board has nothing
       * to run, what it left stays as it is */
      if (!stage_connections (self, from, to, TRUE, error) || !stage_connections (self, from, to, FALSE, error))
        return FALSE;
      if (to < l->last)
        {
          if (a < 0)
            {
              zg330_sim_get_last_launch (self->device, &stats);
              self->part_seq = stats.seq;
            }
          self->part_launch = (gint) index;
          self->part_last = to;
        }
      else
        self->part_launch = -1;
      return TRUE;
    }
  if (!stage_connections (self, from, to, TRUE, error))
    return FALSE;
  g_rec_mutex_lock (&run_lock);
  self->program->active = self;   /* updateMMU: this backend's segments */
  ok = zg330_device_icore_calc (self->device, xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]) + start,
                                end - start, error);
  if (ok)
    zg330_sim_get_last_launch (self->device, &stats);
  g_rec_mutex_unlock (&run_lock);
  if (!ok)
    {
      self->part_launch = -1;
      g_prefix_error (error, "launch %" G_GINT64_FORMAT " stopped after op %" G_GINT64_FORMAT ": ", l->op_id,
                      ((XirOp *) g_ptr_array_index (self->hardops, to))->op_id);
      return FALSE;
    }
  if (stats.layers != want)
    {
      self->part_launch = -1;
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                   "launch %" G_GINT64_FORMAT ": the board ran %u layers up to the sync point after op %" G_GINT64_FORMAT
                   ", its layer_count says %u", l->op_id, stats.layers,
                   ((XirOp *) g_ptr_array_index (self->hardops, to))->op_id, want);
      return FALSE;
    }
  if (!stage_connections (self, from, to, FALSE, error))
    return FALSE;
  if (to < l->last)
    {
      self->part_launch = (gint) index;
      self->part_last = to;
      self->part_seq = stats.seq;
    }
  else
    self->part_launch = -1;
  if (icore_ms)
    *icore_ms = stats.icore_ms;
  if (sync_ms)
    *sync_ms = stats.host_sync_ms;
  return TRUE;
}

gboolean
zg330_backend_bind_output (Zg330Backend *self, gint64 v_id, XrtMemChunk *chunk, guint64 offset)
{
  XirValue *v = xir_network_get_value (self->net, v_id);
  BChunk *c = v ? chunk_for_value (self, v) : NULL;

  /* only a chunk that holds this value alone: the caller's bytes around the tensor are
   * never written, and nothing else of the plan moves */
  if (!self->applied || c == NULL || c->segment != ZW_SEGMENT_OUTPUT || c->in_ocm || c->values->len != 1
      || value_offset (self, v) != 0 || chunk == NULL
      || xrt_mem_chunk_get_region (chunk) != region (self, "ETM")
      || offset + v->storage_bytes > xrt_mem_chunk_get_size (chunk))
    return FALSE;
  g_clear_pointer (&c->io_caller, xrt_mem_chunk_unref);
  c->io_caller = xrt_mem_chunk_ref (chunk);
  c->io_caller_off = offset;
  return TRUE;
}

void
zg330_backend_unbind_outputs (Zg330Backend *self)
{
  for (guint i = 0; i < self->chunks->len; i++)
    g_clear_pointer (&g_array_index (self->chunks, BChunk, i).io_caller, xrt_mem_chunk_unref);
}

void
zg330_backend_forward_begin (Zg330Backend *self)
{
  (void) self;
  g_rec_mutex_lock (&run_lock);
}

void
zg330_backend_forward_end (Zg330Backend *self)
{
  (void) self;
  g_rec_mutex_unlock (&run_lock);
}
