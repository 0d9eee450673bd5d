/* zw-test-pixels.h — reading the pixels of views rendered offscreen (cairo image surfaces,
 * ARGB32), for the view tests' assertions. */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

#include "zw-view-style.h"

/* The pixel at (@x, @y) (floored), 0xAARRGGBB; aborts the test outside the surface. */
guint32  zw_test_pixel (cairo_surface_t *s, double x, double y);
/* @c as an opaque 0xffRRGGBB. */
guint32  zw_test_argb  (const GdkRGBA *c);
/* Every colour channel of @a and @b within @tol levels. */
gboolean zw_test_near  (guint32 a, guint32 b, int tol);
/* More than 20 pixels of @a and @b (images of one size) differ in colour. */
gboolean zw_test_surfaces_differ (cairo_surface_t *a, cairo_surface_t *b);
/* @over blended with @alpha on the opaque @under, as cairo does (within rounding). */
guint32  zw_test_blend (const GdkRGBA *over, double alpha, guint32 under);

/* @draw(@data) at @w x @h in the default (light) style, into a new ARGB32 image surface the
 * caller destroys; the drawing must leave cairo without error. */
cairo_surface_t *zw_test_render (int w, int h, ZwExportDrawFunc draw, gpointer data);
/* With ZW_RUN_VIEWS_KEEP=<dir> set, writes @surface there as @name (a PNG to look at). */
void zw_test_keep_png (cairo_surface_t *surface, const char *name);
