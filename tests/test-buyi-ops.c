/* test-buyi-ops.c — the Buyi board's IP models on the host: customop::ImageMake (uint8 NHWC
 * image -> NCHWc4 int8) and customop::DetPost (the DetPostZG model on normalised heads), and
 * their simulated cost (host-cost.h), on tiny hand-made networks with hand-computed bytes. */
#include "backends/host/host-ops.h"
#include "backends/host/host-cost.h"
#include "devices/zg330-timing.h"

#include <math.h>
#include <string.h>

/* A NormalizedQuantizedType value: @n channels of norm ratio @ratio and exponent scale
 * m/e/s. */
static char *
nq_value (gint64 v_id, const char *layout, const char *shape, guint n, const char *ratio, const char *exp_scale,
          const char *mtype)
{
  return g_strdup_printf (
    "{\"_type_key\":\"icraft::xir::Value\",\"dtype\":{\"_type_key\":\"icraft::xir::TensorType\","
    "\"element_dtype\":{\"_type_key\":\"icraft::xir::NormalizedQuantizedType\",\"expressed_dtype\":\"@fp(32)\","
    "\"normratio\":\"@norm_ratios([axis=-1]%u*%s)\",\"scale\":\"@exp_scales([axis=-1]%u*%s)\","
    "\"storage_dtype\":\"@sint(8)\",\"zero_points\":[]},\"layout\":\"@layout(%s)\",\"merged_distrs\":[],"
    "\"shape\":%s},\"mtype\":\"%s\",\"name\":\"\",\"tags\":{},\"v_id\":%" G_GINT64_FORMAT "}",
    n, ratio, n, exp_scale, layout, shape, mtype, v_id);
}

static char *
u8_image (gint64 v_id, guint h, guint w)
{
  return g_strdup_printf (
    "{\"_type_key\":\"icraft::xir::Value\",\"dtype\":{\"_type_key\":\"icraft::xir::TensorType\","
    "\"element_dtype\":\"@uint(8)\",\"layout\":\"@layout(NHWC)\",\"merged_distrs\":[],\"shape\":[1,%u,%u,3]},"
    "\"mtype\":\"@hostm\",\"name\":\"\",\"tags\":{},\"v_id\":%" G_GINT64_FORMAT "}", h, w, v_id);
}

/* Input -> ImageMake -> Output, the real file's attributes but @extra_attrs and its tags. */
static XirNetwork *
imagemake_net (guint h, guint w, guint out_h, guint out_w, const char *extra_attrs, const char *net_tags)
{
  g_autofree char *img = u8_image (0, h, w);
  g_autofree char *shape = g_strdup_printf ("[1,1,%u,%u,4]", out_h, out_w);
  g_autofree char *out = nq_value (879, "NCHWc4", shape, 4, "1", "1/0/1", "@etm(7336448)");
  g_autofree char *json = g_strdup_printf (
    "{\"_type_key\":\"icraft::xir::Network\",\"ai_target\":\"@buyit\",\"name\":\"imk\",\"tags\":%s,\"ops\":["
    "{\"_type_key\":\"icraft::xir::Input\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":0,\"tags\":{},"
    "\"inputs\":[],\"outputs\":[%s]},"
    "{\"_type_key\":\"customop::ImageMake\",\"compile_target\":\"@fpgat\",\"name\":\"\",\"op_id\":295,\"tags\":{},"
    "\"input_bits\":8,\"input_port\":0,\"one_fast\":false,\"pre_mean_data\":[-128.0,-128.0,-128.0],"
    "\"pre_scale_data\":[1.0078740119934082,1.0078740119934082,1.0078740119934082],\"reg_base\":0,"
    "\"sleep_time\":0%s,\"inputs\":[%s],\"outputs\":[%s]},"
    "{\"_type_key\":\"icraft::xir::Output\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":146,"
    "\"tags\":{},\"outputs\":[],\"inputs\":[%s]}]}",
    net_tags, img, extra_attrs, img, out, out);
  g_autoptr (GError) error = NULL;
  XirNetwork *net = xir_network_new_from_json_data (json, strlen (json), "imk.json", &error);

  g_assert_no_error (error);
  return net;
}

static const XirOp *
op_by_id (XirNetwork *net, gint64 id)
{
  XirOp *op = xir_network_get_op_by_id (net, id);
  g_assert_nonnull (op);
  return op;
}

/* Two pixels per row: (0, 128, 255) (1, 200, 129) / (50, 255, 0) (128, 128, 128), R G B in
 * file order.  q = (x - 128) / (128/127): 0 -> -127, 1 -> -126, 50 -> -77, 128 -> 0,
 * 129 -> 1, 200 -> 71, 255 -> 126. */
static const guint8 image_2x2[12] = { 0, 128, 255, 1, 200, 129, 50, 255, 0, 128, 128, 128 };

static void
test_imagemake_normalises_in_file_order (void)
{
  g_autoptr (XirNetwork) net = imagemake_net (2, 2, 2, 2, ",\"no_imkpad\":true,\"pad_size\":[0,0,0,0],\"pre_nop\":false",
                                              "{\"bgr_order\":false}");
  const XirOp *op = op_by_id (net, 295);
  guint8 out[16];
  static const gint8 expect[16] = { -127, 0, 126, 0, -126, 71, 1, 0, -77, 126, -127, 0, 0, 0, 0, 0 };
  g_autoptr (GError) error = NULL;
  const guint8 *ins[1] = { image_2x2 };
  guint8 *outs[1] = { out };

  g_assert_true (host_op_supported (op));
  memset (out, 0x55, sizeof out);
  g_assert_true (host_image_make_run (op, xir_network_get_tags (net), image_2x2, out, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (out, sizeof out, expect, sizeof expect);
  /* the generic entry point agrees when the network says nothing about bgr_order */
  memset (out, 0x55, sizeof out);
  g_assert_true (host_op_run (op, ins, outs, &error));
  g_assert_cmpmem (out, sizeof out, expect, sizeof expect);
}

static void
test_imagemake_bgr_order_swaps_r_and_b (void)
{
  g_autoptr (XirNetwork) net = imagemake_net (2, 2, 2, 2, ",\"no_imkpad\":true,\"pad_size\":[0,0,0,0],\"pre_nop\":false",
                                              "{\"bgr_order\":true}");
  const XirOp *op = op_by_id (net, 295);
  HostImageMakeConfig cfg;
  guint8 out[16];
  /* channel c takes image channel 2 - c */
  static const gint8 expect[16] = { 126, 0, -127, 0, 1, 71, -126, 0, -127, 126, -77, 0, 0, 0, 0, 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (host_image_make_config_init (&cfg, op, xir_network_get_tags (net), &error));
  g_assert_true (cfg.bgr_order);
  g_assert_cmpuint (cfg.in_channels, ==, 3);
  g_assert_cmpuint (cfg.out_channels, ==, 4);
  g_assert_cmpfloat (cfg.mean[2], ==, -128.0);
  g_assert_true (host_image_make_run (op, xir_network_get_tags (net), image_2x2, out, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (out, sizeof out, expect, sizeof expect);
}

static void
test_imagemake_pad_and_pre_nop (void)
{
  /* pad_size [top 1, bottom 0, left 0, right 1]: a 3x3 output, the image at (1, 0) */
  g_autoptr (XirNetwork) net = imagemake_net (2, 2, 3, 3, ",\"no_imkpad\":false,\"pad_size\":[1,0,0,1],\"pre_nop\":true",
                                              "{}");
  const XirOp *op = op_by_id (net, 295);
  guint8 out[36];
  gint8 expect[36] = { 0 };
  g_autoptr (GError) error = NULL;

  /* pre_nop: q = x clamped to [-128, 127] */
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 2; x++)
      for (guint c = 0; c < 3; c++)
        expect[((y + 1) * 3 + x) * 4 + c] = (gint8) MIN (image_2x2[(y * 2 + x) * 3 + c], 127);
  g_assert_true (host_image_make_run (op, NULL, image_2x2, out, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (out, sizeof out, expect, sizeof expect);
}

static void
test_imagemake_rejects_bad_attributes (void)
{
  static const struct { const char *attrs; guint oh; const char *needle; } cases[] = {
    { ",\"no_imkpad\":true,\"input_bits\":16", 2, "input_bits" },
    { ",\"no_imkpad\":true,\"pre_scale_data\":[1,0,1]", 2, "pre_scale_data[1]" },
    { ",\"no_imkpad\":\"yes\"", 2, "no_imkpad" },
    { ",\"no_imkpad\":true", 3, "pad_size" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      /* a later duplicate key is what xir keeps for input_bits/pre_scale_data: build the
       * attributes without the defaults instead */
      g_autofree char *img = u8_image (0, 2, 2);
      g_autofree char *shape = g_strdup_printf ("[1,1,%u,2,4]", cases[i].oh);
      g_autofree char *out = nq_value (879, "NCHWc4", shape, 4, "1", "1/0/1", "@etm(7336448)");
      gboolean custom_scale = strstr (cases[i].attrs, "pre_scale_data") != NULL;
      gboolean custom_bits = strstr (cases[i].attrs, "input_bits") != NULL;
      g_autofree char *json = g_strdup_printf (
        "{\"_type_key\":\"icraft::xir::Network\",\"ai_target\":\"@buyit\",\"name\":\"imk\",\"tags\":{},\"ops\":["
        "{\"_type_key\":\"icraft::xir::Input\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":0,\"tags\":{},"
        "\"inputs\":[],\"outputs\":[%s]},"
        "{\"_type_key\":\"customop::ImageMake\",\"compile_target\":\"@fpgat\",\"name\":\"\",\"op_id\":295,"
        "\"tags\":{},%s\"pre_mean_data\":[-128.0,-128.0,-128.0]%s%s,\"inputs\":[%s],\"outputs\":[%s]},"
        "{\"_type_key\":\"icraft::xir::Output\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":146,"
        "\"tags\":{},\"outputs\":[],\"inputs\":[%s]}]}",
        img, custom_bits ? "" : "\"input_bits\":8,",
        custom_scale ? "" : ",\"pre_scale_data\":[1.0078740119934082,1.0078740119934082,1.0078740119934082]",
        cases[i].attrs, img, out, out);
      g_autoptr (GError) error = NULL;
      g_autoptr (XirNetwork) net = xir_network_new_from_json_data (json, strlen (json), "imk.json", &error);
      guint8 buf[48];

      g_assert_no_error (error);
      g_assert_false (host_image_make_run (op_by_id (net, 295), NULL, image_2x2, buf, &error));
      g_assert_nonnull (error);
      g_assert_true (error->domain == HOST_OP_ERROR);
      if (strstr (error->message, "op 295 (ImageMake)") == NULL || strstr (error->message, cases[i].needle) == NULL)
        g_error ("case %u: \"%s\" does not name the op and %s", i, error->message, cases[i].needle);
    }
}

/* Input -> DetPost (one 2x2 head of 8 channels, normratio 0.5 x exponent scale 1/1/0.5)
 * -> Output: one anchor, chn_1st 1, valid_chn 1 (8-channel records), compare channel 4
 * (cmp_mask0 -17) against data_thr 3; the output holds 2 records of 16 bytes. */
static XirNetwork *
detpost_net (void)
{
  g_autofree char *head = nq_value (426, "NCHWc8", "[1,1,2,2,8]", 8, "0.5", "1/1/0.5", "@etm(8237568)");
  g_autofree char *out = nq_value (883, "NHWC", "[1,2,1,16]", 16, "0.5", "1/1/0.5", "@hostm");
  g_autofree char *json = g_strdup_printf (
    "{\"_type_key\":\"icraft::xir::Network\",\"ai_target\":\"@buyit\",\"name\":\"det\",\"tags\":{},\"ops\":["
    "{\"_type_key\":\"icraft::xir::Input\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":0,\"tags\":{},"
    "\"inputs\":[],\"outputs\":[%s]},"
    "{\"_type_key\":\"customop::DetPost\",\"compile_target\":\"@fpgat\",\"name\":\"\",\"op_id\":296,\"tags\":{},"
    "\"anchor_num\":1,\"chn_1st\":1,\"chn_2nd\":0,\"chn_3rd\":0,\"cmp_chn\":1,\"cmp_en\":1,\"cmp_mask0\":-17,"
    "\"cmp_mask1\":-1,\"data_thr\":[3],\"layer_en\":1,\"reg_base\":0,\"sleep_time\":0,\"thr_f\":0.1,"
    "\"valid_chn\":1,\"inputs\":[%s],\"outputs\":[%s]},"
    "{\"_type_key\":\"icraft::xir::Output\",\"compile_target\":\"@hostt\",\"name\":\"\",\"op_id\":146,"
    "\"tags\":{},\"outputs\":[],\"inputs\":[%s]}]}", head, head, out, out);
  g_autoptr (GError) error = NULL;
  XirNetwork *net = xir_network_new_from_json_data (json, strlen (json), "det.json", &error);

  g_assert_no_error (error);
  return net;
}

/* Cell (y, x) channel c of the head holds 10*y + 4*x + c, except channel 4: 2 everywhere
 * but (0, 1) = 5 and (1, 0) = 3 — the two cells that pass (q >= 3). */
static void
fill_head (guint8 head[32])
{
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 2; x++)
      for (guint c = 0; c < 8; c++)
        head[(y * 2 + x) * 8 + c] = (guint8) (10 * y + 4 * x + c);
  for (guint i = 0; i < 4; i++)
    head[i * 8 + 4] = 2;
  head[1 * 8 + 4] = 5;
  head[2 * 8 + 4] = 3;
}

static void
test_detpost_records_as_detpostzg (void)
{
  g_autoptr (XirNetwork) net = detpost_net ();
  const XirOp *op = op_by_id (net, 296);
  guint8 head[32], out[32];
  const guint8 *ins[1] = { head };
  guint8 *outs[1] = { out };
  guint n_boxes = 0;
  static const guint8 expect[32] = {
    /* cell (y 0, x 1): channels 4..11 with channel 4 = 5, trailer x 1 y 0 anchor 0 */
    4, 5, 6, 7, 5, 9, 10, 11, 0, 0, 1, 0, 0, 0, 0, 0,
    /* cell (y 1, x 0): channels 10..17 with channel 4 = 3 */
    10, 11, 12, 13, 3, 15, 16, 17, 0, 0, 0, 0, 1, 0, 0, 0,
  };
  g_autoptr (GError) error = NULL;

  fill_head (head);
  g_assert_true (host_op_supported (op));
  g_assert_true (host_detpost_is (op));
  memset (out, 0x55, sizeof out);
  g_assert_true (host_detpost_zg_run (op, ins, outs, &n_boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_boxes, ==, 2);
  g_assert_cmpmem (out, sizeof out, expect, sizeof expect);
  memset (out, 0x55, sizeof out);
  g_assert_true (host_op_run (op, ins, outs, &error));
  g_assert_cmpmem (out, sizeof out, expect, sizeof expect);
}

/* Decoding uses normratio x exponent scale (0.5 x 0.5 = 0.25) per channel. */
static void
test_detpost_decode_uses_norm_ratios (void)
{
  g_autoptr (XirNetwork) net = detpost_net ();
  const XirOp *op = op_by_id (net, 296);
  guint8 head[32], out[32];
  const guint8 *ins[1] = { head };
  guint8 *outs[1] = { out };
  const guint8 *couts[1] = { out };
  guint n_boxes = 0;
  static const float anchors[2] = { 10, 20 };
  HostDetPostDecodeParams params = { .n_classes = 3, .conf_threshold = 0.01f, .input_h = 16,
                                     .anchors = anchors, .n_anchor_floats = 2 };
  g_autoptr (GArray) dets = g_array_new (FALSE, TRUE, sizeof (HostDetection));
  g_autoptr (GError) error = NULL;
  HostDetection *d;

  fill_head (head);
  g_assert_true (host_detpost_zg_run (op, ins, outs, &n_boxes, &error));
  g_assert_true (host_detpost_zg_decode (op, couts, &n_boxes, &params, dets, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dets->len, ==, 2);
  d = &g_array_index (dets, HostDetection, 0);
  /* record 0: tx 4, ty 5, tw 6, th 7, obj 5, classes 9 10 11 (best: class 2) at cell (1, 0);
   * stride 16 / 2 = 8 */
  g_assert_cmpuint (d->cell_x, ==, 1);
  g_assert_cmpuint (d->cell_y, ==, 0);
  g_assert_cmpuint (d->cls, ==, 2);
  g_assert_cmpfloat_with_epsilon (d->objectness, 1.0 / (1.0 + exp (-1.25)), 1e-6);
  g_assert_cmpfloat_with_epsilon (d->class_score, 1.0 / (1.0 + exp (-2.75)), 1e-6);
  g_assert_cmpfloat_with_epsilon (d->x, (2.0 / (1.0 + exp (-1.0)) + 1 - 0.5) * 8, 1e-4);
  g_assert_cmpfloat_with_epsilon (d->w, 4 * pow (1.0 / (1.0 + exp (-1.5)), 2) * 10, 1e-4);
}

static void
test_costs_of_the_buyi_ips (void)
{
  g_autoptr (Zg330Profile) buyi = zg330_profile_new_builtin_buyi ();
  g_autoptr (XirNetwork) imk = imagemake_net (2, 2, 2, 2, ",\"no_imkpad\":true", "{}");
  g_autoptr (XirNetwork) det = detpost_net ();
  HostOpCost cost;
  guint boxes = 2;
  g_autoptr (GError) error = NULL;

  /* ImageMake: IP 2000 + 4 pixels = 2004 cycles at 250 MHz; host 20 us + 12 bytes / 2 */
  g_assert_true (host_op_cost (op_by_id (imk, 295), buyi, NULL, &cost, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cost.ip_cycles, ==, 2004);
  g_assert_cmpuint (cost.elements, ==, 4);
  g_assert_cmpuint (cost.bytes, ==, 12);
  g_assert_cmpuint (cost.cpu_cycles, ==, 20006);
  g_assert_cmpfloat_with_epsilon (cost.hard_ms, 0.008016, 1e-12);
  g_assert_cmpfloat_with_epsilon (cost.other_ms, 0.020006, 1e-12);

  /* DetPost: 4 candidates, 2 boxes of 16 bytes: IP 2000 + 4 + 2 x 12 = 2028; host 20000 + 16 */
  g_assert_true (host_op_cost (op_by_id (det, 296), buyi, &boxes, &cost, &error));
  g_assert_cmpuint (cost.elements, ==, 4);
  g_assert_cmpuint (cost.boxes, ==, 2);
  g_assert_cmpuint (cost.ip_cycles, ==, 2028);
  g_assert_cmpuint (cost.cpu_cycles, ==, 20016);
  g_assert_cmpfloat_with_epsilon (cost.hard_ms, 0.008112, 1e-12);

  /* run_costed counts the boxes the run found */
  {
    guint8 head[32], out[32];
    const guint8 *ins[1] = { head };
    guint8 *outs[1] = { out };
    fill_head (head);
    g_assert_true (host_op_run_costed (op_by_id (det, 296), ins, outs, buyi, &cost, &error));
    g_assert_cmpuint (cost.boxes, ==, 2);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/buyi-ops/imagemake/normalises-in-file-order", test_imagemake_normalises_in_file_order);
  g_test_add_func ("/buyi-ops/imagemake/bgr-order-swaps-r-and-b", test_imagemake_bgr_order_swaps_r_and_b);
  g_test_add_func ("/buyi-ops/imagemake/pad-and-pre-nop", test_imagemake_pad_and_pre_nop);
  g_test_add_func ("/buyi-ops/imagemake/rejects-bad-attributes", test_imagemake_rejects_bad_attributes);
  g_test_add_func ("/buyi-ops/detpost/records-as-detpostzg", test_detpost_records_as_detpostzg);
  g_test_add_func ("/buyi-ops/detpost/decode-uses-norm-ratios", test_detpost_decode_uses_norm_ratios);
  g_test_add_func ("/buyi-ops/cost/imagemake-and-detpost", test_costs_of_the_buyi_ips);
  return g_test_run ();
}
