/* test-board-server.c — zhuge-board as a lab's board server (issue 33 item 1): each finding
 * a hostile or careless client made, against a live zhuge-board on a loopback port, bounded in
 * time and in connections.  A connection storm, a client that never speaks, clients that
 * trickle a byte a second, too many connections, BUSY naming who holds the board, a launch
 * cancelled when its client leaves, a reply past the protocol's bounds, a fake board that
 * answers with PROGRESS only, and the shared token. */
#include "devices/zg330-sim.h"
#include "devices/zg330-wire.h"
#include "zw-test-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- raw clients --------------------------------------------------------------------- */

static GSocketConnection *
raw_connect (guint port)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", port);
  GSocketConnection *conn;

  g_socket_client_set_enable_proxy (client, FALSE);
  conn = g_socket_client_connect_to_host (client, where, port, NULL, &error);
  g_assert_no_error (error);
  g_socket_set_timeout (g_socket_connection_get_socket (conn), 20);
  return conn;
}

static void
raw_send (GSocketConnection *conn, guint16 type, guint32 seq, const guint8 *payload, guint32 length)
{
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  g_autoptr (GError) error = NULL;

  zg330_wire_header_encode (head, type, seq, length);
  g_assert_true (g_output_stream_write_all (out, head, sizeof head, NULL, NULL, &error));
  if (length > 0)
    g_assert_true (g_output_stream_write_all (out, payload, length, NULL, NULL, &error));
  g_assert_no_error (error);
}

/* Reads one frame; FALSE at the end of the stream (or a reset). */
static gboolean
raw_recv (GSocketConnection *conn, Zg330WireHeader *h, GBytes **payload)
{
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  g_autofree guint8 *body = NULL;
  gsize got = 0;

  if (!g_input_stream_read_all (in, head, sizeof head, &got, NULL, NULL) || got != sizeof head)
    return FALSE;
  g_assert_true (zg330_wire_header_decode (head, h, NULL));
  body = g_malloc (MAX (h->length, 1));
  if (!g_input_stream_read_all (in, body, h->length, &got, NULL, NULL) || got != h->length)
    return FALSE;
  if (payload)
    *payload = g_bytes_new (body, h->length);
  return TRUE;
}

static gboolean
bytes_have (GBytes *b, const char *text)
{
  return memmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), text, strlen (text)) != NULL;
}

static void
raw_hello (GSocketConnection *conn)
{
  Zg330WireRequest req = { .type = ZG330_WIRE_HELLO, .version = ZG330_WIRE_VERSION, .name = (char *) "raw" };
  g_autoptr (GByteArray) p = zg330_wire_encode_request (&req);
  Zg330WireHeader h;

  raw_send (conn, ZG330_WIRE_HELLO, 1, p->data, p->len);
  g_assert_true (raw_recv (conn, &h, NULL));
  g_assert_cmpuint (h.type, ==, ZG330_WIRE_HELLO | ZG330_WIRE_REPLY);
}

/* Opens @url, retrying for up to @seconds while the board is busy; the device or NULL. */
static XrtDevice *
open_within (const char *url, guint seconds, GError **error)
{
  gint64 until = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr (GError) local = NULL;
      XrtDevice *d = xrt_device_open (url, &local);
      if (d != NULL)
        return d;
      if (g_get_monotonic_time () > until || strstr (local->message, "busy") == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_usleep (20000);
    }
}

/* The board answers: a device opens and reads its version register. */
static void
assert_serves (ZwBoard *board, guint seconds)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = open_within (board->url, seconds, &error);
  guint32 v = 0;

  g_assert_no_error (error);
  g_assert_true (xrt_device_read_reg (dev, ZG330_REG_VERSION, &v, &error));
  g_assert_no_error (error);
  g_assert_cmphex (v, !=, 0);
  xrt_device_close (dev);
}

static gboolean
board_alive (ZwBoard *board)
{
  return g_subprocess_get_identifier (board->proc) != NULL;
}

/* ---- connections ------------------------------------------------------------------------ */

/* 50 connections opened and closed at once, several rounds: the board lives (it died in GIO
 * with SIGSEGV in round 1-2) and serves a client after each round. */
static void
test_storm (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);

  if (board == NULL)
    return;
  for (guint round = 0; round < 5; round++)
    {
      GSocketConnection *conns[50];
      for (guint i = 0; i < G_N_ELEMENTS (conns); i++)
        conns[i] = raw_connect (board->port);
      /* half say HELLO's header only, half nothing; all go at once */
      for (guint i = 0; i < G_N_ELEMENTS (conns); i += 2)
        {
          guint8 head[ZG330_WIRE_HEADER_BYTES];
          zg330_wire_header_encode (head, ZG330_WIRE_HELLO, 1, 40);
          g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (conns[i])), head, sizeof head, NULL,
                                     NULL, NULL);
        }
      for (guint i = 0; i < G_N_ELEMENTS (conns); i++)
        {
          g_io_stream_close (G_IO_STREAM (conns[i]), NULL, NULL);
          g_object_unref (conns[i]);
        }
      g_assert_true (board_alive (board));
      assert_serves (board, 20);
    }
  g_assert_true (board_alive (board));
}

/* A client that connects and never speaks does not hold the board (a session begins at its
 * HELLO) and is let go after the handshake time. */
static void
test_silent_client (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", "--handshake-timeout", "400", NULL);
  g_autoptr (GSocketConnection) silent = NULL;
  Zg330WireHeader h;
  g_autoptr (GBytes) payload = NULL;
  gint64 t0;

  if (board == NULL)
    return;
  silent = raw_connect (board->port);
  assert_serves (board, 1);
  /* the board says why and ends the connection */
  t0 = g_get_monotonic_time ();
  g_assert_true (raw_recv (silent, &h, &payload));
  g_assert_cmpuint (h.type, ==, ZG330_WIRE_ERROR);
  g_assert_true (bytes_have (payload, "no HELLO within 400 ms"));
  g_assert_false (raw_recv (silent, &h, NULL));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
}

/* Clients that trickle their HELLO a byte a second, more than the board has threads for
 * them: they are cut at the handshake time, a normal client gets the board meanwhile, and
 * closing them all does not hurt the board. */
static void
test_trickling_clients (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", "--handshake-timeout", "1500", "--max-clients", "6", NULL);
  GSocketConnection *slow[10];
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  guint cut = 0;

  if (board == NULL)
    return;
  zg330_wire_header_encode (head, ZG330_WIRE_HELLO, 1, 10);
  for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
    slow[i] = raw_connect (board->port);
  for (guint s = 0; s < 4; s++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
        if (!g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (slow[i])), head + s, 1, NULL, NULL,
                                        NULL))
          cut++;
      g_usleep (G_USEC_PER_SEC);
    }
  /* the connections past --max-clients were refused at once, the others cut after 1.5 s */
  for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
    {
      Zg330WireHeader h;
      gboolean any = FALSE;
      while (raw_recv (slow[i], &h, NULL))
        any = TRUE;
      (void) any;
    }
  assert_serves (board, 5);
  for (guint i = 0; i < G_N_ELEMENTS (slow); i++)
    {
      g_io_stream_close (G_IO_STREAM (slow[i]), NULL, NULL);
      g_object_unref (slow[i]);
    }
  g_assert_true (board_alive (board));
  assert_serves (board, 5);
  (void) cut;
}

/* A board started with the five arguments whose stderr goes to a temporary file (*@log_path):
 * what --verbose logs.  NULL (the file removed) when boards cannot be started. */
static ZwBoard *
board_start_logged (char **log_path, const char *a1, const char *a2, const char *a3, const char *a4, const char *a5)
{
  g_autoptr (GError) error = NULL;
  int log_fd = g_file_open_tmp ("zw-board-log-XXXXXX", log_path, &error), saved = dup (2);
  ZwBoard *board;

  g_assert_no_error (error);
  g_assert_cmpint (saved, >=, 0);
  g_assert_cmpint (dup2 (log_fd, 2), ==, 2);
  board = zw_test_board_start ("zg330", a1, a2, a3, a4, a5, NULL);
  g_assert_cmpint (dup2 (saved, 2), ==, 2);
  close (saved);
  close (log_fd);
  if (board == NULL)
    g_unlink (*log_path);
  return board;
}

/* More connections than --max-clients (1 and 4): the extra ones are told so at once, in
 * words that agree with the count (the BUSY reply, and the line --verbose logs on the
 * board's stderr, caught in a file the board inherits), and the board serves again once
 * they go. */
static void
test_connection_limit (void)
{
  static const struct { const char *limit; guint n; const char *says, *logs; } cases[] = {
    { "1", 1, "the zg330 board serves 1 connection, its limit", "a connection refused: 1 connection open\n" },
    { "4", 4, "the zg330 board serves 4 connections, its limit", "a connection refused: 4 connections open\n" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (ZwBoard) board = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *log_path = NULL, *log = NULL;
      GSocketConnection *held[4];
      g_autoptr (GSocketConnection) extra = NULL;
      g_autoptr (GBytes) payload = NULL;
      Zg330WireHeader h;

      board = board_start_logged (&log_path, "--max-clients", cases[k].limit, "--handshake-timeout", "800", "--verbose");
      if (board == NULL)
        return;
      for (guint i = 0; i < cases[k].n; i++)
        held[i] = raw_connect (board->port);
      g_usleep (200000);
      extra = raw_connect (board->port);
      g_assert_true (raw_recv (extra, &h, &payload));
      g_assert_cmpuint (h.type, ==, ZG330_WIRE_BUSY);
      if (!bytes_have (payload, cases[k].says))
        g_error ("BUSY of a board of %u: no \"%s\" in %.*s", cases[k].n, cases[k].says,
                 (int) g_bytes_get_size (payload), (const char *) g_bytes_get_data (payload, NULL));
      g_assert_false (bytes_have (payload, cases[k].n == 1 ? "connections" : "connection,"));
      for (guint i = 0; i < cases[k].n; i++)
        g_object_unref (held[i]);
      assert_serves (board, 10);
      g_clear_pointer (&board, zw_test_board_stop);   /* its stderr is complete */
      g_assert_true (g_file_get_contents (log_path, &log, NULL, &error));
      g_assert_no_error (error);
      if (strstr (log, cases[k].logs) == NULL)
        g_error ("the board of %u logged no \"%s\": %s", cases[k].n, cases[k].logs, log);
      g_unlink (log_path);
    }
}

/* The client's end of a refused connection: the end of the stream, not a reset. */
static void
assert_clean_end (GSocketConnection *conn, guint i)
{
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
  g_autoptr (GError) error = NULL;
  guint8 byte;
  gssize k = g_input_stream_read (in, &byte, 1, NULL, &error);

  if (k != 0)
    g_error ("refused connection %u: %s after BUSY, not the end of the stream", i,
             error ? error->message : "more bytes");
}

/* A board at --max-clients 2 (one connection holding its session, one silent): every client
 * past the limit reads BUSY naming the limit and the holder, then a clean end of the stream,
 * though it sent its HELLO (and some sent 8 KiB more) before the board read a byte of it: 5
 * rounds of 20 at once, then 10 opens through the runtime (which said "closed the connection"
 * when the board closed without reading).  Bounded: 60 s at most. */
static void
test_limit_busy_every_time (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", "--max-clients", "2", "--handshake-timeout", "60000",
                                                   NULL);
  g_autoptr (GSocketConnection) silent = NULL;
  g_autoptr (GSocketConnection) holder = NULL;
  gint64 t0 = g_get_monotonic_time ();
  guint8 extra[8192];

  if (board == NULL)
    return;
  memset (extra, 0x5a, sizeof extra);
  /* accepted in order: once the holder's HELLO is answered the silent one is served too */
  silent = raw_connect (board->port);
  holder = raw_connect (board->port);
  raw_hello (holder);
  for (guint round = 0; round < 5; round++)
    {
      GSocketConnection *late[20];
      for (guint i = 0; i < G_N_ELEMENTS (late); i++)
        {
          g_autofree char *name = g_strdup_printf ("late %u.%u", round, i);
          Zg330WireRequest req = { .type = ZG330_WIRE_HELLO, .version = ZG330_WIRE_VERSION, .name = name };
          g_autoptr (GByteArray) p = zg330_wire_encode_request (&req);

          late[i] = raw_connect (board->port);
          raw_send (late[i], ZG330_WIRE_HELLO, 1, p->data, p->len);
          if (i % 2 == 1)
            g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (late[i])), extra,
                                                      sizeof extra, NULL, NULL, NULL));
        }
      for (guint i = 0; i < G_N_ELEMENTS (late); i++)
        {
          g_autoptr (GBytes) payload = NULL;
          Zg330WireHeader h;

          if (!raw_recv (late[i], &h, &payload))
            g_error ("round %u, connection %u past the limit: no BUSY (the connection ended first)", round, i);
          g_assert_cmpuint (h.type, ==, ZG330_WIRE_BUSY);
          if (!bytes_have (payload, "the zg330 board serves 2 connections, its limit; the board is held by raw from "
                                    "127.0.0.1:"))
            g_error ("round %u, connection %u: BUSY says %.*s", round, i, (int) g_bytes_get_size (payload),
                     (const char *) g_bytes_get_data (payload, NULL));
          assert_clean_end (late[i], i);
          g_object_unref (late[i]);
        }
    }
  for (guint i = 0; i < 10; i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (xrt_device_open (board->url, &error));
      g_assert_nonnull (error);
      if (strstr (error->message, "is busy with another client") == NULL || strstr (error->message, "its limit") == NULL)
        g_error ("open %u past the limit: %s", i, error->message);
    }
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 60 * G_USEC_PER_SEC);
  g_assert_true (board_alive (board));
  g_clear_object (&holder);
  g_clear_object (&silent);
  assert_serves (board, 10);
}

/* More refused connections than drain at once (64): those past it are closed at once (said on
 * the board's stderr), each still reads its BUSY (it sent nothing, so the close is clean), and
 * the board serves once they go. */
static void
test_limit_drains_bounded (void)
{
  g_autofree char *log_path = NULL, *log = NULL;
  g_autoptr (ZwBoard) board = board_start_logged (&log_path, "--max-clients", "1", "--handshake-timeout", "60000",
                                                  "--verbose");
  g_autoptr (GSocketConnection) holder = NULL;
  g_autoptr (GError) error = NULL;
  GSocketConnection *late[80];

  if (board == NULL)
    return;
  holder = raw_connect (board->port);
  raw_hello (holder);   /* the board's one connection is served */
  for (guint i = 0; i < G_N_ELEMENTS (late); i++)
    late[i] = raw_connect (board->port);
  for (guint i = 0; i < G_N_ELEMENTS (late); i++)
    {
      Zg330WireHeader h;
      if (!raw_recv (late[i], &h, NULL))
        g_error ("connection %u past the limit: no BUSY", i);
      g_assert_cmpuint (h.type, ==, ZG330_WIRE_BUSY);
    }
  for (guint i = 0; i < G_N_ELEMENTS (late); i++)
    g_object_unref (late[i]);
  g_clear_object (&holder);
  assert_serves (board, 10);
  g_clear_pointer (&board, zw_test_board_stop);   /* its stderr is complete */
  g_assert_true (g_file_get_contents (log_path, &log, NULL, &error));
  g_assert_no_error (error);
  if (strstr (log, "closed at once: 64 refused connections drain already\n") == NULL)
    g_error ("80 connections refused at once: the board logged no closing past 64 draining: %s", log);
  g_unlink (log_path);
}

/* BUSY names the client that holds the board. */
static void
test_busy_names_holder (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (XrtDevice) first = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *holder = NULL;

  if (board == NULL)
    return;
  first = xrt_device_open (board->url, &error);
  g_assert_no_error (error);
  holder = g_strdup_printf ("serves another client: %s from 127.0.0.1:", board->url);
  g_assert_null (xrt_device_open (board->url, &error));
  g_assert_nonnull (strstr (error->message, "busy"));
  g_assert_nonnull (strstr (error->message, holder));
  xrt_device_close (first);
}

/* ---- launches ---------------------------------------------------------------------------- */

/* A launch of @n reshape calls of 32 MiB each (ETM to ETM): valid and long (seconds per
 * hundred calls). */
static GByteArray *
long_launch (guint n, guint64 etm_base)
{
  Zg330WireRequest req = { .type = ZG330_WIRE_ICORE_CALC, .addr = etm_base + (1u << 20), .size = 16 * (guint64) n };
  GByteArray *p;

  req.bindings = g_array_new (FALSE, TRUE, sizeof (Zg330WireBinding));
  for (guint i = 0; i < n; i++)
    {
      Zg330WireBinding b = { req.addr + 16 * (guint64) i, 16, FALSE, TRUE, { 0 } };
      Zg330CallTensor t = { .v_id = 1, .layout = ZG330_KERNEL_LAYOUT_NHWC, .dtype = ZG330_KERNEL_DTYPE_SINT8,
                            .n = 1, .c = 1, .h = 4096, .w = 8192, .size = 32u << 20, .region = ZG330_CALL_ETM,
                            .addr = etm_base + (256u << 20) };
      b.call.op_id = i;
      b.call.kind = ZG330_HARDOP_RESHAPE;
      b.call.work.layer_count = 1;
      b.call.n_inputs = 1;
      b.call.inputs[0] = t;
      b.call.output = t;
      b.call.output.v_id = 2;
      b.call.output.addr = etm_base + (512u << 20);
      g_array_append_val (req.bindings, b);
    }
  p = zg330_wire_encode_request (&req);
  g_array_unref (req.bindings);
  return p;
}

/* A client that starts a long launch and resets 0.3 s in has its launch cancelled: the board
 * is free again in seconds, not after the launch's minutes. */
static void
test_launch_cancelled_when_client_leaves (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (Zg330Profile) profile = zg330_profile_load_named ("zg330", NULL);
  g_autoptr (GByteArray) launch = NULL;
  GSocketConnection *conn;
  Zg330WireHeader h;
  gint64 t0;

  if (board == NULL)
    return;
  g_assert_nonnull (profile);
  launch = long_launch (4096, profile->etm_base);
  conn = raw_connect (board->port);
  raw_hello (conn);
  raw_send (conn, ZG330_WIRE_ICORE_CALC, 2, launch->data, launch->len);
  /* the launch runs: PROGRESS frames come */
  g_assert_true (raw_recv (conn, &h, NULL));
  g_assert_cmpuint (h.type, ==, ZG330_WIRE_PROGRESS);
  g_usleep (300000);
  /* a reset, as a killed client's */
  {
    struct linger linger = { 1, 0 };
    setsockopt (g_socket_get_fd (g_socket_connection_get_socket (conn)), SOL_SOCKET, SO_LINGER, &linger,
                sizeof linger);
  }
  t0 = g_get_monotonic_time ();
  g_object_unref (conn);
  assert_serves (board, 20);
  g_test_message ("board free %.2f s after its client left", (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 15 * G_USEC_PER_SEC);
}

/* Two zero-copy calls with work at the protocol's 2^56 bound: the launch's statistics (ETM
 * write 2^57) would not decode at the client, so the board never sends them: what it sends
 * decodes, an ERROR naming the bounds. */
static void
test_reply_within_bounds (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (Zg330Profile) profile = zg330_profile_load_named ("zg330", NULL);
  Zg330WireRequest req = { .type = ZG330_WIRE_ICORE_CALC };
  g_autoptr (GByteArray) p = NULL;
  g_autoptr (GSocketConnection) conn = NULL;
  g_autoptr (GBytes) payload = NULL;
  g_autoptr (GError) error = NULL;
  Zg330WireReply rep;
  Zg330WireHeader h;
  const guint64 bound = G_GUINT64_CONSTANT (1) << 56;

  if (board == NULL)
    return;
  req.addr = profile->etm_base + (1u << 20);
  req.size = 32;
  req.bindings = g_array_new (FALSE, TRUE, sizeof (Zg330WireBinding));
  for (guint i = 0; i < 2; i++)
    {
      Zg330WireBinding b = { req.addr + 16 * i, 16, FALSE, TRUE, { 0 } };
      b.call.kind = ZG330_HARDOP_CONCAT;
      b.call.zero_copy = TRUE;
      b.call.work = (Zg330OpWork) { .macs = bound, .etm_read_bytes = bound, .etm_write_bytes = bound,
                                    .ocm_read_bytes = bound, .ocm_write_bytes = bound, .layer_count = 1 };
      g_array_append_val (req.bindings, b);
    }
  p = zg330_wire_encode_request (&req);
  g_array_unref (req.bindings);
  conn = raw_connect (board->port);
  raw_hello (conn);
  raw_send (conn, ZG330_WIRE_ICORE_CALC, 2, p->data, p->len);
  do
    {
      g_clear_pointer (&payload, g_bytes_unref);
      g_assert_true (raw_recv (conn, &h, &payload));
    }
  while (h.type == ZG330_WIRE_PROGRESS);
  g_assert_true (zg330_wire_decode_reply (ZG330_WIRE_ICORE_CALC, h.type, g_bytes_get_data (payload, NULL),
                                          g_bytes_get_size (payload), &rep, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rep.type, ==, ZG330_WIRE_ERROR);
  g_assert_nonnull (strstr (rep.message, "outside the protocol's bounds"));
  zg330_wire_reply_clear (&rep);
}

/* ---- a fake board that answers with PROGRESS ----------------------------------------------- */

typedef struct {
  GSocketListener *listener;
  guint16 port;
  gboolean hello_ok;     /* answer HELLO properly, then PROGRESS for everything */
  GThread *thread;
  gint stop;
} FakeBoard;

static gpointer
fake_thread (gpointer data)
{
  FakeBoard *f = data;

  while (!g_atomic_int_get (&f->stop))
    {
      g_autoptr (GSocketConnection) conn = g_socket_listener_accept (f->listener, NULL, NULL, NULL);
      Zg330WireHeader h;
      g_autoptr (GBytes) payload = NULL;

      if (conn == NULL || g_atomic_int_get (&f->stop))
        break;
      g_socket_set_timeout (g_socket_connection_get_socket (conn), 60);
      while (raw_recv (conn, &h, NULL))
        {
          if (h.type == ZG330_WIRE_HELLO && f->hello_ok)
            {
              g_autoptr (Zg330Profile) profile = zg330_profile_load_named ("zg330", NULL);
              Zg330WireReply rep = { .type = ZG330_WIRE_HELLO, .version = ZG330_WIRE_VERSION, .board = g_strdup ("zg330"),
                                     .profile_json = zg330_profile_to_json (profile), .max_payload = ZG330_WIRE_MAX_PAYLOAD };
              g_autoptr (GByteArray) out = zg330_wire_encode_reply (ZG330_WIRE_HELLO, &rep);
              raw_send (conn, ZG330_WIRE_HELLO | ZG330_WIRE_REPLY, h.seq, out->data, out->len);
              zg330_wire_reply_clear (&rep);
              continue;
            }
          /* PROGRESS, forever (until the client goes) */
          for (;;)
            {
              guint8 head[ZG330_WIRE_HEADER_BYTES];
              zg330_wire_header_encode (head, ZG330_WIRE_PROGRESS, h.seq, 0);
              if (!g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (conn)), head, sizeof head,
                                              NULL, NULL, NULL) || g_atomic_int_get (&f->stop))
                break;
              g_usleep (50000);
            }
          break;
        }
    }
  return NULL;
}

static FakeBoard *
fake_start (gboolean hello_ok)
{
  FakeBoard *f = g_new0 (FakeBoard, 1);
  g_autoptr (GError) error = NULL;

  f->hello_ok = hello_ok;
  f->listener = g_socket_listener_new ();
  {
    g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
    g_autoptr (GSocketAddress) addr = g_inet_socket_address_new (lo, 0);
    g_autoptr (GSocketAddress) eff = NULL;
    g_assert_true (g_socket_listener_add_address (f->listener, addr, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
                                                  &eff, &error));
    f->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (eff));
  }
  f->thread = g_thread_new ("fake-board", fake_thread, f);
  return f;
}

static void
fake_stop (FakeBoard *f)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", f->port);

  g_atomic_int_set (&f->stop, 1);
  /* wake the accept */
  g_clear_object (&(GSocketConnection *) { g_socket_client_connect_to_host (client, where, f->port, NULL, NULL) });
  g_thread_join (f->thread);
  g_socket_listener_close (f->listener);
  g_object_unref (f->listener);
  g_free (f);
}

/* A fake board answering every request, HELLO included, with PROGRESS frames: opening it
 * fails at once (PROGRESS answers only a launch), the CLI too. */
static void
test_progress_only_board (void)
{
  FakeBoard *f = fake_start (FALSE);
  g_autofree char *url = g_strdup_printf ("socket://zg330@127.0.0.1:%u", f->port);
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  gint64 t0 = g_get_monotonic_time ();

  g_assert_null (xrt_device_open (url, &error));
  g_assert_nonnull (strstr (error->message, "progress frame for hello"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  if (net != NULL)
    {
      ZwRun run = { 0 };
      g_autofree char *net_path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
      const char *args[] = { "run", net_path, "--device", url, NULL };
      t0 = g_get_monotonic_time ();
      zw_test_xrt_run_bounded (&run, NULL, 60, args, NULL);
      g_assert_cmpint (run.status, !=, 0);
      g_assert_nonnull (strstr (run.err, "progress frame"));
      g_assert_cmpint (g_get_monotonic_time () - t0, <, 30 * G_USEC_PER_SEC);
      zw_run_clear (&run);
    }
  fake_stop (f);
}

static gboolean
prepare_zero_copy (XrtDevice *device, gpointer user_data, Zg330HardopCall *call, GError **error)
{
  (void) device;
  (void) user_data;
  (void) error;
  call->kind = ZG330_HARDOP_CONCAT;
  call->zero_copy = TRUE;
  return TRUE;
}

/* A fake board that says HELLO, then answers with PROGRESS only: a register read fails at
 * once, a launch after ZG330_WIRE_LAUNCH_WAITS wait times at the latest. */
static void
test_progress_forever_launch (void)
{
  FakeBoard *f = fake_start (TRUE);
  g_autofree char *url = g_strdup_printf ("socket://zg330@127.0.0.1:%u", f->port);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open (url, &error);
  const Zg330Profile *p;
  guint32 v;
  gint64 t0;

  g_assert_no_error (error);
  p = zg330_sim_get_profile (dev);
  xrt_device_set_wait_time (dev, 100);
  g_assert_true (zg330_sim_bind_hardop_call (dev, p->etm_base + (1u << 20), 16, FALSE, prepare_zero_copy, NULL, NULL,
                                             &error));
  t0 = g_get_monotonic_time ();
  g_assert_false (zg330_device_icore_calc (dev, p->etm_base + (1u << 20), 16, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "did not finish within 16 wait times of 100 ms"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
  g_clear_error (&error);
  g_assert_false (xrt_device_read_reg (dev, ZG330_REG_VERSION, &v, &error));
  xrt_device_close (dev);
  fake_stop (f);
}

/* ---- the shared token --------------------------------------------------------------------- */

static void
test_token (void)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-token-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "token", NULL);
  g_autofree char *bad = g_build_filename (dir, "wrong", NULL);
  g_autoptr (ZwBoard) board = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autofree char *with = NULL, *wrong = NULL;

  g_assert_true (g_file_set_contents (good, "s3cret-lab-token\n", -1, NULL));
  g_assert_true (g_file_set_contents (bad, "not-the-token\n", -1, NULL));
  board = zw_test_board_start ("zg330", "--token-file", good, NULL);
  if (board == NULL)
    return;
  g_unsetenv ("ZHUGE_BOARD_TOKEN_FILE");
  g_assert_null (xrt_device_open (board->url, &error));
  g_assert_nonnull (strstr (error->message, "wants a token"));
  g_clear_error (&error);
  wrong = g_strdup_printf ("%s?token-file=%s", board->url, bad);
  g_assert_null (xrt_device_open (wrong, &error));
  g_assert_nonnull (strstr (error->message, "does not match"));
  g_clear_error (&error);
  with = g_strdup_printf ("%s?token-file=%s", board->url, good);
  dev = open_within (with, 10, &error);
  g_assert_no_error (error);
  xrt_device_close (dev);
  g_clear_pointer (&dev, xrt_device_unref);
  g_setenv ("ZHUGE_BOARD_TOKEN_FILE", good, TRUE);
  dev = open_within (board->url, 10, &error);
  g_assert_no_error (error);
  xrt_device_close (dev);
  g_unsetenv ("ZHUGE_BOARD_TOKEN_FILE");
  /* a FIFO or a missing file is refused at once, naming it */
  g_assert_null (xrt_device_open (wrong = (g_free (wrong), g_strdup_printf ("%s?token-file=%s/none", board->url, dir)),
                                  &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
  g_assert_nonnull (strstr (error->message, "token file"));
  g_clear_error (&error);
  g_remove (good);
  g_remove (bad);
  g_rmdir (dir);
}

/* Another address than loopback needs a token: the board refuses to start without one. */
static void
test_remote_needs_token (void)
{
  const char *exe = g_getenv ("ZW_TEST_BOARD");
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;

  if (exe == NULL)
    {
      g_test_skip ("$ZW_TEST_BOARD is not set");
      return;
    }
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error, exe, "--listen",
                           "0.0.0.0:0", "--exit-after", "5", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 2);
  g_assert_nonnull (strstr (err, "--token-file"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/board-server/connections/storm-of-50-five-rounds", test_storm);
  g_test_add_func ("/board-server/connections/silent-client-holds-nothing", test_silent_client);
  g_test_add_func ("/board-server/connections/trickling-clients-are-cut", test_trickling_clients);
  g_test_add_func ("/board-server/connections/limit-says-so", test_connection_limit);
  g_test_add_func ("/board-server/connections/limit-busy-every-time", test_limit_busy_every_time);
  g_test_add_func ("/board-server/connections/limit-drains-bounded", test_limit_drains_bounded);
  g_test_add_func ("/board-server/session/busy-names-the-holder", test_busy_names_holder);
  g_test_add_func ("/board-server/launch/cancelled-when-client-leaves", test_launch_cancelled_when_client_leaves);
  g_test_add_func ("/board-server/reply/stats-within-the-bounds", test_reply_within_bounds);
  g_test_add_func ("/board-server/client/progress-only-board", test_progress_only_board);
  g_test_add_func ("/board-server/client/progress-forever-launch", test_progress_forever_launch);
  g_test_add_func ("/board-server/token/hello-presents-it", test_token);
  g_test_add_func ("/board-server/token/remote-address-needs-one", test_remote_needs_token);
  return g_test_run ();
}
