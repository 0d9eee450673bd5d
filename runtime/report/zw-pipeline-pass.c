/* zw-pipeline-pass.c — one pass of a pipeline on one time axis (see the header). */
#include "report/zw-pipeline-pass.h"

#include "base/zw-checked.h"

#include <stdlib.h>
#include <string.h>

#define NET(p, i) (&g_array_index ((p)->networks, ZwPipelineNetwork, (i)))

gboolean
zw_pipeline_pass_has_times (const ZwPipelineReport *p)
{
  g_return_val_if_fail (p != NULL, FALSE);
  if (p->pass_ms <= 0)
    return FALSE;
  for (guint i = 0; i < p->networks->len; i++)
    if (NET (p, i)->time_ms < 0)
      return FALSE;
  return TRUE;
}

/* A network's length: its time, or its op count (at least one slot). */
static double
network_length (const ZwPipelineReport *p, guint i, gboolean times)
{
  const ZwPipelineNetwork *n = NET (p, i);

  if (times)
    return n->time_ms;
  if (n->n_ops > 0)
    return n->n_ops;
  if (n->report != NULL && n->report->ops->len > 0)
    return n->report->ops->len;
  return 1;
}

/* The op indices of the network's view: [*first, *end) (a view's report lists every op of
 * its network, indices and lifetimes in the whole network's numbering). */
static void
view_range (const ZwPipelineNetwork *n, guint *first, guint *end)
{
  guint len = n->report != NULL ? n->report->ops->len : 0;

  *first = n->first_op >= 0 ? MIN ((guint) n->first_op, len) : 0;
  *end = n->n_ops >= 0 ? MIN (*first + (guint) n->n_ops, len) : len;
  if (*end <= *first)
    {
      *first = 0;
      *end = len;
    }
}

double
zw_pipeline_pass_length (const ZwPipelineReport *p)
{
  gboolean times = zw_pipeline_pass_has_times (p);
  double sum = 0;

  for (guint i = 0; i < p->networks->len; i++)
    sum += network_length (p, i, times);
  return sum > 0 ? sum : 1;
}

gboolean
zw_pipeline_pass_network_span (const ZwPipelineReport *p, guint index, double *t0, double *t1)
{
  gboolean times;
  double t = 0;

  g_return_val_if_fail (p != NULL && t0 != NULL && t1 != NULL, FALSE);
  if (index >= p->networks->len)
    return FALSE;
  times = zw_pipeline_pass_has_times (p);
  for (guint i = 0; i < index; i++)
    t += network_length (p, i, times);
  *t0 = t;
  *t1 = t + network_length (p, index, times);
  return TRUE;
}

/* Each op index's [start, end] inside network @i (from 0): the rows of its time profile
 * (a merged launch's row covers its members), else one slot per op. Two doubles per op. */
static double *
op_times (const ZwPipelineReport *p, guint i, gboolean times)
{
  const ZwPipelineNetwork *n = NET (p, i);
  const ZwDeployReport *r = n->report;
  g_autoptr (GHashTable) row_of = NULL;
  double *t, cursor = 0, origin = G_MAXDOUBLE, start = 0;

  guint first, end;
  double length;

  if (r == NULL || r->ops->len == 0)
    return NULL;
  view_range (n, &first, &end);
  length = network_length (p, i, times);
  t = g_new0 (double, 2 * (gsize) r->ops->len);
  if (!times || n->profile == NULL)
    {
      /* one slot per op of the view; ops before it at its start, after it at its end */
      double step = length / (end - first);
      for (guint k = 0; k < r->ops->len; k++)
        {
          double a = k < first ? 0 : k >= end ? length : (k - first) * step;
          t[2 * k] = a;
          t[2 * k + 1] = k < first || k >= end ? a : a + step;
        }
      return t;
    }
  /* op id -> row; rows without a start are laid end to end */
  row_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint k = 0; k < n->profile->rows->len; k++)
    {
      ZwProfileRow *row = g_ptr_array_index (n->profile->rows, k);
      g_hash_table_insert (row_of, &row->op_id, row);
      for (guint m = 0; row->merge_from != NULL && m < row->merge_from->len; m++)
        g_hash_table_insert (row_of, &g_array_index (row->merge_from, gint64, m), row);
      if (row->start_ms >= 0)
        origin = MIN (origin, row->start_ms);
    }
  if (origin == G_MAXDOUBLE)
    origin = 0;
  for (guint k = 0; k < r->ops->len; k++)
    {
      const ZwOpInfo *op = &g_array_index (r->ops, ZwOpInfo, k);
      const ZwProfileRow *row = k >= first && k < end ? g_hash_table_lookup (row_of, &op->op_id) : NULL;
      if (k >= end)
        t[2 * k] = t[2 * k + 1] = n->time_ms;
      else if (row != NULL)
        {
          start = row->start_ms >= 0 ? row->start_ms - origin : cursor;
          t[2 * k] = start;
          t[2 * k + 1] = start + MAX (row->total_ms, 0);
          cursor = MAX (cursor, t[2 * k + 1]);
        }
      else
        t[2 * k] = t[2 * k + 1] = cursor;   /* no time of its own: a point where it ran */
    }
  /* the network's time is the axis: rows never reach past it */
  for (guint k = 0; k < 2 * r->ops->len; k++)
    t[k] = CLAMP (t[k], 0, n->time_ms);
  return t;
}

gboolean
zw_pipeline_pass_op_span (const ZwPipelineReport *p, guint index, guint op, double *t0, double *t1)
{
  g_autofree double *t = NULL;
  double s0, s1;

  g_return_val_if_fail (p != NULL && t0 != NULL && t1 != NULL, FALSE);
  if (!zw_pipeline_pass_network_span (p, index, &s0, &s1) || NET (p, index)->report == NULL
      || op >= NET (p, index)->report->ops->len)
    return FALSE;
  t = op_times (p, index, zw_pipeline_pass_has_times (p));
  *t0 = s0 + t[2 * op];
  *t1 = s0 + t[2 * op + 1];
  return TRUE;
}

static void
locate (const ZwPipelineReport *p, ZwPassChunk *c)
{
  c->share = c->connection = -1;
  for (guint i = 0; i < p->shares->len; i++)
    {
      const ZwPipelineShare *s = &g_array_index (p->shares, ZwPipelineShare, i);
      if (c->addr >= s->addr && c->addr - s->addr < s->size)
        c->share = (gint) i;
    }
  for (guint i = 0; i < p->connections->len; i++)
    {
      const ZwPipelineConnection *k = &g_array_index (p->connections, ZwPipelineConnection, i);
      if (k->size > 0 && c->addr >= k->addr && c->addr - k->addr < k->size)
        c->connection = (gint) i;
    }
}

static void
add (GArray *out, const ZwPipelineReport *p, ZwPassChunk c)
{
  if (c.size == 0)
    return;
  if (c.t1 <= c.t0)
    c.t1 = c.t0 + zw_pipeline_pass_length (p) * 1e-4;   /* an instant still shows */
  locate (p, &c);
  g_array_append_val (out, c);
}

/* The ETM address of a compiler chunk of @r: a connected value's chunk lives where the
 * connection put it, the others at FTMP's physical address plus their offset. */
static guint64
chunk_addr (const ZwDeployReport *r, const ZwChunkInfo *c)
{
  for (guint i = 0; r->connections != NULL && i < r->connections->len; i++)
    {
      const ZwConnectionInfo *k = &g_array_index (r->connections, ZwConnectionInfo, i);
      if (k->chunk >= 0 && k->chunk == c->id && k->home_addr >= k->chunk_offset)
        return k->home_addr - k->chunk_offset;
    }
  return r->segments[ZW_SEGMENT_FTMP].phy_addr + c->ftmp_offset;
}

static gboolean
resident_seen (GArray *out, guint64 addr, guint64 size)
{
  for (guint i = 0; i < out->len; i++)
    {
      const ZwPassChunk *c = &g_array_index (out, ZwPassChunk, i);
      if (c->kind == ZW_PASS_CHUNK_RESIDENT && c->addr == addr && c->size == size)
        return TRUE;
    }
  return FALSE;
}

static void
network_chunks (GArray *out, const ZwPipelineReport *p, guint i, gboolean times)
{
  const ZwDeployReport *r = NET (p, i)->report;
  g_autofree double *t = NULL;
  double s0, s1, len = zw_pipeline_pass_length (p);
  g_autoptr (GHashTable) in_chunk = g_hash_table_new (g_int64_hash, g_int64_equal);

  guint vfirst, vend;

  if (r == NULL || r->ops->len == 0)
    return;
  view_range (NET (p, i), &vfirst, &vend);
  zw_pipeline_pass_network_span (p, i, &s0, &s1);
  t = op_times (p, i, times);
  for (guint s = ZW_SEGMENT_WEIGHT; s <= ZW_SEGMENT_INSTR; s++)
    if (r->segments[s].phy_size > 0 && !resident_seen (out, r->segments[s].phy_addr, r->segments[s].phy_size))
      add (out, p, (ZwPassChunk) { ZW_PASS_CHUNK_RESIDENT, (gint) i, -1, (gint) s, r->segments[s].phy_addr,
                                   r->segments[s].phy_size, 0, len, -1, -1, -1, -1 });
  for (guint k = 0; k < r->chunks->len; k++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, k);
      guint first = (guint) CLAMP (c->first, (gint) vfirst, (gint) vend - 1);
      guint last = (guint) CLAMP (c->last, (gint) first, (gint) vend - 1);
      for (guint v = 0; c->v_ids != NULL && v < c->v_ids->len; v++)
        g_hash_table_add (in_chunk, &g_array_index (c->v_ids, gint64, v));
      if (c->in_ocm)
        continue;
      add (out, p, (ZwPassChunk) { ZW_PASS_CHUNK_FTMP, (gint) i, -1, ZW_SEGMENT_FTMP, chunk_addr (r, c), c->size,
                                   s0 + t[2 * first], s0 + t[2 * last + 1], c->id,
                                   c->v_ids != NULL && c->v_ids->len > 0 ? g_array_index (c->v_ids, gint64, 0) : -1,
                                   -1, -1 });
    }
  for (guint k = 0; k < r->values->len; k++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, k);
      guint first, last;
      if ((v->segment != ZW_SEGMENT_INPUT && v->segment != ZW_SEGMENT_OUTPUT) || !v->real || v->is_host || v->is_ocm
          || v->byte_size == 0 || g_hash_table_contains (in_chunk, &v->v_id))
        continue;
      first = (guint) CLAMP (v->first, (gint) vfirst, (gint) vend - 1);
      last = (guint) CLAMP (v->last, (gint) first, (gint) vend - 1);
      add (out, p, (ZwPassChunk) { ZW_PASS_CHUNK_IO, (gint) i, -1, (gint) v->segment, v->phy_addr, v->byte_size,
                                   s0 + t[2 * first], s0 + t[2 * last + 1], -1, v->v_id, -1, -1 });
    }
}

GArray *
zw_pipeline_pass_chunks (const ZwPipelineReport *p)
{
  GArray *out;
  gboolean times;

  g_return_val_if_fail (p != NULL, NULL);
  out = g_array_new (FALSE, TRUE, sizeof (ZwPassChunk));
  times = zw_pipeline_pass_has_times (p);
  for (guint i = 0; i < p->connections->len; i++)
    {
      const ZwPipelineConnection *k = &g_array_index (p->connections, ZwPipelineConnection, i);
      double a0, a1, b0, b1;
      if (k->size == 0 || !zw_pipeline_pass_network_span (p, (guint) k->from, &a0, &a1)
          || !zw_pipeline_pass_network_span (p, (guint) k->to, &b0, &b1))
        continue;   /* through the host: nothing on the board */
      add (out, p, (ZwPassChunk) { ZW_PASS_CHUNK_CONNECT, k->from, k->to, -1, k->addr, k->size, MIN (a0, b0),
                                   MAX (a1, b1), -1, k->output_v_id, -1, -1 });
    }
  for (guint i = 0; i < p->networks->len; i++)
    network_chunks (out, p, i, times);
  return out;
}

ZwProfile *
zw_pipeline_pass_profile (const ZwPipelineReport *p)
{
  g_autoptr (ZwProfile) out = NULL;

  g_return_val_if_fail (p != NULL, NULL);
  if (!zw_pipeline_pass_has_times (p))
    return NULL;
  out = zw_profile_new (p->name != NULL && p->name[0] != '\0' ? p->name : NULL);
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = NET (p, i);
      double s0, s1, origin = G_MAXDOUBLE, cursor;
      if (n->profile == NULL)
        continue;
      zw_pipeline_pass_network_span (p, i, &s0, &s1);
      for (guint k = 0; k < n->profile->rows->len; k++)
        {
          const ZwProfileRow *row = g_ptr_array_index (n->profile->rows, k);
          if (row->start_ms >= 0)
            origin = MIN (origin, row->start_ms);
        }
      if (origin == G_MAXDOUBLE)
        origin = 0;
      cursor = s0;
      for (guint k = 0; k < n->profile->rows->len; k++)
        {
          const ZwProfileRow *row = g_ptr_array_index (n->profile->rows, k);
          g_autofree char *name = row->op_name != NULL && row->op_name[0] != '\0'
                                    ? g_strdup_printf ("%s: %s", n->name, row->op_name)
                                    : g_strdup (n->name);
          ZwProfileRow *copy = zw_profile_add_row (out, row->op_id, row->op_type, name, row->total_ms, row->memcpy_ms,
                                                   row->hard_ms, row->other_ms);
          copy->has_io_process = row->has_io_process;
          copy->is_io_process = row->is_io_process;
          if (row->merge_from != NULL && row->merge_from->len > 0)
            g_array_append_vals (copy->merge_from, row->merge_from->data, row->merge_from->len);
          copy->backend = g_strdup (row->backend);
          copy->start_ms = row->start_ms >= 0 ? s0 + row->start_ms - origin : cursor;
          copy->host_measured_ms = row->host_measured_ms;
          cursor = MAX (cursor, copy->start_ms + MAX (row->total_ms, 0));
        }
    }
  if (out->rows->len == 0)
    return NULL;
  zw_profile_compute_totals (out);
  zw_profile_order_recorded (out);
  zw_profile_check_rows (out);
  return g_steal_pointer (&out);
}

gint
zw_pipeline_pass_network_of_row (const ZwPipelineReport *p, guint row)
{
  guint seen = 0;

  g_return_val_if_fail (p != NULL, -1);
  if (!zw_pipeline_pass_has_times (p))
    return -1;
  for (guint i = 0; i < p->networks->len; i++)
    {
      const ZwPipelineNetwork *n = NET (p, i);
      if (n->profile == NULL)
        continue;
      if (row < seen + n->profile->rows->len)
        return (gint) i;
      seen += n->profile->rows->len;
    }
  return -1;
}

char *
zw_pipeline_value_name (const char *network, gint64 v_id)
{
  g_return_val_if_fail (network != NULL, NULL);
  return g_strdup_printf ("%s:%" G_GINT64_FORMAT, network, v_id);
}

gboolean
zw_pipeline_value_parse (const char *name, char **network, gint64 *v_id)
{
  const char *colon;
  gint64 v;

  g_return_val_if_fail (network != NULL && v_id != NULL, FALSE);
  if (name == NULL || (colon = strrchr (name, ':')) == NULL || colon == name)
    return FALSE;
  if (zw_text_int64 (colon + 1, 0, G_MAXINT64, &v) != ZW_NUM_OK)
    return FALSE;
  *network = g_strndup (name, (gsize) (colon - name));
  *v_id = v;
  return TRUE;
}

char *
zw_pipeline_value_file_name (const char *network, gint64 v_id)
{
  g_return_val_if_fail (network != NULL, NULL);
  return g_strdup_printf ("%s.%" G_GINT64_FORMAT ".ftmp", network, v_id);
}
