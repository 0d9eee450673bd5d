/* xrt-session.c — Session: binding, forward, stepTo, sub, logs, dumps, profile, snapshot, fork.
 *
 * The session drives its backends through the Backend interface (xrt-backend.h) only.
 * Where values live during a forward: a value produced by a board backend stays on the
 * board (ETM or OCM, where the plan put it) and is read back only when a host op or the
 * caller needs it; a value produced on the host is written to the board (its INPUT place)
 * only when a launch needs it. Copies between host and board are the "memcpy" time, timed
 * by the board backend (its device profile's ETM bandwidth); hardops' time is the board's
 * timer; host ops' time is the host backend's cost model of the board's host CPU and IP,
 * so a simulated profile is the same on every run. The dev host's measured time of a host
 * op is kept beside it (host_measured_ms), never added in.
 */
#include "xrt/xrt-session.h"
#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK (xrt-session-error-quark, xrt_session_error)

/* Public calls check their arguments into the GError (the caller's error handling sees them). */
#define CHECK_ARG(cond, arg, val) \
  ZW_RETURN_VAL_IF_BAD_ARG (cond, arg, error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, val)

struct _XrtSession {
  gint ref_count;
  XirNetworkView *view;
  XirNetwork *net;
  XrtDevice *device;          /* the board, or NULL */
  GPtrArray *backends;        /* XrtBackend (refs), priority order */
  XrtBackend *board;          /* the first board backend, or NULL when the view has no board op */
  gboolean applied;
  GArray *forwards;           /* XrtForward */
  GHashTable *op_backend;     /* op_id -> XrtBackend* (borrowed from backends) */

  /* forward state */
  GHashTable *host_values;    /* v_id -> XrtTensor* (host copies) */
  GHashTable *on_device;      /* v_id set: the board holds the current bytes */
  guint position;             /* next forward step (stepTo) */
  guint part_op;              /* step @position is a merged launch stopped after this op index; G_MAXUINT: none */
  double part_ms[3];          /* memcpy, hard, other of its parts so far */
  GHashTable *in_place;       /* v_id set: forward_into outputs the hardops write in place */
  GPtrArray *pending_inputs;
  guint next_input;

  XrtSessionCallback pre_cb, post_cb;
  gpointer pre_data, post_data;
  GDestroyNotify pre_destroy, post_destroy;
  gboolean log_io, log_time;
  FILE *log_stream;
  gboolean dump;
  char *dump_dir;
  char *dump_format;
  ZwDumpFormat dump_fmt;
  ZwDumpManifest *manifest;
  gboolean profile_on;
  ZwProfile *profile;
  double total_ms;
  double clock_ms;            /* timeline position inside a forward */
  gint busy;                  /* a public call runs (session_enter) */
};

static void
forward_clear (gpointer p)
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
  g_array_set_clear_func (s->forwards, forward_clear);
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

/* ---- forward steps ------------------------------------------------------------------ */

static void
add_unique (GArray *a, gint64 v)
{
  for (guint i = 0; i < a->len; i++)
    if (g_array_index (a, gint64, i) == v)
      return;
  g_array_append_val (a, v);
}

static void
fill_io (XrtSession *s, XrtForward *f)
{
  g_autoptr (GHashTable) made = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint start = xir_network_view_get_start (s->view);

  for (guint i = f->first_index; i <= f->last_index; i++)
    {
      XirOp *op = xir_network_get_op (s->net, i);
      if (f->op == NULL && (i < start || !xrt_backend_owns_op (f->backend, op->op_id)))
        continue;
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          g_hash_table_add (made, &v->v_id);
          add_unique (f->output_ids, v->v_id);
        }
    }
  for (guint i = f->first_index; i <= f->last_index; i++)
    {
      XirOp *op = xir_network_get_op (s->net, i);
      if (f->op == NULL && !xrt_backend_owns_op (f->backend, op->op_id))
        continue;
      for (guint k = 0; k < op->inputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->inputs, k);
          if (!g_hash_table_contains (made, &v->v_id))
            add_unique (f->input_ids, v->v_id);
        }
    }
}

/* The steps of the view: host ops one by one, board launches (merged or not), and the
 * hardops that no launch runs (zero-copy ops with merge off). A launch belongs to the
 * view only if all of it is inside; otherwise the view splits it. */
static gboolean
build_forwards (XrtSession *s, GError **error)
{
  g_autoptr (ZwDeployReport) report = s->board ? xrt_backend_get_report (s->board) : NULL;
  guint start = xir_network_view_get_start (s->view);
  guint end = start + xir_network_view_get_n_ops (s->view);

  g_array_set_size (s->forwards, 0);
  for (guint i = start; i < end; i++)
    {
      XirOp *op = xir_network_get_op (s->net, i);
      XrtForward f = { 0 };
      const ZwOpInfo *info;

      f.op_id = op->op_id;
      f.op = op;
      f.launch = -1;
      f.first_index = f.last_index = i;
      f.merge_from = g_array_new (FALSE, FALSE, sizeof (gint64));
      f.input_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      f.output_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      f.backend = xrt_session_get_op_backend (s, op->op_id);
      if (f.backend == s->board && s->board != NULL && (info = zw_deploy_report_find_op (report, op->op_id))
          && info->launch >= 0)
        {
          const ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, info->launch);
          if ((guint) l->first < start || (guint) l->last >= end)
            {
              forward_clear (&f);
              g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP,
                           "ops [%u, %u) split the merged launch %" G_GINT64_FORMAT " (ops %d-%d): choose a boundary "
                           "between launches or disable merging", start, end, l->op_id, l->first, l->last);
              return FALSE;
            }
          f.launch = info->launch;
          f.op_id = l->op_id;
          f.first_index = (guint) l->first;
          f.last_index = (guint) l->last;
          g_array_append_vals (f.merge_from, l->merge_from->data, l->merge_from->len);
          if (l->merge_from->len > 1)
            f.op = NULL;
          i = (guint) l->last;
        }
      fill_io (s, &f);
      g_array_append_val (s->forwards, f);
    }
  return TRUE;
}

static gboolean
session_apply (XrtSession *s, GError **error)
{
  if (s->applied)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_CALL_ORDER, "%s: the session is already applied",
                   xir_network_get_path (s->net));
      return FALSE;
    }
  for (guint k = 0; k < s->backends->len; k++)
    {
      XrtBackend *b = g_ptr_array_index (s->backends, k);
      if (!xrt_backend_is_applied (b) && !xrt_backend_apply (b, error))
        return FALSE;
    }
  if (!build_forwards (s, error))
    return FALSE;
  s->applied = TRUE;
  s->position = 0;
  return TRUE;
}

/* ---- moving values ------------------------------------------------------------------ */

/* Host <-> board copies: timed by the board backend (its device's bandwidth). */
static double
copy_ms (XrtSession *s, guint64 bytes)
{
  return s->board != NULL ? xrt_backend_copy_ms (s->board, bytes) : 0;
}

/* Where a board backend put @v_id; the region by name on that backend's device. */
static gboolean
device_place_of (XrtSession *s, gint64 v_id, XrtMemRegion **region, guint64 *addr, XrtBackend **owner)
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

static gboolean
device_place (XrtSession *s, gint64 v_id, XrtMemRegion **region, guint64 *addr)
{
  return device_place_of (s, v_id, region, addr, NULL);
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
static XrtTensor *
host_value (XrtSession *s, const XirValue *v, double *memcpy_ms, GError **error)
{
  XrtTensor *t = g_hash_table_lookup (s->host_values, &v->v_id);
  XrtMemRegion *region;
  XrtBackend *owner = NULL;
  guint64 addr;
  gint64 *key;

  if (t != NULL)
    return t;
  if (g_hash_table_contains (s->on_device, &v->v_id) && device_place_of (s, v->v_id, &region, &addr, &owner))
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
        *memcpy_ms += copy_ms (s, v->storage_bytes);
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
static gboolean
ensure_on_device (XrtSession *s, const XrtForward *f, double *memcpy_ms, GError **error)
{
  for (guint k = 0; k < f->input_ids->len; k++)
    {
      gint64 v_id = g_array_index (f->input_ids, gint64, k);
      const XirValue *v = xir_network_get_value (s->net, v_id);
      XrtTensor *t;
      XrtMemRegion *region;
      guint64 addr;
      g_autofree guint8 *buf = NULL;
      gint64 *key;

      if (g_hash_table_contains (s->on_device, &v_id))
        continue;
      if (!device_place (s, v_id, &region, &addr))
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP,
                       "launch %" G_GINT64_FORMAT ": v_id %" G_GINT64_FORMAT " has no place on the board", f->op_id, v_id);
          return FALSE;
        }
      t = host_value (s, v, NULL, error);
      if (t == NULL || (buf = xrt_tensor_dup_bytes (t, error)) == NULL
          || !xrt_mem_region_write (region, addr, buf, v->storage_bytes, error))
        return FALSE;
      *memcpy_ms += copy_ms (s, v->storage_bytes);
      key = g_new (gint64, 1);
      *key = v_id;
      g_hash_table_add (s->on_device, key);
    }
  return TRUE;
}

/* ---- logs, dumps, profile ---------------------------------------------------------- */

/* The values of a step as the vendor logs them; for a merged launch only those that leave
 * it (its internal values never reach the host). */
static void
describe_values (XrtSession *s, const XrtForward *f, GString *out, GArray *ids)
{
  gboolean first = TRUE;

  g_string_append_c (out, '(');
  for (guint k = 0; k < ids->len; k++)
    {
      const XirValue *v = xir_network_get_value (s->net, g_array_index (ids, gint64, k));
      g_autofree char *dt = NULL;
      if (f->op == NULL && ids == f->output_ids && (guint) v->last_use <= f->last_index && !v->is_network_output)
        continue;
      dt = xir_scalar_type_to_string (&v->element.storage);
      g_string_append_printf (out, "%sv%" G_GINT64_FORMAT " [", first ? "" : ", ", v->v_id);
      first = FALSE;
      for (guint d = 0; d < v->rank; d++)
        g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d ? "," : "", v->shape[d]);
      g_string_append_printf (out, "] %s %s", dt, v->layout.text);
    }
  g_string_append_c (out, ')');
}

static char *
step_type (const XrtForward *f)
{
  if (f->op == NULL)
    return g_strdup ("HardOp(Merged)");
  if (f->op->kind == XIR_OP_HARDOP)
    return g_strdup_printf ("HardOp(%s)", f->op->hard_class);
  return g_strdup (f->op->type_key);
}

/* "icraft::xir::HardOpNode", "icraft::xir::InputNode", "customop::DetPostZGNode" as the vendor's profile writes. */
static char *
profile_type (const XrtForward *f)
{
  if (f->op == NULL || f->op->kind == XIR_OP_HARDOP)
    return g_strdup ("icraft::xir::HardOpNode");
  return g_strdup_printf ("%sNode", f->op->type_key);
}

/* Dumps the values @ids that step @f produced, from where they are now. */
static gboolean
dump_step (XrtSession *s, const XrtForward *f, GArray *ids, GError **error)
{
  for (guint k = 0; k < ids->len; k++)
    {
      gint64 v_id = g_array_index (ids, gint64, k);
      const XirValue *v = xir_network_get_value (s->net, v_id);
      XrtTensor *host = g_hash_table_lookup (s->host_values, &v_id);
      g_autofree guint8 *buf = NULL;
      const char *memory = "HOST";
      guint64 addr = 0;
      XrtMemRegion *region;
      XrtBackend *owner = NULL;
      const char *rname;

      if (host != NULL)
        buf = xrt_tensor_dup_bytes (host, error);
      else if (device_place_of (s, v_id, &region, &addr, &owner))
        {
          /* inside a merged launch this runs at the sync point right after the value's
           * op (run_launch_step): later layers may overwrite it, and it may be in OCM */
          rname = xrt_mem_region_get_name (region);
          memory = g_ascii_strcasecmp (rname, "OCM") == 0 ? "OCM" : "ETM";
          if (!xrt_backend_can_read_back (owner, rname))
            {
              /* a board that cannot read this memory back (Buyi's OCM): the manifest says
               * which values are missing and why, the others are dumped */
              g_autofree char *note = g_strdup_printf ("%s%sv_id %" G_GINT64_FORMAT " not dumped: it lives in %s at 0x%"
                                                       G_GINT64_MODIFIER "x, which the %s cannot read back",
                                                       s->manifest->note ? s->manifest->note : "",
                                                       s->manifest->note ? "; " : "", v_id, rname, addr,
                                                       xrt_backend_get_name (owner));
              g_free (s->manifest->note);
              s->manifest->note = g_steal_pointer (&note);
              s->manifest->complete = FALSE;
              continue;
            }
          buf = g_malloc (MAX (v->storage_bytes, 1));
          if (!xrt_mem_region_read (region, addr, buf, v->storage_bytes, error))
            return FALSE;
        }
      else
        continue;
      if (buf == NULL)
        return FALSE;
      {
        ZwDumpType type;
        gboolean ok;
        zw_dump_type_init_from_value (&type, v);
        ok = zw_dump_write_value (s->dump_dir, &type, buf, v->storage_bytes, s->dump_fmt, NULL, error);
        zw_dump_type_clear (&type);
        if (!ok)
          return FALSE;
      }
      zw_dump_manifest_add (s->manifest, v, f->op != NULL ? f->op_id : xir_network_get_op (s->net, (guint) v->producer)->op_id,
                            g_strcmp0 (memory, "OCM") == 0 ? ZW_DUMP_MEMORY_OCM
                            : g_strcmp0 (memory, "ETM") == 0 ? ZW_DUMP_MEMORY_ETM : ZW_DUMP_MEMORY_HOST,
                            g_strcmp0 (memory, "HOST") == 0 ? -1 : (gint64) addr);
    }
  return TRUE;
}

gboolean
xrt_session_set_dump_outputs (XrtSession *s, gboolean flag, const char *dir, const char *format, GError **error)
{
  ZwDumpFormat fmt = { 0 };

  CHECK_ARG (s != NULL, "session", FALSE);
  CHECK_ARG (!flag || dir != NULL, "dir", FALSE);
  CHECK_ARG (!flag || format != NULL, "format", FALSE);
  if (flag && !zw_dump_format_parse (format, &fmt, error))
    return FALSE;
  if (flag && g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_IO, "%s: cannot create the dump folder", dir);
      return FALSE;
    }
  s->dump = flag;
  g_free (s->dump_dir);
  g_free (s->dump_format);
  s->dump_dir = g_strdup (dir);
  s->dump_format = g_strdup (format);
  s->dump_fmt = fmt;
  return TRUE;
}

/* ---- running steps ------------------------------------------------------------------- */

static GPtrArray *
step_outputs (XrtSession *s, const XrtForward *f, GError **error)
{
  GPtrArray *outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  const XirOp *op = f->op;

  if (op == NULL)
    {
      /* a merged launch: the values that leave it (read after it, or network outputs),
       * in output_ids order; its inner values are gone by its end */
      for (guint k = 0; k < f->output_ids->len; k++)
        {
          const XirValue *v = xir_network_get_value (s->net, g_array_index (f->output_ids, gint64, k));
          XrtTensor *t;
          if (v->last_use <= (gint) f->last_index && !v->is_network_output)
            continue;
          t = host_value (s, v, NULL, error);
          if (t == NULL)
            {
              g_ptr_array_unref (outs);
              return NULL;
            }
          g_ptr_array_add (outs, xrt_tensor_ref (t));
        }
      return outs;
    }
  for (guint k = 0; k < op->outputs->len; k++)
    {
      const XirValue *v = g_ptr_array_index (op->outputs, k);
      XrtTensor *t = g_hash_table_lookup (s->host_values, &v->v_id);
      if (t == NULL)
        t = host_value (s, v, NULL, error);
      if (t == NULL)
        {
          g_ptr_array_unref (outs);
          return NULL;
        }
      g_ptr_array_add (outs, xrt_tensor_ref (t));
    }
  return outs;
}

static gboolean
run_host_op (XrtSession *s, const XrtForward *f, double *memcpy_ms, XrtStepTime *cost, GError **error)
{
  const XirOp *op = f->op;
  g_autofree const guint8 **ins = g_new0 (const guint8 *, MAX (op->inputs->len, 1));
  g_autofree guint8 **outs = g_new0 (guint8 *, MAX (op->outputs->len, 1));
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;

  if (op->kind == XIR_OP_INPUT)
    {
      for (guint k = 0; k < op->outputs->len; k++)
        {
          const XirValue *v = g_ptr_array_index (op->outputs, k);
          if (host_value (s, v, memcpy_ms, error) == NULL)
            return FALSE;
        }
      return xrt_backend_run_op (f->backend, op, NULL, NULL, cost, error);
    }
  for (guint k = 0; k < op->inputs->len; k++)
    {
      XrtTensor *t;
      /* forward_into: the hardop wrote this output in the caller's tensor, no copy */
      if (op->kind == XIR_OP_OUTPUT
          && g_hash_table_contains (s->in_place, &((XirValue *) g_ptr_array_index (op->inputs, k))->v_id))
        continue;
      t = host_value (s, g_ptr_array_index (op->inputs, k), memcpy_ms, error);
      guint8 *b = t ? xrt_tensor_dup_bytes (t, error) : NULL;
      if (b == NULL)
        return FALSE;
      g_ptr_array_add (keep, b);
      ins[k] = b;
    }
  if (op->kind == XIR_OP_OUTPUT)
    return xrt_backend_run_op (f->backend, op, ins, NULL, cost, error);
  for (guint k = 0; k < op->outputs->len; k++)
    {
      const XirValue *v = g_ptr_array_index (op->outputs, k);
      outs[k] = g_malloc0 (MAX (v->storage_bytes, 1));
      g_ptr_array_add (keep, outs[k]);
    }
  ok = xrt_backend_run_op (f->backend, op, ins, outs, cost, error);
  for (guint k = 0; ok && k < op->outputs->len; k++)
    {
      const XirValue *v = g_ptr_array_index (op->outputs, k);
      XrtTensor *t = xrt_tensor_new_host (s->net, v, outs[k], v->storage_bytes, error);
      gint64 *key;
      if (t == NULL)
        return FALSE;
      key = g_new (gint64, 1);
      *key = v->v_id;
      g_hash_table_replace (s->host_values, key, t);
      g_hash_table_remove (s->on_device, &v->v_id);
    }
  return ok;
}

static gboolean
is_merged_launch (const XrtForward *f)
{
  return f->launch >= 0 && f->merge_from->len > 1;
}

static void
mark_on_device (XrtSession *s, const XirOp *op)
{
  for (guint k = 0; k < op->outputs->len; k++)
    {
      gint64 *key = g_new (gint64, 1);
      *key = ((XirValue *) g_ptr_array_index (op->outputs, k))->v_id;
      g_hash_table_remove (s->host_values, key);
      g_hash_table_add (s->on_device, key);
    }
}

/* A ZG330 launch. A merged launch runs whole, unless
 *  - stepTo stops inside it (@until, an absolute op index before its last op): the board
 *    runs the launch's instructions only up to the sync point after that op's layers
 *    (HardOpInfo.sync_idx), and the step stays part done (*stopped) with s->part_op set;
 *  - it was part done: it resumes from that sync point (the board still holds what the
 *    partial launch left: xrt_session_step_to checks that and else starts over);
 *  - the session dumps: it stops at the sync point after every hardop and dumps that op's
 *    outputs there, so a dump with merge on holds every value, as with merge off.
 * Times of the parts add up and go to the step's profile row when the step ends. */
static gboolean
run_launch_step (XrtSession *s, const XrtForward *f, guint until, double *memcpy_ms, double *hard_ms,
                 double *other_ms, gboolean *stopped, GError **error)
{
  gboolean merged = is_merged_launch (f);
  guint stop = merged && until < f->last_index ? until : f->last_index;
  guint from;

  *stopped = FALSE;
  if (!merged)
    {
      XrtStepTime t = { 0, 0, -1 };
      if (!ensure_on_device (s, f, memcpy_ms, error)
          || !xrt_backend_run_launch (f->backend, (guint) f->launch, -1, -1, &t, error))
        return FALSE;
      *hard_ms += t.hard_ms;
      *other_ms += t.other_ms;
      for (guint i = f->first_index; i <= f->last_index; i++)
        mark_on_device (s, xir_network_get_op (s->net, i));
      return TRUE;
    }
  if (s->part_op == G_MAXUINT)
    {
      if (!ensure_on_device (s, f, memcpy_ms, error))
        return FALSE;
      from = f->first_index;
    }
  else
    from = s->part_op + 1;
  /* one part to the stop, or (dumping) one part per op */
  while (from <= stop)
    {
      guint to = s->dump ? from : stop;
      gint64 after = s->part_op == G_MAXUINT ? -1 : xir_network_get_op (s->net, s->part_op)->op_id;
      gint64 until_id = to >= f->last_index ? -1 : xir_network_get_op (s->net, to)->op_id;
      XrtStepTime t = { 0, 0, -1 };

      if (!xrt_backend_run_launch (f->backend, (guint) f->launch, after, until_id, &t, error))
        return FALSE;
      s->part_ms[1] += t.hard_ms;
      s->part_ms[2] += t.other_ms;
      for (guint i = from; i <= to; i++)
        {
          const XirOp *op = xir_network_get_op (s->net, i);
          mark_on_device (s, op);
          if (s->dump)
            {
              g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
              for (guint k = 0; k < op->outputs->len; k++)
                g_array_append_val (ids, ((XirValue *) g_ptr_array_index (op->outputs, k))->v_id);
              if (!dump_step (s, f, ids, error))
                return FALSE;
            }
        }
      s->part_op = to;
      from = to + 1;
    }
  if (stop < f->last_index)
    {
      s->part_ms[0] += *memcpy_ms;
      *stopped = TRUE;
      return TRUE;
    }
  *memcpy_ms += s->part_ms[0];
  *hard_ms += s->part_ms[1];
  *other_ms += s->part_ms[2];
  s->part_op = G_MAXUINT;
  memset (s->part_ms, 0, sizeof s->part_ms);
  return TRUE;
}

/* Runs forward step @index: all of it (@until G_MAXUINT), or a merged launch up to the op
 * at absolute index @until (stopped at its sync point; see run_launch_step). */
static gboolean
run_step_part (XrtSession *s, guint index, guint until, GError **error)
{
  const XrtForward *f = &g_array_index (s->forwards, XrtForward, index);
  double memcpy_ms = 0, hard_ms = 0, other_ms = 0, measured_ms = -1;
  gboolean ok = TRUE;

  if (s->pre_cb != NULL && s->part_op == G_MAXUINT)   /* not again when a stopped launch resumes */
    {
      g_autoptr (GPtrArray) none = g_ptr_array_new ();
      s->pre_cb (s, f, none, s->pre_data);
    }
  if (!xrt_backend_runs_on_board (f->backend))
    {
      /* simulated time from the backend's cost model; the dev host's clock only for the
       * labelled "measured on this PC" figure, which no total includes */
      XrtStepTime cost = { 0, 0, -1 };
      gint64 t0 = g_get_monotonic_time ();
      ok = run_host_op (s, f, &memcpy_ms, &cost, error);
      measured_ms = (g_get_monotonic_time () - t0) / 1e3;
      hard_ms = cost.hard_ms;
      other_ms = cost.other_ms;
    }
  else if (f->launch >= 0)
    {
      gboolean stopped = FALSE;
      ok = run_launch_step (s, f, until, &memcpy_ms, &hard_ms, &other_ms, &stopped, error);
      if (ok && stopped)
        return TRUE;   /* the launch is part done: its step ends when a later stepTo or forward finishes it */
    }
  else
    {
      /* a zero-copy hardop outside any launch: its outputs share its inputs' bytes, so
       * those must be on the board */
      ok = ensure_on_device (s, f, &memcpy_ms, error);
      for (guint k = 0; ok && k < f->output_ids->len; k++)
        {
          gint64 *key = g_new (gint64, 1);
          *key = g_array_index (f->output_ids, gint64, k);
          g_hash_table_add (s->on_device, key);
        }
    }
  if (!ok)
    {
      g_prefix_error (error, "op %" G_GINT64_FORMAT ": ", f->op_id);
      return FALSE;
    }
  {
    double total = memcpy_ms + hard_ms + other_ms;
    s->total_ms += total;
    if (s->profile_on)
      {
        g_autofree char *type = profile_type (f);
        ZwProfileRow *row = zw_profile_add_row (s->profile, f->op_id, type, f->op ? f->op->name : "", total, memcpy_ms,
                                                hard_ms, other_ms);
        row->backend = g_strdup (xrt_backend_get_short_name (f->backend));
        row->start_ms = s->clock_ms;
        row->host_measured_ms = measured_ms;
        if (xrt_backend_reports_io_process (f->backend))
          {
            gboolean io = TRUE;
            for (guint k = 0; k < f->merge_from->len; k++)
              {
                const XirOp *m = xir_network_get_op_by_id (s->net, g_array_index (f->merge_from, gint64, k));
                io &= m && cJSON_IsTrue (cJSON_GetObjectItem (m->tags, "io_process"));
              }
            if (f->op != NULL && f->merge_from->len == 0)
              io = cJSON_IsTrue (cJSON_GetObjectItem (f->op->tags, "io_process"));
            row->has_io_process = TRUE;
            row->is_io_process = io;
            if (f->merge_from->len > 1)
              g_array_append_vals (row->merge_from, f->merge_from->data, f->merge_from->len);
          }
      }
    s->clock_ms += total;
    if (s->log_io || s->log_time)
      {
        g_autofree char *type = step_type (f);
        GString *line = g_string_new (NULL);
        g_string_append_printf (line, "opId: %" G_GINT64_FORMAT " opType: %s", f->op_id, type);
        if (s->log_io)
          {
            g_string_append (line, " Inputs: ");
            describe_values (s, f, line, f->input_ids);
            g_string_append (line, " Outputs: ");
            describe_values (s, f, line, f->output_ids);
          }
        if (s->log_time)
          g_string_append_printf (line, " time: %.6f ms (memcpy %.6f, hard %.6f, other %.6f)", total, memcpy_ms, hard_ms,
                                  other_ms);
        fprintf (s->log_stream, "%s\n", line->str);
        g_string_free (line, TRUE);
      }
  }
  /* a merged launch dumped its values op by op at their sync points (run_launch_step) */
  if (s->dump && !is_merged_launch (f) && !dump_step (s, f, f->output_ids, error))
    return FALSE;
  if (s->post_cb != NULL)
    {
      g_autoptr (GPtrArray) outs = step_outputs (s, f, error);
      if (outs == NULL)
        return FALSE;
      s->post_cb (s, f, outs, s->post_data);
    }
  return TRUE;
}

static gboolean
run_step (XrtSession *s, guint index, GError **error)
{
  return run_step_part (s, index, G_MAXUINT, error);
}

static void
backends_forward_begin (XrtSession *s)
{
  for (guint k = 0; k < s->backends->len; k++)
    xrt_backend_forward_begin (g_ptr_array_index (s->backends, k));
}

static void
begin_forward (XrtSession *s, GPtrArray *inputs)
{
  g_hash_table_remove_all (s->host_values);
  g_hash_table_remove_all (s->on_device);
  g_clear_pointer (&s->pending_inputs, g_ptr_array_unref);
  s->pending_inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  for (guint k = 0; inputs != NULL && k < inputs->len; k++)
    g_ptr_array_add (s->pending_inputs, xrt_tensor_ref (g_ptr_array_index (inputs, k)));
  s->next_input = 0;
  s->part_op = G_MAXUINT;
  memset (s->part_ms, 0, sizeof s->part_ms);
  s->total_ms = 0;
  s->clock_ms = 0;
  if (s->profile_on)
    {
      g_clear_pointer (&s->profile, zw_profile_free);
      s->profile = zw_profile_new (xir_network_get_name (s->net));
    }
  if (s->dump)
    {
      gboolean merged = FALSE;
      g_clear_pointer (&s->manifest, zw_dump_manifest_free);
      for (guint i = 0; i < s->forwards->len && !merged; i++)
        merged = is_merged_launch (&g_array_index (s->forwards, XrtForward, i));
      s->manifest = zw_dump_manifest_new (xir_network_get_name (s->net), s->dump_fmt, TRUE,
                                          !merged ? "merge hardop off: every value of every op"
                                                  : "merge hardop on: every value of every op; each merged launch "
                                                    "was stopped at the sync point after every hardop's layers "
                                                    "(HardOpInfo.sync_idx) and that op's outputs read there");
    }
  backends_forward_begin (s);
}

static gboolean
end_forward (XrtSession *s, gboolean ok, GError **error)
{
  for (guint k = 0; k < s->backends->len; k++)
    xrt_backend_forward_end (g_ptr_array_index (s->backends, k));
  if (s->profile_on && s->profile != NULL)
    zw_profile_compute_totals (s->profile);
  if (ok && s->dump && s->manifest != NULL)
    {
      ok = zw_dump_manifest_write (s->manifest, s->dump_dir, error);
    }
  return ok;
}

static gboolean
check_applied (XrtSession *s, GError **error)
{
  if (s->applied)
    return TRUE;
  g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_CALL_ORDER, "%s: forward before apply()",
               xir_network_get_path (s->net));
  return FALSE;
}

static GPtrArray *
collect_outputs (XrtSession *s, GError **error)
{
  GPtrArray *outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values = xir_network_view_get_outputs (s->view);

  for (guint k = 0; k < values->len; k++)
    {
      XrtTensor *t = host_value (s, g_ptr_array_index (values, k), NULL, error);
      if (t == NULL)
        {
          g_ptr_array_unref (outs);
          return NULL;
        }
      g_ptr_array_add (outs, xrt_tensor_ref (t));
    }
  return outs;
}

static GPtrArray *
session_forward (XrtSession *s, GPtrArray *inputs, GError **error)
{
  GPtrArray *outs = NULL;
  gboolean ok = TRUE;

  if (!check_applied (s, error))
    return NULL;
  begin_forward (s, inputs);
  for (guint i = 0; ok && i < s->forwards->len; i++)
    ok = run_step (s, i, error);
  ok = end_forward (s, ok, error);
  s->position = 0;
  if (ok)
    outs = collect_outputs (s, error);
  return outs;
}

/* The caller's tensor for each view output: the one typed as that value (by v_id), else
 * the one at its position among those left (e.g. a ring's input tensor). */
static gboolean
match_outputs (XrtSession *s, GPtrArray *outputs, XrtTensor **match, GError **error)
{
  GPtrArray *values = xir_network_view_get_outputs (s->view);
  g_autofree gboolean *used = g_new0 (gboolean, MAX (outputs->len, 1));

  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      match[k] = NULL;
      for (guint j = 0; j < outputs->len && match[k] == NULL; j++)
        if (!used[j] && xrt_tensor_get_value (g_ptr_array_index (outputs, j))->v_id == v->v_id)
          {
            match[k] = g_ptr_array_index (outputs, j);
            used[j] = TRUE;
          }
    }
  for (guint k = 0, j = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      while (match[k] == NULL && j < outputs->len)
        {
          if (!used[j])
            {
              match[k] = g_ptr_array_index (outputs, j);
              used[j] = TRUE;
            }
          j++;
        }
      if (xrt_tensor_get_size (match[k]) != v->storage_bytes)
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS,
                       "forward(inputs, outputs): the output tensor for v_id %" G_GINT64_FORMAT " holds %"
                       G_GUINT64_FORMAT " bytes, the value needs %" G_GUINT64_FORMAT,
                       v->v_id, xrt_tensor_get_size (match[k]), v->storage_bytes);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
session_forward_into (XrtSession *s, GPtrArray *inputs, GPtrArray *outputs, GError **error)
{
  GPtrArray *values = xir_network_view_get_outputs (s->view);
  g_autofree XrtTensor **match = NULL;
  gboolean ok = TRUE;

  if (outputs == NULL || outputs->len != values->len)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS,
                   "forward(inputs, outputs): %u output tensor(s) given, the view has %u outputs",
                   outputs ? outputs->len : 0, values->len);
      return FALSE;
    }
  if (!check_applied (s, error))
    return FALSE;
  match = g_new0 (XrtTensor *, MAX (values->len, 1));
  if (!match_outputs (s, outputs, match, error))
    return FALSE;
  /* a tensor in this board's ETM: its hardop writes it there, nothing is copied after */
  g_hash_table_remove_all (s->in_place);
  for (guint k = 0; s->board != NULL && k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      XrtMemChunk *c = xrt_tensor_get_chunk (match[k]);
      GError *refused = NULL;
      if (c == NULL || xrt_mem_chunk_get_region (c) != xrt_device_get_mem_region (s->device, "ETM", NULL))
        continue;
      if (xrt_backend_bind_output (s->board, v->v_id, c, xrt_tensor_get_offset (match[k]), &refused))
        {
          gint64 *key = g_new (gint64, 1);
          *key = v->v_id;
          g_hash_table_add (s->in_place, key);
        }
      else if (refused != NULL)
        {
          g_propagate_error (error, refused);
          xrt_backend_unbind_outputs (s->board);
          g_hash_table_remove_all (s->in_place);
          return FALSE;
        }
    }
  begin_forward (s, inputs);
  for (guint i = 0; ok && i < s->forwards->len; i++)
    ok = run_step (s, i, error);
  ok = end_forward (s, ok, error);
  s->position = 0;
  for (guint k = 0; ok && k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      XrtTensor *t;
      g_autofree guint8 *buf = NULL;
      if (g_hash_table_contains (s->in_place, &v->v_id))
        continue;
      t = host_value (s, v, NULL, error);
      ok = t != NULL && (buf = xrt_tensor_dup_bytes (t, error)) != NULL
           && xrt_tensor_write (match[k], buf, v->storage_bytes, error);
    }
  if (s->board != NULL)
    xrt_backend_unbind_outputs (s->board);
  g_hash_table_remove_all (s->in_place);
  return ok;
}

static GPtrArray *
session_step_to (XrtSession *s, gint64 op_id, GPtrArray *inputs, GError **error)
{
  const XirOp *target = xir_network_get_op_by_id (s->net, op_id);
  const XrtForward *f;
  guint stop = G_MAXUINT, until;
  gboolean restart;
  GPtrArray *outs = NULL;
  gboolean ok = TRUE;

  if (!check_applied (s, error))
    return NULL;
  for (guint i = 0; target && i < s->forwards->len; i++)
    {
      const XrtForward *g = &g_array_index (s->forwards, XrtForward, i);
      if (target->index >= g->first_index && target->index <= g->last_index)
        stop = i;
    }
  if (stop == G_MAXUINT)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP, "stepTo: op %" G_GINT64_FORMAT " is not in the session's view",
                   op_id);
      return NULL;
    }
  f = &g_array_index (s->forwards, XrtForward, stop);
  /* inside a merged launch: stop at the op's sync point */
  until = is_merged_launch (f) && target->index < f->last_index ? target->index : G_MAXUINT;
  /* going back starts a new forward; so does a launch left part done when the board ran
   * something else since (its OCM and FTMP no longer hold what the partial launch left) */
  restart = stop < s->position
            || (stop == s->position && s->part_op != G_MAXUINT && target->index <= s->part_op)
            || (s->part_op != G_MAXUINT
                && !xrt_backend_can_resume_launch (g_array_index (s->forwards, XrtForward, s->position).backend,
                                                   (guint) g_array_index (s->forwards, XrtForward, s->position).launch,
                                                   xir_network_get_op (s->net, s->part_op)->op_id));
  if (restart)
    s->position = 0;
  if (s->position == 0 && (restart || s->part_op == G_MAXUINT))
    {
      /* a new forward; without new inputs, with the ones given so far */
      g_autoptr (GPtrArray) given = inputs == NULL && s->pending_inputs ? g_ptr_array_ref (s->pending_inputs) : NULL;
      begin_forward (s, inputs != NULL ? inputs : given);
    }
  else
    {
      /* inputs of later steps may come now: keep the ones not yet used, then these */
      for (guint k = 0; inputs != NULL && k < inputs->len; k++)
        g_ptr_array_add (s->pending_inputs, xrt_tensor_ref (g_ptr_array_index (inputs, k)));
      backends_forward_begin (s);
    }
  for (guint i = s->position; ok && i <= stop; i++)
    ok = run_step_part (s, i, i == stop ? until : G_MAXUINT, error);
  s->position = s->part_op != G_MAXUINT ? stop : stop + 1;
  ok = end_forward (s, ok, error);
  if (s->position >= s->forwards->len)
    s->position = 0;
  if (!ok)
    {
      s->position = 0;
      s->part_op = G_MAXUINT;
      return NULL;
    }
  {
    XrtForward one = *f;
    one.op = target;
    outs = step_outputs (s, &one, error);
  }
  return outs;
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
  if (!check_applied (s, error))
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
  if (!build_forwards (sub, error))
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
  ok = session_apply (s, error);
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
  outs = session_forward (s, inputs, error);
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
  ok = session_forward_into (s, inputs, outputs, error);
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
  outs = session_step_to (s, op_id, inputs, error);
  session_leave (s);
  return outs;
}

/* ---- snapshot -------------------------------------------------------------------------- */

#define SNAPSHOT_FORMAT "zhuge-snapshot"
/* 1: options and placement; 2: + "network_files", what the snapshot was made of (the
 * network JSON and its params, with their digests), so that a snapshot alone restores. */
#define SNAPSHOT_VERSION 2

/* Fingerprint of what the plan depends on: the ops, values and chunks of the network. */
static char *
network_fingerprint (XirNetwork *net)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  char *out;

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      g_checksum_update (sum, (const guchar *) &op->op_id, sizeof op->op_id);
      g_checksum_update (sum, (const guchar *) op->type_key, -1);
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          g_checksum_update (sum, (const guchar *) &v->v_id, sizeof v->v_id);
          g_checksum_update (sum, (const guchar *) &v->storage_bytes, sizeof v->storage_bytes);
          g_checksum_update (sum, (const guchar *) &v->mtype, sizeof v->mtype);
        }
    }
  out = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return out;
}

static char *
file_sha256 (const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = zw_file_map_regular (path, ZW_INPUT_NETWORK, 0, error);

  if (file == NULL)
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) g_mapped_file_get_contents (file),
                                      g_mapped_file_get_length (file));
}

static char *
absolute_path (const char *path)
{
  g_autofree char *cwd = NULL;

  if (g_path_is_absolute (path))
    return g_canonicalize_filename (path, NULL);
  cwd = g_get_current_dir ();
  return g_canonicalize_filename (path, cwd);
}

/* "network_files": { "json", "json_sha256", "params" (a .raw or null), "params_seed"
 * (synthetic params), "params_sha256" }: the network the snapshot deploys. */
static cJSON *
network_files_json (XirNetwork *net, GError **error)
{
  g_autofree char *json = absolute_path (xir_network_get_path (net));
  g_autofree char *json_sum = NULL, *params_sum = NULL;
  const char *raw = xir_network_get_params_path (net);
  guint64 seed = 0;
  cJSON *files;

  if ((json_sum = file_sha256 (json, NULL)) == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: the network was not loaded from a file that still exists: a snapshot records the network's "
                   "JSON to restore it", json);
      return NULL;
    }
  params_sum = xir_network_compute_params_sha256 (net);
  files = cJSON_CreateObject ();
  cJSON_AddStringToObject (files, "json", json);
  cJSON_AddStringToObject (files, "json_sha256", json_sum);
  if (raw != NULL)
    {
      g_autofree char *abs = absolute_path (raw);
      cJSON_AddStringToObject (files, "params", abs);
    }
  else
    cJSON_AddNullToObject (files, "params");
  if (xir_network_get_params_seed (net, &seed))
    cJSON_AddNumberToObject (files, "params_seed", (double) seed);
  cJSON_AddStringToObject (files, "params_sha256", params_sum ? params_sum : "");
  return files;
}

gboolean
xrt_session_dump_snapshot (XrtSession *s, const char *path, GError **error)
{
  g_autoptr (ZwDeployReport) report = NULL;
  g_autofree char *fingerprint = NULL, *body = NULL, *text = NULL, *digest = NULL;
  cJSON *root, *files;
  GError *local = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (s != NULL, "session", error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, FALSE);
  if (!check_applied (s, error))
    return FALSE;
  if (s->board == NULL || (report = xrt_backend_get_report (s->board)) == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: a snapshot records a board backend's placement, and this session has none (host ops only)",
                   xir_network_get_path (s->net));
      return FALSE;
    }
  if ((files = network_files_json (s->net, error)) == NULL)
    return FALSE;
  fingerprint = network_fingerprint (s->net);
  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "format", SNAPSHOT_FORMAT);
  cJSON_AddNumberToObject (root, "version", SNAPSHOT_VERSION);
  cJSON_AddStringToObject (root, "network", xir_network_get_name (s->net));
  cJSON_AddStringToObject (root, "network_fingerprint", fingerprint);
  cJSON_AddStringToObject (root, "backend", xrt_backend_get_name (s->board));
  cJSON_AddItemToObject (root, "network_files", files);
  cJSON_AddNumberToObject (root, "view_start", xir_network_view_get_start (s->view));
  cJSON_AddNumberToObject (root, "view_ops", xir_network_view_get_n_ops (s->view));
  cJSON_AddItemToObject (root, "deploy", zw_deploy_report_to_json (report));
  body = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  /* the last line carries the SHA-256 of everything before it */
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, body, -1);
  text = g_strdup_printf ("%s\nsha256 %s\n", body, digest);
  /* atomic, like every file the runtime writes */
  if (!zw_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_IO, "%s: cannot write the snapshot: %s", path,
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* A file the snapshot recorded as @recorded: beside the snapshot first (a folder moved as a
 * whole), then beside @also (the JSON found, for its .raw), then where it was. NULL with an
 * error naming every place looked at. */
static char *
find_recorded_file (const char *snapshot, const char *field, const char *recorded, const char *also,
                    GError **error)
{
  g_autofree char *base = g_path_get_basename (recorded);
  g_autofree char *snap_dir = g_path_get_dirname (snapshot);
  g_autoptr (GPtrArray) tried = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *list = NULL;

  g_ptr_array_add (tried, g_build_filename (snap_dir, base, NULL));
  if (also != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (also);
      g_ptr_array_add (tried, g_build_filename (dir, base, NULL));
    }
  g_ptr_array_add (tried, g_strdup (recorded));
  for (guint i = 0; i < tried->len; i++)
    if (g_file_test (g_ptr_array_index (tried, i), G_FILE_TEST_IS_REGULAR))
      return g_strdup (g_ptr_array_index (tried, i));
  g_ptr_array_add (tried, NULL);
  list = g_strjoinv (", ", (char **) tried->pdata);
  g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
               "%s: network_files.%s: %s not found (looked at %s)", snapshot, field, base, list);
  return NULL;
}

/* The network a version-2 snapshot records, found, loaded and checked against its digests. */
static XirNetwork *
snapshot_network (const char *path, const cJSON *root, GError **error)
{
  const cJSON *files = cJSON_GetObjectItem (root, "network_files");
  const cJSON *json = cJSON_GetObjectItem (files, "json");
  const cJSON *json_sum = cJSON_GetObjectItem (files, "json_sha256");
  const cJSON *params = cJSON_GetObjectItem (files, "params");
  const cJSON *seed = cJSON_GetObjectItem (files, "params_seed");
  const cJSON *params_sum = cJSON_GetObjectItem (files, "params_sha256");
  g_autofree char *json_path = NULL, *raw_path = NULL, *sum = NULL;
  g_autoptr (XirNetwork) net = NULL;
  GError *local = NULL;

  if (!cJSON_IsObject (files))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files: a version-1 snapshot does not record its network; give the network JSON "
                   "with it (json = … in [run], or NET.json on the command line)", path);
      return NULL;
    }
  if (!cJSON_IsString (json) || !cJSON_IsString (json_sum) || !cJSON_IsString (params_sum)
      || !(cJSON_IsString (params) || (cJSON_IsNull (params) && cJSON_IsNumber (seed))))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files: needs json, json_sha256, params (or params_seed) and params_sha256", path);
      return NULL;
    }
  if ((json_path = find_recorded_file (path, "json", json->valuestring, NULL, error)) == NULL)
    return NULL;
  if ((sum = file_sha256 (json_path, &local)) == NULL || strcmp (sum, json_sum->valuestring) != 0)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files.json_sha256: %s %s", path, json_path,
                   local ? local->message : "is not the network JSON the snapshot was made of (its SHA-256 differs)");
      g_clear_error (&local);
      return NULL;
    }
  if ((net = xir_network_new_from_json_file (json_path, error)) == NULL)
    return NULL;
  if (cJSON_IsString (params))
    {
      if ((raw_path = find_recorded_file (path, "params", params->valuestring, json_path, error)) == NULL)
        return NULL;
      /* the digest below is the check: the .raw may be synthetic (no md5 match) */
      if (!xir_network_load_params_from_file_full (net, raw_path, XIR_LOAD_NO_MD5, error))
        return NULL;
    }
  else
    {
      gint64 s = 0;
      if (zw_json_int64 (seed, 0, ZW_JSON_INT_MAX, &s) != ZW_NUM_OK)
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                       "%s: network_files.params_seed: not a seed", path);
          return NULL;
        }
      xir_network_fake_params (net, (guint64) s);
    }
  g_free (sum);
  sum = xir_network_compute_params_sha256 (net);
  if (g_strcmp0 (sum, params_sum->valuestring) != 0)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files.params_sha256: %s are not the params the snapshot was made of (their SHA-256 "
                   "differs)", path, raw_path ? raw_path : "the synthetic params");
      return NULL;
    }
  return g_steal_pointer (&net);
}

XrtSession *
xrt_session_new_from_snapshot (const char *path, XirNetwork *net, XrtDevice *device, GError **error)
{
  g_autofree char *text = NULL, *fingerprint = NULL;
  g_autoptr (ZwDeployReport) plan = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XirNetwork) own_net = NULL;
  g_autoptr (XrtBackend) board = NULL;
  g_autoptr (XrtDevice) own_device = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autofree char *backend_name = NULL;
  GError *local = NULL;
  gsize len = 0;
  char *nl;
  cJSON *root = NULL;
  const cJSON *item;
  gint start = 0, n_ops = 0;

  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_SNAPSHOT, 0, &text, &len, &local))
    {
      g_set_error_literal (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  nl = len > 0 ? g_strrstr_len (text, (gssize) len - 1, "\nsha256 ") : NULL;
  if (nl == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: not a Zhuge Workbench snapshot (no checksum line)", path);
      return NULL;
    }
  *nl = '\0';
  {
    g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
    const char *stored = nl + strlen ("\nsha256 ");
    if (strncmp (digest, stored, 64) != 0)
      {
        g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                     "%s: checksum mismatch: the snapshot is corrupted", path);
        return NULL;
      }
  }
  root = cJSON_Parse (text);
  if (root == NULL || !cJSON_IsString (item = cJSON_GetObjectItem (root, "format"))
      || strcmp (item->valuestring, SNAPSHOT_FORMAT) != 0)
    {
      cJSON_Delete (root);
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT, "%s: format: not a Zhuge Workbench snapshot", path);
      return NULL;
    }
  item = cJSON_GetObjectItem (root, "version");
  if (!cJSON_IsNumber (item) || item->valueint > SNAPSHOT_VERSION || item->valueint < 1)
    {
      cJSON_Delete (root);
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: version: this build reads snapshot versions 1 to %d", path, SNAPSHOT_VERSION);
      return NULL;
    }
  if (net == NULL)
    {
      own_net = snapshot_network (path, root, error);
      if (own_net == NULL)
        {
          cJSON_Delete (root);
          return NULL;
        }
      net = own_net;
    }
  fingerprint = network_fingerprint (net);
  item = cJSON_GetObjectItem (root, "network_fingerprint");
  if (!cJSON_IsString (item) || strcmp (item->valuestring, fingerprint) != 0)
    {
      const cJSON *name = cJSON_GetObjectItem (root, "network");
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: the snapshot is of network \"%s\", not of %s (%s)", path,
                   cJSON_IsString (name) ? name->valuestring : "?", xir_network_get_name (net), xir_network_get_path (net));
      cJSON_Delete (root);
      return NULL;
    }
  {
    /* the view: op indices of this network, checked before any conversion */
    gint64 v = 0;
    guint n_net = xir_network_get_n_ops (net);
    const char *keys[2] = { "view_start", "view_ops" };
    gint *outs[2] = { &start, &n_ops };
    for (guint k = 0; k < 2; k++)
      {
        item = cJSON_GetObjectItem (root, keys[k]);
        if (item == NULL)
          continue;
        if (zw_json_int64 (item, k == 0 ? 0 : 1, n_net, &v) != ZW_NUM_OK)
          {
            g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                         "%s: field \"%s\" must be an integer in [%u, %u] (the network has %u ops)", path, keys[k],
                         k == 0 ? 0 : 1, n_net, n_net);
            cJSON_Delete (root);
            return NULL;
          }
        *outs[k] = (gint) v;
      }
  }
  item = cJSON_GetObjectItem (root, "backend");
  if (item != NULL && !cJSON_IsString (item))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT, "%s: field \"backend\" must be a backend's name",
                   path);
      cJSON_Delete (root);
      return NULL;
    }
  backend_name = item ? g_strdup (item->valuestring) : NULL;
  plan = zw_deploy_report_from_json (cJSON_GetObjectItem (root, "deploy"), path, error);
  cJSON_Delete (root);
  if (plan == NULL)
    return NULL;
  view = xir_network_view (net, start, n_ops > 0 ? start + n_ops : G_MAXINT, error);
  if (view == NULL)
    return NULL;
  if (backend_name == NULL)
    {
      /* snapshots before "backend" was recorded: the board backend of the view's ops */
      GType t = xrt_backend_find_for_view (view);
      backend_name = g_strdup (t != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (t))->name : "ZG330Backend");
    }
  if (device == NULL)
    {
      /* no board named: the one the recorded backend runs on by default */
      GType t = xrt_backend_lookup (backend_name);
      const char *url = t != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (t))->default_device_url : NULL;
      if (url != NULL && (own_device = xrt_device_open (url, error)) == NULL)
        return NULL;
      device = own_device;
    }
  board = xrt_backend_new (backend_name, view, device, error);
  if (board != NULL && !xrt_backend_runs_on_board (board))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT, "backend: %s runs no placement to restore",
                   backend_name);
      return NULL;
    }
  if (board == NULL || !xrt_backend_apply_with_plan (board, plan, error))
    {
      if (error && *error)
        g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  s = xrt_session_new_with_backend (view, board, error);
  if (s == NULL || !xrt_session_apply (s, error))
    return NULL;
  return g_steal_pointer (&s);
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
