/* zg330-wire-client.h — the runtime's end of a board connection (devices/zg330-wire.h),
 * private to devices/: the socket board (zg330-socket-board.c) sends each request and reads
 * its reply here.
 *
 * One exchange at a time (the io lock).  The client's wait time bounds a whole request: only
 * a launch's PROGRESS frames renew it, never past ZG330_WIRE_LAUNCH_WAITS wait times, and a
 * PROGRESS frame answering anything else is garbage.  A transport failure (the board gone,
 * the connection dropped, a malformed frame, no reply in time) breaks the connection: that
 * exchange and every later one fail with an error naming the URL and the operation. */
#pragma once

#include <gio/gio.h>

#include "devices/zg330-wire.h"

G_BEGIN_DECLS

typedef struct {
  GMutex             io;        /* one exchange at a time: what follows */
  GSocketConnection *conn;
  GSocket           *sock;      /* the connection's (non-blocking) */
  guint32            seq;
  char              *broken;    /* why the connection cannot be used any more, or NULL */
  guint64            sent, received;
  const char        *url;       /* borrowed: the device's URL, for messages */
  const char        *where;     /* borrowed: HOST:PORT */
} Zg330WireClient;

/* Sends @req and reads its reply within @wait_ms.  FALSE with an error naming the URL and
 * @what on a transport failure or a malformed reply (the connection is then broken), and on
 * the board's ERROR or BUSY reply (BUSY breaks it too; ERROR leaves it usable).  @rep is
 * filled on success and must be cleared. */
gboolean zg330_wire_client_exchange    (Zg330WireClient *client, const char *what, const Zg330WireRequest *req,
                                        Zg330WireReply *rep, guint64 wait_ms, GError **error);

/* Marks the connection unusable for @why and closes it; the io lock must be held. */
void     zg330_wire_client_break       (Zg330WireClient *client, const char *why);

/* Reads (writes) @bytes at @offset of region @region (0 ETM, 1 OCM) in requests of at most
 * ZG330_WIRE_MAX_DATA bytes, each within @wait_ms; errors as zg330_wire_client_exchange(). */
gboolean zg330_wire_client_mem_read    (Zg330WireClient *client, guint8 region, guint64 offset, gpointer dest,
                                        gsize bytes, guint64 wait_ms, GError **error);
gboolean zg330_wire_client_mem_write   (Zg330WireClient *client, guint8 region, guint64 offset, gconstpointer src,
                                        gsize bytes, guint64 wait_ms, GError **error);

/* Bytes sent and received so far, frames and headers included. */
void     zg330_wire_client_get_traffic (Zg330WireClient *client, guint64 *sent, guint64 *received);

G_END_DECLS
