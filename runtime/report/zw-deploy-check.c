/* zw-deploy-check.c — the independent checker of a deploy report.
 *
 * It knows nothing of the planners: from the report alone it rebuilds every value's byte
 * range and lifetime and verifies the invariants of DESIGN.md §7. */
#include "report/zw-deploy-check.h"

#include "base/zw-checked.h"

#include <stdlib.h>

typedef struct {
  guint64 lo, hi;     /* byte range [lo, hi) */
  gint first, last;   /* lifetime, inclusive */
  gint64 v_id;
  gint64 chunk;
} Span;

static gint
compare_spans (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Pairs of spans that share bytes while both are live (values of one chunk share by design). */
static gboolean
check_overlaps (GArray *spans, const char *memory, GError **error)
{
  g_array_sort (spans, compare_spans);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *a = &g_array_index (spans, Span, i);
      for (guint j = i + 1; j < spans->len; j++)
        {
          const Span *b = &g_array_index (spans, Span, j);
          if (b->lo >= a->hi)
            break;
          if (a->chunk == b->chunk && a->chunk != -1)
            continue;
          if (a->first <= b->last && b->first <= a->last)
            {
              g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                           "%s: v_id %" G_GINT64_FORMAT " [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) ops %d-%d "
                           "and v_id %" G_GINT64_FORMAT " [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) ops %d-%d "
                           "share bytes while both are live",
                           memory, a->v_id, a->lo, a->hi, a->first, a->last, b->v_id, b->lo, b->hi, b->first, b->last);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* userConnectNetwork: a zero-copy value lives in the user's chunk at its compiler-chunk
 * offset; a staged one has a home of its own, apart from the user's chunk it is copied
 * from or to. Both: the user's chunk holds the value. */
static gboolean
check_connections (const ZwDeployReport *r, GError **error)
{
  for (guint i = 0; i < r->connections->len; i++)
    {
      const ZwConnectionInfo *c = &g_array_index (r->connections, ZwConnectionInfo, i);
      const ZwValueInfo *v = NULL;
      const char *why = NULL;

      for (guint k = 0; k < r->values->len && v == NULL; k++)
        if (g_array_index (r->values, ZwValueInfo, k).v_id == c->v_id)
          v = &g_array_index (r->values, ZwValueInfo, k);
      if (v == NULL || v->segment != c->segment || v->byte_size != c->byte_size)
        why = "is not an INPUT or OUTPUT value of that size in the report's values";
      else if (r->segments[ZW_SEGMENT_FTMP].phy_size > 0 && v->phy_addr != c->home_addr)
        why = "home_addr is not the value's phy_addr";
      else if (!c->staged && (c->home_addr != c->user_addr + c->chunk_offset
                              || !zw_range_inside (c->home_addr, c->byte_size, c->user_addr, c->user_size)))
        why = "is zero-copy but does not live in the user's chunk at its chunk offset";
      else if (c->staged && c->user_size < c->byte_size)
        why = "is staged into a user chunk smaller than the value";
      else if (c->staged && c->home_addr < c->user_addr + c->user_size && c->user_addr < c->home_addr + c->byte_size)
        why = "is staged but its home overlaps the user's chunk";
      if (why != NULL)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "connections[%u]: v_id %" G_GINT64_FORMAT " (user chunk 0x%" G_GINT64_MODIFIER "x +%" G_GUINT64_FORMAT
                       ", home 0x%" G_GINT64_MODIFIER "x) %s", i, c->v_id, c->user_addr, c->user_size, c->home_addr, why);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
zw_deploy_report_check (const ZwDeployReport *r, ZwDeployCheck *out, GError **error)
{
  g_autoptr (GArray) etm = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr (GArray) ocm = g_array_new (FALSE, FALSE, sizeof (Span));
  const ZwSegmentInfo *ftmp = &r->segments[ZW_SEGMENT_FTMP];
  guint64 bound = 0;
  gint n_ops = (gint) r->n_ops;
  g_autofree guint64 *live = NULL;

  if (out)
    memset (out, 0, sizeof *out);
  if (r->n_ops > r->ops->len)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                   "network: n_ops is %u but the report lists %u ops", r->n_ops, r->ops->len);
      return FALSE;
    }
  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      Span s = { 0 };

      if (v->is_host || v->byte_size == 0)
        continue;
      if (v->first > v->last || v->first < 0 || (n_ops > 0 && v->last >= n_ops))
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "v_id %" G_GINT64_FORMAT ": lifetime ops %d-%d is not inside the network's %d ops", v->v_id,
                       v->first, v->last, n_ops);
          return FALSE;
        }
      s.first = v->first;
      s.last = v->last;
      s.v_id = v->v_id;
      s.chunk = v->chunk;
      if (v->is_ocm)
        {
          s.lo = v->logic_addr;
          if (!zw_range_inside (v->logic_addr, v->byte_size, 0, r->ocm_capacity))
            {
              g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                           "v_id %" G_GINT64_FORMAT ": OCM [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) is past "
                           "the OCM's %" G_GUINT64_FORMAT " bytes", v->v_id, v->logic_addr, v->logic_addr + v->byte_size,
                           r->ocm_capacity);
              return FALSE;
            }
          s.hi = v->logic_addr + v->byte_size;
          g_array_append_val (ocm, s);
          continue;
        }
      {
        const ZwSegmentInfo *seg = &r->segments[v->segment];
        if (!zw_range_inside (v->logic_addr, v->byte_size, seg->logic_addr, seg->byte_size))
          {
            g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                         "v_id %" G_GINT64_FORMAT ": logic [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ") is outside "
                         "its %s segment [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ")", v->v_id, v->logic_addr,
                         v->byte_size, zw_segment_type_to_string (v->segment), seg->logic_addr, seg->byte_size);
            return FALSE;
          }
        if (v->segment == ZW_SEGMENT_FTMP && ftmp->phy_size > 0
            && !zw_range_inside (v->phy_addr, v->byte_size, ftmp->phy_addr, ftmp->phy_size))
          {
            g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                         "v_id %" G_GINT64_FORMAT ": physical [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ") is outside "
                         "the FTMP chunk [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ")", v->v_id, v->phy_addr,
                         v->byte_size, ftmp->phy_addr, ftmp->phy_size);
            return FALSE;
          }
      }
      /* Physical addresses when the report has them, else logic ones (same layout). */
      s.lo = ftmp->phy_size > 0 ? v->phy_addr : v->logic_addr;
      if (!zw_u64_add (s.lo, v->byte_size, &s.hi))
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "v_id %" G_GINT64_FORMAT ": address 0x%" G_GINT64_MODIFIER "x + %" G_GUINT64_FORMAT
                       " bytes wraps around", v->v_id, s.lo, v->byte_size);
          return FALSE;
        }
      g_array_append_val (etm, s);
    }
  if (out)
    {
      out->n_etm_values = etm->len;
      out->n_ocm_values = ocm->len;
    }
  if (!check_overlaps (etm, "ETM", error) || !check_overlaps (ocm, "OCM", error))
    return FALSE;
  if (!check_connections (r, error))
    return FALSE;

  /* The liveness lower bound of FTMP, from the chunks that stay in ETM. */
  live = g_new0 (guint64, MAX (n_ops, 1) + 1);
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      if (c->in_ocm)
        continue;
      for (gint t = MAX (c->first, 0); t <= c->last && t < MAX (n_ops, 1); t++)
        live[t] += c->size;
    }
  for (gint t = 0; t < MAX (n_ops, 1); t++)
    bound = MAX (bound, live[t]);
  if (out)
    out->ftmp_lower_bound = bound;
  if (r->ftmp_bytes < bound)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                   "FTMP is %" G_GUINT64_FORMAT " bytes, below the liveness lower bound %" G_GUINT64_FORMAT
                   ": live chunks must overlap", r->ftmp_bytes, bound);
      return FALSE;
    }
  for (gint t = 0; t < MAX (n_ops, 1); t++)
    {
      guint64 o = zw_deploy_report_ocm_live_bytes (r, t);
      if (out)
        out->ocm_peak = MAX (out->ocm_peak, o);
      if (r->ocm_capacity > 0 && o > r->ocm_capacity)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "OCM holds %" G_GUINT64_FORMAT " bytes at op index %d, more than its %" G_GUINT64_FORMAT, o, t,
                       r->ocm_capacity);
          return FALSE;
        }
    }
  return TRUE;
}
