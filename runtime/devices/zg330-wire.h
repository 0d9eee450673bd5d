/* zg330-wire.h — the board protocol: a simulated ZG330/Buyi board served over TCP.
 *
 * socket://NAME@HOST:PORT (devices/zg330-socket-board.c) talks to `zhuge-board`
 * (devices/zg330-board-session.c, runtime/tools/zhuge-board.c) with this protocol.  The runtime keeps
 * what a host keeps with a real board — the allocators of the regions, the backends, the
 * session — and the board process keeps the board: the ETM and OCM bytes, the registers,
 * the timer, and the hardop models, which run there.
 *
 * How hardops reach the board.  A real board runs instruction words the backend wrote into
 * its INSTR segment.  Ours are opaque, so a backend binds each hardop's instruction range to
 * a description of the placed op, a Zg330HardopCall (devices/zg330-hardop-call.h): the class,
 * the geometry, each operand's kernel descriptor with the float scales the kernel reads, its
 * region and address, and the work the timing model charges.  An ICORE_CALC request carries
 * the launch range and the call of every hardop bound inside it (a call the board already
 * holds at that address, byte for byte, is sent as "keep"); the board binds them to its own
 * simulator (devices/zg330-sim.h) and runs icoreCalc there, through the same
 * zg330_hardop_call_run() and the same timing model as mock://.  Hence outputs are
 * bit-identical and simulated times identical to mock://: the same code runs on the same
 * bytes, only in another process.  The board never reads a network file, and no string a
 * client sends is ever used as a path.
 *
 * Framing.  Every message is a 16-byte header followed by its payload, all little-endian:
 *
 *   u32 magic   ZG330_WIRE_MAGIC ("ZGBD" as bytes 'Z' 'G' 'B' 'D')
 *   u16 type    Zg330WireType
 *   u16 flags   0 (anything else is refused)
 *   u32 seq     the request's number; a reply repeats its request's
 *   u32 length  payload bytes, <= ZG330_WIRE_MAX_PAYLOAD (16 MiB)
 *
 * A client sends one request and reads until the reply with its seq: the board answers every
 * request with one reply (type = request type | ZG330_WIRE_REPLY) or ZG330_WIRE_ERROR; while
 * a launch runs it sends ZG330_WIRE_PROGRESS every 100 ms, so a client tells a long launch
 * from a board that stopped answering.  The client's wait time (setWaitTime) bounds a whole
 * request: only a launch's PROGRESS frames renew it, and never past ZG330_WIRE_LAUNCH_WAITS
 * wait times from the request; a PROGRESS frame answering anything else is garbage.
 *
 * Payloads.  Integers u8/u16/u32/u64/i64 little-endian; f32/f64 as their IEEE bits; a string
 * is u16 length + UTF-8 bytes (no NUL, at most ZG330_WIRE_MAX_STRING); a blob is u32 length +
 * bytes.  A payload must be consumed exactly (trailing bytes are an error).
 *
 *   HELLO         u32 version, str name (the client's URL, a label of <= 64 bytes),
 *                 [str token (<= ZG330_WIRE_MAX_TOKEN): the shared token of a board started
 *                 with --token-file; absent or empty when the client has none]
 *     reply       u32 version, str board kind ("zg330" | "buyi"), blob profile JSON
 *                 (data/devices/NAME.json format, <= ZG330_WIRE_MAX_PROFILE), u32 max payload
 *   MEM_READ      u8 region (0 ETM, 1 OCM), u64 offset into the region, u32 length
 *                 (<= ZG330_WIRE_MAX_DATA)                       reply: blob bytes
 *   MEM_WRITE     u8 region, u64 offset, blob bytes (<= ZG330_WIRE_MAX_DATA)   reply: empty
 *   REG_READ      u32 cid, u32 rid, u32 offset (cid = rid = ZG330_WIRE_MASTER_CORE: the
 *                 master core, as Device::readReg)                reply: u32 value
 *   REG_WRITE     u32 cid, u32 rid, u32 offset, u32 value        reply: empty
 *   ICORE_CALC    u64 addr, u64 size, u32 n (<= ZG330_WIRE_MAX_CALLS), then n bindings:
 *                   u64 instr addr, u64 instr bytes, u8 merged, u8 has_call, [call]
 *                 the board replaces its bindings inside [addr, addr + size) by these
 *                 reply: u8 ok, launch stats, and when !ok: u32 XrtError code, str message
 *   TIMER_READ    (empty)   reply: u64 timer, u32 layer count, u32 state, u32 master cid
 *   CONFIG_TIMER  u8 which (0 timer, 1 profiler), u64 addr, u64 size (0: none)  reply: empty
 *   RESET         u32 level                                        reply: empty
 *   SET_FIELD     str profile field, f64 value (what-if on the timing)  reply: empty
 *   SET_MASTER    u32 cid                                          reply: empty
 *   STATUS        u32 level      reply: u32 ETM pages touched, str status text
 *   CLOSE         (empty)        reply: empty; the board then ends the session
 *
 *   call          i64 op id, u8 kind, u8 zero copy, work (u64 macs, u64 ETM read, u64 ETM
 *                 written, u64 OCM read, u64 OCM written, u32 layer count), u32 x 6
 *                 geometry (kernel h/w, stride h/w, pad top/left), u8 n inputs
 *                 (<= ZG330_CALL_MAX_INPUTS), the inputs, the output, u8 has weights,
 *                 [weights]; none of the operands when zero copy
 *   operand       i64 v_id, u8 layout, u8 dtype, u32 n, c, h, w, k, u64 size
 *                 (<= ZG330_CALL_MAX_TENSOR_BYTES), u32 n scales (0 or c), f32 x n scales,
 *                 u8 region, u64 addr
 *   weights       i64 v_id, u32 x 6 dims, u64 size, u32 n scales (OB x Ko), f32 x n,
 *                 u8 region, u64 addr, u8 has bias, [i64 v_id, u64 size, u8 region, u64 addr]
 *   launch stats  u64 addr, u64 size, u32 hardops, u8 merged, u32 first layer, u32 layers,
 *                 u64 icore cycles, u64 host sync cycles, f64 icore ms, f64 host sync ms,
 *                 work (as in a call, + u64 read tiles, u64 write tiles), u32 stamps dropped,
 *                 u8 failed, u64 seq
 *   ERROR         u32 XrtError code, str message
 *   BUSY          str message: another client holds the board (sent instead of HELLO's reply)
 *
 * Sessions.  HELLO first (anything else is refused); a version other than the board's is
 * refused with an ERROR naming both versions, and a client refuses a reply whose version is
 * not its own the same way.  Each session gets a board fresh from power-on (zeroed memory,
 * cleared registers, no bindings), so a client that reconnects after a failure starts from
 * the same board a new client gets.  One client at a time, from its HELLO: others get BUSY
 * naming the holder (its URL, address and connection).  The board ends a connection whose
 * HELLO does not arrive whole within its handshake time, a session whose next request does
 * not arrive whole (or whose reply is not taken) within its idle time, and cancels the
 * launch of a client that left (before the launch's next hardop).  Every reply the board
 * sends decodes with the client's decoder (zg330_board_encode_reply): one that would not is
 * sent as an ERROR naming the bound.
 *
 * Bounds.  Every length is checked against these limits and against the bytes left, on
 * both sides, before anything is allocated; counts and sizes pass checked conversion.
 */
#pragma once

#include <glib.h>

#include "devices/zg330-hardop-call.h"
#include "devices/zg330-sim.h"

G_BEGIN_DECLS

#define ZG330_WIRE_MAGIC          0x44424753u   /* "ZGBD" read as little-endian u32 */
#define ZG330_WIRE_VERSION        1u
#define ZG330_WIRE_HEADER_BYTES   16
#define ZG330_WIRE_MAX_PAYLOAD    (16u << 20)
#define ZG330_WIRE_MAX_DATA       (8u << 20)
#define ZG330_WIRE_MAX_STRING     4096u
#define ZG330_WIRE_MAX_STATUS     65535u
#define ZG330_WIRE_MAX_PROFILE    65536u
#define ZG330_WIRE_MAX_CALLS      4096u
#define ZG330_WIRE_MAX_TOKEN      256u
#define ZG330_WIRE_MAX_HELLO      (8u + 2u + 64u + 2u + ZG330_WIRE_MAX_TOKEN)  /* bytes a HELLO payload can have */
#define ZG330_WIRE_LAUNCH_WAITS   16u
#define ZG330_WIRE_MASTER_CORE    0xFFFFFFFFu
#define ZG330_WIRE_PROGRESS_MS    100

typedef enum {
  ZG330_WIRE_HELLO = 1,
  ZG330_WIRE_MEM_READ,
  ZG330_WIRE_MEM_WRITE,
  ZG330_WIRE_REG_READ,
  ZG330_WIRE_REG_WRITE,
  ZG330_WIRE_ICORE_CALC,
  ZG330_WIRE_TIMER_READ,
  ZG330_WIRE_CONFIG_TIMER,
  ZG330_WIRE_RESET,
  ZG330_WIRE_SET_FIELD,
  ZG330_WIRE_SET_MASTER,
  ZG330_WIRE_STATUS,
  ZG330_WIRE_CLOSE,
  ZG330_WIRE_N_REQUESTS,
  ZG330_WIRE_REPLY    = 0x80,   /* | request type */
  ZG330_WIRE_BUSY     = 0xFD,
  ZG330_WIRE_PROGRESS = 0xFE,
  ZG330_WIRE_ERROR    = 0xFF,
} Zg330WireType;

/* The request's name in messages ("icoreCalc", "memory read" …). */
const char *zg330_wire_type_to_string (guint type);

typedef struct {
  guint16 type;
  guint32 seq;
  guint32 length;
} Zg330WireHeader;

void     zg330_wire_header_encode (guint8 out[ZG330_WIRE_HEADER_BYTES], guint16 type, guint32 seq, guint32 length);
/* FALSE (XRT_ERROR_DEVICE) for a bad magic, flags or a length over the maximum. */
gboolean zg330_wire_header_decode (const guint8 in[ZG330_WIRE_HEADER_BYTES], Zg330WireHeader *header,
                                   GError **error);

/* One binding of an ICORE_CALC request. */
typedef struct {
  guint64         addr;
  guint64         bytes;
  gboolean        merged;
  gboolean        has_call;   /* FALSE: the board keeps the call it holds at addr */
  Zg330HardopCall call;
} Zg330WireBinding;

/* A decoded request (the fields of its type; data borrowed from the payload). */
typedef struct {
  guint16       type;
  guint32       version;          /* HELLO */
  char         *name;             /* HELLO */
  char         *token;            /* HELLO: the shared token, or NULL (owned) */
  guint8        region;           /* MEM_* */
  guint64       offset;           /* MEM_* */
  guint32       length;           /* MEM_READ; MEM_WRITE: bytes of data */
  const guint8 *data;             /* MEM_WRITE (borrowed) */
  guint32       cid, rid, reg, value;  /* REG_* ; SET_MASTER: cid */
  guint64       addr, size;       /* ICORE_CALC, CONFIG_TIMER */
  GArray       *bindings;         /* ICORE_CALC: Zg330WireBinding */
  guint8        which;            /* CONFIG_TIMER */
  guint32       level;            /* RESET, STATUS */
  char         *field;            /* SET_FIELD */
  double        fvalue;           /* SET_FIELD */
} Zg330WireRequest;

/* A reply (the fields of its request's type). */
typedef struct {
  guint16          type;           /* the request's type, or ERROR / BUSY */
  guint32          code;           /* ERROR: XrtError; ICORE_CALC when !ok */
  char            *message;        /* ERROR, BUSY; ICORE_CALC when !ok */
  guint32          version;        /* HELLO */
  char            *board;          /* HELLO */
  char            *profile_json;   /* HELLO (NUL-terminated) */
  guint32          max_payload;    /* HELLO */
  guint8          *data;           /* MEM_READ (owned) */
  guint32          length;         /* MEM_READ */
  guint32          value;          /* REG_READ */
  gboolean         ok;             /* ICORE_CALC */
  Zg330LaunchStats stats;          /* ICORE_CALC */
  guint64          timer;          /* TIMER_READ */
  guint32          layer_count, state, master_cid;  /* TIMER_READ */
  guint32          etm_pages;      /* STATUS */
  char            *text;           /* STATUS */
} Zg330WireReply;

void        zg330_wire_request_clear  (Zg330WireRequest *request);
void        zg330_wire_reply_clear    (Zg330WireReply *reply);

/* Payload of @request (its type says which fields). */
GByteArray *zg330_wire_encode_request (const Zg330WireRequest *request);
/* Decodes a payload of request type @type; every count and length is checked against the
 * bounds above and the bytes left.  FALSE (XRT_ERROR_DEVICE, naming the request and the
 * field) on anything malformed; @request is then cleared. */
gboolean    zg330_wire_decode_request (guint16 type, const guint8 *payload, gsize length,
                                       Zg330WireRequest *request, GError **error);

/* Payload of @reply to a request of type @request_type (reply->type says ERROR/BUSY). */
GByteArray *zg330_wire_encode_reply   (guint16 request_type, const Zg330WireReply *reply);
/* Decodes the payload of a frame of type @frame_type answering a request of
 * @request_type (ERROR and BUSY decode as such); checks as for requests. */
gboolean    zg330_wire_decode_reply   (guint16 request_type, guint16 frame_type, const guint8 *payload,
                                       gsize length, Zg330WireReply *reply, GError **error);

/* The encoding of one call (what ICORE_CALC carries), to compare what the board holds. */
void        zg330_wire_put_call       (GByteArray *out, const Zg330HardopCall *call);

/* Reads the shared token of a board from @path (zhuge-board --token-file, the client's
 * ?token-file= or $ZHUGE_BOARD_TOKEN_FILE): a regular file of at most 4096 bytes holding one
 * line of 1 to ZG330_WIRE_MAX_TOKEN printable characters.  FALSE with an error naming the file. */
gboolean    zg330_wire_read_token     (const char *path, char **token, GError **error);
/* TRUE when @given (nullable) is @expected, compared in a time that does not depend on where
 * they differ. */
gboolean    zg330_wire_token_equal    (const char *expected, const char *given);

G_END_DECLS
