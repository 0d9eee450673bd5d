/* zw-application.c — the application: command line, windows, recent files, screenshots. */
#include "zw-application.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "zw-recent-files.h"
#include "zw-style-manager.h"
#include "zw-views.h"
#include "zw-window.h"

/* A screenshot run that has not finished by then has hung: give up rather than wait. */
#define SCREENSHOT_TIMEOUT_S 300

struct _ZwApplication
{
  GtkApplication parent_instance;

  GtkStringList *recent;
  gboolean loading_recent;    /* from the settings: nothing to save */
  GSettings *settings;        /* NULL when the schema is not installed */
  ZwStyleManager *style;
  char *screenshot;
  char *view;
  char *compare_compile;      /* --compare-compile: the other compile of the network opened */
  char *device;               /* --device: the board every window deploys on */
  char *view_help;            /* --view's description: the names of the table of views */
  ZwWindow *screenshot_window;
  gulong after_paint_id;
  GdkFrameClock *clock;
  guint timeout_id;
  gboolean screenshot_taken;
  guint frames;
  int exit_status;
};

G_DEFINE_FINAL_TYPE (ZwApplication, zw_application, GTK_TYPE_APPLICATION)

/* ---- screenshots ----------------------------------------------------------------------- */

static void
screenshot_finish (ZwApplication *self)
{
  g_autoptr (GError) error = NULL;
  const char *banner = zw_window_get_banner_message (self->screenshot_window);

  self->screenshot_taken = TRUE;
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (!zw_window_save_png (self->screenshot_window, self->screenshot, &error))
    {
      g_printerr ("zhuge-workbench: %s: %s\n", self->screenshot, error->message);
      self->exit_status = 1;
    }
  else if (banner != NULL)
    {
      g_printerr ("zhuge-workbench: %s\n", banner);
      self->exit_status = 1;
    }
  else
    {
      ZwRun *run = zw_window_get_selected_run (self->screenshot_window);
      /* the image is of made-up weights when the network had no .raw: say so (the run's
       * title in the history says it too) */
      if (run != NULL && zw_run_get_synthetic_params (run))
        g_printerr (_("zhuge-workbench: %s: no .raw params beside the network: the screenshot deployed and ran "
                      "synthetic params (deterministic, as xrt-run fake-params)\n"),
                    zw_run_get_network_name (run));
    }
  g_application_quit (G_APPLICATION (self));
}

static void
on_after_paint (GdkFrameClock *clock, ZwApplication *self)
{
  /* rows bound during the first frame's layout (the run history's) resize in the next
   * one: take the second frame */
  /* a view that began background work in these frames (the graph's layout): wait for it */
  if (zw_window_get_busy (self->screenshot_window))
    {
      g_signal_handler_disconnect (clock, self->after_paint_id);
      self->after_paint_id = 0;
      g_clear_object (&self->clock);
      return;
    }
  if (++self->frames < 2)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self->screenshot_window));
      return;
    }
  g_signal_handler_disconnect (clock, self->after_paint_id);
  self->after_paint_id = 0;
  g_clear_object (&self->clock);
  screenshot_finish (self);
}

/* Called whenever something the screenshot waits for changes: once the window is mapped
 * and the first run has finished or failed, the next frame after its paint is taken. */
static void
screenshot_check (ZwApplication *self)
{
  ZwWindow *win = self->screenshot_window;

  if (win == NULL || self->screenshot_taken || self->clock != NULL)
    return;
  if (!gtk_widget_get_mapped (GTK_WIDGET (win)) || zw_window_get_busy (win))
    return;
  if (g_list_model_get_n_items (zw_window_get_runs (win)) == 0 && zw_window_get_banner_message (win) == NULL
      && zw_window_get_shown_file (win) == NULL)
    return;
  /* the view asked for, again: a pipeline shows Board when its pass is ready */
  if (self->view != NULL)
    g_object_set (win, "view", self->view, NULL);
  self->frames = 0;
  self->clock = g_object_ref (gtk_widget_get_frame_clock (GTK_WIDGET (win)));
  self->after_paint_id = g_signal_connect (self->clock, "after-paint", G_CALLBACK (on_after_paint), self);
  gtk_widget_queue_draw (GTK_WIDGET (win));
}

static void
on_window_notify (GObject *object, GParamSpec *pspec, ZwApplication *self)
{
  (void) object;
  (void) pspec;
  screenshot_check (self);
}

static void
on_window_map (GtkWidget *widget, ZwApplication *self)
{
  (void) widget;
  screenshot_check (self);
}

static void
on_runs_changed (GListModel *model, guint position, guint removed, guint added, ZwApplication *self)
{
  (void) model;
  (void) position;
  (void) removed;
  (void) added;
  screenshot_check (self);
}

static gboolean
on_screenshot_timeout (gpointer data)
{
  ZwApplication *self = data;

  self->timeout_id = 0;
  g_printerr ("zhuge-workbench: --screenshot: no run finished within %d s\n", SCREENSHOT_TIMEOUT_S);
  self->exit_status = 1;
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_REMOVE;
}

/* ---- recent files ---------------------------------------------------------------------- */

/* Whoever changed the list (a window through zw_recent_files_add), the settings keep it. */
static void
on_recent_changed (GListModel *recent, guint position, guint removed, guint added, ZwApplication *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) paths = NULL;
  guint n = g_list_model_get_n_items (recent);

  (void) position;
  (void) removed;
  (void) added;
  if (self->settings == NULL || self->loading_recent)
    return;
  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (self->recent, i));
  paths = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char *const *) paths);
}

/* Every window gets the recent files and the settings as it is added (zw-window.h). */
static void
zw_application_window_added (GtkApplication *app, GtkWindow *window)
{
  ZwApplication *self = ZW_APPLICATION (app);

  GTK_APPLICATION_CLASS (zw_application_parent_class)->window_added (app, window);
  if (ZW_IS_WINDOW (window))
    zw_window_attach (ZW_WINDOW (window), self->recent, self->settings);
}

/* ---- windows ------------------------------------------------------------------------------ */

static ZwWindow *
new_window (ZwApplication *self)
{
  ZwWindow *win = ZW_WINDOW (zw_window_new (GTK_APPLICATION (self)));

  /* before anything opens: the first apply deploys on that board */
  if (self->device != NULL)
    g_object_set (zw_window_get_options_panel (win), "device-url", self->device, NULL);
  if (self->view != NULL)
    g_object_set (win, "view", self->view, NULL);
  if (self->screenshot != NULL && self->screenshot_window == NULL)
    {
      self->screenshot_window = win;
      g_signal_connect_object (win, "notify::busy", G_CALLBACK (on_window_notify), self, 0);
      g_signal_connect_object (win, "notify::banner-message", G_CALLBACK (on_window_notify), self, 0);
      g_signal_connect_object (win, "notify::shown-file", G_CALLBACK (on_window_notify), self, 0);
      g_signal_connect_object (win, "map", G_CALLBACK (on_window_map), self, 0);
      g_signal_connect_object (zw_window_get_runs (win), "items-changed", G_CALLBACK (on_runs_changed), self, 0);
      self->timeout_id = g_timeout_add_seconds (SCREENSHOT_TIMEOUT_S, on_screenshot_timeout, self);
    }
  return win;
}

static void
zw_application_activate (GApplication *app)
{
  ZwApplication *self = ZW_APPLICATION (app);
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
  ZwWindow *win;

  if (active != NULL && self->screenshot == NULL)
    {
      gtk_window_present (active);
      return;
    }
  win = new_window (self);
  gtk_window_present (GTK_WINDOW (win));
  gtk_widget_activate_action (GTK_WIDGET (win), "win.open-demo", NULL);
  if (self->compare_compile != NULL)
    zw_window_compare_compile (win, self->compare_compile);
}

static void
zw_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  ZwApplication *self = ZW_APPLICATION (app);

  (void) hint;
  /* several files at once go to one window, as a drop does: two time profiles are
   * compared, two dump folders diffed, the others open in turn */
  if (n_files > 1)
    {
      g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      ZwWindow *win;

      for (int i = 0; i < n_files; i++)
        {
          char *path = g_file_get_path (files[i]);
          if (path != NULL)
            g_ptr_array_add (paths, path);
        }
      g_ptr_array_add (paths, NULL);
      win = new_window (self);
      gtk_window_present (GTK_WINDOW (win));
      zw_window_open_paths (win, (const char *const *) paths->pdata);
      if (self->view != NULL)
        g_object_set (win, "view", self->view, NULL);
      return;
    }
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      ZwWindow *win;
      if (path == NULL)
        continue;
      win = new_window (self);
      gtk_window_present (GTK_WINDOW (win));
      /* a screenshot cannot wait for an answer: missing params are synthesised */
      zw_window_open (win, path, self->screenshot != NULL);
      /* queued after the open: the network just opened is compile A */
      if (self->compare_compile != NULL)
        zw_window_compare_compile (win, self->compare_compile);
      /* a file opens in its own view; an explicit --view wins */
      if (self->view != NULL)
        g_object_set (win, "view", self->view, NULL);
      if (self->screenshot != NULL)
        break;
    }
}

static int
zw_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  ZwApplication *self = ZW_APPLICATION (app);
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot);
  g_variant_dict_lookup (options, "view", "s", &self->view);
  g_variant_dict_lookup (options, "compare-compile", "^ay", &self->compare_compile);
  g_variant_dict_lookup (options, "device", "s", &self->device);
  if (g_variant_dict_contains (options, "list-views"))
    {
      guint n;
      const ZwViewKind *views = zw_views_get (&n);
      /* for scripts (.ci/screenshots): the table, one view a line, its name and its data */
      for (guint i = 0; i < n; i++)
        g_print ("%s\t%s\n", views[i].name, zw_view_data_to_string (views[i].data));
      return 0;
    }
  if (self->view != NULL && zw_views_lookup (self->view) == NULL)
    {
      g_autofree char *names = zw_views_dup_names ();
      /* TRANSLATORS: %s the name given, then the names of the views (zw-views.c) */
      g_printerr (_("zhuge-workbench: unknown view “%s” (one of: %s)\n"), self->view, names);
      return 2;
    }
  if (self->screenshot != NULL || self->device != NULL)
    /* a screenshot (and a window on a board given here) is its own process: never hand the
     * work to a running instance, which would not know the board */
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
  return -1;
}

/* ---- settings and colour scheme ------------------------------------------------------------ */

/* The schema installed (or named by GSETTINGS_SCHEMA_DIR), else the one the build compiled
 * into its data folder (the app run from its build tree, `meson devenv` or not). Only when
 * neither exists does nothing persist, rather than g_settings_new aborting, and the message
 * names both places. */
static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autofree char *compiled = g_build_filename (ZW_BUILD_DATADIR, "gschemas.compiled", NULL);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, ZW_APPLICATION_ID, TRUE);
  if (schema == NULL && g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr (GSettingsSchemaSource) build = g_settings_schema_source_new_from_directory (ZW_BUILD_DATADIR, source,
                                                                                             FALSE, NULL);
      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, ZW_APPLICATION_ID, FALSE);
    }
  if (schema == NULL)
    {
      g_message ("the GSettings schema %s is neither installed nor compiled in the build tree (%s): settings "
                 "will not persist", ZW_APPLICATION_ID, compiled);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static void
on_color_scheme_setting (GSettings *settings, const char *key, ZwApplication *self)
{
  g_autofree char *scheme = g_settings_get_string (settings, key);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "color-scheme");

  zw_style_manager_set_color_scheme (self->style, scheme);
  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (scheme));
}

static void
action_color_scheme (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  ZwApplication *self = user_data;
  const char *scheme = g_variant_get_string (value, NULL);

  if (!g_str_equal (scheme, "system") && !g_str_equal (scheme, "light") && !g_str_equal (scheme, "dark"))
    return;
  g_simple_action_set_state (action, value);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "color-scheme", scheme);
  else
    zw_style_manager_set_color_scheme (self->style, scheme);
}

static void
action_about (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  static const char *authors[] = { "The Zhuge Workbench authors", NULL };

  (void) action;
  (void) param;
  gtk_show_about_dialog (gtk_application_get_active_window (app), "program-name", _("Zhuge Workbench"),
                         "logo-icon-name", ZW_APPLICATION_ID, "version", ZW_VERSION, "comments",
                         _("Deploy networks on the ZG330 NPU runtime and inspect segments, memory, OCM, merges, "
                           "per-layer timing, dumped tensors and logs."),
                         "license-type", GTK_LICENSE_MIT_X11, "authors", authors, NULL);
}

static void
zw_application_startup (GApplication *app)
{
  ZwApplication *self = ZW_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  g_autofree char *scheme = NULL;
  GSimpleAction *scheme_action;

  G_APPLICATION_CLASS (zw_application_parent_class)->startup (app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);

  self->settings = settings_new ();
  self->style = zw_style_manager_new ();
  scheme = self->settings != NULL ? g_settings_get_string (self->settings, "color-scheme") : g_strdup ("system");
  zw_style_manager_set_color_scheme (self->style, scheme);
  scheme_action = g_simple_action_new_stateful ("color-scheme", G_VARIANT_TYPE_STRING, g_variant_new_string (scheme));
  g_signal_connect (scheme_action, "change-state", G_CALLBACK (action_color_scheme), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (scheme_action));
  g_object_unref (scheme_action);

  if (self->settings != NULL)
    {
      g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-files");
      g_signal_connect (self->settings, "changed::color-scheme", G_CALLBACK (on_color_scheme_setting), self);
      self->loading_recent = TRUE;
      gtk_string_list_splice (self->recent, 0, g_list_model_get_n_items (G_LIST_MODEL (self->recent)),
                              (const char *const *) recent);
      self->loading_recent = FALSE;
    }
}

static void
action_quit (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  (void) action;
  (void) param;
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);
}

static void
zw_application_dispose (GObject *object)
{
  ZwApplication *self = ZW_APPLICATION (object);

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->clock != NULL && self->after_paint_id != 0)
    g_signal_handler_disconnect (self->clock, self->after_paint_id);
  self->after_paint_id = 0;
  g_clear_object (&self->clock);
  g_clear_object (&self->recent);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->style);
  G_OBJECT_CLASS (zw_application_parent_class)->dispose (object);
}

static void
zw_application_finalize (GObject *object)
{
  ZwApplication *self = ZW_APPLICATION (object);

  g_free (self->screenshot);
  g_free (self->view);
  g_free (self->compare_compile);
  g_free (self->device);
  g_free (self->view_help);
  G_OBJECT_CLASS (zw_application_parent_class)->finalize (object);
}

static void
zw_application_class_init (ZwApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = zw_application_dispose;
  object_class->finalize = zw_application_finalize;
  app_class->activate = zw_application_activate;
  app_class->open = zw_application_open;
  app_class->startup = zw_application_startup;
  app_class->handle_local_options = zw_application_handle_local_options;
  GTK_APPLICATION_CLASS (klass)->window_added = zw_application_window_added;
}

static void
zw_application_init (ZwApplication *self)
{
  g_autofree char *names = zw_views_dup_names ();
  /* TRANSLATORS: %s the names of the views, separated by commas */
  char *view_help = g_strdup_printf (_("The view to show, one of: %s"), names);
  const GOptionEntry entries[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Render the window to FILE.png after the first run and quit"), N_("FILE.png") },
    { "view", 0, 0, G_OPTION_ARG_STRING, NULL, view_help, N_("NAME") },
    { "list-views", 0, 0, G_OPTION_ARG_NONE, NULL, N_("List the views, one a line: its name and the data it shows"),
      NULL },
    { "compare-compile", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Compare the network opened with another compile of it (e.g. its Buyi JSON), shown in Compiles"),
      N_("OTHER.json") },
    { "device", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Deploy on the board at URL (socket://zg330@HOST:PORT for a zhuge-board, mock://zg330) instead of the "
         "simulated board of the network's compile target"), N_("URL") },
    G_OPTION_ENTRY_NULL
  };
  const GActionEntry actions[] = {
    { .name = "quit", .activate = action_quit },
    { .name = "about", .activate = action_about },
  };
  self->view_help = view_help;   /* the entries keep pointing at it */
  self->recent = gtk_string_list_new (NULL);
  g_signal_connect (self->recent, "items-changed", G_CALLBACK (on_recent_changed), self);
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (
      G_APPLICATION (self),
      _("[NET.json | REPORT.json | PROFILE (_time.txt, .json, .csv) | SWEEP.json | DUMP-FOLDER | LOG]"));
  g_application_set_option_context_summary (
      G_APPLICATION (self),
      _("Shows how the ZG330 runtime deploys a network on the simulated board mock://zg330: segments, memory, "
        "OCM options and hardop merges, per-layer timing, run comparisons, option sweeps, dumped tensors and "
        "logs. A time profile, a sweep (xrt-run sweep --json), a dump folder or a text log opens in its own "
        "view. With no file, opens the bundled YOLOv5s-like demo."));
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
}

ZwApplication *
zw_application_new (void)
{
  return g_object_new (ZW_TYPE_APPLICATION, "application-id", ZW_APPLICATION_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, NULL);
}

GListModel *
zw_application_get_recent (ZwApplication *self)
{
  g_return_val_if_fail (ZW_IS_APPLICATION (self), NULL);
  return G_LIST_MODEL (self->recent);
}

void
zw_application_add_recent (ZwApplication *self, const char *path)
{
  g_return_if_fail (ZW_IS_APPLICATION (self));
  g_return_if_fail (path != NULL);
  zw_recent_files_add (self->recent, path);
}

GSettings *
zw_application_get_settings (ZwApplication *self)
{
  g_return_val_if_fail (ZW_IS_APPLICATION (self), NULL);
  return self->settings;
}

ZwStyleManager *
zw_application_get_style_manager (ZwApplication *self)
{
  g_return_val_if_fail (ZW_IS_APPLICATION (self), NULL);
  return self->style;
}

int
zw_application_get_exit_status (ZwApplication *self)
{
  g_return_val_if_fail (ZW_IS_APPLICATION (self), 1);
  return self->exit_status;
}
