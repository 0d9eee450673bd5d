/* zw-compare-view.c — two profiles (and deploy reports) side by side. */
#include "zw-compare-view.h"
#include "zw-compare-rows.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN 8.0
#define LINE_H 18.0
#define ROW_H 20.0
#define SWAP_W 150.0
#define EXPANDER_W 16.0    /* the ▸/▾ of a merged launch, at the op id cell's start */

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

static int
content_height_of (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows)
{
  return (int) ceil (rows_top (cmp, dcmp) + (cmp != NULL ? n_rows : 0) * ROW_H + MARGIN);
}

int
zw_compare_view_content_height (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp)
{
  return content_height_of (cmp, dcmp, cmp != NULL ? cmp->rows->len : 0);
}

static gboolean
row_extent_of (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows, guint index, double *y0,
               double *y1)
{
  if (cmp == NULL || index >= n_rows)
    return FALSE;
  if (y0)
    *y0 = rows_top (cmp, dcmp) + index * ROW_H;
  if (y1)
    *y1 = rows_top (cmp, dcmp) + (index + 1) * ROW_H;
  return TRUE;
}

gboolean
zw_compare_view_row_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint index, double *y0,
                            double *y1)
{
  return row_extent_of (cmp, dcmp, cmp != NULL ? cmp->rows->len : 0, index, y0, y1);
}

static gint
row_at_of (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows, double y)
{
  double top = rows_top (cmp, dcmp);
  gint64 i;

  if (cmp == NULL || y < top)
    return -1;
  i = (gint64) ((y - top) / ROW_H);
  return i < n_rows ? (gint) i : -1;
}

gint
zw_compare_view_row_at (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, double y)
{
  return row_at_of (cmp, dcmp, cmp != NULL ? cmp->rows->len : 0, y);
}

/* A signed byte count in the units of the rest ("+1.5 MiB", "−512 bytes"). */
static char *
format_bytes_delta (gint64 delta)
{
  g_autofree char *abs = zw_format_bytes ((guint64) (delta < 0 ? -delta : delta));

  return g_strdup_printf ("%s%s", delta > 0 ? "+" : delta < 0 ? "−" : "±", abs);
}

/* A member of an expanded merged launch: its figures, estimated ones marked "≈". */
static char *
member_cell_text (const ZwCompareShownRow *s, CompareColumn column)
{
  switch (column)
    {
    case COL_OP_ID:
      return g_strdup_printf ("  ↳ %" G_GINT64_FORMAT, s->op_id);
    case COL_CLASS:
      return g_strdup (s->op_class != NULL ? s->op_class : "");
    case COL_A:
      return !s->has_a ? g_strdup ("–") : g_strdup_printf (s->a_estimated ? "≈%.4g" : "%.6g", s->a_ms);
    case COL_B:
      return !s->has_b ? g_strdup ("–") : g_strdup_printf (s->b_estimated ? "≈%.4g" : "%.6g", s->b_ms);
    case COL_DELTA:
      if (!s->has_a || !s->has_b)
        return g_strdup ("");
      return g_strdup_printf (s->a_estimated || s->b_estimated ? "≈%+.4g" : "%+.6g", s->b_ms - s->a_ms);
    case COL_RATIO:
      if (!s->has_a || !s->has_b || s->a_ms <= 0)
        return g_strdup ("");
      return g_strdup_printf (s->a_estimated || s->b_estimated ? "≈%.3f" : "%.3f", s->b_ms / s->a_ms);
    case COL_BARS:
      /* TRANSLATORS: a merged launch's member row whose time is the launch's split by the
       * planner's estimates (not measured per op) */
      return g_strdup (s->a_estimated || s->b_estimated ? _("estimated share of its launch") : "");
    default:
      g_assert_not_reached ();
    }
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
        return g_strdup_printf (ngettext ("%li (%u op)", "%li (%u ops)", MAX (r->merge_from->len, 1)), (long) r->op_id,
                                MAX (r->merge_from->len, 1));
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
  g_autoptr (ZwCompareShown) shown = zw_compare_shown_new (cmp, NULL);

  zw_compare_view_draw_shown (cr, width, height, cmp, dcmp, shown, label_a, label_b, selected, sort_column, descending,
                              colors);
}

void
zw_compare_view_draw_shown (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp,
                            const ZwDeployCompare *dcmp, const ZwCompareShown *shown, const char *label_a,
                            const char *label_b, gint selected, gint sort_column, gboolean descending,
                            const ZwViewStyle *colors)
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
                  /* TRANSLATORS: counts after colons (no plurals to agree with any of them) */
                  _("ops matched: %u, only in A: %u, only in B: %u; regressions: %u, improvements: %u (tolerance "
                    "%g%%, min %g ms)"),
                  cmp->n_matched, cmp->n_only_a, cmp->n_only_b, cmp->n_regressions, cmp->n_improvements,
                  cmp->options.tolerance * 100, cmp->options.min_delta_ms);
      if (cmp->n_merge_mapped > 0 || cmp->n_kind_matched > 0)
        {
          char more[256];
          /* TRANSLATORS: appended to the counts line: how rows were matched besides by op id */
          g_snprintf (more, sizeof more,
                      _("; merged launches against their ops: %u, ops matched by type and order: %u"),
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

  for (guint i = 0; i < shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
      max_ms = MAX (max_ms, MAX (s->a_ms, s->b_ms));
    }
  cairo_clip_extents (cr, &clip_x0, &clip_y0, &clip_x1, &clip_y1);
  for (guint i = 0; i < shown->rows->len && y < height; i++, y += ROW_H)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
      const ZwCompareRow *r = s->row;
      gboolean member = s->member >= 0, estimated = s->a_estimated || s->b_estimated;
      double bars_x = MARGIN, bars_w;

      if (y + ROW_H < clip_y0 || y > clip_y1)
        continue;
      if (member)
        {
          /* a member under its launch: a faint band, never a verdict of its own */
          zw_cairo_set_color_alpha (cr, &colors->grid, 0.15);
          cairo_rectangle (cr, MARGIN, y, width - 2 * MARGIN, ROW_H);
          cairo_fill (cr);
        }
      else if (r->regression || r->improvement)
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
          g_autofree char *text = member ? member_cell_text (s, (CompareColumn) c) : cell_text (r, (CompareColumn) c);
          double indent = 0;
          if (c == COL_OP_ID && s->expandable)
            {
              /* the expander of a merged launch: a click opens its members */
              zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, EXPANDER_W, &colors->accent, s->expanded ? "▾" : "▸");
              indent = EXPANDER_W - 4;
            }
          zw_painter_text (&p, x + 4 + indent, y + ROW_H / 2, 0, 0.5, col_widths[c] - 8 - indent,
                           member && estimated && c >= COL_A ? &dim
                           : !member && c == COL_DELTA && r->regression ? &colors->warning : NULL,
                           text);
          x += col_widths[c];
        }
      bars_x = x;
      bars_w = width - MARGIN - bars_x;
      if (bars_w > 20 && max_ms > 0)
        {
          double mid = bars_x + bars_w / 2, half = bars_w / 2 - 4;
          double wa = s->has_a ? half * s->a_ms / max_ms : 0;
          double wb = s->has_b ? half * s->b_ms / max_ms : 0;
          double alpha = member ? 0.5 : 1;

          zw_cairo_set_color_alpha (cr, &colors->segment[ZW_SEGMENT_WEIGHT], alpha);
          cairo_rectangle (cr, mid - wa, y + 4, wa, ROW_H - 8);
          cairo_fill (cr);
          zw_cairo_set_color_alpha (cr, !member && r->regression ? &colors->warning : &colors->segment[ZW_SEGMENT_FTMP],
                                    alpha);
          cairo_rectangle (cr, mid, y + 4, wb, ROW_H - 8);
          cairo_fill (cr);
          zw_cairo_set_color (cr, &colors->grid);
          cairo_rectangle (cr, mid, y, 1, ROW_H);
          cairo_fill (cr);
          if (member && estimated)
            {
              /* labelled: these figures are a split of the launch's time, not measured */
              g_autofree char *label = member_cell_text (s, COL_BARS);
              zw_painter_text (&p, width - MARGIN - 4, y + ROW_H / 2, 1, 0.5, bars_w / 2 - 8, &dim, label);
            }
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
  /* what is shown of the rows (zw-compare-rows.h) */
  ZwCompareShown *shown;
  GHashTable *expanded;          /* gint64 op ids of the merged launches shown expanded */
  gboolean regressions_only;
  double threshold;              /* a fraction: B slower than A by more than this */
  GtkWidget *filter_check, *threshold_spin, *count_label, *expand_button;
  gboolean updating_controls;
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
  zw_compare_view_draw_shown (cr, width, height, self->cmp, self->dcmp, self->shown, self->label_a, self->label_b,
                              selected, self->sort_column, self->sort_descending, colors);
}

static int
table_content_height (ZwRowTable *table)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return content_height_of (self->cmp, self->dcmp, table_n_rows (table));
}

static gint
table_row_at (ZwRowTable *table, double x, double y)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  (void) x;
  return row_at_of (self->cmp, self->dcmp, table_n_rows (table), y);
}

static gboolean
table_row_extent (ZwRowTable *table, guint row, double *y0, double *y1)
{
  ZwCompareView *self = ZW_COMPARE_VIEW (table);
  return row_extent_of (self->cmp, self->dcmp, table_n_rows (table), row, y0, y1);
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
  /* a merged launch's expander */
  if (x >= MARGIN && x < MARGIN + 4 + EXPANDER_W)
    {
      gint row = row_at_of (self->cmp, self->dcmp, table_n_rows (table), y);
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
  if (self->cmp != NULL)
    {
      zw_profile_compare_set_classes (self->cmp, self->report_a, self->report_b);
      zw_profile_compare_sort (self->cmp, sort_key_of (self->sort_column), self->sort_descending);
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
  gtk_box_append (GTK_BOX (box), controls_new (self));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), scrolled);
  g_object_unref (scrolled);
  gtk_widget_set_parent (box, GTK_WIDGET (self));
  changed (self, -1);
}

GtkWidget *
zw_compare_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_COMPARE_VIEW, "selection", selection, NULL);
}
