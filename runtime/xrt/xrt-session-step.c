/* xrt-session-step.c — stepTo(op_id): run from where the last step stopped up to an op
 * (a merged launch stopped at the op's sync point) and return its outputs; and one step of
 * getForwards alone on given inputs (its forward function).
 */
#include "xrt/xrt-session-private.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

GPtrArray *
xrt_session_step_to_unguarded (XrtSession *s, gint64 op_id, GPtrArray *inputs, GError **error)
{
  const XirOp *target = xir_network_get_op_by_id (s->net, op_id);
  const XrtForward *f;
  guint stop = G_MAXUINT, until;
  gboolean restart;
  GPtrArray *outs = NULL;
  gboolean ok = TRUE;

  if (!xrt_session_check_applied (s, "stepTo", error))
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
  until = xrt_forward_is_merged_launch (f) && target->index < f->last_index ? target->index : G_MAXUINT;
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
      xrt_session_begin_forward (s, inputs != NULL ? inputs : given);
    }
  else
    {
      /* inputs of later steps may come now: keep the ones not yet used, then these */
      for (guint k = 0; inputs != NULL && k < inputs->len; k++)
        g_ptr_array_add (s->pending_inputs, xrt_tensor_ref (g_ptr_array_index (inputs, k)));
      xrt_session_backends_forward_begin (s);
    }
  for (guint i = s->position; ok && i <= stop; i++)
    ok = xrt_session_run_step_part (s, i, i == stop ? until : G_MAXUINT, error);
  s->position = s->part_op != G_MAXUINT ? stop : stop + 1;
  ok = xrt_session_end_forward (s, ok, error);
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
    outs = xrt_session_step_outputs (s, &one, error);
  }
  return outs;
}

/* getForwards' forward function: step @index alone, its inputs the caller's tensors, without
 * the session's callbacks, logs, dumps and profile (the backend's forward of the op). */
GPtrArray *
xrt_session_forward_step_unguarded (XrtSession *s, guint index, GPtrArray *inputs, GError **error)
{
  const XrtForward *f;
  gboolean is_input;
  guint given = inputs ? inputs->len : 0;
  XrtSessionCallback pre_cb = s->pre_cb, post_cb = s->post_cb;
  gboolean log_io = s->log_io, log_time = s->log_time, dump = s->dump, profile_on = s->profile_on;
  double total_ms = s->total_ms, clock_ms = s->clock_ms;
  GPtrArray *outs = NULL;
  gboolean ok = TRUE;

  if (!xrt_session_check_applied (s, "getForwards' forward function", error))
    return NULL;
  if (index >= s->forwards->len)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT,
                   "getForwards: step %u does not exist (the session has %u steps)", index, s->forwards->len);
      return NULL;
    }
  f = &g_array_index (s->forwards, XrtForward, index);
  is_input = f->op != NULL && f->op->kind == XIR_OP_INPUT;
  if (!is_input && given != f->input_ids->len)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS,
                   "getForwards: step %u (op %" G_GINT64_FORMAT ") reads %u value(s) from outside it, %u tensor(s) given",
                   index, f->op_id, f->input_ids->len, given);
      return NULL;
    }
  s->pre_cb = s->post_cb = NULL;
  s->log_io = s->log_time = s->dump = s->profile_on = FALSE;
  xrt_session_begin_forward (s, is_input ? inputs : NULL);
  for (guint k = 0; !is_input && ok && k < given; k++)
    {
      const XirValue *v = xir_network_get_value (s->net, g_array_index (f->input_ids, gint64, k));
      XrtTensor *in = g_ptr_array_index (inputs, k), *t = NULL;
      g_autofree guint8 *buf = NULL;
      gint64 *key;

      if (xrt_tensor_get_size (in) != v->storage_bytes)
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS,
                       "getForwards: step %u (op %" G_GINT64_FORMAT "): the tensor for v_id %" G_GINT64_FORMAT " has %"
                       G_GUINT64_FORMAT " bytes, the value needs %" G_GUINT64_FORMAT,
                       index, f->op_id, v->v_id, xrt_tensor_get_size (in), v->storage_bytes);
          ok = FALSE;
          break;
        }
      buf = xrt_tensor_dup_bytes (in, error);
      t = buf ? xrt_tensor_new_host (s->net, v, buf, v->storage_bytes, error) : NULL;
      if (t == NULL)
        {
          ok = FALSE;
          break;
        }
      key = g_new (gint64, 1);
      *key = v->v_id;
      g_hash_table_replace (s->host_values, key, t);
    }
  if (ok)
    ok = xrt_session_run_step_part (s, index, G_MAXUINT, error);
  ok = xrt_session_end_forward (s, ok, error);
  if (ok)
    outs = xrt_session_step_outputs (s, f, error);
  s->position = 0;
  s->part_op = G_MAXUINT;
  s->pre_cb = pre_cb;
  s->post_cb = post_cb;
  s->log_io = log_io;
  s->log_time = log_time;
  s->dump = dump;
  s->profile_on = profile_on;
  s->total_ms = total_ms;
  s->clock_ms = clock_ms;
  return outs;
}
