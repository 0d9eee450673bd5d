/* xir-private.h — shared between xir-network.c and xir-raw.c; not installed. */
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
