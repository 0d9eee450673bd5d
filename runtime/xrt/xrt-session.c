/* xrt-session.c — Session: creation and binding (each op to the first backend of the list
 * that takes it), references, accessors, sub, fork, and the public entry points of apply,
 * forward and stepTo (argument checks and the one-call-at-a-time guard).
 *
 * The session drives its backends through the Backend interface (xrt-backend.h) only.
 * Where values live during a forward: a value produced by a board backend stays on the
 * board (ETM or OCM, where the plan put it) and is read back only when a host op or the
 * caller needs it; a value produced on the host is written to the board (its INPUT place)
 * only when a launch needs it. Copies between host and board are the "memcpy" time, timed
 * by the board backend (its device profile's ETM bandwidth), except for a value connected
 * to another network on the board (xrt_backend_value_is_connected: no host transfer carries
 * it; a staged connection's ETM copies are the launch's own memcpy). A view's output that
 * no host op of the view reads (a view cut before the Output op) is read back for the
 * caller: charged to the launch that wrote it, as the Output op's read back is to the
 * Output op; hardops' time is the board's
 * timer; host ops' time is the host backend's cost model of the board's host CPU and IP,
 * so a simulated profile is the same on every run. The dev host's measured time of a host
 * op is kept beside it (host_measured_ms), never added in.
 *
 * The rest of the session: xrt-session-forward.c (the steps, apply, forward),
 * xrt-session-values.c (host <-> board), xrt-session-step.c (stepTo),
 * xrt-session-dump.c (logs, dumps), xrt-session-snapshot.c.
 */
#include "xrt/xrt-session-private.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK (xrt-session-error-quark, xrt_session_error)

void
xrt_session_forward_clear (gpointer p)
{
  XrtForward *f = p;
  g_clear_pointer (&f->merge_from, g_array_unref);
  g_clear_pointer (&f->input_ids, g_array_unref);
  g_clear_pointer (&f->output_ids, g_array_unref);
}

static XrtSession *
session_alloc (XirNetworkView *view)
{
  XrtSession *s = g_new0 (XrtSession, 1);

  s->ref_count = 1;
  s->view = xir_network_view_ref (view);
  s->net = xir_network_ref (xir_network_view_get_network (view));
  s->forwards = g_array_new (FALSE, TRUE, sizeof (XrtForward));
  g_array_set_clear_func (s->forwards, xrt_session_forward_clear);
  s->op_backend = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  s->host_values = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) xrt_tensor_unref);
  s->on_device = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  s->log_stream = stderr;
  s->part_op = G_MAXUINT;
  s->in_place = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  s->backends = g_ptr_array_new_with_free_func (g_object_unref);
  return s;
}

static void
set_op_backend (XrtSession *s, gint64 op_id, XrtBackend *backend)
{
  gint64 *key = g_new (gint64, 1);
  *key = op_id;
  g_hash_table_replace (s->op_backend, key, backend);
}

/* Each op to the first backend of the list that takes it. */
static gboolean
bind_ops (XrtSession *s, GError **error)
{
  for (guint i = 0; i < xir_network_view_get_n_ops (s->view); i++)
    {
      XirOp *op = xir_network_view_get_op (s->view, i);
      gboolean bound = FALSE;

      for (guint k = 0; k < s->backends->len && !bound; k++)
        {
          XrtBackend *b = g_ptr_array_index (s->backends, k);
          if (xrt_backend_owns_op (b, op->op_id))
            {
              set_op_backend (s, op->op_id, b);
              bound = TRUE;
            }
        }
      if (!bound)
        {
          g_autofree char *what = xir_op_describe (op);
          g_auto (GStrv) known = xrt_backend_list ();
          g_autofree char *list = g_strjoinv (", ", known);
          GType fit = xrt_backend_find_for_op (op);
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_UNSUPPORTED_OP,
                       "%s: op %" G_GINT64_FORMAT " (%s, compile target %s): no backend of the session supports it%s%s%s "
                       "(this build has %s)", xir_network_get_path (s->net), op->op_id, what, op->target.text,
                       fit != G_TYPE_INVALID ? "; the " : "",
                       fit != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (fit))->name : "",
                       fit != G_TYPE_INVALID ? " takes it" : "", list);
          return FALSE;
        }
    }
  return TRUE;
}

static void
add_backend (XrtSession *s, XrtBackend *b)
{
  g_ptr_array_add (s->backends, g_object_ref (b));
  if (s->board == NULL && xrt_backend_runs_on_board (b))
    {
      s->board = b;
      if (s->device == NULL && xrt_backend_get_device (b) != NULL)
        s->device = xrt_device_ref (xrt_backend_get_device (b));
    }
}

static gboolean
view_has_op_of (XirNetworkView *view, GType type)
{
  for (guint i = 0; i < xir_network_view_get_n_ops (view); i++)
    if (xrt_backend_class_supports_op (type, xir_network_view_get_op (view, i)))
      return TRUE;
  return FALSE;
}

XrtSession *
xrt_session_new (XirNetworkView *view, const char *const *names, XrtDevice *const *devices, guint n, GError **error)
{
  g_autoptr (XrtSession) s = NULL;
  XrtDevice *board_device = NULL;

  CHECK_ARG (view != NULL, "view", NULL);
  CHECK_ARG (names != NULL, "backends", NULL);
  CHECK_ARG (n > 0, "n_backends", NULL);
  s = session_alloc (view);
  /* the board: the first device given (a host backend's cost model reads its profile) */
  for (guint k = 0; k < n && board_device == NULL; k++)
    board_device = devices ? devices[k] : NULL;
  for (guint k = 0; k < n; k++)
    {
      GType type = xrt_backend_lookup (names[k]);
      XrtBackendClass *klass;
      g_autoptr (XrtBackend) b = NULL;
      XrtDevice *dev = devices ? devices[k] : NULL;

      if (type == G_TYPE_INVALID)
        {
          g_auto (GStrv) known = xrt_backend_list ();
          g_autofree char *list = g_strjoinv (", ", known);
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT,
                       "backends[%u]: no backend called \"%s\" (this build has %s)", k, names[k] ? names[k] : "(null)",
                       list);
          return NULL;
        }
      klass = g_type_class_peek (type);
      if (klass->runs_on_board)
        {
          if (!view_has_op_of (view, type))
            continue;   /* nothing of this view for it (e.g. a sub-view of host ops) */
          if (dev == NULL)
            {
              g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS, "the %s needs a device (devices[%u] is NULL)",
                           klass->name, k);
              return NULL;
            }
        }
      else if (dev == NULL)
        dev = board_device;
      b = xrt_backend_new_of_type (type, view, dev, error);
      if (b == NULL)
        return NULL;
      add_backend (s, b);
    }
  if (!bind_ops (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

XrtSession *
xrt_session_new_for_device (XirNetworkView *view, XrtDevice *device, GError **error)
{
  const char *names[2] = { NULL, "HostBackend" };
  XrtDevice *devices[2] = { device, NULL };
  GType board;

  CHECK_ARG (view != NULL, "view", NULL);
  board = xrt_backend_find_for_view (view);
  if (board == G_TYPE_INVALID)
    return xrt_session_new (view, names + 1, devices, 1, error);
  names[0] = ((XrtBackendClass *) g_type_class_peek (board))->name;
  return xrt_session_new (view, names, devices, 2, error);
}

/* A backend initialised on @a serves a session of @b: the same ops of the same network. */
static gboolean
same_view (XirNetworkView *a, XirNetworkView *b)
{
  return a == b
         || (xir_network_view_get_network (a) == xir_network_view_get_network (b)
             && xir_network_view_get_start (a) == xir_network_view_get_start (b)
             && xir_network_view_get_n_ops (a) == xir_network_view_get_n_ops (b));
}

XrtSession *
xrt_session_new_with_backend (XirNetworkView *view, XrtBackend *backend, GError **error)
{
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (XrtBackend) host = NULL;

  CHECK_ARG (view != NULL, "view", NULL);
  CHECK_ARG (XRT_IS_BACKEND (backend) && xrt_backend_runs_on_board (backend), "backend", NULL);
  CHECK_ARG (same_view (xrt_backend_get_view (backend), view), "backend", NULL);
  s = session_alloc (view);
  add_backend (s, backend);
  host = xrt_backend_new ("HostBackend", view, s->device, error);
  if (host == NULL)
    return NULL;
  add_backend (s, host);
  if (!bind_ops (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

XrtSession *
xrt_session_new_with_backends (XirNetworkView *view, XrtBackend *const *backends, guint n, GError **error)
{
  g_autoptr (XrtSession) s = NULL;
  XirNetwork *net;

  CHECK_ARG (view != NULL, "view", NULL);
  CHECK_ARG (backends != NULL && n > 0, "backends", NULL);
  net = xir_network_view_get_network (view);
  for (guint k = 0; k < n; k++)
    {
      XirNetworkView *bv;

      if (!XRT_IS_BACKEND (backends[k]))
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT,
                       "backends[%u]: not a backend", k);
          return NULL;
        }
      bv = xrt_backend_get_view (backends[k]);
      if (bv == NULL || xir_network_view_get_network (bv) != net)
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT,
                       "backends[%u]: the %s was %s (init it with a view of %s)", k,
                       xrt_backend_get_name (backends[k]), bv == NULL ? "never initialised" : "initialised on another network",
                       xir_network_get_path (net));
          return NULL;
        }
      for (guint j = 0; j < k; j++)
        if (backends[j] == backends[k])
          {
            g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT,
                         "backends[%u]: the %s is given twice (also backends[%u])", k, xrt_backend_get_name (backends[k]), j);
            return NULL;
          }
    }
  s = session_alloc (view);
  for (guint k = 0; k < n; k++)
    add_backend (s, backends[k]);
  if (!bind_ops (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

XrtSession *
xrt_session_ref (XrtSession *s)
{
  g_atomic_int_inc (&s->ref_count);
  return s;
}

void
xrt_session_unref (XrtSession *s)
{
  if (s == NULL || !g_atomic_int_dec_and_test (&s->ref_count))
    return;
  xrt_session_set_pre_callback_full (s, NULL, NULL, NULL);
  xrt_session_set_post_callback_full (s, NULL, NULL, NULL);
  g_ptr_array_unref (s->backends);
  g_clear_pointer (&s->device, xrt_device_unref);
  g_array_unref (s->forwards);
  g_hash_table_unref (s->op_backend);
  g_hash_table_unref (s->host_values);
  g_hash_table_unref (s->on_device);
  g_hash_table_unref (s->in_place);
  g_clear_pointer (&s->pending_inputs, g_ptr_array_unref);
  g_free (s->dump_dir);
  g_free (s->dump_format);
  g_clear_pointer (&s->dump_only, g_hash_table_unref);
  g_clear_pointer (&s->manifest, zw_dump_manifest_free);
  g_clear_pointer (&s->profile, zw_profile_free);
  xir_network_unref (s->net);
  xir_network_view_unref (s->view);
  g_free (s);
}

XirNetworkView *xrt_session_get_view (XrtSession *s) { return s->view; }
XirNetwork *xrt_session_get_network (XrtSession *s) { return s->net; }
XrtBackend *xrt_session_get_board_backend (XrtSession *s) { return s->board; }
GPtrArray *xrt_session_get_backends (XrtSession *s) { return s->backends; }
gboolean xrt_session_is_applied (XrtSession *s) { return s->applied; }
GArray *xrt_session_get_forwards (XrtSession *s) { return s->forwards; }
double xrt_session_get_total_time (XrtSession *s) { return s->total_ms; }
const ZwProfile *xrt_session_get_time_profile (XrtSession *s) { return s->profile; }
void xrt_session_set_log_io (XrtSession *s, gboolean flag) { s->log_io = flag; }
void xrt_session_set_log_time (XrtSession *s, gboolean flag) { s->log_time = flag; }
void xrt_session_set_log_stream (XrtSession *s, FILE *stream) { s->log_stream = stream ? stream : stderr; }
void xrt_session_enable_time_profile (XrtSession *s, gboolean enable) { s->profile_on = enable; }

void
xrt_session_set_pre_callback (XrtSession *s, XrtSessionCallback func, gpointer data)
{
  xrt_session_set_pre_callback_full (s, func, data, NULL);
}

void
xrt_session_set_post_callback (XrtSession *s, XrtSessionCallback func, gpointer data)
{
  xrt_session_set_post_callback_full (s, func, data, NULL);
}

XrtBackend *
xrt_session_get_op_backend (XrtSession *s, gint64 op_id)
{
  return g_hash_table_lookup (s->op_backend, &op_id);
}

XrtSession *
xrt_session_sub (XrtSession *s, gint start, gint end, GError **error)
{
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtSession) sub = NULL;
  guint base;
  gint n;

  CHECK_ARG (s != NULL, "session", NULL);
  base = xir_network_view_get_start (s->view);
  n = (gint) xir_network_view_get_n_ops (s->view);
  if (!xrt_session_check_applied (s, "sub", error))
    return NULL;
  if (end == G_MAXINT)
    end = n;
  if (start < 0)
    start += n;
  if (end < 0)
    end += n;
  view = xir_network_view (s->net, (gint) base + start, (gint) base + end, error);
  if (view == NULL)
    return NULL;
  sub = session_alloc (view);
  if (s->device)
    sub->device = xrt_device_ref (s->device);
  for (guint k = 0; k < s->backends->len; k++)
    add_backend (sub, g_ptr_array_index (s->backends, k));
  {
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init (&it, s->op_backend);
    while (g_hash_table_iter_next (&it, &k, &v))
      set_op_backend (sub, *(gint64 *) k, v);
  }
  if (!xrt_session_build_forwards (sub, error))
    return NULL;
  sub->applied = TRUE;
  return g_steal_pointer (&sub);
}

/* ---- fork ------------------------------------------------------------------------------ */

XrtSession *
xrt_session_fork (XrtSession *s, GError **error)
{
  g_autoptr (XrtSession) child = NULL;

  CHECK_ARG (s != NULL, "session", NULL);
  child = session_alloc (s->view);
  if (s->device)
    child->device = xrt_device_ref (s->device);
  for (guint k = 0; k < s->backends->len; k++)
    {
      g_autoptr (XrtBackend) b = xrt_backend_fork (g_ptr_array_index (s->backends, k), error);
      if (b == NULL)
        return NULL;
      add_backend (child, b);
    }
  if (!bind_ops (child, error))
    return NULL;
  child->profile_on = s->profile_on;
  if (s->applied && !xrt_session_apply (child, error))
    return NULL;
  return g_steal_pointer (&child);
}

/* ---- entry points: argument checks and the one-call-at-a-time guard ------------------- */

/* A session's forward state (position, host copies, FTMP) belongs to one call at a time:
 * a second thread entering while a call runs gets XRT_SESSION_ERROR_BUSY, never a mix of
 * two forwards. */
static gboolean
session_enter (XrtSession *s, const char *call, GError **error)
{
  if (g_atomic_int_compare_and_exchange (&s->busy, 0, 1))
    return TRUE;
  g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_BUSY,
               "%s: the session of %s is running a call in another thread: a session is used by one thread at "
               "a time (xrt_session_fork gives each thread its own)", call, xir_network_get_path (s->net));
  return FALSE;
}

static void
session_leave (XrtSession *s)
{
  g_atomic_int_set (&s->busy, 0);
}

/* inputs (and outputs) hold tensors: no NULL element */
static gboolean
tensors_ok (GPtrArray *tensors)
{
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    if (g_ptr_array_index (tensors, i) == NULL)
      return FALSE;
  return TRUE;
}

gboolean
xrt_session_apply (XrtSession *s, GError **error)
{
  gboolean ok;

  CHECK_ARG (s != NULL, "session", FALSE);
  if (!session_enter (s, "apply", error))
    return FALSE;
  ok = xrt_session_apply_unguarded (s, error);
  session_leave (s);
  return ok;
}

GPtrArray *
xrt_session_forward (XrtSession *s, GPtrArray *inputs, GError **error)
{
  GPtrArray *outs;

  CHECK_ARG (s != NULL, "session", NULL);
  CHECK_ARG (tensors_ok (inputs), "inputs", NULL);
  if (!session_enter (s, "forward", error))
    return NULL;
  outs = xrt_session_forward_unguarded (s, inputs, error);
  session_leave (s);
  return outs;
}

gboolean
xrt_session_forward_into (XrtSession *s, GPtrArray *inputs, GPtrArray *outputs, GError **error)
{
  gboolean ok;

  CHECK_ARG (s != NULL, "session", FALSE);
  CHECK_ARG (tensors_ok (inputs), "inputs", FALSE);
  CHECK_ARG (outputs != NULL && tensors_ok (outputs), "outputs", FALSE);
  if (!session_enter (s, "forward", error))
    return FALSE;
  ok = xrt_session_forward_into_unguarded (s, inputs, outputs, error);
  session_leave (s);
  return ok;
}

GPtrArray *
xrt_session_step_to (XrtSession *s, gint64 op_id, GPtrArray *inputs, GError **error)
{
  GPtrArray *outs;

  CHECK_ARG (s != NULL, "session", NULL);
  CHECK_ARG (tensors_ok (inputs), "inputs", NULL);
  if (!session_enter (s, "stepTo", error))
    return NULL;
  outs = xrt_session_step_to_unguarded (s, op_id, inputs, error);
  session_leave (s);
  return outs;
}

GPtrArray *
xrt_session_forward_step (XrtSession *s, guint index, GPtrArray *inputs, GError **error)
{
  GPtrArray *outs;

  CHECK_ARG (s != NULL, "session", NULL);
  CHECK_ARG (tensors_ok (inputs), "inputs", NULL);
  if (!session_enter (s, "getForwards' forward function", error))
    return NULL;
  outs = xrt_session_forward_step_unguarded (s, index, inputs, error);
  session_leave (s);
  return outs;
}

G_DEFINE_BOXED_TYPE (XrtSession, xrt_session, (GBoxedCopyFunc) xrt_session_ref, (GBoxedFreeFunc) xrt_session_unref)

guint
xrt_session_get_n_forwards (XrtSession *s)
{
  g_return_val_if_fail (s != NULL, 0);
  return s->forwards->len;
}

const XrtForward *
xrt_session_get_forward (XrtSession *s, guint index)
{
  g_return_val_if_fail (s != NULL, NULL);
  return index < s->forwards->len ? &g_array_index (s->forwards, XrtForward, index) : NULL;
}

static const gint64 *
ids_of (GArray *a, guint *n)
{
  *n = a ? a->len : 0;
  return a ? (const gint64 *) a->data : NULL;
}

const gint64 *xrt_forward_get_merge_from (const XrtForward *f, guint *n) { return ids_of (f->merge_from, n); }
const gint64 *xrt_forward_get_input_ids (const XrtForward *f, guint *n) { return ids_of (f->input_ids, n); }
const gint64 *xrt_forward_get_output_ids (const XrtForward *f, guint *n) { return ids_of (f->output_ids, n); }

void
xrt_session_set_pre_callback_full (XrtSession *s, XrtSessionCallback func, gpointer data, GDestroyNotify destroy)
{
  g_return_if_fail (s != NULL);
  if (s->pre_destroy != NULL)
    s->pre_destroy (s->pre_data);
  s->pre_cb = func;
  s->pre_data = data;
  s->pre_destroy = destroy;
}

void
xrt_session_set_post_callback_full (XrtSession *s, XrtSessionCallback func, gpointer data, GDestroyNotify destroy)
{
  g_return_if_fail (s != NULL);
  if (s->post_destroy != NULL)
    s->post_destroy (s->post_data);
  s->post_cb = func;
  s->post_data = data;
  s->post_destroy = destroy;
}
