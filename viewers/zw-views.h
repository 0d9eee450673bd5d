/* zw-views.h — the workbench's views, one table: the window makes its pages from it (in its
 * order, with its titles), the command line checks --view NAME against it and lists it
 * (--list-views, which .ci/screenshots reads), the shortcuts window lists its keys (Ctrl+1…9,
 * 0, -, =) and the window binds them; export draws any of them through its render method.
 * Each row is a view's type and its key: the name, titles and data come from the view's
 * class (zw_view_class_set_info). A new view is its widget pair, one row here, and its
 * translations.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;       /* "segments": the win.view target, --view NAME, the stack page */
  const char *title;      /* untranslated (N_()): the switcher's label */
  const char *key_title;  /* untranslated (N_()): its line in the shortcuts window */
  const char *accel;      /* the key that shows it (gtk_accelerator_parse() syntax) */
  ZwViewData data;        /* what it shows */
  GType type;             /* a ZwView */
} ZwViewKind;

/* The table (built once, in the switcher's order; @n_out receives its length). */
const ZwViewKind *zw_views_get (guint *n_out);
/* The row of @name, NULL for a view that does not exist. */
const ZwViewKind *zw_views_lookup (const char *name);
/* The names, separated by ", ", in the table's order (a new string): for messages. */
char *zw_views_dup_names (void);
/* A new view of @kind bound to @selection (the window's one selection). */
GtkWidget *zw_views_new_view (const ZwViewKind *kind, ZwSelection *selection);

G_END_DECLS
