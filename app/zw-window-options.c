/* zw-window-options.c — the window's options: the sidebar's panel (what a run deploys with,
 * re-applied when one changes), the options shown from a run or a sweep's row, and the
 * settings the window keeps (size, the user's options). */
#include "zw-window-private.h"

#include "zw-options-panel.h"

#include <glib/gi18n.h>

/* The "ocm-option" short name of @opt; an option this build does not know (a setting
 * written by another version) reads as the default. */
static const char *
ocm_nick (ZwOcmOpt opt)
{
  return zw_ocm_opt_get_nick (zw_ocm_opt_get_index (opt) >= 0 ? opt : ZW_OCM_BEST_SCORE);
}

void
zw_window_read_options (ZwWindow *self, ZwRunOptions *options)
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

guint
zw_window_read_iterations (ZwWindow *self)
{
  return MAX (self->iterations, 1);
}

void
zw_window_request (ZwWindow *self, ZwRunMode mode)
{
  ZwRunOptions options;

  g_clear_handle_id (&self->reapply_source, g_source_remove);
  zw_window_read_options (self, &options);
  zw_run_controller_set_options (self->controller, &options);
  zw_run_controller_request (self->controller, mode, mode == ZW_RUN_MODE_APPLY ? 0 : zw_window_read_iterations (self));
}

static gboolean
reapply_idle (gpointer data)
{
  ZwWindow *self = data;

  self->reapply_source = 0;
  /* a network of the pipeline shown: a new pass with its options */
  if (zw_window_pipeline_options_changed (self))
    return G_SOURCE_REMOVE;
  if (!self->offline && zw_run_controller_has_network (self->controller))
    zw_window_request (self, ZW_RUN_MODE_APPLY);
  return G_SOURCE_REMOVE;
}

/* An option changed: re-apply once the change settles (several properties may change in
 * one go, e.g. a spin button being typed into). */
static void
on_option_changed (GObject *panel, GParamSpec *pspec, ZwWindow *self)
{
  (void) panel;
  (void) pspec;
  if (self->syncing
      || (!zw_window_pipeline_network_selected (self)
          && (self->offline || !zw_run_controller_has_network (self->controller))))
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
void
zw_window_sync_options_from_run (ZwWindow *self, ZwRun *run)
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

/* The panel's ranges: a row's figures outside them are shown at the nearest end (the run
 * itself gets the row's exact figures). */
void
zw_window_show_options_in_panel (ZwWindow *self, const ZwRunOptions *o)
{
  self->syncing = TRUE;
  g_object_set (self->options, "merge-hardop", o->merge_hardop, "etm-optimize", o->etm_optimize, "ocm-option",
                ocm_nick (o->ocm), "ocm-kib",
                (guint) CLAMP (o->ocm_bytes / 1024, 64, 1024 * 1024), "icore-mhz",
                CLAMP (o->icore_clock_hz / 1e6, 1.0, 10000.0), "etm-gbps", CLAMP (o->etm_bandwidth / 1e9, 0.1, 1000.0),
                NULL);
  self->syncing = FALSE;
}

/* What the panel can change for the run shown, and why not the rest: a time profile read
 * from a file has no options; a network whose compiler placed every value (Buyi) has
 * merge off, ETM optimize off and no OCM option, shown as the run used them (the user's
 * own are kept for the next network). */
void
zw_window_options_for_run (ZwWindow *self, ZwRun *run)
{
  gboolean profile = run != NULL && zw_run_get_kind (run) == ZW_RUN_PROFILE;
  gboolean fixed = !self->offline && !profile && zw_run_controller_is_compiler_placed (self->controller);
  const char *reason = NULL;

  if (zw_window_pipeline_options_for_run (self, run))
    return;
  if (profile)
    reason = _("A time profile read from a file: it was not deployed here and has no options. Select a run of the "
               "network to change its options.");
  else if (fixed)
    reason = _("This network's compiler placed every value itself (a Buyi compile): one launch per hardop, the "
               "compiler's ETM reuse and OCM addresses. Merge, ETM optimize and the OCM options do not apply.");
  else if (self->offline)
    reason = _("A deploy log read from a file: its options are shown as it was deployed.");
  if (fixed && !self->user_options_saved)
    {
      self->user_options_saved = TRUE;
      self->user_merge_hardop = self->merge_hardop;
      self->user_etm_optimize = self->etm_optimize;
      g_free (self->user_ocm_option);
      self->user_ocm_option = g_strdup (self->ocm_option);
    }
  g_object_set (self->options, "fixed", fixed, "reason", reason, "editable", !self->offline && !profile, NULL);
  /* the panel shows what the run used */
  if (fixed && run != NULL && zw_run_get_kind (run) != ZW_RUN_PROFILE)
    zw_window_sync_options_from_run (self, run);
}

/* Before another network opens: the user's own options again, if a compiler-placed
 * network showed its own. */
void
zw_window_restore_user_options (ZwWindow *self)
{
  if (!self->user_options_saved)
    return;
  self->user_options_saved = FALSE;
  self->syncing = TRUE;
  g_object_set (self, "merge-hardop", self->user_merge_hardop, "etm-optimize", self->user_etm_optimize,
                "ocm-option", self->user_ocm_option, NULL);
  g_object_set (self->options, "fixed", FALSE, "reason", NULL, NULL);
  self->syncing = FALSE;
  g_clear_pointer (&self->user_ocm_option, g_free);
}

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

/* The options the user sets are the next start's; those shown from a run are not, nor those
 * set for one network of a pipeline (they are that network's). */
static void
on_own_option_changed (ZwWindow *self, GParamSpec *pspec, gpointer data)
{
  ZwOcmOpt ocm = ZW_OCM_BEST_SCORE;

  (void) pspec;
  (void) data;
  if (self->syncing || self->settings == NULL || zw_window_pipeline_network_selected (self))
    return;
  zw_ocm_opt_from_string (self->ocm_option, &ocm);
  g_settings_set_boolean (self->settings, "merge-hardop", self->merge_hardop);
  g_settings_set_boolean (self->settings, "etm-optimize", self->etm_optimize);
  g_settings_set_int (self->settings, "ocm-option", (int) ocm);
}

void
zw_window_save_state (ZwWindow *self)
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
  zw_window_save_state (ZW_WINDOW (window));
  return FALSE;
}

void
zw_window_attach (ZwWindow *self, GtkStringList *recent, GSettings *settings)
{
  g_return_if_fail (ZW_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_STRING_LIST (recent));
  g_return_if_fail (settings == NULL || G_IS_SETTINGS (settings));
  g_return_if_fail (self->recent == NULL);

  self->recent = g_object_ref (recent);
  g_signal_connect_object (recent, "items-changed", G_CALLBACK (zw_window_on_recent_changed), self, 0);
  zw_window_on_recent_changed (G_LIST_MODEL (recent), 0, 0, 0, self);
  if (settings != NULL)
    {
      self->settings = g_object_ref (settings);
      restore_settings (self);
    }
}

/* The options panel of the sidebar, bound to the window's option properties. */
void
zw_window_options_init (ZwWindow *self)
{
  static const char *watched[] = { "notify::merge-hardop", "notify::etm-optimize", "notify::ocm-option",
                                   "notify::ocm-kib", "notify::icore-mhz", "notify::etm-gbps" };
  const XrtBoardFigures *profile = zw_run_controller_get_base_figures (self->controller);

  self->options = zw_options_panel_new ();
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
  for (guint i = 0; i < G_N_ELEMENTS (watched); i++)
    g_signal_connect (self->options, watched[i], G_CALLBACK (on_option_changed), self);
  g_signal_connect (self->options, "notify::device-url", G_CALLBACK (on_device_url_changed), self);
  /* the paned starts at the panel's natural height; the history takes the rest */
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->options_scroller), self->options);
}

/* At construction: the options the user sets are saved as the next window's, the size when
 * the window closes. */
void
zw_window_settings_init (ZwWindow *self)
{
  g_signal_connect (self, "notify::merge-hardop", G_CALLBACK (on_own_option_changed), NULL);
  g_signal_connect (self, "notify::etm-optimize", G_CALLBACK (on_own_option_changed), NULL);
  g_signal_connect (self, "notify::ocm-option", G_CALLBACK (on_own_option_changed), NULL);
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);
}
