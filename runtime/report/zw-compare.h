/* zw-compare.h — compare two runs: time profiles per op, deploy reports side by side; and two
 * compiles of one model for two chips, aligned op by op (see "two compiles" below).
 *
 * Profiles: rows are matched by op_id; a merged launch matches only a launch with the same
 * op id and the same merge_from (a profile that lost merge_from, e.g. a vendor text file,
 * matches by op id alone).  A repeated op id matches its n-th occurrence to the n-th.
 * A merged launch left unmatched matches its members on the other side (merge on against
 * merge off): one row, the launch's time against the members' sum (match MERGE).  When
 * fewer than half of the rows match by op id (two compiles number their ops differently,
 * e.g. two vendor time files), the rows left are aligned by op type in execution order (a
 * longest common subsequence; match KIND, b_op_id is B's op id); when most match, the rows
 * left that are not hardop launches (a DetPost, an ImageMake renumbered) are aligned so.
 * For each pair: delta = B - A and ratio = B / A (total, hard, memcpy, other); a regression
 * is ratio > 1 + tolerance and delta > min_delta_ms (an improvement the mirror image).
 * Rows appear in A's order; rows only in B follow, in B's order.  Only simulated times are
 * compared (the board's timer and the host-op cost model); the dev host's measured time of
 * host ops is summed apart (a_host_measured_ms …) so a view can show it, labelled, beside.
 *
 * Deploy reports: FTMP bytes, OCM bytes (chunks placed in OCM), launches, hardops, the
 * OCM option asked and chosen, and the planner's estimated time of the chosen option.
 *
 * Everything here is plain data that a view and the CLI print; owned by the caller.
 */
#pragma once

#include <glib.h>
#include <cjson/cJSON.h>

#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

typedef struct {
  double tolerance;      /* regression when B / A > 1 + tolerance … (default 0.05) */
  double min_delta_ms;   /* … and B - A > this (default 0.01 ms) */
} ZwCompareOptions;

#define ZW_COMPARE_OPTIONS_INIT { 0.05, 0.01 }

typedef enum {
  ZW_COMPARE_BOTH,
  ZW_COMPARE_ONLY_A,
  ZW_COMPARE_ONLY_B,
} ZwCompareSide;

typedef enum {
  ZW_COMPARE_MATCH_ID,       /* the same op id (or a row on one side only) */
  ZW_COMPARE_MATCH_MERGE,    /* a merged launch against its members' rows on the other side */
  ZW_COMPARE_MATCH_KIND,     /* op ids differ between compiles: the same op type, in order */
} ZwCompareMatch;

typedef struct {
  gint64 op_id;              /* A's (B's for a row only in B, or a B launch of A's members) */
  char *op_type;
  char *op_name;
  GArray *merge_from;        /* gint64 (A's, else B's) */
  ZwCompareSide side;
  double a_ms, b_ms;         /* total times (0 when absent) */
  double a_hard_ms, b_hard_ms;
  double a_memcpy_ms, b_memcpy_ms;
  double a_other_ms, b_other_ms;
  double delta_ms;           /* b_ms - a_ms */
  double ratio;              /* b_ms / a_ms; +inf when a is 0 and b is not, 1 when both are 0,
                              * NaN for a row on one side only */
  gboolean regression;
  gboolean improvement;
  ZwCompareMatch match;
  gint64 b_op_id;            /* B's op id (the same as op_id unless matched by kind) */
  char *op_class;            /* the hardop class from the deploy reports ("Conv2d", a merged
                              * launch "Conv2d +3"), NULL when not set or not known */
  guint order;               /* the row's place as compared (A's order, then B-only rows) */
  char *network;             /* a pipeline's network the op is of (zw_pipeline_compare(): the
                              * row is "NET:OP_ID"); NULL for two runs of one network */
} ZwCompareRow;

/**
 * zw_compare_row_free: (skip)
 * @row: (transfer full): a row (its strings and merge_from with it)
 */
void zw_compare_row_free (ZwCompareRow *row);

/* What the rows can be sorted by (zw_profile_compare_sort). */
typedef enum {
  ZW_COMPARE_SORT_ORDER,     /* as compared: A's execution order, rows only in B after */
  ZW_COMPARE_SORT_OP_ID,
  ZW_COMPARE_SORT_CLASS,     /* op_class, else the op type */
  ZW_COMPARE_SORT_A_MS,
  ZW_COMPARE_SORT_B_MS,
  ZW_COMPARE_SORT_DELTA,     /* rows on one side only sort by their one time */
  ZW_COMPARE_SORT_RATIO,     /* rows on one side only last whichever the direction */
} ZwCompareSortKey;

typedef struct {
  ZwCompareOptions options;
  GPtrArray *rows;           /* ZwCompareRow* */
  double a_total_ms, b_total_ms, delta_ms, ratio;     /* sums of the rows' totals */
  double a_hard_ms, b_hard_ms;
  guint n_matched, n_only_a, n_only_b, n_regressions, n_improvements;
  /* the dev host's measured time of host ops (ZwProfileRow.host_measured_ms), summed per
   * side for a labelled line; never in the rows, deltas, ratios or verdicts above */
  gboolean a_has_host_measured, b_has_host_measured;
  double a_host_measured_ms, b_host_measured_ms;
  guint n_merge_mapped;      /* merged launches matched to their members (MATCH_MERGE rows) */
  guint n_kind_matched;      /* rows matched by op type and order (MATCH_KIND) */
  char *plan_network;        /* the network whose merge plan gave bare time files' launches
                              * their members (zw_profile_compare_set_plan), NULL */
  gboolean plan_merge_on_again; /* that plan is the network planned again with merge on
                              * (deploy/xrt-merge-on-plan.h): the run open, or the report
                              * given, has merge off; set by the caller, for the views to say */
} ZwProfileCompare;

/**
 * zw_profile_compare:
 *
 * @options may be NULL (defaults).
 */
ZwProfileCompare *zw_profile_compare (const ZwProfile *a, const ZwProfile *b, const ZwCompareOptions *options);
void zw_profile_compare_free (ZwProfileCompare *cmp);
/* Sets each row's op_class from the runs' deploy reports (either may be NULL): the class of
 * A's op, else B's, else of a merged launch's first member ("Conv2d +3"). */
void zw_profile_compare_set_classes (ZwProfileCompare *cmp, const ZwDeployReport *a, const ZwDeployReport *b);
/* Two bare time files mapped to @report's network (zw_profile_map_to_plan of both): the
 * classes from @report on both sides and plan_network its name, for the views to say so. */
void zw_profile_compare_set_plan (ZwProfileCompare *cmp, const ZwDeployReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwProfileCompare, zw_profile_compare_free)

/* Sorts cmp->rows by @key (ties: the order as compared); the totals and counts stay. */
void zw_profile_compare_sort (ZwProfileCompare *cmp, ZwCompareSortKey key, gboolean descending);

/**
 * zw_profile_compare_to_csv:
 *
 * (a pipeline's row's op_id is "NET:OP_ID")
 * Op_id,op_type,op_name,merge_from,side,a_ms,b_ms,delta_ms,ratio,a_hard_ms,b_hard_ms,regression
 * (RFC 4180 quoting; a new string).
 */
char *zw_profile_compare_to_csv (const ZwProfileCompare *cmp);

/* One side of a deploy comparison. */
typedef struct {
  char *network;
  gboolean merge_hardop, etm_optimize;
  ZwOcmOpt ocm_requested, ocm_chosen;
  guint64 ftmp_bytes;
  guint64 ftmp_lower_bound;
  guint64 ocm_bytes;          /* sum of the sizes of the chunks placed in OCM (placed over time) */
  guint64 ocm_peak;           /* the most OCM bytes live at once (zw_deploy_report_ocm_peak) */
  guint n_ocm_chunks;
  guint64 ocm_capacity;
  guint n_launches;
  guint n_hardops;
  double estimated_ms;        /* the planner's cost of the chosen OCM option (NONE: without OCM) */
} ZwDeploySummary;

typedef struct {
  ZwDeploySummary a, b;
  gint64 ftmp_delta, ocm_delta;
  gint n_launches_delta;
  double estimated_delta_ms;
} ZwDeployCompare;

void zw_deploy_summary_init (ZwDeploySummary *summary, const ZwDeployReport *report);
void zw_deploy_summary_clear (ZwDeploySummary *summary);
ZwDeployCompare *zw_deploy_compare (const ZwDeployReport *a, const ZwDeployReport *b);
void zw_deploy_compare_free (ZwDeployCompare *cmp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDeployCompare, zw_deploy_compare_free)

/* ---- two compiles of one model ---------------------------------------------------------
 *
 * zw_compare_compiles() puts two compiles of one model side by side — typically the ZG330
 * compile (ops on @zhuget(330), deployed by ZG330Backend) and the Buyi compile (ops on
 * @buyit, placed by the Buyi compiler) — from their deploy reports and, when given, the
 * simulated time profiles of one forward each.  Nothing here needs a device or a backend:
 * a report loaded from disk compares the same as a live one.
 *
 * Totals (ZwCompileTotals.rows, in the order of ZwCompileTotalKind): ETM bytes per segment
 * (the report's segments[].byte_size) and their sum; OCM bytes (the sizes of the chunks
 * placed in OCM, summed) and the OCM peak (the most OCM bytes live at one op index);
 * hardops; launches; simulated total, hard, memcpy and other time (the profile's totals,
 * host ops included).  Each row holds A, B and ratio = B / A (1 when both are 0, +inf when
 * only A is 0, NaN when a side has no figure: a time without a profile).
 *
 * Per-op rows: op ids differ between two compiles (and so do origin op ids), so the hardops
 * of A and B (report->ops with kind "HardOp", in execution order) are aligned by a longest
 * common subsequence on the key (op class, logical N, C, H, W of the op's first output).
 * The logical shape comes from the report's value (its shape and layout): every upper-case
 * axis N/C/H/W multiplies with its lower-case block (NCHWc32 [1,2,88,160,32] is N 1, C 64,
 * H 88, W 160; padding channels count); an absent axis is 1; a layout that does not match
 * the shape's rank gives no logical shape (N = C = H = W = -1) and such an op matches only
 * an op of the same class whose stored shape is the same.  Ops that do not align appear as
 * rows with one side empty (ZW_COMPARE_ONLY_A / _ONLY_B) at their place in execution order
 * (e.g. ZG330's Reshape and Cast at the input, which Buyi does in its ImageMake host op).
 * Host ops (Input, ImageMake, DetPost, Output …) are not rows: their time is in the totals.
 *
 * Per-op time comes from the profile by op id.  A merged launch's time cannot be split per
 * op: the launch's whole time is given on its first member (launch_first TRUE) and every
 * member carries merged = TRUE with the launch's op id; the other members' time is NaN.  An
 * op the profile does not list (no profile, or another run) has NaN time.
 *
 * Ownership: the result is plain data owned by the caller (zw_compile_compare_free).
 */

typedef enum {
  ZW_COMPILE_TOTAL_ETM_WEIGHT,
  ZW_COMPILE_TOTAL_ETM_INSTR,
  ZW_COMPILE_TOTAL_ETM_FTMP,
  ZW_COMPILE_TOTAL_ETM_INPUT,
  ZW_COMPILE_TOTAL_ETM_OUTPUT,
  ZW_COMPILE_TOTAL_ETM_ALL,       /* the five segments' sum */
  ZW_COMPILE_TOTAL_OCM_BYTES,     /* chunks placed in OCM, sizes summed */
  ZW_COMPILE_TOTAL_OCM_PEAK,      /* most OCM bytes live at one op index */
  ZW_COMPILE_TOTAL_HARDOPS,
  ZW_COMPILE_TOTAL_LAUNCHES,
  ZW_COMPILE_TOTAL_TIME,          /* simulated ms of the forward (host ops included) */
  ZW_COMPILE_TOTAL_HARD_TIME,
  ZW_COMPILE_TOTAL_MEMCPY_TIME,
  ZW_COMPILE_TOTAL_OTHER_TIME,
  ZW_COMPILE_N_TOTALS
} ZwCompileTotalKind;

typedef enum {
  ZW_COMPILE_UNIT_BYTES,
  ZW_COMPILE_UNIT_COUNT,
  ZW_COMPILE_UNIT_MS,
} ZwCompileUnit;

typedef struct {
  ZwCompileTotalKind kind;
  const char *key;            /* stable name for files: "etm.weight", "time.total" … */
  const char *label;          /* untranslated msgid ("ETM WEIGHT"); show it through _() */
  ZwCompileUnit unit;
  double a, b;                /* NaN when that side has no figure */
  double ratio;               /* B / A (see the top) */
} ZwCompileTotal;

/* Where an op's first output lives after deployment. */
typedef enum {
  ZW_COMPILE_PLACE_NONE,      /* no side, or no output value in the report */
  ZW_COMPILE_PLACE_ETM,
  ZW_COMPILE_PLACE_OCM,
  ZW_COMPILE_PLACE_HOST,
} ZwCompilePlace;

/* One side of a per-op row. */
typedef struct {
  gboolean present;
  gint64 op_id;
  guint index;                /* op index in its report (execution order) */
  gint64 v_id;                /* its first output, -1 when none */
  gint64 nchw[4];             /* logical N, C, H, W (-1 when unknown) */
  char *layout;               /* the output's layout as in the report, NULL when none */
  ZwCompilePlace place;
  guint64 out_bytes;          /* the output's byte size */
  gboolean merged;            /* in a launch of several hardops */
  gboolean launch_first;      /* merged and first of its launch: the time is the launch's */
  gint64 launch_op_id;        /* the launch that runs it (merged op id or its own), -1 */
  double ms, hard_ms;         /* from the profile; NaN when not known (see the top) */
} ZwCompileOpSide;

typedef struct {
  ZwCompareSide side;         /* BOTH when aligned */
  char *op_class;             /* "Conv2d" (A's, else B's) */
  ZwCompileOpSide a, b;
} ZwCompileOpRow;

/* The facts that name one compile. */
typedef struct {
  char *network;              /* the report's network name */
  char *path;                 /* the network file, may be NULL */
  char *chip;                 /* the backend of its hardops ("ZG330", "Buyi"), else "?" */
  char *device_url;
  gboolean merge_hardop, etm_optimize;
  ZwOcmOpt ocm_chosen;
  guint64 ocm_capacity;
  gboolean has_profile;
} ZwCompileInfo;

typedef struct {
  ZwCompileInfo a, b;
  ZwCompileTotal totals[ZW_COMPILE_N_TOTALS];
  GPtrArray *rows;            /* ZwCompileOpRow*, in execution order */
  guint n_hardops_a, n_hardops_b;
  guint n_aligned, n_only_a, n_only_b;
} ZwCompileCompare;

/**
 * zw_compare_compiles:
 *
 * Compares compile A (@a, its profile @pa) with compile B (@b, @pb).  @a and @b are
 * required; @pa and @pb may be NULL (no forward: the times are NaN).  The reports are only
 * read, not kept.
 */
ZwCompileCompare *zw_compare_compiles (const ZwDeployReport *a, const ZwProfile *pa, const ZwDeployReport *b,
                                       const ZwProfile *pb);
void zw_compile_compare_free (ZwCompileCompare *cmp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwCompileCompare, zw_compile_compare_free)

/**
 * zw_compile_info_label:
 *
 * "yolov5s_plin (Buyi)": how views and the CLI name a side (a new string).
 */
char *zw_compile_info_label (const ZwCompileInfo *info);
/**
 * zw_compile_place_to_string:
 *
 * "ETM", "OCM", "host" or "" (not translated: the manual's words).
 */
const char *zw_compile_place_to_string (ZwCompilePlace place);

/**
 * zw_compile_compare_to_json:
 *
 * {"format": "zhuge-compile-compare", "version": 1,
 *  "a"|"b": {"network", "path", "chip", "device", "merge_hardop", "etm_optimize", "ocm_chosen",
 *            "ocm_capacity", "has_profile"},
 *  "totals": [{"key", "label", "unit": "bytes"|"count"|"ms", "a", "b", "ratio"}],
 *  "n_aligned", "n_only_a", "n_only_b",
 *  "ops": [{"side": "both"|"a"|"b", "class", "a"|"b": {"op_id", "index", "v_id", "nchw": [4],
 *           "layout", "place", "out_bytes", "merged", "launch_first", "launch_op_id", "ms",
 *           "hard_ms"} (absent for the empty side)}]}
 * Unknown figures (NaN) are null, +inf is the string "inf".  A new cJSON tree.
 */
cJSON *zw_compile_compare_to_json (const ZwCompileCompare *cmp);

/**
 * zw_compile_logical_nchw:
 *
 * The logical N, C, H, W of a value of @shape (@rank dims) in @layout ("NCHWc32" or
 * "@layout(NCHWc32)"), as described at the top.  FALSE (and -1s) when the layout is not
 * understood or does not match the rank.
 */
gboolean zw_compile_logical_nchw (const gint64 *shape, guint rank, const char *layout, gint64 out[4]);

G_END_DECLS
