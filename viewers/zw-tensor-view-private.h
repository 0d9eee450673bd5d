/* zw-tensor-view-private.h — shared by the tensor inspector's files (not installed): the grid
 * of channels (zw-tensor-grid.c), the heatmap (zw-tensor-heatmap.c), the picture with its
 * histogram and statistics (zw-tensor-draw.c), the list of values (zw-tensor-values.c) and
 * the widget (zw-tensor-view.c). */
#pragma once

#include "zw-tensor-view.h"
#include "report/zw-dump.h"

G_BEGIN_DECLS

/* The picture's layout (px): the title above the grid, the histogram and the statistics
 * below it, the gap between channels. */
#define TENSOR_MARGIN 8.0
#define TENSOR_TITLE_H 22.0
#define TENSOR_BOTTOM_H 150.0
#define TENSOR_GAP 3.0
/* the colour bar right of the grid: its width with the labels, and the bar's own */
#define TENSOR_COLORBAR_W 72.0
#define TENSOR_COLORBAR_BAR 14.0

/* ---- the grid of channels (pure) ---- */

/* One cell per channel shown (h x w elements), in the column count that makes the cells
 * largest: every channel, or the one zoomed into. */
typedef struct {
  double x0, y0, w, h;   /* grid area (the colour bar lies right of it) */
  gint64 cols, rows;
  double cell_w, cell_h; /* cell pitch */
  double scale;          /* pixels per element */
  gint64 c0, n_c;        /* the channels shown: c0 … c0 + n_c - 1 */
} ZwTensorGrid;

/* The grid of @t drawn at @width x @height, of every channel (@zoom < 0) or of channel @zoom
 * alone; FALSE for an empty tensor, a channel out of range or no room. */
gboolean zw_tensor_grid_compute (const ZwTensor *t, gint64 zoom, int width, int height, ZwTensorGrid *g);
/* Channel @c's cell in @g (whole pixels, as drawn); FALSE when @g does not show it. */
gboolean zw_tensor_grid_cell_rect (const ZwTensor *t, const ZwTensorGrid *g, gint64 c, double rect[4]);
/* The (n, c, h, w) under (x, y) in @g for batch @batch; FALSE outside every cell. */
gboolean zw_tensor_grid_coords_at (const ZwTensor *t, const ZwTensorGrid *g, gint64 batch, double x, double y,
                                   gint64 coords[4]);

/* ---- drawing ---- */

/* Every channel of @t's batch @state->batch into its cell of @g, coloured over the value
 * range of @stats (the quantised levels when @state->quantized). */
void zw_tensor_draw_heatmap (cairo_t *cr, const ZwTensor *t, const ZwTensorStats *stats,
                             const ZwTensorViewState *state, const ZwTensorGrid *g);
/* "(n 0, c 1, h 2, w 3) = 0.5  (q 12 × scale 0.04)"; a new string, NULL out of range. */
char *zw_tensor_sample_text (const ZwTensor *t, const gint64 c[4]);

/* ---- the list of values ---- */

typedef struct {
  gint64 v_id;
  gint64 op_id;
  char *memory;
  char *shape;
  char *format;
  const ZwDumpData *data;   /* borrowed from the folder */
} ZwTensorValue;

void zw_tensor_value_clear (gpointer data);

/* A row of the list: the index of its value and its five cells. */
#define ZW_TYPE_TENSOR_ROW (zw_tensor_row_get_type ())
G_DECLARE_FINAL_TYPE (ZwTensorRow, zw_tensor_row, ZW, TENSOR_ROW, GObject)

struct _ZwTensorRow
{
  GObject parent_instance;
  guint index;
  char *cells[5];
};

/* Appends @folder's values to @values (ZwTensorValue: the op and memory from the folder's
 * manifest, else from @network and @report) and their rows to @rows. */
void zw_tensor_values_collect (ZwDumpFolder *folder, XirNetwork *network, ZwDeployReport *report, GArray *values,
                               GPtrArray *rows);
/* The list's column view over @model (v_id, op, memory, shape, format). */
GtkWidget *zw_tensor_values_new_column_view (GtkSingleSelection *model);
/* The rows of @store (ZwTensorRow) as a table, the header first. */
GPtrArray *zw_tensor_values_table (GListModel *store);

G_END_DECLS
