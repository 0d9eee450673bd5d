/* zg330-sim-store.h — the simulated board's memories, private to devices/ (the simulator,
 * zg330-sim-board.c, makes its regions of them): the ETM, sparse, and the OCM, one flat
 * buffer the host can address. */
#pragma once

#include "devices/zg330-sim.h"

G_BEGIN_DECLS

/* ETM: pages allocated on first write.  Page pointers never move once created, so only
 * the table lookup/insert needs the lock; the bytes are copied outside it. */
typedef struct {
  GMutex      lock;
  GHashTable *pages;   /* GSIZE_TO_POINTER (page index + 1) -> guint8[PAGE] */
} EtmStore;

/* OCM: one flat buffer; the host can address it, so OCM chunks are BOTH. */
typedef struct {
  guint64 size;
  guint8 *bytes;
} OcmStore;

EtmStore *zg330_etm_store_new  (void);
void      zg330_etm_store_free (gpointer store);
void      zg330_ocm_store_free (gpointer store);   /* frees its posix_memalign'd bytes */

extern const XrtMemStoreOps zg330_etm_store_ops;
extern const XrtMemStoreOps zg330_ocm_store_ops;

G_END_DECLS
