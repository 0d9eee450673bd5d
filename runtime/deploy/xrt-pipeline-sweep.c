/* xrt-pipeline-sweep.c — a pipeline's options swept jointly (xrt-pipeline.h): every
 * combination of disableMergeHardOp x disableEtmOptimize x ocmOptimize set on every network
 * of the board at once, each applied on a fresh board and run for one profiled pass; the
 * front of the pass's simulated time against the board's ETM. Points run one after another
 * and depend on nothing but the file (simulated time, work-counted plans). */
#include "deploy/xrt-pipeline-private.h"

#include "report/zw-pipeline-check.h"

#include <string.h>

static void
point_clear (XrtPipelinePoint *p)
{
  g_clear_pointer (&p->error, g_free);
}

GArray *
xrt_pipeline_sweep (const char *path, const char *device_url, GError **error)
{
  g_autoptr (GArray) points = g_array_new (FALSE, TRUE, sizeof (XrtPipelinePoint));
  g_autoptr (XrtPipeline) probe = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_array_set_clear_func (points, (GDestroyNotify) point_clear);
  /* the file's own errors stop the sweep; a point's errors are the point's */
  if ((probe = xrt_pipeline_new_from_file (path, error)) == NULL)
    return NULL;
  for (int merge = 1; merge >= 0; merge--)
    for (int etm = 1; etm >= 0; etm--)
      for (guint o = 0; o < zw_ocm_opt_get_count (); o++)
        {
          XrtPipelinePoint pt = { .merge_hardop = merge, .etm_optimize = etm, .ocm = zw_ocm_opt_get_nth (o) };
          g_autoptr (GError) local = NULL;
          g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &local);
          cJSON *report = NULL;

          if (p != NULL)
            {
              xrt_pipeline_set_options (p, merge, etm, pt.ocm);
              if (xrt_pipeline_apply (p, device_url, &local))
                {
                  g_autoptr (GPtrArray) outs = NULL;
                  xrt_pipeline_enable_time_profile (p, TRUE);
                  if ((outs = xrt_pipeline_forward (p, 0, &local)) != NULL
                      && (report = xrt_pipeline_report_to_json (p, &local)) != NULL)
                    {
                      ZwPipelineCheck c;
                      if (zw_pipeline_report_check_json (report, path, &c, &local))
                        {
                          pt.ok = TRUE;
                          pt.pass_ms = p->pass_ms;
                          pt.board_bytes = c.etm_bytes;
                          pt.apart_bytes = c.apart_bytes;
                        }
                      cJSON_Delete (report);
                    }
                }
            }
          if (!pt.ok)
            pt.error = g_strdup (local ? local->message : "failed");
          g_array_append_val (points, pt);
        }
  /* the front: no other point is as fast and as small, and better in one */
  for (guint i = 0; i < points->len; i++)
    {
      XrtPipelinePoint *a = &g_array_index (points, XrtPipelinePoint, i);
      gboolean dominated = FALSE;
      for (guint j = 0; a->ok && j < points->len && !dominated; j++)
        {
          const XrtPipelinePoint *b = &g_array_index (points, XrtPipelinePoint, j);
          dominated = j != i && b->ok && b->pass_ms <= a->pass_ms && b->board_bytes <= a->board_bytes
                      && (b->pass_ms < a->pass_ms || b->board_bytes < a->board_bytes || j < i);
        }
      a->front = a->ok && !dominated;
    }
  return g_steal_pointer (&points);
}
