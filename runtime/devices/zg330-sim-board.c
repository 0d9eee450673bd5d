/* zg330-sim-board.c — the simulated ZG330 board in this process (mock://zg330, mock://buyi):
 * stores, registers, hardop dispatch, timing.  One implementation of the board type
 * (zg330-board-private.h); the public API is the base's (zg330-board.c). */
#include "devices/zg330-board-private.h"
#include "devices/zg330-sim-store.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

/* The host region has no real bound; this is what its info reports as size. */
#define HOST_CAPACITY (G_GUINT64_CONSTANT (1) << 40)

#define DEFAULT_MASTER_CID 1

/* ---- the board ------------------------------------------------------------------- */

typedef struct {
  gint            ref_count;
  guint64         addr;
  guint64         bytes;
  Zg330HardopExec exec;
  Zg330HardopPrepareFunc prepare;  /* a call binding (exec.run unused), or NULL */
  gpointer        user_data;
  GDestroyNotify  destroy;
} Binding;

typedef struct {
  Zg330Board        base;          /* first: the board class */
  GRecMutex         lock;          /* registers, bindings, profile, launches */
  Zg330Profile     *profile;
  XrtMemRegion     *etm;           /* borrowed: the device holds the regions */
  XrtMemRegion     *ocm;
  EtmStore         *etm_store;     /* owned by the ETM region */
  OcmStore         *ocm_store;     /* owned by the OCM region */
  GPtrArray        *bindings;      /* Binding, sorted by addr, disjoint */

  /* registers */
  guint32           layer_count;
  guint64           timer;         /* the 0x18 register shows the low 32 bits */
  guint32          *wtiles;        /* per column */
  guint32          *rtiles;
  guint32           state;
  guint32           run_base;
  guint32           run_size;
  guint             master_cid;

  XrtMemChunk      *timer_chunk;
  XrtMemChunk      *profiler_chunk;
  GCancellable     *cancellable;     /* stops a launch between hardops (the board's client left), or NULL */
  gboolean          have_launch;
  guint64           n_launches;        /* launches run since open (Zg330LaunchStats.seq) */
  Zg330LaunchStats  last;
} Zg330Sim;

static Binding *
binding_ref (Binding *b)
{
  g_atomic_int_inc (&b->ref_count);
  return b;
}

static void
binding_unref (gpointer data)
{
  Binding *b = data;

  if (!g_atomic_int_dec_and_test (&b->ref_count))
    return;
  if (b->destroy)
    b->destroy (b->user_data);
  g_free (b);
}

static const XrtDeviceClass zg330_sim_class;
static const XrtDeviceClass buyi_sim_class;

/* The board simulator runs in this process (mock://). */
static gboolean
is_local (XrtDevice *device)
{
  const XrtDeviceClass *klass;

  if (device == NULL)
    return FALSE;
  klass = xrt_device_get_class (device);
  return klass == &zg330_sim_class || klass == &buyi_sim_class;
}

static Zg330Sim *
sim_of (XrtDevice *device)
{
  return xrt_device_get_impl (device);
}

#define RETURN_SIM_OR(device, val)                         \
  g_return_val_if_fail (is_local (device), val);           \
  Zg330Sim *sim = sim_of (device)

static gboolean
sim_check_open (XrtDevice *device, GError **error)
{
  if (xrt_device_is_closed (device))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CLOSED, "device %s was closed",
                   xrt_device_get_url (device));
      return FALSE;
    }
  return TRUE;
}

/* Clears the registers (reset level 0, power-on). */
static void
sim_clear_registers (Zg330Sim *sim)
{
  sim->layer_count = 0;
  sim->timer = 0;
  memset (sim->wtiles, 0, sizeof (guint32) * sim->profile->mpe_cols);
  memset (sim->rtiles, 0, sizeof (guint32) * sim->profile->mpe_cols);
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
      *value = sim->profile->fpga_version;
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

static gboolean sim_icore_calc_locked (XrtDevice *device, Zg330Sim *sim, guint64 addr,
                                       guint64 size, GError **error);

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
      return sim_icore_calc_locked (device, sim, sim->run_base, sim->run_size, error);
    default:
      return reg_unknown (device, offset, error);
    }
}

static gboolean
klass_read_reg (XrtDevice *device, guint64 addr, guint32 *value, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok;

  g_rec_mutex_lock (&sim->lock);
  ok = sim_read_reg_locked (device, sim, sim->master_cid, addr, value, error);
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static gboolean
klass_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok;

  g_rec_mutex_lock (&sim->lock);
  ok = sim_write_reg_locked (device, sim, sim->master_cid, addr, value, error);
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static gboolean
sim_read_core_reg (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 *value, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok;

  (void) rid;
  g_rec_mutex_lock (&sim->lock);
  ok = sim_read_reg_locked (device, sim, cid, offset, value, error);
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static gboolean
sim_write_core_reg (XrtDevice *device, guint cid, guint rid, guint32 offset, guint32 value, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok;

  (void) rid;
  g_rec_mutex_lock (&sim->lock);
  ok = sim_write_reg_locked (device, sim, cid, offset, value, error);
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

/* ---- bindings ----------------------------------------------------------------------- */

/* Index of the first binding whose addr >= @addr. */
static guint
bindings_lower (GPtrArray *bindings, guint64 addr)
{
  guint lo = 0, hi = bindings->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (((Binding *) bindings->pdata[mid])->addr < addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
ranges_overlap (guint64 a, guint64 a_size, guint64 b, guint64 b_size)
{
  /* [a, a+as) and [b, b+bs) overlap, without overflowing. */
  return a < b ? b - a < a_size : a - b < b_size;
}

static gboolean bind_locked_check (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes,
                                   const Zg330HardopExec *exec, Zg330HardopPrepareFunc prepare, gpointer user_data,
                                   GDestroyNotify destroy, GError **error);

static gboolean
sim_bind_exec (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, const Zg330HardopExec *exec,
               gpointer user_data, GDestroyNotify destroy, GError **error)
{
  return bind_locked_check (device, instr_addr, instr_bytes, exec, NULL, user_data, destroy, error);
}

static gboolean
bind_locked_check (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, const Zg330HardopExec *exec,
                   Zg330HardopPrepareFunc prepare, gpointer user_data, GDestroyNotify destroy, GError **error)
{
  RETURN_SIM_OR (device, FALSE);
  Binding *b;
  guint idx;

  g_return_val_if_fail (exec != NULL, FALSE);

  if (!sim_check_open (device, error))
    return FALSE;
  if (instr_bytes == 0 || exec->run == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: cannot bind a hardop at 0x%" G_GINT64_MODIFIER "x: %s",
                   xrt_device_get_url (device), instr_addr,
                   instr_bytes == 0 ? "0 instruction bytes" : "no run callback");
      return FALSE;
    }
  if (instr_addr < sim->profile->etm_base
      || instr_bytes > sim->profile->etm_bytes
      || instr_addr - sim->profile->etm_base > sim->profile->etm_bytes - instr_bytes)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "device %s: hardop instructions [0x%" G_GINT64_MODIFIER "x, +%"
                   G_GUINT64_FORMAT ") are outside ETM", xrt_device_get_url (device),
                   instr_addr, instr_bytes);
      return FALSE;
    }

  g_rec_mutex_lock (&sim->lock);
  idx = bindings_lower (sim->bindings, instr_addr);
  for (guint i = idx > 0 ? idx - 1 : 0; i < sim->bindings->len && i <= idx; i++)
    {
      Binding *other = sim->bindings->pdata[i];
      if (ranges_overlap (instr_addr, instr_bytes, other->addr, other->bytes))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                       "device %s: hardop instructions [0x%" G_GINT64_MODIFIER "x, +%"
                       G_GUINT64_FORMAT ") overlap the hardop bound at [0x%"
                       G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ")",
                       xrt_device_get_url (device), instr_addr, instr_bytes,
                       other->addr, other->bytes);
          g_rec_mutex_unlock (&sim->lock);
          return FALSE;
        }
    }
  b = g_new0 (Binding, 1);
  b->ref_count = 1;
  b->addr = instr_addr;
  b->bytes = instr_bytes;
  b->exec = *exec;
  b->prepare = prepare;
  b->user_data = user_data;
  b->destroy = destroy;
  g_ptr_array_insert (sim->bindings, idx, b);
  g_rec_mutex_unlock (&sim->lock);
  return TRUE;
}

static gboolean
call_binding_run (XrtDevice *device, gpointer user_data, Zg330OpWork *work, GError **error)
{
  (void) device;
  (void) user_data;
  (void) work;
  g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC, "a call binding ran as a callback");
  return FALSE;
}

static gboolean
sim_bind_call (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, gboolean merged,
               Zg330HardopPrepareFunc prepare, gpointer user_data, GDestroyNotify destroy, GError **error)
{
  Zg330HardopExec exec = { call_binding_run, merged };

  return bind_locked_check (device, instr_addr, instr_bytes, &exec, prepare, user_data, destroy, error);
}

static guint
sim_unbind_range (XrtDevice *device, guint64 addr, guint64 size)
{
  RETURN_SIM_OR (device, 0);
  g_autoptr (GPtrArray) removed = g_ptr_array_new_with_free_func (binding_unref);

  if (size == 0)
    return 0;
  g_rec_mutex_lock (&sim->lock);
  for (guint i = 0; i < sim->bindings->len;)
    {
      Binding *b = sim->bindings->pdata[i];
      if (ranges_overlap (addr, size, b->addr, b->bytes))
        g_ptr_array_add (removed, g_ptr_array_steal_index (sim->bindings, i));
      else
        i++;
    }
  g_rec_mutex_unlock (&sim->lock);
  /* Destroy notifies run here, outside the lock. */
  return removed->len;
}

static guint
sim_get_n_bindings (XrtDevice *device)
{
  RETURN_SIM_OR (device, 0);
  guint n;

  g_rec_mutex_lock (&sim->lock);
  n = sim->bindings->len;
  g_rec_mutex_unlock (&sim->lock);
  return n;
}

/* ---- launches ------------------------------------------------------------------------- */

static void
put_le64 (guint8 *p, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

/* Share j of k of a total: even split, the remainder to the last share. */
static guint64
share_of (guint64 total, guint j, guint k)
{
  return total / k + (j == k - 1 ? total % k : 0);
}

static void
write_layer_records (Zg330Sim *sim, guint32 layer, guint64 start, guint64 end,
                     const Zg330OpWork *work, const Zg330OpCycles *cycles, guint j, guint k,
                     Zg330LaunchStats *stats)
{
  if (sim->timer_chunk)
    {
      guint8 rec[ZG330_TIMER_RECORD_BYTES];
      put_le64 (rec, start);
      put_le64 (rec + 8, end);
      if (!xrt_mem_chunk_write (sim->timer_chunk, (guint64) layer * sizeof rec, rec,
                                sizeof rec, NULL))
        stats->stamps_dropped++;
    }
  if (sim->profiler_chunk)
    {
      guint8 rec[ZG330_PROFILER_RECORD_BYTES] = { 0 };
      guint64 v[8] = {
        end - start,
        share_of (work->macs, j, k),
        share_of (work->etm_read_bytes, j, k),
        share_of (work->etm_write_bytes, j, k),
        share_of (work->ocm_read_bytes, j, k),
        share_of (work->ocm_write_bytes, j, k),
        share_of (cycles->compute_cycles, j, k),
        cycles->bound,
      };
      for (guint i = 0; i < G_N_ELEMENTS (v); i++)
        put_le64 (rec + 8 * i, v[i]);
      if (!xrt_mem_chunk_write (sim->profiler_chunk, (guint64) layer * sizeof rec, rec,
                                sizeof rec, NULL))
        stats->stamps_dropped++;
    }
}

static void
work_add (Zg330OpWork *sum, const Zg330OpWork *w)
{
  sum->macs += w->macs;
  sum->etm_read_bytes += w->etm_read_bytes;
  sum->etm_write_bytes += w->etm_write_bytes;
  sum->ocm_read_bytes += w->ocm_read_bytes;
  sum->ocm_write_bytes += w->ocm_write_bytes;
  sum->layer_count += w->layer_count;
}

/* Runs one hardop's timing: counters, timer, per-layer records. */
static void
account_hardop (Zg330Sim *sim, const Zg330OpWork *work, Zg330LaunchStats *stats)
{
  Zg330OpCycles cycles;
  guint64 rtiles, wtiles;
  guint k = work->layer_count;

  zg330_timing_op_breakdown (sim->profile, work, &cycles);
  zg330_timing_op_tiles (sim->profile, work, &rtiles, &wtiles);
  /* Hardware counters are 32 bits wide and wrap. */
  sim->rtiles[sim->master_cid] += (guint32) rtiles;
  sim->wtiles[sim->master_cid] += (guint32) wtiles;
  work_add (&stats->work, work);
  stats->work.read_tiles += rtiles;
  stats->work.write_tiles += wtiles;

  if (k == 0)
    {
      sim->timer += cycles.total_cycles;
      return;
    }
  for (guint j = 0; j < k; j++)
    {
      guint64 start = sim->timer;
      sim->timer += share_of (cycles.total_cycles, j, k);
      write_layer_records (sim, sim->layer_count, start, sim->timer, work, &cycles, j, k,
                           stats);
      sim->layer_count++;
    }
}

static gboolean
sim_icore_calc_locked (XrtDevice *device, Zg330Sim *sim, guint64 addr, guint64 size,
                       GError **error)
{
  g_autoptr (GPtrArray) run = NULL;
  Zg330LaunchStats stats = { 0 };
  guint64 timer_start;
  gboolean ok = TRUE;
  guint idx;

  if (!sim_check_open (device, error))
    return FALSE;
  /* injected faults (URL fault=icore@N / timeout@N): the launch fails before it runs, so
   * the board's memory is as it was */
  if (xrt_device_take_fault (device, XRT_FAULT_ICORE, "icoreCalc", error)
      || xrt_device_take_fault (device, XRT_FAULT_TIMEOUT, "icoreCalc", error))
    return FALSE;
  if (size == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, 0): nothing to run",
                   xrt_device_get_url (device), addr);
      return FALSE;
    }

  run = g_ptr_array_new_with_free_func (binding_unref);
  idx = bindings_lower (sim->bindings, addr);
  for (guint i = idx > 0 ? idx - 1 : 0; i < sim->bindings->len; i++)
    {
      Binding *b = sim->bindings->pdata[i];
      if (!ranges_overlap (addr, size, b->addr, b->bytes))
        {
          if (b->addr >= addr)
            break;
          continue;
        }
      if (b->addr < addr || b->bytes > size - (b->addr - addr))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                       "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
                       "): the hardop bound at [0x%" G_GINT64_MODIFIER "x, +%"
                       G_GUINT64_FORMAT ") straddles the edge of the range",
                       xrt_device_get_url (device), addr, size, b->addr, b->bytes);
          return FALSE;
        }
      g_ptr_array_add (run, binding_ref (b));
    }
  if (run->len == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_UNBOUND,
                   "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
                   "): no hardop is bound at [0x%" G_GINT64_MODIFIER "x, 0x%"
                   G_GINT64_MODIFIER "x) (%u bound elsewhere)",
                   xrt_device_get_url (device), addr, size, addr, addr + size,
                   sim->bindings->len);
      return FALSE;
    }

  stats.addr = addr;
  stats.size = size;
  stats.merged = run->len > 1;
  for (guint i = 0; i < run->len; i++)
    stats.merged |= ((Binding *) run->pdata[i])->exec.merged;
  stats.first_layer = sim->layer_count;
  timer_start = sim->timer;
  sim->timer += sim->profile->launch_cycles;

  for (guint i = 0; i < run->len && ok; i++)
    {
      Binding *b = run->pdata[i];
      Zg330OpWork work = { 0 };
      GError *local = NULL;

      if (sim->cancellable != NULL && g_cancellable_is_cancelled (sim->cancellable))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                       "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
                       "): cancelled after %u of %u hardops", xrt_device_get_url (device), addr, size,
                       stats.n_hardops, run->len);
          sim->state |= ZG330_STATE_LAUNCH_FAILED;
          stats.failed = TRUE;
          ok = FALSE;
          break;
        }
      stats.n_hardops++;
      if (b->prepare != NULL)
        {
          Zg330HardopCall call = { 0 };
          gboolean ran = b->prepare (device, b->user_data, &call, &local)
                         && zg330_hardop_call_run (device, &call, &work, &local);
          zg330_hardop_call_clear (&call);
          if (ran)
            {
              account_hardop (sim, &work, &stats);
              continue;
            }
        }
      if (local != NULL || !b->exec.run (device, b->user_data, &work, &local))
        {
          if (local == NULL)
            g_set_error (&local, XRT_ERROR, XRT_ERROR_EXEC,
                         "the executor failed without saying why");
          g_propagate_prefixed_error (error, local,
                                      "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %"
                                      G_GUINT64_FORMAT "): hardop at 0x%" G_GINT64_MODIFIER
                                      "x (%" G_GUINT64_FORMAT " bytes): ",
                                      xrt_device_get_url (device), addr, size, b->addr,
                                      b->bytes);
          sim->state |= ZG330_STATE_LAUNCH_FAILED;
          stats.failed = TRUE;
          ok = FALSE;
          break;
        }
      account_hardop (sim, &work, &stats);
    }

  stats.layers = sim->layer_count - stats.first_layer;
  stats.icore_cycles = sim->timer - timer_start;
  stats.host_sync_cycles = stats.merged ? 0 : zg330_timing_host_sync_cycles (sim->profile);
  stats.icore_ms = zg330_timing_cycles_to_ms (sim->profile, stats.icore_cycles);
  stats.host_sync_ms = zg330_timing_cycles_to_ms (sim->profile, stats.host_sync_cycles);
  stats.seq = ++sim->n_launches;
  sim->last = stats;
  sim->have_launch = TRUE;
  return ok;
}

static gboolean
sim_icore_calc (XrtDevice *device, guint64 addr, guint64 size, GError **error)
{
  RETURN_SIM_OR (device, FALSE);
  gboolean ok;

  g_rec_mutex_lock (&sim->lock);
  ok = sim_icore_calc_locked (device, sim, addr, size, error);
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static gboolean
sim_get_last_launch (XrtDevice *device, Zg330LaunchStats *stats)
{
  RETURN_SIM_OR (device, FALSE);
  gboolean have;

  g_return_val_if_fail (stats != NULL, FALSE);
  g_rec_mutex_lock (&sim->lock);
  have = sim->have_launch;
  if (have)
    *stats = sim->last;
  else
    memset (stats, 0, sizeof *stats);
  g_rec_mutex_unlock (&sim->lock);
  return have;
}

/* ---- the board's methods ------------------------------------------------------------------ */

static guint32
sim_counter (XrtDevice *device, guint cid, guint32 offset)
{
  RETURN_SIM_OR (device, 0);
  guint32 v = 0;

  g_rec_mutex_lock (&sim->lock);
  if (offset == ZG330_REG_LAYER_CNT)
    v = sim->layer_count;
  else if (cid < sim->profile->mpe_cols)
    v = offset == ZG330_REG_WTILE_CNT ? sim->wtiles[cid] : sim->rtiles[cid];
  g_rec_mutex_unlock (&sim->lock);
  return v;
}

static gboolean
config_chunk (XrtDevice *device, XrtMemChunk **slot, XrtMemChunk *chunk, const char *what,
              GError **error)
{
  Zg330Sim *sim = sim_of (device);
  XrtMemChunk *old;

  if (!sim_check_open (device, error))
    return FALSE;
  if (chunk && !xrt_mem_chunk_is_on (chunk, sim->etm))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                   "device %s: the %s chunk must be on this device's ETM (it is on region %s)",
                   xrt_device_get_url (device), what,
                   xrt_mem_region_get_name (xrt_mem_chunk_get_region (chunk)));
      return FALSE;
    }
  if (chunk && xrt_mem_chunk_is_freed (chunk))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_FREED,
                   "device %s: the %s chunk at 0x%" G_GINT64_MODIFIER "x was freed",
                   xrt_device_get_url (device), what, xrt_mem_chunk_get_addr (chunk));
      return FALSE;
    }
  g_rec_mutex_lock (&sim->lock);
  old = *slot;
  *slot = chunk ? xrt_mem_chunk_ref (chunk) : NULL;
  g_rec_mutex_unlock (&sim->lock);
  if (old)
    xrt_mem_chunk_unref (old);
  return TRUE;
}

static gboolean
sim_config_chunk (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk, GError **error)
{
  RETURN_SIM_OR (device, FALSE);
  return config_chunk (device, profiler ? &sim->profiler_chunk : &sim->timer_chunk, chunk,
                       profiler ? "profiler" : "timer", error);
}

static XrtMemChunk *
sim_dup_timer_chunk (XrtDevice *device)
{
  RETURN_SIM_OR (device, NULL);
  XrtMemChunk *c;

  g_rec_mutex_lock (&sim->lock);
  c = sim->timer_chunk ? xrt_mem_chunk_ref (sim->timer_chunk) : NULL;
  g_rec_mutex_unlock (&sim->lock);
  return c;
}

static gboolean
sim_set_master_cid (XrtDevice *device, guint master_cid, GError **error)
{
  RETURN_SIM_OR (device, FALSE);
  gboolean ok = TRUE;

  g_rec_mutex_lock (&sim->lock);
  if (master_cid >= sim->profile->mpe_cols)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: master cid %u is outside the %u core columns",
                   xrt_device_get_url (device), master_cid, sim->profile->mpe_cols);
      ok = FALSE;
    }
  else
    sim->master_cid = master_cid;
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static guint
sim_get_master_cid (XrtDevice *device)
{
  RETURN_SIM_OR (device, 0);
  guint cid;

  g_rec_mutex_lock (&sim->lock);
  cid = sim->master_cid;
  g_rec_mutex_unlock (&sim->lock);
  return cid;
}

static gboolean
sim_set_timing_field (XrtDevice *device, const char *field, double value, GError **error)
{
  RETURN_SIM_OR (device, FALSE);
  gboolean ok;

  g_rec_mutex_lock (&sim->lock);
  ok = zg330_profile_set_field (sim->profile, field, value, error);
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static const Zg330Profile *
sim_get_profile (XrtDevice *device)
{
  RETURN_SIM_OR (device, NULL);
  return sim->profile;
}

static Zg330Profile *
sim_dup_profile (XrtDevice *device)
{
  RETURN_SIM_OR (device, NULL);
  Zg330Profile *copy;

  g_rec_mutex_lock (&sim->lock);
  copy = zg330_profile_copy (sim->profile);
  g_rec_mutex_unlock (&sim->lock);
  return copy;
}

static void
sim_set_cancellable (XrtDevice *device, GCancellable *cancellable)
{
  GCancellable *old;
  Zg330Sim *sim;

  g_return_if_fail (is_local (device));
  sim = sim_of (device);
  g_rec_mutex_lock (&sim->lock);
  old = sim->cancellable;
  sim->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  g_rec_mutex_unlock (&sim->lock);
  g_clear_object (&old);
}

static guint
sim_get_etm_pages (XrtDevice *device)
{
  RETURN_SIM_OR (device, 0);
  guint n;

  g_mutex_lock (&sim->etm_store->lock);
  n = g_hash_table_size (sim->etm_store->pages);
  g_mutex_unlock (&sim->etm_store->lock);
  return n;
}

static const Zg330BoardClass sim_board_class = {
  .name = "simulator",
  .get_profile = sim_get_profile,
  .dup_profile = sim_dup_profile,
  .set_timing_field = sim_set_timing_field,
  .bind_exec = sim_bind_exec,
  .bind_call = sim_bind_call,
  .unbind_range = sim_unbind_range,
  .get_n_bindings = sim_get_n_bindings,
  .get_last_launch = sim_get_last_launch,
  .get_etm_pages = sim_get_etm_pages,
  .read_reg = sim_read_core_reg,
  .write_reg = sim_write_core_reg,
  .counter = sim_counter,
  .icore_calc = sim_icore_calc,
  .config_chunk = sim_config_chunk,
  .dup_timer_chunk = sim_dup_timer_chunk,
  .set_master_cid = sim_set_master_cid,
  .get_master_cid = sim_get_master_cid,
  .set_cancellable = sim_set_cancellable,
};

/* ---- device class ------------------------------------------------------------------------ */

/* Drops bindings and the timer/profiler chunks; destroy notifies run outside the lock. */
static void
sim_release (Zg330Sim *sim)
{
  g_autoptr (GPtrArray) bindings = NULL;
  XrtMemChunk *timer, *profiler;

  g_rec_mutex_lock (&sim->lock);
  bindings = g_steal_pointer (&sim->bindings);
  sim->bindings = g_ptr_array_new_with_free_func (binding_unref);
  timer = g_steal_pointer (&sim->timer_chunk);
  profiler = g_steal_pointer (&sim->profiler_chunk);
  g_rec_mutex_unlock (&sim->lock);
  g_clear_pointer (&timer, xrt_mem_chunk_unref);
  g_clear_pointer (&profiler, xrt_mem_chunk_unref);
}

static void
klass_finalize (XrtDevice *device)
{
  Zg330Sim *sim = sim_of (device);

  sim_release (sim);
  g_ptr_array_unref (sim->bindings);
  g_clear_object (&sim->cancellable);
  zg330_profile_free (sim->profile);
  g_free (sim->wtiles);
  g_free (sim->rtiles);
  g_rec_mutex_clear (&sim->lock);
  g_free (sim);
}

static void
klass_close (XrtDevice *device)
{
  sim_release (sim_of (device));
}

static gboolean
klass_reset (XrtDevice *device, int level, GError **error)
{
  Zg330Sim *sim = sim_of (device);

  (void) error;
  g_rec_mutex_lock (&sim->lock);
  sim_clear_registers (sim);
  if (level >= 1)
    {
      memset (sim->ocm_store->bytes, 0, sim->ocm_store->size);
      sim->have_launch = FALSE;
      memset (&sim->last, 0, sizeof sim->last);
    }
  g_rec_mutex_unlock (&sim->lock);
  return TRUE;
}

static gboolean
klass_check (XrtDevice *device, int level, GError **error)
{
  Zg330Sim *sim = sim_of (device);
  gboolean ok = TRUE;
  guint32 version = 0;

  (void) level;
  g_rec_mutex_lock (&sim->lock);
  if (!sim_read_reg_locked (device, sim, sim->master_cid, ZG330_REG_VERSION, &version, error))
    ok = FALSE;
  for (guint i = 1; ok && i < sim->bindings->len; i++)
    {
      Binding *a = sim->bindings->pdata[i - 1], *b = sim->bindings->pdata[i];
      if (a->addr >= b->addr || ranges_overlap (a->addr, a->bytes, b->addr, b->bytes))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_CHECK,
                       "device %s: hardop bindings at 0x%" G_GINT64_MODIFIER "x and 0x%"
                       G_GINT64_MODIFIER "x are out of order or overlap",
                       xrt_device_get_url (device), a->addr, b->addr);
          ok = FALSE;
        }
    }
  g_rec_mutex_unlock (&sim->lock);
  return ok;
}

static void
klass_show_status (XrtDevice *device, int level, GString *out)
{
  Zg330Sim *sim = sim_of (device);
  const Zg330Profile *p = sim->profile;

  g_rec_mutex_lock (&sim->lock);
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
                          sim->run_base, sim->run_size, sim->master_cid);
  g_string_append (out, "  tiles (cid: written/read):");
  for (guint c = 0; c < p->mpe_cols; c++)
    g_string_append_printf (out, " %u: %u/%u", c, sim->wtiles[c], sim->rtiles[c]);
  g_string_append_printf (out, "\n  ETM pages touched: %u of %u KiB; hardops bound: %u\n",
                          sim_get_etm_pages (device), ZG330_SIM_ETM_PAGE_BYTES / 1024,
                          sim->bindings->len);
  if (level >= 1)
    {
      for (guint i = 0; i < sim->bindings->len; i++)
        {
          Binding *b = sim->bindings->pdata[i];
          g_string_append_printf (out, "    hardop at 0x%09" G_GINT64_MODIFIER "x %8"
                                  G_GUINT64_FORMAT " bytes%s\n", b->addr, b->bytes,
                                  b->exec.merged ? " (merged)" : "");
        }
      if (sim->have_launch)
        {
          const Zg330LaunchStats *s = &sim->last;
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
  g_rec_mutex_unlock (&sim->lock);
}

static void
klass_version (XrtDevice *device, GHashTable *out)
{
  Zg330Sim *sim = sim_of (device);

  g_rec_mutex_lock (&sim->lock);
  g_hash_table_insert (out, g_strdup ("device"), g_ascii_strdown (sim->profile->chip ? sim->profile->chip : "ZG330", -1));
  g_hash_table_insert (out, g_strdup ("simulator"), g_strdup ("zhuge-workbench board simulator"));
  g_hash_table_insert (out, g_strdup ("fpga_version"),
                       g_strdup_printf ("0x%08x", sim->profile->fpga_version));
  g_hash_table_insert (out, g_strdup ("profile"), g_strdup (sim->profile->source));
  g_rec_mutex_unlock (&sim->lock);
}

static const XrtDeviceClass zg330_sim_class = {
  .type_name = "ZG330 simulated board",
  .finalize = klass_finalize,
  .close = klass_close,
  .reset = klass_reset,
  .check = klass_check,
  .show_status = klass_show_status,
  .version = klass_version,
  .read_reg = klass_read_reg,
  .write_reg = klass_write_reg,
};

/* The same engine carrying a Buyi chip (mock://buyi): only the name differs. */
static const XrtDeviceClass buyi_sim_class = {
  .type_name = "Buyi simulated board",
  .finalize = klass_finalize,
  .close = klass_close,
  .reset = klass_reset,
  .check = klass_check,
  .show_status = klass_show_status,
  .version = klass_version,
  .read_reg = klass_read_reg,
  .write_reg = klass_write_reg,
};

XrtDevice *
zg330_sim_open (const Zg330Profile *profile, const char *url, GError **error)
{
  g_autoptr (Zg330Profile) loaded = NULL;
  g_autoptr (XrtMemRegion) etm = NULL;
  g_autoptr (XrtMemRegion) ocm = NULL;
  g_autoptr (XrtMemRegion) host = NULL;
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
  sim->base.klass = &sim_board_class;
  g_rec_mutex_init (&sim->lock);
  sim->profile = zg330_profile_copy (profile);
  sim->bindings = g_ptr_array_new_with_free_func (binding_unref);
  sim->wtiles = g_new0 (guint32, profile->mpe_cols);
  sim->rtiles = g_new0 (guint32, profile->mpe_cols);
  sim->master_cid = DEFAULT_MASTER_CID < profile->mpe_cols ? DEFAULT_MASTER_CID : 0;
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
  host = xrt_mem_region_new_host ("HOST", HOST_CAPACITY);
  sim->etm = etm;
  sim->ocm = ocm;
  zg330_sim_reserve_board_memory (etm, profile);
  xrt_device_add_mem_region (device, etm, TRUE);
  xrt_device_add_mem_region (device, ocm, FALSE);
  xrt_device_add_mem_region (device, host, FALSE);
  return device;
}

__attribute__ ((constructor)) static void
register_sim_boards (void)
{
  zg330_board_register_class (&zg330_sim_class);
  zg330_board_register_class (&buyi_sim_class);
}
