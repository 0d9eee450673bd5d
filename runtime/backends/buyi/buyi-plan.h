/* buyi-plan.h — the placement a Buyi compile states, as a deploy report.
 *
 * The vendor's Buyi compiler (not the runtime) places everything: every feature value
 * carries @etm(addr) or @ocm(addr), weights and instructions @etm(addr), and the network's
 * tags give the segments (params_segment_addr/_bytesize -> WEIGHT, instr_ -> INSTR,
 * input_ -> INPUT, output_ -> OUTPUT, ftmp_ -> FTMP).  buyi_plan_from_network() states
 * that placement in the deploy report model (report/zw-deploy-report.h) so that every view
 * and the independent checker (report/zw-deploy-check.h) read a Buyi network as they read
 * a ZG330Backend's plan.  Nothing is planned or moved:
 *
 *  - segments: logic = phy = the tags' address and size;
 *  - values: every feature value an op of the view reads or writes, at its file address
 *    (logic = phy); ETM values belong to the INPUT, OUTPUT or FTMP segment whose range
 *    holds them, OCM values to FTMP with is_ocm; @hostm values (the image before
 *    ImageMake, DetPost's host outputs) are not on the board and are not listed;
 *  - chunks: the compiler has no chunks, so each value with an address of its own is one
 *    (ids 0, 1, … in order of first appearance); the inputs of a zero-copy concat (every
 *    input at the output's address plus the bytes before it, zg330-hardop.h) are fake
 *    values inside their output's chunk (fake_from, real_to, chunk_offset), which is how
 *    the report says "these share bytes by design";
 *  - hardops: weights and instructions at their @etm addresses (the first params / instr
 *    value's address, the bytes of all), est_ms from the timing model of the Buyi profile
 *    (zg330_profile_load_named ("buyi")) with the values where the compiler put them;
 *  - launches: merge off, one launch per hardop, in execution order;
 *  - options: merge off, ETM optimize off, OCM option NONE (the compiler decided), ETM
 *    method "compiler".
 *
 * Errors (XRT_ERROR_INVALID_ARGUMENT, XRT_ERROR_OUT_OF_RANGE, XRT_ERROR_PROFILE or the
 * hardop model's XRT_ERROR_EXEC): messages start with the network's file and name the op
 * id or v_id and the field, e.g. "net.json: op 454: inputs: v_id 879: mtype @hostm: a
 * value a hardop reads needs an @etm or @ocm address", or "net.json: tags: field
 * 'ftmp_segment_addr': missing".
 */
#pragma once

#include <glib.h>

#include "xir/xir-network.h"
#include "report/zw-deploy-report.h"

G_BEGIN_DECLS

/* buyi_plan_from_network:
 * The deploy report of @view's ops (a view of a Buyi compile: @buyit hardops, values at
 * compiler-given addresses) as described above.  New report, or NULL with an error. */
ZwDeployReport *buyi_plan_from_network (XirNetworkView *view,
                                        GError        **error);

G_END_DECLS
