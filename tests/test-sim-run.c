/* test-sim-run — a 3-layer net run on the simulated board by hand, the way a driver would:
 * open the device, allocate ETM, upload weights and instructions, place the tensors, bind the
 * hardops at their instruction addresses, icoreCalc, read back — and compare with a
 * straightforward reference written here. */
#include "backends/zg330/zg330-hardop.h"
#include "kernels/zg330-kernels.h"
#include "devices/zg330-sim.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"

#include <math.h>
#include <string.h>

#define H 8
#define W 8
#define C 32

/* conv 3x3 (v 1 -> v 2), add (v 2 + v 1 -> v 3), maxpool same-size 5x5 (v 3 -> v 4) */
static const char net_json[] =
  "{\"_type_key\":\"icraft::xir::Network\",\"name\":\"three\",\"params_bytes\":0,\"ops\":["
  "{\"_type_key\":\"icraft::xir::Input\",\"compile_target\":\"@hostt\",\"op_id\":0,\"inputs\":[],\"outputs\":[V1],\"tags\":{}},"
  "{\"_type_key\":\"icraft::xir::HardOp\",\"compile_target\":\"@zhuget(330)\",\"name\":\"icraft::xir::Conv2dNode\",\"op_id\":1,"
  " \"layer_count\":1,\"inputs\":[V1],\"outputs\":[V2],\"instr\":[I10],\"params\":[WT,BI],\"tags\":{}},"
  "{\"_type_key\":\"icraft::xir::HardOp\",\"compile_target\":\"@zhuget(330)\",\"name\":\"icraft::xir::AddNode\",\"op_id\":2,"
  " \"layer_count\":1,\"inputs\":[V2,V1],\"outputs\":[V3],\"instr\":[I11],\"params\":[],\"tags\":{}},"
  "{\"_type_key\":\"icraft::xir::HardOp\",\"compile_target\":\"@zhuget(330)\",\"name\":\"icraft::xir::MaxPool2dNode\",\"op_id\":3,"
  " \"layer_count\":1,\"inputs\":[V3],\"outputs\":[V4],\"instr\":[I12],\"params\":[],\"tags\":{}},"
  "{\"_type_key\":\"icraft::xir::Output\",\"compile_target\":\"@hostt\",\"op_id\":4,\"inputs\":[V4],\"outputs\":[],\"tags\":{}}]}";

static char *
value_json (int v_id, double scale, int chunk)
{
  return g_strdup_printf ("{\"_type_key\":\"icraft::xir::Value\",\"v_id\":%d,\"mtype\":\"@chunk(%d@0)\","
                          "\"dtype\":{\"_type_key\":\"icraft::xir::TensorType\",\"layout\":\"@layout(NCHWc32)\","
                          "\"shape\":[1,1,%d,%d,32],\"element_dtype\":{\"_type_key\":\"icraft::xir::QuantizedType\","
                          "\"storage_dtype\":\"@sint(8)\",\"scale\":\"@scales([axis=-1]32*%g)\"}}}",
                          v_id, chunk, H, W, scale);
}

static char *
build_json (void)
{
  g_autofree char *v1 = value_json (1, 0.05, 1);
  g_autofree char *v2 = value_json (2, 0.1, 2);
  g_autofree char *v3 = value_json (3, 0.125, 3);
  g_autofree char *v4 = value_json (4, 0.125, 4);
  const char *wt = "{\"_type_key\":\"icraft::xir::Params\",\"v_id\":20,\"mtype\":\"@chunk(20@0)\",\"dtype\":{"
                   "\"_type_key\":\"icraft::xir::TensorType\",\"layout\":\"@layout(OIHWo32i32)\",\"shape\":[1,1,3,3,32,32],"
                   "\"element_dtype\":{\"_type_key\":\"icraft::xir::QuantizedType\",\"storage_dtype\":\"@sint(8)\","
                   "\"scale\":\"@scales([axis=4]16*0.01,16*0.02)\"}}}";
  const char *bi = "{\"_type_key\":\"icraft::xir::Params\",\"v_id\":21,\"mtype\":\"@chunk(20@9216)\",\"dtype\":{"
                   "\"_type_key\":\"icraft::xir::TensorType\",\"layout\":\"@layout(Oo32)\",\"shape\":[1,32],"
                   "\"element_dtype\":\"@fp(16)\"}}";
  GString *s = g_string_new (net_json);
  struct { const char *key; const char *text; } subst[] = { { "V1", v1 }, { "V2", v2 }, { "V3", v3 }, { "V4", v4 },
                                                              { "WT", wt }, { "BI", bi } };
  for (guint i = 0; i < G_N_ELEMENTS (subst); i++)
    g_string_replace (s, subst[i].key, subst[i].text, 0);
  for (int k = 0; k < 3; k++)
    {
      g_autofree char *key = g_strdup_printf ("I1%d", k);
      g_autofree char *instr = g_strdup_printf ("{\"_type_key\":\"icraft::xir::Params\",\"v_id\":%d,\"mtype\":\"@chunk(30@0)\","
                                                "\"dtype\":{\"_type_key\":\"icraft::xir::TensorType\",\"layout\":\"@layout(*)\","
                                                "\"shape\":[%d],\"element_dtype\":\"@uint(64)\"}}", 10 + k, 16 + 8 * k);
      g_string_replace (s, key, instr, 0);
    }
  return g_string_free (s, FALSE);
}

/* ---- reference (plain loops over logical NHWC indices) ---- */

static int
round_clamp (double v)
{
  double r = v < 0 ? -floor (-v + 0.5) : floor (v + 0.5);
  return (int) CLAMP (r, -128, 127);
}

/* byte of (c, h, w) in NCHWc32 with one channel block */
#define AT(buf, c, h, w) ((buf)[((h) * W + (w)) * C + (c)])

static void
reference (const gint8 *x, const gint8 *wt, const guint8 *bias, gint8 *y2, gint8 *y3, gint8 *y4)
{
  for (int o = 0; o < C; o++)
    {
      double s_w = o < 16 ? 0.01 : 0.02;
      double mul = ((double) 0.05f * (double) (float) s_w) / (double) 0.1f;
      double add = (double) zw_fp16_to_float ((guint16) (bias[2 * o] | bias[2 * o + 1] << 8)) / (double) 0.1f;
      for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++)
          {
            gint32 acc = 0;
            for (int kh = 0; kh < 3; kh++)
              for (int kw = 0; kw < 3; kw++)
                {
                  int ih = h + kh - 1, iw = w + kw - 1;
                  if (ih < 0 || iw < 0 || ih >= H || iw >= W)
                    continue;
                  for (int i = 0; i < C; i++)
                    acc += AT (x, i, ih, iw) * wt[((kh * 3 + kw) * 32 + o) * 32 + i];
                }
            AT (y2, o, h, w) = (gint8) round_clamp ((double) acc * mul + add);
          }
    }
  for (int c = 0; c < C; c++)
    for (int h = 0; h < H; h++)
      for (int w = 0; w < W; w++)
        AT (y3, c, h, w) = (gint8) round_clamp (AT (y2, c, h, w) * ((double) 0.1f / (double) 0.125f)
                                                + AT (x, c, h, w) * ((double) 0.05f / (double) 0.125f));
  for (int c = 0; c < C; c++)
    for (int h = 0; h < H; h++)
      for (int w = 0; w < W; w++)
        {
          int best = -128;
          for (int kh = -2; kh <= 2; kh++)
            for (int kw = -2; kw <= 2; kw++)
              if (h + kh >= 0 && h + kh < H && w + kw >= 0 && w + kw < W)
                best = MAX (best, AT (y3, c, h + kh, w + kw));
          AT (y4, c, h, w) = (gint8) best;
        }
}

typedef struct {
  Zg330HardopBinding bind;
} Job;

static gboolean
run_job (XrtDevice *device, gpointer data, Zg330OpWork *work, GError **error)
{
  (void) device;
  return zg330_hardop_run (&((Job *) data)->bind, work, error);
}

static void
job_free (gpointer data)
{
  Job *j = data;
  g_free (j->bind.inputs);
  g_free (j->bind.outputs);
  g_free (j->bind.params);
  g_free (j);
}

static void
test_three_layers_by_hand (void)
{
  static const Zg330HardopExec exec = { run_job, TRUE };
  g_autofree char *json = build_json ();
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = xir_network_new_from_json_data (json, strlen (json), "three.json", &error);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtMemChunk) weights = NULL, instr = NULL, feat = NULL;
  XrtMemRegion *etm;
  guint64 addr[5], instr_addr[3], instr_size[3], off = 0;
  gint8 x[H * W * C], y2[H * W * C], y3[H * W * C], y4[H * W * C], got[H * W * C];
  GRand *rand = g_rand_new_with_seed (5);
  const guint8 *wbytes, *bbytes;

  g_assert_no_error (error);
  xir_network_fake_params (net, 9);
  dev = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  etm = xrt_device_get_default_mem_region (dev);

  /* upload weights + bias and the three ops' instruction words */
  wbytes = xir_network_get_params_data (net, xir_network_get_value (net, 20));
  bbytes = xir_network_get_params_data (net, xir_network_get_value (net, 21));
  weights = xrt_mem_region_malloc (etm, 9216 + 64, TRUE, 4096, &error);
  g_assert_true (xrt_mem_chunk_write (weights, 0, wbytes, 9216, &error));
  g_assert_true (xrt_mem_chunk_write (weights, 9216, bbytes, 64, &error));
  instr = xrt_mem_region_malloc (etm, 4096, TRUE, 4096, &error);
  for (int k = 0; k < 3; k++)
    {
      XirValue *iv = xir_network_get_value (net, 10 + k);
      instr_addr[k] = xrt_mem_chunk_get_addr (instr) + off;
      instr_size[k] = iv->storage_bytes;
      g_assert_true (xrt_mem_chunk_write (instr, off, xir_network_get_params_data (net, iv), iv->storage_bytes, &error));
      off += iv->storage_bytes;
    }
  /* place the four tensors side by side */
  feat = xrt_mem_region_malloc (etm, 4 * H * W * C, TRUE, 4096, &error);
  g_assert_no_error (error);
  for (int v = 1; v <= 4; v++)
    {
      addr[v] = xrt_mem_chunk_get_addr (feat) + (guint64) (v - 1) * H * W * C;
    }
  for (guint i = 0; i < sizeof x; i++)
    x[i] = (gint8) g_rand_int_range (rand, -40, 41);
  g_rand_free (rand);
  g_assert_true (xrt_mem_region_write (etm, addr[1], x, sizeof x, &error));

  for (int k = 0; k < 3; k++)
    {
      XirOp *op = xir_network_get_op (net, (guint) k + 1);
      Job *job = g_new0 (Job, 1);

      g_assert_true (zg330_hardop_describe (op, &job->bind.desc, &error));
      job->bind.inputs = g_new0 (Zg330Place, op->inputs->len);
      job->bind.outputs = g_new0 (Zg330Place, 1);
      job->bind.params = g_new0 (Zg330Place, MAX (op->params->len, 1));
      for (guint i = 0; i < op->inputs->len; i++)
        {
          job->bind.inputs[i].region = etm;
          job->bind.inputs[i].addr = addr[((XirValue *) g_ptr_array_index (op->inputs, i))->v_id];
        }
      job->bind.outputs[0].region = etm;
      job->bind.outputs[0].addr = addr[((XirValue *) g_ptr_array_index (op->outputs, 0))->v_id];
      if (op->params->len == 2)
        {
          job->bind.params[0].region = job->bind.params[1].region = etm;
          job->bind.params[0].addr = xrt_mem_chunk_get_addr (weights);
          job->bind.params[1].addr = xrt_mem_chunk_get_addr (weights) + 9216;
        }
      g_assert_true (zg330_sim_bind_hardop (dev, instr_addr[k], instr_size[k], &exec, job, job_free, &error));
      g_assert_no_error (error);
    }

  /* one launch over the three ops' instructions */
  g_assert_true (zg330_device_icore_calc (dev, instr_addr[0], off, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (zg330_device_layer_count (dev), ==, 3);
  g_assert_cmpfloat (zg330_device_calc_time (dev), >, 0);
  g_assert_true (xrt_mem_region_read (etm, addr[4], got, sizeof got, &error));

  reference (x, (const gint8 *) wbytes, bbytes, y2, y3, y4);
  {
    gint8 mid[H * W * C];
    g_assert_true (xrt_mem_region_read (etm, addr[2], mid, sizeof mid, &error));
    g_assert_cmpmem (mid, sizeof mid, y2, sizeof y2);
    g_assert_true (xrt_mem_region_read (etm, addr[3], mid, sizeof mid, &error));
    g_assert_cmpmem (mid, sizeof mid, y3, sizeof y3);
  }
  g_assert_cmpmem (got, sizeof got, y4, sizeof y4);
  {
    /* not all zero or saturated: the reference exercises the arithmetic */
    guint distinct = 0;
    gboolean seen[256] = { 0 };
    for (guint i = 0; i < sizeof got; i++)
      if (!seen[(guint8) got[i]])
        seen[(guint8) got[i]] = TRUE, distinct++;
    g_assert_cmpuint (distinct, >, 20);
  }
  /* an address with nothing bound is an error naming it */
  g_assert_false (zg330_device_icore_calc (dev, 0x7000000, 64, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_UNBOUND);
}

static void
test_unknown_class_and_bad_conv (void)
{
  g_autofree char *json = build_json ();
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = NULL;
  Zg330HardopDesc d;
  GString *s;

  s = g_string_new (json);
  g_string_replace (s, "icraft::xir::AddNode", "icraft::xir::SoftmaxNode", 1);
  net = xir_network_new_from_json_data (s->str, s->len, "bad.json", &error);
  g_assert_no_error (error);
  g_assert_false (zg330_hardop_describe (xir_network_get_op (net, 2), &d, &error));
  g_assert_nonnull (strstr (error->message, "op 2"));
  g_assert_nonnull (strstr (error->message, "SoftmaxNode"));
  g_clear_error (&error);
  g_string_free (s, TRUE);
  g_clear_pointer (&net, xir_network_unref);
  /* weights for 64 output channels on a 32-channel output */
  s = g_string_new (json);
  g_string_replace (s, "[1,1,3,3,32,32]", "[2,1,3,3,32,32]", 1);
  net = xir_network_new_from_json_data (s->str, s->len, "bad.json", &error);
  g_assert_no_error (error);
  g_assert_false (zg330_hardop_describe (xir_network_get_op (net, 1), &d, &error));
  g_assert_nonnull (strstr (error->message, "op 1"));
  g_assert_nonnull (strstr (error->message, "64 out"));
  g_string_free (s, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/run/three-layers-by-hand-match-reference", test_three_layers_by_hand);
  g_test_add_func ("/sim/run/unknown-class-and-impossible-conv-named", test_unknown_class_and_bad_conv);
  return g_test_run ();
}
