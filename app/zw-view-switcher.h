/* zw-view-switcher.h — the window's switcher of views: a row of buttons (a GtkStackSwitcher)
 * where it fits, else a drop-down of the same views, so a narrow window (1024 pixels beside
 * the sidebar, a long translation) never scrolls the row. Both follow and set the stack's
 * visible child. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ZW_TYPE_VIEW_SWITCHER (zw_view_switcher_get_type ())
G_DECLARE_FINAL_TYPE (ZwViewSwitcher, zw_view_switcher, ZW, VIEW_SWITCHER, GtkWidget)

GtkWidget *zw_view_switcher_new (void);

/* The stack whose pages it switches (call once its pages are added; pages added later are
 * not in the drop-down). */
void zw_view_switcher_set_stack (ZwViewSwitcher *self, GtkStack *stack);

/* Whether the drop-down shows (the row of buttons does not fit the width given). */
gboolean zw_view_switcher_get_compact (ZwViewSwitcher *self);

/* The row of buttons and the drop-down (for tests). */
GtkWidget *zw_view_switcher_get_buttons (ZwViewSwitcher *self);
GtkWidget *zw_view_switcher_get_dropdown (ZwViewSwitcher *self);

G_END_DECLS
