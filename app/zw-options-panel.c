/* zw-options-panel.c — the backend options and device what-ifs (see the header). */
#include "zw-options-panel.h"

#include <glib/gi18n.h>
#include "zw-view.h"

struct _ZwOptionsPanel
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkWidget *options_box;   /* everything editable */
  GtkWidget **ocm_radios;   /* one per OCM option, in the table's order */
  GtkWidget *chosen_label;
  GtkAdjustment *ocm_adj, *icore_adj, *etm_adj, *iter_adj;

  gboolean merge_hardop;
  gboolean etm_optimize;
  char *ocm_option;
  char *ocm_chosen;
  guint ocm_kib;
  double icore_mhz;
  double etm_gbps;
  guint iterations;
  gboolean editable;
  char *device_url;         /* "" : the simulated board of the compile target */
  GtkWidget *device_entry;
  gboolean fixed;           /* the backend options cannot change (a compiler-placed network) */
  char *reason;             /* why the options are fixed or read-only, shown above them */
  GtkWidget *reason_label;
  GtkWidget *backend_box;   /* merge, ETM optimize, the OCM options */
};

G_DEFINE_FINAL_TYPE (ZwOptionsPanel, zw_options_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MERGE_HARDOP,
  PROP_ETM_OPTIMIZE,
  PROP_OCM_OPTION,
  PROP_OCM_CHOSEN,
  PROP_OCM_KIB,
  PROP_ICORE_MHZ,
  PROP_ETM_GBPS,
  PROP_ITERATIONS,
  PROP_EDITABLE,
  PROP_DEVICE_URL,
  PROP_FIXED,
  PROP_REASON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_boolean (ZwOptionsPanel *self, gboolean *field, gboolean value, guint prop)
{
  value = !!value;
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_ocm_option (ZwOptionsPanel *self, const char *id)
{
  ZwOcmOpt opt;
  const char *nick;

  if (!zw_ocm_opt_from_string (id, &opt))
    {
      g_warning ("unknown OCM option id “%s”", id);
      return;
    }
  nick = zw_ocm_opt_get_nick (opt);
  if (g_strcmp0 (self->ocm_option, nick) == 0)
    return;
  g_free (self->ocm_option);
  self->ocm_option = g_strdup (nick);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->ocm_radios[zw_ocm_opt_get_index (opt)]), TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OCM_OPTION]);
}

static void
set_ocm_chosen (ZwOptionsPanel *self, const char *chosen)
{
  g_autofree char *text = NULL;

  if (g_strcmp0 (self->ocm_chosen, chosen) == 0)
    return;
  g_free (self->ocm_chosen);
  self->ocm_chosen = g_strdup (chosen);
  if (chosen != NULL)
    /* TRANSLATORS: beside "Best score": the option it chose in the last run */
    text = g_strdup_printf (_("chose %s"), chosen);
  gtk_label_set_text (GTK_LABEL (self->chosen_label), text ? text : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OCM_CHOSEN]);
}

static void
set_reason (ZwOptionsPanel *self, const char *reason)
{
  if (reason != NULL && *reason == '\0')
    reason = NULL;
  if (g_strcmp0 (self->reason, reason) == 0)
    return;
  g_free (self->reason);
  self->reason = g_strdup (reason);
  gtk_label_set_text (GTK_LABEL (self->reason_label), reason != NULL ? reason : "");
  gtk_widget_set_visible (self->reason_label, reason != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REASON]);
}

static void
set_uint (ZwOptionsPanel *self, guint *field, guint value, guint prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_double (ZwOptionsPanel *self, double *field, double value, guint prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
on_ocm_radio_toggled (GtkCheckButton *button, ZwOptionsPanel *self)
{
  if (gtk_check_button_get_active (button))
    set_ocm_option (self, zw_ocm_opt_get_nick (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "ocm-opt"))));
}

static void
zw_options_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwOptionsPanel *self = ZW_OPTIONS_PANEL (object);

  switch (prop_id)
    {
    case PROP_MERGE_HARDOP: g_value_set_boolean (value, self->merge_hardop); break;
    case PROP_ETM_OPTIMIZE: g_value_set_boolean (value, self->etm_optimize); break;
    case PROP_OCM_OPTION: g_value_set_string (value, self->ocm_option); break;
    case PROP_OCM_CHOSEN: g_value_set_string (value, self->ocm_chosen); break;
    case PROP_FIXED: g_value_set_boolean (value, self->fixed); break;
    case PROP_REASON: g_value_set_string (value, self->reason); break;
    case PROP_OCM_KIB: g_value_set_uint (value, self->ocm_kib); break;
    case PROP_ICORE_MHZ: g_value_set_double (value, self->icore_mhz); break;
    case PROP_ETM_GBPS: g_value_set_double (value, self->etm_gbps); break;
    case PROP_ITERATIONS: g_value_set_uint (value, self->iterations); break;
    case PROP_EDITABLE: g_value_set_boolean (value, self->editable); break;
    case PROP_DEVICE_URL: g_value_set_string (value, self->device_url); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_device_url (ZwOptionsPanel *self, const char *url)
{
  g_autofree char *clean = g_strstrip (g_strdup (url != NULL ? url : ""));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->device_entry)), clean) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->device_entry), clean);
  if (g_strcmp0 (self->device_url, clean) == 0)
    return;
  g_free (self->device_url);
  self->device_url = g_steal_pointer (&clean);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE_URL]);
}

/* The URL takes effect when typed in full (Enter), not at every key. */
static void
on_device_activate (GtkEntry *entry, ZwOptionsPanel *self)
{
  set_device_url (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
zw_options_panel_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwOptionsPanel *self = ZW_OPTIONS_PANEL (object);

  switch (prop_id)
    {
    case PROP_MERGE_HARDOP: set_boolean (self, &self->merge_hardop, g_value_get_boolean (value), prop_id); break;
    case PROP_ETM_OPTIMIZE: set_boolean (self, &self->etm_optimize, g_value_get_boolean (value), prop_id); break;
    case PROP_OCM_OPTION: set_ocm_option (self, g_value_get_string (value)); break;
    case PROP_OCM_CHOSEN: set_ocm_chosen (self, g_value_get_string (value)); break;
    case PROP_OCM_KIB: set_uint (self, &self->ocm_kib, g_value_get_uint (value), prop_id); break;
    case PROP_ICORE_MHZ: set_double (self, &self->icore_mhz, g_value_get_double (value), prop_id); break;
    case PROP_ETM_GBPS: set_double (self, &self->etm_gbps, g_value_get_double (value), prop_id); break;
    case PROP_ITERATIONS: set_uint (self, &self->iterations, g_value_get_uint (value), prop_id); break;
    case PROP_EDITABLE: set_boolean (self, &self->editable, g_value_get_boolean (value), prop_id); break;
    case PROP_DEVICE_URL: set_device_url (self, g_value_get_string (value)); break;
    case PROP_FIXED: set_boolean (self, &self->fixed, g_value_get_boolean (value), prop_id); break;
    case PROP_REASON: set_reason (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_options_panel_dispose (GObject *object)
{
  ZwOptionsPanel *self = ZW_OPTIONS_PANEL (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (zw_options_panel_parent_class)->dispose (object);
}

static void
zw_options_panel_finalize (GObject *object)
{
  ZwOptionsPanel *self = ZW_OPTIONS_PANEL (object);

  g_free (self->ocm_radios);
  g_free (self->ocm_option);
  g_free (self->ocm_chosen);
  g_free (self->device_url);
  g_free (self->reason);
  G_OBJECT_CLASS (zw_options_panel_parent_class)->finalize (object);
}

static void
zw_options_panel_class_init (ZwOptionsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = zw_options_panel_get_property;
  object_class->set_property = zw_options_panel_set_property;
  object_class->dispose = zw_options_panel_dispose;
  object_class->finalize = zw_options_panel_finalize;

  properties[PROP_MERGE_HARDOP] = g_param_spec_boolean ("merge-hardop", NULL, NULL, TRUE, rw);
  properties[PROP_ETM_OPTIMIZE] = g_param_spec_boolean ("etm-optimize", NULL, NULL, TRUE, rw);
  properties[PROP_OCM_OPTION] = g_param_spec_string ("ocm-option", NULL, NULL, zw_ocm_opt_get_nick (ZW_OCM_BEST_SCORE),
                                                     rw);
  properties[PROP_OCM_CHOSEN] = g_param_spec_string ("ocm-chosen", NULL, NULL, NULL, rw);
  properties[PROP_OCM_KIB] = g_param_spec_uint ("ocm-kib", NULL, NULL, 64, 1024 * 1024, 2048, rw);
  properties[PROP_ICORE_MHZ] = g_param_spec_double ("icore-mhz", NULL, NULL, 1, 10000, 1000, rw);
  properties[PROP_ETM_GBPS] = g_param_spec_double ("etm-gbps", NULL, NULL, 0.1, 1000, 12.8, rw);
  properties[PROP_ITERATIONS] = g_param_spec_uint ("iterations", NULL, NULL, 1, 100000, 1, rw);
  properties[PROP_EDITABLE] = g_param_spec_boolean ("editable", NULL, NULL, TRUE, rw);
  properties[PROP_DEVICE_URL] = g_param_spec_string ("device-url", NULL, NULL, "", rw);
  properties[PROP_FIXED] = g_param_spec_boolean ("fixed", NULL, NULL, FALSE, rw);
  properties[PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "zwoptionspanel");
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
spin_row (GtkGrid *grid, int row, const char *label_text, const char *unit, GtkAdjustment *adj, guint digits)
{
  GtkWidget *label = gtk_label_new (label_text);
  GtkWidget *spin = gtk_spin_button_new (adj, 1, digits);
  GtkWidget *unit_label = gtk_label_new (unit);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (unit_label), 0);
  gtk_widget_add_css_class (unit_label, "dim-label");
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, spin, 1, row, 1, 1);
  gtk_grid_attach (grid, unit_label, 2, row, 1, 1);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  return spin;
}

static void
zw_options_panel_init (ZwOptionsPanel *self)
{
  GtkWidget *merge, *etm, *grid, *buttons, *apply, *forward, *iterations, *best_row;
  GtkCheckButton *group = NULL;

  self->merge_hardop = TRUE;
  self->etm_optimize = TRUE;
  self->ocm_option = g_strdup (zw_ocm_opt_get_nick (ZW_OCM_BEST_SCORE));
  self->ocm_kib = 2048;
  self->icore_mhz = 1000;
  self->etm_gbps = 12.8;
  self->iterations = 1;
  self->editable = TRUE;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* why what follows cannot be changed (a compiler-placed network, a time profile) */
  self->reason_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->reason_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->reason_label), 0);
  gtk_widget_add_css_class (self->reason_label, "dim-label");
  gtk_widget_set_visible (self->reason_label, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->reason_label);

  self->options_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append (GTK_BOX (self->box), self->options_box);
  g_object_bind_property (self, "editable", self->options_box, "sensitive", G_BINDING_SYNC_CREATE);

  self->backend_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append (GTK_BOX (self->options_box), self->backend_box);
  g_object_bind_property (self, "fixed", self->backend_box, "sensitive",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  gtk_box_append (GTK_BOX (self->backend_box), heading (_("Backend options")));
  merge = gtk_check_button_new_with_mnemonic (_("_Merge hardops"));
  gtk_widget_set_tooltip_text (merge, _("Run consecutive icore hardops as one launch (off: disableMergeHardOp)"));
  g_object_bind_property (self, "merge-hardop", merge, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (self->backend_box), merge);
  etm = gtk_check_button_new_with_mnemonic (_("_ETM optimize"));
  gtk_widget_set_tooltip_text (etm, _("Reuse FTMP memory by liveness (off: disableEtmOptimize)"));
  g_object_bind_property (self, "etm-optimize", etm, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (self->backend_box), etm);

  gtk_box_append (GTK_BOX (self->backend_box), heading (_("OCM option")));
  self->ocm_radios = g_new0 (GtkWidget *, zw_ocm_opt_get_count ());
  for (guint i = 0; i < zw_ocm_opt_get_count (); i++)
    {
      ZwOcmOpt opt = zw_ocm_opt_get_nth (i);
      /* the options' names as every view says them, with what each does */
      g_autofree char *label = zw_ocm_opt_dup_long_label (opt);
      GtkWidget *radio = gtk_check_button_new_with_label (label);

      gtk_widget_set_tooltip_text (radio, zw_ocm_opt_get_description (opt));
      g_object_set_data (G_OBJECT (radio), "ocm-opt", GINT_TO_POINTER (opt));
      if (group != NULL)
        gtk_check_button_set_group (GTK_CHECK_BUTTON (radio), group);
      else
        group = GTK_CHECK_BUTTON (radio);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (radio), opt == ZW_OCM_BEST_SCORE);
      g_signal_connect (radio, "toggled", G_CALLBACK (on_ocm_radio_toggled), self);
      self->ocm_radios[i] = radio;
      if (opt != ZW_OCM_BEST_SCORE)
        {
          gtk_box_append (GTK_BOX (self->backend_box), radio);
          continue;
        }
      /* Best score shows, beside it, the option it chose */
      best_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      gtk_box_append (GTK_BOX (best_row), radio);
      self->chosen_label = gtk_label_new ("");
      gtk_widget_add_css_class (self->chosen_label, "dim-label");
      gtk_box_append (GTK_BOX (best_row), self->chosen_label);
      gtk_box_append (GTK_BOX (self->backend_box), best_row);
    }

  gtk_box_append (GTK_BOX (self->options_box), heading (_("Device profile (what-if)")));
  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
  self->ocm_adj = gtk_adjustment_new (2048, 64, 1024 * 1024, 64, 512, 0);
  self->icore_adj = gtk_adjustment_new (1000, 1, 10000, 50, 100, 0);
  self->etm_adj = gtk_adjustment_new (12.8, 0.1, 1000, 0.1, 1, 0);
  spin_row (GTK_GRID (grid), 0, _("OCM size"), _("KiB"), self->ocm_adj, 0);
  spin_row (GTK_GRID (grid), 1, _("icore clock"), _("MHz"), self->icore_adj, 0);
  spin_row (GTK_GRID (grid), 2, _("ETM bandwidth"), _("GB/s"), self->etm_adj, 1);
  g_object_bind_property (self, "ocm-kib", self->ocm_adj, "value", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "icore-mhz", self->icore_adj, "value", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "etm-gbps", self->etm_adj, "value", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (self->options_box), grid);

  /* the board: empty for the simulated one of the compile target, or a URL (a board served
   * by zhuge-board); Enter applies on it */
  gtk_box_append (GTK_BOX (self->options_box), heading (_("Device")));
  self->device_url = g_strdup ("");
  self->device_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->device_entry), _("simulated (mock://zg330, mock://buyi)"));
  gtk_widget_set_tooltip_text (self->device_entry,
                               _("The board of the next apply: empty for the simulated board of the network's compile "
                                 "target, or a URL such as socket://zg330@127.0.0.1:5001 (a board served by "
                                 "zhuge-board). Press Enter to apply on it."));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->device_entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Device URL"),
                                  -1);
  g_signal_connect (self->device_entry, "activate", G_CALLBACK (on_device_activate), self);
  gtk_box_append (GTK_BOX (self->options_box), self->device_entry);

  /* Apply, then Forward N times: the header bar has them too, this row says the count */
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_top (buttons, 8);
  apply = gtk_button_new_with_mnemonic (_("_Apply"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (apply), "win.apply");
  gtk_widget_set_tooltip_text (apply, _("Deploy the network with these options"));
  forward = gtk_button_new_with_mnemonic (_("_Forward ×"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (forward), "win.forward");
  gtk_widget_set_tooltip_text (forward, _("Run the deployed network forward on the simulated board, this many times"));
  self->iter_adj = gtk_adjustment_new (1, 1, 100000, 1, 10, 0);
  iterations = gtk_spin_button_new (self->iter_adj, 1, 0);
  gtk_widget_set_hexpand (iterations, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (iterations), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Forward iterations"),
                                  -1);
  g_object_bind_property (self, "iterations", self->iter_adj, "value", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (buttons), apply);
  gtk_box_append (GTK_BOX (buttons), forward);
  gtk_box_append (GTK_BOX (buttons), iterations);
  gtk_box_append (GTK_BOX (self->options_box), buttons);
}

GtkWidget *
zw_options_panel_new (void)
{
  return g_object_new (ZW_TYPE_OPTIONS_PANEL, NULL);
}
