/* zw-compare-draw.c — the Compare view's picture: the header line, totals, the deploy
 * block, the columns' titles and the rows shown (members of expanded launches included),
 * and where things are in it. Needs no display. */
#include "zw-compare-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

static const char *col_titles[N_COLS] = {
  N_("Op id"), N_("Class"), N_("A ms"), N_("B ms"), N_("Delta ms"), N_("Ratio"), N_("A ◀ │ ▶ B"),
};
/* the op id column's width is measured (zw_compare_view_op_id_width); the bars take the rest */
static const double col_widths[N_COLS] = { -1, 120, 90, 90, 90, 70, 0 };

/* Column @c's width when it starts at @left. */
static double
col_width (int c, double op_id_w, int width, double left)
{
  return c == COL_OP_ID ? op_id_w : col_widths[c] > 0 ? col_widths[c] : width - left - MARGIN;
}

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
zw_compare_draw_content_height (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows)
{
  return (int) ceil (rows_top (cmp, dcmp) + (cmp != NULL ? n_rows : 0) * ROW_H + MARGIN);
}

int
zw_compare_view_content_height (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp)
{
  return zw_compare_draw_content_height (cmp, dcmp, cmp != NULL ? cmp->rows->len : 0);
}

gboolean
zw_compare_draw_row_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows, guint index, double *y0,
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
  return zw_compare_draw_row_extent (cmp, dcmp, cmp != NULL ? cmp->rows->len : 0, index, y0, y1);
}

gint
zw_compare_draw_row_at (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows, double y)
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
  return zw_compare_draw_row_at (cmp, dcmp, cmp != NULL ? cmp->rows->len : 0, y);
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

static char *cell_text_of (const ZwCompareRow *r, CompareColumn column);

/* A row's cell; a pipeline's op is named by its network: "NET:OP_ID". */
static char *
cell_text (const ZwCompareRow *r, CompareColumn column)
{
  char *text = cell_text_of (r, column);

  if (column == COL_OP_ID && r->network != NULL)
    {
      char *named = g_strdup_printf ("%s:%s", r->network, text);
      g_free (text);
      return named;
    }
  return text;
}

static char *
cell_text_of (const ZwCompareRow *r, CompareColumn column)
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

/* @text with every digit the font's widest: a cell of this shape is at least as wide as any
 * of the numbers it stands for, so one measure serves every op id of its length. */
static char *
digits_widest (const char *text, char widest)
{
  char *shape = g_strdup (text);

  for (char *c = shape; *c; c++)
    if (g_ascii_isdigit (*c))
      *c = widest;
  return shape;
}

/* Measures @text's shape plus @extra into *@w, once per shape and extra (@seen). */
static void
measure_cell (ZwPainter *p, GHashTable *seen, const char *text, char widest, double extra, double *w)
{
  g_autofree char *shape = digits_widest (text, widest);

  if (g_hash_table_add (seen, g_strdup_printf ("%s\x01%g", shape, extra)))
    *w = MAX (*w, zw_painter_text_width (p, shape) + 8 + extra);
}

double
zw_compare_view_op_id_width (const ZwProfileCompare *cmp, const ZwViewStyle *colors)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *title = g_strdup_printf ("%s ▼", _(col_titles[COL_OP_ID]));
  double w, widest_w = 0;
  char widest = '0';
  ZwPainter p;

  g_return_val_if_fail (colors != NULL, 0);
  zw_painter_init (&p, cr, colors);
  for (char d = '0'; d <= '9'; d++)
    {
      char one[2] = { d, '\0' };
      double dw = zw_painter_text_width (&p, one);
      if (dw > widest_w)
        {
          widest_w = dw;
          widest = d;
        }
    }
  w = zw_painter_text_width (&p, title) + 8;
  for (guint i = 0; cmp != NULL && i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      gboolean launch = r->merge_from != NULL && r->merge_from->len > 1;
      g_autofree char *text = cell_text (r, COL_OP_ID);

      /* a launch's text starts after its expander, as drawn */
      measure_cell (&p, seen, text, widest, launch ? EXPANDER_W - 4 : 0, &w);
      for (guint k = 0; launch && k < r->merge_from->len; k++)
        {
          ZwCompareShownRow member = { .op_id = g_array_index (r->merge_from, gint64, k), .member = (gint) k };
          g_autofree char *m = member_cell_text (&member, COL_OP_ID);
          measure_cell (&p, seen, m, widest, 0, &w);
        }
    }
  zw_painter_clear (&p);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return MIN (ceil (w), ZW_COMPARE_OP_ID_MAX_WIDTH);
}

void
zw_compare_view_draw_header (cairo_t *cr, int width, double y, double op_id_w, gint sort_column, gboolean descending,
                             const ZwViewStyle *colors)
{
  ZwPainter p;
  double x = MARGIN;

  /* over what is drawn already: no background */
  cairo_save (cr);
  zw_painter_init (&p, cr, colors);
  for (int c = 0; c < N_COLS; c++)
    {
      double w = col_width (c, op_id_w, width, x);
      g_autofree char *title = c == sort_column ? g_strdup_printf ("%s %s", _(col_titles[c]), descending ? "▼" : "▲")
                                                 : g_strdup (_(col_titles[c]));
      /* the sorted column's title in the text colour, with its direction; a click sorts */
      zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, w - 8, c == sort_column ? NULL : &p.dim, title);
      x += w;
    }
  zw_row_table_rule_row (cr, width, y, colors);
  zw_painter_clear (&p);
  cairo_restore (cr);
}

gint
zw_compare_view_column_at (int width, double op_id_w, double x)
{
  double left = MARGIN;

  for (int c = 0; c < N_COLS; c++)
    {
      double w = col_width (c, op_id_w, width, left);
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

ZwCompareSortKey
zw_compare_draw_sort_key (gint column)
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

char *
zw_compare_draw_header (const ZwProfileCompare *cmp, const char *label_a, const char *label_b)
{
  g_autofree char *files = g_strdup_printf (_("A: %s    B: %s"), label_a != NULL ? label_a : "A",
                                            label_b != NULL ? label_b : "B");

  if (cmp == NULL || cmp->plan_network == NULL)
    return g_steal_pointer (&files);
  if (cmp->plan_merge_on_again)
    /* TRANSLATORS: after "A: FILE    B: FILE": the network open ran with merge off, so it
     * was planned again with merge on (no forward) to give a merged launch its ops */
    return g_strdup_printf (_("%s    (ops mapped through network %s's merge-on plan; the open run has merge off)"),
                            files, cmp->plan_network);
  /* TRANSLATORS: after "A: FILE    B: FILE": two bare time files' merged launches were
   * given their ops (and the ops their classes) by the network open in the workbench */
  return g_strdup_printf (_("%s    (ops mapped through the open network %s)"), files, cmp->plan_network);
}

void
zw_compare_view_draw_sorted (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp,
                             const ZwDeployCompare *dcmp, const char *label_a, const char *label_b, gint selected,
                             gint sort_column, gboolean descending, const ZwViewStyle *colors)
{
  g_autoptr (ZwCompareShown) shown = zw_compare_shown_new (cmp, NULL);

  zw_compare_view_draw_shown (cr, width, height, cmp, dcmp, shown, 0, label_a, label_b, selected, sort_column,
                              descending, colors);
}

void
zw_compare_view_draw_shown (cairo_t *cr, int width, int height, const ZwProfileCompare *cmp,
                            const ZwDeployCompare *dcmp, const ZwCompareShown *shown, double op_id_w,
                            const char *label_a, const char *label_b, gint selected, gint sort_column,
                            gboolean descending, const ZwViewStyle *colors)
{
  const char *la = label_a != NULL ? label_a : "A", *lb = label_b != NULL ? label_b : "B";
  double y, x, max_ms = 0, clip_x0, clip_y0, clip_x1, clip_y1;
  ZwPainter p;
  GdkRGBA dim;
  char line[512];
  g_autofree char *header = NULL;

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
  header = zw_compare_draw_header (cmp, la, lb);
  zw_painter_set_bold (&p, TRUE);
  zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN - SWAP_W, NULL, header);
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
  if (op_id_w <= 0)
    op_id_w = zw_compare_view_op_id_width (cmp, colors);
  y = rows_top (cmp, dcmp) - ROW_H;
  zw_compare_view_draw_header (cr, width, y, op_id_w, sort_column, descending, colors);
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
        /* a member under its launch: a faint band, never a verdict of its own */
        zw_row_table_fill_row (cr, width, y, &colors->grid, 0.15);
      else if (r->regression || r->improvement)
        zw_row_table_fill_row (cr, width, y, r->regression ? &colors->warning : &colors->lower_bound, 0.28);
      else if (i % 2 == 1)
        zw_row_table_fill_row (cr, width, y, &colors->grid, 0.30);
      if ((gint) i == selected)
        zw_row_table_outline_row (cr, width, y, 2, colors);
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
          zw_painter_text (&p, x + 4 + indent, y + ROW_H / 2, 0, 0.5, col_width (c, op_id_w, width, x) - 8 - indent,
                           member && estimated && c >= COL_A ? &dim
                           : !member && c == COL_DELTA && r->regression ? &colors->warning : NULL,
                           text);
          x += col_width (c, op_id_w, width, x);
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

