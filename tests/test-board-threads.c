/* test-board-threads.c: two sessions on two threads share one simulated board. */
#include "zw-test-board.h"

#include <string.h>

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

void
test_board_add_threads (void)
{
  g_test_add_func ("/board/threads/two-sessions", test_threads_two_sessions);
}
