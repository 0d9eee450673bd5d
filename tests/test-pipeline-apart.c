/* test-pipeline-apart.c — a pipeline's pass against the same networks run apart (issue 38),
 * suite core: the demo pipeline run for one profiled pass, then each of its networks alone on
 * a simulated board with the same options (xrt_pipeline_apart_to_json). The networks apart
 * take exactly the ETM the pass's report says they take apart (network by network and the
 * sum: one code path), their times sum to the apart total, and the comparison's headline
 * (zw_pipeline_compare_apart) is the pass's report's time and ETM against those sums, rows
 * NET:OP_ID of every network; a network of the pass missing apart is refused by name.
 * `xrt-run run PIPE.toml --apart` prints that headline, a line per network; `plan --apart` is
 * refused. Two whole networks connected output -> input (tiny_tail_pipeline.toml): the
 * Output and Input ops of the connected value cost their fixed dispatch alone. */
#include "deploy/xrt-pipeline.h"
#include "deploy/xrt-pipeline-apart.h"
#include "report/zw-pipeline-apart.h"

#include "zw-test-util.h"

#include <math.h>
#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

static char *last_headline;   /* test_apart's, for the CLI's */

static void
test_apart (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
  g_autoptr (XrtPipeline) pipe = NULL;
  g_autoptr (GPtrArray) outputs = NULL;
  g_autoptr (cJSON) root = NULL;
  g_autoptr (cJSON) apart_root = NULL;
  g_autoptr (ZwPipelineReport) pass = NULL;
  g_autoptr (ZwPipelineReport) apart = NULL;
  g_autoptr (ZwPipelineReport) missing = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autofree char *text = NULL;
  ZwPipelineApartHeadline h = { 0 };
  guint64 etm_sum = 0;
  double ms_sum = 0;

  pipe = xrt_pipeline_new_from_file (path, &error);
  g_assert_no_error (error);
  root = zw_test_pipeline_pass (pipe, path, &outputs);
  pass = zw_pipeline_report_from_json (root, path, &error);
  g_assert_no_error (error);

  apart_root = xrt_pipeline_apart_to_json (pipe, 0, &error);
  g_assert_no_error (error);
  apart = zw_pipeline_report_from_json (apart_root, path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (apart->name, ==, "yolov5s-pipeline (apart)");
  g_assert_cmpuint (apart->networks->len, ==, pass->networks->len);
  g_assert_cmpuint (apart->shares->len, ==, 0);
  g_assert_cmpuint (apart->connections->len, ==, 0);
  for (guint i = 0; i < pass->networks->len; i++)
    {
      const ZwPipelineNetwork *p = &g_array_index (pass->networks, ZwPipelineNetwork, i);
      const ZwPipelineNetwork *a = &g_array_index (apart->networks, ZwPipelineNetwork, i);
      g_assert_cmpstr (a->name, ==, p->name);
      g_assert_cmpint (a->on_board, ==, p->on_board);
      /* the ETM apart is the report's, to the byte */
      g_assert_cmpuint (a->apart_etm_bytes, ==, p->apart_etm_bytes);
      g_assert_true (a->time_ms > 0);
      g_assert_nonnull (a->profile);
      if (p->on_board)
        {
          g_assert_nonnull (a->report);
          g_assert_cmpuint (a->apart_etm_bytes, >, 0);
          g_assert_cmpint (a->report->merge_hardop, ==, p->report->merge_hardop);
          g_assert_cmpint (a->report->ocm_requested, ==, p->report->ocm_requested);
          g_assert_cmpuint (a->report->launches->len, ==, p->report->launches->len);
        }
      g_test_message ("%s: pass %.6f ms, apart %.6f ms, ETM apart %" G_GUINT64_FORMAT, p->name, p->time_ms, a->time_ms,
                      a->apart_etm_bytes);
      etm_sum += a->apart_etm_bytes;
      ms_sum += a->time_ms;
    }
  g_assert_cmpuint (apart->apart_bytes, ==, etm_sum);
  g_assert_cmpuint (apart->apart_bytes, ==, pass->apart_bytes);
  g_assert_cmpfloat_with_epsilon (apart->pass_ms, ms_sum, 1e-9);
  /* sharing FTMP saves ETM on the demo */
  g_assert_cmpuint (pass->board_bytes, <, pass->apart_bytes);

  cmp = zw_pipeline_compare_apart (pass, apart, NULL, &h, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (h.pass_ms, ==, pass->pass_ms);
  g_assert_cmpfloat (h.apart_ms, ==, apart->pass_ms);
  g_assert_cmpuint (h.board_bytes, ==, pass->board_bytes);
  g_assert_cmpuint (h.apart_bytes, ==, pass->apart_bytes);
  g_assert_cmpfloat_with_epsilon (cmp->a_total_ms, pass->pass_ms, 1e-6);
  g_assert_cmpfloat_with_epsilon (cmp->b_total_ms, apart->pass_ms, 1e-6);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  for (guint i = 0; i < pass->networks->len; i++)
    {
      const ZwPipelineNetwork *p = &g_array_index (pass->networks, ZwPipelineNetwork, i);
      const ZwPipelineNetwork *a = &g_array_index (apart->networks, ZwPipelineNetwork, i);
      double da = 0, db = 0;
      guint rows = 0;
      for (guint k = 0; k < cmp->rows->len; k++)
        {
          const ZwCompareRow *r = g_ptr_array_index (cmp->rows, k);
          g_assert_nonnull (r->network);
          if (!g_str_equal (r->network, p->name))
            continue;
          rows++;
          da += r->a_ms;
          db += r->b_ms;
          g_assert_cmpfloat_with_epsilon (r->delta_ms, r->b_ms - r->a_ms, 1e-9);
        }
      /* each network's rows hold its pass time and its time apart */
      g_assert_cmpuint (rows, >, 0);
      g_assert_cmpfloat_with_epsilon (da, p->profile->total_ms, 1e-6);
      g_assert_cmpfloat_with_epsilon (db, a->profile->total_ms, 1e-6);
    }
  text = zw_pipeline_apart_headline_text (&h);
  last_headline = g_strdup (text);
  g_assert_nonnull (strstr (text, "saves"));
  {
    g_autofree char *want = g_strdup_printf ("%.3f ms", h.pass_ms);
    g_assert_nonnull (strstr (text, want));
  }

  /* a network of the pass not run apart: refused by name */
  cJSON_DeleteItemFromArray (cJSON_GetObjectItemCaseSensitive (apart_root, "networks"), 3);
  missing = zw_pipeline_report_from_json (apart_root, path, &error);
  g_assert_no_error (error);
  g_assert_null (zw_pipeline_compare_apart (pass, missing, NULL, &h, &error));
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "tiny"));
}

/* The device profile's figures, read here from the file itself (not through the runtime). */
static void
profile_figures (double *etm_bandwidth, double *clock_hz)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SOURCE_DATA_DIR"), "devices", "zg330.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (cJSON) root = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  *etm_bandwidth = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (root, "etm_bandwidth_bytes_per_s"));
  *clock_hz = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (root, "icore_clock_hz"));
  g_assert_cmpfloat (*etm_bandwidth, ==, 12.8e9);
  g_assert_cmpfloat (*clock_hz, ==, 1e9);
}

/* One profiled pass of the demo pipeline, zero-copy or every connection staged. */
static ZwPipelineReport *
demo_pass (const char *path, gboolean staged, GPtrArray **outputs, cJSON **apart_root)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) pipe = xrt_pipeline_new_from_file (path, &error);
  g_autoptr (cJSON) root = NULL;
  ZwPipelineReport *r;

  g_assert_no_error (error);
  if (staged)
    xrt_pipeline_force_staged (pipe);
  root = zw_test_pipeline_pass (pipe, path, outputs);
  r = zw_pipeline_report_from_json (root, path, &error);
  g_assert_no_error (error);
  if (apart_root != NULL)
    {
      *apart_root = xrt_pipeline_apart_to_json (pipe, 0, &error);
      g_assert_no_error (error);
    }
  return r;
}

static double
network_ms (const ZwPipelineReport *r, const char *name)
{
  for (guint i = 0; i < r->networks->len; i++)
    if (g_str_equal (g_array_index (r->networks, ZwPipelineNetwork, i).name, name))
      return g_array_index (r->networks, ZwPipelineNetwork, i).time_ms;
  g_assert_not_reached ();
  return 0;
}

/* What a connection changes in simulated time, against figures computed here from the
 * values' sizes (the network file) and the device profile (its file): run apart, the
 * backbone reads each feature map back to the host and the head writes it to the board
 * (bytes / ETM bandwidth each, the session's host transfers); connected zero-copy neither
 * happens, so the pass is faster by exactly those two transfers, one in each network. Staged, both ends of every connection copy the value ETM to ETM (the hardop
 * model's ETM term, ceil(2 · bytes · clock / bandwidth) cycles each), so the pass costs
 * those copies more than zero-copy, backbone (its copies out) and head (its copies in)
 * alike. The outputs are the same bytes in all three runs. */
static void
test_connection_cost (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
  g_autofree char *json = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_ZG.json", NULL);
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, &error);
  g_autoptr (GPtrArray) out_zero = NULL;
  g_autoptr (GPtrArray) out_staged = NULL;
  g_autoptr (cJSON) apart_root = NULL;
  g_autoptr (ZwPipelineReport) zero = NULL;
  g_autoptr (ZwPipelineReport) staged = NULL;
  g_autoptr (ZwPipelineReport) apart = NULL;
  double bw, clk, host_ms = 0, copy_ms = 0;
  guint on_board = 0;

  g_assert_no_error (error);
  profile_figures (&bw, &clk);
  zero = demo_pass (path, FALSE, &out_zero, &apart_root);
  staged = demo_pass (path, TRUE, &out_staged, NULL);
  apart = zw_pipeline_report_from_json (apart_root, path, &error);
  g_assert_no_error (error);

  for (guint k = 0; k < zero->connections->len; k++)
    {
      const ZwPipelineConnection *c = &g_array_index (zero->connections, ZwPipelineConnection, k);
      const XirValue *v = xir_network_get_value (net, c->output_v_id);
      guint64 cycles;
      g_assert_nonnull (v);
      if (g_str_equal (c->from_mode, "host"))
        continue;   /* to the host network: through host memory either way */
      g_assert_cmpstr (c->from_mode, ==, "zero-copy");
      g_assert_cmpstr (c->to_mode, ==, "zero-copy");
      on_board++;
      host_ms += (double) v->storage_bytes / bw * 1e3;
      cycles = (guint64) ceil (2.0 * (double) v->storage_bytes * clk / bw - 1e-9);
      copy_ms += 2 * (double) cycles * 1e3 / clk;   /* the backbone's copy out, the head's copy in */
    }
  g_assert_cmpuint (on_board, ==, 3);   /* the three feature maps, 901120 bytes */
  g_assert_cmpfloat_with_epsilon (host_ms, 901120 / 12.8e9 * 1e3, 1e-12);
  g_assert_cmpfloat_with_epsilon (copy_ms, 4 * 901120 / 12.8e9 * 1e3, 1e-12);
  for (guint k = 0; k < staged->connections->len; k++)
    {
      const ZwPipelineConnection *c = &g_array_index (staged->connections, ZwPipelineConnection, k);
      if (!g_str_equal (c->from_mode, "host"))
        g_assert_cmpstr (c->to_mode, ==, "staged");
    }

  g_test_message ("pass %.6f ms zero-copy, %.6f ms staged, %.6f ms apart; host transfers %.6f ms, copies %.6f ms",
                  zero->pass_ms, staged->pass_ms, apart->pass_ms, host_ms, copy_ms);
  /* zero-copy: faster than apart by the backbone's read backs and the head's writes */
  g_assert_cmpfloat (zero->pass_ms, <, apart->pass_ms);
  g_assert_cmpfloat_with_epsilon (apart->pass_ms - zero->pass_ms, 2 * host_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (network_ms (apart, "backbone") - network_ms (zero, "backbone"), host_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (network_ms (apart, "head") - network_ms (zero, "head"), host_ms, 1e-9);
  g_assert_cmpfloat (network_ms (apart, "post"), ==, network_ms (zero, "post"));
  g_assert_cmpfloat (network_ms (apart, "tiny"), ==, network_ms (zero, "tiny"));
  /* staged: the copies, half on each side of the connection */
  g_assert_cmpfloat_with_epsilon (staged->pass_ms - zero->pass_ms, copy_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (network_ms (staged, "backbone") - network_ms (zero, "backbone"), copy_ms / 2, 1e-9);
  g_assert_cmpfloat_with_epsilon (network_ms (staged, "head") - network_ms (zero, "head"), copy_ms / 2, 1e-9);
  /* the headline says why: the connections on the board, their bytes, how many staged */
  {
    g_autoptr (ZwProfileCompare) cz = NULL;
    g_autoptr (ZwProfileCompare) cs = NULL;
    g_autofree char *tz = NULL;
    g_autofree char *ts = NULL;
    g_autofree char *size = NULL;
    g_autofree char *want = NULL;
    ZwPipelineApartHeadline hz = { 0 }, hs = { 0 };

    cz = zw_pipeline_compare_apart (zero, apart, NULL, &hz, &error);
    g_assert_no_error (error);
    cs = zw_pipeline_compare_apart (staged, apart, NULL, &hs, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hz.connected, ==, 3);
    g_assert_cmpuint (hz.connected_bytes, ==, 901120);
    g_assert_cmpuint (hz.staged, ==, 0);
    g_assert_cmpuint (hs.connected, ==, 3);
    g_assert_cmpuint (hs.staged, ==, 3);
    tz = zw_pipeline_apart_headline_text (&hz);
    ts = zw_pipeline_apart_headline_text (&hs);
    g_assert_nonnull (strstr (tz, "(-0.141 ms)"));
    size = g_format_size_full (901120, G_FORMAT_SIZE_IEC_UNITS);   /* 880.0 KiB */
    want = g_strdup_printf ("3 connection(s) on the board carry %s with no host transfer, 0 staged", size);
    g_test_message ("%s\n%s", tz, ts);
    g_assert_nonnull (strstr (tz, want));
    g_assert_nonnull (strstr (ts, "(+0.141 ms)"));
    g_assert_nonnull (strstr (ts, ", 3 staged (copied ETM to ETM)"));
  }
  /* the same bytes either way */
  g_assert_cmpuint (out_zero->len, ==, out_staged->len);
  for (guint i = 0; i < out_zero->len; i++)
    {
      GPtrArray *a = g_ptr_array_index (out_zero, i), *b = g_ptr_array_index (out_staged, i);
      g_assert_cmpuint (a->len, ==, b->len);
      for (guint k = 0; k < a->len; k++)
        {
          XrtTensor *ta = g_ptr_array_index (a, k), *tb = g_ptr_array_index (b, k);
          g_autofree guint8 *pa = xrt_tensor_dup_bytes (ta, &error);
          g_autofree guint8 *pb = xrt_tensor_dup_bytes (tb, &error);
          g_assert_no_error (error);
          g_assert_cmpmem (pa, xrt_tensor_get_size (ta), pb, xrt_tensor_get_size (tb));
        }
    }
}

/* A number of the device profile, read here from its file (not through the runtime). */
static double
device_number (const char *key)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SOURCE_DATA_DIR"), "devices", "zg330.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (cJSON) root = NULL;
  cJSON *n;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  n = cJSON_GetObjectItemCaseSensitive (root, key);
  g_assert_true (cJSON_IsNumber (n));
  return n->valuedouble;
}

/* The bytes of the first value of op @type's @side ("inputs", "outputs") in a network file,
 * from its shape and 8-bit storage type as the file writes them. */
static guint64
json_value_bytes (const char *json, const char *type, const char *side)
{
  g_autofree char *text = NULL;
  g_autoptr (cJSON) root = NULL;
  cJSON *op;

  g_assert_true (g_file_get_contents (json, &text, NULL, NULL));
  root = cJSON_Parse (text);
  g_assert_nonnull (root);
  cJSON_ArrayForEach (op, cJSON_GetObjectItemCaseSensitive (root, "ops"))
    if (g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (op, "_type_key")), type) == 0)
      {
        cJSON *dtype = cJSON_GetObjectItemCaseSensitive (
          cJSON_GetArrayItem (cJSON_GetObjectItemCaseSensitive (op, side), 0), "dtype");
        cJSON *element = cJSON_GetObjectItemCaseSensitive (dtype, "element_dtype");
        const char *storage = cJSON_IsString (element) ? element->valuestring
                              : cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (element, "storage_dtype"));
        cJSON *d;
        guint64 n = 1;
        g_assert_true (g_strcmp0 (storage, "@sint(8)") == 0 || g_strcmp0 (storage, "@uint(8)") == 0);
        cJSON_ArrayForEach (d, cJSON_GetObjectItemCaseSensitive (dtype, "shape"))
          n *= (guint64) d->valuedouble;
        return n;
      }
  g_assert_not_reached ();
  return 0;
}

/* Network @name's profile row of its one op of type @type ("icraft::xir::OutputNode"). */
static const ZwProfileRow *
io_row (const ZwPipelineReport *r, const char *name, const char *type)
{
  for (guint i = 0; i < r->networks->len; i++)
    {
      const ZwPipelineNetwork *n = &g_array_index (r->networks, ZwPipelineNetwork, i);
      if (!g_str_equal (n->name, name))
        continue;
      g_assert_nonnull (n->profile);
      for (guint k = 0; k < n->profile->rows->len; k++)
        {
          const ZwProfileRow *row = g_ptr_array_index (n->profile->rows, k);
          if (g_str_equal (row->op_type, type))
            return row;
        }
    }
  g_assert_not_reached ();
  return NULL;
}

/* Two whole networks connected output -> input (the demo tiny_tail_pipeline.toml: the
 * generator's tiny, whose Output op reads the map that tail's Input op gives): the connected value never passes the host, so tiny's
 * Output op and tail's Input op cost the host op's fixed dispatch alone — host_op_fixed_us at
 * host_cpu_clock_hz, computed here from the device profile's file — zero-copy and staged
 * alike, while the ops' unconnected values (tiny's image in, tail's map out) and the same
 * networks run apart still pay fixed + ceil(bytes / host_copy_bytes_per_cycle), bytes
 * recomputed from the network files' shapes. Each network's pass is faster than apart by
 * exactly the connected value's host transfer (bytes / ETM bandwidth) and that copy. */
static void
test_whole_networks_io_cost (void)
{
  g_autofree char *origin = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_tail_pipeline.toml", NULL);
  g_autofree char *tiny = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *tail = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tail_ZG.json", NULL);
  ZwPipelineReport *pass[2] = { NULL, NULL };   /* zero-copy, staged */
  g_autoptr (ZwPipelineReport) apart = NULL;
  double clk = device_number ("host_cpu_clock_hz"), bpc = device_number ("host_copy_bytes_per_cycle");
  double bw = device_number ("etm_bandwidth_bytes_per_s"), icore = device_number ("icore_clock_hz");
  guint64 fixed = (guint64) llround (device_number ("host_op_fixed_us") * 1e-6 * clk);
  guint64 bytes = json_value_bytes (tiny, "icraft::xir::Output", "inputs");
  guint64 image = json_value_bytes (tiny, "icraft::xir::Input", "outputs");
  double fixed_ms = (double) fixed * 1e3 / clk;
  double copy_ms = (double) (guint64) ceil ((double) bytes / bpc) * 1e3 / clk;
  double image_ms = (double) (guint64) ceil ((double) image / bpc) * 1e3 / clk;
  double transfer_ms = (double) bytes / bw * 1e3;
  double staged_ms = (double) (guint64) ceil (2.0 * (double) bytes * icore / bw - 1e-9) * 1e3 / icore;

  /* the figures of data/devices/zg330.json and the generator's tiny and tail */
  g_assert_cmpuint (fixed, ==, 20000);
  g_assert_cmpfloat (bpc, ==, 2);
  g_assert_cmpuint (bytes, ==, 8192);
  g_assert_cmpuint (json_value_bytes (tail, "icraft::xir::Input", "outputs"), ==, bytes);
  g_assert_cmpuint (json_value_bytes (tail, "icraft::xir::Output", "inputs"), ==, bytes);
  g_assert_cmpuint (image, ==, 768);

  for (guint staged = 0; staged < 2; staged++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtPipeline) pipe = xrt_pipeline_new_from_file (origin, &error);
      g_autoptr (cJSON) root = NULL;
      const ZwPipelineConnection *c;

      g_assert_no_error (error);
      if (staged)
        xrt_pipeline_force_staged (pipe);
      root = zw_test_pipeline_pass (pipe, origin, NULL);
      pass[staged] = zw_pipeline_report_from_json (root, origin, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (pass[staged]->connections->len, ==, 1);
      c = &g_array_index (pass[staged]->connections, ZwPipelineConnection, 0);
      g_assert_cmpstr (c->from_mode, ==, staged ? "staged" : "zero-copy");
      g_assert_cmpstr (c->to_mode, ==, staged ? "staged" : "zero-copy");
      if (!staged)
        {
          g_autoptr (cJSON) apart_root = xrt_pipeline_apart_to_json (pipe, 0, &error);
          g_assert_no_error (error);
          apart = zw_pipeline_report_from_json (apart_root, origin, &error);
          g_assert_no_error (error);
        }
      /* connected: the fixed cost alone, no host transfer either */
      g_assert_cmpfloat_with_epsilon (io_row (pass[staged], "tiny", "icraft::xir::OutputNode")->other_ms, fixed_ms, 1e-12);
      g_assert_cmpfloat_with_epsilon (io_row (pass[staged], "tail", "icraft::xir::InputNode")->other_ms, fixed_ms, 1e-12);
      g_assert_cmpfloat (io_row (pass[staged], "tiny", "icraft::xir::OutputNode")->memcpy_ms, ==, 0);
      /* not connected, in the same pass: the copy of their bytes */
      g_assert_cmpfloat_with_epsilon (io_row (pass[staged], "tiny", "icraft::xir::InputNode")->other_ms,
                                      fixed_ms + image_ms, 1e-12);
      g_assert_cmpfloat_with_epsilon (io_row (pass[staged], "tail", "icraft::xir::OutputNode")->other_ms,
                                      fixed_ms + copy_ms, 1e-12);
    }
  g_test_message ("pass %.6f ms zero-copy, %.6f ms staged, %.6f ms apart; fixed %.6f ms, copy %.6f ms, transfer %.6f ms",
                  pass[0]->pass_ms, pass[1]->pass_ms, apart->pass_ms, fixed_ms, copy_ms, transfer_ms);
  /* apart, the same ops copy the value */
  g_assert_cmpfloat_with_epsilon (io_row (apart, "tiny", "icraft::xir::OutputNode")->other_ms, fixed_ms + copy_ms, 1e-12);
  g_assert_cmpfloat_with_epsilon (io_row (apart, "tail", "icraft::xir::InputNode")->other_ms, fixed_ms + copy_ms, 1e-12);
  /* the pass saves exactly the transfer and the copy in each network; staged pays its ETM copies */
  g_assert_cmpfloat_with_epsilon (network_ms (apart, "tiny") - network_ms (pass[0], "tiny"), transfer_ms + copy_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (network_ms (apart, "tail") - network_ms (pass[0], "tail"), transfer_ms + copy_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (apart->pass_ms - pass[0]->pass_ms, 2 * (transfer_ms + copy_ms), 1e-9);
  g_assert_cmpfloat_with_epsilon (pass[1]->pass_ms - pass[0]->pass_ms, 2 * staged_ms, 1e-9);
  zw_pipeline_report_unref (pass[0]);
  zw_pipeline_report_unref (pass[1]);
}

static void
test_cli (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "yolov5s_pipeline.toml", NULL);
  g_auto (ZwRun) run = { 0 }, plan = { 0 };
  const char *names[] = { "backbone", "head", "post", "tiny" };

  g_assert_nonnull (last_headline);
  zw_test_xrt_run (&run, "run", path, "--apart", NULL);
  g_assert_cmpint (run.status, ==, 0);
  /* the same headline as the model's for the same file (the board is simulated) */
  g_assert_nonnull (strstr (run.out, last_headline));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *line = g_strdup_printf ("  %-12s pass ", names[i]);
      g_assert_nonnull (strstr (run.out, line));
    }
  g_assert_nonnull (strstr (run.out, "  ops: "));
  zw_test_xrt_run (&plan, "plan", path, "--apart", NULL);
  g_assert_cmpint (plan.status, ==, 2);
  g_assert_nonnull (strstr (plan.err, "--apart are options of run"));
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pipeline-apart/networks-apart-etm-is-the-reports-headline-sums", test_apart);
  g_test_add_func ("/pipeline-apart/cli-run-apart-prints-the-headline", test_cli);
  g_test_add_func ("/pipeline-apart/connections-save-host-transfers-staged-pays-copies", test_connection_cost);
  g_test_add_func ("/pipeline-apart/whole-networks-connected-io-ops-cost-fixed-only", test_whole_networks_io_cost);
  status = g_test_run ();
  g_free (last_headline);
  return status;
}
