/* bench-views2 — drawing cost of the tensor heatmap and the timing view, as a fraction of a
 * 16.7 ms frame (60 Hz). Prints figures; asserts nothing about time.
 *
 *  heatmap  a 1x8x176x320x32 int8 tensor (NCHWc32, 256 channels of 176x320, 14.4 M
 *           elements): statistics once (on selection), then the inspector's full drawing
 *           (256-cell heatmap grid, histogram, stats) at 1280x800.
 *  timing   a 10,000-row profile (the size of the 10,000-op network run with merge off,
 *           rows synthesised: hardops with start times, a host op every 50), drawn fitted
 *           and zoomed to 1 % at 1920x600. */
#include "report/zw-tensor-stats.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

#include <math.h>

#define FRAME_MS 16.7

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The median of @n timed calls of @draw into an image surface of @w x @h. */
static double
median_draw (int w, int h, int n, void (*draw) (cairo_t *, int, int, gpointer), gpointer data)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  double *t = g_new (double, n), m;

  for (int i = 0; i < n; i++)
    {
      cairo_t *cr = cairo_create (s);
      double t0 = now_ms ();
      draw (cr, w, h, data);
      cairo_surface_flush (s);
      t[i] = now_ms () - t0;
      cairo_destroy (cr);
    }
  qsort (t, (gsize) n, sizeof (double), cmp_double);
  m = t[n / 2];
  g_free (t);
  cairo_surface_destroy (s);
  return m;
}

typedef struct {
  const ZwTensor *tensor;
  const ZwTensorStats *stats;
  ZwTensorViewState state;
  ZwViewStyle style;
} TensorArgs;

static void
draw_tensor (cairo_t *cr, int w, int h, gpointer data)
{
  TensorArgs *a = data;
  zw_tensor_view_draw (cr, w, h, a->tensor, a->stats, &a->state, &a->style);
}

typedef struct {
  const ZwProfile *profile;
  ZwTimingState state;
  ZwViewStyle style;
} TimingArgs;

static void
draw_timing (cairo_t *cr, int w, int h, gpointer data)
{
  TimingArgs *a = data;
  zw_timing_view_draw (cr, w, h, a->profile, NULL, &a->state, &a->style);
}

int
main (void)
{
  g_autoptr (GError) error = NULL;

  /* ---- heatmap ---- */
  {
    const gint64 shape[5] = { 1, 8, 176, 320, 32 };
    gsize n = 1 * 8 * 176 * 320 * 32;
    guint8 *bytes = g_malloc (n);
    GRand *rand = g_rand_new_with_seed (1);
    g_autoptr (GBytes) stored = NULL;
    g_autoptr (ZwTensor) tensor = NULL;
    g_autoptr (ZwTensorStats) stats = NULL;
    ZwDumpType type = { 0 };
    TensorArgs a;
    double t0, stats_ms, q_ms, f_ms;

    for (gsize i = 0; i < n; i++)
      bytes[i] = (guint8) (g_rand_int_range (rand, 0, 64) + g_rand_int_range (rand, 0, 64));
    g_rand_free (rand);
    stored = g_bytes_new_take (bytes, n);
    type.v_id = 1;
    type.storage.kind = XIR_SCALAR_SINT;
    type.storage.bits = 8;
    type.quantized = TRUE;
    type.n_scales = 256;
    type.scales = g_new (float, 256);
    for (guint c = 0; c < 256; c++)
      type.scales[c] = 0.01f + 0.0001f * c;
    if (!xir_parse_layout ("@layout(NCHWc32)", &type.layout, &error))
      g_error ("layout: %s", error->message);
    type.rank = 5;
    type.shape = g_memdup2 (shape, sizeof shape);
    tensor = zw_tensor_new (&type, stored, &error);
    if (tensor == NULL)
      g_error ("tensor: %s", error->message);
    t0 = now_ms ();
    stats = zw_tensor_stats_compute (tensor, 64);
    stats_ms = now_ms () - t0;

    a.tensor = tensor;
    a.stats = stats;
    zw_tensor_view_state_init (&a.state);
    zw_view_style_init_default (&a.style);
    a.state.quantized = TRUE;
    q_ms = median_draw (1280, 800, 9, draw_tensor, &a);
    a.state.quantized = FALSE;
    f_ms = median_draw (1280, 800, 9, draw_tensor, &a);
    g_print ("heatmap 1x8x176x320x32 int8 (%" G_GINT64_FORMAT " channels, %" G_GUINT64_FORMAT " elements):\n",
             tensor->c, stats->f.count);
    g_print ("  statistics (once per selected value): %8.3f ms = %.2f frames\n", stats_ms, stats_ms / FRAME_MS);
    g_print ("  draw 1280x800, quantised view:        %8.3f ms = %.2f of a 16.7 ms frame\n", q_ms, q_ms / FRAME_MS);
    g_print ("  draw 1280x800, float view:            %8.3f ms = %.2f of a 16.7 ms frame\n", f_ms, f_ms / FRAME_MS);
    g_print ("  (a redraw with unchanged data and size reuses the cached render node)\n");
    zw_dump_type_clear (&type);
  }

  /* ---- timing ---- */
  {
    g_autoptr (ZwProfile) p = zw_profile_new ("netgen-10000");
    GRand *rand = g_rand_new_with_seed (2);
    double t = 0, fit_ms, zoom_ms, end, base_ms;
    TimingArgs a;

    for (guint i = 0; i < 10000; i++)
      {
        gboolean host = i % 50 == 0;
        double hard = host ? 0 : g_rand_double_range (rand, 0.001, 0.05);
        double other = g_rand_double_range (rand, 0.0005, 0.01);
        double memcpy_ms = i % 7 == 0 ? 0.002 : 0;
        ZwProfileRow *row = zw_profile_add_row (p, 1000 + i, host ? "icraft::xir::CastNode" : "icraft::xir::HardOpNode",
                                                "", memcpy_ms + hard + other, memcpy_ms, hard, other);
        row->backend = g_strdup (host ? "Host" : "ZG330");
        row->start_ms = t;
        t += row->total_ms;
      }
    g_rand_free (rand);
    zw_profile_compute_totals (p);
    end = zw_timing_layout (p, NULL);
    a.profile = p;
    zw_view_style_init_default (&a.style);
    zw_timing_state_init (&a.state);
    fit_ms = median_draw (1920, 600, 9, draw_timing, &a);
    a.state.t0 = end * 0.495;
    a.state.t1 = end * 0.505;
    zoom_ms = median_draw (1920, 600, 9, draw_timing, &a);
    /* the fixed cost (text, ruler, summary) with only the first 6 rows */
    {
      g_autoptr (ZwProfile) small = zw_profile_new ("six rows");
      for (guint i = 0; i < 6; i++)
        {
          const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
          ZwProfileRow *c = zw_profile_add_row (small, r->op_id, r->op_type, "", r->total_ms, r->memcpy_ms, r->hard_ms,
                                                r->other_ms);
          c->start_ms = r->start_ms;
        }
      zw_profile_compute_totals (small);
      a.profile = small;
      zw_timing_state_init (&a.state);
      base_ms = median_draw (1920, 600, 9, draw_timing, &a);
      a.profile = p;
    }
    g_print ("timing view, 10,000-row profile (%.1f ms of run):\n", end);
    g_print ("  draw 1920x600, fitted:      %8.3f ms = %.2f of a 16.7 ms frame\n", fit_ms, fit_ms / FRAME_MS);
    g_print ("  draw 1920x600, zoomed 1 %%:  %8.3f ms = %.2f of a 16.7 ms frame\n", zoom_ms, zoom_ms / FRAME_MS);
    g_print ("  (the same view of 6 rows:   %8.3f ms = %.2f: text, ruler and summary)\n", base_ms, base_ms / FRAME_MS);
  }
  return 0;
}
