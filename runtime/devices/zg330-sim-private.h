/* zg330-sim-private.h — the simulated board (mock://zg330, mock://buyi), private to its two
 * files: zg330-sim-board.c (the board: registers, status, the device class, opening) and
 * zg330-sim-launch.c (the launch engine: runs the bound hardops, turns their work into
 * cycles, counters and the per-layer timer and profiler records).  The state both boards
 * keep (profile, bindings, chunks, master core, last launch) is the base's
 * (zg330-board-private.h); the board lock guards what follows too. */
#pragma once

#include "devices/zg330-board-private.h"
#include "devices/zg330-sim-store.h"

G_BEGIN_DECLS

typedef struct {
  Zg330Board        base;          /* first: the class and the state both boards keep */
  XrtMemRegion     *ocm;           /* borrowed: the device holds the regions */
  EtmStore         *etm_store;     /* owned by the ETM region */
  OcmStore         *ocm_store;     /* owned by the OCM region */

  /* registers */
  guint32           layer_count;
  guint64           timer;         /* the 0x18 register shows the low 32 bits */
  guint32          *wtiles;        /* per column */
  guint32          *rtiles;
  guint32           state;
  guint32           run_base;
  guint32           run_size;

  GCancellable     *cancellable;   /* stops a launch between hardops (the board's client left), or NULL */
  guint64           n_launches;    /* launches run since open (Zg330LaunchStats.seq) */
} Zg330Sim;

/* The board class's launch (zg330-board-private.h), with the board lock held: runs @run in
 * order, advances the registers, writes the layer records. */
gboolean zg330_sim_launch (XrtDevice *device, guint64 addr, guint64 size, GPtrArray *run,
                           Zg330LaunchStats *stats, gboolean *ran, GError **error);

G_END_DECLS
