/* zw-pipeline-compare.c — two pipelines' passes compared network by network, rows named
 * "NET:OP_ID" (see the header). */
#include "report/zw-pipeline-compare.h"

#include <glib/gi18n.h>
#include <math.h>

char *
zw_compare_row_dup_name (const ZwCompareRow *row)
{
  g_return_val_if_fail (row != NULL, NULL);
  if (row->network != NULL)
    return g_strdup_printf ("%s:%" G_GINT64_FORMAT, row->network, row->op_id);
  return g_strdup_printf ("%" G_GINT64_FORMAT, row->op_id);
}

static gboolean
pass_profiled (const ZwPipelineReport *p, const char *side, GError **error)
{
  for (guint i = 0; i < p->networks->len; i++)
    if (g_array_index (p->networks, ZwPipelineNetwork, i).profile != NULL)
      return TRUE;
  /* TRANSLATORS: %s: A or B; %s: the pipeline's file or name */
  g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
               _("%s (%s): the pipeline's pass was not profiled (a plan): no time to compare (run it: xrt-run run "
                 "PIPE.toml --profile --json REPORT.json)"),
               p->file != NULL ? p->file : p->name, side);
  return FALSE;
}

/* One network's comparison moved into @into: its rows named after the network, the sums. */
static void
take_network (ZwProfileCompare *into, ZwProfileCompare *one, const char *network)
{
  for (guint i = 0; i < one->rows->len; i++)
    {
      ZwCompareRow *r = g_ptr_array_index (one->rows, i);
      r->network = g_strdup (network);
      r->order = into->rows->len;
      g_ptr_array_add (into->rows, r);
    }
  /* the rows now belong to @into */
  g_ptr_array_set_free_func (one->rows, NULL);
  into->a_total_ms += one->a_total_ms;
  into->b_total_ms += one->b_total_ms;
  into->a_hard_ms += one->a_hard_ms;
  into->b_hard_ms += one->b_hard_ms;
  into->n_matched += one->n_matched;
  into->n_only_a += one->n_only_a;
  into->n_only_b += one->n_only_b;
  into->n_regressions += one->n_regressions;
  into->n_improvements += one->n_improvements;
  into->n_merge_mapped += one->n_merge_mapped;
  into->n_kind_matched += one->n_kind_matched;
  into->a_has_host_measured |= one->a_has_host_measured;
  into->b_has_host_measured |= one->b_has_host_measured;
  into->a_host_measured_ms += one->a_host_measured_ms;
  into->b_host_measured_ms += one->b_host_measured_ms;
  zw_profile_compare_free (one);
}

/* Network @na of A against @nb of B (either may be NULL or not profiled: an empty side). */
static void
compare_network (ZwProfileCompare *into, const ZwPipelineNetwork *na, const ZwPipelineNetwork *nb,
                 const ZwCompareOptions *options)
{
  const char *name = na != NULL ? na->name : nb->name;
  g_autoptr (ZwProfile) empty = zw_profile_new (name);
  const ZwProfile *pa = na != NULL && na->profile != NULL ? na->profile : empty;
  const ZwProfile *pb = nb != NULL && nb->profile != NULL ? nb->profile : empty;
  ZwProfileCompare *one;

  if (pa == empty && pb == empty)
    return;
  one = zw_profile_compare (pa, pb, options);
  zw_profile_compare_set_classes (one, na != NULL ? na->report : NULL, nb != NULL ? nb->report : NULL);
  take_network (into, one, name);
}

ZwProfileCompare *
zw_pipeline_compare (const ZwPipelineReport *a, const ZwPipelineReport *b, const ZwCompareOptions *options,
                     GError **error)
{
  static const ZwCompareOptions defaults = ZW_COMPARE_OPTIONS_INIT;
  ZwProfileCompare *c;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  if (!pass_profiled (a, "A", error) || !pass_profiled (b, "B", error))
    return NULL;
  c = g_new0 (ZwProfileCompare, 1);
  c->options = options != NULL ? *options : defaults;
  c->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) zw_compare_row_free);
  for (guint i = 0; i < a->networks->len; i++)
    {
      const ZwPipelineNetwork *na = &g_array_index (a->networks, ZwPipelineNetwork, i);
      gint j = zw_pipeline_report_find_network (b, na->name);
      compare_network (c, na, j >= 0 ? &g_array_index (b->networks, ZwPipelineNetwork, j) : NULL, &c->options);
    }
  for (guint j = 0; j < b->networks->len; j++)
    {
      const ZwPipelineNetwork *nb = &g_array_index (b->networks, ZwPipelineNetwork, j);
      if (zw_pipeline_report_find_network (a, nb->name) < 0)
        compare_network (c, NULL, nb, &c->options);
    }
  c->delta_ms = c->b_total_ms - c->a_total_ms;
  c->ratio = c->a_total_ms == 0 ? (c->b_total_ms == 0 ? 1.0 : INFINITY) : c->b_total_ms / c->a_total_ms;
  return c;
}
