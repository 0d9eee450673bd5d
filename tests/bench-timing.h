/* bench-timing.h — the one way the load/plan benchmarks time a section (bench-xir,
 * bench-scale), so that their common figure (load / bare cJSON parse of the same bytes)
 * means the same thing in both:
 *  - every timed section ends with the allocator's deferred work done (settle), so no
 *    section pays for the frees of the one before it;
 *  - every figure is the median of several runs, printed with its spread (min-max);
 *  - a ratio's verdict is given with the spread of the ratio (its worst and best pairing of
 *    the two sides' runs), and called "not settled" when that spread straddles the goal. */
#pragma once

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define ZW_BENCH_MAX_RUNS 9

static inline double
zw_bench_now_ms (void)
{
  return g_get_monotonic_time () / 1e3;
}

/* glibc keeps freed small blocks in fast bins and consolidates them at the next large
 * request, whoever makes it: a cJSON tree of 10,000 ops is millions of blocks, so without
 * this the section after a parse+free paid for that free's consolidation (most of its
 * cost).  mallinfo2() consolidates without returning memory. */
static inline void
zw_bench_settle_allocator (void)
{
#ifdef __GLIBC__
  (void) mallinfo2 ();
#endif
}

/* Runs of one section: the median and the spread. */
typedef struct {
  double v[ZW_BENCH_MAX_RUNS];
  guint n;
  double median, min, max;
} ZwBenchSample;

static inline int
zw_bench_cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static inline void
zw_bench_add (ZwBenchSample *s, double v)
{
  g_assert (s->n < ZW_BENCH_MAX_RUNS);
  s->v[s->n++] = v;
  double sorted[ZW_BENCH_MAX_RUNS];
  for (guint i = 0; i < s->n; i++)
    sorted[i] = s->v[i];
  qsort (sorted, s->n, sizeof (double), zw_bench_cmp_double);
  s->median = sorted[s->n / 2];
  s->min = sorted[0];
  s->max = sorted[s->n - 1];
}

/* "median ms [min-max]" */
static inline void
zw_bench_print_ms (const char *label, const ZwBenchSample *s)
{
  printf ("  %-32s %9.1f ms  [%.1f-%.1f, %u runs]\n", label, s->median, s->min, s->max, s->n);
}

/* The ratio @a / @b of two samples: the medians' ratio and its spread (worst and best
 * pairing of runs); the verdict against @goal (lower is better) holds only when the whole
 * spread is on one side of it. */
static inline void
zw_bench_print_ratio (const char *label, const ZwBenchSample *a, const ZwBenchSample *b, double goal)
{
  double r = a->median / b->median, lo = a->min / b->max, hi = a->max / b->min;
  const char *verdict = hi <= goal ? "ok" : lo > goal ? "MISSED" : r <= goal ? "ok, not settled" : "MISSED, not settled";
  if (goal > 0)
    printf ("  %-32s %9.2f   [%.2f-%.2f]  (goal <= %.1f: %s)\n", label, r, lo, hi, goal, verdict);
  else
    printf ("  %-32s %9.2f   [%.2f-%.2f]\n", label, r, lo, hi);
}
