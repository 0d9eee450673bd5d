/* test-profile.c — time profiles: the vendor's *_time.txt, our JSON/CSV/trace, one parser. */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <cjson/cJSON.h>

#include "report/zw-profile.h"

static char *
vendor_sample_path (void)
{
  const char *shared = g_getenv ("ZW_SHARED_DIR");
  return g_build_filename (shared ? shared : ZW_SHARED_DIR, "real", "bytetrack_BY_int8_time.txt", NULL);
}

static ZwProfile *
load_vendor_sample (GPtrArray *warnings)
{
  g_autofree char *path = vendor_sample_path ();
  g_autoptr (GError) error = NULL;
  ZwProfileFormat fmt = ZW_PROFILE_FORMAT_JSON;
  ZwProfile *p;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  p = zw_profile_load (path, warnings, &fmt, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fmt, ==, ZW_PROFILE_FORMAT_VENDOR);
  return p;
}

static void
test_number_format (void)
{
  struct { double v; gboolean as_float; const char *text; } cases[] = {
    { 0, FALSE, "0" },
    { 1.5000000000000002e-05, FALSE, "1.5000000000000002e-05" },
    { 1.5000000000000002e-05, TRUE, "1.5e-05" },
    { 13.52334976196289, FALSE, "13.52334976196289" },
    { 13.52334976196289, TRUE, "13.52335" },
    { 0.08539023803710855, FALSE, "0.08539023803710855" },
    { -5.49269, FALSE, "-5.49269" },
    { 100, FALSE, "100" },
    { 0.0001, FALSE, "0.0001" },
    { 1e16, FALSE, "1e+16" },
    { 19.14457476196289, TRUE, "19.144575" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *t = zw_profile_format_number (cases[i].v, cases[i].as_float);
      g_assert_cmpstr (t, ==, cases[i].text);
    }
}

static void
test_vendor_parses_real_file (void)
{
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (ZwProfile) p = load_vendor_sample (warnings);
  const ZwProfileRow *r;
  const ZwProfileCustomop *c;

  if (!p)
    {
      g_test_skip ("the vendor sample is not available");
      return;
    }
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpstr (p->network, ==, "bytetrack_BY_int8");
  g_assert_cmpuint (p->rows->len, ==, 6);
  r = g_ptr_array_index (p->rows, 0);
  g_assert_cmpint (r->op_id, ==, 262);
  g_assert_cmpstr (r->op_type, ==, "icraft::xir::OutputNode");
  g_assert_cmpstr (r->op_name, ==, "");
  g_assert_false (r->has_io_process);
  r = g_ptr_array_index (p->rows, 1);
  g_assert_cmpfloat (r->hard_ms, ==, 1.5000000000000002e-05);
  r = g_ptr_array_index (p->rows, 2);
  g_assert_cmpstr (r->op_type, ==, "customop::ImageMakeNode");
  g_assert_cmpfloat (r->other_ms, ==, -5.49269);
  g_assert_cmpfloat (r->hard_ms, ==, 5.62121);
  r = g_ptr_array_index (p->rows, 4);
  g_assert_cmpint (r->op_id, ==, 754);
  g_assert_cmpfloat (r->total_ms, ==, 13.60874);
  g_assert_cmpfloat (r->other_ms, ==, 0.08539023803710855);

  g_assert_true (p->has_totals);
  g_assert_cmpfloat (p->total_ms, ==, 24.57456);
  g_assert_cmpfloat (p->total_memcpy_ms, ==, 0);
  g_assert_cmpfloat (p->total_hard_ms, ==, 19.144575);
  g_assert_cmpfloat (p->total_other_ms, ==, 5.429985);
  g_assert_cmpfloat (p->hardop_total_ms, ==, 13.60874);
  g_assert_cmpfloat (p->hardop_hard_ms, ==, 13.52335);
  g_assert_cmpuint (p->customops->len, ==, 2);
  c = g_ptr_array_index (p->customops, 0);
  g_assert_cmpstr (c->name, ==, "DetPost");
  g_assert_cmpfloat (c->total_ms, ==, 0.92957);
  g_assert_cmpfloat (c->hard_ms, ==, 1.5e-05);
  c = g_ptr_array_index (p->customops, 1);
  g_assert_cmpstr (c->name, ==, "ImageMake");

  g_assert_true (p->has_summary);
  g_assert_cmpfloat (p->summary[ZW_PROFILE_SUMMARY_INPUT].time_ms, ==, 5.62121);
  g_assert_cmpstr (p->summary[ZW_PROFILE_SUMMARY_INPUT].device, ==, "ImageMake");
  g_assert_cmpfloat (p->summary[ZW_PROFILE_SUMMARY_ICORE].time_ms, ==, 13.6087);
  g_assert_cmpstr (p->summary[ZW_PROFILE_SUMMARY_ICORE].device, ==, "Null");
  g_assert_cmpfloat (p->summary[ZW_PROFILE_SUMMARY_OUTPUT].time_ms, ==, 0.92957);
  g_assert_cmpstr (p->summary[ZW_PROFILE_SUMMARY_OUTPUT].device, ==, "DetPost");
  g_assert_cmpfloat (p->summary[ZW_PROFILE_SUMMARY_CPU].time_ms, ==, 9.90773);
}

static void
test_vendor_rewrites_real_file_exactly (void)
{
  g_autoptr (ZwProfile) p = load_vendor_sample (NULL);
  g_autofree char *path = vendor_sample_path ();
  g_autofree char *original = NULL;
  g_autofree char *written = NULL;
  g_autofree char *recomputed = NULL;

  if (!p)
    {
      g_test_skip ("the vendor sample is not available");
      return;
    }
  g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
  written = zw_profile_to_string (p, ZW_PROFILE_FORMAT_VENDOR);
  g_assert_cmpstr (written, ==, original);

  /* Our totals and summary rules give the vendor's numbers from the rows alone. */
  zw_profile_compute_totals (p);
  recomputed = zw_profile_to_string (p, ZW_PROFILE_FORMAT_VENDOR);
  g_assert_cmpstr (recomputed, ==, original);
}

static ZwProfile *
make_profile (void)
{
  ZwProfile *p = zw_profile_new ("demo");
  ZwProfileRow *r;
  gint64 merged[] = { 3, 4, 5 };

  r = zw_profile_add_row (p, 0, "icraft::xir::InputNode", "", 0.5, 0.25, 0, 0.25);
  r->backend = g_strdup ("Host");
  r->start_ms = 0;
  r = zw_profile_add_row (p, 2, "icraft::xir::HardOpNode", "", 0.125, 0, 0.1, 0.025000000000000008);
  r->has_io_process = TRUE;
  r->is_io_process = TRUE;
  r->backend = g_strdup ("ZG330");
  r->start_ms = 0.5;
  r = zw_profile_add_row (p, 100, "icraft::xir::HardOpNode", "conv, \"fused\"", 3.75, 0, 3.5, 0.25);
  r->has_io_process = TRUE;
  r->is_io_process = FALSE;
  g_array_append_vals (r->merge_from, merged, 3);
  r->backend = g_strdup ("ZG330");
  r->start_ms = 0.625;
  r = zw_profile_add_row (p, 7, "customop::DetPostZGNode", "", 1.5000000000000002e-05, 0, 5.62121, -5.621195);
  r->backend = g_strdup ("Host");
  r->start_ms = 4.375;
  zw_profile_compute_totals (p);
  return p;
}

static void
assert_rows_equal (const ZwProfile *a, const ZwProfile *b, gboolean extras)
{
  g_assert_cmpuint (a->rows->len, ==, b->rows->len);
  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *x = g_ptr_array_index (a->rows, i);
      const ZwProfileRow *y = g_ptr_array_index (b->rows, i);

      g_assert_cmpint (x->op_id, ==, y->op_id);
      g_assert_cmpstr (x->op_type, ==, y->op_type);
      g_assert_cmpstr (x->op_name, ==, y->op_name);
      g_assert_cmpfloat (x->total_ms, ==, y->total_ms);
      g_assert_cmpfloat (x->memcpy_ms, ==, y->memcpy_ms);
      g_assert_cmpfloat (x->hard_ms, ==, y->hard_ms);
      g_assert_cmpfloat (x->other_ms, ==, y->other_ms);
      g_assert_cmpint (x->has_io_process, ==, y->has_io_process);
      g_assert_cmpint (x->is_io_process, ==, y->is_io_process);
      if (!extras)
        continue;
      g_assert_cmpstr (x->backend, ==, y->backend);
      g_assert_cmpfloat_with_epsilon (x->start_ms, y->start_ms, 1e-9);
      g_assert_cmpuint (x->merge_from->len, ==, y->merge_from->len);
      for (guint j = 0; j < x->merge_from->len; j++)
        g_assert_cmpint (g_array_index (x->merge_from, gint64, j), ==, g_array_index (y->merge_from, gint64, j));
    }
}

static void
roundtrip (ZwProfileFormat format, gboolean extras)
{
  g_autoptr (ZwProfile) p = make_profile ();
  g_autoptr (ZwProfile) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_dir_make_tmp ("zw-profile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "demo_time.out", NULL);
  ZwProfileFormat detected;

  g_assert_true (zw_profile_write (p, path, format, &error));
  g_assert_no_error (error);
  back = zw_profile_load (path, warnings, &detected, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < warnings->len; i++)
    g_test_message ("warning: %s", (char *) g_ptr_array_index (warnings, i));
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpint (detected, ==, format);
  assert_rows_equal (p, back, extras);
  g_assert_cmpfloat (back->total_ms, ==, p->total_ms);
  g_assert_cmpfloat (back->hardop_hard_ms, ==, p->hardop_hard_ms);
  g_assert_cmpuint (back->customops->len, ==, 1);
  g_assert_cmpfloat (back->summary[ZW_PROFILE_SUMMARY_INPUT].time_ms, ==, 0.125);  /* the io_process hardop */
  g_assert_cmpfloat (back->summary[ZW_PROFILE_SUMMARY_ICORE].time_ms, ==, 3.75);
  g_assert_cmpfloat (back->summary[ZW_PROFILE_SUMMARY_CPU].time_ms, ==, 0.5);
  g_assert_cmpstr (back->summary[ZW_PROFILE_SUMMARY_OUTPUT].device, ==, "DetPost");
  if (format != ZW_PROFILE_FORMAT_VENDOR && format != ZW_PROFILE_FORMAT_CSV)
    g_assert_cmpstr (back->network, ==, "demo");
  g_unlink (path);
  g_rmdir (dir);
}

static void test_roundtrip_vendor (void) { roundtrip (ZW_PROFILE_FORMAT_VENDOR, FALSE); }
static void test_roundtrip_json (void) { roundtrip (ZW_PROFILE_FORMAT_JSON, TRUE); }
static void test_roundtrip_csv (void) { roundtrip (ZW_PROFILE_FORMAT_CSV, TRUE); }
static void test_roundtrip_trace (void) { roundtrip (ZW_PROFILE_FORMAT_TRACE, TRUE); }

static void
test_vendor_with_io_process (void)
{
  g_autoptr (ZwProfile) p = make_profile ();
  g_autofree char *text = zw_profile_to_string (p, ZW_PROFILE_FORMAT_VENDOR);

  g_assert_nonnull (strstr (text, "op_id: 2, op_type: icraft::xir::HardOpNode, op_name: , total_time: 0.125, "
                                  "memcpy_time: 0, hard_time: 0.1, other_time: 0.02500000000000001, "
                                  "is_io_process: true\n"));
  g_assert_nonnull (strstr (text, "other_time: -5.621195\n"));
  g_assert_nonnull (strstr (text, "Customop: DetPostZG,TotalTime: 1.5e-05 ms, HardTime : 5.62121 ms.\n"));
  g_assert_nonnull (strstr (text, "Time(ms):0.125       Device:Null\n"));
}

static void
test_garbage_lines_reported (void)
{
  const char *text =
    "op_id: 1, op_type: icraft::xir::InputNode, op_name: , total_time: 1, memcpy_time: 0, hard_time: 0, other_time: 1\n"
    "this is not a profile line\n"
    "op_id: 2, op_type: icraft::xir::HardOpNode, op_name: , total_time: 2, memcpy_time: 0, hard_time: 1.5, other_time: 0.5\n"
    "\n"
    "Total_TotalTime: x\n"
    "op_id: 4, op_type: icraft::xir::OutputNode, op_name: , total_time: 0, memcpy_time: 0, hard_time: 0, other_time: 0\n";
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) p = zw_profile_parse (text, -1, "broken_time.txt", warnings, NULL, &error);

  /* lines that are not rows are skipped with a warning (a malformed row refuses the file:
   * /profile/parse/malformed-row-refused-in-every-format) */
  g_assert_no_error (error);
  g_assert_nonnull (p);
  g_assert_cmpuint (p->rows->len, ==, 3);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (warnings, 0), "broken_time.txt:2: "));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (warnings, 1), "broken_time.txt:5: "));
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 1), "Total_"));
  /* Totals are computed when the file has none. */
  g_assert_true (p->has_totals);
  g_assert_cmpfloat (p->total_ms, ==, 3);
  g_assert_cmpfloat (p->hardop_hard_ms, ==, 1.5);
}

static void
test_no_profile_is_error (void)
{
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwProfile) p = zw_profile_parse ("hello\nworld\n", -1, "notes.txt", warnings, NULL, &error);

  g_assert_null (p);
  g_assert_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "notes.txt"));
  g_assert_cmpuint (warnings->len, ==, 2);

  g_clear_error (&error);
  p = zw_profile_parse ("{\"rows\": [", -1, "cut.json", NULL, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "cut.json"));

  g_clear_error (&error);
  p = zw_profile_load ("/nonexistent/x_time.txt", NULL, NULL, &error);
  g_assert_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/x_time.txt"));
}

/* One rule in every format: a row that is there but cannot be read refuses the file, naming
 * it, the line (the row in JSON) and the field; a profile without rows is refused alike. */
static void
test_malformed_row_refused_in_every_format (void)
{
  static const struct { const char *origin, *text, *where, *field; } bad[] = {
    { "v_time.txt",
      "op_id: 1, op_type: icraft::xir::InputNode, op_name: , total_time: 1, memcpy_time: 0, hard_time: 0, other_time: 1\n"
      "op_id: 2, op_type: icraft::xir::HardOpNode, op_name: , total_time: abc, memcpy_time: 0, hard_time: 0, other_time: 0\n",
      "v_time.txt:2:", "total_time" },
    { "c.csv", "op_id,op_type,op_name,total_ms\n7,HardOpNode,conv,zz\n", "c.csv:2:", "total_ms" },
    { "c2.csv", "op_id,op_type,op_name,total_ms,is_io_process\n7,HardOpNode,conv,1,maybe\n", "c2.csv:2:",
      "is_io_process" },
    { "j.json", "{\"rows\":[{\"op_id\":1,\"op_type\":\"X\",\"total_ms\":1,\"memcpy_ms\":0,\"hard_ms\":0,\"other_ms\":1},"
      "{\"op_id\":2,\"op_type\":\"X\",\"total_ms\":\"fast\",\"memcpy_ms\":0,\"hard_ms\":0,\"other_ms\":0}]}",
      "j.json: rows[1]", "total_ms" },
    { "j2.json", "{\"rows\":[{\"op_id\":1,\"op_type\":\"X\",\"total_ms\":1,\"memcpy_ms\":0,\"hard_ms\":0,\"other_ms\":1,"
      "\"merge_from\":[\"a\"]}]}", "j2.json: rows[0]", "merge_from" },
    { "t.json", "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":5,\"args\":{\"op_id\":1}},"
      "{\"ph\":\"X\",\"name\":\"b\",\"ts\":5}]}", "t.json: traceEvents[1]", "dur" },
    { "t2.json", "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":5,\"args\":{\"op_id\":1,"
      "\"hard_ms\":\"x\"}}]}", "t2.json: traceEvents[0]", "hard_ms" },
  };
  static const struct { const char *origin, *text; } empty[] = {
    { "e_time.txt", "Total_TotalTime: 1 ms, Total_MemcpyTime: 0 ms, Total_HardTime: 0 ms, Total_OtherTime: 1 ms\n" },
    { "e.csv", "op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms\n" },
    { "e.json", "{\"format\":\"zhuge-time-profile\",\"version\":1,\"rows\":[]}" },
    { "et.json", "{\"traceEvents\":[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"ZG330\"}}]}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ZwProfile) p = zw_profile_parse (bad[i].text, -1, bad[i].origin, NULL, NULL, &error);
      g_assert_null (p);
      g_assert_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, bad[i].where));
      g_assert_nonnull (strstr (error->message, bad[i].field));
    }
  for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ZwProfile) p = zw_profile_parse (empty[i].text, -1, empty[i].origin, NULL, NULL, &error);
      g_assert_null (p);
      g_assert_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, empty[i].origin));
      g_assert_nonnull (strstr (error->message, "no time profile in it"));
    }
}

static void
test_trace_valid_json (void)
{
  g_autoptr (ZwProfile) p = make_profile ();
  g_autofree char *text = zw_profile_to_string (p, ZW_PROFILE_FORMAT_TRACE);
  cJSON *root = cJSON_Parse (text);
  const cJSON *events = cJSON_GetObjectItemCaseSensitive (root, "traceEvents");
  const cJSON *e;
  guint n_x = 0, n_m = 0;
  double last_ts = -1;

  g_assert_nonnull (root);
  g_assert_true (cJSON_IsArray (events));
  cJSON_ArrayForEach (e, events)
    {
      const char *ph = cJSON_GetObjectItemCaseSensitive (e, "ph")->valuestring;
      if (g_str_equal (ph, "X"))
        {
          const ZwProfileRow *r = g_ptr_array_index (p->rows, n_x);
          const cJSON *args = cJSON_GetObjectItemCaseSensitive (e, "args");
          double ts = cJSON_GetObjectItemCaseSensitive (e, "ts")->valuedouble;
          double dur = cJSON_GetObjectItemCaseSensitive (e, "dur")->valuedouble;
          double pid = cJSON_GetObjectItemCaseSensitive (e, "pid")->valuedouble;

          g_assert_cmpfloat_with_epsilon (dur, r->total_ms * 1000.0, 1e-9);  /* microseconds */
          g_assert_cmpfloat_with_epsilon (ts, r->start_ms * 1000.0, 1e-9);
          g_assert_cmpfloat (ts, >, last_ts);
          last_ts = ts;
          g_assert_cmpfloat (pid, ==, g_str_equal (r->backend, "ZG330") ? 1 : 2);
          g_assert_cmpfloat (cJSON_GetObjectItemCaseSensitive (args, "op_id")->valuedouble, ==, (double) r->op_id);
          g_assert_cmpfloat (cJSON_GetObjectItemCaseSensitive (args, "hard_ms")->valuedouble, ==, r->hard_ms);
          n_x++;
        }
      else if (g_str_equal (ph, "M"))
        n_m++;
    }
  g_assert_cmpuint (n_x, ==, p->rows->len);
  g_assert_cmpuint (n_m, ==, 2);
  cJSON_Delete (root);
}

static void
test_trace_lays_out_unknown_starts (void)
{
  g_autoptr (ZwProfile) p = load_vendor_sample (NULL);
  g_autofree char *text = NULL;
  g_autoptr (ZwProfile) back = NULL;
  g_autoptr (GError) error = NULL;
  double cursor = 0;

  if (!p)
    {
      g_test_skip ("the vendor sample is not available");
      return;
    }
  text = zw_profile_to_string (p, ZW_PROFILE_FORMAT_TRACE);
  back = zw_profile_parse (text, -1, "trace.json", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->rows->len, ==, 6);
  for (guint i = 0; i < back->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (back->rows, i);
      g_assert_cmpfloat_with_epsilon (r->start_ms, cursor, 1e-9);
      cursor += r->total_ms;
    }
  g_assert_cmpfloat (((ZwProfileRow *) g_ptr_array_index (back->rows, 2))->other_ms, ==, -5.49269);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/number/vendor-style", test_number_format);
  g_test_add_func ("/profile/vendor/parses-real-file", test_vendor_parses_real_file);
  g_test_add_func ("/profile/vendor/rewrites-real-file-exactly", test_vendor_rewrites_real_file_exactly);
  g_test_add_func ("/profile/vendor/writes-is-io-process", test_vendor_with_io_process);
  g_test_add_func ("/profile/roundtrip/vendor", test_roundtrip_vendor);
  g_test_add_func ("/profile/roundtrip/json", test_roundtrip_json);
  g_test_add_func ("/profile/roundtrip/csv", test_roundtrip_csv);
  g_test_add_func ("/profile/roundtrip/trace", test_roundtrip_trace);
  g_test_add_func ("/profile/parse/garbage-lines-reported-with-line-numbers", test_garbage_lines_reported);
  g_test_add_func ("/profile/parse/no-profile-is-error", test_no_profile_is_error);
  g_test_add_func ("/profile/parse/malformed-row-refused-in-every-format", test_malformed_row_refused_in_every_format);
  g_test_add_func ("/profile/trace/valid-json-one-x-event-per-op", test_trace_valid_json);
  g_test_add_func ("/profile/trace/lays-out-rows-without-start", test_trace_lays_out_unknown_starts);
  return g_test_run ();
}
