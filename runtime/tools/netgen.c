/* netgen.c — builds demo networks as a small graph, then emits the vendor's JSON.
 *
 * The graph is built in execution order with builder calls (ng_conv, ng_concat …);
 * ids, chunks and scales are then assigned in passes that imitate what the Icraft
 * compiler does to the real yolov5s_plin_352x640 (see netgen.h for the facts):
 *  - op ids are not monotonic: HardOps are numbered by class group (convs with a fused
 *    activation, cast, upsample, add, maxpool, reshape, concat, the other convs), the
 *    pre-fusion ids go to origin_ops_id, DetPostZG and Output keep low ids;
 *  - chunk 0 holds the input, then one chunk per concat (its inputs are written at
 *    consecutive offsets inside it), then in execution order one chunk per conv's
 *    params and per feature map, and the last chunk holds every instr (offset 0);
 *  - scales: concat inputs and output, and maxpool/upsample input and output, share
 *    one scale (a zero-copy concat cannot rescale).
 */
#include "netgen.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "xir/xir-network.h"

G_DEFINE_QUARK (zw-netgen-error-quark, zw_netgen_error)

#define NG_MAX_IO 6

typedef enum {
  NG_LAYOUT_NHWC,    /* "NHWC": network input and host outputs */
  NG_LAYOUT_STAR_C,  /* "*C**c3": the io-process reshape/cast outputs */
  NG_LAYOUT_NCHWC,   /* "NCHWc32" (or "NCHWc3" for a 3-channel map) */
} NgLayout;

typedef enum {
  NG_OP_INPUT,
  NG_OP_OUTPUT,
  NG_OP_HARD,
  NG_OP_DETPOST,
} NgOpKind;

/* HardOp classes; the order is also the op-id group order (see assign_ids). */
typedef enum {
  NG_CONV,
  NG_CAST,
  NG_UPSAMPLE,
  NG_ADD,
  NG_MAXPOOL,
  NG_RESHAPE,
  NG_CONCAT,
} NgClass;

static const char *const class_names[] = {
  [NG_CONV] = "icraft::xir::Conv2dNode",
  [NG_CAST] = "icraft::xir::CastNode",
  [NG_UPSAMPLE] = "icraft::xir::UpsampleNode",
  [NG_ADD] = "icraft::xir::AddNode",
  [NG_MAXPOOL] = "icraft::xir::MaxPool2dNode",
  [NG_RESHAPE] = "icraft::xir::ReshapeNode",
  [NG_CONCAT] = "icraft::xir::ConcatNode",
};

typedef struct {
  NgLayout layout;
  guint channels, height, width;
  guint block;          /* size of the inner c axis */
  gboolean quantized;   /* int8 QuantizedType, else uint8 */
  gboolean host;        /* "@hostm" */
  float fixed_scale;    /* > 0: forced scale (cast, host outputs) */
  gint producer;        /* op index */
  gint share_of;        /* value whose chunk and offset this one reuses (reshape), -1 */
  gint concat_op;       /* concat whose chunk holds this value, -1 */
  gint scale_parent;    /* union-find over values that must share a scale */
  float scale;
  gint64 v_id;
  gint64 chunk;
  guint64 offset;
} NgValue;

typedef struct {
  NgOpKind kind;
  NgClass cls;
  gint inputs[NG_MAX_IO];
  guint n_inputs;
  gint outputs[NG_MAX_IO];
  guint n_outputs;
  /* conv / maxpool geometry */
  guint kernel, stride;
  gboolean depthwise;
  guint cin, cout, ib, ob;   /* conv channels and weight block sizes */
  gboolean fused_act;        /* origin_ops_id has the activation too */
  gboolean io_process;
  float *wscales;            /* conv: cout per-output-channel weight scales */
  gint read_state;
  gint64 op_id;
  gint64 origin[2];
  gint64 weight_vid, bias_vid, instr_vid;
  gint64 params_chunk;
  guint64 instr_words;
} NgOp;

typedef struct {
  GArray *values;   /* NgValue */
  GArray *ops;      /* NgOp */
  GRand *rand;
  gint64 instr_chunk;
  char *name;
  char *generator;  /* the "generator" tag: how to make this file again */
} NgGraph;

#define VAL(g, i) (&g_array_index ((g)->values, NgValue, (i)))
#define OP(g, i) (&g_array_index ((g)->ops, NgOp, (i)))

static void
ng_op_clear (gpointer data)
{
  NgOp *op = data;

  g_clear_pointer (&op->wscales, g_free);
}

static NgGraph *
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

static void
ng_graph_free (NgGraph *g)
{
  g_array_unref (g->values);
  g_array_unref (g->ops);
  g_rand_free (g->rand);
  g_free (g->name);
  g_free (g->generator);
  g_free (g);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NgGraph, ng_graph_free)

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

static guint64
value_bytes (const NgValue *v)
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

static gint
ng_conv (NgGraph *g, gint in, guint cout, guint k, guint stride, gboolean act)
{
  return ng_conv_full (g, in, cout, k, stride, act, FALSE);
}

static gint
ng_dwconv (NgGraph *g, gint in, guint k, guint stride)
{
  return ng_conv_full (g, in, VAL (g, in)->channels, k, stride, TRUE, TRUE);
}

static gint
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

static gint
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

static gint
ng_concat2 (NgGraph *g, gint a, gint b)
{
  gint ins[2] = { a, b };

  return ng_concat (g, ins, 2);
}

static gint
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

static gint
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
static void
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

static void
ng_output (NgGraph *g, const gint *ins, guint n)
{
  gint op = ng_new_op (g, NG_OP_OUTPUT, 0);

  for (guint i = 0; i < n; i++)
    ng_op_add_input (g, op, ins[i]);
}

/* Input -> Reshape -> Cast, the io-process prologue of every net. */
static gint
ng_prologue (NgGraph *g, guint height, guint width)
{
  return ng_cast (g, ng_reshape (g, ng_input (g, height, width)));
}

/* ---- the networks ---------------------------------------------------------- */

static void
build_tiny (NgGraph *g)
{
  gint x = ng_prologue (g, 16, 16);
  gint a = ng_conv (g, x, 32, 3, 1, TRUE);          /* 16x16 */
  gint b = ng_conv (g, a, 32, 3, 2, TRUE);          /* 8x8 */
  gint m = ng_maxpool (g, b, 5, 1);
  gint s = ng_add (g, b, m, FALSE);
  gint u = ng_upsample (g, s);                      /* 16x16 */
  gint c = ng_concat2 (g, u, a);                    /* 64 ch */
  gint y = ng_conv (g, c, 32, 1, 1, TRUE);

  ng_output (g, &y, 1);
}

static void
build_resnet18 (NgGraph *g)
{
  static const guint widths[4] = { 64, 128, 256, 512 };
  gint x = ng_prologue (g, 224, 224);

  x = ng_conv (g, x, 64, 7, 2, TRUE);               /* 112x112 */
  x = ng_maxpool (g, x, 3, 2);                      /* 56x56 */
  for (guint stage = 0; stage < 4; stage++)
    for (guint block = 0; block < 2; block++)
      {
        guint stride = stage > 0 && block == 0 ? 2 : 1;
        gint y = ng_conv (g, x, widths[stage], 3, stride, TRUE);
        gint shortcut = x;

        y = ng_conv (g, y, widths[stage], 3, 1, FALSE);
        if (stride != 1)
          shortcut = ng_conv (g, x, widths[stage], 1, stride, FALSE);
        x = ng_add (g, y, shortcut, TRUE);
      }
  ng_output (g, &x, 1);
}

static guint
round_up_32 (guint n)
{
  return (n + 31) / 32 * 32;
}

static void
build_mobilenetv2 (NgGraph *g)
{
  /* (expand ratio t, channels c, repeats n, stride s) of the paper. */
  static const guint settings[7][4] = {
    { 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 },
    { 6, 96, 3, 1 }, { 6, 160, 3, 2 }, { 6, 320, 1, 1 },
  };
  gint x = ng_prologue (g, 224, 224);
  guint in_c = 32;   /* the paper's channel count, before widening to 32-multiples */

  x = ng_conv (g, x, 32, 3, 2, TRUE);               /* 112x112 */
  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    for (guint r = 0; r < settings[i][2]; r++)
      {
        guint t = settings[i][0], c = settings[i][1];
        guint stride = r == 0 ? settings[i][3] : 1;
        gint y = x;

        if (t != 1)
          y = ng_conv (g, y, round_up_32 (in_c * t), 1, 1, TRUE);
        y = ng_dwconv (g, y, 3, stride);
        y = ng_conv (g, y, round_up_32 (c), 1, 1, FALSE);
        if (stride == 1 && in_c == c)
          y = ng_add (g, x, y, FALSE);
        x = y;
        in_c = c;
      }
  x = ng_conv (g, x, 1280, 1, 1, TRUE);             /* 7x7 */
  ng_output (g, &x, 1);
}

/* YOLOv5 C3: cv1 -> n bottlenecks (1x1, 3x3, optional add) ‖ cv2, concat, cv3. */
static gint
yolo_c3 (NgGraph *g, gint x, guint c_out, guint n, gboolean shortcut)
{
  guint hidden = c_out / 2;
  gint a = ng_conv (g, x, hidden, 1, 1, TRUE);
  gint b;

  for (guint i = 0; i < n; i++)
    {
      b = ng_conv (g, a, hidden, 1, 1, TRUE);
      b = ng_conv (g, b, hidden, 3, 1, TRUE);
      a = shortcut ? ng_add (g, a, b, FALSE) : b;
    }
  b = ng_conv (g, x, hidden, 1, 1, TRUE);
  return ng_conv (g, ng_concat2 (g, a, b), c_out, 1, 1, TRUE);
}

static void
build_yolov5s (NgGraph *g)
{
  gint x = ng_prologue (g, 352, 640);
  gint p3, p4, h10, h14, out3, out4, out5, pooled[4], heads[3], outs[3];

  /* The real net normalises the pixels with a 3->3 1x1 conv in the io process. */
  x = ng_conv (g, x, 3, 1, 1, FALSE);
  OP (g, g->ops->len - 1)->io_process = TRUE;
  x = ng_conv (g, x, 32, 6, 2, TRUE);               /* 176x320 */
  x = ng_conv (g, x, 64, 3, 2, TRUE);               /* 88x160 */
  x = yolo_c3 (g, x, 64, 1, TRUE);
  x = ng_conv (g, x, 128, 3, 2, TRUE);              /* 44x80 */
  p3 = yolo_c3 (g, x, 128, 2, TRUE);
  x = ng_conv (g, p3, 256, 3, 2, TRUE);             /* 22x40 */
  p4 = yolo_c3 (g, x, 256, 3, TRUE);
  x = ng_conv (g, p4, 512, 3, 2, TRUE);             /* 11x20 */
  x = yolo_c3 (g, x, 512, 1, TRUE);
  /* SPPF: three chained 5x5 pools, all four maps concatenated. */
  pooled[0] = ng_conv (g, x, 256, 1, 1, TRUE);
  for (guint i = 1; i < 4; i++)
    pooled[i] = ng_maxpool (g, pooled[i - 1], 5, 1);
  x = ng_conv (g, ng_concat (g, pooled, 4), 512, 1, 1, TRUE);
  /* PAN neck. */
  h10 = ng_conv (g, x, 256, 1, 1, TRUE);
  x = yolo_c3 (g, ng_concat2 (g, ng_upsample (g, h10), p4), 256, 1, FALSE);
  h14 = ng_conv (g, x, 128, 1, 1, TRUE);
  out3 = yolo_c3 (g, ng_concat2 (g, ng_upsample (g, h14), p3), 128, 1, FALSE);
  x = ng_conv (g, out3, 128, 3, 2, TRUE);
  out4 = yolo_c3 (g, ng_concat2 (g, x, h14), 256, 1, FALSE);
  x = ng_conv (g, out4, 256, 3, 2, TRUE);
  out5 = yolo_c3 (g, ng_concat2 (g, x, h10), 512, 1, FALSE);
  /* Detect: 3 anchors x (5 + 80), each anchor padded to 128 channels. */
  heads[0] = ng_conv (g, out3, 384, 1, 1, FALSE);
  heads[1] = ng_conv (g, out4, 384, 1, 1, FALSE);
  heads[2] = ng_conv (g, out5, 384, 1, 1, FALSE);
  ng_detpost (g, heads, outs);
  ng_output (g, outs, 3);
}

static void
build_chain (NgGraph *g, guint n_ops)
{
  gint x = ng_prologue (g, 8, 8);
  guint left, unit = 0;

  x = ng_conv (g, x, 32, 3, 2, TRUE);               /* 4x4 */
  /* Input, Reshape, Cast, stem conv and Output are 5 ops. */
  left = n_ops - 5;
  while (left > 0)
    {
      if (unit % 4 == 3 && left >= 4)
        {
          gint a = ng_conv (g, x, 32, 1, 1, TRUE);
          gint b = ng_conv (g, x, 32, 1, 1, TRUE);

          x = ng_conv (g, ng_concat2 (g, a, b), 32, 1, 1, TRUE);
          left -= 4;
        }
      else if (left >= 3)
        {
          gint y = ng_conv (g, x, 32, 1, 1, TRUE);

          y = ng_conv (g, y, 32, 1, 1, FALSE);
          x = ng_add (g, x, y, TRUE);
          left -= 3;
        }
      else
        {
          x = ng_conv (g, x, 32, 1, 1, TRUE);
          left -= 1;
        }
      unit++;
    }
  ng_output (g, &x, 1);
}

/* ---- passes ------------------------------------------------------------------ */

static gboolean
op_is_zero_copy (const NgOp *op)
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
static guint64
instr_words (NgGraph *g, const NgOp *op)
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
      return align16 (144 + value_bytes (in) / 1800);
    case NG_MAXPOOL:
      return align16 (400 + 8 * op->kernel * op->kernel + value_bytes (in) / 1800);
    case NG_CAST:
      return align16 (256 + value_bytes (in) / 300);
    case NG_RESHAPE:
    case NG_CONCAT:
    default:
      return 0;
    }
}

static void
assign_ids (NgGraph *g)
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
      if (!op_is_zero_copy (op))
        last_writer = (gint) i;
      op->instr_words = instr_words (g, op);
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

static void
assign_chunks (NgGraph *g)
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
          offset += value_bytes (v);
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

static void
assign_scales (NgGraph *g)
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

/* ---- JSON ------------------------------------------------------------------- */

static gboolean
format_float_prec (char *buf, gsize size, float f, int prec)
{
  char fmt[8];

  g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
  g_ascii_formatd (buf, size, fmt, f);
  return (float) g_ascii_strtod (buf, NULL) == f;
}

/* Shortest text that reads back as the same float, as the vendor prints scales.
 * If p digits read back so do p + 1, so search from 6 in the right direction
 * (random scales need 7-9 digits; 9 always suffice). */
static void
append_float (GString *s, float f)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int prec = 6;

  if (format_float_prec (buf, sizeof buf, f, prec))
    {
      while (prec > 1 && format_float_prec (buf, sizeof buf, f, prec - 1))
        prec--;
      format_float_prec (buf, sizeof buf, f, prec);
    }
  else
    while (!format_float_prec (buf, sizeof buf, f, ++prec))
      ;
  g_string_append (s, buf);
}

/* "@scales([axis=A]...)" with runs of equal values written "N*v". */
static char *
format_scales (gint axis, const float *values, guint n)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "@scales([axis=%d]", axis);
  for (guint i = 0; i < n;)
    {
      guint run = 1;

      while (i + run < n && values[i + run] == values[i])
        run++;
      if (i > 0)
        g_string_append_c (s, ',');
      if (run > 1)
        g_string_append_printf (s, "%u*", run);
      append_float (s, values[i]);
      i += run;
    }
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

static cJSON *
quantized_type (char *scale_text)
{
  cJSON *q = cJSON_CreateObject ();

  cJSON_AddStringToObject (q, "_type_key", "icraft::xir::QuantizedType");
  cJSON_AddStringToObject (q, "expressed_dtype", "@fp(32)");
  cJSON_AddStringToObject (q, "scale", scale_text);
  cJSON_AddStringToObject (q, "storage_dtype", "@sint(8)");
  cJSON_AddItemToObject (q, "zero_points", cJSON_CreateArray ());
  g_free (scale_text);
  return q;
}

static cJSON *
distr (guint axis_a, guint axis_b, guint valid)
{
  char *text = g_strdup_printf ("@merged_distr([%u, %u]^ZERO:{v:[0, %u)})", axis_a, axis_b, valid);
  cJSON *s = cJSON_CreateString (text);

  g_free (text);
  return s;
}

static cJSON *
tensor_type (cJSON *element, const char *layout, cJSON *distrs, const gint64 *shape, guint rank)
{
  cJSON *t = cJSON_CreateObject ();
  cJSON *dims = cJSON_CreateArray ();
  char *layout_text = g_strdup_printf ("@layout(%s)", layout);

  for (guint i = 0; i < rank; i++)
    cJSON_AddItemToArray (dims, cJSON_CreateNumber ((double) shape[i]));
  cJSON_AddStringToObject (t, "_type_key", "icraft::xir::TensorType");
  cJSON_AddItemToObject (t, "element_dtype", element);
  cJSON_AddStringToObject (t, "layout", layout_text);
  cJSON_AddItemToObject (t, "merged_distrs", distrs);
  cJSON_AddItemToObject (t, "shape", dims);
  g_free (layout_text);
  return t;
}

static void
add_chunk_mtype (cJSON *obj, gint64 chunk, guint64 offset)
{
  char *text = g_strdup_printf ("@chunk(%" G_GINT64_FORMAT "@%" G_GUINT64_FORMAT ")", chunk, offset);

  cJSON_AddStringToObject (obj, "mtype", text);
  g_free (text);
}

static cJSON *
value_json (NgGraph *g, gint index)
{
  const NgValue *v = VAL (g, index);
  cJSON *obj = cJSON_CreateObject ();
  cJSON *element, *distrs = cJSON_CreateArray ();
  gint64 shape[5];
  guint rank;
  char layout[16];

  if (v->layout == NG_LAYOUT_NHWC)
    {
      gint64 s[4] = { 1, v->height, v->width, v->channels };
      memcpy (shape, s, sizeof s);
      rank = 4;
      g_strlcpy (layout, "NHWC", sizeof layout);
    }
  else
    {
      gint64 s[5] = { 1, v->channels / v->block, v->height, v->width, v->block };
      memcpy (shape, s, sizeof s);
      rank = 5;
      g_snprintf (layout, sizeof layout, v->layout == NG_LAYOUT_STAR_C ? "*C**c%u" : "NCHWc%u",
                  v->block);
      cJSON_AddItemToArray (distrs, distr (1, 4, v->channels));
    }
  if (v->quantized)
    {
      float *scales = g_new (float, v->channels);

      for (guint i = 0; i < v->channels; i++)
        scales[i] = v->scale;
      element = quantized_type (format_scales (-1, scales, v->channels));
      g_free (scales);
    }
  else
    element = cJSON_CreateString ("@uint(8)");

  cJSON_AddStringToObject (obj, "_type_key", "icraft::xir::Value");
  cJSON_AddItemToObject (obj, "dtype", tensor_type (element, layout, distrs, shape, rank));
  if (v->host)
    cJSON_AddStringToObject (obj, "mtype", "@hostm");
  else
    add_chunk_mtype (obj, v->chunk, v->offset);
  cJSON_AddStringToObject (obj, "name", "");
  cJSON_AddItemToObject (obj, "tags", cJSON_CreateObject ());
  cJSON_AddNumberToObject (obj, "v_id", (double) v->v_id);
  return obj;
}

static cJSON *
params_json (gint64 v_id, const char *name, cJSON *dtype, gint64 chunk, guint64 offset)
{
  cJSON *obj = cJSON_CreateObject ();

  cJSON_AddBoolToObject (obj, "_allow_no_data", FALSE);
  cJSON_AddStringToObject (obj, "_type_key", "icraft::xir::Params");
  cJSON_AddItemToObject (obj, "dtype", dtype);
  add_chunk_mtype (obj, chunk, offset);
  cJSON_AddStringToObject (obj, "name", name);
  cJSON_AddItemToObject (obj, "tags", cJSON_CreateObject ());
  cJSON_AddNumberToObject (obj, "v_id", (double) v_id);
  return obj;
}

static cJSON *
values_json (NgGraph *g, const gint *values, guint n)
{
  cJSON *array = cJSON_CreateArray ();

  for (guint i = 0; i < n; i++)
    cJSON_AddItemToArray (array, value_json (g, values[i]));
  return array;
}

static void
add_conv_params (const NgOp *op, cJSON *params)
{
  guint i_dim = op->depthwise ? 1 : op->cin;
  gint64 wshape[6] = { op->cout / op->ob, i_dim / op->ib, op->kernel, op->kernel, op->ob, op->ib };
  gint64 bshape[2] = { op->cout / op->ob, op->ob };
  guint64 weight_bytes = (guint64) op->cout * i_dim * op->kernel * op->kernel;
  char layout[32];
  cJSON *distrs = cJSON_CreateArray ();

  cJSON_AddItemToArray (distrs, distr (1, 5, i_dim));
  cJSON_AddItemToArray (distrs, distr (0, 4, op->cout));
  g_snprintf (layout, sizeof layout, "OIHWo%ui%u", op->ob, op->ib);
  cJSON_AddItemToArray (params,
                        params_json (op->weight_vid, "",
                                     tensor_type (quantized_type (format_scales (4, op->wscales, op->cout)),
                                                  layout, distrs, wshape, 6),
                                     op->params_chunk, 0));
  g_snprintf (layout, sizeof layout, "Oo%u", op->ob);
  /* The bias follows the weights in the same chunk. */
  cJSON_AddItemToArray (params,
                        params_json (op->bias_vid, "",
                                     tensor_type (cJSON_CreateString ("@fp(16)"), layout,
                                                  cJSON_CreateArray (), bshape, 2),
                                     op->params_chunk, weight_bytes));
}

static cJSON *
hardop_json (NgGraph *g, const NgOp *op)
{
  cJSON *obj = cJSON_CreateObject ();
  cJSON *instr = cJSON_CreateArray (), *params = cJSON_CreateArray ();
  cJSON *origin = cJSON_CreateArray (), *tags = cJSON_CreateObject (), *rs;
  gint64 words = (gint64) op->instr_words;
  char *instr_name = g_strdup_printf ("%" G_GINT64_FORMAT "_instr", op->op_id);

  cJSON_AddStringToObject (obj, "_type_key", "icraft::xir::HardOp");
  cJSON_AddStringToObject (obj, "compile_target", "@zhuget(330)");
  cJSON_AddItemToObject (obj, "device_info", cJSON_CreateObject ());
  cJSON_AddItemToObject (obj, "inputs", values_json (g, op->inputs, op->n_inputs));
  cJSON_AddItemToArray (instr,
                        params_json (op->instr_vid, instr_name,
                                     tensor_type (cJSON_CreateString ("@uint(64)"), "*",
                                                  cJSON_CreateArray (), &words, 1),
                                     g->instr_chunk, 0));
  cJSON_AddItemToObject (obj, "instr", instr);
  cJSON_AddNumberToObject (obj, "layer_count", op_is_zero_copy (op) ? 0 : 1);
  cJSON_AddStringToObject (obj, "name", class_names[op->cls]);
  cJSON_AddNumberToObject (obj, "op_id", (double) op->op_id);
  cJSON_AddItemToArray (origin, cJSON_CreateNumber ((double) op->origin[0]));
  if (op->fused_act)
    cJSON_AddItemToArray (origin, cJSON_CreateNumber ((double) op->origin[1]));
  cJSON_AddItemToObject (obj, "origin_ops_id", origin);
  cJSON_AddItemToObject (obj, "outputs", values_json (g, op->outputs, op->n_outputs));
  if (op->cls == NG_CONV)
    add_conv_params (op, params);
  cJSON_AddItemToObject (obj, "params", params);
  cJSON_AddItemToObject (obj, "sub_hard_ops", cJSON_CreateArray ());
  rs = cJSON_CreateArray ();
  cJSON_AddItemToArray (rs, cJSON_CreateNumber (0));
  cJSON_AddItemToArray (rs, cJSON_CreateNumber (op->read_state));
  cJSON_AddItemToObject (tags, "ReadState", rs);
  if (op->io_process)
    cJSON_AddBoolToObject (tags, "io_process", TRUE);
  cJSON_AddItemToObject (obj, "tags", tags);
  g_free (instr_name);
  return obj;
}

static cJSON *
detpost_json (NgGraph *g, const NgOp *op)
{
  static const int data_thr[3] = { -15, -18, -19 };
  cJSON *obj = cJSON_CreateObject ();
  cJSON *tags = cJSON_CreateObject ();

  /* The attributes of the real yolov5s's DetPostZG. */
  cJSON_AddStringToObject (obj, "_type_key", "customop::DetPostZG");
  cJSON_AddNumberToObject (obj, "anchor_num", 3);
  cJSON_AddNumberToObject (obj, "chn_1st", 2);
  cJSON_AddNumberToObject (obj, "chn_2nd", 0);
  cJSON_AddNumberToObject (obj, "chn_3rd", 0);
  cJSON_AddNumberToObject (obj, "cmp_chn", 1);
  cJSON_AddNumberToObject (obj, "cmp_en", 1);
  cJSON_AddNumberToObject (obj, "cmp_mask0", -17);
  cJSON_AddNumberToObject (obj, "cmp_mask1", -1);
  cJSON_AddStringToObject (obj, "compile_target", "@fpgat");
  cJSON_AddItemToObject (obj, "data_thr", cJSON_CreateIntArray (data_thr, 3));
  cJSON_AddItemToObject (obj, "inputs", values_json (g, op->inputs, op->n_inputs));
  cJSON_AddNumberToObject (obj, "layer_en", 1);
  cJSON_AddStringToObject (obj, "name", "");
  cJSON_AddNumberToObject (obj, "op_id", (double) op->op_id);
  cJSON_AddItemToObject (obj, "outputs", values_json (g, op->outputs, op->n_outputs));
  cJSON_AddNumberToObject (obj, "reg_base", 0);
  cJSON_AddNumberToObject (obj, "sleep_time", 0);
  cJSON_AddBoolToObject (tags, "input_etm", TRUE);
  cJSON_AddBoolToObject (tags, "output_etm", FALSE);
  cJSON_AddItemToObject (obj, "tags", tags);
  /* A float attribute: the vendor writes the float32 widened to double. */
  cJSON_AddNumberToObject (obj, "thr_f", (double) 0.1f);
  cJSON_AddNumberToObject (obj, "valid_chn", 3);
  return obj;
}

static cJSON *
io_op_json (NgGraph *g, const NgOp *op, gboolean detpost)
{
  cJSON *obj = cJSON_CreateObject ();
  cJSON *tags = cJSON_CreateObject ();

  cJSON_AddStringToObject (obj, "_type_key",
                           op->kind == NG_OP_INPUT ? "icraft::xir::Input" : "icraft::xir::Output");
  cJSON_AddStringToObject (obj, "compile_target", "@hostt");
  cJSON_AddItemToObject (obj, "inputs", values_json (g, op->inputs, op->n_inputs));
  cJSON_AddStringToObject (obj, "name", "");
  cJSON_AddNumberToObject (obj, "op_id", (double) op->op_id);
  cJSON_AddItemToObject (obj, "outputs", values_json (g, op->outputs, op->n_outputs));
  if (op->kind == NG_OP_OUTPUT && detpost)
    cJSON_AddBoolToObject (tags, "detpost", TRUE);
  cJSON_AddItemToObject (obj, "tags", tags);
  return obj;
}

static int
compare_keys (const void *a, const void *b)
{
  return strcmp ((*(cJSON *const *) a)->string, (*(cJSON *const *) b)->string);
}

/* The vendor writes every object's keys in byte order; sort ours the same way so a
 * file diff against a real network shows only real differences. */
static void
json_sort_keys (cJSON *item)
{
  cJSON *children[64];
  guint n = 0;

  for (cJSON *c = item->child; c != NULL; c = c->next)
    json_sort_keys (c);
  if (!cJSON_IsObject (item) || item->child == NULL)
    return;
  for (cJSON *c = item->child; c != NULL; c = c->next)
    {
      g_assert (n < G_N_ELEMENTS (children));
      children[n++] = c;
    }
  qsort (children, n, sizeof children[0], compare_keys);
  for (guint i = 0; i < n; i++)
    {
      /* cJSON lists: head->prev is the tail, tail->next is NULL. */
      children[i]->prev = children[i == 0 ? n - 1 : i - 1];
      children[i]->next = i + 1 < n ? children[i + 1] : NULL;
    }
  item->child = children[0];
}

static cJSON *
graph_to_json (NgGraph *g)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *ops = cJSON_CreateArray ();
  cJSON *tags = cJSON_CreateObject ();
  gboolean detpost = FALSE;

  for (guint i = 0; i < g->ops->len; i++)
    detpost |= OP (g, i)->kind == NG_OP_DETPOST;
  for (guint i = 0; i < g->ops->len; i++)
    {
      const NgOp *op = OP (g, i);

      switch (op->kind)
        {
        case NG_OP_HARD:
          cJSON_AddItemToArray (ops, hardop_json (g, op));
          break;
        case NG_OP_DETPOST:
          cJSON_AddItemToArray (ops, detpost_json (g, op));
          break;
        case NG_OP_INPUT:
        case NG_OP_OUTPUT:
        default:
          cJSON_AddItemToArray (ops, io_op_json (g, op, detpost));
          break;
        }
    }
  cJSON_AddStringToObject (root, "_type_key", "icraft::xir::Network");
  cJSON_AddStringToObject (root, "ai_target", "@zhuget(330)");
  cJSON_AddStringToObject (root, "framework_kind", "PYTORCH");
  cJSON_AddStringToObject (root, "framework_version", "1.9");
  cJSON_AddStringToObject (root, "icraft_version", "v3.33.1");
  cJSON_AddStringToObject (root, "icraft_xir_version", "3.33.1.0");
  cJSON_AddStringToObject (root, "name", g->name);
  cJSON_AddItemToObject (root, "ops", ops);
  cJSON_AddNumberToObject (root, "params_bytes", 0);
  cJSON_AddStringToObject (root, "params_md5", "");
  cJSON_AddBoolToObject (tags, "bgr_order", TRUE);
  /* Not a vendor tag: says the file is synthetic and how to make it again. */
  cJSON_AddStringToObject (tags, "generator", g->generator);
  cJSON_AddItemToObject (root, "tags", tags);
  json_sort_keys (root);
  return root;
}

/* ---- public API ------------------------------------------------------------- */

static const char *const network_names[] = {
  "tiny", "resnet18", "mobilenetv2", "yolov5s", "chain", NULL,
};

void
zw_netgen_options_init (ZwNetgenOptions *opts)
{
  g_return_if_fail (opts != NULL);
  opts->seed = 1;
  opts->n_ops = 0;
}

const char *const *
zw_netgen_get_names (void)
{
  return network_names;
}

cJSON *
zw_netgen_build_json (const char *name, const ZwNetgenOptions *opts, GError **error)
{
  ZwNetgenOptions defaults;
  g_autoptr (NgGraph) g = NULL;
  g_autofree char *generator = NULL;
  gboolean is_chain;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (opts == NULL)
    {
      zw_netgen_options_init (&defaults);
      opts = &defaults;
    }
  if (!g_strv_contains (network_names, name))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) network_names);
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_UNKNOWN_NETWORK,
                   "unknown network \"%s\" (known: %s)", name, known);
      return NULL;
    }
  is_chain = strcmp (name, "chain") == 0;
  if (!is_chain && opts->n_ops != 0)
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   "network \"%s\": --ops applies to chain only", name);
      return NULL;
    }
  if (is_chain && opts->n_ops != 0
      && (opts->n_ops < ZW_NETGEN_CHAIN_MIN_OPS || opts->n_ops > ZW_NETGEN_CHAIN_MAX_OPS))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   "network \"chain\": --ops %u is out of range [%d, %d]", opts->n_ops,
                   ZW_NETGEN_CHAIN_MIN_OPS, ZW_NETGEN_CHAIN_MAX_OPS);
      return NULL;
    }

  if (is_chain)
    generator = g_strdup_printf ("zw-netgen chain --ops %u --seed %" G_GUINT64_FORMAT,
                                 opts->n_ops ? opts->n_ops : ZW_NETGEN_CHAIN_DEFAULT_OPS, opts->seed);
  else
    generator = g_strdup_printf ("zw-netgen %s --seed %" G_GUINT64_FORMAT, name, opts->seed);
  g = ng_graph_new (name, opts->seed, generator);
  if (strcmp (name, "tiny") == 0)
    build_tiny (g);
  else if (strcmp (name, "resnet18") == 0)
    build_resnet18 (g);
  else if (strcmp (name, "mobilenetv2") == 0)
    build_mobilenetv2 (g);
  else if (strcmp (name, "yolov5s") == 0)
    build_yolov5s (g);
  else
    build_chain (g, opts->n_ops ? opts->n_ops : ZW_NETGEN_CHAIN_DEFAULT_OPS);

  assign_ids (g);
  assign_chunks (g);
  assign_scales (g);
  return graph_to_json (g);
}

/* The placeholders graph_to_json writes; keys are sorted, so they are adjacent. */
#define PARAMS_PLACEHOLDER "\"params_bytes\":0,\"params_md5\":\"\""

gboolean
zw_netgen_write_network (const char *name, const ZwNetgenOptions *opts, const char *dir,
                         char **json_path_out, char **raw_path_out, GError **error)
{
  cJSON *root;
  char *text = NULL;
  const char *slot;
  g_autofree char *base = NULL, *json_path = NULL, *raw_path = NULL, *md5 = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (GMappedFile) raw = NULL;
  g_autoptr (GString) final = NULL;
  GError *local = NULL;
  ZwNetgenOptions defaults;
  gsize raw_size;
  gboolean raw_written = FALSE;

  g_return_val_if_fail (name != NULL && dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (opts == NULL)
    {
      zw_netgen_options_init (&defaults);
      opts = &defaults;
    }
  root = zw_netgen_build_json (name, opts, error);
  if (root == NULL)
    return FALSE;
  /* Only the text is kept: a 10,000-op tree is hundreds of MB. */
  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  if (text == NULL)
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO, "network %s: out of memory printing the JSON", name);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO,
                   "cannot create output directory %s: %s", dir, g_strerror (saved));
      goto fail;
    }
  base = g_build_filename (dir, name, NULL);
  json_path = g_strconcat (base, "_ZG.json", NULL);
  raw_path = g_strconcat (base, "_ZG.raw", NULL);

  /* 1. Load the JSON (with placeholders) with the xir loader, so the params are
   *    laid out by the same code that will read them. Nothing is on disk yet. */
  net = xir_network_new_from_json_data (text, strlen (text), json_path, &local);
  if (net == NULL)
    goto fail_params;
  /* 2. The .raw. */
  xir_network_fake_params (net, opts->seed);
  if (!xir_network_write_params_file (net, raw_path, &local))
    goto fail_params;
  raw_written = TRUE;
  raw = zw_file_map_regular (raw_path, ZW_INPUT_PARAMS, 0, &local);
  if (raw == NULL)
    goto fail_params;
  raw_size = g_mapped_file_get_length (raw);
  if (raw_size != xir_network_compute_params_bytes (net))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_PARAMS,
                   "%s: wrote %" G_GSIZE_FORMAT " bytes, expected %" G_GUINT64_FORMAT,
                   raw_path, raw_size, xir_network_compute_params_bytes (net));
      goto fail;
    }
  md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5,
                                     (const guchar *) g_mapped_file_get_contents (raw), raw_size);

  /* 3. The JSON, with the size and md5 of the .raw just written. */
  slot = strstr (text, PARAMS_PLACEHOLDER);
  g_assert (slot != NULL && strstr (slot + 1, PARAMS_PLACEHOLDER) == NULL);
  final = g_string_sized_new (strlen (text) + 64);
  g_string_append_len (final, text, slot - text);
  g_string_append_printf (final, "\"params_bytes\":%" G_GSIZE_FORMAT ",\"params_md5\":\"%s\"", raw_size, md5);
  g_string_append (final, slot + strlen (PARAMS_PLACEHOLDER));
  if (!zw_file_set_contents (json_path, final->str, (gssize) final->len, &local))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO, "%s", local->message);
      g_error_free (local);
      goto fail;
    }

  cJSON_free (text);
  if (json_path_out != NULL)
    *json_path_out = g_steal_pointer (&json_path);
  if (raw_path_out != NULL)
    *raw_path_out = g_steal_pointer (&raw_path);
  return TRUE;

fail_params:
  g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_PARAMS, "%s", local->message);
  g_error_free (local);
fail:
  /* Never leave a .raw that no JSON (or an older JSON) describes. */
  if (raw_written)
    g_remove (raw_path);
  cJSON_free (text);
  return FALSE;
}
