/* zw-style-manager.h — the colour scheme: follow the system, or force light or dark.
 *
 * GTK 4.8 has no style manager of its own (libadwaita's is not used), so this one sets
 * GtkSettings:gtk-application-prefer-dark-theme, which switches the built-in Adwaita theme
 * and with it every view (the views take their colours from the theme and redraw when it
 * changes). "system" follows the desktop's preference read from the settings portal
 * (org.freedesktop.appearance color-scheme, updated live through SettingChanged); without
 * a portal, from the theme the desktop set at start (a GtkSettings:gtk-theme-name ending
 * in "-dark", or prefer-dark already set).
 *
 * Properties: "color-scheme" (string "system" | "light" | "dark", read-write),
 * "dark" (gboolean, read-only: what is applied now).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ZW_TYPE_STYLE_MANAGER (zw_style_manager_get_type ())
G_DECLARE_FINAL_TYPE (ZwStyleManager, zw_style_manager, ZW, STYLE_MANAGER, GObject)

/* A manager for the default display's GtkSettings (call after gtk_init / in startup);
 * starts with "system" and asks the portal asynchronously. */
ZwStyleManager *zw_style_manager_new (void);
/* Sets the scheme; an unknown name is ignored with a warning. */
void zw_style_manager_set_color_scheme (ZwStyleManager *self, const char *scheme);
const char *zw_style_manager_get_color_scheme (ZwStyleManager *self);

G_END_DECLS
