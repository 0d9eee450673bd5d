/* zg330-backend-report.c — the ZG330Backend's deploy report (every placement fact, before
 * or after apply) and log(), which writes it as text and JSON. */
#include "backends/zg330/zg330-backend-private.h"
#include "backends/zg330/zg330-hardop.h"
#include "base/zw-file.h"
#include "report/zw-deploy-graph.h"
#include "devices/zg330-sim.h"

#include <errno.h>
#include <glib/gstdio.h>

static gint
cmp_int64_ptr (const gint64 *a, const gint64 *b)
{
  return (*a > *b) - (*a < *b);
}

static const XirValue *
container_of (Zg330Backend *self, const BChunk *c, const XirValue *v)
{
  const XirValue *best = v;
  guint64 voff = value_offset (self, v);

  for (guint k = 0; k < c->values->len; k++)
    {
      const XirValue *o = g_ptr_array_index (c->values, k);
      guint64 ooff = value_offset (self, o);
      guint64 boff = value_offset (self, best);
      if (o != v && ooff <= voff && ooff + o->storage_bytes >= voff + v->storage_bytes
          && (o->storage_bytes > best->storage_bytes || (o->storage_bytes == best->storage_bytes && ooff < boff && best == v)))
        best = o;
    }
  /* equal-sized twins: the first listed is the real one */
  if (best != v && best->storage_bytes == v->storage_bytes)
    for (guint k = 0; k < c->values->len; k++)
      {
        const XirValue *o = g_ptr_array_index (c->values, k);
        if (o == v)
          return v;
        if (o == best)
          break;
      }
  return best;
}

ZwDeployReport *
zg330_backend_get_report (Zg330Backend *self)
{
  ZwDeployReport *r;
  const Zg330Profile *profile;

  r = zw_deploy_report_new ();
  profile = zg330_sim_get_profile (self->device);
  guint64 seg_base[ZW_N_SEGMENTS];
  guint64 base = 0;
  g_autoptr (GHashTable) launch_of = g_hash_table_new (g_int64_hash, g_int64_equal);

  r->network_name = g_strdup (xir_network_get_name (self->net));
  r->network_path = g_strdup (xir_network_get_path (self->net));
  r->n_ops = xir_network_get_n_ops (self->net);
  r->max_op_id = xir_network_get_max_op_id (self->net);
  r->device_url = g_strdup (xrt_device_get_url (self->device));
  r->ocm_bytes = profile->ocm_bytes;
  r->etm_bandwidth = profile->etm_bandwidth;
  r->ocm_bandwidth = profile->ocm_bandwidth;
  r->icore_clock_hz = profile->icore_clock_hz;
  r->merge_hardop = self->merge_hardop;
  r->etm_optimize = self->etm_optimize;
  r->ocm_requested = self->ocm_requested;
  /* the option the plan used: Best score's pick once OCM was planned (a plan reports it as an
   * apply does), the option asked for before */
  r->ocm_chosen = self->ocm_chosen;

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      if (ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
        base = self->fixed_seg_addr[t];   /* the compiler's layout: logic = physical */
      seg_base[t] = base;
      r->segments[t].logic_addr = base;
      r->segments[t].byte_size = self->seg_size[t];
      base = align_up (base + self->seg_size[t], SEGMENT_ALIGN);
      if (self->applied && self->phy[t] != NULL)
        {
          r->segments[t].phy_addr = xrt_mem_chunk_get_addr (self->phy[t]);
          r->segments[t].phy_size = xrt_mem_chunk_get_size (self->phy[t]);
          r->segments[t].user_used = self->user_segment[t] != NULL;
        }
    }
  /* INPUT and OUTPUT are one ETM chunk per value chunk (multi_chunk): the phy segment is
   * summarised by the lowest address and the bytes of its chunks. */
  for (guint i = 0; self->applied && i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      ZwSegmentInfo *seg = &r->segments[c->segment];

      if (c->io_chunk == NULL)
        continue;
      if (seg->phy_size == 0 || xrt_mem_chunk_get_addr (c->io_chunk) < seg->phy_addr)
        seg->phy_addr = xrt_mem_chunk_get_addr (c->io_chunk);
      seg->phy_size += xrt_mem_chunk_get_size (c->io_chunk);
      seg->user_used |= c->io_user;
    }

  for (guint i = 0; i < self->launches->len; i++)
    {
      BLaunch *l = &g_array_index (self->launches, BLaunch, i);
      ZwLaunch zl;
      zw_launch_init (&zl);
      zl.op_id = l->op_id;
      g_array_append_vals (zl.merge_from, l->merge_from->data, l->merge_from->len);
      zl.layer_count = l->layer_count;
      zl.first = (gint) ((XirOp *) g_ptr_array_index (self->hardops, l->first))->index;
      zl.last = (gint) ((XirOp *) g_ptr_array_index (self->hardops, l->last))->index;
      g_array_append_val (r->launches, zl);
      for (guint k = l->first; k <= l->last; k++)
        g_hash_table_insert (launch_of, &((XirOp *) g_ptr_array_index (self->hardops, k))->op_id, GUINT_TO_POINTER (i + 1));
    }

  for (guint i = 0; i < xir_network_get_n_ops (self->net); i++)
    {
      XirOp *op = xir_network_get_op (self->net, i);
      ZwOpInfo info = { 0 };
      gboolean mine = zg330_backend_owns_op (self, op->op_id);

      info.op_id = op->op_id;
      info.index = i;
      info.kind = g_strdup (op->kind == XIR_OP_HARDOP || op->kind == XIR_OP_INPUT || op->kind == XIR_OP_OUTPUT
                                ? xir_op_kind_to_string (op->kind) : op->type_key);
      info.op_class = g_strdup (op->hard_class ? op->hard_class : info.kind);
      info.backend = g_strdup (mine ? XRT_BACKEND_GET_CLASS (self)->short_name : "Host");
      info.layer_count = op->layer_count;
      info.launch = mine ? (gint) GPOINTER_TO_UINT (g_hash_table_lookup (launch_of, &op->op_id)) - 1 : -1;
      g_array_append_val (r->ops, info);
    }

  {
    guint cumulative = 0;
    for (guint i = 0; i < self->hardops->len; i++)
      {
        XirOp *op = g_ptr_array_index (self->hardops, i);
        ZwHardOpInfo h;
        gint launch = (gint) GPOINTER_TO_UINT (g_hash_table_lookup (launch_of, &op->op_id)) - 1;

        zw_hardop_info_init (&h);
        h.op_id = op->op_id;
        h.weights_logic_addr = seg_base[ZW_SEGMENT_WEIGHT] + self->weight_offset[i];
        h.weights_size = self->descs[i].weight_bytes;
        h.instr_logic_addr = seg_base[ZW_SEGMENT_INSTR] + self->instr_offset[i];
        h.instr_size = self->instr_size[i];
        if (self->applied)
          {
            h.weights_phy_addr = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_WEIGHT]) + self->weight_offset[i];
            h.instr_phy_addr = xrt_mem_chunk_get_addr (self->phy[ZW_SEGMENT_INSTR]) + self->instr_offset[i];
          }
        cumulative += (guint) MAX (op->layer_count, 0);
        {
          /* the estimator's view of the op: its values where the plan put them */
          g_autofree gboolean *in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1));
          g_autofree gboolean *out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1));
          Zg330OpWork work;

          for (guint k = 0; k < op->inputs->len; k++)
            {
              BChunk *c = chunk_for_value (self, g_ptr_array_index (op->inputs, k));
              in_ocm[k] = c != NULL && c->in_ocm;
            }
          for (guint k = 0; k < op->outputs->len; k++)
            {
              BChunk *c = chunk_for_value (self, g_ptr_array_index (op->outputs, k));
              out_ocm[k] = c != NULL && c->in_ocm;
            }
          zg330_hardop_work (&self->descs[i], in_ocm, out_ocm, &work);
          h.est_ms = self->descs[i].zero_copy ? 0.0
                     : zg330_timing_cycles_to_ms (profile, zg330_timing_op_cycles (profile, &work));
          /* the bytes behind that time, for the memory traffic views */
          h.has_traffic = TRUE;
          h.etm_read_bytes = work.etm_read_bytes;
          h.etm_write_bytes = work.etm_write_bytes;
          h.ocm_read_bytes = work.ocm_read_bytes;
          h.ocm_write_bytes = work.ocm_write_bytes;
        }
        h.sync_idx[0] = launch;
        h.sync_idx[1] = (gint) cumulative;
        if (launch >= 0)
          {
            BLaunch *l = &g_array_index (self->launches, BLaunch, launch);
            if (l->merge_from->len > 1)
              h.merged_into = l->op_id;
          }
        g_array_append_val (r->hardops, h);
      }
  }

  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      ZwChunkInfo ci;

      zw_chunk_info_init (&ci);
      ci.id = c->id;
      ci.size = c->size;
      ci.first = c->first;
      ci.last = c->last;
      ci.ftmp_offset = c->seg_offset;
      ci.in_ocm = c->in_ocm;
      ci.ocm_addr = c->ocm_addr;
      ci.eligible = c->eligible;
      for (guint k = 0; k < c->values->len; k++)
        g_array_append_val (ci.v_ids, ((XirValue *) g_ptr_array_index (c->values, k))->v_id);
      if (c->segment == ZW_SEGMENT_FTMP)
        g_array_append_val (r->chunks, ci);
      else
        g_array_unref (ci.v_ids);

      for (guint k = 0; k < c->values->len; k++)
        {
          XirValue *v = g_ptr_array_index (c->values, k);
          const XirValue *real = container_of (self, c, v);
          ZwValueInfo vi;
          guint64 off = value_offset (self, v);
          Zg330Place place;

          zw_value_info_init_from_value (&vi, self->net, v);
          vi.segment = c->segment;
          vi.real = real == v;
          vi.fake_from = real == v ? -1 : real->v_id;
          if (real == v)
            for (guint u = 0; u < c->values->len; u++)
              {
                XirValue *o = g_ptr_array_index (c->values, u);
                if (o != v && container_of (self, c, o) == v)
                  g_array_append_val (vi.real_to, o->v_id);
              }
          vi.is_ocm = c->in_ocm;
          vi.is_host = FALSE;
          vi.chunk = c->id;
          vi.chunk_offset = off;
          vi.logic_addr = c->in_ocm ? c->ocm_addr + off
                          : seg_base[c->segment] + c->seg_offset + off;
          if (self->applied && zg330_backend_value_place (self, v, &place))
            vi.phy_addr = place.addr;
          g_array_append_val (r->values, vi);
        }
    }

  {
    /* userConnectNetwork, by v_id: zero-copy or staged (decided at apply) */
    g_autoptr (GList) ids = g_hash_table_get_keys (self->user_connect);
    ids = g_list_sort (ids, (GCompareFunc) cmp_int64_ptr);
    for (GList *l = ids; l != NULL; l = l->next)
      {
        Connection *cn = g_hash_table_lookup (self->user_connect, l->data);
        XirValue *v = xir_network_get_value (self->net, cn->v_id);
        BChunk *c = chunk_for_value (self, v);
        ZwConnectionInfo ci = { 0 };
        Zg330Place home;

        ci.v_id = cn->v_id;
        ci.segment = c->segment;
        ci.staged = cn->staged;
        ci.user_addr = xrt_mem_chunk_get_addr (cn->chunk);
        ci.user_size = xrt_mem_chunk_get_size (cn->chunk);
        ci.byte_size = v->storage_bytes;
        ci.chunk = v->mtype.kind == XIR_MEM_CHUNK ? v->mtype.chunk_id : -1;   /* the compiler's id */
        ci.chunk_offset = value_offset (self, v);
        if (self->applied && zg330_backend_value_place (self, v, &home))
          ci.home_addr = home.addr;
        g_array_append_val (r->connections, ci);
      }
  }
  r->ftmp_bytes = self->seg_size[ZW_SEGMENT_FTMP];
  r->lower_bound = self->ftmp_lower_bound;
  r->sum_of_chunks = self->ftmp_sum;
  r->etm_method = g_strdup (self->etm_method ? self->etm_method : "");
  r->etm_seconds = self->etm_seconds;
  r->etm_work = self->etm_work;
  r->etm_work_budget = self->etm_work_budget;
  r->etm_time_limit_hit = self->etm_time_limit_hit;
  r->ocm_capacity = profile->ocm_bytes;
  r->none_cost_ms = self->none_cost_ms;
  zg330_backend_options_complete (self);
  g_autoptr (GHashTable) size_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint c = self->chunks->len; c-- > 0;)   /* the first chunk of an id wins, as a scan finds it */
    g_hash_table_insert (size_of, &g_array_index (self->chunks, BChunk, c).id,
                         &g_array_index (self->chunks, BChunk, c).size);
  for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
    if (self->option_picks[opt] != NULL)
      {
        ZwOcmOptionResult o;
        zw_ocm_option_result_init (&o);
        o.option = opt;
        o.cost_ms = self->option_cost_ms[opt];
        o.peak_bytes = self->option_peak[opt];
        for (guint k = 0; k < self->option_picks[opt]->len; k++)
          {
            const guint64 *size = g_hash_table_lookup (size_of, &g_array_index (self->option_picks[opt], gint64, k));
            if (size != NULL)
              o.bytes += *size;
          }
        g_array_append_vals (o.picks, self->option_picks[opt]->data, self->option_picks[opt]->len);
        g_array_append_val (r->ocm_options, o);
      }
  return r;
}

gboolean
zg330_backend_log (Zg330Backend *self, const char *dir, char **json_path, GError **error)
{
  g_autoptr (ZwDeployReport) report = NULL;
  g_autofree char *logdir = NULL, *base = NULL, *text_path = NULL, *jpath = NULL, *text = NULL;
  GError *local = NULL;

  CHECK_ARG (self != NULL, "backend", FALSE);
  if (!zg330_backend_after_apply (self, "log", error))
    return FALSE;
  if (dir != NULL)
    logdir = g_strdup (dir);
  else
    {
      g_autofree char *cwd = g_get_current_dir ();
      logdir = g_build_filename (cwd, ".icraft", "logs", NULL);
    }
  if (g_mkdir_with_parents (logdir, 0755) != 0)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_IO, "%s: cannot create the log folder: %s", logdir,
                   g_strerror (errno));
      return FALSE;
    }
  {
    /* the network's name comes from its file: a file name in the log folder, never a path */
    g_autofree char *name = zw_file_safe_name (xir_network_get_name (self->net));
    base = g_strdup_printf ("%s_zg330_%d", name, self->id);
  }
  text_path = g_strdup_printf ("%s/%s.log", logdir, base);
  jpath = g_strdup_printf ("%s/%s.json", logdir, base);
  report = zg330_backend_get_report (self);
  /* a log opens on its own in the workbench, Graph view included */
  zw_deploy_report_attach_network (report, self->net);
  text = zw_deploy_report_to_text (report);
  if (!zw_file_set_contents (text_path, text, -1, &local))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_IO, "%s: %s", text_path, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (!zw_deploy_report_save (report, jpath, error))
    return FALSE;
  if (json_path)
    *json_path = g_steal_pointer (&jpath);
  return TRUE;
}
