/* test-board-alloc.c: the xrt memory allocator on a flat test store: random properties, best
 * fit, exhaustion, bad arguments and frees, fixed addresses, auto-free, host regions. */
#include "zw-test-board.h"

#include <string.h>

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

void
test_board_add_alloc (void)
{
  g_test_add_func ("/board/alloc/random-aligned-disjoint-coalesced", test_alloc_random_properties);
  g_test_add_func ("/board/alloc/best-fit-takes-smallest-hole", test_alloc_best_fit);
  g_test_add_func ("/board/alloc/exhaustion-is-an-error", test_alloc_exhaustion);
  g_test_add_func ("/board/alloc/rejects-zero-size-and-bad-alignment", test_alloc_invalid_arguments);
  g_test_add_func ("/board/alloc/bad-free-is-an-error", test_alloc_bad_free);
  g_test_add_func ("/board/alloc/malloc-at-fixed-address", test_alloc_malloc_at);
  g_test_add_func ("/board/alloc/auto-free-and-manager", test_alloc_auto_free_and_manager);
  g_test_add_func ("/board/alloc/host-region", test_host_region);
}
