/* zw-file.c — atomic writes with fault injection (see the header). */
#include "base/zw-file.h"

#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef enum { FAULT_NOSPACE, FAULT_NOPERM, FAULT_SHORT, FAULT_KILL } FaultKind;

typedef struct {
  FaultKind kind;
  guint at;
} Fault;

static GMutex lock;
static GArray *faults;      /* Fault */
static guint n_writes;
static gboolean env_read;

static gboolean
parse_faults (const char *spec, GArray **out, GError **error)
{
  g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (Fault));
  g_auto (GStrv) items = g_strsplit (spec ? spec : "", ",", -1);

  for (guint i = 0; items[i]; i++)
    {
      char *item = g_strstrip (items[i]);
      char *at = strchr (item, '@');
      Fault f;
      guint64 n = 0;

      if (*item == '\0')
        continue;
      if (at == NULL || !g_ascii_string_to_unsigned (at + 1, 10, 1, G_MAXUINT, &n, NULL))
        goto bad;
      *at = '\0';
      if (strcmp (item, "nospace") == 0)
        f.kind = FAULT_NOSPACE;
      else if (strcmp (item, "noperm") == 0)
        f.kind = FAULT_NOPERM;
      else if (strcmp (item, "short") == 0)
        f.kind = FAULT_SHORT;
      else if (strcmp (item, "kill") == 0)
        f.kind = FAULT_KILL;
      else
        goto bad;
      f.at = (guint) n;
      g_array_append_val (list, f);
      continue;
    bad:
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "ZW_FAULT_WRITE: \"%s\" is not KIND@N with KIND nospace, noperm, short or kill", spec);
      return FALSE;
    }
  *out = g_steal_pointer (&list);
  return TRUE;
}

gboolean
zw_file_set_faults (const char *spec, GError **error)
{
  GArray *list = NULL;

  if (!parse_faults (spec, &list, error))
    return FALSE;
  g_mutex_lock (&lock);
  g_clear_pointer (&faults, g_array_unref);
  faults = list;
  n_writes = 0;
  env_read = TRUE;
  g_mutex_unlock (&lock);
  return TRUE;
}

guint
zw_file_get_write_count (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = n_writes;
  g_mutex_unlock (&lock);
  return n;
}

/* The fault of this write, or -1. */
static int
next_fault (void)
{
  int kind = -1;

  g_mutex_lock (&lock);
  if (!env_read)
    {
      const char *env = g_getenv ("ZW_FAULT_WRITE");
      g_autoptr (GError) error = NULL;
      env_read = TRUE;
      if (env && !parse_faults (env, &faults, &error))
        g_warning ("%s", error->message);
    }
  n_writes++;
  for (guint i = 0; faults && i < faults->len; i++)
    if (g_array_index (faults, Fault, i).at == n_writes)
      kind = (int) g_array_index (faults, Fault, i).kind;
  g_mutex_unlock (&lock);
  return kind;
}

static gboolean
fail_errno (GError **error, const char *path, int saved)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "Failed to write “%s”: %s", path,
               g_strerror (saved));
  return FALSE;
}

/* The contents go into an anonymous file (O_TMPFILE) of the destination's folder, which
 * gets a name only once it is whole: a process killed while it writes leaves nothing
 * behind. *unsupported is set where the file system or kernel has no O_TMPFILE (or /proc
 * is not mounted); nothing has been written then. */
static gboolean
write_anonymous (const char *path, const char *contents, gsize length, int fault, gboolean *unsupported,
                 GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  char proc_path[64];
  gsize done = 0, stop = length;
  int fd;

  *unsupported = FALSE;
  fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)
        {
          *unsupported = TRUE;
          return FALSE;
        }
      return fail_errno (error, path, errno);
    }
  if (fault == FAULT_SHORT || fault == FAULT_KILL)
    stop = length / 2;
  while (done < stop)
    {
      ssize_t n = write (fd, contents + done, stop - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = n < 0 ? errno : EIO;
          close (fd);
          return fail_errno (error, path, saved);
        }
      done += (gsize) n;
    }
  if (fault == FAULT_KILL)
    raise (SIGKILL);  /* killed in the middle of the write */
  if (fault == FAULT_SHORT)
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "Failed to write “%s”: short write (%" G_GSIZE_FORMAT
                   " of %" G_GSIZE_FORMAT " bytes)", path, done, length);
      return FALSE;
    }
  /* as G_FILE_SET_CONTENTS_CONSISTENT: on disk before it replaces an existing file */
  if (g_file_test (path, G_FILE_TEST_EXISTS) && fsync (fd) != 0)
    {
      int saved = errno;
      close (fd);
      return fail_errno (error, path, saved);
    }
  g_snprintf (proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
  /* a new file gets its name in one step; an existing one is replaced by a rename from a
   * name given only for that instant */
  if (linkat (AT_FDCWD, proc_path, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0)
    {
      close (fd);
      return TRUE;
    }
  if (errno != EEXIST)
    {
      int saved = errno;
      if (saved == ENOENT && !g_file_test ("/proc/self/fd", G_FILE_TEST_IS_DIR))
        {
          close (fd);
          *unsupported = TRUE;
          return FALSE;
        }
      close (fd);
      return fail_errno (error, path, saved);
    }
  for (guint attempt = 0;; attempt++)
    {
      g_autofree char *tmp = g_strdup_printf ("%s.zw-%08x", path, g_random_int ());
      if (linkat (AT_FDCWD, proc_path, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0)
        {
          if (rename (tmp, path) != 0)
            {
              int saved = errno;
              g_unlink (tmp);
              close (fd);
              return fail_errno (error, path, saved);
            }
          break;
        }
      if (errno == EEXIST && attempt < 16)
        continue;
      int saved = errno;
      close (fd);
      if (saved == ENOENT && !g_file_test ("/proc/self/fd", G_FILE_TEST_IS_DIR))
        {
          *unsupported = TRUE;
          return FALSE;
        }
      return fail_errno (error, path, saved);
    }
  close (fd);
  return TRUE;
}

gboolean
zw_file_set_contents (const char *path, const char *contents, gssize length, GError **error)
{
  gboolean unsupported = FALSE;
  int fault;

  g_return_val_if_fail (path != NULL, FALSE);
  if (contents == NULL)
    contents = "";
  if (length < 0)
    length = (gssize) strlen (contents);
  fault = next_fault ();
  if (fault == FAULT_NOSPACE)
    return fail_errno (error, path, ENOSPC);
  if (fault == FAULT_NOPERM)
    return fail_errno (error, path, EACCES);
  if (write_anonymous (path, contents, (gsize) length, fault, &unsupported, error))
    return TRUE;
  if (!unsupported)
    return FALSE;
  /* no O_TMPFILE here: GLib's temporary-file-and-rename (a kill may leave its temporary) */
  if (fault == FAULT_KILL)
    raise (SIGKILL);
  if (fault == FAULT_SHORT)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "Failed to write “%s”: short write", path);
      return FALSE;
    }
  return g_file_set_contents_full (path, contents, length, G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);
}
