/* zw-log-view.h — a text log with search: the deploy log (.icraft/logs/NAME.log), xrt-run
 * --log-io output, any text file.
 *
 * A read-only monospace text view under a search entry, below a line in the user's language
 * that says what the log is (its lines are the runtime's, in the vendor's English format).
 * Typing searches (case-insensitive) and highlights every match; Enter / Ctrl+G go to the
 * next match, Shift+Enter /
 * Ctrl+Shift+G to the previous one (wrapping), the label shows "3 of 17". Actions:
 * "log.find" (Ctrl+F, focuses the entry), "log.next-match", "log.previous-match". Text that
 * is not UTF-8 is shown with the bad bytes replaced.
 * zw_log_view_draw renders the lines around the current match (matches highlighted) for
 * export, without a display. A ZwView with no op or value to select: it ignores the
 * selection it is given.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-view.h"
#include "zw-view-style.h"

G_BEGIN_DECLS

/* Draws @text (NULL: an empty-state text) in monospace over [0,width]x[0,height], starting a
 * third of a page above line @current_line (0-based, -1: from the top); occurrences of
 * @needle (case-insensitive, may be NULL) are highlighted, those on @current_line in the
 * accent colour. @origin (may be NULL) titles it. */
void zw_log_view_draw (cairo_t *cr, int width, int height, const char *text, const char *origin, const char *needle,
                       gint current_line, const ZwViewStyle *colors);

#define ZW_TYPE_LOG_VIEW (zw_log_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwLogView, zw_log_view, ZW, LOG_VIEW, ZwView)

GtkWidget *zw_log_view_new (void);

/* Shows @path's contents; FALSE (view unchanged) when it cannot be read (the error names it). */
gboolean zw_log_view_load_file (ZwLogView *self, const char *path, GError **error);
/* Shows @text (copied; made valid UTF-8) titled @origin (may be NULL). */
void zw_log_view_set_text (ZwLogView *self, const char *text, const char *origin);
/* The text shown (borrowed). */
const char *zw_log_view_get_text (ZwLogView *self);
/* The line above the log (translated): its origin and that its lines are the runtime's,
 * in the vendor's log format; "No log" without one. Borrowed. */
const char *zw_log_view_get_header (ZwLogView *self);
/* The search entry's placeholder (translated; g_free). */
char *zw_log_view_dup_placeholder (ZwLogView *self);

/* Searches @needle (NULL or "" clears) as typing in the entry does; returns the number of
 * matches and makes the first one at or after the cursor current. */
guint zw_log_view_search (ZwLogView *self, const char *needle);
/* Moves to the next / previous match (wrapping); returns its index (0-based), -1 for none. */
gint zw_log_view_next_match (ZwLogView *self);
gint zw_log_view_previous_match (ZwLogView *self);
/* The current match's 0-based line, -1 for none. */
gint zw_log_view_get_current_line (ZwLogView *self);

G_END_DECLS
