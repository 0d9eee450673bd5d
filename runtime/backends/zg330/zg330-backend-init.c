/* zg330-backend-init.c — Backend.init of the ZG330Backend: the hardops of a network view
 * this chip takes, their values grouped into compiler chunks (the unit of placement), each
 * chunk's segment (INPUT, OUTPUT, FTMP) and lifetime, and the logic segments' sizes. */
#include "backends/zg330/zg330-backend-private.h"
#include "backends/zg330/zg330-hardop.h"
#include "devices/zg330-sim.h"

/* The compiler chunk of @v (its "@chunk(id@…)"), or a chunk of its own (-(v_id+1)); for a
 * compiler-placed value, its holder's. */
static gint64
value_chunk_id (Zg330Backend *self, const XirValue *v)
{
  if (v->mtype.kind == XIR_MEM_CHUNK)
    return v->mtype.chunk_id;
  return -(placed_holder (self, v)->v_id + 1);
}

static gboolean
add_value (Zg330Backend *self, GHashTable *by_chunk_id, XirValue *v, GError **error)
{
  gint64 cid;
  gpointer idx;
  BChunk *c;

  if (g_hash_table_contains (self->chunk_of, &v->v_id))
    return TRUE;
  if (v->mtype.kind == XIR_MEM_HOST)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "%s: v_id %" G_GINT64_FORMAT ": mtype: a hardop's value cannot live on the host (@hostm)",
                   xir_network_get_path (self->net), v->v_id);
      return FALSE;
    }
  cid = value_chunk_id (self, v);
  idx = g_hash_table_lookup (by_chunk_id, &cid);
  if (idx == NULL)
    {
      BChunk nc = { 0 };
      gint64 *key = g_new (gint64, 1);

      nc.id = cid;
      nc.first = G_MAXINT;
      nc.last = -1;
      nc.values = g_ptr_array_new ();
      nc.segment = ZW_SEGMENT_FTMP;
      nc.ocm_addr = G_MAXUINT64;
      g_array_append_val (self->chunks, nc);
      *key = cid;
      idx = GUINT_TO_POINTER (self->chunks->len);
      g_hash_table_insert (by_chunk_id, key, idx);
    }
  c = &g_array_index (self->chunks, BChunk, GPOINTER_TO_UINT (idx) - 1);
  g_ptr_array_add (c->values, v);
  c->size = MAX (c->size, value_offset (self, v) + v->storage_bytes);
  g_hash_table_insert (self->chunk_of, &v->v_id, idx);
  return TRUE;
}

/* INPUT: a value of the chunk comes from an op of another backend; OUTPUT: one is used by
 * another backend or is a network output. Lifetimes only count the backend's own ops. */
static void
classify_chunks (Zg330Backend *self)
{
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      gboolean from_outside = FALSE, to_outside = FALSE;

      for (guint k = 0; k < c->values->len; k++)
        {
          XirValue *v = g_ptr_array_index (c->values, k);

          if (op_is_mine (self, v->producer))
            {
              c->first = MIN (c->first, v->producer);
              c->last = MAX (c->last, v->producer);
            }
          else
            from_outside = TRUE;
          for (guint u = 0; u < v->consumers->len; u++)
            {
              gint ci = (gint) g_array_index (v->consumers, guint, u);
              if (op_is_mine (self, ci))
                {
                  c->first = MIN (c->first, ci);
                  c->last = MAX (c->last, ci);
                }
              else
                to_outside = TRUE;
            }
          if (v->is_network_output)
            to_outside = TRUE;
        }
      if (c->last < c->first)
        c->first = c->last = 0;
      c->segment = from_outside ? ZW_SEGMENT_INPUT : to_outside ? ZW_SEGMENT_OUTPUT : ZW_SEGMENT_FTMP;
      c->eligible = c->segment == ZW_SEGMENT_FTMP;
    }
}

/* Backend.init(view, device): the hardops of @view this chip takes, their chunks and the
 * logic segments. */
gboolean
zg330_backend_init_view (XrtBackend *backend, XirNetworkView *view, XrtDevice *device, GError **error)
{
  Zg330Backend *self = ZG330_BACKEND (backend);
  Zg330BackendClass *klass = ZG330_BACKEND_GET_CLASS (self);
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);
  g_autoptr (GHashTable) by_chunk_id = NULL;
  guint64 woff = 0, ioff = 0;

  CHECK_ARG (view != NULL, "view", FALSE);
  CHECK_ARG (device != NULL, "device", FALSE);
  /* the board's chip as its profile states it (a socket board may be named "haps-zg330") */
  if (!zg330_sim_is_sim (device) || g_ascii_strcasecmp (zg330_sim_get_profile (device)->chip, klass->chip) != 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "device %s: the %s needs a %s device (mock://%s)", xrt_device_get_url (device), bclass->name,
                   klass->chip, klass->device_name);
      return FALSE;
    }
  self->view = xir_network_view_ref (view);
  self->net = xir_network_ref (xir_network_view_get_network (view));
  self->device = xrt_device_ref (device);
  /* the chip's defaults (here, not in the instance init, where a subclass's class is not
   * yet the instance's) */
  self->merge_hardop = klass->default_merge_hardop;
  self->etm_optimize = klass->default_etm_optimize;
  self->ocm_requested = self->ocm_chosen = klass->has_ocm_options ? ZW_OCM_BEST_SCORE : ZW_OCM_NONE;
  by_chunk_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < xir_network_view_get_n_ops (view); i++)
    {
      XirOp *op = xir_network_view_get_op (view, i);
      if (bclass->supports_op (op))
        {
          g_ptr_array_add (self->hardops, op);
          g_hash_table_insert (self->hardop_index, &op->op_id, GUINT_TO_POINTER (self->hardops->len));
        }
    }
  if (self->hardops->len == 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "%s: the network view has no HardOp compiled for %s", xir_network_get_path (self->net),
                   klass->target);
      return FALSE;
    }
  if (klass->compiler_placed)
    klass->placement->find_holders (self);
  self->descs = g_new0 (Zg330HardopDesc, self->hardops->len);
  self->weight_offset = g_new0 (guint64, self->hardops->len);
  self->instr_offset = g_new0 (guint64, self->hardops->len);
  self->instr_size = g_new0 (guint64, self->hardops->len);
  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);

      if (!zg330_hardop_describe (op, &self->descs[i], error))
        {
          g_prefix_error (error, "%s: ", xir_network_get_path (self->net));
          return FALSE;
        }
      for (guint k = 0; k < op->inputs->len; k++)
        if (!add_value (self, by_chunk_id, g_ptr_array_index (op->inputs, k), error))
          return FALSE;
      for (guint k = 0; k < op->outputs->len; k++)
        if (!add_value (self, by_chunk_id, g_ptr_array_index (op->outputs, k), error))
          return FALSE;
      /* WEIGHT: each hardop's params back to back (as the compiler's params chunk holds
       * weights then bias), hardops 64-byte aligned. INSTR: contiguous, so that a merged
       * launch is one instruction range. */
      woff = align_up (woff, WEIGHT_ALIGN);
      self->weight_offset[i] = woff;
      woff += self->descs[i].weight_bytes;
      self->instr_offset[i] = ioff;
      self->instr_size[i] = self->descs[i].instr_bytes;
      ioff += self->descs[i].instr_bytes;
      if (self->descs[i].instr_bytes == 0 && !self->descs[i].zero_copy)
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: op %" G_GINT64_FORMAT " (%s): instr: no instruction words, but the op is not zero-copy: "
                       "the board cannot run it", xir_network_get_path (self->net), op->op_id, op->hard_class);
          return FALSE;
        }
    }
  self->seg_size[ZW_SEGMENT_WEIGHT] = woff;
  self->seg_size[ZW_SEGMENT_INSTR] = ioff;
  classify_chunks (self);
  {
    guint64 in_off = 0, out_off = 0;
    for (guint i = 0; i < self->chunks->len; i++)
      {
        BChunk *c = &g_array_index (self->chunks, BChunk, i);
        if (c->segment == ZW_SEGMENT_INPUT)
          {
            c->seg_offset = in_off;
            in_off = align_up (in_off + c->size, SEGMENT_ALIGN);
          }
        else if (c->segment == ZW_SEGMENT_OUTPUT)
          {
            c->seg_offset = out_off;
            out_off = align_up (out_off + c->size, SEGMENT_ALIGN);
          }
      }
    self->seg_size[ZW_SEGMENT_INPUT] = in_off;
    self->seg_size[ZW_SEGMENT_OUTPUT] = out_off;
  }
  if (klass->compiler_placed && !klass->placement->place (self, error))
    return FALSE;
  return TRUE;
}
