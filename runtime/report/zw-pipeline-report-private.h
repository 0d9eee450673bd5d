/* zw-pipeline-report-private.h — shared by the pipeline report's reader
 * (zw-pipeline-report.c) and its checker (zw-pipeline-check.c); not installed. */
#pragma once

#include "report/zw-pipeline-report.h"

/* Sets ZW_REPORT_ERROR_FORMAT "ORIGIN: MESSAGE" on @error; returns FALSE. */
gboolean zw_pipeline_report_fail (GError **error, const char *origin, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
