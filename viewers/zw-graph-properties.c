/* zw-graph-properties.c — the properties of the selected op or value (see the header): the
 * sections from the report models, then the panel that shows them. */
#include "zw-graph-properties.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

/* ---- the sections, from the report models ---------------------------------------------- */

static void
row_free (gpointer p)
{
  ZwPropertyRow *r = p;

  g_free (r->key);
  g_free (r->value);
  g_free (r);
}

static void
section_free (gpointer p)
{
  ZwPropertySection *s = p;

  g_free (s->title);
  g_ptr_array_unref (s->rows);
  g_free (s);
}

static ZwPropertySection *
add_section (GPtrArray *sections, const char *title)
{
  ZwPropertySection *s = g_new0 (ZwPropertySection, 1);

  s->title = g_strdup (title);
  s->rows = g_ptr_array_new_with_free_func (row_free);
  g_ptr_array_add (sections, s);
  return s;
}

/* Takes @value. */
static ZwPropertyRow *
add_row_take (ZwPropertySection *s, const char *key, char *value)
{
  ZwPropertyRow *r = g_new0 (ZwPropertyRow, 1);

  r->key = g_strdup (key);
  r->value = value;
  r->op_id = r->v_id = -1;
  g_ptr_array_add (s->rows, r);
  return r;
}

static void
add_row (ZwPropertySection *s, const char *key, const char *value)
{
  add_row_take (s, key, g_strdup (value != NULL && *value != '\0' ? value : "—"));
}

static char *
format_shape (const ZwValueInfo *v)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < v->shape->len; i++)
    g_string_append_printf (s, i ? "×%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (v->shape, gint64, i));
  return g_string_free (s, FALSE);
}

static char *
format_address (guint64 addr)
{
  return g_strdup_printf ("0x%08" G_GINT64_MODIFIER "x", addr);
}

/* "0x00012000 (880 KiB)" */
static char *
format_span (guint64 addr, guint64 size)
{
  g_autofree char *bytes = zw_format_bytes (size);

  return g_strdup_printf ("0x%08" G_GINT64_MODIFIER "x (%s)", addr, bytes);
}

static char *
format_ms (double ms)
{
  /* TRANSLATORS: a time in milliseconds */
  return g_strdup_printf (_("%.4f ms"), ms);
}

/* "ETM", "OCM (Option 2)", "host": where the plan put a value. */
static char *
value_place (const ZwDeployReport *report, const ZwValueInfo *v)
{
  if (v->is_host)
    return g_strdup (_("host"));
  if (!v->is_ocm)
    return g_strdup (_("ETM"));
  /* the OCM option that put it there; NONE: the compiler did (Buyi) */
  if (report->ocm_chosen != ZW_OCM_NONE)
    return g_strdup_printf (_("OCM (%s)"), zw_ocm_opt_get_label (report->ocm_chosen));
  return g_strdup (_("OCM"));
}

/* "v12  1×32×88×160 int8": a value named in a link. */
static char *
value_link_text (const ZwDeployReport *report, gint64 v_id)
{
  const ZwValueInfo *v = zw_deploy_report_find_value (report, v_id);
  g_autofree char *shape = v != NULL ? format_shape (v) : NULL;

  if (v == NULL)
    return g_strdup_printf ("v%" G_GINT64_FORMAT, v_id);
  return g_strdup_printf ("v%" G_GINT64_FORMAT "  %s %s", v_id, shape, v->dtype != NULL ? v->dtype : "");
}

/* "Conv2d #682": an op named in a link. */
static char *
op_link_text (const ZwDeployReport *report, gint64 op_id)
{
  const ZwOpInfo *op = zw_deploy_report_find_op (report, op_id);
  char cls[64];

  if (op == NULL)
    {
      for (guint i = 0; i < report->launches->len; i++)
        if (g_array_index (report->launches, ZwLaunch, i).op_id == op_id)
          return g_strdup_printf (_("merged launch #%li"), (long) op_id);
      return g_strdup_printf ("#%" G_GINT64_FORMAT, op_id);
    }
  zw_op_class_short (op->op_class, cls, sizeof cls);
  return g_strdup_printf ("%s #%" G_GINT64_FORMAT, cls, op_id);
}

static void
add_value_link (ZwPropertySection *s, const ZwDeployReport *report, const char *key, gint64 v_id)
{
  add_row_take (s, key, value_link_text (report, v_id))->v_id = v_id;
}

static void
add_op_link (ZwPropertySection *s, const ZwDeployReport *report, const char *key, gint64 op_id)
{
  add_row_take (s, key, op_link_text (report, op_id))->op_id = op_id;
}

static const ZwHardOpInfo *
find_hardop (const ZwDeployReport *report, gint64 op_id)
{
  for (guint i = 0; i < report->hardops->len; i++)
    if (g_array_index (report->hardops, ZwHardOpInfo, i).op_id == op_id)
      return &g_array_index (report->hardops, ZwHardOpInfo, i);
  return NULL;
}

/* The profile's row of @op_id, or of the merged launch it ran in (@in_launch TRUE). */
static const ZwProfileRow *
find_time_row (const ZwProfile *profile, gint64 op_id, gboolean *in_launch)
{
  *in_launch = FALSE;
  if (profile == NULL)
    return NULL;
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      if (row->op_id == op_id)
        return row;
    }
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      for (guint k = 0; row->merge_from != NULL && k < row->merge_from->len; k++)
        if (g_array_index (row->merge_from, gint64, k) == op_id)
          {
            *in_launch = TRUE;
            return row;
          }
    }
  return NULL;
}

static void
add_time (GPtrArray *sections, const ZwDeployReport *report, const ZwProfile *profile, gint64 op_id,
          const ZwHardOpInfo *hard)
{
  gboolean in_launch;
  const ZwProfileRow *row = find_time_row (profile, op_id, &in_launch);
  ZwPropertySection *s;

  if (row == NULL && hard == NULL)
    return;
  s = add_section (sections, _("Time"));
  if (hard != NULL)
    add_row_take (s, _("Estimate (cost model)"), format_ms (hard->est_ms));
  if (row == NULL)
    {
      add_row (s, _("Forward"), profile == NULL ? _("no forward yet") : _("not in the time profile"));
      return;
    }
  if (in_launch)
    add_op_link (s, report, _("Timed with its launch"), row->op_id);
  add_row_take (s, _("Total (simulated)"), format_ms (row->total_ms));
  add_row_take (s, _("Hard"), format_ms (row->hard_ms));
  add_row_take (s, _("Memcpy"), format_ms (row->memcpy_ms));
  add_row_take (s, _("Other"), format_ms (row->other_ms));
  if (row->host_measured_ms >= 0)
    add_row_take (s, _("Measured on this PC"), format_ms (row->host_measured_ms));
}

/* A merged launch's own id: its members, layers, time. */
static GPtrArray *
describe_launch (const ZwDeployReport *report, const ZwProfile *profile, gint index)
{
  const ZwLaunch *launch = &g_array_index (report->launches, ZwLaunch, index);
  GPtrArray *sections = g_ptr_array_new_with_free_func (section_free);
  ZwPropertySection *s = add_section (sections, _("Merged launch"));

  add_row_take (s, _("Launch"), g_strdup_printf ("%d", index));
  add_row_take (s, _("Merged op id"), g_strdup_printf ("%" G_GINT64_FORMAT, launch->op_id));
  add_row_take (s, _("Layers"), g_strdup_printf ("%u", launch->layer_count));
  add_row_take (s, _("Op indices"), g_strdup_printf ("%d–%d", launch->first, launch->last));
  s = add_section (sections, _("Members"));
  for (guint k = 0; k < launch->merge_from->len; k++)
    add_op_link (s, report, "", g_array_index (launch->merge_from, gint64, k));
  add_time (sections, report, profile, launch->op_id, NULL);
  return sections;
}

GPtrArray *
zw_graph_properties_describe_op (const ZwDeployReport *report, const ZwProfile *profile, gint64 op_id)
{
  const ZwOpInfo *op;
  const ZwHardOpInfo *hard;
  GPtrArray *sections;
  ZwPropertySection *s;
  gint launch;

  g_return_val_if_fail (report != NULL, NULL);

  if ((op = zw_deploy_report_find_op (report, op_id)) == NULL)
    {
      for (guint i = 0; i < report->launches->len; i++)
        if (g_array_index (report->launches, ZwLaunch, i).op_id == op_id)
          return describe_launch (report, profile, (gint) i);
      return NULL;
    }
  hard = find_hardop (report, op_id);
  sections = g_ptr_array_new_with_free_func (section_free);

  s = add_section (sections, _("Op"));
  add_row_take (s, _("Op id"), g_strdup_printf ("%" G_GINT64_FORMAT, op->op_id));
  add_row (s, _("Class"), op->op_class);
  add_row (s, _("Kind"), op->kind);
  add_row (s, _("Name"), op->name);
  add_row (s, _("Backend"), op->backend);
  add_row_take (s, _("Index"), g_strdup_printf ("%u", op->index));
  if (hard != NULL || op->layer_count > 0)
    add_row_take (s, _("Layers"), g_strdup_printf ("%d", op->layer_count));
  launch = zw_report_launch_of_op (report, op_id);
  if (launch >= 0)
    {
      const ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, launch);
      if (l->merge_from->len > 1)
        add_op_link (s, report, _("Merged into launch"), l->op_id);
      else
        add_row_take (s, _("Launch"), g_strdup_printf ("%d", launch));
    }

  if (op->attrs != NULL && op->attrs->len > 0)
    {
      s = add_section (sections, _("Attributes"));
      for (guint k = 0; k < op->attrs->len; k++)
        {
          const ZwOpAttr *a = g_ptr_array_index (op->attrs, k);
          add_row (s, a->name, a->value);
        }
    }
  if (op->inputs != NULL && op->inputs->len > 0)
    {
      s = add_section (sections, _("Inputs"));
      for (guint k = 0; k < op->inputs->len; k++)
        add_value_link (s, report, "", g_array_index (op->inputs, gint64, k));
    }
  if (op->outputs != NULL && op->outputs->len > 0)
    {
      s = add_section (sections, _("Outputs"));
      for (guint k = 0; k < op->outputs->len; k++)
        add_value_link (s, report, "", g_array_index (op->outputs, gint64, k));
    }

  if (hard != NULL)
    {
      s = add_section (sections, _("Addresses"));
      add_row_take (s, _("Weights (logic)"), format_span (hard->weights_logic_addr, hard->weights_size));
      add_row_take (s, _("Weights (physical)"), format_address (hard->weights_phy_addr));
      add_row_take (s, _("Instructions (logic)"), format_span (hard->instr_logic_addr, hard->instr_size));
      add_row_take (s, _("Instructions (physical)"), format_address (hard->instr_phy_addr));
      if (hard->has_traffic)
        {
          s = add_section (sections, _("Memory traffic (cost model)"));
          add_row_take (s, _("ETM read"), zw_format_bytes (hard->etm_read_bytes));
          add_row_take (s, _("ETM written"), zw_format_bytes (hard->etm_write_bytes));
          add_row_take (s, _("OCM read"), zw_format_bytes (hard->ocm_read_bytes));
          add_row_take (s, _("OCM written"), zw_format_bytes (hard->ocm_write_bytes));
        }
    }
  add_time (sections, report, profile, op_id, hard);
  return sections;
}

/* "0.0123" for one; "32 along axis 1: 0.001 … 0.02" per channel; the same for zero points. */
static void
add_quant (ZwPropertySection *s, const ZwValueInfo *v)
{
  add_row_take (s, _("Bits"), g_strdup_printf ("%u", v->quant_bits));
  if (v->scales->len == 1)
    add_row_take (s, _("Scale"), g_strdup_printf ("%.6g", g_array_index (v->scales, double, 0)));
  else if (v->scales->len > 1)
    {
      double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
      for (guint k = 0; k < v->scales->len; k++)
        {
          lo = MIN (lo, g_array_index (v->scales, double, k));
          hi = MAX (hi, g_array_index (v->scales, double, k));
        }
      /* TRANSLATORS: per-channel scales: how many, their axis, the smallest and the largest */
      add_row_take (s, _("Scales"), g_strdup_printf (_("%u along axis %d: %.6g … %.6g"), v->scales->len, v->quant_axis,
                                                     lo, hi));
    }
  if (v->zero_points->len == 1)
    add_row_take (s, _("Zero point"), g_strdup_printf ("%li", (long) g_array_index (v->zero_points, gint64, 0)));
  else if (v->zero_points->len > 1)
    {
      gint64 lo = G_MAXINT64, hi = G_MININT64;
      for (guint k = 0; k < v->zero_points->len; k++)
        {
          lo = MIN (lo, g_array_index (v->zero_points, gint64, k));
          hi = MAX (hi, g_array_index (v->zero_points, gint64, k));
        }
      add_row_take (s, _("Zero points"), g_strdup_printf ("%u: %li … %li", v->zero_points->len, (long) lo, (long) hi));
    }
}

GPtrArray *
zw_graph_properties_describe_value (const ZwDeployReport *report, gint64 v_id)
{
  const ZwValueInfo *v;
  const ZwChunkInfo *chunk;
  GPtrArray *sections;
  ZwPropertySection *s;

  g_return_val_if_fail (report != NULL, NULL);

  if ((v = zw_deploy_report_find_value (report, v_id)) == NULL)
    return NULL;
  sections = g_ptr_array_new_with_free_func (section_free);

  s = add_section (sections, _("Value"));
  add_row_take (s, _("Value id"), g_strdup_printf ("v%" G_GINT64_FORMAT, v->v_id));
  add_row_take (s, _("Shape"), format_shape (v));
  add_row (s, _("Dtype"), v->dtype);
  add_row (s, _("Layout"), v->layout);
  {
    g_autofree char *bytes = zw_format_bytes (v->byte_size);
    add_row_take (s, _("Bytes"), g_strdup_printf ("%s (%" G_GUINT64_FORMAT ")", bytes, v->byte_size));
  }
  if (!v->real && v->fake_from >= 0)
    add_value_link (s, report, _("Shares the bytes of"), v->fake_from);

  if (v->scales != NULL)
    add_quant (add_section (sections, _("Quantisation")), v);

  s = add_section (sections, _("Where it lives"));
  add_row_take (s, _("Memory"), value_place (report, v));
  add_row (s, _("Segment"), zw_segment_type_to_string (v->segment));
  add_row_take (s, _("Logic address"), format_address (v->logic_addr));
  add_row_take (s, _("Physical address"), format_address (v->phy_addr));
  chunk = v->chunk >= 0 || v->chunk < -1 ? zw_deploy_report_find_chunk (report, v->chunk) : NULL;
  if (v->chunk != -1)
    {
      g_autofree char *label = zw_chunk_id_dup_label (v->chunk);
      add_row (s, _("Chunk"), label);
      add_row_take (s, _("Offset in the chunk"), g_strdup_printf ("%" G_GUINT64_FORMAT, v->chunk_offset));
    }
  if (chunk != NULL)
    {
      add_row_take (s, _("Chunk size"), zw_format_bytes (chunk->size));
      add_row_take (s, _("Chunk FTMP offset"), format_address (chunk->ftmp_offset));
      if (chunk->in_ocm)
        add_row_take (s, _("Chunk OCM address"), format_address (chunk->ocm_addr));
    }
  add_row_take (s, _("Lifetime (op indices)"), g_strdup_printf ("%d–%d", v->first, v->last));

  s = add_section (sections, _("Connections"));
  if (v->producer >= 0)
    add_op_link (s, report, _("Written by"), v->producer);
  for (guint i = 0; i < report->ops->len; i++)
    {
      const ZwOpInfo *op = &g_array_index (report->ops, ZwOpInfo, i);
      for (guint k = 0; op->inputs != NULL && k < op->inputs->len; k++)
        if (g_array_index (op->inputs, gint64, k) == v_id)
          {
            add_op_link (s, report, _("Read by"), op->op_id);
            break;
          }
    }
  return sections;
}

char *
zw_graph_value_tooltip (const ZwDeployReport *report, gint64 v_id)
{
  const ZwValueInfo *v;
  g_autofree char *shape = NULL, *bytes = NULL, *place = NULL, *where = NULL;

  g_return_val_if_fail (report != NULL, NULL);

  if ((v = zw_deploy_report_find_value (report, v_id)) == NULL)
    return g_strdup_printf ("v%" G_GINT64_FORMAT, v_id);
  shape = format_shape (v);
  bytes = zw_format_bytes (v->byte_size);
  place = value_place (report, v);
  if (v->chunk != -1)
    {
      g_autofree char *chunk = zw_chunk_id_dup_label (v->chunk);
      /* TRANSLATORS: where a value lives: memory, chunk, offset in it, address */
      where = g_strdup_printf (_("%s · chunk %s + %lu · address 0x%08lx"), place, chunk, (gulong) v->chunk_offset,
                               (gulong) v->logic_addr);
    }
  else
    where = g_strdup_printf (_("%s · address 0x%08lx"), place, (gulong) v->logic_addr);
  return g_strdup_printf ("v%" G_GINT64_FORMAT " · %s · %s · %s\n%s", v_id, shape,
                          v->dtype != NULL && *v->dtype != '\0' ? v->dtype : "—", bytes, where);
}

/* ---- the panel ------------------------------------------------------------------------- */

struct _ZwGraphProperties
{
  GtkWidget parent_instance;
  ZwSelection *selection;   /* borrowed */
  gulong notify_id;
  ZwProfile *profile;
  gboolean show_value;      /* the value was selected last */
  GtkWidget *box;           /* header + scrolled */
  GtkWidget *title;
  GtkWidget *content;       /* the sections, rebuilt on each change */
  gboolean has_content;
};

G_DEFINE_FINAL_TYPE (ZwGraphProperties, zw_graph_properties, GTK_TYPE_WIDGET)

static void
on_link_clicked (GtkButton *button, ZwGraphProperties *self)
{
  gint64 op_id = *(gint64 *) g_object_get_data (G_OBJECT (button), "op-id");
  gint64 v_id = *(gint64 *) g_object_get_data (G_OBJECT (button), "v-id");

  if (op_id >= 0)
    zw_selection_select (self->selection, op_id, -1);
  else
    zw_selection_select (self->selection, -1, v_id);
}

static GtkWidget *
value_widget (ZwGraphProperties *self, const ZwPropertyRow *r)
{
  GtkWidget *label = gtk_label_new (r->value), *button;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  /* the pane keeps one width whatever it shows: long values wrap */
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_set_hexpand (label, TRUE);
  if (r->op_id < 0 && r->v_id < 0)
    {
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      return label;
    }
  button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (button), label);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, r->op_id >= 0 ? _("Select this op") : _("Select this value"));
  g_object_set_data_full (G_OBJECT (button), "op-id", g_memdup2 (&r->op_id, sizeof r->op_id), g_free);
  g_object_set_data_full (G_OBJECT (button), "v-id", g_memdup2 (&r->v_id, sizeof r->v_id), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_link_clicked), self);
  return button;
}

static void
rebuild (ZwGraphProperties *self)
{
  ZwDeployReport *report = zw_selection_get_report (self->selection);
  gint64 op = zw_selection_get_selected_op (self->selection), v = zw_selection_get_selected_value (self->selection);
  g_autoptr (GPtrArray) sections = NULL;
  g_autofree char *title = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->content)) != NULL)
    gtk_box_remove (GTK_BOX (self->content), child);
  if (report != NULL && op >= 0 && (!self->show_value || v < 0))
    {
      sections = zw_graph_properties_describe_op (report, self->profile, op);
      title = op_link_text (report, op);
    }
  else if (report != NULL && v >= 0)
    {
      sections = zw_graph_properties_describe_value (report, v);
      title = value_link_text (report, v);
    }
  self->has_content = sections != NULL;
  gtk_label_set_text (GTK_LABEL (self->title), title != NULL ? title : _("Nothing selected"));
  if (sections == NULL)
    {
      GtkWidget *hint = gtk_label_new (_("Click an op or an edge to see its properties."));
      gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
      gtk_widget_add_css_class (hint, "dim-label");
      gtk_box_append (GTK_BOX (self->content), hint);
      return;
    }
  for (guint i = 0; i < sections->len; i++)
    {
      const ZwPropertySection *s = g_ptr_array_index (sections, i);
      GtkWidget *heading = gtk_label_new (s->title), *grid = gtk_grid_new ();
      gtk_label_set_xalign (GTK_LABEL (heading), 0);
      gtk_widget_add_css_class (heading, "heading");
      gtk_widget_set_margin_top (heading, i > 0 ? 10 : 0);
      gtk_box_append (GTK_BOX (self->content), heading);
      gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
      gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
      for (guint k = 0; k < s->rows->len; k++)
        {
          const ZwPropertyRow *r = g_ptr_array_index (s->rows, k);
          GtkWidget *value = value_widget (self, r);
          if (*r->key != '\0')
            {
              GtkWidget *key = gtk_label_new (r->key);
              gtk_label_set_xalign (GTK_LABEL (key), 0);
              gtk_label_set_yalign (GTK_LABEL (key), 0);
              gtk_label_set_wrap (GTK_LABEL (key), TRUE);
              gtk_label_set_max_width_chars (GTK_LABEL (key), 14);
              gtk_widget_add_css_class (key, "dim-label");
              gtk_grid_attach (GTK_GRID (grid), key, 0, (int) k, 1, 1);
              gtk_grid_attach (GTK_GRID (grid), value, 1, (int) k, 1, 1);
            }
          else
            gtk_grid_attach (GTK_GRID (grid), value, 0, (int) k, 2, 1);
        }
      gtk_box_append (GTK_BOX (self->content), grid);
    }
}

static void
on_selection_notify (ZwSelection *selection, GParamSpec *pspec, ZwGraphProperties *self)
{
  if (g_str_equal (pspec->name, "selected-op"))
    self->show_value = zw_selection_get_selected_op (selection) < 0;
  else if (g_str_equal (pspec->name, "selected-value"))
    self->show_value = zw_selection_get_selected_value (selection) >= 0;
  else if (!g_str_equal (pspec->name, "report"))
    return;
  rebuild (self);
}

static void
on_close (GtkButton *button, ZwGraphProperties *self)
{
  (void) button;
  gtk_widget_activate_action (GTK_WIDGET (self), "graph.properties", NULL);
}

void
zw_graph_properties_set_profile (ZwGraphProperties *self, const ZwProfile *profile)
{
  g_return_if_fail (ZW_IS_GRAPH_PROPERTIES (self));
  g_clear_pointer (&self->profile, zw_profile_free);
  self->profile = profile != NULL ? zw_profile_copy (profile) : NULL;
  rebuild (self);
}

gboolean
zw_graph_properties_has_content (ZwGraphProperties *self)
{
  g_return_val_if_fail (ZW_IS_GRAPH_PROPERTIES (self), FALSE);
  return self->has_content;
}

static void
append_text (GString *out, GtkWidget *widget, gboolean *line_open)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_LABEL (c))
        {
          int col = 0;
          if (GTK_IS_GRID (widget))
            gtk_grid_query_child (GTK_GRID (widget), c, &col, NULL, NULL, NULL);
          g_string_append (out, *line_open && col > 0 ? ": " : (out->len > 0 ? "\n" : ""));
          g_string_append (out, gtk_label_get_text (GTK_LABEL (c)));
          *line_open = GTK_IS_GRID (widget) && col == 0;
        }
      else if (GTK_IS_BUTTON (c) && GTK_IS_LABEL (gtk_button_get_child (GTK_BUTTON (c))))
        {
          int col = 0;
          if (GTK_IS_GRID (widget))
            gtk_grid_query_child (GTK_GRID (widget), c, &col, NULL, NULL, NULL);
          g_string_append (out, *line_open && col > 0 ? ": " : "\n");
          g_string_append (out, gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (c)))));
          *line_open = FALSE;
        }
      else
        append_text (out, c, line_open);
    }
}

char *
zw_graph_properties_dup_text (ZwGraphProperties *self)
{
  GString *out = g_string_new (gtk_label_get_text (GTK_LABEL (self->title)));
  gboolean line_open = FALSE;

  g_return_val_if_fail (ZW_IS_GRAPH_PROPERTIES (self), NULL);
  append_text (out, self->content, &line_open);
  return g_string_free (out, FALSE);
}

static void
zw_graph_properties_dispose (GObject *object)
{
  ZwGraphProperties *self = ZW_GRAPH_PROPERTIES (object);

  if (self->selection != NULL && self->notify_id != 0)
    g_signal_handler_disconnect (self->selection, self->notify_id);
  self->notify_id = 0;
  g_clear_object (&self->selection);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (zw_graph_properties_parent_class)->dispose (object);
}

static void
zw_graph_properties_finalize (GObject *object)
{
  g_clear_pointer (&ZW_GRAPH_PROPERTIES (object)->profile, zw_profile_free);
  G_OBJECT_CLASS (zw_graph_properties_parent_class)->finalize (object);
}

/* The pane's one width: what it shows wraps inside it, so the graph beside it never moves
 * from one selection to the next. */
#define PANE_WIDTH 320

static void
pane_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
              int *minimum_baseline, int *natural_baseline)
{
  ZwGraphProperties *self = ZW_GRAPH_PROPERTIES (widget);

  (void) for_size;
  *minimum_baseline = *natural_baseline = -1;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int child_min = 0;
      gtk_widget_measure (self->box, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
      *minimum = *natural = MAX (PANE_WIDTH, child_min);
      return;
    }
  gtk_widget_measure (self->box, GTK_ORIENTATION_VERTICAL, for_size, minimum, natural, NULL, NULL);
}

static void
pane_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  gtk_widget_allocate (ZW_GRAPH_PROPERTIES (widget)->box, width, height, baseline, NULL);
}

static void
zw_graph_properties_class_init (ZwGraphPropertiesClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = zw_graph_properties_dispose;
  G_OBJECT_CLASS (klass)->finalize = zw_graph_properties_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "zwgraphproperties");
}

static void
zw_graph_properties_init (ZwGraphProperties *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6), *close, *scrolled;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (self->title), 24);
  gtk_widget_add_css_class (self->title, "title-4");
  gtk_widget_set_hexpand (self->title, TRUE);
  close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, _("Hide the properties (p shows them again)"));
  g_signal_connect (close, "clicked", G_CALLBACK (on_close), self);
  gtk_box_append (GTK_BOX (header), self->title);
  gtk_box_append (GTK_BOX (header), close);
  gtk_widget_set_margin_start (header, 10);
  gtk_widget_set_margin_end (header, 4);
  gtk_widget_set_margin_top (header, 4);
  gtk_box_append (GTK_BOX (self->box), header);

  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_margin_start (self->content, 10);
  gtk_widget_set_margin_end (self->content, 10);
  gtk_widget_set_margin_bottom (self->content, 10);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->content);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);
  gtk_widget_set_layout_manager (GTK_WIDGET (self), gtk_custom_layout_new (NULL, pane_measure, pane_allocate));
}

GtkWidget *
zw_graph_properties_new (ZwSelection *selection)
{
  ZwGraphProperties *self;

  g_return_val_if_fail (ZW_IS_SELECTION (selection), NULL);
  self = g_object_new (ZW_TYPE_GRAPH_PROPERTIES, NULL);
  self->selection = g_object_ref (selection);
  self->notify_id = g_signal_connect (selection, "notify", G_CALLBACK (on_selection_notify), self);
  self->show_value = zw_selection_get_selected_op (selection) < 0;
  rebuild (self);
  return GTK_WIDGET (self);
}
