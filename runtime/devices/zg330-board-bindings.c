/* zg330-board-bindings.c — the hardops bound on a board (zg330-board-private.h) and the
 * launches that run them: binding an ETM range to a run callback or a call, unbinding,
 * selecting what icoreCalc(addr, size) runs and keeping what the launch did, alike for both
 * boards; the class's launch runs the selection (zg330-sim-launch.c, zg330-socket-board.c). */
#include "devices/zg330-board-private.h"
#include "base/zw-checked.h"

#include <string.h>

static Zg330Binding *
binding_ref (Zg330Binding *b)
{
  g_atomic_int_inc (&b->ref_count);
  return b;
}

void
zg330_binding_unref (gpointer data)
{
  Zg330Binding *b = data;

  if (!g_atomic_int_dec_and_test (&b->ref_count))
    return;
  if (b->destroy)
    b->destroy (b->user_data);
  g_clear_pointer (&b->sent, g_bytes_unref);
  g_free (b);
}

/* ---- bindings --------------------------------------------------------------------------- */

/* Index of the first binding whose addr >= @addr. */
static guint
bindings_lower (GPtrArray *bindings, guint64 addr)
{
  guint lo = 0, hi = bindings->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (((Zg330Binding *) bindings->pdata[mid])->addr < addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* [a, a + a_size) and [b, b + b_size) overlap, without overflowing. */
static gboolean
ranges_overlap (guint64 a, guint64 a_size, guint64 b, guint64 b_size)
{
  return a < b ? b - a < a_size : a - b < b_size;
}

static gboolean
bind_hardop (XrtDevice *device, guint64 addr, guint64 bytes, const Zg330HardopExec *exec, Zg330HardopPrepareFunc prepare,
             gpointer user_data, GDestroyNotify destroy, GError **error)
{
  Zg330Board *board = zg330_board_of (device);
  const Zg330Profile *p = board->profile;
  Zg330Binding *b;
  guint idx;

  if (!zg330_board_check_open (device, error))
    return FALSE;
  if (bytes == 0 || exec->run == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: cannot bind a hardop at 0x%" G_GINT64_MODIFIER "x: %s",
                   xrt_device_get_url (device), addr, bytes == 0 ? "0 instruction bytes" : "no run callback");
      return FALSE;
    }
  if (!zw_range_inside (addr, bytes, p->etm_base, p->etm_bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "device %s: hardop instructions [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                   ") are outside ETM", xrt_device_get_url (device), addr, bytes);
      return FALSE;
    }

  g_rec_mutex_lock (&board->lock);
  idx = bindings_lower (board->bindings, addr);
  for (guint i = idx > 0 ? idx - 1 : 0; i < board->bindings->len && i <= idx; i++)
    {
      Zg330Binding *other = board->bindings->pdata[i];
      if (ranges_overlap (addr, bytes, other->addr, other->bytes))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                       "device %s: hardop instructions [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                       ") overlap the hardop bound at [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ")",
                       xrt_device_get_url (device), addr, bytes, other->addr, other->bytes);
          g_rec_mutex_unlock (&board->lock);
          return FALSE;
        }
    }
  b = g_new0 (Zg330Binding, 1);
  b->ref_count = 1;
  b->addr = addr;
  b->bytes = bytes;
  b->exec = *exec;
  b->prepare = prepare;
  b->user_data = user_data;
  b->destroy = destroy;
  g_ptr_array_insert (board->bindings, idx, b);
  g_rec_mutex_unlock (&board->lock);
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

gboolean
zg330_board_check_bindings (XrtDevice *device, Zg330Board *board, GError **error)
{
  for (guint i = 1; i < board->bindings->len; i++)
    {
      Zg330Binding *a = board->bindings->pdata[i - 1], *b = board->bindings->pdata[i];
      if (a->addr >= b->addr || ranges_overlap (a->addr, a->bytes, b->addr, b->bytes))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_CHECK,
                       "device %s: hardop bindings at 0x%" G_GINT64_MODIFIER "x and 0x%"
                       G_GINT64_MODIFIER "x are out of order or overlap",
                       xrt_device_get_url (device), a->addr, b->addr);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- launches --------------------------------------------------------------------------- */

/* With the lock held: references to the bindings of [addr, addr + size), in address order;
 * NULL + error when one straddles the range's edge or none is there. */
static GPtrArray *
select_run (XrtDevice *device, Zg330Board *board, guint64 addr, guint64 size, GError **error)
{
  g_autoptr (GPtrArray) run = g_ptr_array_new_with_free_func (zg330_binding_unref);
  guint idx = bindings_lower (board->bindings, addr);

  for (guint i = idx > 0 ? idx - 1 : 0; i < board->bindings->len; i++)
    {
      Zg330Binding *b = board->bindings->pdata[i];
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
                       "): the hardop bound at [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                       ") straddles the edge of the range",
                       xrt_device_get_url (device), addr, size, b->addr, b->bytes);
          return NULL;
        }
      g_ptr_array_add (run, binding_ref (b));
    }
  if (run->len == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_UNBOUND,
                   "device %s: icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
                   "): no hardop is bound at [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
                   "x) (%u bound elsewhere)",
                   xrt_device_get_url (device), addr, size, addr, addr + size, board->bindings->len);
      return NULL;
    }
  return g_steal_pointer (&run);
}

/* Runs @run with the class's launch and keeps what it did (the lock held by the caller,
 * released meanwhile when the class says so). */
static gboolean
launch_locked (XrtDevice *device, Zg330Board *board, guint64 addr, guint64 size, GPtrArray *run, GError **error)
{
  Zg330LaunchStats stats = { 0 };
  gboolean ran = FALSE, ok;

  if (board->klass->launch_unlocked)
    {
      g_rec_mutex_unlock (&board->lock);
      ok = board->klass->launch (device, addr, size, run, &stats, &ran, error);
      g_rec_mutex_lock (&board->lock);
    }
  else
    ok = board->klass->launch (device, addr, size, run, &stats, &ran, error);
  if (ran)
    {
      board->last = stats;
      board->have_launch = TRUE;
    }
  return ok;
}

gboolean
zg330_board_icore_calc (XrtDevice *device, guint64 addr, guint64 size, GError **error)
{
  Zg330Board *board = zg330_board_of (device);
  g_autoptr (GPtrArray) run = NULL;
  gboolean ok;

  if (!zg330_board_check_open (device, error))
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
  g_rec_mutex_lock (&board->lock);
  run = select_run (device, board, addr, size, error);
  ok = run != NULL && launch_locked (device, board, addr, size, run, error);
  g_rec_mutex_unlock (&board->lock);
  return ok;
}

/* ---- the simulator's API: binding ---------------------------------------------------- */

gboolean
zg330_sim_bind_hardop (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, const Zg330HardopExec *exec,
                       gpointer user_data, GDestroyNotify destroy, GError **error)
{
  const Zg330BoardClass *k = zg330_board_get_class (device);

  g_return_val_if_fail (k != NULL, FALSE);
  g_return_val_if_fail (exec != NULL, FALSE);
  if (k->exec_refusal != NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE, "device %s: %s", xrt_device_get_url (device),
                   k->exec_refusal);
      return FALSE;
    }
  return bind_hardop (device, instr_addr, instr_bytes, exec, NULL, user_data, destroy, error);
}

gboolean
zg330_sim_bind_hardop_call (XrtDevice *device, guint64 instr_addr, guint64 instr_bytes, gboolean merged,
                            Zg330HardopPrepareFunc prepare, gpointer user_data, GDestroyNotify destroy,
                            GError **error)
{
  Zg330HardopExec exec = { call_binding_run, merged };

  g_return_val_if_fail (prepare != NULL, FALSE);
  g_return_val_if_fail (zg330_board_get_class (device) != NULL, FALSE);
  return bind_hardop (device, instr_addr, instr_bytes, &exec, prepare, user_data, destroy, error);
}

guint
zg330_sim_unbind_range (XrtDevice *device, guint64 addr, guint64 size)
{
  g_autoptr (GPtrArray) removed = NULL;
  Zg330Board *board;

  g_return_val_if_fail (zg330_board_get_class (device) != NULL, 0);
  if (size == 0)
    return 0;
  /* (a socket board drops its copies when the next launch over these addresses says what
   * is bound) */
  board = zg330_board_of (device);
  removed = g_ptr_array_new_with_free_func (zg330_binding_unref);
  g_rec_mutex_lock (&board->lock);
  for (guint i = 0; i < board->bindings->len;)
    {
      Zg330Binding *b = board->bindings->pdata[i];
      if (ranges_overlap (addr, size, b->addr, b->bytes))
        g_ptr_array_add (removed, g_ptr_array_steal_index (board->bindings, i));
      else
        i++;
    }
  g_rec_mutex_unlock (&board->lock);
  /* destroy notifies run here, outside the lock */
  return removed->len;
}

guint
zg330_sim_get_n_bindings (XrtDevice *device)
{
  Zg330Board *board;
  guint n;

  g_return_val_if_fail (zg330_board_get_class (device) != NULL, 0);
  board = zg330_board_of (device);
  g_rec_mutex_lock (&board->lock);
  n = board->bindings->len;
  g_rec_mutex_unlock (&board->lock);
  return n;
}
