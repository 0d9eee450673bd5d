/* zw-compare-deploy.c — what two runs' deploy reports add to a comparison: their deploy
 * facts side by side, and the hardop class of each compared row (a profile says "HardOp"). */
#include "report/zw-compare.h"

#include <glib/gi18n.h>
#include <string.h>

void
zw_deploy_summary_init (ZwDeploySummary *s, const ZwDeployReport *r)
{
  memset (s, 0, sizeof *s);
  g_return_if_fail (r != NULL);
  s->network = g_strdup (r->network_name);
  s->merge_hardop = r->merge_hardop;
  s->etm_optimize = r->etm_optimize;
  s->ocm_requested = r->ocm_requested;
  s->ocm_chosen = r->ocm_chosen;
  s->ftmp_bytes = r->ftmp_bytes;
  s->ftmp_lower_bound = r->lower_bound;
  s->ocm_capacity = r->ocm_capacity;
  s->n_launches = r->launches->len;
  s->n_hardops = r->hardops->len;
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      if (c->in_ocm)
        {
          s->ocm_bytes += c->size;
          s->n_ocm_chunks++;
        }
    }
  s->ocm_peak = zw_deploy_report_ocm_peak (r);
  s->estimated_ms = r->none_cost_ms;
  for (guint i = 0; i < r->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (r->ocm_options, ZwOcmOptionResult, i);
      if (o->option == r->ocm_chosen)
        s->estimated_ms = o->cost_ms;
    }
}

void
zw_deploy_summary_clear (ZwDeploySummary *s)
{
  g_clear_pointer (&s->network, g_free);
}

ZwDeployCompare *
zw_deploy_compare (const ZwDeployReport *a, const ZwDeployReport *b)
{
  ZwDeployCompare *c;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  c = g_new0 (ZwDeployCompare, 1);
  zw_deploy_summary_init (&c->a, a);
  zw_deploy_summary_init (&c->b, b);
  c->ftmp_delta = (gint64) c->b.ftmp_bytes - (gint64) c->a.ftmp_bytes;
  c->ocm_delta = (gint64) c->b.ocm_bytes - (gint64) c->a.ocm_bytes;
  c->n_launches_delta = (gint) c->b.n_launches - (gint) c->a.n_launches;
  c->estimated_delta_ms = c->b.estimated_ms - c->a.estimated_ms;
  return c;
}

void
zw_deploy_compare_free (ZwDeployCompare *cmp)
{
  if (!cmp)
    return;
  zw_deploy_summary_clear (&cmp->a);
  zw_deploy_summary_clear (&cmp->b);
  g_free (cmp);
}

/* The class of @op_id in @report ("Conv2d"), NULL when the report does not have the op or
 * knows no more than its kind. */
static const char *
report_class (const ZwDeployReport *report, gint64 op_id)
{
  const ZwOpInfo *op = report != NULL ? zw_deploy_report_find_op (report, op_id) : NULL;

  if (op == NULL || op->op_class == NULL || *op->op_class == '\0' || g_strcmp0 (op->op_class, op->kind) == 0)
    return NULL;
  return op->op_class;
}

void
zw_profile_compare_set_classes (ZwProfileCompare *cmp, const ZwDeployReport *a, const ZwDeployReport *b)
{
  g_return_if_fail (cmp != NULL);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      const char *cls = NULL;

      g_clear_pointer (&r->op_class, g_free);
      if (r->side != ZW_COMPARE_ONLY_B)
        cls = report_class (a, r->op_id);
      if (cls == NULL && r->side != ZW_COMPARE_ONLY_A)
        cls = report_class (b, r->b_op_id);
      /* a merged launch: its first member's class */
      for (guint k = 0; cls == NULL && k < r->merge_from->len; k++)
        cls = report_class (a, g_array_index (r->merge_from, gint64, k));
      for (guint k = 0; cls == NULL && k < r->merge_from->len; k++)
        cls = report_class (b, g_array_index (r->merge_from, gint64, k));
      if (cls == NULL)
        continue;
      if (r->merge_from->len > 1)
        /* TRANSLATORS: the class of a merged launch: its first op's class and how many ops more */
        r->op_class = g_strdup_printf (_("%s +%u"), cls, r->merge_from->len - 1);
      else
        r->op_class = g_strdup (cls);
    }
}

void
zw_profile_compare_set_plan (ZwProfileCompare *cmp, const ZwDeployReport *report)
{
  g_return_if_fail (cmp != NULL && report != NULL);
  zw_profile_compare_set_classes (cmp, report, report);
  g_free (cmp->plan_network);
  cmp->plan_network = g_strdup (report->network_name != NULL ? report->network_name : "?");
}
