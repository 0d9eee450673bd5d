/* zw-compare-rows.c — the rows Compare shows: the regressions filter and merged launches
 * expanded to their members (estimated shares of the launch where a side ran it merged). */
#include "zw-compare-rows.h"

#include <math.h>

gboolean
zw_compare_row_slower_by (const ZwCompareRow *row, double threshold)
{
  g_return_val_if_fail (row != NULL, FALSE);
  if (row->side != ZW_COMPARE_BOTH || !(row->b_ms - row->a_ms > 0))
    return FALSE;
  if (row->a_ms <= 0)
    return TRUE;
  return row->b_ms / row->a_ms > 1 + threshold;
}

/* op id -> the ZwProfileRow of that op run on its own (not a merged launch) */
static GHashTable *
index_single_rows (const ZwProfile *profile)
{
  GHashTable *index = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; profile != NULL && i < profile->rows->len; i++)
    {
      ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      if ((r->merge_from == NULL || r->merge_from->len <= 1) && !g_hash_table_contains (index, &r->op_id))
        g_hash_table_insert (index, &r->op_id, r);
    }
  return index;
}

/* op id -> the planner's estimate of the hardop (ms) */
static GHashTable *
index_estimates (const ZwDeployReport *report)
{
  GHashTable *index = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint h = 0; report != NULL && report->hardops != NULL && h < report->hardops->len; h++)
    {
      ZwHardOpInfo *hi = &g_array_index (report->hardops, ZwHardOpInfo, h);
      g_hash_table_insert (index, &hi->op_id, &hi->est_ms);
    }
  return index;
}

typedef struct {
  GHashTable *single;        /* index_single_rows */
  GHashTable *est;           /* index_estimates */
  const ZwDeployReport *report, *other;
} Side;

/* The weights the launch time is split by: the planner's estimates when every member has
 * one, else the layer counts when every member has them, else equal parts. */
static void
member_weights (const Side *s, const GArray *members, double *w)
{
  gboolean all = TRUE;
  double sum = 0;

  /* an estimate of 0 (a hardop the hardware folds away) is a share of 0 */
  for (guint k = 0; k < members->len; k++)
    {
      gint64 id = g_array_index (members, gint64, k);
      const double *e = g_hash_table_lookup (s->est, &id);
      all = all && e != NULL && *e >= 0 && isfinite (*e);
      w[k] = all ? *e : 0;
      sum += w[k];
    }
  if (all && sum > 0)
    return;
  all = TRUE;
  for (guint k = 0; k < members->len; k++)
    {
      gint64 id = g_array_index (members, gint64, k);
      const ZwOpInfo *op = s->report != NULL ? zw_deploy_report_find_op (s->report, id) : NULL;
      if (op == NULL && s->other != NULL)
        op = zw_deploy_report_find_op (s->other, id);
      w[k] = op != NULL && op->layer_count > 0 ? op->layer_count : 0;
      all = all && w[k] > 0;
    }
  if (all)
    return;
  for (guint k = 0; k < members->len; k++)
    w[k] = 1;
}

/* A member's figure on one side: its own row when the side ran it alone, else its share of
 * @launch_ms (estimated). */
static void
member_figure (const Side *s, const GArray *members, guint k, const double *w, double launch_ms, gboolean present,
               gboolean *has, double *ms, gboolean *estimated)
{
  gint64 id = g_array_index (members, gint64, k);
  const ZwProfileRow *own = g_hash_table_lookup (s->single, &id);
  double sum = 0;

  *has = FALSE;
  *ms = 0;
  *estimated = FALSE;
  if (!present)
    return;
  if (own != NULL)
    {
      *has = TRUE;
      *ms = own->total_ms;
      return;
    }
  for (guint j = 0; j < members->len; j++)
    sum += w[j];
  *has = TRUE;
  *estimated = TRUE;
  *ms = sum > 0 ? launch_ms * w[k] / sum : 0;
}

static void
add_members (GArray *out, const ZwCompareRow *row, const Side *a, const Side *b)
{
  const GArray *m = row->merge_from;
  g_autofree double *wa = g_new (double, m->len), *wb = g_new (double, m->len);

  member_weights (a, m, wa);
  member_weights (b, m, wb);
  for (guint k = 0; k < m->len; k++)
    {
      ZwCompareShownRow s = { 0 };
      gint64 id = g_array_index (m, gint64, k);
      const ZwOpInfo *op = a->report != NULL ? zw_deploy_report_find_op (a->report, id) : NULL;

      if (op == NULL && b->report != NULL)
        op = zw_deploy_report_find_op (b->report, id);
      s.row = row;
      s.member = (gint) k;
      s.op_id = id;
      s.op_class = op != NULL && op->op_class != NULL ? g_strdup (op->op_class) : NULL;
      /* a side that ran the members alone gives each its own row; a merged side its share */
      member_figure (a, m, k, wa, row->a_ms, row->side != ZW_COMPARE_ONLY_B, &s.has_a, &s.a_ms, &s.a_estimated);
      member_figure (b, m, k, wb, row->b_ms, row->side != ZW_COMPARE_ONLY_A, &s.has_b, &s.b_ms, &s.b_estimated);
      g_array_append_val (out, s);
    }
}

static void
shown_row_clear (gpointer data)
{
  ZwCompareShownRow *s = data;
  g_clear_pointer (&s->op_class, g_free);
}

ZwCompareShown *
zw_compare_shown_new (const ZwProfileCompare *cmp, const ZwCompareShowOptions *options)
{
  ZwCompareShown *shown = g_new0 (ZwCompareShown, 1);
  Side a = { 0 }, b = { 0 };

  shown->rows = g_array_new (FALSE, TRUE, sizeof (ZwCompareShownRow));
  g_array_set_clear_func (shown->rows, shown_row_clear);
  if (cmp == NULL)
    return shown;
  if (options != NULL && options->expanded != NULL && g_hash_table_size (options->expanded) > 0)
    {
      a = (Side) { index_single_rows (options->a), index_estimates (options->report_a), options->report_a,
                   options->report_b };
      b = (Side) { index_single_rows (options->b), index_estimates (options->report_b), options->report_b,
                   options->report_a };
      /* a side without its report borrows the other's estimates (the same network) */
      if (options->report_a == NULL)
        {
          g_hash_table_unref (a.est);
          a.est = index_estimates (options->report_b);
        }
      if (options->report_b == NULL)
        {
          g_hash_table_unref (b.est);
          b.est = index_estimates (options->report_a);
        }
    }
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      ZwCompareShownRow s = { 0 };

      if (options != NULL && options->regressions_only && !zw_compare_row_slower_by (r, options->threshold))
        {
          shown->n_hidden++;
          continue;
        }
      shown->n_matching++;
      s.row = r;
      s.member = -1;
      s.op_id = r->op_id;
      s.has_a = r->side != ZW_COMPARE_ONLY_B;
      s.has_b = r->side != ZW_COMPARE_ONLY_A;
      s.a_ms = r->a_ms;
      s.b_ms = r->b_ms;
      s.expandable = r->merge_from != NULL && r->merge_from->len > 1;
      s.expanded = s.expandable && options != NULL && options->expanded != NULL
                   && g_hash_table_contains (options->expanded, &r->op_id);
      g_array_append_val (shown->rows, s);
      if (s.expanded)
        add_members (shown->rows, r, &a, &b);
    }
  g_clear_pointer (&a.single, g_hash_table_unref);
  g_clear_pointer (&a.est, g_hash_table_unref);
  g_clear_pointer (&b.single, g_hash_table_unref);
  g_clear_pointer (&b.est, g_hash_table_unref);
  return shown;
}

void
zw_compare_shown_free (ZwCompareShown *shown)
{
  if (shown == NULL)
    return;
  g_array_unref (shown->rows);
  g_free (shown);
}

const ZwCompareShownRow *
zw_compare_shown_get (const ZwCompareShown *shown, guint index)
{
  if (shown == NULL || index >= shown->rows->len)
    return NULL;
  return &g_array_index (shown->rows, ZwCompareShownRow, index);
}
