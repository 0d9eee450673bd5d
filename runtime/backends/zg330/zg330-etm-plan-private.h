/* zg330-etm-plan-private.h — what the layers of the ETM planner share: the problem in
 * alignment units (zg330-etm-problem.c), the greedy placement and hill climb
 * (zg330-etm-greedy.c), the exact search (zg330-etm-search.c) and its portfolio
 * (zg330-etm-portfolio.c), driven by zg330-etm-plan.c. */
#pragma once

#include "backends/zg330/zg330-etm-plan.h"

G_BEGIN_DECLS

typedef struct {
  guint    m;          /* buffers planned (valid lifetime, size > 0) */
  guint   *orig;       /* index into the caller's array */
  gint64  *size;       /* aligned size, units */
  gint64  *lo, *hi;    /* lifetime, caller's time */
  guint   *slo, *shi;  /* lifetime as a range of sections */
  guint    nsec;
  guint   *adj_start;  /* CSR: buffers whose lifetimes overlap */
  guint   *adj;
  guint   *sec_start;  /* CSR: buffers live in each section */
  guint   *sec_buf;
  gint64  *sec_live;   /* units live in each section */
  gint64  *maxtot;     /* per buffer: max sec_live over its sections */
  gint64   lb;         /* max sec_live */
  gboolean searchable; /* membership small enough for the exact search */
} Problem;

typedef struct {
  gint64 off;
  gint64 end;
} Span;

typedef struct {
  const Problem *p;
  Span          *spans;   /* scratch, max degree */
  gboolean      *placed;  /* scratch, m */
} Greedy;

enum { FOUND, NOT_FOUND, ABORTED };

enum { TRAIL_MINOFF, TRAIL_SECTION };

typedef struct {
  guint  kind;
  guint  idx;
  gint64 a;       /* old minoff, or old section minimum */
  gint64 b;       /* old count of buffers at the section minimum */
} Trail;

typedef struct {
  const Problem *p;
  gint64   cap;
  gint64  *minoff;   /* lowest offset the placed neighbours allow; PLACED
                      * once placed (so section minima skip it for free) */
  /* Per section, over its unplaced buffers: the lowest minoff (no unplaced
   * buffer there can go lower, so it is the section's floor), how many sit
   * at it, and their total size. */
  gint64  *umin;
  gint64  *ucnt;
  gint64  *total;
  guint   *cuts;     /* per boundary k|k+1: unplaced buffers across it */
  gint    *rank;     /* static preorder rank of each buffer */
  gint64  *sol;
  guint   *stamp;    /* per section: last node that saved it on the trail */
  guint    stamp_now;
  Trail   *trail;
  gsize    trail_len, trail_cap;
  guint   *dirty;    /* sections whose minimum holders all left */
  guint   *head;     /* per section: first floor candidate starting there */
  guint   *link;     /* per buffer: next floor candidate with the same start */
  guint8  *reach;    /* per section boundary: the floor is tiled up to here */
  guint   *fstamp;   /* per section boundary: the floor check that set head, reach */
  guint    fstamp_now;
  guint   *twin;     /* per buffer: the previous twin in rank order (the same
                      * sections and size), G_MAXUINT if none */
  guint   *peers;    /* buffers grouped by sections (slo, shi): each group a run */
  guint   *peer_lo, *peer_hi;  /* per buffer: its group's run in @peers */
  guint   *peer_pos;     /* per buffer: where it sits in @peers */
  guint   *peer_placed;  /* per group (its start in @peers): how many of it are
                          * placed, those first (swapped there on placement,
                          * back out on undo, last in first out) */
  const guint *twin_order;  /* the preorder @twin was computed for */
  /* Per section, its members with the unplaced ones first: @ulen of them
   * (so scans of a section's unplaced buffers skip the placed ones); @mpos:
   * where each membership (buffer i in its section k, slot mstart[i] + k -
   * slo[i]) sits in @mbuf.  A placement swaps the buffer behind the
   * unplaced ones, its undo (last in, first out) takes it back in. */
  guint   *mbuf;
  guint   *mpos;
  guint   *mstart;
  guint   *ulen;
  guint   *raised;   /* scratch: neighbours raised by the last placement */
  guint   *next;     /* scratch: a node's buffers that may be its candidates */
  guint    low_top;  /* the buffer with the lowest top at the last node */
  guint   *hstamp;   /* per section: last placement that checked its holes */
  guint    hstamp_now;
  guint   *cover;    /* scratch, per section: candidates covering it at the floor */
  guint   *prev_tight;  /* scratch, per section: the last tight one before it */
  gboolean cover_branch;  /* branch on the cover of a tight section (search_cover_kids) */
  gint64   low_u;    /* the node's lowest floor (search_floor_tileable) */
  gint64   tight_u;  /* its lowest tight floor, G_MAXINT64 if none */
  guint    tight_a, tight_z;  /* the span of the sections tight at tight_u */
  GArray  *parts;    /* guint: buffer lists of the partitions being solved */
  guint64 *zobrist;  /* per buffer: random key of the state hash */
  guint64  hash;     /* of the unplaced buffers with their minoffs */
  GHashTable *memo;  /* failed states -> least (offset, rank) that failed */
  gboolean memo_on;
  gint    *winner;   /* lowest portfolio index that found a fit this round */
  gint     index;    /* this task's portfolio index */
  guint64  nodes;
  guint64  node_limit;
  guint64  work;       /* work units: nodes, placements tried, candidates
                        * scanned, sections and section members visited */
  guint64  work_limit;
  guint    disc;      /* discrepancies left (limited discrepancy search) */
  guint64  cutoffs;   /* children skipped for want of discrepancies */
  gint64   deadline; /* monotonic µs of the optional time limit; G_MAXINT64 = none */
  gboolean timed_out;
} Search;

/* the portfolio's tasks (portfolio_kinds in zg330-etm-portfolio.c) */
#define N_TASKS 4

typedef struct {
  Search   s;
  guint   *order;
  guint   *base;     /* restarts: the unperturbed preorder */
  gboolean lds;
  gboolean restarts; /* randomised restarts (zg330-etm-portfolio.c) */
  guint    cursor;   /* restarts: the next restart of this fit */
  guint    disc;     /* LDS: discrepancies of the next iteration */
  guint64  limit;    /* nodes for this round */
  guint64  credit;   /* restarts: nodes granted and not yet used */
  guint64  round_cap; /* work units for this round, uncut */
  guint64  work_cap; /* work units for this round (cut by the slice) */
  int      result;
  gboolean proven;   /* result NOT_FOUND covers the whole search space */
} SearchTask;

typedef struct {
  SearchTask   tasks[N_TASKS];
  GThreadPool *pool;
  GMutex       lock;
  GCond        cond;
  guint        pending;
  gint         winner;
  guint64      nodes;      /* search nodes charged so far (deterministic) */
  guint64      work;       /* work units charged so far (deterministic) */
  gint64       deadline;   /* optional time limit; G_MAXINT64 = none */
  gboolean     time_limit_hit;
} Portfolio;

static inline gint64
units_of (guint64 size, guint64 align)
{
  return (gint64) (size / align + (size % align != 0));
}

/* Sweep order for pairwise overlaps: by section start. */
static inline int
cmp_by_slo (gconstpointer a, gconstpointer b, gpointer data)
{
  const Problem *p = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  if (p->slo[x] != p->slo[y])
    return p->slo[x] < p->slo[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static inline guint
problem_degree (const Problem *p, guint i)
{
  return p->adj_start[i + 1] - p->adj_start[i];
}

static inline gint64
arena_of (const Problem *p, const gint64 *off)
{
  gint64 top = 0;
  for (guint i = 0; i < p->m; i++)
    top = MAX (top, off[i] + p->size[i]);
  return top;
}

/* zg330-etm-problem.c */
void zg330_etm_problem_init (Problem *p, const Zg330Buffer *b, guint n, guint64 align);
void zg330_etm_problem_clear (Problem *p);

/* zg330-etm-greedy.c */
gint64 zg330_etm_greedy_place (Greedy *g, const guint *order, gboolean best_fit, gint64 *off);
void zg330_etm_order_by (const Problem *p, const char *keys, guint *order);
gint64 zg330_etm_hill_climb (Greedy *g, guint *order, gboolean best_fit, gint64 *best_off,
                             gint64 best, gint64 lb, guint64 max_iters, gint64 deadline,
                             guint64 *iters, gboolean *timed_out);

/* zg330-etm-search.c */
void zg330_etm_search_init (Search *s, const Problem *p);
void zg330_etm_search_clear (Search *s);
int zg330_etm_search_run (Search *s, const guint *order);

/* zg330-etm-portfolio.c */
void zg330_etm_portfolio_init (Portfolio *pf, const Problem *p, guint threads, gint64 deadline);
void zg330_etm_portfolio_clear (Portfolio *pf);
gint64 zg330_etm_portfolio_dive (Portfolio *pf, gint64 *off);
int zg330_etm_portfolio_fit (Portfolio *pf, gint64 cap, guint64 slice, const gint64 **sol);

G_END_DECLS
