/* xrt-pipeline-report.c — the pipeline report's writer. Its one reader is the model the views
 * read (report/zw-pipeline-report.h), its independent checker report/zw-pipeline-check.h.
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
#include "report/zw-profile.h"

#include <string.h>

#define FORMAT "zhuge-pipeline-report"

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
xrt_pipeline_network_json (XrtPipelineMember *m, guint64 apart_etm_bytes)
{
  XirNetworkView *view = xrt_deployment_get_view (m->deployment);
  cJSON *n = cJSON_CreateObject (), *v;

  cJSON_AddStringToObject (n, "name", m->name);
  cJSON_AddStringToObject (n, "json", m->spec->json);
  cJSON_AddNumberToObject (n, "stage", m->spec->stage);
  v = cJSON_AddArrayToObject (n, "view");
  cJSON_AddItemToArray (v, cJSON_CreateNumber (xir_network_view_get_start (view)));
  cJSON_AddItemToArray (v, cJSON_CreateNumber (xir_network_view_get_n_ops (view)));
  cJSON_AddNumberToObject (n, "apart_etm_bytes", (double) apart_etm_bytes);
  return n;
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
      cJSON *n;
      guint64 mine = 0;

      if (!xrt_pipeline_apart_bytes (m, &mine, error))
        {
          g_prefix_error (error, "%s: network \"%s\" deployed apart: ", self->spec->origin, m->name);
          cJSON_Delete (root);
          return NULL;
        }
      if (!zw_u64_add (apart, mine, &apart))
        apart = G_MAXUINT64;
      n = xrt_pipeline_network_json (m, mine);
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
