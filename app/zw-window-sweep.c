/* zw-window-sweep.c — sweeps in the window: "Sweep Options…" (the what-if grid), a sweep
 * run by the controller or opened from disk shown in Sweep, and a row of it opened (deployed
 * and run with its options and device figures, so every view shows that run). */
#include "zw-window-private.h"

#include <glib/gi18n.h>

#include "deploy/zg330-sweep.h"
#include "zw-sweep-view.h"

static void
on_sweep_finished (ZwRunController *controller, ZwWindow *self)
{
  g_autoptr (ZwSweep) sweep = zw_run_controller_take_sweep (controller);

  if (sweep == NULL)
    return;
  zw_sweep_view_set_sweep (ZW_SWEEP_VIEW (zw_window_get_view (self, "sweep")), sweep);
  zw_window_update_empty_states (self);
  zw_window_set_view (self, "sweep");
}

void
zw_window_open_sweep (ZwWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwSweep) sweep = zw_sweep_load (path, &error);

  zw_window_show_banner (self, NULL, NULL);
  if (sweep == NULL)
    {
      zw_window_banner_for_error (self, path, error);
      return;
    }
  zw_sweep_view_set_sweep (ZW_SWEEP_VIEW (zw_window_get_view (self, "sweep")), sweep);
  zw_window_update_empty_states (self);
  zw_window_set_view (self, "sweep");
  zw_window_set_shown_file (self, path);
}

gboolean
zw_window_sweep (ZwWindow *self, const char *what_if)
{
  g_autoptr (GArray) axes = NULL;
  g_auto (GStrv) parts = NULL;

  g_return_val_if_fail (ZW_IS_WINDOW (self), FALSE);
  if (!zw_run_controller_has_network (self->controller))
    {
      zw_window_show_banner (self, _("Open a network first: a sweep deploys it with every option combination"), NULL);
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
          zw_window_show_banner (self, message, NULL);
          return FALSE;
        }
    }
  zw_window_show_banner (self, NULL, NULL);
  g_free (self->sweep_what_if);
  self->sweep_what_if = g_strdup (what_if);
  zw_run_controller_sweep (self->controller, g_steal_pointer (&axes));
  return TRUE;
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
      zw_window_show_banner (self, error->message, NULL);
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
      zw_window_show_banner (self, message, NULL);
      return;
    }
  if (!other_network && open_net == NULL)
    {
      zw_window_show_banner (self, _("Open the network of this sweep to run its rows"), NULL);
      return;
    }
  zw_window_show_options_in_panel (self, &options);
  g_clear_handle_id (&self->reapply_source, g_source_remove);
  zw_window_show_banner (self, NULL, NULL);
  /* the row's exact figures, not the panel's (KiB, MHz) */
  zw_run_controller_set_options (self->controller, &options);
  if (other_network)
    zw_run_controller_open (self->controller, sweep_net, FALSE, zw_window_read_iterations (self));
  else
    zw_run_controller_request (self->controller, ZW_RUN_MODE_RUN, zw_window_read_iterations (self));
  if (zw_run_controller_get_device_url (self->controller) != NULL && *row->what_if != '\0')
    {
      g_autofree char *message =
        /* TRANSLATORS: %u a sweep row, %s the device URL of the options, then the row's what-if point */
        g_strdup_printf (_("Row #%u runs on %s, the board of the options: its what-if figures (%s) size the "
                           "simulated board only"), row->index, zw_run_controller_get_device_url (self->controller),
                         row->what_if);
      zw_window_show_banner (self, message, NULL);
    }
  else if (*row->what_if != '\0')
    {
      /* the sidebar's device figures were the user's: say they are a what-if point's now */
      g_autofree char *message =
        /* TRANSLATORS: %u a sweep row, %s its what-if point (e.g. ocm=4M,icore=1G) */
        g_strdup_printf (_("Applied what-if: row #%u runs with the device figures of its point (%s), not the device "
                           "profile's; the sidebar shows them until you change them"), row->index, row->what_if);
      zw_window_show_banner (self, message, NULL);
      /* and again over the run's end (which clears banners) */
      g_free (self->run_banner);
      self->run_banner = g_steal_pointer (&message);
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
void
zw_window_action_sweep (GtkWidget *widget, const char *name, GVariant *param)
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

void
zw_window_action_sweep_what_if (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  zw_window_sweep (ZW_WINDOW (widget), g_variant_get_string (param, NULL));
}

void
zw_window_sweep_init (ZwWindow *self)
{
  g_signal_connect (zw_window_get_view (self, "sweep"), "row-activated", G_CALLBACK (on_sweep_row_activated), self);
  g_signal_connect (self->controller, "sweep-finished", G_CALLBACK (on_sweep_finished), self);
}
