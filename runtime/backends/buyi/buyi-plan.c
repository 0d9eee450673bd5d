/* buyi-plan.c — a Buyi compile's own placement as a deploy report (see buyi-plan.h). */
#include "backends/buyi/buyi-plan.h"

#include "backends/zg330/zg330-hardop.h"
#include "base/zw-checked.h"
#include "devices/zg330-timing.h"
#include "report/zw-deploy-graph.h"
#include "xrt/xrt-mem.h"

#include <string.h>

#define ADDR_MAX G_GINT64_CONSTANT (4294967296)   /* 32-bit ETM addresses */

static const struct {
  ZwSegmentType type;
  const char *tag;
} segment_tags[] = {
  { ZW_SEGMENT_WEIGHT, "params_segment" },
  { ZW_SEGMENT_INSTR, "instr_segment" },
  { ZW_SEGMENT_FTMP, "ftmp_segment" },
  { ZW_SEGMENT_INPUT, "input_segment" },
  { ZW_SEGMENT_OUTPUT, "output_segment" },
};

/* One placed value (a real one owns a chunk; a fake one lives in its root's). */
typedef struct {
  XirValue *v;
  ZwSegmentType segment;
  gboolean ocm;
  gint64 fake_from;   /* v_id of the concat output it lives in, -1 */
  gint chunk;         /* index into the chunk list */
} Placed;

typedef struct {
  const XirValue *root;
  gint first, last;
  GArray *v_ids;
} Chunk;

static gboolean
read_tag (const char *file, const cJSON *tags, const char *key, guint64 *out, GError **error)
{
  const cJSON *item = tags ? cJSON_GetObjectItemCaseSensitive (tags, key) : NULL;
  gint64 v = 0;
  ZwNumStatus st = zw_json_int64 (item, 0, ADDR_MAX, &v);

  if (st != ZW_NUM_OK)
    {
      g_autofree char *why = zw_num_status_describe (st, item, 0, (double) ADDR_MAX);
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "%s: tags: field '%s': %s", file, key, why);
      return FALSE;
    }
  *out = (guint64) v;
  return TRUE;
}

static const XirValue *
root_of (GHashTable *fake_of, const XirValue *v)
{
  const XirValue *r;
  guint guard = 0;

  while ((r = g_hash_table_lookup (fake_of, v)) != NULL && guard++ < 1000000)
    v = r;
  return v;
}

static void
chunk_clear (gpointer p)
{
  Chunk *c = p;
  g_clear_pointer (&c->v_ids, g_array_unref);
}

/* Where a value lives, checked against the segments and the OCM. */
static gboolean
place_value (const char *file, const XirOp *op, const char *field, XirValue *v, const ZwDeployReport *r,
             guint64 ocm_bytes, Placed *p, GError **error)
{
  memset (p, 0, sizeof *p);
  p->v = v;
  p->fake_from = -1;
  p->chunk = -1;
  switch (v->mtype.kind)
    {
    case XIR_MEM_OCM:
      if (!zw_range_inside (v->mtype.addr, v->storage_bytes, 0, ocm_bytes))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                       "%s: op %" G_GINT64_FORMAT ": %s: v_id %" G_GINT64_FORMAT ": mtype @ocm(%" G_GUINT64_FORMAT
                       ") + %" G_GUINT64_FORMAT " bytes is past the Buyi OCM's %" G_GUINT64_FORMAT " bytes",
                       file, op->op_id, field, v->v_id, v->mtype.addr, v->storage_bytes, ocm_bytes);
          return FALSE;
        }
      p->ocm = TRUE;
      p->segment = ZW_SEGMENT_FTMP;
      return TRUE;
    case XIR_MEM_ETM:
      {
        static const ZwSegmentType homes[] = { ZW_SEGMENT_INPUT, ZW_SEGMENT_OUTPUT, ZW_SEGMENT_FTMP };
        for (guint i = 0; i < G_N_ELEMENTS (homes); i++)
          {
            const ZwSegmentInfo *s = &r->segments[homes[i]];
            if (zw_range_inside (v->mtype.addr, v->storage_bytes, s->logic_addr, s->byte_size))
              {
                p->segment = homes[i];
                return TRUE;
              }
          }
        g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                     "%s: op %" G_GINT64_FORMAT ": %s: v_id %" G_GINT64_FORMAT ": mtype @etm(%" G_GUINT64_FORMAT
                     ") + %" G_GUINT64_FORMAT " bytes is in none of the INPUT, OUTPUT and FTMP segments of the "
                     "network's tags", file, op->op_id, field, v->v_id, v->mtype.addr, v->storage_bytes);
        return FALSE;
      }
    case XIR_MEM_HOST:
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: op %" G_GINT64_FORMAT ": %s: v_id %" G_GINT64_FORMAT ": mtype @hostm: a value a hardop "
                   "reads or writes needs an @etm or @ocm address", file, op->op_id, field, v->v_id);
      return FALSE;
    case XIR_MEM_CHUNK:
    default:
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: op %" G_GINT64_FORMAT ": %s: v_id %" G_GINT64_FORMAT ": mtype @chunk(%" G_GINT64_FORMAT
                   "@%" G_GUINT64_FORMAT "): the compiler did not place this value (a ZG330 compile?); a Buyi "
                   "plan needs @etm or @ocm addresses", file, op->op_id, field, v->v_id, v->mtype.chunk_id,
                   v->mtype.offset);
      return FALSE;
    }
}

/* Weights or instructions of a hardop: @etm addresses inside their segment.  Returns the
 * lowest address and the bytes of all. */
static gboolean
place_params (const char *file, const XirOp *op, GPtrArray *list, const char *field, const ZwSegmentInfo *seg,
              guint64 *addr, guint64 *bytes, GError **error)
{
  *addr = 0;
  *bytes = 0;
  for (guint i = 0; i < list->len; i++)
    {
      const XirValue *p = g_ptr_array_index (list, i);
      if (p->mtype.kind != XIR_MEM_ETM)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                       "%s: op %" G_GINT64_FORMAT ": %s[%u]: v_id %" G_GINT64_FORMAT ": mtype %s: the board reads "
                       "%s from an @etm address", file, op->op_id, field, i, p->v_id,
                       xir_mem_kind_to_string (p->mtype.kind), field);
          return FALSE;
        }
      if (!zw_range_inside (p->mtype.addr, p->storage_bytes, seg->logic_addr, seg->byte_size))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                       "%s: op %" G_GINT64_FORMAT ": %s[%u]: v_id %" G_GINT64_FORMAT ": mtype @etm(%" G_GUINT64_FORMAT
                       ") + %" G_GUINT64_FORMAT " bytes is outside the %s segment [%" G_GUINT64_FORMAT ", +%"
                       G_GUINT64_FORMAT ") of the network's tags", file, op->op_id, field, i, p->v_id, p->mtype.addr,
                       p->storage_bytes, zw_segment_type_to_string (seg->type), seg->logic_addr, seg->byte_size);
          return FALSE;
        }
      if (i == 0 || p->mtype.addr < *addr)
        *addr = p->mtype.addr;
      *bytes += p->storage_bytes;
    }
  return TRUE;
}

ZwDeployReport *
buyi_plan_from_network (XirNetworkView *view, GError **error)
{
  g_autoptr (ZwDeployReport) r = NULL;
  g_autoptr (Zg330Profile) profile = NULL;
  g_autoptr (GHashTable) placed_of = g_hash_table_new (NULL, NULL);   /* XirValue* -> index + 1 */
  g_autoptr (GHashTable) fake_of = g_hash_table_new (NULL, NULL);     /* XirValue* -> its concat output */
  g_autoptr (GArray) placed = g_array_new (FALSE, TRUE, sizeof (Placed));
  g_autoptr (GArray) chunks = g_array_new (FALSE, TRUE, sizeof (Chunk));
  g_autofree Zg330HardopDesc *descs = NULL;
  XirNetwork *net;
  const char *file;
  const cJSON *tags;
  guint start, n_view, n_hard = 0;
  guint cumulative = 0;

  if (view == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "buyi_plan_from_network: view is NULL");
      return NULL;
    }
  net = xir_network_view_get_network (view);
  file = xir_network_get_path (net);
  tags = xir_network_get_tags (net);
  start = xir_network_view_get_start (view);
  n_view = xir_network_view_get_n_ops (view);
  if ((profile = zg330_profile_load_named ("buyi", error)) == NULL)
    return NULL;
  g_array_set_clear_func (chunks, chunk_clear);

  r = zw_deploy_report_new ();
  r->network_name = g_strdup (xir_network_get_name (net));
  r->network_path = g_strdup (file);
  r->n_ops = xir_network_get_n_ops (net);
  r->max_op_id = xir_network_get_max_op_id (net);
  r->device_url = g_strdup ("mock://buyi");
  r->ocm_bytes = profile->ocm_bytes;
  r->etm_bandwidth = profile->etm_bandwidth;
  r->ocm_bandwidth = profile->ocm_bandwidth;
  r->icore_clock_hz = profile->icore_clock_hz;
  r->merge_hardop = FALSE;
  r->etm_optimize = FALSE;
  r->ocm_requested = ZW_OCM_NONE;
  r->ocm_chosen = ZW_OCM_NONE;
  r->ocm_capacity = profile->ocm_bytes;
  r->etm_method = g_strdup ("compiler");

  /* Segments: the tags, as the compiler wrote them (logic = phy: nothing moves). */
  for (guint i = 0; i < G_N_ELEMENTS (segment_tags); i++)
    {
      ZwSegmentInfo *s = &r->segments[segment_tags[i].type];
      g_autofree char *addr_key = g_strdup_printf ("%s_addr", segment_tags[i].tag);
      g_autofree char *size_key = g_strdup_printf ("%s_bytesize", segment_tags[i].tag);

      s->type = segment_tags[i].type;
      if (!read_tag (file, tags, addr_key, &s->logic_addr, error)
          || !read_tag (file, tags, size_key, &s->byte_size, error))
        return NULL;
      if (s->logic_addr + s->byte_size > (guint64) ADDR_MAX)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                       "%s: tags: field '%s': %" G_GUINT64_FORMAT " + %s %" G_GUINT64_FORMAT
                       " is past the 32-bit ETM address space", file, addr_key, s->logic_addr, size_key,
                       s->byte_size);
          return NULL;
        }
      s->phy_addr = s->logic_addr;
      s->phy_size = s->byte_size;
    }

  /* Describe every hardop (the same models the board runs); zero-copy concats (the kinds
   * with fake_inputs) make their inputs fake values inside their output. */
  descs = g_new0 (Zg330HardopDesc, MAX (n_view, 1));
  for (guint i = 0; i < n_view; i++)
    {
      XirOp *op = xir_network_view_get_op (view, i);
      if (op->kind != XIR_OP_HARDOP)
        continue;
      if (!zg330_hardop_describe (op, &descs[i], error))
        {
          g_prefix_error (error, "%s: ", file);
          return NULL;
        }
      n_hard++;
      if (descs[i].zero_copy && zg330_hardop_class_get (descs[i].kind)->fake_inputs)
        for (guint k = 0; k < op->inputs->len; k++)
          g_hash_table_insert (fake_of, g_ptr_array_index (op->inputs, k), g_ptr_array_index (op->outputs, 0));
    }

  /* Values: those the view's ops read or write, in order of first appearance. */
  for (guint i = 0; i < n_view; i++)
    {
      XirOp *op = xir_network_view_get_op (view, i);
      for (guint side = 0; side < 2; side++)
        {
          GPtrArray *list = side == 0 ? op->inputs : op->outputs;
          for (guint k = 0; k < list->len; k++)
            {
              XirValue *v = g_ptr_array_index (list, k);
              g_autofree char *field = g_strdup_printf ("%s[%u]", side == 0 ? "inputs" : "outputs", k);
              Placed p;

              if (g_hash_table_contains (placed_of, v))
                continue;
              /* host values stay off the board unless a hardop needs them there */
              if (v->mtype.kind == XIR_MEM_HOST && op->kind != XIR_OP_HARDOP)
                continue;
              if (!place_value (file, op, field, v, r, profile->ocm_bytes, &p, error))
                return NULL;
              g_array_append_val (placed, p);
              g_hash_table_insert (placed_of, v, GUINT_TO_POINTER (placed->len));
            }
        }
    }

  /* Chunks: one per real value; fakes join their root's. */
  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);
      const XirValue *root = root_of (fake_of, p->v);
      guint ri = GPOINTER_TO_UINT (g_hash_table_lookup (placed_of, root));

      if (root != p->v && ri != 0)
        {
          const Placed *rp = &g_array_index (placed, Placed, ri - 1);
          if (rp->v->mtype.kind != p->v->mtype.kind || p->v->mtype.addr < rp->v->mtype.addr
              || !zw_range_inside (p->v->mtype.addr, p->v->storage_bytes, rp->v->mtype.addr, rp->v->storage_bytes))
            {
              g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                           "%s: v_id %" G_GINT64_FORMAT ": mtype: a zero-copy concat input that is not inside its "
                           "output v_id %" G_GINT64_FORMAT, file, p->v->v_id, root->v_id);
              return NULL;
            }
          p->fake_from = root->v_id;
        }
    }
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < placed->len; i++)
      {
        Placed *p = &g_array_index (placed, Placed, i);
        Chunk *c;

        if ((pass == 0) != (p->fake_from == -1))
          continue;
        if (pass == 0)
          {
            Chunk nc = { p->v, p->v->first_use, p->v->last_use, g_array_new (FALSE, FALSE, sizeof (gint64)) };
            g_array_append_val (chunks, nc);
            p->chunk = (gint) chunks->len - 1;
          }
        else
          {
            const XirValue *root = root_of (fake_of, p->v);
            p->chunk = g_array_index (placed, Placed, GPOINTER_TO_UINT (g_hash_table_lookup (placed_of, root)) - 1).chunk;
          }
        c = &g_array_index (chunks, Chunk, p->chunk);
        c->first = MIN (c->first, p->v->first_use);
        c->last = MAX (c->last, p->v->last_use);
        g_array_append_val (c->v_ids, p->v->v_id);
      }

  for (guint i = 0; i < placed->len; i++)
    {
      const Placed *p = &g_array_index (placed, Placed, i);
      const XirValue *v = p->v;
      const Chunk *c = &g_array_index (chunks, Chunk, p->chunk);
      ZwValueInfo vi;

      zw_value_info_init_from_value (&vi, net, v);
      vi.segment = p->segment;
      vi.real = p->fake_from == -1;
      vi.fake_from = p->fake_from;
      if (vi.real)
        for (guint k = 0; k < placed->len; k++)
          {
            const Placed *o = &g_array_index (placed, Placed, k);
            if (o->fake_from == v->v_id)
              g_array_append_val (vi.real_to, o->v->v_id);
          }
      vi.is_ocm = p->ocm;
      vi.is_host = FALSE;
      vi.logic_addr = v->mtype.addr;
      vi.phy_addr = v->mtype.addr;
      vi.chunk = p->chunk;
      vi.chunk_offset = v->mtype.addr - c->root->mtype.addr;
      g_array_append_val (r->values, vi);
    }

  /* FTMP chunks (in ETM or OCM) and the liveness figures of the ETM ones. */
  {
    g_autofree guint64 *live = g_new0 (guint64, MAX (r->n_ops, 1));
    for (guint i = 0; i < chunks->len; i++)
      {
        const Chunk *c = &g_array_index (chunks, Chunk, i);
        guint pi = GPOINTER_TO_UINT (g_hash_table_lookup (placed_of, c->root)) - 1;
        const Placed *p = &g_array_index (placed, Placed, pi);
        ZwChunkInfo ci;

        if (p->segment != ZW_SEGMENT_FTMP)
          continue;
        zw_chunk_info_init (&ci);
        ci.id = i;
        ci.size = c->root->storage_bytes;
        ci.first = c->first;
        ci.last = c->last;
        ci.in_ocm = p->ocm;
        ci.ocm_addr = p->ocm ? c->root->mtype.addr : G_MAXUINT64;
        ci.ftmp_offset = p->ocm ? 0 : c->root->mtype.addr - r->segments[ZW_SEGMENT_FTMP].logic_addr;
        ci.eligible = p->ocm;
        g_array_append_vals (ci.v_ids, c->v_ids->data, c->v_ids->len);
        g_array_append_val (r->chunks, ci);
        if (!p->ocm)
          {
            r->sum_of_chunks += ci.size;
            for (gint t = MAX (c->first, 0); t <= c->last && t < (gint) r->n_ops; t++)
              live[t] += ci.size;
          }
      }
    for (guint t = 0; t < r->n_ops; t++)
      r->lower_bound = MAX (r->lower_bound, live[t]);
    r->ftmp_bytes = r->segments[ZW_SEGMENT_FTMP].byte_size;
  }

  /* Ops, hardops and their launches (merge off: one launch per hardop). */
  {
    g_autoptr (GHashTable) launch_of = g_hash_table_new (g_int64_hash, g_int64_equal);
    for (guint i = 0; i < n_view; i++)
      {
        XirOp *op = xir_network_view_get_op (view, i);
        ZwLaunch zl;
        ZwHardOpInfo h;
        Zg330OpWork work;
        g_autofree gboolean *in_ocm = NULL, *out_ocm = NULL;

        if (op->kind != XIR_OP_HARDOP)
          continue;
        zw_launch_init (&zl);
        zl.op_id = op->op_id;
        g_array_append_val (zl.merge_from, op->op_id);
        zl.layer_count = (guint) MAX (op->layer_count, 0);
        zl.first = zl.last = (gint) op->index;
        g_array_append_val (r->launches, zl);
        g_hash_table_insert (launch_of, &op->op_id, GUINT_TO_POINTER (r->launches->len));

        zw_hardop_info_init (&h);
        h.op_id = op->op_id;
        if (!place_params (file, op, op->params, "params", &r->segments[ZW_SEGMENT_WEIGHT], &h.weights_logic_addr,
                           &h.weights_size, error)
            || !place_params (file, op, op->instr, "instr", &r->segments[ZW_SEGMENT_INSTR], &h.instr_logic_addr,
                              &h.instr_size, error))
          return NULL;
        h.weights_phy_addr = h.weights_logic_addr;
        h.instr_phy_addr = h.instr_logic_addr;
        cumulative += (guint) MAX (op->layer_count, 0);
        h.sync_idx[0] = (gint) r->launches->len - 1;
        h.sync_idx[1] = (gint) cumulative;
        h.merged_into = -1;
        in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1));
        out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1));
        for (guint k = 0; k < op->inputs->len; k++)
          in_ocm[k] = ((XirValue *) g_ptr_array_index (op->inputs, k))->mtype.kind == XIR_MEM_OCM;
        for (guint k = 0; k < op->outputs->len; k++)
          out_ocm[k] = ((XirValue *) g_ptr_array_index (op->outputs, k))->mtype.kind == XIR_MEM_OCM;
        zg330_hardop_work (&descs[i], in_ocm, out_ocm, &work);
        h.est_ms = descs[i].zero_copy ? 0.0
                   : zg330_timing_cycles_to_ms (profile, zg330_timing_op_cycles (profile, &work));
        r->none_cost_ms += h.est_ms;
        g_array_append_val (r->hardops, h);
      }
    for (guint i = 0; i < r->n_ops; i++)
      {
        XirOp *op = xir_network_get_op (net, i);
        ZwOpInfo info = { 0 };
        gboolean mine = i >= start && i < start + n_view && op->kind == XIR_OP_HARDOP;

        info.op_id = op->op_id;
        info.index = i;
        info.kind = g_strdup (op->kind == XIR_OP_HARDOP || op->kind == XIR_OP_INPUT || op->kind == XIR_OP_OUTPUT
                                ? xir_op_kind_to_string (op->kind) : op->type_key);
        info.op_class = g_strdup (op->hard_class ? op->hard_class : info.kind);
        info.backend = g_strdup (mine ? "Buyi" : "Host");
        info.layer_count = op->layer_count;
        info.launch = mine ? (gint) GPOINTER_TO_UINT (g_hash_table_lookup (launch_of, &op->op_id)) - 1 : -1;
        g_array_append_val (r->ops, info);
      }
  }
  (void) n_hard;
  return g_steal_pointer (&r);
}
