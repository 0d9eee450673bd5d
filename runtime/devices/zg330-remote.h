/* zg330-remote.h — socket://NAME@HOST:PORT: a board served by `zhuge-board`, seen through
 * the device interface (private to devices/: zg330-sim.c forwards the ZG330Device API here
 * when the device is remote).
 *
 * The runtime side keeps what a host keeps with a real board: the regions' allocators (the
 * stores move bytes over the wire), the hardop bindings (sent with each launch, see
 * zg330-wire.h), the profile the board announced at HELLO, the last launch's statistics.
 * Every operation holds the connection for one request and its reply; a transport failure
 * (the board gone, the connection dropped, a malformed frame, no frame within the wait time)
 * marks the connection broken: that call and every later one fail with an error naming the
 * URL and the operation, and opening the URL again gives a fresh board.
 */
#pragma once

#include "devices/zg330-sim.h"

G_BEGIN_DECLS

gboolean            zg330_remote_is_remote        (XrtDevice *device);
const Zg330Profile *zg330_remote_get_profile      (XrtDevice *device);
gboolean            zg330_remote_set_timing_field (XrtDevice *device, const char *field, double value, GError **error);
gboolean            zg330_remote_bind             (XrtDevice *device, guint64 addr, guint64 bytes, gboolean merged,
                                                   Zg330HardopPrepareFunc prepare, gpointer user_data,
                                                   GDestroyNotify destroy, GError **error);
guint               zg330_remote_unbind_range     (XrtDevice *device, guint64 addr, guint64 size);
guint               zg330_remote_get_n_bindings   (XrtDevice *device);
gboolean            zg330_remote_get_last_launch  (XrtDevice *device, Zg330LaunchStats *stats);
guint               zg330_remote_get_etm_pages    (XrtDevice *device);
gboolean            zg330_remote_read_reg         (XrtDevice *device, guint32 cid, guint32 rid, guint32 offset,
                                                   guint32 *value, GError **error);
gboolean            zg330_remote_write_reg        (XrtDevice *device, guint32 cid, guint32 rid, guint32 offset,
                                                   guint32 value, GError **error);
gboolean            zg330_remote_icore_calc       (XrtDevice *device, guint64 addr, guint64 size, GError **error);
gboolean            zg330_remote_config_chunk     (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk,
                                                   GError **error);
XrtMemChunk        *zg330_remote_get_timer_chunk  (XrtDevice *device);
gboolean            zg330_remote_set_master_cid   (XrtDevice *device, guint cid, GError **error);
guint               zg330_remote_get_master_cid   (XrtDevice *device);

/* Bytes the device has sent to and received from its board since it was opened (frames and
 * headers included): what a forward moves over the wire. */
void                zg330_remote_get_traffic      (XrtDevice *device, guint64 *sent, guint64 *received);

G_END_DECLS
