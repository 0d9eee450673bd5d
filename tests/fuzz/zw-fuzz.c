/* zw-fuzz.c — scratch files and the error contract shared by the harnesses. */
#include "zw-fuzz.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *scratch;

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static void
cleanup (void)
{
  if (scratch)
    remove_tree (scratch);
  g_clear_pointer (&scratch, g_free);
}

const char *
zw_fuzz_scratch_dir (void)
{
  if (scratch == NULL)
    {
      g_autoptr (GError) error = NULL;
      scratch = g_dir_make_tmp ("zw-fuzz-XXXXXX", &error);
      if (scratch == NULL)
        g_error ("zw-fuzz: cannot make a scratch folder: %s", error->message);
      atexit (cleanup);
    }
  return scratch;
}

const char *
zw_fuzz_write_file (const char *name, const uint8_t *data, size_t size)
{
  static GHashTable *paths;
  g_autoptr (GError) error = NULL;

  if (paths == NULL)
    paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  char *path = g_build_filename (zw_fuzz_scratch_dir (), name, NULL);
  if (!g_file_set_contents_full (path, (const char *) data, (gssize) size, G_FILE_SET_CONTENTS_NONE, 0600, &error))
    g_error ("zw-fuzz: cannot write %s: %s", path, error->message);
  g_hash_table_replace (paths, g_strdup (name), path);
  return path;
}

const char *
zw_fuzz_fresh_dir (const char *name)
{
  static GHashTable *dirs;

  if (dirs == NULL)
    dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  char *path = g_build_filename (zw_fuzz_scratch_dir (), name, NULL);
  remove_tree (path);
  if (g_mkdir_with_parents (path, 0700) != 0)
    g_error ("zw-fuzz: cannot make %s", path);
  g_hash_table_replace (dirs, g_strdup (name), path);
  return path;
}

void
zw_fuzz_check_error (const GError *error, const char *needle, const char *what)
{
  if (error == NULL)
    {
      fprintf (stderr, "zw-fuzz: %s failed without setting its GError\n", what);
      abort ();
    }
  if (error->message == NULL || error->message[0] == '\0')
    {
      fprintf (stderr, "zw-fuzz: %s failed with an empty message\n", what);
      abort ();
    }
  if (needle != NULL && strstr (error->message, needle) == NULL)
    {
      fprintf (stderr, "zw-fuzz: %s: the message does not name \"%s\": %s\n", what, needle, error->message);
      abort ();
    }
}

const char *
zw_fuzz_tiny_network_path (void)
{
  static char *path;

  if (path == NULL)
    {
      const char *env = g_getenv ("ZW_FUZZ_NETWORK");
      path = g_strdup (env ? env : ZW_BUILD_DATADIR "/networks/tiny_ZG.json");
    }
  return path;
}
