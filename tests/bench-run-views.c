/* bench-run-views — drawing cost of the tensor heatmap and the timing view, as a fraction of a
 * 16.7 ms frame (60 Hz). Prints figures; asserts nothing about time.
 *
 *  heatmap  a 1x8x176x320x32 int8 tensor (NCHWc32, 256 channels of 176x320, 14.4 M
 *           elements): statistics once (on selection), then the inspector's full drawing
 *           (256-cell heatmap grid, histogram, stats) at 1280x800.
 *  timing   the profile of the 10,000-op network (zw-netgen chain) run with merge off on the
 *           simulated board (a row per hardop), with its deploy report, drawn fitted
 *           and zoomed to 1 % at 1920x600. */
#include "netgen.h"
#include "report/zw-tensor-stats.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include <glib/gstdio.h>
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
  ZwDeployReport *report;
  ZwTimingState state;
  ZwViewStyle style;
} TimingArgs;

static void
draw_timing (cairo_t *cr, int w, int h, gpointer data)
{
  TimingArgs *a = data;
  zw_timing_view_draw (cr, w, h, a->profile, a->report, &a->state, &a->style);
}

/* The 10,000-op network (zw-netgen chain) run once with merge off on the simulated board:
 * its profile has a row per hardop. */
static XrtSession *
run_chain (GError **error)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-bench-run-views-XXXXXX", error);
  g_autofree char *json = NULL, *raw = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) sess = NULL;
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  g_autoptr (GPtrArray) outs = NULL;
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[2] = { NULL, NULL };
  ZwNetgenOptions opts;

  if (dir == NULL)
    return NULL;
  zw_netgen_options_init (&opts);
  opts.n_ops = 10000;
  if (!zw_netgen_write_network ("chain", &opts, dir, &json, &raw, error)
      || (net = xir_network_new_from_json_file (json, error)) == NULL
      || !xir_network_load_params_from_file (net, raw, error)
      || (dev = xrt_device_open ("mock://zg330", error)) == NULL
      || (view = xir_network_view (net, 0, G_MAXINT, error)) == NULL)
    return NULL;
  g_unlink (json);
  g_unlink (raw);
  g_rmdir (dir);
  devs[0] = dev;
  sess = xrt_session_new (view, types, devs, 2, error);
  if (sess == NULL || !zg330_backend_disable_merge_hardop (ZG330_BACKEND (xrt_session_get_board_backend (sess)), error)
      || !xrt_session_apply (sess, error))
    return NULL;
  for (guint k = 0; k < xir_network_get_inputs (net)->len; k++)
    g_ptr_array_add (inputs, xrt_tensor_new_host (net, g_ptr_array_index (xir_network_get_inputs (net), k), NULL, 0,
                                                  NULL));
  xrt_session_enable_time_profile (sess, TRUE);
  outs = xrt_session_forward (sess, inputs, error);
  return outs != NULL ? g_steal_pointer (&sess) : NULL;
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
    g_autoptr (XrtSession) sess = run_chain (&error);
    g_autoptr (ZwDeployReport) report = NULL;
    const ZwProfile *p;
    double fit_ms, zoom_ms, end, base_ms;
    TimingArgs a;

    if (sess == NULL)
      {
        g_printerr ("bench-run-views: the 10,000-op network: %s\n", error->message);
        return 1;
      }
    p = xrt_session_get_time_profile (sess);
    report = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (sess)));
    end = zw_timing_layout (p, NULL);
    a.profile = p;
    a.report = report;
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
      a.report = NULL;
      zw_timing_state_init (&a.state);
      base_ms = median_draw (1920, 600, 9, draw_timing, &a);
      a.profile = p;
    }
    g_print ("timing view of the 10,000-op network run with merge off: %u rows (%.1f ms of run), with its deploy report:\n",
             p->rows->len, end);
    g_print ("  draw 1920x600, fitted:      %8.3f ms = %.2f of a 16.7 ms frame\n", fit_ms, fit_ms / FRAME_MS);
    g_print ("  draw 1920x600, zoomed 1 %%:  %8.3f ms = %.2f of a 16.7 ms frame\n", zoom_ms, zoom_ms / FRAME_MS);
    g_print ("  (the same view of 6 rows:   %8.3f ms = %.2f: text, ruler and summary)\n", base_ms, base_ms / FRAME_MS);
  }
  return 0;
}
