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

/* The chunk table is what apply places (a chunk's offset or OCM address, its values at their
 * chunk offsets); the values are what the checks above verify.  Each must say the other:
 * every chunk inside its memory, every value of a listed chunk at that chunk's address plus
 * its chunk offset and inside the chunk, every FTMP value's chunk listed, every chunk's
 * v_ids values of that chunk.  A report without a chunk table has nothing to agree with. */
static gboolean
check_chunks (const ZwDeployReport *r, GError **error)
{
  const ZwSegmentInfo *ftmp = &r->segments[ZW_SEGMENT_FTMP];

  if (r->chunks->len == 0)
    return TRUE;
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      gboolean inside = c->in_ocm ? c->ocm_addr != G_MAXUINT64
                                    && (r->ocm_capacity == 0 || zw_range_inside (c->ocm_addr, c->size, 0, r->ocm_capacity))
                                  : zw_range_inside (c->ftmp_offset, c->size, 0, ftmp->byte_size);
      if (!inside)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "chunks[%u] (chunk %" G_GINT64_FORMAT "): field %s: [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                       ") is outside %s (%" G_GUINT64_FORMAT " bytes)", i, c->id, c->in_ocm ? "ocm_addr" : "ftmp_offset",
                       c->in_ocm ? c->ocm_addr : c->ftmp_offset, c->size, c->in_ocm ? "the OCM" : "the FTMP segment",
                       c->in_ocm ? r->ocm_capacity : ftmp->byte_size);
          return FALSE;
        }
      for (guint k = 0; k < c->v_ids->len; k++)
        {
          gint64 id = g_array_index (c->v_ids, gint64, k);
          const ZwValueInfo *v = zw_deploy_report_find_value (r, id);
          if (v == NULL || v->chunk != c->id)
            {
              g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                           "chunks[%u] (chunk %" G_GINT64_FORMAT "): field v_ids: v_id %" G_GINT64_FORMAT " %s", i, c->id,
                           id, v == NULL ? "is not among the report's values" : "names another chunk in its field chunk");
              return FALSE;
            }
        }
    }
  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      const ZwChunkInfo *c;
      guint64 at = 0, end = 0;
      const char *field = NULL;

      if (v->is_host || v->byte_size == 0 || (v->segment != ZW_SEGMENT_FTMP && !v->is_ocm))
        continue;
      c = zw_deploy_report_find_chunk (r, v->chunk);
      if (c == NULL)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "v_id %" G_GINT64_FORMAT ": field chunk: chunk %" G_GINT64_FORMAT " is not in the chunk table",
                       v->v_id, v->chunk);
          return FALSE;
        }
      if (v->is_ocm != c->in_ocm)
        field = "is_ocm";
      else if (!zw_u64_add (v->chunk_offset, v->byte_size, &end) || end > c->size)
        field = "chunk_offset";
      else if (!zw_u64_add (c->in_ocm ? c->ocm_addr : ftmp->logic_addr + c->ftmp_offset, v->chunk_offset, &at)
               || at != v->logic_addr)
        field = "logic_addr";
      else if (!c->in_ocm && ftmp->phy_size > 0 && v->phy_addr - ftmp->phy_addr != v->logic_addr - ftmp->logic_addr)
        field = "phy_addr";
      if (field != NULL)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "v_id %" G_GINT64_FORMAT ": field %s disagrees with its chunk %" G_GINT64_FORMAT " (%s 0x%"
                       G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT " bytes): the value is at %s 0x%" G_GINT64_MODIFIER
                       "x +%" G_GUINT64_FORMAT " (chunk offset %" G_GUINT64_FORMAT "), the chunk puts it at 0x%"
                       G_GINT64_MODIFIER "x", v->v_id, field, c->id, c->in_ocm ? "OCM" : "FTMP offset",
                       c->in_ocm ? c->ocm_addr : c->ftmp_offset, c->size, v->is_ocm ? "OCM" : "logic", v->logic_addr,
                       v->byte_size, v->chunk_offset, at);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
zw_deploy_report_check_agree (const ZwDeployReport *verified, const ZwDeployReport *applied, GError **error)
{
  g_return_val_if_fail (verified != NULL && applied != NULL, FALSE);
  for (guint i = 0; i < applied->values->len; i++)
    {
      const ZwValueInfo *a = &g_array_index (applied->values, ZwValueInfo, i);
      const ZwValueInfo *v = zw_deploy_report_find_value (verified, a->v_id);
      const char *field = NULL;

      if (a->is_host || a->byte_size == 0 || (a->segment != ZW_SEGMENT_FTMP && !a->is_ocm))
        continue;
      if (v == NULL)
        field = "v_id";
      else if (v->chunk != a->chunk)
        field = "chunk";
      else if (v->chunk_offset != a->chunk_offset)
        field = "chunk_offset";
      else if (v->byte_size != a->byte_size)
        field = "byte_size";
      else if (v->is_ocm != a->is_ocm)
        field = "is_ocm";
      else if (v->logic_addr != a->logic_addr)
        field = "logic_addr";
      if (field != NULL)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       "v_id %" G_GINT64_FORMAT ": field %s: the plan's chunk table would place it at %s 0x%"
                       G_GINT64_MODIFIER "x (chunk %" G_GINT64_FORMAT " + %" G_GUINT64_FORMAT "), not where its "
                       "checked values say%s", a->v_id, field, a->is_ocm ? "OCM" : "logic", a->logic_addr, a->chunk,
                       a->chunk_offset, v == NULL ? " (the value is missing from them)" : "");
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
  g_autofree guint64 *ocm_live = NULL;

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
  if (!check_connections (r, error) || !check_chunks (r, error))
    return FALSE;

  /* The liveness lower bound of FTMP, from the chunks that stay in ETM, and the OCM
   * occupancy, both summed here (an independent reading of the chunks' lifetimes). */
  live = g_new0 (guint64, MAX (n_ops, 1) + 1);
  ocm_live = g_new0 (guint64, MAX (n_ops, 1) + 1);
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      guint64 *into = c->in_ocm ? ocm_live : live;
      for (gint t = MAX (c->first, 0); t <= c->last && t < MAX (n_ops, 1); t++)
        into[t] += c->size;
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
      guint64 o = ocm_live[t];
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
