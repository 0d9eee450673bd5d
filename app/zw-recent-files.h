/* zw-recent-files.h — the recent files: a GtkStringList of paths, most recent first, at most
 * ZW_RECENT_FILES_MAX of them. The application owns the list (and keeps it in its settings);
 * it hands the list to each window it adds (zw_window_attach), which puts what it opens
 * first, so the window needs nothing else of the application.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ZW_RECENT_FILES_MAX 10

/* Puts @path first in @recent (moving it when already there), keeping at most
 * ZW_RECENT_FILES_MAX paths; one "items-changed" when anything changed. */
void zw_recent_files_add (GtkStringList *recent, const char *path);

G_END_DECLS
