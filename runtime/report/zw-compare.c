/* zw-compare.c — per-op deltas of two time profiles; two deploy reports side by side. */
#include "report/zw-compare.h"

#include <math.h>
#include <string.h>

static void
row_free (gpointer p)
{
  ZwCompareRow *r = p;

  g_free (r->op_type);
  g_free (r->op_name);
  g_array_unref (r->merge_from);
  g_free (r);
}

void
zw_profile_compare_free (ZwProfileCompare *cmp)
{
  if (!cmp)
    return;
  g_ptr_array_unref (cmp->rows);
  g_free (cmp);
}

static double
ratio_of (double a, double b)
{
  if (a == 0)
    return b == 0 ? 1.0 : INFINITY;
  return b / a;
}

static gboolean
same_merge (const ZwProfileRow *a, const ZwProfileRow *b)
{
  if (a->merge_from->len == 0 || b->merge_from->len == 0)
    return TRUE;   /* one side does not know (a vendor text file): the op id decides */
  return a->merge_from->len == b->merge_from->len
         && memcmp (a->merge_from->data, b->merge_from->data, sizeof (gint64) * a->merge_from->len) == 0;
}

static ZwCompareRow *
row_new (const ZwProfileRow *src)
{
  ZwCompareRow *r = g_new0 (ZwCompareRow, 1);

  r->op_id = src->op_id;
  r->op_type = g_strdup (src->op_type ? src->op_type : "");
  r->op_name = g_strdup (src->op_name ? src->op_name : "");
  r->merge_from = g_array_copy (src->merge_from);
  r->ratio = NAN;
  return r;
}

ZwProfileCompare *
zw_profile_compare (const ZwProfile *a, const ZwProfile *b, const ZwCompareOptions *options)
{
  static const ZwCompareOptions defaults = ZW_COMPARE_OPTIONS_INIT;
  ZwProfileCompare *c;
  g_autoptr (GHashTable) by_id = NULL;   /* op_id -> GArray of B row indices, in order */
  g_autofree gboolean *used = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  c = g_new0 (ZwProfileCompare, 1);
  c->options = options ? *options : defaults;
  c->rows = g_ptr_array_new_with_free_func (row_free);
  by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  used = g_new0 (gboolean, MAX (b->rows->len, 1));
  for (guint i = 0; i < b->rows->len; i++)
    {
      const ZwProfileRow *br = g_ptr_array_index (b->rows, i);
      GArray *list = g_hash_table_lookup (by_id, &br->op_id);
      if (!list)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_id, g_memdup2 (&br->op_id, sizeof (gint64)), list);
        }
      g_array_append_val (list, i);
    }

  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *ar = g_ptr_array_index (a->rows, i);
      GArray *list = g_hash_table_lookup (by_id, &ar->op_id);
      const ZwProfileRow *br = NULL;
      ZwCompareRow *r = row_new (ar);

      /* the first unused B row with this op id (and merge group) */
      for (guint k = 0; list && k < list->len && !br; k++)
        {
          guint j = g_array_index (list, guint, k);
          const ZwProfileRow *cand = g_ptr_array_index (b->rows, j);
          if (!used[j] && same_merge (ar, cand))
            {
              used[j] = TRUE;
              br = cand;
            }
        }
      r->a_ms = ar->total_ms;
      r->a_hard_ms = ar->hard_ms;
      r->a_memcpy_ms = ar->memcpy_ms;
      r->a_other_ms = ar->other_ms;
      if (br)
        {
          r->side = ZW_COMPARE_BOTH;
          r->b_ms = br->total_ms;
          r->b_hard_ms = br->hard_ms;
          r->b_memcpy_ms = br->memcpy_ms;
          r->b_other_ms = br->other_ms;
          r->delta_ms = r->b_ms - r->a_ms;
          r->ratio = ratio_of (r->a_ms, r->b_ms);
          r->regression = r->ratio > 1.0 + c->options.tolerance && r->delta_ms > c->options.min_delta_ms;
          r->improvement = r->ratio < 1.0 / (1.0 + c->options.tolerance) && -r->delta_ms > c->options.min_delta_ms;
          c->n_matched++;
          c->n_regressions += r->regression;
          c->n_improvements += r->improvement;
          if (r->merge_from->len == 0 && br->merge_from->len > 0)
            g_array_append_vals (r->merge_from, br->merge_from->data, br->merge_from->len);
        }
      else
        {
          r->side = ZW_COMPARE_ONLY_A;
          r->delta_ms = -r->a_ms;
          c->n_only_a++;
        }
      c->a_total_ms += r->a_ms;
      c->b_total_ms += r->b_ms;
      c->a_hard_ms += r->a_hard_ms;
      c->b_hard_ms += r->b_hard_ms;
      g_ptr_array_add (c->rows, r);
    }
  for (guint j = 0; j < b->rows->len; j++)
    if (!used[j])
      {
        const ZwProfileRow *br = g_ptr_array_index (b->rows, j);
        ZwCompareRow *r = row_new (br);

        r->side = ZW_COMPARE_ONLY_B;
        r->b_ms = br->total_ms;
        r->b_hard_ms = br->hard_ms;
        r->b_memcpy_ms = br->memcpy_ms;
        r->b_other_ms = br->other_ms;
        r->delta_ms = r->b_ms;
        c->n_only_b++;
        c->b_total_ms += r->b_ms;
        c->b_hard_ms += r->b_hard_ms;
        g_ptr_array_add (c->rows, r);
      }
  c->delta_ms = c->b_total_ms - c->a_total_ms;
  c->ratio = ratio_of (c->a_total_ms, c->b_total_ms);
  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (a->rows, i);
      if (r->host_measured_ms >= 0)
        {
          c->a_has_host_measured = TRUE;
          c->a_host_measured_ms += r->host_measured_ms;
        }
    }
  for (guint i = 0; i < b->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (b->rows, i);
      if (r->host_measured_ms >= 0)
        {
          c->b_has_host_measured = TRUE;
          c->b_host_measured_ms += r->host_measured_ms;
        }
    }
  return c;
}

static void
csv_field (GString *s, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (s, text);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

static void
csv_number (GString *s, double v)
{
  if (isnan (v))
    return;   /* empty = unknown, as in our profile CSV */
  if (isinf (v))
    g_string_append (s, v > 0 ? "inf" : "-inf");
  else
    {
      /* the shortest decimal that reads back as the same double, as the profile files */
      g_autofree char *text = zw_profile_format_number (v, FALSE);
      g_string_append (s, text);
    }
}

char *
zw_profile_compare_to_csv (const ZwProfileCompare *cmp)
{
  static const char *sides[] = { "both", "a", "b" };
  GString *s = g_string_new ("op_id,op_type,op_name,merge_from,side,a_ms,b_ms,delta_ms,ratio,a_hard_ms,b_hard_ms,"
                             "regression\r\n");

  g_return_val_if_fail (cmp != NULL, g_string_free (s, FALSE));
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);

      g_string_append_printf (s, "%" G_GINT64_FORMAT ",", r->op_id);
      csv_field (s, r->op_type);
      g_string_append_c (s, ',');
      csv_field (s, r->op_name);
      g_string_append_c (s, ',');
      for (guint k = 0; k < r->merge_from->len; k++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, k ? ";" : "", g_array_index (r->merge_from, gint64, k));
      g_string_append_printf (s, ",%s,", sides[r->side]);
      csv_number (s, r->side == ZW_COMPARE_ONLY_B ? NAN : r->a_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->side == ZW_COMPARE_ONLY_A ? NAN : r->b_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->delta_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->ratio);
      g_string_append_c (s, ',');
      csv_number (s, r->side == ZW_COMPARE_ONLY_B ? NAN : r->a_hard_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->side == ZW_COMPARE_ONLY_A ? NAN : r->b_hard_ms);
      g_string_append_printf (s, ",%s\r\n", r->regression ? "true" : "false");
    }
  return g_string_free (s, FALSE);
}

/* ---- deploy reports ---------------------------------------------------------------- */

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
