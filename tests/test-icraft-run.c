/* test-icraft-run — `xrt-run run` as the icraft-run manual writes it (issue 36, item 6): its
 * examples in both forms (a [run] config file and `--json F --raw F --input F …`) on the demo
 * networks, image inputs (made here with gdk-pixbuf) against the same run given the raw
 * bytes, dumps of the values asked for in the format asked for, the log files, the board's
 * clock and wait time, a decode_dll plugin, and every bad value refused naming the file, the
 * key and the value. */
#include "zw-test-util.h"
#include "xrt-run-private.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *
net_path (const char *name, const char *ext)
{
  return g_strdup_printf ("%s/networks/%s_ZG.%s", g_getenv ("ZW_DATA_DIR"), name, ext);
}

/* Runs xrt-run run with the NULL-terminated arguments in @cwd. */
static void
run_in (ZwRun *r, const char *cwd, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *a;
  va_list ap;

  g_ptr_array_add (args, (gpointer) "run");
  va_start (ap, cwd);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  zw_test_xrt_run_bounded (r, cwd, 300, (const char *const *) args->pdata, NULL);
}

static void
assert_ok (const ZwRun *r)
{
  if (r->status != 0)
    g_error ("xrt-run run failed (%d): %s", r->status, r->err);
}

/* An image of @w×@h RGB pixels (a pattern from @seed) saved as @format ("png", "bmp",
 * "jpeg") at @path; returns its pixels, packed RGB rows (the bytes of a uint8 NHWC input). */
static guint8 *
write_image (const char *path, const char *format, int w, int h, guint seed)
{
  g_autoptr (GdkPixbuf) pb = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, w, h);
  g_autoptr (GError) error = NULL;
  guint8 *packed = g_malloc ((gsize) w * h * 3);
  guchar *px = gdk_pixbuf_get_pixels (pb);
  int stride = gdk_pixbuf_get_rowstride (pb);
  GRand *rand = g_rand_new_with_seed (seed);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w * 3; x++)
      px[y * stride + x] = packed[(y * w * 3) + x] = (guint8) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  g_assert_true (gdk_pixbuf_save (pb, path, format, &error, NULL));
  g_assert_no_error (error);
  return packed;
}

static GBytes *
slurp (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, &error))
    g_error ("%s: %s", path, error->message);
  return g_bytes_new_take (text, len);
}

static void
assert_same_file (const char *dir_a, const char *dir_b, const char *name)
{
  g_autoptr (GBytes) a = slurp (dir_a, name);
  g_autoptr (GBytes) b = slurp (dir_b, name);

  g_assert_cmpuint (g_bytes_get_size (a), >, 0);
  g_assert_true (g_bytes_equal (a, b));
}

static gint
by_name (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The names of the .ftmp files in @dir, sorted, joined by ",". */
static char *
ftmp_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *n;

  g_assert_nonnull (d);
  while ((n = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (n, ".ftmp"))
      g_ptr_array_add (names, g_strdup (n));
  g_ptr_array_sort (names, by_name);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (",", (char **) names->pdata);
}

static guint
count_files (const char *list)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);
  return *list ? g_strv_length (names) : 0;
}

static double
last_time_ms (const ZwRun *r)
{
  const char *at = strstr (r->out, "last one ");

  g_assert_nonnull (at);
  return g_ascii_strtod (at + strlen ("last one "), NULL);
}

/* §2.1.1 as written, both forms, on every demo network with a PNG of its input's size: runs,
 * and the config file and the flags give the same output bytes. */
static void
test_manual_json_raw_on_demo_networks (void)
{
  static const char *const nets[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s" };

  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
      g_autofree char *json = net_path (nets[i], "json"), *raw = net_path (nets[i], "raw");
      g_autofree char *images = g_build_filename (dir, "images", NULL);
      g_autofree char *png = g_build_filename (images, "cat.png", NULL);
      g_autofree char *toml = g_build_filename (dir, "sample.toml", NULL);
      g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\nraw = \"%s\"\ninput = \"./images/cat.png\"\n"
                                              "lazy_load = true\ndump_format = \"SQB\"\ndump_output = true\n"
                                              "log_path = \"toml-logs\"\n", json, raw);
      g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, NULL);
      const XirValue *in;
      g_autofree guint8 *pixels = NULL;
      g_autofree char *a = NULL, *b = NULL, *files = NULL;
      g_auto (ZwRun) r1 = { 0 };
      g_auto (ZwRun) r2 = { 0 };
      GPtrArray *outs;

      g_assert_nonnull (net);
      in = g_ptr_array_index (xir_network_get_inputs (net), 0);
      g_assert_cmpstr (in->layout.text, ==, "NHWC");
      g_assert_cmpint (g_mkdir_with_parents (images, 0755), ==, 0);
      pixels = write_image (png, "png", (int) in->shape[2], (int) in->shape[1], i);
      g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
      run_in (&r1, dir, "./sample.toml", NULL);
      assert_ok (&r1);
      run_in (&r2, dir, "--json", json, "--raw", raw, "--input", "./images/cat.png", "--lazy_load", "--dump_format",
              "SQB", "--dump_output", NULL);
      assert_ok (&r2);
      /* the flags' logs go to icraft-run's default, .logs/NETWORK/ */
      a = g_build_filename (dir, "toml-logs", xir_network_get_name (net), "ftmpSQB", NULL);
      b = g_build_filename (dir, ".logs", xir_network_get_name (net), "ftmpSQB", NULL);
      outs = xir_network_get_outputs (net);
      files = ftmp_files (b);
      for (guint k = 0; k < outs->len; k++)
        {
          g_autofree char *name = g_strdup_printf ("%li.ftmp", (long) ((XirValue *) g_ptr_array_index (outs, k))->v_id);
          g_assert_nonnull (strstr (files, name));
          assert_same_file (a, b, name);
        }
      /* only the outputs: one file each */
      g_assert_cmpuint (count_files (files), ==, outs->len);
      g_test_message ("%s: %s", nets[i], files);
    }
}

/* A PNG input gives the bytes of the same run given the raw pixels: the input value holds
 * them (dump_ftmp "0,31" in SQB) and the output is the same; a BMP too; an image of another
 * size is scaled to the input's. */
static void
test_image_input_equals_raw_input (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  g_autofree char *png = g_build_filename (dir, "cat.png", NULL);
  g_autofree char *bmp = g_build_filename (dir, "cat.bmp", NULL);
  g_autofree char *big = g_build_filename (dir, "big.jpg", NULL);
  g_autofree char *bin = g_build_filename (dir, "cat.bin", NULL);
  g_autofree guint8 *pixels = write_image (png, "png", 16, 16, 7);
  g_autofree guint8 *same = write_image (bmp, "bmp", 16, 16, 7);
  g_autofree guint8 *other = write_image (big, "jpeg", 40, 30, 8);
  g_autofree char *l_png = g_build_filename (dir, "png", NULL), *l_bmp = g_build_filename (dir, "bmp", NULL);
  g_autofree char *l_raw = g_build_filename (dir, "raw", NULL), *l_big = g_build_filename (dir, "big", NULL);
  g_autofree char *d_png = g_build_filename (l_png, "tiny", "ftmpSQB", NULL);
  g_autofree char *d_raw = g_build_filename (l_raw, "tiny", "ftmpSQB", NULL);
  g_autofree char *d_bmp = g_build_filename (l_bmp, "tiny", "ftmpSQB", NULL);
  g_autofree char *d_big = g_build_filename (l_big, "tiny", "ftmpSQB", NULL);
  g_autoptr (GBytes) input = NULL;
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };
  g_auto (ZwRun) d = { 0 };

  g_assert_cmpmem (pixels, 768, same, 768);
  g_assert_true (g_file_set_contents (bin, (const char *) pixels, 768, NULL));
  run_in (&a, dir, "--json", json, "--input", "cat.png", "--dump_format", "SQB", "--dump_ftmp", "0,31", "--log_path", l_png,
          NULL);
  run_in (&b, dir, "--json", json, "--input", "cat.bin", "--dump_format", "SQB", "--dump_ftmp", "0,31", "--log_path", l_raw,
          NULL);
  run_in (&c, dir, "--json", json, "--input", "cat.bmp", "--dump_format", "SQB", "--dump_ftmp", "0,31", "--log_path", l_bmp,
          NULL);
  run_in (&d, dir, "--json", json, "--input", "big.jpg", "--dump_format", "SQB", "--dump_ftmp", "0", "--log_path", l_big,
          NULL);
  assert_ok (&a);
  assert_ok (&b);
  assert_ok (&c);
  assert_ok (&d);
  /* the input holds the pixels, in NHWC RGB order */
  input = slurp (d_png, "0.ftmp");
  g_assert_cmpmem (g_bytes_get_data (input, NULL), g_bytes_get_size (input), pixels, 768);
  assert_same_file (d_png, d_raw, "0.ftmp");
  assert_same_file (d_png, d_raw, "31.ftmp");
  assert_same_file (d_png, d_bmp, "31.ftmp");
  {
    g_autoptr (GBytes) scaled = slurp (d_big, "0.ftmp");
    g_assert_cmpuint (g_bytes_get_size (scaled), ==, 768);
  }
}

/* §2.6: dump_format SFT + dump_ftmp gives those values only, as text; dump_output the
 * network's outputs only; without dump_ftmp every value; dump_ftmp without dump_format is
 * refused (it would dump nothing). */
static void
test_dumps_in_the_format_asked (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  g_autofree char *toml = g_build_filename (dir, "sample.toml", NULL);
  g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\ndump_format = \"SFT\"\ndump_ftmp = \"7,31,75\"\n", json);
  g_autofree char *sft = g_build_filename (dir, ".logs", "tiny", "ftmpSFT", NULL);
  g_autofree char *sfb = g_build_filename (dir, ".logs", "tiny", "ftmpSFB", NULL);
  g_autofree char *files = NULL, *all = NULL;
  g_autoptr (GBytes) text = NULL;
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };

  g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
  run_in (&a, dir, "sample.toml", NULL);
  assert_ok (&a);
  files = ftmp_files (sft);
  g_assert_cmpstr (files, ==, "31.ftmp,7.ftmp");
  g_assert_nonnull (strstr (a.err, "no value 75"));
  text = slurp (sft, "31.ftmp");
  /* SFT: one float per line, as text */
  g_assert_true (g_ascii_isdigit (((const char *) g_bytes_get_data (text, NULL))[0])
                 || ((const char *) g_bytes_get_data (text, NULL))[0] == '-');
  g_assert_nonnull (memchr (g_bytes_get_data (text, NULL), '.', g_bytes_get_size (text)));
  {
    g_autoptr (GBytes) m = slurp (sft, "manifest.json");
    g_autofree char *s = g_strndup (g_bytes_get_data (m, NULL), g_bytes_get_size (m));
    cJSON *root = cJSON_Parse (s);
    g_assert_nonnull (root);
    g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (root, "dump_format")), ==, "SFT");
    g_assert_cmpint (cJSON_GetArraySize (cJSON_GetObjectItem (root, "entries")), ==, 2);
    /* a choice of values is not a complete dump */
    g_assert_true (cJSON_IsFalse (cJSON_GetObjectItem (root, "complete")));
    cJSON_Delete (root);
  }
  run_in (&b, dir, "--json", json, "--dump_format", "SFB", NULL);
  assert_ok (&b);
  all = ftmp_files (sfb);
  g_assert_cmpuint (count_files (all), >, 5);
  run_in (&c, dir, "--json", json, "--dump_ftmp", "5,12,75", NULL);
  g_assert_cmpint (c.status, ==, 1);
  g_assert_nonnull (strstr (c.err, "dump_format"));
}

/* §2.1.2 jr_path + network, §2.3.2 an input list, §2.4/2.5 log_time and log_io into the log
 * folder, §2.9 save_snapshot there, §2.1.3 load_snapshot from it. */
static void
test_manual_logs_lists_and_snapshots (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  g_autofree char *netdir = g_path_get_dirname (json);
  g_autofree char *toml = g_build_filename (dir, "sample.toml", NULL);
  g_autofree char *snap_toml = g_build_filename (dir, "snap.toml", NULL);
  g_autofree char *list = g_build_filename (dir, "img_list.txt", NULL);
  g_autofree char *png = g_build_filename (dir, "a.png", NULL), *bmp = g_build_filename (dir, "b.bmp", NULL);
  g_autofree guint8 *pa = write_image (png, "png", 16, 16, 1);
  g_autofree guint8 *pb = write_image (bmp, "bmp", 16, 16, 2);
  g_autofree char *cfg = g_strdup_printf ("[run]\njr_path = \"%s\"\nnetwork = \"./tiny_ZG\"\ninput = \"./img_list.txt\"\n"
                                          "lazy_load = true\nlog_time = true\nlog_io = true\nsave_snapshot = true\n"
                                          "backends = \"ZG330,mock://zg330;Host\"\n", netdir);
  g_autofree char *snap_cfg = g_strdup ("[run]\nload_snapshot = \"./.logs/tiny/tiny.snapshot\"\ninput = \"./a.png\"\n"
                                               "backends = \"ZG330,mock://zg330;Host\"\n");
  g_autoptr (GBytes) tlog = NULL, iolog = NULL;
  g_autofree char *logs = g_build_filename (dir, ".logs", "tiny", NULL);
  g_autofree char *snapshot = g_build_filename (logs, "tiny.snapshot", NULL);
  g_autofree char *time_txt = g_build_filename (logs, "tiny_time.txt", NULL);
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };

  g_assert_true (g_file_set_contents (list, "a.png\nb.bmp\n", -1, NULL));
  g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
  g_assert_true (g_file_set_contents (snap_toml, snap_cfg, -1, NULL));
  run_in (&a, dir, "sample.toml", NULL);
  assert_ok (&a);
  tlog = slurp (logs, "run_time.log");
  iolog = slurp (logs, "run_io.log");
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (tlog, NULL), (gssize) g_bytes_get_size (tlog), " time: "));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (iolog, NULL), (gssize) g_bytes_get_size (iolog), "Inputs: "));
  /* the screen shows the same lines; merge_hardop is off by default: one step per hardop */
  g_assert_nonnull (strstr (a.out, "HardOp(Conv2d)"));
  g_assert_true (g_file_test (snapshot, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (time_txt, G_FILE_TEST_IS_REGULAR));
  run_in (&b, dir, "snap.toml", NULL);
  assert_ok (&b);
  /* the flag form of §2.9 for ZG: --save_snapshot --backends "ZG330,mock://zg330;Host" */
  run_in (&c, dir, "--json", json, "--input", "./img_list.txt", "--save_snapshot", "--backends", "ZG330,mock://zg330;Host",
          "--log_path", "flags", NULL);
  assert_ok (&c);
  {
    g_autofree char *s2 = g_build_filename (dir, "flags", "tiny", "tiny.snapshot", NULL);
    g_assert_true (g_file_test (s2, G_FILE_TEST_IS_REGULAR));
  }
}

/* §2.7: frequency sets the ICore clock (a slower clock, a longer simulated time), wait_time
 * the longest wait for the board (the injected time-out says it), precheck runs. */
static void
test_device_frequency_and_wait_time (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("resnet18", "json");
  g_autofree char *tiny = net_path ("tiny", "json");
  g_auto (ZwRun) fast = { 0 };
  g_auto (ZwRun) slow = { 0 };
  g_auto (ZwRun) t = { 0 };

  run_in (&fast, dir, "--json", json, "--frequency", "1000", "--precheck", "--backends", "ZG330,mock://zg330;Host", NULL);
  run_in (&slow, dir, "--json", json, "--frequency", "250", "--precheck", "--backends", "ZG330,mock://zg330;Host", NULL);
  assert_ok (&fast);
  assert_ok (&slow);
  g_assert_cmpfloat (last_time_ms (&slow), >, 1.5 * last_time_ms (&fast));
  run_in (&t, dir, "--json", tiny, "--wait_time", "1234", "--backends", "ZG330,mock://zg330?fault=timeout@1;Host", NULL);
  g_assert_cmpint (t.status, ==, 3);
  g_assert_nonnull (strstr (t.err, "1234 ms"));
}

/* decode_dll: a plugin built against the public header turns a file into the input's bytes;
 * its output equals the run given those bytes raw; its refusal names the plugin and the file. */
static void
test_decode_dll_plugin (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  const char *plugin = g_getenv ("ZW_DECODE_PLUGIN");
  g_autofree char *bin = g_build_filename (dir, "in.bin", NULL), *rev = g_build_filename (dir, "in.rev", NULL);
  g_autofree char *toml = g_build_filename (dir, "sample.toml", NULL);
  g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\ninput = \"in.rev\"\ndecode_dll = \"%s\"\n"
                                          "dump_format = \"SQB\"\ndump_output = true\nlog_path = \"plugin\"\n", json, plugin);
  g_autofree char *d_plugin = g_build_filename (dir, "plugin", "tiny", "ftmpSQB", NULL);
  g_autofree char *d_raw = g_build_filename (dir, "raw", "tiny", "ftmpSQB", NULL);
  guint8 bytes[768], reversed[772];
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };
  g_auto (ZwRun) c = { 0 };
  g_auto (ZwRun) d = { 0 };

  g_assert_nonnull (plugin);
  for (guint i = 0; i < 768; i++)
    bytes[i] = (guint8) (i * 37 + 11);
  memcpy (reversed, "REV1", 4);
  for (guint i = 0; i < 768; i++)
    reversed[4 + i] = bytes[767 - i];
  g_assert_true (g_file_set_contents (bin, (const char *) bytes, sizeof bytes, NULL));
  g_assert_true (g_file_set_contents (rev, (const char *) reversed, sizeof reversed, NULL));
  g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
  run_in (&a, dir, "sample.toml", NULL);
  assert_ok (&a);
  run_in (&b, dir, "--json", json, "--input", "in.bin", "--dump_format", "SQB", "--dump_output", "--log_path", "raw", NULL);
  assert_ok (&b);
  assert_same_file (d_plugin, d_raw, "31.ftmp");
  /* the plugin refuses a file that is not its format: the message names both */
  run_in (&c, dir, "--json", json, "--input", "in.bin", "--decode_dll", plugin, NULL);
  g_assert_cmpint (c.status, ==, 1);
  g_assert_nonnull (strstr (c.err, "in.bin"));
  g_assert_nonnull (strstr (c.err, plugin));
  g_assert_nonnull (strstr (c.err, "not a REV1 file"));
  /* a library without the entry point */
  run_in (&d, dir, "--json", json, "--input", "in.rev", "--decode_dll", "in.bin", NULL);
  g_assert_cmpint (d.status, ==, 1);
  g_assert_nonnull (strstr (d.err, "in.bin"));
}

/* Bad values: the message names the file, the key and the value (or the flag and the value),
 * and keys the runtime cannot honour are refused with the reason. */
static void
test_bad_values_name_file_key_value (void)
{
  static const struct {
    const char *line;
    const char *key_value;  /* what the message must hold besides the file */
    const char *reason;
  } cases[] = {
    { "frequency = fast", "[run] frequency = “fast”", "MHz" },
    { "frequency = 0", "[run] frequency = “0”", "[1, 10000]" },
    { "wait_time = -5", "[run] wait_time = “-5”", "ms" },
    { "dump_format = \"HFB\"", "[run] dump_format = “HFB”", "HFB" },
    { "dump_ftmp = \"5,x\"", "[run] dump_ftmp = “5,x”", "“x”" },
    { "ocmopt = 9", "[run] ocmopt = “9”", "one of" },
    { "lazy_load = yes", "[run] lazy_load = “yes”", "true or false" },
    { "backends = \"Cuda\"", "[run] backends = “Cuda”", "ZG330, BY and Host" },
    { "backends = \"Host;ZG330,mock://zg330\"", "[run] backends = “Host;ZG330,mock://zg330”", "comes first" },
    { "backends = \"BY,mock://buyi;Host\"", "[run] backends = “BY,mock://buyi;Host”", "compiled for ZG330Backend" },
    { "close_mmu = true", "[run] close_mmu = “true”", "MMU" },
    { "compress = true", "[run] compress = “true”", "compression" },
    { "fake_qf = true", "[run] fake_qf = “true”", "HostBackend" },
    { "dump_hidden = false", "[run] dump_hidden = “false”", "merged" },
    { "colour = red", "[run] colour = “red”", "not a key of icraft-run" },
    { "input = \"broken.png\"", "broken.png", "image" },
    { "decode_dll = \"missing.so\"", "missing.so", "missing.so" },
  };
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  g_autofree char *broken = g_build_filename (dir, "broken.png", NULL);
  g_auto (ZwRun) f = { 0 };
  g_auto (ZwRun) m = { 0 };

  g_assert_true (g_file_set_contents (broken, "\x89PNG\r\n\x1a\n not really", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *toml = g_strdup_printf ("%s/bad%u.toml", dir, i);
      g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\n%s\n", json, cases[i].line);
      g_auto (ZwRun) r = { 0 };

      g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
      run_in (&r, dir, toml, NULL);
      if (r.status != 1 || strstr (r.err, cases[i].key_value) == NULL || strstr (r.err, cases[i].reason) == NULL
          || (i < 15 && strstr (r.err, toml) == NULL))
        g_error ("%s: exit %d, expected 1 and a message naming %s, %s and %s: %s", cases[i].line, r.status, toml,
                 cases[i].key_value, cases[i].reason, r.err);
    }
  /* the flag form names the flag and the value */
  run_in (&f, dir, "--json", json, "--frequency", "fast", NULL);
  g_assert_cmpint (f.status, ==, 1);
  g_assert_nonnull (strstr (f.err, "--frequency “fast”"));
  run_in (&m, dir, "--json", json, "--dump_format", NULL);
  g_assert_cmpint (m.status, ==, 1);
  g_assert_nonnull (strstr (m.err, "--dump_format needs a value"));
}

/* backends = "Host", the manual's default: the host reference run gives the board's bytes,
 * and says it ran on the host. */
static void
test_backends_host_reference_run (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  g_autofree char *host = g_build_filename (dir, "host.toml", NULL), *board = g_build_filename (dir, "board.toml", NULL);
  g_autofree char *png = g_build_filename (dir, "cat.png", NULL);
  g_autofree guint8 *pixels = write_image (png, "png", 16, 16, 3);
  g_autofree char *common = g_strdup_printf ("[run]\njson = \"%s\"\ninput = \"cat.png\"\ndump_format = \"SQB\"\n"
                                             "dump_output = true\n", json);
  g_autofree char *hcfg = g_strdup_printf ("%sbackends = \"Host\"\nlog_path = \"host\"\n", common);
  g_autofree char *bcfg = g_strdup_printf ("%sbackends = \"ZG330,mock://zg330;Host\"\nlog_path = \"board\"\n", common);
  g_autofree char *d_host = g_build_filename (dir, "host", "tiny", "ftmpSQB", NULL);
  g_autofree char *d_board = g_build_filename (dir, "board", "tiny", "ftmpSQB", NULL);
  g_auto (ZwRun) h = { 0 };
  g_auto (ZwRun) b = { 0 };

  g_assert_true (g_file_set_contents (host, hcfg, -1, NULL));
  g_assert_true (g_file_set_contents (board, bcfg, -1, NULL));
  run_in (&b, dir, "board.toml", NULL);
  assert_ok (&b);
  g_assert_nonnull (strstr (b.out, "on mock://zg330"));
  run_in (&h, dir, "host.toml", NULL);
  assert_ok (&h);
  g_assert_nonnull (strstr (h.out, "HostBackend"));
  g_assert_nonnull (strstr (h.out, "(the board's time, modelled)"));
  g_assert_null (strstr (h.out, "mock://"));
  g_assert_null (strstr (h.out, "simulated board"));
  assert_same_file (d_host, d_board, "31.ftmp");
}

/* No backends: icraft-run's form runs on the host, its manual's default (both forms, on
 * every demo network, the board's bytes); our own form (NET.json as an argument) runs on the
 * board the network is compiled for; a snapshot runs on the board it records; keys that set
 * the board are refused under the default, naming it and the key that names a board. */
static void
test_backends_default_is_host_in_vendor_form (void)
{
  static const char *const nets[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s" };
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");

  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autofree char *json = net_path (nets[i], "json"), *raw = net_path (nets[i], "raw");
      g_autofree char *toml = g_strdup_printf ("%s/%s.toml", dir, nets[i]);
      g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\nraw = \"%s\"\ndump_format = \"HQB\"\n"
                                              "dump_output = true\nlog_path = \"toml\"\n", json, raw);
      g_autofree char *ours = g_strdup_printf ("ours-%s", nets[i]);
      g_autofree char *d_toml = NULL, *d_flags = NULL, *d_ours = NULL, *files = NULL;
      g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, NULL);
      g_auto (ZwRun) t = { 0 };
      g_auto (ZwRun) f = { 0 };
      g_auto (ZwRun) o = { 0 };
      GPtrArray *outs;

      g_assert_nonnull (net);
      g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
      run_in (&t, dir, toml, NULL);
      assert_ok (&t);
      run_in (&f, dir, "--json", json, "--raw", raw, "--dump_format", "HQB", "--dump_output", "--log_path", "flags", NULL);
      assert_ok (&f);
      /* ours: the same seeded input, merge off as icraft-run's default */
      run_in (&o, dir, json, "--raw", raw, "--no-merge", "--dump", ours, "--dump-format", "HQB", NULL);
      assert_ok (&o);
      g_assert_nonnull (strstr (t.out, "the host (HostBackend)"));
      g_assert_nonnull (strstr (f.out, "the host (HostBackend)"));
      g_assert_nonnull (strstr (o.out, "on mock://zg330"));
      d_toml = g_build_filename (dir, "toml", xir_network_get_name (net), "ftmpHQB", NULL);
      d_flags = g_build_filename (dir, "flags", xir_network_get_name (net), "ftmpHQB", NULL);
      d_ours = g_build_filename (dir, ours, NULL);
      files = ftmp_files (d_toml);
      outs = xir_network_get_outputs (net);
      g_assert_cmpuint (count_files (files), ==, outs->len);
      for (guint k = 0; k < outs->len; k++)
        {
          g_autofree char *name = g_strdup_printf ("%li.ftmp", (long) ((XirValue *) g_ptr_array_index (outs, k))->v_id);
          assert_same_file (d_toml, d_flags, name);
          assert_same_file (d_toml, d_ours, name);
        }
      g_test_message ("%s: host (icraft-run's default) = board (ours): %s", nets[i], files);
    }

  {
    g_autofree char *json = net_path ("tiny", "json");
    g_autofree char *snap = g_build_filename (dir, "tiny.snapshot", NULL);
    g_autofree char *snap_toml = g_build_filename (dir, "snap.toml", NULL);
    g_auto (ZwRun) s = { 0 };
    g_auto (ZwRun) l = { 0 };
    g_auto (ZwRun) q = { 0 };
    g_auto (ZwRun) w = { 0 };
    g_auto (ZwRun) x = { 0 };

    run_in (&s, dir, json, "--save-snapshot", snap, NULL);
    assert_ok (&s);
    g_assert_true (g_file_set_contents (snap_toml, "[run]\nload_snapshot = \"tiny.snapshot\"\n", -1, NULL));
    run_in (&l, dir, "snap.toml", NULL);
    assert_ok (&l);
    g_assert_nonnull (strstr (l.out, "on mock://zg330"));
    /* board keys under the default: refused, naming the key, the default and the way out */
    run_in (&q, dir, "--json", json, "--frequency", "860", NULL);
    run_in (&w, dir, "--json", json, "--save_snapshot", NULL);
    g_assert_cmpint (q.status, ==, 1);
    g_assert_cmpint (w.status, ==, 1);
    g_assert_nonnull (strstr (q.err, "frequency sets the board"));
    g_assert_nonnull (strstr (w.err, "save_snapshot sets the board"));
    g_assert_nonnull (strstr (q.err, "backends = “Host”"));
    g_assert_nonnull (strstr (q.err, "ZG330,mock://zg330;Host"));
    /* our --device names a board in the vendor's form too */
    run_in (&x, dir, "--json", json, "--device", "mock://zg330", NULL);
    assert_ok (&x);
    g_assert_nonnull (strstr (x.out, "on mock://zg330"));
  }
}

/* §2.3.1 as written on the two-input demo network (twoin): input = "./images/cat.png;
 * ./images/elephant.ftmp", both forms: each input value holds its file's bytes (the PNG's
 * pixels, the .ftmp as is), the output equals our form given both as raw bytes, and the
 * order counts (swapped, another output). */
static void
test_manual_two_inputs_separated (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("twoin", "json"), *raw = net_path ("twoin", "raw");
  g_autofree char *images = g_build_filename (dir, "images", NULL);
  g_autofree char *png = g_build_filename (images, "cat.png", NULL);
  g_autofree char *ftmp = g_build_filename (images, "elephant.ftmp", NULL);
  g_autofree char *pbin = g_build_filename (dir, "cat.bin", NULL);
  g_autofree char *toml = g_build_filename (dir, "sample.toml", NULL);
  g_autofree char *cfg = g_strdup_printf ("[run]\njson = \"%s\"\nraw = \"%s\"\n"
                                          "input = \"./images/cat.png;./images/elephant.ftmp\"\n"
                                          "dump_format = \"SQB\"\nlog_path = \"toml\"\n", json, raw);
  g_autofree guint8 *pixels = NULL;
  g_autofree char *d_toml = g_build_filename (dir, "toml", "twoin", "ftmpSQB", NULL);
  g_autofree char *d_flags = g_build_filename (dir, ".logs", "twoin", "ftmpSQB", NULL);
  g_autofree char *d_ours = g_build_filename (dir, "ours", NULL), *d_swap = g_build_filename (dir, "swap", NULL);
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, NULL);
  g_autoptr (GBytes) in0 = NULL, in1 = NULL, o_toml = NULL, o_swap = NULL;
  const XirValue *v0, *v1, *out;
  guint8 elephant[768];
  g_auto (ZwRun) t = { 0 };
  g_auto (ZwRun) f = { 0 };
  g_auto (ZwRun) o = { 0 };
  g_auto (ZwRun) w = { 0 };

  g_assert_nonnull (net);
  g_assert_cmpuint (xir_network_get_inputs (net)->len, ==, 2);
  v0 = g_ptr_array_index (xir_network_get_inputs (net), 0);
  v1 = g_ptr_array_index (xir_network_get_inputs (net), 1);
  out = g_ptr_array_index (xir_network_get_outputs (net), 0);
  g_assert_cmpuint (v1->storage_bytes, ==, sizeof elephant);
  g_assert_cmpint (g_mkdir_with_parents (images, 0755), ==, 0);
  pixels = write_image (png, "png", 16, 16, 11);
  for (guint i = 0; i < sizeof elephant; i++)
    elephant[i] = (guint8) (i * 131 + 7);
  g_assert_true (g_file_set_contents (ftmp, (const char *) elephant, sizeof elephant, NULL));
  g_assert_true (g_file_set_contents (pbin, (const char *) pixels, 768, NULL));
  g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
  run_in (&t, dir, "./sample.toml", NULL);
  assert_ok (&t);
  run_in (&f, dir, "--json", json, "--raw", raw, "--input", "./images/cat.png;./images/elephant.ftmp", "--dump_format",
          "SQB", NULL);
  assert_ok (&f);
  run_in (&o, dir, json, "--raw", raw, "--input", "cat.bin;images/elephant.ftmp", "--dump", "ours", "--dump-format", "SQB",
          NULL);
  assert_ok (&o);
  run_in (&w, dir, json, "--raw", raw, "--input", "images/elephant.ftmp;cat.bin", "--dump", "swap", "--dump-format", "SQB",
          NULL);
  assert_ok (&w);
  {
    g_autofree char *n0 = g_strdup_printf ("%li.ftmp", (long) v0->v_id), *n1 = g_strdup_printf ("%li.ftmp", (long) v1->v_id);
    g_autofree char *no = g_strdup_printf ("%li.ftmp", (long) out->v_id);
    in0 = slurp (d_toml, n0);
    in1 = slurp (d_toml, n1);
    g_assert_cmpmem (g_bytes_get_data (in0, NULL), g_bytes_get_size (in0), pixels, 768);
    g_assert_cmpmem (g_bytes_get_data (in1, NULL), g_bytes_get_size (in1), elephant, sizeof elephant);
    assert_same_file (d_toml, d_flags, no);
    assert_same_file (d_toml, d_ours, no);
    o_toml = slurp (d_toml, no);
    o_swap = slurp (d_swap, no);
    g_assert_false (g_bytes_equal (o_toml, o_swap));
  }
  /* one input short: refused, naming the value that has none */
  {
    g_auto (ZwRun) s = { 0 };
    run_in (&s, dir, "--json", json, "--raw", raw, "--input", "./images/cat.png", NULL);
    g_assert_cmpint (s.status, !=, 0);
    g_assert_nonnull (strstr (s.err, "the network has 2 input"));
  }
}

/* Every example of the icraft-run manual's §2 as written, toml and flag forms, on a demo
 * network copied where the manual keeps yolov2 (./jsonraw/yolov2_ZG.json, and ./ for §2.1.2's
 * jr_path) with ./images/cat.png and ./img_list.txt. The substitutions, all that differs from
 * the manual's text: its BY lines become the ZG330 lines it writes beside them, its axi:// and
 * BY mock:// boards mock://zg330, its socket board a zhuge-board on loopback. §2.3.1 (two
 * inputs) is test_manual_two_inputs_separated; §2.8 (fake_qf, compress, close_mmu) is refused
 * with the reason. Each example that runs runs again with dump_format SQB + dump_output, and
 * its output is the bytes of our own form given the PNG's pixels raw. */
typedef struct {
  const char *section;
  const char *toml;           /* the [run] lines after json/raw (%s: the board's socket URL) */
  const char *flags[12];      /* after --json … --raw … (or in full when "…" is first) */
  int status;                 /* 0, or 1 for a refusal */
  const char *says;           /* the output or the error holds this */
} ManualCase;

static char *
with_board (const char *text, const char *url)
{
  g_auto (GStrv) parts = g_strsplit (text, "%s", -1);
  return g_strjoinv (url, parts);
}

static void
test_manual_every_example_as_written (void)
{
  static const ManualCase cases[] = {
    { "2.1.1", "input = \"./images/cat.png\"\nlazy_load = true\n", { "--input", "./images/cat.png", "--lazy_load" },
      0, "the host (HostBackend)" },
    { "2.1.2", "*jr_path = \"./\"\nnetwork = \"./yolov2_ZG\"\ninput = \"./images/cat.png\"\nlazy_load = true\n",
      { "…", "--jr_path", "./", "--network", "./yolov2_ZG", "--input", "./images/cat.png", "--lazy_load" }, 0, "tiny" },
    { "2.1.3", "*load_snapshot = \"./snapshot/yolov2.snapshot\"\ninput = \"./images/cat.png\"\nbackends = \"ZG330,%s;Host\"\n",
      { "…", "--load_snapshot", "./snapshot/yolov2.snapshot", "--input", "./images/cat.png", "--backends", "ZG330,%s;Host" },
      0, "tiny" },
    { "2.2.1", "input = \"./images/cat.png\"\nbackends = \"ZG330,%s;Host\"\n",
      { "--backends", "ZG330,%s;Host", "--input", "./images/cat.png" }, 0, "socket://" },
    { "2.2.2", "input = \"./images/cat.png\"\nbackends = \"ZG330,mock://zg330;Host\"\n",
      { "--backends", "ZG330,mock://zg330;Host", "--input", "./images/cat.png" }, 0, "mock://zg330" },
    { "2.2.3", "input = \"./images/cat.png\"\nbackends = \"ZG330,mock://zg330;Host\"\nsave_snapshot = true\n",
      { "--save_snapshot", "--backends", "ZG330,mock://zg330;Host", "--input", "./images/cat.png" }, 0, "snapshot" },
    { "2.3.2", "input = \"./img_list.txt\"\n", { "--input", "./img_list.txt" }, 0, "the host (HostBackend)" },
    { "2.4", "input = \"./img_list.txt\"\nlog_time = true\n", { "--input", "./img_list.txt", "--log_time" }, 0,
      "run_time.log" },
    { "2.5", "input = \"./img_list.txt\"\nlog_io = true\n", { "--input", "./img_list.txt", "--log_io" }, 0, "run_io.log" },
    { "2.6", "input = \"./img_list.txt\"\ndump_format = \"SFB\"\ndump_ftmp = \"5,12,75\"\n",
      { "--input", "./img_list.txt", "--dump_format", "SFB", "--dump_ftmp", "5,12,75" }, 0, "no value 75" },
    { "2.7", "input = \"./img_list.txt\"\nfrequency = 860\nprecheck = true\nclose_mmu = false\n"
      "backends = \"ZG330,mock://zg330;Host\"\n",
      { "--input", "./img_list.txt", "--frequency", "860", "--precheck", "--backends", "ZG330,mock://zg330;Host" }, 0,
      "mock://zg330" },
    { "2.8", "input = \"./img_list.txt\"\nfake_qf = true\ncompress = true\nmerge_hardop = true\nclose_mmu = true\n"
      "backends = \"ZG330,mock://zg330;Host\"\n",
      { "--input", "./img_list.txt", "--fake_qf", "--compress", "--merge_hardop", "--close_mmu", "--backends",
        "ZG330,mock://zg330;Host" }, 1, "fake_qf" },
    { "2.9", "input = \"./img_list.txt\"\nbackends = \"ZG330,mock://zg330;Host\"\nsave_snapshot = true\n",
      { "--input", "./img_list.txt", "--save_snapshot", "--backends", "ZG330,mock://zg330;Host" }, 0, "snapshot" },
  };
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  const char *url = board ? board->url : "mock://zg330";
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *json = net_path ("tiny", "json");
  g_autofree char *jsonraw = g_build_filename (dir, "jsonraw", NULL), *images = g_build_filename (dir, "images", NULL);
  g_autofree char *png = g_build_filename (images, "cat.png", NULL);
  g_autofree char *pixels_path = g_build_filename (dir, "cat.bin", NULL);
  g_autofree guint8 *pixels = NULL;
  g_autofree char *d_ref = g_build_filename (dir, "ref", NULL);
  g_auto (ZwRun) ref = { 0 };
  g_auto (ZwRun) snap = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (jsonraw, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (images, 0755), ==, 0);
  {
    g_autofree char *netdir = g_path_get_dirname (json);
    g_autoptr (GBytes) j = slurp (netdir, "tiny_ZG.json");
    g_autoptr (GBytes) r = slurp (netdir, "tiny_ZG.raw");
    const char *where[] = { "jsonraw/yolov2_ZG", "yolov2_ZG" };
    for (guint k = 0; k < G_N_ELEMENTS (where); k++)
      {
        g_autofree char *jp = g_strdup_printf ("%s/%s.json", dir, where[k]), *rp = g_strdup_printf ("%s/%s.raw", dir, where[k]);
        g_assert_true (g_file_set_contents (jp, g_bytes_get_data (j, NULL), (gssize) g_bytes_get_size (j), NULL));
        g_assert_true (g_file_set_contents (rp, g_bytes_get_data (r, NULL), (gssize) g_bytes_get_size (r), NULL));
      }
  }
  pixels = write_image (png, "png", 16, 16, 21);
  g_assert_true (g_file_set_contents (pixels_path, (const char *) pixels, 768, NULL));
  {
    g_autofree char *list = g_build_filename (dir, "img_list.txt", NULL);
    g_assert_true (g_file_set_contents (list, "./images/cat.png\n", -1, NULL));
  }
  /* §2.1.3's snapshot (in ./snapshot/), and the reference: our form given the pixels raw */
  {
    g_autofree char *snapdir = g_build_filename (dir, "snapshot", NULL);
    g_assert_cmpint (g_mkdir_with_parents (snapdir, 0755), ==, 0);
  }
  run_in (&snap, dir, "./jsonraw/yolov2_ZG.json", "--device", url, "--save-snapshot", "./snapshot/yolov2.snapshot", NULL);
  assert_ok (&snap);
  run_in (&ref, dir, "./jsonraw/yolov2_ZG.json", "--input", "cat.bin", "--dump", "ref", "--dump-format", "SQB", NULL);
  assert_ok (&ref);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const ManualCase *c = &cases[i];
      gboolean full = c->toml[0] == '*';
      g_autofree char *body = with_board (c->toml + (full ? 1 : 0), url);
      g_autofree char *cfg = g_strdup_printf ("[run]\n%s%s", full ? "" : "json = \"./jsonraw/yolov2_ZG.json\"\n"
                                              "raw = \"./jsonraw/yolov2_ZG.raw\"\n", body);
      g_autofree char *toml = g_strdup_printf ("%s/sample-%s.toml", dir, c->section);
      g_autofree char *cmp_cfg = g_strdup_printf ("%sdump_format = \"SQB\"\ndump_output = true\nlog_path = \"cmp-toml-%s\"\n",
                                                  cfg, c->section);
      g_autofree char *cmp_log = g_strdup_printf ("cmp-flags-%s", c->section);
      g_autofree char *cmp_toml = g_strdup_printf ("%s/cmp-%s.toml", dir, c->section);
      g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GPtrArray) cmp_args = NULL;
      g_auto (ZwRun) t = { 0 };
      g_auto (ZwRun) f = { 0 };

      g_ptr_array_add (args, g_strdup ("run"));
      if (g_strcmp0 (c->flags[0], "…") != 0)
        {
          g_ptr_array_add (args, g_strdup ("--json"));
          g_ptr_array_add (args, g_strdup ("./jsonraw/yolov2_ZG.json"));
          g_ptr_array_add (args, g_strdup ("--raw"));
          g_ptr_array_add (args, g_strdup ("./jsonraw/yolov2_ZG.raw"));
        }
      for (guint k = g_strcmp0 (c->flags[0], "…") == 0 ? 1 : 0; k < G_N_ELEMENTS (c->flags) && c->flags[k]; k++)
        g_ptr_array_add (args, with_board (c->flags[k], url));
      g_assert_true (g_file_set_contents (toml, cfg, -1, NULL));
      g_assert_true (g_file_set_contents (cmp_toml, cmp_cfg, -1, NULL));
      run_in (&t, dir, toml, NULL);
      g_ptr_array_add (args, NULL);
      zw_test_xrt_run_bounded (&f, dir, 300, (const char *const *) args->pdata, NULL);
      g_ptr_array_remove_index (args, args->len - 1);
      if (t.status != c->status || f.status != c->status
          || (strstr (t.out, c->says) == NULL && strstr (t.err, c->says) == NULL)
          || (strstr (f.out, c->says) == NULL && strstr (f.err, c->says) == NULL))
        g_error ("icraft-run §%s: exit %d (toml) and %d (flags), expected %d and “%s”:\n%s%s\n--\n%s%s", c->section,
                 t.status, f.status, c->status, c->says, t.out, t.err, f.out, f.err);
      g_test_message ("section %s as written: toml and flags exit %d", c->section, c->status);
      if (c->status != 0 || strstr (cfg, "dump_format") != NULL)
        continue;
      /* the same with the outputs dumped: our form's bytes */
      {
        g_auto (ZwRun) tc = { 0 };
        g_auto (ZwRun) fc = { 0 };
        g_autofree char *toml_log = g_strdup_printf ("cmp-toml-%s", c->section);
        g_autofree char *d_toml = g_build_filename (dir, toml_log, "tiny", "ftmpSQB", NULL);
        g_autofree char *d_flags = g_build_filename (dir, cmp_log, "tiny", "ftmpSQB", NULL);
        run_in (&tc, dir, cmp_toml, NULL);
        assert_ok (&tc);
        cmp_args = g_ptr_array_new ();
        for (guint k = 0; k < args->len; k++)
          g_ptr_array_add (cmp_args, g_ptr_array_index (args, k));
        g_ptr_array_add (cmp_args, (gpointer) "--dump_format");
        g_ptr_array_add (cmp_args, (gpointer) "SQB");
        g_ptr_array_add (cmp_args, (gpointer) "--dump_output");
        g_ptr_array_add (cmp_args, (gpointer) "--log_path");
        g_ptr_array_add (cmp_args, cmp_log);
        g_ptr_array_add (cmp_args, NULL);
        zw_test_xrt_run_bounded (&fc, dir, 300, (const char *const *) cmp_args->pdata, NULL);
        assert_ok (&fc);
        assert_same_file (d_toml, d_ref, "31.ftmp");
        assert_same_file (d_flags, d_ref, "31.ftmp");
      }
    }
}

/* The conversion itself, on layouts and types the demo networks' inputs do not have: a
 * quantised int8 NCHWc32 input (round half to even of pixel / scale, saturated; the 29
 * padding channels zero), a float NCHW input (the pixel values), a grey one-channel input. */
static void
test_image_conversion_layouts_and_types (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  g_autofree char *png = g_build_filename (dir, "img.png", NULL);
  g_autofree guint8 *px = write_image (png, "png", 4, 3, 5);   /* W 4, H 3 */
  const gint64 blocked[] = { 1, 1, 3, 4, 32 }, nchw[] = { 1, 3, 3, 4 }, grey[] = { 1, 3, 4, 1 };
  const float scale = 2.0f;
  g_autoptr (GError) error = NULL;
  g_autoptr (XirValue) q = xrt_tensor_make_dtype ("@sint(8)", "NCHWc32", blocked, 5, -1, &scale, 1, NULL, 0, &error);
  g_autoptr (XirValue) f = xrt_tensor_make_dtype ("@fp(32)", "NCHW", nchw, 4, -1, NULL, 0, NULL, 0, &error);
  g_autoptr (XirValue) g = xrt_tensor_make_dtype ("@uint(8)", "NHWC", grey, 4, -1, NULL, 0, NULL, 0, &error);
  g_autofree guint8 *qb = NULL, *fb = NULL, *gb = NULL;
  gsize size = 0;

  g_assert_no_error (error);
  qb = xrt_run_image_load (png, q, &size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, 3 * 4 * 32);
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 4; x++)
      for (guint c = 0; c < 32; c++)
        {
          gint8 got = (gint8) qb[(y * 4 + x) * 32 + c];
          int want = 0;
          if (c < 3)
            {
              double v = px[(y * 4 + x) * 3 + c] / 2.0;
              want = (int) MIN (127, nearbyint (v));
            }
          g_assert_cmpint (got, ==, want);
        }
  fb = xrt_run_image_load (png, f, &size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, 3 * 3 * 4 * sizeof (float));
  for (guint c = 0; c < 3; c++)
    for (guint y = 0; y < 3; y++)
      for (guint x = 0; x < 4; x++)
        {
          float v;
          memcpy (&v, fb + ((c * 3 + y) * 4 + x) * sizeof (float), sizeof v);
          g_assert_cmpfloat (v, ==, px[(y * 4 + x) * 3 + c]);
        }
  gb = xrt_run_image_load (png, g, &size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpint (gb[i], ==, (int) lrint (0.299 * px[i * 3] + 0.587 * px[i * 3 + 1] + 0.114 * px[i * 3 + 2]));
}

/* §2.2.1 as written for ZG: --backends "ZG330,socket://NAME@HOST:PORT;Host" on a zhuge-board
 * (ours, on loopback) gives the bytes of the simulated board in this process. */
static void
test_manual_socket_backend (void)
{
  g_autoptr (ZwBoard) board = zw_test_board_start ("zg330", NULL);
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autofree char *json = net_path ("tiny", "json"), *raw = net_path ("tiny", "raw");
  g_autofree char *png = NULL, *backends = NULL, *d_socket = NULL, *d_mock = NULL;
  g_autofree guint8 *pixels = NULL;
  g_auto (ZwRun) a = { 0 };
  g_auto (ZwRun) b = { 0 };

  if (board == NULL)
    return;
  dir = zw_test_tmp_dir_new ("zw-icraft-XXXXXX");
  png = g_build_filename (dir, "cat.png", NULL);
  pixels = write_image (png, "png", 16, 16, 4);
  backends = g_strdup_printf ("ZG330,%s;Host", board->url);
  run_in (&a, dir, "--json", json, "--raw", raw, "--backends", backends, "--input", "./cat.png", "--dump_format", "SQB",
          "--dump_output", "--log_path", "socket", NULL);
  assert_ok (&a);
  g_assert_nonnull (strstr (a.out, board->url));
  run_in (&b, dir, "--json", json, "--raw", raw, "--backends", "ZG330,mock://zg330;Host", "--input", "./cat.png",
          "--dump_format", "SQB", "--dump_output", "--log_path", "mock", NULL);
  assert_ok (&b);
  d_socket = g_build_filename (dir, "socket", "tiny", "ftmpSQB", NULL);
  d_mock = g_build_filename (dir, "mock", "tiny", "ftmpSQB", NULL);
  assert_same_file (d_socket, d_mock, "31.ftmp");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/icraft-run/manual/json-raw-png-on-every-demo-network", test_manual_json_raw_on_demo_networks);
  g_test_add_func ("/icraft-run/input/image-equals-raw-pixels", test_image_input_equals_raw_input);
  g_test_add_func ("/icraft-run/dump/values-and-format-asked", test_dumps_in_the_format_asked);
  g_test_add_func ("/icraft-run/manual/logs-lists-snapshots", test_manual_logs_lists_and_snapshots);
  g_test_add_func ("/icraft-run/device/frequency-and-wait-time", test_device_frequency_and_wait_time);
  g_test_add_func ("/icraft-run/decode-dll/plugin-equals-raw", test_decode_dll_plugin);
  g_test_add_func ("/icraft-run/errors/name-file-key-value", test_bad_values_name_file_key_value);
  g_test_add_func ("/icraft-run/backends/host-reference-run", test_backends_host_reference_run);
  g_test_add_func ("/icraft-run/backends/default-is-host-in-vendor-form", test_backends_default_is_host_in_vendor_form);
  g_test_add_func ("/icraft-run/manual/socket-backend", test_manual_socket_backend);
  g_test_add_func ("/icraft-run/manual/two-inputs-separated", test_manual_two_inputs_separated);
  g_test_add_func ("/icraft-run/manual/every-example-as-written", test_manual_every_example_as_written);
  g_test_add_func ("/icraft-run/input/image-conversion-layouts-and-types", test_image_conversion_layouts_and_types);
  return g_test_run ();
}
