/* test-app-views — the window's views (suite "display"): each deploy view draws the demo's
 * deployment; Segments shows physical addresses where the board's allocator put them, with
 * its legend; one unit per axis and one name per OCM option; one table of views (--list-views,
 * --view, the pages, the shortcuts window and Export all take it) whose every view exports to
 * PNG, SVG and PDF at its size on screen; the current view exported (PNG, SVG, PDF, CSV, a
 * trace) parses back, through a symlink too, and two profiles dropped together compare. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-window.h"
/* the tests' helpers name their CLI run ZwRun too: renamed here (the app's ZwRun is a run) */
#define ZwRun ZwTestRun
#include "zw-test-util.h"
#undef ZwRun
#include "zw-test-app.h"
#include <cjson/cJSON.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zw-compare-view.h"
#include "zw-export.h"
#include "zw-merge-view.h"
#include "zw-segment-view.h"
#include "zw-shortcuts.h"
#include "zw-timing-view.h"
#include "zw-views.h"

static ZwWindow *win;

static void
test_views_render (void)
{
  zw_test_app_assert_views_render ();
}

/* Physical addresses are where the board's allocator put each segment: above the board's
 * own buffers, so they differ from the logic offsets; the legend says the heights are not to
 * scale and what the lines inside a block are. */
static void
test_segments_physical_and_legend (void)
{
  ZwDeployReport *r = zw_run_get_report (zw_window_get_selected_run (win));

  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    {
      g_test_message ("%u: logic 0x%" G_GINT64_MODIFIER "x phy 0x%" G_GINT64_MODIFIER "x +%" G_GUINT64_FORMAT, t,
                      r->segments[t].logic_addr, r->segments[t].phy_addr, r->segments[t].phy_size);
      if (r->segments[t].phy_size > 0)
        g_assert_cmpuint (r->segments[t].phy_addr, >=, 76 * 1024 * 1024);
    }
  g_assert_cmpuint (r->segments[ZW_SEGMENT_WEIGHT].phy_addr, !=, r->segments[ZW_SEGMENT_WEIGHT].logic_addr);
  g_assert_cmpuint (r->segments[ZW_SEGMENT_FTMP].phy_addr, !=, r->segments[ZW_SEGMENT_FTMP].logic_addr);
  g_assert_nonnull (strstr (zw_segment_view_get_legend (), "not to scale"));
  g_assert_nonnull (strstr (zw_segment_view_get_legend (), "FTMP chunks"));
  g_assert_nonnull (strstr (zw_segment_view_get_legend (), "allocated"));
  zw_test_app_assert_view_draws ("segments");
}

static void
collect_check_labels (GtkWidget *widget, GPtrArray *out)
{
  if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)) != NULL)
    g_ptr_array_add (out, g_strdup (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget))));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_check_labels (c, out);
}

static void
test_units_and_names (void)
{
  g_autoptr (GPtrArray) radios = g_ptr_array_new_with_free_func (g_free);
  const char *note;
  g_autofree char *summary = NULL;

  /* one unit per axis: 0 … 2 MiB in steps of 256 KiB all in MiB */
  for (guint64 b = 0; b <= 2 * 1024 * 1024; b += 256 * 1024)
    {
      g_autofree char *label = zw_format_axis_bytes ((double) b, 2.0 * 1024 * 1024);
      g_test_message ("%s", label);
      g_assert_true (g_str_has_suffix (label, " MiB"));
      g_assert_null (strstr (label, "KiB"));
    }
  /* an OCM option has one name: the sidebar's radio starts with what the charts and the
   * history say */
  collect_check_labels (zw_window_get_options_panel (win), radios);
  g_assert_true (zw_test_texts_contain (radios, "Option 1 — global score"));
  /* … and the panel has a radio for every option of the table */
  for (guint i = 0; i < zw_ocm_opt_get_count (); i++)
    {
      g_autofree char *label = zw_ocm_opt_dup_long_label (zw_ocm_opt_get_nth (i));
      g_assert_true (zw_test_texts_contain (radios, label));
    }
  summary = zw_run_dup_summary (zw_window_get_selected_run (win));
  g_assert_null (strstr (summary, "OPTION"));
  /* the merge view says what Layers, Ops and the member's "(n layers)" are */
  note = zw_merge_view_get_note (ZW_MERGE_VIEW (zw_window_get_view (win, "merges")));
  g_assert_nonnull (strstr (note, "Layers"));
  g_assert_nonnull (strstr (note, "Ops"));
}

/* The lines an exported file must hold for @format at @width x @height. */
static void
assert_export_file (const char *path, ZwViewFormat format, int width, int height, guint64 min_drawn)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 400);
  if (format == ZW_VIEW_FORMAT_PNG)
    {
      g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
      ZwTestPixelFacts facts;

      g_assert_true (memcmp (contents, "\x89PNG\r\n\x1a\n", 8) == 0);
      g_assert_no_error (error);
      facts = zw_test_app_pixel_facts (texture);
      g_test_message ("%s: %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", path, facts.width,
                      facts.height, facts.non_background, facts.n_colours);
      g_assert_cmpuint (facts.width, ==, width);
      g_assert_cmpuint (facts.height, ==, height);
      /* drawn: never a blank page (a view without data draws its empty-state text) */
      g_assert_cmpuint (facts.non_background, >, min_drawn);
      g_assert_cmpuint (facts.n_colours, >=, 3);
    }
  else if (format == ZW_VIEW_FORMAT_SVG)
    {
      g_autofree char *box = g_strdup_printf ("viewBox=\"0 0 %d %d\"", width, height);
      g_assert_true (g_str_has_prefix (contents, "<?xml"));
      g_assert_nonnull (strstr (contents, "<svg"));
      g_assert_nonnull (strstr (contents, box));
      g_assert_true (g_str_has_suffix (g_strchomp (contents), "</svg>"));
    }
  else
    {
      g_autofree char *box = g_strdup_printf ("/MediaBox [ 0 0 %d %d ]", width, height);
      g_assert_true (g_str_has_prefix (contents, "%PDF-"));
      /* binary streams: memmem, not the string functions */
      g_assert_nonnull (memmem (contents, len, box, strlen (box)));
      g_assert_nonnull (memmem (contents + len - MIN (len, 32), MIN (len, 32), "%%EOF", 5));
    }
}

/* One table of views: --list-views, --view, the window's pages, the shortcuts window and
 * Export all take it, and every view in it renders offscreen to PNG, SVG and PDF through
 * the one export path (its own render method). */
static void
test_views_table_lists_and_exports (void)
{
  static const char *ext[] = { "png", "svg", "pdf" };
  guint n_views, n_shortcuts, n_view_keys = 0;
  const ZwViewKind *views = zw_views_get (&n_views);
  const ZwShortcut *shortcuts = zw_shortcuts_get (&n_shortcuts);
  const char *exe = g_getenv ("ZW_APP");
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-views-XXXXXX");
  g_autofree char *names = zw_views_dup_names ();

  g_assert_cmpuint (n_views, ==, 13);
  /* the table: names once each, every view a ZwView that describes itself */
  for (guint i = 0; i < n_views; i++)
    {
      g_assert_true (g_type_is_a (views[i].type, ZW_TYPE_VIEW));
      g_assert_true (zw_views_lookup (views[i].name) == &views[i]);
      g_assert_nonnull (views[i].title);
      g_assert_nonnull (views[i].key_title);
      g_assert_nonnull (zw_view_data_to_string (views[i].data));
    }
  g_assert_null (zw_views_lookup ("flames"));

  /* --list-views prints the table in its order; --help's --view lists its names */
  if (exe != NULL)
    {
      const char *args[][3] = { { exe, "--list-views", NULL }, { exe, "--help", NULL } };
      for (guint a = 0; a < G_N_ELEMENTS (args); a++)
        {
          g_autoptr (GSubprocess) proc = g_subprocess_newv (args[a], G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
          g_autofree char *out = NULL;

          g_assert_no_error (error);
          g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error));
          g_assert_no_error (error);
          g_assert_true (g_subprocess_get_successful (proc));
          if (a == 0)
            {
              g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
              g_assert_cmpuint (g_strv_length (lines), ==, n_views + 1);
              for (guint i = 0; i < n_views; i++)
                {
                  g_autofree char *line = g_strdup_printf ("%s\t%s", views[i].name,
                                                           zw_view_data_to_string (views[i].data));
                  g_assert_cmpstr (lines[i], ==, line);
                }
              g_assert_cmpstr (lines[n_views], ==, "");
            }
          else
            g_assert_nonnull (strstr (out, names));
        }
    }
  else
    g_test_message ("ZW_APP is not set: the command line is not checked");

  /* the shortcuts window: one win.view line per view, with the table's key and title */
  for (guint s = 0; s < n_shortcuts; s++)
    {
      const ZwShortcut *sc = &shortcuts[s];
      gboolean found = FALSE;
      if (!g_str_equal (sc->action, "win.view"))
        continue;
      n_view_keys++;
      for (guint i = 0; i < n_views; i++)
        {
          g_autofree char *target = g_strdup_printf ("'%s'", views[i].name);
          if (g_strcmp0 (sc->target, target) != 0)
            continue;
          g_assert_cmpstr (sc->accel, ==, views[i].accel);
          g_assert_cmpstr (sc->title, ==, views[i].key_title);
          found = TRUE;
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (n_view_keys, ==, n_views);

  /* the window: a page per view; Export of each, in each format, at its size on screen */
  for (guint i = 0; i < n_views; i++)
    {
      GtkWidget *view = zw_window_get_view (win, views[i].name);
      g_autofree char *shown = NULL;
      int width, height;

      g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (view, views[i].type));
      zw_test_app_activate ("win.view", g_variant_new_string (views[i].name));
      zw_test_app_wait_for_frames (NULL);
      g_object_get (win, "view", &shown, NULL);
      g_assert_cmpstr (shown, ==, views[i].name);
      width = gtk_widget_get_width (view);
      height = gtk_widget_get_height (view);
      g_assert_cmpint (width, >=, 64);
      g_assert_cmpint (height, >=, 64);
      for (guint f = 0; f < G_N_ELEMENTS (ext); f++)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s.%s", dir, views[i].name, ext[f]);
          /* the deployment and its forward are drawn in full: at least 1 % of the pixels */
          gboolean has_data = views[i].data == ZW_VIEW_DATA_REPORT || views[i].data == ZW_VIEW_DATA_PROFILE;
          g_assert_true (zw_window_export (win, path, &error));
          g_assert_no_error (error);
          assert_export_file (path, (ZwViewFormat) f, width, height,
                              has_data ? (guint64) width * height / 100 : 100);
          g_unlink (path);
        }
    }
  /* a widget that is not a view of the table has no render path */
  {
    g_autofree char *path = g_build_filename (dir, "label.png", NULL);
    GtkWidget *label = g_object_ref_sink (gtk_label_new ("x"));
    g_assert_false (zw_export_view (label, 100, 100, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_object_unref (label);
  }
}

static void
assert_export_parses (const char *dir, const char *name, const ZwProfile *profile)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;

  zw_test_app_activate ("win.export-file", g_variant_new_string (path));
  g_assert_null (zw_window_get_banner_message (win));
  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", name, length);
  if (g_str_has_suffix (name, ".png"))
    {
      g_autoptr (GdkTexture) texture = NULL;
      g_assert_cmpmem (contents, 8, "\x89PNG\r\n\x1a\n", 8);
      texture = gdk_texture_new_from_filename (path, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), >, 100);
    }
  else if (g_str_has_suffix (name, ".svg"))
    zw_test_assert_svg (contents, length);
  else if (g_str_has_suffix (name, ".pdf"))
    {
      g_autofree char *tail = NULL;
      g_assert_true (g_str_has_prefix (contents, "%PDF-"));
      tail = g_strndup (contents + length - MIN (length, 16), MIN (length, 16));
      g_assert_nonnull (strstr (tail, "%%EOF"));
    }
  else if (g_str_has_suffix (name, ".csv"))
    {
      g_autoptr (GPtrArray) rows = zw_export_csv_parse (contents, path, &error);
      guint members = 0;
      g_assert_no_error (error);
      /* the table as shown: a merged launch's members (estimated) under it */
      for (guint i = 0; i < profile->rows->len; i++)
        {
          const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
          members += r->merge_from != NULL && r->merge_from->len > 1 ? r->merge_from->len : 0;
        }
      g_assert_cmpuint (rows->len, ==, profile->rows->len + members + 1);
    }
  else
    {
      cJSON *root = cJSON_ParseWithLength (contents, length);
      const cJSON *events = cJSON_GetObjectItemCaseSensitive (root, "traceEvents");
      const cJSON *e;
      guint complete = 0;
      g_assert_true (cJSON_IsArray (events));
      cJSON_ArrayForEach (e, events)
        {
          const cJSON *ph = cJSON_GetObjectItemCaseSensitive (e, "ph");
          if (cJSON_IsString (ph) && g_str_equal (ph->valuestring, "X"))
            complete++;
        }
      g_assert_cmpuint (complete, ==, profile->rows->len);
      cJSON_Delete (root);
    }
}

static void
test_export_current_view (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-export-XXXXXX");
  const ZwProfile *profile;
  guint n = zw_test_app_n_runs ();

  /* a forward: its profile is what Timing shows and the trace holds */
  zw_test_app_activate ("win.run", NULL);
  zw_test_app_expect_run (n + 1);
  profile = zw_timing_view_get_profile (ZW_TIMING_VIEW (zw_window_get_view (win, "timing")));
  static const char *names[] = { "timing.png", "timing.svg", "timing.pdf", "timing.csv", "trace.json" };
  const ZwShortcut *table;
  guint n_table;
  gboolean bound = FALSE;

  g_assert_nonnull (profile);
  zw_test_app_activate ("win.view", g_variant_new_string ("timing"));
  zw_test_app_wait_for_frames (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    assert_export_parses (dir, names[i], profile);
  zw_test_app_activate ("win.view", g_variant_new_string ("memory"));
  assert_export_parses (dir, "memory.svg", profile);
  /* an export to a symlink is written through to its target; the link stays (issue 33) */
  {
    g_autofree char *link = g_build_filename (dir, "link.svg", NULL);
    g_autofree char *real = g_build_filename (dir, "real.svg", NULL);
    GStatBuf st;
    g_assert_cmpint (symlink ("real.svg", link), ==, 0);
    assert_export_parses (dir, "link.svg", profile);
    g_assert_cmpint (g_lstat (link, &st), ==, 0);
    g_assert_true (S_ISLNK (st.st_mode));
    g_assert_true (g_file_test (real, G_FILE_TEST_IS_REGULAR));
  }
  /* Ctrl+E is the export key */
  table = zw_shortcuts_get (&n_table);
  for (guint i = 0; i < n_table; i++)
    bound = bound || (g_str_equal (table[i].action, "win.export") && g_strcmp0 (table[i].accel, "<Control>e") == 0);
  g_assert_true (bound);

  /* two profiles dropped together are compared: the trace and a vendor-format copy */
  {
    g_autofree char *trace = g_build_filename (dir, "trace.json", NULL);
    g_autofree char *vendor = g_build_filename (dir, "copy_time.txt", NULL);
    const char *paths[] = { trace, vendor, NULL };
    const ZwProfileCompare *cmp;
    g_assert_true (zw_profile_write (profile, vendor, ZW_PROFILE_FORMAT_VENDOR, &error));
    g_assert_no_error (error);
    zw_window_open_paths (win, paths);
    g_assert_null (zw_window_get_banner_message (win));
    cmp = zw_compare_view_get_compare (ZW_COMPARE_VIEW (zw_window_get_view (win, "compare")));
    g_assert_nonnull (cmp);
    g_assert_cmpuint (cmp->n_matched, ==, profile->rows->len);
  }
}

int
main (int argc, char *argv[])
{
  win = zw_test_app_start (&argc, &argv);
  /* the demo opened and deployed at start: the tests begin from its run */
  zw_test_app_wait_for_run (1);

  g_test_add_func ("/app/views/each-renders-the-deployment", test_views_render);
  g_test_add_func ("/app/views/segments-physical-where-the-board-allocated", test_segments_physical_and_legend);
  g_test_add_func ("/app/views/one-unit-per-axis-one-name-per-option", test_units_and_names);
  g_test_add_func ("/app/export/current-view-png-svg-pdf-csv-trace", test_export_current_view);
  g_test_add_func ("/app/views/table-lists-and-exports-every-view", test_views_table_lists_and_exports);

  return zw_test_app_run_and_close ();
}
