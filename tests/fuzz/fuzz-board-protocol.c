/* fuzz-board-protocol.c — the board's side of the protocol (devices/zg330-wire.h): a frame
 * header, then the request decoder, then — when the request decodes — a board session that
 * answers it (after a HELLO of its own), so hostile addresses, bindings and calls reach the
 * simulated board.  Every reply the board would send must decode with the client's decoder
 * (zg330_wire_decode_reply) and encode back to the same bytes.  Input: 16 bytes of frame
 * header, then the payload. */
#include "zw-fuzz.h"
#include "devices/zg330-board-session.h"

#include <string.h>

int
zw_fuzz_board_protocol (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Zg330Profile) profile = NULL;
  g_autoptr (Zg330BoardSession) session = NULL;
  Zg330WireHeader h;
  Zg330WireRequest req, hello = { .type = ZG330_WIRE_HELLO, .version = ZG330_WIRE_VERSION, .name = (char *) "fuzz" };
  Zg330WireReply rep;

  if (size < ZG330_WIRE_HEADER_BYTES)
    return 0;
  if (!zg330_wire_header_decode (data, &h, &error))
    {
      zw_fuzz_check_error (error, "", "header");
      return 0;
    }
  if (!zg330_wire_decode_request (h.type, data + ZG330_WIRE_HEADER_BYTES, size - ZG330_WIRE_HEADER_BYTES, &req,
                                  &error))
    {
      zw_fuzz_check_error (error, "", "request");
      return 0;
    }
  profile = zg330_profile_new_builtin ();
  /* a small OCM keeps each run cheap; the ETM stays sparse */
  profile->ocm_bytes = 64 * 1024;
  session = zg330_board_session_new ("zg330", profile);
  if (req.type != ZG330_WIRE_HELLO)
    {
      zg330_board_session_handle (session, &hello, &rep);
      g_assert_cmpuint (rep.type, ==, ZG330_WIRE_HELLO);
      zg330_wire_reply_clear (&rep);
    }
  zg330_board_session_handle (session, &req, &rep);
  g_assert_true (rep.type == req.type || (rep.type == ZG330_WIRE_ERROR && rep.message != NULL));
  {
    /* whatever the board sends encodes within the protocol's bound and decodes with the
     * client's decoder, to the same bytes */
    guint16 frame_type;
    g_autoptr (GByteArray) out = zg330_board_encode_reply (req.type, &rep, &frame_type);
    g_autoptr (GError) decode_error = NULL;
    Zg330WireReply back;

    g_assert_cmpuint (out->len, <=, ZG330_WIRE_MAX_PAYLOAD);
    if (!zg330_wire_decode_reply (req.type, frame_type, out->data, out->len, &back, &decode_error))
      g_error ("the board sent a reply to %s that the client refuses: %s", zg330_wire_type_to_string (req.type),
               decode_error->message);
    {
      g_autoptr (GByteArray) again = zg330_wire_encode_reply (req.type, &back);
      g_assert_cmpmem (again->data, again->len, out->data, out->len);
    }
    zg330_wire_reply_clear (&back);
  }
  zg330_wire_reply_clear (&rep);
  zg330_wire_request_clear (&req);
  return 0;
}
