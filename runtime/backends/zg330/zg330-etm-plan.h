/* zg330-etm-plan.h — static placement of FTMP buffers in ETM.
 *
 * The ETM planner gives every buffer (a feature-map chunk with a half-open
 * lifetime [lower, upper) in op-index time and a byte size) an offset so
 * that no two buffers whose lifetimes overlap share a byte, and makes the
 * arena (max offset + size) as small as it can.  The arena is never below
 * zg330_etm_lower_bound(): the most bytes live at one moment.
 *
 * zg330_etm_plan() tries greedy placements first, then, within its work
 * budget (work units, counted the same way on every machine), an exact
 * branch-and-bound search in the manner of MiniMalloc (Moffitt, ASPLOS
 * 2023), run as a small portfolio on up to two worker threads; it returns
 * as soon as the arena equals the lower bound.  One input and one set of
 * options give one plan, byte for byte, whatever the machine's load and
 * the thread count: the portfolio's winner is the lowest task index that
 * succeeds within its limits, and the work charged for a round is that of
 * the tasks up to the winner.  The budget only cuts a fixed schedule of
 * rounds (their node limits and work caps do not depend on it), and the
 * fit of a capacity gets all of it: a capacity fitted with W work units is
 * fitted, the same, with any budget >= W (no cliff just past a budget).  Only the optional wall-clock cap
 * (time_limit_s, off by default) can make a plan depend on timing; its
 * hitting is reported (Zg330PlanStats.time_limit_hit).  On the public
 * MiniMalloc benchmark instances the default budget fits every one in 1 MiB,
 * and planted perfect packings of 100-500 buffers (tests/planted-packing.c)
 * at their bound: all of the planner test's series, 165 of 168 in 24
 * rounds of each of the seven seeds looked at while tuning, and 114 of 120
 * of five held-out seeds (bench-planner --planted=24; 282 of 288 with 3e9
 * work units).  A node's work is what it scans: its sections' unplaced
 * members, the lowest floor's tight span, the live list once.  The misses
 * are not near the budget's edge: 2718 round 20 fits with 1.07e9 work
 * units, 4711 round 15 with 2.2e9 and 27182 round 6 with 2.1e9; 9001 round
 * 19, 2718 round 0, 65537 rounds 0 and 12 and 99991 rounds 19 and 20 not
 * with 3e9.  Restart lengths, the cover children's order and subset-sum
 * checks of a raised buffer's start only move which instances miss or add
 * work.
 *
 * Sizes are rounded up to the alignment for planning; the arena and the
 * lower bound are in rounded bytes.  Buffers of size 0 get offset 0.
 * All functions are reentrant; none keeps a pointer to the caller's data.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * ZG330_PLAN_ERROR:
 *
 * Error domain of the ETM planner and its CSV reader/writer.  Codes:
 * - %ZG330_PLAN_ERROR_INVALID: a buffer is malformed (lower >= upper, a
 *   negative time, alignment 0); the message names the buffer id.
 * - %ZG330_PLAN_ERROR_CAPACITY: the best arena found is larger than the
 *   capacity; the message gives the arena, the capacity and the lower bound.
 * - %ZG330_PLAN_ERROR_OVERLAP: zg330_etm_plan_check() found two buffers with
 *   overlapping lifetimes that share bytes; the message names both ids.
 * - %ZG330_PLAN_ERROR_PARSE: a CSV file is malformed; the message names the
 *   file, the line and the column.
 * - %ZG330_PLAN_ERROR_IO: a file could not be read or written.
 */
#define ZG330_PLAN_ERROR (zg330_plan_error_quark ())
GQuark zg330_plan_error_quark (void);

typedef enum {
  ZG330_PLAN_ERROR_INVALID,
  ZG330_PLAN_ERROR_CAPACITY,
  ZG330_PLAN_ERROR_OVERLAP,
  ZG330_PLAN_ERROR_PARSE,
  ZG330_PLAN_ERROR_IO,
} Zg330PlanError;

/* One buffer to place.  @lower/@upper: half-open lifetime (lower < upper,
 * both >= 0).  @offset is written by the planners. */
typedef struct {
  gint64  id;
  gint64  lower;
  gint64  upper;
  guint64 size;
  guint64 offset;
} Zg330Buffer;

/* Work figures are deterministic; the seconds are measured (for display). */
typedef struct {
  guint64     arena;        /* max(offset + aligned size), bytes */
  guint64     lower_bound;  /* zg330_etm_lower_bound(), bytes */
  double      seconds;      /* wall time of the call (measured, shown only) */
  const char *method;       /* static string: what produced the result */
  gboolean    optimal;      /* arena proven minimal (== bound, or search exhausted) */
  guint64     nodes;        /* search nodes (hill-climb steps) charged */
  double      fit_seconds;  /* when the arena first fitted the capacity (0 if never) */
  guint64     work_budget;  /* the work budget the call had (work units) */
  gboolean    time_limit_hit; /* the optional wall-clock cap cut the search: the
                               * plan may differ from run to run */
  guint       threads;      /* worker threads the search used (1 = inline) */
  guint64     work;         /* work units spent (<= work_budget, give or take a round) */
} Zg330PlanStats;

/* A work unit is one step of the search's bookkeeping: a node entered, a
 * placement tried, a candidate or a neighbour examined, a time section
 * updated (a hill-climb step counts its buffers and their neighbours).  It
 * costs about 1-3 ns on a 2020s core, so the default budget of
 * zg330_etm_plan() (work_budget 0) is about a second of one core; the
 * hardest public MiniMalloc instance here needs 0.22e9 (0.2 CPU-s) to fit
 * 1 MiB, the planted perfect packings of 100-500 buffers (bench-planner)
 * up to 0.9e9. */
#define ZG330_PLAN_DEFAULT_WORK  G_GUINT64_CONSTANT (1000000000)

/**
 * Zg330PlanOptions:
 * @capacity: bytes; 0 = unbounded
 * @alignment: offsets are multiples of this; 0 is taken as 1
 * @work_budget: work units the call may spend (the search may overrun it
 *   by a few units per task); 0 = %ZG330_PLAN_DEFAULT_WORK.  The result
 *   depends on it, never on time.
 * @time_limit_s: an optional wall-clock cap of the call; <= 0 = none (the
 *   default).  When it cuts the search, stats->time_limit_hit is set and
 *   the plan may differ from run to run.
 * @threads: worker threads for the search portfolio; 0 = $ZW_PLAN_THREADS
 *   if set, else min(cores, 2).  The result does not depend on it.
 *
 * Use designated initialisers: fields may be appended.
 */
typedef struct {
  guint64 capacity;
  guint64 alignment;
  guint64 work_budget;
  double  time_limit_s;
  guint   threads;
} Zg330PlanOptions;

/**
 * zg330_etm_lower_bound:
 * @b: (array length=n): buffers
 * @n: number of buffers
 * @alignment: sizes are rounded up to this (0 is taken as 1)
 *
 * Returns: the largest sum of (aligned) sizes of buffers live at one time.
 * Buffers with lower >= upper are ignored.  Any time.
 */
guint64 zg330_etm_lower_bound (const Zg330Buffer *b, guint n, guint64 alignment);

/**
 * zg330_etm_plan:
 * @b: (array length=n) (inout): buffers; every @offset is written
 * @n: number of buffers (0 is fine)
 * @opt: (nullable): options; %NULL = unbounded, alignment 1, the default
 *   work budget, no time limit
 * @stats: (out) (optional): figures of the run
 * @error: return location for an error
 *
 * Places the buffers (ETM optimize on), spending up to
 * @opt->work_budget work units (less when it reaches the lower bound or
 * proves its arena minimal).  The caller owns @b; nothing is kept
 * after the call.  On %ZG330_PLAN_ERROR_CAPACITY the best offsets found
 * are still written to @b and @stats is filled.  On
 * %ZG330_PLAN_ERROR_INVALID nothing is written.
 *
 * Returns: %TRUE if every buffer is placed within the capacity.
 */
gboolean zg330_etm_plan (Zg330Buffer            *b,
                         guint                   n,
                         const Zg330PlanOptions *opt,
                         Zg330PlanStats         *stats,
                         GError                **error);

/**
 * zg330_etm_plan_fit:
 * @b: (array length=n) (inout): buffers; every @offset is written
 * @n: number of buffers
 * @opt: (nullable): options, as for zg330_etm_plan()
 * @stats: (out) (optional): figures of the run
 * @error: return location for an error
 *
 * Like zg330_etm_plan(), but stops as soon as the arena fits
 * @opt->capacity instead of spending the rest of the budget on a smaller
 * arena: for callers that only need a fit (OCM packing, checks).  Same
 * ownership and errors.
 *
 * Returns: %TRUE if every buffer is placed within the capacity.
 */
gboolean zg330_etm_plan_fit (Zg330Buffer            *b,
                             guint                   n,
                             const Zg330PlanOptions *opt,
                             Zg330PlanStats         *stats,
                             GError                **error);

/**
 * zg330_etm_plan_greedy_by_size:
 * @b: (array length=n) (inout): buffers; every @offset is written
 * @n: number of buffers
 * @alignment: offset alignment (0 is taken as 1)
 * @stats: (out) (optional): figures of the run
 *
 * The classic baseline (TFLite "greedy by size"): largest buffer first,
 * each at the lowest offset where it fits.  Kept public so benchmarks can
 * measure the planner against it in the same run.  Invalid buffers
 * (lower >= upper) are treated as never live and get offset 0.
 *
 * Returns: %TRUE (it cannot fail).
 */
gboolean zg330_etm_plan_greedy_by_size (Zg330Buffer    *b,
                                        guint           n,
                                        guint64         alignment,
                                        Zg330PlanStats *stats);

/**
 * zg330_etm_plan_sequential:
 * @b: (array length=n) (inout): buffers; every @offset is written
 * @n: number of buffers
 * @alignment: offset alignment (0 is taken as 1)
 * @stats: (out) (optional): figures of the run
 *
 * "ETM optimize off": every buffer its own range, in order of (lower, id),
 * so the arena is the sum of the aligned sizes.
 *
 * Returns: %TRUE (it cannot fail).
 */
gboolean zg330_etm_plan_sequential (Zg330Buffer    *b,
                                    guint           n,
                                    guint64         alignment,
                                    Zg330PlanStats *stats);

/**
 * zg330_etm_plan_check:
 * @b: (array length=n): placed buffers
 * @n: number of buffers
 * @capacity: bytes; 0 = unbounded
 * @error: return location for an error
 *
 * Independent checker (a sweep over lifetimes, sharing no code with the
 * planner): every pair of buffers whose lifetimes overlap must occupy
 * disjoint byte ranges [offset, offset + size), and every buffer must end
 * within @capacity.
 *
 * Returns: %TRUE if the placement is valid; otherwise %FALSE with
 * %ZG330_PLAN_ERROR_OVERLAP naming both ids (or %ZG330_PLAN_ERROR_CAPACITY
 * naming the id that ends past the capacity).
 */
gboolean zg330_etm_plan_check (const Zg330Buffer *b,
                               guint              n,
                               guint64            capacity,
                               GError           **error);

/**
 * zg330_buffers_load_csv:
 * @path: a MiniMalloc CSV file: header `id,lower,upper,size` (an optional
 *   fifth column `offset` is read too), one buffer per line
 * @error: return location for an error
 *
 * Returns: (transfer full): a #GArray of #Zg330Buffer (free with
 * g_array_unref()), or %NULL with %ZG330_PLAN_ERROR_PARSE (file, line and
 * column named) or %ZG330_PLAN_ERROR_IO.
 */
GArray *zg330_buffers_load_csv (const char *path, GError **error);

/**
 * zg330_buffers_save_csv:
 * @path: file to write (atomically: temp file + rename)
 * @b: (array length=n): buffers
 * @n: number of buffers
 * @with_offset: add the `offset` column
 * @error: return location for an error
 *
 * Returns: %TRUE on success.
 */
gboolean zg330_buffers_save_csv (const char        *path,
                                 const Zg330Buffer *b,
                                 guint              n,
                                 gboolean           with_offset,
                                 GError           **error);

G_END_DECLS
