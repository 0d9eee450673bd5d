/* zw-dump-diff-view.c — per-value comparison of two dumps, first divergence highlighted. */
#include "zw-dump-diff-view.h"
#include "zw-dump-diff-job.h"
#include "zw-draw-area.h"
#include "zw-tensor-view.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MARGIN ZW_ROW_TABLE_MARGIN
#define LINE_H ZW_ROW_TABLE_LINE_H
#define ROW_H ZW_ROW_TABLE_ROW_H

typedef enum {
  COL_V_ID,
  COL_OP,
  COL_STATUS,
  COL_DIFFER,
  COL_MAX_ABS,
  COL_COSINE,
  COL_FIRST,
  N_COLS
} DiffColumn;

static const char *col_titles[N_COLS] = {
  N_("v_id"), N_("Op"), N_("Status"), N_("Elements differing"), N_("Max abs error"), N_("Cosine"),
  N_("First difference (n, c, h, w): A / B"),
};
static const double col_widths[N_COLS] = { 60, 60, 84, 120, 170, 90, 0 };

/* the header's lines above the warnings: what A and B are (when said), the counts, the
 * first divergence */
static guint
header_lines (const ZwDumpDiff *diff)
{
  return diff != NULL && (diff->name_a != NULL || diff->name_b != NULL) ? 3 : 2;
}

static double
rows_top (const ZwDumpDiff *diff)
{
  return MARGIN + header_lines (diff) * LINE_H + 6 + (diff != NULL ? diff->warnings->len : 0) * LINE_H + ROW_H;
}

char *
zw_dump_diff_view_dup_sides_text (const ZwDumpDiff *diff)
{
  if (diff == NULL || header_lines (diff) < 3)
    return NULL;
  /* TRANSLATORS: the dump diff's header: what its two sides are (runs or folders) */
  return g_strdup_printf (_("A: %s    B: %s"), diff->name_a != NULL ? diff->name_a : "?",
                          diff->name_b != NULL ? diff->name_b : "?");
}

int
zw_dump_diff_view_content_height (const ZwDumpDiff *diff)
{
  return (int) ceil (rows_top (diff) + (diff != NULL ? diff->entries->len : 0) * ROW_H + MARGIN);
}

gboolean
zw_dump_diff_view_row_extent (const ZwDumpDiff *diff, gint64 v_id, double *y0, double *y1)
{
  g_return_val_if_fail (diff != NULL, FALSE);
  for (guint i = 0; i < diff->entries->len; i++)
    if (((const ZwDumpDiffEntry *) g_ptr_array_index (diff->entries, i))->v_id == v_id)
      {
        if (y0)
          *y0 = rows_top (diff) + i * ROW_H;
        if (y1)
          *y1 = rows_top (diff) + (i + 1) * ROW_H;
        return TRUE;
      }
  return FALSE;
}

gint64
zw_dump_diff_view_value_at (const ZwDumpDiff *diff, double y)
{
  double top;
  gint64 i;

  if (diff == NULL)
    return -1;
  top = rows_top (diff);
  if (y < top)
    return -1;
  i = (gint64) ((y - top) / ROW_H);
  if (i >= diff->entries->len)
    return -1;
  return ((const ZwDumpDiffEntry *) g_ptr_array_index (diff->entries, i))->v_id;
}

static char *
cell_text (const ZwDumpDiffEntry *e, DiffColumn column)
{
  switch (column)
    {
    case COL_V_ID:
      /* a pipeline's value: "NET:V_ID" */
      return e->network != NULL ? g_strdup_printf ("%s:%" G_GINT64_FORMAT, e->network, e->v_id)
                                : g_strdup_printf ("%" G_GINT64_FORMAT, e->v_id);
    case COL_OP:
      return e->op_id >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, e->op_id) : g_strdup ("");
    case COL_STATUS:
      return g_strdup (e->status == ZW_DUMP_DIFF_COMPARED && e->diverges ? "diverges"
                                                                          : zw_dump_diff_status_to_string (e->status));
    case COL_DIFFER:
      return e->status == ZW_DUMP_DIFF_COMPARED
                 ? g_strdup_printf ("%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT, e->n_differ, e->n_compared)
                 : g_strdup ("");
    case COL_MAX_ABS:
      return e->status == ZW_DUMP_DIFF_COMPARED ? g_strdup_printf ("%.6g", e->max_abs_err) : g_strdup ("");
    case COL_COSINE:
      return e->status == ZW_DUMP_DIFF_COMPARED ? g_strdup_printf ("%.8f", e->cosine) : g_strdup ("");
    case COL_FIRST:
      if (e->status != ZW_DUMP_DIFF_COMPARED || e->n_differ == 0)
        return g_strdup ("");
      if (e->first_has_q)
        return g_strdup_printf ("(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                "): %.9g / %.9g (q %" G_GINT64_FORMAT " / %" G_GINT64_FORMAT ")",
                                e->first_coords[0], e->first_coords[1], e->first_coords[2], e->first_coords[3],
                                e->first_a, e->first_b, e->first_qa, e->first_qb);
      return g_strdup_printf ("(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                              "): %.9g / %.9g",
                              e->first_coords[0], e->first_coords[1], e->first_coords[2], e->first_coords[3],
                              e->first_a, e->first_b);
    default:
      g_assert_not_reached ();
    }
}

void
zw_dump_diff_view_draw (cairo_t *cr, int width, int height, const ZwDumpDiff *diff, gint64 selected_v_id,
                        const ZwViewStyle *colors)
{
  double y, x, clip_y0, clip_y1, clip_x0, clip_x1, max_err = 0, top = MARGIN;
  ZwPainter p;
  GdkRGBA dim;
  char line[512];
  g_autofree char *sides = NULL;

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  if (diff == NULL)
    {
      zw_draw_empty (&p, width, MIN (height, 200), _("No dump comparison"));
      goto out;
    }

  if ((sides = zw_dump_diff_view_dup_sides_text (diff)) != NULL)
    {
      zw_painter_set_bold (&p, TRUE);
      zw_painter_text (&p, MARGIN, top, 0, 0, width - 2 * MARGIN, NULL, sides);
      zw_painter_set_bold (&p, FALSE);
      top += LINE_H;
    }
  g_snprintf (line, sizeof line,
              _("%u compared, %u diverged, %u only in A, %u only in B, %u not comparable (thresholds: abs %g, cosine %g)"),
              diff->n_compared, diff->n_diverged, diff->n_only_a, diff->n_only_b, diff->n_mismatch,
              diff->options.max_abs, diff->options.cosine);
  zw_painter_text (&p, MARGIN, top, 0, 0, width - 2 * MARGIN, NULL, line);
  zw_painter_set_bold (&p, TRUE);
  if (diff->first != NULL)
    {
      const ZwDumpDiffEntry *f = diff->first;
      g_snprintf (line, sizeof line,
                  _("First divergence: v_id %lld (op %lld) at (n %lld, c %lld, h %lld, w %lld): A %.9g, B %.9g"),
                  (long long) f->v_id, (long long) f->op_id, (long long) f->first_coords[0],
                  (long long) f->first_coords[1], (long long) f->first_coords[2], (long long) f->first_coords[3],
                  f->first_a, f->first_b);
      zw_painter_text (&p, MARGIN, top + LINE_H, 0, 0, width - 2 * MARGIN, &colors->warning, line);
    }
  else
    zw_painter_text (&p, MARGIN, top + LINE_H, 0, 0, width - 2 * MARGIN, &colors->lower_bound,
                     _("No value diverges"));
  zw_painter_set_bold (&p, FALSE);
  y = top + 2 * LINE_H + 6;
  for (guint i = 0; i < diff->warnings->len; i++, y += LINE_H)
    zw_painter_text (&p, MARGIN, y, 0, 0, width - 2 * MARGIN, &colors->warning, g_ptr_array_index (diff->warnings, i));

  x = MARGIN;
  for (int c = 0; c < N_COLS; c++)
    {
      double w = col_widths[c] > 0 ? col_widths[c] : width - x - MARGIN;
      zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, w - 8, &dim, _(col_titles[c]));
      x += w;
    }
  zw_row_table_rule_row (cr, width, y, colors);
  y += ROW_H;

  for (guint i = 0; i < diff->entries->len; i++)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (diff->entries, i);
      if (e->status == ZW_DUMP_DIFF_COMPARED && isfinite (e->max_abs_err))
        max_err = MAX (max_err, e->max_abs_err);
    }
  /* a scrolled window shows a strip of a tall drawing: draw only the rows in the clip */
  cairo_clip_extents (cr, &clip_x0, &clip_y0, &clip_x1, &clip_y1);
  for (guint i = 0; i < diff->entries->len && y < height; i++, y += ROW_H)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (diff->entries, i);
      const GdkRGBA *fg = e->diverges ? &colors->warning : NULL;

      if (y + ROW_H < clip_y0 || y > clip_y1)
        continue;
      if (e == diff->first)
        {
          zw_row_table_fill_row (cr, width, y, &colors->warning, 0.30);
          fg = NULL;
        }
      else if (e->v_id == selected_v_id)
        zw_row_table_fill_row (cr, width, y, &colors->accent, 0.30);
      else if (i % 2 == 1)
        zw_row_table_fill_row (cr, width, y, &colors->grid, 0.30);
      if (e->v_id == selected_v_id)
        zw_row_table_outline_row (cr, width, y, 1, colors);
      x = MARGIN;
      zw_painter_set_bold (&p, e == diff->first);
      for (int c = 0; c < N_COLS; c++)
        {
          double w = col_widths[c] > 0 ? col_widths[c] : width - x - MARGIN;
          g_autofree char *text = cell_text (e, (DiffColumn) c);

          if (c == COL_MAX_ABS && e->status == ZW_DUMP_DIFF_COMPARED && e->max_abs_err > 0)
            {
              /* log scale over 9 decades below the largest error */
              double frac = !isfinite (e->max_abs_err) || max_err <= 0
                                ? 1
                                : CLAMP (1 + log10 (e->max_abs_err / max_err) / 9, 0.05, 1);
              zw_cairo_set_color_alpha (cr, &colors->warning, 0.45);
              cairo_rectangle (cr, x + 70, y + 4, (w - 76) * frac, ROW_H - 8);
              cairo_fill (cr);
            }
          zw_painter_text (&p, x + 4, y + ROW_H / 2, 0, 0.5, c == COL_MAX_ABS ? 66 : w - 8, fg, text);
          x += w;
        }
      zw_painter_set_bold (&p, FALSE);
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- heatmaps of the selected row ---- */

typedef struct {
  gint64 n, c, h, w;         /* the coordinates shown */
  gint64 r0, c0, rows, cols; /* the window of the channel */
  double panel_w, top, scale;
} HeatGeometry;

#define HEAT_LEGEND_H 18.0

static gboolean
heat_geometry (const ZwDumpDiffHeatmaps *hm, int width, int height, HeatGeometry *g)
{
  const ZwTensor *t;
  double ph;

  if (hm == NULL || hm->entry == NULL || hm->a == NULL || hm->b == NULL
      || hm->entry->status != ZW_DUMP_DIFF_COMPARED)
    return FALSE;
  t = hm->a;
  if (t->h <= 0 || t->w <= 0 || t->c <= 0 || t->n <= 0 || hm->b->h != t->h || hm->b->w != t->w)
    return FALSE;
  if (hm->entry->n_differ > 0)
    {
      g->n = hm->entry->first_coords[0];
      g->c = hm->entry->first_coords[1];
      g->h = hm->entry->first_coords[2];
      g->w = hm->entry->first_coords[3];
    }
  else
    g->n = g->c = g->h = g->w = 0;
  if (g->n >= t->n || g->c >= t->c || g->h >= t->h || g->w >= t->w)
    return FALSE;
  g->rows = MIN (t->h, ZW_DUMP_DIFF_HEATMAP_SPAN);
  g->cols = MIN (t->w, ZW_DUMP_DIFF_HEATMAP_SPAN);
  g->r0 = CLAMP (g->h - g->rows / 2, 0, t->h - g->rows);
  g->c0 = CLAMP (g->w - g->cols / 2, 0, t->w - g->cols);
  g->panel_w = floor ((width - 4 * MARGIN) / 3);
  g->top = MARGIN + 2 * LINE_H + 4;
  ph = height - g->top - HEAT_LEGEND_H - MARGIN;
  g->scale = MIN (g->panel_w / g->cols, ph / g->rows);
  if (g->scale >= 1)
    g->scale = floor (g->scale);   /* whole pixels per element: every cell the same */
  return g->scale > 0;
}

gboolean
zw_dump_diff_view_heatmap_cell (const ZwDumpDiffHeatmaps *hm, int width, int height, int which, gint64 h, gint64 w,
                                double rect[4])
{
  HeatGeometry g;

  if (!heat_geometry (hm, width, height, &g) || which < 0 || which > 2 || h < g.r0 || h >= g.r0 + g.rows
      || w < g.c0 || w >= g.c0 + g.cols)
    return FALSE;
  rect[0] = floor (MARGIN + which * (g.panel_w + MARGIN)) + floor ((w - g.c0) * g.scale);
  rect[1] = floor (g.top) + floor ((h - g.r0) * g.scale);
  rect[2] = g.scale;
  rect[3] = g.scale;
  return TRUE;
}

/* The window of channel (n, c) of @t, row-major; NULL when it cannot be read. */
static float *
heat_window (const ZwTensor *t, const HeatGeometry *g)
{
  g_autofree float *plane = zw_tensor_heatmap (t, g->n, g->c, FALSE, NULL);
  float *out;

  if (plane == NULL)
    return NULL;
  out = g_new (float, g->rows * g->cols);
  for (gint64 r = 0; r < g->rows; r++)
    memcpy (out + r * g->cols, plane + (g->r0 + r) * t->w + g->c0, sizeof (float) * g->cols);
  return out;
}

void
zw_dump_diff_view_draw_heatmaps (cairo_t *cr, int width, int height, const ZwDumpDiffHeatmaps *hm,
                                 const ZwViewStyle *colors)
{
  g_autofree float *va = NULL, *vb = NULL, *vd = NULL;
  double lo = INFINITY, hi = -INFINITY, dmax = 0;
  const float *grids[3];
  ZwPainter p;
  HeatGeometry g;
  GdkRGBA dim;
  char line[512];

  g_return_if_fail (cr != NULL && colors != NULL);
  zw_painter_begin (&p, cr, colors);
  dim = p.dim;
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_fill (cr);
  if (hm == NULL || hm->entry == NULL)
    {
      zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, &dim,
                       _("Select a value to see A, B and |A−B| at its first difference"));
      goto out;
    }
  if (!heat_geometry (hm, width, height, &g) || (va = heat_window (hm->a, &g)) == NULL
      || (vb = heat_window (hm->b, &g)) == NULL)
    {
      g_snprintf (line, sizeof line, _("v_id %li: not compared element by element, no heatmaps"), (long) hm->entry->v_id);
      zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, &dim, line);
      goto out;
    }
  vd = g_new (float, g.rows * g.cols);
  for (gint64 i = 0; i < g.rows * g.cols; i++)
    {
      vd[i] = fabsf (va[i] - vb[i]);
      if (isfinite (va[i]))
        lo = MIN (lo, va[i]), hi = MAX (hi, va[i]);
      if (isfinite (vb[i]))
        lo = MIN (lo, vb[i]), hi = MAX (hi, vb[i]);
      if (isfinite (vd[i]))
        dmax = MAX (dmax, vd[i]);
    }
  if (!(lo <= hi))
    lo = hi = 0;
  if (hm->entry->n_differ > 0)
    g_snprintf (line, sizeof line,
                _("v_id %li, channel %li of batch %li around its first difference (h %li, w %li): A %.9g, B %.9g"),
                (long) hm->entry->v_id, (long) g.c, (long) g.n, (long) g.h, (long) g.w, hm->entry->first_a,
                hm->entry->first_b);
  else
    g_snprintf (line, sizeof line, _("v_id %li, channel %li of batch %li: A and B are equal"), (long) hm->entry->v_id,
                (long) g.c, (long) g.n);
  zw_painter_set_bold (&p, TRUE);
  zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width - 2 * MARGIN, NULL, line);
  zw_painter_set_bold (&p, FALSE);
  grids[0] = va;
  grids[1] = vb;
  grids[2] = vd;
  for (int k = 0; k < 3; k++)
    {
      double x = floor (MARGIN + k * (g.panel_w + MARGIN)), y = floor (g.top);
      double r[4];
      g_autofree char *title = k == 0   ? g_strdup_printf (_("A: %s"), hm->name_a != NULL ? hm->name_a : "")
                               : k == 1 ? g_strdup_printf (_("B: %s"), hm->name_b != NULL ? hm->name_b : "")
                                        : g_strdup (_("|A−B|"));
      g_autofree char *legend = NULL;

      zw_painter_text (&p, x, MARGIN + LINE_H, 0, 0, g.panel_w, k == 2 ? &colors->warning : NULL, title);
      zw_tensor_view_paint_grid (cr, x, y, g.scale, grids[k], g.rows, g.cols, k == 2 ? 0 : lo, k == 2 ? dmax : hi);
      if (zw_dump_diff_view_heatmap_cell (hm, width, height, k, g.h, g.w, r) && hm->entry->n_differ > 0)
        {
          /* the first differing element, outlined outside its cell */
          zw_cairo_set_color (cr, &colors->warning);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, r[0] - 1, r[1] - 1, r[2] + 2, r[3] + 2);
          cairo_stroke (cr);
        }
      legend = g_strdup_printf (_("h %li–%li, w %li–%li · colour %.4g … %.4g"), (long) g.r0,
                                (long) (g.r0 + g.rows - 1), (long) g.c0, (long) (g.c0 + g.cols - 1), k == 2 ? 0 : lo,
                                k == 2 ? dmax : hi);
      zw_painter_text (&p, x, y + g.rows * g.scale + 4, 0, 0, g.panel_w, &dim, legend);
    }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* ---- widget ---- */

struct _ZwDumpDiffView
{
  ZwRowTable parent_instance;
  ZwDumpDiff *diff;
  GPtrArray *side_a, *side_b;   /* ZwTensor*: the values compared (NULL after set_diff) */
  char *name_a, *name_b;
  GtkWidget *heat;              /* the heatmaps under the table */
  /* a diff running in a worker (zw_dump_diff_view_load_async) */
  ZwDumpDiffJob *job;
  GCancellable *cancellable;
  guint progress_source;
  GtkWidget *progress_box, *progress_bar, *cancel_button;
};

G_DEFINE_FINAL_TYPE (ZwDumpDiffView, zw_dump_diff_view, ZW_TYPE_ROW_TABLE)

/* ---- the row table: one row per value, in execution order ---- */

static const ZwDumpDiffEntry *
row_entry (ZwDumpDiffView *self, gint row)
{
  return row >= 0 ? g_ptr_array_index (self->diff->entries, row) : NULL;
}

/* the v_id of row @row, -1 for none */
static gint64
row_value (ZwDumpDiffView *self, gint row)
{
  const ZwDumpDiffEntry *e = row_entry (self, row);
  return e != NULL ? e->v_id : -1;
}

static guint
table_n_rows (ZwRowTable *table)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (table);
  return self->diff != NULL ? self->diff->entries->len : 0;
}

static void
table_draw (ZwRowTable *table, cairo_t *cr, int width, int height, gint selected, const ZwViewStyle *colors)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (table);
  zw_dump_diff_view_draw (cr, width, height, self->diff, row_value (self, selected), colors);
}

static int
table_content_height (ZwRowTable *table)
{
  return zw_dump_diff_view_content_height (ZW_DUMP_DIFF_VIEW (table)->diff);
}

static gint
table_row_at (ZwRowTable *table, double x, double y)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (table);
  (void) x;
  return zw_row_table_find_row (table, zw_dump_diff_view_value_at (self->diff, y));
}

static gint64
table_row_id (ZwRowTable *table, guint row, ZwDeployReport *report)
{
  (void) report;
  return row_value (ZW_DUMP_DIFF_VIEW (table), (gint) row);
}

static gboolean
table_row_extent (ZwRowTable *table, guint row, double *y0, double *y1)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (table);
  return zw_dump_diff_view_row_extent (self->diff, row_value (self, (gint) row), y0, y1);
}

/* the heatmaps are the selected row's */
static void
table_selected_changed (ZwRowTable *table)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (table);
  if (self->heat != NULL)
    zw_draw_area_invalidate (ZW_DRAW_AREA (self->heat));
}

static const ZwTensor *
side_find (GPtrArray *side, const char *network, gint64 v_id)
{
  for (guint i = 0; side != NULL && i < side->len; i++)
    {
      const ZwTensor *t = g_ptr_array_index (side, i);
      if (t->v_id == v_id && g_strcmp0 (t->network, network) == 0)
        return t;
    }
  return NULL;
}

void
zw_dump_diff_view_get_heatmaps (ZwDumpDiffView *self, ZwDumpDiffHeatmaps *out)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self) && out != NULL);
  memset (out, 0, sizeof *out);
  out->name_a = self->name_a;
  out->name_b = self->name_b;
  out->entry = self->diff != NULL ? row_entry (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self))) : NULL;
  if (out->entry != NULL)
    {
      out->a = side_find (self->side_a, out->entry->network, out->entry->v_id);
      out->b = side_find (self->side_b, out->entry->network, out->entry->v_id);
    }
}

static void
heat_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwDumpDiffHeatmaps hm;

  zw_dump_diff_view_get_heatmaps (ZW_DUMP_DIFF_VIEW (user_data), &hm);
  zw_dump_diff_view_draw_heatmaps (cr, width, height, &hm, colors);
}

static void
set_diff_and_sides (ZwDumpDiffView *self, ZwDumpDiff *diff, GPtrArray *side_a, GPtrArray *side_b, const char *name_a,
                    const char *name_b)
{
  g_clear_pointer (&self->side_a, g_ptr_array_unref);
  g_clear_pointer (&self->side_b, g_ptr_array_unref);
  g_clear_pointer (&self->name_a, g_free);
  g_clear_pointer (&self->name_b, g_free);
  zw_dump_diff_view_set_diff (self, diff);
  self->side_a = side_a;
  self->side_b = side_b;
  self->name_a = g_strdup (name_a);
  self->name_b = g_strdup (name_b);
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->heat));
}

void
zw_dump_diff_view_set_diff (ZwDumpDiffView *self, ZwDumpDiff *diff)
{
  gint64 first;

  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  if (diff != self->diff)
    {
      /* sides given with another diff belong to that one */
      g_clear_pointer (&self->side_a, g_ptr_array_unref);
      g_clear_pointer (&self->side_b, g_ptr_array_unref);
    }
  if (diff != self->diff)
    g_clear_pointer (&self->diff, zw_dump_diff_free);
  self->diff = diff;
  /* the first divergent value is selected (the heatmaps show it) */
  first = diff != NULL && diff->first != NULL ? diff->first->v_id : -1;
  zw_row_table_changed (ZW_ROW_TABLE (self), zw_row_table_find_row (ZW_ROW_TABLE (self), first));
}

gboolean
zw_dump_diff_view_load (ZwDumpDiffView *self, const char *dir_a, const char *dir_b, XirNetwork *network,
                        const char *format, const ZwDumpDiffOptions *options, GError **error)
{
  g_autoptr (ZwDumpFolder) fa = NULL, fb = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *ta, *tb;
  ZwDumpDiff *diff;

  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), FALSE);
  g_return_val_if_fail (dir_a != NULL && dir_b != NULL, FALSE);
  /* zw_dump_diff_folders(), keeping both sides for the heatmaps */
  fa = zw_dump_folder_load (dir_a, network, format, error);
  if (fa == NULL)
    return FALSE;
  fb = zw_dump_folder_load (dir_b, network, format, error);
  if (fb == NULL)
    return FALSE;
  ta = zw_dump_diff_load_side (fa, network, warnings);
  tb = zw_dump_diff_load_side (fb, network, warnings);
  diff = zw_dump_diff_tensors (ta, tb, network, options, warnings);
  zw_dump_diff_set_names (diff, dir_a, dir_b);
  set_diff_and_sides (self, diff, ta, tb, dir_a, dir_b);
  return TRUE;
}

/* ---- a diff in a worker, its progress over the table ---- */

static gboolean
progress_tick (gpointer data)
{
  ZwDumpDiffView *self = data;
  double fraction;
  char text[96];

  if (self->job == NULL || self->progress_bar == NULL)
    {
      self->progress_source = 0;
      return G_SOURCE_REMOVE;
    }
  fraction = zw_dump_diff_job_get_fraction (self->job);
  if (fraction < 0)
    {
      gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress_bar));
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), _("Loading the dumps…"));
    }
  else
    {
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
      /* TRANSLATORS: the Dump Diff view's progress: the share of the values' elements compared */
      g_snprintf (text, sizeof text, _("Comparing values… %.0f %%"), floor (fraction * 100));
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
    }
  return G_SOURCE_CONTINUE;
}

/* The job shown ends (done, failed or superseded): no progress over the table. */
static void
job_ended (ZwDumpDiffView *self)
{
  g_clear_pointer (&self->job, zw_dump_diff_job_unref);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  if (self->progress_box != NULL)
    gtk_widget_set_visible (self->progress_box, FALSE);
}

static void
on_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GTask) outer = user_data;
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (source);
  ZwDumpDiffJob *job = g_task_get_task_data (outer);
  GError *error = NULL;
  gboolean ok = zw_dump_diff_job_run_finish (result, &error);

  if (job != self->job)
    {
      /* superseded by a newer load (or the view went): this one's result is not shown */
      if (ok)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The dump diff was cancelled"));
      g_task_return_error (outer, error);
      return;
    }
  job_ended (self);
  if (!ok)
    {
      g_task_return_error (outer, error);
      return;
    }
  set_diff_and_sides (self, zw_dump_diff_job_steal_diff (job), zw_dump_diff_job_steal_side (job, 0),
                      zw_dump_diff_job_steal_side (job, 1), zw_dump_diff_job_get_dir (job, 0),
                      zw_dump_diff_job_get_dir (job, 1));
  g_task_return_boolean (outer, TRUE);
}

void
zw_dump_diff_view_load_async (ZwDumpDiffView *self, const char *dir_a, const char *dir_b, XirNetwork *network,
                              const char *format, const ZwDumpDiffOptions *options, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  GTask *outer;
  ZwDumpDiffJob *job;

  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  g_return_if_fail (dir_a != NULL && dir_b != NULL);
  /* a newer load replaces the one running */
  zw_dump_diff_view_cancel (self);
  job = zw_dump_diff_job_new (dir_a, dir_b, network, format, options);
  outer = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (outer, zw_dump_diff_view_load_async);
  g_task_set_task_data (outer, zw_dump_diff_job_ref (job), (GDestroyNotify) zw_dump_diff_job_unref);
  self->job = job;
  self->cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), _("Loading the dumps…"));
  gtk_widget_set_visible (self->progress_box, TRUE);
  self->progress_source = g_timeout_add (50, progress_tick, self);
  zw_dump_diff_job_run_async (job, self, self->cancellable, on_job_done, outer);
}

gboolean
zw_dump_diff_view_load_finish (ZwDumpDiffView *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
zw_dump_diff_view_get_running (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), FALSE);
  return self->job != NULL;
}

double
zw_dump_diff_view_get_progress (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), -1);
  return self->job != NULL ? zw_dump_diff_job_get_fraction (self->job) : -1;
}

void
zw_dump_diff_view_cancel (ZwDumpDiffView *self)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  if (self->job == NULL)
    return;
  /* the worker stops between two values; its callback still comes, with CANCELLED */
  g_cancellable_cancel (self->cancellable);
  job_ended (self);
}

GtkWidget *
zw_dump_diff_view_get_progress_bar (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), NULL);
  return self->progress_bar;
}

GtkWidget *
zw_dump_diff_view_get_cancel_button (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), NULL);
  return self->cancel_button;
}

void
zw_dump_diff_view_set_names (ZwDumpDiffView *self, const char *name_a, const char *name_b)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  if (self->diff != NULL)
    zw_dump_diff_set_names (self->diff, name_a, name_b);
  g_free (self->name_a);
  g_free (self->name_b);
  self->name_a = g_strdup (name_a);
  self->name_b = g_strdup (name_b);
  /* the header grew or shrank: the rows move */
  zw_row_table_changed (ZW_ROW_TABLE (self), zw_row_table_get_selected_row (ZW_ROW_TABLE (self)));
  zw_draw_area_invalidate (ZW_DRAW_AREA (self->heat));
}

const ZwDumpDiff *
zw_dump_diff_view_get_diff (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), NULL);
  return self->diff;
}

void
zw_dump_diff_view_select_value (ZwDumpDiffView *self, gint64 v_id)
{
  g_return_if_fail (ZW_IS_DUMP_DIFF_VIEW (self));
  zw_row_table_select_row (ZW_ROW_TABLE (self), zw_row_table_find_row (ZW_ROW_TABLE (self), v_id));
}

gint64
zw_dump_diff_view_get_selected_value (ZwDumpDiffView *self)
{
  g_return_val_if_fail (ZW_IS_DUMP_DIFF_VIEW (self), -1);
  return self->diff != NULL ? row_value (self, zw_row_table_get_selected_row (ZW_ROW_TABLE (self))) : -1;
}

/* the view's table (CSV export): one row per row drawn, header first */
static GPtrArray *
view_table (ZwView *view)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (view);
  GPtrArray *table = zw_row_table_rows_new (col_titles, N_COLS);

  for (guint i = 0; self->diff != NULL && i < self->diff->entries->len; i++)
    {
      char **cells = g_new0 (char *, N_COLS + 1);
      for (int c = 0; c < N_COLS; c++)
        cells[c] = cell_text (g_ptr_array_index (self->diff->entries, i), (DiffColumn) c);
      g_ptr_array_add (table, cells);
    }
  return table;
}

/* the view's content for exports: the table, and the heatmaps under it when a row is open */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (view);
  ZwDumpDiffHeatmaps hm;
  int table_h;

  /* the table, and the heatmaps under it when a row is open */
  zw_dump_diff_view_get_heatmaps (self, &hm);
  table_h = hm.entry != NULL && height > 2 * ZW_DUMP_DIFF_HEATMAPS_HEIGHT ? height - ZW_DUMP_DIFF_HEATMAPS_HEIGHT
                                                                           : height;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, table_h);
  cairo_clip (cr);
  zw_dump_diff_view_draw (cr, width, table_h, self->diff, zw_dump_diff_view_get_selected_value (self), colors);
  cairo_restore (cr);
  if (table_h < height)
    {
      cairo_save (cr);
      cairo_translate (cr, 0, table_h);
      cairo_rectangle (cr, 0, 0, width, height - table_h);
      cairo_clip (cr);
      zw_dump_diff_view_draw_heatmaps (cr, width, height - table_h, &hm, colors);
      cairo_restore (cr);
    }
}

static void
zw_dump_diff_view_dispose (GObject *object)
{
  ZwDumpDiffView *self = ZW_DUMP_DIFF_VIEW (object);

  zw_dump_diff_view_cancel (self);
  self->progress_box = self->progress_bar = self->cancel_button = NULL;
  self->heat = NULL;
  g_clear_pointer (&self->diff, zw_dump_diff_free);
  g_clear_pointer (&self->side_a, g_ptr_array_unref);
  g_clear_pointer (&self->side_b, g_ptr_array_unref);
  g_clear_pointer (&self->name_a, g_free);
  g_clear_pointer (&self->name_b, g_free);
  G_OBJECT_CLASS (zw_dump_diff_view_parent_class)->dispose (object);
}

static void
zw_dump_diff_view_class_init (ZwDumpDiffViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  ZwRowTableClass *table_class = ZW_ROW_TABLE_CLASS (klass);

  object_class->dispose = zw_dump_diff_view_dispose;
  table_class->follows = "selected-value";
  table_class->n_rows = table_n_rows;
  table_class->draw = table_draw;
  table_class->content_height = table_content_height;
  table_class->row_at = table_row_at;
  table_class->row_id = table_row_id;
  table_class->row_extent = table_row_extent;
  table_class->selected_changed = table_selected_changed;
  gtk_widget_class_set_css_name (widget_class, "zwdumpdiffview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "diff", N_("Dump Diff"), N_("Dump diff view"), ZW_VIEW_DATA_DUMP_PAIR);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_dump_diff_view_init (ZwDumpDiffView *self)
{
  GtkWidget *scrolled, *paned, *overlay;

  /* the table above, the selected row's heatmaps below */
  scrolled = gtk_widget_get_parent (zw_row_table_get_area (ZW_ROW_TABLE (self)));
  while (scrolled != NULL && !GTK_IS_SCROLLED_WINDOW (scrolled))
    scrolled = gtk_widget_get_parent (scrolled);
  g_assert (scrolled != NULL);
  g_object_ref (scrolled);
  gtk_widget_unparent (scrolled);
  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scrolled);
  g_object_unref (scrolled);
  self->heat = zw_draw_area_new (heat_draw, NULL, self);
  gtk_widget_set_size_request (self->heat, 400, ZW_DUMP_DIFF_HEATMAPS_HEIGHT);
  gtk_paned_set_end_child (GTK_PANED (paned), self->heat);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (scrolled, TRUE);
  /* a long diff's progress and its Cancel lie over the table (nothing moves) */
  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), paned);
  self->progress_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_add_css_class (self->progress_box, "osd");
  gtk_widget_add_css_class (self->progress_box, "toolbar");
  gtk_widget_set_halign (self->progress_box, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (self->progress_box, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->progress_box, 12);
  self->progress_bar = gtk_progress_bar_new ();
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (self->progress_bar), TRUE);
  gtk_progress_bar_set_pulse_step (GTK_PROGRESS_BAR (self->progress_bar), 0.1);
  gtk_widget_set_size_request (self->progress_bar, 320, -1);
  gtk_widget_set_valign (self->progress_bar, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->progress_box), self->progress_bar);
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (zw_dump_diff_view_cancel), self);
  gtk_box_append (GTK_BOX (self->progress_box), self->cancel_button);
  gtk_widget_set_visible (self->progress_box, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->progress_box);
  gtk_widget_set_parent (overlay, GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self), 400, 200 + ZW_DUMP_DIFF_HEATMAPS_HEIGHT);
  zw_row_table_changed (ZW_ROW_TABLE (self), -1);
}

GtkWidget *
zw_dump_diff_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_DUMP_DIFF_VIEW, "selection", selection, NULL);
}
