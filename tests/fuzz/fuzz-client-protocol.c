/* fuzz-client-protocol.c — the runtime's side of the protocol (devices/zg330-wire.h): what a
 * board (or anything listening on its port) sends back.  Input: 1 byte naming the request the
 * client sent (its type, modulo the request types), then 16 bytes of frame header, then the
 * payload.  A reply that decodes encodes back to the same bytes. */
#include "zw-fuzz.h"
#include "devices/zg330-wire.h"

int
zw_fuzz_client_protocol (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  Zg330WireHeader h;
  Zg330WireReply rep;
  guint16 request;
  const uint8_t *payload;
  size_t length;

  if (size < 1 + ZG330_WIRE_HEADER_BYTES)
    return 0;
  request = (guint16) (1 + data[0] % (ZG330_WIRE_N_REQUESTS - 1));
  if (!zg330_wire_header_decode (data + 1, &h, &error))
    {
      zw_fuzz_check_error (error, "", "header");
      return 0;
    }
  payload = data + 1 + ZG330_WIRE_HEADER_BYTES;
  length = size - 1 - ZG330_WIRE_HEADER_BYTES;
  if (!zg330_wire_decode_reply (request, h.type, payload, length, &rep, &error))
    {
      zw_fuzz_check_error (error, "", "reply");
      return 0;
    }
  {
    g_autoptr (GByteArray) again = zg330_wire_encode_reply (request, &rep);
    g_assert_cmpmem (again->data, again->len, payload, length);
  }
  zg330_wire_reply_clear (&rep);
  return 0;
}
