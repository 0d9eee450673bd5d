/* bench-analysis — tensor statistics and a channel heatmap of a 1x8x176x320x32 int8 tensor
 * (NCHWc32, 256 channels), as a fraction of a 16.7 ms frame.  Prints; never asserts timing. */
#include "report/zw-tensor-stats.h"

#include <stdio.h>

#define FRAME_MS 16.7

int
main (void)
{
  static const gint64 shape[] = { 1, 8, 176, 320, 32 };
  gsize n = 8 * 176 * 320 * 32;
  guint8 *raw = g_malloc (n);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTensor) t = NULL;
  ZwDumpType type = { 0 };
  guint32 x = 2463534242u;
  double best_stats = G_MAXDOUBLE, best_heat = G_MAXDOUBLE, sink = 0;
  const int reps = 7;

  /* xorshift bytes: every level occurs, no branch pattern to learn */
  for (gsize i = 0; i < n; i++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      raw[i] = (guint8) x;
    }
  bytes = g_bytes_new_take (raw, n);
  type.v_id = 1;
  type.storage.kind = XIR_SCALAR_SINT;
  type.storage.bits = 8;
  type.quantized = TRUE;
  type.n_scales = 256;
  type.scales = g_new (float, 256);
  for (guint c = 0; c < 256; c++)
    type.scales[c] = 0.01f + 0.001f * (float) c;
  g_assert_true (xir_parse_layout ("@layout(NCHWc32)", &type.layout, NULL));
  type.rank = 5;
  type.shape = g_memdup2 (shape, sizeof shape);
  t = zw_tensor_new (&type, bytes, &error);
  g_assert_no_error (error);
  zw_dump_type_clear (&type);

  for (int r = 0; r < reps; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      ZwTensorStats *st = zw_tensor_stats_compute (t, 64);
      gint64 t1 = g_get_monotonic_time ();
      float *grid = zw_tensor_heatmap (t, 0, (r * 37) % 256, FALSE, NULL);
      gint64 t2 = g_get_monotonic_time ();

      sink += st->f.mean + grid[r];
      best_stats = MIN (best_stats, (t1 - t0) / 1000.0);
      best_heat = MIN (best_heat, (t2 - t1) / 1000.0);
      zw_tensor_stats_free (st);
      g_free (grid);
    }
  printf ("tensor 1x8x176x320x32 int8 (%.1f M elements, %u cores)\n", n / 1e6, g_get_num_processors ());
  printf ("  stats (min/max/mean/std, counts, level + 64-bin histograms, 256 channels): %.3f ms = %.3f frame\n",
          best_stats, best_stats / FRAME_MS);
  printf ("  heatmap of one channel (176x320 floats):                                 %.3f ms = %.4f frame\n",
          best_heat, best_heat / FRAME_MS);
  printf ("  stats + heatmap: %.3f ms = %.3f of a 16.7 ms frame   (checksum %g)\n", best_stats + best_heat,
          (best_stats + best_heat) / FRAME_MS, sink);
  return 0;
}
