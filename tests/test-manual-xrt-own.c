/* test-manual-xrt-own — the XRT manual's examples of a device and a backend of one's own
 * (§2.2 SampleMemRegion, §2.3 SampleRegRegion, §2.5 AXIQL100AIUDevice registered by URL,
 * §2.7 SampleBackend), translated into the C API's extension points (issue 36): a device
 * kind is an XrtDeviceClass (its registers, reset, version) with regions over an
 * XrtMemStoreOps (how a region reaches its bytes; malloc, free and memcpy are the region's
 * own), registered for a URL scheme; a backend is a GObject subclass of XrtBackend (which ops
 * it takes, with any constraint, their forward and its time), registered by class name, that
 * Session::Create binds ops to in priority order. */
#include "xrt/xrt-session.h"
#include "xrt/xrt-backend.h"
#include "xrt/xrt-tensor.h"
#include "xrt/xrt-mem.h"
#include "report/zw-profile.h"
#include "zw-test-util.h"

#include <string.h>

/* ---- XRT manual §2.2, §2.3, §2.5: a device of one's own ------------------------------------ */

/* §2.2 SampleMemRegion: what a region implements is how it reaches its bytes (read, write;
 * the host pointer when its memory is mapped, as the udma swap space is); malloc, free and
 * memcpy are the region's own. Here both regions keep their bytes in host memory. */
typedef struct {
  guint8 *bytes;
} SampleStore;

static gboolean
sample_read (gpointer store, guint64 offset, gpointer dest, gsize bytes, GError **error)
{
  (void) error;
  memcpy (dest, ((SampleStore *) store)->bytes + offset, bytes);
  return TRUE;
}

static gboolean
sample_write (gpointer store, guint64 offset, gconstpointer src, gsize bytes, GError **error)
{
  (void) error;
  memcpy (((SampleStore *) store)->bytes + offset, src, bytes);
  return TRUE;
}

static guint8 *
sample_host_pointer (gpointer store, guint64 offset, gsize bytes)
{
  (void) bytes;
  return ((SampleStore *) store)->bytes + offset;
}

static void
sample_store_free (gpointer store)
{
  g_free (((SampleStore *) store)->bytes);
  g_free (store);
}

static const XrtMemStoreOps udma_ops = { sample_read, sample_write, sample_host_pointer };
static const XrtMemStoreOps plddr_ops = { sample_read, sample_write, NULL };

static XrtMemRegion *
sample_region (const char *name, guint64 base, guint64 size, const XrtMemStoreOps *ops)
{
  SampleStore *store = g_new0 (SampleStore, 1);

  store->bytes = g_malloc0 (size);
  return xrt_mem_region_new_device (name, base, size, ops, store, sample_store_free);
}

/* §2.3 SampleRegRegion: read(addr) and write(addr, data) of the device's registers */
#define SAMPLE_N_REGS 64

typedef struct {
  guint32 regs[SAMPLE_N_REGS];
  guint n_resets;
} SampleDevice;

static gboolean
sample_read_reg (XrtDevice *device, guint64 addr, guint32 *value, GError **error)
{
  SampleDevice *s = xrt_device_get_impl (device);

  if (addr / 4 >= SAMPLE_N_REGS)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE, "register 0x%lx: the sample has %d registers",
                   (unsigned long) addr, SAMPLE_N_REGS);
      return FALSE;
    }
  *value = s->regs[addr / 4];
  return TRUE;
}

static gboolean
sample_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  SampleDevice *s = xrt_device_get_impl (device);

  if (addr / 4 >= SAMPLE_N_REGS)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE, "register 0x%lx: the sample has %d registers",
                   (unsigned long) addr, SAMPLE_N_REGS);
      return FALSE;
    }
  s->regs[addr / 4] = value;
  return TRUE;
}

static gboolean
sample_reset (XrtDevice *device, int level, GError **error)
{
  SampleDevice *s = xrt_device_get_impl (device);

  (void) level;
  (void) error;
  memset (s->regs, 0, sizeof s->regs);
  s->n_resets++;
  return TRUE;
}

static void
sample_version (XrtDevice *device, GHashTable *out)
{
  (void) device;
  g_hash_table_insert (out, g_strdup ("device"), g_strdup ("ql100aiu"));
}

static void
sample_finalize (XrtDevice *device)
{
  g_free (xrt_device_get_impl (device));
}

/* class AXIQL100AIUDeviceNode : … { ICRAFT_DECLARE_DEVICE_NODE … init() … deinit() } */
static const XrtDeviceClass sample_device_class = {
  "AXIQL100AIUDevice", sample_finalize, NULL, sample_reset, NULL, NULL, sample_version, sample_read_reg,
  sample_write_reg,
};

static XrtDevice *
open_sample (const char *url, const char *name, GHashTable *params, GError **error)
{
  XrtDevice *device;
  g_autoptr (XrtMemRegion) udma = NULL, plddr = NULL;

  (void) name;
  if (g_hash_table_size (params) > 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': the sample takes no parameters", url);
      return NULL;
    }
  device = xrt_device_new (&sample_device_class, url, g_new0 (SampleDevice, 1));
  /* ICRAFT_MEM_REGION_FIELD(udma, AXIQL100AIUdmaMemRegion); (declared first: plddr depends on it) */
  udma = sample_region ("udma", 0x80000000, 1 << 20, &udma_ops);
  xrt_device_add_mem_region (device, udma, FALSE);
  /* ICRAFT_DEFAULT_MEM_REGION_FIELD(plddr, AXIQL100AIPLDDRMemRegion); */
  plddr = sample_region ("plddr", 0x40000000, 4 << 20, &plddr_ops);
  xrt_device_add_mem_region (device, plddr, TRUE);
  /* virtual void init() override { … reset(0); } */
  if (!xrt_device_reset (device, 0, error))
    {
      xrt_device_unref (device);
      return NULL;
    }
  return device;
}

/* §2.5 Device: the sample declared, registered by URL, opened, its regions and registers used
 * through the API every device has */
static void
test_xrt_2_2_2_3_2_5_device_of_ones_own (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) device = NULL;
  g_autoptr (GHashTable) version = NULL;
  g_autoptr (XrtMemChunk) pl = NULL, swap = NULL;
  XrtMemRegion *plddr, *udma;
  guint8 pattern[4096];
  guint32 value = 0;

  /* ICRAFT_REGISTER_DEVICE("axi://ql100aiu", AXIQL100AIUDevice); */
  xrt_device_register_kind ("sample", "ql100aiu", "sample://ql100aiu", open_sample);
  device = xrt_device_open ("sample://ql100aiu", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((SampleDevice *) xrt_device_get_impl (device))->n_resets, ==, 1);
  version = xrt_device_get_version (device);
  g_assert_cmpstr (g_hash_table_lookup (version, "device"), ==, "ql100aiu");
  /* each device has a default MemRegion */
  plddr = xrt_device_get_default_mem_region (device);
  g_assert_cmpstr (xrt_mem_region_get_name (plddr), ==, "plddr");
  udma = xrt_device_get_mem_region (device, "udma", &error);
  g_assert_no_error (error);
  g_assert_cmpint (xrt_mem_region_get_ptype (plddr), ==, XRT_PTR_ADDR);
  g_assert_cmpint (xrt_mem_region_get_ptype (udma), ==, XRT_PTR_BOTH);
  /* malloc, write, memcpy across regions (the default: through the host), read back */
  for (guint i = 0; i < sizeof pattern; i++)
    pattern[i] = (guint8) (i * 7 + 3);
  pl = xrt_mem_region_malloc (plddr, sizeof pattern, TRUE, 4096, &error);
  swap = xrt_mem_region_malloc (udma, sizeof pattern, TRUE, 4096, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrt_mem_chunk_get_addr (pl) % 4096, ==, 0);
  g_assert_cmpuint (xrt_mem_chunk_get_addr (pl), >=, 0x40000000);
  g_assert_true (xrt_mem_chunk_write (pl, 0, pattern, sizeof pattern, &error));
  g_assert_true (xrt_mem_chunk_copy_from (swap, 0, pl, 0, sizeof pattern, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (xrt_mem_chunk_get_host_pointer (swap), sizeof pattern, pattern, sizeof pattern);
  g_assert_true (xrt_mem_chunk_is_on (pl, plddr) && !xrt_mem_chunk_is_on (pl, udma));
  /* registers: written, read back, out of range refused; reset(0) clears them */
  g_assert_true (xrt_device_write_reg (device, 0x10, 0xC0FFEE, &error));
  g_assert_true (xrt_device_read_reg (device, 0x10, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (value, ==, 0xC0FFEE);
  g_assert_false (xrt_device_read_reg (device, 4 * SAMPLE_N_REGS, &value, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_true (xrt_device_reset (device, 0, &error));
  g_assert_true (xrt_device_read_reg (device, 0x10, &value, &error));
  g_assert_cmpuint (value, ==, 0);
  /* a URL of the kind with a parameter it does not take */
  g_assert_null (xrt_device_open ("sample://ql100aiu?npu=0x40000000", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
}

static gint64
op_id_of (XirNetwork *network, guint index)
{
  return xir_network_get_op (network, index)->op_id;
}

/* ---- XRT manual §2.7: a backend of one's own -------------------------------------------- */

/* class SampleBackend : … { bool fake_qf; … init, deinit, apply, fork, view … } with the
 * forward of the ops it takes: here the Output op (the manual's Conv2d and Cast are HardOps of
 * the board in our networks), under a constraint (the manual's: both mtypes ExternalMem; here:
 * one input), its bytes kept, its time given to the session (setTimeElapses). */
#define SAMPLE_TYPE_BACKEND (sample_backend_get_type ())
G_DECLARE_FINAL_TYPE (SampleBackend, sample_backend, SAMPLE, BACKEND, XrtBackend)

struct _SampleBackend {
  XrtBackend parent_instance;
  gboolean fake_qf;        /* 每个后端可以设置一些独有的选项 */
  gboolean applied;
  guint n_inits, n_forwards;
  GByteArray *seen;        /* the bytes its last forward got */
};

G_DEFINE_TYPE (SampleBackend, sample_backend, XRT_TYPE_BACKEND)

/* .set_constraint(…): the ops it takes */
static gboolean
sample_backend_supports_op (const XirOp *op)
{
  return op != NULL && op->kind == XIR_OP_OUTPUT && op->inputs->len == 1;
}

/* virtual void init(const NetworkView& network_view, const Device& device) */
static gboolean
sample_backend_init_on (XrtBackend *backend, XirNetworkView *view, XrtDevice *device, GError **error)
{
  (void) view, (void) device, (void) error;
  SAMPLE_BACKEND (backend)->n_inits++;
  return TRUE;
}

static gboolean
sample_backend_owns_op (XrtBackend *backend, gint64 op_id)
{
  XirNetworkView *view = xrt_backend_get_view (backend);
  const XirOp *op = view ? xir_network_get_op_by_id (xir_network_view_get_network (view), op_id) : NULL;

  return sample_backend_supports_op (op);
}

/* virtual void apply() */
static gboolean
sample_backend_apply (XrtBackend *backend, GError **error)
{
  (void) error;
  SAMPLE_BACKEND (backend)->applied = TRUE;
  return TRUE;
}

static gboolean
sample_backend_is_applied (XrtBackend *backend)
{
  return SAMPLE_BACKEND (backend)->applied;
}

/* .set_forward([](const Op& op, const std::vector<Tensor>& inputs, SampleBackend backend) { … }):
 * with time_profile, backend.setTimeElapses(op.opId(), 0, elapse) */
static gboolean
sample_backend_run_op (XrtBackend *backend, const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                       XrtStepTime *time, GError **error)
{
  SampleBackend *self = SAMPLE_BACKEND (backend);
  const XirValue *in = g_ptr_array_index (op->inputs, 0);

  (void) outputs, (void) error;
  g_byte_array_set_size (self->seen, 0);
  g_byte_array_append (self->seen, inputs[0], (guint) in->storage_bytes);
  self->n_forwards++;
  time->hard_ms = 0.25;
  time->other_ms = 0;
  return TRUE;
}

static void
sample_backend_finalize (GObject *object)
{
  g_byte_array_unref (SAMPLE_BACKEND (object)->seen);
  G_OBJECT_CLASS (sample_backend_parent_class)->finalize (object);
}

static void
sample_backend_class_init (SampleBackendClass *klass)
{
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sample_backend_finalize;
  bclass->name = "SampleBackend";
  bclass->short_name = "Sample";
  bclass->runs_on_board = FALSE;
  bclass->supports_op = sample_backend_supports_op;
  bclass->init = sample_backend_init_on;
  bclass->owns_op = sample_backend_owns_op;
  bclass->apply = sample_backend_apply;
  bclass->is_applied = sample_backend_is_applied;
  bclass->run_op = sample_backend_run_op;
}

static void
sample_backend_init (SampleBackend *self)
{
  self->seen = g_byte_array_new ();
}

/* Session::Create<SampleBackend, ZG330Backend, HostBackend>: the sample takes the Output of a
 * one-output network and sees its bytes (the C API's), its time in the profile; a network of
 * three outputs (yolov5s) fails its constraint, and the HostBackend takes its Output. */
static void
test_xrt_2_7_backend_of_ones_own (gconstpointer name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) network = zw_test_load_net (name);
  g_autoptr (XirNetworkView) view = zw_test_whole_view (network);
  g_autoptr (XrtDevice) device = xrt_device_open ("mock://zg330", &error);
  const char *types[] = { "SampleBackend", "ZG330Backend", "HostBackend" };
  XrtDevice *devices[] = { NULL, device, NULL };
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (network, 17);
  g_autoptr (GPtrArray) ref = zw_test_reference_outputs (network, inputs, NULL);
  g_autoptr (GPtrArray) outs = NULL;
  const XirOp *output_op = xir_network_get_op (network, xir_network_get_n_ops (network) - 1);
  XrtBackend *bound;
  gboolean takes = output_op->inputs->len == 1;

  xrt_backend_register (SAMPLE_TYPE_BACKEND);
  g_assert_true (xrt_backend_lookup ("SampleBackend") == SAMPLE_TYPE_BACKEND);
  sess = xrt_session_new (view, types, devices, 3, &error);
  g_assert_no_error (error);
  xrt_session_enable_time_profile (sess, TRUE);
  g_assert_true (xrt_session_apply (sess, &error));
  g_assert_no_error (error);
  bound = xrt_session_get_op_backend (sess, output_op->op_id);
  g_assert_cmpstr (xrt_backend_get_name (bound), ==, takes ? "SampleBackend" : "HostBackend");
  for (guint i = 0; i + 1 < xir_network_get_n_ops (network); i++)
    g_assert_cmpstr (xrt_backend_get_name (xrt_session_get_op_backend (sess, op_id_of (network, i))), !=, "SampleBackend");
  outs = xrt_session_forward (sess, inputs, &error);
  g_assert_no_error (error);
  zw_test_assert_same_outputs (outs, ref);
  if (takes)
    {
      SampleBackend *sample = SAMPLE_BACKEND (bound);
      g_autoptr (GBytes) want = xrt_tensor_get_bytes (g_ptr_array_index (ref, 0), &error);
      const ZwProfile *profile = xrt_session_get_time_profile (sess);
      gboolean timed = FALSE;

      g_assert_cmpuint (sample->n_inits, ==, 1);
      g_assert_true (sample->applied);
      g_assert_cmpuint (sample->n_forwards, ==, 1);
      g_assert_cmpmem (sample->seen->data, sample->seen->len, g_bytes_get_data (want, NULL), g_bytes_get_size (want));
      for (guint i = 0; i < profile->rows->len; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (profile->rows, i);
          if (row->op_id == output_op->op_id)
            timed = G_APPROX_VALUE (row->hard_ms, 0.25, 1e-9) && g_strcmp0 (row->backend, "Sample") == 0;
        }
      g_assert_true (timed);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/manual/xrt/2.2-2.3-2.5-device-of-ones-own", test_xrt_2_2_2_3_2_5_device_of_ones_own);
  g_test_add_data_func ("/manual/xrt/2.7-backend-of-ones-own/tiny", "tiny", test_xrt_2_7_backend_of_ones_own);
  g_test_add_data_func ("/manual/xrt/2.7-backend-of-ones-own/yolov5s", "yolov5s", test_xrt_2_7_backend_of_ones_own);
  return g_test_run ();
}
