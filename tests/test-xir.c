/* test-xir — the network model on the vendor's real file, the parsers, views,
 * the raw params format and the malformed corpus. */
#include "xir/xir-network.h"
#include "xir/xir-summary.h"

#include <glib/gstdio.h>
#include <string.h>

static char *
shared_path (const char *rel)
{
  const char *dir = g_getenv ("ZW_SHARED_DIR");
  return g_build_filename (dir ? dir : ZW_SHARED_DIR, rel, NULL);
}

static char *
real_json (void)
{
  char *path = shared_path ("real/yolov5s_plin_352x640_ZG.json");

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("the real sample %s is absent (../shared not beside the checkout)", path);
      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}

static char *
corpus_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "malformed", name, NULL);
}

/* ---- the real network ------------------------------------------------------ */

static void
test_real_counts (void)
{
  g_autofree char *path = real_json ();
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = NULL;
  guint n_input = 0, n_output = 0, n_hard = 0, n_detpost = 0, n_other = 0;
  g_autoptr (GHashTable) classes = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 instr_words = 0;

  if (path == NULL)
    return;
  net = xir_network_new_from_json_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (xir_network_get_name (net), ==, "yolov5s_plin_352x640");
  g_assert_cmpstr (xir_network_get_ai_target (net), ==, "@zhuget(330)");
  g_assert_cmpstr (xir_network_get_icraft_xir_version (net), ==, "3.33.1.0");
  g_assert_cmpuint (xir_network_get_n_ops (net), ==, 91);
  for (guint i = 0; i < 91; i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      g_assert_cmpuint (op->index, ==, i);
      g_assert_true (xir_network_get_op_by_id (net, op->op_id) == op);
      switch (op->kind)
        {
        case XIR_OP_INPUT: n_input++; break;
        case XIR_OP_OUTPUT: n_output++; break;
        case XIR_OP_HARDOP:
          n_hard++;
          g_assert_cmpint (op->target.kind, ==, XIR_TARGET_ZHUGE);
          g_assert_cmpint (op->target.version, ==, 330);
          g_hash_table_insert (classes, op->hard_class,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (classes, op->hard_class)) + 1));
          instr_words += op->instr_words;
          break;
        case XIR_OP_CUSTOM:
          g_assert_cmpstr (op->type_key, ==, "customop::DetPostZG");
          n_detpost++;
          break;
        default: n_other++; break;
        }
    }
  g_assert_cmpuint (n_input, ==, 1);
  g_assert_cmpuint (n_hard, ==, 88);
  g_assert_cmpuint (n_detpost, ==, 1);
  g_assert_cmpuint (n_output, ==, 1);
  g_assert_cmpuint (n_other, ==, 0);
#define CLASS(name) GPOINTER_TO_UINT (g_hash_table_lookup (classes, name))
  g_assert_cmpuint (CLASS ("Conv2d"), ==, 61);
  g_assert_cmpuint (CLASS ("Concat"), ==, 13);
  g_assert_cmpuint (CLASS ("Add"), ==, 7);
  g_assert_cmpuint (CLASS ("MaxPool2d"), ==, 3);
  g_assert_cmpuint (CLASS ("Upsample"), ==, 2);
  g_assert_cmpuint (CLASS ("Reshape"), ==, 1);
  g_assert_cmpuint (CLASS ("Cast"), ==, 1);
#undef CLASS
  g_assert_cmpuint (xir_network_get_params (net)->len, ==, 210);
  g_assert_cmpuint (instr_words, ==, 196848);
  g_assert_cmpuint (xir_network_get_total_instr_words (net), ==, 196848);
  g_assert_cmpuint (xir_network_get_params_bytes (net), ==, 8929847);
  g_assert_cmpuint (xir_network_compute_params_bytes (net), ==, 8929847);
  g_assert_cmpstr (xir_network_get_params_md5 (net), ==, "322048b57e360babed2cc2eadf7c1816");
  g_assert_cmpint (xir_network_get_max_op_id (net), ==, 685);
  g_assert_false (xir_network_has_params (net));
}

static void
test_real_values_and_chunks (void)
{
  g_autofree char *path = real_json ();
  g_autoptr (XirNetwork) net = NULL;
  XirValue *v;
  XirChunk *c;
  XirOp *op;

  if (path == NULL)
    return;
  net = xir_network_new_from_json_file (path, NULL);
  g_assert_nonnull (net);

  /* network input: uint8 NHWC image in chunk 0 */
  g_assert_cmpuint (xir_network_get_inputs (net)->len, ==, 1);
  v = g_ptr_array_index (xir_network_get_inputs (net), 0);
  g_assert_cmpint (v->v_id, ==, 0);
  g_assert_true (v->is_network_input);
  g_assert_cmpstr (v->layout.text, ==, "NHWC");
  g_assert_cmpuint (v->element.storage.kind, ==, XIR_SCALAR_UINT);
  g_assert_cmpuint (v->storage_bytes, ==, 352 * 640 * 3);

  /* outputs: the three DetPostZG heads on host memory */
  g_assert_cmpuint (xir_network_get_outputs (net)->len, ==, 3);
  v = g_ptr_array_index (xir_network_get_outputs (net), 0);
  g_assert_cmpint (v->v_id, ==, 1331);
  g_assert_cmpint (v->mtype.kind, ==, XIR_MEM_HOST);
  g_assert_true (v->is_network_output);

  /* quantised value with run-length scales: Cast output v_id 882 */
  v = xir_network_get_value (net, 882);
  g_assert_nonnull (v);
  g_assert_true (v->element.quantized);
  g_assert_cmpuint (v->element.n_scales, ==, 3);
  g_assert_cmpfloat_with_epsilon (v->element.scales[2], 2.007629f, 1e-6);
  g_assert_cmpint (v->element.scale_axis, ==, -1);
  g_assert_cmpstr (v->layout.text, ==, "*C**c3");
  g_assert_cmpint (xir_layout_index_of (&v->layout, 'c'), ==, 4);
  g_assert_cmpuint (v->layout.block[4], ==, 3);

  /* concat: v 43 and v 49 live inside v 52's chunk 1, consumed by the concat at index 11 */
  v = xir_network_get_value (net, 52);
  op = xir_network_get_op (net, (guint) v->producer);
  g_assert_cmpstr (op->hard_class, ==, "Concat");
  g_assert_cmpint (op->op_id, ==, 669);
  g_assert_cmpint (op->layer_count, ==, 0);
  g_assert_cmpuint (op->instr_words, ==, 0);
  c = xir_network_get_chunk (net, 1);
  g_assert_nonnull (c);
  g_assert_false (c->is_params);
  g_assert_cmpuint (c->values->len, ==, 3);
  g_assert_cmpuint (c->size, ==, 2u * 88 * 160 * 32);
  v = xir_network_get_value (net, 49);
  g_assert_cmpuint (v->mtype.offset, ==, 450560);
  g_assert_cmpint (v->last_use, ==, 11);
  v = xir_network_get_value (net, 43);
  g_assert_cmpint (v->producer, ==, 9);
  g_assert_cmpint (v->first_use, ==, 9);
  g_assert_cmpint (v->last_use, ==, 11);
  g_assert_cmpuint (v->consumers->len, ==, 1);

  /* params: conv weights OIHWo32i32 int8 with per-output scales, fp16 Oo32 bias in the same chunk */
  op = xir_network_get_op_by_id (net, 682);
  g_assert_cmpuint (op->params->len, ==, 2);
  v = g_ptr_array_index (op->params, 1);
  g_assert_cmpint (v->v_id, ==, 2174);
  g_assert_cmpuint (v->element.storage.kind, ==, XIR_SCALAR_FP);
  g_assert_cmpuint (v->element.storage.bits, ==, 16);
  g_assert_cmpuint (v->mtype.offset, ==, 9);
  g_assert_cmpuint (g_array_index (op->origin_ops_id, gint64, 0), ==, 453);
  g_assert_true (cJSON_IsObject (xir_op_get_attr (op, "device_info")));
  g_assert_true (cJSON_IsArray (xir_op_get_attr (op, "sub_hard_ops")));
  g_assert_true (cJSON_IsTrue (cJSON_GetObjectItem (op->tags, "io_process")));
}

static void
test_real_custom_op_attrs (void)
{
  g_autofree char *path = real_json ();
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (GError) error = NULL;
  const cJSON *thr;
  XirOp *op;
  gint64 anchors = 0;
  double thr_f = 0;

  if (path == NULL)
    return;
  net = xir_network_new_from_json_file (path, NULL);
  op = xir_network_get_op_by_id (net, 447);
  g_assert_cmpint (op->kind, ==, XIR_OP_CUSTOM);
  g_assert_cmpint (op->target.kind, ==, XIR_TARGET_FPGA);
  g_assert_true (xir_op_get_attr_int (op, "anchor_num", &anchors, &error));
  g_assert_cmpint (anchors, ==, 3);
  g_assert_true (xir_op_get_attr_double (op, "thr_f", &thr_f, &error));
  g_assert_cmpfloat_with_epsilon (thr_f, 0.1, 1e-6);
  thr = xir_op_get_attr (op, "data_thr");
  g_assert_cmpint (cJSON_GetArraySize (thr), ==, 3);
  g_assert_cmpint (cJSON_GetArrayItem (thr, 1)->valueint, ==, -18);
  g_assert_false (xir_op_get_attr_int (op, "no_such_attr", &anchors, &error));
  g_assert_error (error, XIR_ERROR, XIR_ERROR_FIELD);
  g_assert_nonnull (strstr (error->message, "op 447"));
  g_assert_nonnull (strstr (error->message, "no_such_attr"));
  g_assert_null (xir_op_get_attr (op, "inputs"));  /* structure is not an attribute */
}

static void
test_real_fake_params_round_trip (void)
{
  g_autofree char *path = real_json ();
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetwork) again = NULL;
  g_autoptr (XirNetwork) lazy = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *raw = NULL;
  GStatBuf st;
  GPtrArray *params;

  if (path == NULL)
    return;
  dir = g_dir_make_tmp ("zw-xir-XXXXXX", NULL);
  raw = g_build_filename (dir, "yolo.raw", NULL);
  net = xir_network_new_from_json_file (path, NULL);
  xir_network_fake_params (net, 330);
  g_assert_true (xir_network_has_params (net));
  g_assert_true (xir_network_write_params_file (net, raw, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (raw, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 8929847);

  /* the compiler's md5 is for the real weights: a strict load refuses, naming both sums */
  again = xir_network_new_from_json_file (path, NULL);
  g_assert_false (xir_network_load_params_from_file (again, raw, &error));
  g_assert_error (error, XIR_ERROR, XIR_ERROR_PARAMS);
  g_assert_nonnull (strstr (error->message, "322048b57e360babed2cc2eadf7c1816"));
  g_assert_nonnull (strstr (error->message, raw));
  g_clear_error (&error);
  g_assert_true (xir_network_load_params_from_file_full (again, raw, XIR_LOAD_NO_MD5, &error));
  g_assert_no_error (error);
  lazy = xir_network_new_from_json_file (path, NULL);
  g_assert_true (xir_network_lazy_load_params_from_file (lazy, raw, &error));
  g_assert_no_error (error);

  params = xir_network_get_params (net);
  for (guint i = 0; i < params->len; i++)
    {
      XirValue *p = g_ptr_array_index (params, i);
      XirValue *q = xir_network_get_value (again, p->v_id);
      XirValue *r = xir_network_get_value (lazy, p->v_id);
      g_assert_cmpmem (xir_network_get_params_data (net, p), p->storage_bytes,
                       xir_network_get_params_data (again, q), q->storage_bytes);
      g_assert_cmpmem (xir_network_get_params_data (net, p), p->storage_bytes,
                       xir_network_get_params_data (lazy, r), r->storage_bytes);
    }
  /* deterministic: the same seed gives the same bytes, another seed other bytes */
  {
    g_autoptr (XirNetwork) other = xir_network_new_from_json_file (path, NULL);
    XirValue *w = xir_network_get_value (net, 12);
    xir_network_fake_params (other, 330);
    g_assert_cmpmem (xir_network_get_params_data (net, w), w->storage_bytes,
                     xir_network_get_params_data (other, xir_network_get_value (other, 12)), w->storage_bytes);
    xir_network_fake_params (other, 331);
    g_assert_true (memcmp (xir_network_get_params_data (net, w),
                           xir_network_get_params_data (other, xir_network_get_value (other, 12)), w->storage_bytes) != 0);
  }
  g_unlink (raw);
  g_rmdir (dir);
}

static void
test_real_summary (void)
{
  g_autofree char *path = real_json ();
  g_autoptr (XirNetwork) net = NULL;
  cJSON *s, *ops;

  if (path == NULL)
    return;
  net = xir_network_new_from_json_file (path, NULL);
  s = xir_network_summarize (net);
  ops = cJSON_GetObjectItem (s, "ops");
  g_assert_cmpint (cJSON_GetObjectItem (ops, "total")->valueint, ==, 91);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (ops, "by_kind"), "HardOp")->valueint, ==, 88);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (ops, "by_kind"), "customop::DetPostZG")->valueint, ==, 1);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (ops, "hardop_classes"), "Conv2d")->valueint, ==, 61);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (s, "params"), "count")->valueint, ==, 210);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (s, "params"), "instr_words")->valueint, ==, 196848);
  g_assert_cmpint (cJSON_GetArraySize (cJSON_GetObjectItem (s, "outputs")), ==, 3);
  cJSON_Delete (s);
}

/* ---- parsers ------------------------------------------------------------------ */

static void
test_parse_layouts (void)
{
  XirLayout l;
  g_autoptr (GError) error = NULL;

  g_assert_true (xir_parse_layout ("@layout(NCHWc32)", &l, &error));
  g_assert_cmpuint (l.n_axes, ==, 5);
  g_assert_cmpint (xir_layout_index_of (&l, 'C'), ==, 1);
  g_assert_cmpuint (l.block[4], ==, 32);
  g_assert_true (xir_parse_layout ("@layout(OIHWo32i32)", &l, &error));
  g_assert_cmpuint (l.n_axes, ==, 6);
  g_assert_cmpuint (l.block[4], ==, 32);
  g_assert_cmpuint (l.block[5], ==, 32);
  g_assert_true (xir_parse_layout ("@layout(Oo32)", &l, &error));
  g_assert_cmpuint (l.n_axes, ==, 2);
  g_assert_true (xir_parse_layout ("@layout(*C**c3)", &l, &error));
  g_assert_cmpint (xir_layout_index_of (&l, 'C'), ==, 1);
  g_assert_cmpuint (l.block[4], ==, 3);
  g_assert_true (xir_parse_layout ("@layout(NHWC)", &l, &error));
  g_assert_cmpuint (l.block[3], ==, 0);
  g_assert_true (xir_parse_layout ("@layout(*)", &l, &error));
  g_assert_true (l.any_rank);
  g_assert_no_error (error);
  for (guint i = 0; i < 6; i++)
    {
      const char *bad[] = { "NCHWc32", "@layout()", "@layout(NCHWx)", "@layout(NC32)", "@layout(Nc0)", "@layout(NCHWc99999)" };
      g_assert_false (xir_parse_layout (bad[i], &l, &error));
      g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
      g_clear_error (&error);
    }
}

static void
test_parse_dtypes (void)
{
  XirScalarType t;
  g_autoptr (GError) error = NULL;
  const char *good[] = { "@sint(8)", "@uint(8)", "@fp(16)", "@fp(32)", "@bf(16)", "@uint(64)", "@sint(4)", "@uint(12)" };
  const char *bad[] = { "@sint(0)", "@sint(65)", "@fp(8)", "@bf(32)", "sint(8)", "@int(8)", "@sint(8", "@uint(-8)" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *back = NULL;
      g_assert_true (xir_parse_scalar_type (good[i], &t, &error));
      back = xir_scalar_type_to_string (&t);
      g_assert_cmpstr (back, ==, good[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (xir_parse_scalar_type (bad[i], &t, &error));
      g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_clear_error (&error);
    }
}

static void
test_parse_scales (void)
{
  g_autoptr (GError) error = NULL;
  float *s = NULL;
  guint n = 0;
  gint axis = 0;

  g_assert_true (xir_parse_scales ("@scales([axis=-1]32*0.2153723)", &axis, &s, &n, &error));
  g_assert_cmpint (axis, ==, -1);
  g_assert_cmpuint (n, ==, 32);
  g_assert_cmpfloat_with_epsilon (s[31], 0.2153723f, 1e-7);
  g_free (s);
  g_assert_true (xir_parse_scales ("@scales([axis=1]2*0.5,0.25,3*1e-3)", &axis, &s, &n, &error));
  g_assert_cmpint (axis, ==, 1);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpfloat (s[1], ==, 0.5f);
  g_assert_cmpfloat (s[2], ==, 0.25f);
  g_assert_cmpfloat_with_epsilon (s[5], 1e-3f, 1e-9);
  g_free (s);
  g_assert_true (xir_parse_scales ("@scales([axis=-1])", &axis, &s, &n, &error));
  g_assert_cmpuint (n, ==, 0);
  g_free (s);
  g_assert_no_error (error);
  g_assert_false (xir_parse_scales ("@scales([axis=-1]0*1)", &axis, &s, &n, &error));
  g_clear_error (&error);
  g_assert_false (xir_parse_scales ("@scales(32*1)", &axis, &s, &n, &error));
  g_clear_error (&error);
  g_assert_false (xir_parse_scales ("@scales([axis=-1]99999999*1)", &axis, &s, &n, &error));
  g_clear_error (&error);
  g_assert_false (xir_parse_scales ("@scales([axis=-1]1,,2)", &axis, &s, &n, &error));
}

static void
test_parse_mtypes (void)
{
  XirMemType m;
  g_autoptr (GError) error = NULL;

  g_assert_true (xir_parse_mtype ("@chunk(12@56320)", &m, &error));
  g_assert_cmpint (m.kind, ==, XIR_MEM_CHUNK);
  g_assert_cmpint (m.chunk_id, ==, 12);
  g_assert_cmpuint (m.offset, ==, 56320);
  g_assert_true (xir_parse_mtype ("@hostm", &m, &error));
  g_assert_cmpint (m.kind, ==, XIR_MEM_HOST);
  g_assert_true (xir_parse_mtype ("@etm(4096)", &m, &error));
  g_assert_cmpint (m.kind, ==, XIR_MEM_ETM);
  g_assert_cmpuint (m.addr, ==, 4096);
  g_assert_true (xir_parse_mtype ("@ocm(0x40)", &m, &error));
  g_assert_cmpint (m.kind, ==, XIR_MEM_OCM);
  g_assert_cmpuint (m.addr, ==, 64);
  g_assert_no_error (error);
  g_assert_false (xir_parse_mtype ("@chunk(1@)", &m, &error));
  g_clear_error (&error);
  g_assert_false (xir_parse_mtype ("@chunk(@1)", &m, &error));
  g_clear_error (&error);
  g_assert_false (xir_parse_mtype ("@ocm()", &m, &error));
  g_assert_error (error, XIR_ERROR, XIR_ERROR_VALUE);
}

/* ---- views -------------------------------------------------------------------- */

static void
test_view_negative_indices (void)
{
  g_autofree char *base = corpus_path ("base.json");
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (base, NULL);
  g_autoptr (XirNetworkView) all = NULL, mid = NULL, tail = NULL;
  g_autoptr (GError) error = NULL;
  XirNetworkView *bad;

  g_assert_nonnull (net);
  all = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_cmpuint (xir_network_view_get_n_ops (all), ==, 3);
  mid = xir_network_view (net, 1, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xir_network_view_get_n_ops (mid), ==, 1);
  g_assert_cmpint (xir_network_view_get_op (mid, 0)->op_id, ==, 7);
  g_assert_cmpuint (xir_network_view_get_inputs (mid)->len, ==, 1);
  g_assert_cmpint (((XirValue *) g_ptr_array_index (xir_network_view_get_inputs (mid), 0))->v_id, ==, 0);
  g_assert_cmpuint (xir_network_view_get_outputs (mid)->len, ==, 1);
  g_assert_cmpint (((XirValue *) g_ptr_array_index (xir_network_view_get_outputs (mid), 0))->v_id, ==, 5);
  tail = xir_network_view (net, -1, G_MAXINT, &error);
  g_assert_cmpint (xir_network_view_get_op (tail, 0)->op_id, ==, 9);
  g_assert_null (xir_network_view_get_op (tail, 1));
  bad = xir_network_view (net, 2, 1, &error);
  g_assert_null (bad);
  g_assert_error (error, XIR_ERROR, XIR_ERROR_RANGE);
  g_clear_error (&error);
  bad = xir_network_view (net, 0, 4, &error);
  g_assert_null (bad);
  g_assert_error (error, XIR_ERROR, XIR_ERROR_RANGE);
}

/* ---- malformed JSON corpus ------------------------------------------------------ */

static void
test_malformed_corpus (void)
{
  g_autofree char *list = corpus_path ("expected.tsv");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_cases = 0;

  g_assert_true (g_file_get_contents (list, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *path = NULL;
      g_autoptr (GError) error = NULL;
      XirNetwork *net;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], "\t", -1);
      path = corpus_path (fields[0]);
      net = xir_network_new_from_json_file (path, &error);
      if (net != NULL)
        g_error ("%s loaded but must fail", fields[0]);
      g_assert_nonnull (error);
      g_assert_true (error->domain == XIR_ERROR);
      if (strstr (error->message, fields[0]) == NULL)
        g_error ("%s: error does not name the file: %s", fields[0], error->message);
      for (guint k = 1; fields[k] != NULL; k++)
        if (strstr (error->message, fields[k]) == NULL)
          g_error ("%s: error lacks \"%s\": %s", fields[0], fields[k], error->message);
      n_cases++;
    }
  g_assert_cmpuint (n_cases, >=, 30);
}

static void
test_missing_file (void)
{
  g_autoptr (GError) error = NULL;
  XirNetwork *net = xir_network_new_from_json_file ("/nonexistent/net_ZG.json", &error);

  g_assert_null (net);
  g_assert_error (error, XIR_ERROR, XIR_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/net_ZG.json"));
}

/* ---- malformed raw files ---------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *expect;
  void (*mutate) (GByteArray *raw);
} RawCase;

static void put_u32 (GByteArray *b, guint off, guint32 v) { for (int i = 0; i < 4; i++) b->data[off + i] = (guint8) (v >> (8 * i)); }
static void put_u64 (GByteArray *b, guint off, guint64 v) { for (int i = 0; i < 8; i++) b->data[off + i] = (guint8) (v >> (8 * i)); }
static guint64 get_u64 (GByteArray *b, guint off) { guint64 v = 0; for (int i = 7; i >= 0; i--) v = v << 8 | b->data[off + i]; return v; }

static void raw_bad_magic (GByteArray *b) { b->data[1] = 'X'; }
static void raw_count_plus (GByteArray *b) { put_u32 (b, 12, 4); }
static void raw_truncated_table (GByteArray *b) { g_byte_array_set_size (b, 30); }
static void raw_offset_out (GByteArray *b) { put_u64 (b, 16 + 12 + 4, 999999); }
static void raw_offset_shift (GByteArray *b) { put_u64 (b, 16 + 12 + 4, get_u64 (b, 16 + 12 + 4) + 8); }
static void raw_unknown_vid (GByteArray *b) { put_u32 (b, 16, 4242); }
static void raw_dup_vid (GByteArray *b) { put_u32 (b, 16 + 12, b->data[16] | b->data[17] << 8); }
static void raw_extra_byte (GByteArray *b) { guint8 z = 0; g_byte_array_append (b, &z, 1); }
static void raw_short_blob (GByteArray *b) { g_byte_array_set_size (b, b->len - 2); }
static void raw_empty (GByteArray *b) { g_byte_array_set_size (b, 0); }
static void raw_flip_byte (GByteArray *b) { b->data[b->len - 1] ^= 0x40; }

static void
test_malformed_raw (void)
{
  static const RawCase cases[] = {
    { "bad-magic.raw", "bad magic", raw_bad_magic },
    { "count.raw", "count is 4", raw_count_plus },
    { "truncated-table.raw", "table", raw_truncated_table },
    { "offset-out.raw", "outside the blob area", raw_offset_out },
    { "offset-shift.raw", "bytes but its Params", raw_offset_shift },
    { "unknown-vid.raw", "v_id 4242", raw_unknown_vid },
    { "dup-vid.raw", "appears twice", raw_dup_vid },
    { "extra-byte.raw", "params_bytes", raw_extra_byte },
    { "short-blob.raw", "params_bytes", raw_short_blob },
    { "empty.raw", "empty", raw_empty },
    { "md5.raw", "md5", raw_flip_byte },
  };
  g_autofree char *base = corpus_path ("base.json");
  g_autofree char *dir = g_dir_make_tmp ("zw-raw-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "good.raw", NULL);
  g_autofree char *json = NULL, *md5 = NULL, *with_md5 = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;
  char *raw_bytes = NULL;
  gsize raw_len = 0;

  /* a valid network + raw pair with the md5 recorded, as the compiler writes it */
  net = xir_network_new_from_json_file (base, &error);
  g_assert_no_error (error);
  xir_network_fake_params (net, 7);
  g_assert_true (xir_network_write_params_file (net, good, &error));
  g_assert_true (g_file_get_contents (good, &raw_bytes, &raw_len, NULL));
  g_assert_cmpuint (raw_len, ==, xir_network_get_params_bytes (net));
  md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, (const guchar *) raw_bytes, raw_len);
  g_assert_true (g_file_get_contents (base, &json, &len, NULL));
  {
    g_autofree char *needle = g_strdup ("\"params_md5\": \"\"");
    char *at = strstr (json, needle);
    g_assert_nonnull (at);
    *at = '\0';
    with_md5 = g_strdup_printf ("%s\"params_md5\": \"%s\"%s", json, md5, at + strlen (needle));
  }
  {
    g_autoptr (XirNetwork) ok = xir_network_new_from_json_data (with_md5, strlen (with_md5), "base.json", &error);
    g_assert_no_error (error);
    g_assert_true (xir_network_load_params_from_file (ok, good, &error));
    g_assert_no_error (error);
  }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GByteArray) b = g_byte_array_new ();
      g_autofree char *path = g_build_filename (dir, cases[i].name, NULL);
      g_autoptr (XirNetwork) n2 = xir_network_new_from_json_data (with_md5, strlen (with_md5), "base.json", NULL);

      g_byte_array_append (b, (const guint8 *) raw_bytes, (guint) raw_len);
      cases[i].mutate (b);
      g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
      if (xir_network_load_params_from_file (n2, path, &error))
        g_error ("%s loaded but must fail", cases[i].name);
      g_assert_error (error, XIR_ERROR, XIR_ERROR_PARAMS);
      if (strstr (error->message, cases[i].name) == NULL || strstr (error->message, cases[i].expect) == NULL)
        g_error ("%s: error should name the file and say \"%s\": %s", cases[i].name, cases[i].expect, error->message);
      g_assert_false (xir_network_has_params (n2));
      g_clear_error (&error);
      g_unlink (path);
    }
  /* a missing raw is an I/O error naming it */
  g_assert_false (xir_network_load_params_from_file (net, "/nonexistent/x.raw", &error));
  g_assert_error (error, XIR_ERROR, XIR_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/x.raw"));
  g_free (raw_bytes);
  g_unlink (good);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/xir/real/counts-match-the-vendor-file", test_real_counts);
  g_test_add_func ("/xir/real/values-chunks-and-lifetimes", test_real_values_and_chunks);
  g_test_add_func ("/xir/real/custom-op-attributes-queryable", test_real_custom_op_attrs);
  g_test_add_func ("/xir/real/fake-params-exact-size-and-reload", test_real_fake_params_round_trip);
  g_test_add_func ("/xir/real/summary-model", test_real_summary);
  g_test_add_func ("/xir/parse/layouts", test_parse_layouts);
  g_test_add_func ("/xir/parse/dtypes-round-trip-and-reject", test_parse_dtypes);
  g_test_add_func ("/xir/parse/run-length-scales", test_parse_scales);
  g_test_add_func ("/xir/parse/mtypes", test_parse_mtypes);
  g_test_add_func ("/xir/view/negative-indices-like-session-sub", test_view_negative_indices);
  g_test_add_func ("/xir/load/malformed-corpus-names-file-id-and-field", test_malformed_corpus);
  g_test_add_func ("/xir/load/missing-file", test_missing_file);
  g_test_add_func ("/xir/raw/malformed-files-rejected", test_malformed_raw);
  return g_test_run ();
}
