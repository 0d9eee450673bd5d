/* test-board-icore.c: icoreCalc on the simulated board: bound hardops run in order with their
 * time stamps, an unbound address is an error. */
#include "zw-test-board.h"

#include <string.h>

typedef struct {
  XrtMemChunk *out;        /* where the op writes its bytes */
  guint64      out_offset;
  const char  *bytes;
  Zg330OpWork  work;
  GString     *log;        /* order of execution */
  char         id;
  gboolean     fail;
  guint       *destroyed;
} FakeOp;

static gboolean
fake_op_run (XrtDevice *device, gpointer user_data, Zg330OpWork *work, GError **error)
{
  FakeOp *op = user_data;
  XrtMemRegion *region = xrt_mem_chunk_get_region (op->out);

  g_assert_true (zg330_sim_is_sim (device));
  g_string_append_c (op->log, op->id);
  if (op->fail)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "fake op %c: input missing", op->id);
      return FALSE;
    }
  /* Write through the region at the absolute address, as a hardop model does. */
  if (!xrt_mem_region_write (region, xrt_mem_chunk_get_addr (op->out) + op->out_offset,
                             op->bytes, strlen (op->bytes), error))
    return FALSE;
  *work = op->work;
  return TRUE;
}

static void
fake_op_destroy (gpointer data)
{
  FakeOp *op = data;
  (*op->destroyed)++;
}

static const Zg330HardopExec fake_exec = { fake_op_run, FALSE };

static guint64
le64_at (const guint8 *p, guint index)
{
  guint64 v;

  memcpy (&v, p + 8 * index, 8);
  return GUINT64_FROM_LE (v);
}

static void
read_stamp (XrtMemChunk *timer, guint layer, guint64 *start, guint64 *end)
{
  guint8 rec[16];
  GError *error = NULL;

  g_assert_true (xrt_mem_chunk_read (timer, layer * 16, rec, 16, &error));
  g_assert_no_error (error);
  memcpy (start, rec, 8);
  memcpy (end, rec + 8, 8);
  *start = GUINT64_FROM_LE (*start);
  *end = GUINT64_FROM_LE (*end);
}

static void
test_icore_runs_bound_ops (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;
  g_autoptr (XrtMemChunk) instr = xrt_device_malloc (device, "ETM", 0x1000, &error);
  g_autoptr (XrtMemChunk) out_etm = xrt_device_malloc (device, "ETM", 4096, &error);
  g_autoptr (XrtMemChunk) out_ocm = xrt_device_malloc (device, "OCM", 4096, &error);
  g_autoptr (XrtMemChunk) timer = xrt_device_malloc (device, "ETM", 16 * 8, &error);
  g_autoptr (XrtMemChunk) profiler = xrt_device_malloc (device, "ETM", 64 * 8, &error);
  g_autoptr (GString) log = g_string_new (NULL);
  guint destroyed = 0;
  guint64 a = xrt_mem_chunk_get_addr (instr);
  FakeOp op1 = { out_etm, 16, "first op", { 0 }, log, '1', FALSE, &destroyed };
  FakeOp op2 = { out_ocm, 0, "second op", { 0 }, log, '2', FALSE, &destroyed };
  Zg330LaunchStats stats;
  char back[16];
  guint64 s, e;
  guint32 v;
  g_autoptr (GArray) times = NULL;
  g_autoptr (GString) shown = g_string_new (NULL);
  guint8 prof[64];

  g_assert_no_error (error);
  /* op1: 4000 x 10000 MACs = 10000 cycles, 12800 ETM bytes = 1000 cycles -> 10500. */
  op1.work.macs = 4000 * 10000;
  op1.work.etm_read_bytes = 12800;
  op1.work.layer_count = 1;
  /* op2: 256000 ETM bytes written = 20000 cycles, 128000 OCM bytes = 1000 -> 20500,
   * spread over two layers. */
  op2.work.etm_write_bytes = 256000;
  op2.work.ocm_read_bytes = 128000;
  op2.work.layer_count = 2;

  /* Bound out of order on purpose: the launch runs them in address order. */
  g_assert_true (zg330_sim_bind_hardop (device, a + 0x100, 0x100, &fake_exec, &op2,
                                        fake_op_destroy, &error));
  g_assert_true (zg330_sim_bind_hardop (device, a, 0x100, &fake_exec, &op1,
                                        fake_op_destroy, &error));
  g_assert_no_error (error);
  g_assert_false (zg330_sim_bind_hardop (device, a + 0x80, 0x100, &fake_exec, &op1,
                                         fake_op_destroy, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OVERLAP);
  g_clear_error (&error);
  g_assert_cmpuint (zg330_sim_get_n_bindings (device), ==, 2);
  g_assert_true (zg330_device_config_timer (device, timer, &error));
  g_assert_true (zg330_device_config_profiler (device, profiler, &error));
  g_assert_no_error (error);

  g_assert_true (zg330_device_icore_calc (device, a, 0x200, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "12");

  g_assert_true (xrt_mem_chunk_read (out_etm, 16, back, 8, &error));
  g_assert_cmpmem (back, 8, "first op", 8);
  g_assert_true (xrt_mem_chunk_read (out_ocm, 0, back, 9, &error));
  g_assert_cmpmem (back, 9, "second op", 9);

  g_assert_cmpuint (zg330_device_layer_count (device), ==, 3);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_TIMER_CNT, &v, &error));
  g_assert_cmpuint (v, ==, 2000 + 10500 + 20500);
  /* Tiles (4096 bytes): op1 reads 4, op2 reads 32 and writes 63; master cid 1. */
  g_assert_cmpuint (zg330_device_r_tile_count (device, 1), ==, 36);
  g_assert_cmpuint (zg330_device_w_tile_count (device, 1), ==, 63);
  g_assert_cmpuint (zg330_device_w_tile_count (device, 0), ==, 0);
  g_assert_cmpfloat_with_epsilon (zg330_device_calc_time (device), 0.033, 1e-12);

  read_stamp (timer, 0, &s, &e);
  g_assert_cmpuint (s, ==, 2000);
  g_assert_cmpuint (e, ==, 12500);
  read_stamp (timer, 1, &s, &e);
  g_assert_cmpuint (s, ==, 12500);
  g_assert_cmpuint (e, ==, 22750);
  read_stamp (timer, 2, &s, &e);
  g_assert_cmpuint (s, ==, 22750);
  g_assert_cmpuint (e, ==, 33000);

  g_assert_true (xrt_mem_chunk_read (profiler, 64, prof, 64, &error));
  g_assert_cmpuint (le64_at (prof, 0), ==, 10250);    /* cycles of op2's first layer */
  g_assert_cmpuint (le64_at (prof, 3), ==, 128000);   /* half of its ETM writes */
  g_assert_cmpuint (le64_at (prof, 7), ==, ZG330_BOUND_ETM);

  g_assert_true (zg330_sim_get_last_launch (device, &stats));
  g_assert_true (stats.merged);
  g_assert_cmpuint (stats.n_hardops, ==, 2);
  g_assert_cmpuint (stats.host_sync_cycles, ==, 0);
  g_assert_cmpuint (stats.layers, ==, 3);
  g_assert_cmpuint (stats.work.macs, ==, 4000 * 10000);

  times = zg330_device_get_layer_time (device, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (g_array_index (times, double, 0), 0.0105, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (times, double, 1), 0.01025, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (times, double, 2), 0.01025, 1e-12);
  g_assert_true (zg330_device_show_layer_time (device, 1, 2, shown, &error));
  g_assert_nonnull (strstr (shown->str, "layer     2"));
  g_assert_null (zg330_device_get_layer_time (device, 9, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  /* One hardop alone is an unmerged launch: it pays the host sync (25 us). */
  g_assert_true (zg330_device_icore_calc (device, a, 0x100, &error));
  g_assert_true (zg330_sim_get_last_launch (device, &stats));
  g_assert_false (stats.merged);
  g_assert_cmpuint (stats.host_sync_cycles, ==, 25000);
  g_assert_cmpfloat_with_epsilon (zg330_device_calc_time (device), 0.0125, 1e-12);
  read_stamp (timer, 3, &s, &e);
  g_assert_cmpuint (s, ==, 33000 + 2000);
  g_assert_cmpuint (e, ==, 33000 + 12500);

  /* Through the registers, as on hardware. */
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_BASE, (guint32) a + 0x100, &error));
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_SIZE, 0x100, &error));
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_START, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 6);
  g_assert_cmpstr (log->str, ==, "1212");

  /* The timer and profiler chunks hold 8 layers: layer 8 is dropped, never written past. */
  g_assert_true (zg330_device_icore_calc (device, a, 0x200, &error));
  g_assert_true (zg330_sim_get_last_launch (device, &stats));
  g_assert_cmpuint (stats.first_layer, ==, 6);
  g_assert_cmpuint (stats.layers, ==, 3);
  g_assert_cmpuint (stats.stamps_dropped, ==, 2);
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 9);
  g_assert_cmpstr (log->str, ==, "121212");

  /* A range that cuts a binding in two is refused; nothing runs. */
  g_assert_false (zg330_device_icore_calc (device, a + 0x80, 0x100, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OVERLAP);
  g_clear_error (&error);
  g_assert_cmpstr (log->str, ==, "121212");

  /* A failing hardop: its error, prefixed with its address; the state bit is set. */
  op2.fail = TRUE;
  g_assert_false (zg330_device_icore_calc (device, a, 0x200, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_EXEC);
  {
    g_autofree gchar *where = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", a + 0x100);
    g_assert_nonnull (strstr (error->message, where));
    g_assert_nonnull (strstr (error->message, "input missing"));
  }
  g_clear_error (&error);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_STATE, &v, &error));
  g_assert_cmphex (v & ZG330_STATE_LAUNCH_FAILED, ==, ZG330_STATE_LAUNCH_FAILED);

  g_assert_cmpuint (destroyed, ==, 0);
  g_assert_cmpuint (zg330_sim_unbind_range (device, a, 0x1000), ==, 2);
  g_assert_cmpuint (destroyed, ==, 2);
  g_assert_cmpuint (zg330_sim_get_n_bindings (device), ==, 0);
}

static void
test_icore_unbound_address (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;

  g_assert_false (zg330_device_icore_calc (device, 0x12340000, 0x100, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_UNBOUND);
  g_assert_nonnull (strstr (error->message, "0x12340000"));
  g_clear_error (&error);
  g_assert_false (xrt_device_write_reg (device, ZG330_REG_RUN_START, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);   /* size register is 0 */
  g_clear_error (&error);
  g_assert_false (zg330_sim_get_last_launch (device, &(Zg330LaunchStats) { 0 }));
  g_assert_cmpfloat (zg330_device_calc_time (device), ==, 0.0);
  g_assert_null (zg330_device_get_layer_time (device, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);   /* no timer chunk */
  g_clear_error (&error);
}

void
test_board_add_icore (void)
{
  g_test_add_func ("/board/icore/runs-bound-ops-in-order", test_icore_runs_bound_ops);
  g_test_add_func ("/board/icore/unbound-address-errors", test_icore_unbound_address);
}
