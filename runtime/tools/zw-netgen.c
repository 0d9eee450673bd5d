/* zw-netgen — writes a demo network (<name>_ZG.json + <name>_ZG.raw) in the vendor's
 * format. See netgen.h for what each network holds.
 *
 *   zw-netgen NAME -o DIR [--ops N] [--seed S] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>

#include "netgen.h"
#include "base/zw-file-read.h"

static gboolean
parse_unsigned (const char *option, const char *text, guint64 min, guint64 max, guint64 *out,
                GError **error)
{
  GError *local = NULL;

  if (!g_ascii_string_to_unsigned (text, 10, min, max, out, &local))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   "%s \"%s\": %s", option, text, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *out_dir = NULL, *ops_text = NULL, *seed_text = NULL;
  g_autofree char *json_path = NULL, *raw_path = NULL, *names = NULL, *summary = NULL;
  gboolean quiet = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Directory to write into (created if missing)", "DIR" },
    { "ops", 0, 0, G_OPTION_ARG_STRING, &ops_text, "chain only: number of ops (default 10000)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_text, "Seed of the scales and params (default 1)", "S" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing on success", NULL },
    G_OPTION_ENTRY_NULL,
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  ZwNetgenOptions opts;
  guint64 value;
  gint64 start;

  names = g_strjoinv ("|", (char **) zw_netgen_get_names ());
  summary = g_strdup_printf ("NAME is one of %s. Writes DIR/NAME_ZG.json and DIR/NAME_ZG.raw.", names);
  context = g_option_context_new ("NAME - generate a demo ZG330 network");
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    goto fail;
  if (argc != 2)
    {
      g_set_error (&error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   argc < 2 ? "missing network NAME (one of %s)" : "expected one NAME (one of %s)", names);
      goto fail;
    }
  if (out_dir == NULL)
    {
      g_set_error (&error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   "missing -o DIR (the directory to write into)");
      goto fail;
    }

  zw_netgen_options_init (&opts);
  if (ops_text != NULL)
    {
      if (!parse_unsigned ("--ops", ops_text, ZW_NETGEN_CHAIN_MIN_OPS, ZW_NETGEN_CHAIN_MAX_OPS, &value, &error))
        goto fail;
      opts.n_ops = (guint) value;
    }
  if (seed_text != NULL)
    {
      if (!parse_unsigned ("--seed", seed_text, 0, G_MAXUINT64, &value, &error))
        goto fail;
      opts.seed = value;
    }

  start = g_get_monotonic_time ();
  if (!zw_netgen_write_network (argv[1], &opts, out_dir, &json_path, &raw_path, &error))
    goto fail;
  if (!quiet)
    {
      g_autoptr (GMappedFile) json = zw_file_map_regular (json_path, ZW_INPUT_NETWORK, 0, NULL);
      g_autoptr (GMappedFile) raw = zw_file_map_regular (raw_path, ZW_INPUT_PARAMS, 0, NULL);

      printf ("%s: %" G_GSIZE_FORMAT " bytes\n%s: %" G_GSIZE_FORMAT " bytes\ngenerated in %.2f s\n",
              json_path, json ? g_mapped_file_get_length (json) : 0,
              raw_path, raw ? g_mapped_file_get_length (raw) : 0,
              (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
    }
  return EXIT_SUCCESS;

fail:
  fprintf (stderr, "zw-netgen: %s\n", error->message);
  return EXIT_FAILURE;
}
