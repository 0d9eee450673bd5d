/* zg330-board-session.h — the board side of the protocol (devices/zg330-wire.h): one client session
 * on a simulated board.  `zhuge-board` (runtime/tools/zhuge-board.c) owns the sockets; this
 * turns decoded requests into replies.
 *
 * A session starts at HELLO with a board fresh from power-on (a new simulator with the
 * server's profile), holds the hardop calls the client bound (by instruction address) and
 * the timer/profiler chunks, and ends at CLOSE or when the connection goes.  Requests are
 * checked again here (addresses inside the regions, register map, binding ranges): a
 * malformed or hostile request gets an ERROR reply, never a crash.
 *
 * Threads: one session is used by one thread at a time.
 */
#pragma once

#include "devices/zg330-wire.h"

G_BEGIN_DECLS

typedef struct _Zg330BoardSession Zg330BoardSession;

/* A session on a board of @kind ("zg330" or "buyi") with (a copy of) @profile. */
Zg330BoardSession *zg330_board_session_new    (const char         *kind,
                                               const Zg330Profile *profile);
void               zg330_board_session_free   (Zg330BoardSession *session);

/* Answers @request (fills @reply: its type, or ZG330_WIRE_ERROR with a message naming the
 * request and what is wrong).  Clear @reply with zg330_wire_reply_clear(). */
void               zg330_board_session_handle (Zg330BoardSession      *session,
                                               const Zg330WireRequest *request,
                                               Zg330WireReply         *reply);

/* Encodes @reply to a request of @request_type as the board sends it, and sets @frame_type
 * to the frame's type.  A reply the client's decoder would refuse (zg330_wire_decode_reply:
 * e.g. launch statistics past the protocol's bounds) is never sent: @reply becomes an ERROR
 * naming the field, and that is encoded.  Every frame this returns decodes. */
GByteArray        *zg330_board_encode_reply   (guint16         request_type,
                                               Zg330WireReply *reply,
                                               guint16        *frame_type);

/* Cancels the session's running launch, from another thread: it stops before its next
 * hardop as a failed launch (the client left). */
void               zg330_board_session_cancel (Zg330BoardSession *session);

/* TRUE once CLOSE was answered: the server ends the connection. */
gboolean           zg330_board_session_closed (Zg330BoardSession *session);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Zg330BoardSession, zg330_board_session_free)

G_END_DECLS
