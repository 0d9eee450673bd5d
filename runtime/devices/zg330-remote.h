/* zg330-remote.h — what only a socket://NAME@HOST:PORT board has (devices/zg330-socket-board.c;
 * the ZG330Device API of devices/zg330-sim.h covers both boards).
 *
 * The runtime side keeps what a host keeps with a real board: the regions' allocators (the
 * stores move bytes over the wire), the hardop bindings (sent with each launch, see
 * zg330-wire.h), the profile the board announced at HELLO, the last launch's statistics.
 * Every operation holds the connection for one request and its reply; a transport failure
 * (the board gone, the connection dropped, a malformed frame, no reply within the wait time)
 * marks the connection broken: that call and every later one fail with an error naming the
 * URL and the operation, and opening the URL again gives a fresh board.
 */
#pragma once

#include "devices/zg330-sim.h"

G_BEGIN_DECLS

/* TRUE for a board opened as socket://NAME@HOST:PORT. */
gboolean zg330_remote_is_remote   (XrtDevice *device);

/* Bytes the device has sent to and received from its board since it was opened (frames and
 * headers included): what a forward moves over the wire. */
void     zg330_remote_get_traffic (XrtDevice *device, guint64 *sent, guint64 *received);

G_END_DECLS
