/* zw-window.h — the workbench window: header bar, sidebar (options + run history), views.
 *
 * All four deploy views (Segments, Memory, OCM, Merges) share one ZwSelection whose report
 * is the run selected in the history. Work goes to a ZwRunController (GTask + GCancellable);
 * the window only reacts to its signals.
 *
 * Actions (installed on the class; shortcuts as binding actions):
 *   win.open            Ctrl+O   choose a network or deploy log JSON
 *   win.open-file (s)            open that path (network or log)
 *   win.open-demo                the bundled YOLOv5s-like demo
 *   win.use-synthetic-params     reopen the file whose .raw was missing, with synthetic params
 *   win.apply                    deploy with the current options
 *   win.forward                  forward "iterations" times (deploys first if needed)
 *   win.run             Ctrl+R   deploy, then forward
 *   win.cancel          Escape   cancel the work in progress
 *   win.toggle-sidebar  F9       (property action on "sidebar-visible")
 *   win.view (s)        Ctrl+1…4 "segments", "memory", "ocm", "merges" (property "view")
 *   win.merge-hardop, win.etm-optimize (b), win.ocm-option (s: none/option1/option2/
 *                                option3/best): property actions; changing one re-applies
 *   win.select-run (u), win.toggle-compare (u)   by position in the history
 *   win.dismiss-banner, win.show-shortcuts (Ctrl+?)
 *
 * Properties: the option properties above, "iterations" (forwards per Forward), "view",
 * "sidebar-visible", "busy" (read-only),
 * "banner-message" (read-only: the error shown, NULL when hidden), "offline" (read-only:
 * the selected run is a log opened from disk).
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-run.h"
#include "zw-selection.h"

G_BEGIN_DECLS

#define ZW_TYPE_WINDOW (zw_window_get_type ())
G_DECLARE_FINAL_TYPE (ZwWindow, zw_window, ZW, WINDOW, GtkApplicationWindow)

GtkWidget *zw_window_new (GtkApplication *application);

/* Opens a network or deploy log (as win.open-file); @synthetic_params: do not ask when
 * the .raw is missing. */
void zw_window_open (ZwWindow *self, const char *path, gboolean synthetic_params);

/* The runs of the history (a GListModel of ZwRun, borrowed). */
GListModel *zw_window_get_runs (ZwWindow *self);
/* The run shown (borrowed) or NULL. */
ZwRun *zw_window_get_selected_run (ZwWindow *self);
/* The runs marked for comparison (a new array of borrowed runs, at most 2). */
GPtrArray *zw_window_get_compare_runs (ZwWindow *self);
ZwSelection *zw_window_get_selection (ZwWindow *self);
gboolean zw_window_get_busy (ZwWindow *self);
const char *zw_window_get_banner_message (ZwWindow *self);
/* The view widget of @name ("segments", "memory", "ocm", "merges"), borrowed; NULL for
 * an unknown name. */
GtkWidget *zw_window_get_view (ZwWindow *self, const char *name);

/* Renders the window as it is now (it must be mapped) into a texture; caller owns it. */
GdkTexture *zw_window_render_texture (ZwWindow *self, GError **error);
/* Same, saved as a PNG. */
gboolean zw_window_save_png (ZwWindow *self, const char *path, GError **error);

/* Where the bundled demo networks are: $ZW_DATA_DIR/networks, the build tree, then the
 * installed data dir. A new string, or NULL when none has the demo. */
char *zw_window_find_demo (void);

G_END_DECLS
