/* xir-summary.h — a network's facts as a JSON report model (what `xrt-run info` prints). */
#pragma once

#include "xir/xir-network.h"

G_BEGIN_DECLS

/* Builds the summary of @net: header fields, ops by kind and hardop class,
 * values, chunks, params and instruction words, inputs and outputs.
 * Returns a new cJSON object owned by the caller (cJSON_Delete). Schema:
 * { "name", "ai_target", "framework_kind", "framework_version", "icraft_version",
 *   "icraft_xir_version", "params_bytes", "params_md5", "params_loaded": bool,
 *   "ops": { "total", "by_kind": {kind: n}, "hardop_classes": {class: n}, "layers" },
 *   "values": { "count", "bytes" },
 *   "chunks": { "feature": n, "feature_bytes", "params": n },
 *   "params": { "count", "bytes", "instr_count", "instr_words" },
 *   "inputs": [ {"v_id","shape":[…],"dtype","layout","mtype","bytes","scales"} ], "outputs": [ … ] } */
cJSON *xir_network_summarize (const XirNetwork *net);

/* "@sint(8)" or "@sint(8) quantized (axis -1, 384 scales)". */
char *xir_value_describe_dtype (const XirValue *v);
/* "chunk 12@56320", "host", "ETM 0x1000", "OCM 0x40". */
char *xir_value_describe_mtype (const XirValue *v);

G_END_DECLS
