/* fuzz-pipeline-report.c — a pipeline report JSON (the workbench and `xrt-run check` open
 * these from disk): the one reader (report/zw-pipeline-report.h), the independent checker
 * over the model it makes, and what the views compute from it. */
#include "zw-fuzz.h"

#include "report/zw-pipeline-check.h"
#include "report/zw-pipeline-pass.h"

int
zw_fuzz_pipeline_report (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  const char *path = zw_fuzz_write_file ("fuzz-pipe-report.json", data, size);
  g_autoptr (ZwPipelineReport) report = zw_pipeline_report_load (path, &error);
  g_autoptr (GArray) pass_chunks = NULL;
  g_autoptr (ZwProfile) profile = NULL;
  ZwPipelineCheck check;

  if (report == NULL)
    {
      zw_fuzz_check_error (error, "fuzz-pipe-report.json", "zw_pipeline_report_load");
      return 0;
    }
  /* the views read a model the checker has not seen too (Compare opens two reports) */
  (void) zw_pipeline_pass_length (report);
  pass_chunks = zw_pipeline_pass_chunks (report);
  profile = zw_pipeline_pass_profile (report);
  for (guint i = 0; i < report->networks->len; i++)
    (void) zw_pipeline_report_network_bytes (report, i);
  if (!zw_pipeline_report_check (report, path, &check, &error))
    zw_fuzz_check_error (error, "fuzz-pipe-report.json", "zw_pipeline_report_check");
  return 0;
}
