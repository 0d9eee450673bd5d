/* zg330-etm-check.c — the independent checker of an ETM plan: every buffer inside the
 * capacity, aligned, and no two whose lifetimes overlap share a byte. */
#include "backends/zg330/zg330-etm-plan.h"

/* ------------------------------------------------------------------------ */
/* Independent checker.                                                     */

static int
cmp_check (gconstpointer a, gconstpointer bb, gpointer data)
{
  const Zg330Buffer *b = data;
  const Zg330Buffer *x = &b[*(const guint *) a], *y = &b[*(const guint *) bb];
  if (x->lower != y->lower)
    return x->lower < y->lower ? -1 : 1;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

gboolean
zg330_etm_plan_check (const Zg330Buffer *b,
                      guint              n,
                      guint64            capacity,
                      GError           **error)
{
  g_return_val_if_fail (b != NULL || n == 0, FALSE);
  g_autofree guint *idx = g_new (guint, MAX (n, 1));
  guint live = 0;
  for (guint i = 0; i < n; i++)
    {
      if (b[i].size == 0 || b[i].lower >= b[i].upper)
        continue;
      if (b[i].offset > G_MAXUINT64 - b[i].size ||
          (capacity && b[i].offset + b[i].size > capacity))
        {
          g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY,
                       "buffer id %" G_GINT64_FORMAT " at offset %" G_GUINT64_FORMAT
                       " size %" G_GUINT64_FORMAT " ends past the capacity %" G_GUINT64_FORMAT,
                       b[i].id, b[i].offset, b[i].size, capacity);
          return FALSE;
        }
      idx[live++] = i;
    }
  g_qsort_with_data (idx, (gint) live, sizeof (guint), cmp_check, (gpointer) b);

  /* Sweep in order of start: every buffer still live when another starts
   * overlaps it in time, so their byte ranges must be disjoint. */
  g_autoptr (GArray) active = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < live; k++)
    {
      const Zg330Buffer *x = &b[idx[k]];
      for (guint a = 0; a < active->len;)
        {
          const Zg330Buffer *y = &b[g_array_index (active, guint, a)];
          if (y->upper <= x->lower)
            {
              g_array_remove_index_fast (active, a);
              continue;
            }
          if (x->offset < y->offset + y->size && y->offset < x->offset + x->size)
            {
              g_set_error (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_OVERLAP,
                           "buffers id %" G_GINT64_FORMAT " [%" G_GUINT64_FORMAT ", %"
                           G_GUINT64_FORMAT ") live [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                           ") and id %" G_GINT64_FORMAT " [%" G_GUINT64_FORMAT ", %"
                           G_GUINT64_FORMAT ") live [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                           ") share bytes",
                           y->id, y->offset, y->offset + y->size, y->lower, y->upper,
                           x->id, x->offset, x->offset + x->size, x->lower, x->upper);
              return FALSE;
            }
          a++;
        }
      guint i = idx[k];
      g_array_append_val (active, i);
    }
  return TRUE;
}
