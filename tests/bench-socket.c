/* bench-socket.c — a forward of the real sample (yolov5s_plin_352x640_ZG.json, synthetic
 * params) on socket:// against a zhuge-board on a loopback port, as a ratio to the same forward
 * on mock:// in the same run (median of 5 each, merge on and off), and the bytes the forward
 * moves over the wire.  Prints figures; never fails on time. */
#include "backends/zg330/zg330-backend.h"
#include "devices/zg330-remote.h"
#include "xrt/xrt-session.h"
#include "zw-test-util.h"

#include <stdio.h>
#include <stdlib.h>

#define N_RUNS 5

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Median wall time of a forward (ms), after one warm-up; the traffic of the last forward. */
static double
time_forwards (XirNetwork *net, XrtDevice *dev, gboolean merge, guint64 *bytes_out, guint64 *bytes_in)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtSession) s = xrt_session_new (view, types, devs, 2, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 3);
  double ms[N_RUNS];

  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), merge, TRUE,
                                            ZW_OCM_BEST_SCORE, &error));
  g_assert_true (xrt_session_apply (s, &error));
  g_ptr_array_unref (xrt_session_forward (s, inputs, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < N_RUNS; i++)
    {
      guint64 s0 = 0, r0 = 0, s1 = 0, r1 = 0;
      gint64 t0;
      if (zg330_remote_is_remote (dev))
        zg330_remote_get_traffic (dev, &s0, &r0);
      t0 = g_get_monotonic_time ();
      g_ptr_array_unref (xrt_session_forward (s, inputs, &error));
      g_assert_no_error (error);
      ms[i] = (double) (g_get_monotonic_time () - t0) / 1000.0;
      if (zg330_remote_is_remote (dev))
        {
          zg330_remote_get_traffic (dev, &s1, &r1);
          *bytes_out = s1 - s0;
          *bytes_in = r1 - r0;
        }
    }
  qsort (ms, N_RUNS, sizeof ms[0], cmp_double);
  return ms[N_RUNS / 2];
}

int
main (int argc, char **argv)
{
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwBoard) board = NULL;

  g_test_init (&argc, &argv, NULL);
  net = zw_test_load_net ("real");
  if (net == NULL)
    {
      printf ("bench-socket: skipped: ../shared/real/yolov5s_plin_352x640_ZG.json is absent\n");
      return 0;
    }
  board = zw_test_board_start ("zg330", NULL);
  if (board == NULL)
    {
      printf ("bench-socket: skipped: $ZW_TEST_BOARD is not set\n");
      return 0;
    }
  printf ("forward of the real yolov5s (synthetic params), median of %d after a warm-up\n", N_RUNS);
  for (int merge = 1; merge >= 0; merge--)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtDevice) mock = xrt_device_open ("mock://zg330", &error);
      g_autoptr (XrtDevice) sock = xrt_device_open (board->url, &error);
      guint64 out = 0, in = 0, unused = 0;
      double m, s;

      g_assert_no_error (error);
      m = time_forwards (net, mock, merge, &unused, &unused);
      s = time_forwards (net, sock, merge, &out, &in);
      printf ("  merge %-3s  mock:// %8.1f ms   socket:// %8.1f ms   ratio %.3fx   wire per forward: %" G_GUINT64_FORMAT
              " bytes sent, %" G_GUINT64_FORMAT " received\n", merge ? "on" : "off", m, s, s / m, out, in);
    }
  return 0;
}
