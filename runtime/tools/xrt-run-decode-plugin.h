/* xrt-run-decode-plugin.h — the C signature of an icraft-run preprocessing plugin
 * (the `[run]` key decode_dll, `xrt-run run --decode_dll LIB.so`).
 *
 * The vendor's XRun loads a "dynamic link library used for the network's input preprocessing"
 * (icraft-run manual, decode_dll). Ours is a shared library that exports one function,
 * XRT_RUN_DECODE_SYMBOL, of type XrtRunDecodeFunc. `xrt-run run` loads it with GModule and,
 * for every input file of every forward, calls it once with the file's bytes (read under the
 * runtime's file rule: a regular file, size-capped) and the network input the file is for;
 * the plugin writes exactly the input's storage bytes into @dest. Whatever the file is (an
 * image format of its own, a video frame, a CSV) is the plugin's business: its bytes go to
 * the board unchanged.
 *
 * The header is plain C (no GLib), so a plugin builds with any C compiler:
 *
 *   #include <zhuge-runtime/tools/xrt-run-decode-plugin.h>
 *
 *   int
 *   xrt_run_decode_input (const XrtRunDecodeInput *in, const unsigned char *data, size_t size,
 *                         unsigned char *dest, char *message, size_t message_size)
 *   {
 *     if (in->abi_version != XRT_RUN_DECODE_ABI_VERSION)
 *       return snprintf (message, message_size, "built for ABI %d", XRT_RUN_DECODE_ABI_VERSION), -1;
 *     … fill in->storage_bytes bytes of @dest from @data …
 *     return 0;
 *   }
 *
 *   cc -shared -fPIC -o libmydecode.so mydecode.c
 *
 * Threads: called from the thread that runs `xrt-run run`, one call at a time.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of XrtRunDecodeInput this header describes; a new field raises it. */
#define XRT_RUN_DECODE_ABI_VERSION 1

/* The name of the function a plugin exports. */
#define XRT_RUN_DECODE_SYMBOL "xrt_run_decode_input"

/* The network input a file is decoded for (all pointers borrowed for the call). */
typedef struct {
  int abi_version;          /* XRT_RUN_DECODE_ABI_VERSION of the caller */
  unsigned int index;       /* which network input, from 0 */
  int64_t v_id;             /* its value id in the network JSON */
  const char *path;         /* the file the bytes come from, for messages */
  const char *dtype;        /* the storage type as the vendor writes it: "@uint(8)", "@sint(8)", "@fp(32)" … */
  const char *layout;       /* the layout: "NHWC", "NCHWc32" … ("*" when any) */
  unsigned int rank;
  const int64_t *shape;     /* @rank dimensions, in @layout's axis order */
  uint64_t storage_bytes;   /* how many bytes the plugin writes into dest */
} XrtRunDecodeInput;

/* Decodes @size bytes of @data (the file @in->path) into @dest, which holds exactly
 * @in->storage_bytes bytes. Returns 0 on success; any other value is a failure, and the
 * plugin then writes why (a NUL-terminated line) into @message (@message_size bytes), which
 * `xrt-run run` reports naming the plugin and the file. */
typedef int (*XrtRunDecodeFunc) (const XrtRunDecodeInput *in, const unsigned char *data, size_t size,
                                 unsigned char *dest, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
