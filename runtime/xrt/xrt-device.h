/* xrt-device.h — an XRT device: open by URL, memory regions, registers, status.
 *
 * The vendor's Device (xrt manual §2.5) in C.  A device is a set of named memory regions
 * (one of them the default) plus a register space; what sits behind them depends on the
 * URL:
 *
 *   mock://zg330                 the simulated ZG330 board (devices/zg330-sim.h): ETM,
 *                                OCM and HOST regions, registers, icore execution and
 *                                timing from data/devices/zg330.json
 *   mock://zg330?profile=PATH    the same board with another device profile
 *   socket://NAME@HOST:PORT      a simulated board served by `zhuge-board` over TCP
 *                                (devices/zg330-wire.h), NAME its kind: zg330 or buyi
 *   axi://…                      recognised, but not available in this build
 *
 * Ownership: XrtDevice is reference counted (atomic).  Regions returned by the getters
 * are borrowed and live at least as long as the device; chunks keep their region alive
 * even after the device is gone.
 *
 * Threads: every function may be called from any thread.  The simulated board runs one
 * icore launch at a time; register accesses wait for a launch in progress.
 *
 * Errors: XRT_ERROR (xrt/xrt-mem.h).
 */
#pragma once

#include <stdio.h>
#include <glib.h>

#include "xrt/xrt-mem.h"

G_BEGIN_DECLS

/**
 * xrt_device_open:
 *
 * Opens the device named by @url (see above).  Errors: XRT_ERROR_URL for a malformed URL,
 * an unknown scheme (the message lists the supported ones), an unknown mock device or an
 * unknown URL parameter; XRT_ERROR_NOT_AVAILABLE for axi://; XRT_ERROR_DEVICE when a
 * socket:// board cannot be reached or is busy;
 * XRT_ERROR_PROFILE when the device profile does not load.  Returns a new reference.
 *
 * Returns: (transfer full)
 */
XrtDevice    *xrt_device_open          (const char *url,
                                        GError    **error);

/**
 * xrt_device_ref:
 *
 * Takes a reference to @device.
 *
 * Returns: (transfer full)
 */
XrtDevice    *xrt_device_ref           (XrtDevice *device);
/**
 * xrt_device_unref:
 *
 * Drops a reference to @device; the last one closes it.
 */
void          xrt_device_unref         (XrtDevice *device);

/**
 * xrt_device_close:
 *
 * Device::Close: frees every chunk of every region (handles still held report
 * XRT_ERROR_FREED), releases device-side state (the simulator's hardop bindings, timer
 * and profiler chunks) and makes every later call that needs the device fail with
 * XRT_ERROR_CLOSED.  Idempotent.  The caller still drops its reference.
 */
void          xrt_device_close         (XrtDevice *device);
/**
 * xrt_device_is_closed:
 *
 * Whether the device has been closed (xrt_device_close).
 */
gboolean      xrt_device_is_closed     (XrtDevice *device);

/**
 * xrt_device_get_url:
 *
 * The URL the device was opened with; its scheme ("mock") and device part ("zg330").
 */
const char   *xrt_device_get_url       (XrtDevice *device);
/**
 * xrt_device_get_scheme:
 *
 * The URL scheme the device was opened with ("mock", "socket").
 */
const char   *xrt_device_get_scheme    (XrtDevice *device);
/**
 * xrt_device_get_name:
 *
 * The device's name: the URL's part after the scheme up to an '@', '/' or '?', in lower
 * case ("zg330" for mock://zg330 and for socket://zg330@HOST:PORT).
 */
const char   *xrt_device_get_name      (XrtDevice *device);

/**
 * xrt_device_get_version:
 *
 * Device::version(): a new GHashTable of strings to strings (free with
 * g_hash_table_unref()): "url" for every device; the simulator adds "device" ("zg330"),
 * "fpga_version" ("0x03300100"), "profile" (its file or "built-in") and "simulator".
 *
 * Returns: (transfer full) (element-type utf8 utf8)
 */
GHashTable   *xrt_device_get_version   (XrtDevice *device);

/**
 * xrt_device_reset:
 *
 * Device::reset(level).  Simulator: level 0 clears the registers (layer count, timer,
 * tile counts, state, run base/size); level >= 1 also zeroes the OCM and forgets the last
 * launch.  Memory allocations and hardop bindings are kept.
 */
gboolean      xrt_device_reset         (XrtDevice *device,
                                        int        level,
                                        GError   **error);

/**
 * xrt_device_check:
 *
 * Device::check(level).  Level 0: the device is open and its registers answer;
 * level >= 1 also verifies every region's allocator (xrt_mem_manager_check()).
 * FALSE with XRT_ERROR_CHECK / XRT_ERROR_CLOSED naming what is wrong.
 */
gboolean      xrt_device_check         (XrtDevice *device,
                                        int        level,
                                        GError   **error);

/**
 * xrt_device_show_status: (skip)
 *
 * Device::showStatus(level): appends a human-readable report to @out.  Level 0: URL,
 * registers, region usage; level >= 1 adds every chunk and (simulator) every hardop
 * binding and the last launch.
 */
void          xrt_device_show_status   (XrtDevice *device,
                                        int        level,
                                        GString   *out);
/**
 * xrt_device_get_status_text:
 *
 * xrt_device_show_status() as a new string (for the language bindings' showStatus).
 *
 * Returns: (transfer full): the report
 */
char         *xrt_device_get_status_text (XrtDevice *device, int level);
/**
 * xrt_device_print_status: (skip)
 *
 * Same, written to @stream (e.g. stdout).
 */
void          xrt_device_print_status  (XrtDevice *device,
                                        int        level,
                                        FILE      *stream);

/**
 * xrt_device_set_wait_time:
 *
 * Device::setWaitTime: the longest a host waits for a tensor sync, in ms (default 10000).
 * The simulator runs synchronously and only records it.
 */
void          xrt_device_set_wait_time (XrtDevice *device,
                                        guint64    wait_time_ms);
/**
 * xrt_device_get_wait_time:
 *
 * The wait time in ms (setWaitTime, default 10000): the longest a host waits for the board
 * before giving up.
 */
guint64       xrt_device_get_wait_time (XrtDevice *device);

/* ---- memory regions ---------------------------------------------------- */

/**
 * xrt_device_get_mem_region:
 *
 * The region called @name (ASCII case-insensitive: "ETM", "OCM", "HOST" on the
 * simulator), borrowed; NULL with XRT_ERROR_INVALID_ARGUMENT listing the region names.
 *
 * Returns: (transfer none)
 */
XrtMemRegion *xrt_device_get_mem_region     (XrtDevice  *device,
                                             const char *name,
                                             GError    **error);
/**
 * xrt_device_get_default_mem_region:
 *
 * The default region (the simulator's is "ETM"), borrowed.
 *
 * Returns: (transfer none)
 */
XrtMemRegion *xrt_device_get_default_mem_region (XrtDevice *device);
/**
 * xrt_device_set_default_mem_region:
 *
 * Makes the region called @name the device's default memory region (defaultMemRegion); an
 * error names the region when the device has none of that name.
 */
gboolean      xrt_device_set_default_mem_region (XrtDevice  *device,
                                                 const char *name,
                                                 GError    **error);
/**
 * xrt_device_list_mem_regions:
 *
 * Region names in declaration order (NULL-terminated, owned by the device).
 *
 * Returns: (transfer none) (array zero-terminated=1)
 */
const char *const *xrt_device_list_mem_regions (XrtDevice *device);

/**
 * xrt_device_malloc:
 *
 * Device::malloc(region, bytes): allocates @bytes on @region_name (NULL: the default
 * region), auto_free, aligned to XRT_MEM_DEFAULT_ALIGNMENT.  New reference or NULL.
 *
 * Returns: (transfer full)
 */
XrtMemChunk  *xrt_device_malloc        (XrtDevice  *device,
                                        const char *region_name,
                                        guint64     bytes,
                                        GError    **error);

/* ---- registers ---------------------------------------------------------- */

/**
 * xrt_device_read_reg:
 * @value: (out)
 *
 * Device::readReg/writeReg on the default register region: 32-bit registers at byte
 * address @addr (a multiple of 4; XRT_ERROR_INVALID_ARGUMENT otherwise).  Unknown
 * addresses fail with XRT_ERROR_REGISTER naming the address.  The simulator's map is in
 * devices/zg330-sim.h (ZG330_REG_*); writing ZG330_REG_RUN_START there starts
 * icoreCalc(run base, run size) and returns its error.
 */
gboolean      xrt_device_read_reg      (XrtDevice *device,
                                        guint64    addr,
                                        guint32   *value,
                                        GError   **error);
/**
 * xrt_device_write_reg:
 *
 * Writes @value to the board register at @addr (writeReg); errors name the device and the
 * register.
 */
gboolean      xrt_device_write_reg     (XrtDevice *device,
                                        guint64    addr,
                                        guint32    value,
                                        GError   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtDevice, xrt_device_unref)
/* The GBoxed type of XrtDevice (for the language bindings). */
#define XRT_TYPE_DEVICE (xrt_device_get_type ())
GType xrt_device_get_type (void);

/* ---- for device implementations --------------------------------------- */

/**
 * XrtDeviceClass:
 * The operations a device implementation provides; a static table.  All callbacks are
 * called without any XrtDevice lock held.  @finalize frees the implementation data
 * (xrt_device_get_impl()); @close releases device-side state at xrt_device_close()
 * (optional).  @read_reg / @write_reg get a 4-aligned address.
 */
typedef struct {
  const char *type_name;
  void        (*finalize)    (XrtDevice *device);
  void        (*close)       (XrtDevice *device);
  gboolean    (*reset)       (XrtDevice *device, int level, GError **error);
  gboolean    (*check)       (XrtDevice *device, int level, GError **error);
  void        (*show_status) (XrtDevice *device, int level, GString *out);
  void        (*version)     (XrtDevice *device, GHashTable *out);
  gboolean    (*read_reg)    (XrtDevice *device, guint64 addr, guint32 *value, GError **error);
  gboolean    (*write_reg)   (XrtDevice *device, guint64 addr, guint32 value, GError **error);
} XrtDeviceClass;

/**
 * xrt_device_new: (skip)
 *
 * A device of @klass for @url (scheme and name parsed from it) with implementation data
 * @impl (freed by klass->finalize).  Regions are added with xrt_device_add_mem_region()
 * before the device is handed out.
 */
XrtDevice    *xrt_device_new           (const XrtDeviceClass *klass,
                                        const char           *url,
                                        gpointer              impl);
/**
 * xrt_device_get_impl: (skip)
 *
 * The device kind's own state (for the kind's implementation only).
 */
gpointer      xrt_device_get_impl      (XrtDevice *device);
/**
 * xrt_device_get_class: (skip)
 *
 * The device kind's table of calls (for the kind's implementation only).
 */
const XrtDeviceClass *xrt_device_get_class (XrtDevice *device);
/**
 * xrt_device_add_mem_region: (skip)
 *
 * Adds @region (the device takes a reference) under its name; the first region added, or
 * one added with @is_default, becomes the default.
 */
void          xrt_device_add_mem_region (XrtDevice    *device,
                                         XrtMemRegion *region,
                                         gboolean      is_default);

/* ---- device kinds and their URLs -------------------------------------------- */

/* Opens a device of a registered kind: @name is the device name of the URL
 * ("zg330" in mock://zg330?profile=P), @params its query parameters (never NULL; the
 * generic ones such as "fault" already taken out). Unknown parameters are the kind's to
 * refuse (XRT_ERROR_URL naming the URL and the parameter). */
typedef XrtDevice *(*XrtDeviceOpenFunc) (const char *url, const char *name, GHashTable *params, GError **error);

/**
 * xrt_device_register_kind: (skip)
 *
 * Registers a device kind for URLs @scheme://@name (@name NULL: any name of the scheme;
 * @open NULL: the kind is known but not available in this build, and opening it says so).
 * @usage is shown in errors ("mock://zg330[?profile=PATH]"). Device implementations
 * register themselves when the runtime loads; registering a (scheme, name) again replaces it.
 */
void xrt_device_register_kind (const char *scheme, const char *name, const char *usage, XrtDeviceOpenFunc open);

/**
 * xrt_device_list_kinds:
 *
 * The usages of every registered kind, "; "-separated (for messages). g_free.
 *
 * Returns: (transfer full)
 */
char *xrt_device_list_kinds (void);

/* ---- fault injection --------------------------------------------------------- */

/* Faults a device can be told to make, for tests and for users who want to see how their
 * code behaves when a board misbehaves: the URL parameter fault=KIND@N[,KIND@N…] makes the
 * Nth operation of that kind (counted from 1 since the device was opened or reset) fail.
 *   reg_read, reg_write   the register access fails (XRT_ERROR_DEVICE)
 *   icore                 the launch fails (XRT_ERROR_DEVICE)
 *   timeout               the launch does not finish within the wait time (XRT_ERROR_TIMEOUT)
 *   corrupt_read          the Nth memory read-back returns its bytes with one bit flipped
 * A device stays usable after a fault: the next operation works. */
typedef enum {
  XRT_FAULT_REG_READ,
  XRT_FAULT_REG_WRITE,
  XRT_FAULT_ICORE,
  XRT_FAULT_TIMEOUT,
  XRT_FAULT_CORRUPT_READ,
  XRT_N_FAULTS
} XrtFaultKind;

/**
 * xrt_device_take_fault: (skip)
 *
 * For implementations: counts one operation of @kind and TRUE when it is to fail (then
 * @error is set, naming the URL and @what, for every kind but XRT_FAULT_CORRUPT_READ, whose
 * caller flips a bit of what it read).
 */
gboolean xrt_device_take_fault (XrtDevice *device, XrtFaultKind kind, const char *what, GError **error);

/**
 * xrt_device_injects_fault: (skip)
 *
 * For implementations: TRUE when the device injects @kind faults at all, so a caller that
 * could skip a counted operation (a read served from a host pointer) must not.
 */
gboolean xrt_device_injects_fault (XrtDevice *device, XrtFaultKind kind);

G_END_DECLS
