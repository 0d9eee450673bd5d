/* zw-test-pixels.c — see zw-test-pixels.h. */
#include "zw-test-pixels.h"

#include <math.h>
#include <stdlib.h>

guint32
zw_test_pixel (cairo_surface_t *s, double x, double y)
{
  gint ix = (gint) floor (x), iy = (gint) floor (y);

  cairo_surface_flush (s);
  g_assert_true (ix >= 0 && iy >= 0 && ix < cairo_image_surface_get_width (s)
                 && iy < cairo_image_surface_get_height (s));
  return *(const guint32 *) (cairo_image_surface_get_data (s) + (gsize) iy * cairo_image_surface_get_stride (s)
                             + (gsize) ix * 4);
}

guint32
zw_test_argb (const GdkRGBA *c)
{
  return 0xff000000u | ((guint32) lround (c->red * 255) << 16) | ((guint32) lround (c->green * 255) << 8)
         | (guint32) lround (c->blue * 255);
}

gboolean
zw_test_near (guint32 a, guint32 b, int tol)
{
  for (int shift = 0; shift < 24; shift += 8)
    if (abs ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tol)
      return FALSE;
  return TRUE;
}

gboolean
zw_test_surfaces_differ (cairo_surface_t *a, cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint n = 0;

  g_assert_cmpint (cairo_image_surface_get_width (b), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += (zw_test_pixel (a, x, y) & 0xffffff) != (zw_test_pixel (b, x, y) & 0xffffff);
  return n > 20;
}

guint32
zw_test_blend (const GdkRGBA *over, double alpha, guint32 under)
{
  guint32 out = 0xff000000u;
  double o[3] = { over->red * 255, over->green * 255, over->blue * 255 };

  alpha *= over->alpha;
  for (int k = 0; k < 3; k++)
    {
      int shift = 16 - 8 * k;
      double u = (under >> shift) & 0xff;
      out |= (guint32) lround (o[k] * alpha + u * (1 - alpha)) << shift;
    }
  return out;
}

cairo_surface_t *
zw_test_render (int w, int h, ZwExportDrawFunc draw, gpointer data)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  draw (cr, w, h, &style, data);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

void
zw_test_keep_png (cairo_surface_t *surface, const char *name)
{
  const char *dir = g_getenv ("ZW_RUN_VIEWS_KEEP");

  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      cairo_surface_write_to_png (surface, path);
    }
}
