/* zw-pipeline-pass.h — one pass of a pipeline as the views read it (issue 38 item 3): the
 * networks' forwards one after another on one time axis, every network's ETM chunks over
 * that time at their board addresses, the pass's op-by-op time profile, and the names of
 * the pipeline's values ("NET:V_ID").
 *
 * Time: the board runs one launch at a time, so network i runs over [start_i, end_i], the
 * networks in pass order, end to end. With a profiled pass (every network's "time_ms") the
 * axis is milliseconds and an op's place comes from its network's time profile; without
 * one (a plan) the axis is "op slots": network i takes as many units as it has ops, and an
 * op index k of it sits at start_i + k.
 *
 * Chunks (ZwPassChunk, computed from the networks' deploy reports and the pipeline's
 * shares and connections; no new figures): a network's WEIGHT and INSTR segments are
 * resident over the whole pass (a segment shared by copies of one network once); each of
 * its compiler chunks in ETM lives from the start of its first op to the end of its last,
 * at FTMP's physical address plus its offset (a connected value's chunk at the
 * connection's address); its input and output values with addresses of their own likewise;
 * a connection's chunk lives from the start of the network that writes it to the end of
 * the one that reads it. Each chunk says which share's or connection's range it lies in.
 */
#pragma once

#include "report/zw-pipeline-report.h"

G_BEGIN_DECLS

typedef enum {
  ZW_PASS_CHUNK_RESIDENT,   /* WEIGHT / INSTR: the whole pass */
  ZW_PASS_CHUNK_FTMP,       /* a compiler chunk of the network's FTMP (or connected) */
  ZW_PASS_CHUNK_IO,         /* an input or output value with an address of its own */
  ZW_PASS_CHUNK_CONNECT,    /* a connection's chunk, writer to reader */
} ZwPassChunkKind;

typedef struct {
  ZwPassChunkKind kind;
  gint network;             /* its network (a connection: the writer) */
  gint to_network;          /* a connection: the reader; else -1 */
  gint segment;             /* ZwSegmentType; -1 for a connection */
  guint64 addr, size;       /* on the board (physical) */
  double t0, t1;            /* in pass units (see the top), t1 > t0 */
  gint64 chunk_id;          /* the network report's chunk id, else -1 */
  gint64 v_id;              /* a value it holds (the chunk's first), else -1 */
  gint share;               /* index of the share whose range holds it, else -1 */
  gint connection;          /* index of the connection whose range holds it, else -1 */
} ZwPassChunk;

/**
 * zw_pipeline_pass_has_times: (skip)
 *
 * Returns: TRUE when the pass was profiled (the axis is ms), FALSE for op slots
 */
gboolean zw_pipeline_pass_has_times (const ZwPipelineReport *pipeline);

/**
 * zw_pipeline_pass_length: (skip)
 *
 * Returns: the pass's length in pass units (> 0)
 */
double zw_pipeline_pass_length (const ZwPipelineReport *pipeline);

/**
 * zw_pipeline_pass_network_span: (skip)
 *
 * Where network @index runs in the pass, in pass units; FALSE out of range.
 */
gboolean zw_pipeline_pass_network_span (const ZwPipelineReport *pipeline, guint index, double *t0, double *t1);

/**
 * zw_pipeline_pass_op_span: (skip)
 *
 * Where op index @op of network @index runs in the pass (its start and end in pass units);
 * FALSE when the network has no deploy report or @op is out of range.
 */
gboolean zw_pipeline_pass_op_span (const ZwPipelineReport *pipeline, guint index, guint op, double *t0, double *t1);

/**
 * zw_pipeline_pass_chunks: (skip)
 *
 * Every network's ETM chunks over the pass (see the top), connections first, then by
 * network in pass order.
 *
 * Returns: (transfer full): a GArray of ZwPassChunk
 */
GArray *zw_pipeline_pass_chunks (const ZwPipelineReport *pipeline);

/**
 * zw_pipeline_pass_profile: (skip)
 *
 * The pass as one time profile: every profiled network's rows, in pass order, each row's
 * start moved to its place in the pass and its name "NETWORK" or "NETWORK: name", the
 * profile named after the pipeline; totals computed, order recorded.
 *
 * Returns: (transfer full) (nullable): NULL when the pass was not profiled
 */
ZwProfile *zw_pipeline_pass_profile (const ZwPipelineReport *pipeline);

/**
 * zw_pipeline_pass_network_of_row: (skip)
 *
 * Returns: the network whose row @row (an index of zw_pipeline_pass_profile()'s rows) is,
 *   -1 out of range
 */
gint zw_pipeline_pass_network_of_row (const ZwPipelineReport *pipeline, guint row);

/**
 * zw_pipeline_value_name: (skip)
 *
 * A pipeline's value by network and v_id: "NET:V_ID" (the name dumps, selection and
 * Tensors use across the pipeline).
 *
 * Returns: (transfer full)
 */
char *zw_pipeline_value_name (const char *network, gint64 v_id);

/**
 * zw_pipeline_value_parse: (skip)
 * @network: (out) (transfer full): the network's name
 *
 * Reads "NET:V_ID" (the last ':' separates; V_ID a non-negative integer).
 *
 * Returns: FALSE for any other text
 */
gboolean zw_pipeline_value_parse (const char *name, char **network, gint64 *v_id);

/**
 * zw_pipeline_value_file_name: (skip)
 *
 * The file a pipeline value is dumped to in a pipeline's dump folder:
 * "NET.V_ID.ftmp" (a ':' is no file name character everywhere).
 *
 * Returns: (transfer full)
 */
char *zw_pipeline_value_file_name (const char *network, gint64 v_id);

G_END_DECLS
