/* xrt-pipeline-apart.c — a pipeline's networks deployed and run apart (see the header): the
 * one recipe of "deployed alone" that the pipeline report's apart ETM and the comparison of
 * a pass with the networks apart share. */
#include "deploy/xrt-pipeline-apart.h"
#include "deploy/xrt-pipeline-private.h"

#include "base/zw-checked.h"
#include "report/zw-profile.h"

/* A network of host ops only has no compile target of its own: it runs apart beside a new
 * simulated board of the pipeline's kind (its host ops take no ETM there). */
static gboolean
open_host_board (XrtDeployment *d, XrtPipeline *self, GError **error)
{
  const char *url = self != NULL && self->device != NULL ? xrt_device_get_url (self->device) : NULL;
  g_autoptr (XrtDevice) device = NULL;

  if (url == NULL || !g_str_has_prefix (url, "mock://"))
    url = "mock://zg330";
  if ((device = xrt_device_open (url, error)) == NULL)
    return FALSE;
  return xrt_deployment_use_board (d, device, error);
}

XrtDeployment *
xrt_pipeline_deploy_apart (XrtPipeline *self, XrtPipelineMember *m, guint64 *etm_bytes, GError **error)
{
  g_autoptr (XrtDeployment) d = NULL;
  g_autoptr (GPtrArray) chunks = NULL;
  g_autoptr (GHashTable) before = g_hash_table_new (g_direct_hash, g_direct_equal);
  const XrtPipelineNet *n = m->spec;
  XrtMemManager *mm;
  guint64 sum = 0;

  d = xrt_deployment_new_for_view (xrt_deployment_get_view (m->deployment));
  if (n->merge_hardop == 0)
    xrt_deployment_disable_merge_hardop (d);
  if (n->etm_optimize == 0)
    xrt_deployment_disable_etm_optimize (d);
  if (n->ocm_given)
    xrt_deployment_ocm_optimize (d, n->ocm);
  if (m->on_board ? !xrt_deployment_open_simulated_board (d, NULL, error) : !open_host_board (d, self, error))
    return NULL;
  /* the board's own chunks (its timer, profiler…) are there before the network */
  mm = xrt_mem_region_get_manager (xrt_device_get_default_mem_region (xrt_deployment_get_device (d)));
  chunks = xrt_mem_manager_list_chunks (mm);
  for (guint i = 0; chunks && i < chunks->len; i++)
    g_hash_table_add (before, GSIZE_TO_POINTER (xrt_mem_chunk_get_addr (g_ptr_array_index (chunks, i))));
  g_clear_pointer (&chunks, g_ptr_array_unref);
  if (!xrt_deployment_apply (d, error))
    return NULL;
  chunks = xrt_mem_manager_list_chunks (mm);
  for (guint i = 0; chunks && i < chunks->len; i++)
    if (!g_hash_table_contains (before, GSIZE_TO_POINTER (xrt_mem_chunk_get_addr (g_ptr_array_index (chunks, i)))))
      sum += xrt_mem_chunk_get_size (g_ptr_array_index (chunks, i));
  if (etm_bytes != NULL)
    *etm_bytes = sum;
  return g_steal_pointer (&d);
}

gboolean
xrt_pipeline_apart_bytes (XrtPipelineMember *m, guint64 *out, GError **error)
{
  g_autoptr (XrtDeployment) d = NULL;

  if (!m->on_board)
    {
      *out = 0;   /* host ops only: no ETM */
      return TRUE;
    }
  d = xrt_pipeline_deploy_apart (NULL, m, out, error);
  return d != NULL;
}

static void
outputs_unref0 (gpointer p)
{
  if (p != NULL)
    g_ptr_array_unref (p);
}

/* Member @i's inputs apart: the seeded ones of @iteration, a connected one the upstream
 * network's output apart. */
static GPtrArray *
inputs_apart (XrtPipeline *self, guint i, guint iteration, GPtrArray *outputs, GError **error)
{
  XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
  GPtrArray *inputs = xrt_deployment_make_inputs (m->deployment, iteration, error);

  for (guint k = 0; inputs != NULL && k < inputs->len; k++)
    {
      guint from, pos;
      GPtrArray *up;
      if (!xrt_pipeline_input_link (self, i, k, &from, &pos))
        continue;
      up = g_ptr_array_index (outputs, from);
      if (up != NULL && pos < up->len)
        {
          XrtTensor *old = g_ptr_array_index (inputs, k);
          inputs->pdata[k] = xrt_tensor_ref (g_ptr_array_index (up, pos));
          xrt_tensor_unref (old);
        }
    }
  return inputs;
}

/* One network apart: deployed, run once profiled, written as a network of the report. */
static cJSON *
network_apart (XrtPipeline *self, guint i, guint iteration, GPtrArray *outputs, guint64 *etm, double *ms,
               char **device, GError **error)
{
  XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
  g_autoptr (XrtDeployment) d = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autofree char *text = NULL;
  const ZwProfile *p;
  GPtrArray *outs;
  cJSON *n, *pj;

  if ((d = xrt_pipeline_deploy_apart (self, m, etm, error)) == NULL)
    return NULL;
  if (!m->on_board)
    *etm = 0;   /* as the pipeline report counts it: host ops only, no ETM */
  xrt_session_enable_time_profile (xrt_deployment_get_session (d), TRUE);
  if ((inputs = inputs_apart (self, i, iteration, outputs, error)) == NULL
      || (outs = xrt_deployment_forward (d, inputs, error)) == NULL)
    return NULL;
  g_ptr_array_index (outputs, i) = outs;
  p = xrt_session_get_time_profile (xrt_deployment_get_session (d));
  *ms = p != NULL ? p->total_ms : 0;
  if (*device == NULL)
    *device = g_strdup (xrt_device_get_url (xrt_deployment_get_device (d)));

  n = xrt_pipeline_network_json (m, *etm);
  cJSON_AddNumberToObject (n, "time_ms", *ms);
  if (p != NULL && p->rows->len > 0 && (text = zw_profile_to_string (p, ZW_PROFILE_FORMAT_JSON)) != NULL
      && (pj = cJSON_Parse (text)) != NULL)
    cJSON_AddItemToObject (n, "profile", pj);
  cJSON_AddBoolToObject (n, "on_board", m->on_board);
  if (m->on_board)
    {
      g_autoptr (ZwDeployReport) report = xrt_deployment_get_report (d);
      cJSON_AddItemToObject (n, "report", zw_deploy_report_to_json (report));
    }
  return n;
}

cJSON *
xrt_pipeline_apart_to_json (XrtPipeline *self, guint iteration, GError **error)
{
  g_autoptr (GPtrArray) outputs = NULL;
  g_autofree char *name = NULL;
  g_autofree char *device = NULL;
  cJSON *root, *arr, *o;
  guint64 apart = 0;
  double pass_ms = 0;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  if (self->members->len == 0)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER,
                   "%s: the networks were not opened (the file was only checked)", self->spec->origin);
      return NULL;
    }
  outputs = g_ptr_array_new_full (self->members->len, outputs_unref0);
  g_ptr_array_set_size (outputs, (gint) self->members->len);
  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "format", "zhuge-pipeline-report");
  cJSON_AddNumberToObject (root, "version", 1);
  o = cJSON_AddObjectToObject (root, "pipeline");
  name = g_strdup_printf ("%s (apart)", self->spec->name);
  cJSON_AddStringToObject (o, "name", name);
  cJSON_AddStringToObject (o, "file", self->spec->origin);
  arr = cJSON_AddArrayToObject (root, "networks");
  for (guint i = 0; i < self->members->len; i++)
    {
      guint64 etm = 0;
      double ms = 0;
      cJSON *n = network_apart (self, i, iteration, outputs, &etm, &ms, &device, error);
      if (n == NULL)
        {
          g_prefix_error (error, "%s: network \"%s\" run apart: ", self->spec->origin, XRT_PIPELINE_MEMBER (self, i)->name);
          cJSON_Delete (root);
          return NULL;
        }
      cJSON_AddItemToArray (arr, n);
      if (!zw_u64_add (apart, etm, &apart))
        apart = G_MAXUINT64;
      pass_ms += ms;
    }
  /* after the networks: the device of the boards they ran on */
  cJSON_AddStringToObject (root, "device", device != NULL ? device : "");
  cJSON_AddArrayToObject (root, "shares");
  cJSON_AddArrayToObject (root, "connections");
  cJSON_AddArrayToObject (root, "board_chunks");
  o = cJSON_AddObjectToObject (root, "etm");
  cJSON_AddNumberToObject (o, "board_bytes", (double) apart);
  cJSON_AddNumberToObject (o, "apart_bytes", (double) apart);
  cJSON_AddNumberToObject (o, "saved_bytes", 0);
  o = cJSON_AddObjectToObject (root, "time");
  cJSON_AddNumberToObject (o, "pass_ms", pass_ms);
  cJSON_AddNumberToObject (o, "passes", 1);
  return root;
}

char *
xrt_pipeline_apart_to_text (XrtPipeline *self, guint iteration, GError **error)
{
  return xrt_pipeline_json_take_text (xrt_pipeline_apart_to_json (self, iteration, error));
}
