/* decode-plugin-reverse.c — a decode_dll plugin for tests/test-icraft-run.c, written against
 * the public header only (no GLib): a file "REV1" + the input's bytes in reverse order. It
 * refuses a file of another size and, to prove what xrt-run tells it, an input whose
 * description does not add up (dtype, layout, shape, storage bytes). */
#include "xrt-run-decode-plugin.h"

#include <stdio.h>
#include <string.h>

int xrt_run_decode_input (const XrtRunDecodeInput *in, const unsigned char *data, size_t size, unsigned char *dest,
                          char *message, size_t message_size);

int
xrt_run_decode_input (const XrtRunDecodeInput *in, const unsigned char *data, size_t size, unsigned char *dest,
                      char *message, size_t message_size)
{
  uint64_t n = 1;

  if (in->abi_version != XRT_RUN_DECODE_ABI_VERSION)
    {
      snprintf (message, message_size, "built for ABI %d, called with %d", XRT_RUN_DECODE_ABI_VERSION, in->abi_version);
      return -1;
    }
  for (unsigned int k = 0; k < in->rank; k++)
    n *= (uint64_t) in->shape[k];
  if (strcmp (in->dtype, "@uint(8)") != 0 || strcmp (in->layout, "NHWC") != 0 || in->rank != 4 || n != in->storage_bytes
      || in->index != 0 || in->v_id != 0)
    {
      snprintf (message, message_size, "input %u (v_id %lld) is %s %s: not the uint8 NHWC image this plugin makes",
                in->index, (long long) in->v_id, in->dtype, in->layout);
      return 2;
    }
  if (size != in->storage_bytes + 4 || memcmp (data, "REV1", 4) != 0)
    {
      snprintf (message, message_size, "%s is not a REV1 file of %llu bytes", in->path,
                (unsigned long long) in->storage_bytes + 4);
      return 1;
    }
  for (uint64_t i = 0; i < in->storage_bytes; i++)
    dest[i] = data[4 + in->storage_bytes - 1 - i];
  return 0;
}
