/* bench-board-soak.c — a zhuge-board on a loopback port soaked by hundreds of hostile and
 * normal clients interleaved (issue 33 item 1): silent connections, HELLOs trickled a byte at
 * a time, garbage, connections opened and dropped, launches whose client resets, and normal
 * runs of the tiny demo network.  Samples the board's peak memory, threads and open fds and
 * prints them against their bounds; every normal run's outputs must be bit-exact with the
 * same forward on mock://.  Fails when a bound is broken or a normal run differs. */
#include "backends/zg330/zg330-backend.h"
#include "devices/zg330-wire.h"
#include "xrt/xrt-session.h"
#include "xrt/xrt-tensor.h"
#include "zw-test-util.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define N_HOSTILE     300
#define N_NORMAL      60
#define MAX_CLIENTS   16
#define WORKERS       12

static XirNetwork *net;
static char *reference;           /* md5 of the outputs on mock:// */
static ZwBoard *board;
static gint normal_ok, normal_busy_giveups, hostile_done;
static gint stop_sampling;
static struct { guint64 rss_kib, hwm_kib; guint threads, fds; } peak;

/* md5 of every output of a forward of seeded inputs on @dev, or NULL (@why set). */
static char *
forward_digest (XrtDevice *dev, char **why)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtSession) s = xrt_session_new (view, types, devs, 2, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 7);
  g_autoptr (GPtrArray) outputs = NULL;
  GChecksum *sum;
  char *digest;

  if (s == NULL || !xrt_session_apply (s, &error) || (outputs = xrt_session_forward (s, inputs, &error)) == NULL)
    {
      *why = g_strdup (error ? error->message : "no session");
      return NULL;
    }
  sum = g_checksum_new (G_CHECKSUM_MD5);
  for (guint k = 0; k < outputs->len; k++)
    {
      g_autofree guint8 *b = xrt_tensor_dup_bytes (g_ptr_array_index (outputs, k), NULL);
      g_checksum_update (sum, b, xrt_tensor_get_size (g_ptr_array_index (outputs, k)));
    }
  digest = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return digest;
}

static GSocketConnection *
connect_raw (void)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", board->port);
  GSocketConnection *conn;

  g_socket_client_set_enable_proxy (client, FALSE);
  conn = g_socket_client_connect_to_host (client, where, board->port, NULL, NULL);
  if (conn != NULL)
    g_socket_set_timeout (g_socket_connection_get_socket (conn), 10);
  return conn;
}

static gboolean
send_bytes (GSocketConnection *conn, const guint8 *p, gsize n)
{
  return g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (conn)), p, n, NULL, NULL, NULL);
}

static void
drain (GSocketConnection *conn)
{
  guint8 buf[4096];

  while (g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (conn)), buf, sizeof buf, NULL, NULL) > 0)
    ;
}

static void
hostile (guint kind)
{
  g_autoptr (GSocketConnection) conn = connect_raw ();
  guint8 head[ZG330_WIRE_HEADER_BYTES];

  if (conn == NULL)
    return;
  switch (kind % 5)
    {
    case 0: /* silent until the board lets go */
      drain (conn);
      break;
    case 1: /* a HELLO trickled a byte every 100 ms */
      zg330_wire_header_encode (head, ZG330_WIRE_HELLO, 1, 20);
      for (guint i = 0; i < sizeof head && send_bytes (conn, head + i, 1); i++)
        g_usleep (100000);
      drain (conn);
      break;
    case 2: /* garbage */
      send_bytes (conn, (const guint8 *) "GET / HTTP/1.1\r\nHost: board\r\n\r\n", 31);
      drain (conn);
      break;
    case 3: /* opened and dropped at once */
      break;
    default: /* a header announcing 16 MiB, then a reset */
      {
        struct linger linger = { 1, 0 };
        zg330_wire_header_encode (head, ZG330_WIRE_MEM_WRITE, 1, ZG330_WIRE_MAX_PAYLOAD);
        send_bytes (conn, head, sizeof head);
        send_bytes (conn, (const guint8 *) "0123456789abcdef", 16);
        setsockopt (g_socket_get_fd (g_socket_connection_get_socket (conn)), SOL_SOCKET, SO_LINGER, &linger,
                    sizeof linger);
        break;
      }
    }
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_atomic_int_inc (&hostile_done);
}

static void
normal (void)
{
  gint64 until = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtDevice) dev = xrt_device_open (board->url, &error);
      g_autofree char *why = NULL;
      g_autofree char *digest = NULL;

      if (dev == NULL)
        {
          if (g_get_monotonic_time () > until)
            {
              g_printerr ("normal client gave up: %s\n", error->message);
              g_atomic_int_inc (&normal_busy_giveups);
              return;
            }
          g_usleep (20000 + g_random_int_range (0, 30000));
          continue;
        }
      digest = forward_digest (dev, &why);
      xrt_device_close (dev);
      if (digest == NULL)
        g_error ("a normal run failed: %s", why);
      if (strcmp (digest, reference) != 0)
        g_error ("a normal run's outputs differ from mock://: %s, expected %s", digest, reference);
      g_atomic_int_inc (&normal_ok);
      return;
    }
}

static void
job (gpointer data, gpointer user_data)
{
  guint i = GPOINTER_TO_UINT (data) - 1;

  (void) user_data;
  if (i % 6 == 5)
    normal ();
  else
    hostile (i);
}

/* The board's RSS, high-water mark, threads and fds from /proc. */
static gpointer
sampler (gpointer pid)
{
  g_autofree char *status = g_strdup_printf ("/proc/%s/status", (const char *) pid);
  g_autofree char *fd_dir = g_strdup_printf ("/proc/%s/fd", (const char *) pid);

  while (!g_atomic_int_get (&stop_sampling))
    {
      g_autofree char *text = NULL;
      g_autoptr (GDir) dir = g_dir_open (fd_dir, 0, NULL);
      guint fds = 0;

      if (g_file_get_contents (status, &text, NULL, NULL))
        {
          const char *p;
          if ((p = strstr (text, "VmRSS:")))
            peak.rss_kib = MAX (peak.rss_kib, g_ascii_strtoull (p + 6, NULL, 10));
          if ((p = strstr (text, "VmHWM:")))
            peak.hwm_kib = MAX (peak.hwm_kib, g_ascii_strtoull (p + 6, NULL, 10));
          if ((p = strstr (text, "Threads:")))
            peak.threads = MAX (peak.threads, (guint) g_ascii_strtoull (p + 8, NULL, 10));
        }
      while (dir && g_dir_read_name (dir))
        fds++;
      peak.fds = MAX (peak.fds, fds);
      g_usleep (20000);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) mock = NULL;
  g_autofree char *why = NULL;
  g_autofree char *max_clients = g_strdup_printf ("%u", MAX_CLIENTS);
  GThreadPool *pool;
  GThread *sample;
  const guint threads_bound = 2 * MAX_CLIENTS + 8;   /* a thread per connection, a launch's, GLib's */
  const guint fds_bound = MAX_CLIENTS + 16;
  const guint64 hwm_bound_kib = 768 * 1024;
  gint64 t0;
  gboolean ok;

  g_test_init (&argc, &argv, NULL);
  net = zw_test_load_net ("tiny");
  if (net == NULL)
    return 77;
  mock = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  reference = forward_digest (mock, &why);
  g_assert_nonnull (reference);
  board = zw_test_board_start ("zg330", "--max-clients", max_clients, "--handshake-timeout", "300", NULL);
  if (board == NULL)
    return 77;
  sample = g_thread_new ("sampler", sampler, (gpointer) g_subprocess_get_identifier (board->proc));
  t0 = g_get_monotonic_time ();
  pool = g_thread_pool_new (job, NULL, WORKERS, TRUE, NULL);
  for (guint i = 0; i < N_HOSTILE + N_NORMAL; i++)
    g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
  g_atomic_int_set (&stop_sampling, 1);
  g_thread_join (sample);

  printf ("board soak: %d hostile and %d normal clients interleaved (%u workers) in %.1f s; board --max-clients %u\n",
          hostile_done, normal_ok, WORKERS, (g_get_monotonic_time () - t0) / 1e6, MAX_CLIENTS);
  printf ("  peak RSS %.1f MiB (high-water %.1f MiB, bound %.0f MiB), threads %u (bound %u), fds %u (bound %u)\n",
          peak.rss_kib / 1024.0, peak.hwm_kib / 1024.0, hwm_bound_kib / 1024.0, peak.threads, threads_bound, peak.fds,
          fds_bound);
  printf ("  normal runs bit-exact with mock://: %d of %d (md5 %s); gave up on a busy board: %d\n", normal_ok,
          N_NORMAL, reference, normal_busy_giveups);
  ok = peak.hwm_kib <= hwm_bound_kib && peak.threads <= threads_bound && peak.fds <= fds_bound
       && normal_ok == N_NORMAL && g_subprocess_get_identifier (board->proc) != NULL;
  printf ("  verdict: %s\n", ok ? "bounded, every normal run bit-exact" : "FAILED");
  zw_test_board_stop (board);
  g_free (reference);
  xir_network_unref (net);
  return ok ? 0 : 1;
}
