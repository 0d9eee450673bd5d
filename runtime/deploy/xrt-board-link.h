/* xrt-board-link.h — the one open board of a device URL that a caller keeps and deploys on
 * again and again (the workbench: apply, forward, dump, compare on one connection).
 *
 * A board served by zhuge-board takes one client at a time: a caller that opened the URL
 * anew for each deployment would be told the board is busy with itself. A link opens the
 * URL once and lends the same device to every deployment (xrt_deployment_use_board());
 * before each lending it asks the board whether it still answers (xrt_device_check(), one
 * request), and when it does not (the board restarted, the connection dropped) it opens the
 * URL again, so a restarted board is reached without the caller doing anything.
 */
#pragma once

#include <gio/gio.h>

#include "xrt/xrt-device.h"

G_BEGIN_DECLS

#define XRT_TYPE_BOARD_LINK (xrt_board_link_get_type ())
G_DECLARE_FINAL_TYPE (XrtBoardLink, xrt_board_link, XRT, BOARD_LINK, GObject)

/**
 * xrt_board_link_new:
 * @url: a device URL (`socket://zg330@127.0.0.1:5001`, `mock://zg330`, …)
 *
 * A link to the board at @url. Nothing is opened until xrt_board_link_acquire().
 *
 * Returns: (transfer full): the link
 */
XrtBoardLink *xrt_board_link_new (const char *url);

/**
 * xrt_board_link_get_url:
 * @self: the link
 *
 * The device URL the link opens.
 *
 * Returns: the URL
 */
const char *xrt_board_link_get_url (XrtBoardLink *self);

/**
 * xrt_board_link_acquire:
 * @self: the link
 * @reopened: (out) (optional): set to %TRUE when the board had to be opened again (it
 *   was open once and no longer answered): deployments made on the old device are gone
 * @error: the device's error when the URL does not open (naming the URL)
 *
 * The open board: the device opened before when it still answers, else the URL opened
 * (again). One caller at a time: a link is not for two threads at once.
 *
 * Returns: (transfer full) (nullable): the device
 */
XrtDevice *xrt_board_link_acquire (XrtBoardLink *self, gboolean *reopened, GError **error);

/**
 * xrt_board_link_get_n_opens:
 * @self: the link
 *
 * How many times the link opened its URL (1 after the first acquire; one more per
 * reconnection).
 *
 * Returns: the count
 */
guint xrt_board_link_get_n_opens (XrtBoardLink *self);

/**
 * xrt_board_link_get_device:
 * @self: the link
 *
 * The device last opened, without asking the board anything.
 *
 * Returns: (transfer none) (nullable): the device, %NULL before the first acquire
 */
XrtDevice *xrt_board_link_get_device (XrtBoardLink *self);

G_END_DECLS
