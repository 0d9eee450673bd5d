/* zw-dump.h — feature-map dumps: the vendor's {v_id}.ftmp files and our manifest.json.
 *
 * setDumpOutputs(true, dir, "SFB") writes one `{v_id}.ftmp` per value (xrt manual 1.4.3;
 * icraft-run puts them in a folder named "ftmp" + the format).  The format is three
 * letters (xrt manual 2.6, Tensor::dump):
 *   1st  H = hardware layout, the bytes' order as stored (e.g. NCHWc32)
 *        S = software layout: NCHWcK / *C**cK become NHWC [N, H, W, C] with the padding
 *            channels of the last block dropped (C = the number of per-channel scales
 *            when that lies inside the last block, else all CB*K channels); any other
 *            layout is already "software" and stays as stored
 *   2nd  Q = fixed point, the stored integers;  F = float32, q * scale[c] for quantised
 *            types (the kernels' dequantise: (float) q * scale), (float) q for plain
 *            integers, fp16 widened, fp32 as is
 *   3rd  B = binary, little-endian, no header;  T = text, one number per line ("%d" for
 *            Q, "%.9g" for F, which reads back to the same float32)
 * Only H -> S and Q -> F conversions exist ("反之不可"): SFB SFT SQB SQT HQB HQT are valid;
 * HF* is rejected, and so is Q for a float value.  The manual does not say whether text
 * holds one number per line or one row per line: we write one per line and read any
 * whitespace-separated numbers.
 *
 * manifest.json (ours, next to the files):
 *   {"format": "zhuge-dump-manifest", "version": 1, "network", "dump_format": "SFB",
 *    "complete": bool, "note": "…",
 *    "entries": [{"v_id", "op" (producing op id, -1 if none), "shape": [..] (the value's,
 *                 as stored), "dtype": "@sint(8)", "layout": "NCHWc32", "scales": [..]
 *                 (empty when not quantised), "memory": "ETM"|"OCM"|"HOST",
 *                 "address" (bytes; -1 unknown), "format": "SFB", "file": "16.ftmp"}]}
 *   "complete" is FALSE when the run could not observe every value (hardops merged into
 *   one launch: as on a real board only the launch outputs are dumped) and "note" says why.
 * A folder without a manifest (a board's dump) is typed from the network by v_id.
 * A pipeline's dump (deploy/xrt-pipeline.h) is one folder for all its networks: each entry
 * also says its "network" and its file is "NET.V_ID.ftmp" (a value is named "NET:V_ID").
 *
 * Errors: ZW_DUMP_ERROR; every message names the file (and the v_id, field, sizes).
 * Writes go through zw_file_set_contents (base/zw-file.h: a regular file replaced whole, a
 * stream written through).
 */
#pragma once

#include <glib.h>

#include "xir/xir-network.h"

G_BEGIN_DECLS

#define ZW_DUMP_ERROR (zw_dump_error_quark ())
GQuark zw_dump_error_quark (void);

typedef enum {
  ZW_DUMP_ERROR_IO,      /* cannot read or write a file or folder */
  ZW_DUMP_ERROR_FORMAT,  /* bad format letters, or a conversion that does not exist */
  ZW_DUMP_ERROR_TYPE,    /* the value's element type or layout cannot be dumped */
  ZW_DUMP_ERROR_SIZE,    /* a file's size or number count does not match its value */
  ZW_DUMP_ERROR_PARSE,   /* a text file or the manifest does not parse, or misses a field */
} ZwDumpError;

typedef struct {
  gboolean hardware;   /* H (else S) */
  gboolean quantized;  /* Q (else F) */
  gboolean binary;     /* B (else T) */
} ZwDumpFormat;

/**
 * zw_dump_format_parse:
 *
 * "SFB" … (case-insensitive); HF* and anything else is ZW_DUMP_ERROR_FORMAT.
 */
gboolean zw_dump_format_parse (const char *text, ZwDumpFormat *out, GError **error);
/**
 * zw_dump_format_to_string:
 *
 * "SFB" … (static string).
 */
const char *zw_dump_format_to_string (ZwDumpFormat format);

/* The type of a dumped value: what decoding a file needs. */
typedef struct {
  gint64 v_id;
  XirScalarType storage;
  gboolean quantized;
  guint n_scales;
  float *scales;
  XirLayout layout;
  guint rank;
  gint64 *shape;
} ZwDumpType;

void zw_dump_type_init_from_value (ZwDumpType *type, const XirValue *value);
void zw_dump_type_clear (ZwDumpType *type);

/* What a file of some format holds for a type. */
typedef struct {
  char layout[32];                     /* "NHWC" after H -> S, else the stored layout */
  guint rank;
  gint64 shape[XIR_LAYOUT_MAX_AXES];
  guint64 n_elements;
  guint elem_bytes;                    /* B: bytes per number (4 for F) */
  gboolean is_float;                   /* F */
} ZwDumpShape;

/**
 * zw_dump_shape_for:
 *
 * The file's layout, shape and element size for @type in @format; fails with
 * ZW_DUMP_ERROR_FORMAT for Q of a float value, ZW_DUMP_ERROR_TYPE for element types we
 * cannot dump (sub-byte, 64-bit, bf16).
 */
gboolean zw_dump_shape_for (const ZwDumpType *type, ZwDumpFormat format, ZwDumpShape *out, GError **error);

/**
 * zw_dump_encode:
 *
 * The file contents for a value whose stored bytes are @data (@size must be the value's
 * storage size).
 */
GBytes *zw_dump_encode (const ZwDumpType *type, const guint8 *data, gsize size, ZwDumpFormat format,
                        GError **error);

/**
 * zw_dump_write_value:
 *
 * Writes @dir/{v_id}.ftmp (creating @dir) atomically.  @path_out (may be NULL) receives
 * the file's path (g_free).
 */
gboolean zw_dump_write_value (const char *dir, const ZwDumpType *type, const guint8 *data, gsize size,
                              ZwDumpFormat format, char **path_out, GError **error);

/**
 * zw_dump_write_from_value:
 *
 * zw_dump_write_value() for an XirValue (@size must be its storage_bytes): what the
 * Session calls after each op when setDumpOutputs() is on.
 */
gboolean zw_dump_write_from_value (const char *dir, const XirValue *value, const guint8 *data, gsize size,
                                   ZwDumpFormat format, char **path_out, GError **error);

/* A decoded file. */
typedef struct {
  gint64 v_id;
  char *path;            /* the file (or origin) */
  ZwDumpFormat format;
  ZwDumpShape shape;
  GBytes *bytes;         /* the binary form: Q = stored integers, F = float32, little-endian,
                          * in the file's layout (for T, the numbers parsed back) */
  float *values;         /* shape.n_elements floats for display: F as is, Q dequantised
                          * (read-only; for F on a little-endian host, the bytes themselves) */
  gboolean values_in_bytes;  /* values points into bytes (not freed on its own) */
  char *network;         /* a pipeline's dump: the value's network (the manifest's); else NULL */
} ZwDumpData;

void zw_dump_data_free (ZwDumpData *data);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDumpData, zw_dump_data_free)

/**
 * zw_dump_decode:
 *
 * Parses file contents for @type in @format; @origin names it in errors.  A binary file
 * whose size differs from the shape's, a text file with a wrong count, a non-number or an
 * out-of-range integer are errors naming @origin.
 */
ZwDumpData *zw_dump_decode (const ZwDumpType *type, ZwDumpFormat format, const guint8 *contents, gsize length,
                            const char *origin, GError **error);

/**
 * zw_dump_read_file:
 *
 * zw_dump_decode() of the file at @path.
 */
ZwDumpData *zw_dump_read_file (const char *path, const ZwDumpType *type, ZwDumpFormat format, GError **error);

/* ---- manifest.json ---------------------------------------------------------- */

typedef enum {
  ZW_DUMP_MEMORY_ETM,
  ZW_DUMP_MEMORY_OCM,
  ZW_DUMP_MEMORY_HOST,
} ZwDumpMemory;

/**
 * zw_dump_memory_to_string:
 *
 * The name as written in files: "ETM", "OCM", "HOST".
 */
const char *zw_dump_memory_to_string (ZwDumpMemory memory);

typedef struct {
  ZwDumpType type;
  gint64 op_id;          /* producing op, -1 if none */
  ZwDumpMemory memory;
  gint64 address;        /* -1 unknown */
  ZwDumpFormat format;
  char *file;            /* "16.ftmp", relative to the manifest */
  char *network;         /* a pipeline's dump: the network the value is of ("NET.16.ftmp"); else NULL */
} ZwDumpManifestEntry;

typedef struct {
  char *network;         /* may be NULL */
  ZwDumpFormat format;   /* the run's format */
  gboolean complete;
  char *note;            /* may be NULL */
  GPtrArray *entries;    /* ZwDumpManifestEntry* */
} ZwDumpManifest;

ZwDumpManifest *zw_dump_manifest_new (const char *network, ZwDumpFormat format, gboolean complete,
                                      const char *note);
void zw_dump_manifest_free (ZwDumpManifest *manifest);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDumpManifest, zw_dump_manifest_free)

/**
 * zw_dump_manifest_add:
 *
 * Records one dumped value (its file is "{v_id}.ftmp" in the manifest's format).
 * Returns the entry (owned by the manifest).
 */
ZwDumpManifestEntry *zw_dump_manifest_add (ZwDumpManifest *manifest, const XirValue *value, gint64 op_id,
                                           ZwDumpMemory memory, gint64 address);

/**
 * zw_dump_manifest_write:
 *
 * Writes @dir/manifest.json atomically.
 */
gboolean zw_dump_manifest_write (const ZwDumpManifest *manifest, const char *dir, GError **error);

/**
 * zw_dump_manifest_load:
 *
 * Reads a manifest.json.  An entry with a missing or malformed field is skipped with a
 * warning "<file>: entries[i] (v_id N): field …" in @warnings (may be NULL); a file that
 * is not JSON or has no "entries" array is an error.
 */
ZwDumpManifest *zw_dump_manifest_load (const char *path, GPtrArray *warnings, GError **error);

/* ---- folders ---------------------------------------------------------------- */

typedef struct {
  char *dir;
  ZwDumpManifest *manifest;  /* NULL for a folder without one (a board's dump) */
  ZwDumpFormat format;
  GPtrArray *values;         /* ZwDumpData*, ordered by v_id */
  GPtrArray *warnings;       /* char*: one per file that did not load, naming it */
} ZwDumpFolder;

void zw_dump_folder_free (ZwDumpFolder *folder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDumpFolder, zw_dump_folder_free)

/**
 * zw_dump_folder_load:
 *
 * Loads every *.ftmp of @dir.  With a manifest.json the entries give types and formats;
 * without one, @network (required then) types each file by the v_id in its name and the
 * format is @format, or else the last three letters of the folder's name ("ftmpSFB").
 * A file that does not load (truncated, size matching no value, unknown v_id, not in the
 * manifest) becomes a warning and the others still load.  Errors: @dir unreadable, no
 * manifest and no @network, no format.
 */
ZwDumpFolder *zw_dump_folder_load (const char *dir, XirNetwork *network, const char *format, GError **error);

G_END_DECLS
