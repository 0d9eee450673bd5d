/* zg330-ocm-plan.h — the ZG330Backend's OCM options (OcmOpt).
 *
 * The backend may keep feature maps in OCM (on-chip memory, profile->ocm_bytes) instead
 * of ETM, so the hardops that read or write them move fewer ETM bytes.  This module
 * decides which compiler chunks go to OCM and where, on an abstract problem that knows
 * nothing of the network:
 *
 *   - chunks: an id, a lifetime [first, last] in op indices (inclusive), a size, and
 *     whether it may live in OCM at all (network inputs/outputs and chunks a host op
 *     touches may not);
 *   - ops, in execution order: MACs, fixed ETM traffic (weights, instructions, accesses
 *     to values outside the chunks), and the bytes each op reads or writes in each chunk.
 *
 * The cost of a placement is the timing model of devices/zg330-timing.h, nothing else:
 * every op costs zg330_timing_op_cycles() on a Zg330OpWork where accesses to chunks in
 * OCM count as OCM bytes and all other accesses as ETM bytes; the total adds the launch
 * overheads (the same for every placement).  The simulated board charges the same.
 *
 * Constraints on a placement: only eligible chunks; at every op index the OCM chunks
 * live there fit the capacity (sizes rounded up to the alignment); and the chunks get
 * real OCM offsets, with no two chunks whose lifetimes overlap sharing a byte — the
 * picks are packed by the ETM planner (zg330-etm-plan.h) with the OCM as its arena.
 * When the planner cannot pack a set, the pick worth least is dropped and it tries again.
 *
 * The options are the vendor's OcmOpt (report/zw-ocm-option.h: one enum and the table of
 * their names and labels); each option but BEST_SCORE has a planner, found by its value
 * in the table of zg330-ocm-planners.c, where each planner's method is described.
 * BEST_SCORE runs every planner and keeps the cheapest (ties: the lower option number);
 * Zg330OcmResult.option says which.
 * Every option's result costs at most what NONE costs (a set that would be slower is
 * replaced by the empty one).  Results are deterministic — the same on every machine,
 * at any load and with any thread count: the options are, and so is the packing
 * (zg330_etm_plan_fit() with a work budget of 5e7 work units per set, 5e6 for the
 * refill's trials; a set whose search runs out of work counts as unpackable and
 * picks are dropped); the few repair and refill trials are bounded by counts.  Nothing
 * here reads the clock except to report Zg330OcmResult.seconds.
 */
#pragma once

#include <glib.h>

#include "devices/zg330-timing.h"
#include "report/zw-ocm-option.h"

G_BEGIN_DECLS

/**
 * ZG330_OCM_ERROR:
 * Error domain of the OCM planner.  Codes:
 * - %ZG330_OCM_ERROR_INVALID: the problem is malformed; the message names the chunk or
 *   op (index and id) and the field (last < first, last past the ops, an access to an
 *   unknown chunk or outside the chunk's lifetime, no profile, alignment too large).
 * - %ZG330_OCM_ERROR_OPTION: an option number without a planner.
 */
#define ZG330_OCM_ERROR (zg330_ocm_error_quark ())
GQuark zg330_ocm_error_quark (void);

typedef enum {
  ZG330_OCM_ERROR_INVALID,
  ZG330_OCM_ERROR_OPTION,
} Zg330OcmError;

/**
 * Zg330OcmChunk:
 * @id: the chunk's id (used in messages and as the planner buffer id).
 * @first, @last: op indices (inclusive) between which the chunk is live.
 * @size: bytes.
 * @eligible: %FALSE for chunks that may never be in OCM.
 */
typedef struct {
  gint64   id;
  guint    first;
  guint    last;
  guint64  size;
  gboolean eligible;
} Zg330OcmChunk;

/* One op's access to one chunk: @chunk is an index into the problem's chunks. */
typedef struct {
  guint    chunk;
  guint64  bytes;
  gboolean write;
} Zg330OcmAccess;

/**
 * Zg330OcmOp:
 * @id: the op's id (for messages).
 * @macs, @layer_count: as in Zg330OpWork.
 * @fixed_etm_read_bytes, @fixed_etm_write_bytes: ETM traffic whatever the placement
 *   (weights, instructions, values outside the chunks, ineligible inputs/outputs may
 *   also be given as accesses instead).
 * @accesses: (element-type Zg330OcmAccess): owned by the op (the problem frees it).
 */
typedef struct {
  gint64   id;
  guint64  macs;
  guint    layer_count;
  guint64  fixed_etm_read_bytes;
  guint64  fixed_etm_write_bytes;
  GArray  *accesses;
} Zg330OcmOp;

/**
 * Zg330OcmProblem:
 * @chunks: (element-type Zg330OcmChunk): the chunks.
 * @ops: (element-type Zg330OcmOp): the ops in execution order; freeing the array frees
 *   each op's accesses.
 * @profile: (unowned): the device profile; must outlive every call on the problem.
 * @capacity: OCM bytes usable (default profile->ocm_bytes; 0 = nothing goes to OCM).
 *   Rounded down to the alignment.
 * @alignment: OCM offsets are multiples of this and sizes are rounded up to it
 *   (default 64; 0 is taken as 1).
 * @merged: the launch overhead model: %TRUE = the ops run as one merged launch, %FALSE
 *   = one unmerged launch (with a host sync) per op.
 * @max_states: OPTION2's budget of states kept per op boundary; 0 (default) = about
 *   4 M states over the whole programme, at least 512 and at most 16384 per boundary.
 * Fields may be set directly between zg330_ocm_problem_new() and a plan call.
 */
typedef struct {
  GArray             *chunks;
  GArray             *ops;
  const Zg330Profile *profile;
  guint64             capacity;
  guint64             alignment;
  gboolean            merged;
  guint               max_states;
} Zg330OcmProblem;

/* An empty problem for @profile (which must outlive it); free with
 * zg330_ocm_problem_free().  Never fails. */
Zg330OcmProblem *zg330_ocm_problem_new  (const Zg330Profile *profile);
void             zg330_ocm_problem_free (Zg330OcmProblem *p);

/* Appends a chunk / an op; returns its index.  Nothing is checked here: the plan and
 * estimate calls validate the whole problem. */
guint zg330_ocm_problem_add_chunk  (Zg330OcmProblem *p,
                                    gint64           id,
                                    guint            first,
                                    guint            last,
                                    guint64          size,
                                    gboolean         eligible);
guint zg330_ocm_problem_add_op     (Zg330OcmProblem *p,
                                    gint64           id,
                                    guint64          macs,
                                    guint            layer_count,
                                    guint64          fixed_etm_read_bytes,
                                    guint64          fixed_etm_write_bytes);
/* Op @op reads (or, @write, writes) @bytes of chunk @chunk. */
void  zg330_ocm_problem_add_access (Zg330OcmProblem *p,
                                    guint            op,
                                    guint            chunk,
                                    guint64          bytes,
                                    gboolean         write);

/* Checks the problem (see ZG330_OCM_ERROR_INVALID).  Any time. */
gboolean zg330_ocm_problem_validate (const Zg330OcmProblem *p,
                                     GError               **error);

/**
 * Zg330OcmResult:
 * @asked: the option asked for.  @option: the option that produced the placement
 *   (for BEST_SCORE: the planner chosen; the asked one otherwise).
 * @cycles, @cost_ms: estimated cost of the placement (zg330_ocm_estimate()).
 * @etm_only_cycles, @etm_only_cost_ms: the cost with everything in ETM (= NONE).
 * @option_cost_ms: indexed by option number: the cost of NONE and of each planner that
 *   ran; negative for planners that did not run (BEST_SCORE runs them all).
 * @picked: (element-type guint): indices of the chunks placed in OCM, ascending.
 * @n_chunks: length of @ocm_addr.
 * @ocm_addr: per chunk, its OCM offset, or G_MAXUINT64 when it stays in ETM.
 * @peak_bytes: the most OCM bytes (aligned) live at one op index.
 * @arena: max(offset + aligned size) over the picks (<= the capacity).
 * @dropped: picks dropped because the planner could not pack the set.
 * @exact: the placement is proven optimal for the cost model (OPTION2's programme kept
 *   every state and nothing was dropped).
 * @seconds: wall time of the call.
 * Free the contents with zg330_ocm_result_clear().
 */
typedef struct {
  ZwOcmOpt asked;
  ZwOcmOpt option;
  guint64  cycles;
  guint64  etm_only_cycles;
  double   cost_ms;
  double   etm_only_cost_ms;
  double   option_cost_ms[ZW_OCM_N_SLOTS];
  GArray  *picked;
  guint    n_chunks;
  guint64 *ocm_addr;
  guint64  peak_bytes;
  guint64  arena;
  guint    dropped;
  gboolean exact;
  double   seconds;
} Zg330OcmResult;

/* Frees what a result owns and zeroes it; safe on a zeroed or cleared result. */
void zg330_ocm_result_clear (Zg330OcmResult *r);

/**
 * zg330_ocm_plan:
 * @p: a problem (not modified)
 * @option: the option to plan with
 * @out: (out caller-allocates): filled on success (clear it with
 *   zg330_ocm_result_clear() afterwards); untouched on failure
 * @error: return location for an error
 *
 * Chooses the OCM chunks with @option and gives them OCM offsets.  NONE gives the
 * empty placement.  Deterministic.  Nothing is kept after the call.
 *
 * Returns: %TRUE on success; %FALSE with %ZG330_OCM_ERROR_INVALID or
 * %ZG330_OCM_ERROR_OPTION.
 */
gboolean zg330_ocm_plan (const Zg330OcmProblem *p,
                         ZwOcmOpt               option,
                         Zg330OcmResult        *out,
                         GError               **error);

/**
 * zg330_ocm_estimate_cycles / zg330_ocm_estimate:
 * @p: a valid problem (call zg330_ocm_problem_validate() first: no checks here)
 * @in_ocm: (array) (nullable): per chunk, %TRUE if it is in OCM; %NULL = all in ETM
 *
 * The shared cost model: the sum of every op's cycles plus the launch overheads;
 * _estimate gives it in milliseconds.  Neither checks the capacity or eligibility.
 */
guint64 zg330_ocm_estimate_cycles (const Zg330OcmProblem *p,
                                   const gboolean        *in_ocm);
double  zg330_ocm_estimate        (const Zg330OcmProblem *p,
                                   const gboolean        *in_ocm);

/**
 * zg330_ocm_op_work:
 * @p: a valid problem
 * @op: an op index
 * @in_ocm: (array) (nullable): per chunk, in OCM or not
 * @work: (out): the op's Zg330OpWork under that placement (tiles left 0)
 *
 * What op @op moves where; the estimate is zg330_timing_op_cycles() of this, so the
 * backend and the simulator can use it to report the same figures.
 */
void    zg330_ocm_op_work (const Zg330OcmProblem *p,
                           guint                  op,
                           const gboolean        *in_ocm,
                           Zg330OpWork           *work);

G_END_DECLS
