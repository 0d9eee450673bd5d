/* zw-application.h — the zhuge-workbench GtkApplication.
 *
 * Command line: zhuge-workbench [--screenshot FILE.png [--view NAME]] [NET.json | REPORT.json]
 * With no file it opens the bundled YOLOv5s-like demo on mock://zg330. --screenshot
 * renders the window once the first run has finished (or failed) and quits: exit status 0
 * when a run is shown, 1 when the banner shows an error, 2 for a bad command line.
 *
 * Actions: app.quit (Ctrl+Q). Keeps the recent files in memory (most recent first).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ZW_APPLICATION_ID "org.zhuge.Workbench"

#define ZW_TYPE_APPLICATION (zw_application_get_type ())
G_DECLARE_FINAL_TYPE (ZwApplication, zw_application, ZW, APPLICATION, GtkApplication)

ZwApplication *zw_application_new (void);
/* The recent files: a GtkStringList of paths, most recent first (borrowed). */
GListModel *zw_application_get_recent (ZwApplication *self);
/* Puts @path first in the recent files (at most 10 are kept). */
void zw_application_add_recent (ZwApplication *self, const char *path);
/* The exit status a --screenshot run decided (0 otherwise); main() returns it. */
int zw_application_get_exit_status (ZwApplication *self);

G_END_DECLS
