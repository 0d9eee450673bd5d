/* zg330-sim-board.c — the simulated ZG330 board in this process (mock://zg330, mock://buyi):
 * its memories, registers, status and opening.  One implementation of the board type
 * (zg330-board-private.h; the public API and the state both boards keep are the base's,
 * zg330-board.c); the launch engine is zg330-sim-launch.c. */
#include "devices/zg330-sim-private.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

static Zg330Sim *
sim_of (XrtDevice *device)
{
  return xrt_device_get_impl (device);
}

/* Clears the registers (reset level 0, power-on). */
static void
sim_clear_registers (Zg330Sim *sim)
{
  sim->layer_count = 0;
  sim->timer = 0;
  memset (sim->wtiles, 0, sizeof (guint32) * sim->base.profile->mpe_cols);
  memset (sim->rtiles, 0, sizeof (guint32) * sim->base.profile->mpe_cols);
  sim->state = 0;
  sim->run_base = 0;
  sim->run_size = 0;
}

/* ---- registers ----------------------------------------------------------------------- */

static gboolean
reg_unknown (XrtDevice *device, guint64 offset, GError **error)
{
  g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER,
               "device %s: no register at offset 0x%" G_GINT64_MODIFIER "x",
               xrt_device_get_url (device), offset);
  return FALSE;
}

static gboolean
sim_read_reg_locked (XrtDevice *device, Zg330Sim *sim, guint cid, guint64 offset,
                     guint32 *value, GError **error)
{
  switch (offset)
    {
    case ZG330_REG_STATE_CLEAR:
    case ZG330_REG_RESET:
    case ZG330_REG_RUN_START:
      *value = 0;
      return TRUE;
    case ZG330_REG_STATE:
      *value = sim->state;
      return TRUE;
    case ZG330_REG_LAYER_CNT:
      *value = sim->layer_count;
      return TRUE;
    case ZG330_REG_WTILE_CNT:
      *value = sim->wtiles[cid];
      return TRUE;
    case ZG330_REG_RTILE_CNT:
      *value = sim->rtiles[cid];
      return TRUE;
    case ZG330_REG_TIMER_CNT:
      *value = (guint32) sim->timer;
      return TRUE;
    case ZG330_REG_VERSION:
      *value = sim->base.profile->fpga_version;
      return TRUE;
    case ZG330_REG_RUN_BASE:
      *value = sim->run_base;
      return TRUE;
    case ZG330_REG_RUN_SIZE:
      *value = sim->run_size;
      return TRUE;
    default:
      return reg_unknown (device, offset, error);
    }
}

static gboolean
sim_write_reg_locked (XrtDevice *device, Zg330Sim *sim, guint cid, guint64 offset,
                      guint32 value, GError **error)
{
  switch (offset)
    {
    case ZG330_REG_STATE_CLEAR:
      sim->state = 0;
      return TRUE;
    case ZG330_REG_STATE:
    case ZG330_REG_VERSION:
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER,
                   "device %s: register 0x%" G_GINT64_MODIFIER "x is read-only",
                   xrt_device_get_url (device), offset);
      return FALSE;
    case ZG330_REG_LAYER_CNT:
      sim->layer_count = value;
      return TRUE;
    case ZG330_REG_WTILE_CNT:
      sim->wtiles[cid] = value;
      return TRUE;
    case ZG330_REG_RTILE_CNT:
      sim->rtiles[cid] = value;
      return TRUE;
    case ZG330_REG_TIMER_CNT:
      sim->timer = value;
      return TRUE;
    case ZG330_REG_RESET:
      if (value != 0)
        sim_clear_registers (sim);
      return TRUE;
    case ZG330_REG_RUN_BASE:
      sim->run_base = value;
      return TRUE;
    case ZG330_REG_RUN_SIZE:
      sim->run_size = value;
      return TRUE;
    case ZG330_REG_RUN_START:
      /* As on hardware: the start register launches what base/size describe. */
      if (value == 0)
        return TRUE;
      return zg330_board_icore_calc (device, sim->run_base, sim->run_size, error);
    default:
      return reg_unknown (device, offset, error);
    }
}

/* Reads (@write FALSE) or writes register @offset of core @cid (G_MAXUINT: the master
 * core), under the lock. */
static gboolean
sim_access_reg (XrtDevice *device, guint cid, guint64 offset, gboolean write, guint32 *value, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok;

  g_rec_mutex_lock (&sim->base.lock);
  if (cid == G_MAXUINT)
    cid = sim->base.master_cid;
  ok = write ? sim_write_reg_locked (device, sim, cid, offset, *value, error)
             : sim_read_reg_locked (device, sim, cid, offset, value, error);
  g_rec_mutex_unlock (&sim->base.lock);
  return ok;
}

static gboolean
klass_read_reg (XrtDevice *device, guint64 addr, guint32 *value, GError **error)
{
  return sim_access_reg (device, G_MAXUINT, addr, FALSE, value, error);
}

static gboolean
klass_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  return sim_access_reg (device, G_MAXUINT, addr, TRUE, &value, error);
}

static gboolean
sim_read_core_reg (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 *value, GError **error)
{
  (void) rid;
  return sim_access_reg (device, cid, offset, FALSE, value, error);
}

static gboolean
sim_write_core_reg (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 value, GError **error)
{
  (void) rid;
  return sim_access_reg (device, cid, offset, TRUE, &value, error);
}

/* ---- the board's methods ------------------------------------------------------------------ */

static guint32
sim_counter (XrtDevice *device, guint cid, guint32 offset)
{
  Zg330Sim *sim = sim_of (device);
  guint32 v = 0;

  g_rec_mutex_lock (&sim->base.lock);
  if (offset == ZG330_REG_LAYER_CNT)
    v = sim->layer_count;
  else if (cid < sim->base.profile->mpe_cols)
    v = offset == ZG330_REG_WTILE_CNT ? sim->wtiles[cid] : sim->rtiles[cid];
  g_rec_mutex_unlock (&sim->base.lock);
  return v;
}

static void
sim_set_cancellable (XrtDevice *device, GCancellable *cancellable)
{
  Zg330Sim *sim = sim_of (device);
  GCancellable *old;

  g_rec_mutex_lock (&sim->base.lock);
  old = sim->cancellable;
  sim->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  g_rec_mutex_unlock (&sim->base.lock);
  g_clear_object (&old);
}

static guint
sim_get_etm_pages (XrtDevice *device)
{
  Zg330Sim *sim = sim_of (device);
  guint n;

  g_mutex_lock (&sim->etm_store->lock);
  n = g_hash_table_size (sim->etm_store->pages);
  g_mutex_unlock (&sim->etm_store->lock);
  return n;
}

static const Zg330BoardClass sim_board_class = {
  .name = "simulator",
  .exec_refusal = NULL,
  .launch_unlocked = FALSE,
  .launch = zg330_sim_launch,
  .get_etm_pages = sim_get_etm_pages,
  .read_reg = sim_read_core_reg,
  .write_reg = sim_write_core_reg,
  .counter = sim_counter,
  .set_cancellable = sim_set_cancellable,
};

/* ---- device class ------------------------------------------------------------------------ */

static void
klass_finalize (XrtDevice *device)
{
  Zg330Sim *sim = sim_of (device);

  zg330_board_clear (&sim->base);
  g_clear_object (&sim->cancellable);
  g_free (sim->wtiles);
  g_free (sim->rtiles);
  g_free (sim);
}

static void
klass_close (XrtDevice *device)
{
  zg330_board_release (&sim_of (device)->base);
}

static gboolean
klass_reset (XrtDevice *device, int level, GError **error)
{
  Zg330Sim *sim = sim_of (device);

  (void) error;
  g_rec_mutex_lock (&sim->base.lock);
  sim_clear_registers (sim);
  if (level >= 1)
    {
      memset (sim->ocm_store->bytes, 0, sim->ocm_store->size);
      zg330_board_forget_launch (&sim->base);
    }
  g_rec_mutex_unlock (&sim->base.lock);
  return TRUE;
}

static gboolean
klass_check (XrtDevice *device, int level, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok = TRUE;
  guint32 version = 0;

  (void) level;
  g_rec_mutex_lock (&sim->base.lock);
  ok = sim_read_reg_locked (device, sim, sim->base.master_cid, ZG330_REG_VERSION, &version, error)
       && zg330_board_check_bindings (device, &sim->base, error);
  g_rec_mutex_unlock (&sim->base.lock);
  return ok;
}

static void
klass_show_status (XrtDevice *device, int level, GString *out)
{
  Zg330Sim *sim = sim_of (device);
  const Zg330Board *board = &sim->base;
  const Zg330Profile *p = board->profile;

  g_rec_mutex_lock (&sim->base.lock);
  g_string_append_printf (out, "  chip %s\n", p->chip ? p->chip : "ZG330");
  g_string_append_printf (out, "  profile %s (%s): icore %.0f MHz, DDR %.0f MHz, %.3g TOPS int8 "
                          "(%.0f MACs/cycle), ETM %.3g GB/s, OCM %" G_GUINT64_FORMAT
                          " bytes at %.3g GB/s, MPE %ux%u\n",
                          p->name, p->source, p->icore_clock_hz / 1e6, p->ddr_clock_hz / 1e6,
                          p->int8_tops, p->macs_per_cycle, p->etm_bandwidth / 1e9,
                          p->ocm_bytes, p->ocm_bandwidth / 1e9, p->mpe_rows, p->mpe_cols);
  g_string_append_printf (out, "  registers: version 0x%08x state 0x%x layer count %u timer %"
                          G_GUINT64_FORMAT " run base 0x%08x size %u master cid %u\n",
                          p->fpga_version, sim->state, sim->layer_count, sim->timer,
                          sim->run_base, sim->run_size, board->master_cid);
  g_string_append (out, "  tiles (cid: written/read):");
  for (guint c = 0; c < p->mpe_cols; c++)
    g_string_append_printf (out, " %u: %u/%u", c, sim->wtiles[c], sim->rtiles[c]);
  g_string_append_printf (out, "\n  ETM pages touched: %u of %u KiB; hardops bound: %u\n",
                          sim_get_etm_pages (device), ZG330_SIM_ETM_PAGE_BYTES / 1024,
                          board->bindings->len);
  if (level >= 1)
    {
      for (guint i = 0; i < board->bindings->len; i++)
        {
          Zg330Binding *b = board->bindings->pdata[i];
          g_string_append_printf (out, "    hardop at 0x%09" G_GINT64_MODIFIER "x %8"
                                  G_GUINT64_FORMAT " bytes%s\n", b->addr, b->bytes,
                                  b->exec.merged ? " (merged)" : "");
        }
      if (board->have_launch)
        {
          const Zg330LaunchStats *s = &board->last;
          g_string_append_printf (out, "  last launch: [0x%" G_GINT64_MODIFIER "x, +%"
                                  G_GUINT64_FORMAT ") %u hardops%s, layers %u..%u, %"
                                  G_GUINT64_FORMAT " cycles = %.6f ms + host sync %.6f ms, %"
                                  G_GUINT64_FORMAT " MACs, ETM %" G_GUINT64_FORMAT "/%"
                                  G_GUINT64_FORMAT " B, OCM %" G_GUINT64_FORMAT "/%"
                                  G_GUINT64_FORMAT " B (read/written)%s\n",
                                  s->addr, s->size, s->n_hardops, s->merged ? " merged" : "",
                                  s->first_layer, s->first_layer + s->layers, s->icore_cycles,
                                  s->icore_ms, s->host_sync_ms, s->work.macs,
                                  s->work.etm_read_bytes, s->work.etm_write_bytes,
                                  s->work.ocm_read_bytes, s->work.ocm_write_bytes,
                                  s->failed ? " FAILED" : "");
        }
    }
  g_rec_mutex_unlock (&sim->base.lock);
}

static void
klass_version (XrtDevice *device, GHashTable *out)
{
  Zg330Sim *sim = sim_of (device);

  g_rec_mutex_lock (&sim->base.lock);
  g_hash_table_insert (out, g_strdup ("device"), g_ascii_strdown (sim->base.profile->chip ? sim->base.profile->chip : "ZG330", -1));
  g_hash_table_insert (out, g_strdup ("simulator"), g_strdup ("zhuge-workbench board simulator"));
  g_hash_table_insert (out, g_strdup ("fpga_version"),
                       g_strdup_printf ("0x%08x", sim->base.profile->fpga_version));
  g_hash_table_insert (out, g_strdup ("profile"), g_strdup (sim->base.profile->source));
  g_rec_mutex_unlock (&sim->base.lock);
}

#define SIM_DEVICE_CLASS(name)                                                            \
  {                                                                                       \
    .type_name = (name), .finalize = klass_finalize, .close = klass_close,                \
    .reset = klass_reset, .check = klass_check, .show_status = klass_show_status,         \
    .version = klass_version, .read_reg = klass_read_reg, .write_reg = klass_write_reg,   \
  }

static const XrtDeviceClass zg330_sim_class = SIM_DEVICE_CLASS ("ZG330 simulated board");
/* The same engine carrying a Buyi chip (mock://buyi): only the name differs. */
static const XrtDeviceClass buyi_sim_class = SIM_DEVICE_CLASS ("Buyi simulated board");

XrtDevice *
zg330_sim_open (const Zg330Profile *profile, const char *url, GError **error)
{
  g_autoptr (Zg330Profile) loaded = NULL;
  g_autoptr (XrtMemRegion) etm = NULL;
  g_autoptr (XrtMemRegion) ocm = NULL;
  XrtDevice *device;
  Zg330Sim *sim;
  OcmStore *ocm_store;
  void *ocm_mem;
  gboolean is_buyi;

  if (profile == NULL)
    {
      if ((loaded = zg330_profile_load_default (error)) == NULL)
        return NULL;
      profile = loaded;
    }
  /* on a cache line, as the kernels' operands are (zg330-hardop-call.c's operand_alloc):
   * OCM-resident values are read and written in place */
  if (profile->ocm_bytes > G_MAXSIZE
      || posix_memalign (&ocm_mem, 64, MAX ((gsize) profile->ocm_bytes, 1)) != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NO_MEMORY,
                   "%s: field 'ocm_bytes': no host memory for an OCM of %" G_GUINT64_FORMAT
                   " bytes", profile->source, profile->ocm_bytes);
      return NULL;
    }

  sim = g_new0 (Zg330Sim, 1);
  zg330_board_init (&sim->base, &sim_board_class, zg330_profile_copy (profile));
  sim->wtiles = g_new0 (guint32, profile->mpe_cols);
  sim->rtiles = g_new0 (guint32, profile->mpe_cols);
  sim->etm_store = zg330_etm_store_new ();
  ocm_store = g_new0 (OcmStore, 1);
  ocm_store->size = profile->ocm_bytes;
  ocm_store->bytes = memset (ocm_mem, 0, MAX ((gsize) profile->ocm_bytes, 1));
  sim->ocm_store = ocm_store;

  is_buyi = profile->chip != NULL && g_ascii_strcasecmp (profile->chip, "Buyi") == 0;
  device = xrt_device_new (is_buyi ? &buyi_sim_class : &zg330_sim_class,
                           url ? url : is_buyi ? "mock://buyi" : "mock://zg330", sim);
  etm = xrt_mem_region_new_device ("ETM", profile->etm_base, profile->etm_bytes, &zg330_etm_store_ops,
                                   sim->etm_store, zg330_etm_store_free);
  ocm = xrt_mem_region_new_device ("OCM", 0, profile->ocm_bytes, &zg330_ocm_store_ops, ocm_store,
                                   zg330_ocm_store_free);
  sim->ocm = ocm;
  zg330_board_add_regions (device, etm, ocm);
  return device;
}

__attribute__ ((constructor)) static void
register_sim_boards (void)
{
  zg330_board_register_class (&zg330_sim_class);
  zg330_board_register_class (&buyi_sim_class);
}
