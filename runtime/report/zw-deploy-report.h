/* zw-deploy-report.h — the deploy report: what a ZG330Backend did with a network.
 *
 * This is the contract between the runtime and every view (DESIGN.md §5): the backend
 * builds it after apply(), log() writes it as JSON under .icraft/logs/, and the workbench
 * reads it — from a live backend or from a file — through this model only.
 *
 * JSON schema ("format": "zhuge-deploy-report", "version": 1):
 * {
 *   "network":  { "name", "path", "n_ops", "max_op_id", "params_seed" },  // the last: synthetic params only
 *   "device":   { "url", "ocm_bytes", "etm_bandwidth", "ocm_bandwidth", "icore_clock_hz" },
 *   "options":  { "merge_hardop", "etm_optimize", "ocm_requested", "ocm_chosen" },   // OcmOpt names
 *   "segments": [ { "type": "WEIGHT"|"INSTR"|"FTMP"|"INPUT"|"OUTPUT", "logic_addr", "byte_size",
 *                   "phy_addr", "phy_size", "user_used" } ],
 *   "ops":      [ { "index", "op_id", "kind", "class", "backend", "layer_count", "launch",
 *                   "name", "inputs": [v_ids], "outputs": [v_ids],     // optional: the graph
 *                   "attrs": { NAME: JSON value } } ],                 // optional: the op's own keys
 *   "values":   [ { "v_id", "producer", "segment", "real", "fake_from", "real_to": [..],
 *                   "is_ocm", "is_host", "logic_addr", "phy_addr", "byte_size", "chunk", "chunk_offset",
 *                   "first", "last", "shape": [..], "dtype", "layout",
 *                   "quant": { "bits", "axis", "scales": [..], "zero_points": [..] } } ],  // optional
 *   "hardops":  [ { "op_id", "weights_logic_addr", "weights_size", "instr_logic_addr", "instr_size",
 *                   "weights_phy_addr", "instr_phy_addr", "sync_idx": [launch, layer_count],
 *                   "merged_into",          // the merged op id of its launch, -1 when not merged
 *                   "est_ms",               // the cost model's time of the op under this placement
 *                   "etm_read_bytes", "etm_write_bytes", "ocm_read_bytes", "ocm_write_bytes" } ],
 *                   // the bytes the cost model moves for it (Zg330OpWork: weights and instructions
 *                   // count as ETM reads); optional on reading (has_traffic FALSE without them)
 *   "launches": [ { "op_id", "merge_from": [..], "layer_count", "first", "last" } ],
 *   "chunks":   [ { "id", "size", "first", "last", "ftmp_offset", "in_ocm", "ocm_addr", "eligible",
 *                   "v_ids": [..] } ],
 *   "etm":      { "ftmp_bytes", "lower_bound", "sum_of_chunks", "method", "seconds",
 *                 "work", "work_budget", "time_limit_hit" },  // the last three optional on reading
 *   "connections": [ { "v_id", "segment": "INPUT"|"OUTPUT", "mode": "zero-copy"|"staged",
 *                   "user_addr", "user_size", "home_addr", "byte_size", "chunk", "chunk_offset" } ],
 *                  // userConnectNetwork; optional on reading (none)
 *   "ocm":      { "capacity", "none_cost_ms", "chosen",
 *                 "options": [ { "option", "cost_ms", "bytes", "peak_bytes", "seconds", "picks": [chunk ids] } ] }
 * }
 * Addresses and sizes are bytes; "first"/"last" are op indices (execution order, inclusive);
 * "producer"/"fake_from"/"chunk" are -1 when absent; "ocm_addr" is -1 when not in OCM.
 */
#pragma once

#include <glib.h>
#include <glib-object.h>
#include <cjson/cJSON.h>

#include "report/zw-ocm-option.h"

G_BEGIN_DECLS

#define ZW_REPORT_ERROR (zw_report_error_quark ())
/**
 * zw_report_error_quark:
 *
 * The error domain of the deploy report (ZW_REPORT_ERROR): reading, writing and checking
 * reports.
 */
GQuark zw_report_error_quark (void);

typedef enum {
  ZW_REPORT_ERROR_IO,      /* cannot read or write the file */
  ZW_REPORT_ERROR_PARSE,   /* not JSON */
  ZW_REPORT_ERROR_FORMAT,  /* not a deploy report, or a field is missing / of the wrong type */
  ZW_REPORT_ERROR_VERSION, /* a newer version than this build reads */
} ZwReportError;

/**
 * zw_report_json_load: (skip)
 * @path: a report JSON (a deploy or pipeline report): a regular file or "-"
 * @error: ZW_REPORT_ERROR_IO (not a regular file, too large, unreadable) or
 *   ZW_REPORT_ERROR_PARSE (not JSON, at which byte), naming @path
 *
 * Reads a report file into a JSON tree, size-capped before reading (zw_file_read_regular()).
 *
 * Returns: (transfer full) (nullable): the tree, cJSON_Delete() it
 */
cJSON *zw_report_json_load (const char *path, GError **error);

#define ZW_DEPLOY_REPORT_VERSION 1

/* SegmentType as in the vendor's zg330backend.h */
typedef enum {
  ZW_SEGMENT_WEIGHT = 0,
  ZW_SEGMENT_INSTR = 1,
  ZW_SEGMENT_FTMP = 2,
  ZW_SEGMENT_INPUT = 3,
  ZW_SEGMENT_OUTPUT = 4,
  ZW_N_SEGMENTS
} ZwSegmentType;

/**
 * zw_segment_type_to_string:
 *
 * The vendor's name of a segment type: "WEIGHT", "INSTR", "FTMP", "INPUT" or "OUTPUT"
 * (NULL out of range).
 */
const char *zw_segment_type_to_string (ZwSegmentType type);
/**
 * zw_segment_type_from_string:
 * @out: (out)
 *
 * The segment type named @text (as zw_segment_type_to_string() writes it); FALSE for any
 * other text.
 */
gboolean zw_segment_type_from_string (const char *text, ZwSegmentType *out);

typedef struct {
  ZwSegmentType type;
  guint64 logic_addr;
  guint64 byte_size;
  guint64 phy_addr;
  guint64 phy_size;
  gboolean user_used;
} ZwSegmentInfo;

/* An attribute of an op as the network JSON gives it: a key beside the structural ones
 * ("anchor_num", "stride", …) and its value: a string's text ("nearest"), anything else as
 * compact JSON ("3", "[1,2]"), cut to ZW_OP_ATTR_MAX_TEXT bytes with "…". */
typedef struct {
  char *name;
  char *value;
} ZwOpAttr;

#define ZW_OP_ATTR_MAX_TEXT 240

typedef struct {
  gint64 op_id;
  guint index;
  char *kind;        /* "Input", "HardOp", "Output", "customop::DetPostZG" … */
  char *op_class;    /* hardop class ("Conv2d"), else the kind */
  char *backend;     /* "ZG330" or "Host" */
  gint layer_count;
  gint launch;       /* index into launches, -1 for host ops */
  /* The graph (optional: NULL when the report was written without it; see
   * zw_deploy_report_attach_network in zw-deploy-graph.h): */
  char *name;        /* the op's "name" in the network JSON */
  GArray *inputs;    /* gint64 v_ids the op reads, in the op's order */
  GArray *outputs;   /* gint64 v_ids it writes */
  GPtrArray *attrs;  /* ZwOpAttr*, in the network's order; NULL when unknown (optional too) */
} ZwOpInfo;

typedef struct {
  gint64 v_id;
  gint64 producer;        /* op id, -1 for none */
  ZwSegmentType segment;
  gboolean real;
  gint64 fake_from;       /* -1 when real */
  GArray *real_to;        /* gint64 v_ids */
  gboolean is_ocm;
  gboolean is_host;
  guint64 logic_addr;
  guint64 phy_addr;
  guint64 byte_size;
  gint64 chunk;           /* compiler chunk id, -1 for none */
  guint64 chunk_offset;
  gint first;
  gint last;
  GArray *shape;          /* gint64 */
  char *dtype;
  char *layout;
  /* Quantisation, when the network gives it (optional, see zw_deploy_report_attach_network): */
  guint quant_bits;       /* storage bits of the quantised value */
  gint quant_axis;        /* the axis the scales run along (-1: the last) */
  GArray *scales;         /* double, one per channel (or one); NULL: not quantised or unknown */
  GArray *zero_points;    /* gint64; NULL with scales */
} ZwValueInfo;

typedef struct {
  gint64 op_id;
  guint64 weights_logic_addr;
  guint64 weights_size;
  guint64 instr_logic_addr;
  guint64 instr_size;
  guint64 weights_phy_addr;
  guint64 instr_phy_addr;
  gint sync_idx[2];       /* <launch index, layer count at the end of the op> */
  gint64 merged_into;     /* merged op id of its launch (whose merge_from lists the members), -1 */
  double est_ms;          /* the timing model's estimate of the op (its inputs and outputs where
                           * the plan put them): what the OCM options minimise, and what the
                           * board then simulates, launch costs aside */
  gboolean has_traffic;   /* the four figures below were written by the backend */
  guint64 etm_read_bytes; /* what the cost model moves for the op under this placement, as */
  guint64 etm_write_bytes;/* the board's timing charges it (zg330_hardop_work): weights and */
  guint64 ocm_read_bytes; /* instructions are ETM reads; a zero-copy op moves nothing */
  guint64 ocm_write_bytes;
} ZwHardOpInfo;

typedef struct {
  gint64 op_id;           /* merged op id (> network max) or the hardop's own id */
  GArray *merge_from;     /* gint64 op ids, in execution order */
  guint layer_count;
  gint first;             /* op index range covered */
  gint last;
} ZwLaunch;

typedef struct {
  gint64 id;
  guint64 size;
  gint first;
  gint last;
  guint64 ftmp_offset;
  gboolean in_ocm;
  guint64 ocm_addr;       /* G_MAXUINT64 when not in OCM */
  gboolean eligible;      /* may live in OCM */
  GArray *v_ids;          /* gint64 */
} ZwChunkInfo;

typedef struct {
  ZwOcmOpt option;
  double cost_ms;
  guint64 bytes;          /* sum of picked chunk sizes */
  guint64 peak_bytes;     /* max live OCM bytes */
  double seconds;
  GArray *picks;          /* gint64 chunk ids */
} ZwOcmOptionResult;

/* userConnectNetwork: a value exchanged with another network through the user's chunk.
 * Zero-copy: the user's chunk is the home of the value's compiler chunk (home_addr ==
 * user_addr + chunk_offset). Staged: the value has a home of its own (home_addr) and is
 * copied from/to the user's chunk around the hardops that read/write it. */
typedef struct {
  gint64 v_id;
  ZwSegmentType segment;  /* INPUT or OUTPUT */
  gboolean staged;
  guint64 user_addr;
  guint64 user_size;
  guint64 home_addr;
  guint64 byte_size;
  gint64 chunk;           /* compiler chunk id, -1 for none */
  guint64 chunk_offset;
} ZwConnectionInfo;

typedef struct {
  gint ref_count;
  char *network_name;
  char *network_path;
  guint n_ops;
  gint64 max_op_id;
  gint64 params_seed;     /* the seed of the synthetic params deployed (xir_network_fake_params), -1: a .raw's */
  char *device_url;
  guint64 ocm_bytes;
  double etm_bandwidth;
  double ocm_bandwidth;
  double icore_clock_hz;
  gboolean merge_hardop;
  gboolean etm_optimize;
  ZwOcmOpt ocm_requested;
  ZwOcmOpt ocm_chosen;
  ZwSegmentInfo segments[ZW_N_SEGMENTS];
  GArray *ops;            /* ZwOpInfo */
  GArray *values;         /* ZwValueInfo */
  GArray *hardops;        /* ZwHardOpInfo */
  GArray *launches;       /* ZwLaunch */
  GArray *chunks;         /* ZwChunkInfo */
  guint64 ftmp_bytes;
  guint64 lower_bound;
  guint64 sum_of_chunks;
  char *etm_method;
  double etm_seconds;     /* measured, shown only */
  guint64 etm_work;       /* work units the ETM plan spent (deterministic) */
  guint64 etm_work_budget;
  gboolean etm_time_limit_hit;  /* an explicit time limit cut the search: the plan may
                                 * differ from run to run */
  guint64 ocm_capacity;
  double none_cost_ms;
  GArray *ocm_options;    /* ZwOcmOptionResult, one per planner option, when computed */
  GArray *connections;    /* ZwConnectionInfo */
  /* < private > */
  gpointer index;         /* the lookups' sorted id indexes, built on first use */
} ZwDeployReport;

/**
 * zw_deploy_report_new:
 *
 * An empty report (arrays allocated, ready to fill).
 *
 * Returns: (transfer full)
 */
ZwDeployReport *zw_deploy_report_new (void);
/**
 * zw_deploy_report_ref:
 *
 * Takes a reference on @report (reports are shared read-only by the views).
 *
 * Returns: (transfer full)
 */
ZwDeployReport *zw_deploy_report_ref (ZwDeployReport *report);
/**
 * zw_deploy_report_unref:
 *
 * Drops a reference; the last one frees the report and its arrays.
 */
void zw_deploy_report_unref (ZwDeployReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwDeployReport, zw_deploy_report_unref)
/* The GBoxed type of ZwDeployReport (for the language bindings). */
#define ZW_TYPE_DEPLOY_REPORT (zw_deploy_report_get_type ())
/**
 * zw_deploy_report_get_type:
 *
 * The GBoxed type of ZwDeployReport (copying takes a reference), for the language
 * bindings.
 */
GType zw_deploy_report_get_type (void);

/**
 * zw_value_info_init: (skip)
 *
 * Initialises the GArrays of an element before appending it.
 */
void zw_value_info_init (ZwValueInfo *v);
/**
 * zw_hardop_info_init: (skip)
 *
 * Initialises a ZwHardOpInfo (no merge target) before appending it.
 */
void zw_hardop_info_init (ZwHardOpInfo *h);
/**
 * zw_launch_init: (skip)
 *
 * Initialises the GArrays of a ZwLaunch before appending it.
 */
void zw_launch_init (ZwLaunch *l);
/**
 * zw_chunk_info_init: (skip)
 *
 * Initialises the GArrays of a ZwChunkInfo (no OCM address) before appending it.
 */
void zw_chunk_info_init (ZwChunkInfo *c);
/**
 * zw_chunk_id_dup_label:
 * @id: a chunk id of a report (ZwChunkInfo.id)
 *
 * How views name a chunk: "#12" for the compiler's chunk 12 (`@chunk(12@…)`), "v20" for the
 * bytes of value 20 alone (a value with an address of its own, as every value of a
 * compiler-placed network has: the report gives such a chunk the id -(v_id + 1)).
 *
 * Returns: (transfer full): the label
 */
char *zw_chunk_id_dup_label (gint64 id);
/**
 * zw_ocm_option_result_init: (skip)
 *
 * Initialises the GArrays of a ZwOcmOptionResult before appending it.
 */
void zw_ocm_option_result_init (ZwOcmOptionResult *o);

/**
 * zw_deploy_report_find_value:
 *
 * Lookups by id, O(log n): each array's index is built on the first lookup and again
 * when the array's length has changed since (a report is filled by appending).  With
 * duplicate ids the first element wins.  Safe from several threads.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwValueInfo *zw_deploy_report_find_value (const ZwDeployReport *report, gint64 v_id);

/**
 * zw_deploy_report_get_segment:
 *
 * Index access for bindings (the arrays above, bounds-checked: NULL past the end).
 *
 * Returns: (transfer none) (nullable)
 */
const ZwSegmentInfo *zw_deploy_report_get_segment (const ZwDeployReport *report, ZwSegmentType type);
/**
 * zw_deploy_report_get_n_values:
 *
 * The number of ValueInfos in the report (for index access from bindings).
 */
guint zw_deploy_report_get_n_values (const ZwDeployReport *report);
/**
 * zw_deploy_report_get_value:
 *
 * ValueInfo @index of the report, in the report's order; NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwValueInfo *zw_deploy_report_get_value (const ZwDeployReport *report, guint index);
/**
 * zw_deploy_report_get_n_hardops:
 *
 * The number of hardops in the report (for index access from bindings).
 */
guint zw_deploy_report_get_n_hardops (const ZwDeployReport *report);
/**
 * zw_deploy_report_get_hardop:
 *
 * Hardop @index of the report, in the report's order; NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwHardOpInfo *zw_deploy_report_get_hardop (const ZwDeployReport *report, guint index);
/**
 * zw_deploy_report_get_n_launches:
 *
 * The number of launches in the report (for index access from bindings).
 */
guint zw_deploy_report_get_n_launches (const ZwDeployReport *report);
/**
 * zw_deploy_report_get_launch:
 *
 * Launch @index of the report, in launch order; NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwLaunch *zw_deploy_report_get_launch (const ZwDeployReport *report, guint index);
/**
 * zw_deploy_report_get_n_chunks:
 *
 * The number of chunks in the report (for index access from bindings).
 */
guint zw_deploy_report_get_n_chunks (const ZwDeployReport *report);
/**
 * zw_deploy_report_get_chunk:
 *
 * Chunk @index of the report, in the report's order; NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwChunkInfo *zw_deploy_report_get_chunk (const ZwDeployReport *report, guint index);
/**
 * zw_value_info_get_shape:
 * @rank: (out)
 *
 * The shape of a value as an array (@rank elements).
 *
 * Returns: (transfer none) (array length=rank)
 */
const gint64 *zw_value_info_get_shape (const ZwValueInfo *info, guint *rank);
/**
 * zw_launch_get_merge_from:
 * @n: (out)
 *
 * The members of a launch (op ids, @n of them).
 *
 * Returns: (transfer none) (array length=n)
 */
const gint64 *zw_launch_get_merge_from (const ZwLaunch *launch, guint *n);
/**
 * zw_deploy_report_find_op:
 *
 * The op with id @op_id, O(log n) as zw_deploy_report_find_value(); NULL when there is
 * none.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwOpInfo *zw_deploy_report_find_op (const ZwDeployReport *report, gint64 op_id);
/**
 * zw_deploy_report_find_chunk:
 *
 * The chunk with id @id, O(log n) as zw_deploy_report_find_value(); NULL when there is
 * none.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwChunkInfo *zw_deploy_report_find_chunk (const ZwDeployReport *report, gint64 id);

/**
 * zw_deploy_report_live_bytes:
 * @report: a deploy report
 * @in_ocm: %TRUE for the bytes in OCM, %FALSE for those in ETM (FTMP)
 * @n_ops: (out): the number of op indices, the length of the array
 *
 * The bytes live at each op index in one memory: entry t is the sum of the sizes of the
 * chunks in that memory whose lifetime [first, last] holds t. A chunk without a lifetime
 * in the report's ops (first < 0, first > last or first past the last op) counts nowhere;
 * a lifetime past the last op ends there. One sweep over the chunks, O(ops + chunks).
 *
 * Returns: (transfer full) (array length=n_ops): one entry per op index (a single 0 for a
 *   report without ops, with @n_ops 0); free with g_free()
 */
guint64 *zw_deploy_report_live_bytes (const ZwDeployReport *report, gboolean in_ocm, guint *n_ops);

/**
 * zw_deploy_report_ocm_peak:
 * @report: a deploy report
 *
 * The OCM peak: the most OCM bytes live at one op index (the largest entry of
 * zw_deploy_report_live_bytes() for OCM). It never exceeds the OCM capacity of a valid
 * placement: the figure to show beside the capacity (issue 37).
 *
 * Returns: the peak in bytes (0 when nothing is in OCM)
 */
guint64 zw_deploy_report_ocm_peak (const ZwDeployReport *report);

/**
 * zw_deploy_report_ocm_placed:
 * @report: a deploy report
 *
 * The bytes placed in OCM over the whole run: the sizes of the chunks in OCM summed, each
 * counted once however short its life. Chunks come and go, so this exceeds the capacity
 * on most networks: show it only labelled "placed over time", never beside the capacity.
 *
 * Returns: the sum in bytes
 */
guint64 zw_deploy_report_ocm_placed (const ZwDeployReport *report);

/**
 * zw_deploy_report_to_json: (skip)
 *
 * The report as a cJSON tree in the schema at the top of this header (the caller deletes
 * it).
 */
cJSON *zw_deploy_report_to_json (const ZwDeployReport *report);
/**
 * zw_deploy_report_to_text:
 *
 * The readable log: options, segments, ETM and OCM plans, launches, every ValueInfo.
 *
 * Returns: (transfer full)
 */
char *zw_deploy_report_to_text (const ZwDeployReport *report);
/**
 * zw_deploy_report_from_json: (skip)
 *
 * Reads a report from a cJSON tree; @origin names it in messages. A field that is missing
 * or of the wrong type fails with ZW_REPORT_ERROR_FORMAT naming its path in the document;
 * a newer version with ZW_REPORT_ERROR_VERSION.
 */
ZwDeployReport *zw_deploy_report_from_json (const cJSON *root, const char *origin, GError **error);
/**
 * zw_deploy_report_save:
 * @path: (type filename)
 *
 * Written by zw_file_set_contents (base/zw-file.h: a regular file replaced whole, a stream
 * written through).
 */
gboolean zw_deploy_report_save (const ZwDeployReport *report, const char *path, GError **error);
/**
 * zw_deploy_report_load:
 * @path: (type filename)
 *
 * Reads the deploy report (JSON) at @path, as zw_deploy_report_from_json() with the file
 * named in messages.
 *
 * Returns: (transfer full)
 */
ZwDeployReport *zw_deploy_report_load (const char *path, GError **error);

G_END_DECLS
