/* zw-run-controller-pipeline.c — the worker side of a pipeline job: a pipeline file applied
 * on its board (the options panel's device URL when one is set, through the controller's
 * one connection to it; else the file's device) and run for one profiled pass (deploy/xrt-pipeline.h), or a saved pipeline
 * report read; either way the runtime's pipeline report JSON, checked independently, becomes
 * the model the Board view reads (report/zw-pipeline-report.h), so a run and a file look
 * the same. */
#include "zw-run-controller-private.h"

#include <glib/gi18n.h>
#include <cjson/cJSON.h>

#include "base/zw-file-read.h"
#include "deploy/xrt-board-link.h"
#include "deploy/xrt-pipeline-apart.h"
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-check.h"

#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

/* A pipeline file is TOML; a report is JSON (an object, after blanks). */
static gboolean
is_report_text (const char *text, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')
        continue;
      return text[i] == '{';
    }
  return FALSE;
}

/* ---- the networks' options set in the workbench (main thread) ---------------------------- */

void
zw_run_controller_set_pipeline_network_options (ZwRunController *self, const char *network,
                                                const ZwRunOptions *options)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_return_if_fail (network != NULL);
  if (options == NULL)
    {
      if (self->pipeline_options != NULL)
        g_hash_table_remove (self->pipeline_options, network);
      return;
    }
  if (self->pipeline_options == NULL)
    self->pipeline_options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (self->pipeline_options, g_strdup (network), g_memdup2 (options, sizeof *options));
}

void
zw_run_controller_clear_pipeline_options (ZwRunController *self)
{
  g_return_if_fail (ZW_IS_RUN_CONTROLLER (self));
  g_clear_pointer (&self->pipeline_options, g_hash_table_unref);
}

const ZwRunOptions *
zw_run_controller_get_pipeline_network_options (ZwRunController *self, const char *network)
{
  g_return_val_if_fail (ZW_IS_RUN_CONTROLLER (self), NULL);
  return self->pipeline_options != NULL && network != NULL ? g_hash_table_lookup (self->pipeline_options, network)
                                                           : NULL;
}

GHashTable *
zw_run_controller_copy_pipeline_options (ZwRunController *self)
{
  GHashTable *copy;
  GHashTableIter it;
  gpointer key, value;

  if (self->pipeline_options == NULL || g_hash_table_size (self->pipeline_options) == 0)
    return NULL;
  copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_iter_init (&it, self->pipeline_options);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_memdup2 (value, sizeof (ZwRunOptions)));
  return copy;
}

/* ---- the worker ------------------------------------------------------------------------ */

/* The job's options for some networks instead of the file's; a network the file no longer
 * has (edited since) is named. */
static gboolean
set_network_options (ZwJob *job, XrtPipeline *pipe, GError **error)
{
  GHashTableIter it;
  gpointer key, value;

  if (job->pipeline_options == NULL)
    return TRUE;
  g_hash_table_iter_init (&it, job->pipeline_options);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const ZwRunOptions *o = value;
      if (!xrt_pipeline_set_network_options (pipe, key, o->merge_hardop, o->etm_optimize, o->ocm, error))
        {
          g_prefix_error (error, _("The options panel's options for network “%s”: "), (const char *) key);
          return FALSE;
        }
    }
  return TRUE;
}

static cJSON *
run_pipeline_file (ZwJob *job, const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr (XrtPipeline) pipe = NULL;
  g_autoptr (GPtrArray) outputs = NULL;

  if ((pipe = xrt_pipeline_new_from_file (path, error)) == NULL || !set_network_options (job, pipe, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (job->board != NULL)
    {
      /* the options panel's device URL: the controller's one connection to that board, as a
       * single network's jobs use it; the network's last deployment lets its memory go first */
      g_autoptr (XrtDevice) device = NULL;
      g_clear_object (&job->deployment);
      if ((device = zw_job_acquire_board (job, error)) == NULL || !xrt_pipeline_apply_on_board (pipe, device, error))
        return NULL;
    }
  else if (!xrt_pipeline_apply (pipe, NULL, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  /* one pass, profiled: the report's time per network and per pass */
  xrt_pipeline_enable_time_profile (pipe, TRUE);
  if (job->dump_dir != NULL && !xrt_pipeline_set_dump (pipe, job->dump_dir, job->dump_format, error))
    return NULL;
  if ((outputs = xrt_pipeline_forward (pipe, 0, error)) == NULL)
    return NULL;
  if (job->apart)
    {
      /* the same networks, each alone on a simulated board with the same options */
      g_autoptr (cJSON) apart = NULL;
      if (g_cancellable_set_error_if_cancelled (cancellable, error)
          || (apart = xrt_pipeline_apart_to_json (pipe, 0, error)) == NULL
          || (job->pipeline_apart = zw_pipeline_report_from_json (apart, path, error)) == NULL)
        return NULL;
    }
  return xrt_pipeline_report_to_json (pipe, error);
}

gboolean
zw_job_pipeline (ZwJob *job, GCancellable *cancellable, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (cJSON) root = NULL;
  g_autoptr (ZwPipelineReport) model = NULL;
  gsize len = 0;

  if (!zw_file_read_regular (job->pipeline_path, ZW_INPUT_DEPLOY_REPORT, 0, &text, &len, error))
    return FALSE;
  if (is_report_text (text, len))
    {
      if ((root = cJSON_ParseWithLength (text, len)) == NULL)
        {
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_PARSE, _("%s: not valid JSON (byte %ld)"),
                       job->pipeline_path, (long) (cJSON_GetErrorPtr () ? cJSON_GetErrorPtr () - text : 0));
          return FALSE;
        }
      if (job->dump_dir != NULL || job->apart)
        {
          /* a dump (the networks apart) needs a pass: the pipeline file the report was made from is run again */
          const cJSON *file = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (root, "pipeline"),
                                                                "file");
          if (!cJSON_IsString (file) || !g_file_test (file->valuestring, G_FILE_TEST_IS_REGULAR))
            {
              if (job->apart)
                g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_IO,
                             _("%s: the networks of a pipeline report cannot be run apart without the pipeline file it "
                               "names (\"%s\")"),
                             job->pipeline_path, cJSON_IsString (file) ? file->valuestring : "");
              else
                g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_IO,
                             _("%s: a pipeline report cannot be dumped without the pipeline file it names (\"%s\")"),
                             job->pipeline_path, cJSON_IsString (file) ? file->valuestring : "");
              return FALSE;
            }
          g_autofree char *pipe_file = g_strdup (file->valuestring);
          g_clear_pointer (&root, cJSON_Delete);
          if ((root = run_pipeline_file (job, pipe_file, cancellable, error)) == NULL)
            return FALSE;
        }
    }
  else if ((root = run_pipeline_file (job, job->pipeline_path, cancellable, error)) == NULL)
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  /* the figures the view draws are the ones the independent checker reads off the chunks */
  model = zw_pipeline_report_from_json (root, job->pipeline_path, error);
  if (model == NULL || !zw_pipeline_report_check (model, job->pipeline_path, NULL, error))
    return FALSE;
  job->pipeline = g_steal_pointer (&model);
  return TRUE;
}
