/* zw-views.h — the workbench's views, one table: the window makes its pages from it (in its
 * order, with its titles), the command line checks --view NAME against it, the shortcuts
 * window lists its keys (Ctrl+1…9, 0, -, =) and the window binds them. A new view is its
 * widget pair, one row here, and its translations.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;       /* "segments": the win.view target, --view NAME, the stack page */
  const char *title;      /* untranslated (N_()): the switcher's label */
  const char *key_title;  /* untranslated (N_()): its line in the shortcuts window */
  const char *accel;      /* the key that shows it (gtk_accelerator_parse() syntax) */
  /* A new view bound to @selection, the window's one selection. */
  GtkWidget *(*new_view) (ZwSelection *selection);
} ZwViewKind;

/* The table (static, in the switcher's order; @n_out receives its length). */
const ZwViewKind *zw_views_get (guint *n_out);
/* The row of @name, NULL for a view that does not exist. */
const ZwViewKind *zw_views_lookup (const char *name);
/* The names, separated by ", ", in the table's order (a new string): for messages. */
char *zw_views_dup_names (void);

G_END_DECLS
