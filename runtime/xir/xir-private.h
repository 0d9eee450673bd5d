/* xir-private.h — what the files of xir/ share (the network struct, the loader's JSON
 * context and accessors, the building steps the whole-tree and streamed loads share);
 * not installed. */
#pragma once

#include "xir/xir-network.h"

struct _XirNetwork {
  gint ref_count;
  char *path;
  char *name;
  char *ai_target;
  char *framework_kind;
  char *framework_version;
  char *icraft_version;
  char *icraft_xir_version;
  char *params_md5;
  guint64 params_bytes;
  gboolean has_params_bytes;
  cJSON *tags;

  GPtrArray *ops;           /* XirOp*, owned */
  GHashTable *op_by_id;     /* gint64* -> XirOp* */
  GPtrArray *values;        /* features, owned */
  GPtrArray *params;        /* params, owned, file order */
  GHashTable *value_by_id;  /* gint64* -> XirValue* (features and params) */
  GPtrArray *inputs;
  GPtrArray *outputs;
  GPtrArray *chunks;        /* XirChunk*, owned, by id */
  GHashTable *chunk_by_id;  /* gint64* -> XirChunk* */
  GHashTable *json_of;      /* while loading: v_id -> the cJSON of its first appearance */
  struct XirLoadText *load_text; /* while a streamed load: the texts of first appearances */
  GArray *no_consumers;     /* the one empty consumers list that every params value shares */
  gint64 max_op_id;
  guint64 total_instr_words;

  /* Params data: either a whole .raw (eager or mapped) or synthetic bytes. */
  GBytes *params_blob;      /* the data, NULL before load */
  guint64 *param_offsets;   /* per params index: offset of its bytes in params_blob */
  char *params_path;
  gboolean params_synthetic; /* xir_network_fake_params */
  guint64 params_seed;
};

/* Formats "origin: " + message into a GError. */
void xir_set_error (GError **error, XirError code, const char *origin,
                    const char *format, ...) G_GNUC_PRINTF (4, 5);

/* ---- the loader's JSON access (xir-json.c) ---------------------------------- */

/* Context of the object being parsed, for error messages. The "where" text ("op 5 (ops[3]):
 * inputs[0] (v_id 7): dtype") is formatted only when an error needs it: a large network has
 * hundreds of thousands of contexts and no error. */
typedef enum {
  CTX_FIXED,        /* text */
  CTX_OP_INDEX,     /* "ops[index]" */
  CTX_OP,           /* "op id (ops[index])" */
  CTX_VALUE_INDEX,  /* "parent: text[index]" */
  CTX_VALUE,        /* "parent: text[index] (v_id id)" */
  CTX_SUFFIX,       /* "parent: text" */
} CtxKind;

typedef struct Ctx Ctx;
struct Ctx {
  const char *origin;
  const Ctx *parent;
  CtxKind kind;
  const char *text;
  guint index;
  gint64 id;
  gboolean formatted;  /* where[] holds the text (a cache, filled through a const pointer) */
  char where[160];
};

static inline void
ctx_init (Ctx *ctx, const char *origin, const Ctx *parent, CtxKind kind, const char *text, guint index, gint64 id)
{
  ctx->origin = origin;
  ctx->parent = parent;
  ctx->kind = kind;
  ctx->text = text;
  ctx->index = index;
  ctx->id = id;
  ctx->formatted = FALSE;
}

const char *xir_ctx_where (const Ctx *c);
void xir_json_fields (const cJSON *obj, const char *const *keys, guint n_keys, const cJSON **items);
gboolean xir_json_item_int64 (const Ctx *ctx, const cJSON *item, const char *key, gboolean required, gint64 *out,
                              GError **error);
gboolean xir_json_get_int64 (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required, gint64 *out,
                             GError **error);
const char *xir_json_item_string (const Ctx *ctx, const cJSON *item, const char *key, gboolean required,
                                  GError **error);
const char *xir_json_get_string (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required,
                                 GError **error);
const cJSON *xir_json_item_typed (const Ctx *ctx, const cJSON *item, const char *key, gboolean required,
                                  cJSON_bool (*is_type) (const cJSON *), const char *type_name, GError **error);
const cJSON *xir_json_get_typed (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required,
                                 cJSON_bool (*is_type) (const cJSON *), const char *type_name, GError **error);

/* ---- the "@…" notation (xir-notation.c) ------------------------------------------ */

const char *xir_notation_inner (const char *text, const char *prefix, gsize *inner_len);
gboolean xir_parse_uint_span (const char *text, gsize len, int base, guint64 max, guint64 *out);

/* ---- values and ops (xir-value.c, xir-operation.c) ------------------------------- */

char *xir_string_keep (const cJSON *item, const char *s, gboolean take);
XirValue *xir_value_parse (const Ctx *op_ctx, const char *field, guint idx, const cJSON *obj, gboolean is_params,
                           gboolean consume, GArray *no_consumers, GError **error);
gboolean xir_value_same (const XirValue *a, const XirValue *b);
void xir_op_free (XirOp *op);
XirOp *xir_op_parse (XirNetwork *net, const char *origin, guint index, cJSON *obj, GError **error);

/* ---- building a network (xir-network.c, xir-network-build.c, xir-stream.c) ------- */

/* A streamed load keeps no JSON tree: a value's first appearance is kept as its text, and
 * the text of the current op's inputs and outputs is known item by item. */
typedef struct {
  const char *text;
  gsize len;
} TextSpan;

typedef struct XirLoadText XirLoadText;
struct XirLoadText {
  GHashTable *first;     /* v_id -> 1 + index in spans */
  GArray *spans;         /* TextSpan: first appearances */
  GArray *inputs;        /* TextSpan: the current op's "inputs" items */
  GArray *outputs;       /* TextSpan: the current op's "outputs" items */
};

XirNetwork *xir_network_alloc (const char *origin);
gboolean xir_network_parse_value_list (XirNetwork *net, const Ctx *ctx, XirOp *op, const cJSON *field_item,
                                       const char *field, gboolean required, GPtrArray *dest, GError **error);
gboolean xir_network_build_head (XirNetwork *net, const cJSON *root, GError **error);
gboolean xir_network_build_op (XirNetwork *net, guint index, cJSON *item, GError **error);
gboolean xir_network_build_tail (XirNetwork *net, GError **error);
gboolean xir_network_build (XirNetwork *net, cJSON *root, GError **error);
/* The streamed load, or NULL: then the whole-tree load gives the answer. */
XirNetwork *xir_network_new_streamed (const char *data, gsize length, const char *origin);
