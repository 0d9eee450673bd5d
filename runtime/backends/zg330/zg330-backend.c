/* zg330-backend.c — the ZG330Backend type: its instance's lifetime, the accessors and the
 * Backend interface (xrt-backend.h) over the parts named in zg330-backend-private.h. */
#include "backends/zg330/zg330-backend-private.h"
#include "devices/zg330-sim.h"

G_DEFINE_QUARK (zg330-backend-error-quark, zg330_backend_error)

static gint backend_counter;

static void
connection_free (gpointer p)
{
  Connection *cn = p;
  xrt_mem_chunk_unref (cn->chunk);
  g_free (cn);
}

static void
bchunk_clear (gpointer p)
{
  BChunk *c = p;
  g_clear_pointer (&c->values, g_ptr_array_unref);
  g_clear_pointer (&c->io_chunk, xrt_mem_chunk_unref);
  g_clear_pointer (&c->io_caller, xrt_mem_chunk_unref);
}

static void
blaunch_clear (gpointer p)
{
  g_clear_pointer (&((BLaunch *) p)->merge_from, g_array_unref);
}

gboolean
zg330_backend_supports_op (const XirOp *op)
{
  return op != NULL && op->kind == XIR_OP_HARDOP && op->target.kind == XIR_TARGET_ZHUGE;
}

G_DEFINE_TYPE (Zg330Backend, zg330_backend, XRT_TYPE_BACKEND)

static void
zg330_backend_init (Zg330Backend *self)
{
  self->id = g_atomic_int_add (&backend_counter, 1);
  self->hardops = g_ptr_array_new ();
  self->hardop_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->chunks = g_array_new (FALSE, TRUE, sizeof (BChunk));
  g_array_set_clear_func (self->chunks, bchunk_clear);
  self->chunk_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->user_connect = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, connection_free);
  self->launches = g_array_new (FALSE, TRUE, sizeof (BLaunch));
  self->part_launch = -1;
  g_array_set_clear_func (self->launches, blaunch_clear);
  g_mutex_init (&self->options_lock);
}

Zg330Backend *
zg330_backend_new (XirNetworkView *view, XrtDevice *device, GError **error)
{
  CHECK_ARG (view != NULL, "view", NULL);
  CHECK_ARG (device != NULL, "device", NULL);
  return (Zg330Backend *) xrt_backend_new_of_type (ZG330_TYPE_BACKEND, view, device, error);
}

Zg330Backend *
zg330_backend_ref (Zg330Backend *self)
{
  return g_object_ref (self);
}

void
zg330_backend_unref (Zg330Backend *self)
{
  if (self != NULL)
    g_object_unref (self);
}

static void
zg330_backend_finalize (GObject *object)
{
  Zg330Backend *self = ZG330_BACKEND (object);

  zg330_backend_program_release (self);
  for (guint i = 0; i < ZW_N_SEGMENTS; i++)
    {
      g_clear_pointer (&self->user_segment[i], xrt_mem_chunk_unref);
      g_clear_pointer (&self->phy[i], xrt_mem_chunk_unref);
      zg330_backend_segment_owner_release (self->segment_key[i]);
      g_free (self->segment_key[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (self->option_picks); i++)
    g_clear_pointer (&self->option_picks[i], g_array_unref);
  zg330_ocm_result_clear (&self->ocm_result);
  g_mutex_clear (&self->options_lock);
  g_clear_pointer (&self->chunks, g_array_unref);
  g_clear_pointer (&self->launches, g_array_unref);
  g_hash_table_unref (self->user_connect);
  g_clear_pointer (&self->alias, g_hash_table_unref);
  g_hash_table_unref (self->chunk_of);
  g_hash_table_unref (self->hardop_index);
  g_ptr_array_unref (self->hardops);
  g_free (self->descs);
  g_free (self->weight_offset);
  g_free (self->instr_offset);
  g_free (self->instr_size);
  g_free (self->etm_method);
  g_clear_pointer (&self->device, xrt_device_unref);
  g_clear_pointer (&self->net, xir_network_unref);
  g_clear_pointer (&self->view, xir_network_view_unref);
  G_OBJECT_CLASS (zg330_backend_parent_class)->finalize (object);
}

XirNetworkView *zg330_backend_get_view (Zg330Backend *self) { return self->view; }
XrtDevice *zg330_backend_get_device (Zg330Backend *self) { return self->device; }
gint zg330_backend_get_id (Zg330Backend *self) { return self->id; }
gboolean zg330_backend_is_applied (Zg330Backend *self) { return self->applied; }
gboolean zg330_backend_get_merge_hardop (Zg330Backend *self) { return self->merge_hardop; }
gboolean zg330_backend_get_etm_optimize (Zg330Backend *self) { return self->etm_optimize; }
ZwOcmOpt zg330_backend_get_ocm_opt (Zg330Backend *self) { return self->applied ? self->ocm_chosen : self->ocm_requested; }

gboolean
zg330_backend_owns_op (Zg330Backend *self, gint64 op_id)
{
  return g_hash_table_contains (self->hardop_index, &op_id);
}

/* ---- the Backend interface ------------------------------------------------------------ */

static gboolean
vf_owns_op (XrtBackend *b, gint64 op_id)
{
  return zg330_backend_owns_op (ZG330_BACKEND (b), op_id);
}

static gboolean
vf_is_applied (XrtBackend *b)
{
  return zg330_backend_is_applied (ZG330_BACKEND (b));
}

static gboolean
vf_apply (XrtBackend *b, GError **error)
{
  return zg330_backend_apply (ZG330_BACKEND (b), error);
}

static gboolean
vf_apply_with_plan (XrtBackend *b, const ZwDeployReport *plan, GError **error)
{
  return zg330_backend_apply_with_plan (ZG330_BACKEND (b), plan, error);
}

static XrtBackend *
vf_fork (XrtBackend *b, GError **error)
{
  return (XrtBackend *) zg330_backend_fork (ZG330_BACKEND (b), error);
}

static ZwDeployReport *
vf_get_report (XrtBackend *b)
{
  return zg330_backend_get_report (ZG330_BACKEND (b));
}

static gboolean
vf_get_value_place (XrtBackend *b, gint64 v_id, const char **region_name, guint64 *addr)
{
  return zg330_backend_get_value_place (ZG330_BACKEND (b), v_id, region_name, addr);
}

static gboolean
vf_can_read_back (XrtBackend *b, const char *region_name)
{
  return g_ascii_strcasecmp (region_name, "OCM") != 0 || ZG330_BACKEND_GET_CLASS (b)->ocm_read_back;
}

/* host <-> board copies at the profile's ETM bandwidth */
static double
vf_copy_ms (XrtBackend *b, guint64 bytes)
{
  const Zg330Profile *p = zg330_sim_get_profile (ZG330_BACKEND (b)->device);
  return p && p->etm_bandwidth > 0 ? (double) bytes / p->etm_bandwidth * 1e3 : 0;
}

/* a userConnectNetwork value, zero-copy or staged: no host transfer carries it */
static gboolean
vf_value_is_connected (XrtBackend *b, gint64 v_id)
{
  return g_hash_table_contains (ZG330_BACKEND (b)->user_connect, &v_id);
}

static void
vf_forward_begin (XrtBackend *b)
{
  zg330_backend_forward_begin (ZG330_BACKEND (b));
}

static void
vf_forward_end (XrtBackend *b)
{
  zg330_backend_forward_end (ZG330_BACKEND (b));
}

static gboolean
vf_run_launch (XrtBackend *b, guint index, gint64 after_op_id, gint64 until_op_id, XrtStepTime *time, GError **error)
{
  Zg330Backend *self = ZG330_BACKEND (b);
  double icore = 0, sync = 0;
  gboolean ok;

  if (after_op_id < 0 && until_op_id < 0
      && (index >= self->launches->len || g_array_index (self->launches, BLaunch, index).merge_from->len <= 1))
    ok = zg330_backend_run_launch (self, index, &icore, &sync, error);
  else
    ok = zg330_backend_run_launch_part (self, index, after_op_id, until_op_id, NULL, &icore, &sync, error);
  time->hard_ms = icore;
  time->other_ms = sync;
  time->measured_ms = -1;
  time->memcpy_ms = ok ? self->staged_ms : 0;
  return ok;
}

static gboolean
vf_can_resume_launch (XrtBackend *b, guint index, gint64 after_op_id)
{
  return zg330_backend_can_resume_launch (ZG330_BACKEND (b), index, after_op_id);
}

static gboolean
vf_bind_output (XrtBackend *b, gint64 v_id, XrtMemChunk *chunk, guint64 offset, GError **error)
{
  Zg330BackendClass *klass = ZG330_BACKEND_GET_CLASS (b);
  XirValue *v = xir_network_get_value (ZG330_BACKEND (b)->net, v_id);

  /* a value of another backend (a host op's output): not this backend's to refuse */
  if (v == NULL || chunk_for_value (ZG330_BACKEND (b), v) == NULL)
    return FALSE;
  if (!klass->outputs_at_user_addresses)
    {
      g_set_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_UNSUPPORTED,
                   "forward(inputs, outputs): the %s cannot write outputs at user addresses (v_id %" G_GINT64_FORMAT
                   "): give host tensors, or use the outputs forward() returns", XRT_BACKEND_CLASS (klass)->name, v_id);
      return FALSE;
    }
  return zg330_backend_bind_output (ZG330_BACKEND (b), v_id, chunk, offset);
}

static void
vf_unbind_outputs (XrtBackend *b)
{
  zg330_backend_unbind_outputs (ZG330_BACKEND (b));
}

static void
zg330_backend_class_init (Zg330BackendClass *klass)
{
  XrtBackendClass *bclass = XRT_BACKEND_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = zg330_backend_finalize;
  bclass->name = "ZG330Backend";
  bclass->short_name = "ZG330";
  bclass->runs_on_board = TRUE;
  bclass->reports_io_process = TRUE;
  bclass->default_device_url = "mock://zg330";
  bclass->supports_op = zg330_backend_supports_op;
  bclass->init = zg330_backend_init_view;
  bclass->owns_op = vf_owns_op;
  bclass->is_applied = vf_is_applied;
  bclass->apply = vf_apply;
  bclass->apply_with_plan = vf_apply_with_plan;
  bclass->fork = vf_fork;
  bclass->get_report = vf_get_report;
  bclass->get_value_place = vf_get_value_place;
  bclass->can_read_back = vf_can_read_back;
  bclass->copy_ms = vf_copy_ms;
  bclass->forward_begin = vf_forward_begin;
  bclass->forward_end = vf_forward_end;
  bclass->value_is_connected = vf_value_is_connected;
  bclass->run_launch = vf_run_launch;
  bclass->can_resume_launch = vf_can_resume_launch;
  bclass->bind_output = vf_bind_output;
  bclass->unbind_outputs = vf_unbind_outputs;
  klass->chip = "ZG330";
  klass->target = "@zhuget(330)";
  klass->device_name = "zg330";
  klass->default_merge_hardop = TRUE;
  klass->default_etm_optimize = TRUE;
  klass->has_ocm_options = TRUE;
  klass->outputs_at_user_addresses = TRUE;
  klass->ocm_read_back = TRUE;
}

__attribute__ ((constructor)) static void
register_zg330_backend (void)
{
  xrt_backend_register (ZG330_TYPE_BACKEND);
}
