/* test-compare-compiles.c — two compiles of one model side by side (report/zw-compare.h):
 * the logical shape of a value, the op-by-op alignment (LCS on class and logical N,C,H,W),
 * merged launches' time, the totals and their ratios, on hand-built reports; then the real
 * ZG330 and Buyi compiles of yolov5s (skipped when ../shared is absent).  The /cli/ paths run
 * `xrt-run report compare-compiles` as a user does (suite cli: the binary runs twice, its
 * core paths and its cli paths, see tests/meson.build). */
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "xrt/xrt-session.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* ---- hand-built reports ---- */

static void
add_op (ZwDeployReport *r, gint64 op_id, const char *kind, const char *op_class, const char *backend, gint launch)
{
  ZwOpInfo o = { 0 };

  o.op_id = op_id;
  o.index = r->ops->len;
  o.kind = g_strdup (kind);
  o.op_class = g_strdup (op_class);
  o.backend = g_strdup (backend);
  o.launch = launch;
  g_array_append_val (r->ops, o);
}

static void
add_value (ZwDeployReport *r, gint64 v_id, gint64 producer, const char *layout, const gint64 *shape, guint rank,
           gboolean is_ocm, guint64 bytes)
{
  ZwValueInfo v;

  zw_value_info_init (&v);
  v.v_id = v_id;
  v.producer = producer;
  v.segment = ZW_SEGMENT_FTMP;
  v.is_ocm = is_ocm;
  v.byte_size = bytes;
  v.layout = g_strdup (layout);
  v.dtype = g_strdup ("@sint(8) q");
  g_array_append_vals (v.shape, shape, rank);
  g_array_append_val (r->values, v);
}

static void
add_launch (ZwDeployReport *r, gint64 op_id, const gint64 *members, guint n)
{
  ZwLaunch l;

  zw_launch_init (&l);
  l.op_id = op_id;
  g_array_append_vals (l.merge_from, members, n);
  g_array_append_val (r->launches, l);
}

static void
add_chunk (ZwDeployReport *r, gint64 id, guint64 size, gint first, gint last, gboolean in_ocm)
{
  ZwChunkInfo c;

  zw_chunk_info_init (&c);
  c.id = id;
  c.size = size;
  c.first = first;
  c.last = last;
  c.in_ocm = in_ocm;
  c.ocm_addr = in_ocm ? 0 : G_MAXUINT64;
  g_array_append_val (r->chunks, c);
}

static void
set_segments (ZwDeployReport *r, guint64 weight, guint64 instr, guint64 ftmp, guint64 input, guint64 output)
{
  const guint64 sizes[ZW_N_SEGMENTS] = { weight, instr, ftmp, input, output };

  for (guint s = 0; s < ZW_N_SEGMENTS; s++)
    {
      r->segments[s].type = (ZwSegmentType) s;
      r->segments[s].byte_size = sizes[s];
    }
}

/* Compile A ("net", ZG330): Input, Reshape, Cast, Conv2d -> 1x32x8x8, Conv2d -> 1x64x4x4,
 * Add -> 1x64x4x4, Output; the five hardops merged into launch 100. */
static ZwDeployReport *
report_a (void)
{
  ZwDeployReport *r = zw_deploy_report_new ();
  static const gint64 s_reshape[] = { 1, 1, 8, 8, 3 }, s_conv1[] = { 1, 1, 8, 8, 32 }, s_conv2[] = { 1, 2, 4, 4, 32 };
  static const gint64 members[] = { 11, 12, 13, 14, 15 };

  r->network_name = g_strdup ("net");
  r->device_url = g_strdup ("mock://zg330");
  r->merge_hardop = TRUE;
  set_segments (r, 1000, 200, 4096, 192, 2048);
  add_op (r, 0, "Input", "Input", "Host", -1);
  add_op (r, 11, "HardOp", "Reshape", "ZG330", 0);
  add_op (r, 12, "HardOp", "Cast", "ZG330", 0);
  add_op (r, 13, "HardOp", "Conv2d", "ZG330", 0);
  add_op (r, 14, "HardOp", "Conv2d", "ZG330", 0);
  add_op (r, 15, "HardOp", "Add", "ZG330", 0);
  add_op (r, 1, "Output", "Output", "Host", -1);
  add_value (r, 111, 11, "*C**c3", s_reshape, 5, FALSE, 192);
  add_value (r, 112, 12, "*C**c3", s_reshape, 5, TRUE, 192);
  add_value (r, 113, 13, "NCHWc32", s_conv1, 5, TRUE, 2048);
  add_value (r, 114, 14, "NCHWc32", s_conv2, 5, TRUE, 2048);
  add_value (r, 115, 15, "NCHWc32", s_conv2, 5, FALSE, 2048);
  add_launch (r, 100, members, G_N_ELEMENTS (members));
  /* OCM: 192 + 2048 live together at op 3, then 2048 alone */
  add_chunk (r, 1, 192, 2, 3, TRUE);
  add_chunk (r, 2, 2048, 3, 4, TRUE);
  add_chunk (r, 3, 2048, 4, 5, TRUE);
  add_chunk (r, 4, 2048, 5, 6, FALSE);
  return r;
}

/* Compile B ("net", Buyi): Input, ImageMake, Conv2d -> 1x32x8x8, Conv2d -> 1x64x4x4 held as
 * NCHWc16, MaxPool2d -> 1x64x2x2 (only here), Add -> 1x64x4x4, Output; one launch per hardop. */
static ZwDeployReport *
report_b (void)
{
  ZwDeployReport *r = zw_deploy_report_new ();
  static const gint64 s_conv1[] = { 1, 1, 8, 8, 32 }, s_conv2[] = { 1, 4, 4, 4, 16 }, s_pool[] = { 1, 2, 2, 2, 32 },
                      s_add[] = { 1, 2, 4, 4, 32 };
  const gint64 ids[] = { 21, 22, 23, 24 };

  r->network_name = g_strdup ("net");
  r->device_url = g_strdup ("mock://buyi");
  set_segments (r, 900, 100, 8192, 256, 2048);
  add_op (r, 0, "Input", "Input", "Host", -1);
  add_op (r, 5, "customop::ImageMake", "customop::ImageMake", "Host", -1);
  add_op (r, 21, "HardOp", "Conv2d", "Buyi", 0);
  add_op (r, 22, "HardOp", "Conv2d", "Buyi", 1);
  add_op (r, 23, "HardOp", "MaxPool2d", "Buyi", 2);
  add_op (r, 24, "HardOp", "Add", "Buyi", 3);
  add_op (r, 1, "Output", "Output", "Host", -1);
  add_value (r, 121, 21, "NCHWc32", s_conv1, 5, TRUE, 2048);
  add_value (r, 122, 22, "NCHWc16", s_conv2, 5, FALSE, 1024);
  add_value (r, 123, 23, "NCHWc32", s_pool, 5, FALSE, 512);
  add_value (r, 124, 24, "NCHWc32", s_add, 5, TRUE, 2048);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    add_launch (r, ids[i], &ids[i], 1);
  add_chunk (r, 1, 2048, 2, 3, TRUE);
  add_chunk (r, 2, 1024, 3, 5, FALSE);
  add_chunk (r, 3, 2048, 5, 6, TRUE);
  return r;
}

static ZwProfile *
profile_a (void)
{
  ZwProfile *p = zw_profile_new ("net");
  ZwProfileRow *row;
  static const gint64 members[] = { 11, 12, 13, 14, 15 };

  zw_profile_add_row (p, 0, "icraft::xir::InputNode", "", 0.5, 0, 0, 0.5);
  row = zw_profile_add_row (p, 100, "icraft::xir::HardOpNode", "", 2.0, 0.25, 1.5, 0.25);
  g_array_append_vals (row->merge_from, members, G_N_ELEMENTS (members));
  zw_profile_add_row (p, 1, "icraft::xir::OutputNode", "", 0.5, 0.25, 0, 0.25);
  zw_profile_compute_totals (p);
  return p;
}

static ZwProfile *
profile_b (void)
{
  ZwProfile *p = zw_profile_new ("net");

  zw_profile_add_row (p, 0, "icraft::xir::InputNode", "", 0.5, 0, 0, 0.5);
  zw_profile_add_row (p, 5, "customop::ImageMakeNode", "", 1.0, 0, 1.0, 0);
  zw_profile_add_row (p, 21, "icraft::xir::HardOpNode", "", 1.25, 0, 1.0, 0.25);
  zw_profile_add_row (p, 22, "icraft::xir::HardOpNode", "", 0.75, 0, 0.5, 0.25);
  zw_profile_add_row (p, 23, "icraft::xir::HardOpNode", "", 0.5, 0, 0.25, 0.25);
  zw_profile_add_row (p, 24, "icraft::xir::HardOpNode", "", 0.5, 0, 0.25, 0.25);
  zw_profile_add_row (p, 1, "icraft::xir::OutputNode", "", 0.5, 0.5, 0, 0);
  zw_profile_compute_totals (p);
  return p;
}

static void
test_logical_nchw (void)
{
  gint64 out[4];
  static const gint64 blocked[] = { 1, 2, 88, 160, 32 }, nhwc[] = { 1, 352, 640, 3 }, odd[] = { 1, 1, 352, 640, 3 };

  g_assert_true (zw_compile_logical_nchw (blocked, 5, "NCHWc32", out));
  g_assert_cmpint (out[0], ==, 1);
  g_assert_cmpint (out[1], ==, 64);   /* C in two dims: 2 blocks of 32 */
  g_assert_cmpint (out[2], ==, 88);
  g_assert_cmpint (out[3], ==, 160);
  g_assert_true (zw_compile_logical_nchw (nhwc, 4, "@layout(NHWC)", out));
  g_assert_cmpint (out[1], ==, 3);
  g_assert_cmpint (out[2], ==, 352);
  g_assert_cmpint (out[3], ==, 640);
  /* axes the layout does not name are 1 */
  g_assert_true (zw_compile_logical_nchw (odd, 5, "*C**c3", out));
  g_assert_cmpint (out[0], ==, 1);
  g_assert_cmpint (out[1], ==, 3);
  g_assert_cmpint (out[2], ==, 1);
  /* a layout of another rank gives no logical shape */
  g_assert_false (zw_compile_logical_nchw (nhwc, 4, "NCHWc32", out));
  g_assert_cmpint (out[0], ==, -1);
  g_assert_false (zw_compile_logical_nchw (nhwc, 4, NULL, out));
}

static void
test_align_hand_built (void)
{
  g_autoptr (ZwDeployReport) a = report_a (), b = report_b ();
  g_autoptr (ZwProfile) pa = profile_a (), pb = profile_b ();
  g_autoptr (ZwCompileCompare) c = zw_compare_compiles (a, pa, b, pb);
  static const struct {
    ZwCompareSide side;
    const char *op_class;
    gint64 a_id, b_id;
  } expect[] = {
    { ZW_COMPARE_ONLY_A, "Reshape", 11, -1 },
    { ZW_COMPARE_ONLY_A, "Cast", 12, -1 },
    { ZW_COMPARE_BOTH, "Conv2d", 13, 21 },
    { ZW_COMPARE_BOTH, "Conv2d", 14, 22 },   /* 1x64x4x4 as NCHWc32 and as NCHWc16 */
    { ZW_COMPARE_ONLY_B, "MaxPool2d", -1, 23 },
    { ZW_COMPARE_BOTH, "Add", 15, 24 },
  };

  g_assert_nonnull (c);
  g_assert_cmpstr (c->a.chip, ==, "ZG330");
  g_assert_cmpstr (c->b.chip, ==, "Buyi");
  {
    g_autofree char *label = zw_compile_info_label (&c->b);
    g_assert_cmpstr (label, ==, "net (Buyi)");
  }
  g_assert_cmpuint (c->n_hardops_a, ==, 5);
  g_assert_cmpuint (c->n_hardops_b, ==, 4);
  g_assert_cmpuint (c->n_aligned, ==, 3);
  g_assert_cmpuint (c->n_only_a, ==, 2);
  g_assert_cmpuint (c->n_only_b, ==, 1);
  g_assert_cmpuint (c->rows->len, ==, G_N_ELEMENTS (expect));
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const ZwCompileOpRow *r = g_ptr_array_index (c->rows, i);
      g_assert_cmpint (r->side, ==, expect[i].side);
      g_assert_cmpstr (r->op_class, ==, expect[i].op_class);
      g_assert_cmpint (r->a.present, ==, expect[i].a_id >= 0);
      g_assert_cmpint (r->b.present, ==, expect[i].b_id >= 0);
      if (r->a.present)
        g_assert_cmpint (r->a.op_id, ==, expect[i].a_id);
      if (r->b.present)
        g_assert_cmpint (r->b.op_id, ==, expect[i].b_id);
      if (r->side == ZW_COMPARE_BOTH)
        g_assert_cmpmem (r->a.nchw, sizeof r->a.nchw, r->b.nchw, sizeof r->b.nchw);
    }

  /* A's launch merges all five: its time (2 ms) is on its first op only, flagged merged */
  {
    const ZwCompileOpRow *first = g_ptr_array_index (c->rows, 0), *other = g_ptr_array_index (c->rows, 2);
    g_assert_true (first->a.merged && first->a.launch_first);
    g_assert_cmpint (first->a.launch_op_id, ==, 100);
    g_assert_cmpfloat (first->a.ms, ==, 2.0);
    g_assert_cmpfloat (first->a.hard_ms, ==, 1.5);
    g_assert_true (other->a.merged && !other->a.launch_first);
    g_assert_true (isnan (other->a.ms));
    /* B's ops are their own launches: their own rows' times */
    g_assert_false (other->b.merged);
    g_assert_cmpfloat (other->b.ms, ==, 1.25);
    g_assert_cmpfloat (other->b.hard_ms, ==, 1.0);
  }
  /* placement of the outputs */
  {
    const ZwCompileOpRow *conv2 = g_ptr_array_index (c->rows, 3), *add = g_ptr_array_index (c->rows, 5);
    g_assert_cmpint (conv2->a.place, ==, ZW_COMPILE_PLACE_OCM);
    g_assert_cmpint (conv2->b.place, ==, ZW_COMPILE_PLACE_ETM);
    g_assert_cmpstr (conv2->b.layout, ==, "NCHWc16");
    g_assert_cmpint (add->a.place, ==, ZW_COMPILE_PLACE_ETM);
    g_assert_cmpint (add->b.place, ==, ZW_COMPILE_PLACE_OCM);
    g_assert_cmpuint (add->b.out_bytes, ==, 2048);
  }
}

static void
test_totals_hand_built (void)
{
  g_autoptr (ZwDeployReport) a = report_a (), b = report_b ();
  g_autoptr (ZwProfile) pa = profile_a (), pb = profile_b ();
  g_autoptr (ZwCompileCompare) c = zw_compare_compiles (a, pa, b, pb);
  g_autoptr (ZwCompileCompare) no_b = zw_compare_compiles (a, pa, b, NULL);
  const ZwCompileTotal *t = c->totals;

  for (guint k = 0; k < ZW_COMPILE_N_TOTALS; k++)
    g_assert_cmpint (t[k].kind, ==, k);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_WEIGHT].a, ==, 1000);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_WEIGHT].b, ==, 900);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_ETM_WEIGHT].ratio, 0.9, 1e-12);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_INSTR].a, ==, 200);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_FTMP].b, ==, 8192);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_FTMP].ratio, ==, 2.0);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_INPUT].a, ==, 192);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_OUTPUT].b, ==, 2048);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_ALL].a, ==, 1000 + 200 + 4096 + 192 + 2048);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_ETM_ALL].b, ==, 900 + 100 + 8192 + 256 + 2048);
  /* OCM: chunk sizes summed, and the peak of the live ones */
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_OCM_BYTES].a, ==, 192 + 2048 + 2048);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_OCM_PEAK].a, ==, 2048 + 2048);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_OCM_BYTES].b, ==, 4096);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_OCM_PEAK].b, ==, 2048);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_HARDOPS].a, ==, 5);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_HARDOPS].b, ==, 4);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_LAUNCHES].a, ==, 1);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_LAUNCHES].b, ==, 4);
  g_assert_cmpfloat (t[ZW_COMPILE_TOTAL_LAUNCHES].ratio, ==, 4.0);
  /* time from the profiles' totals */
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_TIME].a, 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_TIME].b, 5.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_TIME].ratio, 5.0 / 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_HARD_TIME].a, 1.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_HARD_TIME].b, 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_MEMCPY_TIME].a, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (t[ZW_COMPILE_TOTAL_OTHER_TIME].b, 1.5, 1e-9);
  g_assert_cmpstr (t[ZW_COMPILE_TOTAL_ETM_FTMP].key, ==, "etm.ftmp");

  /* without B's profile its times are unknown, not zero; the deploy figures stay */
  g_assert_false (no_b->b.has_profile);
  g_assert_true (isnan (no_b->totals[ZW_COMPILE_TOTAL_TIME].b));
  g_assert_true (isnan (no_b->totals[ZW_COMPILE_TOTAL_TIME].ratio));
  g_assert_cmpfloat (no_b->totals[ZW_COMPILE_TOTAL_ETM_FTMP].ratio, ==, 2.0);
  g_assert_true (isnan (((ZwCompileOpRow *) g_ptr_array_index (no_b->rows, 2))->b.ms));

  /* the JSON says the same: unknown is null */
  {
    cJSON *root = zw_compile_compare_to_json (no_b);
    const cJSON *totals = cJSON_GetObjectItem (root, "totals");
    const cJSON *ftmp = cJSON_GetArrayItem (totals, ZW_COMPILE_TOTAL_ETM_FTMP);
    const cJSON *time = cJSON_GetArrayItem (totals, ZW_COMPILE_TOTAL_TIME);
    const cJSON *ops = cJSON_GetObjectItem (root, "ops");
    g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (root, "format")), ==, "zhuge-compile-compare");
    g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (ftmp, "b")), ==, 8192);
    g_assert_true (cJSON_IsNull (cJSON_GetObjectItem (time, "b")));
    g_assert_cmpint (cJSON_GetArraySize (ops), ==, 6);
    g_assert_null (cJSON_GetObjectItem (cJSON_GetArrayItem (ops, 0), "b"));
    g_assert_cmpint (cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_aligned")), ==, 3);
    cJSON_Delete (root);
  }
}

/* ---- the real pair ---- */

typedef struct {
  XirNetwork *net;
  ZwDeployReport *report;
  ZwProfile *profile;       /* NULL when the forward failed */
  char *forward_error;
} Deployed;

static void
deployed_clear (Deployed *d)
{
  g_clear_pointer (&d->net, xir_network_unref);
  g_clear_pointer (&d->report, zw_deploy_report_unref);
  g_clear_pointer (&d->profile, zw_profile_free);
  g_clear_pointer (&d->forward_error, g_free);
}

/* Deploys @path on the board it was compiled for with that chip's defaults (synthetic
 * params), then runs one forward with a time profile. */
static Deployed
deploy (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autoptr (GPtrArray) outs = NULL;
  Deployed d = { 0 };

  d.net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  xir_network_fake_params (d.net, 330);
  view = xir_network_view (d.net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  dev = xrt_device_open (xrt_backend_default_device_for_view (view), &error);
  g_assert_no_error (error);
  s = xrt_session_new_for_device (view, dev, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_session_apply (s, &error));
  d.report = xrt_backend_get_report (xrt_session_get_board_backend (s));
  g_assert_nonnull (d.report);
  inputs = zw_test_seeded_inputs (d.net, 7);
  xrt_session_enable_time_profile (s, TRUE);
  outs = xrt_session_forward (s, inputs, &error);
  if (outs != NULL && xrt_session_get_time_profile (s) != NULL)
    d.profile = zw_profile_copy (xrt_session_get_time_profile (s));
  else
    d.forward_error = g_strdup (error != NULL ? error->message : "no time profile");
  return d;
}

static void
test_real_pair (void)
{
  g_autofree char *zg_path = zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
  g_autofree char *by_path = zg_path != NULL ? zw_test_shared_file ("real/yolov5s_plin_BY.json") : NULL;
  Deployed zg, by;
  const ZwDeployReport *reports[2];
  const cJSON *tag;
  guint n_both = 0, n_merged_first = 0;

  if (by_path == NULL)
    return;
  zg = deploy (zg_path);
  by = deploy (by_path);
  reports[0] = zg.report;
  reports[1] = by.report;
  {
    g_autoptr (ZwCompileCompare) c = zw_compare_compiles (zg.report, zg.profile, by.report, by.profile);

    g_assert_cmpstr (c->a.chip, ==, "ZG330");
    g_assert_cmpstr (c->b.chip, ==, "Buyi");
    g_assert_cmpstr (c->a.device_url, ==, "mock://zg330");
    g_assert_cmpstr (c->b.device_url, ==, "mock://buyi");
    /* the per-segment bytes are the reports' own */
    for (guint s = 0; s < ZW_N_SEGMENTS; s++)
      {
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_ETM_WEIGHT + s].a, ==, (double) reports[0]->segments[s].byte_size);
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_ETM_WEIGHT + s].b, ==, (double) reports[1]->segments[s].byte_size);
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_ETM_WEIGHT + s].a, >, 0);
      }
    g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_HARDOPS].a, ==, 88);
    g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_HARDOPS].b, ==, 85);
    g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_LAUNCHES].a, ==, zg.report->launches->len);
    g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_LAUNCHES].b, ==, by.report->launches->len);
    /* Buyi's FTMP is the compiler's: the file's tag ftmp_segment_bytesize */
    tag = cJSON_GetObjectItem (xir_network_get_tags (by.net), "ftmp_segment_bytesize");
    g_assert_true (cJSON_IsNumber (tag));
    g_assert_cmpfloat (cJSON_GetNumberValue (tag), ==, 10137600);
    g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_ETM_FTMP].b, ==, 10137600);
    /* the ZG330 runtime plans FTMP itself, at most the Buyi compiler's */
    g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_ETM_FTMP].a, <, c->totals[ZW_COMPILE_TOTAL_ETM_FTMP].b);

    /* the hardops align op by op; the ZG330 compile's input Reshape and Cast have no Buyi
     * hardop (Buyi does them in ImageMake) */
    g_assert_cmpuint (c->n_aligned, >=, 80);
    g_assert_cmpuint (c->n_aligned + c->n_only_a, ==, 88);
    g_assert_cmpuint (c->n_aligned + c->n_only_b, ==, 85);
    {
      const ZwCompileOpRow *r0 = g_ptr_array_index (c->rows, 0), *r1 = g_ptr_array_index (c->rows, 1);
      g_assert_cmpint (r0->side, ==, ZW_COMPARE_ONLY_A);
      g_assert_cmpstr (r0->op_class, ==, "Reshape");
      g_assert_cmpint (r1->side, ==, ZW_COMPARE_ONLY_A);
      g_assert_cmpstr (r1->op_class, ==, "Cast");
    }
    for (guint i = 0; i < c->rows->len; i++)
      {
        const ZwCompileOpRow *r = g_ptr_array_index (c->rows, i);
        if (r->side != ZW_COMPARE_BOTH)
          continue;
        n_both++;
        g_assert_cmpstr (r->op_class, !=, "");
        g_assert_cmpint (r->a.nchw[1], ==, r->b.nchw[1]);
        g_assert_cmpint (r->a.place, !=, ZW_COMPILE_PLACE_NONE);
        g_assert_cmpint (r->b.place, !=, ZW_COMPILE_PLACE_NONE);
      }
    g_assert_cmpuint (n_both, ==, c->n_aligned);

    if (zg.profile == NULL || by.profile == NULL)
      {
        g_autofree char *msg = g_strdup_printf ("a forward failed (%s): the time parts are not checked",
                                                zg.forward_error != NULL ? zg.forward_error : by.forward_error);
        g_test_skip (msg);
      }
    else
      {
        /* times: the profiles' totals; a merged launch's time on its first op only */
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_TIME].a, ==, zg.profile->total_ms);
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_TIME].b, ==, by.profile->total_ms);
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_TIME].a, >, 0);
        g_assert_cmpfloat (c->totals[ZW_COMPILE_TOTAL_TIME].b, >, 0);
        for (guint i = 0; i < c->rows->len; i++)
          {
            const ZwCompileOpRow *r = g_ptr_array_index (c->rows, i);
            if (r->a.present && r->a.merged)
              {
                if (r->a.launch_first)
                  {
                    n_merged_first++;
                    g_assert_false (isnan (r->a.ms));
                  }
                else
                  g_assert_true (isnan (r->a.ms));
              }
            /* Buyi runs merge off: every hardop has its own time */
            if (r->b.present)
              {
                g_assert_false (r->b.merged);
                g_assert_false (isnan (r->b.ms));
              }
          }
        g_assert_cmpuint (n_merged_first, ==, 1);   /* merge on: the 88 hardops in one launch */
      }
  }
  deployed_clear (&zg);
  deployed_clear (&by);
}

/* ---- xrt-run report compare-compiles ---- */

static cJSON *
load_json (const char *path)
{
  g_autofree char *text = NULL;
  cJSON *root;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  return root;
}

static const cJSON *
json_total (const cJSON *root, const char *key)
{
  const cJSON *t;

  cJSON_ArrayForEach (t, cJSON_GetObjectItem (root, "totals"))
    if (g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItem (t, "key")), key) == 0)
      return t;
  g_error ("no total %s", key);
  return NULL;
}

static void
test_cli_usage_and_demo (void)
{
  g_autofree char *demo = g_strdup_printf ("%s/networks/yolov5s_ZG.json", g_getenv ("ZW_DATA_DIR"));
  g_autofree char *dir = g_dir_make_tmp ("compare-compiles-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "cmp.json", NULL);
  g_auto (ZwRun) usage = { 0 }, run = { 0 };
  cJSON *root;

  zw_test_xrt_run (&usage, "report", "compare-compiles", demo, NULL);
  g_assert_cmpint (usage.status, !=, 0);
  g_assert_nonnull (strstr (usage.err, "expected two network JSON files"));

  /* one compile against itself: every hardop aligns, every ratio is 1 */
  zw_test_xrt_run (&run, "report", "compare-compiles", demo, demo, "--json", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "(ZG330) on mock://zg330"));
  g_assert_nonnull (strstr (run.out, "only in B"));
  root = load_json (out);
  g_assert_cmpint (cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_only_a")), ==, 0);
  g_assert_cmpint (cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_only_b")), ==, 0);
  g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (json_total (root, "time.total"), "ratio")), ==, 1.0);
  g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (json_total (root, "time.total"), "a")), >, 0);
  cJSON_Delete (root);
  g_unlink (out);
  g_rmdir (dir);
}

static void
test_cli_real_pair (void)
{
  g_autofree char *zg_path = zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
  g_autofree char *by_path = zg_path != NULL ? zw_test_shared_file ("real/yolov5s_plin_BY.json") : NULL;
  g_autofree char *dir = NULL, *out = NULL, *ftmp_line = NULL;
  g_auto (ZwRun) run = { 0 };
  static const char *const keys[ZW_N_SEGMENTS] = { "etm.weight", "etm.instr", "etm.ftmp", "etm.input", "etm.output" };
  Deployed zg, by;
  cJSON *root;

  if (by_path == NULL)
    return;
  dir = g_dir_make_tmp ("compare-compiles-XXXXXX", NULL);
  out = g_build_filename (dir, "real.json", NULL);
  zw_test_xrt_run (&run, "report", "compare-compiles", zg_path, by_path, "--json", out, NULL);
  g_test_message ("%s", run.out);
  g_assert_cmpint (run.status, ==, 0);
  /* which compile is which */
  g_assert_nonnull (strstr (run.out, "A: yolov5s_plin_352x640 (ZG330) on mock://zg330"));
  g_assert_nonnull (strstr (run.out, "B: yolov5s_plin (Buyi) on mock://buyi"));
  /* the Buyi FTMP is the compiler's segment */
  ftmp_line = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) 10137600);
  g_assert_nonnull (strstr (strstr (run.out, "ETM FTMP"), ftmp_line));

  root = load_json (out);
  g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "b"), "chip")), ==, "Buyi");
  g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (json_total (root, "etm.ftmp"), "b")), ==, 10137600);
  g_assert_cmpint (cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_aligned")), >=, 80);
  g_assert_cmpint (cJSON_GetArraySize (cJSON_GetObjectItem (root, "ops")), ==,
                   cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_aligned"))
                   + cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_only_a"))
                   + cJSON_GetNumberValue (cJSON_GetObjectItem (root, "n_only_b")));
  /* the CLI deploys as the library does: the same segment bytes as a deployment here */
  zg = deploy (zg_path);
  by = deploy (by_path);
  for (guint s = 0; s < ZW_N_SEGMENTS; s++)
    {
      const cJSON *t = json_total (root, keys[s]);
      g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (t, "a")), ==, (double) zg.report->segments[s].byte_size);
      g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (t, "b")), ==, (double) by.report->segments[s].byte_size);
    }
  if (strstr (run.err, "forward of") != NULL)
    g_test_message ("a forward failed in the CLI: %s", run.err);
  else
    g_assert_true (cJSON_IsNumber (cJSON_GetObjectItem (json_total (root, "time.total"), "b")));
  cJSON_Delete (root);
  deployed_clear (&zg);
  deployed_clear (&by);
  g_unlink (out);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-compiles/logical-nchw/c-blocks-and-absent-axes", test_logical_nchw);
  g_test_add_func ("/compare-compiles/align/lcs-on-class-and-logical-shape", test_align_hand_built);
  g_test_add_func ("/compare-compiles/totals/segments-ocm-launches-time-and-ratios", test_totals_hand_built);
  g_test_add_func ("/compare-compiles/real/zg330-and-buyi-yolov5s", test_real_pair);
  g_test_add_func ("/compare-compiles/cli/usage-and-one-compile-against-itself", test_cli_usage_and_demo);
  g_test_add_func ("/compare-compiles/cli/real-zg330-and-buyi", test_cli_real_pair);
  return g_test_run ();
}
