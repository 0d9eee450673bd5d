/* zw-test-app.h — what the workbench's display tests (test-app*.c) share: waiting on the main
 * context for a condition, bounded and never a sleep. Linking zw-test-app.c also gives the
 * LeakSanitizer suppressions those tests need under AddressSanitizer. */
#pragma once

#include <glib.h>

typedef gboolean (*ZwTestPredicate) (gpointer data);

/* Iterates the default main context until @pred(@data) holds or @timeout_s seconds pass (a
 * periodic source brings an idle loop back to the clock). Returns the last @pred. */
gboolean zw_test_app_wait_for (ZwTestPredicate pred, gpointer data, guint timeout_s);

/* Iterates the default main context for @ms milliseconds (lets the window lay out and draw). */
void zw_test_app_run_for (guint ms);
