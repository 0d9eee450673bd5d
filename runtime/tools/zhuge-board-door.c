/* zhuge-board-door.c — connections turned away past --max-clients: the refusal, a half-close
 * and a bounded drain on the main loop (see zhuge-board-door.h).
 *
 * Closing a socket whose receive buffer holds bytes (the client's HELLO, which the board never
 * read) makes the kernel send a reset instead of the end of the stream, and a reset can reach
 * the client before it read the refusal.  So the door reads what the client sends, from a
 * GSource per connection, until the client closes (then the close is clean) or a second /
 * 64 KiB pass, as refuse() does on a connection's own thread. */
#include "zhuge-board-door.h"

#include <string.h>

struct _BoardDoor {
  guint max_draining;
  guint drain_ms;
  gsize drain_bytes;
  GList *draining;        /* of Drain */
};

typedef struct {
  BoardDoor *door;
  GList *link;            /* in door->draining */
  GSocketConnection *conn;
  GSocket *sock;
  GSource *io;            /* the socket: writable while @pending, readable after */
  GSource *timer;         /* the drain's end */
  GBytes *pending;        /* the part of the refusal not sent yet, or NULL */
  gsize drained;
} Drain;

static void watch (Drain *d);

static void
drain_end (Drain *d)
{
  BoardDoor *door = d->door;

  if (d->io != NULL)
    g_source_destroy (d->io);
  g_clear_pointer (&d->io, g_source_unref);
  if (d->timer != NULL)
    g_source_destroy (d->timer);
  g_clear_pointer (&d->timer, g_source_unref);
  g_io_stream_close (G_IO_STREAM (d->conn), NULL, NULL);
  g_object_unref (d->conn);
  g_clear_pointer (&d->pending, g_bytes_unref);
  door->draining = g_list_delete_link (door->draining, d->link);
  g_free (d);
}

/* Sends what is pending; FALSE when the connection is gone. */
static gboolean
send_pending (Drain *d)
{
  gsize n = 0;
  const guint8 *p = g_bytes_get_data (d->pending, &n);
  g_autoptr (GError) error = NULL;
  gssize k = g_socket_send (d->sock, (const gchar *) p, n, NULL, &error);

  if (k < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
    return TRUE;
  if (k <= 0)
    return FALSE;
  if ((gsize) k == n)
    {
      g_clear_pointer (&d->pending, g_bytes_unref);
      /* the client reads the refusal, then the end of the stream */
      g_socket_shutdown (d->sock, FALSE, TRUE, NULL);
    }
  else
    {
      GBytes *rest = g_bytes_new_from_bytes (d->pending, (gsize) k, n - (gsize) k);
      g_bytes_unref (d->pending);
      d->pending = rest;
    }
  return TRUE;
}

static gboolean
on_ready (GSocket *sock, GIOCondition cond, gpointer data)
{
  Drain *d = data;

  (void) sock;
  if (d->pending != NULL)
    {
      if (!send_pending (d))
        {
          drain_end (d);
          return G_SOURCE_REMOVE;
        }
      if (d->pending == NULL)
        {
          /* sent: from now on only what the client sends matters */
          g_source_destroy (d->io);
          g_clear_pointer (&d->io, g_source_unref);
          watch (d);
          return G_SOURCE_REMOVE;
        }
      return G_SOURCE_CONTINUE;
    }
  if (cond & (G_IO_IN | G_IO_HUP | G_IO_ERR))
    {
      guint8 buf[4096];
      g_autoptr (GError) error = NULL;
      gssize k = g_socket_receive (d->sock, (gchar *) buf, sizeof buf, NULL, &error);

      if (k < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        return G_SOURCE_CONTINUE;
      if (k > 0 && (d->drained += (gsize) k) < d->door->drain_bytes)
        return G_SOURCE_CONTINUE;
      /* the client closed (a clean close now), it failed, or it sent more than a refused
       * client may */
      drain_end (d);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_timer (gpointer data)
{
  Drain *d = data;

  g_clear_pointer (&d->timer, g_source_unref);   /* it ends with this dispatch */
  drain_end (d);
  return G_SOURCE_REMOVE;
}

static void
watch (Drain *d)
{
  d->io = g_socket_create_source (d->sock, d->pending != NULL ? G_IO_OUT : G_IO_IN, NULL);
  g_source_set_callback (d->io, G_SOURCE_FUNC (on_ready), d, NULL);
  g_source_attach (d->io, NULL);
}

BoardDoor *
board_door_new (guint max_draining, guint drain_ms, gsize drain_bytes)
{
  BoardDoor *door = g_new0 (BoardDoor, 1);

  door->max_draining = max_draining;
  door->drain_ms = drain_ms;
  door->drain_bytes = drain_bytes;
  return door;
}

gboolean
board_door_refuse (BoardDoor *door, GSocketConnection *conn, const guint8 *frame, gsize n)
{
  GSocket *sock = g_socket_connection_get_socket (conn);
  Drain *d;

  g_return_val_if_fail (door != NULL && G_IS_SOCKET_CONNECTION (conn) && frame != NULL, FALSE);
  g_socket_set_blocking (sock, FALSE);
  if (g_list_length (door->draining) >= door->max_draining)
    {
      /* as many drain as the door takes: the refusal best-effort, and the connection goes */
      g_socket_send (sock, (const gchar *) frame, n, NULL, NULL);
      g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
      return FALSE;
    }
  d = g_new0 (Drain, 1);
  d->door = door;
  d->conn = g_object_ref (conn);
  d->sock = sock;
  d->pending = g_bytes_new (frame, n);
  door->draining = g_list_prepend (door->draining, d);
  d->link = door->draining;
  if (!send_pending (d))
    {
      drain_end (d);
      return TRUE;
    }
  d->timer = g_timeout_source_new (door->drain_ms);
  g_source_set_callback (d->timer, on_timer, d, NULL);
  g_source_attach (d->timer, NULL);
  watch (d);
  return TRUE;
}

guint
board_door_draining (BoardDoor *door)
{
  return g_list_length (door->draining);
}

void
board_door_free (BoardDoor *door)
{
  if (door == NULL)
    return;
  while (door->draining != NULL)
    drain_end (door->draining->data);
  g_free (door);
}
