/* host-backend.c — HostBackend (host-backend.h). */
#include "backends/host/host-backend.h"
#include "backends/host/host-cost.h"
#include "backends/host/host-ops.h"
#include "devices/zg330-sim.h"
#include "devices/hardops/zg330-hardop-class.h"

struct _HostBackend {
  XrtBackend parent_instance;
  const Zg330Profile *profile;   /* the board's (owned by its device) or the built-in one */
  GHashTable *connected;         /* v_id set: values a connection carries on the board (the session's word) */
};

G_DEFINE_TYPE (HostBackend, host_backend, XRT_TYPE_BACKEND)

/* The profile that times host ops: the simulated board's, else the built-in one, so a
 * session without a simulated board still reports modelled, never measured, times. */
static const Zg330Profile *
builtin_profile (void)
{
  static Zg330Profile *builtin;

  if (g_once_init_enter (&builtin))
    g_once_init_leave (&builtin, zg330_profile_new_builtin ());
  return builtin;
}

static gboolean
host_backend_init_on (XrtBackend *backend, XirNetworkView *view, XrtDevice *device, GError **error)
{
  HostBackend *self = HOST_BACKEND (backend);

  (void) view, (void) error;
  self->profile = device != NULL && zg330_sim_is_sim (device) ? zg330_sim_get_profile (device) : builtin_profile ();
  return TRUE;
}

/* The host ops, and every HardOp of a kind in the table (the host reference run). */
static gboolean
host_takes (const XirOp *op)
{
  return host_op_supported (op)
         || (op->kind == XIR_OP_HARDOP && zg330_hardop_class_lookup (op->hard_class, NULL) != NULL);
}

static gboolean
host_backend_supports_op (const XirOp *op)
{
  return op != NULL && host_takes (op);
}

static gboolean
host_backend_owns_op (XrtBackend *backend, gint64 op_id)
{
  XirNetworkView *view = xrt_backend_get_view (backend);
  const XirOp *op = view ? xir_network_get_op_by_id (xir_network_view_get_network (view), op_id) : NULL;

  return op != NULL && host_takes (op);
}

/* A HardOp on the host: the board's kernels over the session's buffers, its params from the
 * network (the .raw, or synthetic params), timed by the host cost model. */
static gboolean
run_hardop (HostBackend *self, const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
            HostOpCost *cost, GError **error)
{
  XirNetwork *net = xir_network_view_get_network (xrt_backend_get_view (XRT_BACKEND (self)));
  g_autofree const guint8 **params = g_new0 (const guint8 *, MAX (op->params->len, 1));
  Zg330HardopDesc desc;

  if (!zg330_hardop_class_describe (op, &desc, error))
    return FALSE;
  for (guint k = 0; k < op->params->len; k++)
    params[k] = xir_network_get_params_data (net, g_ptr_array_index (op->params, k));
  if (!zg330_hardop_run_host (&desc, inputs, params, outputs, error))
    return FALSE;
  host_hardop_cost (&desc, self->profile, cost);
  return TRUE;
}

/* The session's word, as a forward begins: these values never pass the host. */
static void
host_backend_set_connected_values (XrtBackend *backend, const gint64 *v_ids, guint n)
{
  HostBackend *self = HOST_BACKEND (backend);

  g_hash_table_remove_all (self->connected);
  for (guint k = 0; k < n; k++)
    {
      gint64 *key = g_new (gint64, 1);
      *key = v_ids[k];
      g_hash_table_add (self->connected, key);
    }
}

/* An Input or Output op copies the bytes of its values between the caller and the board,
 * but not those of a value a connection carries on the board (zero-copy or staged): the
 * bytes that pass the host are the rest. */
static guint64
io_host_bytes (HostBackend *self, const XirOp *op)
{
  GPtrArray *values = op->kind == XIR_OP_INPUT ? op->outputs : op->inputs;
  guint64 n = 0;

  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      if (!g_hash_table_contains (self->connected, &v->v_id))
        n += v->storage_bytes;
    }
  return n;
}

/* Input and Output only cost (the session moves their bytes); the others compute. */
static gboolean
host_backend_run_op (XrtBackend *backend, const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                     XrtStepTime *time, GError **error)
{
  HostBackend *self = HOST_BACKEND (backend);
  HostOpCost cost = { 0 };
  gboolean ok;

  if (op->kind == XIR_OP_HARDOP)
    ok = run_hardop (self, op, inputs, outputs, &cost, error);
  else if (op->kind == XIR_OP_INPUT || op->kind == XIR_OP_OUTPUT)
    ok = host_io_op_cost (op, self->profile, io_host_bytes (self, op), &cost, error);
  else if (g_strcmp0 (op->type_key, "customop::ImageMake") == 0)
    {
      /* the channel order is the network's (its tags' bgr_order), which the op alone lacks */
      XirNetworkView *view = xrt_backend_get_view (backend);
      ok = host_image_make_run (op, xir_network_get_tags (xir_network_view_get_network (view)), inputs[0], outputs[0],
                                error)
           && host_op_cost (op, self->profile, NULL, &cost, error);
    }
  else
    ok = host_op_run_costed (op, inputs, outputs, self->profile, &cost, error);
  time->hard_ms = cost.hard_ms;
  time->other_ms = cost.other_ms;
  return ok;
}

static void
host_backend_finalize (GObject *object)
{
  g_hash_table_unref (HOST_BACKEND (object)->connected);
  G_OBJECT_CLASS (host_backend_parent_class)->finalize (object);
}

static void
host_backend_class_init (HostBackendClass *klass)
{
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = host_backend_finalize;

  bclass->name = "HostBackend";
  bclass->short_name = "Host";
  bclass->runs_on_board = FALSE;
  bclass->supports_op = host_backend_supports_op;
  bclass->init = host_backend_init_on;
  bclass->owns_op = host_backend_owns_op;
  bclass->run_op = host_backend_run_op;
  bclass->set_connected_values = host_backend_set_connected_values;
}

static void
host_backend_init (HostBackend *self)
{
  self->profile = builtin_profile ();
  self->connected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

__attribute__ ((constructor)) static void
register_host_backend (void)
{
  xrt_backend_register (HOST_TYPE_BACKEND);
}
