/* test-layers.c — the layers of DESIGN.md §2 hold in the sources: each folder includes only
 * the folders below it. Above all, runtime/xrt/ names no concrete backend or device (they
 * plug in through the Backend interface and URL schemes), the kernels (runtime/kernels/,
 * below devices/ and backends/) include base/ only, the runtime never includes GTK, and the
 * viewers read report models, never a backend or a device.
 *
 * Reads every .c and .h under the source tree's runtime/, viewers/ and app/ and checks each
 * #include "…" against the rules below; a failure names the file, the line and the rule.
 * Export and the views' base classes name no view type: views are reached through ZwView. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  const char *folder;            /* relative to the source root */
  const char *const *forbidden;  /* include prefixes it may not use */
  const char *why;
} Rule;

static const char *const below_xir[] = { "xrt/", "backends/", "devices/", "kernels/", "deploy/", "tools/", "report/", "gtk/", NULL };
static const char *const below_report[] = { "xrt/", "backends/", "devices/", "kernels/", "deploy/", "tools/", "gtk/", NULL };
static const char *const kernels_forbidden[] = { "xir/", "xrt/", "backends/", "devices/", "deploy/", "report/", "tools/",
                                                 "app/", "viewers/", "gtk/", NULL };
static const char *const xrt_forbidden[] = { "backends/", "devices/", "deploy/", "tools/", "gtk/", NULL };
static const char *const devices_forbidden[] = { "backends/", "deploy/", "tools/", "gtk/", NULL };
static const char *const backends_forbidden[] = { "deploy/", "tools/", "gtk/", NULL };
static const char *const deploy_forbidden[] = { "tools/", "gtk/", NULL };
static const char *const tools_forbidden[] = { "gtk/", NULL };
static const char *const viewers_forbidden[] = { "backends/", "devices/", "deploy/", "xrt/", "tools/", NULL };
/* the app reaches the runtime through xrt/, report/, base/, xir/ and deploy/ */
static const char *const app_forbidden[] = { "backends/", "devices/", "tools/", NULL };
/* no toolkit and no graph layout anywhere in the runtime (system includes too) */
static const char *const no_toolkit[] = { "gtk", "gdk", "cairo", "pango", "graphviz/", "gvc.h", "cgraph.h", NULL };

static const Rule rules[] = {
  { "runtime/base", below_xir, "base/ is the bottom layer" },
  { "runtime/kernels", kernels_forbidden, "the kernels sit below devices/ and backends/ and include base/ only" },
  { "runtime/xir", below_xir, "xir/ depends on base/ only" },
  { "runtime/report", below_report, "report models depend on xir/ and base/ only" },
  { "runtime/xrt", xrt_forbidden, "xrt/ names no concrete backend or device: they plug in through the Backend "
                                  "interface (xrt-backend.h) and URL schemes (xrt_device_register_kind)" },
  { "runtime/devices", devices_forbidden, "devices sit below the backends" },
  { "runtime/backends", backends_forbidden, "backends sit below the tools" },
  { "runtime/tools", tools_forbidden, "the runtime never includes GTK" },
  { "viewers", viewers_forbidden, "viewers read report models, never backend internals" },
  { "runtime/deploy", deploy_forbidden, "a deployment sits above backends and devices, below the tools" },
  { "app", app_forbidden, "the app deploys through deploy/ (XrtDeployment), never a backend or a device" },
  { "runtime", no_toolkit, "the runtime never includes GTK, gdk, cairo, pango or graphviz" },
};

/* Named exceptions, each one file and one include. The CLI decodes input images (icraft-run's
 * `input = "cat.png"`) with gdk-pixbuf, a GLib-family image decoder with no display or
 * widgets, in this one file of xrt-run: the runtime library never links it, and no other
 * runtime file may include it (test /layers/image-decoder-exception-is-one-file). */
typedef struct {
  const char *file;     /* relative to the source root */
  const char *include;  /* the whole include, without its quotes or brackets */
} Exception;

static const Exception exceptions[] = {
  { "runtime/tools/xrt-run-image.c", "gdk-pixbuf/gdk-pixbuf.h" },
};

static gboolean
is_exception (const char *path, const char *include)
{
  for (guint i = 0; i < G_N_ELEMENTS (exceptions); i++)
    {
      g_autofree char *tail = g_strconcat (G_DIR_SEPARATOR_S, exceptions[i].file, NULL);
      gsize n = strlen (exceptions[i].include);
      if (g_str_has_suffix (path, tail) && strncmp (include, exceptions[i].include, n) == 0
          && (include[n] == '>' || include[n] == '"'))
        return TRUE;
    }
  return FALSE;
}

static const Rule *
rule_for (const char *folder)
{
  for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
    if (strcmp (rules[r].folder, folder) == 0)
      return &rules[r];
  g_assert_not_reached ();
}

static char *
source_root (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", NULL);
}

static void
collect (const char *dir, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect (path, out);
      else if (g_str_has_suffix (name, ".c") || g_str_has_suffix (name, ".h"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

/* The violations of @rule in @path, one line each. */
static void
check_file (const Rule *rule, const char *path, GString *bad)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *q;
      while (*l == ' ' || *l == '\t')
        l++;
      if (!g_str_has_prefix (l, "#include"))
        continue;
      q = l + strlen ("#include");
      while (*q == ' ')
        q++;
      if (*q != '"' && *q != '<')
        continue;
      q++;
      if (is_exception (path, q))
        continue;
      for (guint k = 0; rule->forbidden[k] != NULL; k++)
        if (g_str_has_prefix (q, rule->forbidden[k]))
          g_string_append_printf (bad, "%s:%u: %s — %s\n", path, i + 1, lines[i], rule->why);
    }
}

static void
test_layers (void)
{
  g_autofree char *root = source_root ();
  g_autoptr (GString) bad = g_string_new (NULL);
  guint checked = 0;

  for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
    {
      g_autofree char *dir = g_build_filename (root, rules[r].folder, NULL);
      g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
      collect (dir, files);
      g_assert_cmpuint (files->len, >, 0);
      for (guint i = 0; i < files->len; i++)
        check_file (&rules[r], g_ptr_array_index (files, i), bad);
      checked += files->len;
    }
  g_test_message ("%u files checked", checked);
  if (bad->len > 0)
    g_error ("includes that run back up the layers:\n%s", bad->str);
}

/* The rule catches what it is meant to: a file under xrt/ that includes a backend. */
static void
test_rule_bites (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-layers-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "xrt-bad.c", NULL);
  g_autoptr (GString) bad = g_string_new (NULL);

  g_assert_true (g_file_set_contents (path, "#include \"xrt/xrt-session.h\"\n  #include \"backends/zg330/zg330-backend.h\"\n"
                                            "#include <devices/zg330-sim.h>\n", -1, NULL));
  check_file (rule_for ("runtime/xrt"), path, bad);
  g_assert_nonnull (strstr (bad->str, ":2:"));
  g_assert_nonnull (strstr (bad->str, ":3:"));
  g_assert_null (strstr (bad->str, ":1:"));
  g_remove (path);
  g_rmdir (dir);
}

/* The kernels' rule bites: in a planted tree, a kernel that reaches up to a device, a backend
 * or xir/ fails and its base/ include passes; base/ that includes a kernel fails too. */
static void
test_kernels_rule_bites (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-layers-XXXXXX", NULL);
  g_autofree char *rdir = g_build_filename (dir, "runtime", NULL);
  g_autofree char *kdir = g_build_filename (rdir, "kernels", NULL);
  g_autofree char *bdir = g_build_filename (rdir, "base", NULL);
  g_autofree char *kpath = g_build_filename (kdir, "conv-bad.c", NULL);
  g_autofree char *bpath = g_build_filename (bdir, "zw-bad.c", NULL);
  g_autoptr (GString) bad = g_string_new (NULL);
  g_autoptr (GString) base_bad = g_string_new (NULL);

  g_assert_cmpint (g_mkdir_with_parents (kdir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (bdir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (kpath, "#include \"kernels/kernels-private.h\"\n#include \"base/zw-half.h\"\n"
                                             "#include \"devices/zg330-sim.h\"\n#include <backends/zg330/zg330-backend.h>\n"
                                             " #include \"xir/xir-network.h\"\n", -1, NULL));
  g_assert_true (g_file_set_contents (bpath, "#include \"base/zw-half.h\"\n#include \"kernels/zg330-kernels.h\"\n", -1, NULL));
  check_file (rule_for ("runtime/kernels"), kpath, bad);
  check_file (rule_for ("runtime/base"), bpath, base_bad);
  g_assert_null (strstr (bad->str, ":1:"));
  g_assert_null (strstr (bad->str, ":2:"));
  g_assert_nonnull (strstr (bad->str, ":3:"));
  g_assert_nonnull (strstr (bad->str, ":4:"));
  g_assert_nonnull (strstr (bad->str, ":5:"));
  g_assert_null (strstr (base_bad->str, ":1:"));
  g_assert_nonnull (strstr (base_bad->str, ":2:"));
  g_remove (kpath);
  g_remove (bpath);
  g_rmdir (kdir);
  g_rmdir (bdir);
  g_rmdir (rdir);
  g_rmdir (dir);
}

/* The violations @rule finds in a file of @text (planted in a temporary tree). */
static char *
violations_of (const char *folder, const char *text)
{
  g_autofree char *dir = g_dir_make_tmp ("test-layers-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "planted.c", NULL);
  g_autoptr (GString) bad = g_string_new (NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  check_file (rule_for (folder), path, bad);
  g_remove (path);
  g_rmdir (dir);
  return g_string_free (g_steal_pointer (&bad), FALSE);
}

/* The app's rule: through deploy/ and xrt/, never a backend or a device. */
static void
test_app_rule_bites (void)
{
  g_autofree char *bad = violations_of ("app", "#include \"deploy/xrt-deployment.h\"\n"
                                               "#include \"xrt/xrt-session.h\"\n"
                                               "#include \"report/zw-deploy-graph.h\"\n"
                                               "#include \"backends/zg330/zg330-backend.h\"\n"
                                               "#include \"devices/zg330-sim.h\"\n");

  g_assert_null (strstr (bad, ":1:"));
  g_assert_null (strstr (bad, ":2:"));
  g_assert_null (strstr (bad, ":3:"));
  g_assert_nonnull (strstr (bad, ":4:"));
  g_assert_nonnull (strstr (bad, ":5:"));
}

/* No toolkit or graph layout in the runtime, whatever the folder and the include's form. */
static void
test_runtime_toolkit_rule_bites (void)
{
  g_autofree char *bad = violations_of ("runtime", "#include <glib.h>\n"
                                                   "#include <gtk/gtk.h>\n"
                                                   "#include <gdk/gdk.h>\n"
                                                   "#include <cairo.h>\n"
                                                   "#include <pango/pangocairo.h>\n"
                                                   "#include <graphviz/gvc.h>\n"
                                                   "#include <gvc.h>\n"
                                                   "#include <cgraph.h>\n"
                                                   "#include \"report/zw-deploy-report.h\"\n");

  g_assert_null (strstr (bad, ":1:"));
  for (guint line = 2; line <= 8; line++)
    {
      g_autofree char *at = g_strdup_printf (":%u:", line);
      g_assert_nonnull (strstr (bad, at));
    }
  g_assert_null (strstr (bad, ":9:"));
}

/* The image decoder's exception holds for its one file and its one include: gdk-pixbuf
 * elsewhere in the runtime, or gdk itself in that file, still fails. */
static void
test_image_decoder_exception_is_one_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-layers-XXXXXX", NULL);
  g_autofree char *rdir = g_build_filename (dir, "runtime", NULL);
  g_autofree char *tdir = g_build_filename (rdir, "tools", NULL);
  g_autofree char *image = g_build_filename (tdir, "xrt-run-image.c", NULL);
  g_autofree char *other = g_build_filename (tdir, "xrt-run-run.c", NULL);
  g_autoptr (GString) bad = g_string_new (NULL);
  g_autoptr (GString) other_bad = g_string_new (NULL);
  const char *text = "#include <gdk-pixbuf/gdk-pixbuf.h>\n#include <gdk/gdk.h>\n#include \"gdk-pixbuf/gdk-pixbuf.h\"\n"
                     "#include <gdk-pixbuf/gdk-pixbuf-loader.h>\n";

  g_assert_cmpint (g_mkdir_with_parents (tdir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (image, text, -1, NULL));
  g_assert_true (g_file_set_contents (other, text, -1, NULL));
  check_file (rule_for ("runtime"), image, bad);
  check_file (rule_for ("runtime"), other, other_bad);
  g_assert_null (strstr (bad->str, ":1:"));
  g_assert_nonnull (strstr (bad->str, ":2:"));
  g_assert_null (strstr (bad->str, ":3:"));
  g_assert_nonnull (strstr (bad->str, ":4:"));
  for (guint line = 1; line <= 4; line++)
    {
      g_autofree char *at = g_strdup_printf (":%u:", line);
      g_assert_nonnull (strstr (other_bad->str, at));
    }
  g_remove (image);
  g_remove (other);
  g_rmdir (tdir);
  g_rmdir (rdir);
  g_rmdir (dir);
}

/* The views' shared machinery names no view: export, the view base classes and their helpers
 * draw, describe and list views through ZwView's methods and the table (zw-views.c), never
 * by type (no ZW_IS_*_VIEW chains). */
static const char *const view_neutral[] = {
  "viewers/zw-export.c", "viewers/zw-export.h", "viewers/zw-view.c", "viewers/zw-view.h",
  "viewers/zw-row-table.c", "viewers/zw-row-table.h", "viewers/zw-view-common.c", "viewers/zw-draw-area.c",
  "viewers/zw-draw-area.h", "viewers/zw-view-style.h",
};

/* The lines of @text (from @name) that name a view type, appended to @bad. */
static void
check_names_no_view (const char *name, const char *text, GString *bad)
{
  g_autoptr (GRegex) type = g_regex_new ("\\bZW_(?!(IS_|TYPE_)?VIEW\\b)[A-Z_]+_VIEW\\b", 0, 0, NULL);
  g_autoptr (GRegex) header = g_regex_new ("^\\s*#\\s*include\\s*[\"<]zw-[a-z-]+-view\\.h", 0, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_regex_match (type, lines[i], 0, NULL) || g_regex_match (header, lines[i], 0, NULL))
      g_string_append_printf (bad, "%s:%u: %s — export and the view bases go through ZwView, not by type\n", name,
                              i + 1, lines[i]);
}

static void
test_view_machinery_names_no_view (void)
{
  g_autofree char *root = source_root ();
  g_autoptr (GString) bad = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (view_neutral); i++)
    {
      g_autofree char *path = g_build_filename (root, view_neutral[i], NULL);
      g_autofree char *text = NULL;
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      check_names_no_view (view_neutral[i], text, bad);
    }
  if (bad->len > 0)
    g_error ("the view machinery names views:\n%s", bad->str);
}

/* It bites: a type chain or a view's header fails; the base's own names pass. */
static void
test_view_machinery_rule_bites (void)
{
  g_autoptr (GString) bad = g_string_new (NULL);

  check_names_no_view ("planted.c",
                       "#include \"zw-view.h\"\n"
                       "#include \"zw-timing-view.h\"\n"
                       "  if (ZW_IS_VIEW (w) && ZW_VIEW_GET_CLASS (w)->render != NULL)\n"
                       "  else if (ZW_IS_TIMING_VIEW (view))\n"
                       "    g_object_new (ZW_TYPE_SWEEP_VIEW, NULL);\n"
                       "    zw_log_view_draw (cr, w, h, NULL, NULL, NULL, -1, colors);\n"
                       "    ZW_COMPARE_VIEW (view);\n"
                       "G_DEFINE_ABSTRACT_TYPE (ZwRowTable, zw_row_table, ZW_TYPE_VIEW)\n",
                       bad);
  g_assert_null (strstr (bad->str, ":1:"));
  g_assert_nonnull (strstr (bad->str, ":2:"));
  g_assert_null (strstr (bad->str, ":3:"));
  g_assert_nonnull (strstr (bad->str, ":4:"));
  g_assert_nonnull (strstr (bad->str, ":5:"));
  g_assert_null (strstr (bad->str, ":6:"));
  g_assert_nonnull (strstr (bad->str, ":7:"));
  g_assert_null (strstr (bad->str, ":8:"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/layers/includes-point-down", test_layers);
  g_test_add_func ("/layers/rule-bites", test_rule_bites);
  g_test_add_func ("/layers/kernels-rule-bites", test_kernels_rule_bites);
  g_test_add_func ("/layers/app-rule-bites", test_app_rule_bites);
  g_test_add_func ("/layers/runtime-toolkit-rule-bites", test_runtime_toolkit_rule_bites);
  g_test_add_func ("/layers/image-decoder-exception-is-one-file", test_image_decoder_exception_is_one_file);
  g_test_add_func ("/layers/view-machinery-names-no-view", test_view_machinery_names_no_view);
  g_test_add_func ("/layers/view-machinery-rule-bites", test_view_machinery_rule_bites);
  return g_test_run ();
}
