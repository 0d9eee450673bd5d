/* main.c — zhuge-workbench: the GTK4 workbench over the ZG330 runtime. */
#include <glib/gi18n.h>
#include <locale.h>

#include "zw-application.h"
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

int
main (int argc, char *argv[])
{
  g_autoptr (ZwApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  /* installed, or the build tree's po/ when run from the build tree (ZW_LOCALEDIR overrides) */
  bindtextdomain (GETTEXT_PACKAGE, zw_locale_dir (LOCALEDIR));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = zw_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  return status != 0 ? status : zw_application_get_exit_status (app);
}
