/* bench-dumps — the workbench's memory over a working session (issue 37 item 3): on the demo
 * network (the YOLOv5s-like one the app opens), N cycles of an option change (a new apply),
 * a forward, a dump and a diff of that dump with the one before from the history, then a
 * sweep of the options; the RSS printed after each cycle and after the sweep. What stays is
 * one folder in Tensors and the two sides of the diff shown. Asserts that memory is bounded
 * across dumps: after the first diff (cycle 2) the later cycles add less than half the first
 * dump's growth each, and the RSS stays under 600 MiB to the end. */
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "zw-application.h"
#include "zw-dump-diff-view.h"
#include "zw-window.h"

#define N_CYCLES 30

static ZwWindow *win;

static guint64
rss_kib (void)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL) || (p = strstr (text, "VmRSS:")) == NULL)
    return 0;
  return g_ascii_strtoull (p + 6, NULL, 10);
}

static gboolean
wake_up (gpointer data)
{
  (void) data;
  return G_SOURCE_CONTINUE;
}

static guint
n_runs (void)
{
  return zw_window_get_n_runs_made (win);
}

static void
wait_for_runs (guint n)
{
  gint64 end = g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
  guint tick = g_timeout_add (20, wake_up, NULL);

  while ((zw_window_get_busy (win) || n_runs () < n) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  if (n_runs () < n)
    g_error ("no run #%u after 300 s (banner: %s)", n, zw_window_get_banner_message (win));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Waits until the work queued by an action has run: the controller was busy and is idle. */
static void
wait_idle (const char *what)
{
  gint64 end = g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
  guint tick = g_timeout_add (20, wake_up, NULL);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  while (zw_window_get_busy (win) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  if (zw_window_get_busy (win))
    g_error ("%s still running after 300 s (banner: %s)", what, zw_window_get_banner_message (win));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwApplication) app = NULL;
  g_autofree char *cache = g_dir_make_tmp ("zw-bench-dumps-XXXXXX", NULL);
  guint64 base, first = 0, prev, growth[N_CYCLES];
  ZwRun *prev_run = NULL;
  int status = 0;

  (void) argc;
  (void) argv;
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  if (!gtk_init_check ())
    {
      printf ("bench-dumps: no display (run under xvfb-run)\n");
      return 77;
    }
  app = zw_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("cannot register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  win = ZW_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
  wait_for_runs (1);
  base = prev = rss_kib ();
  printf ("bench-dumps: the demo network, %u option change + forward + dump + diff cycles, then a sweep; "
          "RSS after opening %.1f MiB\n", N_CYCLES, base / 1024.0);
  for (guint i = 0; i < N_CYCLES; i++)
    {
      guint64 now;
      ZwRun *run;
      const char *ocm = i % 2 == 0 ? "option1" : "best";

      /* an option change re-applies; then one forward */
      gtk_widget_activate_action (GTK_WIDGET (win), "win.ocm-option", "s", ocm);
      wait_idle ("the apply");
      gtk_widget_activate_action (GTK_WIDGET (win), "win.forward", NULL);
      wait_idle ("the forward");
      gtk_widget_activate_action (GTK_WIDGET (win), "win.dump-tensors", "s", "SFB");
      wait_for_runs (n_runs () + 1);
      run = zw_window_get_selected_run (win);
      if (prev_run != NULL)
        {
          zw_run_set_compare (prev_run, TRUE);
          zw_run_set_compare (run, TRUE);
          if (!zw_window_diff_marked_runs (win))
            g_error ("cycle %u: the two marked runs were not diffed", i);
          /* the diff runs in the view's worker (its progress ticks wake the loop) */
          while (zw_dump_diff_view_get_running (ZW_DUMP_DIFF_VIEW (zw_window_get_view (win, "diff"))))
            g_main_context_iteration (NULL, TRUE);
          zw_run_set_compare (prev_run, FALSE);
          zw_run_set_compare (run, FALSE);
        }
      prev_run = run;
      while (g_main_context_iteration (NULL, FALSE))
        ;
      now = rss_kib ();
      growth[i] = now > prev ? now - prev : 0;
      if (i == 0)
        first = growth[0];
      printf ("  dump %u: RSS %.1f MiB (+%.1f MiB)\n", i + 1, now / 1024.0, growth[i] / 1024.0);
      prev = now;
    }
  printf ("  total growth over %u dumps: %.1f MiB (the first: %.1f MiB; %.2f MiB per dump after the second)\n",
          N_CYCLES, (prev - base) / 1024.0, first / 1024.0,
          N_CYCLES > 2 ? ((double) prev - (double) base - (double) first - (double) growth[1]) / 1024.0 / (N_CYCLES - 2) : 0.0);
  {
    guint64 before = prev;

    if (!zw_window_sweep (win, ""))
      g_error ("the sweep did not start (banner: %s)", zw_window_get_banner_message (win));
    wait_idle ("the sweep");
    prev = rss_kib ();
    printf ("  after the sweep: RSS %.1f MiB (%+.1f MiB)\n", prev / 1024.0, ((double) prev - (double) before) / 1024.0);
  }
  if (prev > 600 * 1024)
    {
      printf ("  RSS %.1f MiB at the end of the session: over 600 MiB\n", prev / 1024.0);
      status = 1;
    }
  /* bounded: once a diff is shown, each cycle grows by less than half the first dump */
  for (guint i = 2; i < N_CYCLES; i++)
    if (first > 0 && growth[i] * 2 > first)
      {
        printf ("  dump %u grew by %.1f MiB: memory is not bounded across dumps\n", i + 1, growth[i] / 1024.0);
        status = 1;
      }
  gtk_window_destroy (GTK_WINDOW (win));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_rmdir (cache);
  return status;
}
