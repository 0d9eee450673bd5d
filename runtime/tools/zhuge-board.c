/* zhuge-board — serves one simulated ZG330 or Buyi board over TCP (devices/zg330-wire.h), so
 * that runtimes open it as socket://NAME@HOST:PORT the way the vendor's users open a board.
 *
 * One client session at a time (others are told the board is busy); each session gets a board
 * fresh from power-on.  The sockets are GIO's (GThreadedSocketService: one thread per
 * connection); a launch runs on a worker thread while the connection's thread sends PROGRESS
 * frames, so a client tells a long launch from a board that stopped answering.
 *
 * --fault KIND@N makes the board misbehave on purpose, for tests of the runtime's handling
 * (the board process killed mid-forward, a dropped connection, garbage on the wire, a board
 * that stops answering). */
#include "devices/zg330-board.h"
#include "base/zw-locale.h"

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef enum { FAULT_NONE, FAULT_DIE, FAULT_HANG, FAULT_GARBAGE, FAULT_DROP } FaultKind;

static struct {
  char *kind;
  Zg330Profile *profile;
  FaultKind fault;
  guint fault_at;        /* die: the Nth icoreCalc of the process; others: its Nth request (once) */
  guint request_count;   /* atomic */
  gint busy;             /* atomic: the session number of the client holding the board, or 0 */
  gint sessions;         /* atomic: sessions started */
  guint icore_count;     /* atomic */
  gboolean verbose;
} board;

/* ---- one connection ----------------------------------------------------------------- */

static gboolean
send_all (GSocket *sock, const guint8 *p, gsize n)
{
  while (n > 0)
    {
      gssize k = g_socket_send (sock, (const gchar *) p, n, NULL, NULL);
      if (k <= 0)
        return FALSE;
      p += k;
      n -= (gsize) k;
    }
  return TRUE;
}

static gboolean
send_frame (GSocket *sock, guint16 type, guint32 seq, const guint8 *payload, guint32 length)
{
  guint8 head[ZG330_WIRE_HEADER_BYTES];

  zg330_wire_header_encode (head, type, seq, length);
  return send_all (sock, head, sizeof head) && (length == 0 || send_all (sock, payload, length));
}

static gboolean
recv_exact (GSocket *sock, guint8 *p, gsize n)
{
  while (n > 0)
    {
      gssize k = g_socket_receive (sock, (gchar *) p, n, NULL, NULL);
      if (k <= 0)
        return FALSE;
      p += k;
      n -= (gsize) k;
    }
  return TRUE;
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

/* Runs a launch on a worker thread, sending PROGRESS every ZG330_WIRE_PROGRESS_MS. */
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
          alive = send_frame (sock, ZG330_WIRE_PROGRESS, seq, NULL, 0);
          g_mutex_lock (&l.lock);
        }
    }
  g_mutex_unlock (&l.lock);
  g_thread_join (thread);
  g_mutex_clear (&l.lock);
  g_cond_clear (&l.cond);
  return alive;
}

/* Serves one client until CLOSE, a transport failure or a protocol error. */
static void
serve (GSocket *sock, gint id)
{
  g_autoptr (Zg330BoardSession) session = zg330_board_session_new (board.kind, board.profile);

  for (;;)
    {
      guint8 head[ZG330_WIRE_HEADER_BYTES];
      g_autofree guint8 *payload = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GByteArray) out = NULL;
      Zg330WireHeader h;
      Zg330WireRequest req;
      Zg330WireReply rep = { 0 };
      guint16 request_type;

      if (!recv_exact (sock, head, sizeof head))
        return;
      if (!zg330_wire_header_decode (head, &h, &error))
        {
          /* garbage: say so and end the session (the stream cannot be resynchronised) */
          rep.type = ZG330_WIRE_ERROR;
          rep.code = XRT_ERROR_DEVICE;
          rep.message = g_strdup (error->message);
          out = zg330_wire_encode_reply (0, &rep);
          send_frame (sock, ZG330_WIRE_ERROR, 0, out->data, out->len);
          zg330_wire_reply_clear (&rep);
          return;
        }
      payload = g_malloc (MAX (h.length, 1));
      if (!recv_exact (sock, payload, h.length))
        return;
      if (board.fault != FAULT_NONE && board.fault != FAULT_DIE
          && (guint) g_atomic_int_add (&board.request_count, 1) + 1 == board.fault_at)
        {
          if (board.fault == FAULT_DROP)
            return;
          if (board.fault == FAULT_GARBAGE)
            {
              static const guint8 junk[] = "\x13\x37garbage on the wire, not a frame\xff\xfe";
              send_all (sock, junk, sizeof junk);
              return;
            }
          /* hang: read on, answer nothing, until the client goes */
          while (recv_exact (sock, head, 1))
            ;
          return;
        }
      request_type = h.type;
      if (!zg330_wire_decode_request (h.type, payload, h.length, &req, &error))
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
          if (!run_launch (sock, h.seq, session, &req, &rep))
            {
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
        g_atomic_int_compare_and_exchange (&board.busy, id, 0);
      out = zg330_wire_encode_reply (request_type, &rep);
      if (!send_frame (sock, rep.type == ZG330_WIRE_ERROR ? ZG330_WIRE_ERROR : (guint16) (request_type | ZG330_WIRE_REPLY),
                       h.seq, out->data, out->len))
        {
          zg330_wire_reply_clear (&rep);
          return;
        }
      zg330_wire_reply_clear (&rep);
      if (zg330_board_session_closed (session))
        return;
    }
}

static gboolean
on_run (GThreadedSocketService *service, GSocketConnection *conn, GObject *source, gpointer data)
{
  GSocket *sock = g_socket_connection_get_socket (conn);
  g_autoptr (GSocketAddress) peer = g_socket_connection_get_remote_address (conn, NULL);
  g_autofree char *who = NULL;

  (void) service;
  (void) source;
  (void) data;
  if (peer != NULL && G_IS_INET_SOCKET_ADDRESS (peer))
    {
      g_autofree char *ip = g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (peer)));
      who = g_strdup_printf ("%s:%u", ip, g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (peer)));
    }
  else
    who = g_strdup ("?");
  g_socket_set_blocking (sock, TRUE);
  g_socket_set_option (sock, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  gint id = g_atomic_int_add (&board.sessions, 1) + 1;

  if (!g_atomic_int_compare_and_exchange (&board.busy, 0, id))
    {
      Zg330WireReply rep = { .type = ZG330_WIRE_BUSY };
      g_autoptr (GByteArray) out = NULL;
      guint8 head[ZG330_WIRE_HEADER_BYTES], drain[4096];
      Zg330WireHeader h = { 0 };

      /* read the client's HELLO first and close gracefully: a socket closed with unread
       * bytes resets the connection, and the client would never see why */
      g_socket_set_timeout (sock, 2);
      if (recv_exact (sock, head, sizeof head) && zg330_wire_header_decode (head, &h, NULL))
        for (guint32 left = h.length; left > 0;)
          {
            guint32 n = MIN (left, (guint32) sizeof drain);
            if (!recv_exact (sock, drain, n))
              break;
            left -= n;
          }
      rep.message = g_strdup_printf (_("the %s board serves another client"), board.kind);
      out = zg330_wire_encode_reply (0, &rep);
      send_frame (sock, ZG330_WIRE_BUSY, h.seq, out->data, out->len);
      zg330_wire_reply_clear (&rep);
      g_socket_shutdown (sock, FALSE, TRUE, NULL);
      while (g_socket_receive (sock, (gchar *) drain, sizeof drain, NULL, NULL) > 0)
        ;
      if (board.verbose)
        g_printerr (_("zhuge-board: %s refused: busy\n"), who);
      return TRUE;
    }
  if (board.verbose)
    g_printerr (_("zhuge-board: %s connected\n"), who);
  serve (sock, id);
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  if (board.verbose)
    g_printerr (_("zhuge-board: %s gone\n"), who);
  g_atomic_int_compare_and_exchange (&board.busy, id, 0);
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
  gint exit_after = 0;
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
        else
          address = g_inet_socket_address_new (inet, port);
      }
    if (address == NULL)
      {
        g_printerr (_("zhuge-board: --listen %s: %s\n"), listen ? listen : "127.0.0.1:5001", error->message);
        return 2;
      }
  }
  service = g_threaded_socket_service_new (8);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL, &effective, &error))
    {
      g_printerr (_("zhuge-board: cannot listen on %s:%u: %s\n"), host, port, error->message);
      return 1;
    }
  g_signal_connect (service, "run", G_CALLBACK (on_run), NULL);
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
  zg330_profile_free (board.profile);
  g_free (board.kind);
  return 0;
}
