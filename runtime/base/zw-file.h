/* zw-file.h — every file the runtime and the workbench write goes through here: the one
 * writer that respects what is at the path, errors naming the path, and fault injection for
 * tests.  (Reading has its own rule: base/zw-file-read.h.)
 *
 * What is at the path decides how it is written:
 *   nothing          a new regular file, made whole before it gets its name (below);
 *   a regular file   replaced atomically (a reader never sees half a file, a failed write
 *                    leaves the old file), keeping its permission bits;
 *   a symlink        written through to its target, as editors do: the target is replaced
 *                    (or created, for a dangling link) by the rules here, the link stays;
 *   a character device, a FIFO
 *                    written through as a stream (opened for writing, never created,
 *                    truncated or replaced): /dev/null, /dev/full (fails: no space), a pipe;
 *   "-", or the file the process's standard output (error) is
 *                    written to that stream (/dev/stdout, /proc/self/fd/1, `-o out > out`);
 *   anything else    (a folder, a block device, a socket) refused, never replaced.
 * A stream cannot be made atomic: a failed write to it may leave part of the bytes.
 *
 * New and replaced regular files: the contents are written to an anonymous file of the
 * destination's folder (Linux O_TMPFILE) that is linked under a name only when whole, then
 * renamed over the destination: unlike a named temporary file (g_file_set_contents), a
 * process killed in the middle of the write leaves nothing behind. Where O_TMPFILE is not
 * available it falls back to g_file_set_contents_full.
 *
 * Fault injection (tests, and users who want to see how a tool behaves on a full disk):
 * ZW_FAULT_WRITE="KIND@N[,KIND@N…]" in the environment, or zw_file_set_faults(), makes the
 * Nth write of the process (counted from 1) fail:
 *   nospace  as on a full disk (G_FILE_ERROR_NOSPC), nothing written;
 *   noperm   as in a folder without write permission (G_FILE_ERROR_ACCES), nothing written;
 *   short    a short write (G_FILE_ERROR_IO): the data written so far is discarded (a
 *            stream keeps the half written);
 *   kill     the process is killed (SIGKILL) in the middle of the write (half the bytes
 *            written).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes @contents to @path by the rules above, with the faults above; @length -1 =
 * NUL-terminated. On failure the GError (G_FILE_ERROR) names @path and the reason, and a
 * regular file at @path is as it was. */
gboolean zw_file_set_contents (const char *path, const char *contents, gssize length, GError **error);

/* A file name made from a name found in a file (a network's "name"), for a file the tools
 * derive from it (NAME_time.json, NAME.snapshot, NAME_zg330_0.log): one path component that
 * stays in the folder it is put in and shows in a listing — "/", "\" and control characters
 * become "_", as does each leading "."; at most 200 bytes (whole UTF-8 characters); "" or
 * NULL gives "network". Returns a new string. */
char *zw_file_safe_name (const char *name);

/* Replaces the fault plan (NULL or "" = none) and restarts the count. Not thread-safe
 * against concurrent writes: call it between runs. Returns FALSE for a malformed plan. */
gboolean zw_file_set_faults (const char *spec, GError **error);
/* Writes made since the plan was set (to size a sweep over every write of a run). */
guint zw_file_get_write_count (void);

G_END_DECLS
