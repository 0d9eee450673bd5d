/* host-cost.h — the simulated time of host ops: a cost model of the board's host CPU and of
 * the DetPostZG IP, so a simulated run's profile never depends on the dev host's clock.
 *
 * The board's host is an ARM application processor; the device profile
 * (data/devices/zg330.json, devices/zg330-timing.h) holds its cores and clock and the
 * per-op-class coefficients, each with the reason for its value in the profile's "_doc".
 * The manuals name no host CPU, so every figure is a documented assumption (the profile's
 * "assumptions" list says so): a quad Cortex-A7 at 1 GHz, as on the vendor's Buyi board.
 *
 * The model (pure functions of the op, its operand shapes, the box counts and the profile;
 * cycles rounded up, times = cycles / clock):
 *
 *   fixed      = host_op_fixed_us at host_cpu_clock_hz                   (every host op)
 *   Input      = fixed + ceil(bytes of its outputs / host_copy_bytes_per_cycle)
 *   Output     = fixed + ceil(bytes of its inputs  / host_copy_bytes_per_cycle)
 *                (only the bytes that pass the host: a value a connection carries on the
 *                board, userConnectNetwork, zero-copy or staged, is copied by no host, so
 *                an Input or Output op of connected values costs its fixed cost alone;
 *                host_io_op_cost, which the HostBackend calls with the bytes left)
 *   Cast       = fixed + ceil((in + out bytes) / host_cast_bytes_per_cycle / host_cpu_cores)
 *   Resize     = fixed + ceil(out elements x cycles per element (nearest or bilinear)
 *                              / host_cpu_cores)
 *   DetPostZG  hard  = detpost_fixed_cycles + ceil(candidates x detpost_cycles_per_anchor
 *   DetPost             + boxes x detpost_cycles_per_box), at detpost_clock_hz (the IP)
 *              other = fixed + ceil(boxes x record bytes / host_copy_bytes_per_cycle)
 *                       (the host programs the IP and reads the boxes back)
 *   ImageMake  hard  = detpost_fixed_cycles + ceil(pixels x HOST_IMAGEMAKE_CYCLES_PER_PIXEL),
 *                       at detpost_clock_hz (the IP streams the image: the profile's
 *                       fabric clock and start-up of the board's custom IPs)
 *              other = fixed + ceil(image bytes / host_copy_bytes_per_cycle)
 *                       (the host writes the image into the IP's buffer)
 *              (pixels = H x W of the input image; one pixel per IP cycle is assumed: the
 *              IP's timing is not public)
 *
 *   HardOp     = fixed + ceil(MACs / (HOST_HARDOP_MACS_PER_CYCLE x host_cpu_cores))
 *   (host ref)        + ceil((input + output + params bytes) / host_cast_bytes_per_cycle
 *                            / host_cpu_cores);  a zero-copy one (its inputs are its output's
 *                     bytes on a board) fixed + ceil(output bytes / host_copy_bytes_per_cycle)
 *                     (the host reference run, HostBackend, runs the board's kernels on the CPU)
 *
 * CPU ops report their time as "other" (the vendor's profile puts the Input op's time
 * there); DetPostZG's, DetPost's and ImageMake's IP time is their "hard" time (as in the
 * vendor's Buyi time profile, where ImageMake and DetPost have hard_time).  Copies between host and board (the
 * "memcpy" column) are the Session's business (ETM bandwidth).  The dev host's measured
 * time of a host op is a separate figure (ZwProfileRow.host_measured_ms), never part of
 * these.
 *
 * Errors: HOST_OP_ERROR (host-ops.h), naming the op id and the field.
 */
#pragma once

#include <glib.h>

#include "backends/host/host-ops.h"
#include "devices/zg330-timing.h"
#include "devices/hardops/zg330-hardop-class.h"

G_BEGIN_DECLS

/* int8 multiply-accumulates per cycle and core of a HardOp run on the host CPU (assumed: a
 * Cortex-A7 core running the kernels' scalar loops does about one; no vendor figure). */
#define HOST_HARDOP_MACS_PER_CYCLE 1.0

/* ImageMake IP cycles per image pixel (assumed, see above). */
#define HOST_IMAGEMAKE_CYCLES_PER_PIXEL 1.0

/**
 * HostOpCost:
 * @cpu_cycles: host CPU cycles, the fixed cost included (at host_cpu_clock_hz).
 * @ip_cycles: DetPostZG IP cycles (at detpost_clock_hz); 0 for CPU ops.
 * @bytes: bytes copied (Input, Output, DetPostZG's records) or cast (in + out).
 * @elements: Resize: output elements; DetPostZG: anchor candidates compared.
 * @boxes: DetPostZG: box records written (sum over the outputs).
 * @hard_ms: @ip_cycles in ms.  @other_ms: @cpu_cycles in ms.
 */
typedef struct {
  guint64 cpu_cycles;
  guint64 ip_cycles;
  guint64 bytes;
  guint64 elements;
  guint64 boxes;
  double  hard_ms;
  double  other_ms;
} HostOpCost;

/**
 * host_op_cost:
 *
 * The simulated cost of @op (any op host_op_supported() accepts) on the board described
 * by @profile.  @n_boxes: DetPostZG's box count per output (as host_detpost_zg_run()
 * gives them), or NULL for the upper bound (every candidate passes); ignored for other
 * ops.  FALSE with HOST_OP_ERROR for an op without a model or operands it cannot read.
 */
gboolean host_op_cost (const XirOp *op, const Zg330Profile *profile, const guint *n_boxes, HostOpCost *out,
                       GError **error);

/**
 * host_io_op_cost:
 *
 * The cost of Input or Output op @op of which @host_bytes pass through the host: fixed +
 * ceil(@host_bytes / host_copy_bytes_per_cycle).  host_op_cost() gives it every byte of the
 * op's values; the HostBackend leaves out the values a connection carries on the board
 * (xrt_backend_set_connected_values).  FALSE with HOST_OP_ERROR_UNSUPPORTED for another op.
 */
gboolean host_io_op_cost (const XirOp *op, const Zg330Profile *profile, guint64 host_bytes, HostOpCost *out,
                          GError **error);

/**
 * host_op_run_costed:
 *
 * host_op_run() and then host_op_cost() with the box counts the run found (DetPostZG);
 * @cost may be NULL.
 */
gboolean host_op_run_costed (const XirOp *op, const guint8 *const *inputs, guint8 *const *outputs,
                             const Zg330Profile *profile, HostOpCost *cost, GError **error);

/**
 * host_hardop_cost:
 *
 * The simulated cost of the described HardOp run on the board's host CPU (the host
 * reference run, see above): CPU cycles, bytes (inputs + outputs + params, or the output of
 * a zero-copy op) and other_ms.
 */
void host_hardop_cost (const Zg330HardopDesc *desc, const Zg330Profile *profile, HostOpCost *out);

G_END_DECLS
