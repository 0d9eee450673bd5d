/* replay-main.c — the regression corpus as an ordinary test: every file of
 * tests/fuzz/corpus/<harness>/ goes through its harness (in both CI passes, so the
 * sanitizers see each one). A crash, a sanitizer report or a broken error contract fails. */
#include "zw-fuzz.h"

typedef struct {
  int (*func) (const uint8_t *data, size_t size);
  char *path;
} Case;

static void
run_case (gconstpointer p)
{
  const Case *c = p;
  g_autofree char *data = NULL;
  gsize size = 0;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (c->path, &data, &size, &error));
  g_assert_cmpint (c->func ((const uint8_t *) data, size), ==, 0);
}

static void
run_empty (gconstpointer p)
{
  const Case *c = p;
  g_assert_cmpint (c->func ((const uint8_t *) "", 0), ==, 0);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  const char *corpus = g_getenv ("ZW_FUZZ_CORPUS");
  g_assert_nonnull (corpus);

#define ZW_FUZZ_REGISTER(name)                                                                 \
  {                                                                                            \
    Case *empty = g_new0 (Case, 1);                                                            \
    empty->func = zw_fuzz_##name;                                                              \
    g_test_add_data_func ("/fuzz/regress/" #name "/empty", empty, run_empty);                  \
    g_autofree char *dir = g_build_filename (corpus, #name, NULL);                             \
    g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);                     \
    GDir *d = g_dir_open (dir, 0, NULL);                                                       \
    const char *entry;                                                                         \
    while (d && (entry = g_dir_read_name (d)) != NULL)                                         \
      g_ptr_array_add (names, g_strdup (entry));                                               \
    if (d)                                                                                     \
      g_dir_close (d);                                                                         \
    g_ptr_array_sort (names, compare_names);                                        \
    for (guint i = 0; i < names->len; i++)                                                     \
      {                                                                                        \
        Case *c = g_new0 (Case, 1);                                                            \
        c->func = zw_fuzz_##name;                                                              \
        c->path = g_build_filename (dir, names->pdata[i], NULL);                               \
        g_autofree char *test_path = g_strdup_printf ("/fuzz/regress/" #name "/%s",            \
                                                      (char *) names->pdata[i]);               \
        g_test_add_data_func (test_path, c, run_case);                                         \
      }                                                                                        \
  }
  ZW_FUZZ_HARNESSES (ZW_FUZZ_REGISTER)
  return g_test_run ();
}
