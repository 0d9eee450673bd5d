/* zw-tensor-view.h — the tensor inspector: the values of a dump folder and the health of
 * the selected one.
 *
 * Model: a ZwDumpFolder (runtime/report/zw-dump.h) — ours with manifest.json, or a board's
 * bare {v_id}.ftmp files typed by the network JSON — and, for the selected value, a ZwTensor
 * with its ZwTensorStats (runtime/report/zw-tensor-stats.h; the statistics live there).
 *
 * Left: the list of values (v_id, producing op, ETM/OCM/HOST, shape as dumped, format);
 * files that did not load are listed above it, each message naming its file, and the rest
 * of the folder still loads. Right, for the selected value: a per-channel heatmap grid (one
 * small multiple per channel of batch 0, colour from the view's min to max), the histogram,
 * min / max / mean / std and the counts of zero, NaN, +inf and -inf, and the value under the
 * cursor with its (n, c, h, w) coordinates, both views when they exist. A toggle switches
 * between the quantised view (the stored integers) and the float view (dequantised).
 * Selecting a value selects it in the shared ZwSelection when the report has it, and a
 * value selected elsewhere is selected here.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view.h"
#include "report/zw-tensor-stats.h"
#include "zw-selection.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* What the draw function shows besides the tensor. */
typedef struct {
  gboolean quantized;     /* the quantised view (when the tensor has one) */
  gint64 batch;           /* the batch index shown */
  gboolean has_hover;
  gint64 hover[4];        /* (n, c, h, w) under the cursor */
  const char *title;      /* "v_id 16 · op 3 · OCM …" (may be NULL) */
  const char *message;    /* drawn instead of the tensor when it is NULL (may be NULL) */
} ZwTensorViewState;

void zw_tensor_view_state_init (ZwTensorViewState *state);

/* Draws the inspector's right-hand side for @tensor and its @stats (both NULL: @message or
 * an empty-state text) into @cr over [0,width]x[0,height]. Needs no display. */
void zw_tensor_view_draw (cairo_t *cr, int width, int height, const ZwTensor *tensor, const ZwTensorStats *stats,
                          const ZwTensorViewState *state, const ZwViewStyle *colors);

/* The logical coordinates under (x, y) of a drawing of that size (batch @batch), FALSE
 * outside every channel's cell. */
gboolean zw_tensor_view_coords_at (const ZwTensor *tensor, gint64 batch, int width, int height, double x, double y,
                                   gint64 coords[4]);
/* The drawn rectangle of channel @c's cell (for tests and hit testing); FALSE when @c is
 * out of range. */
gboolean zw_tensor_view_cell_rect (const ZwTensor *tensor, int width, int height, gint64 c, double rect[4]);

/* The heatmap colour of @t in [0, 1] (a perceptual blue-green-yellow map). */
void zw_tensor_view_colormap (double t, guint8 rgb[3]);
/* Paints a @rows x @cols row-major grid of floats with its top-left at (@x, @y) (whole
 * pixels), @scale pixels per element, coloured from @lo to @hi as the channel grid is (each
 * pixel the element under its centre, NaN in magenta): the dump diff's heatmaps. */
void zw_tensor_view_paint_grid (cairo_t *cr, double x, double y, double scale, const float *values, gint64 rows,
                                gint64 cols, double lo, double hi);

#define ZW_TYPE_TENSOR_VIEW (zw_tensor_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwTensorView, zw_tensor_view, ZW, TENSOR_VIEW, ZwView)

GtkWidget *zw_tensor_view_new (ZwSelection *selection);

/* Loads @dir (zw_dump_folder_load: @network types a folder without manifest and names the
 * producing ops; @format for such a folder, may be NULL). FALSE only when the folder
 * cannot be read at all; files that do not load become messages in the widget. */
gboolean zw_tensor_view_load_folder (ZwTensorView *self, const char *dir, XirNetwork *network, const char *format,
                                     GError **error);
/* Shows @folder (the view takes ownership; NULL clears) typed with @network (may be NULL;
 * referenced). */
void zw_tensor_view_set_folder (ZwTensorView *self, ZwDumpFolder *folder, XirNetwork *network);

/* The messages shown for files that did not load (borrowed strings; may be empty). */
GPtrArray *zw_tensor_view_get_messages (ZwTensorView *self);
/* Values listed. */
guint zw_tensor_view_get_n_values (ZwTensorView *self);

/* Selects the value @v_id (-1: none). FALSE when the folder does not have it; when its
 * tensor cannot be built the view shows the message (naming the file) and returns TRUE. */
gboolean zw_tensor_view_select_value (ZwTensorView *self, gint64 v_id);
gint64 zw_tensor_view_get_selected_value (ZwTensorView *self);
/* A pipeline's dump (its values named "NET:V_ID", report/zw-pipeline-pass.h): selects the
 * value @name (NULL: none), and the shared selection's "pipeline-value" follows; FALSE when
 * the folder does not have it. The selection's pipeline value, set anywhere, selects it too. */
gboolean zw_tensor_view_select_pipeline_value (ZwTensorView *self, const char *name);
/* The selected value's name ("NET:V_ID" in a pipeline's dump, else its v_id), NULL for none. */
char *zw_tensor_view_dup_selected_name (ZwTensorView *self);
/* The selected value's tensor and statistics (borrowed), NULL when none or it failed. */
const ZwTensor *zw_tensor_view_get_tensor (ZwTensorView *self);
const ZwTensorStats *zw_tensor_view_get_stats (ZwTensorView *self);

/* The quantised (TRUE) or float view; the quantised one only exists for integer values. */
void zw_tensor_view_set_quantized (ZwTensorView *self, gboolean quantized);

/* Moves the "value under the cursor" to (n, c, h, w) as the pointer does; FALSE when out of
 * range. @text_out (may be NULL) receives the line shown (g_free). */
gboolean zw_tensor_view_set_hover (ZwTensorView *self, const gint64 coords[4], char **text_out);

/* The value list as rows of strings, header first (CSV export). */
GPtrArray *zw_tensor_view_table (ZwTensorView *self);
/* Draws the current inspector content. */
void zw_tensor_view_render (ZwTensorView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors);

G_END_DECLS
