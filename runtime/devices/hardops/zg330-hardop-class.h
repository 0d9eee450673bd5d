/* zg330-hardop-class.h — one hardop kind: its class name, describer, kernel run and wire
 * fields, and the table of kinds (zg330-hardop-kinds.h) that finds it.
 *
 * After TensorFlow Lite Micro's kernels: one file per kind (hardop-conv2d.c, hardop-add.c …)
 * defines its Zg330HardopClass; the table maps the HardOp's class name and the kind's number
 * to it.  A new kind is one row in zg330-hardop-kinds.h plus its own file (and, if it needs
 * new arithmetic, its kernel in kernels/).
 *
 * What the table serves:
 *  - describing a HardOp of a network (zg330_hardop_class_describe): the class by name, the
 *    arity, the geometry the JSON does not carry (inferred from the shapes) and whether the
 *    op is zero-copy — for the ZG330 and Buyi backends and the host reference run alike;
 *  - the kernel descriptors of its operands (zg330_hardop_call_init): what a board runs;
 *  - running it over host buffers (zg330_hardop_call_compute, used by the board after it
 *    read the operands from its regions, and by the HostBackend on the session's buffers),
 *    so a board and the host give the same bytes by construction;
 *  - the wire's checks of a call (devices/zg330-wire.c): weights or not, the input count.
 */
#pragma once

#include <glib.h>

#include "xir/xir-network.h"
#include "kernels/zg330-kernels.h"
#include "devices/zg330-hardop-call.h"

G_BEGIN_DECLS

/* The validated description of one HardOp (geometry inferred once, at init). */
typedef struct {
  const XirOp *op;
  Zg330HardopKind kind;
  gboolean zero_copy;        /* inputs already live in the output's bytes: no work */
  guint kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left;
  guint groups;
  guint64 macs;
  guint64 weight_bytes;      /* params bytes (weights + bias) read from ETM */
  guint64 instr_bytes;
} Zg330HardopDesc;

/* The operands of one run as the kernels read them: @inputs (call->n_inputs; their bytes
 * are never written), @output (zeroed before the run, so bytes a kernel leaves alone read
 * as 0), and for a class with weights the conv weights with their scales and bias. */
typedef struct {
  const Zg330HardopCall    *call;
  const Zg330KernelTensor  *inputs;
  const Zg330KernelTensor  *output;
  const Zg330KernelWeights *weights;
} Zg330HardopOperands;

/**
 * Zg330HardopClass:
 * @name: the HardOp's class ("Conv2d": the JSON's name icraft::xir::Conv2dNode).
 * @has_weights: its params are conv weights [OB, IB, KH, KW, Ko, Ki] and an optional fp16
 *   bias, carried in the call (Zg330CallWeights) and on the wire.
 * @min_inputs, @max_inputs: the inputs a call of this kind has (the board and the wire
 *   refuse others; at most ZG330_CALL_MAX_INPUTS).
 * @fake_inputs: the inputs of a zero-copy op are the vendor's fake values inside its
 *   output (a concat's inputs, "real_to"/"fake_from"), as Buyi's placement records them.
 * @describe: fills the kind's part of @desc (arity, geometry, zero_copy, macs) for @op, whose
 *   class the table found; @desc->op, kind, weight_bytes and instr_bytes are set already.
 *   Errors name the op id and the field.
 * @run: runs the kernel on @x; errors from the kernels are prefixed with the op by the caller.
 */
typedef struct {
  const char *name;
  gboolean    has_weights;
  guint       min_inputs, max_inputs;
  gboolean    fake_inputs;
  gboolean  (*describe) (const XirOp *op, Zg330HardopDesc *desc, GError **error);
  gboolean  (*run)      (const Zg330HardopOperands *x, GError **error);
} Zg330HardopClass;

/* The class of @kind (NULL outside the table). */
const Zg330HardopClass *zg330_hardop_class_get    (Zg330HardopKind kind);

/* The class called @name ("Conv2d"), its kind in @kind; NULL when no row has it. */
const Zg330HardopClass *zg330_hardop_class_lookup (const char *name, Zg330HardopKind *kind);

/* "Conv2d, Add, Concat, …": the table's class names in row order (static string). */
const char *zg330_hardop_class_list (void);

/* zg330_hardop_class_describe:
 * Describes @op; fails with an error naming the op id and the field when the class is
 * unknown or the shapes do not fit the class (e.g. a conv whose output size no stride fits). */
gboolean zg330_hardop_class_describe (const XirOp *op, Zg330HardopDesc *desc, GError **error);

/* zg330_hardop_call_init:
 * The call of the described op as a board runs it, without places: the kind, geometry and
 * zero-copy flag, each operand's kernel descriptor (dims, channel block, element type, one
 * scale per channel: a NormalizedQuantizedType's normratio x scale) and, for a class with
 * weights, the weights' dims and scales and the bias.  Regions and addresses are left 0
 * (ETM at 0), @call->work zeroed: the backend that places the op fills them.  Fails with an
 * error naming the op and the value when an operand is not a feature map the board runs.
 * Clear @call with zg330_hardop_call_clear(). */
gboolean zg330_hardop_call_init (const Zg330HardopDesc *desc, Zg330HardopCall *call, GError **error);

/* zg330_hardop_call_compute:
 * Runs @call's kernel over host buffers: @inputs[i] holds input i's @call->inputs[i].size
 * bytes, @weights and @bias the params of a class with weights (NULL otherwise, or @bias
 * NULL without one), and @output receives @call->output.size bytes (zeroed first).  A
 * zero-copy call has no operands and is refused here: its bytes are its inputs' (see
 * zg330_hardop_zero_copy_offset).  Errors name the op id and the class ("op 12 (Conv2d): …"). */
gboolean zg330_hardop_call_compute (const Zg330HardopCall *call, const guint8 *const *inputs,
                                    const guint8 *weights, const guint8 *bias, guint8 *output,
                                    GError **error);

/* zg330_hardop_zero_copy_offset:
 * Where input @index of a zero-copy op lives in its output's bytes: its chunk offset less
 * the output's (@chunk(id@offset)), or its address less the output's (a Buyi @etm/@ocm
 * compile).  The op must be described zero_copy. */
guint64 zg330_hardop_zero_copy_offset (const Zg330HardopDesc *desc, guint index);

/* zg330_hardop_run_host:
 * Runs the described op over host buffers, as the board would at any placement: @inputs[i]
 * holds input i's storage bytes, @params[k] params k's (the network's .raw or synthetic
 * params; NULL for a class without weights), and @outputs[0] receives the output's storage
 * bytes.  A zero-copy op writes each input at its place in the output's bytes
 * (zg330_hardop_zero_copy_offset; bytes no input covers read 0), which is what the board
 * holds there.  This is the host reference run's HardOp (backends/host/): the same table,
 * descriptors and kernels as the board, so the same bytes.  Errors name the op and class. */
gboolean zg330_hardop_run_host (const Zg330HardopDesc *desc, const guint8 *const *inputs,
                                const guint8 *const *params, guint8 *const *outputs, GError **error);

G_END_DECLS
