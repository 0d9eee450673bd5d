/* zw-file-kind.h — what a file given to the workbench is, so it opens in the right view.
 *
 * The command line, Open, recent files and drag and drop all hand the window a path; this
 * tells a network or deploy report (the run controller loads those) from a time profile
 * (the Timing view), a sweep (the Sweep view), a pipeline (a pipeline file or a saved
 * pipeline report: the Board view), a dump folder (the Tensors view) and a text log (the
 * Logs view).
 * Only the first bytes of a file are read: the loaders say what is wrong with a file
 * that only looks like one of these.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  ZW_FILE_KIND_NETWORK,   /* a network JSON or our deploy report JSON (the controller tells them apart) */
  ZW_FILE_KIND_PROFILE,   /* the vendor's *_time.txt, our time-profile JSON or CSV, a Chrome trace */
  ZW_FILE_KIND_SWEEP,     /* a sweep JSON ("format": "zhuge-sweep", xrt-run sweep --json): the Sweep view */
  ZW_FILE_KIND_PIPELINE,  /* a pipeline file (TOML with [pipeline], [network.NAME], [share.…] or [connect.…]
                           * tables) or a pipeline report ("format": "zhuge-pipeline-report") */
  ZW_FILE_KIND_DUMP,      /* a folder of {v_id}.ftmp files (or its manifest.json) */
  ZW_FILE_KIND_LOG,       /* any other text */
  ZW_FILE_KIND_UNKNOWN,   /* binary data (NUL bytes, not UTF-8) or an empty file: nothing to open */
} ZwFileKind;

/* The kind of @path. Fails (G_FILE_ERROR, naming @path) only when it cannot be read.
 * @dir_out (may be NULL) receives the folder to load for ZW_FILE_KIND_DUMP (@path, or the
 * folder of a manifest.json; g_free). */
gboolean zw_file_kind_guess (const char *path, ZwFileKind *kind, char **dir_out, GError **error);

G_END_DECLS
