/* zw-compare-sort.c — the rows of a profile comparison sorted by a column (Compare's headers). */
#include "report/zw-compare.h"

#include <math.h>

typedef struct {
  ZwCompareSortKey key;
  gboolean descending;
} SortBy;

static int
cmp_double (double x, double y)
{
  return x < y ? -1 : x > y;
}

static int
cmp_rows (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const ZwCompareRow *a = *(ZwCompareRow *const *) pa, *b = *(ZwCompareRow *const *) pb;
  const SortBy *by = data;
  int c = 0;

  switch (by->key)
    {
    case ZW_COMPARE_SORT_ORDER: break;
    case ZW_COMPARE_SORT_OP_ID:
      /* a pipeline's rows: by network, then op id ("NET:OP_ID") */
      c = g_strcmp0 (a->network, b->network);
      if (c == 0)
        c = a->op_id < b->op_id ? -1 : a->op_id > b->op_id;
      break;
    case ZW_COMPARE_SORT_CLASS:
      c = g_strcmp0 (a->op_class != NULL ? a->op_class : a->op_type, b->op_class != NULL ? b->op_class : b->op_type);
      break;
    case ZW_COMPARE_SORT_A_MS: c = cmp_double (a->a_ms, b->a_ms); break;
    case ZW_COMPARE_SORT_B_MS: c = cmp_double (a->b_ms, b->b_ms); break;
    case ZW_COMPARE_SORT_DELTA: c = cmp_double (a->delta_ms, b->delta_ms); break;
    case ZW_COMPARE_SORT_RATIO:
      {
        /* a row on one side only has no ratio (NaN): last, whichever the direction */
        gboolean na = isnan (a->ratio), nb = isnan (b->ratio);
        if (na || nb)
          return na == nb ? cmp_double (a->order, b->order) : na ? 1 : -1;
        c = cmp_double (a->ratio, b->ratio);
        break;
      }
    default: break;
    }
  if (by->descending)
    c = -c;
  return c != 0 ? c : cmp_double (a->order, b->order);
}

void
zw_profile_compare_sort (ZwProfileCompare *cmp, ZwCompareSortKey key, gboolean descending)
{
  SortBy by = { key, descending };

  g_return_if_fail (cmp != NULL);
  g_ptr_array_sort_with_data (cmp->rows, cmp_rows, &by);
}
