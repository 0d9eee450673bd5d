/* zw-timing-data.c — what the Timing view shows of a profile: its own copy (the run's op
 * order in place of an inferred one), and with the run's report the merged launches, the
 * ops, and per row the ETM bytes written, the OCM outputs and the planner's estimate. */
#include "zw-timing-view-private.h"

/* Producer op id -> GPtrArray of its ZwValueInfo* (borrowed). */
static GHashTable *
index_producers (ZwDeployReport *report)
{
  GHashTable *index = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < report->values->len; i++)
    {
      ZwValueInfo *v = &g_array_index (report->values, ZwValueInfo, i);
      GPtrArray *list = g_hash_table_lookup (index, &v->producer);
      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (index, &v->producer, list);
        }
      g_ptr_array_add (list, v);
    }
  return index;
}

static void
add_outputs (GHashTable *producers, gint64 op_id, guint64 *bytes, guint *ocm, gboolean *found)
{
  GPtrArray *list = g_hash_table_lookup (producers, &op_id);

  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      const ZwValueInfo *v = g_ptr_array_index (list, i);
      *found = TRUE;
      /* fake values live inside another's bytes: counting them would count twice */
      if (!v->real || v->is_host)
        continue;
      if (v->is_ocm)
        (*ocm)++;
      else
        *bytes += v->byte_size;
    }
}

static gboolean
op_memory (ZwDeployReport *report, GHashTable *launches, GHashTable *producers, const ZwProfileRow *row,
           guint64 *etm_bytes, guint *ocm_outputs)
{
  const GArray *members = zw_timing_row_members (row, launches);
  guint64 bytes = 0;
  guint ocm = 0;
  gboolean found = FALSE;

  add_outputs (producers, row->op_id, &bytes, &ocm, &found);
  for (guint k = 0; members != NULL && k < members->len; k++)
    add_outputs (producers, g_array_index (members, gint64, k), &bytes, &ocm, &found);
  if (!found && members == NULL && zw_deploy_report_find_op (report, row->op_id) == NULL)
    return FALSE;
  if (etm_bytes)
    *etm_bytes = bytes;
  if (ocm_outputs)
    *ocm_outputs = ocm;
  return TRUE;
}

static void
timing_data_clear (gpointer data)
{
  ZwTimingData *d = data;

  g_clear_pointer (&d->profile, zw_profile_free);
  g_clear_pointer (&d->launches, g_hash_table_unref);
  g_clear_pointer (&d->ops, g_hash_table_unref);
  g_clear_pointer (&d->report, zw_deploy_report_unref);
  g_free (d->etm);
  g_free (d->ocm);
  g_free (d->has_mem);
  g_free (d->est);
  g_clear_pointer (&d->members, g_array_unref);
}

ZwTimingData *
zw_timing_data_new (const ZwProfile *profile, ZwDeployReport *report)
{
  ZwTimingData *d = g_rc_box_new0 (ZwTimingData);
  guint n = profile->rows->len;

  d->profile = zw_profile_new (profile->network);
  for (guint i = 0; i < n; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      ZwProfileRow *c = zw_profile_add_row (d->profile, r->op_id, r->op_type, r->op_name, r->total_ms, r->memcpy_ms,
                                            r->hard_ms, r->other_ms);
      c->has_io_process = r->has_io_process;
      c->is_io_process = r->is_io_process;
      if (r->merge_from != NULL)
        g_array_append_vals (c->merge_from, r->merge_from->data, r->merge_from->len);
      c->backend = g_strdup (r->backend);
      c->start_ms = r->start_ms;
      c->host_measured_ms = r->host_measured_ms;
    }
  /* the customop lines get their shape from the rows; then the file's own totals and
   * summary (the vendor's, when it has them) replace the recomputed ones */
  zw_profile_compute_totals (d->profile);
  if (profile->order != NULL)
    {
      d->profile->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), profile->order->len);
      g_array_append_vals (d->profile->order, profile->order->data, profile->order->len);
    }
  d->profile->order_source = profile->order_source;
  if (report != NULL && profile->order_source == ZW_PROFILE_ORDER_INFERRED && report->ops->len > 0)
    {
      /* the run's network is known: its op order replaces the guess */
      g_autofree gint64 *ids = g_new (gint64, report->ops->len);
      g_autofree guint *by_index = g_new (guint, report->ops->len);
      for (guint k = 0; k < report->ops->len; k++)
        by_index[k] = k;
      for (guint k = 0; k < report->ops->len; k++)
        for (guint j = k; j > 0 && g_array_index (report->ops, ZwOpInfo, by_index[j - 1]).index
                                     > g_array_index (report->ops, ZwOpInfo, by_index[j]).index; j--)
          {
            guint t = by_index[j];
            by_index[j] = by_index[j - 1];
            by_index[j - 1] = t;
          }
      for (guint k = 0; k < report->ops->len; k++)
        ids[k] = g_array_index (report->ops, ZwOpInfo, by_index[k]).op_id;
      zw_profile_order_by_network (d->profile, ids, report->ops->len);
    }
  if (!profile->has_totals)
    goto totals_done;
  d->profile->has_totals = profile->has_totals;
  d->profile->total_ms = profile->total_ms;
  d->profile->total_memcpy_ms = profile->total_memcpy_ms;
  d->profile->total_hard_ms = profile->total_hard_ms;
  d->profile->total_other_ms = profile->total_other_ms;
  d->profile->hardop_total_ms = profile->hardop_total_ms;
  d->profile->hardop_hard_ms = profile->hardop_hard_ms;
  for (int k = 0; k < ZW_PROFILE_N_SUMMARY && profile->has_summary; k++)
    {
      d->profile->summary[k].time_ms = profile->summary[k].time_ms;
      g_free (d->profile->summary[k].device);
      d->profile->summary[k].device = g_strdup (profile->summary[k].device);
    }
  for (guint i = 0; i < profile->customops->len; i++)
    {
      const ZwProfileCustomop *src = g_ptr_array_index (profile->customops, i);
      if (i < d->profile->customops->len)
        {
          ZwProfileCustomop *dst = g_ptr_array_index (d->profile->customops, i);
          dst->total_ms = src->total_ms;
          dst->hard_ms = src->hard_ms;
        }
    }
totals_done:
  if (report != NULL)
    {
      g_autoptr (GHashTable) producers = index_producers (report);

      d->report = zw_deploy_report_ref (report);
      d->launches = zw_timing_index_launches (report);
      d->ops = zw_report_index_ops (report);
      d->etm = g_new0 (guint64, MAX (n, 1u));
      d->ocm = g_new0 (guint, MAX (n, 1u));
      d->has_mem = g_new0 (gboolean, MAX (n, 1u));
      for (guint i = 0; i < n; i++)
        d->has_mem[i] = op_memory (report, d->launches, producers, g_ptr_array_index (d->profile->rows, i), &d->etm[i],
                                   &d->ocm[i]);
      /* estimated (planner) next to simulated: a row's hardops, or its merged launch's members */
      {
        g_autoptr (GHashTable) est_of = g_hash_table_new (g_int64_hash, g_int64_equal);
        for (guint h = 0; h < report->hardops->len; h++)
          {
            ZwHardOpInfo *hi = &g_array_index (report->hardops, ZwHardOpInfo, h);
            g_hash_table_insert (est_of, &hi->op_id, &hi->est_ms);
          }
        d->est = g_new (double, MAX (n, 1u));
        for (guint i = 0; i < n; i++)
          {
            const ZwProfileRow *row = g_ptr_array_index (d->profile->rows, i);
            const GArray *m = zw_timing_row_members (row, d->launches);
            const double *e = g_hash_table_lookup (est_of, &row->op_id);

            d->est[i] = e != NULL ? *e : -1;
            for (guint k = 0; e == NULL && m != NULL && k < m->len; k++)
              {
                const double *me = g_hash_table_lookup (est_of, &g_array_index (m, gint64, k));
                if (me != NULL)
                  d->est[i] = MAX (d->est[i], 0) + *me;
              }
          }
      }
    }
  d->has_merged = zw_timing_profile_has_merged (d->profile, d->launches);
  d->members = g_array_new (FALSE, TRUE, sizeof (ZwTimingMember));
  if (report != NULL && d->has_merged)
    {
      /* a merged launch's members: its time split by the planner's estimates (issue 37) */
      g_autoptr (GHashTable) estimates = zw_report_index_estimates (report);
      for (guint i = 0; i < n; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (d->profile->rows, i);
          const GArray *m = zw_timing_row_members (row, d->launches);
          g_autofree double *w = NULL;
          double sum = 0;
          if (m == NULL || m->len < 2)
            continue;
          w = g_new (double, m->len);
          zw_launch_split_weights (estimates, d->ops, (const gint64 *) m->data, m->len, w);
          for (guint k = 0; k < m->len; k++)
            sum += w[k];
          for (guint k = 0; k < m->len; k++)
            {
              ZwTimingMember mb = { i, k, g_array_index (m, gint64, k), 0, 0, -1 };
              const double *e = g_hash_table_lookup (estimates, &mb.op_id);
              mb.total_ms = sum > 0 ? row->total_ms * w[k] / sum : 0;
              mb.hard_ms = sum > 0 ? row->hard_ms * w[k] / sum : 0;
              mb.est_ms = e != NULL ? *e : -1;
              g_array_append_val (d->members, mb);
            }
        }
    }
  return d;
}

ZwTimingData *
zw_timing_data_ref (ZwTimingData *d)
{
  return g_rc_box_acquire (d);
}

void
zw_timing_data_unref (ZwTimingData *d)
{
  g_rc_box_release_full (d, timing_data_clear);
}

