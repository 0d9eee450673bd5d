/* fuzz-run-config.c — icraft-run's keys in both spellings: the [run] section of a config file
 * (xrt-run run CONFIG.toml), and the same bytes split at blanks as its command line
 * (`--json F --dump_format SQB --log_time …`, xrt_run_take_vendor_flags). */
#include "zw-fuzz.h"

#include "xrt-run-private.h"

#include <string.h>

static void
fuzz_flags (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_auto (RunOptions) o = { 0 };
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_auto (GStrv) words = NULL;
  int argc;

  if (!g_utf8_validate (text, -1, NULL))
    return;
  words = g_strsplit_set (text, " \t\n", -1);
  g_ptr_array_add (args, (gpointer) "run");
  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0')
      g_ptr_array_add (args, words[i]);
  argc = (int) args->len;
  g_ptr_array_add (args, NULL);
  if (!xrt_run_take_vendor_flags (&argc, (char **) args->pdata, &o, &error))
    {
      /* a refused flag names itself */
      zw_fuzz_check_error (error, "--", "xrt_run_take_vendor_flags");
      return;
    }
  /* what stays is ours, in order, NULL-terminated */
  g_assert (argc >= 1 && argc <= (int) args->len - 1);
  g_assert (args->pdata[argc] == NULL);
  if (!xrt_run_options_finish (&o, NULL, &error))
    zw_fuzz_check_error (error, NULL, "xrt_run_options_finish");
}

int
zw_fuzz_run_config (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_auto (RunOptions) o = { 0 };
  const char *path = zw_fuzz_write_file ("fuzz.toml", data, size);

  if (!xrt_run_load_config (path, &o, &error))
    zw_fuzz_check_error (error, "fuzz.toml", "xrt_run_load_config");
  fuzz_flags (data, size);
  return 0;
}
