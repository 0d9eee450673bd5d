/* zw-window.h — the workbench window: header bar, sidebar (options + run history), views.
 *
 * The views of the table (zw-views.h) in one stack, every one that shows ops or values bound
 * to the window's one ZwSelection, whose report is the run selected in the history; Timing shows the selected
 * forward's time profile (with its report: merge members, planner estimate) or a time file;
 * Compare the two runs marked in the history or two time files; Tensors a dump folder or
 * the selected run's dumps; Dump Diff two dump folders (or one against the selected run's
 * dumps); Logs the selected run's deploy log or a text file; Compiles the open network side by
 * side with another compile of the same model (e.g. for ZG330 and for Buyi); Graph the network;
 * Sweep a sweep of the open network (every option combination x a what-if grid, run by the
 * controller) or a sweep JSON opened from disk — a row opened there (click, Enter) is deployed
 * and run with its options and the device figures of its what-if point (the options panel
 * shows them), so every view shows that run. Work goes to a ZwRunController (GTask +
 * GCancellable); the window only reacts to its signals.
 *
 * Files (command line, Open, recent files, drag and drop) open where they belong: networks
 * and deploy reports through the controller, time profiles (vendor *_time.txt, our JSON
 * and CSV, Chrome traces) in Timing, sweeps ("format": "zhuge-sweep") in Sweep, dump folders
 * in Tensors, other text in Logs; two time
 * profiles dropped together are compared, two dump folders diffed. A file that does not
 * load, or files of a folder that do not, show in the banner naming the file.
 *
 * Actions (installed on the class; keys from zw-shortcuts.c, which the shortcuts window
 * lists):
 *   win.open            Ctrl+O   choose a file to open (any of the above)
 *   win.open-file (s)            open that path
 *   win.open-demo                the bundled YOLOv5s-like demo
 *   win.open-demo-pipeline       the bundled demo pipeline (several networks on one board), in Board
 *   win.use-synthetic-params     reopen the file whose .raw was missing, with synthetic params
 *   win.apply                    deploy with the current options
 *   win.forward                  forward "iterations" times (deploys first if needed)
 *   win.run             Ctrl+R   deploy, then forward
 *   win.cancel          Escape   cancel the work in progress
 *   win.toggle-sidebar  F9       (property action on "sidebar-visible")
 *   win.view (s)        Ctrl+1…9, 0, -, =  "segments", "memory", "ocm", "merges", "timing", "compare",
 *                                "tensors", "diff", "logs", "compiles", "graph", "sweep", "board" (Ctrl+B; property "view")
 *   win.merge-hardop, win.etm-optimize (b), win.ocm-option (s: none/option1/option2/
 *                                option3/best): property actions; changing one re-applies
 *   win.select-run (u), win.toggle-compare (u)   by position in the history
 *   win.dismiss-banner, win.show-shortcuts (Ctrl+?)
 *   win.export          Ctrl+E   choose a file; win.export-file (s) exports there: the current
 *                                view as .png/.svg/.pdf, its table as .csv, the time profile
 *                                as a Chrome trace .json
 *   win.open-dump       Ctrl+Shift+O   choose a dump folder (Tensors)
 *   win.dump-tensors (s) Ctrl+T (SFB)  forward once dumping every value in that format
 *   win.diff-dumps      Ctrl+D         choose two dump folders (or one: against the run's)
 *   win.diff-folders (as)        the same with one or two given folders
 *   win.compare-files   Ctrl+Shift+C   choose two time profiles; win.compare-file-pair (as)
 *   win.compare-compile              choose another compile of the open network; both deploy
 *                                    and forward once in the background, then Compiles shows
 *                                    them; win.compare-compile-file (s) with a given path
 *   win.sweep           Ctrl+Shift+S   "Sweep Options…": a what-if grid (optional), then the sweep
 *                                    of the open network runs in the background (progress,
 *                                    Cancel) and shows in Sweep; win.sweep-what-if (s) runs one
 *                                    with that grid ("ocm=1M,2M; icore=800M,1G", the CLI's
 *                                    --what-if axes separated by ";"; "" none); a grid that does
 *                                    not parse shows in the banner
 * In the Sweep view, .json and .csv exports save the sweep as xrt-run sweep writes it.
 *
 * Properties: the option properties above, "iterations" (forwards per Forward), "view",
 * "sidebar-visible", "busy" (read-only),
 * "banner-message" (read-only: the error shown, NULL when hidden), "offline" (read-only:
 * the selected run is a log opened from disk), "shown-file" (read-only: the last file
 * or folder shown in Timing, Compare, Tensors, Dump Diff or Logs).
 *
 * Settings (the application's GSettings when installed): the size and maximized state are
 * saved when the window closes and restored when one opens; the options the user sets
 * (merge, ETM optimize, OCM option) are the next window's.
 */
#pragma once

#include <gtk/gtk.h>
#include "report/zw-pipeline-apart.h"
#include "zw-run.h"
#include "zw-run-controller.h"
#include "zw-selection.h"

G_BEGIN_DECLS

#define ZW_TYPE_WINDOW (zw_window_get_type ())
/* A run shows its progress (over the content) only once it has lasted this long (ms). */
#define ZW_WINDOW_PROGRESS_DELAY_MS 300
G_DECLARE_FINAL_TYPE (ZwWindow, zw_window, ZW, WINDOW, GtkApplicationWindow)

GtkWidget *zw_window_new (GtkApplication *application);

/* Opens a network or deploy log (as win.open-file); @synthetic_params: do not ask when
 * the .raw is missing. */
void zw_window_open (ZwWindow *self, const char *path, gboolean synthetic_params);

/* Opens several files as a drop of them does (two profiles: compared; two dump folders:
 * diffed; else each opens). @paths is NULL-terminated. */
void zw_window_open_paths (ZwWindow *self, const char *const *paths);
/* Loads a dump folder into the Tensors view and shows it; FALSE (banner) when it cannot be
 * read at all. A folder without manifest.json is typed by the open network. */
gboolean zw_window_open_dump (ZwWindow *self, const char *dir);
/* Diffs @dir_a with @dir_b (NULL: the folder Tensors shows, else the selected run's dumps)
 * in the Dump Diff view, its header naming both (a run's title and folder, or the folder).
 * The diff runs in a worker (the view shows its progress and can cancel it); TRUE when it
 * started, FALSE (banner) when there is no other side. A folder that cannot be read is
 * said in the banner when the worker finds it. */
gboolean zw_window_diff_dumps (ZwWindow *self, const char *dir_a, const char *dir_b);
/* Diffs the dumps of the two runs marked in the history; FALSE (nothing done) unless two
 * runs are marked and both dumped. */
gboolean zw_window_diff_marked_runs (ZwWindow *self);
/* What a dump folder is: "<its run's title> (<folder>)" for a run's dump, else the folder. */
char *zw_window_dup_dump_label (ZwWindow *self, const char *dir);
/* Copies the selected run's dump (else the folder Tensors shows) into @dest (made when
 * missing); a banner says where, or why not. */
gboolean zw_window_save_dump (ZwWindow *self, const char *dest);
/* Compares the open network with another compile of it at @path (win.compare-compile-file):
 * queued after the work in progress; the result shows in the Compiles view. */
void zw_window_compare_compile (ZwWindow *self, const char *path);
/* Networks opened together as one pipeline (issue 38): its file (xrt_pipeline_compose(): the
 * networks in this order, connected by position where one's outputs are the next one's
 * inputs) written into the user's cache (zhuge-workbench/pipelines/) and opened as any
 * pipeline file (Board); FALSE with a banner when a network cannot be read. Also the
 * banner's "Open as a Pipeline" after several networks were opened together, the Open
 * dialog's choice and win.open-as-pipeline(-files). */
gboolean zw_window_open_as_pipeline (ZwWindow *self, const char *const *paths);
/* Copies the pipeline made from networks opened together (its networks' paths absolute) to
 * @dest (win.save-pipeline, -file); FALSE with a banner when none is shown. */
gboolean zw_window_save_pipeline (ZwWindow *self, const char *dest);
/* Compares two pipeline reports' passes in the Compare view, rows named NET:OP_ID (also two
 * pipeline reports dropped together, win.compare-pipeline-files, Compare Two Time Profiles). */
gboolean zw_window_compare_pipelines (ZwWindow *self, const char *path_a, const char *path_b);
/* What two compared files are called (Compare's "A:"/"B:"): their names, or where those are
 * the same (two runs' yolov5s_time.txt), their folder and name, else their paths. */
void zw_window_compare_labels (const char *path_a, const char *path_b, char **label_a, char **label_b);
/* Compares two time profile files in the Compare view. */
gboolean zw_window_compare_files (ZwWindow *self, const char *path_a, const char *path_b);
/* Queues one forward dumping every value in @format into a new folder under the user's cache
 * (kept as long as its run: removed with the window; its path in the history's tooltip and
 * the title); the run shows in Tensors when it finishes. */
void zw_window_dump_tensors (ZwWindow *self, const char *format);
/* Queues a sweep of the open network with the what-if grid @what_if (see win.sweep-what-if);
 * FALSE (banner) when no network is open or the grid does not parse. */
gboolean zw_window_sweep (ZwWindow *self, const char *what_if);
/* Exports the current view to @path by its extension (see win.export-file). */
gboolean zw_window_export (ZwWindow *self, const char *path, GError **error);
/* The last file shown offline, or NULL (the "shown-file" property). */
const char *zw_window_get_shown_file (ZwWindow *self);

/* The runs of the history (a GListModel of ZwRun, borrowed). */
GListModel *zw_window_get_runs (ZwWindow *self);
/* How many runs the window has been handed since it opened: the history's rows, plus the
 * applies that took the place of the apply before them (zw_run_replaces). */
guint zw_window_get_n_runs_made (ZwWindow *self);
/* The run shown (borrowed) or NULL. */
ZwRun *zw_window_get_selected_run (ZwWindow *self);
/* The headline of the last pipeline pass compared with its networks run apart
 * (win.compare-pipeline-apart); FALSE when none was. */
gboolean zw_window_get_apart_headline (ZwWindow *self, ZwPipelineApartHeadline *out);
/* The runs marked for comparison (a new array of borrowed runs, at most 2). */
GPtrArray *zw_window_get_compare_runs (ZwWindow *self);
ZwSelection *zw_window_get_selection (ZwWindow *self);
gboolean zw_window_get_busy (ZwWindow *self);
const char *zw_window_get_banner_message (ZwWindow *self);
/* The view widget of @name (a "view" name above), borrowed; NULL for an unknown name. */
GtkWidget *zw_window_get_view (ZwWindow *self, const char *name);
/* The text of @view's empty state ("tensors", "timing") while it shows, else NULL. */
const char *zw_window_get_empty_state (ZwWindow *self, const char *view);
/* The window's run controller (borrowed). */
ZwRunController *zw_window_get_run_controller (ZwWindow *self);
/* The options panel of the sidebar (a ZwOptionsPanel). */
GtkWidget *zw_window_get_options_panel (ZwWindow *self);
/* The run history widget (a ZwRunHistory). */
GtkWidget *zw_window_get_history (ZwWindow *self);

/* Renders the window as it is now (it must be mapped) into a texture; caller owns it. */
GdkTexture *zw_window_render_texture (ZwWindow *self, GError **error);
/* Same, saved as a PNG. */
gboolean zw_window_save_png (ZwWindow *self, const char *path, GError **error);

/* Gives the window the application's recent files (it puts what it opens first and lists
 * them in Open Recent) and settings (may be NULL: nothing persists; else the size and options
 * of the last window are restored now). Once, as the application adds the window. */
void zw_window_attach (ZwWindow *self, GtkStringList *recent, GSettings *settings);

/* Where the bundled demo networks are: $ZW_DATA_DIR/networks, the build tree, then the
 * installed data dir. A new string, or NULL when none has the demo. */
char *zw_window_find_demo (void);

G_END_DECLS
