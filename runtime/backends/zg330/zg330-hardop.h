/* zg330-hardop.h — how a ZG330 HardOp executes on the simulated board, and what it costs.
 *
 * The vendor's instruction words are opaque, so each HardOp runs by the behavioural model of
 * its fused class (the op's "name"), one row of the table of kinds in devices/hardops/
 * (zg330-hardop-kinds.h; one file per kind says what it infers).  Today's kinds and the
 * geometry that the JSON does not carry, inferred from the shapes:
 *   Conv2d    kernel from the weight shape [OB, IB, KH, KW, Ko, Ki]; groups = C_in / (IB*Ki);
 *             stride and padding from the input/output sizes (PyTorch convention);
 *   MaxPool2d same size: 5x5 stride 1 pad 2 (YOLOv5 SPPF); halved: 3x3 stride 2 pad 1
 *             (ResNet stem); other ratios r: r x r stride r;
 *   Upsample  nearest, factor = out / in;
 *   Concat / Reshape with inputs in the output's bytes (same chunk): nothing to do (the
 *             compiler made them zero-copy; they carry no instructions).  A Buyi compile
 *             says the same with addresses: every input at @etm/@ocm(output address +
 *             the bytes of the inputs before it), filling the output exactly.
 * Buyi hardops (compile target @buyit) run on the same models:
 *   values    icraft::xir::NormalizedQuantizedType: the value is q x normratio[c] x s[c]
 *             (s = the exponent scale m x 2^-e, 1/0/1 on every feature of the real
 *             yolov5s); the kernels get normratio x s, formed in double and rounded once
 *             to float, so requantisation is that of the ZG330 kernels (zg330-kernels.h)
 *             with those scales;
 *   weights   QuantizedType, exponent scales on axis 4 (o), layout OIHWo32i32 (OIHWo32i4
 *             for the 4-channel image): the same [OB, IB, KH, KW, Ko, Ki] order;
 *   params    the weights only.  The real Buyi compile has no bias params (60 convs, one
 *             params value each, packed back to back in the params segment): a bias, if
 *             any, is inside the opaque instructions, so the model adds none.  A second
 *             params value is read as a ZG330-style fp16 bias [OB, Ko].
 * A conv whose input channels carry different scales (on Buyi, a concat of values with
 * their own norm ratios) first brings them to the largest, channel by channel, with
 * round-half-even (the int32 accumulator needs one input scale; how the Buyi board does it
 * is not public, so this is the model's stated assumption).
 * The same description gives the op's work (MACs, ETM and OCM bytes), which the timing model
 * turns into cycles — for the simulator and for the OCM planner's estimator alike.
 */
#pragma once

#include "xir/xir-network.h"
#include "xrt/xrt-mem.h"
#include "devices/zg330-timing.h"
#include "devices/zg330-hardop-call.h"   /* Zg330HardopKind, Zg330HardopCall: what the board runs */
#include "devices/hardops/zg330-hardop-class.h"  /* Zg330HardopDesc and the table of kinds */

G_BEGIN_DECLS

/* zg330_hardop_class_describe() (the table's): describes @op; fails with an error naming the op id and the field when the class is
 * unknown or the shapes do not fit the class (e.g. a conv whose output size no stride fits). */
gboolean zg330_hardop_describe (const XirOp *op, Zg330HardopDesc *desc, GError **error);

/* Work of the op when each input/output lives in OCM (TRUE) or ETM (FALSE).
 * NULL arrays mean "all in ETM". */
void zg330_hardop_work (const Zg330HardopDesc *desc, const gboolean *input_in_ocm,
                        const gboolean *output_in_ocm, Zg330OpWork *work);

/* Where a tensor lives on the board. */
typedef struct {
  XrtMemRegion *region;      /* ETM or OCM region of the device (borrowed) */
  guint64 addr;
} Zg330Place;

/* Everything the behavioural model needs to run one placed HardOp. */
typedef struct {
  Zg330HardopDesc desc;
  Zg330Place *inputs;        /* op->inputs->len entries */
  Zg330Place *outputs;       /* op->outputs->len entries */
  Zg330Place *params;        /* op->params->len entries (weights, bias) in ETM */
} Zg330HardopBinding;

/* The placed op as the board runs it (devices/zg330-hardop-call.h): kernel descriptors, the
 * scales the kernels read, each operand's region and address, and the work.  Fails with an
 * error naming the op and the value when an operand is not a feature map the board runs.
 * Clear @call with zg330_hardop_call_clear(). */
gboolean zg330_hardop_prepare (const Zg330HardopBinding *binding, Zg330HardopCall *call, GError **error);

/* Runs the op on the device of its places: zg330_hardop_prepare() then
 * zg330_hardop_call_run().  Reads its inputs and params, computes, writes its outputs, and
 * fills @work. Errors name the op id and the address. */
gboolean zg330_hardop_run (const Zg330HardopBinding *binding, Zg330OpWork *work, GError **error);

void zg330_hardop_binding_free (Zg330HardopBinding *binding);

G_END_DECLS
