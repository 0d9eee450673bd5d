/* zw-timing-draw.c — the Timing view's picture in cairo: title and legend, lanes, ruler,
 * bars (sub-pixel ones folded per pixel column), merge bands, the drag-selected range and
 * the summary blocks. Places everything through zw-timing-geometry.h. */
#include "zw-timing-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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

char *
zw_timing_view_dup_headline_tooltip (const ZwProfile *profile)
{
  g_autofree char *headline = NULL;
  GString *s;
  guint shown = 0;

  g_return_val_if_fail (profile != NULL, NULL);
  headline = zw_timing_view_headline (profile);
  s = g_string_new (headline);
  for (guint i = 0; profile->flags != NULL && i < profile->rows->len && shown < 20; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
      guint f = profile->flags[i];

      if ((f & ZW_PROFILE_ROW_IMPOSSIBLE) == 0)
        continue;
      g_string_append_c (s, '\n');
      /* TRANSLATORS: a row whose times cannot be: its op id and type, its times */
      g_string_append_printf (s, _("op %lld %s: total %.6g ms, memcpy %.6g, hard %.6g, other %.6g"),
                              (long long) row->op_id, row->op_type != NULL ? row->op_type : "?", row->total_ms,
                              row->memcpy_ms, row->hard_ms, row->other_ms);
      if (f & ZW_PROFILE_ROW_HARD_OVER_TOTAL)
        g_string_append_printf (s, " · %s", _("hard > total"));
      if (f & ZW_PROFILE_ROW_PARTS_OVER_TOTAL)
        g_string_append_printf (s, " · %s", _("memcpy + hard + other > total"));
      if (f & (ZW_PROFILE_ROW_NEGATIVE_OTHER | ZW_PROFILE_ROW_NEGATIVE_TIME))
        g_string_append_printf (s, " · %s", _("a negative time"));
      shown++;
    }
  return g_string_free (s, FALSE);
}

const char *
zw_timing_row_layer_class_into (const ZwProfileRow *row, GHashTable *ops, GHashTable *launches, char *buf, gsize size)
{
  const ZwOpInfo *op = ops != NULL ? g_hash_table_lookup (ops, &row->op_id) : NULL;
  const GArray *members;

  if (op != NULL && op->op_class != NULL && op->op_class[0] != '\0' && g_strcmp0 (op->op_class, op->kind) != 0)
    return zw_op_class_short (op->op_class, buf, size);
  members = zw_timing_row_members (row, launches);
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
  g_autoptr (GHashTable) launches = zw_timing_index_launches (report);
  char buf[128];

  g_return_val_if_fail (row != NULL, NULL);
  return g_strdup (zw_timing_row_layer_class_into (row, ops, launches, buf, sizeof buf));
}

/* ---- drawing ---- */

static void
draw_ruler (ZwPainter *p, const ZwTimingGeometry *g, const ZwViewStyle *colors)
{
  cairo_t *cr = p->cr;
  double step = zw_timing_geometry_ruler_step (g);
  double first = ceil (g->t0 / step) * step;
  GdkRGBA dim = colors->foreground;

  dim.alpha *= 0.75f;
  zw_cairo_set_color (cr, &colors->grid);
  cairo_rectangle (cr, g->x0, g->ruler_y1 - 1, g->x1 - g->x0, 1);
  cairo_fill (cr);
  for (double t = first; t <= g->t1 + step * 1e-6; t += step)
    {
      double x = round (zw_timing_geometry_x (g, t));
      char text[64];

      zw_cairo_set_color (cr, &colors->grid);
      cairo_rectangle (cr, x, g->ruler_y1 - 6, 1, 6);
      cairo_rectangle (cr, x, g->lane_y[0][0], 1, g->lane_y[ZW_TIMING_LANE_HOST][1] - g->lane_y[0][0]);
      cairo_fill (cr);
      zw_timing_tick_label (t, step, text, sizeof text);
      /* a label that would run past the plot is left out rather than cut */
      if (x + 3 + zw_painter_text_width (p, text) <= g->x1 + ZW_TIMING_MARGIN)
        zw_painter_text (p, x + 3, g->ruler_y0 + 2, 0, 0, 0, &dim, text);
    }
}

void
zw_timing_draw_selection (ZwPainter *p, const ZwTimingGeometry *g, const ZwProfile *profile,
                          const ZwTimingState *state, const ZwViewStyle *colors)
{
  double a, b, npu, host, tw;
  guint n;
  char text[256];

  if (state == NULL || state->sel_t1 <= state->sel_t0)
    return;
  a = MAX (g->x0, zw_timing_geometry_x (g, state->sel_t0));
  b = MIN (g->x1, zw_timing_geometry_x (g, state->sel_t1));
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
    cairo_rectangle (p->cr, round (cx - tw / 2), g->ruler_y0, round (tw), ZW_TIMING_RULER_H - 2);
    cairo_fill (p->cr);
    zw_painter_text (p, cx, g->ruler_y0 + (ZW_TIMING_RULER_H - 2) / 2, 0.5, 0.5, 0, &colors->background, text);
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
draw_summary (ZwPainter *p, const ZwTimingGeometry *g, int width, const ZwProfile *profile, ZwDeployReport *report,
              const ZwViewStyle *colors)
{
  static const char *titles[ZW_PROFILE_N_SUMMARY] = { N_("Data input"), N_("icore [npu]"), N_("Data output"),
                                                      N_("CPU operators") };
  double y = g->summary_y, col_w = (width - 2 * ZW_TIMING_MARGIN) / 4.0;
  GdkRGBA dim = colors->foreground;
  char line[256];

  dim.alpha *= 0.7f;
  zw_cairo_set_color (p->cr, &colors->grid);
  cairo_rectangle (p->cr, ZW_TIMING_MARGIN, y - 3, width - 2 * ZW_TIMING_MARGIN, 1);
  cairo_fill (p->cr);
  for (int k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      double x = ZW_TIMING_MARGIN + k * col_w;
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
  zw_painter_text (p, ZW_TIMING_MARGIN, y, 0, 0, width - 2 * ZW_TIMING_MARGIN, NULL, line);
  if (profile->has_host_measured)
    {
      /* the dev host's clock: shown apart and labelled, in no total above */
      g_snprintf (line, sizeof line, _("Host ops measured on this PC: %.6g ms (not simulated; in no total)"),
                  profile->host_measured_ms);
      zw_painter_text (p, ZW_TIMING_MARGIN, y + 34, 0, 0, width - 2 * ZW_TIMING_MARGIN, &dim, line);
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
      zw_painter_text (p, ZW_TIMING_MARGIN, y + 17, 0, 0, width - 2 * ZW_TIMING_MARGIN, &dim, line);
    }
}

void
zw_timing_draw_content (cairo_t *cr, int width, int height, const ZwProfile *profile, ZwDeployReport *report,
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
  ZwTimingGeometry g;
  GdkRGBA dim;

  zw_painter_begin (&p, cr, colors);
  dim = p.dim;

  if (profile == NULL || profile->rows->len == 0)
    {
      zw_draw_empty (&p, width, height, _("No time profile"));
      goto out;
    }
  end = zw_timing_layout (profile, &starts);
  launches = zw_timing_index_launches (report);
  ops = report != NULL ? zw_report_index_ops (report) : NULL;
  zw_timing_geometry_init (&g, end, state, width, height, zw_timing_profile_has_merged (profile, launches));

  {
    g_autofree char *title = zw_timing_view_headline (profile);
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, ZW_TIMING_MARGIN, ZW_TIMING_MARGIN, 0, 0, width * 0.6, NULL, title);
    zw_painter_set_bold (&p, FALSE);
    /* legend */
    {
      static const char *names[3] = { N_("memcpy"), N_("hard"), N_("other") };
      double x = width - ZW_TIMING_MARGIN;
      for (int k = 2; k >= 0; k--)
        {
          x -= zw_painter_text_width (&p, _(names[k])) + 6;
          zw_painter_text (&p, x + 3, ZW_TIMING_MARGIN, 0, 0, 0, &dim, _(names[k]));
          x -= 12;
          zw_cairo_set_color (cr, part_colors[k]);
          cairo_rectangle (cr, x, ZW_TIMING_MARGIN + 3, 10, 10);
          cairo_fill (cr);
          x -= 8;
        }
    }
  }

  for (int l = 0; l < 3; l++)
    {
      zw_painter_text (&p, ZW_TIMING_MARGIN, (g.lane_y[l][0] + g.lane_y[l][1]) / 2, 0, 0.5, ZW_TIMING_LABEL_W - 4, &dim,
                       _(lane_names[l]));
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
      double a = round (zw_timing_geometry_x (&g, starts[i]));
      double b = round (zw_timing_geometry_x (&g, starts[i] + MAX (row->total_ms, 0.0)));
      double y0 = g.lane_y[lane][0] + 3, y1 = g.lane_y[lane][1] - 3;
      const GArray *members = zw_timing_row_members (row, launches);
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
          zw_timing_bar_parts (row, 1, parts);
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
          zw_timing_bar_parts (row, w, parts);
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
              zw_timing_row_layer_class_into (row, ops, launches, cls, sizeof cls);
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
    zw_timing_draw_selection (&p, &g, profile, state, colors);
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
  zw_timing_draw_content (cr, width, height, profile, report, state, colors, TRUE);
}
