/* test-manual-xrt — the C++ examples of the XRT manual, translated line for line into the C
 * API (issue 36): each test is one example, each C++ line as a comment above the C that does
 * it, on the demo networks (tiny, twoin, resnet18, mobilenetv2, yolov5s).
 *
 * What the translation changes, and why: the manual's paths become the demo networks (the
 * network loaded by zw_test_load_net: CreateFromJsonFile + loadParamsFromFile); its boards
 * (axi://, socket://haps-zg330@…) become mock://zg330; the BuyiBackend examples (§1.1.1, §1.1.2, §1.5) run with the
 * ZG330Backend on a ZG330 network (the Buyi forms are in test-buyi-session.c); a Tensor's
 * check function is its ready state (xrt_tensor_set_ready); img2Tensor's image is seeded bytes of
 * the input's size (zw_test_seeded_inputs); Backend::Init() + init() is one call here
 * (xrt_backend_new). Each output is compared byte for byte with the C API's reference run
 * (zw_test_reference_outputs: a session on mock://zg330 as `xrt-run run` makes it). */
#include "xrt/xrt-session.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-tensor.h"
#include "xrt/xrt-mem.h"
#include "backends/zg330/zg330-backend.h"
#include "report/zw-profile.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static gint64
op_id_at (XirNetwork *network, guint index)
{
  return xir_network_get_op (network, index)->op_id;
}

/* ---- XRT manual §1.1 --------------------------------------------------------------------- */

/* §1.1.1 按优先级创建Session (ZG330 for the manual's Buyi) */
static void
test_xrt_1_1_1_create_by_priority (void)
{
  g_autoptr (GError) error = NULL;
  /* auto host_device = HostDevice::Default(); */
  XrtDevice *host_device = NULL;
  /* auto buyi_device = Device::Open("axi://ql100aiu?npu=0x40000000&dma=0x80000000"); */
  g_autoptr (XrtDevice) zg330_device = xrt_device_open ("mock://zg330", &error);
  /* auto network = Network::CreateFromJsonFile(json_file); network.loadParamsFromFile(raw_file); */
  g_autoptr (XirNetwork) network = zw_test_load_net ("tiny");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  /* auto sess1 = Session::Create<BuyiBackend, HostBackend>(network, { buyi_device, host_device }); */
  const char *types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devices[] = { zg330_device, host_device };
  g_autoptr (XrtSession) sess1 = xrt_session_new (view, types, devices, 2, &error);
  GPtrArray *backends;
  XrtBackend *zg330_backend, *host_backend;
  g_autoptr (XrtBackend) zg330_backend2 = NULL, host_backend2 = NULL;
  g_autoptr (XrtSession) sess2 = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 1);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) o1 = NULL, o2 = NULL;

  g_assert_no_error (error);
  /* auto& backends = sess1->backends; */
  backends = xrt_session_get_backends (sess1);
  /* auto buyi_backend = backends[0].cast<BuyiBackend>(); auto host_backend = backends[1].cast<HostBackend>(); */
  zg330_backend = g_ptr_array_index (backends, 0);
  host_backend = g_ptr_array_index (backends, 1);
  g_assert_true (ZG330_IS_BACKEND (zg330_backend));
  g_assert_cmpstr (xrt_backend_get_name (host_backend), ==, "HostBackend");
  /* auto buyi_backend = BuyiBackend::Init(); auto host_backend = HostBackend::Init(); (init: below) */
  zg330_backend2 = xrt_backend_new ("ZG330Backend", view, zg330_device, &error);
  host_backend2 = xrt_backend_new ("HostBackend", view, host_device, &error);
  g_assert_no_error (error);
  /* auto sess2 = Session::CreateByOrder(network, {buyi_backend, host_backend}, {buyi_device, host_device}); */
  {
    XrtBackend *by_order[] = { zg330_backend2, host_backend2 };
    sess2 = xrt_session_new_with_backends (view, by_order, 2, &error);
    g_assert_no_error (error);
  }
  g_assert_true (xrt_session_apply (sess1, &error));
  g_assert_true (xrt_session_apply (sess2, &error));
  g_assert_no_error (error);
  /* every HardOp on the board backend, Input and Output on the host, in both sessions */
  for (guint i = 0; i < xir_network_get_n_ops (network); i++)
    {
      const XirOp *op = xir_network_get_op (network, i);
      gboolean hard = op->kind == XIR_OP_HARDOP;
      g_assert_true (xrt_session_get_op_backend (sess1, op->op_id) == (hard ? zg330_backend : host_backend));
      g_assert_true (xrt_session_get_op_backend (sess2, op->op_id) == (hard ? zg330_backend2 : host_backend2));
    }
  o1 = xrt_session_forward (sess1, inputs, &error);
  o2 = xrt_session_forward (sess2, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (o1, ref);
  zw_test_assert_same_outputs (o2, ref);
}

/* §1.1.2 使用绑定好算子和设备的后端创建Session: the HostBackend on view({Input, Output}),
 * the board backend on view({the HardOps}) (the manual's {0,1,2,5,6,7} and {3,4}) */
static void
test_xrt_1_1_2_create_with_backends (void)
{
  g_autoptr (GError) error = NULL;
  /* auto network = generate_network("whatever", Framework::PYTORCH, "v1.9"); */
  g_autoptr (XirNetwork) network = zw_test_load_net ("tiny");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  guint n = xir_network_get_n_ops (network);
  /* auto host_device = HostDevice::Default(); auto buyi_device = Device::Open("axi://…"); */
  XrtDevice *host_device = NULL;
  g_autoptr (XrtDevice) zg330_device = xrt_device_open ("mock://zg330", &error);
  const gint64 host_ops[] = { op_id_at (network, 0), op_id_at (network, n - 1) };
  g_autofree gint64 *board_ops = g_new (gint64, n - 2);
  g_autoptr (XrtBackend) host_backend = NULL, zg330_backend = NULL;
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 2);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;

  for (guint i = 1; i + 1 < n; i++)
    board_ops[i - 1] = op_id_at (network, i);
  /* auto host_backend = Backend::Create<HostBackend>(network.view({0, 1, 2, 5, 6, 7}), host_device); */
  host_backend = xrt_backend_new ("HostBackend", view, host_device, &error);
  g_assert_true (xrt_backend_set_op_ids (host_backend, host_ops, 2, &error));
  /* auto buyi_backend = Backend::Create<BuyiBackend>(network.view(std::vector<int64_t>{3, 4}), buyi_device); */
  zg330_backend = xrt_backend_new ("ZG330Backend", view, zg330_device, &error);
  g_assert_true (xrt_backend_set_op_ids (zg330_backend, board_ops, n - 2, &error));
  g_assert_no_error (error);
  /* auto sess = Session::CreateWithBackends(network, { host_backend, buyi_backend }); */
  {
    XrtBackend *backends[] = { host_backend, zg330_backend };
    sess = xrt_session_new_with_backends (view, backends, 2, &error);
    g_assert_no_error (error);
  }
  g_assert_true (xrt_session_apply (sess, &error));
  g_assert_no_error (error);
  g_assert_true (xrt_session_get_op_backend (sess, host_ops[0]) == host_backend);
  g_assert_true (xrt_session_get_op_backend (sess, host_ops[1]) == host_backend);
  for (guint i = 0; i < n - 2; i++)
    g_assert_true (xrt_session_get_op_backend (sess, board_ops[i]) == zg330_backend);
  outs = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
}

/* §1.2 序列化Session生成快照文件, then §1.1.3 使用序列化得到的快照文件 */
static void
test_xrt_1_2_and_1_1_3_snapshot (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-manual-XXXXXX");
  g_autofree char *filepath = g_build_filename (dir, "resnet18.snapshot", NULL);
  /* // 打开设备  // 加载网络  // 创建Session  // 部署session */
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net ("resnet18");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtSession) sess = xrt_session_new_for_device (view, device, &error);
  g_autoptr (XrtSession) restored = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 3);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;

  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (sess, &error));
  /* sess.dumpSnapshot(filepath); */
  g_assert_true (xrt_session_dump_snapshot (sess, filepath, &error));
  g_assert_no_error (error);
  /* Session sess = Session::CreateWithSnapshot(snapshot_file, { BuyiBackend::Init(), HostBackend::Init() },
   *                                            { device, HostDevice::Default() }); */
  restored = xrt_session_new_from_snapshot (filepath, NULL, device, &error);
  g_assert_no_error (error);
  outs = xrt_session_forward (restored, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
  g_remove (filepath);
  g_rmdir (dir);
}

/* ---- XRT manual §1.3 --------------------------------------------------------------------- */

/* §1.3.1 forward前向: Session::Create<HostBackend> — the host reference run — on every demo */
static void
test_xrt_1_3_1_forward (gconstpointer name)
{
  g_autoptr (GError) error = NULL;
  /* auto network = Network::CreateFromJsonFile(json_file); network.loadParamsFromFile(raw_file); */
  g_autoptr (XirNetwork) network = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  /* auto sess = Session::Create<HostBackend>(network, { HostDevice::Default()}); */
  const char *types[] = { "HostBackend" };
  XrtDevice *devices[] = { NULL };
  g_autoptr (XrtSession) sess = xrt_session_new (view, types, devices, 1, &error);
  /* auto input_dtype = network.inputOp()[0].dtype(); auto input_tensor = img2Tensor(img_file, input_dtype); */
  g_autoptr (GPtrArray) input_tensors = zw_test_seeded_inputs (network, 4);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, input_tensors, NULL);
  g_autoptr (GPtrArray) output_tensors = NULL;

  g_assert_no_error (error);
  /* sess.apply(); */
  g_assert_true (xrt_session_apply (sess, &error));
  /* auto output_tensors = sess.forward({ input_tensor }); */
  output_tensors = xrt_session_forward (sess, input_tensors, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (output_tensors, ref);
}

/* §1.3.2 forward前向，指定输出tensor数据存储地址 */
static void
test_xrt_1_3_2_forward_into_outputs (gconstpointer name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtSession) session = xrt_session_new_for_device (view, device, &error);
  g_autoptr (GPtrArray) input_tensors = zw_test_seeded_inputs (network, 5);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, input_tensors, NULL);
  /* std::vector<Tensor> output_tensors; */
  g_autoptr (GPtrArray) output_tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *outputs = xir_network_get_outputs (network);

  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (session, &error));
  /* for (const auto& output : network.outputs()) { */
  for (guint k = 0; k < outputs->len; k++)
    {
      const XirValue *output = g_ptr_array_index (outputs, k);
      /* auto output_chunk = device.defaultMemRegion().malloc(output.storageBytes(), true, 4096); */
      g_autoptr (XrtMemChunk) output_chunk = xrt_mem_region_malloc (xrt_device_get_default_mem_region (device),
                                                                    output->storage_bytes, TRUE, 4096, &error);
      /* auto tensor = Tensor(output.tensorType(), output_chunk, 0); output_tensors.emplace_back(tensor); */
      XrtTensor *tensor = output_chunk ? xrt_tensor_new (network, output, output_chunk, 0, &error) : NULL;
      g_assert_no_error (error);
      g_ptr_array_add (output_tensors, tensor);
    }
  /* session.forward(input_tensors, output_tensors); */
  g_assert_true (xrt_session_forward_into (session, input_tensors, output_tensors, &error));
  g_assert_no_error (error);
  zw_test_assert_same_outputs (output_tensors, ref);
  for (guint k = 0; k < output_tensors->len; k++)
    g_assert_true (xrt_tensor_is_on (g_ptr_array_index (output_tensors, k), xrt_device_get_default_mem_region (device)));
}

/* §1.3.3 stepTo前向: every op's outputs dumped as SQB into dumps.SQB/{v_id}.ftmp, each file the
 * C API's SQB dump of that value. (The manual dumps output_tensors[0] for every i; here the
 * i-th, which it means: the same for single-output ops, right for the two-input Input.) */
static void
test_xrt_1_3_3_step_to (gconstpointer name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-manual-XXXXXX");
  g_autofree char *dump_dir = g_build_filename (dir, "dumps.SQB", NULL);
  g_autofree char *ref_dir = g_build_filename (dir, "ref", NULL);
  g_autoptr (XirNetwork) network = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  const char *types[] = { "HostBackend" };
  XrtDevice *devices[] = { NULL };
  /* auto sess = Session::Create<HostBackend>(network, { HostDevice::Default()}); sess.apply(); */
  g_autoptr (XrtSession) sess = xrt_session_new (view, types, devices, 1, &error);
  g_autoptr (GPtrArray) input_tensors = zw_test_seeded_inputs (network, 6);
  guint checked = 0;

  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (sess, &error));
  /* the reference: the C API's session dumping every value as SQB */
  {
    g_autoptr (XirNetworkView) v = zw_test_whole_view (network);
    g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
    g_autoptr (XrtSession) r = xrt_session_new_for_device (v, dev, &error);
    g_autoptr (GPtrArray) outs = NULL;
    g_assert_true (xrt_session_apply (r, &error));
    g_assert_true (xrt_session_set_dump_outputs (r, TRUE, ref_dir, "SQB", &error));
    outs = xrt_session_forward (r, input_tensors, &error);
    g_assert_no_error (error);
  }
  /* for (auto&& op : sess->network_view->ops) { */
  for (guint i = xir_network_view_get_start (view); i < xir_network_view_get_start (view) + xir_network_view_get_n_ops (view);
       i++)
    {
      const XirOp *op = xir_network_get_op (network, i);
      /* output_tensors = sess.stepTo(op.opId(), { input_tensor }); */
      g_autoptr (GPtrArray) output_tensors = xrt_session_step_to (sess, op->op_id, input_tensors, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (output_tensors->len, ==, op->outputs->len);
      /* for (uint64_t i = 0; i < op.outputsNum(); i++) { */
      for (guint k = 0; k < op->outputs->len; k++)
        {
          /* auto output = op[i]; auto output_tensor = output_tensors[i]; */
          const XirValue *output = g_ptr_array_index (op->outputs, k);
          XrtTensor *output_tensor = g_ptr_array_index (output_tensors, k);
          /* std::string dump_dir = "dumps.SQB"; std::filesystem::create_directory(dump_dir); */
          g_autofree char *file = g_strdup_printf ("%li.ftmp", (long) output->v_id);
          g_autofree char *path = g_build_filename (dump_dir, file, NULL);
          g_autofree char *ref_path = g_build_filename (ref_dir, file, NULL);
          g_autoptr (GBytes) dumped = NULL;
          g_autofree char *a = NULL, *b = NULL;
          gsize na = 0, nb = 0;

          g_assert_cmpint (g_mkdir_with_parents (dump_dir, 0755), ==, 0);
          /* auto os = std::ofstream(fmt::format("{}/{}.ftmp", dump_dir, output->v_id), std::ios::binary);
           * output_tensors[0].dump(os, "SQB"); */
          dumped = xrt_tensor_dump (output_tensor, "SQB", &error);
          g_assert_no_error (error);
          g_assert_true (g_file_set_contents (path, g_bytes_get_data (dumped, NULL), (gssize) g_bytes_get_size (dumped),
                                              &error));
          g_assert_true (g_file_get_contents (path, &a, &na, &error));
          g_assert_no_error (error);
          if (!g_file_get_contents (ref_path, &b, &nb, NULL))
            continue;   /* a value the reference folded away (a zero-copy op's output) */
          g_assert_cmpmem (a, na, b, nb);
          checked++;
        }
    }
  g_test_message ("%s: %u values dumped by stepTo equal the C API's SQB dump", (const char *) name, checked);
  g_assert_cmpuint (checked, >=, 4);
}

/* ---- XRT manual §1.4 --------------------------------------------------------------------- */

static guint
count_lines_with (const char *text, const char *needle)
{
  guint n = 0;

  for (const char *p = text; (p = strstr (p, needle)) != NULL; p += strlen (needle))
    n++;
  return n;
}

/* §1.4.1 setLogIO and §1.4.2 setLogTime: a line per step (HardOp(Merged) for a merged launch) */
static void
test_xrt_1_4_1_and_1_4_2_log_io_and_time (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net ("tiny");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtSession) session = xrt_session_new_for_device (view, device, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 7);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *log = open_memstream (&text, &len);

  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (session, &error));
  xrt_session_set_log_stream (session, log);
  /* session.setLogIO(true); */
  xrt_session_set_log_io (session, TRUE);
  /* session.setLogTime(true); */
  xrt_session_set_log_time (session, TRUE);
  outs = xrt_session_forward (session, inputs, &error);
  g_assert_no_error (error);
  xrt_session_set_log_stream (session, NULL);
  fclose (log);
  zw_test_assert_same_outputs (outs, ref);
  g_assert_cmpuint (count_lines_with (text, "opId: "), ==, xrt_session_get_n_forwards (session));
  g_assert_cmpuint (count_lines_with (text, " Inputs: "), ==, xrt_session_get_n_forwards (session));
  g_assert_cmpuint (count_lines_with (text, " time: "), ==, xrt_session_get_n_forwards (session));
  g_assert_cmpuint (count_lines_with (text, "HardOp(Merged)"), ==, 1);
  free (text);
}

/* §1.4.3 setDumpOutputs(true, "./", "HQB"): every value, each the C API's HQB bytes */
static void
test_xrt_1_4_3_dump_outputs (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-manual-XXXXXX");
  g_autofree char *mine = g_build_filename (dir, "mine", NULL), *ref_dir = g_build_filename (dir, "ref", NULL);
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net ("mobilenetv2");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtSession) session = xrt_session_new_for_device (view, device, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 8);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, ref_dir);
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (GDir) d = NULL;
  const char *file;
  guint n = 0;

  g_assert_no_error (error);
  /* for the values on OCM: merge off, as the manual's §1.5 of the ZG330Backend manual says */
  g_assert_true (zg330_backend_disable_merge_hardop (ZG330_BACKEND (xrt_session_get_board_backend (session)), &error));
  g_assert_true (xrt_session_apply (session, &error));
  /* session.setDumpOutputs(true, "./", "HQB"); */
  g_assert_true (xrt_session_set_dump_outputs (session, TRUE, mine, "HQB", &error));
  outs = xrt_session_forward (session, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
  d = g_dir_open (ref_dir, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *a = g_build_filename (mine, file, NULL), *b = g_build_filename (ref_dir, file, NULL);
      g_autofree char *ta = NULL, *tb = NULL;
      gsize na = 0, nb = 0;
      if (!g_str_has_suffix (file, ".ftmp"))
        continue;
      g_assert_true (g_file_get_contents (a, &ta, &na, NULL));
      g_assert_true (g_file_get_contents (b, &tb, &nb, NULL));
      g_assert_cmpmem (ta, na, tb, nb);
      n++;
    }
  g_test_message ("mobilenetv2: %u values dumped as HQB, each the C API's bytes", n);
  g_assert_cmpuint (n, >, 50);
}

typedef struct {
  GArray *pre, *post;   /* op ids */
} Calls;

/* void preFunc(const Session& sess, const Operation& op, const Backend& backend, std::vector<Tensor>& output_tensors) */
static void
pre_func (XrtSession *sess, const XrtForward *op, GPtrArray *output_tensors, gpointer data)
{
  (void) sess;
  g_assert_cmpuint (output_tensors->len, ==, 0);
  /* ICRAFT_LOG(INFO).append("before forward op: {} \n", op->op_id); */
  g_array_append_val (((Calls *) data)->pre, op->op_id);
}

static void
post_func (XrtSession *sess, const XrtForward *op, GPtrArray *output_tensors, gpointer data)
{
  (void) sess;
  /* every step but the Output op hands its outputs over */
  g_assert_true (output_tensors->len > 0 || (op->op != NULL && op->op->kind == XIR_OP_OUTPUT));
  /* ICRAFT_LOG(INFO).append("after forward op: {} \n", op->op_id); */
  g_array_append_val (((Calls *) data)->post, op->op_id);
}

/* §1.4.4 setPreCallBack、setPostCallBack: before and after every step, in getForwards' order */
static void
test_xrt_1_4_4_callbacks (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  g_autoptr (XirNetwork) network = zw_test_load_net ("tiny");
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtSession) session = xrt_session_new_for_device (view, device, &error);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 9);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (GArray) pre = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) post = g_array_new (FALSE, FALSE, sizeof (gint64));
  Calls calls = { pre, post };

  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (session, &error));
  /* session.setPreCallBack(preFunc); session.setPostCallBack(postFunc); */
  xrt_session_set_pre_callback (session, pre_func, &calls);
  xrt_session_set_post_callback (session, post_func, &calls);
  outs = xrt_session_forward (session, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
  g_assert_cmpuint (pre->len, ==, xrt_session_get_n_forwards (session));
  g_assert_cmpuint (post->len, ==, pre->len);
  for (guint i = 0; i < pre->len; i++)
    {
      g_assert_cmpint (g_array_index (pre, gint64, i), ==, xrt_session_get_forward (session, i)->op_id);
      g_assert_cmpint (g_array_index (post, gint64, i), ==, xrt_session_get_forward (session, i)->op_id);
    }
  xrt_session_set_pre_callback (session, NULL, NULL);
  xrt_session_set_post_callback (session, NULL, NULL);
}

/* ---- XRT manual §1.5, §2.1, §2.6, §2.8 ----------------------------------------------------- */

/* §1.5 获取内存分配情况功能 (the board's ETM for the manual's plddr) */
static void
test_xrt_1_5_memory_info (void)
{
  g_autoptr (GError) error = NULL;
  /* auto buyi_device = Device::Open("axi://ql100aiu?npu=0x40000000&dma=0x80000000"); */
  g_autoptr (XrtDevice) buyi_device = xrt_device_open ("mock://zg330", &error);
  /* auto plddr_region = buyi_device.getMemRegion("plddr"); */
  XrtMemRegion *plddr_region = xrt_device_get_mem_region (buyi_device, "ETM", &error);
  guint64 at = xrt_mem_region_get_base (plddr_region) + (1u << 30);   /* past what the sessions use */
  /* auto chunk1 = plddr_region.malloc(1024); */
  g_autoptr (XrtMemChunk) chunk1 = xrt_mem_region_malloc (plddr_region, 1024, TRUE, 0, &error);
  /* auto chunk2 = plddr_region.malloc(MemPtr(8192), 1024); */
  g_autoptr (XrtMemChunk) chunk2 = xrt_mem_region_malloc_at (plddr_region, at, 1024, TRUE, &error);
  /* auto pl_chunks = plddr_region.memManager().getAllMemChunk(); */
  g_autoptr (GPtrArray) pl_chunks = xrt_mem_manager_list_chunks (xrt_mem_region_get_manager (plddr_region));
  /* auto unique_chunk = plddr_region.memManager().getMemChunk(MemPtr(4096), 1024); */
  g_autoptr (XrtMemChunk) unique_chunk = xrt_mem_manager_find_chunk (xrt_mem_region_get_manager (plddr_region),
                                                                     xrt_mem_ptr_from_addr (at), 1024);
  g_autoptr (XrtMemChunk) none = xrt_mem_manager_find_chunk (xrt_mem_region_get_manager (plddr_region),
                                                             xrt_mem_ptr_from_addr (at + 4096), 1024);

  g_assert_no_error (error);
  g_assert_true (g_ptr_array_find (pl_chunks, chunk1, NULL));
  g_assert_true (g_ptr_array_find (pl_chunks, chunk2, NULL));
  g_assert_cmpuint (xrt_mem_chunk_get_addr (chunk2), ==, at);
  g_assert_true (unique_chunk == chunk2);
  g_assert_null (none);   /* "如果不存在，返回nullopt" */
}

/* §2.1 MemPtr */
static void
test_xrt_2_1_mem_ptr (void)
{
  g_autoptr (GError) error = NULL;
  /* auto null_ptr1 = MemPtr::Init(); auto null_ptr2 = MemPtr(nullptr); auto null_ptr3 = MemPtr::NullPtr(); */
  XrtMemPtr null_ptr1 = xrt_mem_ptr_null (), null_ptr2 = xrt_mem_ptr_from_cptr (NULL), null_ptr3 = xrt_mem_ptr_null ();
  char tmp[8];
  /* auto c_ptr1 = MemPtr(tmp); */
  XrtMemPtr c_ptr1 = xrt_mem_ptr_from_cptr (tmp);
  /* auto addr = 0x40000000; auto addr_ptr1 = MemPtr(addr); */
  guint64 addr = 0x40000000, got = 0;
  XrtMemPtr addr_ptr1 = xrt_mem_ptr_from_addr (addr);
  /* auto both_ptr1 = MemPtr(tmp, addr); */
  XrtMemPtr both_ptr1 = xrt_mem_ptr_from_both (tmp, addr);
  /* auto both_ptr2 = 40 + both_ptr1; */
  XrtMemPtr both_ptr2 = xrt_mem_ptr_offset (both_ptr1, 40);

  /* REQUIRE(null_ptr1.isNull()); … */
  g_assert_true (xrt_mem_ptr_is_null (null_ptr1) && xrt_mem_ptr_is_null (null_ptr2) && xrt_mem_ptr_is_null (null_ptr3));
  g_assert_cmpint (c_ptr1.ptype, ==, XRT_PTR_CPTR);
  g_assert_true (xrt_mem_ptr_get_cptr (c_ptr1, &error) == (guint8 *) tmp);
  g_assert_false (xrt_mem_ptr_is_null (c_ptr1));
  g_assert_cmpint (addr_ptr1.ptype, ==, XRT_PTR_ADDR);
  g_assert_true (xrt_mem_ptr_get_addr (addr_ptr1, &got, &error) && got == addr);
  g_assert_false (xrt_mem_ptr_is_null (addr_ptr1));
  g_assert_cmpint (both_ptr1.ptype, ==, XRT_PTR_BOTH);
  g_assert_true (xrt_mem_ptr_get_cptr (both_ptr1, &error) == (guint8 *) tmp);
  g_assert_true (xrt_mem_ptr_get_addr (both_ptr1, &got, &error) && got == addr);
  g_assert_no_error (error);
  /* REQUIRE(both_ptr2 - both_ptr1 == 40); REQUIRE(both_ptr2 - 40 == both_ptr1); REQUIRE(both_ptr1 < both_ptr2); */
  g_assert_cmpint ((gint64) (both_ptr2.addr - both_ptr1.addr), ==, 40);
  g_assert_cmpint (both_ptr2.cptr - both_ptr1.cptr, ==, 40);
  g_assert_cmpint ((gint64) both_ptr1.addr - (gint64) both_ptr2.addr, ==, -40);
  g_assert_true (both_ptr1.addr < both_ptr2.addr && both_ptr1.cptr < both_ptr2.cptr);
  /* the null pointer does not point: asking it for a device address says so */
  g_assert_false (xrt_mem_ptr_get_addr (null_ptr1, &got, &error));
  g_assert_nonnull (error);
}

/* chunk2's memory, and the flag its deleter sets (the C++ lambda's capture) */
typedef struct {
  char buf[8];
  gboolean chunk2_is_deleted;
} Chunk2;

static void
chunk2_deleter (gpointer begin)
{
  ((Chunk2 *) begin)->chunk2_is_deleted = TRUE;
}

/* §2.6 Tensor */
static void
test_xrt_2_6_tensor (void)
{
  g_autoptr (GError) error = NULL;
  const gint64 shape1[] = { 1, 416, 416, 3 }, shape2[] = { 8 }, shape3[] = { 1, 2, 3, 4 };
  /* auto host_mregion = HostDevice::MemRegion(); */
  XrtMemRegion *host_mregion = xrt_host_mem_region_get_default ();
  /* auto ttype1 = TensorType(FloatType::FP32(), { 1, 416, 416, 3 }, Layout("NHWC")); */
  g_autoptr (XirValue) ttype1 = xrt_tensor_make_dtype ("@fp(32)", "NHWC", shape1, 4, -1, NULL, 0, NULL, 0, &error);
  guint64 bytes = 416 * 416 * 3 * sizeof (float);
  /* auto chunk1 = host_mregion.malloc(ttype1.bytes()); */
  g_autoptr (XrtMemChunk) chunk1 = xrt_mem_region_malloc (host_mregion, bytes, TRUE, 0, &error);
  /* auto tensor1 = Tensor(ttype1, chunk1); auto data1 = tensor1.data(); */
  g_autoptr (XrtTensor) tensor1 = xrt_tensor_new_for_dtype (ttype1, chunk1, 0, &error);
  g_autoptr (XrtTensor) tensor2 = NULL, tensor3 = NULL;
  g_autofree float *weight = g_new (float, bytes / sizeof (float));
  static Chunk2 c2;   /* static: the chunk may outlive this frame if a test fails */
  gboolean checked_ready = FALSE;

  g_assert_no_error (error);
  /* REQUIRE(data1 == chunk1->begin); REQUIRE(tensor1.isReady()); REQUIRE(tensor1.isOn(host_mregion)); */
  g_assert_true (xrt_tensor_get_host_data (tensor1, NULL) == xrt_mem_chunk_get_begin (chunk1).cptr);
  g_assert_true (xrt_tensor_is_ready (tensor1));
  g_assert_true (xrt_tensor_is_on (tensor1, host_mregion));
  g_assert_true (xrt_tensor_get_region (tensor1) == host_mregion);
  /* auto tensor2 = tensor1.to(host_mregion); REQUIRE(tensor2.same_as(tensor1)); */
  tensor2 = xrt_tensor_to (tensor1, host_mregion, &error);
  g_assert_true (tensor2 == tensor1);
  /* auto weight = Params(ttype1).fill<float>([](size_t i) { return (float)i; }); auto tensor3 = Tensor(weight); */
  for (guint64 i = 0; i < bytes / sizeof (float); i++)
    weight[i] = (float) i;
  tensor3 = xrt_tensor_new_host_for_dtype (ttype1, (const guint8 *) weight, bytes, &error);
  g_assert_no_error (error);
  /* tensor1.fill<float>([](size_t i) { return (float)i; }); */
  g_assert_true (xrt_tensor_write (tensor1, weight, bytes, &error));
  /* auto equal = memcmp(data1.cptr(), data3.cptr(), ttype1.bytes()) == 0; REQUIRE(equal); */
  g_assert_cmpint (memcmp (xrt_tensor_get_host_data (tensor1, NULL), xrt_tensor_get_host_data (tensor3, NULL), bytes), ==,
                   0);
  {
    /* auto ttype2 = TensorType(IntegerType::SInt8(), { 8 }, Layout("*")); auto tensor5 = Tensor(ttype2); */
    g_autoptr (XirValue) ttype2 = xrt_tensor_make_dtype ("@sint(8)", NULL, shape2, 1, -1, NULL, 0, NULL, 0, &error);
    XrtTensor *tensor5 = xrt_tensor_new_for_dtype (ttype2, NULL, 0, &error);
    g_assert_false (xrt_tensor_has_data (tensor5));
    {
      XrtTensor *tensor4 = xrt_tensor_new_for_dtype (ttype2, NULL, 0, &error);
      g_assert_false (xrt_tensor_has_data (tensor4));
      {
        /* char buf[8]; auto chunk2 = host_mregion.malloc(MemPtr(buf), 8, [&](auto& begin) { chunk2_is_deleted = true; }); */
        XrtMemChunk *chunk2 = xrt_mem_region_wrap_host (host_mregion, &c2, 8, chunk2_deleter, TRUE, &error);
        g_assert_no_error (error);
        /* tensor4.setData(chunk2); tensor5.setData(chunk2); */
        g_assert_true (xrt_tensor_set_data (tensor4, chunk2, 0, &error));
        g_assert_true (xrt_tensor_set_data (tensor5, chunk2, 0, &error));
        g_assert_no_error (error);
        xrt_mem_chunk_unref (chunk2);
      }
      /* REQUIRE(tensor4.hasData()); */
      g_assert_true (xrt_tensor_has_data (tensor4));
      xrt_tensor_unref (tensor4);
    }
    /* 这里tensor4析构，但是chunk2不会析构，因为还有tensor5引用了它: REQUIRE(!chunk2_is_deleted); */
    g_assert_false (c2.chunk2_is_deleted);
    xrt_tensor_unref (tensor5);
  }
  /* 这里tensor5也析构了，chunk2也会被析构: REQUIRE(chunk2_is_deleted) */
  g_assert_true (c2.chunk2_is_deleted);
  /* auto tensor6 = Tensor(ttype3, check_func).mallocOn(HostDevice::MemRegion()) */
  {
    g_autoptr (XirValue) ttype3 = xrt_tensor_make_dtype ("@fp(16)", "NHWC", shape3, 4, -1, NULL, 0, NULL, 0, &error);
    g_autoptr (XrtTensor) tensor6 = xrt_tensor_new_for_dtype (ttype3, NULL, 0, &error);
    g_assert_true (xrt_tensor_malloc_on (tensor6, xrt_host_mem_region_get_default (), &error));
    /* REQUIRE(!tensor6.isReady()); REQUIRE(!tensor6.waitForReady(1000ms, 1ms)); */
    g_assert_false (xrt_tensor_is_ready (tensor6));
    g_assert_false (xrt_tensor_wait_ready (tensor6, 10, &error));
    g_clear_error (&error);
    /* checked_ready = true; tensor6.waitForReady(1000ms); REQUIRE(tensor6.isReady()); */
    checked_ready = TRUE;
    xrt_tensor_set_ready (tensor6, checked_ready);
    g_assert_true (xrt_tensor_wait_ready (tensor6, 1000, &error));
    g_assert_true (xrt_tensor_is_ready (tensor6));
  }
  /* dump(os, format): H/S, F/Q, B/T; the raw bytes with no format */
  {
    g_autoptr (GBytes) raw = xrt_tensor_dump (tensor1, "", &error);
    g_autoptr (GBytes) sfb = xrt_tensor_dump (tensor1, "SFB", &error);
    g_autoptr (GBytes) sft = xrt_tensor_dump (tensor1, "SFT", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_bytes_get_size (raw), ==, bytes);
    g_assert_cmpmem (g_bytes_get_data (sfb, NULL), g_bytes_get_size (sfb), weight, bytes);
    g_assert_true (g_str_has_prefix (g_bytes_get_data (sft, NULL), "0"));
  }
}

/* §2.8 Session: enableTimeProfile */
static void
test_xrt_2_8_time_profile (gconstpointer name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) network = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  const char *types[] = { "HostBackend" };
  XrtDevice *devices[] = { NULL };
  /* auto sess = Session::Create<HostBackend>(network, { HostDevice::Default()}); */
  g_autoptr (XrtSession) sess = xrt_session_new (view, types, devices, 1, &error);
  g_autoptr (GPtrArray) input_tensors = zw_test_seeded_inputs (network, 10);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, input_tensors, NULL);
  g_autoptr (GPtrArray) output_tensors = NULL;
  const ZwProfile *profile_results;
  double sum = 0;

  g_assert_no_error (error);
  /* sess.enableTimeProfile(true); sess.apply(); */
  xrt_session_enable_time_profile (sess, TRUE);
  g_assert_true (xrt_session_apply (sess, &error));
  /* auto output_tensors = sess.forward({ input_tensor }); */
  output_tensors = xrt_session_forward (sess, input_tensors, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (output_tensors, ref);
  /* auto profile_results = sess.timeProfileResults(); for (auto&& [op_id, result] : profile_results) { … } */
  profile_results = xrt_session_get_time_profile (sess);
  g_assert_nonnull (profile_results);
  g_assert_cmpuint (profile_results->rows->len, ==, xrt_session_get_n_forwards (sess));
  for (guint i = 0; i < profile_results->rows->len; i++)
    {
      const ZwProfileRow *result = g_ptr_array_index (profile_results->rows, i);
      /* auto&& [wall, mem, hard, other] = result; */
      g_assert_cmpfloat (G_APPROX_VALUE (result->total_ms, result->memcpy_ms + result->hard_ms + result->other_ms, 1e-9), ==,
                         TRUE);
      g_assert_cmpint (result->op_id, ==, xrt_session_get_forward (sess, i)->op_id);
      sum += result->total_ms;
    }
  /* fmt::print("total_time = {}s\n", sess.totalTime<seconds>()); */
  g_assert_cmpfloat (G_APPROX_VALUE (sum, xrt_session_get_total_time (sess), 1e-6), ==, TRUE);
  g_assert_cmpfloat (xrt_session_get_total_time (sess), >, 0);
}

/* session.h's getForwards: each step's forward function (xrt_session_forward_step) run in
 * turn on the tensors of the values it reads gives the network's outputs, merged or not, and
 * leaves the session's callbacks, logs and profile alone; bad calls name what is wrong. */
static void
test_xrt_session_get_forwards (gconstpointer name)
{
  for (guint merge = 0; merge < 2; merge++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
      g_autoptr (XirNetwork) network = zw_test_load_net (name);
      g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
      g_autoptr (XrtSession) sess = xrt_session_new_for_device (view, device, &error);
      g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 19);
      g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
      g_autoptr (GHashTable) tmap = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                           (GDestroyNotify) xrt_tensor_unref);
      g_autoptr (GPtrArray) outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
      GPtrArray *values = xir_network_get_outputs (network);

      g_assert_no_error (error);
      g_assert_null (xrt_session_forward_step (sess, 0, inputs, &error));   /* before apply */
      g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_CALL_ORDER);
      g_clear_error (&error);
      if (!merge)
        g_assert_true (zg330_backend_disable_merge_hardop (ZG330_BACKEND (xrt_session_get_board_backend (sess)), &error));
      g_assert_true (xrt_session_apply (sess, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < xrt_session_get_n_forwards (sess); i++)
        {
          const XrtForward *f = xrt_session_get_forward (sess, i);
          g_autoptr (GPtrArray) ins = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
          g_autoptr (GPtrArray) step_outs = NULL;
          gboolean is_input = f->op != NULL && f->op->kind == XIR_OP_INPUT;

          for (guint k = 0; is_input && k < inputs->len; k++)
            g_ptr_array_add (ins, xrt_tensor_ref (g_ptr_array_index (inputs, k)));
          for (guint k = 0; !is_input && k < f->input_ids->len; k++)
            {
              XrtTensor *t = g_hash_table_lookup (tmap, &g_array_index (f->input_ids, gint64, k));
              g_assert_nonnull (t);
              g_ptr_array_add (ins, xrt_tensor_ref (t));
            }
          step_outs = xrt_session_forward_step (sess, i, ins, &error);
          g_assert_no_error (error);
          for (guint k = 0; k < step_outs->len; k++)
            {
              XrtTensor *t = g_ptr_array_index (step_outs, k);
              gint64 *key = g_new (gint64, 1);
              *key = xrt_tensor_get_value (t)->v_id;
              g_hash_table_replace (tmap, key, xrt_tensor_ref (t));
            }
        }
      for (guint k = 0; k < values->len; k++)
        {
          XrtTensor *t = g_hash_table_lookup (tmap, &((XirValue *) g_ptr_array_index (values, k))->v_id);
          g_assert_nonnull (t);
          g_ptr_array_add (outs, xrt_tensor_ref (t));
        }
      zw_test_assert_same_outputs (outs, ref);
      /* a step that reads one value, given none; a step past the end */
      for (guint i = 0; i < xrt_session_get_n_forwards (sess); i++)
        if (xrt_session_get_forward (sess, i)->input_ids->len > 0)
          {
            g_assert_null (xrt_session_forward_step (sess, i, NULL, &error));
            g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS);
            g_clear_error (&error);
            break;
          }
      g_assert_null (xrt_session_forward_step (sess, xrt_session_get_n_forwards (sess), NULL, &error));
      g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT);
    }
}

int
main (int argc, char **argv)
{
  static const char *const demos[] = { "tiny", "twoin", "resnet18", "mobilenetv2", "yolov5s" };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/manual/xrt/1.1.1-create-by-priority", test_xrt_1_1_1_create_by_priority);
  g_test_add_func ("/manual/xrt/1.1.2-create-with-backends", test_xrt_1_1_2_create_with_backends);
  g_test_add_func ("/manual/xrt/1.2-and-1.1.3-snapshot", test_xrt_1_2_and_1_1_3_snapshot);
  for (guint i = 0; i < G_N_ELEMENTS (demos); i++)
    {
      g_autofree char *a = g_strdup_printf ("/manual/xrt/1.3.1-forward/%s", demos[i]);
      g_autofree char *b = g_strdup_printf ("/manual/xrt/1.3.2-forward-into-outputs/%s", demos[i]);
      g_autofree char *c = g_strdup_printf ("/manual/xrt/1.3.3-step-to/%s", demos[i]);
      g_test_add_data_func (a, demos[i], test_xrt_1_3_1_forward);
      g_test_add_data_func (b, demos[i], test_xrt_1_3_2_forward_into_outputs);
      if (strcmp (demos[i], "yolov5s") != 0)   /* stepTo on every op of the host run: the smaller ones */
        g_test_add_data_func (c, demos[i], test_xrt_1_3_3_step_to);
    }
  g_test_add_data_func ("/manual/xrt/session-get-forwards/tiny", "tiny", test_xrt_session_get_forwards);
  g_test_add_data_func ("/manual/xrt/session-get-forwards/twoin", "twoin", test_xrt_session_get_forwards);
  g_test_add_data_func ("/manual/xrt/session-get-forwards/yolov5s", "yolov5s", test_xrt_session_get_forwards);
  g_test_add_func ("/manual/xrt/1.4.1-and-1.4.2-log-io-and-time", test_xrt_1_4_1_and_1_4_2_log_io_and_time);
  g_test_add_func ("/manual/xrt/1.4.3-dump-outputs", test_xrt_1_4_3_dump_outputs);
  g_test_add_func ("/manual/xrt/1.4.4-callbacks", test_xrt_1_4_4_callbacks);
  g_test_add_func ("/manual/xrt/1.5-memory-info", test_xrt_1_5_memory_info);
  g_test_add_func ("/manual/xrt/2.1-mem-ptr", test_xrt_2_1_mem_ptr);
  g_test_add_func ("/manual/xrt/2.6-tensor", test_xrt_2_6_tensor);
  g_test_add_data_func ("/manual/xrt/2.8-time-profile/tiny", "tiny", test_xrt_2_8_time_profile);
  g_test_add_data_func ("/manual/xrt/2.8-time-profile/twoin", "twoin", test_xrt_2_8_time_profile);
  return g_test_run ();
}
