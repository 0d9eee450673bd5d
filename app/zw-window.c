/* zw-window.c — the workbench window (see the header). */
#include "zw-window.h"
#include "base/zw-file.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "deploy/zg330-sweep.h"
#include "report/zw-compare.h"
#include "zw-application.h"
#include "zw-compare-view.h"
#include "zw-compile-compare-view.h"
#include "zw-dump-diff-view.h"
#include "zw-export.h"
#include "zw-file-kind.h"
#include "zw-graph-view.h"
#include "zw-log-view.h"
#include "zw-memory-view.h"
#include "zw-merge-view.h"
#include "zw-ocm-view.h"
#include "zw-options-panel.h"
#include "zw-run-controller.h"
#include "zw-run-history.h"
#include "zw-segment-view.h"
#include "zw-shortcuts.h"
#include "zw-sweep-view.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

#define N_VIEWS 12
enum {
  VIEW_SEGMENTS, VIEW_MEMORY, VIEW_OCM, VIEW_MERGES, VIEW_TIMING, VIEW_COMPARE, VIEW_TENSORS, VIEW_DIFF, VIEW_LOGS,
  VIEW_COMPILES, VIEW_GRAPH, VIEW_SWEEP
};

static const struct {
  const char *name;
  const char *title;
} view_pages[N_VIEWS] = {
  { "segments", N_("Segments") },
  { "memory", N_("Memory") },
  { "ocm", N_("OCM") },
  { "merges", N_("Merges") },
  { "timing", N_("Timing") },
  { "compare", N_("Compare") },
  { "tensors", N_("Tensors") },
  { "diff", N_("Dump Diff") },
  { "logs", N_("Logs") },
  { "compiles", N_("Compiles") },
  { "graph", N_("Graph") },
  { "sweep", N_("Sweep") },
};

/* What the second file chooser is for (one is open at a time). */
typedef enum {
  CHOOSE_EXPORT,
  CHOOSE_DUMP,
  CHOOSE_COMPARE_FILES,
  CHOOSE_DIFF_FOLDERS,
  CHOOSE_COMPILE,
} ChooserPurpose;

struct _ZwWindow
{
  GtkApplicationWindow parent_instance;

  ZwRunController *controller;
  ZwSelection *selection;
  GListStore *runs;

  GtkWidget *stack;
  GtkWidget *sidebar;
  GtkWidget *options;
  GtkWidget *history;
  GtkWidget *views[N_VIEWS];
  GtkWidget *banner;
  GtkWidget *banner_label;
  GtkWidget *synthetic_button;
  GtkWidget *progress_revealer;
  GtkWidget *progress_bar;
  GtkWidget *progress_label;
  GMenu *recent_menu;
  GtkNativeDialog *chooser;
  GtkNativeDialog *aux_chooser;
  ChooserPurpose aux_purpose;
  GtkWidget *sweep_dialog;       /* "Sweep Options…" while it is open */
  char *sweep_what_if;           /* what its entry held the last time */

  char *shown_file;              /* the last file shown offline in timing/compare/tensors/diff/logs */
  char *tensors_dir;             /* the dump folder the Tensors view shows */
  GPtrArray *temp_dumps;         /* folders of "Dump tensors" runs, removed with the window */
  guint compare_source;
  GtkWidget *empty_states[N_VIEWS];   /* what to do when a view has nothing (Tensors, Timing) */
  gboolean compare_from_runs;    /* the Compare view shows two marked runs (not two files) */
  GSettings *settings;           /* the application's (NULL without schema) */
  gboolean state_saved;
  gboolean attached;             /* to the application's recent files and settings */

  gboolean merge_hardop;
  gboolean etm_optimize;
  char *ocm_option;
  char *view;
  gboolean sidebar_visible;
  char *banner_message;
  char *banner_path;      /* the file a "use synthetic params" reopens */
  gboolean offline;
  guint iterations;

  guint reapply_source;
  gboolean syncing;       /* the window itself sets the options: no re-apply */
  gboolean selecting_new; /* a run just finished is being selected */
};

G_DEFINE_FINAL_TYPE (ZwWindow, zw_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_MERGE_HARDOP,
  PROP_ETM_OPTIMIZE,
  PROP_OCM_OPTION,
  PROP_VIEW,
  PROP_SIDEBAR_VISIBLE,
  PROP_BUSY,
  PROP_BANNER_MESSAGE,
  PROP_OFFLINE,
  PROP_ITERATIONS,
  PROP_SHOWN_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_actions (ZwWindow *self);

/* ---- demo ------------------------------------------------------------------------ */

char *
zw_window_find_demo (void)
{
  const char *env = g_getenv ("ZW_DATA_DIR");
  const char *dirs[] = { env, ZW_BUILD_DATADIR, ZW_INSTALLED_DATADIR };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = NULL;
      if (dirs[i] == NULL || *dirs[i] == '\0')
        continue;
      path = g_build_filename (dirs[i], "networks", "yolov5s_ZG.json", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  return NULL;
}

/* ---- banner and progress ---------------------------------------------------------- */

static void
show_banner (ZwWindow *self, const char *message, const char *synthetic_path)
{
  if (g_strcmp0 (self->banner_message, message) != 0)
    {
      g_free (self->banner_message);
      self->banner_message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BANNER_MESSAGE]);
    }
  g_free (self->banner_path);
  self->banner_path = g_strdup (synthetic_path);
  if (message != NULL)
    gtk_label_set_text (GTK_LABEL (self->banner_label), message);
  gtk_widget_set_visible (self->synthetic_button, synthetic_path != NULL);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->banner), message != NULL);
  gtk_widget_set_visible (self->banner, message != NULL);
  update_actions (self);
}

static void
on_banner_response (GtkInfoBar *bar, int response, ZwWindow *self)
{
  (void) bar;
  if (response == GTK_RESPONSE_ACCEPT)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.use-synthetic-params", NULL);
  else
    show_banner (self, NULL, NULL);
}

static void
on_busy_changed (ZwRunController *controller, GParamSpec *pspec, ZwWindow *self)
{
  (void) pspec;
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->progress_revealer), zw_run_controller_get_busy (controller));
  gtk_widget_set_visible (self->progress_revealer, zw_run_controller_get_busy (controller));
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
on_progress_changed (ZwRunController *controller, GParamSpec *pspec, ZwWindow *self)
{
  const char *status = zw_run_controller_get_status (controller);

  (void) pspec;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), zw_run_controller_get_progress (controller));
  if (status != NULL)
    gtk_label_set_text (GTK_LABEL (self->progress_label), status);
}

/* ---- options ------------------------------------------------------------------------ */

/* The "ocm-option" short name of @opt; an option this build does not know (a setting
 * written by another version) reads as the default. */
static const char *
ocm_nick (ZwOcmOpt opt)
{
  return zw_ocm_opt_get_nick (zw_ocm_opt_get_index (opt) >= 0 ? opt : ZW_OCM_BEST_SCORE);
}

static void
read_options (ZwWindow *self, ZwRunOptions *options)
{
  g_autofree char *ocm_id = NULL;
  guint kib = 0;
  double mhz = 0, gbps = 0;
  ZwOcmOpt ocm = ZW_OCM_BEST_SCORE;

  g_object_get (self->options, "merge-hardop", &options->merge_hardop, "etm-optimize", &options->etm_optimize,
                "ocm-option", &ocm_id, "ocm-kib", &kib, "icore-mhz", &mhz, "etm-gbps", &gbps, NULL);
  zw_ocm_opt_from_string (ocm_id, &ocm);
  options->ocm = ocm;
  options->ocm_bytes = (guint64) kib * 1024;
  options->icore_clock_hz = mhz * 1e6;
  options->etm_bandwidth = gbps * 1e9;
}

static guint
read_iterations (ZwWindow *self)
{
  return MAX (self->iterations, 1);
}

static void
request (ZwWindow *self, ZwRunMode mode)
{
  ZwRunOptions options;

  g_clear_handle_id (&self->reapply_source, g_source_remove);
  read_options (self, &options);
  zw_run_controller_set_options (self->controller, &options);
  zw_run_controller_request (self->controller, mode, mode == ZW_RUN_MODE_APPLY ? 0 : read_iterations (self));
}

static gboolean
reapply_idle (gpointer data)
{
  ZwWindow *self = data;

  self->reapply_source = 0;
  if (!self->offline && zw_run_controller_has_network (self->controller))
    request (self, ZW_RUN_MODE_APPLY);
  return G_SOURCE_REMOVE;
}

/* An option changed: re-apply once the change settles (several properties may change in
 * one go, e.g. a spin button being typed into). */
static void
on_option_changed (GObject *panel, GParamSpec *pspec, ZwWindow *self)
{
  (void) panel;
  (void) pspec;
  if (self->syncing || self->offline || !zw_run_controller_has_network (self->controller))
    return;
  if (self->reapply_source == 0)
    self->reapply_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, reapply_idle, self, NULL);
}

/* The device URL of the options: the next apply opens that board (errors: the banner). */
static void
on_device_url_changed (GObject *panel, GParamSpec *pspec, ZwWindow *self)
{
  g_autofree char *url = NULL;

  g_object_get (panel, "device-url", &url, NULL);
  zw_run_controller_set_device_url (self->controller, url);
  on_option_changed (panel, pspec, self);
}

/* Shows a run's options in the panel without re-applying. */
static void
sync_options_from_run (ZwWindow *self, ZwRun *run)
{
  ZwDeployReport *report = zw_run_get_report (run);

  self->syncing = TRUE;
  g_object_set (self->options, "merge-hardop", report->merge_hardop, "etm-optimize", report->etm_optimize,
                "ocm-option", ocm_nick (report->ocm_requested), NULL);
  if (report->ocm_bytes >= 64 * 1024)
    g_object_set (self->options, "ocm-kib", (guint) (report->ocm_bytes / 1024), NULL);
  if (report->icore_clock_hz >= 1e6)
    g_object_set (self->options, "icore-mhz", report->icore_clock_hz / 1e6, NULL);
  if (report->etm_bandwidth >= 1e8)
    g_object_set (self->options, "etm-gbps", report->etm_bandwidth / 1e9, NULL);
  self->syncing = FALSE;
}

/* ---- timing, compare, tensors, dump diff, logs ---------------------------------------------- */

static void set_view (ZwWindow *self, const char *view);

static void
set_shown_file (ZwWindow *self, const char *path)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (path != NULL && ZW_IS_APPLICATION (app))
    zw_application_add_recent (ZW_APPLICATION (app), path);
  if (g_strcmp0 (self->shown_file, path) == 0)
    return;
  g_free (self->shown_file);
  self->shown_file = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN_FILE]);
}

/* An error whose message may not name the file: make sure the banner does. */
static void
banner_for_error (ZwWindow *self, const char *path, const GError *error)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *message = NULL;

  if (strstr (error->message, base) == NULL)
    message = g_strdup_printf ("%s: %s", path, error->message);
  else
    message = g_strdup (error->message);
  show_banner (self, message, NULL);
}

/* Files of a folder (or lines of a file) that did not load: the rest is shown, the banner
 * says what was left out and names the first file at fault. */
static void
banner_for_warnings (ZwWindow *self, const char *path, GPtrArray *warnings)
{
  g_autofree char *message = NULL;

  if (warnings == NULL || warnings->len == 0)
    return;
  message = g_strdup_printf (ngettext ("%s: %u problem, the rest loaded: %s",
                                       "%s: %u problems, the rest loaded: %s (and more)", warnings->len),
                             path, warnings->len, (const char *) g_ptr_array_index (warnings, 0));
  show_banner (self, message, NULL);
}

static void on_run_finished (ZwRunController *controller, ZwRun *run, ZwWindow *self);
static void update_empty_states (ZwWindow *self);

static void
open_profile (ZwWindow *self, const char *path)
{
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) profile = zw_profile_load (path, warnings, NULL, &error);

  show_banner (self, NULL, NULL);
  if (profile == NULL)
    {
      banner_for_error (self, path, error);
      return;
    }
  /* the file becomes a run of the history (selecting it shows it in Timing and names it in
   * the title); a file's op ids need not be a deployment's: no report behind it */
  {
    g_autoptr (ZwRun) run = zw_run_new_from_profile (g_steal_pointer (&profile), path);
    on_run_finished (NULL, run, self);
  }
  banner_for_warnings (self, path, warnings);
  set_view (self, "timing");
  set_shown_file (self, path);
}

static void
open_text_log (ZwWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  show_banner (self, NULL, NULL);
  if (!zw_log_view_load_file (ZW_LOG_VIEW (self->views[VIEW_LOGS]), path, &error))
    {
      banner_for_error (self, path, error);
      return;
    }
  set_view (self, "logs");
  set_shown_file (self, path);
}

gboolean
zw_window_open_dump (ZwWindow *self, const char *dir)
{
  ZwTensorView *view;
  g_autoptr (GError) error = NULL;
  GPtrArray *messages;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  view = ZW_TENSOR_VIEW (self->views[VIEW_TENSORS]);
  show_banner (self, NULL, NULL);
  /* a board's folder has no manifest: the open network types its files */
  if (!zw_tensor_view_load_folder (view, dir, zw_run_controller_get_network (self->controller), NULL, &error))
    {
      banner_for_error (self, dir, error);
      return FALSE;
    }
  g_free (self->tensors_dir);
  self->tensors_dir = g_strdup (dir);
  messages = zw_tensor_view_get_messages (view);
  banner_for_warnings (self, dir, messages);
  update_empty_states (self);
  set_view (self, "tensors");
  set_shown_file (self, dir);
  return TRUE;
}

gboolean
zw_window_diff_dumps (ZwWindow *self, const char *dir_a, const char *dir_b)
{
  ZwRun *run;
  g_autoptr (GError) error = NULL;
  const ZwDumpDiff *diff;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (dir_a != NULL, FALSE);

  show_banner (self, NULL, NULL);
  if (dir_b == NULL)
    {
      run = zw_window_get_selected_run (self);
      dir_b = run != NULL ? zw_run_get_dump_dir (run) : NULL;
      if (dir_b == NULL)
        {
          g_autofree char *message = g_strdup_printf (
              _("%s: the selected run dumped no tensors to compare with (use Dump Tensors first)"), dir_a);
          show_banner (self, message, NULL);
          return FALSE;
        }
    }
  if (!zw_dump_diff_view_load (ZW_DUMP_DIFF_VIEW (self->views[VIEW_DIFF]), dir_a, dir_b,
                               zw_run_controller_get_network (self->controller), NULL, NULL, &error))
    {
      show_banner (self, error->message, NULL);
      return FALSE;
    }
  diff = zw_dump_diff_view_get_diff (ZW_DUMP_DIFF_VIEW (self->views[VIEW_DIFF]));
  if (diff != NULL)
    banner_for_warnings (self, dir_a, diff->warnings);
  set_view (self, "diff");
  set_shown_file (self, dir_a);
  return TRUE;
}

gboolean
zw_window_compare_files (ZwWindow *self, const char *path_a, const char *path_b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) a = NULL;
  g_autoptr (ZwProfile) b = NULL;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;
  ZwCompareView *view;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path_a != NULL && path_b != NULL, FALSE);

  show_banner (self, NULL, NULL);
  if ((a = zw_profile_load (path_a, NULL, NULL, &error)) == NULL)
    {
      banner_for_error (self, path_a, error);
      return FALSE;
    }
  if ((b = zw_profile_load (path_b, NULL, NULL, &error)) == NULL)
    {
      banner_for_error (self, path_b, error);
      return FALSE;
    }
  view = ZW_COMPARE_VIEW (self->views[VIEW_COMPARE]);
  label_a = g_path_get_basename (path_a);
  label_b = g_path_get_basename (path_b);
  zw_compare_view_set_profiles (view, a, b, NULL, label_a, label_b);
  zw_compare_view_set_reports (view, NULL, NULL);
  self->compare_from_runs = FALSE;
  set_view (self, "compare");
  set_shown_file (self, path_b);
  return TRUE;
}

/* The two runs marked in the history, compared: their profiles (forwards) and reports. */
static gboolean
update_compare_idle (gpointer data)
{
  ZwWindow *self = data;
  g_autoptr (GPtrArray) marked = zw_window_get_compare_runs (self);
  ZwCompareView *view = ZW_COMPARE_VIEW (self->views[VIEW_COMPARE]);
  ZwRun *a, *b;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;

  self->compare_source = 0;
  if (marked->len < 2)
    {
      /* a run unmarked: its comparison goes (the view says how to make one) — but two time
       * files compared stay until another comparison replaces them */
      if (self->compare_from_runs)
        zw_compare_view_clear (view);
      self->compare_from_runs = FALSE;
      return G_SOURCE_REMOVE;
    }
  self->compare_from_runs = TRUE;
  a = g_ptr_array_index (marked, 0);
  b = g_ptr_array_index (marked, 1);
  label_a = zw_run_dup_title (a);
  label_b = zw_run_dup_title (b);
  if (zw_run_get_profile (a) != NULL && zw_run_get_profile (b) != NULL)
    zw_compare_view_set_profiles (view, zw_run_get_profile (a), zw_run_get_profile (b), NULL, label_a, label_b);
  else
    zw_compare_view_clear (view);
  zw_compare_view_set_reports (view, zw_run_get_report (a), zw_run_get_report (b));
  return G_SOURCE_REMOVE;
}

static void
on_run_compare (ZwRun *run, GParamSpec *pspec, ZwWindow *self)
{
  (void) run;
  (void) pspec;
  /* after the history has unmarked the oldest of three */
  if (self->compare_source == 0)
    self->compare_source = g_idle_add (update_compare_idle, self);
}

/* ---- empty states that teach (issue 16 item 4) -------------------------------------------
 * Kept in the window, over the views (their files belong to the views' owners): a view with
 * nothing to show says how to get something, with the button that does it. */

static GtkWidget *
empty_state_new (const char *text, const char *button_label, const char *action, GVariant *target)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *button = gtk_button_new_with_mnemonic (button_label);

  gtk_widget_add_css_class (box, "view");
  gtk_widget_set_halign (box, GTK_ALIGN_FILL);
  gtk_widget_set_valign (box, GTK_ALIGN_FILL);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_valign (label, GTK_ALIGN_END);
  gtk_widget_set_vexpand (label, TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  if (target != NULL)
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_set_vexpand (button, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), button);
  g_object_set_data (G_OBJECT (box), "text", label);
  return box;
}

/* The page of view @i in the stack: the view, with its empty state over it if it has one. */
static GtkWidget *
wrap_empty_state (ZwWindow *self, guint i)
{
  GtkWidget *overlay, *empty;

  if (i == VIEW_TENSORS)
    empty = empty_state_new (_("No tensors yet. Dump tensors to inspect them: a forward writes every value (the "
                               "OCM-resident ones too) and this view shows their heatmaps, histograms and "
                               "statistics."),
                             _("_Dump Tensors"), "win.dump-tensors", g_variant_new_string ("SFB"));
  else if (i == VIEW_TIMING)
    empty = empty_state_new (_("No times in this run: an Apply deploys without running. Run a forward to see "
                               "each layer's time."),
                             _("Run a _Forward"), "win.forward", NULL);
  else if (i == VIEW_SWEEP)
    {
      g_autofree char *text = g_strdup_printf (
          _("No sweep yet. A sweep deploys the open network with each of the %u combinations of merge, ETM "
            "optimize and OCM option (at several OCM sizes and icore clocks if you ask), runs each once, and plots "
            "simulated time against ETM bytes with the Pareto front. A sweep JSON written by xrt-run sweep --json "
            "opens here too."),
          zw_sweep_get_n_combinations ());
      empty = empty_state_new (text, _("_Sweep Options…"), "win.sweep", NULL);
    }
  else
    return self->views[i];
  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), self->views[i]);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), empty);
  self->empty_states[i] = empty;
  return overlay;
}

static void
update_empty_states (ZwWindow *self)
{
  ZwRun *run = self->history != NULL ? zw_run_history_get_selected_run (ZW_RUN_HISTORY (self->history)) : NULL;

  if (self->empty_states[VIEW_TENSORS] != NULL)
    gtk_widget_set_visible (self->empty_states[VIEW_TENSORS],
                            zw_tensor_view_get_n_values (ZW_TENSOR_VIEW (self->views[VIEW_TENSORS])) == 0);
  /* Timing: a run without a profile (an Apply, a plan, a log) — not before any run, nor when
   * a time file was opened into the view */
  if (self->empty_states[VIEW_TIMING] != NULL)
    gtk_widget_set_visible (self->empty_states[VIEW_TIMING], run != NULL && zw_run_get_profile (run) == NULL);
  if (self->empty_states[VIEW_SWEEP] != NULL)
    gtk_widget_set_visible (self->empty_states[VIEW_SWEEP],
                            zw_sweep_view_get_sweep (ZW_SWEEP_VIEW (self->views[VIEW_SWEEP])) == NULL);
}

const char *
zw_window_get_empty_state (ZwWindow *self, const char *view)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  for (guint i = 0; i < N_VIEWS; i++)
    if (g_strcmp0 (view_pages[i].name, view) == 0 && self->empty_states[i] != NULL
        && gtk_widget_get_visible (self->empty_states[i]))
      return gtk_label_get_text (g_object_get_data (G_OBJECT (self->empty_states[i]), "text"));
  return NULL;
}

/* A run selected in the history: its profile in Timing, its deploy log in Logs, its dumps
 * (if it made any) in Tensors. */
static void
show_run_in_views (ZwWindow *self, ZwRun *run)
{
  const ZwProfile *profile = run != NULL ? zw_run_get_profile (run) : NULL;
  g_autofree char *text = NULL;
  g_autofree char *origin = NULL;

  /* a time file's op ids need not be the deployment's: Timing reads no report for it */
  zw_timing_view_set_run_profile (ZW_TIMING_VIEW (self->views[VIEW_TIMING]), profile,
                                  profile != NULL && zw_run_get_kind (run) != ZW_RUN_PROFILE ? zw_run_get_report (run)
                                                                                            : NULL);
  if (run == NULL)
    return;
  text = zw_deploy_report_to_text (zw_run_get_report (run));
  origin = zw_run_dup_title (run);
  zw_log_view_set_text (ZW_LOG_VIEW (self->views[VIEW_LOGS]), text, origin);
  if (zw_run_get_dump_dir (run) != NULL && g_strcmp0 (self->tensors_dir, zw_run_get_dump_dir (run)) != 0)
    {
      g_autoptr (GError) error = NULL;
      ZwTensorView *view = ZW_TENSOR_VIEW (self->views[VIEW_TENSORS]);
      if (zw_tensor_view_load_folder (view, zw_run_get_dump_dir (run), zw_run_controller_get_network (self->controller),
                                      NULL, &error))
        {
          g_free (self->tensors_dir);
          self->tensors_dir = g_strdup (zw_run_get_dump_dir (run));
        }
      else
        banner_for_error (self, zw_run_get_dump_dir (run), error);
    }
}

void
zw_window_dump_tensors (ZwWindow *self, const char *format)
{
  g_autoptr (GError) error = NULL;
  ZwDumpFormat parsed;
  ZwRunOptions options;
  char *dir;

  g_return_if_fail (ZW_IS_WINDOW (self));
  if (!zw_dump_format_parse (format, &parsed, &error))
    {
      show_banner (self, error->message, NULL);
      return;
    }
  if ((dir = g_dir_make_tmp ("zw-dump-XXXXXX", &error)) == NULL)
    {
      show_banner (self, error->message, NULL);
      return;
    }
  g_ptr_array_add (self->temp_dumps, dir);
  g_clear_handle_id (&self->reapply_source, g_source_remove);
  read_options (self, &options);
  zw_run_controller_set_options (self->controller, &options);
  zw_run_controller_request_dump (self->controller, dir, zw_dump_format_to_string (parsed));
}

/* Removes a "Dump tensors" folder: its files are flat (*.ftmp and manifest.json). */
static void
remove_dump_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* ---- export ------------------------------------------------------------------------------------- */

static GtkWidget *
current_view (ZwWindow *self)
{
  for (guint i = 0; i < N_VIEWS; i++)
    if (g_strcmp0 (self->view, view_pages[i].name) == 0)
      return self->views[i];
  return self->views[0];
}

gboolean
zw_window_export (ZwWindow *self, const char *path, GError **error)
{
  GtkWidget *view;
  g_autofree char *lower = NULL;
  int width, height;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  view = current_view (self);
  lower = g_ascii_strdown (path, -1);
  /* the Sweep view's data is the sweep: saved as xrt-run sweep writes it */
  if (ZW_IS_SWEEP_VIEW (view) && (g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".json")))
    return zw_sweep_view_save (ZW_SWEEP_VIEW (view), path, error);
  if (g_str_has_suffix (lower, ".csv"))
    return zw_export_view_csv (view, path, error);
  if (g_str_has_suffix (lower, ".json"))
    {
      const ZwProfile *profile = zw_timing_view_get_profile (ZW_TIMING_VIEW (self->views[VIEW_TIMING]));
      if (profile == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: no time profile to export (forward, or open a time file)"), path);
          return FALSE;
        }
      return zw_profile_write (profile, path, ZW_PROFILE_FORMAT_TRACE, error);
    }
  /* the size the view has on screen; a view never shown gets a page-like size */
  width = gtk_widget_get_width (view);
  height = gtk_widget_get_height (view);
  if (width < 64 || height < 64)
    {
      width = 1200;
      height = 800;
    }
  return zw_export_view (view, width, height, path, error);
}

static void
export_to (ZwWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  if (!zw_window_export (self, path, &error))
    banner_for_error (self, path, error);
}

static void
action_export_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  export_to (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

/* ---- choosers for the offline files --------------------------------------------------------------- */

static GPtrArray *
chooser_paths (GtkFileChooser *chooser)
{
  g_autoptr (GListModel) files = gtk_file_chooser_get_files (chooser);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr (GFile) file = g_list_model_get_item (files, i);
      char *path = g_file_get_path (file);
      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  return paths;
}

static void
on_aux_chooser_response (GtkNativeDialog *dialog, int response, ZwWindow *self)
{
  g_autoptr (GPtrArray) paths = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    paths = chooser_paths (GTK_FILE_CHOOSER (dialog));
  if (paths != NULL && paths->len > 0)
    {
      const char *first = g_ptr_array_index (paths, 0);
      switch (self->aux_purpose)
        {
        case CHOOSE_EXPORT:
          {
            g_autofree char *lower = g_ascii_strdown (first, -1);
            static const char *known[] = { ".png", ".svg", ".pdf", ".csv", ".json" };
            gboolean has_ext = FALSE;
            for (guint i = 0; i < G_N_ELEMENTS (known); i++)
              has_ext = has_ext || g_str_has_suffix (lower, known[i]);
            if (has_ext)
              export_to (self, first);
            else
              {
                g_autofree char *png = g_strconcat (first, ".png", NULL);
                export_to (self, png);
              }
            break;
          }
        case CHOOSE_DUMP: zw_window_open_dump (self, first); break;
        case CHOOSE_COMPARE_FILES:
          if (paths->len == 2)
            zw_window_compare_files (self, first, g_ptr_array_index (paths, 1));
          else
            show_banner (self, _("Choose two time profiles to compare"), NULL);
          break;
        case CHOOSE_DIFF_FOLDERS:
          zw_window_diff_dumps (self, first, paths->len >= 2 ? g_ptr_array_index (paths, 1) : NULL);
          break;
        case CHOOSE_COMPILE: zw_window_compare_compile (self, first); break;
        }
    }
  g_clear_object (&self->aux_chooser);
}

static void
run_aux_chooser (ZwWindow *self, ChooserPurpose purpose, const char *title, GtkFileChooserAction mode,
                 gboolean multiple, const char *accept)
{
  GtkFileChooserNative *chooser;

  if (self->aux_chooser != NULL)
    gtk_native_dialog_destroy (self->aux_chooser);
  g_clear_object (&self->aux_chooser);
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), mode, accept, _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), multiple);
  if (purpose == CHOOSE_EXPORT)
    {
      g_autofree char *name = g_strdup_printf ("%s.png", self->view);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  self->aux_purpose = purpose;
  self->aux_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_set_modal (self->aux_chooser, TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_aux_chooser_response), self);
  gtk_native_dialog_show (self->aux_chooser);
}

static void
action_export (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);

  (void) name;
  (void) param;
  run_aux_chooser (self, CHOOSE_EXPORT,
                   ZW_IS_SWEEP_VIEW (current_view (self))
                       ? _("Export the Sweep (.png, .svg, .pdf; .json or .csv: the sweep as xrt-run sweep writes it)")
                       : _("Export the View (.png, .svg, .pdf; .csv for its table; .json for the Chrome trace)"),
                   GTK_FILE_CHOOSER_ACTION_SAVE, FALSE, _("_Export"));
}

static void
action_open_dump (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  run_aux_chooser (ZW_WINDOW (widget), CHOOSE_DUMP, _("Open a Dump Folder"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                   FALSE, _("_Open"));
}

static void
action_compare_files (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  run_aux_chooser (ZW_WINDOW (widget), CHOOSE_COMPARE_FILES, _("Choose Two Time Profiles"),
                   GTK_FILE_CHOOSER_ACTION_OPEN, TRUE, _("_Compare"));
}

static void
action_diff_dumps (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  run_aux_chooser (ZW_WINDOW (widget), CHOOSE_DIFF_FOLDERS,
                   _("Choose Two Dump Folders (or One to Compare with the Current Run)"),
                   GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, TRUE, _("_Diff"));
}

static void
action_compare_compile (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  run_aux_chooser (ZW_WINDOW (widget), CHOOSE_COMPILE,
                   _("Choose Another Compile of This Network (e.g. its Buyi or ZG330 JSON)"),
                   GTK_FILE_CHOOSER_ACTION_OPEN, FALSE, _("_Compare"));
}

static void
action_compare_compile_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_compare_compile (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

void
zw_window_compare_compile (ZwWindow *self, const char *path)
{
  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (path != NULL);
  /* the other compile's params are rarely at hand (a Buyi .raw for a ZG330 user): missing
   * ones are synthesised, as for the network of a screenshot */
  zw_run_controller_compare_compile (self->controller, path, TRUE);
}

static void
on_compiles_compared (ZwRunController *controller, ZwWindow *self)
{
  g_autofree char *warning = NULL;
  ZwCompileCompare *cmp = zw_run_controller_take_compile_compare (controller, &warning);

  if (cmp == NULL)
    return;
  zw_compile_compare_view_take_compare (ZW_COMPILE_COMPARE_VIEW (self->views[VIEW_COMPILES]), cmp);
  show_banner (self, warning, NULL);
  set_view (self, "compiles");
}

/* ---- sweeps ------------------------------------------------------------------------------------- */

static void
on_sweep_finished (ZwRunController *controller, ZwWindow *self)
{
  g_autoptr (ZwSweep) sweep = zw_run_controller_take_sweep (controller);

  if (sweep == NULL)
    return;
  zw_sweep_view_set_sweep (ZW_SWEEP_VIEW (self->views[VIEW_SWEEP]), sweep);
  update_empty_states (self);
  set_view (self, "sweep");
}

static void
open_sweep (ZwWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwSweep) sweep = zw_sweep_load (path, &error);

  show_banner (self, NULL, NULL);
  if (sweep == NULL)
    {
      banner_for_error (self, path, error);
      return;
    }
  zw_sweep_view_set_sweep (ZW_SWEEP_VIEW (self->views[VIEW_SWEEP]), sweep);
  update_empty_states (self);
  set_view (self, "sweep");
  set_shown_file (self, path);
}

gboolean
zw_window_sweep (ZwWindow *self, const char *what_if)
{
  g_autoptr (GArray) axes = NULL;
  g_auto (GStrv) parts = NULL;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  if (!zw_run_controller_has_network (self->controller))
    {
      show_banner (self, _("Open a network first: a sweep deploys it with every option combination"), NULL);
      return FALSE;
    }
  axes = zg330_sweep_axes_new ();
  /* the CLI's --what-if arguments, one per axis, separated by “;” (spaces are no part of a
   * value: "ocm=1M, 2M" is what was meant) */
  parts = g_strsplit_set (what_if != NULL ? what_if : "", ";\n", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GString) axis = g_string_new (NULL);

      for (const char *c = parts[i]; *c != '\0'; c++)
        if (!g_ascii_isspace (*c))
          g_string_append_c (axis, *c);
      if (axis->len == 0)
        continue;
      if (!zg330_sweep_parse_what_if (axes, axis->str, &error))
        {
          /* TRANSLATORS: %s the runtime's message naming the what-if axis and what is wrong */
          g_autofree char *message = g_strdup_printf (_("Sweep not started: %s"), error->message);
          show_banner (self, message, NULL);
          return FALSE;
        }
    }
  show_banner (self, NULL, NULL);
  g_free (self->sweep_what_if);
  self->sweep_what_if = g_strdup (what_if);
  zw_run_controller_sweep (self->controller, g_steal_pointer (&axes));
  return TRUE;
}

/* The panel's ranges: a row's figures outside them are shown at the nearest end (the run
 * itself gets the row's exact figures). */
static void
show_options_in_panel (ZwWindow *self, const ZwRunOptions *o)
{
  self->syncing = TRUE;
  g_object_set (self->options, "merge-hardop", o->merge_hardop, "etm-optimize", o->etm_optimize, "ocm-option",
                ocm_nick (o->ocm), "ocm-kib",
                (guint) CLAMP (o->ocm_bytes / 1024, 64, 1024 * 1024), "icore-mhz",
                CLAMP (o->icore_clock_hz / 1e6, 1.0, 10000.0), "etm-gbps", CLAMP (o->etm_bandwidth / 1e9, 0.1, 1000.0),
                NULL);
  self->syncing = FALSE;
}

/* A row of the Sweep view opened (a click, Enter): deployed and run with its options and
 * the device figures of its what-if point, so every view shows that run. */
static void
on_sweep_row_activated (ZwSweepView *view, guint index, ZwWindow *self)
{
  ZwSweep *sweep = zw_sweep_view_get_sweep (view);
  g_autoptr (GError) error = NULL;
  g_autofree char *sweep_net = NULL, *open_net = NULL;
  const ZwSweepRow *row;
  ZwRunOptions options;
  gboolean other_network;

  if (sweep == NULL || index >= sweep->rows->len)
    return;
  row = &g_array_index (sweep->rows, ZwSweepRow, index);
  if (!zw_run_controller_options_for_sweep_row (self->controller, row, &options, &error))
    {
      show_banner (self, error->message, NULL);
      return;
    }
  /* the sweep's network: the open one, or its file (a sweep opened from disk) */
  if (sweep->network_path != NULL && *sweep->network_path != '\0')
    sweep_net = g_canonicalize_filename (sweep->network_path, NULL);
  if (zw_run_controller_get_network_path (self->controller) != NULL)
    open_net = g_canonicalize_filename (zw_run_controller_get_network_path (self->controller), NULL);
  other_network = sweep_net != NULL && g_strcmp0 (sweep_net, open_net) != 0;
  if (other_network && !g_file_test (sweep_net, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *message = g_strdup_printf (_("%s: the network of this sweep is not there: open it to run "
                                                    "the sweep's rows"), sweep_net);
      show_banner (self, message, NULL);
      return;
    }
  if (!other_network && open_net == NULL)
    {
      show_banner (self, _("Open the network of this sweep to run its rows"), NULL);
      return;
    }
  show_options_in_panel (self, &options);
  g_clear_handle_id (&self->reapply_source, g_source_remove);
  show_banner (self, NULL, NULL);
  /* the row's exact figures, not the panel's (KiB, MHz) */
  zw_run_controller_set_options (self->controller, &options);
  if (other_network)
    zw_run_controller_open (self->controller, sweep_net, FALSE, read_iterations (self));
  else
    zw_run_controller_request (self->controller, ZW_RUN_MODE_RUN, read_iterations (self));
  if (zw_run_controller_get_device_url (self->controller) != NULL && *row->what_if != '\0')
    {
      g_autofree char *message =
        /* TRANSLATORS: %u a sweep row, %s the device URL of the options, then the row's what-if point */
        g_strdup_printf (_("Row #%u runs on %s, the board of the options: its what-if figures (%s) size the "
                           "simulated board only"), row->index, zw_run_controller_get_device_url (self->controller),
                         row->what_if);
      show_banner (self, message, NULL);
    }
}

static void
on_sweep_dialog_run (GtkWidget *button, ZwWindow *self)
{
  GtkWidget *dialog = self->sweep_dialog;
  g_autofree char *text = NULL;

  (void) button;
  if (dialog == NULL)
    return;
  text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (g_object_get_data (G_OBJECT (dialog), "entry"))));
  gtk_window_destroy (GTK_WINDOW (dialog));
  zw_window_sweep (self, text);
}

static void
on_sweep_dialog_destroy (GtkWidget *dialog, ZwWindow *self)
{
  (void) dialog;
  self->sweep_dialog = NULL;
}

/* "Sweep Options…": the what-if grid (optional), then the sweep runs in the background. */
static void
action_sweep (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  GtkWidget *dialog, *box, *intro, *label, *entry, *hint, *buttons, *cancel, *run;
  g_autofree char *intro_text = NULL, *hint_text = NULL;
  GtkEventController *keys;

  (void) name;
  (void) param;
  if (self->sweep_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->sweep_dialog));
      return;
    }
  dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (dialog), _("Sweep Options"));
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 520, -1);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  intro_text = g_strdup_printf (_("Deploys the open network with each of the %u combinations of merge, ETM optimize "
                                  "and OCM option, each on a simulated board of its own, runs one forward of each, "
                                  "checks every plan, and marks the Pareto front of simulated time vs ETM bytes. The "
                                  "Sweep view shows it; a click on a row runs that row in every view."),
                                zw_sweep_get_n_combinations ());
  intro = gtk_label_new (intro_text);
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 60);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  label = gtk_label_new_with_mnemonic (_("_What-if grid (optional)"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  entry = gtk_entry_new ();
  gtk_widget_set_name (entry, "sweep-what-if");
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "ocm=1M,2M; icore=800M,1G");
  gtk_editable_set_text (GTK_EDITABLE (entry), self->sweep_what_if != NULL ? self->sweep_what_if : "");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
  hint_text = g_strdup_printf (_("Axes separated by “;”: ocm=SIZE,… (512K, 1M, 2M) and icore=HZ,… (800M, 1G), as "
                                 "xrt-run sweep --what-if. Every point of the grid gets the %u combinations. Empty: "
                                 "the device profile as it is."),
                               zw_sweep_get_n_combinations ());
  hint = gtk_label_new (hint_text);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 60);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_widget_add_css_class (hint, "dim-label");
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "window.close");
  run = gtk_button_new_with_mnemonic (_("_Run Sweep"));
  gtk_widget_set_name (run, "sweep-run");
  gtk_widget_add_css_class (run, "suggested-action");
  g_signal_connect (run, "clicked", G_CALLBACK (on_sweep_dialog_run), self);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), run);
  gtk_box_append (GTK_BOX (box), intro);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), hint);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (dialog), box);
  gtk_window_set_default_widget (GTK_WINDOW (dialog), run);
  /* Escape closes it, as any dialog */
  keys = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (dialog, keys);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect (dialog, "destroy", G_CALLBACK (on_sweep_dialog_destroy), self);
  self->sweep_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
action_sweep_what_if (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_sweep (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
action_compare_file_pair (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);

  (void) name;
  if (g_strv_length ((char **) paths) == 2)
    zw_window_compare_files (ZW_WINDOW (widget), paths[0], paths[1]);
}

static void
action_diff_folders (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree const char **paths = g_variant_get_strv (param, NULL);
  guint n = g_strv_length ((char **) paths);

  (void) name;
  if (n == 1 || n == 2)
    zw_window_diff_dumps (ZW_WINDOW (widget), paths[0], n == 2 ? paths[1] : NULL);
}

static void
action_dump_tensors (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_dump_tensors (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

void
zw_window_open_paths (ZwWindow *self, const char *const *paths)
{
  guint n;

  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (paths != NULL);

  n = g_strv_length ((char **) paths);
  /* two profiles dropped together are compared, two dump folders diffed */
  if (n == 2)
    {
      ZwFileKind a, b;
      g_autofree char *dir_a = NULL;
      g_autofree char *dir_b = NULL;
      if (zw_file_kind_guess (paths[0], &a, &dir_a, NULL) && zw_file_kind_guess (paths[1], &b, &dir_b, NULL))
        {
          if (a == ZW_FILE_KIND_PROFILE && b == ZW_FILE_KIND_PROFILE)
            {
              zw_window_compare_files (self, paths[0], paths[1]);
              return;
            }
          if (a == ZW_FILE_KIND_DUMP && b == ZW_FILE_KIND_DUMP)
            {
              zw_window_diff_dumps (self, dir_a, dir_b);
              return;
            }
        }
    }
  for (guint i = 0; i < n; i++)
    zw_window_open (self, paths[i], FALSE);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, ZwWindow *self)
{
  GSList *files = g_value_get_boxed (value);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  (void) target;
  (void) x;
  (void) y;
  for (GSList *l = files; l != NULL; l = l->next)
    {
      char *path = g_file_get_path (l->data);
      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  if (paths->len == 0)
    return FALSE;
  g_ptr_array_add (paths, NULL);
  zw_window_open_paths (self, (const char *const *) paths->pdata);
  return TRUE;
}

/* ---- settings ------------------------------------------------------------------------------------ */

static void
restore_settings (ZwWindow *self)
{
  int width = g_settings_get_int (self->settings, "window-width");
  int height = g_settings_get_int (self->settings, "window-height");
  int ocm = g_settings_get_int (self->settings, "ocm-option");

  if (width >= 400 && height >= 300)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_object_set (self, "merge-hardop", g_settings_get_boolean (self->settings, "merge-hardop"), "etm-optimize",
                g_settings_get_boolean (self->settings, "etm-optimize"), "ocm-option",
                ocm_nick ((ZwOcmOpt) ocm), NULL);
}

/* The options the user sets are the next start's; those shown from a run are not. */
static void
on_own_option_changed (ZwWindow *self, GParamSpec *pspec, gpointer data)
{
  ZwOcmOpt ocm = ZW_OCM_BEST_SCORE;

  (void) pspec;
  (void) data;
  if (self->syncing || self->settings == NULL)
    return;
  zw_ocm_opt_from_string (self->ocm_option, &ocm);
  g_settings_set_boolean (self->settings, "merge-hardop", self->merge_hardop);
  g_settings_set_boolean (self->settings, "etm-optimize", self->etm_optimize);
  g_settings_set_int (self->settings, "ocm-option", (int) ocm);
}

static void
save_window_state (ZwWindow *self)
{
  int width = 0, height = 0;

  if (self->settings == NULL || self->state_saved)
    return;
  self->state_saved = TRUE;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
}

static gboolean
on_close_request (GtkWindow *window, gpointer data)
{
  (void) data;
  save_window_state (ZW_WINDOW (window));
  return FALSE;
}

/* ---- runs ------------------------------------------------------------------------------ */

static void
on_selected_run (ZwRunHistory *history, GParamSpec *pspec, ZwWindow *self)
{
  ZwRun *run = zw_run_history_get_selected_run (history);
  gboolean offline;
  const char *chosen = NULL;

  (void) pspec;
  /* a time profile file has no deployment: the deploy views keep the one they show */
  if (run == NULL || zw_run_get_kind (run) != ZW_RUN_PROFILE)
    zw_selection_set_report (self->selection, run ? zw_run_get_report (run) : NULL);
  /* a time profile file leaves the live network (and its options) as they are */
  offline = run != NULL && zw_run_get_kind (run) == ZW_RUN_LOG;
  if (offline != self->offline)
    {
      self->offline = offline;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFLINE]);
    }
  if (run != NULL && (!self->selecting_new || offline) && zw_run_get_kind (run) != ZW_RUN_PROFILE)
    sync_options_from_run (self, run);
  if (run != NULL && zw_run_get_ocm_requested (run) == ZW_OCM_BEST_SCORE)
    chosen = zw_ocm_opt_get_label (zw_run_get_ocm_chosen (run));
  g_object_set (self->options, "ocm-chosen", chosen, "editable", !offline, NULL);
  show_run_in_views (self, run);
  update_empty_states (self);
  if (run != NULL)
    {
      g_autofree char *title = NULL;
      if (zw_run_get_kind (run) == ZW_RUN_PROFILE)
        {
          g_autofree char *base = g_path_get_basename (zw_run_get_path (run));
          /* TRANSLATORS: window title for a time profile opened from disk */
          title = g_strdup_printf (_("%s (time profile) — Zhuge Workbench"), base);
        }
      else if (offline)
        {
          g_autofree char *base = g_path_get_basename (zw_run_get_path (run));
          /* TRANSLATORS: window title for a deploy log opened from disk */
          title = g_strdup_printf (_("%s (log) — Zhuge Workbench"), base);
        }
      else
        title = g_strdup_printf (_("%s — Zhuge Workbench"), zw_run_get_report (run)->network_name);
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  update_actions (self);
}

static void
on_run_finished (ZwRunController *controller, ZwRun *run, ZwWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  (void) controller;
  zw_run_set_index (run, g_list_model_get_n_items (G_LIST_MODEL (self->runs)) + 1);
  g_signal_connect_object (run, "notify::compare", G_CALLBACK (on_run_compare), self, 0);
  g_list_store_append (self->runs, run);
  show_banner (self, NULL, NULL);
  self->selecting_new = TRUE;
  zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), run);
  self->selecting_new = FALSE;
  if (zw_run_get_kind (run) == ZW_RUN_LOG && ZW_IS_APPLICATION (app))
    zw_application_add_recent (ZW_APPLICATION (app), zw_run_get_path (run));
  /* the tensors were asked for: show them */
  if (zw_run_get_dump_dir (run) != NULL)
    set_view (self, "tensors");
}

static void
on_network_loaded (ZwRunController *controller, const char *path, ZwWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  (void) controller;
  if (ZW_IS_APPLICATION (app))
    zw_application_add_recent (ZW_APPLICATION (app), path);
  update_actions (self);
}

static void
on_failed (ZwRunController *controller, GError *error, const char *path, gboolean params_missing, ZwWindow *self)
{
  g_autofree char *message = NULL;
  g_autofree char *base = path ? g_path_get_basename (path) : NULL;

  (void) controller;
  /* the runtime's message names the file almost always; make sure the banner does */
  if (base != NULL && strstr (error->message, base) == NULL)
    message = g_strdup_printf ("%s: %s", path, error->message);
  else
    message = g_strdup (error->message);
  show_banner (self, message, params_missing ? path : NULL);
}

/* ---- opening ------------------------------------------------------------------------------ */

void
zw_window_open (ZwWindow *self, const char *path, gboolean synthetic_params)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  ZwFileKind kind;

  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (!zw_file_kind_guess (path, &kind, &dir, &error))
    {
      show_banner (self, error->message, NULL);
      return;
    }
  switch (kind)
    {
    case ZW_FILE_KIND_PROFILE: open_profile (self, path); return;
    case ZW_FILE_KIND_SWEEP: open_sweep (self, path); return;
    case ZW_FILE_KIND_DUMP: zw_window_open_dump (self, dir); return;
    case ZW_FILE_KIND_LOG: open_text_log (self, path); return;
    case ZW_FILE_KIND_UNKNOWN:
      {
        /* the views keep what they show: only the banner says why nothing opened */
        g_autofree char *message =
          g_strdup_printf (_("%s is empty or binary data: not a network, deploy report, time profile, dump or log"),
                           path);
        show_banner (self, message, NULL);
        return;
      }
    case ZW_FILE_KIND_NETWORK: break;
    }

  g_clear_handle_id (&self->reapply_source, g_source_remove);
  show_banner (self, NULL, NULL);
  {
    ZwRunOptions options;
    read_options (self, &options);
    zw_run_controller_set_options (self->controller, &options);
  }
  /* a network opens deployed and run once, so the history shows its time at once */
  zw_run_controller_open (self->controller, path, synthetic_params, 1);
}

static void
on_chooser_response (GtkNativeDialog *dialog, int response, ZwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      if (path != NULL)
        zw_window_open (self, path, FALSE);
    }
  g_clear_object (&self->chooser);
}

static void
action_open (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  GtkFileFilter *json = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  (void) name;
  (void) param;
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }
  chooser = gtk_file_chooser_native_new (_("Open a Network or a Deploy Log"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (json, _("Networks and deploy logs (*.json)"));
  gtk_file_filter_add_pattern (json, "*.json");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), json);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  g_object_unref (json);
  g_object_unref (all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
action_open_file (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_open (ZW_WINDOW (widget), g_variant_get_string (param, NULL), FALSE);
}

static void
action_open_demo (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autofree char *demo = zw_window_find_demo ();

  (void) name;
  (void) param;
  if (demo == NULL)
    show_banner (self,
                 _("The demo network yolov5s_ZG.json is not installed (looked in $ZW_DATA_DIR, the build tree "
                   "and the data folder)"),
                 NULL);
  else
    zw_window_open (self, demo, FALSE);
}

static void
action_use_synthetic_params (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autofree char *path = g_strdup (self->banner_path);

  (void) name;
  (void) param;
  if (path != NULL)
    zw_window_open (self, path, TRUE);
}

static void
action_apply (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  request (ZW_WINDOW (widget), ZW_RUN_MODE_APPLY);
}

static void
action_forward (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  request (ZW_WINDOW (widget), ZW_RUN_MODE_FORWARD);
}

static void
action_run (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  request (ZW_WINDOW (widget), ZW_RUN_MODE_RUN);
}

static void
action_cancel (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_run_controller_cancel (ZW_WINDOW (widget)->controller);
}

static ZwRun *
run_at (ZwWindow *self, GVariant *param)
{
  guint pos = g_variant_get_uint32 (param);

  if (pos >= g_list_model_get_n_items (G_LIST_MODEL (self->runs)))
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (self->runs), pos);
}

static void
action_select_run (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);
  g_autoptr (ZwRun) run = run_at (self, param);

  (void) name;
  if (run != NULL)
    zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), run);
}

static void
action_toggle_compare (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (ZwRun) run = run_at (ZW_WINDOW (widget), param);

  (void) name;
  if (run != NULL)
    zw_run_set_compare (run, !zw_run_get_compare (run));
}

static void
action_dismiss_banner (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  show_banner (ZW_WINDOW (widget), NULL, NULL);
}

static void
action_show_shortcuts (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  gtk_window_present (zw_shortcuts_window_new (GTK_WINDOW (widget)));
}

/* ---- recent files ---------------------------------------------------------------------- */

static void
on_recent_changed (GListModel *recent, guint position, guint removed, guint added, ZwWindow *self)
{
  guint n = g_list_model_get_n_items (recent);

  (void) position;
  (void) removed;
  (void) added;
  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; i < n; i++)
    {
      const char *path = gtk_string_list_get_string (GTK_STRING_LIST (recent), i);
      g_autofree char *base = g_path_get_basename (path);
      g_autoptr (GMenuItem) item = g_menu_item_new (base, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-file", g_variant_new_string (path));
      g_menu_append_item (self->recent_menu, item);
    }
}

/* ---- actions state ----------------------------------------------------------------------- */

static void
update_actions (ZwWindow *self)
{
  gboolean live = zw_run_controller_has_network (self->controller) && !self->offline;
  gboolean busy = zw_run_controller_get_busy (self->controller);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.apply", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.forward", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.use-synthetic-params", self->banner_path != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.dump-tensors", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-compile", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.sweep", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.sweep-what-if", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.select-back", zw_selection_can_go_back (self->selection));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.select-forward",
                                 zw_selection_can_go_forward (self->selection));
}

/* ---- object ----------------------------------------------------------------------------------- */

static void
set_string (ZwWindow *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

/* ---- one selection everywhere --------------------------------------------------------- */

static void
on_graph_busy (ZwWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
action_select_history (GtkWidget *widget, const char *action, GVariant *param)
{
  ZwWindow *self = ZW_WINDOW (widget);

  (void) param;
  if (g_str_equal (action, "win.select-back"))
    zw_selection_go_back (self->selection);
  else
    zw_selection_go_forward (self->selection);
}

static void
set_view (ZwWindow *self, const char *view)
{
  for (guint i = 0; i < N_VIEWS; i++)
    if (g_strcmp0 (view, view_pages[i].name) == 0)
      {
        gtk_stack_set_visible_child_name (GTK_STACK (self->stack), view);
        set_string (self, &self->view, view, PROP_VIEW);
        return;
      }
  g_warning ("unknown view “%s”", view);
}

static void
on_stack_child (GtkStack *stack, GParamSpec *pspec, ZwWindow *self)
{
  (void) pspec;
  set_string (self, &self->view, gtk_stack_get_visible_child_name (stack), PROP_VIEW);
}

static void
zw_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwWindow *self = ZW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_MERGE_HARDOP: g_value_set_boolean (value, self->merge_hardop); break;
    case PROP_ETM_OPTIMIZE: g_value_set_boolean (value, self->etm_optimize); break;
    case PROP_OCM_OPTION: g_value_set_string (value, self->ocm_option); break;
    case PROP_VIEW: g_value_set_string (value, self->view); break;
    case PROP_SIDEBAR_VISIBLE: g_value_set_boolean (value, self->sidebar_visible); break;
    case PROP_BUSY: g_value_set_boolean (value, zw_window_get_busy (self)); break;
    case PROP_BANNER_MESSAGE: g_value_set_string (value, self->banner_message); break;
    case PROP_OFFLINE: g_value_set_boolean (value, self->offline); break;
    case PROP_ITERATIONS: g_value_set_uint (value, self->iterations); break;
    case PROP_SHOWN_FILE: g_value_set_string (value, self->shown_file); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwWindow *self = ZW_WINDOW (object);
  gboolean b;
  ZwOcmOpt opt;

  switch (prop_id)
    {
    case PROP_MERGE_HARDOP:
    case PROP_ETM_OPTIMIZE:
    case PROP_SIDEBAR_VISIBLE:
      {
        gboolean *field = prop_id == PROP_MERGE_HARDOP   ? &self->merge_hardop
                          : prop_id == PROP_ETM_OPTIMIZE ? &self->etm_optimize
                                                         : &self->sidebar_visible;
        b = g_value_get_boolean (value);
        if (*field != b)
          {
            *field = b;
            g_object_notify_by_pspec (object, pspec);
          }
        break;
      }
    case PROP_OCM_OPTION:
      if (zw_ocm_opt_from_string (g_value_get_string (value), &opt))
        set_string (self, &self->ocm_option, zw_ocm_opt_get_nick (opt), PROP_OCM_OPTION);
      else
        g_warning ("unknown OCM option “%s”", g_value_get_string (value));
      break;
    case PROP_VIEW: set_view (self, g_value_get_string (value)); break;
    case PROP_ITERATIONS:
      if (self->iterations != g_value_get_uint (value))
        {
          self->iterations = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* "application" is set after construction (it is no construct property of GtkWindow):
 * the recent files and the settings attach when it is. */
static void
on_application_set (ZwWindow *self, GParamSpec *pspec, gpointer data)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  (void) pspec;
  (void) data;
  if (!ZW_IS_APPLICATION (app) || self->attached)
    return;
  self->attached = TRUE;
  {
    GListModel *recent = zw_application_get_recent (ZW_APPLICATION (app));
    GSettings *settings = zw_application_get_settings (ZW_APPLICATION (app));
    g_signal_connect_object (recent, "items-changed", G_CALLBACK (on_recent_changed), self, 0);
    on_recent_changed (recent, 0, 0, 0, self);
    if (settings != NULL)
      {
        self->settings = g_object_ref (settings);
        restore_settings (self);
      }
  }
}

static void
zw_window_constructed (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);

  G_OBJECT_CLASS (zw_window_parent_class)->constructed (object);
  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_set), NULL);
  on_application_set (self, NULL, NULL);
  g_signal_connect (self, "notify::merge-hardop", G_CALLBACK (on_own_option_changed), NULL);
  g_signal_connect (self, "notify::etm-optimize", G_CALLBACK (on_own_option_changed), NULL);
  g_signal_connect (self, "notify::ocm-option", G_CALLBACK (on_own_option_changed), NULL);
}

static void
zw_window_dispose (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);

  save_window_state (self);
  g_clear_handle_id (&self->reapply_source, g_source_remove);
  g_clear_handle_id (&self->compare_source, g_source_remove);
  if (self->aux_chooser != NULL)
    gtk_native_dialog_destroy (self->aux_chooser);
  g_clear_object (&self->aux_chooser);
  if (self->sweep_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->sweep_dialog));
  if (self->controller != NULL)
    {
      /* the worker keeps its own references; its result goes nowhere now */
      zw_run_controller_cancel (self->controller);
      g_signal_handlers_disconnect_by_data (self->controller, self);
    }
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  g_clear_object (&self->controller);
  G_OBJECT_CLASS (zw_window_parent_class)->dispose (object);
}

static void
zw_window_finalize (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->runs);
  g_clear_object (&self->settings);
  for (guint i = 0; self->temp_dumps != NULL && i < self->temp_dumps->len; i++)
    remove_dump_dir (g_ptr_array_index (self->temp_dumps, i));
  g_clear_pointer (&self->temp_dumps, g_ptr_array_unref);
  g_free (self->shown_file);
  g_free (self->tensors_dir);
  g_free (self->sweep_what_if);
  g_clear_object (&self->recent_menu);
  g_free (self->ocm_option);
  g_free (self->view);
  g_free (self->banner_message);
  g_free (self->banner_path);
  G_OBJECT_CLASS (zw_window_parent_class)->finalize (object);
}

static void
zw_window_class_init (ZwWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = zw_window_constructed;
  object_class->dispose = zw_window_dispose;
  object_class->finalize = zw_window_finalize;
  object_class->get_property = zw_window_get_property;
  object_class->set_property = zw_window_set_property;

  properties[PROP_MERGE_HARDOP] = g_param_spec_boolean ("merge-hardop", NULL, NULL, TRUE, rw);
  properties[PROP_ETM_OPTIMIZE] = g_param_spec_boolean ("etm-optimize", NULL, NULL, TRUE, rw);
  properties[PROP_OCM_OPTION] = g_param_spec_string ("ocm-option", NULL, NULL, zw_ocm_opt_get_nick (ZW_OCM_BEST_SCORE),
                                                     rw);
  properties[PROP_VIEW] = g_param_spec_string ("view", NULL, NULL, "segments", rw);
  properties[PROP_SIDEBAR_VISIBLE] = g_param_spec_boolean ("sidebar-visible", NULL, NULL, TRUE, rw);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro);
  properties[PROP_BANNER_MESSAGE] = g_param_spec_string ("banner-message", NULL, NULL, NULL, ro);
  properties[PROP_OFFLINE] = g_param_spec_boolean ("offline", NULL, NULL, FALSE, ro);
  properties[PROP_ITERATIONS] = g_param_spec_uint ("iterations", NULL, NULL, 1, 100000, 1, rw);
  properties[PROP_SHOWN_FILE] = g_param_spec_string ("shown-file", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "win.open-file", "s", action_open_file);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, action_open_demo);
  gtk_widget_class_install_action (widget_class, "win.use-synthetic-params", NULL, action_use_synthetic_params);
  gtk_widget_class_install_action (widget_class, "win.apply", NULL, action_apply);
  gtk_widget_class_install_action (widget_class, "win.forward", NULL, action_forward);
  gtk_widget_class_install_action (widget_class, "win.run", NULL, action_run);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, action_cancel);
  gtk_widget_class_install_action (widget_class, "win.select-run", "u", action_select_run);
  gtk_widget_class_install_action (widget_class, "win.toggle-compare", "u", action_toggle_compare);
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, action_dismiss_banner);
  gtk_widget_class_install_action (widget_class, "win.show-shortcuts", NULL, action_show_shortcuts);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, action_export);
  gtk_widget_class_install_action (widget_class, "win.export-file", "s", action_export_file);
  gtk_widget_class_install_action (widget_class, "win.open-dump", NULL, action_open_dump);
  gtk_widget_class_install_action (widget_class, "win.dump-tensors", "s", action_dump_tensors);
  gtk_widget_class_install_action (widget_class, "win.diff-dumps", NULL, action_diff_dumps);
  gtk_widget_class_install_action (widget_class, "win.diff-folders", "as", action_diff_folders);
  gtk_widget_class_install_action (widget_class, "win.compare-files", NULL, action_compare_files);
  gtk_widget_class_install_action (widget_class, "win.compare-file-pair", "as", action_compare_file_pair);
  gtk_widget_class_install_action (widget_class, "win.compare-compile", NULL, action_compare_compile);
  gtk_widget_class_install_action (widget_class, "win.compare-compile-file", "s", action_compare_compile_file);
  gtk_widget_class_install_action (widget_class, "win.sweep", NULL, action_sweep);
  gtk_widget_class_install_action (widget_class, "win.sweep-what-if", "s", action_sweep_what_if);
  gtk_widget_class_install_action (widget_class, "win.select-back", NULL, action_select_history);
  gtk_widget_class_install_action (widget_class, "win.select-forward", NULL, action_select_history);
  gtk_widget_class_install_property_action (widget_class, "win.toggle-sidebar", "sidebar-visible");
  gtk_widget_class_install_property_action (widget_class, "win.view", "view");
  gtk_widget_class_install_property_action (widget_class, "win.merge-hardop", "merge-hardop");
  gtk_widget_class_install_property_action (widget_class, "win.etm-optimize", "etm-optimize");
  gtk_widget_class_install_property_action (widget_class, "win.ocm-option", "ocm-option");

  /* the keys come from the table the shortcuts window lists */
  zw_shortcuts_install_bindings (widget_class, "win.");
}

static GtkWidget *
build_header (ZwWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *open = gtk_button_new_with_mnemonic (_("_Open"));
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));
  GtkWidget *forward = gtk_button_new_with_mnemonic (_("_Forward"));
  GtkWidget *sidebar = gtk_toggle_button_new ();
  GtkWidget *menu_button = gtk_menu_button_new ();
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) section = g_menu_new ();
  g_autoptr (GMenu) section2 = g_menu_new ();
  g_autoptr (GMenu) files = g_menu_new ();
  g_autoptr (GMenu) dumps = g_menu_new ();
  g_autoptr (GMenu) schemes = g_menu_new ();
  g_autoptr (GMenu) scheme_section = g_menu_new ();

  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "win.open");
  gtk_widget_set_tooltip_text (open, _("Open a network or a deploy log (Ctrl+O)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (apply), "win.apply");
  gtk_widget_set_tooltip_text (apply, _("Deploy with the current options"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (forward), "win.run");
  gtk_widget_set_tooltip_text (forward, _("Apply and forward (Ctrl+R)"));
  gtk_widget_add_css_class (forward, "suggested-action");
  gtk_button_set_icon_name (GTK_BUTTON (sidebar), "sidebar-show-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (sidebar), "win.toggle-sidebar");
  gtk_widget_set_tooltip_text (sidebar, _("Show or hide the sidebar (F9)"));
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), sidebar);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), open);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), apply);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), forward);


  self->recent_menu = g_menu_new ();
  g_menu_append (section, _("Open _Demo"), "win.open-demo");
  g_menu_append_submenu (section, _("Open _Recent"), G_MENU_MODEL (self->recent_menu));
  g_menu_append (section, _("Open Dump _Folder…"), "win.open-dump");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_menu_append (dumps, _("Dump _Tensors (SFB)"), "win.dump-tensors::SFB");
  g_menu_append (dumps, _("Dump Tensors (_SQB)"), "win.dump-tensors::SQB");
  g_menu_append (dumps, _("_Diff Dump Folders…"), "win.diff-dumps");
  g_menu_append (dumps, _("_Compare Time Profiles…"), "win.compare-files");
  g_menu_append (dumps, _("Compare with _Another Compile…"), "win.compare-compile");
  g_menu_append (dumps, _("S_weep Options…"), "win.sweep");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (dumps));
  g_menu_append (files, _("_Export View…"), "win.export");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (files));
  g_menu_append (schemes, _("Follow _System"), "app.color-scheme::system");
  g_menu_append (schemes, _("_Light"), "app.color-scheme::light");
  g_menu_append (schemes, _("_Dark"), "app.color-scheme::dark");
  g_menu_append_submenu (scheme_section, _("_Colour Scheme"), G_MENU_MODEL (schemes));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (scheme_section));
  g_menu_append (section2, _("_Keyboard Shortcuts"), "win.show-shortcuts");
  g_menu_append (section2, _("_About Zhuge Workbench"), "app.about");
  g_menu_append (section2, _("_Quit"), "app.quit");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section2));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (menu_button), "open-menu-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (menu_button, _("Main menu"));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), menu_button);
  return header;
}

static void
zw_window_init (ZwWindow *self)
{
  GtkWidget *content, *paned, *sidebar_box, *options_scroller, *history_box, *history_label, *progress_box, *cancel;
  const XrtBoardFigures *profile;

  self->merge_hardop = TRUE;
  self->etm_optimize = TRUE;
  self->ocm_option = g_strdup (zw_ocm_opt_get_nick (ZW_OCM_BEST_SCORE));
  self->view = g_strdup ("segments");
  self->sidebar_visible = TRUE;
  self->iterations = 1;

  self->controller = zw_run_controller_new ();
  self->selection = zw_selection_new ();
  self->runs = g_list_store_new (ZW_TYPE_RUN);
  self->temp_dumps = g_ptr_array_new_with_free_func (g_free);

  gtk_window_set_title (GTK_WINDOW (self), _("Zhuge Workbench"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1280, 800);

  /* views */
  self->stack = gtk_stack_new ();
  gtk_stack_set_transition_type (GTK_STACK (self->stack), GTK_STACK_TRANSITION_TYPE_NONE);
  self->views[0] = zw_segment_view_new (self->selection);
  self->views[1] = zw_memory_view_new (self->selection);
  self->views[2] = zw_ocm_view_new (self->selection);
  self->views[3] = zw_merge_view_new (self->selection);
  self->views[VIEW_TIMING] = zw_timing_view_new (self->selection);
  self->views[VIEW_COMPARE] = zw_compare_view_new (self->selection);
  self->views[VIEW_TENSORS] = zw_tensor_view_new (self->selection);
  self->views[VIEW_DIFF] = zw_dump_diff_view_new (self->selection);
  self->views[VIEW_LOGS] = zw_log_view_new ();
  self->views[VIEW_COMPILES] = zw_compile_compare_view_new (self->selection);
  self->views[VIEW_GRAPH] = zw_graph_view_new (self->selection);
  self->views[VIEW_SWEEP] = zw_sweep_view_new (self->selection);
  g_signal_connect (self->views[VIEW_SWEEP], "row-activated", G_CALLBACK (on_sweep_row_activated), self);
  /* a screenshot of the graph waits for its layout, as for a run */
  g_signal_connect_swapped (self->views[VIEW_GRAPH], "notify::busy", G_CALLBACK (on_graph_busy), self);
  g_signal_connect_swapped (self->selection, "notify::can-go-back", G_CALLBACK (update_actions), self);
  g_signal_connect_swapped (self->selection, "notify::can-go-forward", G_CALLBACK (update_actions), self);
  for (guint i = 0; i < N_VIEWS; i++)
    {
      gtk_widget_set_hexpand (self->views[i], TRUE);
      gtk_widget_set_vexpand (self->views[i], TRUE);
      gtk_stack_add_titled (GTK_STACK (self->stack), wrap_empty_state (self, i), view_pages[i].name,
                            _(view_pages[i].title));
    }
  update_empty_states (self);
  g_signal_connect (self->stack, "notify::visible-child-name", G_CALLBACK (on_stack_child), self);

  gtk_window_set_titlebar (GTK_WINDOW (self), build_header (self));

  /* sidebar: options above, run history below */
  self->options = zw_options_panel_new ();
  profile = zw_run_controller_get_base_figures (self->controller);
  g_object_set (self->options, "ocm-kib", (guint) (profile->ocm_bytes / 1024), "icore-mhz",
                profile->icore_clock_hz / 1e6, "etm-gbps", profile->etm_bandwidth / 1e9, NULL);
  g_object_bind_property (self, "merge-hardop", self->options, "merge-hardop",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "etm-optimize", self->options, "etm-optimize",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "ocm-option", self->options, "ocm-option",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "iterations", self->options, "iterations",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  {
    static const char *watched[] = { "notify::merge-hardop", "notify::etm-optimize", "notify::ocm-option",
                                     "notify::ocm-kib", "notify::icore-mhz", "notify::etm-gbps" };
    for (guint i = 0; i < G_N_ELEMENTS (watched); i++)
      g_signal_connect (self->options, watched[i], G_CALLBACK (on_option_changed), self);
    g_signal_connect (self->options, "notify::device-url", G_CALLBACK (on_device_url_changed), self);
  }
  options_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (options_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* the paned starts at the panel's natural height; the history takes the rest */
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (options_scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (options_scroller), self->options);

  self->history = zw_run_history_new (G_LIST_MODEL (self->runs));
  gtk_widget_set_vexpand (self->history, TRUE);
  g_signal_connect (self->history, "notify::selected-run", G_CALLBACK (on_selected_run), self);
  history_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  history_label = gtk_label_new (_("Run history"));
  gtk_label_set_xalign (GTK_LABEL (history_label), 0);
  gtk_widget_add_css_class (history_label, "heading");
  gtk_widget_set_margin_start (history_label, 12);
  gtk_widget_set_margin_top (history_label, 6);
  gtk_widget_set_margin_bottom (history_label, 4);
  gtk_box_append (GTK_BOX (history_box), history_label);
  gtk_box_append (GTK_BOX (history_box), self->history);

  /* the options take their natural height while the window is tall enough (they scroll
   * otherwise); the history takes the rest */
  sidebar_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (sidebar_box), options_scroller);
  gtk_box_append (GTK_BOX (sidebar_box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (sidebar_box), history_box);
  gtk_widget_set_vexpand (history_box, TRUE);
  gtk_widget_set_size_request (history_box, -1, 160);
  self->sidebar = sidebar_box;
  gtk_widget_set_size_request (self->sidebar, 320, -1);
  g_object_bind_property (self, "sidebar-visible", self->sidebar, "visible", G_BINDING_SYNC_CREATE);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), self->sidebar);
  /* ten views: their switcher heads the views' pane (in the header bar it would make
   * the window wider than a laptop screen) */
  {
    GtkWidget *views_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *switcher = gtk_stack_switcher_new ();
    gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (self->stack));
    /* the theme gives switcher buttons a wide minimum: as wide as their labels, all ten
     * fit a 1280-pixel window next to the sidebar */
    {
      g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
      gtk_css_provider_load_from_data (css, ".zw-view-switcher > button { min-width: 0; padding-left: 10px; "
                                            "padding-right: 10px; }", -1);
      gtk_style_context_add_provider_for_display (gtk_widget_get_display (GTK_WIDGET (self)),
                                                  GTK_STYLE_PROVIDER (css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
      gtk_widget_add_css_class (switcher, "zw-view-switcher");
    }
    GtkWidget *switcher_scroller = gtk_scrolled_window_new ();
    gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
    /* narrower than its ten buttons (a small window, a long translation) it scrolls */
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (switcher_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (switcher_scroller), TRUE);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (switcher_scroller), switcher);
    gtk_widget_set_margin_top (switcher, 6);
    gtk_widget_set_margin_bottom (switcher, 6);
    gtk_widget_set_margin_start (switcher, 6);
    gtk_widget_set_margin_end (switcher, 6);
    gtk_box_append (GTK_BOX (views_box), switcher_scroller);
    gtk_box_append (GTK_BOX (views_box), self->stack);
    gtk_paned_set_end_child (GTK_PANED (paned), views_box);
  }
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (paned, TRUE);

  /* the error banner: the runtime's message, and the way on when params are missing */
  self->banner = gtk_info_bar_new ();
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->banner), GTK_MESSAGE_ERROR);
  gtk_info_bar_set_show_close_button (GTK_INFO_BAR (self->banner), TRUE);
  self->banner_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->banner_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->banner_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->banner_label), 0);
  gtk_widget_set_hexpand (self->banner_label, TRUE);
  gtk_info_bar_add_child (GTK_INFO_BAR (self->banner), self->banner_label);
  self->synthetic_button = gtk_info_bar_add_button (GTK_INFO_BAR (self->banner), _("Use _Synthetic Params"),
                                                    GTK_RESPONSE_ACCEPT);
  gtk_widget_set_tooltip_text (self->synthetic_button,
                               _("Fill the weights with deterministic synthetic data of the right sizes"));
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->banner), FALSE);
  gtk_widget_set_visible (self->banner, FALSE);
  g_signal_connect (self->banner, "response", G_CALLBACK (on_banner_response), self);

  /* progress of the background run, with Cancel */
  progress_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start (progress_box, 12);
  gtk_widget_set_margin_end (progress_box, 12);
  gtk_widget_set_margin_top (progress_box, 6);
  gtk_widget_set_margin_bottom (progress_box, 6);
  self->progress_label = gtk_label_new (NULL);
  gtk_widget_set_size_request (self->progress_label, 160, -1);
  gtk_label_set_xalign (GTK_LABEL (self->progress_label), 0);
  self->progress_bar = gtk_progress_bar_new ();
  gtk_widget_set_hexpand (self->progress_bar, TRUE);
  gtk_widget_set_valign (self->progress_bar, GTK_ALIGN_CENTER);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel");
  gtk_box_append (GTK_BOX (progress_box), self->progress_label);
  gtk_box_append (GTK_BOX (progress_box), self->progress_bar);
  gtk_box_append (GTK_BOX (progress_box), cancel);
  self->progress_revealer = gtk_revealer_new ();
  gtk_revealer_set_transition_type (GTK_REVEALER (self->progress_revealer), GTK_REVEALER_TRANSITION_TYPE_NONE);
  gtk_revealer_set_child (GTK_REVEALER (self->progress_revealer), progress_box);
  gtk_widget_set_visible (self->progress_revealer, FALSE);

  content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (content), self->banner);
  gtk_box_append (GTK_BOX (content), self->progress_revealer);
  gtk_box_append (GTK_BOX (content), paned);
  gtk_window_set_child (GTK_WINDOW (self), content);

  /* files dropped on the window open as from the command line */
  {
    GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
    g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
    gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  }
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);

  g_signal_connect (self->controller, "run-finished", G_CALLBACK (on_run_finished), self);
  g_signal_connect (self->controller, "network-loaded", G_CALLBACK (on_network_loaded), self);
  g_signal_connect (self->controller, "failed", G_CALLBACK (on_failed), self);
  g_signal_connect (self->controller, "compiles-compared", G_CALLBACK (on_compiles_compared), self);
  g_signal_connect (self->controller, "sweep-finished", G_CALLBACK (on_sweep_finished), self);
  g_signal_connect (self->controller, "notify::busy", G_CALLBACK (on_busy_changed), self);
  g_signal_connect (self->controller, "notify::progress", G_CALLBACK (on_progress_changed), self);
  g_signal_connect (self->controller, "notify::status", G_CALLBACK (on_progress_changed), self);
  update_actions (self);
}

GtkWidget *
zw_window_new (GtkApplication *application)
{
  return g_object_new (ZW_TYPE_WINDOW, "application", application, NULL);
}

GListModel *
zw_window_get_runs (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->runs);
}

ZwRun *
zw_window_get_selected_run (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return zw_run_history_get_selected_run (ZW_RUN_HISTORY (self->history));
}

GPtrArray *
zw_window_get_compare_runs (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return zw_run_history_get_compare_runs (ZW_RUN_HISTORY (self->history));
}

ZwSelection *
zw_window_get_selection (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return self->selection;
}

gboolean
zw_window_get_busy (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  return (self->controller != NULL && zw_run_controller_get_busy (self->controller))
         || (self->views[VIEW_GRAPH] != NULL && zw_graph_view_get_busy (ZW_GRAPH_VIEW (self->views[VIEW_GRAPH])));
}

const char *
zw_window_get_shown_file (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return self->shown_file;
}

const char *
zw_window_get_banner_message (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return self->banner_message;
}

GtkWidget *
zw_window_get_view (ZwWindow *self, const char *name)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  for (guint i = 0; i < N_VIEWS; i++)
    if (g_strcmp0 (name, view_pages[i].name) == 0)
      return self->views[i];
  return NULL;
}

GdkTexture *
zw_window_render_texture (ZwWindow *self, GError **error)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  graphene_rect_t bounds;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);

  renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  if (!gtk_widget_get_mapped (widget) || renderer == NULL || width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "the window is not shown yet (%dx%d)", width,
                   height);
      return NULL;
    }
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the window drew nothing");
      return NULL;
    }
  bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  return gsk_renderer_render_texture (renderer, node, &bounds);
}

gboolean
zw_window_save_png (ZwWindow *self, const char *path, GError **error)
{
  g_autoptr (GdkTexture) texture = zw_window_render_texture (self, error);
  g_autoptr (GBytes) bytes = NULL;

  if (texture == NULL)
    return FALSE;
  /* through zw_file_set_contents: a crash never leaves half a PNG */
  bytes = gdk_texture_save_to_png_bytes (texture);
  return zw_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), error);
}

GtkWidget *
zw_window_get_history (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return self->history;
}

ZwRunController *
zw_window_get_run_controller (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return self->controller;
}

GtkWidget *
zw_window_get_options_panel (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  return self->options;
}
