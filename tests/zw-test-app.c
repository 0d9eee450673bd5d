/* zw-test-app.c — the display tests' shared start-up, waiting and actions (zw-test-app.h). */
#include <gdk/x11/gdkx.h>
#include <dlfcn.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdlib.h>

#include "zw-test-app.h"
#include "base/zw-locale.h"
#include "zw-dump-diff-view.h"
#include "zw-merge-view.h"

#ifdef __SANITIZE_ADDRESS__
/* Under AddressSanitizer: fontconfig's caches and Mesa's EGL driver (which GDK probes at
 * display open) keep allocations until exit by design; those are not ours to report. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\nleak:libEGL_mesa.so\n";
}
#endif

static ZwApplication *test_app;
static ZwWindow *test_win;

static gboolean
wake_up (gpointer data)
{
  (void) data;
  return G_SOURCE_CONTINUE;
}

gboolean
zw_test_app_wait_for (ZwTestPredicate pred, gpointer data, guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC;
  guint tick = g_timeout_add (20, wake_up, NULL);
  gboolean ok;

  while (!(ok = pred (data)) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  return ok;
}

void
zw_test_app_run_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;
  guint tick = g_timeout_add (10, wake_up, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
}

ZwWindow *
zw_test_app_start (int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  GList *windows;

  g_test_init (argc, argv, NULL);
  /* the translations as the app's main() binds them (LANGUAGE=zh_CN shows Chinese) */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, zw_locale_dir (LOCALEDIR));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  if (!gtk_init_check ())
    {
      g_test_message ("no display: the display suite needs one (run under xvfb-run)");
      exit (77);
    }
  test_app = zw_application_new ();
  g_application_set_flags (G_APPLICATION (test_app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (test_app), NULL, &error))
    g_error ("cannot register the application: %s", error->message);
  g_application_activate (G_APPLICATION (test_app));
  windows = gtk_application_get_windows (GTK_APPLICATION (test_app));
  g_assert_nonnull (windows);
  test_win = ZW_WINDOW (windows->data);
  return test_win;
}

ZwApplication *
zw_test_app_application (void)
{
  return test_app;
}

ZwWindow *
zw_test_app_window (void)
{
  return test_win;
}

int
zw_test_app_run_and_close (void)
{
  int status = g_test_run ();

  zw_test_app_wait_for (zw_test_app_is_idle, NULL, 30);
  gtk_window_destroy (GTK_WINDOW (test_win));
  test_win = NULL;
  g_clear_object (&test_app);
  return status;
}

guint
zw_test_app_n_runs (void)
{
  return zw_window_get_n_runs_made (test_win);
}

gboolean
zw_test_app_is_idle (gpointer data)
{
  (void) data;
  return !zw_window_get_busy (test_win);
}

gboolean
zw_test_app_is_idle_with_runs (gpointer data)
{
  return !zw_window_get_busy (test_win) && zw_test_app_n_runs () >= GPOINTER_TO_UINT (data);
}

gboolean
zw_test_app_has_banner_and_idle (gpointer data)
{
  (void) data;
  return zw_window_get_banner_message (test_win) != NULL && !zw_window_get_busy (test_win);
}

ZwRun *
zw_test_app_wait_for_run (guint n)
{
  /* a yolov5s forward with a dump takes ~60 s under AddressSanitizer at -O0, longer on a
   * loaded machine: 240 s still catches a run that never comes */
  if (!zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (n), 240))
    g_error ("no run #%u after 240 s (banner: %s)", n, zw_window_get_banner_message (test_win));
  return zw_window_get_selected_run (test_win);
}

void
zw_test_app_activate (const char *action, GVariant *param)
{
  if (!gtk_widget_activate_action_variant (GTK_WIDGET (test_win), action, param))
    g_error ("the window has no action %s", action);
}

void
zw_test_app_assert_only_network_differs (const ZwProfileCompare *cmp, const char *network)
{
  guint n_in = 0, n_other = 0;

  g_assert_nonnull (cmp);
  g_assert_cmpuint (cmp->n_regressions, >, 0);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      g_assert_nonnull (r->network);
      if (g_str_equal (r->network, network))
        n_in += r->regression;
      else
        {
          g_assert_cmpfloat (r->delta_ms, ==, 0);
          g_assert_false (r->regression);
          n_other++;
        }
    }
  g_assert_cmpuint (n_in, ==, cmp->n_regressions);
  g_assert_cmpuint (n_other, >, 0);
}

gboolean
zw_test_app_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data)) && gtk_widget_get_width (GTK_WIDGET (data)) > 0
         && gtk_widget_get_height (GTK_WIDGET (data)) > 0;
}

GtkWidget *
zw_test_app_find_child_of_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = zw_test_app_find_child_of_type (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

ZwRun *
zw_test_app_expect_run (guint n)
{
  ZwRun *run = zw_test_app_wait_for_run (n);

  g_assert_cmpuint (zw_test_app_n_runs (), ==, n);
  return run;
}

guint
zw_test_app_history_rows (void)
{
  return g_list_model_get_n_items (zw_window_get_runs (test_win));
}

ZwRun *
zw_test_app_history_last (void)
{
  g_autoptr (ZwRun) run = g_list_model_get_item (zw_window_get_runs (test_win), zw_test_app_history_rows () - 1);

  return run;   /* the history holds it */
}

typedef struct {
  guint frames;
  GtkWidget *painted;
} FrameCount;

static void
on_after_paint (GdkFrameClock *clock, FrameCount *count)
{
  (void) clock;
  count->frames++;
  gtk_widget_queue_draw (count->painted);
}

static gboolean
two_frames (gpointer data)
{
  return ((FrameCount *) data)->frames >= 2;
}

void
zw_test_app_wait_for_frames (ZwWindow *window)
{
  FrameCount count = { 0, GTK_WIDGET (window != NULL ? window : test_win) };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (count.painted);
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &count);
  gtk_widget_queue_draw (count.painted);
  g_assert_true (zw_test_app_wait_for (two_frames, &count, 20));
  g_signal_handler_disconnect (clock, id);
}

static gboolean
diff_finished (gpointer data)
{
  (void) data;
  return !zw_dump_diff_view_get_running (ZW_DUMP_DIFF_VIEW (zw_window_get_view (test_win, "diff")));
}

void
zw_test_app_wait_for_diff (void)
{
  g_assert_true (zw_test_app_wait_for (diff_finished, NULL, 120));
}

/* ---- pixels ------------------------------------------------------------------------------------ */

ZwTestPixelFacts
zw_test_app_pixel_facts (GdkTexture *texture)
{
  ZwTestPixelFacts facts = { 0 };
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) w * h);
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint32 background = 0;
  guint best = 0;

  gdk_texture_download (texture, (guchar *) pixels, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (pixels[i]))) + 1;
      g_hash_table_insert (counts, GUINT_TO_POINTER (pixels[i]), GUINT_TO_POINTER (c));
      if (c > best)
        {
          best = c;
          background = pixels[i];
        }
    }
  for (gsize i = 0; i < (gsize) w * h; i++)
    if (pixels[i] != background)
      facts.non_background++;
  facts.n_colours = g_hash_table_size (counts);
  facts.width = w;
  facts.height = h;
  return facts;
}

GdkTexture *
zw_test_app_render_widget (GtkWidget *widget)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, w, h);

  g_assert_cmpint (w, >, 100);
  g_assert_cmpint (h, >, 100);
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node, &bounds);
}

ZwTestPixelFacts
zw_test_app_screenshot (const char *exe, const char *png, const char *view, const char *file)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, exe, "--screenshot", png, "--view", view, file, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  return zw_test_app_pixel_facts (texture);
}

void
zw_test_app_assert_view_draws (const char *name)
{
  GtkWidget *view = zw_window_get_view (test_win, name);
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *shown = NULL;
  ZwTestPixelFacts facts;

  g_assert_nonnull (view);
  zw_test_app_activate ("win.view", g_variant_new_string (name));
  zw_test_app_wait_for_frames (NULL);
  g_object_get (test_win, "view", &shown, NULL);
  g_assert_cmpstr (shown, ==, name);
  texture = zw_test_app_render_widget (view);
  facts = zw_test_app_pixel_facts (texture);
  g_test_message ("%s: %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", name, facts.width,
                  facts.height, facts.non_background, facts.n_colours);
  g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 100);
  g_assert_cmpuint (facts.n_colours, >=, 4);
}

void
zw_test_app_assert_views_render (void)
{
  static const char *views[] = { "segments", "memory", "ocm", "merges" };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkWidget *view = zw_window_get_view (test_win, views[i]);
      g_autoptr (GdkTexture) texture = NULL;
      g_autofree char *shown = NULL;
      ZwTestPixelFacts facts;

      zw_test_app_activate ("win.view", g_variant_new_string (views[i]));
      zw_test_app_wait_for_frames (NULL);
      g_object_get (test_win, "view", &shown, NULL);
      g_assert_cmpstr (shown, ==, views[i]);
      g_assert_true (gtk_widget_get_mapped (view));
      texture = zw_test_app_render_widget (view);
      facts = zw_test_app_pixel_facts (texture);
      g_test_message ("%s: %ux%u, %" G_GUINT64_FORMAT " non-background pixels, %u colours", views[i], facts.width,
                      facts.height, facts.non_background, facts.n_colours);
      /* a drawn deployment covers a good part of the plot, in several colours */
      g_assert_cmpuint (facts.non_background, >, (guint64) facts.width * facts.height / 50);
      g_assert_cmpuint (facts.n_colours, >=, 4);
    }
  g_assert_cmpuint (zw_merge_view_get_n_rows (ZW_MERGE_VIEW (zw_window_get_view (test_win, "merges"))), ==,
                    zw_run_get_n_launches (zw_window_get_selected_run (test_win)));
}

/* ---- real keys, through the X server's XTest extension (dlopen'ed: no build dependency) ---- */

typedef unsigned char (*KeysymToKeycodeFunc) (Display *, unsigned long);
typedef int (*FakeKeyFunc) (Display *, unsigned int, int, unsigned long);
typedef int (*SyncFunc) (Display *, int);
typedef int (*SetFocusFunc) (Display *, unsigned long, int, unsigned long);

static struct {
  KeysymToKeycodeFunc keysym_to_keycode;
  FakeKeyFunc fake_key;
  SyncFunc sync;
  SetFocusFunc set_focus;
  Display *dpy;
} x;

gboolean
zw_test_app_xtest_open (void)
{
  void *xlib, *xtst;
  GdkDisplay *display = gdk_display_get_default ();

  if (!GDK_IS_X11_DISPLAY (display) || (xlib = dlopen ("libX11.so.6", RTLD_NOW)) == NULL
      || (xtst = dlopen ("libXtst.so.6", RTLD_NOW)) == NULL)
    return FALSE;
  x.keysym_to_keycode = (KeysymToKeycodeFunc) dlsym (xlib, "XKeysymToKeycode");
  x.sync = (SyncFunc) dlsym (xlib, "XSync");
  x.set_focus = (SetFocusFunc) dlsym (xlib, "XSetInputFocus");
  x.fake_key = (FakeKeyFunc) dlsym (xtst, "XTestFakeKeyEvent");
  x.dpy = gdk_x11_display_get_xdisplay (display);
  return x.keysym_to_keycode != NULL && x.fake_key != NULL && x.sync != NULL && x.set_focus != NULL;
}

static void
x_sync (void)
{
  x.sync (x.dpy, 0 /* False: keep the events */);
}

void
zw_test_app_press (unsigned long mod_keysym, unsigned long keysym)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (test_win));

  /* the window has the X focus (there is no window manager on the test's server) */
  x.set_focus (x.dpy, gdk_x11_surface_get_xid (surface), 2 /* RevertToParent */, 0 /* CurrentTime */);
  x_sync ();
  zw_test_app_run_for (50);
  if (mod_keysym != 0)
    x.fake_key (x.dpy, x.keysym_to_keycode (x.dpy, mod_keysym), 1, 0);
  x.fake_key (x.dpy, x.keysym_to_keycode (x.dpy, keysym), 1, 0);
  x.fake_key (x.dpy, x.keysym_to_keycode (x.dpy, keysym), 0, 0);
  if (mod_keysym != 0)
    x.fake_key (x.dpy, x.keysym_to_keycode (x.dpy, mod_keysym), 0, 0);
  x_sync ();
  zw_test_app_run_for (150);
}
