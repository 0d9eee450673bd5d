/* zw-view-style.h — the colours a deploy view draws with.
 *
 * A view fills it from its GTK theme (zw_view_style_from_widget, so dark mode works); an
 * offscreen render without a display uses zw_view_style_init_default (light) or _dark.
 * The drawing functions (zw_*_view_draw) take it as a plain struct, never a widget.
 */
#pragma once

#include <gtk/gtk.h>
#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

typedef struct {
  GdkRGBA background;              /* plot background */
  GdkRGBA foreground;              /* text and axes */
  GdkRGBA grid;                    /* grid lines, outlines */
  GdkRGBA accent;                  /* selection, chosen option */
  GdkRGBA hover;                   /* hover highlight */
  GdkRGBA warning;                 /* peak marker, capacity line */
  GdkRGBA lower_bound;             /* the liveness lower-bound line */
  GdkRGBA segment[ZW_N_SEGMENTS];  /* one distinct colour per SegmentType */
  GdkRGBA ocm;                     /* chunks placed in OCM */
  double font_size;                /* in px */
} ZwViewStyle;

typedef struct _ZwSelection ZwSelection;

/* The signature of every view's plain cairo drawing function (zw_segment_view_draw, …):
 * draws @report into @cr over [0,width]x[0,height]; @selection (may be NULL) gives the
 * selected value/op and the zoom range. Needs no display. */
typedef void (*ZwViewDrawFunc) (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                                const ZwViewStyle *colors);

/* Any drawing (a view's content, its chart, an export): fills [0,width]x[0,height] of @cr
 * with @colors; @user_data is the drawing's own (a view, a model). */
typedef void (*ZwExportDrawFunc) (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data);

void zw_view_style_init_default (ZwViewStyle *style);
void zw_view_style_init_dark (ZwViewStyle *style);
/* WCAG's contrast ratio of two colours: 1 (the same) to 21 (black on white); text wants 4.5. */
double zw_view_style_contrast (const GdkRGBA *a, const GdkRGBA *b);

/* Colours from @widget's theme: foreground from the widget's colour, the accent and
 * background from the named theme colours when defined (accent_bg_color,
 * view_bg_color/theme_base_color), segment colours adapted to a dark background. */
void zw_view_style_from_widget (ZwViewStyle *style, GtkWidget *widget);

G_END_DECLS
