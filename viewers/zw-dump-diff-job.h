/* zw-dump-diff-job.h — a dump diff in a worker thread (GTask), the Dump Diff view's long
 * work (issue 37 item 3): two folders loaded and compared off the main thread, how far it
 * is readable from the main thread at any time, cancellable between two values.
 *
 * zw_dump_diff_job_run() runs the whole job in the calling thread (the worker's body, and
 * what a test compares the worker's result with). Thread-safe: the fraction is read under
 * the job's lock; everything else belongs to the thread that runs the job until it ends.
 */
#pragma once

#include <gio/gio.h>
#include "report/zw-dump-diff.h"

G_BEGIN_DECLS

typedef struct _ZwDumpDiffJob ZwDumpDiffJob;

/* A job comparing @dir_a with @dir_b (@network, @format, @options may be NULL, as for
 * zw_dump_diff_folders). Reference counted (atomically: a worker holds one). */
ZwDumpDiffJob *zw_dump_diff_job_new (const char *dir_a, const char *dir_b, XirNetwork *network, const char *format,
                                     const ZwDumpDiffOptions *options);
ZwDumpDiffJob *zw_dump_diff_job_ref (ZwDumpDiffJob *job);
void zw_dump_diff_job_unref (ZwDumpDiffJob *job);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDumpDiffJob, zw_dump_diff_job_unref)

/* Loads both folders and compares them in the calling thread; FALSE with @error when a
 * folder cannot be loaded or @cancellable was cancelled (G_IO_ERROR_CANCELLED). */
gboolean zw_dump_diff_job_run (ZwDumpDiffJob *job, GCancellable *cancellable, GError **error);

/* In a worker thread: @callback (in the caller's thread default main context) when done;
 * @source_object (may be NULL) is the GTask's. */
void zw_dump_diff_job_run_async (ZwDumpDiffJob *job, gpointer source_object, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data);
gboolean zw_dump_diff_job_run_finish (GAsyncResult *result, GError **error);

/* How far it is: -1 while the folders load, then the fraction of the elements compared
 * (0…1). Any thread. */
double zw_dump_diff_job_get_fraction (ZwDumpDiffJob *job);

/* After a run that succeeded: the result and the two sides' values (ZwTensor*), the caller's
 * from now on (each given once; NULL after). */
ZwDumpDiff *zw_dump_diff_job_steal_diff (ZwDumpDiffJob *job);
GPtrArray *zw_dump_diff_job_steal_side (ZwDumpDiffJob *job, guint side);
const char *zw_dump_diff_job_get_dir (ZwDumpDiffJob *job, guint side);

G_END_DECLS
