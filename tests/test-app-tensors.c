/* test-app-tensors — the Tensors view as TensorBoard's debugger has it (suite "display",
 * issue 37): a colour bar from the view's min (bottom) to its max (top) beside the heatmap;
 * one channel drawn alone and large, and back to all; a search by v_id, op id and op class;
 * an op selected elsewhere shows its output when the dump holds it. */
#include <gtk/gtk.h>
#include <string.h>

/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include "zw-tensor-view-private.h"
#include "zw-view-style.h"

static ZwWindow *win;

static ZwTensorView *
tensors (void)
{
  return ZW_TENSOR_VIEW (zw_window_get_view (win, "tensors"));
}

static gboolean
tensor_loaded (gpointer data)
{
  (void) data;
  return zw_tensor_view_get_n_values (tensors ()) > 0 && !zw_window_get_busy (win);
}

/* The view's picture at @w x @h (as exported) in an ARGB image. */
static cairo_surface_t *
render (int w, int h)
{
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (img);
  ZwViewStyle style;

  zw_view_style_init_default (&style);
  zw_tensor_view_render (tensors (), cr, w, h, &style);
  cairo_destroy (cr);
  cairo_surface_flush (img);
  return img;
}

static void
pixel_rgb (cairo_surface_t *img, int x, int y, guint8 rgb[3])
{
  const guint32 *line =
      (const guint32 *) (cairo_image_surface_get_data (img) + (gsize) y * cairo_image_surface_get_stride (img));
  guint32 p = line[x];

  rgb[0] = (p >> 16) & 0xff;
  rgb[1] = (p >> 8) & 0xff;
  rgb[2] = p & 0xff;
}

static void
assert_near (const guint8 got[3], const guint8 want[3], const char *where)
{
  for (int k = 0; k < 3; k++)
    if (ABS ((int) got[k] - (int) want[k]) > 12)
      g_error ("%s: #%02x%02x%02x, not near #%02x%02x%02x", where, got[0], got[1], got[2], want[0], want[1], want[2]);
}

/* The colour bar: the colour map's top colour at the top of the bar, its bottom colour at
 * the bottom, beside a heatmap that did not grow over it. */
static void
test_colour_bar (void)
{
  const int W = 900, H = 640;
  const ZwTensor *t = zw_tensor_view_get_tensor (tensors ());
  cairo_surface_t *img;
  ZwTensorGrid g;
  guint8 top[3], bottom[3], want_top[3], want_bottom[3], grid_right[3];
  double x, y0, y1;

  g_assert_nonnull (t);
  g_assert_true (zw_tensor_grid_compute (t, -1, W, H, &g));
  g_assert_cmpfloat (g.x0 + g.w, <=, W - TENSOR_MARGIN - TENSOR_COLORBAR_W + 0.5);
  img = render (W, H);
  x = W - TENSOR_MARGIN - TENSOR_COLORBAR_W + 10 + TENSOR_COLORBAR_BAR / 2;
  y0 = g.y0 + 2;
  y1 = g.y0 + MIN (g.h, g.rows * g.cell_h - TENSOR_GAP) - 2;
  pixel_rgb (img, (int) x, (int) y0, top);
  pixel_rgb (img, (int) x, (int) y1, bottom);
  zw_tensor_view_colormap (1.0, want_top);
  zw_tensor_view_colormap (0.0, want_bottom);
  assert_near (top, want_top, "the colour bar's top (the max)");
  assert_near (bottom, want_bottom, "the colour bar's bottom (the min)");
  /* left of the bar's labels, right of the grid: the background, no heatmap */
  pixel_rgb (img, (int) (W - TENSOR_MARGIN - TENSOR_COLORBAR_W + 4), (int) y0, grid_right);
  g_assert_false (grid_right[0] == top[0] && grid_right[1] == top[1] && grid_right[2] == top[2]);
  cairo_surface_destroy (img);
}

/* One channel alone: the grid of one cell as large as the area allows, the element under a
 * point in that channel; "All Channels" (Escape's button) shows them all again. */
static void
test_single_channel_zoom (void)
{
  ZwTensorView *view = tensors ();
  const ZwTensor *t = zw_tensor_view_get_tensor (view);
  GtkWidget *button = NULL;
  ZwTensorGrid all, one;
  gint64 c;

  g_assert_nonnull (t);
  g_assert_cmpint (t->c, >, 1);
  c = t->c - 1;
  g_assert_cmpint (zw_tensor_view_get_zoom_channel (view), ==, -1);
  g_assert_false (zw_tensor_view_zoom_channel (view, t->c));
  g_assert_true (zw_tensor_view_zoom_channel (view, c));
  g_assert_cmpint (zw_tensor_view_get_zoom_channel (view), ==, c);
  g_assert_true (zw_tensor_grid_compute (t, -1, 900, 640, &all));
  g_assert_true (zw_tensor_grid_compute (t, c, 900, 640, &one));
  g_assert_cmpint (one.n_c, ==, 1);
  g_assert_cmpfloat (one.scale, >, 2 * all.scale);
  /* the button back is shown while zoomed; it is the way back */
  {
    GtkWidget *stack[64];
    int n = 0;
    stack[n++] = GTK_WIDGET (view);
    while (n > 0 && button == NULL)
      {
        GtkWidget *w = stack[--n];
        if (GTK_IS_BUTTON (w) && !GTK_IS_TOGGLE_BUTTON (w)
            && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (w)), g_dgettext ("zhuge-workbench", "All Channels")) == 0)
          button = w;
        for (GtkWidget *ch = gtk_widget_get_first_child (w); ch != NULL && n < 64; ch = gtk_widget_get_next_sibling (ch))
          stack[n++] = ch;
      }
  }
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpint (zw_tensor_view_get_zoom_channel (view), ==, -1);
  g_assert_false (gtk_widget_get_visible (button));
}

/* The search: a v_id, "op N", a part of the op's class; nothing for what no value has. */
static void
test_search (void)
{
  ZwTensorView *view = tensors ();
  XirNetwork *net = zw_run_controller_get_network (zw_window_get_run_controller (win));
  g_autofree char *v_text = NULL, *op_text = NULL;
  gint64 v = -1, op = -1, found;
  const char *klass = NULL;

  g_assert_nonnull (net);
  /* a value of the dump produced by a hardop with a class */
  for (guint i = 0; i < xir_network_get_n_ops (net) && v < 0; i++)
    {
      XirOp *o = xir_network_get_op (net, i);
      if (o->hard_class == NULL)
        continue;
      for (guint k = 0; k < o->outputs->len && v < 0; k++)
        {
          gint64 id = ((XirValue *) g_ptr_array_index (o->outputs, k))->v_id;
          if (zw_tensor_view_select_value (view, id))
            {
              v = id;
              op = o->op_id;
              klass = o->hard_class;
            }
        }
    }
  g_assert_cmpint (v, >=, 0);
  zw_tensor_view_select_value (view, -1);
  v_text = g_strdup_printf ("%li", (long) v);
  g_assert_cmpint (zw_tensor_view_find (view, v_text), ==, v);
  g_assert_cmpint (zw_tensor_view_get_selected_value (view), ==, v);
  zw_tensor_view_select_value (view, -1);
  op_text = g_strdup_printf ("op %li", (long) op);
  found = zw_tensor_view_find (view, op_text);
  g_assert_cmpint (found, >=, 0);
  g_assert_nonnull (zw_tensor_view_get_tensor (view));
  {
    g_autofree char *lower = g_ascii_strdown (klass, -1);
    found = zw_tensor_view_find (view, lower);
    g_assert_cmpint (found, >=, 0);
  }
  g_assert_cmpint (zw_tensor_view_find (view, "no-such-op-anywhere"), ==, -1);
  g_assert_cmpint (zw_tensor_view_find (view, "999999999"), ==, -1);
}

/* An op selected elsewhere (the Graph, Timing): the view shows that op's output. */
static void
test_follows_selected_op (void)
{
  ZwTensorView *view = tensors ();
  XirNetwork *net = zw_run_controller_get_network (zw_window_get_run_controller (win));
  ZwSelection *selection = zw_window_get_selection (win);
  gint64 first = zw_tensor_view_get_selected_value (view);
  gboolean moved = FALSE;

  /* the last op whose output the dump holds, other than the value shown */
  for (guint i = xir_network_get_n_ops (net); i-- > 0 && !moved;)
    {
      XirOp *o = xir_network_get_op (net, i);
      for (guint k = 0; k < o->outputs->len && !moved; k++)
        {
          gint64 id = ((XirValue *) g_ptr_array_index (o->outputs, k))->v_id;
          if (id == first || o->outputs->len != 1)
            continue;
          zw_selection_set_selected_op (selection, -1);
          zw_selection_set_selected_op (selection, o->op_id);
          if (zw_tensor_view_get_selected_value (view) == id)
            moved = TRUE;
          else if (zw_tensor_view_get_selected_value (view) != first)
            g_error ("op %li selected: the view shows v_id %li, not its output %li", (long) o->op_id,
                     (long) zw_tensor_view_get_selected_value (view), (long) id);
        }
    }
  g_assert_true (moved);
}

int
main (int argc, char *argv[])
{
  guint n;

  win = zw_test_app_start (&argc, &argv);
  gtk_window_present (GTK_WINDOW (win));
  zw_test_app_wait_for_run (1);
  n = zw_test_app_n_runs ();
  zw_test_app_activate ("win.dump-tensors", g_variant_new_string ("SFB"));
  zw_test_app_wait_for_run (n + 1);
  g_assert_true (zw_test_app_wait_for (tensor_loaded, NULL, 60));
  zw_test_app_activate ("win.view", g_variant_new_string ("tensors"));
  zw_test_app_run_for (200);

  g_test_add_func ("/app-tensors/colour-bar-min-bottom-max-top", test_colour_bar);
  g_test_add_func ("/app-tensors/single-channel-zoom-and-back", test_single_channel_zoom);
  g_test_add_func ("/app-tensors/search-by-v-id-op-and-class", test_search);
  g_test_add_func ("/app-tensors/follows-the-op-selected-elsewhere", test_follows_selected_op);

  return zw_test_app_run_and_close ();
}
