/* zw-segment-view.c — logic and physical segments side by side on an address axis. */
#include "zw-segment-view.h"
#include "zw-view-private.h"
#include "zw-segment-pipeline.h"

#include <glib/gi18n.h>
#include <math.h>

enum { COL_LOGIC, COL_PHY, N_COLS };

typedef struct {
  ZwSegmentType type;
  double x, y, w, h;
  guint64 addr;   /* start address in this column */
  guint64 size;   /* bytes in this column (0: not allocated) */
} SegBlock;

typedef struct {
  double title_y;
  double header_y;
  double label_x[N_COLS];
  double label_w;
  SegBlock blocks[N_COLS][ZW_N_SEGMENTS]; /* in address order */
} SegLayout;

#define MARGIN 8.0
#define ADDR_W 80.0
#define GAP 3.0

static guint64
segment_addr (const ZwSegmentInfo *s, int col)
{
  return col == COL_LOGIC ? s->logic_addr : s->phy_addr;
}

static guint64
segment_size (const ZwSegmentInfo *s, int col)
{
  return col == COL_LOGIC ? s->byte_size : s->phy_size;
}

/* Blocks are sized by bytes but never below a readable minimum: WEIGHT is often 1000x
 * INPUT, and a purely linear axis would hide the small segments. Addresses are labelled at
 * each boundary so the axis stays truthful. */
static void
seg_layout (const ZwDeployReport *report, int width, int height, const ZwViewStyle *style, SegLayout *l)
{
  double line = style->font_size * 1.5;
  double top, avail, col_w;

  l->title_y = MARGIN;
  l->header_y = MARGIN + line;
  top = MARGIN + 2 * line + 4;
  col_w = MAX (60.0, (width - 3 * MARGIN) / 2.0);
  avail = MAX (10.0, height - top - MARGIN - line);

  for (int col = 0; col < N_COLS; col++)
    {
      ZwSegmentType order[ZW_N_SEGMENTS];
      double min_h, y, total = 0, spare;
      double x = MARGIN + col * (col_w + MARGIN);

      for (int t = 0; t < ZW_N_SEGMENTS; t++)
        {
          order[t] = (ZwSegmentType) t;
          total += (double) segment_size (&report->segments[t], col);
        }
      /* Address order; segments not allocated in this column go last. */
      for (int i = 1; i < ZW_N_SEGMENTS; i++)
        for (int j = i; j > 0; j--)
          {
            const ZwSegmentInfo *a = &report->segments[order[j - 1]], *b = &report->segments[order[j]];
            gboolean a_none = segment_size (a, col) == 0, b_none = segment_size (b, col) == 0;
            if ((a_none && !b_none) || (a_none == b_none && segment_addr (a, col) > segment_addr (b, col)))
              {
                ZwSegmentType t = order[j - 1];
                order[j - 1] = order[j];
                order[j] = t;
              }
          }

      min_h = MIN (2.2 * line, (avail - GAP * (ZW_N_SEGMENTS - 1)) / ZW_N_SEGMENTS);
      spare = avail - GAP * (ZW_N_SEGMENTS - 1) - min_h * ZW_N_SEGMENTS;
      y = top;
      l->label_x[col] = x;
      l->label_w = ADDR_W;
      for (int i = 0; i < ZW_N_SEGMENTS; i++)
        {
          const ZwSegmentInfo *s = &report->segments[order[i]];
          SegBlock *b = &l->blocks[col][i];

          b->type = order[i];
          b->addr = segment_addr (s, col);
          b->size = segment_size (s, col);
          b->x = x + ADDR_W;
          b->w = MAX (20.0, col_w - ADDR_W);
          b->h = min_h + (total > 0 ? spare * (double) b->size / total : spare / ZW_N_SEGMENTS);
          b->y = y;
          y += b->h + GAP;
        }
    }
}

static const SegBlock *
seg_find_block (const SegLayout *l, int col, ZwSegmentType type)
{
  for (int i = 0; i < ZW_N_SEGMENTS; i++)
    if (l->blocks[col][i].type == type)
      return &l->blocks[col][i];
  return NULL;
}

/* The y span of bytes [offset, offset + size) of block @b; FALSE when outside it. */
static gboolean
seg_span (const SegBlock *b, guint64 offset, guint64 size, double *y0, double *y1)
{
  if (b->size == 0 || offset >= b->size)
    return FALSE;
  *y0 = b->y + b->h * (double) offset / (double) b->size;
  *y1 = b->y + b->h * (double) MIN (offset + size, b->size) / (double) b->size;
  return TRUE;
}

/* Where a value lies inside its segment in column @col (offset from the block start). */
static gboolean
value_offset (const ZwDeployReport *report, const ZwValueInfo *v, int col, guint64 *offset)
{
  const ZwSegmentInfo *s;
  guint64 addr, base;

  if (v->is_ocm || v->is_host || v->segment >= ZW_N_SEGMENTS)
    return FALSE;
  s = &report->segments[v->segment];
  addr = col == COL_LOGIC ? v->logic_addr : v->phy_addr;
  base = segment_addr (s, col);
  if (addr < base || addr >= base + segment_size (s, col))
    return FALSE;
  *offset = addr - base;
  return TRUE;
}

static gboolean
value_rect (const ZwDeployReport *report, const SegLayout *l, const ZwValueInfo *v, int col, graphene_rect_t *r)
{
  const SegBlock *b;
  guint64 offset;
  double y0, y1;

  if (!value_offset (report, v, col, &offset))
    return FALSE;
  b = seg_find_block (l, col, v->segment);
  if (b == NULL || !seg_span (b, offset, v->byte_size, &y0, &y1))
    return FALSE;
  /* At least one pixel high, so a tiny selected value is still visible. */
  graphene_rect_init (r, b->x, y0, b->w, MAX (1.0, y1 - y0));
  return TRUE;
}

/* Subdivisions as lines only, so the segment keeps its colour: FTMP chunks on the left
 * half (with ETM optimize on they overlap in address, reused over time), real values on
 * the right half. Lines that land on a pixel row already drawn are skipped (a 10,000-op
 * net has thousands of them). */
static void
draw_block_contents (cairo_t *cr, const ZwDeployReport *report, const SegBlock *b, int col,
                     const ZwViewStyle *style)
{
  g_autoptr (GHashTable) rows = g_hash_table_new (NULL, NULL);
  GdkRGBA line = zw_rgba_mix (&style->segment[b->type], &style->foreground, 0.45);
  double half = floor (b->w / 2);

  if (b->type == ZW_SEGMENT_FTMP)
    for (guint i = 0; i < report->chunks->len; i++)
      {
        const ZwChunkInfo *c = &g_array_index (report->chunks, ZwChunkInfo, i);
        double y0, y1;

        if (c->in_ocm || !seg_span (b, c->ftmp_offset, c->size, &y0, &y1))
          continue;
        for (int e = 0; e < 2; e++)
          {
            int row = (int) floor (e == 0 ? y0 : y1);
            if (row <= b->y || row >= b->y + b->h - 1 || g_hash_table_contains (rows, GINT_TO_POINTER (row)))
              continue;
            g_hash_table_add (rows, GINT_TO_POINTER (row));
            cairo_rectangle (cr, b->x, row, half, 1);
          }
      }

  g_hash_table_remove_all (rows);
  for (guint i = 0; i < report->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (report->values, ZwValueInfo, i);
      guint64 offset;
      double y0, y1;

      if (v->segment != b->type || !v->real || !value_offset (report, v, col, &offset)
          || !seg_span (b, offset, v->byte_size, &y0, &y1))
        continue;
      for (int e = 0; e < 2; e++)
        {
          int row = (int) floor (e == 0 ? y0 : y1);
          if (row <= b->y || row >= b->y + b->h - 1 || g_hash_table_contains (rows, GINT_TO_POINTER (row)))
            continue;
          g_hash_table_add (rows, GINT_TO_POINTER (row));
          cairo_rectangle (cr, b->x + half, row, b->w - half, 1);
        }
    }
  zw_cairo_set_color_alpha (cr, &line, 0.7);
  cairo_fill (cr);
  if (b->type == ZW_SEGMENT_FTMP || b->type == ZW_SEGMENT_INPUT || b->type == ZW_SEGMENT_OUTPUT)
    {
      /* The divider between the chunk half and the value half. */
      zw_cairo_set_color_alpha (cr, &line, 0.35);
      cairo_rectangle (cr, b->x + half, b->y + 1, 1, b->h - 2);
      cairo_fill (cr);
    }
}

const char *
zw_segment_view_get_legend (void)
{
  /* a new user asked whether the heights are to scale and what the thin lines are */
  return _("Heights not to scale (bytes in the labels). Inner lines: left, FTMP chunks (reused over time); right, "
           "values. Physical: where the board allocated each segment.");
}

void
zw_segment_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                      const ZwViewStyle *colors)
{
  static const char *col_titles[N_COLS] = { N_("Logic segments"), N_("Physical segments") };
  const ZwValueInfo *selected = NULL;
  ZwPainter p;
  SegLayout l;

  g_return_if_fail (cr != NULL && colors != NULL);

  zw_painter_begin (&p, cr, colors);

  if (report == NULL)
    {
      zw_draw_empty (&p, width, height, _("No deploy report"));
      goto out;
    }

  seg_layout (report, width, height, colors, &l);
  if (selection != NULL && zw_selection_get_selected_value (selection) >= 0)
    selected = zw_deploy_report_find_value (report, zw_selection_get_selected_value (selection));

  {
    g_autofree char *title = g_strdup_printf (_("Segments of %s"), report->network_name ? report->network_name : "?");
    zw_painter_set_bold (&p, TRUE);
    zw_painter_text (&p, MARGIN, l.title_y, 0, 0, width - 2 * MARGIN, NULL, title);
    zw_painter_set_bold (&p, FALSE);
  }

  for (int col = 0; col < N_COLS; col++)
    {
      GdkRGBA dim = colors->foreground;
      dim.alpha *= 0.7f;

      zw_painter_text (&p, l.blocks[col][0].x, l.header_y, 0, 0, l.blocks[col][0].w, &dim, _(col_titles[col]));
      for (int i = 0; i < ZW_N_SEGMENTS; i++)
        {
          const SegBlock *b = &l.blocks[col][i];
          g_autofree char *size_text = NULL;
          g_autofree char *label = NULL;
          g_autofree char *addr = NULL;
          double label_y;

          if (b->size == 0)
            {
              /* Not allocated here (e.g. INPUT/OUTPUT given by the user at run time). */
              double dashes[] = { 4, 3 };
              zw_cairo_set_color (cr, &colors->grid);
              cairo_set_line_width (cr, 1);
              cairo_set_dash (cr, dashes, 2, 0);
              cairo_rectangle (cr, b->x + 0.5, b->y + 0.5, b->w - 1, b->h - 1);
              cairo_stroke (cr);
              cairo_set_dash (cr, NULL, 0, 0);
              label = g_strdup_printf (_("%s: not allocated"), zw_segment_type_to_string (b->type));
              zw_painter_text (&p, b->x + 6, b->y + b->h / 2, 0, 0.5, b->w - 12, &dim, label);
              continue;
            }

          zw_cairo_set_color (cr, &colors->segment[b->type]);
          cairo_rectangle (cr, b->x, b->y, b->w, b->h);
          cairo_fill (cr);
          draw_block_contents (cr, report, b, col, colors);
          zw_cairo_set_color (cr, &colors->grid);
          cairo_set_line_width (cr, 1);
          cairo_rectangle (cr, b->x + 0.5, b->y + 0.5, b->w - 1, b->h - 1);
          cairo_stroke (cr);

          size_text = zw_format_bytes (b->size);
          label = g_strdup_printf (_("%s  %s (%llu bytes)"), zw_segment_type_to_string (b->type),
                                   size_text, (unsigned long long) b->size);
          /* Labels are drawn on the segment colour, which is light in the light theme and
           * dark in the dark one: the foreground colour reads on both. */
          label_y = b->y + MIN (b->h / 2, colors->font_size * 1.1);
          zw_painter_set_bold (&p, TRUE);
          zw_painter_text (&p, b->x + 6, label_y, 0, 0.5, b->w - 12, NULL, label);
          zw_painter_set_bold (&p, FALSE);

          addr = g_strdup_printf ("0x%08" G_GINT64_MODIFIER "x", b->addr);
          zw_painter_text (&p, b->x - 4, b->y, 1, 0, ADDR_W - 6, &dim, addr);
          if (i + 1 == ZW_N_SEGMENTS || l.blocks[col][i + 1].size == 0
              || l.blocks[col][i + 1].addr != b->addr + b->size)
            {
              g_autofree char *end = g_strdup_printf ("0x%08" G_GINT64_MODIFIER "x", b->addr + b->size);
              zw_painter_text (&p, b->x - 4, b->y + b->h, 1, 1, ADDR_W - 6, &dim, end);
            }
        }

      if (selected != NULL)
        {
          graphene_rect_t r;
          if (value_rect (report, &l, selected, col, &r))
            {
              zw_cairo_set_color_alpha (cr, &colors->accent, 0.45);
              cairo_rectangle (cr, r.origin.x, r.origin.y, r.size.width, r.size.height);
              cairo_fill (cr);
              zw_cairo_set_color (cr, &colors->accent);
              cairo_set_line_width (cr, 2);
              cairo_rectangle (cr, r.origin.x + 1, r.origin.y, r.size.width - 2, r.size.height);
              cairo_stroke (cr);
            }
        }
    }

  {
    GdkRGBA dim = colors->foreground;
    dim.alpha *= 0.7f;
    /* the line the layout keeps free below the blocks */
    zw_painter_text (&p, MARGIN, height - MARGIN, 0, 1, width - 2 * MARGIN, &dim, zw_segment_view_get_legend ());
  }

out:
  zw_painter_clear (&p);
  cairo_restore (cr);
}

/* Hit test: the column and segment under (x, y), and the value there (-1 when none). */
static gboolean
seg_hit (ZwDeployReport *report, const SegLayout *l, double x, double y, int *col_out, ZwSegmentType *type_out,
         gint64 *v_id_out)
{
  for (int col = 0; col < N_COLS; col++)
    for (int i = 0; i < ZW_N_SEGMENTS; i++)
      {
        const SegBlock *b = &l->blocks[col][i];
        const ZwValueInfo *best = NULL;
        guint64 offset;

        if (x < b->x || x >= b->x + b->w || y < b->y || y >= b->y + b->h)
          continue;
        *col_out = col;
        *type_out = b->type;
        *v_id_out = -1;
        if (b->size == 0)
          return TRUE;
        offset = (guint64) ((y - b->y) / b->h * (double) b->size);
        /* Several values share bytes (reuse over time, fake values): the smallest real
         * value containing the address, so a click can reach every value by zooming. */
        for (guint k = 0; k < report->values->len; k++)
          {
            const ZwValueInfo *v = &g_array_index (report->values, ZwValueInfo, k);
            guint64 vo;
            double y0, y1;

            if (v->segment != b->type || !value_offset (report, v, col, &vo)
                || !seg_span (b, vo, v->byte_size, &y0, &y1))
              continue;
            if (!(offset >= vo && offset < vo + v->byte_size) && !(y >= floor (y0) && y < floor (y0) + 1))
              continue;
            if (best == NULL || (v->real && !best->real)
                || (v->real == best->real && v->byte_size < best->byte_size))
              best = v;
          }
        if (best != NULL)
          *v_id_out = best->v_id;
        return TRUE;
      }
  return FALSE;
}

gint64
zw_segment_view_value_at (ZwDeployReport *report, int width, int height, double x, double y)
{
  ZwViewStyle style;
  SegLayout l;
  ZwSegmentType type;
  gint64 v_id = -1;
  int col;

  g_return_val_if_fail (report != NULL, -1);

  zw_view_style_init_default (&style);
  seg_layout (report, width, height, &style, &l);
  if (!seg_hit (report, &l, x, y, &col, &type, &v_id))
    return -1;
  return v_id;
}

/* ---- the widget ---- */

struct _ZwSegmentView
{
  ZwView parent_instance;
  gint64 hover_value;
};

G_DEFINE_FINAL_TYPE (ZwSegmentView, zw_segment_view, ZW_TYPE_VIEW)

static void
zw_segment_view_selection_notify (ZwView *view, GParamSpec *pspec)
{
  (void) pspec;
  ZW_SEGMENT_VIEW (view)->hover_value = -1;
  zw_view_invalidate (view);
}

/* Only the hover highlight is drawn per frame, over the cached content. */
static void
zw_segment_view_snapshot_overlay (ZwView *view, GtkSnapshot *snapshot, int width, int height,
                                  const ZwViewStyle *style)
{
  ZwSegmentView *self = ZW_SEGMENT_VIEW (view);
  ZwDeployReport *report = zw_view_get_report (view);
  const ZwValueInfo *v;

  if (report != NULL && self->hover_value >= 0 && (v = zw_deploy_report_find_value (report, self->hover_value)))
    {
      SegLayout l;
      seg_layout (report, width, height, style, &l);
      for (int col = 0; col < N_COLS; col++)
        {
          graphene_rect_t r;
          if (value_rect (report, &l, v, col, &r))
            gtk_snapshot_append_color (snapshot, &style->hover, &r);
        }
    }
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ZwSegmentView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  gint64 v_id = -1;

  (void) controller;
  if (report != NULL)
    {
      SegLayout l;
      ZwSegmentType type;
      int col;

      seg_layout (report, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)),
                  zw_view_get_style (ZW_VIEW (self)), &l);
      if (!seg_hit (report, &l, x, y, &col, &type, &v_id))
        v_id = -1;
    }
  if (v_id != self->hover_value)
    {
      self->hover_value = v_id;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *controller, ZwSegmentView *self)
{
  (void) controller;
  if (self->hover_value != -1)
    {
      self->hover_value = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, ZwSegmentView *self)
{
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  SegLayout l;
  ZwSegmentType type;
  gint64 v_id = -1;
  int col;

  (void) gesture;
  (void) n_press;
  if (report == NULL)
    return;
  seg_layout (report, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)),
              zw_view_get_style (ZW_VIEW (self)), &l);
  if (!seg_hit (report, &l, x, y, &col, &type, &v_id))
    v_id = -1;
  zw_selection_set_selected_value (zw_view_get_selection (ZW_VIEW (self)), v_id);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  ZwSegmentView *self = ZW_SEGMENT_VIEW (widget);
  ZwDeployReport *report = zw_view_get_report (ZW_VIEW (self));
  g_autoptr (GString) text = NULL;
  const ZwSegmentInfo *s;
  ZwSegmentType type;
  gint64 v_id = -1;
  SegLayout l;
  int col;

  (void) keyboard;
  if (report == NULL)
    return FALSE;
  seg_layout (report, gtk_widget_get_width (widget), gtk_widget_get_height (widget), zw_view_get_style (ZW_VIEW (self)), &l);
  if (!seg_hit (report, &l, x, y, &col, &type, &v_id))
    return FALSE;

  text = g_string_new (NULL);
  if (v_id >= 0)
    {
      const ZwValueInfo *v = zw_deploy_report_find_value (report, v_id);
      const ZwOpInfo *op = zw_deploy_report_find_op (report, v->producer);

      g_string_append_printf (text, _("Value %lld"), (long long) v->v_id);
      if (op != NULL)
        g_string_append_printf (text, _(", produced by op %lld (%s)"), (long long) op->op_id, op->op_class);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("%llu bytes"), (unsigned long long) v->byte_size);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("logic 0x%08llx, phy 0x%08llx"),
                              (unsigned long long) v->logic_addr, (unsigned long long) v->phy_addr);
      g_string_append_c (text, '\n');
      if (v->real)
        g_string_append (text, _("real"));
      else
        g_string_append_printf (text, _("fake (inside value %lld)"), (long long) v->fake_from);
      g_string_append_printf (text, _(", live from op index %d to %d"), v->first, v->last);
    }
  else
    {
      g_autofree char *size = NULL;
      s = &report->segments[type];
      size = zw_format_bytes (segment_size (s, col));
      g_string_append_printf (text, _("%s segment: %s"), zw_segment_type_to_string (type), size);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("logic 0x%08lx, phy 0x%08lx"),
                              s->logic_addr, s->phy_addr);
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
zw_segment_view_class_init (ZwSegmentViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ZwViewClass *view_class = ZW_VIEW_CLASS (klass);

  view_class->draw = zw_segment_view_draw;
  view_class->draw_pipeline = zw_segment_pass_draw;
  view_class->draws_itself = TRUE;
  view_class->snapshot_overlay = zw_segment_view_snapshot_overlay;
  view_class->selection_notify = zw_segment_view_selection_notify;
  widget_class->query_tooltip = on_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "zwsegmentview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "segments", N_("Segments"), N_("Segments view"), ZW_VIEW_DATA_REPORT);
}

static void
zw_segment_view_init (ZwSegmentView *self)
{
  static const ZwPointerHandlers handlers = {
    .motion = G_CALLBACK (on_motion), .leave = G_CALLBACK (on_leave), .pressed = G_CALLBACK (on_pressed),
  };

  self->hover_value = -1;
  zw_widget_add_pointer_handlers (GTK_WIDGET (self), &handlers, self);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 240);
}


GtkWidget *
zw_segment_view_new (ZwSelection *selection)
{
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (ZW_TYPE_SEGMENT_VIEW, "selection", selection, NULL);
}

guint
zw_segment_view_get_n_rebuilds (GtkWidget *view)
{
  g_return_val_if_fail (ZW_IS_SEGMENT_VIEW (view), 0);
  return zw_view_get_n_rebuilds (ZW_VIEW (view));
}
