/* zw-pipeline-check.c — the independent checker of a pipeline report (see the header). It
 * reads the model zw_pipeline_report_from_json() made (every number already through checked
 * conversion) and takes none of the report's figures on trust. */
#include "report/zw-pipeline-check.h"

#include "base/zw-checked.h"
#include "report/zw-deploy-check.h"
#include "report/zw-pipeline-report-private.h"

#include <string.h>

/* The board chunk holding @addr, or NULL. */
static const ZwBoardChunk *
chunk_at (const ZwPipelineReport *r, guint64 addr)
{
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (r->chunks, ZwBoardChunk, i);
      if (addr >= c->addr && addr - c->addr < c->size)
        return c;
    }
  return NULL;
}

/* Whether the share at @addr of segment type @t lists network @name. */
static gboolean
share_lists (const ZwPipelineReport *r, guint64 addr, ZwSegmentType t, const char *name)
{
  for (guint i = 0; i < r->shares->len; i++)
    {
      const ZwPipelineShare *s = &g_array_index (r->shares, ZwPipelineShare, i);
      if (s->segment == (gint) t && s->addr == addr
          && g_ptr_array_find_with_equal_func (s->networks, name, g_str_equal, NULL))
        return TRUE;
    }
  return FALSE;
}

/* Every WEIGHT/INSTR/FTMP of network @n lies in a board chunk that is its own or a share
 * that lists it. */
static gboolean
check_segments (const ZwPipelineReport *r, const ZwPipelineNetwork *n, const char *origin, GError **error)
{
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      const ZwSegmentInfo *s = &n->report->segments[t];
      const char *seg = zw_segment_type_to_string ((ZwSegmentType) t);
      const ZwBoardChunk *b;
      g_autofree char *own = NULL;

      if (t == ZW_SEGMENT_INPUT || t == ZW_SEGMENT_OUTPUT || s->phy_size == 0)
        continue;
      own = g_strdup_printf ("%s:%s", n->name, seg);
      if ((b = chunk_at (r, s->phy_addr)) == NULL || s->byte_size > b->size - (s->phy_addr - b->addr))
        return zw_pipeline_report_fail (error, origin, "network \"%s\": its %s segment (0x%" G_GINT64_MODIFIER "x, %"
                                        G_GUINT64_FORMAT " bytes) is not inside a board chunk", n->name, seg,
                                        s->phy_addr, s->byte_size);
      if (strcmp (b->owner, own) == 0)
        continue;
      if (b->kind != ZW_BOARD_CHUNK_SHARE || !s->user_used)
        return zw_pipeline_report_fail (error, origin, "network \"%s\": its %s segment lies in board chunk 0x%"
                                        G_GINT64_MODIFIER "x, which is %s's", n->name, seg, b->addr, b->owner);
      if (!share_lists (r, b->addr, (ZwSegmentType) t, n->name))
        return zw_pipeline_report_fail (error, origin,
                                        "network \"%s\": its %s segment lies in %s, which does not list it", n->name,
                                        seg, b->owner);
    }
  return TRUE;
}

/* A connection on the board: both ends in its chunk, at its start. @zero_copy counts the
 * ends that are. */
static gboolean
check_connection (const ZwPipelineReport *r, const ZwPipelineConnection *c, const char *origin, guint *zero_copy,
                  GError **error)
{
  const gint ends[2] = { c->from, c->to };
  const gint64 v_ids[2] = { c->output_v_id, c->input_v_id };
  const ZwBoardChunk *b;
  g_autofree char *own = NULL;

  for (guint e = 0; e < 2; e++)
    {
      const ZwPipelineNetwork *n = &g_array_index (r->networks, ZwPipelineNetwork, ends[e]);
      gboolean found = FALSE;

      if (n->report == NULL)
        return zw_pipeline_report_fail (error, origin,
                                        "connection \"%s\": network \"%s\" is not on the board, yet the connection "
                                        "is not through the host", c->name, n->name);
      for (guint k = 0; n->report->connections && k < n->report->connections->len; k++)
        {
          const ZwConnectionInfo *ci = &g_array_index (n->report->connections, ZwConnectionInfo, k);
          if (ci->v_id != v_ids[e])
            continue;
          found = TRUE;
          if (ci->user_addr != c->addr)
            return zw_pipeline_report_fail (error, origin, "connection \"%s\": network \"%s\" v_id %" G_GINT64_FORMAT
                                            " lives at 0x%" G_GINT64_MODIFIER "x, not in the connection's chunk 0x%"
                                            G_GINT64_MODIFIER "x", c->name, n->name, v_ids[e], ci->user_addr,
                                            c->addr);
          *zero_copy += !ci->staged;
        }
      if (!found)
        return zw_pipeline_report_fail (error, origin, "connection \"%s\": network \"%s\" does not connect v_id %"
                                        G_GINT64_FORMAT, c->name, n->name, v_ids[e]);
    }
  b = chunk_at (r, c->addr);
  own = g_strdup_printf ("connect:%s", c->name);
  if (b == NULL || b->addr != c->addr || strcmp (b->owner, own) != 0)
    return zw_pipeline_report_fail (error, origin, "connection \"%s\": its chunk 0x%" G_GINT64_MODIFIER
                                    "x is not a board chunk of its own", c->name, c->addr);
  return TRUE;
}

gboolean
zw_pipeline_report_check (const ZwPipelineReport *r, const char *origin, ZwPipelineCheck *out, GError **error)
{
  ZwPipelineCheck c = { 0 };

  g_return_val_if_fail (r != NULL && origin != NULL, FALSE);

  /* each network's report holds on its own; one not on the board takes no ETM */
  for (guint i = 0; i < r->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (r->networks, ZwPipelineNetwork, i);
      if (n->report == NULL && n->apart_etm_bytes != 0)
        return zw_pipeline_report_fail (error, origin, "network \"%s\" is not on the board but takes %"
                                        G_GUINT64_FORMAT " ETM bytes apart", n->name, n->apart_etm_bytes);
      if (n->report != NULL && !zw_deploy_report_check (n->report, NULL, error))
        {
          /* the deploy checker knows no file: say which file and which network */
          g_prefix_error (error, "%s: network \"%s\": deploy report: ", origin, n->name);
          return FALSE;
        }
      if (!zw_u64_add (c.apart_bytes, n->apart_etm_bytes, &c.apart_bytes))
        return zw_pipeline_report_fail (error, origin, "the networks' apart_etm_bytes overflow");
    }
  c.n_networks = r->networks->len;

  /* the board's chunks (sorted by address): disjoint; the pipeline's ETM is their bytes */
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwBoardChunk *b = &g_array_index (r->chunks, ZwBoardChunk, i);
      if (i > 0)
        {
          const ZwBoardChunk *p = &g_array_index (r->chunks, ZwBoardChunk, i - 1);
          if (p->addr + p->size > b->addr)
            return zw_pipeline_report_fail (error, origin, "board chunks 0x%" G_GINT64_MODIFIER "x (%s) and 0x%"
                                            G_GINT64_MODIFIER "x (%s) overlap", p->addr, p->owner, b->addr, b->owner);
        }
      if (b->kind != ZW_BOARD_CHUNK_OTHER && !zw_u64_add (c.etm_bytes, b->size, &c.etm_bytes))
        return zw_pipeline_report_fail (error, origin, "the board's ETM overflows");
    }

  for (guint i = 0; i < r->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (r->networks, ZwPipelineNetwork, i);
      if (n->report != NULL && !check_segments (r, n, origin, error))
        return FALSE;
    }
  c.n_shared = r->shares->len;

  for (guint i = 0; i < r->connections->len; i++)
    {
      const ZwPipelineConnection *k = &g_array_index (r->connections, ZwPipelineConnection, i);
      guint zero = 0;
      /* through the host: no chunk on the board, nothing of the board's to check */
      if (strcmp (k->from_mode, "host") != 0 && strcmp (k->to_mode, "host") != 0)
        {
          if (!check_connection (r, k, origin, &zero, error))
            return FALSE;
          c.n_zero_copy += zero == 2;
        }
      c.n_connections++;
    }

  if (r->board_bytes != c.etm_bytes)
    return zw_pipeline_report_fail (error, origin, "etm.board_bytes is %" G_GUINT64_FORMAT
                                    ", the board's chunks hold %" G_GUINT64_FORMAT, r->board_bytes, c.etm_bytes);
  if (r->apart_bytes != c.apart_bytes)
    return zw_pipeline_report_fail (error, origin, "etm.apart_bytes is %" G_GUINT64_FORMAT
                                    ", the networks' apart_etm_bytes sum to %" G_GUINT64_FORMAT, r->apart_bytes,
                                    c.apart_bytes);
  if (out)
    *out = c;
  return TRUE;
}

gboolean
zw_pipeline_report_check_json (const cJSON *root, const char *origin, ZwPipelineCheck *out, GError **error)
{
  g_autoptr (ZwPipelineReport) r = zw_pipeline_report_from_json (root, origin, error);
  return r != NULL && zw_pipeline_report_check (r, origin, out, error);
}
