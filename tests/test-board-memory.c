/* test-board-memory.c: the board's memory stores: a sparse ETM at high addresses, out-of-range
 * access, copies across regions. */
#include "zw-test-board.h"

#include <string.h>

static void
test_etm_sparse_high_address (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  XrtMemRegion *etm = xrt_device_get_default_mem_region (device);
  GError *error = NULL;
  g_autoptr (XrtMemChunk) chunk = NULL;
  guint8 pattern[300], back[300], zeros[300] = { 0 };

  g_assert_cmpstr (xrt_mem_region_get_name (etm), ==, "ETM");
  g_assert_cmpuint (xrt_mem_region_get_size (etm), ==, G_GUINT64_CONSTANT (4294967296));
  g_assert_cmpuint (zg330_sim_get_etm_pages (device), ==, 0);

  chunk = xrt_mem_region_malloc_at (etm, 0xF0000000, 1 << 20, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (xrt_mem_chunk_get_begin (chunk).ptype, ==, XRT_PTR_ADDR);
  for (guint i = 0; i < sizeof pattern; i++)
    pattern[i] = (guint8) (i * 31 + 7);
  /* Straddles a 64 KiB page boundary. */
  g_assert_true (xrt_mem_chunk_write (chunk, 0x10000 - 100, pattern, sizeof pattern, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (zg330_sim_get_etm_pages (device), ==, 2);
  g_assert_true (xrt_mem_region_read (etm, 0xF0000000 + 0x10000 - 100, back, sizeof back, &error));
  g_assert_cmpmem (back, sizeof back, pattern, sizeof pattern);

  /* Untouched bytes read as zero and reading allocates nothing. */
  g_assert_true (xrt_mem_region_read (etm, 0x80000000, back, sizeof back, &error));
  g_assert_cmpmem (back, sizeof back, zeros, sizeof zeros);
  g_assert_true (xrt_mem_region_read (etm, 0xFFFFFFFF - 299, back, sizeof back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (zg330_sim_get_etm_pages (device), ==, 2);
}

static void
test_out_of_range_access (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  XrtMemRegion *etm = xrt_device_get_default_mem_region (device);
  XrtMemRegion *ocm = xrt_device_get_mem_region (device, "OCM", NULL);
  GError *error = NULL;
  g_autoptr (XrtMemChunk) chunk = NULL;
  guint8 buf[64] = { 0 };

  g_assert_false (xrt_mem_region_read (etm, 0xFFFFFFF0, buf, 32, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_assert_nonnull (strstr (error->message, "0xfffffff0"));
  g_clear_error (&error);
  g_assert_false (xrt_mem_region_write (etm, G_MAXUINT64 - 4, buf, 32, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_false (xrt_mem_region_write (ocm, 2 * 1024 * 1024 - 16, buf, 32, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  chunk = xrt_mem_region_malloc (ocm, 100, TRUE, 64, &error);
  g_assert_no_error (error);
  g_assert_false (xrt_mem_chunk_write (chunk, 90, buf, 11, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_false (xrt_mem_chunk_read (chunk, G_MAXUINT64 - 2, buf, 8, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_null (xrt_mem_chunk_new_sub (chunk, 50, 51, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
}

static void
test_copy_across_regions (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;
  g_autoptr (XrtMemChunk) e = xrt_device_malloc (device, "ETM", 3 << 20, &error);
  g_autoptr (XrtMemChunk) o = xrt_device_malloc (device, "ocm", 8192, &error);
  g_autoptr (XrtMemChunk) h = xrt_device_malloc (device, "HOST", 8192, &error);
  g_autoptr (XrtMemChunk) e2 = xrt_device_malloc (device, NULL, 3 << 20, &error);
  guint8 src[8192], back[8192];
  XrtMemPtr op;

  g_assert_no_error (error);
  for (guint i = 0; i < sizeof src; i++)
    src[i] = (guint8) g_random_int ();
  g_assert_true (xrt_mem_chunk_write (h, 0, src, sizeof src, &error));
  g_assert_true (xrt_mem_chunk_copy_from (e, 1000, h, 0, sizeof src, &error));
  g_assert_true (xrt_mem_chunk_copy_from (o, 0, e, 1000, sizeof src, &error));
  g_assert_no_error (error);

  /* OCM chunks carry both a device address and a host pointer. */
  op = xrt_mem_chunk_get_begin (o);
  g_assert_cmpint (op.ptype, ==, XRT_PTR_BOTH);
  g_assert_cmpuint (op.addr, <, 2 * 1024 * 1024);
  g_assert_cmpmem (op.cptr, sizeof src, src, sizeof src);

  /* ETM to ETM, larger than the bounce buffer. */
  {
    g_autofree guint8 *big = g_malloc (3 << 20), *big_back = g_malloc (3 << 20);
    for (gsize i = 0; i < (3 << 20); i++)
      big[i] = (guint8) (i ^ (i >> 9));
    g_assert_true (xrt_mem_chunk_write (e, 0, big, 3 << 20, &error));
    g_assert_true (xrt_mem_chunk_copy_from (e2, 0, e, 0, 3 << 20, &error));
    g_assert_true (xrt_mem_chunk_read (e2, 0, big_back, 3 << 20, &error));
    g_assert_cmpmem (big_back, 3 << 20, big, 3 << 20);

    /* Overlapping copy inside one ETM chunk behaves like memmove. */
    g_assert_true (xrt_mem_chunk_copy_from (e, 100, e, 0, 1 << 20, &error));
    g_assert_true (xrt_mem_chunk_read (e, 100, big_back, 1 << 20, &error));
    g_assert_cmpmem (big_back, 1 << 20, big, 1 << 20);
  }

  memset (back, 0, sizeof back);
  g_assert_true (xrt_mem_chunk_copy_from (h, 0, o, 0, sizeof src, &error));
  g_assert_true (xrt_mem_chunk_read (h, 0, back, sizeof back, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (back, sizeof back, src, sizeof src);
}

void
test_board_add_memory (void)
{
  g_test_add_func ("/board/etm/sparse-high-address", test_etm_sparse_high_address);
  g_test_add_func ("/board/mem/out-of-range-access-errors", test_out_of_range_access);
  g_test_add_func ("/board/mem/copy-across-regions", test_copy_across_regions);
}
