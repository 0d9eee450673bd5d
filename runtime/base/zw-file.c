/* zw-file.c — the one writer: atomic replacement of regular files, streams written through,
 * special files never replaced; fault injection (see the header). */
#include "base/zw-file.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static gboolean
write_all (int fd, const char *contents, gsize length, const char *path, GError **error)
{
  gsize done = 0;

  while (done < length)
    {
      ssize_t n = write (fd, contents + done, length - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return fail_errno (error, path, n < 0 ? errno : EIO);
      done += (gsize) n;
    }
  return TRUE;
}

/* The contents go into an anonymous file (O_TMPFILE) of the destination's folder, which
 * gets a name only once it is whole: a process killed while it writes leaves nothing
 * behind. @path is what gets the name (a symlink's target); @shown is what the user gave,
 * for messages. @mode (>= 0) is the permission bits of the file replaced. *unsupported is
 * set where the file system or kernel has no O_TMPFILE (or /proc is not mounted); nothing
 * has been written then. */
static gboolean
write_anonymous (const char *path, const char *shown, const char *contents, gsize length, int fault, int mode,
                 gboolean *unsupported, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  char proc_path[64];
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
      return fail_errno (error, shown, errno);
    }
  if (!write_all (fd, contents, fault == FAULT_SHORT || fault == FAULT_KILL ? length / 2 : length, shown, error))
    {
      close (fd);
      return FALSE;
    }
  if (fault == FAULT_KILL)
    raise (SIGKILL);  /* killed in the middle of the write */
  if (fault == FAULT_SHORT)
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "Failed to write “%s”: short write (%" G_GSIZE_FORMAT
                   " of %" G_GSIZE_FORMAT " bytes)", shown, length / 2, length);
      return FALSE;
    }
  /* as G_FILE_SET_CONTENTS_CONSISTENT: on disk before it replaces an existing file, which
   * keeps its permission bits */
  if (mode >= 0 && (fchmod (fd, (mode_t) mode) != 0 || fsync (fd) != 0))
    {
      int saved = errno;
      close (fd);
      return fail_errno (error, shown, saved);
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
      close (fd);
      if (saved == ENOENT && !g_file_test ("/proc/self/fd", G_FILE_TEST_IS_DIR))
        {
          *unsupported = TRUE;
          return FALSE;
        }
      return fail_errno (error, shown, saved);
    }
  for (guint attempt = 0;; attempt++)
    {
      g_autofree char *tmp = g_strdup_printf ("%s.zw-%08x", path, g_random_int ());
      GStatBuf st;
      if (linkat (AT_FDCWD, proc_path, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0)
        {
          /* what appeared at the path since it was looked at is replaced only if it is a
           * regular file too */
          if (g_lstat (path, &st) == 0 && !S_ISREG (st.st_mode))
            {
              g_unlink (tmp);
              close (fd);
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                           _("Failed to write “%s”: it stopped being a regular file while written; not replaced"),
                           shown);
              return FALSE;
            }
          if (rename (tmp, path) != 0)
            {
              int saved = errno;
              g_unlink (tmp);
              close (fd);
              return fail_errno (error, shown, saved);
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
      return fail_errno (error, shown, saved);
    }
  close (fd);
  return TRUE;
}

/* A new or regular file at @path (@shown for messages), replaced whole. */
static gboolean
replace_regular (const char *path, const char *shown, const char *contents, gsize length, int fault, int mode,
                 GError **error)
{
  gboolean unsupported = FALSE;

  if (write_anonymous (path, shown, contents, length, fault, mode, &unsupported, error))
    return TRUE;
  if (!unsupported)
    return FALSE;
  /* no O_TMPFILE here: GLib's temporary-file-and-rename (a kill may leave its temporary) */
  if (fault == FAULT_KILL)
    raise (SIGKILL);
  if (fault == FAULT_SHORT)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "Failed to write “%s”: short write", shown);
      return FALSE;
    }
  return g_file_set_contents_full (path, contents, (gssize) length, G_FILE_SET_CONTENTS_CONSISTENT,
                                   mode >= 0 ? mode : 0666, error);
}

/* A stream (a character device, a FIFO, standard output): written through in place. */
static gboolean
write_stream (int fd, const char *shown, const char *contents, gsize length, int fault, GError **error)
{
  if (!write_all (fd, contents, fault == FAULT_SHORT || fault == FAULT_KILL ? length / 2 : length, shown, error))
    return FALSE;
  if (fault == FAULT_KILL)
    raise (SIGKILL);
  if (fault == FAULT_SHORT)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "Failed to write “%s”: short write (%" G_GSIZE_FORMAT
                   " of %" G_GSIZE_FORMAT " bytes)", shown, length / 2, length);
      return FALSE;
    }
  return TRUE;
}

static gboolean
same_file_as_fd (const GStatBuf *st, int fd)
{
  GStatBuf fst;

  return fstat (fd, &fst) == 0 && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino;
}

/* Where a dangling symlink points: the link's target, followed through further links, each
 * relative one against its link's folder. NULL (and errno) on a loop or a read error. */
static char *
dangling_target (const char *path)
{
  g_autofree char *at = g_strdup (path);

  for (guint hops = 0; hops < 40; hops++)
    {
      GStatBuf st;
      g_autofree char *target = NULL;
      GError *local = NULL;

      if (g_lstat (at, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&at);
      target = g_file_read_link (at, &local);
      if (target == NULL)
        {
          errno = local->code == G_FILE_ERROR_NOENT ? ENOENT : EINVAL;
          g_error_free (local);
          return NULL;
        }
      if (!g_path_is_absolute (target))
        {
          g_autofree char *dir = g_path_get_dirname (at);
          g_free (at);
          at = g_build_filename (dir, target, NULL);
        }
      else
        {
          g_free (at);
          at = g_steal_pointer (&target);
        }
    }
  errno = ELOOP;
  return NULL;
}

static const char *
kind_of (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("a special file");
}

gboolean
zw_file_set_contents (const char *path, const char *contents, gssize length, GError **error)
{
  GStatBuf st, lst;
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

  if (strcmp (path, "-") == 0)
    {
      fflush (stdout);
      return write_stream (STDOUT_FILENO, path, contents, (gsize) length, fault, error);
    }
  if (g_stat (path, &st) != 0)
    {
      g_autofree char *target = NULL;
      if (errno != ENOENT)
        return fail_errno (error, path, errno);
      if (g_lstat (path, &lst) != 0 || !S_ISLNK (lst.st_mode))
        return replace_regular (path, path, contents, (gsize) length, fault, -1, error);
      /* a dangling symlink: its target is created, the link stays */
      if ((target = dangling_target (path)) == NULL)
        return fail_errno (error, path, errno);
      return replace_regular (target, path, contents, (gsize) length, fault, -1, error);
    }
  /* the stream the process already writes to (/dev/stdout, /proc/self/fd/1, a file that
   * standard output is redirected to): written where that stream is, after what it holds */
  if (same_file_as_fd (&st, STDOUT_FILENO) && !S_ISDIR (st.st_mode))
    {
      fflush (stdout);
      return write_stream (STDOUT_FILENO, path, contents, (gsize) length, fault, error);
    }
  if (same_file_as_fd (&st, STDERR_FILENO) && !S_ISDIR (st.st_mode))
    {
      fflush (stderr);
      return write_stream (STDERR_FILENO, path, contents, (gsize) length, fault, error);
    }
  if (S_ISREG (st.st_mode))
    {
      g_autofree char *target = NULL;
      int mode = (int) (st.st_mode & 07777);
      if (g_lstat (path, &lst) == 0 && S_ISLNK (lst.st_mode))
        {
          /* written through to the target, which is replaced; the link stays */
          if ((target = realpath (path, NULL)) == NULL)
            return fail_errno (error, path, errno);
        }
      return replace_regular (target ? target : path, path, contents, (gsize) length, fault, mode, error);
    }
  if (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode))
    {
      gboolean ok;
      int fd = open (path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd < 0)
        return fail_errno (error, path, errno);
      ok = write_stream (fd, path, contents, (gsize) length, fault, error);
      if (close (fd) != 0 && ok)
        return fail_errno (error, path, errno);
      return ok;
    }
  g_set_error (error, G_FILE_ERROR, S_ISDIR (st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
               _("Failed to write “%s”: it is %s; only regular files (replaced whole), character devices, FIFOs and "
                 "“-” (written through) are written, nothing else is replaced"), path, kind_of (st.st_mode));
  return FALSE;
}

char *
zw_file_safe_name (const char *name)
{
  GString *out;
  gboolean leading = TRUE;

  if (name == NULL || *name == '\0')
    return g_strdup ("network");
  out = g_string_new (NULL);
  for (const char *p = name; *p && out->len < 200; p++)
    {
      guchar c = (guchar) *p;
      if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f || (leading && c == '.'))
        g_string_append_c (out, '_');
      else
        g_string_append_c (out, (char) c);
      leading = leading && c == '.';
    }
  /* cut at 200 bytes: back to the start of the last whole UTF-8 character */
  if (out->len >= 200)
    {
      gsize n = out->len;
      while (n > 0 && ((guchar) out->str[n - 1] & 0xC0) == 0x80)
        n--;
      if (n > 0 && ((guchar) out->str[n - 1] & 0x80))
        {
          guchar lead = (guchar) out->str[n - 1];
          gsize need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
          if (out->len - (n - 1) < need)
            g_string_truncate (out, n - 1);
        }
    }
  return g_string_free (out, FALSE);
}
