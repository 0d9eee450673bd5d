/* zw-file.h — every file the runtime and the workbench write goes through here: atomic
 * replacement (a reader never sees half a file, a failed write leaves the old file or
 * none), errors naming the path, and fault injection for tests.
 *
 * The contents are written to an anonymous file of the destination's folder (Linux
 * O_TMPFILE) that is linked under a name only when whole, then renamed over the
 * destination: unlike a named temporary file (g_file_set_contents), a process killed in the
 * middle of the write leaves nothing behind. Where O_TMPFILE is not available it falls back
 * to g_file_set_contents_full.
 *
 * Fault injection (tests, and users who want to see how a tool behaves on a full disk):
 * ZW_FAULT_WRITE="KIND@N[,KIND@N…]" in the environment, or zw_file_set_faults(), makes the
 * Nth write of the process (counted from 1) fail:
 *   nospace  as on a full disk (G_FILE_ERROR_NOSPC), nothing written;
 *   noperm   as in a folder without write permission (G_FILE_ERROR_ACCES), nothing written;
 *   short    a short write (G_FILE_ERROR_IO): the data written so far is discarded;
 *   kill     the process is killed (SIGKILL) in the middle of the write (half the bytes
 *            written).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* g_file_set_contents with the faults above; @length -1 = NUL-terminated. On failure the
 * GError (G_FILE_ERROR) names @path and the reason, and @path is as it was. */
gboolean zw_file_set_contents (const char *path, const char *contents, gssize length, GError **error);

/* Replaces the fault plan (NULL or "" = none) and restarts the count. Not thread-safe
 * against concurrent writes: call it between runs. Returns FALSE for a malformed plan. */
gboolean zw_file_set_faults (const char *spec, GError **error);
/* Writes made since the plan was set (to size a sweep over every write of a run). */
guint zw_file_get_write_count (void);

G_END_DECLS
