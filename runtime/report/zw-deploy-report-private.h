/* zw-deploy-report-private.h — shared by the deploy report's model and its JSON
 * (zw-deploy-report.c, zw-deploy-to-json.c, zw-deploy-from-json.c); not installed. */
#pragma once

#include "report/zw-deploy-report.h"

/* A new empty GArray of gint64 (the report's id lists). */
GArray *zw_deploy_report_int64_array (void);
/* An empty array of ZwOpAttr* that frees them (ZwOpInfo.attrs). */
GPtrArray *zw_op_attrs_new (void);
/* Appends @name = @value to @attrs, the value cut to ZW_OP_ATTR_MAX_TEXT bytes (on a UTF-8
 * boundary) with "…". */
void zw_op_attrs_add (GPtrArray *attrs, const char *name, const char *value);
