/* zw-file-read.c — the one reader rule: regular files (or "-"), size-capped before reading
 * (see the header). */
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PARAMS_MAX ((G_GUINT64_CONSTANT (1) << 32) + (G_GUINT64_CONSTANT (1) << 28))  /* 4 GiB + the table */

static const struct {
  const char *what;
  guint64 max_bytes;
  gboolean stdin_ok;
} kinds[ZW_N_INPUTS] = {
  [ZW_INPUT_NETWORK] = { N_("the network JSON"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_PARAMS] = { N_("the params file"), PARAMS_MAX, FALSE },
  [ZW_INPUT_TENSOR] = { N_("an input tensor"), ZW_MAX_TENSOR_BYTES, FALSE },
  [ZW_INPUT_INPUT_LIST] = { N_("the input list"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_DEVICE_PROFILE] = { N_("a device profile"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_SNAPSHOT] = { N_("a snapshot"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_DEPLOY_REPORT] = { N_("a deploy report"), ZW_FILE_MAX_DOCUMENT, TRUE },
  [ZW_INPUT_TIME_PROFILE] = { N_("a time profile"), ZW_FILE_MAX_DOCUMENT, TRUE },
  [ZW_INPUT_BUFFER_CSV] = { N_("a buffer list CSV"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_DUMP] = { N_("a dumped tensor"), ZW_MAX_TENSOR_BYTES, FALSE },
  [ZW_INPUT_DUMP_MANIFEST] = { N_("a dump manifest"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_SWEEP] = { N_("a sweep"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_RUN_CONFIG] = { N_("a run config"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_LOG] = { N_("a log"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_IMAGE] = { N_("an input image"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_PLUGIN] = { N_("a decode plugin"), ZW_FILE_MAX_DOCUMENT, FALSE },
  [ZW_INPUT_ANY] = { N_("a file to open"), ZW_MAX_TENSOR_BYTES, FALSE },
};

const char *
zw_input_kind_describe (ZwInputKind kind)
{
  g_return_val_if_fail (kind < ZW_N_INPUTS, "");
  return _(kinds[kind].what);
}

guint64
zw_input_kind_max_bytes (ZwInputKind kind)
{
  g_return_val_if_fail (kind < ZW_N_INPUTS, 0);
  return kinds[kind].max_bytes;
}

static const char *
describe_mode (mode_t mode)
{
  if (S_ISFIFO (mode))
    return _("a FIFO");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  if (S_ISDIR (mode))
    return _("a folder");
  return _("a special file");
}

static void
set_errno_error (GError **error, const char *path, ZwInputKind kind, int saved)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot read %s: %s"), path,
               _(kinds[kind].what), g_strerror (saved));
}

static void
set_not_regular (GError **error, const char *path, ZwInputKind kind, mode_t mode)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: not a regular file (%s), expected %s"), path,
               describe_mode (mode), _(kinds[kind].what));
}

static void
set_too_big (GError **error, const char *path, ZwInputKind kind, guint64 size, guint64 max)
{
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, size);
  g_autofree char *cap = g_strdup_printf ("%" G_GUINT64_FORMAT, max);

  if (size == G_MAXUINT64)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: more than %s bytes, more than %s may have"), path,
                 cap, _(kinds[kind].what));
  else
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: %s bytes, more than the %s %s may have"), path, n,
                 cap, _(kinds[kind].what));
}

int
zw_file_open_regular (const char *path, ZwInputKind kind, guint64 max_bytes, guint64 *size, GError **error)
{
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL && kind < ZW_N_INPUTS, -1);
  if (max_bytes == 0)
    max_bytes = kinds[kind].max_bytes;
  if (kinds[kind].stdin_ok && strcmp (path, "-") == 0)
    {
      if ((fd = fcntl (STDIN_FILENO, F_DUPFD_CLOEXEC, 3)) < 0)
        {
          set_errno_error (error, path, kind, errno);
          return -1;
        }
      if (size)
        *size = G_MAXUINT64;
      return fd;
    }
  /* looked at before it is opened: a device is never opened (opening one can have effects),
   * and a FIFO would block the open until a writer comes */
  if (g_stat (path, &st) != 0)
    {
      set_errno_error (error, path, kind, errno);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      set_not_regular (error, path, kind, st.st_mode);
      return -1;
    }
  /* O_NONBLOCK: should a FIFO take its place in between, the open does not wait for a writer */
  if ((fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0)) < 0)
    {
      set_errno_error (error, path, kind, errno);
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      int saved = errno;
      if (fstat (fd, &st) == 0)
        set_not_regular (error, path, kind, st.st_mode);
      else
        set_errno_error (error, path, kind, saved);
      close (fd);
      return -1;
    }
  if ((guint64) st.st_size > max_bytes)
    {
      set_too_big (error, path, kind, (guint64) st.st_size, max_bytes);
      close (fd);
      return -1;
    }
  if (size)
    *size = (guint64) st.st_size;
  return fd;
}

gboolean
zw_file_read_regular (const char *path, ZwInputKind kind, guint64 max_bytes, char **contents, gsize *length,
                      GError **error)
{
  guint64 size = 0, cap;
  g_autofree char *buf = NULL;
  gsize alloc, done = 0;
  int fd;

  g_return_val_if_fail (contents != NULL, FALSE);
  *contents = NULL;
  if (length)
    *length = 0;
  if ((fd = zw_file_open_regular (path, kind, max_bytes, &size, error)) < 0)
    return FALSE;
  cap = max_bytes ? max_bytes : kinds[kind].max_bytes;
  cap = MIN (cap, (guint64) G_MAXSSIZE - 1);
  /* a regular file is read to its size (and one byte more, to see it did not grow past the
   * cap meanwhile); a stream grows the buffer as it comes, up to the cap */
  alloc = size == G_MAXUINT64 ? (gsize) MIN (65536, cap + 1) : (gsize) size + 1;
  buf = g_try_malloc (alloc + 1);
  if (buf == NULL)
    {
      close (fd);
      set_errno_error (error, path, kind, ENOMEM);
      return FALSE;
    }
  for (;;)
    {
      ssize_t n;
      if (done == alloc)
        {
          gsize grow;
          char *more;
          if (done > cap)
            break;
          grow = (guint64) alloc * 2 < cap + 1 ? alloc * 2 : (gsize) (cap + 1);
          if ((more = g_try_realloc (buf, grow + 1)) == NULL)
            {
              close (fd);
              set_errno_error (error, path, kind, ENOMEM);
              return FALSE;
            }
          buf = more;
          alloc = grow;
        }
      n = read (fd, buf + done, alloc - done);
      if (n < 0 && errno == EAGAIN)
        {
          /* standard input left non-blocking by whoever opened it: wait for it */
          struct pollfd p = { fd, POLLIN, 0 };
          poll (&p, 1, -1);
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          close (fd);
          set_errno_error (error, path, kind, saved);
          return FALSE;
        }
      if (n == 0)
        break;
      done += (gsize) n;
    }
  close (fd);
  if (done > cap)
    {
      set_too_big (error, path, kind, size == G_MAXUINT64 ? G_MAXUINT64 : done, cap);
      return FALSE;
    }
  buf[done] = '\0';
  *contents = g_steal_pointer (&buf);
  if (length)
    *length = done;
  return TRUE;
}

GMappedFile *
zw_file_map_regular (const char *path, ZwInputKind kind, guint64 max_bytes, GError **error)
{
  GMappedFile *file;
  GError *local = NULL;
  guint64 size;
  int fd;

  g_return_val_if_fail (path != NULL && kind < ZW_N_INPUTS, NULL);
  if (kinds[kind].stdin_ok && strcmp (path, "-") == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: standard input cannot be mapped, expected %s"),
                   path, _(kinds[kind].what));
      return NULL;
    }
  if ((fd = zw_file_open_regular (path, kind, max_bytes, &size, error)) < 0)
    return NULL;
  file = g_mapped_file_new_from_fd (fd, FALSE, &local);
  close (fd);
  if (file == NULL)
    {
      g_set_error (error, G_FILE_ERROR, local->code, _("%s: cannot map %s: %s"), path, _(kinds[kind].what),
                   local->message);
      g_error_free (local);
    }
  return file;
}
