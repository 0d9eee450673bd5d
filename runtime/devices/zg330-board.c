/* zg330-board.c — the board type's base (zg330-board-private.h): the ZG330Device API of
 * devices/zg330-sim.h, the state both boards keep alike (profile, timer and profiler chunks,
 * master core, last launch; the bindings and launches in zg330-board-bindings.c), what both
 * check alike, and the dispatch to the simulator (zg330-sim-board.c) or the socket client
 * (zg330-socket-board.c). */
#include "devices/zg330-board-private.h"

#include <string.h>

/* The host region has no real bound; this is what its info reports as size. */
#define HOST_CAPACITY (G_GUINT64_CONSTANT (1) << 40)

#define DEFAULT_MASTER_CID 1

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

/* ---- the state both boards keep --------------------------------------------------------- */

void
zg330_board_init (Zg330Board *board, const Zg330BoardClass *klass, Zg330Profile *profile)
{
  board->klass = klass;
  g_rec_mutex_init (&board->lock);
  board->profile = profile;
  board->bindings = g_ptr_array_new_with_free_func (zg330_binding_unref);
  board->master_cid = DEFAULT_MASTER_CID < profile->mpe_cols ? DEFAULT_MASTER_CID : 0;
}

void
zg330_board_add_regions (XrtDevice *device, XrtMemRegion *etm, XrtMemRegion *ocm)
{
  Zg330Board *board = zg330_board_of (device);
  g_autoptr (XrtMemRegion) host = xrt_mem_region_new_host ("HOST", HOST_CAPACITY);

  board->etm = etm;
  zg330_sim_reserve_board_memory (etm, board->profile);
  xrt_device_add_mem_region (device, etm, TRUE);
  xrt_device_add_mem_region (device, ocm, FALSE);
  xrt_device_add_mem_region (device, host, FALSE);
}

void
zg330_board_release (Zg330Board *board)
{
  g_autoptr (GPtrArray) bindings = NULL;
  XrtMemChunk *timer, *profiler;

  g_rec_mutex_lock (&board->lock);
  bindings = g_steal_pointer (&board->bindings);
  board->bindings = g_ptr_array_new_with_free_func (zg330_binding_unref);
  timer = g_steal_pointer (&board->timer_chunk);
  profiler = g_steal_pointer (&board->profiler_chunk);
  g_rec_mutex_unlock (&board->lock);
  g_clear_pointer (&timer, xrt_mem_chunk_unref);
  g_clear_pointer (&profiler, xrt_mem_chunk_unref);
}

void
zg330_board_clear (Zg330Board *board)
{
  zg330_board_release (board);
  g_clear_pointer (&board->bindings, g_ptr_array_unref);
  g_clear_pointer (&board->profile, zg330_profile_free);
  g_rec_mutex_clear (&board->lock);
}

void
zg330_board_forget_launch (Zg330Board *board)
{
  g_rec_mutex_lock (&board->lock);
  board->have_launch = FALSE;
  memset (&board->last, 0, sizeof board->last);
  g_rec_mutex_unlock (&board->lock);
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
 * address is where the board's allocator put it, not its logical offset. Both boards reserve
 * it (zg330_board_add_regions()), so both allocate the same addresses. */
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
  return zg330_board_of (device)->profile;
}

Zg330Profile *
zg330_sim_dup_profile (XrtDevice *device)
{
  Zg330Board *board;
  Zg330Profile *copy;

  BOARD_OR (device, NULL);
  board = zg330_board_of (device);
  g_rec_mutex_lock (&board->lock);
  copy = zg330_profile_copy (board->profile);
  g_rec_mutex_unlock (&board->lock);
  return copy;
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
  if (k->set_timing_field != NULL && !k->set_timing_field (device, field, value, error))
    return FALSE;
  /* the board took it: the base's copy follows (host-op costs and ms conversions read it) */
  {
    Zg330Board *board = zg330_board_of (device);
    gboolean ok;

    g_rec_mutex_lock (&board->lock);
    ok = zg330_profile_set_field (board->profile, field, value, error);
    g_rec_mutex_unlock (&board->lock);
    return ok;
  }
}

gboolean
zg330_sim_get_last_launch (XrtDevice *device, Zg330LaunchStats *stats)
{
  Zg330Board *board;
  gboolean have;

  BOARD_OR (device, FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);
  board = zg330_board_of (device);
  g_rec_mutex_lock (&board->lock);
  have = board->have_launch;
  if (have)
    *stats = board->last;
  else
    memset (stats, 0, sizeof *stats);
  g_rec_mutex_unlock (&board->lock);
  return have;
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
  p = zg330_board_of (device)->profile;
  if (rows)
    *rows = p->mpe_rows;
  if (cols)
    *cols = p->mpe_cols;
}

/* The device is open, (cid, rid) in the MPE grid and @offset aligned. */
static gboolean
check_core (XrtDevice *device, guint cid, guint rid, guint32 offset, GError **error)
{
  const Zg330Profile *p = zg330_board_of (device)->profile;

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
  return check_core (device, cid, rid, offset, error) && k->read_reg (device, cid, rid, offset, value, error);
}

gboolean
zg330_device_write_reg (XrtDevice *device, guint cid, guint rid, guint32 offset,
                        guint32 value, GError **error)
{
  BOARD_OR (device, FALSE);
  return check_core (device, cid, rid, offset, error) && k->write_reg (device, cid, rid, offset, value, error);
}

gboolean
zg330_device_icore_calc (XrtDevice *device, guint64 addr, guint64 size, GError **error)
{
  BOARD_OR (device, FALSE);
  return zg330_board_icore_calc (device, addr, size, error);
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
  return cid < zg330_board_of (device)->profile->mpe_cols ? k->counter (device, cid, ZG330_REG_WTILE_CNT) : 0;
}

guint32
zg330_device_r_tile_count (XrtDevice *device, guint cid)
{
  BOARD_OR (device, 0);
  return cid < zg330_board_of (device)->profile->mpe_cols ? k->counter (device, cid, ZG330_REG_RTILE_CNT) : 0;
}

double
zg330_device_calc_time (XrtDevice *device)
{
  Zg330LaunchStats st;

  g_return_val_if_fail (zg330_board_get_class (device) != NULL, 0.0);
  return zg330_sim_get_last_launch (device, &st) ? st.icore_ms : 0.0;
}

/* The timer (@profiler FALSE) or profiler chunk: on this device's ETM, not freed; the board
 * hears of it first. */
static gboolean
config_chunk (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk, GError **error)
{
  BOARD_OR (device, FALSE);
  Zg330Board *board = zg330_board_of (device);
  const char *what = profiler ? "profiler" : "timer";
  XrtMemChunk **slot = profiler ? &board->profiler_chunk : &board->timer_chunk;
  XrtMemChunk *old;

  if (!zg330_board_check_open (device, error))
    return FALSE;
  if (chunk && !xrt_mem_chunk_is_on (chunk, board->etm))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                   "device %s: the %s chunk must be on this device's ETM (it is on region %s)",
                   xrt_device_get_url (device), what, xrt_mem_region_get_name (xrt_mem_chunk_get_region (chunk)));
      return FALSE;
    }
  if (chunk && xrt_mem_chunk_is_freed (chunk))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_FREED,
                   "device %s: the %s chunk at 0x%" G_GINT64_MODIFIER "x was freed",
                   xrt_device_get_url (device), what, xrt_mem_chunk_get_addr (chunk));
      return FALSE;
    }
  if (k->config_chunk != NULL && !k->config_chunk (device, profiler, chunk, error))
    return FALSE;
  g_rec_mutex_lock (&board->lock);
  old = *slot;
  *slot = chunk ? xrt_mem_chunk_ref (chunk) : NULL;
  g_rec_mutex_unlock (&board->lock);
  if (old)
    xrt_mem_chunk_unref (old);
  return TRUE;
}

gboolean
zg330_device_config_timer (XrtDevice *device, XrtMemChunk *chunk, GError **error)
{
  return config_chunk (device, FALSE, chunk, error);
}

gboolean
zg330_device_config_profiler (XrtDevice *device, XrtMemChunk *chunk, GError **error)
{
  return config_chunk (device, TRUE, chunk, error);
}

gboolean
zg330_device_set_master_cid (XrtDevice *device, guint master_cid, GError **error)
{
  BOARD_OR (device, FALSE);
  Zg330Board *board = zg330_board_of (device);

  if (master_cid >= board->profile->mpe_cols)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: master cid %u is outside the %u core columns",
                   xrt_device_get_url (device), master_cid, board->profile->mpe_cols);
      return FALSE;
    }
  if (k->set_master_cid != NULL && !k->set_master_cid (device, master_cid, error))
    return FALSE;
  g_rec_mutex_lock (&board->lock);
  board->master_cid = master_cid;
  g_rec_mutex_unlock (&board->lock);
  return TRUE;
}

guint
zg330_device_get_master_cid (XrtDevice *device)
{
  Zg330Board *board;
  guint cid;

  BOARD_OR (device, 0);
  board = zg330_board_of (device);
  g_rec_mutex_lock (&board->lock);
  cid = board->master_cid;
  g_rec_mutex_unlock (&board->lock);
  return cid;
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
timer_records (XrtDevice *device, guint from, guint count, Zg330Profile **profile, GError **error)
{
  Zg330Board *board = zg330_board_of (device);
  g_autoptr (XrtMemChunk) chunk = NULL;
  guint8 *buf;

  g_rec_mutex_lock (&board->lock);
  chunk = board->timer_chunk ? xrt_mem_chunk_ref (board->timer_chunk) : NULL;
  g_rec_mutex_unlock (&board->lock);
  buf = read_timer_records (device, chunk, from, count, error);
  if (buf != NULL)
    *profile = zg330_sim_dup_profile (device);
  return buf;
}

GArray *
zg330_device_get_layer_time (XrtDevice *device, guint n_layers, GError **error)
{
  g_autoptr (Zg330Profile) profile = NULL;
  g_autofree guint8 *buf = NULL;
  GArray *times;

  BOARD_OR (device, NULL);
  buf = timer_records (device, 0, n_layers, &profile, error);
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
  buf = timer_records (device, from_idx, count, &profile, error);
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
