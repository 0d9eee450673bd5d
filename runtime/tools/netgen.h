/* netgen.h — the project's own generator of demo networks in the vendor's format.
 *
 * Writes `<name>_ZG.json` + `<name>_ZG.raw` exactly as the Icraft compiler lays them
 * out for the ZG330 (DESIGN.md §4): compact JSON with keys sorted, HardOps named by
 * their fused class, NCHWc32 int8 feature maps with per-tensor scales, OIHWo32i32
 * int8 weights with per-output-channel scales + Oo32 fp16 bias in one chunk per conv,
 * one uint64 instr Params per HardOp in one shared instr chunk, concat inputs written
 * at consecutive offsets of the concat output's chunk (so the concat itself is a
 * zero-copy HardOp: layer_count 0, 0 instr words).
 *
 * Geometry, so a behavioural simulator can run every net:
 *  - conv: kernel from the weight shape, padding p = (k - 1) / 2 (PyTorch's k/2 for
 *    odd kernels; YOLOv5's 6x6 stem uses 2), out = floor((in + 2p - k) / s) + 1.
 *    Depthwise convs (mobilenetv2) have weight layout OIHWo32i1, shape
 *    [C/32, 1, k, k, 32, 1]: groups = input channels / weight input channels (= C).
 *  - maxpool: 5x5 s1 p2 (same size, SPPF and tiny) or 3x3 s2 p1 (halves, resnet18).
 *  - upsample: x2 nearest.  add: equal shapes.  concat: along C.
 *  - every net but tail starts Input (NHWC uint8) -> Reshape (zero-copy, "*C**c3") -> Cast
 *    (int8, "*C**c3", tagged io_process) like the real yolov5s.
 *
 * What each net holds (ops in file order; HardOp classes in brackets):
 *  tiny        11 ops: Input, Reshape, Cast, [Conv 3, MaxPool 1, Add 1, Upsample 1,
 *              Concat 1], Output; input 16x16, feature maps 32 ch.
 *  twoin       10 ops: Input (two outputs, 16x16 each), Reshape and Cast per input,
 *              [Conv 3, Add 1], Output: the demo of a network with two inputs.
 *  tail         4 ops: Input (an int8 NCHWc32 map, 32 x 16 x 16: tiny's output, 8192
 *              bytes), [Conv 2], Output: a network that starts where tiny ends, so the
 *              two connect whole on one board (a pipeline's output -> input).
 *  resnet18    33 ops: Input, Reshape, Cast, [Conv 20 (stem 7x7 s2, 16 3x3, 3 1x1 s2
 *              projections), MaxPool 1, Add 8], Output; input 224x224, out 512x7x7.
 *  mobilenetv2 66 ops: Input, Reshape, Cast, [Conv 52 (17 depthwise), Add 10], Output;
 *              input 224x224; the 16- and 24-channel stages are widened to 32 (and
 *              the 144-wide expansion to 160) so every map is a whole NCHWc32 block.
 *  yolov5s     91 ops, the real yolov5s_plin_352x640's structure and shapes: Input,
 *              Reshape, Cast, [Conv 61, Add 7, Concat 13, MaxPool 3, Upsample 2],
 *              customop::DetPostZG, Output; input 352x640; heads 384 channels
 *              (3 anchors x (5 + 80) padded per anchor to 128, as the real file).
 *  chain       exactly N ops (--ops, default 10000, 5 <= N <= 1000000): Input,
 *              Reshape, Cast, a stem conv, then residual units (1x1 conv, 1x1 conv,
 *              Add) with every fourth unit a concat unit (two 1x1 convs, Concat,
 *              1x1 conv), single 1x1 convs to fill up, Output; 32 ch at 4x4.
 *
 * Everything is deterministic in the seed: the same name, options and seed give the
 * same bytes. The .raw holds the synthetic params of xir_network_fake_params(seed).
 */
#pragma once

#include <glib.h>
#include <cjson/cJSON.h>

G_BEGIN_DECLS

#define ZW_NETGEN_ERROR (zw_netgen_error_quark ())
GQuark zw_netgen_error_quark (void);

/**
 * ZwNetgenError:
 * @ZW_NETGEN_ERROR_UNKNOWN_NETWORK: the name is not one of zw_netgen_get_names()
 * @ZW_NETGEN_ERROR_INVALID_OPTION: an option is out of range or does not apply
 * @ZW_NETGEN_ERROR_IO: the output directory or a file could not be written
 * @ZW_NETGEN_ERROR_PARAMS: the written network did not load back or its .raw is wrong
 */
typedef enum {
  ZW_NETGEN_ERROR_UNKNOWN_NETWORK,
  ZW_NETGEN_ERROR_INVALID_OPTION,
  ZW_NETGEN_ERROR_IO,
  ZW_NETGEN_ERROR_PARAMS,
} ZwNetgenError;

#define ZW_NETGEN_CHAIN_MIN_OPS 5
#define ZW_NETGEN_CHAIN_MAX_OPS 1000000
#define ZW_NETGEN_CHAIN_DEFAULT_OPS 10000

typedef struct {
  guint64 seed;  /* drives scales and the synthetic params; default 1 */
  guint n_ops;   /* chain only: total ops; 0 = ZW_NETGEN_CHAIN_DEFAULT_OPS.
                  * Must be 0 for the other nets. */
} ZwNetgenOptions;

/* Fills @opts with the defaults (seed 1, n_ops 0). */
void zw_netgen_options_init (ZwNetgenOptions *opts);

/* The generator's network names, NULL-terminated, static. */
const char * const *zw_netgen_get_names (void);

/* Builds the network JSON in memory, with params_bytes 0 and params_md5 "" as
 * placeholders (the .raw is not known yet). Returns a new cJSON tree the caller
 * frees with cJSON_Delete, or NULL with ZW_NETGEN_ERROR_UNKNOWN_NETWORK /
 * ZW_NETGEN_ERROR_INVALID_OPTION. Pure: touches no file. */
cJSON *zw_netgen_build_json (const char *name, const ZwNetgenOptions *opts, GError **error);

/* Generates network @name into @dir (created if missing): builds the JSON, loads it
 * with the xir loader (xir_network_new_from_json_data), fills the params with
 * xir_network_fake_params(seed), writes `<dir>/<name>_ZG.raw`, then writes
 * `<dir>/<name>_ZG.json` with that file's params_bytes and params_md5. Both writes
 * are atomic; on a failure after the .raw was written it is removed again, so an
 * older pair in @dir is never left mismatched. On success the paths are returned in
 * @json_path / @raw_path if not NULL (caller g_free()s them); on failure returns
 * FALSE with a ZW_NETGEN_ERROR naming the file or option at fault. */
gboolean zw_netgen_write_network (const char *name, const ZwNetgenOptions *opts,
                                  const char *dir, char **json_path, char **raw_path,
                                  GError **error);

G_END_DECLS
