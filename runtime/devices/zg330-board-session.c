/* zg330-board-session.c — one client session on a simulated board (the server side of zg330-wire.h). */
#include "devices/zg330-board-session.h"
#include "base/zw-checked.h"

#include <string.h>

/* A call the client bound at an instruction address. */
typedef struct {
  gint            ref_count;
  guint64         addr, bytes;
  gboolean        merged;
  Zg330HardopCall call;
} BoardCall;

struct _Zg330BoardSession {
  char         *kind;
  Zg330Profile *profile;
  XrtDevice    *device;       /* NULL before HELLO */
  GHashTable   *calls;        /* guint64* addr -> BoardCall (a reference) */
  XrtMemChunk  *chunks[2];    /* timer, profiler */
  GCancellable *cancellable;  /* cancels the running launch (the client left) */
  gboolean      closed;
};

static BoardCall *
board_call_ref (BoardCall *c)
{
  g_atomic_int_inc (&c->ref_count);
  return c;
}

static void
board_call_unref (gpointer data)
{
  BoardCall *c = data;

  if (!g_atomic_int_dec_and_test (&c->ref_count))
    return;
  zg330_hardop_call_clear (&c->call);
  g_free (c);
}

Zg330BoardSession *
zg330_board_session_new (const char *kind, const Zg330Profile *profile)
{
  Zg330BoardSession *s = g_new0 (Zg330BoardSession, 1);

  s->kind = g_strdup (kind);
  s->profile = zg330_profile_copy (profile);
  s->calls = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, board_call_unref);
  s->cancellable = g_cancellable_new ();
  return s;
}

void
zg330_board_session_free (Zg330BoardSession *s)
{
  if (s == NULL)
    return;
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&s->chunks[i], xrt_mem_chunk_unref);
  if (s->device)
    {
      xrt_device_close (s->device);
      xrt_device_unref (s->device);
    }
  g_hash_table_unref (s->calls);
  g_object_unref (s->cancellable);
  zg330_profile_free (s->profile);
  g_free (s->kind);
  g_free (s);
}

gboolean
zg330_board_session_closed (Zg330BoardSession *s)
{
  return s->closed;
}

void
zg330_board_session_cancel (Zg330BoardSession *s)
{
  g_cancellable_cancel (s->cancellable);
}

static void
reply_error (Zg330WireReply *rep, const GError *error, const char *fallback)
{
  zg330_wire_reply_clear (rep);
  rep->type = ZG330_WIRE_ERROR;
  rep->code = error != NULL && error->domain == XRT_ERROR ? (guint32) error->code : XRT_ERROR_DEVICE;
  rep->message = g_strdup (error != NULL ? error->message : fallback);
}

static void
reply_errorf (Zg330WireReply *rep, XrtError code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static void
reply_errorf (Zg330WireReply *rep, XrtError code, const char *fmt, ...)
{
  va_list ap;

  zg330_wire_reply_clear (rep);
  rep->type = ZG330_WIRE_ERROR;
  rep->code = code;
  va_start (ap, fmt);
  rep->message = g_strdup_vprintf (fmt, ap);
  va_end (ap);
}

/* The client's URL as a label for messages: printable ASCII only, else a stand-in. */
static char *
label_of (const char *name, const char *kind)
{
  if (name != NULL && name[0] != '\0')
    {
      gboolean ok = TRUE;
      for (const char *p = name; *p; p++)
        ok &= g_ascii_isprint (*p);
      if (ok)
        return g_strdup (name);
    }
  return g_strdup_printf ("socket://%s", kind);
}

static void
handle_hello (Zg330BoardSession *s, const Zg330WireRequest *req, Zg330WireReply *rep)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  Zg330Profile *profile;

  if (s->device != NULL)
    {
      reply_errorf (rep, XRT_ERROR_DEVICE, "hello: the session has already begun");
      return;
    }
  if (req->version != ZG330_WIRE_VERSION)
    {
      reply_errorf (rep, XRT_ERROR_NOT_AVAILABLE,
                    "hello: the client speaks protocol version %u, this board speaks version %u", req->version,
                    ZG330_WIRE_VERSION);
      return;
    }
  label = label_of (req->name, s->kind);
  profile = zg330_profile_copy (s->profile);
  if (g_ascii_strcasecmp (s->kind, "buyi") == 0)
    {
      g_free (profile->chip);
      profile->chip = g_strdup ("Buyi");
    }
  s->device = zg330_sim_open (profile, label, &error);
  zg330_profile_free (profile);
  if (s->device == NULL)
    {
      reply_error (rep, error, "hello: the board could not start");
      return;
    }
  zg330_sim_set_cancellable (s->device, s->cancellable);
  rep->type = ZG330_WIRE_HELLO;
  rep->version = ZG330_WIRE_VERSION;
  rep->board = g_strdup (s->kind);
  rep->profile_json = zg330_profile_to_json (zg330_sim_get_profile (s->device));
  rep->max_payload = ZG330_WIRE_MAX_PAYLOAD;
  if (strlen (rep->profile_json) > ZG330_WIRE_MAX_PROFILE)
    reply_errorf (rep, XRT_ERROR_PROFILE, "hello: the board's profile is larger than the protocol carries");
}

static XrtMemRegion *
region_of (Zg330BoardSession *s, guint8 region)
{
  return xrt_device_get_mem_region (s->device, region == 1 ? "OCM" : "ETM", NULL);
}

/* The absolute address of [offset, offset + length) of @region, checked. */
static gboolean
region_addr (Zg330BoardSession *s, guint8 region, guint64 offset, guint64 length, XrtMemRegion **r, guint64 *addr,
             Zg330WireReply *rep, const char *what)
{
  XrtMemRegion *reg = region_of (s, region);
  guint64 base = xrt_mem_region_get_base (reg);
  XrtMemRegionInfo info;

  xrt_mem_manager_get_info (xrt_mem_region_get_manager (reg), &info);
  if (!zw_u64_add (base, offset, addr) || !zw_range_inside (*addr, length, base, info.size))
    {
      reply_errorf (rep, XRT_ERROR_OUT_OF_RANGE, "%s: [offset 0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                    ") is outside the %s region (%" G_GUINT64_FORMAT " bytes)", what, offset, length,
                    xrt_mem_region_get_name (reg), info.size);
      return FALSE;
    }
  *r = reg;
  return TRUE;
}

static gboolean
board_prepare (XrtDevice *device, gpointer user_data, Zg330HardopCall *call, GError **error)
{
  BoardCall *c = user_data;

  (void) device;
  (void) error;
  zg330_hardop_call_copy (&c->call, call);
  return TRUE;
}

static void
handle_icore (Zg330BoardSession *s, const Zg330WireRequest *req, Zg330WireReply *rep)
{
  g_autoptr (GPtrArray) next = g_ptr_array_new_with_free_func (board_call_unref);
  g_autoptr (GError) error = NULL;
  GHashTableIter iter;
  gpointer key, value;

  /* the calls the launch's bindings run: new ones, or those the board holds ("keep") */
  for (guint i = 0; i < req->bindings->len; i++)
    {
      const Zg330WireBinding *wb = &g_array_index (req->bindings, Zg330WireBinding, i);
      BoardCall *c;

      if (wb->has_call)
        {
          c = g_new0 (BoardCall, 1);
          c->ref_count = 1;
          zg330_hardop_call_copy (&wb->call, &c->call);
        }
      else
        {
          BoardCall *held = g_hash_table_lookup (s->calls, &wb->addr);
          if (held == NULL || held->bytes != wb->bytes)
            {
              reply_errorf (rep, XRT_ERROR_UNBOUND, "icoreCalc: binding 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT
                            " bytes) says keep, but the board holds no call there", wb->addr, wb->bytes);
              return;
            }
          c = g_new0 (BoardCall, 1);
          c->ref_count = 1;
          zg330_hardop_call_copy (&held->call, &c->call);
        }
      c->addr = wb->addr;
      c->bytes = wb->bytes;
      c->merged = wb->merged;
      g_ptr_array_add (next, c);
    }
  /* the launch's range now holds exactly these bindings */
  zg330_sim_unbind_range (s->device, req->addr, req->size);
  g_hash_table_iter_init (&iter, s->calls);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      BoardCall *c = value;
      if (c->addr >= req->addr && c->addr - req->addr < req->size)
        g_hash_table_iter_remove (&iter);
    }
  for (guint i = 0; i < next->len; i++)
    {
      BoardCall *c = next->pdata[i];
      guint64 *k;

      if (!zg330_sim_bind_hardop_call (s->device, c->addr, c->bytes, c->merged, board_prepare, board_call_ref (c),
                                       board_call_unref, &error))
        {
          board_call_unref (c);
          zg330_sim_unbind_range (s->device, req->addr, req->size);
          reply_error (rep, error, "icoreCalc: binding failed");
          return;
        }
      k = g_new (guint64, 1);
      *k = c->addr;
      g_hash_table_replace (s->calls, k, board_call_ref (c));
    }
  rep->type = ZG330_WIRE_ICORE_CALC;
  rep->ok = zg330_device_icore_calc (s->device, req->addr, req->size, &error);
  zg330_sim_get_last_launch (s->device, &rep->stats);
  if (!rep->ok)
    {
      rep->code = error->domain == XRT_ERROR ? (guint32) error->code : XRT_ERROR_EXEC;
      rep->message = g_strdup (error->message);
    }
}

static void
handle_config_timer (Zg330BoardSession *s, const Zg330WireRequest *req, Zg330WireReply *rep)
{
  g_autoptr (GError) error = NULL;
  XrtMemChunk *chunk = NULL;
  gboolean ok;

  /* the host's allocator placed the chunk; the board takes those bytes for its records */
  g_clear_pointer (&s->chunks[req->which], xrt_mem_chunk_unref);
  if (req->size > 0)
    {
      chunk = xrt_mem_region_malloc_at (region_of (s, 0), req->addr, req->size, TRUE, &error);
      if (chunk == NULL)
        {
          reply_error (rep, error, "configTimer failed");
          return;
        }
    }
  ok = req->which == 0 ? zg330_device_config_timer (s->device, chunk, &error)
                       : zg330_device_config_profiler (s->device, chunk, &error);
  if (!ok)
    {
      g_clear_pointer (&chunk, xrt_mem_chunk_unref);
      reply_error (rep, error, "configTimer failed");
      return;
    }
  s->chunks[req->which] = chunk;
  rep->type = ZG330_WIRE_CONFIG_TIMER;
}

void
zg330_board_session_handle (Zg330BoardSession *s, const Zg330WireRequest *req, Zg330WireReply *rep)
{
  g_autoptr (GError) error = NULL;
  const char *what = zg330_wire_type_to_string (req->type);
  XrtMemRegion *region = NULL;
  guint64 addr = 0;
  gboolean ok = TRUE;

  memset (rep, 0, sizeof *rep);
  if (req->type == ZG330_WIRE_HELLO)
    {
      handle_hello (s, req, rep);
      return;
    }
  if (s->device == NULL)
    {
      reply_errorf (rep, XRT_ERROR_DEVICE, "%s: the session has not begun (HELLO first)", what);
      return;
    }
  if (s->closed)
    {
      reply_errorf (rep, XRT_ERROR_CLOSED, "%s: the session was closed", what);
      return;
    }
  rep->type = req->type;
  switch (req->type)
    {
    case ZG330_WIRE_MEM_READ:
      if (!region_addr (s, req->region, req->offset, req->length, &region, &addr, rep, what))
        return;
      rep->data = g_malloc (MAX (req->length, 1));
      rep->length = req->length;
      ok = xrt_mem_region_read (region, addr, rep->data, req->length, &error);
      break;
    case ZG330_WIRE_MEM_WRITE:
      if (!region_addr (s, req->region, req->offset, req->length, &region, &addr, rep, what))
        return;
      ok = xrt_mem_region_write (region, addr, req->data, req->length, &error);
      break;
    case ZG330_WIRE_REG_READ:
      if (req->cid == ZG330_WIRE_MASTER_CORE)
        ok = xrt_device_read_reg (s->device, req->reg, &rep->value, &error);
      else
        ok = zg330_device_read_reg (s->device, req->cid, req->rid, req->reg, &rep->value, &error);
      break;
    case ZG330_WIRE_REG_WRITE:
      if (req->cid == ZG330_WIRE_MASTER_CORE)
        ok = xrt_device_write_reg (s->device, req->reg, req->value, &error);
      else
        ok = zg330_device_write_reg (s->device, req->cid, req->rid, req->reg, req->value, &error);
      break;
    case ZG330_WIRE_ICORE_CALC:
      handle_icore (s, req, rep);
      return;
    case ZG330_WIRE_TIMER_READ:
      {
        guint32 timer = 0;
        ok = xrt_device_read_reg (s->device, ZG330_REG_TIMER_CNT, &timer, &error)
             && xrt_device_read_reg (s->device, ZG330_REG_LAYER_CNT, &rep->layer_count, &error)
             && xrt_device_read_reg (s->device, ZG330_REG_STATE, &rep->state, &error);
        rep->timer = timer;
        rep->master_cid = zg330_device_get_master_cid (s->device);
        break;
      }
    case ZG330_WIRE_CONFIG_TIMER:
      handle_config_timer (s, req, rep);
      return;
    case ZG330_WIRE_RESET:
      ok = xrt_device_reset (s->device, (int) req->level, &error);
      break;
    case ZG330_WIRE_SET_FIELD:
      ok = zg330_sim_set_timing_field (s->device, req->field, req->fvalue, &error);
      break;
    case ZG330_WIRE_SET_MASTER:
      ok = zg330_device_set_master_cid (s->device, req->cid, &error);
      break;
    case ZG330_WIRE_STATUS:
      {
        GString *text = g_string_new (NULL);
        xrt_device_show_status (s->device, (int) req->level, text);
        if (text->len > ZG330_WIRE_MAX_STATUS)
          {
            const char *end = g_utf8_find_prev_char (text->str, text->str + ZG330_WIRE_MAX_STATUS);
            g_string_truncate (text, end ? (gsize) (end - text->str) : 0);
          }
        rep->text = g_string_free (text, FALSE);
        rep->etm_pages = zg330_sim_get_etm_pages (s->device);
        break;
      }
    case ZG330_WIRE_CLOSE:
      s->closed = TRUE;
      break;
    default:
      reply_errorf (rep, XRT_ERROR_DEVICE, "request type %u is not one this board answers", req->type);
      return;
    }
  if (!ok)
    reply_error (rep, error, "the request failed");
}

GByteArray *
zg330_board_encode_reply (guint16 request_type, Zg330WireReply *rep, guint16 *frame_type)
{
  g_autoptr (GError) error = NULL;
  GByteArray *out = zg330_wire_encode_reply (request_type, rep);
  Zg330WireReply check;

  *frame_type = rep->type == ZG330_WIRE_ERROR || rep->type == ZG330_WIRE_BUSY
                  ? rep->type : (guint16) (request_type | ZG330_WIRE_REPLY);
  /* what the board sends is held to the bounds the client's decoder holds it to */
  if (out->len <= ZG330_WIRE_MAX_PAYLOAD
      && zg330_wire_decode_reply (request_type, *frame_type, out->data, out->len, &check, &error))
    {
      zg330_wire_reply_clear (&check);
      return out;
    }
  g_byte_array_unref (out);
  reply_errorf (rep, XRT_ERROR_DEVICE, "%s: the board's reply is outside the protocol's bounds (%s); it was not sent",
                zg330_wire_type_to_string (request_type), error ? error->message : "too large");
  *frame_type = ZG330_WIRE_ERROR;
  return zg330_wire_encode_reply (request_type, rep);
}
