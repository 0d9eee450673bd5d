/* fuzz-pipeline.c — pipeline files (runtime/deploy/xrt-pipeline.h). "@TINY@" in the input
 * stands for our tiny demo network's path, so that corpus files name a network that is
 * there; a file that loads is applied, run for one pass, reported and checked. */
#include "zw-fuzz.h"

#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
zw_fuzz_pipeline (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) text = g_string_new_len ((const char *) data, (gssize) size);
  g_autoptr (XrtPipeline) p = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  const char *path;
  cJSON *report;

  g_string_replace (text, "@TINY@", zw_fuzz_tiny_network_path (), 0);
  path = zw_fuzz_write_file ("fuzz-pipe.toml", (const uint8_t *) text->str, text->len);
  if ((p = xrt_pipeline_new_from_file (path, &error)) == NULL)
    {
      zw_fuzz_check_error (error, "fuzz-pipe.toml", "xrt_pipeline_new_from_file");
      return 0;
    }
  /* a pass of a pipeline of tiny networks is quick; more than four are not worth a run */
  if (xrt_pipeline_get_n_networks (p) > 4)
    return 0;
  if (!xrt_pipeline_apply (p, "mock://zg330", &error))
    {
      zw_fuzz_check_error (error, NULL, "xrt_pipeline_apply");
      return 0;
    }
  if ((outs = xrt_pipeline_forward (p, 0, &error)) == NULL)
    {
      zw_fuzz_check_error (error, NULL, "xrt_pipeline_forward");
      return 0;
    }
  if ((report = xrt_pipeline_report_to_json (p, &error)) == NULL)
    {
      zw_fuzz_check_error (error, NULL, "xrt_pipeline_report_to_json");
      return 0;
    }
  /* what the runtime wrote, the checker must accept */
  if (!zw_pipeline_report_check_json (report, "fuzz", NULL, &error))
    {
      fprintf (stderr, "zw-fuzz: the checker refuses the runtime's own pipeline report: %s\n", error->message);
      abort ();
    }
  cJSON_Delete (report);
  return 0;
}
