/* buyi-backend.h — the BuyiBackend: deploys the HardOps of a network compiled for the Buyi
 * chip (@buyit) on a Buyi board (mock://buyi), as the vendor's BuyiBackend does.
 *
 * Buyi's compiler placed every value itself: each value's "@etm(addr)" / "@ocm(addr)" and
 * the segments in the network's tags (params/instr/ftmp/input/output_segment_addr and
 * _bytesize) are the deployment; the backend plans nothing. Its rules, from the
 * ZG330Backend manual §1.1-1.6 and the BuyiBackend parts of the XRT manual:
 *   - merge hardops and ETM optimize are off (one launch per hardop; the compiler's reuse
 *     of ETM is the plan); disableMergeHardOp / disableEtmOptimize are accepted (they
 *     change nothing); asking for merging or an ocmOptimize option other than NONE is an
 *     error (XRT_BACKEND_ERROR_UNSUPPORTED through ZG330_BACKEND_ERROR_UNSUPPORTED);
 *   - outputs at user addresses (forward(inputs, outputs) with device tensors) are refused;
 *   - OCM cannot be read back by the host: dumps list OCM-resident values as not dumped
 *     (the manifest says which and why), stepTo of an op whose output lives in OCM fails
 *     naming the value;
 *   - a second deployment of the same network on the board (fork) is refused: the
 *     compiler's addresses are physical.
 * Its hardops run on the same behavioural kernels as the ZG330's (zg330-hardop.h); its
 * board is the same simulator with the Buyi profile (data/devices/buyi.json).
 *
 * A BuyiBackend is a Zg330Backend (the zg330_backend_* calls apply) with these rules in its
 * class; it registers itself as "BuyiBackend" (short name "Buyi").
 */
#pragma once

#include "backends/zg330/zg330-backend.h"

G_BEGIN_DECLS

#define BUYI_TYPE_BACKEND (buyi_backend_get_type ())
GType buyi_backend_get_type (void);
#define BUYI_IS_BACKEND(o) (G_TYPE_CHECK_INSTANCE_TYPE ((o), BUYI_TYPE_BACKEND))

/**
 * buyi_backend_supports_op: (skip)
 * @op: an op of a network
 *
 * Does the BuyiBackend take @op? (HardOps compiled for @buyit.)
 *
 * Returns: %TRUE for a HardOp of the Buyi
 */
gboolean buyi_backend_supports_op (const XirOp *op);

/**
 * buyi_backend_new:
 * @view: the network view whose Buyi HardOps the backend takes
 * @device: a Buyi board (mock://buyi)
 * @error: return location for a #GError
 *
 * Backend.init on @view and @device: a BuyiBackend, which deploys the compiler's own
 * placement (every value at its @etm/@ocm address, the segments where the network's tags
 * put them) at apply. It is a Zg330Backend: the zg330_backend_* calls apply, with the
 * Buyi's rules (no merging, no ETM optimize, no OCM options, no outputs at user
 * addresses, no OCM read-back, no fork).
 *
 * Returns: (transfer full): the backend, or %NULL with @error set
 */
Zg330Backend *buyi_backend_new (XirNetworkView *view, XrtDevice *device, GError **error);

G_END_DECLS
