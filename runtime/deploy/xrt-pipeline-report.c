/* xrt-pipeline-report.c — the pipeline report and its independent checker.
 *
 * JSON ("format": "zhuge-pipeline-report", "version": 1):
 * {
 *   "pipeline":    { "name", "file" },
 *   "device":      "mock://zg330",
 *   "networks":    [ { "name", "json", "stage", "view": [first op index, n_ops],
 *                      "apart_etm_bytes",     // its ETM deployed alone on a board of its own
 *                      "time_ms",             // its simulated time in the last pass (profiled)
 *                      "profile": { time profile JSON (report/zw-profile.h) },  // its last pass, profiled
 *                      "report": { deploy report, graph included } } ],   // in pass order
 *   "shares":      [ { "name", "networks": [..], "segment", "addr", "size" } ],
 *   "connections": [ { "name", "from", "output_v_id", "to", "input_v_id", "addr", "size",
 *                      "bytes", "from_mode", "to_mode" } ],   // "zero-copy" | "staged"
 *   "board_chunks": [ { "addr", "size", "owner" } ],   // every ETM chunk of the board, owner
 *                      // "NET:SEGMENT", "share:NAME:SEGMENT", "connect:NAME" or "other"
 *   "etm":         { "board_bytes", "apart_bytes", "saved_bytes" },
 *   "time":        { "pass_ms", "passes" }              // when profiled
 * }
 */
#include "deploy/xrt-pipeline-private.h"

#include "backends/zg330/zg330-backend.h"
#include "base/zw-checked.h"
#include "report/zw-deploy-check.h"
#include "report/zw-profile.h"

#include <string.h>

#define FORMAT "zhuge-pipeline-report"

/* ---- writing ------------------------------------------------------------------------- */

static const char *
mode_of (const ZwDeployReport *r, gint64 v_id)
{
  for (guint i = 0; r->connections && i < r->connections->len; i++)
    {
      const ZwConnectionInfo *c = &g_array_index (r->connections, ZwConnectionInfo, i);
      if (c->v_id == v_id)
        return c->staged ? "staged" : "zero-copy";
    }
  return "none";
}

/* The ETM a network takes deployed alone: the same view and options applied on a new
 * simulated board of its compile target, the bytes of every chunk of that board's ETM. */
static gboolean
apart_bytes (XrtPipelineMember *m, guint64 *out, GError **error)
{
  g_autoptr (XrtDeployment) d = NULL;
  g_autoptr (GPtrArray) chunks = NULL;
  g_autoptr (GHashTable) before = g_hash_table_new (g_direct_hash, g_direct_equal);
  const XrtPipelineNet *n = m->spec;
  XrtMemManager *mm;
  guint64 sum = 0;

  if (!m->on_board)
    {
      *out = 0;   /* host ops only: no ETM */
      return TRUE;
    }
  d = xrt_deployment_new_for_view (xrt_deployment_get_view (m->deployment));
  if (n->merge_hardop == 0)
    xrt_deployment_disable_merge_hardop (d);
  if (n->etm_optimize == 0)
    xrt_deployment_disable_etm_optimize (d);
  if (n->ocm_given)
    xrt_deployment_ocm_optimize (d, n->ocm);
  if (!xrt_deployment_open_simulated_board (d, NULL, error))
    return FALSE;
  /* the board's own chunks (its timer, profiler…) are there before the network */
  mm = xrt_mem_region_get_manager (xrt_device_get_default_mem_region (xrt_deployment_get_device (d)));
  chunks = xrt_mem_manager_list_chunks (mm);
  for (guint i = 0; chunks && i < chunks->len; i++)
    g_hash_table_add (before, GSIZE_TO_POINTER (xrt_mem_chunk_get_addr (g_ptr_array_index (chunks, i))));
  g_clear_pointer (&chunks, g_ptr_array_unref);
  if (!xrt_deployment_apply (d, error))
    return FALSE;
  chunks = xrt_mem_manager_list_chunks (mm);
  for (guint i = 0; chunks && i < chunks->len; i++)
    if (!g_hash_table_contains (before, GSIZE_TO_POINTER (xrt_mem_chunk_get_addr (g_ptr_array_index (chunks, i)))))
      sum += xrt_mem_chunk_get_size (g_ptr_array_index (chunks, i));
  *out = sum;
  return TRUE;
}

static void
report_unref0 (gpointer r)
{
  if (r != NULL)
    zw_deploy_report_unref (r);
}

static cJSON *
chunk_json (guint64 addr, guint64 size, const char *owner)
{
  cJSON *o = cJSON_CreateObject ();
  cJSON_AddNumberToObject (o, "addr", (double) addr);
  cJSON_AddNumberToObject (o, "size", (double) size);
  cJSON_AddStringToObject (o, "owner", owner);
  return o;
}

/* Who holds the board chunk at @addr: a share, a connection, or a network's segment or
 * input/output chunk. */
static char *
owner_of (XrtPipeline *self, GPtrArray *reports, guint64 addr, guint64 size)
{
  for (guint i = 0; i < self->shared->len; i++)
    {
      XrtPipelineShared *s = &g_array_index (self->shared, XrtPipelineShared, i);
      if (xrt_mem_chunk_get_addr (s->chunk) == addr)
        return g_strdup_printf ("share:%s:%s", s->share, zw_segment_type_to_string (s->type));
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      XrtPipelineLink *l = &g_array_index (self->links, XrtPipelineLink, i);
      if (l->chunk != NULL && xrt_mem_chunk_get_addr (l->chunk) == addr)
        return g_strdup_printf ("connect:%s", l->name);
    }
  for (guint i = 0; i < reports->len; i++)
    {
      const ZwDeployReport *r = g_ptr_array_index (reports, i);
      const char *name = XRT_PIPELINE_MEMBER (self, i)->name;
      if (r == NULL)
        continue;
      for (guint t = 0; t < ZW_N_SEGMENTS; t++)
        if (t != ZW_SEGMENT_INPUT && t != ZW_SEGMENT_OUTPUT && r->segments[t].phy_size > 0 && r->segments[t].phy_addr == addr)
          return g_strdup_printf ("%s:%s", name, zw_segment_type_to_string ((ZwSegmentType) t));
      for (guint k = 0; k < r->values->len; k++)
        {
          const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, k);
          if ((v->segment == ZW_SEGMENT_INPUT || v->segment == ZW_SEGMENT_OUTPUT) && v->real && !v->is_host
              && v->phy_addr >= addr && v->phy_addr - addr < size)
            return g_strdup_printf ("%s:%s", name, zw_segment_type_to_string (v->segment));
        }
    }
  return g_strdup ("other");
}

cJSON *
xrt_pipeline_report_to_json (XrtPipeline *self, GError **error)
{
  g_autoptr (GPtrArray) reports = g_ptr_array_new_with_free_func (report_unref0);
  g_autoptr (GPtrArray) chunks = NULL;
  cJSON *root, *arr, *o;
  guint64 board = 0, apart = 0;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  if (!self->applied)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER, "%s: a report before apply",
                   self->spec->origin);
      return NULL;
    }
  for (guint i = 0; i < self->members->len; i++)
    g_ptr_array_add (reports, XRT_PIPELINE_MEMBER (self, i)->on_board
                                ? xrt_deployment_get_report (XRT_PIPELINE_MEMBER (self, i)->deployment) : NULL);

  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "format", FORMAT);
  cJSON_AddNumberToObject (root, "version", 1);
  o = cJSON_AddObjectToObject (root, "pipeline");
  cJSON_AddStringToObject (o, "name", self->spec->name);
  cJSON_AddStringToObject (o, "file", self->spec->origin);
  cJSON_AddStringToObject (root, "device", xrt_device_get_url (self->device));

  arr = cJSON_AddArrayToObject (root, "networks");
  for (guint i = 0; i < self->members->len; i++)
    {
      XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
      XirNetworkView *view = xrt_deployment_get_view (m->deployment);
      cJSON *n = cJSON_CreateObject (), *v;
      guint64 mine = 0;

      if (!apart_bytes (m, &mine, error))
        {
          g_prefix_error (error, "%s: network \"%s\" deployed apart: ", self->spec->origin, m->name);
          cJSON_Delete (n);
          cJSON_Delete (root);
          return NULL;
        }
      if (!zw_u64_add (apart, mine, &apart))
        apart = G_MAXUINT64;
      cJSON_AddStringToObject (n, "name", m->name);
      cJSON_AddStringToObject (n, "json", m->spec->json);
      cJSON_AddNumberToObject (n, "stage", m->spec->stage);
      v = cJSON_AddArrayToObject (n, "view");
      cJSON_AddItemToArray (v, cJSON_CreateNumber (xir_network_view_get_start (view)));
      cJSON_AddItemToArray (v, cJSON_CreateNumber (xir_network_view_get_n_ops (view)));
      cJSON_AddNumberToObject (n, "apart_etm_bytes", (double) mine);
      if (self->profile && self->passes > 0)
        {
          const ZwProfile *p = xrt_session_get_time_profile (xrt_deployment_get_session (m->deployment));
          cJSON_AddNumberToObject (n, "time_ms", m->pass_ms);
          /* its ops' times: the workbench lays the pass out op by op (Timing, Memory) */
          if (p != NULL && p->rows->len > 0)
            {
              g_autofree char *text = zw_profile_to_string (p, ZW_PROFILE_FORMAT_JSON);
              cJSON *pj = text != NULL ? cJSON_Parse (text) : NULL;
              if (pj != NULL)
                cJSON_AddItemToObject (n, "profile", pj);
            }
        }
      cJSON_AddBoolToObject (n, "on_board", m->on_board);
      /* a network of host ops only has no deploy report: nothing of it is on the board */
      if (m->on_board)
        cJSON_AddItemToObject (n, "report", zw_deploy_report_to_json (g_ptr_array_index (reports, i)));
      cJSON_AddItemToArray (arr, n);
    }

  arr = cJSON_AddArrayToObject (root, "shares");
  for (guint i = 0; i < self->shared->len; i++)
    {
      XrtPipelineShared *s = &g_array_index (self->shared, XrtPipelineShared, i);
      cJSON *j = cJSON_CreateObject (), *names = cJSON_AddArrayToObject (j, "networks");
      cJSON_AddStringToObject (j, "name", s->share);
      for (guint k = 0; k < s->spec->networks->len; k++)
        cJSON_AddItemToArray (names, cJSON_CreateString (g_ptr_array_index (s->spec->networks, k)));
      cJSON_AddStringToObject (j, "segment", zw_segment_type_to_string (s->type));
      cJSON_AddNumberToObject (j, "addr", (double) xrt_mem_chunk_get_addr (s->chunk));
      cJSON_AddNumberToObject (j, "size", (double) xrt_mem_chunk_get_size (s->chunk));
      cJSON_AddItemToArray (arr, j);
    }

  arr = cJSON_AddArrayToObject (root, "connections");
  for (guint i = 0; i < self->links->len; i++)
    {
      XrtPipelineLink *l = &g_array_index (self->links, XrtPipelineLink, i);
      cJSON *j = cJSON_CreateObject ();
      cJSON_AddStringToObject (j, "name", l->name);
      cJSON_AddStringToObject (j, "from", XRT_PIPELINE_MEMBER (self, l->from)->name);
      cJSON_AddNumberToObject (j, "output_v_id", (double) l->output->v_id);
      cJSON_AddStringToObject (j, "to", XRT_PIPELINE_MEMBER (self, l->to)->name);
      cJSON_AddNumberToObject (j, "input_v_id", (double) l->input->v_id);
      cJSON_AddNumberToObject (j, "addr", l->chunk ? (double) xrt_mem_chunk_get_addr (l->chunk) : 0);
      cJSON_AddNumberToObject (j, "size", l->chunk ? (double) xrt_mem_chunk_get_size (l->chunk) : 0);
      cJSON_AddNumberToObject (j, "bytes", (double) l->output->storage_bytes);
      cJSON_AddStringToObject (j, "from_mode", l->host ? "host" : mode_of (g_ptr_array_index (reports, l->from), l->output->v_id));
      cJSON_AddStringToObject (j, "to_mode", l->host ? "host" : mode_of (g_ptr_array_index (reports, l->to), l->input->v_id));
      cJSON_AddItemToArray (arr, j);
    }

  arr = cJSON_AddArrayToObject (root, "board_chunks");
  chunks = xrt_mem_manager_list_chunks (xrt_mem_region_get_manager (xrt_device_get_default_mem_region (self->device)));
  for (guint i = 0; chunks && i < chunks->len; i++)
    {
      XrtMemChunk *c = g_ptr_array_index (chunks, i);
      guint64 addr = xrt_mem_chunk_get_addr (c), size = xrt_mem_chunk_get_size (c);
      g_autofree char *owner = owner_of (self, reports, addr, size);
      cJSON_AddItemToArray (arr, chunk_json (addr, size, owner));
      if (strcmp (owner, "other") != 0 && !zw_u64_add (board, size, &board))
        board = G_MAXUINT64;
    }
  o = cJSON_AddObjectToObject (root, "etm");
  cJSON_AddNumberToObject (o, "board_bytes", (double) board);
  cJSON_AddNumberToObject (o, "apart_bytes", (double) apart);
  cJSON_AddNumberToObject (o, "saved_bytes", apart >= board ? (double) (apart - board) : -(double) (board - apart));
  if (self->profile && self->passes > 0)
    {
      o = cJSON_AddObjectToObject (root, "time");
      cJSON_AddNumberToObject (o, "pass_ms", self->pass_ms);
      cJSON_AddNumberToObject (o, "passes", self->passes);
    }
  return root;
}

/* ---- checking ------------------------------------------------------------------------ */

gboolean
xrt_pipeline_report_is_pipeline (const cJSON *root)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive (root, "format");
  return cJSON_IsString (f) && strcmp (f->valuestring, FORMAT) == 0;
}

static gboolean
bad (GError **error, const char *origin, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
bad (GError **error, const char *origin, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_REPORT, "%s: %s", origin, msg);
  return FALSE;
}

/* A byte count or address: a non-negative integer a double holds exactly. */
static gboolean
get_u64 (const cJSON *obj, const char *key, guint64 *out, const char *origin, const char *where, GError **error)
{
  gint64 v;

  if (zw_json_int64 (cJSON_GetObjectItemCaseSensitive (obj, key), 0, ZW_JSON_INT_MAX, &v) != ZW_NUM_OK)
    return bad (error, origin, "%s: \"%s\" is not a byte count", where, key);
  *out = (guint64) v;
  return TRUE;
}

static const char *
get_str (const cJSON *obj, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (obj, key);
  return cJSON_IsString (v) ? v->valuestring : NULL;
}

typedef struct {
  guint64 addr, size;
  const char *owner;
} BoardChunk;

static gint
by_addr (gconstpointer a, gconstpointer b)
{
  const BoardChunk *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const BoardChunk *
chunk_at (GArray *chunks, guint64 addr)
{
  for (guint i = 0; i < chunks->len; i++)
    {
      const BoardChunk *c = &g_array_index (chunks, BoardChunk, i);
      if (addr >= c->addr && addr - c->addr < c->size)
        return c;
    }
  return NULL;
}

gboolean
xrt_pipeline_report_check (const cJSON *root, const char *origin, XrtPipelineCheck *out, GError **error)
{
  const cJSON *nets, *shares, *conns, *board, *etm, *it;
  g_autoptr (GArray) chunks = g_array_new (FALSE, FALSE, sizeof (BoardChunk));
  g_autoptr (GPtrArray) reports = g_ptr_array_new_with_free_func (report_unref0);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  XrtPipelineCheck c = { 0 };
  guint64 sum = 0, want;

  g_return_val_if_fail (origin != NULL, FALSE);
  if (!xrt_pipeline_report_is_pipeline (root))
    return bad (error, origin, "not a pipeline report (\"format\" is not \"" FORMAT "\")");
  nets = cJSON_GetObjectItemCaseSensitive (root, "networks");
  shares = cJSON_GetObjectItemCaseSensitive (root, "shares");
  conns = cJSON_GetObjectItemCaseSensitive (root, "connections");
  board = cJSON_GetObjectItemCaseSensitive (root, "board_chunks");
  etm = cJSON_GetObjectItemCaseSensitive (root, "etm");
  if (!cJSON_IsArray (nets) || cJSON_GetArraySize (nets) == 0 || !cJSON_IsArray (shares) || !cJSON_IsArray (conns)
      || !cJSON_IsArray (board) || !cJSON_IsObject (etm))
    return bad (error, origin, "\"networks\", \"shares\", \"connections\", \"board_chunks\" and \"etm\" are required");

  /* each network's report holds on its own */
  cJSON_ArrayForEach (it, nets)
    {
      const char *name = get_str (it, "name");
      g_autofree char *where = NULL;
      ZwDeployReport *r;
      guint64 apart = 0;

      if (name == NULL)
        return bad (error, origin, "networks[%u]: no \"name\"", names->len);
      where = g_strdup_printf ("%s (network \"%s\")", origin, name);
      if (cJSON_IsFalse (cJSON_GetObjectItemCaseSensitive (it, "on_board")))
        {
          /* host ops only: no report, no ETM */
          if (cJSON_GetObjectItemCaseSensitive (it, "report") != NULL)
            return bad (error, origin, "network \"%s\" is not on the board but has a deploy report", name);
          g_ptr_array_add (reports, NULL);
          g_ptr_array_add (names, (gpointer) name);
          if (!get_u64 (it, "apart_etm_bytes", &apart, origin, where, error))
            return FALSE;
          if (apart != 0)
            return bad (error, origin, "network \"%s\" is not on the board but takes %" G_GUINT64_FORMAT " ETM bytes apart",
                        name, apart);
          continue;
        }
      if ((r = zw_deploy_report_from_json (cJSON_GetObjectItemCaseSensitive (it, "report"), where, error)) == NULL)
        return FALSE;
      g_ptr_array_add (reports, r);
      g_ptr_array_add (names, (gpointer) name);
      if (!zw_deploy_report_check (r, NULL, error))
        return FALSE;
      if (!get_u64 (it, "apart_etm_bytes", &apart, origin, where, error))
        return FALSE;
      if (!zw_u64_add (c.apart_bytes, apart, &c.apart_bytes))
        return bad (error, origin, "the networks' apart_etm_bytes overflow");
    }
  c.n_networks = names->len;

  /* the board's chunks: disjoint; the pipeline's ETM is their bytes */
  cJSON_ArrayForEach (it, board)
    {
      BoardChunk b;
      g_autofree char *where = g_strdup_printf ("board_chunks[%u]", chunks->len);
      if (!get_u64 (it, "addr", &b.addr, origin, where, error) || !get_u64 (it, "size", &b.size, origin, where, error))
        return FALSE;
      if ((b.owner = get_str (it, "owner")) == NULL || b.size == 0 || b.addr > G_MAXUINT64 - b.size)
        return bad (error, origin, "%s: no owner, or an empty or wrapping range", where);
      g_array_append_val (chunks, b);
    }
  g_array_sort (chunks, by_addr);
  for (guint i = 0; i < chunks->len; i++)
    {
      const BoardChunk *b = &g_array_index (chunks, BoardChunk, i);
      if (i > 0)
        {
          const BoardChunk *p = &g_array_index (chunks, BoardChunk, i - 1);
          if (p->addr + p->size > b->addr)
            return bad (error, origin, "board chunks 0x%" G_GINT64_MODIFIER "x (%s) and 0x%" G_GINT64_MODIFIER
                        "x (%s) overlap", p->addr, p->owner, b->addr, b->owner);
        }
      if (strcmp (b->owner, "other") != 0 && !zw_u64_add (sum, b->size, &sum))
        return bad (error, origin, "the board's ETM overflows");
    }
  c.etm_bytes = sum;

  /* every network's WEIGHT/INSTR/FTMP lies in a chunk that is its own or a share of it */
  for (guint i = 0; i < reports->len; i++)
    {
      const ZwDeployReport *r = g_ptr_array_index (reports, i);
      const char *name = g_ptr_array_index (names, i);
      for (guint t = 0; r != NULL && t < ZW_N_SEGMENTS; t++)
        {
          const ZwSegmentInfo *s = &r->segments[t];
          const BoardChunk *b;
          g_autofree char *own = NULL;
          if (t == ZW_SEGMENT_INPUT || t == ZW_SEGMENT_OUTPUT || s->phy_size == 0)
            continue;
          own = g_strdup_printf ("%s:%s", name, zw_segment_type_to_string ((ZwSegmentType) t));
          if ((b = chunk_at (chunks, s->phy_addr)) == NULL || s->byte_size > b->size - (s->phy_addr - b->addr))
            return bad (error, origin, "network \"%s\": its %s segment (0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
                        " bytes) is not inside a board chunk", name, zw_segment_type_to_string ((ZwSegmentType) t),
                        s->phy_addr, s->byte_size);
          if (strcmp (b->owner, own) == 0)
            continue;
          if (!g_str_has_prefix (b->owner, "share:") || !s->user_used)
            return bad (error, origin, "network \"%s\": its %s segment lies in board chunk 0x%" G_GINT64_MODIFIER
                        "x, which is %s's", name, zw_segment_type_to_string ((ZwSegmentType) t), b->addr, b->owner);
          /* a share: the file's share must list this network for this segment */
          {
            gboolean listed = FALSE;
            cJSON_ArrayForEach (it, shares)
              {
                const cJSON *nn;
                const char *seg = get_str (it, "segment");
                guint64 addr = 0;
                if (seg == NULL || strcmp (seg, zw_segment_type_to_string ((ZwSegmentType) t)) != 0
                    || !get_u64 (it, "addr", &addr, origin, "shares", NULL) || addr != b->addr)
                  continue;
                cJSON_ArrayForEach (nn, cJSON_GetObjectItemCaseSensitive (it, "networks"))
                  listed |= cJSON_IsString (nn) && strcmp (nn->valuestring, name) == 0;
              }
            if (!listed)
              return bad (error, origin, "network \"%s\": its %s segment lies in %s, which does not list it", name,
                          zw_segment_type_to_string ((ZwSegmentType) t), b->owner);
          }
        }
    }
  c.n_shared = (guint) cJSON_GetArraySize (shares);

  /* each connection: both ends in its chunk, at its start */
  cJSON_ArrayForEach (it, conns)
    {
      const char *ends[2] = { get_str (it, "from"), get_str (it, "to") };
      const char *keys[2] = { "output_v_id", "input_v_id" };
      const char *cname = get_str (it, "name");
      guint64 addr, size;
      guint zero = 0;

      if (cname == NULL || ends[0] == NULL || ends[1] == NULL || !get_u64 (it, "addr", &addr, origin, "connections", error)
          || !get_u64 (it, "size", &size, origin, "connections", error))
        return bad (error, origin, "connections[%u]: \"name\", \"from\", \"to\", \"addr\" and \"size\" are required",
                    c.n_connections);
      /* through the host: no chunk on the board, nothing of the board's to check */
      if (g_strcmp0 (get_str (it, "from_mode"), "host") == 0 || g_strcmp0 (get_str (it, "to_mode"), "host") == 0)
        {
          for (guint e = 0; e < 2; e++)
            if (!g_ptr_array_find_with_equal_func (names, ends[e], g_str_equal, NULL))
              return bad (error, origin, "connection \"%s\": \"%s\" is not a network of the report", cname, ends[e]);
          c.n_connections++;
          continue;
        }
      for (guint e = 0; e < 2; e++)
        {
          guint idx;
          guint64 v_id;
          const ZwDeployReport *r;
          gboolean found = FALSE;
          if (!g_ptr_array_find_with_equal_func (names, ends[e], g_str_equal, &idx))
            return bad (error, origin, "connection \"%s\": \"%s\" is not a network of the report", cname, ends[e]);
          if (!get_u64 (it, keys[e], &v_id, origin, cname, error))
            return FALSE;
          r = g_ptr_array_index (reports, idx);
          if (r == NULL)
            return bad (error, origin, "connection \"%s\": network \"%s\" is not on the board, yet the connection "
                        "is not through the host", cname, ends[e]);
          for (guint k = 0; r->connections && k < r->connections->len; k++)
            {
              const ZwConnectionInfo *ci = &g_array_index (r->connections, ZwConnectionInfo, k);
              if ((guint64) ci->v_id != v_id)
                continue;
              found = TRUE;
              if (ci->user_addr != addr)
                return bad (error, origin, "connection \"%s\": network \"%s\" v_id %" G_GUINT64_FORMAT " lives at 0x%"
                            G_GINT64_MODIFIER "x, not in the connection's chunk 0x%" G_GINT64_MODIFIER "x", cname,
                            ends[e], v_id, ci->user_addr, addr);
              zero += !ci->staged;
            }
          if (!found)
            return bad (error, origin, "connection \"%s\": network \"%s\" does not connect v_id %" G_GUINT64_FORMAT,
                        cname, ends[e], v_id);
        }
      {
        const BoardChunk *b = chunk_at (chunks, addr);
        g_autofree char *own = g_strdup_printf ("connect:%s", cname);
        if (b == NULL || b->addr != addr || strcmp (b->owner, own) != 0)
          return bad (error, origin, "connection \"%s\": its chunk 0x%" G_GINT64_MODIFIER "x is not a board chunk of its own",
                      cname, addr);
      }
      c.n_zero_copy += zero == 2;
      c.n_connections++;
    }

  if (!get_u64 (etm, "board_bytes", &want, origin, "etm", error))
    return FALSE;
  if (want != c.etm_bytes)
    return bad (error, origin, "etm.board_bytes is %" G_GUINT64_FORMAT ", the board's chunks hold %" G_GUINT64_FORMAT,
                want, c.etm_bytes);
  if (!get_u64 (etm, "apart_bytes", &want, origin, "etm", error))
    return FALSE;
  if (want != c.apart_bytes)
    return bad (error, origin, "etm.apart_bytes is %" G_GUINT64_FORMAT ", the networks' apart_etm_bytes sum to %"
                G_GUINT64_FORMAT, want, c.apart_bytes);
  if (out)
    *out = c;
  return TRUE;
}
