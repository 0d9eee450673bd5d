/* zw-compile-compare-view.c — two compiles of one model side by side (see the header). */
#include "zw-compile-compare-view.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN ZW_ROW_TABLE_MARGIN
#define LINE_H ZW_ROW_TABLE_LINE_H
#define ROW_H ZW_ROW_TABLE_ROW_H
#define BAR_H 12.0
#define BAR_GAP 3.0
#define HEADLINE_H (2 * BAR_H + BAR_GAP + 9.0)
#define LABEL_W 190.0
#define VALUE_W 260.0
#define MIN_WIDTH 760

static const ZwCompileTotalKind headline[] = {
  ZW_COMPILE_TOTAL_ETM_ALL, ZW_COMPILE_TOTAL_OCM_PEAK, ZW_COMPILE_TOTAL_LAUNCHES, ZW_COMPILE_TOTAL_TIME,
};

/* per-op columns: class, n,c,h,w, then A's op/at/ms, B's op/at/ms, the bars take the rest */
enum { COL_CLASS, COL_SHAPE, COL_A_OP, COL_A_AT, COL_A_MS, COL_B_OP, COL_B_AT, COL_B_MS, N_COLS };
static const double col_widths[N_COLS] = { 90, 120, 60, 44, 130, 60, 44, 130 };
static const char *col_titles[N_COLS] = {
  N_("Class"), N_("n,c,h,w"), N_("Op id"), N_("At"), N_("Time ms"), N_("Op id"), N_("At"), N_("Time ms"),
};

static double
col_x (int col)
{
  double x = MARGIN;
  for (int c = 0; c < col; c++)
    x += col_widths[c];
  return x;
}

void
zw_compile_compare_view_side_columns (gboolean b_side, double *x0, double *x1)
{
  int first = b_side ? COL_B_OP : COL_A_OP;
  if (x0)
    *x0 = col_x (first);
  if (x1)
    *x1 = col_x (first + 3);
}

/* ---- geometry: the blocks from top to bottom ---- */

/* the two labels, the like-for-like note, the stale marker (their place is kept empty when
 * there is nothing to say: nothing moves), a gap, the section title */
#define NOTE_Y (MARGIN + 2 * LINE_H)
#define STALE_Y (MARGIN + 3 * LINE_H)
#define REFRESH_W 90.0

static double
headline_top (void)
{
  return MARGIN + 4 * LINE_H + 8 + LINE_H;
}

gboolean
zw_compile_compare_view_refresh_extent (int width, double *x0, double *y0, double *x1, double *y1)
{
  if (x0)
    *x0 = width - MARGIN - REFRESH_W;
  if (x1)
    *x1 = width - MARGIN;
  if (y0)
    *y0 = STALE_Y;
  if (y1)
    *y1 = STALE_Y + LINE_H;
  return width > 2 * MARGIN + REFRESH_W;
}

/* The time of the other side over the rows of @side's merged launch that starts at row
 * @index: what that launch is compared with (the ops' own times, merged ones left out). */
gboolean
zw_compile_compare_view_launch_other_ms (const ZwCompileCompare *cmp, guint index, gboolean b_side, double *ms,
                                         guint *n_ops)
{
  const ZwCompileOpRow *first;
  const ZwCompileOpSide *s;
  double sum = 0;
  guint n = 0;

  if (cmp == NULL || index >= cmp->rows->len)
    return FALSE;
  first = g_ptr_array_index (cmp->rows, index);
  s = b_side ? &first->b : &first->a;
  if (!s->present || !s->merged || !s->launch_first)
    return FALSE;
  for (guint i = index; i < cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, i);
      const ZwCompileOpSide *own = b_side ? &r->b : &r->a, *other = b_side ? &r->a : &r->b;

      if (own->present && (!own->merged || own->launch_op_id != s->launch_op_id))
        break;
      if (!own->present)
        continue;   /* an op of the other side only: not known to be in the launch */
      if (other->present && !other->merged && !isnan (other->ms))
        {
          sum += other->ms;
          n++;
        }
    }
  if (n == 0)
    return FALSE;
  if (ms)
    *ms = sum;
  if (n_ops)
    *n_ops = n;
  return TRUE;
}

char *
zw_compile_compare_view_mismatch_text (const ZwCompileCompare *cmp)
{
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;

  if (cmp == NULL)
    return NULL;
  if (g_strcmp0 (cmp->a.chip, cmp->b.chip) != 0)
    g_ptr_array_add (parts, g_strdup_printf (_("%s compiler vs %s"), cmp->a.chip, cmp->b.chip));
  if (cmp->a.merge_hardop != cmp->b.merge_hardop)
    g_ptr_array_add (parts, g_strdup_printf (_("merge %s vs %s: compare the launches (Σ rows)"),
                                             cmp->a.merge_hardop ? _("on") : _("off"),
                                             cmp->b.merge_hardop ? _("on") : _("off")));
  if (cmp->a.etm_optimize != cmp->b.etm_optimize)
    g_ptr_array_add (parts, g_strdup_printf (_("ETM optimize %s vs %s"), cmp->a.etm_optimize ? _("on") : _("off"),
                                             cmp->b.etm_optimize ? _("on") : _("off")));
  if (cmp->a.ocm_chosen != cmp->b.ocm_chosen)
    g_ptr_array_add (parts, g_strdup_printf (_("OCM %s vs %s"), zw_ocm_opt_to_string (cmp->a.ocm_chosen),
                                             zw_ocm_opt_to_string (cmp->b.ocm_chosen)));
  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  joined = g_strjoinv ("; ", (char **) parts->pdata);
  return g_strdup_printf (_("Not like for like: %s"), joined);
}

static double
totals_top (void)
{
  return headline_top () + G_N_ELEMENTS (headline) * HEADLINE_H + 8;
}

static double
ops_top (void)
{
  /* the totals' header and rows, a gap, two lines of summary, the group and column headers */
  return totals_top () + (1 + ZW_COMPILE_N_TOTALS) * LINE_H + 10 + 2 * LINE_H + 4 + 2 * ROW_H;
}

int
zw_compile_compare_view_content_height (const ZwCompileCompare *cmp)
{
  if (cmp == NULL)
    return 200;
  return (int) ceil (ops_top () + cmp->rows->len * ROW_H + MARGIN);
}

gboolean
zw_compile_compare_view_row_extent (const ZwCompileCompare *cmp, guint index, double *y0, double *y1)
{
  if (cmp == NULL || index >= cmp->rows->len)
    return FALSE;
  if (y0)
    *y0 = ops_top () + index * ROW_H;
  if (y1)
    *y1 = ops_top () + (index + 1) * ROW_H;
  return TRUE;
}

gint
zw_compile_compare_view_row_at (const ZwCompileCompare *cmp, double y)
{
  gint64 i;

  if (cmp == NULL || y < ops_top ())
    return -1;
  i = (gint64) ((y - ops_top ()) / ROW_H);
  return i < cmp->rows->len ? (gint) i : -1;
}

gboolean
zw_compile_compare_view_bar_extent (const ZwCompileCompare *cmp, int width, ZwCompileTotalKind kind, gboolean b_side,
                                    double *x0, double *y0, double *x1, double *y1)
{
  const ZwCompileTotal *t;
  double span, top, v, max;
  gint slot = -1;

  if (cmp == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (headline); i++)
    if (headline[i] == kind)
      slot = (gint) i;
  if (slot < 0)
    return FALSE;
  t = &cmp->totals[kind];
  v = b_side ? t->b : t->a;
  if (isnan (v))
    return FALSE;
  max = MAX (isnan (t->a) ? 0 : t->a, isnan (t->b) ? 0 : t->b);
  span = MAX (40.0, width - 2 * MARGIN - LABEL_W - VALUE_W);
  top = headline_top () + slot * HEADLINE_H + (b_side ? BAR_H + BAR_GAP : 0);
  if (x0)
    *x0 = MARGIN + LABEL_W;
  if (x1)
    *x1 = MARGIN + LABEL_W + (max > 0 ? span * v / max : 0);
  if (y0)
    *y0 = top;
  if (y1)
    *y1 = top + BAR_H;
  return TRUE;
}

/* ---- text ---- */

static char *
format_total (double v, ZwCompileUnit unit)
{
  if (isnan (v))
    return g_strdup ("–");
  switch (unit)
    {
    case ZW_COMPILE_UNIT_BYTES:
      {
        g_autofree char *human = zw_format_bytes ((guint64) v);
        return g_strdup_printf ("%s (%" G_GUINT64_FORMAT ")", human, (guint64) v);
      }
    case ZW_COMPILE_UNIT_COUNT: return g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) v);
    case ZW_COMPILE_UNIT_MS:
    default: return g_strdup_printf ("%.4f ms", v);
    }
}

static char *
format_ratio (double r)
{
  if (isnan (r))
    return g_strdup ("–");
  if (isinf (r))
    return g_strdup ("∞");
  return g_strdup_printf ("%.3f×", r);
}

static char *
side_description (const ZwCompileInfo *info)
{
  g_autofree char *label = zw_compile_info_label (info);

  return g_strdup_printf (_("%s — %s, merge %s, ETM optimize %s, OCM %s%s"), label, info->device_url,
                          info->merge_hardop ? _("on") : _("off"), info->etm_optimize ? _("on") : _("off"),
                          zw_ocm_opt_to_string (info->ocm_chosen),
                          info->has_profile ? "" : _(" (no forward: times unknown)"));
}

static char *
op_time_text (const ZwCompileOpSide *s)
{
  if (!s->present)
    return g_strdup ("");
  if (s->merged && !s->launch_first)
    return g_strdup (_("merged"));
  if (isnan (s->ms))
    return g_strdup ("–");
  if (s->merged)
    /* the whole launch's time: it cannot be split per op */
    return g_strdup_printf (_("%.4f (launch)"), s->ms);
  return g_strdup_printf ("%.4f", s->ms);
}

static char *
nchw_text (const gint64 nchw[4])
{
  if (nchw[0] < 0)
    return g_strdup ("?");
  return g_strdup_printf ("%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, nchw[0],
                          nchw[1], nchw[2], nchw[3]);
}

static char *
cell_text (const ZwCompileCompare *cmp, guint index, int col)
{
  const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, index);
  const ZwCompileOpSide *s = col >= COL_B_OP ? &r->b : &r->a;
  double sum;
  guint n;

  /* the first row of a merged launch: the other side's time is the sum over the launch's
   * ops, so that launch and ops compare like for like */
  if ((col == COL_A_MS || col == COL_B_MS)
      && zw_compile_compare_view_launch_other_ms (cmp, index, col == COL_A_MS, &sum, &n))
    return g_strdup_printf (ngettext ("Σ %.4f (%u op)", "Σ %.4f (%u ops)", n), sum, n);

  switch (col)
    {
    case COL_CLASS: return g_strdup (r->op_class);
    case COL_SHAPE: return nchw_text (r->a.present ? r->a.nchw : r->b.nchw);
    case COL_A_OP:
    case COL_B_OP: return s->present ? g_strdup_printf ("%" G_GINT64_FORMAT, s->op_id) : g_strdup ("");
    case COL_A_AT:
    case COL_B_AT: return g_strdup (zw_compile_place_to_string (s->place));
    case COL_A_MS:
    case COL_B_MS: return op_time_text (s);
    default: g_assert_not_reached ();
    }
}

/* ---- drawing ---- */

static void
swatch (cairo_t *cr, double x, double y, const GdkRGBA *color)
{
  zw_cairo_set_color (cr, color);
  cairo_rectangle (cr, x, y + 4, 10, 10);
  cairo_fill (cr);
}

static void
draw_headline (ZwPainter *p, const ZwCompileCompare *cmp, int width, const GdkRGBA *ca, const GdkRGBA *cb)
{
  cairo_t *cr = p->cr;
  GdkRGBA dim = p->style->foreground;

  dim.alpha *= 0.7f;
  zw_painter_set_bold (p, TRUE);
  zw_painter_text (p, MARGIN, headline_top () - LINE_H, 0, 0, width - 2 * MARGIN, NULL,
                   _("Headline figures (each pair of bars scaled to the larger of A and B)"));
  zw_painter_set_bold (p, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (headline); i++)
    {
      const ZwCompileTotal *t = &cmp->totals[headline[i]];
      double top = headline_top () + i * HEADLINE_H;
      g_autofree char *a = format_total (t->a, t->unit), *b = format_total (t->b, t->unit);
      g_autofree char *ratio = format_ratio (t->ratio);
      g_autofree char *b_text = g_strdup_printf ("B %s   B/A %s", b, ratio);
      g_autofree char *a_text = g_strdup_printf ("A %s", a);

      zw_painter_text (p, MARGIN, top + BAR_H + BAR_GAP / 2, 0, 0.5, LABEL_W - 8, NULL, _(t->label));
      for (int side = 0; side < 2; side++)
        {
          double x0, y0, x1, y1;
          if (!zw_compile_compare_view_bar_extent (cmp, width, headline[i], side == 1, &x0, &y0, &x1, &y1))
            continue;
          /* a sub-pixel bar is not drawn (a 0 stays visibly empty) */
          if (x1 - x0 >= 0.5)
            {
              zw_cairo_set_color (cr, side == 0 ? ca : cb);
              cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
              cairo_fill (cr);
            }
        }
      zw_painter_text (p, width - MARGIN - VALUE_W + 8, top + BAR_H / 2, 0, 0.5, VALUE_W - 8, &dim, a_text);
      zw_painter_text (p, width - MARGIN - VALUE_W + 8, top + BAR_H + BAR_GAP + BAR_H / 2, 0, 0.5, VALUE_W - 8,
                       t->ratio > 1 ? &p->style->warning : t->ratio < 1 ? &p->style->lower_bound : &dim, b_text);
    }
}

static void
draw_totals (ZwPainter *p, const ZwCompileCompare *cmp, int width)
{
  static const double w[] = { 200, 190, 190, 90 };
  double y = totals_top (), x;
  GdkRGBA dim = p->style->foreground;
  const char *titles[] = { _("Totals"), "A", "B", "B/A" };

  dim.alpha *= 0.7f;
  (void) width;
  zw_painter_set_bold (p, TRUE);
  x = MARGIN;
  for (guint c = 0; c < G_N_ELEMENTS (w); c++)
    {
      zw_painter_text (p, x + (c ? w[c] - 6 : 0), y + LINE_H / 2, c ? 1 : 0, 0.5, w[c] - 6, NULL, titles[c]);
      x += w[c];
    }
  zw_painter_set_bold (p, FALSE);
  y += LINE_H;
  for (guint k = 0; k < ZW_COMPILE_N_TOTALS; k++, y += LINE_H)
    {
      const ZwCompileTotal *t = &cmp->totals[k];
      g_autofree char *a = format_total (t->a, t->unit), *b = format_total (t->b, t->unit);
      g_autofree char *ratio = format_ratio (t->ratio);

      if (k % 2 == 1)
        {
          zw_cairo_set_color_alpha (p->cr, &p->style->grid, 0.30);
          cairo_rectangle (p->cr, MARGIN, y, w[0] + w[1] + w[2] + w[3], LINE_H);
          cairo_fill (p->cr);
        }
      x = MARGIN;
      zw_painter_text (p, x, y + LINE_H / 2, 0, 0.5, w[0] - 6, &dim, _(t->label));
      x += w[0];
      zw_painter_text (p, x + w[1] - 6, y + LINE_H / 2, 1, 0.5, w[1] - 6, NULL, a);
      x += w[1];
      zw_painter_text (p, x + w[2] - 6, y + LINE_H / 2, 1, 0.5, w[2] - 6, NULL, b);
      x += w[2];
      zw_painter_text (p, x + w[3] - 6, y + LINE_H / 2, 1, 0.5, w[3] - 6, NULL, ratio);
    }
}

void
zw_compile_compare_view_draw (cairo_t *cr, int width, int height, const ZwCompileCompare *cmp, gint selected,
                              const ZwViewStyle *colors)
{
  const GdkRGBA *ca, *cb;
  double y, max_ms = 0, clip_x0, clip_y0, clip_x1, clip_y1, ax0, ax1, bx0, bx1;
  ZwPainter p;
  GdkRGBA dim;
  char line[512];

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  if (cmp == NULL)
    {
      zw_draw_empty (&p, width, MIN (height, 200),
                     _("No second compile: use “Compare with Another Compile…” in the main menu"));
      goto out;
    }
  ca = &colors->segment[ZW_SEGMENT_WEIGHT];
  cb = &colors->segment[ZW_SEGMENT_FTMP];

  /* which compile is which */
  {
    g_autofree char *da = side_description (&cmp->a), *db = side_description (&cmp->b);
    swatch (cr, MARGIN, MARGIN, ca);
    swatch (cr, MARGIN, MARGIN + LINE_H, cb);
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN + 16, MARGIN, 0, 0, 24, NULL, "A");
    zw_painter_text (&p, MARGIN + 16, MARGIN + LINE_H, 0, 0, 24, NULL, "B");
    zw_painter_set_bold (&p, FALSE);
    zw_painter_text (&p, MARGIN + 34, MARGIN, 0, 0, width - 2 * MARGIN - 34, NULL, da);
    zw_painter_text (&p, MARGIN + 34, MARGIN + LINE_H, 0, 0, width - 2 * MARGIN - 34, NULL, db);
  }
  {
    g_autofree char *note = zw_compile_compare_view_mismatch_text (cmp);
    if (note != NULL)
      zw_painter_text (&p, MARGIN, NOTE_Y, 0, 0, width - 2 * MARGIN, &colors->warning, note);
  }
  draw_headline (&p, cmp, width, ca, cb);
  draw_totals (&p, cmp, width);

  /* the per-op table */
  y = totals_top () + (1 + ZW_COMPILE_N_TOTALS) * LINE_H + 10;
  g_snprintf (line, sizeof line,
              _("Hardops aligned by execution order on (class, logical n,c,h,w of the first output): %u aligned, "
                "%u only in A, %u only in B"),
              cmp->n_aligned, cmp->n_only_a, cmp->n_only_b);
  zw_painter_set_bold (&p, TRUE);
  zw_painter_text (&p, MARGIN, y, 0, 0, width - 2 * MARGIN, NULL, line);
  zw_painter_set_bold (&p, FALSE);
  zw_painter_text (&p, MARGIN, y + LINE_H, 0, 0, width - 2 * MARGIN, &dim,
                   _("Op ids differ between compiles. A merged launch's time cannot be split per op: it stands on "
                     "the launch's first op, beside the other side's sum over the launch (Σ); its other ops say "
                     "“merged”."));
  y = ops_top () - 2 * ROW_H;
  zw_compile_compare_view_side_columns (FALSE, &ax0, &ax1);
  zw_compile_compare_view_side_columns (TRUE, &bx0, &bx1);
  {
    g_autofree char *la = zw_compile_info_label (&cmp->a), *lb = zw_compile_info_label (&cmp->b);
    g_autofree char *ta = g_strdup_printf ("A: %s", la), *tb = g_strdup_printf ("B: %s", lb);
    zw_cairo_set_color_alpha (cr, ca, 0.35);
    cairo_rectangle (cr, ax0, y + 2, ax1 - ax0 - 2, ROW_H - 4);
    cairo_fill (cr);
    zw_cairo_set_color_alpha (cr, cb, 0.35);
    cairo_rectangle (cr, bx0, y + 2, bx1 - bx0 - 2, ROW_H - 4);
    cairo_fill (cr);
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, ax0 + 4, y + ROW_H / 2, 0, 0.5, ax1 - ax0 - 8, NULL, ta);
    zw_painter_text (&p, bx0 + 4, y + ROW_H / 2, 0, 0.5, bx1 - bx0 - 8, NULL, tb);
    zw_painter_text (&p, bx1 + 4, y + ROW_H / 2, 0, 0.5, width - MARGIN - bx1 - 8, NULL, _("A ◀ │ ▶ B"));
    zw_painter_set_bold (&p, FALSE);
  }
  y += ROW_H;
  for (int c = 0; c < N_COLS; c++)
    zw_painter_text (&p, col_x (c) + 4, y + ROW_H / 2, 0, 0.5, col_widths[c] - 8, &dim, _(col_titles[c]));
  zw_row_table_rule_row (cr, width, y, colors);
  y += ROW_H;

  /* the bars' scale: ops' own times (a merged launch's whole time would flatten the rest) */
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, i);
      if (r->a.present && !r->a.merged && !isnan (r->a.ms))
        max_ms = MAX (max_ms, r->a.ms);
      if (r->b.present && !r->b.merged && !isnan (r->b.ms))
        max_ms = MAX (max_ms, r->b.ms);
    }
  cairo_clip_extents (cr, &clip_x0, &clip_y0, &clip_x1, &clip_y1);
  for (guint i = 0; i < cmp->rows->len && y < height; i++, y += ROW_H)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (cmp->rows, i);
      double bars_x = bx1, bars_w = width - MARGIN - bx1;

      if (y + ROW_H < clip_y0 || y > clip_y1)
        continue;
      if (i % 2 == 1)
        zw_row_table_fill_row (cr, width, y, &colors->grid, 0.30);
      /* the side without this op: its cells shaded */
      if (r->side != ZW_COMPARE_BOTH)
        {
          double x0 = r->side == ZW_COMPARE_ONLY_A ? bx0 : ax0, x1 = r->side == ZW_COMPARE_ONLY_A ? bx1 : ax1;
          zw_cairo_set_color_alpha (cr, &colors->grid, 0.75);
          cairo_rectangle (cr, x0, y + 1, x1 - x0 - 2, ROW_H - 2);
          cairo_fill (cr);
        }
      if ((gint) i == selected)
        zw_row_table_outline_row (cr, width, y, 2, colors);
      for (int c = 0; c < N_COLS; c++)
        {
          g_autofree char *text = cell_text (cmp, i, c);
          const ZwCompileOpSide *s = c >= COL_B_OP ? &r->b : &r->a;
          const GdkRGBA *color = NULL;
          if ((c == COL_A_AT || c == COL_B_AT) && s->place == ZW_COMPILE_PLACE_OCM)
            color = &colors->ocm;
          else if ((c == COL_A_MS || c == COL_B_MS) && s->merged)
            color = &dim;
          if (*text != '\0')
            zw_painter_text (&p, col_x (c) + 4, y + ROW_H / 2, 0, 0.5, col_widths[c] - 8, color, text);
        }
      if (bars_w > 20 && max_ms > 0)
        {
          double mid = bars_x + bars_w / 2, half = bars_w / 2 - 4;
          double va = r->a.present && !isnan (r->a.ms) ? r->a.ms : 0, vb = r->b.present && !isnan (r->b.ms) ? r->b.ms : 0;
          double sum;

          /* a merged launch against the sum of the other side's ops over it */
          if (zw_compile_compare_view_launch_other_ms (cmp, i, FALSE, &sum, NULL))
            vb = sum;
          else if (zw_compile_compare_view_launch_other_ms (cmp, i, TRUE, &sum, NULL))
            va = sum;
          double wa = MIN (half, half * va / max_ms), wb = MIN (half, half * vb / max_ms);

          /* a whole merged launch is fainter: it is not this op's time */
          zw_cairo_set_color_alpha (cr, ca, r->a.merged ? 0.45 : 1.0);
          cairo_rectangle (cr, mid - wa, y + 4, wa, ROW_H - 8);
          cairo_fill (cr);
          zw_cairo_set_color_alpha (cr, cb, r->b.merged ? 0.45 : 1.0);
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

struct _ZwCompileCompareView
{
  ZwRowTable parent_instance;
  ZwCompileCompare *cmp;
  char *stale;                /* why A is not what the window shows now, NULL when current */
};

G_DEFINE_FINAL_TYPE (ZwCompileCompareView, zw_compile_compare_view, ZW_TYPE_ROW_TABLE)

/* ---- the row table: one row per aligned hardop ---- */

static guint
table_n_rows (ZwRowTable *table)
{
  ZwCompileCompareView *self = ZW_COMPILE_COMPARE_VIEW (table);
  return self->cmp != NULL ? self->cmp->rows->len : 0;
}

static void
table_draw (ZwRowTable *table, cairo_t *cr, int width, int height, gint selected, const ZwViewStyle *colors)
{
  ZwCompileCompareView *self = ZW_COMPILE_COMPARE_VIEW (table);
  double x0, y0, x1, y1;
  ZwPainter p;

  zw_compile_compare_view_draw (cr, width, height, self->cmp, selected, colors);
  if (self->cmp == NULL || self->stale == NULL)
    return;
  /* the stale marker on its reserved line, and the one-click refresh at its end */
  zw_painter_begin (&p, cr, colors);
  zw_compile_compare_view_refresh_extent (width, &x0, &y0, &x1, &y1);
  zw_painter_set_bold (&p, TRUE);
  zw_painter_text (&p, MARGIN, y0, 0, 0, x0 - 2 * MARGIN, &colors->warning, self->stale);
  zw_painter_set_bold (&p, FALSE);
  zw_cairo_set_color_alpha (cr, &colors->accent, 0.18);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_fill (cr);
  zw_cairo_set_color (cr, &colors->accent);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, x0 + 0.5, y0 + 0.5, x1 - x0 - 1, y1 - y0 - 1);
  cairo_stroke (cr);
  zw_painter_text (&p, (x0 + x1) / 2, (y0 + y1) / 2, 0.5, 0.5, x1 - x0 - 4, NULL, _("Refresh"));
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* A click on the drawn Refresh (shown while stale) compares again: the window's action. */
static gboolean
table_clicked (ZwRowTable *table, double x, double y)
{
  ZwCompileCompareView *self = ZW_COMPILE_COMPARE_VIEW (table);
  double x0, y0, x1, y1;

  if (self->cmp == NULL || self->stale == NULL
      || !zw_compile_compare_view_refresh_extent (gtk_widget_get_width (zw_row_table_get_area (table)), &x0, &y0, &x1,
                                                  &y1)
      || x < x0 || x > x1 || y < y0 || y > y1)
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.refresh-compiles", NULL);
  return TRUE;
}

void
zw_compile_compare_view_set_stale (ZwCompileCompareView *self, const char *reason)
{
  g_return_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self));
  if (g_strcmp0 (self->stale, reason) == 0)
    return;
  g_free (self->stale);
  self->stale = g_strdup (reason);
  zw_row_table_changed (ZW_ROW_TABLE (self), zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
}

const char *
zw_compile_compare_view_get_stale (ZwCompileCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self), NULL);
  return self->stale;
}

static int
table_content_height (ZwRowTable *table)
{
  return zw_compile_compare_view_content_height (ZW_COMPILE_COMPARE_VIEW (table)->cmp);
}

static gint
table_row_at (ZwRowTable *table, double x, double y)
{
  (void) x;
  return zw_compile_compare_view_row_at (ZW_COMPILE_COMPARE_VIEW (table)->cmp, y);
}

/* A's op id when the selection's report has it, else B's */
static gint64
table_row_id (ZwRowTable *table, guint row, ZwDeployReport *report)
{
  const ZwCompileOpRow *r = g_ptr_array_index (ZW_COMPILE_COMPARE_VIEW (table)->cmp->rows, row);

  return r->a.present && zw_deploy_report_find_op (report, r->a.op_id) != NULL   ? r->a.op_id
         : r->b.present && zw_deploy_report_find_op (report, r->b.op_id) != NULL ? r->b.op_id
                                                                                  : -1;
}

static gint
table_find_row (ZwRowTable *table, gint64 op)
{
  ZwCompileCompareView *self = ZW_COMPILE_COMPARE_VIEW (table);

  for (guint i = 0; self->cmp != NULL && i < self->cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (self->cmp->rows, i);
      if ((r->a.present && r->a.op_id == op) || (r->b.present && r->b.op_id == op))
        return (gint) i;
    }
  return -1;
}

void
zw_compile_compare_view_take_compare (ZwCompileCompareView *self, ZwCompileCompare *cmp)
{
  g_return_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self));
  if (cmp == self->cmp)
    return;
  g_clear_pointer (&self->cmp, zw_compile_compare_free);
  g_clear_pointer (&self->stale, g_free);   /* a new comparison is current */
  self->cmp = cmp;
  zw_row_table_changed (ZW_ROW_TABLE (self), -1);
}

void
zw_compile_compare_view_set_compiles (ZwCompileCompareView *self, const ZwDeployReport *a, const ZwProfile *pa,
                                      const ZwDeployReport *b, const ZwProfile *pb)
{
  g_return_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self));
  g_return_if_fail (a != NULL && b != NULL);
  zw_compile_compare_view_take_compare (self, zw_compare_compiles (a, pa, b, pb));
}

const ZwCompileCompare *
zw_compile_compare_view_get_compare (ZwCompileCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self), NULL);
  return self->cmp;
}

void
zw_compile_compare_view_select_row (ZwCompileCompareView *self, gint index)
{
  g_return_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self));
  zw_row_table_select_row (ZW_ROW_TABLE (self), index);
}

gint
zw_compile_compare_view_get_selected_row (ZwCompileCompareView *self)
{
  g_return_val_if_fail (ZW_IS_COMPILE_COMPARE_VIEW (self), -1);
  return zw_row_table_get_selected_row (ZW_ROW_TABLE (self));
}

static char *
csv_ms (const ZwCompileOpSide *s)
{
  return s->present && !isnan (s->ms) ? g_strdup_printf ("%.9g", s->ms) : g_strdup ("");
}

/* the view's table (CSV export): one row per row drawn, header first */
static GPtrArray *
view_table (ZwView *view)
{
  ZwCompileCompareView *self = ZW_COMPILE_COMPARE_VIEW (view);
  static const char *const titles[] = { N_("Side"), N_("Class"), N_("n,c,h,w"), N_("A op id"), N_("A at"),
                                        N_("A ms"), N_("A merged launch"), N_("B op id"), N_("B at"), N_("B ms"),
                                        N_("B merged launch") };
  static const char *sides[] = { "both", "A", "B" };
  const guint n = G_N_ELEMENTS (titles);
  GPtrArray *table = zw_row_table_rows_new (titles, n);

  for (guint i = 0; self->cmp != NULL && i < self->cmp->rows->len; i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (self->cmp->rows, i);
      const ZwCompileOpSide *s[2] = { &r->a, &r->b };
      char **cells = g_new0 (char *, n + 1);
      guint k = 0;

      cells[k++] = g_strdup (sides[r->side]);
      cells[k++] = g_strdup (r->op_class);
      cells[k++] = nchw_text (r->a.present ? r->a.nchw : r->b.nchw);
      for (guint j = 0; j < 2; j++)
        {
          cells[k++] = s[j]->present ? g_strdup_printf ("%" G_GINT64_FORMAT, s[j]->op_id) : g_strdup ("");
          cells[k++] = g_strdup (zw_compile_place_to_string (s[j]->place));
          cells[k++] = csv_ms (s[j]);
          cells[k++] = s[j]->merged ? g_strdup_printf ("%" G_GINT64_FORMAT, s[j]->launch_op_id) : g_strdup ("");
        }
      g_ptr_array_add (table, cells);
    }
  return table;
}

static void
zw_compile_compare_view_dispose (GObject *object)
{
  ZwCompileCompareView *self = ZW_COMPILE_COMPARE_VIEW (object);

  g_clear_pointer (&self->cmp, zw_compile_compare_free);
  g_clear_pointer (&self->stale, g_free);
  G_OBJECT_CLASS (zw_compile_compare_view_parent_class)->dispose (object);
}

static void
zw_compile_compare_view_class_init (ZwCompileCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwRowTableClass *table_class = ZW_ROW_TABLE_CLASS (klass);

  object_class->dispose = zw_compile_compare_view_dispose;
  table_class->content_width = MIN_WIDTH;
  table_class->n_rows = table_n_rows;
  table_class->draw = table_draw;
  table_class->content_height = table_content_height;
  table_class->row_at = table_row_at;
  table_class->row_id = table_row_id;
  table_class->find_row = table_find_row;
  table_class->clicked = table_clicked;
  gtk_widget_class_set_css_name (widget_class, "zwcompilecompareview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "compiles",
                          N_("Compiles"), N_("Compiles view"), ZW_VIEW_DATA_COMPILE_PAIR);
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_compile_compare_view_init (ZwCompileCompareView *self)
{
  zw_row_table_changed (ZW_ROW_TABLE (self), -1);
}

GtkWidget *
zw_compile_compare_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_COMPILE_COMPARE_VIEW, "selection", selection, NULL);
}
