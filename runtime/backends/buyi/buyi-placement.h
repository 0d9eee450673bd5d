/* buyi-placement.h — the Buyi's placement rules (buyi-placement.c): the compiler placed
 * every value, and these hooks give the ZG330 engine that placement in place of its
 * planners. Private to the BuyiBackend. */
#pragma once

#include "backends/zg330/zg330-backend-private.h"

G_BEGIN_DECLS

/* The hooks the BuyiBackend's class sets (Zg330BackendClass.placement). */
extern const Zg330Placement buyi_placement;

G_END_DECLS
