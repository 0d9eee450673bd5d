/* xrt-session-compare.c — the host reference run of a session: the same view on the
 * HostBackend alone (asked for by the vendor's class name, as every backend is), forwarded
 * with the same inputs, and the outputs compared byte for byte. */
#include "xrt/xrt-session-private.h"

#include <string.h>

/* One line for output @k: identical, or the count of differing bytes and the first. */
static gboolean
compare_output (guint k, XrtTensor *board, XrtTensor *host, GString *report, gboolean *same, GError **error)
{
  const XirValue *v = xrt_tensor_get_value (board);
  guint64 nb = xrt_tensor_get_size (board), nh = xrt_tensor_get_size (host);
  g_autofree guint8 *b = xrt_tensor_dup_bytes (board, error);
  g_autofree guint8 *h = b != NULL ? xrt_tensor_dup_bytes (host, error) : NULL;
  guint64 first = G_MAXUINT64, n_diff = 0;

  if (b == NULL || h == NULL)
    {
      g_prefix_error (error, "output %u: ", k);
      return FALSE;
    }
  if (nb != nh)
    {
      g_string_append_printf (report, "output %u (v_id %" G_GINT64_FORMAT "): %" G_GUINT64_FORMAT " bytes on the board, "
                              "%" G_GUINT64_FORMAT " on the host\n", k, v ? v->v_id : -1, nb, nh);
      *same = FALSE;
      return TRUE;
    }
  for (guint64 i = 0; i < nb; i++)
    if (b[i] != h[i])
      {
        if (n_diff++ == 0)
          first = i;
      }
  *same &= n_diff == 0;
  if (n_diff == 0)
    g_string_append_printf (report, "output %u (v_id %" G_GINT64_FORMAT "): %" G_GUINT64_FORMAT " bytes, identical\n", k,
                            v ? v->v_id : -1, nb);
  else
    g_string_append_printf (report, "output %u (v_id %" G_GINT64_FORMAT "): %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                            " bytes differ; the first at byte %" G_GUINT64_FORMAT " (board 0x%02x, host 0x%02x)\n", k,
                            v ? v->v_id : -1, n_diff, nb, first, b[first], h[first]);
  return TRUE;
}

gboolean
xrt_session_compare_with_host (XrtSession *s, GPtrArray *inputs, gboolean *identical, char **report, GError **error)
{
  const char *names[1] = { "HostBackend" };
  XrtDevice *devices[1];
  g_autoptr (XrtSession) host = NULL;
  g_autoptr (GPtrArray) board_out = NULL;
  g_autoptr (GPtrArray) host_out = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  gboolean same = TRUE;

  CHECK_ARG (s != NULL, "session", FALSE);
  if (identical != NULL)
    *identical = FALSE;
  if (report != NULL)
    *report = NULL;
  /* the host backend's cost model reads the board's profile when there is a board */
  devices[0] = s->device;
  host = xrt_session_new (s->view, names, devices, 1, error);
  if (host == NULL)
    {
      g_prefix_error (error, "the host reference session: ");
      return FALSE;
    }
  if (!xrt_session_apply (host, error))
    {
      g_prefix_error (error, "the host reference session: ");
      return FALSE;
    }
  board_out = xrt_session_forward (s, inputs, error);
  if (board_out == NULL)
    return FALSE;
  host_out = xrt_session_forward (host, inputs, error);
  if (host_out == NULL)
    {
      g_prefix_error (error, "the host reference run: ");
      return FALSE;
    }
  if (board_out->len != host_out->len)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP, "%s: %u outputs from the session, %u from the host "
                   "reference", xir_network_get_path (s->net), board_out->len, host_out->len);
      return FALSE;
    }
  for (guint k = 0; k < board_out->len; k++)
    {
      if (!compare_output (k, g_ptr_array_index (board_out, k), g_ptr_array_index (host_out, k), text, &same, error))
        return FALSE;
    }
  if (identical != NULL)
    *identical = same;
  if (report != NULL)
    *report = g_string_free (g_steal_pointer (&text), FALSE);
  return TRUE;
}
