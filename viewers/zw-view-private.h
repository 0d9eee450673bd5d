/* zw-view-private.h — helpers shared by the deploy views (not installed). */
#pragma once

#include <gtk/gtk.h>
#include <pango/pangocairo.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-view.h"
#include "report/zw-launch-split.h"

G_BEGIN_DECLS

/* The op-index range [first, last] of an op id: a network op (its index twice) or a
 * launch (merged op id: the range it covers). FALSE when the report has neither. */
gboolean zw_report_op_range (const ZwDeployReport *report, gint64 op_id, gint *first, gint *last);
/* Index into report->launches of the launch that runs @op_id (its own id or a member), -1. */
gint zw_report_launch_of_op (const ZwDeployReport *report, gint64 op_id);

/* zw_report_index_ops, zw_report_index_estimates, zw_launch_split_weights: report/'s */

/* ---- drawing ---- */

typedef struct {
  cairo_t *cr;
  PangoLayout *layout;
  const ZwViewStyle *style;
  GdkRGBA dim;            /* the foreground for secondary text */
} ZwPainter;

void zw_painter_init (ZwPainter *p, cairo_t *cr, const ZwViewStyle *style);
/* A view's picture begins: cairo_save(), the background painted, zw_painter_init().  End it
 * with zw_painter_clear() and cairo_restore(). */
void zw_painter_begin (ZwPainter *p, cairo_t *cr, const ZwViewStyle *style);
void zw_painter_clear (ZwPainter *p);
void zw_painter_set_bold (ZwPainter *p, gboolean bold);
/* Draws @text with its (halign, valign) point at (x, y): 0 = left/top, 0.5 centre, 1
 * right/bottom; ellipsized to @max_width when > 0. Returns the drawn width. */
double zw_painter_text (ZwPainter *p, double x, double y, double halign, double valign, double max_width,
                        const GdkRGBA *color, const char *text);
double zw_painter_text_width (ZwPainter *p, const char *text);

void zw_cairo_set_color (cairo_t *cr, const GdkRGBA *color);
void zw_cairo_set_color_alpha (cairo_t *cr, const GdkRGBA *color, double alpha);
/* @a mixed towards @b by @t in [0,1]. */
GdkRGBA zw_rgba_mix (const GdkRGBA *a, const GdkRGBA *b, double t);
/* @op_type without its namespace (icraft::xir::, customop::) and "Node" suffix, written
 * into @buf (@size bytes, truncated); returns @buf. NULL reads as "". */
const char *zw_op_class_short (const char *op_type, char *buf, gsize size);
/* Human-readable size ("1.4 MiB"); caller frees. */
char *zw_format_bytes (guint64 bytes);
/* A "nice" tick step (1, 2, 5 x 10^k) for about @n ticks over @span. */
double zw_nice_step (double span, int n);
/* The same for byte axes, in whole KiB / MiB / GiB. */
double zw_nice_bytes_step (double span, int n);

/* A box drawn in the empty state ("No deploy report"). */
void zw_draw_empty (ZwPainter *p, int width, int height, const char *message);

/* ---- cached render node (snapshot) ---- */

typedef struct {
  GskRenderNode *node;
  int width;
  int height;
  ZwViewStyle style;
  guint n_rebuilds;      /* for tests: how often the content was drawn again */
} ZwViewCache;

void zw_view_cache_invalidate (ZwViewCache *cache);
/* Appends the cached content of @widget, drawing it again with @draw (@user_data) only
 * when the size, the theme colours or the data changed (invalidate). FALSE, appending
 * nothing, while @widget has no size; else cache->style/width/height are this frame's. */
gboolean zw_view_cache_snapshot (ZwViewCache *cache, GtkWidget *widget, GtkSnapshot *snapshot, ZwExportDrawFunc draw,
                                 gpointer user_data);

/* How often a view drew its content again (tests check hover does not). */
guint zw_segment_view_get_n_rebuilds (GtkWidget *view);
guint zw_memory_view_get_n_rebuilds (GtkWidget *view);

G_END_DECLS
