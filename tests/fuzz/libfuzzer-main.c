/* libfuzzer-main.c — libFuzzer's entry point for one harness, chosen at build time. */
#include "zw-fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  return ZW_FUZZ_ENTRY (data, size);
}
