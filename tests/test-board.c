/* test-board.c — xrt memory and device layer, the simulated ZG330 board and its timing. */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "xrt/xrt-mem.h"
#include "xrt/xrt-device.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"

/* ---- a flat test store for standalone regions ------------------------------------ */

typedef struct {
  guint8 *bytes;
  guint64 size;
} FlatStore;

static gboolean
flat_read (gpointer s, guint64 off, gpointer dest, gsize n, GError **error)
{
  FlatStore *store = s;
  (void) error;
  g_assert_cmpuint (off + n, <=, store->size);
  memcpy (dest, store->bytes + off, n);
  return TRUE;
}

static gboolean
flat_write (gpointer s, guint64 off, gconstpointer src, gsize n, GError **error)
{
  FlatStore *store = s;
  (void) error;
  g_assert_cmpuint (off + n, <=, store->size);
  memcpy (store->bytes + off, src, n);
  return TRUE;
}

static void
flat_free (gpointer s)
{
  FlatStore *store = s;
  g_free (store->bytes);
  g_free (store);
}

static const XrtMemStoreOps flat_ops = { flat_read, flat_write, NULL };

static XrtMemRegion *
flat_region_new (guint64 base, guint64 size)
{
  FlatStore *store = g_new0 (FlatStore, 1);
  store->bytes = g_malloc0 (size);
  store->size = size;
  return xrt_mem_region_new_device ("TEST", base, size, &flat_ops, store, flat_free);
}

static XrtDevice *
open_board (void)
{
  GError *error = NULL;
  XrtDevice *device = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  g_assert_nonnull (device);
  return device;
}

static void
region_info (XrtMemRegion *region, XrtMemRegionInfo *info)
{
  xrt_mem_manager_get_info (xrt_mem_region_get_manager (region), info);
}

/* ---- allocator ---------------------------------------------------------------------- */

typedef struct {
  XrtMemChunk *chunk;
  guint8       tag;
} Live;

static void
assert_live_disjoint (GArray *live)
{
  /* O(n^2) is fine for the few hundred live chunks the test keeps. */
  for (guint i = 0; i < live->len; i++)
    for (guint j = i + 1; j < live->len; j++)
      {
        XrtMemChunk *a = g_array_index (live, Live, i).chunk;
        XrtMemChunk *b = g_array_index (live, Live, j).chunk;
        guint64 a0 = xrt_mem_chunk_get_addr (a), a1 = a0 + xrt_mem_chunk_get_size (a);
        guint64 b0 = xrt_mem_chunk_get_addr (b), b1 = b0 + xrt_mem_chunk_get_size (b);
        g_assert_true (a1 <= b0 || b1 <= a0);
      }
}

static void
check_tag (XrtMemChunk *chunk, guint8 tag)
{
  GError *error = NULL;
  gsize n = xrt_mem_chunk_get_size (chunk);
  g_autofree guint8 *buf = g_malloc (n);

  g_assert_true (xrt_mem_chunk_read (chunk, 0, buf, n, &error));
  g_assert_no_error (error);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (buf[i], ==, tag);
}

static void
test_alloc_random_properties (void)
{
  const guint64 base = 0x10000, size = 4 * 1024 * 1024;
  g_autoptr (XrtMemRegion) region = flat_region_new (base, size);
  XrtMemManager *mm = xrt_mem_region_get_manager (region);
  g_autoptr (GRand) rand = g_rand_new_with_seed (20240611);
  g_autoptr (GArray) live = g_array_new (FALSE, FALSE, sizeof (Live));
  XrtMemRegionInfo info;
  GError *error = NULL;
  guint n_alloc = 0, n_exhausted = 0;

  for (guint step = 0; step < 3000; step++)
    {
      gboolean do_alloc = live->len == 0 || g_rand_int_range (rand, 0, 100) < 55;

      if (do_alloc)
        {
          guint64 bytes = g_rand_int_range (rand, 1, 48 * 1024);
          guint64 align = 1u << g_rand_int_range (rand, 0, 14);  /* 1 .. 8192 */
          XrtMemChunk *chunk;

          if (g_rand_int_range (rand, 0, 8) == 0)
            align = 0;  /* default: 4096 */
          chunk = xrt_mem_region_malloc (region, bytes, TRUE, align, &error);
          if (chunk == NULL)
            {
              g_assert_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY);
              g_clear_error (&error);
              n_exhausted++;
              continue;
            }
          n_alloc++;
          g_assert_cmpuint (xrt_mem_chunk_get_addr (chunk) % (align ? align : 4096), ==, 0);
          g_assert_cmpuint (xrt_mem_chunk_get_size (chunk), ==, bytes);
          g_assert_cmpuint (xrt_mem_chunk_get_addr (chunk), >=, base);
          g_assert_cmpuint (xrt_mem_chunk_get_addr (chunk) + bytes, <=, base + size);
          {
            Live l = { chunk, (guint8) (step * 7 + 1) };
            g_autofree guint8 *fill = g_malloc (bytes);
            memset (fill, l.tag, bytes);
            g_assert_true (xrt_mem_chunk_write (chunk, 0, fill, bytes, &error));
            g_assert_no_error (error);
            g_array_append_val (live, l);
          }
        }
      else
        {
          guint idx = g_rand_int_range (rand, 0, live->len);
          Live l = g_array_index (live, Live, idx);
          /* No other chunk wrote over this one's bytes. */
          check_tag (l.chunk, l.tag);
          if (g_rand_boolean (rand))
            {
              g_assert_true (xrt_mem_chunk_free (l.chunk, &error));
              g_assert_no_error (error);
            }
          xrt_mem_chunk_unref (l.chunk);   /* auto_free: the last unref frees */
          g_array_remove_index_fast (live, idx);
        }
      if (step % 50 == 0)
        {
          assert_live_disjoint (live);
          g_assert_true (xrt_mem_manager_check (mm, &error));
          g_assert_no_error (error);
          region_info (region, &info);
          g_assert_cmpuint (info.n_chunks, ==, live->len);
        }
    }
  g_assert_cmpuint (n_alloc, >, 1000);
  g_assert_cmpuint (n_exhausted, >, 0);   /* the sequence did reach exhaustion */

  for (guint i = 0; i < live->len; i++)
    {
      Live l = g_array_index (live, Live, i);
      check_tag (l.chunk, l.tag);
      xrt_mem_chunk_unref (l.chunk);
    }
  region_info (region, &info);
  g_assert_cmpuint (info.used, ==, 0);
  g_assert_cmpuint (info.n_chunks, ==, 0);
  g_assert_cmpuint (info.n_free_blocks, ==, 1);       /* fully coalesced */
  g_assert_cmpuint (info.largest_free, ==, size);
  g_assert_true (xrt_mem_manager_check (mm, &error));
}

static void
test_alloc_best_fit (void)
{
  g_autoptr (XrtMemRegion) region = flat_region_new (0, 64 * 1024);
  GError *error = NULL;
  XrtMemChunk *c[5];
  const guint64 sizes[5] = { 1024, 8192, 1024, 16384, 1024 };
  g_autoptr (XrtMemChunk) fit = NULL;
  XrtMemRegionInfo info;

  for (guint i = 0; i < 5; i++)
    {
      c[i] = xrt_mem_region_malloc (region, sizes[i], TRUE, 1024, &error);
      g_assert_no_error (error);
    }
  guint64 small_hole = xrt_mem_chunk_get_addr (c[1]);
  xrt_mem_chunk_unref (c[3]);   /* a 16 KiB hole */
  xrt_mem_chunk_unref (c[1]);   /* an 8 KiB hole, lower */
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 3);  /* two holes + the tail */

  /* 6000 bytes fit both holes and the tail: best fit takes the 8 KiB one. */
  fit = xrt_mem_region_malloc (region, 6000, TRUE, 1024, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrt_mem_chunk_get_addr (fit), ==, small_hole);

  /* Layout now: c0 [0,1K) fit [1K,+6000) free [7024,9K) c2 [9K,10K) free [10K,26K)
   * c4 [26K,27K) free [27K,64K).  Freeing c2 joins its two neighbours into one block,
   * freeing c4 joins that with the tail. */
  xrt_mem_chunk_unref (c[2]);
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 2);
  g_assert_cmpuint (info.largest_free, ==, 64 * 1024 - 27 * 1024);
  xrt_mem_chunk_unref (c[4]);
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 1);
  g_assert_cmpuint (info.largest_free, ==, 64 * 1024 - 1024 - 6000);
  xrt_mem_chunk_unref (c[0]);
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 2);
  g_clear_pointer (&fit, xrt_mem_chunk_unref);
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 1);
  g_assert_cmpuint (info.largest_free, ==, 64 * 1024);
}

static void
test_alloc_exhaustion (void)
{
  g_autoptr (XrtMemRegion) region = flat_region_new (0x1000, 64 * 1024);
  GError *error = NULL;
  g_autoptr (XrtMemChunk) all = NULL;
  XrtMemChunk *more;

  all = xrt_mem_region_malloc (region, 64 * 1024, TRUE, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrt_mem_chunk_get_addr (all), ==, 0x1000);

  more = xrt_mem_region_malloc (region, 1, TRUE, 1, &error);
  g_assert_null (more);
  g_assert_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY);
  g_assert_nonnull (strstr (error->message, "TEST"));
  g_clear_error (&error);

  /* Enough bytes in all, but not at the asked alignment. */
  g_clear_pointer (&all, xrt_mem_chunk_unref);
  all = xrt_mem_region_malloc (region, 100, TRUE, 1, &error);
  more = xrt_mem_region_malloc (region, 60 * 1024, TRUE, 65536, &error);
  g_assert_null (more);
  g_assert_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY);
  g_clear_error (&error);
}

static void
test_alloc_invalid_arguments (void)
{
  g_autoptr (XrtMemRegion) region = flat_region_new (0, 64 * 1024);
  GError *error = NULL;

  g_assert_null (xrt_mem_region_malloc (region, 0, TRUE, 0, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (xrt_mem_region_malloc (region, 16, TRUE, 3, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (xrt_mem_region_malloc_at (region, 0, 0, TRUE, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

static void
test_alloc_bad_free (void)
{
  g_autoptr (XrtMemRegion) region = flat_region_new (0, 64 * 1024);
  GError *error = NULL;
  g_autoptr (XrtMemChunk) chunk = NULL;
  g_autoptr (XrtMemChunk) sub = NULL;
  guint8 byte = 0;

  chunk = xrt_mem_region_malloc (region, 4096, TRUE, 0, &error);
  g_assert_no_error (error);
  sub = xrt_mem_chunk_new_sub (chunk, 16, 32, &error);
  g_assert_no_error (error);

  g_assert_false (xrt_mem_chunk_free (sub, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_BAD_FREE);
  g_clear_error (&error);

  g_assert_true (xrt_mem_chunk_free (chunk, &error));
  g_assert_no_error (error);
  g_assert_false (xrt_mem_chunk_free (chunk, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_BAD_FREE);
  g_assert_nonnull (strstr (error->message, "double free"));
  g_clear_error (&error);

  /* Through a freed chunk (and its views), nothing is read or written. */
  g_assert_false (xrt_mem_chunk_read (chunk, 0, &byte, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_FREED);
  g_clear_error (&error);
  g_assert_false (xrt_mem_chunk_write (sub, 0, &byte, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_FREED);
  g_clear_error (&error);

  g_assert_false (xrt_mem_region_free (region, xrt_mem_ptr_from_addr (0x2345), &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_BAD_FREE);
  g_assert_nonnull (strstr (error->message, "0x2345"));
  g_clear_error (&error);

  /* A host pointer names nothing in a device region. */
  g_assert_false (xrt_mem_region_free (region, xrt_mem_ptr_from_cptr (&byte), &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION);
  g_clear_error (&error);
}

static void
test_alloc_malloc_at (void)
{
  g_autoptr (XrtMemRegion) region = flat_region_new (0x100000, 1024 * 1024);
  GError *error = NULL;
  g_autoptr (XrtMemChunk) a = NULL;
  XrtMemChunk *b;
  XrtMemRegionInfo info;

  a = xrt_mem_region_malloc_at (region, 0x140000, 0x2000, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrt_mem_chunk_get_addr (a), ==, 0x140000);

  b = xrt_mem_region_malloc_at (region, 0x13F000, 0x1001, TRUE, &error);
  g_assert_null (b);
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OVERLAP);
  g_assert_nonnull (strstr (error->message, "0x140000"));
  g_clear_error (&error);

  b = xrt_mem_region_malloc_at (region, 0x141FFF, 1, TRUE, &error);
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OVERLAP);
  g_clear_error (&error);

  b = xrt_mem_region_malloc_at (region, 0x1FF000, 0x2000, TRUE, &error);
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  b = xrt_mem_region_malloc_at (region, G_MAXUINT64 - 10, 100, TRUE, &error);
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  /* Right next to a: fine, and freeing both coalesces everything again. */
  b = xrt_mem_region_malloc_at (region, 0x142000, 0x1000, TRUE, &error);
  g_assert_no_error (error);
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 2);
  xrt_mem_chunk_unref (b);
  g_clear_pointer (&a, xrt_mem_chunk_unref);
  region_info (region, &info);
  g_assert_cmpuint (info.n_free_blocks, ==, 1);

  /* The same place can be taken again once free (segment reuse). */
  a = xrt_mem_region_malloc_at (region, 0x140000, 0x2000, TRUE, &error);
  g_assert_no_error (error);
}

static void
test_alloc_auto_free_and_manager (void)
{
  g_autoptr (XrtMemRegion) region = flat_region_new (0, 256 * 1024);
  XrtMemManager *mm = xrt_mem_region_get_manager (region);
  GError *error = NULL;
  XrtMemChunk *keep, *temp, *found;
  g_autoptr (GPtrArray) list = NULL;
  XrtMemRegionInfo info;
  guint64 keep_addr;
  const char msg[] = "still here";
  char back[sizeof msg];

  keep = xrt_mem_region_malloc (region, 10000, FALSE, 0, &error);
  temp = xrt_mem_region_malloc (region, 20000, TRUE, 0, &error);
  g_assert_no_error (error);
  keep_addr = xrt_mem_chunk_get_addr (keep);
  g_assert_true (xrt_mem_chunk_write (keep, 100, msg, sizeof msg, &error));

  found = xrt_mem_manager_find_chunk (mm, xrt_mem_ptr_from_addr (keep_addr + 50), 100);
  g_assert_true (found == keep);
  xrt_mem_chunk_unref (found);
  g_assert_null (xrt_mem_manager_find_chunk (mm, xrt_mem_ptr_from_addr (keep_addr + 9990), 100));

  xrt_mem_chunk_unref (temp);
  xrt_mem_chunk_unref (keep);   /* not auto_free: stays allocated */
  region_info (region, &info);
  g_assert_cmpuint (info.used, ==, 10000);
  g_assert_cmpuint (info.n_chunks, ==, 1);

  list = xrt_mem_manager_list_chunks (mm);
  g_assert_cmpuint (list->len, ==, 1);
  keep = list->pdata[0];
  g_assert_cmpuint (xrt_mem_chunk_get_addr (keep), ==, keep_addr);
  g_assert_true (xrt_mem_chunk_read (keep, 100, back, sizeof back, &error));
  g_assert_cmpstr (back, ==, msg);
  g_clear_pointer (&list, g_ptr_array_unref);

  g_assert_true (xrt_mem_region_free (region, xrt_mem_ptr_from_addr (keep_addr), &error));
  g_assert_no_error (error);
  region_info (region, &info);
  g_assert_cmpuint (info.used, ==, 0);
  g_assert_cmpuint (info.n_free_blocks, ==, 1);
}

static void
test_host_region (void)
{
  g_autoptr (XrtMemRegion) host = xrt_mem_region_new_host ("H", 1000);
  GError *error = NULL;
  g_autoptr (XrtMemChunk) a = NULL;
  XrtMemChunk *b;
  guint8 buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, back[8];
  static guint8 user[64];

  a = xrt_mem_region_malloc (host, 600, TRUE, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (xrt_mem_chunk_get_begin (a).ptype, ==, XRT_PTR_CPTR);
  g_assert_nonnull (xrt_mem_chunk_get_host_pointer (a));
  b = xrt_mem_region_malloc (host, 600, TRUE, 0, &error);   /* over capacity */
  g_assert_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY);
  g_clear_error (&error);

  g_assert_true (xrt_mem_region_write (host, xrt_mem_chunk_get_addr (a) + 592, buf, 8, &error));
  g_assert_true (xrt_mem_chunk_read (a, 592, back, 8, &error));
  g_assert_cmpmem (back, 8, buf, 8);
  g_assert_false (xrt_mem_region_write (host, xrt_mem_chunk_get_addr (a) + 596, buf, 8, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  b = xrt_mem_region_wrap_host (host, user, sizeof user, NULL, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (xrt_mem_chunk_write (b, 0, buf, 8, &error));
  g_assert_cmpmem (user, 8, buf, 8);
  xrt_mem_chunk_unref (b);
}

/* ---- the board's stores ------------------------------------------------------------- */

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

/* ---- device --------------------------------------------------------------------------- */

static gchar *
write_temp (const char *dir, const char *name, const char *text)
{
  gchar *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

static gchar *
profile_text_with (const char *field, const char *value)
{
  /* The built-in profile with one field's JSON value replaced (NULL value: removed). */
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autofree gchar *json = zg330_profile_to_json (p);
  g_autofree gchar *key = g_strdup_printf ("\n\t\"%s\":\t", field);
  const char *at = strstr (json, key);
  const char *end;

  g_assert_nonnull (at);
  end = strchr (at + strlen (key), '\n');
  if (value == NULL)
    return g_strdup_printf ("%.*s%s", (int) (at - json), json, end);
  return g_strdup_printf ("%.*s%s%s,%s", (int) (at - json), json, key, value, end);
}

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

/* ---- icoreCalc ------------------------------------------------------------------------ */

typedef struct {
  XrtMemChunk *out;        /* where the op writes its bytes */
  guint64      out_offset;
  const char  *bytes;
  Zg330OpWork  work;
  GString     *log;        /* order of execution */
  char         id;
  gboolean     fail;
  guint       *destroyed;
} FakeOp;

static gboolean
fake_op_run (XrtDevice *device, gpointer user_data, Zg330OpWork *work, GError **error)
{
  FakeOp *op = user_data;
  XrtMemRegion *region = xrt_mem_chunk_get_region (op->out);

  g_assert_true (zg330_sim_is_sim (device));
  g_string_append_c (op->log, op->id);
  if (op->fail)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "fake op %c: input missing", op->id);
      return FALSE;
    }
  /* Write through the region at the absolute address, as a hardop model does. */
  if (!xrt_mem_region_write (region, xrt_mem_chunk_get_addr (op->out) + op->out_offset,
                             op->bytes, strlen (op->bytes), error))
    return FALSE;
  *work = op->work;
  return TRUE;
}

static void
fake_op_destroy (gpointer data)
{
  FakeOp *op = data;
  (*op->destroyed)++;
}

static const Zg330HardopExec fake_exec = { fake_op_run, FALSE };

static guint64
le64_at (const guint8 *p, guint index)
{
  guint64 v;

  memcpy (&v, p + 8 * index, 8);
  return GUINT64_FROM_LE (v);
}

static void
read_stamp (XrtMemChunk *timer, guint layer, guint64 *start, guint64 *end)
{
  guint8 rec[16];
  GError *error = NULL;

  g_assert_true (xrt_mem_chunk_read (timer, layer * 16, rec, 16, &error));
  g_assert_no_error (error);
  memcpy (start, rec, 8);
  memcpy (end, rec + 8, 8);
  *start = GUINT64_FROM_LE (*start);
  *end = GUINT64_FROM_LE (*end);
}

static void
test_icore_runs_bound_ops (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;
  g_autoptr (XrtMemChunk) instr = xrt_device_malloc (device, "ETM", 0x1000, &error);
  g_autoptr (XrtMemChunk) out_etm = xrt_device_malloc (device, "ETM", 4096, &error);
  g_autoptr (XrtMemChunk) out_ocm = xrt_device_malloc (device, "OCM", 4096, &error);
  g_autoptr (XrtMemChunk) timer = xrt_device_malloc (device, "ETM", 16 * 8, &error);
  g_autoptr (XrtMemChunk) profiler = xrt_device_malloc (device, "ETM", 64 * 8, &error);
  g_autoptr (GString) log = g_string_new (NULL);
  guint destroyed = 0;
  guint64 a = xrt_mem_chunk_get_addr (instr);
  FakeOp op1 = { out_etm, 16, "first op", { 0 }, log, '1', FALSE, &destroyed };
  FakeOp op2 = { out_ocm, 0, "second op", { 0 }, log, '2', FALSE, &destroyed };
  Zg330LaunchStats stats;
  char back[16];
  guint64 s, e;
  guint32 v;
  g_autoptr (GArray) times = NULL;
  g_autoptr (GString) shown = g_string_new (NULL);
  guint8 prof[64];

  g_assert_no_error (error);
  /* op1: 4000 x 10000 MACs = 10000 cycles, 12800 ETM bytes = 1000 cycles -> 10500. */
  op1.work.macs = 4000 * 10000;
  op1.work.etm_read_bytes = 12800;
  op1.work.layer_count = 1;
  /* op2: 256000 ETM bytes written = 20000 cycles, 128000 OCM bytes = 1000 -> 20500,
   * spread over two layers. */
  op2.work.etm_write_bytes = 256000;
  op2.work.ocm_read_bytes = 128000;
  op2.work.layer_count = 2;

  /* Bound out of order on purpose: the launch runs them in address order. */
  g_assert_true (zg330_sim_bind_hardop (device, a + 0x100, 0x100, &fake_exec, &op2,
                                        fake_op_destroy, &error));
  g_assert_true (zg330_sim_bind_hardop (device, a, 0x100, &fake_exec, &op1,
                                        fake_op_destroy, &error));
  g_assert_no_error (error);
  g_assert_false (zg330_sim_bind_hardop (device, a + 0x80, 0x100, &fake_exec, &op1,
                                         fake_op_destroy, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OVERLAP);
  g_clear_error (&error);
  g_assert_cmpuint (zg330_sim_get_n_bindings (device), ==, 2);
  g_assert_true (zg330_device_config_timer (device, timer, &error));
  g_assert_true (zg330_device_config_profiler (device, profiler, &error));
  g_assert_no_error (error);

  g_assert_true (zg330_device_icore_calc (device, a, 0x200, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "12");

  g_assert_true (xrt_mem_chunk_read (out_etm, 16, back, 8, &error));
  g_assert_cmpmem (back, 8, "first op", 8);
  g_assert_true (xrt_mem_chunk_read (out_ocm, 0, back, 9, &error));
  g_assert_cmpmem (back, 9, "second op", 9);

  g_assert_cmpuint (zg330_device_layer_count (device), ==, 3);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_TIMER_CNT, &v, &error));
  g_assert_cmpuint (v, ==, 2000 + 10500 + 20500);
  /* Tiles (4096 bytes): op1 reads 4, op2 reads 32 and writes 63; master cid 1. */
  g_assert_cmpuint (zg330_device_r_tile_count (device, 1), ==, 36);
  g_assert_cmpuint (zg330_device_w_tile_count (device, 1), ==, 63);
  g_assert_cmpuint (zg330_device_w_tile_count (device, 0), ==, 0);
  g_assert_cmpfloat_with_epsilon (zg330_device_calc_time (device), 0.033, 1e-12);

  read_stamp (timer, 0, &s, &e);
  g_assert_cmpuint (s, ==, 2000);
  g_assert_cmpuint (e, ==, 12500);
  read_stamp (timer, 1, &s, &e);
  g_assert_cmpuint (s, ==, 12500);
  g_assert_cmpuint (e, ==, 22750);
  read_stamp (timer, 2, &s, &e);
  g_assert_cmpuint (s, ==, 22750);
  g_assert_cmpuint (e, ==, 33000);

  g_assert_true (xrt_mem_chunk_read (profiler, 64, prof, 64, &error));
  g_assert_cmpuint (le64_at (prof, 0), ==, 10250);    /* cycles of op2's first layer */
  g_assert_cmpuint (le64_at (prof, 3), ==, 128000);   /* half of its ETM writes */
  g_assert_cmpuint (le64_at (prof, 7), ==, ZG330_BOUND_ETM);

  g_assert_true (zg330_sim_get_last_launch (device, &stats));
  g_assert_true (stats.merged);
  g_assert_cmpuint (stats.n_hardops, ==, 2);
  g_assert_cmpuint (stats.host_sync_cycles, ==, 0);
  g_assert_cmpuint (stats.layers, ==, 3);
  g_assert_cmpuint (stats.work.macs, ==, 4000 * 10000);

  times = zg330_device_get_layer_time (device, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (g_array_index (times, double, 0), 0.0105, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (times, double, 1), 0.01025, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (times, double, 2), 0.01025, 1e-12);
  g_assert_true (zg330_device_show_layer_time (device, 1, 2, shown, &error));
  g_assert_nonnull (strstr (shown->str, "layer     2"));
  g_assert_null (zg330_device_get_layer_time (device, 9, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  /* One hardop alone is an unmerged launch: it pays the host sync (25 us). */
  g_assert_true (zg330_device_icore_calc (device, a, 0x100, &error));
  g_assert_true (zg330_sim_get_last_launch (device, &stats));
  g_assert_false (stats.merged);
  g_assert_cmpuint (stats.host_sync_cycles, ==, 25000);
  g_assert_cmpfloat_with_epsilon (zg330_device_calc_time (device), 0.0125, 1e-12);
  read_stamp (timer, 3, &s, &e);
  g_assert_cmpuint (s, ==, 33000 + 2000);
  g_assert_cmpuint (e, ==, 33000 + 12500);

  /* Through the registers, as on hardware. */
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_BASE, (guint32) a + 0x100, &error));
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_SIZE, 0x100, &error));
  g_assert_true (xrt_device_write_reg (device, ZG330_REG_RUN_START, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 6);
  g_assert_cmpstr (log->str, ==, "1212");

  /* The timer and profiler chunks hold 8 layers: layer 8 is dropped, never written past. */
  g_assert_true (zg330_device_icore_calc (device, a, 0x200, &error));
  g_assert_true (zg330_sim_get_last_launch (device, &stats));
  g_assert_cmpuint (stats.first_layer, ==, 6);
  g_assert_cmpuint (stats.layers, ==, 3);
  g_assert_cmpuint (stats.stamps_dropped, ==, 2);
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 9);
  g_assert_cmpstr (log->str, ==, "121212");

  /* A range that cuts a binding in two is refused; nothing runs. */
  g_assert_false (zg330_device_icore_calc (device, a + 0x80, 0x100, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_OVERLAP);
  g_clear_error (&error);
  g_assert_cmpstr (log->str, ==, "121212");

  /* A failing hardop: its error, prefixed with its address; the state bit is set. */
  op2.fail = TRUE;
  g_assert_false (zg330_device_icore_calc (device, a, 0x200, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_EXEC);
  {
    g_autofree gchar *where = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", a + 0x100);
    g_assert_nonnull (strstr (error->message, where));
    g_assert_nonnull (strstr (error->message, "input missing"));
  }
  g_clear_error (&error);
  g_assert_true (xrt_device_read_reg (device, ZG330_REG_STATE, &v, &error));
  g_assert_cmphex (v & ZG330_STATE_LAUNCH_FAILED, ==, ZG330_STATE_LAUNCH_FAILED);

  g_assert_cmpuint (destroyed, ==, 0);
  g_assert_cmpuint (zg330_sim_unbind_range (device, a, 0x1000), ==, 2);
  g_assert_cmpuint (destroyed, ==, 2);
  g_assert_cmpuint (zg330_sim_get_n_bindings (device), ==, 0);
}

static void
test_icore_unbound_address (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;

  g_assert_false (zg330_device_icore_calc (device, 0x12340000, 0x100, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_UNBOUND);
  g_assert_nonnull (strstr (error->message, "0x12340000"));
  g_clear_error (&error);
  g_assert_false (xrt_device_write_reg (device, ZG330_REG_RUN_START, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);   /* size register is 0 */
  g_clear_error (&error);
  g_assert_false (zg330_sim_get_last_launch (device, &(Zg330LaunchStats) { 0 }));
  g_assert_cmpfloat (zg330_device_calc_time (device), ==, 0.0);
  g_assert_null (zg330_device_get_layer_time (device, 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);   /* no timer chunk */
  g_clear_error (&error);
}

/* ---- timing model and profiles ------------------------------------------------------------ */

static void
test_timing_hand_computed (void)
{
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  GError *error = NULL;
  Zg330OpWork w = { 0 };
  Zg330OpCycles c;
  double v;

  g_assert_cmpfloat (p->macs_per_cycle, ==, 4000.0);   /* 8 TOPS = 4 TMAC/s at 1 GHz */
  w.macs = 4000 * 1000;          /* 1000 cycles */
  w.etm_read_bytes = 6400;       /* + 6400 written: 12800 B at 12.8 GB/s = 1 us */
  w.etm_write_bytes = 6400;
  w.ocm_read_bytes = 256000;     /* 256000 B at 128 GB/s = 2 us */
  zg330_timing_op_breakdown (p, &w, &c);
  g_assert_cmpuint (c.compute_cycles, ==, 1000);
  g_assert_cmpuint (c.etm_cycles, ==, 1000);
  g_assert_cmpuint (c.ocm_cycles, ==, 2000);
  g_assert_cmpuint (c.total_cycles, ==, 2500);
  g_assert_cmpint (c.bound, ==, ZG330_BOUND_OCM);
  g_assert_cmpuint (zg330_timing_op_cycles (p, &w), ==, 2500);

  w.macs = 4000 * 1000 + 1;      /* one MAC more: a cycle more, still OCM bound */
  zg330_timing_op_breakdown (p, &w, &c);
  g_assert_cmpuint (c.compute_cycles, ==, 1001);

  g_assert_cmpuint (zg330_timing_launch_overhead (p, TRUE), ==, 2000);
  g_assert_cmpuint (zg330_timing_launch_overhead (p, FALSE), ==, 2000 + 25000);
  g_assert_cmpfloat_with_epsilon (zg330_timing_cycles_to_ms (p, 1000000), 1.0, 1e-12);

  /* What-ifs: a slower icore keeps the array width; a slower DDR halves ETM bandwidth. */
  g_assert_true (zg330_profile_set_icore_clock_hz (p, 500e6, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (p->macs_per_cycle, ==, 4000.0);
  g_assert_cmpfloat_with_epsilon (p->int8_tops, 4.0, 1e-12);
  w = (Zg330OpWork) { .etm_read_bytes = 12800 };
  g_assert_cmpuint (zg330_timing_op_cycles (p, &w), ==, 500 + 500);
  g_assert_true (zg330_profile_set_ddr_clock_hz (p, 400e6, &error));
  g_assert_cmpfloat_with_epsilon (p->etm_bandwidth, 6.4e9, 1);
  g_assert_cmpuint (zg330_timing_op_cycles (p, &w), ==, 1000 + 500);
  g_assert_cmpuint (zg330_timing_launch_overhead (p, FALSE), ==, 2000 + 12500);

  g_assert_true (zg330_profile_set_ocm_bytes (p, 4 << 20, &error));
  g_assert_true (zg330_profile_get_field (p, "ocm_bytes", &v));
  g_assert_cmpfloat (v, ==, 4 << 20);
  g_assert_false (zg330_profile_set_ocm_bytes (p, 100, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_assert_nonnull (strstr (error->message, "'ocm_bytes'"));
  g_clear_error (&error);
  g_assert_cmpuint (p->ocm_bytes, ==, 4 << 20);   /* unchanged by the failed set */
  g_assert_false (zg330_profile_set_field (p, "mpe_rows", 2.5, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
  g_assert_false (zg330_profile_set_field (p, "warp_drive", 1, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
}

static void
test_timing_device_clock_setters (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  GError *error = NULL;

  g_assert_true (zg330_device_set_icore_clk_freq (device, 2000000000, &error));
  g_assert_true (zg330_device_set_ddr_clk_freq (device, 1600000000, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (zg330_sim_get_profile (device)->etm_bandwidth, 25.6e9, 1);
  g_assert_cmpfloat_with_epsilon (zg330_sim_get_profile (device)->int8_tops, 16.0, 1e-9);
  g_assert_false (zg330_sim_set_timing_field (device, "ocm_bytes", 1 << 22, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
  g_assert_false (zg330_device_set_icore_clk_freq (device, 0, &error));
  g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
  g_clear_error (&error);
}

static gchar *
source_profile_path (void)
{
  const char *dir = g_getenv ("ZW_SOURCE_DATA_DIR");
#ifdef ZW_SOURCE_DATADIR
  if (dir == NULL)
    dir = ZW_SOURCE_DATADIR;
#endif
  g_assert_nonnull (dir);
  return g_build_filename (dir, "devices", "zg330.json", NULL);
}

static void
test_profile_builtin_matches_file (void)
{
  g_autofree gchar *path = source_profile_path ();
  g_autoptr (Zg330Profile) builtin = zg330_profile_new_builtin ();
  g_autoptr (Zg330Profile) file = NULL;
  g_autoptr (Zg330Profile) deflt = NULL;
  GError *error = NULL;
  const char *const *fields = zg330_profile_list_fields ();

  file = zg330_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (file->name, ==, "zg330");
  for (guint i = 0; fields[i]; i++)
    {
      double a, b;
      g_assert_true (zg330_profile_get_field (builtin, fields[i], &a));
      g_assert_true (zg330_profile_get_field (file, fields[i], &b));
      if (a != b)
        g_error ("field %s: built-in %.17g, %s %.17g", fields[i], a, path, b);
      g_assert_nonnull (zg330_profile_get_field_doc (fields[i]));
    }
  g_assert_cmpuint (file->assumptions->len, ==, builtin->assumptions->len);
  g_assert_cmpuint (file->ocm_bytes, ==, 2 * 1024 * 1024);
  g_assert_cmpfloat (file->macs_per_cycle, ==, 4000.0);
  for (guint i = 0; i < file->assumptions->len; i++)
    g_assert_cmpstr (file->assumptions->pdata[i], ==, builtin->assumptions->pdata[i]);

  deflt = zg330_profile_load_default (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (deflt->ocm_bytes, ==, file->ocm_bytes);
}

static void
test_profile_rejects_malformed (void)
{
  static const struct { const char *field; const char *value; const char *needle; } cases[] = {
    { "ocm_bytes", NULL, "field 'ocm_bytes': missing" },
    { "ocm_bytes", "\"big\"", "field 'ocm_bytes': must be a number" },
    { "ocm_bytes", "-1", "field 'ocm_bytes'" },
    { "mpe_cols", "4.5", "field 'mpe_cols'" },
    { "icore_clock_hz", "0", "field 'icore_clock_hz'" },
    { "fpga_version", "123", "field 'fpga_version'" },
    { "etm_base", "4026531840", "field 'etm_bytes'" },     /* base + 4 GiB > 32 bits */
    { "assumptions", "[]", "field 'assumptions'" },
    { "assumptions", "[1]", "field 'assumptions[0]'" },
    { "profile_version", "2", "field 'profile_version'" },
    { "name", "7", "field 'name'" },
  };
  g_autofree gchar *dir = g_dir_make_tmp ("test-board-XXXXXX", NULL);
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *name = g_strdup_printf ("bad-%u.json", i);
      g_autofree gchar *text = NULL;
      g_autofree gchar *path = NULL;
      Zg330Profile *p;

      if (strcmp (cases[i].field, "assumptions") == 0)
        {
          /* The assumptions list is last: replace it wholesale. */
          g_autoptr (Zg330Profile) b = zg330_profile_new_builtin ();
          g_autofree gchar *json = zg330_profile_to_json (b);
          char *at = strstr (json, "\t\"assumptions\":\t[");
          g_assert_nonnull (at);
          text = g_strdup_printf ("%.*s\t\"assumptions\": %s\n}\n", (int) (at - json), json,
                                  cases[i].value);
        }
      else
        text = profile_text_with (cases[i].field, cases[i].value);
      path = write_temp (dir, name, text);
      p = zg330_profile_load (path, &error);
      g_assert_null (p);
      g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
      if (strstr (error->message, cases[i].needle) == NULL || strstr (error->message, path) == NULL)
        g_error ("case %u: message '%s' lacks '%s' or the path", i, error->message, cases[i].needle);
      g_clear_error (&error);
      g_unlink (path);
    }

  {
    g_autofree gchar *path = write_temp (dir, "typo.json", "{ \"ocm_byte\": 1 }");
    g_assert_null (zg330_profile_load (path, &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
    g_assert_nonnull (strstr (error->message, "field 'ocm_byte': unknown field"));
    g_clear_error (&error);
    g_unlink (path);
  }
  {
    g_autofree gchar *path = write_temp (dir, "broken.json", "{ \"name\": ");
    g_assert_null (zg330_profile_load (path, &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
    g_assert_nonnull (strstr (error->message, "not valid JSON"));
    g_assert_nonnull (strstr (error->message, path));
    g_clear_error (&error);
    g_unlink (path);
  }
  g_rmdir (dir);
}

static void
test_profile_save_roundtrip (void)
{
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autoptr (Zg330Profile) back = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("test-board-XXXXXX", NULL);
  g_autofree gchar *path = g_build_filename (dir, "whatif.json", NULL);
  GError *error = NULL;

  g_assert_true (zg330_profile_set_ocm_bytes (p, 8 << 20, &error));
  g_assert_true (zg330_profile_set_etm_bandwidth (p, 25.6e9, &error));
  g_assert_true (zg330_profile_save (p, path, &error));
  back = zg330_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->ocm_bytes, ==, 8 << 20);
  g_assert_cmpfloat (back->etm_bandwidth, ==, 25.6e9);
  g_assert_cmpuint (back->fpga_version, ==, p->fpga_version);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- threads ---------------------------------------------------------------------------------- */

typedef struct {
  XrtDevice *device;
  guint64    base;
  gboolean   ok;
} ThreadArgs;

static gboolean
count_run (XrtDevice *device, gpointer user_data, Zg330OpWork *work, GError **error)
{
  (void) device;
  (void) error;
  g_atomic_int_inc ((gint *) user_data);
  work->macs = 4000;
  work->layer_count = 1;
  return TRUE;
}

static gpointer
session_thread (gpointer data)
{
  ThreadArgs *args = data;
  XrtMemRegion *etm = xrt_device_get_default_mem_region (args->device);
  static const Zg330HardopExec exec = { count_run, FALSE };
  gint runs = 0;
  guint8 buf[5000], back[5000];
  XrtMemChunk *chunk, *instr;

  args->ok = TRUE;
  chunk = xrt_mem_region_malloc_at (etm, args->base, 1 << 20, TRUE, NULL);
  instr = xrt_mem_region_malloc_at (etm, args->base + (1 << 20), 4096, TRUE, NULL);
  if (!chunk || !instr
      || !zg330_sim_bind_hardop (args->device, args->base + (1 << 20), 64, &exec, &runs,
                                 NULL, NULL))
    args->ok = FALSE;
  for (guint i = 0; i < 200 && args->ok; i++)
    {
      guint64 off = (i * 4099) % ((1 << 20) - sizeof buf);
      memset (buf, (int) (args->base >> 24) + (int) i, sizeof buf);
      args->ok = xrt_mem_chunk_write (chunk, off, buf, sizeof buf, NULL)
                 && zg330_device_icore_calc (args->device, args->base + (1 << 20), 64, NULL)
                 && xrt_mem_chunk_read (chunk, off, back, sizeof back, NULL)
                 && memcmp (buf, back, sizeof buf) == 0;
    }
  args->ok = args->ok && runs == 200;
  zg330_sim_unbind_range (args->device, args->base + (1 << 20), 4096);
  g_clear_pointer (&chunk, xrt_mem_chunk_unref);
  g_clear_pointer (&instr, xrt_mem_chunk_unref);
  return NULL;
}

static void
test_threads_two_sessions (void)
{
  g_autoptr (XrtDevice) device = open_board ();
  ThreadArgs a = { device, 0x10000000, FALSE }, b = { device, 0xA0000000, FALSE };
  GThread *ta = g_thread_new ("session-a", session_thread, &a);
  GThread *tb = g_thread_new ("session-b", session_thread, &b);

  g_thread_join (ta);
  g_thread_join (tb);
  g_assert_true (a.ok);
  g_assert_true (b.ok);
  g_assert_cmpuint (zg330_device_layer_count (device), ==, 400);
}

int
main (int argc, char **argv)
{
  /* The default profile must be the source tree's, whatever the caller's environment. */
  g_unsetenv ("ZW_ZG330_PROFILE");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/board/alloc/random-aligned-disjoint-coalesced", test_alloc_random_properties);
  g_test_add_func ("/board/alloc/best-fit-takes-smallest-hole", test_alloc_best_fit);
  g_test_add_func ("/board/alloc/exhaustion-is-an-error", test_alloc_exhaustion);
  g_test_add_func ("/board/alloc/rejects-zero-size-and-bad-alignment", test_alloc_invalid_arguments);
  g_test_add_func ("/board/alloc/bad-free-is-an-error", test_alloc_bad_free);
  g_test_add_func ("/board/alloc/malloc-at-fixed-address", test_alloc_malloc_at);
  g_test_add_func ("/board/alloc/auto-free-and-manager", test_alloc_auto_free_and_manager);
  g_test_add_func ("/board/alloc/host-region", test_host_region);
  g_test_add_func ("/board/etm/sparse-high-address", test_etm_sparse_high_address);
  g_test_add_func ("/board/mem/out-of-range-access-errors", test_out_of_range_access);
  g_test_add_func ("/board/mem/copy-across-regions", test_copy_across_regions);
  g_test_add_func ("/board/device/url-schemes", test_device_url_schemes);
  g_test_add_func ("/board/device/registers", test_device_registers);
  g_test_add_func ("/board/device/regions-version-status", test_device_regions_version_status);
  g_test_add_func ("/board/device/close-frees-everything", test_device_close);
  g_test_add_func ("/board/icore/runs-bound-ops-in-order", test_icore_runs_bound_ops);
  g_test_add_func ("/board/icore/unbound-address-errors", test_icore_unbound_address);
  g_test_add_func ("/board/timing/hand-computed", test_timing_hand_computed);
  g_test_add_func ("/board/timing/device-clock-setters", test_timing_device_clock_setters);
  g_test_add_func ("/board/profile/builtin-matches-file", test_profile_builtin_matches_file);
  g_test_add_func ("/board/profile/rejects-malformed", test_profile_rejects_malformed);
  g_test_add_func ("/board/profile/save-load-roundtrip", test_profile_save_roundtrip);
  g_test_add_func ("/board/threads/two-sessions", test_threads_two_sessions);

  return g_test_run ();
}
