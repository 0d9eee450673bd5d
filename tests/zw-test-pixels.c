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
