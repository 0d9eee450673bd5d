/* xir-network.h — the Icraft XIR network model, loaded from the vendor's JSON + raw files.
 *
 * A network is loaded from the JSON exactly as the vendor's compiler writes it
 * (see DESIGN.md §4), optionally with its params (.raw) eagerly or lazily.
 * Ops keep file order (= execution order); op ids are not monotonic, so every
 * lookup by id goes through a hash index.
 *
 * Ownership: XirNetwork is reference counted. Every XirOp, XirValue and XirChunk
 * pointer returned by the accessors is owned by the network and valid while a
 * reference to it is held. All structures are read-only for callers.
 *
 * Errors: every fallible call fills a GError in XIR_ERROR whose message names
 * the file, the op id or value id and the JSON field at fault.
 */
#pragma once

#include <glib.h>
#include <glib-object.h>
#include <cjson/cJSON.h>

G_BEGIN_DECLS

#define XIR_ERROR (xir_error_quark ())
/**
 * xir_error_quark:
 *
 * The error domain of xir/ (XIR_ERROR): loading a network, its params and the vendor's
 * notation.
 */
GQuark xir_error_quark (void);

/**
 * XirError:
 * @XIR_ERROR_IO: the file could not be read or written
 * @XIR_ERROR_PARSE: the file is not valid JSON (or not a raw params file)
 * @XIR_ERROR_FIELD: a required field is missing or has the wrong type
 * @XIR_ERROR_VALUE: a field has a value we do not understand (unknown dtype, layout …)
 * @XIR_ERROR_REFERENCE: a reference does not resolve (dangling v_id, duplicate op_id …)
 * @XIR_ERROR_PARAMS: the raw params file does not match the network (sizes, count, md5)
 * @XIR_ERROR_RANGE: an index or number is out of range
 * @XIR_ERROR_INVALID_ARGUMENT: a NULL or invalid argument to a call (the message names it)
 */
typedef enum {
  XIR_ERROR_IO,
  XIR_ERROR_PARSE,
  XIR_ERROR_FIELD,
  XIR_ERROR_VALUE,
  XIR_ERROR_REFERENCE,
  XIR_ERROR_PARAMS,
  XIR_ERROR_RANGE,
  XIR_ERROR_INVALID_ARGUMENT,
} XirError;

/* ---- element types ---------------------------------------------------- */

typedef enum {
  XIR_SCALAR_SINT,  /* "@sint(N)" */
  XIR_SCALAR_UINT,  /* "@uint(N)" */
  XIR_SCALAR_FP,    /* "@fp(16|32|64)" */
  XIR_SCALAR_BF,    /* "@bf(16)" */
} XirScalarKind;

typedef struct {
  XirScalarKind kind;
  guint bits;
} XirScalarType;

typedef enum {
  XIR_ELEMENT_PLAIN,                 /* "@sint(8)", "@fp(32)" … */
  XIR_ELEMENT_QUANTIZED,             /* icraft::xir::QuantizedType: storage, scale */
  XIR_ELEMENT_NORMALIZED_QUANTIZED,  /* icraft::xir::NormalizedQuantizedType: + normratio */
  XIR_ELEMENT_NORMALIZED,            /* icraft::xir::NormalizedType: storage, normratio */
  XIR_ELEMENT_CALIBRATED,            /* icraft::xir::CalibratedType: storage, min, max, sat */
} XirElementKind;

/**
 * xir_element_kind_to_string:
 *
 * "QuantizedType", "NormalizedQuantizedType" … ("" for a plain scalar).
 */
const char *xir_element_kind_to_string (XirElementKind kind);

/* The element dtype of a TensorType (XIR manual §3.2): a plain scalar, or one of the
 * quantisation types whose storage is a scalar. Scales and norm ratios are expanded per
 * channel ("32*0.21" -> 32 floats). A scale given as exponent scales
 * ("@exp_scales([axis=A]m/e/s,…)", ExpQuantizedScale: m×2^-e, originally s) keeps m and e
 * beside the float scale s. */
typedef struct {
  XirElementKind kind;
  gboolean quantized;        /* QUANTIZED or NORMALIZED_QUANTIZED: has scales */
  XirScalarType storage;     /* for plain types: the type itself */
  XirScalarType expressed;   /* every kind but plain (e.g. fp32) */
  gint scale_axis;           /* quantized only; -1 = last axis */
  guint n_scales;
  float *scales;
  gint32 *scale_mantissas;   /* exponent scales only (else NULL): m of m×2^-e */
  gint32 *scale_exponents;   /* e */
  guint n_zero_points;
  gint64 *zero_points;
  gint norm_axis;            /* NORMALIZED(_QUANTIZED): the norm ratios' axis */
  guint n_norm_ratios;
  float *norm_ratios;
  guint n_calibrated;        /* CALIBRATED: per-channel statistics */
  double *calib_min, *calib_max, *calib_sat;
} XirElementType;

/* ---- layout ----------------------------------------------------------- */

#define XIR_LAYOUT_MAX_AXES 16
/* No value (and no network's params in all) may need more bytes than a ZG330 addresses: 32-bit
 * ETM addresses. Refusing at load bounds what fake-params and a forward allocate. */
#define XIR_MAX_VALUE_BYTES (G_GUINT64_CONSTANT (1) << 32)

/* "@layout(NCHWc32)" -> axes "NCHWc" with block sizes {0,0,0,0,32}.
 * Axis letters are those of the manual ("NHWDCIO*nhwdcio"); a lower-case axis
 * is the inner block of its upper-case axis and carries its size. A layout of
 * just "*" accepts any rank (used for instructions). */
typedef struct {
  char text[32];                    /* the layout string without "@layout(...)" */
  guint n_axes;
  char axes[XIR_LAYOUT_MAX_AXES];
  guint block[XIR_LAYOUT_MAX_AXES]; /* size of a lower-case axis, 0 otherwise */
  gboolean any_rank;
} XirLayout;

/**
 * xir_layout_index_of: (skip)
 *
 * Index of axis @axis ('C', 'c', 'H' …) in @layout, or -1.
 */
gint xir_layout_index_of (const XirLayout *layout, char axis);

/* ---- memory type ------------------------------------------------------ */

typedef enum {
  XIR_MEM_CHUNK,  /* "@chunk(id@offset)" */
  XIR_MEM_HOST,   /* "@hostm" */
  XIR_MEM_ETM,    /* "@etm(addr)" */
  XIR_MEM_OCM,    /* "@ocm(addr)" */
} XirMemKind;

typedef struct {
  XirMemKind kind;
  gint64 chunk_id;  /* XIR_MEM_CHUNK */
  guint64 offset;   /* XIR_MEM_CHUNK: byte offset inside the chunk */
  guint64 addr;     /* XIR_MEM_ETM / XIR_MEM_OCM */
} XirMemType;

/* ---- values ------------------------------------------------------------ */

typedef struct _XirOp XirOp;
typedef struct _XirNetwork XirNetwork;

typedef struct {
  gint64 v_id;
  char *name;
  gboolean is_params;          /* an "icraft::xir::Params" (weights, bias, instr) */
  gint param_index;            /* Params: position in the network's params (.raw order), else -1 */
  gboolean allow_no_data;      /* Params only: "_allow_no_data" */
  XirElementType element;
  XirLayout layout;
  guint rank;
  gint64 *shape;
  guint n_merged_distrs;
  char **merged_distrs;        /* kept verbatim */
  XirMemType mtype;
  guint64 n_elements;          /* product of shape */
  guint64 storage_bytes;       /* ceil(n_elements * bits / 8) */
  cJSON *tags;                 /* the value's "tags" object (never NULL) */

  /* Derived facts (features only; for params producer is the owning op). */
  gint producer;               /* index of the producing op, -1 if none */
  GArray *consumers;           /* guint op indices, in execution order */
  gint first_use;              /* lifetime: [first_use, last_use] op indices */
  gint last_use;
  gboolean is_network_input;   /* output of an Input op */
  gboolean is_network_output;  /* input of an Output op */
} XirValue;

/* ---- standalone values (a type that belongs to no network, e.g. a tensor's own) ---- */

/**
 * xir_value_new:
 * @shape: (array length=rank)
 * @layout: (nullable)
 *
 * A value of @element's type (deep-copied; `quantized` is derived from the kind) with @shape
 * in @layout ("NCHW", "@layout(NCHWc32)", NULL = "*"), v_id -1, no name, mtype @hostm.
 * XIR_ERROR naming the field when the layout, shape, scales or zero points do not fit.
 *
 * Returns: (transfer full)
 */
XirValue *xir_value_new (const XirElementType *element, const char *layout, const gint64 *shape, guint rank,
                         GError **error);
/**
 * xir_value_copy:
 *
 * A standalone deep copy of any value (a network's too): type facts, v_id, name and tags;
 * the network facts (producer, consumers, lifetime) are reset.
 *
 * Returns: (transfer full)
 */
XirValue *xir_value_copy (const XirValue *value);
/**
 * xir_value_free:
 *
 * Frees a standalone value (from xir_value_new or xir_value_copy), never a network's.
 */
void xir_value_free (XirValue *value);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XirValue, xir_value_free)
/* The GBoxed type of XirValue (copy = xir_value_copy): for the language bindings. */
#define XIR_TYPE_VALUE (xir_value_get_type ())
GType xir_value_get_type (void);

/**
 * xir_value_get_shape:
 * @value: a value
 * @rank: (out): the number of dimensions
 *
 * The value's shape, for bindings (the same as @value->shape).
 *
 * Returns: (transfer none) (array length=rank): the dimensions
 */
const gint64 *xir_value_get_shape (const XirValue *value, guint *rank);
/**
 * xir_value_get_storage_text:
 * @value: a value
 *
 * The value's storage type as the vendor writes it, for bindings: "@sint(8)", "@fp(16)" …
 *
 * Returns: (transfer full): the text
 */
char *xir_value_get_storage_text (const XirValue *value);
/**
 * xir_value_get_layout_text:
 * @value: a value
 *
 * The value's layout as the vendor writes it, for bindings.
 *
 * Returns: (transfer none): the layout as written ("NCHWc32", "*" …)
 */
const char *xir_value_get_layout_text (const XirValue *value);

/* ---- ops --------------------------------------------------------------- */

typedef enum {
  XIR_OP_INPUT,   /* icraft::xir::Input */
  XIR_OP_OUTPUT,  /* icraft::xir::Output */
  XIR_OP_HARDOP,  /* icraft::xir::HardOp: runs on the NPU */
  XIR_OP_HOST,    /* any other icraft::xir:: op */
  XIR_OP_CUSTOM,  /* customop::… (e.g. DetPostZG) */
} XirOpKind;

typedef enum {
  XIR_TARGET_HOST,   /* "@hostt" */
  XIR_TARGET_ZHUGE,  /* "@zhuget(330)" */
  XIR_TARGET_FPGA,   /* "@fpgat" */
  XIR_TARGET_BUYI,   /* "@buyit" */
  XIR_TARGET_OTHER,  /* any other "@…" string, kept verbatim */
} XirTargetKind;

typedef struct {
  XirTargetKind kind;
  gint version;      /* 330 for "@zhuget(330)", 0 if none */
  char *text;        /* verbatim */
} XirCompileTarget;

struct _XirOp {
  XirNetwork *network;       /* the network that owns the op (not a reference) */
  gint64 op_id;
  guint index;               /* position in the network (execution order) */
  XirOpKind kind;
  char *type_key;            /* "_type_key", e.g. "icraft::xir::HardOp" */
  char *name;                /* HardOp: fused class "icraft::xir::Conv2dNode" */
  char *hard_class;          /* HardOp: short class "Conv2d", else NULL */
  XirCompileTarget target;
  GPtrArray *inputs;         /* XirValue*, borrowed from the network */
  GPtrArray *outputs;        /* XirValue* */
  GPtrArray *params;         /* HardOp: weights and bias (XirValue*) */
  GPtrArray *instr;          /* HardOp: instruction params (XirValue*) */
  GArray *origin_ops_id;     /* HardOp: gint64 */
  gint layer_count;          /* HardOp: "layer_count" */
  guint64 instr_words;       /* HardOp: total uint64 words of instr */
  cJSON *attrs;              /* every key that is not a structural one, e.g. "anchor_num",
                              * "device_info", "sub_hard_ops" (an object, never NULL) */
  cJSON *tags;               /* "tags" object (never NULL) */
};

/* The GBoxed type of XirOp: a binding's copy of an op is the same op holding a reference
 * to its network. */
#define XIR_TYPE_OP (xir_op_get_type ())
GType xir_op_get_type (void);

/**
 * xir_op_get_inputs:
 * @op: an op
 *
 * The values the op reads, in the order of its "inputs" field (borrowed from the network).
 *
 * Returns: (transfer none) (element-type XirValue): the op's input values (for bindings)
 */
GPtrArray *xir_op_get_inputs (const XirOp *op);
/**
 * xir_op_get_outputs:
 * @op: an op
 *
 * The values the op writes, in the order of its "outputs" field (borrowed from the
 * network).
 *
 * Returns: (transfer none) (element-type XirValue): the op's output values (for bindings)
 */
GPtrArray *xir_op_get_outputs (const XirOp *op);

/**
 * xir_op_get_attr: (skip)
 *
 * Attribute of an op by JSON key (anything kept in attrs), or NULL.
 */
const cJSON *xir_op_get_attr (const XirOp *op, const char *key);
/**
 * xir_op_get_attr_int:
 * @out: (out)
 *
 * Reads the op's attribute @key (anything kept in attrs) as an integer into @out; an error
 * names the op id and the key when it is missing or not an integer.
 */
gboolean xir_op_get_attr_int (const XirOp *op, const char *key, gint64 *out, GError **error);
/**
 * xir_op_get_attr_double:
 * @out: (out)
 *
 * Reads the op's attribute @key (anything kept in attrs) as a number into @out; an error
 * names the op id and the key when it is missing or not a number.
 */
gboolean xir_op_get_attr_double (const XirOp *op, const char *key, double *out, GError **error);

/**
 * xir_op_describe:
 *
 * Human name of an op kind or short class: "HardOp Conv2d", "Input", "customop::DetPostZG".
 *
 * Returns: (transfer full)
 */
char *xir_op_describe (const XirOp *op);

/* ---- chunks ------------------------------------------------------------- */

/* A compiler-made buffer (the id in "@chunk(id@offset)") that several values share. */
typedef struct {
  gint64 id;
  guint64 size;           /* max over its values of offset + storage_bytes */
  gboolean is_params;     /* holds params (weights/bias/instr), not feature maps */
  GPtrArray *values;      /* XirValue*, in order of first appearance */
} XirChunk;

/* ---- network ------------------------------------------------------------ */

/**
 * xir_network_new_from_json_file:
 * @path: (type filename)
 *
 * Loads the vendor's network JSON at @path (mapped, read op by op): ops in file order,
 * values, params, chunks and lifetimes. Errors name the file, the op or value id and the
 * field. The params' bytes are loaded apart (xir_network_load_params_from_file).
 *
 * Returns: (transfer full)
 */
XirNetwork *xir_network_new_from_json_file (const char *path, GError **error);
/**
 * xir_network_new_from_json_data:
 * @data: (array length=length) (element-type guint8)
 *
 * @origin names the data in error messages (a file name).
 *
 * Returns: (transfer full)
 */
XirNetwork *xir_network_new_from_json_data (const char *data, gsize length,
                                            const char *origin, GError **error);
/**
 * xir_network_ref:
 *
 * Takes a reference to @net.
 *
 * Returns: (transfer full)
 */
XirNetwork *xir_network_ref (XirNetwork *net);
/**
 * xir_network_unref:
 *
 * Drops a reference to @net; the last one frees it with its ops and values.
 */
void xir_network_unref (XirNetwork *net);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XirNetwork, xir_network_unref)
/* The GBoxed type of XirNetwork (for the language bindings). */
#define XIR_TYPE_NETWORK (xir_network_get_type ())
GType xir_network_get_type (void);

/**
 * xir_network_get_path:
 *
 * The file the network came from, or the origin given to xir_network_new_from_json_data.
 */
const char *xir_network_get_path (const XirNetwork *net);
/**
 * xir_network_get_name:
 *
 * The network's "name" field.
 */
const char *xir_network_get_name (const XirNetwork *net);
/**
 * xir_network_get_ai_target:
 *
 * The network's "ai_target" field as written (empty when absent).
 */
const char *xir_network_get_ai_target (const XirNetwork *net);
/**
 * xir_network_get_framework_kind:
 *
 * The network's "framework_kind" field: the framework it was compiled from (empty when
 * absent).
 */
const char *xir_network_get_framework_kind (const XirNetwork *net);
/**
 * xir_network_get_framework_version:
 *
 * The network's "framework_version" field (empty when absent).
 */
const char *xir_network_get_framework_version (const XirNetwork *net);
/**
 * xir_network_get_icraft_version:
 *
 * The "icraft_version" of the compiler that wrote the network (empty when absent).
 */
const char *xir_network_get_icraft_version (const XirNetwork *net);
/**
 * xir_network_get_icraft_xir_version:
 *
 * The "icraft_xir_version" of the network's format (empty when absent).
 */
const char *xir_network_get_icraft_xir_version (const XirNetwork *net);
/**
 * xir_network_get_params_bytes:
 *
 * The network's "params_bytes" field: the size the compiler recorded for its .raw (0 when
 * absent).
 */
guint64 xir_network_get_params_bytes (const XirNetwork *net);
/**
 * xir_network_get_params_md5:
 *
 * The network's "params_md5" field in lower case: the digest the compiler recorded for its
 * .raw, or NULL when absent.
 */
const char *xir_network_get_params_md5 (const XirNetwork *net);
/**
 * xir_network_get_tags: (skip)
 *
 * The network's "tags" object (never NULL; owned by the network).
 */
const cJSON *xir_network_get_tags (const XirNetwork *net);

/**
 * xir_network_get_n_ops:
 *
 * The number of ops of the network.
 */
guint xir_network_get_n_ops (const XirNetwork *net);
/**
 * xir_network_get_op:
 *
 * The op at position @index in execution (file) order, or NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
XirOp *xir_network_get_op (const XirNetwork *net, guint index);
/**
 * xir_network_get_op_by_id:
 *
 * The op whose op_id is @op_id, or NULL when the network has none.
 *
 * Returns: (transfer none) (nullable)
 */
XirOp *xir_network_get_op_by_id (const XirNetwork *net, gint64 op_id);
/**
 * xir_network_get_max_op_id:
 *
 * Largest op_id in the network (merged hardops get ids above it).
 */
gint64 xir_network_get_max_op_id (const XirNetwork *net);

/**
 * xir_network_get_values:
 *
 * Every feature value (op inputs/outputs), in order of first appearance.
 *
 * Returns: (transfer none) (element-type XirValue)
 */
GPtrArray *xir_network_get_values (const XirNetwork *net);
/**
 * xir_network_get_params:
 *
 * Every Params value (weights, bias, instr), in file order — the .raw order.
 *
 * Returns: (transfer none) (element-type XirValue)
 */
GPtrArray *xir_network_get_params (const XirNetwork *net);
/**
 * xir_network_get_value:
 *
 * Feature value or params by v_id, or NULL.
 *
 * Returns: (transfer none) (nullable)
 */
XirValue *xir_network_get_value (const XirNetwork *net, gint64 v_id);
/**
 * xir_network_get_inputs:
 *
 * Outputs of Input ops / inputs of Output ops.
 *
 * Returns: (transfer none) (element-type XirValue)
 */
GPtrArray *xir_network_get_inputs (const XirNetwork *net);
/**
 * xir_network_get_outputs:
 *
 * The network's outputs: the inputs of its Output ops, in order.
 *
 * Returns: (transfer none) (element-type XirValue)
 */
GPtrArray *xir_network_get_outputs (const XirNetwork *net);
/**
 * xir_network_get_chunks: (skip)
 *
 * Chunks of feature maps and of params, ordered by id.
 */
GPtrArray *xir_network_get_chunks (const XirNetwork *net);
/**
 * xir_network_get_chunk: (skip)
 *
 * The chunk whose id is @id ("@chunk(id@offset)"), or NULL.
 */
XirChunk *xir_network_get_chunk (const XirNetwork *net, gint64 id);

/**
 * xir_network_get_total_instr_words:
 *
 * The total of the HardOps' instruction words (uint64 words of their instr params).
 */
guint64 xir_network_get_total_instr_words (const XirNetwork *net);

/* ---- params (.raw) ------------------------------------------------------ */

typedef enum {
  XIR_LOAD_DEFAULT = 0,
  /* Skip the params_md5 check: a .raw written by xir_network_fake_params (or
   * `xrt-run fake-params`) has the right sizes but can never match the md5 the
   * compiler recorded for the real weights. */
  XIR_LOAD_NO_MD5 = 1 << 0,
} XirLoadFlags;

/**
 * xir_network_load_params_from_file:
 * @path: (type filename)
 *
 * Reads the whole .raw, checks magic, count, table, each blob size against
 * its Params' storage bytes, params_bytes against the file size and params_md5.
 */
gboolean xir_network_load_params_from_file (XirNetwork *net, const char *path, GError **error);
/**
 * xir_network_load_params_from_file_full:
 * @path: (type filename)
 *
 * xir_network_load_params_from_file with @flags: XIR_LOAD_NO_MD5 accepts a .raw whose
 * md5 does not match (synthetic params written by fake-params).
 */
gboolean xir_network_load_params_from_file_full (XirNetwork *net, const char *path, XirLoadFlags flags,
                                                 GError **error);
/**
 * xir_network_lazy_load_params_from_file:
 * @path: (type filename)
 *
 * Maps the .raw (GMappedFile) and checks everything but the md5; blobs are read on access.
 */
gboolean xir_network_lazy_load_params_from_file (XirNetwork *net, const char *path, GError **error);
/**
 * xir_network_fake_params:
 *
 * Fills every Params with deterministic synthetic data (see xir-raw.c for the recipe).
 */
void xir_network_fake_params (XirNetwork *net, guint64 seed);
/**
 * xir_network_has_params:
 *
 * Whether the network has its params' bytes: a .raw loaded (eagerly or mapped) or
 * synthetic params.
 */
gboolean xir_network_has_params (const XirNetwork *net);
/**
 * xir_network_get_params_path:
 *
 * Where the params came from: the .raw loaded (NULL for synthetic params or none), and for
 * synthetic params (xir_network_fake_params) their seed (FALSE otherwise).
 *
 * Returns: (nullable) (type filename)
 */
const char *xir_network_get_params_path (const XirNetwork *net);
/**
 * xir_network_get_params_seed:
 * @seed: (out)
 *
 * For synthetic params (xir_network_fake_params): their seed in @seed and TRUE; FALSE for
 * params from a .raw or none.
 */
gboolean xir_network_get_params_seed (const XirNetwork *net, guint64 *seed);
/**
 * xir_network_compute_params_sha256:
 *
 * SHA-256 (hex) of the params bytes as loaded (the whole .raw image), NULL before load.
 *
 * Returns: (transfer full) (nullable)
 */
char *xir_network_compute_params_sha256 (const XirNetwork *net);
/**
 * xir_network_get_params_data: (skip)
 *
 * Bytes of one Params value (storage_bytes long), or NULL before params are loaded.
 */
const guint8 *xir_network_get_params_data (const XirNetwork *net, const XirValue *param);
/**
 * xir_network_write_params_file:
 * @path: (type filename)
 *
 * Writes the params in the vendor .raw format (atomic). Requires params.
 */
gboolean xir_network_write_params_file (const XirNetwork *net, const char *path, GError **error);
/**
 * xir_network_compute_params_bytes:
 *
 * Size in bytes of the .raw for this network (header + table + blobs).
 */
guint64 xir_network_compute_params_bytes (const XirNetwork *net);

/* ---- views -------------------------------------------------------------- */

typedef struct _XirNetworkView XirNetworkView;

/**
 * xir_network_view:
 *
 * Ops [start, end) of @net. Negative indices count from the end as in
 * Session.sub: view(0) is everything, view(1, -1) drops the first and last op.
 * @end == G_MAXINT means "to the end". Returns NULL with XIR_ERROR_RANGE when
 * the range is empty or out of bounds.
 *
 * Returns: (transfer full)
 */
XirNetworkView *xir_network_view (XirNetwork *net, gint start, gint end, GError **error);
/**
 * xir_network_view_ref:
 *
 * Takes a reference to @view.
 *
 * Returns: (transfer full)
 */
XirNetworkView *xir_network_view_ref (XirNetworkView *view);
/**
 * xir_network_view_unref:
 *
 * Drops a reference to @view; the last one frees it and its reference to the network.
 */
void xir_network_view_unref (XirNetworkView *view);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XirNetworkView, xir_network_view_unref)
/* The GBoxed type of XirNetworkView (for the language bindings). */
#define XIR_TYPE_NETWORK_VIEW (xir_network_view_get_type ())
GType xir_network_view_get_type (void);
/**
 * xir_network_view_get_network:
 *
 * The network the view is a range of.
 *
 * Returns: (transfer none)
 */
XirNetwork *xir_network_view_get_network (const XirNetworkView *view);
/**
 * xir_network_view_get_start:
 *
 * The index in the network of the view's first op.
 */
guint xir_network_view_get_start (const XirNetworkView *view);
/**
 * xir_network_view_get_n_ops:
 *
 * The number of ops in the view.
 */
guint xir_network_view_get_n_ops (const XirNetworkView *view);
/**
 * xir_network_view_get_op:
 *
 * Op @i of the view (0 is its first op), or NULL past its end.
 *
 * Returns: (transfer none) (nullable)
 */
XirOp *xir_network_view_get_op (const XirNetworkView *view, guint i);
/**
 * xir_network_view_get_inputs:
 *
 * Values consumed by the view but produced outside it (or network inputs inside it).
 *
 * Returns: (transfer none) (element-type XirValue)
 */
GPtrArray *xir_network_view_get_inputs (const XirNetworkView *view);
/**
 * xir_network_view_get_outputs:
 *
 * Values produced in the view and used after it (or network outputs).
 *
 * Returns: (transfer none) (element-type XirValue)
 */
GPtrArray *xir_network_view_get_outputs (const XirNetworkView *view);

/* ---- helpers ------------------------------------------------------------ */

/**
 * xir_parse_scalar_type: (skip)
 *
 * Parsers of the vendor strings, exposed for tests and tools.
 * Each returns FALSE and sets XIR_ERROR_VALUE on text it does not understand.
 */
gboolean xir_parse_scalar_type (const char *text, XirScalarType *out, GError **error);
/**
 * xir_parse_layout: (skip)
 *
 * Parses a layout ("NCHW", "NCHWc32", "@layout(NHWC)", "*") into @out; an error quotes the
 * text.
 */
gboolean xir_parse_layout (const char *text, XirLayout *out, GError **error);
/**
 * xir_parse_mtype: (skip)
 *
 * Parses a memory type ("@hostm", "@etm(…)", "@ocm(…)", "@chunk(id@offset)") into @out; an error
 * quotes the text.
 */
gboolean xir_parse_mtype (const char *text, XirMemType *out, GError **error);
/* "@scales([axis=-1]32*0.2153723)" -> axis and expanded floats (g_free the array). */
/**
 * xir_parse_exp_scales: (skip)
 *
 * "@exp_scales([axis=-1]4*1/0/1)" -> axis, the scales s and their m and e (g_free each).
 */
gboolean xir_parse_exp_scales (const char *text, gint *axis, float **scales, gint32 **mantissas, gint32 **exponents,
                               guint *n_scales, GError **error);
/**
 * xir_parse_norm_ratios: (skip)
 *
 * "@norm_ratios([axis=-1]1.1,2.2)" -> axis and the expanded ratios (g_free).
 */
gboolean xir_parse_norm_ratios (const char *text, gint *axis, float **ratios, guint *n_ratios, GError **error);
/**
 * xir_parse_scales: (skip)
 *
 * Parses "@scales([axis=A]N*s,s,…)" (run-length: N copies of s) into a new array @scales
 * (g_free) of @n_scales, with the axis in @axis (-1 when not written).
 */
gboolean xir_parse_scales (const char *text, gint *axis, float **scales, guint *n_scales,
                           GError **error);
/**
 * xir_scalar_type_to_string: (skip)
 *
 * "@sint(8)", "@fp(16)" …
 */
char *xir_scalar_type_to_string (const XirScalarType *type);
/**
 * xir_mem_kind_to_string:
 *
 * The name of a memory kind as the vendor writes it.
 */
const char *xir_mem_kind_to_string (XirMemKind kind);
/**
 * xir_op_kind_to_string:
 *
 * The name of an op kind ("Input", "Output", "HardOp", "HostOp", "CustomOp").
 */
const char *xir_op_kind_to_string (XirOpKind kind);

G_END_DECLS
