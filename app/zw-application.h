/* zw-application.h — the zhuge-workbench GtkApplication.
 *
 * Command line: zhuge-workbench [--screenshot FILE.png [--view NAME]] [NET.json | REPORT.json]
 * With no file it opens the bundled YOLOv5s-like demo on mock://zg330. --screenshot
 * renders the window once the first run has finished (or failed) and quits: exit status 0
 * when a run is shown, 1 when the banner shows an error, 2 for a bad command line.
 *
 * A time profile, dump folder or text log given on the command line opens in its own view
 * (Timing, Tensors, Logs); --view NAME also takes timing, compare, tensors, diff and logs.
 *
 * Actions: app.quit (Ctrl+Q), app.about, app.color-scheme (s: "system", "light", "dark";
 * stateful, stored in GSettings). Settings (schema org.zhuge.Workbench, when installed):
 * the recent files (most recent first, at most 10), the colour scheme; the window keeps its
 * size and last options there too.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-style-manager.h"

G_BEGIN_DECLS

#define ZW_APPLICATION_ID "org.zhuge.Workbench"

#define ZW_TYPE_APPLICATION (zw_application_get_type ())
G_DECLARE_FINAL_TYPE (ZwApplication, zw_application, ZW, APPLICATION, GtkApplication)

ZwApplication *zw_application_new (void);
/* The recent files: a GtkStringList of paths, most recent first (borrowed). */
GListModel *zw_application_get_recent (ZwApplication *self);
/* Puts @path first in the recent files (at most 10 are kept). */
void zw_application_add_recent (ZwApplication *self, const char *path);
/* The application's settings (borrowed), NULL when the schema is not installed or before
 * startup. */
GSettings *zw_application_get_settings (ZwApplication *self);
/* The colour scheme manager (borrowed; after startup). */
ZwStyleManager *zw_application_get_style_manager (ZwApplication *self);
/* The exit status a --screenshot run decided (0 otherwise); main() returns it. */
int zw_application_get_exit_status (ZwApplication *self);

G_END_DECLS
