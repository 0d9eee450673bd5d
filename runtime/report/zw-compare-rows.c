/* zw-compare-rows.c — the rows Compare shows: the regressions filter and merged launches
 * expanded to their members (estimated shares of the launch where a side ran it merged). */
#include "report/zw-compare-rows.h"
#include "report/zw-launch-split.h"

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

typedef struct {
  GHashTable *single;        /* index_single_rows */
  GHashTable *est;           /* zw_report_index_estimates */
  GHashTable *ops;           /* zw_report_index_ops of the side's report, else the other's */
} Side;

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

  zw_launch_split_weights (a->est, a->ops, (const gint64 *) m->data, m->len, wa);
  zw_launch_split_weights (b->est, b->ops, (const gint64 *) m->data, m->len, wb);
  for (guint k = 0; k < m->len; k++)
    {
      ZwCompareShownRow s = { 0 };
      gint64 id = g_array_index (m, gint64, k);
      const ZwOpInfo *op = a->ops != NULL ? g_hash_table_lookup (a->ops, &id) : NULL;

      if (op == NULL && b->ops != NULL)
        op = g_hash_table_lookup (b->ops, &id);
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
      /* a side without its report borrows the other's (the same network) */
      const ZwDeployReport *ra = options->report_a != NULL ? options->report_a : options->report_b;
      const ZwDeployReport *rb = options->report_b != NULL ? options->report_b : options->report_a;
      a = (Side) { index_single_rows (options->a), zw_report_index_estimates (ra),
                   ra != NULL ? zw_report_index_ops (ra) : NULL };
      b = (Side) { index_single_rows (options->b), zw_report_index_estimates (rb),
                   rb != NULL ? zw_report_index_ops (rb) : NULL };
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
  g_clear_pointer (&a.ops, g_hash_table_unref);
  g_clear_pointer (&b.ops, g_hash_table_unref);
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
