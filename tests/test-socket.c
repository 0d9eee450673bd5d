/* test-socket.c — socket:// boards served by zhuge-board: the same forwards as mock://, bit
 * for bit and simulated time for simulated time, and the faults a board user meets (the board
 * killed mid-forward, a dropped connection, garbage on the wire, a board that stops
 * answering), each a clear error and a clean restart. */
#include "backends/zg330/zg330-backend.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-wire.h"
#include "report/zw-profile.h"
#include "xrt/xrt-session.h"
#include "xrt/xrt-tensor.h"
#include "zw-test-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  char *digest;    /* md5 of every output's bytes */
  char *profile;   /* the vendor time profile: every op's simulated times */
  char *error;     /* the forward's error, or NULL */
} Run;

static void
run_clear (Run *r)
{
  g_free (r->digest);
  g_free (r->profile);
  g_free (r->error);
}

/* A session on @dev with the options, a forward of seeded inputs. */
static void
forward_on (XirNetwork *net, XrtDevice *dev, gboolean merge, Run *out)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtSession) s = xrt_session_new (view, types, devs, 2, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 7);
  g_autoptr (GPtrArray) outputs = NULL;
  GChecksum *sum;

  memset (out, 0, sizeof *out);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), merge, TRUE,
                                            ZW_OCM_BEST_SCORE, &error));
  xrt_session_enable_time_profile (s, TRUE);
  if (!xrt_session_apply (s, &error) || (outputs = xrt_session_forward (s, inputs, &error)) == NULL)
    {
      out->error = g_strdup (error->message);
      return;
    }
  sum = g_checksum_new (G_CHECKSUM_MD5);
  for (guint k = 0; k < outputs->len; k++)
    {
      g_autofree guint8 *b = xrt_tensor_dup_bytes (g_ptr_array_index (outputs, k), NULL);
      g_checksum_update (sum, b, xrt_tensor_get_size (g_ptr_array_index (outputs, k)));
    }
  out->digest = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  out->profile = zw_profile_to_string (xrt_session_get_time_profile (s), ZW_PROFILE_FORMAT_VENDOR);
}

static void
forward_url (XirNetwork *net, const char *url, gboolean merge, Run *out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open (url, &error);

  g_assert_no_error (error);
  forward_on (net, dev, merge, out);
}

/* Opens @url, retrying while the board still serves the client that just went. */
static XrtDevice *
open_retrying (const char *url)
{
  for (guint i = 0;; i++)
    {
      g_autoptr (GError) error = NULL;
      XrtDevice *d = xrt_device_open (url, &error);
      if (d != NULL)
        return d;
      /* the board may still be ending the previous session (busy), or be under load */
      if (i >= 250 || (strstr (error->message, "busy") == NULL && strstr (error->message, "closed the connection") == NULL))
        g_error ("opening %s: %s", url, error->message);
      g_usleep (20000);
    }
}

/* ---- identical to mock:// ------------------------------------------------------------- */

static void
test_identical (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (ZwBoard) board = NULL;

  if (net == NULL)
    return;
  board = zw_test_board_start ("zg330", NULL);
  if (board == NULL)
    return;
  for (int merge = 1; merge >= 0; merge--)
    {
      Run m, s;
      forward_url (net, "mock://zg330", merge, &m);
      forward_url (net, board->url, merge, &s);
      g_assert_null (m.error);
      g_assert_null (s.error);
      g_assert_cmpstr (s.digest, ==, m.digest);
      g_assert_cmpstr (s.profile, ==, m.profile);
      run_clear (&m);
      run_clear (&s);
    }
}

/* The profile the board announced is the one the board times with, field for field. */
static void
test_profile_and_registers (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("buyi", NULL);
  g_autoptr (XrtDevice) remote = NULL;
  g_autoptr (XrtDevice) local = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) version = NULL;
  const char *const *fields = zg330_profile_list_fields ();
  guint32 v = 0;

  if (board == NULL)
    return;
  remote = xrt_device_open (board->url, &error);
  g_assert_no_error (error);
  local = xrt_device_open ("mock://buyi", &error);
  g_assert_no_error (error);
  g_assert_true (zg330_sim_is_sim (remote));
  g_assert_cmpstr (xrt_device_get_name (remote), ==, "buyi");
  for (guint i = 0; fields[i]; i++)
    {
      double a = 0, b = 0;
      g_assert_true (zg330_profile_get_field (zg330_sim_get_profile (remote), fields[i], &a));
      g_assert_true (zg330_profile_get_field (zg330_sim_get_profile (local), fields[i], &b));
      g_assert_cmpfloat (a, ==, b);
    }
  g_assert_true (xrt_device_read_reg (remote, ZG330_REG_VERSION, &v, &error));
  g_assert_cmphex (v, ==, zg330_sim_get_profile (local)->fpga_version);
  g_assert_false (xrt_device_read_reg (remote, 0x1234, &v, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_REGISTER);
  g_clear_error (&error);
  version = xrt_device_get_version (remote);
  g_assert_cmpstr (g_hash_table_lookup (version, "device"), ==, "buyi");
  /* a zg330 URL on a Buyi board is refused, naming both */
  {
    g_autofree char *wrong = g_strdup_printf ("socket://zg330@127.0.0.1:%u", board->port);
    g_autoptr (XrtDevice) d = NULL;
    xrt_device_close (remote);
    d = open_retrying (board->url);
    xrt_device_close (d);
    g_clear_pointer (&d, xrt_device_unref);
    for (guint i = 0; i < 250; i++)
      {
        g_clear_error (&error);
        d = xrt_device_open (wrong, &error);
        g_assert_null (d);
        if (!strstr (error->message, "busy"))
          break;
        g_usleep (20000);
      }
    g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
    g_assert_nonnull (strstr (error->message, "buyi"));
  }
}

/* ---- URLs, busy, versions ----------------------------------------------------------------- */

/* The vendor's users name their boards with a label (socket://haps-zg330@…, ZG330Backend
 * manual §2.1): a name that carries the board's kind opens it, and a session deploys on it. */
static void
test_vendor_style_name (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GPtrArray) inputs = NULL, outs = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *url = NULL;

  if (board == NULL)
    return;
  url = g_strdup_printf ("socket://haps-zg330@127.0.0.1:%u", board->port);
  dev = open_retrying (url);
  view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  sess = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xrt_backend_get_name (xrt_session_get_board_backend (sess)), ==, "ZG330Backend");
  g_assert_true (xrt_session_apply (sess, &error));
  g_assert_no_error (error);
  inputs = zw_test_seeded_inputs (net, 3);
  outs = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (outs->len, ==, 1);
}

static void
test_urls (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocketListener) listener = g_socket_listener_new ();
  guint16 port;
  g_autofree char *url = NULL;

  g_assert_null (xrt_device_open ("socket://127.0.0.1:5001", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
  g_clear_error (&error);
  g_assert_null (xrt_device_open ("socket://zg330@nowhere", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
  g_clear_error (&error);
  g_assert_null (xrt_device_open ("socket://zg330@127.0.0.1:5001?profile=x", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
  g_clear_error (&error);
  /* a port nobody listens on: a free one, taken and given back */
  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_listener_close (listener);
  url = g_strdup_printf ("socket://zg330@127.0.0.1:%u", port);
  g_assert_null (xrt_device_open (url, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, url));
}

static void
test_busy (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (XrtDevice) first = NULL;
  g_autoptr (XrtDevice) third = NULL;
  g_autoptr (GError) error = NULL;

  if (board == NULL)
    return;
  first = xrt_device_open (board->url, &error);
  g_assert_no_error (error);
  g_assert_null (xrt_device_open (board->url, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "busy"));
  g_assert_nonnull (strstr (error->message, board->url));
  /* once the first client closes, the board is free again */
  xrt_device_close (first);
  third = open_retrying (board->url);
  g_assert_nonnull (third);
}

/* Sends one raw frame, returns the reply frame's type and payload. */
static guint16
raw_exchange (guint port, guint16 type, const guint8 *payload, guint32 length, GBytes **reply)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", port);
  g_autoptr (GSocketConnection) conn = NULL;
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  Zg330WireHeader h;
  g_autofree guint8 *body = NULL;
  GInputStream *in;
  GOutputStream *out;

  for (guint i = 0; i < 250; i++)
    {
      g_clear_error (&error);
      g_clear_object (&conn);
      conn = g_socket_client_connect_to_host (client, where, 0, NULL, &error);
      g_assert_no_error (error);
      in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      zg330_wire_header_encode (head, type, 1, length);
      g_assert_true (g_output_stream_write_all (out, head, sizeof head, NULL, NULL, &error));
      if (length > 0)
        g_assert_true (g_output_stream_write_all (out, payload, length, NULL, NULL, &error));
      g_assert_true (g_input_stream_read_all (in, head, sizeof head, NULL, NULL, &error));
      g_assert_true (zg330_wire_header_decode (head, &h, &error));
      body = g_malloc (MAX (h.length, 1));
      g_assert_true (g_input_stream_read_all (in, body, h.length, NULL, NULL, &error));
      if (h.type != ZG330_WIRE_BUSY)
        break;
      g_clear_pointer (&body, g_free);
      g_usleep (20000);
    }
  *reply = g_bytes_new (body, h.length);
  return h.type;
}

static void
test_version_mismatch (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  Zg330WireRequest hello = { .type = ZG330_WIRE_HELLO, .version = 99, .name = (char *) "test" };
  g_autoptr (GByteArray) payload = NULL;
  g_autoptr (GBytes) reply = NULL;
  g_autoptr (GError) error = NULL;
  Zg330WireReply rep;
  guint16 type;

  if (board == NULL)
    return;
  payload = zg330_wire_encode_request (&hello);
  type = raw_exchange (board->port, ZG330_WIRE_HELLO, payload->data, payload->len, &reply);
  g_assert_cmpuint (type, ==, ZG330_WIRE_ERROR);
  g_assert_true (zg330_wire_decode_reply (ZG330_WIRE_HELLO, type, g_bytes_get_data (reply, NULL),
                                          g_bytes_get_size (reply), &rep, &error));
  g_assert_nonnull (strstr (rep.message, "version 99"));
  g_assert_nonnull (strstr (rep.message, "version 1"));
  zg330_wire_reply_clear (&rep);
  /* anything before HELLO is refused, and garbage ends the session with an error frame */
  g_clear_pointer (&reply, g_bytes_unref);
  type = raw_exchange (board->port, ZG330_WIRE_TIMER_READ, NULL, 0, &reply);
  g_assert_cmpuint (type, ==, ZG330_WIRE_ERROR);
}

/* A fake board that answers HELLO with another protocol version: the client refuses it. */
static gpointer
fake_board (gpointer data)
{
  GSocketListener *listener = data;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (listener, NULL, NULL, NULL);
  Zg330WireReply rep = { .type = ZG330_WIRE_HELLO, .version = 7, .board = (char *) "zg330",
                         .profile_json = (char *) "{}", .max_payload = 4096 };
  g_autoptr (GByteArray) out = zg330_wire_encode_reply (ZG330_WIRE_HELLO, &rep);
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  Zg330WireHeader h;
  guint8 junk[4096];
  GInputStream *in;

  if (conn == NULL)
    return NULL;
  in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
  if (!g_input_stream_read_all (in, head, sizeof head, NULL, NULL, NULL) || !zg330_wire_header_decode (head, &h, NULL)
      || h.length > sizeof junk || !g_input_stream_read_all (in, junk, h.length, NULL, NULL, NULL))
    return NULL;
  zg330_wire_header_encode (head, ZG330_WIRE_HELLO | ZG330_WIRE_REPLY, h.seq, out->len);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (conn)), head, sizeof head, NULL, NULL, NULL);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (conn)), out->data, out->len, NULL, NULL, NULL);
  return NULL;
}

static void
test_client_refuses_version (void)
{
  g_autoptr (GSocketListener) listener = g_socket_listener_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *url = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  GThread *thread;

  g_assert_no_error (error);
  thread = g_thread_new ("fake-board", fake_board, listener);
  url = g_strdup_printf ("socket://zg330@127.0.0.1:%u", port);
  g_assert_null (xrt_device_open (url, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE);
  g_assert_nonnull (strstr (error->message, "version 7"));
  g_assert_nonnull (strstr (error->message, "version 1"));
  g_thread_join (thread);
}

/* ---- faults ------------------------------------------------------------------------------ */

/* A forward against a board that misbehaves as @fault says fails naming the URL and the
 * operation; a session on a fresh connection then forwards exactly as a clean one. */
static void
fault_case (const char *fault, gboolean restart, guint64 wait_ms, XrtError code, const char *operation)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("resnet18");
  g_autoptr (ZwBoard) board = NULL;
  g_autoptr (ZwBoard) again = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtDevice) fresh = NULL;
  g_autoptr (GError) error = NULL;
  Run clean, broken, after;

  if (net == NULL)
    return;
  board = zw_test_board_start ("zg330", "--fault", fault, NULL);
  if (board == NULL)
    return;
  forward_url (net, "mock://zg330", FALSE, &clean);
  g_assert_null (clean.error);
  dev = xrt_device_open (board->url, &error);
  g_assert_no_error (error);
  if (wait_ms > 0)
    xrt_device_set_wait_time (dev, wait_ms);
  forward_on (net, dev, FALSE, &broken);
  g_assert_nonnull (broken.error);
  g_test_message ("%s: %s", fault, broken.error);
  g_assert_nonnull (strstr (broken.error, board->url));
  g_assert_nonnull (strstr (broken.error, operation));
  /* the device stays broken, saying so, until it is opened again */
  {
    guint32 v;
    g_assert_false (xrt_device_read_reg (dev, ZG330_REG_VERSION, &v, &error));
    /* (the failure itself was @code: XRT_ERROR_TIMEOUT for a board that stopped answering) */
    (void) code;
    g_assert_error (error, XRT_ERROR, XRT_ERROR_DEVICE);
    g_assert_nonnull (strstr (error->message, "open the device again"));
    g_clear_error (&error);
  }
  xrt_device_close (dev);
  if (restart)
    {
      again = zw_test_board_start ("zg330", NULL);
      fresh = open_retrying (again->url);
    }
  else
    fresh = open_retrying (board->url);
  forward_on (net, fresh, FALSE, &after);
  g_assert_null (after.error);
  g_assert_cmpstr (after.digest, ==, clean.digest);
  g_assert_cmpstr (after.profile, ==, clean.profile);
  run_clear (&clean);
  run_clear (&broken);
  run_clear (&after);
}

static void
test_fault_killed (void)
{
  /* the board process is killed (SIGKILL) at its 5th launch: mid-forward */
  fault_case ("die@5", TRUE, 0, XRT_ERROR_DEVICE, "icoreCalc");
}

static void
test_fault_dropped (void)
{
  fault_case ("drop@20", FALSE, 0, XRT_ERROR_DEVICE, "device socket://");
}

static void
test_fault_garbage (void)
{
  fault_case ("garbage@20", FALSE, 0, XRT_ERROR_DEVICE, "garbage on the wire");
}

static void
test_fault_stops_answering (void)
{
  /* setWaitTime(3 s): the board that stops answering is given up on after that (3 s, not less:
   * a loaded machine's earlier, honest requests, an 8 MiB upload among them, must fit in it) */
  fault_case ("hang@20", FALSE, 3000, XRT_ERROR_TIMEOUT, "did not answer within the wait time of 3000 ms");
}

/* ---- the CLI ---------------------------------------------------------------------------- */

static char *
read_file (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_cli (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (ZwBoard) dying = NULL;
  g_autofree char *dir = NULL, *net = NULL, *a = NULL, *b = NULL, *c = NULL;
  g_autofree char *ta = NULL, *tb = NULL, *tc = NULL, *da = NULL, *db = NULL;
  g_autofree char *fa = NULL, *fb = NULL;
  g_auto (ZwRun) rm = { 0 };
  g_auto (ZwRun) rs = { 0 };
  g_auto (ZwRun) rd = { 0 };

  if (board == NULL)
    return;
  dir = g_dir_make_tmp ("zw-socket-XXXXXX", NULL);
  net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "resnet18_ZG.json", NULL);
  a = g_build_filename (dir, "a", NULL);
  b = g_build_filename (dir, "b", NULL);
  c = g_build_filename (dir, "c", NULL);
  da = g_build_filename (a, "dump", NULL);
  db = g_build_filename (b, "dump", NULL);
  zw_test_xrt_run (&rm, "run", net, "--profile", "--log-dir", a, "--dump", da, "--no-merge", "--device", "mock://zg330",
                   NULL);
  g_assert_cmpint (rm.status, ==, 0);
  zw_test_xrt_run (&rs, "run", net, "--profile", "--log-dir", b, "--dump", db, "--no-merge", "--device", board->url,
                   NULL);
  g_assert_cmpint (rs.status, ==, 0);
  g_assert_nonnull (strstr (rs.out, board->url));
  ta = g_build_filename (a, "resnet18_time.txt", NULL);
  tb = g_build_filename (b, "resnet18_time.txt", NULL);
  {
    g_autofree char *x = read_file (ta), *y = read_file (tb);
    g_assert_cmpstr (x, ==, y);
  }
  /* every dumped value, byte for byte */
  {
    g_autoptr (GDir) d = g_dir_open (da, 0, NULL);
    const char *name;
    guint n = 0;
    g_assert_nonnull (d);
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *pa = g_build_filename (da, name, NULL), *pb = g_build_filename (db, name, NULL);
        g_autofree char *x = NULL, *y = NULL;
        gsize nx = 0, ny = 0;
        g_assert_true (g_file_get_contents (pa, &x, &nx, NULL));
        g_assert_true (g_file_get_contents (pb, &y, &ny, NULL));
        g_assert_cmpmem (x, nx, y, ny);
        n++;
      }
    g_assert_cmpuint (n, >, 10);
  }
  /* the board killed mid-forward: exit 3, the URL and the operation named, no profile file */
  dying = zw_test_board_start ("zg330", "--fault", "die@3", NULL);
  zw_test_xrt_run (&rd, "run", net, "--profile", "--log-dir", c, "--no-merge", "--device", dying->url, NULL);
  g_assert_cmpint (rd.status, ==, 3);
  g_assert_nonnull (strstr (rd.err, dying->url));
  g_assert_nonnull (strstr (rd.err, "icoreCalc"));
  tc = g_build_filename (c, "resnet18_time.txt", NULL);
  g_assert_false (g_file_test (tc, G_FILE_TEST_EXISTS));
  fa = g_strdup_printf ("rm -rf '%s'", dir);
  (void) fb;
  g_assert_true (g_spawn_command_line_sync (fa, NULL, NULL, NULL, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/socket/identical/tiny", "tiny", test_identical);
  g_test_add_data_func ("/socket/identical/resnet18", "resnet18", test_identical);
  g_test_add_data_func ("/socket/identical/mobilenetv2", "mobilenetv2", test_identical);
  g_test_add_data_func ("/socket/identical/yolov5s", "yolov5s", test_identical);
  g_test_add_data_func ("/socket/identical/real-yolov5s", "real", test_identical);
  g_test_add_func ("/socket/board/profile-and-registers-as-announced", test_profile_and_registers);
  g_test_add_func ("/socket/url/refuses-bad-urls-and-names-an-unreachable-board", test_urls);
  g_test_add_func ("/socket/url/vendor-style-board-name", test_vendor_style_name);
  g_test_add_func ("/socket/board/one-client-others-told-busy", test_busy);
  g_test_add_func ("/socket/version/board-refuses-naming-both", test_version_mismatch);
  g_test_add_func ("/socket/version/client-refuses-naming-both", test_client_refuses_version);
  g_test_add_func ("/socket/fault/board-killed-mid-forward", test_fault_killed);
  g_test_add_func ("/socket/fault/dropped-connection", test_fault_dropped);
  g_test_add_func ("/socket/fault/garbage-on-the-wire", test_fault_garbage);
  g_test_add_func ("/socket/fault/board-stops-answering", test_fault_stops_answering);
  g_test_add_func ("/socket/cli/run-identical-and-no-partial-file", test_cli);
  return g_test_run ();
}
