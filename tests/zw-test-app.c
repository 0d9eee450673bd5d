/* zw-test-app.c — the display tests' shared start-up, waiting and actions (zw-test-app.h). */
#include <gdk/x11/gdkx.h>
#include <dlfcn.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdlib.h>

#include "zw-test-app.h"
#include "base/zw-locale.h"

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
  if (!zw_test_app_wait_for (zw_test_app_is_idle_with_runs, GUINT_TO_POINTER (n), 120))
    g_error ("no run #%u after 120 s (banner: %s)", n, zw_window_get_banner_message (test_win));
  return zw_window_get_selected_run (test_win);
}

void
zw_test_app_activate (const char *action, GVariant *param)
{
  if (!gtk_widget_activate_action_variant (GTK_WIDGET (test_win), action, param))
    g_error ("the window has no action %s", action);
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

void
zw_test_app_remove_folder (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);
      g_unlink (file);
    }
  g_rmdir (path);
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
