/* xrt-run — the headless command line of Zhuge Workbench. Links only the runtime.
 *
 *   xrt-run info NET.json [--raw NET.raw] [--json]
 *   xrt-run fake-params NET.json -o NET.raw [--seed S]
 *   xrt-run run NET.json|CONFIG.toml [options]   (see xrt-run-run.c)
 *   xrt-run plan NET.json [--no-merge] [--no-etm-opt] [--ocm OPT] [--json F]
 *   xrt-run plan --buffers FILE.csv [--output SOLUTION.csv] [--capacity BYTES]
 *   xrt-run check REPORT.json | PIPE-REPORT.json
 *   xrt-run plan|run|sweep PIPE.toml …   (several networks on one board: see xrt-run-pipeline.c)
 *   xrt-run report profile|compare|diff|stats …   (see xrt-run-report.c)
 *   xrt-run sweep NET.json [--what-if ocm=512K,1M] [--what-if icore=800M,1G] [--csv F] [--json F]
 *
 * Exit codes: 0 success, 1 bad input (a file or a value), 2 usage error.
 */
#include "xrt-run-private.h"
#include "base/zw-locale.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
} Command;

static const Command commands[] = {
  { "info", N_("Show a network: ops by kind and hardop class, values, chunks, params, inputs and outputs"),
    xrt_run_cmd_info },
  { "fake-params", N_("Write a .raw with deterministic synthetic params of exactly the right sizes"),
    xrt_run_cmd_fake_params },
  { "run", N_("Deploy and run a network on the simulated board (icraft run): profile, dumps, snapshots"),
    xrt_run_cmd_run },
  { "plan", N_("Plan a network's segments, FTMP and OCM options, or a MiniMalloc CSV buffer list"),
    xrt_run_cmd_plan },
  { "check", N_("Verify a deploy report: no live values share bytes, addresses in their segments"),
    xrt_run_cmd_check },
  { "report", N_("Offline analysis: convert and compare time profiles, diff dump folders, tensor statistics"),
    xrt_run_cmd_report },
  { "sweep", N_("Every option combination x a what-if grid: simulated time, FTMP/OCM/ETM bytes, the Pareto front"),
    xrt_run_cmd_sweep },
};

int
xrt_run_fail (GError *error)
{
  g_printerr ("xrt-run: %s\n", error->message);
  g_error_free (error);
  return XRT_RUN_EXIT_INPUT;
}

int
xrt_run_parse (GOptionContext *ctx, int *argc, char ***argv)
{
  GError *error = NULL;

  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      g_printerr ("xrt-run: %s\n", error->message);
      g_error_free (error);
      return XRT_RUN_EXIT_USAGE;
    }
  return 0;
}

int
xrt_run_check_number (const char *cmd, const char *option, double value, double min, double max)
{
  char v[G_ASCII_DTOSTR_BUF_SIZE];

  if (isfinite (value) && value >= min && value <= max)
    return 0;
  g_ascii_formatd (v, sizeof v, "%g", value);
  if (max == G_MAXDOUBLE)
    g_printerr (_("xrt-run %s: --%s must be a finite number >= %g, not %s\n"), cmd, option, min, v);
  else
    g_printerr (_("xrt-run %s: --%s must be a finite number in [%g, %g], not %s\n"), cmd, option, min, max, v);
  return XRT_RUN_EXIT_USAGE;
}

char *
xrt_run_ocm_help (void)
{
  g_autofree char *list = zw_ocm_opt_dup_short_list ();

  /* TRANSLATORS: --ocm's help: the options ("none, 1, 2, 3, best") and the default */
  return g_strdup_printf (_("ocmOptimize: one of %s (default %s)"), list, zw_ocm_opt_get_nick (ZW_OCM_BEST_SCORE));
}

char *
xrt_run_ocm_options_text (void)
{
  GString *s = g_string_new (_("OCM options (--ocm):"));

  for (guint i = 0; i < zw_ocm_opt_get_count (); i++)
    {
      ZwOcmOpt opt = zw_ocm_opt_get_nth (i);
      g_autofree char *label = zw_ocm_opt_dup_long_label (opt);
      /* a planner is asked for by its number, the others by their short name */
      g_autofree char *spelling = opt > ZW_OCM_NONE ? g_strdup_printf ("%d", (int) opt)
                                                      : g_strdup (zw_ocm_opt_get_nick (opt));

      g_string_append_printf (s, "\n  %-5s %-11s %s\n%20s%s", spelling, zw_ocm_opt_to_string (opt), label, "",
                              zw_ocm_opt_get_description (opt));
    }
  return g_string_free (s, FALSE);
}

gboolean
xrt_run_parse_ocm (const char *command, const char *text, ZwOcmOpt *out)
{
  g_autofree char *list = NULL;

  if (zw_ocm_opt_from_string (text, out))
    return TRUE;
  list = zw_ocm_opt_dup_short_list ();
  g_printerr (_("xrt-run %s: --ocm “%s” is not one of %s\n"), command, text, list);
  return FALSE;
}

static void
usage (FILE *out)
{
  fprintf (out, "%s\n\n", _("Usage: xrt-run COMMAND [OPTIONS…]"));
  fprintf (out, "%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-14s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run “xrt-run COMMAND --help” for the options of a command."));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  /* installed, or the build tree's po/ when run from the build tree (ZW_LOCALEDIR overrides) */
  bindtextdomain (GETTEXT_PACKAGE, zw_locale_dir (LOCALEDIR));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? XRT_RUN_EXIT_USAGE : 0;
    }
  /* a pipeline file (several networks on one board) to run or plan, a pipeline report to check */
  if ((strcmp (argv[1], "run") == 0 || strcmp (argv[1], "plan") == 0 || strcmp (argv[1], "sweep") == 0)
      && xrt_run_find_pipeline_file (argc - 1, argv + 1) != NULL)
    return (argv[1][0] == 'r' ? xrt_run_pipeline_cmd_run
            : argv[1][0] == 'p' ? xrt_run_pipeline_cmd_plan : xrt_run_pipeline_cmd_sweep) (argc - 1, argv + 1);
  if (strcmp (argv[1], "check") == 0 && argc == 3)
    {
      int rc = xrt_run_pipeline_check_if_pipeline (argv[2]);
      if (rc >= 0)
        return rc;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);
  g_printerr (_("xrt-run: unknown command “%s”\n"), argv[1]);
  usage (stderr);
  return XRT_RUN_EXIT_USAGE;
}
