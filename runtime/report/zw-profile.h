/* zw-profile.h — time profiles: per-op times of one forward, and their files.
 *
 * A ZwProfile is what setLogTime() reports: one row per op (or per merged launch) with
 * total, memcpy, hard and other times in milliseconds, plus the vendor's totals and
 * summary.  It is read and written in four formats:
 *
 *  VENDOR  `<net>_time.txt` exactly as the vendor's helpers write it (DESIGN.md §4):
 *          op_id: 754, op_type: icraft::xir::HardOpNode, op_name: , total_time: 13.60874,
 *            memcpy_time: 0, hard_time: 13.52334976196289, other_time: 0.08539023803710855
 *            [, is_io_process: false]                       (ZG backends add this field)
 *          ************************************             (36 stars)
 *          Total_TotalTime: …, Total_MemcpyTime: …, Total_HardTime: …, Total_OtherTime: …
 *          Hardop_Total_Time: … ms, Hardop_Hard_Time : … ms.
 *          Customop: DetPost,TotalTime: … ms, HardTime : … ms.   (one per customop type)
 *          ******************************************************  (54 stars)
 *          统计分析结果如下(The analysis results are as follows):
 *          数据传入耗时(Data input time consumption):   / Time(ms):5.62121     Device:ImageMake
 *          icore[npu]耗时(Icore [npu] time-consuming):  / Time(ms):13.6087     Device:Null
 *          数据传出耗时(Data output time consumption):  / Time(ms):0.92957     Device:DetPost
 *          cpu算子耗时(CPU operator time consumption):  / Time(ms):9.90773     Device:Null
 *          Number formats, as observed in the vendor's file: row times are the shortest
 *          decimal that reads back as the same double ("1.5000000000000002e-05", "0");
 *          totals and customop lines are double sums printed as the shortest decimal of
 *          the nearest float32 ("19.144575", "1.5e-05"); summary times are "%g" (6 significant
 *          digits) left-aligned in 12 columns.  Other times may be negative (the vendor
 *          computes other = total - hard and ImageMake's hard time spans more than its
 *          call).  Only these fields exist in the text: merge_from, backend and start_ms
 *          are lost in it.
 *  JSON    ours: {"format": "zhuge-time-profile", "version": 1, "network",
 *          "rows": [{"op_id", "op_type", "op_name", "total_ms", "memcpy_ms", "hard_ms",
 *          "other_ms", "is_io_process" (absent when unknown), "merge_from": [..],
 *          "backend", "start_ms" (absent when unknown), "host_measured_ms" (absent
 *          when unknown)}], "totals": {...},
 *          "customops": [{"name", "total_ms", "hard_ms"}], "summary": {"input"|"icore"|
 *          "output"|"cpu": {"time_ms", "device"}}}
 *  CSV     header op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms,
 *          is_io_process,merge_from,backend,start_ms,host_measured_ms; merge_from "3;4;5";
 *          RFC 4180 quoting;
 *          empty = unknown.  Rows only (totals are recomputed on load).
 *  TRACE   Chrome trace-event JSON {"traceEvents": [...], "displayTimeUnit": "ms"}: one
 *          complete event ("ph": "X") per row with ts and dur in microseconds, pid 1 for
 *          the ZG330 backend and 2 for the host (named by "M" process_name events), tid 1,
 *          args {op_id, op_type, op_name, total_ms, memcpy_ms, hard_ms, other_ms,
 *          is_io_process, merge_from, host_measured_ms (when known)}.  Rows without start_ms are laid end to end in row
 *          order.  Loads in Perfetto and chrome://tracing.
 *
 * zw_profile_load() reads any of them (detected from the content), by one rule for all four:
 * a row (an "op_id:" line, a CSV record, rows[i], a complete trace event) that is there but
 * cannot be read whole — a required field missing, a field present but not what it must be
 * — refuses the file, naming it, the line (rows[i] / traceEvents[i] in JSON) and the field;
 * a file with no rows (a header alone, "rows": [], totals or summaries only) is refused as
 * empty ("no time profile in it").  Other lines of a vendor file it does not understand (a
 * header, a totals or summary line it cannot read) are skipped with a warning
 * "<file>:<line>: …" and the totals recomputed.
 *
 * Summary rules, inferred from the one vendor sample (bytetrack_BY_int8_time.txt) and
 * applied by zw_profile_compute_totals(): input = ImageMake's hard time (device
 * "ImageMake") or else the total of the is_io_process rows (device "Null"); icore = the
 * total of HardOpNode rows that are not io_process (device "Null"); output = DetPost's
 * total (device "DetPost") or 0 ("Null"); cpu = the total of the other icraft::xir rows
 * (Input, Resize, Output …; device "Null").
 *
 * Simulated and measured time: every time above (total, memcpy, hard, other, the totals,
 * the summary, the vendor file's columns) is simulated: the board's timer for hardops and
 * the host-op cost model (backends/host/host-cost.h) for host ops, the same on every run.
 * A live run also records how long each host op took on the dev host (host_measured_ms);
 * that figure is kept apart, labelled "measured on this PC", and never enters a total, a
 * comparison or the vendor text.
 *
 * Execution order: rows are kept as the file lists them (writers reproduce it), and
 * @order says in which order they ran (@order_source says how that is known):
 *   RECORDED  a live run, or a file whose rows all carry start_ms (sorted by start time);
 *   NETWORK   zw_profile_order_by_network(): by the position of each row's op (a merged
 *             launch: its first member) in the network's op list;
 *   INFERRED  a file without start times and no network (the vendor's *_time.txt, which
 *             lists Output first and Input last): stages Input; host ops whose op id is
 *             below every hardop's (pre-processing such as Resize); input-side customops
 *             (ImageMake) and io_process rows; hardops; the other customops (DetPost) and
 *             host ops; Output — by op id within a stage, file order on ties.  Views say
 *             "order inferred".
 * Rows that cannot be (zw_profile_row_check(): hard > total, memcpy + hard > total, a
 * negative time or other time, e.g. the vendor's ImageMake row) are flagged, not hidden.
 *
 * Ownership: a ZwProfile owns its rows and strings; free with zw_profile_free().
 * Errors: ZW_PROFILE_ERROR, messages name the file and the line or field.
 */
#pragma once

#include <glib.h>
#include <glib-object.h>

G_BEGIN_DECLS

#define ZW_PROFILE_ERROR (zw_profile_error_quark ())
/**
 * zw_profile_error_quark:
 *
 * The error domain of time profiles (ZW_PROFILE_ERROR): reading, writing and format names.
 */
GQuark zw_profile_error_quark (void);

typedef enum {
  ZW_PROFILE_ERROR_IO,      /* cannot read or write the file */
  ZW_PROFILE_ERROR_PARSE,   /* no profile in the file (or not the format asked for) */
  ZW_PROFILE_ERROR_FORMAT,  /* an unknown format name */
} ZwProfileError;

typedef enum {
  ZW_PROFILE_FORMAT_VENDOR,  /* <net>_time.txt */
  ZW_PROFILE_FORMAT_JSON,
  ZW_PROFILE_FORMAT_CSV,
  ZW_PROFILE_FORMAT_TRACE,   /* Chrome trace-event JSON */
} ZwProfileFormat;

typedef struct {
  gint64 op_id;
  char *op_type;            /* "icraft::xir::HardOpNode", "customop::DetPostNode" … */
  char *op_name;            /* often "" */
  double total_ms, memcpy_ms, hard_ms, other_ms;
  gboolean has_io_process;  /* the ZG field is present */
  gboolean is_io_process;
  GArray *merge_from;       /* gint64 original op ids of a merged launch (empty otherwise) */
  char *backend;            /* "ZG330", "Host" … or NULL when unknown */
  double start_ms;          /* timeline position; < 0 when unknown */
  double host_measured_ms;  /* host ops of a live run: the dev host's wall-clock time of the
                             * op, labelled "measured on this PC", in no total; < 0 unknown */
} ZwProfileRow;

/* What zw_profile_row_check() finds wrong with a row (a bit set). */
typedef enum {
  ZW_PROFILE_ROW_OK                 = 0,
  ZW_PROFILE_ROW_HARD_OVER_TOTAL    = 1 << 0,  /* hard_ms > total_ms */
  ZW_PROFILE_ROW_PARTS_OVER_TOTAL   = 1 << 1,  /* memcpy_ms + hard_ms > total_ms */
  ZW_PROFILE_ROW_NEGATIVE_OTHER     = 1 << 2,  /* other_ms < 0 */
  ZW_PROFILE_ROW_NEGATIVE_TIME      = 1 << 3,  /* total, memcpy or hard < 0 */
  ZW_PROFILE_ROW_NOT_IN_NETWORK     = 1 << 4,  /* ordering by network: its op is not there */
} ZwProfileRowFlags;

/* The flags of a row whose times cannot be (what views mark and n_flagged counts). */
#define ZW_PROFILE_ROW_IMPOSSIBLE (ZW_PROFILE_ROW_HARD_OVER_TOTAL | ZW_PROFILE_ROW_PARTS_OVER_TOTAL \
                                   | ZW_PROFILE_ROW_NEGATIVE_OTHER | ZW_PROFILE_ROW_NEGATIVE_TIME)

typedef enum {
  ZW_PROFILE_ORDER_RECORDED,  /* live run, or start times in the file */
  ZW_PROFILE_ORDER_NETWORK,   /* the network's op order */
  ZW_PROFILE_ORDER_INFERRED,  /* guessed from op types and ids (see the top) */
} ZwProfileOrderSource;

typedef struct {
  char *name;               /* "DetPost" (the type without "customop::" and "Node") */
  double total_ms, hard_ms;
} ZwProfileCustomop;

typedef struct {
  double time_ms;
  char *device;             /* "ImageMake", "DetPost", "Null" */
} ZwProfileSummaryItem;

typedef enum {
  ZW_PROFILE_SUMMARY_INPUT,
  ZW_PROFILE_SUMMARY_ICORE,
  ZW_PROFILE_SUMMARY_OUTPUT,
  ZW_PROFILE_SUMMARY_CPU,
  ZW_PROFILE_N_SUMMARY
} ZwProfileSummaryKind;

typedef struct {
  char *network;            /* may be NULL */
  GPtrArray *rows;          /* ZwProfileRow*, in file order */
  gboolean has_totals;
  double total_ms, total_memcpy_ms, total_hard_ms, total_other_ms;
  double hardop_total_ms, hardop_hard_ms;
  GPtrArray *customops;     /* ZwProfileCustomop* */
  gboolean has_summary;
  ZwProfileSummaryItem summary[ZW_PROFILE_N_SUMMARY];
  /* execution order (see the top): row indices, rows->len of them once set; NULL = row order */
  GArray *order;            /* guint */
  ZwProfileOrderSource order_source;
  guint *flags;             /* ZwProfileRowFlags per row (zw_profile_check_rows), NULL = not checked */
  guint n_flagged;          /* rows with a ZW_PROFILE_ROW_IMPOSSIBLE flag */
  /* host ops' measured dev-host time, summed apart from every simulated total */
  gboolean has_host_measured;
  double host_measured_ms;
} ZwProfile;

/**
 * zw_profile_new:
 *
 * An empty time profile of the network @network (may be NULL): no rows, no totals.
 *
 * Returns: (transfer full)
 */
ZwProfile *zw_profile_new (const char *network);
/**
 * zw_profile_free:
 *
 * Frees @profile, its rows, customops and summary (NULL is ignored).
 */
void zw_profile_free (ZwProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwProfile, zw_profile_free)
/* The GBoxed type of ZwProfile (for the language bindings). */
#define ZW_TYPE_PROFILE (zw_profile_get_type ())
/**
 * zw_profile_get_type:
 *
 * The GBoxed type of ZwProfile (copying is zw_profile_copy()), for the language bindings.
 */
GType zw_profile_get_type (void);

/**
 * zw_profile_add_row: (skip)
 *
 * Appends a row (copies the strings; other_ms as given, the vendor's total - hard
 * is the caller's business) and returns it so the caller can set merge_from, backend,
 * start_ms, is_io_process.  Totals are not updated: call zw_profile_compute_totals().
 */
ZwProfileRow *zw_profile_add_row (ZwProfile *profile, gint64 op_id, const char *op_type, const char *op_name,
                                  double total_ms, double memcpy_ms, double hard_ms, double other_ms);

/**
 * zw_profile_compute_totals:
 *
 * Fills the totals (sums in row order), the customop lines (one per
 * customop type, in order of first appearance) and the summary (rules at the top), all
 * from simulated times; also the measured host sum (has_host_measured, host_measured_ms)
 * and the row flags (zw_profile_check_rows).
 */
void zw_profile_compute_totals (ZwProfile *profile);

/**
 * zw_profile_copy:
 * @profile: a time profile
 *
 * A deep copy: rows (with their start and measured host times), totals, customops,
 * summary, order and flags. A session's profile is valid only until its next forward:
 * this is how a caller keeps one.
 *
 * Returns: (transfer full): the copy; free with zw_profile_free()
 */
ZwProfile *zw_profile_copy (const ZwProfile *profile);

/**
 * zw_profile_get_n_rows:
 *
 * Index access for bindings: the rows in file order (NULL past the end).
 */
guint zw_profile_get_n_rows (const ZwProfile *profile);
/**
 * zw_profile_get_row:
 *
 * Row @index of the profile, in file order; NULL past the end.
 *
 * Returns: (transfer none) (nullable)
 */
const ZwProfileRow *zw_profile_get_row (const ZwProfile *profile, guint index);

/**
 * zw_profile_row_check: (skip)
 *
 * The ZwProfileRowFlags of @row (times only; NOT_IN_NETWORK is
 * set by zw_profile_order_by_network).
 */
guint zw_profile_row_check (const ZwProfileRow *row);
/**
 * zw_profile_check_rows: (skip)
 *
 * Fills profile->flags and n_flagged (keeps NOT_IN_NETWORK).
 */
void zw_profile_check_rows (ZwProfile *profile);
/**
 * zw_profile_get_row_flags: (skip)
 *
 * The flags of row @index (0 when unchecked or out of range).
 */
guint zw_profile_get_row_flags (const ZwProfile *profile, guint index);

/**
 * zw_profile_order_infer: (skip)
 *
 * Sets the INFERRED order (rules at the top).
 */
void zw_profile_order_infer (ZwProfile *profile);
/**
 * zw_profile_order_recorded: (skip)
 *
 * RECORDED order: by start_ms when every row has one, else
 * row order.
 */
void zw_profile_order_recorded (ZwProfile *profile);
/**
 * zw_profile_order_by_network: (skip)
 *
 * Sets the NETWORK order from @op_ids, the network's op ids in execution order (@n_ops of
 * them): a row goes where its op (a merged launch: its first merge_from member) is; rows
 * whose op is not in the list keep their inferred place after the rest and are flagged
 * NOT_IN_NETWORK.  Returns how many rows were placed by the network.
 */
guint zw_profile_order_by_network (ZwProfile *profile, const gint64 *op_ids, guint n_ops);
/**
 * zw_profile_order_get: (skip)
 *
 * The row index at execution position @pos.
 */
guint zw_profile_order_get (const ZwProfile *profile, guint pos);
/**
 * zw_profile_order_source_to_string:
 *
 * The name as written in files: "recorded" ….
 */
const char *zw_profile_order_source_to_string (ZwProfileOrderSource source);

/**
 * zw_profile_summary_kind_to_string:
 *
 * The name as written in files: "input", "icore" ….
 */
const char *zw_profile_summary_kind_to_string (ZwProfileSummaryKind kind);
/**
 * zw_profile_format_to_string:
 *
 * The name as written in files: "vendor", "json" ….
 */
const char *zw_profile_format_to_string (ZwProfileFormat format);
/**
 * zw_profile_format_from_string:
 * @out: (out)
 *
 * The format named @text: "vendor" (or "txt", "text"), "json", "csv" or "trace", in any
 * case; otherwise FALSE with ZW_PROFILE_ERROR_FORMAT.
 */
gboolean zw_profile_format_from_string (const char *text, ZwProfileFormat *out, GError **error);

/**
 * zw_profile_to_string:
 *
 * The profile in @format (a new string).  VENDOR needs totals: when has_totals is FALSE
 * they are computed on a copy first.
 *
 * Returns: (transfer full)
 */
char *zw_profile_to_string (const ZwProfile *profile, ZwProfileFormat format);

/**
 * zw_profile_write:
 * @path: (type filename)
 *
 * Writes the profile to @path atomically (zw_file_set_contents: never half a file).
 */
gboolean zw_profile_write (const ZwProfile *profile, const char *path, ZwProfileFormat format, GError **error);

/**
 * zw_profile_parse: (skip)
 *
 * Parses @data (@length bytes, or -1 for NUL-terminated) in any of the four formats,
 * detected from the content; @origin names it in messages (a file name).  Lines other than
 * rows that it cannot read are skipped and described in @warnings (may be NULL; a GPtrArray
 * of strings the caller owns, e.g. g_ptr_array_new_with_free_func (g_free)).  Returns
 * NULL with ZW_PROFILE_ERROR_PARSE for a malformed row or a profile without rows (the rule
 * above).  @format_out
 * (may be NULL) receives the detected format.  Without totals in the data (CSV, TRACE,
 * a vendor file cut short) they are computed.
 */
ZwProfile *zw_profile_parse (const char *data, gssize length, const char *origin, GPtrArray *warnings,
                             ZwProfileFormat *format_out, GError **error);

/**
 * zw_profile_load:
 * @path: (type filename)
 * @warnings: (element-type utf8) (nullable)
 * @format_out: (out) (optional)
 *
 * zw_profile_parse() on the contents of @path.
 *
 * Returns: (transfer full)
 */
ZwProfile *zw_profile_load (const char *path, GPtrArray *warnings, ZwProfileFormat *format_out, GError **error);

/**
 * zw_profile_format_number:
 *
 * The vendor's number formats, exposed for tests and other writers: the shortest decimal
 * that reads back as @value as a double (@as_float FALSE) or as a float32 (@as_float
 * TRUE), in the style of "{}" formatting ("0", "13.60874", "1.5e-05").
 *
 * Returns: (transfer full)
 */
char *zw_profile_format_number (double value, gboolean as_float);

G_END_DECLS

