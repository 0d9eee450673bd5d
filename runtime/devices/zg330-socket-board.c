/* zg330-socket-board.c — socket://NAME@HOST:PORT: a simulated board in a `zhuge-board`
 * process, one implementation of the board type (zg330-board-private.h; the public API is the
 * base's, zg330-board.c, and so is the state both boards keep): the regions' allocators stay
 * in this process, the bytes, registers and launches go over the wire (zg330-wire.h). */
#include "devices/zg330-board-private.h"
#include "devices/zg330-remote.h"
#include "devices/zg330-wire-client.h"
#include "devices/zg330-wire.h"

#include <gio/gio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>

#define CLOSE_WAIT_MS 1000

/* Outlives its device while a region's store holds it (refcounted). */
typedef struct {
  Zg330Board          base;         /* first: the class and the state both boards keep (the
                                     * board lock also guards the bindings' sent calls) */
  gint                ref_count;
  char               *url;
  char               *where;        /* HOST:PORT */
  char               *kind;         /* the board's kind, from HELLO */
  XrtDevice          *device;       /* borrowed; NULL once the device is finalized */

  Zg330WireClient     wire;         /* the connection (its io lock also guards @device) */
} Remote;

static const XrtDeviceClass remote_class;

/* ---- bookkeeping ------------------------------------------------------------------ */

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
  if (r->base.profile != NULL)
    zg330_board_clear (&r->base);
  g_mutex_clear (&r->wire.io);
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

/* The board hears of a what-if before the base's copy follows. */
static gboolean
socket_set_timing_field (XrtDevice *device, const char *field, double value, GError **error)
{
  Zg330WireRequest req = { .type = ZG330_WIRE_SET_FIELD, .field = (char *) field, .fvalue = value };

  return exchange_simple (remote_of (device), "profile what-if", &req, error);
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
socket_read_reg (XrtDevice *device, guint32 cid, guint32 rid, guint32 offset, guint32 *value, GError **error)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_REG_READ, .cid = cid, .rid = rid, .reg = offset };
  Zg330WireReply rep;
  g_autofree char *what = g_strdup_printf ("register read at 0x%x", offset);

  if (!zg330_board_check_open (device, error) || !exchange (r, what, &req, &rep, error))
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

  if (!zg330_board_check_open (device, error))
    return FALSE;
  if (offset == ZG330_REG_RUN_START && value != 0)
    {
      /* the start register launches what base/size say: the launch carries the bindings */
      guint32 base = 0, size = 0;
      return socket_read_reg (device, cid, rid, ZG330_REG_RUN_BASE, &base, error)
             && socket_read_reg (device, cid, rid, ZG330_REG_RUN_SIZE, &size, error)
             && zg330_board_icore_calc (device, base, size, error);
    }
  return exchange_simple (r, what, &req, error);
}

/* The launch: the bindings' calls go with it (those the board does not hold yet), the board
 * runs them and answers with the launch's statistics. */
static gboolean
socket_launch (XrtDevice *device, guint64 addr, guint64 size, GPtrArray *run, Zg330LaunchStats *stats,
               gboolean *ran, GError **error)
{
  Remote *r = remote_of (device);
  g_autoptr (GPtrArray) encoded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *what = g_strdup_printf ("icoreCalc(0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT ")", addr, size);
  Zg330WireRequest req = { .type = ZG330_WIRE_ICORE_CALC, .addr = addr, .size = size };
  Zg330WireReply rep;
  gboolean ok;

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
      Zg330Binding *b = run->pdata[i];
      Zg330WireBinding wb = { b->addr, b->bytes, b->exec.merged, TRUE, { 0 } };
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
      g_rec_mutex_lock (&r->base.lock);
      if (b->sent != NULL && g_bytes_equal (b->sent, enc))
        {
          wb.has_call = FALSE;
          zg330_hardop_call_clear (&wb.call);
        }
      g_rec_mutex_unlock (&r->base.lock);
      g_ptr_array_add (encoded, enc);
      g_array_append_val (req.bindings, wb);
    }

  ok = exchange (r, what, &req, &rep, error);
  zg330_wire_request_clear (&req);
  g_rec_mutex_lock (&r->base.lock);
  for (guint i = 0; i < run->len; i++)
    {
      Zg330Binding *b = run->pdata[i];
      g_clear_pointer (&b->sent, g_bytes_unref);
      /* the board took the bindings when it answered the launch (even a failed one) */
      if (ok)
        b->sent = g_bytes_ref (encoded->pdata[i]);
    }
  g_rec_mutex_unlock (&r->base.lock);
  if (!ok)
    return FALSE;
  *stats = rep.stats;
  *ran = TRUE;
  if (!rep.ok)
    {
      g_set_error (error, XRT_ERROR, (gint) rep.code, "%s", rep.message ? rep.message : "the launch failed");
      zg330_wire_reply_clear (&rep);
      return FALSE;
    }
  zg330_wire_reply_clear (&rep);
  return TRUE;
}

/* The board hears of a timer or profiler chunk (the base checked it). */
static gboolean
socket_config_chunk (XrtDevice *device, gboolean profiler, XrtMemChunk *chunk, GError **error)
{
  Zg330WireRequest req = { .type = ZG330_WIRE_CONFIG_TIMER, .which = profiler ? 1 : 0 };

  if (chunk)
    {
      req.addr = xrt_mem_chunk_get_addr (chunk);
      req.size = xrt_mem_chunk_get_size (chunk);
    }
  return exchange_simple (remote_of (device), profiler ? "configProfiler" : "configTimer", &req, error);
}

/* The board hears of a master core (the base checked it is in the grid). */
static gboolean
socket_set_master_cid (XrtDevice *device, guint cid, GError **error)
{
  Zg330WireRequest req = { .type = ZG330_WIRE_SET_MASTER, .cid = cid };

  return exchange_simple (remote_of (device), "setMasterCID", &req, error);
}

/* ---- device class ----------------------------------------------------------------- */

static void
klass_close (XrtDevice *device)
{
  Remote *r = remote_of (device);
  Zg330WireRequest req = { .type = ZG330_WIRE_CLOSE };
  Zg330WireReply rep;

  zg330_board_release (&r->base);
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
  zg330_board_release (&r->base);
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
    zg330_board_forget_launch (&r->base);
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
                          zg330_sim_get_n_bindings (device), sent, received);
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
  g_hash_table_insert (out, g_strdup ("fpga_version"), g_strdup_printf ("0x%08x", r->base.profile->fpga_version));
  g_hash_table_insert (out, g_strdup ("profile"), g_strdup (r->base.profile->source));
}

/* A register offset of the XrtDevice API: the protocol carries 32 bits. */
static gboolean
reg_offset_fits (XrtDevice *device, guint64 addr, GError **error)
{
  if (addr > G_MAXUINT32)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s: no register at offset 0x%" G_GINT64_MODIFIER "x",
                   xrt_device_get_url (device), addr);
      return FALSE;
    }
  return TRUE;
}

static gboolean
klass_read_reg (XrtDevice *device, guint64 addr, guint32 *value, GError **error)
{
  return reg_offset_fits (device, addr, error)
         && socket_read_reg (device, ZG330_WIRE_MASTER_CORE, ZG330_WIRE_MASTER_CORE, (guint32) addr, value, error);
}

static gboolean
klass_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  return reg_offset_fits (device, addr, error)
         && socket_write_reg (device, ZG330_WIRE_MASTER_CORE, ZG330_WIRE_MASTER_CORE, (guint32) addr, value, error);
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
  .exec_refusal = "a run callback cannot cross to the board process; bind the hardop as a call "
                  "(zg330_sim_bind_hardop_call)",
  .launch_unlocked = TRUE,
  .set_timing_field = socket_set_timing_field,
  .config_chunk = socket_config_chunk,
  .set_master_cid = socket_set_master_cid,
  .launch = socket_launch,
  .get_etm_pages = socket_get_etm_pages,
  .read_reg = socket_read_reg,
  .write_reg = socket_write_reg,
  .counter = socket_counter,
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
  g_autoptr (Zg330Profile) profile = NULL;
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
  r->ref_count = 1;
  r->url = g_strdup (url);
  r->where = g_strdup (at + 1);
  r->wire.url = r->url;
  r->wire.where = r->where;
  g_mutex_init (&r->wire.io);
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
  profile = zg330_profile_load_from_data (rep.profile_json, strlen (rep.profile_json), url, &local);
  zg330_wire_reply_clear (&rep);
  if (profile == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "device %s: the board's profile: %s", url, local->message);
      remote_unref (r);
      return NULL;
    }
  zg330_board_init (&r->base, &socket_board_class, g_steal_pointer (&profile));

  device = xrt_device_new (&remote_class, url, r);
  r->device = device;
  s = g_new0 (RStore, 1);
  s->r = remote_ref (r);
  s->region = 0;
  etm = xrt_mem_region_new_device ("ETM", r->base.profile->etm_base, r->base.profile->etm_bytes, &rstore_ops, s, rstore_free);
  s = g_new0 (RStore, 1);
  s->r = remote_ref (r);
  s->region = 1;
  ocm = xrt_mem_region_new_device ("OCM", 0, r->base.profile->ocm_bytes, &rstore_ops, s, rstore_free);
  /* with the board's own buffers, as the simulated board has them (same addresses both ways) */
  zg330_board_add_regions (device, etm, ocm);
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
