/* zw-file-read.h — the one rule for every file the runtime and the workbench read: an input
 * is a regular file (or "-", standard input, where a stream makes sense: a time profile, a
 * deploy report), and its size is checked against a cap before a byte is read.
 *
 * A FIFO, a character device (/dev/zero), a socket or a folder is refused at once with
 * "PATH: not a regular file (a FIFO), expected the network JSON" — it is never opened for
 * reading in a way that blocks, and never read until memory runs out.  A regular file larger
 * than its cap is refused with its size and the cap, before it is read.  Each kind of input
 * has its name (for messages), its default cap and whether "-" reads standard input, in one
 * table (zw-file-read.c); a caller that knows a tighter bound (an input tensor's bytes, a
 * binary dump's size) passes it.
 *
 * Errors are G_FILE_ERROR: INVAL for "not a regular file", FAILED for "larger than the cap",
 * else the code of the errno; the message names the path and what it was meant to be, and is
 * whole (a caller that changes the domain keeps the message as it is).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  ZW_INPUT_NETWORK,         /* a network JSON */
  ZW_INPUT_PARAMS,          /* a .raw params file */
  ZW_INPUT_TENSOR,          /* an input tensor's bytes (raw or an SQB .ftmp) */
  ZW_INPUT_INPUT_LIST,      /* a .txt list of inputs, one forward per line */
  ZW_INPUT_DEVICE_PROFILE,  /* a device profile JSON */
  ZW_INPUT_SNAPSHOT,        /* a session snapshot */
  ZW_INPUT_DEPLOY_REPORT,   /* a deploy report JSON ("-" reads standard input) */
  ZW_INPUT_TIME_PROFILE,    /* a time profile: *_time.txt, JSON, CSV, trace ("-" reads standard input) */
  ZW_INPUT_BUFFER_CSV,      /* a MiniMalloc buffer list */
  ZW_INPUT_DUMP,            /* a dumped tensor (.ftmp) */
  ZW_INPUT_DUMP_MANIFEST,   /* a dump folder's manifest.json */
  ZW_INPUT_SWEEP,           /* a sweep JSON */
  ZW_INPUT_RUN_CONFIG,      /* an icraft-run config (CONFIG.toml) */
  ZW_INPUT_LOG,             /* a deploy log shown as text */
  ZW_INPUT_IMAGE,           /* an input image (PNG, JPEG, BMP) of `xrt-run run --input` */
  ZW_INPUT_PLUGIN,          /* a shared library loaded as a plugin (icraft-run's decode_dll) */
  ZW_INPUT_ANY,             /* a file the workbench is asked to open, before its kind is known */
  ZW_N_INPUTS
} ZwInputKind;

/* Default caps: JSON and text documents 1 GiB (a 100k-op network JSON is about 100 MB);
 * params 4 GiB (what a ZG330 addresses) plus their table; binary tensors 64 GiB
 * (ZW_MAX_TENSOR_BYTES, the callers pass the tensor's own size). */
#define ZW_FILE_MAX_DOCUMENT (G_GUINT64_CONSTANT (1) << 30)

/* What @kind is, in words, for messages ("the network JSON"); translated. */
const char *zw_input_kind_describe (ZwInputKind kind);
/* The default cap of @kind in bytes. */
guint64 zw_input_kind_max_bytes (ZwInputKind kind);

/* Opens @path for reading when it is a regular file of at most @max_bytes (0 = @kind's
 * default cap), or "-" when @kind reads standard input (*size is then G_MAXUINT64: unknown).
 * Never blocks on a FIFO and never opens a device.  Returns the descriptor (the caller
 * closes it; standard input is a dup) and its size, or -1 with @error set. */
int zw_file_open_regular (const char *path, ZwInputKind kind, guint64 max_bytes, guint64 *size, GError **error);

/* g_file_get_contents under the rule: the whole file, NUL-terminated (the NUL not counted in
 * *length).  @length may be NULL. */
gboolean zw_file_read_regular (const char *path, ZwInputKind kind, guint64 max_bytes, char **contents,
                               gsize *length, GError **error);

/* g_mapped_file_new (read-only) under the rule.  A stream cannot be mapped: "-" is refused
 * here (read the kinds that take standard input with zw_file_read_regular). */
GMappedFile *zw_file_map_regular (const char *path, ZwInputKind kind, guint64 max_bytes, GError **error);

G_END_DECLS
