/* zg330-board-private.h — the board type behind the ZG330Device API (devices/zg330-sim.h),
 * private to devices/.
 *
 * A board is an XrtDevice whose implementation begins with a Zg330Board: its class, a table
 * of what differs between the two boards.  zg330-board.c is the base: it holds the public
 * API, checks what both boards check the same way (closed device, the core grid, register
 * alignment, the profile's structural fields), reads the timer records back and dispatches
 * the rest here.  One file per implementation: zg330-sim-board.c (the simulator, in this
 * process: mock://zg330, mock://buyi) and zg330-socket-board.c (a board in a `zhuge-board`
 * process: socket://NAME@HOST:PORT).  Neither includes the other.
 *
 * A method may assume its device is open where the base says so; errors name the device's
 * URL as the public API documents. */
#pragma once

#include "devices/zg330-sim.h"

G_BEGIN_DECLS

typedef struct _Zg330BoardClass Zg330BoardClass;

/* The first member of every board implementation (xrt_device_get_impl()). */
typedef struct {
  const Zg330BoardClass *klass;
} Zg330Board;

struct _Zg330BoardClass {
  const char *name;    /* "simulator", "socket" */
  /* the profile (borrowed) and a private copy */
  const Zg330Profile *(*get_profile)      (XrtDevice *device);
  Zg330Profile       *(*dup_profile)      (XrtDevice *device);
  /* a timing field (the base refused the structural ones) */
  gboolean            (*set_timing_field) (XrtDevice *device, const char *field, double value, GError **error);
  /* bindings: a run callback, a call; the ranges */
  gboolean            (*bind_exec)        (XrtDevice *device, guint64 addr, guint64 bytes, const Zg330HardopExec *exec,
                                           gpointer user_data, GDestroyNotify destroy, GError **error);
  gboolean            (*bind_call)        (XrtDevice *device, guint64 addr, guint64 bytes, gboolean merged,
                                           Zg330HardopPrepareFunc prepare, gpointer user_data, GDestroyNotify destroy,
                                           GError **error);
  guint               (*unbind_range)     (XrtDevice *device, guint64 addr, guint64 size);
  guint               (*get_n_bindings)   (XrtDevice *device);
  /* the last launch (zeroed and FALSE when none) */
  gboolean            (*get_last_launch)  (XrtDevice *device, Zg330LaunchStats *stats);
  guint               (*get_etm_pages)    (XrtDevice *device);
  /* a register of core (cid, rid): the base checked the device is open, the core is in the
   * grid and the offset aligned */
  gboolean            (*read_reg)         (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 *value,
                                           GError **error);
  gboolean            (*write_reg)        (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 value,
                                           GError **error);
  /* a counter (layer count: @cid G_MAXUINT, the master core's; tiles: @cid in the grid) */
  guint32             (*counter)          (XrtDevice *device, guint cid, guint32 offset);
  gboolean            (*icore_calc)       (XrtDevice *device, guint64 addr, guint64 size, GError **error);
  gboolean            (*config_chunk)     (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk, GError **error);
  /* a new reference to the timer chunk, or NULL */
  XrtMemChunk        *(*dup_timer_chunk)  (XrtDevice *device);
  gboolean            (*set_master_cid)   (XrtDevice *device, guint cid, GError **error);
  guint               (*get_master_cid)   (XrtDevice *device);
  /* nullable: a board that cannot cancel its launches */
  void                (*set_cancellable)  (XrtDevice *device, GCancellable *cancellable);
};

/* Makes devices of @device_class boards (their implementation begins with a Zg330Board);
 * called once per class, from the implementation's constructor. */
void                   zg330_board_register_class (const XrtDeviceClass *device_class);

/* The board class of @device, or NULL when it is not a board. */
const Zg330BoardClass *zg330_board_get_class      (XrtDevice *device);

/* The error of a closed device ("device URL was closed"); FALSE then. */
gboolean               zg330_board_check_open     (XrtDevice *device, GError **error);

G_END_DECLS
