/* netgen-private.h — shared by the network generator's files (netgen.c, netgen-graph.c,
 * netgen-networks.c, netgen-passes.c, netgen-json.c); not installed. */
#pragma once

#include "netgen.h"

#include <string.h>
#include <cjson/cJSON.h>

#include "xir/xir-network.h"

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

/* HardOp classes; the order is also the op-id group order (see ng_assign_ids). */
typedef enum {
  NG_CONV,
  NG_CAST,
  NG_UPSAMPLE,
  NG_ADD,
  NG_MAXPOOL,
  NG_RESHAPE,
  NG_CONCAT,
} NgClass;

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

/* ---- the graph and its builders (netgen-graph.c) ---- */

NgGraph *ng_graph_new (const char *name, guint64 seed, const char *generator);
void ng_graph_free (NgGraph *g);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NgGraph, ng_graph_free)
guint64 ng_value_bytes (const NgValue *v);
/* Each builder adds one op in execution order and returns its output value. */
gint ng_prologue (NgGraph *g, guint height, guint width);
gint ng_input_map (NgGraph *g, guint channels, guint height, guint width);
void ng_prologue_n (NgGraph *g, guint height, guint width, guint n, gint *out);
gint ng_conv (NgGraph *g, gint in, guint cout, guint k, guint stride, gboolean act);
gint ng_dwconv (NgGraph *g, gint in, guint k, guint stride);
gint ng_add (NgGraph *g, gint a, gint b, gboolean act);
gint ng_concat (NgGraph *g, const gint *ins, guint n);
gint ng_concat2 (NgGraph *g, gint a, gint b);
gint ng_maxpool (NgGraph *g, gint in, guint k, guint stride);
gint ng_upsample (NgGraph *g, gint in);
void ng_detpost (NgGraph *g, const gint heads[3], gint outs[3]);
void ng_output (NgGraph *g, const gint *ins, guint n);

/* ---- the networks (netgen-networks.c) ---- */

void ng_build_tiny (NgGraph *g);
void ng_build_twoin (NgGraph *g);
void ng_build_tail (NgGraph *g);
void ng_build_resnet18 (NgGraph *g);
void ng_build_mobilenetv2 (NgGraph *g);
void ng_build_yolov5s (NgGraph *g);
void ng_build_chain (NgGraph *g, guint n_ops);

/* ---- the passes (netgen-passes.c) ---- */

gboolean ng_op_is_zero_copy (const NgOp *op);
guint64 ng_instr_words (NgGraph *g, const NgOp *op);
void ng_assign_ids (NgGraph *g);
void ng_assign_chunks (NgGraph *g);
void ng_assign_scales (NgGraph *g);

/* ---- JSON (netgen-json.c) ---- */

cJSON *ng_graph_to_json (NgGraph *g);
