/* zw-row-table.h — the base of the views that are a drawn table of rows: Compare, Compiles
 * and Dump Diff.
 *
 * ZwRowTable owns what the three had written out each: one ZwDrawArea in a scrolled window
 * (drawn by the subclass's draw method, sized by its content), one selected row that follows
 * the shared ZwSelection both ways — a click selects a row and gives the selection its op (or
 * value) when the selection's report has one; the selection's op (or value) selects its row,
 * without echoing back — the selected row scrolled into sight when the subclass says where it
 * is, and the view's render (the same drawing) for exports. Rows are indices 0…n-1 of the
 * subclass's model, in the order drawn.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view.h"

G_BEGIN_DECLS

#define ZW_TYPE_ROW_TABLE (zw_row_table_get_type ())
G_DECLARE_DERIVABLE_TYPE (ZwRowTable, zw_row_table, ZW, ROW_TABLE, ZwView)

struct _ZwRowTableClass
{
  ZwViewClass parent_class;

  /* The selection's property the rows follow: "selected-op" or "selected-value". */
  const char *follows;
  /* The drawing's width (its height is content_height). */
  int content_width;

  /* The number of rows of the model shown. */
  guint (*n_rows) (ZwRowTable *self);
  /* Draws the table over [0,width]x[0,height] with row @selected (-1 none) highlighted. */
  void (*draw) (ZwRowTable *self, cairo_t *cr, int width, int height, gint selected, const ZwViewStyle *colors);
  /* The height that shows every row. */
  int (*content_height) (ZwRowTable *self);
  /* The row at (@x, @y) of the drawing, -1 for none. */
  gint (*row_at) (ZwRowTable *self, double x, double y);
  /* The op (or value) id the selection gets for @row, -1 for none; @report is the selection's
   * (NULL from the default find_row: the row's own id). */
  gint64 (*row_id) (ZwRowTable *self, guint row, ZwDeployReport *report);
  /* The row of op (or value) @id, -1 for none. Default: the first row whose row_id (with no
   * report) is @id. */
  gint (*find_row) (ZwRowTable *self, gint64 id);

  /* Optional (NULL): the y range of @row, to scroll it into sight when it is selected. */
  gboolean (*row_extent) (ZwRowTable *self, guint row, double *y0, double *y1);
  /* Optional: a click at (@x, @y) that is not a row's (a control drawn in the header); TRUE
   * when it was handled. */
  gboolean (*clicked) (ZwRowTable *self, double x, double y);
  /* Optional: the selected row changed (after the table was redrawn). */
  void (*selected_changed) (ZwRowTable *self);
  /* Optional, both or neither: the columns' titles' y range in the drawing, and the titles
   * drawn at @y. Scrolled past, the titles stay at the top of the visible part (drawn over
   * the rows; a click there is a click on the titles). */
  gboolean (*header_extent) (ZwRowTable *self, double *y0, double *y1);
  void (*draw_header) (ZwRowTable *self, cairo_t *cr, int width, double y, const ZwViewStyle *colors);

  gpointer padding[2];
};

/* Where the columns' titles are drawn over the rows (the top of the visible part), -1 when
 * they are in their place (not scrolled past, or the table has none). */
double zw_row_table_get_sticky_top (ZwRowTable *self);

/* The rows changed: the drawing is sized to them and drawn again; @selected is the row
 * selected now (-1 none), not sent to the shared selection. */
void zw_row_table_changed (ZwRowTable *self, gint selected);
/* Selects @row (-1, or out of range: none), scrolls it into sight and gives the shared
 * selection its op (or value) when the selection's report has one. */
void zw_row_table_select_row (ZwRowTable *self, gint row);
gint zw_row_table_get_selected_row (ZwRowTable *self);
/* The row of op (or value) @id (the find_row method), -1 for none. */
gint zw_row_table_find_row (ZwRowTable *self, gint64 id);
/* The drawn table (a ZwDrawArea inside a GtkScrolledWindow). */
GtkWidget *zw_row_table_get_area (ZwRowTable *self);

/* The geometry every row table draws with: the margin around the table, a line of text, a
 * row. */
#define ZW_ROW_TABLE_MARGIN 8.0
#define ZW_ROW_TABLE_LINE_H 18.0
#define ZW_ROW_TABLE_ROW_H 20.0
/* Fills the row whose top is @y, across the drawing inside the margins, with @color at
 * @alpha (a band: alternate rows, a verdict, the selection). */
void zw_row_table_fill_row (cairo_t *cr, int width, double y, const GdkRGBA *color, double alpha);
/* The rule under the columns' titles: a line along the bottom of the row whose top is @y. */
void zw_row_table_rule_row (cairo_t *cr, int width, double y, const ZwViewStyle *colors);
/* Outlines the row whose top is @y in the accent colour, a line @line_width wide inside the
 * row's box (the selected row). */
void zw_row_table_outline_row (cairo_t *cr, int width, double y, double line_width, const ZwViewStyle *colors);

/* A table for CSV (rows of GStrv) holding its header: @titles (untranslated, N_()) translated. */
GPtrArray *zw_row_table_rows_new (const char *const *titles, guint n_titles);

G_END_DECLS
