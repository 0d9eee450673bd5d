/* xrt-pipeline.c — several networks deployed on one board (see xrt-pipeline.h): opening
 * the networks a pipeline file names, applying them with their shared segments and
 * connections, one pass. The file is read in xrt-pipeline-file.c, the report in
 * xrt-pipeline-report.c. */
#include "deploy/xrt-pipeline-private.h"

#include "backends/zg330/zg330-backend.h"
#include "base/zw-file-read.h"

#include <string.h>

G_DEFINE_QUARK (xrt-pipeline-error-quark, xrt_pipeline_error)

G_DEFINE_FINAL_TYPE (XrtPipeline, xrt_pipeline, G_TYPE_OBJECT)

static void
member_clear (XrtPipelineMember *m)
{
  g_clear_object (&m->deployment);
  g_clear_pointer (&m->outputs, g_ptr_array_unref);
}

static void
link_clear (XrtPipelineLink *l)
{
  g_clear_pointer (&l->chunk, xrt_mem_chunk_unref);
  g_free (l->name);
}

static void
shared_clear (XrtPipelineShared *s)
{
  g_clear_pointer (&s->chunk, xrt_mem_chunk_unref);
  g_free (s->share);
}

static void
xrt_pipeline_finalize (GObject *object)
{
  XrtPipeline *self = XRT_PIPELINE (object);

  /* the sessions first, then the chunks they use, then the board */
  g_clear_pointer (&self->members, g_array_unref);
  g_clear_pointer (&self->links, g_array_unref);
  g_clear_pointer (&self->shared, g_array_unref);
  g_clear_pointer (&self->device, xrt_device_unref);
  g_clear_pointer (&self->spec, xrt_pipeline_spec_free);
  g_free (self->dump_dir);
  g_free (self->dump_format);
  G_OBJECT_CLASS (xrt_pipeline_parent_class)->finalize (object);
}

static void
xrt_pipeline_class_init (XrtPipelineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = xrt_pipeline_finalize;
}

static void
xrt_pipeline_init (XrtPipeline *self)
{
  self->members = g_array_new (FALSE, TRUE, sizeof (XrtPipelineMember));
  g_array_set_clear_func (self->members, (GDestroyNotify) member_clear);
  self->links = g_array_new (FALSE, TRUE, sizeof (XrtPipelineLink));
  g_array_set_clear_func (self->links, (GDestroyNotify) link_clear);
  self->shared = g_array_new (FALSE, TRUE, sizeof (XrtPipelineShared));
  g_array_set_clear_func (self->shared, (GDestroyNotify) shared_clear);
}

static gboolean
fail_at (GError **error, XrtPipelineError code, XrtPipeline *self, const char *table, const char *name,
         const char *key, const char *fmt, ...) G_GNUC_PRINTF (7, 8);

static gboolean
fail_at (GError **error, XrtPipelineError code, XrtPipeline *self, const char *table, const char *name,
         const char *key, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, XRT_PIPELINE_ERROR, code, "%s: [%s.%s] %s: %s", self->spec->origin, table, name, key, msg);
  return FALSE;
}

/* The value an end of a connection names: a view's output (or input) by position or v_id. */
static XirValue *
resolve_end (XrtPipeline *self, const XrtPipelineConnect *c, gboolean output, XirNetworkView *view, GError **error)
{
  GPtrArray *list = output ? xir_network_view_get_outputs (view) : xir_network_view_get_inputs (view);
  gboolean by_id = output ? c->output_by_id : c->input_by_id;
  gint64 index = output ? c->output_index : c->input_index;
  gint64 v_id = output ? c->output_id : c->input_id;
  const char *net = output ? c->from : c->to;
  const char *what = output ? "output" : "input";

  if (!by_id)
    {
      if ((guint64) index >= list->len)
        {
          fail_at (error, XRT_PIPELINE_ERROR_REFERENCE, self, "connect", c->name, what,
                   "%s %" G_GINT64_FORMAT ": \"%s\" has %u %ss", what, index, net, list->len, what);
          return NULL;
        }
      return g_ptr_array_index (list, index);
    }
  for (guint i = 0; i < list->len; i++)
    if (((XirValue *) g_ptr_array_index (list, i))->v_id == v_id)
      return g_ptr_array_index (list, i);
  {
    g_autofree char *key = g_strdup_printf ("%s_id", what);
    fail_at (error, XRT_PIPELINE_ERROR_REFERENCE, self, "connect", c->name, key,
             "v_id %" G_GINT64_FORMAT " is not an %s of \"%s\"", v_id, what, net);
  }
  return NULL;
}

/* Opens the networks (one XirNetwork per JSON and params file: views of one network share
 * it, and with it their WEIGHT and INSTR bytes) and checks what needs them: views,
 * connections' values and sizes, WEIGHT/INSTR shares. */
static gboolean
open_networks (XrtPipeline *self, GError **error)
{
  XrtPipelineSpec *spec = self->spec;
  g_autoptr (GHashTable) nets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) xir_network_unref);

  for (guint i = 0; i < spec->nets->len; i++)
    {
      XrtPipelineNet *n = g_ptr_array_index (spec->nets, i);
      g_autofree char *raw = n->raw ? g_strdup (n->raw) : xrt_deployment_params_path_for (n->json);
      gboolean synthetic = n->raw == NULL && !g_file_test (raw, G_FILE_TEST_IS_REGULAR);
      g_autofree char *key = g_strdup_printf ("%s\n%s", n->json, synthetic ? "" : raw);
      XirNetwork *net = g_hash_table_lookup (nets, key);
      XrtPipelineMember m = { 0 };
      gboolean fresh = net == NULL;

      if (net == NULL)
        {
          g_autoptr (GError) local = NULL;
          if ((net = xir_network_new_from_json_file (n->json, &local)) == NULL)
            {
              g_autofree char *group = g_strdup_printf ("network.%s", n->name);
              g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_REFERENCE, "%s: [%s] json: %s", spec->origin,
                           group, local->message);
              return FALSE;
            }
          g_hash_table_insert (nets, g_steal_pointer (&key), net);
        }
      m.name = n->name;
      m.spec = n;
      if (n->has_ops)
        {
          g_autoptr (GError) local = NULL;
          g_autoptr (XirNetworkView) view = xir_network_view (net, n->ops[0], n->ops[1], &local);
          if (view == NULL)
            return fail_at (error, XRT_PIPELINE_ERROR_REFERENCE, self, "network", n->name, "ops", "%s", local->message);
          m.deployment = xrt_deployment_new_for_view (view);
        }
      else if ((m.deployment = xrt_deployment_new (net, error)) == NULL)
        return FALSE;
      g_array_append_val (self->members, m);
      if (!fresh)
        continue;
      if (synthetic)
        xrt_deployment_use_synthetic_params (m.deployment);
      else
        {
          g_autoptr (GError) local = NULL;
          if (!xrt_deployment_load_params (m.deployment, raw, 0, FALSE, &local))
            return fail_at (error, XRT_PIPELINE_ERROR_REFERENCE, self, "network", n->name, n->raw ? "raw" : "json",
                            "%s", local->message);
        }
    }
  for (guint k = 0; k < spec->connects->len; k++)
    {
      XrtPipelineConnect *c = g_ptr_array_index (spec->connects, k);
      guint from, to;
      XirValue *out, *in;

      xrt_pipeline_spec_find (spec, c->from, &from);
      xrt_pipeline_spec_find (spec, c->to, &to);
      if (c->every)
        {
          XirNetworkView *vf = xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, from)->deployment);
          XirNetworkView *vt = xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, to)->deployment);
          GPtrArray *outs = xir_network_view_get_outputs (vf), *ins = xir_network_view_get_inputs (vt);
          guint n = 0;

          if (xir_network_view_get_network (vf) != xir_network_view_get_network (vt))
            return fail_at (error, XRT_PIPELINE_ERROR_RULE, self, "connect", c->name, "output",
                            "\"%s\" and \"%s\" are different networks: give the ends (output or output_id, input "
                            "or input_id); only views of one network connect every value by itself", c->from, c->to);
          for (guint i = 0; i < ins->len; i++)
            if (g_ptr_array_find (outs, g_ptr_array_index (ins, i), NULL))
              {
                XrtPipelineLink l = { .connect = c, .from = from, .to = to };
                l.output = l.input = g_ptr_array_index (ins, i);
                l.name = g_strdup_printf ("%s.v%" G_GINT64_FORMAT, c->name, l.input->v_id);
                g_array_append_val (self->links, l);
                n++;
              }
          if (n == 0)
            return fail_at (error, XRT_PIPELINE_ERROR_RULE, self, "connect", c->name, "to",
                            "\"%s\" reads nothing \"%s\" writes", c->to, c->from);
          continue;
        }
      if ((out = resolve_end (self, c, TRUE, xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, from)->deployment),
                              error)) == NULL
          || (in = resolve_end (self, c, FALSE, xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, to)->deployment),
                                error)) == NULL)
        return FALSE;
      if (out->storage_bytes != in->storage_bytes)
        return fail_at (error, XRT_PIPELINE_ERROR_RULE, self, "connect", c->name, c->input_by_id ? "input_id" : "input",
                        "values of different sizes: \"%s\" output v_id %" G_GINT64_FORMAT " holds %" G_GUINT64_FORMAT
                        " bytes, \"%s\" input v_id %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT,
                        c->from, out->v_id, out->storage_bytes, c->to, in->v_id, in->storage_bytes);
      for (guint j = 0; j < self->links->len; j++)
        {
          XrtPipelineLink *o = &g_array_index (self->links, XrtPipelineLink, j);
          if (o->to == to && o->input == in)
            return fail_at (error, XRT_PIPELINE_ERROR_RULE, self, "connect", c->name, "input",
                            "\"%s\" input v_id %" G_GINT64_FORMAT " is fed by [connect.%s] already", c->to, in->v_id,
                            o->connect->name);
        }
      {
        XrtPipelineLink l = { .connect = c, .from = from, .to = to, .output = out, .input = in };
        l.name = g_strdup (c->name);
        g_array_append_val (self->links, l);
      }
    }
  for (guint k = 0; k < spec->shares->len; k++)
    {
      XrtPipelineShare *s = g_ptr_array_index (spec->shares, k);
      XirNetworkView *first = NULL;
      if (!s->segments[ZW_SEGMENT_WEIGHT] && !s->segments[ZW_SEGMENT_INSTR])
        continue;
      for (guint j = 0; j < s->networks->len; j++)
        {
          guint idx;
          XirNetworkView *view;
          xrt_pipeline_spec_find (spec, g_ptr_array_index (s->networks, j), &idx);
          view = xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, idx)->deployment);
          if (first == NULL)
            first = view;
          else if (xir_network_view_get_network (view) != xir_network_view_get_network (first)
                   || xir_network_view_get_start (view) != xir_network_view_get_start (first)
                   || xir_network_view_get_n_ops (view) != xir_network_view_get_n_ops (first))
            return fail_at (error, XRT_PIPELINE_ERROR_RULE, self, "share", s->name, "segments",
                            "WEIGHT and INSTR hold the bytes of one network's ops: they are shared only between "
                            "copies of the same network and ops (one json, raw and ops); \"%s\" and \"%s\" differ "
                            "(FTMP may be shared)", (char *) g_ptr_array_index (s->networks, 0),
                            (char *) g_ptr_array_index (s->networks, j));
        }
    }
  return TRUE;
}

XrtPipeline *
xrt_pipeline_new_from_data (const char *data, gsize length, const char *origin, gboolean open, GError **error)
{
  g_autoptr (XrtPipeline) self = NULL;
  XrtPipelineSpec *spec;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (origin != NULL, NULL);
  if ((spec = xrt_pipeline_spec_parse (data ? data : "", length, origin, error)) == NULL)
    return NULL;
  self = g_object_new (XRT_TYPE_PIPELINE, NULL);
  self->spec = spec;
  if (open && !open_networks (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

XrtPipeline *
xrt_pipeline_new_from_file (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_RUN_CONFIG, 0, &text, &len, error))
    return NULL;
  return xrt_pipeline_new_from_data (text, len, path, TRUE, error);
}

const char *
xrt_pipeline_get_name (XrtPipeline *self)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  return self->spec->name;
}

guint
xrt_pipeline_get_n_networks (XrtPipeline *self)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), 0);
  return self->spec->nets->len;
}

const char *
xrt_pipeline_get_network_name (XrtPipeline *self, guint index)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (index < self->spec->nets->len, NULL);
  return ((XrtPipelineNet *) g_ptr_array_index (self->spec->nets, index))->name;
}

XrtDeployment *
xrt_pipeline_get_deployment (XrtPipeline *self, guint index)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  if (index >= self->members->len)
    return NULL;
  return XRT_PIPELINE_MEMBER (self, index)->deployment;
}

void
xrt_pipeline_force_staged (XrtPipeline *self)
{
  g_return_if_fail (XRT_IS_PIPELINE (self));
  self->force_staged = TRUE;
}

XrtDevice *
xrt_pipeline_get_device (XrtPipeline *self)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  return self->device;
}

static gboolean
set_options (XrtPipelineMember *m)
{
  const XrtPipelineNet *n = m->spec;

  if (n->merge_hardop == 0)
    xrt_deployment_disable_merge_hardop (m->deployment);
  if (n->etm_optimize == 0)
    xrt_deployment_disable_etm_optimize (m->deployment);
  if (n->ocm_given)
    xrt_deployment_ocm_optimize (m->deployment, n->ocm);
  return TRUE;
}

static Zg330Backend *
board_backend (XrtPipelineMember *m, XrtPipeline *self, GError **error)
{
  XrtSession *sess = xrt_deployment_get_session (m->deployment);
  XrtBackend *b = sess ? xrt_session_get_board_backend (sess) : NULL;

  if (b == NULL || !ZG330_IS_BACKEND (b))
    {
      fail_at (error, XRT_PIPELINE_ERROR_RULE, self, "network", m->name, "json",
               "no op of the network runs on a board backend: it cannot share segments or be connected on the board");
      return NULL;
    }
  return ZG330_BACKEND (b);
}

/* The bytes a connection's chunk takes at one end: the value's whole compiler chunk when
 * the value starts it (the backend makes the value zero-copy then: the user's chunk
 * becomes the compiler chunk's home), else the value's own bytes (it is staged anyway). */
static guint64
connect_bytes (XrtPipelineMember *m, const XirValue *v)
{
  g_autoptr (ZwDeployReport) r = xrt_deployment_get_report (m->deployment);
  const ZwValueInfo *vi = r ? zw_deploy_report_find_value (r, v->v_id) : NULL;
  guint64 size = v->storage_bytes;

  if (vi == NULL || vi->chunk < 0 || vi->chunk_offset != 0)
    return size;
  for (guint k = 0; k < r->values->len; k++)
    {
      const ZwValueInfo *o = &g_array_index (r->values, ZwValueInfo, k);
      if (o->chunk == vi->chunk && o->chunk_offset <= G_MAXUINT64 - o->byte_size)
        size = MAX (size, o->chunk_offset + o->byte_size);
    }
  return size;
}

static gboolean apply_on (XrtPipeline *self, GError **error);

/* Apply once, on networks that were opened. */
static gboolean
can_apply (XrtPipeline *self, GError **error)
{
  if (self->members->len == 0)
    return fail_at (error, XRT_PIPELINE_ERROR_CALL_ORDER, self, "pipeline", self->spec->name, "networks",
                    "the networks were not opened (the file was only checked)");
  if (self->applied)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER, "%s: applied already", self->spec->origin);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrt_pipeline_apply (XrtPipeline *self, const char *device_url, GError **error)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), FALSE);
  if (!can_apply (self, error))
    return FALSE;
  if (device_url == NULL)
    device_url = self->spec->device;
  if (device_url == NULL)
    device_url = xrt_deployment_get_target_url (XRT_PIPELINE_MEMBER (self, 0)->deployment);
  if ((self->device = xrt_device_open (device_url ? device_url : "mock://zg330", error)) == NULL)
    return FALSE;
  return apply_on (self, error);
}

gboolean
xrt_pipeline_apply_on_board (XrtPipeline *self, XrtDevice *device, GError **error)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (device != NULL, FALSE);
  if (!can_apply (self, error))
    return FALSE;
  self->device = xrt_device_ref (device);
  return apply_on (self, error);
}

/* Applies every network on self->device (opened or lent). */
static gboolean
apply_on (XrtPipeline *self, GError **error)
{
  XrtMemRegion *etm = xrt_device_get_default_mem_region (self->device);

  for (guint i = 0; i < self->members->len; i++)
    {
      XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
      Zg330Backend *b;

      set_options (m);
      if (!xrt_deployment_use_board (m->deployment, self->device, error) || !xrt_deployment_prepare (m->deployment, error))
        {
          g_prefix_error (error, "%s: network \"%s\": ", self->spec->origin, m->name);
          return FALSE;
        }
      /* a view of host ops only (a model cut around its host op): nothing on the board */
      if (!(m->on_board = xrt_session_get_board_backend (xrt_deployment_get_session (m->deployment)) != NULL))
        continue;
      if ((b = board_backend (m, self, error)) == NULL)
        return FALSE;
      /* what the network takes deployed apart: its own five segments */
      for (guint t = 0; t < ZW_N_SEGMENTS; t++)
        {
          g_autoptr (GError) local = NULL;
          guint64 size = zg330_backend_get_logic_segment_size (b, (ZwSegmentType) t, &local);
          if (local != NULL)
            {
              g_set_error (error, local->domain, local->code, "%s: network \"%s\": %s", self->spec->origin, m->name,
                           local->message);
              return FALSE;
            }
          m->apart[t] = size;
        }
    }
  /* shared segments: one chunk of the largest size, given to every network of the share */
  for (guint k = 0; k < self->spec->shares->len; k++)
    {
      XrtPipelineShare *s = g_ptr_array_index (self->spec->shares, k);
      for (guint t = 0; t < ZW_N_SEGMENTS; t++)
        {
          XrtPipelineShared sh = { 0 };
          guint64 size = 0;
          if (!s->segments[t])
            continue;
          for (guint j = 0; j < s->networks->len; j++)
            {
              guint idx;
              xrt_pipeline_spec_find (self->spec, g_ptr_array_index (s->networks, j), &idx);
              size = MAX (size, XRT_PIPELINE_MEMBER (self, idx)->apart[t]);
            }
          if ((sh.chunk = xrt_mem_region_malloc (etm, MAX (size, 4096), TRUE, 4096, error)) == NULL)
            {
              g_prefix_error (error, "%s: [share.%s] %s: ", self->spec->origin, s->name,
                              zw_segment_type_to_string ((ZwSegmentType) t));
              return FALSE;
            }
          sh.share = g_strdup (s->name);
          sh.type = (ZwSegmentType) t;
          sh.spec = s;
          for (guint j = 0; j < s->networks->len; j++)
            {
              guint idx;
              Zg330Backend *b;
              xrt_pipeline_spec_find (self->spec, g_ptr_array_index (s->networks, j), &idx);
              b = board_backend (XRT_PIPELINE_MEMBER (self, idx), self, error);
              if (b == NULL || !zg330_backend_user_reuse_segment (b, sh.chunk, (ZwSegmentType) t, error))
                {
                  g_prefix_error (error, "%s: [share.%s] networks: \"%s\": ", self->spec->origin, s->name,
                                  (char *) g_ptr_array_index (s->networks, j));
                  shared_clear (&sh);
                  return FALSE;
                }
            }
          g_array_append_val (self->shared, sh);
        }
    }
  /* connections: one chunk both ends live in */
  for (guint k = 0; k < self->links->len; k++)
    {
      XrtPipelineLink *l = &g_array_index (self->links, XrtPipelineLink, k);
      XrtPipelineMember *from = XRT_PIPELINE_MEMBER (self, l->from), *to = XRT_PIPELINE_MEMBER (self, l->to);
      gboolean staged = self->force_staged || l->connect->staged;
      Zg330Backend *bf, *bt;
      guint64 size;

      /* an end on the host: the tensor passes in host memory, as between any two sessions */
      if (!from->on_board || !to->on_board)
        {
          l->host = TRUE;
          continue;
        }
      if ((bf = board_backend (from, self, error)) == NULL || (bt = board_backend (to, self, error)) == NULL)
        return FALSE;
      /* a chunk of the value's own bytes cannot hold a larger compiler chunk: staged */
      size = staged ? l->output->storage_bytes : MAX (connect_bytes (from, l->output), connect_bytes (to, l->input));
      if ((l->chunk = xrt_mem_region_malloc (etm, MAX (size, 1), TRUE, 4096, error)) == NULL
          || !zg330_backend_user_connect_network_full (bf, l->chunk, l->output->v_id, staged, error)
          || !zg330_backend_user_connect_network_full (bt, l->chunk, l->input->v_id, staged, error))
        {
          g_prefix_error (error, "%s: [connect.%s]: ", self->spec->origin, l->name);
          return FALSE;
        }
    }
  for (guint i = 0; i < self->members->len; i++)
    {
      XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
      if (!xrt_deployment_apply (m->deployment, error))
        {
          g_prefix_error (error, "%s: network \"%s\": ", self->spec->origin, m->name);
          return FALSE;
        }
    }
  self->applied = TRUE;
  return TRUE;
}

void
xrt_pipeline_enable_time_profile (XrtPipeline *self, gboolean enable)
{
  g_return_if_fail (XRT_IS_PIPELINE (self));
  for (guint i = 0; self->applied && i < self->members->len; i++)
    xrt_session_enable_time_profile (xrt_deployment_get_session (XRT_PIPELINE_MEMBER (self, i)->deployment), enable);
  self->profile = enable;
}

gboolean
xrt_pipeline_input_link (XrtPipeline *self, guint i, guint pos_in, guint *from, guint *pos_out)
{
  XirValue *v = g_ptr_array_index (xir_network_view_get_inputs (xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, i)->deployment)), pos_in);

  for (guint k = 0; k < self->links->len; k++)
    {
      XrtPipelineLink *l = &g_array_index (self->links, XrtPipelineLink, k);
      XrtPipelineMember *up = XRT_PIPELINE_MEMBER (self, l->from);
      guint pos;
      if (l->to != i || l->input != v
          || !g_ptr_array_find (xir_network_view_get_outputs (xrt_deployment_get_view (up->deployment)), l->output, &pos))
        continue;
      *from = l->from;
      *pos_out = pos;
      return TRUE;
    }
  return FALSE;
}

/* Whether input @pos_in of member @i is fed by a connection; @src gets the upstream tensor. */
static gboolean
connected_input (XrtPipeline *self, guint i, guint pos_in, XrtTensor **src)
{
  guint from, pos_out;
  XrtPipelineMember *up;

  if (!xrt_pipeline_input_link (self, i, pos_in, &from, &pos_out))
    return FALSE;
  up = XRT_PIPELINE_MEMBER (self, from);
  if (src)
    *src = up->outputs && pos_out < up->outputs->len ? g_ptr_array_index (up->outputs, pos_out) : NULL;
  return TRUE;
}

GPtrArray *
xrt_pipeline_get_free_inputs (XrtPipeline *self)
{
  GPtrArray *out;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  out = g_ptr_array_new ();
  for (guint i = 0; i < self->members->len; i++)
    {
      GPtrArray *ins = xir_network_view_get_inputs (xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, i)->deployment));
      for (guint k = 0; k < ins->len; k++)
        if (!connected_input (self, i, k, NULL))
          g_ptr_array_add (out, g_ptr_array_index (ins, k));
    }
  return out;
}

guint
xrt_pipeline_get_free_input_network (XrtPipeline *self, guint index)
{
  guint n = 0;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), G_MAXUINT);
  for (guint i = 0; i < self->members->len; i++)
    {
      GPtrArray *ins = xir_network_view_get_inputs (xrt_deployment_get_view (XRT_PIPELINE_MEMBER (self, i)->deployment));
      for (guint k = 0; k < ins->len; k++)
        if (!connected_input (self, i, k, NULL) && n++ == index)
          return i;
    }
  return G_MAXUINT;
}

/* One pass; @given: the free inputs in order (xrt_pipeline_get_free_inputs), or NULL for
 * the seeded ones of @iteration. */
static gboolean
run_pass (XrtPipeline *self, guint iteration, GPtrArray *given, GError **error)
{
  guint next = 0;

  if (!self->applied)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER, "%s: forward before apply",
                   self->spec->origin);
      return FALSE;
    }
  if (given != NULL)
    {
      g_autoptr (GPtrArray) free_inputs = xrt_pipeline_get_free_inputs (self);
      if (given->len != free_inputs->len)
        {
          g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER,
                       "%s: forward: %u input tensor(s) given, the pipeline has %u input(s) no connection feeds",
                       self->spec->origin, given->len, free_inputs->len);
          return FALSE;
        }
    }
  self->pass_ms = 0;
  for (guint i = 0; i < self->members->len; i++)
    {
      XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
      GPtrArray *ins = xir_network_view_get_inputs (xrt_deployment_get_view (m->deployment));
      g_autoptr (GPtrArray) inputs = given ? g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref)
                                           : xrt_deployment_make_inputs (m->deployment, iteration, error);
      GPtrArray *outs;

      if (inputs == NULL)
        {
          g_prefix_error (error, "%s: network \"%s\": ", self->spec->origin, m->name);
          return FALSE;
        }
      for (guint k = 0; k < ins->len; k++)
        {
          XrtTensor *src = NULL;
          /* a connected input is what its upstream network produced in this pass */
          if (connected_input (self, i, k, &src))
            {
              if (given != NULL)
                g_ptr_array_add (inputs, xrt_tensor_ref (src));
              else if (k < inputs->len)
                {
                  XrtTensor *old = g_ptr_array_index (inputs, k);
                  inputs->pdata[k] = xrt_tensor_ref (src);
                  xrt_tensor_unref (old);
                }
            }
          else if (given != NULL)
            g_ptr_array_add (inputs, xrt_tensor_ref (g_ptr_array_index (given, next++)));
        }
      if ((outs = xrt_deployment_forward (m->deployment, inputs, error)) == NULL)
        {
          g_prefix_error (error, "%s: network \"%s\": ", self->spec->origin, m->name);
          return FALSE;
        }
      g_clear_pointer (&m->outputs, g_ptr_array_unref);
      m->outputs = outs;
      m->pass_ms = 0;
      if (self->profile)
        {
          const ZwProfile *p = xrt_session_get_time_profile (xrt_deployment_get_session (m->deployment));
          m->pass_ms = p ? p->total_ms : 0;
        }
      self->pass_ms += m->pass_ms;
    }
  self->passes++;
  return xrt_pipeline_dump_collect (self, error);
}

GPtrArray *
xrt_pipeline_forward (XrtPipeline *self, guint iteration, GError **error)
{
  GPtrArray *all;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  if (!run_pass (self, iteration, NULL, error))
    return NULL;
  all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < self->members->len; i++)
    g_ptr_array_add (all, g_ptr_array_ref (XRT_PIPELINE_MEMBER (self, i)->outputs));
  return all;
}

gboolean
xrt_pipeline_run (XrtPipeline *self, GPtrArray *inputs, guint iteration, GError **error)
{
  g_return_val_if_fail (XRT_IS_PIPELINE (self), FALSE);
  return run_pass (self, iteration, inputs, error);
}

GPtrArray *
xrt_pipeline_get_outputs (XrtPipeline *self, guint index)
{
  XrtPipelineMember *m;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), NULL);
  if (index >= self->members->len || (m = XRT_PIPELINE_MEMBER (self, index))->outputs == NULL)
    return NULL;
  return g_ptr_array_ref (m->outputs);
}

char *
xrt_pipeline_json_take_text (cJSON *root)
{
  char *text;

  if (root == NULL)
    return NULL;
  text = cJSON_Print (root);
  cJSON_Delete (root);
  return text;
}

char *
xrt_pipeline_report_to_text (XrtPipeline *self, GError **error)
{
  return xrt_pipeline_json_take_text (xrt_pipeline_report_to_json (self, error));
}
