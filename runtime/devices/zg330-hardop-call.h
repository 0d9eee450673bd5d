/* zg330-hardop-call.h — one placed hardop as plain data: what the board runs.
 *
 * The vendor's instruction words are opaque, so the simulated board runs each hardop by the
 * behavioural model of its class.  A backend describes a placed hardop as a Zg330HardopCall:
 * the class, the geometry it inferred at init, each operand's kernel descriptor (dims,
 * channel block, element type, the float scales the kernel reads) and where it lives (ETM or
 * OCM and the device address), and the work the timing model charges.  The board executes a
 * call with zg330_hardop_call_run(): it reads the operands from its regions, runs the kind's
 * kernel (devices/hardops/: zg330_hardop_call_compute, the same function the host reference
 * run uses) and writes the output.
 *
 * The call is the one form in which a hardop reaches a board: the in-process simulator
 * (mock://) runs it directly, a board in another process (socket://, devices/zg330-wire.h)
 * receives it encoded and runs the same function on the same bytes — so outputs are
 * bit-identical and the simulated times identical, whichever side of the wire runs it.
 *
 * Ownership: a call owns its scale arrays; zg330_hardop_call_clear() frees them.
 */
#pragma once

#include <glib.h>

#include "xrt/xrt-device.h"
#include "kernels/zg330-kernels.h"
#include "devices/zg330-timing.h"
#include "devices/hardops/zg330-hardop-kinds.h"   /* Zg330HardopKind: the table of kinds */

G_BEGIN_DECLS

/* "Conv2d", "Add" … (the HardOp's short class, from the table of kinds). */
const char *zg330_hardop_kind_to_string (Zg330HardopKind kind);

/* Bounds a board enforces on a call (and the wire decoder on both sides). */
#define ZG330_CALL_MAX_INPUTS       8
#define ZG330_CALL_MAX_SCALES       65536                          /* channels of one operand */
#define ZG330_CALL_MAX_TENSOR_BYTES (G_GUINT64_CONSTANT (1) << 30) /* one operand: 1 GiB */

/* Where an operand lives: the board's ETM or OCM region. */
typedef enum {
  ZG330_CALL_ETM,
  ZG330_CALL_OCM,
} Zg330CallRegion;

/* One feature-map operand. @n_scales is 0 (no scales: scale 1 for every channel, an
 * unquantised image) or @c; @size is the value's storage bytes. */
typedef struct {
  gint64            v_id;
  Zg330KernelLayout layout;
  Zg330KernelDType  dtype;
  guint32           n, c, h, w, k;
  guint64           size;
  guint32           n_scales;
  float            *scales;
  Zg330CallRegion   region;
  guint64           addr;
} Zg330CallTensor;

/* Conv2d's weights [OB, IB, KH, KW, Ko, Ki] (int8, OB*Ko scales) and optional fp16 bias. */
typedef struct {
  gint64          v_id;
  guint32         dims[6];
  guint64         size;
  guint32         n_scales;
  float          *scales;
  Zg330CallRegion region;
  guint64         addr;
  gboolean        has_bias;
  gint64          bias_v_id;
  guint64         bias_size;
  Zg330CallRegion bias_region;
  guint64         bias_addr;
} Zg330CallWeights;

/* One placed hardop.  A zero-copy op (its inputs already live in its output's bytes) has no
 * operands (n_inputs 0) and only charges @work. */
typedef struct {
  gint64           op_id;
  Zg330HardopKind  kind;
  gboolean         zero_copy;
  Zg330OpWork      work;
  guint32          kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left;
  guint32          n_inputs;
  Zg330CallTensor  inputs[ZG330_CALL_MAX_INPUTS];
  Zg330CallTensor  output;
  Zg330CallWeights weights;     /* kinds with weights only (Zg330HardopClass.has_weights) */
} Zg330HardopCall;

/* Frees the scale arrays and zeroes @call (a zeroed call is cleared already). */
void     zg330_hardop_call_clear (Zg330HardopCall *call);

/* A deep copy into @dest (which is overwritten, not cleared). */
void     zg330_hardop_call_copy  (const Zg330HardopCall *src,
                                  Zg330HardopCall       *dest);

/* zg330_hardop_call_run:
 * Runs @call on @device's ETM and OCM regions: reads the inputs (and weights), runs the
 * class's kernel, writes the output, and sets @work to the call's work.  Errors name the op
 * id, the class and the operand ("op 12 (Conv2d): reading input v_id 5: …"). */
gboolean zg330_hardop_call_run   (XrtDevice             *device,
                                  const Zg330HardopCall *call,
                                  Zg330OpWork           *work,
                                  GError               **error);

G_END_DECLS
