/* fuzz-run-config.c — the [run] section of an icraft-run config file (xrt-run run CONFIG.toml). */
#include "zw-fuzz.h"

#include "xrt-run-private.h"

int
zw_fuzz_run_config (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_auto (RunOptions) o = { 0 };
  const char *path = zw_fuzz_write_file ("fuzz.toml", data, size);

  if (!xrt_run_load_config (path, &o, &error))
    zw_fuzz_check_error (error, "fuzz.toml", "xrt_run_load_config");
  return 0;
}
