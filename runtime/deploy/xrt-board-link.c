/* xrt-board-link.c — one open board reused across deployments, reopened when it stops
 * answering (see the header). */
#include "deploy/xrt-board-link.h"

struct _XrtBoardLink
{
  GObject parent_instance;

  char *url;
  XrtDevice *device;
  guint n_opens;
};

G_DEFINE_FINAL_TYPE (XrtBoardLink, xrt_board_link, G_TYPE_OBJECT)

static void
xrt_board_link_finalize (GObject *object)
{
  XrtBoardLink *self = XRT_BOARD_LINK (object);

  /* deployments may still hold the device: the last of them closes it */
  g_clear_pointer (&self->device, xrt_device_unref);
  g_free (self->url);
  G_OBJECT_CLASS (xrt_board_link_parent_class)->finalize (object);
}

static void
xrt_board_link_class_init (XrtBoardLinkClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = xrt_board_link_finalize;
}

static void
xrt_board_link_init (XrtBoardLink *self)
{
  (void) self;
}

XrtBoardLink *
xrt_board_link_new (const char *url)
{
  XrtBoardLink *self;

  g_return_val_if_fail (url != NULL, NULL);
  self = g_object_new (XRT_TYPE_BOARD_LINK, NULL);
  self->url = g_strdup (url);
  return self;
}

const char *
xrt_board_link_get_url (XrtBoardLink *self)
{
  g_return_val_if_fail (XRT_IS_BOARD_LINK (self), NULL);
  return self->url;
}

XrtDevice *
xrt_board_link_acquire (XrtBoardLink *self, gboolean *reopened, GError **error)
{
  g_autoptr (GError) lost = NULL;

  g_return_val_if_fail (XRT_IS_BOARD_LINK (self), NULL);
  if (reopened != NULL)
    *reopened = FALSE;
  if (self->device != NULL)
    {
      if (!xrt_device_is_closed (self->device) && xrt_device_check (self->device, 0, &lost))
        return xrt_device_ref (self->device);
      g_debug ("%s: the board does not answer (%s): opening it again", self->url, lost ? lost->message : "closed");
      /* a deployment still holding the old device finds it closed, never half-working */
      xrt_device_close (self->device);
      g_clear_pointer (&self->device, xrt_device_unref);
      if (reopened != NULL)
        *reopened = TRUE;
    }
  if ((self->device = xrt_device_open (self->url, error)) == NULL)
    return NULL;
  self->n_opens++;
  return xrt_device_ref (self->device);
}

guint
xrt_board_link_get_n_opens (XrtBoardLink *self)
{
  g_return_val_if_fail (XRT_IS_BOARD_LINK (self), 0);
  return self->n_opens;
}

XrtDevice *
xrt_board_link_get_device (XrtBoardLink *self)
{
  g_return_val_if_fail (XRT_IS_BOARD_LINK (self), NULL);
  return self->device;
}
