/* zw-options-panel.h — the ZG330Backend options and device what-ifs of the next run.
 *
 * Shows and edits, as properties (G_PARAM_EXPLICIT_NOTIFY; the window binds them):
 *   "merge-hardop"  gboolean   (disableMergeHardOp when FALSE)
 *   "etm-optimize"  gboolean   (disableEtmOptimize when FALSE)
 *   "ocm-option"    string     the OCM option's short name (zw_ocm_opt_get_nick); set: any
 *                              spelling zw_ocm_opt_from_string reads, kept as the short name
 *   "ocm-chosen"    string     what Best score chose, shown beside it (NULL: nothing yet)
 *   "ocm-kib"       guint      device profile: OCM size in KiB
 *   "icore-mhz"     double     device profile: icore clock in MHz
 *   "etm-gbps"      double     device profile: ETM bandwidth in GB/s (1e9 bytes/s)
 *   "iterations"    guint      forwards per Forward
 *   "editable"      gboolean   FALSE for an offline log: everything is shown read-only
 *   "device-url"    string     the board of the next apply ("" : the simulated board of the
 *                              compile target; socket://zg330@HOST:PORT a zhuge-board); set when
 *                              the entry is activated (Enter), not at every key
 *   "fixed"         gboolean   the backend options (merge, ETM optimize, OCM) cannot change:
 *                              shown, insensitive (a network whose compiler placed every value)
 *   "reason"        string     why the options are fixed or read-only, shown above them (NULL:
 *                              nothing to say)
 * Its Apply and Forward buttons activate "win.apply" and "win.forward".
 */
#pragma once

#include <gtk/gtk.h>
#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

#define ZW_TYPE_OPTIONS_PANEL (zw_options_panel_get_type ())
G_DECLARE_FINAL_TYPE (ZwOptionsPanel, zw_options_panel, ZW, OPTIONS_PANEL, GtkWidget)

GtkWidget *zw_options_panel_new (void);

G_END_DECLS
