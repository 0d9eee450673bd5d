/* zg330-sim.h — the simulated ZG330 board (mock://zg330) and the ZG330Device API.
 *
 * Memory (DESIGN.md §6):
 *   "ETM"  (default region) PL DDR: a sparse byte store over [etm_base, etm_base +
 *          etm_bytes) (4 GiB by default): 64 KiB pages are allocated on first write,
 *          untouched bytes read as zero.  Chunks are ADDR (the host cannot map them).
 *   "OCM"  on-chip memory: a flat store of ocm_bytes (from the profile) at device
 *          addresses [0, ocm_bytes).  Chunks are BOTH (device address + host pointer).
 *   "HOST" host memory (one buffer per chunk, CPTR).
 *
 * Registers: the map below (vendor header zg330_device.h).  Unknown offsets are errors.
 *
 * Execution: the vendor's instruction words are opaque, so a backend tells the board what
 * it placed: zg330_sim_bind_hardop() binds an executor to the ETM range that holds a
 * hardop's instructions.  zg330_device_icore_calc(addr, size) (or writing the run
 * registers) runs, in address order, every bound hardop whose instruction range lies in
 * [addr, addr + size), turns the work each reports into cycles with the timing model
 * (devices/zg330-timing.h), advances the layer counter, the timer and the tile counters,
 * and writes per-layer cycle stamps into the timer chunk (configTimer) as the hardware
 * does.
 *
 * Timer chunk layout (configTimer): for layer i (the value of the layer counter when the
 * layer started) ZG330_TIMER_RECORD_BYTES at offset i * ZG330_TIMER_RECORD_BYTES:
 *   guint64 LE start, guint64 LE end   (timer values, icore cycles since the last reset)
 * A hardop with layer_count k spreads its cycles evenly over its k layers (the remainder
 * goes to the last one); a hardop with layer_count 0 advances the timer but stamps
 * nothing.  Records that do not fit in the chunk are dropped (counted in the launch
 * stats); the board never writes outside the chunk.
 *
 * Profiler chunk layout (configProfiler): for layer i, ZG330_PROFILER_RECORD_BYTES at
 * offset i * ZG330_PROFILER_RECORD_BYTES, eight guint64 LE:
 *   cycles, macs, etm_read_bytes, etm_write_bytes, ocm_read_bytes, ocm_write_bytes,
 *   compute_cycles, bound (Zg330Bound)
 * (a hardop's counters split over its layers like its cycles).
 *
 * Threads: one launch runs at a time (a recursive device lock); an executor may call
 * back into the device (registers, regions) from its run callback.  Stores may be read
 * and written from any thread; page creation in ETM is serialised.
 *
 * Ownership: functions taking XrtDevice* require a device opened as mock://zg330 or
 * mock://buyi, or a board served by `zhuge-board` and opened as socket://NAME@HOST:PORT
 * (zg330_sim_is_sim() is TRUE for all three); anything else is a programming error
 * (g_return_if_fail).  On a socket:// board every call below goes over the wire
 * (devices/zg330-wire.h) and a transport failure is an XRT_ERROR_DEVICE or
 * XRT_ERROR_TIMEOUT naming the URL and the operation; calls without a GError report 0.
 * Hardops cross the wire as Zg330HardopCall data (zg330_sim_bind_hardop_call()); a run
 * callback (zg330_sim_bind_hardop()) only binds on an in-process board.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

#include "xrt/xrt-device.h"
#include "devices/zg330-timing.h"
#include "devices/zg330-hardop-call.h"

G_BEGIN_DECLS

/* Register map (byte offsets; 32-bit registers). */
#define ZG330_REG_STATE_CLEAR   0x04u     /* write: clear the state register */
#define ZG330_REG_STATE         0x08u     /* read-only: bit 1 = the last launch failed */
#define ZG330_REG_LAYER_CNT     0x0Cu     /* layers finished; writable (clear to 0) */
#define ZG330_REG_WTILE_CNT     0x10u     /* tiles written, per core column; writable */
#define ZG330_REG_RTILE_CNT     0x14u     /* tiles read, per core column; writable */
#define ZG330_REG_TIMER_CNT     0x18u     /* icore cycles, low 32 bits; writable */
#define ZG330_REG_VERSION       0x1Cu     /* read-only: the profile's fpga_version */
#define ZG330_REG_RESET         0x34u     /* write non-zero: reset level 0; reads 0 */
#define ZG330_REG_ICORE_BASE    0x40000u
#define ZG330_REG_RUN_BASE      0x40018u  /* ETM address of the instructions to run */
#define ZG330_REG_RUN_SIZE      0x40020u  /* bytes of instructions */
#define ZG330_REG_RUN_START     0x40024u  /* write non-zero: icoreCalc(base, size) */

#define ZG330_STATE_LAUNCH_FAILED 0x2u

#define ZG330_TIMER_RECORD_BYTES    16
#define ZG330_PROFILER_RECORD_BYTES 64

/* Bytes per page of the sparse ETM store. */
#define ZG330_SIM_ETM_PAGE_BYTES (64 * 1024)

/**
 * Zg330HardopExec:
 * How to execute one bound hardop.
 * @run: executes the op: reads its inputs from and writes its outputs to the device's
 *   regions (xrt_device_get_mem_region(), xrt_mem_region_read/write) and fills @work
 *   (zeroed before the call).  Returns FALSE with an error naming the op on failure; the
 *   board prefixes the instruction address.  Called with the device's launch lock held,
 *   on the thread that started the launch.
 * @merged: the bound range is a merged group (its hardops are chained by the icore):
 *   the launch then pays no host sync even if it runs only this binding.
 */
typedef struct {
  gboolean (*run) (XrtDevice   *device,
                   gpointer     user_data,
                   Zg330OpWork *work,
                   GError     **error);
  gboolean merged;
} Zg330HardopExec;

/**
 * Zg330LaunchStats:
 * What the last icoreCalc did.
 * @addr, @size: the launch range.  @n_hardops: bindings run (on failure: those started).
 * @merged: more than one binding ran, or a binding was marked merged.
 * @first_layer: the layer counter before the launch.  @layers: layers it advanced.
 * @icore_cycles: cycles on the icore timer: launch_cycles + the hardops.
 * @host_sync_cycles: the host's sync after an unmerged launch (0 if merged).
 * @icore_ms: @icore_cycles in ms (= zg330_device_calc_time()).  @host_sync_ms: likewise.
 * @work: the hardops' work summed.  @stamps_dropped: layer records that did not fit in
 * the timer (or profiler) chunk.  @failed: a hardop failed (the launch stopped there).
 * @seq: the launch's number since the device opened (1, 2, …): a backend that stopped a
 * launch at a sync point knows from it whether anything else ran on the board since.
 */
typedef struct {
  guint64     addr;
  guint64     size;
  guint       n_hardops;
  gboolean    merged;
  guint32     first_layer;
  guint32     layers;
  guint64     icore_cycles;
  guint64     host_sync_cycles;
  double      icore_ms;
  double      host_sync_ms;
  Zg330OpWork work;
  guint       stamps_dropped;
  gboolean    failed;
  guint64     seq;
} Zg330LaunchStats;

/* ---- the simulator -------------------------------------------------------- */

/**
 * zg330_sim_reserve_board_memory: (skip)
 * @etm: the board's ETM region
 * @profile: the board's profile
 *
 * Allocates, in @etm, what the board itself holds in its PL DDR before any network deploys
 * (firmware and driver rings, camera frame buffers: 76 MiB from the region's base, sizes
 * assumed) so the runtime's segments land where a board's allocator would put them. Not for
 * Buyi (its compiler placed every value at absolute addresses) nor an ETM under 1 GiB.
 * Both boards call it when they open (the simulator and the socket board's runtime side),
 * so both agree.
 *
 * Returns: the bytes reserved
 */
guint64 zg330_sim_reserve_board_memory (XrtMemRegion *etm, const Zg330Profile *profile);

/**
 * zg330_sim_open: (skip)
 * @profile: (nullable): the board's profile (copied); NULL: zg330_profile_load_default()
 * @url: (nullable): what xrt_device_get_url() reports; NULL: "mock://zg330", or
 *   "mock://buyi" for a Buyi profile
 * @error: the profile that cannot be loaded, or no host memory for its OCM
 *
 * Opens a simulated board in this process.  A profile whose chip is "Buyi" gives a Buyi
 * board (mock://buyi, type "Buyi simulated board", version "device" "buyi"): the same
 * engine, registers and timing model.  xrt_device_open("mock://zg330…") calls this.
 *
 * Returns: (transfer full): a new device, or NULL with @error set
 */
XrtDevice          *zg330_sim_open            (const Zg330Profile *profile,
                                               const char         *url,
                                               GError            **error);

/**
 * zg330_sim_is_sim: (skip)
 * @device: (nullable): a device
 *
 * Whether @device is a ZG330 board — mock://zg330, mock://buyi or socket://NAME@HOST:PORT —
 * so that the functions of this header take it.
 *
 * Returns: TRUE for a board
 */
gboolean            zg330_sim_is_sim          (XrtDevice *device);

/**
 * zg330_sim_get_profile: (skip)
 * @device: a board
 *
 * The board's profile.  The clock setters change it: do not read it while another thread
 * sets clocks; zg330_sim_dup_profile() gives a private copy.
 *
 * Returns: (transfer none): the profile, owned by the device
 */
const Zg330Profile *zg330_sim_get_profile     (XrtDevice *device);

/**
 * zg330_sim_dup_profile: (skip)
 * @device: a board
 *
 * A private copy of the board's profile, taken under the board's lock (safe while another
 * thread sets clocks).
 *
 * Returns: (transfer full): the copy (zg330_profile_free())
 */
Zg330Profile       *zg330_sim_dup_profile     (XrtDevice *device);

/**
 * zg330_sim_set_timing_field: (skip)
 * @device: a board
 * @field: the profile field, by its name in the profile's JSON
 * @value: its new value
 * @error: an unknown or structural field, a value out of range, the board unreachable
 *
 * What-if on an open board: sets a timing field of its profile (clocks, bandwidths, fixed
 * costs, tile_bytes) like zg330_profile_set_field().  Fields that size the stores or the
 * grid (etm_base, etm_bytes, ocm_bytes, mpe_rows, mpe_cols, fpga_version) fail with
 * XRT_ERROR_PROFILE: open another board with a profile that has them.
 *
 * Returns: TRUE when the field was set
 */
gboolean            zg330_sim_set_timing_field (XrtDevice  *device,
                                                const char *field,
                                                double      value,
                                                GError    **error);

/**
 * zg330_sim_bind_hardop: (skip)
 * @device: a board in this process
 * @instr_addr: the ETM address of the hardop's instructions
 * @instr_bytes: their size
 * @exec: how to run the hardop (copied)
 * @user_data: (nullable): passed to @exec's run callback
 * @destroy: (nullable): called on @user_data when the binding goes
 * @error: why it cannot bind
 *
 * Binds @exec to the instructions at ETM [@instr_addr, @instr_addr + @instr_bytes).
 * @destroy is called when the binding goes (unbind, close, device finalized) — never from
 * inside a launch that uses it.  Errors: XRT_ERROR_INVALID_ARGUMENT (0 bytes, no run
 * callback), XRT_ERROR_OUT_OF_RANGE (outside ETM), XRT_ERROR_OVERLAP (overlaps a binding;
 * its range is named), XRT_ERROR_CLOSED, XRT_ERROR_NOT_AVAILABLE on a socket:// board (a
 * run callback cannot cross to the board process: bind a call).  On error nothing is
 * taken: the caller still owns @user_data.
 *
 * Returns: TRUE when bound
 */
gboolean            zg330_sim_bind_hardop     (XrtDevice             *device,
                                               guint64                instr_addr,
                                               guint64                instr_bytes,
                                               const Zg330HardopExec *exec,
                                               gpointer               user_data,
                                               GDestroyNotify         destroy,
                                               GError               **error);

/**
 * Zg330HardopPrepareFunc:
 * Describes the bound hardop as the board is to run it now (its operands' places may change
 * between launches: the active MMU context, a caller's tensor).  Fills @call (cleared by the
 * board); FALSE with an error naming the op when it cannot.  Called at each launch that runs
 * the binding, with the device's launch lock held, before the hardops of the launch run.
 */
typedef gboolean (*Zg330HardopPrepareFunc) (XrtDevice       *device,
                                            gpointer         user_data,
                                            Zg330HardopCall *call,
                                            GError         **error);

/**
 * zg330_sim_bind_hardop_call: (skip)
 * @device: a board
 * @instr_addr: the ETM address of the hardop's instructions
 * @instr_bytes: their size
 * @merged: as in Zg330HardopExec
 * @prepare: describes the hardop at each launch
 * @user_data: (nullable): passed to @prepare
 * @destroy: (nullable): called on @user_data when the binding goes
 * @error: why it cannot bind
 *
 * Binds the instructions at ETM [@instr_addr, @instr_addr + @instr_bytes) to the hardop
 * @prepare describes; a launch runs it with zg330_hardop_call_run() on the board — in this
 * process for mock://, in the board process for socket://.  Ownership and errors as
 * zg330_sim_bind_hardop().
 *
 * Returns: TRUE when bound
 */
gboolean            zg330_sim_bind_hardop_call (XrtDevice             *device,
                                                guint64                instr_addr,
                                                guint64                instr_bytes,
                                                gboolean               merged,
                                                Zg330HardopPrepareFunc prepare,
                                                gpointer               user_data,
                                                GDestroyNotify         destroy,
                                                GError               **error);

/**
 * zg330_sim_unbind_range: (skip)
 * @device: a board
 * @addr: the first ETM address
 * @size: bytes from @addr (0: nothing)
 *
 * Removes every binding that overlaps [@addr, @addr + @size); their destroy notifies run
 * before this returns.
 *
 * Returns: how many bindings went
 */
guint               zg330_sim_unbind_range    (XrtDevice *device,
                                               guint64    addr,
                                               guint64    size);

/**
 * zg330_sim_get_n_bindings: (skip)
 * @device: a board
 *
 * The hardops bound on the board now.
 *
 * Returns: their number
 */
guint               zg330_sim_get_n_bindings  (XrtDevice *device);

/**
 * zg330_sim_get_last_launch: (skip)
 * @device: a board
 * @stats: (out caller-allocates): the last launch's statistics
 *
 * Fills @stats with the last launch's statistics; zeroes them when nothing ran since the
 * board opened or since its last reset of level >= 1.
 *
 * Returns: TRUE when a launch ran
 */
gboolean            zg330_sim_get_last_launch (XrtDevice        *device,
                                               Zg330LaunchStats *stats);

/**
 * zg330_sim_set_cancellable: (skip)
 * @device: a board in this process
 * @cancellable: (nullable): stops the launches; NULL: none
 *
 * Lets @cancellable stop the launches of an in-process board: a launch checks it before
 * each hardop and, once it is cancelled, stops there as a failed launch (XRT_ERROR_EXEC,
 * "cancelled after N of M hardops").  `zhuge-board` cancels the launch of a client that
 * left.  The device keeps a reference.
 */
void                zg330_sim_set_cancellable (XrtDevice    *device,
                                               GCancellable *cancellable);

/**
 * zg330_sim_get_etm_pages: (skip)
 * @device: a board
 *
 * The ETM pages (ZG330_SIM_ETM_PAGE_BYTES each) the board's store has allocated: those a
 * write touched.  0 when a socket:// board cannot be reached.
 *
 * Returns: the number of pages
 */
guint               zg330_sim_get_etm_pages   (XrtDevice *device);

/* ---- ZG330Device API (vendor names) ------------------------------------------ */

/**
 * zg330_device_get_rows_cols:
 * @device: a board
 * @rows: (out) (optional): the MPE rows
 * @cols: (out) (optional): the MPE columns (cores are addressed by column, cid)
 *
 * getRowsCols: the board's MPE grid.
 */
void      zg330_device_get_rows_cols    (XrtDevice *device,
                                         guint     *rows,
                                         guint     *cols);

/**
 * zg330_device_read_reg:
 * @device: a board
 * @cid: the core's column (< cols)
 * @rid: the core's row (< rows)
 * @offset: the register's byte offset (4-byte aligned; ZG330_REG_*)
 * @value: (out): the register's value
 * @error: a core outside the grid or an unaligned offset (XRT_ERROR_INVALID_ARGUMENT), no
 *   register there (XRT_ERROR_REGISTER), a closed device
 *
 * readReg(cid, rid, offset): a register of core (cid, rid).  The tile counters are per core
 * column (cid); every other register is shared by the array.  Same map and errors as
 * xrt_device_read_reg(), which addresses the master core's.
 *
 * Returns: TRUE when @value was read
 */
gboolean  zg330_device_read_reg         (XrtDevice *device,
                                         guint      cid,
                                         guint      rid,
                                         guint32    offset,
                                         guint32   *value,
                                         GError   **error);

/**
 * zg330_device_write_reg:
 * @device: a board
 * @cid: the core's column (< cols)
 * @rid: the core's row (< rows)
 * @offset: the register's byte offset (4-byte aligned; ZG330_REG_*)
 * @value: the value to write
 * @error: as zg330_device_read_reg(), and a read-only register (XRT_ERROR_REGISTER) or the
 *   launch that writing ZG330_REG_RUN_START starts
 *
 * writeReg(cid, rid, offset, value): writes a register of core (cid, rid), as
 * zg330_device_read_reg() addresses them.  Writing ZG330_REG_RUN_START launches what
 * ZG330_REG_RUN_BASE and ZG330_REG_RUN_SIZE describe (zg330_device_icore_calc()).
 *
 * Returns: TRUE when written
 */
gboolean  zg330_device_write_reg        (XrtDevice *device,
                                         guint      cid,
                                         guint      rid,
                                         guint32    offset,
                                         guint32    value,
                                         GError   **error);

/**
 * zg330_device_icore_calc:
 * @device: a board
 * @addr: the ETM address of the first instruction to run
 * @size: bytes of instructions
 * @error: why the launch did not run or stopped
 *
 * icoreCalc(addr, size): runs the hardops bound in [@addr, @addr + @size) in address order
 * (see above).  Errors: XRT_ERROR_INVALID_ARGUMENT (size 0), XRT_ERROR_UNBOUND (nothing
 * bound there; the message names the range), XRT_ERROR_OVERLAP (a binding straddles the
 * range's edge), XRT_ERROR_CLOSED, or the failing executor's own error (XRT_ERROR_EXEC when
 * it gave none) prefixed with the hardop's instruction address; the launch stops at that
 * hardop and the state register's failure bit is set.
 *
 * Returns: TRUE when every hardop ran
 */
gboolean  zg330_device_icore_calc       (XrtDevice *device,
                                         guint64    addr,
                                         guint64    size,
                                         GError   **error);

/**
 * zg330_device_layer_count:
 * @device: a board
 *
 * layerCount: the layers finished since the counter was last cleared.
 *
 * Returns: the layer counter (0 when a socket:// board cannot be read)
 */
guint32   zg330_device_layer_count      (XrtDevice *device);

/**
 * zg330_device_w_tile_count:
 * @device: a board
 * @cid: a core column
 *
 * wTileCount(cid): the tiles core column @cid has written.
 *
 * Returns: the counter (0 for @cid out of range)
 */
guint32   zg330_device_w_tile_count     (XrtDevice *device, guint cid);

/**
 * zg330_device_r_tile_count:
 * @device: a board
 * @cid: a core column
 *
 * rTileCount(cid): the tiles core column @cid has read.
 *
 * Returns: the counter (0 for @cid out of range)
 */
guint32   zg330_device_r_tile_count     (XrtDevice *device, guint cid);

/**
 * zg330_device_calc_time:
 * @device: a board
 *
 * calcTime: the last launch's icore time.
 *
 * Returns: the time in ms (0 before any launch)
 */
double    zg330_device_calc_time        (XrtDevice *device);

/**
 * zg330_device_config_timer:
 * @device: a board
 * @chunk: (nullable): a chunk of this device's ETM; NULL stops recording
 * @error: a chunk on another region (XRT_ERROR_WRONG_REGION), a freed chunk, a closed device
 *
 * configTimer: the ETM chunk the board writes a per-layer timer record to (the layout
 * above).  The device keeps a reference.
 *
 * Returns: TRUE when set
 */
gboolean  zg330_device_config_timer     (XrtDevice   *device,
                                         XrtMemChunk *chunk,
                                         GError     **error);

/**
 * zg330_device_config_profiler:
 * @device: a board
 * @chunk: (nullable): a chunk of this device's ETM; NULL stops recording
 * @error: as zg330_device_config_timer()
 *
 * configProfiler: the ETM chunk the board writes a per-layer profiler record to (the layout
 * above).  The device keeps a reference.
 *
 * Returns: TRUE when set
 */
gboolean  zg330_device_config_profiler  (XrtDevice   *device,
                                         XrtMemChunk *chunk,
                                         GError     **error);

/**
 * zg330_device_set_master_cid:
 * @device: a board
 * @master_cid: a core column (< cols)
 * @error: a column outside the grid (XRT_ERROR_INVALID_ARGUMENT)
 *
 * setMasterCID: the core column whose tile counters the launches advance (default 1, as the
 * vendor's).
 *
 * Returns: TRUE when set
 */
gboolean  zg330_device_set_master_cid   (XrtDevice *device,
                                         guint      master_cid,
                                         GError   **error);

/**
 * zg330_device_get_master_cid:
 * @device: a board
 *
 * The core column whose tile counters the launches advance (zg330_device_set_master_cid()).
 *
 * Returns: the master core's column
 */
guint     zg330_device_get_master_cid   (XrtDevice *device);

/**
 * zg330_device_set_icore_clk_freq:
 * @device: a board
 * @freq_hz: the icore clock in Hz
 * @error: as zg330_sim_set_timing_field()
 *
 * setIcoreClkFreq: a what-if on the timing (see zg330_profile_set_field() for how it
 * rescales throughput).
 *
 * Returns: TRUE when set
 */
gboolean  zg330_device_set_icore_clk_freq (XrtDevice *device,
                                           guint64    freq_hz,
                                           GError   **error);

/**
 * zg330_device_set_ddr_clk_freq:
 * @device: a board
 * @freq_hz: the DDR clock in Hz
 * @error: as zg330_sim_set_timing_field()
 *
 * setDDRClkFreq: a what-if on the timing (see zg330_profile_set_field() for how it rescales
 * bandwidth).
 *
 * Returns: TRUE when set
 */
gboolean  zg330_device_set_ddr_clk_freq   (XrtDevice *device,
                                           guint64    freq_hz,
                                           GError   **error);

/**
 * zg330_device_get_layer_time:
 * @device: a board
 * @n_layers: layers [0, n_layers) to read
 * @error: no timer chunk (XRT_ERROR_INVALID_ARGUMENT), @n_layers records that do not fit in
 *   it (XRT_ERROR_OUT_OF_RANGE)
 *
 * getLayerTime(n): per-layer times read back from the timer chunk (end - start at the
 * current icore clock).
 *
 * Returns: (transfer full) (element-type gdouble): the times in ms, or NULL with @error set
 */
GArray   *zg330_device_get_layer_time   (XrtDevice *device,
                                         guint      n_layers,
                                         GError   **error);

/**
 * zg330_device_show_layer_time: (skip)
 * @device: a board
 * @from_idx: the first layer
 * @count: how many layers
 * @out: where the lines go
 * @error: as zg330_device_get_layer_time()
 *
 * showLayerTime(from, count): appends one line per layer (start, end, cycles, ms) to @out.
 *
 * Returns: TRUE when the lines were appended
 */
gboolean  zg330_device_show_layer_time  (XrtDevice *device,
                                         guint      from_idx,
                                         guint      count,
                                         GString   *out,
                                         GError   **error);

G_END_DECLS
