/* zg330-sim-launch.c — the simulated board's launch engine (zg330-sim-private.h): runs the
 * hardops the base selected for icoreCalc, in address order, turns the work each reports
 * into cycles with the timing model (zg330-timing.h), advances the layer counter, the timer
 * and the tile counters, and writes the per-layer timer and profiler records (their layout:
 * zg330-sim.h). */
#include "devices/zg330-sim-private.h"

#include <string.h>

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
  if (sim->base.timer_chunk)
    {
      guint8 rec[ZG330_TIMER_RECORD_BYTES];
      put_le64 (rec, start);
      put_le64 (rec + 8, end);
      if (!xrt_mem_chunk_write (sim->base.timer_chunk, (guint64) layer * sizeof rec, rec,
                                sizeof rec, NULL))
        stats->stamps_dropped++;
    }
  if (sim->base.profiler_chunk)
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
      if (!xrt_mem_chunk_write (sim->base.profiler_chunk, (guint64) layer * sizeof rec, rec,
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
  const Zg330Profile *profile = sim->base.profile;
  guint master = sim->base.master_cid;
  Zg330OpCycles cycles;
  guint64 rtiles, wtiles;
  guint k = work->layer_count;

  zg330_timing_op_breakdown (profile, work, &cycles);
  zg330_timing_op_tiles (profile, work, &rtiles, &wtiles);
  /* Hardware counters are 32 bits wide and wrap. */
  sim->rtiles[master] += (guint32) rtiles;
  sim->wtiles[master] += (guint32) wtiles;
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

/* Runs hardop @b: its call (prepared now) or its run callback; fills @work. */
static gboolean
run_hardop (XrtDevice *device, Zg330Binding *b, Zg330OpWork *work, GError **error)
{
  GError *local = NULL;

  if (b->prepare != NULL)
    {
      Zg330HardopCall call = { 0 };
      gboolean ran = b->prepare (device, b->user_data, &call, &local)
                     && zg330_hardop_call_run (device, &call, work, &local);
      zg330_hardop_call_clear (&call);
      if (ran)
        return TRUE;
    }
  if (local == NULL && b->exec.run (device, b->user_data, work, &local))
    return TRUE;
  if (local == NULL)
    g_set_error (&local, XRT_ERROR, XRT_ERROR_EXEC, "the executor failed without saying why");
  g_propagate_error (error, local);
  return FALSE;
}

gboolean
zg330_sim_launch (XrtDevice *device, guint64 addr, guint64 size, GPtrArray *run,
                  Zg330LaunchStats *stats, gboolean *ran, GError **error)
{
  Zg330Sim *sim = xrt_device_get_impl (device);
  const Zg330Profile *profile = sim->base.profile;
  guint64 timer_start;
  gboolean ok = TRUE;

  stats->addr = addr;
  stats->size = size;
  stats->merged = run->len > 1;
  for (guint i = 0; i < run->len; i++)
    stats->merged |= ((Zg330Binding *) run->pdata[i])->exec.merged;
  stats->first_layer = sim->layer_count;
  timer_start = sim->timer;
  sim->timer += profile->launch_cycles;

  for (guint i = 0; i < run->len && ok; i++)
    {
      Zg330Binding *b = run->pdata[i];
      Zg330OpWork work = { 0 };
      GError *local = NULL;

      if (sim->cancellable != NULL && g_cancellable_is_cancelled (sim->cancellable))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_EXEC,
                       "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
                       "): cancelled after %u of %u hardops", xrt_device_get_url (device), addr, size,
                       stats->n_hardops, run->len);
          ok = FALSE;
          break;
        }
      stats->n_hardops++;
      if (!run_hardop (device, b, &work, &local))
        {
          g_propagate_prefixed_error (error, local,
                                      "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %"
                                      G_GUINT64_FORMAT "): hardop at 0x%" G_GINT64_MODIFIER
                                      "x (%" G_GUINT64_FORMAT " bytes): ",
                                      xrt_device_get_url (device), addr, size, b->addr,
                                      b->bytes);
          ok = FALSE;
          break;
        }
      account_hardop (sim, &work, stats);
    }
  if (!ok)
    {
      sim->state |= ZG330_STATE_LAUNCH_FAILED;
      stats->failed = TRUE;
    }

  stats->layers = sim->layer_count - stats->first_layer;
  stats->icore_cycles = sim->timer - timer_start;
  stats->host_sync_cycles = stats->merged ? 0 : zg330_timing_host_sync_cycles (profile);
  stats->icore_ms = zg330_timing_cycles_to_ms (profile, stats->icore_cycles);
  stats->host_sync_ms = zg330_timing_cycles_to_ms (profile, stats->host_sync_cycles);
  stats->seq = ++sim->n_launches;
  *ran = TRUE;
  return ok;
}
