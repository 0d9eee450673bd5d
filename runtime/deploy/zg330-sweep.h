/* zg330-sweep.h — runs a sweep (report/zw-sweep.h): one ZG330 network deployed
 * (deploy/xrt-deployment.h) with every option combination (merge x ETM optimize x OCM option) at every point of a what-if
 * grid of device figures, each row on its own simulated board, one forward each with
 * seeded inputs, its plan checked by the independent checker (zw-deploy-check.h).
 *
 * Rows run in a GThreadPool.  Each row's plan and simulated profile depend on its inputs
 * only (plans are bounded by work, the simulated time comes from the device profile), and
 * every row lands at its own index, so the sweep is the same at any thread count and load.
 */
#pragma once

#include <gio/gio.h>

#include "deploy/xrt-deployment.h"
#include "report/zw-sweep.h"
#include "xir/xir-network.h"

G_BEGIN_DECLS

/* A board profile (devices/zg330-timing.h): only zg330_sweep_profile_for_point takes one,
 * so the workbench, which reads the sweep through this header, sees no device internals. */
typedef struct _Zg330Profile Zg330Profile;

/* The seed of the inputs of every row's forward (input k: the seed + k) unless
 * Zg330SweepOptions.input_seed names another. */
#define ZG330_SWEEP_INPUT_SEED 330

/* One what-if axis ("ocm", "icore"): its values, in the order given. */
typedef struct {
  char    *name;       /* "ocm" or "icore" */
  GArray  *values;     /* double: bytes for ocm, Hz for icore */
  GPtrArray *labels;   /* char*: the values as the user wrote them ("512K", "1G") */
} Zg330SweepAxis;

/* zg330_sweep_parse_what_if:
 * Parses one `--what-if NAME=V1,V2,…` argument into @axes (an array of Zg330SweepAxis;
 * create it with zg330_sweep_axes_new()).  NAME is "ocm" (bytes, with K, M or G = 1024^n)
 * or "icore" (Hz, with K, M or G = 1000^n).  A name given twice is an error.  FALSE with
 * G_OPTION_ERROR_BAD_VALUE naming the argument and what is wrong. */
GArray  *zg330_sweep_axes_new      (void);
gboolean zg330_sweep_parse_what_if (GArray *axes, const char *text, GError **error);

typedef struct {
  GArray  *axes;          /* Zg330SweepAxis, may be NULL or empty: the profile as it is */
  guint    n_threads;     /* 0: ZW_SWEEP_THREADS, else the processors */
  gboolean keep_reports;  /* keep each row's deploy report (ZwSweepRow.report) */
  guint32  input_seed;    /* the forward's inputs (0: ZG330_SWEEP_INPUT_SEED) */
  XrtDevice *board;       /* NULL, or an open board to sweep on (a zhuge-board the caller keeps,
                           * see deploy/xrt-board-link.h): its rows deployed on it one after
                           * another, its profile as it is (what-if axes are refused) */
} Zg330SweepOptions;

/* zg330_sweep_run:
 * @net: a network with params (for a forward), compiled for the ZG330
 * @device_url: (nullable): the board whose profile the grid varies (default mock://zg330)
 * Runs every row and computes the front.  A row that fails (a plan that does not fit the
 * what-if OCM, say) carries its error and stays off the front; the call fails only when
 * the network or the grid is unusable (G_IO_ERROR_INVALID_ARGUMENT or the device's error). */
ZwSweep *zg330_sweep_run (XirNetwork              *net,
                          const char              *device_url,
                          const Zg330SweepOptions *options,
                          GError                 **error);

/* Called from the pool's threads when a row is done (@done of @total rows, in any order). */
typedef void (*Zg330SweepProgress) (guint done, guint total, gpointer user_data);

/* zg330_sweep_run_full:
 * zg330_sweep_run() with a @cancellable (nullable) and a @progress callback (nullable, with
 * @progress_data).  Cancelling skips the rows not started yet (a row that runs finishes: an
 * apply cannot be interrupted) and fails with G_IO_ERROR_CANCELLED.  The workbench runs its
 * sweeps with it in a worker thread. */
ZwSweep *zg330_sweep_run_full (XirNetwork              *net,
                               const char              *device_url,
                               const Zg330SweepOptions *options,
                               GCancellable            *cancellable,
                               Zg330SweepProgress       progress,
                               gpointer                 progress_data,
                               GError                 **error);

/* zg330_sweep_profile_for_point:
 * The board profile of one what-if point as a sweep writes it (ZwSweepRow.what_if,
 * "ocm=512K,icore=800M"; "" or NULL: @base as it is): a copy of @base with the point's
 * figures set.  The sweep builds each point's board with it, so a row can be deployed again
 * on the same figures (the workbench does when a row is opened).  NULL with
 * G_OPTION_ERROR_BAD_VALUE naming the point and what is wrong. */
Zg330Profile *zg330_sweep_profile_for_point (const Zg330Profile *base, const char *what_if, GError **error);

/* zg330_sweep_figures_for_point:
 * The figures of zg330_sweep_profile_for_point() for a board whose figures are @base (the
 * workbench holds figures, not profiles): @figures gets the point's OCM size and icore
 * clock, the rest is @base's.  FALSE with G_OPTION_ERROR_BAD_VALUE as there. */
gboolean zg330_sweep_figures_for_point (const XrtBoardFigures *base, const char *what_if, XrtBoardFigures *figures,
                                        GError **error);

G_END_DECLS
