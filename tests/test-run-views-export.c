/* test-run-views-export.c — the Logs view and the exports of the run views (suite render, no
 * display): the log drawn with its matches highlighted (the current one apart); Timing and Logs
 * exported to PNG, SVG and PDF parse back (size, root element, %%EOF), unknown formats and
 * empty sizes refused; CSV written and parsed back (quotes, commas, new lines).
 *
 * ZW_RUN_VIEWS_KEEP=<dir> keeps the rendered PNG there for a look. */
#include "zw-test-pixels.h"
#include "zw-test-util.h"
#include "report/zw-profile.h"
#include "zw-export.h"
#include "zw-log-view.h"
#include "zw-timing-view.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  const char *text, *needle;
  gint line;
} LogArgs;

static void
draw_log (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  LogArgs *a = data;
  zw_log_view_draw (cr, w, h, a->text, "test.log", a->needle, a->line, style);
}

static void
test_log_render_highlights (void)
{
  LogArgs a = { "apply: ok\nocm option OPTION2 chosen\nvalue 16 in OCM\nforward done\n", "ocm", 2 };
  cairo_surface_t *s = zw_test_render (500, 200, draw_log, &a);
  ZwViewStyle style;
  guint accent = 0, warn = 0;

  zw_view_style_init_default (&style);
  zw_test_keep_png (s, "log.png");
  for (int y = 0; y < 200; y++)
    for (int x = 0; x < 500; x++)
      {
        guint32 p = zw_test_pixel (s, x, y);
        accent += zw_test_near (p, zw_test_blend (&style.accent, 0.55, zw_test_argb (&style.background)), 2);
        warn += zw_test_near (p, zw_test_blend (&style.warning, 0.30, zw_test_argb (&style.background)), 2);
      }
  /* "ocm" on line 2 (the current match) and "OCM" on line 3 */
  g_assert_cmpuint (warn, >, 20);
  g_assert_cmpuint (accent, >, 20);
  cairo_surface_destroy (s);
}

/* Timing as exported: a profile (or none: the empty state) in a fitted view */
typedef struct {
  const ZwProfile *profile;
  ZwTimingState state;
} TimingArgs;

static void
draw_timing (cairo_t *cr, int w, int h, const ZwViewStyle *style, gpointer data)
{
  TimingArgs *a = data;
  zw_timing_view_draw (cr, w, h, a->profile, NULL, &a->state, style);
}

static void
check_exports (ZwExportDrawFunc draw, gpointer data, int w, int h, const char *dir, const char *name)
{
  static const char *ext[] = { "png", "svg", "pdf" };

  for (int f = 0; f < 3; f++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_strdup_printf ("%s/%s.%s", dir, name, ext[f]);
      g_autofree char *contents = NULL;
      ZwViewFormat format;
      gsize len;

      g_assert_true (zw_export_format_from_path (path, &format, &error));
      g_assert_cmpint (format, ==, f);
      g_assert_true (zw_export_draw_to_file (draw, data, NULL, format, w, h, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      if (format == ZW_VIEW_FORMAT_PNG)
        {
          cairo_surface_t *s = cairo_image_surface_create_from_png (path);
          g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
          g_assert_cmpint (cairo_image_surface_get_width (s), ==, w);
          g_assert_cmpint (cairo_image_surface_get_height (s), ==, h);
          cairo_surface_destroy (s);
        }
      else if (format == ZW_VIEW_FORMAT_SVG)
        zw_test_assert_svg (contents, len);
      else
        {
          const char *tail = contents + len;
          g_assert_true (g_str_has_prefix (contents, "%PDF"));
          while (tail > contents && g_ascii_isspace (tail[-1]))
            tail--;
          g_assert_cmpint (tail - contents, >=, 5);
          g_assert_cmpmem (tail - 5, 5, "%%EOF", 5);
        }
      g_unlink (path);
    }
}

static void
test_exports (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("ZW_SHARED_DIR"), "real", "bytetrack_BY_int8_time.txt", NULL);
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("run-views-export-XXXXXX");
  g_autoptr (ZwProfile) p = NULL;
  TimingArgs t = { .profile = NULL };
  LogArgs l = { "line one\nline, \"two\"\n", "two", 1 };
  g_autoptr (GError) error = NULL;
  ZwViewFormat format;

  p = g_file_test (path, G_FILE_TEST_EXISTS) ? zw_profile_load (path, NULL, NULL, NULL) : NULL;
  t.profile = p;
  zw_timing_state_init (&t.state);
  check_exports (draw_timing, &t, 900, 400, dir, "timing");
  check_exports (draw_log, &l, 400, 200, dir, "log");
  g_assert_false (zw_export_format_from_path ("x.bmp", &format, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (zw_export_draw_to_file (draw_log, &l, NULL, ZW_VIEW_FORMAT_PNG, 0, 10, "/nonexistent/x.png", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_csv_round_trip (void)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *csv = NULL;
  const char *r0[] = { "op_id", "name", "note", NULL };
  const char *r1[] = { "3", "conv, 3x3", "say \"hi\"", NULL };
  const char *r2[] = { "4", "", "two\nlines 中文", NULL };

  g_ptr_array_add (rows, g_strdupv ((char **) r0));
  g_ptr_array_add (rows, g_strdupv ((char **) r1));
  g_ptr_array_add (rows, g_strdupv ((char **) r2));
  csv = zw_export_csv_from_rows (rows);
  g_assert_true (g_str_has_prefix (csv, "op_id,name,note\r\n3,\"conv, 3x3\",\"say \"\"hi\"\"\"\r\n"));
  back = zw_export_csv_parse (csv, "t.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_true (g_strv_equal (g_ptr_array_index (back, i), g_ptr_array_index (rows, i)));
  g_assert_null (zw_export_csv_parse ("a,\"b\n", "bad.csv", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "bad.csv:1"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-views/render/log/matches-highlighted", test_log_render_highlights);
  g_test_add_func ("/run-views/render/export/png-svg-pdf-parse-back", test_exports);
  g_test_add_func ("/run-views/render/export/csv-round-trip", test_csv_round_trip);
  return g_test_run ();
}
