/* zg330-wire-token.c — the shared token a board started with --token-file wants at HELLO
 * (zg330-wire.h): read from a file by both ends, compared in constant time by the board. */
#include "devices/zg330-wire.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean
zg330_wire_read_token (const char *path, char **token, GError **error)
{
  g_autofree char *text = NULL;
  struct stat st;
  gssize n;
  int fd;

  *token = NULL;
  /* non-blocking: a FIFO must not hold the caller; it is refused below as not a regular file */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE, "token file %s: %s", path, g_strerror (e));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > 4096)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE, "token file %s: %s", path,
                   !S_ISREG (st.st_mode) ? "not a regular file" : "larger than 4096 bytes");
      close (fd);
      return FALSE;
    }
  text = g_malloc0 (4097);
  n = read (fd, text, 4096);
  close (fd);
  if (n < 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE, "token file %s: cannot be read", path);
      return FALSE;
    }
  text[n] = '\0';
  g_strchomp (text);
  if (text[0] == '\0' || strlen (text) > ZG330_WIRE_MAX_TOKEN)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE, "token file %s: the token must be 1 to %u bytes "
                   "(one line)", path, ZG330_WIRE_MAX_TOKEN);
      memset (text, 0, 4097);
      return FALSE;
    }
  for (const char *p = text; *p; p++)
    if (!g_ascii_isgraph (*p))
      {
        g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE, "token file %s: the token must be printable ASCII "
                     "without spaces", path);
        memset (text, 0, 4097);
        return FALSE;
      }
  *token = g_strdup (text);
  memset (text, 0, 4097);
  return TRUE;
}

gboolean
zg330_wire_token_equal (const char *expected, const char *given)
{
  gsize n = strlen (expected), m = given ? strlen (given) : 0;
  guint8 diff = n != m;

  /* as long as the expected token whatever is given: the time says nothing of where they differ */
  for (gsize i = 0; i < n; i++)
    diff |= (guint8) (expected[i] ^ (i < m ? given[i] : 0));
  return diff == 0;
}
