/* zw-test-app.h — what the workbench's display tests (test-app*.c) share: the start-up of one
 * application instance and its window, waiting on the main context for a condition (bounded,
 * never a sleep), the window's runs, history and actions, real key presses (XTest), the pixels
 * of its views and of --screenshot, and the shut-down that lets a cancelled job hand back its
 * result. Linking zw-test-app.c also gives the LeakSanitizer suppressions those
 * tests need under AddressSanitizer. Include it after zw-test-util.h's ZwRun renaming. */
#pragma once

#include <gtk/gtk.h>

#include "zw-application.h"
#include "zw-window.h"

typedef gboolean (*ZwTestPredicate) (gpointer data);

/* Iterates the default main context until @pred(@data) holds or @timeout_s seconds pass (a
 * periodic source brings an idle loop back to the clock). Returns the last @pred. */
gboolean zw_test_app_wait_for (ZwTestPredicate pred, gpointer data, guint timeout_s);

/* Iterates the default main context for @ms milliseconds (lets the window lay out and draw). */
void zw_test_app_run_for (guint ms);

/* g_test_init, the translations bound as the app's main() binds them, then one application
 * instance of its own (non-unique, whatever else runs on
 * the session bus) activated with its window. Exits 77 (skipped) without a display. The tests
 * draw with cairo: GDK need not probe GL (GDK_DEBUG=gl-disable unless set). */
ZwWindow *zw_test_app_start (int *argc, char ***argv);

/* The application and window zw_test_app_start made. */
ZwApplication *zw_test_app_application (void);
ZwWindow *zw_test_app_window (void);

/* g_test_run, then waits (up to 30 s) for the window to be idle so the worker of a cancelled
 * job hands back its result, destroys the window and drops the application. Returns the
 * status of g_test_run. */
int zw_test_app_run_and_close (void);

/* The number of runs the window has made (zw_window_get_n_runs_made: an apply the next
 * run replaces counts too). */
guint zw_test_app_n_runs (void);

/* Predicates for zw_test_app_wait_for: the window is idle; idle with GPOINTER_TO_UINT(@data)
 * runs at least; idle with a banner shown. */
gboolean zw_test_app_is_idle (gpointer data);
gboolean zw_test_app_is_idle_with_runs (gpointer data);
gboolean zw_test_app_has_banner_and_idle (gpointer data);
/* Predicate: the GtkWidget @data is mapped and laid out (a size of its own). */
gboolean zw_test_app_is_mapped (gpointer data);

/* Waits (up to 120 s) until the window is idle with @n runs at least and returns the run
 * selected; fails the test naming the banner when the run does not come. */
ZwRun *zw_test_app_wait_for_run (guint n);

/* Activates the window's action @action (e.g. "win.run") with @param, as a menu would;
 * fails the test when the window has no such action. */
void zw_test_app_activate (const char *action, GVariant *param);

/* Two pipeline passes compared (rows NET:OP_ID) that differ in network @network only: every
 * row names its network, every regression is @network's, and every row of another network
 * has a delta of exactly 0 and is no regression; there are such rows and regressions. */
#include "report/zw-compare.h"
void zw_test_app_assert_only_network_differs (const ZwProfileCompare *cmp, const char *network);

/* The first widget of @type at or below @widget (depth first), or NULL. */
GtkWidget *zw_test_app_find_child_of_type (GtkWidget *widget, GType type);

/* Real key presses through the X server's XTest extension (libXtst dlopen'ed): FALSE when the
 * display is not X11 or has no XTest (skip the test then). */
gboolean zw_test_app_xtest_open (void);
/* Gives the window the X focus, presses @mod_keysym (0: none) and @keysym, releases both and
 * lets GTK handle them (keysyms are GDK_KEY_* values). */
void zw_test_app_press (unsigned long mod_keysym, unsigned long keysym);

/* Waits (up to 120 s) until the window is idle with run @n made and returns the run selected;
 * fails the test when the window made more than @n runs in all. */
ZwRun *zw_test_app_expect_run (guint n);

/* The rows of the window's run history, and its last (the history holds it). */
guint zw_test_app_history_rows (void);
ZwRun *zw_test_app_history_last (void);

/* Lets @window (NULL: the test's window) lay out and paint what changed: waits for two frames
 * (rows bound in one frame size in the next). */
void zw_test_app_wait_for_frames (ZwWindow *window);

/* A dump diff runs in the Dump Diff view's worker: waits (up to 120 s) until it is done. */
void zw_test_app_wait_for_diff (void);

/* ---- pixels of the window ---------------------------------------------------------------- */

typedef struct {
  guint64 non_background;   /* pixels of another colour than the most common one */
  guint n_colours;
  guint width, height;
} ZwTestPixelFacts;

ZwTestPixelFacts zw_test_app_pixel_facts (GdkTexture *texture);

/* Renders @widget as it is on screen (at least 100 x 100 pixels). */
GdkTexture *zw_test_app_render_widget (GtkWidget *widget);

/* The pixels of `@exe --screenshot @png --view @view [@file]` (@file may be NULL), run with
 * this process's display and environment (GDK_DEBUG included); it must succeed. */
ZwTestPixelFacts zw_test_app_screenshot (const char *exe, const char *png, const char *view, const char *file);

/* Shows the view @name through win.view and checks it draws: more than 1 % of its pixels
 * drawn, in 4 colours at least. */
void zw_test_app_assert_view_draws (const char *name);

/* Shows the deploy views (segments, memory, OCM, merges) through win.view and checks each
 * draws the deployment (2 % of its pixels, 4 colours), the Merges view a row per launch. */
void zw_test_app_assert_views_render (void);
