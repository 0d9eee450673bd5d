/* xrt-backend.c — the Backend base class, its registry and the forwarding calls. */
#include "xrt/xrt-backend.h"
#include "base/zw-checked.h"

#include <string.h>

G_DEFINE_QUARK (xrt-backend-error-quark, xrt_backend_error)

typedef struct {
  XirNetworkView *view;
  XrtDevice *device;
  GHashTable *only;   /* op_id set of xrt_backend_set_op_ids, or NULL: every op it takes */
} XrtBackendPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (XrtBackend, xrt_backend, G_TYPE_OBJECT)

static void
xrt_backend_finalize (GObject *object)
{
  XrtBackendPrivate *priv = xrt_backend_get_instance_private (XRT_BACKEND (object));

  g_clear_pointer (&priv->view, xir_network_view_unref);
  g_clear_pointer (&priv->device, xrt_device_unref);
  g_clear_pointer (&priv->only, g_hash_table_unref);
  G_OBJECT_CLASS (xrt_backend_parent_class)->finalize (object);
}

/* Defaults: what a backend that does not override a call answers. */
static gboolean default_supports_op (const XirOp *op) { (void) op; return FALSE; }
static gboolean default_owns_op (XrtBackend *self, gint64 op_id) { (void) self; (void) op_id; return FALSE; }
static gboolean default_is_applied (XrtBackend *self) { (void) self; return TRUE; }
static gboolean default_apply (XrtBackend *self, GError **error) { (void) self; (void) error; return TRUE; }
static ZwDeployReport *default_get_report (XrtBackend *self) { (void) self; return NULL; }
static double default_copy_ms (XrtBackend *self, guint64 bytes) { (void) self; (void) bytes; return 0; }
static gboolean default_value_is_connected (XrtBackend *self, gint64 v_id) { (void) self; (void) v_id; return FALSE; }
static void default_set_connected (XrtBackend *self, const gint64 *v_ids, guint n) { (void) self; (void) v_ids; (void) n; }
static void default_bracket (XrtBackend *self) { (void) self; }
static void default_unbind (XrtBackend *self) { (void) self; }

static gboolean
default_get_value_place (XrtBackend *self, gint64 v_id, const char **region, guint64 *addr)
{
  (void) self, (void) v_id, (void) region, (void) addr;
  return FALSE;
}

static gboolean
default_can_read_back (XrtBackend *self, const char *region)
{
  (void) self, (void) region;
  return TRUE;
}

static gboolean
default_can_resume (XrtBackend *self, guint index, gint64 after_op_id)
{
  (void) self, (void) index, (void) after_op_id;
  return FALSE;
}

static gboolean
default_bind_output (XrtBackend *self, gint64 v_id, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  (void) self, (void) v_id, (void) chunk, (void) offset, (void) error;
  return FALSE;
}

static void
xrt_backend_class_init (XrtBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = xrt_backend_finalize;
  klass->name = "Backend";
  klass->short_name = "Backend";
  klass->supports_op = default_supports_op;
  klass->owns_op = default_owns_op;
  klass->is_applied = default_is_applied;
  klass->apply = default_apply;
  klass->get_report = default_get_report;
  klass->get_value_place = default_get_value_place;
  klass->can_read_back = default_can_read_back;
  klass->copy_ms = default_copy_ms;
  klass->value_is_connected = default_value_is_connected;
  klass->set_connected_values = default_set_connected;
  klass->forward_begin = default_bracket;
  klass->forward_end = default_bracket;
  klass->can_resume_launch = default_can_resume;
  klass->bind_output = default_bind_output;
  klass->unbind_outputs = default_unbind;
}

static void
xrt_backend_init (XrtBackend *self)
{
  (void) self;
}

/* ---- registry -------------------------------------------------------------------------- */

static GMutex registry_lock;
static GArray *registry;   /* GType, registration order */

void
xrt_backend_register (GType type)
{
  XrtBackendClass *klass;

  g_return_if_fail (g_type_is_a (type, XRT_TYPE_BACKEND));
  klass = g_type_class_ref (type);   /* kept: registered classes live as long as the process */
  g_mutex_lock (&registry_lock);
  if (registry == NULL)
    registry = g_array_new (FALSE, FALSE, sizeof (GType));
  for (guint i = 0; i < registry->len; i++)
    {
      XrtBackendClass *other = g_type_class_peek (g_array_index (registry, GType, i));
      if (g_ascii_strcasecmp (other->name, klass->name) == 0)
        {
          g_array_remove_index (registry, i);
          break;
        }
    }
  g_array_append_val (registry, type);
  g_mutex_unlock (&registry_lock);
}

/* Registered types, board backends first (each group in registration order). */
static GArray *
registry_snapshot (void)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (GType));

  g_mutex_lock (&registry_lock);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; registry != NULL && i < registry->len; i++)
      {
        GType t = g_array_index (registry, GType, i);
        XrtBackendClass *klass = g_type_class_peek (t);
        if ((pass == 0) == (klass->runs_on_board != FALSE))
          g_array_append_val (out, t);
      }
  g_mutex_unlock (&registry_lock);
  return out;
}

GType
xrt_backend_lookup (const char *name)
{
  g_autoptr (GArray) types = NULL;

  if (name == NULL)
    return G_TYPE_INVALID;
  types = registry_snapshot ();
  for (guint i = 0; i < types->len; i++)
    {
      GType t = g_array_index (types, GType, i);
      XrtBackendClass *klass = g_type_class_peek (t);
      if (g_ascii_strcasecmp (klass->name, name) == 0 || g_ascii_strcasecmp (klass->short_name, name) == 0)
        return t;
    }
  return G_TYPE_INVALID;
}

char **
xrt_backend_list (void)
{
  g_autoptr (GArray) types = registry_snapshot ();
  char **out = g_new0 (char *, types->len + 1);

  for (guint i = 0; i < types->len; i++)
    out[i] = g_strdup (((XrtBackendClass *) g_type_class_peek (g_array_index (types, GType, i)))->name);
  return out;
}

GType
xrt_backend_find_for_op (const XirOp *op)
{
  g_autoptr (GArray) types = registry_snapshot ();

  for (guint i = 0; op != NULL && i < types->len; i++)
    {
      GType t = g_array_index (types, GType, i);
      XrtBackendClass *klass = g_type_class_peek (t);
      if (klass->runs_on_board && klass->supports_op (op))
        return t;
    }
  return G_TYPE_INVALID;
}

GType
xrt_backend_find_for_view (XirNetworkView *view)
{
  GType t = G_TYPE_INVALID;

  for (guint i = 0; view != NULL && i < xir_network_view_get_n_ops (view) && t == G_TYPE_INVALID; i++)
    t = xrt_backend_find_for_op (xir_network_view_get_op (view, i));
  return t;
}

const char *
xrt_backend_default_device_for_view (XirNetworkView *view)
{
  GType t = xrt_backend_find_for_view (view);

  return t != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (t))->default_device_url : NULL;
}

XrtBackend *
xrt_backend_new (const char *name, XirNetworkView *view, XrtDevice *device, GError **error)
{
  GType type = xrt_backend_lookup (name);

  if (type == G_TYPE_INVALID)
    {
      g_auto (GStrv) known = xrt_backend_list ();
      g_autofree char *list = g_strjoinv (", ", known);
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_UNKNOWN, "no backend called \"%s\" (this build has %s)",
                   name ? name : "(null)", list);
      return NULL;
    }
  return xrt_backend_new_of_type (type, view, device, error);
}

XrtBackend *
xrt_backend_new_of_type (GType type, XirNetworkView *view, XrtDevice *device, GError **error)
{
  g_autoptr (XrtBackend) self = NULL;
  XrtBackendClass *klass;

  g_return_val_if_fail (g_type_is_a (type, XRT_TYPE_BACKEND) && !G_TYPE_IS_ABSTRACT (type), NULL);
  self = g_object_new (type, NULL);
  klass = XRT_BACKEND_GET_CLASS (self);
  if (view == NULL)
    {
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_CALL_ORDER, "%s: init needs a network view",
                   klass->name);
      return NULL;
    }
  xrt_backend_set_view_and_device (self, view, device);
  if (klass->init != NULL && !klass->init (self, view, device, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* ---- calls ------------------------------------------------------------------------------ */

void
xrt_backend_set_view_and_device (XrtBackend *self, XirNetworkView *view, XrtDevice *device)
{
  XrtBackendPrivate *priv = xrt_backend_get_instance_private (self);

  if (view != NULL)
    xir_network_view_ref (view);
  if (device != NULL)
    xrt_device_ref (device);
  g_clear_pointer (&priv->view, xir_network_view_unref);
  g_clear_pointer (&priv->device, xrt_device_unref);
  priv->view = view;
  priv->device = device;
}

XirNetworkView *
xrt_backend_get_view (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), NULL);
  return ((XrtBackendPrivate *) xrt_backend_get_instance_private (self))->view;
}

XrtDevice *
xrt_backend_get_device (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), NULL);
  return ((XrtBackendPrivate *) xrt_backend_get_instance_private (self))->device;
}

#define KLASS(self) XRT_BACKEND_GET_CLASS (self)

const char *
xrt_backend_get_name (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), NULL);
  return KLASS (self)->name;
}

const char *
xrt_backend_get_short_name (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), NULL);
  return KLASS (self)->short_name;
}

gboolean
xrt_backend_runs_on_board (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->runs_on_board;
}

gboolean
xrt_backend_reports_io_process (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->reports_io_process;
}

gboolean
xrt_backend_class_supports_op (GType type, const XirOp *op)
{
  XrtBackendClass *klass;
  gboolean ok;

  g_return_val_if_fail (g_type_is_a (type, XRT_TYPE_BACKEND), FALSE);
  if (op == NULL)
    return FALSE;
  klass = g_type_class_ref (type);
  ok = klass->supports_op (op);
  g_type_class_unref (klass);
  return ok;
}

gboolean
xrt_backend_owns_op (XrtBackend *self, gint64 op_id)
{
  XrtBackendPrivate *priv;

  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  priv = xrt_backend_get_instance_private (self);
  if (priv->only != NULL && !g_hash_table_contains (priv->only, &op_id))
    return FALSE;
  return KLASS (self)->owns_op (self, op_id);
}

gboolean
xrt_backend_set_op_ids (XrtBackend *self, const gint64 *op_ids, guint n, GError **error)
{
  XrtBackendPrivate *priv;
  XirNetwork *net;
  GHashTable *only;

  ZW_RETURN_VAL_IF_BAD_ARG (XRT_IS_BACKEND (self), "backend", error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_INVALID_ARGUMENT,
                            FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (op_ids != NULL && n > 0, "op_ids", error, XRT_BACKEND_ERROR,
                            XRT_BACKEND_ERROR_INVALID_ARGUMENT, FALSE);
  priv = xrt_backend_get_instance_private (self);
  if (priv->view == NULL)
    {
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_CALL_ORDER, "%s: op ids before init", KLASS (self)->name);
      return FALSE;
    }
  if (KLASS (self)->runs_on_board && xrt_backend_is_applied (self))
    {
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_CALL_ORDER, "%s: op ids after apply", KLASS (self)->name);
      return FALSE;
    }
  net = xir_network_view_get_network (priv->view);
  only = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint k = 0; k < n; k++)
    {
      const XirOp *op = xir_network_get_op_by_id (net, op_ids[k]);
      gint64 *key;
      guint start = xir_network_view_get_start (priv->view);

      if (op == NULL || op->index < start || op->index >= start + xir_network_view_get_n_ops (priv->view))
        {
          g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_INVALID_ARGUMENT,
                       "%s: op_ids[%u]: op %" G_GINT64_FORMAT " is not in the backend's view of %s", KLASS (self)->name,
                       k, op_ids[k], xir_network_get_path (net));
          g_hash_table_unref (only);
          return FALSE;
        }
      /* a board backend deploys every op of its view: it takes them all or a run of them */
      if (KLASS (self)->runs_on_board && k > 0 && op->index != xir_network_get_op_by_id (net, op_ids[k - 1])->index + 1)
        {
          g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_INVALID_ARGUMENT,
                       "%s: op_ids[%u]: op %" G_GINT64_FORMAT " does not follow op %" G_GINT64_FORMAT " in %s: a board "
                       "backend's ops are a run of consecutive ops (its launches deploy them together)",
                       KLASS (self)->name, k, op_ids[k], op_ids[k - 1], xir_network_get_path (net));
          g_hash_table_unref (only);
          return FALSE;
        }
      key = g_new (gint64, 1);
      *key = op_ids[k];
      g_hash_table_add (only, key);
    }
  g_clear_pointer (&priv->only, g_hash_table_unref);
  priv->only = only;
  return TRUE;
}

gboolean
xrt_backend_is_applied (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->is_applied (self);
}

gboolean
xrt_backend_apply (XrtBackend *self, GError **error)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->apply (self, error);
}

gboolean
xrt_backend_apply_with_plan (XrtBackend *self, const ZwDeployReport *plan, GError **error)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  if (KLASS (self)->apply_with_plan == NULL)
    {
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_UNSUPPORTED, "%s: has no plan to restore",
                   KLASS (self)->name);
      return FALSE;
    }
  return KLASS (self)->apply_with_plan (self, plan, error);
}

XrtBackend *
xrt_backend_fork (XrtBackend *self, GError **error)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), NULL);
  if (KLASS (self)->fork == NULL)
    return xrt_backend_new (KLASS (self)->name, xrt_backend_get_view (self), xrt_backend_get_device (self), error);
  return KLASS (self)->fork (self, error);
}

ZwDeployReport *
xrt_backend_get_report (XrtBackend *self)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), NULL);
  return KLASS (self)->get_report (self);
}

gboolean
xrt_backend_get_value_place (XrtBackend *self, gint64 v_id, const char **region, guint64 *addr)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->get_value_place (self, v_id, region, addr);
}

gboolean
xrt_backend_can_read_back (XrtBackend *self, const char *region)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->can_read_back (self, region);
}

double
xrt_backend_copy_ms (XrtBackend *self, guint64 bytes)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), 0);
  return KLASS (self)->copy_ms (self, bytes);
}

gboolean
xrt_backend_value_is_connected (XrtBackend *self, gint64 v_id)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->value_is_connected (self, v_id);
}

void
xrt_backend_set_connected_values (XrtBackend *self, const gint64 *v_ids, guint n)
{
  g_return_if_fail (XRT_IS_BACKEND (self));
  g_return_if_fail (v_ids != NULL || n == 0);
  KLASS (self)->set_connected_values (self, v_ids, n);
}

void
xrt_backend_forward_begin (XrtBackend *self)
{
  g_return_if_fail (XRT_IS_BACKEND (self));
  KLASS (self)->forward_begin (self);
}

void
xrt_backend_forward_end (XrtBackend *self)
{
  g_return_if_fail (XRT_IS_BACKEND (self));
  KLASS (self)->forward_end (self);
}

gboolean
xrt_backend_run_launch (XrtBackend *self, guint index, gint64 after_op_id, gint64 until_op_id, XrtStepTime *time,
                        GError **error)
{
  XrtStepTime ignored = { .measured_ms = -1 };

  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  if (KLASS (self)->run_launch == NULL)
    {
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_UNSUPPORTED, "%s runs no launches", KLASS (self)->name);
      return FALSE;
    }
  return KLASS (self)->run_launch (self, index, after_op_id, until_op_id, time ? time : &ignored, error);
}

gboolean
xrt_backend_can_resume_launch (XrtBackend *self, guint index, gint64 after_op_id)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->can_resume_launch (self, index, after_op_id);
}

gboolean
xrt_backend_bind_output (XrtBackend *self, gint64 v_id, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  return KLASS (self)->bind_output (self, v_id, chunk, offset, error);
}

void
xrt_backend_unbind_outputs (XrtBackend *self)
{
  g_return_if_fail (XRT_IS_BACKEND (self));
  KLASS (self)->unbind_outputs (self);
}

gboolean
xrt_backend_run_op (XrtBackend *self, const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                    XrtStepTime *time, GError **error)
{
  XrtStepTime ignored = { .measured_ms = -1 };

  g_return_val_if_fail (XRT_IS_BACKEND (self), FALSE);
  if (KLASS (self)->run_op == NULL)
    {
      g_set_error (error, XRT_BACKEND_ERROR, XRT_BACKEND_ERROR_UNSUPPORTED, "%s computes no op on the host",
                   KLASS (self)->name);
      return FALSE;
    }
  return KLASS (self)->run_op (self, op, inputs, outputs, time ? time : &ignored, error);
}
