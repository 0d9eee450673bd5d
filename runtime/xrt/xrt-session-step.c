/* xrt-session-step.c — stepTo(op_id): run from where the last step stopped up to an op
 * (a merged launch stopped at the op's sync point) and return its outputs.
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
