/* zg330-sim-store.c — the simulated board's memories: a sparse ETM and a flat OCM
 * (zg330-sim-store.h). */
#include "devices/zg330-sim-store.h"

#include <stdlib.h>
#include <string.h>

#define ETM_PAGE_SHIFT 16
G_STATIC_ASSERT ((1u << ETM_PAGE_SHIFT) == ZG330_SIM_ETM_PAGE_BYTES);

/* ---- stores ------------------------------------------------------------------ */


EtmStore *
zg330_etm_store_new (void)
{
  EtmStore *store = g_new0 (EtmStore, 1);

  g_mutex_init (&store->lock);
  store->pages = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  return store;
}

void
zg330_etm_store_free (gpointer data)
{
  EtmStore *store = data;

  g_hash_table_unref (store->pages);
  g_mutex_clear (&store->lock);
  g_free (store);
}

static guint8 *
etm_page (EtmStore *store, guint64 index, gboolean create)
{
  gpointer key = GSIZE_TO_POINTER ((gsize) index + 1);
  guint8 *page;

  g_mutex_lock (&store->lock);
  page = g_hash_table_lookup (store->pages, key);
  if (page == NULL && create)
    {
      page = g_malloc0 (ZG330_SIM_ETM_PAGE_BYTES);
      g_hash_table_insert (store->pages, key, page);
    }
  g_mutex_unlock (&store->lock);
  return page;
}

static gboolean
etm_read (gpointer data, guint64 offset, gpointer dest, gsize bytes, GError **error)
{
  EtmStore *store = data;
  guint8 *out = dest;

  (void) error;
  while (bytes > 0)
    {
      guint64 in_page = offset & (ZG330_SIM_ETM_PAGE_BYTES - 1);
      gsize n = MIN (bytes, (gsize) (ZG330_SIM_ETM_PAGE_BYTES - in_page));
      guint8 *page = etm_page (store, offset >> ETM_PAGE_SHIFT, FALSE);

      if (page)
        memcpy (out, page + in_page, n);
      else
        memset (out, 0, n);
      out += n;
      offset += n;
      bytes -= n;
    }
  return TRUE;
}

static gboolean
etm_write (gpointer data, guint64 offset, gconstpointer src, gsize bytes, GError **error)
{
  EtmStore *store = data;
  const guint8 *in = src;

  (void) error;
  while (bytes > 0)
    {
      guint64 in_page = offset & (ZG330_SIM_ETM_PAGE_BYTES - 1);
      gsize n = MIN (bytes, (gsize) (ZG330_SIM_ETM_PAGE_BYTES - in_page));
      guint8 *page = etm_page (store, offset >> ETM_PAGE_SHIFT, TRUE);

      memcpy (page + in_page, in, n);
      in += n;
      offset += n;
      bytes -= n;
    }
  return TRUE;
}

const XrtMemStoreOps zg330_etm_store_ops = { etm_read, etm_write, NULL };


void
zg330_ocm_store_free (gpointer data)
{
  OcmStore *store = data;

  free (store->bytes);   /* posix_memalign's */
  g_free (store);
}

static gboolean
ocm_read (gpointer data, guint64 offset, gpointer dest, gsize bytes, GError **error)
{
  OcmStore *store = data;

  (void) error;
  g_assert (offset <= store->size && bytes <= store->size - offset);
  memcpy (dest, store->bytes + offset, bytes);
  return TRUE;
}

static gboolean
ocm_write (gpointer data, guint64 offset, gconstpointer src, gsize bytes, GError **error)
{
  OcmStore *store = data;

  (void) error;
  g_assert (offset <= store->size && bytes <= store->size - offset);
  memcpy (store->bytes + offset, src, bytes);
  return TRUE;
}

static guint8 *
ocm_host_pointer (gpointer data, guint64 offset, gsize bytes)
{
  OcmStore *store = data;

  if (offset > store->size || bytes > store->size - offset)
    return NULL;
  return store->bytes + offset;
}

const XrtMemStoreOps zg330_ocm_store_ops = { ocm_read, ocm_write, ocm_host_pointer };

