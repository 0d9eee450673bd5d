/* zg330-backend-plan.c — the ZG330Backend's plan, before anything reaches the board: the
 * launches (the merge of consecutive hardops), the OCM option (every planner's picks and
 * cost kept for the report) and the FTMP offsets of the chunks that stay in ETM. */
#include "backends/zg330/zg330-backend-private.h"
#include "backends/zg330/zg330-etm-plan.h"
#include "backends/zg330/zg330-hardop.h"
#include "backends/zg330/zg330-ocm-plan.h"
#include "devices/zg330-sim.h"

#include <string.h>

/* The FTMP plan's work budget (the ETM planner's work units, about a quarter of a second
 * of one core): counted, not timed, so one network and one set of options give one plan
 * on any machine at any load. */
#define ETM_PLAN_WORK G_GUINT64_CONSTANT (250000000)

void
zg330_backend_plan_launches (Zg330Backend *self)
{
  gint64 next_id = xir_network_get_max_op_id (self->net) + 1;
  guint layers = 0;

  g_array_set_size (self->launches, 0);
  for (guint i = 0; i < self->hardops->len;)
    {
      BLaunch l = { 0 };
      guint j = i;

      if (self->merge_hardop)
        {
          /* consecutive in the network: no op of another backend in between */
          while (j + 1 < self->hardops->len
                 && ((XirOp *) g_ptr_array_index (self->hardops, j + 1))->index
                        == ((XirOp *) g_ptr_array_index (self->hardops, j))->index + 1)
            j++;
        }
      else if (self->instr_size[i] == 0)
        {
          i++;   /* a zero-copy op with no instructions is not launched on its own */
          continue;
        }
      l.first = i;
      l.last = j;
      l.merge_from = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint k = i; k <= j; k++)
        {
          XirOp *op = g_ptr_array_index (self->hardops, k);
          g_array_append_val (l.merge_from, op->op_id);
          l.layer_count += (guint) MAX (op->layer_count, 0);
          l.instr_size += self->instr_size[k];
        }
      l.instr_offset = self->instr_offset[i];
      l.op_id = j > i ? next_id++ : ((XirOp *) g_ptr_array_index (self->hardops, i))->op_id;
      layers += l.layer_count;
      if (l.instr_size > 0)
        g_array_append_val (self->launches, l);
      else
        g_array_unref (l.merge_from);
      i = j + 1;
    }
  (void) layers;
}

static Zg330OcmProblem *
build_ocm_problem (Zg330Backend *self, guint **chunk_of_ocm)
{
  const Zg330Profile *profile = zg330_sim_get_profile (self->device);
  Zg330OcmProblem *p = zg330_ocm_problem_new (profile);
  g_autofree guint *map = g_new0 (guint, self->chunks->len);

  p->merged = self->merge_hardop;
  /* The problem's op indices count only the hardops that do work: map network indices. */
  {
    guint n_net = xir_network_get_n_ops (self->net);
    g_autofree guint *before = g_new0 (guint, n_net + 1);  /* problem ops with net index < i */

    for (guint i = 0; i < self->hardops->len; i++)
      if (!self->descs[i].zero_copy)
        before[((XirOp *) g_ptr_array_index (self->hardops, i))->index + 1]++;
    for (guint i = 1; i <= n_net; i++)
      before[i] += before[i - 1];
    for (guint i = 0; i < self->chunks->len; i++)
      {
        BChunk *c = &g_array_index (self->chunks, BChunk, i);
        guint first = before[c->first];
        guint last_plus = before[c->last + 1];
        gboolean eligible = c->eligible && c->size <= p->capacity && c->size > 0 && last_plus > first;

        map[i] = zg330_ocm_problem_add_chunk (p, c->id, first, last_plus > first ? last_plus - 1 : first, c->size,
                                              eligible);
      }
  }
  for (guint i = 0; i < self->hardops->len; i++)
    {
      const Zg330HardopDesc *d = &self->descs[i];
      const XirOp *op = d->op;
      guint o;

      if (d->zero_copy)
        continue;
      o = zg330_ocm_problem_add_op (p, op->op_id, d->macs, (guint) MAX (op->layer_count, 0),
                                    d->weight_bytes + d->instr_bytes, 0);
      for (guint k = 0; k < op->inputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->inputs, k);
          guint ci = GPOINTER_TO_UINT (g_hash_table_lookup (self->chunk_of, &v->v_id)) - 1;
          zg330_ocm_problem_add_access (p, o, map[ci], v->storage_bytes, FALSE);
        }
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          guint ci = GPOINTER_TO_UINT (g_hash_table_lookup (self->chunk_of, &v->v_id)) - 1;
          zg330_ocm_problem_add_access (p, o, map[ci], v->storage_bytes, TRUE);
        }
    }
  *chunk_of_ocm = g_steal_pointer (&map);
  return p;
}

/* Keeps option @opt's cost, peak and picks (chunk ids) for the report. */
static void
keep_option (Zg330Backend *self, const Zg330OcmProblem *p, ZwOcmOpt opt, const Zg330OcmResult *r)
{
  self->option_cost_ms[opt] = r->cost_ms;
  self->option_peak[opt] = r->peak_bytes;
  g_clear_pointer (&self->option_picks[opt], g_array_unref);
  self->option_picks[opt] = g_array_sized_new (FALSE, FALSE, sizeof (gint64), r->picked->len);
  for (guint k = 0; k < r->picked->len; k++)
    {
      guint pc = g_array_index (r->picked, guint, k);
      gint64 id = g_array_index (p->chunks, Zg330OcmChunk, pc).id;
      g_array_append_val (self->option_picks[opt], id);
    }
}

/* Plans the options apply did not need, once (the same problem, so the same picks as if
 * they had been planned at apply). */
void
zg330_backend_options_complete (Zg330Backend *self)
{
  g_mutex_lock (&self->options_lock);
  if (self->options_pending)
    {
      g_autofree guint *map = NULL;
      Zg330OcmProblem *p = build_ocm_problem (self, &map);

      for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
        {
          Zg330OcmResult r = { 0 };
          g_autoptr (GError) error = NULL;

          if (self->option_picks[opt] != NULL)
            continue;
          if (zg330_ocm_plan (p, opt, &r, &error))
            keep_option (self, p, opt, &r);
          else
            g_warning ("OCM %s of %s: %s", zw_ocm_opt_to_string (opt), xir_network_get_name (self->net),
                       error->message);
          zg330_ocm_result_clear (&r);
        }
      zg330_ocm_problem_free (p);
      self->options_pending = FALSE;
    }
  g_mutex_unlock (&self->options_lock);
}

gboolean
zg330_backend_plan_ocm (Zg330Backend *self, GError **error)
{
  g_autofree guint *map = NULL;
  Zg330OcmProblem *p;
  gboolean ok = TRUE;

  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      c->in_ocm = FALSE;
      c->ocm_addr = G_MAXUINT64;
    }
  zg330_ocm_result_clear (&self->ocm_result);
  p = build_ocm_problem (self, &map);
  if (p->ops->len == 0)
    {
      /* a view of zero-copy hardops only (a reshape, a concat): nothing runs on the icore,
       * so nothing to place in OCM */
      self->none_cost_ms = 0;
      self->ocm_chosen = ZW_OCM_NONE;
      zg330_ocm_problem_free (p);
      return TRUE;
    }
  if (!zg330_ocm_problem_validate (p, error))
    {
      zg330_ocm_problem_free (p);
      return FALSE;
    }
  self->none_cost_ms = zg330_ocm_estimate (p, NULL);
  /* Every option's picks and cost are kept for the report, whichever is applied; the
   * applied one is taken from these runs (BEST_SCORE: the cheapest, ties to the lower
   * option, as the planner's own BEST_SCORE does) rather than planned a second time.  Only
   * BEST_SCORE needs every planner now: for another option the rest are planned when a
   * report first shows them (options_complete). */
  {
    Zg330OcmResult results[ZW_OCM_N_SLOTS] = { { 0 } };
    ZwOcmOpt chosen = ZW_OCM_NONE;

    for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
      g_clear_pointer (&self->option_picks[opt], g_array_unref);
    for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS && ok; opt++)
      {
        Zg330OcmResult *r = &results[opt];
        if (self->ocm_requested != ZW_OCM_BEST_SCORE && self->ocm_requested != opt)
          continue;
        ok = zg330_ocm_plan (p, opt, r, error);
        if (!ok)
          break;
        keep_option (self, p, opt, r);
        if (self->ocm_requested == ZW_OCM_BEST_SCORE
            && (chosen == ZW_OCM_NONE || r->cost_ms < results[chosen].cost_ms))
          chosen = opt;
      }
    self->options_pending = ok && self->ocm_requested != ZW_OCM_BEST_SCORE;
    if (ok && self->ocm_requested > ZW_OCM_NONE)
      chosen = self->ocm_requested;
    if (ok && chosen == ZW_OCM_NONE)
      ok = zg330_ocm_plan (p, ZW_OCM_NONE, &self->ocm_result, error);
    else if (ok)
      {
        self->ocm_result = results[chosen];
        memset (&results[chosen], 0, sizeof results[chosen]);
        self->ocm_result.asked = self->ocm_requested;
      }
    for (ZwOcmOpt opt = ZW_OCM_NONE + 1; opt < ZW_OCM_N_SLOTS; opt++)
      zg330_ocm_result_clear (&results[opt]);
  }
  if (ok)
    {
      self->ocm_chosen = self->ocm_result.option;
      for (guint i = 0; i < self->chunks->len; i++)
        {
          BChunk *c = &g_array_index (self->chunks, BChunk, i);
          guint64 addr = self->ocm_result.ocm_addr ? self->ocm_result.ocm_addr[map[i]] : G_MAXUINT64;
          if (addr != G_MAXUINT64)
            {
              c->in_ocm = TRUE;
              c->ocm_addr = addr;
            }
        }
    }
  zg330_ocm_problem_free (p);
  return ok;
}

/* FTMP offsets for the chunks that stay in ETM. */
gboolean
zg330_backend_plan_ftmp (Zg330Backend *self, GError **error)
{
  g_autoptr (GArray) bufs = g_array_new (FALSE, TRUE, sizeof (Zg330Buffer));
  g_autoptr (GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint));
  Zg330PlanStats stats = { 0 };
  Zg330PlanOptions opt = { .capacity = 0, .alignment = FTMP_ALIGN,
                           .work_budget = self->plan_work_budget ? self->plan_work_budget : ETM_PLAN_WORK,
                           .time_limit_s = self->plan_time_limit_s };
  gboolean ok;

  for (guint i = 0; i < self->chunks->len; i++)
    {
      BChunk *c = &g_array_index (self->chunks, BChunk, i);
      Zg330Buffer b = { 0 };

      if (c->segment != ZW_SEGMENT_FTMP || c->in_ocm || c->size == 0)
        continue;
      b.id = c->id;
      b.lower = c->first;
      b.upper = c->last + 1;
      b.size = c->size;
      g_array_append_val (bufs, b);
      g_array_append_val (owners, i);
    }
  self->ftmp_sum = 0;
  for (guint i = 0; i < bufs->len; i++)
    self->ftmp_sum += align_up (g_array_index (bufs, Zg330Buffer, i).size, FTMP_ALIGN);
  self->ftmp_lower_bound = zg330_etm_lower_bound ((Zg330Buffer *) bufs->data, bufs->len, FTMP_ALIGN);
  if (self->etm_optimize)
    ok = zg330_etm_plan ((Zg330Buffer *) bufs->data, bufs->len, &opt, &stats, error);
  else
    ok = zg330_etm_plan_sequential ((Zg330Buffer *) bufs->data, bufs->len, FTMP_ALIGN, &stats);
  if (!ok)
    return FALSE;
  g_free (self->etm_method);
  self->etm_method = g_strdup (stats.method ? stats.method : "?");
  self->etm_seconds = stats.seconds;
  self->etm_work = stats.work;
  self->etm_work_budget = self->etm_optimize ? opt.work_budget : 0;
  self->etm_time_limit_hit = stats.time_limit_hit;
  self->seg_size[ZW_SEGMENT_FTMP] = stats.arena;
  for (guint i = 0; i < bufs->len; i++)
    g_array_index (self->chunks, BChunk, g_array_index (owners, guint, i)).seg_offset =
        g_array_index (bufs, Zg330Buffer, i).offset;
  return TRUE;
}

guint64
zg330_backend_get_logic_segment_size (Zg330Backend *self, ZwSegmentType type, GError **error)
{
  /* FTMP depends on the options: plan with them as they are now (launches too, so that a
   * report of the plan shows them). */
  if (type == ZW_SEGMENT_FTMP && !self->applied && ZG330_BACKEND_GET_CLASS (self)->compiler_placed)
    ZG330_BACKEND_GET_CLASS (self)->placement->plan (self);   /* the placement is the compiler's */
  else if (type == ZW_SEGMENT_FTMP && !self->applied)
    {
      zg330_backend_plan_launches (self);
      if (!zg330_backend_plan_ocm (self, error) || !zg330_backend_plan_ftmp (self, error))
        return 0;
    }
  return (guint) type < ZW_N_SEGMENTS ? self->seg_size[type] : 0;
}
