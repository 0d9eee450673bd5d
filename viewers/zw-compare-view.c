/* zw-compare-view.c — the Compare view's widget: two profiles (and deploy reports) side by
 * side, the controls above the table (regressions only, expand merged launches), clicks,
 * the selection; the picture is zw-compare-draw.c's. */
#include "zw-compare-view-private.h"
#include "report/zw-pipeline-compare.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* ---- widget ---- */

struct _ZwCompareView
{
  ZwRowTable parent_instance;
  ZwProfileCompare *cmp;
  ZwDeployCompare *dcmp;
  gint sort_column;              /* a CompareColumn, -1: the order as compared */
  gboolean sort_descending;
  /* what is compared (kept so that A and B can be swapped) */
  ZwProfile *profile_a, *profile_b;
  ZwCompareOptions options;
  ZwDeployReport *report_a, *report_b;
  gboolean from_plan;            /* report_a = report_b: the open network that mapped two bare
                                  * time files (zw_compare_view_set_plan), no deploy block */
  gboolean merge_on_again;       /* … that network planned again with merge on (its run has
                                  * merge off: zw_compare_view_set_merge_on_plan) */
  ZwPipelineReport *pipeline_a, *pipeline_b;   /* two pipelines' passes (rows NET:OP_ID) */
  char *label_a, *label_b;
  /* what is shown of the rows (zw-compare-rows.h) */
  ZwCompareShown *shown;
  GHashTable *expanded;          /* gint64 op ids of the merged launches shown expanded */
  gboolean regressions_only;
  double threshold;              /* a fraction: B slower than A by more than this */
  GtkWidget *filter_check, *threshold_spin, *count_label, *expand_button;
  gboolean updating_controls;
  /* the op id column's width, measured for the comparison in a font size (0: not yet) */
  double op_id_w, op_id_font_size;
};

G_DEFINE_FINAL_TYPE (ZwCompareView, zw_compare_view, ZW_TYPE_ROW_TABLE)

/* ---- the row table: one row per op of the profile comparison ---- */

static guint
table_n_rows (ZwRowTable *table)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return self->cmp != NULL && self->shown != NULL ? self->shown->rows->len : 0;
}

static gboolean
table_header_extent (ZwRowTable *table, double *y0, double *y1)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return zw_compare_view_header_extent (self->cmp, self->dcmp, y0, y1);
}

/* The op id column's width in @colors' font: measured once per comparison and font size. */
static double
op_id_width (ZwCompareView *self, const ZwViewStyle *colors)
{
  if (self->op_id_w <= 0 || self->op_id_font_size != colors->font_size)
    {
      self->op_id_w = zw_compare_view_op_id_width (self->cmp, colors);
      self->op_id_font_size = colors->font_size;
    }
  return self->op_id_w;
}

static void
table_draw_header (ZwRowTable *table, cairo_t *cr, int width, double y, const ZwViewStyle *colors)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  zw_compare_view_draw_header (cr, width, y, op_id_width (self, colors), self->sort_column, self->sort_descending,
                               colors);
}

static void
table_draw (ZwRowTable *table, cairo_t *cr, int width, int height, gint selected, const ZwViewStyle *colors)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  zw_compare_view_draw_shown (cr, width, height, self->cmp, self->dcmp, self->shown, op_id_width (self, colors),
                              self->label_a, self->label_b, selected, self->sort_column, self->sort_descending, colors);
}

static int
table_content_height (ZwRowTable *table)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return zw_compare_draw_content_height (self->cmp, self->dcmp, table_n_rows (table));
}

static gint
table_row_at (ZwRowTable *table, double x, double y)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  (void) x;
  return zw_compare_draw_row_at (self->cmp, self->dcmp, table_n_rows (table), y);
}

static gboolean
table_row_extent (ZwRowTable *table, guint row, double *y0, double *y1)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return zw_compare_draw_row_extent (self->cmp, self->dcmp, table_n_rows (table), row, y0, y1);
}

/* a member row gives the selection its own op */
static gint64
table_row_id (ZwRowTable *table, guint row, ZwDeployReport *report)
{
  const ZwCompareShownRow *s = zw_compare_shown_get (ZW_COMPARE_VIEW (table)->shown, row);
  (void) report;
  return s != NULL ? s->op_id : -1;
}

/* the header line is the control that chooses which run is A (a click swaps them); the
 * columns' titles sort the rows */
static gboolean
table_clicked (ZwRowTable *table, double x, double y)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  int width = gtk_widget_get_width (zw_row_table_get_area (table));
  double h0, h1;

  /* the keys (Up, Down, Right, Left, +, -) act on the rows clicked */
  gtk_widget_grab_focus (zw_row_table_get_area (table));
  if (y >= MARGIN && y < MARGIN + LINE_H && x >= width - MARGIN - SWAP_W)
    {
      zw_compare_view_swap (self);
      return TRUE;
    }
  if (zw_compare_view_header_extent (self->cmp, self->dcmp, &h0, &h1) && y >= h0 && y < h1)
    {
      gboolean descending;
      double op_id_w = op_id_width (self, zw_view_get_style (ZW_VIEW (self)));
      gint column = zw_compare_view_next_sort (self->sort_column, self->sort_descending,
                                               zw_compare_view_column_at (width, op_id_w, x), &descending);
      zw_compare_view_sort (self, column, descending);
      return TRUE;
    }
  /* a merged launch's expander */
  if (x >= MARGIN && x < MARGIN + 4 + EXPANDER_W)
    {
      gint row = zw_compare_draw_row_at (self->cmp, self->dcmp, table_n_rows (table), y);
      const ZwCompareShownRow *s = row >= 0 ? zw_compare_shown_get (self->shown, (guint) row) : NULL;
      if (s != NULL && s->expandable)
        {
          zw_compare_view_set_expanded (self, s->op_id, !s->expanded);
          return TRUE;
        }
    }
  return FALSE;
}

/* The selected shown row's identity (its comparison row and member), to find it again. */
static void
selected_key (ZwCompareView *self, const ZwCompareRow **row, gint *member)
{
  gint i = zw_row_table_get_selected_row (ZW_ROW_TABLE (self));
  const ZwCompareShownRow *s = i >= 0 ? zw_compare_shown_get (self->shown, (guint) i) : NULL;

  *row = s != NULL ? s->row : NULL;
  *member = s != NULL ? s->member : -1;
}

static gint
find_shown (ZwCompareView *self, const ZwCompareRow *row, gint member)
{
  for (guint i = 0; row != NULL && self->shown != NULL && i < self->shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (self->shown, i);
      if (s->row == row && s->member == member)
        return (gint) i;
    }
  return -1;
}

static void
update_controls (ZwCompareView *self)
{
  char text[160];
  guint n_launches = 0;

  if (self->count_label == NULL)
    return;
  for (guint i = 0; self->cmp != NULL && i < self->cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (self->cmp->rows, i);
      n_launches += r->merge_from != NULL && r->merge_from->len > 1;
    }
  if (self->cmp == NULL)
    text[0] = '\0';
  else if (self->regressions_only)
    /* TRANSLATORS: the Compare view's filter: rows kept, rows compared */
    g_snprintf (text, sizeof text,
                ngettext ("%u regression of %u rows", "%u regressions of %u rows", self->shown->n_matching),
                self->shown->n_matching, self->cmp->rows->len);
  else
    g_snprintf (text, sizeof text, ngettext ("%u row", "%u rows", self->cmp->rows->len), self->cmp->rows->len);
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
  self->updating_controls = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->filter_check), self->regressions_only);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->threshold_spin), self->threshold * 100);
  gtk_widget_set_sensitive (self->threshold_spin, self->regressions_only);
  gtk_widget_set_sensitive (self->expand_button, n_launches > 0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->expand_button),
                                n_launches > 0 && g_hash_table_size (self->expanded) >= n_launches);
  self->updating_controls = FALSE;
}

/* The rows shown again (filter, expanded launches), the row selected before kept when it
 * is still shown; @selected >= 0 overrides it (an index into the rows shown before). */
static void
reshow (ZwCompareView *self, gint selected)
{
  ZwCompareShowOptions o = { self->regressions_only, self->threshold, self->expanded, self->profile_a,
                             self->profile_b, self->report_a, self->report_b };
  const ZwCompareRow *row = NULL;
  gint member = -1;

  if (selected >= 0)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (self->shown, (guint) selected);
      row = s != NULL ? s->row : NULL;
      member = s != NULL ? s->member : -1;
    }
  g_clear_pointer (&self->shown, zw_compare_shown_free);
  self->shown = zw_compare_shown_new (self->cmp, &o);
  update_controls (self);
  zw_row_table_changed (ZW_ROW_TABLE (self), find_shown (self, row, member));
}

/* What is shown changed; the row selected now is @selected (-1 none). The rows get their
 * classes from the reports shown with them. */
static void
changed (ZwCompareView *self, gint selected)
{
  const ZwCompareRow *row = NULL;
  gint member = -1;

  /* the rows keep their identity over a new sort or new reports; a new comparison does not */
  if (selected >= 0)
    selected_key (self, &row, &member);
  g_clear_pointer (&self->shown, zw_compare_shown_free);
  self->op_id_w = 0;   /* measured again for these rows */
  if (self->cmp != NULL)
    {
      if (self->from_plan && self->report_a != NULL)
        {
          zw_profile_compare_set_plan (self->cmp, self->report_a);
          self->cmp->plan_merge_on_again = self->merge_on_again;
        }
      else
        zw_profile_compare_set_classes (self->cmp, self->report_a, self->report_b);
      zw_profile_compare_sort (self->cmp, zw_compare_draw_sort_key (self->sort_column), self->sort_descending);
    }
  reshow (self, -1);
  if (row != NULL)
    zw_row_table_changed (ZW_ROW_TABLE (self), find_shown (self, row, member));
}

void
zw_compare_view_set_profiles (ZwCompareView *self, const ZwProfile *a, const ZwProfile *b,
                              const ZwCompareOptions *options, const char *label_a, const char *label_b)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_return_if_fail (a != NULL && b != NULL);
  g_clear_pointer (&self->cmp, zw_profile_compare_free);
  self->cmp = zw_profile_compare (a, b, options);
  if (self->from_plan)
    {
      /* the files mapped before were of that network; these are told by the caller */
      g_clear_pointer (&self->report_a, zw_deploy_report_unref);
      g_clear_pointer (&self->report_b, zw_deploy_report_unref);
      self->from_plan = FALSE;
      self->merge_on_again = FALSE;
    }
  g_clear_pointer (&self->pipeline_a, zw_pipeline_report_unref);
  g_clear_pointer (&self->pipeline_b, zw_pipeline_report_unref);
  g_clear_pointer (&self->profile_a, zw_profile_free);
  g_clear_pointer (&self->profile_b, zw_profile_free);
  self->profile_a = zw_profile_copy (a);
  self->profile_b = zw_profile_copy (b);
  if (options != NULL)
    self->options = *options;
  else
    self->options = (ZwCompareOptions) ZW_COMPARE_OPTIONS_INIT;
  g_free (self->label_a);
  g_free (self->label_b);
  self->label_a = g_strdup (label_a);
  self->label_b = g_strdup (label_b);
  changed (self, -1);
}

gboolean
zw_compare_view_set_pipelines (ZwCompareView *self, ZwPipelineReport *a, ZwPipelineReport *b,
                               const ZwCompareOptions *options, const char *label_a, const char *label_b,
                               GError **error)
{
  ZwProfileCompare *cmp;

  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  if ((cmp = zw_pipeline_compare (a, b, options, error)) == NULL)
    return FALSE;
  g_clear_pointer (&self->cmp, zw_profile_compare_free);
  self->cmp = cmp;
  self->options = cmp->options;
  g_clear_pointer (&self->profile_a, zw_profile_free);
  g_clear_pointer (&self->profile_b, zw_profile_free);
  zw_pipeline_report_ref (a);
  zw_pipeline_report_ref (b);
  g_clear_pointer (&self->pipeline_a, zw_pipeline_report_unref);
  g_clear_pointer (&self->pipeline_b, zw_pipeline_report_unref);
  self->pipeline_a = a;
  self->pipeline_b = b;
  /* each network has its deploy report: no one deploy block for the pipeline */
  g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  self->from_plan = FALSE;
  self->merge_on_again = FALSE;
  g_free (self->label_a);
  g_free (self->label_b);
  self->label_a = g_strdup (label_a);
  self->label_b = g_strdup (label_b);
  changed (self, -1);
  return TRUE;
}

void
zw_compare_view_set_reports (ZwCompareView *self, const ZwDeployReport *a, const ZwDeployReport *b)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  self->from_plan = FALSE;
  self->merge_on_again = FALSE;
  if (a != NULL && b != NULL)
    {
      self->dcmp = zw_deploy_compare (a, b);
      self->report_a = zw_deploy_report_ref ((ZwDeployReport *) a);
      self->report_b = zw_deploy_report_ref ((ZwDeployReport *) b);
    }
  /* the rows are the profiles': the one selected stays */
  changed (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

static void
set_plan (ZwCompareView *self, const ZwDeployReport *network, gboolean merge_on_again)
{
  g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  self->report_a = zw_deploy_report_ref ((ZwDeployReport *) network);
  self->report_b = zw_deploy_report_ref ((ZwDeployReport *) network);
  self->from_plan = TRUE;
  self->merge_on_again = merge_on_again;
  changed (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

void
zw_compare_view_set_plan (ZwCompareView *self, const ZwDeployReport *network)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_return_if_fail (network != NULL);
  set_plan (self, network, FALSE);
}

void
zw_compare_view_set_merge_on_plan (ZwCompareView *self, const ZwDeployReport *plan)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_return_if_fail (plan != NULL);
  set_plan (self, plan, TRUE);
}

char *
zw_compare_view_dup_header (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return zw_compare_draw_header (self->cmp, self->label_a, self->label_b);
}

void
zw_compare_view_swap (ZwCompareView *self)
{
  char *label;

  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  if (self->cmp == NULL && self->dcmp == NULL)
    return;
  label = self->label_a;
  self->label_a = self->label_b;
  self->label_b = label;
  if (self->profile_a != NULL && self->profile_b != NULL)
    {
      ZwProfile *p = self->profile_a;
      self->profile_a = self->profile_b;
      self->profile_b = p;
      g_clear_pointer (&self->cmp, zw_profile_compare_free);
      self->cmp = zw_profile_compare (self->profile_a, self->profile_b, &self->options);
    }
  if (self->pipeline_a != NULL && self->pipeline_b != NULL)
    {
      ZwPipelineReport *p = self->pipeline_a;
      ZwProfileCompare *cmp = zw_pipeline_compare (self->pipeline_b, p, &self->options, NULL);
      self->pipeline_a = self->pipeline_b;
      self->pipeline_b = p;
      /* both were profiled (they were compared): the other way round is too */
      if (cmp != NULL)
        {
          g_clear_pointer (&self->cmp, zw_profile_compare_free);
          self->cmp = cmp;
        }
    }
  if (self->report_a != NULL && self->report_b != NULL && !self->from_plan)
    {
      ZwDeployReport *r = self->report_a;
      self->report_a = self->report_b;
      self->report_b = r;
      g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
      self->dcmp = zw_deploy_compare (self->report_a, self->report_b);
    }
  changed (self, -1);
}

static void
action_swap (GtkWidget *widget, const char *name, GVariant *param)
{
  (void) name;
  (void) param;
  zw_compare_view_swap (ZW_COMPARE_VIEW (widget));
}

/* The keys of a tree list (GtkTreeView, GtkTreeExpander) on the selected row: Right or +
 * opens a merged launch, and on an open one goes to its first member; Left or - closes it,
 * and on a member goes to its launch.  Up and Down walk the rows. */
static void
action_tree_key (GtkWidget *widget, const char *name, GVariant *param)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (widget);
  gint i = zw_row_table_get_selected_row (ZW_ROW_TABLE (self));
  const ZwCompareShownRow *s = i >= 0 ? zw_compare_shown_get (self->shown, (guint) i) : NULL;
  guint n = self->shown != NULL ? self->shown->rows->len : 0;

  (void) param;
  if (g_str_equal (name, "compare.previous") || g_str_equal (name, "compare.next"))
    {
      if (n > 0)
        zw_row_table_select_row (ZW_ROW_TABLE (self), i < 0                               ? 0
                                                       : g_str_equal (name, "compare.next") ? MIN (i + 1, (gint) n - 1)
                                                                                            : MAX (i - 1, 0));
      return;
    }
  if (s == NULL)
    return;
  if (g_str_equal (name, "compare.expand"))
    {
      if (s->expandable && !s->expanded)
        zw_compare_view_set_expanded (self, s->op_id, TRUE);
      else if (s->expandable)
        zw_row_table_select_row (ZW_ROW_TABLE (self), i + 1);
    }
  else if (s->member >= 0)
    zw_row_table_select_row (ZW_ROW_TABLE (self), find_shown (self, s->row, -1));
  else if (s->expandable && s->expanded)
    zw_compare_view_set_expanded (self, s->op_id, FALSE);
}

void
zw_compare_view_clear (ZwCompareView *self)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_clear_pointer (&self->cmp, zw_profile_compare_free);
  g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
  g_clear_pointer (&self->profile_a, zw_profile_free);
  g_clear_pointer (&self->profile_b, zw_profile_free);
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  self->from_plan = FALSE;
  self->merge_on_again = FALSE;
  g_clear_pointer (&self->pipeline_a, zw_pipeline_report_unref);
  g_clear_pointer (&self->pipeline_b, zw_pipeline_report_unref);
  changed (self, -1);
}

void
zw_compare_view_sort (ZwCompareView *self, gint column, gboolean descending)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  self->sort_column = column >= 0 && column < COL_BARS ? column : -1;
  self->sort_descending = self->sort_column >= 0 && descending;
  /* the row selected stays selected where it went */
  changed (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

void
zw_compare_view_set_regressions_only (ZwCompareView *self, gboolean only, double threshold)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  self->regressions_only = only;
  self->threshold = isfinite (threshold) && threshold >= 0 ? threshold : 0;
  reshow (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

gboolean
zw_compare_view_get_regressions_only (ZwCompareView *self, double *threshold)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), FALSE);
  if (threshold)
    *threshold = self->threshold;
  return self->regressions_only;
}

void
zw_compare_view_set_expanded (ZwCompareView *self, gint64 op_id, gboolean expanded)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  if (expanded)
    g_hash_table_add (self->expanded, g_memdup2 (&op_id, sizeof op_id));
  else
    g_hash_table_remove (self->expanded, &op_id);
  reshow (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

void
zw_compare_view_expand_all (ZwCompareView *self, gboolean expanded)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_hash_table_remove_all (self->expanded);
  for (guint i = 0; expanded && self->cmp != NULL && i < self->cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (self->cmp->rows, i);
      if (r->merge_from != NULL && r->merge_from->len > 1)
        g_hash_table_add (self->expanded, g_memdup2 (&r->op_id, sizeof r->op_id));
    }
  reshow (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

const ZwCompareShown *
zw_compare_view_get_shown (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->shown;
}

GtkWidget *
zw_compare_view_get_count_label (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->count_label;
}

GtkWidget *
zw_compare_view_get_filter_check (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->filter_check;
}

GtkWidget *
zw_compare_view_get_threshold_spin (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->threshold_spin;
}

GtkWidget *
zw_compare_view_get_expand_button (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->expand_button;
}

gint
zw_compare_view_get_sort (ZwCompareView *self, gboolean *descending)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), -1);
  if (descending)
    *descending = self->sort_descending;
  return self->sort_column;
}

const ZwProfileCompare *
zw_compare_view_get_compare (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->cmp;
}

const ZwDeployCompare *
zw_compare_view_get_deploy_compare (ZwCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPARE_VIEW (self), NULL);
  return self->dcmp;
}

void
zw_compare_view_select_row (ZwCompareView *self, gint index)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  zw_row_table_select_row (ZW_ROW_TABLE (self), index);
}

/* the view's table (CSV export): one row per row drawn, header first */
static GPtrArray *
view_table (ZwView *view)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (view);
  static const char *const titles[] = { N_("Op id"), N_("Class"), N_("Name"), N_("Side"), N_("A ms"), N_("B ms"),
                                        N_("Delta ms"), N_("Ratio"), N_("A hard ms"), N_("B hard ms"),
                                        N_("Regression"), N_("Improvement") };
  const guint n = G_N_ELEMENTS (titles);
  GPtrArray *table = zw_row_table_rows_new (titles, n);

  for (guint i = 0; self->cmp != NULL && self->shown != NULL && i < self->shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (self->shown, i);
      const ZwCompareRow *r = s->row;
      char **cells;
      /* the comparison's rows the filter keeps; members are a drawing's detail */
      if (s->member >= 0)
        continue;
      cells = g_new0 (char *, n + 1);
      cells[0] = zw_compare_row_dup_name (r);
      cells[1] = g_strdup (r->op_class != NULL ? r->op_class : r->op_type != NULL ? r->op_type : "");
      cells[2] = g_strdup (r->op_name != NULL ? r->op_name : "");
      cells[3] = g_strdup (r->side == ZW_COMPARE_BOTH ? "both" : r->side == ZW_COMPARE_ONLY_A ? "A" : "B");
      cells[4] = g_strdup_printf ("%.9g", r->a_ms);
      cells[5] = g_strdup_printf ("%.9g", r->b_ms);
      cells[6] = g_strdup_printf ("%.9g", r->delta_ms);
      cells[7] = g_strdup_printf ("%.9g", r->ratio);
      cells[8] = g_strdup_printf ("%.9g", r->a_hard_ms);
      cells[9] = g_strdup_printf ("%.9g", r->b_hard_ms);
      cells[10] = g_strdup (r->regression ? "true" : "false");
      cells[11] = g_strdup (r->improvement ? "true" : "false");
      g_ptr_array_add (table, cells);
    }
  return table;
}

static void
zw_compare_view_dispose (GObject *object)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (object);

  g_clear_pointer (&self->cmp, zw_profile_compare_free);
  g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
  g_clear_pointer (&self->profile_a, zw_profile_free);
  g_clear_pointer (&self->profile_b, zw_profile_free);
  g_clear_pointer (&self->pipeline_a, zw_pipeline_report_unref);
  g_clear_pointer (&self->pipeline_b, zw_pipeline_report_unref);
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  g_clear_pointer (&self->label_a, g_free);
  g_clear_pointer (&self->label_b, g_free);
  g_clear_pointer (&self->shown, zw_compare_shown_free);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  self->filter_check = self->threshold_spin = self->count_label = self->expand_button = NULL;
  G_OBJECT_CLASS (zw_compare_view_parent_class)->dispose (object);
}

static void
zw_compare_view_class_init (ZwCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwRowTableClass *table_class = ZW_ROW_TABLE_CLASS (klass);

  object_class->dispose = zw_compare_view_dispose;
  table_class->n_rows = table_n_rows;
  table_class->draw = table_draw;
  table_class->content_height = table_content_height;
  table_class->row_at = table_row_at;
  table_class->row_id = table_row_id;
  table_class->row_extent = table_row_extent;
  table_class->clicked = table_clicked;
  table_class->header_extent = table_header_extent;
  table_class->draw_header = table_draw_header;
  gtk_widget_class_set_css_name (widget_class, "zwcompareview");
  gtk_widget_class_install_action (widget_class, "compare.swap", NULL, action_swap);
  gtk_widget_class_install_action (widget_class, "compare.expand", NULL, action_tree_key);
  gtk_widget_class_install_action (widget_class, "compare.collapse", NULL, action_tree_key);
  gtk_widget_class_install_action (widget_class, "compare.previous", NULL, action_tree_key);
  gtk_widget_class_install_action (widget_class, "compare.next", NULL, action_tree_key);
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "compare",
                          N_("Compare"), N_("Compare view"), ZW_VIEW_DATA_PROFILE_PAIR);
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
on_filter_toggled (GtkCheckButton *check, ZwCompareView *self)
{
  if (!self->updating_controls)
    zw_compare_view_set_regressions_only (self, gtk_check_button_get_active (check), self->threshold);
}

static void
on_threshold_changed (GtkSpinButton *spin, ZwCompareView *self)
{
  if (!self->updating_controls)
    zw_compare_view_set_regressions_only (self, self->regressions_only, gtk_spin_button_get_value (spin) / 100);
}

static void
on_expand_toggled (GtkToggleButton *button, ZwCompareView *self)
{
  if (!self->updating_controls)
    zw_compare_view_expand_all (self, gtk_toggle_button_get_active (button));
}

/* The bar above the table: the regressions filter with its threshold and count, and the
 * merged launches' expander (all at once; one by one: the ▸ in a row). */
static GtkWidget *
controls_new (ZwCompareView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6), *label;

  gtk_widget_set_margin_start (bar, 8);
  gtk_widget_set_margin_end (bar, 8);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  self->filter_check = gtk_check_button_new_with_mnemonic (_("_Regressions only"));
  gtk_widget_set_tooltip_text (self->filter_check, _("Show only the rows where B is slower than A by more than the "
                                                     "threshold"));
  g_signal_connect (self->filter_check, "toggled", G_CALLBACK (on_filter_toggled), self);
  gtk_box_append (GTK_BOX (bar), self->filter_check);
  /* TRANSLATORS: before the threshold's spin button: "slower by more than [5] %" */
  label = gtk_label_new (_("slower by more than"));
  gtk_box_append (GTK_BOX (bar), label);
  self->threshold_spin = gtk_spin_button_new_with_range (0, 1000, 1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (self->threshold_spin), 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->threshold_spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Regression threshold (%)"), -1);
  g_signal_connect (self->threshold_spin, "value-changed", G_CALLBACK (on_threshold_changed), self);
  gtk_box_append (GTK_BOX (bar), self->threshold_spin);
  gtk_box_append (GTK_BOX (bar), gtk_label_new ("%"));
  self->count_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->count_label, "dim-label");
  gtk_widget_set_margin_start (self->count_label, 12);
  gtk_box_append (GTK_BOX (bar), self->count_label);
  self->expand_button = gtk_toggle_button_new_with_mnemonic (_("_Expand merged launches"));
  gtk_widget_set_tooltip_text (self->expand_button, _("Show each merged launch's member ops; a side that ran the "
                                                      "launch merged gives each member an estimated share of its time"));
  gtk_widget_set_hexpand (self->expand_button, TRUE);
  gtk_widget_set_halign (self->expand_button, GTK_ALIGN_END);
  g_signal_connect (self->expand_button, "toggled", G_CALLBACK (on_expand_toggled), self);
  gtk_box_append (GTK_BOX (bar), self->expand_button);
  return bar;
}

/* The tree keys on the rows (focused by a click), not on the whole view: in the bar above,
 * the arrows move the focus and type as everywhere. + and - also reach the view from
 * anywhere in the window (app/zw-window-keys.c, the shortcuts' table). */
static void
add_tree_keys (ZwCompareView *self)
{
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_Right, "compare.expand" },      { GDK_KEY_KP_Right, "compare.expand" },
    { GDK_KEY_plus, "compare.expand" },       { GDK_KEY_KP_Add, "compare.expand" },
    { GDK_KEY_Left, "compare.collapse" },     { GDK_KEY_KP_Left, "compare.collapse" },
    { GDK_KEY_minus, "compare.collapse" },    { GDK_KEY_KP_Subtract, "compare.collapse" },
    { GDK_KEY_Up, "compare.previous" },       { GDK_KEY_KP_Up, "compare.previous" },
    { GDK_KEY_Down, "compare.next" },         { GDK_KEY_KP_Down, "compare.next" },
  };
  GtkWidget *area = zw_row_table_get_area (ZW_ROW_TABLE (self));
  GtkEventController *controller = gtk_shortcut_controller_new ();

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, 0),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (area, controller);
  gtk_widget_set_focusable (area, TRUE);
}

static void
zw_compare_view_init (ZwCompareView *self)
{
  GtkWidget *scrolled, *box;

  self->sort_column = -1;
  self->threshold = ((ZwCompareOptions) ZW_COMPARE_OPTIONS_INIT).tolerance;
  self->expanded = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  /* the controls above the table */
  scrolled = gtk_widget_get_ancestor (zw_row_table_get_area (ZW_ROW_TABLE (self)), GTK_TYPE_SCROLLED_WINDOW);
  g_assert (scrolled != NULL);
  g_object_ref (scrolled);
  gtk_widget_unparent (scrolled);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  {
    /* the bar never widens the window (the views share one stack): narrower, it scrolls */
    GtkWidget *bar_scroller = gtk_scrolled_window_new ();
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (bar_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (bar_scroller), TRUE);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (bar_scroller), controls_new (self));
    gtk_box_append (GTK_BOX (box), bar_scroller);
  }
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), scrolled);
  g_object_unref (scrolled);
  gtk_widget_set_parent (box, GTK_WIDGET (self));
  add_tree_keys (self);
  changed (self, -1);
}

GtkWidget *
zw_compare_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_COMPARE_VIEW, "selection", selection, NULL);
}
