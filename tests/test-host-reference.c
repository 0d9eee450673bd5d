/* test-host-reference.c — the host reference run (issue 36 item 2): a session of the
 * HostBackend alone runs every HardOp on the host with the board's own behavioural kernels
 * (devices/hardops/), so Session.Create([HostBackend], view, [HostDevice.Default()]) gives the
 * same output bytes as the board's session (mock://zg330, mock://buyi; a zhuge-board with
 * --socket) on the four demo networks, the real ZG330 sample and the real Buyi compile (both
 * with synthetic params, seed 330, as the CLI uses; skipped when ../shared is absent), and
 * xrt_session_compare_with_host() says so in one call — and says where bytes differ. */
#include "xrt/xrt-session.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-tensor.h"
#include "zw-test-util.h"

#include <string.h>

/* @net on the board of @url (the board backend and the HostBackend) and on the HostBackend
 * alone; the outputs of one forward of seeded inputs compared byte for byte. */
static void
check_host_equals_board (XirNetwork *net, const char *url)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtDevice) dev = zw_test_open_device (url);
  const char *host_only[] = { "HostBackend" };
  XrtDevice *no_device[] = { NULL };
  g_autoptr (XrtSession) board = NULL;
  g_autoptr (XrtSession) host = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 7);
  g_autoptr (GPtrArray) board_out = NULL;
  g_autoptr (GPtrArray) host_out = NULL;
  GPtrArray *backends;
  g_autofree char *report = NULL;
  gboolean identical = FALSE;
  guint n_hardops = 0;
  guint64 n_nonzero = 0;

  g_assert_no_error (error);
  board = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (board, &error));
  g_assert_no_error (error);
  /* the manual's Session.Create([HostBackend], view, [HostDevice.Default()]) */
  host = xrt_session_new (view, host_only, no_device, 1, &error);
  g_assert_no_error (error);
  backends = xrt_session_get_backends (host);
  g_assert_cmpuint (backends->len, ==, 1);
  g_assert_cmpstr (xrt_backend_get_name (g_ptr_array_index (backends, 0)), ==, "HostBackend");
  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    n_hardops += xir_network_get_op (net, i)->kind == XIR_OP_HARDOP;
  g_assert_cmpuint (n_hardops, >, 0);
  g_assert_true (xrt_session_apply (host, &error));
  g_assert_no_error (error);

  board_out = xrt_session_forward (board, inputs, &error);
  g_assert_no_error (error);
  host_out = xrt_session_forward (host, inputs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (board_out->len, ==, host_out->len);
  g_assert_cmpuint (board_out->len, >, 0);
  for (guint k = 0; k < board_out->len; k++)
    {
      g_autofree guint8 *b = xrt_tensor_dup_bytes (g_ptr_array_index (board_out, k), &error);
      g_autofree guint8 *h = xrt_tensor_dup_bytes (g_ptr_array_index (host_out, k), &error);
      guint64 n = xrt_tensor_get_size (g_ptr_array_index (board_out, k));

      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, xrt_tensor_get_size (g_ptr_array_index (host_out, k)));
      g_assert_cmpmem (b, n, h, n);
      for (guint64 i = 0; i < n; i++)
        n_nonzero += b[i] != 0;
    }
  /* the outputs carry something: equal zeros would prove nothing */
  g_assert_cmpuint (n_nonzero, >, 0);

  /* the comparison in one call */
  g_assert_true (xrt_session_compare_with_host (board, inputs, &identical, &report, &error));
  g_assert_no_error (error);
  g_test_message ("%s on %s:\n%s", xir_network_get_path (net), url, report);
  g_assert_true (identical);
  g_assert_nonnull (strstr (report, "identical"));
  g_assert_null (strstr (report, "differ"));
}

static void
test_demo (gconstpointer name)
{
  g_autoptr (XirNetwork) net = zw_test_load_net (name);

  check_host_equals_board (net, "mock://zg330");
}

static void
test_real_zg330 (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");   /* synthetic params, seed 330 */

  if (net == NULL)
    return;
  check_host_equals_board (net, "mock://zg330");
}

static void
test_real_buyi (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  g_autoptr (XirNetwork) net = NULL;

  if (path == NULL)
    return;
  net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  xir_network_fake_params (net, 330);
  check_host_equals_board (net, "mock://buyi");
}

/* The comparison can fail: other params on the host side are not the board's bytes — a
 * session of a second copy of the network with other synthetic params, compared by hand
 * the way the one call does, finds a difference; and without params the host says so. */
static void
test_difference_and_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autofree char *json = g_strdup_printf ("%s/networks/tiny_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autoptr (XirNetwork) other = xir_network_new_from_json_file (json, &error);
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XirNetworkView) other_view = xir_network_view (other, 0, G_MAXINT, &error);
  const char *host_only[] = { "HostBackend" };
  XrtDevice *no_device[] = { NULL };
  g_autoptr (XrtSession) a = NULL;
  g_autoptr (XrtSession) b = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 7);
  g_autoptr (GPtrArray) other_inputs = zw_test_seeded_inputs (other, 7);
  g_autoptr (GPtrArray) out_a = NULL;
  g_autoptr (GPtrArray) out_b = NULL;
  gboolean differs = FALSE;

  g_assert_no_error (error);
  /* no params yet: the first HardOp with weights names them */
  b = xrt_session_new (other_view, host_only, no_device, 1, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (b, &error));
  g_assert_no_error (error);
  out_b = xrt_session_forward (b, other_inputs, &error);
  g_assert_null (out_b);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "params v_id"));
  g_clear_error (&error);

  xir_network_fake_params (other, 12345);
  a = xrt_session_new (view, host_only, no_device, 1, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (a, &error));
  g_assert_no_error (error);
  out_a = xrt_session_forward (a, inputs, &error);
  g_assert_no_error (error);
  out_b = xrt_session_forward (b, other_inputs, &error);
  g_assert_no_error (error);
  for (guint k = 0; k < out_a->len; k++)
    {
      g_autofree guint8 *x = xrt_tensor_dup_bytes (g_ptr_array_index (out_a, k), &error);
      g_autofree guint8 *y = xrt_tensor_dup_bytes (g_ptr_array_index (out_b, k), &error);
      differs |= memcmp (x, y, xrt_tensor_get_size (g_ptr_array_index (out_a, k))) != 0;
    }
  g_assert_true (differs);
}

int
main (int argc, char **argv)
{
  static const char *const demos[] = { "tiny", "twoin", "mobilenetv2", "resnet18", "yolov5s" };

  zw_test_socket_mode_from_args (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (demos); i++)
    {
      g_autofree char *path = g_strdup_printf ("/host-reference/demo/%s", demos[i]);
      g_test_add_data_func (path, demos[i], test_demo);
    }
  g_test_add_func ("/host-reference/real/zg330", test_real_zg330);
  g_test_add_func ("/host-reference/real/buyi", test_real_buyi);
  g_test_add_func ("/host-reference/difference-and-errors", test_difference_and_errors);
  return g_test_run ();
}
