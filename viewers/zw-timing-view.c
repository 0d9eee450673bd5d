/* zw-timing-view.c — timeline, op table and summary of a time profile. */
#include "zw-timing-view.h"
#include "zw-view-private.h"
#include "zw-row-item.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define LABEL_W 56.0
#define MARGIN 8.0
#define TITLE_H 22.0
#define RULER_H 22.0
#define SUMMARY_H 92.0

void
zw_timing_state_init (ZwTimingState *state)
{
  g_return_if_fail (state != NULL);
  state->t0 = 0;
  state->t1 = 0;
  state->selected_row = -1;
  state->hover_row = -1;
  state->sel_t0 = 0;
  state->sel_t1 = 0;
}

ZwTimingLane
zw_timing_row_lane (const ZwProfileRow *row)
{
  g_return_val_if_fail (row != NULL, ZW_TIMING_LANE_NONE);
  if (row->backend != NULL)
    return g_ascii_strcasecmp (row->backend, "Host") == 0 ? ZW_TIMING_LANE_HOST : ZW_TIMING_LANE_NPU;
  return g_strcmp0 (row->op_type, "icraft::xir::HardOpNode") == 0 ? ZW_TIMING_LANE_NPU : ZW_TIMING_LANE_HOST;
}

double
zw_timing_layout (const ZwProfile *profile, double **starts_out)
{
  double *starts;
  double t = 0, end = 0;

  g_return_val_if_fail (profile != NULL, 0);

  starts = g_new (double, MAX (profile->rows->len, 1u));
  for (guint pos = 0; pos < profile->rows->len; pos++)
    {
      guint i = zw_profile_order_get (profile, pos);
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      /* Rows without a position follow the previous one in execution order (the vendor's
       * text file has no start times and lists its rows in its own order). */
      starts[i] = row->start_ms >= 0 ? row->start_ms : t;
      t = starts[i] + MAX (row->total_ms, 0.0);
      end = MAX (end, t);
    }
  if (starts_out != NULL)
    *starts_out = starts;
  else
    g_free (starts);
  return end;
}

char *
zw_timing_view_headline (const ZwProfile *profile)
{
  GString *s;

  g_return_val_if_fail (profile != NULL, NULL);
  s = g_string_new (NULL);
  g_string_append_printf (s, ngettext ("%s: %u row, %.6g ms", "%s: %u rows, %.6g ms", profile->rows->len),
                          profile->network != NULL ? profile->network : _("time profile"), profile->rows->len,
                          zw_timing_layout (profile, NULL));
  if (profile->order_source == ZW_PROFILE_ORDER_INFERRED)
    g_string_append_printf (s, " · %s", _("order inferred"));
  if (profile->n_flagged > 0)
    {
      g_autofree char *flagged = g_strdup_printf (ngettext ("%u row cannot be (hard > total or a negative time)",
                                                           "%u rows cannot be (hard > total or a negative time)",
                                                           profile->n_flagged),
                                                  profile->n_flagged);
      g_string_append_printf (s, " · ⚠ %s", flagged);
    }
  return g_string_free (s, FALSE);
}

/* ---- geometry ---- */

static gboolean profile_has_merged_in (const ZwProfile *profile, ZwDeployReport *report);

typedef struct {
  double x0, x1;          /* plot area */
  double ruler_y0, ruler_y1;
  double lane_y[3][2];    /* NPU, MERGED, HOST */
  double summary_y;
  double t0, t1;          /* visible range */
} Geo;

static void
geo_compute (Geo *g, double end, const ZwTimingState *state, int width, int height, gboolean has_merged)
{
  double top, avail, merged_h;

  g->x0 = MARGIN + LABEL_W;
  g->x1 = MAX (g->x0 + 1, width - MARGIN);
  g->ruler_y0 = MARGIN + TITLE_H;
  g->ruler_y1 = g->ruler_y0 + RULER_H;
  top = g->ruler_y1 + 4;
  avail = MAX (30.0, height - top - SUMMARY_H - MARGIN);
  /* the Merged lane holds one band per launch: a strip of its own height, and only a
   * labelled line when the profile merged nothing; NPU and Host share the rest */
  merged_h = has_merged ? MIN (floor (avail * 0.2), 44.0) : 12.0;
  g->lane_y[ZW_TIMING_LANE_NPU][0] = top;
  g->lane_y[ZW_TIMING_LANE_NPU][1] = top + floor ((avail - merged_h - 6) * 0.55);
  g->lane_y[ZW_TIMING_LANE_MERGED][0] = g->lane_y[ZW_TIMING_LANE_NPU][1] + 2;
  g->lane_y[ZW_TIMING_LANE_MERGED][1] = g->lane_y[ZW_TIMING_LANE_MERGED][0] + merged_h;
  g->lane_y[ZW_TIMING_LANE_HOST][0] = g->lane_y[ZW_TIMING_LANE_MERGED][1] + 4;
  g->lane_y[ZW_TIMING_LANE_HOST][1] = top + avail;
  g->summary_y = top + avail + 6;

  if (state != NULL && state->t1 > state->t0)
    {
      g->t0 = state->t0;
      g->t1 = state->t1;
    }
  else
    {
      g->t0 = 0;
      g->t1 = end > 0 ? end : 1;
    }
}

static inline double
geo_x (const Geo *g, double t)
{
  return g->x0 + (t - g->t0) / (g->t1 - g->t0) * (g->x1 - g->x0);
}

double
zw_timing_view_x_of_time (const ZwProfile *profile, const ZwTimingState *state, int width, double t_ms)
{
  Geo g;

  g_return_val_if_fail (profile != NULL, 0);
  geo_compute (&g, zw_timing_layout (profile, NULL), state, width, 400, FALSE);
  return geo_x (&g, t_ms);
}

void
zw_timing_view_lane_extent (const ZwProfile *profile, ZwDeployReport *report, int width, int height,
                            ZwTimingLane lane, double *y0, double *y1)
{
  Geo g;

  g_return_if_fail (lane >= ZW_TIMING_LANE_NPU && lane <= ZW_TIMING_LANE_HOST);
  geo_compute (&g, 1, NULL, width, height, profile_has_merged_in (profile, report));
  if (y0)
    *y0 = g.lane_y[lane][0];
  if (y1)
    *y1 = g.lane_y[lane][1];
}

/* Launch op id -> merge_from of the report's merged launches (borrowed), so that drawing
 * 10,000 rows does not scan the launches once per row. NULL without a report. */
static GHashTable *
index_launches (ZwDeployReport *report)
{
  GHashTable *index;

  if (report == NULL)
    return NULL;
  index = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < report->launches->len; i++)
    {
      ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, i);
      if (l->merge_from->len > 1)
        g_hash_table_insert (index, &l->op_id, l->merge_from);
    }
  return index;
}

/* The members of a merged row: the profile's merge_from, else the report's launch of that
 * op id (a vendor text file loses merge_from). Borrowed; NULL when the row is no merge.
 * @launches: index_launches() of the report, may be NULL. */
static const GArray *
row_members (const ZwProfileRow *row, GHashTable *launches)
{
  if (row->merge_from != NULL && row->merge_from->len > 0)
    return row->merge_from;
  if (launches != NULL)
    return g_hash_table_lookup (launches, &row->op_id);
  return NULL;
}

/* Whether some row of @profile is a merged launch (the Merged lane has bands). */
static gboolean
profile_has_merged (const ZwProfile *profile, GHashTable *launches)
{
  for (guint i = 0; profile != NULL && i < profile->rows->len; i++)
    if (row_members (g_ptr_array_index (profile->rows, i), launches) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
profile_has_merged_in (const ZwProfile *profile, ZwDeployReport *report)
{
  g_autoptr (GHashTable) launches = index_launches (report);
  return profile_has_merged (profile, launches);
}

/* The layer class of a row: the report's hardop class ("Conv2d"), else the class the
 * vendor writes as the hardop's name ("icraft::xir::Conv2dNode"), else the op type's;
 * a merged launch is its first member's class "+ N more". @ops and @launches: the report's
 * indexes (may be NULL). */
static const char *
row_layer_class (const ZwProfileRow *row, GHashTable *ops, GHashTable *launches, char *buf, gsize size)
{
  const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &row->op_id) : NULL;
  const GArray *members;

  if (op != NULL && op->op_class != NULL && op->op_class[0] != '\0' && g_strcmp0 (op->op_class, op->kind) != 0)
    return zw_op_class_short (op->op_class, buf, size);
  members = row_members (row, launches);
  if (op == NULL && members != NULL && members->len > 0 && ops != NULL)
    {
      const ZwOpInfo *first = g_hash_table_lookup (ops, &g_array_index (members, gint64, 0));
      if (first != NULL && first->op_class != NULL && first->op_class[0] != '\0')
        {
          char cls[64];
          zw_op_class_short (first->op_class, cls, sizeof cls);
          if (members->len > 1)
            g_snprintf (buf, size, _("%s + %u more"), cls, members->len - 1);
          else
            g_snprintf (buf, size, "%s", cls);
          return buf;
        }
    }
  if (row->op_name != NULL && strstr (row->op_name, "::") != NULL)
    return zw_op_class_short (row->op_name, buf, size);
  return zw_op_class_short (row->op_type, buf, size);
}

char *
zw_timing_row_layer_class (const ZwProfileRow *row, ZwDeployReport *report)
{
  g_autoptr (GHashTable) ops = report != NULL ? zw_report_index_ops (report) : NULL;
  g_autoptr (GHashTable) launches = index_launches (report);
  char buf[128];

  g_return_val_if_fail (row != NULL, NULL);
  return g_strdup (row_layer_class (row, ops, launches, buf, sizeof buf));
}

/* The name the table shows: the layer's name, never the vendor's "icraft::xir::…Node"
 * class path (a ZG hardop's name is its fused class: shown short, as "Conv2d"). */
static char *
row_layer_name (const ZwProfileRow *row, GHashTable *ops)
{
  const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &row->op_id) : NULL;
  const char *name = row->op_name != NULL && row->op_name[0] != '\0' ? row->op_name : op != NULL ? op->name : NULL;
  char buf[128];

  if (name == NULL)
    return g_strdup ("");
  if (strstr (name, "::") != NULL)
    return g_strdup (zw_op_class_short (name, buf, sizeof buf));
  return g_strdup (name);
}

void
zw_timing_range_total (const ZwProfile *profile, double t0, double t1, double *npu_ms, double *host_ms, guint *n_rows)
{
  g_autofree double *starts = NULL;
  double npu = 0, host = 0;
  guint n = 0;

  if (profile != NULL && t1 > t0)
    {
      zw_timing_layout (profile, &starts);
      for (guint i = 0; i < profile->rows->len; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
          double a = MAX (starts[i], t0), b = MIN (starts[i] + MAX (row->total_ms, 0.0), t1);
          if (b <= a)
            continue;
          n++;
          if (zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU)
            npu += b - a;
          else
            host += b - a;
        }
    }
  if (npu_ms)
    *npu_ms = npu;
  if (host_ms)
    *host_ms = host;
  if (n_rows)
    *n_rows = n;
}

/* The widths of the three parts of a bar of @w pixels (see the header on negative other). */
static void
bar_parts (const ZwProfileRow *row, double w, double parts[3])
{
  double total = row->total_ms > 0 ? row->total_ms : 0;
  double m = MIN (MAX (row->memcpy_ms, 0.0), total);
  double h = MIN (MAX (row->hard_ms, 0.0), total - m);
  double o = MAX (total - m - h, 0.0);

  if (total <= 0)
    {
      parts[0] = parts[1] = parts[2] = 0;
      return;
    }
  parts[0] = w * m / total;
  parts[1] = w * h / total;
  parts[2] = w * o / total;
}

gint
zw_timing_view_row_at (const ZwProfile *profile, ZwDeployReport *report, const ZwTimingState *state, int width,
                       int height, double x, double y, ZwTimingLane *lane_out)
{
  g_autofree double *starts = NULL;
  g_autoptr (GHashTable) launches = NULL;
  ZwTimingLane lane = ZW_TIMING_LANE_NONE;
  gint best = -1;
  double end, best_d = G_MAXDOUBLE;
  Geo g;

  if (lane_out)
    *lane_out = ZW_TIMING_LANE_NONE;
  if (profile == NULL)
    return -1;
  end = zw_timing_layout (profile, &starts);
  launches = index_launches (report);
  geo_compute (&g, end, state, width, height, profile_has_merged (profile, launches));
  for (int l = ZW_TIMING_LANE_NPU; l <= ZW_TIMING_LANE_HOST; l++)
    if (y >= g.lane_y[l][0] && y < g.lane_y[l][1])
      lane = (ZwTimingLane) l;
  if (lane_out)
    *lane_out = lane;
  if (lane == ZW_TIMING_LANE_NONE || x < g.x0 || x > g.x1)
    return -1;
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      double a, b, d;

      if (lane == ZW_TIMING_LANE_MERGED ? row_members (row, launches) == NULL : zw_timing_row_lane (row) != lane)
        continue;
      a = geo_x (&g, starts[i]);
      b = geo_x (&g, starts[i] + MAX (row->total_ms, 0.0));
      /* A sub-pixel bar is drawn one pixel wide: hit it as drawn. */
      if (b - a < 1)
        b = a + 1;
      if (x < a - 0.5 || x > b + 0.5)
        continue;
      d = x < a ? a - x : x > b ? x - b : 0;
      if (d < best_d)
        {
          best_d = d;
          best = (gint) i;
        }
    }
  return best;
}

/* ---- drawing ---- */

static void
draw_ruler (ZwPainter *p, const Geo *g, const ZwViewStyle *colors)
{
  cairo_t *cr = p->cr;
  double span = g->t1 - g->t0;
  double step = zw_nice_step (span, MAX (2, (int) ((g->x1 - g->x0) / 90)));
  double first = ceil (g->t0 / step) * step;
  GdkRGBA dim = colors->foreground;

  dim.alpha *= 0.75f;
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, g->x0, g->ruler_y1 - 1, g->x1 - g->x0, 1);
  cairo_fill (cr);
  for (double t = first; t <= g->t1 + step * 1e-6; t += step)
    {
      double x = round (geo_x (g, t));
      char text[64];

      zw_cairo_set_color (cr, &colors->grid);
      cairo_rectangle (cr, x, g->ruler_y1 - 6, 1, 6);
      cairo_rectangle (cr, x, g->lane_y[0][0], 1, g->lane_y[ZW_TIMING_LANE_HOST][1] - g->lane_y[0][0]);
      cairo_fill (cr);
      if (step >= 1)
        g_snprintf (text, sizeof text, "%.0f ms", t);
      else
        g_snprintf (text, sizeof text, "%.*f ms", MIN (9, (int) ceil (-log10 (step))), t);
      /* a label that would run past the plot is left out rather than cut */
      if (x + 3 + zw_painter_text_width (p, text) <= g->x1 + MARGIN)
        zw_painter_text (p, x + 3, g->ruler_y0 + 2, 0, 0, 0, &dim, text);
    }
}

static void
draw_selection_overlay (ZwPainter *p, const Geo *g, const ZwProfile *profile, const ZwTimingState *state,
                        const ZwViewStyle *colors)
{
  double a, b, npu, host, tw;
  guint n;
  char text[256];

  if (state == NULL || state->sel_t1 <= state->sel_t0)
    return;
  a = MAX (g->x0, geo_x (g, state->sel_t0));
  b = MIN (g->x1, geo_x (g, state->sel_t1));
  if (b <= a)
    return;
  zw_cairo_set_color_alpha (p->cr, &colors->accent, 0.18);
  cairo_rectangle (p->cr, a, g->ruler_y0, b - a, g->lane_y[ZW_TIMING_LANE_HOST][1] - g->ruler_y0);
  cairo_fill (p->cr);
  zw_cairo_set_color (p->cr, &colors->accent);
  cairo_rectangle (p->cr, a, g->ruler_y0, 1, g->lane_y[ZW_TIMING_LANE_HOST][1] - g->ruler_y0);
  cairo_rectangle (p->cr, b - 1, g->ruler_y0, 1, g->lane_y[ZW_TIMING_LANE_HOST][1] - g->ruler_y0);
  cairo_fill (p->cr);
  /* the range and what ran in it: busy time per lane (the parts of bars inside it) */
  zw_timing_range_total (profile, state->sel_t0, state->sel_t1, &npu, &host, &n);
  g_snprintf (text, sizeof text, ngettext ("%.6g ms selected: NPU %.6g ms, host %.6g ms, %u op",
                                           "%.6g ms selected: NPU %.6g ms, host %.6g ms, %u ops", n),
              state->sel_t1 - state->sel_t0, npu, host, n);
  zw_painter_set_bold (p, TRUE);
  tw = zw_painter_text_width (p, text) + 8;
  {
    /* a label box over the ruler, kept inside the plot */
    double cx = CLAMP ((a + b) / 2, g->x0 + tw / 2, MAX (g->x0 + tw / 2, g->x1 - tw / 2));
    zw_cairo_set_color (p->cr, &colors->accent);
    cairo_rectangle (p->cr, round (cx - tw / 2), g->ruler_y0, round (tw), RULER_H - 2);
    cairo_fill (p->cr);
    zw_painter_text (p, cx, g->ruler_y0 + (RULER_H - 2) / 2, 0.5, 0.5, 0, &colors->background, text);
  }
  zw_painter_set_bold (p, FALSE);
}

/* Folds sub-pixel bars: one pixel column per lane, coloured by the part that dominates the
 * rows falling in it; the columns are filled per colour at the end (one path each), so
 * 10,000 rows cost three fills. */
typedef struct {
  double px;          /* the column being accumulated, -1 for none */
  double sums[3];
  double y0, y1;
  GArray *cols[3];    /* double px of the finished columns, per part colour */
} Folded;

static void
folded_flush (Folded *f)
{
  int k = 0;

  if (f->px < 0)
    return;
  for (int i = 1; i < 3; i++)
    if (f->sums[i] > f->sums[k])
      k = i;
  g_array_append_val (f->cols[k], f->px);
  f->px = -1;
  f->sums[0] = f->sums[1] = f->sums[2] = 0;
}

static void
folded_fill (Folded *f, cairo_t *cr, const GdkRGBA *part_colors[3])
{
  folded_flush (f);
  /* whole-pixel boxes: no antialiasing to compute */
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (int k = 0; k < 3; k++)
    {
      for (guint i = 0; i < f->cols[k]->len; i++)
        cairo_rectangle (cr, g_array_index (f->cols[k], double, i), f->y0, 1, f->y1 - f->y0);
      zw_cairo_set_color (cr, part_colors[k]);
      cairo_fill (cr);
      g_array_unref (f->cols[k]);
    }
  cairo_restore (cr);
}

static void
draw_summary (ZwPainter *p, const Geo *g, int width, const ZwProfile *profile, ZwDeployReport *report,
              const ZwViewStyle *colors)
{
  static const char *titles[ZW_PROFILE_N_SUMMARY] = { N_("Data input"), N_("icore [npu]"), N_("Data output"),
                                                      N_("CPU operators") };
  double y = g->summary_y, col_w = (width - 2 * MARGIN) / 4.0;
  GdkRGBA dim = colors->foreground;
  char line[256];

  dim.alpha *= 0.7f;
  zw_cairo_set_color (p->cr, &colors->grid);
  cairo_rectangle (p->cr, MARGIN, y - 3, width - 2 * MARGIN, 1);
  cairo_fill (p->cr);
  for (int k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      double x = MARGIN + k * col_w;
      zw_painter_text (p, x, y, 0, 0, col_w - 6, &dim, _(titles[k]));
      if (profile->has_summary)
        g_snprintf (line, sizeof line, "%.6g ms  (%s)", profile->summary[k].time_ms,
                    /* the vendor's "Null" device is no device: said in the user's language */
                    profile->summary[k].device != NULL && g_strcmp0 (profile->summary[k].device, "Null") != 0
                        ? profile->summary[k].device : C_("device", "none"));
      else
        g_strlcpy (line, "–", sizeof line);
      zw_painter_set_bold (p, TRUE);
      zw_painter_text (p, x, y + 15, 0, 0, col_w - 6, NULL, line);
      zw_painter_set_bold (p, FALSE);
    }
  y += 36;
  g_snprintf (line, sizeof line, _("Total %.6g ms: memcpy %.6g, hard %.6g, other %.6g ms; hardops %.6g ms (hard %.6g)"),
              profile->total_ms, profile->total_memcpy_ms, profile->total_hard_ms, profile->total_other_ms,
              profile->hardop_total_ms, profile->hardop_hard_ms);
  zw_painter_text (p, MARGIN, y, 0, 0, width - 2 * MARGIN, NULL, line);
  if (profile->has_host_measured)
    {
      /* the dev host's clock: shown apart and labelled, in no total above */
      g_snprintf (line, sizeof line, _("Host ops measured on this PC: %.6g ms (not simulated; in no total)"),
                  profile->host_measured_ms);
      zw_painter_text (p, MARGIN, y + 34, 0, 0, width - 2 * MARGIN, &dim, line);
    }
  if (report != NULL)
    {
      double est = report->none_cost_ms;
      double npu_hard = 0;

      for (guint i = 0; i < report->ocm_options->len; i++)
        {
          const ZwOcmOptionResult *o = &g_array_index (report->ocm_options, ZwOcmOptionResult, i);
          if (o->option == report->ocm_chosen)
            est = o->cost_ms;
        }
      for (guint i = 0; i < profile->rows->len; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
          if (zw_timing_row_lane (row) == ZW_TIMING_LANE_NPU)
            npu_hard += row->hard_ms;
        }
      g_snprintf (line, sizeof line,
                  _("Planner estimate (OCM %s): %.6g ms, all in ETM %.6g ms  |  simulated NPU hard time %.6g ms"),
                  zw_ocm_opt_get_label (report->ocm_chosen), est, report->none_cost_ms, npu_hard);
      zw_painter_text (p, MARGIN, y + 17, 0, 0, width - 2 * MARGIN, &dim, line);
    }
}

static void
draw_content (cairo_t *cr, int width, int height, const ZwProfile *profile, ZwDeployReport *report,
              const ZwTimingState *state, const ZwViewStyle *colors, gboolean overlays)
{
  static const char *lane_names[3] = { N_("NPU"), N_("Merged"), N_("Host") };
  const GdkRGBA *part_colors[3] = { &colors->segment[ZW_SEGMENT_FTMP], &colors->segment[ZW_SEGMENT_WEIGHT],
                                    &colors->segment[ZW_SEGMENT_INPUT] };
  g_autofree double *starts = NULL;
  g_autoptr (GHashTable) launches = NULL;
  g_autoptr (GHashTable) ops = NULL;
  Folded folded[3];
  double end;
  ZwPainter p;
  Geo g;
  GdkRGBA dim;

  zw_painter_begin (&p, cr, colors);
  dim = p.dim;

  if (profile == NULL || profile->rows->len == 0)
    {
      zw_draw_empty (&p, width, height, _("No time profile"));
      goto out;
    }
  end = zw_timing_layout (profile, &starts);
  launches = index_launches (report);
  ops = report != NULL ? zw_report_index_ops (report) : NULL;
  geo_compute (&g, end, state, width, height, profile_has_merged (profile, launches));

  {
    g_autofree char *title = zw_timing_view_headline (profile);
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN, MARGIN, 0, 0, width * 0.6, NULL, title);
    zw_painter_set_bold (&p, FALSE);
    /* legend */
    {
      static const char *names[3] = { N_("memcpy"), N_("hard"), N_("other") };
      double x = width - MARGIN;
      for (int k = 2; k >= 0; k--)
        {
          x -= zw_painter_text_width (&p, _(names[k])) + 6;
          zw_painter_text (&p, x + 3, MARGIN, 0, 0, 0, &dim, _(names[k]));
          x -= 12;
          zw_cairo_set_color (cr, part_colors[k]);
          cairo_rectangle (cr, x, MARGIN + 3, 10, 10);
          cairo_fill (cr);
          x -= 8;
        }
    }
  }

  for (int l = 0; l < 3; l++)
    {
      zw_painter_text (&p, MARGIN, (g.lane_y[l][0] + g.lane_y[l][1]) / 2, 0, 0.5, LABEL_W - 4, &dim, _(lane_names[l]));
      zw_cairo_set_color_alpha (cr, &colors->grid, 0.25);
      cairo_rectangle (cr, g.x0, g.lane_y[l][0], g.x1 - g.x0, g.lane_y[l][1] - g.lane_y[l][0]);
      cairo_fill (cr);
    }
  draw_ruler (&p, &g, colors);

  cairo_save (cr);
  cairo_rectangle (cr, g.x0, g.ruler_y0, g.x1 - g.x0, height);
  cairo_clip (cr);
  for (int l = 0; l < 3; l++)
    {
      folded[l].px = -1;
      folded[l].sums[0] = folded[l].sums[1] = folded[l].sums[2] = 0;
      folded[l].y0 = g.lane_y[l][0] + 3;
      folded[l].y1 = g.lane_y[l][1] - 3;
      for (int k = 0; k < 3; k++)
        folded[l].cols[k] = g_array_new (FALSE, FALSE, sizeof (double));
    }
  for (guint pos = 0; pos < profile->rows->len; pos++)
    {
      guint i = zw_profile_order_get (profile, pos);
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      ZwTimingLane lane = zw_timing_row_lane (row);
      /* whole pixels: crisp edges, and the one-pixel gaps between bars stay background */
      double a = round (geo_x (&g, starts[i])), b = round (geo_x (&g, starts[i] + MAX (row->total_ms, 0.0)));
      double y0 = g.lane_y[lane][0] + 3, y1 = g.lane_y[lane][1] - 3;
      const GArray *members = row_members (row, launches);
      double parts[3];

      if ((zw_profile_get_row_flags (profile, i) & ZW_PROFILE_ROW_IMPOSSIBLE) != 0 && b >= g.x0 - 1 && a <= g.x1 + 1)
        {
          /* a row that cannot be is marked, never drawn as if it were fine: a warning band
           * in the lane's top padding over its bar (at least 3 px wide) */
          zw_cairo_set_color (cr, &colors->warning);
          cairo_rectangle (cr, a, g.lane_y[lane][0], MAX (b - a, 3.0), 3);
          cairo_fill (cr);
        }
      if (b < g.x0 - 1 || a > g.x1 + 1 || row->total_ms <= 0)
        continue;
      if (b - a < 3)
        {
          /* narrow bars go to the per-pixel columns: no part would be a pixel wide anyway */
          Folded *f = &folded[lane];
          bar_parts (row, 1, parts);
          for (double px = a; px < MAX (b, a + 1); px++)
            {
              if (px != f->px)
                {
                  folded_flush (f);
                  f->px = px;
                }
              for (int k = 0; k < 3; k++)
                f->sums[k] += parts[k];
            }
        }
      else
        {
          /* a one-pixel gap after each bar wide enough, so neighbours stay apart */
          double w = b - a >= 3 ? b - a - 1 : b - a;
          double x = a;

          folded_flush (&folded[lane]);
          bar_parts (row, w, parts);
          for (int k = 0; k < 3; k++)
            {
              if (parts[k] <= 0)
                continue;
              zw_cairo_set_color (cr, part_colors[k]);
              cairo_rectangle (cr, x, y0, parts[k], y1 - y0);
              cairo_fill (cr);
              x += parts[k];
            }
          if (b - a > 40)
            {
              char cls[128], text[192];
              row_layer_class (row, ops, launches, cls, sizeof cls);
              g_snprintf (text, sizeof text, "%s %" G_GINT64_FORMAT, cls, row->op_id);
              zw_painter_text (&p, MAX (a, g.x0) + 3, (y0 + y1) / 2, 0, 0.5, MIN (b, g.x1) - MAX (a, g.x0) - 6,
                               &colors->foreground, text);
            }
        }
      if (state != NULL && (gint) i == state->selected_row)
        {
          zw_cairo_set_color (cr, &colors->accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, a - 1, y0 - 2, MAX (b - a, 1.0) + 2, y1 - y0 + 4);
          cairo_stroke (cr);
        }
      if (members != NULL)
        {
          double my0 = g.lane_y[ZW_TIMING_LANE_MERGED][0] + 3, my1 = g.lane_y[ZW_TIMING_LANE_MERGED][1] - 3;
          double total_layers = 0, acc = 0;
          g_autoptr (GString) text = g_string_new (NULL);

          if (b - a < 1)
            b = a + 1;
          zw_cairo_set_color_alpha (cr, &colors->ocm, 0.55);
          cairo_rectangle (cr, a, my0, b - a, my1 - my0);
          cairo_fill (cr);
          /* member ticks, proportional to their layer counts when the report has them */
          for (guint k = 0; k < members->len; k++)
            {
              const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &g_array_index (members, gint64, k)) : NULL;
              total_layers += op != NULL && op->layer_count > 0 ? op->layer_count : 1;
            }
          if ((b - a) / members->len >= 3)
            for (guint k = 0; k + 1 < members->len; k++)
              {
                const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &g_array_index (members, gint64, k)) : NULL;
                acc += op != NULL && op->layer_count > 0 ? op->layer_count : 1;
                zw_cairo_set_color_alpha (cr, &colors->foreground, 0.35);
                cairo_rectangle (cr, round (a + (b - a) * acc / total_layers), my0, 1, my1 - my0);
                cairo_fill (cr);
              }
          if (b - a > 60)
            {
              g_string_append_printf (text, ngettext ("op %lld: %u member:", "op %lld: %u members:", members->len),
                                      (long long) row->op_id, members->len);
              for (guint k = 0; k < MIN (members->len, 48u); k++)
                g_string_append_printf (text, " %" G_GINT64_FORMAT, g_array_index (members, gint64, k));
              if (members->len > 48)
                g_string_append (text, " …");
              zw_painter_text (&p, MAX (a, g.x0) + 3, (my0 + my1) / 2, 0, 0.5, MIN (b, g.x1) - MAX (a, g.x0) - 6,
                               &colors->foreground, text->str);
            }
        }
    }
  for (int l = 0; l < 3; l++)
    folded_fill (&folded[l], cr, part_colors);
  cairo_restore (cr);

  if (overlays)
    draw_selection_overlay (&p, &g, profile, state, colors);
  draw_summary (&p, &g, width, profile, report, colors);

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

void
zw_timing_view_draw (cairo_t *cr, int width, int height, const ZwProfile *profile, ZwDeployReport *report,
                     const ZwTimingState *state, const ZwViewStyle *colors)
{
  ZwTimingState fallback;

  g_return_if_fail (cr != NULL && colors != NULL);
  if (state == NULL)
    {
      zw_timing_state_init (&fallback);
      state = &fallback;
    }
  draw_content (cr, width, height, profile, report, state, colors, TRUE);
}

/* Producer op id -> GPtrArray of its ZwValueInfo* (borrowed). */
static GHashTable *
index_producers (ZwDeployReport *report)
{
  GHashTable *index = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < report->values->len; i++)
    {
      ZwValueInfo *v = &g_array_index (report->values, ZwValueInfo, i);
      GPtrArray *list = g_hash_table_lookup (index, &v->producer);
      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (index, &v->producer, list);
        }
      g_ptr_array_add (list, v);
    }
  return index;
}

static void
add_outputs (GHashTable *producers, gint64 op_id, guint64 *bytes, guint *ocm, gboolean *found)
{
  GPtrArray *list = g_hash_table_lookup (producers, &op_id);

  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      const ZwValueInfo *v = g_ptr_array_index (list, i);
      *found = TRUE;
      /* fake values live inside another's bytes: counting them would count twice */
      if (!v->real || v->is_host)
        continue;
      if (v->is_ocm)
        (*ocm)++;
      else
        *bytes += v->byte_size;
    }
}

static gboolean
op_memory (ZwDeployReport *report, GHashTable *launches, GHashTable *producers, const ZwProfileRow *row,
           guint64 *etm_bytes, guint *ocm_outputs)
{
  const GArray *members = row_members (row, launches);
  guint64 bytes = 0;
  guint ocm = 0;
  gboolean found = FALSE;

  add_outputs (producers, row->op_id, &bytes, &ocm, &found);
  for (guint k = 0; members != NULL && k < members->len; k++)
    add_outputs (producers, g_array_index (members, gint64, k), &bytes, &ocm, &found);
  if (!found && members == NULL && zw_deploy_report_find_op (report, row->op_id) == NULL)
    return FALSE;
  if (etm_bytes)
    *etm_bytes = bytes;
  if (ocm_outputs)
    *ocm_outputs = ocm;
  return TRUE;
}

/* ---- the table's data, shared by its row items ---- */

typedef struct {
  ZwProfile *profile;
  ZwDeployReport *report;
  GHashTable *launches; /* index_launches (report) */
  GHashTable *ops;      /* zw_report_index_ops (report) */
  gboolean has_merged;  /* some row is a merged launch */
  guint64 *etm;        /* per row, with the report */
  guint *ocm;
  gboolean *has_mem;
  double *est;         /* per row: the planner's estimate of its hardops (< 0: none) */
} TimingData;

static void
timing_data_clear (gpointer data)
{
  TimingData *d = data;

  g_clear_pointer (&d->profile, zw_profile_free);
  g_clear_pointer (&d->launches, g_hash_table_unref);
  g_clear_pointer (&d->ops, g_hash_table_unref);
  g_clear_pointer (&d->report, zw_deploy_report_unref);
  g_free (d->etm);
  g_free (d->ocm);
  g_free (d->has_mem);
  g_free (d->est);
}

static TimingData *
timing_data_new (const ZwProfile *profile, ZwDeployReport *report)
{
  TimingData *d = g_rc_box_new0 (TimingData);
  guint n = profile->rows->len;

  d->profile = zw_profile_new (profile->network);
  for (guint i = 0; i < n; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      ZwProfileRow *c = zw_profile_add_row (d->profile, r->op_id, r->op_type, r->op_name, r->total_ms, r->memcpy_ms,
                                            r->hard_ms, r->other_ms);
      c->has_io_process = r->has_io_process;
      c->is_io_process = r->is_io_process;
      if (r->merge_from != NULL)
        g_array_append_vals (c->merge_from, r->merge_from->data, r->merge_from->len);
      c->backend = g_strdup (r->backend);
      c->start_ms = r->start_ms;
      c->host_measured_ms = r->host_measured_ms;
    }
  /* the customop lines get their shape from the rows; then the file's own totals and
   * summary (the vendor's, when it has them) replace the recomputed ones */
  zw_profile_compute_totals (d->profile);
  if (profile->order != NULL)
    {
      d->profile->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), profile->order->len);
      g_array_append_vals (d->profile->order, profile->order->data, profile->order->len);
    }
  d->profile->order_source = profile->order_source;
  if (report != NULL && profile->order_source == ZW_PROFILE_ORDER_INFERRED && report->ops->len > 0)
    {
      /* the run's network is known: its op order replaces the guess */
      g_autofree gint64 *ids = g_new (gint64, report->ops->len);
      g_autofree guint *by_index = g_new (guint, report->ops->len);
      for (guint k = 0; k < report->ops->len; k++)
        by_index[k] = k;
      for (guint k = 0; k < report->ops->len; k++)
        for (guint j = k; j > 0 && g_array_index (report->ops, ZwOpInfo, by_index[j - 1]).index
                                     > g_array_index (report->ops, ZwOpInfo, by_index[j]).index; j--)
          {
            guint t = by_index[j];
            by_index[j] = by_index[j - 1];
            by_index[j - 1] = t;
          }
      for (guint k = 0; k < report->ops->len; k++)
        ids[k] = g_array_index (report->ops, ZwOpInfo, by_index[k]).op_id;
      zw_profile_order_by_network (d->profile, ids, report->ops->len);
    }
  if (!profile->has_totals)
    goto totals_done;
  d->profile->has_totals = profile->has_totals;
  d->profile->total_ms = profile->total_ms;
  d->profile->total_memcpy_ms = profile->total_memcpy_ms;
  d->profile->total_hard_ms = profile->total_hard_ms;
  d->profile->total_other_ms = profile->total_other_ms;
  d->profile->hardop_total_ms = profile->hardop_total_ms;
  d->profile->hardop_hard_ms = profile->hardop_hard_ms;
  for (int k = 0; k < ZW_PROFILE_N_SUMMARY && profile->has_summary; k++)
    {
      d->profile->summary[k].time_ms = profile->summary[k].time_ms;
      g_free (d->profile->summary[k].device);
      d->profile->summary[k].device = g_strdup (profile->summary[k].device);
    }
  for (guint i = 0; i < profile->customops->len; i++)
    {
      const ZwProfileCustomop *src = g_ptr_array_index (profile->customops, i);
      if (i < d->profile->customops->len)
        {
          ZwProfileCustomop *dst = g_ptr_array_index (d->profile->customops, i);
          dst->total_ms = src->total_ms;
          dst->hard_ms = src->hard_ms;
        }
    }
totals_done:
  if (report != NULL)
    {
      g_autoptr (GHashTable) producers = index_producers (report);

      d->report = zw_deploy_report_ref (report);
      d->launches = index_launches (report);
      d->ops = zw_report_index_ops (report);
      d->etm = g_new0 (guint64, MAX (n, 1u));
      d->ocm = g_new0 (guint, MAX (n, 1u));
      d->has_mem = g_new0 (gboolean, MAX (n, 1u));
      for (guint i = 0; i < n; i++)
        d->has_mem[i] = op_memory (report, d->launches, producers, g_ptr_array_index (d->profile->rows, i), &d->etm[i],
                                   &d->ocm[i]);
      /* estimated (planner) next to simulated: a row's hardops, or its merged launch's members */
      {
        g_autoptr (GHashTable) est_of = g_hash_table_new (g_int64_hash, g_int64_equal);
        for (guint h = 0; h < report->hardops->len; h++)
          {
            ZwHardOpInfo *hi = &g_array_index (report->hardops, ZwHardOpInfo, h);
            g_hash_table_insert (est_of, &hi->op_id, &hi->est_ms);
          }
        d->est = g_new (double, MAX (n, 1u));
        for (guint i = 0; i < n; i++)
          {
            const ZwProfileRow *row = g_ptr_array_index (d->profile->rows, i);
            const GArray *m = row_members (row, d->launches);
            const double *e = g_hash_table_lookup (est_of, &row->op_id);

            d->est[i] = e != NULL ? *e : -1;
            for (guint k = 0; e == NULL && m != NULL && k < m->len; k++)
              {
                const double *me = g_hash_table_lookup (est_of, &g_array_index (m, gint64, k));
                if (me != NULL)
                  d->est[i] = MAX (d->est[i], 0) + *me;
              }
          }
      }
    }
  d->has_merged = profile_has_merged (d->profile, d->launches);
  return d;
}

static TimingData *
timing_data_ref (TimingData *d)
{
  return g_rc_box_acquire (d);
}

static void
timing_data_unref (TimingData *d)
{
  g_rc_box_release_full (d, timing_data_clear);
}

typedef enum {
  COL_OP_ID,
  COL_CLASS,
  COL_NAME,
  COL_TOTAL,
  COL_MEMCPY,
  COL_HARD,
  COL_EST,
  COL_OTHER,
  COL_IO,
  COL_ETM,
  COL_OCM,
  COL_MEMBERS,
  N_COLS
} TimingColumn;

static const char *col_titles[N_COLS] = {
  N_("Op id"), N_("Class"), N_("Name"), N_("Total ms"), N_("Memcpy ms"), N_("Hard ms"), N_("Estimated ms"), N_("Other ms"),
  N_("IO process"), N_("ETM bytes written"), N_("OCM outputs"), N_("Merged from"),
};

static char *
cell_text (TimingData *d, guint index, TimingColumn column)
{
  const ZwProfileRow *row = g_ptr_array_index (d->profile->rows, index);
  char buf[64];

  switch (column)
    {
    case COL_OP_ID:
      return g_strdup_printf ("%" G_GINT64_FORMAT, row->op_id);
    case COL_CLASS:
      return g_strdup (zw_op_class_short (row->op_type, buf, sizeof buf));
    case COL_NAME:
      return row_layer_name (row, d->ops);
    case COL_TOTAL:
      return g_strdup_printf ("%.6g", row->total_ms);
    case COL_MEMCPY:
      return g_strdup_printf ("%.6g", row->memcpy_ms);
    case COL_HARD:
      return g_strdup_printf ("%.6g", row->hard_ms);
    case COL_EST:
      return d->est != NULL && d->est[index] >= 0 ? g_strdup_printf ("%.6g", d->est[index]) : g_strdup ("");
    case COL_OTHER:
      return g_strdup_printf ("%.6g", row->other_ms);
    case COL_IO:
      return g_strdup (!row->has_io_process ? "" : row->is_io_process ? "true" : "false");   /* as the vendor's file */
    case COL_ETM:
      return d->has_mem != NULL && d->has_mem[index] ? g_strdup_printf ("%" G_GUINT64_FORMAT, d->etm[index])
                                                     : g_strdup ("");
    case COL_OCM:
      return d->has_mem != NULL && d->has_mem[index] ? g_strdup_printf ("%u", d->ocm[index]) : g_strdup ("");
    case COL_MEMBERS:
      {
        const GArray *m = row_members (row, d->launches);
        GString *s = g_string_new (NULL);
        for (guint k = 0; m != NULL && k < m->len; k++)
          g_string_append_printf (s, k ? ";%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, g_array_index (m, gint64, k));
        return g_string_free (s, FALSE);
      }
    default:
      g_assert_not_reached ();
    }
}

/* A table row: a ZwRowItem whose data is the TimingData. */
#define ROW_DATA(row) ((TimingData *) (row)->data)

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const ZwRowItem *ra = a, *rb = b;
  const ZwProfileRow *pa = g_ptr_array_index (ROW_DATA (ra)->profile->rows, ra->index);
  const ZwProfileRow *pb = g_ptr_array_index (ROW_DATA (rb)->profile->rows, rb->index);
  TimingData *d = ROW_DATA (ra);
  double x = 0, y = 0;
  char ca[64], cb[64];

  switch ((TimingColumn) GPOINTER_TO_INT (user_data))
    {
    case COL_OP_ID: x = (double) pa->op_id; y = (double) pb->op_id; break;
    case COL_CLASS:
      return g_strcmp0 (zw_op_class_short (pa->op_type, ca, sizeof ca), zw_op_class_short (pb->op_type, cb, sizeof cb));
    case COL_NAME:
      {
        g_autofree char *na = row_layer_name (pa, d->ops), *nb = row_layer_name (pb, d->ops);
        int r = g_strcmp0 (na, nb);
        if (r != 0)
          return r < 0 ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
        break;
      }
    case COL_TOTAL: x = pa->total_ms; y = pb->total_ms; break;
    case COL_MEMCPY: x = pa->memcpy_ms; y = pb->memcpy_ms; break;
    case COL_HARD: x = pa->hard_ms; y = pb->hard_ms; break;
    case COL_EST:
      if (d->est != NULL)
        {
          x = d->est[ra->index];
          y = d->est[rb->index];
        }
      break;
    case COL_OTHER: x = pa->other_ms; y = pb->other_ms; break;
    case COL_IO: x = pa->is_io_process; y = pb->is_io_process; break;
    case COL_ETM:
      if (d->has_mem != NULL)
        {
          x = (double) d->etm[ra->index];
          y = (double) d->etm[rb->index];
        }
      break;
    case COL_OCM:
      if (d->has_mem != NULL)
        {
          x = d->ocm[ra->index];
          y = d->ocm[rb->index];
        }
      break;
    case COL_MEMBERS:
      x = pa->merge_from != NULL ? pa->merge_from->len : 0;
      y = pb->merge_from != NULL ? pb->merge_from->len : 0;
      break;
    default:
      g_assert_not_reached ();
    }
  if (x != y)
    return x < y ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* ties keep the file order, so a sort is stable and repeatable */
  return ra->index < rb->index ? GTK_ORDERING_SMALLER : ra->index > rb->index ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* ---- the timeline area (a private widget inside the view) ---- */

static void update_values_bar (ZwTimingView *self);

struct _ZwTimingView
{
  ZwView parent_instance;
  TimingData *data;
  ZwTimingState state;
  double end;
  /* pointer and drag */
  double pointer_x;
  double drag_t0, drag_t1, drag_anchor;
  gboolean drag_selecting;
  /* children */
  GtkWidget *paned;
  GtkWidget *area;    /* ZwDrawArea: caches the content without hover and drag selection */
  GListStore *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *model;
  GtkWidget *column_view;
  GtkColumnViewColumn *columns[N_COLS];
  GtkWidget *table_scrolled;
  GtkWidget *values_bar;     /* the selected op's values: one button each */
  gint header_column;        /* the header cell pressed, -1 */
  guint sort_changes;        /* the column view's sorter changed this often */
  guint scroll_idle;
  guint scroll_to;           /* the table row the idle scrolls into sight */
  guint sort_changes_at_press;
  gint sort_column;          /* what we know of the current sort (-1 unsorted) */
  gboolean sort_descending;
  gboolean syncing;
  /* zw_timing_view_set_run_profile: the profile is @run_report's deployment's, so the
   * selection's report is read (and selected through) only while it is that one */
  gboolean run_bound;
  ZwDeployReport *run_report;
};

G_DEFINE_FINAL_TYPE (ZwTimingView, zw_timing_view, ZW_TYPE_VIEW)

/* The shared selection holds another deployment's report than the profile's (a time file
 * shown while the deploy views keep theirs): the view neither reads nor selects through it. */
static gboolean
report_is_other (ZwTimingView *self)
{
  return self->run_bound && zw_view_get_report (ZW_VIEW (self)) != self->run_report;
}

static ZwDeployReport *
view_report (ZwTimingView *self)
{
  return report_is_other (self) ? NULL : zw_view_get_report (ZW_VIEW (self));
}

static void
view_invalidate (ZwTimingView *self)
{
  if (self->area != NULL)
    zw_draw_area_invalidate (ZW_DRAW_AREA (self->area));
}

static void
area_draw (cairo_t *cr, int width, int height, const ZwViewStyle *style, gpointer user_data)
{
  ZwTimingView *self = user_data;
  ZwTimingState content = self->state;

  content.hover_row = -1;
  draw_content (cr, width, height, self->data != NULL ? self->data->profile : NULL, view_report (self), &content, style,
                FALSE);
}

static void
area_overlay (GtkSnapshot *snapshot, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  ZwTimingView *self = user_data;
  const ZwProfile *profile = self->data != NULL ? self->data->profile : NULL;

  if (profile == NULL)
    return;

  /* hover and drag selection: drawn over the cached node, never into it */
  if (self->state.hover_row >= 0 && (guint) self->state.hover_row < profile->rows->len)
    {
      g_autofree double *starts = NULL;
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, self->state.hover_row);
      ZwTimingLane lane = zw_timing_row_lane (row);
      Geo g;
      double a, b;

      geo_compute (&g, zw_timing_layout (profile, &starts), &self->state, width, height, self->data->has_merged);
      a = MAX (g.x0, geo_x (&g, starts[self->state.hover_row]));
      b = MIN (g.x1, geo_x (&g, starts[self->state.hover_row] + MAX (row->total_ms, 0.0)));
      if (b - a < 1)
        b = a + 1;
      gtk_snapshot_append_color (snapshot, &colors->hover,
                                 &GRAPHENE_RECT_INIT (a, g.lane_y[lane][0], b - a, g.lane_y[lane][1] - g.lane_y[lane][0]));
    }
  if (self->state.sel_t1 > self->state.sel_t0)
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      ZwPainter p;
      Geo g;

      geo_compute (&g, self->end, &self->state, width, height, self->data->has_merged);
      zw_painter_init (&p, cr, colors);
      draw_selection_overlay (&p, &g, profile, &self->state, colors);
      zw_painter_clear (&p);
      cairo_destroy (cr);
    }
}

/* ---- view: range and selection ---- */

static void
full_range (ZwTimingView *self, double *t0, double *t1)
{
  *t0 = 0;
  *t1 = self->end > 0 ? self->end : 1;
}

void
zw_timing_view_set_range (ZwTimingView *self, double t0, double t1)
{
  double f0, f1, w;

  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  full_range (self, &f0, &f1);
  if (!(t1 > t0) || !isfinite (t0) || !isfinite (t1))
    {
      t0 = f0;
      t1 = f1;
    }
  w = MIN (MAX (t1 - t0, (f1 - f0) * 1e-7), f1 - f0);
  t0 = CLAMP (t0, f0, f1 - w);
  t1 = t0 + w;
  if (t0 == self->state.t0 && t1 == self->state.t1)
    return;
  self->state.t0 = t0;
  self->state.t1 = t1;
  view_invalidate (self);
}

static void
zoom_by (ZwTimingView *self, double factor, double center)
{
  double t0 = self->state.t0, t1 = self->state.t1;
  double f = (center - t0) / (t1 - t0);
  double w = (t1 - t0) / factor;

  zw_timing_view_set_range (self, center - f * w, center - f * w + w);
}

static void
pan_by (ZwTimingView *self, double fraction)
{
  double w = self->state.t1 - self->state.t0;
  zw_timing_view_set_range (self, self->state.t0 + fraction * w, self->state.t1 + fraction * w);
}

static double
area_time_at (ZwTimingView *self, double x)
{
  Geo g;

  geo_compute (&g, self->end, &self->state, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area),
               self->data != NULL && self->data->has_merged);
  return g.t0 + (x - g.x0) / (g.x1 - g.x0) * (g.t1 - g.t0);
}

void
zw_timing_view_select_row (ZwTimingView *self, gint row)
{
  const ZwProfile *profile;

  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  profile = self->data != NULL ? self->data->profile : NULL;
  if (profile == NULL || row < 0 || (guint) row >= profile->rows->len)
    row = -1;
  if (row != self->state.selected_row)
    {
      self->state.selected_row = row;
      view_invalidate (self);
      update_values_bar (self);
    }
  if (row >= 0 && view_report (self) != NULL && !self->syncing)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, row);
      self->syncing = TRUE;
      zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)), r->op_id);
      self->syncing = FALSE;
    }
  /* the table follows */
  if (!self->syncing)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted)), pos = GTK_INVALID_LIST_POSITION;
      for (guint i = 0; row >= 0 && i < n; i++)
        {
          g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
          if ((gint) item->index == row)
            pos = i;
        }
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->model, pos);
      self->syncing = FALSE;
    }
}

/* ---- the selected op's values, one click away ---- */

static void
on_value_clicked (GtkButton *button, ZwTimingView *self)
{
  gint64 v_id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (button), "zw-v-id")) - 1;
  zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)), v_id);
}

static void
mark_selected_value (ZwTimingView *self)
{
  gint64 sel = zw_selection_get_selected_value (zw_view_get_selection (ZW_VIEW (self)));

  for (GtkWidget *c = gtk_widget_get_first_child (self->values_bar); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      gpointer data = g_object_get_data (G_OBJECT (c), "zw-v-id");
      if (data == NULL)
        continue;
      if ((gint64) GPOINTER_TO_SIZE (data) - 1 == sel)
        gtk_widget_add_css_class (c, "suggested-action");
      else
        gtk_widget_remove_css_class (c, "suggested-action");
    }
}

static void
add_value_button (ZwTimingView *self, ZwDeployReport *report, gint64 v_id, gboolean output, GHashTable *seen)
{
  const ZwValueInfo *v;
  const char *where;
  g_autofree char *label = NULL, *tip = NULL, *bytes = NULL;
  GtkWidget *button;

  if (!g_hash_table_add (seen, g_memdup2 (&v_id, sizeof v_id)))
    return;
  v = zw_deploy_report_find_value (report, v_id);
  where = v == NULL ? "" : v->is_host ? "HOST" : v->is_ocm ? "OCM" : "ETM";
  label = g_strdup_printf (output ? _("out %lld %s") : _("in %lld %s"), (long long) v_id, where);
  bytes = zw_format_bytes (v != NULL ? v->byte_size : 0);
  tip = g_strdup_printf (_("Select value %lld (%s, %s) in every view"), (long long) v_id, where, bytes);
  button = gtk_button_new_with_label (label);
  gtk_widget_set_tooltip_text (button, tip);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "zw-v-id", GSIZE_TO_POINTER ((gsize) (v_id + 1)));
  g_signal_connect (button, "clicked", G_CALLBACK (on_value_clicked), self);
  gtk_box_append (GTK_BOX (self->values_bar), button);
}

static void
update_values_bar (ZwTimingView *self)
{
  ZwDeployReport *report;
  const ZwProfile *profile = self->data != NULL ? self->data->profile : NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GArray) ops = g_array_new (FALSE, FALSE, sizeof (gint64));
  const ZwProfileRow *row;
  const GArray *members;
  GtkWidget *child, *title;
  g_autofree char *text = NULL;
  guint n_buttons = 0;

  if (self->values_bar == NULL)
    return;
  while ((child = gtk_widget_get_first_child (self->values_bar)) != NULL)
    gtk_box_remove (GTK_BOX (self->values_bar), child);
  if (profile == NULL || self->state.selected_row < 0 || (guint) self->state.selected_row >= profile->rows->len)
    {
      title = gtk_label_new (_("Select an op to list its values"));
      gtk_widget_add_css_class (title, "dim-label");
      gtk_box_append (GTK_BOX (self->values_bar), title);
      return;
    }
  report = view_report (self);
  row = g_ptr_array_index (profile->rows, self->state.selected_row);
  text = g_strdup_printf (_("Values of op %lld:"), (long long) row->op_id);
  title = gtk_label_new (text);
  gtk_box_append (GTK_BOX (self->values_bar), title);
  /* the op, or the members of its merged launch */
  members = row_members (row, self->data->launches);
  if (report != NULL && zw_deploy_report_find_op (report, row->op_id) != NULL)
    g_array_append_val (ops, row->op_id);
  else if (members != NULL)
    g_array_append_vals (ops, members->data, members->len);
  for (int out = 0; out < 2 && report != NULL; out++)
    for (guint k = 0; k < ops->len; k++)
      {
        const ZwOpInfo *op = zw_deploy_report_find_op (report, g_array_index (ops, gint64, k));
        const GArray *list = op == NULL ? NULL : out ? op->outputs : op->inputs;
        for (guint j = 0; list != NULL && j < list->len; j++, n_buttons++)
          add_value_button (self, report, g_array_index (list, gint64, j), out, seen);
      }
  if (n_buttons == 0)
    {
      GtkWidget *none = gtk_label_new (report == NULL ? _("(open the run's deploy report to list them)")
                                                      : _("(the report does not list them)"));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_box_append (GTK_BOX (self->values_bar), none);
    }
  mark_selected_value (self);
}

GtkWidget *
zw_timing_view_get_values_bar (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  return self->values_bar;
}

/* ---- events ---- */

static void
set_hover (ZwTimingView *self, gint row)
{
  if (row != self->state.hover_row)
    {
      self->state.hover_row = row;
      gtk_widget_queue_draw (self->area);
    }
}

static gint
area_row_at (ZwTimingView *self, double x, double y)
{
  return zw_timing_view_row_at (self->data != NULL ? self->data->profile : NULL, view_report (self), &self->state,
                                gtk_widget_get_width (self->area), gtk_widget_get_height (self->area), x, y, NULL);
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwTimingView *self)
{
  (void) controller;
  self->pointer_x = x;
  set_hover (self, area_row_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller, ZwTimingView *self)
{
  (void) controller;
  set_hover (self, -1);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, ZwTimingView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  (void) dx;
  if ((state & GDK_CONTROL_MASK) == 0 || dy == 0 || self->data == NULL)
    return FALSE;
  zoom_by (self, dy < 0 ? 1.25 : 0.8, area_time_at (self, self->pointer_x));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, ZwTimingView *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  (void) y;
  self->drag_selecting = button == GDK_BUTTON_SECONDARY || (mods & GDK_SHIFT_MASK) != 0;
  self->drag_t0 = self->state.t0;
  self->drag_t1 = self->state.t1;
  self->drag_anchor = self->data != NULL ? area_time_at (self, x) : 0;
}

static void
on_drag_update (GtkGestureDrag *gesture, double offset_x, double offset_y, ZwTimingView *self)
{
  double start_x, start_y;
  Geo g;

  (void) offset_y;
  if (self->data == NULL || fabs (offset_x) < 3)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_gesture_drag_get_start_point (gesture, &start_x, &start_y);
  if (self->drag_selecting)
    {
      double t = area_time_at (self, start_x + offset_x);
      self->state.sel_t0 = MIN (self->drag_anchor, t);
      self->state.sel_t1 = MAX (self->drag_anchor, t);
      gtk_widget_queue_draw (self->area);
      return;
    }
  geo_compute (&g, self->end, &self->state, gtk_widget_get_width (self->area), gtk_widget_get_height (self->area),
               self->data != NULL && self->data->has_merged);
  {
    double delta = -offset_x / (g.x1 - g.x0) * (self->drag_t1 - self->drag_t0);
    zw_timing_view_set_range (self, self->drag_t0 + delta, self->drag_t1 + delta);
  }
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwTimingView *self)
{
  (void) gesture;
  (void) n_press;
  gtk_widget_grab_focus (self->area);
  zw_timing_view_select_row (self, area_row_at (self, x, y));
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, ZwTimingView *self)
{
  const ZwProfileRow *row;
  g_autoptr (GString) text = NULL;
  gint index;
  char cls[128];

  (void) widget;
  (void) keyboard;
  index = area_row_at (self, x, y);
  if (index < 0)
    return FALSE;
  row = g_ptr_array_index (self->data->profile->rows, index);
  text = g_string_new (NULL);
  {
    char kind[64];
    row_layer_class (row, self->data->ops, self->data->launches, cls, sizeof cls);
    zw_op_class_short (row->op_type, kind, sizeof kind);
    if (g_strcmp0 (cls, kind) != 0)
      g_string_append_printf (text, _("op %lld %s (%s)"), (long long) row->op_id, cls, kind);
    else
      g_string_append_printf (text, _("op %lld %s"), (long long) row->op_id, cls);
  }
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("total %.6g ms: memcpy %.6g, hard %.6g, other %.6g"), row->total_ms, row->memcpy_ms,
                          row->hard_ms, row->other_ms);
  if (self->data->has_mem != NULL && self->data->has_mem[index])
    {
      g_autofree char *bytes = zw_format_bytes (self->data->etm[index]);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("ETM written %s, OCM outputs %u"), bytes, self->data->ocm[index]);
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
action_nav (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ZwTimingView *self = ZW_TIMING_VIEW (widget);
  double center = (self->state.t0 + self->state.t1) / 2;

  (void) parameter;
  if (g_str_equal (action_name, "timing.zoom-in"))
    zoom_by (self, 1.25, center);
  else if (g_str_equal (action_name, "timing.zoom-out"))
    zoom_by (self, 0.8, center);
  else if (g_str_equal (action_name, "timing.pan-left"))
    pan_by (self, -0.1);
  else if (g_str_equal (action_name, "timing.pan-right"))
    pan_by (self, 0.1);
  else
    zw_timing_view_set_range (self, 0, 0);
}

/* ---- table ---- */

static gboolean
scroll_top_idle (gpointer data)
{
  ZwTimingView *self = data;
  guint n = self->column_view != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->sorted)) : 0;

  self->scroll_idle = 0;
  if (self->scroll_to >= n)
    return G_SOURCE_REMOVE;
  /* the column view's list (a child) scrolls the row into sight (GTK 4.8 has no
   * gtk_column_view_scroll_to; its list base has this action); after the list has its
   * new rows, hence from an idle */
  for (GtkWidget *c = gtk_widget_get_first_child (self->column_view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_activate_action (c, "list.scroll-to-item", "u", self->scroll_to))
      break;
  return G_SOURCE_REMOVE;
}

/* Shows table row @pos (sorted position) once the list is laid out. */
static void
scroll_table_to (ZwTimingView *self, guint pos)
{
  self->scroll_to = pos;
  if (self->scroll_idle == 0)
    self->scroll_idle = g_idle_add (scroll_top_idle, self);
}

static void
on_sorter_changed (ZwTimingView *self)
{
  self->sort_changes++;
  /* the sort model re-sorted before us (it connected first); the list keeps its scroll
   * offset: show the top once the list has its new items */
  scroll_table_to (self, 0);
  if (self->header_column >= 0)
    {
      /* GTK's own header click: it sorts a new column ascending and flips the same one */
      self->sort_descending = self->sort_column == self->header_column ? !self->sort_descending : FALSE;
      self->sort_column = self->header_column;
    }
}

/* The column whose header cell holds x (header coordinates), -1 for none. */
static gint
header_column_at (ZwTimingView *self, GtkWidget *header, double x)
{
  gint visible = 0;

  for (GtkWidget *title = gtk_widget_get_first_child (header); title != NULL; title = gtk_widget_get_next_sibling (title))
    {
      graphene_rect_t b;
      if (!gtk_widget_get_visible (title) || !gtk_widget_compute_bounds (title, header, &b))
        continue;
      if (x >= b.origin.x && x < b.origin.x + b.size.width)
        {
          /* the titles are the visible columns in order */
          for (gint c = 0; c < N_COLS; c++)
            if (gtk_column_view_column_get_visible (self->columns[c]) && visible-- == 0)
              return c;
          return -1;
        }
      visible++;
    }
  return -1;
}

static void
on_header_pressed (GtkGestureClick *gesture, int n_press, double x, double y, ZwTimingView *self)
{
  (void) n_press;
  (void) y;
  self->header_column = header_column_at (self, gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture)), x);
  self->sort_changes_at_press = self->sort_changes;
}

static void
on_header_released (GtkGestureClick *gesture, int n_press, double x, double y, ZwTimingView *self)
{
  gint column = self->header_column;

  (void) gesture;
  (void) n_press;
  (void) x;
  (void) y;
  /* the title's own gesture (a child's) ran first: when it did not sort, the click landed
   * beside the label, in the cell: sort as it would have */
  if (column >= 0 && self->sort_changes == self->sort_changes_at_press)
    {
      self->header_column = -1;
      zw_timing_view_sort_by (self, (guint) column, self->sort_column == column ? !self->sort_descending : FALSE);
    }
  self->header_column = -1;
}

gint
zw_timing_view_click_header (ZwTimingView *self, double x)
{
  GtkWidget *header;
  gint column;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), -1);
  header = gtk_widget_get_first_child (self->column_view);
  column = header_column_at (self, header, x);
  self->header_column = column;
  self->sort_changes_at_press = self->sort_changes;
  on_header_released (NULL, 1, x, 0, self);
  return column;
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  TimingColumn c = (TimingColumn) GPOINTER_TO_INT (data);

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label), c == COL_CLASS || c == COL_NAME || c == COL_MEMBERS ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  ZwRowItem *row = gtk_list_item_get_item (item);
  TimingColumn column = (TimingColumn) GPOINTER_TO_INT (data);
  g_autofree char *text = cell_text (ROW_DATA (row), row->index, column);

  (void) factory;
  /* on screen in the user's words; the export keeps the vendor's true/false */
  if (column == COL_IO && *text != '\0')
    gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), g_str_equal (text, "true") ? _("yes") : _("no"));
  else
    gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
on_row_selected (ZwTimingView *self)
{
  ZwRowItem *row;

  if (self->syncing)
    return;
  row = gtk_single_selection_get_selected_item (self->model);
  self->state.selected_row = row != NULL ? (gint) row->index : -1;
  view_invalidate (self);
  update_values_bar (self);
  if (row != NULL && view_report (self) != NULL)
    {
      self->syncing = TRUE;
      zw_selection_set_selected_op (zw_view_get_selection (ZW_VIEW (self)),
                                    ((ZwProfileRow *) g_ptr_array_index (ROW_DATA (row)->profile->rows, row->index))->op_id);
      self->syncing = FALSE;
    }
}

static void
reload (ZwTimingView *self)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; self->data != NULL && i < self->data->profile->rows->len; i++)
    {
      g_ptr_array_add (rows, zw_row_item_new (self->data, (GBoxedCopyFunc) timing_data_ref,
                                              (GDestroyNotify) timing_data_unref, i));
    }
  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), rows->pdata, rows->len);
  gtk_single_selection_set_selected (self->model, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
}

static void
rebuild_data (ZwTimingView *self, const ZwProfile *profile)
{
  g_clear_pointer (&self->data, timing_data_unref);
  if (profile != NULL)
    self->data = timing_data_new (profile, view_report (self));
  self->end = self->data != NULL ? zw_timing_layout (self->data->profile, NULL) : 0;
  zw_timing_state_init (&self->state);
  full_range (self, &self->state.t0, &self->state.t1);
  reload (self);
  view_invalidate (self);
  update_values_bar (self);
}

void
zw_timing_view_set_profile (ZwTimingView *self, const ZwProfile *profile)
{
  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  self->run_bound = FALSE;
  g_clear_pointer (&self->run_report, zw_deploy_report_unref);
  rebuild_data (self, profile);
}

void
zw_timing_view_set_run_profile (ZwTimingView *self, const ZwProfile *profile, ZwDeployReport *report)
{
  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  if (report != NULL)
    zw_deploy_report_ref (report);
  g_clear_pointer (&self->run_report, zw_deploy_report_unref);
  self->run_report = report;
  self->run_bound = TRUE;
  rebuild_data (self, profile);
}

const ZwProfile *
zw_timing_view_get_profile (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  return self->data != NULL ? self->data->profile : NULL;
}

const ZwTimingState *
zw_timing_view_get_state (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  return &self->state;
}

static void
zw_timing_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  ZwTimingView *self = ZW_TIMING_VIEW (view);

  if (g_str_equal (pspec->name, "report"))
    {
      /* the memory columns and merge members come from the report: rebuild with it (not
       * when this profile reads no report before and after) */
      if (self->data != NULL && self->data->report != view_report (self))
        {
          TimingData *old = timing_data_ref (self->data);
          rebuild_data (self, old->profile);
          timing_data_unref (old);
        }
    }
  else if (report_is_other (self))
    return;   /* another deployment's op or value: not one of this profile's */
  else if (g_str_equal (pspec->name, "selected-value"))
    mark_selected_value (self);
  else if (g_str_equal (pspec->name, "selected-op") && !self->syncing && self->data != NULL)
    {
      gint64 op = zw_selection_get_selected_op (zw_view_get_selection (ZW_VIEW (self)));
      gint found = -1;
      for (guint i = 0; op >= 0 && i < self->data->profile->rows->len && found < 0; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (self->data->profile->rows, i);
          const GArray *m = row_members (row, self->data->launches);
          if (row->op_id == op)
            found = (gint) i;
          for (guint k = 0; m != NULL && k < m->len && found < 0; k++)
            if (g_array_index (m, gint64, k) == op)
              found = (gint) i;
        }
      self->syncing = TRUE;
      zw_timing_view_select_row (self, found);
      self->syncing = FALSE;
      {
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted)), pos = GTK_INVALID_LIST_POSITION;
        for (guint i = 0; found >= 0 && i < n; i++)
          {
            g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
            if ((gint) item->index == found)
              pos = i;
          }
        self->syncing = TRUE;
        gtk_single_selection_set_selected (self->model, pos);
        self->syncing = FALSE;
        /* an op selected elsewhere scrolls into sight here */
        if (pos != GTK_INVALID_LIST_POSITION)
          scroll_table_to (self, pos);
      }
    }
}

guint *
zw_timing_view_get_table_order (ZwTimingView *self, guint *n_out)
{
  guint n;
  guint *order;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  order = g_new (guint, MAX (n, 1u));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (ZwRowItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      order[i] = item->index;
    }
  if (n_out)
    *n_out = n;
  return order;
}

gboolean
zw_timing_view_sort_by (ZwTimingView *self, guint column, gboolean descending)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), FALSE);
  if (column >= N_COLS)
    return FALSE;
  self->sort_column = (gint) column;
  self->sort_descending = descending;
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), self->columns[column],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
  return TRUE;
}

GPtrArray *
zw_timing_view_table (ZwTimingView *self)
{
  GPtrArray *table = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autofree guint *order = NULL;
  guint n;
  char **header;

  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), NULL);
  header = g_new0 (char *, N_COLS + 1);
  for (int c = 0; c < N_COLS; c++)
    header[c] = g_strdup (_(col_titles[c]));
  g_ptr_array_add (table, header);
  order = zw_timing_view_get_table_order (self, &n);
  for (guint i = 0; i < n; i++)
    {
      char **cells = g_new0 (char *, N_COLS + 1);
      for (int c = 0; c < N_COLS; c++)
        cells[c] = cell_text (self->data, order[i], (TimingColumn) c);
      g_ptr_array_add (table, cells);
    }
  return table;
}

void
zw_timing_view_render (ZwTimingView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  g_return_if_fail (ZW_IS_TIMING_VIEW (self));
  zw_timing_view_draw (cr, width, height, self->data != NULL ? self->data->profile : NULL, view_report (self),
                       &self->state, colors);
}

guint
zw_timing_view_get_n_rebuilds (ZwTimingView *self)
{
  g_return_val_if_fail (ZW_IS_TIMING_VIEW (self), 0);
  return self->area != NULL ? zw_draw_area_get_n_rebuilds (ZW_DRAW_AREA (self->area)) : 0;
}

/* ---- GObject ---- */

static void
zw_timing_view_dispose (GObject *object)
{
  ZwTimingView *self = ZW_TIMING_VIEW (object);

  /* the table's selection model notifies while the children go: not to us any more */
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  self->area = NULL;
  self->values_bar = NULL;
  self->table_scrolled = NULL;
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  g_signal_handlers_disconnect_by_data (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), self);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->data, timing_data_unref);
  g_clear_pointer (&self->run_report, zw_deploy_report_unref);
  G_OBJECT_CLASS (zw_timing_view_parent_class)->dispose (object);
}

/* the view's content for exports (zw_view_render) */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  zw_timing_view_render (ZW_TIMING_VIEW (view), cr, width, height, colors);
}

static GPtrArray *
view_table (ZwView *view)
{
  return zw_timing_view_table (ZW_TIMING_VIEW (view));
}

static void
zw_timing_view_class_init (ZwTimingViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_w, "timing.zoom-in" }, { GDK_KEY_W, "timing.zoom-in" }, { GDK_KEY_plus, "timing.zoom-in" },
    { GDK_KEY_s, "timing.zoom-out" }, { GDK_KEY_S, "timing.zoom-out" }, { GDK_KEY_minus, "timing.zoom-out" },
    { GDK_KEY_a, "timing.pan-left" }, { GDK_KEY_A, "timing.pan-left" }, { GDK_KEY_Left, "timing.pan-left" },
    { GDK_KEY_d, "timing.pan-right" }, { GDK_KEY_D, "timing.pan-right" }, { GDK_KEY_Right, "timing.pan-right" },
    { GDK_KEY_f, "timing.zoom-fit" }, { GDK_KEY_F, "timing.zoom-fit" },
  };

  object_class->dispose = zw_timing_view_dispose;
  ZW_VIEW_CLASS (klass)->selection_notify = zw_timing_view_selection_notify;

  gtk_widget_class_install_action (widget_class, "timing.zoom-in", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.zoom-out", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.zoom-fit", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.pan-left", NULL, action_nav);
  gtk_widget_class_install_action (widget_class, "timing.pan-right", NULL, action_nav);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, 0, keys[i].action, NULL);
  gtk_widget_class_set_css_name (widget_class, "zwtimingview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "timing", N_("Timing"), N_("Timing view"), ZW_VIEW_DATA_PROFILE);
  ZW_VIEW_CLASS (klass)->render = view_render;
  ZW_VIEW_CLASS (klass)->table = view_table;
}

static void
zw_timing_view_init (ZwTimingView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .scroll = G_CALLBACK (on_scroll),
    .drag_begin = G_CALLBACK (on_drag_begin), .drag_update = G_CALLBACK (on_drag_update), .drag_any_button = TRUE,
    .released = G_CALLBACK (on_released),
  };
  GtkWidget *scrolled;

  zw_timing_state_init (&self->state);
  self->state.t1 = 1;

  self->area = zw_draw_area_new (area_draw, area_overlay, self);
  gtk_widget_set_size_request (self->area, 400, 260);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  zw_widget_add_pointer_handlers (self->area, &handlers, self);

  /* the table: a sort model under the column view's own sorter, one custom sorter per
   * column, so header clicks sort (GTK 4.8 has no GtkColumnViewSorter API to read back) */
  self->store = g_list_store_new (ZW_TYPE_ROW_ITEM);
  self->column_view = gtk_column_view_new (NULL);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  self->model = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->model, FALSE);
  gtk_single_selection_set_can_unselect (self->model, TRUE);
  g_signal_connect_swapped (self->model, "notify::selected", G_CALLBACK (on_row_selected), self);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->model));
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  for (int c = 0; c < N_COLS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GINT_TO_POINTER (c), NULL));

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (c));
      self->columns[c] = gtk_column_view_column_new (_(col_titles[c]), factory);
      gtk_column_view_column_set_sorter (self->columns[c], sorter);
      g_object_unref (sorter);
      gtk_column_view_column_set_resizable (self->columns[c], TRUE);
      gtk_column_view_column_set_expand (self->columns[c], c == COL_MEMBERS);
      /* room for the class and the name in any language ("HardOp", not "Har…") */
      if (c == COL_CLASS || c == COL_NAME)
        gtk_column_view_column_set_fixed_width (self->columns[c], c == COL_CLASS ? 110 : 150);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), self->columns[c]);
      g_object_unref (self->columns[c]);   /* the column view holds it */
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->column_view);
  gtk_widget_set_size_request (scrolled, -1, 120);
  gtk_widget_set_vexpand (scrolled, TRUE);
  self->table_scrolled = scrolled;
  /* after a sort the list shows its top */
  self->sort_column = -1;
  self->header_column = -1;
  g_signal_connect_swapped (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), "changed",
                            G_CALLBACK (on_sorter_changed), self);
  /* the whole header cell sorts, not only its label */
  {
    GtkWidget *header = gtk_widget_get_first_child (self->column_view);
    GtkGesture *click = gtk_gesture_click_new ();
    g_assert (header != NULL);
    gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_BUBBLE);
    g_signal_connect (click, "pressed", G_CALLBACK (on_header_pressed), self);
    g_signal_connect (click, "released", G_CALLBACK (on_header_released), self);
    gtk_widget_add_controller (header, GTK_EVENT_CONTROLLER (click));
  }

  /* the selected op's values above the table */
  {
    GtkWidget *bar_scrolled = gtk_scrolled_window_new (), *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    self->values_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
    gtk_widget_set_margin_start (self->values_bar, 6);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (bar_scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (bar_scrolled), self->values_bar);
    gtk_box_append (GTK_BOX (box), bar_scrolled);
    gtk_box_append (GTK_BOX (box), scrolled);
    scrolled = box;
    update_values_bar (self);
  }

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), self->area);
  gtk_paned_set_end_child (GTK_PANED (self->paned), scrolled);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
}

GtkWidget *
zw_timing_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_TIMING_VIEW, "selection", selection, NULL);
}
