/* test-dump.c — {v_id}.ftmp in the six vendor formats, manifest.json, dump folders. */
#include "zw-test-util.h"
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <cjson/cJSON.h>

#include "report/zw-dump.h"

/* ---- a network with three typed values ------------------------------------------ */

#define C_REAL 40   /* v3: 40 channels stored as NCHWc32 [1, 2, 2, 3, 32] (24 padding) */

static float
scale_of_channel (guint c)
{
  return 0.0625f * (float) (c + 1);
}

static XirNetwork *
make_network (void)
{
  static const int s3[] = { 1, 2, 2, 3, 32 }, s4[] = { 1, 2, 3, 3 }, s5[] = { 1, 2, 2, 2 };
  cJSON *root = cJSON_CreateObject ();
  cJSON *ops = cJSON_AddArrayToObject (root, "ops");
  GString *scales = g_string_new (NULL);
  cJSON *vals[3], *in, *out;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  XirNetwork *net;

  for (guint c = 0; c < C_REAL; c++)
    g_string_append_printf (scales, "%s%g", c ? "," : "", (double) scale_of_channel (c));
  vals[0] = zw_test_value_json (3, "@sint(8)", scales->str, "NCHWc32", s3, 5, "@chunk(0@0)");
  vals[1] = zw_test_value_json (4, "@uint(8)", NULL, "NHWC", s4, 4, "@chunk(1@0)");
  vals[2] = zw_test_value_json (5, "@fp(32)", NULL, "NHWC", s5, 4, "@chunk(2@0)");
  g_string_free (scales, TRUE);
  cJSON_AddStringToObject (root, "_type_key", "icraft::xir::Network");
  cJSON_AddStringToObject (root, "ai_target", "@zhuget(330)");
  cJSON_AddStringToObject (root, "framework_kind", "PYTORCH");
  cJSON_AddStringToObject (root, "framework_version", "1.9");
  cJSON_AddStringToObject (root, "icraft_version", "v3.33.1");
  cJSON_AddStringToObject (root, "icraft_xir_version", "3.33.1.0");
  cJSON_AddStringToObject (root, "name", "dumps");
  cJSON_AddItemToObject (root, "tags", cJSON_CreateObject ());
  in = zw_test_op_json (ops, "icraft::xir::Input", "@hostt", 0);
  out = zw_test_op_json (ops, "icraft::xir::Output", "@hostt", 1);
  for (guint i = 0; i < 3; i++)
    {
      cJSON_AddItemToArray (cJSON_GetObjectItem (in, "outputs"), cJSON_Duplicate (vals[i], TRUE));
      cJSON_AddItemToArray (cJSON_GetObjectItem (out, "inputs"), vals[i]);
    }
  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  net = xir_network_new_from_json_data (text, strlen (text), "dumps.json", &error);
  g_assert_no_error (error);
  return net;
}

/* v3's stored bytes: a pattern that differs per channel and position. */
static guint8 *
v3_bytes (const XirValue *v)
{
  guint8 *b = g_malloc (v->storage_bytes);

  g_assert_cmpuint (v->storage_bytes, ==, 2 * 2 * 3 * 32);
  for (gsize i = 0; i < v->storage_bytes; i++)
    b[i] = (guint8) (gint8) ((gint) (i * 29 % 251) - 125);
  return b;
}

static gsize
v3_at (guint c, guint h, guint w)
{
  return (((gsize) (c / 32) * 2 + h) * 3 + w) * 32 + c % 32;
}

static ZwDumpFormat
fmt (const char *text)
{
  ZwDumpFormat f;
  g_autoptr (GError) error = NULL;

  g_assert_true (zw_dump_format_parse (text, &f, &error));
  g_assert_no_error (error);
  return f;
}

typedef struct {
  XirNetwork *net;
  char *dir;
  ZwDumpType t3, t4, t5;
  guint8 *b3;
} Fixture;

static void
fixture_set_up (Fixture *fx, gconstpointer data)
{
  (void) data;
  fx->net = make_network ();
  fx->dir = g_dir_make_tmp ("zw-dump-XXXXXX", NULL);
  zw_dump_type_init_from_value (&fx->t3, xir_network_get_value (fx->net, 3));
  zw_dump_type_init_from_value (&fx->t4, xir_network_get_value (fx->net, 4));
  zw_dump_type_init_from_value (&fx->t5, xir_network_get_value (fx->net, 5));
  fx->b3 = v3_bytes (xir_network_get_value (fx->net, 3));
}

static void
fixture_tear_down (Fixture *fx, gconstpointer data)
{
  (void) data;
  zw_test_remove_tree (fx->dir);
  g_free (fx->dir);
  zw_dump_type_clear (&fx->t3);
  zw_dump_type_clear (&fx->t4);
  zw_dump_type_clear (&fx->t5);
  g_free (fx->b3);
  xir_network_unref (fx->net);
}

static ZwDumpData *
write_and_read (Fixture *fx, const ZwDumpType *t, const guint8 *data, gsize size, const char *format)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  ZwDumpData *d;

  g_assert_true (zw_dump_write_value (fx->dir, t, data, size, fmt (format), &path, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, "/3.ftmp") || g_str_has_suffix (path, "/4.ftmp")
                 || g_str_has_suffix (path, "/5.ftmp"));
  d = zw_dump_read_file (path, t, fmt (format), &error);
  g_assert_no_error (error);
  return d;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void
test_format_parse (void)
{
  const char *valid[] = { "SFB", "SFT", "SQB", "SQT", "HQB", "HQT", "sfb" };
  const char *invalid[] = { "HFB", "HFT", "XYZ", "SF", "SFBB", "" };
  g_autoptr (GError) error = NULL;
  ZwDumpFormat f;

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_assert_true (zw_dump_format_parse (valid[i], &f, &error));
      g_assert_cmpstr (zw_dump_format_to_string (f), ==, i < 6 ? valid[i] : "SFB");
    }
  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_assert_false (zw_dump_format_parse (invalid[i], &f, &error));
      g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT);
      g_assert_nonnull (strstr (error->message, invalid[i]));
      g_clear_error (&error);
    }
}

static void
test_sqb_reads_back_bytes (Fixture *fx, gconstpointer data)
{
  g_autoptr (ZwDumpData) d = NULL;
  g_autoptr (ZwDumpData) d4 = NULL;
  guint8 img[18];
  const guint8 *bytes;
  gsize len;

  (void) data;
  d = write_and_read (fx, &fx->t3, fx->b3, 384, "SQB");
  g_assert_cmpstr (d->shape.layout, ==, "NHWC");
  g_assert_cmpuint (d->shape.rank, ==, 4);
  g_assert_cmpint (d->shape.shape[1], ==, 2);
  g_assert_cmpint (d->shape.shape[2], ==, 3);
  g_assert_cmpint (d->shape.shape[3], ==, C_REAL);   /* padding channels dropped */
  bytes = g_bytes_get_data (d->bytes, &len);
  g_assert_cmpuint (len, ==, 2 * 3 * C_REAL);
  for (guint h = 0; h < 2; h++)
    for (guint w = 0; w < 3; w++)
      for (guint c = 0; c < C_REAL; c++)
        {
          gsize i = ((gsize) h * 3 + w) * C_REAL + c;
          g_assert_cmpuint (bytes[i], ==, fx->b3[v3_at (c, h, w)]);
          g_assert_cmpfloat (d->values[i], ==, (float) (gint8) fx->b3[v3_at (c, h, w)] * scale_of_channel (c));
        }

  /* An NHWC uint8 image is already "software": SQB is its bytes. */
  for (guint i = 0; i < sizeof img; i++)
    img[i] = (guint8) (i * 13);
  d4 = write_and_read (fx, &fx->t4, img, sizeof img, "SQB");
  {
    g_autofree char *p = NULL;
    g_autofree char *raw = NULL;
    gsize rlen;
    g_assert_true (zw_dump_write_from_value (fx->dir, xir_network_get_value (fx->net, 4), img, sizeof img,
                                             fmt ("SQB"), &p, NULL));
    g_assert_true (g_file_get_contents (p, &raw, &rlen, NULL));
    g_assert_cmpmem (raw, rlen, img, sizeof img);
  }
  bytes = g_bytes_get_data (d4->bytes, &len);
  g_assert_cmpmem (bytes, len, img, sizeof img);
}

static void
test_sfb_equals_dequantised (Fixture *fx, gconstpointer data)
{
  g_autoptr (ZwDumpData) d = NULL;
  g_autofree char *path = g_build_filename (fx->dir, "3.ftmp", NULL);
  g_autofree char *raw = NULL;
  gsize len;

  (void) data;
  d = write_and_read (fx, &fx->t3, fx->b3, 384, "SFB");
  g_assert_true (g_file_get_contents (path, &raw, &len, NULL));
  g_assert_cmpuint (len, ==, 2 * 3 * C_REAL * sizeof (float));
  for (guint h = 0; h < 2; h++)
    for (guint w = 0; w < 3; w++)
      for (guint c = 0; c < C_REAL; c++)
        {
          gsize i = ((gsize) h * 3 + w) * C_REAL + c;
          float expect = (float) (gint8) fx->b3[v3_at (c, h, w)] * scale_of_channel (c);
          float in_file;
          guint32 le;

          memcpy (&le, raw + i * 4, 4);
          le = GUINT32_FROM_LE (le);
          memcpy (&in_file, &le, 4);
          g_assert_cmpfloat (in_file, ==, expect);
          g_assert_cmpfloat (d->values[i], ==, expect);
        }
}

static void
test_hqb_keeps_hardware_layout (Fixture *fx, gconstpointer data)
{
  g_autoptr (ZwDumpData) d = NULL;
  g_autofree char *path = g_build_filename (fx->dir, "3.ftmp", NULL);
  g_autofree char *raw = NULL;
  gsize len;

  (void) data;
  d = write_and_read (fx, &fx->t3, fx->b3, 384, "HQB");
  g_assert_true (g_file_get_contents (path, &raw, &len, NULL));
  g_assert_cmpmem (raw, len, fx->b3, 384);   /* padding channels included */
  g_assert_cmpstr (d->shape.layout, ==, "NCHWc32");
  g_assert_cmpuint (d->shape.rank, ==, 5);
  /* Element (c = 33, h = 1, w = 2) sits in block 1; its value uses channel 33's scale. */
  g_assert_cmpfloat (d->values[v3_at (33, 1, 2)], ==, (float) (gint8) fx->b3[v3_at (33, 1, 2)] * scale_of_channel (33));
}

static guint
count_lines (const char *path)
{
  g_autofree char *text = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

static void
test_text_formats_parse_back (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fx->dir, "3.ftmp", NULL);
  const char *pairs[][2] = { { "SQT", "SQB" }, { "SFT", "SFB" }, { "HQT", "HQB" } };

  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr (ZwDumpData) text = write_and_read (fx, &fx->t3, fx->b3, 384, pairs[i][0]);
      guint lines = count_lines (path);
      g_autoptr (ZwDumpData) bin = write_and_read (fx, &fx->t3, fx->b3, 384, pairs[i][1]);

      g_assert_cmpuint (lines, ==, text->shape.n_elements);   /* one number per line */
      g_assert_true (g_bytes_equal (text->bytes, bin->bytes));
      for (guint64 k = 0; k < text->shape.n_elements; k++)
        g_assert_cmpfloat (text->values[k], ==, bin->values[k]);
    }
}

static void
test_invalid_conversions (Fixture *fx, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  float f[8] = { 1.5f, -2.25f, 0, 3e-8f, 1e20f, -0.1f, 7, 8 };
  g_autoptr (ZwDumpData) d = NULL;

  (void) data;
  /* A float value has no fixed-point form. */
  g_assert_false (zw_dump_write_value (fx->dir, &fx->t5, (const guint8 *) f, sizeof f, fmt ("SQB"), NULL, &error));
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "5.ftmp"));
  g_clear_error (&error);
  /* …but SFT keeps every float exactly. */
  d = write_and_read (fx, &fx->t5, (const guint8 *) f, sizeof f, "SFT");
  for (guint i = 0; i < 8; i++)
    g_assert_cmpfloat (d->values[i], ==, f[i]);
  /* The data must be the value's size. */
  g_assert_false (zw_dump_write_value (fx->dir, &fx->t3, fx->b3, 100, fmt ("SQB"), NULL, &error));
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE);
}

static void
test_truncated_and_garbage_files (Fixture *fx, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *raw = NULL;
  gsize len;
  ZwDumpData *d;

  (void) data;
  g_assert_true (zw_dump_write_value (fx->dir, &fx->t3, fx->b3, 384, fmt ("SQB"), &path, &error));
  g_assert_true (g_file_get_contents (path, &raw, &len, NULL));
  g_assert_true (g_file_set_contents (path, raw, (gssize) len - 1, NULL));
  d = zw_dump_read_file (path, &fx->t3, fmt ("SQB"), &error);
  g_assert_null (d);
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "1\n2\nthree\n", -1, NULL));
  d = zw_dump_read_file (path, &fx->t3, fmt ("SQT"), &error);
  g_assert_null (d);
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, ":3:"));
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "1\n2\n300\n", -1, NULL));   /* out of sint8 range */
  d = zw_dump_read_file (path, &fx->t3, fmt ("SQT"), &error);
  g_assert_null (d);
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "1\n2\n3\n", -1, NULL));
  d = zw_dump_read_file (path, &fx->t3, fmt ("SQT"), &error);
  g_assert_null (d);
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "3 numbers"));
}

static void
test_manifest_roundtrip (Fixture *fx, gconstpointer data)
{
  g_autoptr (ZwDumpManifest) m = zw_dump_manifest_new ("dumps", fmt ("SFB"), FALSE,
                                                       "merge on: only launch outputs were observable");
  g_autoptr (ZwDumpManifest) back = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (fx->dir, "manifest.json", NULL);
  const ZwDumpManifestEntry *e;

  (void) data;
  zw_dump_manifest_add (m, xir_network_get_value (fx->net, 3), 0, ZW_DUMP_MEMORY_OCM, 0x1000);
  zw_dump_manifest_add (m, xir_network_get_value (fx->net, 4), 0, ZW_DUMP_MEMORY_ETM, G_GINT64_CONSTANT (0x100000000));
  g_assert_true (zw_dump_manifest_write (m, fx->dir, &error));
  g_assert_no_error (error);
  back = zw_dump_manifest_load (path, warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpstr (back->network, ==, "dumps");
  g_assert_false (back->complete);
  g_assert_cmpstr (back->note, ==, "merge on: only launch outputs were observable");
  g_assert_cmpstr (zw_dump_format_to_string (back->format), ==, "SFB");
  g_assert_cmpuint (back->entries->len, ==, 2);
  e = g_ptr_array_index (back->entries, 0);
  g_assert_cmpint (e->type.v_id, ==, 3);
  g_assert_cmpint (e->op_id, ==, 0);
  g_assert_cmpint (e->memory, ==, ZW_DUMP_MEMORY_OCM);
  g_assert_cmpint (e->address, ==, 0x1000);
  g_assert_cmpstr (e->file, ==, "3.ftmp");
  g_assert_cmpstr (e->type.layout.text, ==, "NCHWc32");
  g_assert_cmpuint (e->type.rank, ==, 5);
  g_assert_cmpuint (e->type.n_scales, ==, C_REAL);
  for (guint c = 0; c < C_REAL; c++)
    g_assert_cmpfloat (e->type.scales[c], ==, scale_of_channel (c));
  e = g_ptr_array_index (back->entries, 1);
  g_assert_cmpint (e->memory, ==, ZW_DUMP_MEMORY_ETM);
  g_assert_cmpint (e->address, ==, G_GINT64_CONSTANT (0x100000000));
  g_assert_false (e->type.quantized);
  g_assert_cmpuint (e->type.storage.kind, ==, XIR_SCALAR_UINT);
}

static void
test_manifest_missing_fields (Fixture *fx, gconstpointer data)
{
  const char *text =
    "{\"format\": \"zhuge-dump-manifest\", \"version\": 1, \"dump_format\": \"SQB\", \"complete\": true,\n"
    " \"entries\": [\n"
    "  {\"v_id\": 4, \"op\": 0, \"shape\": [1,2,3,3], \"dtype\": \"@uint(8)\", \"layout\": \"NHWC\", \"scales\": [],"
    "   \"memory\": \"HOST\", \"address\": -1, \"format\": \"SQB\", \"file\": \"4.ftmp\"},\n"
    "  {\"v_id\": 3, \"op\": 0, \"shape\": [1,2,2,3,32], \"layout\": \"NCHWc32\", \"format\": \"SQB\", \"file\": \"3.ftmp\"},\n"
    "  {\"v_id\": 5, \"shape\": [1,2,2,2], \"dtype\": \"@fp(32)\", \"layout\": \"NHWC\", \"format\": \"SFB\"}\n"
    " ]}";
  g_autofree char *path = g_build_filename (fx->dir, "manifest.json", NULL);
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpManifest) m = NULL;

  (void) data;
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  m = zw_dump_manifest_load (path, warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->entries->len, ==, 1);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), path));
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), "entries[1] (v_id 3): field dtype"));
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 1), "entries[2] (v_id 5): field file"));
  zw_dump_manifest_free (g_steal_pointer (&m));

  g_assert_true (g_file_set_contents (path, "{\"format\": \"zhuge-dump-manifest\"}", -1, NULL));
  m = zw_dump_manifest_load (path, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "entries"));
}

static void
test_folder_with_manifest (Fixture *fx, gconstpointer data)
{
  g_autoptr (ZwDumpManifest) m = zw_dump_manifest_new ("dumps", fmt ("SQT"), TRUE, NULL);
  g_autoptr (ZwDumpFolder) f = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *stray = g_build_filename (fx->dir, "999.ftmp", NULL);
  guint8 img[18] = { 0 };

  (void) data;
  zw_dump_manifest_add (m, xir_network_get_value (fx->net, 3), 0, ZW_DUMP_MEMORY_ETM, 64);
  zw_dump_manifest_add (m, xir_network_get_value (fx->net, 4), 0, ZW_DUMP_MEMORY_HOST, -1);
  g_assert_true (zw_dump_manifest_write (m, fx->dir, &error));
  g_assert_true (zw_dump_write_value (fx->dir, &fx->t3, fx->b3, 384, fmt ("SQT"), NULL, &error));
  g_assert_true (zw_dump_write_value (fx->dir, &fx->t4, img, sizeof img, fmt ("SQT"), NULL, &error));
  g_assert_true (g_file_set_contents (stray, "1\n", -1, NULL));

  f = zw_dump_folder_load (fx->dir, NULL, NULL, &error);   /* no network needed */
  g_assert_no_error (error);
  g_assert_nonnull (f->manifest);
  g_assert_cmpuint (f->values->len, ==, 2);
  g_assert_cmpint (((ZwDumpData *) g_ptr_array_index (f->values, 0))->v_id, ==, 3);
  g_assert_cmpint (((ZwDumpData *) g_ptr_array_index (f->values, 1))->v_id, ==, 4);
  g_assert_cmpuint (f->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (f->warnings, 0), "999.ftmp"));
}

static void
test_folder_from_board (Fixture *fx, gconstpointer data)
{
  g_autofree char *dir = g_build_filename (fx->dir, "ftmpSQB", NULL);
  g_autofree char *p4 = NULL;
  g_autofree char *p77 = g_build_filename (dir, "77.ftmp", NULL);
  g_autoptr (ZwDumpFolder) f = NULL;
  g_autoptr (GError) error = NULL;
  guint8 img[18] = { 0 };

  (void) data;
  g_assert_true (zw_dump_write_value (dir, &fx->t3, fx->b3, 384, fmt ("SQB"), NULL, &error));
  g_assert_true (zw_dump_write_value (dir, &fx->t4, img, sizeof img, fmt ("SQB"), &p4, &error));
  g_assert_true (g_file_set_contents (p4, (const char *) img, 10, NULL));   /* truncated */
  g_assert_true (g_file_set_contents (p77, "x", 1, NULL));                  /* no such v_id */

  f = zw_dump_folder_load (dir, fx->net, NULL, &error);   /* format from the folder name */
  g_assert_no_error (error);
  g_assert_null (f->manifest);
  g_assert_cmpstr (zw_dump_format_to_string (f->format), ==, "SQB");
  g_assert_cmpuint (f->values->len, ==, 1);
  g_assert_cmpint (((ZwDumpData *) g_ptr_array_index (f->values, 0))->v_id, ==, 3);
  g_assert_cmpuint (f->warnings->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const char *w = g_ptr_array_index (f->warnings, i);
      g_assert_true (strstr (w, "4.ftmp") || strstr (w, "77.ftmp"));
    }
  zw_dump_folder_free (g_steal_pointer (&f));

  f = zw_dump_folder_load (dir, NULL, NULL, &error);
  g_assert_null (f);
  g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "ftmpSQB"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dump/format/parse-and-reject-hf", test_format_parse);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/dump/sqb/reads-back-bytes-without-padding", test_sqb_reads_back_bytes);
  ADD ("/dump/sfb/equals-dequantised", test_sfb_equals_dequantised);
  ADD ("/dump/hqb/keeps-hardware-layout", test_hqb_keeps_hardware_layout);
  ADD ("/dump/text/parses-back-to-the-binary", test_text_formats_parse_back);
  ADD ("/dump/format/float-value-has-no-q", test_invalid_conversions);
  ADD ("/dump/read/truncated-and-garbage-files-error", test_truncated_and_garbage_files);
  ADD ("/dump/manifest/roundtrip", test_manifest_roundtrip);
  ADD ("/dump/manifest/missing-fields-warn-or-error", test_manifest_missing_fields);
  ADD ("/dump/folder/with-manifest", test_folder_with_manifest);
  ADD ("/dump/folder/board-dump-typed-by-network", test_folder_from_board);
  return g_test_run ();
}
