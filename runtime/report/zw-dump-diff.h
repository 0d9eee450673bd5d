/* zw-dump-diff.h — compare two sets of dumped values: "where did it first go wrong".
 *
 * Two dump folders (ours with manifest.json, or a board's bare {v_id}.ftmp typed by the
 * network), or a folder and the values of a run held in memory, are compared value by
 * value (matched by v_id) in the float view (dequantised), at logical coordinates, so a
 * hardware-layout dump (H) compares with a software one (S):
 *   per value  max abs error (and where), cosine similarity, how many elements differ;
 *   first      the first value in execution order (the producing op's index in the
 *              network, else the manifest's order) that diverges beyond the thresholds,
 *              with its first differing coordinates (n, c, h, w) in that order and the two
 *              values there.
 * A value diverges when some element differs (NaN equals NaN) and
 *   max abs error > options.max_abs  or  cosine < 1 - options.cosine.
 *
 * Bad input never stops the comparison: a file that does not load, a v_id the network
 * does not have, a shape that does not match the network or the other side — each is a
 * warning naming the file, and the other values still compare.
 *
 * Ownership: ZwDumpDiff owns its entries and warnings; free with zw_dump_diff_free().
 */
#pragma once

#include <gio/gio.h>
#include <cjson/cJSON.h>

#include "report/zw-dump.h"
#include "report/zw-tensor-stats.h"

G_BEGIN_DECLS

typedef struct {
  double max_abs;   /* diverges when max abs error > this (default 0: any difference) */
  double cosine;    /* … or when cosine < 1 - this (default 1e-4) */
} ZwDumpDiffOptions;

#define ZW_DUMP_DIFF_OPTIONS_INIT { 0.0, 1e-4 }

typedef enum {
  ZW_DUMP_DIFF_COMPARED,   /* both sides have it and the shapes agree */
  ZW_DUMP_DIFF_ONLY_A,     /* only in A (e.g. B was dumped with merge on) */
  ZW_DUMP_DIFF_ONLY_B,
  ZW_DUMP_DIFF_MISMATCH,   /* shapes differ: not compared (and a warning) */
} ZwDumpDiffStatus;

/**
 * zw_dump_diff_status_to_string:
 *
 * The name as written in files: "compared", "only-a" ….
 */
const char *zw_dump_diff_status_to_string (ZwDumpDiffStatus status);

typedef struct {
  gint64 v_id;
  char *network;           /* a pipeline's dumps: the value's network (values match by network
                            * and v_id, "NET:V_ID"); else NULL */
  gint64 op_id;            /* producing op, -1 when unknown */
  gint order;              /* producing op's index (execution order); G_MAXINT when unknown */
  ZwDumpDiffStatus status;
  char *origin_a, *origin_b;  /* files (or NULL when absent) */
  gint64 shape[4];         /* logical [n, c, h, w] of A (else B) */
  guint64 n_compared;      /* elements compared */
  guint64 n_differ;        /* elements that differ */
  double max_abs_err;      /* 0 when equal; +inf when a NaN/inf meets a number */
  gint64 max_coords[4];    /* where (n, c, h, w); valid when n_differ > 0 */
  double cosine;           /* over the pairs where both are finite; 1 when equal */
  gboolean diverges;
  gint64 first_coords[4];  /* first differing (n, c, h, w) in that order; valid when n_differ > 0 */
  float first_a, first_b;  /* the float values there */
  gboolean first_has_q;    /* both sides have a quantised view */
  gint64 first_qa, first_qb;
} ZwDumpDiffEntry;

typedef struct {
  ZwDumpDiffOptions options;
  GPtrArray *entries;       /* ZwDumpDiffEntry*, in execution order (A-only and B-only included) */
  GPtrArray *warnings;      /* char*: each names the file at fault */
  const ZwDumpDiffEntry *first;   /* the first divergent entry, NULL when none */
  guint n_compared, n_diverged, n_only_a, n_only_b, n_mismatch;
  char *name_a, *name_b;    /* what A and B are (a folder, a run), NULL when not said */
} ZwDumpDiff;

void zw_dump_diff_free (ZwDumpDiff *diff);
/* Names the two sides (a folder's path, a run's title and folder …); NULL unsets. */
void zw_dump_diff_set_names (ZwDumpDiff *diff, const char *name_a, const char *name_b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDumpDiff, zw_dump_diff_free)

/**
 * zw_dump_diff_load_side:
 *
 * The values of a loaded folder as ZwTensor* (a new array owning them), in execution order
 * when @network is given (else the manifest's order, else by v_id).  With @network, a value
 * it does not have or whose manifest shape differs from it is left out with a warning
 * naming the file; the folder's own load warnings are copied too.  @warnings: a GPtrArray
 * of strings (g_free).
 */
GPtrArray *zw_dump_diff_load_side (const ZwDumpFolder *folder, XirNetwork *network, GPtrArray *warnings);

/**
 * zw_dump_diff_tensors:
 *
 * Compares ZwTensor* arrays @a and @b (e.g. a folder's side and tensors of a run made with
 * zw_tensor_new()).  Entries are ordered by the producing op's index in @network (may be
 * NULL: then A's order, B-only values after). @options may be NULL for the defaults.
 * @warnings (may be NULL) are copied into the result first.
 */
ZwDumpDiff *zw_dump_diff_tensors (GPtrArray *a, GPtrArray *b, XirNetwork *network, const ZwDumpDiffOptions *options,
                                  GPtrArray *warnings);

/**
 * ZwDumpDiffProgressFunc:
 *
 * How far a comparison is: @done of @total elements (of the values both sides have)
 * compared.  Called from the thread that compares (a worker's: the callee passes it on to
 * its main loop itself), once with 0 before the first value, then after each value.
 */
typedef void (*ZwDumpDiffProgressFunc) (guint64 done, guint64 total, gpointer user_data);

/**
 * zw_dump_diff_tensors_full:
 *
 * zw_dump_diff_tensors() that says how far it is (@progress, may be NULL) and stops between
 * two values when @cancellable (may be NULL) is cancelled: NULL and G_IO_ERROR_CANCELLED.
 * The result is the same as zw_dump_diff_tensors()'s.
 */
ZwDumpDiff *zw_dump_diff_tensors_full (GPtrArray *a, GPtrArray *b, XirNetwork *network,
                                       const ZwDumpDiffOptions *options, GPtrArray *warnings,
                                       ZwDumpDiffProgressFunc progress, gpointer user_data, GCancellable *cancellable,
                                       GError **error);

/**
 * zw_dump_diff_folders:
 *
 * Loads @dir_a and @dir_b (zw_dump_folder_load with @network and @format, both may be NULL
 * for folders with a manifest) and compares them.  Errors only when a folder cannot be
 * loaded at all (unreadable, no manifest and no network …): ZW_DUMP_ERROR.
 */
ZwDumpDiff *zw_dump_diff_folders (const char *dir_a, const char *dir_b, XirNetwork *network, const char *format,
                                  const ZwDumpDiffOptions *options, GError **error);

/**
 * zw_dump_diff_to_json:
 *
 * The whole result as JSON: {"format": "zhuge-dump-diff", "version": 1, "options",
 * "first": {v_id, op_id, coords, a, b} or null, "counts", "warnings", "values": [...]}.
 */
cJSON *zw_dump_diff_to_json (const ZwDumpDiff *diff);

G_END_DECLS
