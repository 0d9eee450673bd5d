/* fuzz-snapshot.c — a session snapshot (xrt-run run --load-snapshot) against our tiny demo
 * network on a fresh mock board: restore, and when it restores, a forward. */
#include "zw-fuzz.h"

#include "xrt/xrt-session.h"

#include <string.h>

int
zw_fuzz_snapshot (const uint8_t *data, size_t size)
{
  static XirNetwork *net;
  static XrtDevice *device;
  g_autoptr (GError) error = NULL;

  if (net == NULL)
    {
      net = xir_network_new_from_json_file (zw_fuzz_tiny_network_path (), &error);
      if (net == NULL)
        g_error ("zw-fuzz: %s", error->message);
      g_autofree char *raw = g_strdup (zw_fuzz_tiny_network_path ());
      strcpy (raw + strlen (raw) - 4, "raw");
      if (!xir_network_load_params_from_file (net, raw, &error))
        g_error ("zw-fuzz: %s", error->message);
      device = xrt_device_open ("mock://zg330", &error);
      if (device == NULL)
        g_error ("zw-fuzz: %s", error->message);
    }
  /* the fuzzer writes the body; its checksum line is added here so that the loader is
   * exercised past the checksum (an input with its own "sha256" line keeps it) */
  g_autoptr (GString) text = g_string_new_len ((const char *) data, (gssize) size);
  if (g_strstr_len (text->str, (gssize) text->len, "\nsha256 ") == NULL)
    {
      g_autofree char *digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
      g_string_append_printf (text, "\nsha256 %s\n", digest);
    }
  const char *path = zw_fuzz_write_file ("fuzz.snapshot", (const uint8_t *) text->str, text->len);
  g_autoptr (XrtSession) sess = xrt_session_new_from_snapshot (path, net, device, &error);
  if (sess == NULL)
    {
      zw_fuzz_check_error (error, NULL, "xrt_session_new_from_snapshot");
      return 0;
    }
  /* a restored plan must run: zero inputs of the right sizes */
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *ins = xir_network_get_inputs (net);
  for (guint i = 0; i < ins->len; i++)
    g_ptr_array_add (inputs, xrt_tensor_new_host (net, ins->pdata[i], NULL, 0, NULL));
  g_autoptr (GPtrArray) outputs = xrt_session_forward (sess, inputs, &error);
  if (outputs == NULL)
    zw_fuzz_check_error (error, NULL, "forward on a restored snapshot");
  return 0;
}
