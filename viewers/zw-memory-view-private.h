/* zw-memory-view-private.h — shared by the Memory view's files (not installed): the layout
 * (zw-memory-layout.c), the drawing (zw-memory-draw.c) and the widget (zw-memory-view.c). */
#pragma once

#include "zw-memory-view.h"
#include "report/zw-etm-traffic.h"

G_BEGIN_DECLS

#define MEMORY_MARGIN 8.0
#define MEMORY_AXIS_W 72.0   /* the byte axes' labels, left of the panes */

typedef struct {
  double x, y, w, h;    /* pane rectangle */
  double y_max;         /* bytes at the top of the pane */
  gboolean empty;       /* no chunk placed there */
} ZwMemPane;

typedef struct {
  double zs, ze;        /* op-index range shown */
  double title_y;
  ZwMemPane etm;
  ZwMemPane ocm;        /* h == 0 when the device has no OCM */
  ZwMemPane traffic;    /* ETM bytes read (up) and written (down) per op; h == 0 without hardops */
  double axis_y;        /* x-axis labels */
} ZwMemLayout;

/* The panes of @report drawn at @width x @height with @style's font, over the zoom range of
 * @selection (the whole report when NULL or of another report). */
void zw_memory_layout_compute (const ZwDeployReport *report, ZwSelection *selection, int width, int height,
                               const ZwViewStyle *style, ZwMemLayout *l);
/* The pixel column of op index @index, and back. */
double zw_memory_layout_x (const ZwMemLayout *l, double index);
double zw_memory_layout_index (const ZwMemLayout *l, double x);
/* The pixel row of @bytes in pane @p. */
double zw_memory_pane_y (const ZwMemPane *p, double bytes);
/* The bar of op index @i in the traffic pane (@write: below the middle line), unclipped;
 * FALSE when it moves no bytes. */
gboolean zw_memory_layout_traffic_bar (const ZwMemLayout *l, const ZwEtmTraffic *t, guint i, gboolean write,
                                       double r[4]);
/* The pane rectangle of a chunk, not clipped; FALSE when it is not drawn in a pane. */
gboolean zw_memory_layout_chunk_rect (const ZwMemLayout *l, const ZwChunkInfo *c, graphene_rect_t *r);
/* The smallest chunk under (@x, @y) (sub-pixel chunks hit within a pixel, as drawn), NULL. */
const ZwChunkInfo *zw_memory_layout_chunk_at (const ZwDeployReport *report, const ZwMemLayout *l, double x, double y);

G_END_DECLS
