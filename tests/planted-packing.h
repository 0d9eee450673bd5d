/* planted-packing.h — generated ETM planner instances with a known perfect packing, shared
 * by test-planner.c and bench-planner.c (issue 33). */
#pragma once

#include "backends/zg330/zg330-etm-plan.h"

G_BEGIN_DECLS

/* The capacity x time rectangle [0, @cap) x [0, @horizon) cut by guillotine cuts (a random
 * piece cut in time or in bytes, at a multiple of 512) into @n buffers (fewer when no piece
 * can be cut further), ids 0.., shuffled.  Every moment is tiled exactly, so the lower bound
 * is @cap and the planted offsets (not written: every offset is 0) reach it.
 * Returns: (transfer full): a GArray of Zg330Buffer. */
GArray *zw_planted_packing (GRand *rng, guint n, guint64 cap, gint64 horizon);

/* The n-th instance of a seeded series (@seed, rounds 0, 1, ...): n drawn in [100, 500],
 * then the packing, both from one GRand, as the planner test has drawn them. */
typedef struct {
  GRand *rng;
} ZwPlantedSeries;

void    zw_planted_series_init (ZwPlantedSeries *s, guint32 seed);
GArray *zw_planted_series_next (ZwPlantedSeries *s, guint64 cap);
void    zw_planted_series_clear (ZwPlantedSeries *s);

/* Fisher-Yates with @rng. */
void zw_buffers_shuffle (GRand *rng, Zg330Buffer *b, guint n);

G_END_DECLS
