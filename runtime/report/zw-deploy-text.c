/* zw-deploy-text.c — the human-readable deploy log (what ZG330Backend.log() writes as text). */
#include "report/zw-deploy-report.h"

#include <glib/gi18n-lib.h>

char *
zw_deploy_report_to_text (const ZwDeployReport *r)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "ZG330Backend deploy log\n");
  g_string_append_printf (s, "network: %s (%s), %u ops\n", r->network_name, r->network_path, r->n_ops);
  if (r->params_seed >= 0)
    g_string_append_printf (s, "params: synthetic (seed %" G_GINT64_FORMAT ")\n", r->params_seed);
  g_string_append_printf (s, "device: %s, OCM %" G_GUINT64_FORMAT " bytes\n", r->device_url, r->ocm_bytes);
  g_string_append_printf (s, "options: merge hardop %s, ETM optimize %s, OCM %s (chosen %s)\n\n",
                          r->merge_hardop ? "on" : "off", r->etm_optimize ? "on" : "off",
                          zw_ocm_opt_to_string (r->ocm_requested), zw_ocm_opt_to_string (r->ocm_chosen));
  g_string_append (s, "segment   logic_addr   byte_size    phy_addr     phy_size     user\n");
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      const ZwSegmentInfo *g = &r->segments[t];
      g_string_append_printf (s, "%-8s  0x%08" G_GINT64_MODIFIER "x  %-11" G_GUINT64_FORMAT "  0x%08" G_GINT64_MODIFIER
                              "x  %-11" G_GUINT64_FORMAT "  %s\n", zw_segment_type_to_string (g->type), g->logic_addr,
                              g->byte_size, g->phy_addr, g->phy_size, g->user_used ? "yes" : "no");
    }
  g_string_append_printf (s, "\nETM: FTMP %" G_GUINT64_FORMAT " bytes, liveness lower bound %" G_GUINT64_FORMAT
                          ", sum of chunks %" G_GUINT64_FORMAT " (%s, %.3f s)\n", r->ftmp_bytes, r->lower_bound,
                          r->sum_of_chunks, r->etm_method ? r->etm_method : "", r->etm_seconds);
  if (r->etm_work_budget > 0)
    g_string_append_printf (s, "ETM plan work: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " work units\n",
                            r->etm_work, r->etm_work_budget);
  if (r->etm_time_limit_hit)
    g_string_append (s, "ETM plan: time limit hit: the plan may differ from run to run\n");
  g_string_append_printf (s, "OCM: capacity %" G_GUINT64_FORMAT " bytes, estimated cost with no OCM %.4f ms\n",
                          r->ocm_capacity, r->none_cost_ms);
  for (guint i = 0; i < r->ocm_options->len; i++)
    {
      const ZwOcmOptionResult *o = &g_array_index (r->ocm_options, ZwOcmOptionResult, i);
      g_string_append_printf (s, "  %-8s cost %.4f ms, %u chunks, %" G_GUINT64_FORMAT " bytes, peak %" G_GUINT64_FORMAT "%s\n",
                              zw_ocm_opt_to_string (o->option), o->cost_ms, o->picks->len, o->bytes, o->peak_bytes,
                              o->option == r->ocm_chosen ? "  <- chosen" : "");
    }
  g_string_append_printf (s, "\nlaunches: %u\n", r->launches->len);
  for (guint i = 0; i < r->launches->len; i++)
    {
      const ZwLaunch *l = &g_array_index (r->launches, ZwLaunch, i);
      g_string_append_printf (s, "  op_id %" G_GINT64_FORMAT ": ops %d-%d, %u layers, merge_from [", l->op_id, l->first,
                              l->last, l->layer_count);
      for (guint k = 0; k < l->merge_from->len; k++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, k ? ", " : "", g_array_index (l->merge_from, gint64, k));
      g_string_append (s, "]\n");
    }
  if (r->connections->len > 0)
    g_string_append_printf (s, "\nuserConnectNetwork connections: %u\n", r->connections->len);
  for (guint i = 0; i < r->connections->len; i++)
    {
      const ZwConnectionInfo *c = &g_array_index (r->connections, ZwConnectionInfo, i);
      g_string_append_printf (s, "  v_id %" G_GINT64_FORMAT " (%s, %" G_GUINT64_FORMAT " bytes): %s, user chunk 0x%08"
                              G_GINT64_MODIFIER "x +%" G_GUINT64_FORMAT ", home 0x%08" G_GINT64_MODIFIER "x\n", c->v_id,
                              zw_segment_type_to_string (c->segment), c->byte_size, c->staged ? "staged" : "zero-copy",
                              c->user_addr, c->user_size, c->home_addr);
    }
  g_string_append (s, "\nv_id     segment  real  fake_from  ocm  logic_addr   phy_addr     bytes       life     chunk\n");
  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      g_string_append_printf (s, "%-8" G_GINT64_FORMAT " %-8s %-5s %-10" G_GINT64_FORMAT " %-4s 0x%08" G_GINT64_MODIFIER
                              "x  0x%08" G_GINT64_MODIFIER "x  %-11" G_GUINT64_FORMAT " %3d-%-4d %" G_GINT64_FORMAT "@%"
                              G_GUINT64_FORMAT "\n", v->v_id, zw_segment_type_to_string (v->segment),
                              v->real ? "yes" : "no", v->fake_from, v->is_ocm ? "yes" : "no", v->logic_addr, v->phy_addr,
                              v->byte_size, v->first, v->last, v->chunk, v->chunk_offset);
    }
  return g_string_free (s, FALSE);
}
