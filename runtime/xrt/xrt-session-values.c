/* xrt-session-values.c — where a value is during a forward: the caller's inputs, host
 * copies, places on the board; the copies between host and board and their time.
 */
#include "xrt/xrt-session-private.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* ---- moving values ------------------------------------------------------------------ */

/* Host <-> board copies: timed by the board backend (its device's bandwidth). A value
 * connected to another network on the board (userConnectNetwork) passes no host transfer:
 * its bytes are already where the board reads them (the session still moves them, so the
 * simulated outputs are the same bytes with or without the connection). */
static double
copy_ms (XrtSession *s, XrtBackend *owner, const XirValue *v)
{
  if (s->board == NULL || (owner != NULL && xrt_backend_value_is_connected (owner, v->v_id)))
    return 0;
  return xrt_backend_copy_ms (s->board, v->storage_bytes);
}

/* As a forward begins: each host backend learns which values of its ops a connection
 * carries on the board (the board backend that places a value says whether it is
 * connected), so the host backend's cost model charges no host copy of their bytes to an
 * Input or Output op (its fixed cost remains), as copy_ms charges them no transfer. The
 * session knows the board backends; the host backend owns the cost model. */
void
xrt_session_tell_connected_values (XrtSession *s)
{
  guint start = xir_network_view_get_start (s->view);
  guint end = start + xir_network_view_get_n_ops (s->view);

  for (guint k = 0; k < s->backends->len; k++)
    {
      XrtBackend *b = g_ptr_array_index (s->backends, k);
      g_autoptr (GArray) ids = NULL;

      if (xrt_backend_runs_on_board (b))
        continue;
      ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint i = start; s->board != NULL && i < end; i++)
        {
          const XirOp *op = xir_network_get_op (s->net, i);
          if (xrt_session_get_op_backend (s, op->op_id) != b)
            continue;
          for (guint side = 0; side < 2; side++)
            {
              GPtrArray *values = side == 0 ? op->inputs : op->outputs;
              for (guint j = 0; j < values->len; j++)
                {
                  gint64 v_id = ((const XirValue *) g_ptr_array_index (values, j))->v_id;
                  XrtMemRegion *region;
                  XrtBackend *owner = NULL;
                  guint64 addr;
                  if (xrt_session_device_place_of (s, v_id, &region, &addr, &owner)
                      && xrt_backend_value_is_connected (owner, v_id))
                    g_array_append_val (ids, v_id);
                }
            }
        }
      xrt_backend_set_connected_values (b, (const gint64 *) ids->data, ids->len);
    }
}

/* Where a board backend put @v_id; the region by name on that backend's device. */
gboolean
xrt_session_device_place_of (XrtSession *s, gint64 v_id, XrtMemRegion **region, guint64 *addr, XrtBackend **owner)
{
  for (guint k = 0; k < s->backends->len; k++)
    {
      XrtBackend *b = g_ptr_array_index (s->backends, k);
      const char *name;
      if (!xrt_backend_runs_on_board (b) || !xrt_backend_get_value_place (b, v_id, &name, addr))
        continue;
      *region = xrt_device_get_mem_region (xrt_backend_get_device (b), name, NULL);
      if (owner)
        *owner = b;
      return *region != NULL;
    }
  return FALSE;
}

/* The input tensor for @v: the one typed as @v, else the one at @v's position among the
 * view's inputs (the order of xir_network_view_get_inputs), else the next unused one. */
static XrtTensor *
take_input (XrtSession *s, const XirValue *v, GError **error)
{
  GPtrArray *wanted = xir_network_view_get_inputs (s->view);
  XrtTensor *t = NULL;
  guint pos;

  for (guint k = 0; s->pending_inputs && k < s->pending_inputs->len && t == NULL; k++)
    if (xrt_tensor_get_value (g_ptr_array_index (s->pending_inputs, k)) == v)
      t = g_ptr_array_index (s->pending_inputs, k);
  if (t == NULL && g_ptr_array_find (wanted, v, &pos) && s->pending_inputs && pos < s->pending_inputs->len)
    t = g_ptr_array_index (s->pending_inputs, pos);
  if (t == NULL && s->pending_inputs && s->next_input < s->pending_inputs->len)
    t = g_ptr_array_index (s->pending_inputs, s->next_input);
  if (t == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS,
                   "v_id %" G_GINT64_FORMAT " comes from outside the view but only %u input tensor(s) were given",
                   v->v_id, s->pending_inputs ? s->pending_inputs->len : 0);
      return NULL;
    }
  s->next_input++;
  if (xrt_tensor_get_size (t) != v->storage_bytes)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS,
                   "the input tensor for v_id %" G_GINT64_FORMAT " has %" G_GUINT64_FORMAT " bytes, the value needs %"
                   G_GUINT64_FORMAT, v->v_id, xrt_tensor_get_size (t), v->storage_bytes);
      return NULL;
    }
  return t;
}

/* A host copy of @v: produced on the host, taken from the inputs, or read from the board. */
XrtTensor *
xrt_session_host_value (XrtSession *s, const XirValue *v, double *memcpy_ms, GError **error)
{
  XrtTensor *t = g_hash_table_lookup (s->host_values, &v->v_id);
  XrtMemRegion *region;
  XrtBackend *owner = NULL;
  guint64 addr;
  gint64 *key;

  if (t != NULL)
    return t;
  if (g_hash_table_contains (s->on_device, &v->v_id) && xrt_session_device_place_of (s, v->v_id, &region, &addr, &owner))
    {
      g_autofree guint8 *buf = NULL;
      if (!xrt_backend_can_read_back (owner, xrt_mem_region_get_name (region)))
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP,
                       "v_id %" G_GINT64_FORMAT " lives in %s at 0x%" G_GINT64_MODIFIER "x, which the %s cannot read back "
                       "(its host reads ETM only)", v->v_id, xrt_mem_region_get_name (region), addr,
                       xrt_backend_get_name (owner));
          return NULL;
        }
      buf = g_malloc (MAX (v->storage_bytes, 1));
      if (!xrt_mem_region_read (region, addr, buf, v->storage_bytes, error))
        return NULL;
      t = xrt_tensor_new_host (s->net, v, buf, v->storage_bytes, error);
      if (memcpy_ms)
        *memcpy_ms += copy_ms (s, owner, v);
    }
  else
    {
      XrtTensor *in = take_input (s, v, error);
      g_autofree guint8 *buf = NULL;
      if (in == NULL)
        return NULL;
      buf = xrt_tensor_dup_bytes (in, error);
      t = buf ? xrt_tensor_new_host (s->net, v, buf, v->storage_bytes, error) : NULL;
    }
  if (t == NULL)
    return NULL;
  key = g_new (gint64, 1);
  *key = v->v_id;
  g_hash_table_replace (s->host_values, key, t);
  return t;
}

/* Before a launch: every value it reads from outside must be on the board. */
gboolean
xrt_session_ensure_on_device (XrtSession *s, const XrtForward *f, double *memcpy_ms, GError **error)
{
  for (guint k = 0; k < f->input_ids->len; k++)
    {
      gint64 v_id = g_array_index (f->input_ids, gint64, k);
      const XirValue *v = xir_network_get_value (s->net, v_id);
      XrtTensor *t;
      XrtMemRegion *region;
      XrtBackend *owner = NULL;
      guint64 addr;
      g_autofree guint8 *buf = NULL;
      gint64 *key;

      if (g_hash_table_contains (s->on_device, &v_id))
        continue;
      if (!xrt_session_device_place_of (s, v_id, &region, &addr, &owner))
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP,
                       "launch %" G_GINT64_FORMAT ": v_id %" G_GINT64_FORMAT " has no place on the board", f->op_id, v_id);
          return FALSE;
        }
      t = xrt_session_host_value (s, v, NULL, error);
      if (t == NULL || (buf = xrt_tensor_dup_bytes (t, error)) == NULL
          || !xrt_mem_region_write (region, addr, buf, v->storage_bytes, error))
        return FALSE;
      *memcpy_ms += copy_ms (s, owner, v);
      key = g_new (gint64, 1);
      *key = v_id;
      g_hash_table_add (s->on_device, key);
    }
  return TRUE;
}

/* After launch @f: the view's outputs it wrote that no host op of the view reads leave the board
 * for the caller (a view cut before its network's Output op, e.g. a pipeline's upstream
 * network): their transfer to the host, charged to the launch as an Output op's read back
 * would be to the Output op. None for a value the caller's tensor took in place
 * (forward_into) or a connection carries to the next network on the board. */
double
xrt_session_leaving_ms (XrtSession *s, const XrtForward *f)
{
  GPtrArray *outs = xir_network_view_get_outputs (s->view);
  guint start = xir_network_view_get_start (s->view);
  guint end = start + xir_network_view_get_n_ops (s->view);
  double ms = 0;

  for (guint k = 0; k < f->output_ids->len; k++)
    {
      gint64 v_id = g_array_index (f->output_ids, gint64, k);
      const XirValue *v = xir_network_get_value (s->net, v_id);
      XrtMemRegion *region;
      XrtBackend *owner = NULL;
      guint64 addr;
      gboolean read_inside = FALSE;

      if (v == NULL || !g_ptr_array_find (outs, v, NULL) || g_hash_table_contains (s->in_place, &v_id)
          || !xrt_session_device_place_of (s, v_id, &region, &addr, &owner))
        continue;
      /* a host op of the view (its Output op) reads it back itself, and is charged there */
      for (guint u = 0; u < v->consumers->len && !read_inside; u++)
        {
          guint c = g_array_index (v->consumers, guint, u);
          XrtBackend *b = c >= start && c < end ? xrt_session_get_op_backend (s, xir_network_get_op (s->net, c)->op_id) : NULL;
          read_inside = b != NULL && !xrt_backend_runs_on_board (b);
        }
      if (!read_inside)
        ms += copy_ms (s, owner, v);
    }
  return ms;
}
