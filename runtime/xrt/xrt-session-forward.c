/* xrt-session-forward.c — the session's forward steps (host ops one by one, board launches
 * merged or not), apply, and running them: a step, a whole forward, a forward into the
 * caller's output tensors.
 */
#include "xrt/xrt-session-private.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

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
gboolean
xrt_session_build_forwards (XrtSession *s, GError **error)
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
              xrt_session_forward_clear (&f);
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

gboolean
xrt_session_apply_unguarded (XrtSession *s, GError **error)
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
  if (!xrt_session_build_forwards (s, error))
    return FALSE;
  s->applied = TRUE;
  s->position = 0;
  return TRUE;
}

/* ---- running steps ------------------------------------------------------------------- */

GPtrArray *
xrt_session_step_outputs (XrtSession *s, const XrtForward *f, GError **error)
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
          t = xrt_session_host_value (s, v, NULL, error);
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
        t = xrt_session_host_value (s, v, NULL, error);
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
          if (xrt_session_host_value (s, v, memcpy_ms, error) == NULL)
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
      t = xrt_session_host_value (s, g_ptr_array_index (op->inputs, k), memcpy_ms, error);
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

gboolean
xrt_forward_is_merged_launch (const XrtForward *f)
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
  gboolean merged = xrt_forward_is_merged_launch (f);
  guint stop = merged && until < f->last_index ? until : f->last_index;
  guint from;

  *stopped = FALSE;
  if (!merged)
    {
      XrtStepTime t = { .measured_ms = -1 };
      if (!xrt_session_ensure_on_device (s, f, memcpy_ms, error)
          || !xrt_backend_run_launch (f->backend, (guint) f->launch, -1, -1, &t, error))
        return FALSE;
      *memcpy_ms += t.memcpy_ms + xrt_session_leaving_ms (s, f);
      *hard_ms += t.hard_ms;
      *other_ms += t.other_ms;
      for (guint i = f->first_index; i <= f->last_index; i++)
        mark_on_device (s, xir_network_get_op (s->net, i));
      return TRUE;
    }
  if (s->part_op == G_MAXUINT)
    {
      if (!xrt_session_ensure_on_device (s, f, memcpy_ms, error))
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
      XrtStepTime t = { .measured_ms = -1 };

      if (!xrt_backend_run_launch (f->backend, (guint) f->launch, after, until_id, &t, error))
        return FALSE;
      s->part_ms[0] += t.memcpy_ms;
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
              if (!xrt_session_dump_step (s, f, ids, error))
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
  *memcpy_ms += s->part_ms[0] + xrt_session_leaving_ms (s, f);
  *hard_ms += s->part_ms[1];
  *other_ms += s->part_ms[2];
  s->part_op = G_MAXUINT;
  memset (s->part_ms, 0, sizeof s->part_ms);
  return TRUE;
}

/* Runs forward step @index: all of it (@until G_MAXUINT), or a merged launch up to the op
 * at absolute index @until (stopped at its sync point; see run_launch_step). */
gboolean
xrt_session_run_step_part (XrtSession *s, guint index, guint until, GError **error)
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
      XrtStepTime cost = { .measured_ms = -1 };
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
      ok = xrt_session_ensure_on_device (s, f, &memcpy_ms, error);
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
        g_autofree char *type = xrt_forward_profile_type (f);
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
        g_autofree char *type = xrt_forward_step_type (f);
        GString *line = g_string_new (NULL);
        g_string_append_printf (line, "opId: %" G_GINT64_FORMAT " opType: %s", f->op_id, type);
        if (s->log_io)
          {
            g_string_append (line, " Inputs: ");
            xrt_session_describe_values (s, f, line, f->input_ids);
            g_string_append (line, " Outputs: ");
            xrt_session_describe_values (s, f, line, f->output_ids);
          }
        if (s->log_time)
          g_string_append_printf (line, " time: %.6f ms (memcpy %.6f, hard %.6f, other %.6f)", total, memcpy_ms, hard_ms,
                                  other_ms);
        fprintf (s->log_stream, "%s\n", line->str);
        g_string_free (line, TRUE);
      }
  }
  /* a merged launch dumped its values op by op at their sync points (run_launch_step) */
  if (s->dump && !xrt_forward_is_merged_launch (f) && !xrt_session_dump_step (s, f, f->output_ids, error))
    return FALSE;
  if (s->post_cb != NULL)
    {
      g_autoptr (GPtrArray) outs = xrt_session_step_outputs (s, f, error);
      if (outs == NULL)
        return FALSE;
      s->post_cb (s, f, outs, s->post_data);
    }
  return TRUE;
}

static gboolean
run_step (XrtSession *s, guint index, GError **error)
{
  return xrt_session_run_step_part (s, index, G_MAXUINT, error);
}

/* Opens a forward on every backend; the host backends learn the connected values first
 * (their Input and Output ops copy none of those bytes: xrt-session-values.c). */
void
xrt_session_backends_forward_begin (XrtSession *s)
{
  xrt_session_tell_connected_values (s);
  for (guint k = 0; k < s->backends->len; k++)
    xrt_backend_forward_begin (g_ptr_array_index (s->backends, k));
}

void
xrt_session_begin_forward (XrtSession *s, GPtrArray *inputs)
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
        merged = xrt_forward_is_merged_launch (&g_array_index (s->forwards, XrtForward, i));
      /* values chosen (xrt_session_set_dump_values): not a complete dump */
      s->manifest = zw_dump_manifest_new (xir_network_get_name (s->net), s->dump_fmt, s->dump_only == NULL,
                                          s->dump_only != NULL ? "only the values asked for (dump_ftmp, dump_output)"
                                          : !merged ? "merge hardop off: every value of every op"
                                                    : "merge hardop on: every value of every op; each merged launch "
                                                      "was stopped at the sync point after every hardop's layers "
                                                      "(HardOpInfo.sync_idx) and that op's outputs read there");
    }
  xrt_session_backends_forward_begin (s);
}

gboolean
xrt_session_end_forward (XrtSession *s, gboolean ok, GError **error)
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

gboolean
xrt_session_check_applied (XrtSession *s, const char *call, GError **error)
{
  if (s->applied)
    return TRUE;
  g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_CALL_ORDER, "%s: %s before apply() (apply the session first)",
               xir_network_get_path (s->net), call);
  return FALSE;
}

static GPtrArray *
collect_outputs (XrtSession *s, GError **error)
{
  GPtrArray *outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values = xir_network_view_get_outputs (s->view);

  for (guint k = 0; k < values->len; k++)
    {
      XrtTensor *t = xrt_session_host_value (s, g_ptr_array_index (values, k), NULL, error);
      if (t == NULL)
        {
          g_ptr_array_unref (outs);
          return NULL;
        }
      g_ptr_array_add (outs, xrt_tensor_ref (t));
    }
  return outs;
}

GPtrArray *
xrt_session_forward_unguarded (XrtSession *s, GPtrArray *inputs, GError **error)
{
  GPtrArray *outs = NULL;
  gboolean ok = TRUE;

  if (!xrt_session_check_applied (s, "forward", error))
    return NULL;
  xrt_session_begin_forward (s, inputs);
  for (guint i = 0; ok && i < s->forwards->len; i++)
    ok = run_step (s, i, error);
  ok = xrt_session_end_forward (s, ok, error);
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

gboolean
xrt_session_forward_into_unguarded (XrtSession *s, GPtrArray *inputs, GPtrArray *outputs, GError **error)
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
  if (!xrt_session_check_applied (s, "forward(inputs, outputs)", error))
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
  xrt_session_begin_forward (s, inputs);
  for (guint i = 0; ok && i < s->forwards->len; i++)
    ok = run_step (s, i, error);
  ok = xrt_session_end_forward (s, ok, error);
  s->position = 0;
  for (guint k = 0; ok && k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      XrtTensor *t;
      g_autofree guint8 *buf = NULL;
      if (g_hash_table_contains (s->in_place, &v->v_id))
        continue;
      t = xrt_session_host_value (s, v, NULL, error);
      ok = t != NULL && (buf = xrt_tensor_dup_bytes (t, error)) != NULL
           && xrt_tensor_write (match[k], buf, v->storage_bytes, error);
    }
  if (s->board != NULL)
    xrt_backend_unbind_outputs (s->board);
  g_hash_table_remove_all (s->in_place);
  return ok;
}
