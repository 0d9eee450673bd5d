/* test-host.c — host ops: Input, Cast, Resize, customop::DetPostZG (the IP model). */
#include "zw-test-util.h"
#include <math.h>
#include <string.h>

#include <glib.h>
#include <cjson/cJSON.h>

#include "backends/host/host-ops.h"

/* ---- a small network in the vendor's JSON ---------------------------------------- */


static void
io (cJSON *op, const char *side, cJSON *v)
{
  cJSON_AddItemToArray (cJSON_GetObjectItem (op, side), cJSON_Duplicate (v, TRUE));
}

static void
detpost_attrs (cJSON *o, const int *thr, int n_thr)
{
  cJSON_AddNumberToObject (o, "anchor_num", 3);
  cJSON_AddNumberToObject (o, "chn_1st", 2);
  cJSON_AddNumberToObject (o, "chn_2nd", 0);
  cJSON_AddNumberToObject (o, "chn_3rd", 0);
  cJSON_AddNumberToObject (o, "cmp_chn", 1);
  cJSON_AddNumberToObject (o, "cmp_en", 1);
  cJSON_AddNumberToObject (o, "cmp_mask0", -17);
  cJSON_AddNumberToObject (o, "cmp_mask1", -1);
  cJSON_AddItemToObject (o, "data_thr", cJSON_CreateIntArray (thr, n_thr));
  cJSON_AddNumberToObject (o, "layer_en", 1);
  cJSON_AddNumberToObject (o, "reg_base", 0);
  cJSON_AddNumberToObject (o, "thr_f", (double) 0.1f);
  cJSON_AddNumberToObject (o, "valid_chn", 3);
}

/* Input -> Cast x3, Resize x2, DetPostZG x3 -> Output. */
static XirNetwork *
make_network (void)
{
  static const int s_img[] = { 1, 4, 6, 3 }, s_f[] = { 1, 2, 2, 3 }, s_head[] = { 1, 12, 2, 3, 32 },
                   s_small[] = { 1, 2, 3, 1 }, s_c3[] = { 1, 1, 4, 6, 3 }, s_big[] = { 1, 4, 6, 1 },
                   s_det[] = { 1, 2, 3, 384 }, s_tiny[] = { 1, 1, 2, 96 };
  static const int thr[] = { -15 };
  cJSON *root = cJSON_CreateObject ();
  cJSON *ops = cJSON_AddArrayToObject (root, "ops");
  cJSON *v1 = zw_test_value_json (1, "@uint(8)", NULL, "NHWC", s_img, 4, "@chunk(0@0)");
  cJSON *v2 = zw_test_value_json (2, "@fp(32)", NULL, "NHWC", s_f, 4, "@chunk(1@0)");
  cJSON *v3 = zw_test_value_json (3, "@sint(8)", "384*0.125", "NCHWc32", s_head, 5, "@chunk(2@0)");
  cJSON *v6 = zw_test_value_json (6, "@uint(8)", NULL, "NHWC", s_small, 4, "@chunk(3@0)");
  cJSON *v4 = zw_test_value_json (4, "@sint(8)", "3*0.5", "NCHWc3", s_c3, 5, "@chunk(4@0)");
  cJSON *v5 = zw_test_value_json (5, "@sint(8)", "0.125,0.25,0.5", "NHWC", s_f, 4, "@chunk(5@0)");
  cJSON *v7 = zw_test_value_json (7, "@fp(32)", NULL, "NHWC", s_f, 4, "@chunk(6@0)");
  cJSON *v8 = zw_test_value_json (8, "@uint(8)", NULL, "NHWC", s_big, 4, "@chunk(7@0)");
  cJSON *v10 = zw_test_value_json (10, "@uint(8)", NULL, "NHWC", s_big, 4, "@chunk(8@0)");
  cJSON *v9 = zw_test_value_json (9, "@sint(8)", "384*1", "NHWC", s_det, 4, "@hostm");
  cJSON *v11 = zw_test_value_json (11, "@sint(8)", "96*1", "NHWC", s_tiny, 4, "@hostm");
  cJSON *v12 = zw_test_value_json (12, "@sint(8)", "384*1", "NHWC", s_det, 4, "@hostm");
  cJSON *o, *net_vals[] = { v1, v2, v3, v6, v4, v5, v7, v8, v10, v9, v11, v12 };
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  XirNetwork *net;

  cJSON_AddStringToObject (root, "_type_key", "icraft::xir::Network");
  cJSON_AddStringToObject (root, "ai_target", "@zhuget(330)");
  cJSON_AddStringToObject (root, "framework_kind", "PYTORCH");
  cJSON_AddStringToObject (root, "framework_version", "1.9");
  cJSON_AddStringToObject (root, "icraft_version", "v3.33.1");
  cJSON_AddStringToObject (root, "icraft_xir_version", "3.33.1.0");
  cJSON_AddStringToObject (root, "name", "host_ops");
  cJSON_AddItemToObject (root, "tags", cJSON_CreateObject ());

  o = zw_test_op_json (ops, "icraft::xir::Input", "@hostt", 0);
  io (o, "outputs", v1); io (o, "outputs", v2); io (o, "outputs", v3); io (o, "outputs", v6);
  o = zw_test_op_json (ops, "icraft::xir::Cast", "@hostt", 1);
  io (o, "inputs", v1); io (o, "outputs", v4);
  o = zw_test_op_json (ops, "icraft::xir::Cast", "@hostt", 2);
  io (o, "inputs", v2); io (o, "outputs", v5);
  o = zw_test_op_json (ops, "icraft::xir::Cast", "@hostt", 3);
  io (o, "inputs", v5); io (o, "outputs", v7);
  o = zw_test_op_json (ops, "icraft::xir::Resize", "@hostt", 4);
  io (o, "inputs", v6); io (o, "outputs", v8);
  o = zw_test_op_json (ops, "icraft::xir::Resize", "@hostt", 5);
  cJSON_AddStringToObject (o, "interpolation", "BILINEAR");
  io (o, "inputs", v6); io (o, "outputs", v10);
  o = zw_test_op_json (ops, "customop::DetPostZG", "@fpgat", 6);
  detpost_attrs (o, thr, 1);
  io (o, "inputs", v3); io (o, "outputs", v9);
  o = zw_test_op_json (ops, "customop::DetPostZG", "@fpgat", 7);
  detpost_attrs (o, thr, 1);
  io (o, "inputs", v3); io (o, "outputs", v11);
  o = zw_test_op_json (ops, "customop::DetPostZG", "@fpgat", 8);
  detpost_attrs (o, thr, 0);
  io (o, "inputs", v3); io (o, "outputs", v12);
  o = zw_test_op_json (ops, "icraft::xir::Output", "@hostt", 9);
  io (o, "inputs", v4); io (o, "inputs", v7); io (o, "inputs", v8); io (o, "inputs", v10);
  io (o, "inputs", v9); io (o, "inputs", v11); io (o, "inputs", v12);

  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  for (guint i = 0; i < G_N_ELEMENTS (net_vals); i++)
    cJSON_Delete (net_vals[i]);
  net = xir_network_new_from_json_data (text, strlen (text), "host_ops.json", &error);
  g_assert_no_error (error);
  return net;
}

static const XirValue *
out0 (const XirOp *op)
{
  return g_ptr_array_index (op->outputs, 0);
}

/* ---- Input / dispatch ---------------------------------------------------------------- */

static void
test_input_checks_size (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *op = xir_network_get_op_by_id (net, 0);
  g_autoptr (GError) error = NULL;
  guint8 src[72], dst[72];

  for (guint i = 0; i < sizeof src; i++)
    src[i] = (guint8) (i * 3);
  g_assert_true (host_op_supported (op));
  g_assert_true (host_op_input_copy (op, 0, src, sizeof src, dst, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (src, sizeof src, dst, sizeof dst);
  g_assert_false (host_op_input_copy (op, 0, src, 71, dst, &error));
  g_assert_error (error, HOST_OP_ERROR, HOST_OP_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "op 0"));
  g_assert_nonnull (strstr (error->message, "v_id 1"));
  g_assert_nonnull (strstr (error->message, "71"));
}

static void
test_output_is_unsupported_for_unknown_ops (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *out = xir_network_get_op_by_id (net, 9);
  g_autoptr (GError) error = NULL;
  XirOp fake = *out;

  g_assert_true (host_op_supported (out));
  g_assert_true (host_op_run (out, NULL, NULL, &error));  /* nothing to copy */
  fake.kind = XIR_OP_HOST;
  fake.type_key = (char *) "icraft::xir::Softmax";
  g_assert_false (host_op_supported (&fake));
  g_assert_false (host_op_run (&fake, NULL, NULL, &error));
  g_assert_error (error, HOST_OP_ERROR, HOST_OP_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "op 9"));
}

/* ---- Cast ------------------------------------------------------------------------------ */

static void
test_cast_uint8_to_int8_blocked (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *op = xir_network_get_op_by_id (net, 1);
  g_autoptr (GError) error = NULL;
  guint8 in[72], out[72];
  const guint8 *ins[] = { in };
  guint8 *outs[] = { out };

  g_assert_cmpuint (out0 (op)->storage_bytes, ==, sizeof out);
  for (guint i = 0; i < sizeof in; i++)
    in[i] = (guint8) ((i * 37) % 256);
  g_assert_true (host_op_run (op, ins, outs, &error));
  g_assert_no_error (error);
  /* NHWC [1,4,6,3] -> NCHWc3 [1,1,4,6,3]: the same byte order; y = clamp(round(x / 0.5)). */
  for (guint i = 0; i < sizeof in; i++)
    g_assert_cmpint ((gint8) out[i], ==, MIN (2 * (gint) in[i], 127));
}

static void
test_cast_float_quantise_and_back (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *q = xir_network_get_op_by_id (net, 2);
  XirOp *dq = xir_network_get_op_by_id (net, 3);
  g_autoptr (GError) error = NULL;
  /* scales per channel 0.125, 0.25, 0.5 */
  const float x[12] = { 0.0625f, 0.375f, -0.25f,     /* 0.5 -> 1, 1.5 -> 2, -0.5 -> -1 (half away) */
                        -0.0625f, 0.3f, 0.74f,       /* -0.5 -> -1, 1.2 -> 1, 1.48 -> 1 */
                        100.f, -100.f, 63.75f,       /* clamp 127, clamp -128, 127.5 -> 127 (clamp) */
                        0.f, -32.f, -64.25f };       /* 0, -128, -128.5 -> -128 */
  const gint8 expect[12] = { 1, 2, -1, -1, 1, 1, 127, -128, 127, 0, -128, -128 };
  const float scales[3] = { 0.125f, 0.25f, 0.5f };
  guint8 qbuf[12];
  float back[12];
  const guint8 *ins[] = { (const guint8 *) x };
  guint8 *outs[] = { qbuf };

  g_assert_true (host_op_run (q, ins, outs, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpint ((gint8) qbuf[i], ==, expect[i]);

  ins[0] = qbuf;
  outs[0] = (guint8 *) back;
  g_assert_true (host_op_run (dq, ins, outs, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpfloat (back[i], ==, (float) expect[i] * scales[i % 3]);
}

/* ---- Resize --------------------------------------------------------------------------- */

static void
test_resize_nearest_and_bilinear (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *nearest = xir_network_get_op_by_id (net, 4);
  XirOp *bilinear = xir_network_get_op_by_id (net, 5);
  g_autoptr (GError) error = NULL;
  const guint8 in[6] = { 0, 100, 200, 10, 110, 210 };   /* [1,2,3,1] */
  const guint8 bilinear_row0[6] = { 0, 25, 75, 125, 175, 200 };
  guint8 out[24];
  const guint8 *ins[] = { in };
  guint8 *outs[] = { out };
  HostResizeMode mode;
  gboolean align;

  g_assert_true (host_resize_mode_from_op (nearest, &mode, &align, &error));
  g_assert_cmpint (mode, ==, HOST_RESIZE_NEAREST);
  g_assert_true (host_op_run (nearest, ins, outs, &error));
  g_assert_no_error (error);
  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 6; x++)
      g_assert_cmpuint (out[y * 6 + x], ==, in[(y / 2) * 3 + x / 2]);

  g_assert_true (host_resize_mode_from_op (bilinear, &mode, &align, &error));
  g_assert_cmpint (mode, ==, HOST_RESIZE_BILINEAR);
  g_assert_false (align);
  g_assert_true (host_op_run (bilinear, ins, outs, &error));
  g_assert_no_error (error);
  /* Half-pixel centres: rows 0 and 3 clamp to the input rows, 1 and 2 blend 3:1 / 1:3. */
  for (guint x = 0; x < 6; x++)
    {
      g_assert_cmpuint (out[0 * 6 + x], ==, bilinear_row0[x]);
      g_assert_cmpuint (out[3 * 6 + x], ==, bilinear_row0[x] + 10);
      g_assert_cmpuint (out[1 * 6 + x], ==, bilinear_row0[x] + 3);   /* + 2.5 rounds half away */
      g_assert_cmpuint (out[2 * 6 + x], ==, bilinear_row0[x] + 8);   /* + 7.5 */
    }
}

/* ---- DetPostZG ------------------------------------------------------------------------- */

/* Head [1,12,2,3,32] NCHWc32: byte of (c, y, x). */
static gsize
head_at (guint c, guint y, guint x)
{
  return (((gsize) (c / 32) * 2 + y) * 3 + x) * 32 + c % 32;
}

static void
fill_head (guint8 *head)
{
  memset (head, (guint8) (gint8) -100, 12 * 2 * 3 * 32);
  /* Distinct box channels for every anchor and cell; objectness (ch 4) stays low. */
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 3; x++)
      for (guint a = 0; a < 3; a++)
        for (guint ch = 0; ch < 88; ch++)
          if (ch != 4)
            head[head_at (a * 128 + ch, y, x)] = (guint8) (gint8) ((ch * 7 + a * 13 + y * 5 + x) % 90 - 45);
  /* Passing: (y0, x1, a0) exactly at the threshold, (y1, x2, a2) above it. */
  head[head_at (0 * 128 + 4, 0, 1)] = (guint8) (gint8) -15;
  head[head_at (2 * 128 + 4, 1, 2)] = 20;
  head[head_at (2 * 128 + 5 + 7, 1, 2)] = 100;   /* its best class: 7 */
  /* Failing: one below the threshold, and a high value in a masked channel. */
  head[head_at (1 * 128 + 4, 1, 0)] = (guint8) (gint8) -16;
  head[head_at (0 * 128 + 5, 0, 0)] = 100;
  head[head_at (0 * 128 + 3, 0, 0)] = 100;
}

static void
test_detpost_filters_and_packs (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *op = xir_network_get_op_by_id (net, 6);
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *head = g_malloc (12 * 2 * 3 * 32);
  g_autofree guint8 *out = g_malloc (2304);
  const guint8 *ins[1];
  guint8 *outs[1];
  guint n_boxes = 99;
  HostDetPostConfig cfg;
  const guint cells[2][3] = { { 1, 0, 0 }, { 2, 1, 2 } };   /* x, y, anchor in raster order */

  fill_head (head);
  ins[0] = head;
  outs[0] = out;
  memset (out, 0x5a, 2304);

  g_assert_true (host_detpost_zg_config_init (&cfg, op, &error));
  g_assert_cmpuint (cfg.record_channels, ==, 88);
  g_assert_cmpuint (cfg.record_bytes, ==, 96);
  g_assert_cmpuint (cfg.n_groups, ==, 1);
  g_assert_cmphex (cfg.cmp_mask, ==, G_GUINT64_CONSTANT (0xFFFFFFFFFFFFFFEF));
  host_detpost_zg_config_clear (&cfg);

  g_assert_true (host_detpost_zg_run (op, ins, outs, &n_boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_boxes, ==, 2);
  for (guint b = 0; b < 2; b++)
    {
      const guint8 *rec = out + b * 96;
      guint x = cells[b][0], y = cells[b][1], a = cells[b][2];

      for (guint r = 0; r < 88; r++)
        g_assert_cmpint ((gint8) rec[r], ==, (gint8) head[head_at (a * 128 + r, y, x)]);
      g_assert_cmpuint (rec[88], ==, 0);
      g_assert_cmpuint (rec[89], ==, 0);
      g_assert_cmpuint (rec[90] | (rec[91] << 8), ==, x);
      g_assert_cmpuint (rec[92] | (rec[93] << 8), ==, y);
      g_assert_cmpuint (rec[94] | (rec[95] << 8), ==, a);
    }
  for (guint i = 2 * 96; i < 2304; i++)
    g_assert_cmpuint (out[i], ==, 0);

  /* host_op_run gives the same bytes. */
  {
    g_autofree guint8 *again = g_malloc (2304);
    outs[0] = again;
    g_assert_true (host_op_run (op, ins, outs, &error));
    g_assert_cmpmem (again, 2304, out, 2304);
  }
}

static void
test_detpost_decodes_boxes (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  XirOp *op = xir_network_get_op_by_id (net, 6);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) dets = g_array_new (FALSE, FALSE, sizeof (HostDetection));
  g_autofree guint8 *head = g_malloc (12 * 2 * 3 * 32);
  g_autofree guint8 *out = g_malloc (2304);
  const guint8 *ins[1];
  guint8 *outs[1];
  const guint8 *couts[1];
  guint n_boxes;
  HostDetPostDecodeParams params = { .input_h = 16 };
  const HostDetection *d;
  double s = 0.125, sig[4], obj, cls;

  fill_head (head);
  ins[0] = head;
  outs[0] = out;
  couts[0] = out;
  g_assert_true (host_detpost_zg_run (op, ins, outs, &n_boxes, &error));
  g_assert_true (host_detpost_zg_decode (op, couts, &n_boxes, &params, dets, &error));
  g_assert_no_error (error);

  /* Box 1 (obj -15 * 0.125 -> 0.133 times its best class) falls below thr_f 0.1 only if
   * its class score is low; compute both from the head like a host would. */
  {
    guint kept = 0;
    for (guint b = 0; b < 2; b++)
      {
        guint x = b ? 2 : 1, y = b ? 1 : 0, a = b ? 2 : 0;
        double o = 1 / (1 + exp (-(gint8) head[head_at (a * 128 + 4, y, x)] * s));
        double best = -1e9;
        for (guint c = 0; c < 80; c++)
          best = MAX (best, (gint8) head[head_at (a * 128 + 5 + c, y, x)] * s);
        if (o / (1 + exp (-best)) > 0.1f)
          kept++;
      }
    g_assert_cmpuint (dets->len, ==, kept);
  }
  d = &g_array_index (dets, HostDetection, dets->len - 1);
  g_assert_cmpuint (d->cell_x, ==, 2);
  g_assert_cmpuint (d->cell_y, ==, 1);
  g_assert_cmpuint (d->anchor, ==, 2);
  g_assert_cmpuint (d->cls, ==, 7);
  for (guint k = 0; k < 4; k++)
    sig[k] = 1 / (1 + exp (-(gint8) head[head_at (2 * 128 + k, 1, 2)] * s));
  obj = 1 / (1 + exp (-20 * s));
  cls = 1 / (1 + exp (-100 * s));
  /* stride = 16 / 2 = 8; YOLOv5 P3 anchor 2 = (33, 23). */
  g_assert_cmpfloat_with_epsilon (d->x, (2 * sig[0] + 2 - 0.5) * 8, 1e-4);
  g_assert_cmpfloat_with_epsilon (d->y, (2 * sig[1] + 1 - 0.5) * 8, 1e-4);
  g_assert_cmpfloat_with_epsilon (d->w, 4 * sig[2] * sig[2] * 33, 1e-3);
  g_assert_cmpfloat_with_epsilon (d->h, 4 * sig[3] * sig[3] * 23, 1e-3);
  g_assert_cmpfloat_with_epsilon (d->score, obj * cls, 1e-5);
}

static void
test_detpost_capacity_and_attr_errors (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *head = g_malloc (12 * 2 * 3 * 32);
  guint8 small[192], big[2304];
  const guint8 *ins[1];
  guint8 *outs[1];
  guint n;

  memset (head, 0, 12 * 2 * 3 * 32);   /* every objectness 0 >= -15: 18 boxes */
  ins[0] = head;
  outs[0] = big;
  g_assert_true (host_detpost_zg_run (xir_network_get_op_by_id (net, 6), ins, outs, &n, &error));
  g_assert_cmpuint (n, ==, 18);

  outs[0] = small;
  g_assert_false (host_detpost_zg_run (xir_network_get_op_by_id (net, 7), ins, outs, &n, &error));
  g_assert_error (error, HOST_OP_ERROR, HOST_OP_ERROR_CAPACITY);
  g_assert_nonnull (strstr (error->message, "op 7"));
  g_assert_nonnull (strstr (error->message, "v_id 11"));
  g_clear_error (&error);

  outs[0] = big;
  g_assert_false (host_op_run (xir_network_get_op_by_id (net, 8), ins, outs, &error));
  g_assert_error (error, HOST_OP_ERROR, HOST_OP_ERROR_ATTR);
  g_assert_nonnull (strstr (error->message, "op 8"));
  g_assert_nonnull (strstr (error->message, "data_thr"));
}

/* The real yolov5s DetPostZG: three heads, thresholds -15/-18/-19, 96-byte records. */
static void
test_detpost_real_op (void)
{
  const char *shared = g_getenv ("ZW_SHARED_DIR");
  g_autofree char *path = g_build_filename (shared ? shared : ZW_SHARED_DIR, "real", "yolov5s_plin_352x640_ZG.json",
                                            NULL);
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (GError) error = NULL;
  XirOp *op = NULL;
  guint8 *heads[3], *outs[3];
  guint n[3];
  /* (head, y, x, anchor, objectness): two pass in head 0, one (at -18) in head 1, none in head 2. */
  const gint hits[][5] = { { 0, 3, 7, 1, -15 }, { 0, 40, 79, 2, 90 }, { 1, 21, 0, 0, -18 }, { 2, 5, 5, 0, -20 } };

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real network is not available");
      return;
    }
  net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < xir_network_get_n_ops (net) && !op; i++)
    if (g_str_equal (xir_network_get_op (net, i)->type_key, "customop::DetPostZG"))
      op = xir_network_get_op (net, i);
  g_assert_nonnull (op);
  g_assert_true (host_op_supported (op));
  for (guint g = 0; g < 3; g++)
    {
      const XirValue *v = g_ptr_array_index (op->inputs, g);
      heads[g] = g_malloc (v->storage_bytes);
      memset (heads[g], 0x80, v->storage_bytes);   /* -128 everywhere */
      outs[g] = g_malloc (((XirValue *) g_ptr_array_index (op->outputs, g))->storage_bytes);
    }
  for (guint i = 0; i < G_N_ELEMENTS (hits); i++)
    {
      const XirValue *v = g_ptr_array_index (op->inputs, hits[i][0]);
      gsize h = (gsize) v->shape[2], w = (gsize) v->shape[3];
      guint c = (guint) hits[i][3] * 128 + 4;
      heads[hits[i][0]][(((gsize) (c / 32) * h + (gsize) hits[i][1]) * w + (gsize) hits[i][2]) * 32 + c % 32] =
        (guint8) (gint8) hits[i][4];
    }
  g_assert_true (host_detpost_zg_run (op, (const guint8 *const *) heads, outs, n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n[0], ==, 2);
  g_assert_cmpuint (n[1], ==, 1);
  g_assert_cmpuint (n[2], ==, 0);
  /* Raster order: (3, 7) before (40, 79); trailer x, y, anchor. */
  g_assert_cmpint ((gint8) outs[0][4], ==, -15);
  g_assert_cmpuint (outs[0][90], ==, 7);
  g_assert_cmpuint (outs[0][92], ==, 3);
  g_assert_cmpuint (outs[0][94], ==, 1);
  g_assert_cmpint ((gint8) outs[0][96 + 4], ==, 90);
  g_assert_cmpuint (outs[0][96 + 90], ==, 79);
  g_assert_cmpuint (outs[0][96 + 92], ==, 40);
  g_assert_cmpuint (outs[0][96 + 94], ==, 2);
  g_assert_cmpint ((gint8) outs[1][4], ==, -18);
  for (guint g = 0; g < 3; g++)
    {
      g_free (heads[g]);
      g_free (outs[g]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/host/input/checks-byte-size", test_input_checks_size);
  g_test_add_func ("/host/dispatch/output-and-unsupported", test_output_is_unsupported_for_unknown_ops);
  g_test_add_func ("/host/cast/uint8-to-int8-blocked", test_cast_uint8_to_int8_blocked);
  g_test_add_func ("/host/cast/float-quantise-and-dequantise", test_cast_float_quantise_and_back);
  g_test_add_func ("/host/resize/nearest-and-bilinear", test_resize_nearest_and_bilinear);
  g_test_add_func ("/host/detpost/filters-by-objectness-and-packs-records", test_detpost_filters_and_packs);
  g_test_add_func ("/host/detpost/decodes-yolov5-boxes", test_detpost_decodes_boxes);
  g_test_add_func ("/host/detpost/capacity-and-attribute-errors", test_detpost_capacity_and_attr_errors);
  g_test_add_func ("/host/detpost/real-yolov5s-op", test_detpost_real_op);
  return g_test_run ();
}
