/* netgen-passes.c — what the compiler assigns after the graph is built: op ids, instr words,
 * chunks and offsets, and shared scales (see netgen.c's head for the rules). */
#include "netgen-private.h"

/* ---- passes ------------------------------------------------------------------ */

gboolean
ng_op_is_zero_copy (const NgOp *op)
{
  return op->kind == NG_OP_HARD && (op->cls == NG_CONCAT || op->cls == NG_RESHAPE);
}

/* Op-id group of a HardOp, as the real compiler numbers them. */
static guint
op_group (const NgOp *op)
{
  if (op->cls == NG_CONV)
    return op->fused_act ? 0 : 7;
  return (guint) op->cls;
}

static guint64
align16 (guint64 n)
{
  return (n + 15) / 16 * 16;
}

/* Plausible instruction sizes: a fixed part plus a part per weight block and per
 * output tile, roughly fitted to the real yolov5s (instructions are opaque). */
guint64
ng_instr_words (NgGraph *g, const NgOp *op)
{
  const NgValue *in = op->n_inputs ? VAL (g, op->inputs[0]) : NULL;
  const NgValue *out = op->n_outputs ? VAL (g, op->outputs[0]) : NULL;

  switch (op->cls)
    {
    case NG_CONV:
      {
        guint64 ob = op->cout / op->ob, ib = op->depthwise ? 1 : op->cin / op->ib;
        guint64 kk = (guint64) op->kernel * op->kernel;
        guint64 in_tiles = ((guint64) in->height * in->width + 1023) / 1024;
        guint64 out_tiles = ((guint64) out->height * out->width + 1023) / 1024;
        guint64 tiles = (in_tiles + out_tiles + 1) / 2;
        guint64 per_tile = kk > 1 ? 160 : 100;

        /* A pixel-interleaved 3-channel input is walked once per kernel row. */
        if (op->ib == 3)
          per_tile = per_tile * op->kernel / 3;
        return align16 (160 + per_tile * ob * tiles + 4 * ob * ib * kk);
      }
    case NG_ADD:
    case NG_UPSAMPLE:
      return align16 (144 + ng_value_bytes (in) / 1800);
    case NG_MAXPOOL:
      return align16 (400 + 8 * op->kernel * op->kernel + ng_value_bytes (in) / 1800);
    case NG_CAST:
      return align16 (256 + ng_value_bytes (in) / 300);
    case NG_RESHAPE:
    case NG_CONCAT:
    default:
      return 0;
    }
}

void
ng_assign_ids (NgGraph *g)
{
  guint n = g->ops->len;
  gint64 origin_base = 5 * (gint64) n - 4, origin = origin_base, next_id;
  gint64 feature_vid = 1, special_vid, params_vid;
  gint last_writer = 0;
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  /* Origin ids (pre-fusion), ReadState and instruction sizes, in file order. */
  for (guint i = 0; i < n; i++)
    {
      NgOp *op = OP (g, i);

      if (op->kind != NG_OP_HARD)
        continue;
      op->origin[0] = origin++;
      if (op->fused_act)
        op->origin[1] = origin++;
      /* ReadState[1]: the last op before this one that actually writes memory. */
      op->read_state = last_writer;
      if (!ng_op_is_zero_copy (op))
        last_writer = (gint) i;
      op->instr_words = ng_instr_words (g, op);
    }

  /* HardOp ids by group, then file order within the group. */
  next_id = origin + 2;
  for (guint group = 0; group <= 7; group++)
    for (guint i = 0; i < n; i++)
      {
        NgOp *op = OP (g, i);

        if (op->kind == NG_OP_HARD && op_group (op) == group)
          {
            op->op_id = next_id++;
            g_array_append_val (order, i);
          }
      }
  for (guint i = 0; i < n; i++)
    {
      NgOp *op = OP (g, i);

      if (op->kind == NG_OP_INPUT)
        op->op_id = 0;
      else if (op->kind == NG_OP_DETPOST)
        op->op_id = origin_base - 4;
      else if (op->kind == NG_OP_OUTPUT)
        op->op_id = origin_base / 3;
    }

  /* v_ids: feature maps and weights interleaved in file order (as the framework
   * numbered them), io and host values in a later range, then instr and bias. */
  for (guint i = 0; i < n; i++)
    {
      NgOp *op = OP (g, i);

      if (op->kind == NG_OP_INPUT)
        VAL (g, op->outputs[0])->v_id = 0;
      if (op->kind != NG_OP_HARD || op->cls == NG_RESHAPE || op->cls == NG_CAST)
        continue;
      if (op->cls == NG_CONV)
        {
          op->weight_vid = feature_vid + 2;
          feature_vid += 4;
        }
      VAL (g, op->outputs[0])->v_id = feature_vid + 2;
      feature_vid += 2 + (op->cls == NG_CONV ? 0 : 1);
    }
  special_vid = feature_vid + feature_vid / 2 + 1;
  for (guint i = 0; i < n; i++)
    {
      NgOp *op = OP (g, i);

      if ((op->kind == NG_OP_HARD && (op->cls == NG_RESHAPE || op->cls == NG_CAST))
          || op->kind == NG_OP_DETPOST)
        for (guint k = 0; k < op->n_outputs; k++)
          VAL (g, op->outputs[k])->v_id = special_vid++;
      /* a second input and on (twoin): io values of their own */
      if (op->kind == NG_OP_INPUT)
        for (guint k = 1; k < op->n_outputs; k++)
          VAL (g, op->outputs[k])->v_id = special_vid++;
    }
  params_vid = special_vid + 400;
  for (guint k = 0; k < order->len; k++)
    {
      NgOp *op = OP (g, g_array_index (order, guint, k));

      if (k > 0 && op_group (op) != op_group (OP (g, g_array_index (order, guint, k - 1)))
          && op_group (op) == 1)
        params_vid += 280;
      op->instr_vid = params_vid;
      if (op->cls == NG_CONV)
        {
          op->bias_vid = params_vid + 2;
          params_vid += 5;
        }
      else
        params_vid += 4;
    }
}

void
ng_assign_chunks (NgGraph *g)
{
  gint64 chunk = 0;

  for (guint i = 0; i < g->ops->len; i++)
    {
      NgOp *op = OP (g, i);

      if (op->kind == NG_OP_INPUT)
        {
          VAL (g, op->outputs[0])->chunk = chunk++;
          VAL (g, op->outputs[0])->offset = 0;
        }
    }
  /* One chunk per concat; its inputs sit back to back inside it. */
  for (guint i = 0; i < g->ops->len; i++)
    {
      NgOp *op = OP (g, i);
      guint64 offset = 0;

      if (op->kind != NG_OP_HARD || op->cls != NG_CONCAT)
        continue;
      for (guint k = 0; k < op->n_inputs; k++)
        {
          NgValue *v = VAL (g, op->inputs[k]);

          v->chunk = chunk;
          v->offset = offset;
          offset += ng_value_bytes (v);
        }
      VAL (g, op->outputs[0])->chunk = chunk;
      VAL (g, op->outputs[0])->offset = 0;
      chunk++;
    }
  /* In file order: a conv's params chunk, then each output's own chunk. */
  for (guint i = 0; i < g->ops->len; i++)
    {
      NgOp *op = OP (g, i);

      if (op->kind == NG_OP_HARD && op->cls == NG_CONV)
        op->params_chunk = chunk++;
      for (guint k = 0; k < op->n_outputs; k++)
        {
          NgValue *v = VAL (g, op->outputs[k]);

          if (v->share_of >= 0)
            {
              v->chunk = VAL (g, v->share_of)->chunk;
              v->offset = VAL (g, v->share_of)->offset;
            }
          else if (v->chunk < 0 && !v->host)
            {
              v->chunk = chunk++;
              v->offset = 0;
            }
        }
    }
  g->instr_chunk = chunk;
}

void
ng_assign_scales (NgGraph *g)
{
  for (guint i = 0; i < g->values->len; i++)
    {
      NgValue *v = VAL (g, i);
      gint root = (gint) i;

      if (!v->quantized)
        continue;
      while (VAL (g, root)->scale_parent != root)
        root = VAL (g, root)->scale_parent;
      /* The root is the lowest index of its class, so it is already drawn. */
      if (root == (gint) i)
        v->scale = v->fixed_scale > 0 ? v->fixed_scale
                                      : (float) g_rand_double_range (g->rand, 0.01, 0.3);
      else
        v->scale = VAL (g, root)->scale;
    }
}
