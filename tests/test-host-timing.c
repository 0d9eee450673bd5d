/* test-host-timing.c — simulated host-op times from the board's
 * host-CPU cost model (never the dev host's clock, which is kept apart as a labelled
 * figure), and time profiles laid out in execution order with impossible rows flagged. */
#include "zw-test-util.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <cjson/cJSON.h>

#include "backends/host/host-cost.h"
#include "backends/zg330/zg330-backend.h"
#include "devices/zg330-timing.h"
#include "report/zw-compare.h"
#include "report/zw-profile.h"
#include "xrt/xrt-device.h"
#include "xrt/xrt-session.h"

/* ---- a small host-op network in the vendor's JSON ------------------------------------ */

static void
io (cJSON *op, const char *side, cJSON *v)
{
  cJSON_AddItemToArray (cJSON_GetObjectItem (op, side), cJSON_Duplicate (v, TRUE));
}

/* Input (v1 uint8 [1,4,6,3] = 72 B, v3 int8 head [1,12,2,3,32] = 2304 B) -> Cast (v1 -> v4
 * int8 NHWC 72 B) -> Resize nearest (v1 -> v5 [1,8,12,3] = 288 elements) and bilinear
 * (v1 -> v6 [1,8,12,3]) -> DetPostZG (v3 -> v7) -> Output (v4, v5, v6, v7). */
static XirNetwork *
make_network (void)
{
  static const int s_img[] = { 1, 4, 6, 3 }, s_head[] = { 1, 12, 2, 3, 32 }, s_big[] = { 1, 8, 12, 3 },
                   s_det[] = { 1, 2, 3, 384 };
  static const int thr[] = { -15 };
  cJSON *root = cJSON_CreateObject ();
  cJSON *ops = cJSON_AddArrayToObject (root, "ops");
  cJSON *v1 = zw_test_value_json (1, "@uint(8)", NULL, "NHWC", s_img, 4, "@chunk(0@0)");
  cJSON *v3 = zw_test_value_json (3, "@sint(8)", "384*0.125", "NCHWc32", s_head, 5, "@chunk(2@0)");
  cJSON *v4 = zw_test_value_json (4, "@sint(8)", "3*0.5", "NHWC", s_img, 4, "@chunk(3@0)");
  cJSON *v5 = zw_test_value_json (5, "@uint(8)", NULL, "NHWC", s_big, 4, "@chunk(4@0)");
  cJSON *v6 = zw_test_value_json (6, "@uint(8)", NULL, "NHWC", s_big, 4, "@chunk(5@0)");
  cJSON *v7 = zw_test_value_json (7, "@sint(8)", "384*1", "NHWC", s_det, 4, "@hostm");
  cJSON *o, *vals[] = { v1, v3, v4, v5, v6, v7 };
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  XirNetwork *net;

  cJSON_AddStringToObject (root, "_type_key", "icraft::xir::Network");
  cJSON_AddStringToObject (root, "ai_target", "@zhuget(330)");
  cJSON_AddStringToObject (root, "framework_kind", "PYTORCH");
  cJSON_AddStringToObject (root, "framework_version", "1.9");
  cJSON_AddStringToObject (root, "icraft_version", "v3.33.1");
  cJSON_AddStringToObject (root, "icraft_xir_version", "3.33.1.0");
  cJSON_AddStringToObject (root, "name", "host_timing");
  cJSON_AddItemToObject (root, "tags", cJSON_CreateObject ());

  o = zw_test_op_json (ops, "icraft::xir::Input", "@hostt", 0);
  io (o, "outputs", v1);
  io (o, "outputs", v3);
  o = zw_test_op_json (ops, "icraft::xir::Cast", "@hostt", 1);
  io (o, "inputs", v1);
  io (o, "outputs", v4);
  o = zw_test_op_json (ops, "icraft::xir::Resize", "@hostt", 2);
  io (o, "inputs", v1);
  io (o, "outputs", v5);
  o = zw_test_op_json (ops, "icraft::xir::Resize", "@hostt", 3);
  cJSON_AddStringToObject (o, "interpolation", "BILINEAR");
  io (o, "inputs", v1);
  io (o, "outputs", v6);
  o = zw_test_op_json (ops, "customop::DetPostZG", "@fpgat", 4);
  cJSON_AddNumberToObject (o, "anchor_num", 3);
  cJSON_AddNumberToObject (o, "chn_1st", 2);
  cJSON_AddNumberToObject (o, "chn_2nd", 0);
  cJSON_AddNumberToObject (o, "chn_3rd", 0);
  cJSON_AddNumberToObject (o, "cmp_chn", 1);
  cJSON_AddNumberToObject (o, "cmp_en", 1);
  cJSON_AddNumberToObject (o, "cmp_mask0", -17);
  cJSON_AddNumberToObject (o, "cmp_mask1", -1);
  cJSON_AddItemToObject (o, "data_thr", cJSON_CreateIntArray (thr, 1));
  cJSON_AddNumberToObject (o, "layer_en", 1);
  cJSON_AddNumberToObject (o, "reg_base", 0);
  cJSON_AddNumberToObject (o, "thr_f", (double) 0.1f);
  cJSON_AddNumberToObject (o, "valid_chn", 3);
  io (o, "inputs", v3);
  io (o, "outputs", v7);
  o = zw_test_op_json (ops, "icraft::xir::Output", "@hostt", 5);
  io (o, "inputs", v4);
  io (o, "inputs", v5);
  io (o, "inputs", v6);
  io (o, "inputs", v7);

  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  for (guint i = 0; i < G_N_ELEMENTS (vals); i++)
    cJSON_Delete (vals[i]);
  net = xir_network_new_from_json_data (text, strlen (text), "host_timing.json", &error);
  g_assert_no_error (error);
  return net;
}

/* host_op_fixed_us at the host clock: 20 us x 1 GHz */
#define FIXED 20000u

/* ---- item 7: the cost model ------------------------------------------------------------ */

static void
test_cost_copies_by_bytes (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autoptr (GError) error = NULL;
  HostOpCost c;

  /* Input: 72 + 2304 bytes at 2 bytes per cycle */
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 0), p, NULL, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.bytes, ==, 72 + 2304);
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 1188);
  g_assert_cmpuint (c.ip_cycles, ==, 0);
  g_assert_cmpfloat (c.hard_ms, ==, 0.0);
  g_assert_cmpfloat (c.other_ms, ==, (FIXED + 1188) * 1e3 / 1e9);
  /* Output: 72 + 288 + 288 + 2304 bytes */
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 5), p, NULL, &c, &error));
  g_assert_cmpuint (c.bytes, ==, 72 + 288 + 288 + 2304);
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 1476);
  /* only the bytes that pass the host (a value a connection carries on the board passes
   * none): the Output op without its 2304-byte value, and with none left, fixed alone */
  g_assert_true (host_io_op_cost (xir_network_get_op_by_id (net, 5), p, 72 + 288 + 288, &c, &error));
  g_assert_cmpuint (c.bytes, ==, 72 + 288 + 288);
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 324);
  g_assert_true (host_io_op_cost (xir_network_get_op_by_id (net, 0), p, 0, &c, &error));
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED);
  g_assert_cmpfloat (c.other_ms, ==, FIXED * 1e3 / 1e9);
  /* another op has its own model */
  g_assert_false (host_io_op_cost (xir_network_get_op_by_id (net, 1), p, 0, &c, &error));
  g_assert_error (error, HOST_OP_ERROR, HOST_OP_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "op 1"));
  g_clear_error (&error);

  /* what-if: a host twice as fast halves the cycles' time, not the cycles */
  g_assert_true (zg330_profile_set_field (p, "host_cpu_clock_hz", 2e9, &error));
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 5), p, NULL, &c, &error));
  g_assert_cmpuint (c.cpu_cycles, ==, 40000 + 1476);
  g_assert_cmpfloat (c.other_ms, ==, (40000 + 1476) * 1e3 / 2e9);
}

static void
test_cost_cast_resize_by_elements (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autoptr (GError) error = NULL;
  HostOpCost c;

  /* Cast: (72 in + 72 out) bytes / 0.5 per cycle / 4 cores = 72 cycles */
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 1), p, NULL, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.bytes, ==, 144);
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 72);
  /* Resize nearest: 288 elements x 4 cycles / 4 cores; bilinear x 16 */
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 2), p, NULL, &c, &error));
  g_assert_cmpuint (c.elements, ==, 288);
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 288);
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 3), p, NULL, &c, &error));
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 1152);
  /* one core: four times the element work */
  g_assert_true (zg330_profile_set_field (p, "host_cpu_cores", 1, &error));
  g_assert_true (host_op_cost (xir_network_get_op_by_id (net, 3), p, NULL, &c, &error));
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 4608);
  g_assert_cmpfloat (c.hard_ms, ==, 0.0);
}

static void
test_cost_detpost_is_an_ip (void)
{
  g_autoptr (XirNetwork) net = make_network ();
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autoptr (GError) error = NULL;
  const XirOp *op = xir_network_get_op_by_id (net, 4);
  const XirValue *head = g_ptr_array_index (op->inputs, 0), *out = g_ptr_array_index (op->outputs, 0);
  g_autofree guint8 *in = g_malloc0 (head->storage_bytes);
  g_autofree guint8 *dst = g_malloc0 (out->storage_bytes);
  const guint8 *ins[] = { in };
  guint8 *outs[] = { dst };
  guint boxes[1] = { 0 };
  HostOpCost c, u;

  /* 2 x 3 cells x 3 anchors = 18 candidates; the objectness channel (4) of anchors 0 and 2
   * of cell (x 1, y 0) passes the threshold -15: 2 boxes of 96 bytes */
  memset (in, 0x80, head->storage_bytes);  /* -128 everywhere */
  for (guint a = 0; a < 3; a += 2)
    {
      guint ch = a * 128 + 4;
      /* NCHWc32 [1, 12, 2, 3, 32]: (c / 32, y, x, c % 32) */
      in[(((gsize) (ch / 32) * 2 + 0) * 3 + 1) * 32 + ch % 32] = 10;
    }
  g_assert_true (host_detpost_zg_run (op, ins, outs, boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (boxes[0], ==, 2);

  g_assert_true (host_op_cost (op, p, boxes, &c, &error));
  g_assert_cmpuint (c.elements, ==, 18);
  g_assert_cmpuint (c.boxes, ==, 2);
  g_assert_cmpuint (c.bytes, ==, 2 * 96);
  g_assert_cmpuint (c.ip_cycles, ==, 2000 + 18 + 2 * 12);
  g_assert_cmpfloat (c.hard_ms, ==, (2000 + 18 + 2 * 12) * 1e3 / 250e6);
  g_assert_cmpuint (c.cpu_cycles, ==, FIXED + 96);
  /* the run-and-cost call finds the same boxes */
  memset (dst, 0xff, out->storage_bytes);
  g_assert_true (host_op_run_costed (op, ins, outs, p, &u, &error));
  g_assert_cmpmem (&u, sizeof u, &c, sizeof c);
  /* no counts: the upper bound, every candidate a box */
  g_assert_true (host_op_cost (op, p, NULL, &u, &error));
  g_assert_cmpuint (u.boxes, ==, 18);
  g_assert_cmpuint (u.ip_cycles, ==, 2000 + 18 + 18 * 12);
}

/* A profile file with one field replaced (NULL: removed); the loader must name the file
 * and the field. */
static void
test_profile_host_fields_checked (void)
{
  static const struct { const char *field, *value, *needle; } cases[] = {
    { "host_cpu_cores", "0", "field 'host_cpu_cores'" },
    { "host_cpu_cores", "2.5", "field 'host_cpu_cores'" },
    { "host_cpu_clock_hz", "-1e9", "field 'host_cpu_clock_hz'" },
    { "host_copy_bytes_per_cycle", "1e400", "field 'host_copy_bytes_per_cycle'" },  /* inf */
    { "host_cast_bytes_per_cycle", "0", "field 'host_cast_bytes_per_cycle'" },
    { "host_resize_bilinear_cycles_per_element", "-16", "field 'host_resize_bilinear_cycles_per_element'" },
    { "detpost_clock_hz", "\"fast\"", "field 'detpost_clock_hz': must be a number" },
    { "detpost_fixed_cycles", "0.5", "field 'detpost_fixed_cycles'" },
    { "detpost_cycles_per_box", NULL, "field 'detpost_cycles_per_box': missing" },
    { "host_op_fixed_us", "-20", "field 'host_op_fixed_us'" },
  };
  g_autofree char *dir = g_dir_make_tmp ("host-timing-XXXXXX", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (Zg330Profile) b = zg330_profile_new_builtin ();
      g_autofree char *json = zg330_profile_to_json (b);
      cJSON *root = cJSON_Parse (json);
      g_autofree char *path = g_strdup_printf ("%s/bad-%u.json", dir, i);
      g_autoptr (GError) error = NULL;
      char *text;

      g_assert_nonnull (cJSON_GetObjectItem (root, cases[i].field));
      cJSON_DeleteItemFromObject (root, cases[i].field);
      text = cJSON_PrintUnformatted (root);
      cJSON_Delete (root);
      if (cases[i].value != NULL)
        {
          /* spliced in as text: cJSON cannot print 1e400 or a non-integer where we want it */
          char *close = strrchr (text, '}');
          g_autofree char *head = g_strndup (text, (gsize) (close - text));
          g_autofree char *full = g_strdup_printf ("%s,\"%s\":%s}", head, cases[i].field, cases[i].value);
          g_assert_true (g_file_set_contents (path, full, -1, NULL));
        }
      else
        g_assert_true (g_file_set_contents (path, text, -1, NULL));
      cJSON_free (text);
      g_assert_null (zg330_profile_load (path, &error));
      g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
      if (strstr (error->message, cases[i].needle) == NULL || strstr (error->message, path) == NULL)
        g_error ("case %u: message '%s' lacks '%s' or the path", i, error->message, cases[i].needle);
      g_unlink (path);
    }
  g_rmdir (dir);

  /* the shipped profile documents every host figure and says what it assumed */
  {
    g_autoptr (Zg330Profile) b = zg330_profile_new_builtin ();
    static const char *const fields[] = { "host_cpu_cores", "host_cpu_clock_hz", "host_op_fixed_us",
                                          "host_copy_bytes_per_cycle", "host_cast_bytes_per_cycle",
                                          "host_resize_nearest_cycles_per_element",
                                          "host_resize_bilinear_cycles_per_element", "detpost_clock_hz",
                                          "detpost_fixed_cycles", "detpost_cycles_per_anchor", "detpost_cycles_per_box" };
    gboolean said = FALSE;
    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      {
        const char *doc = zg330_profile_get_field_doc (fields[i]);
        g_assert_nonnull (doc);
        g_assert_nonnull (strstr (doc, "Why"));
      }
    for (guint i = 0; i < b->assumptions->len; i++)
      said |= strstr (b->assumptions->pdata[i], "host CPU") != NULL;
    g_assert_true (said);
    g_assert_cmpuint (b->host_cpu_cores, ==, 4);
    g_assert_cmpfloat (b->host_cpu_clock_hz, ==, 1e9);
  }
}

/* ---- item 7: a simulated run -------------------------------------------------------- */

typedef struct {
  const char *net;
  gboolean merge;
  guint seed;
  ZwProfile *profile;   /* out: a copy */
} Forward;

static void
forward_run (Forward *f)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autoptr (XirNetwork) net = zw_test_load_net (f->net);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  g_autoptr (GPtrArray) outs = NULL;
  GPtrArray *values;
  GRand *rand;

  g_assert_no_error (error);
  view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  s = xrt_session_new (view, types, devs, 2, &error);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), f->merge, TRUE, ZW_OCM_BEST_SCORE,
                                            &error));
  g_assert_true (xrt_session_apply (s, &error));
  values = xir_network_get_inputs (net);
  rand = g_rand_new_with_seed (f->seed);
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 i = 0; i < v->storage_bytes; i++)
        bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
      g_ptr_array_add (inputs, xrt_tensor_new_host (net, v, bytes, v->storage_bytes, NULL));
    }
  g_rand_free (rand);
  xrt_session_enable_time_profile (s, TRUE);
  outs = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  f->profile = zw_profile_copy (xrt_session_get_time_profile (s));
}

static gpointer
forward_thread (gpointer data)
{
  forward_run (data);
  return NULL;
}

/* Every simulated figure of two profiles, bit for bit. */
static void
assert_same_simulated (const ZwProfile *a, const ZwProfile *b)
{
  g_assert_cmpuint (a->rows->len, ==, b->rows->len);
  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *x = g_ptr_array_index (a->rows, i), *y = g_ptr_array_index (b->rows, i);
      g_assert_cmpint (x->op_id, ==, y->op_id);
      g_assert_cmpmem (&x->total_ms, sizeof (double), &y->total_ms, sizeof (double));
      g_assert_cmpmem (&x->memcpy_ms, sizeof (double), &y->memcpy_ms, sizeof (double));
      g_assert_cmpmem (&x->hard_ms, sizeof (double), &y->hard_ms, sizeof (double));
      g_assert_cmpmem (&x->other_ms, sizeof (double), &y->other_ms, sizeof (double));
      g_assert_cmpmem (&x->start_ms, sizeof (double), &y->start_ms, sizeof (double));
    }
  {
    g_autofree char *ta = zw_profile_to_string (a, ZW_PROFILE_FORMAT_VENDOR);
    g_autofree char *tb = zw_profile_to_string (b, ZW_PROFILE_FORMAT_VENDOR);
    g_assert_cmpstr (ta, ==, tb);
  }
}

static void
test_run_identical_across_runs_threads_and_load (void)
{
  Forward first = { "yolov5s", FALSE, 7, NULL }, again = first, t1 = first, t2 = first;
  GThread *a, *b;
  guint host_rows = 0;
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");

  forward_run (&first);
  forward_run (&again);
  /* two at once, competing for the CPU: their measured host times differ, nothing else */
  a = g_thread_new ("fwd-a", forward_thread, &t1);
  b = g_thread_new ("fwd-b", forward_thread, &t2);
  g_thread_join (a);
  g_thread_join (b);
  assert_same_simulated (first.profile, again.profile);
  assert_same_simulated (first.profile, t1.profile);
  assert_same_simulated (first.profile, t2.profile);

  /* host rows: the cost model's figures exactly; the measured time kept beside them */
  for (guint i = 0; i < first.profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (first.profile->rows, i);
      const XirOp *op = xir_network_get_op_by_id (net, r->op_id);
      g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
      HostOpCost c;

      if (g_strcmp0 (r->backend, "Host") != 0)
        {
          g_assert_cmpfloat (r->host_measured_ms, <, 0);
          continue;
        }
      host_rows++;
      g_assert_nonnull (op);
      g_assert_cmpfloat (r->host_measured_ms, >=, 0);
      if (g_str_equal (op->type_key, "customop::DetPostZG"))
        {
          /* hard = the IP's cycles: 2000 + candidates + 12 per box, for a whole box count */
          guint64 candidates;
          guint record;
          double boxes;
          g_assert_true (host_detpost_zg_candidates (op, &candidates, &record, NULL));
          boxes = (r->hard_ms * 250e3 - 2000 - (double) candidates) / 12;
          g_assert_cmpfloat (fabs (boxes - round (boxes)), <, 1e-6);
          g_assert_cmpfloat (boxes, >=, 0);
          {
            /* one count per output; the model only uses their sum */
            g_autofree guint *n = g_new0 (guint, op->outputs->len);
            n[0] = (guint) round (boxes);
            g_assert_true (host_op_cost (op, p, n, &c, NULL));
          }
        }
      else
        g_assert_true (host_op_cost (op, p, NULL, &c, NULL));
      g_assert_cmpfloat (r->hard_ms, ==, c.hard_ms);
      g_assert_cmpfloat (r->other_ms, ==, c.other_ms);
      g_assert_cmpfloat (r->total_ms, ==, r->memcpy_ms + r->hard_ms + r->other_ms);
    }
  g_assert_cmpuint (host_rows, ==, 3);   /* Input, DetPostZG, Output */

  /* the measured time is in no total, and the vendor text never carries it */
  {
    double sum = 0;
    g_autofree char *vendor = zw_profile_to_string (first.profile, ZW_PROFILE_FORMAT_VENDOR);
    g_autoptr (ZwProfile) back = zw_profile_parse (vendor, -1, "vendor", NULL, NULL, NULL);
    for (guint i = 0; i < first.profile->rows->len; i++)
      sum += ((const ZwProfileRow *) g_ptr_array_index (first.profile->rows, i))->total_ms;
    g_assert_cmpfloat (first.profile->total_ms, ==, sum);
    g_assert_true (first.profile->has_host_measured);
    g_assert_cmpfloat (first.profile->host_measured_ms, >=, 0);
    g_assert_null (strstr (vendor, "measured"));
    g_assert_nonnull (back);
    g_assert_false (back->has_host_measured);
    for (guint i = 0; i < back->rows->len; i++)
      {
        const ZwProfileRow *x = g_ptr_array_index (back->rows, i), *y = g_ptr_array_index (first.profile->rows, i);
        g_assert_cmpfloat (x->total_ms, ==, y->total_ms);
        g_assert_cmpfloat (x->other_ms, ==, y->other_ms);
      }
  }
  /* a live run is in execution order, recorded */
  g_assert_cmpint (first.profile->order_source, ==, ZW_PROFILE_ORDER_RECORDED);
  g_assert_cmpuint (first.profile->n_flagged, ==, 0);

  zw_profile_free (first.profile);
  zw_profile_free (again.profile);
  zw_profile_free (t1.profile);
  zw_profile_free (t2.profile);
}

/* JSON, CSV and trace keep the measured figure; Compare sees simulated times only. */
static void
test_measured_kept_apart (void)
{
  g_autoptr (ZwProfile) a = zw_profile_new ("net");
  g_autoptr (ZwProfile) b = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  static const ZwProfileFormat formats[] = { ZW_PROFILE_FORMAT_JSON, ZW_PROFILE_FORMAT_CSV, ZW_PROFILE_FORMAT_TRACE };
  ZwProfileRow *r;

  r = zw_profile_add_row (a, 0, "icraft::xir::InputNode", "", 0.5, 0, 0, 0.5);
  r->backend = g_strdup ("Host");
  r->start_ms = 0;
  r->host_measured_ms = 3.25;
  r = zw_profile_add_row (a, 7, "icraft::xir::HardOpNode", "", 2, 0.5, 1.5, 0);
  r->backend = g_strdup ("ZG330");
  r->start_ms = 0.5;
  r = zw_profile_add_row (a, 9, "customop::DetPostZGNode", "", 0.25, 0, 0.125, 0.125);
  r->backend = g_strdup ("Host");
  r->start_ms = 2.5;
  r->host_measured_ms = 12.25;
  zw_profile_compute_totals (a);
  g_assert_cmpfloat (a->total_ms, ==, 2.75);
  g_assert_true (a->has_host_measured);
  g_assert_cmpfloat (a->host_measured_ms, ==, 15.5);

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *text = zw_profile_to_string (a, formats[f]);
      g_autoptr (GError) error = NULL;
      g_autoptr (ZwProfile) back = zw_profile_parse (text, -1, "round-trip", NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (back->rows->len, ==, 3);
      g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (back->rows, 0))->host_measured_ms, ==, 3.25);
      g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (back->rows, 1))->host_measured_ms, <, 0);
      g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (back->rows, 2))->host_measured_ms, ==, 12.25);
      g_assert_cmpfloat (back->host_measured_ms, ==, 15.5);
      g_assert_cmpfloat (back->total_ms, ==, 2.75);
    }

  /* B: the same simulated run, measured on a slower, busier PC */
  b = zw_profile_copy (a);
  ((ZwProfileRow *) g_ptr_array_index (b->rows, 0))->host_measured_ms = 9.75;
  ((ZwProfileRow *) g_ptr_array_index (b->rows, 2))->host_measured_ms = 25.0;
  cmp = zw_profile_compare (a, b, NULL);
  g_assert_cmpfloat (cmp->delta_ms, ==, 0);
  g_assert_cmpfloat (cmp->ratio, ==, 1);
  g_assert_cmpuint (cmp->n_regressions, ==, 0);
  g_assert_cmpuint (cmp->n_improvements, ==, 0);
  for (guint i = 0; i < cmp->rows->len; i++)
    g_assert_cmpfloat (((ZwCompareRow *) g_ptr_array_index (cmp->rows, i))->delta_ms, ==, 0);
  g_assert_true (cmp->a_has_host_measured && cmp->b_has_host_measured);
  g_assert_cmpfloat (cmp->a_host_measured_ms, ==, 15.5);
  g_assert_cmpfloat (cmp->b_host_measured_ms, ==, 34.75);
}

/* ---- item 8: execution order and impossible rows --------------------------------------- */

/* The vendor's layout: Output first and Input last; ImageMake with hard > total and a
 * negative other time (as the vendor's bytetrack file), a Resize with a negative other
 * time only, a row whose memcpy + hard exceed its total. */
static const char vendor_text[] =
  "op_id: 262, op_type: icraft::xir::OutputNode, op_name: , total_time: 0.5, memcpy_time: 0, hard_time: 0, other_time: 0.5\n"
  "op_id: 459, op_type: customop::DetPostNode, op_name: , total_time: 1, memcpy_time: 0, hard_time: 0.25, other_time: 0.75\n"
  "op_id: 458, op_type: customop::ImageMakeNode, op_name: , total_time: 0.125, memcpy_time: 0, hard_time: 5.5, other_time: -5.375\n"
  "op_id: 1, op_type: icraft::xir::ResizeNode, op_name: , total_time: 0.25, memcpy_time: 0, hard_time: 0, other_time: -0.25\n"
  "op_id: 754, op_type: icraft::xir::HardOpNode, op_name: , total_time: 8, memcpy_time: 1, hard_time: 7.5, other_time: -0.5\n"
  "op_id: 0, op_type: icraft::xir::InputNode, op_name: , total_time: 2, memcpy_time: 0, hard_time: 0, other_time: 2\n";

static void
assert_order (const ZwProfile *p, const gint64 *want, guint n)
{
  g_assert_nonnull (p->order);
  g_assert_cmpuint (p->order->len, ==, n);
  for (guint k = 0; k < n; k++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, zw_profile_order_get (p, k));
      if (r->op_id != want[k])
        g_error ("position %u: op %" G_GINT64_FORMAT ", expected %" G_GINT64_FORMAT, k, r->op_id, want[k]);
    }
}

static void
test_vendor_rows_inferred_order_and_flags (void)
{
  static const gint64 want[] = { 0, 1, 458, 754, 459, 262 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) p = zw_profile_parse (vendor_text, -1, "made_time.txt", NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (p->rows->len, ==, 6);
  /* rows stay in file order (the writer reproduces it); the order is apart */
  g_assert_cmpint (((ZwProfileRow *) g_ptr_array_index (p->rows, 0))->op_id, ==, 262);
  g_assert_cmpint (p->order_source, ==, ZW_PROFILE_ORDER_INFERRED);
  g_assert_cmpstr (zw_profile_order_source_to_string (p->order_source), ==, "inferred");
  assert_order (p, want, G_N_ELEMENTS (want));

  /* flags: ImageMake (row 2) hard > total and negative other; Resize (3) negative other;
   * the hardop (4) memcpy + hard > total and negative other; the rest clean */
  g_assert_cmpuint (zw_profile_get_row_flags (p, 0), ==, 0);
  g_assert_cmpuint (zw_profile_get_row_flags (p, 1), ==, 0);
  g_assert_cmpuint (zw_profile_get_row_flags (p, 2), ==, ZW_PROFILE_ROW_HARD_OVER_TOTAL | ZW_PROFILE_ROW_NEGATIVE_OTHER);
  g_assert_cmpuint (zw_profile_get_row_flags (p, 3), ==, ZW_PROFILE_ROW_NEGATIVE_OTHER);
  g_assert_cmpuint (zw_profile_get_row_flags (p, 4), ==,
                    ZW_PROFILE_ROW_PARTS_OVER_TOTAL | ZW_PROFILE_ROW_NEGATIVE_OTHER);
  g_assert_cmpuint (zw_profile_get_row_flags (p, 5), ==, 0);
  g_assert_cmpuint (p->n_flagged, ==, 3);

  /* the vendor writer still writes the file's order and columns */
  {
    g_autofree char *again = zw_profile_to_string (p, ZW_PROFILE_FORMAT_VENDOR);
    g_assert_true (g_str_has_prefix (again, "op_id: 262, op_type: icraft::xir::OutputNode"));
  }

  /* the network known: its op order, a row it lacks goes last and is flagged */
  {
    static const gint64 net_ops[] = { 0, 1, 458, 900, 754, 459 };   /* no op 262 */
    static const gint64 want_net[] = { 0, 1, 458, 754, 459, 262 };
    g_assert_cmpuint (zw_profile_order_by_network (p, net_ops, G_N_ELEMENTS (net_ops)), ==, 5);
    g_assert_cmpint (p->order_source, ==, ZW_PROFILE_ORDER_NETWORK);
    assert_order (p, want_net, G_N_ELEMENTS (want_net));
    g_assert_cmpuint (zw_profile_get_row_flags (p, 0), ==, ZW_PROFILE_ROW_NOT_IN_NETWORK);
    g_assert_cmpuint (p->n_flagged, ==, 3);   /* NOT_IN_NETWORK is not an impossible time */
  }
  {
    /* a network whose order differs from the guess wins over it */
    static const gint64 net_ops[] = { 0, 458, 1, 754, 262, 459 };
    static const gint64 want_net[] = { 0, 458, 1, 754, 262, 459 };
    zw_profile_order_by_network (p, net_ops, G_N_ELEMENTS (net_ops));
    assert_order (p, want_net, G_N_ELEMENTS (want_net));
    g_assert_cmpuint (zw_profile_get_row_flags (p, 0), ==, 0);
  }
}

static void
test_merged_row_placed_by_first_member (void)
{
  static const gint64 net_ops[] = { 0, 3, 4, 5, 6, 9 };
  static const gint64 want[] = { 0, 100, 6, 9 };
  g_autoptr (ZwProfile) p = zw_profile_new ("m");
  ZwProfileRow *r;
  gint64 members[] = { 3, 4, 5 };

  zw_profile_add_row (p, 9, "icraft::xir::OutputNode", "", 0, 0, 0, 0);
  zw_profile_add_row (p, 6, "icraft::xir::HardOpNode", "", 1, 0, 1, 0);
  r = zw_profile_add_row (p, 100, "icraft::xir::HardOpNode", "", 3, 0, 3, 0);
  g_array_append_vals (r->merge_from, members, 3);
  zw_profile_add_row (p, 0, "icraft::xir::InputNode", "", 1, 0, 0, 1);
  g_assert_cmpuint (zw_profile_order_by_network (p, net_ops, G_N_ELEMENTS (net_ops)), ==, 4);
  assert_order (p, want, G_N_ELEMENTS (want));
}

static void
test_start_times_give_recorded_order (void)
{
  static const char json[] =
    "{\"format\": \"zhuge-time-profile\", \"version\": 1, \"rows\": ["
    "{\"op_id\": 5, \"op_type\": \"icraft::xir::OutputNode\", \"op_name\": \"\", \"total_ms\": 1, \"memcpy_ms\": 0,"
    " \"hard_ms\": 0, \"other_ms\": 1, \"start_ms\": 3},"
    "{\"op_id\": 0, \"op_type\": \"icraft::xir::InputNode\", \"op_name\": \"\", \"total_ms\": 1, \"memcpy_ms\": 0,"
    " \"hard_ms\": 0, \"other_ms\": 1, \"start_ms\": 0},"
    "{\"op_id\": 2, \"op_type\": \"icraft::xir::HardOpNode\", \"op_name\": \"\", \"total_ms\": 2, \"memcpy_ms\": 0,"
    " \"hard_ms\": 2, \"other_ms\": 0, \"start_ms\": 1}]}";
  static const gint64 want[] = { 0, 2, 5 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) p = zw_profile_parse (json, -1, "rec.json", NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (p->order_source, ==, ZW_PROFILE_ORDER_RECORDED);
  assert_order (p, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (p->n_flagged, ==, 0);
}

/* The real vendor file (bytetrack_BY_int8_time.txt): laid out Input first; ImageMake (hard
 * 5.62121 ms in a 0.12852 ms call, other -5.49269) is flagged. */
static void
test_real_vendor_file_order (void)
{
  static const gint64 want[] = { 0, 1, 458, 754, 459, 262 };
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) p = NULL;

  if (path == NULL)
    return;
  p = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (p->order_source, ==, ZW_PROFILE_ORDER_INFERRED);
  assert_order (p, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (p->n_flagged, ==, 1);
  g_assert_cmpint (((ZwProfileRow *) g_ptr_array_index (p->rows, 2))->op_id, ==, 458);
  g_assert_cmpuint (zw_profile_get_row_flags (p, 2), ==, ZW_PROFILE_ROW_HARD_OVER_TOTAL | ZW_PROFILE_ROW_NEGATIVE_OTHER);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/host-timing/cost/input-output-copy-by-bytes", test_cost_copies_by_bytes);
  g_test_add_func ("/host-timing/cost/cast-resize-by-elements-over-cores", test_cost_cast_resize_by_elements);
  g_test_add_func ("/host-timing/cost/detpost-is-a-board-ip", test_cost_detpost_is_an_ip);
  g_test_add_func ("/host-timing/profile/host-figures-checked-and-documented", test_profile_host_fields_checked);
  g_test_add_func ("/host-timing/run/simulated-profile-identical-across-runs-threads-load",
                   test_run_identical_across_runs_threads_and_load);
  g_test_add_func ("/host-timing/profile/measured-time-kept-apart", test_measured_kept_apart);
  g_test_add_func ("/host-timing/order/vendor-rows-inferred-and-flagged", test_vendor_rows_inferred_order_and_flags);
  g_test_add_func ("/host-timing/order/merged-launch-at-its-first-member", test_merged_row_placed_by_first_member);
  g_test_add_func ("/host-timing/order/start-times-give-recorded-order", test_start_times_give_recorded_order);
  g_test_add_func ("/host-timing/order/real-vendor-file-input-first", test_real_vendor_file_order);
  return g_test_run ();
}
