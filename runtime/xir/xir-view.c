/* xir-view.c — XirNetworkView: a range of a network's ops with the values that come into
 * it from outside and go out of it.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"

/* ---- views -------------------------------------------------------------------- */

struct _XirNetworkView {
  gint ref_count;
  XirNetwork *net;
  guint start;
  guint n_ops;
  GPtrArray *inputs;
  GPtrArray *outputs;
};

XirNetworkView *
xir_network_view (XirNetwork *net, gint start, gint end, GError **error)
{
  XirNetworkView *view;
  gint n;

  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, NULL);
  n = (gint) net->ops->len;
  if (end == G_MAXINT)
    end = n;
  if (start < 0)
    start += n;
  if (end < 0)
    end += n;
  if (start < 0 || end > n || start >= end)
    {
      xir_set_error (error, XIR_ERROR_RANGE, net->path,
                     "view(%d, %d): the range is empty or outside the network's %d ops", start, end, n);
      return NULL;
    }
  view = g_new0 (XirNetworkView, 1);
  view->ref_count = 1;
  view->net = xir_network_ref (net);
  view->start = (guint) start;
  view->n_ops = (guint) (end - start);
  view->inputs = g_ptr_array_new ();
  view->outputs = g_ptr_array_new ();
  for (gint i = start; i < end; i++)
    {
      XirOp *op = g_ptr_array_index (net->ops, i);

      for (guint k = 0; k < op->inputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->inputs, k);
          if (v->producer < start && !g_ptr_array_find (view->inputs, v, NULL))
            g_ptr_array_add (view->inputs, v);
        }
      if (op->kind == XIR_OP_INPUT)
        for (guint k = 0; k < op->outputs->len; k++)
          g_ptr_array_add (view->inputs, g_ptr_array_index (op->outputs, k));
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          if (v->last_use >= end || v->is_network_output)
            g_ptr_array_add (view->outputs, v);
        }
    }
  return view;
}

XirNetworkView *
xir_network_view_ref (XirNetworkView *view)
{
  g_atomic_int_inc (&view->ref_count);
  return view;
}

void
xir_network_view_unref (XirNetworkView *view)
{
  if (view == NULL || !g_atomic_int_dec_and_test (&view->ref_count))
    return;
  g_ptr_array_unref (view->inputs);
  g_ptr_array_unref (view->outputs);
  xir_network_unref (view->net);
  g_free (view);
}

XirNetwork *xir_network_view_get_network (const XirNetworkView *view) { return view->net; }
guint xir_network_view_get_start (const XirNetworkView *view) { return view->start; }
guint xir_network_view_get_n_ops (const XirNetworkView *view) { return view->n_ops; }
GPtrArray *xir_network_view_get_inputs (const XirNetworkView *view) { return view->inputs; }
GPtrArray *xir_network_view_get_outputs (const XirNetworkView *view) { return view->outputs; }

XirOp *
xir_network_view_get_op (const XirNetworkView *view, guint i)
{
  return i < view->n_ops ? g_ptr_array_index (view->net->ops, view->start + i) : NULL;
}

G_DEFINE_BOXED_TYPE (XirNetworkView, xir_network_view, (GBoxedCopyFunc) xir_network_view_ref, (GBoxedFreeFunc) xir_network_view_unref)
