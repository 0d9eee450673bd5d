/* zw-window.c — the workbench window (see the header). */
#include "zw-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "zw-application.h"
#include "zw-memory-view.h"
#include "zw-merge-view.h"
#include "zw-ocm-view.h"
#include "zw-options-panel.h"
#include "zw-run-controller.h"
#include "zw-run-history.h"
#include "zw-segment-view.h"

#define N_VIEWS 4

static const struct {
  const char *name;
  const char *title;
} view_pages[N_VIEWS] = {
  { "segments", N_("Segments") },
  { "memory", N_("Memory") },
  { "ocm", N_("OCM") },
  { "merges", N_("Merges") },
};

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

static void
read_options (ZwWindow *self, ZwRunOptions *options)
{
  g_autofree char *ocm_id = NULL;
  guint kib = 0;
  double mhz = 0, gbps = 0;
  ZwOcmOpt ocm = ZW_OCM_BEST_SCORE;

  g_object_get (self->options, "merge-hardop", &options->merge_hardop, "etm-optimize", &options->etm_optimize,
                "ocm-option", &ocm_id, "ocm-kib", &kib, "icore-mhz", &mhz, "etm-gbps", &gbps, NULL);
  zw_options_panel_ocm_from_id (ocm_id, &ocm);
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

/* Shows a run's options in the panel without re-applying. */
static void
sync_options_from_run (ZwWindow *self, ZwRun *run)
{
  ZwDeployReport *report = zw_run_get_report (run);

  self->syncing = TRUE;
  g_object_set (self->options, "merge-hardop", report->merge_hardop, "etm-optimize", report->etm_optimize,
                "ocm-option", zw_options_panel_ocm_to_id (report->ocm_requested), NULL);
  if (report->ocm_bytes >= 64 * 1024)
    g_object_set (self->options, "ocm-kib", (guint) (report->ocm_bytes / 1024), NULL);
  if (report->icore_clock_hz >= 1e6)
    g_object_set (self->options, "icore-mhz", report->icore_clock_hz / 1e6, NULL);
  if (report->etm_bandwidth >= 1e8)
    g_object_set (self->options, "etm-gbps", report->etm_bandwidth / 1e9, NULL);
  self->syncing = FALSE;
}

/* ---- runs ------------------------------------------------------------------------------ */

static void
on_selected_run (ZwRunHistory *history, GParamSpec *pspec, ZwWindow *self)
{
  ZwRun *run = zw_run_history_get_selected_run (history);
  gboolean offline;
  const char *chosen = NULL;

  (void) pspec;
  zw_selection_set_report (self->selection, run ? zw_run_get_report (run) : NULL);
  offline = run != NULL && zw_run_get_kind (run) == ZW_RUN_LOG;
  if (offline != self->offline)
    {
      self->offline = offline;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFLINE]);
    }
  if (run != NULL && (!self->selecting_new || offline))
    sync_options_from_run (self, run);
  if (run != NULL && zw_run_get_ocm_requested (run) == ZW_OCM_BEST_SCORE)
    chosen = zw_ocm_opt_get_label (zw_run_get_ocm_chosen (run));
  g_object_set (self->options, "ocm-chosen", chosen, "editable", !offline, NULL);
  if (run != NULL)
    {
      g_autofree char *title = NULL;
      if (offline)
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
  g_list_store_append (self->runs, run);
  show_banner (self, NULL, NULL);
  self->selecting_new = TRUE;
  zw_run_history_set_selected_run (ZW_RUN_HISTORY (self->history), run);
  self->selecting_new = FALSE;
  if (zw_run_get_kind (run) == ZW_RUN_LOG && ZW_IS_APPLICATION (app))
    zw_application_add_recent (ZW_APPLICATION (app), zw_run_get_path (run));
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
  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

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

/* The shortcuts window, built from a GtkBuilder description whose titles are translated
 * here (GtkShortcutsWindow has no API to add sections in GTK 4.8). */
static void
action_show_shortcuts (GtkWidget *widget, const char *name, GVariant *param)
{
  static const struct {
    const char *accel;
    const char *title;
  } shortcuts[] = {
    { "<Control>o", N_("Open a network or deploy log") },
    { "<Control>r", N_("Apply and forward") },
    { "Escape", N_("Cancel the run in progress") },
    { "F9", N_("Show or hide the sidebar") },
    { "<Control>1", N_("Segments view") },
    { "<Control>2", N_("Memory view") },
    { "<Control>3", N_("OCM view") },
    { "<Control>4", N_("Merges view") },
    { "<Control>question", N_("Keyboard shortcuts") },
    { "<Control>q", N_("Quit") },
  };
  g_autoptr (GString) xml = g_string_new (NULL);
  g_autoptr (GtkBuilder) builder = NULL;
  g_autofree char *group = g_markup_escape_text (_("Workbench"), -1);
  GtkWindow *window;

  (void) name;
  (void) param;
  g_string_append (xml, "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\">"
                        "<property name=\"modal\">1</property><child><object class=\"GtkShortcutsSection\">"
                        "<property name=\"section-name\">workbench</property><child>"
                        "<object class=\"GtkShortcutsGroup\">");
  g_string_append_printf (xml, "<property name=\"title\">%s</property>", group);
  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    {
      g_autofree char *title = g_markup_escape_text (_(shortcuts[i].title), -1);
      g_autofree char *accel = g_markup_escape_text (shortcuts[i].accel, -1);
      g_string_append_printf (xml,
                              "<child><object class=\"GtkShortcutsShortcut\"><property name=\"title\">%s</property>"
                              "<property name=\"accelerator\">%s</property></object></child>",
                              title, accel);
    }
  g_string_append (xml, "</object></child></object></child></object></interface>");
  builder = gtk_builder_new_from_string (xml->str, (gssize) xml->len);
  window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts"));
  gtk_window_set_transient_for (window, GTK_WINDOW (widget));
  gtk_window_present (window);
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
      if (zw_options_panel_ocm_from_id (g_value_get_string (value), &opt))
        set_string (self, &self->ocm_option, g_value_get_string (value), PROP_OCM_OPTION);
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

static void
zw_window_constructed (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);
  GtkApplication *app;

  G_OBJECT_CLASS (zw_window_parent_class)->constructed (object);

  app = gtk_window_get_application (GTK_WINDOW (self));
  if (ZW_IS_APPLICATION (app))
    {
      GListModel *recent = zw_application_get_recent (ZW_APPLICATION (app));
      g_signal_connect_object (recent, "items-changed", G_CALLBACK (on_recent_changed), self, 0);
      on_recent_changed (recent, 0, 0, 0, self);
    }
}

static void
zw_window_dispose (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);

  g_clear_handle_id (&self->reapply_source, g_source_remove);
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
  static const guint view_keys[N_VIEWS] = { GDK_KEY_1, GDK_KEY_2, GDK_KEY_3, GDK_KEY_4 };

  object_class->constructed = zw_window_constructed;
  object_class->dispose = zw_window_dispose;
  object_class->finalize = zw_window_finalize;
  object_class->get_property = zw_window_get_property;
  object_class->set_property = zw_window_set_property;

  properties[PROP_MERGE_HARDOP] = g_param_spec_boolean ("merge-hardop", NULL, NULL, TRUE, rw);
  properties[PROP_ETM_OPTIMIZE] = g_param_spec_boolean ("etm-optimize", NULL, NULL, TRUE, rw);
  properties[PROP_OCM_OPTION] = g_param_spec_string ("ocm-option", NULL, NULL, "best", rw);
  properties[PROP_VIEW] = g_param_spec_string ("view", NULL, NULL, "segments", rw);
  properties[PROP_SIDEBAR_VISIBLE] = g_param_spec_boolean ("sidebar-visible", NULL, NULL, TRUE, rw);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro);
  properties[PROP_BANNER_MESSAGE] = g_param_spec_string ("banner-message", NULL, NULL, NULL, ro);
  properties[PROP_OFFLINE] = g_param_spec_boolean ("offline", NULL, NULL, FALSE, ro);
  properties[PROP_ITERATIONS] = g_param_spec_uint ("iterations", NULL, NULL, 1, 100000, 1, rw);
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
  gtk_widget_class_install_property_action (widget_class, "win.toggle-sidebar", "sidebar-visible");
  gtk_widget_class_install_property_action (widget_class, "win.view", "view");
  gtk_widget_class_install_property_action (widget_class, "win.merge-hardop", "merge-hardop");
  gtk_widget_class_install_property_action (widget_class, "win.etm-optimize", "etm-optimize");
  gtk_widget_class_install_property_action (widget_class, "win.ocm-option", "ocm-option");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_question, GDK_CONTROL_MASK, "win.show-shortcuts",
                                       NULL);
  for (guint i = 0; i < N_VIEWS; i++)
    gtk_widget_class_add_binding_action (widget_class, view_keys[i], GDK_CONTROL_MASK, "win.view", "s",
                                         view_pages[i].name);
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
  GtkWidget *switcher = gtk_stack_switcher_new ();
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) section = g_menu_new ();
  g_autoptr (GMenu) section2 = g_menu_new ();

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

  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (self->stack));
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), switcher);

  self->recent_menu = g_menu_new ();
  g_menu_append (section, _("Open _Demo"), "win.open-demo");
  g_menu_append_submenu (section, _("Open _Recent"), G_MENU_MODEL (self->recent_menu));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_menu_append (section2, _("_Keyboard Shortcuts"), "win.show-shortcuts");
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
  const Zg330Profile *profile;

  self->merge_hardop = TRUE;
  self->etm_optimize = TRUE;
  self->ocm_option = g_strdup ("best");
  self->view = g_strdup ("segments");
  self->sidebar_visible = TRUE;
  self->iterations = 1;

  self->controller = zw_run_controller_new ();
  self->selection = zw_selection_new ();
  self->runs = g_list_store_new (ZW_TYPE_RUN);

  gtk_window_set_title (GTK_WINDOW (self), _("Zhuge Workbench"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1280, 800);

  /* views */
  self->stack = gtk_stack_new ();
  gtk_stack_set_transition_type (GTK_STACK (self->stack), GTK_STACK_TRANSITION_TYPE_NONE);
  self->views[0] = zw_segment_view_new (self->selection);
  self->views[1] = zw_memory_view_new (self->selection);
  self->views[2] = zw_ocm_view_new (self->selection);
  self->views[3] = zw_merge_view_new (self->selection);
  for (guint i = 0; i < N_VIEWS; i++)
    {
      gtk_widget_set_hexpand (self->views[i], TRUE);
      gtk_widget_set_vexpand (self->views[i], TRUE);
      gtk_stack_add_titled (GTK_STACK (self->stack), self->views[i], view_pages[i].name, _(view_pages[i].title));
    }
  g_signal_connect (self->stack, "notify::visible-child-name", G_CALLBACK (on_stack_child), self);

  gtk_window_set_titlebar (GTK_WINDOW (self), build_header (self));

  /* sidebar: options above, run history below */
  self->options = zw_options_panel_new ();
  profile = zw_run_controller_get_base_profile (self->controller);
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
  gtk_paned_set_end_child (GTK_PANED (paned), self->stack);
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

  g_signal_connect (self->controller, "run-finished", G_CALLBACK (on_run_finished), self);
  g_signal_connect (self->controller, "network-loaded", G_CALLBACK (on_network_loaded), self);
  g_signal_connect (self->controller, "failed", G_CALLBACK (on_failed), self);
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
  return self->controller != NULL && zw_run_controller_get_busy (self->controller);
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
  /* through g_file_set_contents: a crash never leaves half a PNG */
  bytes = gdk_texture_save_to_png_bytes (texture);
  return g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), error);
}
