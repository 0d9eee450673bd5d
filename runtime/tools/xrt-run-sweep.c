/* xrt-run sweep — every option combination (merge x ETM optimize x OCM option) times an
 * optional what-if grid of device figures: a table of simulated time, FTMP, OCM and ETM
 * bytes and launches per row, the Pareto front of time vs ETM bytes, a recommendation;
 * CSV and JSON out.  The rows run in a thread pool; the answer does not depend on it. */
#include "xrt-run-private.h"

#include "deploy/zg330-sweep.h"
#include "xir/xir-network.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

static void
print_sweep (const ZwSweep *s)
{
  if (s->what_if->len <= 1)
    printf (ngettext ("Sweep of %s: %u row (%u option combination, one device profile)\n",
                      "Sweep of %s: %u rows (%u option combinations, one device profile)\n", s->rows->len),
            s->network_name, s->rows->len, s->rows->len);
  else
    printf (ngettext ("Sweep of %s: %u row (%u option combinations x %u what-if points)\n",
                      "Sweep of %s: %u rows (%u option combinations x %u what-if points)\n", s->rows->len),
            s->network_name, s->rows->len, s->rows->len / s->what_if->len, s->what_if->len);
  printf ("%4s %-5s %-3s %-10s %-10s %-22s %12s %12s %12s %12s %8s %-5s %s\n", "#", _("merge"), _("ETM"), _("OCM asked"),
          _("chosen"), _("what-if"), _("sim. ms"), _("FTMP B"), _("OCM B"), _("ETM B"), _("launches"), _("check"),
          _("front"));
  for (guint i = 0; i < s->rows->len; i++)
    {
      const ZwSweepRow *r = &g_array_index (s->rows, ZwSweepRow, i);
      if (r->error != NULL)
        {
          printf ("%4u %-5s %-3s %-10s %-10s %-22s %s\n", r->index, r->merge_hardop ? _("on") : _("off"),
                  r->etm_optimize ? _("on") : _("off"), zw_ocm_opt_to_string (r->ocm_requested), "-",
                  *r->what_if ? r->what_if : "-", r->error);
          continue;
        }
      printf ("%4u %-5s %-3s %-10s %-10s %-22s %12.4f %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %12"
              G_GUINT64_FORMAT " %8u %-5s %s\n", r->index, r->merge_hardop ? _("on") : _("off"),
              r->etm_optimize ? _("on") : _("off"), zw_ocm_opt_to_string (r->ocm_requested),
              zw_ocm_opt_to_string (r->ocm_chosen), *r->what_if ? r->what_if : "-", r->simulated_ms, r->ftmp_bytes,
              r->ocm_bytes, r->etm_bytes, r->launches, r->checked ? _("ok") : _("FAIL"),
              (gint) r->index == s->recommended ? "**" : r->on_front ? "*" : "");
    }
  printf ("\n%s", _("Pareto front (simulated time vs ETM bytes), fastest first:"));
  {
    g_autoptr (GArray) front = g_array_new (FALSE, FALSE, sizeof (guint));
    for (guint i = 0; i < s->rows->len; i++)
      if (g_array_index (s->rows, ZwSweepRow, i).on_front)
        g_array_append_val (front, i);
    /* by time (the rows' order within one time stays) */
    for (guint a = 1; a < front->len; a++)
      for (guint b = a; b > 0; b--)
        {
          guint *x = &g_array_index (front, guint, b - 1), *y = &g_array_index (front, guint, b);
          if (g_array_index (s->rows, ZwSweepRow, *y).simulated_ms < g_array_index (s->rows, ZwSweepRow, *x).simulated_ms)
            {
              guint t = *x;
              *x = *y;
              *y = t;
            }
        }
    for (guint i = 0; i < front->len; i++)
      printf (" #%u", g_array_index (front, guint, i));
  }
  printf ("\n");
  if (s->recommended >= 0)
    {
      const ZwSweepRow *r = &g_array_index (s->rows, ZwSweepRow, s->recommended);
      g_autofree char *etm = g_format_size_full (r->etm_bytes, G_FORMAT_SIZE_IEC_UNITS);
      printf (_("Recommended: #%d — merge %s, ETM optimize %s, OCM %s%s%s: %.4f ms simulated, %s in ETM "
                "(the fastest row on the front; equal times go to fewer ETM bytes)\n"), s->recommended,
              r->merge_hardop ? _("on") : _("off"), r->etm_optimize ? _("on") : _("off"),
              zw_ocm_opt_to_string (r->ocm_requested), *r->what_if ? ", " : "", r->what_if, r->simulated_ms, etm);
    }
  else
    printf ("%s\n", _("No row ran: nothing to recommend."));
}

int
xrt_run_cmd_sweep (int argc, char **argv)
{
  g_auto (GStrv) what_if = NULL;
  g_autofree char *csv = NULL, *json_out = NULL, *raw = NULL, *device = NULL;
  gint threads = 0;
  gboolean no_md5 = FALSE;
  GOptionEntry entries[] = {
    { "what-if", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &what_if,
      N_("A grid axis of device figures: ocm=SIZE,… (512K, 1M) or icore=HZ,… (800M, 1G); repeatable"), N_("NAME=V,…") },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, N_("Also write the rows as CSV"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_out, N_("Also write the sweep as JSON"), N_("FILE") },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &threads,
      N_("Rows run at once (default: ZW_SWEEP_THREADS or the processors); the answer is the same"), N_("N") },
    { "raw", 'r', 0, G_OPTION_ARG_FILENAME, &raw,
      N_("Params file (default: NET.raw beside the JSON; synthetic params when absent)"), N_("R") },
    { "no-md5", 0, 0, G_OPTION_ARG_NONE, &no_md5, N_("Do not check params_md5 (synthetic params)"), NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, N_("Device URL whose profile the grid varies (default mock://zg330)"),
      N_("URL") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("NET.json — every option combination x a what-if grid"));
  g_autoptr (GArray) axes = zg330_sweep_axes_new ();
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwSweep) sweep = NULL;
  g_autofree char *description = NULL;
  GError *error = NULL;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  description = g_strdup_printf (_("Runs the %u combinations of merge, ETM optimize and the OCM option at "
                                   "every point of the what-if grid, each on its own simulated board with "
                                   "one forward of seeded inputs, checks every plan with the independent "
                                   "checker, and marks the Pareto front of simulated time vs ETM bytes."),
                                 zw_sweep_get_n_combinations ());
  g_option_context_set_description (ctx, description);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2)
    {
      g_printerr ("xrt-run sweep: %s\n", _("expected exactly one NET.json"));
      return XRT_RUN_EXIT_USAGE;
    }
  if (threads < 0 || threads > 64)
    {
      g_printerr ("xrt-run sweep: %s\n", _("--threads must be between 1 and 64"));
      return XRT_RUN_EXIT_USAGE;
    }
  for (guint i = 0; what_if && what_if[i]; i++)
    if (!zg330_sweep_parse_what_if (axes, what_if[i], &error))
      {
        g_printerr ("xrt-run sweep: %s\n", error->message);
        g_error_free (error);
        return XRT_RUN_EXIT_USAGE;
      }
  net = xir_network_new_from_json_file (argv[1], &error);
  if (net == NULL)
    return xrt_run_fail (error);
  if (raw == NULL && g_str_has_suffix (argv[1], ".json"))
    {
      raw = g_strdup (argv[1]);
      strcpy (raw + strlen (raw) - 4, "raw");
      if (!g_file_test (raw, G_FILE_TEST_EXISTS))
        g_clear_pointer (&raw, g_free);
    }
  if (raw != NULL)
    {
      if (!xir_network_load_params_from_file_full (net, raw, no_md5 ? XIR_LOAD_NO_MD5 : XIR_LOAD_DEFAULT, &error))
        return xrt_run_fail (error);
    }
  else
    {
      g_printerr (_("xrt-run sweep: no .raw beside %s: using synthetic params (seed 330)\n"), argv[1]);
      xir_network_fake_params (net, XRT_DEPLOYMENT_SYNTHETIC_SEED);
    }
  Zg330SweepOptions opts = { axes, (guint) threads, FALSE, 0, NULL };
  sweep = zg330_sweep_run (net, device, &opts, &error);
  if (sweep == NULL)
    return xrt_run_fail (error);
  print_sweep (sweep);
  if (csv != NULL && !zw_sweep_save_csv (sweep, csv, &error))
    return xrt_run_fail (error);
  if (json_out != NULL && !zw_sweep_save_json (sweep, json_out, &error))
    return xrt_run_fail (error);
  for (guint i = 0; i < sweep->rows->len; i++)
    if (!g_array_index (sweep->rows, ZwSweepRow, i).checked && g_array_index (sweep->rows, ZwSweepRow, i).error == NULL)
      return XRT_RUN_EXIT_INPUT;
  return XRT_RUN_EXIT_OK;
}
