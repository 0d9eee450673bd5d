/* test-file.c — the one writer (base/zw-file.h) and the one reader rule (base/zw-file-read.h):
 * what is at a path decides how it is written, a name from a file never leaves its folder,
 * and an input that is not a regular file is refused at once. */
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *
scratch (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("zw-file-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      GStatBuf st;
      if (g_lstat (child, &st) == 0 && S_ISDIR (st.st_mode))
        remove_tree (child);
      else
        g_unlink (child);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

static char *
contents_of (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* ---- the writer ---------------------------------------------------------------------------- */

static void
test_write_replaces_regular_keeping_mode (void)
{
  g_autofree char *dir = scratch ();
  g_autofree char *path = g_build_filename (dir, "a.json", NULL);
  g_autoptr (GError) error = NULL;
  GStatBuf before, after;

  g_assert_true (zw_file_set_contents (path, "one", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0640), ==, 0);
  g_assert_cmpint (g_stat (path, &before), ==, 0);
  g_assert_true (zw_file_set_contents (path, "two", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_autofree char *text = contents_of (path);
  g_assert_cmpstr (text, ==, "two");
  g_assert_true (S_ISREG (after.st_mode));
  g_assert_cmpuint (after.st_ino, !=, before.st_ino);   /* replaced, not rewritten in place */
  g_assert_cmpuint (after.st_mode & 07777, ==, 0640);
  remove_tree (dir);
}

/* A symlink is written through to its target (as editors do): the link stays a link, the
 * target gets the bytes; a dangling link gets its target created. */
static void
test_write_through_symlink (void)
{
  g_autofree char *dir = scratch ();
  g_autofree char *target = g_build_filename (dir, "target.txt", NULL);
  g_autofree char *link = g_build_filename (dir, "link.txt", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling.txt", NULL);
  g_autofree char *made = g_build_filename (dir, "made.txt", NULL);
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.txt", link), ==, 0);
  g_assert_true (zw_file_set_contents (link, "new", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_autofree char *text = contents_of (target);
  g_assert_cmpstr (text, ==, "new");

  g_assert_cmpint (symlink ("made.txt", dangling), ==, 0);
  g_assert_true (zw_file_set_contents (dangling, "created", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (dangling, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_autofree char *text2 = contents_of (made);
  g_assert_cmpstr (text2, ==, "created");
  remove_tree (dir);
}

/* A FIFO is written through as a stream (its reader gets the bytes), never replaced. */
static void
test_write_through_fifo (void)
{
  g_autofree char *dir = scratch ();
  g_autofree char *fifo = g_build_filename (dir, "pipe", NULL);
  g_autoptr (GError) error = NULL;
  char got[64] = { 0 };
  ssize_t n;
  GStatBuf st;
  int rd;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* the reader is there first (a FIFO's writer waits for one), and never waits itself */
  rd = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (rd, >=, 0);
  g_assert_true (zw_file_set_contents (fifo, "through the pipe", -1, &error));
  g_assert_no_error (error);
  n = read (rd, got, sizeof got - 1);
  close (rd);
  g_assert_cmpint (n, ==, 16);
  g_assert_cmpstr (got, ==, "through the pipe");
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  remove_tree (dir);
}

/* Character devices are written through: /dev/null takes the bytes, /dev/full fails with "no
 * space" naming it, and both stay devices (as root, the old writer replaced /dev/full with a
 * regular file). */
static void
test_write_through_char_device (void)
{
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_true (zw_file_set_contents ("/dev/null", "nothing", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  if (g_lstat ("/dev/full", &st) != 0)
    return;
  g_assert_false (zw_file_set_contents ("/dev/full", "too much", -1, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC);
  g_assert_nonnull (strstr (error->message, "/dev/full"));
  g_assert_cmpint (g_lstat ("/dev/full", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
}

/* "-", /dev/stdout and /proc/self/fd/1 are the process's standard output, in order with
 * what it printed before. */
static void
test_write_stdout (void)
{
  static const char *const paths[] = { "-", "/dev/stdout", "/proc/self/fd/1" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *child = g_strdup_printf ("/file/write/stdout/subprocess/%u", i);
      g_test_trap_subprocess (child, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stdout ("before\nwritten through\n");
    }
}

static void
write_stdout_child (gconstpointer data)
{
  static const char *const paths[] = { "-", "/dev/stdout", "/proc/self/fd/1" };
  g_autoptr (GError) error = NULL;

  if (!g_test_subprocess ())
    return;   /* run by /file/write/stdout, its standard output captured */
  printf ("before\n");   /* buffered: the writer flushes it first */
  g_assert_true (zw_file_set_contents (paths[GPOINTER_TO_UINT (data)], "written through\n", -1, &error));
  g_assert_no_error (error);
}

static void
test_write_refuses_folder (void)
{
  g_autofree char *dir = scratch ();
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_false (zw_file_set_contents (dir, "x", -1, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR);
  g_assert_nonnull (strstr (error->message, dir));
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_true (S_ISDIR (st.st_mode));
  remove_tree (dir);
}

/* The faults hit streams too: "nospace" writes nothing to a FIFO's reader. */
static void
test_write_fault_on_stream (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (zw_file_set_faults ("nospace@1", &error));
  g_assert_false (zw_file_set_contents ("/dev/null", "x", -1, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC);
  g_clear_error (&error);
  g_assert_true (zw_file_set_faults (NULL, &error));
}

static void
test_safe_name (void)
{
  static const char *const cases[][2] = {
    { "yolov5s", "yolov5s" },
    { "../../zw-escaped", "___.._zw-escaped" },
    { "/etc/passwd", "_etc_passwd" },
    { "..", "__" },
    { ".hidden", "_hidden" },
    { "a\\b\nc", "a_b_c" },
    { "", "network" },
    { "网络", "网络" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = zw_file_safe_name (cases[i][0]);
      g_assert_cmpstr (got, ==, cases[i][1]);
    }
  g_autofree char *null_name = zw_file_safe_name (NULL);
  g_assert_cmpstr (null_name, ==, "network");
  /* long names are cut at 200 bytes, on a whole UTF-8 character */
  g_autoptr (GString) lng = g_string_new ("x");
  for (guint i = 0; i < 100; i++)
    g_string_append (lng, "网");
  g_autofree char *cut = zw_file_safe_name (lng->str);
  g_assert_cmpuint (strlen (cut), <=, 200);
  g_assert_true (g_utf8_validate (cut, -1, NULL));
  g_assert_null (strchr (cut, '/'));
}

/* ---- the reader ---------------------------------------------------------------------------- */

/* A FIFO is refused at once (no writer ever comes: the old reader blocked forever), naming
 * the path and what it was meant to be; so is every way in. */
static void
test_read_refuses_fifo (void)
{
  g_autofree char *dir = scratch ();
  g_autofree char *fifo = g_build_filename (dir, "net.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  guint64 size;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (zw_file_read_regular (fifo, ZW_INPUT_NETWORK, 0, &text, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, fifo));
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_assert_nonnull (strstr (error->message, "FIFO"));
  g_assert_nonnull (strstr (error->message, "network JSON"));
  g_clear_error (&error);
  g_assert_null (zw_file_map_regular (fifo, ZW_INPUT_PARAMS, 0, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_nonnull (strstr (error->message, "params"));
  g_clear_error (&error);
  g_assert_cmpint (zw_file_open_regular (fifo, ZW_INPUT_ANY, 0, &size, &error), ==, -1);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  remove_tree (dir);
}

/* /dev/zero is refused before a byte is read (the old reader read until memory ran out);
 * a folder too. */
static void
test_read_refuses_devices_and_folders (void)
{
  g_autofree char *dir = scratch ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_false (zw_file_read_regular ("/dev/zero", ZW_INPUT_TIME_PROFILE, 0, &text, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_true (g_str_has_prefix (error->message, "/dev/zero: not a regular file"));
  g_assert_nonnull (strstr (error->message, "character device"));
  g_assert_nonnull (strstr (error->message, "time profile"));
  g_clear_error (&error);
  g_assert_false (zw_file_read_regular (dir, ZW_INPUT_SNAPSHOT, 0, &text, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_nonnull (strstr (error->message, "folder"));
  g_clear_error (&error);
  g_assert_false (zw_file_read_regular ("/nonexistent/x.json", ZW_INPUT_DEPLOY_REPORT, 0, &text, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_true (g_str_has_prefix (error->message, "/nonexistent/x.json: "));
  remove_tree (dir);
}

/* A file over its cap is refused with its size and the cap; within it, read whole. */
static void
test_read_cap (void)
{
  g_autofree char *dir = scratch ();
  g_autofree char *path = g_build_filename (dir, "in.bin", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;

  g_assert_true (g_file_set_contents (path, "0123456789", 10, NULL));
  g_assert_false (zw_file_read_regular (path, ZW_INPUT_TENSOR, 9, &text, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "10 bytes"));
  g_assert_nonnull (strstr (error->message, " 9 "));
  g_assert_null (text);
  g_clear_error (&error);
  g_assert_true (zw_file_read_regular (path, ZW_INPUT_TENSOR, 10, &text, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (text, len, "0123456789", 10);
  g_assert_cmpint (text[len], ==, '\0');
  g_autoptr (GMappedFile) map = zw_file_map_regular (path, ZW_INPUT_PARAMS, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_mapped_file_get_contents (map), g_mapped_file_get_length (map), "0123456789", 10);
  remove_tree (dir);
}

/* "-" is standard input for the kinds where a stream makes sense (time profiles, deploy
 * reports), capped like a file; for the others it is a file named "-". */
static void
test_read_dash (void)
{
  int fds[2], saved = dup (STDIN_FILENO);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], "op_id,op_type\n", 14), ==, 14);
  close (fds[1]);
  g_assert_cmpint (dup2 (fds[0], STDIN_FILENO), ==, STDIN_FILENO);
  close (fds[0]);
  g_assert_true (zw_file_read_regular ("-", ZW_INPUT_TIME_PROFILE, 0, &text, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (text, len, "op_id,op_type\n", 14);
  dup2 (saved, STDIN_FILENO);
  close (saved);

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], "0123456789", 10), ==, 10);
  close (fds[1]);
  saved = dup (STDIN_FILENO);
  dup2 (fds[0], STDIN_FILENO);
  close (fds[0]);
  g_clear_pointer (&text, g_free);
  g_assert_false (zw_file_read_regular ("-", ZW_INPUT_DEPLOY_REPORT, 4, &text, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
  g_clear_error (&error);
  dup2 (saved, STDIN_FILENO);
  close (saved);

  g_assert_false (zw_file_read_regular ("-", ZW_INPUT_NETWORK, 0, &text, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/file/write/replaces-regular-file-keeping-its-mode", test_write_replaces_regular_keeping_mode);
  g_test_add_func ("/file/write/symlink-written-through-to-its-target", test_write_through_symlink);
  g_test_add_func ("/file/write/fifo-written-through", test_write_through_fifo);
  g_test_add_func ("/file/write/char-device-written-through-never-replaced", test_write_through_char_device);
  g_test_add_func ("/file/write/stdout", test_write_stdout);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *p = g_strdup_printf ("/file/write/stdout/subprocess/%u", i);
      g_test_add_data_func (p, GUINT_TO_POINTER (i), write_stdout_child);
    }
  g_test_add_func ("/file/write/folder-refused", test_write_refuses_folder);
  g_test_add_func ("/file/write/fault-on-stream", test_write_fault_on_stream);
  g_test_add_func ("/file/safe-name/one-component-in-its-folder", test_safe_name);
  g_test_add_func ("/file/read/fifo-refused-at-once", test_read_refuses_fifo);
  g_test_add_func ("/file/read/devices-and-folders-refused", test_read_refuses_devices_and_folders);
  g_test_add_func ("/file/read/size-cap-before-reading", test_read_cap);
  g_test_add_func ("/file/read/dash-is-stdin-where-a-stream-makes-sense", test_read_dash);
  return g_test_run ();
}
