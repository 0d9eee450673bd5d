/* test-run-views-tensors.c — dumped tensors drawn offscreen (suite render, no display): the
 * tensor inspector on an OCM-resident value of the real sample (heatmap and statistics,
 * quantised and as floats), and Dump Diff finding a byte planted in a copy of a dump, its
 * value and coordinates highlighted in the table and the heatmaps.
 *
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the rendered PNGs there for a look. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-dump-diff.h"
#include "report/zw-tensor-stats.h"
#include "zw-dump-diff-view.h"
#include "zw-tensor-view.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

typedef struct {
  const ZwTensor *tensor;
  const ZwTensorStats *stats;
  ZwTensorViewState state;
} TensorArgs;

static void
draw_tensor (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  TensorArgs *a = data;
  zw_tensor_view_draw (cr, w, h, a->tensor, a->stats, &a->state, style);
}

static void
test_tensor_ocm_value (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autoptr (ZwDumpFolder) folder = NULL;
  g_autoptr (ZwTensor) tensor = NULL;
  g_autoptr (ZwTensorStats) stats = NULL;
  g_autofree char *bytes = NULL;
  const ZwDumpManifestEntry *entry = NULL;
  const ZwDumpData *data = NULL;
  TensorArgs a;
  ZwTestForward r;
  gsize len;
  gint64 C, Wd, Hd, qmin = 127, qmax = -128;
  guint64 zeros = 0;
  double sum = 0;
  cairo_surface_t *s;
  const int W = 1000, H = 760;

  if (net == NULL)
    {
      g_test_skip ("the real sample (../shared/real) is absent");
      return;
    }
  dir = zw_test_tmp_dir_new ("run-views-tensor-XXXXXX");
  r = zw_test_forward (net, FALSE, dir, "SQB");
  folder = zw_dump_folder_load (dir, net, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (folder->warnings->len, ==, 0);
  /* an OCM-resident 4-D-or-more feature map with several channels */
  for (guint i = 0; i < folder->manifest->entries->len && entry == NULL; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (folder->manifest->entries, i);
      if (e->memory == ZW_DUMP_MEMORY_OCM && e->type.quantized && e->type.rank == 5 && e->type.shape[1] >= 2)
        entry = e;
    }
  g_assert_nonnull (entry);
  for (guint i = 0; i < folder->values->len; i++)
    if (((ZwDumpData *) g_ptr_array_index (folder->values, i))->v_id == entry->type.v_id)
      data = g_ptr_array_index (folder->values, i);
  g_assert_nonnull (data);
  g_assert_true (zw_deploy_report_find_value (r.report, entry->type.v_id)->is_ocm);

  tensor = zw_tensor_new_from_folder (folder, data, net, &error);
  g_assert_no_error (error);
  stats = zw_tensor_stats_compute (tensor, 64);

  /* the statistics against the file's own bytes (SQB: int8, NHWC, the real channels) */
  {
    g_autofree char *file = g_build_filename (dir, entry->file, NULL);
    g_assert_true (g_file_get_contents (file, &bytes, &len, NULL));
  }
  g_assert_cmpuint (data->shape.rank, ==, 4);
  Hd = data->shape.shape[1];
  Wd = data->shape.shape[2];
  C = data->shape.shape[3];
  g_assert_cmpuint (len, ==, (gsize) (Hd * Wd * C));
  for (gsize k = 0; k < len; k++)
    {
      gint8 q = (gint8) bytes[k];
      qmin = MIN (qmin, q);
      qmax = MAX (qmax, q);
      zeros += q == 0;
      sum += (double) q * entry->type.scales[entry->type.n_scales == 1 ? 0 : k % C];
    }
  g_assert_cmpint (tensor->c, ==, C);
  g_assert_true (tensor->has_quantized);
  g_assert_cmpfloat (stats->q.min, ==, qmin);
  g_assert_cmpfloat (stats->q.max, ==, qmax);
  g_assert_cmpuint (stats->q.n_zero, ==, zeros);
  g_assert_cmpuint (stats->f.count, ==, len);
  g_assert_cmpfloat_with_epsilon (stats->f.mean, sum / len, 1e-5 * MAX (1.0, fabs (sum / len)));
  g_assert_cmpuint (stats->f.n_nan, ==, 0);
  g_assert_cmpfloat (qmax, >, qmin);

  /* the heatmap: every channel's cell drawn, each sampled pixel the colour of its element */
  zw_tensor_view_state_init (&a.state);
  a.tensor = tensor;
  a.stats = stats;
  a.state.title = "OCM value";
  for (int view = 0; view < 2; view++)   /* quantised, then float */
    {
      g_autoptr (GHashTable) colors = g_hash_table_new (NULL, NULL);
      const ZwStatsSummary *range = view == 0 ? &stats->q : &stats->f;
      guint checked = 0;

      a.state.quantized = view == 0;
      s = zw_test_render (W, H, draw_tensor, &a);
      zw_test_keep_png (s, view == 0 ? "tensor-ocm.png" : "tensor-ocm-float.png");
      for (gint64 c = 0; c < C; c += MAX (1, C / 7))
        {
          double rect[4];
          g_assert_true (zw_tensor_view_cell_rect (tensor, W, H, c, rect));
          for (gint64 y = 0; y < Hd; y += MAX (1, Hd / 5))
            for (gint64 x = 0; x < Wd; x += MAX (1, Wd / 5))
              {
                double scale = rect[2] / Wd, v;
                int px = (int) (rect[0] + (x + 0.5) * scale), py = (int) (rect[1] + (y + 0.5) * scale);
                gint64 coords[4];
                gint8 q;
                guint8 rgb[3];
                /* sample only where the pixel centre maps back to this element, away from
                 * the channel number in the cell's corner */
                if ((px - rect[0] < 30 && py - rect[1] < 16)
                    || !zw_tensor_view_coords_at (tensor, 0, W, H, px + 0.5, py + 0.5, coords) || coords[1] != c
                    || coords[2] != y || coords[3] != x)
                  continue;
                q = (gint8) bytes[(y * Wd + x) * C + c];
                v = view == 0 ? q : (double) ((float) q * entry->type.scales[entry->type.n_scales == 1 ? 0 : c]);
                zw_tensor_view_colormap ((v - range->min) / (range->max - range->min), rgb);
                g_assert_true (zw_test_near (zw_test_pixel (s, px, py), 0xff000000u | (rgb[0] << 16) | (rgb[1] << 8) | rgb[2], 2));
                g_hash_table_add (colors, GUINT_TO_POINTER (zw_test_pixel (s, px, py)));
                checked++;
              }
        }
      g_test_message ("v_id %" G_GINT64_FORMAT " (OCM, %" G_GINT64_FORMAT " channels of %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                      "), %s view: %u heatmap pixels checked, %u colours",
                      entry->type.v_id, C, Hd, Wd, view == 0 ? "quantised" : "float", checked,
                      g_hash_table_size (colors));
      g_assert_cmpuint (checked, >, 20);
      g_assert_cmpuint (g_hash_table_size (colors), >, 4);
      cairo_surface_destroy (s);
    }

  /* a file of the folder truncated: a message naming it, the others still load */
  {
    g_autofree char *file = g_build_filename (dir, entry->file, NULL);
    g_autoptr (ZwDumpFolder) bad = NULL;
    g_assert_true (g_file_set_contents (file, bytes, (gssize) len / 2, NULL));
    bad = zw_dump_folder_load (dir, net, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (bad->values->len, ==, folder->values->len - 1);
    g_assert_cmpuint (bad->warnings->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (bad->warnings, 0), entry->file));
  }
  zw_test_forward_clear (&r);
}

typedef struct {
  const ZwDumpDiff *diff;
  gint64 selected;
} DiffArgs;

static void
draw_diff (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  DiffArgs *a = data;
  zw_dump_diff_view_draw (cr, w, h, a->diff, a->selected, style);
}

static void
draw_heatmaps (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  zw_dump_diff_view_draw_heatmaps (cr, w, h, data, style);
}

/* Flips one byte of @v_id's SQB file at element @k; returns the element's (n, c, h, w). */
static void
plant (const char *dir, const ZwDumpData *data, gsize k, gint64 coords[4])
{
  g_autofree char *file = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", dir, data->v_id);
  g_autofree char *contents = NULL;
  gsize len;
  gint64 C = data->shape.shape[data->shape.rank - 1];
  gint64 Wd = data->shape.rank >= 3 ? data->shape.shape[data->shape.rank - 2] : 1;
  gint64 Hd = data->shape.rank >= 4 ? data->shape.shape[data->shape.rank - 3] : 1;

  g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
  g_assert_cmpuint (k, <, len);
  contents[k] ^= 0x10;
  g_assert_true (g_file_set_contents (file, contents, (gssize) len, NULL));
  coords[1] = (gint64) k % C;
  coords[3] = ((gint64) k / C) % Wd;
  coords[2] = ((gint64) k / (C * Wd)) % Hd;
  coords[0] = (gint64) k / (C * Wd * Hd);
}

static void
test_dump_diff_planted_byte (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) root = zw_test_tmp_dir_new ("run-views-diff-XXXXXX");
  g_autofree char *da = g_build_filename (root, "a", NULL), *db = g_build_filename (root, "b", NULL);
  g_autoptr (ZwDumpFolder) folder = NULL;
  g_autoptr (ZwDumpDiff) diff = NULL;
  const ZwDumpData *early = NULL, *late = NULL;
  gint early_index = G_MAXINT, late_index = -1;
  gint64 want[4], later[4];
  ZwTestForward r = zw_test_forward (net, FALSE, da, "SQB");
  DiffArgs a;
  cairo_surface_t *s;
  ZwViewStyle style;
  double y0, y1;
  int W = 1200, H;

  folder = zw_dump_folder_load (da, net, NULL, &error);
  g_assert_no_error (error);
  /* two int8 4-D values produced by hardops: one in the middle of the run, one later */
  for (guint i = 0; i < folder->values->len; i++)
    {
      const ZwDumpData *d = g_ptr_array_index (folder->values, i);
      const XirValue *v = xir_network_get_value (net, d->v_id);
      if (v == NULL || v->producer < 0 || d->shape.rank != 4 || d->shape.is_float || d->shape.shape[3] < 3
          || xir_network_get_op (net, (guint) v->producer)->kind != XIR_OP_HARDOP)
        continue;
      if (v->producer > (gint) xir_network_get_n_ops (net) / 3 && v->producer < early_index)
        {
          early = d;
          early_index = v->producer;
        }
      if (v->producer > late_index)
        {
          late = d;
          late_index = v->producer;
        }
    }
  g_assert_nonnull (early);
  g_assert_nonnull (late);
  g_assert_cmpint (early_index, <, late_index);
  zw_test_copy_folder (da, db);
  /* the later value planted first: the diff must still name the earlier one */
  plant (db, late, late->shape.n_elements / 2, later);
  plant (db, early, early->shape.n_elements / 3 + 5, want);

  diff = zw_dump_diff_folders (da, db, net, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (diff->n_diverged, ==, 2);
  g_assert_nonnull (diff->first);
  g_assert_cmpint (diff->first->v_id, ==, early->v_id);
  g_assert_cmpmem (diff->first->first_coords, sizeof want, want, sizeof want);
  g_assert_cmpuint (diff->first->n_differ, ==, 1);
  g_test_message ("planted at v_id %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                  ", %" G_GINT64_FORMAT ") and v_id %" G_GINT64_FORMAT ": first divergence found at v_id %" G_GINT64_FORMAT,
                  early->v_id, want[0], want[1], want[2], want[3], late->v_id, diff->first->v_id);

  /* the view highlights exactly that row, in the warning colour */
  a.diff = diff;
  a.selected = -1;
  H = zw_dump_diff_view_content_height (diff);
  s = zw_test_render (W, H, draw_diff, &a);
  zw_test_keep_png (s, "dump-diff.png");
  zw_view_style_init_default (&style);
  g_assert_true (zw_dump_diff_view_row_extent (diff, early->v_id, &y0, &y1));
  g_assert_cmpint (zw_dump_diff_view_value_at (diff, (y0 + y1) / 2), ==, early->v_id);
  {
    guint32 bg = zw_test_argb (&style.background);
    guint32 first_bg = zw_test_blend (&style.warning, 0.30, bg);
    int x = W - 20;   /* past the text of the last column */
    g_assert_true (zw_test_near (zw_test_pixel (s, x, (int) ((y0 + y1) / 2)), first_bg, 3));
    /* the later divergent row is not highlighted as the first */
    g_assert_true (zw_dump_diff_view_row_extent (diff, late->v_id, &y0, &y1));
    g_assert_false (zw_test_near (zw_test_pixel (s, x, (int) ((y0 + y1) / 2)), first_bg, 3));
  }
  cairo_surface_destroy (s);

  /* the row opens A, B and |A-B| heatmaps on its first differing coordinates: the planted
   * element is the one cell where A and B differ and the brightest of |A-B| */
  {
    g_autoptr (ZwDumpFolder) fa = zw_dump_folder_load (da, net, NULL, &error);
    g_autoptr (ZwDumpFolder) fb = zw_dump_folder_load (db, net, NULL, &error);
    g_autoptr (GPtrArray) ta = zw_dump_diff_load_side (fa, net, NULL);
    g_autoptr (GPtrArray) tb = zw_dump_diff_load_side (fb, net, NULL);
    ZwDumpDiffHeatmaps hm = { diff->first, NULL, NULL, da, db };
    guint8 hi_rgb[3], lo_rgb[3];
    double cell[4], other[4];
    int HW = 1200, HH = ZW_DUMP_DIFF_HEATMAPS_HEIGHT;
    gint64 nh, nw;

    for (guint i = 0; i < ta->len; i++)
      if (((ZwTensor *) g_ptr_array_index (ta, i))->v_id == early->v_id)
        hm.a = g_ptr_array_index (ta, i);
    for (guint i = 0; i < tb->len; i++)
      if (((ZwTensor *) g_ptr_array_index (tb, i))->v_id == early->v_id)
        hm.b = g_ptr_array_index (tb, i);
    g_assert_nonnull (hm.a);
    g_assert_nonnull (hm.b);
    s = zw_test_render (HW, HH, draw_heatmaps, &hm);
    zw_test_keep_png (s, "dump-diff-heatmaps.png");
    zw_tensor_view_colormap (1.0, hi_rgb);
    zw_tensor_view_colormap (0.0, lo_rgb);
    /* a neighbour of the planted element in the same channel, inside the window */
    nh = want[2];
    nw = want[3] > 0 ? want[3] - 1 : want[3] + 1;
    for (int k = 0; k < 3; k++)
      {
        g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, k, want[2], want[3], cell));
        g_assert_cmpfloat (cell[2], >=, 4);
        /* the three heatmaps side by side, in order */
        g_assert_cmpfloat (cell[0], >, k * (HW / 3.0) - 1);
        g_assert_cmpfloat (cell[0], <, (k + 1) * (HW / 3.0));
      }
    {
      guint32 at[3], next[3];
      for (int k = 0; k < 3; k++)
        {
          g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, k, want[2], want[3], cell));
          g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, k, nh, nw, other));
          at[k] = zw_test_pixel (s, (int) (cell[0] + cell[2] / 2), (int) (cell[1] + cell[3] / 2));
          next[k] = zw_test_pixel (s, (int) (other[0] + other[2] / 2), (int) (other[1] + other[3] / 2));
        }
      /* A and B differ at the planted element and agree beside it */
      g_assert_false (zw_test_near (at[0], at[1], 2));
      g_assert_true (zw_test_near (next[0], next[1], 0));
      /* |A-B|: top of the colour map there, bottom beside it */
      g_assert_true (zw_test_near (at[2], 0xff000000u | (guint32) hi_rgb[0] << 16 | (guint32) hi_rgb[1] << 8 | hi_rgb[2], 2));
      g_assert_true (zw_test_near (next[2], 0xff000000u | (guint32) lo_rgb[0] << 16 | (guint32) lo_rgb[1] << 8 | lo_rgb[2], 2));
    }
    /* the planted element is outlined in the warning colour just outside its cell */
    g_assert_true (zw_dump_diff_view_heatmap_cell (&hm, HW, HH, 2, want[2], want[3], cell));
    zw_view_style_init_default (&style);
    g_assert_true (zw_test_near (zw_test_pixel (s, (int) cell[0] - 1, (int) (cell[1] + cell[3] / 2)), zw_test_argb (&style.warning), 40));
    cairo_surface_destroy (s);
  }
  zw_test_forward_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-views/render/tensor/ocm-value-heatmap-and-stats", test_tensor_ocm_value);
  g_test_add_func ("/run-views/render/dump-diff/planted-byte-found-and-highlighted", test_dump_diff_planted_byte);
  return g_test_run ();
}
