/* test-manual-zg330 — the C++ examples of the ZG330Backend manual, translated line for line
 * into the C API (issue 36): each test is one example, each C++ line as a comment above the
 * C that does it, on the demo networks.
 *
 * What the translation changes, and why: the manual's paths become the demo networks (the
 * network loaded by zw_test_load_net: CreateFromJsonFile + loadParamsFromFile); its boards
 * (axi://, socket://haps-zg330@…) become mock://zg330 (and, for §2.1.1, a zhuge-board on loopback); img2Tensor's image is seeded bytes of
 * the input's size (zw_test_seeded_inputs); Backend::Init() + init() is one call here
 * (xrt_backend_new). Each output is compared byte for byte with the C API's reference run
 * (zw_test_reference_outputs: a session on mock://zg330 as `xrt-run run` makes it). */
#include "xrt/xrt-session.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-tensor.h"
#include "xrt/xrt-mem.h"
#include "backends/zg330/zg330-backend.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* ---- ZG330Backend manual §2 --------------------------------------------------------------- */

/* §2.1.1 构造ZG330Device: the socket URL (a zhuge-board on loopback) and the mock URL; a
 * session on either gives the reference bytes */
static void
test_zg_2_1_1_open_device (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (XirNetwork) network = zw_test_load_net ("tiny");
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 11);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  /* auto axi_url = ""; auto socket_url = "socket://haps-zg330@192.168.124.24:5001"; auto mock_url = "mock://zg330"; */
  const char *socket_url = board ? board->url : NULL, *mock_url = "mock://zg330";
  const char *urls[] = { mock_url, socket_url };

  for (guint i = 0; i < G_N_ELEMENTS (urls) && urls[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      /* Device device; device = Device::Open(socket_url); */
      g_autoptr (XrtDevice) device = xrt_device_open (urls[i], &error);
      g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
      g_autoptr (XrtSession) sess = NULL;
      g_autoptr (GPtrArray) outs = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (xrt_device_get_url (device), ==, urls[i]);
      sess = xrt_session_new_for_device (view, device, &error);
      g_assert_true (xrt_session_apply (sess, &error));
      outs = xrt_session_forward (sess, inputs, &error);
      g_assert_no_error (error);
      zw_test_assert_same_outputs (outs, ref);
    }
}

/* §2.2.1 Session::Create时构造 */
static void
test_zg_2_2_1_session_create (gconstpointer name)
{
  g_autoptr (GError) error = NULL;
  /* auto host_device = HostDevice::Default(); auto zg330_device = Device::Open("socket://…"); */
  XrtDevice *host_device = NULL;
  g_autoptr (XrtDevice) zg330_device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  /* auto sess1 = Session::Create<ZG330Backend, HostBackend>(network, { zg330_device, host_device }); */
  const char *types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devices[] = { zg330_device, host_device };
  g_autoptr (XrtSession) sess1 = xrt_session_new (view, types, devices, 2, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 12);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;
  Zg330Backend *zg330_backend;

  g_assert_no_error (error);
  /* auto& backends = sess1->backends; auto zg330_backend = backends[0].cast<ZG330Backend>(); */
  zg330_backend = ZG330_BACKEND (g_ptr_array_index (xrt_session_get_backends (sess1), 0));
  g_assert_true (zg330_backend_get_device (zg330_backend) == zg330_device);
  g_assert_true (xrt_session_apply (sess1, &error));
  g_assert_true (zg330_backend_is_applied (zg330_backend));
  outs = xrt_session_forward (sess1, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
}

/* §2.2.2 直接构造ZG330Backend, then (the manual's 重要 note) a session to forward it */
static void
test_zg_2_2_2_backend_init (void)
{
  g_autoptr (GError) error = NULL;
  /* Device device; device = Device::Open("socket://haps-zg330@192.168.124.24:5001"); */
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  /* auto network = Network::CreateFromJsonFile("./yolov5s_ZG.json"); network.loadParamsFromFile("./yolov5s_ZG.raw"); */
  g_autoptr (XirNetwork) network = zw_test_load_net ("yolov5s");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  /* icraft::xrt::Backend backend = ZG330Backend::Init(); backend.init(network, device); */
  g_autoptr (XrtBackend) backend = xrt_backend_new ("ZG330Backend", view, device, &error);
  /* auto zg330_backend = backend.cast<ZG330Backend>(); */
  Zg330Backend *zg330_backend = ZG330_BACKEND (backend);
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 13);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;

  g_assert_no_error (error);
  g_assert_false (zg330_backend_is_applied (zg330_backend));
  sess = xrt_session_new_with_backend (view, backend, &error);
  g_assert_true (xrt_session_apply (sess, &error));
  outs = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
}

/* §2.3.1 userReuseSegment 内存复用 (yolov5s as the manual): two backends of one network share
 * WEIGHT, INSTR and FTMP; a session of each gives the reference bytes */
static void
test_zg_2_3_1_user_reuse_segment (void)
{
  g_autoptr (GError) error = NULL;
  /* auto device = Device::Open("socket://haps-zg330@192.168.124.24:5001"); */
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  /* auto network = Network::CreateFromJsonFile("./yolov5s_ZG.json"); network.loadParamsFromFile("./yolov5s_ZG.raw"); */
  g_autoptr (XirNetwork) network = zw_test_load_net ("yolov5s");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  /* icraft::xrt::Backend backend1 = ZG330Backend::Init(); … backend1.init(network, device); backend2.init(network, device); */
  g_autoptr (XrtBackend) backend1 = xrt_backend_new ("ZG330Backend", view, device, &error);
  g_autoptr (XrtBackend) backend2 = xrt_backend_new ("ZG330Backend", view, device, &error);
  Zg330Backend *b1 = ZG330_BACKEND (backend1), *b2 = ZG330_BACKEND (backend2);
  /* auto instr_bytesize = backend1->logic_segment_map.at(SegmentType::INSTR)->byte_size; (weight, ftmp) */
  guint64 instr_bytesize = zg330_backend_get_logic_segment_size (b1, ZW_SEGMENT_INSTR, &error);
  guint64 weight_bytesize = zg330_backend_get_logic_segment_size (b1, ZW_SEGMENT_WEIGHT, &error);
  guint64 ftmp_bytesize = zg330_backend_get_logic_segment_size (b1, ZW_SEGMENT_FTMP, &error);
  /* auto weight_chunk = device.defaultMemRegion().malloc(weight_bytesize, true, 4096); (instr, ftmp) */
  XrtMemRegion *etm = xrt_device_get_default_mem_region (device);
  g_autoptr (XrtMemChunk) weight_chunk = xrt_mem_region_malloc (etm, weight_bytesize, TRUE, 4096, &error);
  g_autoptr (XrtMemChunk) instr_chunk = xrt_mem_region_malloc (etm, instr_bytesize, TRUE, 4096, &error);
  g_autoptr (XrtMemChunk) ftmp_chunk = xrt_mem_region_malloc (etm, ftmp_bytesize, TRUE, 4096, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 14);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);

  g_assert_no_error (error);
  /* backend1.userReuseSegment(weight_chunk, SegmentType::WEIGHT); … (six calls) */
  g_assert_true (zg330_backend_user_reuse_segment (b1, weight_chunk, ZW_SEGMENT_WEIGHT, &error));
  g_assert_true (zg330_backend_user_reuse_segment (b2, weight_chunk, ZW_SEGMENT_WEIGHT, &error));
  g_assert_true (zg330_backend_user_reuse_segment (b1, instr_chunk, ZW_SEGMENT_INSTR, &error));
  g_assert_true (zg330_backend_user_reuse_segment (b2, instr_chunk, ZW_SEGMENT_INSTR, &error));
  g_assert_true (zg330_backend_user_reuse_segment (b1, ftmp_chunk, ZW_SEGMENT_FTMP, &error));
  g_assert_true (zg330_backend_user_reuse_segment (b2, ftmp_chunk, ZW_SEGMENT_FTMP, &error));
  /* backend1.apply(); backend2.apply(); */
  g_assert_true (xrt_backend_apply (backend1, &error));
  g_assert_true (xrt_backend_apply (backend2, &error));
  g_assert_no_error (error);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (XrtSession) sess = xrt_session_new_with_backend (view, k ? backend2 : backend1, &error);
      g_autoptr (GPtrArray) outs = NULL;
      g_assert_true (xrt_session_apply (sess, &error));
      outs = xrt_session_forward (sess, inputs, &error);
      g_assert_no_error (error);
      zw_test_assert_same_outputs (outs, ref);
    }
  {
    g_autoptr (ZwDeployReport) r1 = zg330_backend_get_report (b1);
    g_autoptr (ZwDeployReport) r2 = zg330_backend_get_report (b2);
    g_assert_cmpuint (r1->segments[ZW_SEGMENT_WEIGHT].phy_addr, ==, xrt_mem_chunk_get_addr (weight_chunk));
    g_assert_cmpuint (r2->segments[ZW_SEGMENT_FTMP].phy_addr, ==, xrt_mem_chunk_get_addr (ftmp_chunk));
  }
}

/* §2.3.2 userConnectNetwork 多网络输入输出连接: the manual's two networks are the two halves of
 * one (its output_id 10 and input_id 1 are one value here, the cut's): the first's output in
 * the user's chunk is the second's input; the second session gives the whole network's bytes */
static void
test_zg_2_3_2_user_connect_network (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) zg330_device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net ("tiny");
  g_autoptr (XirNetworkView) view1 = xir_network_view (network, 0, 3, &error);
  g_autoptr (XirNetworkView) view2 = xir_network_view (network, 3, G_MAXINT, &error);
  /* icraft::xrt::Backend zg330_backend1 = ZG330Backend::Init(); … zg330_backend1.init(network, device); … */
  g_autoptr (XrtBackend) zg330_backend1 = xrt_backend_new ("ZG330Backend", view1, zg330_device, &error);
  g_autoptr (XrtBackend) zg330_backend2 = xrt_backend_new ("ZG330Backend", view2, zg330_device, &error);
  /* auto output_id = 10; auto input_id = 1; */
  gint64 output_id = ((XirValue *) g_ptr_array_index (xir_network_view_get_outputs (view1), 0))->v_id;
  gint64 input_id = ((XirValue *) g_ptr_array_index (xir_network_view_get_inputs (view2), 0))->v_id;
  /* auto output_size = network.getValueById(output_id).storageBytes(); */
  guint64 output_size = xir_network_get_value (network, output_id)->storage_bytes;
  /* auto memchunk = zg330_device.defaultMemRegion().malloc(output_size, true, 4096); */
  g_autoptr (XrtMemChunk) memchunk = xrt_mem_region_malloc (xrt_device_get_default_mem_region (zg330_device), output_size,
                                                            TRUE, 4096, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 15);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (XrtSession) sess1 = NULL, sess2 = NULL;
  g_autoptr (GPtrArray) middle = NULL, outs = NULL;
  g_autoptr (GPtrArray) connected = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);

  g_assert_no_error (error);
  g_assert_cmpint (output_id, ==, input_id);
  /* zg330_backend1.userConnectNetwork(memchunk, output_id); zg330_backend2.userConnectNetwork(memchunk, input_id); */
  g_assert_true (zg330_backend_user_connect_network (ZG330_BACKEND (zg330_backend1), memchunk, output_id, &error));
  g_assert_true (zg330_backend_user_connect_network (ZG330_BACKEND (zg330_backend2), memchunk, input_id, &error));
  /* zg330_backend1.apply(); zg330_backend2.apply(); */
  g_assert_true (xrt_backend_apply (zg330_backend1, &error));
  g_assert_true (xrt_backend_apply (zg330_backend2, &error));
  g_assert_no_error (error);
  sess1 = xrt_session_new_with_backend (view1, zg330_backend1, &error);
  sess2 = xrt_session_new_with_backend (view2, zg330_backend2, &error);
  g_assert_true (xrt_session_apply (sess1, &error));
  g_assert_true (xrt_session_apply (sess2, &error));
  middle = xrt_session_forward (sess1, inputs, &error);
  g_assert_no_error (error);
  {
    /* the first network's output is in the user's chunk */
    g_autoptr (GBytes) in_chunk = xrt_mem_chunk_read_bytes (memchunk, 0, output_size, &error);
    g_autoptr (GBytes) out = xrt_tensor_get_bytes (g_ptr_array_index (middle, 0), &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (in_chunk, out));
  }
  g_ptr_array_add (connected, xrt_tensor_new (network, xir_network_get_value (network, input_id), memchunk, 0, &error));
  outs = xrt_session_forward (sess2, connected, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
}

/* §2.3.3 disableMergeHardOp, §2.3.4 disableEtmOptimize, §2.3.5 ocmOptimize (each option):
 * the same bytes as the zw_test_reference_outputs (defaults: merge, ETM optimize, BEST_SCORE) */
typedef struct {
  const char *what;
  gboolean no_merge, no_etm;
  ZwOcmOpt ocm;
} Options;

static void
test_zg_2_3_3_to_2_3_5_options (gconstpointer data)
{
  const Options *opt = data;
  g_autoptr (GError) error = NULL;
  /* // 1.打开设备  // 2.加载网络  // 3.构建ZG330Backend */
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net ("resnet18");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtBackend) backend = xrt_backend_new ("ZG330Backend", view, device, &error);
  Zg330Backend *zg_backend = ZG330_BACKEND (backend);
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 16);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;

  g_assert_no_error (error);
  /* zg_backend.disableMergeHardOp(); */
  if (opt->no_merge)
    g_assert_true (zg330_backend_disable_merge_hardop (zg_backend, &error));
  /* zg_backend.disableEtmOptimize(); */
  if (opt->no_etm)
    g_assert_true (zg330_backend_disable_etm_optimize (zg_backend, &error));
  /* zg_backend.ocmOptimize(OcmOpt::…); */
  g_assert_true (zg330_backend_ocm_optimize (zg_backend, opt->ocm, &error));
  /* zg_backend.apply(); */
  g_assert_true (xrt_backend_apply (backend, &error));
  g_assert_no_error (error);
  g_assert_cmpint (zg330_backend_get_merge_hardop (zg_backend), ==, !opt->no_merge);
  g_assert_cmpint (zg330_backend_get_etm_optimize (zg_backend), ==, !opt->no_etm);
  if (opt->ocm != ZW_OCM_BEST_SCORE)
    g_assert_cmpint (zg330_backend_get_ocm_opt (zg_backend), ==, opt->ocm);
  sess = xrt_session_new_with_backend (view, backend, &error);
  g_assert_true (xrt_session_apply (sess, &error));
  outs = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
}

int
main (int argc, char **argv)
{
  static const char *const demos[] = { "tiny", "twoin", "resnet18", "mobilenetv2", "yolov5s" };
  static const Options options[] = {
    { "2.3.3-disable-merge", TRUE, FALSE, ZW_OCM_BEST_SCORE },
    { "2.3.4-disable-etm-optimize", FALSE, TRUE, ZW_OCM_BEST_SCORE },
    { "2.3.5-ocm-none", FALSE, FALSE, ZW_OCM_NONE },
    { "2.3.5-ocm-option1", FALSE, FALSE, ZW_OCM_OPTION1 },
    { "2.3.5-ocm-option2", FALSE, FALSE, ZW_OCM_OPTION2 },
    { "2.3.5-ocm-option3", FALSE, FALSE, ZW_OCM_OPTION3 },
    { "2.3.5-ocm-best-score", FALSE, FALSE, ZW_OCM_BEST_SCORE },
  };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/manual/zg330backend/2.1.1-open-device", test_zg_2_1_1_open_device);
  for (guint i = 0; i < G_N_ELEMENTS (demos); i++)
    {
      g_autofree char *p = g_strdup_printf ("/manual/zg330backend/2.2.1-session-create/%s", demos[i]);
      g_test_add_data_func (p, demos[i], test_zg_2_2_1_session_create);
    }
  g_test_add_func ("/manual/zg330backend/2.2.2-backend-init", test_zg_2_2_2_backend_init);
  g_test_add_func ("/manual/zg330backend/2.3.1-user-reuse-segment", test_zg_2_3_1_user_reuse_segment);
  g_test_add_func ("/manual/zg330backend/2.3.2-user-connect-network", test_zg_2_3_2_user_connect_network);
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autofree char *p = g_strdup_printf ("/manual/zg330backend/%s", options[i].what);
      g_test_add_data_func (p, &options[i], test_zg_2_3_3_to_2_3_5_options);
    }
  return g_test_run ();
}
