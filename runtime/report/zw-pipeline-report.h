/* zw-pipeline-report.h — a pipeline report as the views read it: several networks on one
 * board (deploy/xrt-pipeline.h), each with its deploy report, the board's ETM chunks by
 * owner, the shared segments, the connections and the pass's simulated time.
 *
 * The contract is the runtime's pipeline report JSON ("format": "zhuge-pipeline-report",
 * written by xrt_pipeline_report_to_json(), `xrt-run plan|run PIPE.toml --json`): the
 * workbench parses a live run's report and a file opened from disk with the same function,
 * so both look the same. This is the one reader of the format: the independent checker of
 * the figures (report/zw-pipeline-check.h, `xrt-run check`, the sweep, the workbench before
 * it shows one) checks the model it makes.
 *
 * A board chunk's owner ("NET:SEGMENT", "share:NAME:SEGMENT", "connect:NAME" or "other") is
 * parsed into its kind, the network it belongs to (for NET:SEGMENT) and its name and
 * segment, so a view colours and labels it without parsing strings.
 */
#pragma once

#include <glib.h>
#include <cjson/cJSON.h>

#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"

G_BEGIN_DECLS

/* One network of the pipeline, in pass order. */
typedef struct {
  char *name;                 /* its table in the pipeline file: [network.NAME] */
  char *json;                 /* the network file it is (a view of) */
  guint stage;
  gint first_op, n_ops;       /* the view: first op index and op count (-1, -1: unknown) */
  gboolean on_board;          /* FALSE: host ops only, no deploy report, no ETM */
  guint64 apart_etm_bytes;    /* its ETM deployed alone on a board of its own */
  double time_ms;             /* its simulated time in the last pass; < 0 when not profiled */
  ZwDeployReport *report;     /* its deploy report (NULL when not on the board) */
  ZwProfile *profile;         /* its ops' times in the last pass (NULL when not profiled) */
} ZwPipelineNetwork;

typedef enum {
  ZW_BOARD_CHUNK_NETWORK,     /* "NET:SEGMENT": one network's own segment */
  ZW_BOARD_CHUNK_SHARE,       /* "share:NAME:SEGMENT": a segment several networks share */
  ZW_BOARD_CHUNK_CONNECT,     /* "connect:NAME": a connection's chunk */
  ZW_BOARD_CHUNK_OTHER,       /* the board's own chunks (timer, profiler…): not the pipeline's */
} ZwBoardChunkKind;

/* One chunk of the board's ETM, sorted by address. */
typedef struct {
  guint64 addr, size;
  char *owner;                /* as in the file */
  ZwBoardChunkKind kind;
  gint network;               /* NETWORK: the index of its network; else -1 */
  char *name;                 /* SHARE/CONNECT: the share's or connection's name; else NULL */
  gint segment;               /* NETWORK/SHARE: its ZwSegmentType; else -1 */
} ZwBoardChunk;

typedef struct {
  char *name;
  GPtrArray *networks;        /* char*: the networks that share it */
  gint segment;               /* ZwSegmentType */
  guint64 addr, size;
} ZwPipelineShare;

typedef struct {
  char *name;
  gint from, to;              /* network indices */
  gint64 output_v_id, input_v_id;
  guint64 addr, size, bytes;  /* its chunk (0, 0 through the host) and the value's bytes */
  char *from_mode, *to_mode;  /* "zero-copy", "staged", "host" */
} ZwPipelineConnection;

typedef struct {
  gint ref_count;
  char *name;                 /* the pipeline's name */
  char *file;                 /* the pipeline file it was made from (may be NULL) */
  char *device;
  GArray *networks;           /* ZwPipelineNetwork, pass order */
  GArray *chunks;             /* ZwBoardChunk, by address */
  GArray *shares;             /* ZwPipelineShare */
  GArray *connections;        /* ZwPipelineConnection */
  guint64 board_bytes;        /* the pipeline's ETM on the board (chunks not "other") */
  guint64 apart_bytes;        /* the same networks deployed apart */
  gint64 saved_bytes;         /* apart - board (negative when the pipeline takes more) */
  double pass_ms;             /* one pass; < 0 when not profiled */
  guint passes;
} ZwPipelineReport;

ZwPipelineReport *zw_pipeline_report_ref (ZwPipelineReport *self);
void zw_pipeline_report_unref (ZwPipelineReport *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwPipelineReport, zw_pipeline_report_unref)

/**
 * zw_pipeline_report_is_pipeline: (skip)
 * @root: a JSON document
 *
 * Returns: whether @root says it is a pipeline report ("format": "zhuge-pipeline-report")
 */
gboolean zw_pipeline_report_is_pipeline (const cJSON *root);

/**
 * zw_pipeline_report_from_json: (skip)
 * @root: a pipeline report ("format": "zhuge-pipeline-report")
 * @origin: the name errors give (a file)
 * @error: ZW_REPORT_ERROR_FORMAT naming @origin, the network or the array and the field;
 *   ZW_REPORT_ERROR_VERSION for a newer version
 *
 * Parses a pipeline report: every number through checked conversion, every network's
 * deploy report through zw_deploy_report_from_json(), every chunk's owner into its kind,
 * every network a share or a connection names one of the report's. It checks no figure:
 * zw_pipeline_report_check() does.
 *
 * Returns: (transfer full) (nullable): the model
 */
ZwPipelineReport *zw_pipeline_report_from_json (const cJSON *root, const char *origin, GError **error);

/**
 * zw_pipeline_report_load: (skip)
 * @path: a pipeline report JSON
 * @error: as zw_pipeline_report_from_json(), or ZW_REPORT_ERROR_IO / _PARSE naming @path
 *
 * Reads a pipeline report file.
 *
 * Returns: (transfer full) (nullable): the model
 */
ZwPipelineReport *zw_pipeline_report_load (const char *path, GError **error);

/**
 * zw_pipeline_report_find_network: (skip)
 * @self: a pipeline report
 * @name: a network's name
 *
 * Returns: the index of the network named @name, -1 when none is
 */
gint zw_pipeline_report_find_network (const ZwPipelineReport *self, const char *name);

/**
 * zw_pipeline_report_network_bytes: (skip)
 * @self: a pipeline report
 * @index: a network
 *
 * Returns: the bytes of the board chunks that are network @index's own (not shared)
 */
guint64 zw_pipeline_report_network_bytes (const ZwPipelineReport *self, guint index);

G_END_DECLS
