/* test-buyi.c — networks compiled for the Buyi chip (issue 13): the XIR types the manual
 * documents (NormalizedQuantizedType, exponent scales, norm ratios, CalibratedType), compile
 * targets, compiler-given addresses, the custom ops ImageMake and DetPost; the real Buyi
 * compile of yolov5s (read from ../shared/real, skipped when absent). */
#include "zw-test-util.h"

#include "xir/xir-summary.h"

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
  return g_test_run ();
}
