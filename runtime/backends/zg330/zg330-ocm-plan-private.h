/* zg330-ocm-plan-private.h — what the OCM planners share with the planning around them
 * (zg330-ocm-plan.c: the problem, the cost model, packing, BEST_SCORE) and the table of
 * planner functions (zg330-ocm-planners.c).
 *
 * A planner chooses the working set (Zg330OcmCtx.in) from an empty one, keeping .load in
 * step through zg330_ocm_ctx_set(); the caller then packs the set into OCM offsets, drops
 * what does not pack and never keeps a set slower than NONE.  A planner must be
 * deterministic: the same picks from the same problem on every machine and at any load.
 */
#pragma once

#include "backends/zg330/zg330-ocm-plan.h"

G_BEGIN_DECLS

#define NOT_IN_OCM G_MAXUINT64

typedef struct {
  const Zg330OcmProblem *p;
  const Zg330OcmChunk   *ch;
  guint                  nc, no;
  guint64                align, cap;
  guint64               *asz;        /* aligned sizes */
  guint                 *cops_start; /* CSR: distinct ops touching each chunk, ascending */
  guint                 *cops;
  guint64               *save1;      /* per CSR entry: cycles saved at that op by the chunk alone */
  gboolean              *cand;       /* could ever help: eligible, non-empty, fits alone, saves alone */
  gboolean              *in;         /* the working set */
  guint64               *load;       /* per op: aligned OCM bytes live */
  guint64               *over;       /* per chunk: offset in the last failed packing, or
                                      * NOT_IN_OCM where it ended past the OCM */
} Zg330OcmCtx;

/* Op @op's cycles with the chunks flagged in @in_ocm in OCM (the shared cost model). */
guint64 zg330_ocm_op_cycles (const Zg330OcmProblem *p, guint op, const gboolean *in_ocm);

/* Cycles saved by chunk @c on top of the working set (negative: it would cost). */
gint64 zg330_ocm_ctx_gain (Zg330OcmCtx *x, guint c);

/* Whether chunk @c fits beside the working set at every op of its lifetime. */
static inline gboolean
zg330_ocm_ctx_fits (const Zg330OcmCtx *x, guint c)
{
  for (guint t = x->ch[c].first; t <= x->ch[c].last; t++)
    if (x->load[t] + x->asz[c] > x->cap)
      return FALSE;
  return TRUE;
}

static inline void
zg330_ocm_ctx_set (Zg330OcmCtx *x, guint c, gboolean in)
{
  if (x->in[c] == in)
    return;
  x->in[c] = in;
  for (guint t = x->ch[c].first; t <= x->ch[c].last; t++)
    x->load[t] = in ? x->load[t] + x->asz[c] : x->load[t] - x->asz[c];
}

/* A planner: fills the working set of @x (empty on entry); returns %TRUE when the set is
 * proven optimal for the cost model (before packing). */
typedef gboolean (*Zg330OcmPlanner) (Zg330OcmCtx *x);

/* The planner of @option (NONE or one of the planners), or %NULL: BEST_SCORE and values
 * that are no option have none. */
Zg330OcmPlanner zg330_ocm_planner_lookup (ZwOcmOpt option);

G_END_DECLS
