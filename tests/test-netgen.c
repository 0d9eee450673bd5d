/* test-netgen.c — the demo network generator (runtime/tools/netgen.h).
 *
 * Every generated network must load with the xir loader, hold the ops netgen.h
 * promises, have consistent shapes (conv/pool geometry, concat channel sums, concat
 * inputs inside the output's chunk), a .raw whose size and md5 the JSON states, and
 * be byte-for-byte reproducible from its seed.
 */
#include <errno.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "netgen.h"
#include "xir/xir-network.h"

typedef struct {
  const char *name;
  guint n_ops;
  guint conv, add, concat, maxpool, upsample, reshape, cast;
  guint depthwise;
  guint custom;
} Expected;

static const Expected expected_nets[] = {
  { "tiny", 11, 3, 1, 1, 1, 1, 1, 1, 0, 0 },
  { "resnet18", 33, 20, 8, 0, 1, 0, 1, 1, 0, 0 },
  { "mobilenetv2", 66, 52, 10, 0, 0, 0, 1, 1, 17, 0 },
  { "yolov5s", 91, 61, 7, 13, 3, 2, 1, 1, 0, 1 },
};

/* ---- helpers ------------------------------------------------------------------ */

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *entry;

  if (dir != NULL)
    {
      while ((entry = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, entry, NULL);
          remove_tree (child);
        }
      g_dir_close (dir);
    }
  g_remove (path);
}

static char *
make_tmp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-netgen-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
generate (const char *name, guint n_ops, guint64 seed, const char *dir, char **json, char **raw)
{
  g_autoptr (GError) error = NULL;
  ZwNetgenOptions opts;

  zw_netgen_options_init (&opts);
  opts.n_ops = n_ops;
  opts.seed = seed;
  g_assert_true (zw_netgen_write_network (name, &opts, dir, json, raw, &error));
  g_assert_no_error (error);
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

/* Runs the zw-netgen CLI; checks the exit status (0 or not) and that stderr holds
 * @stderr_has when given. */
static void
run_cli (const char *const *argv, gboolean expect_failure, const char *stderr_has)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  gint status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (expect_failure)
    {
      g_assert_false (g_spawn_check_wait_status (status, NULL));
      /* One clear line, no usage dump. */
      g_assert_true (g_str_has_prefix (err, "zw-netgen: "));
      g_assert_cmpuint (strlen (out), ==, 0);
    }
  else if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s failed: %s\n%s", argv[0], error->message, err);
  if (stderr_has != NULL)
    g_assert_nonnull (strstr (err, stderr_has));
}

static guint
count_class (XirNetwork *net, const char *hard_class)
{
  guint n = 0;

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);

      if (op->kind == XIR_OP_HARDOP && g_strcmp0 (op->hard_class, hard_class) == 0)
        n++;
    }
  return n;
}

static guint
count_kind (XirNetwork *net, XirOpKind kind)
{
  guint n = 0;

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    n += xir_network_get_op (net, i)->kind == kind;
  return n;
}

static XirValue *
in_value (XirOp *op, guint i)
{
  g_assert_cmpuint (op->inputs->len, >, i);
  return g_ptr_array_index (op->inputs, i);
}

static XirValue *
out_value (XirOp *op, guint i)
{
  g_assert_cmpuint (op->outputs->len, >, i);
  return g_ptr_array_index (op->outputs, i);
}

/* Channels, height and width of a feature map ([1,Cb,H,W,c] or NHWC [1,H,W,C]). */
static void
feature_dims (const XirValue *v, gint64 *c, gint64 *h, gint64 *w)
{
  if (v->rank == 5)
    {
      g_assert_cmpint (v->shape[0], ==, 1);
      *c = v->shape[1] * v->shape[4];
      *h = v->shape[2];
      *w = v->shape[3];
    }
  else
    {
      g_assert_cmpuint (v->rank, ==, 4);
      *h = v->shape[1];
      *w = v->shape[2];
      *c = v->shape[3];
    }
}

static gint64
pooled_size (gint64 in, gint64 k, gint64 stride)
{
  gint64 pad = (k - 1) / 2;

  return (in + 2 * pad - k) / stride + 1;
}

/* Stride 1 or 2 such that the map shrinks from (h, w) to (ho, wo), or 0. */
static gint64
find_stride (gint64 h, gint64 w, gint64 ho, gint64 wo, gint64 k)
{
  gint64 found = 0;

  for (gint64 s = 1; s <= 2; s++)
    if (pooled_size (h, k, s) == ho && pooled_size (w, k, s) == wo)
      {
        g_assert_cmpint (found, ==, 0);
        found = s;
      }
  return found;
}

static void
check_conv (XirOp *op, guint *n_depthwise)
{
  XirValue *in = in_value (op, 0), *out = out_value (op, 0), *weight, *bias;
  gint64 c, h, w, co, ho, wo, k;

  g_assert_cmpuint (op->params->len, ==, 2);
  weight = g_ptr_array_index (op->params, 0);
  bias = g_ptr_array_index (op->params, 1);
  feature_dims (in, &c, &h, &w);
  feature_dims (out, &co, &ho, &wo);

  /* Weight [O/o, I/i, kh, kw, o, i] int8 OIHW…, one scale per output channel. */
  g_assert_cmpuint (weight->rank, ==, 6);
  g_assert_true (g_str_has_prefix (weight->layout.text, "OIHWo"));
  g_assert_true (weight->element.quantized);
  g_assert_cmpuint (weight->element.storage.bits, ==, 8);
  g_assert_cmpint (weight->shape[0] * weight->shape[4], ==, co);
  g_assert_cmpuint (weight->element.n_scales, ==, (guint) co);
  k = weight->shape[2];
  g_assert_cmpint (weight->shape[3], ==, k);
  if (weight->shape[1] * weight->shape[5] == 1 && c > 1)
    {
      /* Depthwise: one input channel per group, groups = C. */
      g_assert_cmpint (co, ==, c);
      (*n_depthwise)++;
    }
  else
    g_assert_cmpint (weight->shape[1] * weight->shape[5], ==, c);
  g_assert_cmpint (find_stride (h, w, ho, wo, k), !=, 0);

  /* Bias [O/o, o] fp16 right after the weights, in the conv's own chunk. */
  g_assert_cmpuint (bias->rank, ==, 2);
  g_assert_cmpint (bias->shape[0] * bias->shape[1], ==, co);
  g_assert_true (bias->element.storage.kind == XIR_SCALAR_FP && bias->element.storage.bits == 16);
  g_assert_cmpint (weight->mtype.chunk_id, ==, bias->mtype.chunk_id);
  g_assert_cmpuint (weight->mtype.offset, ==, 0);
  g_assert_cmpuint (bias->mtype.offset, ==, weight->storage_bytes);
}

static void
check_concat (XirOp *op)
{
  XirValue *out = out_value (op, 0);
  gint64 c, h, w, sum = 0;
  guint64 offset = 0;

  g_assert_cmpint (op->layer_count, ==, 0);
  g_assert_cmpuint (op->instr_words, ==, 0);
  g_assert_cmpuint (out->mtype.offset, ==, 0);
  for (guint i = 0; i < op->inputs->len; i++)
    {
      XirValue *v = in_value (op, i);
      gint64 ci, hi, wi;

      feature_dims (v, &ci, &hi, &wi);
      feature_dims (out, &c, &h, &w);
      g_assert_cmpint (hi, ==, h);
      g_assert_cmpint (wi, ==, w);
      sum += ci;
      /* Zero-copy: the producer wrote straight into the output's chunk. */
      g_assert_cmpint (v->mtype.kind, ==, XIR_MEM_CHUNK);
      g_assert_cmpint (v->mtype.chunk_id, ==, out->mtype.chunk_id);
      g_assert_cmpuint (v->mtype.offset, ==, offset);
      g_assert_cmpfloat (v->element.scales[0], ==, out->element.scales[0]);
      offset += v->storage_bytes;
    }
  feature_dims (out, &c, &h, &w);
  g_assert_cmpint (sum, ==, c);
  g_assert_cmpuint (offset, ==, out->storage_bytes);
}

static void
check_hardop (XirOp *op, gint64 instr_chunk, guint *n_depthwise)
{
  XirValue *instr;
  gint64 c, h, w, co, ho, wo;

  g_assert_cmpint (op->target.kind, ==, XIR_TARGET_ZHUGE);
  g_assert_cmpint (op->target.version, ==, 330);
  g_assert_cmpuint (op->instr->len, ==, 1);
  instr = g_ptr_array_index (op->instr, 0);
  g_assert_cmpuint (instr->element.storage.bits, ==, 64);
  g_assert_cmpint (instr->mtype.chunk_id, ==, instr_chunk);
  g_assert_cmpuint (op->outputs->len, ==, 1);

  if (strcmp (op->hard_class, "Concat") == 0)
    {
      check_concat (op);
      return;
    }
  feature_dims (in_value (op, 0), &c, &h, &w);
  feature_dims (out_value (op, 0), &co, &ho, &wo);
  if (strcmp (op->hard_class, "Reshape") == 0)
    {
      g_assert_cmpint (op->layer_count, ==, 0);
      g_assert_cmpuint (op->instr_words, ==, 0);
      g_assert_cmpint (in_value (op, 0)->mtype.chunk_id, ==, out_value (op, 0)->mtype.chunk_id);
      g_assert_cmpuint (in_value (op, 0)->storage_bytes, ==, out_value (op, 0)->storage_bytes);
      return;
    }
  g_assert_cmpint (op->layer_count, ==, 1);
  g_assert_cmpuint (op->instr_words, >, 0);
  if (strcmp (op->hard_class, "Conv2d") == 0)
    check_conv (op, n_depthwise);
  else if (strcmp (op->hard_class, "Add") == 0)
    {
      gint64 c2, h2, w2;

      g_assert_cmpuint (op->inputs->len, ==, 2);
      feature_dims (in_value (op, 1), &c2, &h2, &w2);
      g_assert_true (c == c2 && h == h2 && w == w2 && c == co && h == ho && w == wo);
    }
  else if (strcmp (op->hard_class, "MaxPool2d") == 0)
    {
      g_assert_cmpint (c, ==, co);
      /* 5x5 s1 p2 (same size) or 3x3 s2 p1 (halves). */
      g_assert_true ((ho == h && wo == w) || (ho == pooled_size (h, 3, 2) && wo == pooled_size (w, 3, 2)));
      g_assert_cmpfloat (in_value (op, 0)->element.scales[0], ==, out_value (op, 0)->element.scales[0]);
    }
  else if (strcmp (op->hard_class, "Upsample") == 0)
    g_assert_true (c == co && ho == 2 * h && wo == 2 * w);
  else if (strcmp (op->hard_class, "Cast") == 0)
    {
      g_assert_true (c == co && h == ho && w == wo);
      g_assert_true (out_value (op, 0)->element.quantized);
    }
  else
    g_assert_not_reached ();
}

/* Each feature chunk holds one value, except a concat chunk (the concat's output
 * and inputs) and the input chunk (the input and its zero-copy reshape). */
static void
check_chunks (XirNetwork *net)
{
  GPtrArray *chunks = xir_network_get_chunks (net);
  g_autoptr (GHashTable) concat_chunks = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint n_params_chunks = 0;

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);

      if (op->kind == XIR_OP_HARDOP && (strcmp (op->hard_class, "Concat") == 0
                                        || strcmp (op->hard_class, "Reshape") == 0))
        g_hash_table_add (concat_chunks, &out_value (op, 0)->mtype.chunk_id);
    }
  for (guint i = 0; i < chunks->len; i++)
    {
      XirChunk *chunk = g_ptr_array_index (chunks, i);

      if (chunk->is_params)
        {
          n_params_chunks++;
          continue;
        }
      if (chunk->values->len > 1)
        g_assert_true (g_hash_table_contains (concat_chunks, &chunk->id));
    }
  g_assert_cmpuint (n_params_chunks, >, 0);
}

static void
check_network (const Expected *e, const char *json_path, const char *raw_path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json_path, &error);
  g_autoptr (GBytes) raw = NULL;
  g_autofree char *md5 = NULL;
  gint64 instr_chunk = -1;
  guint n_depthwise = 0;

  g_assert_no_error (error);
  g_assert_nonnull (net);
  g_assert_cmpstr (xir_network_get_ai_target (net), ==, "@zhuget(330)");

  /* What netgen.h promises. */
  g_assert_cmpuint (xir_network_get_n_ops (net), ==, e->n_ops);
  g_assert_cmpuint (count_kind (net, XIR_OP_INPUT), ==, 1);
  g_assert_cmpuint (count_kind (net, XIR_OP_OUTPUT), ==, 1);
  g_assert_cmpuint (count_kind (net, XIR_OP_CUSTOM), ==, e->custom);
  g_assert_cmpuint (count_class (net, "Conv2d"), ==, e->conv);
  g_assert_cmpuint (count_class (net, "Add"), ==, e->add);
  g_assert_cmpuint (count_class (net, "Concat"), ==, e->concat);
  g_assert_cmpuint (count_class (net, "MaxPool2d"), ==, e->maxpool);
  g_assert_cmpuint (count_class (net, "Upsample"), ==, e->upsample);
  g_assert_cmpuint (count_class (net, "Reshape"), ==, e->reshape);
  g_assert_cmpuint (count_class (net, "Cast"), ==, e->cast);
  g_assert_cmpuint (count_kind (net, XIR_OP_HARDOP), ==,
                    e->conv + e->add + e->concat + e->maxpool + e->upsample + e->reshape + e->cast);

  /* Shapes and placement. */
  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);

      if (op->kind != XIR_OP_HARDOP)
        continue;
      if (instr_chunk < 0)
        instr_chunk = ((XirValue *) g_ptr_array_index (op->instr, 0))->mtype.chunk_id;
      check_hardop (op, instr_chunk, &n_depthwise);
    }
  g_assert_cmpuint (n_depthwise, ==, e->depthwise);
  check_chunks (net);

  /* The .raw: size and md5 as the JSON says, and the loader's own checks pass. */
  raw = read_bytes (raw_path);
  g_assert_cmpuint (g_bytes_get_size (raw), ==, xir_network_get_params_bytes (net));
  g_assert_cmpuint (g_bytes_get_size (raw), ==, xir_network_compute_params_bytes (net));
  md5 = g_compute_checksum_for_bytes (G_CHECKSUM_MD5, raw);
  g_assert_cmpstr (md5, ==, xir_network_get_params_md5 (net));
  g_assert_true (xir_network_load_params_from_file (net, raw_path, &error));
  g_assert_no_error (error);
}

/* ---- tests -------------------------------------------------------------------- */

static void
test_network (gconstpointer data)
{
  const Expected *e = data;
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *json = NULL, *raw = NULL;

  generate (e->name, 0, 1, dir, &json, &raw);
  check_network (e, json, raw);
  remove_tree (dir);
}

/* The networks the build put in data/networks are the generator's, unmodified. */
static void
test_build_dir_networks (void)
{
  const char *data_dir = g_getenv ("ZW_DATA_DIR");

  if (data_dir == NULL)
    {
      g_test_skip ("ZW_DATA_DIR is not set (run through meson test)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (expected_nets); i++)
    {
      const Expected *e = &expected_nets[i];
      g_autofree char *base = g_strdup_printf ("%s/networks/%s", data_dir, e->name);
      g_autofree char *json = g_strconcat (base, "_ZG.json", NULL);
      g_autofree char *raw = g_strconcat (base, "_ZG.raw", NULL);
      g_autofree char *dir = make_tmp_dir ();
      g_autofree char *json2 = NULL, *raw2 = NULL;
      g_autoptr (GBytes) a = NULL, b = NULL, c = NULL, d = NULL;

      check_network (e, json, raw);
      generate (e->name, 0, 1, dir, &json2, &raw2);
      a = read_bytes (json);
      b = read_bytes (json2);
      c = read_bytes (raw);
      d = read_bytes (raw2);
      g_assert_true (g_bytes_equal (a, b));
      g_assert_true (g_bytes_equal (c, d));
      remove_tree (dir);
    }
}

static void
test_deterministic (void)
{
  g_autofree char *dir1 = make_tmp_dir (), *dir2 = make_tmp_dir (), *dir3 = make_tmp_dir ();
  const char *names[] = { "tiny", "yolov5s" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *j1 = NULL, *r1 = NULL, *j2 = NULL, *r2 = NULL, *j3 = NULL, *r3 = NULL;
      g_autoptr (GBytes) bj1 = NULL, br1 = NULL, bj2 = NULL, br2 = NULL, bj3 = NULL, br3 = NULL;

      generate (names[i], 0, 7, dir1, &j1, &r1);
      generate (names[i], 0, 7, dir2, &j2, &r2);
      generate (names[i], 0, 8, dir3, &j3, &r3);
      bj1 = read_bytes (j1);
      br1 = read_bytes (r1);
      bj2 = read_bytes (j2);
      br2 = read_bytes (r2);
      bj3 = read_bytes (j3);
      br3 = read_bytes (r3);
      /* Same seed: same bytes. Another seed: same size of params, other values. */
      g_assert_true (g_bytes_equal (bj1, bj2));
      g_assert_true (g_bytes_equal (br1, br2));
      g_assert_false (g_bytes_equal (bj1, bj3));
      g_assert_false (g_bytes_equal (br1, br3));
      g_assert_cmpuint (g_bytes_get_size (br1), ==, g_bytes_get_size (br3));
    }
  remove_tree (dir1);
  remove_tree (dir2);
  remove_tree (dir3);
}

/* The vendor's layout: compact, keys in byte order, placeholders replaced. */
static void
test_json_format (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *json = NULL, *raw = NULL;
  g_autoptr (GBytes) bytes = NULL;
  const char *text;
  gsize len;
  cJSON *root, *prev = NULL;

  generate ("tiny", 0, 1, dir, &json, &raw);
  bytes = read_bytes (json);
  text = g_bytes_get_data (bytes, &len);
  g_assert_true (g_str_has_prefix (text, "{\"_type_key\":\"icraft::xir::Network\",\"ai_target\":\"@zhuget(330)\","));
  g_assert_null (memchr (text, '\n', len));
  root = cJSON_ParseWithLength (text, len);
  g_assert_nonnull (root);
  for (cJSON *c = root->child; c != NULL; prev = c, c = c->next)
    if (prev != NULL)
      g_assert_cmpint (strcmp (prev->string, c->string), <, 0);
  g_assert_cmpint (cJSON_GetObjectItem (root, "params_bytes")->valuedouble, >, 0);
  g_assert_cmpuint (strlen (cJSON_GetObjectItem (root, "params_md5")->valuestring), ==, 32);
  cJSON_Delete (root);
  remove_tree (dir);
}

/* Our yolov5s has the real yolov5s_plin_352x640's ops, shapes, layouts and chunks. */
static void
test_yolov5s_mirrors_real (void)
{
  const char *shared = g_getenv ("ZW_SHARED_DIR");
  g_autofree char *real_path = NULL, *dir = NULL, *json = NULL, *raw = NULL;
  g_autoptr (XirNetwork) real = NULL, ours = NULL;
  g_autoptr (GError) error = NULL;

  if (shared == NULL)
    shared = ZW_SHARED_DIR;
  real_path = g_build_filename (shared, "real", "yolov5s_plin_352x640_ZG.json", NULL);
  if (!g_file_test (real_path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the real yolov5s JSON is not available");
      return;
    }
  real = xir_network_new_from_json_file (real_path, &error);
  g_assert_no_error (error);
  dir = make_tmp_dir ();
  generate ("yolov5s", 0, 1, dir, &json, &raw);
  ours = xir_network_new_from_json_file (json, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (xir_network_get_n_ops (ours), ==, xir_network_get_n_ops (real));
  for (guint i = 0; i < xir_network_get_n_ops (real); i++)
    {
      XirOp *a = xir_network_get_op (real, i), *b = xir_network_get_op (ours, i);
      GPtrArray *lists_a[3] = { a->inputs, a->outputs, a->params };
      GPtrArray *lists_b[3] = { b->inputs, b->outputs, b->params };

      g_assert_cmpint (a->kind, ==, b->kind);
      g_assert_cmpstr (a->type_key, ==, b->type_key);
      g_assert_cmpstr (a->name, ==, b->name);
      /* HardOp ids follow the compiler's class grouping exactly. */
      if (a->kind == XIR_OP_HARDOP)
        g_assert_cmpint (a->op_id, ==, b->op_id);
      g_assert_cmpint (a->layer_count, ==, b->layer_count);
      for (guint l = 0; l < 3; l++)
        {
          guint na = lists_a[l] ? lists_a[l]->len : 0, nb = lists_b[l] ? lists_b[l]->len : 0;

          g_assert_cmpuint (na, ==, nb);
          for (guint k = 0; k < na; k++)
            {
              XirValue *va = g_ptr_array_index (lists_a[l], k), *vb = g_ptr_array_index (lists_b[l], k);

              g_assert_cmpstr (va->layout.text, ==, vb->layout.text);
              g_assert_cmpuint (va->rank, ==, vb->rank);
              for (guint d = 0; d < va->rank; d++)
                g_assert_cmpint (va->shape[d], ==, vb->shape[d]);
              g_assert_cmpint (va->mtype.kind, ==, vb->mtype.kind);
              g_assert_cmpint (va->mtype.chunk_id, ==, vb->mtype.chunk_id);
              g_assert_cmpuint (va->mtype.offset, ==, vb->mtype.offset);
              g_assert_cmpuint (va->n_merged_distrs, ==, vb->n_merged_distrs);
              for (guint d = 0; d < va->n_merged_distrs; d++)
                g_assert_cmpstr (va->merged_distrs[d], ==, vb->merged_distrs[d]);
            }
        }
    }
  remove_tree (dir);
}

static void
test_chain_op_count (void)
{
  /* 5..8 cover every way the fill-up can end; 10000 is the scale net. */
  static const guint counts[] = { 5, 6, 7, 8, 17, 10000 };
  g_autofree char *dir = make_tmp_dir ();

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autofree char *json = NULL, *raw = NULL;
      g_autoptr (XirNetwork) net = NULL;
      g_autoptr (GError) error = NULL;
      guint n_depthwise = 0;
      gint64 instr_chunk = -1;

      if (counts[i] >= 1000 && g_getenv ("ZW_NETGEN") != NULL)
        {
          /* The scale net goes through the CLI, as the benchmarks make it; the
           * child's heap also keeps the big JSON tree out of this process. */
          g_autofree char *ops = g_strdup_printf ("%u", counts[i]);
          const char *argv[] = { g_getenv ("ZW_NETGEN"), "chain", "--ops", ops, "-o", dir, "-q", NULL };

          run_cli (argv, 0, NULL);
          json = g_build_filename (dir, "chain_ZG.json", NULL);
          raw = g_build_filename (dir, "chain_ZG.raw", NULL);
        }
      else
        generate ("chain", counts[i], 1, dir, &json, &raw);
      net = xir_network_new_from_json_file (json, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (xir_network_get_n_ops (net), ==, counts[i]);
      g_assert_cmpuint (count_kind (net, XIR_OP_HARDOP), ==, counts[i] - 2);
      for (guint k = 0; k < xir_network_get_n_ops (net); k++)
        {
          XirOp *op = xir_network_get_op (net, k);

          if (op->kind != XIR_OP_HARDOP)
            continue;
          if (instr_chunk < 0)
            instr_chunk = ((XirValue *) g_ptr_array_index (op->instr, 0))->mtype.chunk_id;
          check_hardop (op, instr_chunk, &n_depthwise);
        }
      check_chunks (net);
      g_assert_true (xir_network_load_params_from_file (net, raw, &error));
      g_assert_no_error (error);
    }
  remove_tree (dir);
}

static void
test_rejects_unknown_name (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_tmp_dir ();

  g_assert_null (zw_netgen_build_json ("resnet50", NULL, &error));
  g_assert_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_UNKNOWN_NETWORK);
  g_assert_nonnull (strstr (error->message, "resnet50"));
  g_clear_error (&error);
  g_assert_false (zw_netgen_write_network ("resnet50", NULL, dir, NULL, NULL, &error));
  g_assert_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_UNKNOWN_NETWORK);
  remove_tree (dir);
}

static void
test_rejects_bad_ops (void)
{
  g_autoptr (GError) error = NULL;
  ZwNetgenOptions opts;

  zw_netgen_options_init (&opts);
  opts.n_ops = ZW_NETGEN_CHAIN_MIN_OPS - 1;
  g_assert_null (zw_netgen_build_json ("chain", &opts, &error));
  g_assert_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION);
  g_assert_nonnull (strstr (error->message, "--ops 4"));
  g_clear_error (&error);
  opts.n_ops = 100;
  g_assert_null (zw_netgen_build_json ("tiny", &opts, &error));
  g_assert_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION);
  g_assert_nonnull (strstr (error->message, "chain only"));
}

static void
test_rejects_unwritable_dir (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *file = g_build_filename (dir, "a-file", NULL);
  g_autofree char *below = g_build_filename (file, "networks", NULL);

  /* A directory below a regular file cannot be made, even by root. */
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  g_assert_false (zw_netgen_write_network ("tiny", NULL, below, NULL, NULL, &error));
  g_assert_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO);
  g_assert_nonnull (strstr (error->message, below));
  remove_tree (dir);
}

static void
test_cli_errors (void)
{
  const char *netgen = g_getenv ("ZW_NETGEN");
  g_autofree char *dir = NULL, *file = NULL, *below = NULL;

  if (netgen == NULL)
    {
      g_test_skip ("ZW_NETGEN is not set (run through meson test)");
      return;
    }
  dir = make_tmp_dir ();
  file = g_build_filename (dir, "a-file", NULL);
  below = g_build_filename (file, "sub", NULL);
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  {
    const char *argv[] = { netgen, "resnet50", "-o", dir, NULL };
    run_cli (argv, TRUE, "unknown network \"resnet50\" (known: tiny, resnet18");
  }
  {
    const char *argv[] = { netgen, "chain", "--ops", "4", "-o", dir, NULL };
    run_cli (argv, TRUE, "--ops \"4\"");
  }
  {
    const char *argv[] = { netgen, "chain", "--ops", "ten", "-o", dir, NULL };
    run_cli (argv, TRUE, "--ops \"ten\"");
  }
  {
    const char *argv[] = { netgen, "tiny", "--ops", "50", "-o", dir, NULL };
    run_cli (argv, TRUE, "chain only");
  }
  {
    const char *argv[] = { netgen, "tiny", "--seed", "-1", "-o", dir, NULL };
    run_cli (argv, TRUE, "--seed");
  }
  {
    const char *argv[] = { netgen, "tiny", NULL };
    run_cli (argv, TRUE, "missing -o DIR");
  }
  {
    const char *argv[] = { netgen, "-o", dir, NULL };
    run_cli (argv, TRUE, "missing network NAME");
  }
  {
    const char *argv[] = { netgen, "tiny", "-o", below, NULL };
    run_cli (argv, TRUE, below);
  }
  /* Nothing half-written was left behind. */
  g_assert_false (g_file_test (below, G_FILE_TEST_EXISTS));
  {
    g_autofree char *json = g_build_filename (dir, "tiny_ZG.json", NULL);
    g_assert_false (g_file_test (json, G_FILE_TEST_EXISTS));
  }
  remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (expected_nets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/netgen/%s/loads-with-promised-ops-shapes-and-raw",
                                               expected_nets[i].name);
      g_test_add_data_func (path, &expected_nets[i], test_network);
    }
  g_test_add_func ("/netgen/yolov5s/mirrors-real-network-structure", test_yolov5s_mirrors_real);
  g_test_add_func ("/netgen/chain/has-requested-op-count", test_chain_op_count);
  g_test_add_func ("/netgen/output/same-seed-same-bytes", test_deterministic);
  g_test_add_func ("/netgen/output/json-is-compact-with-sorted-keys", test_json_format);
  g_test_add_func ("/netgen/data/build-dir-networks-are-generator-output", test_build_dir_networks);
  g_test_add_func ("/netgen/errors/rejects-unknown-name", test_rejects_unknown_name);
  g_test_add_func ("/netgen/errors/rejects-bad-ops", test_rejects_bad_ops);
  g_test_add_func ("/netgen/errors/rejects-unwritable-dir", test_rejects_unwritable_dir);
  g_test_add_func ("/netgen/cli/errors-are-one-clear-line", test_cli_errors);
  return g_test_run ();
}
