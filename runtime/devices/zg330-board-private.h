/* zg330-board-private.h — the board type behind the ZG330Device API (devices/zg330-sim.h),
 * private to devices/.
 *
 * A board is an XrtDevice whose implementation begins with a Zg330Board: its class (a table
 * of what differs between the two boards) and the state both keep alike.  The base holds
 * the public API and that state: zg330-board.c the profile, the timer and profiler chunks,
 * the master core, the last launch, the register and layer-time calls;
 * zg330-board-bindings.c the hardop bindings and the launches that run them.  It checks what
 * both boards check the same way (closed device, the core grid, register alignment, the
 * profile's structural fields, a binding's range, a launch's range) and dispatches the rest
 * here.  One file per implementation: zg330-sim-board.c (the simulator, in this process:
 * mock://zg330, mock://buyi; its launch engine in zg330-sim-launch.c) and
 * zg330-socket-board.c (a board in a `zhuge-board` process: socket://NAME@HOST:PORT).
 * Neither includes the other.
 *
 * A method may assume its device is open where the base says so; errors name the device's
 * URL as the public API documents. */
#pragma once

#include "devices/zg330-sim.h"

G_BEGIN_DECLS

typedef struct _Zg330BoardClass Zg330BoardClass;

/* A hardop bound to the ETM range [addr, addr + bytes): a run callback (@prepare NULL) or a
 * call (@prepare set; @exec.run then only reports that a call ran as a callback). */
typedef struct {
  gint                   ref_count;
  guint64                addr;
  guint64                bytes;
  Zg330HardopExec        exec;
  Zg330HardopPrepareFunc prepare;
  gpointer               user_data;
  GDestroyNotify         destroy;
  GBytes                *sent;      /* the socket board: the call its board holds, or NULL */
} Zg330Binding;

/* The first member of every board implementation (xrt_device_get_impl()). */
typedef struct {
  const Zg330BoardClass *klass;
  GRecMutex              lock;           /* what follows, and what an implementation says it guards */
  Zg330Profile          *profile;        /* owned; structural fields never change */
  XrtMemRegion          *etm;            /* borrowed: the device holds the regions */
  GPtrArray             *bindings;       /* Zg330Binding, sorted by addr, disjoint */
  XrtMemChunk           *timer_chunk;    /* configTimer, or NULL */
  XrtMemChunk           *profiler_chunk; /* configProfiler, or NULL */
  guint                  master_cid;
  gboolean               have_launch;
  Zg330LaunchStats       last;
} Zg330Board;

struct _Zg330BoardClass {
  const char *name;              /* "simulator", "socket" */
  /* why a run callback cannot bind here (zg330_sim_bind_hardop()), or NULL when it can */
  const char *exec_refusal;
  /* TRUE: the base releases the board lock while the launch runs (it waits on a wire);
   * FALSE: one launch at a time, under the lock (an executor may call back) */
  gboolean    launch_unlocked;

  /* nullable: the board hears of a timing field, a timer/profiler chunk, a master core
   * before the base keeps it (the base checked the field, the chunk, the core) */
  gboolean (*set_timing_field) (XrtDevice *device, const char *field, double value, GError **error);
  gboolean (*config_chunk)     (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk, GError **error);
  gboolean (*set_master_cid)   (XrtDevice *device, guint cid, GError **error);
  /* runs @run (the Zg330Binding of [addr, addr + size) in address order, at least one) and
   * fills @stats (zeroed); *@ran TRUE when @stats say what the launch did (the base keeps
   * them as the last launch) */
  gboolean (*launch)           (XrtDevice *device, guint64 addr, guint64 size, GPtrArray *run,
                                Zg330LaunchStats *stats, gboolean *ran, GError **error);
  guint    (*get_etm_pages)    (XrtDevice *device);
  /* a register of core (cid, rid): the base checked the device is open, the core is in the
   * grid and the offset aligned */
  gboolean (*read_reg)         (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 *value,
                                GError **error);
  gboolean (*write_reg)        (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 value,
                                GError **error);
  /* a counter (layer count: @cid G_MAXUINT, the master core's; tiles: @cid in the grid) */
  guint32  (*counter)          (XrtDevice *device, guint cid, guint32 offset);
  /* nullable: a board that cannot cancel its launches */
  void     (*set_cancellable)  (XrtDevice *device, GCancellable *cancellable);
};

/* Makes devices of @device_class boards (their implementation begins with a Zg330Board);
 * called once per class, from the implementation's constructor. */
void                   zg330_board_register_class (const XrtDeviceClass *device_class);

/* The board class of @device, or NULL when it is not a board. */
const Zg330BoardClass *zg330_board_get_class      (XrtDevice *device);

/* The error of a closed device ("device URL was closed"); FALSE then. */
gboolean               zg330_board_check_open     (XrtDevice *device, GError **error);

/* The board state of @device (a board: its implementation begins with a Zg330Board). */
static inline Zg330Board *
zg330_board_of (XrtDevice *device)
{
  return xrt_device_get_impl (device);
}

/* The state of a board (before the device exists): @profile is taken; the master core is
 * column 1 where there is one. */
void                   zg330_board_init           (Zg330Board *board, const Zg330BoardClass *klass,
                                                   Zg330Profile *profile);

/* Adds @etm (the default region), @ocm and a host region to @device, after the board's own
 * buffers are reserved in @etm (zg330_sim_reserve_board_memory()); the board borrows @etm. */
void                   zg330_board_add_regions    (XrtDevice *device, XrtMemRegion *etm, XrtMemRegion *ocm);

/* Drops the bindings and the timer/profiler chunks (the device closes); destroy notifies
 * run outside the lock. */
void                   zg330_board_release        (Zg330Board *board);

/* Releases and frees the state zg330_board_init() made (not @board itself). */
void                   zg330_board_clear          (Zg330Board *board);

/* Forgets the last launch (a reset of level 1 or more). */
void                   zg330_board_forget_launch  (Zg330Board *board);

/* The bindings and launches (zg330-board-bindings.c): --------------------------------- */

/* Drops a reference to a Zg330Binding (the free function of the bindings' arrays). */
void                   zg330_binding_unref        (gpointer binding);

/* icoreCalc(@addr, @size): checks the device, takes an injected fault, selects the bound
 * hardops of the range and runs them with the class's launch (the start register does the
 * same). */
gboolean               zg330_board_icore_calc     (XrtDevice *device, guint64 addr, guint64 size, GError **error);

/* With the board lock held: FALSE + error when the bindings are out of order or overlap. */
gboolean               zg330_board_check_bindings (XrtDevice *device, Zg330Board *board, GError **error);

G_END_DECLS
