/* buyi-placement.c — the Buyi's placement rules, the hooks (Zg330Placement) the ZG330
 * engine calls for a chip whose compiler placed every value: each value at its
 * "@etm(addr)"/"@ocm(addr)", the segments where the network's tags put them, weights and
 * instructions at their addresses; a concat's inputs held by its output; one launch per
 * hardop and no planning; the placement checked like a recorded plan before deploying. */
#include "backends/buyi/buyi-placement.h"
#include "report/zw-deploy-check.h"

static gboolean
is_placed (const XirValue *v)
{
  return v->mtype.kind == XIR_MEM_ETM || v->mtype.kind == XIR_MEM_OCM;
}

/* A concat's inputs live inside its output: a placed value whose bytes lie inside another
 * placed value of the same memory that lives at the same time is held by the largest such. */
static void
find_holders (Zg330Backend *self)
{
  g_autoptr (GPtrArray) placed = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);
      for (guint side = 0; side < 2; side++)
        {
          GPtrArray *list = side == 0 ? op->inputs : op->outputs;
          for (guint k = 0; k < list->len; k++)
            {
              XirValue *v = g_ptr_array_index (list, k);
              if (is_placed (v) && g_hash_table_add (seen, &v->v_id))
                g_ptr_array_add (placed, v);
            }
        }
    }
  self->alias = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint a = 0; a < placed->len; a++)
    {
      XirValue *v = g_ptr_array_index (placed, a), *best = NULL;
      for (guint b = 0; b < placed->len; b++)
        {
          XirValue *h = g_ptr_array_index (placed, b);
          if (h == v || h->mtype.kind != v->mtype.kind || h->mtype.addr > v->mtype.addr
              || h->mtype.addr + h->storage_bytes < v->mtype.addr + v->storage_bytes
              || h->first_use > v->last_use || v->first_use > h->last_use)
            continue;
          /* the largest holder; of equal ones, the lowest v_id (a twin holds the other) */
          if (h->storage_bytes == v->storage_bytes && h->v_id > v->v_id)
            continue;
          if (best == NULL || h->storage_bytes > best->storage_bytes
              || (h->storage_bytes == best->storage_bytes && h->v_id < best->v_id))
            best = h;
        }
      if (best != NULL)
        g_hash_table_insert (self->alias, &v->v_id, best);
    }
}

static const char *const fixed_segment_tag[ZW_N_SEGMENTS] = {
  [ZW_SEGMENT_WEIGHT] = "params_segment", [ZW_SEGMENT_INSTR] = "instr_segment", [ZW_SEGMENT_FTMP] = "ftmp_segment",
  [ZW_SEGMENT_INPUT] = "input_segment", [ZW_SEGMENT_OUTPUT] = "output_segment",
};

/* The compiler's placement: every segment where the network's tags put it, every value at
 * its @etm/@ocm address (checked to lie inside its segment or OCM), weights and
 * instructions at their addresses. */
static gboolean
place_from_compiler (Zg330Backend *self, GError **error)
{
  const cJSON *tags = xir_network_get_tags (self->net);
  const char *path = xir_network_get_path (self->net);
  guint64 seg_end[ZW_N_SEGMENTS];

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      g_autofree char *akey = g_strdup_printf ("%s_addr", fixed_segment_tag[t]);
      g_autofree char *skey = g_strdup_printf ("%s_bytesize", fixed_segment_tag[t]);
      gint64 addr = 0, size = 0;
      const char *bad = NULL;
      ZwNumStatus st;

      if ((st = zw_json_int64 (cJSON_GetObjectItem (tags, akey), 0, G_MAXUINT32, &addr)) != ZW_NUM_OK)
        bad = akey;
      else if ((st = zw_json_int64 (cJSON_GetObjectItem (tags, skey), 0, G_MAXUINT32, &size)) != ZW_NUM_OK)
        bad = skey;
      if (bad != NULL)
        {
          g_autofree char *why = zw_num_status_describe (st, cJSON_GetObjectItem (tags, bad), 0, G_MAXUINT32);
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: tags.%s: %s (the %s deploys the compiler's placement, which the tags state)", path, bad,
                       why, XRT_BACKEND_GET_CLASS (self)->name);
          return FALSE;
        }
      self->fixed_seg_addr[t] = (guint64) addr;
      self->seg_size[t] = (guint64) size;
      seg_end[t] = (guint64) addr + (guint64) size;
    }
  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      const XirValue *h = g_ptr_array_index (c->values, 0);

      h = placed_holder (self, h);
      if (!is_placed (h))
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: v_id %" G_GINT64_FORMAT ": mtype: the %s needs the compiler's @etm(addr) or @ocm(addr) for "
                       "every value of its hardops", path, h->v_id, XRT_BACKEND_GET_CLASS (self)->name);
          return FALSE;
        }
      c->eligible = FALSE;
      if (h->mtype.kind == XIR_MEM_OCM)
        {
          c->in_ocm = TRUE;
          c->ocm_addr = h->mtype.addr;
          continue;
        }
      if (h->mtype.addr < self->fixed_seg_addr[c->segment] || h->mtype.addr + c->size > seg_end[c->segment])
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                       "%s: v_id %" G_GINT64_FORMAT ": mtype @etm(%" G_GUINT64_FORMAT "), %" G_GUINT64_FORMAT
                       " bytes, lies outside the %s segment [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") of the tags",
                       path, h->v_id, h->mtype.addr, c->size, zw_segment_type_to_string (c->segment),
                       self->fixed_seg_addr[c->segment], seg_end[c->segment]);
          return FALSE;
        }
      c->fixed = TRUE;
      c->seg_offset = h->mtype.addr - self->fixed_seg_addr[c->segment];
    }
  {
    /* what the compiler's FTMP holds, for the report: the sum of its chunks and the most
     * bytes live at once (the liveness lower bound any placement needs) */
    guint last = 0;
    self->ftmp_sum = self->ftmp_lower_bound = 0;
    for (guint i = 0; i < self->chunks->len; i++)
      {
        BChunk *c = &g_array_index (self->chunks, BChunk, i);
        if (c->fixed && c->segment == ZW_SEGMENT_FTMP)
          {
            self->ftmp_sum += c->size;
            last = MAX (last, (guint) MAX (c->last, 0));
          }
      }
    for (guint t = 0; t <= last; t++)
      {
        guint64 live = 0;
        for (guint i = 0; i < self->chunks->len; i++)
          {
            BChunk *c = &g_array_index (self->chunks, BChunk, i);
            if (c->fixed && c->segment == ZW_SEGMENT_FTMP && c->first <= (gint) t && (gint) t <= c->last)
              live += c->size;
          }
        self->ftmp_lower_bound = MAX (self->ftmp_lower_bound, live);
      }
  }
  for (guint i = 0; i < self->hardops->len; i++)
    {
      XirOp *op = g_ptr_array_index (self->hardops, i);
      for (guint side = 0; side < 2; side++)
        {
          GPtrArray *list = side == 0 ? op->params : op->instr;
          ZwSegmentType t = side == 0 ? ZW_SEGMENT_WEIGHT : ZW_SEGMENT_INSTR;
          for (guint k = 0; k < list->len; k++)
            {
              XirValue *p = g_ptr_array_index (list, k);
              if (p->mtype.kind != XIR_MEM_ETM || p->mtype.addr < self->fixed_seg_addr[t]
                  || p->mtype.addr + p->storage_bytes > seg_end[t])
                {
                  g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                               "%s: op %" G_GINT64_FORMAT ": %s v_id %" G_GINT64_FORMAT ": mtype: %s is not inside the "
                               "%s segment of the tags", path, op->op_id, side == 0 ? "params" : "instr", p->v_id,
                               p->mtype.kind == XIR_MEM_ETM ? "its @etm address" : "not an @etm address",
                               zw_segment_type_to_string (t));
                  return FALSE;
                }
            }
          if (list->len > 0)
            {
              guint64 off = ((XirValue *) g_ptr_array_index (list, 0))->mtype.addr - self->fixed_seg_addr[t];
              if (side == 0)
                self->weight_offset[i] = off;
              else
                self->instr_offset[i] = off;
            }
        }
    }
  return TRUE;
}

/* What stands for the plan: one launch per hardop (merge is off), no OCM option, no ETM
 * plan. */
static void
plan_placed (Zg330Backend *self)
{
  zg330_backend_plan_launches (self);
  self->ocm_chosen = ZW_OCM_NONE;
  g_free (self->etm_method);
  self->etm_method = g_strdup ("compiler-placed");
}

/* apply: launches, then the segments at the tags' addresses, checked like any recorded
 * plan before deploying. */
static gboolean
check (Zg330Backend *self, GError **error)
{
  g_autoptr (ZwDeployReport) placement = NULL;
  GError *local = NULL;

  plan_placed (self);
  placement = zg330_backend_get_report (self);
  if (!zw_deploy_report_check (placement, NULL, &local))
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE, "%s: the compiler's placement fails the "
                   "checker: %s", xir_network_get_path (self->net), local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* apply_with_plan: nothing to restore but the compiler's own placement: the plan must state it. */
static gboolean
check_plan (Zg330Backend *self, const ZwDeployReport *plan, GError **error)
{
  g_autoptr (ZwDeployReport) own = zg330_backend_get_report (self);

  for (guint i = 0; i < own->values->len; i++)
    {
      const ZwValueInfo *a = &g_array_index (own->values, ZwValueInfo, i);
      const ZwValueInfo *b = zw_deploy_report_find_value (plan, a->v_id);
      if (b == NULL || b->logic_addr != a->logic_addr || b->is_ocm != a->is_ocm)
        {
          g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE,
                       "the plan puts v_id %" G_GINT64_FORMAT " elsewhere than the compiler of %s did", a->v_id,
                       xir_network_get_path (self->net));
          return FALSE;
        }
    }
  return TRUE;
}

const Zg330Placement buyi_placement = {
  .find_holders = find_holders,
  .place = place_from_compiler,
  .plan = plan_placed,
  .check = check,
  .check_plan = check_plan,
};
