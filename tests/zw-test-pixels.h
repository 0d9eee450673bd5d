/* zw-test-pixels.h — reading the pixels of views rendered offscreen (cairo image surfaces,
 * ARGB32), for the view tests' assertions. */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

/* The pixel at (@x, @y) (floored), 0xAARRGGBB; aborts the test outside the surface. */
guint32  zw_test_pixel (cairo_surface_t *s, double x, double y);
/* @c as an opaque 0xffRRGGBB. */
guint32  zw_test_argb  (const GdkRGBA *c);
/* Every colour channel of @a and @b within @tol levels. */
gboolean zw_test_near  (guint32 a, guint32 b, int tol);
/* @over blended with @alpha on the opaque @under, as cairo does (within rounding). */
guint32  zw_test_blend (const GdkRGBA *over, double alpha, guint32 under);
