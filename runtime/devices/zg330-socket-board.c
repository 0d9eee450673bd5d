/* zg330-socket-board.c — socket://NAME@HOST:PORT: a simulated board in a `zhuge-board`
 * process, one implementation of the board type (zg330-board-private.h; the public API is the
 * base's, zg330-board.c): the regions' allocators and the bindings stay here, the bytes,
 * registers and launches go over the wire (zg330-wire.h). */
#include "devices/zg330-board-private.h"
#include "devices/zg330-remote.h"
#include "devices/zg330-wire-client.h"
#include "devices/zg330-wire.h"
#include "base/zw-checked.h"

#include <gio/gio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>

#define HOST_CAPACITY (G_GUINT64_CONSTANT (1) << 40)
#define CLOSE_WAIT_MS 1000

typedef struct {
  gint                   ref_count;
  guint64                addr;
  guint64                bytes;
  gboolean               merged;
  Zg330HardopPrepareFunc prepare;
  gpointer               user_data;
  GDestroyNotify         destroy;
  GBytes                *sent;      /* the call the board holds for this binding, or NULL */
} RBinding;

typedef struct {
  Zg330Board          base;         /* first: the board class */
  gint                ref_count;
  char               *url;
  char               *where;        /* HOST:PORT */
  XrtDevice          *device;       /* borrowed; NULL once the device is finalized */

  Zg330WireClient     wire;         /* the connection (its io lock also guards @device) */

  GMutex              state;        /* what follows */
  Zg330Profile       *profile;
  char               *kind;
  GPtrArray          *bindings;     /* RBinding, sorted by addr, disjoint */
  gboolean            have_launch;
  Zg330LaunchStats    last;
  guint               master_cid;
  XrtMemChunk        *timer_chunk;
  XrtMemChunk        *profiler_chunk;
  XrtMemRegion       *etm;          /* borrowed: the device holds the regions */
} Remote;

static const XrtDeviceClass remote_class;
static gboolean socket_icore_calc (XrtDevice *device, guint64 addr, guint64 size, GError **error);

/* ---- bookkeeping ------------------------------------------------------------------ */

static RBinding *
rbinding_ref (RBinding *b)
{
  g_atomic_int_inc (&b->ref_count);
  return b;
}

static void
rbinding_unref (gpointer data)
{
  RBinding *b = data;

  if (!g_atomic_int_dec_and_test (&b->ref_count))
    return;
  if (b->destroy)
    b->destroy (b->user_data);
  g_clear_pointer (&b->sent, g_bytes_unref);
  g_free (b);
}

static Remote *
remote_ref (Remote *r)
{
  g_atomic_int_inc (&r->ref_count);
  return r;
}

static void
remote_unref (gpointer data)
{
  Remote *r = data;

  if (!g_atomic_int_dec_and_test (&r->ref_count))
    return;
  g_clear_object (&r->wire.conn);
  r->wire.sock = NULL;
  g_free (r->wire.broken);
  g_free (r->url);
  g_free (r->where);
  g_free (r->kind);
  g_clear_pointer (&r->profile, zg330_profile_free);
  g_clear_pointer (&r->bindings, g_ptr_array_unref);
  g_clear_pointer (&r->timer_chunk, xrt_mem_chunk_unref);
  g_clear_pointer (&r->profiler_chunk, xrt_mem_chunk_unref);
  g_mutex_clear (&r->wire.io);
  g_mutex_clear (&r->state);
  g_free (r);
}

gboolean
zg330_remote_is_remote (XrtDevice *device)
{
  return device != NULL && xrt_device_get_class (device) == &remote_class;
}

static Remote *
remote_of (XrtDevice *device)
{
  return xrt_device_get_impl (device);
}

static guint64
wait_ms_of (Remote *r)
{
  return r->device != NULL ? xrt_device_get_wait_time (r->device) : 10000;
}

static gboolean
exchange (Remote *r, const char *what, const Zg330WireRequest *req, Zg330WireReply *rep, GError **error)
{
  return zg330_wire_client_exchange (&r->wire, what, req, rep, wait_ms_of (r), error);
}

/* Sends @req and wants an empty reply. */
static gboolean
exchange_simple (Remote *r, const char *what, const Zg330WireRequest *req, GError **error)
{
  Zg330WireReply rep;

  if (!exchange (r, what, req, &rep, error))
    return FALSE;
  zg330_wire_reply_clear (&rep);
  return TRUE;
}

void
zg330_remote_get_traffic (XrtDevice *device, guint64 *sent, guint64 *received)
{
  g_return_if_fail (zg330_remote_is_remote (device));
  zg330_wire_client_get_traffic (&remote_of (device)->wire, sent, received);
}

/* ---- stores ------------------------------------------------------------------------ */

typedef struct {
  Remote *r;
  guint8  region;   /* 0 ETM, 1 OCM */
} RStore;

static void
rstore_free (gpointer data)
{
  RStore *s = data;

  remote_unref (s->r);
  g_free (s);
}

static gboolean
rstore_read (gpointer data, guint64 offset, gpointer dest, gsize bytes, GError **error)
{
  RStore *s = data;

  return zg330_wire_client_mem_read (&s->r->wire, s->region, offset, dest, bytes, wait_ms_of (s->r), error);
}

static gboolean
rstore_write (gpointer data, guint64 offset, gconstpointer src, gsize bytes, GError **error)
{
  RStore *s = data;

  return zg330_wire_client_mem_write (&s->r->wire, s->region, offset, src, bytes, wait_ms_of (s->r), error);
}

static const XrtMemStoreOps rstore_ops = { rstore_read, rstore_write, NULL };

/* ---- ZG330Device API on a remote board -------------------------------------------- */

static const Zg330Profile *
socket_get_profile (XrtDevice *device)
{
  return remote_of (device)->profile;
}

static gboolean
socket_set_timing_field (XrtDevice *device, const char *field, double value, GError **error)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_SET_FIELD, .field = (char *) field, .fvalue = value };
  gboolean ok;

  if (!exchange_simple (r, "profile what-if", &req, error))
    return FALSE;
  /* the board took it: the host's copy follows (host-op costs and ms conversions read it) */
  g_mutex_lock (&r->state);
  ok = zg330_profile_set_field (r->profile, field, value, error);
  g_mutex_unlock (&r->state);
  return ok;
}

static guint
lower_bound (GPtrArray *bindings, guint64 addr)
{
  guint lo = 0, hi = bindings->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (((RBinding *) bindings->pdata[mid])->addr < addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
overlaps (guint64 a, guint64 a_size, guint64 b, guint64 b_size)
{
  return a < b ? b - a < a_size : a - b < b_size;
}

static gboolean
socket_bind (XrtDevice *device, guint64 addr, guint64 bytes, gboolean merged, Zg330HardopPrepareFunc prepare,
                   gpointer user_data, GDestroyNotify destroy, GError **error)
{
  Remote *r = remote_of (device);
  RBinding *b;
  guint idx;

  if (xrt_device_is_closed (device))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CLOSED, "device %s was closed", r->url);
      return FALSE;
    }
  if (bytes == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: cannot bind a hardop at 0x%" G_GINT64_MODIFIER "x: 0 instruction bytes", r->url, addr);
      return FALSE;
    }
  if (!zw_range_inside (addr, bytes, r->profile->etm_base, r->profile->etm_bytes))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_OUT_OF_RANGE,
                   "device %s: hardop instructions [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ") are outside ETM",
                   r->url, addr, bytes);
      return FALSE;
    }
  g_mutex_lock (&r->state);
  idx = lower_bound (r->bindings, addr);
  for (guint i = idx > 0 ? idx - 1 : 0; i < r->bindings->len && i <= idx; i++)
    {
      RBinding *o = r->bindings->pdata[i];
      if (overlaps (addr, bytes, o->addr, o->bytes))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                       "device %s: hardop instructions [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                       ") overlap the hardop bound at [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ")",
                       r->url, addr, bytes, o->addr, o->bytes);
          g_mutex_unlock (&r->state);
          return FALSE;
        }
    }
  b = g_new0 (RBinding, 1);
  b->ref_count = 1;
  b->addr = addr;
  b->bytes = bytes;
  b->merged = merged;
  b->prepare = prepare;
  b->user_data = user_data;
  b->destroy = destroy;
  g_ptr_array_insert (r->bindings, idx, b);
  g_mutex_unlock (&r->state);
  return TRUE;
}

static guint
socket_unbind_range (XrtDevice *device, guint64 addr, guint64 size)
{
  Remote *r = remote_of (device);
  g_autoptr (GPtrArray) removed = g_ptr_array_new_with_free_func (rbinding_unref);

  if (size == 0)
    return 0;
  /* the board drops its copies when the next launch over these addresses says what is bound */
  g_mutex_lock (&r->state);
  for (guint i = 0; i < r->bindings->len;)
    {
      RBinding *b = r->bindings->pdata[i];
      if (overlaps (addr, size, b->addr, b->bytes))
        g_ptr_array_add (removed, g_ptr_array_steal_index (r->bindings, i));
      else
        i++;
    }
  g_mutex_unlock (&r->state);
  return removed->len;
}

static guint
socket_get_n_bindings (XrtDevice *device)
{
  Remote *r = remote_of (device);
  guint n;

  g_mutex_lock (&r->state);
  n = r->bindings->len;
  g_mutex_unlock (&r->state);
  return n;
}

static gboolean
socket_get_last_launch (XrtDevice *device, Zg330LaunchStats *stats)
{
  Remote *r = remote_of (device);
  gboolean have;

  g_return_val_if_fail (stats != NULL, FALSE);
  g_mutex_lock (&r->state);
  have = r->have_launch;
  if (have)
    *stats = r->last;
  else
    memset (stats, 0, sizeof *stats);
  g_mutex_unlock (&r->state);
  return have;
}

static guint
socket_get_etm_pages (XrtDevice *device)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_STATUS, .level = 0 };
  Zg330WireReply rep;
  guint n;

  if (!exchange (r, "status", &req, &rep, NULL))
    return 0;
  n = rep.etm_pages;
  zg330_wire_reply_clear (&rep);
  return n;
}

static gboolean
check_open (Remote *r, XrtDevice *device, GError **error)
{
  if (xrt_device_is_closed (device))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CLOSED, "device %s was closed", r->url);
      return FALSE;
    }
  return TRUE;
}

static gboolean
socket_read_reg (XrtDevice *device, guint32 cid, guint32 rid, guint32 offset, guint32 *value, GError **error)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_REG_READ, .cid = cid, .rid = rid, .reg = offset };
  Zg330WireReply rep;
  g_autofree char *what = g_strdup_printf ("register read at 0x%x", offset);

  if (!check_open (r, device, error) || !exchange (r, what, &req, &rep, error))
    return FALSE;
  *value = rep.value;
  zg330_wire_reply_clear (&rep);
  return TRUE;
}

static gboolean
socket_write_reg (XrtDevice *device, guint32 cid, guint32 rid, guint32 offset, guint32 value, GError **error)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_REG_WRITE, .cid = cid, .rid = rid, .reg = offset, .value = value };
  g_autofree char *what = g_strdup_printf ("register write at 0x%x", offset);

  if (!check_open (r, device, error))
    return FALSE;
  if (offset == ZG330_REG_RUN_START && value != 0)
    {
      /* the start register launches what base/size say: the launch carries the bindings */
      guint32 base = 0, size = 0;
      return socket_read_reg (device, cid, rid, ZG330_REG_RUN_BASE, &base, error)
             && socket_read_reg (device, cid, rid, ZG330_REG_RUN_SIZE, &size, error)
             && socket_icore_calc (device, base, size, error);
    }
  return exchange_simple (r, what, &req, error);
}

static gboolean
socket_icore_calc (XrtDevice *device, guint64 addr, guint64 size, GError **error)
{
  Remote *r = remote_of (device);
  g_autoptr (GPtrArray) run = g_ptr_array_new_with_free_func (rbinding_unref);
  g_autoptr (GPtrArray) encoded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *what = g_strdup_printf ("icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT ")", addr, size);
  Zg330WireRequest req = { .type = ZG330_WIRE_ICORE_CALC, .addr = addr, .size = size };
  Zg330WireReply rep;
  guint idx;
  gboolean ok;

  if (!check_open (r, device, error))
    return FALSE;
  if (xrt_device_take_fault (device, XRT_FAULT_ICORE, "icoreCalc", error)
      || xrt_device_take_fault (device, XRT_FAULT_TIMEOUT, "icoreCalc", error))
    return FALSE;
  if (size == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "device %s: icoreCalc(0x%" G_GINT64_MODIFIER
                   "x, 0): nothing to run", r->url, addr);
      return FALSE;
    }
  g_mutex_lock (&r->state);
  idx = lower_bound (r->bindings, addr);
  for (guint i = idx > 0 ? idx - 1 : 0; i < r->bindings->len; i++)
    {
      RBinding *b = r->bindings->pdata[i];
      if (!overlaps (addr, size, b->addr, b->bytes))
        {
          if (b->addr >= addr)
            break;
          continue;
        }
      if (b->addr < addr || b->bytes > size - (b->addr - addr))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_OVERLAP,
                       "device %s: %s: the hardop bound at [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                       ") straddles the edge of the range", r->url, what, b->addr, b->bytes);
          g_mutex_unlock (&r->state);
          return FALSE;
        }
      g_ptr_array_add (run, rbinding_ref (b));
    }
  if (run->len == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_UNBOUND,
                   "device %s: %s: no hardop is bound at [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
                   "x) (%u bound elsewhere)", r->url, what, addr, addr + size, r->bindings->len);
      g_mutex_unlock (&r->state);
      return FALSE;
    }
  g_mutex_unlock (&r->state);
  if (run->len > ZG330_WIRE_MAX_CALLS)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "device %s: %s: %u hardops in one launch (the "
                   "protocol carries %u)", r->url, what, run->len, ZG330_WIRE_MAX_CALLS);
      return FALSE;
    }

  /* what each binding runs now, and whether the board holds exactly that already */
  req.bindings = g_array_sized_new (FALSE, TRUE, sizeof (Zg330WireBinding), run->len);
  for (guint i = 0; i < run->len; i++)
    {
      RBinding *b = run->pdata[i];
      Zg330WireBinding wb = { b->addr, b->bytes, b->merged, TRUE, { 0 } };
      g_autoptr (GByteArray) bytes = g_byte_array_new ();
      GError *local = NULL;
      GBytes *enc;

      if (!b->prepare (device, b->user_data, &wb.call, &local))
        {
          g_propagate_prefixed_error (error, local, "device %s: %s: hardop at 0x%" G_GINT64_MODIFIER "x (%"
                                      G_GUINT64_FORMAT " bytes): ", r->url, what, b->addr, b->bytes);
          zg330_hardop_call_clear (&wb.call);
          zg330_wire_request_clear (&req);
          return FALSE;
        }
      zg330_wire_put_call (bytes, &wb.call);
      enc = g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
      g_mutex_lock (&r->state);
      if (b->sent != NULL && g_bytes_equal (b->sent, enc))
        {
          wb.has_call = FALSE;
          zg330_hardop_call_clear (&wb.call);
        }
      g_mutex_unlock (&r->state);
      g_ptr_array_add (encoded, enc);
      g_array_append_val (req.bindings, wb);
    }

  ok = exchange (r, what, &req, &rep, error);
  zg330_wire_request_clear (&req);
  g_mutex_lock (&r->state);
  for (guint i = 0; i < run->len; i++)
    {
      RBinding *b = run->pdata[i];
      g_clear_pointer (&b->sent, g_bytes_unref);
      /* the board took the bindings when it answered the launch (even a failed one) */
      if (ok)
        b->sent = g_bytes_ref (encoded->pdata[i]);
    }
  if (ok)
    {
      r->last = rep.stats;
      r->have_launch = TRUE;
    }
  g_mutex_unlock (&r->state);
  if (!ok)
    return FALSE;
  if (!rep.ok)
    {
      g_set_error (error, XRT_ERROR, (gint) rep.code, "%s", rep.message ? rep.message : "the launch failed");
      zg330_wire_reply_clear (&rep);
      return FALSE;
    }
  zg330_wire_reply_clear (&rep);
  return TRUE;
}

static gboolean
socket_config_chunk (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk, GError **error)
{
  Remote *r = remote_of (device);
  const char *what = profiler ? "profiler" : "timer";
  Zg330WireRequest req = { .type = ZG330_WIRE_CONFIG_TIMER, .which = profiler ? 1 : 0 };
  XrtMemChunk *old;

  if (!check_open (r, device, error))
    return FALSE;
  if (chunk && !xrt_mem_chunk_is_on (chunk, r->etm))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_WRONG_REGION,
                   "device %s: the %s chunk must be on this device's ETM (it is on region %s)", r->url, what,
                   xrt_mem_region_get_name (xrt_mem_chunk_get_region (chunk)));
      return FALSE;
    }
  if (chunk && xrt_mem_chunk_is_freed (chunk))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_FREED, "device %s: the %s chunk at 0x%" G_GINT64_MODIFIER "x was freed",
                   r->url, what, xrt_mem_chunk_get_addr (chunk));
      return FALSE;
    }
  if (chunk)
    {
      req.addr = xrt_mem_chunk_get_addr (chunk);
      req.size = xrt_mem_chunk_get_size (chunk);
    }
  if (!exchange_simple (r, profiler ? "configProfiler" : "configTimer", &req, error))
    return FALSE;
  g_mutex_lock (&r->state);
  old = profiler ? r->profiler_chunk : r->timer_chunk;
  if (profiler)
    r->profiler_chunk = chunk ? xrt_mem_chunk_ref (chunk) : NULL;
  else
    r->timer_chunk = chunk ? xrt_mem_chunk_ref (chunk) : NULL;
  g_mutex_unlock (&r->state);
  if (old)
    xrt_mem_chunk_unref (old);
  return TRUE;
}

static XrtMemChunk *
socket_get_timer_chunk (XrtDevice *device)
{
  Remote *r = remote_of (device);
  XrtMemChunk *c;

  g_mutex_lock (&r->state);
  c = r->timer_chunk ? xrt_mem_chunk_ref (r->timer_chunk) : NULL;
  g_mutex_unlock (&r->state);
  return c;
}

static gboolean
socket_set_master_cid (XrtDevice *device, guint cid, GError **error)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_SET_MASTER, .cid = cid };

  if (cid >= r->profile->mpe_cols)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "device %s: master cid %u is outside the %u core columns",
                   r->url, cid, r->profile->mpe_cols);
      return FALSE;
    }
  if (!exchange_simple (r, "setMasterCID", &req, error))
    return FALSE;
  g_mutex_lock (&r->state);
  r->master_cid = cid;
  g_mutex_unlock (&r->state);
  return TRUE;
}

static guint
socket_get_master_cid (XrtDevice *device)
{
  Remote *r = remote_of (device);
  guint cid;

  g_mutex_lock (&r->state);
  cid = r->master_cid;
  g_mutex_unlock (&r->state);
  return cid;
}

/* ---- device class ----------------------------------------------------------------- */

static void
remote_release (Remote *r)
{
  g_autoptr (GPtrArray) bindings = NULL;
  XrtMemChunk *timer, *profiler;

  g_mutex_lock (&r->state);
  bindings = g_steal_pointer (&r->bindings);
  r->bindings = g_ptr_array_new_with_free_func (rbinding_unref);
  timer = g_steal_pointer (&r->timer_chunk);
  profiler = g_steal_pointer (&r->profiler_chunk);
  g_mutex_unlock (&r->state);
  g_clear_pointer (&timer, xrt_mem_chunk_unref);
  g_clear_pointer (&profiler, xrt_mem_chunk_unref);
}

static void
klass_close (XrtDevice *device)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_CLOSE };
  Zg330WireReply rep;

  remote_release (r);
  /* tell the board (briefly: a board that is gone must not hold the caller up) */
  if (zg330_wire_client_exchange (&r->wire, "close", &req, &rep, MIN (wait_ms_of (r), CLOSE_WAIT_MS), NULL))
    zg330_wire_reply_clear (&rep);
  g_mutex_lock (&r->wire.io);
  zg330_wire_client_break (&r->wire, "the device was closed");
  g_mutex_unlock (&r->wire.io);
}

static void
klass_finalize (XrtDevice *device)
{
  Remote *r = remote_of (device);

  if (!xrt_device_is_closed (device))
    klass_close (device);
  remote_release (r);
  g_mutex_lock (&r->wire.io);
  r->device = NULL;
  g_mutex_unlock (&r->wire.io);
  remote_unref (r);
}

static gboolean
klass_reset (XrtDevice *device, int level, GError **error)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_RESET, .level = (guint32) CLAMP (level, 0, 16) };

  if (!exchange_simple (r, "reset", &req, error))
    return FALSE;
  if (level >= 1)
    {
      g_mutex_lock (&r->state);
      r->have_launch = FALSE;
      memset (&r->last, 0, sizeof r->last);
      g_mutex_unlock (&r->state);
    }
  return TRUE;
}

static gboolean
klass_check (XrtDevice *device, int level, GError **error)
{
  guint32 version = 0;

  (void) level;
  return socket_read_reg (device, ZG330_WIRE_MASTER_CORE, ZG330_WIRE_MASTER_CORE, ZG330_REG_VERSION, &version,
                                error);
}

static void
klass_show_status (XrtDevice *device, int level, GString *out)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_STATUS, .level = (guint32) CLAMP (level, 0, 16) };
  Zg330WireReply rep;
  g_autoptr (GError) error = NULL;
  guint64 sent, received;

  zg330_remote_get_traffic (device, &sent, &received);
  g_string_append_printf (out, "  board %s (zhuge-board, protocol %u): %s; %u hardops bound; %" G_GUINT64_FORMAT
                          " bytes sent, %" G_GUINT64_FORMAT " received\n", r->where, ZG330_WIRE_VERSION, r->kind,
                          socket_get_n_bindings (device), sent, received);
  if (exchange (r, "status", &req, &rep, &error))
    {
      g_string_append (out, rep.text);
      zg330_wire_reply_clear (&rep);
    }
  else
    g_string_append_printf (out, "  board status unavailable: %s\n", error->message);
}

static void
klass_version (XrtDevice *device, GHashTable *out)
{
  Remote *r = remote_of (device);

  g_hash_table_insert (out, g_strdup ("device"), g_strdup (r->kind));
  g_hash_table_insert (out, g_strdup ("simulator"), g_strdup_printf ("zhuge-board at %s (protocol %u)", r->where,
                                                                     ZG330_WIRE_VERSION));
  g_hash_table_insert (out, g_strdup ("fpga_version"), g_strdup_printf ("0x%08x", r->profile->fpga_version));
  g_hash_table_insert (out, g_strdup ("profile"), g_strdup (r->profile->source));
}

static gboolean
klass_read_reg (XrtDevice *device, guint64 addr, guint32 *value, GError **error)
{
  if (addr > G_MAXUINT32)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s: no register at offset 0x%" G_GINT64_MODIFIER "x",
                   xrt_device_get_url (device), addr);
      return FALSE;
    }
  return socket_read_reg (device, ZG330_WIRE_MASTER_CORE, ZG330_WIRE_MASTER_CORE, (guint32) addr, value, error);
}

static gboolean
klass_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  if (addr > G_MAXUINT32)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s: no register at offset 0x%" G_GINT64_MODIFIER "x",
                   xrt_device_get_url (device), addr);
      return FALSE;
    }
  return socket_write_reg (device, ZG330_WIRE_MASTER_CORE, ZG330_WIRE_MASTER_CORE, (guint32) addr, value, error);
}

static const XrtDeviceClass remote_class = {
  .type_name = "simulated board over a socket",
  .finalize = klass_finalize,
  .close = klass_close,
  .reset = klass_reset,
  .check = klass_check,
  .show_status = klass_show_status,
  .version = klass_version,
  .read_reg = klass_read_reg,
  .write_reg = klass_write_reg,
};

/* ---- the board's methods ------------------------------------------------------------ */

static Zg330Profile *
socket_dup_profile (XrtDevice *device)
{
  return zg330_profile_copy (socket_get_profile (device));
}

static gboolean
socket_bind_exec (XrtDevice *device, guint64 addr, guint64 bytes, const Zg330HardopExec *exec, gpointer user_data,
                  GDestroyNotify destroy, GError **error)
{
  (void) addr;
  (void) bytes;
  (void) exec;
  (void) user_data;
  (void) destroy;
  g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE,
               "device %s: a run callback cannot cross to the board process; bind the hardop as a call "
               "(zg330_sim_bind_hardop_call)", xrt_device_get_url (device));
  return FALSE;
}

/* A counter of the board (0 when the board cannot be read, as for a cid out of range). */
static guint32
socket_counter (XrtDevice *device, guint cid, guint32 offset)
{
  guint32 v = 0;

  if (!socket_read_reg (device, cid, cid == ZG330_WIRE_MASTER_CORE ? cid : 0, offset, &v, NULL))
    return 0;
  return v;
}

static const Zg330BoardClass socket_board_class = {
  .name = "socket",
  .get_profile = socket_get_profile,
  .dup_profile = socket_dup_profile,
  .set_timing_field = socket_set_timing_field,
  .bind_exec = socket_bind_exec,
  .bind_call = socket_bind,
  .unbind_range = socket_unbind_range,
  .get_n_bindings = socket_get_n_bindings,
  .get_last_launch = socket_get_last_launch,
  .get_etm_pages = socket_get_etm_pages,
  .read_reg = socket_read_reg,
  .write_reg = socket_write_reg,
  .counter = socket_counter,
  .icore_calc = socket_icore_calc,
  .config_chunk = socket_config_chunk,
  .dup_timer_chunk = socket_get_timer_chunk,
  .set_master_cid = socket_set_master_cid,
  .get_master_cid = socket_get_master_cid,
  .set_cancellable = NULL,
};

/* ---- opening ------------------------------------------------------------------------ */

static gboolean
valid_board_name (const char *name)
{
  gsize n = strlen (name);

  if (n == 0 || n > 32)
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
      return FALSE;
  return TRUE;
}

static XrtDevice *
open_socket_board (const char *url, const char *rest, GHashTable *params, GError **error)
{
  g_autofree char *board_kind = NULL;
  g_autofree char *name = NULL;
  g_autoptr (GSocketConnectable) address = NULL;
  g_autoptr (GSocketClient) client = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (XrtMemRegion) etm = NULL;
  g_autoptr (XrtMemRegion) ocm = NULL;
  g_autoptr (XrtMemRegion) host = NULL;
  Zg330WireRequest req = { .type = ZG330_WIRE_HELLO, .version = ZG330_WIRE_VERSION };
  Zg330WireReply rep;
  const char *at = strchr (rest, '@');
  XrtDevice *device;
  Remote *r;
  RStore *s;

  GHashTableIter iter;
  gpointer key;
  const char *token_file;
  g_autofree char *token = NULL;
  g_autofree char *label = NULL;

  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (strcmp (key, "token-file") != 0)
      {
        g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                     "device URL '%s': unknown parameter '%s' (socket://NAME@HOST:PORT takes fault=… and "
                     "token-file=…)", url, (const char *) key);
        return NULL;
      }
  /* a board started with --token-file wants its token at HELLO: from the URL, else the
   * environment */
  token_file = g_hash_table_lookup (params, "token-file");
  if (token_file == NULL)
    token_file = g_getenv ("ZHUGE_BOARD_TOKEN_FILE");
  if (token_file != NULL && token_file[0] != '\0' && !zg330_wire_read_token (token_file, &token, &local))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': %s", url, local->message);
      return NULL;
    }
  if (at == NULL || at == rest || at[1] == '\0')
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                   "device URL '%s': expected socket://NAME@HOST:PORT (e.g. socket://zg330@127.0.0.1:5001)", url);
      return NULL;
    }
  name = g_ascii_strdown (rest, at - rest);
  if (!valid_board_name (name))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                   "device URL '%s': board name '%s' must be 1 to 32 letters, digits, '-' or '_'", url, name);
      return NULL;
    }
  address = g_network_address_parse (at + 1, 0, &local);
  if (address == NULL || g_network_address_get_port (G_NETWORK_ADDRESS (address)) == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': '%s' is not HOST:PORT%s%s", url, at + 1,
                   local ? ": " : "", local ? local->message : "");
      return NULL;
    }

  r = g_new0 (Remote, 1);
  r->base.klass = &socket_board_class;
  r->ref_count = 1;
  r->url = g_strdup (url);
  r->where = g_strdup (at + 1);
  r->wire.url = r->url;
  r->wire.where = r->where;
  g_mutex_init (&r->wire.io);
  g_mutex_init (&r->state);
  r->bindings = g_ptr_array_new_with_free_func (rbinding_unref);
  client = g_socket_client_new ();
  g_socket_client_set_timeout (client, 10);
  /* a board is reached directly: never through a proxy of the desktop's settings */
  g_socket_client_set_enable_proxy (client, FALSE);
  r->wire.conn = g_socket_client_connect (client, address, NULL, &local);
  if (r->wire.conn == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "device %s: connecting to the board at %s: %s", url, r->where,
                   local->message);
      remote_unref (r);
      return NULL;
    }
  r->wire.sock = g_socket_connection_get_socket (r->wire.conn);
  g_socket_set_blocking (r->wire.sock, FALSE);
  g_socket_set_option (r->wire.sock, IPPROTO_TCP, TCP_NODELAY, 1, NULL);

  /* the board labels its messages with our URL (a label: it never becomes a path; without
   * its parameters when too long for HELLO) */
  label = strlen (url) > 64 ? g_strndup (url, strcspn (url, "?")) : g_strdup (url);
  if (strlen (label) > 64)
    label[64] = '\0';
  req.name = label;
  req.token = token;
  if (!zg330_wire_client_exchange (&r->wire, "hello", &req, &rep, 10000, error))
    {
      remote_unref (r);
      return NULL;
    }
  if (rep.version != ZG330_WIRE_VERSION)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE,
                   "device %s: the board at %s speaks protocol version %u, this runtime speaks version %u", url,
                   r->where, rep.version, ZG330_WIRE_VERSION);
      zg330_wire_reply_clear (&rep);
      remote_unref (r);
      return NULL;
    }
  /* the URL's name is the board's kind, or a label that carries it, as the vendor's users
   * write them (socket://haps-zg330@192.168.124.24:5001) */
  g_free (board_kind);
  board_kind = rep.board ? g_ascii_strdown (rep.board, -1) : NULL;
  if (board_kind == NULL || strstr (name, board_kind) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': the board at %s is a %s board, not '%s' "
                   "(open socket://%s@%s)", url, r->where, rep.board, name, rep.board, r->where);
      zg330_wire_reply_clear (&rep);
      remote_unref (r);
      return NULL;
    }
  r->kind = g_ascii_strdown (rep.board, -1);
  r->profile = zg330_profile_load_from_data (rep.profile_json, strlen (rep.profile_json), url, &local);
  zg330_wire_reply_clear (&rep);
  if (r->profile == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "device %s: the board's profile: %s", url, local->message);
      remote_unref (r);
      return NULL;
    }
  r->master_cid = 1 < r->profile->mpe_cols ? 1 : 0;

  device = xrt_device_new (&remote_class, url, r);
  r->device = device;
  s = g_new0 (RStore, 1);
  s->r = remote_ref (r);
  s->region = 0;
  etm = xrt_mem_region_new_device ("ETM", r->profile->etm_base, r->profile->etm_bytes, &rstore_ops, s, rstore_free);
  s = g_new0 (RStore, 1);
  s->r = remote_ref (r);
  s->region = 1;
  ocm = xrt_mem_region_new_device ("OCM", 0, r->profile->ocm_bytes, &rstore_ops, s, rstore_free);
  host = xrt_mem_region_new_host ("HOST", HOST_CAPACITY);
  r->etm = etm;
  /* the board's own buffers, as the simulated board has them (same addresses both ways) */
  zg330_sim_reserve_board_memory (etm, r->profile);
  xrt_device_add_mem_region (device, etm, TRUE);
  xrt_device_add_mem_region (device, ocm, FALSE);
  xrt_device_add_mem_region (device, host, FALSE);
  return device;
}

static XrtDevice *
open_socket (const char *url, const char *name, GHashTable *params, GError **error)
{
  return open_socket_board (url, name, params, error);
}

__attribute__ ((constructor)) static void
register_socket_boards (void)
{
  zg330_board_register_class (&remote_class);
  xrt_device_register_kind ("socket", NULL,
                            "socket://NAME@HOST:PORT (a board served by zhuge-board, e.g. socket://zg330@127.0.0.1:5001)",
                            open_socket);
}
