/* zhuge-board-door.h — connections turned away at the door of zhuge-board (past
 * --max-clients), ended as gracefully as a refused session without a thread of their own.
 *
 * A refusal is sent, the connection half-closed (the client reads the refusal, then the end of
 * the stream) and what the client sent is drained on the main loop for a short time and a
 * bounded number of bytes, so the close does not reset a connection whose HELLO the board never
 * read.  At most a bounded number of connections drain at once; past it a connection gets its
 * refusal best-effort and is closed at once.  Used from the main loop's thread only. */
#pragma once

#include <gio/gio.h>

typedef struct _BoardDoor BoardDoor;

/* A door that drains at most @max_draining connections at once, each for @drain_ms at most and
 * @drain_bytes at most. */
BoardDoor *board_door_new (guint max_draining, guint drain_ms, gsize drain_bytes);

/* Sends @frame (@n bytes: a whole reply frame) on @conn, half-closes it and drains it until
 * the client closes, the time or the bytes run out.  FALSE when @conn was closed at once
 * instead (as many connections drain as the door takes). */
gboolean board_door_refuse (BoardDoor *door, GSocketConnection *conn, const guint8 *frame, gsize n);

/* Connections draining now. */
guint board_door_draining (BoardDoor *door);

/* Closes every connection still draining. */
void board_door_free (BoardDoor *door);
