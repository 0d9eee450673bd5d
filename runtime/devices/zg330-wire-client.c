/* zg330-wire-client.c — one request and its reply over a board connection, with the
 * client's whole-request wait (zg330-wire-client.h). */
#include "devices/zg330-wire-client.h"

#include <string.h>

void
zg330_wire_client_break (Zg330WireClient *r, const char *why)
{
  if (r->broken == NULL)
    r->broken = g_strdup (why);
  if (r->conn != NULL)
    {
      g_io_stream_close (G_IO_STREAM (r->conn), NULL, NULL);
      g_clear_object (&r->conn);
      r->sock = NULL;
    }
}

typedef enum { IO_OK, IO_TIMEOUT, IO_CLOSED, IO_FAILED } IoStatus;

static IoStatus
wait_for (GSocket *sock, GIOCondition cond, gint64 deadline, char **why)
{
  gint64 left = deadline - g_get_monotonic_time ();
  g_autoptr (GError) local = NULL;

  if (left <= 0)
    return IO_TIMEOUT;
  if (!g_socket_condition_timed_wait (sock, cond, left, NULL, &local))
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        return IO_TIMEOUT;
      *why = g_strdup (local->message);
      return IO_FAILED;
    }
  return IO_OK;
}

static IoStatus
send_all (GSocket *sock, const guint8 *p, gsize n, gint64 deadline, char **why)
{
  while (n > 0)
    {
      g_autoptr (GError) local = NULL;
      gssize k;
      IoStatus st = wait_for (sock, G_IO_OUT, deadline, why);

      if (st != IO_OK)
        return st;
      k = g_socket_send (sock, (const gchar *) p, n, NULL, &local);
      if (k < 0)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            continue;
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE)
              || g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED))
            return IO_CLOSED;
          *why = g_strdup (local->message);
          return IO_FAILED;
        }
      p += k;
      n -= (gsize) k;
    }
  return IO_OK;
}

static IoStatus
recv_all (GSocket *sock, guint8 *p, gsize n, gint64 deadline, char **why)
{
  while (n > 0)
    {
      g_autoptr (GError) local = NULL;
      gssize k;
      IoStatus st = wait_for (sock, G_IO_IN, deadline, why);

      if (st != IO_OK)
        return st;
      k = g_socket_receive (sock, (gchar *) p, n, NULL, &local);
      if (k < 0)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            continue;
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED))
            return IO_CLOSED;
          *why = g_strdup (local->message);
          return IO_FAILED;
        }
      if (k == 0)
        return IO_CLOSED;
      p += k;
      n -= (gsize) k;
    }
  return IO_OK;
}

gboolean
zg330_wire_client_exchange (Zg330WireClient *r, const char *what, const Zg330WireRequest *req, Zg330WireReply *rep, guint64 wait_ms,
                GError **error)
{
  g_autoptr (GByteArray) payload = zg330_wire_encode_request (req);
  guint8 head[ZG330_WIRE_HEADER_BYTES];
  g_autofree char *why = NULL;
  g_autofree guint8 *body = NULL;
  Zg330WireHeader h;
  gint64 start, wait_us, deadline, limit;
  IoStatus st;
  gboolean ok = FALSE;
  GError *local = NULL;

  memset (rep, 0, sizeof *rep);
  g_mutex_lock (&r->io);
  if (r->broken != NULL || r->sock == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE,
                   "device %s: %s: the connection to the board is lost (%s); open the device again", r->url, what,
                   r->broken ? r->broken : "closed");
      g_mutex_unlock (&r->io);
      return FALSE;
    }
  if (payload->len > ZG330_WIRE_MAX_PAYLOAD)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: %s: a request of %u bytes exceeds the protocol's %u", r->url, what, payload->len,
                   ZG330_WIRE_MAX_PAYLOAD);
      g_mutex_unlock (&r->io);
      return FALSE;
    }
  r->seq++;
  zg330_wire_header_encode (head, req->type, r->seq, payload->len);
  start = g_get_monotonic_time ();
  wait_us = (gint64) MIN (wait_ms, (guint64) G_MAXINT32) * 1000;
  deadline = start + wait_us;
  /* the whole request is bounded: only a launch's PROGRESS frames renew the wait, and never
   * past ZG330_WIRE_LAUNCH_WAITS wait times */
  limit = start + wait_us * (req->type == ZG330_WIRE_ICORE_CALC ? ZG330_WIRE_LAUNCH_WAITS : 1);
  st = send_all (r->sock, head, sizeof head, deadline, &why);
  if (st == IO_OK)
    st = send_all (r->sock, payload->data, payload->len, deadline, &why);
  if (st == IO_OK)
    r->sent += sizeof head + payload->len;
  while (st == IO_OK)
    {
      st = recv_all (r->sock, head, sizeof head, deadline, &why);
      if (st != IO_OK)
        break;
      if (!zg330_wire_header_decode (head, &h, &local))
        {
          why = g_strdup_printf ("garbage on the wire: %s", local->message);
          g_clear_error (&local);
          st = IO_FAILED;
          break;
        }
      g_clear_pointer (&body, g_free);
      body = g_malloc (MAX (h.length, 1));
      st = recv_all (r->sock, body, h.length, deadline, &why);
      if (st != IO_OK)
        break;
      r->received += sizeof head + h.length;
      if (h.type == ZG330_WIRE_PROGRESS && h.length == 0 && h.seq == r->seq && req->type == ZG330_WIRE_ICORE_CALC)
        {
          deadline = MIN (g_get_monotonic_time () + wait_us, limit);
          continue;
        }
      if (h.type == ZG330_WIRE_PROGRESS)
        {
          why = g_strdup_printf ("garbage on the wire: a progress frame for %s, which is not a launch",
                                 zg330_wire_type_to_string (req->type));
          st = IO_FAILED;
          break;
        }
      if (h.seq != r->seq && !(h.type == ZG330_WIRE_BUSY && req->type == ZG330_WIRE_HELLO))
        {
          why = g_strdup_printf ("garbage on the wire: a frame for request %u while %u was due", h.seq, r->seq);
          st = IO_FAILED;
          break;
        }
      if (!zg330_wire_decode_reply (req->type, h.type, body, h.length, rep, &local))
        {
          why = g_strdup_printf ("garbage on the wire: %s", local->message);
          g_clear_error (&local);
          st = IO_FAILED;
          break;
        }
      ok = TRUE;
      break;
    }
  if (!ok)
    {
      const char *reason = st == IO_TIMEOUT ? "the board did not answer within the wait time"
                           : st == IO_CLOSED ? "the board closed the connection (is the board process gone?)"
                                             : why ? why : "transport failure";
      g_autofree char *full = st == IO_TIMEOUT && deadline >= limit && limit > start + wait_us
                                ? g_strdup_printf ("the launch did not finish within %u wait times of %" G_GUINT64_FORMAT
                                                   " ms", ZG330_WIRE_LAUNCH_WAITS, wait_ms)
                              : st == IO_TIMEOUT
                                ? g_strdup_printf ("%s of %" G_GUINT64_FORMAT " ms", reason, wait_ms)
                                : g_strdup (reason);
      g_set_error (error, XRT_ERROR, st == IO_TIMEOUT ? XRT_ERROR_TIMEOUT : XRT_ERROR_DEVICE, "device %s: %s: %s",
                   r->url, what, full);
      zg330_wire_client_break (r, full);
      g_mutex_unlock (&r->io);
      return FALSE;
    }
  g_mutex_unlock (&r->io);
  if (rep->type == ZG330_WIRE_ERROR)
    {
      g_set_error (error, XRT_ERROR, (gint) rep->code, "device %s: %s: %s", r->url, what, rep->message);
      zg330_wire_reply_clear (rep);
      return FALSE;
    }
  if (rep->type == ZG330_WIRE_BUSY)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "device %s: %s: the board at %s is busy with another client (%s)",
                   r->url, what, r->where, rep->message);
      zg330_wire_reply_clear (rep);
      g_mutex_lock (&r->io);
      zg330_wire_client_break (r, "the board was busy");
      g_mutex_unlock (&r->io);
      return FALSE;
    }
  return TRUE;
}


void
zg330_wire_client_get_traffic (Zg330WireClient *r, guint64 *sent, guint64 *received)
{
  g_mutex_lock (&r->io);
  if (sent)
    *sent = r->sent;
  if (received)
    *received = r->received;
  g_mutex_unlock (&r->io);
}

gboolean
zg330_wire_client_mem_read (Zg330WireClient *r, guint8 region, guint64 offset, gpointer dest, gsize bytes,
                            guint64 wait_ms, GError **error)
{
  guint8 *out = dest;

  while (bytes > 0)
    {
      guint32 n = (guint32) MIN (bytes, (gsize) ZG330_WIRE_MAX_DATA);
      Zg330WireRequest req = { .type = ZG330_WIRE_MEM_READ, .region = region, .offset = offset, .length = n };
      Zg330WireReply rep;
      g_autofree char *what = g_strdup_printf ("memory read of %u bytes at %s offset 0x%" G_GINT64_MODIFIER "x", n,
                                               region ? "OCM" : "ETM", offset);

      if (!zg330_wire_client_exchange (r, what, &req, &rep, wait_ms, error))
        return FALSE;
      if (rep.length != n)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "device %s: %s: the board returned %u bytes", r->url, what,
                       rep.length);
          zg330_wire_reply_clear (&rep);
          return FALSE;
        }
      memcpy (out, rep.data, n);
      zg330_wire_reply_clear (&rep);
      out += n;
      offset += n;
      bytes -= n;
    }
  return TRUE;
}

gboolean
zg330_wire_client_mem_write (Zg330WireClient *r, guint8 region, guint64 offset, gconstpointer src, gsize bytes,
                             guint64 wait_ms, GError **error)
{
  const guint8 *in = src;

  while (bytes > 0)
    {
      guint32 n = (guint32) MIN (bytes, (gsize) ZG330_WIRE_MAX_DATA);
      Zg330WireRequest req = { .type = ZG330_WIRE_MEM_WRITE, .region = region, .offset = offset, .length = n,
                               .data = in };
      Zg330WireReply rep;
      g_autofree char *what = g_strdup_printf ("memory write of %u bytes at %s offset 0x%" G_GINT64_MODIFIER "x", n,
                                               region ? "OCM" : "ETM", offset);

      if (!zg330_wire_client_exchange (r, what, &req, &rep, wait_ms, error))
        return FALSE;
      zg330_wire_reply_clear (&rep);
      in += n;
      offset += n;
      bytes -= n;
    }
  return TRUE;
}
