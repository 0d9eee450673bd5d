/* test-board-device.c: the xrt device layer on the simulated board: URL schemes, registers,
 * regions, version and status, close. */
#include "zw-test-board.h"

#include <string.h>
#include <glib/gstdio.h>

static void
test_device_url_schemes (void)
{
  static const struct { const char *url; gint code; const char *needle; } bad[] = {
    /* socket:// is served by zhuge-board (tests/test-socket.c); a URL without NAME@HOST:PORT is refused */
    { "socket://haps-zg330", XRT_ERROR_URL, "socket://NAME@HOST:PORT" },
    { "axi://zg330", XRT_ERROR_NOT_AVAILABLE, "not available in this build" },
    { "", XRT_ERROR_NOT_AVAILABLE, "not available in this build" },
    { "pcie://zg330", XRT_ERROR_URL, "mock://zg330" },
    { "zg330", XRT_ERROR_URL, "mock://zg330" },
    { "mock://zg331", XRT_ERROR_URL, "zg331" },
    { "mock://buyi?ocm=4", XRT_ERROR_URL, "ocm" },
    { "mock://zg330?ocm=4", XRT_ERROR_URL, "ocm" },
    { "mock://zg330?profile=/nonexistent/zg330.json", XRT_ERROR_PROFILE, "/nonexistent/zg330.json" },
  };
  GError *error = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("test-board-XXXXXX", NULL);
  g_autofree gchar *text = profile_text_with ("ocm_bytes", "4194304");
  g_autofree gchar *path = write_temp (dir, "big-ocm.json", text);
  g_autofree gchar *url = g_strdup_printf ("mock://zg330?profile=%s", path);
  XrtDevice *device;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      device = xrt_device_open (bad[i].url, &error);
      g_assert_null (device);
      g_assert_error (error, XRT_ERROR, bad[i].code);
      if (strstr (error->message, bad[i].needle) == NULL)
        g_error ("'%s': message '%s' lacks '%s'", bad[i].url, error->message, bad[i].needle);
      g_clear_error (&error);
    }

  device = xrt_device_open ("MOCK://ZG330", &error);
  g_assert_no_error (error);
  g_assert_true (zg330_sim_is_sim (device));
  g_assert_cmpstr (xrt_device_get_scheme (device), ==, "mock");
  g_assert_cmpstr (xrt_device_get_name (device), ==, "zg330");
  xrt_device_unref (device);

  device = xrt_device_open (url, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrt_mem_region_get_size (xrt_device_get_mem_region (device, "OCM", NULL)),
                    ==, 4 * 1024 * 1024);
  g_assert_cmpstr (zg330_sim_get_profile (device)->source, ==, path);
  xrt_device_unref (device);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_device_registers (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;
  guint32 v = 1234;
  guint rows, cols;

  g_assert_true (xrt_device_read_reg (device, ZG330_REG_VERSION, &v, &error));
  g_assert_no_error (error);
  g_assert_cmphex (v, ==, 0x03300100);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_LAYER_CNT, &v, &error));
  g_assert_cmpuint (v, ==, 0);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_TIMER_CNT, &v, &error));
  g_assert_cmpuint (v, ==, 0);

  g_assert_false (xrt_device_read_reg (device, 0x100, &v, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_REGISTER);
  g_assert_nonnull (strstr (error->message, "0x100"));
  g_clear_error (&error);
  g_assert_false (xrt_device_write_reg (device, 0x40028, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_REGISTER);
  g_clear_error (&error);
  g_assert_false (xrt_device_read_reg (device, 0x0D, &v, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (xrt_device_write_reg (device, ZG330_REG_VERSION, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_REGISTER);
  g_clear_error (&error);

  g_assert_true (xrt_device_write_reg (device, ZG330_REG_LAYER_CNT, 7, &error));
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 7);
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_BASE, 0x1000, &error));
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_RUN_BASE, &v, &error));
  g_assert_cmphex (v, ==, 0x1000);

  zg330_device_get_rows_cols (device, &rows, &cols);
  g_assert_cmpuint (rows, ==, 4);
  g_assert_cmpuint (cols, ==, 4);
  /* Tile counters are per core column; the generic accessor reads the master's (1). */
  g_assert_true (zg330_device_write_reg (device, 2, 0, ZG330_REG_WTILE_CNT, 99, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (zg330_device_w_tile_count (device, 2), ==, 99);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_WTILE_CNT, &v, &error));
  g_assert_cmpuint (v, ==, 0);
  g_assert_true (zg330_device_set_master_cid (device, 2, &error));
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_WTILE_CNT, &v, &error));
  g_assert_cmpuint (v, ==, 99);
  g_assert_false (zg330_device_set_master_cid (device, 4, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (zg330_device_read_reg (device, 4, 0, ZG330_REG_VERSION, &v, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Reset level 0 clears the counters. */
  g_assert_true (xrt_device_reset (device, 0, &error));
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 0);
  g_assert_cmpuint (zg330_device_w_tile_count (device, 2), ==, 0);
}

static void
test_device_regions_version_status (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;
  g_autoptr (GHashTable) version = xrt_device_get_version (device);
  g_autoptr (GString) status = g_string_new (NULL);
  g_autoptr (XrtMemChunk) chunk = NULL;
  const char *const *names = xrt_device_list_mem_regions (device);

  g_assert_cmpstr (g_hash_table_lookup (version, "device"), ==, "zg330");
  g_assert_cmpstr (g_hash_table_lookup (version, "fpga_version"), ==, "0x03300100");
  g_assert_cmpstr (g_hash_table_lookup (version, "url"), ==, "mock://zg330");

  g_assert_cmpstr (names[0], ==, "ETM");
  g_assert_cmpstr (names[1], ==, "OCM");
  g_assert_cmpstr (names[2], ==, "HOST");
  g_assert_null (names[3]);
  g_assert_null (xrt_device_get_mem_region (device, "DDR", &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "ETM, OCM, HOST"));
  g_clear_error (&error);

  g_assert_true (xrt_device_set_default_mem_region (device, "OCM", &error));
  chunk = xrt_device_malloc (device, NULL, 1000, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_mem_chunk_is_on (chunk, xrt_device_get_mem_region (device, "OCM", NULL)));
  g_assert_true (xrt_mem_region_get_device (xrt_mem_chunk_get_region (chunk)) == device);

  xrt_device_set_wait_time (device, 500);
  g_assert_cmpuint (xrt_device_get_wait_time (device), ==, 500);

  xrt_device_show_status (device, 1, status);
  g_assert_nonnull (strstr (status->str, "mock://zg330"));
  g_assert_nonnull (strstr (status->str, "region OCM"));
  g_assert_nonnull (strstr (status->str, "1000 bytes"));
  g_assert_nonnull (strstr (status->str, "version 0x03300100"));

  g_assert_true (xrt_device_check (device, 1, &error));
  g_assert_no_error (error);
}

static void
test_device_close (void)
{
  XrtDevice *device = open_board ();
  GError *error = NULL;
  XrtMemChunk *chunk = xrt_device_malloc (device, NULL, 4096, &error);
  XrtMemRegion *etm = xrt_mem_region_ref (xrt_device_get_default_mem_region (device));
  XrtMemRegionInfo info;
  guint8 b = 0;

  g_assert_no_error (error);
  xrt_device_close (device);
  g_assert_true (xrt_device_is_closed (device));
  g_assert_false (xrt_mem_chunk_write (chunk, 0, &b, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_FREED);
  g_clear_error (&error);
  g_assert_null (xrt_device_malloc (device, NULL, 16, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_CLOSED);
  g_clear_error (&error);
  /* the region of a closed device allocates nothing either (issue 36) */
  g_assert_null (xrt_mem_region_malloc (xrt_device_get_default_mem_region (device), 16, TRUE, 0, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_CLOSED);
  g_assert_nonnull (strstr (error->message, "closed"));
  g_clear_error (&error);
  g_assert_null (xrt_mem_region_malloc_at (xrt_device_get_default_mem_region (device),
                                           xrt_mem_region_get_base (xrt_device_get_default_mem_region (device)),
                                           16, TRUE, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_CLOSED);
  g_clear_error (&error);
  g_assert_false (zg330_device_icore_calc (device, 0, 16, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_CLOSED);
  g_clear_error (&error);
  xrt_device_unref (device);

  /* The chunk and the region outlive the device. */
  region_info (etm, &info);
  g_assert_cmpuint (info.used, ==, 0);
  g_assert_null (xrt_mem_region_get_device (etm));
  xrt_mem_chunk_unref (chunk);
  xrt_mem_region_unref (etm);
}

void
test_board_add_device (void)
{
  g_test_add_func ("/board/device/url-schemes", test_device_url_schemes);
  g_test_add_func ("/board/device/registers", test_device_registers);
  g_test_add_func ("/board/device/regions-version-status", test_device_regions_version_status);
  g_test_add_func ("/board/device/close-frees-everything", test_device_close);
}
