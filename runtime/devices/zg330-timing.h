/* zg330-timing.h — the ZG330 device profile and the timing model of the simulated board.
 *
 * A device profile (data/devices/zg330.json) holds the figures the model needs: clocks,
 * int8 throughput, ETM and OCM size and bandwidth, the MPE grid and the fixed costs.  Its
 * "_doc" object explains every field and its "assumptions" list says which figures are
 * not public and were assumed.  Editing a profile (or calling the setters below) is a
 * what-if: "what if the OCM were 4 MiB", "what if the DDR ran at 1066 MHz".
 *
 * The model (pure functions, no state):
 *
 *   compute = ceil(MACs / macs_per_cycle)           macs_per_cycle = int8_tops·1e12 / 2 / clock
 *   etm     = ceil(ETM bytes · clock / etm_bandwidth)
 *   ocm     = ceil(OCM bytes · clock / ocm_bandwidth)
 *   hardop  = max(compute, etm, ocm) + hardop_fixed_cycles
 *   launch  = launch_cycles (icore start-up, on the icore timer)
 *             + host_sync (host_sync_us at the icore clock) unless the launch is merged
 *   ETM copy = ceil(2 · bytes · clock / etm_bandwidth)   (read and write: a staged connection)
 *
 * The OCM planner uses the same functions as its estimator, so the simulated board and the
 * planner never disagree about what a placement costs.
 *
 * Errors: XRT_ERROR_PROFILE (xrt/xrt-mem.h); messages name the file and the field.
 */
#pragma once

#include <glib.h>

#include "xrt/xrt-mem.h"

G_BEGIN_DECLS

/**
 * Zg330Profile:
 * A device profile.  Read the fields freely; change them only through the setters, which
 * validate and keep the derived fields consistent.
 * @name: profile name ("zg330", "buyi").  @source: the file it came from, or "built-in".
 * @chip: the chip the simulated board carries ("ZG330", "Buyi"): the device's name in its
 *   version ("device": the chip in lower case) and status.  Optional in a profile file
 *   (default "ZG330", so profiles written before the field existed still load).
 * @icore_clock_hz: icore clock.  @ddr_clock_hz: DDR I/O clock (DDR3-1600: 800 MHz).
 * @int8_tops: int8 throughput at @icore_clock_hz (1 MAC = 2 ops).
 * @macs_per_cycle: derived: int8_tops·1e12 / 2 / icore_clock_hz (the MPE array's width;
 *   changing the clock keeps it and rescales @int8_tops).
 * @etm_bandwidth: ETM (PL DDR) bytes per second at @ddr_clock_hz (changing the DDR clock
 *   rescales it).
 * @etm_base, @etm_bytes: ETM address range (within 32 bits: the run-base register is).
 * @ocm_bytes: OCM size.  @ocm_bandwidth: OCM bytes per second.
 * @mpe_rows, @mpe_cols: MPE grid (getRowsCols; core ids cid < mpe_cols, rid < mpe_rows).
 * @hardop_fixed_cycles: fixed cost of every hardop (instruction fetch, pipeline fill).
 * @launch_cycles: icore start-up per icoreCalc launch.
 * @host_sync_us: the host's wait-and-restart round trip after an unmerged launch.
 * @tile_bytes: bytes per tile for the read/write tile counters when a hardop does not
 *   report its tiles.
 * @fpga_version: value of the version register (0x1C).
 * @host_cpu_cores, @host_cpu_clock_hz: the board's host CPU (the ARM application processor
 *   that runs the HostBackend's ops), for the host-op cost model (backends/host/host-cost.h).
 * @host_op_fixed_us: what every host op costs on top of its work (dispatch, allocation).
 * @host_copy_bytes_per_cycle: memcpy throughput of one host core (Input, Output, reading
 *   DetPostZG's boxes back).
 * @host_cast_bytes_per_cycle: Cast throughput (input + output bytes) of one host core.
 * @host_resize_nearest_cycles_per_element, @host_resize_bilinear_cycles_per_element:
 *   Resize cost per output element on one host core.
 * @detpost_clock_hz: clock of the DetPostZG post-processing IP.
 * @detpost_fixed_cycles: the IP's start-up per call.  @detpost_cycles_per_anchor: per
 *   anchor candidate (cell x anchor) it compares.  @detpost_cycles_per_box: per box record
 *   it writes.
 * @assumptions: strings: which figures are assumed and why.
 */
typedef struct _Zg330Profile {
  gchar     *name;
  gchar     *source;
  gchar     *chip;
  double     icore_clock_hz;
  double     ddr_clock_hz;
  double     int8_tops;
  double     macs_per_cycle;
  double     etm_bandwidth;
  guint64    etm_base;
  guint64    etm_bytes;
  guint64    ocm_bytes;
  double     ocm_bandwidth;
  guint      mpe_rows;
  guint      mpe_cols;
  guint64    hardop_fixed_cycles;
  guint64    launch_cycles;
  double     host_sync_us;
  guint64    tile_bytes;
  guint32    fpga_version;
  guint      host_cpu_cores;
  double     host_cpu_clock_hz;
  double     host_op_fixed_us;
  double     host_copy_bytes_per_cycle;
  double     host_cast_bytes_per_cycle;
  double     host_resize_nearest_cycles_per_element;
  double     host_resize_bilinear_cycles_per_element;
  double     detpost_clock_hz;
  guint64    detpost_fixed_cycles;
  double     detpost_cycles_per_anchor;
  double     detpost_cycles_per_box;
  GPtrArray *assumptions;
} Zg330Profile;

/**
 * Zg330OpWork:
 * What one hardop did, as its executor reports it.
 * @macs: int8 multiply-accumulates.
 * @etm_read_bytes, @etm_write_bytes: bytes moved from/to ETM (weights count as reads).
 * @ocm_read_bytes, @ocm_write_bytes: bytes moved from/to OCM.
 * @layer_count: layers the hardop advances the layer counter by (the HardOp's
 *   layer_count; 0 for ops the hardware folds away).
 * @read_tiles, @write_tiles: tiles read/written; both 0 means "derive from the bytes"
 *   (ceil(bytes / tile_bytes), ETM + OCM).
 */
typedef struct {
  guint64 macs;
  guint64 etm_read_bytes;
  guint64 etm_write_bytes;
  guint64 ocm_read_bytes;
  guint64 ocm_write_bytes;
  guint   layer_count;
  guint64 read_tiles;
  guint64 write_tiles;
} Zg330OpWork;

typedef enum {
  ZG330_BOUND_COMPUTE,
  ZG330_BOUND_ETM,
  ZG330_BOUND_OCM,
} Zg330Bound;

/**
 * Zg330OpCycles:
 * The terms of one hardop's cost; @total = max(compute, etm, ocm) + fixed; @bound says
 * which term was the max (compute wins ties, then ETM).
 */
typedef struct {
  guint64    compute_cycles;
  guint64    etm_cycles;
  guint64    ocm_cycles;
  guint64    fixed_cycles;
  guint64    total_cycles;
  Zg330Bound bound;
} Zg330OpCycles;

/* ---- profiles ------------------------------------------------------------- */

/* The built-in profile: the same figures as data/devices/zg330.json.  Never fails. */
Zg330Profile *zg330_profile_new_builtin  (void);

/* The built-in Buyi profile: the same figures as data/devices/buyi.json (2 MiB OCM, 4x4
 * MPE grid; the rest assumed, see its "assumptions").  Never fails. */
Zg330Profile *zg330_profile_new_builtin_buyi (void);

/* zg330_profile_load:
 * Loads and validates a profile file.  Every field is required, typed and range checked;
 * unknown fields (other than those starting with '_') are errors, so a typo cannot pass
 * silently.  NULL with XRT_ERROR_PROFILE naming @path and the field. */
Zg330Profile *zg330_profile_load         (const char *path,
                                          GError    **error);

/* Same from bytes; @source names them in errors and becomes the profile's source. */
Zg330Profile *zg330_profile_load_from_data (const char *data,
                                            gsize       length,
                                            const char *source,
                                            GError    **error);

/* zg330_profile_load_default:
 * The profile mock://zg330 uses: the file named by $ZW_ZG330_PROFILE if set, else
 * data/devices/zg330.json of the source tree when present, else the built-in one.  A file
 * that exists but is invalid is an error (no silent fallback). */
Zg330Profile *zg330_profile_load_default (GError **error);

/* The path of the default profile file that zg330_profile_load_default() would read, or
 * NULL when it would use the built-in figures.  Free with g_free(). */
gchar        *zg330_profile_find_default_file (void);

/* zg330_profile_load_named:
 * The profile of a board by name ("zg330", "buyi"; ASCII letters, digits, '-' and '_'):
 * the file named by $ZW_<NAME>_PROFILE (upper case) if set, else data/devices/<name>.json
 * of the source tree when present, else the built-in figures of that board.  "zg330" is
 * exactly zg330_profile_load_default().  An existing file that is invalid is an error;
 * so is a name with neither a file nor built-in figures (XRT_ERROR_PROFILE). */
Zg330Profile *zg330_profile_load_named   (const char *name,
                                          GError    **error);

/* The file zg330_profile_load_named() would read for @name, or NULL (built-in figures or
 * no such profile).  Free with g_free(). */
gchar        *zg330_profile_find_named_file (const char *name);

Zg330Profile *zg330_profile_copy         (const Zg330Profile *profile);
void          zg330_profile_free         (Zg330Profile *profile);

/* zg330_profile_to_json / _save:
 * The profile as a profile file (with "_doc" and "assumptions"), loadable again;
 * _save writes it atomically. */
gchar        *zg330_profile_to_json      (const Zg330Profile *profile);
gboolean      zg330_profile_save         (const Zg330Profile *profile,
                                          const char         *path,
                                          GError            **error);

/* Numeric field names accepted by the field setters/getters, NULL-terminated (static). */
const char *const *zg330_profile_list_fields (void);
/* The "_doc" text of a field (static), or NULL. */
const char   *zg330_profile_get_field_doc (const char *field);

/* zg330_profile_set_field / _get_field:
 * Sets a numeric field by name ("ocm_bytes", "icore_clock_hz", …) with the loader's
 * checks; integer fields must get an integral value.  Setting icore_clock_hz keeps
 * macs_per_cycle (rescales int8_tops); setting ddr_clock_hz rescales etm_bandwidth;
 * setting int8_tops recomputes macs_per_cycle.  XRT_ERROR_PROFILE on an unknown field or
 * a bad value; the profile is unchanged then. */
gboolean      zg330_profile_set_field    (Zg330Profile *profile,
                                          const char   *field,
                                          double        value,
                                          GError      **error);
gboolean      zg330_profile_get_field    (const Zg330Profile *profile,
                                          const char         *field,
                                          double             *value);

/* Shorthands for the usual what-ifs (same checks and rules as set_field). */
gboolean      zg330_profile_set_ocm_bytes      (Zg330Profile *profile, guint64 bytes, GError **error);
gboolean      zg330_profile_set_icore_clock_hz (Zg330Profile *profile, double hz, GError **error);
gboolean      zg330_profile_set_ddr_clock_hz   (Zg330Profile *profile, double hz, GError **error);
gboolean      zg330_profile_set_etm_bandwidth  (Zg330Profile *profile, double bytes_per_s, GError **error);
gboolean      zg330_profile_set_ocm_bandwidth  (Zg330Profile *profile, double bytes_per_s, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Zg330Profile, zg330_profile_free)

/* ---- timing model ----------------------------------------------------------- */

/* Cycles (at the profile's icore clock) one hardop costs: max(compute, ETM, OCM) + fixed. */
guint64       zg330_timing_op_cycles       (const Zg330Profile *profile,
                                            const Zg330OpWork  *work);
/* The same with its terms. */
void          zg330_timing_op_breakdown    (const Zg330Profile *profile,
                                            const Zg330OpWork  *work,
                                            Zg330OpCycles      *out);
/* Cycles one icoreCalc launch costs besides its hardops: launch_cycles, plus the host
 * sync when the launch is not @merged (a merged launch chains its hardops in the icore;
 * the host syncs once per unmerged hardop launch). */
guint64       zg330_timing_launch_overhead (const Zg330Profile *profile,
                                            gboolean            merged);
/* Cycles an ETM-to-ETM copy of @bytes costs (a staged userConnectNetwork value): the
 * hardop model's ETM term for @bytes read and @bytes written, ceil(2 · bytes · clock /
 * etm_bandwidth), with no MACs and no fixed cost. */
guint64       zg330_timing_etm_copy_cycles (const Zg330Profile *profile,
                                            guint64             bytes);
/* host_sync_us in icore cycles. */
guint64       zg330_timing_host_sync_cycles (const Zg330Profile *profile);
/* Milliseconds for @cycles at the profile's icore clock. */
double        zg330_timing_cycles_to_ms    (const Zg330Profile *profile,
                                            guint64             cycles);
/* Tiles for the counters: @work's own, or derived from its bytes (see Zg330OpWork). */
void          zg330_timing_op_tiles        (const Zg330Profile *profile,
                                            const Zg330OpWork  *work,
                                            guint64            *read_tiles,
                                            guint64            *write_tiles);

G_END_DECLS
