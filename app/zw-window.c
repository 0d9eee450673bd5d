/* zw-window.c — the workbench window: the object, its template (zw-window.ui) and the views
 * wired from the table of views (see the header; the other parts share zw-window-private.h). */
#include "zw-window-private.h"
#include "base/zw-file.h"

#include <glib/gi18n.h>
#include <string.h>

#include "deploy/zg330-sweep.h"
#include "zw-app-resources.h"
#include "zw-empty-state.h"
#include "zw-graph-view.h"
#include "zw-run-history.h"
#include "zw-sweep-view.h"
#include "zw-tensor-view.h"
#include "zw-view-switcher.h"

G_DEFINE_FINAL_TYPE (ZwWindow, zw_window, GTK_TYPE_APPLICATION_WINDOW)

static GParamSpec *properties[N_PROPS];

GParamSpec *
zw_window_pspec (guint prop)
{
  g_assert (prop > PROP_0 && prop < N_PROPS);
  return properties[prop];
}

/* ---- views: the table's, each with its empty state over it if it has one ---------------- */

/* A view with nothing to show says how to get something, with the button that does it. */
static GtkWidget *
empty_state_for (const char *name)
{
  if (g_str_equal (name, "tensors"))
    return zw_empty_state_new (_("No tensors yet. Dump tensors to inspect them: a forward writes every value (the "
                                 "OCM-resident ones too) and this view shows their heatmaps, histograms and "
                                 "statistics."),
                               _("_Dump Tensors"), "win.dump-tensors", g_variant_new_string ("SFB"));
  if (g_str_equal (name, "timing"))
    return zw_empty_state_new (_("No times in this run: an Apply deploys without running. Run a forward to see "
                                 "each layer's time."),
                               _("Run a _Forward"), "win.forward", NULL);
  if (g_str_equal (name, "sweep"))
    {
      g_autofree char *text = g_strdup_printf (
          _("No sweep yet. A sweep deploys the open network with each of the %u combinations of merge, ETM "
            "optimize and OCM option (at several OCM sizes and icore clocks if you ask), runs each once, and plots "
            "simulated time against ETM bytes with the Pareto front. A sweep JSON written by xrt-run sweep --json "
            "opens here too."),
          zw_sweep_get_n_combinations ());
      return zw_empty_state_new (text, _("_Sweep Options…"), "win.sweep", NULL);
    }
  return NULL;
}

static GtkWidget *
empty_state (ZwWindow *self, const char *name)
{
  for (guint i = 0; i < self->n_views; i++)
    if (g_str_equal (self->kinds[i].name, name))
      return self->empty_states[i];
  return NULL;
}

static void on_graph_busy (ZwWindow *self);

/* One page per row of the table, in its order, each view bound to the one selection. */
static void
add_views (ZwWindow *self)
{
  self->kinds = zw_views_get (&self->n_views);
  self->views = g_new0 (GtkWidget *, self->n_views);
  self->empty_states = g_new0 (GtkWidget *, self->n_views);
  for (guint i = 0; i < self->n_views; i++)
    {
      GtkWidget *page;
      self->views[i] = zw_views_new_view (&self->kinds[i], self->selection);
      gtk_widget_set_hexpand (self->views[i], TRUE);
      gtk_widget_set_vexpand (self->views[i], TRUE);
      page = self->views[i];
      if ((self->empty_states[i] = empty_state_for (self->kinds[i].name)) != NULL)
        {
          page = gtk_overlay_new ();
          gtk_overlay_set_child (GTK_OVERLAY (page), self->views[i]);
          gtk_overlay_add_overlay (GTK_OVERLAY (page), self->empty_states[i]);
        }
      gtk_stack_add_titled (GTK_STACK (self->stack), page, self->kinds[i].name, _(self->kinds[i].title));
    }
  /* a screenshot of the graph waits for its layout, as for a run */
  g_signal_connect_swapped (zw_window_get_view (self, "graph"), "notify::busy", G_CALLBACK (on_graph_busy), self);
  g_signal_connect_swapped (self->selection, "notify::can-go-back", G_CALLBACK (zw_window_update_actions), self);
  g_signal_connect_swapped (self->selection, "notify::can-go-forward", G_CALLBACK (zw_window_update_actions), self);
}

void
zw_window_update_empty_states (ZwWindow *self)
{
  ZwRun *run = self->history != NULL ? zw_run_history_get_selected_run (ZW_RUN_HISTORY (self->history)) : NULL;

  if (empty_state (self, "tensors") != NULL)
    gtk_widget_set_visible (empty_state (self, "tensors"),
                            zw_tensor_view_get_n_values (ZW_TENSOR_VIEW (zw_window_get_view (self, "tensors"))) == 0);
  /* Timing: a run without a profile (an Apply, a plan, a log) — not before any run, nor when
   * a time file was opened into the view */
  if (empty_state (self, "timing") != NULL)
    gtk_widget_set_visible (empty_state (self, "timing"), run != NULL && zw_run_get_profile (run) == NULL);
  if (empty_state (self, "sweep") != NULL)
    gtk_widget_set_visible (empty_state (self, "sweep"),
                            zw_sweep_view_get_sweep (ZW_SWEEP_VIEW (zw_window_get_view (self, "sweep"))) == NULL);
}

/* ---- the object ------------------------------------------------------------------------ */

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

void
zw_window_show_banner (ZwWindow *self, const char *message, const char *synthetic_path)
{
  if (g_strcmp0 (self->banner_message, message) != 0)
    {
      g_free (self->banner_message);
      self->banner_message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), zw_window_pspec (PROP_BANNER_MESSAGE));
    }
  g_free (self->banner_path);
  self->banner_path = g_strdup (synthetic_path);
  if (message != NULL)
    gtk_label_set_text (GTK_LABEL (self->banner_label), message);
  gtk_widget_set_visible (self->synthetic_button, synthetic_path != NULL);
  /* an offer of networks opened together is made after (zw_window_offer_pipeline) */
  g_clear_pointer (&self->banner_networks, g_strfreev);
  gtk_widget_set_visible (self->pipeline_button, FALSE);
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->banner), GTK_MESSAGE_ERROR);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->banner), message != NULL);
  gtk_widget_set_visible (self->banner, message != NULL);
  zw_window_update_actions (self);
}

static void
on_banner_response (GtkInfoBar *bar, int response, ZwWindow *self)
{
  (void) bar;
  if (response == GTK_RESPONSE_ACCEPT)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.use-synthetic-params", NULL);
  else if (response == GTK_RESPONSE_APPLY && self->banner_networks != NULL)
    {
      g_auto (GStrv) paths = g_steal_pointer (&self->banner_networks);
      zw_window_open_as_pipeline (self, (const char *const *) paths);
    }
  else
    zw_window_show_banner (self, NULL, NULL);
}

/* An error whose message may not name the file: make sure the banner does. */
void
zw_window_banner_for_error (ZwWindow *self, const char *path, const GError *error)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *message = NULL;

  if (strstr (error->message, base) == NULL)
    message = g_strdup_printf ("%s: %s", path, error->message);
  else
    message = g_strdup (error->message);
  zw_window_show_banner (self, message, NULL);
}

/* Files of a folder (or lines of a file) that did not load: the rest is shown, the banner
 * says what was left out and names the first file at fault. */
void
zw_window_banner_for_warnings (ZwWindow *self, const char *path, GPtrArray *warnings)
{
  g_autofree char *message = NULL;

  if (warnings == NULL || warnings->len == 0)
    return;
  message = g_strdup_printf (ngettext ("%s: %u problem, the rest loaded: %s",
                                       "%s: %u problems, the rest loaded: %s (and more)", warnings->len),
                             path, warnings->len, (const char *) g_ptr_array_index (warnings, 0));
  zw_window_show_banner (self, message, NULL);
}

const char *
zw_window_get_empty_state (ZwWindow *self, const char *view)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), NULL);
  for (guint i = 0; i < self->n_views; i++)
    if (g_strcmp0 (self->kinds[i].name, view) == 0 && self->empty_states[i] != NULL
        && gtk_widget_get_visible (self->empty_states[i]))
      return zw_empty_state_get_text (ZW_EMPTY_STATE (self->empty_states[i]));
  return NULL;
}

GtkWidget *
zw_window_current_view (ZwWindow *self)
{
  for (guint i = 0; i < self->n_views; i++)
    if (g_strcmp0 (self->view, self->kinds[i].name) == 0)
      return self->views[i];
  return self->views[0];
}

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
on_graph_busy (ZwWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), zw_window_pspec (PROP_BUSY));
}

void
zw_window_set_view (ZwWindow *self, const char *view)
{
  if (zw_views_lookup (view) != NULL)
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
    case PROP_VIEW: zw_window_set_view (self, g_value_get_string (value)); break;
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

  G_OBJECT_CLASS (zw_window_parent_class)->constructed (object);
  zw_window_settings_init (self);
}

static void
zw_window_dispose (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);

  zw_window_save_state (self);
  g_clear_handle_id (&self->reapply_source, g_source_remove);
  g_clear_handle_id (&self->compare_source, g_source_remove);
  zw_window_compare_plan_cancel (self);
  zw_window_compare_plan_clear (self);
  g_clear_handle_id (&self->progress_delay_source, g_source_remove);
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
  gtk_widget_dispose_template (GTK_WIDGET (self), ZW_TYPE_WINDOW);
  G_OBJECT_CLASS (zw_window_parent_class)->dispose (object);
}

static void
zw_window_finalize (GObject *object)
{
  ZwWindow *self = ZW_WINDOW (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->runs);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent);
  for (guint i = 0; self->temp_dumps != NULL && i < self->temp_dumps->len; i++)
    zw_window_remove_dump_dir (g_ptr_array_index (self->temp_dumps, i));
  g_clear_pointer (&self->temp_dumps, g_ptr_array_unref);
  g_free (self->shown_file);
  zw_window_compare_forget_unmapped (self);
  g_free (self->tensors_dir);
  g_free (self->sweep_what_if);
  g_free (self->pipeline_path);
  g_free (self->pipeline_reshow);
  g_clear_pointer (&self->pipeline_runs, g_ptr_array_unref);
  g_clear_object (&self->apart_run);

  g_free (self->run_banner);
  g_free (self->views);
  g_free (self->empty_states);
  g_free (self->ocm_option);
  g_free (self->user_ocm_option);
  g_free (self->view);
  g_free (self->banner_message);
  g_strfreev (self->banner_networks);
  g_free (self->banner_path);
  g_free (self->compiles_path);
  g_free (self->compiles_options);
  G_OBJECT_CLASS (zw_window_parent_class)->finalize (object);
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

guint
zw_window_get_n_runs_made (ZwWindow *self)
{
  g_return_val_if_fail (ZW_IS_WINDOW (self), 0);
  return self->n_runs_made;
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
  GtkWidget *graph;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  graph = zw_window_get_view (self, "graph");
  return (self->controller != NULL && zw_run_controller_get_busy (self->controller))
         || (graph != NULL && zw_graph_view_get_busy (ZW_GRAPH_VIEW (graph)));
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
  for (guint i = 0; i < self->n_views; i++)
    if (g_strcmp0 (name, self->kinds[i].name) == 0)
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

  zw_window_class_install_actions (widget_class);

  /* the template is in the static library: registered by hand, not by a constructor the
   * linker may leave out */
  zw_app_register_resource ();
  g_type_ensure (ZW_TYPE_VIEW_SWITCHER);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/zhuge/Workbench/zw-window.ui");
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, switcher);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, options_scroller);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, history_box);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, banner);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, synthetic_button);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, pipeline_button);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, ZwWindow, recent_menu);
}

static void
zw_window_init (ZwWindow *self)
{
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

  gtk_widget_init_template (GTK_WIDGET (self));

  add_views (self);
  zw_window_add_view_keys (self);
  zw_view_switcher_set_stack (ZW_VIEW_SWITCHER (self->switcher), GTK_STACK (self->stack));
  zw_window_update_empty_states (self);
  g_signal_connect (self->stack, "notify::visible-child-name", G_CALLBACK (on_stack_child), self);
  /* the theme gives switcher buttons a wide minimum: as wide as their labels, all the views
   * fit a 1280-pixel window next to the sidebar (narrower, the switcher is a drop-down); the
   * progress of a run lies over the content, on the window's background */
  {
    g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
    gtk_css_provider_load_from_data (css, ".zw-view-switcher > button { min-width: 0; padding-left: 10px; "
                                          "padding-right: 10px; }\n"
                                          ".zw-progress-strip { background-color: @theme_bg_color; "
                                          "border-bottom: 1px solid alpha(currentColor, 0.15); }", -1);
    gtk_style_context_add_provider_for_display (gtk_widget_get_display (GTK_WIDGET (self)),
                                                GTK_STYLE_PROVIDER (css), GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

  zw_window_options_init (self);
  zw_window_run_init (self);
  g_object_bind_property (self, "sidebar-visible", self->sidebar, "visible", G_BINDING_SYNC_CREATE);
  /* the error banner: the runtime's message, and the way on when params are missing */
  g_signal_connect (self->banner, "response", G_CALLBACK (on_banner_response), self);
  zw_window_open_init (self);
  zw_window_sweep_init (self);
  zw_window_pipeline_init (self);
  zw_window_update_actions (self);
}
