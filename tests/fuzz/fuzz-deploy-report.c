/* fuzz-deploy-report.c — a deploy report JSON (the workbench opens these from disk): load,
 * the independent checker, the text log. */
#include "zw-fuzz.h"

#include "report/zw-deploy-check.h"

int
zw_fuzz_deploy_report (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  const char *path = zw_fuzz_write_file ("fuzz_zg330_0.json", data, size);
  g_autoptr (ZwDeployReport) report = zw_deploy_report_load (path, &error);

  if (report == NULL)
    {
      zw_fuzz_check_error (error, "fuzz_zg330_0.json", "zw_deploy_report_load");
      return 0;
    }
  ZwDeployCheck check;
  if (!zw_deploy_report_check (report, &check, &error))
    zw_fuzz_check_error (error, NULL, "zw_deploy_report_check");
  g_free (zw_deploy_report_to_text (report));
  cJSON *json = zw_deploy_report_to_json (report);
  cJSON_Delete (json);
  return 0;
}
