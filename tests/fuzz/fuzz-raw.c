/* fuzz-raw.c — a .raw params file against our tiny demo network: strict, no-md5 and lazy loads. */
#include "zw-fuzz.h"

#include "xir/xir-network.h"

#include <stdlib.h>

int
zw_fuzz_raw (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;

  const char *path = zw_fuzz_write_file ("fuzz_ZG.raw", data, size);
  /* each load on a fresh copy of the network, so one input cannot leak into the next */
  g_autofree char *json = NULL;
  gsize len = 0;
  if (!g_file_get_contents (zw_fuzz_tiny_network_path (), &json, &len, NULL))
    abort ();
  for (int mode = 0; mode < 3; mode++)
    {
      g_autoptr (XirNetwork) n = xir_network_new_from_json_data (json, len, "tiny_ZG.json", NULL);
      gboolean ok;
      g_clear_error (&error);
      if (mode == 0)
        ok = xir_network_load_params_from_file (n, path, &error);
      else if (mode == 1)
        ok = xir_network_load_params_from_file_full (n, path, XIR_LOAD_NO_MD5, &error);
      else
        ok = xir_network_lazy_load_params_from_file (n, path, &error);
      if (!ok)
        {
          zw_fuzz_check_error (error, "fuzz_ZG.raw", "load params");
          continue;
        }
      /* touch every blob as a forward would */
      GPtrArray *params = xir_network_get_params (n);
      guint64 sum = 0;
      for (guint i = 0; i < params->len; i++)
        {
          const XirValue *p = params->pdata[i];
          const guint8 *bytes = xir_network_get_params_data (n, p);
          if (bytes && p->storage_bytes > 0)
            sum += bytes[0] + bytes[p->storage_bytes - 1];
        }
      (void) sum;
    }
  return 0;
}
