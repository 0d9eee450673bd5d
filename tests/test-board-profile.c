/* test-board-profile.c: the board profile (data/devices/zg330.json): the built-in one is the
 * file, malformed ones are rejected, save and load round-trip. */
#include "zw-test-board.h"

#include <string.h>
#include <glib/gstdio.h>

static gchar *
source_profile_path (void)
{
  const char *dir = g_getenv ("ZW_SOURCE_DATA_DIR");
#ifdef ZW_SOURCE_DATADIR
  if (dir == NULL)
    dir = ZW_SOURCE_DATADIR;
#endif
  g_assert_nonnull (dir);
  return g_build_filename (dir, "devices", "zg330.json", NULL);
}

static void
test_profile_builtin_matches_file (void)
{
  g_autofree gchar *path = source_profile_path ();
  g_autoptr (Zg330Profile) builtin = zg330_profile_new_builtin ();
  g_autoptr (Zg330Profile) file = NULL;
  g_autoptr (Zg330Profile) deflt = NULL;
  GError *error = NULL;
  const char *const *fields = zg330_profile_list_fields ();

  file = zg330_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (file->name, ==, "zg330");
  for (guint i = 0; fields[i]; i++)
    {
      double a, b;
      g_assert_true (zg330_profile_get_field (builtin, fields[i], &a));
      g_assert_true (zg330_profile_get_field (file, fields[i], &b));
      if (a != b)
        g_error ("field %s: built-in %.17g, %s %.17g", fields[i], a, path, b);
      g_assert_nonnull (zg330_profile_get_field_doc (fields[i]));
    }
  g_assert_cmpuint (file->assumptions->len, ==, builtin->assumptions->len);
  g_assert_cmpuint (file->ocm_bytes, ==, 2 * 1024 * 1024);
  g_assert_cmpfloat (file->macs_per_cycle, ==, 4000.0);
  for (guint i = 0; i < file->assumptions->len; i++)
    g_assert_cmpstr (file->assumptions->pdata[i], ==, builtin->assumptions->pdata[i]);

  deflt = zg330_profile_load_default (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (deflt->ocm_bytes, ==, file->ocm_bytes);
}

static void
test_profile_rejects_malformed (void)
{
  static const struct { const char *field; const char *value; const char *needle; } cases[] = {
    { "ocm_bytes", NULL, "field 'ocm_bytes': missing" },
    { "ocm_bytes", "\"big\"", "field 'ocm_bytes': must be a number" },
    { "ocm_bytes", "-1", "field 'ocm_bytes'" },
    { "mpe_cols", "4.5", "field 'mpe_cols'" },
    { "icore_clock_hz", "0", "field 'icore_clock_hz'" },
    { "fpga_version", "123", "field 'fpga_version'" },
    { "etm_base", "4026531840", "field 'etm_bytes'" },     /* base + 4 GiB > 32 bits */
    { "assumptions", "[]", "field 'assumptions'" },
    { "assumptions", "[1]", "field 'assumptions[0]'" },
    { "profile_version", "2", "field 'profile_version'" },
    { "name", "7", "field 'name'" },
  };
  g_autofree gchar *dir = g_dir_make_tmp ("test-board-XXXXXX", NULL);
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *name = g_strdup_printf ("bad-%u.json", i);
      g_autofree gchar *text = NULL;
      g_autofree gchar *path = NULL;
      Zg330Profile *p;

      if (strcmp (cases[i].field, "assumptions") == 0)
        {
          /* The assumptions list is last: replace it wholesale. */
          g_autoptr (Zg330Profile) b = zg330_profile_new_builtin ();
          g_autofree gchar *json = zg330_profile_to_json (b);
          char *at = strstr (json, "\t\"assumptions\":\t[");
          g_assert_nonnull (at);
          text = g_strdup_printf ("%.*s\t\"assumptions\": %s\n}\n", (int) (at - json), json,
                                  cases[i].value);
        }
      else
        text = profile_text_with (cases[i].field, cases[i].value);
      path = write_temp (dir, name, text);
      p = zg330_profile_load (path, &error);
      g_assert_null (p);
      g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
      if (strstr (error->message, cases[i].needle) == NULL || strstr (error->message, path) == NULL)
        g_error ("case %u: message '%s' lacks '%s' or the path", i, error->message, cases[i].needle);
      g_clear_error (&error);
      g_unlink (path);
    }

  {
    g_autofree gchar *path = write_temp (dir, "typo.json", "{ \"ocm_byte\": 1 }");
    g_assert_null (zg330_profile_load (path, &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
    g_assert_nonnull (strstr (error->message, "field 'ocm_byte': unknown field"));
    g_clear_error (&error);
    g_unlink (path);
  }
  {
    g_autofree gchar *path = write_temp (dir, "broken.json", "{ \"name\": ");
    g_assert_null (zg330_profile_load (path, &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_PROFILE);
    g_assert_nonnull (strstr (error->message, "not valid JSON"));
    g_assert_nonnull (strstr (error->message, path));
    g_clear_error (&error);
    g_unlink (path);
  }
  g_rmdir (dir);
}

static void
test_profile_save_roundtrip (void)
{
  g_autoptr (Zg330Profile) p = zg330_profile_new_builtin ();
  g_autoptr (Zg330Profile) back = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("test-board-XXXXXX", NULL);
  g_autofree gchar *path = g_build_filename (dir, "whatif.json", NULL);
  GError *error = NULL;

  g_assert_true (zg330_profile_set_ocm_bytes (p, 8 << 20, &error));
  g_assert_true (zg330_profile_set_etm_bandwidth (p, 25.6e9, &error));
  g_assert_true (zg330_profile_save (p, path, &error));
  back = zg330_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->ocm_bytes, ==, 8 << 20);
  g_assert_cmpfloat (back->etm_bandwidth, ==, 25.6e9);
  g_assert_cmpuint (back->fpga_version, ==, p->fpga_version);
  g_unlink (path);
  g_rmdir (dir);
}

void
test_board_add_profile (void)
{
  g_test_add_func ("/board/profile/builtin-matches-file", test_profile_builtin_matches_file);
  g_test_add_func ("/board/profile/rejects-malformed", test_profile_rejects_malformed);
  g_test_add_func ("/board/profile/save-load-roundtrip", test_profile_save_roundtrip);
}
