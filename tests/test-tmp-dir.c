/* test-tmp-dir.c — the temporary folders tests make and remove (zw-test-util: ZwTestTmpDir,
 * zw_test_remove_tree): a folder goes with everything under it, read-only folders included,
 * and a symbolic link goes without what it points to (a link out of the folder never makes
 * the removal reach files outside it). */
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void
write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static gboolean
exists (const char *dir, const char *name)
{
  g_autofree char *path = name != NULL ? g_build_filename (dir, name, NULL) : g_strdup (dir);
  GStatBuf st;

  return g_lstat (path, &st) == 0;
}

static void
test_removed_when_freed (void)
{
  g_autoptr (ZwTestTmpDir) outside = zw_test_tmp_dir_new ("zw-outside-XXXXXX");
  g_autofree char *kept = NULL;

  write_file (outside, "keep.txt", "not the test's to remove");
  {
    g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-tmp-dir-XXXXXX");
    g_autofree char *deep = g_build_filename (dir, "a", "b", "c", NULL);
    g_autofree char *ro = g_build_filename (dir, "read-only", NULL);
    g_autofree char *link_dir = g_build_filename (dir, "to-outside", NULL);
    g_autofree char *link_file = g_build_filename (dir, "to-keep.txt", NULL);
    g_autofree char *keep = g_build_filename (outside, "keep.txt", NULL);

    g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
    {
      g_autofree char *base = g_path_get_basename (dir);
      g_autofree char *parent = g_path_get_dirname (dir);
      g_assert_true (g_str_has_prefix (base, "zw-tmp-dir-"));
      g_assert_cmpstr (parent, ==, g_get_tmp_dir ());
    }
    g_assert_cmpint (g_mkdir_with_parents (deep, 0700), ==, 0);
    write_file (deep, "x.bin", "x");
    write_file (dir, ".hidden", "h");
    g_assert_cmpint (g_mkdir (ro, 0700), ==, 0);
    write_file (ro, "inside.txt", "i");
    g_assert_cmpint (g_chmod (ro, 0500), ==, 0);
    g_assert_cmpint (symlink (outside, link_dir), ==, 0);
    g_assert_cmpint (symlink (keep, link_file), ==, 0);
    kept = g_strdup (dir);
  }
  /* gone, all of it */
  g_assert_false (exists (kept, NULL));
  /* what the links pointed to is still there */
  g_assert_true (exists (outside, NULL));
  g_assert_true (exists (outside, "keep.txt"));
}

static void
test_remove_tree_of_a_file_a_link_and_nothing (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-tmp-dir-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "f.txt", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *link = g_build_filename (dir, "link", NULL);
  g_autofree char *none = g_build_filename (dir, "none", NULL);

  write_file (dir, "f.txt", "f");
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  write_file (sub, "s.txt", "s");
  g_assert_cmpint (symlink (sub, link), ==, 0);
  /* a link to a folder: the link goes, the folder and its file stay */
  zw_test_remove_tree (link);
  g_assert_false (exists (dir, "link"));
  g_assert_true (exists (sub, "s.txt"));
  /* a plain file */
  zw_test_remove_tree (file);
  g_assert_false (exists (dir, "f.txt"));
  /* nothing there: nothing happens */
  zw_test_remove_tree (none);
  g_assert_true (exists (sub, NULL));
  /* a NULL folder frees as nothing */
  zw_test_tmp_dir_free (NULL);
}

static void
test_copy_folder (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-tmp-dir-XXXXXX");
  g_autofree char *from = g_build_filename (dir, "from", NULL);
  g_autofree char *to = g_build_filename (dir, "to", "made", NULL);
  g_autofree char *copied = g_build_filename (to, "b.bin", NULL);
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_assert_cmpint (g_mkdir (from, 0700), ==, 0);
  write_file (from, "a.txt", "alpha");
  {
    g_autofree char *b = g_build_filename (from, "b.bin", NULL);
    g_assert_true (g_file_set_contents (b, "\0\1\2\3", 4, NULL));
  }
  zw_test_copy_folder (from, to);
  g_assert_true (exists (to, "a.txt"));
  g_assert_true (g_file_get_contents (copied, &contents, &len, NULL));
  g_assert_cmpmem (contents, len, "\0\1\2\3", 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tmp-dir/removed-with-all-it-holds-read-only-too-links-not-followed", test_removed_when_freed);
  g_test_add_func ("/tmp-dir/remove-tree-of-a-file-a-link-and-nothing", test_remove_tree_of_a_file_a_link_and_nothing);
  g_test_add_func ("/tmp-dir/copy-folder-byte-for-byte-into-a-folder-it-makes", test_copy_folder);
  return g_test_run ();
}
