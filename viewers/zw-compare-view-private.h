/* zw-compare-view-private.h — what the Compare view's parts share (not installed):
 * zw-compare-draw.c (the picture and its geometry, no display needed) and
 * zw-compare-view.c (the widget: controls, clicks, selection, the model kept). */
#pragma once

#include "zw-compare-view.h"
#include "report/zw-compare-rows.h"
#include "zw-draw-area.h"
#include "zw-view-private.h"

G_BEGIN_DECLS

#define MARGIN ZW_ROW_TABLE_MARGIN
#define LINE_H ZW_ROW_TABLE_LINE_H
#define ROW_H ZW_ROW_TABLE_ROW_H
#define SWAP_W 150.0
#define EXPANDER_W 16.0    /* the ▸/▾ of a merged launch, at the op id cell's start */

typedef enum {
  COL_OP_ID,
  COL_CLASS,
  COL_A,
  COL_B,
  COL_DELTA,
  COL_RATIO,
  COL_BARS,
  N_COLS
} CompareColumn;

/* The drawing's height with @n_rows rows shown. */
int zw_compare_draw_content_height (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows);
/* The y range of shown row @index of @n_rows; FALSE when out of range. */
gboolean zw_compare_draw_row_extent (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows,
                                     guint index, double *y0, double *y1);
/* The shown row at @y (of @n_rows), -1 for none. */
gint zw_compare_draw_row_at (const ZwProfileCompare *cmp, const ZwDeployCompare *dcmp, guint n_rows, double y);
/* The header line: the two files' labels and, for bare time files mapped through a network,
 * which plan mapped them (the open network's, or its merge-on plan made again). */
char *zw_compare_draw_header (const ZwProfileCompare *cmp, const char *label_a, const char *label_b);
/* The model's sort key of column @column (-1: the order as compared). */
ZwCompareSortKey zw_compare_draw_sort_key (gint column);

G_END_DECLS
