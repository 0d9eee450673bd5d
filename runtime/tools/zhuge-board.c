/* zhuge-board — serves one simulated ZG330 or Buyi board over TCP (devices/zg330-wire.h), so
 * that runtimes open it as socket://NAME@HOST:PORT the way the vendor's users open a board.
 *
 * One client session at a time, from its HELLO (others are told BUSY, naming the holder);
 * each session gets a board fresh from power-on.  Connections are bounded (--max-clients, each
 * its own thread, started from GSocketService's main-loop handler; more are told BUSY at once
 * and drained on the main loop without a thread, zhuge-board-door.c),
 * a HELLO must arrive whole within --handshake-timeout and a request within --idle-timeout, so
 * a silent or trickling client holds neither the board nor a thread for long.  A launch runs
 * on a worker thread while the connection's thread sends PROGRESS frames and watches the
 * client: one that leaves has its launch cancelled.  Loopback by default; another address
 * needs --token-file, a shared token every HELLO must present.
 *
 * --fault KIND@N makes the board misbehave on purpose, for tests of the runtime's handling
 * (the board process killed mid-forward, a dropped connection, garbage on the wire, a board
 * that stops answering). */
#include "devices/zg330-board-session.h"
#include "base/zw-locale.h"
#include "zhuge-board-door.h"

#include <gio/gio.h>
#include <errno.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

typedef enum { FAULT_NONE, FAULT_DIE, FAULT_HANG, FAULT_GARBAGE, FAULT_DROP } FaultKind;

static struct {
  char *kind;
  Zg330Profile *profile;
  FaultKind fault;
  guint fault_at;        /* die: the Nth icoreCalc of the process; others: its Nth request (once) */
  guint request_count;   /* atomic */
  gint sessions;         /* atomic: connections accepted */
  guint icore_count;     /* atomic */
  gboolean verbose;
  char *token;           /* the shared token HELLO must present, or NULL */
  guint max_clients;     /* connections served at once (each its own thread) */
  gint n_conns;          /* atomic: connections being served */
  guint handshake_ms;    /* a HELLO must arrive whole within this */
  guint idle_ms;         /* a request must arrive whole (a reply be taken) within this */
  GMutex lock;           /* holder */
  gint holder_id;        /* the connection holding the board, or 0 */
  char *holder;          /* who that is, for BUSY */
  BoardDoor *door;       /* connections past max_clients, refused and drained on the main loop */
} board;

/* Connections refused past --max-clients that drain at once (each up to a second and 64 KiB,
 * as refuse() drains); more are closed at once. */
enum { DOOR_MAX_DRAINING = 64, DOOR_DRAIN_MS = 1000, DOOR_DRAIN_BYTES = 16 * 4096 };

/* ---- one connection ----------------------------------------------------------------- */

typedef struct {
  GSocketConnection *conn;
  GSocket *sock;
  char *who;             /* the peer's ADDR:PORT */
  gint id;
} Conn;

typedef enum { NET_OK, NET_TIMEOUT, NET_GONE, NET_GARBAGE } NetStatus;

/* Waits for @cond on the (non-blocking) socket until @deadline (monotonic µs). */
static NetStatus
wait_until (GSocket *sock, GIOCondition cond, gint64 deadline)
{
  gint64 left = deadline - g_get_monotonic_time ();
  g_autoptr (GError) error = NULL;

  if (left <= 0)
    return NET_TIMEOUT;
  if (!g_socket_condition_timed_wait (sock, cond, left, NULL, &error))
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ? NET_TIMEOUT : NET_GONE;
  return NET_OK;
}

/* Sends all of @p by @deadline: a client that stops reading cannot hold a thread. */
static NetStatus
send_until (GSocket *sock, const guint8 *p, gsize n, gint64 deadline)
{
  while (n > 0)
    {
      g_autoptr (GError) error = NULL;
      gssize k = g_socket_send (sock, (const gchar *) p, n, NULL, &error);

      if (k < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          NetStatus st = wait_until (sock, G_IO_OUT, deadline);
          if (st != NET_OK)
            return st;
          continue;
        }
      if (k <= 0)
        return NET_GONE;
      p += k;
      n -= (gsize) k;
    }
  return NET_OK;
}

/* Receives exactly @n more bytes into @out by @deadline.  The array grows with the bytes
 * that arrive (at most doubling), so memory follows what a client really sent, not what its
 * header announced. */
static NetStatus
recv_until (GSocket *sock, GByteArray *out, gsize n, gint64 deadline)
{
  while (n > 0)
    {
      g_autoptr (GError) error = NULL;
      guint had = out->len;
      gsize want = MIN (n, MAX ((gsize) 65536, (gsize) had));
      gssize k;

      g_byte_array_set_size (out, had + (guint) want);
      k = g_socket_receive (sock, (gchar *) out->data + had, want, NULL, &error);
      g_byte_array_set_size (out, had + (guint) MAX (k, 0));
      if (k < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          NetStatus st = wait_until (sock, G_IO_IN, deadline);
          if (st != NET_OK)
            return st;
          continue;
        }
      if (k <= 0)
        return NET_GONE;
      n -= (gsize) k;
    }
  return NET_OK;
}

/* Reads one frame whole by @deadline: its header (@h) and payload (@payload, new). A frame
 * longer than @max_length, or a header that does not decode, is garbage (@why says what). */
static NetStatus
recv_frame (GSocket *sock, gint64 deadline, guint32 max_length, Zg330WireHeader *h, GByteArray **payload,
            char **why)
{
  g_autoptr (GByteArray) head = g_byte_array_sized_new (ZG330_WIRE_HEADER_BYTES);
  g_autoptr (GError) error = NULL;
  NetStatus st;

  *payload = NULL;
  if ((st = recv_until (sock, head, ZG330_WIRE_HEADER_BYTES, deadline)) != NET_OK)
    return st;
  if (!zg330_wire_header_decode (head->data, h, &error))
    {
      *why = g_strdup (error->message);
      return NET_GARBAGE;
    }
  if (h->length > max_length)
    {
      *why = g_strdup_printf ("a %s frame of %u bytes where at most %u are taken", zg330_wire_type_to_string (h->type),
                              h->length, max_length);
      return NET_GARBAGE;
    }
  *payload = g_byte_array_sized_new (MIN (h->length, 65536u));
  g_byte_array_set_size (*payload, 0);
  return recv_until (sock, *payload, h->length, deadline);
}

static gint64
after_ms (guint ms)
{
  return g_get_monotonic_time () + (gint64) ms * G_TIME_SPAN_MILLISECOND;
}

static gboolean
send_frame (GSocket *sock, guint16 type, guint32 seq, const guint8 *payload, guint32 length)
{
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  gint64 deadline = after_ms (board.idle_ms);

  zg330_wire_header_encode (head, type, seq, length);
  return send_until (sock, head, sizeof head, deadline) == NET_OK
         && (length == 0 || send_until (sock, payload, length, deadline) == NET_OK);
}

/* Sends @rep (checked: zg330_board_encode_reply) as the answer to a request of @request_type. */
static gboolean
send_reply (GSocket *sock, guint16 request_type, guint32 seq, Zg330WireReply *rep)
{
  guint16 frame_type;
  g_autoptr (GByteArray) out = zg330_board_encode_reply (request_type, rep, &frame_type);

  return send_frame (sock, frame_type, seq, out->data, out->len);
}

/* Sends an ERROR (or BUSY) frame and ends the connection gracefully: what the client sent
 * is drained (for a second at most), so the close does not reset the connection before the
 * client read why. */
static void
refuse (Conn *c, guint16 type, guint32 seq, XrtError code, const char *message)
{
  Zg330WireReply rep = { .type = type, .code = code, .message = g_strdup (message) };
  g_autoptr (GByteArray) drain = g_byte_array_new ();
  gint64 deadline = after_ms (1000);

  send_reply (c->sock, 0, seq, &rep);
  zg330_wire_reply_clear (&rep);
  g_socket_shutdown (c->sock, FALSE, TRUE, NULL);
  for (guint i = 0; i < 16 && recv_until (c->sock, drain, 4096, deadline) == NET_OK; i++)
    g_byte_array_set_size (drain, 0);
}

/* TRUE when the client has gone (its end closed or reset): looked at without reading what it
 * may have sent. */
static gboolean
client_gone (GSocket *sock)
{
  GIOCondition cond = g_socket_condition_check (sock, G_IO_IN | G_IO_HUP | G_IO_ERR);
  char byte;
  gssize k;

  if (cond & (G_IO_HUP | G_IO_ERR))
    return TRUE;
  if (!(cond & G_IO_IN))
    return FALSE;
  k = recv (g_socket_get_fd (sock), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

typedef struct {
  Zg330BoardSession *session;
  const Zg330WireRequest *req;
  Zg330WireReply *rep;
  GMutex lock;
  GCond cond;
  gboolean done;
} Launch;

static gpointer
launch_thread (gpointer data)
{
  Launch *l = data;

  zg330_board_session_handle (l->session, l->req, l->rep);
  g_mutex_lock (&l->lock);
  l->done = TRUE;
  g_cond_signal (&l->cond);
  g_mutex_unlock (&l->lock);
  return NULL;
}

/* Runs a launch on a worker thread, sending PROGRESS every ZG330_WIRE_PROGRESS_MS; a client
 * that leaves meanwhile has its launch cancelled (it stops before its next hardop).  FALSE
 * when the client is gone. */
static gboolean
run_launch (GSocket *sock, guint32 seq, Zg330BoardSession *session, const Zg330WireRequest *req,
            Zg330WireReply *rep)
{
  Launch l = { session, req, rep, { 0 }, { 0 }, FALSE };
  gboolean alive = TRUE;
  GThread *thread;

  g_mutex_init (&l.lock);
  g_cond_init (&l.cond);
  thread = g_thread_new ("board-launch", launch_thread, &l);
  g_mutex_lock (&l.lock);
  while (!l.done)
    {
      gint64 until = g_get_monotonic_time () + ZG330_WIRE_PROGRESS_MS * G_TIME_SPAN_MILLISECOND;
      if (!g_cond_wait_until (&l.cond, &l.lock, until) && !l.done && alive)
        {
          g_mutex_unlock (&l.lock);
          alive = !client_gone (sock) && send_frame (sock, ZG330_WIRE_PROGRESS, seq, NULL, 0);
          if (!alive)
            zg330_board_session_cancel (session);
          g_mutex_lock (&l.lock);
        }
    }
  g_mutex_unlock (&l.lock);
  g_thread_join (thread);
  g_mutex_clear (&l.lock);
  g_cond_clear (&l.cond);
  return alive;
}

/* Injected faults (--fault): TRUE when the connection is to end here. */
static gboolean
inject_fault (Conn *c)
{
  if (board.fault == FAULT_NONE || board.fault == FAULT_DIE
      || (guint) g_atomic_int_add (&board.request_count, 1) + 1 != board.fault_at)
    return FALSE;
  if (board.fault == FAULT_GARBAGE)
    {
      static const guint8 junk[] = "\x13\x37garbage on the wire, not a frame\xff\xfe";
      send_until (c->sock, junk, sizeof junk, after_ms (board.idle_ms));
    }
  else if (board.fault == FAULT_HANG)
    {
      /* read on, answer nothing, until the client goes (or stays idle too long) */
      g_autoptr (GByteArray) sink = g_byte_array_new ();
      while (recv_until (c->sock, sink, 1, after_ms (board.idle_ms)) == NET_OK)
        g_byte_array_set_size (sink, 0);
    }
  return TRUE;
}

/* Serves the client's requests after its HELLO until CLOSE, a transport failure, garbage or
 * the idle time-out. */
static void
serve_session (Conn *c, Zg330BoardSession *session)
{
  for (;;)
    {
      g_autoptr (GByteArray) payload = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *why = NULL;
      Zg330WireHeader h = { 0 };
      Zg330WireRequest req;
      Zg330WireReply rep = { 0 };
      NetStatus st = recv_frame (c->sock, after_ms (board.idle_ms), ZG330_WIRE_MAX_PAYLOAD, &h, &payload, &why);

      if (st == NET_GARBAGE)
        {
          /* garbage: say so and end the session (the stream cannot be resynchronised) */
          refuse (c, ZG330_WIRE_ERROR, 0, XRT_ERROR_DEVICE, why);
          return;
        }
      if (st == NET_TIMEOUT && board.verbose)
        g_printerr (_("zhuge-board: %s idle for %u ms: session ended\n"), c->who, board.idle_ms);
      if (st != NET_OK || inject_fault (c))
        return;
      if (!zg330_wire_decode_request (h.type, payload->data, payload->len, &req, &error))
        {
          rep.type = ZG330_WIRE_ERROR;
          rep.code = XRT_ERROR_DEVICE;
          rep.message = g_strdup (error->message);
        }
      else if (req.type == ZG330_WIRE_ICORE_CALC)
        {
          if (board.fault == FAULT_DIE && (guint) g_atomic_int_add (&board.icore_count, 1) + 1 == board.fault_at)
            {
              /* killed mid-forward, as `kill -9` would */
              fflush (stdout);
              raise (SIGKILL);
            }
          if (!run_launch (c->sock, h.seq, session, &req, &rep))
            {
              if (board.verbose)
                g_printerr (_("zhuge-board: %s left during a launch: cancelled\n"), c->who);
              zg330_wire_request_clear (&req);
              zg330_wire_reply_clear (&rep);
              return;
            }
        }
      else
        zg330_board_session_handle (session, &req, &rep);
      zg330_wire_request_clear (&req);
      /* the board is free as soon as CLOSE is answered: the next client need not wait */
      if (zg330_board_session_closed (session))
        {
          g_mutex_lock (&board.lock);
          if (board.holder_id == c->id)
            {
              board.holder_id = 0;
              g_clear_pointer (&board.holder, g_free);
            }
          g_mutex_unlock (&board.lock);
        }
      if (!send_reply (c->sock, h.type, h.seq, &rep))
        {
          zg330_wire_reply_clear (&rep);
          return;
        }
      zg330_wire_reply_clear (&rep);
      if (zg330_board_session_closed (session))
        return;
    }
}

/* A connection: its HELLO (whole, within the handshake time, with the token when the board
 * has one), then the board if no one else holds it, else BUSY naming who does. */
static void
serve (Conn *c)
{
  g_autoptr (GByteArray) payload = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *why = NULL;
  g_autofree char *busy = NULL;
  g_autoptr (Zg330BoardSession) session = NULL;
  Zg330WireHeader h = { 0 };
  Zg330WireRequest req;
  Zg330WireReply rep = { 0 };
  NetStatus st = recv_frame (c->sock, after_ms (board.handshake_ms), ZG330_WIRE_MAX_HELLO, &h, &payload, &why);

  if (st == NET_TIMEOUT)
    {
      g_autofree char *msg = g_strdup_printf ("no HELLO within %u ms", board.handshake_ms);
      if (board.verbose)
        g_printerr (_("zhuge-board: %s refused: no HELLO within %u ms\n"), c->who, board.handshake_ms);
      refuse (c, ZG330_WIRE_ERROR, 0, XRT_ERROR_TIMEOUT, msg);
      return;
    }
  if (st == NET_GARBAGE)
    {
      refuse (c, ZG330_WIRE_ERROR, 0, XRT_ERROR_DEVICE, why);
      return;
    }
  if (st != NET_OK || inject_fault (c))
    return;
  if (h.type != ZG330_WIRE_HELLO)
    {
      g_autofree char *msg = g_strdup_printf ("%s: the session has not begun (HELLO first)",
                                              zg330_wire_type_to_string (h.type));
      refuse (c, ZG330_WIRE_ERROR, h.seq, XRT_ERROR_DEVICE, msg);
      return;
    }
  if (!zg330_wire_decode_request (h.type, payload->data, payload->len, &req, &error))
    {
      refuse (c, ZG330_WIRE_ERROR, h.seq, XRT_ERROR_DEVICE, error->message);
      return;
    }
  if (board.token != NULL && !zg330_wire_token_equal (board.token, req.token))
    {
      if (board.verbose)
        g_printerr (req.token ? _("zhuge-board: %s refused: a wrong token\n") : _("zhuge-board: %s refused: no token\n"),
                    c->who);
      refuse (c, ZG330_WIRE_ERROR, h.seq, XRT_ERROR_DEVICE,
              req.token ? "hello: the token does not match the board's (--token-file)"
                        : "hello: this board wants a token (the URL's ?token-file=FILE or $ZHUGE_BOARD_TOKEN_FILE)");
      zg330_wire_request_clear (&req);
      return;
    }
  g_mutex_lock (&board.lock);
  if (board.holder_id != 0)
    busy = g_strdup_printf (_("the %s board serves another client: %s"), board.kind, board.holder);
  else
    {
      board.holder_id = c->id;
      board.holder = g_strdup_printf ("%s from %s (connection %d)", req.name && req.name[0] ? req.name : "?", c->who,
                                      c->id);
      /* printable ASCII only: the name is the client's */
      for (char *p = board.holder; *p; p++)
        if (!g_ascii_isprint (*p))
          *p = '?';
    }
  g_mutex_unlock (&board.lock);
  if (busy != NULL)
    {
      if (board.verbose)
        g_printerr (_("zhuge-board: %s refused: busy\n"), c->who);
      zg330_wire_request_clear (&req);
      refuse (c, ZG330_WIRE_BUSY, h.seq, 0, busy);
      return;
    }
  if (board.verbose)
    g_printerr (_("zhuge-board: %s connected\n"), c->who);
  session = zg330_board_session_new (board.kind, board.profile);
  zg330_board_session_handle (session, &req, &rep);
  zg330_wire_request_clear (&req);
  if (send_reply (c->sock, h.type, h.seq, &rep) && rep.type == ZG330_WIRE_HELLO)
    serve_session (c, session);
  zg330_wire_reply_clear (&rep);
  g_mutex_lock (&board.lock);
  if (board.holder_id == c->id)
    {
      board.holder_id = 0;
      g_clear_pointer (&board.holder, g_free);
    }
  g_mutex_unlock (&board.lock);
}

static gpointer
conn_thread (gpointer data)
{
  Conn *c = data;

  serve (c);
  g_io_stream_close (G_IO_STREAM (c->conn), NULL, NULL);
  if (board.verbose)
    g_printerr (_("zhuge-board: %s gone\n"), c->who);
  g_object_unref (c->conn);
  g_free (c->who);
  g_free (c);
  g_atomic_int_add (&board.n_conns, -1);
  return NULL;
}

/* A connection past --max-clients (on the main loop): no thread for it, but a BUSY naming the
 * limit and who holds the board, ended as refuse() ends one (zhuge-board-door.c). */
static void
refuse_at_door (GSocketConnection *conn)
{
  Zg330WireReply rep = { .type = ZG330_WIRE_BUSY };
  g_autofree char *limit = g_strdup_printf (ngettext ("the %s board serves %u connection, its limit",
                                                      "the %s board serves %u connections, its limit",
                                                      board.max_clients),
                                            board.kind, board.max_clients);
  g_autoptr (GByteArray) out = NULL;
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  guint16 frame_type;
  gboolean draining;

  g_mutex_lock (&board.lock);
  rep.message = board.holder != NULL ? g_strdup_printf (_("%s; the board is held by %s"), limit, board.holder)
                                     : g_strdup (limit);
  g_mutex_unlock (&board.lock);
  out = zg330_board_encode_reply (0, &rep, &frame_type);
  zg330_wire_header_encode (head, frame_type, 0, out->len);
  g_byte_array_append (frame, head, sizeof head);
  g_byte_array_append (frame, out->data, out->len);
  zg330_wire_reply_clear (&rep);
  draining = board_door_refuse (board.door, conn, frame->data, frame->len);
  if (board.verbose)
    {
      g_printerr (ngettext ("zhuge-board: a connection refused: %u connection open\n",
                            "zhuge-board: a connection refused: %u connections open\n", board.max_clients),
                  board.max_clients);
      if (!draining)
        g_printerr (ngettext ("zhuge-board: closed at once: %u refused connection drains already\n",
                              "zhuge-board: closed at once: %u refused connections drain already\n", DOOR_MAX_DRAINING),
                    DOOR_MAX_DRAINING);
    }
}

/* A new connection (on the main loop): its own thread, or refused at once when the board
 * serves as many connections as it takes. */
static gboolean
on_incoming (GSocketService *service, GSocketConnection *conn, GObject *source, gpointer data)
{
  g_autoptr (GSocketAddress) peer = g_socket_connection_get_remote_address (conn, NULL);
  g_autoptr (GError) error = NULL;
  GSocket *sock = g_socket_connection_get_socket (conn);
  GThread *thread;
  Conn *c;

  (void) service;
  (void) source;
  (void) data;
  g_socket_set_blocking (sock, FALSE);
  if ((guint) g_atomic_int_add (&board.n_conns, 1) >= board.max_clients)
    {
      g_atomic_int_add (&board.n_conns, -1);
      refuse_at_door (conn);
      return TRUE;
    }
  g_socket_set_option (sock, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  c = g_new0 (Conn, 1);
  c->conn = g_object_ref (conn);
  c->sock = sock;
  c->id = g_atomic_int_add (&board.sessions, 1) + 1;
  if (peer != NULL && G_IS_INET_SOCKET_ADDRESS (peer))
    {
      g_autofree char *ip = g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (peer)));
      c->who = g_strdup_printf ("%s:%u", ip, g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (peer)));
    }
  else
    c->who = g_strdup ("?");
  thread = g_thread_try_new ("board-conn", conn_thread, c, &error);
  if (thread == NULL)
    {
      g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
      g_object_unref (c->conn);
      g_free (c->who);
      g_free (c);
      g_atomic_int_add (&board.n_conns, -1);
      return TRUE;
    }
  g_thread_unref (thread);
  return TRUE;
}

/* ---- main ---------------------------------------------------------------------------- */

static gboolean
on_quit (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
parse_fault (const char *text, GError **error)
{
  static const char *const names[] = { "", "die", "hang", "garbage", "drop" };
  const char *at = strchr (text, '@');
  guint64 n = 0;

  for (guint k = 1; at != NULL && k < G_N_ELEMENTS (names); k++)
    if (strncmp (text, names[k], (gsize) (at - text)) == 0 && strlen (names[k]) == (gsize) (at - text)
        && g_ascii_string_to_unsigned (at + 1, 10, 1, G_MAXUINT, &n, NULL))
      {
        board.fault = k;
        board.fault_at = (guint) n;
        return TRUE;
      }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--fault %s: expected KIND@N with KIND die, hang, garbage or drop and N >= 1"), text);
  return FALSE;
}

int
main (int argc, char **argv)
{
  g_autofree char *listen = NULL, *kind = NULL, *profile_path = NULL, *fault = NULL;
  g_autofree char *token_file = NULL;
  gint exit_after = 0, max_clients = 16, handshake_ms = 5000, idle_s = 300;
  gboolean verbose = FALSE;
  g_autoptr (GOptionContext) ctx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  g_autoptr (GSocketAddress) address = NULL;
  g_autoptr (GSocketAddress) effective = NULL;
  g_autoptr (GSocketService) service = NULL;
  g_autofree char *host = NULL;
  guint16 port = 0;
  GOptionEntry entries[] = {
    { "listen", 'l', 0, G_OPTION_ARG_STRING, &listen,
      N_("Listen on ADDR:PORT (default 127.0.0.1:5001; port 0 picks a free one)"), N_("ADDR:PORT") },
    { "board", 'b', 0, G_OPTION_ARG_STRING, &kind, N_("The board to serve: zg330 (default) or buyi"), N_("KIND") },
    { "profile", 'p', 0, G_OPTION_ARG_FILENAME, &profile_path,
      N_("The board's device profile file (default: the board's own, data/devices/KIND.json)"), N_("FILE") },
    { "exit-after", 0, 0, G_OPTION_ARG_INT, &exit_after, N_("Stop serving after SECONDS (0: never)"), N_("SECONDS") },
    { "fault", 0, 0, G_OPTION_ARG_STRING, &fault,
      N_("Misbehave on purpose: die@N (killed at the Nth launch), hang@N, garbage@N or drop@N (at the Nth request "
         "of the process)"), N_("KIND@N") },
    { "token-file", 0, 0, G_OPTION_ARG_FILENAME, &token_file,
      N_("A shared token (one line of a regular file) that every client's HELLO must present; needed to listen on "
         "an address other than loopback"), N_("FILE") },
    { "max-clients", 0, 0, G_OPTION_ARG_INT, &max_clients,
      N_("Connections served at once, each on its own thread (default 16); more are refused at once"), N_("N") },
    { "handshake-timeout", 0, 0, G_OPTION_ARG_INT, &handshake_ms,
      N_("A client's HELLO must arrive whole within MS milliseconds of connecting (default 5000)"), N_("MS") },
    { "idle-timeout", 0, 0, G_OPTION_ARG_INT, &idle_s,
      N_("A session ends when a request does not arrive whole (or a reply is not taken) within SECONDS "
         "(default 300)"), N_("SECONDS") },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, N_("Log connections on stderr"), NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, zw_locale_dir (LOCALEDIR));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  ctx = g_option_context_new (_("— serve a simulated ZG330 or Buyi board over TCP"));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx,
    _("NAME\n"
      "  zhuge-board — a simulated board that runtimes open as socket://NAME@HOST:PORT\n"
      "\n"
      "SYNOPSIS\n"
      "  zhuge-board [--listen ADDR:PORT] [--board zg330|buyi] [--profile FILE]\n"
      "\n"
      "DESCRIPTION\n"
      "  Serves one simulated board (ETM, OCM, registers, the hardop models and the timing\n"
      "  model of mock://) over TCP with the versioned board protocol of\n"
      "  devices/zg330-wire.h. A runtime opens it as socket://zg330@127.0.0.1:5001 (xrt-run\n"
      "  run NET --device URL, the C API, the Python API): outputs are bit-identical and\n"
      "  simulated times identical to the same run on mock://. One client at a time: others\n"
      "  are told the board is busy. Every session starts from a board fresh from power-on.\n"
      "  The board listens on 127.0.0.1 unless another address is given explicitly."));
  g_option_context_set_description (ctx,
    _("EXIT STATUS\n"
      "  0 after --exit-after or a SIGINT/SIGTERM, 1 when the address cannot be served or the\n"
      "  profile does not load, 2 for a wrong command line.\n"
      "\n"
      "EXAMPLES\n"
      "  zhuge-board --listen 127.0.0.1:5001 &\n"
      "  xrt-run run yolov5s_ZG.json --device socket://zg330@127.0.0.1:5001 --profile\n"
      "  zhuge-board --board buyi --listen 127.0.0.1:0     # prints the port it chose\n"
      "\n"
      "SEE ALSO\n"
      "  xrt-run(1); the protocol: runtime/devices/zg330-wire.h"));
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("zhuge-board: %s\n", error->message);
      return 2;
    }
  if (argc > 1)
    {
      g_printerr (_("zhuge-board: unexpected argument “%s”\n"), argv[1]);
      return 2;
    }
  board.kind = g_ascii_strdown (kind ? kind : "zg330", -1);
  board.verbose = verbose;
  if (strcmp (board.kind, "zg330") != 0 && strcmp (board.kind, "buyi") != 0)
    {
      g_printerr (_("zhuge-board: --board %s: the boards are zg330 and buyi\n"), board.kind);
      return 2;
    }
  if (fault != NULL && !parse_fault (fault, &error))
    {
      g_printerr ("zhuge-board: %s\n", error->message);
      return 2;
    }
  if (exit_after < 0)
    {
      g_printerr (_("zhuge-board: --exit-after must be >= 0\n"));
      return 2;
    }
  if (max_clients < 1 || max_clients > 1024 || handshake_ms < 1 || idle_s < 1)
    {
      g_printerr (_("zhuge-board: --max-clients must be 1 to 1024, --handshake-timeout and --idle-timeout >= 1\n"));
      return 2;
    }
  board.max_clients = (guint) max_clients;
  board.handshake_ms = (guint) handshake_ms;
  board.idle_ms = (guint) MIN (idle_s, 86400) * 1000u;
  if (token_file != NULL && !zg330_wire_read_token (token_file, &board.token, &error))
    {
      g_printerr ("zhuge-board: --token-file: %s\n", error->message);
      return 2;
    }
  board.profile = profile_path ? zg330_profile_load (profile_path, &error) : zg330_profile_load_named (board.kind, &error);
  if (board.profile == NULL)
    {
      g_printerr ("zhuge-board: %s\n", error->message);
      return 1;
    }

  {
    g_autoptr (GSocketConnectable) parsed = g_network_address_parse (listen ? listen : "127.0.0.1:5001", 5001, &error);
    g_autoptr (GInetAddress) inet = NULL;
    if (parsed != NULL)
      {
        host = g_strdup (g_network_address_get_hostname (G_NETWORK_ADDRESS (parsed)));
        port = g_network_address_get_port (G_NETWORK_ADDRESS (parsed));
        inet = g_inet_address_new_from_string (host);
        if (inet == NULL)
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("“%s” is not a numeric address"), host);
        else if (!g_inet_address_get_is_loopback (inet) && board.token == NULL)
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                       _("“%s” is not a loopback address: a board reachable from other hosts needs --token-file"),
                       host);
        else
          address = g_inet_socket_address_new (inet, port);
      }
    if (address == NULL)
      {
        g_printerr (_("zhuge-board: --listen %s: %s\n"), listen ? listen : "127.0.0.1:5001", error->message);
        return 2;
      }
  }
  service = g_socket_service_new ();
  /* a storm of connections waits in the kernel for the main loop (GIO's default of 10 makes
   * the 11th connect wait for a SYN resent a second later) */
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (service), 128);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL, &effective, &error))
    {
      g_printerr (_("zhuge-board: cannot listen on %s:%u: %s\n"), host, port, error->message);
      return 1;
    }
  board.door = board_door_new (DOOR_MAX_DRAINING, DOOR_DRAIN_MS, DOOR_DRAIN_BYTES);
  g_signal_connect (service, "incoming", G_CALLBACK (on_incoming), NULL);
  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGINT, on_quit, loop);
  g_unix_signal_add (SIGTERM, on_quit, loop);
  if (exit_after > 0)
    g_timeout_add_seconds ((guint) exit_after, on_quit, loop);
  g_socket_service_start (service);
  /* scripts and tests read the port from this line */
  printf ("zhuge-board: serving %s on %s:%u\n", board.kind, host,
          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective)));
  fflush (stdout);
  g_main_loop_run (loop);
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  board_door_free (board.door);
  /* connections still served keep the board's profile: they end with the process */
  for (guint i = 0; i < 100 && g_atomic_int_get (&board.n_conns) > 0; i++)
    g_usleep (10000);
  if (g_atomic_int_get (&board.n_conns) == 0)
    {
      zg330_profile_free (board.profile);
      g_free (board.kind);
    }
  g_free (board.token);
  return 0;
}
