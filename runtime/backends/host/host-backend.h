/* host-backend.h — the HostBackend: the ops that run on the board's host CPU (Input, Output,
 * Cast, Resize) and the custom ops of the board's IP (customop::DetPostZG, …), computed by
 * their models in host-ops.h and timed by the cost model in host-cost.h, from the board's
 * profile: the device given to init (the session's board) or, without one, the built-in
 * ZG330 profile. Registered as "HostBackend".
 *
 * It also takes every HardOp whose class the table of kinds has (devices/hardops/): the host
 * reference run.  A session of the HostBackend alone (Session.Create([HostBackend], view,
 * [HostDevice.Default()])) runs any ZG330 or Buyi network without a board, each HardOp by the
 * board's own behavioural kernels over host buffers (zg330_hardop_run_host), so its outputs
 * are the board's bytes; with a board backend first in the list the board takes them.
 * xrt_session_compare_with_host() runs a session and its host reference and compares.
 *
 * Input and Output ops only cost: the session moves their bytes. A value a connection
 * carries on the board (a pipeline's userConnectNetwork: the session tells the backend which,
 * xrt_backend_set_connected_values) is copied by no host, so it adds nothing to its op's
 * cost beyond the fixed dispatch (host_io_op_cost with the bytes that do pass the host). */
#pragma once

#include "xrt/xrt-backend.h"

G_BEGIN_DECLS

#define HOST_TYPE_BACKEND (host_backend_get_type ())
G_DECLARE_FINAL_TYPE (HostBackend, host_backend, HOST, BACKEND, XrtBackend)

G_END_DECLS
