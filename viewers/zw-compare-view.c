/* zw-compare-view.c — two profiles (and deploy reports) side by side. */
#include "zw-compare-view.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN 8.0
#define LINE_H 18.0
#define ROW_H 20.0
#define SWAP_W 150.0

typedef enum {
  COL_OP_ID,
  COL_CLASS,
  COL_A,
  COL_B,
  COL_DELTA,
  COL_RATIO,
  COL_BARS,
  N_COLS
} CompareColumn;

static const char *col_titles[N_COLS] = {
  N_("Op id"), N_("Class"), N_("A ms"), N_("B ms"), N_("Delta ms"), N_("Ratio"), N_("A ◀ │ ▶ B"),
};
static const double col_widths[N_COLS] = { 64, 120, 90, 90, 90, 70, 0 };

static double
rows_top (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp)
{
  double y = MARGIN + LINE_H;               /* labels */
  if (cmp != NULL)
    y += 2 * LINE_H;                        /* totals */
  if (cmp != NULL && (cmp->a_has_host_measured || cmp->b_has_host_measured))
    y += LINE_H;                            /* measured host time, apart */
  if (dcmp != NULL)
    y += 7 * LINE_H + 6;                    /* deploy block: header + 6 facts */
  return y + 6 + ROW_H;                     /* column header */
}

int
zw_compare_view_content_height (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp)
{
  return (int) ceil (rows_top (cmp, dcmp) + (cmp != NULL ? cmp->rows->len : 0) * ROW_H + MARGIN);
}

gboolean
zw_compare_view_row_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint index, double *y0,
                            double *y1)
{
  if (cmp == NULL || index >= cmp->rows->len)
    return FALSE;
  if (y0)
    *y0 = rows_top (cmp, dcmp) + index * ROW_H;
  if (y1)
    *y1 = rows_top (cmp, dcmp) + (index + 1) * ROW_H;
  return TRUE;
}

gint
zw_compare_view_row_at (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, double y)
{
  double top = rows_top (cmp, dcmp);
  gint64 i;

  if (cmp == NULL || y < top)
    return -1;
  i = (gint64) ((y - top) / ROW_H);
  return i < cmp->rows->len ? (gint) i : -1;
}

/* A signed byte count in the units of the rest ("+1.5 MiB", "−512 bytes"). */
static char *
format_bytes_delta (gint64 delta)
{
  g_autofree char *abs = zw_format_bytes ((guint64) (delta < 0 ? -delta : delta));

  return g_strdup_printf ("%s%s", delta > 0 ? "+" : delta < 0 ? "−" : "±", abs);
}

static char *
cell_text (const ZwCompareRow *r, CompareColumn column)
{
  char buf[64];

  switch (column)
    {
    case COL_OP_ID:
      if (r->match == ZW_COMPARE_MATCH_KIND)
        /* op ids differ between the compiles: A's and B's */
        return g_strdup_printf ("%" G_GINT64_FORMAT "→%" G_GINT64_FORMAT, r->op_id, r->b_op_id);
      if (r->match == ZW_COMPARE_MATCH_MERGE)
        /* TRANSLATORS: a merged launch compared with its member ops (merge on vs off) */
        return g_strdup_printf (_("%li (%u ops)"), (long) r->op_id, MAX (r->merge_from->len, 1));
      return g_strdup_printf ("%" G_GINT64_FORMAT, r->op_id);
    case COL_CLASS:
      /* the hardop class when the runs' reports know it, never a bare "HardOp" */
      return g_strdup (r->op_class != NULL ? r->op_class : zw_op_class_short (r->op_type, buf, sizeof buf));
    case COL_A:
      return r->side == ZW_COMPARE_ONLY_B ? g_strdup ("–") : g_strdup_printf ("%.6g", r->a_ms);
    case COL_B:
      return r->side == ZW_COMPARE_ONLY_A ? g_strdup ("–") : g_strdup_printf ("%.6g", r->b_ms);
    case COL_DELTA:
      return r->side == ZW_COMPARE_BOTH ? g_strdup_printf ("%+.6g", r->delta_ms) : g_strdup ("");
    case COL_RATIO:
      if (r->side != ZW_COMPARE_BOTH)
        return g_strdup (r->side == ZW_COMPARE_ONLY_A ? _("only A") : _("only B"));
      return isinf (r->ratio) ? g_strdup ("∞") : g_strdup_printf ("%.3f", r->ratio);
    case COL_BARS:
      return g_strdup (r->regression ? _("regression") : r->improvement ? _("improvement") : "");
    default:
      g_assert_not_reached ();
    }
}

static void
deploy_line (ZwPainter *p, double x, double y, double width, const char *name, const char *a, const char *b,
             const char *delta, const GdkRGBA *delta_color)
{
  GdkRGBA dim = p->style->foreground;

  dim.alpha *= 0.7f;
  zw_painter_text (p, x, y, 0, 0, 150, &dim, name);
  zw_painter_text (p, x + 150, y, 0, 0, (width - 150) / 3 - 6, NULL, a);
  zw_painter_text (p, x + 150 + (width - 150) / 3, y, 0, 0, (width - 150) / 3 - 6, NULL, b);
  zw_painter_text (p, x + 150 + 2 * (width - 150) / 3, y, 0, 0, (width - 150) / 3 - 6, delta_color, delta);
}

static void
draw_deploy (ZwPainter *p, double y, int width, const ZwDeployCompare *d, const char *la, const char *lb)
{
  const ZwViewStyle *s = p->style;
  double w = width - 2 * MARGIN;
  char a[96], b[96], dl[96];
  g_autofree char *fa = zw_format_bytes (d->a.ftmp_bytes), *fb = zw_format_bytes (d->b.ftmp_bytes);
  g_autofree char *oa = zw_format_bytes (d->a.ocm_peak), *ob = zw_format_bytes (d->b.ocm_peak);
  g_autofree char *ca = zw_format_bytes (d->a.ocm_capacity), *cb = zw_format_bytes (d->b.ocm_capacity);
  /* more memory or time in B is drawn as a regression, less as an improvement */
#define DELTA_COLOR(v) ((v) > 0 ? &s->warning : (v) < 0 ? &s->lower_bound : NULL)

  zw_painter_set_bold (p, TRUE);
  deploy_line (p, MARGIN, y, w, _("Deploy"), la, lb, _("delta"), NULL);
  zw_painter_set_bold (p, FALSE);
  y += LINE_H;
  {
    g_autofree char *delta = format_bytes_delta (d->ftmp_delta);
    deploy_line (p, MARGIN, y, w, _("FTMP bytes"), fa, fb, delta, DELTA_COLOR (d->ftmp_delta));
  }
  y += LINE_H;
  /* TRANSLATORS: the OCM peak of the OCM size, and the number of chunks placed in OCM */
  g_snprintf (a, sizeof a, ngettext ("%s / %s (%u chunk)", "%s / %s (%u chunks)", d->a.n_ocm_chunks), oa, ca,
              d->a.n_ocm_chunks);
  g_snprintf (b, sizeof b, ngettext ("%s / %s (%u chunk)", "%s / %s (%u chunks)", d->b.n_ocm_chunks), ob, cb,
              d->b.n_ocm_chunks);
  {
    g_autofree char *delta = format_bytes_delta ((gint64) d->b.ocm_peak - (gint64) d->a.ocm_peak);
    deploy_line (p, MARGIN, y, w, _("OCM peak"), a, b, delta, NULL);
  }
  y += LINE_H;
  g_snprintf (a, sizeof a, "%u", d->a.n_launches);
  g_snprintf (b, sizeof b, "%u", d->b.n_launches);
  g_snprintf (dl, sizeof dl, "%+d", d->n_launches_delta);
  deploy_line (p, MARGIN, y, w, _("Launches"), a, b, dl, DELTA_COLOR (d->n_launches_delta));
  y += LINE_H;
  g_snprintf (a, sizeof a, d->a.merge_hardop ? _("%u (merge on)") : _("%u (merge off)"), d->a.n_hardops);
  g_snprintf (b, sizeof b, d->b.merge_hardop ? _("%u (merge on)") : _("%u (merge off)"), d->b.n_hardops);
  deploy_line (p, MARGIN, y, w, _("Hardops"), a, b, "", NULL);
  y += LINE_H;
  g_snprintf (a, sizeof a, "%s → %s", zw_ocm_opt_get_label (d->a.ocm_requested), zw_ocm_opt_get_label (d->a.ocm_chosen));
  g_snprintf (b, sizeof b, "%s → %s", zw_ocm_opt_get_label (d->b.ocm_requested), zw_ocm_opt_get_label (d->b.ocm_chosen));
  deploy_line (p, MARGIN, y, w, _("OCM option"), a, b, "", NULL);
  y += LINE_H;
  g_snprintf (a, sizeof a, "%.6g ms", d->a.estimated_ms);
  g_snprintf (b, sizeof b, "%.6g ms", d->b.estimated_ms);
  g_snprintf (dl, sizeof dl, "%+.6g ms", d->estimated_delta_ms);
  deploy_line (p, MARGIN, y, w, _("Planner estimate"), a, b, dl, DELTA_COLOR (d->estimated_delta_ms));
#undef DELTA_COLOR
}

void
zw_compare_view_draw_header (cairo_t *cr, int width, double y, gint sort_column, gboolean descending,
                             const ZwViewStyle *colors)
{
  ZwPainter p;
  double x = MARGIN;

  /* over what is drawn already: no background */
  cairo_save (cr);
  zw_painter_init (&p, cr, colors);
  for (int c = 0; c < N_COLS; c++)
    {
      double w = col_widths[c] > 0 ? col_widths[c] : width - x - MARGIN;
      g_autofree char *title = c == sort_column ? g_strdup_printf ("%s %s", _(col_titles[c]), descending ? "▼" : "▲")
                                                 : g_strdup (_(col_titles[c]));
      /* the sorted column's title in the text colour, with its direction; a click sorts */
      zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, w - 8, c == sort_column ? NULL : &p.dim, title);
      x += w;
    }
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, MARGIN, y + ROW_H - 1, width - 2 * MARGIN, 1);
  cairo_fill (cr);
  zw_painter_clear (&p);
  cairo_restore (cr);
}

gint
zw_compare_view_column_at (int width, double x)
{
  double left = MARGIN;

  for (int c = 0; c < N_COLS; c++)
    {
      double w = col_widths[c] > 0 ? col_widths[c] : width - left - MARGIN;
      if (x >= left && x < left + w)
        return c;
      left += w;
    }
  return -1;
}

gboolean
zw_compare_view_header_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, double *y0, double *y1)
{
  if (cmp == NULL)
    return FALSE;
  if (y0)
    *y0 = rows_top (cmp, dcmp) - ROW_H;
  if (y1)
    *y1 = rows_top (cmp, dcmp);
  return TRUE;
}

gint
zw_compare_view_next_sort (gint current, gboolean current_descending, gint clicked, gboolean *descending)
{
  gboolean numeric = clicked == COL_A || clicked == COL_B || clicked == COL_DELTA || clicked == COL_RATIO;

  if (clicked < 0 || clicked >= COL_BARS)
    {
      /* the bars' column: back to the order as compared */
      *descending = FALSE;
      return -1;
    }
  /* the same column again turns the order round; a new one starts with the biggest
   * numbers first (the regressions), names and ids ascending */
  *descending = clicked == current ? !current_descending : numeric;
  return clicked;
}

static ZwCompareSortKey
sort_key_of (gint column)
{
  switch (column)
    {
    case COL_OP_ID: return ZW_COMPARE_SORT_OP_ID;
    case COL_CLASS: return ZW_COMPARE_SORT_CLASS;
    case COL_A: return ZW_COMPARE_SORT_A_MS;
    case COL_B: return ZW_COMPARE_SORT_B_MS;
    case COL_DELTA: return ZW_COMPARE_SORT_DELTA;
    case COL_RATIO: return ZW_COMPARE_SORT_RATIO;
    default: return ZW_COMPARE_SORT_ORDER;
    }
}

void
zw_compare_view_draw (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp,
                      const char *label_a, const char *label_b, gint selected, const ZwViewStyle *colors)
{
  zw_compare_view_draw_sorted (cr, width, height, cmp, dcmp, label_a, label_b, selected, -1, FALSE, colors);
}

void
zw_compare_view_draw_sorted (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp,
                             const ZwDeployCompare *dcmp, const char *label_a, const char *label_b, gint selected,
                             gint sort_column, gboolean descending, const ZwViewStyle *colors)
{
  const char *la = label_a != NULL ? label_a : "A", *lb = label_b != NULL ? label_b : "B";
  double y, x, max_ms = 0, clip_x0, clip_y0, clip_x1, clip_y1;
  ZwPainter p;
  GdkRGBA dim;
  char line[512];

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  if (cmp == NULL && dcmp == NULL)
    {
      zw_draw_empty (&p, width, MIN (height, 200),
                     _("Nothing to compare: mark two runs in the run history (their check boxes), or open two time "
                       "profiles (Compare Time Files…)"));
      goto out;
    }
  g_snprintf (line, sizeof line, _("A: %s    B: %s"), la, lb);
  zw_painter_set_bold (&p, TRUE);
  zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN - SWAP_W, NULL, line);
  zw_painter_set_bold (&p, FALSE);
  /* the header line is the control that chooses which run is A (a click swaps them) */
  zw_painter_text (&p, width - MARGIN - SWAP_W, MARGIN, 0, 0, SWAP_W, &colors->accent, _("⇄ Swap A and B"));
  y = MARGIN + LINE_H;
  if (cmp != NULL)
    {
      g_snprintf (line, sizeof line, _("Total: A %.6g ms, B %.6g ms, delta %+.6g ms, ratio %.4f  (hard: A %.6g, B %.6g ms)"),
                  cmp->a_total_ms, cmp->b_total_ms, cmp->delta_ms, cmp->ratio, cmp->a_hard_ms, cmp->b_hard_ms);
      zw_painter_text (&p, MARGIN, y, 0, 0, width - 2 * MARGIN,
                       cmp->delta_ms > cmp->options.min_delta_ms && cmp->ratio > 1 + cmp->options.tolerance
                           ? &colors->warning
                           : NULL,
                       line);
      g_snprintf (line, sizeof line,
                  _("%u ops matched, %u only in A, %u only in B; %u regressions, %u improvements (tolerance %g%%, min "
                    "%g ms)"),
                  cmp->n_matched, cmp->n_only_a, cmp->n_only_b, cmp->n_regressions, cmp->n_improvements,
                  cmp->options.tolerance * 100, cmp->options.min_delta_ms);
      if (cmp->n_merge_mapped > 0 || cmp->n_kind_matched > 0)
        {
          char more[256];
          /* TRANSLATORS: appended to the counts line: how rows were matched besides by op id */
          g_snprintf (more, sizeof more, _("; %u merged launches against their ops, %u ops matched by type and order"),
                      cmp->n_merge_mapped, cmp->n_kind_matched);
          g_strlcat (line, more, sizeof line);
        }
      zw_painter_text (&p, MARGIN, y + LINE_H, 0, 0, width - 2 * MARGIN, &dim, line);
      y += 2 * LINE_H;
      if (cmp->a_has_host_measured || cmp->b_has_host_measured)
        {
          /* the dev host's clock: labelled, never compared (every figure above is simulated) */
          char ma[64], mb[64];
          if (cmp->a_has_host_measured)
            g_snprintf (ma, sizeof ma, "%.6g ms", cmp->a_host_measured_ms);
          else
            g_strlcpy (ma, "–", sizeof ma);
          if (cmp->b_has_host_measured)
            g_snprintf (mb, sizeof mb, "%.6g ms", cmp->b_host_measured_ms);
          else
            g_strlcpy (mb, "–", sizeof mb);
          g_snprintf (line, sizeof line,
                      _("Times above are simulated. Host ops measured on this PC (not compared): A %s, B %s"), ma, mb);
          zw_painter_text (&p, MARGIN, y, 0, 0, width - 2 * MARGIN, &dim, line);
          y += LINE_H;
        }
    }
  if (dcmp != NULL)
    {
      y += 6;
      draw_deploy (&p, y, width, dcmp, la, lb);
      y += 7 * LINE_H;
    }
  if (cmp == NULL)
    goto out;
  y = rows_top (cmp, dcmp) - ROW_H;
  zw_compare_view_draw_header (cr, width, y, sort_column, descending, colors);
  y += ROW_H;

  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      max_ms = MAX (max_ms, MAX (r->a_ms, r->b_ms));
    }
  cairo_clip_extents (cr, &clip_x0, &clip_y0, &clip_x1, &clip_y1);
  for (guint i = 0; i < cmp->rows->len && y < height; i++, y += ROW_H)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      double bars_x = MARGIN, bars_w;

      if (y + ROW_H < clip_y0 || y > clip_y1)
        continue;
      if (r->regression || r->improvement)
        {
          zw_cairo_set_color_alpha (cr, r->regression ? &colors->warning : &colors->lower_bound, 0.28);
          cairo_rectangle (cr, MARGIN, y, width - 2 * MARGIN, ROW_H);
          cairo_fill (cr);
        }
      else if (i % 2 == 1)
        {
          zw_cairo_set_color_alpha (cr, &colors->grid, 0.30);
          cairo_rectangle (cr, MARGIN, y, width - 2 * MARGIN, ROW_H);
          cairo_fill (cr);
        }
      if ((gint) i == selected)
        {
          zw_cairo_set_color (cr, &colors->accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, MARGIN + 1, y + 1, width - 2 * MARGIN - 2, ROW_H - 2);
          cairo_stroke (cr);
        }
      x = MARGIN;
      for (int c = 0; c < COL_BARS; c++)
        {
          g_autofree char *text = cell_text (r, (CompareColumn) c);
          zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, col_widths[c] - 8,
                           c == COL_DELTA && r->regression ? &colors->warning : NULL, text);
          x += col_widths[c];
        }
      bars_x = x;
      bars_w = width - MARGIN - bars_x;
      if (bars_w > 20 && max_ms > 0)
        {
          double mid = bars_x + bars_w / 2, half = bars_w / 2 - 4;
          double wa = r->side != ZW_COMPARE_ONLY_B ? half * r->a_ms / max_ms : 0;
          double wb = r->side != ZW_COMPARE_ONLY_A ? half * r->b_ms / max_ms : 0;

          zw_cairo_set_color (cr, &colors->segment[ZW_SEGMENT_WEIGHT]);
          cairo_rectangle (cr, mid - wa, y + 4, wa, ROW_H - 8);
          cairo_fill (cr);
          zw_cairo_set_color (cr, r->regression ? &colors->warning : &colors->segment[ZW_SEGMENT_FTMP]);
          cairo_rectangle (cr, mid, y + 4, wb, ROW_H - 8);
          cairo_fill (cr);
          zw_cairo_set_color (cr, &colors->grid);
          cairo_rectangle (cr, mid, y, 1, ROW_H);
          cairo_fill (cr);
        }
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

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
  char *label_a, *label_b;
};

G_DEFINE_FINAL_TYPE (ZwCompareView, zw_compare_view, ZW_TYPE_ROW_TABLE)

/* ---- the row table: one row per op of the profile comparison ---- */

static guint
table_n_rows (ZwRowTable *table)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return self->cmp != NULL ? self->cmp->rows->len : 0;
}

static gboolean
table_header_extent (ZwRowTable *table, double *y0, double *y1)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return zw_compare_view_header_extent (self->cmp, self->dcmp, y0, y1);
}

static void
table_draw_header (ZwRowTable *table, cairo_t *cr, int width, double y, const ZwViewStyle *colors)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  zw_compare_view_draw_header (cr, width, y, self->sort_column, self->sort_descending, colors);
}

static void
table_draw (ZwRowTable *table, cairo_t *cr, int width, int height, gint selected, const ZwViewStyle *colors)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  zw_compare_view_draw_sorted (cr, width, height, self->cmp, self->dcmp, self->label_a, self->label_b, selected,
                               self->sort_column, self->sort_descending, colors);
}

static int
table_content_height (ZwRowTable *table)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return zw_compare_view_content_height (self->cmp, self->dcmp);
}

static gint
table_row_at (ZwRowTable *table, double x, double y)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  (void) x;
  return zw_compare_view_row_at (self->cmp, self->dcmp, y);
}

static gint64
table_row_id (ZwRowTable *table, guint row, ZwDeployReport *report)
{
  (void) report;
  return ((const ZwCompareRow *) g_ptr_array_index (ZW_COMPARE_VIEW (table)->cmp->rows, row))->op_id;
}

/* the header line is the control that chooses which run is A (a click swaps them); the
 * columns' titles sort the rows */
static gboolean
table_clicked (ZwRowTable *table, double x, double y)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  int width = gtk_widget_get_width (zw_row_table_get_area (table));
  double h0, h1;

  if (y >= MARGIN && y < MARGIN + LINE_H && x >= width - MARGIN - SWAP_W)
    {
      zw_compare_view_swap (self);
      return TRUE;
    }
  if (zw_compare_view_header_extent (self->cmp, self->dcmp, &h0, &h1) && y >= h0 && y < h1)
    {
      gboolean descending;
      gint column = zw_compare_view_next_sort (self->sort_column, self->sort_descending,
                                               zw_compare_view_column_at (width, x), &descending);
      zw_compare_view_sort (self, column, descending);
      return TRUE;
    }
  return FALSE;
}

/* What is shown changed; the row selected now is @selected (-1 none). The rows get their
 * classes from the reports shown with them. */
static void
changed (ZwCompareView *self, gint selected)
{
  if (self->cmp != NULL)
    {
      zw_profile_compare_set_classes (self->cmp, self->report_a, self->report_b);
      zw_profile_compare_sort (self->cmp, sort_key_of (self->sort_column), self->sort_descending);
    }
  zw_row_table_changed (ZW_ROW_TABLE (self), selected);
}

void
zw_compare_view_set_profiles (ZwCompareView *self, const ZwProfile *a, const ZwProfile *b,
                              const ZwCompareOptions *options, const char *label_a, const char *label_b)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_return_if_fail (a != NULL && b != NULL);
  g_clear_pointer (&self->cmp, zw_profile_compare_free);
  self->cmp = zw_profile_compare (a, b, options);
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

void
zw_compare_view_set_reports (ZwCompareView *self, const ZwDeployReport *a, const ZwDeployReport *b)
{
  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  g_clear_pointer (&self->dcmp, zw_deploy_compare_free);
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  if (a != NULL && b != NULL)
    {
      self->dcmp = zw_deploy_compare (a, b);
      self->report_a = zw_deploy_report_ref ((ZwDeployReport *) a);
      self->report_b = zw_deploy_report_ref ((ZwDeployReport *) b);
    }
  /* the rows are the profiles': the one selected stays */
  changed (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
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
  if (self->report_a != NULL && self->report_b != NULL)
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
  changed (self, -1);
}

void
zw_compare_view_sort (ZwCompareView *self, gint column, gboolean descending)
{
  const ZwCompareRow *selected = NULL;
  gint row;

  g_return_if_fail (ZW_IS_COMPARE_VIEW (self));
  row = zw_row_table_get_selected_row (ZW_ROW_TABLE (self));
  if (self->cmp != NULL && row >= 0 && (guint) row < self->cmp->rows->len)
    selected = g_ptr_array_index (self->cmp->rows, row);
  self->sort_column = column >= 0 && column < COL_BARS ? column : -1;
  self->sort_descending = self->sort_column >= 0 && descending;
  if (self->cmp != NULL)
    zw_profile_compare_sort (self->cmp, sort_key_of (self->sort_column), self->sort_descending);
  /* the row selected stays selected where it went */
  row = -1;
  for (guint i = 0; selected != NULL && i < self->cmp->rows->len; i++)
    if (g_ptr_array_index (self->cmp->rows, i) == selected)
      row = (gint) i;
  changed (self, row);
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

  for (guint i = 0; self->cmp != NULL && i < self->cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (self->cmp->rows, i);
      char **cells = g_new0 (char *, n + 1);
      cells[0] = g_strdup_printf ("%" G_GINT64_FORMAT, r->op_id);
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
  g_clear_pointer (&self->report_a, zw_deploy_report_unref);
  g_clear_pointer (&self->report_b, zw_deploy_report_unref);
  g_clear_pointer (&self->label_a, g_free);
  g_clear_pointer (&self->label_b, g_free);
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
  table_class->clicked = table_clicked;
  table_class->header_extent = table_header_extent;
  table_class->draw_header = table_draw_header;
  gtk_widget_class_set_css_name (widget_class, "zwcompareview");
  gtk_widget_class_install_action (widget_class, "compare.swap", NULL, action_swap);
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "compare",
                          N_("Compare"), N_("Compare view"), ZW_VIEW_DATA_PROFILE_PAIR);
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_compare_view_init (ZwCompareView *self)
{
  self->sort_column = -1;
  changed (self, -1);
}

GtkWidget *
zw_compare_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_COMPARE_VIEW, "selection", selection, NULL);
}
