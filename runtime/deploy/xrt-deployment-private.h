/* xrt-deployment-private.h — what the sweep (deploy/zg330-sweep.c) needs of a deployment
 * beyond the public API: a simulated board built from a whole profile. */
#pragma once

#include "deploy/xrt-deployment.h"
#include "devices/zg330-timing.h"

G_BEGIN_DECLS

/* Opens a new simulated board at @url ("mock://zg330") with a copy of @profile. */
gboolean xrt_deployment_open_board_with_profile (XrtDeployment *self, const Zg330Profile *profile, const char *url,
                                                 GError **error);

G_END_DECLS
