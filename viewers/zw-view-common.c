/* zw-view-common.c — drawing, report and snapshot-cache helpers shared by the views. */
#include "zw-view-private.h"

#include <math.h>
#include <string.h>

gboolean
zw_report_op_range (const ZwDeployReport *report, gint64 op_id, gint *first, gint *last)
{
  const ZwOpInfo *op;

  g_return_val_if_fail (report != NULL, FALSE);

  op = zw_deploy_report_find_op (report, op_id);
  if (op != NULL)
    {
      if (first)
        *first = (gint) op->index;
      if (last)
        *last = (gint) op->index;
      return TRUE;
    }
  for (guint i = 0; i < report->launches->len; i++)
    {
      const ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, i);
      if (l->op_id == op_id)
        {
          if (first)
            *first = l->first;
          if (last)
            *last = l->last;
          return TRUE;
        }
    }
  return FALSE;
}

gint
zw_report_launch_of_op (const ZwDeployReport *report, gint64 op_id)
{
  const ZwOpInfo *op;

  g_return_val_if_fail (report != NULL, -1);

  for (guint i = 0; i < report->launches->len; i++)
    if (g_array_index (report->launches, ZwLaunch, i).op_id == op_id)
      return (gint) i;
  op = zw_deploy_report_find_op (report, op_id);
  if (op != NULL && op->launch >= 0 && (guint) op->launch < report->launches->len)
    return op->launch;
  return -1;
}

void
zw_painter_init (ZwPainter *p, cairo_t *cr, const ZwViewStyle *style)
{
  PangoFontDescription *font;

  p->cr = cr;
  p->style = style;
  p->layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans");
  pango_font_description_set_absolute_size (font, style->font_size * PANGO_SCALE);
  pango_layout_set_font_description (p->layout, font);
  pango_font_description_free (font);
  p->dim = style->foreground;
  p->dim.alpha *= 0.7f;
}

void
zw_painter_begin (ZwPainter *p, cairo_t *cr, const ZwViewStyle *style)
{
  cairo_save (cr);
  zw_cairo_set_color (cr, &style->background);
  cairo_paint (cr);
  zw_painter_init (p, cr, style);
}

void
zw_painter_clear (ZwPainter *p)
{
  g_clear_object (&p->layout);
}

void
zw_painter_set_bold (ZwPainter *p, gboolean bold)
{
  PangoFontDescription *font = pango_font_description_copy (pango_layout_get_font_description (p->layout));

  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (p->layout, font);
  pango_font_description_free (font);
}

double
zw_painter_text_width (ZwPainter *p, const char *text)
{
  int w, h;

  pango_layout_set_width (p->layout, -1);
  pango_layout_set_text (p->layout, text, -1);
  pango_layout_get_pixel_size (p->layout, &w, &h);
  return w;
}

double
zw_painter_text (ZwPainter *p, double x, double y, double halign, double valign, double max_width,
                 const GdkRGBA *color, const char *text)
{
  int w, h;

  pango_layout_set_text (p->layout, text, -1);
  if (max_width > 0)
    {
      pango_layout_set_width (p->layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
    }
  else
    {
      pango_layout_set_width (p->layout, -1);
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
    }
  pango_layout_get_pixel_size (p->layout, &w, &h);
  zw_cairo_set_color (p->cr, color != NULL ? color : &p->style->foreground);
  cairo_move_to (p->cr, round (x - halign * w), round (y - valign * h));
  pango_cairo_show_layout (p->cr, p->layout);
  return w;
}

void
zw_cairo_set_color (cairo_t *cr, const GdkRGBA *color)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}

void
zw_cairo_set_color_alpha (cairo_t *cr, const GdkRGBA *color, double alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

GdkRGBA
zw_rgba_mix (const GdkRGBA *a, const GdkRGBA *b, double t)
{
  GdkRGBA c;

  c.red = (float) (a->red + (b->red - a->red) * t);
  c.green = (float) (a->green + (b->green - a->green) * t);
  c.blue = (float) (a->blue + (b->blue - a->blue) * t);
  c.alpha = (float) (a->alpha + (b->alpha - a->alpha) * t);
  return c;
}

const char *
zw_op_class_short (const char *op_type, char *buf, gsize size)
{
  const char *s = op_type != NULL ? op_type : "";
  gsize n;

  if (g_str_has_prefix (s, "icraft::xir::"))
    s += strlen ("icraft::xir::");
  else if (g_str_has_prefix (s, "customop::"))
    s += strlen ("customop::");
  g_strlcpy (buf, s, size);
  n = strlen (buf);
  if (n > 4 && g_str_has_suffix (buf, "Node"))
    buf[n - 4] = '\0';
  return buf;
}

char *
zw_format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

double
zw_nice_step (double span, int n)
{
  double raw, mag, f;

  if (span <= 0 || n <= 0)
    return 1;
  raw = span / n;
  mag = pow (10, floor (log10 (raw)));
  f = raw / mag;
  if (f <= 1)
    f = 1;
  else if (f <= 2)
    f = 2;
  else if (f <= 5)
    f = 5;
  else
    f = 10;
  return f * mag;
}

double
zw_nice_bytes_step (double span, int n)
{
  double unit = 1;

  /* Steps in whole KiB / MiB / GiB so that the labels read 512 KiB, not 488.3 KiB. */
  while (unit < 1024.0 * 1024 * 1024 && span / (unit * 1024) >= 1)
    unit *= 1024;
  if (unit > 1 && zw_nice_step (span / unit, n) < 1)
    unit /= 1024;
  return zw_nice_step (span / unit, n) * unit;
}

void
zw_draw_empty (ZwPainter *p, int width, int height, const char *message)
{
  GdkRGBA dim = p->style->foreground;

  dim.alpha *= 0.55f;
  zw_painter_text (p, width / 2.0, height / 2.0, 0.5, 0.5, width - 20, &dim, message);
}

void
zw_view_cache_invalidate (ZwViewCache *cache)
{
  g_clear_pointer (&cache->node, gsk_render_node_unref);
}

gboolean
zw_view_cache_snapshot (ZwViewCache *cache, GtkWidget *widget, GtkSnapshot *snapshot, ZwExportDrawFunc draw,
                        gpointer user_data)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  ZwViewStyle style;

  if (width <= 0 || height <= 0)
    return FALSE;

  zw_view_style_from_widget (&style, widget);
  if (cache->node == NULL || cache->width != width || cache->height != height
      || memcmp (&style, &cache->style, sizeof style) != 0)
    {
      GtkSnapshot *sub = gtk_snapshot_new ();
      cairo_t *cr = gtk_snapshot_append_cairo (sub, &GRAPHENE_RECT_INIT (0, 0, width, height));

      draw (cr, width, height, &style, user_data);
      cairo_destroy (cr);
      g_clear_pointer (&cache->node, gsk_render_node_unref);
      cache->node = gtk_snapshot_free_to_node (sub);
      cache->width = width;
      cache->height = height;
      cache->style = style;
      cache->n_rebuilds++;
    }
  if (cache->node != NULL)
    gtk_snapshot_append_node (snapshot, cache->node);
  return TRUE;
}
