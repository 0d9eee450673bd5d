/* test-buyi.c — networks compiled for the Buyi chip: the XIR types the manual
 * documents (NormalizedQuantizedType, exponent scales, norm ratios, CalibratedType), compile
 * targets, compiler-given addresses, the custom ops ImageMake and DetPost; the real Buyi
 * compile of yolov5s (read from ../shared/real, skipped when absent). */
#include "zw-test-util.h"

#include "xir/xir-summary.h"
#include "backends/buyi/buyi-plan.h"
#include "backends/zg330/zg330-hardop.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"
#include "report/zw-deploy-check.h"
#include "xrt/xrt-device.h"

#include <math.h>
#include <string.h>

/* The manual's example (XIR manual §3.2): exp_scale(<m, exp>, origin_scale). */
static void
test_exp_scales_manual_example (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree float *s = NULL;
  g_autofree gint32 *m = NULL, *e = NULL;
  gint axis = 0;
  guint n = 0;

  g_assert_true (xir_parse_exp_scales ("@exp_scales([axis=-1]3/3/0.377,4/4/0.27)", &axis, &s, &m, &e, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpint (axis, ==, -1);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (m[0], ==, 3);
  g_assert_cmpint (e[0], ==, 3);
  g_assert_cmpint (m[1], ==, 4);
  g_assert_cmpint (e[1], ==, 4);
  g_assert_cmpfloat_with_epsilon (s[0], 0.377f, 1e-7);
  g_assert_cmpfloat_with_epsilon (s[1], 0.27f, 1e-7);
}

static void
test_exp_scales_run_length_and_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree float *s = NULL;
  g_autofree gint32 *m = NULL, *e = NULL;
  gint axis = 0;
  guint n = 0;

  g_assert_true (xir_parse_exp_scales ("@exp_scales([axis=4]3*128/21/6.1035156e-05,185/18/0.000705719)", &axis, &s, &m,
                                       &e, &n, &error));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (axis, ==, 4);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (m[i], ==, 128);
      g_assert_cmpint (e[i], ==, 21);
      /* m×2^-e is the scale */
      g_assert_cmpfloat_with_epsilon (s[i], ldexp (128, -21), 1e-12);
    }
  g_assert_cmpint (m[3], ==, 185);
  const char *bad[] = { "@exp_scales([axis=-1]3/3)", "@exp_scales([axis=-1]3.5/3/0.3)", "@exp_scales([axis=-1]1/99/1)",
                        "@exp_scales([axis=-1]1/1/1e300)", "@exp_scales([axis=-1]1/1/0.5,)", "@scales([axis=-1]1)" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      float *s2 = NULL;
      gint32 *m2 = NULL, *e2 = NULL;
      g_clear_error (&error);
      g_assert_false (xir_parse_exp_scales (bad[i], &axis, &s2, &m2, &e2, &n, &error));
      g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_null (s2);
    }
}

static void
test_norm_ratios (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree float *r = NULL;
  gint axis = 0;
  guint n = 0;

  g_assert_true (xir_parse_norm_ratios ("@norm_ratios([axis=-1]1.1,2*2.2,3.3)", &axis, &r, &n, &error));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (r[1], ==, 2.2f);
  g_assert_cmpfloat (r[2], ==, 2.2f);
  g_assert_cmpfloat (r[3], ==, 3.3f);
}

/* A small network whose values use each element type of the manual. */
static void
test_element_types_load (void)
{
  const char *json =
    "{\"_type_key\":\"icraft::xir::Network\",\"ai_target\":\"@buyit\",\"name\":\"types\",\"ops\":["
    "{\"_type_key\":\"icraft::xir::Input\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":0,\"tags\":{},"
    "\"inputs\":[],\"outputs\":[{\"_type_key\":\"icraft::xir::Value\",\"dtype\":{\"_type_key\":\"icraft::xir::TensorType\","
    "\"element_dtype\":{\"_type_key\":\"icraft::xir::CalibratedType\",\"expressed_dtype\":\"@fp(32)\",\"max\":[4.8],"
    "\"min\":[-3.6],\"sat\":[4.7],\"storage_dtype\":\"@sint(8)\"},\"layout\":\"@layout(NHWC)\",\"merged_distrs\":[],"
    "\"shape\":[1,2,2,3]},\"mtype\":\"@ocm(1234)\",\"name\":\"\",\"tags\":{},\"v_id\":1}]},"
    "{\"_type_key\":\"icraft::xir::Output\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":1,\"tags\":{},"
    "\"outputs\":[],\"inputs\":[{\"_type_key\":\"icraft::xir::Value\",\"dtype\":{\"_type_key\":\"icraft::xir::TensorType\","
    "\"element_dtype\":{\"_type_key\":\"icraft::xir::CalibratedType\",\"expressed_dtype\":\"@fp(32)\",\"max\":[4.8],"
    "\"min\":[-3.6],\"sat\":[4.7],\"storage_dtype\":\"@sint(8)\"},\"layout\":\"@layout(NHWC)\",\"merged_distrs\":[],"
    "\"shape\":[1,2,2,3]},\"mtype\":\"@ocm(1234)\",\"name\":\"\",\"tags\":{},\"v_id\":1}]}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = xir_network_new_from_json_data (json, strlen (json), "types.json", &error);

  g_assert_no_error (error);
  XirValue *v = xir_network_get_value (net, 1);
  g_assert_cmpint (v->element.kind, ==, XIR_ELEMENT_CALIBRATED);
  g_assert_false (v->element.quantized);
  g_assert_cmpuint (v->element.n_calibrated, ==, 1);
  g_assert_cmpfloat (v->element.calib_min[0], ==, -3.6);
  g_assert_cmpfloat (v->element.calib_sat[0], ==, 4.7);
  g_assert_cmpint (v->mtype.kind, ==, XIR_MEM_OCM);
  g_assert_cmpuint (v->mtype.addr, ==, 1234);
  g_assert_cmpint (xir_network_get_op (net, 0)->target.kind, ==, XIR_TARGET_HOST);
}

static XirNetwork *
load_real_buyi (void)
{
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  g_autoptr (GError) error = NULL;
  XirNetwork *net;

  if (path == NULL)
    return NULL;
  net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  return net;
}

/* The facts of the real Buyi compile (Icraft v3.33.1). */
static void
test_real_buyi_facts (void)
{
  g_autoptr (XirNetwork) net = load_real_buyi ();
  guint hard = 0, buyit = 0;
  XirOp *imk = NULL, *det = NULL;

  if (net == NULL)
    return;
  g_assert_cmpstr (xir_network_get_ai_target (net), ==, "@buyit");
  g_assert_cmpuint (xir_network_get_n_ops (net), ==, 89);
  g_assert_cmpuint (xir_network_get_params_bytes (net), ==, 8066588);
  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      hard += op->kind == XIR_OP_HARDOP;
      buyit += op->target.kind == XIR_TARGET_BUYI;
      if (g_strcmp0 (op->type_key, "customop::ImageMake") == 0)
        imk = op;
      if (g_strcmp0 (op->type_key, "customop::DetPost") == 0)
        det = op;
    }
  g_assert_cmpuint (hard, ==, 85);
  g_assert_cmpuint (buyit, ==, 85);
  g_assert_nonnull (imk);
  g_assert_nonnull (det);
  g_assert_cmpint (imk->target.kind, ==, XIR_TARGET_FPGA);
  gint64 bits = 0, anchors = 0;
  g_assert_true (xir_op_get_attr_int (imk, "input_bits", &bits, NULL));
  g_assert_cmpint (bits, ==, 8);
  g_assert_true (xir_op_get_attr_int (det, "anchor_num", &anchors, NULL));
  g_assert_cmpint (anchors, ==, 3);

  /* ImageMake's output: NormalizedQuantizedType, exponent scales 4*1/0/1, norm ratios 4*1,
   * at the address the compiler gave it in ETM */
  XirValue *v = xir_network_get_value (net, 879);
  g_assert_nonnull (v);
  g_assert_cmpint (v->element.kind, ==, XIR_ELEMENT_NORMALIZED_QUANTIZED);
  g_assert_true (v->element.quantized);
  g_assert_cmpuint (v->element.n_scales, ==, 4);
  g_assert_nonnull (v->element.scale_mantissas);
  g_assert_cmpint (v->element.scale_mantissas[3], ==, 1);
  g_assert_cmpint (v->element.scale_exponents[3], ==, 0);
  g_assert_cmpuint (v->element.n_norm_ratios, ==, 4);
  g_assert_cmpfloat (v->element.norm_ratios[0], ==, 1.0f);
  g_assert_cmpint (v->mtype.kind, ==, XIR_MEM_ETM);
  g_assert_cmpuint (v->mtype.addr, ==, 7336448);

  /* the first conv's weights: 32 output channels of exponent scales, m×2^-e = s */
  XirValue *w = xir_network_get_value (net, 10);
  g_assert_nonnull (w);
  g_assert_true (w->is_params);
  g_assert_cmpint (w->element.kind, ==, XIR_ELEMENT_QUANTIZED);
  g_assert_cmpuint (w->element.n_scales, ==, 32);
  g_assert_cmpint (w->element.scale_mantissas[0], ==, 128);
  g_assert_cmpint (w->element.scale_exponents[0], ==, 21);
  for (guint c = 0; c < w->element.n_scales; c++)
    g_assert_cmpfloat (fabs (ldexp (w->element.scale_mantissas[c], -w->element.scale_exponents[c]) - w->element.scales[c]),
                       <=, 1e-6 * w->element.scales[c]);
  g_assert_cmpint (w->mtype.kind, ==, XIR_MEM_ETM);
  g_assert_cmpuint (w->mtype.addr, ==, 4096);
}

/* `xrt-run info` states the Buyi file's facts as it does for the ZG330 file. */
static void
test_real_buyi_info_cli (void)
{
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  g_auto (ZwRun) run = { 0 };

  if (path == NULL)
    return;
  zw_test_xrt_run (&run, "info", path, NULL);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  const char *facts[] = { "89: 85 HardOp, 1 Input, 1 Output, 1 customop::DetPost, 1 customop::ImageMake",
                          "85 @buyit, 2 @fpgat, 2 @hostt", "191 values in ETM", "40 values in OCM",
                          "FTMP 0x98c400 +10,137,600", "8,066,588 bytes", "customop::ImageMake (op 295, @fpgat)",
                          "anchor_num 3", "384 exponent scales" };
  for (guint i = 0; i < G_N_ELEMENTS (facts); i++)
    if (strstr (run.out, facts[i]) == NULL)
      g_error ("xrt-run info does not say \"%s\"", facts[i]);
  g_auto (ZwRun) json = { 0 };
  zw_test_xrt_run (&json, "info", path, "--json", NULL);
  cJSON *root = cJSON_Parse (json.out);
  g_assert_nonnull (root);
  g_assert_cmpint (cJSON_GetArraySize (cJSON_GetObjectItem (root, "segments")), ==, 5);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "placement"), "ocm")->valueint, ==, 40);
  cJSON_Delete (root);
}


/* ---- the Buyi device profile and mock://buyi ---------------------------------------- */

static char *
source_devices_file (const char *name)
{
  const char *dir = g_getenv ("ZW_SOURCE_DATA_DIR");
#ifdef ZW_SOURCE_DATADIR
  if (dir == NULL)
    dir = ZW_SOURCE_DATADIR;
#endif
  g_assert_nonnull (dir);
  return g_build_filename (dir, "devices", name, NULL);
}

static void
test_profile_file_matches_builtin (void)
{
  g_autofree char *path = source_devices_file ("buyi.json");
  g_autoptr (Zg330Profile) builtin = zg330_profile_new_builtin_buyi ();
  g_autoptr (Zg330Profile) file = NULL;
  g_autoptr (Zg330Profile) named = NULL;
  g_autoptr (Zg330Profile) zg = NULL;
  g_autoptr (GError) error = NULL;
  const char *const *fields = zg330_profile_list_fields ();

  file = zg330_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (file->name, ==, "buyi");
  g_assert_cmpstr (file->chip, ==, "Buyi");
  for (guint i = 0; fields[i]; i++)
    {
      double a, b;
      g_assert_true (zg330_profile_get_field (builtin, fields[i], &a));
      g_assert_true (zg330_profile_get_field (file, fields[i], &b));
      if (a != b)
        g_error ("field %s: built-in %.17g, %s %.17g", fields[i], a, path, b);
    }
  g_assert_cmpuint (file->ocm_bytes, ==, 2 * 1024 * 1024);
  g_assert_cmpuint (file->mpe_rows, ==, 4);
  g_assert_cmpuint (file->mpe_cols, ==, 4);
  g_assert_cmpfloat (file->icore_clock_hz, ==, 860e6);
  g_assert_cmpfloat_with_epsilon (file->macs_per_cycle, 2048.0, 1e-9);
  g_assert_cmpuint (file->host_cpu_cores, ==, 4);
  g_assert_cmpuint (file->assumptions->len, ==, builtin->assumptions->len);
  for (guint i = 0; i < file->assumptions->len; i++)
    g_assert_cmpstr (file->assumptions->pdata[i], ==, builtin->assumptions->pdata[i]);

  named = zg330_profile_load_named ("buyi", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (named->chip, ==, "Buyi");
  g_assert_cmpuint (named->ocm_bytes, ==, 2 * 1024 * 1024);
  zg = zg330_profile_load_named ("zg330", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (zg->chip, ==, "ZG330");
  g_assert_null (zg330_profile_load_named ("nosuchboard", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_assert_nonnull (strstr (error->message, "nosuchboard"));
  g_clear_error (&error);
  g_assert_null (zg330_profile_load_named ("../etc", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
}

static void
test_device_mock_buyi (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://buyi", &error);
  g_autoptr (XrtDevice) zg = NULL;
  g_autoptr (GHashTable) version = NULL;
  g_autoptr (GHashTable) zg_version = NULL;
  g_autoptr (GString) status = g_string_new (NULL);
  guint rows = 0, cols = 0;
  guint32 reg = 0;

  g_assert_no_error (error);
  g_assert_true (zg330_sim_is_sim (dev));
  g_assert_cmpstr (xrt_device_get_name (dev), ==, "buyi");
  version = xrt_device_get_version (dev);
  g_assert_cmpstr (g_hash_table_lookup (version, "device"), ==, "buyi");
  g_assert_cmpstr (g_hash_table_lookup (version, "fpga_version"), ==, "0x01000100");
  g_assert_true (xrt_device_read_reg (dev, ZG330_REG_VERSION, &reg, &error));
  g_assert_cmphex (reg, ==, 0x01000100);
  zg330_device_get_rows_cols (dev, &rows, &cols);
  g_assert_cmpuint (rows, ==, 4);
  g_assert_cmpuint (cols, ==, 4);
  g_assert_cmpuint (zg330_sim_get_profile (dev)->ocm_bytes, ==, 2 * 1024 * 1024);
  g_assert_cmpuint (xrt_mem_region_get_size (xrt_device_get_mem_region (dev, "OCM", NULL)), ==, 2 * 1024 * 1024);
  xrt_device_show_status (dev, 0, status);
  g_assert_nonnull (strstr (status->str, "Buyi simulated board"));
  g_assert_nonnull (strstr (status->str, "chip Buyi"));
  g_assert_nonnull (strstr (status->str, "profile buyi"));

  /* mock://zg330 is still a ZG330 */
  zg = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  zg_version = xrt_device_get_version (zg);
  g_assert_cmpstr (g_hash_table_lookup (zg_version, "device"), ==, "zg330");

  g_assert_null (xrt_device_open ("mock://buyi?ocm=4", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_URL);
  g_assert_nonnull (strstr (error->message, "mock://buyi"));
  g_assert_nonnull (strstr (error->message, "'ocm'"));
}

/* ---- the 85 @buyit hardops on the behavioural models ------------------------------- */

static void
test_real_buyi_hardops_describe (void)
{
  g_autoptr (XirNetwork) net = load_real_buyi ();
  guint counts[ZG330_HARDOP_CAST + 1] = { 0 };
  gboolean seen454 = FALSE, seen455 = FALSE, seen521 = FALSE, seen524 = FALSE;

  if (net == NULL)
    return;
  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      Zg330HardopDesc d;
      g_autoptr (GError) error = NULL;

      if (op->kind != XIR_OP_HARDOP)
        continue;
      if (!zg330_hardop_describe (op, &d, &error))
        g_error ("op %" G_GINT64_FORMAT ": %s", op->op_id, error->message);
      counts[d.kind]++;
      if (d.kind == ZG330_HARDOP_CONCAT)
        g_assert_true (d.zero_copy);   /* every concat: inputs back to back in the output */
      if (op->op_id == 454)
        {
          /* 6x6 stem on the 4-channel image: 352x640 -> 176x320, stride 2, pad 2, 32 outputs */
          seen454 = TRUE;
          g_assert_cmpint (d.kind, ==, ZG330_HARDOP_CONV2D);
          g_assert_cmpuint (d.kernel_h, ==, 6);
          g_assert_cmpuint (d.kernel_w, ==, 6);
          g_assert_cmpuint (d.stride_h, ==, 2);
          g_assert_cmpuint (d.stride_w, ==, 2);
          g_assert_cmpuint (d.pad_top, ==, 2);
          g_assert_cmpuint (d.pad_left, ==, 2);
          g_assert_cmpuint (d.groups, ==, 1);
          g_assert_cmpuint (d.macs, ==, (guint64) 176 * 320 * 32 * 6 * 6 * 4);
          g_assert_cmpuint (d.weight_bytes, ==, 6 * 6 * 32 * 4);
          g_assert_cmpuint (d.instr_bytes, ==, 15936 * 8);
        }
      if (op->op_id == 455)
        {
          /* 3x3 stride 2: 176x320x32 -> 88x160x64 */
          seen455 = TRUE;
          g_assert_cmpuint (d.kernel_h, ==, 3);
          g_assert_cmpuint (d.stride_h, ==, 2);
          g_assert_cmpuint (d.pad_top, ==, 1);
          g_assert_cmpuint (d.macs, ==, (guint64) 88 * 160 * 64 * 9 * 32);
        }
      if (op->op_id == 456)
        {
          g_assert_cmpuint (d.kernel_h, ==, 1);
          g_assert_cmpuint (d.stride_h, ==, 1);
          g_assert_cmpuint (d.pad_top, ==, 0);
          g_assert_cmpuint (d.macs, ==, (guint64) 88 * 160 * 32 * 64);
        }
      if (op->op_id == 521)
        {
          seen521 = TRUE;   /* SPPF: 5x5 stride 1 pad 2 */
          g_assert_cmpint (d.kind, ==, ZG330_HARDOP_MAXPOOL2D);
          g_assert_cmpuint (d.kernel_h, ==, 5);
          g_assert_cmpuint (d.stride_h, ==, 1);
          g_assert_cmpuint (d.pad_top, ==, 2);
        }
      if (op->op_id == 524)
        {
          seen524 = TRUE;
          g_assert_cmpint (d.kind, ==, ZG330_HARDOP_UPSAMPLE);
          g_assert_cmpuint (d.stride_h, ==, 2);
          g_assert_cmpuint (d.stride_w, ==, 2);
        }
    }
  g_assert_true (seen454 && seen455 && seen521 && seen524);
  g_assert_cmpuint (counts[ZG330_HARDOP_CONV2D], ==, 60);
  g_assert_cmpuint (counts[ZG330_HARDOP_CONCAT], ==, 13);
  g_assert_cmpuint (counts[ZG330_HARDOP_ADD], ==, 7);
  g_assert_cmpuint (counts[ZG330_HARDOP_MAXPOOL2D], ==, 3);
  g_assert_cmpuint (counts[ZG330_HARDOP_UPSAMPLE], ==, 2);
}

/* The kernels' rounding rule, restated here. */
static gint
ref_round_clamp (double v)
{
  double t = trunc (v), f = v - t;
  double r = t + (f >= 0.5) - (f <= -0.5);
  return (gint) CLAMP (r, -128, 127);
}

/* normratio x exponent scale of channel @c, rounded once to float (zg330-hardop.h). */
static double
ref_scale (const XirValue *v, guint c)
{
  const XirElementType *e = &v->element;
  double s = e->scales[e->n_scales == 1 ? 0 : c];
  if (e->n_norm_ratios == 0)
    return (float) s;
  return (float) (s * e->norm_ratios[e->n_norm_ratios == 1 ? 0 : c]);
}

/* Logical (c, h, w) of an N = 1 NCHWcK value -> byte offset. */
static gsize
ref_at (const XirValue *v, guint c, guint h, guint w)
{
  guint k = (guint) v->shape[4], H = (guint) v->shape[2], W = (guint) v->shape[3];
  return (((gsize) (c / k) * H + h) * W + w) * k + c % k;
}

typedef struct {
  XrtDevice *dev;
  Zg330HardopBinding b;
  GPtrArray *inputs;     /* guint8*: what was written at each input */
} RunCase;

static XrtMemRegion *
region_of (XrtDevice *dev, const XirValue *v)
{
  return xrt_device_get_mem_region (dev, v->mtype.kind == XIR_MEM_OCM ? "OCM" : "ETM", NULL);
}

/* Binds @op of the real file at its own addresses on a fresh mock://buyi, fills its inputs
 * with seeded bytes in [-lim, lim] and its weights in [-16, 16], and runs it. */
static void
run_case_init (RunCase *rc, const XirOp *op, guint32 seed, gint lim, Zg330OpWork *work)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);

  memset (rc, 0, sizeof *rc);
  rc->dev = xrt_device_open ("mock://buyi", &error);
  g_assert_no_error (error);
  g_assert_true (zg330_hardop_describe (op, &rc->b.desc, &error));
  rc->b.inputs = g_new0 (Zg330Place, op->inputs->len);
  rc->b.outputs = g_new0 (Zg330Place, op->outputs->len);
  rc->b.params = g_new0 (Zg330Place, MAX (op->params->len, 1));
  rc->inputs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < op->inputs->len; i++)
    {
      const XirValue *v = g_ptr_array_index (op->inputs, i);
      guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 k = 0; k < v->storage_bytes; k++)
        bytes[k] = (guint8) (gint8) g_rand_int_range (rand, -lim, lim + 1);
      rc->b.inputs[i] = (Zg330Place) { region_of (rc->dev, v), v->mtype.addr };
      g_assert_true (xrt_mem_region_write (rc->b.inputs[i].region, v->mtype.addr, bytes, v->storage_bytes, &error));
      g_ptr_array_add (rc->inputs, bytes);
    }
  for (guint i = 0; i < op->outputs->len; i++)
    {
      const XirValue *v = g_ptr_array_index (op->outputs, i);
      rc->b.outputs[i] = (Zg330Place) { region_of (rc->dev, v), v->mtype.addr };
    }
  for (guint i = 0; i < op->params->len; i++)
    {
      const XirValue *v = g_ptr_array_index (op->params, i);
      g_autofree guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 k = 0; k < v->storage_bytes; k++)
        bytes[k] = (guint8) (gint8) g_rand_int_range (rand, -16, 17);
      rc->b.params[i] = (Zg330Place) { region_of (rc->dev, v), v->mtype.addr };
      g_assert_true (xrt_mem_region_write (rc->b.params[i].region, v->mtype.addr, bytes, v->storage_bytes, &error));
    }
  g_assert_true (zg330_hardop_run (&rc->b, work, &error));
  g_assert_no_error (error);
}

static guint8 *
run_case_output (RunCase *rc, const XirOp *op)
{
  const XirValue *v = g_ptr_array_index (op->outputs, 0);
  guint8 *bytes = g_malloc (v->storage_bytes);
  g_autoptr (GError) error = NULL;

  g_assert_true (xrt_mem_region_read (rc->b.outputs[0].region, v->mtype.addr, bytes, v->storage_bytes, &error));
  return bytes;
}

static void
run_case_clear (RunCase *rc)
{
  g_free (rc->b.inputs);
  g_free (rc->b.outputs);
  g_free (rc->b.params);
  g_ptr_array_unref (rc->inputs);
  xrt_device_unref (rc->dev);
}

static void
check_conv (XirNetwork *net, gint64 op_id)
{
  const XirOp *op = xir_network_get_op_by_id (net, op_id);
  const XirValue *in = g_ptr_array_index (op->inputs, 0), *out = g_ptr_array_index (op->outputs, 0);
  const XirValue *wv = g_ptr_array_index (op->params, 0);
  RunCase rc;
  Zg330OpWork work;
  g_autofree guint8 *got = NULL;
  g_autofree guint8 *wt = g_malloc (wv->storage_bytes);
  g_autoptr (GError) error = NULL;
  guint C = (guint) (in->shape[1] * in->shape[4]), H = (guint) in->shape[2], W = (guint) in->shape[3];
  guint O = (guint) (out->shape[1] * out->shape[4]), OH = (guint) out->shape[2], OW = (guint) out->shape[3];
  guint KH = (guint) wv->shape[2], KW = (guint) wv->shape[3], Ko = (guint) wv->shape[4], Ki = (guint) wv->shape[5];
  guint IB = (guint) wv->shape[1];
  guint64 mismatches = 0, nonzero = 0;

  run_case_init (&rc, op, 7, 32, &work);
  g_assert_true (xrt_mem_region_read (rc.b.params[0].region, wv->mtype.addr, wt, wv->storage_bytes, &error));
  got = run_case_output (&rc, op);
  g_assert_cmpuint (work.macs, ==, rc.b.desc.macs);
  for (guint o = 0; o < O; o++)
    {
      double m = (ref_scale (in, 0) * (double) wv->element.scales[o]) / ref_scale (out, o);
      for (guint oh = 0; oh < OH; oh++)
        for (guint ow = 0; ow < OW; ow++)
          {
            gint64 acc = 0;
            gint y;
            for (guint kh = 0; kh < KH; kh++)
              for (guint kw = 0; kw < KW; kw++)
                {
                  gint ih = (gint) (oh * rc.b.desc.stride_h + kh) - (gint) rc.b.desc.pad_top;
                  gint iw = (gint) (ow * rc.b.desc.stride_w + kw) - (gint) rc.b.desc.pad_left;
                  const guint8 *x;
                  if (ih < 0 || iw < 0 || ih >= (gint) H || iw >= (gint) W)
                    continue;
                  x = g_ptr_array_index (rc.inputs, 0);
                  for (guint i = 0; i < C; i++)
                    {
                      gsize widx = ((((gsize) (o / Ko) * IB + i / Ki) * KH + kh) * KW + kw) * Ko * Ki
                                   + (gsize) (o % Ko) * Ki + i % Ki;
                      acc += (gint) (gint8) x[ref_at (in, i, (guint) ih, (guint) iw)] * (gint) (gint8) wt[widx];
                    }
                }
            y = ref_round_clamp ((double) acc * m);
            nonzero += y != 0;
            if ((gint8) got[ref_at (out, o, oh, ow)] != y && mismatches++ < 5)
              g_test_message ("op %" G_GINT64_FORMAT ": o %u (%u, %u): got %d, reference %d", op_id, o, oh, ow,
                              (gint8) got[ref_at (out, o, oh, ow)], y);
          }
    }
  g_assert_cmpuint (mismatches, ==, 0);
  g_assert_cmpuint (nonzero, >, (guint64) O * OH * OW / 4);   /* a test that could fail */
  run_case_clear (&rc);
}

static void
test_real_buyi_run_conv (void)
{
  g_autoptr (XirNetwork) net = load_real_buyi ();

  if (net == NULL)
    return;
  check_conv (net, 458);   /* 3x3 stride 1, OCM -> OCM */
  check_conv (net, 454);   /* the 6x6 stride-2 stem on ImageMake's NCHWc4 output, ETM -> OCM */
}

static void
test_real_buyi_run_add_concat_pool_upsample (void)
{
  g_autoptr (XirNetwork) net = load_real_buyi ();

  if (net == NULL)
    return;
  {
    /* Add 511: two OCM inputs of different norm ratios into ETM */
    const XirOp *op = xir_network_get_op_by_id (net, 511);
    const XirValue *a = g_ptr_array_index (op->inputs, 0), *b = g_ptr_array_index (op->inputs, 1);
    const XirValue *out = g_ptr_array_index (op->outputs, 0);
    RunCase rc;
    Zg330OpWork work;
    g_autofree guint8 *got = NULL;
    const guint8 *xa, *xb;
    guint64 bad = 0;

    run_case_init (&rc, op, 11, 127, &work);
    got = run_case_output (&rc, op);
    xa = g_ptr_array_index (rc.inputs, 0);
    xb = g_ptr_array_index (rc.inputs, 1);
    for (guint64 k = 0; k < out->storage_bytes; k++)
      {
        guint c = (guint) (k % 32);   /* one block of 32 channels */
        double ra = ref_scale (a, c) / ref_scale (out, c), rb = ref_scale (b, c) / ref_scale (out, c);
        gint y = ref_round_clamp ((double) (gint8) xa[k] * ra + (double) (gint8) xb[k] * rb);
        bad += (gint8) got[k] != y;
      }
    g_assert_cmpuint (bad, ==, 0);
    g_assert_cmpuint (work.ocm_read_bytes, ==, 2 * a->storage_bytes);
    g_assert_cmpuint (work.etm_write_bytes, ==, out->storage_bytes);
    run_case_clear (&rc);
  }
  {
    /* Concat 441: zero-copy, the inputs back to back in the output's bytes */
    const XirOp *op = xir_network_get_op_by_id (net, 441);
    const XirValue *out = g_ptr_array_index (op->outputs, 0), *a = g_ptr_array_index (op->inputs, 0);
    RunCase rc;
    Zg330OpWork work;
    g_autofree guint8 *got = NULL;

    run_case_init (&rc, op, 13, 127, &work);
    g_assert_true (rc.b.desc.zero_copy);
    got = run_case_output (&rc, op);
    g_assert_cmpmem (got, a->storage_bytes, g_ptr_array_index (rc.inputs, 0), a->storage_bytes);
    g_assert_cmpmem (got + a->storage_bytes, out->storage_bytes - a->storage_bytes, g_ptr_array_index (rc.inputs, 1),
                     out->storage_bytes - a->storage_bytes);
    g_assert_cmpuint (work.etm_read_bytes + work.etm_write_bytes + work.macs, ==, 0);
    run_case_clear (&rc);
  }
  {
    /* MaxPool 521: 5x5 stride 1 pad 2 on 11x20x256, same norm ratio in and out */
    const XirOp *op = xir_network_get_op_by_id (net, 521);
    const XirValue *in = g_ptr_array_index (op->inputs, 0), *out = g_ptr_array_index (op->outputs, 0);
    RunCase rc;
    Zg330OpWork work;
    g_autofree guint8 *got = NULL;
    const guint8 *x;
    guint64 bad = 0;

    run_case_init (&rc, op, 17, 127, &work);
    got = run_case_output (&rc, op);
    x = g_ptr_array_index (rc.inputs, 0);
    g_assert_cmpfloat (ref_scale (in, 0), ==, ref_scale (out, 0));
    for (guint c = 0; c < 256; c++)
      for (gint h = 0; h < 11; h++)
        for (gint w = 0; w < 20; w++)
          {
            gint best = -129;
            for (gint dh = -2; dh <= 2; dh++)
              for (gint dw = -2; dw <= 2; dw++)
                if (h + dh >= 0 && h + dh < 11 && w + dw >= 0 && w + dw < 20)
                  best = MAX (best, (gint) (gint8) x[ref_at (in, c, (guint) (h + dh), (guint) (w + dw))]);
            bad += (gint8) got[ref_at (out, c, (guint) h, (guint) w)] != best;
          }
    g_assert_cmpuint (bad, ==, 0);
    run_case_clear (&rc);
  }
  {
    /* Upsample 524: nearest x2, 11x20 -> 22x40 */
    const XirOp *op = xir_network_get_op_by_id (net, 524);
    const XirValue *in = g_ptr_array_index (op->inputs, 0), *out = g_ptr_array_index (op->outputs, 0);
    RunCase rc;
    Zg330OpWork work;
    g_autofree guint8 *got = NULL;
    const guint8 *x;
    guint64 bad = 0;

    run_case_init (&rc, op, 19, 127, &work);
    got = run_case_output (&rc, op);
    x = g_ptr_array_index (rc.inputs, 0);
    for (guint c = 0; c < 256; c++)
      for (guint h = 0; h < 22; h++)
        for (guint w = 0; w < 40; w++)
          bad += got[ref_at (out, c, h, w)] != x[ref_at (in, c, h / 2, w / 2)];
    g_assert_cmpuint (bad, ==, 0);
    run_case_clear (&rc);
  }
}

/* ---- the compiler's placement as a deploy report ------------------------------------ */

static guint64
tag_u64 (const cJSON *tags, const char *key)
{
  const cJSON *t = cJSON_GetObjectItemCaseSensitive (tags, key);
  g_assert_true (cJSON_IsNumber (t));
  return (guint64) t->valuedouble;
}

/* "@etm(123)" -> 'e', 123; "@ocm(4)" -> 'o', 4; else 0 */
static char
parse_addr (const char *mtype, guint64 *addr)
{
  if (g_str_has_prefix (mtype, "@etm(") || g_str_has_prefix (mtype, "@ocm("))
    {
      *addr = g_ascii_strtoull (mtype + 5, NULL, 10);
      return mtype[1];
    }
  return 0;
}

static void
test_real_buyi_plan_is_the_files (void)
{
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (ZwDeployReport) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  cJSON *root, *ops, *op;
  ZwDeployCheck check;
  static const struct { ZwSegmentType t; const char *tag; } segs[] = {
    { ZW_SEGMENT_WEIGHT, "params_segment" }, { ZW_SEGMENT_INSTR, "instr_segment" },
    { ZW_SEGMENT_FTMP, "ftmp_segment" }, { ZW_SEGMENT_INPUT, "input_segment" },
    { ZW_SEGMENT_OUTPUT, "output_segment" },
  };
  guint n_file_values = 0, n_hardops = 0, n_fake = 0;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);   /* v_ids (small) as pointers */

  if (path == NULL)
    return;
  net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  view = xir_network_view (net, 0, G_MAXINT, &error);
  r = buyi_plan_from_network (view, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);

  /* the independent checker accepts the compiler's placement */
  if (!zw_deploy_report_check (r, &check, &error))
    g_error ("checker: %s", error->message);
  g_assert_cmpuint (check.n_ocm_values, ==, 40);
  g_assert_cmpuint (check.ftmp_lower_bound, <=, 10137600);
  g_assert_cmpuint (check.ocm_peak, <=, 2 * 1024 * 1024);

  /* walk the file with cJSON, independently of runtime/xir */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  for (guint i = 0; i < G_N_ELEMENTS (segs); i++)
    {
      g_autofree char *a = g_strdup_printf ("%s_addr", segs[i].tag);
      g_autofree char *b = g_strdup_printf ("%s_bytesize", segs[i].tag);
      const cJSON *tags = cJSON_GetObjectItem (root, "tags");
      g_assert_cmpuint (r->segments[segs[i].t].logic_addr, ==, tag_u64 (tags, a));
      g_assert_cmpuint (r->segments[segs[i].t].byte_size, ==, tag_u64 (tags, b));
      g_assert_cmpuint (r->segments[segs[i].t].phy_addr, ==, tag_u64 (tags, a));
    }
  g_assert_cmpuint (r->segments[ZW_SEGMENT_FTMP].logic_addr, ==, 10011648);
  g_assert_cmpuint (r->segments[ZW_SEGMENT_FTMP].byte_size, ==, 10137600);

  ops = cJSON_GetObjectItem (root, "ops");
  cJSON_ArrayForEach (op, ops)
    {
      static const char *const sides[] = { "inputs", "outputs" };
      gint64 op_id = (gint64) cJSON_GetObjectItem (op, "op_id")->valuedouble;
      const char *type = cJSON_GetObjectItem (op, "_type_key")->valuestring;

      for (guint s = 0; s < 2; s++)
        {
          cJSON *v;
          cJSON_ArrayForEach (v, cJSON_GetObjectItem (op, sides[s]))
            {
              gint64 v_id = (gint64) cJSON_GetObjectItem (v, "v_id")->valuedouble;
              guint64 addr = 0;
              char kind = parse_addr (cJSON_GetObjectItem (v, "mtype")->valuestring, &addr);
              const ZwValueInfo *vi;

              if (kind == 0 || g_hash_table_contains (seen, GINT_TO_POINTER ((gint) v_id)))
                continue;
              g_hash_table_add (seen, GINT_TO_POINTER ((gint) v_id));
              n_file_values++;
              vi = zw_deploy_report_find_value (r, v_id);
              if (vi == NULL)
                g_error ("v_id %" G_GINT64_FORMAT " of the file is not in the report", v_id);
              g_assert_cmpint (vi->is_ocm, ==, kind == 'o');
              g_assert_cmpuint (vi->logic_addr, ==, addr);
              g_assert_cmpuint (vi->phy_addr, ==, addr);
              n_fake += !vi->real;
            }
        }
      if (g_strcmp0 (type, "icraft::xir::HardOp") == 0)
        {
          const ZwHardOpInfo *h = NULL;
          cJSON *params = cJSON_GetObjectItem (op, "params"), *instr = cJSON_GetObjectItem (op, "instr");
          guint64 addr = 0;

          for (guint k = 0; k < r->hardops->len; k++)
            if (g_array_index (r->hardops, ZwHardOpInfo, k).op_id == op_id)
              h = &g_array_index (r->hardops, ZwHardOpInfo, k);
          g_assert_nonnull (h);
          if (cJSON_GetArraySize (params) > 0)
            {
              g_assert_cmpint (parse_addr (cJSON_GetObjectItem (cJSON_GetArrayItem (params, 0), "mtype")->valuestring,
                                           &addr), ==, 'e');
              g_assert_cmpuint (h->weights_logic_addr, ==, addr);
            }
          else
            g_assert_cmpuint (h->weights_size, ==, 0);
          g_assert_cmpint (parse_addr (cJSON_GetObjectItem (cJSON_GetArrayItem (instr, 0), "mtype")->valuestring, &addr),
                           ==, 'e');
          g_assert_cmpuint (h->instr_logic_addr, ==, addr);
          g_assert_cmpint (h->merged_into, ==, -1);
          g_assert_cmpfloat (h->est_ms, >=, 0.0);
          n_hardops++;
        }
    }
  cJSON_Delete (root);
  g_assert_cmpuint (n_file_values, ==, r->values->len);
  g_assert_cmpuint (n_file_values, ==, 86);   /* 90 feature values, 4 of them on the host */
  g_assert_cmpuint (n_fake, ==, 28);          /* the inputs of 12 two-input concats and one of four */
  g_assert_cmpuint (n_hardops, ==, 85);
  g_assert_cmpuint (r->hardops->len, ==, 85);
  g_assert_cmpuint (r->launches->len, ==, 85);  /* merge off: one launch per hardop */
  g_assert_false (r->merge_hardop);
  {
    /* the first conv: weights at @etm(4096), 4608 bytes; its instructions at the INSTR segment's start */
    const ZwHardOpInfo *h = &g_array_index (r->hardops, ZwHardOpInfo, 0);
    g_assert_cmpint (h->op_id, ==, 454);
    g_assert_cmpuint (h->weights_logic_addr, ==, 4096);
    g_assert_cmpuint (h->weights_size, ==, 4608);
    g_assert_cmpuint (h->instr_logic_addr, ==, 20149248);
    g_assert_cmpuint (h->instr_size, ==, 15936 * 8);
  }
  {
    /* the image ImageMake writes lives in the INPUT segment; the heads in OUTPUT */
    const ZwValueInfo *v = zw_deploy_report_find_value (r, 879);
    g_assert_cmpint (v->segment, ==, ZW_SEGMENT_INPUT);
    g_assert_cmpint (zw_deploy_report_find_value (r, 426)->segment, ==, ZW_SEGMENT_OUTPUT);
    g_assert_cmpint (zw_deploy_report_find_value (r, 47)->fake_from, ==, 50);
  }
}

/* Bad input: a value a hardop reads with @hostm, a missing segment tag, a ZG330 compile. */
static void
test_buyi_plan_errors (void)
{
  g_autofree char *path = zw_test_shared_file ("real/yolov5s_plin_BY.json");
  g_autofree char *zg_path = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  {
    g_autoptr (GString) s = g_string_new (text);
    g_autoptr (XirNetwork) net = NULL;
    g_autoptr (XirNetworkView) view = NULL;
    g_string_replace (s, "\"@etm(7336448)\"", "\"@hostm\"", 0);   /* every occurrence of v_id 879 */
    net = xir_network_new_from_json_data (s->str, s->len, "by-hostm.json", &error);
    g_assert_no_error (error);
    view = xir_network_view (net, 0, G_MAXINT, &error);
    g_assert_null (buyi_plan_from_network (view, &error));
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "by-hostm.json"));
    g_assert_nonnull (strstr (error->message, "op 454"));
    g_assert_nonnull (strstr (error->message, "v_id 879"));
    g_assert_nonnull (strstr (error->message, "mtype @hostm"));
    g_clear_error (&error);
  }
  {
    g_autoptr (GString) s = g_string_new (text);
    g_autoptr (XirNetwork) net = NULL;
    g_autoptr (XirNetworkView) view = NULL;
    g_string_replace (s, "\"ftmp_segment_addr\"", "\"ftmp_segment_where\"", 1);
    net = xir_network_new_from_json_data (s->str, s->len, "by-tags.json", &error);
    g_assert_no_error (error);
    view = xir_network_view (net, 0, G_MAXINT, &error);
    g_assert_null (buyi_plan_from_network (view, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "by-tags.json: tags: field 'ftmp_segment_addr'"));
    g_clear_error (&error);
  }
  zg_path = zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
  if (zg_path != NULL)
    {
      g_autoptr (XirNetwork) net = xir_network_new_from_json_file (zg_path, &error);
      g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
      g_assert_null (buyi_plan_from_network (view, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "yolov5s_plin_352x640_ZG.json"));
      g_assert_nonnull (strstr (error->message, "tags: field"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/buyi/xir/exp-scales-manual-example", test_exp_scales_manual_example);
  g_test_add_func ("/buyi/xir/exp-scales-run-length-and-errors", test_exp_scales_run_length_and_errors);
  g_test_add_func ("/buyi/xir/norm-ratios", test_norm_ratios);
  g_test_add_func ("/buyi/xir/calibrated-type-and-ocm-address", test_element_types_load);
  g_test_add_func ("/buyi/real/facts", test_real_buyi_facts);
  g_test_add_func ("/buyi/real/info-cli", test_real_buyi_info_cli);
  g_test_add_func ("/buyi/profile/file-matches-builtin", test_profile_file_matches_builtin);
  g_test_add_func ("/buyi/device/mock-buyi", test_device_mock_buyi);
  g_test_add_func ("/buyi/real/hardops-describe", test_real_buyi_hardops_describe);
  g_test_add_func ("/buyi/real/run-conv", test_real_buyi_run_conv);
  g_test_add_func ("/buyi/real/run-add-concat-pool-upsample", test_real_buyi_run_add_concat_pool_upsample);
  g_test_add_func ("/buyi/real/plan-is-the-files", test_real_buyi_plan_is_the_files);
  g_test_add_func ("/buyi/plan/errors", test_buyi_plan_errors);
  return g_test_run ();
}
