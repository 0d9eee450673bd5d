/* xrt-pipeline-options.c — the board backend's options of a pipeline's networks set from code
 * instead of the file's [network.NAME] keys (xrt-pipeline.h): all networks at once (a sweep's
 * point) or one network by name (the workbench's options panel on a network of the pass).
 * Both only before apply: the options are the deployments'. */
#include "deploy/xrt-pipeline-private.h"

static void
set_net (XrtPipelineNet *n, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm)
{
  n->merge_hardop = merge_hardop ? 1 : 0;
  n->etm_optimize = etm_optimize ? 1 : 0;
  n->ocm_given = TRUE;
  n->ocm = ocm;
}

void
xrt_pipeline_set_options (XrtPipeline *self, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm)
{
  g_return_if_fail (XRT_IS_PIPELINE (self));
  for (guint i = 0; i < self->spec->nets->len; i++)
    set_net (g_ptr_array_index (self->spec->nets, i), merge_hardop, etm_optimize, ocm);
}

gboolean
xrt_pipeline_set_network_options (XrtPipeline *self, const char *network, gboolean merge_hardop,
                                  gboolean etm_optimize, ZwOcmOpt ocm, GError **error)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (network != NULL, FALSE);
  if (self->applied)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER,
                   "%s: network \"%s\": options are set before apply (the pipeline is applied already)",
                   self->spec->origin, network);
      return FALSE;
    }
  if (zw_ocm_opt_get_index (ocm) < 0)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_RULE, "%s: network \"%s\": ocm: %d is not an OCM option",
                   self->spec->origin, network, (int) ocm);
      return FALSE;
    }
  for (guint i = 0; i < self->spec->nets->len; i++)
    {
      XrtPipelineNet *n = g_ptr_array_index (self->spec->nets, i);
      if (g_strcmp0 (n->name, network) == 0)
        {
          set_net (n, merge_hardop, etm_optimize, ocm);
          return TRUE;
        }
    }
  g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_REFERENCE, "%s: no network \"%s\" in the pipeline",
               self->spec->origin, network);
  return FALSE;
}
