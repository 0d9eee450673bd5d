/* zw-test-app.c — the display tests' shared waiting (zw-test-app.h). */
#include "zw-test-app.h"

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
