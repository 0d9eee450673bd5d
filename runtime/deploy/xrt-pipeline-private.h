/* xrt-pipeline-private.h — a pipeline file as read (xrt-pipeline-file.c), shared with the
 * pipeline object (xrt-pipeline.c) and its report (xrt-pipeline-report.c). */
#pragma once

#include "deploy/xrt-pipeline.h"
#include "report/zw-deploy-report.h"
#include "xrt/xrt-mem.h"

G_BEGIN_DECLS

/* [network.NAME] */
typedef struct {
  char *name;
  char *json;             /* resolved against the file's folder */
  char *raw;              /* NULL: NET.raw beside json when it exists, else synthetic */
  gboolean has_ops;
  gint ops[2];            /* [first, end) as xir_network_view() */
  gint stage;             /* -1 until given or derived */
  gboolean stage_given;
  gint merge_hardop;      /* -1 unset, 0, 1 */
  gint etm_optimize;
  gboolean ocm_given;
  ZwOcmOpt ocm;
  guint file_order;
} XrtPipelineNet;

/* [share.NAME] */
typedef struct {
  char *name;
  GPtrArray *networks;    /* char*: network names */
  gboolean segments[ZW_N_SEGMENTS];
} XrtPipelineShare;

/* [connect.NAME]: an end by position (index >= 0) or by v_id */
typedef struct {
  char *name;
  char *from;
  char *to;
  gint64 output_index, output_id;   /* one of them >= 0 / given */
  gboolean output_by_id;
  gint64 input_index, input_id;
  gboolean input_by_id;
  gboolean staged;
  gboolean every;         /* no end given: every value `to` reads from `from` (views of one network) */
} XrtPipelineConnect;

typedef struct {
  char *origin;           /* the file, as errors name it */
  char *dir;              /* its folder */
  char *name;
  char *device;           /* NULL: the first network's compile target */
  GPtrArray *nets;        /* XrtPipelineNet*, in pass order after xrt_pipeline_spec_order() */
  GPtrArray *shares;      /* XrtPipelineShare* */
  GPtrArray *connects;    /* XrtPipelineConnect* */
} XrtPipelineSpec;

/* ---- the pipeline object (xrt-pipeline.c, read by xrt-pipeline-report.c) ---- */

/* A network of the pipeline, in pass order. */
typedef struct {
  const char *name;                /* the spec's */
  const XrtPipelineNet *spec;
  XrtDeployment *deployment;
  guint64 apart[ZW_N_SEGMENTS];    /* its logic segments' sizes, deployed alone */
  GPtrArray *outputs;              /* XrtTensor*: the last pass's */
  double pass_ms;                  /* its simulated time in the last pass (profiled) */
  gboolean on_board;               /* some op runs on the board (after apply) */
} XrtPipelineMember;

/* A connection: an output of network `from` is the input of network `to`. */
typedef struct {
  const XrtPipelineConnect *connect;
  char *name;                      /* the connect's name, ".v<ID>" added for each of `every` */
  guint from, to;                  /* members */
  XirValue *output, *input;
  XrtMemChunk *chunk;              /* both ends live in it (after apply) */
  gboolean host;                   /* an end runs on the host only: the tensor passes in host
                                    * memory, there is no chunk on the board */
} XrtPipelineLink;

/* A shared segment: one chunk per (share, segment type). */
typedef struct {
  char *share;
  const XrtPipelineShare *spec;
  ZwSegmentType type;
  XrtMemChunk *chunk;
} XrtPipelineShared;

struct _XrtPipeline {
  GObject parent_instance;
  XrtPipelineSpec *spec;
  GArray *members;                 /* XrtPipelineMember */
  GArray *links;                   /* XrtPipelineLink */
  GArray *shared;                  /* XrtPipelineShared */
  XrtDevice *device;
  gboolean force_staged;
  gboolean applied;
  gboolean profile;
  guint passes;
  double pass_ms;                  /* the last pass, profiled */
  char *dump_dir;                  /* xrt_pipeline_set_dump: the one folder, NULL when not dumping */
  char *dump_format;
};

#define XRT_PIPELINE_MEMBER(self, i) (&g_array_index ((self)->members, XrtPipelineMember, (i)))

/* Whether input @pos_in of member @i is fed by a connection: @from gets the upstream member,
 * @pos_out the position of the output among its view's outputs. */
gboolean xrt_pipeline_input_link (XrtPipeline *self, guint i, guint pos_in, guint *from, guint *pos_out);

/* xrt-pipeline-apart.c: member @m of @self deployed alone — the same view and options applied
 * on a new simulated board of its compile target (of host ops only: beside a new simulated
 * board of @self's kind; @self may be NULL for a network on the board); @etm_bytes (nullable)
 * gets the bytes of every chunk of that board's ETM the network took (the board's own chunks,
 * there before it, left out). */
XrtDeployment *xrt_pipeline_deploy_apart (XrtPipeline *self, XrtPipelineMember *m, guint64 *etm_bytes, GError **error);
/* Its ETM deployed alone (0 for a network of host ops only: nothing of it is on the board). */
gboolean xrt_pipeline_apart_bytes (XrtPipelineMember *m, guint64 *out, GError **error);

/* xrt-pipeline-report.c: a network's entry of a pipeline report, its name, network file,
 * stage, view and the ETM it takes deployed alone (the rest is the caller's to add). */
cJSON *xrt_pipeline_network_json (XrtPipelineMember *m, guint64 apart_etm_bytes);

/* xrt-pipeline-dump.c: after a pass, the networks' part folders gathered into the dump folder. */
gboolean xrt_pipeline_dump_collect (XrtPipeline *self, GError **error);

XrtPipelineSpec *xrt_pipeline_spec_parse (const char *data, gsize length, const char *origin, GError **error);
void xrt_pipeline_spec_free (XrtPipelineSpec *spec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtPipelineSpec, xrt_pipeline_spec_free)
XrtPipelineNet *xrt_pipeline_spec_find (const XrtPipelineSpec *spec, const char *name, guint *index);

/* cJSON_Print of @root, which it frees (NULL for NULL): the _to_text forms of the JSON the
 * pipeline writes (xrt-pipeline.c). */
char *xrt_pipeline_json_take_text (cJSON *root);

G_END_DECLS
