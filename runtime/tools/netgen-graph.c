/* netgen-graph.c — the small graph the generator builds: values, ops, and one builder call per
 * op kind (ng_conv, ng_concat …), in execution order. */
#include "netgen-private.h"

static void
ng_op_clear (gpointer data)
{
  NgOp *op = data;

  g_clear_pointer (&op->wscales, g_free);
}

NgGraph *
ng_graph_new (const char *name, guint64 seed, const char *generator)
{
  NgGraph *g = g_new0 (NgGraph, 1);
  guint32 seed_words[2] = { (guint32) seed, (guint32) (seed >> 32) };

  g->values = g_array_new (FALSE, TRUE, sizeof (NgValue));
  g->ops = g_array_new (FALSE, TRUE, sizeof (NgOp));
  g_array_set_clear_func (g->ops, ng_op_clear);
  g->rand = g_rand_new_with_seed_array (seed_words, 2);
  g->name = g_strdup (name);
  g->generator = g_strdup (generator);
  return g;
}

void
ng_graph_free (NgGraph *g)
{
  g_array_unref (g->values);
  g_array_unref (g->ops);
  g_rand_free (g->rand);
  g_free (g->name);
  g_free (g->generator);
  g_free (g);
}


/* ---- building ------------------------------------------------------------ */

static gint
ng_new_value (NgGraph *g, NgLayout layout, guint channels, guint height, guint width,
              gboolean quantized)
{
  NgValue v = { 0 };

  v.layout = layout;
  v.channels = channels;
  v.height = height;
  v.width = width;
  v.block = channels < 32 ? channels : 32;
  g_assert (layout == NG_LAYOUT_NHWC || channels % v.block == 0);
  v.quantized = quantized;
  v.producer = -1;
  v.share_of = -1;
  v.concat_op = -1;
  v.scale_parent = (gint) g->values->len;
  v.chunk = -1;
  g_array_append_val (g->values, v);
  return (gint) g->values->len - 1;
}

static gint
ng_new_op (NgGraph *g, NgOpKind kind, NgClass cls)
{
  NgOp op = { 0 };

  op.kind = kind;
  op.cls = cls;
  op.weight_vid = op.bias_vid = op.instr_vid = -1;
  op.params_chunk = -1;
  g_array_append_val (g->ops, op);
  return (gint) g->ops->len - 1;
}

static void
ng_op_add_input (NgGraph *g, gint op, gint value)
{
  NgOp *o = OP (g, op);

  g_assert (o->n_inputs < NG_MAX_IO);
  o->inputs[o->n_inputs++] = value;
}

static void
ng_op_add_output (NgGraph *g, gint op, gint value)
{
  NgOp *o = OP (g, op);

  g_assert (o->n_outputs < NG_MAX_IO);
  o->outputs[o->n_outputs++] = value;
  VAL (g, value)->producer = op;
}

guint64
ng_value_bytes (const NgValue *v)
{
  return (guint64) v->channels * v->height * v->width;
}

static void
scale_union (NgGraph *g, gint a, gint b)
{
  while (VAL (g, a)->scale_parent != a)
    a = VAL (g, a)->scale_parent;
  while (VAL (g, b)->scale_parent != b)
    b = VAL (g, b)->scale_parent;
  if (a != b)
    VAL (g, MAX (a, b))->scale_parent = MIN (a, b);
}

static gint
ng_input (NgGraph *g, guint height, guint width)
{
  gint op = ng_new_op (g, NG_OP_INPUT, 0);
  gint v = ng_new_value (g, NG_LAYOUT_NHWC, 3, height, width, FALSE);

  ng_op_add_output (g, op, v);
  return v;
}

/* NHWC uint8 -> "*C**c3" uint8 in the same bytes. */
static gint
ng_reshape (NgGraph *g, gint in)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_RESHAPE);
  NgValue *x = VAL (g, in);
  gint v = ng_new_value (g, NG_LAYOUT_STAR_C, x->channels, x->height, x->width, FALSE);

  VAL (g, v)->share_of = in;
  OP (g, op)->io_process = TRUE;
  ng_op_add_input (g, op, in);
  ng_op_add_output (g, op, v);
  return v;
}

static gint
ng_cast (NgGraph *g, gint in)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_CAST);
  NgValue *x = VAL (g, in);
  gint v = ng_new_value (g, NG_LAYOUT_STAR_C, x->channels, x->height, x->width, TRUE);

  /* uint8 pixels -> int8: the real net's cast scale is about 2. */
  VAL (g, v)->fixed_scale = (float) g_rand_double_range (g->rand, 1.9, 2.1);
  OP (g, op)->io_process = TRUE;
  ng_op_add_input (g, op, in);
  ng_op_add_output (g, op, v);
  return v;
}

static guint
conv_out_size (guint in, guint k, guint stride)
{
  guint pad = (k - 1) / 2;

  return (in + 2 * pad - k) / stride + 1;
}

static gint
ng_conv_full (NgGraph *g, gint in, guint cout, guint k, guint stride, gboolean act,
              gboolean depthwise)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_CONV);
  NgValue x = *VAL (g, in);
  gint v;
  NgOp *o;

  g_assert (x.quantized);
  v = ng_new_value (g, NG_LAYOUT_NCHWC, cout, conv_out_size (x.height, k, stride),
                    conv_out_size (x.width, k, stride), TRUE);
  o = OP (g, op);
  o->kernel = k;
  o->stride = stride;
  o->depthwise = depthwise;
  o->cin = x.channels;
  o->cout = cout;
  o->ib = depthwise ? 1 : x.block;
  o->ob = VAL (g, v)->block;
  o->fused_act = act;
  o->wscales = g_new (float, cout);
  if (cout < 32)
    {
      /* A tiny (3-channel) conv: the real one has a single run "3*s". */
      float s = (float) g_rand_double_range (g->rand, 2e-5, 5e-5);
      for (guint i = 0; i < cout; i++)
        o->wscales[i] = s;
    }
  else
    for (guint i = 0; i < cout; i++)
      o->wscales[i] = (float) g_rand_double_range (g->rand, 0.0004, 0.008);
  ng_op_add_input (g, op, in);
  ng_op_add_output (g, op, v);
  return v;
}

gint
ng_conv (NgGraph *g, gint in, guint cout, guint k, guint stride, gboolean act)
{
  return ng_conv_full (g, in, cout, k, stride, act, FALSE);
}

gint
ng_dwconv (NgGraph *g, gint in, guint k, guint stride)
{
  return ng_conv_full (g, in, VAL (g, in)->channels, k, stride, TRUE, TRUE);
}

gint
ng_add (NgGraph *g, gint a, gint b, gboolean act)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_ADD);
  NgValue x = *VAL (g, a);
  gint v;

  g_assert (x.channels == VAL (g, b)->channels && x.height == VAL (g, b)->height
            && x.width == VAL (g, b)->width);
  v = ng_new_value (g, NG_LAYOUT_NCHWC, x.channels, x.height, x.width, TRUE);
  OP (g, op)->fused_act = act;
  ng_op_add_input (g, op, a);
  ng_op_add_input (g, op, b);
  ng_op_add_output (g, op, v);
  return v;
}

gint
ng_concat (NgGraph *g, const gint *ins, guint n)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_CONCAT);
  NgValue first = *VAL (g, ins[0]);
  guint channels = 0;
  gint v;

  for (guint i = 0; i < n; i++)
    {
      NgValue *x = VAL (g, ins[i]);

      /* The inputs are written straight into the concat's chunk, so each must be a
       * plain NCHWc32 map made by a writing op, and belong to one concat only. */
      g_assert (x->layout == NG_LAYOUT_NCHWC && x->block == 32 && x->concat_op < 0);
      g_assert (x->height == first.height && x->width == first.width);
      g_assert (OP (g, x->producer)->cls != NG_CONCAT);
      x->concat_op = op;
      channels += x->channels;
      ng_op_add_input (g, op, ins[i]);
    }
  v = ng_new_value (g, NG_LAYOUT_NCHWC, channels, first.height, first.width, TRUE);
  for (guint i = 0; i < n; i++)
    scale_union (g, ins[i], v);
  ng_op_add_output (g, op, v);
  return v;
}

gint
ng_concat2 (NgGraph *g, gint a, gint b)
{
  gint ins[2] = { a, b };

  return ng_concat (g, ins, 2);
}

gint
ng_maxpool (NgGraph *g, gint in, guint k, guint stride)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_MAXPOOL);
  NgValue x = *VAL (g, in);
  gint v = ng_new_value (g, NG_LAYOUT_NCHWC, x.channels, conv_out_size (x.height, k, stride),
                         conv_out_size (x.width, k, stride), TRUE);

  OP (g, op)->kernel = k;
  OP (g, op)->stride = stride;
  scale_union (g, in, v);
  ng_op_add_input (g, op, in);
  ng_op_add_output (g, op, v);
  return v;
}

gint
ng_upsample (NgGraph *g, gint in)
{
  gint op = ng_new_op (g, NG_OP_HARD, NG_UPSAMPLE);
  NgValue x = *VAL (g, in);
  gint v = ng_new_value (g, NG_LAYOUT_NCHWC, x.channels, x.height * 2, x.width * 2, TRUE);

  scale_union (g, in, v);
  ng_op_add_input (g, op, in);
  ng_op_add_output (g, op, v);
  return v;
}

/* customop::DetPostZG: reads the three heads from ETM, writes NHWC maps to the host. */
void
ng_detpost (NgGraph *g, const gint heads[3], gint outs[3])
{
  gint op = ng_new_op (g, NG_OP_DETPOST, 0);

  for (guint i = 0; i < 3; i++)
    {
      NgValue x = *VAL (g, heads[i]);
      gint v = ng_new_value (g, NG_LAYOUT_NHWC, x.channels, x.height, x.width, TRUE);

      VAL (g, v)->host = TRUE;
      VAL (g, v)->fixed_scale = 1.0f;
      ng_op_add_input (g, op, heads[i]);
      outs[i] = v;
    }
  for (guint i = 0; i < 3; i++)
    ng_op_add_output (g, op, outs[i]);
}

void
ng_output (NgGraph *g, const gint *ins, guint n)
{
  gint op = ng_new_op (g, NG_OP_OUTPUT, 0);

  for (guint i = 0; i < n; i++)
    ng_op_add_input (g, op, ins[i]);
}

/* An Input op whose one output is already an int8 feature map, NCHWc32 of @channels (a
 * multiple of 32) x @height x @width: the input of a network that starts where another
 * ends (tail), so the upstream network's output feeds it byte for byte. */
gint
ng_input_map (NgGraph *g, guint channels, guint height, guint width)
{
  gint op = ng_new_op (g, NG_OP_INPUT, 0);
  gint v = ng_new_value (g, NG_LAYOUT_NCHWC, channels, height, width, TRUE);

  ng_op_add_output (g, op, v);
  return v;
}

/* Input -> Reshape -> Cast, the io-process prologue of every net. */
gint
ng_prologue (NgGraph *g, guint height, guint width)
{
  return ng_cast (g, ng_reshape (g, ng_input (g, height, width)));
}

/* The prologue of a net of @n inputs: one Input op with @n outputs (the vendor's form of a
 * multi-input network), each input then through its own Reshape and Cast; @out gets the
 * cast values in input order. */
void
ng_prologue_n (NgGraph *g, guint height, guint width, guint n, gint *out)
{
  gint first = ng_input (g, height, width);
  gint input_op = (gint) g->ops->len - 1;
  g_autofree gint *raw = g_new (gint, n);

  raw[0] = first;
  for (guint i = 1; i < n; i++)
    {
      raw[i] = ng_new_value (g, NG_LAYOUT_NHWC, 3, height, width, FALSE);
      ng_op_add_output (g, input_op, raw[i]);
    }
  for (guint i = 0; i < n; i++)
    out[i] = ng_cast (g, ng_reshape (g, raw[i]));
}
