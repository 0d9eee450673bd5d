/* test-analysis — tensor statistics and heatmaps, dump diff, profile and deploy compare,
 * and `xrt-run report` as a user runs it. */
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "report/zw-dump-diff.h"
#include "report/zw-dump.h"
#include "report/zw-profile.h"
#include "report/zw-tensor-stats.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"

#include <cjson/cJSON.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------- */

static void
make_type (ZwDumpType *t, gint64 v_id, const char *storage, const char *layout, guint rank, const gint64 *shape,
           guint n_scales, const float *scales)
{
  memset (t, 0, sizeof *t);
  t->v_id = v_id;
  g_assert_true (xir_parse_scalar_type (storage, &t->storage, NULL));
  g_assert_true (xir_parse_layout (layout, &t->layout, NULL));
  t->quantized = n_scales > 0;
  t->n_scales = n_scales;
  t->scales = n_scales ? g_memdup2 (scales, sizeof (float) * n_scales) : NULL;
  t->rank = rank;
  t->shape = g_memdup2 (shape, sizeof (gint64) * rank);
}

/* ---- statistics ------------------------------------------------------------------- */

static void
test_stats_float_dump (void)
{
  /* NHWC [1,2,2,3] float32 as a text dump with NaN and both infinities */
  static const gint64 shape[] = { 1, 2, 2, 3 };
  const char *text = "1\nnan\n-2\n0\ninf\n4\n3\n0\n-inf\n-1\n2\n0.5\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpData) data = NULL;
  g_autoptr (ZwTensor) t = NULL;
  g_autoptr (ZwTensorStats) st = NULL;
  ZwDumpType type;
  ZwDumpFormat fmt;
  ZwTensorSample s;

  make_type (&type, 5, "@fp(32)", "@layout(NHWC)", 4, shape, 0, NULL);
  g_assert_true (zw_dump_format_parse ("SFT", &fmt, NULL));
  data = zw_dump_decode (&type, fmt, (const guint8 *) text, strlen (text), "5.ftmp", &error);
  g_assert_no_error (error);
  t = zw_tensor_new_from_dump (data, &type, &error);
  g_assert_no_error (error);
  zw_dump_type_clear (&type);
  g_assert_false (t->has_quantized);
  g_assert_cmpint (t->n, ==, 1);
  g_assert_cmpint (t->c, ==, 3);
  g_assert_cmpint (t->h, ==, 2);
  g_assert_cmpint (t->w, ==, 2);

  st = zw_tensor_stats_compute (t, 4);
  /* by hand: finite values 1 -2 0 4 3 0 -1 2 0.5: sum 7.5, sum of squares 35.25 */
  g_assert_cmpuint (st->f.count, ==, 12);
  g_assert_cmpuint (st->f.n_nan, ==, 1);
  g_assert_cmpuint (st->f.n_pos_inf, ==, 1);
  g_assert_cmpuint (st->f.n_neg_inf, ==, 1);
  g_assert_cmpuint (st->f.n_zero, ==, 2);
  g_assert_cmpfloat (st->f.min, ==, -2.0);
  g_assert_cmpfloat (st->f.max, ==, 4.0);
  g_assert_cmpfloat_with_epsilon (st->f.mean, 7.5 / 9, 1e-12);
  g_assert_cmpfloat_with_epsilon (st->f.std, sqrt (35.25 / 9 - (7.5 / 9) * (7.5 / 9)), 1e-12);
  /* 4 bins of 1.5 over [-2, 4]: {-2,-1} {0,0,0.5} {1,2} {3,4} */
  g_assert_false (st->f_hist.levels);
  g_assert_cmpuint (st->f_hist.n_bins, ==, 4);
  g_assert_cmpuint (st->f_hist.counts[0], ==, 2);
  g_assert_cmpuint (st->f_hist.counts[1], ==, 3);
  g_assert_cmpuint (st->f_hist.counts[2], ==, 2);
  g_assert_cmpuint (st->f_hist.counts[3], ==, 2);
  /* per channel (the last axis): c0 = 1 0 3 -1, c1 = nan inf 0 2, c2 = -2 4 -inf 0.5 */
  g_assert_cmpuint (st->n_channels, ==, 3);
  g_assert_null (st->channel_q);
  g_assert_cmpfloat (st->channel_f[0].mean, ==, 0.75);
  g_assert_cmpfloat (st->channel_f[0].min, ==, -1.0);
  g_assert_cmpuint (st->channel_f[0].n_zero, ==, 1);
  g_assert_cmpuint (st->channel_f[1].count, ==, 4);
  g_assert_cmpuint (st->channel_f[1].n_nan, ==, 1);
  g_assert_cmpuint (st->channel_f[1].n_pos_inf, ==, 1);
  g_assert_cmpfloat (st->channel_f[1].mean, ==, 1.0);
  g_assert_cmpfloat (st->channel_f[1].std, ==, 1.0);
  g_assert_cmpuint (st->channel_f[2].n_neg_inf, ==, 1);
  g_assert_cmpfloat_with_epsilon (st->channel_f[2].mean, 2.5 / 3, 1e-12);
  /* the value under (n=0, c=2, h=1, w=0): element 8, -inf */
  g_assert_true (zw_tensor_get_at (t, 0, 2, 1, 0, &s, &error));
  g_assert_cmpint (s.index, ==, 8);
  g_assert_true (isinf (s.value) && s.value < 0);
  g_assert_false (s.has_q);
  g_assert_false (zw_tensor_get_at (t, 0, 3, 0, 0, &s, &error));
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "5.ftmp"));
}

/* An int8 NCHWc4 tensor with 6 real channels (2 padding channels holding 99). */
#define Q_CB 2
#define Q_H 2
#define Q_W 3
#define Q_K 4
#define Q_C 6
static const float q_scales[Q_C] = { 0.5f, 0.25f, 1.0f, 2.0f, 0.125f, 1.5f };

static GBytes *
make_q_bytes (void)
{
  guint8 *b = g_malloc (Q_CB * Q_H * Q_W * Q_K);

  for (guint cb = 0; cb < Q_CB; cb++)
    for (guint h = 0; h < Q_H; h++)
      for (guint w = 0; w < Q_W; w++)
        for (guint k = 0; k < Q_K; k++)
          {
            guint i = ((cb * Q_H + h) * Q_W + w) * Q_K + k;
            b[i] = cb * Q_K + k >= Q_C ? 99 : (guint8) (gint8) ((gint) ((i * 37u) % 256u) - 128);
          }
  return g_bytes_new_take (b, Q_CB * Q_H * Q_W * Q_K);
}

static void
test_stats_int8_levels (void)
{
  static const gint64 shape[] = { 1, Q_CB, Q_H, Q_W, Q_K };
  g_autoptr (GBytes) bytes = make_q_bytes ();
  const guint8 *b = g_bytes_get_data (bytes, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTensor) t = NULL;
  g_autoptr (ZwTensorStats) st = NULL;
  ZwDumpType type;
  double qsum = 0, qsq = 0, fsum = 0, fsq = 0, fmin = INFINITY, fmax = -INFINITY;
  guint64 levels[256] = { 0 }, zeros = 0;
  double csum[Q_C] = { 0 };

  make_type (&type, 12, "@sint(8)", "@layout(NCHWc4)", 5, shape, Q_C, q_scales);
  t = zw_tensor_new (&type, bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpint (t->c, ==, Q_C);
  g_assert_cmpint (t->c_stored, ==, Q_CB * Q_K);
  g_assert_true (t->has_quantized && t->quantized);

  /* by hand, from the layout formula */
  for (guint c = 0; c < Q_C; c++)
    for (guint h = 0; h < Q_H; h++)
      for (guint w = 0; w < Q_W; w++)
        {
          gint8 q = (gint8) b[(((c / Q_K) * Q_H + h) * Q_W + w) * Q_K + c % Q_K];
          float f = (float) q * q_scales[c];
          qsum += q;
          qsq += (double) q * q;
          fsum += f;
          fsq += (double) f * f;
          fmin = MIN (fmin, f);
          fmax = MAX (fmax, f);
          levels[q + 128]++;
          zeros += q == 0;
          csum[c] += f;
        }
  st = zw_tensor_stats_compute (t, 8);
  g_assert_true (st->has_quantized);
  g_assert_cmpuint (st->q.count, ==, Q_C * Q_H * Q_W);
  g_assert_cmpuint (st->q.n_zero, ==, zeros);
  g_assert_cmpfloat_with_epsilon (st->q.mean, qsum / 36, 1e-12);
  g_assert_cmpfloat_with_epsilon (st->q.std, sqrt (qsq / 36 - (qsum / 36) * (qsum / 36)), 1e-9);
  g_assert_cmpfloat_with_epsilon (st->f.mean, fsum / 36, 1e-9);
  g_assert_cmpfloat_with_epsilon (st->f.std, sqrt (fsq / 36 - (fsum / 36) * (fsum / 36)), 1e-9);
  g_assert_cmpfloat (st->f.min, ==, fmin);
  g_assert_cmpfloat (st->f.max, ==, fmax);
  /* one bin per level; the padding's 99s are not counted */
  g_assert_true (st->q_hist.levels);
  g_assert_cmpuint (st->q_hist.n_bins, ==, 256);
  g_assert_cmpfloat (st->q_hist.lo, ==, -128);
  for (guint l = 0; l < 256; l++)
    g_assert_cmpuint (st->q_hist.counts[l], ==, levels[l]);
  for (guint c = 0; c < Q_C; c++)
    {
      g_assert_cmpuint (st->channel_f[c].count, ==, Q_H * Q_W);
      g_assert_cmpfloat_with_epsilon (st->channel_f[c].mean, csum[c] / (Q_H * Q_W), 1e-9);
    }

  /* the same value as an SFB dump (floats, per-element path, integers recomputed) agrees */
  {
    ZwDumpFormat sfb;
    g_autoptr (GBytes) file = NULL;
    g_autoptr (ZwDumpData) d = NULL;
    g_autoptr (ZwTensor) t2 = NULL;
    g_autoptr (ZwTensorStats) st2 = NULL;

    g_assert_true (zw_dump_format_parse ("SFB", &sfb, NULL));
    file = zw_dump_encode (&type, b, g_bytes_get_size (bytes), sfb, &error);
    g_assert_no_error (error);
    d = zw_dump_decode (&type, sfb, g_bytes_get_data (file, NULL), g_bytes_get_size (file), "12.ftmp", &error);
    g_assert_no_error (error);
    t2 = zw_tensor_new_from_dump (d, &type, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (t2->layout, ==, "NHWC");
    g_assert_true (t2->has_quantized && t2->f_bytes != NULL);
    st2 = zw_tensor_stats_compute (t2, 8);
    g_assert_cmpfloat (st2->q.mean, ==, st->q.mean);
    g_assert_cmpfloat (st2->q.min, ==, st->q.min);
    g_assert_cmpfloat (st2->q.max, ==, st->q.max);
    g_assert_cmpfloat_with_epsilon (st2->f.mean, st->f.mean, 1e-12);
    g_assert_cmpfloat_with_epsilon (st2->f.std, st->f.std, 1e-12);
    for (guint l = 0; l < 256; l++)
      g_assert_cmpuint (st2->q_hist.counts[l], ==, st->q_hist.counts[l]);
    for (guint i = 0; i < 8; i++)
      g_assert_cmpuint (st2->f_hist.counts[i], ==, st->f_hist.counts[i]);
  }
  zw_dump_type_clear (&type);
}

static void
test_heatmap_nchwc32 (void)
{
  /* [1, 2, 5, 7, 32] int8, 40 real channels with scales 0.01 (c + 1) */
  static const gint64 shape[] = { 1, 2, 5, 7, 32 };
  float scales[40];
  gsize n = 2 * 5 * 7 * 32;
  guint8 *raw = g_malloc (n);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTensor) t = NULL;
  g_autofree float *f = NULL, *q = NULL;
  ZwDumpType type;
  ZwTensorSample s;
  gint64 coords[4];

  for (guint c = 0; c < 40; c++)
    scales[c] = 0.01f * (float) (c + 1);
  for (gsize i = 0; i < n; i++)
    raw[i] = (guint8) (gint8) ((gint) ((i * 7 + 3) % 251) - 100);
  bytes = g_bytes_new_take (raw, n);
  make_type (&type, 3, "@sint(8)", "@layout(NCHWc32)", 5, shape, 40, scales);
  t = zw_tensor_new (&type, bytes, &error);
  g_assert_no_error (error);
  zw_dump_type_clear (&type);
  g_assert_cmpint (t->c, ==, 40);

  f = zw_tensor_heatmap (t, 0, 37, FALSE, &error);
  g_assert_no_error (error);
  q = zw_tensor_heatmap (t, 0, 37, TRUE, &error);
  g_assert_no_error (error);
  /* hand-picked: channel 37 is block 1, lane 5; (h=2, w=3) is byte ((1*5+2)*7+3)*32+5 = 1669,
   * (1669*7+3) % 251 - 100 = 40 */
  g_assert_cmpfloat (q[2 * 7 + 3], ==, 40.0f);
  g_assert_cmpfloat (f[2 * 7 + 3], ==, 40.0f * scales[37]);
  /* (h=0, w=0): byte 1*5*7*32 + 5 = 1125 -> (7875+3) % 251 - 100 = -3 */
  g_assert_cmpfloat (q[0], ==, -3.0f);
  /* (h=4, w=6): byte ((5+4)*7+6)*32+5 = 2213 -> (15491+3) % 251 - 100 = 83 */
  g_assert_cmpfloat (q[4 * 7 + 6], ==, 83.0f);
  g_assert_cmpfloat (f[4 * 7 + 6], ==, 83.0f * scales[37]);
  for (guint y = 0; y < 5; y++)
    for (guint x = 0; x < 7; x++)
      g_assert_cmpfloat (q[y * 7 + x], ==, (float) (gint8) raw[((5 + y) * 7 + x) * 32 + 5]);

  g_assert_true (zw_tensor_get_at (t, 0, 37, 2, 3, &s, &error));
  g_assert_cmpint (s.index, ==, 1669);
  g_assert_true (s.has_q);
  g_assert_cmpint (s.q, ==, 40);
  g_assert_cmpfloat (s.scale, ==, scales[37]);
  g_assert_true (zw_tensor_coords_of (t, 1669, coords));
  g_assert_cmpint (coords[1], ==, 37);
  g_assert_cmpint (coords[2], ==, 2);
  g_assert_cmpint (coords[3], ==, 3);
  /* channel 40 is padding: not part of the tensor */
  g_assert_false (zw_tensor_coords_of (t, ((5 + 0) * 7 + 0) * 32 + 8, coords));
  g_assert_null (zw_tensor_heatmap (t, 0, 40, FALSE, &error));
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE);
}

/* ---- dump diff on the demo network --------------------------------------------------- */

typedef struct {
  char *root;
  char *a;       /* SQB, merge off */
  char *b;       /* SQB, same inputs */
  char *h;       /* HQB, same inputs */
  XirNetwork *net;
  GPtrArray *hardop_outputs;   /* XirValue* of hardop outputs, in execution order */
} Fixture;

static Fixture fixture;

static void
fixture_clear (void)
{
  if (fixture.root)
    zw_test_remove_tree (fixture.root);
  g_free (fixture.root);
  g_free (fixture.a);
  g_free (fixture.b);
  g_free (fixture.h);
  g_clear_pointer (&fixture.hardop_outputs, g_ptr_array_unref);
  g_clear_pointer (&fixture.net, xir_network_unref);
}

/* Dumps of the tiny network made by the Session with merge off: every value is dumped. */
static const Fixture *
get_fixture (void)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autofree char *json = NULL, *raw = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  GPtrArray *values;
  GRand *rand;

  if (fixture.root)
    return &fixture;
  json = g_strdup_printf ("%s/networks/tiny_ZG.json", g_getenv ("ZW_DATA_DIR"));
  raw = g_strdup_printf ("%s/networks/tiny_ZG.raw", g_getenv ("ZW_DATA_DIR"));
  fixture.net = xir_network_new_from_json_file (json, &error);
  g_assert_no_error (error);
  g_assert_true (xir_network_load_params_from_file (fixture.net, raw, &error));
  fixture.hardop_outputs = g_ptr_array_new ();
  for (guint i = 0; i < xir_network_get_n_ops (fixture.net); i++)
    {
      const XirOp *op = xir_network_get_op (fixture.net, i);
      if (op->kind == XIR_OP_HARDOP)
        g_ptr_array_add (fixture.hardop_outputs, g_ptr_array_index (op->outputs, 0));
    }
  g_assert_cmpuint (fixture.hardop_outputs->len, >=, 3);

  dev = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  view = xir_network_view (fixture.net, 0, G_MAXINT, &error);
  {
    XrtDevice *devs[] = { dev, NULL };
    s = xrt_session_new (view, types, devs, 2, &error);
  }
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), FALSE, TRUE, ZW_OCM_BEST_SCORE, &error));
  g_assert_true (xrt_session_apply (s, &error));

  inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  values = xir_network_get_inputs (fixture.net);
  rand = g_rand_new_with_seed (7);
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 i = 0; i < v->storage_bytes; i++)
        bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
      g_ptr_array_add (inputs, xrt_tensor_new_host (fixture.net, v, bytes, v->storage_bytes, NULL));
    }
  g_rand_free (rand);

  fixture.root = g_dir_make_tmp ("zw-analysis-XXXXXX", NULL);
  fixture.a = g_build_filename (fixture.root, "A", NULL);
  fixture.b = g_build_filename (fixture.root, "B", NULL);
  fixture.h = g_build_filename (fixture.root, "H", NULL);
  {
    const char *dirs[] = { fixture.a, fixture.b, fixture.h };
    const char *formats[] = { "SQB", "SQB", "HQB" };
    for (guint k = 0; k < 3; k++)
      {
        g_autoptr (GPtrArray) outs = NULL;
        g_assert_true (xrt_session_set_dump_outputs (s, TRUE, dirs[k], formats[k], &error));
        outs = xrt_session_forward (s, inputs, &error);
        g_assert_no_error (error);
      }
  }
  return &fixture;
}

/* A copy of a dump folder (the files and the manifest). */
static char *
copy_folder (const char *src, const char *name)
{
  char *dst = g_build_filename (fixture.root, name, NULL);
  g_autoptr (GDir) d = g_dir_open (src, 0, NULL);
  const char *f;

  zw_test_remove_tree (dst);
  g_assert_cmpint (g_mkdir_with_parents (dst, 0755), ==, 0);
  while ((f = g_dir_read_name (d)))
    {
      g_autofree char *from = g_build_filename (src, f, NULL);
      g_autofree char *to = g_build_filename (dst, f, NULL);
      g_autofree char *contents = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (to, contents, (gssize) len, NULL));
    }
  return dst;
}

/* Flips byte @offset of @dir/{v_id}.ftmp; returns the old byte. */
static guint8
flip_byte (const char *dir, gint64 v_id, gsize offset, guint8 xor_mask)
{
  g_autofree char *path = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", dir, v_id);
  g_autofree char *contents = NULL;
  gsize len;
  guint8 old;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (offset, <, len);
  old = (guint8) contents[offset];
  contents[offset] = (char) (old ^ xor_mask);
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  return old;
}

/* NHWC coordinates of byte @offset of the SQB file of @v. */
static void
sqb_coords (const XirValue *v, gsize offset, gint64 out[4])
{
  ZwDumpType type;
  ZwDumpFormat fmt;
  ZwDumpShape shape;

  zw_dump_type_init_from_value (&type, v);
  g_assert_true (zw_dump_format_parse ("SQB", &fmt, NULL));
  g_assert_true (zw_dump_shape_for (&type, fmt, &shape, NULL));
  zw_dump_type_clear (&type);
  g_assert_cmpstr (shape.layout, ==, "NHWC");
  out[1] = (gint64) (offset % (gsize) shape.shape[3]);
  out[3] = (gint64) ((offset / (gsize) shape.shape[3]) % (gsize) shape.shape[2]);
  out[2] = (gint64) ((offset / (gsize) shape.shape[3] / (gsize) shape.shape[2]) % (gsize) shape.shape[1]);
  out[0] = (gint64) (offset / (gsize) shape.shape[3] / (gsize) shape.shape[2] / (gsize) shape.shape[1]);
}

static void
test_diff_identical_and_layouts (void)
{
  const Fixture *f = get_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpDiff) same = zw_dump_diff_folders (f->a, f->b, f->net, NULL, NULL, &error);
  g_autoptr (ZwDumpDiff) hw = NULL;
  g_autoptr (ZwDumpManifest) m = NULL;
  g_autofree char *mpath = g_build_filename (f->a, "manifest.json", NULL);

  g_assert_no_error (error);
  m = zw_dump_manifest_load (mpath, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (m->complete);
  g_assert_null (same->first);
  g_assert_cmpuint (same->n_compared, ==, m->entries->len);
  g_assert_cmpuint (same->n_diverged, ==, 0);
  g_assert_cmpuint (same->warnings->len, ==, 0);
  /* the hardware layout (NCHWc32) compares with the software one (NHWC) at logical coordinates */
  hw = zw_dump_diff_folders (f->a, f->h, f->net, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (hw->first);
  g_assert_cmpuint (hw->n_compared, ==, m->entries->len);
  g_assert_cmpuint (hw->n_mismatch, ==, 0);
  /* execution order: producers' indices never decrease */
  for (guint i = 1; i < hw->entries->len; i++)
    g_assert_cmpint (((ZwDumpDiffEntry *) g_ptr_array_index (hw->entries, i - 1))->order, <=,
                     ((ZwDumpDiffEntry *) g_ptr_array_index (hw->entries, i))->order);
}

static void
test_diff_planted_byte (void)
{
  const Fixture *f = get_fixture ();
  const XirValue *v = g_ptr_array_index (f->hardop_outputs, f->hardop_outputs->len / 2);
  g_autofree char *dir = copy_folder (f->b, "planted");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpDiff) d = NULL;
  gsize offset = v->storage_bytes > 1000 ? 777 : v->storage_bytes / 2;
  gint64 want[4];
  guint8 old;

  g_test_message ("planting at v_id %" G_GINT64_FORMAT " byte %" G_GSIZE_FORMAT, v->v_id, offset);
  old = flip_byte (dir, v->v_id, offset, 0x5a);
  sqb_coords (v, offset, want);
  d = zw_dump_diff_folders (f->a, dir, f->net, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d->first);
  g_assert_cmpint (d->first->v_id, ==, v->v_id);
  g_assert_cmpint (d->first->op_id, ==, xir_network_get_op (f->net, (guint) v->producer)->op_id);
  g_assert_cmpuint (d->first->n_differ, ==, 1);
  g_assert_cmpuint (d->n_diverged, ==, 1);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpint (d->first->first_coords[k], ==, want[k]);
  g_assert_true (d->first->first_has_q);
  g_assert_cmpint (d->first->first_qa, ==, (gint8) old);
  g_assert_cmpint (d->first->first_qb, ==, (gint8) (old ^ 0x5a));
  g_assert_cmpfloat (d->first->max_abs_err, >, 0);
  g_assert_cmpfloat (d->first->cosine, <, 1.0);
  /* the element itself: both files' floats there */
  g_assert_cmpfloat_with_epsilon (d->first->first_a, (gint8) old * v->element.scales[want[1] % v->element.n_scales],
                                  1e-6);
  /* against the hardware-layout dump too: the same value and coordinates */
  {
    g_autoptr (ZwDumpDiff) d2 = zw_dump_diff_folders (f->h, dir, f->net, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (d2->first);
    g_assert_cmpint (d2->first->v_id, ==, v->v_id);
    for (guint k = 0; k < 4; k++)
      g_assert_cmpint (d2->first->first_coords[k], ==, want[k]);
  }
  /* a threshold above the error: nothing diverges */
  {
    ZwDumpDiffOptions opt = { .max_abs = 1e9, .cosine = 1.0 };
    g_autoptr (ZwDumpDiff) d3 = zw_dump_diff_folders (f->a, dir, f->net, NULL, &opt, &error);
    g_assert_no_error (error);
    g_assert_null (d3->first);
    g_assert_cmpuint (d3->n_diverged, ==, 0);
  }
  /* NaN thresholds make a difference diverge, never hide it (before: nothing diverged) */
  {
    ZwDumpDiffOptions opt = { .max_abs = NAN, .cosine = NAN };
    g_autoptr (ZwDumpDiff) d4 = zw_dump_diff_folders (f->a, dir, f->net, NULL, &opt, &error);
    g_assert_no_error (error);
    g_assert_nonnull (d4->first);
    g_assert_cmpint (d4->first->v_id, ==, v->v_id);
  }
}

static void
test_diff_first_in_execution_order (void)
{
  const Fixture *f = get_fixture ();
  const XirValue *early = g_ptr_array_index (f->hardop_outputs, 0);
  const XirValue *late = g_ptr_array_index (f->hardop_outputs, f->hardop_outputs->len - 1);
  g_autofree char *dir = copy_folder (f->b, "two-planted");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpDiff) d = NULL;
  guint diverged = 0;

  g_assert_cmpint (early->producer, <, late->producer);
  /* the late value gets the larger error, the early one a single low bit */
  flip_byte (dir, late->v_id, 3, 0x80);
  flip_byte (dir, late->v_id, 40, 0x40);
  flip_byte (dir, early->v_id, 5, 0x01);
  d = zw_dump_diff_folders (f->a, dir, f->net, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d->first);
  g_assert_cmpint (d->first->v_id, ==, early->v_id);
  g_assert_cmpuint (d->n_diverged, ==, 2);
  for (guint i = 0; i < d->entries->len; i++)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
      if (e->v_id == late->v_id)
        {
          g_assert_true (e->diverges);
          g_assert_cmpuint (e->n_differ, ==, 2);
          g_assert_cmpfloat (e->max_abs_err, >, d->first->max_abs_err);
          diverged++;
        }
    }
  g_assert_cmpuint (diverged, ==, 1);
}

static void
test_diff_bad_files_warn (void)
{
  const Fixture *f = get_fixture ();
  const XirValue *v = g_ptr_array_index (f->hardop_outputs, 1);
  g_autofree char *dir = copy_folder (f->b, "truncated");
  g_autofree char *path = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", dir, v->v_id);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpDiff) d = NULL;
  g_autoptr (ZwDumpManifest) m = NULL;
  g_autofree char *mpath = g_build_filename (f->a, "manifest.json", NULL);
  gsize len;
  gboolean named = FALSE;

  m = zw_dump_manifest_load (mpath, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) (len / 2), NULL));
  d = zw_dump_diff_folders (f->a, dir, f->net, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < d->warnings->len; i++)
    named |= strstr (g_ptr_array_index (d->warnings, i), path) != NULL
             && strstr (g_ptr_array_index (d->warnings, i), "truncated") != NULL;
  g_assert_true (named);
  g_assert_cmpuint (d->n_only_a, ==, 1);
  g_assert_cmpuint (d->n_compared, ==, m->entries->len - 1);
  g_assert_null (d->first);

  /* a folder of another network: a manifest with a v_id this network lacks and a shape that
   * does not match */
  {
    g_autofree char *other = g_build_filename (fixture.root, "other-net", NULL);
    g_autoptr (ZwDumpManifest) om = NULL;
    g_autoptr (ZwDumpDiff) d2 = NULL, d3 = NULL;
    static const gint64 shape[] = { 1, 1, 4, 4, 32 };
    ZwDumpFormat fmt;
    XirValue fake[2];
    guint8 bytes[512];
    gboolean w_missing = FALSE, w_shape = FALSE;

    g_assert_true (zw_dump_format_parse ("SQB", &fmt, NULL));
    om = zw_dump_manifest_new ("other", fmt, TRUE, NULL);
    memset (fake, 0, sizeof fake);
    memset (bytes, 3, sizeof bytes);
    for (guint k = 0; k < 2; k++)
      {
        fake[k].v_id = k == 0 ? 99999 : v->v_id;
        fake[k].element.storage.kind = XIR_SCALAR_SINT;
        fake[k].element.storage.bits = 8;
        g_assert_true (xir_parse_layout ("@layout(NCHWc32)", &fake[k].layout, NULL));
        fake[k].rank = 5;
        fake[k].shape = (gint64 *) shape;
        fake[k].storage_bytes = 512;
        g_assert_true (zw_dump_write_from_value (other, &fake[k], bytes, 512, fmt, NULL, &error));
        g_assert_no_error (error);
        zw_dump_manifest_add (om, &fake[k], 1, ZW_DUMP_MEMORY_ETM, -1);
      }
    g_assert_true (zw_dump_manifest_write (om, other, &error));
    d2 = zw_dump_diff_folders (f->a, other, f->net, NULL, NULL, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < d2->warnings->len; i++)
      {
        const char *w = g_ptr_array_index (d2->warnings, i);
        w_missing |= strstr (w, "99999.ftmp") != NULL && strstr (w, "not a value of network") != NULL;
        w_shape |= strstr (w, other) != NULL && strstr (w, "does not match") != NULL;
      }
    g_assert_true (w_missing);
    g_assert_true (w_shape);
    g_assert_cmpuint (d2->n_compared, ==, 0);
    g_assert_cmpuint (d2->n_only_a, ==, m->entries->len);
    /* without the network the shapes still disagree with A: a mismatch, named */
    d3 = zw_dump_diff_folders (f->a, other, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (d3->n_mismatch, ==, 1);
    g_assert_cmpuint (d3->n_only_b, ==, 1);
    g_assert_cmpuint (d3->n_compared, ==, 0);
    g_assert_cmpuint (d3->warnings->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (d3->warnings, 0), other));
  }
  /* a folder that cannot be read at all is an error naming it */
  g_assert_null (zw_dump_diff_folders (f->a, "/nonexistent/dump", f->net, NULL, NULL, &error));
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/dump"));
}

/* A folder compared with values held in memory (the current run's tensors). */
static void
test_diff_folder_vs_memory (void)
{
  const Fixture *f = get_fixture ();
  const XirValue *v = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpFolder) folder = zw_dump_folder_load (f->h, f->net, NULL, &error);
  g_autoptr (GPtrArray) side = NULL, mem = g_ptr_array_new_with_free_func ((GDestroyNotify) zw_tensor_free);
  g_autoptr (ZwDumpDiff) d = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  ZwDumpType type;

  g_assert_no_error (error);
  for (guint i = 0; i < f->hardop_outputs->len && !v; i++)
    if (g_str_equal (((XirValue *) g_ptr_array_index (f->hardop_outputs, i))->layout.text, "NCHWc32"))
      v = g_ptr_array_index (f->hardop_outputs, i);
  g_assert_nonnull (v);
  path = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", f->h, v->v_id);
  side = zw_dump_diff_load_side (folder, f->net, NULL);
  /* HQB holds the stored bytes: a tensor of the value with one byte changed */
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, ==, v->storage_bytes);
  contents[33] ^= 0x10;
  zw_dump_type_init_from_value (&type, v);
  {
    g_autoptr (GBytes) bytes = g_bytes_new (contents, len);
    g_ptr_array_add (mem, zw_tensor_new (&type, bytes, &error));
    g_assert_no_error (error);
  }
  zw_dump_type_clear (&type);
  d = zw_dump_diff_tensors (side, mem, f->net, NULL, NULL);
  g_assert_nonnull (d->first);
  g_assert_cmpint (d->first->v_id, ==, v->v_id);
  /* byte 33 of NCHWc32: block 0, lane 1, h 0, w 1 */
  g_assert_cmpint (d->first->first_coords[1], ==, 1);
  g_assert_cmpint (d->first->first_coords[2], ==, 0);
  g_assert_cmpint (d->first->first_coords[3], ==, 1);
  g_assert_cmpuint (d->n_only_a, ==, side->len - 1);
}

/* ---- compare -------------------------------------------------------------------------- */

static ZwProfile *
make_profile (double op5_ms, double op6_ms, gint64 merged_second)
{
  ZwProfile *p = zw_profile_new ("net");
  ZwProfileRow *r;
  gint64 m[2] = { 7, merged_second };

  zw_profile_add_row (p, 1, "icraft::xir::InputNode", "", 0.5, 0.5, 0, 0);
  zw_profile_add_row (p, 5, "icraft::xir::HardOpNode", "", op5_ms, 0, op5_ms - 0.1, 0.1);
  zw_profile_add_row (p, 6, "icraft::xir::HardOpNode", "", op6_ms, 0, op6_ms, 0);
  r = zw_profile_add_row (p, 100, "icraft::xir::HardOpNode", "", 2.0, 0, 2.0, 0);
  g_array_append_vals (r->merge_from, m, 2);
  zw_profile_compute_totals (p);
  return p;
}

static void
test_compare_profiles (void)
{
  g_autoptr (ZwProfile) a = make_profile (1.0, 2.0, 8);
  g_autoptr (ZwProfile) b = make_profile (1.5, 2.02, 9);   /* op 5 slower; merge group 100 differs */
  g_autoptr (ZwProfileCompare) c = zw_profile_compare (a, b, NULL);
  g_autofree char *csv = NULL;
  const ZwCompareRow *r5 = NULL, *r6 = NULL;
  guint only_a = 0, only_b = 0;

  for (guint i = 0; i < c->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (c->rows, i);
      if (r->op_id == 5)
        r5 = r;
      if (r->op_id == 6)
        r6 = r;
      only_a += r->side == ZW_COMPARE_ONLY_A;
      only_b += r->side == ZW_COMPARE_ONLY_B;
    }
  g_assert_nonnull (r5);
  g_assert_cmpint (r5->side, ==, ZW_COMPARE_BOTH);
  g_assert_cmpfloat_with_epsilon (r5->delta_ms, 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (r5->ratio, 1.5, 1e-12);
  g_assert_true (r5->regression);
  g_assert_cmpfloat_with_epsilon (r5->b_hard_ms - r5->a_hard_ms, 0.5, 1e-12);
  /* 1 % slower is within the 5 % tolerance */
  g_assert_false (r6->regression);
  g_assert_cmpfloat_with_epsilon (r6->ratio, 1.01, 1e-12);
  /* the merged launch 100 joined other ops in B: not the same launch */
  g_assert_cmpuint (only_a, ==, 1);
  g_assert_cmpuint (only_b, ==, 1);
  g_assert_cmpuint (c->n_matched, ==, 3);
  g_assert_cmpuint (c->n_regressions, ==, 1);
  g_assert_cmpfloat_with_epsilon (c->a_total_ms, 5.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (c->b_total_ms, 6.02, 1e-12);
  g_assert_cmpfloat_with_epsilon (c->delta_ms, 0.52, 1e-12);
  /* a stricter tolerance flags op 6 too, a minimum delta above 0.5 ms flags nothing */
  {
    ZwCompareOptions strict = { 0.005, 0.001 }, coarse = { 0.05, 0.6 };
    g_autoptr (ZwProfileCompare) c2 = zw_profile_compare (a, b, &strict);
    g_autoptr (ZwProfileCompare) c3 = zw_profile_compare (a, b, &coarse);
    g_assert_cmpuint (c2->n_regressions, ==, 2);
    g_assert_cmpuint (c3->n_regressions, ==, 0);
  }
  /* a NaN threshold (false in every comparison) never hides a regression (before: none was
   * found): a NaN tolerance makes every slower op one, a NaN minimum delta leaves the ratio
   * alone to decide */
  {
    ZwCompareOptions nan_tol = { NAN, 0.01 }, nan_delta = { 0.05, NAN };
    g_autoptr (ZwProfileCompare) c4 = zw_profile_compare (a, b, &nan_tol);
    g_autoptr (ZwProfileCompare) c5 = zw_profile_compare (a, b, &nan_delta);
    g_assert_cmpuint (c4->n_regressions, ==, 2);
    g_assert_cmpuint (c5->n_regressions, ==, 1);
  }
  csv = zw_profile_compare_to_csv (c);
  g_assert_true (g_str_has_prefix (csv, "op_id,op_type,op_name,merge_from,side,a_ms,b_ms,delta_ms,ratio,"));
  g_assert_nonnull (strstr (csv, "\r\n5,icraft::xir::HardOpNode,,,both,1,1.5,0.5,1.5,0.9,1.4,true\r\n"));
  g_assert_nonnull (strstr (csv, "\r\n100,icraft::xir::HardOpNode,,7;8,a,2,,-2,,2,,false\r\n"));
}

static void
test_compare_deploy_reports (void)
{
  const Fixture *f = get_fixture ();
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (XirNetworkView) view = xir_network_view (f->net, 0, G_MAXINT, &error);
  ZwDeployReport *reports[2];
  g_autoptr (ZwDeployCompare) c = NULL;
  g_autoptr (XrtSession) s0 = NULL, s1 = NULL;
  XrtDevice *devs[] = { dev, NULL };

  s0 = xrt_session_new (view, types, devs, 2, &error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s0)), TRUE, TRUE, ZW_OCM_BEST_SCORE, &error));
  g_assert_true (xrt_session_apply (s0, &error));
  s1 = xrt_session_new (view, types, devs, 2, &error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s1)), FALSE, FALSE, ZW_OCM_NONE, &error));
  g_assert_true (xrt_session_apply (s1, &error));
  g_assert_no_error (error);
  reports[0] = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s0)));
  reports[1] = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s1)));
  c = zw_deploy_compare (reports[0], reports[1]);
  g_assert_true (c->a.merge_hardop);
  g_assert_false (c->b.merge_hardop);
  g_assert_cmpint (c->b.ocm_chosen, ==, ZW_OCM_NONE);
  g_assert_cmpuint (c->a.ftmp_bytes, ==, reports[0]->ftmp_bytes);
  g_assert_cmpuint (c->b.ftmp_bytes, ==, reports[1]->sum_of_chunks);   /* ETM optimize off */
  g_assert_cmpint (c->ftmp_delta, ==, (gint64) reports[1]->ftmp_bytes - (gint64) reports[0]->ftmp_bytes);
  g_assert_cmpuint (c->a.n_launches, ==, reports[0]->launches->len);
  g_assert_cmpuint (c->b.n_launches, ==, reports[1]->launches->len);
  g_assert_cmpuint (c->b.n_hardops, ==, reports[1]->hardops->len);
  g_assert_cmpint (c->n_launches_delta, >, 0);
  g_assert_cmpuint (c->b.ocm_bytes, ==, 0);
  g_assert_cmpfloat (c->b.estimated_ms, ==, reports[1]->none_cost_ms);
  zw_deploy_report_unref (reports[0]);
  zw_deploy_report_unref (reports[1]);
}

/* ---- the CLI ---------------------------------------------------------------------------- */


static void
test_cli_profile_vendor (void)
{
  g_autofree char *vendor = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "bytetrack_BY_int8_time.txt", NULL);
  g_autofree char *dir = NULL, *csv = NULL, *trace = NULL, *text = NULL;
  g_autoptr (ZwProfile) src = NULL, back = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (ZwRun) r1 = { 0 };
  g_auto (ZwRun) r2 = { 0 };
  g_auto (ZwRun) r3 = { 0 };
  ZwProfileFormat fmt;
  cJSON *root, *events, *ev;
  guint complete = 0;

  if (!g_file_test (vendor, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the vendor time file (../shared/real) is absent");
      return;
    }
  src = zw_profile_load (vendor, NULL, NULL, &error);
  g_assert_no_error (error);
  dir = g_dir_make_tmp ("zw-analysis-cli-XXXXXX", NULL);
  csv = g_build_filename (dir, "t.csv", NULL);
  trace = g_build_filename (dir, "t_trace.json", NULL);

  zw_test_xrt_run (&r1, "report", "profile", vendor, "--to", "csv", "-o", csv, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  back = zw_profile_load (csv, NULL, &fmt, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fmt, ==, ZW_PROFILE_FORMAT_CSV);
  g_assert_cmpuint (back->rows->len, ==, src->rows->len);
  for (guint i = 0; i < src->rows->len; i++)
    {
      const ZwProfileRow *x = g_ptr_array_index (src->rows, i), *y = g_ptr_array_index (back->rows, i);
      g_assert_cmpint (x->op_id, ==, y->op_id);
      g_assert_cmpfloat (x->total_ms, ==, y->total_ms);
      g_assert_cmpfloat (x->other_ms, ==, y->other_ms);   /* negative other times survive */
    }

  zw_test_xrt_run (&r2, "report", "profile", vendor, "--to", "trace", "-o", trace, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_true (g_file_get_contents (trace, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  events = cJSON_GetObjectItem (root, "traceEvents");
  g_assert_true (cJSON_IsArray (events));
  cJSON_ArrayForEach (ev, events)
    {
      const cJSON *ph = cJSON_GetObjectItem (ev, "ph");
      if (cJSON_IsString (ph) && g_str_equal (ph->valuestring, "X"))
        {
          const ZwProfileRow *row = g_ptr_array_index (src->rows, complete);
          g_assert_cmpfloat_with_epsilon (cJSON_GetObjectItem (ev, "dur")->valuedouble, row->total_ms * 1000.0, 1e-6);
          complete++;
        }
    }
  g_assert_cmpuint (complete, ==, src->rows->len);
  cJSON_Delete (root);

  /* vendor -> vendor is the same text */
  zw_test_xrt_run (&r3, "report", "profile", vendor, "--to", "vendor", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  {
    g_autofree char *orig = NULL;
    g_assert_true (g_file_get_contents (vendor, &orig, NULL, NULL));
    g_assert_cmpstr (r3.out, ==, orig);
  }
  g_unlink (csv);
  g_unlink (trace);
  g_rmdir (dir);
}

static void
test_cli_profile_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-analysis-cli-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "garbage_time.txt", NULL);
  g_auto (ZwRun) r1 = { 0 };
  g_auto (ZwRun) r2 = { 0 };
  g_auto (ZwRun) r3 = { 0 };

  g_assert_true (g_file_set_contents (bad, "this is not\na time profile\n", -1, NULL));
  zw_test_xrt_run (&r1, "report", "profile", bad, "--to", "csv", NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_nonnull (strstr (r1.err, bad));
  zw_test_xrt_run (&r2, "report", "profile", bad, "--to", "png", NULL);
  g_assert_cmpint (r2.status, ==, 2);
  zw_test_xrt_run (&r3, "report", "frobnicate", NULL);
  g_assert_cmpint (r3.status, ==, 2);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_cli_diff_exit_codes (void)
{
  const Fixture *f = get_fixture ();
  const XirValue *v = g_ptr_array_index (f->hardop_outputs, 1);
  g_autofree char *dir = copy_folder (f->b, "cli-planted");
  g_autofree char *json = g_build_filename (fixture.root, "diff.json", NULL);
  g_autofree char *text = NULL, *want = NULL;
  g_auto (ZwRun) same = { 0 };
  g_auto (ZwRun) differ = { 0 };
  g_auto (ZwRun) stats = { 0 };
  g_auto (ZwRun) usage = { 0 };
  cJSON *root, *first;
  gint64 coords[4];

  zw_test_xrt_run (&same, "report", "diff", f->a, f->h, "--net", xir_network_get_path (f->net), NULL);
  g_assert_cmpint (same.status, ==, 0);
  g_assert_nonnull (strstr (same.out, "No value diverges"));

  flip_byte (dir, v->v_id, 11, 0x22);
  sqb_coords (v, 11, coords);
  zw_test_xrt_run (&differ, "report", "diff", f->a, dir, "--json", json, NULL);
  g_assert_cmpint (differ.status, ==, 1);
  want = g_strdup_printf ("First divergent value: v_id %" G_GINT64_FORMAT, v->v_id);
  g_assert_nonnull (strstr (differ.out, want));
  g_assert_nonnull (strstr (differ.out, "<- FIRST DIVERGENT"));
  g_assert_true (g_file_get_contents (json, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  first = cJSON_GetObjectItem (root, "first");
  g_assert_cmpint (cJSON_GetObjectItem (first, "v_id")->valueint, ==, v->v_id);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (first, "first"), "c")->valueint, ==, coords[1]);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (first, "first"), "w")->valueint, ==, coords[3]);
  g_assert_cmpint (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "counts"), "diverged")->valueint, ==, 1);
  cJSON_Delete (root);

  {
    g_autofree char *vid = g_strdup_printf ("%" G_GINT64_FORMAT, v->v_id);
    g_autofree char *at = g_strdup_printf ("0,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, coords[1],
                                           coords[2], coords[3]);
    zw_test_xrt_run (&stats, "report", "stats", f->a, "--v-id", vid, "--at", at, NULL);
    g_assert_cmpint (stats.status, ==, 0);
    g_assert_nonnull (strstr (stats.out, "Histogram (quantised levels):"));
    g_assert_nonnull (strstr (stats.out, "quantised"));
  }
  zw_test_xrt_run (&usage, "report", "diff", f->a, NULL);
  g_assert_cmpint (usage.status, ==, 2);
  g_unlink (json);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/stats/float-dump-nan-inf-by-hand", test_stats_float_dump);
  g_test_add_func ("/analysis/stats/int8-levels-scales-padding-by-hand", test_stats_int8_levels);
  g_test_add_func ("/analysis/heatmap/nchwc32-channel-hand-picked", test_heatmap_nchwc32);
  g_test_add_func ("/analysis/diff/identical-and-hardware-vs-software-layout", test_diff_identical_and_layouts);
  g_test_add_func ("/analysis/diff/finds-planted-byte-value-and-coords", test_diff_planted_byte);
  g_test_add_func ("/analysis/diff/first-divergent-is-earliest-in-execution-order", test_diff_first_in_execution_order);
  g_test_add_func ("/analysis/diff/truncated-file-and-other-network-warn", test_diff_bad_files_warn);
  g_test_add_func ("/analysis/diff/folder-vs-values-in-memory", test_diff_folder_vs_memory);
  g_test_add_func ("/analysis/compare/profile-regression-flagged", test_compare_profiles);
  g_test_add_func ("/analysis/compare/deploy-reports", test_compare_deploy_reports);
  g_test_add_func ("/analysis/cli/report-profile-vendor-to-csv-and-trace", test_cli_profile_vendor);
  g_test_add_func ("/analysis/cli/report-profile-bad-input", test_cli_profile_errors);
  g_test_add_func ("/analysis/cli/report-diff-exit-codes-and-stats", test_cli_diff_exit_codes);
  rc = g_test_run ();
  fixture_clear ();
  return rc;
}
