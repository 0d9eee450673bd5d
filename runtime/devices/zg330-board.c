/* zg330-board.c — the board type's base (zg330-board-private.h): the ZG330Device API of
 * devices/zg330-sim.h, what both boards check alike, and the dispatch to the simulator
 * (zg330-sim-board.c) or the socket client (zg330-socket-board.c). */
#include "devices/zg330-board-private.h"

#include <string.h>

/* ---- which devices are boards ---------------------------------------------------------- */

#define MAX_BOARD_CLASSES 8

static const XrtDeviceClass *board_classes[MAX_BOARD_CLASSES];
static gint n_board_classes;

void
zg330_board_register_class (const XrtDeviceClass *device_class)
{
  gint n = g_atomic_int_get (&n_board_classes);

  g_return_if_fail (n < MAX_BOARD_CLASSES);
  board_classes[n] = device_class;
  g_atomic_int_set (&n_board_classes, n + 1);
}

const Zg330BoardClass *
zg330_board_get_class (XrtDevice *device)
{
  const XrtDeviceClass *klass;
  gint n = g_atomic_int_get (&n_board_classes);

  if (device == NULL)
    return NULL;
  klass = xrt_device_get_class (device);
  for (gint i = 0; i < n; i++)
    if (board_classes[i] == klass)
      return ((const Zg330Board *) xrt_device_get_impl (device))->klass;
  return NULL;
}

gboolean
zg330_board_check_open (XrtDevice *device, GError **error)
{
  if (xrt_device_is_closed (device))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CLOSED, "device %s was closed",
                   xrt_device_get_url (device));
      return FALSE;
    }
  return TRUE;
}

#define BOARD_OR(device, val)                                   \
  const Zg330BoardClass *k = zg330_board_get_class (device);    \
  g_return_val_if_fail (k != NULL, val)

gboolean
zg330_sim_is_sim (XrtDevice *device)
{
  return zg330_board_get_class (device) != NULL;
}

/* What else lives in a board's PL DDR before a network deploys: the board's firmware and
 * the driver's command rings at the bottom, then the camera's frame buffers (sizes assumed,
 * as a Linux board with the NPU driver and a camera pipeline has). So a segment's physical
 * address is where the board's allocator put it, not its logical offset. The socket board's
 * runtime side (zg330-remote.c) reserves the same, so both allocate the same addresses. */
static const struct {
  guint64 offset, bytes;
} board_reserved[] = {
  { 0, 64 * 1024 * 1024 },                  /* firmware, NPU driver rings */
  { 64 * 1024 * 1024, 12 * 1024 * 1024 },   /* camera frame buffers */
};

guint64
zg330_sim_reserve_board_memory (XrtMemRegion *etm, const Zg330Profile *profile)
{
  guint64 reserved = 0;

  g_return_val_if_fail (etm != NULL && profile != NULL, 0);
  /* Buyi: the compiler placed every value at absolute ETM addresses, the whole ETM is the
   * network's; a what-if ETM too small to hold the board's own buffers has none */
  if (profile->chip != NULL && g_ascii_strcasecmp (profile->chip, "Buyi") == 0)
    return 0;
  if (profile->etm_bytes < 1024 * 1024 * 1024)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (board_reserved); i++)
    {
      /* not auto-freed: they stay the board's until the device closes */
      XrtMemChunk *chunk = xrt_mem_region_malloc_at (etm, profile->etm_base + board_reserved[i].offset,
                                                     board_reserved[i].bytes, FALSE, NULL);
      if (chunk != NULL)
        {
          reserved += board_reserved[i].bytes;
          xrt_mem_chunk_unref (chunk);
        }
    }
  return reserved;
}

/* ---- the simulator's API ------------------------------------------------------------------ */

const Zg330Profile *
zg330_sim_get_profile (XrtDevice *device)
{
  BOARD_OR (device, NULL);
  return k->get_profile (device);
}

Zg330Profile *
zg330_sim_dup_profile (XrtDevice *device)
{
  BOARD_OR (device, NULL);
  return k->dup_profile (device);
}

static const char *const structural_fields[] = {
  "etm_base", "etm_bytes", "ocm_bytes", "mpe_rows", "mpe_cols", "fpga_version",
};

gboolean
zg330_sim_set_timing_field (XrtDevice *device, const char *field, double value,
                            GError **error)
{
  BOARD_OR (device, FALSE);
  g_return_val_if_fail (field != NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (structural_fields); i++)
    if (strcmp (field, structural_fields[i]) == 0)
      {
        g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                     "device %s: field '%s' shapes the board and cannot change while it is "
                     "open; open mock://zg330?profile=PATH with another profile",
                     xrt_device_get_url (device), field);
        return FALSE;
      }
  return k->set_timing_field (device, field, value, error);
}

gboolean
zg330_sim_bind_hardop (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, const Zg330HardopExec *exec,
                       gpointer user_data, GDestroyNotify destroy, GError **error)
{
  BOARD_OR (device, FALSE);
  return k->bind_exec (device, instr_addr, instr_bytes, exec, user_data, destroy, error);
}

gboolean
zg330_sim_bind_hardop_call (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, gboolean merged,
                            Zg330HardopPrepareFunc prepare, gpointer user_data, GDestroyNotify destroy,
                            GError **error)
{
  g_return_val_if_fail (prepare != NULL, FALSE);
  BOARD_OR (device, FALSE);
  return k->bind_call (device, instr_addr, instr_bytes, merged, prepare, user_data, destroy, error);
}

guint
zg330_sim_unbind_range (XrtDevice *device, guint64 addr, guint64 size)
{
  BOARD_OR (device, 0);
  return k->unbind_range (device, addr, size);
}

guint
zg330_sim_get_n_bindings (XrtDevice *device)
{
  BOARD_OR (device, 0);
  return k->get_n_bindings (device);
}

gboolean
zg330_sim_get_last_launch (XrtDevice *device, Zg330LaunchStats *stats)
{
  BOARD_OR (device, FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);
  return k->get_last_launch (device, stats);
}

guint
zg330_sim_get_etm_pages (XrtDevice *device)
{
  BOARD_OR (device, 0);
  return k->get_etm_pages (device);
}

void
zg330_sim_set_cancellable (XrtDevice *device, GCancellable *cancellable)
{
  const Zg330BoardClass *k = zg330_board_get_class (device);

  g_return_if_fail (k != NULL && k->set_cancellable != NULL);
  k->set_cancellable (device, cancellable);
}

/* ---- ZG330Device API --------------------------------------------------------------------- */

void
zg330_device_get_rows_cols (XrtDevice *device, guint *rows, guint *cols)
{
  const Zg330BoardClass *k = zg330_board_get_class (device);
  const Zg330Profile *p;

  g_return_if_fail (k != NULL);
  p = k->get_profile (device);
  if (rows)
    *rows = p->mpe_rows;
  if (cols)
    *cols = p->mpe_cols;
}

/* The device is open, (cid, rid) in the MPE grid and @offset aligned. */
static gboolean
check_core (XrtDevice *device, const Zg330BoardClass *k, guint cid, guint rid, guint32 offset, GError **error)
{
  const Zg330Profile *p = k->get_profile (device);

  if (!zg330_board_check_open (device, error))
    return FALSE;
  if (cid >= p->mpe_cols || rid >= p->mpe_rows)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: core (cid %u, rid %u) is outside the %ux%u MPE grid",
                   xrt_device_get_url (device), cid, rid, p->mpe_rows, p->mpe_cols);
      return FALSE;
    }
  if (offset % 4 != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: register offset 0x%x is not 4-byte aligned",
                   xrt_device_get_url (device), offset);
      return FALSE;
    }
  return TRUE;
}

gboolean
zg330_device_read_reg (XrtDevice *device, guint cid, guint rid, guint32 offset,
                       guint32 *value, GError **error)
{
  BOARD_OR (device, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  return check_core (device, k, cid, rid, offset, error) && k->read_reg (device, cid, rid, offset, value, error);
}

gboolean
zg330_device_write_reg (XrtDevice *device, guint cid, guint rid, guint32 offset,
                        guint32 value, GError **error)
{
  BOARD_OR (device, FALSE);
  return check_core (device, k, cid, rid, offset, error) && k->write_reg (device, cid, rid, offset, value, error);
}

gboolean
zg330_device_icore_calc (XrtDevice *device, guint64 addr, guint64 size, GError **error)
{
  BOARD_OR (device, FALSE);
  return k->icore_calc (device, addr, size, error);
}

guint32
zg330_device_layer_count (XrtDevice *device)
{
  BOARD_OR (device, 0);
  return k->counter (device, G_MAXUINT, ZG330_REG_LAYER_CNT);
}

guint32
zg330_device_w_tile_count (XrtDevice *device, guint cid)
{
  BOARD_OR (device, 0);
  return cid < k->get_profile (device)->mpe_cols ? k->counter (device, cid, ZG330_REG_WTILE_CNT) : 0;
}

guint32
zg330_device_r_tile_count (XrtDevice *device, guint cid)
{
  BOARD_OR (device, 0);
  return cid < k->get_profile (device)->mpe_cols ? k->counter (device, cid, ZG330_REG_RTILE_CNT) : 0;
}

double
zg330_device_calc_time (XrtDevice *device)
{
  Zg330LaunchStats st;

  BOARD_OR (device, 0.0);
  return k->get_last_launch (device, &st) ? st.icore_ms : 0.0;
}

gboolean
zg330_device_config_timer (XrtDevice *device, XrtMemChunk *chunk, GError **error)
{
  BOARD_OR (device, FALSE);
  return k->config_chunk (device, FALSE, chunk, error);
}

gboolean
zg330_device_config_profiler (XrtDevice *device, XrtMemChunk *chunk, GError **error)
{
  BOARD_OR (device, FALSE);
  return k->config_chunk (device, TRUE, chunk, error);
}

gboolean
zg330_device_set_master_cid (XrtDevice *device, guint master_cid, GError **error)
{
  BOARD_OR (device, FALSE);
  return k->set_master_cid (device, master_cid, error);
}

guint
zg330_device_get_master_cid (XrtDevice *device)
{
  BOARD_OR (device, 0);
  return k->get_master_cid (device);
}

gboolean
zg330_device_set_icore_clk_freq (XrtDevice *device, guint64 freq_hz, GError **error)
{
  return zg330_sim_set_timing_field (device, "icore_clock_hz", (double) freq_hz, error);
}

gboolean
zg330_device_set_ddr_clk_freq (XrtDevice *device, guint64 freq_hz, GError **error)
{
  return zg330_sim_set_timing_field (device, "ddr_clock_hz", (double) freq_hz, error);
}

/* ---- layer times, read back from the timer chunk ------------------------------------------ */

static guint64
get_le64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

/* Reads @count timer records from @from of @chunk (NULL: no timer).  NULL + error when
 * impossible. */
static guint8 *
read_timer_records (XrtDevice *device, XrtMemChunk *chunk, guint from, guint count, GError **error)
{
  guint8 *buf;
  guint64 offset = (guint64) from * ZG330_TIMER_RECORD_BYTES;
  gsize bytes = (gsize) count * ZG330_TIMER_RECORD_BYTES;
  GError *local = NULL;

  if (chunk == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: no timer chunk: call configTimer before reading layer times",
                   xrt_device_get_url (device));
      return NULL;
    }
  buf = g_malloc (MAX (bytes, 1));
  if (!xrt_mem_chunk_read (chunk, offset, buf, bytes, &local))
    {
      g_propagate_prefixed_error (error, local, "device %s: layers [%u, %u) of the timer: ",
                                  xrt_device_get_url (device), from, from + count);
      g_free (buf);
      return NULL;
    }
  return buf;
}

/* The timer records [from, from + count) and the profile that turns them into ms (a copy). */
static guint8 *
timer_records (XrtDevice *device, const Zg330BoardClass *k, guint from, guint count, Zg330Profile **profile,
               GError **error)
{
  g_autoptr (XrtMemChunk) chunk = k->dup_timer_chunk (device);
  guint8 *buf = read_timer_records (device, chunk, from, count, error);

  if (buf != NULL)
    *profile = k->dup_profile (device);
  return buf;
}

GArray *
zg330_device_get_layer_time (XrtDevice *device, guint n_layers, GError **error)
{
  g_autoptr (Zg330Profile) profile = NULL;
  g_autofree guint8 *buf = NULL;
  GArray *times;

  BOARD_OR (device, NULL);
  buf = timer_records (device, k, 0, n_layers, &profile, error);
  if (buf == NULL)
    return NULL;
  times = g_array_sized_new (FALSE, FALSE, sizeof (double), n_layers);
  for (guint i = 0; i < n_layers; i++)
    {
      const guint8 *rec = buf + (gsize) i * ZG330_TIMER_RECORD_BYTES;
      guint64 start = get_le64 (rec), end = get_le64 (rec + 8);
      double ms = zg330_timing_cycles_to_ms (profile, end >= start ? end - start : 0);
      g_array_append_val (times, ms);
    }
  return times;
}

gboolean
zg330_device_show_layer_time (XrtDevice *device, guint from_idx, guint count, GString *out,
                              GError **error)
{
  g_autoptr (Zg330Profile) profile = NULL;
  g_autofree guint8 *buf = NULL;

  BOARD_OR (device, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  buf = timer_records (device, k, from_idx, count, &profile, error);
  if (buf == NULL)
    return FALSE;
  for (guint i = 0; i < count; i++)
    {
      const guint8 *rec = buf + (gsize) i * ZG330_TIMER_RECORD_BYTES;
      guint64 start = get_le64 (rec), end = get_le64 (rec + 8);
      guint64 cycles = end >= start ? end - start : 0;
      g_string_append_printf (out, "layer %5u: start %12" G_GUINT64_FORMAT " end %12"
                              G_GUINT64_FORMAT " cycles %10" G_GUINT64_FORMAT " %10.6f ms\n",
                              from_idx + i, start, end, cycles,
                              zg330_timing_cycles_to_ms (profile, cycles));
    }
  return TRUE;
}
