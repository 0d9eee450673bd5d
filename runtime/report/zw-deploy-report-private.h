/* zw-deploy-report-private.h — shared by the deploy report's model and its JSON
 * (zw-deploy-report.c, zw-deploy-to-json.c, zw-deploy-from-json.c); not installed. */
#pragma once

#include "report/zw-deploy-report.h"

/* A new empty GArray of gint64 (the report's id lists). */
GArray *zw_deploy_report_int64_array (void);
